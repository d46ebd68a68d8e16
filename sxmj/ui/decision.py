"""The player's decision in progress, between the table showing it and an action applied.

What is legal always comes from the engine (``legal_actions``); this only remembers how far
the player got: the tile chosen with ←/→ (``pick``), the 飘 question (``confirm_piao``), and
the 胡/杠 offers put away (``dismissed``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..game import Action, Game
from ..tiles import tile as tile_of
from . import view


class Decision:
    """Given the live game (``game``), ``act`` to play a legal action, ``render``, the
    table's ``state`` and ``focus`` for the keyboard."""

    def __init__(self, game: Callable[[], Game], act: Callable[[Action], None],
                 render: Callable[[], None], state: Callable[[], view.TableState],
                 focus: Callable[[str], bool]):
        self.game = game
        self.act = act
        self.render = render
        self.state = state
        self.focus = focus
        self.pick: int | None = None
        self.confirm_piao = False
        self.dismissed = False

    def reset(self) -> None:
        """A new hand: nothing chosen, nothing asked, nothing put away."""
        self.confirm_piao = False
        self.dismissed = False
        self.pick = None

    def settle(self) -> None:
        """An action was chosen: the question and the put-away offers are over."""
        self.confirm_piao = False
        self.dismissed = False

    def discard(self, code: str) -> None:
        """Discard tile ``code`` if legal (a 财神 that passes up a win asks first: 飘)."""
        game = self.game()
        try:
            t = tile_of(code)
        except ValueError:
            return
        action = Action(0, "discard", t)
        if action not in game.legal_actions(0):
            return
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
