"""The game page's start: build the table, start the match, mark the page ready (last).

Contract with ``index.html`` and the tests: when the table is interactive, :func:`start`
sets, last of all, ``document.body.dataset.sxmjReady = "1"``.
"""

from __future__ import annotations

from sxmj.ui.i18n import tr
from sxmj.ui.params import parse_params
from sxmj.ui.table import regions, welcome
from sxmj.ui.table.app import App, new_seed
from sxmj.ui.table.dom import after_first_frame, is_none
from sxmj.ui.table.friends.lobby import hash_refusals


def start() -> None:
    """Build the table, start the match and mark the page ready (last)."""
    from pyscript import document, window  # only exists in the browser
    from pyscript.ffi import create_proxy, to_js

    search = str(window.location.search or "")
    params = parse_params(search, fallback_seed=new_seed())  # a given seed is ≤ MAX_SEED
    window.sxmjStats = to_js({"botMoves": [], "botThinks": [], "botDraws": [], "tasks": []})
    app = App(document, window, params, to_js, search)
    # a room's link cut short, or a host's whose room is gone: named once (update_url below
    # drops the fragment)
    refused = (params.refused + tuple(hash_refusals(str(window.location.hash or "")))
               + app.room_refused)
    document.documentElement.lang = "zh-Hans" if app.params.lang == "zh" else "en"
    document.body.dataset.sxmjAnim = app.settings.anim
    app.update_url()
    app.render()
    if app.link_record is not None:  # a shared daily: its play, watched
        app.replay.open(app.link_record)
    notice = regions.notice_html(app.persistence.notices, refused, app.params.lang,
                                 None if app.persistence.kept else full_game_link(window))
    if notice:
        app.screen.show_notice(notice)
    kept = app.persistence
    welcomed = app.session.welcomes and welcome.wanted(
        search, kept.load(welcome.KEY), kept.profile.hands, returning=bool(kept.notices))
    _APPS.append((app, *app.router.listen(document, create_proxy)))
    overlay = document.getElementById("loading")
    if not is_none(overlay):
        overlay.remove()
    table = document.getElementById("table")
    table.setAttribute("aria-busy", "false")
    table.setAttribute("aria-label", tr(app.params.lang, "table"))
    # The welcome card and the bots wait for the table's first frame: opening the modal and
    # focusing its button forces a layout of the whole page (about 100 ms), and the bots'
    # first step renders the table again, before anything is painted. The bots also wait
    # for the card (they start once it is closed).
    def card() -> None:  # the menu's daily link gives its hook to the card's meanwhile
        app.overlay.open("welcome", welcome.welcome_html(app.state()))
        app.render()

    after_first_frame(window, *([card] if welcomed else []), app.kick)
    document.body.dataset.sxmjReady = "1"


def full_game_link(window) -> str:
    """Where the full game is kept: this very page in a tab of its own ("" when this page is
    not in a frame: it already is the full game)."""
    try:
        frame = str(window.sxmjBoot.storage.frame)
    except Exception:  # noqa: BLE001 - a page without page-boot.js
        frame = "top"
    return "" if frame == "top" else str(window.location.href)


_APPS: list = []  # keeps the app and its event proxies alive for the page's lifetime
