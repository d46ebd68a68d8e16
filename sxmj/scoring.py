"""The hand evaluator: is it a win, which 番 patterns, how many 花, who pays.

RULES.md §6–§9 live here and nowhere else; the engine, the bots, the score
screen and the tutorial pages all call :func:`evaluate` and :func:`settle`.

>>> r = evaluate(WinContext.of(parse_tiles("123m456m789m123p5p6s"), tile("6s"), tile("5p")))
>>> r.win, r.patterns, r.fan, r.flowers, r.share
(True, ['baotou'], 1, 1, 12)
>>> settle(r.share, winner=0)
[36, -12, -12, -12]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .melds import Meld
from .messages import TERMS, render, term
from .rules import Options, RuleError
from .tiles import NUM_PLAYING, code, format_tiles, is_wind, parse_tiles, tile
from .winning import Group, Shape, decompositions, is_win

WIN_BY = ("draw", "kong", "flower", "rob")

# The patterns and 花 items in the order they are listed and explained, with their numbers.
# Their words are sxmj.messages.TERMS ("pattern.<id>", "pattern.<id>.explain",
# "flower.<id>", "pay.<reason>"): the tables below read them from there.
_PATTERN_IDS = ("baotou", "piao", "gangkai", "dadiao", "qianggang", "tianhu", "dihu", "quanfeng")
FLOWER_POINTS = {  # 花 item id: 花 each
    "flower": 1, "caishen": 1, "wind_pung": 1, "wind_kong_exposed": 2,
    "wind_kong_concealed": 3, "kong_exposed": 1, "kong_concealed": 2,
}
PATTERNS = {  # id: (中文, English, explanation en)
    pid: (*TERMS[f"pattern.{pid}"], TERMS[f"pattern.{pid}.explain"][1]) for pid in _PATTERN_IDS
}
PATTERNS_ZH_EXPLAIN = {pid: TERMS[f"pattern.{pid}.explain"][0] for pid in _PATTERN_IDS}
FLOWER_ITEMS = {  # id: (中文, English, 花 each)
    item: (*TERMS[f"flower.{item}"], points) for item, points in FLOWER_POINTS.items()
}


class InvalidHand(RuleError):
    """The evaluator's input is not a hand it can judge (names field and tile)."""


@dataclass(frozen=True)
class WinContext:
    """One hand to judge and how its winning tile arrived: the evaluator's whole input.

    ``hand`` holds the concealed tiles including ``win_tile``; ``replacements``
    is the 杠开 chain (None: 1 for a kong or flower win, else 0); ``piao`` the
    winner's unbroken 飘 chain. The game, the request module, the bots and the
    calculator all build this one value.

    >>> WinContext.of(parse_tiles("123m456m789m123p5p6s"), tile("6s"), tile("5p")).win_by
    'draw'
    """

    hand: tuple[int, ...]
    win_tile: int
    caishen: int
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    win_by: str = "draw"
    replacements: int | None = None
    piao: int = 0
    first_turn: bool = False
    dealer: bool = False

    @staticmethod
    def of(hand: Sequence[int], win_tile: int, caishen: int, melds: Sequence[Meld] = (),
           flowers: Sequence[int] = (), *, win_by: str = "draw",
           replacements: int | None = None, piao: int = 0, first_turn: bool = False,
           dealer: bool = False) -> WinContext:
        """Build from any sequences (lists are frozen into tuples)."""
        return WinContext(tuple(hand), win_tile, caishen, tuple(melds), tuple(flowers),
                          win_by, replacements, piao, first_turn, dealer)

    @staticmethod
    def at_table(hand: Sequence[int], win_tile: int, caishen: int, melds: Sequence[Meld],
                 flowers: Sequence[int], *, win_by: str, chain: int, piao: int,
                 first_turn: bool, dealer: bool) -> WinContext:
        """A seat's win as the table sees it: the one place the engine (:meth:`Game.
        win_context`) and a seat's own view (:meth:`Observation.win_context`, for the bots
        and the assist) build it. A first turn's 天胡 or 地胡 is a self-draw: a rob never
        counts it."""
        return WinContext.of(hand, win_tile, caishen, melds, flowers, win_by=win_by,
                             replacements=chain, piao=piao,
                             first_turn=first_turn and win_by != "rob", dealer=dealer)

    @property
    def chain(self) -> int:
        """The replacement chain, with the default filled in."""
        if self.replacements is not None:
            return self.replacements
        return 1 if self.win_by in ("kong", "flower") else 0


