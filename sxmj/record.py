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
     "hands": [["0 discard 5m", "1 pass", ...], ...],
     "results": [{"winner": 2, "payments": [-10, -10, 30, -10]}, ...]}

``results`` is written for readers and checked on replay.
"""

from __future__ import annotations

import json
from typing import Any

from .game import Action, IllegalAction
from .match import Match
from .rules import Options, RuleError
from .tiles import code, format_tiles
from .wall import Wall, WallError

FORMAT = "sxmj-record"
VERSION = 1


class RecordError(ValueError):
    """A record that can't be replayed; the message says what is wrong."""


def to_record(match: Match) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": FORMAT, "version": VERSION,
                           "options": match.options.to_dict(), "seed": match.seed}
    if match.first_dealer_fixed is not None:
        rec["dealer"] = match.first_dealer_fixed
    if match.first_wall is not None:
        w = match.first_wall
        rec["wall"] = {"tiles": format_tiles(w.tiles), "indicator": code(w.indicator),
                       "dice": list(w.dice)}
    rec["hands"] = [[str(a) for a in actions] for actions in match.hand_actions]
    rec["results"] = [{"winner": r.winner, "payments": list(r.payments)}
                      for r in match.results]
    return rec


def dumps(match: Match) -> str:
    return json.dumps(to_record(match), ensure_ascii=False, separators=(",", ":"))


def replay(record: dict[str, Any] | str, upto: int | None = None) -> Match:
    """Rebuild the match a record describes; ``upto`` stops after that many actions.

    Raises :class:`RecordError` with one line saying what is wrong.
    """
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {record.get('format')!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r} "
                          f"(this build reads version {VERSION})")
    try:
        options = Options.from_dict(record.get("options"))
    except RuleError as e:
        raise RecordError(str(e)) from None
    seed = record.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"seed must be an integer, got {seed!r}")
    dealer = record.get("dealer")
    if dealer is not None and dealer not in (0, 1, 2, 3):
        raise RecordError(f"dealer must be a seat 0–3, got {dealer!r}")
    wall = None
    if record.get("wall") is not None:
        spec = record["wall"]
        if not isinstance(spec, dict):
            raise RecordError("wall must be an object with tiles, indicator and dice")
        try:
            dice = tuple(spec.get("dice", (1, 1)))
            wall = Wall.from_tiles(spec.get("tiles", ""), spec.get("indicator", ""),
                                   dice)  # type: ignore[arg-type]
        except (WallError, TypeError) as e:
            raise RecordError(str(e)) from None
    hands = record.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("hands must be a list of action lists")
    match = Match(seed, options, wall, dealer)
    done = 0
    for i, actions in enumerate(hands):
        if i > 0:
            if not match.game.over:
                raise RecordError(f"hand {i}: starts before hand {i - 1} ended")
            match.next_hand()
        for j, text in enumerate(actions):
            if upto is not None and done >= upto:
                return match
            try:
                match.apply(Action.parse(text) if isinstance(text, str) else text)
            except (ValueError, IllegalAction) as e:
                raise RecordError(f"hand {i} action {j} ({text!r}): {e}") from None
            done += 1
    expected = record.get("results")
    if isinstance(expected, list):
        for i, want in enumerate(expected):
            if i >= len(match.results):
                raise RecordError(f"hand {i}: the record says it ended, but it did not")
            got = match.results[i]
            if not isinstance(want, dict) or want.get("winner") != got.winner \
                    or want.get("payments") != got.payments:
                raise RecordError(f"hand {i}: the record says {want!r}, replay gives "
                                  f"winner {got.winner} payments {got.payments}")
    return match
