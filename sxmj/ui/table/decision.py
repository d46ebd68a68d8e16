"""The player's decision in progress, between the table showing it and an action applied.

What is legal always comes from the engine (``legal_actions``), and is checked where a move
leaves the table (the session) and by the engine; this only remembers how far the player
got: the tile chosen with ←/→ or raised by a first tap (``pick``; ``raised`` when a tap
raised it, see :mod:`sxmj.ui.table.inputs.touch`), the 飘 question (``confirm_piao``), the 胡/杠
offers put away (``dismissed``), and the choices drawn (``choices``: a button's
``data-move`` is its place there, so a click carries its move and nothing is rebuilt to find
it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sxmj.game import Action
from sxmj.table_game import TableGame
from sxmj.tiles import tile as tile_of
from sxmj.ui.table import view
from sxmj.ui.table.action_bar import drawn_choices
from sxmj.ui.table.inputs.touch import preview_text


@dataclass(eq=False)
class Decision:
    """Given the live game (``game``), ``act`` to play a legal action, ``render``, the
    table's ``state`` and ``focus`` for the keyboard."""

    game: Callable[[], TableGame]
    act: Callable[[Action], None]
    render: Callable[[], None]
    state: Callable[[], view.TableState]
    focus: Callable[[str], bool]
    pick: int | None = field(default=None, init=False)
    # the tile a first tap raised (at ``pick``)
    raised: int | None = field(default=None, init=False)
    confirm_piao: bool = field(default=False, init=False)
    dismissed: bool = field(default=False, init=False)
    # the action bar's buttons and the disallowed actions' ghosts, as last drawn
    choices: list[view.Button] = field(default_factory=list, init=False)
    ghosts: list[Any] = field(default_factory=list, init=False)

    def drawn(self, st: view.TableState) -> None:
        """The table was drawn from ``st``: its choices are the ones to press."""
        self.choices, self.ghosts = drawn_choices(st), st.ghosts

    def choose(self, move: str) -> None:
        """A choice's button was clicked: ``move`` is its ``data-move``, its place among the
        choices drawn."""
        if move.isdigit() and int(move) < len(self.choices):
            self.press(self.choices[int(move)])

    def reset(self) -> None:
        """A new hand: nothing chosen, nothing asked, nothing put away."""
        self.settle()
        self.pick = None

    def settle(self) -> None:
        """An action was chosen: the question, the raised tile and the put-away offers are
        over."""
        self.confirm_piao = False
        self.dismissed = False
        self.raised = None

    def tap(self, code: str, index: int | None, two_taps: bool) -> None:
        """A tap or click on tile ``code`` (at ``index`` of the hand as drawn, if known):
        it discards, or with ``two_taps`` the first tap only raises it and the second on
        the same tile discards it."""
        if not two_taps or (self.raised is not None and self.pick is not None and
                            code == view.code(self.raised) and index in (None, self.pick)):
            self.discard(code)
            return
        game = self.game()
        try:
            t = tile_of(code)
        except ValueError:
            return
        if Action(0, "discard", t) not in game.legal_actions(0):
            return
        order = view.hand_order(self.state())
        if index is None or not 0 <= index < len(order) or order[index] != t:
            index = order.index(t)
        self.pick, self.raised = index, t
        self.render()

    def lower(self) -> bool:
        """A tap elsewhere: the raised tile goes back down (True if one was raised)."""
        if self.raised is None:
            return False
        self.pick = self.raised = None
        self.render()
        return True

    def preview(self, lang: str, assist: bool) -> str:
        """The status line while a tile is raised ("" when none is)."""
        if self.raised is None or self.pick is None:
            return ""
        return preview_text(self.game().observation(0), self.raised, lang, assist)

    def discard(self, code: str) -> None:
        """Discard tile ``code`` (a 财神 that passes up a win asks first: 飘); the session
        plays it if it is legal."""
        game = self.game()
        try:
            t = tile_of(code)
        except ValueError:
            return
        action = Action(0, "discard", t)
        if t == game.caishen and not self.confirm_piao and game.can_win_now(0) is not None:
            self.confirm_piao = True  # 飘 would pass up a win: ask first
            self.render()
            return
        self.act(action)

    def press(self, button: view.Button) -> None:
        """A button of the action bar."""
        if button.engine is not None:
            self.act(button.engine)
        elif button.action == "cancel":
            self.confirm_piao = False
            self.render()
        elif button.action == "pass":  # own turn: put the 胡/杠 offers away
            self.dismissed = True
            self.render()

    def show_offers(self) -> None:
        """Bring back the 胡/杠 offers put away by pass."""
        self.dismissed = False
        self.render()

    def move_pick(self, step: int) -> bool:
        """←/→: choose the next discardable tile (raised, focused); Enter discards it."""
        st = self.state()
        order = view.hand_order(st)
        legal = {a.tile for a in st.legal if a.kind == "discard"}
        enabled = [i for i, t in enumerate(order) if t in legal]
        if not enabled:
            return False
        self.raised = None  # a key chooses: no second tap is awaited
        if self.pick in enabled:
            at = enabled.index(self.pick) + step
            self.pick = enabled[at % len(enabled)]
        else:
            self.pick = enabled[-1] if step < 0 else enabled[0]
        self.render()
        self.focus(f"#hand > button:nth-child({self.pick + 1})")
        return True

    def picked_code(self) -> str | None:
        """Enter: the code of the tile chosen with ←/→ (None when there is none)."""
        if self.pick is None:
            return None
        order = view.hand_order(self.state())
        return view.code(order[self.pick]) if self.pick < len(order) else None
