"""The sheet (the ⚙ and ? dialog): its tabs, settings, profile, records, help and keys.

Pure functions to escaped HTML strings, like :mod:`sxmj.ui.table.comforts`; the controller shows
the open tab with :func:`sheet_markup`."""

from __future__ import annotations

from functools import partial

from sxmj.ranks import PLACE_POINTS, RANK_POINTS_PER_POINT, RANKS
from sxmj.room.ice import PRESETS as ICE_PRESETS
from sxmj.rules import BASE_FLOWERS, Options
from sxmj.scoring import PATTERNS
from sxmj.ui.i18n import LANGS, seat_name, tr
from sxmj.ui.markup import esc, powers_html
from sxmj.ui.params import SPEEDS
from sxmj.ui.table.sound import VOLUMES
from sxmj.ui.table.storage.saved import ANIMS, LEVELS, TAPS, Profile, Settings

TABS = ("help", "keys", "settings", "profile", "records")  # ? opens help, ⚙ settings
RULE_FLAGS = ("flower_is_kong", "piao_blocks_claims", "baotou_required", "contract")
RESERVED_CHOICES = (0, 2, 4, 6, 8, 10, 14, 16, 20)
FAN_CAPS = (1, 2, 3, 4, 5, 6)
MATCH_HANDS = (1, 2, 4, 8, 12, 16, 0)  # a match's length (0: endless)


# what a custom list looks like (the field's placeholder): a TURN server on 443 over TLS
ICE_EXAMPLE = '[{"urls": "turns:turn.example.cn:443", "username": "…", "credential": "…"}]'


def broker_reload_html(lang: str) -> str:
    """The broker field's note when the setting was saved but this page can't reach it
    before it reloads (its connect policy is fixed at load), with the reload button."""
    return (f'{esc(tr(lang, "set_broker_reload"))} <button type="button" class="act" '
            f'data-reload data-testid="broker-reload">{esc(tr(lang, "reload"))}</button>')


# ------------------------------------------------------------------ the sheet


def rules_summary(opts: Options, lang: str, length: bool = False) -> str:
    """The rule options in a few words: 底花 first, then whatever differs from the book
    (and the match's length even at its default, with ``length``)."""
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
    if length or opts.match_hands != Options().match_hands:
        parts.append(tr(lang, "summary_match_hands", n=opts.match_hands) if opts.match_hands
                     else tr(lang, "summary_endless"))
    return " · ".join(parts)


def _select(name: str, value: object, choices, label_of, label: str) -> str:
    opts = "".join(f'<option value="{esc(c)}"{" selected" if c == value else ""}>'
                   f'{esc(label_of(c))}</option>' for c in choices)
    return (f'<label class="field"><span class="field__label">{esc(label)}</span>'
            f'<select data-setting="{name}">{opts}</select></label>')


def _check(name: str, on: bool, label: str, note: str) -> str:
    return (f'<label class="field field--check"><input type="checkbox" data-setting="{name}"'
            f'{" checked" if on else ""}><span class="field__label">{esc(label)}'
            f'<small>{esc(note)}</small></span></label>')


