"""The host's own relay (issue 51, item 1): a custom STUN/TURN list and a coturn
``static-auth-secret`` in Settings. The invite carries the list in its fragment with this
room's minted logins, the guest's page connects through it, and the secret never leaves the
host's device: an attacker's test looks for it in everything that leaves the page or is
kept beside the settings (the link, the share text, the QR's link, every message of a whole
room's hand, the saved room, the exported record, every DOM write).

The host's page is played over the fake page of :mod:`test_ui_split`, its transport a fake
(the real one, PeerJS, runs only in a browser; ``e2e/test_friends_ice.py`` checks what the
page hands it)."""

from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import unquote

import pytest
from test_ui_split import Net, Page, make_app

from sxmj.bots import Bot
from sxmj.room import protocol
from sxmj.room.host import seen_step
from sxmj.room.ice import parse_servers, turn_credentials
from sxmj.ui.table.friends.guest import GuestSession
from sxmj.ui.table.friends.host import HostSession
from sxmj.ui.table.friends.lobby import hash_refusals, read_hash, read_ice, share_text
from sxmj.ui.table.storage.saved import KEY_SETTINGS, Settings, load_settings

SECRET = "coturn-static-auth-secret-Zq7"  # what an attacker wants
LIST = json.dumps([{"urls": ["turns:turn.example.cn:443", "turn:turn.example.cn:3478"]},
                   {"urls": "stun:stun.example.cn:3478"}])


