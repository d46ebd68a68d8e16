"""The friends room in CPython: the wire, the turned table, the referee, the guest's table.

A whole room is played here without a browser: the host's :class:`Room` and match, three
:class:`GuestTable` s that only ever see the messages the host sends (parsed as a guest
parses them), and bots choosing for every seat from what that seat's table shows.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sxmj.bots import Bot
from sxmj.game import Action, Game
from sxmj.match import Match
from sxmj.messages import CoreError
from sxmj.observation import Observation
from sxmj.record import replay
from sxmj.room.guest import GuestTable, turn_record
from sxmj.room.host import Room, deal, seen_step
from sxmj.room.protocol import (
    MAX_GUEST_BYTES,
    ProtocolError,
    message,
    pack_record,
    parse,
    turn_action,
    turn_events,
    turn_observation,
    turned,
    unpack_record,
)
from sxmj.rules import Options
from sxmj.wall import Wall

SECRET = "s3cret-s3cret-s3cret"


def entropy(seed: int):
    rng = random.Random(seed)
    return lambda: rng.getrandbits(64)


def play_hand(match: Match, bots: list) -> None:
    """Play the hand on the table to its end, each seat by its bot."""
    game = match.game
    while not game.over:
        s = game.to_move()[0]
        match.apply(bots[s].choose(game.observation(s), game.legal_actions(s)).action)


def guest_at_the_deal(seed: int, seat: int = 1) -> tuple[Room, Match, GuestTable]:
    """A started room and the table of the guest at ``seat``, which has its deal."""
    room, match, _ = seated_room(seed)
    room.start(match)
    table = GuestTable()
    table.receive(room.state(seat, match, match.game.deal_events, full=True))
    return room, match, table


def seated_room(seed: int, guests=(1, 2, 3)) -> tuple[Room, Match, dict[int, str]]:
    tokens = iter(f"token-{i}" for i in range(10))
    room = Room("room-id", SECRET, "Host", tokens=tokens.__next__)
    peers = {}
    for s in guests:
        peer = f"peer-{s}"
        room.hello(peer, parse(message("hello", secret=SECRET, name=f"G{s}", token=None)))
        room.sit(peer, parse(message("sit", seat=s, name=f"G{s}")))
        peers[s] = peer
    room.started = True
    return room, deal(entropy(seed), Options()), peers


def play_room(seed: int, guests=(1, 2, 3)):
    """One hand of a room: yields (seat, received message text) for every message a
    guest gets; returns the host's match and the guests' tables."""
    room, match, peers = seated_room(seed, guests)
    tables = {s: GuestTable() for s in guests}
    bots = [Bot("normal", seed * 4 + s) for s in range(4)]
    inbox: list[tuple[int, str]] = []

    seat_of = {peer: s for s, peer in peers.items()}

    def send_all(events):  # what the page's broadcast sends: only changed tables
        for peer, text in room.states(match, events):
            inbox.append((seat_of[peer], text))
            tables[seat_of[peer]].update(parse(text, "host")["state"])

    send_all(match.game.deal_events)
    while not match.game.over:
        seat = match.game.to_move()[0]
        if seat in tables:  # a guest decides from its own table, as its page would
            table = tables[seat]
            game = table.match.game
            mine = bots[seat].choose(game.observation(0), game.legal_actions(0)).action
            hand, step = table.step()
            msg = parse(message("act", hand=hand, step=step, action=str(mine)))
            action = room.check(peers[seat], msg, match)
            assert isinstance(action, Action), action
        else:
            action = bots[seat].choose(match.game.observation(seat),
                                       match.game.legal_actions(seat)).action
        send_all(match.apply(action))
    return room, match, tables, inbox


# ------------------------------------------------------------------ turning the table


@pytest.mark.parametrize("seed", range(1, 13))
def test_a_hand_turned_to_any_seat_is_the_same_hand(seed):
    """The rules don't care where the deal starts: the hand dealt from the same wall with
    every seat turned by ``v`` shows each seat exactly the turned observation and legal
    actions, at every step, and pays the turned payments."""
    match = Match(seed=seed)
    g = match.game
    games = [Game(Wall(list(g.wall.tiles), g.wall.indicator, g.wall.dice), turned(g.dealer, v))
             for v in range(4)]
    bot = Bot("normal", seed)
    while True:
        for v in range(4):
            for s in range(4):
                assert turn_observation(g.observation(s), v) == games[v].observation(turned(s, v))
                assert [turn_action(a, v) for a in g.legal_actions(s)] == \
                    games[v].legal_actions(turned(s, v))
        if g.over:
            break
        s = g.to_move()[0]
        action = bot.choose(g.observation(s), g.legal_actions(s)).action
        g.apply(action)
        for v in range(4):
            games[v].apply(turn_action(action, v))
    for v in range(4):
        assert games[v].result.payments == [g.result.payments[(i + v) % 4] for i in range(4)]


def test_turning_back_gives_the_observation_back():
    m = Match(seed=3)
    for v in range(4):
        obs = m.game.observation(v)
        assert turn_observation(turn_observation(obs, v), (4 - v) % 4) == obs


# ------------------------------------------------------------------ the wire


@given(st.text(max_size=200) | st.binary(max_size=50).map(lambda b: b.decode("latin-1")))
@settings(max_examples=300, deadline=None)
def test_any_text_is_parsed_or_refused_with_a_protocol_error(text):
    try:
        msg = parse(text)
    except ProtocolError as e:
        assert e.code.startswith("room.")
    else:
        assert msg["v"] == 1 and msg["t"] in ("hello", "sit", "act", "ready", "say", "ping")


@given(st.dictionaries(st.sampled_from(["v", "t", "hand", "step", "action", "secret", "name",
                                        "token", "seat", "phrase", "x"]),
                       st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=8)
                       | st.sampled_from(["act", "hello", "sit", "say"]), max_size=7))
@settings(max_examples=400, deadline=None)
def test_a_message_with_a_wrong_field_is_refused(fields):
    text = json.dumps(fields)
    try:
        msg = parse(text)
    except ProtocolError:
        return
    spec = {"hello": {"secret", "name", "token"}, "sit": {"seat", "name"},
            "act": {"hand", "step", "action"}, "say": {"phrase"}}[msg["t"]]
    assert set(msg) == spec | {"v", "t"}


def test_oversized_and_unknown_messages_are_refused():
    with pytest.raises(ProtocolError) as e:
        parse(message("say", phrase="x" * MAX_GUEST_BYTES))
    assert e.value.code == "room.too_big"
    with pytest.raises(ProtocolError) as e:
        parse(message("teleport"))
    assert e.value.code == "room.type"
    with pytest.raises(ProtocolError) as e:
        parse('{"v":1,"t":"act","hand":0,"step":true,"action":"0 pass"}')
    assert e.value.code == "room.field"  # a bool is not a step number
    assert parse(message("state", state={}), "host")["t"] == "state"
    with pytest.raises(ProtocolError):
        parse(message("state", state={}))  # a guest can't send what only a host sends


# ------------------------------------------------------------------ the referee


def test_the_invite_secret_and_seat_tokens():
    room, match, peers = seated_room(1)
    out = room.hello("intruder", parse(message("hello", secret="guess", name="X", token=None)))
    assert json.loads(out[0][1])["t"] == "closed"
    out = room.hello("intruder", parse(message("hello", secret=SECRET, name="X",
                                               token="token-9")))
    assert json.loads(out[0][1])["t"] == "lobby"  # an unknown token sits nowhere
    room.drop("peer-2")
    assert room.seats[2].online is False and 2 not in room.humans()
    out = room.hello("peer-2b", parse(message("hello", secret=SECRET, name="", token="token-1")))
    assert json.loads(out[0][1]) == {"v": 1, "t": "seated", "seat": 2, "token": "token-1"}
    assert room.seat_of("peer-2b") == 2 and 2 in room.humans()
    refused = room.sit("peer-2b", parse(message("sit", seat=3, name="Y")))
    assert json.loads(refused[0][1])["code"] == "room.seat_taken"


def test_a_seat_needs_the_secret_first():
    # the room id alone (the broker sees it) must get nobody in: a "sit" without a hello
    # that gave the secret is turned away, before and after a wrong guess
    tokens = iter(f"token-{i}" for i in range(10))
    room = Room("room-id", SECRET, "Host", tokens=tokens.__next__)
    out = room.sit("intruder", parse(message("sit", seat=1, name="X")))
    assert json.loads(out[0][1]) == {"v": 1, "t": "closed", "reason": "secret"}
    room.hello("intruder", parse(message("hello", secret="guess", name="X", token=None)))
    out = room.sit("intruder", parse(message("sit", seat=1, name="X")))
    assert json.loads(out[0][1])["t"] == "closed"
    assert room.seats[1].kind == "bot" and room.seat_of("intruder") is None
    room.hello("friend", parse(message("hello", secret=SECRET, name="F", token=None)))
    out = room.sit("friend", parse(message("sit", seat=1, name="F")))
    assert json.loads(out[0][1])["t"] == "seated" and room.seat_of("friend") == 1
    room.drop("friend")  # a dropped connection must say the secret again
    out = room.sit("friend", parse(message("sit", seat=2, name="F")))
    assert json.loads(out[0][1])["t"] == "closed"


@given(st.integers(0, 40), st.data())
@settings(max_examples=60, deadline=None)
def test_a_forged_late_or_out_of_turn_action_is_refused_and_changes_nothing(steps, data):
    room, match, peers = seated_room(2)
    bot = Bot("easy", 1)
    for _ in range(steps):
        if match.game.over:
            break
        s = match.game.to_move()[0]
        match.apply(bot.choose(match.game.observation(s), match.game.legal_actions(s)).action)
    seat = data.draw(st.sampled_from([1, 2, 3]))
    kind = data.draw(st.sampled_from(["discard", "peng", "chi", "hu", "pass", "angang"]))
    tile = data.draw(st.sampled_from(["1m", "5p", "9s", "1z", "7z", "123m"]))
    text = f"{data.draw(st.sampled_from([0, 0, 0, 1, 2]))} {kind}" + (
        "" if kind in ("hu", "pass") else f" {tile}")
    hand = data.draw(st.sampled_from([match.hand_no, match.hand_no + 1]))
    now = seen_step(match.game, seat)
    step = data.draw(st.sampled_from([now, now - 1, len(match.game.actions)]))
    before = (json.dumps(match.game.observation(0).to_json()), len(match.game.actions))
    got = room.check(peers[seat], parse(message("act", hand=hand, step=step, action=text)),
                     match)
    try:
        mine = turn_action(Action.parse(text), (4 - seat) % 4) if text[0] == "0" else None
    except CoreError:
        mine = None
    fair = (hand == match.hand_no and step == now and mine is not None
            and seat in match.game.to_move() and mine in match.game.legal_actions(seat))
    if fair:
        assert got == mine
    else:
        assert isinstance(got, CoreError) and got.code.startswith(("room.", "action.", "tile"))
    assert (json.dumps(match.game.observation(0).to_json()), len(match.game.actions)) == before


def test_a_repeated_action_is_late_the_second_time():
    room, match, peers = seated_room(4)
    while match.game.to_move()[0] not in peers:
        s = match.game.to_move()[0]
        match.apply(Bot("easy").choose(match.game.observation(s),
                                       match.game.legal_actions(s)).action)
    seat = match.game.to_move()[0]
    legal = match.game.legal_actions(seat)
    text = str(turn_action(legal[0], seat))
    msg = parse(message("act", hand=match.hand_no, step=seen_step(match.game, seat), action=text))
    action = room.check(peers[seat], msg, match)
    assert action == legal[0]
    match.apply(action)
    again = room.check(peers[seat], msg, match)
    assert isinstance(again, CoreError) and again.code == "room.late"


# ------------------------------------------------------------------ whole hands


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_guests_see_only_their_own_tiles_and_end_with_the_hosts_scores(seed):
    room, match, tables, inbox = play_room(seed)
    assert match.game.over
    for seat, text in inbox:
        state = parse(text, "host")["state"]
        obs = state["obs"]
        assert obs["seat"] == 0 and state["seat"] == seat
        over = state["step"] == seen_step(match.game, seat) and "record" in state
        for e in state["events"]:
            if e["type"] == "draw" and e["seat"] != 0:
                assert "tile" not in e  # another seat's draw stays in its hand
        record = unpack_record(state["record"]) if "record" in state else {}
        assert "wall" not in json.dumps(record) or over
        if "record" in state:  # only once the hand is over: every hand is open then
            assert len(record["hands"]) == len(match.results)
    for seat, table in tables.items():
        done = table.match
        assert table.over and done.scores == [match.scores[(i + seat) % 4] for i in range(4)]
        assert sum(done.scores) == 0
        assert done.game.concealed(0) == match.game.concealed(seat)
        assert replay(json.dumps(table.record)).scores == match.scores  # exports replay


@given(st.integers(0, 60))
@settings(max_examples=40, deadline=None)
def test_a_guest_never_learns_another_seats_concealed_tiles_or_the_wall(seed):
    """Every message a guest gets while a hand is on, checked against the host's game: its
    hand is its own, the others' are counts, a draw's tile is its own only, and nobody
    else's right to claim or rob (a pair, or a wait, of that tile) is named."""
    room, match, peers = seated_room(seed)
    bots = [Bot("normal", seed * 4 + s) for s in range(4)]
    events = match.game.deal_events
    checked = 0
    while not match.game.over:
        game = match.game
        for seat in (1, 2, 3):
            state = parse(room.state(seat, match, events), "host")["state"]
            obs = state["obs"]
            assert set(obs) <= set(Observation.__dataclass_fields__) | {"options"}
            assert obs["hand"] == list(game.observation(seat).hand)
            assert obs["hand_counts"] == [len(game.concealed((i + seat) % 4)) for i in range(4)]
            if obs["phase"] != "turn":
                assert set(obs["to_move"]) <= {0}
                checked += obs["phase"] == "claim"
            assert obs["last_tile"] is None or game.turn == seat
            for e in state["events"]:
                assert e["type"] != "draw" or e["seat"] == 0 or "tile" not in e
                assert e["type"] != "claim_window" or set(e["seats"]) <= {0}
            assert "record" not in state
            text = json.dumps(state)
            for other in (s for s in range(4) if s != seat):
                hidden = sorted(game.concealed(other))
                assert len(hidden) < 4 or json.dumps(hidden) not in text
            assert "wall" not in text.replace('"wall":', "")  # only the count of the wall
            assert obs["wall"] == game.wall.remaining
        s = game.to_move()[0]
        events = match.apply(bots[s].choose(game.observation(s), game.legal_actions(s)).action)
    assert checked or seed % 7  # most hands open a claim window somewhere