@dataclass
class Evaluation:
    """What the evaluator found. ``explain(lang)`` reads it out item by item."""

    win: bool
    reason: str = ""
    reason_zh: str = ""
    reason_code: str = ""  # sxmj.messages code of the reason
    fan: int = 0
    fan_raw: int = 0
    patterns: list[str] = field(default_factory=list)
    pattern_fan: dict[str, int] = field(default_factory=dict)
    flower_items: list[tuple[str, int, int]] = field(default_factory=list)  # (id, count, 花)
    flowers: int = 0
    base: int = 5
    share: int = 0
    groups: list[Group] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    caishen: int | None = None
    win_tile: int | None = None

    def explain(self, lang: str = "en") -> list[str]:
        """One line per pattern, per 花 item, then the formula with its numbers."""
        zh = lang == "zh"
        if not self.win:
            return [self.reason_zh if zh else self.reason]
        lines = []
        for pid in self.patterns:
            name_zh, name_en = TERMS[f"pattern.{pid}"]
            name = name_zh if zh else f"{name_zh} {name_en}"
            what = term(f"pattern.{pid}.explain", lang)
            lines.append(term("explain.pattern", lang, name=name, what=what,
                              n=self.pattern_fan[pid]))
        if not self.patterns:
            lines.append(term("explain.plain", lang))
        if self.fan < self.fan_raw:
            lines.append(term("explain.cap", lang, raw=self.fan_raw, fan=self.fan))
        for item, count, points in self.flower_items:
            name_zh, name_en = TERMS[f"flower.{item}"]
            name = name_zh if zh else f"{name_en} ({name_zh})"
            lines.append(term("explain.flower", lang, name=name, count=count, points=points))
        lines.append(self.formula(lang))
        return lines

    def formula(self, lang: str = "en") -> str:
        return term("explain.formula", lang, fan=self.fan, base=self.base, flowers=self.flowers,
                    power=2 ** self.fan, sum=self.base + self.flowers, share=self.share)

    def to_json(self) -> dict[str, Any]:
        if not self.win:
            return {"win": False, "reason": self.reason}
        return {"win": True, "fan": self.fan, "patterns": list(self.patterns),
                "flowers": self.flowers, "share": self.share}


# ------------------------------------------------------------------ inputs

def check_hand(ctx: WinContext, options: Options | None = None) -> None:
    """Raise InvalidHand unless the context is a possible 14-tile winning claim (RULES §12)."""
    opts = options or Options()
    hand, win_tile, caishen, melds, flowers = (ctx.hand, ctx.win_tile, ctx.caishen,
                                               ctx.melds, ctx.flowers)
    if ctx.win_by not in WIN_BY:
        raise InvalidHand("win_by", "field.win_by", value=ctx.win_by)
    if caishen >= NUM_PLAYING:
        raise InvalidHand("caishen", "hand.caishen_flower", tile=code(caishen))
    for t in hand:
        if t >= NUM_PLAYING:
            raise InvalidHand("hand", "hand.flower_in_hand", tile=code(t))
    for t in flowers:
        if t < NUM_PLAYING:
            raise InvalidHand("flowers", "hand.not_flower", tile=code(t))
    if win_tile >= NUM_PLAYING:
        raise InvalidHand("win_tile", "hand.win_tile_flower", tile=code(win_tile))
    if win_tile not in hand:
        raise InvalidHand("win_tile", "hand.win_tile_missing", tile=code(win_tile),
                          hand=format_tiles(hand)[:60])
    size = len(hand) + 3 * len(melds)
    if size != 14:
        raise InvalidHand("hand", "hand.size", count=len(hand), melds=len(melds), size=size)
    seen = [0] * 42
    for t in list(hand) + [t for m in melds for t in m.tiles] + list(flowers):
        seen[t] += 1
        limit = 1 if t >= 34 else 4
        if seen[t] > limit:
            raise InvalidHand("hand" if t < 31 else "flowers", "hand.copies", limit=limit,
                              tile=code(t))
    if ctx.win_by == "rob":
        if win_tile == caishen:
            raise InvalidHand("win_tile", "hand.rob_caishen", tile=code(win_tile))
        # the three other copies sit in the pung being konged
        if seen[win_tile] != 1:
            raise InvalidHand("hand", "hand.rob_copies", tile=code(win_tile),
                              count=seen[win_tile])
    for name, value in (("replacements", ctx.replacements), ("piao", ctx.piao)):
        if value is not None and value < 0:
            raise InvalidHand(name, "field.count", value=value)
    chain = ctx.chain
    if chain and ctx.win_by in ("draw", "rob"):
        raise InvalidHand("replacements", "hand.replacements_win_by", win_by=ctx.win_by)
    # every link of a 杠开 chain is a kong laid down or, under flower_is_kong, a flower
    # laid open: without the option a kong win's chain counts its kongs alone (a flower
    # win scores no 杠开 then, whatever its chain)
    kongs = sum(1 for m in melds if m.is_kong)
    flower_links = opts.flower_is_kong or ctx.win_by == "flower"
    makers = kongs + (len(flowers) if flower_links else 0)
    # a kong or flower win drew its tile because of a kong or a flower: one must be there
    if ctx.win_by == "kong" and not kongs or ctx.win_by == "flower" and not flowers:
        raise InvalidHand("win_by", "hand.replacement_source", win_by=ctx.win_by)
    if chain > makers:
        raise InvalidHand("replacements", "hand.replacements", value=chain, limit=makers)
    # 天胡 and 地胡 are won on the hand as dealt (after its flowers) or the first draw: a
    # kong laid down first leaves that turn behind, and the engine never scores it so
    if ctx.first_turn and ctx.win_by == "kong":
        raise InvalidHand("first_turn", "hand.first_turn_kong")
    # nor with a set laid down: a chi, peng or 明杠 is a claim, which ends the first turn
    # (地胡 is "before any claim"), and a concealed kong leaves it behind as above
    if ctx.first_turn and melds:
        raise InvalidHand("first_turn", "hand.first_turn_melds", count=len(melds))
    # a 飘 is a 财神 discarded, and the first turn comes before any discard of the winner
    piao = ctx.piao
    if ctx.first_turn and piao:
        raise InvalidHand("piao", "hand.first_turn_piao", value=piao)
    # each 飘 is a real 财神 gone to the river: with those in hand and melds, at most four
    if piao and piao + seen[caishen] > 4:
        raise InvalidHand("piao", "hand.piao_copies", value=piao, tile=code(caishen),
                          held=seen[caishen])


