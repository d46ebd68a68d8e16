"""The daily challenge (每日挑战) in the browser, through its contract: ``?daily=YYYY-MM-DD``,
``[data-testid="daily-open"]``, ``[data-testid="daily-result"]`` (``data-score``,
``data-par``), ``[data-testid="daily-share"]`` and ``[data-testid="daily-streak"]``.

- Two browsers (1280×800 and 390×844) open ``?daily=2026-11-29`` on that day: the same first
  hand and 财神; the same clicks get the same bot moves and the same score. Each plays the
  whole daily by clicks; the par the page works out is the CLI's; the share text holds the
  date, the score, the par and a link, and the link replays the same match in the viewer.
- The first play of the day counts, a second one is practice; the history survives a reload.
- A future date, a damaged date and a damaged stored history each give a named notice and
  never a ``.py-error``.
- Screenshots in ``e2e/artifacts/daily-*.png``.
"""

from __future__ import annotations

import json
import random
import re
import sys
from functools import cache

import pytest
from harness import DESKTOP, PHONE, ROOT, wait_ready, watch
from playwright.sync_api import Page
from test_table import RESULT, hand_codes, play_hand, wait_for_player

sys.path.insert(0, str(ROOT))

from sxmj import daily  # noqa: E402
from sxmj.bots import daily as players  # noqa: E402

DAY = "2026-11-29"
NOON = "2026-11-29T04:00:00Z"  # 12:00 in Shanghai on that day
DAILY_RESULT = '[data-testid="daily-result"]'
PAR_KNOWN = (f"() => {{ const r = document.querySelector('{DAILY_RESULT}');"
             " return (r && r.dataset.par !== '') || !!document.querySelector('.py-error'); }")
PAR_TIMEOUT_MS = 240_000  # the expert's four hands in the page, on a busy machine


@cache
def cli_par(day: str) -> int:
    return players.par(day).total


def open_daily(fresh, site_url: str, query: str, viewport=DESKTOP, init_script: str = "",
               now: str = NOON, **context) -> tuple[Page, object]:
    page = fresh(viewport=viewport, **context)
    page.clock.set_fixed_time(now)
    w = watch(page, site_url)
    if init_script:
        page.add_init_script(init_script)
    page.goto(site_url + query)
    wait_ready(page, w)
    return page, w


def play_daily(page: Page, w, rng: random.Random, shots: str = "") -> None:
    """Click through the daily's four hands (the same rng, the same clicks)."""
    for hand in range(daily.HANDS):
        play_hand(page, w, rng)
        if shots and hand == 0:
            page.screenshot(path=f"{shots}-hand-result.png")
        if hand < daily.HANDS - 1:
            page.locator(f'{RESULT} button[data-action="next-hand"]').click()
            page.wait_for_selector(RESULT, state="detached", timeout=10000)
            wait_for_player(page, w)
    page.wait_for_selector(DAILY_RESULT, timeout=30000)


def first_hand(page: Page) -> tuple[list[str], str | None]:
    wait_for_player_or_bots(page)
    return sorted(hand_codes(page)), page.locator('[data-testid="caishen"]').first.get_attribute(
        "data-tile")


def wait_for_player_or_bots(page: Page) -> None:
    page.wait_for_function("() => !!document.body.dataset.sxmjWaiting", timeout=30000)


