"""The learn, calculator and embed pages' pure parts (CPython; no browser, no pyscript).

Every example of learn.html is computed by the evaluator; the calculator and the embeds speak
the evaluate JSON command's format and agree with it; bad input is explained in words; the
scenario mode coaches each built-in scenario to its goal.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sxmj.game import Action
from sxmj.request import EVALUATE_FIELDS, evaluate_json
from sxmj.scenarios import BUILTIN, ScenarioError
from sxmj.scoring import FLOWER_ITEMS, PATTERNS, InvalidHand
from sxmj.tiles import code, parse_tiles
from sxmj.ui.markup import powers_html
from sxmj.ui.pages import calc, embed, hand_cards, judge, lessons, plumbing
from sxmj.ui.table.scenario import mode as scenario_mode

ROOT = Path(__file__).resolve().parent.parent


def attrs_of(html: str, testid: str = "calc-result") -> dict[str, str]:
    m = re.search(rf'<[^>]*data-testid="{testid}"[^>]*>', html)
    assert m, html[:300]
    return dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(0)))


class Slots(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.examples: list[str] = []
        self.ids: set[str] = set()
        self.scripts: list[dict] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-example" in a:
            self.examples.append(a["data-example"])
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "script":
            self.scripts.append(a)
        for name in ("src", "href", "config"):
            if a.get(name):
                self.urls.append(a[name])


def parse_page(name: str) -> Slots:
    s = Slots()
    s.feed((ROOT / name).read_text(encoding="utf-8"))
    return s


# ------------------------------------------------------------------ learn.html examples


@pytest.mark.parametrize("ex", lessons.EXAMPLE_LIST, ids=lambda e: e.id)
def test_every_example_is_computed_and_shows_what_it_claims(ex) -> None:
    j = judge.judge(ex.request)
    assert j.error is None, j.error
    assert j.win == ex.win
    assert j.out == evaluate_json(ex.request)  # the page's numbers are the CLI's numbers
    computed = set(j.evaluation.patterns) | {item for item, _, _ in j.evaluation.flower_items}
    assert set(ex.shows) <= computed, (ex.id, ex.shows, computed)
    html = lessons.example_html(ex, "en")
    a = attrs_of(html)
    assert a["data-win"] == ("true" if ex.win else "false")
    assert a["data-fan"] == str(j.fan) and a["data-share"] == str(j.share)
    if ex.win:
        assert a["data-patterns"] == " ".join(j.evaluation.patterns)
        assert a["data-items"] == " ".join(i for i, _, _ in j.evaluation.flower_items)
    # the tiles are drawn with the game's art, the 财神 marked
    for t in set(parse_tiles(ex.request["hand"])):
        assert f"./static/tiles/{code(t)}.svg" in html
    if ex.request["caishen"] in ex.request["hand"]:
        assert 'class="t r0 is-cai' in html and '<i class="cai"' in html


def test_examples_are_data_never_typed_results() -> None:
    for ex in lessons.EXAMPLE_LIST:
        assert set(ex.request) <= set(EVALUATE_FIELDS), ex.id
        assert not {"fan", "share", "flowers_total", "patterns", "win"} & set(ex.request)


def test_every_pattern_and_every_hua_item_appears_in_a_computed_example() -> None:
    patterns: set[str] = set()
    items: set[str] = set()
    for ex in lessons.EXAMPLE_LIST:
        ev = judge.judge(ex.request).evaluation
        patterns |= set(ev.patterns)
        items |= {item for item, _, _ in ev.flower_items}
    assert patterns == set(PATTERNS)
    assert items == set(FLOWER_ITEMS)


def test_learn_html_places_every_example_once_and_every_live_region() -> None:
    slots = parse_page("learn.html")
    assert sorted(slots.examples) == sorted(lessons.EXAMPLES)
    assert len(slots.examples) == len(set(slots.examples))
    rendered = lessons.render("zh")
    assert set(rendered.regions) <= slots.ids
    for pid in PATTERNS:  # the patterns table links each pattern to a live example
        assert f'data-pattern="{pid}"' in rendered.regions["patterns-table"]
    for item in FLOWER_ITEMS:
        assert f'data-item="{item}"' in rendered.regions["flowers-table"]


def test_learn_html_has_both_languages_in_every_section() -> None:
    html = (ROOT / "learn.html").read_text(encoding="utf-8")
    sections = re.findall(r'<section id="([\w-]+)">(.*?)</section>', html, re.S)
    assert [s for s, _ in sections] == ["tiles", "table", "caishen", "flowers", "play",
                                        "winning", "fan", "hua", "pay", "options", "ranks",
                                        "scenarios"]
    for name, body in sections:
        assert body.count('data-l="zh"') == body.count('data-l="en"') > 0, name


def test_learn_regions_render_in_both_languages() -> None:
    for lang in ("zh", "en"):
        r = lessons.render(lang)
        assert all(html for html in r.regions.values())
        assert 'data-indicator="9m" data-caishen="1m"' in r.regions["caishen-cycle"]
        assert 'data-indicator="7z" data-caishen="1z"' in r.regions["caishen-cycle"]
        payments = r.regions["payments-table"]
        assert re.search(r'data-case="rob">.*?>\+36<.*?>0<.*?>0<.*?>-36<', payments)
        assert re.search(r'data-case="contract5">.*?>\+84<.*?>-60<', payments)
        assert 'data-points="1350000"' in r.regions["ranks-table"]  # seed 002's 王冠
        assert 'data-option="fan_cap"' in r.regions["options-table"]


def test_scenario_list_links_every_scenario_to_the_table() -> None:
    html = lessons.scenarios_html("zh")
    for name in BUILTIN:
        assert f'href="./index.html?scenario={name}"' in html
    assert "index.html?scenario=baotou&amp;lang=en" in lessons.scenarios_html("en")


# ------------------------------------------------------------------ judging and analysing


@pytest.mark.parametrize(("request_", "field", "zh", "en"), [
    ({"hand": "123m456m789m123p5p7z", "win_tile": "5p", "caishen": "9s"}, "hand",
     "7z（红中）是花牌", "hand: 7z is a flower tile"),
    ({"hand": "123m456m789m123p50p", "win_tile": "5p", "caishen": "9s"}, "hand",
     "没有 0p 这张牌", "unknown tile 0p"),
    ({"hand": "11111m456m789m555p", "win_tile": "5p", "caishen": "9s"}, "hand",
     "1m（一万）超过了 4 张", "more than 4 copies of 1m"),
    ({"hand": "123m456m789m123p55p", "win_tile": "6p", "caishen": "9s"}, "win_tile",
     "胡张6p（六筒）不在手牌里", "winning tile: 6p is not in the hand"),
    ({"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "5z"}, "caishen",
     "5z（白板）是花牌；财神只能是数牌或风牌", "5z is a flower tile"),
    ({"hand": "456m789m123p55p", "win_tile": "5p", "caishen": "1m", "melds": ["peng 111m"]},
     "melds", "1m（一万）是财神，不能用来吃碰杠", "1m is the 财神"),
    ({"hand": "456m789m123p55p", "win_tile": "5p", "caishen": "9s", "melds": ["chi 135m"]},
     "melds", "吃要同一花色连续的三张", "chi needs three consecutive"),
    ({"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s", "win_by": "x"},
     "win_by", "不认识的胡法 x", "unknown win_by 'x'"),
    ({"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s", "base_flowers": 7},
     "base_flowers", "底花只能是 5、10、15、20 或 25", "base_flowers must be one of"),
    ({"hand": "123m456m789m123p5p", "win_tile": "5p", "caishen": "9s"}, "hand",
     "共 13 张；胡牌要 14 张", "13 tiles in hand"),
    ({"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "1f3f"}, "caishen",
     "只能填一张牌", "expected one tile"),
])
def test_bad_input_is_explained_in_both_languages(request_, field, zh, en) -> None:
    j = judge.judge(request_)
    assert j.error is not None and j.error.field == field
    assert zh in judge.error_text(j.error, "zh")
    assert en in judge.error_text(j.error, "en")
    html = hand_cards.invalid_html(j.error, "zh", bilingual=True)
    a = attrs_of(html)
    assert (a["data-win"], a["data-fan"], a["data-share"], a["data-state"], a["data-error"]) == \
        ("false", "0", "0", "invalid", field)
    assert "Traceback" not in html


def test_errors_come_from_the_core_in_both_languages_without_pattern_matching() -> None:
    err = InvalidHand("hand", "hand.copies", limit=4, tile="5m")
    assert judge.error_text(err, "zh") == "手牌：5m（五万）超过了 4 张"
    assert judge.error_text(err, "en") == "hand: more than 4 copies of 5m"
    with pytest.raises(KeyError):
        InvalidHand("hand", "something new")  # a code without texts is a programming error


def test_thirteen_tiles_show_waits_baotou_ready_and_distance() -> None:
    ready = judge.analyse({"hand": "123m456m789p234s9s", "caishen": "9s"})
    assert ready.baotou_ready and ready.distance == 0 and len(ready.waits) == 31
    assert all(w.judgement.evaluation.patterns == ["baotou"] for w in ready.waits
               if w.tile != parse_tiles("9s")[0])
    two = judge.analyse({"hand": "123m456m789p23s11z", "caishen": "9s"})
    assert [code(w.tile) for w in two.waits] == ["1s", "4s", "9s"]
    assert not two.baotou_ready and two.baotou_distance >= 99
    far = judge.analyse({"hand": "135m468p147s1234z", "caishen": "9s"})
    assert far.waits == [] and far.distance > 2
    a = attrs_of(hand_cards.waits_html(two, "en"))
    assert a["data-state"] == "waits" and a["data-waits"] == "1s 4s 9s"
    assert a["data-ready"] == "true" and a["data-baotou-ready"] == "false"
    with pytest.raises(InvalidHand, match="a hand waiting for its last tile has 13"):
        judge.analyse({"hand": "123m", "caishen": "9s"})


def test_url_parameters_round_trip_into_requests() -> None:
    q = judge.request_from_params({"hand": "123m456m789m123p5p9s", "caishen": "9s",
                                   "melds": "peng 222z, chi 123m", "dealer": "1",
                                   "fan_cap": "2", "piao": "x"})
    assert q.error is None
    assert q.request["melds"] == ["peng 222z", "chi 123m"]
    assert q.request["dealer"] is True and q.request["options"] == {"fan_cap": 2}
    assert q.request["win_tile"] == "9s" and q.request["piao"] == "x"  # left for the evaluator
    assert judge.judge(q.request).error.field == "piao"
    assert judge.request_from_params({"nope": "1"}).error.field == "nope"
    assert judge.request_from_params({"dealer": "maybe"}).error.field == "dealer"
    again = judge.request_from_params(dict(judge.params_of(q.request)))
    assert again.request == q.request


def test_results_carry_the_cli_numbers_and_explain_item_by_item() -> None:
    request = {"hand": "456m789m123p5p9s", "win_tile": "5p", "caishen": "9s",
               "melds": ["angang 2222s"], "win_by": "kong"}
    j = judge.judge(request)
    html = hand_cards.result_html(j, "en")
    a = attrs_of(html)
    out = evaluate_json(request)
    assert (a["data-win"], a["data-fan"], a["data-share"]) == ("true", str(out["fan"]),
                                                               str(out["share"]))
    lines = j.evaluation.explain("en")
    for line in lines[:-1]:
        assert hand_cards.esc(line) in html
    # the formula's power a superscript, as on the table: 2², never "2^2"
    assert powers_html(lines[-1]) in html and "2<sup>" in html and "2^2" not in html
    assert "Each of the other three pays 32; the winner receives 96." in html


# ------------------------------------------------------------------ the calculator


def test_calculator_clicks_build_a_hand_and_judge_it() -> None:
    st = calc.CalcState()
    for c in re.findall(r"\d[mpsz]", "1m2m3m4m5m6m7m8m9m1p2p3p9s"):
        st = st.click(c)
    assert judge.tile_count(st.request()) == 13
    assert attrs_of(calc.outcome_html(st, "zh"))["data-state"] == "waits"
    st = st.click("5p")
    a = attrs_of(calc.outcome_html(st, "en"))
    assert (a["data-win"], a["data-fan"], a["data-share"]) == ("true", "1", "12")
    assert st.click("6p").message == "hand_full"
    st = st.remove("5p")
    assert attrs_of(calc.outcome_html(st, "en"))["data-state"] == "waits"
    st = st.undo()
    assert attrs_of(calc.outcome_html(st, "en"))["data-state"] == "incomplete"
    assert st.clear().hand == "" and st.clear().caishen == "9s"


def test_calculator_routes_flowers_melds_caishen_and_the_winning_tile() -> None:
    st = calc.CalcState().click("7z")
    assert st.flowers == "7z" and st.hand == "" and st.message == "flower_to_flowers"
    assert st.click("7z").message == "too_many_flower"
    st = calc.CalcState(target="meld", meld_kind="chi").click("3m")
    assert st.melds == "chi 345m"
    assert calc.CalcState(target="meld", meld_kind="chi").click("8m").message == "chi_bad:8m"
    assert calc.CalcState(target="meld", meld_kind="peng").click("9s").message == \
        "meld_caishen"
    st = calc.CalcState(target="meld", meld_kind="angang").click("1z")
    assert st.melds == "angang 1111z" and st.remove_meld(0).melds == ""
    assert calc.CalcState(target="caishen").click("5m").caishen == "5m"
    assert calc.CalcState(target="caishen").click("1f").message == "caishen_flower"
    assert calc.CalcState(target="win_tile").click("5p").win_tile == "5p"
    full = calc.CalcState(hand="1111m")
    assert full.click("1m").message == "too_many:1m"
    assert "4 张一万" in calc.message_text(full.click("1m"), "zh")


def test_calculator_state_lives_in_the_url() -> None:
    st = calc.CalcState(hand="123m456m789m123p5p9s", melds="", dealer=True, fan_cap="2")
    params = st.params()
    assert params == [("hand", "123m456m789m123p5p9s"), ("dealer", "1"), ("fan_cap", "2")]
    again, error = calc.CalcState.from_params(dict(params))
    assert error is None and again.params() == params
    _, error, refused = calc.read_calc({"hand": "1m", "target": "x"})  # not a URL field
    assert error is None and [(r.param, r.kind) for r in refused] == [("target", "unknown")]
    _, error = calc.CalcState.from_params({"first_turn": "perhaps"})
    assert error.field == "first_turn"


def test_calculator_explains_a_bad_typed_hand_instead_of_failing() -> None:
    for hand, field in (("123m456m789m123p5p9x", "hand"), ("123m456m789m123p5p7z", "hand"),
                        ("123m456m789m1234p5", "hand")):
        a = attrs_of(calc.outcome_html(calc.CalcState(hand=hand), "zh"))
        assert (a["data-state"], a["data-error"]) == ("invalid", field), hand
    a = attrs_of(calc.outcome_html(calc.CalcState(hand="123m456m789m123p5p9s", piao="x"),
                                   "en"))
    assert a["data-error"] == "piao"
    assert calc.invalid_field(calc.CalcState(hand="123m456m789m123p5p9s", piao="x")) == "piao"


def test_calculator_form_has_every_field_and_the_palette() -> None:
    html = calc.render_form(calc.CalcState(), "zh")
    for name in judge.FIELDS + judge.OPTION_FIELDS:
        assert f'data-field="{name}"' in html, name
    assert len(re.findall(r'data-tile="\w\w"', html)) == 34 + 8
    assert 'data-testid="calc-result"' in html


def test_examples_load_into_the_calculator_and_agree() -> None:
    for ex in lessons.EXAMPLE_LIST:
        st = calc.CalcState().load(ex.request)
        a = attrs_of(calc.outcome_html(st, "en"))
        j = judge.judge(ex.request)
        assert (a["data-win"], a["data-fan"], a["data-share"]) == \
            ("true" if j.win else "false", str(j.fan), str(j.share)), ex.id


# ------------------------------------------------------------------ embeds


def test_embed_hand_mode_judges_fourteen_and_analyses_thirteen() -> None:
    e = embed.render({"mode": "hand", "hand": "123m456m789m123p9s5p", "caishen": "9s"}, "zh")
    a = attrs_of(e.html)
    assert (a["data-win"], a["data-fan"], a["data-share"]) == ("true", "1", "12")
    assert "./calc.html?" in e.html
    e = embed.render({"mode": "hand", "hand": "123m456m789m123p9s5p", "caishen": "9s",
                      "win_tile": "9s"}, "en")
    assert attrs_of(e.html)["data-patterns"] == ""  # the drawn 财神 does not pair the 5p
    e = embed.render({"mode": "hand", "hand": "123m456m789p234s9s", "caishen": "9s"}, "en")
    a = attrs_of(e.html)
    assert a["data-state"] == "waits" and a["data-baotou-ready"] == "true"


@pytest.mark.parametrize(("params", "field"), [
    ({}, "mode"),
    ({"mode": "dance"}, "mode"),
    ({"mode": "hand", "hand": "123m"}, "caishen"),
    ({"mode": "hand", "caishen": "9s"}, "hand"),
    ({"mode": "hand", "hand": "123m456m789m123p5p7z", "caishen": "9s"}, "hand"),
    ({"mode": "hand", "hand": "12m", "caishen": "9s"}, "hand"),
    ({"mode": "scenario"}, "name"),
    ({"mode": "scenario", "name": "nope"}, "name"),
    ({"mode": "play"}, "seed"),
    ({"mode": "play", "seed": "-3"}, "seed"),
    ({"mode": "play", "seed": "9007199254740992"}, "seed"),
])
def test_embed_bad_parameters_are_explained_in_both_languages(params, field) -> None:
    e = embed.render(params, "zh")
    a = attrs_of(e.html, "embed-error")
    assert a["data-field"] == field, e.html[:400]
    assert re.search(r"[\u4e00-\u9fff]", e.html) and re.search(r"[a-z]{4,}", e.html)
    assert "Traceback" not in e.html
    if params.get("mode") == "hand":
        assert attrs_of(e.html)["data-state"] == "invalid"


def test_embed_scenario_and_play_cards_link_to_the_table() -> None:
    for name in BUILTIN:
        e = embed.render({"mode": "scenario", "name": name, "lang": "en"}, "en")
        assert attrs_of(e.html, "embed-card")["data-scenario"] == name
        assert f'href="./index.html?scenario={name}&amp;lang=en"' in e.html
        assert 'target="_blank"' in e.html and 'target="_self"' in e.html
    e = embed.render({"mode": "play", "seed": "42"}, "zh")
    assert attrs_of(e.html, "embed-card")["data-seed"] == "42"
    assert 'href="./index.html?seed=42"' in e.html
    assert e.html.count('class="t r0') == 13 or e.html.count('class="t r0') == 14


def test_embed_calc_mode_prefills_the_calculator() -> None:
    e = embed.render({"mode": "calc", "hand": "123m456m789p234s9s", "caishen": "9s"}, "en")
    assert e.calc is not None and e.calc_error is None
    assert attrs_of(calc.render_form(e.calc, "en"))["data-state"] == "waits"
    e = embed.render({"mode": "calc", "colour": "red"}, "en")
    assert e.calc_error is None and [r.param for r in e.refused] == ["colour"]


@pytest.mark.parametrize("params", [
    {"mode": "hand", "hand": "123m456m789m123p9s5p", "caishen": "9s", "colour": "red"},
    {"mode": "scenario", "name": "baotou", "colour": "red"},
    {"mode": "play", "seed": "42", "colour": "red"},
])
def test_embed_unknown_parameters_are_left_out_and_named(params) -> None:
    e = embed.render(params, "en")  # one rule on every page (docs/reference/testing-contract.md)
    assert e.error is None and "embed-error" not in e.html
    assert [(r.param, r.kind) for r in e.refused] == [("colour", "unknown")]
    if params["mode"] == "hand":
        assert "colour" not in e.html  # nor in the link to the calculator


# ------------------------------------------------------------------ scenario mode


def coach_through(mode: scenario_mode.ScenarioMode, follow: bool = True, limit: int = 200):
    match = mode.start()
    g = match.game
    for _ in range(limit):
        if g.over:
            break
        seat = g.to_move()[0]
        if seat == 0:
            view = mode.coach(g, "en")
            legal = g.legal_actions(0)
            action = view.suggest if follow and view.suggest else None
            if action is None:
                action = next((a for a in legal if a.kind == "pass"), None) or next(
                    (a for a in legal if a.kind == "discard" and a.tile == g.last_tile),
                    next(a for a in legal if a.kind == "discard"))
        else:
            action = mode.bot_action(g, seat)
        match.apply(action)
    return match


@pytest.mark.parametrize("name", list(BUILTIN))
def test_scenario_mode_coaches_every_scenario(name) -> None:
    mode = scenario_mode.from_search(f"?scenario={name}&lang=en")
    match = coach_through(mode)
    g = match.game
    view = mode.coach(g, "zh")
    expect = BUILTIN[name]["expect"]
    if expect:
        assert g.over and view.state == "success", (name, view)
        assert mode.outcome(g).success is True
    html = mode.coach_html(g, "en")
    a = attrs_of(html, "coach")
    assert a["data-scenario"] == name and a["data-state"] == view.state
    assert not mode.off_script(g)


def test_scenario_mode_suggests_only_legal_moves_and_in_words() -> None:
    mode = scenario_mode.from_search("?scenario=qianggang")
    match = mode.start()
    g = match.game
    seen = []
    while not g.over:
        seat = g.to_move()[0]
        if seat == 0:
            view = mode.coach(g, "zh")
            if view.suggest is not None:
                assert view.suggest in g.legal_actions(0)
                seen.append(view.hint)
                match.apply(view.suggest)
                continue
            legal = g.legal_actions(0)
            match.apply(next((a for a in legal if a.kind == "pass"), legal[0]))
        else:
            match.apply(mode.bot_action(g, seat))
    assert seen == ["提示：打出北风", "提示：抢杠胡"]
    html = mode.coach_html(g, "zh")
    assert "目标达成" in html


def test_scenario_mode_notices_a_move_off_the_script() -> None:
    mode = scenario_mode.from_search("?scenario=baotou")
    match = mode.start()
    g = match.game
    assert mode.coach(g, "en").suggest == Action.parse("0 discard 2z")
    match.apply("0 discard 1z")  # not what the coach said
    assert mode.off_script(g)
    while not g.over and 0 not in g.to_move():
        match.apply(mode.bot_action(g, g.to_move()[0]))
    html = mode.coach_html(g, "en")
    assert attrs_of(html, "coach")["data-state"] == "off"
    assert 'href="./index.html?scenario=baotou&amp;lang=en"' in html


def test_scenario_mode_reports_a_missed_goal() -> None:
    mode = scenario_mode.from_search("?scenario=baotou")
    match = coach_through(mode, follow=False, limit=400)
    g = match.game
    assert g.over
    view = mode.coach(g, "en")
    assert view.state == "failed" and "Goal not reached" in view.outcome


def test_scenario_mode_without_or_with_a_bad_name() -> None:
    assert scenario_mode.from_search("?seed=4") is None
    with pytest.raises(ScenarioError, match="known: baotou"):
        scenario_mode.from_search("?scenario=nope")
    html = scenario_mode.error_html(ScenarioError("x"), "nope", "en")
    assert "No such scenario: nope" in html and "没有这个场景" in html


# ------------------------------------------------------------------ pages and the site


def test_page_query_helpers() -> None:
    assert plumbing.parse_query("?a=1&a=2&b=") == {"a": "2", "b": ""}
    assert plumbing.with_lang("?mode=hand&hand=1m", "en") == "?mode=hand&hand=1m&lang=en"
    assert plumbing.with_lang("?lang=en", "zh") == "?"
    assert plumbing.query_of([("hand", "1m"), ("lang", "x")], "en") == "?hand=1m&lang=en"


@pytest.mark.parametrize("name", ["learn", "calc", "embed"])
def test_pages_boot_their_module_with_the_games_config(name) -> None:
    slots = parse_page(f"{name}.html")
    py = [s for s in slots.scripts if s.get("type") == "py"]
    assert py == [{"type": "py", "src": f"./{name}_main.py", "config": "./pyscript.toml"}]
    main = (ROOT / f"{name}_main.py").read_text(encoding="utf-8")
    assert f"from sxmj.ui.pages import {name}" in main and f"{name}.start()" in main
    # the same runtime as the game: the same interpreter module, the same preloads
    game = parse_page("index.html")
    runtime = [u for u in game.urls if "/vendor/" in u or "/boot/" in u]
    assert [u for u in slots.urls if "/vendor/" in u or "/boot/" in u] == runtime
    assert '<meta name="sxmj-build" content="dev">' in (ROOT / f"{name}.html").read_text()
    for url in slots.urls:
        assert not url.startswith(("/", "http:", "https:", "//")), url


def test_the_site_ships_the_pages() -> None:
    import sys
    sys.path.insert(0, str(ROOT / "scripts"))
    import build_site

    for name in ("learn.html", "calc.html", "embed.html", "learn_main.py", "calc_main.py",
                 "embed_main.py"):
        assert name in build_site.PAGES
    assert "examples" in build_site.PAGE_DIRS


def test_the_example_article_embeds_a_hand_and_the_calculator() -> None:
    html = (ROOT / "examples" / "tutorial.html").read_text(encoding="utf-8")
    frames = re.findall(r'<iframe[^>]*src="([^"]+)"', html)
    assert len(frames) == 2
    assert frames[0].startswith("../embed.html?mode=hand&amp;")
    assert frames[1].startswith("../embed.html?mode=calc&amp;")
    assert "sxmj-embed-size" in html
    doc = (ROOT / "docs" / "reference" / "embedding.md").read_text(encoding="utf-8")
    assert "embed.html?mode=hand" in doc and "sxmj-embed-size" in doc


def test_ui_modules_import_without_pyscript() -> None:
    import importlib
    import sys

    assert "pyscript" not in sys.modules
    for name in ("pages.learn", "pages.calc", "pages.embed", "pages.hand_cards", "pages.judge",
                 "pages.lessons", "pages.plumbing", "i18n", "table.scenario.mode"):
        importlib.import_module(f"sxmj.ui.{name}")
    assert "pyscript" not in sys.modules
