"""The host's own table in a friends room: drawn from the state a guest in seat 0 would be
sent (never from the live match and its wall), and its Export during a hand gives what a
guest's gives, the finished hands only (issue 50, item 2).

The room is played over the fake page of :mod:`test_ui_split`: the host's page
(:class:`~sxmj.ui.table.friends.host.HostSession`) with three guests who play by their
messages, as their pages would send them.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

from test_ui_split import Element, Net, Page, event, make_app

from sxmj.room import protocol
from sxmj.room.guest import GuestTable
from sxmj.room.host import Room, seen_step
from sxmj.ui.table import view
from sxmj.ui.table.friends.host import HostSession

SECRET = "s3cret-s3cret-s3cret"


def hosted(seed: int, dialog: bool = False):
    page = Page()
    if dialog:  # the page's <dialog>, for what the room shows in it
        page.elements["overlay"] = Element(page, "overlay", "dialog")
    page.window.console.warn = lambda text: None
    app = make_app(page, f"?seed={seed}&speed=fast")
    tokens = iter(f"token-{i}" for i in range(100))
    host = HostSession(app)
    host.room = Room("room-id", SECRET, "Host", tokens=tokens.__next__)
    host.room_id, host.secret = "room-id", SECRET
    host.net = Net()
    app.session = host
    for s in (1, 2, 3):
        host.host_message(f"peer-{s}", protocol.message("hello", secret=SECRET, name="",
                                                        token=None))
        host.host_message(f"peer-{s}", protocol.message("sit", seat=s, name=f"P{s}"))
    host.start()
    return page, app, host


def step(app, host: HostSession) -> None:
    """One move: the host's person or a guest (by its message), the first legal one that
    keeps the hand going (a discard of the first tile, a pass)."""
    game = app.match.game
    seat = game.to_move()[0]
    legal = game.legal_actions(seat)
    move = next((a for a in legal if a.kind in ("pass", "discard")), legal[0])
    if seat == 0:
        app.act(move)
        return
    host.host_message(f"peer-{seat}", protocol.message(
        "act", hand=app.match.hand_no, step=seen_step(game, seat),
        action=str(protocol.turn_action(move, seat))))


def drawn_as_seat_zero(app, room: Room, seat_zero: GuestTable) -> None:
    """The host's table state is the one a guest's page in seat 0 would draw."""
    st = app.state()
    seen = view.TableState.of(seat_zero.match, lang=st.lang)
    assert st.obs == seen.obs and st.legal == seen.legal and st.scores == seen.scores
    assert (st.result is None) == (seen.result is None)
    if st.result is not None:
        assert st.result.payments == seen.result.payments
        assert st.result.hands == seen.result.hands
    assert app.session.shown(app.match) is not app.match


def test_the_hosts_table_is_what_seat_zero_is_sent_through_a_whole_hand():
    async def run() -> int:
        page, app, host = hosted(5)
        room = host.room
        assert room is not None and room.match is app.match
        seat_zero = GuestTable()  # a guest's page, were one in seat 0: the wire's text
        seat_zero.receive(room.state(0, app.match, app.match.game.deal_events, full=True))
        drawn_as_seat_zero(app, room, seat_zero)
        moves = 0
        while not app.match.game.over and moves < 400:
            step(app, host)
            seat_zero.receive(room.state(0, app.match, []))
            drawn_as_seat_zero(app, room, seat_zero)
            moves += 1
        assert app.match.game.over and not page.errors
        return moves

    assert asyncio.run(run()) > 10


def test_the_hosts_export_during_a_hand_holds_only_the_finished_hands():
    """What an attacker at the host's Export would want, the live wall and the other
    seats' hands, is not in it: the finished hands are, as a guest's Export has them."""
    async def run() -> None:
        page, app, host = hosted(7)
        match = app.match
        for _ in range(6):
            step(app, host)
        record = json.loads(host.record_text() or "null")
        assert record["hands"] == [] and "wall" not in record and record["seed"] == 0
        wall = match.game.wall.tiles  # the live hand's wall: the host's alone
        assert len(wall) > 20 and json.dumps(wall[-20:]) not in json.dumps(record)
        assert json.dumps(sorted(match.game.concealed(1))) not in json.dumps(record)
        while not match.game.over:
            step(app, host)
        record = json.loads(host.record_text() or "null")
        assert len(record["hands"]) == 1 and len(record["results"]) == 1
        assert record == json.loads(json.dumps(host.room.history(match)))
        assert not page.errors

    asyncio.run(run())


def test_before_the_match_the_host_exports_its_own_table():
    page = Page()
    app = make_app(page, "?seed=3&speed=fast")
    host = HostSession(app)
    assert host.record_text() is None and host.shown(app.match) is app.match


def sent(host: HostSession, kind: str) -> list[tuple[str, dict]]:
    return [(peer, json.loads(text)) for peer, text in host.net.sent
            if json.loads(text)["t"] == kind]


def test_the_hosts_table_runs_a_vote_to_end_the_match():
    """解散 at the host's page: a guest asks, the host's dialog asks its person, the others
    agree; the host's table stops (no bot moves, no 托管, no 解散) and shows the summary of
    the hands played, as every guest's does from the same message."""
    async def run() -> None:
        page, app, host = hosted(9, dialog=True)
        for _ in range(5):
            step(app, host)
        host.host_message("peer-1", protocol.message("dissolve", vote="yes"))
        assert app.overlay.kind == "vote"
        dialog = page.elements["overlay"].innerHTML
        assert 'data-testid="friends-vote"' in dialog and 'data-vote="no"' in dialog
        assert {peer for peer, _ in sent(host, "vote")} == {"peer-1", "peer-2", "peer-3"}
        app.router.on_click(event(page.button(data_ui="dissolve-vote", data_vote="yes")))
        dialog = page.elements["overlay"].innerHTML
        assert 'data-vote="no"' not in dialog and 'data-answer="yes"' in dialog  # answered
        host.host_message("peer-2", protocol.message("dissolve", vote="yes"))
        assert host.room.ended == ""
        host.host_message("peer-3", protocol.message("dissolve", vote="yes"))
        assert host.room.ended == "dissolved" and app.overlay.kind == "ended"
        dialog = page.elements["overlay"].innerHTML
        assert 'data-testid="match-summary"' in dialog and 'data-ended="dissolved"' in dialog
        assert {peer for peer, _ in sent(host, "ended")} == {"peer-1", "peer-2", "peer-3"}
        assert host.humans() == {0, 1, 2, 3}  # the bots' loop plays nothing more
        assert 'data-testid="away-toggle"' not in page.elements["chat"].innerHTML
        assert Room.from_json(page.window.localStorage.getItem("sxmj.room")).ended == \
            "dissolved"  # a reload shows the end again
        assert not page.errors

    asyncio.run(run())


