"""``hard`` (困难): efficiency plus value — 暴头, 飘, kongs, the end of the wall.

Hard ranks its discards and its claims with one race model (:func:`.analysis.race`):
the expected winnings of the hand against three opponents who may self-draw first,
by tiles left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..game import Action
from ..observation import Observation
from ..scoring import evaluate, settle
from ..winning import Shape, is_baotou_ready, is_sets, is_win, remember, waits
from .analysis import (
    Choice,
    DiscardOption,
    after_claim,
    analyse,
    distinct_tiles,
    isolation,
    minus,
    plus,
    race,
    survival,
)
from .normal import NormalStrategy


@dataclass
class RaceContext:
    """One decision's view for the race model: the unseen tiles, the stakes, a cache."""

    caishen: int
    sets: int
    unseen: list[int]
    total: int  # unseen playing tiles
    wall: int
    chain: int  # this seat's 飘 chain
    share: float  # a typical share if this hand wins
    loss: float  # what losing a hand typically costs
    cache: dict[Shape, tuple[float, float]] = field(default_factory=dict)


# The memo below holds only ints and tuples of ints, never Shape objects: the garbage
# collector stops tracking such tuples, so a full collection doesn't walk thousands of
# remembered hands (with Shapes as keys and values, one took 35-50 ms in CPython, a 75 ms
# task in the page).
_READY_DISCARDS: dict[tuple[tuple[int, int, int, int], int, int], tuple[int, ...]] = {}
READY_DISCARDS_MEMO_MAX = 20_000  # entries: about 250 bytes an entry with its key (measured
# with tracemalloc), so 5 MB at most in a phone's tab; one 200-guess decision fills about 6,000


def _ready_discards(shape14: Shape, caishen: int) -> list[Shape]:
    """The ready 13-tile hands a 14-tile hand can keep, one per discard kind (the 财神
    last). Which discards leave it ready depends on the hand alone, and a playout's seat
    asks about the same hands again and again, so they are remembered."""
    key = (shape14.keys, shape14.wilds, caishen)
    hit = _READY_DISCARDS.get(key)
    if hit is None:
        ready = tuple(x for x in distinct_tiles(shape14, caishen)
                      if is_win((k := minus(shape14, x, caishen)).with_wilds(k.wilds + 1)))
        hit = remember(_READY_DISCARDS, key, ready, READY_DISCARDS_MEMO_MAX)
    return [minus(shape14, x, caishen) for x in hit]


