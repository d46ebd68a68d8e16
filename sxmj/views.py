"""What a seat may see of a hand, and the count of every tile: functions of a
:class:`~sxmj.hand_state.HandState`.

``observation(state, seat)`` is a seat's :class:`~sxmj.observation.Observation` (built on
every decision a bot makes); ``arrival`` is the part of it a bot can't count for itself,
and ``tile_count`` the invariant's view. The game offers the first and the last as its
methods (``Game.observation``, ``Game.tile_count``). The reverse, a state rebuilt from
what a seat sees, is :meth:`HandState.from_observation
<sxmj.hand_state.HandState.from_observation>`.
"""

from __future__ import annotations

from .actions import TURN
from .hand_state import HandState
from .observation import Observation


def tile_count(state: HandState) -> int:
    """Tiles accounted for everywhere; the invariant says always 144."""
    n = state.wall.remaining + 1  # the indicator
    for s in range(4):
        n += sum(state.hands[s]) + len(state.flowers[s])
        n += sum(len(m.tiles) for m in state.melds[s])
        # a claimed discard lives in the claimer's meld, not the river
        n += sum(1 for _, by in state.discards[s] if by is None)
    return n


def arrival(state: HandState) -> tuple[str, int]:
    """How the turn seat's last tile arrived (Observation.ARRIVALS) and its 杠开 chain."""
    win_by, chain = state._self_draw_by()
    if win_by != "draw":
        return win_by, chain
    if state.after_claim:
        return "claim", 0
    if state.last_tile is None:
        return "", 0
    return ("draw" if state.last_source == "head" else "deal"), 0


def observation(state: HandState, seat: int) -> Observation:
    """What ``seat`` may see: its own hand, everything open, counts of the rest."""
    how, chain = arrival(state)
    turn = state.turn
    # the open tuples are rebuilt only after a change (the game sets them to None)
    if state._open_view is None:
        state._open_view = (tuple(map(tuple, state.melds)), tuple(map(tuple, state.flowers)),
                            tuple(map(tuple, state.claims)))
    melds, flowers, claims = state._open_view
    if state._river_view is None:
        state._river_view = tuple(map(tuple, state.discards))
    phase = state.phase
    return Observation.build({
        "seat": seat, "dealer": state.dealer, "phase": phase, "turn": turn,
        "to_move": (turn,) if phase == TURN else tuple(state.to_move()),
        "caishen": state.caishen, "indicator": state.wall.indicator,
        "dice": tuple(state.wall.dice), "wall": state.wall.remaining,
        "hand": tuple(state.concealed(seat)), "hand_counts": tuple(state._sizes),
        "melds": melds, "flowers": flowers, "discards": state._river_view,
        "last_discard": state.last_discard,
        "last_tile": state.last_tile if seat == turn else None,
        "piao_chain": tuple(state.piao_chain),
        "piao_block": tuple(sorted(state.piao_block)) if state.piao_block else (),
        "claims": claims, "rob_tile": state.rob_tile, "options": state.options,
        "arrival": how, "chain": chain, "after_claim": state.after_claim,
        "first_turn": state.first_turn_win})
