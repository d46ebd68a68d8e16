#!/usr/bin/env python3
"""Is hard's race model calibrated across distances? Self-play of four hards, measured.

Hard values a hand by its race model: the expected winnings of racing three opponents to a
self-draw (``HardStrategy.hand_value``). Its discards compare hands at one distance from
ready, but its claims compare a pass (the hand as it is) with a chow or a pung (one draw
closer, and the next draw after all three opponents). If the model's error grows with the
distance, the claims lean one way.

This plays ``--hands`` hands of four hards and records, at each of their discards, the race
value of the hand kept and the seat's payment when the hand ended. For each distance and
stretch of the wall it prints the mean payment minus the mean value: a calibrated model
gives the same offset at every distance of one stretch (a constant the race model leaves out:
the opponents' wins it doesn't pay for).

    python3 bench/calibration.py --hands 3000 --seed 501 --jobs 2

``bench/README.md`` (twelfth entry) has what it found, and what the ``distance_cost``
variant of ``bench/variants.py`` gains from it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from collections.abc import Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from duel import spread  # noqa: E402

from sxmj.bots import DiscardOption, HardStrategy  # noqa: E402
from sxmj.bots.hard import RaceContext  # noqa: E402
from sxmj.game import Game  # noqa: E402
from sxmj.observation import Observation  # noqa: E402
from sxmj.simulate import play_hand  # noqa: E402
from sxmj.wall import Rng, Wall  # noqa: E402
from sxmj.winning import Shape  # noqa: E402

STRETCH = 20  # tiles of the wall a row of the table covers

Kept = tuple[int, int, float]  # (tiles left in the wall, distance, race value) of a discard


class RecordingHard(HardStrategy):
    """Hard, noting the race value of each hand it keeps (the value its ranking used)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.kept: list[Kept] = []
        self._values: dict[int, float] = {}  # this turn's discards, by tile

    def discard_value(self, obs: Observation, ctx: RaceContext, shape: Shape,
                      option: DiscardOption) -> float:
        value = self._values[option.tile] = super().discard_value(obs, ctx, shape, option)
        return value

    def ranked_discards(self, obs: Observation,
                        options: list[DiscardOption]) -> list[DiscardOption]:
        self._values = {}
        ranked = super().ranked_discards(obs, options)
        self.kept.append((obs.wall, ranked[0].distance, self._values[ranked[0].tile]))
        return ranked


def play(hands: Sequence[int], seed: int) -> list[tuple[int, int, float, int]]:
    """(wall, distance, race value, the seat's payment) of every discard in ``hands``."""
    rows = []
    for h in hands:
        game = Game(Wall.shuffled(Rng(seed).fork(h + 1)).undealt(), dealer=h % 4)
        bots = [RecordingHard(h * 4 + s) for s in range(4)]
        result = play_hand(game, bots)
        for s, bot in enumerate(bots):
            rows += [(w, d, v, result.payments[s]) for w, d, v in bot.kept]
    return rows


def offsets(rows: Sequence[tuple[int, int, float, int]],
            least: int = 200) -> dict[tuple[int, int], tuple[int, float, float, float]]:
    """By (stretch of the wall, distance, 3 meaning 3 or more): (discards, mean race value,
    mean payment, the payment's standard error), for cells of at least ``least`` discards.

    >>> offsets([(65, 1, 10.0, 4), (70, 1, 12.0, -6)], least=2)
    {(3, 1): (2, 11.0, -1.0, 5.0)}
    """
    cells: dict[tuple[int, int], list[tuple[float, int]]] = defaultdict(list)
    for wall, d, value, paid in rows:
        cells[(wall // STRETCH, min(d, 3))].append((value, paid))
    out = {}
    for key in sorted(cells):
        xs = cells[key]
        n = len(xs)
        if n < least:
            continue
        mean_paid = sum(p for _, p in xs) / n
        sd = math.sqrt(sum((p - mean_paid) ** 2 for _, p in xs) / (n - 1)) if n > 1 else 0.0
        out[key] = (n, sum(v for v, _ in xs) / n, mean_paid, sd / math.sqrt(n))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=501)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    if a.hands < 1 or a.jobs < 1:
        ap.error("--hands and --jobs must be at least 1")
    rows = spread(partial(play, seed=a.seed), a.hands, a.jobs)
    print(f"{len(rows)} discards of {a.hands} hands, seed {a.seed}")
    print("wall left  distance  discards  race value  payment (s.e.)  payment - value")
    for (stretch, d), (n, value, paid, se) in offsets(rows).items():
        lo = stretch * STRETCH
        dist = "3+" if d == 3 else str(d)
        print(f"{lo:3}-{lo + STRETCH - 1:<5} {dist:>8}  {n:8}  {value:10.2f}  "
              f"{paid:+7.2f} ({se:.2f})  {paid - value:+15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