def settings_html(s: Settings, now: Options, lang: str,
                  broker_after_reload: bool = False) -> str:
    say = partial(tr, lang)
    game = "".join([
        _select("lang", s.lang, LANGS, lambda c: say("lang_" + c), say("set_lang")),
        _select("speed", s.speed, SPEEDS, lambda c: say("speed_" + c), say("set_speed")),
        _select("anim", s.anim, ANIMS, lambda c: say("anim_" + c), say("set_anim")),
        _select("tap", s.tap, TAPS, lambda c: say("tap_" + c), say("set_tap")),
        _check("assist", s.assist, say("set_assist"), say("assist_toggle")),
    ])
    sd = s.sound
    sounds = "".join([
        _check("sound", sd.on, say("set_sound_on"), say("set_sound_on_note")),
        _select("volume", sd.volume, VOLUMES, lambda v: f"{v}%", say("set_volume")),
        _check("speech", sd.speech, say("set_speech"), say("set_speech_note")),
        _check("cues", sd.cues, say("set_cues"), say("set_cues_note")),
        _check("notify", sd.notify, say("set_notify"), say("set_notify_note")),
    ])
    friends = (f'<label class="field"><span class="field__label">{esc(say("set_broker"))}</span>'
               f'<input type="url" data-setting="broker" data-testid="broker-setting" '
               f'value="{esc(s.broker)}" placeholder="https://0.peerjs.com/" '
               f'inputmode="url" autocomplete="off" spellcheck="false">'
               f'<small data-testid="broker-note" aria-live="polite">'
               f'{broker_reload_html(lang) if broker_after_reload else esc(say("set_broker_note"))}'
               f'</small></label>'
               + _select("ice", s.ice, ICE_PRESETS, lambda c: say("ice_" + c), say("set_ice"))
               .replace("<select ", '<select data-testid="ice-setting" ')
               .replace("</label>", f'<small>{esc(say("set_ice_note"))}</small></label>')
               + f'<label class="field field--wide"><span class="field__label">'
               f'{esc(say("set_ice_servers"))}</span>'
               f'<textarea data-setting="ice_servers" data-testid="ice-servers-setting" rows="3" '
               f'spellcheck="false" autocomplete="off" placeholder="{esc(ICE_EXAMPLE)}">'
               f'{esc(s.ice_servers)}</textarea><small aria-live="polite">'
               f'{esc(say("set_ice_servers_note"))}</small></label>'
               f'<label class="field"><span class="field__label">{esc(say("set_turn_secret"))}'
               f'</span><input type="password" data-setting="turn_secret" '
               f'data-testid="turn-secret-setting" value="{esc(s.turn_secret)}" '
               f'autocomplete="off" spellcheck="false"><small aria-live="polite">'
               f'{esc(say("set_turn_secret_note"))}</small></label>')
    bots = "".join(_select(f"bot{seat}", s.bots[seat - 1], LEVELS,
                           lambda c: say("level_" + c), seat_name(seat, lang))
                   for seat in (1, 2, 3))
    r = s.rules
    note = f'<small>{powers_html(say("rule_base_flowers_note"))}</small></label>'
    rules = [_select("base_flowers", r.base_flowers, BASE_FLOWERS, str, say("rule_base_flowers"))
             .replace("</label>", note)]
    for name in RULE_FLAGS:
        rules.append(_check(name, getattr(r, name), say("rule_" + name), say(f"rule_{name}_note")))
    fan_caps = sorted(set(FAN_CAPS) | {r.fan_cap})
    rules.append(_select("fan_cap", r.fan_cap, fan_caps, str, say("rule_fan_cap"))
                 .replace("</label>", f'<small>{esc(say("rule_fan_cap_note"))}</small></label>'))
    reserved = sorted(set(RESERVED_CHOICES) | {r.reserved_tiles})
    rules.append(_select("reserved_tiles", r.reserved_tiles, reserved, str,
                         say("rule_reserved_tiles"))
                 .replace("</label>",
                          f'<small>{esc(say("rule_reserved_tiles_note"))}</small></label>'))
    lengths = sorted(set(MATCH_HANDS) | {r.match_hands}, key=lambda n: (n == 0, n))
    rules.append(_select("match_hands", r.match_hands, lengths,
                         lambda n: str(n) if n else say("match_endless"), say("rule_match_hands"))
                 .replace("</label>",
                          f'<small>{esc(say("rule_match_hands_note"))}</small></label>'))
    pending = ""
    if r != now:
        pending = (f'<p class="sheet__pending" data-testid="rules-pending" role="status">'
                   f'{esc(say("set_rules_pending", summary=rules_summary(r, lang)))}</p>')
    return (
        f'<form class="sheet__form" data-form="settings">'
        f'<fieldset><legend>{esc(say("set_game"))}</legend>{game}</fieldset>'
        f'<fieldset data-testid="sound-settings"><legend>{esc(say("set_sound"))}</legend>'
        f'{sounds}</fieldset>'
        f'<fieldset><legend>{esc(say("set_bots"))}</legend>{bots}</fieldset>'
        f'<fieldset><legend>{esc(say("set_friends"))}</legend>{friends}</fieldset>'
        f'<fieldset><legend>{esc(say("set_rules"))}</legend>'
        f'<p class="sheet__note">{esc(say("set_rules_note"))}</p>{"".join(rules)}{pending}'
        f'<div class="sheet__row">'
        f'<button type="button" class="act act--primary" data-action="new-match">'
        f'<span class="act__label">{esc(say("set_new_match"))}</span></button>'
        f'<button type="button" class="act act--ghost" data-ui="rules-reset">'
        f'<span class="act__label">{esc(say("set_rules_reset"))}</span></button></div>'
        f'</fieldset><p class="sheet__note">{esc(say("set_saved"))}</p></form>')


