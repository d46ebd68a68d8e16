"""The evaluate request: JSON in, the evaluator's answer out, every field checked.

This is the contract of ``python3 -m sxmj evaluate`` and of every page that
judges a hand (README "Evaluate JSON command"). It lives in the core so the
command line, the calculator, the learn page and the embeds share one
validator; the command line only adds reading stdin and exit codes.

>>> ev, out = evaluate_request({"hand": "123m456m789m123p5p6s", "win_tile": "6s",
...                             "caishen": "5p"})
>>> out
{'win': True, 'fan': 1, 'patterns': ['baotou'], 'flowers': 1, 'share': 12}
>>> ev.groups[-1][0]
'pair'
"""

from __future__ import annotations

import json
from typing import Any

from .melds import Meld
from .messages import CoreError
from .rules import Options, RuleError
from .scoring import WIN_BY, Evaluation, InvalidHand, WinContext, evaluate, settle
from .tiles import TileError, parse_tiles

EVALUATE_FIELDS = ("hand", "win_tile", "caishen", "melds", "flowers", "win_by", "replacements",
                   "piao", "first_turn", "dealer", "base_flowers", "options", "table")
TABLE_FIELDS = ("winner", "robbed", "piao", "claims")
MAX_TEXT = 200  # no hand is written in more characters than this; longer input is refused early


MAX_DEPTH = 64  # deeper JSON is no request of ours; refused before it can exhaust the stack
# the longest record of an endless match is a few MB: anything past this is refused unread,
# before it can exhaust memory (a file of zeros, a runaway pipe)
MAX_INPUT_BYTES = 32 * 1024 * 1024


