"""Every entry point survives odd input (issue 21), in the browser.

- The worst URL parameter values on every page (index, learn, calc, embed in each mode): the
  page becomes ready and names what it did not use in a small dismissible notice
  (``[data-testid="param-notice"]``), or the embed names what it needs
  (``[data-testid="embed-error"]``); never a ``.py-error`` or a console error (the harness
  fails on both). The game page writes a clean address, so a reload shows no notice.
- The worst values in ``localStorage`` (save, settings, profile): the table becomes ready,
  each unreadable entry is reset, one notice says so, and it does not come back on reload.
- The calculator embed fits 900 px high in an article column (560 px wide or more); its
  heights go to ``e2e/artifacts/embed-calc-heights.json``.

The CPython half (hypothesis over every parser and loader) is ``tests/test_entry_points.py``.
"""

from __future__ import annotations

import json
import sys
from urllib.parse import parse_qs, urlsplit

import pytest
from harness import DESKTOP, ROOT, wait_ready, watched_page
from playwright.sync_api import Page

sys.path.insert(0, str(ROOT))

from sxmj.ui.table.storage import saved  # noqa: E402

NOTICE = '[data-testid="param-notice"]'
EMBED_ERROR = '[data-testid="embed-error"]'
RESULT = '[data-testid="calc-result"]'
HUGE = "9" * 3000


@pytest.fixture(scope="module")
def tab(browser, browser_context_args, site_url):
    """One watched page for the module: every test navigates it (a boot re-runs each time).
    Without the service worker the game and the other pages register: this module is about
    input, and a worker caching in the background while the page moves on aborts requests."""
    args = {**browser_context_args, "viewport": DESKTOP, "service_workers": "block"}
    with watched_page(browser, args, site_url, label="the entry-point page") as (page, w):
        yield page, w, site_url


def forget(tab) -> None:
    """An empty localStorage (set from a plain file of the origin, no game running)."""
    page, _, site_url = tab
    page.goto(site_url + "manifest.webmanifest")
    page.evaluate("localStorage.clear()")


def visit(tab, path: str) -> Page:
    page, w, site_url = tab
    page.goto(site_url + path)
    wait_ready(page, w)  # fails on a .py-error or a console error
    assert page.locator(".py-error").count() == 0
    w.assert_clean()
    return page


def named(page: Page) -> set[str]:
    notice = page.locator(NOTICE)
    if notice.count() == 0:
        return set()
    assert notice.is_visible()
    return set(notice.get_attribute("data-params").split())


def dismiss(page: Page) -> None:
    page.locator(f'{NOTICE} [data-ui="param-notice-ok"]').click()
    page.locator(NOTICE).wait_for(state="hidden", timeout=5000)  # removed, or its box hidden


# ------------------------------------------------------------------ index.html

INDEX = [
    # (query, the parameters the notice names, the language and pace the table took)
    ("?seed=%C2%B2&lang=fr&speed=warp&bots=genius&sede=7",
     {"seed", "lang", "speed", "bots", "sede"}, "zh", "normal"),
    ("?seed=1&seed=%D9%A3&bots=easy,nope,hard&lang=EN&speed=FAST", {"seed", "bots"}, "en",
     "fast"),
    (f"?seed={HUGE}&%FF=1&lang=%2565n&speed=", {"seed", "\ufffd", "lang"}, "zh", "normal"),
    ("?seed=-1&bots=expert&lang=en&speed=fast&utm_source=x", {"seed", "utm_source"}, "en",
     "fast"),
    ("?hands=%C2%B2&broker=javascript:alert(1)&ice=maybe&lang=en&speed=fast&scenario=%00",
     {"hands", "broker", "ice"}, "en", "fast"),  # a scenario's name: the coach says
]


@pytest.mark.parametrize(("query", "names", "lang", "speed"), INDEX)
def test_the_game_page_names_what_it_did_not_use_and_plays_the_defaults(tab, query, names,
                                                                         lang, speed):
    forget(tab)  # the stored settings would stand in for a refused lang or speed
    page = visit(tab, "index.html" + query)
    assert named(page) == names
    text = page.inner_text(NOTICE)
    assert all(name in text for name in names - {"\ufffd"})
    if "scenario=" in query:  # no such scenario: the coach's panel names it
        assert "scenario" in page.inner_text("#coach").lower()
    assert page.evaluate("document.documentElement.lang") == ("en" if lang == "en" else
                                                               "zh-Hans")
    # the address is the match's own, the parameters it used and nothing else
    kept = parse_qs(urlsplit(page.url).query)
    assert set(kept) <= {"seed", "lang", "speed", "bots"} and kept["seed"][0].isdigit()
    assert kept.get("lang", ["zh"])[0] == lang and kept.get("speed", ["normal"])[0] == speed
    dismiss(page)
    page.reload()
    wait_ready(page, tab[1])
    assert page.locator(NOTICE).count() == 0  # once: the address no longer holds them
    tab[1].assert_clean()


