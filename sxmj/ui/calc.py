"""calc.html: the hand calculator (``calc_main.py``), also embedded by ``embed.html?mode=calc``.

Enter a hand by clicking the tile palette or by typing notation; add melds, flowers, the
财神 and the win context; the result is the evaluator's, explained item by item. A hand
of 13 tiles (melds counting 3) shows its waits instead. The request is the evaluate JSON
command's (``sxmj.ui.judge``), so the calculator and ``python3 -m sxmj evaluate`` agree.

Testing contract: ``[data-testid="calc-result"]`` with ``data-win``, ``data-fan`` and
``data-share``; the inputs are ``[data-field=NAME]`` (hand, win_tile, caishen, melds,
flowers, win_by, replacements, piao, first_turn, dealer, base_flowers, flower_is_kong,
baotou_required, fan_cap); palette tiles are ``#calc-palette [data-tile]``. The URL holds
the state (``calc.html?hand=…&caishen=…``), so a link reproduces a hand.

The state and every piece of markup are pure (:class:`CalcState`, :func:`render_*`); only
:class:`Calc` touches the DOM.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, replace

from ..melds import MELD_KINDS, Meld
from ..rules import BASE_FLOWERS, RuleError
from ..scoring import WIN_BY, InvalidHand
from ..tiles import NUM_PLAYING, TileError, code, format_tiles, parse_tiles, tile, tile_name
from . import view
from .cards import (
    TileCtx,
    held_html,
    incomplete_html,
    invalid_html,
    melds_html,
    result_html,
    waits_html,
)
from .i18n import tile_label, tr
from .judge import (
    BOOL_FIELDS,
    FIELDS,
    OPTION_FIELDS,
    analyse,
    error_text,
    judge,
    last_tile,
    request_from_params,
    split_melds,
    tile_count,
    tiles_of,
)
from .lessons import EXAMPLE_LIST, EXAMPLES
from .params import MAX_VALUE, Refusal, is_whole, refusal

esc = view.esc

TARGETS = ("hand", "meld", "flowers", "caishen", "win_tile")
PALETTE = ("123456789m", "123456789p", "123456789s", "1234z", "567z12345678f")
TEXT_FIELDS = ("hand", "win_tile", "caishen", "melds", "flowers")
DEFAULTS = {"win_by": "draw", "replacements": "", "piao": "0", "base_flowers": "5",
            "flower_is_kong": True, "baotou_required": False, "fan_cap": "3",
            "first_turn": False, "dealer": False, "caishen": "9s"}


# ------------------------------------------------------------------ state


@dataclass(frozen=True)
class CalcState:
    """Everything the calculator holds; the text fields are notation as typed."""

    hand: str = ""
    win_tile: str = ""
    caishen: str = "9s"
    melds: str = ""
    flowers: str = ""
    win_by: str = "draw"
    replacements: str = ""
    piao: str = "0"
    first_turn: bool = False
    dealer: bool = False
    base_flowers: str = "5"
    flower_is_kong: bool = True
    baotou_required: bool = False
    fan_cap: str = "3"
    target: str = "hand"
    meld_kind: str = "peng"
    message: str = ""  # a note on the last click ("<code>[:<tile>]": i18n calc_note_<code>)

    # -------------------------------------------------------- requests and URLs

    def request(self) -> dict:
        """The evaluate request; blank optional fields are left out."""
        params = {k: v for k, v in self.params()}
        params.setdefault("caishen", self.caishen)
        query = request_from_params(params)
        request = query.request
        if not self.win_tile.strip() and self.hand.strip():
            last = last_tile(self.hand)
            if last:
                request["win_tile"] = last
        return request

    def params(self) -> list[tuple[str, str]]:
        """URL parameters that reproduce this state (defaults left out)."""
        out = []
        for name in ("hand", "win_tile", "caishen", "melds", "flowers", "win_by",
                     "replacements", "piao", "first_turn", "dealer", "base_flowers",
                     "flower_is_kong", "baotou_required", "fan_cap"):
            value = getattr(self, name)
            if isinstance(value, bool):
                if value != DEFAULTS[name]:
                    out.append((name, "1" if value else "0"))
                continue
            value = value.strip()
            if name == "melds":
                value = ",".join(split_melds(value))
            if value and value != DEFAULTS.get(name):
                out.append((name, value))
        return out

    @staticmethod
    def from_params(params: dict[str, str]) -> tuple[CalcState, RuleError | None]:
        """The state of a URL (``calc.html?hand=…``) and the first bad switch, in the
        calculator's words (see :func:`read_calc`, which also names what was not used)."""
        state, error, _ = read_calc(params)
        return state, error

    # -------------------------------------------------------- editing

    def set(self, name: str, value) -> CalcState:
        return replace(self, **{name: value, "message": ""})

    def hand_tiles(self) -> list[int] | None:
        try:
            return parse_tiles(self.hand)
        except TileError:
            return None

    def meld_list(self) -> list[str]:
        return split_melds(self.melds)

    def click(self, c: str) -> CalcState:
        """A palette tile: into the target (a flower always goes to the flowers)."""
        x = tile(c)
        st = replace(self, message="")
        target = self.target
        if x >= NUM_PLAYING and target in ("hand", "meld", "win_tile", "caishen"):
            if target == "caishen":
                return replace(st, message="caishen_flower")
            if target == "meld":
                return replace(st, message="meld_flower")
            if target == "win_tile":
                return replace(st, message="win_flower")
            target = "flowers"
            st = replace(st, message="flower_to_flowers")
        if target == "caishen":
            return replace(st, caishen=c)
        if target == "win_tile":
            return replace(st, win_tile=c)
        if target == "flowers":
            have = _safe_tiles(self.flowers)
            if x in have:
                return replace(st, message="too_many_flower")
            return replace(st, flowers=format_tiles(have + [x]))
        if self._copies(x) >= 4:
            return replace(st, message="too_many:" + c)
        if target == "meld":
            return self._add_meld(st, x)
        hand = self.hand_tiles()
        if hand is None:
            return replace(st, hand=(self.hand + c))
        if len(hand) + 3 * len(self.meld_list()) >= 14:
            return replace(st, message="hand_full")
        return replace(st, hand=format_tiles(hand + [x]))

    def _add_meld(self, st: CalcState, x: int) -> CalcState:
        kind = self.meld_kind
        caishen = _safe_tile(self.caishen)
        if kind == "chi":
            if x >= 27 or x % 9 > 6:
                return replace(st, message="chi_bad:" + code(x))
            tiles = [x, x + 1, x + 2]
        else:
            tiles = [x] * (3 if kind == "peng" else 4)
        if caishen in tiles:
            return replace(st, message="meld_caishen")
        for y in set(tiles):
            if self._copies(y) + tiles.count(y) > 4:
                return replace(st, message="too_many:" + code(y))
        hand = self.hand_tiles() or []
        if len(hand) + 3 * (len(self.meld_list()) + 1) > 14:
            return replace(st, message="hand_full")
        melds = self.meld_list() + [f"{kind} {format_tiles(tiles)}"]
        return replace(st, melds=", ".join(melds))

    def _copies(self, x: int) -> int:
        n = (self.hand_tiles() or []).count(x)
        for m in self.meld_list():
            try:
                n += parse_tiles(m.split()[-1]).count(x)
            except (TileError, IndexError):
                pass
        return n

    def remove(self, c: str) -> CalcState:
        hand = self.hand_tiles()
        x = tile(c)
        if hand is None or x not in hand:
            return self
        i = len(hand) - 1 - hand[::-1].index(x)
        del hand[i]
        win = self.win_tile if self.win_tile != c or x in hand else ""
        return replace(self, hand=format_tiles(hand), win_tile=win, message="")

    def remove_meld(self, i: int) -> CalcState:
        melds = self.meld_list()
        if 0 <= i < len(melds):
            del melds[i]
        return replace(self, melds=", ".join(melds), message="")

    def remove_flower(self, c: str) -> CalcState:
        have = _safe_tiles(self.flowers)
        x = tile(c)
        if x in have:
            have.remove(x)
        return replace(self, flowers=format_tiles(have), message="")

    def undo(self) -> CalcState:
        """Take back the last tile of the target (hand, melds or flowers)."""
        if self.target == "meld" and self.meld_list():
            return self.remove_meld(len(self.meld_list()) - 1)
        if self.target == "flowers":
            have = _safe_tiles(self.flowers)
            return replace(self, flowers=format_tiles(have[:-1]), message="")
        hand = self.hand_tiles()
        if hand:
            return replace(self, hand=format_tiles(hand[:-1]), message="")
        return self

    def clear(self) -> CalcState:
        return CalcState(caishen=self.caishen, target="hand")

    def load(self, request: dict) -> CalcState:
        """An example's request into the calculator."""
        options = request.get("options") or {}
        return CalcState(
            hand=request.get("hand", ""), win_tile=request.get("win_tile", ""),
            caishen=request.get("caishen", "9s"), melds=", ".join(request.get("melds", [])),
            flowers=request.get("flowers", ""), win_by=request.get("win_by", "draw"),
            replacements=str(request.get("replacements", "")),
            piao=str(request.get("piao", 0)), first_turn=bool(request.get("first_turn")),
            dealer=bool(request.get("dealer")),
            base_flowers=str(request.get("base_flowers", 5)),
            flower_is_kong=options.get("flower_is_kong", True),
            baotou_required=options.get("baotou_required", False),
            fan_cap=str(options.get("fan_cap", 3)))