def test_the_hosts_person_goes_on_away_and_its_own_page_plays():
    """托管 at the host's page: one tap, the plates of every guest say so (the lobby), and
    the host's page plays its person's decisions itself; 我回来了 stops it."""
    async def run() -> None:
        page, app, host = hosted(11)
        app.params = replace(app.params, timescale=0.001)  # 托管's beat: a millisecond
        app.router.on_click(event(page.button(data_ui="away-toggle")))
        assert host.away and host.room.seats[0].away
        assert 'aria-pressed="true"' in page.elements["chat"].innerHTML
        lobbies = [m["room"]["seats"][0]["away"] for _, m in sent(host, "lobby")]
        assert lobbies and lobbies[-1] is True
        played = 0
        for _ in range(300):  # the guests play by their messages; the host's page plays itself
            game = app.match.game
            if game.over:
                break
            if 0 in game.to_move():
                before = len(game.actions)
                await asyncio.sleep(0.01)
                played += len(app.match.game.actions) > before
                continue
            step(app, host)
        assert played >= 3
        app.router.on_click(event(page.button(data_ui="away-toggle")))
        assert not host.away and not host.room.seats[0].away
        assert sent(host, "lobby")[-1][1]["room"]["seats"][0]["away"] is False
        assert not page.errors

    asyncio.run(run())
