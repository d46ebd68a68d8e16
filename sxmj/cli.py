"""The command line: ``python3 -m sxmj {evaluate,simulate,replay,review,tournament,daily}``.

A thin shell over the core (argparse, I/O and exit codes), not part of it: the
core does no I/O and reads no clock; this module reads files and stdin, writes
to the terminal and times the benchmarks' runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from . import daily
from .bots import LEVELS, Bot
from .bots import daily as daily_players
from .bots.review import SAMPLES as REVIEW_SAMPLES
from .bots.review import review
from .match import Match
from .messages import CoreError
from .record import replay
from .request import MAX_INPUT_BYTES, evaluate_json, read_json
from .rules import BASE_FLOWERS, Options
from .simulate import Checker, WallResult, play_match_hand, summarize, tournament, tournament_wall


def _say(text: str, stream: Any) -> None:
    """Write a line even when it carries odd Unicode (a lone surrogate) the locale can't encode."""
    data = (text + "\n").encode("utf-8", "backslashreplace")
    if stream is None:  # started with the stream closed (… >&-): as if its reader left
        raise BrokenPipeError("the output stream is closed")
    if hasattr(stream, "buffer"):
        stream.flush()
        stream.buffer.write(data)
    else:  # a StringIO in tests
        stream.write(data.decode("utf-8"))
    stream.flush()


def _fail(err: CoreError, lang: str) -> int:
    try:
        _say(err.text(lang), sys.stderr)
    except OSError:  # no one reads the errors (2>&-): the status still tells
        pass
    return 2


def cmd_evaluate(args: argparse.Namespace) -> int:
    try:
        try:
            # one byte past the limit is enough for read_json to refuse it
            data = read_json(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1))
        except (AttributeError, OSError) as e:  # stdin closed (<&-) or unreadable
            raise CoreError("input.unreadable", "input",
                            detail=getattr(e, "strerror", None) or "stdin is closed") from None
        if isinstance(data, list):
            out: Any = []
            for i, item in enumerate(data):
                try:
                    out.append(evaluate_json(item))
                except CoreError as e:
                    raise e.refield(f"[{i}].{e.field}") from None
        else:
            out = evaluate_json(data)
    except CoreError as e:
        return _fail(e, args.lang)
    _say(json.dumps(out, ensure_ascii=False), sys.stdout)
    return 0


# ---------------------------------------------------------------- simulate

def _levels(text: str) -> list[str]:
    """An argparse type: one bot level for every seat, or four, comma-separated."""
    levels = [x.strip() for x in text.split(",")]
    if len(levels) == 1:
        levels *= 4
    if len(levels) != 4 or any(lv not in LEVELS for lv in levels):
        raise _refusal("arg.levels", known=LEVELS, value=text[:60])
    return levels


def cmd_simulate(args: argparse.Namespace) -> int:
    bots = [Bot(lv, seed=args.seed * 4 + i) for i, lv in enumerate(args.bots)]
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
            _say(json.dumps(line, ensure_ascii=False), sys.stdout)
    elapsed = time.perf_counter() - start
    summary = {"summary": True, "hands": args.hands,
               "hands_per_s": round(args.hands / elapsed, 1) if elapsed else None,
               "violations": len(checker.violations)}
    if args.json:
        _say(json.dumps(summary), sys.stdout)
    else:
        _say(f"{args.hands} hands, {wins} won, {args.hands - wins} drawn (臭庄); "
             f"scores {match.scores}; {summary['hands_per_s']} hands/s; "
             f"{len(checker.violations)} violations", sys.stdout)
    for v in checker.violations[:10]:
        _say(f"violation: {v}", sys.stderr)
    return 1 if checker.violations else 0


# ---------------------------------------------------------------- replay

