"""Helpers of the browser tests (imported by e2e/conftest.py and the tests).

A module of its own, not conftest.py, so that ``from harness import ...`` is unambiguous
even when ``tests/`` (with its own conftest.py) is collected in the same run.
"""

from __future__ import annotations

import base64
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
# SXMJ_SITE: another built site (a second worktree or build can test beside this one)
SITE = Path(os.environ.get("SXMJ_SITE") or ROOT / "_site")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PREFIX = "/sxmj/"
# test pages (e2e/pages/<name>.html), answered by the test server at <site>/__e2e__/<name>.html:
# same origin and same (loopback) server as the site, never part of _site
TEST_PAGES = Path(__file__).resolve().parent / "pages"
TEST_PAGES_PATH = "/__e2e__/"
# a test build of the site (e2e/test_friends.py's, with escaping switched off: the page's
# Content-Security-Policy must stop what a name smuggles in), at <site>/__unsafe__/ once a
# test has made it (UNSAFE["root"])
UNSAFE_PATH = "/__unsafe__/"
UNSAFE: dict[str, Path] = {}
# This device's memory snapshot (docs/boot-and-offline.md), made once per test session by a
# first page and put into every new browser context's cache before its first page (see
# seed_device): a test's page then boots as a returning player's does, in about 2 s instead
# of 5, and no context spends another 9 s of both cores making the same snapshot again. The
# tests of the boot itself (a first visit, the snapshot, the service worker, the runtime's
# requests) start cold: ``pytestmark = pytest.mark.cold_boot``, or ``cold=True`` (and every
# test with SXMJ_COLD=1 in the environment).
SEED_PATH = "/__seed__/"
SEED: dict[str, object] = {}  # "entries": [(cache name, url, file)], or "none": why not
SEED_PAGE = b"<!doctype html><title>seed</title>"
DEVICE_DONE = "() => ['kept', 'failed', 'skipped'].includes(window.sxmjBoot.device.state)"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The vendored runtime files a page fetches (each once): all but python_stdlib.zip, whose place
# the build's compiled standard library takes (static/vendor/snapshot/python_stdlib-<key>.zip;
# the vendored zip is mounted after ready, from the service worker's cache)
BOOT_RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
BOOT_TIMEOUT_S = 90.0
READY_OR_ERROR = (
    "() => document.body.dataset.sxmjReady === '1' || !!document.querySelector('.py-error')"
)

sys.path.insert(0, str(ROOT / "scripts"))

import build_vendor  # noqa: E402,F401  (scripts/, re-exported for the tests)
import serve  # noqa: E402,F401  (scripts/serve.py, re-exported for conftest)


class TestServerHandler(serve.Handler):
    """The built site, plus ``e2e/pages/`` below ``<prefix>__e2e__/``."""

    def translate_path(self, path: str) -> str:
        url = urlsplit(path).path
        if url.startswith(SEED_PATH):
            name = url[len(SEED_PATH):]
            files = {str(n): Path(f) for n, (_, _, f) in enumerate(SEED.get("entries", []))}
            return str(files.get(name, TEST_PAGES / "-missing-"))
        if url.startswith(UNSAFE_PATH) and "root" in UNSAFE:
            rest = url[len(UNSAFE_PATH):] or "index.html"
            target = (UNSAFE["root"] / rest).resolve()
            inside = target.is_relative_to(UNSAFE["root"].resolve())
            return str(target if inside else UNSAFE["root"] / "-missing-")
        if not url.startswith(TEST_PAGES_PATH):
            return super().translate_path(path)
        name = url[len(TEST_PAGES_PATH):]
        ok = name and "/" not in name and not name.startswith(".")
        return str(TEST_PAGES / (name if ok else "-missing-"))


def serve_site(root: Path, prefix: str = PREFIX) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """``root`` (and the test pages) on a free loopback port, in a daemon thread."""
    handler = type("SxmjTestHandler", (TestServerHandler,),
                   {"prefix": serve.normalize_prefix(prefix), "quiet": True})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="sxmj-serve", daemon=True)
    thread.start()
    return server, thread


