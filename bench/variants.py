#!/usr/bin/env python3
"""Variants of hard, each at one seat beside three of today's hards: where a point a hand
over hard might be, measured (issue 28; ``bench/README.md``, tenth and eleventh entries).

The expert must score a point a hand over three hards. Each variant here changes one thing
hard does or knows, and plays one seat of the duplicate tournament (the same walls and
seatings as ``python3 -m sxmj tournament``) beside three hards:

    python3 bench/variants.py two_step --walls 2000 --seed 7 --jobs 2
    python3 bench/variants.py --list

A variant identical to hard scores exactly 0 (every wall is played four times, once from
each seat), so any other figure is the variant's own.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from duel import duel, figure  # noqa: E402

from sxmj.bots import Bot, DiscardOption, HardStrategy, NormalStrategy, Policy  # noqa: E402
from sxmj.bots.analysis import Choice, analyse, distinct_tiles, minus, plus, race  # noqa: E402
from sxmj.bots.hard import RaceContext, _ready_discards  # noqa: E402
from sxmj.game import Action, Game  # noqa: E402
from sxmj.melds import Meld  # noqa: E402
from sxmj.observation import Observation  # noqa: E402
from sxmj.tiles import NUM_KINDS  # noqa: E402
from sxmj.winning import Shape, baotou_distance  # noqa: E402


class TwoStepHard(HardStrategy):
    """A discard two draws from ready is valued through the one-from-ready hands each
    useful draw would let it keep (hard: by its count of live useful tiles alone)."""

    def discard_value(self, obs: Observation, ctx: RaceContext, shape: Shape,
                      option: DiscardOption) -> float:
        if option.distance != 2:
            return super().discard_value(obs, ctx, shape, option)
        return self._two_step(ctx, minus(shape, option.tile, ctx.caishen), option.useful)

    def _two_step(self, ctx: RaceContext, shape: Shape, useful: Sequence[int]) -> float:
        unseen, caishen = ctx.unseen, ctx.caishen
        live = sum(unseen[t] for t in useful)
        if not live:
            return self.hand_value(ctx, shape, 2, useful)
        q_next = 0.0
        mix: list[tuple[float, float, float]] = []
        for t in useful:
            weight = unseen[t] / live
            best = None
            drawn = plus(shape, t, caishen)
            for x in distinct_tiles(drawn, caishen):
                one = minus(drawn, x, caishen)
                d, u, _ = analyse(one, ctx.sets, caishen, unseen)
                if d == 1:
                    v = self.hand_value(ctx, one, 1, u)
                    if best is None or v > best[0]:
                        best = (v, one, u)
            if best is None:
                continue
            one, u = best[1], best[2]
            live1 = sum(unseen[w] for w in u)
            if not live1:
                continue
            q_next += weight * live1 / ctx.total
            for w in u:
                ready = [self._ready(ctx, k) for k in _ready_discards(plus(one, w, caishen),
                                                                         caishen)]
                if ready:
                    p, m = max(ready, key=lambda r: r[1] * (1 - (1 - r[0]) ** 4))
                    mix.append((weight * unseen[w] / live1, p, self._win_value(ctx, m)))
        if not mix:
            return self.hand_value(ctx, shape, 2, useful)
        return race([live / ctx.total, q_next], mix, ctx.wall, 3)


class BaotouChaser(HardStrategy):
    """A hand two or more draws from ready that holds a 财神 is valued as a race to 暴头
    (any draw wins, paying double) whenever 暴头 is at most one draw further."""

    def hand_value(self, ctx: RaceContext, shape: Shape, d: int, useful: Sequence[int],
                   lead: int = 3) -> float:
        if d >= 2 and shape.wilds >= 1:
            bd = baotou_distance(shape, ctx.sets)
            if bd <= d + 1:
                q = sum(ctx.unseen[t] for t in useful) / ctx.total
                stages = [q] + [max(0.08, q * 0.8 ** i) for i in range(1, max(d, bd))]
                return race(stages, [(1.0, 1.0, self._win_value(ctx, 2.0))], ctx.wall, lead)
        return super().hand_value(ctx, shape, d, useful, lead)


def _meld_flowers(m: Meld) -> int:
    """The 花 of a meld laid down (rule book section 8)."""
    wind = 27 <= m.tiles[0] < 31
    if m.kind == "peng":
        return int(wind)
    if m.kind == "angang":
        return 3 if wind else 2
    if m.kind in ("minggang", "jiagang"):
        return 2 if wind else 1
    return 0


class FlowerCounter(HardStrategy):
    """The share a win would pay counts the 花 already in hand: each 财神 held, wind pungs
    and kongs laid down (hard: the flowers laid open, plus 2)."""

    def context(self, obs: Observation) -> RaceContext:
        ctx = super().context(obs)
        ctx.share += (sum(_meld_flowers(m) for m in obs.my_melds)
                      + obs.playing_hand.count(obs.caishen) - 2)
        return ctx


class SmallKnobs(HardStrategy):
    """The three knobs of the tenth entry that measured best at 1,000 walls, together: what
    losing a hand costs at 1.5 × (底花 + 4) (hard: 1.3), chows and pungs valued ×1.05, and
    no 加杠."""

    def context(self, obs: Observation) -> RaceContext:
        ctx = super().context(obs)
        ctx.loss *= 1.5 / 1.3
        return ctx

    def claim_value(self, ctx: RaceContext, shape: Shape, claim: Action, t: int) -> float:
        v = super().claim_value(ctx, shape, claim, t)
        return v * 1.05 if claim.kind in ("chi", "peng") else v

    def kong_keeps_pace(self, obs: Observation, kong: Action, best: DiscardOption) -> bool:
        return kong.kind != "jiagang" and super().kong_keeps_pace(obs, kong, best)


class DistanceCost(HardStrategy):
    """A hand's race value less ``COST`` points for each draw it still needs: the race model
    runs ahead of the payments by more the farther a hand is from ready
    (``bench/calibration.py``). Hard's discards compare hands of one distance, so only its
    claims change: a chow or a pung that brings the hand closer is taken more often."""

    COST = 8.0

    def hand_value(self, ctx: RaceContext, shape: Shape, d: int, useful: Sequence[int],
                   lead: int = 3) -> float:
        return super().hand_value(ctx, shape, d, useful, lead) - self.COST * d


class _WallSightObservation(Observation):
    """An observation whose unseen tiles are the wall's alone (a bench oracle)."""

    wall_counts: list[int]

    def unseen(self) -> list[int]:
        return self.wall_counts


