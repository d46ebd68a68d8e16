"""Markup of the player comforts: assist, rules chip, the sheet (settings, profile, records,
keys), the notice and the replay bar. Pure functions to escaped HTML strings, like
:mod:`sxmj.ui.view` (whose tile drawing they reuse); :mod:`sxmj.ui.app` assigns them.

Testing hooks: ``[data-testid="assist"]`` (``data-on``, ``data-state``, ``data-distance``,
``data-waits``, ``data-live``, ``data-baotou-ready``, ``data-suggest``),
``[data-testid="rules"]`` (``data-options``: the current match's rule options as JSON,
``data-pending``), ``#sheet [data-tab]``, ``[data-setting=NAME]`` inputs,
``[data-testid="profile"]`` (``data-points``, ``data-hands``, ``data-wins``, ``data-rank``),
``[data-testid="notice"]`` (``data-kind``), ``[data-testid="viewer"]`` (``data-step``,
``data-steps``).

>>> from sxmj.rules import Options
>>> rules_summary(Options(base_flowers=10, fan_cap=2), "en")
'底花 10 · 2 番 cap'
"""

from __future__ import annotations

import json

from ..game import Action
from ..ranks import RANKS, Rank
from ..rules import BASE_FLOWERS, Options
from ..scoring import PATTERNS
from ..tiles import code
from .assist import AssistInfo
from .i18n import LANGS, seat_name, tile_label, tiles_words, tr
from .markup import esc, powers_html, tile_html, tile_of
from .sound import VOLUMES
from .state import TableState
from .store import ANIMS, LEVELS, SPEEDS, TAPS, Problem, Profile, Settings

TABS = ("help", "keys", "settings", "profile", "records")  # ? opens help, ⚙ settings
RULE_FLAGS = ("flower_is_kong", "piao_blocks_claims", "baotou_required", "contract")
RESERVED_CHOICES = (0, 2, 4, 6, 8, 10, 14, 16, 20)
FAN_CAPS = (1, 2, 3, 4, 5, 6)
MATCH_HANDS = (1, 2, 4, 8, 12, 16, 0)  # a match's length (0: endless)


# ------------------------------------------------------------------ rules


def rules_summary(opts: Options, lang: str) -> str:
    """The rule options in a few words: 底花 first, then whatever differs from the book."""
    parts = [tr(lang, "rules_badge", base=opts.base_flowers)]
    if opts.fan_cap != 3:
        parts.append(tr(lang, "summary_fan_cap", n=opts.fan_cap))
    if not opts.contract:
        parts.append(tr(lang, "summary_no_contract"))
    if opts.baotou_required:
        parts.append(tr(lang, "summary_baotou_required"))
    if not opts.flower_is_kong:
        parts.append(tr(lang, "summary_flower_not_kong"))
    if not opts.piao_blocks_claims:
        parts.append(tr(lang, "summary_piao_free"))
    if opts.reserved_tiles:
        parts.append(tr(lang, "summary_reserved", n=opts.reserved_tiles))
    if opts.match_hands != Options().match_hands:
        parts.append(tr(lang, "summary_match_hands", n=opts.match_hands) if opts.match_hands
                     else tr(lang, "summary_endless"))
    return " · ".join(parts)


def rules_chip(now: Options, pending: Options | None, lang: str) -> str:
    """The table's rules badge: this match's rules; a mark when the next match changes."""
    summary = rules_summary(now, lang)
    label = tr(lang, "rules_label", summary=summary)
    nxt = ""
    if pending is not None and pending != now:
        text = tr(lang, "rules_next", summary=rules_summary(pending, lang))
        label += " · " + text
        nxt = f'<i class="chip__next">→ {esc(rules_summary(pending, lang))}</i>'
    data = esc(json.dumps(now.to_dict(), separators=(",", ":")))
    return (f'<button type="button" class="chip chip--rules" data-ui="rules" data-testid="rules" '
            f'data-options="{data}" data-pending="{1 if nxt else 0}" '
            f'aria-label="{esc(label)}"><span class="chip__icon" aria-hidden="true">§</span>'
            f'<span class="chip__text">{esc(summary)}</span>{nxt}</button>')


def menu_extra(now: Options, pending: Options | None, rank: Rank, lang: str) -> str:
    """What the comforts add to the menu: the rules chip (with the next match's rules when
    they differ) and the profile, settings and help chips."""
    return rules_chip(now, pending, lang) + menu_chips(rank, lang)