URL_FIELDS = FIELDS + OPTION_FIELDS  # the calculator's URL parameters, besides lang
CHOICES = {"win_by": WIN_BY, "base_flowers": tuple(str(b) for b in BASE_FLOWERS),
           "fan_cap": tuple(str(n) for n in range(6))}  # the form's drop-downs


def read_calc(params: dict[str, str], known: tuple[str, ...] = ("lang",)
              ) -> tuple[CalcState, RuleError | None, list[Refusal]]:
    """The state of a URL, the first bad switch (explained in the calculator's message line)
    and the parameters it did not use (the notice): unknown names (other than ``known``),
    values longer than any hand, a switch that is not ``1``/``0`` and a drop-down's value it
    does not offer, each left at its default. What is typed into a text field (hand, tiles,
    melds, replacements, 飘) is kept as written: the result explains it, naming the field.

    >>> st, error, refused = read_calc({"hand": "123m", "dealer": "perhaps", "colour": "red"})
    >>> st.hand, st.dealer, error.field, [(r.param, r.kind) for r in refused]
    ('123m', False, 'dealer', [('dealer', 'bad'), ('colour', 'unknown')])
    """
    values: dict = {}
    error = None
    refused: list[Refusal] = []
    for name, value in params.items():
        if name in known:
            continue
        if name not in URL_FIELDS:
            refused.append(refusal(name, value, "unknown"))
            continue
        if len(value) > MAX_VALUE:
            refused.append(refusal(name, value, "long", str(MAX_VALUE)))
            continue
        text = value.strip()
        if not text:
            continue  # blank: the default, as if absent
        if name in BOOL_FIELDS:
            flag = request_from_params({name: value}).error
            if flag is not None:
                error = error or flag
                refused.append(refusal(name, value, expected="1 | 0"))
                continue
            values[name] = text.lower() in ("1", "true", "yes", "on")
        elif name in CHOICES:
            if text not in CHOICES[name]:
                refused.append(refusal(name, value, expected=" | ".join(CHOICES[name])))
                continue
            values[name] = text
        elif name == "melds":
            values[name] = ", ".join(split_melds(value))
        else:
            values[name] = text
    return CalcState(**values), error, refused


