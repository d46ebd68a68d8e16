"""Touch and small screens: a whole hand played by taps at 360×740 (a first tap raises a
tile, a second throws it); every action button is at least 44 px; nothing needs a hover (a
tap on a disabled tile says why; the assist opens with a tap); and the comforts' screens on a
phone (390×844) for the artifacts."""

from __future__ import annotations

import random
import sys

import pytest
from harness import PHONE, ROOT, new_context, wait_ready, watch
from playwright.sync_api import Page

sys.path.insert(0, str(ROOT))

from test_comforts_scenario import follow_the_coach  # noqa: E402

HAND = '[data-testid="my-hand"] button[data-tile]'
ENABLED = HAND + ":not([disabled])"
RESULT = '[data-testid="hand-result"]'
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")
SMALL = {"width": 360, "height": 740}


def touch_page(browser, browser_context_args, site_url, viewport):
    context = new_context(browser, site_url, **{**browser_context_args, "viewport": viewport,
                                                "has_touch": True, "is_mobile": True,
                                                "device_scale_factor": 2})
    page = context.new_page()
    return context, page, watch(page, site_url)


def settle(page: Page, w) -> None:
    page.wait_for_function(WAITING, timeout=30000)
    assert page.locator(".py-error").count() == 0 and page.locator("#game-error").is_hidden()
    w.assert_clean()


def tap_at(page: Page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def check_layout(page: Page, viewport: dict) -> None:
    width, height = viewport["width"], viewport["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    tiles = page.locator(HAND).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.right, r.top, r.bottom, r.width] })")
    for left, right, top, bottom, w in tiles:
        assert left >= 0 and right <= width and bottom <= height and top >= 0, tiles
        assert w >= 21, tiles
    sizes = page.locator("#actions button, #result button, #sheet button").evaluate_all(
        "els => els.filter(e => e.offsetParent !== null)"
        ".map(e => [e.textContent.trim(), e.offsetWidth, e.offsetHeight])")  # layout sizes,
    for text, w, h in sizes:  # not the boxes of a panel still popping in
        assert w >= 44 and h >= 44, (text, w, h)
    menu = page.locator("#menu").bounding_box()
    for chip in page.locator("#menu .chip").all():
        if chip.is_visible():
            box = chip.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
            assert box["y"] + box["height"] <= menu["y"] + menu["height"] + 1


def play_hand_by_taps(page: Page, w, rng: random.Random, first: bool, artifacts) -> None:
    for step in range(300):
        settle(page, w)
        check_layout(page, SMALL)
        if page.locator(RESULT).count():
            return
        names = page.locator("#actions button[data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action)")
        if page.locator(f"{HAND}[disabled]").count() and \
                not page.evaluate("window.__explained === true"):
            # no hover on a phone: a tap on a disabled tile says why
            page.evaluate("document.getElementById('why').textContent = ''")
            tap_at(page, f"{HAND}[disabled]")
            why = page.locator(f"{HAND}[disabled]").first.get_attribute("data-why")
            assert why and page.inner_text('[data-testid="why"]') == why
            page.evaluate("window.__explained = true")
        if first and step == 3:  # the assist: one line on the table, all of it a tap away
            page.locator('[data-ui="assist-open"]').tap()
            assist = page.locator('#rail [data-testid="assist"]')
            assert assist.is_visible()
            assert page.locator('#rail [data-ui="assist"]').bounding_box()["height"] >= 44
            page.wait_for_timeout(300)
            page.screenshot(path=artifacts / "comforts-assist-open-360x740.png")
            page.locator('[data-ui="assist-open"]').tap()
            assert not assist.is_visible()
        if "hu" in names:
            page.locator('#actions [data-action="hu"]').tap()
        elif "pass" in names and not page.locator(ENABLED).count():
            page.locator('#actions [data-action="pass"]').tap()
        else:
            tiles = page.locator(ENABLED)
            tiles.nth(rng.randrange(tiles.count())).tap()  # raised, not thrown
            page.locator(f'{HAND}[data-raised="1"]').tap()  # thrown
            if page.locator('#actions [data-action="piao"]').count():
                page.locator('#actions [data-action="piao"]').tap()
    pytest.fail("the hand never ended")


def test_a_whole_hand_by_taps_at_360_wide(browser, browser_context_args, site_url, artifacts):
    context, page, w = touch_page(browser, browser_context_args, site_url, SMALL)
    page.goto(site_url + "?seed=2&speed=fast")
    wait_ready(page, w)
    rng = random.Random(2)
    explained = False
    for hand in range(4):  # until a claim window has shown its disabled tiles, 1 hand at least
        play_hand_by_taps(page, w, rng, first=hand == 0, artifacts=artifacts)
        explained = explained or page.evaluate("window.__explained === true")
        if hand == 0:
            page.wait_for_timeout(300)
            page.screenshot(path=artifacts / "comforts-result-360x740.png")
        check_layout(page, SMALL)
        page.locator(f'{RESULT} [data-action="next-hand"]').tap()
        page.wait_for_selector(RESULT, state="detached")
        settle(page, w)
        if explained:
            break
    assert explained, "no claim window in four hands"
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, SMALL], ids=["390x844", "360x740"])
def test_the_comforts_on_a_phone(browser, browser_context_args, site_url, artifacts, viewport):
    """Settings, profile, records, keys and the scenario coach, on phones; screenshots."""
    size = f"{viewport['width']}x{viewport['height']}"
    context, page, w = touch_page(browser, browser_context_args, site_url, viewport)
    page.goto(site_url + "?seed=4&speed=fast")
    wait_ready(page, w)
    settle(page, w)
    check_layout(page, viewport)
    page.screenshot(path=artifacts / f"comforts-table-{size}.png")
    page.locator('#menu [data-ui="settings"]').tap()
    page.locator("#sheet [data-setting='base_flowers']").wait_for()
    sheet = page.locator("#sheet").bounding_box()
    assert sheet["x"] >= 0 and sheet["x"] + sheet["width"] <= viewport["width"]
    page.wait_for_timeout(300)
    page.screenshot(path=artifacts / f"comforts-settings-{size}.png")
    for tab in ("profile", "records", "keys"):
        page.locator(f'#sheet [data-tab="{tab}"]').tap()
        page.wait_for_timeout(300)
        check_layout(page, viewport)
        page.screenshot(path=artifacts / f"comforts-{'help' if tab == 'keys' else tab}-{size}.png")
    page.locator('#sheet [data-ui="close"]').tap()
    page.wait_for_function("() => !document.getElementById('sheet').open")
    page.goto(site_url + "?scenario=chengbao&speed=fast")
    wait_ready(page, w)
    settle(page, w)
    coach = page.locator('[data-testid="coach"]')
    box = coach.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    hand = page.locator(HAND).last.bounding_box()
    assert box["y"] + box["height"] < hand["y"]  # the coach never covers the hand
    page.wait_for_timeout(300)
    page.screenshot(path=artifacts / f"comforts-scenario-{size}.png")
    page.locator('[data-ui="assist-open"]').tap()  # the assist, a tap away
    assert page.locator('#rail [data-testid="assist"]').is_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=artifacts / f"comforts-assist-{size}.png")
    page.locator('[data-ui="assist-open"]').tap()
    follow_the_coach(page, w)  # to the explained result
    check_layout(page, viewport)
    page.wait_for_timeout(400)
    page.screenshot(path=artifacts / f"comforts-result-{size}.png")
    assert page.locator('[data-testid="scenario-done"]').get_attribute("data-state") == "success"
    w.assert_clean()
    context.close()
