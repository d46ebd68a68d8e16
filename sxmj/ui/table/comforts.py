"""Markup of the player comforts: assist, rules chip, the notice and the replay bar (the
sheet's tabs are :mod:`sxmj.ui.table.settings.tabs`'s). Pure functions to escaped HTML strings, like
:mod:`sxmj.ui.table.view` (whose tile drawing they reuse); :mod:`sxmj.ui.table.app` assigns them.

Testing hooks: ``[data-testid="assist"]`` (``data-on``, ``data-state``, ``data-distance``,
``data-waits``, ``data-live``, ``data-baotou-ready``, ``data-suggest``),
``[data-testid="rules"]`` (``data-options``: the current match's rule options as JSON,
``data-pending``), ``#sheet [data-tab]``, ``[data-setting=NAME]`` inputs,
``[data-testid="profile"]`` (``data-points``, ``data-hands``, ``data-wins``, ``data-rank``),
``[data-testid="notice"]`` (``data-kind``), ``[data-testid="viewer"]`` (``data-step``,
``data-steps``).

>>> from sxmj.rules import Options
>>> rules_summary(Options(base_flowers=10, fan_cap=2), "en")
'Base 10 (底花) · 2 番 cap'
"""

from __future__ import annotations

import json
from functools import partial

from sxmj.game import Action
from sxmj.ranks import Rank
from sxmj.rules import Options
from sxmj.tiles import code
from sxmj.ui.i18n import seat_name, tile_label, tiles_words, tr
from sxmj.ui.markup import esc, tile_html, tile_of
from sxmj.ui.table.assist import AssistInfo
from sxmj.ui.table.settings.tabs import RULE_FLAGS, rules_summary, sheet_markup
from sxmj.ui.table.state import TableState
from sxmj.ui.table.storage.saved import Problem, Profile

__all__ = ["RULE_FLAGS", "sheet_markup"]  # the sheet, as the controller names it


# ------------------------------------------------------------------ rules


def rules_chip(now: Options, pending: Options | None, lang: str) -> str:
    """The table's rules badge: this match's rules; a mark when the next match changes."""
    summary = rules_summary(now, lang)
    label = tr(lang, "rules_label", summary=summary)
    nxt = ""
    if pending is not None and pending != now:
        # a change of length alone would read "→ 底花 5" beside "底花 5 · 1 局一场"
        upcoming = rules_summary(pending, lang, length=pending.match_hands != now.match_hands)
        label += " · " + tr(lang, "rules_next", summary=upcoming)
        nxt = f'<i class="chip__next">→ {esc(upcoming)}</i>'
    data = esc(json.dumps(now.to_dict(), separators=(",", ":")))
    return (f'<button type="button" class="chip chip--rules" data-ui="rules" data-testid="rules" '
            f'data-options="{data}" data-pending="{1 if nxt else 0}" '
            f'aria-label="{esc(label)}"><span class="chip__icon" aria-hidden="true">§</span>'
            f'<span class="chip__text">{esc(summary)}</span>{nxt}</button>')




def menu_chips(rank: Rank | None, lang: str) -> str:
    """The chips the comforts add to the menu: profile (rank; None: no profile is kept
    here, no chip), settings, help."""
    chip = ""
    if rank is not None:
        title = rank.title_zh if lang == "zh" else rank.title_en
        chip = (f'<button type="button" class="chip chip--rank" data-ui="profile" '
                f'aria-label="{esc(tr(lang, "profile_label"))}: {esc(title)}">'
                f'<span class="chip__icon" aria-hidden="true">★</span>'
                f'<span class="chip__text">{esc(title)}</span></button>')
    return (f'{chip}<button type="button" class="chip chip--settings" data-ui="settings" '
            f'aria-label="{esc(tr(lang, "settings_label"))}">'
            f'<span class="chip__icon" aria-hidden="true">⚙</span>'
            f'<span class="chip__text">{esc(tr(lang, "settings"))}</span></button>'
            f'<button type="button" class="chip chip--help" data-ui="help" '
            f'aria-label="{esc(tr(lang, "help_label"))}" aria-keyshortcuts="?">'
            f'<span aria-hidden="true">?</span></button>')


# ------------------------------------------------------------------ assist


