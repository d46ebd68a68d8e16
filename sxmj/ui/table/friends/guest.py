"""A guest's session of a friends room: it joins by the invite, takes a seat, draws the
table from what the host sends (:class:`sxmj.room.guest.GuestTable`) and sends its moves; a
reload takes the seat back (its token in ``sessionStorage``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qsl, urlencode

from sxmj.game import Action
from sxmj.messages import CoreError
from sxmj.room import protocol
from sxmj.room.codes import answer_code, read_offer
from sxmj.room.guest import Arrival, GuestTable
from sxmj.room.host import number_room_id
from sxmj.ui.i18n import seat_name, tr
from sxmj.ui.table.dom import is_none
from sxmj.ui.table.friends.lobby import (
    guest_lobby_html,
    invite_link,
    phrase_text,
    refusal_text,
)
from sxmj.ui.table.friends.room_session import TOKEN_KEY, RoomBase, RoomTable

HOST_GONE = 20  # seconds without the host before a guest is told it has left


class GuestSession(RoomBase):
    """This browser is a guest of a friends room (a :class:`sxmj.ui.table.session.Session`):
    its moves go to the host, which plays every seat's bot and sends the table back."""

    kind = "guest"
    drives_bots = False  # the host's page moves every bot
    counts_hands = False  # the host's record is the match's
    reviews = False  # a guest holds no record of its own to review

    def __init__(self, app: RoomTable):
        super().__init__(app)
        self.guest: GuestTable | None = None  # the table as the host sends it, and the lobby
        self.seat: int | None = None  # the seat taken (None: still choosing)
        self.status = ""  # why the lobby shows again: the host left, or closed this link
        self.number = ""  # the 房号 this friend typed ("": it came by the invite link)
        # a connection code opened (the route with no broker): the answer to send back (""
        # while it is made; None: this friend came another way) and the seat it was for
        self.code_answer: str | None = None
        self.suggested = 0

    # ------------------------------------------------------------ the session

    def act(self, action: Action) -> None:
        if action not in self.app.match.game.legal_actions(0):
            return  # nothing to send: the host would refuse it
        self.send_action(action)  # the host plays it and sends the table back
        self.app.render()

    def next_hand(self) -> None:
        self.send_ready()

    def persist(self) -> None:  # the host keeps the room's match
        pass

    def applied(self, events: list[dict[str, Any]]) -> None:  # nothing is applied here
        pass

    def people(self) -> frozenset[int]:
        """Every seat: a guest's others all decide at tables of their own or are played by
        the host."""
        return frozenset(range(4))

    def show_lobby(self) -> None:
        if self.guest is None or self.guest.state is None:  # no table until the deal
            self.app.overlay.open("friends", guest_lobby_html(
                self.guest_lobby(), self.seat, self.status, self.lang, self.failure,
                bool(self.number), self.code_answer if not self.reached else None,
                self.suggested))

    def seats(self) -> list[dict[str, Any]]:
        """The seats as this table numbers them (its own is 0): the lobby's, turned, or the
        last state's names; empty until the match's first state."""
        guest = self.guest
        if guest is None or guest.state is None:
            return []
        me = guest.seat
        return (guest.state["names"] if guest.lobby is None else
                [guest.lobby["seats"][(i + me) % 4] for i in range(4)])

    def names(self) -> tuple[str, ...]:
        return tuple(self._plate(seat, mine=i == 0) for i, seat in enumerate(self.seats()))

    def people_names(self) -> tuple[str, ...]:
        return tuple("" if i == 0 or seat["kind"] == "bot" else str(seat["name"])
                     for i, seat in enumerate(self.seats()))

    def record_text(self) -> str | None:
        """The host's record of the finished hands (the one any player exports)."""
        if self.guest is None or self.guest.record is None:
            return None
        return json.dumps(self.guest.record, ensure_ascii=False, separators=(",", ":"))

    def guest_lobby(self) -> dict[str, Any] | None:
        """The room as the host last showed it (None before it has)."""
        return None if self.guest is None else self.guest.lobby

    def side_command(self, name: str, value: str) -> None:
        if name == "seat" and value in ("1", "2", "3"):
            self.sit(int(value))
        elif name == "retry":
            self.retry()
        elif name == "codes-answer-copy" and self.code_answer:
            self.copy_text(self.code_answer, "codes-answer")

    def say(self, phrase: str) -> None:
        self._send(self.room_id, protocol.message("say", phrase=phrase))

    def ended(self) -> str:
        return "" if self.guest is None else self.guest.ended

    def level(self) -> str:
        lobby = self.guest_lobby()
        return str(lobby.get("level", "normal")) if lobby else "normal"

    def tell_away(self, on: bool) -> None:
        self._send(self.room_id, protocol.message("away", on=on))

    def answer(self, yes: bool) -> None:
        self._send(self.room_id, protocol.message("dissolve", vote="yes" if yes else "no"))

    # ------------------------------------------------------------ the room

    def join(self, room_id: str, secret: str, ice: str = "") -> None:
        """Opened from an invite link: connect to the host and show the room (through the
        ICE servers of the invite's fragment, ``ice``, when it carries a list)."""
        self.room_id, self.secret, self.custom = room_id, secret, ice
        self.guest = GuestTable()
        self.app.document.body.dataset.sxmjRoom = "lobby"  # no table until the host deals
        self.show_lobby()
        asyncio.ensure_future(self._join())

    async def _join(self) -> None:
        self.net = await self._net()
        self.net.join(self.room_id, self._opts(
            onMessage=self.guest_message, onStatus=self.guest_status, onError=self.net_error,
            onOpen=lambda *_: None, onPeer=lambda *_: None, onClose=lambda *_: None))
        self.watch("friends_err_host")

    def join_code(self, room_id: str, secret: str, offer: str, seat: int,
                  ice: str = "", token: str = "") -> None:
        """Opened from a connection code (the host's offer for ``seat``): this page answers
        it, shows the answer to send back, and joins once the host has pasted it; no broker
        is ever asked. The address keeps the invite without the code (a code is spent once
        answered: a reload joins by the broker, or needs a new code). ``token``: the seat
        token of a friend the host brings back to their seat."""
        self.room_id, self.secret, self.custom = room_id, secret, ice
        if token:
            try:
                self.app.window.sessionStorage.setItem(TOKEN_KEY + room_id, token)
            except Exception:  # noqa: BLE001 - without storage they join as a visitor
                pass
        self.code_answer, self.suggested = "", seat
        self.guest = GuestTable()
        self.app.document.body.dataset.sxmjRoom = "lobby"
        self._hash(invite_link("", "", room_id, secret, ice))
        try:
            offer_id, sdp = read_offer(offer)
        except CoreError as e:
            self.app.window.console.warn(f"sxmj friends: {e}")
            self.code_answer = None
            self.fail("friends_err_code")
            return
        self.show_lobby()
        asyncio.ensure_future(self._answer(offer_id, sdp))

    async def _answer(self, offer_id: str, sdp: str) -> None:
        self.net = await self._net()
        try:
            described = await self.net.answer(self.room_id, sdp, self._opts(
                onMessage=self.guest_message, onStatus=self.guest_status,
                onError=self.net_error, onOpen=lambda *_: None, onPeer=lambda *_: None,
                onClose=lambda *_: None))
            self.code_answer = answer_code(offer_id, str(described))
        except Exception as e:  # noqa: BLE001 - the browser refused the offer
            self.app.window.console.warn(f"sxmj friends: no answer: {e}")
            self.code_answer = None
            self.fail("friends_err_code")
            return
        self.show_lobby()

    def join_number(self, number: str) -> None:
        """加入房间 by the 房号: the room's peer is the number's; this page knocks with the
        number (the lobby only: no secret), and the address keeps it, so a reload knocks
        again, on the same broker and preset."""
        self.number = number
        room_id = number_room_id(number)
        self._address(f"#room={room_id}&num={number}")
        self.join(room_id, "")

    def _address(self, fragment: str) -> None:
        """This page's address: its query with this room's network (broker, preset), and
        ``fragment``."""
        w = self.app.window
        values = {k: v for k, v in parse_qsl(str(w.location.search).lstrip("?"))
                  if k not in ("broker", "ice")}
        values.update({k: str(v) for k, v in self.network() if k in ("broker", "ice")})
        query = urlencode(values, safe=",:/")
        try:
            w.history.replaceState(None, "", str(w.location.pathname) +
                                   (f"?{query}" if query else "") + fragment)
        except Exception:  # noqa: BLE001 - a sandboxed page may refuse; the room goes on
            pass

    def net_error(self, kind: Any, detail: Any = "") -> None:
        """A 房号 that names no room on the broker: the transport stops, the table is a
        plain one again, and the join dialog says so (each failure waits longer). A
        connection code whose channel never opened: the lobby says so, and what to try."""
        if str(kind) == "codes-failed" and not self.reached:
            self.code_answer = None
            self.fail("friends_err_codes_failed")
            return
        if str(kind) == "peer-unavailable" and self.number and not self.reached:
            number = self.number
            if self.net is not None:
                self.net.close()
            self.net = None
            self.app.document.body.removeAttribute("data-sxmj-room")
            self.app.overlay.close()
            self._hash("")
            self.app.room_closed()
            self.app.door.failed(number, "join_no_room")
            return
        super().net_error(kind, detail)

    def fail(self, reason: str) -> None:
        """A 房号 whose room doesn't answer in time is a number that found no room (the
        broker may never say "unavailable"): the join dialog again."""
        if self.number and reason == "friends_err_host" and not self.reached:
            self.net_error("peer-unavailable")
            return
        super().fail(reason)

    def retry(self) -> None:
        """重试 after a failure: connect to the host again."""
        if self.net is not None:
            self.net.close()
        self.net, self.reached, self.failure = None, False, ""
        self.show_lobby()
        asyncio.ensure_future(self._join())

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
            self.reach()
            name = self.seat_name_typed()
            if self.number:  # typed the 房号: the lobby, not the secret it doesn't know
                self._send(self.room_id, protocol.message(
                    "knock", number=self.number, name=name, token=self._token()))
            else:
                self._send(self.room_id, protocol.message(
                    "hello", secret=self.secret, name=name, token=self._token()))
        elif state == "closed" and self.reached:  # (before: this page closed it, to retry)
            self.host_gone()
        elif self.reached:  # connecting again: after a while without the host, it has left
            asyncio.ensure_future(self._host_gone_after(self.gen))
        if not self.failure:
            self.app.document.body.dataset.sxmjFriends = state

    async def _host_gone_after(self, gen: int) -> None:
        await asyncio.sleep(self.seconds(HOST_GONE))
        if gen == self.gen:  # still not back (the transport keeps trying meanwhile)
            self.host_gone()

    def host_gone(self) -> None:
        """The host left: a clear notice, and the record so far to export (a friend who
        came by a code: only a new code connects again, and the seat is kept)."""
        self.status = ("friends_codes_lost" if self.code_answer is not None
                       else "friends_host_gone")
        self.app.overlay.open("friends", guest_lobby_html(self.guest_lobby(), self.seat,
                                                          self.status, self.lang))

    def seat_name_typed(self) -> str:
        box = self.app.document.getElementById("friends-name")
        return "" if is_none(box) else str(box.value)[:protocol.NAME_CHARS]

    def sit(self, seat: int) -> None:
        """A guest takes a free seat."""
        name = protocol.clean_name(self.seat_name_typed(), seat_name(seat, self.lang))
        self._send(self.room_id, protocol.message("sit", seat=seat, name=name))

    def guest_message(self, peer: Any, text: Any) -> None:
        """A message from the host: the guest's table takes it (:meth:`GuestTable.receive`,
        in the core) and says what to show; this draws it."""
        guest, app = self.guest, self.app
        assert guest is not None
        got = guest.receive(str(text))
        if got.dropped is not None:
            self._drop(text, got.dropped)
        elif got.lobby:
            self.show_lobby()
        elif got.seat is not None:
            self.seat = got.seat
            if self.status == "friends_waiting_approval":
                self.status = ""  # the host approved
            try:
                app.window.sessionStorage.setItem(TOKEN_KEY + self.room_id, got.token)
            except Exception:  # noqa: BLE001 - without storage a reload sits anew
                pass
            self.show_lobby()
        elif got.kind == "state":
            self.draw_state(got)
        elif got.kind == "vote":
            self.show_vote(got.vote)
        elif got.match_ended:
            app.match = guest.match  # the hands played, whole (the hand being played is void)
            self.show_ended(guest.match)
        elif got.away:  # its time ran out twice: this page plays for it until "我回来了"
            self.set_away(True, tell=False)
            app.screen.show_why(tr(self.lang, "friends_away_on"))
        elif got.refused is not None:
            app.screen.show_why(tr(self.lang, "friends_refused",
                                   why=refusal_text(*got.refused, self.lang)))
        elif got.said is not None:
            app.notes.say(got.said[0], phrase_text(got.said[1], self.lang))
            app.render()
        elif got.notice is not None and got.notice[0] == "waiting":
            self.status = "friends_waiting_approval"  # a locked room: the host decides
            self.show_lobby()
        elif got.notice is not None:
            self.show_notice(*got.notice)
        elif got.closed == "number":  # the room has another number now: none found
            self.reached = False
            self.net_error("peer-unavailable")
        elif got.closed:
            self.status = {"secret": "friends_wrong", "removed": "friends_removed"}.get(
                got.closed, "friends_host_gone")
            if got.closed == "removed":
                self.seat = None
            app.overlay.open("friends", guest_lobby_html(guest.lobby, self.seat, self.status,
                                                         self.lang))

    def draw_state(self, got: Arrival) -> None:
        """The host's table for this seat arrived: draw it, note and sound what happened."""
        app, guest = self.app, self.guest
        assert guest is not None
        app.match = guest.match
        back = got.first or bool(self.status)  # the first deal, or the host is back
        if back:
            self.status = ""
            app.document.body.removeAttribute("data-sxmj-room")
            app.overlay.close()
        if back or got.dealt:
            app.new_hand_state()  # notes and sounds the deal once
        else:
            app.notes.note(list(got.events))
            app.speaker.hear(list(got.events), app.match.game)
        if got.ended:
            app.ending.start()
            asyncio.ensure_future(app.ending.wait(app.params.speed))
            if self.away:  # 托管 is ready for the next hand too
                self.send_ready()
        app.decision.reset()
        app.render()
        if got.timer is not None:
            self.countdown(guest.step(), got.timer)
            self.play_away()

    def show_notice(self, kind: str, seat: int) -> None:
        """Another seat timed out, is reconnecting, or is back."""
        key = {"timeout": "friends_timeout", "reconnecting": "friends_reconnecting",
               "back": "friends_back"}.get(kind)
        if key:
            text = tr(self.lang, key, name=self.names()[seat] or seat_name(seat, self.lang))
            self.app.notes.log.append(text)
            self.app.screen.show_why(text)
            self.app.render()

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
