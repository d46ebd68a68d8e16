"""The hand evaluator: is it a win, which 番 patterns, how many 花, who pays.

RULES.md §6–§9 live here and nowhere else; the engine, the bots, the score
screen and the tutorial pages all call :func:`evaluate` and :func:`settle`.

>>> r = evaluate(parse_tiles("123m456m789m123p5p6s"), tile("6s"), caishen=tile("5p"))
>>> r.win, r.patterns, r.fan, r.flowers, r.share
(True, ['baotou'], 1, 1, 12)
>>> settle(r.share, winner=0)
[36, -12, -12, -12]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .melds import Meld
from .rules import Options, RuleError
from .tiles import NUM_PLAYING, code, format_tiles, is_wind, parse_tiles, tile, tile_name
from .winning import Group, Shape, decompositions, is_win

WIN_BY = ("draw", "kong", "flower", "rob")

PATTERNS = {
    # id: (中文, English, explanation en)
    "baotou": ("暴头", "Bao Tou", "wild pair: the drawn tile paired with a 财神"),
    "piao": ("财飘", "Piao", "a 财神 thrown away while 暴头-ready"),
    "gangkai": ("杠开", "Gang Kai", "won on a replacement tile after a kong or flower"),
    "dadiao": ("大吊", "Da Diao", "every set laid down, one tile standing"),
    "qianggang": ("抢杠", "Qiang Gang", "robbed a kong"),
    "tianhu": ("天胡", "Tian Hu", "dealer wins on the dealt hand"),
    "dihu": ("地胡", "Di Hu", "won on the first draw"),
    "quanfeng": ("全风", "Quan Feng", "every tile a wind"),
}
PATTERNS_ZH_EXPLAIN = {
    "baotou": "摸到的牌与财神成将",
    "piao": "暴头听牌时打出财神",
    "gangkai": "杠或补花后摸到的牌胡",
    "dadiao": "其余牌都已吃碰杠，单张立着",
    "qianggang": "抢别人加杠的牌胡",
    "tianhu": "庄家起手即胡",
    "dihu": "闲家第一次摸牌即胡",
    "quanfeng": "十四张全是风牌",
}
FLOWER_ITEMS = {
    # id: (中文, English, 花 each)
    "flower": ("花牌", "flower tile laid open", 1),
    "caishen": ("财神", "财神 in the hand", 1),
    "wind_pung": ("风刻", "pung of a wind", 1),
    "wind_kong_exposed": ("明杠风", "exposed kong of a wind", 2),
    "wind_kong_concealed": ("暗杠风", "concealed kong of a wind", 3),
    "kong_exposed": ("明杠", "exposed kong", 1),
    "kong_concealed": ("暗杠", "concealed kong", 2),
}


class InvalidHand(RuleError):
    """The evaluator's input is not a hand it can judge (names field and tile)."""


@dataclass
class Evaluation:
    """What the evaluator found. ``explain(lang)`` reads it out item by item."""

    win: bool
    reason: str = ""
    reason_zh: str = ""
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
            name_zh, name_en, what = PATTERNS[pid]
            n = self.pattern_fan[pid]
            lines.append(f"{name_zh} — {PATTERNS_ZH_EXPLAIN[pid]}，{n} 番" if zh
                         else f"{name_zh} {name_en} — {what}, {n} 番")
        if not self.patterns:
            lines.append("平胡，0 番" if zh else "Plain win, 0 番")
        if self.fan < self.fan_raw:
            lines.append(f"三番到底：{self.fan_raw} 番按 {self.fan} 番算" if zh
                         else f"三番到底 cap: {self.fan_raw} 番 count as {self.fan}")
        for item, count, points in self.flower_items:
            name_zh, name_en, _ = FLOWER_ITEMS[item]
            lines.append(f"{name_zh} ×{count}：{points} 花" if zh
                         else f"{name_en} ({name_zh}) ×{count}: {points} 花")
        lines.append(self.formula(lang))
        return lines

    def formula(self, lang: str = "en") -> str:
        head = "每家" if lang == "zh" else "share"
        return (f"{head} = 2^{self.fan} × ({self.base} + {self.flowers}) = "
                f"{2 ** self.fan} × {self.base + self.flowers} = {self.share}")

    def to_json(self) -> dict:
        if not self.win:
            return {"win": False, "reason": self.reason}
        return {"win": True, "fan": self.fan, "patterns": list(self.patterns),
                "flowers": self.flowers, "share": self.share}


