"""Browser test harness: Debian's Chromium driven by pytest-playwright.

- The built ``_site/`` (``make site``) is served under the sub-path ``/sxmj/`` on a free
  loopback port by the same code as ``scripts/serve.py``, so every test proves the site's
  URLs are relative, as GitHub Pages needs.
- :func:`watch` records page errors, console errors, failed or 4xx/5xx responses and any
  request that leaves the test server's origin (those are also aborted).
- :func:`wait_ready` waits for the ready marker ``document.body.dataset.sxmjReady === "1"``
  and fails fast, with what was collected, on a ``.py-error`` banner or a page error.
- ``booted``: one page per test module, booted once and shared (a boot costs seconds).
- Screenshots and the boot timings go to ``e2e/artifacts/`` (git-ignored);
  pytest-playwright's own failure screenshots go to ``e2e/artifacts/playwright/``.
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PREFIX = "/sxmj/"
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
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
BOOT_TIMEOUT_S = 90.0
READY_OR_ERROR = (
    "() => document.body.dataset.sxmjReady === '1' || !!document.querySelector('.py-error')"
)

sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright wipes its --output folder at start: give it a folder of its own
    if config.getoption("--output", default=None) == "test-results":
        config.option.output = str(ARTIFACTS / "playwright")
    if config.getoption("--screenshot", default=None) == "off":
        config.option.screenshot = "only-on-failure"


# ---------- browser and server ----------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    if not CHROMIUM.exists():
        pytest.exit(f"{CHROMIUM} missing: `make test` installs Debian's chromium", returncode=1)
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": DESKTOP}


@pytest.fixture(scope="session")
def site_url() -> str:
    """``http://127.0.0.1:<free port>/sxmj/`` serving ``_site/``."""
    if not (SITE / "index.html").is_file():
        pytest.exit("_site/ is not built: run `make site` (make test does)", returncode=1)
    server, thread = serve.serve_in_thread(SITE, prefix=PREFIX)
    yield serve.server_url(server)
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.fixture(scope="session")
def base_url(site_url: str) -> str:
    """pytest-playwright's base URL (contexts resolve relative URLs against it)."""
    return site_url


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# ---------- watching a page ----------


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


def watch(page: Page, site_url: str) -> Watch:
    """Attach listeners to ``page`` (before it navigates) and return what they collect."""
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
    page.on("requestfailed", lambda r: w.failed.append(f"{r.url}: {r.failure}"))
    own = re.escape(w.origin + "/")
    page.route(re.compile(rf"^(?!{own})(?!data:|blob:).+"), block)
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
        if page.evaluate("() => document.body.dataset.sxmjReady === '1'"):
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            pytest.fail(f"not ready after {timeout:.0f} s; boot log: {boot_log(page)}")


# ---------- pages ----------


@dataclass
class Booted:
    page: Page
    watch: Watch
    url: str
    boot_seconds: float


@pytest.fixture(scope="module")
def booted(browser: Browser, browser_context_args: dict, site_url: str):
    """One page booted to ready, shared by the tests of a module; must stay clean."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    w = watch(page, site_url)
    start = time.monotonic()
    page.goto(site_url)
    wait_ready(page, w)
    yield Booted(page, w, site_url, time.monotonic() - start)
    problems = w.problems()
    context.close()
    assert not problems, "the shared page misbehaved:\n  " + "\n  ".join(problems)


@pytest.fixture
def fresh(browser: Browser, browser_context_args: dict):
    """A factory of new, unwatched pages (``fresh(viewport=PHONE)``); closed after the test."""
    contexts = []

    def make(**overrides) -> Page:
        context = browser.new_context(**{**browser_context_args, **overrides})
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