class HostNet(Net):
    """The host's transport: what it is asked to open, and everything it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list = []

    def host(self, room_id, opts) -> None:
        self.opened.append((room_id, opts))

    async def qrSvg(self, link):  # noqa: N802 - the page's JavaScript name
        return f"<svg data-link='{link}'></svg>"


def host_page(settings: Settings):
    page = Page({KEY_SETTINGS: settings.to_json()})
    page.window.console.warn = lambda text: None
    app = make_app(page, "?seed=4&speed=fast")
    host = HostSession(app)
    app.session = host
    net = HostNet()

    async def transport():
        return net

    host._net = transport  # the page's transport, which CPython can't load
    # what the page hands the transport, without the browser's conversions
    host._opts = lambda **callbacks: {"broker": host.broker(), "ice": host.preset(),
                                      "iceServers": host.ice_servers()}
    return page, app, host, net


def test_the_invite_carries_minted_logins_and_never_the_secret():
    settings = Settings(ice="china", ice_servers=LIST, turn_secret=SECRET)
    page, app, host, net = host_page(settings)
    assert app.settings.turn_secret == SECRET  # kept on this device

    async def run() -> None:
        before = int(time.time())
        host.create()
        await asyncio.sleep(0.01)
        after = int(time.time())
        link = host.link
        fragment = "#" + link.split("#", 1)[1]
        assert read_hash(fragment) == ("guest", host.room_id, host.secret)
        assert "ice=china" in link.split("#")[0]  # the preset rides in the query
        servers = parse_servers(read_ice(fragment))
        turn = [s for s in servers if s.relay]
        assert len(turn) == 1 and turn[0].urls[0] == "turns:turn.example.cn:443"
        expiry, room = turn[0].username.split(":")
        assert room == host.room_id and before + 12 * 3600 <= int(expiry) <= after + 12 * 3600
        # the login is the one coturn computes from its secret: the relay will take it
        assert turn[0].credential == turn_credentials(SECRET, room, int(expiry) - 12 * 3600)[1]
        assert not [s for s in servers if not s.relay][0].username  # STUN: no login
        # the page's own connections use the same list
        assert json.loads(net.opened[0][1]["iceServers"]) == json.loads(read_ice(fragment))
        # a whole hand with guests: every message, the saved room, the export
        room = host.room
        for s in (1, 2):
            host.host_message(f"peer-{s}", protocol.message(
                "hello", secret=host.secret, name="", token=None))
            host.host_message(f"peer-{s}", protocol.message("sit", seat=s, name=f"P{s}"))
        host.start()
        bot = Bot("easy", 4)
        for _ in range(400):
            game = app.match.game
            if game.over:
                break
            seat = game.to_move()[0]
            move = bot.choose(game.observation(seat), game.legal_actions(seat)).action
            if seat == 0:
                app.act(move)
            elif seat in (1, 2):
                host.host_message(f"peer-{seat}", protocol.message(
                    "act", hand=app.match.hand_no, step=seen_step(game, seat),
                    action=str(protocol.turn_action(move, seat))))
            else:
                app.apply(move)
                host.applied([])
        assert app.match.game.over
        leaks = {
            "link": link, "unquoted link": unquote(link),
            "share text": share_text(room.hands, room.base, link, "zh"),
            "QR": host.qr, "messages": json.dumps(net.sent, ensure_ascii=False),
            "saved room": room.to_json(), "export": host.record_text() or "",
            "page writes": json.dumps([w for w in page.writes
                                       if w[:2] != ("localStorage", KEY_SETTINGS)],
                                      ensure_ascii=False, default=str),
            "opened with": json.dumps(net.opened[0][1], default=str),
        }
        assert net.sent and room.started
        for where, text in leaks.items():
            assert SECRET not in text, where
            assert SECRET[:12] not in text, where  # nor a piece of it

    asyncio.run(run())


def test_without_a_secret_the_lists_own_logins_travel_and_a_list_without_them_is_not_used():
    with_logins = json.dumps([{"urls": "turn:t.example.cn:3478", "username": "u",
                               "credential": "p"}])
    page, app, host, net = host_page(Settings(ice_servers=with_logins))
    host.room_id = "r1"
    host.invite()
    assert parse_servers(read_ice("#" + host.link.split("#")[1]))[0].username == "u"
    warned: list[str] = []
    page, app, host, net = host_page(Settings(ice_servers=LIST))  # TURN with no login
    app.window.console.warn = warned.append
    host.room_id = "r1"
    host.invite()
    assert "ice=" not in host.link.split("#")[1] and host.custom == ""
    assert warned and "not used" in warned[0]


def test_a_guest_connects_through_the_invites_list_and_a_bad_one_is_named():
    servers = json.dumps([{"urls": "turns:t.example.cn:443", "username": "9:r",
                           "credential": "c"}])
    page = Page()
    app = make_app(page, "?seed=1")
    guest = GuestSession(app)
    guest.loaded, guest._net = True, lambda: asyncio.sleep(0)  # (no transport here)

    async def run() -> None:
        guest.join("room-id", "key", servers)

    asyncio.run(run())
    assert guest.ice_servers() == servers
    bad = "#room=r&key=k&ice=%5B%7B%22urls%22%3A%22javascript%3Ax%22%7D%5D"
    assert read_ice(bad) == "" and [r.param for r in hash_refusals(bad)] == ["#ice"]
    assert read_hash(bad) == ("guest", "r", "k")  # the room still opens, on the preset


@pytest.mark.parametrize("field, value", [
    ("ice", "mars"), ("ice_servers", "[{\"urls\": \"http://x\"}]"), ("ice_servers", "{}"),
    ("turn_secret", "short"), ("turn_secret", 7), ("ice_servers", ["x"]),
])
def test_a_stored_setting_that_cant_be_used_falls_back_on_its_own(field, value):
    data = json.loads(Settings(ice="china", ice_servers=LIST, turn_secret=SECRET).to_json())
    data[field] = value
    settings, problem = load_settings(json.dumps(data))
    assert problem is not None and field in problem.detail
    default = Settings()
    assert getattr(settings, field) == getattr(default, field)
    kept = {"ice": "china", "ice_servers": LIST, "turn_secret": SECRET}
    for other, want in kept.items():
        if other != field:
            assert getattr(settings, other) == want  # the others are kept
