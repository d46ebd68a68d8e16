"""The daily challenge's page parts, pure: its history on the device, its URL parameter, its
cards and share text, the embed's daily mode."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from sxmj import daily
from sxmj.ui.pages.embed import render
from sxmj.ui.params import parse_params, refusal_line
from sxmj.ui.table.daily.card import DailyView, banner_html, result_html, share_text
from sxmj.ui.table.daily.history import DayResult, History, Live, load_history, load_live
from sxmj.ui.table.daily.session import future_refusal

DAY = "2026-11-29"
days = st.dates().filter(lambda d: d.year >= 2020).map(lambda d: d.isoformat())
marks = st.lists(st.sampled_from(daily.MARKS), min_size=4, max_size=4)


# ---------------------------------------------------------------- history


@given(st.dictionaries(days, st.tuples(st.integers(-500, 500), marks), max_size=20),
       st.integers(0, 50))
def test_history_round_trip(results: dict, practice: int) -> None:
    h = History(practice=practice)
    for day, (score, m) in results.items():
        h.begun.add(day)
        h.finish(day, score, m, counted=True)
        h.set_par(day, score - 3)
    again, problem = load_history(h.to_json())
    assert problem is None and again == h


@given(st.one_of(st.text(max_size=80), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4), max_leaves=12)
    .map(json.dumps)))
def test_damaged_history_is_named_never_raised(text: str) -> None:
    h, problem = load_history(text)
    assert isinstance(h, History)
    if problem is not None:
        assert problem.what == "daily" and h == History()
    live, problem = load_live(text)
    assert live is None or isinstance(live, Live)


def test_a_day_counts_once_and_only_on_its_day() -> None:
    h = History()
    assert not h.begin("2026-11-28", today=DAY)  # a past day: practice
    assert h.begin(DAY, today=DAY)
    assert not h.counts(DAY, today=DAY)  # begun: a restart is practice
    h.finish(DAY, 20, ["won", "lost", "lost", "drawn"], counted=True)
    h.finish(DAY, 90, ["big", "big", "big", "big"], counted=False)
    assert h.days[DAY].score == 20 and h.practice == 1
    h.set_par(DAY, 7)
    assert h.days[DAY].par == 7 and h.best() == (DAY, h.days[DAY])


def test_the_streak_counts_days_in_a_row() -> None:
    h = History()
    for day in ("2026-11-26", "2026-11-27", "2026-11-28", "2026-11-24"):
        h.days[day] = DayResult(1, [])
    assert h.streak("2026-11-28") == 3
    assert h.streak("2026-11-29") == 3  # today still open
    assert h.streak("2026-11-30") == 0


def test_a_live_play_round_trips_and_a_bad_one_is_named() -> None:
    live = Live(DAY, daily.encode_moves([1, 2, 3]), True)
    assert load_live(live.to_json()) == (live, None)
    bad, problem = load_live('{"v":1,"day":"2026-02-30","moves":"1A","counted":true}')
    assert bad is None and problem is not None and problem.what == "daily"


# ---------------------------------------------------------------- the URL


def test_the_daily_parameter() -> None:
    assert parse_params(f"?daily={DAY}").daily == DAY
    p = parse_params("?daily=2026-13-01")
    assert p.daily == "" and [r.param for r in p.refused] == ["daily"]
    r = future_refusal("2026-12-01", DAY)
    assert DAY in refusal_line(r, "en") and "2026-12-01" in refusal_line(r, "zh")


# ---------------------------------------------------------------- cards, share text


def view(par: int | None, counted: bool = True) -> DailyView:
    h = History()
    h.begin(DAY, DAY)
    h.finish(DAY, 11, ["won", "lost", "drawn", "big"], counted=True)
    return DailyView(DAY, DAY, [5, -9, 0, 15], ["won", "lost", "drawn", "big"], 4, par,
                     counted, h, f"https://example.org/sxmj/?daily={DAY}#m=1AB", 42, 4)


def test_the_result_card_holds_its_hooks() -> None:
    html = result_html(view(-3), "en")
    assert 'data-testid="daily-result"' in html and 'data-score="11"' in html
    assert 'data-par="-3"' in html and 'data-testid="daily-streak" data-streak="1"' in html
    assert html.count('data-testid="daily-review"') == 4
    share = re.search(r'data-testid="daily-share">([^<]*)<', html)
    assert share and DAY in share.group(1) and "+11" in share.group(1)
    assert "par -3" in share.group(1)
    pending = result_html(view(None), "zh")
    assert 'data-par=""' in pending and "daily-share" not in pending  # no par, no share yet
    practice = result_html(view(2, counted=False), "zh")
    assert 'data-practice="1"' in practice and 'data-testid="daily-practice"' in practice


@given(days, st.integers(-999, 999), st.integers(-999, 999), marks, st.sampled_from(["zh", "en"]))
def test_the_share_text_is_short_and_says_it_all(day, score, par, m, lang) -> None:
    link = f"https://u.github.io/sxmj/?daily={day}#m=1ABC"
    text = share_text(day, score, par, m, lang, link)
    lines = text.split("\n")
    assert len(lines) == 4 and lines[0].endswith(day) and lines[3] == link
    assert (f"{score:+d}" if score else "0") in lines[1]
    assert (f"{par:+d}" if par else "0") in lines[1]
    assert len(lines[2]) == 4  # one emoji per hand
    assert len(text) < 120 + len(link)


def test_the_banner_says_whether_the_play_counts() -> None:
    assert 'data-practice="0"' in banner_html(view(1), "zh")
    assert 'data-practice="1"' in banner_html(view(1, counted=False), "en")


# ---------------------------------------------------------------- embed.html?mode=daily


def test_the_embeds_daily_mode() -> None:
    e = render({"mode": "daily", "date": DAY}, "en", today="2026-12-03")
    assert e.error is None and f'data-day="{DAY}"' in e.html
    assert f"index.html?daily={DAY}&amp;lang=en" in e.html
    today = render({"mode": "daily"}, "zh", today="2026-12-03")
    assert 'data-day="2026-12-03"' in today.html
    assert render({"mode": "daily", "date": "2026-12-04"}, "zh", "2026-12-03").error == "date"
    assert render({"mode": "daily", "date": "soon"}, "en", "2026-12-03").error == "date"
    assert render({"mode": "daily", "seed": "4"}, "en", "2026-12-03").refused[0].param == "seed"
