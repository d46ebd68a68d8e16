"""Judging hands for the learn, calculator and embed pages (pure: no DOM, no pyscript).

Every page speaks the evaluate JSON command's request format (README "Evaluate JSON
command"), and every answer goes through :func:`sxmj.cli.evaluate_json` — its field
handling and validation — so the pages and ``python3 -m sxmj evaluate`` can never disagree.
The details the JSON leaves out (the winning reading, the 花 items, the explanation lines)
come from :func:`sxmj.scoring.evaluate` on the same, already validated, request.

A hand one tile short of a win (13 tiles, melds counting 3) is analysed instead: its waits,
whether it is 暴头-ready, and how far it is from ready (:func:`analyse`).

>>> j = judge({"hand": "123m456m789m123p5p9s", "win_tile": "5p", "caishen": "9s"})
>>> j.win, j.fan, j.share, j.evaluation.patterns
(True, 1, 12, ['baotou'])
>>> judge({"hand": "1m", "win_tile": "1m", "caishen": "8z"}).error.field
'caishen'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..cli import evaluate_json
from ..melds import Meld
from ..rules import Options, RuleError
from ..scoring import InvalidHand, evaluate, parse_melds
from ..scoring import tiles_field as tiles_of
from ..tiles import NUM_PLAYING, TileError, code, parse_tiles, tile, tile_name
from ..winning import Shape, baotou_distance, distance, is_baotou_ready, waits

# The request fields a page may take from its URL, in the order the calculator shows them.
FIELDS = ("hand", "win_tile", "caishen", "melds", "flowers", "win_by", "replacements", "piao",
          "first_turn", "dealer", "base_flowers")
OPTION_FIELDS = ("flower_is_kong", "baotou_required", "fan_cap")
BOOL_FIELDS = ("first_turn", "dealer", "flower_is_kong", "baotou_required")
INT_FIELDS = ("replacements", "piao", "base_flowers", "fan_cap")

FIELD_ZH = {
    "input": "输入", "hand": "手牌", "win_tile": "胡张", "caishen": "财神", "melds": "吃碰杠",
    "flowers": "花牌", "win_by": "胡法", "replacements": "连续补牌", "piao": "飘",
    "first_turn": "第一手", "dealer": "庄家", "base_flowers": "底花", "options": "规则选项",
    "table": "牌桌", "flower_is_kong": "花算杠", "baotou_required": "有财必暴",
    "fan_cap": "番数封顶", "mode": "模式", "name": "名字", "seed": "局号", "lang": "语言",
    "parameter": "参数",
}
FIELD_EN = {
    "input": "input", "hand": "hand", "win_tile": "winning tile", "caishen": "财神 wild tile",
    "melds": "melds", "flowers": "flowers", "win_by": "win by", "replacements": "replacements",
    "piao": "飘 count", "first_turn": "first turn", "dealer": "dealer",
    "base_flowers": "底花 base", "options": "rule options", "table": "table",
    "flower_is_kong": "flower counts as kong", "baotou_required": "有财必暴",
    "fan_cap": "番 cap", "mode": "mode", "name": "name", "seed": "seed", "lang": "language",
    "parameter": "parameter",
}


# ------------------------------------------------------------------ judging 14 tiles


@dataclass
class Judgement:
    """The evaluator's answer to one request, or the reason the request is not a hand."""

    request: dict
    out: dict = field(default_factory=dict)  # evaluate_json's answer (the JSON contract)
    evaluation: Any = None  # sxmj.scoring.Evaluation, None when invalid
    error: InvalidHand | None = None

    @property
    def win(self) -> bool:
        return bool(self.out.get("win"))

    @property
    def fan(self) -> int:
        return int(self.out.get("fan", 0))

    @property
    def share(self) -> int:
        return int(self.out.get("share", 0))


