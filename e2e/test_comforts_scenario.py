"""Scenario mode on the table (``index.html?scenario=NAME``) and the explained result.

- ``?scenario=baotou&speed=fast``: follow the coach's suggestions by clicking; the assist
  says 暴头-ready when it is; the hand ends in a 暴头 win; the scenario's finished panel says
  the goal was reached; "play it again" restarts it; nothing is saved over the player's match.
- A bad name: a readable message naming the known scenarios, and a normal, playable game.
- The result explains itself in words, in 中文 and English: each pattern and its 番, each 花
  item, the formula with its numbers, who pays what and why — 承包 (``chengbao``) and 抢杠
  (``qianggang``), checked against the evaluation CPython computes for the same play.
"""

from __future__ import annotations

import sys

import pytest
from harness import DESKTOP, ROOT, wait_ready, watched_page
from playwright.sync_api import Page

sys.path.insert(0, str(ROOT))

from sxmj.game import Action  # noqa: E402
from sxmj.scenarios import BUILTIN  # noqa: E402
from sxmj.scoring import FLOWER_ITEMS, PATTERNS, PAY_REASONS  # noqa: E402
from sxmj.tiles import code, format_tiles  # noqa: E402
from sxmj.ui import i18n  # noqa: E402
from sxmj.ui.table.scenario.mode import from_search  # noqa: E402

HAND = '[data-testid="my-hand"] button[data-tile]'
ENABLED = HAND + ":not([disabled])"
RESULT = '[data-testid="hand-result"]'
COACH = '[data-testid="coach"]'
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")


@pytest.fixture(scope="module")
def page_w(browser, browser_context_args, site_url):
    with watched_page(browser, {**browser_context_args, "viewport": DESKTOP},
                      site_url) as (page, w):
        yield page, w, site_url


def open_page(page_w, query: str) -> Page:
    page, w, site_url = page_w
    page.goto(site_url + query)
    wait_ready(page, w)
    return page


def settle(page: Page, w) -> None:
    page.wait_for_function(WAITING, timeout=30000)
    assert page.locator(".py-error").count() == 0 and page.locator("#game-error").is_hidden()
    w.assert_clean()


def click_action(page: Page, action: Action) -> None:
    """Click what the coach suggests (a tile, or a button of the action bar)."""
    if action.kind == "discard":
        page.locator(f'{ENABLED}[data-tile="{code(action.tile)}"]').last.click()
        if page.locator('#actions [data-action="piao"]').count():
            page.click('#actions [data-action="piao"]')  # 飘, confirmed
        return
    name = {"angang": "gang", "jiagang": "gang", "minggang": "gang"}.get(action.kind,
                                                                        action.kind)
    selector = f'#actions button[data-action="{name}"]'
    if action.kind == "chi":
        selector += f'[data-tiles="{format_tiles(action.tiles)}"]'
    page.click(selector)


def follow_the_coach(page: Page, w, on_step=None) -> list[str]:
    """Play by the coach's suggestions (else pass, else throw the drawn tile) to the end."""
    clicked = []
    for _ in range(200):
        settle(page, w)
        if page.locator(RESULT).count():
            return clicked
        suggest = page.get_attribute(COACH, "data-suggest")
        if on_step:
            on_step(suggest)
        if suggest:
            action = Action.parse(suggest)
            assert page.locator("[data-suggested]").count() >= 1  # shown on the table
            click_action(page, action)
            clicked.append(suggest)
        elif page.locator('#actions [data-action="pass"]').count() and \
                not page.locator(ENABLED).count():
            page.click('#actions [data-action="pass"]')
        else:
            drawn = page.locator(f"{ENABLED}.is-drawn")
            (drawn if drawn.count() else page.locator(ENABLED)).last.click()
    pytest.fail("the scenario never ended")


def cpython_run(name: str):
    """The same scenario played the same way in CPython: the finished match."""
    mode = from_search(f"?scenario={name}")
    match = mode.start()
    g = match.game
    while not g.over:
        seat = 0 if 0 in g.to_move() else g.to_move()[0]
        if seat:
            match.apply(mode.bot_action(g, seat))
            continue
        legal = g.legal_actions(0)
        action = mode.coach(g, "en").suggest or next(
            (a for a in legal if a.kind == "pass"), None) or next(
            a for a in legal if a.kind == "discard" and a.tile == g.last_tile)
        match.apply(action)
    return match


# ---------- scenario mode ----------


