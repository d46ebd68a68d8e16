"""Playing hands with bots, checking every invariant on the way.

No clock and no I/O here: the command line injects a timer when it wants
decision times.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, Policy
from .game import Action, Game, HandResult, Phase
from .match import Match
from .wall import Rng, Wall


@dataclass
class Checker:
    """The random-play invariants (OpenSpiel's random_sim_test idea)."""

    violations: list[str] = field(default_factory=list)

    def after_action(self, game: Game, where: str) -> None:
        if game.tile_count() != 144:
            self.violations.append(f"{where}: {game.tile_count()} tiles accounted for")
        counts = game.observation(0).hand_counts
        for s in range(4):
            if counts[s] != sum(game.hands[s]):
                self.violations.append(f"{where}: seat {s} shown holding {counts[s]} tiles, "
                                       f"holds {sum(game.hands[s])}")
            size = sum(game.hands[s]) + 3 * len(game.melds[s])
            acting = game.phase == Phase.TURN and s == game.turn or \
                game.phase == Phase.ROB and s == game.turn
            want = 14 if acting else 13
            if game.phase == Phase.OVER and game.result and game.result.winner == s:
                want = 14
            if size != want and not (game.phase == Phase.OVER and size in (13, 14)):
                self.violations.append(f"{where}: seat {s} holds {size} tiles, expected {want}")

    def after_hand(self, game: Game, wall: Wall, where: str) -> None:
        result = game.result
        if result is None or sum(result.payments) != 0:
            self.violations.append(f"{where}: payments not zero-sum: {result}")
            return
        again = replay_hand(wall, game)
        if again.winner != result.winner or again.payments != result.payments:
            self.violations.append(f"{where}: replay gives {again.payments}, "
                                   f"played {result.payments}")


def replay_hand(wall: Wall, game: Game) -> HandResult:
    fresh = Game(wall.undealt(), game.dealer, game.options)
    for a in game.actions:
        fresh.apply(a)
    assert fresh.result is not None
    return fresh.result


def play_hand(game: Game, bots: Sequence[Policy], checker: Checker | None = None,
              timer: Callable[[], float] | None = None,
              times: dict[int, list[float]] | None = None,
              apply: Callable[[Action], object] | None = None,
              where: str = "step") -> HandResult:
    """Let the bots play the hand to its end; record decision times if given a timer.

    ``apply`` performs each action (default ``game.apply``; a match passes its own so
    that scores are settled); ``where`` labels the checker's violations.
    """
    apply = apply or game.apply
    wall = game.wall.undealt()
    step = 0
    while not game.over:
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        obs = game.observation(seat)
        if timer is not None and times is not None:
            t0 = timer()
            choice = bots[seat].choose(obs, legal)
            times.setdefault(seat, []).append(timer() - t0)
        else:
            choice = bots[seat].choose(obs, legal)
        if checker is not None and choice.action not in legal:
            checker.violations.append(f"action {choice.action} not legal")
        apply(choice.action)
        step += 1
        if checker is not None:
            checker.after_action(game, f"{where} {step}")
    if checker is not None:
        checker.after_hand(game, wall, f"{where} end")
    assert game.result is not None
    return game.result


def play_match_hand(match: Match, bots: Sequence[Policy],
                    checker: Checker | None = None) -> HandResult:
    """Play the match's current hand with bots and settle it in the match."""
    play_hand(match.game, bots, checker, apply=match.apply, where=f"hand {match.hand_no}")
    return match.results[-1]


def _plain_bot(level: str, seed: int, game: Game) -> Policy:
    return Bot(level, seed=seed)


@dataclass
class WallResult:
    """One wall of a duplicate tournament, played once per rotation of the seats: each
    level's mean payment on it, its wins and seat-games, and its decision times (s)."""

    means: dict[str, float]
    wins: dict[str, int]
    games: dict[str, int]
    times: dict[str, list[float]]


def tournament_wall(h: int, seed: int, seats: list[str],
                    timer: Callable[[], float] | None = None,
                    make_bot: Callable[[str, int, Game], Policy] | None = None) -> WallResult:
    """Wall ``h`` (from 0) of the tournament of ``seed``: the same whichever process plays
    it, so a tournament may be split across processes (the command line's ``--jobs``)."""
    wall = Wall.shuffled(Rng(seed).fork(h + 1))
    levels_all = set(seats)
    totals = {lv: 0.0 for lv in levels_all}
    counts = {lv: 0 for lv in levels_all}
    wins = {lv: 0 for lv in levels_all}
    times: dict[str, list[float]] = {lv: [] for lv in levels_all}
    build = make_bot or _plain_bot
    for rot in range(4):
        levels = [seats[(s - rot) % 4] for s in range(4)]
        game = Game(wall.undealt(), dealer=0)
        bots = [build(lv, seed * 1000003 + h * 4 + s, game) for s, lv in enumerate(levels)]
        seat_times: dict[int, list[float]] = {}
        result = play_hand(game, bots, timer=timer, times=seat_times)
        for s, lv in enumerate(levels):
            totals[lv] += result.payments[s]
            counts[lv] += 1
            wins[lv] += result.winner == s
            times[lv].extend(seat_times.get(s, []))
    return WallResult({lv: totals[lv] / counts[lv] for lv in levels_all}, wins, counts, times)


def summarize(walls: Sequence[WallResult]) -> dict[str, dict[str, Any]]:
    """Each level's mean points per hand with its 95 % interval (over walls), win rate and
    decision times (mean and p95, ms)."""
    out = {}
    for lv in sorted(walls[0].means):
        values = [w.means[lv] for w in walls]
        n = len(values)
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n) if n else 0.0
        ts = sorted(t for w in walls for t in w.times[lv])
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))] * 1000 if ts else 0.0
        wins = sum(w.wins[lv] for w in walls)
        games = sum(w.games[lv] for w in walls)
        out[lv] = {"mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
                   "win_rate": round(wins / games, 4),
                   "mean_ms": round(sum(ts) / len(ts) * 1000, 3) if ts else 0.0,
                   "p95_ms": round(p95, 3)}
    return out


def tournament(hands: int, seed: int, seats: list[str],
               timer: Callable[[], float] | None = None,
               make_bot: Callable[[str, int, Game], Policy] | None = None
               ) -> dict[str, dict[str, Any]]:
    """Duplicate format: every wall is played once per rotation of the seats.

    ``make_bot(level, seed, game)`` builds each seat's bot (default ``Bot(level, seed)``);
    bench/ceiling.py passes one that may look at the game it plays. Decision times are
    measured only with a ``timer`` (the command line passes ``time.perf_counter``).
    """
    return summarize([tournament_wall(h, seed, seats, timer, make_bot) for h in range(hands)])
