"""Player comforts on the table (issue 7), in the browser, at 1280×800.

Game states come from CPython: a match advanced by the same bots as the page's (the player
played by a normal bot), saved with :mod:`sxmj.ui.table.storage.saved` into ``localStorage``
before the page boots, so the page resumes exactly there. One browser context and page serve
the whole module (a boot costs seconds); each test loads the page with the storage it needs.

- Assist: on for a new player; waits with live counts, distance, the suggestion with the
  bot's reason — the same as CPython's; the switch is remembered; A toggles it.
- Disabled things explain themselves: a ghost 胡 (无放铳) and 碰 (财神) and a disabled tile,
  on hover (tooltip), on tap (#why) and by key.
- Keyboard: ←/→ choose a tile, Enter discards it, X passes, ? opens the keys.
- Screen readers: tiles named in both languages, prompts in the live region, focus visible.
- Settings kept in localStorage; a changed rule shows on the table and applies from the next
  match.
- Save and resume mid-hand; corrupt, older and edited saves give a notice and a fresh,
  playable game with the profile kept.
- Profile: a win adds points, hands, wins and the best hand, and can raise the rank.
- Records: export (a download), import and replay step by step, copy the seed link.
"""

from __future__ import annotations

import json
import sys

import pytest
from harness import DESKTOP, ROOT, wait_ready, watch, watched_page
from playwright.sync_api import Page

sys.path.insert(0, str(ROOT))

from sxmj.bots import Bot  # noqa: E402
from sxmj.match import Match  # noqa: E402
from sxmj.record import replay, to_record  # noqa: E402
from sxmj.tiles import code, tile_name  # noqa: E402
from sxmj.ui import i18n
from sxmj.ui.table.assist import assist_info, ghosts  # noqa: E402
from sxmj.ui.table.storage import saved

HAND = '[data-testid="my-hand"] button[data-tile]'
ENABLED = HAND + ":not([disabled])"
RESULT = '[data-testid="hand-result"]'
ASSIST = '[data-testid="assist"]'
WHY = '[data-testid="why"]'
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")


# ---------- states from CPython ----------


def _bots(seed: int) -> list[Bot]:
    return [Bot("normal", 100)] + [Bot("normal", seed * 4 + s) for s in (1, 2, 3)]


def advance(seed: int, n: int) -> Match:
    """The match of ``seed`` after ``n`` actions (the player played by a normal bot)."""
    match = Match(seed=seed)
    bots = _bots(seed)
    while len(match.game.actions) < n and not match.game.over:
        g = match.game
        seat = 0 if 0 in g.to_move() else g.to_move()[0]
        match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
    return match


def decision(seed: int, k: int) -> Match:
    """The match of ``seed`` at the player's ``k``-th decision (0-based)."""
    match = Match(seed=seed)
    bots = _bots(seed)
    seen = 0
    while True:
        g = match.game
        assert not g.over
        seat = 0 if 0 in g.to_move() else g.to_move()[0]
        if seat == 0:
            if seen == k:
                return match
            seen += 1
        match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)


def saved_match(match: Match) -> str:
    return saved.save_text(match, counted=len(match.results))


# ---------- the page ----------


@pytest.fixture(scope="module")
def table(browser, browser_context_args, site_url):
    with watched_page(browser, {**browser_context_args, "viewport": DESKTOP}, site_url,
                      permissions=("clipboard-read", "clipboard-write")) as (page, w):
        yield page, w, site_url


def load(table, query: str, storage: dict[str, str] | None = None, clear: bool = True,
         settle_: bool = True) -> Page:
    """Open the table at ``query`` with exactly ``storage`` in localStorage (set while no
    game runs: from a plain file of the same origin)."""
    page, w, site_url = table
    page.goto(site_url + "manifest.webmanifest")
    if clear:
        page.evaluate("localStorage.clear()")
    for key, value in (storage or {}).items():
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
    page.goto(site_url + query)
    wait_ready(page, w)
    if settle_:
        settle(table)
    return page


