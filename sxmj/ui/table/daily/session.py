"""The daily challenge at the table (每日挑战, ``?daily=YYYY-MM-DD``): its session, its par
worked out in the background, and its history on this device.

The deal and the bots are the core's (:mod:`sxmj.daily`, :mod:`sxmj.bots.daily`); here the
table plays them. :func:`open_daily` deals the day (or resumes this device's play of it) and
returns its :class:`DailySession`, one more :class:`~sxmj.ui.table.session.Session`, which
alone knows everything the daily changes at the table: the player's move is applied after
any bot still to answer a claim (the order a shared link is replayed in, which changes no
outcome), and each of seat 0's moves is kept as an index into its legal actions, the moves
code a shared link carries and a reload resumes from. Its
:class:`~sxmj.ui.table.driver.ParRunner` plays the expert on the same walls a guess at a time,
yielding to the page between slices, while the player plays; the par is kept so it is worked
out once per day and device.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sxmj import daily
from sxmj.game import Action, Game
from sxmj.match import Match
from sxmj.messages import CoreError
from sxmj.record import to_record
from sxmj.ui.i18n import tr
from sxmj.ui.params import Params, Refusal, refusal
from sxmj.ui.table.comforts import rules_chip
from sxmj.ui.table.daily.card import DailyView, banner_html, result_html, share_text
from sxmj.ui.table.daily.history import (
    KEY_HISTORY,
    KEY_LIVE,
    History,
    Live,
    load_history,
    load_live,
)
from sxmj.ui.table.daily.par import DAILY_LEVEL, ParRunner, daily_replay, move_index, next_seat
from sxmj.ui.table.dom import is_none
from sxmj.ui.table.session import PlainSession, Table
from sxmj.ui.table.state import TableState
from sxmj.ui.table.storage.saved import Problem


class Storage:
    """What the daily keeps on the device (``local_storage.Persistence`` is one)."""

    notices: list[Problem]

    def load(self, key: str) -> str | None: ...

    def store(self, key: str, value: str) -> None: ...

    def remove(self, key: str) -> None: ...


class DailyStore:
    """The history and the play in progress, read once (an unreadable one is reset, with a
    notice) and written after every change."""

    def __init__(self, storage: Any):
        self.storage = storage
        self.kept: bool = getattr(storage, "kept", True)
        self.history, problem = load_history(storage.load(KEY_HISTORY))
        if problem is not None:
            storage.notices.append(problem)
            storage.store(KEY_HISTORY, self.history.to_json())

    def save(self) -> None:
        self.storage.store(KEY_HISTORY, self.history.to_json())

    def live(self, day: str) -> Live | None:
        """The play of ``day`` in progress, if this device has one (a bad one goes)."""
        live, problem = load_live(self.storage.load(KEY_LIVE))
        if problem is not None:
            self.storage.notices.append(problem)
            self.storage.remove(KEY_LIVE)
        return live if live is not None and live.day == day else None

    def keep_live(self, live: Live | None) -> None:
        if live is None:
            self.storage.remove(KEY_LIVE)
        else:
            self.storage.store(KEY_LIVE, live.to_json())


class DailyTable(Table, Protocol):
    """What the daily reaches of the table, beyond every session's :class:`Table`."""

    window: Any
    document: Any

    def play_match(self, match: Match, levels: tuple[str, str, str], heard: bool) -> None:
        """Put ``match`` on the table with bots of ``levels`` (counting nothing yet)."""

    def bot_move(self, game: Game, seat: int) -> Action:
        """What the bot at ``seat`` plays now."""

    def review_hand(self, hand: int) -> None:
        """Watch hand ``hand`` (from 0) of the match played to its end, then review it."""

    def note(self, problem: Problem) -> None:
        """A notice for the page (something kept on the device could not be used)."""

    @property
    def clock(self) -> Any: ...

    def fail(self, text: str) -> None: ...


