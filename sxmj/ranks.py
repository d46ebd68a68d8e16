"""Rank titles from cumulative points (等级积分, RULES.md §11, seed 002).

The 38 titles, their order and the shape of their thresholds are seed 002's table. sxmj
counts that table at a twentieth (:data:`SCALE`, a product decision of issue 27): a hand of
sxmj pays tens of points, so at seed 002's figures a new player's first title (木骰1级, 2,000)
took about fifty matches; at a twentieth it takes 100 points, one or two matches of a first
evening, and 王冠 about seven hundred. Rank points are what a player wins: each hand won adds
what it earned (a lost hand takes nothing away), and each finished match adds its place's
points (:data:`PLACE_POINTS`), so no match is worth nothing.

>>> [floor for floor, _ in RANKS[:4]], RANKS[-1][0]
([0, 100, 300, 600], 67500)
>>> match_points([36, -12, 0, 12], place=2)
108
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

_TIERS = [("木骰", "Wood Dice"), ("铁骰", "Iron Dice"), ("铜骰", "Bronze Dice"),
          ("银骰", "Silver Dice"), ("金骰", "Gold Dice"), ("玉骰", "Jade Dice")]
_SEED_002 = [
    0, 2000, 6000, 12000, 20000, 30000, 42000, 56000, 72000, 90000, 110000, 132000,
    156000, 182000, 210000, 240000, 272000, 306000, 342000, 380000, 420000, 462000,
    506000, 552000, 600000, 650000, 702000, 754000, 810000, 862000, 916000, 972000,
    1030000, 1090000, 1152000, 1216000, 1282000, 1350000,
]
SCALE = 20  # sxmj's thresholds are seed 002's divided by this
_THRESHOLDS = [points // SCALE for points in _SEED_002]
PLACE_POINTS = (100, 60, 40, 20)  # a finished match's rank points for 1st, 2nd, 3rd, 4th


def match_points(gains: Iterable[int], place: int) -> int:
    """The rank points of a finished match: what its won hands earned (``gains``, the
    player's result of each hand; a loss counts 0) and its ``place``'s points (1–4)."""
    return sum(max(0, g) for g in gains) + PLACE_POINTS[place - 1]


def _titles() -> list[tuple[str, str]]:
    out = [("菜鸟", "Rookie")]
    for zh, en in _TIERS:
        out += [(f"{zh}{n}级", f"{en} {n}") for n in range(1, 7)]
    out.append(("王冠", "Crown"))
    return out


RANKS = list(zip(_THRESHOLDS, _titles(), strict=True))


@dataclass(frozen=True)
class Rank:
    level: int          # 1 (菜鸟) .. 38 (王冠)
    title_zh: str
    title_en: str
    points: int         # cumulative points, never below 0
    floor: int          # points needed for this level
    next_at: int | None  # points needed for the next level, None at 王冠

    @property
    def progress(self) -> float:
        """Fraction of the way from this level to the next (1.0 at the top)."""
        if self.next_at is None:
            return 1.0
        return (self.points - self.floor) / (self.next_at - self.floor)


def rank_of(points: int) -> Rank:
    """The rank title for cumulative points.

    >>> rank_of(299).title_zh, rank_of(300).title_zh, rank_of(-50).points
    ('木骰1级', '木骰2级', 0)
    """
    points = max(0, points)
    level = max(i for i, (floor, _) in enumerate(RANKS) if points >= floor)
    floor, (zh, en) = RANKS[level]
    next_at = RANKS[level + 1][0] if level + 1 < len(RANKS) else None
    return Rank(level + 1, zh, en, points, floor, next_at)