def settle(table) -> None:
    page, w, _ = table
    page.wait_for_function(WAITING, timeout=30000)
    assert page.locator(".py-error").count() == 0
    assert page.locator("#game-error").is_hidden()
    w.assert_clean()


def shoot(page: Page, path) -> None:
    page.wait_for_timeout(450)  # let the 150–250 ms animations end
    page.screenshot(path=path)


def hand_codes(page: Page) -> list[str]:
    return page.locator(HAND).evaluate_all("els => els.map(e => e.dataset.tile)")


def data(page: Page, selector: str) -> dict:
    return page.locator(selector).evaluate("e => ({...e.dataset})")


def river(page: Page, pos: str) -> list[str]:
    return page.locator(f"#river-{pos} img").evaluate_all(
        "els => els.map(e => e.getAttribute('src').split('/').pop())")


# ---------- assist ----------


def test_assist_is_on_for_a_new_player_and_matches_the_core(table, artifacts):
    match = advance(3, 22)  # a claim window; the player is ready (found by search)
    game = match.game
    assert 0 in game.to_move()
    expected = assist_info(game, Bot("hard"), "zh")
    assert expected.distance == 0 and expected.waits and not expected.any_tile
    page = load(table, "?seed=3&speed=fast", {saved.KEY_SAVE: saved_match(match)})
    got = data(page, ASSIST)
    assert got["on"] == "1"  # nothing stored: on by default
    assert got["state"] == "claim"
    assert got["distance"] == "0"
    assert got["waits"] == " ".join(code(w.tile) for w in expected.waits)
    assert got["live"] == str(expected.live)
    assert got["suggest"] == str(expected.suggest)
    text = page.inner_text(ASSIST)
    assert expected.reason in text and "听牌" in text
    lives = page.locator(f"{ASSIST} .assist__live").all_inner_texts()
    assert lives == [str(w.live) for w in expected.waits]
    if expected.suggest.kind == "pass":
        assert page.locator('#actions [data-action="pass"]').get_attribute("data-suggested")
    shoot(page, artifacts / "comforts-assist-1280x800.png")
    # the switch, remembered across a reload; A toggles it back
    page.click(f'{ASSIST} [data-ui="assist"]')
    assert data(page, ASSIST)["on"] == "0"
    assert json.loads(page.evaluate("localStorage.getItem('sxmj.settings')"))["assist"] is False
    page.reload()
    wait_ready(page, table[1])
    assert data(page, ASSIST)["on"] == "0"
    assert page.locator('[data-suggested]').count() == 0
    page.keyboard.press("a")
    assert data(page, ASSIST)["on"] == "1"
    settle(table)


# ---------- disabled actions explain themselves ----------


def press_at(page: Page, selector: str) -> None:
    """A real click at the element's centre (Playwright's click() refuses disabled ones)."""
    box = page.locator(selector).first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _why_on_hover(page: Page, selector: str) -> str:
    page.hover(selector)
    page.wait_for_timeout(900)  # a deliberate hover: the reason shows after 600 ms
    return page.locator(selector).evaluate(
        "e => { const s = getComputedStyle(e, '::after');"
        " return s.opacity === '1' ? s.content : '' }")


