#!/usr/bin/env python3
"""How much more often could any hard bot win? A ceiling, measured with a cheat.

A test-only bot, ``Clairvoyant``, plays hard's claims and hard's discards
except that before each discard it reads its own next draws from the wall
(every fourth tile from the head, as long as nobody claims) and throws the
tile that lets it win soonest. It then sits at a table with three normals in
the duplicate format of ``python3 -m sxmj tournament`` (the same function).
A fair bot sees less, so its win-rate ratio against normal should stay below
this one.

With ``--against hard`` the same cheat sits with three hards and keeps hard's
passing of wins for 暴头 and 飘 (points, not wins, are then the measure): what
reading one's own next draws is worth in points per hand, against the level the
expert must beat by +1.5 (issue 16).

    python3 bench/ceiling.py --walls 1000 --seed 1     # about 2½ minutes, one core
    python3 bench/ceiling.py --walls 500 --seed 1 --against hard
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sxmj.bots import Bot, DiscardOption, HardStrategy  # noqa: E402
from sxmj.game import Game  # noqa: E402
from sxmj.observation import Observation  # noqa: E402
from sxmj.simulate import tournament  # noqa: E402
from sxmj.tiles import NUM_PLAYING  # noqa: E402
from sxmj.winning import Shape, distance  # noqa: E402

LOOKAHEAD = 12  # own draws the cheat reads ahead


def holds_a_win(tiles: list[int], caishen: int, sets: int) -> bool:
    """Whether some 3·sets+2 tiles of ``tiles`` make a winning hand."""
    shape = Shape.of(tiles, caishen)
    if len(tiles) % 3 == 1:
        # distance() reads a 3k+1 hand as "ready?"; add a lone wind that no set
        # can use, so it asks "holds a win?" like every other size.
        lone = next((t for t in range(27, 31) if t != caishen and t not in tiles), None)
        if lone is None:
            return False
        shape = shape.add(lone)
    return distance(shape, sets) == 0


class Clairvoyant(HardStrategy):
    """Hard, plus the next own draws read from the wall before each discard."""

    def __init__(self, game: Game, seed: int, pass_wins: bool = False):
        # pass_wins=False counts wins, not points (the win-rate ceiling)
        super().__init__(seed, pass_wins=pass_wins)
        self.game = game

    def pick_discard(self, obs: Observation, options: list[DiscardOption]) -> DiscardOption:
        fair = super().pick_discard(obs, options)
        wall = self.game.wall
        caishen = obs.caishen
        sets = obs.sets_needed
        hand = [t for t in obs.hand if t < NUM_PLAYING]
        draws = [t for t in wall.tiles[wall.head + 3:wall.tail:4] if t < NUM_PLAYING]
        draws = draws[:LOOKAHEAD]

        def draws_to_win(o: DiscardOption) -> int:
            kept = list(hand)
            kept.remove(o.tile)
            for k, t in enumerate(draws, 1):
                kept.append(t)
                if holds_a_win(kept, caishen, sets):
                    return k
            return len(draws) + 1

        return min(options, key=lambda o: (draws_to_win(o), o is not fair))


def make_bot(level: str, seed: int, game: Game) -> HardStrategy:
    return Clairvoyant(game, seed) if level == "cheat" else Bot(level, seed=seed)


def make_points_bot(level: str, seed: int, game: Game) -> HardStrategy:
    return Clairvoyant(game, seed, pass_wins=True) if level == "cheat" else Bot(level, seed=seed)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--against", choices=["normal", "hard"], default="normal")
    a = ap.parse_args()
    if a.against == "hard":
        levels = tournament(a.walls, a.seed, ["cheat", "hard", "hard", "hard"],
                            make_bot=make_points_bot)
        cheat, hard = levels["cheat"], levels["hard"]
        lo, hi = cheat["ci95"]
        print(f"{a.walls} walls × 4 seatings, seed {a.seed}: clairvoyant hard "
              f"{cheat['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}] points/hand, wins "
              f"{cheat['win_rate']:.1%}; hard {hard['mean']:+.2f}, wins {hard['win_rate']:.1%}")
        return 0
    levels = tournament(a.walls, a.seed, ["cheat", "normal", "normal", "normal"],
                        make_bot=make_bot)
    cheat, normal = levels["cheat"]["win_rate"], levels["normal"]["win_rate"]
    print(f"{a.walls} walls, seed {a.seed}: clairvoyant hard wins {cheat:.1%}, "
          f"normal {normal:.1%}, ratio {cheat / normal:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
