"""Markup for hands and their analysis, shared by learn.html, calc.html and embed.html.

Pure functions from a :class:`~sxmj.ui.pages.judge.Judgement` or
:class:`~sxmj.ui.pages.judge.Analysis` to one string of escaped markup. Tiles, melds and
tile groups are drawn by the table's own functions in :mod:`sxmj.ui.markup` (the 财神 gold
frame and 财 badge included), through :class:`TileCtx`, which gives them the language
and the 财神 the way the table's state does.

The result of the calculator and of a hand embed is one element
``[data-testid="calc-result"]`` with ``data-win`` ("true"/"false"), ``data-fan`` and
``data-share`` (the evaluate JSON command's numbers), plus ``data-state``: ``win``,
``no-win``, ``waits`` (13 tiles), ``invalid`` (with ``data-error``, the field) or
``incomplete``.

>>> from sxmj.ui.pages.judge import judge
>>> html = result_html(judge({"hand": "123m456m789m123p5p9s", "win_tile": "5p",
...                           "caishen": "9s"}), "en")
>>> 'data-win="true" data-fan="1" data-share="12"' in html
True
"""

from __future__ import annotations

from dataclasses import dataclass

from sxmj.melds import Meld
from sxmj.scoring import FLOWER_ITEMS, WIN_BY, settle_detail
from sxmj.tiles import code, format_tiles, sort_key, tile_name
from sxmj.ui.i18n import tile_label, tr
from sxmj.ui.markup import esc, group_html, meld_html, powers_html, reading_sets, tile_html
from sxmj.ui.pages.judge import Analysis, Judgement, error_text


@dataclass(frozen=True)
class TileCtx:
    """What the table's tile functions read from their state: the language and the 财神."""

    lang: str
    caishen: int | None

    def tr(self, key: str, /, **values: object) -> str:
        return tr(self.lang, key, **values)


# ------------------------------------------------------------------ tiles


def tiles_html(tiles: list[int], ctx: TileCtx, cls: str = "") -> str:
    """Tiles side by side, upright (the table's tile group)."""
    return group_html(list(tiles), ctx, cls)


def melds_html(melds, ctx: TileCtx) -> str:
    """Melds as the table draws them: a claimed tile turned, a 暗杠 with two backs."""
    out = []
    for m in melds:
        claimed = None if m.kind == "angang" else m.tiles[0]
        out.append(meld_html(Meld(m.kind, m.tiles, None if claimed is None else 3, claimed),
                                  0, ctx))
    return "".join(out)


def held_html(hand: list[int], win_tile: int | None, ctx: TileCtx, apart_label: str = "",
              removable: bool = False) -> str:
    """A concealed hand as a player holds it: 财神 far left, the winning tile apart."""
    tiles = sorted(hand, key=sort_key(ctx.caishen))
    apart = None
    if win_tile is not None and win_tile in tiles:
        tiles.remove(win_tile)
        apart = win_tile
    faces = []
    for i, x in enumerate(tiles):
        faces.append(_face(x, ctx, removable, i))
    out = f'<span class="tg tg--held">{"".join(faces)}</span>'
    if apart is not None:
        label = f'<i class="tg__label">{esc(apart_label)}</i>' if apart_label else ""
        out += (f'<span class="tg tg--apart">'
                f'{_face(apart, ctx, removable, len(tiles), cls="is-win")}{label}</span>')
    return out


def _face(x: int, ctx: TileCtx, removable: bool, i: int, cls: str = "") -> str:
    if not removable:
        return tile_html(x, ctx, cls=cls)
    label = tr(ctx.lang, "remove_tile", tile=tile_label(x, ctx.lang))
    return tile_html(x, ctx, cls=cls, tag="button",
                          attrs=f' type="button" data-remove="{code(x)}" title="{esc(label)}"'
                                f' aria-label="{esc(label)}"', alt=False)


def hand_figure(hand: list[int], win_tile: int | None, melds, flowers: list[int],
                ctx: TileCtx, win_by: str = "draw") -> str:
    """The hand, its melds and its flowers in one row (wrapping on narrow screens)."""
    label = tr(ctx.lang, "robbed" if win_by == "rob" else "drawn")
    parts = [held_html(hand, win_tile, ctx, label)]
    if melds:
        parts.append(f'<span class="hf__melds">{melds_html(melds, ctx)}</span>')
    if flowers:
        parts.append(f'<span class="hf__flowers" title="{esc(tr(ctx.lang, "flower_tiles"))}">'
                     f'{tiles_html(flowers, ctx, "tg--flowers")}</span>')
    return f'<div class="hf">{"".join(parts)}</div>'


def reading_html(ev, ctx: TileCtx) -> str:
    """The winning reading: each set and the pair, a 财神 noting what it stands for."""
    return "".join(reading_sets(ev, ctx, lambda t: tile_name(t, ctx.lang))[0])


# ------------------------------------------------------------------ results


