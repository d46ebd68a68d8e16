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

from collections.abc import Callable, Sequence

from ..game import OWN_KONGS, Action
from ..observation import Observation
from .analysis import Choice, discard_options
from .hard import HardStrategy
from .search import Estimate, evaluate_candidates, paired_gain

DISCARD_CANDIDATES = 3  # hard's best discards to search
SAMPLES = 20
NOISE = 2.0  # leave hard's choice only when the gain exceeds this many standard errors


class ExpertStrategy(HardStrategy):
    level = "expert"

    def __init__(self, seed: int = 0, samples: int = SAMPLES,
                 stop: Callable[[], bool] | None = None):
        super().__init__(seed)
        self.seed = seed
        self.samples = samples
        self.stop = stop
        self.decisions = 0  # a fresh stream of guesses per decision

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        hard = super().choose(obs, legal)
        if len(legal) == 1 or obs.phase == "rob" or hard.action.kind == "hu":
            return hard
        candidates = self.candidates(obs, legal, hard.action)
        if len(candidates) < 2:
            return hard
        return self.search(obs, candidates, hard)

    def candidates(self, obs: Observation, legal: Sequence[Action],
                   hard: Action) -> list[Action]:
        """Hard's choice first, then its rivals: every claim option, the wins and kongs
        on offer, and hard's next-best discards."""
        if obs.phase == "claim":
            return [hard] + [a for a in legal if a != hard]
        out = [hard]
        out += [a for a in legal if a.kind == "hu" or a.kind in OWN_KONGS and a != hard]
        for o in self.ranked_discards(obs, discard_options(obs))[:DISCARD_CANDIDATES]:
            a = next((x for x in legal if x.kind == "discard" and x.tile == o.tile), None)
            if a is not None and a not in out:
                out.append(a)
        return out

    def search(self, obs: Observation, candidates: list[Action], hard: Choice) -> Choice:
        self.decisions += 1
        estimates = evaluate_candidates(obs, candidates, self.samples,
                                        self.seed * 1_000_003 + self.decisions, self.stop)
        base = estimates[0]  # hard's choice
        best = max(estimates[1:], key=lambda e: e.mean)
        gain, se = paired_gain(best, base)
        if gain > NOISE * se and gain > 0:
            return self.explain(best, base, estimates)
        return self.explain(base, best, estimates, hard)

    def explain(self, chosen: Estimate, rival: Estimate, estimates: list[Estimate],
                        hard: Choice | None = None) -> Choice:
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
