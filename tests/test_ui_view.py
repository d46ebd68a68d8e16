"""The table's pure view (sxmj.ui.table.view, i18n, params) under CPython, without PyScript.

The view draws only what the engine allows: every enabled tile and button maps to a legal
action; it escapes text; each region is one string; every string exists in both languages.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sxmj.bots import Bot
from sxmj.game import Action
from sxmj.match import Match
from sxmj.melds import Meld
from sxmj.observation import Observation
from sxmj.tiles import code, format_tiles, tile
from sxmj.ui import i18n
from sxmj.ui.params import Params, parse_params
from sxmj.ui.table import view

ROOT = Path(__file__).resolve().parent.parent
REGIONS = {"menu", "seat-1", "seat-2", "seat-3", "panel", "me-plate", "me-melds", "hand",
           "actions", "result", "river-bottom", "river-right", "river-top", "river-left"}


class Tags(HTMLParser):
    """Start tags with their attributes; checks that the markup nests properly."""

    VOID = {"img", "br", "input", "circle", "rect"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    tags.close()
    assert tags.stack == [], tags.stack
    return tags


def play(match: Match, steps: int, seed: int = 0, until=None) -> Match:
    """Advance a match with bots in every seat (seat 0 too)."""
    bots = [Bot("normal", seed + s) for s in range(4)]
    for _ in range(steps):
        game = match.game
        if game.over or (until is not None and until(match)):
            break
        seat = game.to_move()[0]
        match.apply(bots[seat].choose(game.observation(seat), game.legal_actions(seat)).action)
    return match


def states(seed: int, lang: str = "zh"):
    """Every state of one bot-played hand, as the player sees it."""
    match = Match(seed=seed)
    bots = [Bot("normal", seed + s) for s in range(4)]
    while True:
        yield match, view.TableState.of(match, lang=lang)
        game = match.game
        if game.over:
            return
        seat = game.to_move()[0]
        match.apply(bots[seat].choose(game.observation(seat), game.legal_actions(seat)).action)


# ---------- importable without the browser ----------


def test_view_imports_without_pyscript():
    code_ = ("import sys; import sxmj.ui.table.view, sxmj.ui.i18n, sxmj.ui.params; "
             "bad = [m for m in ('pyscript', 'js', 'pyodide') if m in sys.modules]; "
             "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code_], cwd=ROOT, check=True)


def test_every_string_has_both_languages():
    for key, (zh, en) in i18n.STRINGS.items():
        assert en, key
        assert zh or key == "title_sub", key
        assert set(re.findall(r"{(\w+)}", zh)) <= set(re.findall(r"{(\w+)}", en)) or not zh, key


def test_english_keeps_the_chinese_terms():
    for key in ("act_chi", "act_peng", "act_minggang", "act_pass", "act_hu", "dealer"):
        zh, en = i18n.STRINGS[key]
        assert zh in en, (key, en)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_region_markup_nests_and_covers_the_table(lang):
    for _, st in states(3, lang):
        regions = view.render_all(st)
        assert set(regions) == REGIONS
        for html in regions.values():
            parse(html)


# ---------- the testing contract in the markup ----------


def test_hand_buttons_follow_the_legal_discards():
    seen_turn = seen_other = False
    for match, st in states(7):
        tags = parse(view.hand_html(st)).tags
        buttons = [a for t, a in tags if t == "button"]
        assert [b["data-tile"] for b in buttons] == [code(t) for t in _shown_order(st)]
        legal = {code(a.tile) for a in match.game.legal_actions(0) if a.kind == "discard"}
        enabled = {b["data-tile"] for b in buttons if "disabled" not in b}
        assert enabled == legal
        seen_turn |= bool(legal)
        seen_other |= not legal
    assert seen_turn and seen_other


def _shown_order(st):
    hand = list(st.obs.hand)
    drawn = view.drawn_tile(st)
    if drawn is not None and drawn != st.caishen:
        hand.remove(drawn)
        hand.append(drawn)
    return hand


def test_caishen_sits_far_left_with_its_badge():
    for _, st in states(2):
        tags = parse(view.hand_html(st)).tags
        codes = [a["data-tile"] for t, a in tags if t == "button"]
        cai = code(st.caishen)
        if cai in codes:
            assert codes[: codes.count(cai)] == [cai] * codes.count(cai)
        badges = view.hand_html(st).count('class="cai"')
        assert badges == codes.count(cai)


def test_panel_carries_caishen_wall_count_and_four_scores():
    match = Match(seed=4)
    st = view.TableState.of(match, lang="en")
    tags = parse(view.panel_html(st)).tags
    cai = [a for _, a in tags if a.get("data-testid") == "caishen"]
    assert len(cai) == 1 and cai[0]["data-tile"] == code(match.game.caishen)
    assert any(a.get("data-testid") == "wall-count" for _, a in tags)
    html = view.panel_html(st)
    assert f'data-testid="wall-count">{match.game.wall.remaining}<' in html
    scores = [a for _, a in tags if "data-seat" in a and "data-score" in a]
    assert [int(a["data-seat"]) for a in scores] == [0, 1, 2, 3]
    assert all(a["data-score"] == "0" for a in scores)
    # inside [data-testid="scores"]
    box = html.index('data-testid="scores"')
    assert all(html.index(f'data-seat="{s}" data-score') > box for s in range(4))


def _claim_state(seed_range=range(40)):
    for seed in seed_range:
        for match, st in states(seed, "en"):
            if st.obs.phase == "claim" and st.legal:
                return match, st
    pytest.skip("no claim for the player in these seeds")


def test_claim_buttons_are_the_legal_claims_plus_pass():
    match, st = _claim_state()
    bs = view.buttons(st)
    legal = match.game.legal_actions(0)
    assert {b.engine for b in bs} == set(legal)
    assert bs[-1].action == "pass"
    html = view.actions_html(st)
    tags = parse(html).tags
    acts = [a for t, a in tags if t == "button"]
    assert [a["data-action"] for a in acts] == [b.action for b in bs]
    for a, b in zip(acts, bs, strict=True):
        if b.action == "chi":
            assert a["data-tiles"] == format_tiles(b.engine.tiles)
        if b.action == "gang":
            assert re.fullmatch(r"(\d)\1\1\1[mpsz]", a["data-tiles"])
        assert a["aria-keyshortcuts"] and "<kbd" in html
    assert len({b.key for b in bs}) == len(bs), "each button has its own key"


def test_own_turn_offers_kongs_and_hu_with_pass():
    st = view.TableState(lang="en", obs=_obs_turn(), scores=[0] * 4, hand_no=1, legal=[
        Action(0, "discard", tile("1m")), Action(0, "angang", tile("5p")),
        Action(0, "jiagang", tile("7s")), Action(0, "hu")])
    bs = view.buttons(st)
    assert [b.action for b in bs] == ["hu", "gang", "gang", "pass"]
    assert [b.data_tiles for b in bs[1:3]] == ["5555p", "7777s"]
    assert bs[-1].engine is None  # 过 on one's own turn only puts the offers away
    st.dismissed = True
    assert view.buttons(st) == []
    assert 'data-ui="offers"' in view.actions_html(st)  # and they can come back


def test_piao_confirmation_offers_hu_piao_and_cancel():
    obs = _obs_turn()
    st = view.TableState(lang="zh", obs=obs, scores=[0] * 4, hand_no=1, confirm_piao=True,
                         legal=[Action(0, "discard", obs.caishen), Action(0, "hu")])
    bs = view.buttons(st)
    assert [b.action for b in bs] == ["hu", "piao", "cancel"]
    assert bs[1].engine == Action(0, "discard", obs.caishen)
    assert "飘" in view.actions_html(st)


def _obs_turn() -> Observation:
    match = Match(seed=1)
    return replace(match.game.observation(0), phase="turn", turn=0, last_tile=None)


def test_text_is_escaped():
    match = Match(seed=1)
    st = view.TableState.of(match, lang="en", link='?seed=1&x="<script>')
    html = view.menu_html(st)
    assert "<script>" not in html and "&lt;script&gt;" in html and "&quot;" in html


def test_river_marks_the_last_discard_and_claimed_tiles():
    for _, st in states(5):
        last = st.obs.last_discard
        for seat in range(4):
            html = view.river_html(seat, st)
            river = st.obs.discards[seat]
            assert html.count('class="t ') == len(river)
            assert html.count("is-taken") == sum(1 for _, by in river if by is not None)
            assert ("is-last" in html) == (last is not None and last[0] == seat)


def test_melds_turn_the_claimed_tile_toward_its_giver():
    st = view.TableState.of(Match(seed=1), lang="en")
    # seat 0 claimed from its left (seat 3): the turned tile comes first
    left = view.meld_html(Meld("peng", (4, 4, 4), 3, 4), 0, st)
    across = view.meld_html(Meld("peng", (4, 4, 4), 2, 4), 0, st)
    right = view.meld_html(Meld("peng", (4, 4, 4), 1, 4), 0, st)
    rots = [re.findall(r'class="t (r\d+)', h) for h in (left, across, right)]
    assert rots == [["r270", "r0", "r0"], ["r0", "r270", "r0"], ["r0", "r0", "r90"]]
    # the seat to the right (angle 270) turns everything by its own angle
    assert re.findall(r'class="t (r\d+)', view.meld_html(Meld("chi", (0, 1, 2), 0, 0), 1, st)) \
        == ["r180", "r270", "r270"]
    kong = view.meld_html(Meld("angang", (5, 5, 5, 5), None, None), 0, st)
    assert kong.count("t--back") == 2


# ---------- the result panel ----------


def _finished(seed: int) -> Match:
    return play(Match(seed=seed), 2000, seed)


def test_result_panel_of_a_win_shows_patterns_flowers_formula_and_payments():
    match = next(m for m in (_finished(s) for s in range(30))
                 if m.game.result.winner is not None and m.game.result.evaluation.flower_items)
    for lang in ("zh", "en"):
        st = view.TableState.of(match, lang=lang)
        html = view.result_html(st)
        parse(html)
        ev = match.game.result.evaluation
        assert 'data-testid="hand-result"' in html and 'data-result="win"' in html
        assert 'data-action="next-hand"' in html and 'data-action="new-match"' in html
        assert 'data-ui="view-table"' in html  # 看牌桌: the panel aside, the table to read
        assert ev.formula(lang) in re.sub(r"<[^>]+>", "", html)  # 2^n set as 2<sup>n</sup>
        assert html.count('class="pay__row') == 4
        assert html.count("tg--set") >= len(ev.groups)
        assert "is-win" in html
        for _, count, _ in ev.flower_items:
            assert f"×{count}" in html
        assert ("平胡" in html) == (not ev.patterns)
        # the 花 total is the sum of its rows (底花 included), as the formula uses it
        box = html[html.index(st.tr("flowers_title")):]
        box = box[:box.index("</section>")]
        total = int(re.search(r"\d+", box[:box.index("</h3>")]).group())
        rows = [int(re.search(r"\d+", v).group())
                for v in re.findall(r'class="row__val">([^<]*)<', box)]
        assert total == sum(rows) == ev.base + ev.flowers


def test_result_rows_name_the_reason_for_each_payment():
    st = view.TableState.of(_finished(1), lang="en")
    st.result = view.ResultInfo(winner=2, payments=[-36, 0, 36, 0],
                                reasons=["rob", "", "winner", ""],
                                evaluation=st.result.evaluation if st.result else None,
                                robbed=0, win_by="rob", scores=[-36, 0, 36, 0])
    html = view.result_html(st)
    assert "抢杠" in html and "kong robbed" in html
    assert "−36" in html and "+36" in html


def test_drawn_hand_shows_chouzhuang():
    st = view.TableState.of(Match(seed=1), lang="zh")
    st.result = view.ResultInfo(None, [0, 0, 0, 0], [""] * 4, None, None, "")
    html = view.result_html(st)
    assert "臭庄" in html and 'data-result="draw"' in html
    assert html.count('class="pay__row') == 4


def test_event_notes_never_name_a_bots_draw():
    match = Match(seed=3)
    for _ in range(200):
        game = match.game
        if game.over:
            break
        seat = game.to_move()[0]
        bot = Bot("normal", seat)
        events = match.apply(bot.choose(game.observation(seat), game.legal_actions(seat)).action)
        bubbles, lines = view.event_notes(events, "en")
        draws = [e for e in events if e["type"] == "draw" and e["seat"] != 0]
        for e in draws:
            if not any(x["type"] in ("discard", "flower", "kong", "claim") and
                       x.get("tile") == e["tile"] for x in events):
                assert all(i18n.tile_label(e["tile"], "en") not in line for line in lines)


# ---------- URL parameters ----------


@pytest.mark.parametrize("search,expected", [
    ("", Params(seed=77, seed_given=False)),
    ("?seed=12", Params(seed=12, seed_given=True)),
    ("?seed=abc&lang=EN&speed=fast", Params(seed=77, lang="en", speed="fast")),
    ("?lang=fr&speed=warp&bots=hard", Params(seed=77, level="hard")),
    ("?seed=99999999999999999999", Params(seed=77)),
])
def test_parse_params(search, expected):
    assert parse_params(search, fallback_seed=77) == expected


def test_query_round_trips():
    p = Params(seed=5, seed_given=True, lang="en", speed="fast", level="hard")
    assert parse_params(p.query()) == p
    assert Params(seed=5).query() == "?seed=5"


def test_only_what_just_arrived_animates():
    match = Match(seed=1)
    seen = set()
    bots = [Bot("normal", s) for s in range(4)]
    while not match.game.over and len(seen) < 3:
        game = match.game
        seat = game.to_move()[0]
        events = match.apply(bots[seat].choose(game.observation(seat),
                                               game.legal_actions(seat)).action)
        fresh = view.fresh_events(events)
        st = view.TableState.of(match, lang="zh", fresh=fresh)
        for kind, seats in fresh.items():
            for s in seats:
                if s == 0 and kind == "draw":
                    continue  # the player's own draw is shown apart in the hand instead
                html = view.opponent_html(s, st) if s else view.render_all(st)["me-plate"] + \
                    view.render_all(st)["me-melds"]
                if kind == "draw" and st.obs.hand_counts[s] == 0:
                    continue
                marker = {"meld": 'class="meld is-new"', "draw": 'class="back is-new"',
                          "flower": " is-new\"><img"}[kind]
                assert html.count(marker) == 1, (kind, s)
                seen.add(kind)
        plain = view.TableState.of(match, lang="zh")
        assert all("is-new" not in html for html in view.render_all(plain).values())
    assert seen >= {"draw"}


def test_a_friends_room_table_offers_no_new_match_and_no_second_room():
    """In a room (names on the plates) the match is the room's: no 新比赛 in the menu or the
    result, no 和朋友玩; a table of one's own has both."""
    from sxmj.bots import Bot
    from sxmj.match import Match
    from sxmj.ui.table import view as table_view
    from sxmj.ui.table.result import hand as result_view
    from sxmj.ui.table.state import TableState

    m = Match(seed=1)
    bot = Bot("normal", 1)
    while not m.game.over:
        s = m.game.to_move()[0]
        m.apply(bot.choose(m.game.observation(s), m.game.legal_actions(s)).action)
    room = TableState.of(m, lang="en", names=("", "Ann", "", "Bo"))
    alone = TableState.of(m, lang="en")
    for st, shown in ((room, False), (alone, True)):
        menu = table_view.menu_html(st)
        assert ('data-action="new-match"' in menu) is shown
        assert ('data-testid="friends-create"' in menu) is shown
        assert ('data-action="new-match"' in result_view.result_html(st)) is shown
    assert "Ann" in table_view.render_all(room)["seat-1"]


def test_a_held_table_says_it_waits_instead_of_a_bot_thinking():
    # behind the welcome card the bots wait: "老陈思考中…" under it was not true
    seed = next(s for s in range(1, 200) if Match(seed=s).game.dealer != 0)
    match = Match(seed=seed)
    for lang in ("zh", "en"):
        free = view.status_text(view.TableState.of(match, lang=lang))
        held = view.status_text(view.TableState.of(match, lang=lang, held=True))
        assert held != free and held == i18n.tr(lang, "status_held")
        assert free == i18n.tr(lang, "status_thinking",
                          name=view.TableState.of(match, lang=lang).name(match.game.turn))
