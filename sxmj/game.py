"""One hand of Shaoxing mahjong as a deterministic state machine.

``legal_actions(seat)`` lists what a seat may do now; ``apply(action)``
performs one of them and returns the events it caused. Draws, flower
replacements and the deal are automatic (they are chance, fixed by the
wall), so the list of actions plus the wall is the whole hand.

A game is a :class:`~sxmj.hand_state.HandState` (the data of the hand) with the rules
that move it, all in this file; :mod:`sxmj.views` shows the state to a seat.

>>> from sxmj.wall import Rng, Wall
>>> g = Game(Wall.shuffled(Rng(1)), dealer=0)
>>> g.phase, g.turn, len(g.concealed(0))
(<Phase.TURN: 'turn'>, 0, 14)
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import is_
from typing import Any, Self

from . import views
from .actions import (  # the action objects are made once and shared (see actions)
    _CHI,
    _DISCARDS,
    _MINGGANG,
    _PASS,
    _PENG,
    _PLAYING,
    ACTION_KINDS,
    CLAIM,
    OVER,
    OWN_KONGS,
    ROB,
    TURN,
    Action,
    Event,
    Phase,
)
from .hand_state import HandResult, HandState
from .melds import Meld
from .messages import CoreError
from .observation import Observation
from .rules import Options
from .scoring import Evaluation, WinContext, evaluate, settle_detail
from .tiles import NUM_PLAYING, code
from .wall import Wall, deal_order
from .winning import KEY_STEP, Shape, is_sets, is_win


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


class Game(HandState):
    """A hand from the deal to a win or 臭庄: a :class:`HandState` with the rules that
    move it.

    Read top to bottom: making one; the queries (what a seat may do, what it sees); applying
    an action; the deal and each turn; claim windows; 加杠 and robbing it; the end.
    """

    def __init__(self, wall: Wall, dealer: int, options: Options | None = None):
        super().__init__(wall, dealer, options or Options())
        self._init_caches()
        self._deal()

    @classmethod
    def from_observation(cls, obs: Observation, hands: list[list[int]],
                         wall_tiles: list[int], streams: bool = False) -> Self:
        """A game in the state ``obs`` shows, with the hidden part filled in.

        ``hands[s]`` are seat s's concealed tiles (``obs.hand`` for the observer,
        any tiles for the others, ``obs.hand_counts[s]`` of them) and ``wall_tiles``
        the live wall, head first (``obs.wall`` of them). This is how a searching bot
        plays a decision out on one guess of what it can't see (a determinization):
        the result obeys every rule from here on, like any game. ``streams``: each
        seat draws its own stream of the wall (:class:`~sxmj.wall.SeatStreamWall`).
        """
        game = super().from_observation(obs, hands, wall_tiles, streams)
        game._init_caches()
        if obs.phase == CLAIM and obs.last_discard is not None:
            game._open_claims(*obs.last_discard)  # every claimer decides afresh
        elif obs.phase == ROB and obs.rob_tile is not None:
            game.pending = {s: [Action(s, "hu"), Action(s, "pass")] for s in obs.to_move}
        return game

    def _init_caches(self) -> None:
        # what the rules work out once per state; apply forgets both
        self._turn_cache: list[Action] | None = None  # the turn seat's legal actions
        self._win_cache: tuple[int, Evaluation | None] | None = None  # (seat, its win now)

    # ------------------------------------------------------------ queries

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

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand, everything open, counts of the rest."""
        return views.observation(self, seat)

    def tile_count(self) -> int:
        """Tiles accounted for everywhere; the invariant says always 144."""
        return views.tile_count(self)

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
                suit, step = KEY_STEP[t]
                keys[seat][suit] += step
        self.last_tile = dealt[-1]  # the dealer's 14th tile: their "drawn" tile for 天胡
        self.last_source = "deal"
        self._emit(Event.DEAL, dealer=self.dealer, indicator=self.wall.indicator,
                   caishen=self.caishen, dice=list(self.wall.dice))
        self.deal_events = self.events
        self._start_turn(self.dealer, draw=False)

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
            t = wall.draw_head(seat)
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
            suit, step = KEY_STEP[t]
            self._keys[seat][suit] += step
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
            self._open_view = None
            self._emit(Event.FLOWER, seat=seat, tile=flower)
            if not self._drawable():
                self._exhausted()
                return False
            self.chain_flowers += 1
            self._receive(seat, self.wall.draw_tail(seat), "tail")

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
            self._open_view = None
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
        self._receive(seat, self.wall.draw_tail(seat), "tail")
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
        suit, step = KEY_STEP[t]
        self._keys[seat][suit] -= step
        self.discards[seat].append((t, None))
        self._river_view = None
        self.after_claim = False
        self.first_turn_win = False
        self.last_tile = None
        self.events.append({"type": Event.DISCARD, "seat": seat, "tile": t,
                            "piao": t == self.caishen})
        self.last_discard = (seat, t)
        self._open_claims(seat, t)

    # ------------------------------------------------------------ claim windows
    # Every seat that may claim a discard decides; the strongest claim wins (胡 over 杠/碰
    # over 吃, the nearest seat first on a tie); 飘 rounds block claims as the options say.

    def _claim_options(self, seat: int, t: int, next_seat: bool) -> list[Action]:
        """What ``seat`` may claim of the discard ``t`` (never the 财神; see _open_claims)."""
        h = self.hands[seat]
        chi_seat = next_seat and t < 27
        if self.piao_block and any(b != seat for b in self.piao_block):
            return []
        out = []
        if chi_seat:
            c = self.caishen
            r = t % 9
            # the two other members must be natural tiles in hand (the 财神 can't chi)
            if r >= 2 and h[t - 2] and h[t - 1] and c != t - 2 and c != t - 1:
                out.append(_CHI[seat][t - 2])
            if 1 <= r <= 7 and h[t - 1] and h[t + 1] and c != t - 1 and c != t + 1:
                out.append(_CHI[seat][t - 1])
            if r <= 6 and h[t + 1] and h[t + 2] and c != t + 1 and c != t + 2:
                out.append(_CHI[seat][t])
        if h[t] >= 2:
            out.append(_PENG[seat][t])
        if h[t] >= 3 and self._drawable():
            out.append(_MINGGANG[seat][t])
        if out:
            out.append(_PASS[seat])
        return out

    def _open_claims(self, discarder: int, t: int) -> None:
        self.pending = {}
        self.responses = {}
        if t != self.caishen:
            hands = self.hands
            for i in (1, 2, 3):
                seat = (discarder + i) % 4
                # only the next seat can chi; the others need a pair to claim at all
                if i == 1 or hands[seat][t] >= 2:
                    opts = self._claim_options(seat, t, i == 1)
                    if opts:
                        self.pending[seat] = opts
        if self.pending:
            self.phase = CLAIM
            self._emit(Event.CLAIM_WINDOW, seats=sorted(self.pending), tile=t)
        else:
            self._start_turn((discarder + 1) % 4, draw=True)

    def _respond_claim(self, action: Action) -> None:
        self.responses[action.seat] = action
        if action.kind in ("peng", "minggang"):
            self._take_claim(action)  # nobody outranks a peng or kong
            return
        if len(self.responses) < len(self.pending):
            return
        chi = next((a for a in self.responses.values() if a.kind == "chi"), None)
        if chi is not None:
            self._take_claim(chi)
        else:
            assert self.last_discard is not None  # a claim window is open on it
            self._start_turn((self.last_discard[0] + 1) % 4, draw=True)

    def _take_claim(self, action: Action) -> None:
        assert self.last_discard is not None
        discarder, t = self.last_discard
        seat = action.seat
        river = self.discards[discarder]
        river[-1] = (t, seat)
        self._river_view = None
        self.claims[seat][discarder] += 1
        self.claim_made = True
        if action.kind == "chi":
            used = list(action.tiles)
            used.remove(t)
            meld = Meld("chi", action.tiles, discarder, t)
        else:
            n = 2 if action.kind == "peng" else 3
            used = [t] * n
            meld = Meld(action.kind, (t,) * (n + 1), discarder, t)
        for m in used:
            self._change(seat, m, -1)
        self.melds[seat].append(meld)
        self._open_view = None
        self.last_discard = None
        self._emit(Event.CLAIM, seat=seat, kind=action.kind, tile=t, source=discarder,
                   tiles=list(meld.tiles))
        self._start_turn(seat, draw=False)
        if self.phase != TURN:
            return
        self.first_turn_win = False
        if action.kind == "minggang":
            self._kong_replacement(seat)
        else:
            self.after_claim = True

    # ------------------------------------------------------------ 加杠 and 抢杠

    def _rob_eval(self, seat: int, t: int) -> Evaluation | None:
        h = self.hands[seat]
        # the robbed tile must be the hand's only natural copy (RULES §12), and
        # flowers are always laid open before a hand can win
        if any(h[31:]) or h[t] or t == self.caishen:
            return None
        if not is_win(self.shape(seat).add(t)):
            return None
        ev = evaluate(self.win_context(seat, t, "rob"), self.options)
        return ev if ev.win else None

    def _declare_jiagang(self, seat: int, t: int) -> None:
        self._emit(Event.JIAGANG_DECLARED, seat=seat, tile=t)
        self.pending, self.responses = {}, {}
        if t != self.caishen:
            for other in ((seat + i) % 4 for i in (1, 2, 3)):
                if self._rob_eval(other, t) is not None:
                    self.pending[other] = [Action(other, "hu"), Action(other, "pass")]
        if self.pending:
            self.phase = ROB
            self.rob_tile = t
            return
        self._complete_jiagang(seat, t)

    def _complete_jiagang(self, seat: int, t: int) -> None:
        self._change(seat, t, -1)
        i = next(i for i, m in enumerate(self.melds[seat]) if m.kind == "peng" and m.tiles[0] == t)
        old = self.melds[seat][i]
        self.melds[seat][i] = Meld("jiagang", (t,) * 4, old.source, old.claimed)
        self._open_view = None
        self._emit(Event.KONG, seat=seat, kind="jiagang", tile=t)
        self.phase = TURN
        self.pending, self.responses = {}, {}
        self._kong_replacement(seat)

    def _respond_rob(self, action: Action) -> None:
        self.responses[action.seat] = action
        if len(self.responses) < len(self.pending):
            return
        t = self.rob_tile
        assert t is not None  # the rob phase holds the 加杠 tile
        self.rob_tile = None
        robbers = [s for s in self._ask_order()
                   if s in self.responses and self.responses[s].kind == "hu"]
        if robbers:
            winner = robbers[0]
            ev = self._rob_eval(winner, t)
            assert ev is not None
            self._change(self.turn, t, -1)
            self._change(winner, t, 1)
            self._finish(winner, ev, robbed=self.turn, win_by="rob")
        else:
            self._complete_jiagang(self.turn, t)

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