def _patterns(ids: list[str], lang: str) -> str:
    if not ids:
        return tr(lang, "plain_win")
    return ("、" if lang == "zh" else ", ").join(
        PATTERNS[p][0] if lang == "zh" else f"{PATTERNS[p][0]} {PATTERNS[p][1]}"
        for p in ids if p in PATTERNS)


def profile_html(p: Profile, lang: str) -> str:
    say = partial(tr, lang)
    rank = p.rank
    title = rank.title_zh if lang == "zh" else rank.title_en
    other = rank.title_en if lang == "zh" else rank.title_zh
    pct = round(rank.progress * 100, 1)
    if rank.next_at is None:
        nxt = say("rank_top")
    else:
        _, (zh, en) = RANKS[rank.level]
        nxt = say("rank_next", n=rank.next_at - rank.points, title=zh if lang == "zh" else en)
    rate = f"{round(100 * p.wins / p.hands)}%" if p.hands else "—"
    if p.best:
        best = say("stat_best_text", gain=f'+{p.best["gain"]}', fan=p.best["fan"],
                   patterns=_patterns(p.best.get("patterns", []), lang), seed=p.best["seed"],
                   hand=p.best["hand"])
    else:
        best = say("stat_best_none")
    stats = [("stat_points", str(p.points)), ("stat_net", f"{p.net:+d}" if p.net else "0"),
             ("stat_hands", str(p.hands)), ("stat_wins", str(p.wins)), ("stat_rate", rate),
             ("stat_matches", str(p.matches)), ("stat_places", " / ".join(map(str, p.places)))]
    cells = "".join(f'<div class="stat{" stat--wide" if k == "stat_places" else ""}">'
                    f'<dt>{esc(say(k))}</dt><dd>{esc(v)}</dd></div>' for k, v in stats)
    return (
        f'<section class="profile" data-testid="profile" data-points="{p.points}" '
        f'data-hands="{p.hands}" data-wins="{p.wins}" data-rank="{esc(rank.title_zh)}" '
        f'data-matches="{p.matches}" data-places="{" ".join(map(str, p.places))}" '
        f'data-level="{rank.level}">'
        f'<div class="rank"><span class="rank__badge" aria-hidden="true">★</span>'
        f'<div><p class="rank__title" lang="{"zh-Hans" if lang == "zh" else "en"}">'
        f'{esc(title)}</p><p class="rank__sub">{esc(other)} · '
        f'{esc(say("rank_level", n=rank.level, of=len(RANKS)))}</p></div></div>'
        f'<div class="rank__bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" '
        f'aria-valuenow="{pct}" aria-label="{esc(nxt)}"><i style="width:{pct}%"></i></div>'
        f'<p class="rank__next">{esc(say("rank_points", n=p.points))} · {esc(nxt)}</p>'
        f'<dl class="stats">{cells}</dl>'
        f'<p class="stat stat--best"><b>{esc(say("stat_best"))}</b> '
        f'<span data-testid="best-hand">{esc(best)}</span></p>'
        f'{ranks_explained(rank.level, lang)}</section>')


