"""A room that can't form says so, in front of everything (issue 51, honest failures), in
real Chromium inside the test's network namespace (scripts/netns_run; every address is
127.0.0.1 there):

- a broker that refuses the connection: the invite dialog names it, offers 重试 and another
  broker, and no link, QR code or start;
- a broker that accepts the connection and never answers: the same, once its wait is over
  (``?timescale=0.1``: 1 s instead of 10 s);
- a guest whose link names a room nobody hosts: told so, with 重试.

The contract: ``[data-testid="friends-error"]`` (``data-reason``) inside the open dialog,
``[data-testid="friends-retry"]``; ``[data-testid="friends-start"]`` absent.
"""

from __future__ import annotations

import secrets
import socket
import threading
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from harness import new_context, wait_ready, watch
from playwright.sync_api import Browser, Page
from test_a11y import assert_accessible

ERROR = 'dialog[open] [data-testid="friends-error"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def silent_broker() -> Iterator[str]:
    """A TCP server on 127.0.0.1 that accepts every connection and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}/sxmj-broker"
    stop.set()
    thread.join(2)
    for s in held:
        s.close()
    server.close()


def page_at(browser: Browser, args: dict, site_url: str, path: str, broker: str):
    """A page of the site that may reach ``broker`` (and nothing else off the site)."""
    context = new_context(browser, site_url, **args)
    page = context.new_page()
    origin = broker.split("/sxmj-broker")[0]
    w = watch(page, site_url, also=(origin,))
    page.goto(site_url + path)
    wait_ready(page, w)
    return context, page, w


def clean_but_the_broker(w, broker: str) -> None:
    """Nothing went wrong on the page but the failed connection to ``broker`` itself,
    which Chromium logs as a console error."""
    host = broker.split("/sxmj-broker")[0].replace("http", "ws", 1)
    assert [p for p in w.problems() if host not in p] == []


def hosts_a_room_that_fails(page: Page, reason: str, broker: str) -> None:
    create = page.locator('[data-testid="friends-create"]')
    if not create.is_visible():  # a phone: the menu's chips are behind ☰
        page.click('[data-ui="menu-more"]')
    create.click()
    page.wait_for_selector(ERROR, timeout=15000)
    error = page.locator(ERROR)
    assert error.get_attribute("data-reason") == reason
    assert broker.split("//")[1].split("/")[0] in error.inner_text()
    assert page.locator('[data-testid="friends-start"]').count() == 0
    assert page.locator('[data-testid="friends-link"]').count() == 0
    assert page.locator('dialog[open] [data-testid="friends-retry"]').is_visible()
    assert page.evaluate("document.body.dataset.sxmjFriends") == "failed"


def test_a_refused_broker_is_named_in_front_with_the_ways_out(browser, browser_context_args,
                                                              site_url, broker, artifacts):
    dead = f"http://127.0.0.1:{free_port()}/sxmj-broker"
    context, page, w = page_at(browser, browser_context_args, site_url,
                               f"index.html?seed=3&broker={quote(dead, safe='')}&ice=none"
                               "&timescale=0.1&lang=en", dead)
    try:
        hosts_a_room_that_fails(page, "friends_err_broker", dead)
        page.screenshot(path=str(artifacts / "friends-failure-desktop-en.png"))
        page.click('[data-testid="friends-retry"]')  # still refused: said again
        page.wait_for_selector(ERROR, timeout=15000)
        page.click('dialog[open] [data-ui="friends-cancel"]')  # close the room: alone again
        page.wait_for_function("document.body.dataset.sxmjSession === 'local'")
        clean_but_the_broker(w, dead)
    finally:
        context.close()


def test_a_silent_broker_is_named_once_its_wait_is_over(browser, browser_context_args,
                                                         site_url, broker, silent_broker,
                                                         artifacts):
    """On a phone, in Chinese (then held sideways): the screenshots of the failure."""
    phone = {**browser_context_args, "viewport": {"width": 390, "height": 844},
             "is_mobile": True, "has_touch": True}
    context, page, w = page_at(browser, phone, site_url,
                               f"index.html?seed=3&broker={quote(silent_broker, safe='')}"
                               "&ice=none&timescale=0.1", silent_broker)
    try:
        hosts_a_room_that_fails(page, "friends_err_silent", silent_broker)
        page.screenshot(path=str(artifacts / "friends-failure-phone-zh.png"))
        assert_accessible(page, "the room's failure (phone)")
        page.set_viewport_size({"width": 844, "height": 390})
        assert page.locator('dialog[open] [data-testid="friends-retry"]').is_visible()
        page.screenshot(path=str(artifacts / "friends-failure-landscape-zh.png"))
        clean_but_the_broker(w, silent_broker)
    finally:
        context.close()


def test_a_guest_whose_room_nobody_hosts_is_told(browser, browser_context_args, site_url,
                                                 broker):
    link = (f"index.html?{broker.query}&timescale=0.1#room={secrets.token_hex(16)}"
            f"&key={secrets.token_hex(16)}")
    context, page, w = page_at(browser, browser_context_args, site_url, link, broker.url)
    try:
        page.wait_for_selector(ERROR, timeout=15000)
        assert page.locator(ERROR).get_attribute("data-reason") == "friends_err_host"
        assert page.locator('dialog[open] [data-testid="friends-retry"]').is_visible()
        page.click('[data-testid="friends-retry"]')  # tried again: the same answer
        page.wait_for_selector(ERROR, timeout=15000)
        assert [p for p in w.problems()] == []
    finally:
        context.close()