@given(st.integers(0, 200))
@settings(max_examples=40, deadline=None)
def test_a_quiet_answer_to_a_claim_window_tells_no_other_guest_anything(seed):
    """Who else a claim window asks holds a pair (or a 吃) of the tile: another seat's pass
    or waiting 吃 sends a guest nothing, and its step counts only what it saw happen."""
    room, match, peers = seated_room(seed)
    bots = [Bot("normal", seed * 4 + s) for s in range(4)]
    room.states(match, match.game.deal_events)
    seen = {s: seen_step(match.game, s) for s in peers}
    while not match.game.over:
        game = match.game
        s = game.to_move()[0]
        action = bots[s].choose(game.observation(s), game.legal_actions(s)).action
        quiet = action.kind in ("pass", "chi") and game.phase == "claim"
        out = room.states(match, match.apply(action))
        told = {int(json.loads(text)["state"]["seat"]): json.loads(text)["state"]
                for _, text in out}
        if quiet and game.phase == "claim":  # the window is still open
            assert set(told) <= {s}, (action, sorted(told))
        for seat, state in told.items():
            assert state["step"] == seen_step(game, seat)
        for seat in peers:  # a guest's step moves by what it saw: nothing else
            public = action.seat == seat or action.kind not in ("pass", "chi", "hu")
            assert seen_step(game, seat) == seen[seat] + public
            seen[seat] = seen_step(game, seat)