# ------------------------------------------------------------------ readings

@dataclass
class _Reading:
    groups: list[Group]
    baotou: bool
    wind_pungs: int
    sets: bool = True  # False: the no-set 全风 reading (no pair, so never 大吊)
    winds_only: bool = True  # every 财神 may count as a wind here (for 全风)


def _readings(counts: list[int], wilds: int, win_tile: int, caishen: int,
              rob: bool, baotou_required: bool) -> list[_Reading]:
    """The distinct sets-and-a-pair readings of a winning hand that can score differently."""
    out: list[_Reading] = []
    seen: set[tuple[bool, int, bool]] = set()

    def add(groups: list[Group], baotou: bool, winds_only: bool = True) -> None:
        wind_pungs = sum(1 for kind, members in groups if kind == "pung"
                         and (members[0][0] is None or is_wind(members[0][0])))
        if (baotou, wind_pungs, winds_only) not in seen:
            seen.add((baotou, wind_pungs, winds_only))
            out.append(_Reading(groups, baotou, wind_pungs, True, winds_only))

    # 暴头: the drawn tile and one 财神 are the pair and the rest is sets only
    # (a robbed tile was never drawn, so robbing is never 暴头).
    if not rob:
        rest = list(counts)
        pair: Group
        if win_tile == caishen:
            left, pair = wilds - 2, ("pair", ((None, True), (None, True)))
        else:
            rest[win_tile] -= 1
            left, pair = wilds - 1, ("pair", ((win_tile, False), (win_tile, True)))
        if left >= 0 and rest[win_tile if win_tile != caishen else 0] >= 0:
            for groups in decompositions(rest, left, pair=False):
                add(groups + [pair], True)
    if baotou_required and wilds:
        # 有财必暴: other readings only with every 财神 standing as itself
        natural = list(counts)
        natural[caishen] += wilds
        if natural[caishen] > 4 or not any(True for _ in decompositions(natural, 0)):
            return out
        groups_iter = decompositions(natural, 0)
        winds_only = is_wind(caishen)
    else:
        groups_iter = decompositions(counts, wilds, pair=True)
        winds_only = True
    for groups in groups_iter:
        if rob and not any(g[0] != "pair" and (win_tile, False) in g[1] for g in groups):
            continue
        add(groups, False, winds_only)
    return out


