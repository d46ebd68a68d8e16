"""A guest's session of a friends room: it joins by the invite, takes a seat, draws the
table from what the host sends (:class:`sxmj.room.guest.GuestTable`) and sends its moves; a
reload takes the seat back (its token in ``sessionStorage``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from sxmj.game import Action
from sxmj.messages import CoreError
from sxmj.room import protocol
from sxmj.room.guest import GuestTable
from sxmj.ui.i18n import seat_name, tr
from sxmj.ui.table.dom import is_none
from sxmj.ui.table.friends.common import TOKEN_KEY, RoomBase
from sxmj.ui.table.friends.lobby import guest_lobby_html, phrase_text, refusal_text

HOST_GONE = 20  # seconds without the host before a guest is told it has left


class GuestSession(RoomBase):
    """This browser is a guest of a friends room (a :class:`sxmj.ui.table.session.Session`):
    its moves go to the host, which plays every seat's bot and sends the table back."""

    kind = "guest"
    drives_bots = False  # the host's page moves every bot
    counts_hands = False  # the host's record is the match's
    reviews = False  # a guest holds no record of its own to review

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
            self.app.overlay.open("friends", guest_lobby_html(self.lobby, self.seat,
                                                              self.status, self.lang))

    def names(self) -> tuple[str, ...]:
        guest = self.guest
        if guest is None or guest.state is None:
            return ()
        me = guest.seat
        seats = (guest.state["names"] if self.lobby is None else
                 [self.lobby["seats"][(i + me) % 4] for i in range(4)])
        return tuple(self._plate(seat, mine=i == 0) for i, seat in enumerate(seats))

    def record_text(self) -> str | None:
        """The host's record of the finished hands (the one any player exports)."""
        if self.guest is None or self.guest.record is None:
            return None
        return json.dumps(self.guest.record, ensure_ascii=False, separators=(",", ":"))

    def side_command(self, name: str, value: str) -> None:
        if name == "seat" and value in ("1", "2", "3"):
            self.sit(int(value))

    def say(self, phrase: str) -> None:
        self._send(self.room_id, protocol.message("say", phrase=phrase))

    # ------------------------------------------------------------ the room

    def join(self, room_id: str, secret: str) -> None:
        """Opened from an invite link: connect to the host and show the room."""
        self.room_id, self.secret = room_id, secret
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
            back = fresh or bool(self.status)  # the first deal, or the host is back
            if back:
                self.status = ""
                app.document.body.removeAttribute("data-sxmj-room")
                app.overlay.close()
            events = guest.events
            if back or any(e.get("type") == "deal" for e in events):
                app.new_hand_state()  # notes and sounds the deal once
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
            self.status = {"secret": "friends_wrong", "removed": "friends_removed"}.get(
                msg["reason"], "friends_host_gone")
            if msg["reason"] == "removed":
                self.seat = None
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
