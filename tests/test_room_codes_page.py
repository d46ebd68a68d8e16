"""Connection codes at the host's page (issue 51, the route with no broker), over the fake
page of :mod:`test_ui_split` and a fake transport that makes real descriptions
(:mod:`sxmj.room.codes`): the failure dialog's way out, one offer per free seat, the answers
pasted (whole messages, wrong texts kept with why, an answer used twice), a seat taken
meanwhile, and after the start a code that brings a dropped friend back to their seat.
``e2e/test_friends_codes.py`` plays the same through real browsers."""

from __future__ import annotations

import asyncio
import re
import string
from dataclasses import replace
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st
from test_friends_turn_secret import HostNet, host_page
from test_room_codes import CHROMIUM_ANSWER, CHROMIUM_OFFER
from test_ui_split import Element

from sxmj.room import protocol
from sxmj.room.codes import answer_code, build_sdp, parse_sdp
from sxmj.ui.table.friends.lobby import (
    chat_html,
    guest_lobby_html,
    hash_refusals,
    read_hash,
    read_offer_hash,
    read_token,
)
from sxmj.ui.table.storage.saved import Settings

OFFER_LINK = re.compile(r'data-testid="codes-offer" data-seat="(\d)"[^>]*>([^<]*)<')


class CodesNet(HostNet):
    """The host's transport, making an offer per call (each with its own ICE login)."""

    def __init__(self) -> None:
        super().__init__()
        self.made: list[str] = []
        self.accepted: list[tuple[str, str]] = []
        self.cancelled: list[str] = []

    async def offer(self, servers, ice):
        n = len(self.made)
        self.made.append(f"code-{n}")
        d = parse_sdp(CHROMIUM_OFFER)
        return SimpleNamespace(id=f"code-{n}", sdp=build_sdp(replace(d, ufrag=f"uf{n:02d}")))

    async def accept(self, js_id, sdp):
        if js_id in self.cancelled:
            return False
        self.accepted.append((js_id, sdp))
        return True

    def cancel(self, js_id) -> bool:
        self.cancelled.append(js_id)
        return True


def codes_page():
    page, app, host, _ = host_page(Settings())
    net = CodesNet()

    async def transport():
        return net

    host._net = transport
    shown: list[tuple[str, str]] = []

    def open_(kind: str, html: str) -> None:
        shown.append((kind, html))
        app.overlay.kind = kind

    app.overlay.open = open_
    app.overlay.close = lambda: open_("", "")
    paste = Element(page, "codes-paste")
    paste.value = ""
    page.elements["codes-paste"] = paste
    return page, app, host, net, shown, paste


def offers(html: str) -> dict[int, str]:
    return {int(seat): link.replace("&amp;", "&") for seat, link in OFFER_LINK.findall(html)}


def answer_to(link: str) -> str:
    code = link.split("&offer=")[1].split("&")[0]
    ufrag = code[1:].split(".")[0]
    return answer_code(ufrag, CHROMIUM_ANSWER)


def test_the_failure_dialog_offers_codes_and_a_room_forms_by_them():
    page, app, host, net, shown, paste = codes_page()

    async def run() -> None:
        host.create()
        await asyncio.sleep(0.01)
        host.fail("friends_err_broker")
        html = shown[-1][1]
        assert 'data-testid="friends-error"' in html and 'data-testid="codes-open"' in html
        assert 'data-testid="friends-start"' not in html
        host.command("codes-open")
        await asyncio.sleep(0.01)
        html = shown[-1][1]
        links = offers(html)
        assert sorted(links) == [1, 2, 3] and net.made == ["code-0", "code-1", "code-2"]
        assert 'data-testid="friends-link"' not in html  # the broker's invite can't work
        assert 'data-testid="friends-start"' in html and "codes__keep" in html
        for seat, link in links.items():
            assert link.startswith(host.link + "&offer=") and link.endswith(f"&seat={seat}")
            assert read_offer_hash("#" + link.split("#")[1])[1] == seat
            assert read_hash("#" + link.split("#")[1]) == ("guest", host.room_id, host.secret)

        # typing (even a code cut short): nothing yet; asked to connect, or a text pasted
        # whole: why, and the text kept
        for typed in ("hel", "SXMJ1.uf00.ab", links[1]):
            paste.value = typed
            host.command("paste", "insertText")
            assert "codes-error" not in shown[-1][1]
        paste.value = "SXMJ1.uf00.ab"
        host.command("paste", "insertFromPaste")
        assert 'data-testid="codes-error"' in shown[-1][1]
        paste.value = "房主，这是我的码：" + links[1]
        host.command("codes-connect")
        assert 'data-testid="codes-error"' in shown[-1][1]
        assert "SXMJ1." in shown[-1][1] and "这是我的码" in shown[-1][1]  # kept to mend
        assert net.accepted == []

        # a friend's whole message with seat 2's answer: taken at once
        paste.value = f"好了 {answer_to(links[2])} 等你"
        host.command("paste")
        await asyncio.sleep(0.01)
        assert [js for js, _ in net.accepted] == ["code-1"]
        assert "a=setup:active" in net.accepted[0][1]
        html = shown[-1][1]
        assert sorted(offers(html)) == [1, 3]  # seat 2 waits for its friend: no new code
        assert 'data-testid="codes-note"' in html and "codes-error" not in html

        assert paste.value == ""  # taken: the field is free for the next answer
        # the same answer again: that code is spent
        paste.value = answer_to(links[2])
        host.command("paste", "insertFromPaste")
        assert 'data-testid="codes-error"' in shown[-1][1] and len(net.accepted) == 1

        # the friend arrives on that connection and sits at seat 3: seat 3's code goes,
        # seat 2 is free again and gets a new one
        room = host.room
        for text in (protocol.message("hello", secret=host.secret, name="Mei", token=None),
                     protocol.message("sit", seat=3, name="Mei")):
            host.host_message("code-1", text)
        await asyncio.sleep(0.01)
        assert room.seats[3].kind == "guest" and "code-2" in net.cancelled
        assert sorted(offers(shown[-1][1])) == [1, 2]
        assert net.made[-1] == "code-3"

    asyncio.run(run())


