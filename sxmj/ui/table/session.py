"""One way to play at this table: a :class:`Session`, chosen once, answers "who am I?".

The table (:class:`sxmj.ui.table.app.App`) draws a match and hands the player's choices on;
it never asks whether it is a plain game, a lesson, a daily, a friends room's host or guest,
or a record watched: the session it holds answers instead, by what it does (its methods) and
what it allows (its capabilities: ``drives_bots``, ``follows_settings``…). Which session a
visit opens is chosen once, in :mod:`sxmj.ui.table.ways`, the one module beside the
sessions' own that names their classes.

============================  ========  ==========  =============  ==========  ==============
session                       ``act``   bots        hands counted  saved       ``next_hand``
============================  ========  ==========  =============  ==========  ==============
:class:`LocalSession`         applied   this table  yes            ``sxmj.save``  dealt here
``ScenarioSession`` (lesson)  applied   its script  no             never       played again
``DailySession`` (daily)      applied¹  hard bots   its history    the day's   the day's next
``HostSession`` (friends)     checked   this table  yes            ``sxmj.room``  when all ready
``GuestSession`` (friends)    sent      the host's  no             the host's  ready sent
:class:`WatchSession`         ignored   none        (underneath)   (underneath)  ignored
============================  ========  ==========  =============  ==========  ==============

¹ After any bot still to answer a claim (the order the daily's shared link replays in).

The host's own moves take a guest's path (boardgame.io's "local client"): ``HostSession``
has them judged by :meth:`sxmj.room.host.Room.local`, the same referee as a guest's message
to :meth:`~sxmj.room.host.Room.receive`, before they are applied.

Each session gets a narrow :class:`Table` (what it may reach of the table), never the
whole controller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sxmj.game import Action
from sxmj.match import Match
from sxmj.table_game import TableMatch
from sxmj.ui.params import Params
from sxmj.ui.table.replay.records import Replay
from sxmj.ui.table.state import TableState


@dataclass(frozen=True)
class Coach:
    """A lesson's coach: its markup (the rail's coach region) and the move it suggests."""

    html: str
    suggest: Action | None


class MatchStore(Protocol):
    """Where a plain match is kept (:class:`sxmj.ui.table.storage.persistence.Persistence`)."""

    def save_match(self, match: Match) -> None: ...


class Table(Protocol):
    """What a session may reach of the table: its match and the few steps every session
    takes (apply a checked action, redraw, let the bots go on, a new hand's bookkeeping)."""

    match: TableMatch

    @property
    def played(self) -> Match: ...

    def apply(self, action: Action) -> None: ...

    def render(self) -> None: ...

    def kick(self) -> None: ...

    def go_on(self) -> None: ...

    def new_hand_state(self, heard: bool = True) -> None: ...

    def new_match(self) -> None: ...


class Session(Protocol):
    """One way to play at this table.

    ``kind`` names it (``local``, ``scenario``, ``daily``, ``host``, ``guest`` or ``watch``:
    the page's ``body[data-sxmj-session]``). ``drives_bots``: this table's loop moves the bots (a
    guest's host does). ``counts_hands``: finished hands go into the player's profile.
    ``reviews``: this table holds the record a review (复盘) replays. ``in_room``: the match is
    a friends room's (it ends with the room; the address keeps the room's fragment).
    ``follows_settings``: the match plays the settings' rules and bots (a lesson plays its
    own: a changed level waits, the menu shows no next rules, a finished one is no match to
    sum up or undo back to). ``takes_moves``: the player's clicks and keys play here (not
    while a record is watched). ``welcomes``: a first visit's welcome card may open over it.
    ``record_name``: the name an exported record carries (a lesson's), else None.
    """

    kind: str
    drives_bots: bool
    counts_hands: bool
    reviews: bool
    in_room: bool
    follows_settings: bool
    takes_moves: bool
    welcomes: bool
    record_name: str | None

    def act(self, action: Action) -> None:
        """The person at this table chose ``action`` for seat 0: played if it is legal now
        (checked here, at the session's boundary, and by the engine as it is applied)."""

    def next_hand(self) -> None:
        """下一局 once a hand is over (the match is not finished)."""

    def persist(self) -> None:
        """Keep the match as it stands now (called after every action)."""

    def applied(self, events: list[dict[str, Any]]) -> None:
        """An action was applied to the match: ``events`` is what it caused."""

    def people(self) -> frozenset[int]:
        """Seats people play, as this table numbers them (the bots' loop leaves them)."""

    def names(self) -> tuple[str, ...]:
        """The players' names by seat, "" for a seat's own name (empty: every seat's own)."""

    def controls(self, lang: str) -> str:
        """The markup beside the table for what only this way to play has (a room's chat,
        托管 and 解散); "" for none."""

    def shown(self, match: TableMatch) -> TableMatch:
        """The match the table shows: ``match``, or the record being watched."""

    def show(self, st: TableState, lang: str) -> None:
        """Add to ``st`` what this way to play shows beside the table (a coach, a rank)."""

    def coach(self, lang: str) -> Coach | None:
        """A lesson's coach now (None: no coach, and the assist is the player's to turn on)."""

    def link_query(self, params: Params) -> str:
        """The query that plays this table again (the address bar, the menu's link)."""

    def record_text(self) -> str | None:
        """The match's record to export when it isn't the table's own match (a guest's)."""

    def command(self, name: str, value: str = "") -> None:
        """A room's control (``friends-*``: create, start, cancel, copy, seat, say)."""

    def leave(self) -> None:
        """The table leaves this way to play (a new match): stop its own work."""


class PlainSession:
    """What the sessions that play here share: act applies (the engine already said the
    action is legal), the bots go on, no room."""

    kind = "local"
    drives_bots = True
    counts_hands = True
    reviews = True
    in_room = False
    follows_settings = True
    takes_moves = True
    welcomes = False
    record_name: str | None = None

    def __init__(self, table: Table, open_room: Callable[[], None]):
        self.table = table
        self.open_room = open_room

    def act(self, action: Action) -> None:
        if action not in self.table.match.game.legal_actions(0):
            return  # a click that arrived after the table moved on
        self.table.apply(action)
        self.table.go_on()

    def applied(self, events: list[dict[str, Any]]) -> None:
        pass

    def people(self) -> frozenset[int]:
        return frozenset({0})

    def names(self) -> tuple[str, ...]:
        return ()

    def controls(self, lang: str) -> str:
        return ""

    def shown(self, match: TableMatch) -> TableMatch:
        return match

    def coach(self, lang: str) -> Coach | None:
        return None

    def record_text(self) -> str | None:
        return None

    def command(self, name: str, value: str = "") -> None:
        if name == "create":  # 和朋友玩: this table becomes a room's host
            self.open_room()

    def leave(self) -> None:
        pass


class LocalSession(PlainSession):
    """You against three bots, saved after every action (``sxmj.save``) and counted in your
    profile. ``missing``: the markup saying a lesson asked for (``?scenario=``) doesn't exist,
    shown in the rail until a new match."""

    welcomes = True

    def __init__(self, table: Table, open_room: Callable[[], None], store: MatchStore,
                 extras: Callable[[TableState, str], None], missing: str = ""):
        super().__init__(table, open_room)
        self.store = store
        self.extras = extras
        self.missing = missing

    def next_hand(self) -> None:
        table = self.table
        if table.match.finished:  # the match is over: N asks for a new one
            table.new_match()
            return
        table.played.next_hand()
        table.new_hand_state()
        self.persist()
        table.go_on()

    def persist(self) -> None:
        self.store.save_match(self.table.played)

    def show(self, st: TableState, lang: str) -> None:
        self.extras(st, lang)
        st.banner = st.banner or self.missing

    def link_query(self, params: Params) -> str:
        return params.query()


class WatchSession:
    """A record being watched (an imported one, a daily's shared play, a hand to review):
    the table shows the :class:`~sxmj.ui.table.replay.records.Replay`'s position, and the session
    underneath waits (its bots pause, the player's choices and 下一局 do nothing) until the
    replay closes."""

    kind = "watch"
    drives_bots = False
    takes_moves = False
    welcomes = False

    def __init__(self, under: Session, replay: Replay):
        self.under = under
        self.replay = replay
        self.counts_hands = under.counts_hands
        self.reviews = under.reviews
        self.in_room = under.in_room
        self.follows_settings = under.follows_settings
        self.record_name = under.record_name

    def act(self, action: Action) -> None:
        pass

    def next_hand(self) -> None:
        pass

    def persist(self) -> None:
        self.under.persist()

    def applied(self, events: list[dict[str, Any]]) -> None:
        self.under.applied(events)

    def people(self) -> frozenset[int]:
        return self.under.people()

    def names(self) -> tuple[str, ...]:
        return self.under.names()

    def controls(self, lang: str) -> str:
        return self.under.controls(lang)

    def shown(self, match: TableMatch) -> TableMatch:
        viewer = self.replay.viewer
        return match if viewer is None else viewer.match

    def show(self, st: TableState, lang: str) -> None:
        """Nobody is asked anything in a replay: no choices, no bot thinking, no preview;
        its bar is the action bar's (or the result's footer)."""
        st.legal, st.ghosts, st.choices, st.suggest = [], [], None, None
        st.thinking, st.held, st.confirm_piao, st.preview = None, False, False, ""
        st.first_win = st.match_over = False
        st.viewer, st.banner = True, ""
        st.viewer_bar = self.replay.bar(lang)
        st.result_top = st.again_label = st.result_after = ""

    def coach(self, lang: str) -> Coach | None:
        return None

    def link_query(self, params: Params) -> str:
        return self.under.link_query(params)

    def record_text(self) -> str | None:
        return self.under.record_text()

    def command(self, name: str, value: str = "") -> None:
        self.under.command(name, value)

    def leave(self) -> None:
        self.under.leave()


def watched(session: Session, replay: Replay) -> Session:
    """``session`` paused while ``replay`` shows a record (already paused: as it is)."""
    return session if isinstance(session, WatchSession) else WatchSession(session, replay)


def unwatched(session: Session) -> Session:
    """The session a watched record paused, once the viewer closes."""
    return session.under if isinstance(session, WatchSession) else session
