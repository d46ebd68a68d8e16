"""Rank titles from cumulative points (等级积分, RULES.md §11, seed 002)."""

from __future__ import annotations

from dataclasses import dataclass

_TIERS = [("木骰", "Wood Dice"), ("铁骰", "Iron Dice"), ("铜骰", "Bronze Dice"),
          ("银骰", "Silver Dice"), ("金骰", "Gold Dice"), ("玉骰", "Jade Dice")]
_THRESHOLDS = [
    0, 2000, 6000, 12000, 20000, 30000, 42000, 56000, 72000, 90000, 110000, 132000,
    156000, 182000, 210000, 240000, 272000, 306000, 342000, 380000, 420000, 462000,
    506000, 552000, 600000, 650000, 702000, 754000, 810000, 862000, 916000, 972000,
    1030000, 1090000, 1152000, 1216000, 1282000, 1350000,
]


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

    >>> rank_of(5999).title_zh, rank_of(6000).title_zh, rank_of(-50).points
    ('木骰1级', '木骰2级', 0)
    """
    points = max(0, points)
    level = max(i for i, (floor, _) in enumerate(RANKS) if points >= floor)
    floor, (zh, en) = RANKS[level]
    next_at = RANKS[level + 1][0] if level + 1 < len(RANKS) else None
    return Rank(level + 1, zh, en, points, floor, next_at)
