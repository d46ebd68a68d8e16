"""The calculator's markup, pure: the form (:func:`render_form`: targets, palette,
preview, fields) and the result region (:func:`outcome_html`)."""

from __future__ import annotations

from sxmj.melds import MELD_KINDS, Meld
from sxmj.rules import BASE_FLOWERS, RuleError
from sxmj.scoring import WIN_BY, InvalidHand
from sxmj.tiles import TileError, code, parse_tiles, tile, tile_name
from sxmj.ui.i18n import tile_label, tr
from sxmj.ui.markup import esc, tile_html
from sxmj.ui.pages.calc_state import PALETTE, TARGETS, CalcState, safe_tile, safe_tiles
from sxmj.ui.pages.hand_cards import (
    TileCtx,
    held_html,
    incomplete_html,
    invalid_html,
    melds_html,
    result_html,
    waits_html,
)
from sxmj.ui.pages.judge import analyse, judge, tile_count, tiles_of
from sxmj.ui.pages.lessons import EXAMPLE_LIST

# ------------------------------------------------------------------ computing


def outcome_html(st: CalcState, lang: str, show_hand: bool = False) -> str:
    """The result region: a win or not, the waits of 13 tiles, or what is missing."""
    try:
        request = st.request()
        count = tile_count(request)
        if not st.hand.strip() and not st.meld_list():
            return incomplete_html(0, lang)
        tiles_of(request, "hand")  # a hand that does not parse is the first thing to say
        if count == 13:
            try:
                return waits_html(analyse(request), lang, show_hand=show_hand)
            except (InvalidHand, RuleError) as e:
                return invalid_html(e, lang, bilingual=True)
        if count is not None and count < 13:
            return incomplete_html(count, lang)
        j = judge(request)
        if j.error is not None:
            return invalid_html(j.error, lang, bilingual=True)
        return result_html(j, lang, show_hand=show_hand)
    except (InvalidHand, RuleError, TileError) as e:
        return invalid_html(e, lang, bilingual=True)


def message_text(st: CalcState, lang: str) -> str:
    key = st.message
    if not key:
        return ""
    name, _, arg = key.partition(":")
    if name == "too_many":
        return tr(lang, "calc_note_too_many", tile=tile_label(tile(arg), lang))
    if name == "chi_bad":
        return tr(lang, "calc_note_chi_bad", tile=tile_name(tile(arg), lang))
    return tr(lang, "calc_note_" + name)


# ------------------------------------------------------------------ markup


def render_targets(st: CalcState, lang: str) -> str:
    label = {"hand": "to_hand", "meld": "to_meld", "flowers": "to_flowers",
             "caishen": "to_caishen", "win_tile": "to_win_tile"}
    out = [f'<span class="targets__label">{esc(tr(lang, "calc_to"))}</span>']
    out += [_segment("seg", "target", name, st.target, tr(lang, label[name]))
            for name in TARGETS]
    return "".join(out)


def render_kinds(st: CalcState, lang: str) -> str:
    if st.target != "meld":
        return ""
    return "".join(_segment("seg seg--small", "kind", kind, st.meld_kind,
                            tr(lang, "act_" + kind)) for kind in MELD_KINDS)


def _segment(cls: str, attr: str, value: str, chosen: str, label: str) -> str:
    """One button of a segmented choice, pressed when ``value`` is the ``chosen`` one."""
    pressed = "true" if chosen == value else "false"
    return (f'<button type="button" class="{cls}" data-{attr}="{value}" '
            f'aria-pressed="{pressed}">{esc(label)}</button>')


def render_palette(st: CalcState, lang: str) -> str:
    ctx = TileCtx(lang, safe_tile(st.caishen))
    rows = []
    for row in PALETTE:
        cells = []
        for x in parse_tiles(row):
            label = tr(lang, "add_tile", tile=tile_label(x, lang))
            cells.append(tile_html(
                x, ctx, tag="button", alt=False,
                attrs=f' type="button" data-tile="{code(x)}" title="{esc(label)}" '
                      f'aria-label="{esc(label)}"'))
        rows.append(f'<div class="palette__row">{"".join(cells)}</div>')
    return "".join(rows)


def render_preview(st: CalcState, lang: str) -> str:
    ctx = TileCtx(lang, safe_tile(st.caishen))
    hand = st.hand_tiles()
    count = tile_count(st.request())
    badge = (f'<p class="preview__head"><span>{esc(tr(lang, "preview"))}</span>'
             f'<span class="preview__count" data-count="{count if count is not None else ""}">'
             f'{esc(tr(lang, "tiles_n", n=count if count is not None else "?"))}</span></p>')
    if hand is None:
        return badge + f'<p class="preview__empty">{esc(st.hand)}</p>'
    parts = []
    win = safe_tile(st.win_tile) if st.win_tile.strip() else (hand[-1] if hand else None)
    if hand:
        apart = win if count == 14 else None
        parts.append(held_html(hand, apart, ctx, tr(lang, "winning_tile"), removable=True))
    melds = []
    for i, text in enumerate(st.meld_list()):
        try:
            m = Meld.parse(text, ctx.caishen)
        except RuleError:
            continue
        label = tr(lang, "remove_tile", tile=text)
        melds.append(f'<button type="button" class="meld-btn" data-remove-meld="{i}" '
                     f'title="{esc(label)}" aria-label="{esc(label)}">'
                     f"{melds_html([m], ctx)}</button>")
    if melds:
        parts.append(f'<span class="hf__melds">{"".join(melds)}</span>')
    flowers = safe_tiles(st.flowers)
    if flowers:
        faces = []
        for x in flowers:
            label = tr(lang, "remove_tile", tile=tile_label(x, lang))
            faces.append(tile_html(
                x, ctx, tag="button", alt=False,
                attrs=f' type="button" data-remove-flower="{code(x)}" aria-label="{esc(label)}"'))
        parts.append(f'<span class="hf__flowers"><span class="tg tg--flowers">{"".join(faces)}'
                     f"</span></span>")
    if not parts:
        return badge + f'<p class="preview__empty">{esc(tr(lang, "incomplete_note"))}</p>'
    return badge + f'<div class="hf">{"".join(parts)}</div>'


