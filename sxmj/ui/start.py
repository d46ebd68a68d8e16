"""The game page's start: build the table, start the match, mark the page ready (last).

Contract with ``index.html`` and the tests: when the table is interactive, :func:`start`
sets, last of all, ``document.body.dataset.sxmjReady = "1"``.
"""

from __future__ import annotations

from . import regions, welcome
from .app import App, new_seed
from .dom import is_none
from .i18n import tr
from .params import parse_params


def start() -> None:
    """Build the table, start the match and mark the page ready (last)."""
    from pyscript import document, window  # only exists in the browser
    from pyscript.ffi import create_proxy, to_js

    search = str(window.location.search or "")
    params = parse_params(search, fallback_seed=new_seed())  # a given seed is ≤ MAX_SEED
    window.sxmjStats = to_js({"botMoves": [], "botThinks": [], "botDraws": [], "tasks": []})
    app = App(document, window, params, to_js, search)
    document.documentElement.lang = "zh-Hans" if app.params.lang == "zh" else "en"
    document.body.dataset.sxmjAnim = app.settings.anim
    if app.mode is not None:
        document.body.dataset.sxmjScenario = app.mode.name
    app.update_url()
    app.render()
    notice = regions.notice_html(app.persistence.notices, params.refused, app.params.lang)
    if notice:
        app.screen.show_notice(notice)
    welcomed = app.mode is None and not app.friends.role
    if welcomed and welcome.wanted(search, app.persistence.load(welcome.KEY),
                                           app.persistence.profile.hands,
                                           returning=bool(app.persistence.notices)):
        app.overlay.open("welcome", welcome.welcome_html(app.state()))
    _APPS.append((app, *app.router.listen(document, create_proxy)))
    overlay = document.getElementById("loading")
    if not is_none(overlay):
        overlay.remove()
    table = document.getElementById("table")
    table.setAttribute("aria-busy", "false")
    table.setAttribute("aria-label", tr(app.params.lang, "table"))
    app.kick()
    document.body.dataset.sxmjReady = "1"


_APPS: list = []  # keeps the app and its event proxies alive for the page's lifetime