def test_two_browsers_play_the_same_daily(fresh, site_url, artifacts):
    desk, w1 = open_daily(fresh, site_url, f"?daily={DAY}&speed=fast")
    phone, w2 = open_daily(fresh, site_url, f"?daily={DAY}&speed=fast&lang=en",
                           viewport=PHONE)
    banner = desk.locator('[data-testid="daily"]')
    assert banner.get_attribute("data-day") == DAY
    assert banner.get_attribute("data-seed") == str(daily.seed_of(DAY))
    assert banner.get_attribute("data-practice") == "0"  # today's first play counts
    assert desk.locator(".chip--seed").count() == 0  # the day names the deal
    assert first_hand(desk) == first_hand(phone)
    walls = players.walls(DAY)
    assert first_hand(desk)[1] == walls[0]["caishen"]

    results = []
    for page, w, name in ((desk, w1, "desktop"), (phone, w2, "phone")):
        play_daily(page, w, random.Random(7), shots=str(artifacts / f"daily-{name}"))
        page.wait_for_function(PAR_KNOWN, timeout=PAR_TIMEOUT_MS)
        assert page.locator(".py-error").count() == 0
        card = page.locator(DAILY_RESULT)
        card.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"daily-{name}-result.png"))
        points = [int(x) for x in page.locator('[data-testid="daily-hand"]').evaluate_all(
            "els => els.map(e => e.dataset.points)")]
        assert len(points) == daily.HANDS
        score = int(card.get_attribute("data-score"))
        assert score == sum(points)
        results.append((score, points, int(card.get_attribute("data-par"))))
        w.assert_clean()
    assert results[0] == results[1], "the same clicks, the same bot moves, the same score"
    score, points, par = results[0]
    assert par == cli_par(DAY), "the page's par is the CLI's"

    text = desk.locator('[data-testid="daily-share"]').inner_text()
    assert DAY in text and f"{score:+d}" if score else "0" in text
    assert re.search(rf"(标准分|par) {par:+d}" if par else r"(标准分|par) 0", text), text
    marks = re.findall("[🀄🌟⚪🔻]", text)
    assert len(marks) == daily.HANDS
    link = re.search(r"https?://\S+", text)
    assert link and f"daily={DAY}" in link.group(0) and "#m=" in link.group(0)
    streak = desk.locator('[data-testid="daily-streak"]')
    assert streak.get_attribute("data-streak") == "1"

    # the link replays the same match in the viewer
    viewer_page, w3 = open_daily(fresh, site_url, link.group(0).removeprefix(site_url))
    viewer_page.wait_for_selector('[data-testid="viewer"]', timeout=20000)
    viewer_page.locator('[data-ui="step-last"]').click()
    viewer_page.wait_for_selector(RESULT, timeout=20000)
    cells = viewer_page.locator('[data-testid="scores"] [data-seat="0"][data-score]')
    assert int(cells.first.get_attribute("data-score")) == score
    viewer_page.screenshot(path=str(artifacts / "daily-link-viewer.png"))
    w3.assert_clean()


def test_the_history_survives_a_reload_and_a_second_play_is_practice(fresh, site_url):
    page, w = open_daily(fresh, site_url, f"?daily={DAY}&speed=fast",
                         permissions=["clipboard-read", "clipboard-write"])
    play_daily(page, w, random.Random(3))
    page.wait_for_function(PAR_KNOWN, timeout=PAR_TIMEOUT_MS)
    assert page.locator(DAILY_RESULT).get_attribute("data-practice") == "0"
    # the copy button puts the share text on the clipboard, and says so
    page.locator('[data-testid="daily-copy"]').click()
    page.wait_for_selector(".daily-share__status", timeout=10000)
    assert "已复制" in page.locator(".daily-share__status").inner_text()
    shared = page.locator('[data-testid="daily-share"]').inner_text()
    assert page.evaluate("() => navigator.clipboard.readText()") == shared
    stored = json.loads(page.evaluate("() => localStorage.getItem('sxmj.daily')"))
    assert DAY in stored["days"]
    # each hand's review is one tap away: the hand watched to its end, and reviewed
    page.locator('[data-ui="daily-review-2"]').click()
    page.wait_for_selector('[data-testid="viewer"]', timeout=20000)
    page.wait_for_selector('[data-testid="review"]', timeout=20000)
    assert "2" in page.locator(".result__hand-no").inner_text()  # hand 2's result
    page.keyboard.press("Escape")  # back to the daily's result
    page.reload()
    wait_ready(page, w)
    assert page.locator('[data-testid="daily"]').get_attribute("data-practice") == "1"
    again = json.loads(page.evaluate("() => localStorage.getItem('sxmj.daily')"))
    assert again["days"] == stored["days"]
    # a past day is practice too
    page.goto(site_url + "?daily=2026-11-20&speed=fast")
    wait_ready(page, w)
    assert page.locator('[data-testid="daily"]').get_attribute("data-practice") == "1"
    w.assert_clean()