class WallSight(HardStrategy):
    """An oracle: hard that knows which unseen tiles are in the wall and which in the other
    hands. There are no discard wins, so only the wall's copies of a wait can win; what this
    oracle gains bounds what reading the other hands could."""

    def __init__(self, seed: int, game: Game):
        super().__init__(seed)
        self.game = game

    def choose(self, obs: Observation, legal: list[Action]) -> Choice:
        counts = [0] * NUM_KINDS
        for t in self.game.wall.live():
            counts[t] += 1
        sighted = _WallSightObservation(**{f.name: getattr(obs, f.name)
                                           for f in dataclasses.fields(obs)})
        object.__setattr__(sighted, "wall_counts", counts)
        return super().choose(sighted, legal)


VARIANTS: dict[str, type[HardStrategy] | type[NormalStrategy]] = {
    "hard": HardStrategy,
    "normal": NormalStrategy,
    "two_step": TwoStepHard,
    "baotou_chaser": BaotouChaser,
    "flower_counter": FlowerCounter,
    "small_knobs": SmallKnobs,
    "distance_cost": DistanceCost,
    "wall_sight": WallSight,
}


PLAIN = {"hard": "Hard itself: scores exactly 0 (a check of the harness).",
         "normal": "The level below: what hard's race model is worth over distance alone."}


def make_bot(variant: str, level: str, seed: int, game: Game) -> Policy:
    """The bot at a seat: ``variant`` where the level is ``"variant"``, else that level."""
    if level != "variant":
        return Bot(level, seed=seed)
    cls = VARIANTS[variant]
    return WallSight(seed, game) if cls is WallSight else cls(seed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant", nargs="?", choices=sorted(VARIANTS))
    ap.add_argument("--walls", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="name and describe each variant")
    a = ap.parse_args(argv)
    if a.walls < 1 or a.jobs < 1:
        ap.error("--walls and --jobs must be at least 1")
    if a.list or a.variant is None:
        for name, cls in VARIANTS.items():
            doc = PLAIN.get(name) or (cls.__doc__ or "").split("\n\n")[0]
            print(f"{name:15} {' '.join(doc.split())}")
        return 0
    levels = duel(["variant", "hard", "hard", "hard"], partial(make_bot, a.variant), a.walls,
                  a.seed, a.jobs)
    print(f"{a.variant}: {a.walls} walls × 4 seatings, seed {a.seed}: "
          f"{figure(levels['variant'])}; the hards {figure(levels['hard'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
