"""The welcome card: one screen for a first visit (``[data-testid="welcome"]``).

Who you are (the seat at the bottom), who deals, what the 财神 is and why it matters, that
only a self-drawn tile wins, and where to learn more (the rules, the practice scenarios).
"Don't show again" is kept in ``localStorage["sxmj.welcome"]``. It opens on a plain visit
to the table by someone who has not played a hand yet: a link with a ``seed`` (a shared deal,
a test) or a ``scenario`` plays at once, and a player with hands in the profile knows the
table. A visitor whose stored data could not be read is returning, not new: the notice that
says what was reset is theirs to read, and a card over it would hide it.

>>> from sxmj.match import Match
>>> from sxmj.ui.table.state import TableState
>>> 'data-testid="welcome"' in welcome_html(TableState.of(Match(seed=2), lang="en"))
True
>>> wanted("", None, 0), wanted("?seed=4", None, 0), wanted("", HIDDEN, 0), wanted("", None, 3)
(True, False, False, False)
>>> wanted("", None, 0, returning=True)
False
"""

from __future__ import annotations

from functools import partial
from urllib.parse import parse_qs

from sxmj.tiles import tile_name
from sxmj.ui.i18n import seat_name, tile_label, tr, wind_name
from sxmj.ui.markup import esc, tile_html
from sxmj.ui.table.state import TableState

KEY = "sxmj.welcome"
HIDDEN = "hidden"  # the stored value once the player chose "don't show again"


def wanted(search: str, stored: str | None, hands: int, returning: bool = False) -> bool:
    """Show the card? On a plain visit before the first hand played (``hands`` in the
    profile), until the player says not to; never to a ``returning`` visitor (stored data
    was found, even if it could not be read)."""
    q = parse_qs(search.lstrip("?"))
    return (stored != HIDDEN and not hands and not returning
            and "seed" not in q and "scenario" not in q and "daily" not in q)


def welcome_html(st: TableState) -> str:
    """The card, with this hand's seat, dealer and 财神."""
    lang = st.lang
    say = partial(tr, lang)
    dealer = st.dealer
    deals = say("welcome_you_deal") if dealer == 0 else say("welcome_deals",
                                                            name=seat_name(dealer, lang))
    seat = say("welcome_seat", wind=wind_name(0, dealer, lang), right=seat_name(1, lang),
               across=seat_name(2, lang), left=seat_name(3, lang))
    cai = say("welcome_cai", tile=tile_label(st.caishen, lang),
              indicator=tile_name(st.obs.indicator, lang))
    q = "?lang=en" if lang == "en" else ""
    points = [
        ("welcome-seat", "座", seat + ("" if lang == "zh" else " ") + deals),
        ("welcome-cai", "", cai),
        ("welcome-zimo", "摸", say("welcome_zimo")),
    ]
    items = []
    for tid, icon, text in points:
        mark = (f'<span class="welcome__tile">{tile_html(st.caishen, st)}</span>'
                if tid == "welcome-cai" else
                f'<span class="welcome__icon" aria-hidden="true">{icon}</span>')
        items.append(f'<li data-testid="{tid}">{mark}<p>{esc(text)}</p></li>')
    daily = "" if not st.daily_link else (
        f'<a class="act act--ghost" href="{esc(st.daily_link)}" data-testid="daily-open">'
        f'<span class="act__label">{esc(say("welcome_daily"))}</span></a>')
    return (
        f'<div class="welcome" data-testid="welcome" role="document" '
        f'aria-labelledby="welcome-title">'
        f'<h2 id="welcome-title">{esc(say("welcome_title"))}</h2>'
        f'<p class="welcome__lead">{esc(say("welcome_lead"))}</p>'
        f'<ul class="welcome__points">{"".join(items)}</ul>'
        f'<nav class="welcome__links" aria-label="{esc(say("help_more"))}">'
        f'<a class="act act--ghost" href="./learn.html{q}" data-testid="welcome-rules">'
        f'<span class="act__label">{esc(say("welcome_rules"))}</span></a>'
        f'<a class="act act--ghost" href="./learn.html{q}#scenarios" '
        f'data-testid="welcome-scenarios"><span class="act__label">'
        f'{esc(say("welcome_scenarios"))}</span></a>{daily}'
        f'<button type="button" class="act act--ghost" data-ui="join-room-open" '
        f'data-testid="join-room-open"><span class="act__label">{esc(say("join_open"))}'
        f'</span></button></nav>'
        f'<div class="welcome__foot"><label class="welcome__hide">'
        f'<input type="checkbox" data-testid="welcome-hide" id="welcome-hide">'
        f'<span>{esc(say("welcome_hide"))}</span></label>'
        f'<button type="button" class="act act--primary" data-ui="welcome-ok" autofocus>'
        f'<span class="act__label">{esc(say("welcome_ok"))}</span></button></div></div>')
