"""The hand review (复盘) in the browser (issue 16).

A scripted hand (``?scenario=baotou``) played with a deliberately bad first discard — 5m,
which breaks 456m, where the coach says to throw a wind — then by throwing the tile drawn:

- the result panel's 复盘 shows a progress bar and a cancel button; cancel stops it;
- started again, it ends with the summary and flags the bad discard, naming both tiles as
  players name them (5 Characters, and the better one), with the loss and the reason;
- it runs in the review worker (``static/boot/review-worker.js``, ``data-where="worker"``):
  no review slice runs on the main thread; a PerformanceObserver collects the page's long
  tasks meanwhile, and they, the worker's start, its WebAssembly memory and the review's
  seconds go to ``e2e/artifacts/review.json`` with the load average (figures for
  bench/README.md, not assertions on time);
- the findings pass axe's audit, and are shot to ``e2e/artifacts/review-done-1280x800.png``;
- an imported record of the same hand (made in CPython) is reviewed from the replay bar's
  复盘, which steps to the hand's end first (``e2e/artifacts/review-viewer-390x844.png``),
  in a page whose worker can't start (its script is gone): the review runs on the main
  thread in slices instead (``data-where="page"``), and finds the same flag.
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

from sxmj.bots.hard import HardStrategy  # noqa: E402
from sxmj.bots.scripted import ScriptedTable  # noqa: E402
from sxmj.game import Action  # noqa: E402
from sxmj.record import to_record  # noqa: E402
from sxmj.scenarios import builtin  # noqa: E402
from sxmj.tiles import code as tile_code  # noqa: E402
from sxmj.tiles import format_tiles  # noqa: E402
from sxmj.ui.i18n import tile_label  # noqa: E402

ENABLED = '[data-testid="my-hand"] button[data-tile]:not([disabled])'
# what a flag's reason says about the hand (sxmj.bots.review.why), never how it was counted
HAND_WORDS = ("from ready", "leaves you ready", "live tiles", "暴头", "points more")
# a hand in which seat 0, following the assist beside three hards, wins by its own draw
# (found in CPython: the bots and the assist are deterministic; tests/test_expert.py
# reviews the same hand)
WON_SEED = 12
RESULT = '[data-testid="hand-result"]'
REVIEW = '[data-testid="review"]'
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")
BAD = "5m"
NO_START = """onmessage = ({data}) => { const m = JSON.parse(data);
  if (m.type === "review") postMessage(JSON.stringify(
    {type: "failed", id: m.id, stage: "start", reason: "no memory for a second Pyodide"})); };"""
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
    """Seat 0's moves of :func:`bad_record` (the bad discard, then hard's choices) clicked
    on the page, where the scenario's other seats play their script as in CPython. One
    blunder in a short hand keeps the review to 7 decisions (the drawn tile thrown every
    turn made 23 decisions and 9 flags: about 115 s of CPU, near the wait's limit)."""
    for text in [a for a in bad_record()["hands"][0] if a.startswith("0 ")]:
        settle(page, w)
        action = Action.parse(text)
        if action.kind == "discard":
            page.locator(f'{ENABLED}[data-tile="{tile_code(action.tile)}"]').first.click()
        else:
            tiles = f'[data-tiles="{format_tiles(action.tiles)}"]' if action.tiles else ""
            button = page.locator(f'#actions button[data-action="{action.kind}"]{tiles}')
            assert button.count() == 1, (text, page.locator("#actions").inner_html())
            button.click()
        page.wait_for_timeout(50)
    settle(page, w)
    assert page.locator(RESULT).count(), "the hand did not end as in CPython"


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

    assert review.get_attribute("data-where") == "worker"
    assert not slices  # the main thread ran none of the review
    worker_ms = page.evaluate("window.sxmjStats.reviewWorkerMs")
    assert isinstance(worker_ms, int | float) and worker_ms > 0
    figures = json.loads((ARTIFACTS / "review.json").read_text())
    heap = page.evaluate("window.sxmjStats.reviewWorkerHeapBytes")
    assert isinstance(heap, int) and heap > 16 * 2**20  # a whole Pyodide's memory, in bytes
    (ARTIFACTS / "review.json").write_text(json.dumps({**figures,
                                                       "worker_start_ms": worker_ms,
                                                       "worker_heap_bytes": heap}))

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
    assert "playout" not in text and any(words in text for words in HAND_WORDS)
    summary = page.locator('[data-testid="review-summary"]').inner_text()
    assert "cost about" in summary and "tile efficiency" in summary
    review.screenshot(path=str(ARTIFACTS / "review-done-1280x800.png"))
    assert_accessible(page, "the result panel with the review's findings")
    w.assert_clean()


def bad_record() -> dict:
    """The same scripted hand in CPython: 5m first, then hard's choice at every decision
    (the other seats by the scenario's script). Hard's moves leave the review one flag to
    find and a short hand to replay: 7 decisions, about 9 s of CPython; the drawn tile
    thrown every turn made 23 decisions and 9 flags, about 115 s, and past 180 s in a
    page under the suite's load."""
    scenario = builtin("baotou")
    match, table = scenario.start(), ScriptedTable(scenario.script)
    game, first, hard = match.game, True, HardStrategy(0)
    while not game.over:
        movers = game.to_move()
        if 0 not in movers:
            match.apply(table.action(game, movers[0]))
            continue
        legal = game.legal_actions(0)
        if first and any(a.kind == "discard" for a in legal):
            match.apply(Action.parse(f"0 discard {BAD}"))
            first = False
            continue
        match.apply(hard.choose(game.observation(0), legal).action)
    return to_record(match)


def test_an_imported_record_is_reviewed_from_the_replay_bar(browser, browser_context_args,
                                                            site_url, tmp_path):
    with watched_page(browser, {**browser_context_args, "viewport": {"width": 390,
                                                                     "height": 844}},
                      site_url, "the page whose worker can't start") as (page, w):
        # a worker whose Pyodide can't start (too little memory, say): it says so
        page.context.route("**/static/boot/review-worker.js", lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=NO_START))
        warnings: list[str] = []
        page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
        review_imported_record(page, w, site_url, tmp_path)
        assert any("the review runs on the page" in m for m in warnings), warnings


