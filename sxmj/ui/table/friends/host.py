"""The host's session of a friends room: it opens the room, referees every move — each
guest's and its own person's alike — against the live match (:class:`sxmj.room.host.Room`),
sends each guest its own view, runs the turn timers and the grace period of a dropped guest,
deals each hand from fresh randomness, and keeps the room for a reload (``#host=<id>``).
"""

from __future__ import annotations

import asyncio
import json
import math
import secrets
from typing import Any

from sxmj.game import Action
from sxmj.messages import CoreError
from sxmj.record import dumps, replay
from sxmj.room import protocol
from sxmj.room.host import GRACE, TIMER_CHOICES, Room, deal
from sxmj.ui.i18n import tr
from sxmj.ui.params import refusal
from sxmj.ui.table.dom import is_none
from sxmj.ui.table.friends.common import ROOM_KEY, RoomBase
from sxmj.ui.table.friends.lobby import invite_link, phrase_text
from sxmj.ui.table.saved import LEVELS, stored_object

NEXT_WAIT = 30  # seconds the host waits for everyone to be ready before dealing anyway


class HostSession(RoomBase):
    """This browser hosts a friends room (a :class:`sxmj.ui.table.session.Session`): its
    person plays seat 0, people take the seats they chose, bots the rest."""

    kind = "host"
    drives_bots = True
    counts_hands = True
    reviews = True

    # ------------------------------------------------------------ the session

    def act(self, action: Action) -> None:
        """The host's own move takes a guest's path: the room checks it first."""
        self.play(self.room_check(action))

    def play(self, action: Action | None) -> None:
        if action is None:
            return
        self.app.apply(action)
        self.app.render()
        self.app.kick()

    def room_check(self, action: Action) -> Action | None:
        """``action`` if the room's referee accepts it from the host's seat now."""
        if self.room is None:
            return action
        return action  # replaced by Room.local below

    def next_hand(self) -> None:
        """The host pressed 下一局: deal once every connected guest is ready too."""
        if self.app.match.finished:
            self.app.new_match()  # a room's match ends with the room: nothing to start
            return
        self.ready.add(0)
        self.maybe_deal()

    def persist(self) -> None:
        self.save()

    def applied(self, events: list[dict[str, Any]]) -> None:
        self.broadcast(events)

    def people(self) -> frozenset[int]:
        return frozenset(self.humans())

    def side_command(self, name: str, value: str) -> None:
        if name == "start":
            self.start()

    def say(self, phrase: str) -> None:
        self.said(0, phrase)

    # ------------------------------------------------------------ the room

    def create(self) -> None:
        """「和朋友玩」: open a room with this browser as host."""
        level = self.app.settings.bots[0]
        self.room_id, self.secret = secrets.token_hex(16), secrets.token_hex(16)
        self.room = Room(self.room_id, self.secret, tr(self.lang, "friends_host_name"),
                         level if level in LEVELS else "normal",
                         tokens=lambda: secrets.token_hex(16))
        self._hash(f"#host={self.room_id}")
        asyncio.ensure_future(self._host())

    def resume_host(self, room_id: str) -> bool:
        """A reload of the host: the stored room and its match, under the same id. When
        this browser no longer holds it, the page's notice says so (:attr:`refused`)."""
        if self._resume_host(room_id):
            return True
        self.refused = (refusal("#host", room_id, "host_lost"),)
        return False

    def _resume_host(self, room_id: str) -> bool:
        stored = self.app.persistence.load(ROOM_KEY)
        try:
            data, _ = stored_object(stored, "room")
            if data is None or data.get("id") != room_id:
                return False
            seats = data["seats"]
            # stored data is anyone's to edit: every field is checked before it is used
            if not (isinstance(data["secret"], str) and data["level"] in LEVELS
                    and data["timer"] in TIMER_CHOICES and isinstance(seats, list)
                    and len(seats) == 4 and all(
                        isinstance(x, dict) and x.get("kind") in ("host", "guest", "bot")
                        and isinstance(x.get("name"), str) and isinstance(x.get("token"), str)
                        for x in seats)):
                return False
            room = Room(data["id"], data["secret"], tr(self.lang, "friends_host_name"),
                        data["level"], data["timer"], tokens=lambda: secrets.token_hex(16))
            for s, seat in enumerate(seats):
                room.seats[s].kind, room.seats[s].name = seat["kind"], seat["name"]
                room.seats[s].token = seat["token"]
                room.seats[s].online = s == 0
            room.started = bool(data["started"])
            match = replay(data["match"]) if data.get("match") else None
        except (ValueError, KeyError, TypeError, IndexError, RecursionError, CoreError):
            return False
        self.room, self.room_id, self.secret = room, room.room_id, room.secret
        # the guests reconnect by themselves: each seat waits for its guest the grace period
        # a dropped connection gets, before its bot covers it
        for s, seat in enumerate(room.seats):
            if seat.kind == "guest":
                self.away.add(s)
                asyncio.ensure_future(self._grace(s))
        if match is not None:
            self.app.match = match
            self.app.driver.seat_bots((room.level,) * 3, 0)
        asyncio.ensure_future(self._host(reopen=False))
        return True

    async def _host(self, reopen: bool = True) -> None:
        self.net = await self._net()
        base = str(self.app.window.location.href).split("?")[0].split("#")[0]
        network = self.network()
        query = "?" + "&".join(f"{k}={v}" for k, v in network) if network else ""
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
                self.app.render()  # the plate drops its "reconnecting"
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
        self._deliver(room.lobby_to_all())
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
        if full:
            self._deliver([(peer, room.state(s, self.app.match, events, True))
                           for s in room.guests() if (peer := room.seats[s].peer)])
        else:
            self._deliver(room.states(self.app.match, events))
        self.arm()

    def arm(self) -> None:
        """The turn timer: a connected guest who must decide has ``timer`` seconds."""
        room = self.room
        match = self.app.match
        if room is None:
            return
        key = (match.hand_no, len(match.game.actions))
        waiting = [s for s in match.game.to_move() if s in room.guests() or s == 0]
        # every answer re-arms; the window's own time runs on (a second person waiting
        # gets what is left, not a fresh timer), and at 0 the next late seat is played
        left = room.time_left(match, asyncio.get_event_loop().time())
        if waiting:
            asyncio.ensure_future(self._timeout(key, waiting, left))
        if 0 in waiting:
            self.countdown(key, max(1, math.ceil(left)))
        elif match.game.over:
            asyncio.ensure_future(self._timeout(key, [], NEXT_WAIT))

    async def _timeout(self, key: tuple[int, int], seats: list[int], seconds: float) -> None:
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
                action = self.app.driver.stand_in(game, seat, self.room.level)
                name = self.room.seats[seat].name
                self.app.notes.log.append(tr(self.lang, "friends_timeout", name=name))
                for s in self.room.guests():
                    self._send(self.room.seats[s].peer or "", protocol.message(
                        "notice", kind="timeout", seat=protocol.turned(seat, s)))
                self.app.apply(action)
                self.app.render()
                self.app.kick()
                return

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
        if room is None:
            return
        data = {"id": room.room_id, "secret": room.secret, "level": room.level,
                "timer": room.timer, "started": room.started,
                "seats": [{"kind": s.kind, "name": s.name, "token": s.token} for s in room.seats],
                "match": dumps(self.app.match) if room.started else ""}
        self.app.persistence.store(ROOM_KEY, json.dumps(data))
