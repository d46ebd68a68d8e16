"""Helpers and fixtures of the friends-mode browser tests (``e2e/test_friends*.py``).

These tests need WebRTC between browser contexts, so they run inside a network namespace
that the run creates itself: ``scripts/netns_run .venv/bin/python -m pytest
e2e/test_friends*.py`` (``make e2e`` and ``make test`` do). Outside one (no ``SXMJ_NETNS``)
e2e/conftest.py skips them. The fixtures (registered by e2e/conftest.py):

- ``broker``: a local PeerServer (``scripts/peer_broker.mjs``, the npm ``peer`` package) on
  127.0.0.1, a free port, path ``/sxmj-broker``, for the whole session. ``broker.url`` is
  what ``?broker=`` takes; ``broker.query`` is ``broker=<url>&ice=none`` for a page's link;
  ``broker.events()`` is what it saw (peer ids and signalling message types, no payloads).
- ``friends_page``: a factory of pages, each in a browser context of its own (another
  player), watched like every page of the suite but allowed to reach the broker;
  ``friends_page(path)`` opens ``site_url + path`` (``""`` for index.html; add
  ``broker.query`` yourself), ``friends_page(TEST_PAGE)`` the transport's test page (the
  test server answers ``__e2e__/<name>`` with ``e2e/pages/<name>``; never part of
  ``_site``). Each returns ``(page, watch)``; after the test every page must be clean and
  have asked nothing of any origin but the site and the broker.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest
from harness import ROOT, Watch, new_context, origin_of, watch
from playwright.sync_api import Browser, Page

NETNS = os.environ.get("SXMJ_NETNS", "")
BROKER_PATH = "/sxmj-broker"
BROKER_SCRIPT = ROOT / "scripts" / "peer_broker.mjs"
# the transport's test page: e2e/pages/friends-net.html, served by the test server
TEST_PAGE = "__e2e__/friends-net.html"
NOT_IN_NETNS = (
    "friends tests need WebRTC inside a network namespace: "
    "scripts/netns_run .venv/bin/python -m pytest e2e/test_friends*.py (make e2e does)"
)


def is_friends_test(path: Path) -> bool:
    return path.name.startswith("test_friends")


@dataclass
class Broker:
    """A PeerServer child process and what it logged."""

    url: str
    proc: subprocess.Popen
    lines: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return origin_of(self.url)

    @property
    def query(self) -> str:
        return f"broker={quote(self.url, safe='')}&ice=none"

    def events(self) -> list[dict]:
        return [json.loads(line) for line in list(self.lines)]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def start_broker(host: str = "127.0.0.1", port: int = 0, timeout: float = 15.0) -> Broker:
    node = shutil.which("node")
    if node is None:
        pytest.exit("node missing: the friends tests run PeerServer (npm `peer`)", returncode=1)
    if not (ROOT / "node_modules" / "peer").is_dir():
        pytest.exit("node_modules/peer missing: run `npm ci`", returncode=1)
    proc = subprocess.Popen(
        [node, str(BROKER_SCRIPT), host, str(port), BROKER_PATH],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    ready: list[str] = []

    def read_stdout() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            ready.append(line)

    threading.Thread(target=read_stdout, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not ready:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read() if proc.stderr else ""
            pytest.fail(f"PeerServer did not start (exit {proc.returncode}):\n{err}")
        time.sleep(0.05)
    broker = Broker(json.loads(ready[0])["url"], proc)

    def read_stderr() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.startswith("{"):
                broker.lines.append(line)

    threading.Thread(target=read_stderr, daemon=True).start()
    return broker


@pytest.fixture(scope="session")
def broker() -> Iterator[Broker]:
    """A local PeerServer for the session (127.0.0.1, a free port, /sxmj-broker)."""
    if not NETNS:
        pytest.skip(NOT_IN_NETNS)
    b = start_broker()
    yield b
    b.stop()


def elsewhere(w: Watch, sockets: list[str], allowed: tuple[str, ...]) -> list[str]:
    """Requests and WebSockets of a page to any origin not in ``allowed``."""
    urls = w.requests + sockets
    http = tuple(o.replace("http", "ws", 1) for o in allowed)
    return [u for u in urls if not u.startswith(("data:", "blob:"))
            and origin_of(u) not in allowed + http]


@pytest.fixture
def friends_page(browser: Browser, browser_context_args: dict, site_url: str, broker: Broker):
    """A factory: ``friends_page(path)`` → ``(page, watch)`` in a new browser context."""
    opened: list[tuple[object, Page, Watch, list[str]]] = []
    allowed = (origin_of(site_url), broker.origin)

    def make(path: str = "", **overrides) -> tuple[Page, Watch]:
        context = new_context(browser, site_url, **{**browser_context_args, **overrides})
        page = context.new_page()
        w = watch(page, site_url)
        # the broker is off the site's origin: let it through (the later route wins)
        page.route(broker.origin + "/**", lambda route: route.continue_())
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        opened.append((context, page, w, sockets))
        if path is not None:
            page.goto(site_url + path)
        return page, w

    yield make
    problems = []
    for n, (context, _page, w, sockets) in enumerate(opened):
        problems += [f"page {n}: {p}" for p in w.problems()]
        problems += [f"page {n}: request elsewhere: {u}" for u in elsewhere(w, sockets, allowed)]
        context.close()
    assert not problems, "friends pages misbehaved:\n  " + "\n  ".join(problems)