def test_disabled_actions_explain_themselves_on_hover_tap_and_key(table):
    match = advance(8, 66)  # someone discards the tile the player waits on
    obs, legal = match.game.observation(0), match.game.legal_actions(0)
    hu = next(g for g in ghosts(obs, legal, "zh") if g.action == "hu")
    page = load(table, "?seed=8&speed=fast", {saved.KEY_SAVE: saved_match(match)})
    ghost = '#actions [data-why-action="hu"]'
    assert page.locator(ghost).count() == 1
    assert page.locator(ghost).get_attribute("aria-disabled") == "true"
    assert page.locator(ghost).get_attribute("data-action") is None  # never a choice
    assert page.get_attribute(ghost, "data-why") == hu.why and "无放铳" in hu.why
    assert hu.why in _why_on_hover(page, ghost)  # hover
    press_at(page, ghost)  # tap or click
    assert page.inner_text(WHY) == hu.why
    assert page.get_attribute(WHY, "role") == "status"
    page.evaluate("document.getElementById('why').textContent = ''")
    page.keyboard.press("h")  # its key, when no 胡 is offered
    assert page.inner_text(WHY) == hu.why
    # a tile that can't be discarded now: tooltip on hover, the same words on a tap
    tile = f"{HAND}[disabled]"
    why = page.locator(tile).first.get_attribute("data-why")
    assert why.startswith("先决定")
    assert page.locator(tile).first.get_attribute("aria-description") == why
    assert why in _why_on_hover(page, f"{HAND}:nth-child(3)")
    page.evaluate("document.getElementById('why').textContent = ''")
    press_at(page, f"{HAND}:nth-child(3)")
    assert page.inner_text(WHY) == why
    # while a bot plays (slow pace: it thinks for a second), a tile says whose turn it is
    match = decision(1, 0)
    g = match.game
    match.apply(Bot("normal", 100).choose(g.observation(0), g.legal_actions(0)).action)
    page = load(table, "?seed=1&speed=slow", {saved.KEY_SAVE: saved_match(match)}, settle_=False)
    page.wait_for_function("() => document.body.dataset.sxmjWaiting === 'bots'")
    why = page.locator(HAND).first.get_attribute("data-why")
    assert why and ("的回合" in why or "其他人在决定" in why), why
    press_at(page, f"{HAND}:first-child")
    assert page.inner_text(WHY) == why
    # the 财神 can't be used to pung
    match = advance(1, 10)
    page = load(table, "?seed=1&speed=fast&lang=en", {saved.KEY_SAVE: saved_match(match)})
    peng = page.locator('#actions [data-why-action="peng"]')
    assert "财神 can't be used to 碰 pung" in peng.get_attribute("data-why")
    press_at(page, '#actions [data-why-action="peng"]')
    assert "财神 can't be used" in page.inner_text(WHY)
    settle(table)


# ---------- keyboard ----------


def test_keyboard_arrows_enter_claim_keys_and_help(table, artifacts):
    match = decision(1, 0)  # the player's own turn, only discards
    page = load(table, "?seed=1&speed=fast", {saved.KEY_SAVE: saved_match(match)})
    enabled = page.locator(ENABLED).evaluate_all("els => els.map(e => e.dataset.tile)")
    all_codes = hand_codes(page)
    page.keyboard.press("ArrowLeft")  # from nothing: the rightmost (the drawn tile)
    picked = page.locator(f"{HAND}.is-picked")
    assert picked.count() == 1 and picked.get_attribute("data-tile") == enabled[-1]
    assert page.evaluate("document.activeElement.classList.contains('is-picked')")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    page.keyboard.press("ArrowRight")  # wraps to the leftmost
    assert page.locator(f"{HAND}.is-picked").get_attribute("data-tile") == enabled[0]
    page.keyboard.press("ArrowRight")
    chosen = page.locator(f"{HAND}.is-picked").get_attribute("data-tile")
    assert chosen == enabled[1]
    before = river(page, "bottom")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelectorAll('#river-bottom img').length === {len(before) + 1}")
    assert river(page, "bottom")[len(before)] == f"{chosen}.svg"
    assert len(all_codes) == 14
    # one key per claim: X passes a claim window
    match = advance(3, 22)
    page = load(table, "?seed=3&speed=fast", {saved.KEY_SAVE: saved_match(match)})
    keys = page.locator("#actions button[data-action] kbd").all_inner_texts()
    assert "X" in keys and all(keys)
    page.keyboard.press("x")
    page.wait_for_function("() => !document.querySelector('#actions [data-action=\"pass\"]')"
                           " || document.body.dataset.sxmjWaiting !== 'you'")
    settle(table)
    # ? opens the help (the rules, the scenarios), the keys are the next tab; Esc closes them
    page.keyboard.press("?")
    page.locator('#sheet [data-testid="help"]').wait_for()
    assert page.evaluate("document.getElementById('sheet').open")
    page.click('#sheet [data-tab="keys"]')
    keys = page.locator('#sheet [data-testid="keys"]')
    keys.wait_for()
    text = keys.inner_text()
    for key in ("Enter", "H", "P", "X", "N", "A", "?"):
        assert key in text
    shoot(page, artifacts / "comforts-help-1280x800.png")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('sheet').open")
    settle(table)