def _wait_tiles(info: AssistInfo, st: TableState) -> str:
    if info.any_tile:
        return (f'<p class="assist__line"><b>{esc(st.tr("assist_ready"))}</b> · '
                f'{esc(st.tr("assist_any"))} · {esc(st.tr("assist_live_n", n=info.live))}</p>')
    faces = []
    for w in info.waits:
        name = tile_label(w.tile, st.lang)
        live = st.tr("assist_live_n", n=w.live)
        cls = "assist__wait" + (" is-dead" if w.live == 0 else "")
        faces.append(f'<li class="{cls}" aria-label="{esc(name)}: {esc(live)}">'
                     f'{tile_html(w.tile, st, alt=False)}'
                     f'<b class="assist__live" aria-hidden="true">{w.live}</b></li>')
    return (f'<ul class="assist__waits" aria-label="{esc(st.tr("assist_waits_label"))}">'
            f'{"".join(faces)}</ul>')


def suggestion_words(action: Action | None, lang: str, rob: bool = False) -> str:
    """A suggested action in words: 打出南风 / Discard South Wind (南风)."""
    if action is None:
        return ""
    if action.kind == "discard":
        return tr(lang, "discard_tile", tile=tile_label(tile_of(action), lang))
    if action.kind == "hu":
        return tr(lang, "act_qianggang" if rob else "act_zimo")
    if action.kind == "chi":
        return f'{tr(lang, "act_chi")} {tiles_words(action.tiles, lang)}'
    if action.kind == "pass":
        return tr(lang, "act_pass")
    return f'{tr(lang, "act_" + action.kind)} {tile_label(tile_of(action), lang)}'


def assist_html(info: AssistInfo | None, st: TableState, on: bool) -> str:
    """The assist panel (``[data-testid="assist"]``), with its on/off switch."""
    lang = st.lang
    switch = (f'<button type="button" class="switch" data-ui="assist" role="switch" '
              f'aria-checked="{"true" if on else "false"}" aria-keyshortcuts="A" '
              f'aria-label="{esc(tr(lang, "assist_toggle"))}">'
              f'<span class="switch__track" aria-hidden="true"><i></i></span>'
              f'<span class="switch__text">{esc(tr(lang, "rule_on" if on else "rule_off"))}'
              f'</span></button>')
    head = (f'<header class="assist__head"><h2 class="assist__title">'
            f'{esc(tr(lang, "assist"))}</h2>{switch}</header>')
    attrs = f'data-testid="assist" data-on="{1 if on else 0}"'
    if not on:
        return (f'<div class="assist is-off" {attrs} data-state="off">{head}'
                f'<p class="assist__off">{esc(tr(lang, "assist_off_note"))}</p></div>')
    if info is None or info.state == "none":
        return f'<div class="assist" {attrs} data-state="none">{head}</div>'
    body = []
    suggest = str(info.suggest) if info.suggest is not None else ""
    if info.suggest is not None:
        words = suggestion_words(info.suggest, lang, rob=info.state == "rob")
        body.append(f'<p class="assist__suggest"><span class="assist__k">'
                    f'{esc(tr(lang, "assist_suggest"))}</span> <b>{esc(words)}</b></p>')
        if info.reason:
            body.append(f'<p class="assist__reason">{esc(info.reason)}</p>')
    elif info.state == "wait":
        body.append(f'<p class="assist__k">{esc(tr(lang, "assist_wait_for"))}</p>')
    if info.state == "win":
        body.append(f'<p class="assist__big assist__big--win">{esc(tr(lang, "assist_win"))}</p>')
    if info.distance is not None:
        where = (tr(lang, "assist_after", tile=tile_label(info.after, lang))
                 if info.after is not None else tr(lang, "assist_now"))
        body.append(f'<p class="assist__where">{esc(where)}</p>')
        if info.baotou_ready:
            badge = esc(tr(lang, "caishen_badge"))
            body.append(f'<p class="assist__big assist__big--baotou" data-testid="baotou-ready">'
                        f'<span class="cai" aria-hidden="true">{badge}</span>'
                        f'{esc(tr(lang, "assist_baotou"))}</p>')
        if info.distance == 0 and info.any_tile:
            body.append(_wait_tiles(info, st))
        elif info.distance == 0:
            kinds = len(info.waits)
            waits = tr(lang, "assist_waits", k=kinds, s="" if kinds == 1 else "s", n=info.live)
            body.append(f'<p class="assist__line"><b>{esc(tr(lang, "assist_ready"))}</b> · '
                        f'{esc(waits)}</p>')
            body.append(_wait_tiles(info, st))
        else:
            body.append(f'<p class="assist__line"><b>'
                        f'{esc(tr(lang, "assist_distance", n=info.distance))}</b></p>')
    if info.note:
        body.append(f'<p class="assist__note" role="note">{esc(info.note)}</p>')
    waits = " ".join(code(w.tile) for w in info.waits)
    data = (f' data-state="{esc(info.state)}" data-suggest="{esc(suggest)}"'
            f' data-distance="{"" if info.distance is None else info.distance}"'
            f' data-waits="{esc(waits)}" data-live="{info.live}"'
            f' data-baotou-ready="{"true" if info.baotou_ready else "false"}"')
    return f'<div class="assist" {attrs}{data}>{head}{"".join(body)}</div>'