# ------------------------------------------------------------------ inputs

def _tiles(value: object, name: str) -> list[int]:
    if isinstance(value, list):
        value = "".join(v if isinstance(v, str) else "?" for v in value)
    try:
        return parse_tiles(value)  # type: ignore[arg-type]
    except ValueError as e:
        raise InvalidHand(name, str(e)) from None


def tiles_field(request: dict, name: str) -> list[int]:
    """A request's tile field (e.g. ``hand``), parsed; InvalidHand naming the field if not."""
    value = request.get(name)
    if not isinstance(value, str):
        raise InvalidHand(name, f"expected tiles written like '123m55z', got {value!r}")
    return _tiles(value, name)


def parse_melds(items: object, caishen: int | None) -> list[Meld]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise InvalidHand("melds", f"expected a list like [\"peng 222z\"], got {items!r}")
    out = []
    for text in items:
        try:
            out.append(Meld.parse(text, caishen))
        except RuleError as e:
            raise InvalidHand("melds", str(e).split(": ", 1)[1]) from None
    return out


def check_hand(hand: Sequence[int], win_tile: int, caishen: int,
               melds: Sequence[Meld], flowers: Sequence[int]) -> None:
    """Raise InvalidHand unless the tiles make a possible 14-tile winning claim."""
    if caishen >= NUM_PLAYING:
        raise InvalidHand("caishen", f"{code(caishen)} is a flower tile; the 财神 is "
                                     f"always a suited tile or a wind")
    for t in hand:
        if t >= NUM_PLAYING:
            raise InvalidHand("hand", f"{code(t)} is a flower tile and is laid open, "
                                      f"never kept in a hand")
    for t in flowers:
        if t < 31:
            raise InvalidHand("flowers", f"{code(t)} is not a flower tile")
    if win_tile >= NUM_PLAYING:
        raise InvalidHand("win_tile", f"{code(win_tile)} is a flower tile")
    if win_tile not in hand:
        raise InvalidHand("win_tile", f"{code(win_tile)} is not in the hand "
                                      f"{format_tiles(hand)}")
    size = len(hand) + 3 * len(melds)
    if size != 14:
        raise InvalidHand("hand", f"{len(hand)} tiles in hand and {len(melds)} melds make "
                                  f"{size}, a winning hand has 14 (kongs count 3)")
    seen = [0] * 42
    for t in list(hand) + [t for m in melds for t in m.tiles] + list(flowers):
        seen[t] += 1
        limit = 1 if t >= 34 else 4
        if seen[t] > limit:
            raise InvalidHand("hand" if t < 31 else "flowers",
                              f"more than {limit} copies of {code(t)}")


# ------------------------------------------------------------------ readings

@dataclass
class _Reading:
    groups: list[Group]
    baotou: bool
    wind_pungs: int


def _readings(counts: list[int], wilds: int, win_tile: int, caishen: int,
              rob: bool, baotou_required: bool) -> list[_Reading]:
    """The distinct ways to read a winning hand that can score differently."""
    out: list[_Reading] = []
    seen: set[tuple[bool, int]] = set()

    def add(groups: list[Group], baotou: bool) -> None:
        wind_pungs = sum(1 for kind, members in groups if kind == "pung"
                         and (members[0][0] is None or is_wind(members[0][0])))
        if (baotou, wind_pungs) not in seen:
            seen.add((baotou, wind_pungs))
            out.append(_Reading(groups, baotou, wind_pungs))

    # 暴头: the drawn tile and one 财神 are the pair and the rest is sets only
    # (a robbed tile was never drawn, so robbing is never 暴头).
    if not rob:
        rest = list(counts)
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
    else:
        groups_iter = decompositions(counts, wilds, pair=True)
    for groups in groups_iter:
        if rob and not any(g[0] != "pair" and (win_tile, False) in g[1] for g in groups):
            continue
        add(groups, False)
    return out


