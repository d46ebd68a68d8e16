"""Exposed sets and kongs (吃 碰 杠) and their notation: ``"chi 123m"``, ``"angang 5555p"``."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RuleError
from .tiles import TileError, code, format_tiles, is_wind, parse_tiles

MELD_KINDS = ("chi", "peng", "minggang", "angang", "jiagang")
KONGS = ("minggang", "angang", "jiagang")


@dataclass(frozen=True)
class Meld:
    """One set laid down beside a hand.

    ``source`` is the seat whose discard was claimed (None for 暗杠, and for
    melds given without a table); ``claimed`` is the claimed tile.

    >>> Meld.parse("peng 222z").tiles
    (28, 28, 28)
    """

    kind: str
    tiles: tuple[int, ...]
    source: int | None = None
    claimed: int | None = None

    @staticmethod
    def parse(text: str, caishen: int | None = None, field: str = "melds") -> Meld:
        if not isinstance(text, str) or len(text.split()) != 2:
            raise RuleError(field, "meld.text", value=text)
        kind, notation = text.split()
        if kind not in MELD_KINDS:
            raise RuleError(field, "meld.kind", kind=kind[:20], text=text[:40], known=MELD_KINDS)
        try:
            tiles = sorted(parse_tiles(notation))
        except TileError as e:
            raise RuleError(field, e.code, **e.params) from None
        for t in tiles:
            if t >= 31:
                raise RuleError(field, "meld.flower", tile=code(t))
            if t == caishen:
                raise RuleError(field, "meld.caishen", tile=code(t))
        size = 3 if kind in ("chi", "peng") else 4
        if len(tiles) != size:
            raise RuleError(field, "meld.size", kind=kind, size=size, count=len(tiles),
                            text=text[:40])
        if kind == "chi":
            if tiles[0] >= 27 or tiles[0] // 9 != tiles[2] // 9 or \
                    tiles != [tiles[0], tiles[0] + 1, tiles[0] + 2]:
                raise RuleError(field, "meld.chi", text=text)
        elif len(set(tiles)) != 1:
            raise RuleError(field, "meld.equal", kind=kind, size=size, text=text)
        return Meld(kind, tuple(tiles))

    @property
    def is_kong(self) -> bool:
        return self.kind in KONGS

    @property
    def concealed(self) -> bool:
        return self.kind == "angang"

    @property
    def is_wind_set(self) -> bool:
        return self.kind != "chi" and is_wind(self.tiles[0])

    def __str__(self) -> str:
        return f"{self.kind} {format_tiles(self.tiles)}"