def judge(request: dict) -> Judgement:
    """Judge one evaluate request (a dict, as the JSON command takes it)."""
    try:
        out = evaluate_json(request)
    except InvalidHand as e:
        return Judgement(request, error=e)
    ev = _evaluation(request)
    # the same evaluator on the same input: the two answers are one answer
    assert ev.to_json() == {k: v for k, v in out.items() if k != "payments"}, (ev, out)
    return Judgement(request, out, ev)


def _evaluation(request: dict):
    caishen = tile(request["caishen"])
    options = dict(request.get("options") or {})
    if "base_flowers" in request:
        options["base_flowers"] = request["base_flowers"]
    return evaluate(
        parse_tiles(request["hand"]), tile(request["win_tile"]), caishen,
        parse_melds(request.get("melds"), caishen),
        parse_tiles(request["flowers"]) if request.get("flowers") else [],
        request.get("win_by", "draw"), request.get("replacements"), request.get("piao", 0),
        request.get("first_turn", False), request.get("dealer", False),
        Options.from_dict(options))


# ------------------------------------------------------------------ analysing 13 tiles


@dataclass
class Wait:
    tile: int
    judgement: Judgement  # the hand with this tile drawn, as a self-draw win


@dataclass
class Analysis:
    """A hand one tile short of a win: what it waits on and how far it is from ready."""

    request: dict
    hand: list[int]
    caishen: int
    melds: list[Meld]
    waits: list[Wait]
    baotou_ready: bool
    distance: int  # draws still needed before the hand is ready (0: ready)
    baotou_distance: int  # draws until 暴头-ready (99: no 财神 in hand)

    @property
    def ready(self) -> bool:
        return bool(self.waits)


def tile_count(request: dict) -> int | None:
    """Tiles the request's hand and melds add up to (kongs count 3), None if unreadable."""
    try:
        hand = parse_tiles(request.get("hand", ""))
        melds = request.get("melds") or []
        return len(hand) + 3 * len(melds)
    except (TileError, TypeError):
        return None


def analyse(request: dict) -> Analysis:
    """Waits, 暴头-ready and distance to ready of a 13-tile hand; raises InvalidHand."""
    for name in ("hand", "caishen"):
        if not request.get(name):
            raise InvalidHand(name, "is required")
    hand = tiles_of(request, "hand")
    caishen = tiles_of(request, "caishen")
    if len(caishen) != 1:
        raise InvalidHand("caishen", f"expected one tile, got {request['caishen']!r}")
    cai = caishen[0]
    if cai >= NUM_PLAYING:
        raise InvalidHand("caishen", f"{code(cai)} is a flower tile; the 财神 is always a "
                                     f"suited tile or a wind")
    melds = parse_melds(request.get("melds"), cai)
    for t in hand:
        if t >= NUM_PLAYING:
            raise InvalidHand("hand", f"{code(t)} is a flower tile and is laid open, never "
                                      f"kept in a hand")
    size = len(hand) + 3 * len(melds)
    if size != 13:
        raise InvalidHand("hand", f"{len(hand)} tiles in hand and {len(melds)} melds make "
                                  f"{size}, a hand waiting for its last tile has 13 "
                                  f"(kongs count 3)")
    seen = [0] * NUM_PLAYING
    for t in hand + [t for m in melds for t in m.tiles]:
        seen[t] += 1
        if seen[t] > 4:
            raise InvalidHand("hand", f"more than 4 copies of {code(t)}")
    shape = Shape.of(hand, cai)
    sets = len(hand) // 3
    found = []
    for t in waits(shape, cai):
        if seen[t] >= 4:
            continue  # every copy is already in this hand: it can't be drawn
        j = judge({**_without(request, "win_tile"), "hand": request["hand"] + code(t),
                   "win_tile": code(t)})
        if j.win:
            found.append(Wait(t, j))
    return Analysis(request, hand, cai, melds, found, is_baotou_ready(shape),
                    distance(shape, sets), baotou_distance(shape, sets))


def _without(request: dict, *names: str) -> dict:
    return {k: v for k, v in request.items() if k not in names}


# ------------------------------------------------------------------ URL parameters