def _not_a_win(ctx: WinContext, shape: Shape, opts: Options,
               all_winds: bool) -> tuple[str, dict[str, Any]]:
    """The rule that refuses a hand with no reading: its message code and parameters."""
    if all_winds and ctx.win_by != "rob" and opts.baotou_required and shape.wilds:
        return "nowin.baotou_required", {}  # 全风 with a 财神 standing for a wind
    if not is_win(shape):
        # a 全风 hand that wins only without sets, robbing: the robbed tile must sit in a set
        return ("nowin.rob_quanfeng" if all_winds and ctx.win_by == "rob" else
                "nowin.shape"), {}
    if ctx.win_by == "rob":
        if opts.baotou_required and shape.wilds:
            counts = shape.counts()
            free = _readings(counts, shape.wilds, ctx.win_tile, ctx.caishen, True, False)
            if free:  # it would rob without 有财必暴
                return "nowin.rob_baotou_required", {}
        return "nowin.rob_pair", {"tname": ctx.win_tile}  # named as players say it
    if opts.baotou_required and shape.wilds:
        return "nowin.baotou_required", {}
    return "nowin.shape", {}


def evaluate(ctx: WinContext, options: Options | None = None) -> Evaluation:
    """Judge a 14-tile hand (concealed tiles incl. the winning tile, plus melds).

    Raises :class:`InvalidHand` for input that can't be a hand; returns an
    :class:`Evaluation` with ``win=False`` and a reason for a hand that isn't
    a win under the rules.
    """
    opts = options or Options()
    check_hand(ctx, opts)
    hand, win_tile, caishen, melds = ctx.hand, ctx.win_tile, ctx.caishen, ctx.melds
    win_by, piao = ctx.win_by, ctx.piao
    rob = win_by == "rob"
    shape = Shape.of(hand, caishen)
    counts = shape.counts()
    wilds = shape.wilds
    result = Evaluation(win=False, base=opts.base_flowers, melds=list(melds),
                        caishen=caishen, win_tile=win_tile)

    readings = (_readings(counts, wilds, win_tile, caishen, rob, opts.baotou_required)
                if is_win(shape) else [])
    all_winds = (all(is_wind(t) for t in range(NUM_PLAYING) if counts[t])
                 and all(m.is_wind_set for m in melds))
    # 全风 needs no sets, but can't rob (the robbed tile must sit in a set), and
    # under 有财必暴 only when every 财神 stands as itself: a wind 财神
    if all_winds and not rob and (not opts.baotou_required or not wilds or is_wind(caishen)):
        readings.append(_Reading([], False, 0, sets=False))
    if not readings:
        reason, params = _not_a_win(ctx, shape, opts, all_winds)
        result.reason = render(reason, params, "en")
        result.reason_zh = render(reason, params, "zh")
        result.reason_code = reason
        return result

    fixed: dict[str, int] = {}
    self_draw = not rob
    chain = ctx.chain
    # the dealer's first turn draws nothing: a flower replacement then replaced a dealt
    # flower, which is part of the deal and no 杠开 (RULES §12: a 天胡 there is 天胡 alone)
    dealt = ctx.first_turn and ctx.dealer and win_by == "flower"
    if win_by == "kong" or (win_by == "flower" and opts.flower_is_kong and not dealt):
        if chain > 0:
            fixed["gangkai"] = chain
    if rob:
        fixed["qianggang"] = 1
    if ctx.first_turn and self_draw:
        fixed["tianhu" if ctx.dealer else "dihu"] = 3

    base_items = _fixed_flower_items(melds, ctx.flowers, wilds)
    best = None
    for reading in readings:
        pattern_fan = {}
        if reading.baotou:
            pattern_fan["baotou"] = 1
            if piao and self_draw:
                pattern_fan["piao"] = piao
        pattern_fan.update(fixed)
        # 大吊: the standing tile and the draw form the pair, so a reading with sets
        if len(melds) == 4 and reading.sets:
            pattern_fan["dadiao"] = 1
        if all_winds and reading.winds_only:
            pattern_fan["quanfeng"] = 3
        items = list(base_items)
        if reading.wind_pungs:
            items.append(("wind_pung", reading.wind_pungs, reading.wind_pungs))
        flowers_total = sum(p for _, _, p in items)
        fan_raw = sum(pattern_fan.values())
        fan = min(fan_raw, opts.fan_cap)
        share = 2 ** fan * (opts.base_flowers + flowers_total)
        rank = (share, fan_raw)
        if best is None or rank > best[0]:
            best = (rank, reading, pattern_fan, items, fan, fan_raw, flowers_total)
    assert best is not None
    _, reading, pattern_fan, items, fan, fan_raw, flowers_total = best
    order = list(PATTERNS)
    result.win = True
    result.patterns = sorted(pattern_fan, key=order.index)
    result.pattern_fan = pattern_fan
    result.flower_items = _merge_items(items)
    result.flowers = flowers_total
    result.fan, result.fan_raw = fan, fan_raw
    result.share = 2 ** fan * (opts.base_flowers + flowers_total)
    result.groups = reading.groups
    return result


