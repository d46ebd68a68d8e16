"""Plumbing shared by the learn, calculator and embed pages.

The pure half (query strings, the language link) runs under CPython in the tests; the
browser half takes PyScript's ``document`` and ``window`` as arguments and is only called
from each page's ``start()``. Each page then sets, last of all,
``document.body.dataset.sxmjReady = "1"`` — the same ready marker as the game.

>>> parse_query("?mode=hand&hand=123m&lang=en")
{'mode': 'hand', 'hand': '123m', 'lang': 'en'}
>>> with_lang("?mode=hand&lang=en", "zh")
'?mode=hand'
>>> keep_only("?hand=1m&colour=red&lang=en", ("hand", "lang"))
'?hand=1m&lang=en'

A parameter a page cannot use (:class:`sxmj.ui.params.Refusal`) is named in a small notice,
:func:`sxmj.ui.params.refusals_html` (the table shows the same one).
"""

from __future__ import annotations

import traceback
from urllib.parse import parse_qsl, urlencode

from sxmj.ui.params import Refusal, query_values, read_lang, refusals_html


def parse_query(search: str) -> dict[str, str]:
    """``location.search`` → {name: value}; a repeated name keeps its last value."""
    return query_values(search)


def keep_only(search: str, names: tuple[str, ...] | set[str]) -> str:
    """The same query with only the parameters in ``names`` (what the page used)."""
    items = [(k, v) for k, v in parse_qsl(search.lstrip("?"), keep_blank_values=True)
             if k in names]
    return "?" + urlencode(items) if items else "?"


def used_names(known: tuple[str, ...], refused: list[Refusal]) -> set[str]:
    """The known parameters a page used: those not refused."""
    return set(known) - {r.param for r in refused}


def with_lang(search: str, lang: str) -> str:
    """The same query with ``lang`` set (zh, the default, is left out)."""
    items = [(k, v) for k, v in parse_qsl(search.lstrip("?"), keep_blank_values=True)
             if k != "lang"]
    if lang != "zh":
        items.append(("lang", lang))
    return "?" + urlencode(items) if items else "?"


def query_of(params: list[tuple[str, str]] | dict[str, str], lang: str) -> str:
    items = list(params.items()) if isinstance(params, dict) else list(params)
    items = [(k, v) for k, v in items if k != "lang"]
    if lang != "zh":
        items.append(("lang", lang))
    return "?" + urlencode(items) if items else "?"


# ------------------------------------------------------------------ browser side


class Page:
    """One page's DOM access: regions by id, the language, the URL and the ready marker."""

    def __init__(self, document, window):
        self.document = document
        self.window = window
        self.search = str(window.location.search or "")
        self.params = parse_query(self.search)
        self.lang, self.refused = read_lang(self.params)
        self.cache: dict[str, str] = {}
        self.proxies: list = []
        self.notice: list[Refusal] = []

    def notify(self, refused: list[Refusal], before: str = "") -> None:
        """Name the parameters the page did not use in a small notice, until it is dismissed:
        at the top of the element ``before`` (a selector) or of the body."""
        if not refused:
            return
        self.notice = list(refused)
        anchor = self.document.querySelector(before) if before else None
        if anchor is None or not hasattr(anchor, "insertAdjacentHTML"):
            anchor = self.document.body
        anchor.insertAdjacentHTML("afterbegin", '<div id="param-notice"></div>')
        self.fill("param-notice", refusals_html(self.notice, self.lang))
        box = self.document.getElementById("param-notice")
        self.listen(box, "click", self._dismiss)

    def _dismiss(self, event) -> None:
        if closest(event, '[data-ui="param-notice-ok"]') is not None:
            self.notice = []
            self.fill("param-notice", "")

    def keep_used(self, known: tuple[str, ...], refused: list[Refusal]) -> None:
        """The address keeps only the parameters the page used (as the game page does)."""
        self.search = keep_only(self.search, used_names(known, refused))

    def fill(self, element_id: str, html: str) -> None:
        """Set a region's markup (one crossing), skipping unchanged regions."""
        if self.cache.get(element_id) == html:
            return
        element = self.document.getElementById(element_id)
        if element is None or not hasattr(element, "innerHTML"):
            return
        element.innerHTML = html
        self.cache[element_id] = html

    def set_lang(self, lang: str) -> None:
        """Switch the page's language: the root's attributes, the URL and the switch link."""
        self.lang = lang
        root = self.document.documentElement
        root.lang = "zh-Hans" if lang == "zh" else "en"
        root.setAttribute("data-lang", lang)
        self.replace_url(with_lang(self.search, lang))
        if self.notice:
            self.fill("param-notice", refusals_html(self.notice, lang))

    def replace_url(self, search: str) -> None:
        self.search = search
        url = search if search not in ("", "?") else str(self.window.location.pathname)
        try:
            self.window.history.replaceState(None, "", url)
        except Exception:  # noqa: BLE001 - a sandboxed frame may refuse; the page goes on
            pass
        for link in self.document.querySelectorAll('[data-ui="lang"]'):
            link.setAttribute("href", with_lang(search, "en" if self.lang == "zh" else "zh"))

    def listen(self, element, event: str, handler) -> None:
        from pyscript.ffi import create_proxy  # only exists in the browser

        proxy = create_proxy(self.guard(handler))
        element.addEventListener(event, proxy)
        self.proxies.append(proxy)  # kept for the page's lifetime

    def guard(self, handler):
        """Wrap an event handler: a bug is logged (the tests fail on it), never a banner."""

        def run(event):
            try:
                handler(event)
            except Exception:  # noqa: BLE001
                self.report(traceback.format_exc())

        return run

    def report(self, detail: str) -> None:
        self.window.console.error("sxmj: " + detail)

    def ready(self) -> None:
        self.document.body.dataset.sxmjReady = "1"


def lang_click(page: Page, event, rerender) -> bool:
    """Handle a click on the language switch; True when it was one."""
    target = event.target
    link = target.closest('[data-ui="lang"]') if hasattr(target, "closest") else None
    if link is None or not hasattr(link, "getAttribute"):
        return False
    event.preventDefault()
    page.set_lang("en" if page.lang == "zh" else "zh")
    rerender()
    return True


def attr(element, name: str) -> str | None:
    """An attribute's text, or None (JavaScript's null and undefined alike)."""
    if element is None or not hasattr(element, "getAttribute"):
        return None
    value = element.getAttribute(name)
    return value if isinstance(value, str) else None


def closest(event, selector: str):
    target = event.target
    if not hasattr(target, "closest"):
        return None
    found = target.closest(selector)
    return found if hasattr(found, "getAttribute") else None
