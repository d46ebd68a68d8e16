"""The end of a hand: the winner's hand in its sets, 番 and 花, the formula and the
payments; or 臭庄."""

from __future__ import annotations

from sxmj.messages import term
from sxmj.scoring import FLOWER_ITEMS, PATTERNS, PATTERNS_ZH_EXPLAIN, PAY_REASONS, Evaluation
from sxmj.ui.i18n import tile_label, wind_char, wind_name
from sxmj.ui.markup import esc, group_html, powers_html, reading_sets, signed, tile_html
from sxmj.ui.table.state import ResultInfo, TableState

# ------------------------------------------------------------------ result


def result_html(st: TableState) -> str:
    """The end of a hand: winner, hand in its sets, 番, 花, formula, payments; or 臭庄."""
    r = st.result
    if r is None:
        return ""
    lang = st.lang
    ev = r.evaluation
    if r.winner is None:
        title = st.tr("result_draw")
        sub = f'<p class="result__sub">{esc(st.tr("result_draw_note"))}</p>'
        body = ""
        kind = "draw"
    else:
        title = (st.tr("result_you_win") if r.winner == 0
                 else st.tr("result_win", name=st.name(r.winner)))
        how = (st.tr("win_by_rob_of", name=st.name(r.robbed)) if r.win_by == "rob" and
               r.robbed is not None else st.tr(f"win_by_{r.win_by or 'draw'}"))
        sub = (f'<p class="result__sub">{esc(how)} · '
               f'{esc(wind_name(r.winner, st.dealer, lang))}</p>')
        body = (_winning_hand_html(st, r.winner, r.hand, ev) + _scoring_html(st, ev)
                if ev is not None else "")
        kind = "win"
    pay = _payments_html(st, r)
    foot = new = ""
    if st.viewer and st.viewer_bar:  # a replay: its bar, where the result covers nothing
        foot = f'<footer class="result__foot result__foot--viewer">{st.viewer_bar}</footer>'
    if not st.viewer:
        view_table = (f'<button type="button" class="act act--ghost act--view" '
                      f'data-ui="view-table" aria-pressed="false"><span class="act__label">'
                      f'{esc(st.tr("view_table"))}</span></button>')
        if st.match_over:  # the match is over: a new one, not a next hand
            go = (f'<button type="button" class="act act--primary act--next" '
                  f'data-action="new-match"><span class="act__label">'
                  f'{esc(st.tr("match_again"))}</span></button>')
        else:  # 新比赛 sits in the card's corner, far from 下一局
            go = (f'<button type="button" class="act act--primary act--next" '
                  f'data-action="next-hand" data-key="n" aria-keyshortcuts="N">'
                  f'<span class="act__label">{esc(st.again_label or st.tr("act_next_hand"))}'
                  f'</span><kbd>N</kbd></button>')
            new = "" if st.names else (  # a friends room's match is the room's
                f'<button type="button" class="act act--ghost act--newmatch" '
                f'data-action="new-match"><span class="act__label">'
                f'{esc(st.tr("act_new_match"))}</span></button>')
        foot = f'<footer class="result__foot">{view_table}{go}</footer>'
    return (
        f'<div class="result__card" data-testid="hand-result" data-result="{kind}" '
        f'data-winner="{"" if r.winner is None else r.winner}" '
        f'role="dialog" aria-labelledby="result-title">{st.result_top}'
        f'<header class="result__head">{new}<p class="result__hand-no">'
        f'{esc(st.tr("hand_n_done", n=st.hand_no))}</p>'
        f'<h2 id="result-title">{esc(title)}</h2>{sub}{_first_win(st)}</header>'
        f"{body}{pay}{st.result_after}{foot}</div>")


def _first_win(st: TableState) -> str:
    """The player's first win ever, said once more on the result (the call showed it)."""
    if not st.first_win:
        return ""
    return (f'<p class="result__first" data-testid="first-win-note"><b>'
            f'{esc(st.tr("first_win"))}</b> {esc(st.tr("first_win_note"))}</p>')


def _winning_hand_html(st: TableState, winner: int, hand: list[int], ev: Evaluation) -> str:
    win_tile = ev.win_tile
    sets, marked = reading_sets(ev, st, lambda t: tile_label(t, st.lang).split(" (")[0])
    if not ev.groups:  # 全风: no sets needed, the tiles as they stand
        faces = []
        for t in hand:
            is_win = not marked and t == win_tile
            marked = marked or is_win
            faces.append(tile_html(t, st, cls="is-win" if is_win else ""))
        sets.append(f'<span class="tg tg--set"><span class="tg__tiles">{"".join(faces)}'
                    f'</span></span>')
    for m in st.obs.melds[winner]:
        kind, tiles = m.kind, m.tiles
        faces = [tile_html(t, st) for t in tiles]
        sets.append(f'<span class="tg tg--set tg--meld" data-kind="{esc(kind)}" '
                    f'title="{esc(st.tr("act_" + kind))}"><span class="tg__tiles">'
                    f'{"".join(faces)}</span></span>')  # a row: a set stacks its caption
    flowers = st.obs.flowers[winner]
    if flowers:
        sets.append(group_html(flowers, st, "tg--flowers"))
    legend = "" if win_tile is None else (
        f'<p class="result__legend"><i class="legend-win" aria-hidden="true"></i>'
        f'{esc(st.tr("winning_tile"))}: {esc(tile_label(win_tile, st.lang))}</p>')
    return (f'<section class="result__hand" aria-label="{esc(st.tr("winning_hand"))}">'
            f'{"".join(sets)}</section>{legend}')


