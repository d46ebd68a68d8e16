"""A real game and a guest's seen game both answer what the table reads
(:mod:`sxmj.table_game`): mypy proves it on this module, and the runtime checks agree.

This module is typed throughout: :func:`test_mypy_proves_both_answer_the_table` runs
``mypy --strict`` on it, where :func:`table_games` and :func:`table_matches` hold the
proof — each returns a real one and a guest's one where the protocol is asked for.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sxmj.game import Game
from sxmj.match import Match
from sxmj.room.guest import GuestTable, SeenGame, SeenMatch
from sxmj.room.host import Room, deal
from sxmj.rules import Options
from sxmj.table_game import TableGame, TableMatch

ROOT = Path(__file__).resolve().parent.parent


def table_games(game: Game, seen: SeenGame) -> list[TableGame]:
    return [game, seen]  # mypy: both are what the table reads of a game


def table_matches(match: Match, seen: SeenMatch) -> list[TableMatch]:
    return [match, seen]  # mypy: both are what the table reads of a match


def a_guest(seed: int, over: bool) -> tuple[GuestTable, Match]:
    """A guest at seat 2 with the table the host sent: mid-hand, or once the hand ended."""
    counter = iter(range(seed, seed + 99))
    match = deal(counter.__next__, Options())
    room = Room("id", "secret", "Host")
    table = GuestTable()
    while over and not match.game.over:
        s = match.game.to_move()[0]
        match.apply(match.game.legal_actions(s)[0])
    table.update(json.loads(room.state(2, match, [], full=True))["state"])
    return table, match


def test_a_game_and_a_guests_game_answer_the_table() -> None:
    live, _ = a_guest(1, over=False)
    done, _ = a_guest(1, over=True)
    assert isinstance(live.live, SeenMatch) and isinstance(live.match, SeenMatch)
    assert isinstance(done.match, Match)
    for match in (Match(seed=3), live.match, done.match):
        assert isinstance(match, TableMatch)
        assert isinstance(match.game, TableGame)
    games = table_games(Match(seed=3).game, live.live.game)
    matches = table_matches(Match(seed=3), live.live)
    assert all(isinstance(g, TableGame) for g in games)
    assert all(isinstance(m, TableMatch) for m in matches)
    assert not isinstance(object(), TableGame) and not isinstance(Match(seed=1), TableGame)


def test_what_the_table_reads_of_a_guests_game_is_the_hand_it_sees() -> None:
    table, match = a_guest(5, over=False)
    seen = table.match
    assert isinstance(seen, SeenMatch)
    game: TableGame = seen.game
    real: TableGame = match.game
    assert game.observation(0).hand == real.observation(2).hand
    assert len(game.actions) <= len(real.actions)
    assert (game.dealer - real.dealer) % 4 == (0 - 2) % 4
    assert (game.caishen, game.phase, game.over, game.result) == (
        real.caishen, real.phase, False, None)
    assert game.deal_events == [] and game.options == real.options


def members(protocol: type) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")}


def test_the_protocols_name_what_the_table_reads() -> None:
    """Every attribute of a game or a match that the page's table code reads is named by
    the protocol (a new read belongs there too, and a guest's game must answer it)."""
    game_reads: set[str] = set()
    match_reads: set[str] = set()
    for path in (ROOT / "sxmj" / "ui").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        game_reads |= set(re.findall(r"\b(?:game|game_after)\.([a-z_]+)\b", text))
        match_reads |= set(re.findall(r"\bmatch\.([a-z_]+)\b", text))
    assert game_reads, "no game reads found: has the table moved?"
    # a guest's page empties its own seen game's legal actions once it has moved; a local
    # or host table plays and deals its own match: neither is a read of the table
    assert game_reads - {"legal"} <= members(TableGame), game_reads - members(TableGame)
    assert match_reads - {"apply", "next_hand"} <= members(TableMatch), \
        match_reads - members(TableMatch)


def test_mypy_proves_both_answer_the_table(tmp_path: Path) -> None:
    """``mypy --strict`` passes this module, and fails a game that lacks what the table
    reads: the proof above is not vacuous."""
    pytest.importorskip("mypy")
    wrong = tmp_path / "not_a_table_game.py"
    wrong.write_text(textwrap.dedent("""\
        from sxmj.match import Match
        from sxmj.table_game import TableGame, TableMatch

        class Blank:
            over = False

        a: TableGame = Blank()
        b: TableMatch = Match(seed=1).game
        """))
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--hide-error-context",
         str(Path(__file__).relative_to(ROOT)), str(wrong)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert not [e for e in errors if "not_a_table_game" not in e], run.stdout + run.stderr
    assert any(":7: error: Incompatible types in assignment" in e for e in errors), run.stdout
    assert any(":8: error: Incompatible types in assignment" in e for e in errors), run.stdout