def _safe_tiles(text: str) -> list[int]:
    try:
        return parse_tiles(text)
    except TileError:
        return []


def _safe_tile(text: str) -> int | None:
    try:
        return tile(text)
    except (TileError, ValueError):
        return None


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
    for name in TARGETS:
        pressed = "true" if st.target == name else "false"
        out.append(f'<button type="button" class="seg" data-target="{name}" '
                   f'aria-pressed="{pressed}">{esc(tr(lang, label[name]))}</button>')
    return "".join(out)


def render_kinds(st: CalcState, lang: str) -> str:
    if st.target != "meld":
        return ""
    out = []
    for kind in MELD_KINDS:
        pressed = "true" if st.meld_kind == kind else "false"
        out.append(f'<button type="button" class="seg seg--small" data-kind="{kind}" '
                   f'aria-pressed="{pressed}">{esc(tr(lang, "act_" + kind))}</button>')
    return "".join(out)


def render_palette(st: CalcState, lang: str) -> str:
    ctx = TileCtx(lang, _safe_tile(st.caishen))
    rows = []
    for row in PALETTE:
        cells = []
        for x in parse_tiles(row):
            label = tr(lang, "add_tile", tile=tile_label(x, lang))
            cells.append(view.tile_html(
                x, ctx, tag="button", alt=False,
                attrs=f' type="button" data-tile="{code(x)}" title="{esc(label)}" '
                      f'aria-label="{esc(label)}"'))
        rows.append(f'<div class="palette__row">{"".join(cells)}</div>')
    return "".join(rows)