def _titles_table(rows: list[tuple[int, int, str, str]], here: int, lang: str) -> str:
    """Titles (level, points, zh, en) as a table, the player's own marked."""
    say = partial(tr, lang)
    body = []
    for level, floor, zh, en in rows:
        title = zh if lang == "zh" else f"{en} ({zh})"
        mine = level == here
        mark = f' <b class="ranks__here">{esc(say("rank_here"))}</b>' if mine else ""
        cls = ' class="is-here"' if mine else ""
        body.append(f'<tr data-level="{level}"{cls}>'
                    f'<th scope="row">{esc(title)}{mark}</th><td>{floor}</td></tr>')
    return (f'<table class="ranks__table"><thead><tr><th scope="col">{esc(say("col_title"))}'
            f'</th><th scope="col">{esc(say("col_points"))}</th></tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def ranks_explained(level: int, lang: str) -> str:
    """How rank points add up, and the titles: the player's and the next three, then all
    of them behind a disclosure (issue 27: the thresholds explained where the rank is)."""
    say = partial(tr, lang)
    rows = [(i + 1, floor, zh, en) for i, (floor, (zh, en)) in enumerate(RANKS)]
    near = rows[level - 1:level + 3]
    places = dict(zip(("p1", "p2", "p3", "p4"), PLACE_POINTS, strict=True))
    return (f'<section class="ranks" data-testid="rank-rules" aria-labelledby="ranks-how">'
            f'<h3 class="ranks__h" id="ranks-how">{esc(say("profile_how"))}</h3>'
            f'<p class="sheet__note">'
            f'{esc(say("profile_note", per=RANK_POINTS_PER_POINT, **places))}</p>'
            f'<h3 class="ranks__h">{esc(say("profile_titles"))}</h3>'
            f'{_titles_table(near, level, lang)}'
            f'<details class="ranks__all"><summary>'
            f'{esc(say("profile_titles_all", n=len(RANKS)))}</summary>'
            f'{_titles_table(rows, level, lang)}</details></section>')


def records_html(link: str, status: str, lang: str, can_export: bool = True) -> str:
    say = partial(tr, lang)
    export = (f'<button type="button" class="act" data-ui="export"'
              f'{"" if can_export else " disabled"}>'
              f'<span class="act__label">{esc(say("rec_export"))}</span></button>')
    return (
        f'<section class="records">'
        f'<div class="rec"><h3>{esc(say("rec_export"))}</h3><p class="sheet__note">'
        f'{esc(say("rec_export_note"))}</p>{export}</div>'
        f'<div class="rec"><h3>{esc(say("rec_import"))}</h3><p class="sheet__note">'
        f'{esc(say("rec_import_note"))}</p>'
        f'<label class="act act--file"><span class="act__label">{esc(say("rec_import"))}</span>'
        f'<input type="file" accept=".json,application/json" data-ui="import" '
        f'data-testid="import"></label></div>'
        f'<div class="rec"><h3>{esc(say("rec_link"))}</h3><p class="sheet__note">'
        f'{esc(say("rec_link_note"))}</p>'
        f'<input class="rec__link" type="text" readonly value="{esc(link)}" '
        f'data-testid="seed-link" aria-label="{esc(say("rec_link"))}">'
        f'<button type="button" class="act" data-ui="copy-link">'
        f'<span class="act__label">{esc(say("rec_link"))}</span></button></div>'
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
                 lang: str, broker_after_reload: bool = False) -> str:
    """The sheet with ``tab`` open: ``now`` the rules in play, ``records`` the Records tab's
    seed link and status (:class:`sxmj.ui.table.replay.records.Records`); ``broker_after_reload``
    when the broker setting is one this page reaches only once it reloads."""
    if tab == "settings":
        body = settings_html(settings, now, lang, broker_after_reload)
    elif tab == "profile":
        body = profile_html(profile, lang)
    elif tab == "records":
        body = records_html(records.seed_link(), records.status, lang)
    elif tab == "help":
        body = help_html(lang)
    else:
        body = keys_html(lang)
    return sheet_html(tab, body, lang)
