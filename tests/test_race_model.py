"""The race model's shortcuts (issue 28: playouts twice as fast) give what the plain
definitions give: the running sums of :func:`race`, and the hand-only memos."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sxmj.bots.analysis import _alive, race
from sxmj.notation import read
from sxmj.tiles import NUM_PLAYING
from sxmj.winning import Shape, _useful_draws_of, distance, useful_draws


def race_by_definition(stages, ready, wall, lead):
    """:func:`race` summed term by term: every draw a stage may complete on, every draw a
    ready hand may win on (the form the running sums replaced)."""
    alive = _alive(wall, lead)
    k_max = len(alive)
    if not k_max:
        return 0.0
    done = [1.0] + [0.0] * k_max
    for q in stages:
        nxt = [0.0] * (k_max + 1)
        for j, pj in enumerate(done):
            if pj < 1e-9:
                continue
            for k in range(j + 1, k_max + 1):
                nxt[k] += pj * (1 - q) ** (k - j - 1) * q
        done = nxt
    value = 0.0
    for weight, p, v in ready:
        if p <= 0:
            continue
        value += weight * v * sum(
            pj * (1 - p) ** (k - j - 1) * p * alive[k - 1]
            for j, pj in enumerate(done) if pj >= 1e-9 for k in range(j + 1, k_max + 1))
    return value


chance = st.floats(0, 0.6)


@settings(max_examples=300, deadline=None)
@given(st.lists(chance, max_size=5),
       st.lists(st.tuples(st.floats(0, 1), chance, st.floats(0, 60)), min_size=1, max_size=4),
       st.integers(-2, 120), st.integers(0, 3))
def test_race_sums_as_the_definition_does(stages, ready, wall, lead) -> None:
    got, want = race(stages, ready, wall, lead), race_by_definition(stages, ready, wall, lead)
    assert abs(got - want) <= 1e-9 * max(1.0, abs(want))


hands13 = st.lists(st.integers(0, NUM_PLAYING - 1), min_size=13, max_size=13).filter(
    lambda h: all(h.count(t) <= 4 for t in h))


@settings(max_examples=200, deadline=None)
@given(hands13, st.integers(0, NUM_PLAYING - 1),
       st.lists(st.integers(0, 4), min_size=NUM_PLAYING, max_size=NUM_PLAYING))
def test_useful_draws_are_the_hands_own_filtered_by_what_is_unseen(hand, caishen,
                                                                   unseen) -> None:
    """The memo is by hand alone: asking again, with other tiles unseen, filters the same
    draws; a tile the hand holds four of is never a draw (none is left)."""
    shape = Shape.of(hand, caishen)
    d, useful = useful_draws(shape, 4, caishen, unseen + [0] * 11)
    d_all, draws = _useful_draws_of(shape, 4, caishen)
    assert d == d_all == distance(shape, 4)
    assert useful == [x for x in draws if unseen[x] > 0]
    assert all(shape.count(x) < 4 for x in draws if x != caishen)


def test_a_hand_holding_four_of_a_tile_is_analysed() -> None:
    """Four copies held: drawing a fifth would overflow the hand's base-5 key (it did,
    once the draws were worked out before the unseen filter)."""
    hand = read("1111m234p567s99s1z")
    d, useful = useful_draws(Shape.of(hand, None), 4, None, [4] * 42)
    assert 0 not in useful and d == distance(Shape.of(hand, None), 4)
