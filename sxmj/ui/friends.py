"""Play with friends in the page: the room's lobby, the transport, the host's and a guest's
side of the table (the rules of the room are :mod:`sxmj.room`).

「和朋友玩 / Play with friends」 (``[data-testid="friends-create"]``) makes this browser the
host: it opens a room (a 128-bit id and a 128-bit secret, both from the browser's
cryptographic source), shows the invite link ``…/index.html#room=<id>&key=<secret>``
(``[data-testid="friends-link"]``) with a copy button and a QR code made here, and starts
the match with ``[data-testid="friends-start"]``. A friend who opens the link types a name
(``[data-testid="friends-name"]``) and takes a free seat (``[data-testid="friends-seat"]``,
``data-seat`` the host's seat number). Seats nobody takes are bots of the level the host
chose. The host runs the match and referees; a guest's table is drawn from what the host
sends it, with the same buttons and keys.

The browsers talk over WebRTC data channels (``static/js/friends-net.js``, PeerJS, loaded
only here); ``?broker=`` and ``?ice=none`` choose the PeerServer and the ICE servers.
A guest's seat token lives in ``sessionStorage``: a reload takes the seat back. The host's
room and match live in ``localStorage["sxmj.room"]`` (never over the single-player save):
a reload of the host (its address is ``#host=<id>``) resumes the match under the same id,
and the guests reconnect by themselves.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from ..bots import Bot
from ..game import Action
from ..messages import CoreError, render
from ..record import dumps, replay
from ..room import protocol
from ..room.guest import GuestTable
from ..room.host import GRACE, TIMER_CHOICES, Room, deal
from .dom import is_none
from .i18n import seat_name, tr, wind_name
from .view import esc

ROOM_KEY = "sxmj.room"
TOKEN_KEY = "sxmj.seat."  # + the room id, in sessionStorage
HOST_GONE = 20  # seconds without the host before a guest is told it has left
NEXT_WAIT = 30  # seconds the host waits for everyone to be ready before dealing anyway
TICKS = 5  # the last seconds of a decision tick
LEVELS = ("easy", "normal", "hard", "expert")


def read_hash(fragment: str) -> tuple[str, str, str] | None:
    """``#room=ID&key=SECRET`` (a guest's link) or ``#host=ID`` (a host's reload) as
    ``(role, id, secret)``; None for anything else.

    >>> read_hash("#room=ab12&key=cd34"), read_hash("#host=ab12"), read_hash("#x")
    (('guest', 'ab12', 'cd34'), ('host', 'ab12', ''), None)
    """
    q = parse_qs(fragment.lstrip("#"))
    ok = lambda v: bool(v) and len(v) <= 64 and v.isascii() and v.isalnum()  # noqa: E731
    room, key, host = (q.get(k, [""])[0] for k in ("room", "key", "host"))
    if ok(room) and ok(key):
        return "guest", room, key
    if ok(host):
        return "host", host, ""
    return None


def invite_link(base: str, query: str, room_id: str, secret: str) -> str:
    """The link a friend opens: this page, the broker's parameters, the room and secret."""
    return f"{base}{query}#room={room_id}&key={secret}"


# ------------------------------------------------------------------ markup


def _seat_rows(lobby: dict[str, Any], lang: str, viewer: int = 0) -> str:
    rows = []
    for s, seat in enumerate(lobby["seats"]):
        state = {"host": "friends_seat_host", "bot": "friends_seat_free"}.get(
            seat["kind"], "friends_seat_guest" if seat["online"] else "friends_seat_away")
        name = seat["name"] if seat["kind"] != "bot" else ""
        rows.append(f'<li data-testid="friends-row" data-seat="{s}" data-kind="{seat["kind"]}"'
                    f' data-online="{int(seat["online"])}">'
                    f'<b>{esc(wind_name(s, 0, lang))}</b> <span>{esc(name)}</span> '
                    f'<i>{esc(tr(lang, state))}</i></li>')
    return f'<ul class="friends__seats">{"".join(rows)}</ul>'


