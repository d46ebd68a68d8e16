"""The guessed wall where each seat draws its own stream (:class:`SeatStreamWall`).

The judgement compares moves over the same guesses on it, so two things must hold: every
game on it alone is dealt as fairly as on the plain wall (each draw a uniform pick of the
tiles left), and a claim no longer hands every later tile to another seat.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from sxmj.bots.search import sample_hidden
from sxmj.game import Action, Event, Game, Phase
from sxmj.match import Match
from sxmj.wall import Rng, SeatStreamWall, Wall

draws = st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=40)


def _take(wall: Wall, plan: list[tuple[int, bool]]) -> list[int]:
    out = []
    for seat, from_tail in plan:
        if wall.remaining == 0:
            break
        out.append(wall.draw_tail(seat) if from_tail else wall.draw_head(seat))
    return out


@given(st.integers(0, 40), st.integers(0, 3), draws)
def test_every_tile_is_drawn_once_and_the_count_stays_right(n: int, first: int,
                                                            plan: list[tuple[int, bool]]
                                                            ) -> None:
    wall = SeatStreamWall(list(range(n)), indicator=0, first=first)
    got = _take(wall, plan)
    assert len(set(got)) == len(got)
    assert wall.remaining == n - len(got)
    assert sorted(wall.live() + got) == list(range(n))


@given(st.permutations(list(range(24))), st.integers(0, 3), draws)
def test_which_position_a_draw_takes_never_depends_on_the_tiles(perm: list[int], first: int,
                                                                plan: list[tuple[int, bool]]
                                                                ) -> None:
    positions = _take(SeatStreamWall(list(range(24)), 0, first=first), plan)
    assert _take(SeatStreamWall(list(perm), 0, first=first), plan) == \
        [perm[p] for p in positions]


@given(st.lists(st.integers(0, 9), min_size=1, max_size=30), st.integers(0, 3))
def test_without_claims_or_replacements_it_is_the_plain_walls_order(tiles: list[int],
                                                                     first: int) -> None:
    plain, streams = Wall(list(tiles), 0), SeatStreamWall(list(tiles), 0, first=first)
    order = [(first + k) % 4 for k in range(len(tiles))]
    assert [streams.draw_head(s) for s in order] == [plain.draw_head(s) for s in order]


def test_each_draw_is_a_uniform_pick_of_the_tiles_left_whatever_the_play() -> None:
    # every order of 5 tiles, equally likely; who draws next, and from which end, depends
    # on the tiles drawn so far (as play does): after any history, every tile not yet
    # drawn must come next equally often
    nexts: dict[tuple[int, ...], Counter[int]] = {}
    for order in permutations(range(5)):
        wall = SeatStreamWall(list(order), 0, first=1)
        history: tuple[int, ...] = ()
        while wall.remaining:
            seat = (sum(history) * 3 + len(history)) % 4
            t = wall.draw_tail(seat) if history and history[-1] % 2 else wall.draw_head(seat)
            nexts.setdefault(history, Counter())[t] += 1
            history += (t,)
    for history, seen in nexts.items():
        assert set(seen) == set(range(5)) - set(history)
        assert len(set(seen.values())) == 1, (history, seen)


def _plain_move(game: Game) -> Action:
    """The mover's pass of a claim, else its first discard (else its only move)."""
    legal = game.legal_actions(game.to_move()[0])
    return next((a for a in legal if a.kind in ("pass", "discard")), legal[0])


def _head_draws(game: Game, seat: int, want: int) -> list[int]:
    """Play on (every seat passes a claim and discards its first tile) until ``seat`` has
    drawn ``want`` tiles from the head, counting those of the move just applied; those
    tiles."""
    got: list[int] = []
    while True:
        got += [e["tile"] for e in game.events  # (the events of the last move)
                if e["type"] == Event.DRAW and e["seat"] == seat and e["source"] == "head"]
        if game.over or len(got) >= want:
            return got[:want]
        game.apply(_plain_move(game))


def _chow_or_pass(seed: int, streams: bool) -> tuple[list[int], list[int]] | None:
    """Seat 0's first chow chance in match ``seed``, played out on one guess both ways:
    its first two draws after the chow, and after passing (None: no such chance, or the
    hand ended first)."""
    match = Match(seed=seed)
    game = match.game
    while not game.over and not (game.phase == Phase.CLAIM and game.to_move() == [0]
                                 and any(a.kind == "chi" for a in game.legal_actions(0))):
        match.apply(_plain_move(game))
    if game.over:
        return None
    obs, legal = game.observation(0), game.legal_actions(0)
    hands, wall = sample_hidden(obs, Rng(seed))
    lines = []
    for kind in ("chi", "pass"):
        g = Game.from_observation(obs, hands, wall, streams=streams)
        g.apply(next(a for a in legal if a.kind == kind))
        lines.append(_head_draws(g, 0, 2))
    if min(map(len, lines)) < 2:
        return None
    return lines[0], lines[1]


def test_after_a_chow_the_claimer_draws_the_tiles_it_would_have_drawn() -> None:
    # seat 0 chows or passes on one guess: on the streams its draws after the chow are
    # the ones it would have made after passing; on one wall the chow moves every later
    # tile to another seat, and seat 0 mostly draws others
    streams = [p for p in (_chow_or_pass(seed, True) for seed in range(40)) if p]
    plain = [p for p in (_chow_or_pass(seed, False) for seed in range(40)) if p]
    assert len(streams) >= 10
    assert all(chow == passed for chow, passed in streams)
    assert sum(chow == passed for chow, passed in plain) < len(plain) / 2
