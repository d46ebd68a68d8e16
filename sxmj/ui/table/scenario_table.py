"""The table's scenario (``index.html?scenario=NAME``), a part of the controller: which one
is played, dealing it, dealing it again, and leaving it for a plain match.

:mod:`sxmj.ui.table.scenario_mode` is the scenario's logic (pure); this part puts it on the table
through the few things of the controller it needs (:class:`Host`).
"""

from __future__ import annotations

from typing import Any, Protocol

from sxmj.match import Match
from sxmj.scenarios import ScenarioError
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import tr
from sxmj.ui.table import regions, view
from sxmj.ui.table.driver import BotDriver
from sxmj.ui.table.scenario_mode import ScenarioMode, from_search, scenario_name


class Host(Protocol):
    """What dealing a scenario reaches: the controller and the parts it holds."""

    document: Any
    match: TableMatch

    @property
    def played(self) -> Match: ...
    driver: BotDriver
    notes: regions.TableNotes

    def sync_params(self, seed: int | None = None) -> None: ...

    def new_hand_state(self, heard: bool = True) -> None: ...

    def render(self) -> None: ...

    def kick(self) -> None: ...

    def go_on(self) -> None: ...


class ScenarioTable:
    """The scenario the table plays (``mode``; None for a plain game), or the name asked for
    that no scenario has (``error``, which the coach shows)."""

    def __init__(self, host: Host):
        self.host = host
        self.mode: ScenarioMode | None = None
        self.error: str | None = None

    def boot(self, search: str) -> bool:
        """Deal the scenario ``search`` asks for; False when it asks for none (or one that
        doesn't exist: ``error`` says which)."""
        name = scenario_name(search)
        if name is not None:
            try:
                self.mode = from_search(search)
            except ScenarioError:
                self.error = name
        if self.mode is None:
            return False
        self.start()
        return True

    def start(self) -> None:
        """Deal the scenario: seat 0 is the player, the other seats play its script."""
        mode, host = self.mode, self.host
        if mode is None:  # only the table of a scenario has one
            return
        host.sync_params(0)
        host.match = mode.start()
        host.driver.play_script(mode)
        host.new_hand_state()

    def restart(self) -> None:
        """Play the scenario again from its deal."""
        host = self.host
        host.driver.stop()
        host.notes.log = []
        self.start()
        host.go_on()

    def leave(self) -> None:
        """A plain match replaces the scenario (or the name that wasn't one)."""
        if self.mode is not None:
            self.host.document.body.removeAttribute("data-sxmj-scenario")
        self.mode = None
        self.error = None

    def show(self, st: view.TableState, lang: str) -> None:
        """The coach's suggestion in ``st`` and, once the hand is over, the outcome above
        the result and the button that plays it again."""
        mode = self.mode
        assert mode is not None
        game = self.host.played.game
        coach = mode.coach(game, lang)
        st.suggest = coach.suggest
        if game.over:
            st.again_label = tr(lang, "scenario_again")
            st.result_top = regions.scenario_done_html(mode, coach, lang)