def host_lobby_html(room: Room, link: str, qr_svg: str, lang: str) -> str:
    """The host's room: the invite (link, copy, QR), who is here, the bots, the timer."""
    levels = "".join(f'<option value="{lv}"{" selected" if lv == room.level else ""}>'
                     f'{esc(tr(lang, "level_" + lv))}</option>' for lv in LEVELS)
    timers = "".join(f'<option value="{t}"{" selected" if t == room.timer else ""}>{t}</option>'
                     for t in TIMER_CHOICES)
    return (
        f'<section class="friends" data-testid="friends-lobby" data-role="host">'
        f'<h2>{esc(tr(lang, "friends_title"))}</h2>'
        f'<p>{esc(tr(lang, "friends_invite"))}</p>'
        f'<p class="friends__link"><input type="text" readonly data-testid="friends-link" '
        f'id="friends-link" value="{esc(link)}" aria-label="{esc(tr(lang, "friends_invite"))}">'
        f'<button type="button" class="act act--small" data-ui="friends-copy">'
        f'{esc(tr(lang, "friends_copy"))}</button></p>'
        f'<figure class="friends__qr" data-testid="friends-qr">{qr_svg}'
        f'<figcaption>{esc(tr(lang, "friends_qr"))}</figcaption></figure>'
        f'{_seat_rows(room.lobby(), lang)}'
        f'<p class="friends__opts"><label>{esc(tr(lang, "friends_level"))} '
        f'<select id="friends-level" data-ui-change="friends-level">{levels}</select></label> '
        f'<label>{esc(tr(lang, "friends_timer"))} '
        f'<select id="friends-timer">{timers}</select></label></p>'
        f'<p class="friends__buttons"><button type="button" class="act" '
        f'data-testid="friends-start" data-ui="friends-start" autofocus>'
        f'{esc(tr(lang, "friends_start"))}</button> '
        f'<button type="button" class="act act--quiet" data-ui="friends-cancel">'
        f'{esc(tr(lang, "friends_cancel"))}</button></p></section>')


def guest_lobby_html(lobby: dict[str, Any] | None, seat: int | None, status: str,
                     lang: str) -> str:
    """A guest's view of the room before the match: a name and the free seats, or why it
    waits (connecting, seated, the room is full, the link is wrong, the host left)."""
    head = f'<h2>{esc(tr(lang, "friends_title"))}</h2>'
    if status:
        body = f'<p data-testid="friends-status">{esc(tr(lang, status))}</p>'
        if status == "friends_host_gone":
            body += (f'<p><button type="button" class="act" data-ui="friends-export">'
                     f'{esc(tr(lang, "friends_export"))}</button></p>')
    elif lobby is None:
        body = f'<p data-testid="friends-status">{esc(tr(lang, "friends_connecting"))}</p>'
    elif seat is not None:
        body = (_seat_rows(lobby, lang) +
                f'<p data-testid="friends-status">{esc(tr(lang, "friends_waiting"))}</p>')
    else:
        free = [s for s, st in enumerate(lobby["seats"]) if st["kind"] == "bot"]
        if lobby["started"] or not free:
            body = f'<p data-testid="friends-status">{esc(tr(lang, "friends_full"))}</p>'
        else:
            buttons = "".join(
                f'<button type="button" class="act" data-testid="friends-seat" '
                f'data-ui="friends-seat" data-seat="{s}">'
                f'{esc(tr(lang, "friends_sit", wind=wind_name(s, 0, lang)))}</button> '
                for s in free)
            body = (_seat_rows(lobby, lang) +
                    f'<p><label>{esc(tr(lang, "friends_name"))} <input type="text" '
                    f'id="friends-name" data-testid="friends-name" '
                    f'maxlength="{protocol.NAME_CHARS}" autocomplete="nickname"></label></p>'
                    f'<p>{esc(tr(lang, "friends_pick"))}</p>'
                    f'<p class="friends__buttons">{buttons}</p>')
    return (f'<section class="friends" data-testid="friends-lobby" data-role="guest">'
            f'{head}{body}</section>')


