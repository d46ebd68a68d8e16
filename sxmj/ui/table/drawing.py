"""The table drawn: everything it shows now, as one :class:`~sxmj.ui.table.state.TableState`,
and the markup of the page's regions drawn from it (:func:`sxmj.ui.table.view.render_all`),
with the assist, the coach and the replay bar beside it; the controller paints them.

What is shown is the session's to say (:mod:`sxmj.ui.table.session`): a record watched, a
lesson's coach, a room's names, the daily's banner. This part reads the controller through
:class:`Drawn` and never changes the game.
"""

from __future__ import annotations

from typing import Any, Protocol

from sxmj.table_game import TableMatch
from sxmj.ui.params import Params
from sxmj.ui.table import comforts, regions, view
from sxmj.ui.table.assist import Adviser, AssistInfo, ghosts
from sxmj.ui.table.bot_loop import BotDriver
from sxmj.ui.table.daily.session import today_link
from sxmj.ui.table.decision import Decision
from sxmj.ui.table.overlay import Overlay
from sxmj.ui.table.replay.records import Replay
from sxmj.ui.table.result.match import ends
from sxmj.ui.table.result.reveal import Ending, reveal_html
from sxmj.ui.table.review.reviewer import Reviewer
from sxmj.ui.table.session import Coach, Session
from sxmj.ui.table.storage.persistence import Persistence
from sxmj.ui.table.storage.saved import Settings


class Drawn(Protocol):
    """What drawing the table reads of the controller."""

    document: Any
    window: Any
    match: TableMatch
    params: Params
    session: Session
    decision: Decision
    driver: BotDriver
    ending: Ending
    notes: regions.TableNotes
    overlay: Overlay
    persistence: Persistence
    replay: Replay
    reviewer: Reviewer
    rail_open: bool
    first_win: bool

    @property
    def settings(self) -> Settings: ...

    def link_query(self) -> str: ...


class Drawing:
    """The table's state and its painting, for ``table`` (the controller)."""

    def __init__(self, table: Drawn, adviser: Adviser):
        self.table = table
        self.adviser = adviser

    def state(self) -> view.TableState:
        """Everything the table shows now (the session says what: a record watched, a
        lesson's coach, a room's names)."""
        t = self.table
        p, d, session = t.params, t.decision, t.session
        lang = p.lang
        st = view.TableState.of(
            session.shown(t.match), lang=lang, speed=p.speed,
            level=p.level if "," not in p.level else "mixed",
            thinking=t.driver.thinking, held=t.driver.held(), confirm_piao=d.confirm_piao,
            dismissed=d.dismissed, link=t.link_query(), fresh=t.notes.fresh, pick=d.pick,
            menu_rules=comforts.rules_chip(t.match.options, p.rules(t.settings.rules)
                                           if session.follows_settings else None, lang),
            menu_extra=comforts.menu_chips(
                t.persistence.profile.rank if t.persistence.kept else None, lang),
            preview=d.preview(lang, t.settings.assist), first_win=t.first_win,
            match_over=t.match.finished and session.follows_settings, names=session.names(),
            daily_link=today_link(t.window, lang), welcome_open=t.overlay.kind == "welcome")
        st.ghosts = ghosts(st.obs, st.legal, lang)
        session.show(st, lang)  # the assist and the rank, a lesson's coach, a replay
        review = t.reviewer.html(t.replay.review_key(t.match),  # 复盘
                                 lang) if session.reviews else ""
        st.result_after = reveal_html(st) + review + st.result_after
        st.choices = view.buttons(st)  # drawn, and what a click on one of them presses
        return st

    def show_extras(self, st: view.TableState, lang: str) -> None:
        """What a match of yours shows beside the table: the assist's suggestion, the rank
        line and the match summary."""
        t = self.table
        if t.settings.assist:
            info = self.assist_now()
            st.suggest = info.suggest if info is not None else None
        ends(st, t.match, t.persistence.profile, ranked=t.persistence.kept)

    def assist_now(self, coach: Coach | None = None) -> AssistInfo | None:
        """The assist for the live game (worked out once per state); ``coach``: a lesson's,
        whose suggestion it shows."""
        t = self.table
        return self.adviser.advise(t.match.game, t.params.lang, coach is not None,
                                   None if coach is None else coach.suggest)

    def compose(self) -> tuple[view.TableState, dict[str, str], str]:
        """The table's state now, the regions' markup drawn from it (the controller paints
        them), and what the table waits for (``body[data-sxmj-waiting]``)."""
        t = self.table
        st = self.state()
        t.notes.fresh = {}  # what just arrived animates in this drawing only
        drawn = view.render_all(st)
        t.decision.drawn(st)  # a click on a choice presses one of these
        drawn.update(t.notes.regions())
        drawn.update(self.comfort_regions(st))
        drawn["chat"] = t.session.controls(t.params.lang)
        t.ending.place(st, drawn)  # the call, or the bar back to the result
        t.document.body.dataset.sxmjSession = t.session.kind
        waiting = t.ending.waiting(regions.waiting_for(
            t.session.shown(t.match).game, st.viewer, t.session.people()))
        return st, drawn, waiting

    def comfort_regions(self, st: view.TableState) -> dict[str, str]:
        """The replay bar, the assist and the coach."""
        t = self.table
        coach = t.session.coach(t.params.lang)
        on = not st.viewer and (t.settings.assist or coach is not None)
        return regions.comfort_regions(st, self.assist_now(coach) if on else None,
                                       t.settings.assist, t.rail_open,
                                       "" if coach is None else coach.html)
