"""calc.html in the browser: tiles by click or by notation, the result explained, bad input
explained, the state in the URL, and the testing contract ``[data-testid="calc-result"]``."""

from __future__ import annotations

import re
import time

import pytest
from harness import DESKTOP, PHONE, shared_page, wait_ready, watch
from playwright.sync_api import Page

RESULT = '[data-testid="calc-result"]'


def result(page: Page) -> dict[str, str | None]:
    loc = page.locator(RESULT)
    assert loc.count() == 1
    return {k: loc.get_attribute(f"data-{k}") for k in ("win", "fan", "share", "state", "error")}


def wait_result(page: Page, **want: str) -> dict:
    """Wait until calc-result's data attributes have the wanted values."""
    deadline = time.monotonic() + 10
    while True:
        got = result(page)
        if all(got[k] == v for k, v in want.items()):
            return got
        if time.monotonic() > deadline:
            pytest.fail(f"calc-result is {got}, wanted {want}")
        page.wait_for_timeout(50)


def click_tiles(page: Page, codes: str) -> None:
    for c in re.findall(r"\d[mpszf]", codes):
        page.locator(f'#calc-palette [data-tile="{c}"]').click()


@pytest.fixture(scope="module")
def calc(browser, browser_context_args, site_url):
    """One calculator page for the module (a boot costs seconds); must stay clean."""
    with shared_page(browser, browser_context_args, site_url, "calc.html", "calc.html") as b:
        yield b.page, b.watch, b.url


def clear(page: Page) -> None:
    page.locator('[data-ui="clear"]').click()
    wait_result(page, state="incomplete")


def test_boots_clean_with_an_empty_hand(calc):
    page, w, _ = calc
    assert result(page) == {"win": "false", "fan": "0", "share": "0", "state": "incomplete",
                            "error": None}
    assert page.locator("#calc-palette [data-tile]").count() == 42
    assert page.locator('[data-testid="calc-result"] .py-error').count() == 0
    w.assert_clean()


def test_clicking_tiles_builds_a_baotou_win(calc):
    page, _, _ = calc
    clear(page)
    click_tiles(page, "1m2m3m4m5m6m7m8m9m1p2p3p9s")
    got = wait_result(page, state="waits")
    assert page.locator(RESULT).get_attribute("data-baotou-ready") == "true"
    assert got["win"] == "false"
    click_tiles(page, "5p")
    wait_result(page, win="true", fan="1", share="12", state="win")
    text = page.inner_text(RESULT)
    text = re.sub(r"\s*\^\s*", "^", text)  # 2¹ is 2<sup>^1</sup>, the caret hidden
    assert "暴头" in text and "每家 = 2^1 × (5 + 1) = 2 × 6 = 12" in text
    # the 财神 is drawn with its frame and badge; the hand input shows the notation
    assert page.locator("#calc-preview .t.is-cai .cai").count() == 1
    assert page.input_value('[data-field="hand"]') == "123456789m123p9s5p"
    assert "hand=123456789m123p9s5p" in page.url


def test_typing_notation_judges_the_hand(calc):
    page, _, _ = calc
    clear(page)
    page.fill('[data-field="hand"]', "12m3m456m789m55s678s")
    page.fill('[data-field="win_tile"]', "3m")
    page.select_option('[data-field="win_by"]', "rob")
    wait_result(page, win="true", fan="1", share="10")
    assert "抢杠" in page.inner_text(RESULT)
    page.select_option('[data-field="win_by"]', "draw")
    wait_result(page, win="true", fan="0", share="5")


