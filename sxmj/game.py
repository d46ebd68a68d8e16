"""One hand of Shaoxing mahjong as a deterministic state machine.

``legal_actions(seat)`` lists what a seat may do now; ``apply(action)``
performs one of them and returns the events it caused. Draws, flower
replacements and the deal are automatic (they are chance, fixed by the
wall), so the list of actions plus the wall is the whole hand.

>>> from sxmj.wall import Rng, Wall
>>> g = Game(Wall.shuffled(Rng(1)), dealer=0)
>>> g.phase, g.turn, len(g.concealed(0))
(<Phase.TURN: 'turn'>, 0, 14)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import is_
from typing import Any

from .actions import (  # the action objects are made once and shared (see actions)
    _ALL_TILES,
    _DISCARDS,
    _PLAYING,
    _RUNS,
    ACTION_KINDS,
    CLAIM,
    DEAL,
    OVER,
    OWN_KONGS,
    ROB,
    TURN,
    Action,
    Event,
    Phase,
)
from .claims import ClaimWindows
from .melds import Meld
from .messages import CoreError
from .rules import Options
from .scoring import Evaluation, WinContext, evaluate, settle_detail
from .tiles import NUM_PLAYING, code
from .views import HandViews
from .wall import Wall, deal_order
from .winning import POW5, Shape, is_sets, is_win


class IllegalAction(CoreError):
    """An action the rules don't allow now. The state is left untouched.

    ``why`` is the reason (a :class:`CoreError` with its own code), in English;
    ``reason.text(lang)`` gives it in either language.
    """

    def __init__(self, action: Action | str, reason: CoreError):
        super().__init__("action.illegal", "action", action=str(action)[:40], why=reason)
        self.action = action
        self.reason = reason

    @property
    def why(self) -> str:
        return self.reason.detail


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


class Game(ClaimWindows, HandViews):
    """A hand from the deal to a win or 臭庄."""

    def __init__(self, wall: Wall, dealer: int, options: Options | None = None):
        self.options = options or Options()
        self.wall = wall
        self.dealer = dealer
        self.caishen = wall.caishen
        self.hands: list[list[int]] = [[0] * 42 for _ in range(4)]
        self._keys = [[0, 0, 0, 0] for _ in range(4)]  # base-5 counts per group, see winning
        self._sizes = [0, 0, 0, 0]  # tiles in each hand, kept in step by _change
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.discards: list[list[tuple[int, int | None]]] = [[] for _ in range(4)]
        self.claims = [[0] * 4 for _ in range(4)]  # claims[a][b]: a claimed b's discards
        self.piao_chain = [0] * 4
        self.piao_block: set[int] = set()
        self.had_turn = [False] * 4
        self.claim_made = False
        self.turn = dealer
        self.phase = DEAL
        self.last_tile: int | None = None  # the tile the player to move received last
        self.last_source = ""  # where it came from: "deal", "head" or "tail"
        self.chain_kongs = 0
        self.chain_flowers = 0
        self.first_turn_win = False
        self.after_claim = False  # after chi/peng the claimer must discard
        self.last_discard: tuple[int, int] | None = None  # (seat, tile) open to claims
        self.pending: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.rob_tile: int | None = None
        self.result: HandResult | None = None
        self.actions: list[Action] = []
        self.events: list[dict[str, Any]] = []
        self._turn_cache: list[Action] | None = None
        self._win_cache: tuple[int, Evaluation | None] | None = None
        # melds, flowers and claims as the tuples an Observation holds; they change
        # far less often than they are observed, so rebuilt only after a change
        self._views: tuple[tuple[tuple[Meld, ...], ...], tuple[tuple[int, ...], ...],
                           tuple[tuple[int, ...], ...]] | None = None
        self._river_view: tuple[tuple[tuple[int, int | None], ...], ...] | None = None
        self._deal()

    # ------------------------------------------------------------ queries

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
        keys[c // 9] -= n * POW5[c % 9]
        return Shape((keys[0], keys[1], keys[2], keys[3]), n)

    def _change(self, seat: int, t: int, n: int) -> None:
        """Add (n > 0) or take (n < 0) copies of a tile, keeping the shape keys in step."""
        self.hands[seat][t] += n
        self._sizes[seat] += n
        if t < NUM_PLAYING:
            self._keys[seat][t // 9] += n * POW5[t % 9]

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

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it has nothing to decide)."""
        return list(self._legal(seat))

    def _legal(self, seat: int) -> list[Action]:
        """legal_actions without the defensive copy: the caller must not change it."""
        if self.phase == TURN and seat == self.turn:
            if self._turn_cache is None:
                self._turn_cache = self._turn_actions(seat)
            return self._turn_cache
        if self.phase in (CLAIM, ROB) and seat in self.pending \
                and seat not in self.responses:
            return self.pending[seat]
        return []

    def can_win_now(self, seat: int) -> Evaluation | None:
        """The evaluation of a win ``seat`` could declare now, if any."""
        if self.phase == TURN and seat == self.turn and not self.after_claim:
            return self._self_draw_eval(seat)
        if self.phase == ROB and self.rob_tile is not None and seat in self.pending:
            return self._rob_eval(seat, self.rob_tile)
        return None

    # ------------------------------------------------------------ applying

    def apply(self, action: Action | str) -> list[dict[str, Any]]:
        """Perform a legal action; return the events it caused.

        Raises :class:`IllegalAction` (state untouched) when the action is
        not in ``legal_actions(action.seat)``.
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except CoreError as e:
                raise IllegalAction(action, e) from None
        if self.over:
            raise IllegalAction(action, CoreError("action.over"))
        legal = self._legal(action.seat)
        # Bots hand back an object from the legal list: find it by identity in C
        # first, and compare field by field only for actions built elsewhere.
        if not any(map(is_, legal, repeat(action))) and action not in legal:
            raise IllegalAction(action, self._why_illegal(action, legal))
        self.events = []
        self._turn_cache = None
        self.actions.append(action)
        if self.phase == TURN:
            self._apply_turn(action)
        elif self.phase == CLAIM:
            self._respond_claim(action)
        else:
            self._respond_rob(action)
        self._win_cache = None
        return self.events

    def _why_illegal(self, action: Action, legal: list[Action]) -> CoreError:
        if not legal:
            if self.phase == TURN:
                return CoreError("action.not_your_turn", seat=self.turn)
            return CoreError("action.nothing", seat=action.seat)
        if action.kind == "hu" and self.phase == CLAIM:
            return CoreError("action.no_discard_win")
        if action.tile is not None and action.tile == self.caishen and \
                action.kind in ("chi", "peng", "minggang", "angang", "jiagang"):
            return CoreError("action.caishen")
        if action.kind == "discard" and action.tile is not None \
                and not self.hands[action.seat][action.tile]:
            return CoreError("action.not_in_hand", tile=code(action.tile), seat=action.seat)
        return CoreError("action.not_legal", legal=[str(a) for a in legal[:12]])

    # ------------------------------------------------------------ deal and turns

    def _emit(self, event: Event, **data: object) -> None:
        self.events.append({"type": event, **data})

    def _deal(self) -> None:
        # the 53 tiles off the head in one slice, counted in one loop (_change, written
        # out: every hand of every playout starts here)
        order = _DEAL_ORDERS[self.dealer]
        wall = self.wall
        start = wall.head
        dealt = wall.tiles[start:start + len(order)]
        wall.head = start + len(order)
        hands, keys, sizes = self.hands, self._keys, self._sizes
        for seat, t in zip(order, dealt, strict=True):
            hands[seat][t] += 1
            sizes[seat] += 1
            if t < NUM_PLAYING:
                keys[seat][t // 9] += POW5[t % 9]
        self.last_tile = dealt[-1]  # the dealer's 14th tile: their "drawn" tile for 天胡
        self.last_source = "deal"
        self._emit(Event.DEAL, dealer=self.dealer, indicator=self.wall.indicator,
                   caishen=self.caishen, dice=list(self.wall.dice))
        self.deal_events = self.events
        self._start_turn(self.dealer, draw=False)

    def _drawable(self) -> bool:
        return self.wall.remaining > self.options.reserved_tiles

    def _start_turn(self, seat: int, draw: bool) -> None:
        self.turn = seat
        self.phase = TURN
        if self.piao_block:
            self.piao_block.discard(seat)  # a 飘 round lasts until the discarder's next turn
        if self.pending or self.responses:
            self.pending, self.responses = {}, {}
        first = not self.had_turn[seat]
        self.had_turn[seat] = True
        self.first_turn_win = first and not self.claim_made and draw == (seat != self.dealer)
        self.chain_kongs = self.chain_flowers = 0
        self.events.append({"type": Event.TURN, "seat": seat})  # (_emit, written out: hot)
        if first:
            if not self._replace_flowers(seat):
                return
            # dealt flowers are part of the deal (RULES §12): their replacements
            # never start a 杠开 chain
            self.chain_flowers = 0
        if draw:
            wall = self.wall
            if wall.tail - wall.head <= self.options.reserved_tiles:  # (_drawable)
                self._exhausted()
                return
            t = wall.tiles[wall.head]  # (draw_head)
            wall.head += 1
            self._receive(seat, t, "head")
            # dealt flowers went on the first turn and every later one at once,
            # so only the tile just drawn can be a flower
            if t >= NUM_PLAYING:
                self._replace_flowers(seat)

    def _receive(self, seat: int, t: int, source: str) -> None:
        # _change and _emit written out: every draw of every hand comes through here
        self.hands[seat][t] += 1
        self._sizes[seat] += 1
        if t < NUM_PLAYING:
            self._keys[seat][t // 9] += POW5[t % 9]
        self.last_tile = t
        self.last_source = source
        self.events.append({"type": Event.DRAW, "seat": seat, "tile": t, "source": source})

    def _replace_flowers(self, seat: int) -> bool:
        """Lay open every flower in hand, replacing each from the tail (补花).

        Returns False when the wall ran out (the hand is then drawn)."""
        h = self.hands[seat]
        while True:
            flower = next((t for t in range(31, 42) if h[t]), None)
            if flower is None:
                return True
            self._change(seat, flower, -1)
            self.flowers[seat].append(flower)
            self._views = None
            self._emit(Event.FLOWER, seat=seat, tile=flower)
            if not self._drawable():
                self._exhausted()
                return False
            self.chain_flowers += 1
            self._receive(seat, self.wall.draw_tail(), "tail")

    def _exhausted(self) -> None:
        self.phase = OVER
        self.result = HandResult(None, [0, 0, 0, 0])
        self._emit(Event.EXHAUSTED)

    def _turn_actions(self, seat: int) -> list[Action]:
        h = self.hands[seat]
        mine = _DISCARDS[seat]
        out = list(map(mine.__getitem__, compress(_PLAYING, h)))
        if self.after_claim:
            return out
        if self._drawable():
            if 4 in h:
                for t in range(NUM_PLAYING):
                    if h[t] == 4 and t != self.caishen:
                        out.append(Action(seat, "angang", t))
            for m in self.melds[seat]:
                if m.kind == "peng" and h[m.tiles[0]]:
                    out.append(Action(seat, "jiagang", m.tiles[0]))
        if self._self_draw_eval(seat) is not None:
            out.append(Action(seat, "hu"))
        return out

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

    def win_context(self, seat: int, win_tile: int, win_by: str, chain: int = 0) -> WinContext:
        """The evaluator's input for ``seat`` winning on ``win_tile`` now (the one place
        the engine builds it). For a rob, ``win_tile`` is not yet in the hand."""
        hand = self.concealed(seat)
        if win_by == "rob":
            hand.append(win_tile)
        return WinContext.at_table(hand, win_tile, self.caishen, self.melds[seat],
                                   self.flowers[seat], win_by=win_by, chain=chain,
                                   piao=self.piao_chain[seat], first_turn=self.first_turn_win,
                                   dealer=seat == self.dealer)

    def _self_draw_eval(self, seat: int) -> Evaluation | None:
        # asked when the legal list is made and again by the 胡 or 飘 that follows:
        # one evaluation per state (apply forgets it)
        cached = self._win_cache
        if cached is not None and cached[0] == seat:
            return cached[1]
        ev: Evaluation | None = None
        if not any(self.hands[seat][31:]) and self.last_tile is not None:
            shape = self.shape(seat)
            if is_win(shape) or self._all_winds(seat, shape):
                win_by, chain = self._self_draw_by()
                ev = evaluate(self.win_context(seat, self.last_tile, win_by, chain),
                              self.options)
                if not ev.win:
                    ev = None
        self._win_cache = (seat, ev)
        return ev

    def _all_winds(self, seat: int, shape: Shape) -> bool:
        """Only winds besides the 财神 (乱风), concealed and in melds."""
        keys = shape.keys
        return keys[0] == keys[1] == keys[2] == 0 and \
            all(m.is_wind_set for m in self.melds[seat])

    def _apply_turn(self, action: Action) -> None:
        seat = action.seat
        if action.kind == "hu":
            ev = self._self_draw_eval(seat)
            assert ev is not None
            self._finish(seat, ev, robbed=None, win_by=self._self_draw_by()[0])
        elif action.kind == "discard":
            assert action.tile is not None  # every discard in the legal list has its tile
            self._discard(seat, action.tile)
        elif action.kind == "angang":
            t = action.tile
            assert t is not None
            self._change(seat, t, -4)
            self.melds[seat].append(Meld("angang", (t,) * 4))
            self._views = None
            self._emit(Event.KONG, seat=seat, kind="angang", tile=t)
            self._kong_replacement(seat)
        elif action.kind == "jiagang":
            assert action.tile is not None
            self._declare_jiagang(seat, action.tile)

    def _kong_replacement(self, seat: int) -> None:
        self.first_turn_win = False
        if not self._drawable():
            self._exhausted()
            return
        self.chain_kongs += 1
        self._receive(seat, self.wall.draw_tail(), "tail")
        self._replace_flowers(seat)

    def _discard(self, seat: int, t: int) -> None:
        if t == self.caishen:
            # 飘 is a passed win (RULES §7, §12): 暴头-ready with a second 财神 in
            # hand, at a moment 胡 was legal. Right after a chi or peng no win is
            # legal, so the discard is no 飘 and breaks the chain like any other.
            shape = self.shape(seat)
            if self.after_claim:
                self.piao_chain[seat] = 0
            elif shape.wilds >= 2 and is_sets(shape.with_wilds(shape.wilds - 2)) \
                    and self._self_draw_eval(seat) is not None:
                self.piao_chain[seat] += 1
            if self.options.piao_blocks_claims:
                self.piao_block.add(seat)
        else:
            self.piao_chain[seat] = 0
        self.hands[seat][t] -= 1  # (_change, written out: hot)
        self._sizes[seat] -= 1
        self._keys[seat][t // 9] -= POW5[t % 9]
        self.discards[seat].append((t, None))
        self._river_view = None
        self.after_claim = False
        self.first_turn_win = False
        self.last_tile = None
        self.events.append({"type": Event.DISCARD, "seat": seat, "tile": t,
                            "piao": t == self.caishen})
        self.last_discard = (seat, t)
        self._open_claims(seat, t)

    # ------------------------------------------------------------ the end

    def _finish(self, winner: int, ev: Evaluation, robbed: int | None, win_by: str) -> None:
        piao_seats = [s for s in range(4) if s != winner and self.piao_chain[s] > 0]
        st = settle_detail(ev.share, winner, robbed, piao_seats, self.claims, self.options)
        self.phase = OVER
        self.result = HandResult(winner, st.amounts, ev, st.reasons, robbed, win_by)
        self._emit(Event.HU, seat=winner, win_by=win_by, robbed=robbed, payments=st.amounts,
                   patterns=ev.patterns, fan=ev.fan, share=ev.share)


_DEAL_ORDERS = tuple(tuple(deal_order(dealer)) for dealer in range(4))


__all__ = ["ACTION_KINDS", "OWN_KONGS", "Action", "Event", "Game", "HandResult", "IllegalAction",
           "Phase"]