@dataclass
class Watch:
    """What a page did that a clean boot never does, plus every request it made."""

    origin: str
    errors: list[str] = field(default_factory=list)
    off_origin: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return (
            self.errors
            + [f"off-origin request: {u}" for u in self.off_origin]
            + [f"failed request: {f}" for f in self.failed]
        )

    def assert_clean(self) -> None:
        problems = self.problems()
        assert not problems, "the page misbehaved:\n  " + "\n  ".join(problems)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def watch(page: Page, site_url: str, also: tuple[str, ...] = ()) -> Watch:
    """Attach listeners to ``page`` (before it navigates) and return what they collect.
    ``also``: more origins the page may reach (another site's article around the site's
    frames: e2e/test_third_party.py); every other request is aborted and recorded."""
    w = Watch(origin_of(site_url))

    def on_console(msg) -> None:
        if msg.type == "error":
            where = msg.location.get("url", "") if msg.location else ""
            w.errors.append(f"console error: {msg.text} ({where})")

    def on_request(request) -> None:
        w.requests.append(request.url)

    def on_response(response) -> None:
        if response.status >= 400:
            w.failed.append(f"{response.status} {response.url}")

    def block(route) -> None:
        w.off_origin.append(route.request.url)
        route.abort()

    page.on("pageerror", lambda exc: w.errors.append(f"page error: {exc}"))
    page.on("console", on_console)
    page.on("request", on_request)
    page.on("response", on_response)
    def on_failed(request) -> None:
        # The browser aborts an image still loading when a re-render replaces its
        # <img> (the table redraws after every move): nothing failed on the server.
        # So does a navigation for the tab's icon it was still fetching (the icon is
        # the browser's own request, of type "other", not the page's).
        # And a test that opens the next address while the runtime is still downloading, or
        # while the device makes its snapshot after ready, aborts those requests
        # (static/vendor/, static/boot/): the server sent them.
        aborted = "ERR_ABORTED" in (request.failure or "")
        if aborted and (request.resource_type == "image" or request.url.endswith("favicon.svg")
                        or "/static/vendor/" in request.url or "/static/boot/" in request.url):
            return
        w.failed.append(f"{request.url}: {request.failure}")

    page.on("requestfailed", on_failed)
    own = "".join(f"(?!{re.escape(origin + '/')})" for origin in (w.origin, *also))
    page.route(re.compile(rf"^{own}(?!data:|blob:).+"), block)
    return w


def boot_log(page: Page) -> str:
    try:
        return json.dumps(page.evaluate("() => window.sxmjBoot && window.sxmjBoot.log"))
    except Exception as err:  # the page may be gone
        return f"(no boot log: {err})"


def wait_ready(page: Page, w: Watch | None = None, timeout: float = BOOT_TIMEOUT_S) -> float:
    """Wait for ``data-sxmj-ready="1"``; fail fast on a Python error. Returns the seconds."""
    start = time.monotonic()
    while True:
        try:
            page.wait_for_function(READY_OR_ERROR, timeout=250)
        except PlaywrightTimeout:
            pass
        py_error = page.evaluate(
            "() => { const e = document.querySelector('.py-error'); return e && e.textContent }"
        )
        if py_error is not None:
            pytest.fail(f"Python error while booting:\n{py_error}\nboot log: {boot_log(page)}")
        if w is not None and w.errors:
            pytest.fail("errors while booting:\n  " + "\n  ".join(w.errors))
        if page.evaluate("() => !!document.body && document.body.dataset.sxmjReady === '1'"):
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            pytest.fail(f"not ready after {timeout:.0f} s; boot log: {boot_log(page)}")