def chat_html(lang: str) -> str:
    """Quick phrases and emoji behind one button (the room's chat: nothing typed travels)."""
    phrases = "".join(f'<button type="button" class="chip" data-ui="friends-say" '
                      f'data-phrase="{p}">{esc(tr(lang, "phrase_" + p))}</button>'
                      for p in protocol.PHRASES)
    emoji = "".join(f'<button type="button" class="chip chip--emoji" data-ui="friends-say" '
                    f'data-phrase="{e}" aria-label="{e}">{e}</button>' for e in protocol.EMOJI)
    return (f'<p class="turn-timer" id="turn-timer" data-testid="turn-timer" hidden '
            f'aria-label="{esc(tr(lang, "friends_timer_label"))}"></p>'
            f'<details class="chat__box" data-testid="friends-chat"><summary class="chip">'
            f'{esc(tr(lang, "friends_say"))}</summary>'
            f'<div class="friends-chat" role="group" aria-label="{esc(tr(lang, "friends_say"))}">'
            f'{phrases}{emoji}</div></details>')


def phrase_text(phrase: str, lang: str) -> str:
    """What a phrase says (only the room's own phrases and emoji are ever shown)."""
    if phrase in protocol.PHRASES:
        return tr(lang, "phrase_" + phrase)
    return phrase if phrase in protocol.EMOJI else ""


# ------------------------------------------------------------------ the controller