def test_a_guest_dropping_or_coming_back_does_not_unmask_a_quiet_answer():
    # the seats' online flags change with a drop or a return; the next quiet pass must
    # still send nobody anything
    for seed in range(1, 300):
        room, match, peers = seated_room(seed)
        game = match.game
        bots = [Bot("normal", seed * 4 + s) for s in range(4)]
        room.states(match, game.deal_events)
        while not game.over and not (game.phase == "claim" and len(game.to_move()) > 1):
            s = game.to_move()[0]
            room.states(match, match.apply(bots[s].choose(game.observation(s),
                                                          game.legal_actions(s)).action))
        if game.over:
            continue
        first, second = game.to_move()[:2]
        quiet = [s for s in peers if s not in (first, second)]
        if not quiet:
            continue
        room.drop(peers[quiet[0]])
        room.hello(peers[quiet[0]], parse(message("hello", secret=SECRET, name="G",
                                                  token=room.seats[quiet[0]].token)))
        room.state(quiet[0], match, [], full=True)  # what the page sends a guest back
        told = room.states(match, match.apply(Action(first, "pass")))
        assert game.phase == "claim"  # the window is still open: nobody else hears of it
        assert [peer for peer, _ in told] in ([], [peers.get(first)]), told
        return
    pytest.fail("no claim window with two seats and a third guest in 300 hands")


