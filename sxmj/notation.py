"""How a tile is written and spoken: reading notation such as ``123m55z``, and each
tile's name in 中文 and English.

This module imports nothing of the core, because two modules that depend on each other's
job both need it. :mod:`sxmj.tiles` is the tiles' public face: it turns an
:class:`Unreadable` into its ``TileError``, a refusal of :mod:`sxmj.messages`. And
:mod:`sxmj.messages` names, in a refusal's text, the tiles the refusal mentions. Below
both, neither imports the other's way round.

>>> read("19m 1f"), name(4, "zh"), name(4)
([0, 8, 34], '五万', '5 Characters')
"""

from __future__ import annotations


class Unreadable(ValueError):
    """Text that is not tile notation, or an index that names no tile.

    ``code`` is the :mod:`sxmj.messages` code that says why and ``params`` fill its text:
    :mod:`sxmj.tiles` raises them again as a ``TileError``, the refusal players read.
    """

    def __init__(self, code: str, **params: object):
        super().__init__(code)
        self.code = code
        self.params = params


def read(text: str) -> list[int]:
    """Tile indices from notation; digits take the suit letter that follows them.

    Spaces are ignored. Raises :class:`Unreadable` naming the offending text.
    """
    if not isinstance(text, str):
        raise Unreadable("tile.text", value=text)
    out: list[int] = []
    digits: list[str] = []
    for ch in text.replace(" ", ""):
        # only ASCII digits: str.isdigit() also accepts '²' and '٣', which int() refuses
        if "0" <= ch <= "9":
            digits.append(ch)
            continue
        if ch not in "mpszf":
            raise Unreadable("tile.letter", letter=ch, text=_cut(text))
        if not digits:
            raise Unreadable("tile.no_digits", letter=ch, text=_cut(text))
        for d in digits:
            n = int(d)
            limit = {"z": 7, "f": 8}.get(ch, 9)
            if not 1 <= n <= limit:
                raise Unreadable("tile.unknown", tile=f"{d}{ch}", text=_cut(text))
            if ch == "f":
                out.append(33 + n)
            elif ch == "z":
                out.append(26 + n)
            else:
                out.append("mps".index(ch) * 9 + n - 1)
        digits = []
    if digits:
        raise Unreadable("tile.dangling", digits="".join(digits)[:20], text=_cut(text))
    return out


def _cut(text: str, limit: int = 40) -> str:
    """Notation quoted in a message, cut short so a huge input gives a short line."""
    return text if len(text) <= limit else text[:limit] + "…"


_NUMERALS_ZH = "一二三四五六七八九"
_SUIT_ZH = "万筒索"
_SUIT_EN = ("Characters", "Dots", "Bamboo")
_SUIT_EN_ONE = ("Character", "Dot", "Bamboo")  # 1 Character, not 1 Characters
_HONOR_ZH = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_HONOR_EN = ("East Wind", "South Wind", "West Wind", "North Wind",
             "White Dragon", "Green Dragon", "Red Dragon")
_FLOWER_ZH = "春夏秋冬梅兰竹菊"
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo flower",
              "Chrysanthemum")


def name(t: int, lang: str = "en") -> str:
    """Tile ``t``'s spoken name in ``lang`` ("zh" or "en"): 五万, 5 Characters.

    Raises :class:`Unreadable` for an index that names no tile (0–41 do)."""
    if not 0 <= t < 42:
        raise Unreadable("tile.index", value=t)
    if t < 27:
        suit, rank = divmod(t, 9)
        if lang == "zh":
            return _NUMERALS_ZH[rank] + _SUIT_ZH[suit]
        return f"{rank + 1} {(_SUIT_EN_ONE if rank == 0 else _SUIT_EN)[suit]}"
    if t < 34:
        return (_HONOR_ZH if lang == "zh" else _HONOR_EN)[t - 27]
    return _FLOWER_ZH[t - 34] if lang == "zh" else _FLOWER_EN[t - 34]
