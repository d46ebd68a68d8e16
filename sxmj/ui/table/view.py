"""The table as HTML: pure functions from a :class:`TableState` to markup strings.

No DOM and no rule logic here. What the player may do comes from the engine's
``legal_actions``; this module only draws it. Each region of the page (a seat, a
river, the centre panel, the hand, the action bar, the result) is one string of
escaped markup, assigned with a single ``innerHTML`` by :mod:`sxmj.ui.table.app`. The regions
are drawn by :mod:`sxmj.ui.table.seats`, :mod:`sxmj.ui.table.action_bar` and
:mod:`sxmj.ui.table.result.hand`,
from a :class:`sxmj.ui.table.state.TableState` with the tiles of :mod:`sxmj.ui.markup`; this
module puts them together (and names them for the controller).

Seats: 0 is the player (bottom); play goes 0 → 1 (right, 下家) → 2 (across) →
3 (left, 上家). Each seat's tiles are drawn in its own frame and turned by the
seat's angle, so a claimed tile turns toward whoever gave it.

>>> from sxmj.match import Match
>>> m = Match(seed=1)
>>> html = render_all(TableState.of(m, lang="en"))
>>> 'data-testid="caishen"' in html["panel"]
True
"""

from __future__ import annotations

from sxmj.bots import LEVELS
from sxmj.game import Event
from sxmj.ui.i18n import seat_name, tile_label, tr
from sxmj.ui.markup import POS, code, esc, group_html, meld_html, tile_html
from sxmj.ui.table.action_bar import GHOST_KEYS, Button, actions_html, buttons, status_text
from sxmj.ui.table.result.hand import result_html
from sxmj.ui.table.seats import (
    drawn_tile,
    hand_html,
    hand_order,
    me_melds_html,
    me_plate_html,
    opponent_html,
    panel_html,
    river_html,
)
from sxmj.ui.table.state import ResultInfo, TableState

__all__ = [  # the table's markup, as the controller and the tests use it
    "GHOST_KEYS", "POS", "Button", "ResultInfo", "TableState", "actions_html", "buttons",
    "callout_html", "code", "drawn_tile", "esc", "event_notes", "fresh_events", "group_html",
    "hand_html", "hand_order", "meld_html", "menu_html", "opponent_html", "panel_html",
    "render_all", "result_html", "river_html", "status_text", "tile_html",
]

# ------------------------------------------------------------------ menu


# two people (an inline drawing: a phone's menu shows only this, and no emoji font is needed)
FRIENDS_ICON = ('<svg class="chip__icon" viewBox="0 0 20 16" width="16" height="13" '
                'aria-hidden="true" fill="currentColor"><circle cx="7" cy="4" r="3"/>'
                '<circle cx="14" cy="5" r="2.5"/><path d="M1 15c0-3.5 2.7-6 6-6s6 2.5 6 6z"/>'
                '<path d="M12.5 15c0-2-.6-3.7-1.7-5 .9-.6 2-1 3.2-1 2.8 0 5 2 5 5v1z"/></svg>')


DAILY_ICON = ('<svg class="chip__icon" viewBox="0 0 20 20" width="16" height="16" '
              'aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8">'
              '<rect x="2.5" y="4" width="15" height="13.5" rx="2"/><path d="M2.5 8.5h15M6.5 '
              '2v4M13.5 2v4"/><circle cx="10" cy="13" r="1.6" fill="currentColor" '
              'stroke="none"/></svg>')