def _depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text (brackets inside strings don't count)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are distinct: a key given twice means two things."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise CoreError("input.duplicate_key", name=key[:40])
            seen.add(key)
    return out


def read_json(data: bytes | str, field: str = "input") -> Any:
    """Decode and parse JSON input; every problem is a CoreError naming ``field``.

    >>> read_json(b'[[1]]')
    [[1]]
    """
    if len(data) > MAX_INPUT_BYTES:
        raise CoreError("input.too_large", field, limit=MAX_INPUT_BYTES // (1024 * 1024))
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as e:
        raise CoreError("input.encoding", field, position=e.start) from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark, as some editors write
    if _depth(text) > MAX_DEPTH:
        raise CoreError("input.too_deep", field, limit=MAX_DEPTH)
    try:
        return json.loads(text, object_pairs_hook=_object)
    except CoreError as e:  # a key given twice
        raise e.refield(field) from None
    except json.JSONDecodeError as e:
        raise CoreError("input.not_json", field, detail=e.msg, line=e.lineno,
                        column=e.colno) from None
    except (ValueError, RecursionError):  # an integer past Python's digit limit
        raise CoreError("input.number_too_long", field) from None


def is_count(value: object) -> bool:
    """A JSON whole number ≥ 0 (``true`` and ``1.0`` are not counts)."""
    return type(value) is int and value >= 0


def is_seat(value: object) -> bool:
    """A seat 0–3, as a JSON integer (``1.0`` and ``false`` are not seats)."""
    return type(value) is int and 0 <= value <= 3


def tiles_field(request: dict[str, Any], name: str) -> list[int]:
    """A request's tile field (e.g. ``hand``), parsed; InvalidHand naming the field if not."""
    value = request.get(name)
    if not isinstance(value, str):
        raise InvalidHand(name, "tile.text", value=value)
    if len(value) > MAX_TEXT:
        raise InvalidHand(name, "field.too_long", limit=MAX_TEXT)
    try:
        return parse_tiles(value)
    except TileError as e:
        raise InvalidHand(name, e.code, **e.params) from None


def one_tile(request: dict[str, Any], name: str) -> int:
    """A field holding exactly one tile."""
    tiles = tiles_field(request, name)
    if len(tiles) != 1:
        raise InvalidHand(name, "tile.one", value=request[name])
    return tiles[0]


def parse_melds(items: object, caishen: int | None) -> list[Meld]:
    """The ``melds`` field: a list of notations like ``"peng 222z"``."""
    if items is None:
        return []
    if not isinstance(items, list):
        raise InvalidHand("melds", "meld.list", value=items)
    if len(items) > 4:
        raise InvalidHand("melds", "hand.size", count=0, melds=len(items), size=3 * len(items))
    out = []
    for text in items:
        try:
            out.append(Meld.parse(text, caishen))
        except RuleError as e:
            raise InvalidHand("melds", e.code, **e.params) from None
    return out


def request_options(item: dict[str, Any]) -> Options:
    """The rule options of a request: ``options`` with ``base_flowers`` folded in."""
    given = item.get("options")
    if given is not None and not isinstance(given, dict):
        raise InvalidHand("options", "option.object", value=given)
    data = dict(given or {})
    if "base_flowers" in item:
        data["base_flowers"] = item["base_flowers"]
    try:
        return Options.from_dict(data)
    except RuleError as e:
        name = "base_flowers" if "base_flowers" in item and e.params.get("name") in (
            None, "base_flowers") and e.code in ("option.base", "option.int") else "options"
        raise InvalidHand(name, e.code, **e.params) from None


def win_context(item: Any) -> tuple[WinContext, Options]:
    """Validate one request's hand fields; the evaluator's input and the options."""
    if not isinstance(item, dict):
        raise InvalidHand("input", "input.object", value=item)
    unknown = sorted(str(k) for k in item if k not in EVALUATE_FIELDS)
    if unknown:
        raise InvalidHand(unknown[0][:40], "field.unknown", known=EVALUATE_FIELDS)
    for name in ("hand", "win_tile", "caishen"):
        if name not in item:
            raise InvalidHand(name, "field.required")
    hand = tiles_field(item, "hand")
    win_tile = one_tile(item, "win_tile")
    caishen = one_tile(item, "caishen")
    melds = parse_melds(item.get("melds"), caishen)
    flowers = tiles_field(item, "flowers") if item.get("flowers") is not None else []
    win_by = item.get("win_by", "draw")
    if not isinstance(win_by, str) or win_by not in WIN_BY:
        raise InvalidHand("win_by", "field.win_by", value=win_by)
    options = request_options(item)
    for name in ("replacements", "piao"):
        value = item.get(name)
        if value is not None and not is_count(value):
            raise InvalidHand(name, "field.count", value=value)
    for name in ("first_turn", "dealer"):
        if not isinstance(item.get(name, False), bool):
            raise InvalidHand(name, "field.bool", value=item[name])
    ctx = WinContext.of(hand, win_tile, caishen, melds, flowers, win_by=win_by,
                        replacements=item.get("replacements"), piao=item.get("piao") or 0,
                        first_turn=item.get("first_turn", False),
                        dealer=item.get("dealer", False))
    return ctx, options


def evaluate_request(item: Any) -> tuple[Evaluation, dict[str, Any]]:
    """One evaluate request (a dict) → the Evaluation and the JSON answer.

    Raises :class:`InvalidHand` (field, code, both texts) for anything that is not a
    possible hand, including a malformed ``table``.
    """
    ctx, options = win_context(item)
    ev = evaluate(ctx, options)
    out = ev.to_json()
    table = item.get("table")
    if table is not None:
        payments = table_payments(table, ev.share, ctx.win_by, options)
        if ev.win:
            out["payments"] = payments
    return ev, out


def evaluate_json(item: Any) -> dict[str, Any]:
    """One evaluate request → its JSON answer (see :func:`evaluate_request`)."""
    return evaluate_request(item)[1]


def _seat(value: Any, name: str) -> int:
    if not is_seat(value):
        raise InvalidHand(name, "field.seat", value=value)
    return int(value)


def table_payments(table: Any, share: int, win_by: str, options: Options) -> list[int]:
    """Validate ``table`` and settle a share among the four seats (RULES §9)."""
    if not isinstance(table, dict):
        raise InvalidHand("table", "hand.table")
    unknown = sorted(str(k) for k in table if k not in TABLE_FIELDS)
    if unknown:
        raise InvalidHand("table." + unknown[0][:40], "field.unknown", known=TABLE_FIELDS)
    if "winner" not in table:
        raise InvalidHand("table.winner", "field.required")
    winner = _seat(table.get("winner"), "table.winner")
    robbed = table.get("robbed")
    if robbed is not None:
        robbed = _seat(robbed, "table.robbed")
        if robbed == winner:
            raise InvalidHand("table.robbed", "hand.robbed_self")
    if win_by == "rob" and robbed is None:
        raise InvalidHand("table.robbed", "hand.robbed_needed")
    if win_by != "rob" and robbed is not None:
        raise InvalidHand("table.robbed", "hand.robbed_only", win_by=win_by)
    piao = table.get("piao", [])
    if piao is None:
        piao = []
    if not isinstance(piao, list):
        raise InvalidHand("table.piao", "field.list", value=piao)
    seats = [_seat(s, "table.piao") for s in piao]
    for s in seats:
        if seats.count(s) > 1:
            raise InvalidHand("table.piao", "hand.piao_twice", seat=s)
    claims = table.get("claims")
    if claims is not None:
        if not (isinstance(claims, list) and len(claims) == 4 and all(
                isinstance(r, list) and len(r) == 4 and all(is_count(x) for x in r)
                for r in claims)):
            raise InvalidHand("table.claims", "hand.claims")
        for s, row in enumerate(claims):
            # nobody claims their own discard; each claim lays down one of a hand's four sets
            if row[s] or sum(row) > 4:
                raise InvalidHand("table.claims", "hand.claims_impossible", seat=s,
                                  own=row[s], total=sum(row))
    return settle(share, winner, robbed, seats, claims, options)
