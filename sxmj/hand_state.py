"""The state of one hand, and how a hand ended.

:class:`HandState` holds everything a hand is at one moment: the tiles (concealed hands,
melds, flowers, rivers, the wall), whose move it is and how the last tile came, the open
claim window, and the hand's record so far. It knows no rule. :class:`sxmj.game.Game` is
a HandState with the rules that move it (``legal_actions``, ``apply``), and
:mod:`sxmj.views` reads one (a seat's observation, the count of every tile).

A state comes from a wall about to be dealt (``HandState(wall, dealer, options)``, which
the game then deals) or from what one seat sees, the hidden part guessed
(:meth:`HandState.from_observation`, a searching bot's determinization).

>>> from sxmj.rules import Options
>>> from sxmj.wall import Rng, Wall
>>> s = HandState(Wall.shuffled(Rng(1)), dealer=0, options=Options())
>>> s.phase, s.turn, s.concealed(0), s.to_move()
(<Phase.DEAL: 'deal'>, 0, [], [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from typing import Any, Self

from .actions import _ALL_TILES, _RUNS, CLAIM, DEAL, OVER, ROB, TURN, Action, Phase
from .melds import Meld
from .observation import Observation
from .rules import Options
from .scoring import Evaluation
from .tiles import NUM_PLAYING
from .wall import SeatStreamWall, Wall
from .winning import KEY_STEP, Shape


@dataclass
class HandResult:
    """How a hand ended: a win (with its evaluation and payments) or 臭庄."""

    winner: int | None
    payments: list[int]
    evaluation: Evaluation | None = None
    reasons: list[str] = field(default_factory=lambda: [""] * 4)
    robbed: int | None = None
    win_by: str = ""

    @property
    def patterns(self) -> list[str]:
        return self.evaluation.patterns if self.evaluation else []


class HandState:
    """Everything one hand holds at a moment; the rules that change it are the game's.

    Seats are 0–3 and tiles indices (:mod:`sxmj.tiles`). The fields with an underscore
    are kept in step with the others (by :meth:`_change`, or cleared on a change): the
    game and the views read them, nothing outside the core does.
    """

    def __init__(self, wall: Wall, dealer: int, options: Options) -> None:
        """A hand about to be dealt off ``wall`` by ``dealer``: no tile in any hand yet."""
        self.options = options
        self.wall = wall
        self.dealer = dealer
        self.caishen = wall.caishen
        self.hands: list[list[int]] = [[0] * 42 for _ in range(4)]  # a count per tile
        self._keys = [[0, 0, 0, 0] for _ in range(4)]  # base-5 counts per group, see winning
        self._sizes = [0, 0, 0, 0]  # tiles in each hand
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.discards: list[list[tuple[int, int | None]]] = [[] for _ in range(4)]
        self.claims = [[0] * 4 for _ in range(4)]  # claims[a][b]: a claimed b's discards
        self.piao_chain = [0] * 4
        self.piao_block: set[int] = set()  # seats whose 飘 round blocks the others' claims
        self.had_turn = [False] * 4
        self.claim_made = False  # any chi, peng or kong of a discard yet (天胡/地胡 end)
        self.turn = dealer
        self.phase: Phase = DEAL
        self.last_tile: int | None = None  # the tile the player to move received last
        self.last_source = ""  # where it came from: "deal", "head" or "tail"
        self.chain_kongs = 0  # kongs and flowers replaced since the turn began (杠开)
        self.chain_flowers = 0
        self.first_turn_win = False  # a win now would be 天胡 or 地胡
        self.after_claim = False  # after chi/peng the claimer must discard
        self.last_discard: tuple[int, int] | None = None  # (seat, tile) open to claims
        self.pending: dict[int, list[Action]] = {}  # in a claim window or a rob: who may do what
        self.responses: dict[int, Action] = {}  # ... and what those who answered chose
        self.rob_tile: int | None = None  # the tile of a 加杠 others may rob
        self.result: HandResult | None = None
        self.actions: list[Action] = []
        self.events: list[dict[str, Any]] = []  # what the last action caused
        self.deal_events: list[dict[str, Any]] = []  # what the deal caused
        # melds, flowers and claims as the tuples an Observation holds, and the rivers;
        # they change far less often than they are observed, so rebuilt (by the views)
        # only after a change sets them to None
        self._open_view: tuple[tuple[tuple[Meld, ...], ...], tuple[tuple[int, ...], ...],
                               tuple[tuple[int, ...], ...]] | None = None
        self._river_view: tuple[tuple[tuple[int, int | None], ...], ...] | None = None

    @classmethod
    def from_observation(cls, obs: Observation, hands: list[list[int]],
                         wall_tiles: list[int], streams: bool = False) -> Self:
        """The state ``obs`` shows, with the hidden part filled in.

        ``hands[s]`` are seat s's concealed tiles (``obs.hand`` for the observer,
        any tiles for the others, ``obs.hand_counts[s]`` of them) and ``wall_tiles``
        the live wall, head first (``obs.wall`` of them). No claim window is open in
        it: who may claim is a rule, which :meth:`sxmj.game.Game.from_observation` adds.
        With ``streams`` each seat draws its own stream of ``wall_tiles``
        (:class:`~sxmj.wall.SeatStreamWall`, the next seat to draw taking the first),
        so that moves compared on one guess meet the same draws.
        """
        state = cls.__new__(cls)  # not cls(...): the game's __init__ deals a new hand
        tiles = list(wall_tiles)
        wall = SeatStreamWall(tiles, obs.indicator, obs.dice, first=(obs.turn + 1) % 4) \
            if streams else Wall(tiles, obs.indicator, obs.dice)
        HandState.__init__(state, wall, obs.dealer, obs.options)
        for seat in range(4):
            for t in hands[seat]:
                state._change(seat, t, 1)
        state.melds = [list(ms) for ms in obs.melds]
        state.flowers = [list(f) for f in obs.flowers]
        state.discards = [list(d) for d in obs.discards]
        state.claims = [list(r) for r in obs.claims]
        state.piao_chain = list(obs.piao_chain)
        state.piao_block = set(obs.piao_block)
        # a seat has had its turn once it discarded (a claimed discard stays in the river)
        state.had_turn = [bool(obs.discards[s]) or (s == obs.turn and obs.phase != DEAL)
                          for s in range(4)]
        state.claim_made = any(any(r) for r in obs.claims)
        state.turn = obs.turn
        state.phase = obs.phase
        state.last_tile = obs.last_tile if obs.seat == obs.turn else None
        state.last_source = {"draw": "head", "deal": "deal"}.get(obs.arrival, "tail")
        state.chain_kongs = obs.chain if obs.arrival == "kong" else 0
        state.chain_flowers = obs.chain if obs.arrival == "flower" else 0
        state.first_turn_win = obs.first_turn
        state.after_claim = obs.after_claim
        state.last_discard = obs.last_discard
        state.rob_tile = obs.rob_tile
        return state

    # ------------------------------------------------------------ the tiles

    def concealed(self, seat: int) -> list[int]:
        """A seat's concealed tiles, 财神 first (far left), then in order."""
        h = self.hands[seat]
        c = self.caishen
        out = [c] * h[c]
        for t in compress(_ALL_TILES, h):
            if t != c:
                out += _RUNS[t][h[t]]
        return out

    def shape(self, seat: int) -> Shape:
        """The seat's concealed hand as a win shape (dealt flowers left out)."""
        keys = list(self._keys[seat])
        c = self.caishen
        n = self.hands[seat][c]
        suit, step = KEY_STEP[c]
        keys[suit] -= n * step
        return Shape((keys[0], keys[1], keys[2], keys[3]), n)

    def _change(self, seat: int, t: int, n: int) -> None:
        """Add (n > 0) or take (n < 0) copies of a tile, keeping the shape keys in step."""
        self.hands[seat][t] += n
        self._sizes[seat] += n
        if t < NUM_PLAYING:
            suit, step = KEY_STEP[t]
            self._keys[seat][suit] += n * step

    def _drawable(self) -> bool:
        """Whether a tile may still be drawn: the last ``reserved_tiles`` stay in the wall."""
        return self.wall.remaining > self.options.reserved_tiles

    # ------------------------------------------------------------ whose move

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def to_move(self) -> list[int]:
        """Seats that have a decision to make now."""
        if self.phase == TURN:
            return [self.turn]
        if self.phase in (CLAIM, ROB):
            return [s for s in self._ask_order() if s in self.pending and s not in self.responses]
        return []

    def _ask_order(self) -> list[int]:
        """The other seats from the discarder (or the 加杠's seat) on: the nearest wins a tie."""
        base = self.last_discard[0] if self.phase == CLAIM and self.last_discard else self.turn
        return [(base + i) % 4 for i in (1, 2, 3)]

    def _self_draw_by(self) -> tuple[str, int]:
        """How the tile just received arrived, and the 杠开 chain that led to it."""
        if self.chain_kongs:
            win_by = "kong"
        elif self.chain_flowers:
            win_by = "flower"
        else:
            return "draw", 0
        if not self.options.flower_is_kong:
            return win_by, self.chain_kongs
        return win_by, self.chain_kongs + self.chain_flowers