def _result_attrs(win: bool, fan: int, share: int, state: str, extra: str = "") -> str:
    return (f'data-testid="calc-result" data-win="{"true" if win else "false"}" '
            f'data-fan="{fan}" data-share="{share}" data-state="{state}"{extra}')


def result_html(j: Judgement, lang: str, show_hand: bool = True) -> str:
    """The evaluator's answer: verdict, numbers, reading, explanation lines, payments."""
    if j.error is not None:
        return invalid_html(j.error, lang)
    ev = j.evaluation
    ctx = TileCtx(lang, ev.caishen)
    request = j.request
    hand = hand_figure(_hand_of(request), ev.win_tile, ev.melds,
                       _flowers_of(request), ctx, request.get("win_by", "draw")) \
        if show_hand else ""
    context = context_html(request, ctx)
    explained = ev.explain(lang)
    last = len(explained) - 1 if j.win else -1  # a win's last line is the formula
    formula = ' class="res__formula"'
    lines = "".join(f'<li{formula}>{powers_html(line)}</li>' if i == last else  # 2¹, not 2^1
                    f'<li>{esc(line)}</li>' for i, line in enumerate(explained))
    if not j.win:
        extra = ' data-patterns=""'
        return (f'<section class="res res--no" {_result_attrs(False, 0, 0, "no-win", extra)}>'
                f'<header class="res__head"><b class="res__verdict">'
                f'{esc(tr(lang, "verdict_no"))}</b></header>{hand}{context}'
                f'<ul class="res__lines">{lines}</ul></section>')
    items = " ".join(item for item, _, _ in ev.flower_items)
    extra = (f' data-patterns="{esc(" ".join(ev.patterns))}" data-items="{esc(items)}"'
             f' data-hua="{ev.flowers}"')
    numbers = tr(lang, "fan_hua_share", fan=j.fan, hua=ev.flowers, share=j.share)
    reading = (f'<div class="res__reading" role="group" aria-label="{esc(tr(lang, "reading"))}">'
               f'{reading_html(ev, ctx)}</div>')
    return (f'<section class="res res--win" {_result_attrs(True, j.fan, j.share, "win", extra)}>'
            f'<header class="res__head"><b class="res__verdict">{esc(tr(lang, "verdict_win"))}'
            f'</b><span class="res__nums">{esc(numbers)}</span></header>'
            f"{hand}{context}{reading}"
            f'<ol class="res__lines">{lines}</ol>'
            f'<p class="res__pay">{esc(payment_text(j, lang))}</p></section>')


def payment_text(j: Judgement, lang: str) -> str:
    win_by = j.request.get("win_by", "draw")
    st = settle_detail(j.share, winner=0, robbed=3 if win_by == "rob" else None)
    if win_by == "rob":
        return tr(lang, "pays_rob", total=st.amounts[0])
    return tr(lang, "pays_each", share=j.share, total=st.amounts[0])


def context_html(request: dict, ctx: TileCtx) -> str:
    """The 财神 and the win context as small chips."""
    lang = ctx.lang
    chips = [f'<span class="chip chip--cai">{esc(tr(lang, "caishen"))} '
             f'{tile_html(ctx.caishen, ctx)}</span>'] if ctx.caishen is not None else []
    win_by = request.get("win_by", "draw")
    if win_by in WIN_BY and (win_by != "draw" or "win_tile" in request):
        chips.append(f'<span class="chip">{esc(tr(lang, "win_by_" + win_by))}</span>')
    reps = request.get("replacements")
    if isinstance(reps, int) and reps > 1:
        chips.append(f'<span class="chip">{esc(tr(lang, "context_replacements", n=reps))}</span>')
    piao = request.get("piao")
    if isinstance(piao, int) and piao:
        chips.append(f'<span class="chip">{esc(tr(lang, "context_piao", n=piao))}</span>')
    for flag in ("first_turn", "dealer"):
        if request.get(flag) is True:
            chips.append(f'<span class="chip">{esc(tr(lang, "context_" + flag))}</span>')
    base = request.get("base_flowers")
    if isinstance(base, int) and base != 5:
        chips.append(f'<span class="chip">{esc(tr(lang, "context_base", n=base))}</span>')
    return f'<p class="chips">{"".join(chips)}</p>' if chips else ""


def invalid_html(err: Exception, lang: str, bilingual: bool = False) -> str:
    """An input error in words, naming the field and the tile (never a traceback)."""
    field = getattr(err, "field", "input")
    texts = [error_text(err, lang)]
    if bilingual:
        other = error_text(err, "en" if lang == "zh" else "zh")
        if other != texts[0]:
            texts.append(other)
    langs = [lang, "en" if lang == "zh" else "zh"]
    body = "".join(f'<p class="res__error" lang="{"zh-Hans" if langs[i] == "zh" else "en"}">'
                   f"{esc(x)}</p>" for i, x in enumerate(texts))
    attrs = _result_attrs(False, 0, 0, "invalid", f' data-error="{esc(field)}"')
    return (f'<section class="res res--invalid" {attrs} role="alert">'
            f'<header class="res__head"><b class="res__verdict">{esc(tr(lang, "verdict_invalid"))}'
            f"</b></header>{body}</section>")


