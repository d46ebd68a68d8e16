"""The host's session of a friends room: it opens the room, referees every move — each
guest's and its own person's alike — against the live match (:class:`sxmj.room.host.Room`),
sends each guest its own view and draws its own table from the view seat 0 would be sent,
runs the turn timers and the grace period of a dropped guest, deals each hand from fresh
randomness, and keeps the room for a reload (``#host=<id>``).
"""

from __future__ import annotations

import asyncio
import json
import math
import secrets
import time
from typing import Any

from sxmj.game import Action
from sxmj.messages import CoreError
from sxmj.room.codes import offer_code, read_answer
from sxmj.room.guest import GuestTable
from sxmj.room.host import (
    GRACE,
    HANDS_CHOICES,
    HANDS_DEFAULT,
    HOST,
    TIMER_CHOICES,
    Reception,
    Room,
    SavedRoomError,
    deal,
    number_room_id,
)
from sxmj.room.ice import format_servers, parse_servers, with_credentials
from sxmj.room.protocol import message, pack_record
from sxmj.rules import BASE_FLOWERS
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import tr, wind_name
from sxmj.ui.params import Refusal, refusal
from sxmj.ui.table.dom import is_none, reaches
from sxmj.ui.table.friends.lobby import (
    PUBLIC_BROKER,
    CodesPanel,
    chat_html,
    codes_dialog_html,
    host_lobby_html,
    invite_link,
    peer_dropped_html,
    phrase_text,
    refusal_text,
    share_text,
)
from sxmj.ui.table.friends.room_session import ROOM_KEY, RoomBase, RoomTable
from sxmj.ui.table.storage.saved import LEVELS


def new_number() -> str:
    """A 房号: six random digits."""
    return f"{secrets.randbelow(10 ** 6):06d}"


NEXT_WAIT = 30  # seconds the host waits for everyone to be ready before dealing anyway
PATH_EVERY = 2  # seconds between two looks at the guests' routes while the lobby shows


