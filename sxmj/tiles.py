"""Tiles and their short notation.

A tile is an ``int`` index; its code is the player's notation:

====== ============ =====================================
index  code         tile
====== ============ =====================================
0–8    ``1m``–``9m`` 万 characters
9–17   ``1p``–``9p`` 筒 dots
18–26  ``1s``–``9s`` 索 bamboo
27–30  ``1z``–``4z`` 东 南 西 北 winds
31–33  ``5z``–``7z`` 白 发 中 dragons (flower tiles in Shaoxing)
34–41  ``1f``–``8f`` 春 夏 秋 冬 梅 兰 竹 菊 flowers
====== ============ =====================================

>>> parse_tiles("123m55z")
[0, 1, 2, 31, 31]
>>> format_tiles([0, 1, 2, 31, 31])
'123m55z'
>>> caishen_of(tile("9m"))  # the tile after the indicator, 9 wraps to 1
0

Reading notation and a tile's spoken name are :mod:`sxmj.notation`'s, below
:mod:`sxmj.messages` (whose texts name tiles too); here they raise :class:`TileError`,
the refusal the rest of the code catches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import notation
from .messages import CoreError

SUITS = "mpsz"
NUM_KINDS = 42
NUM_PLAYING = 31  # suited tiles and winds: the only tiles a hand holds
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WINDS = range(27, 31)
FLOWER_TILES = range(31, 42)  # 中发白 and the 8 flowers: 杠花, never kept in a hand


class TileError(CoreError):
    """A tile or hand written in notation that does not parse (no field: the caller names it)."""

    def __init__(self, code: str, **params: object):
        super().__init__(code, "", **params)


def tile(code: str) -> int:
    """The index of one tile code such as ``5m`` or ``7z``.

    >>> tile("5m"), tile("1z"), tile("8f")
    (4, 27, 41)
    """
    tiles = parse_tiles(code)
    if len(tiles) != 1:
        raise TileError("tile.one", value=code)
    return tiles[0]


def code(t: int) -> str:
    """The notation of one tile index: ``code(4) == '5m'``."""
    if not 0 <= t < NUM_KINDS:
        raise TileError("tile.index", value=t)
    if t < 27:
        return f"{t % 9 + 1}{'mps'[t // 9]}"
    if t < 34:
        return f"{t - 26}z"
    return f"{t - 33}f"


def parse_tiles(text: str) -> list[int]:
    """Tiles from notation; digits take the suit letter that follows them.

    Spaces are ignored. Unknown or dangling digits raise :class:`TileError`
    naming the offending text.

    >>> parse_tiles("19m 1f")
    [0, 8, 34]
    """
    try:
        return notation.read(text)
    except notation.Unreadable as e:
        raise TileError(e.code, **e.params) from None


def format_tiles(tiles: Iterable[int]) -> str:
    """Notation for tiles in the given order, merging runs of one suit."""
    parts: list[str] = []
    last = ""
    for t in tiles:
        c = code(t)
        if c[1] == last:
            parts[-1] = parts[-1][:-1] + c
        else:
            parts.append(c)
        last = c[1]
    return "".join(parts)


def is_flower(t: int) -> bool:
    """True for the 20 杠花 tiles: 8 flowers and 12 dragons (中发白)."""
    return t >= 31


def is_wind(t: int) -> bool:
    return 27 <= t <= 30


def caishen_of(indicator: int) -> int:
    """The 财神 (wildcard) given the indicator: the next tile in its cycle.

    Suits wrap 9→1, winds 北→东; any flower tile (dragons included) gives 东.
    """
    if indicator >= 31:
        return EAST
    if indicator >= 27:
        return 27 + (indicator - 26) % 4
    return indicator // 9 * 9 + (indicator % 9 + 1) % 9


def full_set() -> list[int]:
    """The 144 tiles: four of each suited tile, wind and dragon; one of each flower."""
    return [t for t in range(34) for _ in range(4)] + list(range(34, 42))


def counts_of(tiles: Iterable[int]) -> list[int]:
    """A count per tile index (length 42)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def sort_key(caishen: int | None) -> Callable[[int], tuple[bool, int]]:
    """Sort key that puts the 财神 at the far left, the rest in index order."""
    return lambda t: (t != caishen, t)


def tile_name(t: int, lang: str = "en") -> str:
    """A tile's spoken name: ``tile_name(4, 'zh') == '五万'``, ``'5 Characters'`` in English."""
    try:
        return notation.name(t, lang)
    except notation.Unreadable as e:
        raise TileError(e.code, **e.params) from None
