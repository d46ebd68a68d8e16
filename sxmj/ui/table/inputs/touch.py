"""Discarding by touch: the first tap raises a tile, a second tap (or a swipe up) throws it.

A tile is about 24 px wide on a phone: one tap that throws it at once loses tiles to slips.
So on touch screens the first tap only raises the tile and says what discarding it would
leave (the assist's waits or distance for that discard); a second tap on it, or a swipe up,
discards it, and a tap anywhere else lowers it. With a mouse one click still discards; the
setting ``tap`` (:data:`sxmj.ui.table.storage.saved.TAPS`) chooses for every pointer. Keys
are not taps:
←/→ and Enter work as before. Pure: the controller asks (:mod:`sxmj.ui.table.inputs.routes`,
:mod:`sxmj.ui.table.decision`).

>>> two_taps("auto", "touch"), two_taps("auto", "mouse"), two_taps("one", "touch")
(True, False, False)
>>> swipe = Swipe()
>>> swipe.down("5m", 3, 400.0, "touch")
>>> swipe.up(360.0)
('5m', 3)
"""

from __future__ import annotations

from sxmj.observation import Observation
from sxmj.tiles import tile_name
from sxmj.ui.i18n import NBSP, tile_label, tr
from sxmj.ui.table.assist import hand_figures
from sxmj.ui.table.storage.saved import TAPS  # noqa: F401  (the setting's values: auto, one, two)

TOUCH = ("touch", "pen")  # PointerEvent.pointerType of a finger or a stylus
SWIPE_PX = 24  # a finger moved up this far on a tile throws it


def two_taps(mode: str, pointer: str) -> bool:
    """Does a tap with ``pointer`` (a PointerEvent's pointerType) only raise the tile?"""
    if mode == "one":
        return False
    if mode == "two":
        return pointer != ""  # a key's click (no pointer) always discards
    return pointer in TOUCH


def tile_names(tiles: list[int], lang: str) -> str:
    """Tiles named for a short line: 三索、六索 / 3 Bamboo, 6 Bamboo."""
    if lang == "zh":
        return "、".join(tile_name(t, "zh") for t in tiles)
    return ", ".join(tile_name(t, "en").replace(" ", NBSP) for t in tiles)


def leaves(obs: Observation, t: int, lang: str) -> str:
    """What discarding ``t`` leaves: 打后听：三索、六索 / then ready: waiting on … ("" when
    the hand can't be read: flowers not laid open yet)."""
    tiles = list(obs.playing_hand)
    if t not in tiles:
        return ""
    tiles.remove(t)
    if len(tiles) % 3 != 1:
        return ""
    winds = all(m.is_wind_set for m in obs.melds[0])
    d, waits, any_tile, _ = hand_figures(tiles, 4 - len(obs.melds[0]), obs.caishen,
                                         obs.unseen(), winds)
    if any_tile:
        return tr(lang, "raised_any")
    if d == 0:
        live = sum(w.live for w in waits)
        return tr(lang, "raised_waits", tiles=tile_names([w.tile for w in waits], lang),
                  n=live)
    return tr(lang, "raised_distance", n=d)


def preview_text(obs: Observation, t: int, lang: str, assist: bool) -> str:
    """The status line while tile ``t`` is raised: tap again to throw it, and (with the
    assist on) what the hand would be after."""
    name = tile_label(t, lang)
    if t == obs.caishen:
        name += f" ({tr(lang, 'caishen')})"
    text = tr(lang, "raised_again", tile=name)
    after = leaves(obs, t, lang) if assist else ""
    return f"{text} · {after}" if after else text


class Swipe:
    """A finger put down on a hand tile; lifted ``SWIPE_PX`` higher, it throws the tile."""

    def __init__(self) -> None:
        self.start: tuple[str, int | None, float] | None = None

    def down(self, code: str | None, index: int | None, y: float, pointer: str) -> None:
        """Pointer down at height ``y`` on tile ``code`` (None: not on a tile)."""
        self.start = (code, index, y) if code is not None and pointer in TOUCH else None

    def up(self, y: float) -> tuple[str, int | None] | None:
        """Pointer up at ``y``: the tile swiped up, or None."""
        start, self.start = self.start, None
        if start is None or start[2] - y < SWIPE_PX:
            return None
        return start[0], start[1]
