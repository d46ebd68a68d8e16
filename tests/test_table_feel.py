"""The table as players expect it (issue 20), the pure parts under CPython: a tile raised
by a first tap and what its discard leaves, the end of a hand (the call, every hand
revealed, the player's recap), the match summary, the confirmation and the welcome card."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from sxmj.bots import Bot
from sxmj.game import Action
from sxmj.match import Match
from sxmj.ranks import PLACE_POINTS
from sxmj.rules import Options
from sxmj.simulate import play_match_hand
from sxmj.tiles import NUM_PLAYING, code
from sxmj.ui import params
from sxmj.ui.table import bot_loop, overlay, welcome
from sxmj.ui.table.assist import hand_figures
from sxmj.ui.table.inputs import touch
from sxmj.ui.table.result import match as match_summary
from sxmj.ui.table.result import reveal
from sxmj.ui.table.storage.saved import Profile, Settings, load_profile, load_settings
from sxmj.ui.table.view import TableState


def played(seed: int, hands: int = 1, **options) -> Match:
    m = Match(seed=seed, options=Options(**options))
    bots = [Bot("easy", seed=s) for s in range(4)]
    for h in range(hands):
        if h:
            m.next_hand()
        play_match_hand(m, bots)
    return m


def first_turn(seed: int) -> Match:
    """A match at the player's first own turn with discards."""
    m = Match(seed=seed)
    bots = [Bot("normal", seed=s) for s in range(4)]
    while True:
        g = m.game
        if g.phase == "turn" and g.turn == 0 and any(
                a.kind == "discard" for a in g.legal_actions(0)):
            return m
        seat = g.to_move()[0]
        m.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)


# ------------------------------------------------------------------ 1. touch


@pytest.mark.parametrize("mode,pointer,two", [
    ("auto", "touch", True), ("auto", "pen", True), ("auto", "mouse", False),
    ("auto", "", False), ("one", "touch", False), ("two", "mouse", True),
    ("two", "", False),  # a key's click never waits for a second one
])
def test_two_taps_by_setting_and_pointer(mode, pointer, two):
    assert touch.two_taps(mode, pointer) is two


def test_the_setting_is_kept_and_a_bad_one_falls_back():
    s = Settings(tap="two")
    back, problem = load_settings(s.to_json())
    assert back.tap == "two" and problem is None
    bad = s.to_json().replace('"two"', '"three"')
    back, problem = load_settings(bad)
    assert back.tap == "auto" and "tap" in problem.detail


def test_the_preview_says_what_the_discard_leaves_as_the_assist_would():
    m = first_turn(3)
    obs = m.game.observation(0)
    t = next(a.tile for a in m.game.legal_actions(0) if a.kind == "discard")
    tiles = list(obs.playing_hand)
    tiles.remove(t)
    d, waits, _, _ = hand_figures(tiles, 4 - len(obs.melds[0]), obs.caishen, obs.unseen())
    text = touch.preview_text(obs, t, "zh", assist=True)
    assert text.startswith("再点一下打出")
    assert (f"差 {d} 张" in text) if d else ("听" in text)
    en = touch.preview_text(obs, t, "en", assist=False)
    assert en.startswith("Tap again to discard") and "·" not in en  # no assist: no figures


def test_a_swipe_needs_a_finger_moved_up_on_a_tile():
    s = touch.Swipe()
    s.down("5m", 2, 500, "mouse")
    assert s.up(400) is None  # a mouse drag is not a swipe
    s.down("5m", 2, 500, "touch")
    assert s.up(490) is None  # too short
    s.down(None, None, 500, "touch")
    assert s.up(400) is None  # not on a tile
    s.down("5m", 2, 500, "touch")
    assert s.up(450) == ("5m", 2)
    assert s.up(400) is None  # once


# ------------------------------------------------------------------ 2–3. the end of a hand


def test_the_call_of_a_win_and_of_a_drawn_hand():
    m = played(5)
    st = TableState.of(m, lang="zh")
    html = reveal.call_html(st)
    assert 'data-testid="win-call"' in html and 'data-ui="see-result"' in html
    if m.game.result.winner is None:
        assert "臭庄" in html and 'data-result="draw"' in html
    else:
        assert html.count("is-win") == 1
    draw = played(8, reserved_tiles=40)
    assert draw.game.result.winner is None
    assert "臭庄" in reveal.call_html(TableState.of(draw, lang="zh"))
    assert "臭庄" in reveal.call_html(TableState.of(draw, lang="en"))