def today(window: Any) -> str:
    """Today in Asia/Shanghai, by this device's clock (the daily's calendar day)."""
    clock = getattr(window, "Date", None)  # the page's clock (a test may set it)
    return daily.shanghai_day(float(clock.now()) if clock is not None else time.time() * 1000)


def today_link(window: Any, lang: str) -> str:
    """Today's daily challenge (the menu's and the welcome card's link)."""
    return f"./?daily={today(window)}" + ("&lang=en" if lang == "en" else "")


@dataclass(frozen=True)
class Opened:
    """What :func:`open_daily` made of ``?daily=``: the session (None for a refused day),
    the refusals to show, and a shared play's record to watch (``#m=CODE``)."""

    session: DailySession | None
    refused: tuple[Refusal, ...] = ()
    watch: dict | None = None


def open_daily(table: DailyTable, open_room: Callable[[], None], day: str,
               storage: Any, lang: str) -> Opened:
    """``?daily=DAY``: that day's challenge on ``table``, resumed where this device left it
    (``storage`` keeps it), or a named refusal for a day after today."""
    now = today(table.window)
    if day > now:
        return Opened(None, (future_refusal(day, now),))
    store = DailyStore(storage)
    live = store.live(day)
    match = daily.new_match(day)
    if live is not None:
        try:
            match = daily_replay(day, live.moves)
        except CoreError as e:  # a play kept by another version: start the day afresh
            table.note(Problem("daily", "invalid", str(e)[:120]))
            store.keep_live(None)
            live = None
    table.play_match(match, (DAILY_LEVEL,) * 3, heard=live is None)
    location = table.window.location
    base = str(location.origin or "") + str(location.pathname or "")
    session = DailySession(table, open_room, day, now, store, base, live)
    refused: tuple[Refusal, ...] = ()
    watch = None
    fragment = str(getattr(location, "hash", "") or "")
    if fragment.startswith("#m="):  # a shared play's moves: its record, to watch
        try:
            watch = to_record(daily_replay(day, fragment[3:]))
        except CoreError as e:
            refused = (refusal("m", fragment[3:], kind="daily_link", expected=e.text(lang)),)
    return Opened(session, refused, watch)


def future_refusal(day: str, today: str) -> Refusal:
    """``?daily=`` names a day after today: refused, with today's date."""
    r = refusal("daily", day, kind="future")
    return Refusal(r.param, r.value, r.kind, today)


