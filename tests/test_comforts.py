"""The player comforts' pure modules under CPython: storage (settings, profile, the saved
match), the assist and the reasons behind disabled things, their markup, and the view's
hooks (data-why, ghost buttons, the explained result)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sxmj.bots import Bot
from sxmj.game import Action
from sxmj.match import Match
from sxmj.record import to_record
from sxmj.rules import Options
from sxmj.scoring import FLOWER_ITEMS, PATTERNS
from sxmj.tiles import code, tile
from sxmj.ui import i18n
from sxmj.ui.params import parse_params
from sxmj.ui.table import assist, comforts, view
from sxmj.ui.table.scenario.mode import from_search
from sxmj.ui.table.settings import tabs as settings_tabs
from sxmj.ui.table.storage import saved
from sxmj.winning import Shape, distance, is_baotou_ready, is_win, waits
from tests.test_ui_view import parse

ROOT = Path(__file__).resolve().parent.parent


def advance(seed: int, n: int, player: Bot | None = None) -> Match:
    """Seed ``seed``'s match after ``n`` actions: seat 0 played by ``player`` (a normal bot
    by default), the others by the table's own bots (the same seeds as the page's)."""
    match = Match(seed=seed)
    bots = [player or Bot("normal", 100)] + [Bot("normal", seed * 4 + s) for s in (1, 2, 3)]
    while len(match.game.actions) < n and not match.game.over:
        g = match.game
        seat = 0 if 0 in g.to_move() else g.to_move()[0]
        match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
    return match


def decision(seed: int, k: int) -> Match:
    """Seed ``seed``'s match at the player's ``k``-th decision (0-based)."""
    match = Match(seed=seed)
    player = Bot("normal", 100)
    bots = [Bot("normal", seed * 4 + s) for s in range(4)]
    seen = 0
    while not match.game.over:
        g = match.game
        if 0 in g.to_move():
            if seen == k:
                return match
            seen += 1
            match.apply(player.choose(g.observation(0), g.legal_actions(0)).action)
        else:
            seat = g.to_move()[0]
            match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
    raise AssertionError("the hand ended first")


def finished(seed: int) -> Match:
    return advance(seed, 10_000)


# ---------- nothing here needs the browser ----------


def test_modules_import_without_pyscript():
    code_ = ("import sys; import sxmj.ui.table.storage.saved, sxmj.ui.table.assist; "
             "import sxmj.ui.table.comforts; "
             "bad = [m for m in ('pyscript', 'js', 'pyodide') if m in sys.modules]; "
             "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code_], cwd=ROOT, check=True)


# ---------- settings ----------


def test_settings_round_trip_and_defaults():
    s = saved.Settings(lang="en", speed="fast", anim="off", assist=False,
                       bots=("easy", "normal", "hard"),
                       rules=Options(base_flowers=15, contract=False, fan_cap=2))
    back, problem = saved.load_settings(s.to_json())
    assert back == s and problem is None
    assert saved.load_settings(None) == (saved.Settings(), None)
    assert saved.Settings().assist is True  # on for a new player


def test_bad_settings_fall_back_field_by_field():
    text = json.dumps({"v": 1, "lang": "fr", "speed": "fast", "bots": ["hard"],
                       "rules": {"base_flowers": 7}, "assist": "yes"})
    s, problem = saved.load_settings(text)
    assert (s.lang, s.speed, s.bots, s.rules, s.assist) == (
        "zh", "fast", ("normal",) * 3, Options(), True)
    assert problem is not None and problem.kind == "invalid" and "base_flowers" in problem.detail
    s, problem = saved.load_settings("{not json")
    assert s == saved.Settings() and problem.kind == "corrupt"


@pytest.mark.parametrize(("broker", "kept"), [
    ("http://10.99.0.1:9000/sxmj-broker", True), ("https://peer.example.org/", True),
    ("javascript:alert(1)", False), ("http://x/?a=1", False), (7, False), (None, False),
])
def test_the_broker_setting_is_kept_only_when_it_is_a_peerserver(broker, kept):
    text = json.dumps({"v": 1, "speed": "fast", "broker": broker})
    s, problem = saved.load_settings(text)
    assert s.speed == "fast"  # the other fields stand
    assert s.broker == (broker if kept else "")
    assert (problem is None) == kept and (kept or "broker" in problem.detail)
    if kept:
        assert saved.load_settings(s.to_json()) == (s, None)


# ---------- profile ----------


def test_profile_counts_hands_wins_points_and_best():
    match = next(m for m in (finished(s) for s in range(1, 60))
                 if m.game.result.winner == 0)
    p = saved.Profile()
    p.add_hand(match, 0)
    gain = match.results[0].payments[0]
    assert (p.hands, p.wins, p.points, p.net) == (1, 1, 20 * gain, gain)
    assert p.best["gain"] == gain and p.best["patterns"] == match.results[0].patterns
    back, problem = saved.load_profile(p.to_json())
    assert problem is None and back == p
    assert p.rank.title_zh == ("菜鸟" if 20 * gain < 2000 else "木骰1级")


def test_profile_points_move_with_points_won_and_give_the_rank():
    p = saved.Profile(points=5990, net=290, hands=10, wins=5)
    loss = next(m for m in (finished(s) for s in range(1, 60))
                if m.game.result.winner not in (0, None))
    p.add_hand(loss, 0)
    assert p.net < 290 and p.points == 5990  # a lost hand takes no rank points away
    assert saved.Profile(points=6000).rank.title_zh == "木骰2级"
    win = next(m for m in (finished(s) for s in range(1, 60)) if m.game.result.winner == 0)
    p.add_hand(win, 0)
    assert p.points == 5990 + 20 * win.results[0].payments[0] and p.points >= 6000
    assert p.rank.title_zh == "木骰2级"


@pytest.mark.parametrize("text,kind", [
    ("[1, 2", "corrupt"),
    ('"a string"', "corrupt"),
    ('{"v": 0, "points": 3}', "old"),
    ('{"v": 1, "points": -4}', "invalid"),
    ('{"v": 1, "hands": 1, "wins": 3}', "invalid"),
    ('{"v": 1, "best": {"gain": "lots"}}', "invalid"),
])
def test_unreadable_profiles_are_reported(text, kind):
    p, problem = saved.load_profile(text)
    assert p == saved.Profile() and problem.what == "profile" and problem.kind == kind


# ---------- the saved match ----------


def test_save_resumes_exactly_the_same_state():
    match = advance(7, 37)
    match_over = finished(7)
    match_over.next_hand()
    for m in (match, match_over, Match(seed=3)):
        loaded = saved.load_save(saved.save_text(m, counted=len(m.results)))
        assert loaded.problem is None
        again = loaded.match
        assert again.game.observation(0) == m.game.observation(0)
        assert again.game.legal_actions(0) == m.game.legal_actions(0)
        assert again.scores == m.scores and again.hand_no == m.hand_no
        assert loaded.counted == len(m.results)


def test_save_keeps_the_rule_options():
    m = Match(seed=9, options=Options(base_flowers=20, fan_cap=2))
    assert saved.load_save(saved.save_text(m, 0)).match.options == m.options


def _save(m: Match, **change) -> dict:
    data = json.loads(saved.save_text(m, 0))
    data.update(change)
    return data


@pytest.mark.parametrize("mangle,kind", [
    (lambda text: text[: len(text) // 2], "corrupt"),
    (lambda text: "garbage{", "corrupt"),
    (lambda text: "[]", "corrupt"),
    (lambda text: json.dumps(dict(json.loads(text), version=0)), "old"),
    (lambda text: json.dumps(json.loads(text)["record"]), "old"),
    (lambda text: json.dumps(dict(json.loads(text), counted=1)), "edited"),
    (lambda text: text.replace('"seed":7', '"seed":8'), "edited"),
])
def test_unusable_saves_are_reported_never_raised(mangle, kind):
    text = saved.save_text(advance(7, 20), 0)
    loaded = saved.load_save(mangle(text))
    assert loaded.match is None and loaded.problem.what == "save"
    assert loaded.problem.kind == kind, loaded.problem


def test_a_save_whose_record_breaks_the_rules_is_invalid():
    m = advance(7, 20)
    record = to_record(m)
    record["hands"][0][3] = "0 discard 9z"  # not a tile
    data = {"format": saved.SAVE_FORMAT, "version": saved.SAVE_VERSION, "record": record,
            "counted": 0, "check": saved._check(record, 0)}  # re-signed: only replay can tell
    loaded = saved.load_save(json.dumps(data))
    assert loaded.problem.kind == "invalid" and "hand 0 action 3" in loaded.problem.detail


def test_read_record_takes_a_record_or_a_save():
    m = advance(5, 30)
    record, why = saved.read_record(json.dumps(to_record(m)))
    assert why == "" and record["seed"] == 5
    record, why = saved.read_record(saved.save_text(m, 0))
    assert why == "" and record["seed"] == 5
    assert saved.steps_of(record) == len(m.game.actions)
    for bad in ("", "{}", '{"format": "sxmj-record", "version": 9}'):
        record, why = saved.read_record(bad)
        assert record is None and why


# ---------- the assist ----------


def test_assist_waits_live_counts_and_distance_match_the_core():
    for seed in (3, 4, 11):
        for n in range(0, 120, 7):
            m = advance(seed, n)
            g = m.game
            if g.over:
                break
            info = assist.assist_info(g, Bot("normal"), "en")
            obs = g.observation(0)
            hand = [t for t in obs.hand if t < 31]
            if info.after is not None:
                hand.remove(info.after)
            if len(hand) % 3 != 1:
                continue
            shape = Shape.of(hand, g.caishen)
            sets = 4 - len(obs.melds[0])
            assert info.distance == distance(shape, sets)
            assert info.baotou_ready == is_baotou_ready(shape)
            expected = [t for t in range(31) if (t == g.caishen or hand.count(t) < 4)
                        and is_win(shape.with_wilds(shape.wilds + 1) if t == g.caishen
                                   else shape.add(t))] if info.distance == 0 else []
            if info.any_tile:
                assert len(info.waits) >= 30
            else:
                assert [w.tile for w in info.waits] == expected, (seed, n)
            if info.distance == 0:
                assert info.waits  # ready: something wins
            hidden = obs.unseen()
            assert all(w.live == hidden[w.tile] for w in info.waits)
            if g.legal_actions(0):
                assert info.suggest in g.legal_actions(0)


def test_assist_suggests_the_bots_choice_with_its_reason():
    g = decision(4, 3).game
    obs, legal = g.observation(0), g.legal_actions(0)
    choice = Bot("hard").choose(obs, legal)
    info = assist.assist_info(g, Bot("hard"), "zh")
    assert info.suggest == choice.action and info.reason == choice.reason_zh
    assert assist.assist_info(g, Bot("hard"), "en").reason == i18n.unbroken(choice.reason)


def test_assist_in_the_baotou_scenario_says_any_tile_wins():
    mode = from_search("?scenario=baotou")
    match = mode.start()
    g = match.game
    for _ in range(60):  # follow the coach until it suggests throwing the East Wind
        coach = mode.coach(g, "en")
        if coach.suggest == Action(0, "discard", tile("1z")):
            break
        seat = 0 if 0 in g.to_move() else g.to_move()[0]
        action = coach.suggest if seat == 0 and coach.suggest else (
            mode.bot_action(g, seat) if seat else
            next(a for a in g.legal_actions(0) if a.kind in ("pass", "discard")))
        match.apply(action)
    info = assist.assist_info(g, None, "en", coach.suggest)
    assert info.baotou_ready and info.any_tile and info.distance == 0
    html = comforts.assist_html(info, view.TableState.of(match, lang="en"), True)
    assert 'data-baotou-ready="true"' in html and "ANY tile" in html


def test_the_caishen_as_the_only_wait_is_a_wait():
    """66789m24s beside two chows, 财神 3s: ready, and only a drawn 3s wins."""
    from sxmj.tiles import parse_tiles

    shape = Shape.of(parse_tiles("66789m24s"), tile("3s"))
    assert distance(shape, 2) == 0
    assert waits(shape, tile("3s")) == [tile("3s")]


def test_no_discard_win_note_on_a_winning_discard():
    m = advance(8, 66)  # seed 8: a discard completes the player's hand (found by search)
    g = m.game
    obs, legal = g.observation(0), g.legal_actions(0)
    assert obs.phase == "claim" and legal
    gs = assist.ghosts(obs, legal, "en")
    hu = [x for x in gs if x.action == "hu"]
    assert hu and "无放铳" in hu[0].why
    info = assist.assist_info(g, Bot("normal"), "zh")
    assert "放铳" in info.note


def test_ghosts_explain_the_caishen_and_the_chow_rule():
    m = advance(1, 10)  # a pung of the discard would need the 财神
    obs, legal = m.game.observation(0), m.game.legal_actions(0)
    peng = [x for x in assist.ghosts(obs, legal, "en") if x.action == "peng"]
    assert peng and "财神 can't be used to 碰" in peng[0].why
    m = advance(13, 7)
    obs, legal = m.game.observation(0), m.game.legal_actions(0)
    chi = [x for x in assist.ghosts(obs, legal, "zh") if x.action == "chi"]
    assert chi and ("上家" in chi[0].why or "财神" in chi[0].why)


def test_ghosts_are_never_offered_as_choices():
    for seed in (1, 8, 13):
        for n in range(0, 90, 3):
            m = advance(seed, n)
            g = m.game
            if g.over:
                break
            st = view.TableState.of(m, lang="en")
            st.ghosts = assist.ghosts(st.obs, st.legal, "en")
            html = view.actions_html(st)
            parse(html)
            offered = {b.action for b in view.buttons(st)}
            for ghost in st.ghosts:
                assert ghost.action not in offered or ghost.action == "gang"
                assert f'data-why-action="{ghost.action}"' in html
            assert len(re.findall(r'data-action="', html)) == len(view.buttons(st))


def test_tile_why_names_the_situation():
    m = advance(1, 10)
    obs, legal = m.game.observation(0), m.game.legal_actions(0)
    assert assist.tile_why(obs, legal, obs.hand[0], "en").startswith("Decide first")
    m = Match(seed=2)
    g = m.game
    while 0 in g.to_move():
        m.apply(Bot("normal").choose(g.observation(0), g.legal_actions(0)).action)
    obs = g.observation(0)
    if obs.phase == "turn":
        why = assist.tile_why(obs, [], obs.hand[0], "zh")
        assert why == f"现在是{i18n.seat_name(obs.turn, 'zh')}的回合"


def test_hand_tiles_say_why_they_are_disabled_and_mark_the_suggestion():
    m = advance(1, 10)
    st = view.TableState.of(m, lang="en")
    html = view.hand_html(st)
    tags = [a for t, a in parse(html).tags if t == "button"]
    assert tags and all("disabled" in a and a.get("data-why") for a in tags)
    m = Match(seed=5)
    g = m.game
    while 0 not in g.to_move() or g.phase != "turn":
        seat = g.to_move()[0]
        m.apply(Bot("normal").choose(g.observation(seat), g.legal_actions(seat)).action)
    st = view.TableState.of(m, lang="en")
    discard = next(a for a in st.legal if a.kind == "discard")
    st.suggest = discard
    st.pick = 0
    tags = [a for t, a in parse(view.hand_html(st)).tags if t == "button"]
    assert sum(1 for a in tags if a.get("data-suggested")) == 1
    assert next(a for a in tags if a.get("data-suggested"))["data-tile"] == code(discard.tile)
    assert "is-picked" in tags[0]["class"]


# ---------- the explained result ----------


def test_result_states_patterns_flowers_formula_and_who_pays_why():
    match = next(m for m in (finished(s) for s in range(1, 60))
                 if m.game.result.winner is not None and m.game.result.evaluation.flower_items)
    ev = match.game.result.evaluation
    for lang in ("zh", "en"):
        html = view.result_html(view.TableState.of(match, lang=lang))
        parse(html)
        for pid in ev.patterns:
            assert PATTERNS[pid][0] in html
        for item, count, points in ev.flower_items:
            assert FLOWER_ITEMS[item][0 if lang == "zh" else 1] in html
            assert f"×{count}" in html and i18n.tr(lang, "hua_n", n=points) in html
        text = re.sub(r"<[^>]+>", "", html)  # 2^n is set as 2<sup>n</sup>
        assert i18n.tr(lang, "formula_words") in text and ev.formula(lang) in text
        assert 'data-testid="pay-summary"' in html
        assert f"× {ev.share}" in html


def test_contract_and_rob_payments_are_explained():
    for name, reason in (("chengbao", "contract3"), ("qianggang", "rob")):
        mode = from_search(f"?scenario={name}")
        match = mode.start()
        g = match.game
        while not g.over:
            seat = 0 if 0 in g.to_move() else g.to_move()[0]
            if seat == 0:
                coach = mode.coach(g, "en")
                legal = g.legal_actions(0)
                action = coach.suggest or next(a for a in legal if a.kind == "pass") \
                    if any(a.kind == "pass" for a in legal) else coach.suggest or next(
                        a for a in legal if a.kind == "discard" and a.tile == g.last_tile)
            else:
                action = mode.bot_action(g, seat)
            match.apply(action)
        r = g.result
        assert reason in r.reasons
        for lang in ("zh", "en"):
            html = view.result_html(view.TableState.of(match, lang=lang))
            from sxmj.scoring import PAY_REASONS
            assert PAY_REASONS[reason][0 if lang == "zh" else 1] in html
            payer = r.reasons.index(reason)
            shares = -r.payments[payer] // r.evaluation.share
            assert i18n.tr(lang, "pay_shares", n=shares, s="s") in html


# ---------- markup of the panels ----------


def test_rules_summary_and_chip():
    assert comforts.rules_summary(Options(), "zh") == "底花 5"
    text = comforts.rules_summary(Options(base_flowers=25, contract=False, reserved_tiles=4,
                                        baotou_required=True), "en")
    assert text == "Base 25 (底花) · no 承包 · 有财必暴 · 4 reserved"
    chip = comforts.rules_chip(Options(), Options(base_flowers=10), "en")
    parse(chip)
    assert 'data-pending="1"' in chip and "Base 10 (底花)" in chip
    assert json.loads(re.search(r'data-options="([^"]+)"', chip).group(1).replace(
        "&quot;", '"'))["base_flowers"] == 5


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sheet_tabs_parse_and_carry_every_setting(lang):
    s = saved.Settings()
    settings = settings_tabs.settings_html(s, Options(), lang)
    for name in ("lang", "speed", "anim", "assist", "bot1", "bot2", "bot3", "base_flowers",
                 "flower_is_kong", "piao_blocks_claims", "baotou_required", "contract",
                 "fan_cap", "reserved_tiles"):
        assert f'data-setting="{name}"' in settings, name
    p = saved.Profile(points=310, net=-5, hands=3, wins=1,
                      best={"gain": 48, "fan": 1, "patterns": ["baotou"], "share": 16,
                            "seed": 4, "hand": 2})
    for tab, body in (("settings", settings), ("profile", settings_tabs.profile_html(p, lang)),
                      ("records", settings_tabs.records_html("http://x/?seed=4", "", lang)),
                      ("help", settings_tabs.help_html(lang)),
                      ("keys", settings_tabs.keys_html(lang))):
        html = settings_tabs.sheet_html(tab, body, lang)
        parse(html)
        assert f'data-open-tab="{tab}"' in html
    profile = settings_tabs.profile_html(p, lang)
    assert "木骰2级" in profile and 'data-points="310"' in profile


def test_notice_names_each_problem_in_words():
    problems = [saved.Problem("save", "edited", "the check does not match"),
                saved.Problem("profile", "corrupt", "not JSON")]
    html = comforts.notice_html(problems, "en")
    parse(html)
    assert "edited by hand" in html and "profile could not be read" in html
    assert 'role="alert"' in html and 'data-kind="save:edited profile:corrupt"' in html
    html = comforts.notice_html([saved.Problem("save", "old")], "zh")
    assert "旧版本" in html and "档案和设置都保留着" in html


def test_viewer_bar_and_action_words():
    html = comforts.viewer_html(0, 12, 1, "", "en")
    parse(html)
    assert 'data-step="0"' in html and html.count("disabled") == 2
    assert comforts.action_words(Action.parse("2 peng 5m"), "zh") == "小梅：碰 五万"
    assert comforts.action_words(Action.parse("1 discard 1z"), "en") == \
        "A-Fu discards East\u00a0Wind\u00a0(东风)"


def test_keys_list_every_action_key():
    html = settings_tabs.keys_html("en")
    for key in ("←", "→", "Enter", "H", "C", "P", "G", "X", "Esc", "Y", "N", "A", "?"):
        assert f"<kbd>{key}</kbd>" in html.replace("&lt;", "<"), key


def test_help_links_the_rules_and_the_calculator_in_the_players_language():
    for lang, query in (("zh", ""), ("en", "?lang=en")):
        html = settings_tabs.help_html(lang)
        assert f'href="./learn.html{query}" data-testid="help-learn"' in html
        assert f'href="./learn.html{query}#scenarios" data-testid="help-scenarios"' in html
        assert f'href="./calc.html{query}" data-testid="help-calc"' in html
    assert "规则" in settings_tabs.help_html("zh") and "Rules" in settings_tabs.help_html("en")
    assert settings_tabs.TABS[:2] == ("help", "keys")  # ? opens help; the keys come second


def test_per_seat_bot_levels_in_the_url():
    p = parse_params("?seed=3&bots=easy,normal,hard")
    assert p.levels == ("easy", "normal", "hard")
    assert parse_params(p.query()) == p
    assert parse_params("?bots=easy,nope,hard").levels == ("normal",) * 3