def test_baotou_scenario_followed_by_clicks_reaches_the_baotou_win(page_w, artifacts):
    page, w, site_url = page_w
    page.goto(site_url + "manifest.webmanifest")
    page.evaluate("localStorage.clear()")
    page = open_page(page_w, "?scenario=baotou&speed=fast")
    coach = page.locator(COACH)
    assert coach.get_attribute("data-scenario") == "baotou"
    assert page.evaluate("document.body.dataset.sxmjScenario") == "baotou"
    assert coach.get_attribute("data-step") == "1"
    assert "四组牌已经齐了" in coach.inner_text()
    seen_baotou = []

    def on_step(suggest: str | None) -> None:
        if suggest == "0 discard 1z":  # throwing the East Wind leaves 暴头-ready
            assist = page.locator('[data-testid="assist"]')
            seen_baotou.append(assist.get_attribute("data-baotou-ready"))
            assert page.locator('[data-testid="baotou-ready"]').is_visible()
            page.wait_for_timeout(300)
            page.screenshot(path=artifacts / "comforts-scenario-1280x800.png")

    clicked = follow_the_coach(page, w, on_step)
    suggested = [c["suggest"] for c in BUILTIN["baotou"]["coach"] if c.get("suggest")]
    assert clicked == suggested
    assert seen_baotou == ["true"]
    result = page.locator(RESULT)
    assert result.get_attribute("data-result") == "win"
    assert "暴头" in result.inner_text() and "你胡了" in result.inner_text()
    done = page.locator('[data-testid="scenario-done"]')
    assert done.get_attribute("data-state") == "success" and "目标达成" in done.inner_text()
    assert coach.get_attribute("data-state") == "success"
    assert page.evaluate("localStorage.getItem('sxmj.save')") is None  # a lesson: not saved
    assert "scenario=baotou" in page.evaluate("location.search")
    again = page.locator(f'{RESULT} [data-action="next-hand"]')
    assert "再来一次" in again.inner_text()
    again.click()
    page.wait_for_selector(RESULT, state="detached")
    settle(page, w)
    assert coach.get_attribute("data-step") == "1" and coach.get_attribute("data-state") == "play"
    page.click('#menu [data-action="new-match"]')  # 新比赛 leaves the scenario for a match
    page.click('#overlay [data-ui="confirm-yes"]')  # (asked first)
    page.wait_for_selector(COACH, state="detached")
    settle(page, w)
    assert "scenario" not in page.evaluate("location.search")
    assert "seed=" in page.evaluate("location.search")
    assert page.evaluate("document.body.dataset.sxmjScenario") is None
    assert page.locator("#menu .chip--seed").is_visible()
    assert page.evaluate("localStorage.getItem('sxmj.save')") is not None


def test_a_bad_scenario_name_says_so_and_deals_a_normal_game(page_w):
    page = open_page(page_w, "?scenario=nope&speed=fast")
    settle(page, page_w[1])
    coach = page.locator(COACH)
    assert coach.get_attribute("data-state") == "error"
    text = coach.inner_text()
    assert "nope" in text and "baotou" in text and "没有这个场景" in text and "No such" in text
    assert page.locator(".py-error").count() == 0
    assert int(page.inner_text('[data-testid="wall-count"]')) > 50
    assert page.locator(HAND).count() >= 13
    if page.locator(ENABLED).count():
        page.locator(ENABLED).last.click()
    else:
        page.locator("#actions button[data-action]").last.click()
    settle(page, page_w[1])


# ---------- the explained result ----------


@pytest.mark.parametrize("name,lang,reason", [("chengbao", "zh", "contract3"),
                                              ("qianggang", "en", "rob")])
def test_result_explains_patterns_flowers_formula_and_payments(page_w, artifacts, name, lang,
                                                              reason):
    expected = cpython_run(name)
    r = expected.game.result
    ev = r.evaluation
    assert reason in r.reasons
    page = open_page(page_w, f"?scenario={name}&speed=fast&lang={lang}")
    follow_the_coach(page, page_w[1])
    result = page.locator(RESULT)
    text = result.inner_text()
    for pid in ev.patterns:  # each pattern in words, with its 番
        zh, en, what = PATTERNS[pid]
        assert zh in text and (what in text if lang == "en" else True)
        assert i18n.tr(lang, "fan_n", n=ev.pattern_fan[pid]) in text
    assert i18n.tr(lang, "fan_total", n=ev.fan) in text
    assert i18n.tr(lang, "flowers_base") in text and i18n.tr(lang, "hua_n", n=ev.base) in text
    for item, count, points in ev.flower_items:  # each 花 item
        label = FLOWER_ITEMS[item][0 if lang == "zh" else 1]
        assert label in text and f"×{count}" in text
        assert i18n.tr(lang, "hua_n", n=points) in text
    # the formula, in words and numbers; 2^n is set as a superscript whose caret is
    # visually hidden, so it is in the text content but not in the rendered text
    full = result.text_content()
    assert i18n.tr(lang, "formula_words") in full
    assert ev.formula(lang) in full
    assert f"2^{ev.fan} × ({ev.base} + {ev.flowers})" in full
    rows = page.locator(f"{RESULT} .pay__row")
    assert rows.count() == 4
    for seat in range(4):  # who pays what, and why
        row = rows.nth(seat)
        assert row.locator(".pay__reason").get_attribute("data-reason") == r.reasons[seat]
        amount = row.locator(".pay__amount").inner_text().replace("−", "-").replace("+", "")
        assert int(amount) == r.payments[seat]
        words = PAY_REASONS[r.reasons[seat]][0 if lang == "zh" else 1]
        if words:
            assert words in row.inner_text()
        if r.payments[seat]:
            n = abs(r.payments[seat]) // ev.share
            assert f"× {ev.share}" in row.inner_text()
            assert i18n.tr(lang, "pay_shares", n=n, s="" if n == 1 else "s") in row.inner_text()
    summary = page.inner_text('[data-testid="pay-summary"]')
    assert str(r.payments[0]) in summary and str(ev.share) in summary
    page.wait_for_timeout(300)
    result.screenshot(path=artifacts / f"comforts-result-{name}-1280x800.png")
    if name == "chengbao":
        page.screenshot(path=artifacts / "comforts-result-1280x800.png")
