"""``expert`` (专家): hard's judgement, checked by search at decision time.

For each decision the expert lists a few candidates — hard's choice and its
closest rivals — and plays each out over the same determinized guesses
(:mod:`.search`). It takes the candidate with the best mean payment to its seat,
but leaves hard's choice only when the paired gain clears its own noise:
ties (within the noise) go to hard. Easy decisions (one legal action, or a win
that hard would take) return at once, without searching.

Sampling is fixed (``samples`` guesses from ``seed``), so a match replays the
same under CPython and Pyodide; the page may pass ``stop`` to cut a slow search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ..game import OWN_KONGS, Action, Phase
from ..observation import Observation
from .analysis import Choice, discard_options
from .hard import HardStrategy
from .search import Estimate, estimate_steps, paired_gain

DISCARD_CANDIDATES = 3  # hard's best discards to search
SAMPLES = 20
NOISE = 2.0  # leave hard's choice only when the gain exceeds this many standard errors


class ExpertStrategy(HardStrategy):
    level = "expert"
    noise = NOISE

    def __init__(self, seed: int = 0, samples: int = SAMPLES,
                 stop: Callable[[], bool] | None = None):
        super().__init__(seed)
        self.seed = seed
        self.samples = samples
        self.stop = stop
        self.decisions = 0  # a fresh stream of guesses per decision
        self._pending: tuple[list[Estimate], Choice] | None = None

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        choice = None
        for choice in self.think(obs, legal):
            if self.stop is not None and choice is None and self.stop():
                break
        return choice if choice is not None else self.settle()

    def think(self, obs: Observation, legal: Sequence[Action]) -> Iterator[Choice | None]:
        """The search one guess at a time: ``None`` after each (a page yields to its event
        loop there, and may stop: :meth:`settle` then decides on what was played out), the
        choice last. Easy decisions yield their choice at once."""
        hard = super().choose(obs, legal)
        self._pending = None
        if len(legal) == 1 or obs.phase == Phase.ROB or hard.action.kind == "hu":
            yield hard
            return
        candidates = self.candidates(obs, legal, hard.action)
        if len(candidates) < 2:
            yield hard
            return
        self.decisions += 1
        seed = self.seed * 1_000_003 + self.decisions
        for estimates in estimate_steps(obs, candidates, self.samples, seed):
            self._pending = (estimates, hard)
            yield None
        yield self.settle()

    def settle(self) -> Choice:
        """Decide on the guesses played out so far (at least one)."""
        assert self._pending is not None, "settle() before any guess was played"
        estimates, hard = self._pending
        self._pending = None
        base = estimates[0]  # hard's choice
        best = max(estimates[1:], key=lambda e: e.mean)
        gain, se = paired_gain(best, base)
        if gain > self.noise * se and gain > 0:
            return self.explain(best, base)
        return self.explain(base, best)

    def candidates(self, obs: Observation, legal: Sequence[Action],
                   hard: Action) -> list[Action]:
        """Hard's choice first, then its rivals: every claim option, the wins and kongs
        on offer, and hard's next-best discards."""
        if obs.phase == Phase.CLAIM:
            return [hard] + [a for a in legal if a != hard]
        out = [hard]
        out += [a for a in legal if a.kind == "hu" or a.kind in OWN_KONGS and a != hard]
        for o in self.ranked_discards(obs, discard_options(obs))[:DISCARD_CANDIDATES]:
            a = next((x for x in legal if x.kind == "discard" and x.tile == o.tile), None)
            if a is not None and a not in out:
                out.append(a)
        return out

    def explain(self, chosen: Estimate, rival: Estimate) -> Choice:
        """The choice with the numbers behind it: expected points and win rate of the
        chosen action against its closest rival."""
        params = {"move": _move(chosen.action), "points": f"{chosen.mean:+.1f}",
                  "win": round(100 * chosen.win_rate), "move_rival": _move(rival.action),
                  "rival_points": f"{rival.mean:+.1f}", "samples": len(chosen.values)}
        return Choice(chosen.action, "bot.expert", params)


def _move(a: Action) -> str:
    """An action for a reason's ``move`` parameter: its kind and tile code."""
    from ..tiles import code, format_tiles

    if a.kind == "chi":
        return f"chi {format_tiles(a.tiles)}"
    return a.kind if a.tile is None else f"{a.kind} {code(a.tile)}"