def test_after_the_start_a_code_brings_a_dropped_friend_back_to_their_seat():
    page, app, host, net, shown, paste = codes_page()

    async def run() -> None:
        host.create()
        await asyncio.sleep(0.01)
        host.command("codes-open")
        await asyncio.sleep(0.01)
        room = host.room
        for text in (protocol.message("hello", secret=host.secret, name="Mei", token=None),
                     protocol.message("sit", seat=2, name="Mei")):
            host.host_message("code-1", text)
        host.start()
        assert room.started and 'data-testid="codes-open"' not in host.controls("zh")
        host.host_closed("code-1")  # Mei's connection drops
        await asyncio.sleep(0.01)
        assert 'data-testid="codes-open"' in host.controls("zh")
        host.command("codes-open")
        await asyncio.sleep(0.01)
        kind, html = shown[-1]
        assert kind == "codes" and 'data-testid="codes-dialog"' in html
        links = offers(html)
        assert list(links) == [2]  # the dropped seat only
        assert read_token("#" + links[2].split("#")[1]) == room.seats[2].token
        paste.value = answer_to(links[2])
        host.command("paste")
        await asyncio.sleep(0.01)
        js_id = net.accepted[-1][0]
        host.host_message(js_id, protocol.message("hello", secret=host.secret, name="Mei",
                                                  token=room.seats[2].token))
        assert room.seats[2].online and room.seats[2].peer == js_id
        assert 'data-testid="codes-open"' not in host.controls("zh")

    asyncio.run(run())


def test_a_friends_page_shows_its_answer_and_the_codes_seat_first():
    lobby = {"seats": [{"kind": "host", "name": "H", "online": True}] +
             [{"kind": "bot", "name": "", "online": False}] * 3, "started": False}
    assert "codes__making" in guest_lobby_html(None, None, "", "zh", answer="")
    html = guest_lobby_html(None, None, "", "en", answer="SXMJ1.abcd.xyz")
    assert 'data-testid="codes-answer"' in html and "SXMJ1.abcd.xyz" in html
    html = guest_lobby_html(lobby, None, "", "zh", suggested=3)
    assert re.findall(r'data-testid="friends-seat" data-ui="friends-seat" data-seat="(\d)"',
                      html) == ["3", "1", "2"]
    assert 'data-testid="codes-open"' in chat_html("zh", codes=True)
    assert 'data-testid="codes-open"' not in chat_html("zh", codes=True, ended=True)


def test_a_damaged_offer_link_is_named():
    good = "#room=ab12&key=cd34&offer=aX5oM.pw&seat=2&token=t0k"
    assert read_offer_hash(good) == ("aX5oM.pw", 2) and read_token(good) == "t0k"
    assert hash_refusals(good) == []
    for bad in ("#room=ab12&key=cd34&offer=a%20b&seat=2", "#room=ab12&key=cd34&offer=ab&seat=0"):
        assert read_offer_hash(bad) is None
        assert [r.param for r in hash_refusals(bad)] == ["#offer"]


@given(st.text(alphabet=string.printable, max_size=120))
def test_any_fragment_is_an_offer_or_none(tail: str):
    fragment = "#room=ab12&key=cd34&" + tail
    got = read_offer_hash(fragment)
    assert got is None or (re.fullmatch(r"[A-Za-z0-9._-]+", got[0]) and got[1] in (1, 2, 3))
    token = read_token(fragment)
    assert token == "" or token.isalnum()
    hash_refusals(fragment)  # never raises