def _read_record(path: str) -> Any:
    """A record file's JSON; CoreError (record.file, or the input.* codes) if it can't be."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise CoreError("record.file", path or "file", detail=e.strerror or str(e)) from None
    return read_json(data, "record")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        match = replay(_read_record(args.file))
    except CoreError as e:
        return _fail(e, args.lang)
    for i, r in enumerate(match.results):
        what = (f"seat {r.winner} wins ({', '.join(r.patterns) or 'plain'})"
                if r.winner is not None else "drawn (臭庄)")
        _say(f"hand {i}: {what}; payments {r.payments}", sys.stdout)
    _say(f"scores {match.scores}", sys.stdout)
    return 0


# ---------------------------------------------------------------- review

def cmd_review(args: argparse.Namespace) -> int:
    done = [0]

    def progress(n: int, total: int) -> bool:
        if not args.json and n * 10 // max(total, 1) != done[0]:
            done[0] = n * 10 // max(total, 1)
            _say(f"  reviewed {n}/{total} decisions", sys.stderr)
        return True

    try:
        record = _read_record(args.file)
        hands = record.get("hands") if isinstance(record, dict) else None
        if args.hand is not None and isinstance(hands, list) and args.hand >= len(hands):
            raise CoreError("arg.hand", "--hand", count=len(hands), value=args.hand)
        result = review(record, args.seat, args.hand, samples=args.samples, seed=args.seed,
                        progress=progress)
    except CoreError as e:
        return _fail(e, args.lang)
    if args.json:
        _say(json.dumps(result.to_json(), ensure_ascii=False), sys.stdout)
        return 0
    for flag in result.flagged:
        _say(f"hand {flag.hand} action {flag.index}: played {flag.played}, better "
             f"{flag.better} (about {flag.loss:.1f} points) — {flag.reason_in(args.lang)}",
             sys.stdout)
    _say(result.summary(args.lang), sys.stdout)
    return 0


# ---------------------------------------------------------------- tournament

def _tournament_walls(job: tuple[range, int, list[str]]) -> list[WallResult]:
    walls, seed, seats = job
    return [tournament_wall(h, seed, seats, timer=time.perf_counter) for h in walls]


def cmd_tournament(args: argparse.Namespace) -> int:
    seats: list[str] = args.seats
    jobs = min(args.jobs, args.hands)
    if jobs == 1:
        levels = tournament(args.hands, args.seed, seats, timer=time.perf_counter)
    else:
        # every wall is dealt from the seed alone: the same figures whatever --jobs is
        from concurrent.futures import ProcessPoolExecutor
        chunks = [(range(j, args.hands, jobs), args.seed, seats) for j in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_tournament_walls, chunks))
        walls = [parts[h % jobs][h // jobs] for h in range(args.hands)]
        levels = summarize(walls)
    if not args.json:
        _say(f"{args.hands} walls × 4 seat rotations, seats {','.join(seats)}", sys.stdout)
        for lv, r in levels.items():
            _say(f"{lv:>6}: mean {r['mean']:+.2f} points/hand "
                 f"(95% CI {r['ci95'][0]:+.2f} … {r['ci95'][1]:+.2f}), "
                 f"win rate {r['win_rate']:.1%}, decision mean {r['mean_ms']:.2f} ms, "
                 f"p95 {r['p95_ms']:.2f} ms", sys.stdout)
    else:
        _say(json.dumps({"levels": levels}), sys.stdout)
    return 0


# ---------------------------------------------------------------- daily

def _day(text: str) -> str:
    """An argparse type: a day (YYYY-MM-DD), refused with the core's words."""
    try:
        return daily.parse_day(text)
    except daily.DailyError as e:
        raise _refusal(e.code, **e.params) from None


def cmd_daily(args: argparse.Namespace) -> int:
    # The CLI may read the clock (the core may not): today in Shanghai, as the page counts it.
    day = args.date or daily.shanghai_day(time.time() * 1000)
    seed = daily.seed_of(day)
    walls = daily_players.walls(day)
    par = daily_players.par(day)
    if args.json:
        _say(json.dumps({"date": day, "seed": seed, "hands": daily.HANDS, "walls": walls,
                         "bots": daily_players.LEVEL, "par": par.to_json()},
                        ensure_ascii=False), sys.stdout)
        return 0
    _say(f"daily {day} (Asia/Shanghai): seed {seed}, {daily.HANDS} hands, you at seat 0 "
         f"against three {daily_players.LEVEL} bots", sys.stdout)
    for w in walls:
        _say(f"hand {w['hand']}: wall {' '.join(w['first'])} …, 财神 {w['caishen']}",
             sys.stdout)
    hands = ", ".join(f"{p:+d}" for p in par.hands)
    _say(f"par (the expert at seat 0): {par.total:+d} (hands {hands})", sys.stdout)
    return 0


# ---------------------------------------------------------------- main

# The language of the argument errors: --lang is read before argparse checks the rest.
_LANG = ["en"]


