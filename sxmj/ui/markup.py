"""Markup shared by the table and the pages: escaping, tiles and melds.

Every tile face is drawn by :func:`tile_html`, from a :class:`TileLook` (the table's
:class:`sxmj.ui.table.state.TableState` or the pages' :class:`sxmj.ui.pages.hand_cards.TileCtx`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from html import escape
from typing import Protocol

from sxmj.game import Action
from sxmj.melds import Meld
from sxmj.scoring import Evaluation
from sxmj.tiles import code
from sxmj.ui.i18n import tile_label, tiles_words, tr

POS = {0: "bottom", 1: "right", 2: "top", 3: "left"}
ANGLE = {0: 0, 1: 270, 2: 180, 3: 90}  # how each seat's own frame is turned on screen
TILE_SRC = "./static/tiles/{}.svg"


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def powers_html(text: str) -> str:
    """Escaped ``text`` with each ``^n`` (as in ``2^番``) set as a superscript.

    The caret stays, visually hidden, for screen readers and for copied text.

    >>> powers_html("2^3 × 6")
    '2<sup><span class="sr-only">^</span>3</sup> × 6'
    """
    return re.sub(r"\^(\d+|番)", r'<sup><span class="sr-only">^</span>\1</sup>', esc(text))



def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


# ------------------------------------------------------------------ tiles


class TileLook(Protocol):
    """What the tile functions read from their state: :class:`TableState`, or the pages'
    :class:`sxmj.ui.pages.hand_cards.TileCtx`."""

    @property
    def lang(self) -> str: ...
    @property
    def caishen(self) -> int | None: ...
    def tr(self, key: str, /, **values: object) -> str: ...


def tile_of(a: Action) -> int:
    """The tile of a discard, claim or kong (the engine always names it for those)."""
    if a.tile is None:
        raise ValueError(f"{a} names no tile")
    return a.tile


def tile_html(t: int, st: TileLook, rot: int = 0, cls: str = "", tag: str = "span",
              attrs: str = "", alt: bool = True, note: str = "") -> str:
    """One tile face turned by ``rot`` degrees; a 财神 gets the gold frame and 财 badge."""
    rot %= 360
    classes = ["t", f"r{rot}"]
    cai = t == st.caishen
    if cai:
        classes.append("is-cai")
    if cls:
        classes.append(cls)
    name = tile_label(t, st.lang)
    if cai:
        name += f" ({st.tr('caishen')})"
    img_alt = esc(name) if alt else ""
    badge = f'<i class="cai" aria-hidden="true">{esc(st.tr("caishen_badge"))}</i>' if cai else ""
    extra = f'<i class="t__note">{esc(note)}</i>' if note else ""
    return (f'<{tag} class="{" ".join(classes)}"{attrs}>'
            f'<img src="{TILE_SRC.format(code(t))}" alt="{img_alt}" draggable="false">'
            f"{badge}{extra}</{tag}>")


def back_html(rot: int = 0, cls: str = "") -> str:
    """A face-down tile (an 暗杠's outer tiles)."""
    rot %= 360
    return (f'<span class="t r{rot} t--back {cls}" aria-hidden="true">'
            f'<img src="{TILE_SRC.format("back")}" alt="" draggable="false"></span>')


def group_html(tiles: Iterable[int], st: TileLook, cls: str = "") -> str:
    """Small upright tiles side by side (claim choices, result sets)."""
    inner = "".join(tile_html(t, st) for t in tiles)
    return f'<span class="tg {cls}">{inner}</span>'


# ------------------------------------------------------------------ melds


def meld_html(meld: Meld, seat: int, st: TileLook) -> str:
    """A meld in ``seat``'s frame: the claimed tile turned toward its giver.

    The giver sits on the melder's left (上家), across or right (下家); the turned
    tile goes first, in the middle or last accordingly.
    """
    kind, tiles, source, claimed = meld.kind, meld.tiles, meld.source, meld.claimed
    angle = ANGLE[seat]
    label = f"{tr(st.lang, 'act_' + kind)} {tiles_words(tiles, st.lang)}"
    if kind == "angang":
        t = tiles[0]
        parts = [back_html(angle), tile_html(t, st, angle), tile_html(t, st, angle),
                 back_html(angle)]
        return (f'<span class="meld" data-kind="angang" role="img" aria-label="{esc(label)}">'
                f'{"".join(parts)}</span>')
    rel = (source - seat) % 4 if source is not None else 3
    turn = 90 if rel == 1 else -90
    if claimed is None:  # a meld given without a table: its first tile turned
        claimed = tiles[0]
    rest = list(tiles)
    rest.remove(claimed)
    if kind == "jiagang":
        rest.remove(claimed)  # the added tile lies on the turned one
        turned = ('<span class="stack">' + tile_html(claimed, st, angle + turn) +
                  tile_html(claimed, st, angle + turn) + "</span>")
    else:
        turned = tile_html(claimed, st, angle + turn, cls="is-claimed")
    at = {3: 0, 2: 1, 1: len(rest)}[rel]
    faces = [tile_html(t, st, angle) for t in rest]
    faces.insert(at, turned)
    return (f'<span class="meld" data-kind="{esc(kind)}" role="img" aria-label="{esc(label)}">'
            f'{"".join(faces)}</span>')


def reading_sets(ev: Evaluation, look: TileLook, wild_name: Callable[[int], str]
                 ) -> tuple[list[str], bool]:
    """The sets and the pair of a winning reading, the winning tile marked once; under a set
    with a 财神, a caption says what it stands for (``wild_name`` of that tile), in the
    flow: a long caption widens its set and wraps, never running into its neighbour's.
    Returns the sets and whether a tile was marked."""
    win_tile = ev.win_tile
    marked = False
    sets = []
    for kind, members in ev.groups:
        faces = []
        notes = []
        for t, wild in members:
            shown = look.caishen if wild else t
            if shown is None:  # a reading with a wild has a 财神; a plain tile is named
                raise ValueError(f"{kind}: a wild without a 财神")
            is_win = not marked and ((wild and win_tile == look.caishen) or
                                     (not wild and t == win_tile))
            marked = marked or is_win
            if wild:
                notes.append(look.tr("wild_as", tile=wild_name(t)) if t is not None
                             else look.tr("wild_free"))
            faces.append(tile_html(shown, look, cls="is-win" if is_win else ""))
        caption = (f'<span class="tg__note">{esc(" · ".join(dict.fromkeys(notes)))}</span>'
                   if notes else "")
        sets.append(f'<span class="tg tg--set{" tg--noted" if notes else ""}" '
                    f'data-kind="{esc(kind)}"><span class="tg__tiles">{"".join(faces)}</span>'
                    f'{caption}</span>')
    return sets, marked