def test_the_reveal_has_four_children_each_with_its_seat():
    m = played(5)
    st = TableState.of(m, lang="en")
    hands = [m.game.concealed(s) for s in range(4)]
    html = reveal.reveal_html(st)
    inner = re.search(r'data-testid="hand-reveal">(.*)</div></section>', html).group(1)
    rows = re.findall(r'<div class="reveal__row[^"]*" data-seat="(\d)"', inner)
    assert rows == ["0", "1", "2", "3"]
    for seat in range(4):
        row = html.split(f'data-seat="{seat}"')[1].split('data-seat=')[0]
        assert row.count('class="t') >= len(hands[seat])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_recap_names_the_waits_or_the_distance(lang):
    for seed in range(1, 30):
        m = played(seed)
        if m.game.result.winner == 0:
            continue
        st = TableState.of(m, lang=lang)
        hand = m.game.concealed(0)
        text = reveal.recap(st, hand)
        playing = [t for t in hand if t < NUM_PLAYING]
        if len(playing) % 3 != 1:
            continue
        obs = st.obs
        d, waits, any_tile, _ = hand_figures(playing, 4 - len(obs.melds[0]), obs.caishen,
                                             [0] * 42)
        if any_tile:
            continue
        if d == 0:
            assert text.startswith("你听：" if lang == "zh" else "You were waiting on")
        else:
            assert str(d) in text and ("未听牌" in text or "not ready" in text.lower())
        return
    pytest.fail("no hand the player lost")


def test_every_speed_has_a_bot_delay_and_an_end_pause():
    assert list(bot_loop.DELAYS) == list(reveal.PAUSE) == list(params.SPEEDS)
    assert bot_loop.DELAYS["slow"] > bot_loop.DELAYS["normal"] > bot_loop.DELAYS["fast"] == 0
    assert reveal.PAUSE["slow"] > reveal.PAUSE["normal"] > reveal.PAUSE["fast"] > 0


def test_the_pause_opens_the_panel_after_its_time_or_a_tap(monkeypatch):
    drawn = []
    e = reveal.Ending(lambda: drawn.append(e.pausing))
    assert asyncio.run(e.wait("fast")) is False  # nothing ended: no pause
    e.start()
    assert e.pausing and not e.peek
    monkeypatch.setitem(reveal.PAUSE, "test", 0.01)
    assert asyncio.run(e.wait("test")) is True and not e.pausing and drawn == [False]
    e.start()
    e.skip()
    assert not e.pausing and drawn == [False, False]


def test_the_regions_while_pausing_and_peeking():
    m = played(5)
    st = TableState.of(m, lang="zh")
    e = reveal.Ending(lambda: None)

    def placed() -> dict[str, str]:
        drawn = {"panel": "PANEL", "actions": "ACTIONS", "result": "CARD"}
        e.place(st, drawn)
        return drawn

    e.start()  # the call in the centre panel's place, nothing over the revealed hands
    drawn = placed()
    assert 'data-testid="win-call"' in drawn["panel"] and drawn["result"] == ""
    assert drawn["actions"] == "ACTIONS"
    e.pausing = False
    assert placed() == {"panel": "PANEL", "actions": "ACTIONS", "result": "CARD"}
    e.toggle_peek()  # the bar back to the result in the action bar's place
    drawn = placed()
    assert 'data-testid="peek"' in drawn["actions"] and "hidden>CARD" in drawn["result"]
    assert drawn["panel"] == "PANEL"


# ------------------------------------------------------------------ 5. the match summary


def test_totals_places_and_the_best_hand():
    m = played(2, hands=4, match_hands=4)
    assert m.finished
    totals = match_summary.totals(m)
    assert [t.score for t in totals] == m.scores
    assert sum(t.wins for t in totals) == sum(r.winner is not None for r in m.results)
    for t in totals:
        won = [r.evaluation for r in m.results if r.winner == t.seat]
        assert t.fan == sum(ev.fan for ev in won)
        assert t.hua == sum(ev.base + ev.flowers for ev in won)
    best = match_summary.best_hand(m)
    gains = [r.payments[r.winner] for r in m.results if r.winner is not None]
    assert (best is None) == (not gains)
    if best:
        assert best.gain == max(gains)
    # what the won hands earned, and the place's points (issue 27: no match is worth 0)
    won = sum(20 * max(0, r.payments[0]) for r in m.results)
    assert match_summary.points_won(m) == won + PLACE_POINTS[m.places()[0] - 1]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_summary_markup(lang):
    m = played(2, hands=2, match_hands=2)
    p = Profile()
    for i in range(2):
        p.add_hand(m, i)
    html = match_summary.summary_html(m, p, lang)
    assert 'data-testid="match-summary"' in html and 'data-ui="export"' in html
    assert html.count("<tr class=\"summary__row") == 4
    assert 'data-testid="match-rank"' in html


def test_a_rooms_summary_names_its_players():
    m = played(2, hands=2, match_hands=2)
    names = ["", "Ann <b>", "Bo", "Cy"]
    html = match_summary.summary_html(m, Profile(), "en", lambda s: names[s] or "You")
    for n in ("You", "Ann &lt;b&gt;", "Bo", "Cy"):  # escaped, each on its row
        assert html.count(f"</b>{n}</th>") == 1, n
    assert "South" not in html.split("</thead>")[1].split("</table>")[0]