def test_each_guest_is_sent_exactly_its_own_hand_while_the_hand_is_played():
    room, match, peers = seated_room(6)
    bot = Bot("normal", 6)
    while not match.game.over:
        for s in (1, 2, 3):
            state = json.loads(room.state(s, match, match.game.events[-3:]))["state"]
            assert state["obs"]["hand"] == sorted(match.game.concealed(s)) or \
                tuple(state["obs"]["hand"]) == match.game.observation(s).hand
            assert "record" not in state
            others = [e for e in state["events"] if e["type"] == "draw" and e["seat"] != 0]
            assert all("tile" not in e for e in others)
        s = match.game.to_move()[0]
        match.apply(bot.choose(match.game.observation(s), match.game.legal_actions(s)).action)


def test_a_rooms_match_record_replays_with_every_wall_explicit():
    room, match, tables, _ = play_room(9)
    deal(entropy(99), match.options, match)  # the next hand, from fresh randomness
    assert match.hand_no == 1 and 1 in match.walls
    record = json.loads(json.dumps(Room.history(match)))
    assert record["seed"] == 0 and "wall" in record and len(record["hands"]) == 1
    again = replay(record)
    assert again.scores == match.scores
    turned_match = replay(turn_record(record, 2))
    assert turned_match.scores == [match.scores[(i + 2) % 4] for i in range(4)]