# ---------- screen readers ----------


def test_tiles_have_names_prompts_are_announced_and_focus_is_visible(table):
    match = advance(3, 22)  # a claim window
    page = load(table, "?seed=3&speed=fast", {saved.KEY_SAVE: saved_match(match)})
    from sxmj.tiles import tile as tile_of

    for lang in ("zh", "en"):
        labels = page.locator(HAND).evaluate_all(
            "els => els.map(e => [e.dataset.tile, e.getAttribute('aria-label')])")
        assert labels
        for c, label in labels:
            assert tile_name(tile_of(c), lang) in label.replace("\u00a0", " "), (c, label)
        alts = page.locator("#center img, #me-plate img, #seat-1 img").evaluate_all(
            "els => els.map(e => e.getAttribute('alt'))")
        assert alts and all(alts), alts
        if lang == "zh":
            announce = page.locator('[data-testid="announce"]')
            assert announce.get_attribute("aria-live") == "assertive"
            status = page.inner_text("#status")
            assert "要吗" in status and announce.inner_text() == status
            page.click('button[data-ui="lang"]')
    # after passing, the player's turn is announced too
    page.click('#actions [data-action="pass"]')
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announce]').textContent.includes('Your turn')"
        " || document.body.dataset.sxmjWaiting === 'result'", timeout=30000)
    # focus: every control reached with Tab shows a visible focus ring
    page.locator("body").click(position={"x": 5, "y": 400})
    seen = []
    for _ in range(24):
        page.keyboard.press("Tab")
        ring = page.evaluate(
            "() => { const e = document.activeElement; if (!e || e === document.body) return null;"
            " const s = getComputedStyle(e); return [e.tagName + '.' + e.className,"
            " e.matches(':focus-visible'), s.outlineStyle, parseFloat(s.outlineWidth)] }")
        if ring is None:
            continue
        seen.append(ring)
        name, visible, style, width = ring
        assert visible and style != "none" and width >= 2, ring
    assert len(seen) >= 10, seen
    page.click('button[data-ui="lang"]')
    settle(table)


# ---------- settings ----------