def assist_mini_html(info: AssistInfo | None, st: TableState, on: bool, open_: bool) -> str:
    """One line for narrow screens; a tap opens the whole assist."""
    lang = st.lang
    if not on:
        text = tr(lang, "assist_off")
    elif info is None or info.state == "none":
        text = tr(lang, "assist")
    elif info.state == "win":
        text = tr(lang, "assist_win")
    elif info.suggest is not None:
        text = suggestion_words(info.suggest, lang, rob=info.state == "rob")
        if info.baotou_ready:
            text += " · " + tr(lang, "assist_baotou_short")
    elif info.baotou_ready:
        text = tr(lang, "assist_baotou_short")
    elif info.distance == 0:
        kinds = len(info.waits)
        text = tr(lang, "assist_waits", k=kinds, s="" if kinds == 1 else "s", n=info.live)
    elif info.distance is not None:
        text = tr(lang, "assist_distance", n=info.distance)
    else:
        text = tr(lang, "assist")
    return (f'<button type="button" class="assist-mini__btn" data-ui="assist-open" '
            f'aria-expanded="{"true" if open_ else "false"}" aria-controls="rail">'
            f'<span class="assist-mini__k" aria-hidden="true">{esc(tr(lang, "assist")[:1])}</span>'
            f'<span class="assist-mini__text">{esc(text)}</span></button>')



def rank_line(p: Profile, gain: int, up: bool, lang: str) -> str:
    """Under a result: the player's rank and points (``gain``: the rank points this hand
    added), with a button to the profile."""
    rank = p.rank
    title = rank.title_zh if lang == "zh" else f"{rank.title_en} ({rank.title_zh})"
    text = tr(lang, "rank_line", title=title, points=p.points,
              gain=f"{gain:+d}" if gain else "0")
    badge = f'<b class="rank-line__up">{esc(tr(lang, "rank_up"))}</b>' if up else ""
    return (f'<p class="rank-line" data-testid="rank-line"><span class="rank-line__star" '
            f'aria-hidden="true">★</span><span>{esc(text)}</span>{badge}'
            f'<button type="button" class="act act--small act--ghost" data-ui="profile">'
            f'<span class="act__label">{esc(tr(lang, "profile"))}</span></button></p>')


# ------------------------------------------------------------------ notice and viewer


def notice_html(problems: list[Problem], lang: str) -> str:
    """A clear notice about stored data that could not be used (``role="alert"``)."""
    lines = []
    kinds = []
    for p in problems:
        why = tr(lang, "why_" + p.kind) if p.kind in ("corrupt", "old", "edited", "invalid") \
            else p.kind
        kinds.append(f"{p.what}:{p.kind}")
        if p.what == "save":
            lines.append(tr(lang, "notice_save", why=why))
        elif p.what == "profile":
            lines.append(tr(lang, "notice_profile", why=why))
        elif p.what == "daily":
            lines.append(tr(lang, "notice_daily", why=why))
        else:
            lines.append(tr(lang, "notice_settings"))
    if any(p.what == "save" for p in problems) and not any(p.what == "profile"
                                                          for p in problems):
        lines.append(tr(lang, "notice_kept"))
    text = "".join(f"<p>{esc(line)}</p>" for line in lines)
    detail = "; ".join(p.detail for p in problems if p.detail)
    return (f'<div class="notice__card" role="alert" data-testid="notice" '
            f'data-kind="{esc(" ".join(kinds))}"><span class="notice__icon" aria-hidden="true">'
            f'!</span><div class="notice__text">{text}'
            f'<p class="notice__detail">{esc(detail)}</p></div>'
            f'<button type="button" class="act act--small" data-ui="notice-ok">'
            f'<span class="act__label">{esc(tr(lang, "notice_ok"))}</span></button></div>')


