"""The room decides every message a guest sends (:meth:`Room.receive`) and every move of the
host's own person (:meth:`Room.local`), as the host's page did by hand before.

:func:`page_before` is that page's dispatch (``host_message`` of the friends host, with the
page's own effects written down instead of done), kept here as the reference: on any run
of messages, ``receive`` sends the same bytes to the same peers and asks the page for the
same effects — but for the two places it is stricter, each tested on its own below.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sxmj.bots import Bot
from sxmj.game import Action
from sxmj.match import Match
from sxmj.messages import CoreError
from sxmj.room.host import HOST, Reception, Room, canonical, deal, seen_step
from sxmj.room.protocol import (
    EMOJI,
    GUEST_TYPES,
    MAX_GUEST_BYTES,
    PHRASES,
    ProtocolError,
    message,
    parse,
    turn_action,
    turned,
)
from sxmj.rules import Options

SECRET = "s3cret-s3cret-s3cret"
PEERS = ("peer-1", "peer-2", "peer-3", "stranger")


def entropy(seed: int):
    rng = random.Random(seed)
    return lambda: rng.getrandbits(64)


def new_room() -> Room:
    tokens = iter(f"token-{i}" for i in range(100))
    return Room("room-id", SECRET, "Host", tokens=tokens.__next__)


def page_before(room: Room, match: Match | None, peer: str, text: str
                ) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """What the host's page did with a guest's message before :meth:`Room.receive`: what
    it sent, and what it did itself (``effects``), as it was written there."""
    sent: list[tuple[str, str]] = []
    effects: dict[str, Any] = {}
    try:
        msg = parse(str(text))
    except ProtocolError as e:
        return sent, {"dropped": e.code}
    kind = msg["t"]
    if kind == "hello":
        sent += room.hello(peer, msg)
        s = room.seat_of(peer)
        if s is not None:
            effects["back"] = s
            if room.started:
                assert match is not None
                sent.append((peer, room.state(s, match, [], full=True)))
    elif kind == "sit":
        sent += room.sit(peer, msg)
    elif kind == "act":
        got = room.check(peer, msg, match)  # type: ignore[arg-type]  # None: not started
        if isinstance(got, Action):
            effects["action"] = got
        else:
            # (stricter since: the move as the table writes it, never the sender's text)
            sent.append((peer, message("refused", code=got.code,
                                       action=canonical(msg["action"]))))
    elif kind == "ready":
        s = room.seat_of(peer)
        if s is not None and match is not None and msg["hand"] == match.hand_no:
            effects["ready"] = s
    elif kind == "say":
        s = room.seat_of(peer)
        if s is not None and (msg["phrase"] in PHRASES or msg["phrase"] in EMOJI):
            effects["said"] = (s, msg["phrase"])
            for g in room.guests():
                sent.append((room.seats[g].peer or "", message(
                    "said", seat=turned(s, g), phrase=msg["phrase"])))
    elif kind == "ping":
        sent.append((peer, message("pong")))
    return sent, effects


def effects_of(got: Reception) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if got.dropped:
        assert got.refused is not None
        out["dropped"] = got.refused.code
    for name in ("action", "back", "ready", "said"):
        if getattr(got, name) is not None:
            out[name] = getattr(got, name)
    return out


def a_message(data: st.DataObject, room: Room, match: Match | None, peer: str) -> str:
    """A message ``peer`` might send now: mostly what a guest's page sends, some of it late,
    forged or for another seat, and some of it not a message at all."""
    kind = data.draw(st.sampled_from(["hello", "hello", "sit", "sit", "act", "act", "act",
                                      "ready", "say", "ping", "junk"]))
    seat = room.seat_of(peer)
    if kind == "hello":
        tokens = [None, "", "token-x"] + [s.token for s in room.seats if s.token]
        return message("hello", secret=data.draw(st.sampled_from([SECRET, SECRET, "guess"])),
                       name="G", token=data.draw(st.sampled_from(tokens)))
    if kind == "sit":
        return message("sit", seat=data.draw(st.integers(-1, 4)),
                       name=data.draw(st.sampled_from(["Ann", "", " \x00Bo\u200bb ", "x" * 40])))
    if kind == "act":
        if match is not None and seat is not None and seat in match.game.to_move() \
                and data.draw(st.sampled_from([True, True, True, False])):
            action = data.draw(st.sampled_from(match.game.legal_actions(seat)))
            text = str(turn_action(action, seat))
        else:
            text = data.draw(st.sampled_from(["0 pass", "0 hu", "1 discard 5m", "0 discard 1m",
                                              "0 teleport", "", "0 peng 5p"]))
        hand = match.hand_no if match is not None else 0
        step = seen_step(match.game, seat) if match is not None and seat is not None else 0
        off = st.sampled_from([0] * 8 + [1, -1])
        return message("act", hand=hand + data.draw(off), step=step + data.draw(off),
                       action=text)
    if kind == "ready":
        hand = match.hand_no if match is not None else 0
        return message("ready", hand=hand + data.draw(st.sampled_from([0, 0, 1])))
    if kind == "say":
        return message("say", phrase=data.draw(st.sampled_from(PHRASES + EMOJI + ("boo", ""))))
    if kind == "ping":
        return message("ping")
    return data.draw(st.sampled_from([
        "", "{}", "[]", "null", '{"v":1}', '{"v":2,"t":"ping"}', '{"v":1,"t":"state","state":{}}',
        '{"v":1,"t":"ping","x":1}', '{"v":1,"t":"sit","seat":true,"name":"a"}',
        message("say", phrase="x" * MAX_GUEST_BYTES), "\ud800", '{"v":1,"t":"hello",'
        '"secret":"\\ud800","name":"","token":"\\udfff"}']))


class Both:
    """Two rooms and their matches: one fed through the page's old dispatch, one through
    ``receive``; every step checks that they answered and stayed the same."""

    def __init__(self, seed: int):
        self.seed = seed
        self.before, self.after = new_room(), new_room()
        self.old: Match | None = None
        self.new: Match | None = None

    def message(self, peer: str, text: str) -> None:
        before, after = self.before, self.after
        seated, lobby, stored = before.seat_of(peer), before.lobby(), before._stored()
        sent, effects = page_before(before, self.old, peer, text)
        got = after.receive(peer, text)
        if effects.get("back") is not None and parse(text)["secret"] != SECRET:
            # the one difference: a seated guest's hello with a wrong secret used to be
            # answered "closed" and then with its table; now with "closed" alone
            assert seated is not None and json.loads(sent[0][1])["t"] == "closed"
            sent, effects = sent[:1], {}
        assert got.replies == sent
        assert effects_of(got) == effects
        assert got.lobby == (before.lobby() != lobby)  # the page redrew it every time
        assert got.save == (before._stored() != stored)  # the page saved every time
        if got.action is not None:
            self.play(got.action)
        self.same()

    def play(self, action: Action) -> None:
        assert self.old is not None and self.new is not None
        assert self.old.apply(action) == self.new.apply(action)

    def start(self) -> None:
        # what the page's start did: every guest's whole table, then the lobby
        before = self.before
        self.old = old = deal(entropy(self.seed), Options())
        before.started = True
        sent = [(p, before.state(s, old, old.game.deal_events, True))
                for s in before.guests() if (p := before.seats[s].peer)]
        sent += before.lobby_to_all()
        self.new = deal(entropy(self.seed), Options())
        assert self.after.start(self.new) == sent and self.after.match is self.new
        self.same()

    def same(self) -> None:
        before, after = self.before, self.after
        assert before._stored() == after._stored() and before.lobby() == after.lobby()
        assert before.admitted == after.admitted
        if self.old is not None and self.new is not None:
            assert self.new.game.actions == self.old.game.actions


@given(st.integers(0, 10**6), st.data())
@settings(max_examples=120, deadline=None)
def test_receive_does_what_the_page_did(seed, data):
    """Two rooms, the same messages: one through the page's old dispatch, one through
    ``receive``. Every reply is the same, byte for byte, to the same peer, and so is every
    effect; the rooms stay the same; each accepted move is played on both matches."""
    both = Both(seed)
    for peer in PEERS[:3]:  # the lobby: some guests sit down, among other messages
        for _ in range(data.draw(st.integers(0, 3))):
            both.message(peer, a_message(data, both.before, None, peer))
        if data.draw(st.booleans()):
            both.message(peer, message("hello", secret=SECRET, name="G", token=None))
            both.message(peer, message("sit", seat=int(peer[-1]), name=peer))
    both.start()
    bot = Bot("easy", seed)
    for step in range(data.draw(st.integers(5, 80))):
        old, new = both.old, both.new
        assert old is not None and new is not None
        event = data.draw(st.sampled_from(["message"] * 8 + ["drop", "bot", "bot", "deal"]))
        asked = [p for p in PEERS if both.before.seat_of(p) in old.game.to_move()]
        peer = data.draw(st.sampled_from(asked + asked + list(PEERS)))
        if event == "drop":
            assert both.before.drop(peer) == both.after.drop(peer)
        elif event == "bot" and not old.game.over:
            seat = old.game.to_move()[0]
            both.play(bot.choose(old.game.observation(seat),
                                 old.game.legal_actions(seat)).action)
        elif event == "deal" and old.game.over and not old.finished:
            deal(entropy(seed + step), old.options, old)
            deal(entropy(seed + step), new.options, new)
        elif event == "message":
            both.message(peer, a_message(data, both.before, old, peer))


def test_a_wrong_secret_from_a_seated_guest_gets_closed_and_nothing_else():
    room = new_room()
    room.receive("p", message("hello", secret=SECRET, name="A", token=None))
    room.receive("p", message("sit", seat=1, name="A"))
    room.start(deal(entropy(1), Options()))
    got = room.receive("p", message("hello", secret="guess", name="A", token=None))
    assert [json.loads(m) for _, m in got.replies] == [{"v": 1, "t": "closed",
                                                        "reason": "secret"}]
    assert got.back is None and not got.lobby and not got.save


def test_ready_counts_only_once_the_match_is_on_and_for_its_hand():
    room = new_room()
    room.receive("p", message("hello", secret=SECRET, name="A", token=None))
    room.receive("p", message("sit", seat=3, name="A"))
    assert room.receive("p", message("ready", hand=0)).ready is None  # no match yet
    match = deal(entropy(2), Options())
    room.start(match)
    assert room.receive("p", message("ready", hand=1)).ready is None
    assert not room.all_ready()  # seat 3 has not asked yet
    assert room.receive("p", message("ready", hand=0)).ready == 3
    assert room.receive("stranger", message("ready", hand=0)).ready is None
    assert room.ready == {3} and not room.all_ready()  # the host has not pressed 下一局
    room.host_ready()
    assert room.all_ready()
    room.dealt()  # the next hand: everyone is asked again
    assert room.ready == set() and not room.all_ready()


# ------------------------------------------------------------------ never raises, never plays


def snapshot(match: Match) -> tuple[str, int, list[int]]:
    return json.dumps(match.game.observation(0).to_json()), len(match.game.actions), \
        list(match.scores)


def started_room(seed: int) -> tuple[Room, Match]:
    room = new_room()
    for s in (1, 2):
        room.receive(f"peer-{s}", message("hello", secret=SECRET, name=f"G{s}", token=None))
        room.receive(f"peer-{s}", message("sit", seat=s, name=f"G{s}"))
    match = deal(entropy(seed), Options())
    room.start(match)
    bot = Bot("easy", seed)
    for _ in range(seed % 30):
        if match.game.over:
            break
        s = match.game.to_move()[0]
        match.apply(bot.choose(match.game.observation(s), match.game.legal_actions(s)).action)
    return room, match


def check_reception(room: Room, match: Match, peer: str, text: Any) -> Reception:
    before = snapshot(match)
    stored, lobby = room._stored(), room.lobby()
    got = room.receive(peer, text)
    assert snapshot(match) == before  # the page applies a move; receive never does
    if got.action is not None:
        assert got.kind == "act" and got.refused is None
        assert got.action in match.game.legal_actions(got.action.seat)
        assert room.seat_of(peer) == got.action.seat
    if got.refused is not None:
        assert got.action is None and got.refused.code.startswith(("room.", "action.", "tile."))
        assert got.refused.text("en") and got.refused.text("zh")
    if got.dropped:
        assert got.kind == "" and got.replies == [] and not got.lobby and not got.save
        assert (room._stored(), room.lobby()) == (stored, lobby)
    for to, reply in got.replies:
        assert isinstance(to, str)
        parse(reply, "host")  # every reply is a message a guest's page reads
    return got


@given(st.integers(0, 40), st.sampled_from(PEERS),
       st.text(max_size=300) | st.binary(max_size=80).map(lambda b: b.decode("latin-1")))
@settings(max_examples=200, deadline=None)
def test_any_text_is_received_without_raising_or_playing(seed, peer, text):
    room, match = started_room(seed)
    got = check_reception(room, match, peer, text)
    assert got.action is None


FIELDS = {"v": st.sampled_from([1, 1, 1, 2, "1", True]),
          "t": st.sampled_from(list(GUEST_TYPES) + ["state", "lobby", "", "x"]),
          "secret": st.sampled_from([SECRET, "guess", "\ud800", ""]),
          "token": st.sampled_from([None, "token-0", "token-1", "token-9", "\udfff"]),
          "name": st.text(max_size=20), "seat": st.integers(-2**70, 2**70),
          "hand": st.integers(-2, 2), "step": st.integers(-2, 80),
          "action": st.sampled_from(["0 pass", "0 hu", "0 discard 5m", "1 discard 5m",
                                     "0 chi 123m", "0 peng", "0 discard 99z", "  0   pass  ",
                                     "0 angang 1z", "x" * 100]),
          "phrase": st.sampled_from(PHRASES + EMOJI + ("", "nice!", "😄😄")),
          "extra": st.none()}


@given(st.integers(0, 40), st.sampled_from(PEERS),
       st.fixed_dictionaries({}, optional=FIELDS), st.booleans())
@settings(max_examples=250, deadline=None)
def test_any_json_message_is_received_without_raising_or_changing_the_match(
        seed, peer, fields, typed):
    room, match = started_room(seed)
    if typed and "t" in fields:
        fields["v"] = 1  # reach the type's own checks more often
    check_reception(room, match, peer, json.dumps(fields, ensure_ascii=False))


def test_every_type_a_guest_may_send_is_decided():
    room, match = started_room(3)
    for kind, spec in GUEST_TYPES.items():
        sample = {str: "0 pass", int: 0, bool: True}
        fields = {name: sample.get(want if isinstance(want, type) else str)
                  for name, want in spec.items()}
        assert room.receive("peer-1", message(kind, **fields)).kind == kind


def test_a_forged_or_late_move_is_refused_with_its_reason_and_a_reply():
    room, match = started_room(5)
    while 1 not in match.game.to_move():
        s = match.game.to_move()[0]
        match.apply(Bot("easy").choose(match.game.observation(s),
                                       match.game.legal_actions(s)).action)
    legal = match.game.legal_actions(1)
    mine = str(turn_action(legal[0], 1))
    step = seen_step(match.game, 1)
    cases = {"room.late": (match.hand_no, step - 1, mine),
             "room.not_yours": (match.hand_no, step, "2 pass"),
             "action.text": (match.hand_no, step, "0 teleport")}
    for code, (hand, at, text) in cases.items():
        got = room.receive("peer-1", message("act", hand=hand, step=at, action=text))
        assert got.action is None and got.refused is not None and got.refused.code == code
        said = "" if code == "action.text" else text  # no action: nothing of it said back
        assert got.replies == [("peer-1", message("refused", code=code, action=said))]
    got = room.receive("peer-2", message("act", hand=match.hand_no,
                                         step=seen_step(match.game, 2), action=mine))
    assert got.refused is not None and got.refused.code in ("room.not_your_turn",
                                                            "room.illegal")
    got = room.receive("stranger", message("act", hand=match.hand_no, step=step, action=mine))
    assert got.refused is not None and got.refused.code == "room.not_seated"
    got = room.receive("peer-1", message("act", hand=match.hand_no, step=step, action=mine))
    assert got.action == legal[0] and got.replies == []


def test_a_guest_back_gets_its_whole_table_and_the_others_hear_of_it():
    room, match = started_room(7)
    room.drop("peer-2")
    got = room.receive("peer-2b", message("hello", secret=SECRET, name="", token="token-1"))
    kinds = [(to, json.loads(text)["t"]) for to, text in got.replies]
    assert kinds == [("peer-2b", "seated"), ("peer-1", "lobby"), ("peer-2b", "lobby"),
                     ("peer-1", "notice"), ("peer-2b", "state")]
    assert got.back == 2 and got.lobby and not got.save
    state = json.loads(got.replies[-1][1])["state"]
    assert state["seat"] == 2 and "record" in state  # whole: it may have missed hands


# ------------------------------------------------------------------ the host's own seat


def code(got: Reception) -> str | None:
    return None if got.refused is None else got.refused.code


@given(st.integers(0, 500))
@settings(max_examples=40, deadline=None)
def test_the_hosts_moves_take_the_guests_path(seed):
    """Through a whole hand: whatever the host's table offers is accepted exactly when the
    page accepted it before (a legal action of seat 0 now), with the state it was chosen in
    named or not; named late, it is refused, and nothing is played either way."""
    room, match = started_room(seed)
    bot = Bot("normal", seed)
    while not match.game.over:
        game = match.game
        legal = game.legal_actions(HOST)
        before = snapshot(match)
        for action in legal + [Action(HOST, "hu"), Action(HOST, "pass"), Action(1, "pass")]:
            got = room.local(action)
            assert (got.action == action) == (action in legal and action.seat == HOST)
            assert got.replies == [] and (got.action is None) == (got.refused is not None)
            named = room.local(action, match.hand_no, seen_step(game, HOST))
            assert named.action == got.action and code(named) == code(got)
            late = room.local(action, match.hand_no, seen_step(game, HOST) - 1)
            assert late.action is None and late.refused is not None
            assert late.refused.code == "room.late"
        assert snapshot(match) == before
        s = game.to_move()[0]
        match.apply(bot.choose(game.observation(s), game.legal_actions(s)).action)


def test_the_hosts_move_before_the_match_is_refused():
    room = new_room()
    got = room.local(Action(HOST, "pass"))
    assert got.action is None and got.refused is not None
    assert got.refused.code == "room.not_seated"


def test_a_phrase_said_goes_to_every_guest_turned_and_stays_at_the_hosts_table():
    room, match = started_room(1)
    got = room.say(HOST, "gg")
    assert got.said == (HOST, "gg")
    assert got.replies == [("peer-1", message("said", seat=3, phrase="gg")),
                           ("peer-2", message("said", seat=2, phrase="gg"))]
    got = room.receive("peer-2", message("say", phrase=EMOJI[0]))
    assert got.said == (2, EMOJI[0]) and [json.loads(m)["seat"] for _, m in got.replies] == [1, 0]
    for phrase in ("<b>hi</b>", "", "gg "):
        assert room.receive("peer-2", message("say", phrase=phrase)) == Reception("say")
    assert room.receive("stranger", message("say", phrase="gg")) == Reception("say")


def test_a_timeout_is_told_to_every_guest_turned():
    room, match = started_room(1)
    room.drop("peer-1")
    assert room.timed_out(1) == [("peer-2", message("notice", kind="timeout", seat=3))]


def test_start_holds_the_match_and_starts_once():
    room = new_room()
    match = deal(entropy(1), Options())
    assert room.start(match) == [] and room.match is match and room.started
    assert room.start(deal(entropy(2), Options())) == [] and room.match is match


# ------------------------------------------------------------------ a whole room


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_a_whole_hand_played_through_receive_and_local_only(seed):
    """Three guests and the host, every move through the room: guests send what their page
    sends (from their own tables), the host's person plays through ``local``, the page
    applies what comes back and sends the states; the hand ends with everyone's scores."""
    from sxmj.room.guest import GuestTable

    room = new_room()
    tables = {s: GuestTable() for s in (1, 2, 3)}
    inbox: list[tuple[str, str]] = []
    for s in tables:
        inbox += room.receive(f"peer-{s}", message("hello", secret=SECRET, name=f"G{s}",
                                                   token=None)).replies
        inbox += room.receive(f"peer-{s}", message("sit", seat=s, name=f"G{s}")).replies
    match = deal(entropy(seed), Options())
    inbox += room.start(match)
    bots = [Bot("normal", seed * 4 + s) for s in range(4)]

    def deliver(out: list[tuple[str, str]]) -> None:
        for peer, text in out:
            msg = parse(text, "host")
            if msg["t"] == "state":
                tables[int(peer[-1])].update(msg["state"])

    deliver(inbox)
    while not match.game.over:
        seat = match.game.to_move()[0]
        if seat == HOST:
            game = match.game
            got = room.local(bots[0].choose(game.observation(0), game.legal_actions(0)).action)
        else:
            table = tables[seat]
            game = table.match.game
            mine = bots[seat].choose(game.observation(0), game.legal_actions(0)).action
            hand, step = table.step()
            got = room.receive(f"peer-{seat}", message("act", hand=hand, step=step,
                                                       action=str(mine)))
        assert got.action is not None, got.refused
        deliver(room.states(match, match.apply(got.action)))
    for s, table in tables.items():
        assert table.over and table.match.scores == [match.scores[(i + s) % 4]
                                                     for i in range(4)]


def test_check_is_still_the_referee():
    # the old entry point keeps its contract (the page's tests and tools call it)
    room, match = started_room(2)
    got = room.check("stranger", {"hand": 0, "step": 0, "action": "0 pass"}, match)
    assert isinstance(got, CoreError) and got.code == "room.not_seated"