def _scoring_html(st: TableState, ev: Evaluation) -> str:
    lang = st.lang
    rows = []
    for pid in ev.patterns:
        zh, en, what = PATTERNS[pid]
        n = ev.pattern_fan[pid]
        if lang == "zh":
            name, expl = zh, PATTERNS_ZH_EXPLAIN[pid]
        else:
            name, expl = f"{zh} {en}", what
        rows.append(f'<li><span class="row__name">{esc(name)}</span>'
                    f'<span class="row__expl">{esc(expl)}</span>'
                    f'<b class="row__val">{esc(st.tr("fan_n", n=n))}</b></li>')
    if not ev.patterns:
        rows.append(f'<li><span class="row__name">{esc(st.tr("plain_win"))}</span>'
                    f'<span class="row__expl">{esc(st.tr("plain_win_note"))}</span>'
                    f'<b class="row__val">{esc(st.tr("fan_n", n=0))}</b></li>')
    if ev.fan < ev.fan_raw:
        rows.append(f'<li class="row--note"><span class="row__name">'
                    f'{esc(term("explain.cap", st.lang, raw=ev.fan_raw, fan=ev.fan))}</span></li>')
    fan = (f'<section class="score-box"><h3>{esc(st.tr("fan_title"))}'
           f'<span>{esc(st.tr("fan_total", n=ev.fan))}</span></h3><ul>{"".join(rows)}</ul>'
           f"</section>")
    items = [f'<li><span class="row__name">{esc(st.tr("flowers_base"))}</span>'
             f'<b class="row__val">{esc(st.tr("hua_n", n=ev.base))}</b></li>']
    for item, count, points in ev.flower_items:
        zh, en, _ = FLOWER_ITEMS[item]
        name = zh if lang == "zh" else en if zh in en else f"{zh} {en}"
        items.append(f'<li><span class="row__name">{esc(name)} ×{count}</span>'
                     f'<b class="row__val">{esc(st.tr("hua_n", n=points))}</b></li>')
    hua = (f'<section class="score-box"><h3>{esc(st.tr("flowers_title"))}'
           # the total is what the formula multiplies: 底花 plus every row below it
           f'<span>{esc(st.tr("flowers_total", n=ev.base + ev.flowers))}</span></h3>'
           f'<ul>{"".join(items)}</ul></section>')
    formula = (f'<p class="result__formula"><span>{esc(st.tr("formula_title"))}</span>'
               f'<span class="formula__words">{powers_html(st.tr("formula_words"))}</span>'
               f"<code>{powers_html(ev.formula(lang))}</code></p>")
    return f'<div class="result__scoring">{fan}{hua}</div>{formula}'


def _payments_html(st: TableState, r: ResultInfo) -> str:
    share = r.evaluation.share if r.evaluation is not None and r.winner is not None else 0
    rows = []
    for seat in range(4):
        amount = r.payments[seat]
        reason = r.reasons[seat] if r.reasons else ""
        zh, en = PAY_REASONS.get(reason, ("", ""))
        text = (zh if st.lang == "zh" else en) or st.tr("reason_none")
        cls = "pos" if amount > 0 else "neg" if amount < 0 else "zero"
        win = " is-winner" if seat == r.winner else ""
        shares = ""
        if share and amount and abs(amount) % share == 0:
            n = abs(amount) // share
            shares = (f' <small class="pay__shares">'
                      f'{esc(st.tr("pay_shares", n=n, s="" if n == 1 else "s"))} × {share}'
                      f'</small>')
        rows.append(
            f'<tr class="pay__row{win}" data-pay-seat="{seat}">'
            f'<th scope="row"><b class="pay__wind">{wind_char(seat, st.dealer)}</b>'
            f"{esc(st.name(seat))}</th>"
            f'<td class="pay__reason" data-reason="{esc(reason)}">{esc(text)}{shares}</td>'
            f'<td class="pay__amount pay__amount--{cls}">{signed(amount)}</td>'
            f'<td class="pay__total">{signed(r.scores[seat])}</td></tr>')
    return (f'<table class="pay"><caption>{esc(st.tr("payments"))}</caption>'
            f'<thead><tr><th scope="col">{esc(st.tr("col_player"))}</th>'
            f'<th scope="col">{esc(st.tr("col_reason"))}</th>'
            f'<th scope="col">{esc(st.tr("col_change"))}</th>'
            f'<th scope="col">{esc(st.tr("col_total"))}</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{_pay_summary(st, r, share)}')


def _pay_summary(st: TableState, r: ResultInfo, share: int) -> str:
    """Who receives what, in one sentence (the rows above say who pays and why)."""
    if r.winner is None or not share:
        return ""
    total = r.payments[r.winner]
    name = st.name(r.winner)
    you = "_you" if r.winner == 0 else ""
    if all(r.reasons[s] == "share" for s in range(4) if s != r.winner):
        text = st.tr("pay_summary_all" + you, share=share, name=name, total=total)
    else:
        text = st.tr("pay_summary" + you, name=name, total=total, n=total // share, share=share)
    return f'<p class="pay__summary" data-testid="pay-summary">{esc(text)}</p>'
