#!/usr/bin/env python3
"""What hard's fear of 承包 cost: hard beside three hards that still shun the discards which
may feed a third claim (the rule hard played until 5 December 2026, issue 28).

``FearfulHard`` is that old hard: a discard that lets a player who took two of our discards
claim a third was worth up to ten times less (``contract_risk``). The contract binds both
ways — if they win we pay 3 shares, if we win they pay 5 — so hard now weighs such a discard
like any other. The duplicate tournament of ``python3 -m sxmj tournament`` (the same walls
and seatings, the same function) gives today's hard's mean points a hand beside three
fearful ones:

    python3 bench/contract_fear.py --walls 4000 --seed 4 --jobs 2   # about 2 minutes
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from duel import duel, figure  # noqa: E402

from sxmj.bots import Bot, DiscardOption, HardStrategy, Policy  # noqa: E402
from sxmj.bots.hard import RaceContext  # noqa: E402
from sxmj.game import Game  # noqa: E402
from sxmj.observation import Observation  # noqa: E402
from sxmj.winning import Shape  # noqa: E402

SEATS = ["hard", "fearful", "fearful", "fearful"]


class FearfulHard(HardStrategy):
    """Hard as it was: a discard that may feed a third claim (承包) is shunned."""

    level = "fearful"

    def discard_value(self, obs: Observation, ctx: RaceContext, shape: Shape,
                      option: DiscardOption) -> float:
        """The old value: the race model's times (1 − 0.1 × risk)."""
        value = super().discard_value(obs, ctx, shape, option)
        if option.tile == obs.caishen:
            return value
        return value * (1 - 0.1 * self.contract_risk(obs, option.tile))

    def contract_risk(self, obs: Observation, t: int) -> int:
        """The old penalty for feeding a third claim to a player who took two already."""
        seat = obs.seat
        seen = obs.visible_counts()
        risk = 0
        for other in range(4):
            if other != seat and obs.claims[other][seat] == 2:
                if seen[t] < 3:
                    risk += 6  # they might peng it
                if other == (seat + 1) % 4 and t < 27:
                    risk += 3  # and the next seat might chi it
        return risk


def make_bot(level: str, seed: int, game: Game) -> Policy:
    return FearfulHard(seed) if level == "fearful" else Bot(level, seed=seed)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if a.walls < 1 or a.jobs < 1:
        ap.error("--walls and --jobs must be at least 1")
    levels = duel(SEATS, make_bot, a.walls, a.seed, a.jobs)
    print(f"{a.walls} walls × 4 seatings, seed {a.seed}: hard {figure(levels['hard'])}; "
          f"the fearful hard {figure(levels['fearful'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
