"""The end of a match: final scores and places, each player's wins, 番 and 花, the best hand,
and the player's rank progress (``[data-testid="match-summary"]``).

A match has ``Options.match_hands`` hands (8 by default, 0 endless; ``?hands=N`` for one
page). When its last hand ends the result panel opens with this summary on top, a button for
a new match and one to export the record. Pure: figures from the :class:`~sxmj.match.Match`,
markup like :mod:`sxmj.ui.table.view`.

>>> from sxmj.match import Match
>>> m = Match(seed=1)
>>> [t.place for t in totals(m)]
[1, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sxmj.ranks import RANKS, hand_points, match_points, rank_of
from sxmj.scoring import PATTERNS
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import seat_name, tr, wind_char
from sxmj.ui.markup import esc, signed
from sxmj.ui.table.comforts import rank_line
from sxmj.ui.table.state import TableState
from sxmj.ui.table.storage.saved import Profile


@dataclass(frozen=True)
class SeatTotals:
    """One player's match: score, place (ties share), wins and the 番 and 花 of those wins."""

    seat: int
    score: int
    place: int
    wins: int
    fan: int
    hua: int


@dataclass(frozen=True)
class Best:
    """The match's best hand: who won it, which hand (1-based), what it earned."""

    seat: int
    hand: int
    gain: int
    fan: int
    patterns: tuple[str, ...]


def totals(match: TableMatch) -> list[SeatTotals]:
    """Each seat's figures, in seat order."""
    places = match.places()
    out = []
    for seat in range(4):
        won = [r.evaluation for r in match.results if r.winner == seat and r.evaluation]
        out.append(SeatTotals(seat, match.scores[seat], places[seat], len(won),
                              sum(ev.fan for ev in won),
                              sum(ev.base + ev.flowers for ev in won)))
    return out


def best_hand(match: TableMatch) -> Best | None:
    """The win that earned most (the first of equals); None when nobody won."""
    best = None
    for i, r in enumerate(match.results):
        if r.winner is None or r.evaluation is None:
            continue
        gain = r.payments[r.winner]
        if best is None or gain > best.gain:
            best = Best(r.winner, i + 1, gain, r.evaluation.fan, tuple(r.evaluation.patterns))
    return best


def points_won(match: TableMatch, seat: int = 0) -> int:
    """The rank points ``seat`` won this match (:mod:`sxmj.ranks`: what its won hands earned,
    and its place's points once the match is over)."""
    gains = [r.payments[seat] for r in match.results]
    if not match.finished:
        return sum(hand_points(g) for g in gains)
    return match_points(gains, match.places()[seat])


def _patterns(ids: tuple[str, ...], lang: str) -> str:
    if not ids:
        return tr(lang, "plain_win")
    sep = "、" if lang == "zh" else ", "
    return sep.join(PATTERNS[p][0] if lang == "zh" else f"{PATTERNS[p][0]} {PATTERNS[p][1]}"
                    for p in ids if p in PATTERNS)


def rank_progress_html(profile: Profile, won: int, lang: str) -> str:
    """The player's rank, its bar, and what this match added (a rank-up says so)."""
    rank = profile.rank
    before = rank_of(max(0, profile.points - won))
    title = rank.title_zh if lang == "zh" else f"{rank.title_en} ({rank.title_zh})"
    pct = round(rank.progress * 100, 1)
    if rank.next_at is None:
        nxt = tr(lang, "rank_top")
    else:
        _, (zh, en) = RANKS[rank.level]
        nxt = tr(lang, "rank_next", n=rank.next_at - rank.points, title=zh if lang == "zh"
                 else en)
    up = (f'<b class="rank-line__up">{esc(tr(lang, "rank_up"))}</b>'
          if rank.level > before.level else "")
    return (f'<div class="summary__rank" data-testid="match-rank" data-points="{profile.points}"'
            f' data-won="{won}"><p class="summary__rank-title"><span class="rank-line__star" '
            f'aria-hidden="true">★</span> {esc(title)} {up}</p>'
            f'<div class="rank__bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" '
            f'aria-valuenow="{pct}" aria-label="{esc(nxt)}"><i style="width:{pct}%"></i></div>'
            f'<p class="summary__rank-note">'
            f'{esc(tr(lang, "match_rank", won=won, n=profile.points))} · {esc(nxt)}</p></div>')


def improvements(match: TableMatch, profile: Profile) -> list[tuple[str, dict[str, object]]]:
    """What this finished match improved for the player, as ``(key, values)`` of the string
    table: a new title, a first match or win, a best place, hand or win rate. ``profile``
    already counts the match; a profile that doesn't (a guest's table) gives nothing."""
    hands = len(match.results)
    wins = sum(1 for r in match.results if r.winner == 0)
    place = match.places()[0]
    won = points_won(match)
    if profile.matches < 1 or profile.hands < hands or profile.wins < wins or \
            profile.places[place - 1] < 1 or profile.points < won:
        return []
    before = dict(matches=profile.matches - 1, hands=profile.hands - hands,
                  wins=profile.wins - wins, points=profile.points - won)
    places = list(profile.places)
    places[place - 1] -= 1
    out: list[tuple[str, dict[str, object]]] = []
    rank = profile.rank
    if rank.level > rank_of(int(before["points"])).level:
        out.append(("better_rank", {"title": (rank.title_zh, rank.title_en)}))
    if before["matches"] == 0:
        out.append(("better_first_match", {}))
    if before["wins"] == 0 and wins:
        out.append(("better_first_win", {}))
    ever = [i + 1 for i, n in enumerate(places) if n]
    if ever and place < min(ever):
        out.append(("better_place", {"n": place, "before": min(ever)}))
    best = profile.best or {}
    if before["wins"] and best.get("seed") == match.seed and \
            any(r.winner == 0 and r.payments[0] == best.get("gain") for r in match.results):
        out.append(("better_best_hand", {"gain": best["gain"]}))
    if before["matches"] and before["hands"] and wins:
        was = round(100 * int(before["wins"]) / int(before["hands"]))
        now = round(100 * profile.wins / profile.hands)
        if now > was:
            out.append(("better_rate", {"before": was, "now": now}))
    return out


