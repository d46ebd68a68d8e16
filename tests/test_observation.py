"""The typed observation: exact JSON round trip, no hidden tile, the public win context."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sxmj.game import Game
from sxmj.messages import CoreError
from sxmj.observation import Observation
from sxmj.rules import Options
from sxmj.wall import Rng, Wall


def states(seed: int, steps: int) -> Game:
    """A game after ``steps`` random legal actions (fewer if the hand ends)."""
    rng = Rng(seed)
    g = Game(Wall.shuffled(rng.fork(1)), seed % 4, Options(flower_is_kong=seed % 2 == 0))
    for _ in range(steps):
        if g.over:
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        g.apply(legal[rng.randbelow(len(legal))])
    return g


@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), seat=st.integers(0, 3))
def test_to_json_and_back_is_exact(seed, steps, seat) -> None:
    obs = states(seed, steps).observation(seat)
    wire = json.loads(json.dumps(obs.to_json()))
    assert Observation.from_json(wire) == obs


@settings(max_examples=100, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_no_seat_sees_another_hand_or_the_wall(seed, steps) -> None:
    g = states(seed, steps)
    for seat in range(4):
        text = json.dumps(g.observation(seat).to_json())
        obs = g.observation(seat)
        assert list(obs.hand) == g.concealed(seat)
        # the engine's cached views are the game's state, not a stale copy
        assert obs.melds == tuple(map(tuple, g.melds)) and obs.claims == tuple(map(tuple, g.claims))
        assert obs.flowers == tuple(map(tuple, g.flowers))
        assert "tiles" not in json.loads(text) and len(text) < 4000
        if seat != g.turn:
            assert obs.last_tile is None


def test_the_win_context_is_public_and_matches_the_engine() -> None:
    seen = set()
    for seed in range(40):
        g = states(seed, 0)
        rng = Rng(seed)
        while not g.over:
            seat = g.to_move()[0]
            obs = g.observation(seat)
            if g.phase == "turn":
                win_by, chain = g._self_draw_by()
                assert (obs.arrival in ("kong", "flower")) == (win_by != "draw")
                assert obs.chain == chain and obs.after_claim == g.after_claim
                seen.add(obs.arrival)
            legal = g.legal_actions(seat)
            g.apply(legal[rng.randbelow(len(legal))])
    assert {"draw", "claim", "kong", "flower", "deal"} <= seen


@pytest.mark.parametrize("change", [
    lambda d: d.pop("hand"),
    lambda d: d.update(seat=1.0),
    lambda d: d.update(phase="dancing"),
    lambda d: d.update(melds=[[{"kind": "peng"}], [], [], []]),
    lambda d: d.update(options={"fan_cap": "3"}),
    lambda d: d.update(after_claim=0),
    lambda d: d.update(discards=[[[1]], [], [], []]),
])
def test_malformed_wire_data_is_refused_by_name(change) -> None:
    data = states(2, 30).observation(0).to_json()
    change(data)
    with pytest.raises(CoreError) as e:
        Observation.from_json(data)
    assert e.value.field.startswith(("observation", "options"))


def test_observations_are_frozen_values() -> None:
    obs = states(1, 5).observation(0)
    with pytest.raises(AttributeError):
        obs.wall = 0  # type: ignore[misc]
    assert replace(obs, wall=3).wall == 3 and obs.unseen()[obs.caishen] <= 4


def test_a_seat_builds_the_same_win_context_as_the_engine():
    # the bots and the assist judge a self-draw from the seat's observation: it must be the
    # very context the engine scores (first turn, 杠开 chain, 飘, dealer), never a guess
    import random

    from sxmj.bots import Bot
    from sxmj.match import Match
    compared = 0
    for seed in range(30):
        match = Match(seed=seed)
        game = match.game
        bots = [Bot("normal", seed * 4 + s) for s in range(4)]
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move()[0]
            if game.phase == "turn" and game.last_tile is not None and game.turn == seat:
                obs = game.observation(seat)
                win_by, chain = game._self_draw_by()
                mine = obs.win_context(list(obs.hand), game.last_tile)
                assert mine == game.win_context(seat, game.last_tile, win_by, chain)
                compared += 1
            legal = game.legal_actions(seat)
            choice = bots[seat].choose(game.observation(seat), legal).action
            match.apply(choice if rng.random() < 0.9 else rng.choice(legal))
    assert compared > 300