def test_melds_flowers_and_context(calc):
    page, _, _ = calc
    clear(page)
    page.locator('[data-target="meld"]').click()
    page.locator('[data-kind="angang"]').click()
    click_tiles(page, "2s")
    page.locator('[data-target="hand"]').click()
    click_tiles(page, "4m5m6m7m8m9m1p2p3p9s5p")
    click_tiles(page, "3f")  # a flower goes to the flowers, whatever the target
    assert page.input_value('[data-field="flowers"]') == "3f"
    assert page.input_value('[data-field="melds"]') == "angang 2222s"
    wait_result(page, win="true", fan="1", share="18")  # 暴头; 花 = 财神 1 + 暗杠 2 + 花 1
    page.select_option('[data-field="win_by"]', "kong")
    wait_result(page, win="true", fan="2", share="36")  # 杠爆
    page.locator('[data-field="dealer"]').check()
    page.locator('[data-field="first_turn"]').check()
    # a kong leaves the first turn behind (RULES §12): 天胡 on its replacement is refused
    wait_result(page, win="false", state="invalid", error="first_turn")
    assert "先开了杠" in page.inner_text(RESULT)
    # nor with any set laid down, a concealed kong included: the dealt hand has none
    page.select_option('[data-field="win_by"]', "draw")
    wait_result(page, win="false", state="invalid", error="first_turn")
    assert "副露" in page.inner_text(RESULT)
    page.locator('[data-field="dealer"]').uncheck()
    page.locator('[data-field="first_turn"]').uncheck()
    wait_result(page, win="true", fan="1", share="18")  # back to 暴头 alone
    # the dealt hand itself: 暴头 1 + 天胡 3 = 4 番, capped at 3 (三番到底); 花 = 财神 1 + 花 1
    page.fill('[data-field="melds"]', "")
    page.fill('[data-field="hand"]', "123m456m789m123p9s5p")
    page.locator('[data-field="dealer"]').check()
    page.locator('[data-field="first_turn"]').check()
    wait_result(page, win="true", fan="3", share="56")
    assert "三番到底" in page.inner_text(RESULT)


@pytest.mark.parametrize(("field", "value", "error", "words"), [
    ("hand", "123m456m789m123p5p7z", "hand", "7z（红中）是花牌"),
    ("hand", "123m456m789m123p5p9x", "hand", "不认识的字母 x"),
    ("caishen", "8z", "caishen", "没有 8z 这张牌"),
    ("melds", "peng 12m", "melds", "peng 要 3 张牌"),
    ("piao", "two", "piao", "要填 0 或更大的整数"),
])
def test_bad_input_is_explained_not_a_crash(calc, field, value, error, words):
    page, w, _ = calc
    clear(page)
    page.fill('[data-field="hand"]', "123m456m789m123p5p9s" if field != "hand" else value)
    if field == "melds":
        page.fill('[data-field="hand"]', "456m789m123p5p9s")
    if field != "hand":
        page.fill(f'[data-field="{field}"]', value)
    wait_result(page, win="false", state="invalid", error=error)
    assert words in page.inner_text(RESULT)
    assert page.locator(f'[data-for="{error}"][data-invalid="true"]').count() == 1
    assert page.locator(".py-error").count() == 0
    w.assert_clean()
    page.fill(f'[data-field="{field}"]', "9s" if field == "caishen" else "")


def test_an_example_loads_and_agrees(calc):
    page, _, _ = calc
    clear(page)
    page.select_option('[data-ui="example"]', "dadiao-baotou")
    wait_result(page, win="true", fan="2", share="24")
    assert page.locator("#calc-preview .meld").count() == 4


def test_language_switch_and_back(calc):
    page, w, _ = calc
    page.locator('[data-ui="lang"]').first.click()
    page.wait_for_function("document.documentElement.dataset.lang === 'en'")
    page.wait_for_function(
        "document.querySelector('[data-testid=calc-result]').innerText.includes('share')")
    assert "lang=en" in page.url
    assert page.locator('[data-target="hand"]').inner_text() == "Hand"
    page.locator('[data-ui="lang"]').first.click()
    page.wait_for_function("document.documentElement.dataset.lang === 'zh'")
    assert "lang=en" not in page.url
    w.assert_clean()


def test_a_link_reproduces_the_hand(fresh, site_url, artifacts):
    page = fresh()
    w = watch(page, site_url)
    page.goto(site_url + "calc.html?hand=123m456m789m123p9s5p&caishen=9s&lang=en")
    wait_ready(page, w)
    wait_result(page, win="true", fan="1", share="12")
    assert page.input_value('[data-field="caishen"]') == "9s"
    assert "Bao Tou" in page.inner_text(RESULT)
    page.screenshot(path=artifacts / "calc-1280x800.png")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=artifacts / "calc-390x844.png")
    page.locator(RESULT).scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "calc-result-390x844.png")
    page.set_viewport_size(DESKTOP)
    w.assert_clean()


def test_a_bad_url_is_explained(fresh, site_url):
    page = fresh()
    w = watch(page, site_url)
    page.goto(site_url + "calc.html?hand=123m&dealer=perhaps")
    wait_ready(page, w)
    assert "第一手" not in page.inner_text("#calc-msg")
    assert "庄家" in page.inner_text("#calc-msg")
    w.assert_clean()