class Friends:
    """The room of this page, as host or guest (``role``), or none. ``app`` is the table
    (:class:`sxmj.ui.app.App`): the room reads its match and calls its apply and render."""

    def __init__(self, app: Any):
        self.app = app
        self.role = ""
        self.room: Room | None = None
        self.guest: GuestTable | None = None
        self.net: Any = None
        self.room_id = ""
        self.secret = ""
        self.link = ""
        self.qr = ""
        self.lobby: dict[str, Any] | None = None
        self.seat: int | None = None
        self.status = ""
        self.away: set[int] = set()  # dropped guests' seats still in their grace period
        self.ready: set[int] = set()
        self.proxies: list = []
        self.loaded = False  # friends-net.js is in the page
        self.gen = 0  # counts the transport's status changes (a newer one cancels a wait)
        self.tick_gen = 0  # counts the turn timers shown (a newer one stops the last)
        self.log: list[str] = []  # messages dropped (malformed, oversized, unknown)

    @property
    def lang(self) -> str:
        return str(self.app.params.lang)

    # ------------------------------------------------------------ transport

    async def _net(self) -> Any:
        window = self.app.window
        if not self.loaded:
            from pyscript.ffi import create_proxy  # only exists in the browser
            loaded = asyncio.get_event_loop().create_future()
            script = self.app.document.createElement("script")
            script.src = "./static/js/friends-net.js"

            def arrived(*_: Any) -> None:
                if not loaded.done():
                    loaded.set_result(True)

            done = create_proxy(arrived)
            script.onload = done
            self.proxies.append(done)
            self.app.document.head.appendChild(script)
            await loaded
            self.loaded = True
        return window.sxmjNet

    def _opts(self, **callbacks: Callable) -> Any:
        from js import Object
        from pyscript.ffi import create_proxy, to_js
        opts: dict[str, Any] = {"broker": self.app.params.broker, "ice": self.app.params.ice}
        for name, fn in callbacks.items():
            proxy = create_proxy(fn)
            self.proxies.append(proxy)
            opts[name] = proxy
        return to_js(opts, dict_converter=Object.fromEntries)

    def _send(self, peer: str, text: str) -> None:
        if self.net is not None:
            self.net.send(peer, text)

    def _deliver(self, out: list[tuple[str, str]]) -> None:
        for peer, text in out:
            self._send(peer, text)

    def _drop(self, text: str, error: CoreError) -> None:
        """A message not acted on: logged (never executed)."""
        self.log.append(f"{error.code}: {str(text)[:80]}")
        self.app.window.console.warn(f"sxmj friends: dropped a message ({error.code})")

    # ------------------------------------------------------------ host

    def create(self) -> None:
        """「和朋友玩」: open a room with this browser as host."""
        if self.role:
            self.show_lobby()
            return
        level = self.app.settings.bots[0]
        self.role = "host"
        self.room_id, self.secret = secrets.token_hex(16), secrets.token_hex(16)
        self.room = Room(self.room_id, self.secret, tr(self.lang, "friends_host_name"),
                         level if level in LEVELS else "normal",
                         tokens=lambda: secrets.token_hex(16))
        self.app.driver.humans = self.humans
        self._hash(f"#host={self.room_id}")
        asyncio.ensure_future(self._host())

    def resume_host(self, room_id: str) -> bool:
        """A reload of the host: the stored room and its match, under the same id."""
        stored = self.app.persistence.load(ROOM_KEY)
        try:
            data = json.loads(stored or "")
            if data["id"] != room_id:
                return False
            room = Room(data["id"], data["secret"], tr(self.lang, "friends_host_name"),
                        data["level"], data["timer"], tokens=lambda: secrets.token_hex(16))
            for s, seat in enumerate(data["seats"]):
                room.seats[s].kind, room.seats[s].name = seat["kind"], seat["name"]
                room.seats[s].token = seat["token"]
                room.seats[s].online = s == 0
            room.started = bool(data["started"])
            match = replay(data["match"]) if data.get("match") else None
        except (ValueError, KeyError, TypeError, CoreError):
            return False
        self.role, self.room, self.room_id, self.secret = "host", room, room.room_id, room.secret
        self.app.driver.humans = self.humans
        if match is not None:
            self.app.match = match
            self.app.driver.seat_bots((room.level,) * 3, 0)
        asyncio.ensure_future(self._host(reopen=False))
        return True

    async def _host(self, reopen: bool = True) -> None:
        self.net = await self._net()
        base = str(self.app.window.location.href).split("?")[0].split("#")[0]
        query = "?" + "&".join(f"{k}={v}" for k, v in self.app.params.network()) \
            if self.app.params.network() else ""
        self.link = invite_link(base, query, self.room_id, self.secret)
        try:
            self.qr = str(await self.net.qrSvg(self.link))
        except Exception:  # noqa: BLE001 - the link alone still invites
            self.qr = ""
        self.net.host(self.room_id, self._opts(
            onMessage=self.host_message, onClose=self.host_closed,
            onError=self.net_error, onOpen=lambda *_: None, onPeer=lambda *_: None,
            onStatus=lambda *_: None))
        self.save()
        if reopen:
            self.show_lobby()
        self.app.render()

    def show_lobby(self) -> None:
        if self.role == "host" and self.room is not None and not self.room.started:
            self.app.overlay.open("friends", host_lobby_html(self.room, self.link, self.qr,
                                                             self.lang))
        elif self.role == "guest" and (self.guest is None or self.guest.state is None):
            self.app.overlay.open("friends", guest_lobby_html(self.lobby, self.seat,
                                                              self.status, self.lang))

    def host_message(self, peer: Any, text: Any) -> None:
        room = self.room
        if room is None:
            return
        peer = str(peer)
        try:
            msg = protocol.parse(str(text))
        except protocol.ProtocolError as e:
            self._drop(text, e)
            return
        kind = msg["t"]
        if kind == "hello":
            self._deliver(room.hello(peer, msg))
            s = room.seat_of(peer)
            if s is not None:
                self.away.discard(s)
                if room.started:
                    self._send(peer, room.state(s, self.app.match, [], full=True))
                self.app.notes.log.append(tr(self.lang, "friends_back", name=room.seats[s].name))
        elif kind == "sit":
            self._deliver(room.sit(peer, msg))
        elif kind == "act":
            got = room.check(peer, msg, self.app.match)
            if isinstance(got, Action):
                self.app.apply(got)
                self.app.render()
                self.app.kick()
            else:
                self._send(peer, protocol.message("refused", code=got.code,
                                                  action=msg["action"][:40]))
        elif kind == "ready":
            s = room.seat_of(peer)
            if s is not None and msg["hand"] == self.app.match.hand_no:
                self.ready.add(s)
                self.maybe_deal()
        elif kind == "say":
            s = room.seat_of(peer)
            if s is not None and phrase_text(msg["phrase"], "en"):
                self.said(s, msg["phrase"])
        elif kind == "ping":
            self._send(peer, protocol.message("pong"))
        self.refresh_lobby()
        self.save()

    def refresh_lobby(self) -> None:
        if self.app.overlay.kind == "friends":
            self.show_lobby()

    def host_closed(self, peer: Any) -> None:
        room = self.room
        if room is None:
            return
        s = room.seat_of(str(peer))
        self._deliver(room.drop(str(peer)))
        if s is not None:
            self.away.add(s)
            self.app.notes.log.append(tr(self.lang, "friends_reconnecting",
                                         name=room.seats[s].name))
            asyncio.ensure_future(self._grace(s))
        self.refresh_lobby()
        self.app.render()

    async def _grace(self, seat: int) -> None:
        await asyncio.sleep(GRACE)
        if seat in self.away and self.room is not None and not self.room.seats[seat].online:
            self.away.discard(seat)
            self.app.kick()  # the bot covers the seat from now on

    def humans(self) -> set[int]:
        """Seats the bots' loop must not play: the host's, connected guests', and dropped
        guests' for a grace period."""
        if self.room is None or not self.room.started:
            return {0}
        return self.room.humans() | self.away

    def people(self) -> frozenset[int]:
        """Seats of people, as this table numbers them (a guest's others all decide at
        tables of their own or are played by the host)."""
        if self.role == "guest":
            return frozenset(range(4))
        return frozenset(self.humans())

    def start(self) -> None:
        """friends-start: the match begins, dealt from fresh randomness."""
        room = self.room
        if room is None or room.started:
            return
        level = self._select("friends-level", LEVELS, room.level)
        room.level = level
        room.timer = int(self._select("friends-timer", tuple(map(str, TIMER_CHOICES)),
                                      str(room.timer)))
        room.started = True
        app = self.app
        app.match = deal(lambda: secrets.randbits(64), app.params.rules(app.settings.rules))
        app.driver.seat_bots((level,) * 3, 0)
        app.new_hand_state()
        app.overlay.close()
        self.broadcast(app.match.game.deal_events, full=True)
        self._deliver(room._lobby_to_all(room.peers()))
        self.save()
        app.render()
        app.kick()

    def _select(self, rid: str, allowed: tuple[str, ...], fallback: str) -> str:
        element = self.app.document.getElementById(rid)
        value = "" if is_none(element) else str(element.value)
        return value if value in allowed else fallback

    def broadcast(self, events: list[dict[str, Any]], full: bool = False) -> None:
        """Every connected guest's state after a change (host side)."""
        room = self.room
        if room is None or not room.started:
            return
        for s in room.guests():
            peer = room.seats[s].peer
            if peer is not None:
                self._send(peer, room.state(s, self.app.match, events, full))
        self.arm()

    def arm(self) -> None:
        """The turn timer: a connected guest who must decide has ``timer`` seconds."""
        room = self.room
        match = self.app.match
        if room is None:
            return
        key = (match.hand_no, len(match.game.actions))
        waiting = [s for s in match.game.to_move() if s in room.guests() or s == 0]
        if waiting:
            asyncio.ensure_future(self._timeout(key, waiting, room.timer))
        if 0 in waiting:
            self.countdown(key, room.timer)
        elif match.game.over:
            asyncio.ensure_future(self._timeout(key, [], NEXT_WAIT))

    async def _timeout(self, key: tuple[int, int], seats: list[int], seconds: int) -> None:
        await asyncio.sleep(seconds)
        match = self.app.match
        if (match.hand_no, len(match.game.actions)) != key or self.room is None:
            return
        if match.game.over:
            self.maybe_deal(force=True)
            return
        for seat in seats:
            if seat in match.game.to_move():
                game = match.game
                action = (self.app.driver.choose(game, seat) if seat else  # the host's own
                          Bot(self.room.level).choose(game.observation(0),
                                                      game.legal_actions(0)).action)
                name = self.room.seats[seat].name
                self.app.notes.log.append(tr(self.lang, "friends_timeout", name=name))
                for s in self.room.guests():
                    self._send(self.room.seats[s].peer or "", protocol.message(
                        "notice", kind="timeout", seat=protocol.turned(seat, s)))
                self.app.apply(action)
                self.app.render()
                self.app.kick()
                return

    def countdown(self, key: tuple[int, int], seconds: int) -> None:
        """The seconds this table has left for its decision, shown, and ticking at the end
        (and a system notification, if asked for, when the page is hidden)."""
        self.app.speaker.notify(tr(self.lang, "turn_title"))
        self.tick_gen += 1
        asyncio.ensure_future(self._countdown(self.tick_gen, key, seconds))

    async def _countdown(self, gen: int, key: tuple[int, int], seconds: int) -> None:
        element = self.app.document.getElementById("turn-timer")
        for left in range(seconds, 0, -1):
            match = self.app.match
            if gen != self.tick_gen or (match.hand_no, len(match.game.actions)) != key \
                    or not match.game.legal_actions(0):
                break
            if not is_none(element):
                element.textContent = tr(self.lang, "friends_timer_left", n=left)
                element.hidden = False
                element.dataset.left = str(left)
            if left <= TICKS:
                self.app.speaker.tick()
            await asyncio.sleep(1)
            element = self.app.document.getElementById("turn-timer")  # redrawn meanwhile
        if gen == self.tick_gen and not is_none(element):
            element.hidden = True

    def next_hand(self) -> bool:
        """The host pressed 下一局: deal once every connected guest is ready too."""
        if self.role != "host":
            return False
        self.ready.add(0)
        self.maybe_deal()
        return True

    def maybe_deal(self, force: bool = False) -> None:
        room, app = self.room, self.app
        if room is None or not app.match.game.over or app.match.finished:
            return
        if not force and not set(room.guests()) | {0} <= self.ready:
            app.notes.log.append(tr(self.lang, "friends_ready_wait"))
            app.render()
            return
        self.ready = set()
        deal(lambda: secrets.randbits(64), app.match.options, app.match)
        app.new_hand_state()
        self.broadcast(app.match.game.deal_events)
        self.save()
        app.render()
        app.kick()

    def said(self, seat: int, phrase: str) -> None:
        """A quick phrase from ``seat`` (host-numbered): a bubble at every table."""
        room = self.room
        if room is None:
            return
        self.app.notes.say(seat, phrase_text(phrase, self.lang))
        for s in room.guests():
            self._send(room.seats[s].peer or "", protocol.message(
                "said", seat=protocol.turned(seat, s), phrase=phrase))
        self.app.render()

    def save(self) -> None:
        """The host's room and match, for a reload (``#host=<id>``)."""
        room = self.room
        if self.role != "host" or room is None:
            return
        data = {"id": room.room_id, "secret": room.secret, "level": room.level,
                "timer": room.timer, "started": room.started,
                "seats": [{"kind": s.kind, "name": s.name, "token": s.token} for s in room.seats],
                "match": dumps(self.app.match) if room.started else ""}
        self.app.persistence.store(ROOM_KEY, json.dumps(data))

    # ------------------------------------------------------------ guest

    def join(self, room_id: str, secret: str) -> None:
        """Opened from an invite link: connect to the host and show the room."""
        self.role, self.room_id, self.secret = "guest", room_id, secret
        self.guest = GuestTable()
        self.app.document.body.dataset.sxmjRoom = "lobby"  # no table until the host deals
        self.show_lobby()
        asyncio.ensure_future(self._join())

    async def _join(self) -> None:
        self.net = await self._net()
        self.net.join(self.room_id, self._opts(
            onMessage=self.guest_message, onStatus=self.guest_status, onError=self.net_error,
            onOpen=lambda *_: None, onPeer=lambda *_: None, onClose=lambda *_: None))

    def _token(self) -> str | None:
        try:
            token = self.app.window.sessionStorage.getItem(TOKEN_KEY + self.room_id)
        except Exception:  # noqa: BLE001 - a page without storage joins as a visitor
            return None
        return token if isinstance(token, str) else None  # null: no seat yet

    def guest_status(self, state: Any) -> None:
        state = str(state)
        self.gen += 1
        if state == "open":
            name = self.seat_name_typed()
            self._send(self.room_id, protocol.message("hello", secret=self.secret, name=name,
                                                      token=self._token()))
        elif state == "closed":
            self.host_gone()
        else:  # connecting again: after a while without the host, say it has left
            asyncio.ensure_future(self._host_gone_after(self.gen))
        self.app.document.body.dataset.sxmjFriends = state

    async def _host_gone_after(self, gen: int) -> None:
        await asyncio.sleep(HOST_GONE)
        if gen == self.gen:  # still not back (the transport keeps trying meanwhile)
            self.host_gone()

    def host_gone(self) -> None:
        """The host left: a clear notice, and the record so far to export."""
        self.status = "friends_host_gone"
        self.app.overlay.open("friends", guest_lobby_html(self.lobby, self.seat, self.status,
                                                          self.lang))

    def seat_name_typed(self) -> str:
        box = self.app.document.getElementById("friends-name")
        return "" if is_none(box) else str(box.value)[:protocol.NAME_CHARS]

    def sit(self, seat: int) -> None:
        """A guest takes a free seat."""
        name = protocol.clean_name(self.seat_name_typed(), seat_name(seat, self.lang))
        self._send(self.room_id, protocol.message("sit", seat=seat, name=name))

    def guest_message(self, peer: Any, text: Any) -> None:
        try:
            msg = protocol.parse(str(text), "host")
            self._guest_message(msg)
        except CoreError as e:  # a ProtocolError, or a state that doesn't hold together
            self._drop(text, e)

    def _guest_message(self, msg: dict[str, Any]) -> None:
        app, kind, guest = self.app, msg["t"], self.guest
        assert guest is not None
        if kind == "lobby":
            self.lobby = msg["room"]
            self.show_lobby()
        elif kind == "seated":
            self.seat = msg["seat"]
            try:
                app.window.sessionStorage.setItem(TOKEN_KEY + self.room_id, msg["token"])
            except Exception:  # noqa: BLE001 - without storage a reload sits anew
                pass
            self.show_lobby()
        elif kind == "state":
            fresh = guest.state is None
            before = guest.over
            guest.update(msg["state"])
            app.match = guest.match
            if fresh or self.status:  # the first deal, or the host is back
                self.status = ""
                app.document.body.removeAttribute("data-sxmj-room")
                app.overlay.close()
                app.new_hand_state()
            events = guest.events
            if any(e.get("type") == "deal" for e in events) and not fresh:
                app.new_hand_state()
            else:
                app.notes.note(events)
                app.speaker.hear(events, app.match.game)
            if guest.over and not before:
                app.ending.start()
                asyncio.ensure_future(app.ending.wait(app.params.speed))
            app.decision.reset()
            app.render()
            if guest.live is not None and guest.live.game.legal and not guest.over:
                self.countdown(guest.step(), int(msg["state"].get("timer", 20)))
        elif kind == "refused":
            app.screen.show_why(tr(self.lang, "friends_refused",
                                   why=refusal_text(msg["code"], msg["action"], self.lang)))
        elif kind == "said":
            app.notes.say(msg["seat"] % 4, phrase_text(msg["phrase"], self.lang))
            app.render()
        elif kind == "notice":
            names = self.names()
            key = {"timeout": "friends_timeout", "reconnecting": "friends_reconnecting",
                   "back": "friends_back"}.get(msg["kind"])
            if key:
                text = tr(self.lang, key, name=names[msg["seat"] % 4] or
                          seat_name(msg["seat"] % 4, self.lang))
                app.notes.log.append(text)
                app.screen.show_why(text)
                app.render()
        elif kind == "closed":
            self.status = "friends_wrong" if msg["reason"] == "secret" else "friends_host_gone"
            app.overlay.open("friends", guest_lobby_html(self.lobby, self.seat, self.status,
                                                         self.lang))

    def send_action(self, action: Action) -> None:
        """A guest's move goes to the host (the host's answer redraws the table)."""
        guest = self.guest
        if guest is None or guest.state is None:
            return
        hand, step = guest.step()
        self._send(self.room_id, protocol.message("act", hand=hand, step=step,
                                                  action=str(action)))
        live = guest.live
        if live is not None:
            live.game.legal = []  # one move per decision: the host's answer brings the next

    def send_ready(self) -> None:
        guest = self.guest
        if guest is not None and guest.state is not None:
            self._send(self.room_id, protocol.message("ready", hand=guest.state["hand"]))
            self.app.notes.log.append(tr(self.lang, "friends_ready_wait"))
            self.app.render()

    def say(self, phrase: str) -> None:
        """A quick phrase or emoji from this table."""
        if not phrase_text(phrase, "en"):
            return
        box = self.app.document.querySelector("#chat details")
        if not is_none(box):
            box.open = False  # said: the phrases fold away
        if self.role == "host":
            self.said(0, phrase)
        elif self.role == "guest":
            self._send(self.room_id, protocol.message("say", phrase=phrase))

    # ------------------------------------------------------------ both

    def names(self) -> tuple[str, ...]:
        """The players' names by seat of this table (empty outside a room)."""
        if self.role == "host" and self.room is not None and self.room.started:
            seats = [s.public() for s in self.room.seats]
            return tuple(self._plate(seat, mine=s == 0) for s, seat in enumerate(seats))
        if self.role == "guest" and self.guest is not None and self.guest.state is not None:
            me = self.guest.seat
            seats = (self.guest.state["names"] if self.lobby is None else
                     [self.lobby["seats"][(i + me) % 4] for i in range(4)])
            return tuple(self._plate(seat, mine=i == 0) for i, seat in enumerate(seats))
        return ()

    def _plate(self, seat: dict[str, Any], mine: bool) -> str:
        """A plate's name: a person's (and whether they are reconnecting); "" keeps the
        seat's own name (yours, or a bot's)."""
        if mine or seat["kind"] == "bot":
            return ""
        if seat["kind"] == "guest" and not seat["online"]:
            return f'{seat["name"]} · {tr(self.lang, "friends_seat_away")}'
        return str(seat["name"])

    def record_text(self) -> str | None:
        """The match's record to export: a guest's is the host's record of finished hands."""
        if self.role == "guest" and self.guest is not None and self.guest.record is not None:
            return json.dumps(self.guest.record, ensure_ascii=False, separators=(",", ":"))
        return None

    def net_error(self, kind: Any, detail: Any = "") -> None:
        kind = str(kind)
        if kind in ("broker", "network", "server-error", "socket-error", "unavailable-id"):
            self.app.screen.show_why(tr(self.lang, "friends_no_broker", detail=kind))
        self.app.window.console.warn(f"sxmj friends: {kind} {detail}")

    def close(self) -> None:
        """Close the room (the host's 关闭房间 before the match starts)."""
        if self.net is not None:
            self.net.close()
        self.role, self.room, self.net = "", None, None
        self.app.persistence.remove(ROOM_KEY)
        self.app.driver.humans = lambda: {0}
        self._hash("")
        self.app.overlay.close()

    def copy(self) -> None:
        try:
            self.app.window.navigator.clipboard.writeText(self.link)
            self.app.screen.show_why(tr(self.lang, "friends_copied"))
        except Exception:  # noqa: BLE001 - the link stays selectable in its box
            pass

    def _hash(self, fragment: str) -> None:
        w = self.app.window
        try:
            w.history.replaceState(None, "", str(w.location.pathname) + str(w.location.search)
                                   + fragment)
        except Exception:  # noqa: BLE001 - a sandboxed page may refuse; the room goes on
            pass


def refusal_text(code: str, action: str, lang: str) -> str:
    """Why the host refused a move, in this table's language (the code is the host's; an
    unknown one is shown as it is)."""
    try:
        return render(code, {"text": action, "hand": "…", "step": "…", "kind": "",
                             "tile": ""}, lang)
    except (KeyError, IndexError, ValueError):
        return code[:40]
