"""A brute-force judge of winning hands, independent of sxmj.winning.

Every 财神 is replaced by every playing tile it could sensibly stand for,
and every substituted hand is split into sets and a pair by plain
recursion. The substitution domain is the tiles within two steps of a
natural tile, plus one "far" tile: a 财神 in a group with a natural tile
stands for a neighbour of it, and groups made only of 财神 are valid as
pungs/pairs of any single tile (a fifth copy is allowed), so one far tile
stands for them all. This keeps the search exhaustive yet small.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

NUM_PLAYING = 31


@cache
def _splits(counts: tuple[int, ...], need_pair: bool) -> bool:
    i = next((t for t, c in enumerate(counts) if c), -1)
    if i < 0:
        return not need_pair
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _splits(tuple(c), need_pair):
            return True
        c[i] += 3
    if need_pair and c[i] >= 2:
        c[i] -= 2
        if _splits(tuple(c), False):
            return True
        c[i] += 2
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _splits(tuple(c), need_pair):
            return True
    return False


def _domain(naturals: list[int]) -> list[int]:
    near = set()
    for t in naturals:
        if t < 27:
            lo = t // 9 * 9
            near.update(x for x in range(t - 2, t + 3) if lo <= x <= lo + 8)
        else:
            near.add(t)
    far = [x for x in range(NUM_PLAYING) if x not in near][:1]
    return sorted(near) + far


def substitutions(naturals: list[int], wilds: int):
    for combo in combinations_with_replacement(_domain(naturals), wilds):
        counts = [0] * NUM_PLAYING
        for t in naturals:
            counts[t] += 1
        for t in combo:
            counts[t] += 1
        yield counts


def oracle_win(naturals: list[int], wilds: int) -> bool:
    """Sets and a pair after some substitution of the 财神."""
    return any(_splits(tuple(c), True) for c in substitutions(naturals, wilds))


def oracle_sets(naturals: list[int], wilds: int) -> bool:
    """Sets only (no pair) after some substitution."""
    if not naturals and wilds == 0:
        return True
    return any(_splits(tuple(c), False) for c in substitutions(naturals, wilds))


def oracle_baotou(naturals: list[int], wilds: int, win_tile: int | None) -> bool:
    """The drawn tile pairs with a 财神 and the rest is sets (win_tile None: the drawn
    tile was itself a 财神, which must pair with another one)."""
    if win_tile is None:
        return wilds >= 2 and oracle_sets(naturals, wilds - 2)
    if wilds < 1 or win_tile not in naturals:
        return False
    rest = list(naturals)
    rest.remove(win_tile)
    return oracle_sets(rest, wilds - 1)