@pytest.mark.parametrize(("fragment", "names"), [
    ("#room=abc123&key=", {"#key"}),
    ("#room=abc%20123&key=s3cret", {"#room"}),
    ("#key=s3cret", {"#room"}),
    ("#host=" + "h" * 65, {"#host"}),
])
def test_a_damaged_invite_is_named_and_the_page_plays_alone(tab, fragment, names):
    # no room, so no broker is asked (the watch fails on any request off the origin)
    page = visit(tab, "index.html?speed=fast" + fragment)
    assert named(page) == names
    assert "invite link" in page.inner_text(NOTICE) or "邀请链接" in page.inner_text(NOTICE)
    assert urlsplit(page.url).fragment == ""  # named once: the address no longer holds it
    assert page.locator('[data-testid="friends-seat"]').count() == 0
    page.reload()
    wait_ready(page, tab[1])
    assert page.locator(NOTICE).count() == 0
    tab[1].assert_clean()


# ------------------------------------------------------------------ learn.html and calc.html


def test_the_rules_page_names_a_bad_language_in_both_languages(tab):
    page = visit(tab, "learn.html?lang=fr&x=%00")
    assert named(page) == {"lang", "x"}
    text = page.inner_text(NOTICE)
    assert "fr" in text and "不能用" in text and "not a value it takes" in text
    assert page.evaluate("document.documentElement.dataset.lang") == "zh"
    assert page.locator("[data-example] .res").count() > 5  # the examples were computed
    assert "x=" not in page.url and "lang=" not in page.url
    dismiss(page)


def test_the_calculator_explains_its_fields_and_names_the_rest(tab):
    page = visit(tab, "calc.html?hand=123m456m789m123p9s5p&caishen=9s&piao=%C2%B2"
                      "&dealer=perhaps&win_by=teleport&fan_cap=99&colour=red&lang=en")
    assert named(page) == {"dealer", "win_by", "fan_cap", "colour"}
    result = page.locator(RESULT)
    assert (result.get_attribute("data-state"), result.get_attribute("data-error")) == \
        ("invalid", "piao")  # what is typed in a field is the question: judged, named
    assert page.input_value('[data-field="win_by"]') == "draw"
    assert "colour" not in page.url and "piao=" in page.url
    dismiss(page)
    page.fill('[data-field="piao"]', "0")  # the page goes on working
    page.wait_for_function("document.querySelector('[data-testid=calc-result]')"
                           ".dataset.state === 'win'", timeout=10000)


# ------------------------------------------------------------------ embed.html

EMBEDS = [
    # (query, the parameter the frame's error names or None, what the notice names)
    ("mode=%C2%B2", "mode", set()),
    ("mode=play&seed=%C2%B2", "seed", set()),
    ("mode=play&seed=42&colour=red&lang=fr", None, {"colour", "lang"}),
    ("mode=scenario&name=%00&seed=1", "name", {"seed"}),
    ("mode=scenario&name=baotou&name=dadiao&lang=en&x=1", None, {"x"}),
    ("mode=hand&hand=123m456m789m123p9s5p&caishen=9s&fan_cap=%D9%A3&x=1", "fan_cap", {"x"}),
    ("mode=hand&hand=" + "1m" * 2000 + "&caishen=9s", "hand", {"hand"}),
    ("mode=hand&hand=123m456m789m123p9s5p&caishen=9s&utm_source=blog&lang=en", None,
     {"utm_source"}),
    ("mode=calc&dealer=perhaps&base_flowers=7&colour=red&hand=%EF%BC%91m", None,
     {"dealer", "base_flowers", "colour"}),
]


@pytest.mark.parametrize(("query", "error", "names"), EMBEDS)
def test_every_embed_mode_names_a_bad_parameter(tab, query, error, names):
    page = visit(tab, "embed.html?" + query)
    assert named(page) == names
    if error is None:
        assert page.locator(EMBED_ERROR).count() == 0
        assert page.locator(f'{RESULT}, [data-testid="embed-card"]').count() >= 1
    else:
        assert page.locator(EMBED_ERROR).first.get_attribute("data-field") == error
    if names:
        dismiss(page)


# ------------------------------------------------------------------ the calculator embed's height


