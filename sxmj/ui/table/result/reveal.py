"""The end of a hand as the table shows it: the win seen, every hand revealed.

When a hand ends the table first shows it for a moment (:data:`PAUSE`, shorter at the fast
pace): the four hands laid open on the table, the winner's winning tile lifted, and the call
large in the centre panel's place (自摸, 杠开, 抢杠, or 臭庄 for a drawn hand), with the winning
tile. Then the result panel opens;
it lists every seat's hand in a compact row (``[data-testid="hand-reveal"]``, one child per
seat with ``data-seat``) and tells the player what they were waiting on. 看牌桌 View table
hides the panel to read the final rivers and melds; the bar it leaves in the action bar's
place brings it back.

:class:`Ending` keeps the little state (pausing, peeking); the markup is pure.

>>> from sxmj.match import Match
>>> from sxmj.ui.table.state import TableState
>>> m = Match(seed=1)
>>> st = TableState.of(m, lang="en")
>>> reveal_html(st)  # the hand is being played: nothing to reveal
''
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sxmj.melds import Meld
from sxmj.tiles import NUM_PLAYING
from sxmj.ui.i18n import tile_label, tr, wind_char
from sxmj.ui.markup import esc, tile_html
from sxmj.ui.params import SPEEDS
from sxmj.ui.table.assist import hand_figures
from sxmj.ui.table.inputs.touch import tile_names
from sxmj.ui.table.state import ResultInfo, TableState

# seconds the finished hand shows alone at each speed (slow, normal, fast)
PAUSE = dict(zip(SPEEDS, (2.0, 1.5, 0.6), strict=True))


class Ending:
    """Whether the finished hand is still shown alone (``pausing``) and whether the
    player put the result panel aside to look at the table (``peek``). ``render`` redraws."""

    def __init__(self, render: Callable[[], None]):
        self.render = render
        self.pausing = False
        self.peek = False

    def start(self) -> None:
        """A hand just ended: show it on the table before the panel."""
        self.pausing, self.peek = True, False

    def reset(self) -> None:
        """A hand was dealt (or a match resumed): nothing to show."""
        self.pausing = self.peek = False

    async def wait(self, speed: str) -> bool:
        """The bots' loop waits here when a hand is over; True if it paused (the panel is
        then opened and the loop looks again)."""
        if not self.pausing:
            return False
        await asyncio.sleep(PAUSE.get(speed, PAUSE["normal"]))
        if self.pausing:
            self.pausing = False
            self.render()
        return True

    def skip(self) -> None:
        """A tap on the call (or a key): open the panel now."""
        if self.pausing:
            self.pausing = False
            self.render()

    def toggle_peek(self) -> None:
        """看牌桌 View table, and back to the result."""
        self.peek = not self.peek
        self.render()

    def waiting(self, waiting: str) -> str:
        """``body[data-sxmj-waiting]``: ``pause`` while the finished hand shows alone."""
        return "pause" if self.pausing and waiting == "result" else waiting

    def place(self, st: TableState, drawn: dict[str, str]) -> None:
        """Put the end of the hand in the table's regions (``drawn``, by element id): while
        pausing, the call takes the centre panel's place (the revealed hands around it stay
        in sight) and the result panel waits; when the player looks at the table, the bar
        that brings the panel back takes the action bar's place (the panel stays, hidden)."""
        if st.result is None or st.viewer:
            return
        if self.pausing:
            drawn["panel"] = call_html(st)
            drawn["result"] = ""
        elif self.peek:
            drawn["actions"] = peek_html(st)
            drawn["result"] = f'<div class="result__aside" hidden>{drawn["result"]}</div>'


# ------------------------------------------------------------------ the call


def call_words(r: ResultInfo, lang: str) -> tuple[str, str]:
    """The call shown large and the line under it."""
    if r.winner is None:
        return tr(lang, "call_draw"), tr(lang, "result_draw_note")
    call = tr(lang, {"rob": "call_rob", "kong": "call_kong", "flower": "call_flower"}
              .get(r.win_by, "call_zimo"))
    who = tr(lang, "result_you_win") if r.winner == 0 else tr(lang, "result_win",
                                                              name=_name(r.winner, lang))
    return call, who


def call_html(st: TableState) -> str:
    """The finished hand's moment, in the centre panel's place: the call large and the
    winning tile lifted (the winner's hand lies open at its seat); a tap opens the result."""
    r = st.result
    assert r is not None
    call, line = call_words(r, st.lang)
    kind = "draw" if r.winner is None else "win"
    hand = ""
    win = r.evaluation.win_tile if r.winner is not None and r.evaluation is not None else None
    if win is not None:
        hand = f'<span class="call__hand">{tile_html(win, st, cls="is-win")}</span>'
    first = (f'<span class="call__first" data-testid="first-win">'
             f'{esc(tr(st.lang, "first_win"))}</span>' if st.first_win else "")
    return (f'<div class="call call--{kind}{" call--first" if first else ""}" '
            f'data-testid="win-call" data-result="{kind}">'
            f'<button type="button" class="call__card" data-ui="see-result" '
            f'aria-label="{esc(line)} — {esc(tr(st.lang, "call_open"))}">{first}'
            f'<b class="call__word">{esc(call)}</b><span class="call__line">{esc(line)}</span>'
            f'{hand}</button></div>')