def test_events_lose_only_other_seats_draws():
    m = Match(seed=11)
    events = m.game.deal_events + [{"type": "draw", "seat": 1, "tile": 5, "source": "head"},
                                   {"type": "draw", "seat": 2, "tile": 6, "source": "head"}]
    seen = turn_events(events, 2)
    assert seen[-2] == {"type": "draw", "seat": 3, "source": "head"}
    assert seen[-1] == {"type": "draw", "seat": 0, "tile": 6, "source": "head"}


def test_the_longest_match_fits_one_message_on_both_sides():
    # the end of a hand carries the match's record: the 99th hand's must still be sent, by
    # the host's parse and by the browser transport, whose cap is the same number
    import re
    from pathlib import Path

    from sxmj.room.protocol import MAX_HOST_BYTES
    from sxmj.rules import MAX_MATCH_HANDS
    js = (Path(__file__).parent.parent / "static/js/friends-net.js").read_text()
    cap = re.search(r"var MAX_BYTES = (\d+) \* (\d+);", js)
    assert cap and int(cap[1]) * int(cap[2]) == MAX_HOST_BYTES
    room, match, peers = seated_room(3)
    match = deal(entropy(3), Options(match_hands=MAX_MATCH_HANDS))
    bots = [Bot("easy", s) for s in range(4)]
    while True:
        play_hand(match, bots)
        if len(match.results) == MAX_MATCH_HANDS:
            break
        deal(entropy(len(match.results)), match.options, match)
    text = room.state(1, match, [])
    # packed, the longest match's record leaves room for hands three times as long (a
    # record of drawn hands, claim windows all round, is about twice a normal one)
    assert len(text.encode()) <= MAX_HOST_BYTES / 3
    record = unpack_record(parse(text, "host")["state"]["record"])
    assert len(record["hands"]) == MAX_MATCH_HANDS
    assert replay(record).scores == match.scores


