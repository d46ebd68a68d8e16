"""What the daily challenge (每日挑战) shows: its banner over the table, its result card at
the match's end, the share text and the month's calendar. Pure markup.

Testing hooks: ``[data-testid="daily"]`` (the banner: ``data-day``, ``data-seed``,
``data-practice``), ``[data-testid="daily-result"]`` (``data-day``, ``data-score``,
``data-par``: empty while the par is worked out, ``data-practice``),
``[data-testid="daily-share"]`` (its text is the share text), ``[data-testid="daily-streak"]``
(``data-streak``), ``[data-testid="daily-calendar"]``.

>>> share_text("2026-11-29", 12, -3, ["won", "lost", "drawn", "big"], "en", "https://x/?daily=2026-11-29#m=1A")
'Shaoxing Mahjong daily 2026-11-29\\nMe +12, par -3\\n🀄🔻⚪🌟\\nhttps://x/?daily=2026-11-29#m=1A'
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass

from sxmj.ui.i18n import tr
from sxmj.ui.markup import esc
from sxmj.ui.table.daily.history import History

EMOJI = {"won": "🀄", "big": "🌟", "drawn": "⚪", "lost": "🔻"}  # one per hand, shared


def signed(n: int) -> str:
    """Points as players write them: +12, -3, 0."""
    return f"{n:+d}" if n else "0"


def share_text(day: str, score: int, par: int, marks: list[str], lang: str, link: str) -> str:
    """The share text: the day, your total and the par, one emoji per hand, the link."""
    return tr(lang, "daily_share_text", day=day, score=signed(score), par=signed(par),
              marks="".join(EMOJI[m] for m in marks), link=link)


@dataclass
class DailyView:
    """What the daily's markup needs: the day, today, the hands so far (each seat 0's
    points and mark), the hands in all, the par (None until known), whether this play
    counts, the history, the share link and the seed."""

    day: str
    today: str
    points: list[int]
    marks: list[str]
    total_hands: int
    par: int | None
    counted: bool
    history: History
    link: str
    seed: int
    hand_no: int = 1
    copy_status: str = ""

    @property
    def score(self) -> int:
        return sum(self.points)


def banner_html(v: DailyView, lang: str) -> str:
    """The strip over the table while a daily is played."""
    tag = tr(lang, "daily_counts" if v.counted else "daily_practice")
    return (f'<div class="daily-banner" data-testid="daily" data-day="{v.day}" '
            f'data-seed="{v.seed}" data-practice="{0 if v.counted else 1}">'
            f'<b class="daily-banner__title">{esc(tr(lang, "daily_banner", day=v.day))}</b>'
            f'<span class="daily-banner__hand">'
            f'{esc(tr(lang, "daily_banner_hand", n=v.hand_no, total=v.total_hands))}</span>'
            f'<span class="daily-tag daily-tag--{"counts" if v.counted else "practice"}">'
            f'{esc(tag)}</span></div>')


def result_html(v: DailyView, lang: str) -> str:
    """The result card at the daily's end: you against par, each hand (with its review one
    tap away), the share text and its copy button, the streak, the best day, the month."""
    say = lambda key, **kw: tr(lang, key, **kw)  # noqa: E731
    par = "" if v.par is None else str(v.par)
    if v.par is None:
        versus = f'<span class="daily-result__pending">{esc(say("daily_par_pending"))}</span>'
        par_text = say("daily_par_pending")
    else:
        gap = v.score - v.par
        versus = esc(say("daily_above", n=gap) if gap > 0 else
                     say("daily_below", n=-gap) if gap < 0 else say("daily_even"))
        par_text = signed(v.par)
    practice = "" if v.counted else (
        f'<p class="daily-result__practice" data-testid="daily-practice">'
        f'<span class="daily-tag daily-tag--practice">{esc(say("daily_practice"))}</span> '
        f'{esc(say("daily_practice_note"))}</p>')
    hands = []
    for i, (points, mark) in enumerate(zip(v.points, v.marks, strict=True)):
        n = i + 1
        hands.append(
            f'<li class="daily-hand daily-hand--{mark}" data-testid="daily-hand" '
            f'data-points="{points}" data-mark="{mark}">'
            f'<span class="daily-hand__n">{esc(say("daily_hand", n=n))}</span>'
            f'<span class="daily-hand__mark"><i class="daily-dot daily-dot--{mark}" '
            f'aria-hidden="true"></i>'
            f'{esc(say("daily_mark_" + mark))}</span>'
            f'<b class="daily-hand__points">{signed(points)}</b>'
            f'<button type="button" class="act act--small act--ghost" '
            f'data-ui="daily-review-{n}" data-testid="daily-review" '
            f'aria-label="{esc(say("daily_review_label", n=n))}">'
            f'<span class="act__label">{esc(say("daily_review"))}</span></button></li>')
    share = ""
    if v.par is not None:
        text = share_text(v.day, v.score, v.par, v.marks, lang, v.link)
        status = (f'<p class="daily-share__status" role="status">{esc(v.copy_status)}</p>'
                  if v.copy_status else "")
        share = (f'<section class="daily-share" aria-label="{esc(say("daily_share"))}">'
                 f'<pre class="daily-share__text" data-testid="daily-share">{esc(text)}</pre>'
                 f'<button type="button" class="act act--primary act--small" '
                 f'data-ui="daily-copy" data-testid="daily-copy"><span class="act__label">'
                 f'{esc(say("daily_copy"))}</span></button>{status}</section>')
    return (
        f'<section class="daily-result" data-testid="daily-result" data-day="{v.day}" '
        f'data-score="{v.score}" data-par="{par}" data-practice="{0 if v.counted else 1}" '
        f'aria-labelledby="daily-result-title">'
        f'<h3 id="daily-result-title">{esc(say("daily_result_title", day=v.day))}</h3>'
        f'<div class="daily-result__score">'
        f'<p><span>{esc(say("daily_you"))}</span><b>{signed(v.score)}</b></p>'
        f'<p><span>{esc(say("daily_par"))}</span><b>{esc(par_text)}</b></p>'
        f'<p class="daily-result__versus">{versus}</p></div>'
        f'<p class="daily-result__explain">{esc(say("daily_par_explain"))}</p>{practice}'
        f'<ol class="daily-result__hands">{"".join(hands)}</ol>{share}'
        f'{history_html(v, lang)}'
        f'<nav class="daily-result__links">'
        f'<a class="act act--ghost act--small" href="./{"?lang=en" if lang == "en" else ""}" '
        f'data-testid="daily-back"><span class="act__label">{esc(say("daily_back"))}</span></a>'
        f'</nav></section>')


def history_html(v: DailyView, lang: str) -> str:
    """The streak, the best day and the month of the day played, its days marked."""
    h = v.history
    streak = h.streak(v.today)
    best = h.best()
    best_line = ""
    if best is not None:
        day, r = best
        key = "daily_best" if r.par is None else "daily_best_par"
        best_line = (f'<p class="daily-history__best" data-testid="daily-best">'
                     f'{esc(tr(lang, key, day=day, score=signed(r.score), par=signed(r.par or 0)))}'
                     f'</p>')
    return (f'<section class="daily-history">'
            f'<p class="daily-history__streak" data-testid="daily-streak" data-streak="{streak}" '
            f'title="{esc(tr(lang, "daily_streak_label"))}">'
            f'{esc(tr(lang, "daily_streak", n=streak))}</p>{best_line}'
            f'{calendar_html(v.day, v.today, h, lang)}</section>')


def calendar_html(day: str, today: str, h: History, lang: str) -> str:
    """The month of ``day``: a grid from Monday, each counted day marked with its score."""
    year, month = int(day[:4]), int(day[5:7])
    title = tr(lang, "daily_calendar", year=year,
               month=tr(lang, "daily_months").split(",")[month - 1])
    heads = "".join(f'<span class="daily-cal__head" aria-hidden="true">{esc(c)}</span>'
                    for c in tr(lang, "daily_weekdays"))
    cells = []
    for week in calendar.Calendar(firstweekday=0).monthdatescalendar(year, month):
        for date in week:
            iso = date.isoformat()
            if date.month != month:
                cells.append('<span class="daily-cal__day daily-cal__day--out"></span>')
                continue
            r = h.days.get(iso)
            cls = ["daily-cal__day"]
            if r is not None:
                cls.append("is-played")
                if r.par is not None and r.score > r.par:
                    cls.append("is-above")
            if iso == today:
                cls.append("is-today")
            if iso == day:
                cls.append("is-this")
            label = iso if r is None else tr(lang, "daily_day_title", day=iso,
                                             score=signed(r.score),
                                             par="?" if r.par is None else signed(r.par))
            score = "" if r is None else f'<small>{signed(r.score)}</small>'
            cells.append(f'<span class="{" ".join(cls)}" title="{esc(label)}" '
                         f'aria-label="{esc(label)}">{date.day}{score}</span>')
    return (f'<div class="daily-cal" data-testid="daily-calendar">'
            f'<p class="daily-cal__title">{esc(title)}</p>'
            f'<div class="daily-cal__grid">{heads}{"".join(cells)}</div></div>')
