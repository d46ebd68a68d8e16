"""Game records: JSON that replays a match exactly.

A record holds the format version, the rule options, the seed (or the
explicit first wall) and every action. Replaying it rebuilds every state,
in CPython and in Pyodide alike, because all chance comes from the seed.

Format (version 1)::

    {"format": "sxmj-record", "version": 1,
     "options": {...rule options...}, "seed": 42,
     "dealer": 0,                      # optional: fixed first dealer
     "wall": {"tiles": "...143 tiles head first...", "indicator": "5m",
              "dice": [3, 4]},         # optional: explicit first wall
     "walls": [null, {"tiles": ..., "indicator": ..., "dice": ...}, ...],
                                       # optional: hand i's explicit wall (null: the
                                       # seed's; entry 0 is always null, see "wall")
     "hands": [["0 discard 5m", "1 pass", ...], ...],
     "results": [{"winner": 2, "payments": [-10, -10, 30, -10]}, ...]}

``results`` is written for readers and checked on replay; a record may leave
it out (a reader that keeps only the actions loses nothing), but a ``results``
that is present must match the replay entry for entry.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .game import Action
from .match import Match
from .messages import CoreError
from .request import is_seat, read_json
from .rules import Options, RuleError
from .tiles import code, format_tiles
from .wall import Wall

FORMAT = "sxmj-record"
VERSION = 1


class RecordError(CoreError):
    """A record that can't be replayed; ``field`` and the text say what is wrong."""

    def __init__(self, code: str, field: str = "record", **params: Any):
        super().__init__(code, field, **params)


def to_record(match: Match) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": FORMAT, "version": VERSION,
                           "options": match.options.to_dict(), "seed": match.seed}
    if match.first_dealer_fixed is not None:
        rec["dealer"] = match.first_dealer_fixed
    if match.first_wall is not None:
        rec["wall"] = _wall_json(match.first_wall)
    if match.walls:
        rec["walls"] = [None if i not in match.walls else _wall_json(match.walls[i])
                        for i in range(len(match.hand_actions))]
    rec["hands"] = [[str(a) for a in actions] for actions in match.hand_actions]
    rec["results"] = [{"winner": r.winner, "payments": list(r.payments)}
                      for r in match.results]
    return rec


def _wall_json(w: Wall) -> dict[str, Any]:
    return {"tiles": format_tiles(w.tiles), "indicator": code(w.indicator), "dice": list(w.dice)}


def _wall_of(spec: Any, field: str) -> Wall:
    if not isinstance(spec, dict):
        raise RecordError("wall.object", field)
    dice = spec.get("dice", [1, 1])
    if not isinstance(dice, list):
        raise RecordError("wall.dice", field, value=dice)
    tiles, indicator = spec.get("tiles", ""), spec.get("indicator", "")
    # the tiles as written ("123m…"), or tile indices; anything else is no wall
    if not isinstance(tiles, (str, list)):
        raise RecordError("tile.text", f"{field}.tiles", value=tiles)
    if not isinstance(indicator, (str, int)) or isinstance(indicator, bool):
        raise RecordError("tile.one", f"{field}.indicator", value=indicator)
    try:
        return Wall.from_tiles(tiles, indicator,
                               (dice[0], dice[1]) if len(dice) == 2 else (0, 0))
    except CoreError as e:
        raise RecordError(e.code, field, **e.params) from None


def dumps(match: Match) -> str:
    return json.dumps(to_record(match), ensure_ascii=False, separators=(",", ":"))


