"""A lesson played at the table (``index.html?scenario=NAME``): the :class:`ScenarioSession`.

:mod:`sxmj.ui.table.scenario.mode` is the lesson's logic (pure); this session puts it on the
table through the few things of the controller it needs (:class:`LessonTable`): it deals the
lesson, plays it again, coaches, and leaves it for a plain match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from sxmj.scenarios import ScenarioError
from sxmj.ui.i18n import tr
from sxmj.ui.params import Params
from sxmj.ui.table import regions
from sxmj.ui.table.bot_loop import BotDriver
from sxmj.ui.table.scenario.mode import ScenarioMode, from_search, scenario_name
from sxmj.ui.table.session import Coach, PlainSession, Table
from sxmj.ui.table.state import TableState


class LessonTable(Table, Protocol):
    """What a lesson reaches of the table: its page, its bots and its log, beside what every
    session does."""

    document: Any
    driver: BotDriver
    notes: regions.TableNotes

    def sync_params(self, seed: int | None = None) -> None: ...


def lesson(search: str) -> ScenarioMode | str | None:
    """The lesson ``search`` asks for; the name asked for when no lesson has it; None when
    it asks for none."""
    name = scenario_name(search)
    if name is None:
        return None
    try:
        return from_search(search)
    except ScenarioError:
        return name


class ScenarioSession(PlainSession):
    """A lesson (``?scenario=NAME``) that starts over and never replaces your saved match,
    counts nothing, and whose other seats play its script."""

    kind = "scenario"
    counts_hands = False
    follows_settings = False

    def __init__(self, table: LessonTable, open_room: Callable[[], None], mode: ScenarioMode):
        super().__init__(table, open_room)
        self.lesson_table = table
        self.mode = mode
        self.record_name = mode.name

    def start(self) -> None:
        """Deal the lesson: seat 0 is the player, the other seats play its script."""
        table, mode = self.lesson_table, self.mode
        table.sync_params(0)
        table.match = mode.start()
        table.driver.play_script(mode)
        table.new_hand_state()
        table.document.body.dataset.sxmjScenario = mode.name

    def next_hand(self) -> None:  # a lesson's "next hand" plays it again from its deal
        table = self.lesson_table
        table.driver.stop()
        table.notes.log = []
        self.start()
        table.go_on()

    def persist(self) -> None:  # a lesson starts over: it never replaces your saved match
        pass

    def show(self, st: TableState, lang: str) -> None:
        """The coach's suggestion in ``st`` and, once the hand is over, the outcome above
        the result and the button that plays it again."""
        game = self.table.played.game
        coach = self.mode.coach(game, lang)
        st.suggest = coach.suggest
        if game.over:
            st.again_label = tr(lang, "scenario_again")
            st.result_top = regions.scenario_done_html(self.mode, coach, lang)

    def coach(self, lang: str) -> Coach | None:
        game = self.table.played.game
        return Coach(self.mode.coach_html(game, lang), self.mode.coach(game, lang).suggest)

    def link_query(self, params: Params) -> str:
        return self.mode.query(params.lang, params.speed)

    def leave(self) -> None:
        self.lesson_table.document.body.removeAttribute("data-sxmj-scenario")
