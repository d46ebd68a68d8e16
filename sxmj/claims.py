"""Claim windows and robbing a kong: the part of a hand between one seat's discard (or
加杠) and the next turn. :class:`ClaimWindows` is a part of :class:`sxmj.game.Game`; it
reads and changes the hand's state, which the game keeps.

Every seat that may claim a discard decides; the strongest claim wins (胡 over 杠/碰 over
吃, the nearest seat first on a tie); 飘 rounds block claims as the options say.
"""

from __future__ import annotations

from .actions import _CHI, _MINGGANG, _PASS, _PENG, CLAIM, ROB, TURN, Action, Event
from .hand_state import HandState
from .melds import Meld
from .scoring import Evaluation, evaluate
from .winning import is_win


class ClaimWindows(HandState):
    """Opening, answering and settling a claim window, and robbing a 加杠 (抢杠)."""

    def _ask_order(self) -> list[int]:
        base = self.last_discard[0] if self.phase == CLAIM and self.last_discard else self.turn
        return [(base + i) % 4 for i in (1, 2, 3)]

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
        self._views = None
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
        self._views = None
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
