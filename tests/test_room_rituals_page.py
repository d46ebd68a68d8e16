"""A guest's page and the room's rituals (托管, 解散), over the fake page of
:mod:`test_ui_split`: the host is a real :class:`~sxmj.room.host.Room` in CPython, whose
messages reach the guest's session as its transport would hand them over, and whose match
this test plays (the host's page's part)."""

from __future__ import annotations

import asyncio
import json

from test_ui_split import Element, Net, Page, event, make_app

from sxmj.bots import Bot
from sxmj.room import protocol
from sxmj.room.host import Room, deal
from sxmj.rules import Options
from sxmj.ui.table.friends.guest import GuestSession

SECRET = "s3cret-s3cret-s3cret"
SEAT = 2


def joined(seed: int):
    """The room (seat 2 a guest's page, the others the host and bots), started."""
    room = Room("room-id", SECRET, "Host", tokens=lambda: "token")
    page = Page()
    page.window.console.warn = lambda text: None
    page.elements["overlay"] = Element(page, "overlay", "dialog")
    page.window.sessionStorage = page.window.localStorage
    app = make_app(page, f"?seed={seed}&speed=fast&timescale=0.001")
    guest = GuestSession(app)
    app.session = guest
    from sxmj.room.guest import GuestTable
    guest.guest, guest.room_id, guest.secret, guest.net = GuestTable(), "room-id", SECRET, Net()
    deliver(guest, room.receive("g", protocol.message("hello", secret=SECRET, name="",
                                                      token=None)).replies)
    deliver(guest, room.receive("g", protocol.message("sit", seat=SEAT, name="Gu")).replies)
    match = deal(iter(range(seed, seed + 99)).__next__, Options())
    deliver(guest, room.start(match))
    return page, app, guest, room


def deliver(guest: GuestSession, out) -> None:
    for peer, text in out:
        if peer == "g":
            guest.guest_message(peer, text)


def sent(guest: GuestSession, kind: str) -> list[dict]:
    return [m for _, t in guest.net.sent if (m := json.loads(t))["t"] == kind]


def relay(guest: GuestSession, room: Room, seen: int) -> int:
    """The guest's page's messages since ``seen`` go to the room; a move is played and the
    guest sent its state, as the host's page does."""
    for _, text in guest.net.sent[seen:]:
        got = room.receive("g", text)
        if got.action is not None:
            room.match.apply(got.action)
            deliver(guest, room.states(room.match, []))
        else:
            deliver(guest, got.replies)
    return len(guest.net.sent)


def bots_to_guest(room: Room, guest: GuestSession) -> None:
    """The other seats play until the guest must decide (or the hand ends)."""
    match = room.match
    while not match.game.over and SEAT not in match.game.to_move():
        s = match.game.to_move()[0]
        match.apply(Bot("easy").choose(match.game.observation(s),
                                       match.game.legal_actions(s)).action)
    deliver(guest, room.states(match, []))


def test_a_guest_put_on_away_plays_by_its_own_page_and_comes_back():
    async def run() -> None:
        page, app, guest, room = joined(5)
        for _ in range(2):
            deliver(guest, room.timed_out(SEAT))
        assert guest.away and room.seats[SEAT].away
        assert 'data-testid="away-toggle" aria-pressed="true"' in page.elements["chat"].innerHTML
        seen, moves = len(guest.net.sent), 0
        for _ in range(40):  # its own page plays each decision, after a beat
            bots_to_guest(room, guest)
            if room.match.game.over:
                break
            before = len(room.match.game.actions)
            await asyncio.sleep(0.01)
            seen = relay(guest, room, seen)
            moves += len(room.match.game.actions) > before
        assert moves >= 3 and not sent(guest, "away")  # put on by the room: nothing to say
        app.router.on_click(event(page.button(data_ui="away-toggle")))  # 我回来了
        assert not guest.away and sent(guest, "away") == [{"v": 1, "t": "away", "on": False}]
        relay(guest, room, seen)
        assert not room.seats[SEAT].away
        assert 'aria-pressed="false"' in page.elements["chat"].innerHTML
        assert not page.errors

    asyncio.run(run())


def test_a_guest_votes_and_its_table_ends_on_the_hands_played():
    async def run() -> None:
        page, app, guest, room = joined(8)
        bots_to_guest(room, guest)
        deliver(guest, room.dissolve(0, True, 0.0).replies)  # the host asks
        assert app.overlay.kind == "vote"
        dialog = page.elements["overlay"].innerHTML
        assert 'data-testid="dissolve-vote"' in dialog and 'data-vote="yes"' in dialog
        app.router.on_click(event(page.button(data_ui="dissolve-vote", data_vote="no")))
        assert sent(guest, "dissolve") == [{"v": 1, "t": "dissolve", "vote": "no"}]
        relay(guest, room, len(guest.net.sent) - 1)
        assert room.vote is None and not page.elements["overlay"].open  # kept: it closes
        app.router.on_click(event(page.button(data_ui="friends-dissolve")))  # the guest asks
        relay(guest, room, len(guest.net.sent) - 1)
        assert room.vote is not None and room.vote.by == SEAT and app.overlay.kind == "vote"
        deliver(guest, room.dissolve(0, True, 1.0).replies)  # the host agrees: over
        assert room.ended == "dissolved" and guest.ended() == "dissolved"
        assert app.overlay.kind == "ended"
        dialog = page.elements["overlay"].innerHTML
        assert 'data-ended="dissolved"' in dialog and 'data-hands="0"' in dialog
        assert 'data-testid="away-toggle"' not in page.elements["chat"].innerHTML
        assert page.document.body.dataset.sxmjRoom == "ended"
        assert not page.errors

    asyncio.run(run())
