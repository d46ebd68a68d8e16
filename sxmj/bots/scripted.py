"""The scenario bot: plays a scenario's script for its seat, else the plainest move."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Action, Game
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

    def __init__(self, script: Sequence[str], seat: int, done: Sequence[str] = ()):
        self.script = [a for a in map(Action.parse, script) if a.seat == seat]
        # the actions already played this hand (``done``: a hand resumed part-way); a
        # scripted action is played once, however often the script names it
        self.played = {str(a) for a in map(Action.parse, done)}

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        if not legal:
            raise ValueError("no legal action to choose from")
        for a in self.script:
            if str(a) not in self.played and a in legal:
                self.played.add(str(a))
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


class ScriptedTable:
    """A scenario's bots at seats 1–3, with a shortcut that plays a seat's move in a game
    (for the table's driver and for tests that walk a scenario)."""

    def __init__(self, script: Sequence[str], done: Sequence[str] = ()):
        self.bots = {s: ScriptedBot(script, s, done) for s in (1, 2, 3)}

    def action(self, game: Game, seat: int) -> Action:
        """What ``seat`` plays now, from its own observation."""
        return self.bots[seat].choose(game.observation(seat), game.legal_actions(seat)).action
