"""The scenario bot: plays a scenario's script for its seat, else the plainest move."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Action
from ..observation import Observation
from .analysis import Choice


class ScriptedBot:
    """Plays ``script``'s actions for ``seat`` in order, each once, when legal; otherwise
    passes on a claim and throws the tile it drew (so a deal goes the way it was written).

    >>> bot = ScriptedBot(["2 pass", "1 discard 3m"], seat=2)
    >>> len(bot.script)
    1
    """

    level = "scripted"

    def __init__(self, script: Sequence[str], seat: int):
        self.script = [a for a in map(Action.parse, script) if a.seat == seat]
        self.played: set[int] = set()  # indices into script already played

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        if not legal:
            raise ValueError("no legal action to choose from")
        for i, a in enumerate(self.script):
            if i not in self.played and a in legal:
                self.played.add(i)
                return Choice(a, "bot.scripted")
        for a in legal:
            if a.kind == "pass":
                return Choice(a, "bot.pass")
        drawn = obs.last_tile
        for a in legal:
            if a.kind == "discard" and a.tile == drawn:
                return Choice(a, "bot.scripted_drawn", {"tname": a.tile})
        return Choice(next(a for a in legal if a.kind == "discard"), "bot.scripted_drawn",
                      {"tname": next(a for a in legal if a.kind == "discard").tile})
