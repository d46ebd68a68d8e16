"""embed.html in the browser: each mode, bad parameters explained in the frame, and the
example article with two embeds sized to their content by ``postMessage``."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from harness import DESKTOP, PHONE, wait_ready, watch
from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sxmj.scenarios import BUILTIN  # noqa: E402

RESULT = '[data-testid="calc-result"]'
IMAGES_LOADED = """async () => { await Promise.all([...document.images].map(i => i.complete ?
    null : new Promise(r => { i.onload = i.onerror = r; }))); }"""


def open_embed(fresh, site_url: str, params: dict, viewport=DESKTOP) -> tuple[Page, object]:
    page = fresh(viewport=viewport)
    w = watch(page, site_url)
    page.goto(site_url + "embed.html?" + urlencode(params))
    wait_ready(page, w)
    assert page.locator(".py-error").count() == 0
    return page, w


def attrs(page: Page, selector: str = RESULT) -> dict[str, str]:
    return page.locator(selector).evaluate(
        "e => Object.fromEntries([...e.attributes].map(a => [a.name, a.value]))")


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """Screenshots at 1280×800 and 390×844; the frame never scrolls sideways."""
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.evaluate(IMAGES_LOADED)
        page.wait_for_timeout(100)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], name
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=artifacts / f"embed-{name}-{size}.png")


def test_hand_mode_judges_fourteen_tiles(fresh, site_url, artifacts):
    page, w = open_embed(fresh, site_url, {"mode": "hand", "hand": "123m456m789m123p9s5p",
                                           "caishen": "9s"})
    a = attrs(page)
    assert (a["data-win"], a["data-fan"], a["data-share"], a["data-state"]) == \
        ("true", "1", "12", "win")
    assert a["data-patterns"] == "baotou"
    text = page.inner_text(RESULT)
    text = re.sub(r"\s*\^\s*", "^", text)  # 2¹ is 2<sup>^1</sup>, the caret hidden
    assert "暴头" in text and "每家 = 2^1 × (5 + 1) = 2 × 6 = 12" in text
    assert page.locator(f"{RESULT} .t.is-cai .cai").count() >= 2
    link = page.locator(".embed__more a")
    assert link.get_attribute("target") == "_blank"
    assert link.get_attribute("href").startswith("./calc.html?hand=")
    shoot(page, artifacts, "hand")
    w.assert_clean()


def test_hand_mode_shows_the_waits_of_thirteen_tiles(fresh, site_url, artifacts):
    page, w = open_embed(fresh, site_url, {"mode": "hand", "hand": "123m456m789m55p78s",
                                           "caishen": "9s", "lang": "en"})
    a = attrs(page)
    assert (a["data-win"], a["data-state"], a["data-waits"]) == ("false", "waits", "6s 9s")
    assert a["data-baotou-ready"] == "false" and a["data-distance"] == "0"
    assert page.locator(f"{RESULT} .wait").count() == 2
    assert "Waiting on" in page.inner_text(RESULT)
    shoot(page, artifacts, "hand-waits")
    page2, w2 = open_embed(fresh, site_url, {"mode": "hand", "hand": "123m456m789p234s9s",
                                             "caishen": "9s"})
    assert attrs(page2)["data-baotou-ready"] == "true"
    assert "暴头听牌" in page2.inner_text(RESULT)
    w.assert_clean()
    w2.assert_clean()


def test_calc_mode_is_the_calculator(fresh, site_url, artifacts):
    page, w = open_embed(fresh, site_url, {"mode": "calc", "hand": "123m456m789p234s9s",
                                           "caishen": "9s", "lang": "en"})
    assert attrs(page)["data-state"] == "waits"
    page.locator('#calc-palette [data-tile="5z"]').click()  # a flower: to the flowers
    page.locator('#calc-palette [data-tile="1z"]').click()
    page.wait_for_function("document.querySelector('[data-testid=calc-result]')"
                           ".dataset.win === 'true'")
    a = attrs(page)
    assert (a["data-fan"], a["data-share"]) == ("1", "14")  # 暴头; 花: 财神 1 + 白板 1
    assert page.url.endswith("lang=en")  # an embedded calculator leaves its URL alone
    shoot(page, artifacts, "calc")
    w.assert_clean()


def test_scenario_mode_cards_open_the_table(fresh, site_url, artifacts):
    page = fresh()
    w = watch(page, site_url)
    for name in BUILTIN:
        page.goto(site_url + f"embed.html?mode=scenario&name={name}")
        wait_ready(page, w)
        card = attrs(page, '[data-testid="embed-card"]')
        assert card["data-scenario"] == name
        title = BUILTIN[name]["title"]["zh"]
        assert page.locator(".card__title").inner_text() == title
        assert page.locator('[data-testid="embed-open"]').get_attribute("href") == \
            f"./index.html?scenario={name}"
        assert page.locator('[data-testid="embed-open"]').get_attribute("target") == "_blank"
        page.evaluate(IMAGES_LOADED)  # before leaving: an aborted image counts as a failure
        if name == "chengbao":
            shoot(page, artifacts, "scenario")
            page.set_viewport_size(DESKTOP)
    w.assert_clean()
    # "open in this frame" really opens the table there
    page.goto(site_url + "embed.html?mode=scenario&name=baotou&lang=en")
    wait_ready(page, w)
    assert page.locator(".card__title").inner_text() == BUILTIN["baotou"]["title"]["en"]
    page.evaluate(IMAGES_LOADED)
    page.locator('[data-testid="embed-here"]').click()
    page.wait_for_url("**/index.html?scenario=baotou&lang=en*")
    wait_ready(page, w)
    w.assert_clean()


def test_play_mode_card(fresh, site_url, artifacts):
    page, w = open_embed(fresh, site_url, {"mode": "play", "seed": "42", "lang": "en"})
    card = attrs(page, '[data-testid="embed-card"]')
    assert card["data-seed"] == "42"
    assert page.locator(".card__title").inner_text().startswith("Seed 42")
    assert page.locator(".card__hand .t").count() in (13, 14)
    assert page.locator('[data-testid="embed-open"]').get_attribute("href") == \
        "./index.html?seed=42&lang=en"
    shoot(page, artifacts, "play")
    w.assert_clean()


@pytest.mark.parametrize(("params", "field", "words"), [
    ({}, "mode", "必须填写"),
    ({"mode": "poker"}, "mode", "不认识的模式 poker"),
    ({"mode": "hand", "hand": "123m456m789m123p5p7z", "caishen": "9s"}, "hand",
     "7z（红中）是花牌"),
    ({"mode": "hand", "hand": "123m456m789m123p9s5p", "caishen": "0z"}, "caishen",
     "没有 0z 这张牌"),
    ({"mode": "scenario", "name": "nope"}, "name", "没有叫 nope 的场景"),
    ({"mode": "play", "seed": "abc"}, "seed", "要填 0 到"),
])
def test_bad_parameters_are_explained_in_the_frame(fresh, site_url, artifacts, params, field,
                                                   words):
    page, w = open_embed(fresh, site_url, params)
    error = page.locator('[data-testid="embed-error"]')
    assert error.get_attribute("data-field") == field
    text = error.inner_text()
    assert words in text
    assert any(ch.isascii() and ch.isalpha() for ch in text)  # and in English
    assert page.locator(".py-error").count() == 0
    if params.get("mode") == "hand":
        assert attrs(page)["data-state"] == "invalid"
    if field == "seed":
        shoot(page, artifacts, "error")
    w.assert_clean()


def test_example_article_sizes_its_two_embeds(fresh, site_url, artifacts):
    page = fresh()
    w = watch(page, site_url)
    page.goto(site_url + "examples/tutorial.html")
    frames = page.locator("iframe.sxmj")
    assert frames.count() == 2
    for i in range(2):
        frames.nth(i).scroll_into_view_if_needed()  # the frames load lazily
        frame = frames.nth(i).element_handle().content_frame()
        # until it loads, the lazy frame is an empty document with no body yet
        frame.wait_for_function("document.body && document.body.dataset.sxmjReady === '1'",
                                timeout=90000)
    hand = frames.nth(0).element_handle().content_frame()
    result = hand.locator(RESULT)
    assert (result.get_attribute("data-win"), result.get_attribute("data-share")) == \
        ("true", "12")
    assert "Bao Tou" in result.inner_text()
    calc = frames.nth(1).element_handle().content_frame()
    assert calc.locator(RESULT).get_attribute("data-state") == "waits"
    # each frame told the article its height, and the article's 3-line script used it
    for i, frame in enumerate((hand, calc)):
        page.wait_for_function(
            "([i]) => document.querySelectorAll('iframe.sxmj')[i].style.height !== ''", arg=[i],
            timeout=10000)
        want = frame.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
        got = frames.nth(i).evaluate("f => f.getBoundingClientRect().height")
        assert abs(got - want) <= 2, (i, got, want)
    before = frames.nth(1).evaluate("f => f.getBoundingClientRect().height")
    calc.locator('#calc-palette [data-tile="5p"]').click()  # 14 tiles: a longer result
    page.wait_for_function(
        "h => document.querySelectorAll('iframe.sxmj')[1].getBoundingClientRect().height !== h",
        arg=before, timeout=10000)
    assert calc.locator(RESULT).get_attribute("data-win") == "true"
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(IMAGES_LOADED)
    page.screenshot(path=artifacts / "examples-1280x800.png")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    frames.nth(0).scroll_into_view_if_needed()
    page.wait_for_timeout(200)
    page.screenshot(path=artifacts / "examples-390x844.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    w.assert_clean()
