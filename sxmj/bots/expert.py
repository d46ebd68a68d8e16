"""``expert`` (专家): the judgement of every decision (:mod:`.judge`), at play time.

The expert plays what the judgement chooses: hard's choice (the race model), left only
when a rival wins more points in paired playouts by the judgement's test — the same test
by which the review (复盘) flags a decision, and from the same guesses a review of this
decision would play first. Easy decisions (one legal action, or a win that hard would
take) return at once, without searching, and a rival stops being searched (:data:`SCREENS`)
while it is not even ahead of hard's choice by the threshold.

Sampling is fixed (``samples`` guesses from ``seed``), so a match replays the same under
CPython and Pyodide; the page passes ``stop`` to cut a slow search (the judgement then
stands on the guesses played out).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ..game import Action
from ..observation import Observation
from .analysis import Choice
from .hard import HardStrategy
from .judge import Budget, Judgement, judge_steps
from .search import Estimate

SAMPLES = 16  # guesses a decision at play time: the fewest the judgement trusts
SCREENS = (4, 8, 12)  # guesses after which only the rivals ahead of hard's choice by the
# judgement's threshold play on: to leave hard at 16 a rival needs a gain of three standard
# errors (about 10 points), and in 768 searched decisions none behind at 8 got there. A
# screen only takes rivals away (the rest play the same guesses), so the expert leaves hard
# no more often than without it; the one at 4 took the p95 from about 155 ms to 85


class ExpertStrategy(HardStrategy):
    level = "expert"

    def __init__(self, seed: int = 0, samples: int = SAMPLES,
                 stop: Callable[[], bool] | None = None):
        super().__init__(seed)
        self.seed = seed
        self.samples = samples
        self.stop = stop
        self.decisions = 0  # a fresh stream of guesses per decision
        self._pending: Judgement | None = None
        self._hard: Choice | None = None

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        choice = None
        for choice in self.think(obs, legal):
            if self.stop is not None and choice is None and self.stop():
                break
        return choice if choice is not None else self.settle()

    def think(self, obs: Observation, legal: Sequence[Action]) -> Iterator[Choice | None]:
        """The search one playout at a time: ``None`` after each (a page yields to its event
        loop there, and may stop: :meth:`settle` then decides on what was played out), the
        choice last. Easy decisions yield their choice at once."""
        hard = super().choose(obs, legal)
        self._pending, self._hard = None, hard
        self.decisions += 1
        seed = self.seed * 1_000_003 + self.decisions
        steps = judge_steps(obs, legal, Budget(self.samples, screens=SCREENS, fine=True), seed,
                            strategy=self._plain())
        for judgement in steps:
            if judgement.settled:  # nothing to search
                yield hard
                return
            self._pending = judgement
            yield None
        yield self.settle()

    def _plain(self) -> HardStrategy:
        """Hard's judgement (the default and the playouts' own play), without the search."""
        return HardStrategy(self.seed)

    def settle(self) -> Choice:
        """Decide on the guesses played out so far (at least one)."""
        assert self._pending is not None and self._hard is not None, \
            "settle() before any guess was played"
        judgement, hard = self._pending, self._hard
        self._pending = None
        choice = judgement.choice
        if choice == judgement.default:
            return hard  # hard's own reason: the judgement kept its choice
        best, base = judgement.of(choice), judgement.of(judgement.default)
        assert best is not None and base is not None
        return self.explain(best, base)

    def explain(self, chosen: Estimate, rival: Estimate) -> Choice:
        """The choice with the numbers behind it: expected points and win rate of the
        chosen action against the default it beat."""
        params = {"move": _move(chosen.action), "points": f"{chosen.mean:+.1f}",
                  "win": round(100 * chosen.win_rate), "move_rival": _move(rival.action),
                  "rival_points": f"{rival.mean:+.1f}"}
        return Choice(chosen.action, "bot.expert", params)


def _move(a: Action) -> str:
    """An action for a reason's ``move`` parameter: its kind and tile code."""
    from ..tiles import code, format_tiles

    if a.kind == "chi":
        return f"chi {format_tiles(a.tiles)}"
    return a.kind if a.tile is None else f"{a.kind} {code(a.tile)}"
