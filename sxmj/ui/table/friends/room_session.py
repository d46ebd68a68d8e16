"""What both sessions of a friends room share (:class:`RoomBase`): the state both sides
keep, the transport (``static/js/friends-net.js``, loaded on first use), the lobby and the
turn timer shown, the names on the plates, and the room's controls. The host's session is
:class:`sxmj.ui.table.friends.host.HostSession`, a guest's
:class:`sxmj.ui.table.friends.guest.GuestSession`; each reaches the table through
:class:`RoomTable` only.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from sxmj.game import Action
from sxmj.messages import CoreError
from sxmj.room.ice import format_servers, preset_servers
from sxmj.room.limits import DROPPED_LOG
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import seat_name as seat_label
from sxmj.ui.i18n import tr
from sxmj.ui.params import Params
from sxmj.ui.table.bot_loop import BotDriver
from sxmj.ui.table.decision import Decision
from sxmj.ui.table.dom import Screen, Speaker, is_none
from sxmj.ui.table.friends.lobby import chat_html, ended_html, phrase_text, vote_html
from sxmj.ui.table.overlay import Overlay
from sxmj.ui.table.regions import TableNotes
from sxmj.ui.table.result.match import summary_html
from sxmj.ui.table.result.reveal import Ending
from sxmj.ui.table.session import Coach, Table
from sxmj.ui.table.state import TableState
from sxmj.ui.table.storage.persistence import Persistence
from sxmj.ui.table.storage.saved import Settings

if TYPE_CHECKING:  # the drawing reads the room's names: a cycle only for the types
    from sxmj.ui.table.drawing import Drawing
    from sxmj.ui.table.friends.door import Door

ROOM_KEY = "sxmj.room"  # the host's room and match (localStorage)
TOKEN_KEY = "sxmj.seat."  # + the room id: a guest's seat token (sessionStorage)
TICKS = 5  # the last seconds of a decision tick
AWAY_BEAT = 0.8  # seconds 托管 waits before it plays (the others see the move happen)
# seconds a room waits for its broker (a guest: for its host) before saying, in front of
# everything, that it can't reach it and what to try
BROKER_WAIT = 10
# the broker's errors: before the room has reached it, each means the room can't form
BROKER_ERRORS = ("broker", "network", "server-error", "socket-error", "browser-incompatible",
                 "ssl-unavailable", "script-load")


class RoomTable(Table, Protocol):
    """What a room's session reaches of the table (the controller and the parts it holds),
    beside what every session does (:class:`sxmj.ui.table.session.Table`)."""

    document: Any
    window: Any
    params: Params
    screen: Screen
    speaker: Speaker
    overlay: Overlay
    notes: TableNotes
    driver: BotDriver
    decision: Decision
    ending: Ending
    persistence: Persistence

    @property
    def settings(self) -> Settings: ...

    @property
    def drawing(self) -> Drawing: ...

    def room_closed(self) -> None: ...

    @property
    def door(self) -> Door: ...

    def act(self, action: Action | None) -> None: ...


class RoomBase:
    """What both sides of a room share: the table (``app``), the transport, the lobby, the
    turn timer, the names on the plates and the room's controls; the parts of
    :class:`sxmj.ui.table.session.Session` that are the same for both."""

    in_room = True
    follows_settings = True
    takes_moves = True
    welcomes = False
    record_name: str | None = None

    def __init__(self, app: RoomTable):
        self.app = app
        self.net: Any = None
        self.room_id = ""
        self.secret = ""
        self.proxies: list = []
        self.loaded = False  # friends-net.js is in the page
        self.gen = 0  # counts the transport's status changes (a newer one cancels a wait)
        self.tick_gen = 0  # counts the turn timers shown (a newer one stops the last)
        self.reached = False  # the broker answered (a guest: its channel to the host opened)
        self.failure = ""  # why the room can't form: a string key, shown in the lobby
        self.watch_gen = 0  # counts the waits for the broker (a newer one cancels the last)
        # messages dropped (malformed, oversized, unknown, over a limit): the last few only,
        # as anyone may send junk
        self.log: deque[str] = deque(maxlen=DROPPED_LOG)
        self.custom = ""  # the room's custom ICE list (JSON, logins in): the invite's #ice=
        self.away = False  # 托管: this page plays this person's seat until "我回来了"
        self.away_gen = 0  # counts the decisions 托管 was asked to play (a newer one wins)

    @property
    def lang(self) -> str:
        return str(self.app.params.lang)

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

    def broker(self) -> str:
        """The PeerServer: the address's ``?broker=`` (a guest's invite names the host's, if
        any; a host's own setting comes next: :class:`HostSession`)."""
        return self.app.params.broker

    def network(self) -> list[tuple[str, object]]:
        """What an invite's query carries of the network: the broker and the ``ice`` preset
        (a custom list goes in its fragment)."""
        preset = "" if self.preset() == "default" else self.preset()
        return replace(self.app.params, broker=self.broker(), ice=preset).network()

    def _opts(self, **callbacks: Callable) -> Any:
        from js import Object
        from pyscript.ffi import create_proxy, to_js
        opts: dict[str, Any] = {"broker": self.broker(), "ice": self.app.params.ice,
                                "iceServers": self.ice_servers()}
        for name, fn in callbacks.items():
            proxy = create_proxy(fn)
            self.proxies.append(proxy)
            opts[name] = proxy
        return to_js(opts, dict_converter=Object.fromEntries)

    def preset(self) -> str:
        """The ICE preset of this room ("" or a name of :data:`sxmj.room.ice.PRESETS`):
        the address's ``?ice=`` (a guest's invite names the host's)."""
        return self.app.params.ice

    def ice_servers(self) -> str:
        """The ICE servers this page's connections use, as ``friends-net.js`` takes them
        (JSON; "" for PeerJS's own): the room's custom list, else its preset's."""
        if self.custom:
            return self.custom
        servers = preset_servers(self.preset() or "default")
        return "" if servers is None else format_servers(servers)

    def _send(self, peer: str, text: str) -> None:
        if self.net is not None:
            self.net.send(peer, text)

    def _deliver(self, out: list[tuple[str, str]]) -> None:
        for peer, text in out:
            self._send(peer, text)

    def _drop(self, text: str, error: CoreError) -> None:
        """A message not acted on: logged (never executed; its size, never its text)."""
        self.log.append(f"{error.code}: {len(str(text))} characters")
        if len(self.log) == 1 or error.code != "room.flood":  # a flood says so once
            self.app.window.console.warn(f"sxmj friends: dropped a message ({error.code})")

    def show_lobby(self) -> None:
        """The room's dialog, while there is one to show (each side's own)."""

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
            await asyncio.sleep(self.seconds(1))
            element = self.app.document.getElementById("turn-timer")  # redrawn meanwhile
        if gen == self.tick_gen and not is_none(element):
            element.hidden = True

    def names(self) -> tuple[str, ...]:
        """The players' names by seat of this table (empty until the match starts)."""
        return ()

    def people_names(self) -> tuple[str, ...]:
        """Each seat's own name at this table (no "reconnecting" or "托管" after it; "" for
        this table's own seat and a bot's, which the table names)."""
        return ()

    def controls(self, lang: str) -> str:
        """The room's controls beside the table once the match is on (:func:`chat_html`)."""
        return chat_html(lang, self.away, bool(self.ended())) if self.names() else ""

    def _plate(self, seat: dict[str, Any], mine: bool) -> str:
        """A plate's name: a person's (and whether they are reconnecting or on 托管); ""
        keeps the seat's own name (yours, or a bot's)."""
        if mine or seat["kind"] == "bot":
            return ""
        if seat["kind"] == "guest" and not seat["online"]:
            return f'{seat["name"]} · {tr(self.lang, "friends_seat_away")}'
        if seat.get("away"):
            return f'{seat["name"]} · {tr(self.lang, "friends_seat_auto")}'
        return str(seat["name"])

    # ------------------------------------------------------------ 托管 and 解散

    def ended(self) -> str:
        """Why the match ended early ("dissolved"), or "" while it goes on."""
        return ""

    def set_away(self, on: bool, tell: bool = True) -> None:
        """托管 on or off at this table (``tell``: the room hears it, and every plate says
        so). On, this page plays this person's decisions with their bot's level."""
        self.away = on
        if tell:
            self.tell_away(on)
        self.app.render()
        if on:
            self.play_away()

    def tell_away(self, on: bool) -> None:
        """The room hears this person's 托管 (each side its own way)."""

    def play_away(self) -> None:
        """On 托管, this table's decision is played after a beat, by the seat's bot in this
        very page (no other browser ever needs this person's hand)."""
        if not self.away or self.ended():
            return
        match = self.app.match
        if match.game.over or not match.game.legal_actions(0):
            return
        self.away_gen += 1
        asyncio.ensure_future(self._play_away(self.away_gen, self.step_now()))

    async def _play_away(self, gen: int, key: tuple[int, int]) -> None:
        await asyncio.sleep(self.seconds(AWAY_BEAT))
        game = self.app.match.game
        if gen != self.away_gen or not self.away or key != self.step_now() or \
                not game.legal_actions(0):
            return
        self.app.act(self.app.driver.for_person(game, self.level()))

    def step_now(self) -> tuple[int, int]:
        """The state this table's decision answers (hand, moves seen)."""
        match = self.app.match
        return match.hand_no, len(match.game.actions)

    def level(self) -> str:
        """The room's bot level (托管 plays at it)."""
        return "normal"

    def propose(self) -> None:
        """申请解散: this person votes yes, which opens a vote if none is open."""
        self.answer(True)

    def answer(self, yes: bool) -> None:
        """This person's answer to the 解散 vote (each side sends it its own way)."""

    def show_vote(self, vote: dict[str, Any] | None) -> None:
        """The vote as this table is shown it: open, the dialog with its answers (and this
        person's buttons while they haven't answered); kept, a word and the table again."""
        if vote is None:
            return
        if vote["result"] == "kept":
            if self.app.overlay.kind == "vote":
                self.app.overlay.close()
            self.app.screen.show_why(tr(self.lang, "friends_vote_kept"))
        elif vote["result"] == "open":
            names = [name or seat_label(s, self.lang)
                     for s, name in enumerate(self.people_names() or ("",) * 4)]
            self.app.overlay.open("vote", vote_html(vote, names, self.lang))

    def show_ended(self, match: TableMatch) -> None:
        """The match was dissolved: the table stops, and the summary of the hands played
        (``data-ended="dissolved"``) opens with the record to export."""
        self.away = False
        self.away_gen += 1
        self.tick_gen += 1  # no turn timer goes on
        names = self.people_names()

        def name(seat: int) -> str:
            return names[seat] if names and names[seat] else seat_label(seat, self.lang)

        summary = summary_html(match, self.app.persistence.profile, self.lang, name,
                               ranked=False, ended="dissolved")
        self.app.document.body.dataset.sxmjRoom = "ended"
        self.app.render()
        self.app.overlay.open("ended", ended_html(summary, self.lang))

    def record_text(self) -> str | None:
        """The match's record to export when it isn't the table's own match (a guest's)."""
        return None

    # ------------------------------------------------------------ the session's common part

    kind = ""  # "host" or "guest": the page's body[data-sxmj-session], never asked here

    def show(self, st: TableState, lang: str) -> None:
        self.app.drawing.show_extras(st, lang)

    def shown(self, match: TableMatch) -> TableMatch:
        return match

    def coach(self, lang: str) -> Coach | None:
        return None

    def link_query(self, params: Params) -> str:
        return params.query()

    def command(self, name: str, value: str = "") -> None:
        """The room's controls: the lobby again, close, copy the link, a phrase, a seat,
        the start (each side takes those it has)."""
        if name == "create":
            self.show_lobby()
        elif name == "away":
            self.set_away(not self.away)
        elif name == "dissolve":
            self.propose()
        elif name == "vote" and value in ("yes", "no"):
            self.answer(value == "yes")
        elif name == "ended-close":
            self.app.overlay.close()
        elif name == "say" and phrase_text(value, "en"):
            box = self.app.document.querySelector("#chat details")
            if not is_none(box):
                box.open = False  # said: the phrases fold away
            self.say(value)
        else:
            self.side_command(name, value)

    def side_command(self, name: str, value: str) -> None:
        """A control only one side has (the host's start, close, copy; a guest's seat)."""

    def say(self, phrase: str) -> None:
        """A quick phrase or emoji from this table (known to :func:`phrase_text`)."""

    def leave(self) -> None:
        pass  # a room's match ends with the room (:meth:`close`), never by a new match

    def net_error(self, kind: Any, detail: Any = "") -> None:
        kind = str(kind)
        if kind in BROKER_ERRORS and not self.reached:
            self.fail("friends_err_broker")  # the room can't form: said in front
        elif kind in BROKER_ERRORS or kind == "unavailable-id":
            self.app.screen.show_why(tr(self.lang, "friends_no_broker", detail=kind))
        self.app.window.console.warn(f"sxmj friends: {kind} {detail}")

    def seconds(self, wait: float) -> float:
        """``wait`` seconds of the room, at the page's time scale (``?timescale=``, tests)."""
        return wait * self.app.params.timescale

    def watch(self, silent: str) -> None:
        """Wait :data:`BROKER_WAIT` seconds for the transport; if nothing has answered by
        then, the room fails with ``silent`` (the reason's string key)."""
        self.watch_gen += 1
        asyncio.ensure_future(self._watch(self.watch_gen, silent))

    async def _watch(self, gen: int, silent: str) -> None:
        await asyncio.sleep(self.seconds(BROKER_WAIT))
        if gen == self.watch_gen and not self.reached and not self.failure:
            self.fail(silent)

    def fail(self, reason: str) -> None:
        """The room can't form: the lobby says why and what to try, in front of the table,
        with no way to start (its transport keeps trying meanwhile)."""
        self.failure = reason
        self.app.document.body.dataset.sxmjFriends = "failed"
        self.show_lobby()

    def reach(self) -> None:
        """The transport answered: a failure shown is over."""
        self.reached = True
        if self.failure:
            self.failure = ""
            self.app.document.body.removeAttribute("data-sxmj-friends")  # no longer failed
            self.show_lobby()

    def copy_text(self, text: str, box_id: str) -> None:
        """``text`` to the clipboard; where the page may not write it (a frame whose parent
        gave no ``clipboard-write``), the element ``box_id`` holding it is selected, to copy
        by hand."""
        async def run() -> None:
            try:
                await self.app.window.navigator.clipboard.writeText(text)
                self.app.screen.show_why(tr(self.lang, "friends_copied"))
                return
            except Exception:  # noqa: BLE001 - refused, or no Clipboard API
                pass
            box = self.app.document.getElementById(box_id)
            if not is_none(box):
                try:
                    box.select()
                except Exception:  # noqa: BLE001
                    pass
            self.app.screen.show_why(tr(self.lang, "rec_copy_failed"))

        self._copying = asyncio.ensure_future(run())  # (kept: a task is only weakly held)

    def _hash(self, fragment: str) -> None:
        w = self.app.window
        try:
            w.history.replaceState(None, "", str(w.location.pathname) + str(w.location.search)
                                   + fragment)
        except Exception:  # noqa: BLE001 - a sandboxed page may refuse; the room goes on
            pass
