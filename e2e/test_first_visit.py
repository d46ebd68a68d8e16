"""A first visit downloads little more than the runtime, and nothing twice (issue 31).

The site is served the way GitHub Pages serves it (scripts/bench_first_visit.py's server: gzip
for text and wasm, ETag, ``max-age=600``), on loopback. Byte counts are deterministic and
asserted here; times are not (``make bench`` measures them, under network emulation). These
pages are watched without Playwright's routing (harness.watch routes every request to block
the off-origin ones, and routing turns the HTTP cache off): a request that leaves the
server's origin fails the test instead.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

import pytest
from harness import ROOT, SITE, Watch, origin_of, wait_ready
from test_offline_install import discard_one_tile

sys.path.insert(0, str(ROOT / "scripts"))

import bench_first_visit as pages  # noqa: E402

# what the page downloaded until it was ready (not what it found in the HTTP cache)
BEFORE_READY = """() => { const t = sxmjBoot.log.find(e => e.detail === 'ready').t;
  return [location.href, ...performance.getEntriesByType('resource')
    .filter(e => e.startTime <= t && e.transferSize > 0).map(e => e.name)]; }"""
DEVICE_DONE = "() => ['kept', 'failed', 'skipped'].includes(window.sxmjBoot.device.state)"
FULL_ZIP = "static/vendor/pyodide/python_stdlib.zip"
SITE_FILES = pages.Files(SITE.resolve())


@pytest.fixture
def pages_site():
    """``_site`` served as GitHub Pages serves it: (url, what the server sent)."""
    server, thread, sent, url = pages.start_server(SITE)
    yield url, sent
    server.shutdown()
    server.server_close()
    thread.join(5)


def wire_bytes(rel: str) -> int:
    """What the server sends for ``rel`` (gzipped where GitHub Pages gzips)."""
    entity = SITE_FILES.get((SITE / rel).resolve())
    return len(entity.gzipped if entity.gzipped is not None else entity.body)


def light_watch(page, url: str) -> Watch:
    """What harness.watch records, without routing (which would turn the HTTP cache off)."""
    w = Watch(origin_of(url))
    page.on("pageerror", lambda exc: w.errors.append(f"page error: {exc}"))
    page.on("console", lambda m: w.errors.append(f"console error: {m.text}")
            if m.type == "error" else None)
    page.on("request", lambda r: w.requests.append(r.url) if r.url.startswith("http") else None)
    page.on("request", lambda r: w.off_origin.append(r.url)
            if r.url.startswith("http") and not r.url.startswith(w.origin + "/") else None)
    page.on("response", lambda r: w.failed.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    return w


def first_visit(browser, browser_context_args, url):
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    w = light_watch(page, url)
    page.goto(url)
    wait_ready(page, w)
    return context, page, w


def test_first_visit_downloads_at_most_the_runtime_and_a_little(browser, browser_context_args,
                                                                pages_site):
    url, _ = pages_site
    context, page, w = first_visit(browser, browser_context_args, url)
    try:
        fetched = [u.removeprefix(url).split("?")[0] for u in page.evaluate(BEFORE_READY)]
        assert all(not u.startswith("http") for u in fetched), fetched  # all from the site
        # each file once; no memory snapshot, no vendored zip, no source one by one
        twice = [f for f, n in Counter(fetched).items() if n > 1]
        assert not twice, twice
        assert not [f for f in fetched if f.endswith((".snap.gz", "python_stdlib.zip"))], fetched
        assert not [f for f in fetched if re.fullmatch(r"sxmj/.*\.py", f)], fetched
        total = sum(wire_bytes(f or "index.html") for f in fetched)
        floor = pages.runtime_floor(SITE)["floor"]
        assert total <= pages.BUDGET * floor, (total, floor, sorted(
            ((wire_bytes(f or "index.html"), f) for f in fetched), reverse=True)[:8])
        w.assert_clean()
    finally:
        context.close()


def test_nothing_is_downloaded_twice(browser, browser_context_args, pages_site):
    """The service worker's install and the device's snapshot download nothing the page
    already has: over the whole first visit, every file is requested once at most."""
    url, sent = pages_site
    start = len(sent.log)
    context, page, w = first_visit(browser, browser_context_args, url)
    try:
        page.wait_for_function(DEVICE_DONE, timeout=90000)
        assert page.evaluate("sxmjBoot.device.state") == "kept"
        assert page.evaluate("!!navigator.serviceWorker.controller")
        page.wait_for_timeout(500)
        with sent.lock:
            requested = [path for _, path, _, _ in sent.log[start:]]
        # (sw.js: the browser checks it for an update when it sees fit, not a file of the page)
        twice = {p: n for p, n in Counter(requested).items() if n > 1 and p != "sw.js"}
        assert not twice, twice
        # the vendored zip comes once, after ready, for the cache and sys.path
        assert requested.count(FULL_ZIP) == 1
        w.assert_clean()
    finally:
        context.close()


def test_the_game_imports_only_compiled_standard_modules(browser, browser_context_args,
                                                         pages_site):
    """Whatever the game imports as it plays comes from the compiled standard library, not
    from the vendored zip mounted after ready (which would mean a module missing before)."""
    url, _ = pages_site
    context, page, w = first_visit(browser, browser_context_args, url)
    try:
        page.wait_for_function("() => window.sxmjBoot.snapshot.full === true", timeout=60000)
        welcome = page.locator('[data-ui="welcome-ok"]')
        if welcome.count():
            welcome.click()
        discard_one_tile(page)
        page.evaluate(
            "code => { const s = document.createElement('script');"
            " s.type = 'py'; s.textContent = code; document.body.append(s); }",
            "import sys, json\nfrom pyscript import document\n"
            "document.body.dataset.fromFull = json.dumps(sorted(n for n, m in"
            " list(sys.modules.items()) if str(getattr(m, '__file__', ''))"
            ".startswith('/lib/python_stdlib.zip')))\n",
        )
        page.wait_for_function("() => document.body.dataset.fromFull !== undefined")
        assert page.evaluate("document.body.dataset.fromFull") == "[]"
        w.assert_clean()
    finally:
        context.close()