def replay(record: dict[str, Any] | str, upto: int | None = None,
           visit: Callable[[int, int, Match, Action], None] | None = None) -> Match:
    """Rebuild the match a record describes; ``upto`` stops after that many actions.

    ``visit(hand, index, match, action)`` sees the match just before each action is
    applied (the hand review walks a record this way).

    Raises :class:`RecordError` naming the field and saying what is wrong.
    ``results`` may be left out (readers may drop it); when present it must
    give exactly one ``{"winner", "payments"}`` per finished hand, as replayed.
    """
    if isinstance(record, str):
        try:
            record = read_json(record, "record")
        except CoreError as e:
            raise RecordError(e.code, e.field, **e.params) from None
    if not isinstance(record, dict):
        raise RecordError("input.object", value=record)
    if record.get("format") != FORMAT:
        raise RecordError("record.format", "format", want=FORMAT, value=record.get("format"))
    if record.get("version") != VERSION or type(record.get("version")) is not int:
        raise RecordError("record.version", "version", value=record.get("version"),
                          want=VERSION)
    try:
        options = Options.from_dict(record.get("options"))
    except RuleError as e:
        raise RecordError(e.code, e.field, **e.params) from None
    seed = record.get("seed", 0)
    if type(seed) is not int or not -2**63 <= seed < 2**64:
        raise RecordError("record.seed", "seed", value=seed)
    dealer = record.get("dealer")
    if dealer is not None and not is_seat(dealer):
        raise RecordError("field.seat", "dealer", value=dealer)
    wall = None
    if record.get("wall") is not None:
        wall = _wall_of(record["wall"], "wall")
    hands = record.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("record.hands", "hands")
    walls = record.get("walls", [])
    if not isinstance(walls, list) or len(walls) > len(hands) or (walls and walls[0] is not None):
        raise RecordError("record.walls", "walls", value=_short(walls))
    match = Match(seed, options, wall, dealer)
    return _play(record, match, 0, upto, visit)


def extend(match: Match, record: dict[str, Any]) -> Match:
    """Play onto ``match`` the hands of ``record`` it doesn't hold yet, and return it.

    ``match`` is this record's match replayed up to the end of its last finished hand (from
    an earlier, shorter record of the same match): a record that grew by a hand costs that
    hand, not all of them again (a guest's table grows this way, hand by hand). Raises
    :class:`RecordError` as :func:`replay` does, leaving ``match`` part-played then.

    >>> def play_hand(m):
    ...     while not m.game.over:
    ...         _ = m.apply(m.game.legal_actions(m.game.to_move()[0])[0])
    >>> m = Match(seed=5)
    >>> play_hand(m)
    >>> first = replay(to_record(m))  # the record of hand 1, replayed
    >>> _ = m.next_hand(); play_hand(m)
    >>> grown = extend(first, to_record(m))  # hand 2 played onto it
    >>> (grown is first, len(grown.results), grown.scores == m.scores)
    (True, 2, True)
    """
    hands = record.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("record.hands", "hands")
    return _play(record, match, len(match.results), None, None)


def _play(record: dict[str, Any], match: Match, start: int, upto: int | None,
          visit: Callable[[int, int, Match, Action], None] | None) -> Match:
    """Play the record's hands from hand ``start`` onto ``match`` (see :func:`replay`)."""
    hands, walls = record["hands"], record.get("walls", [])
    done = 0
    for i in range(start, len(hands)):
        if i > 0:  # (from ``start``, the match holds hands 0 to start-1, the last over)
            if not match.game.over:
                raise RecordError("record.early", "hands", hand=i, previous=i - 1)
            spec = walls[i] if i < len(walls) else None
            match.next_hand(None if spec is None else _wall_of(spec, f"walls[{i}]"))
        for j, text in enumerate(hands[i]):
            if upto is not None and done >= upto:
                return match
            try:
                action = Action.parse(text)
                if visit is not None:
                    visit(i, j, match, action)
                match.apply(action)
            except CoreError as e:
                raise RecordError("record.action", "hands", hand=i, index=j,
                                  text=str(text)[:40], why=e) from None
            done += 1
    if "results" in record:
        _check_results(record["results"], match)
    return match


def _check_results(expected: Any, match: Match) -> None:
    if not isinstance(expected, list) or not all(
            isinstance(r, dict) and set(r) == {"winner", "payments"} for r in expected):
        raise RecordError("record.results", "results", value=expected)
    if len(expected) != len(match.results):
        raise RecordError("record.results_count", "results", want=len(expected),
                          have=len(match.results))
    for i, want in enumerate(expected):
        got = match.results[i]
        if want["winner"] != got.winner or type(want["winner"]) not in (int, type(None)) \
                or want["payments"] != got.payments \
                or not all(type(p) is int for p in want["payments"]):
            raise RecordError("record.result", "results", hand=i, want=_short(want),
                              winner=got.winner, payments=got.payments)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:80] + "…"