def no_storage_html(link: str, lang: str) -> str:
    """Said once, small, where the browser lets this page keep nothing (a frame of another
    site's page, in Safari or with third-party cookies blocked): the game goes on unsaved, and
    ``link`` (when not empty) opens the full game in a new tab, where it is kept."""
    open_link = (f' <a class="notice__open" href="{esc(link)}" target="_blank" rel="noopener" '
                 f'data-testid="open-full">{esc(tr(lang, "notice_no_storage_open"))} ↗</a>'
                 if link else "")
    return (f'<div class="param-notice notice--small" role="status" data-testid="notice" '
            f'data-kind="no-storage"><div class="param-notice__text"><p>'
            f'{esc(tr(lang, "notice_no_storage"))}{open_link}</p></div>'
            f'<button type="button" class="param-notice__ok" data-ui="notice-ok">'
            f'{esc(tr(lang, "notice_ok"))}</button></div>')


ICONS = {  # the replay bar's buttons, drawn (no font has to hold ⏮ ⏭)
    "first": '<rect x="4" y="4" width="2.5" height="12" rx="1"/><path d="M16 4v12L7.5 10z"/>',
    "back": '<path d="M14 4v12L5 10z"/>',
    "fwd": '<path d="M6 4v12l9-6z"/>',
    "last": '<path d="M4 4v12l8.5-6z"/><rect x="13.5" y="4" width="2.5" height="12" rx="1"/>',
}


def viewer_html(step: int, steps: int, hand_no: int, last: str, lang: str) -> str:
    """The replay bar: step back and forth through an imported record."""
    say = partial(tr, lang)

    def btn(ui: str, icon: str, label: str, off: bool) -> str:
        return (f'<button type="button" class="viewer__btn" data-ui="{ui}" '
                f'aria-label="{esc(label)}"{" disabled" if off else ""}>'
                f'<svg viewBox="0 0 20 20" aria-hidden="true">{ICONS[icon]}</svg></button>')

    what = last or say("viewer_start")
    return (f'<div class="viewer__bar" data-testid="viewer" data-step="{step}" '
            f'data-steps="{steps}" role="toolbar" aria-label="{esc(say("viewer"))}">'
            f'<b class="viewer__title">{esc(say("viewer"))}</b>'
            f'{btn("step-first", "first", say("viewer_first"), step == 0)}'
            f'{btn("step-back", "back", say("viewer_back"), step == 0)}'
            f'<p class="viewer__pos" aria-live="polite">'
            f'<b>{esc(say("viewer_step", k=step, n=steps))}'
            f'</b> <b class="viewer__hand">· {esc(say("viewer_hand", n=hand_no))}</b>'
            f'<br><span>{esc(what)}</span></p>'
            f'{btn("step-fwd", "fwd", say("viewer_fwd"), step >= steps)}'
            f'{btn("step-last", "last", say("viewer_last"), step >= steps)}'
            f'<button type="button" class="act act--small" data-ui="review" '
            f'data-testid="viewer-review" aria-label="{esc(say("review_viewer"))}">'
            f'<span class="act__label">{esc(say("review_start"))}</span></button>'
            f'<button type="button" class="act act--small" data-ui="viewer-close" '
            f'aria-label="{esc(say("viewer_close"))}"><span class="act__label">'
            f'{esc(say("viewer_exit"))}</span></button></div>')


def action_words(action: Action, lang: str) -> str:
    """One recorded action for the replay bar: 小梅：碰 五万."""
    name = seat_name(action.seat, lang)
    if action.kind == "discard":
        return tr(lang, "log_discard", name=name, tile=tile_label(tile_of(action), lang))
    if action.kind == "chi":
        return f'{name}：{tr(lang, "act_chi")} {tiles_words(action.tiles, lang)}' if lang == "zh" \
            else f'{name}: {tr(lang, "act_chi")} {tiles_words(action.tiles, lang)}'
    act = tr(lang, "act_" + action.kind)
    tile = f" {tile_label(action.tile, lang)}" if action.tile is not None else ""
    return f"{name}：{act}{tile}" if lang == "zh" else f"{name}: {act}{tile}"