def render_preview(st: CalcState, lang: str) -> str:
    ctx = TileCtx(lang, _safe_tile(st.caishen))
    hand = st.hand_tiles()
    count = tile_count(st.request())
    badge = (f'<p class="preview__head"><span>{esc(tr(lang, "preview"))}</span>'
             f'<span class="preview__count" data-count="{count if count is not None else ""}">'
             f'{esc(tr(lang, "tiles_n", n=count if count is not None else "?"))}</span></p>')
    if hand is None:
        return badge + f'<p class="preview__empty">{esc(st.hand)}</p>'
    parts = []
    win = _safe_tile(st.win_tile) if st.win_tile.strip() else (hand[-1] if hand else None)
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
    flowers = _safe_tiles(st.flowers)
    if flowers:
        faces = []
        for x in flowers:
            label = tr(lang, "remove_tile", tile=tile_label(x, lang))
            faces.append(view.tile_html(
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


# ------------------------------------------------------------------ the DOM


class Calc:
    """The calculator in a page: ``root_id`` is the element it fills."""

    def __init__(self, page, root_id: str, state: CalcState, sync_url: bool = True):
        self.page = page
        self.root_id = root_id
        self.state = state
        self.sync_url = sync_url
        self.shown: dict[str, str] = {}

    def mount(self) -> None:
        html = render_form(self.state, self.page.lang)
        self.page.fill(self.root_id, html)
        self.shown = {f: getattr(self.state, f) for f in CalcState.__dataclass_fields__}
        root = self.page.document.getElementById(self.root_id)
        self.page.listen(root, "click", self.on_click)
        self.page.listen(root, "input", self.on_input)
        self.page.listen(root, "change", self.on_input)
        self.mark_invalid()

    def rerender(self) -> None:
        """After a language switch: everything again, in the new language."""
        self.page.cache.pop(self.root_id, None)
        self.page.fill(self.root_id, render_form(self.state, self.page.lang))
        self.page.cache.clear()
        self.mark_invalid()

    def update(self, state: CalcState, typed: str | None = None) -> None:
        """Show a new state: only the regions and inputs that changed."""
        old = self.state
        self.state = state
        lang = self.page.lang
        page = self.page
        page.fill("calc-targets", render_targets(state, lang))
        page.fill("calc-kinds", render_kinds(state, lang))
        if old.caishen != state.caishen:
            page.fill("calc-palette", render_palette(state, lang))
        page.fill("calc-preview", render_preview(state, lang))
        page.fill("calc-msg", esc(message_text(state, lang)))
        page.fill("calc-out", outcome_html(state, lang))
        for name in TEXT_FIELDS:
            value = getattr(state, name)
            if name != typed and value != getattr(old, name):
                element = page.document.getElementById(f"calc-f-{name}")
                if element is not None:
                    element.value = value
        self.mark_invalid()
        if self.sync_url:
            from .page import query_of
            page.replace_url(query_of(state.params(), lang))

    def mark_invalid(self) -> None:
        field = invalid_field(self.state)
        if field == getattr(self, "_marked", None):
            return
        doc = self.page.document
        old = getattr(self, "_marked", None)
        if old:
            el = doc.querySelector(f'[data-for="{old}"]')
            if el is not None:
                el.removeAttribute("data-invalid")
        if field:
            el = doc.querySelector(f'[data-for="{field}"]')
            if el is not None:
                el.setAttribute("data-invalid", "true")
        self._marked = field

    def on_click(self, event) -> None:
        from .page import attr, closest
        button = closest(event, "button, [data-tile]")
        if button is None:
            return
        st = self.state
        for name, action in (("data-tile", st.click), ("data-remove", st.remove),
                             ("data-remove-flower", st.remove_flower)):
            value = attr(button, name)
            if value is not None:
                self.update(action(value))
                return
        value = attr(button, "data-remove-meld")
        if value is not None and is_whole(value):
            self.update(st.remove_meld(int(value)))
            return
        value = attr(button, "data-target")
        if value in TARGETS:
            self.update(replace(st, target=value, message=""))
            return
        value = attr(button, "data-kind")
        if value in MELD_KINDS:
            self.update(replace(st, meld_kind=value, target="meld", message=""))
            return
        ui = attr(button, "data-ui")
        if ui == "undo":
            self.update(st.undo())
        elif ui == "clear":
            self.update(st.clear())

    def on_input(self, event) -> None:
        from .page import attr
        target = event.target
        ui = attr(target, "data-ui")
        if ui == "example":
            ex = EXAMPLES.get(str(target.value))
            if ex is not None:
                new = self.state.load(ex.request)
                self.update(new)
                for name in ("win_by", "replacements", "piao", "base_flowers", "fan_cap"):
                    self._set_input(name, getattr(new, name))
                for name in ("first_turn", "dealer", "flower_is_kong", "baotou_required"):
                    element = self.page.document.getElementById(f"calc-f-{name}")
                    if element is not None:
                        element.checked = getattr(new, name)
                target.value = ""
            return
        key = attr(target, "data-field")
        if key is None or key not in CalcState.__dataclass_fields__:
            return
        value = bool(target.checked) if key in BOOL_FIELDS else str(target.value)
        if getattr(self.state, key) == value:
            return
        self.update(self.state.set(key, value), typed=key)

    def _set_input(self, name: str, value: str) -> None:
        element = self.page.document.getElementById(f"calc-f-{name}")
        if element is not None:
            element.value = value


def start() -> None:
    from pyscript import document, window  # only exists in the browser

    from .page import Page, lang_click

    page = Page(document, window)
    try:
        state, error, refused = read_calc(page.params)
    except Exception:  # noqa: BLE001 - never a Python banner for a URL
        state, error, refused = CalcState(), None, []
        page.report(traceback.format_exc())
    refused = page.refused + refused
    page.keep_used(("lang",) + URL_FIELDS, refused)
    page.set_lang(page.lang)
    calc = Calc(page, "calc", state)
    calc.mount()
    if error is not None:
        page.fill("calc-msg", esc(invalid_text(error, page.lang)))
    page.notify(refused, ".calc-page")
    page.listen(document, "click", lambda e: lang_click(page, e, calc.rerender))
    _PAGES.append(calc)
    page.ready()


def invalid_text(error: Exception, lang: str) -> str:
    return error_text(error, lang)


_PAGES: list = []  # keeps the calculator and its event proxies alive