@dataclass
class Query:
    """An evaluate request read from URL parameters (calc.html, embed.html)."""

    request: dict
    error: InvalidHand | None = None


def request_from_params(params: dict[str, str], allowed: tuple[str, ...] = ()) -> Query:
    """Build a request from ``?hand=…&caishen=…`` values (strings).

    ``melds`` is a comma-separated list (``peng 222z,chi 123m``); booleans are ``1/0``,
    ``true/false``; whole numbers stay text when they don't parse, so that the evaluator
    names them. Unknown parameters (other than ``allowed``) are an error.
    """
    request: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for name, value in params.items():
        if name in allowed:
            continue
        if name not in FIELDS and name not in OPTION_FIELDS:
            known = ", ".join(FIELDS + OPTION_FIELDS + allowed)
            return Query(request, InvalidHand(name, f"unknown parameter (known: {known})"))
        if name in BOOL_FIELDS:
            flag = _flag(value)
            if flag is None:
                return Query(request, InvalidHand(name, f"must be 1 or 0 (true or false), "
                                                        f"got {value!r}"))
            parsed: Any = flag
        elif name in INT_FIELDS:
            parsed = int(value) if value.strip().isdigit() else value
        elif name == "melds":
            parsed = split_melds(value)
        else:
            parsed = value.strip()
        (options if name in OPTION_FIELDS else request)[name] = parsed
    if options:
        request["options"] = options
    if request.get("hand") and not request.get("win_tile"):
        last = last_tile(request["hand"])
        if last:
            request["win_tile"] = last
    return Query(request)


def split_melds(text: str) -> list[str]:
    """``"peng 222z, chi 123m"`` → ``["peng 222z", "chi 123m"]`` (commas, semicolons, lines)."""
    return [" ".join(part.split()) for part in re.split(r"[,;\n]+", text) if part.strip()]


def last_tile(hand: str) -> str:
    """The code of the last tile written in ``hand`` ('' when it does not parse)."""
    try:
        tiles = parse_tiles(hand)
    except TileError:
        return ""
    return code(tiles[-1]) if tiles else ""


def _flag(value: str) -> bool | None:
    v = value.strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("0", "false", "no", "off"):
        return False
    return None


def params_of(request: dict) -> list[tuple[str, str]]:
    """The inverse of :func:`request_from_params`: URL parameters for a request."""
    out = []
    options = request.get("options") or {}
    for name in FIELDS + OPTION_FIELDS:
        value = options.get(name) if name in OPTION_FIELDS else request.get(name)
        if value is None or value == "" or value == []:
            continue
        if name == "melds":
            value = ",".join(value)
        elif isinstance(value, bool):
            value = "1" if value else "0"
        out.append((name, str(value)))
    return out


# ------------------------------------------------------------------ errors in words