@pytest.mark.parametrize(("hands", "kicker"), [(1, "1 hand played"), (2, "2 hands played")])
def test_the_summary_counts_its_hands_in_good_english(hands, kicker):
    m = played(2, hands=hands, match_hands=hands)
    p = Profile()
    for i in range(hands):
        p.add_hand(m, i)
    assert f'class="result__hand-no">{kicker}</p>' in match_summary.summary_html(m, p, "en")


def test_the_profile_counts_matches_places_and_points_won():
    m = played(2, hands=2, match_hands=2)
    p = Profile()
    for i in range(2):
        p.add_hand(m, i)
    won = sum(20 * max(0, r.payments[0]) for r in m.results)
    assert p.points == won  # losses never take rank points away
    p.add_match(m)
    assert p.matches == 1 and sum(p.places) == 1 and p.places[m.places()[0] - 1] == 1
    assert p.points == match_summary.points_won(m) == won + PLACE_POINTS[m.places()[0] - 1]
    back, problem = load_profile(p.to_json())
    assert problem is None and back == p
    old, problem = load_profile('{"v": 1, "points": 5, "hands": 2, "wins": 1}')
    assert problem is None and old.matches == 0 and old.places == [0, 0, 0, 0]
    assert old.points == 100  # version 1 counted one rank point per point won
    assert json.loads(old.to_json())["v"] == 2
    bad, problem = load_profile('{"v": 1, "places": [1, 2]}')
    assert problem is not None and problem.kind == "invalid"


# ------------------------------------------------------------------ 4, 6. the dialogs


def test_the_confirmation_says_what_ends_and_keeps_the_match_first():
    html = overlay.confirm_html(3, 8, -12, "zh")
    assert 'data-testid="confirm"' in html and "第 3 局" in html and "-12" in html
    assert html.index('data-ui="confirm-no"') < html.index('data-ui="confirm-yes"')
    assert "autofocus" in html.split('data-ui="confirm-yes"')[0]
    assert 'data-testid="undo"' in overlay.undo_html("en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_welcome_card_names_the_seat_the_dealer_and_the_caishen(lang):
    m = Match(seed=2)
    st = TableState.of(m, lang=lang)
    html = welcome.welcome_html(st)
    assert 'data-testid="welcome"' in html and 'data-testid="welcome-hide"' in html
    assert "./learn.html" in html and "#scenarios" in html
    assert f"static/tiles/{code(m.game.caishen)}.svg" in html
    assert ("财神" in html) and ("自摸" in html)


@pytest.mark.parametrize("search,stored,hands,shown", [
    ("", None, 0, True), ("?lang=en", None, 0, True), ("?seed=3", None, 0, False),
    ("?scenario=baotou", None, 0, False), ("", welcome.HIDDEN, 0, False), ("", "", 0, True),
    ("", None, 1, False),
])
def test_the_welcome_is_for_a_first_plain_visit(search, stored, hands, shown):
    assert welcome.wanted(search, stored, hands) is shown
    assert welcome.wanted(search, stored, hands, returning=True) is False  # data was stored



# ------------------------------------------------------------------ 7, 10. words players read


def test_tiles_are_named_as_players_say_them():
    from sxmj.tiles import parse_tiles, tile_name
    from sxmj.ui.i18n import NBSP, tiles_words, unbroken
    assert tiles_words(parse_tiles("789s"), "zh") == "七八九索"
    assert tiles_words(parse_tiles("789s"), "en") == f"7-8-9{NBSP}Bamboo"
    assert tiles_words(parse_tiles("123m"), "en") == f"1-2-3{NBSP}Characters"
    assert tile_name(parse_tiles("1m")[0], "en") == "1 Character"
    assert tile_name(parse_tiles("1p")[0], "en") == "1 Dot"
    assert tile_name(parse_tiles("2p")[0], "en") == "2 Dots"
    assert unbroken("keeps 3, 6 Dots and East Wind") == \
        f"keeps 3,{NBSP}6{NBSP}Dots and East{NBSP}Wind"


def test_suggestions_and_replays_name_a_chow_in_words():
    from sxmj.ui.table.comforts import action_words, suggestion_words
    chi = Action.parse("0 chi 789s")
    assert suggestion_words(chi, "zh") == "吃 七八九索"
    assert "789s" not in suggestion_words(chi, "en")
    assert action_words(Action.parse("1 chi 123m"), "zh") == "阿福：吃 一二三万"


def test_the_robbed_pair_is_named_in_words():
    from sxmj.messages import render
    assert render("nowin.rob_pair", {"tname": 13}, "zh").startswith("不能抢杠：被抢的五筒")
    assert "5 Dots" in render("nowin.rob_pair", {"tname": 13}, "en")