@given(st.one_of(st.text(max_size=200), st.binary(max_size=200).map(
    lambda b: __import__("base64").b64encode(b).decode()), st.integers(), st.none()))
@settings(max_examples=200, deadline=None)
def test_a_packed_record_that_is_not_one_is_refused(packed):
    try:
        got = unpack_record(packed)
    except ProtocolError as e:
        assert e.code == "room.record"
    else:
        assert isinstance(got, dict)


def test_a_record_that_unpacks_too_big_is_refused_unpacked():
    import base64
    import zlib

    from sxmj.room.protocol import MAX_RECORD_BYTES
    bomb = zlib.compress(b"[" + b" " * (MAX_RECORD_BYTES + 10) + b"]", 9)  # a few kB packed
    assert len(bomb) < 10000
    with pytest.raises(ProtocolError):
        unpack_record(base64.b64encode(bomb).decode())
    table = GuestTable()
    room, match, peers = seated_room(1)
    state = json.loads(room.state(1, match, [], full=True))["state"]
    state["record"] = base64.b64encode(bomb).decode()
    with pytest.raises(CoreError):
        table.update(state)
    assert table.state is None  # nothing changed


def test_a_claim_window_is_timed_once_whoever_answers_first():
    # two people may claim: the first one's pass must not give the second a fresh timer
    from sxmj.room.host import window_start
    for seed in range(1, 400):
        room, match, peers = seated_room(seed)
        game = match.game
        bots = [Bot("normal", seed * 4 + s) for s in range(4)]
        while not game.over and not (game.phase == "claim" and len(game.to_move()) > 1):
            s = game.to_move()[0]
            match.apply(bots[s].choose(game.observation(s), game.legal_actions(s)).action)
        if game.over:
            continue
        assert game.actions[window_start(game)].kind == "discard"
        assert room.time_left(match, 100.0) == room.timer
        first = game.to_move()[0]
        match.apply(Action(first, "pass"))
        if game.phase != "claim":
            continue  # the pass ended the window (the other had already answered)
        assert room.time_left(match, 107.0) == room.timer - 7  # the same window runs on
        assert room.time_left(match, 100.0 + room.timer + 5) == 0
        while game.phase == "claim":
            s = game.to_move()[0]
            match.apply(Action(s, "pass"))
        assert room.time_left(match, 200.0) == room.timer  # a turn: its own timer
        return
    pytest.fail("no claim window with two seats in 400 hands")


@given(st.integers(0, 2**32), st.sampled_from((1, 2, 3)))
@settings(max_examples=3, deadline=None)
def test_a_guests_table_grows_hand_by_hand(seed, seat):
    """Each hand's end brings the whole record; the guest plays only the hand it adds (a
    long match costs each hand once, not all of them again), and what it draws is what a
    whole replay at its seat draws."""
    import sxmj.match as match_module

    room, _, _ = seated_room(seed)
    match = deal(entropy(seed), Options(match_hands=3))
    room.start(match)
    bots = [Bot("easy", s) for s in range(4)]
    table = GuestTable()
    applied = []
    real_apply = match_module.Match.apply

    def counting(self, action):
        applied.append(action)
        return real_apply(self, action)

    while True:
        game = match.game
        play_hand(match, bots)
        applied.clear()
        match_module.Match.apply = counting
        try:
            table.update(json.loads(room.state(seat, match, []))["state"])
        finally:
            match_module.Match.apply = real_apply
        assert len(applied) == len(game.actions)  # this hand's moves, and no earlier one's
        whole = replay(turn_record(table.record, seat))
        assert table.match.scores == whole.scores and table.match.results == whole.results
        assert table.match.game.actions == whole.game.actions
        if match.finished:
            break
        deal(entropy(len(match.results)), match.options, match)


def test_a_grown_record_that_does_not_play_changes_nothing():
    room, _, _ = seated_room(5)
    match = deal(entropy(5), Options(match_hands=2))
    room.start(match)
    bots = [Bot("easy", s) for s in range(4)]
    table = GuestTable()
    play_hand(match, bots)
    state = json.loads(room.state(1, match, []))["state"]
    table.update(state)
    before = (table.match.scores, table.match.results)
    record = unpack_record(state["record"])
    bad = {**record, "hands": record["hands"] + [["0 discard 1m"] * 3]}  # not a hand
    with pytest.raises(CoreError):
        table.update({**state, "hand": 1, "record": pack_record(bad)})
    assert (table.match.scores, table.match.results) == before and table.record == record