class DailySession(PlainSession):
    """The day's match: you against three hard bots, four hands, counted once a day."""

    kind = "daily"
    counts_hands = False  # the daily's result goes to its own history, not the profile

    def __init__(self, table: DailyTable, open_room: Callable[[], None], day: str, today: str,
                 store: DailyStore, base_link: str, live: Live | None = None):
        super().__init__(table, open_room)
        self.table: DailyTable = table
        self.day, self.today = day, today
        self.store = store
        self.base_link = base_link
        self.moves: list[int] = [] if live is None else daily.decode_moves(live.moves)
        # None until the first move: whether this play counts is decided when it begins; a
        # device that keeps nothing (a frame refused storage) plays it as practice
        self.counted: bool | None = None if live is None else live.counted
        if not store.kept:
            self.counted = False
        self.recorded = False
        self.copy_status = ""
        self.lang = "zh"  # the page's, as last drawn (the share text is in it)
        self.par_runner = ParRunner(table.clock, self.par_known, table.fail)
        if day not in store.history.pars:
            self.par_runner.start(day)

    @property
    def history(self) -> History:
        return self.store.history

    @property
    def par(self) -> int | None:
        return self.history.pars.get(self.day)

    def par_known(self, par: int) -> None:
        """The expert's match on the day's walls is over: its total is the par."""
        self.history.set_par(self.day, par)
        self.store.save()
        self.table.render()

    def leave(self) -> None:
        self.par_runner.stop()

    def counts(self) -> bool:
        """Does this play count (or would it, begun now)?"""
        if self.counted is not None:
            return self.counted
        return self.history.counts(self.day, self.today)

    def act(self, action: Action) -> None:
        game = self.table.played.game
        if action not in game.legal_actions(0):
            return  # a click that arrived after the table moved on
        # A bot still to answer a claim answers first: the order a link is replayed in.
        while not game.over and any(s != 0 for s in game.to_move()):
            seat = next_seat(game)
            self.table.apply(self.table.bot_move(game, seat))
        if action in game.legal_actions(0):
            if self.counted is None:
                self.counted = self.history.begin(self.day, self.today)
                self.store.save()
            self.moves.append(move_index(game, action))
            self.table.apply(action)
        self.table.go_on()

    def next_hand(self) -> None:
        table = self.table
        if table.match.finished:
            return
        table.played.next_hand()
        table.new_hand_state()
        table.go_on()

    def persist(self) -> None:
        if self.table.match.finished:
            self.store.keep_live(None)
        elif self.moves:
            self.store.keep_live(Live(self.day, self.code, self.counts()))

    def applied(self, events: list[dict[str, Any]]) -> None:
        match = self.table.played
        if match.finished and not self.recorded:
            self.recorded = True
            marks = [daily.hand_mark(r) for r in match.results]
            self.history.finish(self.day, match.scores[0], marks, self.counts())
            self.store.save()

    @property
    def code(self) -> str:
        return daily.encode_moves(self.moves)

    def link(self, lang: str) -> str:
        """The link that replays this play in the viewer (the moves in the fragment)."""
        q = f"?daily={self.day}" + ("&lang=en" if lang == "en" else "")
        return f"{self.base_link}{q}#m={self.code}"

    def view(self, lang: str) -> DailyView:
        match: Match = self.table.played
        return DailyView(self.day, self.today, [r.payments[0] for r in match.results],
                         [daily.hand_mark(r) for r in match.results], match.length, self.par,
                         self.counts(), self.history, self.link(lang), match.seed,
                         hand_no=match.hand_no + 1, copy_status=self.copy_status)

    def show(self, st: TableState, lang: str) -> None:
        self.lang = lang
        v = self.view(lang)
        st.banner = banner_html(v, lang)
        st.seed_shown = False  # the day names the deal; its link is the daily's own
        st.menu_rules = rules_chip(self.table.played.options, None, lang)  # the day's rules
        if self.table.match.finished:
            st.result_top = result_html(v, lang)

    def link_query(self, params: Params) -> str:
        extra = "".join(f"&{k}={v}" for k, v in (("lang", params.lang), ("speed", params.speed))
                        if v != {"lang": "zh", "speed": "normal"}[k])
        return f"?daily={self.day}{extra}"

    def command(self, name: str, value: str = "") -> None:
        if name == "daily-review":
            self.table.review_hand(int(value) - 1)
        elif name == "daily-copy":
            v = self.view(self.lang)
            if v.par is not None:
                text = share_text(v.day, v.score, v.par, v.marks, self.lang, v.link)
                asyncio.ensure_future(self._copy(text))
        else:
            super().command(name, value)

    async def _copy(self, text: str) -> None:
        """The card's copy button: the share text to the clipboard (it answers later)."""
        ok = await copy_text(self.table.window, self.table.document, text,
                             '[data-testid="daily-share"]')
        self.copy_status = tr(self.lang, "daily_copied" if ok else "daily_copy_failed")
        self.table.render()


async def copy_text(window, document, text: str, selector: str) -> bool:
    """Put ``text`` on the clipboard (the Clipboard API, else the old ``execCommand`` on the
    element ``selector`` holding it, left selected for copying by hand if both fail)."""
    try:
        await window.navigator.clipboard.writeText(text)
        return True
    except Exception:  # noqa: BLE001 - no permission, no focus, or no Clipboard API
        pass
    box = document.querySelector(selector)
    if is_none(box):
        return False
    try:
        window.getSelection().selectAllChildren(box)
        return bool(document.execCommand("copy"))
    except Exception:  # noqa: BLE001
        return False
