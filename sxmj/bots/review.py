"""Hand review (复盘): where did a player's decisions lose points?

The expert replays a record and, at every decision a seat made with more than
one legal action, plays out the action taken and its own candidates over the
same determinized guesses, from that seat's observation at that moment. A
decision is flagged when the best alternative beats the played action by more
than ``threshold`` points *and* by more than its noise.

>>> from sxmj.match import Match
>>> from sxmj.record import to_record
>>> m = Match(seed=2)
>>> r = review(to_record(m), seat=0)  # nothing played yet: nothing to review
>>> (r.decisions, r.flagged)
(0, [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..game import Action
from ..match import Match
from ..messages import render
from ..record import replay
from ..winning import Shape, distance
from .analysis import minus
from .expert import ExpertStrategy, _move
from .search import Estimate, estimate_steps, paired_gain

THRESHOLD = 1.0  # points a decision must cost to be flagged
NOISE = 1.0  # ... and standard errors of the paired gain (a review may point, not decide)
SAMPLES = 24


class Cancelled(Exception):
    """Raised inside the replay when the progress callback asks to stop."""


@dataclass
class Flag:
    """One decision that cost points: what was played, what was better, by how much."""

    hand: int
    index: int  # the action's index in the record's hand, from 0
    played: Action
    better: Action
    loss: float
    reason: dict[str, Any]  # the message params of the better move (code bot.expert)

    def reason_in(self, lang: str) -> str:
        return render("bot.expert", self.reason, lang)

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "index": self.index, "played": str(self.played),
                "better": str(self.better), "loss": round(self.loss, 1),
                "reason": self.reason_in("en")}


@dataclass
class Review:
    seat: int
    decisions: int = 0
    flagged: list[Flag] = field(default_factory=list)
    discards: int = 0
    efficient: int = 0  # discards that kept the hand as close to ready as any other

    @property
    def total_loss(self) -> float:
        return sum(f.loss for f in self.flagged)

    def summary(self, lang: str = "en") -> str:
        """"3 decisions cost about 7 points; your tile efficiency was good"."""
        share = self.efficient / self.discards if self.discards else 1.0
        grade = "good" if share >= 0.9 else "fair" if share >= 0.7 else "weak"
        params = {"count": len(self.flagged), "points": round(self.total_loss),
                  "grade": render(f"review.grade_{grade}", {}, lang),
                  "efficient": self.efficient, "discards": self.discards}
        code = "review.summary" if self.flagged else "review.summary_clean"
        return render(code, params, lang)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions,
                "flagged": [f.to_json() for f in self.flagged],
                "total_loss": round(self.total_loss, 1)}


def review(record: dict[str, Any] | str, seat: int, hand: int | None = None,
           threshold: float = THRESHOLD, samples: int = SAMPLES, seed: int = 0,
           progress: Callable[[int, int], bool] | None = None) -> Review:
    """Review ``seat``'s decisions in a record (every hand, or only ``hand``).

    ``progress(done, total)`` is called after each decision reviewed; returning
    False cancels (:class:`Cancelled` is raised). Raises the record's own
    :class:`~sxmj.record.RecordError` for a record that doesn't replay.
    """
    result = Review(seat)
    for done, total, partial in review_steps(record, seat, hand, threshold, samples, seed):
        result = partial
        if done and progress is not None and progress(done, total) is False:
            raise Cancelled
    return result


def review_steps(record: dict[str, Any] | str, seat: int, hand: int | None = None,
                 threshold: float = THRESHOLD, samples: int = SAMPLES, seed: int = 0,
                 per_guess: bool = False) -> Iterator[tuple[int, int, Review]]:
    """:func:`review` one decision at a time: yields (decisions reviewed, decisions in
    all, the review so far) — first (0, total, …) once the record has replayed. A page
    yields to its event loop between steps and cancels by no longer asking.

    ``per_guess`` cuts each decision finer, for a page whose tasks must stay short: a
    step is then one guess (every candidate played out once), and both counts are in
    guesses (``samples`` per decision). The review is the same either way.
    """
    expert = ExpertStrategy(seed, samples=samples)
    result = Review(seat)
    todo: list[tuple[int, int, Any, list[Action], Action]] = []

    def visit(h: int, index: int, match: Match, action: Action) -> None:
        game = match.game
        if action.seat != seat or (hand is not None and h != hand):
            return
        legal = game.legal_actions(seat)
        if len(legal) < 2:
            return
        todo.append((h, index, game.observation(seat), legal, action))

    replay(record, visit=visit)
    unit = samples if per_guess else 1
    yield 0, len(todo) * unit, result
    for n, (h, index, obs, legal, played) in enumerate(todo):
        result.decisions += 1
        guesses = 0
        for guesses in _review_one(expert, result, h, index, obs, legal, played, threshold,
                                   samples, seed * 7919 + n):
            if per_guess and guesses < samples:
                yield n * unit + guesses, len(todo) * unit, result
        yield (n + 1) * unit, len(todo) * unit, result


def _review_one(expert: ExpertStrategy, result: Review, h: int, index: int, obs: Any,
                legal: list[Action], played: Action, threshold: float, samples: int,
                seed: int) -> Iterator[int]:
    """Review one decision, yielding the number of guesses played after each; the
    decision is counted, and flagged if it cost points, before the generator ends."""
    if played.kind == "discard":
        result.discards += 1
        shape = Shape.of(obs.playing_hand, obs.caishen)
        after = {t: distance(minus(shape, t, obs.caishen), obs.sets_needed)
                 for t in (a.tile for a in legal if a.kind == "discard") if t is not None}
        if played.tile is not None and after.get(played.tile, 99) <= min(after.values()):
            result.efficient += 1
    hard = super(ExpertStrategy, expert).choose(obs, legal).action
    candidates = [played] + [a for a in expert.candidates(obs, legal, hard) if a != played]
    if len(candidates) < 2:
        return
    estimates: list[Estimate] = []
    for i, step in enumerate(estimate_steps(obs, candidates, samples, seed)):
        estimates = step
        yield i + 1
    mine = estimates[0]
    best = max(estimates[1:], key=lambda e: e.mean)
    gain, se = paired_gain(best, mine)
    if gain > threshold and gain > NOISE * se:
        reason = {"move": _move(best.action), "points": f"{best.mean:+.1f}",
                  "win": round(100 * best.win_rate), "move_rival": _move(played),
                  "rival_points": f"{mine.mean:+.1f}", "samples": len(best.values)}
        result.flagged.append(Flag(h, index, played, best.action, gain, reason))
