"""Rank titles from cumulative points (等级积分, RULES.md §11, seed 002).

The 38 titles and their thresholds are exactly seed 002's table (木骰1级 at 2,000 … 王冠 at
1,350,000). What a player earns toward them is sxmj's choice (a product decision of issue
27): a hand of sxmj pays tens of points, so counting them one for one, a new player's first
title took about fifty matches. Each point won at the table counts
:data:`RANK_POINTS_PER_POINT` rank points (a lost hand takes nothing away), and each
finished match adds its place's points (:data:`PLACE_POINTS`), so no match is worth nothing
and the first title comes in a first evening: a 1st place alone reaches it.

>>> [floor for floor, _ in RANKS[:4]], RANKS[-1][0]
([0, 2000, 6000, 12000], 1350000)
>>> match_points([36, -12, 0, 12], place=2)
2160
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
_THRESHOLDS = _SEED_002
RANK_POINTS_PER_POINT = 20  # rank points for each point won at the table
PLACE_POINTS = (2000, 1200, 800, 400)  # a finished match's rank points for 1st … 4th


def hand_points(gain: int) -> int:
    """The rank points of a hand whose result for the player is ``gain`` (a loss: 0).

    >>> hand_points(36), hand_points(-12)
    (720, 0)
    """
    return RANK_POINTS_PER_POINT * max(0, gain)


def match_points(gains: Iterable[int], place: int) -> int:
    """The rank points of a finished match: what its won hands earned (``gains``, the
    player's result of each hand) and its ``place``'s points (1–4)."""
    return sum(hand_points(g) for g in gains) + PLACE_POINTS[place - 1]


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

    >>> rank_of(1999).title_zh, rank_of(2000).title_zh, rank_of(-50).points
    ('菜鸟', '木骰1级', 0)
    """
    points = max(0, points)
    level = max(i for i, (floor, _) in enumerate(RANKS) if points >= floor)
    floor, (zh, en) = RANKS[level]
    next_at = RANKS[level + 1][0] if level + 1 < len(RANKS) else None
    return Rank(level + 1, zh, en, points, floor, next_at)