def menu_html(st: TableState) -> str:
    """The top bar: the brand, then the match's chips (rules, seed, bots, speed, language, new
    match, friends) and the player's (profile, settings, help). Where the bar is too narrow
    for them all (a phone, portrait or landscape) the match's chips fold into a menu behind
    ☰ (``data-ui="menu-more"``, a popover: no script), one per line; the player's stay."""
    room = bool(st.names)  # a friends room: no seed to share, the room is open already
    seed = ("" if room or not st.seed_shown else
            f'<a class="chip chip--seed" href="{esc(st.link)}" title="{esc(st.tr("seed_label"))}">'
            f'{esc(st.tr("seed"))} <b>{st.seed}</b></a>')
    friends = ("" if room else
               f'<button type="button" class="chip chip--friends" data-ui="friends-create" '
               f'data-testid="friends-create" title="{esc(st.tr("friends_label"))}" '
               f'aria-label="{esc(st.tr("friends"))}">{FRIENDS_ICON}'
               f'<span class="chip__text">{esc(st.tr("friends"))}</span></button>')
    join = ("" if room else  # 加入房间: a 房号 typed (one element holds the hook at a time)
            f'<button type="button" class="chip chip--join" data-ui="join-room-open" '
            f'data-testid="{"menu-join" if st.welcome_open else "join-room-open"}" '
            f'title="{esc(st.tr("join_title"))}"><span class="chip__text">'
            f'{esc(st.tr("join_open"))}</span></button>')
    new = ("" if room else  # a room's match is the room's: it ends when the room closes
           f'<button type="button" class="chip chip--new" data-action="new-match" '
           f'title="{esc(st.tr("new_match_label"))}">{esc(st.tr("new_match"))}</button>')
    speed = st.tr(f"speed_{st.speed}")
    level = st.tr(f"level_{st.level}" if st.level in LEVELS else "level_mixed")
    daily = "" if room or not st.daily_link else (  # one element holds the hook at a time
        f'<a class="chip chip--daily" href="{esc(st.daily_link)}" '
        f'data-testid="{"menu-daily" if st.welcome_open else "daily-open"}" '
        f'title="{esc(st.tr("daily_open_label"))}" aria-label="{esc(st.tr("daily_open_label"))}">'
        f'{DAILY_ICON}<span class="chip__text">{esc(st.tr("daily"))}</span></a>')
    more = (f'<button type="button" class="chip chip--more" data-ui="menu-more" '
            f'popovertarget="menu-more" aria-label="{esc(st.tr("menu_more_label"))}">'
            f'<span class="chip__burger" aria-hidden="true"><i></i><i></i><i></i></span>'
            f'<span class="chip__text">{esc(st.tr("menu"))}</span></button>')
    return (
        f'<h1 class="brand"><img src="./static/icons/favicon.svg" alt="" width="22" height="22">'
        f'<span>{esc(st.tr("title"))}</span></h1>'
        f'<div class="menu__items" id="menu-more" popover>{st.menu_rules}'
        f'{seed}'
        f'<button type="button" class="chip chip--level" data-ui="level" '
        f'title="{esc(st.tr("level_label", level=level))}">'
        f'{esc(st.tr("bots_level", level=level))}</button>'
        f'<button type="button" class="chip chip--speed" data-ui="speed" '
        f'title="{esc(st.tr("speed_label", speed=speed))}">'
        f'{esc(st.tr("speed"))} <b>{esc(speed)}</b></button>'
        f'<button type="button" class="chip chip--lang" data-ui="lang" '
        f'lang="{"en" if st.lang == "zh" else "zh"}" '
        f'title="{esc(st.tr("lang_switch_label"))}">{esc(st.tr("lang_switch"))}</button>'
        f'{new}{friends}{join}</div>'
        f'<div class="menu__bar">{daily}{st.menu_extra}{more}</div>')


# ------------------------------------------------------------------ the whole table


def render_all(st: TableState) -> dict[str, str]:
    """Every region's markup, keyed by the element id it fills."""
    out = {
        "menu": menu_html(st),
        "seat-1": opponent_html(1, st),
        "seat-2": opponent_html(2, st),
        "seat-3": opponent_html(3, st),
        "panel": panel_html(st),
        "me-plate": me_plate_html(st),
        "me-melds": me_melds_html(st),
        "hand": hand_html(st),
        "actions": actions_html(st),
        "result": result_html(st),
    }
    for seat in range(4):
        out[f"river-{POS[seat]}"] = river_html(seat, st)
    return out


def fresh_events(events: list[dict]) -> dict[str, set[int]]:
    """Which seats got a new meld, flower or drawn tile in these events."""
    fresh: dict[str, set[int]] = {"meld": set(), "flower": set(), "draw": set()}
    for e in events:
        if e["type"] in (Event.CLAIM, Event.KONG):
            fresh["meld"].add(e["seat"])
        elif e["type"] == Event.FLOWER:
            fresh["flower"].add(e["seat"])
        elif e["type"] == Event.DRAW:
            fresh["draw"].add(e["seat"])
    return fresh


def callout_html(seat: int, text: str, serial: int) -> str:
    """A short speech bubble at a seat (碰！); ``serial`` makes each one new."""
    return f'<p class="callout__bubble" data-n="{serial}">{esc(text)}</p>'


# ------------------------------------------------------------------ what just happened


def event_notes(events: list[dict], lang: str) -> tuple[dict[int, str], list[str]]:
    """Speech bubbles per seat and log lines for the events of one action.

    Only public events are described: a bot's draw is never named.
    """
    bubbles: dict[int, str] = {}
    lines: list[str] = []
    for e in events:
        kind = e["type"]
        if kind == Event.EXHAUSTED:
            lines.append(tr(lang, "log_exhausted"))
            continue
        seat = e.get("seat")
        if seat is None:  # every event described here names its seat
            continue
        name = seat_name(seat, lang)
        if kind == Event.DISCARD:
            lines.append(tr(lang, "log_discard", name=name, tile=tile_label(e["tile"], lang)))
            if e.get("piao"):
                bubbles[seat] = tr(lang, "say_piao")
        elif kind == Event.CLAIM:
            act = tr(lang, "act_" + e["kind"])
            lines.append(tr(lang, "log_claim", name=name, act=act,
                            tile=tile_label(e["tile"], lang)))
            bubbles[seat] = tr(lang, "say_" + ("gang" if e["kind"] == "minggang" else e["kind"]))
        elif kind == Event.KONG:
            lines.append(tr(lang, "log_claim", name=name, act=tr(lang, "act_" + e["kind"]),
                            tile=tile_label(e["tile"], lang)))
            bubbles[seat] = tr(lang, "say_gang")
        elif kind == Event.FLOWER:
            lines.append(tr(lang, "log_flower", name=name, tile=tile_label(e["tile"], lang)))
            bubbles.setdefault(seat, tr(lang, "say_flower"))
        elif kind == Event.HU:
            lines.append(tr(lang, "log_hu", name=name))
            bubbles[seat] = tr(lang, "say_hu" if e.get("win_by") == "rob" else "say_zimo")
    return bubbles, lines