# the device's snapshot in the site's cache, as files the test server answers
READ_DEVICE = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const store = await caches.open(name);
    for (const request of await store.keys()) {
      if (!/\\/device-[^/]*\\.(raw|json)$/.test(request.url)) continue;
      const bytes = new Uint8Array(await (await store.match(request)).arrayBuffer());
      let text = "";
      for (let i = 0; i < bytes.length; i += 0x8000) {
        text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      }
      out.push([name, request.url, btoa(text)]);
    }
  }
  return out;
}"""
PUT_DEVICE = """async ([seed, entries]) => {
  for (const [n, name, url] of entries) {
    const response = await fetch(seed + n);
    if (!response.ok) throw new Error(`seed ${n}: ${response.status}`);
    await (await caches.open(name)).put(url, response);
  }
}"""


def device_seed(browser: Browser, site_url: str) -> list[tuple[str, str, str]]:
    """This session's device snapshot (made at the first call, by a cold page that boots
    and waits for its device to keep one): ``(cache, url, file)`` per entry; [] when the
    page kept none (every context then boots cold, and says why once)."""
    if "entries" in SEED or "none" in SEED:
        return list(SEED.get("entries", []))  # type: ignore[call-overload]
    folder = Path(tempfile.mkdtemp(prefix="sxmj-seed-"))
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(site_url + "index.html")
        wait_ready(page)
        page.wait_for_function(DEVICE_DONE, timeout=120000)
        state = page.evaluate("() => window.sxmjBoot.device.state")
        found = page.evaluate(READ_DEVICE) if state == "kept" else []
    finally:
        context.close()
    entries = []
    for n, (name, url, data) in enumerate(found):
        file = folder / f"{n}.bin"
        file.write_bytes(base64.b64decode(data))
        entries.append((name, url, str(file)))
    if len(entries) == 2:
        SEED["entries"] = entries
    else:
        SEED["none"] = f"the device kept no snapshot ({state}, {len(entries)} entries)"
        print(f"\nharness: every page boots cold: {SEED['none']}", file=sys.stderr)
    return entries


def seed_device(context: BrowserContext, site_url: str) -> None:
    """Put this session's device snapshot into ``context``'s cache (a blank page of the site
    does it, and closes): the context's first page boots from it."""
    entries = device_seed(context.browser, site_url) if context.browser else []
    if not entries:
        return
    page = context.new_page()
    try:
        page.route(site_url + "__seed__/page", lambda route: route.fulfill(
            body=SEED_PAGE, content_type="text/html"))
        page.goto(site_url + "__seed__/page")
        page.evaluate(PUT_DEVICE, [site_url + "__seed__/",
                                   [[n, name, url] for n, (name, url, _) in enumerate(entries)]])
    finally:
        page.close()


def new_context(browser: Browser, site_url: str, cold: bool = False,
                **args: object) -> BrowserContext:
    """A new browser context (another player, another device), with this session's device
    snapshot in its cache unless ``cold``."""
    context = browser.new_context(**args)
    if not cold and not os.environ.get("SXMJ_COLD"):  # (SXMJ_COLD=1: every page cold)
        seed_device(context, site_url)
    return context


@dataclass
class Booted:
    page: Page
    watch: Watch
    url: str
    boot_seconds: float


@contextmanager
def watched_page(browser: Browser, context_args: dict, site_url: str,
                 label: str = "the page", permissions: tuple[str, ...] = (),
                 cold: bool = False) -> Iterator[tuple[Page, Watch]]:
    """A new page, watched from before its first navigation, for a whole test module
    (``cold``: without the device's snapshot). When the module is done it must still be
    clean."""
    context = new_context(browser, site_url, cold, **context_args)
    if permissions:
        context.grant_permissions(list(permissions))
    page = context.new_page()
    w = watch(page, site_url)
    try:
        yield page, w
    finally:
        problems = w.problems()
        context.close()
    assert not problems, f"{label} misbehaved:\n  " + "\n  ".join(problems)


@contextmanager
def shared_page(browser: Browser, context_args: dict, site_url: str, path: str = "",
                label: str = "the shared page", cold: bool = False) -> Iterator[Booted]:
    """A page of the site booted to ready and watched, for a whole test module
    (a boot costs seconds; ``cold``: without the device's snapshot). When the module is
    done it must still be clean."""
    with watched_page(browser, context_args, site_url, label, cold=cold) as (page, w):
        start = time.monotonic()
        page.goto(site_url + path)
        wait_ready(page, w)
        yield Booted(page, w, site_url, time.monotonic() - start)
