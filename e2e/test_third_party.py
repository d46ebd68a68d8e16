"""Every page in a frame of another site's article (issue 49), in the three storage states a
third-party frame meets:

- *partitioned*: the browser keeps the frame's storage apart, per top-level site (Chromium's
  and Firefox's default once third-party cookies are allowed): a persistent profile whose
  preferences allow them;
- *refused*: every storage call throws (Safari's default; any profile that blocks third-party
  cookies, and Playwright's fresh context here);
- *absent*: the APIs are not there at all (an init script removes them in the site's frames).

Exactly two origins take part: the site on ``http://127.0.0.1:PORT/sxmj/`` and the article on
``http://localhost:PORT2/`` (scripts/serve_article.py); :func:`harness.watch` aborts and
reports any other request. Each test first asserts, inside a frame, the storage state it
tests (so it can't pass by testing the wrong one), and the watch must stay clean: no page
error, no console error, no failed request.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
import serve_article  # scripts/ (on sys.path through harness)
from harness import CHROMIUM, CHROMIUM_ARGS, DESKTOP, Watch, watch
from playwright.sync_api import Browser, BrowserContext, BrowserType, Frame, Page

STATES = ("partitioned", "refused", "absent")
HAND = "embed.html?mode=hand&hand=123m456m789m123p9s5p&caishen=9s&lang=en"
EMBEDS = {  # one embed of each mode
    "hand": HAND,
    "calc": "embed.html?mode=calc&hand=123m456m789p234s9s&caishen=9s",
    "scenario": "embed.html?mode=scenario&name=baotou&lang=en",
    "play": "embed.html?mode=play&seed=7",
    "daily": "embed.html?mode=daily&date=2026-12-01&lang=en",
}
PAGES = {**EMBEDS, "learn": "learn.html?lang=en", "calculator": "calc.html",
         "table": "index.html?seed=7&speed=fast&lang=en"}
READY = "() => !!document.body && document.body.dataset.sxmjReady === '1'"
NOTICE = '[data-testid="notice"][data-kind~="no-storage"]'
ENABLED = '[data-testid="my-hand"] button[data-tile]:not([disabled])'

# What a frame may use, asked inside it: "ok", "refused" (the call throws or errors) or
# "absent" (the API is not there)
PROBE = """async () => {
  const out = {};
  try { if (!window.localStorage) out.local = 'absent';
        else { localStorage.setItem('sxmj.t', '1'); localStorage.removeItem('sxmj.t');
               out.local = 'ok'; } }
  catch (e) { out.local = 'refused'; }
  try { out.caches = !window.caches ? 'absent' : (await caches.has('sxmj-t'), 'ok'); }
  catch (e) { out.caches = 'refused'; }
  try {
    out.idb = !window.indexedDB ? 'absent' : await new Promise((resolve) => {
      const r = indexedDB.open('sxmj-t');
      r.onsuccess = () => { r.result.close(); resolve('ok'); };
      r.onerror = (e) => { e.preventDefault(); resolve('refused'); };
    });
  } catch (e) { out.idb = 'refused'; }
  return out;
}"""

# The absent state: the site's frames see no storage API at all (the article keeps its own)
ABSENT = """(() => {
  if (location.origin !== %s) return;
  for (const name of ['localStorage', 'sessionStorage', 'indexedDB', 'caches']) {
    Object.defineProperty(window, name, { value: undefined, configurable: true });
  }
  Object.defineProperty(Navigator.prototype, 'serviceWorker',
                        { value: undefined, configurable: true });
})()"""


@pytest.fixture(scope="module")
def article(site_url: str) -> Iterator[str]:
    """The article's origin, ``http://localhost:PORT`` (another site than the site's)."""
    server, thread, origin = serve_article.serve_article(site_url)
    yield origin
    server.shutdown()
    server.server_close()
    thread.join(5)


def frames_url(article: str, paths: list[str], lazy: bool = False, gap: int = 24) -> str:
    query = "&".join(f"src={quote(p, safe='')}" for p in paths)
    return f"{article}/frames.html?{query}&gap={gap}" + ("&lazy=1" if lazy else "")


@contextmanager
def storage_context(browser: Browser, browser_type: BrowserType, tmp_path: Path, state: str,
                    site_url: str, persistent: bool = False,
                    viewport: dict | None = None) -> Iterator[BrowserContext]:
    """A context whose third-party frames are in ``state``; ``persistent``: a profile on
    disk (its preferences say whether third-party cookies, and so storage, are allowed)."""
    viewport = viewport or DESKTOP
    if state == "partitioned" or persistent:
        profile = tmp_path / f"profile-{state}"
        (profile / "Default").mkdir(parents=True)
        allow = state == "partitioned"  # cookie_controls_mode 0: allow; 1: block third-party
        (profile / "Default" / "Preferences").write_text(json.dumps({"profile": {
            "cookie_controls_mode": 0 if allow else 1, "block_third_party_cookies": not allow}}))
        context = browser_type.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
            viewport=viewport)
    else:
        context = browser.new_context(viewport=viewport)
    if state == "absent":
        origin = site_url.split("/sxmj/")[0]
        context.add_init_script(ABSENT % json.dumps(origin))
    try:
        yield context
    finally:
        context.close()


def site_frames(page: Page, site_url: str) -> list[Frame]:
    return [f for f in page.frames if f.url.startswith(site_url)]


def wait_frames_ready(page: Page, w: Watch, frames: list[Frame], timeout: float = 120) -> None:
    """Each frame, scrolled into view in turn (an embed starts Python once on screen), ready."""
    deadline = time.monotonic() + timeout
    for frame in frames:
        frame.frame_element().scroll_into_view_if_needed()
        while True:
            w.assert_clean()
            failed = frame.evaluate("() => document.documentElement.dataset.boot === 'error'"
                                    " && (window.sxmjBoot || {}).error")
            assert not failed, f"{frame.url} could not start: {failed}"
            if frame.evaluate(READY):
                break
            assert time.monotonic() < deadline, f"{frame.url} not ready: " + frame.evaluate(
                "() => JSON.stringify((window.sxmjBoot || {}).log || []).slice(-800)")
            page.wait_for_timeout(250)


def assert_state(frame: Frame, state: str) -> None:
    """The frame is in ``state``: its storage works, throws, or is not there."""
    seen = frame.evaluate(PROBE)
    want = {"partitioned": "ok", "refused": "refused", "absent": "absent"}[state]
    assert seen == {"local": want, "caches": want, "idb": want}, (frame.url, seen)
    third = frame.evaluate("() => window.sxmjBoot.storage.frame")
    assert third == "third-party", f"{frame.url}: page-boot.js read the frame as {third}"


def open_article(context: BrowserContext, site_url: str, article: str, url: str
                 ) -> tuple[Page, Watch]:
    page = context.pages[0] if context.pages else context.new_page()
    w = watch(page, site_url, also=(article,))
    page.goto(url)
    return page, w


def discard_once(frame: Frame) -> None:
    """The player's first discard in the framed table: the tile leaves the hand."""
    frame.wait_for_function("() => document.body.dataset.sxmjWaiting === 'you'", timeout=30000)
    before = frame.locator('[data-testid="my-hand"] button[data-tile]').count()
    frame.locator(ENABLED).first.click()
    frame.wait_for_function(
        f"() => document.querySelectorAll('[data-testid=\"my-hand\"] button[data-tile]').length"
        f" === {before - 1}", timeout=15000)


