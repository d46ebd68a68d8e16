"""The UI's words: every word the pages' Python shows, in 中文 and English, by key.

The table, the learn page, the calculator and the embeds all look their words up here
with :func:`tr`, which fills ``{placeholders}`` (zh and en take the same ones; ``{s}``,
English's plural ending, is the one only English writes). The words are the one string
table, :data:`STRINGS`, kept as data in :mod:`sxmj.ui.strings` and re-exported here. The
English UI keeps the Chinese terms beside their explanation ("碰 Pung"), as players learn
the game by its Chinese names.

Words that belong to the game's data live with that data in the core: tile names
(:func:`sxmj.tiles.tile_name`), the scoring's patterns, 花 items and payment reasons
(``sxmj.messages.TERMS``), refusals (``sxmj.messages.MESSAGES``), rank titles
(:mod:`sxmj.ranks`), the scenarios' titles and coaching (:mod:`sxmj.scenarios`) and the
learn page's example hands (``sxmj.ui.pages.lessons.EXAMPLE_LIST``). The pages' static prose is
their HTML; the ``boot_*`` keys are the loading screen's words, for index.html's boot
script, which runs before Python does.

A vocabulary the UI names is defined once and its words are keyed ``<prefix>_<value>``:
:data:`LANGS` here (``lang_zh``); speeds and animations in :mod:`sxmj.ui.table.storage.saved`
(``speed_fast``, ``anim_quick``); bot levels ``sxmj.bots.LEVELS`` (``level_hard``); meld
kinds ``sxmj.melds.MELD_KINDS`` (``act_angang``); ``sxmj.scoring.WIN_BY``
(``win_by_kong``); rule options :class:`sxmj.rules.Options` (``rule_fan_cap``,
``rule_fan_cap_note``). ``tests/test_strings.py`` checks each one.

>>> tr("en", "wall_left", n=83, s="s")
'83 tiles left'
>>> tr("zh", "bot_thinking", name="阿福")
'阿福思考中…'
>>> lang_of(" EN "), lang_of("fr")
('en', 'zh')
"""

from __future__ import annotations

import re

from sxmj.tiles import tile_name
from sxmj.ui.strings import STRINGS

TILE_WORDS = (r"(?:\b[1-9](?:, [1-9])*(?:-[1-9])* (?:Characters?|Dots?|Bamboo)\b|"
              r"\b(?:East|South|West|North) Wind|\b(?:Red|Green|White) Dragon)")

LANGS = ("zh", "en")  # the page languages; zh is the default

__all__ = ["LANGS", "NBSP", "STRINGS", "lang_of", "seat_name", "tile_label", "tiles_words",
           "tr", "unbroken", "wind_char", "wind_name"]  # STRINGS: the table, from .strings


def tr(lang: str, key: str, /, **values: object) -> str:
    """The text of ``key`` in ``lang`` ('zh' or 'en'), with ``{placeholders}`` filled."""
    zh, en = STRINGS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def lang_of(value: str | None) -> str:
    """A ``?lang=`` value → one of :data:`LANGS` (zh for anything else)."""
    v = (value or "").strip().lower()
    return v if v in LANGS else "zh"


NBSP = "\u00a0"  # English tile names never break across lines: 9 Bamboo (九索) is one piece


def tile_label(t: int, lang: str) -> str:
    """A tile's name for people: 五万 / 5 Characters (五万), in one piece (no line break)."""
    zh = tile_name(t, "zh")
    return zh if lang == "zh" else f"{tile_name(t, 'en')} ({zh})".replace(" ", NBSP)


def unbroken(text: str) -> str:
    """``text`` with the English tile names in it kept whole (9 Bamboo, East Wind)."""
    return re.sub(TILE_WORDS, lambda m: m.group(0).replace(" ", NBSP), text)


def tiles_words(tiles, lang: str) -> str:
    """Tiles named as players say them, never in notation: a run or set of one suit as
    七八九索 / 7-8-9 Bamboo, anything else name by name (五万、东风 / 5 Characters, East Wind).

    >>> tiles_words([24, 25, 26], "zh"), tiles_words([24, 25, 26], "en")
    ('七八九索', '7-8-9\xa0Bamboo')
    >>> tiles_words([4, 27], "en")
    '5\xa0Characters, East\xa0Wind'
    """
    tiles = list(tiles)
    suits = {t // 9 for t in tiles}
    if len(tiles) > 1 and len(suits) == 1 and max(tiles) < 27:
        names = [tile_name(t, lang) for t in tiles]
        if lang == "zh":
            return "".join(n[:-1] for n in names) + names[0][-1]
        suit = tile_name(tiles[0] // 9 * 9 + 8, "en").split(" ", 1)[1]  # the plural name
        return "-".join(n.split(" ", 1)[0] for n in names) + NBSP + suit
    return ("、" if lang == "zh" else ", ").join(
        tile_name(t, lang).replace(" ", NBSP) for t in tiles)


def seat_name(seat: int, lang: str) -> str:
    """Seat 0 is the player; 1–3 are the bots to the right, across and left."""
    return tr(lang, "you") if seat == 0 else tr(lang, f"name_{seat}")


def wind_char(seat: int, dealer: int) -> str:
    """The seat wind (东南西北), counted from the dealer (always 东)."""
    return "东南西北"[(seat - dealer) % 4]


def wind_name(seat: int, dealer: int, lang: str) -> str:
    return tr(lang, f"wind_{(seat - dealer) % 4}")
