"""Judging hands for the learn, calculator and embed pages (pure: no DOM, no pyscript).

Every page speaks the evaluate JSON command's request format (README "Evaluate JSON
command"), and every answer comes from :func:`sxmj.request.evaluate_request` — the one
validator, in the core — so the pages and ``python3 -m sxmj evaluate`` can never disagree.
It returns the Evaluation (the winning reading, the 花 items, the explanation lines) with
the JSON, from one evaluation.

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

from sxmj.melds import Meld
from sxmj.messages import CoreError
from sxmj.request import evaluate_request, one_tile, parse_melds
from sxmj.request import tiles_field as tiles_of
from sxmj.rules import Options, RuleError
from sxmj.scoring import InvalidHand
from sxmj.tiles import NUM_PLAYING, TileError, code, parse_tiles
from sxmj.winning import Shape, baotou_distance, distance, is_baotou_ready, waits

# The request fields a page may take from its URL, in the order the calculator shows them.
FIELDS = ("hand", "win_tile", "caishen", "melds", "flowers", "win_by", "replacements", "piao",
          "first_turn", "dealer", "base_flowers")
OPTION_FIELDS = ("flower_is_kong", "baotou_required", "fan_cap")
BOOL_FIELDS = ("first_turn", "dealer", "flower_is_kong", "baotou_required")
INT_FIELDS = ("replacements", "piao", "base_flowers", "fan_cap")

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
        ev, out = evaluate_request(request)
    except InvalidHand as e:
        return Judgement(request, error=e)
    return Judgement(request, out, ev)


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
            raise InvalidHand(name, "field.required")
    hand = tiles_of(request, "hand")
    cai = one_tile(request, "caishen")
    if cai >= NUM_PLAYING:
        raise InvalidHand("caishen", "hand.caishen_flower", tile=code(cai))
    melds = parse_melds(request.get("melds"), cai)
    for t in hand:
        if t >= NUM_PLAYING:
            raise InvalidHand("hand", "hand.flower_in_hand", tile=code(t))
    size = len(hand) + 3 * len(melds)
    if size != 13:
        raise InvalidHand("hand", "hand.size13", count=len(hand), melds=len(melds), size=size)
    seen = [0] * NUM_PLAYING
    for t in hand + [t for m in melds for t in m.tiles]:
        seen[t] += 1
        if seen[t] > 4:
            raise InvalidHand("hand", "hand.copies", limit=4, tile=code(t))
    shape = Shape.of(hand, cai)
    sets = len(hand) // 3
    found = []
    for t in waits(shape, cai, all(m.is_wind_set for m in melds)):
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
    error: RuleError | None = None  # InvalidHand, or a rule option's own RuleError


def request_from_params(params: dict[str, str], allowed: tuple[str, ...] = ()) -> Query:
    """Build a request from ``?hand=…&caishen=…`` values (strings).

    ``melds`` is a comma-separated list (``peng 222z,chi 123m``); booleans are ``1/0``,
    ``true/false``; whole numbers stay text when they don't parse, so that the evaluator
    names them. Unknown parameters (other than ``allowed``) are an error; so is a rule option
    the rules refuse, named by its own parameter (``fan_cap``), the request still whole.
    """
    request: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for name, value in params.items():
        if name in allowed:
            continue
        if name not in FIELDS and name not in OPTION_FIELDS:
            return Query(request, InvalidHand(name[:40], "field.unknown_param",
                                              known=FIELDS + OPTION_FIELDS + allowed))
        if name in BOOL_FIELDS:
            flag = _flag(value)
            if flag is None:
                return Query(request, InvalidHand(name, "field.flag", value=value))
            parsed: Any = flag
        elif name in INT_FIELDS:
            parsed = whole_number(value)
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
    for name, value in options.items():
        try:
            Options.from_dict({name: value}, field=name)
        except RuleError as e:
            return Query(request, e)
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


def whole_number(text: str) -> int | str:
    """``"12"`` → 12; anything else (``"²"``, ``"1.5"``, a 5,000-digit run) stays text,
    so the validator refuses it by name. ``str.isdigit`` would pass ``"²"`` to int()."""
    body = text.strip()
    if body and len(body) <= 9 and all("0" <= c <= "9" for c in body):
        return int(body)
    return text


# ------------------------------------------------------------------ errors in words


def error_text(err: Exception, lang: str) -> str:
    """An input error in words for people, from the core's message in ``lang``."""
    if isinstance(err, CoreError):
        return err.text(lang, label=True)
    return str(err)


def is_input_error(err: Exception) -> bool:
    return isinstance(err, CoreError)