def improvements_html(match: TableMatch, profile: Profile, lang: str) -> str:
    """The summary's "what improved": each line, or the points that brought the next title
    closer when nothing else did."""
    lines = []
    for key, values in improvements(match, profile):
        shown = {k: (v[0] if lang == "zh" else f"{v[1]} ({v[0]})") if isinstance(v, tuple)
                 else v for k, v in values.items()}
        lines.append(f'<li data-kind="{key[7:]}">{esc(tr(lang, key, **shown))}</li>')
    if not lines:
        lines.append(f'<li data-kind="none">'
                     f'{esc(tr(lang, "better_none", n=points_won(match)))}</li>')
    return (f'<section class="summary__better" data-testid="match-better" '
            f'aria-labelledby="better-title"><h3 id="better-title">'
            f'{esc(tr(lang, "better_title"))}</h3><ul>{"".join(lines)}</ul></section>')


def summary_html(match: TableMatch, profile: Profile, lang: str,
                 name: Callable[[int], str] | None = None, ranked: bool = True,
                 ended: str = "played") -> str:
    """The match summary at the top of its last hand's result panel; ``name`` gives each
    seat's name (a friends room's players), else the seats' own. ``ranked``: the rank
    progress is shown (not where nothing can be kept: it would start afresh every visit).
    ``ended``: ``played`` (every hand) or ``dissolved`` (a friends room's 解散: the hands
    played so far)."""
    name = name or (lambda seat: seat_name(seat, lang))
    rows = []
    dealer = match.game.dealer
    for t in sorted(totals(match), key=lambda t: (t.place, t.seat)):
        cls = "summary__row" + (" is-you" if t.seat == 0 else "") + (
            " is-first" if t.place == 1 else "")
        rows.append(
            f'<tr class="{cls}" data-seat="{t.seat}" data-place="{t.place}" '
            f'data-score="{t.score}"><td class="summary__place">'
            f'{esc(tr(lang, "match_place", n=t.place))}</td>'
            f'<th scope="row"><b class="pay__wind">{wind_char(t.seat, dealer)}</b>'
            f'{esc(name(t.seat))}</th>'
            f'<td class="summary__num">{t.wins}</td><td class="summary__num">{t.fan}</td>'
            f'<td class="summary__num">{t.hua}</td>'
            f'<td class="summary__score">{signed(t.score)}</td></tr>')
    head = "".join(f'<th scope="col">{esc(tr(lang, k))}</th>' for k in (
        "match_col_place", "col_player", "match_col_wins", "match_col_fan",
        "match_col_hua", "match_col_score"))
    best = best_hand(match)
    if best is None:
        best_text = tr(lang, "match_best_none")
    else:
        best_text = tr(lang, "match_best_text", name=name(best.seat),
                       hand=best.hand, gain=best.gain, fan=best.fan,
                       patterns=_patterns(best.patterns, lang))
    place = match.places()[0]
    you = tr(lang, "match_you", n=place, score=signed(match.scores[0]))
    hands = len(match.results)
    kicker = tr(lang, "match_kicker", n=hands, s="" if hands == 1 else "s")
    title = "match_title_dissolved" if ended == "dissolved" else "match_title"
    return (
        f'<section class="summary" data-testid="match-summary" data-hands="{len(match.results)}"'
        f' data-place="{place}" data-ended="{ended}" aria-labelledby="summary-title">'
        f'<p class="result__hand-no">{esc(kicker)}</p>'
        f'<h2 id="summary-title" class="summary__title">{esc(tr(lang, title))}</h2>'
        f'<p class="summary__you">{esc(you)}</p>'
        f'<table class="summary__table"><caption class="sr-only">'
        f'{esc(tr(lang, "match_title"))}</caption><thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>'
        f'<p class="summary__best"><b>{esc(tr(lang, "match_best"))}</b> '
        f'<span data-testid="match-best">{esc(best_text)}</span></p>'
        f'{improvements_html(match, profile, lang) if ranked else ""}'
        f'{rank_progress_html(profile, points_won(match), lang) if ranked else ""}'
        f'<div class="summary__acts"><button type="button" class="act act--ghost" '
        f'data-ui="export"><span class="act__label">{esc(tr(lang, "match_export"))}'
        f'</span></button></div></section>')


def ends(st: TableState, match: TableMatch, profile: Profile, ranked: bool = True) -> None:
    """What a finished hand's panel adds for the player: the rank line under the payments
    (when ``ranked``: the profile is kept), and on the match's last hand the summary on top."""
    if not (match.game.over and match.results):
        return
    if not ranked:
        if st.match_over:
            st.result_top = summary_html(match, profile, st.lang, st.name, ranked=False)
        return
    gained = hand_points(match.results[-1].payments[0])
    if match.finished:  # the last hand also counted the match's place points
        gained += points_won(match) - sum(hand_points(r.payments[0]) for r in match.results)
    before = rank_of(profile.points - gained)
    st.result_after = rank_line(profile, gained, profile.rank.level > before.level, st.lang)
    if st.match_over:
        st.result_top = summary_html(match, profile, st.lang, st.name)
