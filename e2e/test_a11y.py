"""Accessibility, checked by axe-core (the npm devDependency, never shipped to the site) on
every page and state a player meets: the table mid-hand at 1280×800 and 390×844, its result
panel, each tab of its sheet (settings, profile, records, keys), learn.html, calc.html and each
mode of embed.html. Any violation of axe's default rules (WCAG A/AA and best practices) fails,
listed with its impact, the rule and the first elements it names.

An embed is audited where it lives, in an iframe of a host page (a minimal article served
at the site's origin by the test): axe runs in both documents, and its page-level rules
(one ``main`` landmark, a level-one heading) apply to the host, as axe applies them.

axe is injected from ``node_modules/axe-core`` beside the site (as ``test_boot_snapshot.py``
finds the runtime's version): no page of the site loads it.
"""

from __future__ import annotations

import html
import sys

import pytest
from harness import DESKTOP, PHONE, ROOT, SITE, wait_ready, watched_page
from layout import load_axe
from playwright.sync_api import Page
from test_comforts import RESULT, WAITING, decision, saved_match

sys.path.insert(0, str(ROOT))

from sxmj.ui.table.storage import saved  # noqa: E402

AXE = SITE.parent / "node_modules" / "axe-core" / "axe.min.js"
RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ["violations"]});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(" ")), count: v.nodes.length}));
}"""
EMBEDS = {
    "hand": "mode=hand&hand=123m456m789m123p9s5p&caishen=9s",
    "hand-waits": "mode=hand&hand=123m456m789m12p9s5p&caishen=9s&lang=en",
    "calc": "mode=calc&hand=123m456m789m&caishen=9s",
    "scenario": "mode=scenario&name=baotou",
    "play": "mode=play&seed=7&lang=en",
}
HOST = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An article</title>
</head><body><main><h1>An article with an embed</h1>
<iframe src="{src}" title="Shaoxing Mahjong: {mode}" width="100%" height="900"
 style="border:0"></iframe></main></body></html>"""
IMAGES_LOADED = """async () => { await Promise.all([...document.images].map(i => i.complete ?
    null : new Promise(r => { i.onload = i.onerror = r; }))); }"""


def violations(page: Page) -> list[str]:
    """axe's violations on the page as it is now, one line each."""
    load_axe(page)
    page.evaluate(IMAGES_LOADED)
    page.wait_for_timeout(300)  # let the 150–250 ms animations end
    return [f"{v['impact']} {v['id']} ({v['help']}): {v['count']}× "
            + ", ".join(v["nodes"][:3]) for v in page.evaluate(RUN)]


def assert_accessible(page: Page, state: str) -> None:
    found = violations(page)
    assert not found, f"axe on {state}:\n  " + "\n  ".join(found)


@pytest.fixture(scope="module")
def site(browser, browser_context_args, site_url):
    if not AXE.is_file():
        pytest.fail(f"{AXE} missing: `make test` installs it (npm ci)")
    with watched_page(browser, {**browser_context_args, "viewport": DESKTOP}, site_url,
                      "the audited pages") as (page, w):
        yield page, w, site_url


def open_page(site, path: str, storage: dict[str, str] | None = None) -> Page:
    page, w, site_url = site
    if storage is not None:  # set while no game runs: from a plain file of the same origin
        page.goto(site_url + "manifest.webmanifest")
        page.evaluate("localStorage.clear()")
        for key, value in storage.items():
            page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
    page.set_viewport_size(DESKTOP)
    page.goto(site_url + path)
    wait_ready(page, w)
    return page


def test_table_mid_hand_result_and_sheet(site):
    match = decision(8, 20)  # mid-hand, melds and rivers on the table, 胡 on offer
    page = open_page(site, "?seed=8&speed=fast", {saved.KEY_SAVE: saved_match(match)})
    page.wait_for_function(WAITING, timeout=30000)
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        assert_accessible(page, f"the table mid-hand at {viewport['width']}×{viewport['height']}")
    page.set_viewport_size(DESKTOP)
    page.click('button[data-ui="settings"]')
    page.wait_for_function("() => document.getElementById('sheet').open")
    for tab in ("settings", "profile", "records", "keys"):
        page.click(f'#sheet [data-tab="{tab}"]')
        page.wait_for_selector(f'#sheet [data-open-tab="{tab}"]')
        assert_accessible(page, f"the sheet's {tab} tab")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('sheet').open")
    page.click('#actions [data-action="hu"]')
    page.wait_for_selector(RESULT)
    assert_accessible(page, "the result panel")
    site[1].assert_clean()


@pytest.mark.parametrize("path", [
    "learn.html", "learn.html?lang=en", "calc.html",
    "calc.html?hand=123m456m789m123p9s5p&caishen=9s",  # a win, explained
    "calc.html?hand=123m456m789m12p9s5p&caishen=9s&lang=en",  # 13 tiles: the waits
    "calc.html?hand=123m456m789m12p9x&caishen=9s",  # bad input, explained
])
def test_pages(site, path):
    assert_accessible(open_page(site, path), path)
    site[1].assert_clean()


@pytest.mark.parametrize("mode", EMBEDS)
def test_embed_modes(site, mode):
    page, w, site_url = site
    # the host is written into a plain file of the site, so it has the site's origin
    page.goto(site_url + "manifest.webmanifest")
    page.set_content(HOST.format(src=html.escape("embed.html?" + EMBEDS[mode]), mode=mode))
    frame = page.locator("iframe").element_handle().content_frame()
    wait_ready(frame, w)
    load_axe(frame)
    frame.evaluate(IMAGES_LOADED)
    assert_accessible(page, f"embed {mode} in an iframe")
    w.assert_clean()


def test_axe_is_never_shipped():
    """axe-core is a devDependency of the tests: no file of the built site holds it."""
    shipped = [p for p in SITE.rglob("*") if "axe" in p.name.lower()]
    assert shipped == []