class HardStrategy(NormalStrategy):
    level = "hard"

    def __init__(self, seed: int = 0, pass_wins: bool = True):
        super().__init__(seed)
        # bench/ceiling.py turns this off to count wins, not points
        self.pass_wins = pass_wins

    def turn(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        hu = next((a for a in legal if a.kind == "hu"), None)
        if hu is not None:
            if self.pass_wins:
                passing = self.pass_win(obs, legal)
                if passing is not None:
                    return passing
            elif self.should_piao(obs, legal):
                return Choice(Action(obs.seat, "discard", obs.caishen), "bot.piao",
                              {"tname": obs.caishen})
            return Choice(hu, "bot.win")
        return self.discard_or_kong(obs, legal)

    # ------------------------------------------------ expected value

    def context(self, obs: Observation) -> RaceContext:
        """What the race model needs of this observation, with a cache of ready shapes."""
        unseen = obs.unseen()
        base = obs.options.base_flowers
        return RaceContext(caishen=obs.caishen, sets=obs.sets_needed, unseen=unseen,
                           total=max(1, sum(unseen[:31])), wall=obs.wall,
                           chain=obs.piao_chain[obs.seat],
                           share=base + len(obs.flowers[obs.seat]) + 2,
                           loss=1.3 * (base + 4))

    def _ready(self, ctx: RaceContext, shape: Shape) -> tuple[float, float]:
        """(chance a draw wins, payment multiplier) of a ready 3k+1 hand."""
        hit = ctx.cache.get(shape)
        if hit is None:
            if is_baotou_ready(shape):
                hit = (1.0, 2.0 ** min(3, 1 + ctx.chain))
            else:
                unseen = ctx.unseen
                ws = waits(shape, ctx.caishen)
                hit = (sum(unseen[t] for t in ws) / ctx.total, 1.0)
            ctx.cache[shape] = hit
        return hit

    def _win_value(self, ctx: RaceContext, mult: float) -> float:
        return 3 * mult * ctx.share + ctx.loss

    def hand_value(self, ctx: RaceContext, shape: Shape, d: int, useful: Sequence[int],
                   lead: int = 3) -> float:
        """Expected winnings of a 13-tile hand: race the opponents to a self-draw."""
        unseen = ctx.unseen
        total = ctx.total
        caishen = ctx.caishen
        if d == 0:
            p, m = self._ready(ctx, shape)
            return race([], [(1.0, p, self._win_value(ctx, m))], ctx.wall, lead)
        live = sum(unseen[t] for t in useful)
        q = live / total
        if d >= 2 or not live:
            stages = [q] + [max(0.08, q * 0.8 ** i) for i in range(1, d)]
            return race(stages, [(1.0, 0.14, self._win_value(ctx, 1.0))], ctx.wall, lead)
        mix = []
        for t in useful:
            best = None
            for kept in _ready_discards(plus(shape, t, caishen), caishen):
                p, m = self._ready(ctx, kept)
                score = m * (1 - (1 - p) ** 4)
                if best is None or score > best[0]:
                    best = (score, p, m)
            if best is not None:
                mix.append((unseen[t] / live, best[1], self._win_value(ctx, best[2])))
        return race([q], mix, ctx.wall, lead)

    def pick_discard(self, obs: Observation, options: list[DiscardOption]) -> DiscardOption:
        """The discard that leaves the most expected winnings, among the closest to ready."""
        return self.ranked_discards(obs, options)[0]

    def ranked_discards(self, obs: Observation,
                        options: list[DiscardOption]) -> list[DiscardOption]:
        """The discards closest to ready, most expected winnings first (the lonelier tile
        on a tie).

        A discard that may feed a third claim to a player who took two of ours (承包) is
        not shunned: the contract binds both ways (if they win we pay 3 shares, if we win
        they pay 5), and a discard chosen out of that fear cost 0.3 points a hand
        (bench/contract_fear.py)."""
        ctx = self.context(obs)
        caishen = ctx.caishen
        hand = obs.playing_hand
        shape = Shape.of(hand, caishen)
        best_d = min(o.distance for o in options)
        scored = []
        for o in (o for o in options if o.distance <= best_d):
            v = self.discard_value(obs, ctx, shape, o)
            scored.append((v, isolation(hand, o.tile, caishen), o))
        scored.sort(key=lambda s: (-s[0], -s[1], s[2].tile))
        return [s[2] for s in scored]

    def discard_value(self, obs: Observation, ctx: RaceContext, shape: Shape,
                      option: DiscardOption) -> float:
        """Expected winnings of the hand ``option`` leaves (``shape``: the 14 before it)."""
        return self.hand_value(ctx, minus(shape, option.tile, ctx.caishen), option.distance,
                               option.useful)

    # ---------------------------------------------------- passing a win

    def _share(self, obs: Observation, hand: list[int], win_tile: int, piao: int,
               win_by: str = "draw", chain: int = 0) -> int:
        try:
            ctx = obs.win_context(hand, win_tile, win_by, chain, piao)
            ev = evaluate(ctx, obs.options)
        except ValueError:
            return 0
        return ev.share if ev.win else 0

    def _gain(self, obs: Observation, share: int) -> float:
        seat = obs.seat
        piao = [s for s in range(4) if s != seat and obs.piao_chain[s]]
        return settle(share, seat, None, piao, obs.claims, obs.options)[seat]

    def pass_win(self, obs: Observation, legal: Sequence[Action]) -> Choice | None:
        """Pass a win when one discard leaves a 暴头 wait worth more than the win.

        After the discard any draw wins (the 财神 pairs with it) and pays
        double, or four times after a 飘; the price is the chance that an
        opponent wins first — then a 飘 player pays three shares.
        """
        seat = obs.seat
        caishen = obs.caishen
        hand = obs.playing_hand
        shape = Shape.of(hand, caishen)
        if shape.wilds == 0 or obs.wall < 4:
            return None
        win_tile = obs.last_tile if obs.last_tile is not None else hand[-1]
        chain = obs.piao_chain[seat]
        win_by = obs.arrival if obs.arrival in ("kong", "flower") else "draw"
        now = self._gain(obs, self._share(obs, hand, win_tile, chain, win_by, obs.chain))
        alive = survival(obs.wall, 3)
        base = obs.options.base_flowers
        best, best_ev = None, now
        for x in sorted(set(hand)):
            kept = minus(shape, x, caishen)
            if not is_baotou_ready(kept):
                continue
            if x == caishen:
                if not any(a.kind == "discard" and a.tile == x for a in legal):
                    continue
                two = shape.wilds >= 2 and is_sets(shape.with_wilds(shape.wilds - 2))
                new_chain = chain + two
            else:
                new_chain = 0
            rest = list(hand)
            rest.remove(x)
            mine = rest + [t for m in obs.my_melds for t in m.tiles]
            y = next((t for t in range(27) if t != caishen and t not in mine
                      and (t % 9 == 0 or t - 1 not in rest)
                      and (t % 9 == 8 or t + 1 not in rest)), None)
            if y is None:
                continue
            later = self._gain(obs, self._share(obs, rest + [y], y, new_chain))
            loss = (3 if new_chain else 1) * 1.3 * (base + 4)
            ev = alive * later - (1 - alive) * loss
            if ev > best_ev:
                best, best_ev = x, ev
        if best is None:
            return None
        code = "bot.pass_win_piao" if best == caishen else "bot.pass_win"
        return Choice(Action(seat, "discard", best), code, {"tname": best})

    def should_piao(self, obs: Observation, legal: Sequence[Action]) -> bool:
        """Pass a plain 暴头 win to throw a 财神 when the wall is still long.

        The hand must hold two 财神 beside four sets: after the throw it is
        still 暴头-ready, and its next win counts one more 番.
        """
        caishen = obs.caishen
        if not any(a.kind == "discard" and a.tile == caishen for a in legal):
            return False
        shape = Shape.of(obs.playing_hand, caishen)
        if shape.wilds < 2 or not is_sets(shape.with_wilds(shape.wilds - 2)):
            return False
        chain = obs.piao_chain[obs.seat]
        if chain >= 2:
            return False  # already at the cap: 暴头 + 2 飘 = 3 番
        return obs.wall >= 30 + 15 * chain

    # -------------------------------------------------------------- claims

    def claim(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        """Claim when the race model values the claimed tile above our own next draw.

        Passing keeps the draw: it comes after the players between the
        discarder and us. A chi or peng takes the tile instead and discards
        at once, so our next draw comes after all three opponents; a 明杠
        draws its replacement at once. Distance alone (normal's rule) misses
        that a random draw might have done as well without locking a meld.
        """
        passing = next(a for a in legal if a.kind == "pass")
        claims = [a for a in legal if a.kind != "pass"]
        if not claims:
            return Choice(passing, "bot.pass")
        assert obs.last_discard is not None
        seat = obs.seat
        ctx = self.context(obs)
        caishen = ctx.caishen
        sets = ctx.sets
        unseen = ctx.unseen
        shape = Shape.of(obs.playing_hand, caishen)
        discarder, t = obs.last_discard
        # Passing: our own draw comes after the players between the discarder and us.
        lead = (seat - discarder - 1) % 4
        d, useful, _ = analyse(shape, sets, caishen, unseen)
        values = {passing: self.hand_value(ctx, shape, d, useful, lead)}
        for a in claims:
            v = self.claim_value(ctx, shape, a, t)
            if obs.claims[seat][discarder] == 2 and a.kind != "minggang":
                v *= 0.9  # a third claim binds us in 承包 both ways
            values[a] = v
        best = max(values, key=lambda a: (values[a], a is passing))
        if best is passing:
            return Choice(passing, "bot.pass_better")
        return Choice(best, "bot.claim_race", {"claim": best.kind, "tname": t})

    def claim_value(self, ctx: RaceContext, shape: Shape, claim: Action, t: int) -> float:
        """Expected winnings after ``claim`` takes the discard ``t`` into a meld: a 明杠's
        replacement draw comes at once; a chi or peng is valued by the hands hard would keep
        after its discard, those closest to ready (as :meth:`ranked_discards` keeps). Valued
        by any discard, it took chows and pungs for hands it would never keep (50 of 938
        claim decisions in self-play changed when this was mended)."""
        caishen, sets, unseen = ctx.caishen, ctx.sets, ctx.unseen
        after = after_claim(shape, claim, t)
        if claim.kind == "minggang":
            d, useful, _ = analyse(after, sets - 1, caishen, unseen)
            return self.hand_value(ctx, after, d, useful, 0)
        keeps = []
        for x in distinct_tiles(after, caishen):
            kept = minus(after, x, caishen)
            d, useful, _ = analyse(kept, sets - 1, caishen, unseen)
            keeps.append((d, kept, useful))
        closest = min(k[0] for k in keeps)
        return max(self.hand_value(ctx, kept, d, useful, 3)
                   for d, kept, useful in keeps if d == closest)