def test_settings_are_kept_and_a_rule_applies_from_the_next_match(table, artifacts):
    page = load(table, "?seed=5&speed=fast")
    assert json.loads(page.get_attribute('[data-testid="rules"]', "data-options"))[
        "base_flowers"] == 5
    page.click('button[data-ui="settings"]')
    sheet = page.locator("#sheet")
    sheet.locator('[data-setting="base_flowers"]').wait_for()
    sheet.locator('[data-setting="base_flowers"]').select_option("10")
    sheet.locator('[data-setting="bot1"]').select_option("hard")
    sheet.locator('[data-setting="contract"]').uncheck()
    sheet.locator('[data-setting="anim"]').select_option("off")
    sheet.locator('[data-setting="lang"]').select_option("en")
    assert "Settings" in sheet.inner_text()  # the sheet speaks English at once
    assert "Changed, from the next match" in sheet.inner_text()
    shoot(page, artifacts / "comforts-settings-1280x800.png")
    stored = json.loads(page.evaluate("localStorage.getItem('sxmj.settings')"))
    assert stored["rules"]["base_flowers"] == 10 and stored["rules"]["contract"] is False
    assert stored["bots"] == ["hard", "normal", "normal"] and stored["anim"] == "off"
    assert stored["lang"] == "en"
    assert page.evaluate("document.body.dataset.sxmjAnim") == "off"
    chip = page.locator('[data-testid="rules"]')
    assert json.loads(chip.get_attribute("data-options"))["base_flowers"] == 5  # this match
    assert chip.get_attribute("data-pending") == "1" and "Base 10 (底花)" in chip.inner_text()
    page.keyboard.press("Escape")
    page.reload()  # kept: the match (its rules) and the settings
    wait_ready(page, table[1])
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "bots=hard,normal,normal" in page.evaluate("location.search")
    assert json.loads(page.get_attribute('[data-testid="rules"]', "data-options"))[
        "base_flowers"] == 5
    page.click('button[data-ui="rules"]')  # the badge opens the rules
    assert page.locator('#sheet [data-setting="base_flowers"]').input_value() == "10"
    assert page.locator('#sheet [data-setting="bot1"]').input_value() == "hard"
    page.click('#sheet [data-action="new-match"]')
    page.click('#overlay [data-ui="confirm-yes"]')  # the match in play ends: asked first
    page.wait_for_function("() => !document.getElementById('sheet').open")
    options = json.loads(page.get_attribute('[data-testid="rules"]', "data-options"))
    assert options["base_flowers"] == 10 and options["contract"] is False
    assert page.get_attribute('[data-testid="rules"]', "data-pending") == "0"
    record = json.loads(page.evaluate("localStorage.getItem('sxmj.save')"))["record"]
    assert record["options"]["base_flowers"] == 10 and record["options"]["contract"] is False
    settle(table)


# ---------- save and resume ----------


def _visible_state(page: Page) -> dict:
    return {
        "hand": hand_codes(page),
        "rivers": {pos: river(page, pos) for pos in ("bottom", "right", "top", "left")},
        "scores": page.locator('[data-testid="scores"] [data-seat]').evaluate_all(
            "els => els.map(e => e.dataset.score)"),
        "wall": page.inner_text('[data-testid="wall-count"]'),
        "caishen": page.get_attribute('[data-testid="caishen"]', "data-tile"),
        "actions": page.locator("#actions button[data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action + (e.dataset.tiles || ''))"),
        "melds": page.locator("#me-melds .meld").count(),
    }


def test_save_and_resume_mid_hand_and_bad_saves_give_a_notice(table, artifacts):
    page = load(table, "?seed=6&speed=fast")
    for _ in range(7):
        settle(table)
        if page.locator(RESULT).count():
            break
        if page.locator('#actions [data-action="pass"]').count() and \
                not page.locator(ENABLED).count():
            page.click('#actions [data-action="pass"]')
        else:
            page.locator(ENABLED).last.click()
    settle(table)
    before = _visible_state(page)
    assert sum(len(r) for r in before["rivers"].values()) >= 4
    page.reload()
    wait_ready(page, table[1])
    settle(table)
    assert _visible_state(page) == before
    save = page.evaluate("localStorage.getItem('sxmj.save')")
    assert saved.load_save(save).match.game.observation(0).hand  # CPython reads it too
    profile = saved.Profile(points=420, net=420, hands=9, wins=2).to_json()
    good = json.loads(save)
    edited = json.loads(save)
    edited["record"]["hands"][0][0] = edited["record"]["hands"][0][0].replace("discard", "pass")
    older = dict(good, version=0)
    for text, kind in (("garbage{", "corrupt"), (json.dumps(older), "old"),
                       (json.dumps(edited), "edited")):
        page = load(table, "?speed=fast", {saved.KEY_SAVE: text, saved.KEY_PROFILE: profile})
        notice = page.locator('[data-testid="notice"]')
        assert notice.is_visible() and notice.get_attribute("role") == "alert"
        assert f"save:{kind}" in notice.get_attribute("data-kind")
        assert "新的一局" in notice.inner_text() and "档案和设置都保留着" in notice.inner_text()
        if kind == "corrupt":
            shoot(page, artifacts / "comforts-notice-1280x800.png")
        assert page.evaluate("localStorage.getItem('sxmj.profile')") == profile  # kept
        page.click('[data-testid="notice"] [data-ui="notice-ok"]')
        assert page.locator("#notice").is_hidden()
        # a fresh, playable game
        if page.locator(ENABLED).count():
            page.locator(ENABLED).last.click()
        else:
            page.locator("#actions button[data-action]").last.click()
        settle(table)
        assert page.locator(".py-error").count() == 0
    page.click('button[data-ui="profile"]')
    assert page.get_attribute('[data-testid="profile"]', "data-points") == "420"
    page.keyboard.press("Escape")