# ------------------------------------------------------------------ the guest's dispatch


def test_a_guest_takes_each_host_message_and_says_what_to_show():
    room, match, peers = seated_room(4)
    table = GuestTable()
    lobby = table.receive(message("lobby", room=room.lobby()))
    assert lobby.kind == "lobby" and lobby.lobby and table.lobby == room.lobby()
    seated = table.receive(message("seated", seat=2, token="t" * 32))
    assert (seated.seat, seated.token) == (2, "t" * 32)
    room.start(match)
    first = table.receive(room.state(2, match, match.game.deal_events, full=True))
    assert first.kind == "state" and first.first and first.dealt and not first.ended
    assert table.seat == 2 and table.match.hand_no == match.hand_no
    bots = [Bot("easy", s) for s in range(4)]
    game = match.game
    while not game.over:
        s = game.to_move()[0]
        events = match.apply(bots[s].choose(game.observation(s), game.legal_actions(s)).action)
        got = table.receive(room.state(2, match, events))
        assert not got.first and not got.dealt and len(got.events) == len(events)  # turned
        # a timer exactly when this seat has a decision to make, and not once it is over
        assert (got.timer is not None) == (bool(game.legal_actions(2)) and not game.over)
    assert got.ended and table.over and len(table.match.results) == len(match.results)
    assert table.match.scores == [match.scores[(i + 2) % 4] for i in range(4)]  # seat 2 at 0
    assert table.receive(message("refused", code="room.late", action="0 hu")).refused == (
        "room.late", "0 hu")
    assert table.receive(message("said", seat=7, phrase="gg")).said == (3, "gg")
    assert table.receive(message("notice", kind="timeout", seat=1)).notice == ("timeout", 1)
    assert table.receive(message("closed", reason="removed")).closed == "removed"
    assert table.receive(message("pong")).kind == "pong"


@given(st.one_of(st.text(max_size=300), st.dictionaries(
    st.sampled_from(["v", "t", "state", "room", "seat", "token", "code", "action", "phrase",
                     "kind", "reason"]),
    st.one_of(st.none(), st.integers(-3, 9), st.text(max_size=8),
              st.sampled_from(["state", "lobby", "seated", "said", "closed"]),
              st.dictionaries(st.sampled_from(["obs", "legal", "seat", "step", "events",
                                               "hand", "scores", "record"]),
                              st.one_of(st.none(), st.integers(), st.text(max_size=4),
                                        st.lists(st.integers(), max_size=3)),
                              max_size=8)),
    max_size=6).map(json.dumps)))
@settings(max_examples=300, deadline=None)
def test_a_guest_never_raises_on_any_host_message_and_a_bad_one_changes_nothing(text):
    room, match, table = guest_at_the_deal(6)
    before = (table.state, table.record, table.lobby, table.seat)
    got = table.receive(text)
    if got.dropped is not None:
        assert got.kind == "" and (table.state, table.record, table.lobby, table.seat) == before


@given(st.data())
@settings(max_examples=200, deadline=None)
def test_a_state_with_any_field_damaged_is_dropped_whole_or_taken_whole(data):
    room, match, table = guest_at_the_deal(8)
    before = (table.state, table.record, table.live)
    state = json.loads(room.state(1, match, []))["state"]
    name = data.draw(st.sampled_from(sorted(state)))
    if data.draw(st.booleans()):
        del state[name]
    else:
        state[name] = data.draw(st.one_of(st.none(), st.integers(-5, 200), st.text(max_size=6),
                                          st.lists(st.integers(-1, 40), max_size=5),
                                          st.dictionaries(st.text(max_size=3), st.integers(),
                                                          max_size=2)))
    got = table.receive(message("state", state=state))
    if got.dropped is not None:
        assert got.kind == "" and (table.state, table.record, table.live) == before
    else:
        assert table.state == state