class HostSession(RoomBase):
    """This browser hosts a friends room (a :class:`sxmj.ui.table.session.Session`): its
    person plays seat 0, people take the seats they chose, bots the rest."""

    kind = "host"
    drives_bots = True
    counts_hands = True
    reviews = True

    def __init__(self, app: RoomTable):
        super().__init__(app)
        self.room: Room | None = None
        self.link = ""  # the invite
        self.qr = ""  # the invite as a QR code (SVG)
        self.away_seats: set[int] = set()  # dropped guests' seats still in their grace period
        self.refused: tuple[Refusal, ...] = ()  # a #host= link whose room is gone (the notice)
        # the host's own table: what a guest in seat 0 would be sent (Room.seen), drawn as a
        # guest's is, so the host's page shows no more than its seat may see
        self.seen = GuestTable()
        self.timed_vote: object = None  # the 解散 vote whose wait is being timed
        self.paths: dict[int, str] = {}  # each guest's route (friends-net.js path())
        self.fresh = False  # a room just made whose number the broker hasn't taken yet
        self.watching_paths = False
        # connection codes (the route with no broker, sxmj/room/codes.py): once the host
        # chose them, one offer per free seat: seat → (offer id, the transport's id, link)
        self.codes_on = False
        self.offers: dict[int, tuple[str, str, str]] = {}
        self.making: set[int] = set()  # seats whose offer is being made
        # seats whose answer was taken: seat → the friend's connection, until it sits down
        # (or leaves): no new code is made for it meanwhile
        self.joining: dict[int, str] = {}
        self.pasted = ""  # a refused text, kept in the field to mend
        self.codes_note = ""  # the last answer taken ("connecting…"), or
        self.codes_error = ""  # why the last text pasted was refused

    # ------------------------------------------------------------ the session

    def act(self, action: Action) -> None:
        """The host's own move takes a guest's path: the room's referee judges it
        (:meth:`sxmj.room.host.Room.local`) before it is played."""
        room = self.room
        if room is None or not room.started:  # the lobby: the table behind it is yours
            if action in self.app.match.game.legal_actions(0):
                self.play(action)
            return
        got = room.local(action)
        if got.action is not None:
            self.play(got.action)
        elif got.refused is not None:
            self.app.screen.show_why(tr(self.lang, "friends_refused", why=refusal_text(
                got.refused.code, str(action), self.lang)))

    def broker(self) -> str:
        """The address's ``?broker=``, else the host's own setting."""
        return self.app.params.broker or self.app.settings.broker

    def preset(self) -> str:
        """The address's ``?ice=``, else the host's own setting."""
        return self.app.params.ice or self.app.settings.ice

    def custom_servers(self) -> str:
        """The host's own STUN and TURN servers (Settings), as the invite carries them:
        every TURN server's login minted for this room from the host's secret, which stays
        here (:func:`sxmj.room.ice.with_credentials`), or the list's own logins. "" when
        there is no list, or it can't serve (a TURN server with no login and no secret:
        the preset serves, and the console says why)."""
        settings = self.app.settings
        if not settings.ice_servers:
            return ""
        try:
            servers = parse_servers(settings.ice_servers, logins=not settings.turn_secret)
            if settings.turn_secret:
                servers = with_credentials(servers, settings.turn_secret, self.room_id,
                                           int(time.time()))
        except CoreError as e:
            self.app.window.console.warn(f"sxmj friends: own ICE servers not used: {e}")
            return ""
        return format_servers(servers)

    def codes_panel(self) -> CodesPanel | None:
        """The connection codes shown, once the host chose them."""
        if not self.codes_on:
            return None
        # what is in the answer field stays there through a redraw (a code made, a route
        # looked at, a friend arriving): the host may be halfway through pasting
        box = self.app.document.getElementById("codes-paste")
        typed = "" if is_none(box) else str(box.value or "")
        return CodesPanel({s: self.offers[s][2] if s in self.offers else ""
                           for s in self.code_seats()}, self.codes_note, self.codes_error,
                          typed or self.pasted)

    def controls(self, lang: str) -> str:
        """The room's controls, and once codes are in use, 连接码 for a friend whose
        connection dropped (only a new code brings them back)."""
        room = self.room
        again = self.codes_on and room is not None and not room.ended and any(
            seat.kind == "guest" and not seat.online for seat in room.seats)
        return chat_html(lang, self.away, bool(self.ended()), again) if self.names() else ""

    def show_lobby(self) -> None:
        room = self.room
        if room is not None and room.started and self.app.overlay.kind == "codes":
            panel = self.codes_panel()
            if panel is not None:
                self.app.overlay.open("codes", codes_dialog_html(panel, self.lang))
                self.make_offers()
            return
        if room is not None and not room.started:
            codes = self.codes_panel()
            self.app.overlay.open("friends", host_lobby_html(
                room, self.link, self.qr, self.lang, self.failure,
                self.broker() or PUBLIC_BROKER, self.paths, codes))
            self.watch_paths()
            if self.codes_on:
                self.make_offers()
        elif room is not None and self.failure:  # a reload: the match goes on, as it can
            self.app.screen.show_why(tr(self.lang, self.failure,
                                        broker=self.broker() or PUBLIC_BROKER))

    def names(self) -> tuple[str, ...]:
        if self.room is None or not self.room.started:
            return ()
        seats = [s.public() for s in self.room.seats]
        return tuple(self._plate(seat, mine=s == 0) for s, seat in enumerate(seats))

    def people_names(self) -> tuple[str, ...]:
        if self.room is None:
            return ()
        return tuple("" if s == 0 or seat.kind == "bot" else seat.name
                     for s, seat in enumerate(self.room.seats))

    def play(self, action: Action) -> None:
        """Apply a checked move (anyone's), redraw, and let the bots go on."""
        self.app.apply(action)
        self.app.go_on()

    def next_hand(self) -> None:
        """The host pressed 下一局: deal once every connected guest is ready too."""
        if self.room is None or not self.room.started:  # the lobby: your own match goes on
            self.app.played.next_hand()
            self.app.new_hand_state()
            self.app.go_on()
            return
        if self.app.match.finished:
            self.app.new_match()  # a room's match ends with the room: nothing to start
            return
        self.room.host_ready()
        self.maybe_deal()

    def persist(self) -> None:
        self.save()

    def applied(self, events: list[dict[str, Any]]) -> None:
        self.broadcast(events)

    def people(self) -> frozenset[int]:
        return frozenset(self.humans())

    def shown(self, match: TableMatch) -> TableMatch:
        """The room's match as seat 0 is sent it, once the match has started (before: the
        table behind the lobby, the host's own)."""
        room = self.room
        if room is None or not room.started or self.seen.state is None:
            return match
        return self.seen.match

    def record_text(self) -> str | None:
        """The room's record of its finished hands, what any player exports (the hand being
        played and its wall stay in the room); before the match, the table's own."""
        room = self.room
        if room is None or not room.started or room.match is None:
            return None
        return json.dumps(room.history(room.match), ensure_ascii=False, separators=(",", ":"))

    def side_command(self, name: str, value: str) -> None:
        if name == "start":
            self.start()
        elif name == "cancel":
            self.close()
        elif name == "copy":
            self.copy()
        elif name == "share-copy":
            self.copy(share=True)
        elif name == "terms" and self.room is not None:
            room = self.room
            hands = int(self._select("friends-hands", tuple(map(str, HANDS_CHOICES)),
                                     str(room.hands)))
            base = int(self._select("friends-base", tuple(map(str, BASE_FLOWERS)),
                                    str(room.base)))
            self._deliver(room.choose(hands, base))  # every guest sees the terms
            self.save()
            self.refresh_lobby()
        elif name == "remove" and value.isdigit() and self.room is not None:
            self._deliver(self.room.remove(int(value)))
            self.save()
            self.refresh_lobby()
        elif name == "retry":
            self.retry()
        elif name == "approve" and value.isdigit() and self.room is not None:
            self._deliver(self.room.approve(int(value)))
            self.save()
            self.refresh_lobby()
        elif name == "codes-open" and self.room is not None:
            self.codes_on = True
            if self.room.started:  # a friend who dropped: the codes in a dialog of their own
                self.app.overlay.open("codes", "")
            self.show_lobby()
        elif name == "codes-close":
            self.app.overlay.close()
        elif name == "codes-copy" and value.isdigit() and int(value) in self.offers:
            self.copy_text(self.offers[int(value)][2], f"codes-offer-{value}")
        elif name == "codes-new" and value.isdigit():
            self.withdraw(int(value))
            self.show_lobby()
        elif name in ("paste", "codes-connect"):  # (a paste or a drop is as good as asked)
            self.paste(name == "codes-connect" or value in ("insertFromPaste", "insertFromDrop"))
        elif name == "lock" and self.room is not None:
            self._deliver(self.room.lock(not self.room.locked))
            self.save()
            self.refresh_lobby()

    def say(self, phrase: str) -> None:
        self.said(0, phrase)

    # ------------------------------------------------------------ 托管 and 解散

    def ended(self) -> str:
        return "" if self.room is None else self.room.ended

    def level(self) -> str:
        return "normal" if self.room is None else self.room.level

    def tell_away(self, on: bool) -> None:
        if self.room is not None:
            self._deliver(self.room.set_away(HOST, on))

    def now(self) -> float:
        return asyncio.get_event_loop().time()

    def answer(self, yes: bool) -> None:
        if self.room is not None:
            self.voted(self.room.dissolve(HOST, yes, self.now()))

    def voted(self, got: Reception) -> None:
        """A vote changed (anyone's answer, or its wait ran out): every guest is told (in
        ``got``), the host's own table shows it, and a vote just opened is timed."""
        room = self.room
        if room is None:
            return
        self._deliver(got.replies)
        if got.ended:
            self.dissolved()
        elif room.vote is None:
            self.show_vote({"result": "kept"})
        else:
            if room.vote is not self.timed_vote:  # just opened: its wait starts
                self.timed_vote = room.vote
                asyncio.ensure_future(self._vote_due(room.vote))
            self.show_vote(room.vote_shown(HOST, self.now()))
        if got.save:
            self.save()

    async def _vote_due(self, vote: object) -> None:
        """The vote's wait: when it is over, whoever hasn't answered agrees."""
        room = self.room
        while room is not None and self.room is room and room.vote is vote:
            left = room.vote_left(self.now())
            if left <= 0:
                self.voted(room.vote_due(self.now()))
                return
            await asyncio.sleep(left)

    def dissolved(self) -> None:
        """The players ended the match: the host's table takes the finished hands as every
        guest did (the same message), and shows their summary."""
        room = self.room
        if room is None or room.match is None:
            return
        self.seen.receive(message("ended", why="dissolved",
                                  record=pack_record(room.history(room.match))))
        self.show_ended(self.seen.match)

    # ------------------------------------------------------------ the room

    def create(self) -> None:
        """「和朋友玩」: open a room with this browser as host."""
        broker = self.broker()
        if broker and not reaches(self.app.window, broker):  # set during this visit
            self.app.screen.show_why(tr(self.lang, "friends_broker_reload"))
            return
        level = self.app.settings.bots[0]
        # the 房号 names the room on the broker (its peer), so a friend can type it; the
        # invite's 128-bit secret still seats anyone who opens the link
        number = new_number()
        self.room_id, self.secret = number_room_id(number), secrets.token_hex(16)
        self.room = Room(self.room_id, self.secret, tr(self.lang, "friends_host_name"),
                         level if level in LEVELS else "normal",
                         tokens=lambda: secrets.token_hex(16), number=number)
        self.fresh = True  # a taken number is replaced until the broker has the room
        self.room.scale = self.app.params.timescale
        rules = self.app.params.rules(self.app.settings.rules)  # the host's, as a start
        self.room.choose(rules.match_hands if rules.match_hands in HANDS_CHOICES
                         else HANDS_DEFAULT, rules.base_flowers)
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
        if stored is None:
            return False
        try:  # stored data is anyone's to edit: the room checks every field
            room = Room.from_json(stored, LEVELS, tokens=lambda: secrets.token_hex(16))
        except SavedRoomError as e:
            self.app.window.console.warn(f"sxmj friends: {e}")
            return False
        if room.room_id != room_id:
            return False
        self.room, self.room_id, self.secret = room, room.room_id, room.secret
        room.scale = self.app.params.timescale
        # the guests reconnect by themselves: each seat waits for its guest the grace period
        # a dropped connection gets, before its bot covers it
        for s, seat in enumerate(room.seats):
            if seat.kind == "guest":
                self.away_seats.add(s)
                asyncio.ensure_future(self._grace(s))
        if room.match is not None:
            self.app.match = room.match
            self.app.driver.seat_bots((room.level,) * 3, 0)
            self.see([])
            if room.ended:  # dissolved before the reload: its summary again
                self.dissolved()
        asyncio.ensure_future(self._host(reopen=False))
        return True

    async def _host(self, reopen: bool = True) -> None:
        self.net = await self._net()
        self.invite()
        try:
            self.qr = str(await self.net.qrSvg(self.link))
        except Exception:  # noqa: BLE001 - the link alone still invites
            self.qr = ""
        self.net.host(self.room_id, self._opts(
            onMessage=self.host_message, onClose=self.host_closed,
            onError=self.net_error, onOpen=lambda *_: None, onPeer=lambda *_: None,
            onStatus=self.host_status))
        self.watch("friends_err_silent")
        self.save()
        if reopen:
            self.show_lobby()
        self.app.render()

    def invite(self) -> None:
        """The invite link: this page, the network's parameters, the room, its secret, and
        the host's own ICE servers with this room's logins (in the fragment)."""
        base = str(self.app.window.location.href).split("?")[0].split("#")[0]
        network = self.network()
        query = "?" + "&".join(f"{k}={v}" for k, v in network) if network else ""
        self.custom = self.custom_servers()
        self.link = invite_link(base, query, self.room_id, self.secret, self.custom)

    def watch_paths(self) -> None:
        """While the lobby shows, each guest's route is asked of the transport every
        :data:`PATH_EVERY` seconds (a route can change: a relay once the direct path fails)."""
        room = self.room
        if not self.watching_paths and self.net is not None and room is not None \
                and room.guests():  # (the first guest's arrival redraws the lobby)
            self.watching_paths = True
            asyncio.ensure_future(self._paths())

    async def _paths(self) -> None:
        try:
            while self.room is not None and self.net is not None and not self.room.started \
                    and self.app.overlay.kind == "friends":
                paths = {}
                for s in self.room.guests():
                    peer = self.room.seats[s].peer
                    if peer is not None:
                        paths[s] = str(await self.net.path(peer))
                if paths != self.paths:
                    self.paths = paths
                    self.refresh_lobby()
                await asyncio.sleep(self.seconds(PATH_EVERY))
        except Exception as e:  # noqa: BLE001 - a transport without routes: none are shown
            self.app.window.console.warn(f"sxmj friends: no routes: {e}")
        finally:
            self.watching_paths = False

    def host_status(self, state: Any) -> None:
        """The broker registered the room (``open``): guests can find it now."""
        if str(state) == "open":
            self.fresh = False
            self.reach()

    def net_error(self, kind: Any, detail: Any = "") -> None:
        """A new room whose 房号 another room on the broker has already: a new number (the
        broker gives each id to one page), before anyone can have been invited."""
        room = self.room
        if str(kind) == "unavailable-id" and self.fresh and room is not None \
                and not room.started and not room.guests():
            number = new_number()
            room.number, room.room_id = number, number_room_id(number)
            self.room_id = room.room_id
            self._hash(f"#host={self.room_id}")
            self.retry()
            return
        super().net_error(kind, detail)

    def retry(self) -> None:
        """重试 after a failure: a new connection to the broker, under the same room id."""
        if self.net is not None:
            self.net.close()
        self.net, self.reached, self.failure = None, False, ""
        self.show_lobby()
        asyncio.ensure_future(self._host(reopen=False))

    def host_message(self, peer: Any, text: Any) -> None:
        """A guest's message: the room decides it (:meth:`sxmj.room.host.Room.receive`),
        metered by this page's clock; this page does what the answer says, and nothing more:
        a dropped, refused or stranger's message saves, draws and relays nothing."""
        room = self.room
        if room is None:
            return
        got = room.receive(str(peer), str(text), asyncio.get_event_loop().time())
        if got.cut:
            self.cut(str(peer), got.replies, got.offline)
            return
        if got.dropped and got.refused is not None:
            self._drop(text, got.refused)
            return
        if not got.vote:  # (a vote's replies go out with what the host's table shows)
            self._deliver(got.replies)
        if got.back is not None:
            self.away_seats.discard(got.back)
            self.app.notes.log.append(tr(self.lang, "friends_back",
                                         name=room.seats[got.back].name))
            self.app.render()  # the plate drops its "reconnecting"
        if got.action is not None:
            self.play(got.action)
        if got.ready is not None:  # the room counts it
            self.maybe_deal()
        if got.said is not None:
            self.show_said(*got.said)
        if got.vote:
            self.voted(got)
        if got.away is not None:
            self.app.render()  # its plate says 托管 (or no longer)
        if got.lobby:
            self.refresh_lobby()
        if got.save:
            self.save()

    def cut(self, peer: str, replies: list[tuple[str, str]], seats: tuple[int, ...]) -> None:
        """A connection past its limits: closed, its seats offline (their bots cover them
        after the grace period; the seat token still takes a seat back), the host told."""
        room = self.room
        if room is None:
            return
        if self.net is not None:
            try:
                self.net.drop(peer)
            except Exception:  # noqa: BLE001 - already gone
                pass
        self._deliver(replies)
        for s in seats:
            self.away_seats.add(s)
            asyncio.ensure_future(self._grace(s))
        self.app.screen.show_notice(peer_dropped_html(self.lang))
        self.refresh_lobby()
        self.app.render()

    def refresh_lobby(self) -> None:
        if self.app.overlay.kind in ("friends", "codes"):
            self.show_lobby()

    def host_closed(self, peer: Any) -> None:
        room = self.room
        if room is None:
            return
        self.joining = {s: p for s, p in self.joining.items() if p != str(peer)}
        s = room.seat_of(str(peer))
        self._deliver(room.drop(str(peer)))
        if s is not None:
            self.away_seats.add(s)
            self.app.notes.log.append(tr(self.lang, "friends_reconnecting",
                                         name=room.seats[s].name))
            asyncio.ensure_future(self._grace(s))
        self.refresh_lobby()
        self.app.render()

    async def _grace(self, seat: int) -> None:
        await asyncio.sleep(self.seconds(GRACE))
        if seat in self.away_seats and self.room is not None and not self.room.seats[seat].online:
            self.away_seats.discard(seat)
            self.app.kick()  # the bot covers the seat from now on

    def humans(self) -> set[int]:
        """Seats the bots' loop must not play: the host's, connected guests', and dropped
        guests' for a grace period."""
        if self.room is None or not self.room.started:
            return {0}
        if self.room.ended:  # nothing more is played: no bot moves either
            return {0, 1, 2, 3}
        return self.room.humans() | self.away_seats

    # ------------------------------------------------------------ connection codes

    def code_seats(self) -> list[int]:
        """The seats a connection code invites to: before the start those a bot would play,
        and at any time a guest's seat whose connection dropped (its code brings them back)."""
        room = self.room
        if room is None:
            return []
        for seat, peer in list(self.joining.items()):
            if room.seat_of(peer) is not None:
                del self.joining[seat]  # seated (here or elsewhere)
        return [s for s in range(1, 4) if s not in self.joining and (
            (room.seats[s].kind == "bot" and not room.started)
            or (room.seats[s].kind == "guest" and not room.seats[s].online))]

    def make_offers(self) -> None:
        """An offer for every free seat that has none (once codes are chosen); an offer for
        a seat taken meanwhile is withdrawn (its friend can't sit there any more)."""
        seats = self.code_seats()
        for seat in list(self.offers):
            if seat not in seats:
                self.withdraw(seat)
        for seat in seats:
            if seat not in self.offers and seat not in self.making:
                self.making.add(seat)
                asyncio.ensure_future(self._offer(seat))

    async def _offer(self, seat: int) -> None:
        try:
            made = await self.net.offer(self.ice_servers(), self.app.params.ice)
            offer_id, code = offer_code(str(made.sdp))
            link = f"{self.link}&offer={code}&seat={seat}"
            room = self.room
            if room is not None and room.seats[seat].kind == "guest":  # back to their seat
                link += f"&token={room.seats[seat].token}"
            if seat in self.code_seats() and self.codes_on:
                self.offers[seat] = (offer_id, str(made.id), link)
            else:
                self.net.cancel(str(made.id))
        except Exception as e:  # noqa: BLE001 - no code for this seat; the lobby says so
            self.codes_error = tr(self.lang, "friends_err_code") + f" ({e})"[:80]
            self.app.window.console.warn(f"sxmj friends: no connection code: {e}")
        finally:
            self.making.discard(seat)
        self.refresh_lobby()

    def withdraw(self, seat: int) -> None:
        """The offer for ``seat`` is no more (its connection closed: an answer to it is
        refused); the lobby makes a new one if the seat is still free."""
        offer = self.offers.pop(seat, None)
        if offer is not None and self.net is not None:
            self.net.cancel(offer[1])

    def paste(self, asked: bool) -> None:
        """Text in the answer field: an answer code connects its friend (the first answer
        to an offer only); anything else is refused with why when ``asked`` (the connect
        button, or a text pasted whole), never while it is being typed (a redraw would take
        the field from under the keys)."""
        box = self.app.document.getElementById("codes-paste")
        text = "" if is_none(box) else str(box.value)
        if not text.strip():
            return
        try:
            offer_id, sdp = read_answer(text)
        except CoreError as e:
            if asked:
                self.codes_error, self.codes_note, self.pasted = e.text(self.lang), "", text
                self.refresh_lobby()
            return
        seat = next((s for s, offer in self.offers.items() if offer[0] == offer_id), None)
        if seat is None:
            self.codes_error = CoreError("codes.unknown", "code").text(self.lang)
            self.codes_note, self.pasted = "", text
            self.refresh_lobby()
            return
        _, js_id, _ = self.offers.pop(seat)
        if not is_none(box):
            box.value = ""  # taken: the field is free for the next friend's answer
        self.joining[seat] = js_id
        self.codes_error = self.pasted = ""
        self.codes_note = tr(self.lang, "codes_accepted", wind=wind_name(seat, 0, self.lang))
        self.refresh_lobby()  # (the field empties: the next friend's answer goes there)
        asyncio.ensure_future(self._accept(js_id, sdp))

    async def _accept(self, js_id: str, sdp: str) -> None:
        try:
            taken = bool(await self.net.accept(js_id, sdp))
        except Exception as e:  # noqa: BLE001 - the browser refused the description
            self.app.window.console.warn(f"sxmj friends: answer not taken: {e}")
            taken = False
        if not taken:
            self.joining = {s: p for s, p in self.joining.items() if p != js_id}
            self.codes_error = CoreError("codes.unknown", "code").text(self.lang)
            self.codes_note = ""
            self.refresh_lobby()

    def start(self) -> None:
        """friends-start: the match begins, dealt from fresh randomness."""
        room = self.room
        if room is None or room.started or (self.failure and not self.codes_on):
            return  # a room nobody can reach: no start
        level = self._select("friends-level", LEVELS, room.level)
        room.level = level
        room.timer = int(self._select("friends-timer", tuple(map(str, TIMER_CHOICES)),
                                      str(room.timer)))
        app = self.app
        app.match = deal(lambda: secrets.randbits(64),
                         room.options(app.params.rules(app.settings.rules)))
        app.driver.seat_bots((level,) * 3, 0)
        app.new_hand_state()
        app.overlay.close()
        self._deliver(room.start(app.match))  # every guest's deal, then the lobby
        self.see(app.match.game.deal_events)
        self.arm()
        self.save()
        app.go_on()

    def close(self) -> None:
        """Close the room (the host's 关闭房间 before the match starts): a plain table again."""
        if self.net is not None:
            self.net.close()
        self.room, self.net = None, None
        self.app.persistence.remove(ROOM_KEY)
        self._hash("")
        self.app.overlay.close()
        self.app.room_closed()

    def copy(self, share: bool = False) -> None:
        """The invite link (``share``: the invite's text for the chat, the link in it) to the
        clipboard; where the page may not write it (a frame whose parent gave no
        ``clipboard-write``), it is selected in its box, to copy by hand."""
        room = self.room
        text = share_text(room.hands, room.base, self.link, self.lang, room.number) if (
            share and room is not None) else self.link
        self.copy_text(text, "friends-share-text" if share else "friends-link")

    def _select(self, rid: str, allowed: tuple[str, ...], fallback: str) -> str:
        element = self.app.document.getElementById(rid)
        value = "" if is_none(element) else str(element.value)
        return value if value in allowed else fallback

    def broadcast(self, events: list[dict[str, Any]], full: bool = False) -> None:
        """Every connected guest's state after a change (host side)."""
        room = self.room
        if room is None or (match := room.match) is None:
            return
        if full:
            self._deliver([(peer, room.state(s, match, events, True))
                           for s in room.guests() if (peer := room.seats[s].peer)])
        else:
            self._deliver(room.states(match, events))
            self.see(events)
        self.arm()

    def see(self, events: list[dict[str, Any]]) -> None:
        """The host's own table takes the state seat 0 is sent after a change."""
        room = self.room
        if room is not None and room.match is not None:
            state, record = room.seen(0, room.match, events)
            self.seen.update(state, record)

    def arm(self) -> None:
        """The turn timer: a connected guest who must decide has ``timer`` seconds."""
        room = self.room
        if room is None or (match := room.match) is None or room.ended:
            return
        key = (match.hand_no, len(match.game.actions))
        waiting = [s for s in match.game.to_move() if s in room.guests() or s == 0]
        # every answer re-arms; the window's own time runs on (a second person waiting
        # gets what is left, not a fresh timer), and at 0 the next late seat is played
        left = room.time_left(match, asyncio.get_event_loop().time())
        if waiting:
            asyncio.ensure_future(self._timeout(key, waiting, left))
        if 0 in waiting:
            self.countdown(key, max(1, math.ceil(left / room.scale)))
            self.play_away()
        elif match.game.over:
            asyncio.ensure_future(self._timeout(key, [], self.seconds(NEXT_WAIT)))
            if self.away:  # 托管 is ready for the next hand too
                room.host_ready()

    async def _timeout(self, key: tuple[int, int], seats: list[int], seconds: float) -> None:
        await asyncio.sleep(seconds)
        room = self.room
        match = None if room is None else room.match
        if room is None or match is None or (match.hand_no, len(match.game.actions)) != key \
                or room.ended:
            return
        if match.game.over:
            self.maybe_deal(force=True)
            return
        for seat in seats:
            if seat in match.game.to_move():
                game = match.game
                action = self.app.driver.stand_in(game, seat, room.level)
                name = room.seats[seat].name
                self.app.notes.log.append(tr(self.lang, "friends_timeout", name=name))
                self._deliver(room.timed_out(seat))
                if seat == HOST and room.seats[HOST].away and not self.away:
                    self.set_away(True, tell=False)  # twice in a row: 托管 until "我回来了"
                    self.app.screen.show_why(tr(self.lang, "friends_away_on"))
                self.play(action)
                return

    def maybe_deal(self, force: bool = False) -> None:
        room, app = self.room, self.app
        match = None if room is None else room.match
        if room is None or match is None or not match.game.over or match.finished:
            return
        if not force and not room.all_ready():
            app.notes.log.append(tr(self.lang, "friends_ready_wait"))
            app.render()
            return
        room.dealt()
        deal(lambda: secrets.randbits(64), match.options, match)
        app.new_hand_state()
        self.broadcast(match.game.deal_events)
        self.save()
        app.go_on()

    def said(self, seat: int, phrase: str) -> None:
        """A quick phrase from ``seat`` (host-numbered): a bubble at every table."""
        room = self.room
        if room is None:
            return
        got = room.say(seat, phrase)
        self._deliver(got.replies)
        if got.said is not None:
            self.show_said(*got.said)

    def show_said(self, seat: int, phrase: str) -> None:
        """The bubble of ``seat``'s phrase at this table."""
        self.app.notes.say(seat, phrase_text(phrase, self.lang))
        self.app.render()

    def save(self) -> None:
        """The host's room and match, for a reload (``#host=<id>``)."""
        if self.room is not None:
            self.app.persistence.store(ROOM_KEY, self.room.to_json())
