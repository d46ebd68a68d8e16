"""Browser test harness: Debian's Chromium driven by pytest-playwright.

- The built ``_site/`` (``make site``) is served under the sub-path ``/sxmj/`` on a free
  loopback port by the same code as ``scripts/serve.py``, so every test proves the site's
  URLs are relative, as GitHub Pages needs.
- :func:`watch` records page errors, console errors, failed or 4xx/5xx responses and any
  request that leaves the test server's origin (those are also aborted).
- :func:`wait_ready` waits for the ready marker ``document.body.dataset.sxmjReady === "1"``
  and fails fast, with what was collected, on a ``.py-error`` banner or a page error.
- ``booted``: one page per test module, booted once and shared (a boot costs seconds).
- Every new browser context gets the session's device snapshot in its cache first
  (``harness.new_context``), so its pages boot as a returning player's do; the tests of the
  boot itself are marked ``cold_boot`` and start as a first visit.
- The friends-mode tests (``test_friends*.py``) run only inside the network namespace of
  ``scripts/netns_run`` (``make e2e`` runs them there); elsewhere they are skipped. Their
  fixtures, ``broker`` and ``friends_page``, are in e2e/friends_harness.py.
- Screenshots and the boot timings go to ``e2e/artifacts/`` (git-ignored);
  pytest-playwright's own failure screenshots go to ``e2e/artifacts/playwright/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from friends_harness import NETNS, NOT_IN_NETNS, broker, friends_page, is_friends_test
from harness import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PREFIX,
    SITE,
    new_context,
    serve,
    serve_site,
    shared_page,
)
from playwright.sync_api import Browser, Page

__all__ = ["broker", "friends_page"]  # fixtures, registered by being imported here


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright wipes its --output folder at start: give it a folder of its own
    if config.getoption("--output", default=None) == "test-results":
        config.option.output = str(ARTIFACTS / "playwright")
    if config.getoption("--screenshot", default=None) == "off":
        config.option.screenshot = "only-on-failure"
    config.addinivalue_line(
        "markers", "cold_boot: the module's pages start without the device's snapshot "
        "(tests of the boot itself: e2e/harness.py, SEED)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if NETNS:
        return
    skip = pytest.mark.skip(reason=NOT_IN_NETNS)
    for item in items:
        if is_friends_test(item.path):
            item.add_marker(skip)


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
    """``http://127.0.0.1:<free port>/sxmj/`` serving ``_site/`` (and the test pages of
    ``e2e/pages/`` at ``__e2e__/<name>``, which ``_site`` never holds)."""
    if not (SITE / "index.html").is_file():
        pytest.exit("_site/ is not built: run `make site` (make test does)", returncode=1)
    server, thread = serve_site(SITE, PREFIX)
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


# ---------- pages ----------


def cold(request: pytest.FixtureRequest) -> bool:
    """The test (or its module) starts its pages cold (``pytest.mark.cold_boot``)."""
    return request.node.get_closest_marker("cold_boot") is not None


@pytest.fixture(scope="module")
def booted(request: pytest.FixtureRequest, browser: Browser, browser_context_args: dict,
           site_url: str):
    """One page booted to ready, shared by the tests of a module; must stay clean."""
    with shared_page(browser, browser_context_args, site_url, cold=cold(request)) as b:
        yield b


@pytest.fixture
def fresh(request: pytest.FixtureRequest, browser: Browser, browser_context_args: dict,
          site_url: str):
    """A factory of new, unwatched pages (``fresh(viewport=PHONE)``); closed after the test."""
    contexts = []

    def make(**overrides) -> Page:
        context = new_context(browser, site_url, cold(request),
                              **{**browser_context_args, **overrides})
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
