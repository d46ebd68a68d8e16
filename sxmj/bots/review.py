"""Hand review (复盘): which of a player's decisions lost points, sure enough to say so.

The review replays a record and judges every decision the seat made with more than one
legal action, from that seat's observation at that moment, with the judgement every piece
of advice comes from (:mod:`.judge`): hard's choice, and the closest rivals and the move
played, played out in paired playouts. A decision is flagged only when another move
*beats* the one played by the judgement's test — more than :data:`~.judge.THRESHOLD`
points on average (:data:`~.judge.UNSUSPECTED_THRESHOLD` where the race model finds the move
played as close to ready as the best: only the playouts speak against it then), with the
paired interval of the gain excluding zero. So a decision made as the assist suggested is
flagged only where the judgement itself leaves hard's choice, and a self-drawn win is
flagged only when passing it (to 飘 or for a 暴头 wait) wins more by that same test. The
reason says what the better move does for the hand (:func:`why`), never how it was counted.

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
from ..messages import MESSAGES, render
from ..observation import Observation
from ..record import replay
from ..tiles import code, format_tiles
from ..winning import Shape, distance, is_baotou_ready, waits
from .analysis import analyse, minus
from .hard import HardStrategy
from .judge import (
    CONFIRM_AFTER,
    THRESHOLD,
    UNSUSPECTED_THRESHOLD,
    Budget,
    Judgement,
    judge_steps,
)

SAMPLES = 24  # guesses a decision: a hand of about 15 decisions in about 20 s in the page
MOST = 192  # guesses a decision may take while a rival's gain is not yet sure
MOST_SUSPECT = 1536  # ... when the move played left the hand further from ready: such a
# discard typically costs 1–4 points (20 planted in scripts/bench_review.py, played out over
# 2,000 guesses: 1.0 to 7.6, and one won 2.1 more than hard's choice), which 192 guesses
# tell from noise in about half and 1,536 in about nine of ten. Only the move played and the
# rivals in doubt play on, and a real blunder usually stands at CONFIRM long before. A
# decision whose rival gains more than the threshold by EXTEND (one) standard error at MOST,
# but doesn't beat the move played surely yet, gets this budget too (judge_steps): a real
# 4-point flag against the assist's own move needs it.


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
    reason: dict[str, Any]  # the message params of the reason (code ``why``)
    why: str = "review.why_points"  # the reason's message code (``review.why_*``)

    def reason_in(self, lang: str) -> str:
        return render(self.why, self.reason, lang)

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

    def to_wire(self) -> dict[str, Any]:
        """Everything in the review as plain JSON data, for a page's review worker to send
        back (:meth:`from_wire` gives the same review: every flag's reason renders the same
        in every language).

        >>> r = Review(0, decisions=3, discards=2, efficient=2)
        >>> Review.from_wire(r.to_wire()) == r
        True
        """
        return {"seat": self.seat, "decisions": self.decisions, "discards": self.discards,
                "efficient": self.efficient,
                "flagged": [{"hand": f.hand, "index": f.index, "played": str(f.played),
                             "better": str(f.better), "loss": f.loss, "why": f.why,
                             "reason": dict(f.reason)} for f in self.flagged]}

    @staticmethod
    def from_wire(data: Any) -> Review:
        """The review :meth:`to_wire` wrote; raises ValueError naming what is wrong with
        anything else."""
        def need(where: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
            value = where.get(key) if isinstance(where, dict) else None
            if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
                raise ValueError(f"review wire: {key!r} is missing or not a {kind}")
            return value

        review = Review(need(data, "seat", int), need(data, "decisions", int),
                        discards=need(data, "discards", int),
                        efficient=need(data, "efficient", int))
        for flag in need(data, "flagged", list):
            why = need(flag, "why", str)
            if not why.startswith("review.why_") or why not in MESSAGES:
                raise ValueError(f"review wire: {why[:40]!r} is not a review's reason")
            made = Flag(
                need(flag, "hand", int), need(flag, "index", int),
                Action.parse(need(flag, "played", str)), Action.parse(need(flag, "better", str)),
                float(need(flag, "loss", (int, float))), dict(need(flag, "reason", dict)), why)
            try:  # a reason that doesn't render is refused here, not on the panel
                [made.reason_in(lang) for lang in ("zh", "en")]
            except (KeyError, IndexError, TypeError, ValueError) as err:
                raise ValueError(f"review wire: the reason of {why!r} does not render: "
                                 f"{err!r}"[:200]) from None
            review.flagged.append(made)
        return review


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
    step is then one playout (one candidate in one guess), and both counts are in guesses
    (``samples`` per decision). The review is the same either way.
    """
    strategy = HardStrategy(seed)
    result = Review(seat)
    todo: list[tuple[int, int, Observation, list[Action], Action]] = []

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
        _count_efficiency(result, obs, legal, played)
        judgement = None
        budget = Budget(samples, most=max(samples, MOST), most_suspect=MOST_SUSPECT,
                        confirm_after=CONFIRM_AFTER,
                        unsuspected_threshold=UNSUSPECTED_THRESHOLD, fine=per_guess)
        for judgement in judge_steps(obs, legal, budget, seed * 7919 + n, played, strategy):
            guesses = judgement.guesses
            if per_guess and not judgement.settled:  # a short task a step; the bar waits
                done = min(guesses, samples - 1)  # while a decision takes more guesses
                yield n * unit + done, len(todo) * unit, result
        assert judgement is not None
        flag = _flag(judgement, h, index, obs, played, threshold)
        if flag is not None:
            result.flagged.append(flag)
        yield (n + 1) * unit, len(todo) * unit, result


