"""The layout audit (issue 27): every screen a player meets, at phone sizes in portrait and
landscape and on a desktop, in 中文 and English, judged as a person's eye would judge it.

Where: 360×740, 390×844, 430×932 and 844×390 with touch (``has_touch``, ``is_mobile``), and
1280×800 with a mouse; each language in both.

Which screens: the welcome; your turn with a raised tile; a claim prompt; every tab of the
settings sheet; the replay viewer (at its first step and further on); the friends lobby (the
host's, while it connects: the broker's socket is answered by the test and says nothing); a
win's pause; the match summary; the result panel with the reveal, its review done, and
view-table; learn.html, calc.html and each embed mode opened on its own.

What fails (``e2e/layout_audit.js``, with axe-core's colour-contrast rule beside it:
``e2e/layout.py``): text or a tile drawn over another; text covered by a box, or showing
through a bar; text clipped by its own box (an ellipsis only on player names) or spilling out
of it; a control outside the viewport that no scrolling reaches, or covered where a tap lands;
any sideways scroll; a tap target under 24 × 24 CSS px (the hand's own tiles excepted);
contrast under WCAG AA; a set of tiles not drawn in one row.

Cost: one browser context per language and kind of device (touch, mouse), each screen
reached once and judged at every size of the device by resizing the viewport (a boot costs
seconds; a look, under one). Screenshots of every screen at every size go to
``e2e/artifacts/layout/<screen>-<W>x<H>-<lang>.png``; what each look found and cost to
``e2e/artifacts/layout-audit.json``.
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass, field

import pytest
from harness import ROOT, Watch, new_context, wait_ready, watch
from layout import problems
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

sys.path.insert(0, str(ROOT))

from test_table_feel import _bots, decision  # noqa: E402  (the feel tests' states)

from sxmj.match import Match  # noqa: E402
from sxmj.record import to_record  # noqa: E402
from sxmj.rules import Options  # noqa: E402
from sxmj.ui.table.storage import saved  # noqa: E402

PHONES = [(360, 740), (390, 844), (430, 932), (844, 390)]
DESKTOP = [(1280, 800)]
DEVICES = {"touch": PHONES, "mouse": DESKTOP}
LANGS = ("zh", "en")
HAND = '[data-testid="my-hand"] button[data-tile]'
RESULT = '[data-testid="hand-result"]'
CALL = '[data-testid="win-call"]'
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")
# The win's pause lasts 2 s at the slow pace: long enough for a player, not for a look at
# four sizes. The page's timers of about 2 s are held while window.__hold is set.
HOLD = """(() => {
  const setTimeout0 = window.setTimeout;
  window.__hold = false;
  window.__held = [];
  window.setTimeout = function (fn, ms, ...args) {
    if (window.__hold && ms >= 1900 && ms <= 2100) { window.__held.push([fn, args]); return 0; }
    return setTimeout0.call(window, fn, ms, ...args);
  };
  window.__release = () => {
    window.__hold = false;
    for (const [fn, args] of window.__held.splice(0)) setTimeout0.call(window, fn, 0, ...args);
  };
})();"""
BROKER = "__broker__"  # a path the test answers as a PeerServer that never says a word
EMBEDS = {
    "hand": "mode=hand&hand=123m456m789m123p9s5p&caishen=9s",
    "calc": "mode=calc&hand=123m456m789m&caishen=9s",
    "scenario": "mode=scenario&name=baotou",
    "play": "mode=play&seed=7",
}
REPORT: list[dict] = []


# ---------- states from CPython (the page's own bots, saved before it boots) ----------


def a_finished_hand(seed: int) -> dict:
    """The record of ``seed``'s first hand played to its end by the bots."""
    match = Match(seed=seed)
    bots = _bots(seed)
    while not match.game.over:
        g = match.game
        seat = 0 if 0 in g.to_move() else g.to_move()[0]
        match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
    return to_record(match)


def saved_match(match: Match) -> str:
    return saved.save_text(match, counted=len(match.results))


TURN = (1, 0)  # the player's own turn, discards only
CLAIM = (4, 5)  # 碰 and 杠 on offer (and a ghost: what can't be done says why)
HU = (8, 20)  # 胡 on offer: a 财神 standing in, flowers, the formula
QUICK_HU = (92, 2)  # 胡 on the third decision: a review of a few decisions only


# ---------- the device: one context per language and kind, resized for each size ----------


