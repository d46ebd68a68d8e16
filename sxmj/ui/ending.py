"""The end of a hand as the table shows it: the win seen before the result.

When a hand ends the table first shows it for a moment (:data:`PAUSE`, shorter at the fast
pace): the winner's hand laid open with the winning tile lifted, and the call large in the
middle (自摸, 杠开, 抢杠, or 臭庄 for a drawn hand). Then the result panel opens.

:class:`Ending` keeps the little state (pausing); the markup is pure.

>>> from sxmj.match import Match
>>> from sxmj.ui.view import TableState
>>> Ending(lambda: None).region(TableState.of(Match(seed=1), lang="en"), "CARD")
'CARD'
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .i18n import tr
from .view import ResultInfo, TableState, esc, tile_html

PAUSE = {"slow": 2.0, "normal": 1.5, "fast": 0.6}  # seconds the finished hand shows alone


class Ending:
    """Whether the finished hand is still shown alone (``pausing``). ``render`` redraws."""

    def __init__(self, render: Callable[[], None]):
        self.render = render
        self.pausing = False

    def start(self) -> None:
        """A hand just ended: show it on the table before the panel."""
        self.pausing = True

    def reset(self) -> None:
        """A hand was dealt (or a match resumed): nothing to show."""
        self.pausing = False

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

    def waiting(self, waiting: str) -> str:
        """``body[data-sxmj-waiting]``: ``pause`` while the finished hand shows alone."""
        return "pause" if self.pausing and waiting == "result" else waiting

    def region(self, st: TableState, card: str) -> str:
        """The result region: the call while pausing, then the panel."""
        if st.result is None or st.viewer:
            return card
        if self.pausing:
            return call_html(st)
        return card


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
    """The finished hand's moment: the call large, the winner's hand with the winning tile
    lifted (a tap opens the panel at once)."""
    r = st.result
    assert r is not None
    call, line = call_words(r, st.lang)
    kind = "draw" if r.winner is None else "win"
    hand = ""
    if r.winner is not None and r.evaluation is not None:
        hand = f'<span class="call__hand">{_tiles(st, r.hand, r.evaluation.win_tile)}</span>'
    return (f'<div class="call call--{kind}" data-testid="win-call" data-result="{kind}">'
            f'<button type="button" class="call__card" data-ui="see-result" '
            f'aria-label="{esc(line)} — {esc(tr(st.lang, "call_open"))}">'
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