# ---------- profile and ranks ----------


def test_profile_rank_and_stats_after_a_win(table, artifacts):
    match = decision(8, 20)  # the player may declare 胡
    assert any(a.kind == "hu" for a in match.game.legal_actions(0))
    win = Match(seed=8)
    for a in match.game.actions:
        win.apply(a)
    from sxmj.game import Action

    win.apply(Action(0, "hu"))
    gain = win.results[0].payments[0]
    points = 6000 - 1  # one point short of 木骰2级
    profile = saved.Profile(points=points, net=points, hands=40, wins=9).to_json()
    page = load(table, "?seed=8&speed=fast", {saved.KEY_SAVE: saved_match(match),
                                              saved.KEY_PROFILE: profile})
    assert "木骰1级" in page.inner_text('#menu button[data-ui="profile"]')
    page.click('#actions [data-action="hu"]')
    page.wait_for_selector(RESULT)
    stored = json.loads(page.evaluate("localStorage.getItem('sxmj.profile')"))
    assert stored["points"] == points + 20 * gain and stored["hands"] == 41
    assert stored["wins"] == 10 and stored["best"]["gain"] == gain
    page.reload()  # the result again: never counted twice
    wait_ready(page, table[1])
    assert json.loads(page.evaluate("localStorage.getItem('sxmj.profile')")) == stored
    assert "木骰2级" in page.inner_text('#menu button[data-ui="profile"]')
    line = page.locator('[data-testid="rank-line"]')
    assert "木骰2级" in line.inner_text() and "升级" in line.inner_text()
    assert f"+{20 * gain}" in line.inner_text()
    line.locator('[data-ui="profile"]').click()  # the profile, from the result
    card = page.locator('[data-testid="profile"]')
    assert card.get_attribute("data-rank") == "木骰2级"
    assert card.get_attribute("data-hands") == "41" and card.get_attribute("data-wins") == "10"
    text = card.inner_text()
    assert "木骰2级" in text and "Wood Dice 2" in text and f"+{gain}" in text
    assert "升到 木骰3级" in text
    bar = page.locator('[data-testid="profile"] [role="progressbar"]')
    assert 0 < float(bar.get_attribute("aria-valuenow")) < 100
    shoot(page, artifacts / "comforts-profile-1280x800.png")
    page.keyboard.press("Escape")


# ---------- records ----------


