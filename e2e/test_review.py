"""The hand review (复盘) in the browser (issue 16).

A scripted hand (``?scenario=baotou``) played with a deliberately bad first discard — 5m,
which breaks 456m, where the coach says to throw a wind — then by throwing the tile drawn:

- the result panel's 复盘 shows a progress bar and a cancel button; cancel stops it;
- started again, it ends with the summary and flags the bad discard, naming both tiles as
  players name them (5 Characters, and the better one), with the loss and the reason;
- while it thinks, a PerformanceObserver collects the page's long tasks: the longest, and
  the review's own slices from ``window.sxmjStats``, go to ``e2e/artifacts/review.json``
  with the load average (a figure for the README, not an assertion on time);
- the findings pass axe's audit, and are shot to ``e2e/artifacts/review-done-1280x800.png``.
"""

from __future__ import annotations

import json
import os
import sys
import time

import pytest
from harness import ARTIFACTS, DESKTOP, ROOT, wait_ready, watched_page
from playwright.sync_api import Page
from test_a11y import assert_accessible

sys.path.insert(0, str(ROOT))

from sxmj.game import Action  # noqa: E402
from sxmj.ui.i18n import tile_label  # noqa: E402

ENABLED = '[data-testid="my-hand"] button[data-tile]:not([disabled])'
RESULT = '[data-testid="hand-result"]'
REVIEW = '[data-testid="review"]'
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")
BAD = "5m"
LONGTASKS = """() => { window.sxmjLong = [];
  new PerformanceObserver(list => list.getEntries().forEach(
    e => window.sxmjLong.push([Math.round(e.startTime), e.duration]))).observe(
    {type: 'longtask'}); }"""


@pytest.fixture(scope="module")
def page_w(browser, browser_context_args, site_url):
    with watched_page(browser, {**browser_context_args, "viewport": DESKTOP},
                      site_url, "the review page") as (page, w):
        yield page, w, site_url


def settle(page: Page, w) -> None:
    page.wait_for_function(WAITING, timeout=30000)
    assert page.locator(".py-error").count() == 0 and page.locator("#game-error").is_hidden()
    w.assert_clean()


def play_badly(page: Page, w) -> None:
    """The bad discard first; then win when offered, pass on claims, else throw the tile
    at the right end of the hand (the one just drawn, unless it is a 财神)."""
    first = True
    for _ in range(200):
        settle(page, w)
        if page.locator(RESULT).count():
            assert not first
            return
        actions = page.locator("#actions")
        if actions.locator('button[data-action="hu"]').count():
            actions.locator('button[data-action="hu"]').click()
        elif actions.locator('button[data-action="pass"]').count():
            actions.locator('button[data-action="pass"]').click()
        elif first:
            page.locator(f'{ENABLED}[data-tile="{BAD}"]').first.click()
            first = False
        else:
            page.locator(ENABLED).last.click()
            if actions.locator('button[data-action="piao"]').count():
                actions.locator('button[data-action="piao"]').click()
        page.wait_for_timeout(50)
    pytest.fail("the hand never ended")


def test_the_review_flags_the_bad_discard_and_can_be_cancelled(page_w):
    page, w, site_url = page_w
    page.goto(site_url + "?scenario=baotou&speed=fast&lang=en")
    wait_ready(page, w)
    play_badly(page, w)
    review = page.locator(REVIEW)
    assert review.get_attribute("data-state") == "idle"

    # cancel: the bar and the cancel button, then back to a button that starts it again
    page.click('[data-testid="review-start"]')
    page.wait_for_selector('[data-testid="review-progress"]', timeout=10000)
    page.click('[data-testid="review-cancel"]')
    page.wait_for_selector(f'{REVIEW}[data-state="cancelled"]', timeout=10000)
    assert page.locator('[data-testid="review-progress"]').count() == 0

    # the whole review, long tasks watched
    page.evaluate(LONGTASKS)
    load_before = os.getloadavg()
    start = time.monotonic()
    page.click('[data-testid="review-start"]')
    page.wait_for_selector(f'{REVIEW}[data-state="done"]', timeout=180000)
    seconds = time.monotonic() - start
    long_tasks = page.evaluate("window.sxmjLong")
    tasks = page.evaluate("Array.from(window.sxmjStats.tasks).map(t => Array.from(t))")
    slices = [t[2] for t in tasks if t[0] == "review"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "review.json").write_text(json.dumps({
        "review_seconds": round(seconds, 2), "longtasks": long_tasks,
        "longest_task_ms": max((d for _, d in long_tasks), default=0.0),
        "review_slices": len(slices), "longest_review_slice_ms": max(slices, default=0.0),
        "loadavg_before": load_before, "loadavg_after": os.getloadavg(),
        "page_tasks": tasks[-400:]}))

    flags = page.locator('[data-testid="review-flag"]')
    assert flags.count() >= 1
    bad = page.locator(f'[data-testid="review-flag"][data-played="0 discard {BAD}"]')
    assert bad.count() == 1, [flags.nth(i).get_attribute("data-played")
                              for i in range(flags.count())]
    better = Action.parse(bad.get_attribute("data-better") or "")
    assert better.kind == "discard" and better.tile is not None
    text = bad.inner_text().replace("\u00a0", " ")
    assert tile_label(Action.parse(f"0 discard {BAD}").tile, "en").replace(
        "\u00a0", " ") in text
    assert tile_label(better.tile, "en").replace("\u00a0", " ") in text
    assert float(bad.get_attribute("data-loss") or 0) > 1.0
    assert "points expected" in text  # the expert's reason, with its numbers
    summary = page.locator('[data-testid="review-summary"]').inner_text()
    assert "cost about" in summary and "tile efficiency" in summary
    review.screenshot(path=str(ARTIFACTS / "review-done-1280x800.png"))
    assert_accessible(page, "the result panel with the review's findings")
    w.assert_clean()