def menu_chips(rank: Rank, lang: str) -> str:
    """The chips the comforts add to the menu: profile (rank), settings, help."""
    title = rank.title_zh if lang == "zh" else rank.title_en
    return (f'<button type="button" class="chip chip--rank" data-ui="profile" '
            f'aria-label="{esc(tr(lang, "profile_label"))}: {esc(title)}">'
            f'<span class="chip__icon" aria-hidden="true">★</span>'
            f'<span class="chip__text">{esc(title)}</span></button>'
            f'<button type="button" class="chip chip--settings" data-ui="settings" '
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
            body.append(f'<p class="assist__line"><b>{esc(tr(lang, "assist_ready"))}</b> · '
                        f'{esc(tr(lang, "assist_waits", k=kinds, n=info.live))}</p>')
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
        text = tr(lang, "assist_waits", k=len(info.waits), n=info.live)
    elif info.distance is not None:
        text = tr(lang, "assist_distance", n=info.distance)
    else:
        text = tr(lang, "assist")
    return (f'<button type="button" class="assist-mini__btn" data-ui="assist-open" '
            f'aria-expanded="{"true" if open_ else "false"}" aria-controls="rail">'
            f'<span class="assist-mini__k" aria-hidden="true">{esc(tr(lang, "assist")[:1])}</span>'
            f'<span class="assist-mini__text">{esc(text)}</span></button>')


# ------------------------------------------------------------------ the sheet


def _select(name: str, value: object, choices, label_of, label: str) -> str:
    opts = "".join(f'<option value="{esc(c)}"{" selected" if c == value else ""}>'
                   f'{esc(label_of(c))}</option>' for c in choices)
    return (f'<label class="field"><span class="field__label">{esc(label)}</span>'
            f'<select data-setting="{name}">{opts}</select></label>')


def _check(name: str, on: bool, label: str, note: str) -> str:
    return (f'<label class="field field--check"><input type="checkbox" data-setting="{name}"'
            f'{" checked" if on else ""}><span class="field__label">{esc(label)}'
            f'<small>{esc(note)}</small></span></label>')


def settings_html(s: Settings, now: Options, lang: str) -> str:
    t = lambda key, **kw: tr(lang, key, **kw)  # noqa: E731
    game = "".join([
        _select("lang", s.lang, LANGS, lambda c: t("lang_" + c), t("set_lang")),
        _select("speed", s.speed, SPEEDS, lambda c: t("speed_" + c), t("set_speed")),
        _select("anim", s.anim, ANIMS, lambda c: t("anim_" + c), t("set_anim")),
        _select("tap", s.tap, TAPS, lambda c: t("tap_" + c), t("set_tap")),
        _check("assist", s.assist, t("set_assist"), t("assist_toggle")),
    ])
    sd = s.sound
    sounds = "".join([
        _check("sound", sd.on, t("set_sound_on"), t("set_sound_on_note")),
        _select("volume", sd.volume, VOLUMES, lambda v: f"{v}%", t("set_volume")),
        _check("speech", sd.speech, t("set_speech"), t("set_speech_note")),
        _check("cues", sd.cues, t("set_cues"), t("set_cues_note")),
        _check("notify", sd.notify, t("set_notify"), t("set_notify_note")),
    ])
    bots = "".join(_select(f"bot{seat}", s.bots[seat - 1], LEVELS,
                           lambda c: t("level_" + c), seat_name(seat, lang))
                   for seat in (1, 2, 3))
    r = s.rules
    note = f'<small>{powers_html(t("rule_base_flowers_note"))}</small></label>'
    rules = [_select("base_flowers", r.base_flowers, BASE_FLOWERS, str, t("rule_base_flowers"))
             .replace("</label>", note)]
    for name in RULE_FLAGS:
        rules.append(_check(name, getattr(r, name), t("rule_" + name), t(f"rule_{name}_note")))
    fan_caps = sorted(set(FAN_CAPS) | {r.fan_cap})
    rules.append(_select("fan_cap", r.fan_cap, fan_caps, str, t("rule_fan_cap"))
                 .replace("</label>", f'<small>{esc(t("rule_fan_cap_note"))}</small></label>'))
    reserved = sorted(set(RESERVED_CHOICES) | {r.reserved_tiles})
    rules.append(_select("reserved_tiles", r.reserved_tiles, reserved, str,
                         t("rule_reserved_tiles"))
                 .replace("</label>",
                          f'<small>{esc(t("rule_reserved_tiles_note"))}</small></label>'))
    lengths = sorted(set(MATCH_HANDS) | {r.match_hands}, key=lambda n: (n == 0, n))
    rules.append(_select("match_hands", r.match_hands, lengths,
                         lambda n: str(n) if n else t("match_endless"), t("rule_match_hands"))
                 .replace("</label>",
                          f'<small>{esc(t("rule_match_hands_note"))}</small></label>'))
    pending = ""
    if r != now:
        pending = (f'<p class="sheet__pending" data-testid="rules-pending" role="status">'
                   f'{esc(t("set_rules_pending", summary=rules_summary(r, lang)))}</p>')
    return (
        f'<form class="sheet__form" data-form="settings" onsubmit="return false">'
        f'<fieldset><legend>{esc(t("set_game"))}</legend>{game}</fieldset>'
        f'<fieldset data-testid="sound-settings"><legend>{esc(t("set_sound"))}</legend>'
        f'{sounds}</fieldset>'
        f'<fieldset><legend>{esc(t("set_bots"))}</legend>{bots}</fieldset>'
        f'<fieldset><legend>{esc(t("set_rules"))}</legend>'
        f'<p class="sheet__note">{esc(t("set_rules_note"))}</p>{"".join(rules)}{pending}'
        f'<div class="sheet__row">'
        f'<button type="button" class="act act--primary" data-action="new-match">'
        f'<span class="act__label">{esc(t("set_new_match"))}</span></button>'
        f'<button type="button" class="act act--ghost" data-ui="rules-reset">'
        f'<span class="act__label">{esc(t("set_rules_reset"))}</span></button></div>'
        f'</fieldset><p class="sheet__note">{esc(t("set_saved"))}</p></form>')


def _patterns(ids: list[str], lang: str) -> str:
    if not ids:
        return tr(lang, "plain_win")
    return ("、" if lang == "zh" else ", ").join(
        PATTERNS[p][0] if lang == "zh" else f"{PATTERNS[p][0]} {PATTERNS[p][1]}"
        for p in ids if p in PATTERNS)


def profile_html(p: Profile, lang: str) -> str:
    t = lambda key, **kw: tr(lang, key, **kw)  # noqa: E731
    rank = p.rank
    title = rank.title_zh if lang == "zh" else rank.title_en
    other = rank.title_en if lang == "zh" else rank.title_zh
    pct = round(rank.progress * 100, 1)
    if rank.next_at is None:
        nxt = t("rank_top")
    else:
        _, (zh, en) = RANKS[rank.level]
        nxt = t("rank_next", n=rank.next_at - rank.points, title=zh if lang == "zh" else en)
    rate = f"{round(100 * p.wins / p.hands)}%" if p.hands else "—"
    if p.best:
        best = t("stat_best_text", gain=f'+{p.best["gain"]}', fan=p.best["fan"],
                 patterns=_patterns(p.best.get("patterns", []), lang), seed=p.best["seed"],
                 hand=p.best["hand"])
    else:
        best = t("stat_best_none")
    stats = [("stat_points", str(p.points)), ("stat_net", f"{p.net:+d}" if p.net else "0"),
             ("stat_hands", str(p.hands)), ("stat_wins", str(p.wins)), ("stat_rate", rate),
             ("stat_matches", str(p.matches)), ("stat_places", " / ".join(map(str, p.places)))]
    cells = "".join(f'<div class="stat"><dt>{esc(t(k))}</dt><dd>{esc(v)}</dd></div>'
                    for k, v in stats)
    return (
        f'<section class="profile" data-testid="profile" data-points="{p.points}" '
        f'data-hands="{p.hands}" data-wins="{p.wins}" data-rank="{esc(rank.title_zh)}" '
        f'data-matches="{p.matches}" data-places="{" ".join(map(str, p.places))}" '
        f'data-level="{rank.level}">'
        f'<div class="rank"><span class="rank__badge" aria-hidden="true">★</span>'
        f'<div><p class="rank__title" lang="{"zh-Hans" if lang == "zh" else "en"}">'
        f'{esc(title)}</p><p class="rank__sub">{esc(other)} · '
        f'{esc(t("rank_level", n=rank.level, of=len(RANKS)))}</p></div></div>'
        f'<div class="rank__bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" '
        f'aria-valuenow="{pct}" aria-label="{esc(nxt)}"><i style="width:{pct}%"></i></div>'
        f'<p class="rank__next">{esc(t("rank_points", n=p.points))} · {esc(nxt)}</p>'
        f'<dl class="stats">{cells}</dl>'
        f'<p class="stat stat--best"><b>{esc(t("stat_best"))}</b> '
        f'<span data-testid="best-hand">{esc(best)}</span></p>'
        f'<p class="sheet__note">{esc(t("profile_note"))}</p></section>')


def records_html(link: str, status: str, lang: str, can_export: bool = True) -> str:
    t = lambda key, **kw: tr(lang, key, **kw)  # noqa: E731
    export = (f'<button type="button" class="act" data-ui="export"'
              f'{"" if can_export else " disabled"}>'
              f'<span class="act__label">{esc(t("rec_export"))}</span></button>')
    return (
        f'<section class="records">'
        f'<div class="rec"><h3>{esc(t("rec_export"))}</h3><p class="sheet__note">'
        f'{esc(t("rec_export_note"))}</p>{export}</div>'
        f'<div class="rec"><h3>{esc(t("rec_import"))}</h3><p class="sheet__note">'
        f'{esc(t("rec_import_note"))}</p>'
        f'<label class="act act--file"><span class="act__label">{esc(t("rec_import"))}</span>'
        f'<input type="file" accept=".json,application/json" data-ui="import" '
        f'data-testid="import"></label></div>'
        f'<div class="rec"><h3>{esc(t("rec_link"))}</h3><p class="sheet__note">'
        f'{esc(t("rec_link_note"))}</p>'
        f'<input class="rec__link" type="text" readonly value="{esc(link)}" '
        f'data-testid="seed-link" aria-label="{esc(t("rec_link"))}">'
        f'<button type="button" class="act" data-ui="copy-link">'
        f'<span class="act__label">{esc(t("rec_link"))}</span></button></div>'
        f'<p class="rec__status" role="status" data-testid="records-status">{esc(status)}</p>'
        f'</section>')


KEYS = (("←  →", "key_arrows"), ("Enter", "key_enter"), ("H", "key_hu"),
        ("C V B", "key_chi"), ("P", "key_peng"), ("G F T R", "key_gang"),
        ("X  Esc", "key_pass"), ("Y", "key_piao"), ("N", "key_next"), ("A", "key_assist"),
        ("M", "key_mute"), ("?", "key_help"), ("Esc", "key_close"),
        ("←  →  Home  End", "key_viewer"))


def help_html(lang: str) -> str:
    """帮助 Help, the sheet's first tab: the rules with examples, the practice scenarios and
    the calculator, in the table's language (the game is saved: leaving loses nothing)."""
    q = "?lang=en" if lang == "en" else ""
    return (f'<section class="help" data-testid="help">'
            f'<p class="help__intro">{esc(tr(lang, "help_intro"))}</p>'
            f'<nav class="help__links" aria-label="{esc(tr(lang, "help_more"))}">'
            f'<a class="act" href="./learn.html{q}" data-testid="help-learn">'
            f'<span class="act__label">{esc(tr(lang, "help_learn"))}</span></a>'
            f'<a class="act" href="./learn.html{q}#scenarios" data-testid="help-scenarios">'
            f'<span class="act__label">{esc(tr(lang, "help_scenarios"))}</span></a>'
            f'<a class="act act--ghost" href="./calc.html{q}" data-testid="help-calc">'
            f'<span class="act__label">{esc(tr(lang, "help_calc"))}</span></a></nav>'
            f'<p class="sheet__note">{esc(tr(lang, "help_saved"))}</p>'
            f'<p class="sheet__note">{esc(tr(lang, "keys_touch"))}</p></section>')


def keys_html(lang: str) -> str:
    """按键 Keys, the second tab: every key of the table."""
    rows = "".join(
        f'<tr><th scope="row">{"".join(f"<kbd>{esc(k)}</kbd>" for k in keys.split())}</th>'
        f'<td>{esc(tr(lang, what))}</td></tr>' for keys, what in KEYS)
    return (f'<section class="keys" data-testid="keys"><table class="keys__table">'
            f'<caption class="sr-only">{esc(tr(lang, "keys_title"))}</caption>{rows}</table>'
            f'</section>')


def sheet_html(tab: str, body: str, lang: str) -> str:
    """The dialog's content: title, tabs, the open tab's body, a close button."""
    tabs = "".join(
        f'<button type="button" role="tab" class="tab" data-tab="{name}" id="tab-{name}" '
        f'aria-selected="{"true" if name == tab else "false"}" aria-controls="sheet-body">'
        f'{esc(tr(lang, name if name != "keys" else "keys"))}</button>'
        for name in TABS)
    return (f'<div class="sheet__card" data-open-tab="{esc(tab)}">'
            f'<header class="sheet__head"><h2 id="sheet-title">{esc(tr(lang, tab))}</h2>'
            f'<button type="button" class="sheet__close" data-ui="close" '
            f'aria-label="{esc(tr(lang, "close"))}">✕</button></header>'
            f'<nav class="tabs" role="tablist" aria-label="{esc(tr(lang, "menu"))}">{tabs}</nav>'
            f'<div class="sheet__body" id="sheet-body" role="tabpanel" '
            f'aria-labelledby="tab-{esc(tab)}">{body}</div></div>')


def sheet_markup(tab: str, settings: Settings, now: Options, profile: Profile, records,
                 lang: str) -> str:
    """The sheet with ``tab`` open: ``now`` the rules in play, ``records`` the Records tab's
    seed link and status (:class:`sxmj.ui.records.Records`)."""
    if tab == "settings":
        body = settings_html(settings, now, lang)
    elif tab == "profile":
        body = profile_html(profile, lang)
    elif tab == "records":
        body = records_html(records.seed_link(), records.status, lang)
    elif tab == "help":
        body = help_html(lang)
    else:
        body = keys_html(lang)
    return sheet_html(tab, body, lang)


def rank_line(p: Profile, gain: int, up: bool, lang: str) -> str:
    """Under a result: the player's rank and points, with a button to the profile."""
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


ICONS = {  # the replay bar's buttons, drawn (no font has to hold ⏮ ⏭)
    "first": '<rect x="4" y="4" width="2.5" height="12" rx="1"/><path d="M16 4v12L7.5 10z"/>',
    "back": '<path d="M14 4v12L5 10z"/>',
    "fwd": '<path d="M6 4v12l9-6z"/>',
    "last": '<path d="M4 4v12l8.5-6z"/><rect x="13.5" y="4" width="2.5" height="12" rx="1"/>',
}


def viewer_html(step: int, steps: int, hand_no: int, last: str, lang: str) -> str:
    """The replay bar: step back and forth through an imported record."""
    t = lambda key, **kw: tr(lang, key, **kw)  # noqa: E731

    def btn(ui: str, icon: str, label: str, off: bool) -> str:
        return (f'<button type="button" class="viewer__btn" data-ui="{ui}" '
                f'aria-label="{esc(label)}"{" disabled" if off else ""}>'
                f'<svg viewBox="0 0 20 20" aria-hidden="true">{ICONS[icon]}</svg></button>')

    what = last or t("viewer_start")
    return (f'<div class="viewer__bar" data-testid="viewer" data-step="{step}" '
            f'data-steps="{steps}" role="toolbar" aria-label="{esc(t("viewer"))}">'
            f'<b class="viewer__title">{esc(t("viewer"))}</b>'
            f'{btn("step-first", "first", t("viewer_first"), step == 0)}'
            f'{btn("step-back", "back", t("viewer_back"), step == 0)}'
            f'<p class="viewer__pos" aria-live="polite"><b>{esc(t("viewer_step", k=step, n=steps))}'
            f'</b> · {esc(t("viewer_hand", n=hand_no))}<br><span>{esc(what)}</span></p>'
            f'{btn("step-fwd", "fwd", t("viewer_fwd"), step >= steps)}'
            f'{btn("step-last", "last", t("viewer_last"), step >= steps)}'
            f'<button type="button" class="act act--small" data-ui="viewer-close" '
            f'aria-label="{esc(t("viewer_close"))}"><span class="act__label">'
            f'{esc(t("viewer_exit"))}</span></button></div>')


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
