"""Computer opponents at four levels: ``easy``, ``normal``, ``hard`` and ``expert``.

A bot is a :class:`Policy`: ``choose(obs, legal) -> Choice``. It sees only its
seat's :class:`~sxmj.observation.Observation` and picks one of the legal actions;
it uses the same shape functions as the referee, so it can never disagree with
the rules. Every choice carries a one-sentence reason (a ``bot.*`` message code)
in 中文 and English, shown by the player's assist.

- :mod:`.analysis` — what every level reads off an observation (and the race model);
- :mod:`.easy`, :mod:`.normal`, :mod:`.hard`, :mod:`.expert` — one strategy per level
  (expert searches: :mod:`.search` plays determinized guesses out);
- :mod:`.scripted` — the scenario bot, the same protocol.

A new level is a :class:`~.base.Strategy` subclass in its own module, added to
:data:`STRATEGIES`.

>>> from sxmj.match import Match
>>> m = Match(seed=5)
>>> seat = m.game.to_move()[0]
>>> choice = Bot("normal").choose(m.game.observation(seat), m.game.legal_actions(seat))
>>> choice.action in m.game.legal_actions(seat)
True
"""

from __future__ import annotations

from .analysis import Choice, DiscardOption, discard_options, tile_waits
from .base import Policy, Strategy
from .easy import EasyStrategy
from .expert import ExpertStrategy
from .hard import HardStrategy
from .normal import NormalStrategy
from .scripted import ScriptedBot, ScriptedTable

STRATEGIES: dict[str, type[Strategy]] = {
    "easy": EasyStrategy, "normal": NormalStrategy, "hard": HardStrategy,
    "expert": ExpertStrategy}
LEVELS = tuple(STRATEGIES)


def Bot(level: str = "normal", seed: int = 0) -> Strategy:  # noqa: N802 - reads as a class
    """The bot of ``level`` (one of :data:`LEVELS`); ``seed`` drives the easy bot's whims."""
    if level not in STRATEGIES:
        raise ValueError(f"unknown bot level {level!r} (use {', '.join(LEVELS)})")
    return STRATEGIES[level](seed)


__all__ = ["LEVELS", "STRATEGIES", "Bot", "Choice", "DiscardOption", "EasyStrategy",
           "ExpertStrategy",
           "HardStrategy", "NormalStrategy", "Policy", "ScriptedBot", "ScriptedTable", "Strategy",
           "discard_options", "tile_waits"]
