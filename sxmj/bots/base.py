"""The bot protocol, and the frame every level shares: rob when you can, then turn or claim."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..game import OWN_KONGS, Action, Phase
from ..observation import Observation
from ..wall import Rng
from .analysis import Choice, DiscardOption, discard_choice, discard_options


class Policy(Protocol):
    """Anything that picks one of the legal actions from an observation."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        """One of ``legal``, with its reason; ``obs`` is all it may look at."""
        ...


class Strategy:
    """A level's decisions: :meth:`turn` on its own turn, :meth:`claim` on a discard.

    Subclasses override :meth:`pick_discard`, :meth:`claim` and :meth:`kong_keeps_pace`
    (and hard the whole :meth:`turn`); ``seed`` drives any whims.
    """

    level = ""

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        if not legal:
            raise ValueError("no legal action to choose from")
        if obs.phase == Phase.ROB:
            hu = next((a for a in legal if a.kind == "hu"), None)
            if hu is not None:
                return Choice(hu, "bot.rob")
        if obs.phase == Phase.TURN:
            return self.turn(obs, legal)
        return self.claim(obs, legal)

    def turn(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        hu = next((a for a in legal if a.kind == "hu"), None)
        if hu is not None:
            return Choice(hu, "bot.win")
        return self.discard_or_kong(obs, legal)

    def discard_or_kong(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        """The best discard, unless a kong keeps the hand's pace."""
        options = discard_options(obs, live=self.level != "easy")
        best = self.pick_discard(obs, options)
        for k in (a for a in legal if a.kind in OWN_KONGS):
            if self.kong_keeps_pace(obs, k, best):
                return Choice(k, "bot.kong", {"tname": k.tile})
        return discard_choice(obs.seat, best)

    def pick_discard(self, obs: Observation, options: list[DiscardOption]) -> DiscardOption:
        raise NotImplementedError

    def kong_keeps_pace(self, obs: Observation, kong: Action, best: DiscardOption) -> bool:
        return True

    def claim(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        raise NotImplementedError