def _count_efficiency(result: Review, obs: Observation, legal: list[Action],
                      played: Action) -> None:
    """A discard that kept the hand as close to ready as any other counts as efficient."""
    if played.kind != "discard":
        return
    result.discards += 1
    shape = Shape.of(obs.playing_hand, obs.caishen)
    after = {t: distance(minus(shape, t, obs.caishen), obs.sets_needed)
             for t in (a.tile for a in legal if a.kind == "discard") if t is not None}
    if played.tile is not None and after.get(played.tile, 99) <= min(after.values()):
        result.efficient += 1


def _flag(judgement: Judgement, h: int, index: int, obs: Observation, played: Action,
          threshold: float) -> Flag | None:
    """The flag of a decision if another move beats the one played (by ``threshold``
    points, and with the paired interval excluding zero)."""
    better = judgement.best_against(played)
    if better is None:
        return None
    gain, _ = judgement.gain(better, played)
    if gain <= threshold:
        return None
    code, params = why(obs, played, better, gain)
    return Flag(h, index, played, better, gain, params, code)


def _after(obs: Observation, t: int) -> tuple[int, int, int, bool]:
    """How a turn hand stands after discarding ``t``: (distance to ready, live useful
    tiles, kinds of waits when ready, 暴头-ready)."""
    caishen = obs.caishen
    kept = minus(Shape.of(obs.playing_hand, caishen), t, caishen)
    unseen = obs.unseen()
    d, useful, live = analyse(kept, obs.sets_needed, caishen, unseen)
    kinds = len(waits(kept, caishen)) if d == 0 else 0
    return d, live, kinds, is_baotou_ready(kept)


def why(obs: Observation, played: Action, better: Action, gain: float
        ) -> tuple[str, dict[str, Any]]:
    """The reason a flagged decision gives, in words about the hand: a message code
    (``review.why_*``) and its parameters.

    >>> from sxmj.game import Action
    >>> from sxmj.match import Match
    >>> g = Match(seed=4).game
    >>> obs = g.observation(g.to_move()[0])
    >>> why(obs, Action(obs.seat, "pass"), Action(obs.seat, "pass"), 2.0)[0]
    'review.why_points'
    """
    points = f"{gain:.1f}"
    base: dict[str, Any] = {"move": _words(better), "move_played": _words(played),
                            "points": points}
    if played.kind == "hu" and better.kind == "discard" and better.tile is not None:
        code = "review.why_piao" if better.tile == obs.caishen else "review.why_wait_baotou"
        return code, {**base, "tname": better.tile}
    if better.kind == "hu":
        return "review.why_take_win", base
    if played.kind == "discard" and better.kind == "discard" and played.tile is not None \
            and better.tile is not None and len(obs.playing_hand) % 3 == 2:
        d1, live1, kinds1, bao1 = _after(obs, played.tile)
        d2, live2, kinds2, bao2 = _after(obs, better.tile)
        tiles = {"tname": better.tile, "tname_played": played.tile}
        if bao2 and not bao1:
            return "review.why_baotou", {**base, **tiles}
        if d1 > d2 == 0:
            return "review.why_ready", {**base, **tiles, "distance_played": d1}
        if d1 > d2:
            return "review.why_distance", {**base, **tiles, "distance": d2,
                                           "distance_played": d1}
        if d1 == d2 == 0 and (kinds2, live2) != (kinds1, live1):
            return "review.why_waits", {**base, **tiles, "kinds": kinds2, "live": live2,
                                        "kinds_played": kinds1, "live_played": live1}
        if d1 == d2 and live2 > live1:
            return "review.why_live", {**base, **tiles, "live": live2,
                                       "live_played": live1}
    if better.kind == "pass" and played.kind in ("chi", "peng", "minggang"):
        return "review.why_pass", base
    if played.kind == "pass" and better.kind in ("chi", "peng", "minggang"):
        return "review.why_claim", base
    return "review.why_points", base


def _words(a: Action) -> str:
    """An action for a message's ``move`` parameter (:func:`sxmj.messages.render` names
    its tiles)."""
    if a.kind == "chi":
        return f"chi {format_tiles(a.tiles)}"
    return a.kind if a.tile is None else f"{a.kind} {code(a.tile)}"
