"""Sound and turn cues (issue 18) in headless Chromium, through the test hook
``window.sxmjAudio.log`` (one ``{"cue", "t"}`` per cue fired), never by listening.

- A hand played by clicks (``?seed=&speed=fast``): the log is exactly the cues the actions
  mean (the record read back from the page's save, replayed under CPython through
  :mod:`sxmj.ui.table.sound`), and agrees with the actions counted on their own; the calls are
  spoken (a stand-in ``speechSynthesis`` with one voice records what is said) in the table's
  language, one utterance per ``speech:`` cue.
- No audio before a user gesture: while the bots play on a page nobody touched, their cues
  fire (the log has them) but no AudioContext is made and nothing is played, spoken or
  vibrated; the first click makes the context.
- Mute (the sheet's switch) silences everything: a whole hand logs and plays nothing; it is
  kept over a reload; the key M brings the sound back.
- Hidden (emulated: ``document.visibilityState`` and ``hidden`` overridden, then
  ``visibilitychange``): only the turn cue fires; the title says 「轮到你了」 ("Your turn")
  until the page is visible again.
"""

from __future__ import annotations

import json
import random
import sys

import pytest
from harness import DESKTOP, ROOT, wait_ready, watch
from playwright.sync_api import Page

sys.path.insert(0, str(ROOT))

from sxmj.match import Match  # noqa: E402
from sxmj.rules import Options  # noqa: E402
from sxmj.ui import i18n  # noqa: E402
from sxmj.ui.table.sound import SoundSettings, plan, starts_waiting, waits_for_player  # noqa: E402

HAND = '[data-testid="my-hand"] button[data-tile]'
ENABLED = HAND + ":not([disabled])"
RESULT = '[data-testid="hand-result"]'
CLAIMS = ("chi", "peng", "gang")
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")
PAGE_TITLE = "绍兴麻将 Shaoxing Mahjong"
PLAYER_DEALS = 8  # seed 8: seat 0 deals the first hand (nothing moves before a click)
BOT_DEALS = 1  # seed 1: a bot deals, so the bots play before anyone touches the page

