"""The room's rituals in the core: 解散 (ending a match by a vote) and 托管 (a seat played by
its own person's browser), through :meth:`sxmj.room.host.Room.receive` as the page calls it,
and what every guest's table makes of the messages (:class:`sxmj.room.guest.GuestTable`).
Each guard is also tried by an attacker: a stranger, a bot's seat, a second answer, a vote
after the end, a move after the end."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from test_room_receive import SECRET, entropy, new_room

from sxmj.bots import Bot
from sxmj.game import Action
from sxmj.record import replay
from sxmj.room.guest import GuestTable
from sxmj.room.host import AWAY_AFTER, HOST, VOTE_SECONDS, Room, deal, seen_step
from sxmj.room.protocol import message, turned, unpack_record
from sxmj.rules import Options


def seated(guests: tuple[int, ...] = (1, 2)) -> Room:
    room = new_room()
    for s in guests:
        room.receive(f"peer-{s}", message("hello", secret=SECRET, name=f"G{s}", token=None))
        room.receive(f"peer-{s}", message("sit", seat=s, name=f"G{s}"))
    return room


def started(guests: tuple[int, ...] = (1, 2), seed: int = 3, hands: int = 0) -> Room:
    """A started room whose match has finished ``hands`` hands and is in the next one."""
    room = seated(guests)
    match = deal(entropy(seed), Options())
    room.start(match)
    bot = Bot("easy", seed)
    for _ in range(hands):
        while not match.game.over:
            s = match.game.to_move()[0]
            match.apply(bot.choose(match.game.observation(s), match.game.legal_actions(s)).action)
        deal(entropy(seed + match.hand_no + 1), match.options, match)
    for _ in range(5):  # a few moves into the hand
        s = match.game.to_move()[0]
        match.apply(bot.choose(match.game.observation(s), match.game.legal_actions(s)).action)
    return room


def vote(room: Room, seat: int, yes: bool, now: float = 0.0):
    if seat == HOST:
        return room.dissolve(HOST, yes, now)
    return room.receive(f"peer-{seat}", message("dissolve", vote="yes" if yes else "no"), now)


def sent(got, peer: str, kind: str) -> list[dict]:
    return [json.loads(t) for p, t in got.replies if p == peer and json.loads(t)["t"] == kind]


# ---------- 解散 ----------


def test_every_yes_ends_the_match_and_every_guest_gets_the_finished_hands():
    room = started(hands=1)
    first = vote(room, 1, True, 5.0)  # a guest proposes
    assert first.vote and not first.ended and room.vote is not None
    shown = sent(first, "peer-2", "vote")[0]["vote"]
    # seat 1 of the host is seat 3 at seat 2's table; the host (0) is its seat 2
    assert shown == {"by": turned(1, 2), "yes": [turned(1, 2)], "no": [],
                     "waiting": sorted([turned(0, 2), 0]), "seconds": VOTE_SECONDS,
                     "result": "open"}
    assert vote(room, HOST, True, 6.0).ended == ""
    last = vote(room, 2, True, 7.0)
    assert last.ended == "dissolved" and room.ended == "dissolved" and last.save
    for peer in ("peer-1", "peer-2"):
        assert sent(last, peer, "vote")[0]["vote"]["result"] == "dissolved"
        ended = sent(last, peer, "ended")[0]
        record = unpack_record(ended["record"])
        assert ended["why"] == "dissolved" and len(record["hands"]) == 1  # the void hand: out
        assert replay(json.dumps(record)).results  # every guest keeps a record that replays
    # nothing more is played, by anyone
    match = room.match
    assert match is not None
    s = match.game.to_move()[0]
    legal = match.game.legal_actions(s)
    assert room.local(legal[0] if s == HOST else Action(HOST, "pass")).refused.code == \
        "room.ended"
    if s:
        got = room.receive(f"peer-{s}", message("act", hand=match.hand_no,
                                                step=seen_step(match.game, s), action="0 pass"))
        assert got.action is None and got.refused is not None
    assert vote(room, 1, True).replies == []  # no second vote after the end
    back = Room.from_json(room.to_json())
    assert back.ended == "dissolved"  # a reload keeps it ended


def test_one_no_keeps_the_match_and_a_new_vote_may_follow():
    room = started()
    vote(room, 2, True)
    kept = vote(room, 1, False)
    assert kept.vote and kept.ended == "" and room.vote is None and room.ended == ""
    assert all(json.loads(t)["vote"]["result"] == "kept" for _, t in kept.replies)
    assert vote(room, 1, False).replies == []  # a no with no vote open proposes nothing
    again = vote(room, HOST, True)
    assert again.vote and room.vote is not None and room.vote.by == HOST


def test_an_unanswered_vote_agrees_after_its_wait_and_a_dropped_guest_is_asked_too():
    room = started()
    room.drop("peer-2")  # offline: asked all the same (one who left doesn't hold the table)
    vote(room, 1, True, 100.0)
    assert room.vote_due(100.0 + VOTE_SECONDS - 1).ended == ""
    assert 0 < room.vote_left(100.0 + VOTE_SECONDS - 1) <= 1
    due = room.vote_due(100.0 + VOTE_SECONDS)
    assert due.ended == "dissolved"


def test_the_vote_runs_on_the_pages_time_scale():
    room = started()
    room.scale = 0.01  # ?timescale=0.01: a minute is 0.6 s of the page's clock
    vote(room, 1, True, 0.0)
    assert room.vote_due(0.5).ended == ""
    assert room.vote_shown(HOST, 0.3)["seconds"] == VOTE_SECONDS - 30
    assert room.vote_due(0.61).ended == "dissolved"


def test_strangers_bots_and_second_answers_have_no_say():
    room = started(guests=(1,))
    # a connection that never gave the secret
    assert room.receive("stranger", message("dissolve", vote="yes")).replies == []
    assert room.vote is None
    assert room.dissolve(2, True, 0.0).replies == [] and room.vote is None  # a bot's seat
    assert room.receive("peer-1", message("dissolve", vote="maybe")).replies == []
    vote(room, 1, True)
    again = vote(room, 1, False)  # a change of mind after answering: the first answer holds
    assert again.replies == [] and room.vote is not None
    assert vote(room, HOST, True).ended == "dissolved"  # the bots (2, 3) were never asked


def test_no_vote_before_the_match_starts():
    room = seated()
    assert vote(room, 1, True).replies == [] and room.vote is None
    assert room.dissolve(HOST, True, 0.0).replies == []


@settings(max_examples=60, deadline=None)
@given(answers=st.lists(st.tuples(st.sampled_from([0, 1, 2, 3]), st.booleans()),
                        max_size=12))
def test_any_order_of_answers_ends_only_on_every_persons_yes(answers):
    """The room against a model of the rule: a yes opens a vote, one answer each, any no
    keeps the match, every person's yes ends it; a bot's seat (2) is never heard."""
    room = started(guests=(1, 3))
    people = {HOST, 1, 3}
    model: dict[int, bool] | None = None
    ended = False
    for i, (seat, yes) in enumerate(answers):
        if ended:
            break
        # (10 s apart: a person's answers stay inside the room's limits)
        vote(room, seat, yes, 10.0 * i) if seat != 2 else room.dissolve(2, yes, 10.0 * i)
        if seat == 2:
            pass
        elif model is None:
            model = {seat: True} if yes else None
        elif seat not in model:
            model[seat] = yes
        if model is not None and False in model.values():
            model = None
        elif model is not None and all(model.get(s) for s in people):
            model, ended = None, True
        assert room.ended == ("dissolved" if ended else "")
        assert (room.vote.answers if room.vote else None) == model


# ---------- 托管 ----------


def test_two_timeouts_in_a_row_put_a_guest_on_away_and_its_own_browser_is_told():
    room = started()
    first = room.timed_out(1)
    assert not room.seats[1].away and not sent_to(first, "peer-1", "away")
    second = room.timed_out(1)
    assert room.seats[1].away
    assert sent_to(second, "peer-1", "away") == [{"v": 1, "t": "away", "on": True}]
    assert not sent_to(second, "peer-2", "away")  # only the seat's own browser plays it
    lobby = sent_to(second, "peer-2", "lobby")[0]["room"]
    assert lobby["seats"][1]["away"] is True  # every plate says 托管
    # "我回来了": one message takes the seat back, and its count starts again
    back = room.receive("peer-1", message("away", on=False))
    assert back.away == 1 and not room.seats[1].away and room.timeouts[1] == 0
    assert room.timed_out(1) and not room.seats[1].away


def test_a_move_of_ones_own_ends_the_run_of_timeouts():
    room = started()
    match = room.match
    assert match is not None
    room.timed_out(HOST)
    while HOST not in match.game.to_move():
        s = match.game.to_move()[0]
        match.apply(Bot("easy").choose(match.game.observation(s),
                                       match.game.legal_actions(s)).action)
    got = room.local(match.game.legal_actions(HOST)[0])
    assert got.action is not None and room.timeouts[HOST] == 0
    room.timed_out(HOST)
    assert not room.seats[HOST].away  # one in a row again, not AWAY_AFTER
    assert AWAY_AFTER == 2


def test_a_page_that_comes_back_starts_without_away():
    room = started()
    token = room.seats[1].token
    room.timed_out(1)
    room.timed_out(1)
    assert room.seats[1].away
    room.drop("peer-1")
    got = room.receive("peer-1b", message("hello", secret=SECRET, name="G1", token=token))
    assert room.seat_of("peer-1b") == 1 and not room.seats[1].away and room.timeouts[1] == 0
    lobby = [json.loads(t)["room"] for p, t in got.replies if json.loads(t)["t"] == "lobby"]
    assert lobby and lobby[-1]["seats"][1]["away"] is False  # every plate drops 托管


def test_a_guest_puts_itself_on_away_and_others_cannot():
    room = started()
    got = room.receive("peer-2", message("away", on=True))
    assert got.away == 2 and room.seats[2].away
    assert not sent_to(got.replies, "peer-2", "away")  # it asked: nothing to tell it
    assert room.receive("stranger", message("away", on=True)).away is None
    assert room.receive("peer-2", message("away", on=True)).away is None  # no change
    room.receive("peer-1", message("away", on=False))
    assert room.seats[2].away  # one guest can't take another's seat back


def test_the_guest_table_takes_the_rituals_messages():
    room = started(hands=1)
    table = GuestTable()
    for text in (room.state(1, room.match, [], full=True),):
        table.receive(text)
    got = table.receive(message("vote", vote={"by": 3, "yes": [3], "no": [], "waiting": [0, 1],
                                              "seconds": 60, "result": "open"}))
    assert got.kind == "vote" and got.vote == table.vote and table.vote["by"] == 3
    assert table.receive(message("away", on=True)).away is True
    vote(room, 1, True)
    last = vote(room, HOST, True)
    last = vote(room, 2, True)
    ended = [t for p, t in last.replies if p == "peer-1" and json.loads(t)["t"] == "ended"][0]
    got = table.receive(ended)
    assert got.match_ended == "dissolved" and table.ended == "dissolved"
    assert table.done is not None and len(table.done.results) == 1
    assert table.match is table.done  # the table shows the finished hands, whole
    # a forged end whose record doesn't replay changes nothing
    other = GuestTable()
    other.receive(room.state(1, room.match, [], full=True))
    bad = other.receive(message("ended", why="dissolved", record="not a record"))
    assert bad.dropped is not None and other.ended == ""


def sent_to(out, peer: str, kind: str) -> list[dict]:
    return [json.loads(t) for p, t in out if p == peer and json.loads(t)["t"] == kind]