def _tiles(st: TableState, tiles: list[int], lifted: int | None) -> str:
    """Tiles in a row (财神 first); the first copy of ``lifted`` raised: the winning tile."""
    order = sorted(tiles, key=lambda t: (t != st.caishen, t))
    out = []
    for t in order:
        cls = ""
        if lifted is not None and t == lifted:
            cls, lifted = "is-win", None
        out.append(tile_html(t, st, cls=cls))
    return "".join(out)


def _name(seat: int, lang: str) -> str:
    return tr(lang, "you") if seat == 0 else tr(lang, f"name_{seat}")


# ------------------------------------------------------------------ every hand revealed


def recap(st: TableState, tiles: list[int]) -> str:
    """The player's hand at the end in words: 你听：三索、六索 / not ready: 2 tiles away."""
    hand = [t for t in tiles if t < NUM_PLAYING]
    if len(hand) % 3 != 1:
        return ""
    melds = st.obs.melds[0]
    winds = bool(melds) and all(m.is_wind_set for m in melds)
    d, waits, any_tile, _ = hand_figures(hand, 4 - len(melds), st.caishen, [0] * 42, winds)
    if any_tile:
        return tr(st.lang, "recap_any")
    if d == 0:
        return tr(st.lang, "recap_waits", tiles=tile_names([w.tile for w in waits], st.lang))
    return tr(st.lang, "recap_distance", n=d, s="" if d == 1 else "s")


def _meld(m: Meld, st: TableState) -> str:
    inner = "".join(tile_html(t, st) for t in m.tiles)
    label = f'{tr(st.lang, "act_" + m.kind)}'
    return f'<span class="tg reveal__meld" data-kind="{esc(m.kind)}" title="{esc(label)}">' \
           f'{inner}</span>'


def reveal_html(st: TableState) -> str:
    """Every seat's hand at the end, one compact row each (the player's with a recap)."""
    r = st.result
    if r is None or not r.hands:
        return ""
    hands = r.hands
    winner = r.winner
    win_tile = r.evaluation.win_tile if r.evaluation is not None else None
    rows = []
    for seat in range(4):
        name = _name(seat, st.lang)
        mark = (f'<b class="reveal__hu">{esc(tr(st.lang, "reveal_won"))}</b>'
                if seat == winner else "")
        tiles = _tiles(st, hands[seat], win_tile if seat == winner else None)
        melds = "".join(_meld(m, st) for m in st.obs.melds[seat])
        flowers = len(st.obs.flowers[seat])
        note = ""
        if seat == 0 and seat != winner:
            words = recap(st, hands[0])
            if words:
                note = f'<p class="reveal__recap" data-testid="recap">{esc(words)}</p>'
        label = tr(st.lang, "reveal_row", name=name, tiles=", ".join(
            tile_label(t, st.lang) for t in sorted(hands[seat])))
        rows.append(
            f'<div class="reveal__row{" is-winner" if seat == winner else ""}" '
            f'data-seat="{seat}" role="group" aria-label="{esc(label)}">'
            f'<span class="reveal__who"><b class="pay__wind">{wind_char(seat, st.dealer)}'
            f'</b>{esc(name)}{mark}</span>'
            f'<span class="reveal__tiles">{tiles}{melds}'
            f'<small class="reveal__flowers">{esc(tr(st.lang, "flowers_count", n=flowers))}'
            f'</small></span>{note}</div>')
    return (f'<section class="reveal" aria-labelledby="reveal-title">'
            f'<h3 class="reveal__title" id="reveal-title">{esc(tr(st.lang, "reveal_title"))}'
            f'</h3><div class="reveal__rows" data-testid="hand-reveal">{"".join(rows)}</div>'
            f'</section>')


def peek_html(st: TableState) -> str:
    """The bar left on the table while the panel is aside: back to the result, next hand."""
    nxt = ""
    if not st.match_over:
        nxt = (f'<button type="button" class="act act--primary" data-action="next-hand" '
               f'data-key="n" aria-keyshortcuts="N"><span class="act__label">'
               f'{esc(st.again_label or tr(st.lang, "act_next_hand"))}</span></button>')
    return (f'<div class="peek" data-testid="peek" role="toolbar" '
            f'aria-label="{esc(tr(st.lang, "view_table"))}">'
            f'<button type="button" class="act act--ghost" data-ui="view-table" '
            f'aria-pressed="true"><span class="act__label">{esc(tr(st.lang, "view_result"))}'
            f'</span></button>{nxt}</div>')