# Counts what would make or play sound; a stand-in speechSynthesis with one voice of each
# language records what is said; visibility can be emulated.
PROBES = """
(() => {
  const probe = window.sxmjProbe = {contexts: 0, vibrations: 0, spoken: []};
  const Real = window.AudioContext;
  if (Real) window.AudioContext = class extends Real {
    constructor(...args) { super(...args); probe.contexts++; }
  };
  const vibrate = navigator.vibrate ? navigator.vibrate.bind(navigator) : null;
  navigator.vibrate = (pattern) => {
    probe.vibrations++;
    return vibrate ? vibrate(pattern) : false;
  };
  const voices = [{lang: "zh-CN", name: "stand-in 普通话"},
                  {lang: "en-US", name: "stand-in English"}];
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
  Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
    speaking: false, pending: false, getVoices: () => voices, cancel: () => {},
    speak: (u) => probe.spoken.push([u.text, u.lang]),
  }});
  window.sxmjSetHidden = (hidden) => {
    Object.defineProperty(document, "visibilityState", {configurable: true,
      get: () => hidden ? "hidden" : "visible"});
    Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""


def open_table(fresh, site_url: str, query: str):
    page = fresh(viewport=DESKTOP)
    w = watch(page, site_url)
    page.add_init_script(PROBES)
    page.goto(site_url + query)
    wait_ready(page, w)
    return page, w


def wait_for_player(page: Page, w, timeout: float = 30000) -> None:
    page.wait_for_function(WAITING, timeout=timeout)
    assert page.locator(".py-error").count() == 0, page.inner_text(".py-error")
    w.assert_clean()


def log(page: Page) -> list[str]:
    return page.evaluate("() => window.sxmjAudio.log.map(e => e.cue)")


def probe(page: Page) -> dict:
    return page.evaluate("() => window.sxmjProbe")


def play_hand(page: Page, w, rng: random.Random) -> None:
    """Click through one hand (any discard, claims at random, 胡 when offered)."""
    for _ in range(400):
        wait_for_player(page, w)
        if page.locator(RESULT).count():
            return
        buttons = page.locator("#actions button[data-action]")
        names = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        choice = None
        if "hu" in names:
            choice = "hu"
        elif any(n in CLAIMS for n in names) and rng.random() < 0.6:
            choice = rng.choice([n for n in names if n in CLAIMS])
        elif "pass" in names and page.locator(ENABLED).count() == 0:
            choice = "pass"
        if choice is not None:
            page.locator(f'#actions button[data-action="{choice}"]').first.click()
            continue
        tiles = page.locator(ENABLED)
        tiles.nth(rng.randrange(tiles.count())).click()
    pytest.fail("no result after 400 clicks")


def saved_record(page: Page) -> dict:
    return json.loads(page.evaluate("() => localStorage.getItem('sxmj.save')"))["record"]


def expected_cues(record: dict, lang: str, heard_from_deal: int) -> list:
    """The cues the record's actions mean, as the page fires them (visible, default
    settings), from hand ``heard_from_deal``'s deal on (a cue fired before the first gesture
    is logged too: only the sound waits for the gesture)."""
    match = Match(seed=record["seed"], options=Options.from_dict(record["options"]))
    out = []
    for h, actions in enumerate(record["hands"]):
        if h:
            match.next_hand()
        g = match.game
        if h >= heard_from_deal:
            out += plan(g.deal_events, SoundSettings(), lang=lang, hidden=False,
                        prompted=waits_for_player(g)).cues
        for action in actions:
            waited = waits_for_player(g)
            events = match.apply(action)
            out += plan(events, SoundSettings(), lang=lang, hidden=False,
                        prompted=starts_waiting(waited, g)).cues
    return out


# ---------- a scripted hand, checked against its actions ----------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_cues_of_a_hand_are_its_actions(fresh, site_url, artifacts, lang):
    page, w = open_table(fresh, site_url, f"?seed={PLAYER_DEALS}&speed=fast&lang={lang}")
    rng = random.Random(18)
    play_hand(page, w, rng)
    page.locator(f'{RESULT} button[data-action="next-hand"]').click()
    wait_for_player(page, w)
    play_hand(page, w, rng)
    record = saved_record(page)
    entries = page.evaluate("() => window.sxmjAudio.log")
    names = [e["cue"] for e in entries]
    (artifacts / f"sound-log-{lang}.json").write_text(json.dumps(entries, indent=0) + "\n")

    cues = expected_cues(record, lang, heard_from_deal=0)
    assert names == [c.name for c in cues]
    assert [e["t"] for e in entries] == sorted(e["t"] for e in entries)

    # the same, counted from the actions alone
    actions = [a.split() for hand in record["hands"] for a in hand]
    kinds = [a[1] for a in actions]
    assert names.count("discard") == kinds.count("discard")
    assert names.count("claim") == kinds.count("chi") + kinds.count("peng")
    assert names.count("speech:peng") == kinds.count("peng")
    assert names.count("speech:chi") == kinds.count("chi")
    assert names.count("kong") <= kinds.count("angang") + kinds.count("jiagang") + \
        kinds.count("minggang")
    assert names.count("win") == sum(r["winner"] is not None for r in record["results"])
    assert names.count("drawn-hand") == sum(r["winner"] is None for r in record["results"])
    assert "tick" not in names  # the table has no turn timer
    own = [i for i, a in enumerate(actions) if a[0] == "0"]
    assert own and names.count("turn") >= 1

    # each call heard after the first gesture (the player deals: their first click) spoken
    # once, in the table's language (the stand-in voice records it); the first deal's cues
    # fired before it, unheard
    heard = expected_cues(record, lang, heard_from_deal=1)
    said = [(i18n.tr(lang, "speak_" + c.name.split(":")[1]), "zh-CN" if lang == "zh" else "en-US")
            for c in heard if c.name.startswith("speech:")]
    assert [tuple(s) for s in probe(page)["spoken"]] == said
    assert names.count("speech:gang") == sum(kinds.count(k) for k in
                                             ("angang", "jiagang", "minggang"))
    assert page.evaluate("() => window.sxmjAudio.played") == len(heard)  # each one made
    w.assert_clean()


# ---------- no audio before a user gesture ----------


def test_no_audio_before_a_user_gesture(fresh, site_url):
    page, w = open_table(fresh, site_url, f"?seed={BOT_DEALS}&speed=fast")
    wait_for_player(page, w)  # the bots have dealt, drawn and discarded meanwhile
    assert len(saved_record(page)["hands"][0]) > 0
    state = page.evaluate("() => ({context: sxmjAudio.context,"
                          " unlocked: sxmjAudio.unlocked, played: sxmjAudio.played})")
    assert state == {"context": None, "unlocked": False, "played": 0}
    assert probe(page) == {"contexts": 0, "vibrations": 0, "spoken": []}
    # the cues fired all the same (the log is every cue fired unless muted): the deal's
    # draws and the bots' discards, and the turn cue of the table now waiting
    fired = log(page)
    assert "discard" in fired and fired[-1] == "turn", fired

    page.locator('button[data-ui="settings"]').click()  # the first gesture
    assert probe(page)["contexts"] == 1
    assert page.evaluate("() => sxmjAudio.unlocked && !!sxmjAudio.context")
    page.keyboard.press("Escape")
    wait_for_player(page, w)
    if page.locator(ENABLED).count():
        page.locator(ENABLED).first.click()
    else:
        page.locator('#actions button[data-action="pass"]').click()
    page.wait_for_function("() => sxmjAudio.log.length > 0", timeout=10000)
    assert probe(page)["contexts"] == 1  # one context for the page's life
    w.assert_clean()


# ---------- mute ----------


def test_mute_silences_everything_and_is_kept(fresh, site_url):
    page, w = open_table(fresh, site_url, f"?seed={PLAYER_DEALS}&speed=fast")
    page.locator('button[data-ui="settings"]').click()
    box = page.locator('#sheet input[data-setting="sound"]')
    assert box.is_checked()
    box.uncheck()
    page.keyboard.press("Escape")
    stored = json.loads(page.evaluate("() => localStorage.getItem('sxmj.settings')"))
    assert stored["sound"]["on"] is False
    page.evaluate("() => { sxmjAudio.log.length = 0; }")
    played = page.evaluate("() => sxmjAudio.played")
    play_hand(page, w, random.Random(3))
    assert log(page) == []
    assert page.evaluate("() => sxmjAudio.played") == played
    assert probe(page)["spoken"] == []

    page.reload()  # kept with the other settings
    wait_ready(page, w)
    page.locator(f'{RESULT} button[data-action="next-hand"]').click()
    wait_for_player(page, w)
    assert log(page) == []  # the deal and the bots' moves: silent
    page.locator('button[data-ui="settings"]').click()
    assert not page.locator('#sheet input[data-setting="sound"]').is_checked()
    page.keyboard.press("Escape")

    page.keyboard.press("m")  # sound back on, and the table says so
    assert page.inner_text('[data-testid="why"]') == i18n.tr("zh", "sound_now_on")
    if page.locator(ENABLED).count():
        page.locator(ENABLED).first.click()
    else:
        page.locator('#actions button[data-action="pass"]').click()
    page.wait_for_function("() => sxmjAudio.log.length > 0", timeout=10000)
    w.assert_clean()


# ---------- the hidden page: only the turn cue, and the title ----------


@pytest.mark.parametrize(("lang", "title"), [("zh", "轮到你了"), ("en", "Your turn")])
def test_title_cue_while_hidden_goes_when_visible(fresh, site_url, lang, title):
    page, w = open_table(fresh, site_url, f"?seed={PLAYER_DEALS}&speed=slow&lang={lang}")
    assert page.title() == PAGE_TITLE
    page.evaluate("() => { sxmjAudio.log.length = 0; }")  # the deal's cues, fired unheard
    page.evaluate("() => sxmjSetHidden(true)")  # another tab in front, then (emulated) ...
    page.locator(ENABLED).first.click()  # ... the player's discard, the first gesture
    assert probe(page)["contexts"] == 1
    page.wait_for_function("() => document.body.dataset.sxmjWaiting !== 'bots'"
                           " || !!document.querySelector('.py-error')", timeout=30000)
    wait_for_player(page, w)
    assert page.locator(RESULT).count() == 0, "the hand ended before the player's turn"
    assert log(page) == ["turn"]  # the discard, the bots' draws and discards: unheard
    assert page.title() == title
    assert probe(page)["vibrations"] == 1

    page.evaluate("() => sxmjSetHidden(false)")
    assert page.title() == PAGE_TITLE
    w.assert_clean()
