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
from .tiles import NUM_PLAYING, code, tile_name
from .wall import Rng
from .winning import (
    Shape,
    baotou_distance,
    distance,
    is_baotou_ready,
    is_sets,
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


def _span(useful: Sequence[int]) -> str:
    if len(useful) >= NUM_PLAYING - 1:
        return "any tile"
    return " ".join(code(t) for t in useful[:4]) + (" …" if len(useful) > 4 else "")


class Bot:
    """A bot of one level; ``seed`` drives the easy bot's whims."""

    def __init__(self, level: str = "normal", seed: int = 0):
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (use {', '.join(LEVELS)})")
        self.level = level
        self.rng = Rng(seed)
        self.tempo_pengs = True
        self.contract_care = True
        self.baotou_aim = True

    def choose(self, obs: dict, legal: Sequence[Action]) -> Choice:
        """Pick one of ``legal`` from what the observation shows."""
        if not legal:
            raise ValueError("no legal action to choose from")
        kinds = {a.kind for a in legal}
        if "hu" in kinds and obs["phase"] == "rob":
            return Choice(next(a for a in legal if a.kind == "hu"),
                          "robs the kong: it completes the hand", "抢杠胡牌")
        if obs["phase"] == "turn":
            return self._turn(obs, legal)
        return self._claim(obs, legal)

    # -------------------------------------------------------------- own turn

    def _turn(self, obs: dict, legal: Sequence[Action]) -> Choice:
        seat = obs["seat"]
        caishen = obs["caishen"]
        hu = next((a for a in legal if a.kind == "hu"), None)
        if hu is not None:
            if self.level == "hard" and self._should_piao(obs, legal):
                t = caishen
                return Choice(Action(seat, "discard", t),
                              f"passes the 暴头 win and throws the 财神 {code(t)} (飘) for double",
                              f"放弃暴头，打出财神{tile_name(t, 'zh')}飘一把")
            return Choice(hu, "wins: the hand is complete", "胡牌")
        kongs = [a for a in legal if a.kind in ("angang", "jiagang")]
        options = discard_options(obs, live=self.level != "easy")
        best = self._pick_discard(obs, options)
        for k in kongs:
            if self._kong_keeps_pace(obs, k, best):
                return Choice(k, f"kongs {code(k.tile)}: a replacement draw and extra 花",
                              f"杠{tile_name(k.tile, 'zh')}：补一张牌，多得花")
        return self._discard_choice(seat, best)

    def _discard_choice(self, seat: int, best: DiscardOption) -> Choice:
        t = best.tile
        if best.distance == 0:
            reason = f"discards {code(t)}, ready on {_span(best.useful)}: {best.live} live tiles"
            zh = f"打{tile_name(t, 'zh')}，听{len(best.useful)}种牌，还剩{best.live}张"
        else:
            reason = (f"discards {code(t)}, {best.distance} from ready; keeps "
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
        return min(options, key=lambda o: self._hard_key(obs, o))

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
                    return Choice(a, f"claims with {a.kind}", f"{_ZH[a.kind]}")
            return Choice(passing, "passes", "过")
        caishen = obs["caishen"]
        sets = 4 - len(obs["melds"][seat])
        hand = playing_hand(obs)
        shape = Shape.of(hand, caishen)
        now = distance(shape, sets)
        discarder = obs["last_discard"][0] if obs["last_discard"] else None
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
            if self.level == "hard" and discarder is not None:
                if a.kind == "peng" and gain == 0 and self.tempo_pengs:
                    # A peng that keeps pace still skips the players in between.
                    skipped = (seat - discarder) % 4 - 1
                    gain = 0.5 * skipped
                if obs["claims"][seat][discarder] == 2 and a.kind != "minggang" \
                        and self.contract_care:
                    gain -= 0.6  # a third claim binds us in 承包 both ways
            if gain > best_gain:
                best, best_gain = a, gain
        if best is passing:
            return Choice(passing, "passes: claiming would not bring the hand closer",
                          "过：吃碰不能让牌更快听")
        t = obs["last_discard"][1]
        return Choice(best, f"{best.kind} {code(t)}: one step closer to ready",
                      f"{_ZH[best.kind]}{tile_name(t, 'zh')}：离听牌更近一步")


_ZH = {"chi": "吃", "peng": "碰", "minggang": "杠", "pass": "过"}


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