def test_a_reload_mid_daily_resumes_it(fresh, site_url):
    page, w = open_daily(fresh, site_url, f"?daily={DAY}&speed=fast")
    rng = random.Random(5)
    wait_for_player(page, w)
    page.locator('[data-testid="my-hand"] button[data-tile]:not([disabled])').first.click()
    wait_for_player(page, w)
    live = json.loads(page.evaluate("() => localStorage.getItem('sxmj.daily.live')"))
    assert live["day"] == DAY and live["counted"] is True and len(live["moves"]) >= 2
    page.reload()
    wait_ready(page, w)
    assert page.locator('[data-testid="daily"]').get_attribute("data-practice") == "0"
    again = json.loads(page.evaluate("() => localStorage.getItem('sxmj.daily.live')"))
    assert again["moves"].startswith(live["moves"])
    play_hand(page, w, rng)
    w.assert_clean()


@pytest.mark.parametrize("query,param", [("?daily=2026-12-01", "daily"),
                                         ("?daily=2026-02-30", "daily"),
                                         ("?daily=yesterday", "daily")])
def test_a_bad_or_future_day_is_named(fresh, site_url, query, param):
    page, w = open_daily(fresh, site_url, query)
    notice = page.locator('[data-testid="param-notice"]')
    assert param in notice.get_attribute("data-params").split()
    assert page.locator(".py-error").count() == 0
    assert page.locator('[data-testid="daily"]').count() == 0  # the plain table instead
    if "12-01" in query:
        assert DAY in notice.inner_text()  # today, by this device's clock
    w.assert_clean()


def test_a_damaged_history_resets_once_with_a_notice(fresh, site_url):
    page, w = open_daily(
        fresh, site_url, f"?daily={DAY}",
        init_script="if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded',"
                    " '1'); localStorage.setItem('sxmj.daily', '{\"v\":1,\"days\":[1,'); "
                    "localStorage.setItem('sxmj.settings', '{\"v\":1}'); }")
    notice = page.locator('[data-testid="notice"]')
    assert "daily:corrupt" in notice.get_attribute("data-kind")
    assert page.locator(".py-error").count() == 0
    assert page.locator('[data-testid="daily"]').get_attribute("data-practice") == "0"
    page.reload()
    wait_ready(page, w)
    kinds = page.locator('[data-testid="notice"]').evaluate_all(
        "els => els.map(e => e.dataset.kind)")
    assert not any("daily" in k for k in kinds), "reset once: no notice on the next visit"
    w.assert_clean()


def test_daily_open_from_the_menu_and_the_welcome(fresh, site_url):
    page, w = open_daily(fresh, site_url, "")  # a first visit: the welcome card
    page.wait_for_selector('[data-testid="welcome"]', timeout=20000)
    assert page.locator('[data-testid="daily-open"]').count() == 1  # the card's, only
    with page.expect_navigation():
        page.locator('[data-testid="daily-open"]').click()
    wait_ready(page, w)
    assert f"daily={DAY}" in page.url
    assert page.locator('[data-testid="daily"]').get_attribute("data-day") == DAY
    page.goto(site_url + "?seed=4")
    wait_ready(page, w)
    assert page.locator('[data-testid="daily-open"]').count() == 1  # the menu's
    with page.expect_navigation():
        page.locator('[data-testid="daily-open"]').click()
    wait_ready(page, w)
    assert page.locator('[data-testid="daily"]').get_attribute("data-day") == DAY
    w.assert_clean()


def test_the_embed_offers_the_day(fresh, site_url, artifacts):
    page = fresh(viewport={"width": 420, "height": 520})
    page.clock.set_fixed_time(NOON)
    w = watch(page, site_url)
    page.goto(site_url + "embed.html?mode=daily&lang=en")
    wait_ready(page, w)
    card = page.locator('[data-testid="embed-card"]')
    assert card.get_attribute("data-mode") == "daily"
    assert card.get_attribute("data-day") == DAY  # today, by the reader's clock
    assert card.get_attribute("data-seed") == str(daily.seed_of(DAY))
    assert f"daily={DAY}" in page.locator('[data-testid="embed-open"]').get_attribute("href")
    page.screenshot(path=str(artifacts / "daily-embed.png"))
    page.goto(site_url + "embed.html?mode=daily&date=2026-12-25")
    wait_ready(page, w)
    assert page.locator('[data-testid="embed-error"]').get_attribute("data-field") == "date"
    w.assert_clean()