def evaluate(hand: Sequence[int], win_tile: int, caishen: int, melds: Sequence[Meld] = (),
             flowers: Sequence[int] = (), win_by: str = "draw",
             replacements: int | None = None, piao: int = 0, first_turn: bool = False,
             dealer: bool = False, options: Options | None = None) -> Evaluation:
    """Judge a 14-tile hand (concealed tiles incl. the winning tile, plus melds).

    Raises :class:`InvalidHand` for input that can't be a hand; returns an
    :class:`Evaluation` with ``win=False`` and a reason for a hand that isn't
    a win under the rules.
    """
    opts = options or Options()
    if win_by not in WIN_BY:
        raise InvalidHand("win_by", f"unknown win_by {win_by!r} (use {', '.join(WIN_BY)})")
    check_hand(hand, win_tile, caishen, melds, flowers)
    if replacements is None:
        replacements = 1 if win_by in ("kong", "flower") else 0
    if replacements < 0 or piao < 0:
        raise InvalidHand("replacements" if replacements < 0 else "piao",
                          "must be zero or more")
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
    if all_winds and not rob:
        readings.append(_Reading([], False, 0))  # 全风 needs no sets
    if not readings:
        if rob and is_win(shape):
            result.reason = (f"抢杠 not allowed: the robbed {code(win_tile)} would only "
                             f"make the pair (no 暴头 or 单吊 by robbing)")
            result.reason_zh = f"不能抢杠：被抢的{tile_name(win_tile, 'zh')}只能做将"
        elif opts.baotou_required and wilds and is_win(shape):
            result.reason = "有财必暴: holding a 财神, you may only win by 暴头"
            result.reason_zh = "有财必暴：手有财神只能暴头胡"
        else:
            result.reason = "not a winning hand: it is not four sets and a pair"
            result.reason_zh = "不是胡牌：没有凑成四组牌加一对将"
        return result

    fixed: dict[str, int] = {}
    self_draw = not rob
    if win_by == "kong" or (win_by == "flower" and opts.flower_is_kong):
        if replacements > 0:
            fixed["gangkai"] = replacements
    if len(melds) == 4:
        fixed["dadiao"] = 1
    if rob:
        fixed["qianggang"] = 1
    if first_turn and self_draw:
        fixed["tianhu" if dealer else "dihu"] = 3
    if all_winds:
        fixed["quanfeng"] = 3

    base_items = _fixed_flower_items(melds, flowers, wilds)
    best = None
    for reading in readings:
        pattern_fan = {}
        if reading.baotou:
            pattern_fan["baotou"] = 1
            if piao and self_draw:
                pattern_fan["piao"] = piao
        pattern_fan.update(fixed)
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


PAY_REASONS = {
    "winner": ("胡牌", "winner"),
    "share": ("付一份", "pays one share"),
    "rob": ("被抢杠，一家付三份", "kong robbed: pays all three shares"),
    "piao": ("财飘被人胡，一家付三份", "飘 chain broken by another's win: pays three shares"),
    "contract3": ("承包：被吃碰三次，付三份",
                  "承包: the winner claimed their discards 3 times, pays 3"),
    "contract5": ("承包：吃碰胡牌者三次，付五份",
                  "承包: claimed the winner's discards 3 times, pays 5"),
    "": ("", ""),
}


def evaluate_notation(hand: str, win_tile: str, caishen: str, **kw) -> Evaluation:
    """Convenience wrapper taking notation strings (handy in docs and tests)."""
    melds = [Meld.parse(m, tile(caishen)) for m in kw.pop("melds", [])]
    flowers = parse_tiles(kw.pop("flowers", ""))
    return evaluate(parse_tiles(hand), tile(win_tile), tile(caishen), melds=melds,
                    flowers=flowers, **kw)
