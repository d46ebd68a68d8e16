"""learn.html: the rules in 中文 and English with live examples (``learn_main.py``).

The prose is static HTML (painted before Python boots, both languages, one shown by
``html[data-lang]``). Python fills the live regions — each example and table of
:mod:`sxmj.ui.pages.lessons` — in the page's language, and again when the language switch is
used. Ready marker: ``body[data-sxmj-ready="1"]`` once everything is computed.
"""

from __future__ import annotations

from sxmj.ui.pages import lessons
from sxmj.ui.pages.plumbing import Page, lang_click
from sxmj.ui.params import Refusal, read_lang, unknown_params

PARAMS = ("lang",)  # learn.html's one URL parameter


def read_learn(values: dict[str, str]) -> tuple[str, list[Refusal]]:
    """The page's language and what of the URL it does not use (a bad ``lang``, any other
    parameter).

    >>> read_learn({"lang": "en", "x": "1"})
    ('en', [Refusal(param='x', value='1', kind='unknown', expected='')])
    """
    lang, refused = read_lang(values)
    return lang, refused + unknown_params(values, PARAMS)


class Learn:
    def __init__(self, page: Page):
        self.page = page

    def render(self) -> None:
        page = self.page
        done = lessons.render(page.lang)
        for element_id, html in done.regions.items():
            page.fill(element_id, html)
        for slot in page.document.querySelectorAll("[data-example]"):
            ex = slot.getAttribute("data-example")
            example = done.examples.get(ex)
            if example is None:
                page.report(f"learn.html asks for an unknown example {ex!r}")
                continue
            if page.cache.get("ex:" + ex) != example:
                slot.innerHTML = example
                page.cache["ex:" + ex] = example

    def on_click(self, event) -> None:
        lang_click(self.page, event, self.render)


def start() -> None:
    from pyscript import document, window  # only exists in the browser

    page = Page(document, window)
    _, refused = read_learn(page.params)
    page.keep_used(PARAMS, refused)
    page.set_lang(page.lang)
    learn = Learn(page)
    learn.render()
    page.notify(refused, "#main")
    page.listen(document, "click", learn.on_click)
    _PAGES.append(learn)
    page.ready()


_PAGES: list = []  # keeps the page and its event proxies alive
