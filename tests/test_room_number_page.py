"""The 房号 at the pages, over the fake page of :mod:`test_ui_split`: the host's room gets a
number (a taken one is replaced), the invite and its share text show it, 加入房间 turns a
table into that room's guest, which knocks with the number; a number that finds no room is
said, and each failure waits longer; a locked room's host approves a seat."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

from test_friends_turn_secret import host_page
from test_ui_split import Element, Net, Page, event, make_app

from sxmj.room import protocol
from sxmj.room.host import is_room_number
from sxmj.ui.table import view, welcome
from sxmj.ui.table.friends.door import FAILS_KEY
from sxmj.ui.table.friends.guest import GuestSession
from sxmj.ui.table.friends.lobby import read_hash, share_text
from sxmj.ui.table.storage.saved import Settings


def test_the_hosts_room_has_a_number_in_its_invite_and_a_taken_one_is_replaced():
    page, app, host, net = host_page(Settings())
    shown: list[tuple[str, str]] = []
    app.overlay.open = lambda kind, html: shown.append((kind, html))

    async def run() -> None:
        host.create()
        await asyncio.sleep(0.01)
        room = host.room
        assert room is not None and is_room_number(room.number)
        assert host.room_id == room.room_id == "sxmj" + room.number
        assert f'data-testid="friends-room-number">{room.number}<' in shown[-1][1]
        text = share_text(room.hands, room.base, host.link, "zh", room.number)
        assert text.startswith(f"【绍兴麻将】房号 {room.number} · 8 局")
        assert text.endswith(host.link)
        assert f"房号 {room.number}" in shown[-1][1]  # the share box in the invite
        # the broker has the id already (another room): a new number, before anyone came
        first = room.number
        host.net_error("unavailable-id", "taken")
        await asyncio.sleep(0.01)
        assert room.number != first and host.room_id == "sxmj" + room.number
        assert host.link.count("#room=sxmj" + room.number) == 1
        assert net.opened[-1][0] == host.room_id  # the transport opened the new id
        host.host_status("open")  # the broker has it: a later "taken" is a reload's
        host.net_error("unavailable-id", "taken")
        assert host.room_id == "sxmj" + room.number

    asyncio.run(run())


def joiner(search: str = "?seed=2"):
    page = Page(search=search)
    page.window.console.warn = lambda text: None
    page.window.sessionStorage = page.window.localStorage
    page.elements["overlay"] = Element(page, "overlay", "dialog")
    page.window.location.pathname = "/index.html"
    app = make_app(page, search)
    return page, app


def field(page: Page, rid: str, value: str) -> None:
    element = Element(page, rid, "input")
    element.value = value
    page.elements[rid] = element


def test_the_door_joins_by_number_and_a_number_that_finds_no_room_waits_longer():
    page, app = joiner()
    opened: list = []

    class GuestNet(Net):
        def join(self, room_id, opts):
            opened.append(room_id)

    async def run() -> None:
        app.router.on_click(event(page.button(data_ui="join-room-open")))
        assert app.overlay.kind == "join"
        assert 'data-testid="join-room-number"' in page.elements["overlay"].innerHTML
        field(page, "join-room-number", "12a456")
        app.router.on_click(event(page.button(data_ui="join-room-go")))
        assert app.overlay.kind == "join"
        assert 'data-reason="join_bad_number"' in page.elements["overlay"].innerHTML
        field(page, "join-room-number", "407215")
        field(page, "join-room-ice", "china")
        field(page, "join-room-broker", "javascript:alert(1)")  # not an address: ignored
        net = GuestNet()

        async def transport():
            return net

        GuestSession._net = lambda self: transport()  # (CPython has no transport)
        GuestSession._opts = lambda self, **callbacks: {"ice": self.preset()}
        try:
            app.router.on_click(event(page.button(data_ui="join-room-go")))
            await asyncio.sleep(0.01)
            guest = app.session
            assert isinstance(guest, GuestSession) and guest.number == "407215"
            assert opened == ["sxmj407215"] and app.params.ice == "china"
            assert app.params.broker == ""
            assert page.urls[-1].endswith("#room=sxmj407215&num=407215")
            assert "ice=china" in page.urls[-1]
            assert read_hash("#" + page.urls[-1].split("#")[1]) == \
                ("number", "sxmj407215", "407215")
            guest.guest_status("open")  # it knocks with the number, never a secret
            sent = protocol.parse(net.sent[-1][1])
            assert sent["t"] == "knock" and sent["number"] == "407215"
            # a number with no room: the table plays alone again, the dialog says why
            guest.reached = False
            guest.net_error("peer-unavailable", "no such peer")
            assert not isinstance(app.session, GuestSession) and net.closed
            html = page.elements["overlay"].innerHTML
            assert app.overlay.kind == "join" and 'data-reason="join_no_room"' in html
            assert "data-wait" not in html  # the first failure: try again at once
            app.door.failed("407215", "join_no_room")  # a second one waits 2 s
            assert 'data-wait="2"' in page.elements["overlay"].innerHTML
            assert page.window.sessionStorage.getItem(FAILS_KEY) == "2"
        finally:
            del GuestSession._net, GuestSession._opts

    asyncio.run(run())


def test_a_locked_rooms_host_approves_a_number_joiners_seat():
    page, app, host, net = host_page(Settings())
    shown: list[tuple[str, str]] = []
    app.overlay.open = lambda kind, html: shown.append((kind, html))
    app.overlay.kind = "friends"

    async def run() -> None:
        host.create()
        await asyncio.sleep(0.01)
        room = host.room
        host.command("lock")
        host.host_message("p1", protocol.message("knock", number=room.number, name="",
                                                 token=None))
        host.host_message("p1", protocol.message("sit", seat=2, name="阿明"))
        assert room.seats[2].kind == "bot"
        assert 'data-testid="friends-approve" data-ui="friends-approve" data-seat="2"' \
            in shown[-1][1] and "阿明" in shown[-1][1]
        waiting = [json.loads(t) for p, t in net.sent if p == "p1"]
        assert waiting[-1] == {"v": 1, "t": "notice", "kind": "waiting", "seat": 2}
        app.router.on_click(event(page.button(data_ui="friends-approve", data_seat="2")))
        assert room.seats[2].kind == "guest" and room.seats[2].name == "阿明"
        assert json.loads([t for p, t in net.sent if p == "p1"][-2])["t"] == "seated"
        assert "friends-approve" not in shown[-1][1]

    asyncio.run(run())


def test_the_welcome_card_and_the_menu_hold_the_door_one_at_a_time():
    page, app = joiner()
    st = app.state()
    assert view.menu_html(st).count('data-testid="join-room-open"') == 1
    st_welcome = replace(st, welcome_open=True)
    assert 'data-testid="menu-join"' in view.menu_html(st_welcome)
    assert 'data-testid="join-room-open"' in welcome.welcome_html(st_welcome)
    in_room = replace(st, names=("", "Ann", "", ""))
    assert "join-room-open" not in view.menu_html(in_room)  # in a room: no door