def _refusal(code: str, **params: Any) -> argparse.ArgumentTypeError:
    """An argparse type's refusal, with the core's text in the chosen language."""
    return argparse.ArgumentTypeError(CoreError(code, **params).text(_LANG[0]))


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high], refused with a clear message."""
    def parse(text: str) -> int:
        body = text.strip()
        digits = body[1:] if body[:1] in "+-" else body
        # ASCII digits only: int() would take '٣' and str.isdigit() '²'
        if not digits or not all("0" <= c <= "9" for c in digits):
            raise _refusal("arg.whole", value=text[:40])
        if len(digits) > 30:  # past any bound here; int() of it is no use
            raise _refusal("arg.range", low=low, high=high, value=body[:30] + "…")
        value = int(body)
        if not low <= value <= high:
            raise _refusal("arg.range", low=low, high=high, value=value)
        return value
    return parse


def _base(text: str) -> int:
    value = _whole(0, 10**6)(text)
    if value not in BASE_FLOWERS:
        raise _refusal("arg.base", value=value)
    return value


class _Parser(argparse.ArgumentParser):
    """argparse whose refusals are one line on stderr (exit 2), as every refusal here is:
    ``--hands: must be 1–10000000, got 0``, in Chinese with ``--lang zh``."""

    def error(self, message: str) -> Any:
        given = re.fullmatch(r"argument ([^:]+): (.*)", message, re.S)
        if given:  # "argument --hands: …": the argument first, as a field
            name = given.group(1).split("/")[-1]
            sep = "：" if _LANG[0] == "zh" else ": "
            line = f"{name}{sep}{_argparse_words(given.group(2))}"
        else:  # a missing or unknown argument: argparse's words, and where to look
            detail = _argparse_words(message)
            line = f"{self.prog}: " + CoreError("arg.usage", detail=detail).text(_LANG[0])
        try:
            _say(line.replace("\n", " "), sys.stderr)
        except OSError:  # no one reads the errors (2>&-): the status still tells
            pass
        sys.exit(2)


def _lang_of(argv: list[str]) -> str:
    """The --lang argparse will settle on, read before it: the last one given wins, and an
    abbreviation (--la zh) counts, as argparse takes it (no other option starts --l)."""
    lang = "en"
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        name, eq, value = arg.partition("=")
        if len(name) >= 3 and "--lang".startswith(name):
            given = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
            if given in ("en", "zh"):
                lang = given
    return lang


# argparse's own refusals (English only), said in the chosen language
_ARGPARSE_WORDS = ((r"expected one argument", "arg.expected_one"),
                   (r"invalid choice: (?P<value>.*?) \(choose from (?P<known>.*)\)",
                    "arg.choice"),
                   (r"the following arguments are required: (?P<names>.*)", "arg.required"),
                   (r"unrecognized arguments: (?P<names>.*)", "arg.unrecognized"))


def _argparse_words(message: str) -> str:
    for pattern, code in _ARGPARSE_WORDS:
        found = re.fullmatch(pattern, message, re.S)
        if found:
            params = {k: v.strip("'") if k == "value" else v
                      for k, v in found.groupdict().items()}
            return CoreError(code, **params).text(_LANG[0])
    return message


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _LANG[0] = _lang_of(argv)
    parser = _Parser(prog="python3 -m sxmj",
                     description="Shaoxing mahjong (绍兴麻将) rules engine")
    lang = _Parser(add_help=False)
    lang.add_argument("--lang", choices=("en", "zh"), default="en",
                      help="language of error messages (en or zh)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("evaluate", help="judge hands given as JSON on stdin", parents=[lang])
    p.set_defaults(func=cmd_evaluate)
    p = sub.add_parser("simulate", help="play hands of a match with bots", parents=[lang])
    p.add_argument("--hands", type=_whole(1, 10**7), default=10)
    p.add_argument("--seed", type=_whole(0, 2**63), default=0)
    p.add_argument("--bots", type=_levels, default="normal",
                   help="one level or four, e.g. hard,normal,easy,easy")
    p.add_argument("--base", type=_base, default=5, help="底花 (5, 10, 15, 20 or 25)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("replay", help="check a game record and print its result", parents=[lang])
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("review", help="review one seat's decisions in a record (复盘)",
                       parents=[lang])
    p.add_argument("file")
    p.add_argument("--seat", type=_whole(0, 3), required=True)
    p.add_argument("--hand", type=_whole(0, 10**6), default=None,
                   help="only this hand (from 0); default every hand")
    p.add_argument("--samples", type=_whole(2, 1000), default=REVIEW_SAMPLES,
                   help="guesses of the hidden tiles a decision is judged over at least "
                        "(the page's review: the default)")
    p.add_argument("--seed", type=_whole(0, 2**63), default=0,
                   help="the guesses' seed (the page's review: 0)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_review)
    p = sub.add_parser("tournament", help="duplicate tournament between bot levels",
                       parents=[lang])
    p.add_argument("--hands", type=_whole(1, 10**7), default=100,
                   help="walls; each is played 4 times")
    p.add_argument("--seed", type=_whole(0, 2**63), default=0)
    p.add_argument("--seats", type=_levels, default="hard,normal,normal,normal")
    p.add_argument("--jobs", type=_whole(1, 64), default=1,
                   help="processes to share the walls (the same figures, sooner)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_tournament)
    p = sub.add_parser("daily", help="the daily challenge of a day: seed, walls and par",
                       parents=[lang])
    p.add_argument("--date", type=_day, default=None,
                   help="YYYY-MM-DD (default: today in Asia/Shanghai)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_daily)
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except OSError as e:
        # the reader went away (… | head) or the output can't be written (>&-, a full
        # disk): no traceback, and none when Python flushes stdout at exit
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        if not isinstance(e, BrokenPipeError):
            try:
                _say(f"python3 -m sxmj: {e.strerror or e}", sys.stderr)
            except OSError:
                pass
        return 1
    except KeyboardInterrupt:
        return 130
    return status
