"""What a seat may see of a hand, and a hand rebuilt from what a seat sees: the part of a
hand between its state and the outside. :class:`HandViews` is a part of
:class:`sxmj.game.Game` (as :class:`sxmj.claims.ClaimWindows` is); it reads the hand's
state, which the game keeps.

``observation(seat)`` is a seat's :class:`~sxmj.observation.Observation` (built on every
decision a bot makes); ``Game.from_observation`` is the reverse, a game in the state an
observation shows with the hidden part filled in (a searching bot's determinization);
``tile_count`` and ``arrival`` are the views the invariants and the observation share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import CLAIM, DEAL, ROB, TURN, Action
from .hand_state import HandState
from .observation import Observation
from .wall import Wall

if TYPE_CHECKING:
    from typing import Self


class HandViews(HandState):
    """A seat's observation, a game rebuilt from one, and the count of every tile."""

    @classmethod
    def from_observation(cls, obs: Observation, hands: list[list[int]],
                         wall_tiles: list[int]) -> Self:
        """A game in the state ``obs`` shows, with the hidden part filled in.

        ``hands[s]`` are seat s's concealed tiles (``obs.hand`` for the observer,
        any tiles for the others, ``obs.hand_counts[s]`` of them) and ``wall_tiles``
        the live wall, head first (``obs.wall`` of them). This is how a searching bot
        plays a decision out on one guess of what it can't see (a determinization):
        the result obeys every rule from here on, like any game.
        """
        g = cls.__new__(cls)
        g.options = obs.options
        g.wall = Wall(list(wall_tiles), obs.indicator, obs.dice)
        g.dealer = obs.dealer
        g.caishen = obs.caishen
        g.hands = [[0] * 42 for _ in range(4)]
        g._keys = [[0, 0, 0, 0] for _ in range(4)]
        g._sizes = [0, 0, 0, 0]
        for seat in range(4):
            for t in hands[seat]:
                g._change(seat, t, 1)
        g.melds = [list(ms) for ms in obs.melds]
        g.flowers = [list(f) for f in obs.flowers]
        g.discards = [list(d) for d in obs.discards]
        g.claims = [list(r) for r in obs.claims]
        g.piao_chain = list(obs.piao_chain)
        g.piao_block = set(obs.piao_block)
        # a seat has had its turn once it discarded (a claimed discard stays in the river)
        g.had_turn = [bool(obs.discards[s]) or (s == obs.turn and obs.phase != DEAL)
                      for s in range(4)]
        g.claim_made = any(any(r) for r in obs.claims)
        g.turn = obs.turn
        g.phase = obs.phase
        g.last_tile = obs.last_tile if obs.seat == obs.turn else None
        g.last_source = {"draw": "head", "deal": "deal"}.get(obs.arrival, "tail")
        g.chain_kongs = obs.chain if obs.arrival == "kong" else 0
        g.chain_flowers = obs.chain if obs.arrival == "flower" else 0
        g.first_turn_win = obs.first_turn
        g.after_claim = obs.after_claim
        g.last_discard = obs.last_discard
        g.pending, g.responses = {}, {}
        g.rob_tile = obs.rob_tile
        g.result = None
        g.actions = []
        g.events = []
        g.deal_events = []
        g._turn_cache = None
        g._win_cache = None
        g._views = None
        g._river_view = None
        if obs.phase == CLAIM and obs.last_discard is not None:
            g._open_claims(*obs.last_discard)  # every claimer decides afresh
        elif obs.phase == ROB and obs.rob_tile is not None:
            g.pending = {s: [Action(s, "hu"), Action(s, "pass")] for s in obs.to_move}
        return g

    def tile_count(self) -> int:
        """Tiles accounted for everywhere; the invariant says always 144."""
        n = self.wall.remaining + 1  # the indicator
        for s in range(4):
            n += sum(self.hands[s]) + len(self.flowers[s])
            n += sum(len(m.tiles) for m in self.melds[s])
            # a claimed discard lives in the claimer's meld, not the river
            n += sum(1 for _, by in self.discards[s] if by is None)
        return n

    def arrival(self) -> tuple[str, int]:
        """How the turn seat's last tile arrived (Observation.ARRIVALS) and its 杠开 chain."""
        win_by, chain = self._self_draw_by()
        if win_by != "draw":
            return win_by, chain
        if self.after_claim:
            return "claim", 0
        if self.last_tile is None:
            return "", 0
        return ("draw" if self.last_source == "head" else "deal"), 0

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand, everything open, counts of the rest."""
        arrival, chain = self.arrival()
        turn = self.turn
        if self._views is None:
            self._views = (tuple(map(tuple, self.melds)), tuple(map(tuple, self.flowers)),
                           tuple(map(tuple, self.claims)))
        melds, flowers, claims = self._views
        if self._river_view is None:
            self._river_view = tuple(map(tuple, self.discards))
        phase = self.phase
        return Observation.build({
            "seat": seat, "dealer": self.dealer, "phase": phase, "turn": turn,
            "to_move": (turn,) if phase == TURN else tuple(self.to_move()),
            "caishen": self.caishen, "indicator": self.wall.indicator,
            "dice": tuple(self.wall.dice), "wall": self.wall.remaining,
            "hand": tuple(self.concealed(seat)), "hand_counts": tuple(self._sizes),
            "melds": melds, "flowers": flowers, "discards": self._river_view,
            "last_discard": self.last_discard,
            "last_tile": self.last_tile if seat == turn else None,
            "piao_chain": tuple(self.piao_chain),
            "piao_block": tuple(sorted(self.piao_block)) if self.piao_block else (),
            "claims": claims, "rob_tile": self.rob_tile, "options": self.options,
            "arrival": arrival, "chain": chain, "after_claim": self.after_claim,
            "first_turn": self.first_turn_win})
