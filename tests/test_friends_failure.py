"""A room that can't form says so (issue 51, honest failures), in CPython over the fake page:
a broker that fails or stays silent, a guest whose host can't be reached, the way back, and
the test-only time scale (``?timescale=``) that makes the waits short."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from test_ui_split import Net, Page, make_app

from sxmj.room import protocol
from sxmj.room.host import Room
from sxmj.ui.i18n import tr
from sxmj.ui.markup import esc
from sxmj.ui.params import parse_params
from sxmj.ui.table.friends import lobby
from sxmj.ui.table.friends.guest import GuestSession
from sxmj.ui.table.friends.host import HostSession
from sxmj.ui.table.friends.room_session import BROKER_WAIT

SECRET = "s3cret-s3cret-s3cret"
FAST = "?seed=3&speed=fast&timescale=0.001"  # the broker's 10 s wait lasts 10 ms


def table(search: str = FAST):
    page = Page()
    page.window.console.warn = lambda text: None
    app = make_app(page, search)
    shown: list[tuple[str, str]] = []
    app.overlay.open = lambda kind, html: shown.append((kind, html))
    whys: list[str] = []
    app.screen.show_why = whys.append
    return page, app, shown, whys


def hosting(search: str = FAST):
    page, app, shown, whys = table(search)
    host = HostSession(app)
    host.room = Room("room-id", SECRET, "Host", tokens=iter(["t1", "t2"]).__next__)
    host.room_id, host.secret, host.net = "room-id", SECRET, Net()
    host.link = "https://example.org/index.html#room=room-id&key=" + SECRET
    app.session = host
    return app, host, shown, whys


def lobby_html(shown) -> str:
    assert shown and shown[-1][0] == "friends"
    return shown[-1][1]


def test_a_silent_broker_is_named_within_its_wait_and_no_start_is_offered():
    app, host, shown, _ = hosting()

    async def run() -> None:
        host.watch("friends_err_silent")
        await asyncio.sleep(BROKER_WAIT * 0.001 * 5)

    asyncio.run(run())
    html = lobby_html(shown)
    assert host.failure == "friends_err_silent" and 'data-testid="friends-error"' in html
    assert 'data-testid="friends-start"' not in html and 'data-testid="friends-link"' not in html
    assert "0.peerjs.com" in html and 'data-ui="friends-retry"' in html
    host.start()  # a start that would reach nobody is refused
    assert host.room is not None and not host.room.started
    assert app.document.body.dataset.sxmjFriends == "failed"


def test_a_broker_that_answers_in_time_fails_nothing():
    _, host, shown, _ = hosting()

    async def run() -> None:
        host.watch("friends_err_silent")
        host.host_status("open")
        await asyncio.sleep(0.05)

    asyncio.run(run())
    assert host.failure == "" and host.reached and not shown


def test_a_broker_error_before_the_room_is_reached_fails_it_at_once_and_after_only_warns():
    app, host, shown, whys = hosting("?seed=3&speed=fast&broker=http://10.99.0.1:9000/b")
    host.net_error("network", "refused")
    html = lobby_html(shown)
    assert host.failure == "friends_err_broker" and "10.99.0.1:9000" in html
    assert app.document.body.dataset.sxmjFriends == "failed"
    host.host_status("open")  # the broker came back: the invite again, with its start
    assert host.failure == "" and 'data-testid="friends-start"' in lobby_html(shown)
    assert getattr(app.document.body.dataset, "sxmjFriends", None) is None
    host.net_error("network", "dropped")
    assert host.failure == "" and whys  # a room already reached goes on (channels stay)


def test_retry_connects_again_under_the_same_room():
    _, host, shown, _ = hosting()
    host.fail("friends_err_silent")
    net = host.net
    called: list[bool] = []

    async def again(reopen: bool = True) -> None:
        called.append(reopen)

    host._host = again  # the page's transport, which CPython can't load

    async def run() -> None:
        host.command("retry")
        await asyncio.sleep(0)

    asyncio.run(run())
    assert net.closed and host.net is None and host.failure == "" and called == [False]
    assert 'data-testid="friends-link"' in lobby_html(shown)  # the same link still invites


def test_a_guest_whose_host_cant_be_reached_is_told_and_can_retry():
    _, app, shown, _ = table()
    guest = GuestSession(app)
    app.session = guest
    guest.room_id, guest.secret, guest.net = "room-id", SECRET, Net()
    from sxmj.room.guest import GuestTable
    guest.guest = GuestTable()

    async def run() -> None:
        guest.watch("friends_err_host")
        await asyncio.sleep(0.05)

    asyncio.run(run())
    html = lobby_html(shown)
    assert guest.failure == "friends_err_host" and 'data-testid="friends-error"' in html
    assert 'data-ui="friends-retry"' in html and 'data-ui="settings"' not in html
    guest.guest_status("closed")  # its own transport, closed to try again: no "host left"
    assert guest.status == "" and guest.failure == "friends_err_host"
    guest.guest_status("open")  # the host answered after all: hello, and the lobby back
    assert guest.failure == "" and protocol.parse(guest.net.sent[-1][1])["t"] == "hello"
    assert 'data-testid="friends-error"' not in lobby_html(shown)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("reason", ["friends_err_silent", "friends_err_broker",
                                    "friends_err_host"])
def test_every_failure_says_what_happened_and_what_to_try(reason, lang):
    html = lobby.failure_html(reason, "peer.example.cn", lang, host=True)
    what, nxt = tr(lang, reason, broker="peer.example.cn"), tr(lang, reason + "_next")
    assert what and nxt and what != reason and nxt != reason + "_next"
    assert esc(what) in html and esc(nxt) in html and 'role="alert"' in html
    assert reason == "friends_err_host" or "peer.example.cn" in what


@pytest.mark.parametrize("text, scale, refused", [
    ("", 1.0, False), ("0.1", 0.1, False), ("1", 1.0, False), ("0.001", 0.001, False),
    ("0", 1.0, True), ("2", 1.0, True), ("abc", 1.0, True), ("nan", 1.0, True),
    ("-0.5", 1.0, True), ("inf", 1.0, True)])
def test_the_test_time_scale(text, scale, refused):
    p = parse_params(f"?seed=3&timescale={text}" if text else "?seed=3")
    assert p.timescale == scale
    assert ([r.param for r in p.refused] == ["timescale"]) is refused
    carried = dict(p.network())
    assert carried.get("timescale") == (None if scale == 1.0 else f"{scale:g}")


# ------------------------------------------------------------------ the match's terms


def test_the_host_chooses_the_terms_and_every_guest_is_shown_them():
    async def run() -> None:
        app, host, shown, _ = hosting()
        room = host.room
        host.host_message("peer-1", protocol.message("hello", secret=SECRET, name="",
                                                     token=None))
        host.host_message("peer-1", protocol.message("sit", seat=1, name="Ann"))
        host.net.sent.clear()
        selects = {"friends-hands": "4", "friends-base": "10"}
        app.document.getElementById = lambda rid: (
            SimpleNamespace(value=selects[rid], getAttribute=lambda name: None)
            if rid in selects else None)
        app.overlay.kind = "friends"
        host.command("terms")
        assert (room.hands, room.base) == (4, 10)
        lobby_sent = [protocol.parse(t, "host") for _, t in host.net.sent]
        assert [m["room"]["hands"] for m in lobby_sent if m["t"] == "lobby"] == [4]
        html = lobby_html(shown)
        assert 'value="4" selected' in html and 'value="10" selected' in html
        assert "【绍兴麻将】4 局 · 底花 10 · 开搓！" in html
        selects["friends-base"] = "7"  # not a 底花 there is: nothing changes
        host.command("terms")
        assert (room.hands, room.base) == (4, 10)
        guest = lobby.guest_lobby_html(room.lobby(), None, "", "en")
        assert 'data-hands="4"' in guest and "4 hands · base 10 flowers" in guest

    asyncio.run(run())


def test_the_room_plays_its_terms_and_keeps_them_for_a_reload():
    from sxmj.room.host import Room as SavedRoom
    from sxmj.rules import Options
    room = SavedRoom("r", SECRET, "Host")
    room.choose(16, 25)
    assert room.options(Options()).match_hands == 16
    assert room.options(Options()).base_flowers == 25
    back = SavedRoom.from_json(room.to_json())
    assert (back.hands, back.base) == (16, 25)
    old = room.to_json().replace('"hands": 16, "base": 25, ', "")  # kept before the terms
    assert (SavedRoom.from_json(old).hands, SavedRoom.from_json(old).base) == (8, 5)
    for bad in ('"hands": 5', '"base": 7', '"hands": "8"'):
        with pytest.raises(ValueError):
            SavedRoom.from_json(room.to_json().replace('"hands": 16', bad).replace(
                '"base": 25', bad if "base" in bad else '"base": 25'))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_share_text_carries_the_terms_and_the_whole_link(lang):
    link = "https://sxmj.example.cn/index.html?broker=x#room=abc&key=def"
    text = lobby.share_text(16, 20, link, lang)
    first, second = text.split("\n")
    assert "16" in first and "20" in first and second == link
    assert lobby.guest_lobby_html({"seats": [], "started": False, "hands": 9, "base": 5},
                                  0, "", lang).count("friends-terms") == 0  # a hostile lobby
