"""The judgement of a decision: one brain behind every piece of advice.

The assist's suggestion, the expert's choice and the review's (复盘) "better" move all come
from :func:`judge_steps`. A decision is judged in two parts:

1. **The race model** (:mod:`.hard`) ranks the moves at once: hard's choice is the
   judgement's *default*, and what the assist suggests.
2. **Paired playouts** value the default and its closest rivals in expected points for this
   seat, over the same guesses of the hidden tiles (:mod:`.search`). In each playout the
   judged seat plays on as hard would (its own hand well) and the other seats by the fast
   greedy rule: the playouts judge moves by the same play that the race model assumes.
   Each seat draws its own stream of a guess's wall (:class:`~sxmj.wall.SeatStreamWall`),
   so a claim doesn't deal every later tile to another seat: two moves on one guess meet
   the same draws, and their difference is the moves' own.

A rival *beats* a move only when it wins more points on average by more than
:data:`THRESHOLD` and the paired interval of the gain excludes zero (:data:`MARGIN` standard
errors): the judgement leaves its default only then, and the review flags a decision only
then (by :data:`UNSUSPECTED_THRESHOLD` where the race model finds the move played as close to
ready as the best). A win hard would take is never searched: the judgement trusts it.

>>> from sxmj.match import Match
>>> m = Match(seed=3)
>>> g = m.game
>>> obs, legal = g.observation(g.to_move()[0]), g.legal_actions(g.to_move()[0])
>>> j = judge(obs, legal, samples=2, seed=1)
>>> j.default in legal and j.choice in legal
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..game import OWN_KONGS, Action, Game, Phase
from ..observation import Observation
from ..wall import Rng
from .analysis import discard_options
from .hard import HardStrategy
from .search import Estimate, greedy, paired_gain, playout, playout_steps, sample_hidden

THRESHOLD = 1.0  # points a rival must gain on average to beat a move
UNSUSPECTED_THRESHOLD = 2.0  # ... in a review, a move the race model doesn't find worse (a
# claim, a win, or a discard as close to ready as the best): there only the playouts speak
# against it, and they misjudge (departures from hard's choice lost ~1.4 points each), so a
# 1-2 point verdict is within their own error. Such flags were also the ones another sampling
# seed didn't keep (of 20 seen under either seed, 9 kept; of the planted blunders, 34 of 40)
MARGIN = 2.0  # ... and standard errors of that gain: its paired ~95 % interval excludes zero
OVERTURN = 3.0  # standard errors to overturn the race model's own choice: it ranks moves
# better than the playouts do where they disagree (measured: departures lost ~1.4 points
# each), so leaving it takes stronger evidence than confirming it
MIN_GUESSES = 16  # fewer guesses can't be trusted to say so: a playout's points have heavy
# tails (one guess in ten swings 30 points), so a handful of guesses often shows a small
# standard error by luck (measured: 8 guesses "proved" a gain of 4.6 ± 1.7 that 64 put at
# −0.1 ± 4.0)
CAP = 30  # points a playout's payment is clipped to (either way) when moves are compared:
# a rare giant hand (one guess in fifty pays 100+) otherwise swamps the gain's standard
# error; clipped, the same 96 guesses tell a 6-point blunder at 4 standard errors, not 2
CONFIRM = 3.0  # standard errors a flag is played out to (up to the review's most guesses)
# before it stands: a flag found at 2 stands at the edge of the test, where another sampling
# seed often falls short of it (measured before: 7 of 18 flags lost under seed 1)
SWING = 2 * CAP  # a rival is let go on a standard error never below SWING / (guesses + 1),
# what one more guess could move the mean by: late in a hand two moves often play out alike,
# and where they differ in one guess of ten, 24 guesses alike (about 1 in 12) showed a standard
# error of 0 and let a rival go at once that the other sampling seed found gaining 4.2 points
# (1126, index 40; measured 5 Dec)
DISCARD_RIVALS = 2  # hard's next-best discards played out beside its choice
LET_GO = 2.0  # standard errors by which a rival must fall short of THRESHOLD before a move
# the race model already finds worse (further from ready) is let go; any other doubtful
# rival goes at one. A look after every guess lets a real 2–4 point blunder go on its first
# unlucky stretch at one standard error (simulated with the planted blunders' measured costs
# and spreads: about 1 in 6 of those costing 3–4 points, whatever the budget); at two it
# plays on and is caught (scripts/bench_review.py: 16 -> 18 of 20). Every rival of such a
# move is held so (held were only the default and the rival gaining most, and one seed let a
# real 2-point gain go at 278 guesses that the other flagged). A rival is let go against
# THRESHOLD even where a flag needs UNSUSPECTED_THRESHOLD: one gaining between the two plays
# on, since more guesses may show it gains more (one let go at 70 guesses, −1.5 ± 1.7, was
# a 4.8-point flag under the other seed)
LET_GO_AFTER = 96  # ... and never before this many guesses: early standard errors are luck.
# Before them any rival is let go only LET_GO standard errors short: one short let a real
# 4-point gain over the assist's chow go at 28 guesses (−4.5 ± 5.4), where the other sampling
# seed played it out and flagged it (2 of the 5 flags lost under seed 1, measured 4 Dec)
EXTEND = 1.0  # standard errors by which a rival beating the move judged at ``most`` guesses
# earns ``most_suspect`` (judge_steps): at two, whether a real 3–5 point gain (SE about 2 at
# 192 guesses) got the budget to show itself was itself a coin flip between seeds
CONFIRM_AFTER = 192  # guesses before a review's flag stands (:func:`judge_steps`'s
# ``confirm_after``), and it stands only at a checkpoint: 192, 384, 768, 1,536 guesses.
# Stopping at the first look that clears CONFIRM lets luck decide: with a look after every
# guess, a rival gaining little crosses 3 standard errors now and then (heavy tails again),
# and stops there; another sampling seed doesn't repeat it (measured: 4 of the 5 flags lost
# under seed 1 had stood at 24 to 146 guesses, all at 3.0 to 3.7 standard errors; a planted
# blunder costing 1.1 had stood at 3.1 at 403). Letting go still happens at any look.


def seat_policy(seat: int, strategy: HardStrategy) -> Callable[[Game, int], Action]:
    """The playout policy: ``seat`` plays as ``strategy`` (hard) would from its own
    observation; every other seat by the greedy rule (fast: it never claims)."""

    def policy(game: Game, s: int) -> Action:
        if s != seat:
            return greedy(game, s)
        legal = game._legal(s)
        if len(legal) == 1:
            return legal[0]
        return strategy.choose(game.observation(s), legal).action

    return policy


@dataclass
class Judgement:
    """One decision judged: the default (hard's choice), every candidate's playouts over the
    same guesses (the default first), and the choice."""

    default: Action
    estimates: list[Estimate]
    settled: bool = False  # the decision needs no search (:func:`settled`): this is final
    threshold: float = THRESHOLD  # points a rival must gain to beat a move (:meth:`beats`)

    def of(self, action: Action) -> Estimate | None:
        """The playouts of ``action`` (None: it was not a candidate)."""
        return next((e for e in self.estimates if e.action == action), None)

    def gain(self, better: Action, worse: Action) -> tuple[float, float]:
        """Mean points ``better`` wins over ``worse`` in the same guesses, each payment
        clipped to ±:data:`CAP`, and its standard error (0 and infinity when either was
        not played out)."""
        a, b = self.of(better), self.of(worse)
        if a is None or b is None:
            return 0.0, float("inf")
        return paired_gain(_clipped(a), _clipped(b))

    def beats(self, better: Action, worse: Action) -> bool:
        """``better`` wins more points than ``worse`` by the judgement's test: by more than
        its threshold (:data:`THRESHOLD`) on average, and the paired interval excludes zero (by
        :data:`MARGIN` standard errors, :data:`OVERTURN` to leave the default)."""
        return self._passes(better, worse, *self.gain(better, worse))

    def _passes(self, better: Action, worse: Action, gain: float, se: float,
                margin: float | None = None) -> bool:
        """:meth:`beats`, given the gain and standard error already worked out (``margin``:
        these standard errors whatever ``worse`` is)."""
        a, b = self.of(better), self.of(worse)
        if a is None or b is None or min(len(a.values), len(b.values)) < MIN_GUESSES:
            return False
        if margin is None:
            margin = OVERTURN if worse == self.default else MARGIN
        return gain > self.threshold and gain > margin * se

    def best_against(self, action: Action) -> Action | None:
        """The candidate that beats ``action`` by the most, if any beats it."""
        rivals = [e for e in self.estimates if e.action != action
                  and self.beats(e.action, action)]
        if not rivals:
            return None
        return max(rivals, key=lambda e: self.gain(e.action, action)[0]).action

    def in_doubt(self, action: Action, suspect: bool = False,
                 confirm_after: int = 0) -> list[Action]:
        """The rivals that may beat ``action`` but don't yet surely: their gain is within a
        standard error of :data:`THRESHOLD` (:data:`LET_GO` in their first
        :data:`LET_GO_AFTER` guesses) or above it (more guesses would tell), or it
        beats ``action`` by less than :data:`CONFIRM` standard errors (a flag that would
        stand at the edge of the test: more guesses make it one another sampling seed
        keeps, or take it back), or while its guesses are not a checkpoint of
        ``confirm_after`` (:func:`checkpoint`). With ``suspect`` (the race model already
        finds ``action`` worse than the default) a rival is let go only after
        :data:`LET_GO_AFTER` guesses, and only when its gain falls :data:`LET_GO` standard
        errors short of the threshold (the default not while it gains anything at all).
        Any other rival is let go before :data:`LET_GO_AFTER` guesses only when it falls
        :data:`LET_GO` standard errors short, after them at one. To let a rival go, a
        standard error counts as at least :data:`SWING` / (guesses + 1): guesses that
        happen to play out alike are not evidence that the moves are alike."""
        out = []
        for e in self.estimates:
            a = e.action
            if a == action:
                continue
            gain, se = self.gain(a, action)
            if self._passes(a, action, gain, se):  # beats(), its gain already worked out
                if gain < CONFIRM * se or not checkpoint(len(e.values), confirm_after):
                    out.append(a)
                continue
            n = len(e.values)
            se = max(se, SWING / (n + 1))
            if suspect:
                if n < LET_GO_AFTER or gain + LET_GO * se > THRESHOLD \
                        or a == self.default and gain > 0:
                    out.append(a)
            elif gain + (LET_GO if n < LET_GO_AFTER else 1.0) * se > THRESHOLD:
                out.append(a)
        return out

    @property
    def choice(self) -> Action:
        """The default, unless a rival beats it."""
        better = self.best_against(self.default)
        return self.default if better is None else better

    @property
    def guesses(self) -> int:
        """Guesses played out so far (the most any candidate had)."""
        return max((len(e.values) for e in self.estimates), default=0)


def checkpoint(guesses: int, confirm_after: int) -> bool:
    """Whether a flag may stand after ``guesses``: always without ``confirm_after``, else at
    ``confirm_after`` times a power of two (a few looks, not one after every guess).

    >>> [n for n in range(1, 800) if checkpoint(n, 192)]
    [192, 384, 768]
    """
    if confirm_after <= 0:
        return True
    k, rest = divmod(guesses, confirm_after)
    return rest == 0 and k > 0 and k & (k - 1) == 0


def further_from_ready(obs: Observation, action: Action) -> bool:
    """``action`` is a discard that leaves the hand further from ready than the best one:
    the race model's plainest verdict, which the playouts then have to confirm."""
    if action.kind != "discard" or len(obs.playing_hand) % 3 != 2:
        return False
    options = {o.tile: o.distance for o in discard_options(obs, live=False)}
    return action.tile in options and options[action.tile] > min(options.values())


def _clipped(e: Estimate) -> Estimate:
    return Estimate(e.action, [max(-CAP, min(CAP, v)) for v in e.values], e.wins)


def candidates(obs: Observation, legal: Sequence[Action], default: Action,
               strategy: HardStrategy, played: Action | None = None) -> list[Action]:
    """What a judgement plays out: the default first, the move played (in a review), then
    the rivals — every claim option, the wins and kongs on offer, and hard's next-best
    discards."""
    out = [default]
    if played is not None and played not in out:
        out.append(played)
    if obs.phase == Phase.CLAIM:
        return out + [a for a in legal if a not in out]
    out += [a for a in legal if (a.kind == "hu" or a.kind in OWN_KONGS) and a not in out]
    for o in strategy.ranked_discards(obs, discard_options(obs))[:DISCARD_RIVALS]:
        a = next((x for x in legal if x.kind == "discard" and x.tile == o.tile), None)
        if a is not None and a not in out:
            out.append(a)
    return out


def settled(obs: Observation, legal: Sequence[Action], default: Action) -> bool:
    """Decisions the judgement doesn't search: one legal move, robbing a kong, or a win
    hard takes (nor any whose only candidate is the default: :func:`judge_steps`)."""
    return len(legal) == 1 or obs.phase == Phase.ROB or default.kind == "hu"


@dataclass(frozen=True)
class Budget:
    """How far a judgement looks: its knobs in one value (:func:`judge_steps` reads them).

    ``samples`` guesses a decision; up to ``most`` while a rival is in doubt, and up to
    ``most_suspect`` when the move judged left the hand further from ready; a flag stands only
    at a checkpoint of ``confirm_after``; ``screens`` (the expert's) cut the rivals that gain
    too little after these numbers of guesses; ``unsuspected_threshold`` (a review's) is the
    threshold against a move the race model doesn't find worse; ``fine`` yields within each
    playout too (a page's tasks stay short).

    >>> Budget(24, most=192, most_suspect=1536).limit(suspect=True)
    1536
    """

    samples: int
    most: int | None = None
    most_suspect: int | None = None
    confirm_after: int = 0
    screens: tuple[int, ...] = ()
    unsuspected_threshold: float | None = None
    fine: bool = False

    def limit(self, suspect: bool) -> int:
        """The most guesses a decision may take (``suspect``: the move judged left the hand
        further from ready)."""
        most = self.most or 0
        if suspect and self.most_suspect is not None:
            most = max(most, self.most_suspect)
        return most


def judge_steps(obs: Observation, legal: Sequence[Action], budget: Budget, seed: int,
                played: Action | None = None,
                strategy: HardStrategy | None = None) -> Iterator[Judgement]:
    """The judgement one guess at a time: yields it after every guess (or, when the
    decision is :func:`settled`, once, marked ``settled``). A caller may stop early: the
    last one yielded is the judgement on what was played out. The knobs named below are
    the ``budget``'s (:class:`Budget`).

    After ``samples`` guesses, while a rival may beat the move judged (``played``, else the
    default) but not yet surely (:meth:`Judgement.in_doubt`), more guesses are played, up to
    ``most`` (``most_suspect`` when the race model already finds the move played further from
    ready than the best one: :func:`further_from_ready`): a real blunder is told from noise by
    more evidence, not by a looser test (a blunder's cost of ~12 points has a paired standard
    error of ~7 over 24 guesses, ~4 over 64; the typical 2–4 point cost of a discard that moves
    the hand further from ready needs several hundred). Only the move judged and the rivals
    still in doubt are played out then, and a rival once let go stays out. A rival that beats
    the move judged stands only at a :func:`checkpoint` of ``confirm_after`` (a review's:
    :data:`CONFIRM_AFTER`); and where one gains more than the threshold at ``most`` guesses
    by :data:`EXTEND` standard errors but doesn't yet beat it surely, the decision goes on
    to ``most_suspect`` as if the race model had found the move worse (a flag against the
    assist's own move needs :data:`OVERTURN`, which 192 guesses of a real 4-point gain reach
    only half the time).
    ``screens`` (the expert's, at play time): after each of these numbers of guesses, below
    ``samples``, only the rivals that gain more than :data:`THRESHOLD` over the move judged
    so far play on, and the search ends when none does.
    ``unsuspected_threshold`` (a review's): the threshold a rival must beat ``played`` by
    when the race model doesn't find it further from ready (:attr:`Judgement.threshold`).
    With ``fine`` it also yields within each playout, after
    every move of the judged seat (a page's tasks stay short: one move of hard's, not a whole
    playout)."""
    samples, fine, screens = budget.samples, budget.fine, budget.screens
    confirm_after, most_suspect = budget.confirm_after, budget.most_suspect
    strategy = strategy or HardStrategy()
    default = strategy.choose(obs, legal).action
    if settled(obs, legal, default) and (played is None or played == default):
        yield Judgement(default, [Estimate(default, [], 0)], settled=True)
        return
    if fine:  # hard's reading of the hand was one task; its rivals' is the next
        yield Judgement(default, [Estimate(default, [], 0)])
    moves = candidates(obs, legal, default, strategy, played)
    if len(moves) == 1:  # no rival to weigh it against: playouts would only cost time
        yield Judgement(default, [Estimate(default, [], 0)], settled=True)
        return
    estimates = [Estimate(a, [], 0) for a in moves]
    policy = seat_policy(obs.seat, strategy)
    rng = Rng(seed)
    subject = default if played is None else played
    suspect = played is not None and further_from_ready(obs, played)
    threshold = THRESHOLD
    if played is not None and not suspect and budget.unsuspected_threshold is not None:
        threshold = budget.unsuspected_threshold
    if fine:
        yield Judgement(default, estimates, threshold=threshold)
    most = budget.limit(suspect)
    playing = estimates
    i = 0
    while playing and (i < samples or i < most):
        hands, wall = sample_hidden(obs, rng.fork(i))
        i += 1
        for est in playing:
            game = Game.from_observation(obs, hands, wall, streams=True)
            game.apply(est.action)
            if fine:  # a page's task is one of the judged seat's moves, not a whole playout
                for _ in playout_steps(game, policy, obs.seat):
                    yield Judgement(default, estimates, threshold=threshold)
            pay = playout(game, policy)  # (what is left of it)
            est.values.append(pay[obs.seat])
            est.wins += game.result is not None and game.result.winner == obs.seat
        now = Judgement(default, estimates, threshold=threshold)
        yield now
        if i in screens and i < samples:
            playing = [e for e in playing if e.action == subject
                       or now.gain(e.action, subject)[0] > threshold]
            playing = playing if len(playing) > 1 else []
        if i >= samples:  # from here on only the move judged and the rivals still in doubt
            doubt = now.in_doubt(subject, suspect, confirm_after)
            # from `playing`, not all estimates: a rival let go has missed guesses, and its
            # playouts would no longer pair with the move judged's
            playing = [e for e in playing if e.action == subject or e.action in doubt]
            playing = playing if len(playing) > 1 else []
            if playing and i == most and most_suspect is not None \
                    and most < most_suspect and any(
                        now._passes(e.action, subject, *now.gain(e.action, subject), EXTEND)
                        for e in playing if e.action != subject):
                most = most_suspect


def judge(obs: Observation, legal: Sequence[Action], samples: int, seed: int,
          played: Action | None = None, stop: Callable[[], bool] | None = None,
          strategy: HardStrategy | None = None) -> Judgement:
    """:func:`judge_steps` to its end (or until ``stop()``, after at least two guesses)."""
    last = None
    for i, step in enumerate(judge_steps(obs, legal, Budget(samples), seed, played,
                                         strategy)):
        last = step
        if i >= 1 and stop is not None and stop():
            break
    assert last is not None
    return last
