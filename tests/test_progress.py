"""Progress a new player can feel (issue 27, item 9), and the words of the phone fixes
(items 5 and 8), under CPython.

- The first title comes within a first evening: seed 002's thresholds exactly (RULES §11), 20
  rank points for each point won and every finished match its place's points (a losing first
  match is never "+0").
- The match summary says what improved (a new title, a first match or win, a best place,
  hand or win rate), or what the points brought closer.
- The profile explains how rank points add up and lists the titles with their thresholds.
- A first win is celebrated: a fanfare cue, a ribbon on the call, a line on the result.
- A 财神's caption sits under its set in the flow (never under one tile, where two ran into
  each other); English never says "1 kinds" or "2^1".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sxmj.bots import Bot
from sxmj.match import Match
from sxmj.ranks import (
    PLACE_POINTS,
    RANK_POINTS_PER_POINT,
    RANKS,
    hand_points,
    match_points,
    rank_of,
)
from sxmj.rules import Options
from sxmj.scoring import Evaluation
from sxmj.ui.i18n import tr
from sxmj.ui.markup import reading_sets
from sxmj.ui.pages.hand_cards import TileCtx
from sxmj.ui.pages.judge import judge
from sxmj.ui.table.result import match as match_summary
from sxmj.ui.table.result import reveal
from sxmj.ui.table.result.hand import result_html
from sxmj.ui.table.settings import tabs as settings_tabs
from sxmj.ui.table.sound import CUES, SoundSettings, celebration_plan
from sxmj.ui.table.state import TableState
from sxmj.ui.table.storage.saved import Profile


def played(seed: int, match_hands: int = 1, level: str = "easy") -> Match:
    """A match of ``seed`` played to its end: the player by ``level``, three normal bots."""
    m = Match(seed=seed, options=Options(match_hands=match_hands))
    bots = [Bot(level, seed)] + [Bot("normal", seed * 4 + s) for s in (1, 2, 3)]
    while True:
        while not m.game.over:
            g = m.game
            seat = g.to_move()[0]
            m.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
        if m.finished:
            return m
        m.next_hand()


def counted(m: Match, profile: Profile | None = None) -> Profile:
    p = profile or Profile()
    for i in range(len(m.results)):
        p.add_hand(m, i)
    p.add_match(m)
    return p


# ---------- the first title within a first evening ----------


def test_the_thresholds_are_exactly_seed_002s():
    # RULES §11: "thresholds exactly as in the table in seed 002"
    seed = (Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("002_*.txt")
    table = {}
    for path in seed:
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.fullmatch(r"(\d+) (\S+) (\d+)", line.strip())
            if m:
                table[int(m[1])] = (m[2], int(m[3]))
    if table:  # the seeds sit beside the repository on the maintainers' machines
        assert [(zh, floor) for floor, (zh, _) in RANKS] == [table[n] for n in sorted(table)]
    assert len(RANKS) == 38
    assert [floor for floor, _ in RANKS[:3]] == [0, 2000, 6000]
    assert RANKS[6] == (42000, ("木骰6级", "Wood Dice 6"))
    assert RANKS[-1] == (1350000, ("王冠", "Crown"))
    floors = [floor for floor, _ in RANKS]
    assert floors == sorted(set(floors))  # each title needs more than the one before
    assert rank_of(1999).title_zh == "菜鸟" and rank_of(2000).title_zh == "木骰1级"


def test_every_finished_match_earns_its_place_points_a_lost_one_too():
    assert PLACE_POINTS == (2000, 1200, 800, 400) and RANK_POINTS_PER_POINT == 20
    assert match_points([-12, -36, 0], place=4) == 400  # a losing first match: +400, not +0
    assert match_points([36, -12], place=1) == 2720
    assert hand_points(36) == 720 and hand_points(-36) == 0
    m = played(1, match_hands=2)
    p = counted(m)
    won = sum(20 * max(0, r.payments[0]) for r in m.results)
    assert p.points == won + PLACE_POINTS[m.places()[0] - 1] == match_summary.points_won(m)
    assert p.points > 0


def test_a_novice_reaches_the_first_title_in_a_first_session():
    # an easy bot stands in for a new player (who has the assist, a hard bot's advice):
    # three 8-hand matches, about an hour
    p = Profile()
    for seed in (1, 2, 3):
        counted(played(seed, match_hands=8), p)
    assert p.rank.level >= 2, p.points  # 木骰1级 or better


# ---------- the match summary says what improved ----------


def test_a_first_match_says_it_and_what_it_brought():
    m = played(1, match_hands=2)
    p = counted(m)
    kinds = [k for k, _ in match_summary.improvements(m, p)]
    assert "better_first_match" in kinds
    html = match_summary.summary_html(m, p, "en")
    assert 'data-testid="match-better"' in html and "What improved" in html
    assert "Your first match" in html


def test_a_better_place_hand_and_rate_are_named():
    m1, m2 = played(1, match_hands=2), played(5, match_hands=2, level="hard")
    p = counted(m1)
    before = Profile(**{**p.__dict__, "places": list(p.places)})
    p = counted(m2, p)
    found = dict(match_summary.improvements(m2, p))
    if m2.places()[0] < min(i + 1 for i, n in enumerate(before.places) if n):
        assert found["better_place"]["n"] == m2.places()[0]
    rate_before = round(100 * before.wins / before.hands)
    wins = sum(r.winner == 0 for r in m2.results)
    if wins and round(100 * p.wins / p.hands) > rate_before:
        assert found["better_rate"] == {"before": rate_before,
                                        "now": round(100 * p.wins / p.hands)}
    assert "better_first_match" not in found


def test_nothing_improved_still_says_what_the_points_brought():
    m = played(1, match_hands=2)
    best = {"gain": 999, "fan": 3, "patterns": [], "share": 333, "seed": 1, "hand": 1}
    veteran = Profile(points=20000, net=900, hands=100, wins=90, best=best, matches=10,
                      places=[10, 0, 0, 0])
    p = counted(m, veteran)  # nothing in this match beats a veteran's record
    assert [k for k, _ in match_summary.improvements(m, p)] == []
    html = match_summary.improvements_html(m, p, "zh")
    assert 'data-kind="none"' in html and "积分" in html


def test_a_table_that_counts_nothing_claims_nothing():
    m = played(1, match_hands=2)
    assert match_summary.improvements(m, Profile()) == []  # a guest's table: not counted


def test_a_new_title_is_named_in_both_languages():
    m = played(1, match_hands=2)
    p = counted(m, Profile(points=1999 - match_summary.points_won(m) + 1))
    found = dict(match_summary.improvements(m, p))
    assert found["better_rank"]["title"] == ("木骰1级", "Wood Dice 1")
    assert "新头衔：木骰1级" in match_summary.improvements_html(m, p, "zh")
    assert "A new title: Wood Dice 1 (木骰1级)!" in match_summary.improvements_html(m, p, "en")


# ---------- the profile explains the thresholds ----------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_profile_explains_how_points_add_up_and_lists_the_titles(lang):
    html = settings_tabs.profile_html(Profile(points=3000), lang)
    assert 'data-testid="rank-rules"' in html
    note = tr(lang, "profile_note", per=20, p1=2000, p2=1200, p3=800, p4=400)
    assert note.replace("'", "&#x27;") in html
    rows = re.findall(r'<tr data-level="(\d+)"', html)
    assert rows[:4] == ["2", "3", "4", "5"]  # the player's title and the next three
    assert len(rows) == 4 + len(RANKS)  # then all of them behind a disclosure
    assert html.count('class="is-here"') == 2 and "<details" in html
    assert ">6000</td>" in html and ">1350000</td>" in html


# ---------- a first win is celebrated ----------


def test_a_first_win_has_a_fanfare_a_ribbon_and_a_line():
    assert "first-win" in CUES
    assert celebration_plan(SoundSettings(), hidden=False).names() == ["first-win"]
    assert celebration_plan(SoundSettings(on=False), hidden=False).empty
    m = next(m for m in (played(s) for s in range(1, 40)) if m.results[0].winner == 0)
    for lang, words in (("zh", "第一次胡牌"), ("en", "Your first win")):
        st = TableState.of(m, lang=lang, first_win=True)
        call = reveal.call_html(st)
        assert 'data-testid="first-win"' in call and words in call and "call--first" in call
        assert 'data-testid="first-win-note"' in result_html(st)
        plain = TableState.of(m, lang=lang)
        assert "first-win" not in reveal.call_html(plain) + result_html(plain)


# ---------- the words (items 5 and 8) ----------


def test_a_wilds_caption_is_under_its_set_never_under_one_tile():
    j = judge({"hand": "9s9s3m456m789m123p55p", "caishen": "9s", "win_tile": "5p"})
    ev = j.evaluation
    assert isinstance(ev, Evaluation)
    sets, _ = reading_sets(ev, TileCtx("en", ev.caishen), lambda t: f"T{t}")
    noted = [s for s in sets if "tg--noted" in s]
    assert noted and all('class="t__note"' not in s for s in sets)
    for s in noted:  # one caption per set, after its tiles, naming what each wild stands for
        assert s.count('class="tg__note"') == 1
        assert s.index('class="tg__tiles"') < s.index('class="tg__note"')
        assert re.search(r'class="tg__note">as T\d+', s)


@pytest.mark.parametrize("key,values,text", [
    ("waits_count", {"n": 1, "s": ""}, "1 kind"),
    ("waits_count", {"n": 2, "s": "s"}, "2 kinds"),
    ("assist_waits", {"k": 1, "n": 3, "s": ""}, "waiting on 1 kind, 3 still unseen"),
    ("distance", {"n": 1, "s": ""}, "1 useful draw from ready"),
    ("wall_left", {"n": 1, "s": ""}, "1 tile left"),
])
def test_english_counts_agree_with_their_number(key, values, text):
    assert tr("en", key, **values) == text


def test_the_bots_reason_for_passing_speaks_to_the_player():
    from sxmj.messages import render
    text = render("bot.pass_better", {}, "en")
    assert "its own" not in text and "wall" in text