def _fixed_flower_items(melds: Sequence[Meld], flowers: Sequence[int],
                        wilds: int) -> list[tuple[str, int, int]]:
    items = []
    if flowers:
        items.append(("flower", len(flowers), len(flowers)))
    if wilds:
        items.append(("caishen", wilds, wilds))
    for m in melds:
        if m.is_kong:
            item = ("wind_kong_" if m.is_wind_set else "kong_") + \
                   ("concealed" if m.concealed else "exposed")
        elif m.is_wind_set:
            item = "wind_pung"
        else:
            continue
        items.append((item, 1, FLOWER_ITEMS[item][2]))
    return items


def _merge_items(items: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    merged: dict[str, list[int]] = {}
    for item, count, points in items:
        slot = merged.setdefault(item, [0, 0])
        slot[0] += count
        slot[1] += points
    order = list(FLOWER_ITEMS)
    return [(k, v[0], v[1]) for k, v in sorted(merged.items(), key=lambda kv: order.index(kv[0]))]


# ------------------------------------------------------------------ payment

@dataclass
class Settlement:
    """Each seat's gain (+) or payment (−) and the reason for each payer."""

    amounts: list[int]
    reasons: list[str]  # per seat: "winner", "share", "rob", "piao", "contract3", "contract5", ""


def settle(share: int, winner: int, robbed: int | None = None,
           piao_seats: Sequence[int] = (), claims: Sequence[Sequence[int]] | None = None,
           options: Options | None = None) -> list[int]:
    """Zero-sum payments for a win (RULES.md §9); see :func:`settle_detail`."""
    return settle_detail(share, winner, robbed, piao_seats, claims, options).amounts


def settle_detail(share: int, winner: int, robbed: int | None = None,
                  piao_seats: Sequence[int] = (),
                  claims: Sequence[Sequence[int]] | None = None,
                  options: Options | None = None) -> Settlement:
    """Who pays how many shares, in the rule book's precedence.

    抢杠: the robbed player pays 3 shares, nobody else. Else 飘 penalty: each
    other player with an unbroken 飘 chain pays 3, nobody else. Else 承包:
    a player whose discards the winner claimed three times pays 3; a player
    who claimed the winner's discards three times (or both) pays 5; the
    others pay one share.
    """
    opts = options or Options()
    pay = [0] * 4
    reasons = [""] * 4
    reasons[winner] = "winner"
    others = [s for s in range(4) if s != winner]
    piao_payers = [s for s in piao_seats if s != winner]
    if robbed is not None:
        pay[robbed] = 3 * share
        reasons[robbed] = "rob"
    elif piao_payers:
        for s in set(piao_payers):
            pay[s] = 3 * share
            reasons[s] = "piao"
    else:
        for s in others:
            n, why = 1, "share"
            if opts.contract and claims is not None:
                if claims[s][winner] >= 3:
                    n, why = 5, "contract5"
                elif claims[winner][s] >= 3:
                    n, why = 3, "contract3"
            pay[s] = n * share
            reasons[s] = why
    amounts = [-p for p in pay]
    amounts[winner] = sum(pay)
    return Settlement(amounts, reasons)


PAY_REASONS = {  # Settlement.reasons: (中文, English); "" is a seat that pays nothing
    reason: TERMS[f"pay.{reason}"]
    for reason in ("winner", "share", "rob", "piao", "contract3", "contract5")
} | {"": ("", "")}


def evaluate_notation(hand: str, win_tile: str, caishen: str, melds: Sequence[str] = (),
                      flowers: str = "", options: Options | None = None,
                      **context: Any) -> Evaluation:
    """Convenience wrapper taking notation strings (handy in docs and tests).

    >>> evaluate_notation("123m456m789m123p5p6s", "6s", "5p").patterns
    ['baotou']
    """
    cai = tile(caishen)
    ctx = WinContext.of(parse_tiles(hand), tile(win_tile), cai,
                        [Meld.parse(m, cai) for m in melds], parse_tiles(flowers), **context)
    return evaluate(ctx, options)
