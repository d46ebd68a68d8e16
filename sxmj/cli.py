"""The command line: ``python3 -m sxmj {evaluate,simulate,replay,tournament}``.

This is the only module of the core that reads files, writes to the
terminal or looks at a clock.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from .bots import LEVELS, Bot
from .game import Game
from .match import Match
from .record import RecordError, replay
from .rules import Options, RuleError
from .scoring import WIN_BY, InvalidHand, evaluate, parse_melds, settle, tiles_field
from .simulate import Checker, play_hand, play_match_hand
from .wall import Rng, Wall

EVALUATE_FIELDS = {"hand", "win_tile", "caishen", "melds", "flowers", "win_by", "replacements",
                   "piao", "first_turn", "dealer", "base_flowers", "options", "table"}


# ---------------------------------------------------------------- evaluate

def evaluate_json(item: Any) -> dict:
    """One evaluate request (a dict) → one response dict; raises InvalidHand."""
    if not isinstance(item, dict):
        raise InvalidHand("input", f"expected a JSON object, got {json.dumps(item)[:60]}")
    unknown = set(item) - EVALUATE_FIELDS
    if unknown:
        raise InvalidHand(sorted(unknown)[0], "unknown field "
                          f"(known: {', '.join(sorted(EVALUATE_FIELDS))})")
    for name in ("hand", "win_tile", "caishen"):
        if name not in item:
            raise InvalidHand(name, "is required")
    hand = tiles_field(item, "hand")
    win_tile = _one_tile(item, "win_tile")
    caishen = _one_tile(item, "caishen")
    melds = parse_melds(item.get("melds"), caishen)
    flowers = tiles_field(item, "flowers") if item.get("flowers") else []
    win_by = item.get("win_by", "draw")
    if win_by not in WIN_BY:
        raise InvalidHand("win_by", f"unknown win_by {win_by!r} (use {', '.join(WIN_BY)})")
    options_in = dict(item.get("options") or {}) if isinstance(item.get("options", {}), dict) \
        else item.get("options")
    if "base_flowers" in item:
        if not isinstance(options_in, dict):
            raise InvalidHand("options", "expected an object of rule options")
        options_in["base_flowers"] = item["base_flowers"]
    try:
        options = Options.from_dict(options_in)
    except RuleError as e:
        raise InvalidHand("base_flowers" if "base_flowers" in str(e) and "base_flowers" in item
                          else "options", str(e).split(": ", 1)[1]) from None
    replacements = item.get("replacements")
    piao = item.get("piao", 0)
    for name, value in (("replacements", replacements), ("piao", piao)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or value < 0):
            raise InvalidHand(name, f"must be a whole number ≥ 0, got {value!r}")
    for name in ("first_turn", "dealer"):
        if not isinstance(item.get(name, False), bool):
            raise InvalidHand(name, f"must be true or false, got {item[name]!r}")
    ev = evaluate(hand, win_tile, caishen, melds, flowers, win_by, replacements, piao,
                  item.get("first_turn", False), item.get("dealer", False), options)
    out = ev.to_json()
    table = item.get("table")
    if table is not None and ev.win:
        out["payments"] = _table_payments(table, ev.share, win_by, options)
    elif table is not None:
        _table_payments(table, 0, win_by, options)  # still validate it
    return out


def _one_tile(item: dict, name: str) -> int:
    tiles = tiles_field(item, name)
    if len(tiles) != 1:
        raise InvalidHand(name, f"expected one tile, got {item[name]!r}")
    return tiles[0]


def _seat(value: Any, name: str) -> int:
    if value not in (0, 1, 2, 3) or isinstance(value, bool):
        raise InvalidHand(name, f"must be a seat 0–3, got {value!r}")
    return value


def _table_payments(table: Any, share: int, win_by: str, options: Options) -> list[int]:
    if not isinstance(table, dict):
        raise InvalidHand("table", "expected an object with winner, robbed, piao, claims")
    winner = _seat(table.get("winner"), "table.winner")
    robbed = table.get("robbed")
    if robbed is not None:
        robbed = _seat(robbed, "table.robbed")
        if robbed == winner:
            raise InvalidHand("table.robbed", "the winner can't rob their own kong")
    if win_by == "rob" and robbed is None:
        raise InvalidHand("table.robbed", "a 抢杠 win needs the robbed seat")
    if win_by != "rob" and robbed is not None:
        raise InvalidHand("table.robbed", f"only a rob win has a robbed seat (win_by {win_by})")
    piao = table.get("piao", [])
    if not isinstance(piao, list):
        raise InvalidHand("table.piao", f"expected a list of seats, got {piao!r}")
    piao = [_seat(s, "table.piao") for s in piao]
    claims = table.get("claims")
    if claims is not None:
        if not (isinstance(claims, list) and len(claims) == 4 and all(
                isinstance(r, list) and len(r) == 4 and all(
                    isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in r)
                for r in claims)):
            raise InvalidHand("table.claims", "expected a 4×4 matrix of counts ≥ 0")
    return settle(share, winner, robbed, piao, claims, options)


def cmd_evaluate(args: argparse.Namespace) -> int:
    raw = sys.stdin.read()
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        print(f"input: not JSON: {e.msg} at line {e.lineno} column {e.colno}", file=sys.stderr)
        return 2
    try:
        if isinstance(data, list):
            out: Any = []
            for i, item in enumerate(data):
                try:
                    out.append(evaluate_json(item))
                except InvalidHand as e:
                    raise InvalidHand(f"[{i}].{e.field}", str(e).split(": ", 1)[1]) from None
        else:
            out = evaluate_json(data)
    except InvalidHand as e:
        print(str(e), file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return 0


# ---------------------------------------------------------------- simulate

def _levels(text: str, name: str = "--bots") -> list[str]:
    levels = [x.strip() for x in text.split(",")]
    if len(levels) == 1:
        levels *= 4
    if len(levels) != 4 or any(lv not in LEVELS for lv in levels):
        raise SystemExit(f"{name}: give one level or four, from {', '.join(LEVELS)}: {text!r}")
    return levels


def cmd_simulate(args: argparse.Namespace) -> int:
    levels = _levels(args.bots)
    bots = [Bot(lv, seed=args.seed * 4 + i) for i, lv in enumerate(levels)]
    match = Match(seed=args.seed, options=Options(base_flowers=args.base))
    checker = Checker()
    start = time.perf_counter()
    wins = 0
    for i in range(args.hands):
        if i:
            match.next_hand()
        dealer = match.dealer
        result = play_match_hand(match, bots, checker)
        wins += result.winner is not None
        line = {"hand": i, "dealer": dealer, "winner": result.winner,
                "win_by": result.win_by or None, "patterns": result.patterns,
                "fan": result.evaluation.fan if result.evaluation else 0,
                "share": result.evaluation.share if result.evaluation else 0,
                "payments": result.payments, "scores": list(match.scores)}
        if args.json:
            print(json.dumps(line, ensure_ascii=False))
    elapsed = time.perf_counter() - start
    summary = {"summary": True, "hands": args.hands,
               "hands_per_s": round(args.hands / elapsed, 1) if elapsed else None,
               "violations": len(checker.violations)}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{args.hands} hands, {wins} won, {args.hands - wins} drawn (臭庄); "
              f"scores {match.scores}; {summary['hands_per_s']} hands/s; "
              f"{len(checker.violations)} violations")
    for v in checker.violations[:10]:
        print("violation:", v, file=sys.stderr)
    return 1 if checker.violations else 0


# ---------------------------------------------------------------- replay

def cmd_replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"{args.file}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        match = replay(text)
    except RecordError as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 2
    for i, r in enumerate(match.results):
        what = (f"seat {r.winner} wins ({', '.join(r.patterns) or 'plain'})"
                if r.winner is not None else "drawn (臭庄)")
        print(f"hand {i}: {what}; payments {r.payments}")
    print(f"scores {match.scores}")
    return 0


# ---------------------------------------------------------------- tournament

def _plain_bot(level: str, seed: int, game: Game) -> Bot:
    return Bot(level, seed=seed)


def tournament(hands: int, seed: int, seats: list[str], timer=time.perf_counter,
               make_bot: Callable[[str, int, Game], Bot] | None = None) -> dict:
    """Duplicate format: every wall is played once per rotation of the seats.

    ``make_bot(level, seed, game)`` builds each seat's bot (default ``Bot(level, seed)``);
    bench/ceiling.py passes one that may look at the game it plays.
    """
    rng = Rng(seed)
    per_wall: dict[str, list[float]] = {lv: [] for lv in set(seats)}
    wins = {lv: 0 for lv in set(seats)}
    seat_games = {lv: 0 for lv in set(seats)}
    times: dict[str, list[float]] = {lv: [] for lv in set(seats)}
    for h in range(hands):
        wall_rng = rng.fork(h + 1)
        wall = Wall.shuffled(wall_rng)
        totals = {lv: 0.0 for lv in set(seats)}
        counts = {lv: 0 for lv in set(seats)}
        for rot in range(4):
            levels = [seats[(s - rot) % 4] for s in range(4)]
            game = Game(wall.undealt(), dealer=0)
            build = make_bot or _plain_bot
            bots = [build(lv, seed * 1000003 + h * 4 + s, game) for s, lv in enumerate(levels)]
            seat_times: dict[int, list[float]] = {}
            result = play_hand(game, bots, timer=timer, times=seat_times)
            for s, lv in enumerate(levels):
                totals[lv] += result.payments[s]
                counts[lv] += 1
                seat_games[lv] += 1
                wins[lv] += result.winner == s
                times[lv].extend(seat_times.get(s, []))
        for lv in totals:
            per_wall[lv].append(totals[lv] / counts[lv])
    out = {}
    for lv, values in sorted(per_wall.items()):
        n = len(values)
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n) if n else 0.0
        ts = sorted(times[lv])
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))] * 1000 if ts else 0.0
        out[lv] = {"mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
                   "win_rate": round(wins[lv] / seat_games[lv], 4),
                   "mean_ms": round(sum(ts) / len(ts) * 1000, 3) if ts else 0.0,
                   "p95_ms": round(p95, 3)}
    return out


def cmd_tournament(args: argparse.Namespace) -> int:
    seats = _levels(args.seats, "--seats")
    levels = tournament(args.hands, args.seed, seats)
    if not args.json:
        print(f"{args.hands} walls × 4 seat rotations, seats {','.join(seats)}")
        for lv, r in levels.items():
            print(f"{lv:>6}: mean {r['mean']:+.2f} points/hand "
                  f"(95% CI {r['ci95'][0]:+.2f} … {r['ci95'][1]:+.2f}), "
                  f"win rate {r['win_rate']:.1%}, decision mean {r['mean_ms']:.2f} ms, "
                  f"p95 {r['p95_ms']:.2f} ms")
    else:
        print(json.dumps({"levels": levels}))
    return 0


# ---------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m sxmj",
                                     description="Shaoxing mahjong (绍兴麻将) rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("evaluate", help="judge hands given as JSON on stdin")
    p.set_defaults(func=cmd_evaluate)
    p = sub.add_parser("simulate", help="play hands of a match with bots")
    p.add_argument("--hands", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="normal", help="one level or four, e.g. hard,normal,easy,easy")
    p.add_argument("--base", type=int, default=5, help="底花 (5, 10, 15, 20 or 25)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("replay", help="check a game record and print its result")
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("tournament", help="duplicate tournament between bot levels")
    p.add_argument("--hands", type=int, default=100, help="walls; each is played 4 times")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seats", default="hard,normal,normal,normal")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_tournament)
    args = parser.parse_args(argv)
    return args.func(args)