def _input(name: str, value: str, lang: str, wide: bool = False, hint: str = "") -> str:
    cls = "field field--wide" if wide else "field"
    ph = f' placeholder="{esc(hint)}"' if hint else ""
    return (f'<label class="{cls}" data-for="{name}"><span>{esc(tr(lang, "field_" + name))}'
            f'</span><input type="text" id="calc-f-{name}" data-field="{name}" '
            f'value="{esc(value)}" autocomplete="off" autocapitalize="off" spellcheck="false"'
            f' inputmode="text"{ph}></label>')


def _select(name: str, value: str, options: list[tuple[str, str]], lang: str) -> str:
    opts = "".join(f'<option value="{esc(v)}"{" selected" if v == value else ""}>{esc(label)}'
                   f"</option>" for v, label in options)
    return (f'<label class="field" data-for="{name}"><span>{esc(tr(lang, "field_" + name))}'
            f'</span><select id="calc-f-{name}" data-field="{name}">{opts}</select></label>')


def _check(name: str, value: bool, lang: str) -> str:
    return (f'<label data-for="{name}"><input type="checkbox" id="calc-f-{name}" '
            f'data-field="{name}"{" checked" if value else ""}>'
            f"<span>{esc(tr(lang, 'field_' + name))}</span></label>")


def render_form(st: CalcState, lang: str) -> str:
    """The input panel; rendered once per language (typing never re-renders it)."""
    win_by = [(w, tr(lang, "win_by_" + w)) for w in WIN_BY]
    bases = [(str(b), str(b)) for b in BASE_FLOWERS]
    caps = [(str(n), str(n)) for n in range(0, 6)]
    examples = "".join(
        f'<option value="{esc(e.id)}">{esc(e.title[0 if lang == "zh" else 1])}</option>'
        for e in EXAMPLE_LIST)
    return (
        f'<section class="calc__panel calc__in" aria-label="{esc(tr(lang, "palette"))}">'
        f'<div class="targets" id="calc-targets">{render_targets(st, lang)}</div>'
        f'<div class="meld-kinds" id="calc-kinds">{render_kinds(st, lang)}</div>'
        f'<div class="palette" id="calc-palette">{render_palette(st, lang)}</div>'
        f'<div class="preview" id="calc-preview" aria-live="polite">'
        f"{render_preview(st, lang)}</div>"
        f'<p class="calc__msg" id="calc-msg" role="status">{esc(message_text(st, lang))}</p>'
        f"</section>"
        f'<section class="calc__out" id="calc-out" aria-live="polite">'
        f"{outcome_html(st, lang)}</section>"
        f'<section class="calc__panel calc__more" aria-label="{esc(tr(lang, "context"))}">'
        f'<div class="calc__tools">'
        f'<button type="button" class="seg" data-ui="undo">{esc(tr(lang, "undo"))}</button>'
        f'<button type="button" class="seg" data-ui="clear">{esc(tr(lang, "clear"))}</button>'
        f'<select data-ui="example" aria-label="{esc(tr(lang, "example"))}">'
        f'<option value="">{esc(tr(lang, "example"))}</option>{examples}</select></div>'
        f'<div class="fields">'
        f'{_input("hand", st.hand, lang, wide=True, hint="123m456m789m123p5p9s")}'
        f'{_input("caishen", st.caishen, lang, hint="9s")}'
        f'{_input("win_tile", st.win_tile, lang, hint="5p")}'
        f'{_input("melds", st.melds, lang, wide=True, hint="peng 222z, chi 345m")}'
        f'{_input("flowers", st.flowers, lang, hint="1f2f5z")}'
        f"</div>"
        f'<details open><summary>{esc(tr(lang, "context"))}</summary><div class="fields">'
        f'{_select("win_by", st.win_by, win_by, lang)}'
        f'{_input("replacements", st.replacements, lang, hint="1")}'
        f'{_input("piao", st.piao, lang, hint="0")}'
        f'{_select("base_flowers", st.base_flowers, bases, lang)}'
        f'</div><div class="checks">{_check("first_turn", st.first_turn, lang)}'
        f'{_check("dealer", st.dealer, lang)}</div></details>'
        f'<details><summary>{esc(tr(lang, "rule_options"))}</summary><div class="checks">'
        f'{_check("flower_is_kong", st.flower_is_kong, lang)}'
        f'{_check("baotou_required", st.baotou_required, lang)}</div>'
        f'<div class="fields">{_select("fan_cap", st.fan_cap, caps, lang)}</div></details>'
        f"</section>")


def invalid_field(st: CalcState) -> str | None:
    """The field the current error names (its input gets marked), if any."""
    html = outcome_html(st, "en")
    marker = 'data-error="'
    if marker not in html:
        return None
    return html.split(marker, 1)[1].split('"', 1)[0]