def test_the_calculator_embed_fits_900_px_in_an_article_column(tab, artifacts):
    page, w, site_url = tab
    hands = {
        "waits": "hand=123m456m789p234s9s&caishen=9s",  # examples/tutorial.html's
        "win": "hand=123m456m789p234s9s5p&caishen=9s",
        "kong": "hand=456m789m123p5p9s&win_tile=5p&caishen=9s&melds=angang+2222s&win_by=kong",
    }
    heights: dict[str, dict[str, int]] = {}
    cases = [(name, "en") for name in hands] + [("waits", "zh")]  # English is the longer
    for width in (560, 680, 390):  # the narrowest column it fits, the tutorial's, a phone
        page.set_viewport_size({"width": width, "height": 900})
        for name, lang in cases:
            visit(tab, f"embed.html?mode=calc&{hands[name]}&lang={lang}")
            page.wait_for_timeout(150)
            height = page.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
            heights.setdefault(str(width), {})[f"{name}-{lang}"] = height
            # docs/reference/embedding.md's figures: 900 in a column 560 px or wider,
            # about 1,900 on a phone (tap targets of 24 px at least)
            assert height <= (900 if width >= 560 else 1900), (width, name, lang, height)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size(DESKTOP)
    (artifacts / "embed-calc-heights.json").write_text(json.dumps(heights, indent=1))
    w.assert_clean()


# ------------------------------------------------------------------ localStorage

OLD_PROFILE = json.dumps({"v": 0, "points": 10})
WORST_STORED = [
    # (settings, profile, save): every key unreadable at once
    ("[" * 20000, "garbage", "x" * 1_000_000),
    ('{"v": 1, "lang": "fr", "bots": "hard", "rules": {"base_flowers": 7}}', OLD_PROFILE,
     json.dumps({"format": "sxmj-save", "version": 0, "record": {}, "counted": 0})),
    ('"settings"', json.dumps({"v": 1, "points": 5, "best": {"patterns": []}}),
     '{"format": "sxmj-save", "version": 1, "record": {"hands": ' + "[" * 5000 + "}"),
]


@pytest.mark.parametrize(("settings", "profile", "save"), WORST_STORED)
def test_unreadable_stored_data_is_reset_once_with_one_notice(tab, settings, profile, save):
    page, w, site_url = tab
    forget(tab)
    for key, value in ((saved.KEY_SETTINGS, settings), (saved.KEY_PROFILE, profile),
                       (saved.KEY_SAVE, save)):
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
    page = visit(tab, "index.html?speed=fast")
    notice = page.locator('[data-testid="notice"]')
    assert notice.count() == 1 and notice.is_visible()
    kinds = notice.get_attribute("data-kind").split()
    assert {k.split(":")[0] for k in kinds} == {"save", "profile", "settings"}, kinds
    stored = page.evaluate("({s: localStorage.getItem('sxmj.settings'), "
                           "p: localStorage.getItem('sxmj.profile'), "
                           "g: localStorage.getItem('sxmj.save')})")
    assert saved.load_settings(stored["s"])[1] is None  # reset: readable again
    assert saved.load_profile(stored["p"]) == (saved.Profile(), None)
    assert stored["g"] is None or saved.load_save(stored["g"]).problem is None
    page.click('[data-testid="notice"] [data-ui="notice-ok"]')
    page.reload()
    wait_ready(page, w)
    assert page.locator("#notice").is_hidden()  # once
    assert page.locator('[data-testid="notice"]:visible').count() == 0
    w.assert_clean()


def _room(**changes) -> str:
    seat = {"kind": "bot", "name": "B", "token": ""}
    room = {"id": "r00m", "secret": "s", "level": "normal", "timer": 20, "started": False,
            "seats": [{"kind": "host", "name": "H", "token": ""}] + [seat] * 3}
    return json.dumps({**room, **changes})


@pytest.mark.parametrize("stored", [
    '{"id": "r00m", "seats": ' + "[" * 20000,      # json's own recursion limit
    _room(seats=[{"kind": "bot", "name": "B", "token": ""}] * 5),   # a fifth chair
    _room(level="genius"), _room(timer="soon"), _room(seats=[1, 2, 3, 4]),
])
def test_a_hosts_unreadable_stored_room_starts_the_table(tab, stored):
    # a host's reload (#host=<id>) reads its room back from localStorage: a bad one, whoever
    # wrote it, leaves the room behind and starts the table, never a Python error
    page, w, site_url = tab
    forget(tab)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["sxmj.room", stored])
    page = visit(tab, "index.html?speed=fast#host=r00m")
    assert page.locator('[data-testid="my-hand"] button[data-tile]').count() >= 13
    assert named(page) == {"#host"}  # and says the room is not here any more