@pytest.mark.parametrize("state", STATES)
def test_every_page_starts_in_a_third_party_frame(browser, browser_type, tmp_path, site_url,
                                                  article, state):
    with storage_context(browser, browser_type, tmp_path, state, site_url) as context:
        page, w = open_article(context, site_url, article,
                               frames_url(article, list(PAGES.values())))
        page.wait_for_function(f"() => document.querySelectorAll('iframe').length === {len(PAGES)}")
        frames = site_frames(page, site_url)
        assert len(frames) == len(PAGES), [f.url for f in page.frames]
        wait_frames_ready(page, w, frames)
        by_name = {name: page.locator(f"#f{i}").element_handle().content_frame()
                   for i, name in enumerate(PAGES)}
        for name, frame in by_name.items():
            assert_state(frame, state)
            # an embed that needs nothing kept says nothing; the table says it once
            notices = frame.locator(NOTICE).count()
            expected = 1 if name == "table" and state != "partitioned" else 0
            assert notices == expected, f"{name} in {state}: {notices} no-storage notices"
        hand = by_name["hand"]
        assert hand.locator('[data-testid="calc-result"]').get_attribute("data-state") == "win"
        table = by_name["table"]
        if state != "partitioned":
            link = table.locator(f'{NOTICE} a[target="_blank"]')
            assert link.get_attribute("href") == table.url  # this table, in a tab of its own
            # no rank where no profile is kept
            assert table.locator('[data-ui="profile"]').count() == 0
        # (an off-screen third-party frame gets no animation frames: the table's bots wait for
        # its first paint, as a reader's would until it is scrolled to)
        page.locator(f"#f{list(PAGES).index('table')}").scroll_into_view_if_needed()
        discard_once(table)
        w.assert_clean()