_TILE = r"([1-9][mpszf])"
# (pattern of the evaluator's English message, its Chinese); {t} is the tile with its name
_ZH = [
    (rf"^{_TILE} is a flower tile and is laid open, never kept in a hand$",
     "{t}是花牌，要亮出来补花，不能留在手里"),
    (rf"^{_TILE} is a flower tile; the 财神 is always a suited tile or a wind$",
     "{t}是花牌；财神只能是数牌或风牌"),
    (rf"^{_TILE} is a flower tile$", "{t}是花牌，不能是胡张"),
    (rf"^{_TILE} is not a flower tile$", "{t}不是花牌（花牌是中发白和春夏秋冬梅兰竹菊）"),
    (rf"^{_TILE} is not in the hand", "胡张{t}不在手牌里"),
    (rf"^more than (\d) copies of {_TILE}$", "{t}超过了 {n} 张"),
    (rf"^{_TILE} is the 财神 and can't be used to chi, peng or kong", "{t}是财神，不能用来吃碰杠"),
    (rf"^{_TILE} is a flower tile and can't be in a meld", "{t}是花牌，不能吃碰杠"),
    (r"^(\d+) tiles in hand and (\d+) melds make (\d+), a winning hand has 14",
     "手牌 {a} 张加 {b} 组吃碰杠共 {c} 张；胡牌要 14 张（杠算 3 张）"),
    (r"^(\d+) tiles in hand and (\d+) melds make (\d+), a hand waiting for its last tile has 13",
     "手牌 {a} 张加 {b} 组吃碰杠共 {c} 张；听牌要 13 张（杠算 3 张）"),
    (r"^unknown tile ([0-9][a-z]) in", "没有 {x} 这张牌（万 1m–9m、筒 1p–9p、索 1s–9s、"
                                       "风 1z–4z、中发白 5z–7z、花 1f–8f）"),
    (r"^unknown tile letter '(.)' in", "不认识的字母 {x}（花色写 m p s z f）"),
    (r"^suit letter '(.)' without digits in", "花色字母 {x} 前面缺少数字"),
    (r"^digits '(\d+)' without a suit letter in", "数字 {x} 后面缺少花色字母（m p s z f）"),
    (r"^is required$", "必须填写"),
    (r"^expected one tile", "只能填一张牌"),
    (r"^chi needs three consecutive tiles of one suit", "吃要同一花色连续的三张"),
    (r"^unknown meld kind '([^']*)'", "不认识的吃碰杠类型 {x}（chi、peng、minggang、angang、"
                                      "jiagang）"),
    (r"^a meld is written like", "吃碰杠的写法如 peng 222z"),
    (r"^(chi|peng|minggang|angang|jiagang) takes (\d) tiles, got (\d+)",
     "{a} 要 {b} 张牌，这里是 {c} 张"),
    (r"^(peng|minggang|angang|jiagang) needs (\d) equal tiles", "{a} 要 {b} 张相同的牌"),
    (r"^unknown win_by '([^']*)'",
     "不认识的胡法 {x}（draw 自摸、kong 杠开、flower 补花、rob 抢杠）"),
    (r"^must be a whole number ≥ 0", "要填 0 或更大的整数"),
    (r"^must be zero or more", "要填 0 或更大的整数"),
    (r"^must be true or false", "只能是是或否"),
    (r"^must be 1 or 0", "只能是 1 或 0"),
    (r"base_flowers must be one of", "底花只能是 5、10、15、20 或 25"),
    (r"fan_cap must be", "番数封顶要在 0 到 10 之间"),
    (r"^unknown parameter", "不认识的参数"),
    (r"^expected tiles written like", "要用牌的写法，如 123m55z"),
]


def error_text(err: Exception, lang: str) -> str:
    """An input error in words for people: the field, then what is wrong, naming the tile."""
    name = getattr(err, "field", "input")
    message = str(err)
    if message.startswith(f"{name}: "):
        message = message[len(name) + 2:]
    base = name.split(".")[-1].lstrip("[0123456789]")
    if lang != "zh":
        return f"{FIELD_EN.get(base, name)}: {message}"
    return f"{FIELD_ZH.get(base, name)}：{error_zh(message)}"


def error_zh(message: str) -> str:
    """The Chinese of one of the evaluator's messages (the English one when unknown)."""
    for pattern, zh in _ZH:
        m = re.search(pattern, message)
        if not m:
            continue
        groups = m.groups()
        values: dict[str, str] = {}
        tiles = [g for g in groups if re.fullmatch(_TILE, g or "")]
        if tiles:
            t = tiles[0]
            values["t"] = f"{t}（{_tile_zh(t)}）"
        numbers = [g for g in groups if g and g.isdigit()]
        if numbers:
            values["n"] = numbers[0]
        if groups:
            values["x"] = groups[0]
            for key, g in zip("abc", groups, strict=False):
                values[key] = g
        return zh.format(**values)
    return message


def _tile_zh(text: str) -> str:
    try:
        return tile_name(tile(text), "zh")
    except (TileError, ValueError):
        return text


def is_input_error(err: Exception) -> bool:
    return isinstance(err, (InvalidHand, RuleError, TileError))