@dataclass
class Device:
    context: BrowserContext
    lang: str
    kind: str
    sizes: list[tuple[int, int]]
    site_url: str
    page: Page = field(init=False)
    watches: list[Watch] = field(default_factory=list)
    found: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.renew()

    def renew(self, crashed: bool = False) -> None:
        """A new page in the context: at the start, and after a renderer crash (Chromium's
        "Target crashed", about one boot in a few hundred on a busy 2-core machine; what the
        crashed page's watch saw as it died is not the site's doing)."""
        if crashed:
            self.watches.pop()
        self.page = self.context.new_page()
        self.page.route_web_socket(re.compile(f".*{BROKER}.*"), lambda ws: None)  # silent
        self.watches.append(watch(self.page, self.site_url))

    @property
    def touch(self) -> bool:
        return self.kind == "touch"

    def load(self, query: str, storage: dict[str, str] | None = None) -> Page:
        """Open ``query`` (in this language) with exactly ``storage`` in localStorage."""
        for attempt in (1, 2):
            page = self.page
            try:
                page.set_viewport_size(dict(zip(("width", "height"), self.sizes[0],
                                                strict=True)))
                page.goto(self.site_url + "manifest.webmanifest")
                page.evaluate("localStorage.clear()")
                for key, value in (storage or {}).items():
                    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
                sep = "&" if "?" in query else "?"
                page.goto(self.site_url + query + f"{sep}lang={self.lang}")
                wait_ready(page, self.watches[-1])
                return page
            except PlaywrightError as e:
                if attempt == 2 or "crashed" not in str(e):
                    raise
                self.renew(crashed=True)  # the next attempt on a page of its own
        raise AssertionError("unreachable")

    def table(self, state: tuple, query: str = "speed=fast", **more: str) -> Page:
        """The table at a saved state (and settle: the page waits for the player)."""
        seed, k, *options = state
        match = decision(seed, k, *options)
        storage = {saved.KEY_SAVE: saved_match(match), **more}
        page = self.load(f"?seed={seed}&{query}", storage)
        page.wait_for_function(WAITING, timeout=30000)
        return page

    def press(self, selector: str) -> None:
        """A tap on a touch screen, a click with a mouse."""
        loc = self.page.locator(selector).first
        loc.tap() if self.touch else loc.click()

    def look(self, screen: str, scope: str = "body", before=None) -> None:
        """Judge the screen at every size of this device; screenshots to the artifacts."""
        page = self.page
        for w, h in self.sizes:
            page.set_viewport_size({"width": w, "height": h})
            if before is not None:
                before()
            start = time.monotonic()
            found = problems(page, scope)
            seconds = time.monotonic() - start
            name = f"{screen}-{w}x{h}-{self.lang}"
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
            REPORT.append({"screen": screen, "size": f"{w}x{h}", "lang": self.lang,
                           "problems": found, "seconds": round(seconds, 2)})
            self.found += [f"{name}: {p}" for p in found]

    def check(self) -> None:
        found, self.found = self.found, []
        assert not found, f"{len(found)} layout problems:\n  " + "\n  ".join(found)


ARTIFACTS = ROOT / "e2e" / "artifacts" / "layout"


@pytest.fixture(scope="module", params=[(lang, kind) for kind in DEVICES for lang in LANGS],
                ids=lambda p: f"{p[1]}-{p[0]}")
def dev(request, browser, browser_context_args, site_url, artifacts):
    lang, kind = request.param
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    touch = kind == "touch"
    w, h = DEVICES[kind][0]
    context = new_context(browser, site_url, **{**browser_context_args,
                                                "viewport": {"width": w, "height": h},
                                                "has_touch": touch, "is_mobile": touch})
    context.add_init_script(HOLD)
    device = Device(context, lang, kind, DEVICES[kind], site_url)
    yield device
    problems_ = [p for w_ in device.watches for p in w_.problems()]
    context.close()
    (artifacts / "layout-audit.json").write_text(json.dumps(REPORT, indent=1, ensure_ascii=False),
                                                 encoding="utf-8")
    assert not problems_, "the audited pages misbehaved:\n  " + "\n  ".join(problems_)


# ---------- the table ----------


def test_welcome(dev):
    page = dev.load("")
    page.locator('[data-testid="welcome"]').wait_for(state="visible")
    dev.look("welcome", "#overlay")
    dev.check()


def test_your_turn_with_a_raised_tile(dev):
    settings = {} if dev.touch else {saved.KEY_SETTINGS: saved.Settings(tap="two").to_json()}
    page = dev.table(TURN, **settings)
    dev.press(f"{HAND}:not([disabled]) >> nth=2")
    assert page.locator(f'{HAND}[data-raised="1"]').count() == 1
    dev.look("turn-raised")
    dev.check()