@pytest.mark.parametrize("name", list(EMBEDS))
def test_each_embed_in_a_persistent_profile_that_refuses(browser, browser_type, tmp_path,
                                                         site_url, article, name):
    """A normal profile that blocks third-party cookies (the issue's "persistent profile")."""
    with storage_context(browser, browser_type, tmp_path, "refused", site_url,
                         persistent=True) as context:
        page, w = open_article(context, site_url, article, frames_url(article, [EMBEDS[name]]))
        page.wait_for_selector("iframe")
        frames = site_frames(page, site_url)
        wait_frames_ready(page, w, frames)
        assert_state(frames[0], "refused")
        assert frames[0].locator(NOTICE).count() == 0
        if name in ("hand", "calc"):
            assert frames[0].locator('[data-testid="calc-result"]').count() == 1
        w.assert_clean()


@pytest.mark.parametrize("state", STATES)
def test_twelve_lazy_embeds_start_as_they_come_into_view(browser, browser_type, tmp_path,
                                                         site_url, article, state):
    """A tutorial with 12 hand embeds, ``loading="lazy"`` as the docs' snippet has them: the
    frames near the view start, the last starts only once scrolled to, and becomes ready."""
    with storage_context(browser, browser_type, tmp_path, state, site_url) as context:
        page, w = open_article(context, site_url, article,
                               frames_url(article, [HAND] * 12, lazy=True, gap=600))
        page.wait_for_function("() => document.querySelectorAll('iframe').length === 12")
        first = page.frame_locator("#f0")
        first.locator("body[data-sxmj-ready='1']").wait_for(timeout=60000)
        loaded = site_frames(page, site_url)  # frames 1,000 px apart: the last is 11,000 down
        assert len(loaded) < 12, "lazy frames far below the view were loaded at once"
        assert_state(loaded[0], state)
        # the ones the browser loaded ahead, below the view, hold Python back until seen
        below = [f for f in loaded if f.frame_element().get_attribute("id") != "f0"]
        assert below, "no frame was loaded ahead: the test shows nothing about holding back"
        for frame in below:
            assert frame.evaluate("() => window.sxmjBoot.held === true && "
                                  "document.body.dataset.sxmjReady !== '1'"), frame.url
        page.locator("#f11").scroll_into_view_if_needed()
        page.frame_locator("#f11").locator("body[data-sxmj-ready='1']").wait_for(timeout=60000)
        last = page.frame_locator("#f11").locator('[data-testid="calc-result"]')
        assert last.get_attribute("data-state") == "win"
        w.assert_clean()
