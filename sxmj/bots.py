"""Computer opponents at three levels: ``easy``, ``normal`` and ``hard``.

A bot sees only its seat's observation (``Game.observation(seat)``) and
chooses among ``legal_actions``; it uses the same shape functions as the
referee, so it can never disagree with the rules. Every choice comes with a
one-sentence reason in English and Chinese (shown by the player's assist).

>>> from sxmj.match import Match
>>> m = Match(seed=5)
>>> seat = m.game.to_move()[0]
>>> choice = Bot("normal").choose(m.game.observation(seat), m.game.legal_actions(seat))
>>> choice.action in m.game.legal_actions(seat)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .game import Action
from .melds import Meld
from .rules import Options
from .scoring import WinContext, evaluate, settle
from .tiles import NUM_PLAYING, tile_name
from .wall import Rng
from .winning import (
    Shape,
    baotou_distance,
    distance,
    is_baotou_ready,
    is_sets,
    is_win,
    useful_draws,
    waits,
)

LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Choice:
    action: Action
    reason: str
    reason_zh: str


@dataclass(frozen=True)
class DiscardOption:
    """How a hand stands after discarding ``tile``."""

    tile: int
    distance: int   # draws still needed to be ready (0 = ready)
    useful: tuple[int, ...]  # tiles that would bring the hand closer
    live: int       # unseen copies of those tiles


def visible_counts(obs: dict) -> list[int]:
    """Copies of each tile the observing seat can see."""
    seen = [0] * 42
    for t in obs["hand"]:
        seen[t] += 1
    for melds in obs["melds"]:
        for _, tiles, _, _ in melds:
            for t in tiles:
                seen[t] += 1
    for river in obs["discards"]:
        for t, by in river:
            if by is None:
                seen[t] += 1
    for flowers in obs["flowers"]:
        for t in flowers:
            seen[t] += 1
    seen[obs["indicator"]] += 1
    return seen


def _plus(shape: Shape, t: int, caishen: int) -> Shape:
    return shape.with_wilds(shape.wilds + 1) if t == caishen else shape.add(t)


def _minus(shape: Shape, t: int, caishen: int) -> Shape:
    return shape.with_wilds(shape.wilds - 1) if t == caishen else shape.remove(t)


def analyse(shape13: Shape, sets: int, caishen: int,
            unseen: Sequence[int]) -> tuple[int, tuple[int, ...], int]:
    """(distance to ready, useful tiles, live copies of them) for a 3k+1 hand."""
    d, useful = useful_draws(shape13, sets, caishen, list(unseen))
    return d, tuple(useful), sum(unseen[t] for t in useful)


def playing_hand(obs: dict) -> list[int]:
    """The observed hand without dealt flowers still waiting to be laid open."""
    return [t for t in obs["hand"] if t < NUM_PLAYING]


def discard_options(obs: dict, only_best: bool = True,
                    live: bool = True) -> list[DiscardOption]:
    """Distinct discards from a 14-tile turn hand, analysed.

    With ``only_best`` the live-tile count is worked out only for the
    discards that leave the hand closest to ready (the rest keep ``live`` 0);
    without ``live`` only distances are worked out.
    """
    caishen = obs["caishen"]
    hand = playing_hand(obs)
    seat = obs["seat"]
    sets = 4 - len(obs["melds"][seat])
    shape = Shape.of(hand, caishen)
    seen = visible_counts(obs)
    unseen = [max(0, 4 - seen[t]) for t in range(42)]
    dist = {t: distance(_minus(shape, t, caishen), sets) for t in set(hand)}
    best = min(dist.values())
    out = []
    for t in sorted(dist):
        if not live or only_best and dist[t] > best:
            out.append(DiscardOption(t, dist[t], (), 0))
            continue
        d, useful, live = analyse(_minus(shape, t, caishen), sets, caishen, unseen)
        out.append(DiscardOption(t, d, useful, live))
    return out


def _hazard(wall: int) -> float:
    """Chance that one opponent self-draws a win on one turn, by tiles left in the wall.

    Fitted to bot play (there are almost no drawn hands): nobody wins in the
    first rounds, then about 1 turn in 30 with 60 tiles left, 1 in 7 with 30.
    """
    return min(0.2, max(0.0, 0.0035 * (75 - wall)))


def _survival(wall: int, turns: int) -> float:
    """Chance that none of the next ``turns`` opponent turns wins."""
    p = 1.0
    for i in range(turns):
        if wall - i <= 0:
            return 0.0
        p *= 1 - _hazard(wall - i)
    return p


def _race(stages: Sequence[float], ready: Sequence[tuple[float, float, float]],
          wall: int, lead: int) -> float:
    """Expected value of winning a race against three opponents.

    ``stages``: per-draw chances of the draws still needed to become ready;
    ``ready``: (weight, per-draw chance to win, value) of the ready hands
    reached. Before our first draw ``lead`` opponents play, then three
    between our draws; each may win first (:func:`_hazard`).
    """
    alive = []
    w = wall
    p_alive = 1.0
    opp = lead
    while w > 0 and len(alive) < 24:
        for _ in range(opp):
            if w <= 0:
                break
            p_alive *= 1 - _hazard(w)
            w -= 1
        if w <= 0:
            break
        alive.append(p_alive)
        w -= 1
        opp = 3
    k_max = len(alive)
    if not k_max:
        return 0.0
    # done[j]: chance the last stage completes exactly at draw j (0 = already ready)
    done = [1.0] + [0.0] * k_max
    for q in stages:
        nxt = [0.0] * (k_max + 1)
        for j, pj in enumerate(done):
            if pj < 1e-9:
                continue
            miss = 1.0
            for k in range(j + 1, k_max + 1):
                nxt[k] += pj * miss * q
                miss *= 1 - q
        done = nxt
    value = 0.0
    for weight, p, v in ready:
        if p <= 0:
            continue
        acc = 0.0
        for j, pj in enumerate(done):
            if pj < 1e-9:
                continue
            miss = 1.0
            for k in range(j + 1, k_max + 1):
                acc += pj * miss * p * alive[k - 1]
                miss *= 1 - p
        value += weight * acc * v
    return value


def _distinct(shape: Shape, caishen: int) -> list[int]:
    out = [t for t in range(NUM_PLAYING) if t != caishen and shape.count(t)]
    if shape.wilds:
        out.append(caishen)
    return out


def _en(t: int) -> str:
    """A tile in an English reason: ``5 Dots``, ``East Wind``."""
    return tile_name(t, "en")


def _span(useful: Sequence[int]) -> str:
    """Useful tiles in words, numbers grouped by suit: ``3, 6 Dots; 1 Bamboo …``."""
    if len(useful) >= NUM_PLAYING - 1:
        return "any tile"
    groups: list[str] = []
    shown = sorted(useful)[:4]
    for suit in range(3):
        nums = [str(t % 9 + 1) for t in shown if t // 9 == suit]
        if nums:
            groups.append(", ".join(nums) + " " + _en(9 * suit).split(" ", 1)[1])
    groups += [_en(t) for t in shown if t >= 27]
    return "; ".join(groups) + (" …" if len(useful) > 4 else "")


class Bot:
    """A bot of one level; ``seed`` drives the easy bot's whims."""

    def __init__(self, level: str = "normal", seed: int = 0):
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (use {', '.join(LEVELS)})")
        self.level = level
        self.rng = Rng(seed)
        # Switches for the hard level's ideas (ablations in tournaments).
        self.contract_care = True  # avoid a third claim on one player (承包)
        self.baotou_aim = True     # used by the older key when ev_discard is off
        self.pass_wins = True      # pass a win for a 暴头 wait / 飘 when it pays more
        self.ev_discard = True     # rank equal-distance discards by expected winnings
        self.ev_cross = 0          # also weigh discards up to this distance: measured worse
        self.ev_claims = True      # claims valued by the race model, not by distance alone
        self._memo: dict = {}

    def choose(self, obs: dict, legal: Sequence[Action]) -> Choice:
        """Pick one of ``legal`` from what the observation shows."""
        if not legal:
            raise ValueError("no legal action to choose from")
        kinds = {a.kind for a in legal}
        if "hu" in kinds and obs["phase"] == "rob":
            return Choice(next(a for a in legal if a.kind == "hu"),
                          "robs the kong: it completes the hand", "抢杠胡牌")
        if obs["phase"] == "turn":
            choice = self._turn(obs, legal)
            if self.level == "hard" and choice.action.kind == "discard":
                self._remember_discard(obs)
            return choice
        return self._claim(obs, legal)

    # -------------------------------------------------------------- own turn

    def _turn(self, obs: dict, legal: Sequence[Action]) -> Choice:
        seat = obs["seat"]
        caishen = obs["caishen"]
        hu = next((a for a in legal if a.kind == "hu"), None)
        if hu is not None:
            if self.level == "hard" and self.pass_wins:
                passing = self._pass_win(obs, legal)
                if passing is not None:
                    return passing
            elif self.level == "hard" and self._should_piao(obs, legal):
                t = caishen
                return Choice(Action(seat, "discard", t),
                              f"passes the 暴头 win and throws the 财神 {_en(t)} (飘) for double",
                              f"放弃暴头，打出财神{tile_name(t, 'zh')}飘一把")
            return Choice(hu, "wins: the hand is complete", "胡牌")
        kongs = [a for a in legal if a.kind in ("angang", "jiagang")]
        options = discard_options(obs, live=self.level != "easy")
        best = self._pick_discard(obs, options)
        for k in kongs:
            if self._kong_keeps_pace(obs, k, best):
                return Choice(k, f"kongs {_en(k.tile)}: a replacement draw and extra 花",
                              f"杠{tile_name(k.tile, 'zh')}：补一张牌，多得花")
        return self._discard_choice(seat, best)

    def _discard_choice(self, seat: int, best: DiscardOption) -> Choice:
        t = best.tile
        if best.distance == 0:
            reason = f"discards {_en(t)}, ready on {_span(best.useful)}: {best.live} live tiles"
            zh = f"打{tile_name(t, 'zh')}，听{len(best.useful)}种牌，还剩{best.live}张"
        else:
            reason = (f"discards {_en(t)}, {best.distance} from ready; keeps "
                      f"{_span(best.useful)} open: {best.live} live tiles")
            zh = f"打{tile_name(t, 'zh')}，离听牌还差{best.distance}张，有效牌{best.live}张"
        return Choice(Action(seat, "discard", t), reason, zh)

    def _pick_discard(self, obs: dict, options: list[DiscardOption]) -> DiscardOption:
        caishen = obs["caishen"]
        non_wild = [o for o in options if o.tile != caishen] or options
        if self.level == "easy":
            # A beginner sees pairs and neighbours but not live-tile counts.
            best_d = min(o.distance for o in non_wild)
            pool = [o for o in non_wild if o.distance <= best_d + 1]
            hand = playing_hand(obs)
            pool.sort(key=lambda o: (o.distance, -_isolation(hand, o.tile, caishen)))
            top = [o for o in pool if o.distance == pool[0].distance]
            return top[self.rng.randbelow(len(top))]
        if self.level == "normal":
            hand = playing_hand(obs)
            return min(options, key=lambda o: (o.distance, -o.live, o.tile == caishen,
                                               -_isolation(hand, o.tile, caishen)))
        if self.ev_discard:
            return self._ev_pick(obs, options)
        return min(options, key=lambda o: self._hard_key(obs, o))

    # ------------------------------------------------ expected value (hard)

    def _context(self, obs: dict) -> dict:
        seat = obs["seat"]
        seen = visible_counts(obs)
        unseen = [max(0, 4 - seen[t]) for t in range(42)]
        base = obs["options"].get("base_flowers", 5)
        return {"caishen": obs["caishen"], "sets": 4 - len(obs["melds"][seat]),
                "unseen": unseen, "total": max(1, sum(unseen[:NUM_PLAYING])),
                "wall": obs["wall"], "chain": obs["piao_chain"][seat],
                "share": base + len(obs["flowers"][seat]) + 2,
                "loss": 1.3 * (base + 4), "cache": {}}

    def _ready(self, ctx: dict, shape: Shape) -> tuple[float, float]:
        """(chance a draw wins, payment multiplier) of a ready 3k+1 hand."""
        hit = ctx["cache"].get(shape)
        if hit is None:
            if is_baotou_ready(shape):
                hit = (1.0, 2.0 ** min(3, 1 + ctx["chain"]))
            else:
                unseen = ctx["unseen"]
                ws = waits(shape, ctx["caishen"])
                hit = (sum(unseen[t] for t in ws) / ctx["total"], 1.0)
            ctx["cache"][shape] = hit
        return hit

    def _win_value(self, ctx: dict, mult: float) -> float:
        return 3 * mult * ctx["share"] + ctx["loss"]

    def _hand_value(self, ctx: dict, shape: Shape, d: int, useful: Sequence[int],
                    lead: int = 3) -> float:
        """Expected winnings of a 13-tile hand: race the opponents to a self-draw."""
        unseen = ctx["unseen"]
        total = ctx["total"]
        caishen = ctx["caishen"]
        if d == 0:
            p, m = self._ready(ctx, shape)
            return _race([], [(1.0, p, self._win_value(ctx, m))], ctx["wall"], lead)
        live = sum(unseen[t] for t in useful)
        q = live / total
        if d >= 2 or not live:
            stages = [q] + [max(0.08, q * 0.8 ** i) for i in range(1, d)]
            return _race(stages, [(1.0, 0.14, self._win_value(ctx, 1.0))], ctx["wall"], lead)
        mix = []
        for t in useful:
            after = _plus(shape, t, caishen)
            best = None
            for x in _distinct(after, caishen):
                kept = _minus(after, x, caishen)
                if not is_win(kept.with_wilds(kept.wilds + 1)):
                    continue
                p, m = self._ready(ctx, kept)
                score = m * (1 - (1 - p) ** 4)
                if best is None or score > best[0]:
                    best = (score, p, m)
            if best is not None:
                mix.append((unseen[t] / live, best[1], self._win_value(ctx, best[2])))
        return _race([q], mix, ctx["wall"], lead)

    def _ev_pick(self, obs: dict, options: list[DiscardOption]) -> DiscardOption:
        ctx = self._context(obs)
        caishen = ctx["caishen"]
        hand = playing_hand(obs)
        shape = Shape.of(hand, caishen)
        best_d = min(o.distance for o in options)
        pool = [o for o in options if o.distance <= max(self.ev_cross, best_d)]
        scored = []
        for o in pool:
            if not o.useful and o.distance > best_d:
                d, useful, live = analyse(_minus(shape, o.tile, caishen), ctx["sets"], caishen,
                                          ctx["unseen"])
                o = DiscardOption(o.tile, d, useful, live)
            v = self._hand_value(ctx, _minus(shape, o.tile, caishen), o.distance, o.useful)
            risk = self._contract_risk(obs, o.tile) if o.tile != caishen else 0.0
            scored.append((v * (1 - 0.1 * risk), _isolation(hand, o.tile, caishen), o))
        scored.sort(key=lambda s: (-s[0], -s[1], s[2].tile))
        return scored[0][2]

    def _hard_key(self, obs: dict, o: DiscardOption) -> tuple:
        caishen = obs["caishen"]
        hand = playing_hand(obs)
        risk = self._contract_risk(obs, o.tile) if o.tile != caishen else 0.0
        value = o.live if o.distance > 1 else self._outlook(obs, o)
        effective = o.distance + 1
        if self.baotou_aim and caishen in hand:
            kept = list(hand)
            kept.remove(o.tile)
            sets = 4 - len(obs["melds"][obs["seat"]])
            effective = min(effective, baotou_distance(Shape.of(kept, caishen), sets))
        return (effective, o.distance, -value * (1 - 0.1 * risk),
                -_isolation(hand, o.tile, caishen), o.tile)

    def _outlook(self, obs: dict, o: DiscardOption) -> float:
        """Expected win value of the hand left after discarding ``o.tile``.

        Ready hands: the chance to self-draw a winner before the wall runs
        out, doubled for 暴头 (which any draw completes). One step from
        ready: the same, averaged over the draws that make the hand ready,
        each followed by its best discard.
        """
        seat = obs["seat"]
        caishen = obs["caishen"]
        sets = 4 - len(obs["melds"][seat])
        hand = playing_hand(obs)
        hand.remove(o.tile)
        shape = Shape.of(hand, caishen)
        seen = visible_counts(obs)
        unseen = [max(0, 4 - seen[t]) for t in range(42)]
        draws_left = max(1.0, obs["wall"] / 4)
        total = max(1, sum(unseen[:NUM_PLAYING]))
        bonus = 2.0 if obs["piao_chain"][seat] else 1.0

        def ready_value(sh: Shape, pool: list[int]) -> float:
            if is_baotou_ready(sh):
                return 2.0 * bonus
            d, wins = useful_draws(sh, sets, caishen, pool)
            if d:
                return 0.0
            p = sum(pool[t] for t in wins) / total
            return 1.0 - (1.0 - min(p, 1.0)) ** draws_left

        if o.distance == 0:
            return ready_value(shape, unseen)
        value = 0.0
        for t in o.useful:
            after = _plus(shape, t, caishen)
            pool = list(unseen)
            pool[t] -= 1
            best = 0.0
            for x in set(hand + [t]):
                kept = _minus(after, x, caishen)
                if distance(kept, sets) == 0:
                    best = max(best, ready_value(kept, pool))
            value += unseen[t] / total * best
        return value * draws_left

    # ---------------------------------------------------- passing a win

    def _win_context(self, obs: dict) -> tuple[str, int]:
        """(win_by, replacements) of a win now, from what this bot remembers.

        The observation does not say where the last tile came from; a kong
        the bot declared or a flower laid open since its last discard means
        the tile is a replacement (杠开).
        """
        seat = obs["seat"]
        key = (obs["dealer"], obs["indicator"], tuple(obs["dice"]))
        mem = self._memo
        if mem.get("hand") != key or mem.get("wall", 999) < obs["wall"]:
            mem.clear()
            mem["hand"] = key
        flowers = len(obs["flowers"][seat])
        kongs = sum(1 for m in obs["melds"][seat] if m[0] in ("angang", "jiagang", "minggang"))
        reps = max(0, kongs - mem.get("kongs", kongs)) + max(0, flowers - mem.get("flowers", 0))
        if not reps:
            return "draw", 0
        return ("kong" if kongs > mem.get("kongs", kongs) else "flower"), reps

    def _remember_discard(self, obs: dict) -> None:
        seat = obs["seat"]
        self._win_context(obs)
        self._memo["flowers"] = len(obs["flowers"][seat])
        self._memo["kongs"] = sum(1 for m in obs["melds"][seat]
                                  if m[0] in ("angang", "jiagang", "minggang"))
        self._memo["wall"] = obs["wall"]

    def _share(self, obs: dict, hand: list[int], win_tile: int, piao: int,
               win_by: str = "draw", reps: int = 0) -> int:
        seat = obs["seat"]
        melds = [Meld(k, tuple(t), src, c) for k, t, src, c in obs["melds"][seat]]
        try:
            ctx = WinContext.of(hand, win_tile, obs["caishen"], melds, obs["flowers"][seat],
                                win_by=win_by, replacements=reps, piao=piao,
                                dealer=seat == obs["dealer"])
            ev = evaluate(ctx, Options.from_dict(obs["options"]))
        except ValueError:
            return 0
        return ev.share if ev.win else 0

    def _gain(self, obs: dict, share: int) -> float:
        seat = obs["seat"]
        piao = [s for s in range(4) if s != seat and obs["piao_chain"][s]]
        return settle(share, seat, None, piao, obs["claims"],
                      Options.from_dict(obs["options"]))[seat]

    def _pass_win(self, obs: dict, legal: Sequence[Action]) -> Choice | None:
        """Pass a win when one discard leaves a 暴头 wait worth more than the win.

        After the discard any draw wins (the 财神 pairs with it) and pays
        double, or four times after a 飘; the price is the chance that an
        opponent wins first — then a 飘 player pays three shares.
        """
        seat = obs["seat"]
        caishen = obs["caishen"]
        hand = playing_hand(obs)
        shape = Shape.of(hand, caishen)
        if shape.wilds == 0 or obs["wall"] < 4:
            return None
        win_by, reps = self._win_context(obs)
        win_tile = obs["last_tile"] if obs["last_tile"] is not None else hand[-1]
        chain = obs["piao_chain"][seat]
        now = self._gain(obs, self._share(obs, hand, win_tile, chain, win_by, reps))
        survive = _survival(obs["wall"], 3)
        base = obs["options"].get("base_flowers", 5)
        best, best_ev = None, now
        for x in sorted(set(hand)):
            kept = _minus(shape, x, caishen)
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
            mine = rest + [t for m in obs["melds"][seat] for t in m[1]]
            y = next((t for t in range(27) if t != caishen and t not in mine
                      and (t % 9 == 0 or t - 1 not in rest)
                      and (t % 9 == 8 or t + 1 not in rest)), None)
            if y is None:
                continue
            later = self._gain(obs, self._share(obs, rest + [y], y, new_chain))
            loss = (3 if new_chain else 1) * 1.3 * (base + 4)
            ev = survive * later - (1 - survive) * loss
            if ev > best_ev:
                best, best_ev = x, ev
        if best is None:
            return None
        if best == caishen:
            return Choice(Action(seat, "discard", best),
                          f"passes the win and throws the 财神 {_en(best)} (飘): "
                          "any draw wins for more",
                          f"放弃胡牌，打出财神{tile_name(best, 'zh')}飘：下一张必胡，番更大")
        return Choice(Action(seat, "discard", best),
                      f"passes a plain win, discards {_en(best)}: any draw wins as 暴头 (double)",
                      f"放弃平胡，打{tile_name(best, 'zh')}等暴头：摸什么都胡，翻倍")

    def _ev_claim(self, obs: dict, claims: Sequence[Action], passing: Action) -> Choice:
        """Claim when the race model values the claimed tile above our own next draw.

        Passing keeps the draw: it comes after the players between the
        discarder and us. A chi or peng takes the tile instead and discards
        at once, so our next draw comes after all three opponents; a 明杠
        draws its replacement at once. Distance alone (normal's rule) misses
        that a random draw might have done as well without locking a meld.
        """
        seat = obs["seat"]
        ctx = self._context(obs)
        caishen = ctx["caishen"]
        sets = ctx["sets"]
        unseen = ctx["unseen"]
        hand = playing_hand(obs)
        shape = Shape.of(hand, caishen)
        discarder, t = obs["last_discard"]
        # Passing: our own draw comes after the players between the discarder and us.
        lead = (seat - discarder - 1) % 4
        d, useful, _ = analyse(shape, sets, caishen, unseen)
        values = {passing: self._hand_value(ctx, shape, d, useful, lead)}
        for a in claims:
            after = shape
            for x in _claim_uses(a, t):
                after = after.remove(x)
            if a.kind == "minggang":
                # the replacement draw comes at once
                d2, useful2, _ = analyse(after, sets - 1, caishen, unseen)
                v = self._hand_value(ctx, after, d2, useful2, 0)
            else:
                v = 0.0
                for x in _distinct(after, caishen):
                    kept = _minus(after, x, caishen)
                    d2, useful2, _ = analyse(kept, sets - 1, caishen, unseen)
                    v = max(v, self._hand_value(ctx, kept, d2, useful2, 3))
            if obs["claims"][seat][discarder] == 2 and a.kind != "minggang" \
                    and self.contract_care:
                v *= 0.9  # a third claim binds us in 承包 both ways
            values[a] = v
        best = max(values, key=lambda a: (values[a], a is passing))
        if best is passing:
            return Choice(passing, "passes: its own draw is worth more than this tile",
                          "过：自己摸牌更好")
        return Choice(best, f"{_VERB[best.kind]} {_en(t)}: wins the race more often",
                      f"{_ZH[best.kind]}{tile_name(t, 'zh')}：更快胡牌")

    def _contract_risk(self, obs: dict, t: int) -> int:
        """Penalty for feeding a third claim to a player who took two already (承包)."""
        seat = obs["seat"]
        seen = visible_counts(obs)
        risk = 0
        for other in range(4):
            if other != seat and obs["claims"][other][seat] == 2:
                if seen[t] < 3:
                    risk += 6  # they might peng it
                if other == (seat + 1) % 4 and t < 27:
                    risk += 3  # and the next seat might chi it
        return risk

    def _kong_keeps_pace(self, obs: dict, kong: Action, best: DiscardOption) -> bool:
        if self.level == "easy":
            return True
        caishen = obs["caishen"]
        seat = obs["seat"]
        sets = 4 - len(obs["melds"][seat])
        shape = Shape.of(playing_hand(obs), caishen)
        if kong.kind == "angang":
            after = shape
            for _ in range(4):
                after = after.remove(kong.tile)
            # 14 - 4 = 10 tiles = 3(k-1)+1 before the replacement draw
            return distance(after, sets - 1) <= best.distance
        after = shape.remove(kong.tile)
        return distance(after, sets) <= best.distance

    def _should_piao(self, obs: dict, legal: Sequence[Action]) -> bool:
        """Pass a plain 暴头 win to throw a 财神 when the wall is still long.

        The hand must hold two 财神 beside four sets: after the throw it is
        still 暴头-ready, and its next win counts one more 番.
        """
        caishen = obs["caishen"]
        if not any(a.kind == "discard" and a.tile == caishen for a in legal):
            return False
        shape = Shape.of(playing_hand(obs), caishen)
        if shape.wilds < 2 or not is_sets(shape.with_wilds(shape.wilds - 2)):
            return False
        chain = obs["piao_chain"][obs["seat"]]
        if chain >= 2:
            return False  # already at the cap: 暴头 + 2 飘 = 3 番
        return obs["wall"] >= 30 + 15 * chain

    # -------------------------------------------------------------- claims

    def _claim(self, obs: dict, legal: Sequence[Action]) -> Choice:
        seat = obs["seat"]
        passing = next(a for a in legal if a.kind == "pass")
        claims = [a for a in legal if a.kind != "pass"]
        if not claims:
            return Choice(passing, "passes", "过")
        if self.level == "easy":
            for a in claims:
                if a.kind in ("minggang", "peng") or self.rng.randbelow(2):
                    t = obs["last_discard"][1]
                    return Choice(a, f"{_VERB[a.kind]} {_en(t)}: a set on the table",
                                  f"{_ZH[a.kind]}{tile_name(t, 'zh')}，先凑一副")
            return Choice(passing, "passes", "过")
        if self.level == "hard" and self.ev_claims:
            return self._ev_claim(obs, claims, passing)
        # normal's rule (and hard's with ev_claims off): claim what brings the hand closer
        caishen = obs["caishen"]
        sets = 4 - len(obs["melds"][seat])
        hand = playing_hand(obs)
        shape = Shape.of(hand, caishen)
        now = distance(shape, sets)
        best, best_gain = passing, 0
        for a in claims:
            after = shape
            used = _claim_uses(a, obs["last_discard"][1])
            for t in used:
                after = after.remove(t)
            if a.kind == "minggang":
                gain = 1 if distance(after, sets - 1) <= now else -1
            else:
                # After chi/peng a discard follows: best 3(k-1)+1 hand.
                hand_after = list(hand)
                for t in used:
                    hand_after.remove(t)
                d_after = min(distance(_minus(after, x, caishen), sets - 1)
                              for x in set(hand_after))
                gain = now - d_after
            if gain > best_gain:
                best, best_gain = a, gain
        if best is passing:
            return Choice(passing, "passes: claiming would not bring the hand closer",
                          "过：吃碰不能让牌更快听")
        t = obs["last_discard"][1]
        return Choice(best, f"{_VERB[best.kind]} {_en(t)}: one step closer to ready",
                      f"{_ZH[best.kind]}{tile_name(t, 'zh')}：离听牌更近一步")


_ZH = {"chi": "吃", "peng": "碰", "minggang": "杠", "pass": "过"}
_VERB = {"chi": "chows", "peng": "pungs", "minggang": "kongs"}  # English reasons


def _claim_uses(a: Action, t: int) -> list[int]:
    if a.kind == "chi":
        used = list(a.tiles)
        used.remove(t)
        return used
    return [t] * (2 if a.kind == "peng" else 3)


def _isolation(hand: Sequence[int], t: int, caishen: int) -> int:
    """How alone a tile is: fewer neighbours and copies → discard it first."""
    if t == caishen:
        return -10
    score = 0
    for x in hand:
        if x == caishen:
            continue
        if x == t:
            score -= 2
        elif t < 27 and x // 9 == t // 9 and abs(x - t) <= 2:
            score -= 1
    if t >= 27:
        score += 1
    elif t % 9 in (0, 8):
        score += 1
    return score + 1  # the tile itself was counted once as its own copy


def tile_waits(obs: dict) -> list[int]:
    """The tiles a 13-tile observation hand is waiting on (for the assist)."""
    caishen = obs["caishen"]
    return waits(Shape.of(playing_hand(obs), caishen), caishen)