def test_a_claim_prompt_and_every_tab_of_the_sheet(dev):
    page = dev.table(CLAIM)
    assert page.locator('#actions [data-action="peng"]').count() == 1
    dev.look("claim")
    dev.press('#menu [data-ui="settings"]')
    page.wait_for_function("() => document.getElementById('sheet').open")
    tabs = page.locator("#sheet [data-tab]").evaluate_all("els => els.map(e => e.dataset.tab)")
    assert len(tabs) == 5, tabs
    for tab in tabs:
        dev.press(f'#sheet [data-tab="{tab}"]')
        page.wait_for_selector(f'#sheet [data-open-tab="{tab}"]')
        dev.look(f"sheet-{tab}", "#sheet")
    page.keyboard.press("Escape")
    dev.check()


def test_the_replay_viewer(dev, tmp_path):
    page = dev.table(TURN)
    record = tmp_path / "hand.json"
    record.write_text(json.dumps(a_finished_hand(21)), encoding="utf-8")
    dev.press('#menu [data-ui="settings"]')
    dev.press('#sheet [data-tab="records"]')
    page.set_input_files('[data-testid="import"]', str(record))
    viewer = page.locator('[data-testid="viewer"]')
    viewer.wait_for()
    dev.look("viewer-start")
    steps = int(viewer.get_attribute("data-steps"))
    for _ in range(min(30, steps)):  # further on: rivers, melds, a claim or two
        page.locator('[data-testid="viewer"] [data-ui="step-fwd"]').click()
    dev.look("viewer-later")
    dev.check()


def test_the_friends_lobby(dev):
    broker = f"{dev.site_url}{BROKER}/"
    page = dev.table(TURN, f"speed=fast&ice=none&broker={broker}")
    menu = page.locator('#menu [data-ui="menu-more"]')
    if menu.count() and menu.is_visible():
        dev.press('#menu [data-ui="menu-more"]')
    dev.press('[data-testid="friends-create"]')
    page.wait_for_selector('[data-testid="friends-lobby"] [data-testid="friends-link"]')
    dev.look("friends-lobby", "#overlay")
    dev.press('[data-ui="friends-cancel"]')
    page.wait_for_selector('[data-testid="friends-lobby"]', state="detached")
    dev.check()


def test_a_wins_pause_and_the_match_summary(dev):
    page = dev.table((*HU, Options(match_hands=1)), "speed=slow&hands=1")
    page.evaluate("window.__hold = true")
    dev.press('#actions [data-action="hu"]')
    page.wait_for_selector(CALL)
    dev.look("win-pause")
    assert page.locator(CALL).count() == 1, "the pause ended while it was looked at"
    page.evaluate("window.__release()")
    page.wait_for_selector('[data-testid="match-summary"]', timeout=15000)
    dev.look("match-summary", "#result")
    dev.check()


def test_the_result_its_reveal_and_view_table(dev):
    page = dev.table(HU)
    dev.press('#actions [data-action="hu"]')
    page.wait_for_selector(RESULT, timeout=15000)
    dev.look("result", "#result")

    def reveal() -> None:
        page.locator('[data-testid="hand-reveal"]').scroll_into_view_if_needed()

    dev.look("result-reveal", "#result", before=reveal)
    dev.press(f'{RESULT} [data-ui="view-table"]')
    page.wait_for_selector('[data-testid="peek"]')
    dev.look("view-table")
    dev.check()


def test_the_result_with_its_review(dev):
    page = dev.table(QUICK_HU)
    dev.press('#actions [data-action="hu"]')
    page.wait_for_selector(RESULT, timeout=15000)
    dev.press('[data-testid="review-start"]')
    page.wait_for_function(
        "() => ['done', 'failed'].includes(document.querySelector('[data-testid=review]')"
        ".dataset.state)", timeout=120000)
    assert page.get_attribute('[data-testid="review"]', "data-state") == "done"

    def review() -> None:
        page.locator('[data-testid="review"]').scroll_into_view_if_needed()

    dev.look("review", "#result", before=review)
    dev.check()


# ---------- learn, calc and the embeds ----------


def test_learn(dev):
    dev.load("learn.html")
    dev.look("learn")
    dev.check()


@pytest.mark.parametrize("name,query", [
    ("calc-win", "hand=123m456m789m123p9s9s&caishen=9s"),
    ("calc-waits", "hand=123m456m789m12p9s5p&caishen=9s"),  # 13 tiles: the waits
])
def test_calc(dev, name, query):
    dev.load(f"calc.html?{query}")
    dev.look(name)
    dev.check()


@pytest.mark.parametrize("mode", EMBEDS)
def test_embed(dev, mode):
    dev.load(f"embed.html?{EMBEDS[mode]}")
    dev.look(f"embed-{mode}")
    dev.check()
