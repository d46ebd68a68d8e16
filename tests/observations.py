"""Observations for tests, built through one helper (never as a literal by hand).

Defaults describe seat 0 on its own turn early in a hand: only what a bot may see.
"""

from __future__ import annotations

from sxmj.melds import Meld
from sxmj.observation import Observation
from sxmj.rules import Options
from sxmj.tiles import parse_tiles, tile


def observation(hand: str, caishen: str, wall: int = 80, last: str | None = None,
                melds: list[list[str]] | None = None, piao_chain: list[int] | None = None,
                phase: str = "turn", last_discard: tuple[int, str] | None = None,
                arrival: str = "draw", chain: int = 0, options: Options | None = None,
                ) -> Observation:
    """Seat 0's view: ``hand`` and the 财神 in notation, ``melds`` per seat
    (``[["peng 222z"], [], [], []]``), ``last_discard`` as (seat, tile code)."""
    cs = tile(caishen)
    tiles = tuple(parse_tiles(hand))
    meld_views = tuple(tuple(Meld.parse(m) for m in ms) for ms in (melds or [[], [], [], []]))
    return Observation(
        seat=0, dealer=0, phase=phase, turn=0 if phase == "turn" else 3,
        to_move=(0,), caishen=cs, indicator=cs - 1 if cs % 9 else cs + 8, dice=(3, 4),
        wall=wall, hand=tiles, hand_counts=(len(tiles), 13, 13, 13), melds=meld_views,
        flowers=((), (), (), ()), discards=((), (), (), ()),
        last_discard=None if last_discard is None else (last_discard[0],
                                                         tile(last_discard[1])),
        last_tile=tile(last) if last else None, piao_chain=tuple(piao_chain or (0, 0, 0, 0)),
        piao_block=(), claims=((0,) * 4,) * 4, rob_tile=None, options=options or Options(),
        arrival=arrival if phase == "turn" else "", chain=chain, after_claim=False,
        first_turn=False)