def test_records_export_import_replay_and_the_seed_link(table, fresh, tmp_path, artifacts):
    page = load(table, "?seed=12&speed=fast")
    page.locator(ENABLED).last.click() if page.locator(ENABLED).count() else None
    settle(table)
    page.click('button[data-ui="settings"]')
    page.click('#sheet [data-tab="records"]')
    with page.expect_download() as info:
        page.click('#sheet [data-ui="export"]')
    path = info.value.path()
    assert info.value.suggested_filename.startswith("sxmj-seed12")
    exported = json.loads(open(path, encoding="utf-8").read())
    assert exported["format"] == "sxmj-record" and exported["seed"] == 12
    live = json.loads(page.evaluate("localStorage.getItem('sxmj.save')"))["record"]
    assert exported == live and replay(exported).game.actions  # it replays in CPython
    # the link that deals the same seed
    link = page.input_value('[data-testid="seed-link"]')
    assert link.endswith("?seed=12")
    # The clipboard API refuses a document without focus, and in a long headless run
    # another page can hold it; a player whose copy failed clicks again, so may we.
    got = ""
    for _ in range(3):
        page.bring_to_front()
        page.evaluate("window.focus()")
        page.click('#sheet [data-ui="copy-link"]')
        page.wait_for_function("() => document.querySelector('[data-testid=records-status]')"
                               ".textContent.length > 0")
        page.wait_for_timeout(200)
        got = page.evaluate("navigator.clipboard.readText()")
        if got == link:
            break
    status = page.inner_text('[data-testid="records-status"]')
    assert got == link, f"clipboard {got!r}; the page said {status!r}"
    assert status == i18n.tr("zh", "rec_copied")
    # import a two-hand record and step through it
    record_match = advance(21, 10_000)
    record_match.next_hand()
    bots = _bots(21)
    for _ in range(9):
        g = record_match.game
        seat = 0 if 0 in g.to_move() else g.to_move()[0]
        record_match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
    record = to_record(record_match)
    file = tmp_path / "two-hands.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    page.set_input_files('[data-testid="import"]', str(file))
    viewer = page.locator('[data-testid="viewer"]')
    viewer.wait_for()
    assert not page.evaluate("document.getElementById('sheet').open")
    assert page.evaluate("document.body.dataset.sxmjWaiting") == "viewer"
    hands = record["hands"]
    positions = [(i, j) for i, h in enumerate(hands) for j in range(len(h) + 1)]
    assert viewer.get_attribute("data-steps") == str(len(positions) - 1)

    def expect(step: int) -> None:
        i, j = positions[step]
        cut = {k: v for k, v in record.items() if k != "results"}
        m = replay(dict(cut, hands=[list(h) for h in hands[:i]] + [hands[i][:j]]))
        assert viewer.get_attribute("data-step") == str(step)
        assert page.inner_text('[data-testid="wall-count"]') == str(m.game.wall.remaining)
        assert sorted(hand_codes(page)) == sorted(code(t) for t in m.game.observation(0).hand)
        assert page.locator(ENABLED).count() == 0  # a replay: nothing to play

    expect(0)
    for step in range(1, 6):
        page.click('[data-testid="viewer"] [data-ui="step-fwd"]')
        expect(step)
    page.keyboard.press("ArrowLeft")
    expect(4)
    end_of_hand = len(hands[0])
    page.keyboard.press("End")
    expect(len(positions) - 1)
    page.keyboard.press("Home")
    expect(0)
    for _ in range(end_of_hand):
        page.keyboard.press("ArrowRight")
    expect(end_of_hand)  # the end of the first hand: its result, no next-hand button
    assert page.locator(RESULT).count() == 1
    assert page.locator(f'{RESULT} [data-action="next-hand"]').count() == 0
    shoot(page, artifacts / "comforts-replay-1280x800.png")
    page.keyboard.press("ArrowRight")
    expect(end_of_hand + 1)
    page.keyboard.press("Escape")
    page.wait_for_selector('[data-testid="viewer"]', state="detached")
    settle(table)
    assert page.evaluate("document.body.dataset.sxmjWaiting") in ("you", "result", "bots")
    # the copied link deals the same tiles, in a browser that never saw this match
    other = fresh()
    w = watch(other, table[2])
    other.goto(link + "&speed=fast")
    wait_ready(other, w)
    game = Match(seed=12).game
    assert other.get_attribute('[data-testid="caishen"]', "data-tile") == code(game.caishen)
    if game.dealer == 0:
        assert sorted(hand_codes(other)) == sorted(code(t) for t in game.observation(0).hand)
    w.assert_clean()