def review_imported_record(page: Page, w, site_url: str, tmp_path, where: str = "page",
                           shot: bool = True) -> None:
    """Import the bad hand's record, review it from the replay bar; it runs ``where``."""
    page.goto(site_url + "?seed=5&speed=fast&lang=en")
    wait_ready(page, w)
    file = tmp_path / "baotou-bad.json"
    record = bad_record()
    index = record["hands"][0].index(f"0 discard {BAD}")  # the first, deliberate one
    file.write_text(json.dumps(record), encoding="utf-8")
    page.click('button[data-ui="settings"]')
    page.click('#sheet [data-tab="records"]')
    page.set_input_files('[data-testid="import"]', str(file))
    viewer = page.locator('[data-testid="viewer"]')
    viewer.wait_for()
    assert viewer.get_attribute("data-step") == "0"
    page.click('[data-testid="viewer-review"]')
    assert viewer.get_attribute("data-step") == viewer.get_attribute("data-steps")
    # on the page the review runs in slices between the page's own tasks, seen at about 2
    # guesses a second on this 2-core machine under the suite's load (168 guesses here)
    page.wait_for_selector(f'{REVIEW}[data-state="done"]', timeout=240000)
    assert page.locator(REVIEW).get_attribute("data-where") == where
    bad = page.locator(f'[data-testid="review-flag"][data-index="{index}"]')
    assert bad.count() == 1 and bad.get_attribute("data-played") == f"0 discard {BAD}"
    assert Action.parse(bad.get_attribute("data-better") or "").kind == "discard"
    if shot:
        page.screenshot(path=str(ARTIFACTS / "review-viewer-390x844.png"))
    w.assert_clean()


def follow_the_assist(page: Page, w) -> None:
    """Play seat 0 as the assist suggests (its ``data-suggest``) to the end of the hand."""
    for _ in range(300):
        settle(page, w)
        if page.locator(RESULT).count():
            return
        suggest = page.locator('[data-testid="assist"]').get_attribute("data-suggest") or ""
        assert suggest, "the assist suggests nothing while the player must decide"
        action = Action.parse(suggest)
        if action.kind == "discard":
            page.locator(f'{ENABLED}[data-suggested="true"]').first.click()
            piao = page.locator('#actions button[data-action="piao"]')
            if piao.count():  # a 财神 that passes a win: the 飘 is confirmed
                piao.click()
        else:
            page.locator('#actions button[data-suggested="true"]').first.click()
        page.wait_for_timeout(50)
    pytest.fail("the hand never ended")


def test_following_the_assist_gets_no_flag_and_a_win_is_not_scolded(page_w):
    """Seat 0 follows the assist through a whole hand, which it wins by its own draw: the
    review finds nothing to flag, least of all the win (the judgement the assist and the
    review share)."""
    page, w, site_url = page_w
    page.set_viewport_size(DESKTOP)
    page.goto(site_url + f"?seed={WON_SEED}&speed=fast&lang=en&bots=hard,hard,hard")
    wait_ready(page, w)
    ok = page.locator('[data-ui="welcome-ok"]')
    if ok.count():
        ok.click()
    if not page.locator('[data-testid="assist"]').count():
        page.keyboard.press("a")  # the assist on
    follow_the_assist(page, w)
    result = page.locator(RESULT)
    assert result.get_attribute("data-winner") == "0", result.inner_text()
    page.click('[data-testid="review-start"]')
    page.wait_for_selector(f'{REVIEW}[data-state="done"]', timeout=240000)
    assert page.locator(REVIEW).get_attribute("data-where") == "worker"
    assert page.locator('[data-testid="review-flag"]').count() == 0
    summary = page.locator('[data-testid="review-summary"]').inner_text()
    assert "no decision cost clear points" in summary
    w.assert_clean()
