"""Determinized playouts: guess what a seat can't see, then play the hand out fast.

A guess (:func:`sample_hidden`) deals the tiles the observation doesn't show into
the other hands and the wall at random — consistent with every count, meld, river,
flower and the 财神, and using nothing but the observation and a seeded stream.
:func:`playout` plays the guessed game to its end (by a cheap greedy policy for every
seat, or the caller's); :func:`paired_gain` compares two actions played out over the
same guesses (common random numbers, :mod:`.judge`), so their difference is not noise
of the guesses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..game import Action, Game, Phase
from ..observation import Observation
from ..tiles import NUM_KINDS
from ..wall import Rng
from ..winning import KEY_STEP, is_baotou_ready, is_sets, wildcards_needed

MAX_STEPS = 400  # a hand never takes this many actions; a guard, not a rule


def sample_hidden(obs: Observation, rng: Rng) -> tuple[list[list[int]], list[int]]:
    """One guess of the hidden tiles: every seat's concealed hand and the live wall.

    Only ``obs`` and ``rng`` decide it, so the real hidden tiles can never leak in.
    A seat that has had its turn holds no flower (it laid them open at once).
    """
    seen = obs.visible_counts()
    pool = [t for t in range(NUM_KINDS) for _ in range((1 if t >= 34 else 4) - seen[t])]
    rng.shuffle(pool)
    flowers_ok = [not obs.discards[s] and not (s == obs.turn and obs.phase != Phase.DEAL)
                  for s in range(4)]
    hands: list[list[int]] = [[], [], [], []]
    hands[obs.seat] = list(obs.hand)
    for s in range(4):
        if s == obs.seat:
            continue
        n = obs.hand_counts[s]
        take: list[int] = []
        keep: list[int] = []
        for t in pool:
            if len(take) < n and (flowers_ok[s] or t < 31):
                take.append(t)
            else:
                keep.append(t)
        hands[s], pool = take, keep
    return hands, pool


def greedy_discard(game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """The discard that leaves the fewest wildcards needed; lone honours and terminals go
    first on a tie, the 财神 never (unless nothing else is left)."""
    shape = game.shape(seat)
    keys = list(shape.keys)
    caishen = game.caishen
    best, best_key = None, None
    for a in legal:
        if a.kind != "discard":
            continue
        t = a.tile
        assert t is not None  # a discard always names its tile
        if t == caishen:
            score = (99, 0)
        else:
            g, step = KEY_STEP[t]
            keys[g] -= step
            need = wildcards_needed((keys[0], keys[1], keys[2], keys[3])) - shape.wilds
            keys[g] += step
            edge = t >= 27 or t % 9 in (0, 8)
            score = (need, 0 if edge else 1)
        if best_key is None or score < best_key:
            best, best_key = a, score
    assert best is not None
    return best


def greedy(game: Game, seat: int) -> Action:
    """The playout policy: never claim or kong, else a greedy discard; win when legal,
    but pass a win for a 暴头 wait, or for a 飘, where hard would (:func:`hold_win`) —
    a playout that always won at once would value speed over points."""
    legal = game._legal(seat)
    for a in legal:
        if a.kind == "hu":  # a rob (抢杠) is taken at once: only a self-draw is held
            return a if game.phase == Phase.ROB else hold_win(game, seat, legal) or a
    if legal[0].kind == "discard":
        return greedy_discard(game, seat, legal)
    for a in legal:
        if a.kind == "pass":
            return a
    return legal[0]


def hold_win(game: Game, seat: int, legal: Sequence[Action]) -> Action | None:
    """The discard that passes a legal win, as hard plays it in the main: a plain win
    with a 财神 in hand becomes a 暴头 wait (any draw then wins, for twice as much) while
    four tiles are left; a 暴头 win with a second 财神 beside four sets throws one (飘,
    one 番 more) while the wall is long. None: take the win."""
    shape = game.shape(seat)
    wilds = shape.wilds
    remaining = game.wall.remaining
    if wilds == 0 or remaining < 4:
        return None
    ev = game._self_draw_eval(seat)
    caishen = game.caishen
    if ev is not None and "baotou" in ev.patterns:
        chain = game.piao_chain[seat]
        if wilds >= 2 and chain < 2 and remaining >= 30 + 15 * chain \
                and is_sets(shape.with_wilds(wilds - 2)):
            return next((a for a in legal if a.kind == "discard" and a.tile == caishen), None)
        return None
    for a in legal:
        t = a.tile
        if a.kind == "discard" and t != caishen and t is not None \
                and is_baotou_ready(shape.remove(t)):
            return a
    return None


def playout_steps(game: Game, policy: Callable[[Game, int], Action], seat: int
                  ) -> Iterator[None]:
    """Play ``game`` on, yielding after each move of ``seat`` (a caller that must keep its
    tasks short stops there; :func:`playout` finishes the game either way)."""
    for _ in range(MAX_STEPS):
        if game.over:
            return
        mover = game.to_move()[0]
        game.apply(policy(game, mover))
        if mover == seat:
            yield


def playout(game: Game, policy: Callable[[Game, int], Action] = greedy) -> list[int]:
    """Play ``game`` to its end; the four payments (all zero for a drawn hand)."""
    for _ in range(MAX_STEPS):
        if game.over:
            break
        seat = game.to_move()[0]
        game.apply(policy(game, seat))
    assert game.result is not None
    return game.result.payments


@dataclass
class Estimate:
    """A candidate's playouts: mean payment to the seat, and how often it won."""

    action: Action
    values: list[int]
    wins: int

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / len(self.values) if self.values else 0.0


def paired_gain(a: Estimate, b: Estimate) -> tuple[float, float]:
    """Mean of a − b over the shared guesses, and its standard error."""
    diffs = [x - y for x, y in zip(a.values, b.values, strict=False)]
    n = len(diffs)
    if n < 2:
        return (diffs[0] if diffs else 0.0), float("inf")
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5