def incomplete_html(count: int, lang: str) -> str:
    attrs = _result_attrs(False, 0, 0, "incomplete", f' data-tiles="{count}"')
    return (f'<section class="res res--incomplete" {attrs}>'
            f'<header class="res__head"><b class="res__verdict">'
            f'{esc(tr(lang, "verdict_incomplete"))}</b>'
            f'<span class="res__nums">{esc(tr(lang, "tiles_n", n=count))}</span></header>'
            f'<p class="res__note">{esc(tr(lang, "incomplete_note"))}</p></section>')


def _s(n: int) -> str:
    """The English plural's s: 1 kind, 2 kinds."""
    return "" if n == 1 else "s"


def waits_html(a: Analysis, lang: str, show_hand: bool = True) -> str:
    """A 13-tile hand: its waits (each with what it would score), or how far from ready."""
    ctx = TileCtx(lang, a.caishen)
    waits = " ".join(code(w.tile) for w in a.waits)
    extra = (f' data-waits="{esc(waits)}" data-ready="{"true" if a.ready else "false"}"'
             f' data-baotou-ready="{"true" if a.baotou_ready else "false"}"'
             f' data-distance="{a.distance}"')
    hand = hand_figure(a.hand, None, a.melds, _flowers_of(a.request), ctx) if show_hand else ""
    context = context_html({k: v for k, v in a.request.items() if k != "win_by"}, ctx)
    if a.baotou_ready:
        verdict = tr(lang, "verdict_baotou_ready")
    elif a.ready:
        verdict = tr(lang, "verdict_ready")
    else:
        verdict = tr(lang, "verdict_not_ready")
    body = []
    if a.ready:
        if a.baotou_ready:
            body.append(f'<p class="res__note">{esc(tr(lang, "baotou_ready_note"))}</p>')
        cells = []
        for w in a.waits:
            j = w.judgement
            pats = " ".join(j.evaluation.patterns)
            cells.append(
                f'<li class="wait" data-tile="{code(w.tile)}" data-fan="{j.fan}" '
                f'data-share="{j.share}" data-patterns="{esc(pats)}">'
                f"{tile_html(w.tile, ctx)}"
                f'<span class="wait__score">{esc(tr(lang, "wait_share", fan=j.fan, share=j.share))}'
                f"</span></li>")
        body.append(f'<h2 class="res__sub">{esc(tr(lang, "waits_title"))} · '
                    f'{esc(tr(lang, "waits_count", n=len(a.waits), s=_s(len(a.waits))))}</h2>'
                    f'<ul class="waits">{"".join(cells)}</ul>')
    else:
        distance = tr(lang, "distance", n=a.distance, s=_s(a.distance))
        body.append(f'<p class="res__note">{esc(distance)}</p>')
    if not a.baotou_ready:
        note = (tr(lang, "no_caishen") if a.baotou_distance >= 99
                else tr(lang, "baotou_distance", n=a.baotou_distance, s=_s(a.baotou_distance)))
        body.append(f'<p class="res__note res__note--soft">{esc(note)}</p>')
    return (f'<section class="res res--waits" {_result_attrs(False, 0, 0, "waits", extra)}>'
            f'<header class="res__head"><b class="res__verdict">{esc(verdict)}</b></header>'
            f'{hand}{context}{"".join(body)}</section>')


def unexpected_html(detail: str, lang: str) -> str:
    """A bug, not bad input: say so in both languages (the page logs the traceback)."""
    attrs = _result_attrs(False, 0, 0, "invalid", ' data-error="internal"')
    return (f'<section class="res res--invalid" {attrs} role="alert"><header class="res__head">'
            f'<b class="res__verdict">{esc(tr("zh", "error_unexpected"))} '
            f'<span lang="en">{esc(tr("en", "error_unexpected"))}</span></b></header>'
            f'<pre class="res__detail">{esc(detail[-600:])}</pre></section>')


# ------------------------------------------------------------------ helpers


def _hand_of(request: dict) -> list[int]:
    from sxmj.tiles import parse_tiles
    return parse_tiles(request["hand"])


def _flowers_of(request: dict) -> list[int]:
    from sxmj.tiles import parse_tiles
    value = request.get("flowers")
    try:
        return parse_tiles(value) if isinstance(value, str) and value else []
    except ValueError:
        return []


def flower_item_name(item: str, lang: str) -> str:
    zh, en, _ = FLOWER_ITEMS[item]
    return zh if lang == "zh" else f"{en} ({zh})"


def notation(tiles: list[int]) -> str:
    return format_tiles(tiles)
