"""calc.html: the hand calculator (``calc_main.py``), also embedded by ``embed.html?mode=calc``.

Enter a hand by clicking the tile palette or by typing notation; add melds, flowers, the
财神 and the win context; the result is the evaluator's, explained item by item. A hand
of 13 tiles (melds counting 3) shows its waits instead. The request is the evaluate JSON
command's (``sxmj.ui.pages.judge``), so the calculator and ``python3 -m sxmj evaluate`` agree.

Testing contract: ``[data-testid="calc-result"]`` with ``data-win``, ``data-fan`` and
``data-share``; the inputs are ``[data-field=NAME]`` (hand, win_tile, caishen, melds,
flowers, win_by, replacements, piao, first_turn, dealer, base_flowers, flower_is_kong,
baotou_required, fan_cap); palette tiles are ``#calc-palette [data-tile]``. The URL holds
the state (``calc.html?hand=…&caishen=…``), so a link reproduces a hand.

The state and every piece of markup are pure (:class:`CalcState`
in :mod:`sxmj.ui.pages.calc_state`, the ``render_*`` functions in
:mod:`sxmj.ui.pages.calc_markup`); only :class:`Calc`, here, touches the DOM.
"""

from __future__ import annotations

import traceback
from dataclasses import replace

from sxmj.melds import MELD_KINDS
from sxmj.ui.markup import esc
from sxmj.ui.pages.calc_markup import (
    invalid_field,
    message_text,
    outcome_html,
    render_form,
    render_kinds,
    render_palette,
    render_preview,
    render_targets,
)
from sxmj.ui.pages.calc_state import CHOICES, TARGETS, TEXT_FIELDS, URL_FIELDS, CalcState, read_calc
from sxmj.ui.pages.judge import BOOL_FIELDS, error_text
from sxmj.ui.pages.lessons import EXAMPLES
from sxmj.ui.params import is_whole

__all__ = ["CHOICES", "URL_FIELDS", "Calc", "CalcState", "invalid_field", "invalid_text",
           "message_text", "outcome_html", "read_calc", "render_form", "start"]

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
            from sxmj.ui.pages.plumbing import query_of
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
        from sxmj.ui.pages.plumbing import attr, closest
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
        from sxmj.ui.pages.plumbing import attr
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

    from sxmj.ui.pages.plumbing import Page, lang_click

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
