"""Win shapes with 财神: the fast tables against a brute-force oracle."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import oracle_baotou, oracle_win

from sxmj import winning
from sxmj.tiles import NUM_PLAYING, parse_tiles, tile
from sxmj.winning import Shape, distance, is_baotou_ready, is_sets, is_win, waits


def built_hand(rng: random.Random, size: int, wilds: int) -> list[int] | None:
    """Sets and a pair, then 财神 take some places and one tile may be swapped."""
    tiles: list[int] = []
    while len(tiles) < size - 2:
        if rng.random() < 0.5:
            t = rng.randrange(NUM_PLAYING)
            tiles += [t] * 3
        else:
            suit, start = rng.randrange(3), rng.randrange(7)
            tiles += [9 * suit + start + i for i in range(3)]
    tiles += [rng.randrange(NUM_PLAYING)] * 2
    tiles = tiles[:size]
    rng.shuffle(tiles)
    naturals = tiles[wilds:]
    if rng.random() < 0.5:
        naturals[0] = rng.randrange(NUM_PLAYING)
    if any(naturals.count(t) > 4 for t in naturals):
        return None
    return naturals


def random_hand(rng: random.Random, size: int, wilds: int) -> list[int]:
    """Half built from sets (so that wins are common), half random from a pool."""
    if rng.random() < 0.5:
        built = built_hand(rng, size, wilds)
        if built is not None:
            return built
    pools = [list(range(NUM_PLAYING)), list(range(9)) + list(range(27, 31)),
             list(range(9, 27))]
    pool = rng.choice(pools)
    counts = [0] * NUM_PLAYING
    hand: list[int] = []
    while len(hand) < size - wilds:
        t = rng.choice(pool)
        if counts[t] < 4:
            counts[t] += 1
            hand.append(t)
    return hand


# 10,100 hands in all; hands with many 财神 cost the oracle most, so fewer of them.
@pytest.mark.parametrize(("wilds", "hands"), [(0, 2700), (1, 2700), (2, 2700), (3, 1500),
                                              (4, 500)])
def test_fast_win_check_agrees_with_brute_force(wilds: int, hands: int) -> None:
    rng = random.Random(1000 + wilds)
    wins = 0
    for _ in range(hands):
        naturals = random_hand(rng, 14, wilds)
        shape = Shape((0, 0, 0, 0), wilds)
        for t in naturals:
            shape = shape.add(t)
        expected = oracle_win(naturals, wilds)
        wins += expected
        assert is_win(shape) == expected, (naturals, wilds)
    assert wins > 50  # the sample must contain wins to test anything


@pytest.mark.parametrize("wilds", [0, 1, 2])
def test_waits_agree_with_brute_force(wilds: int) -> None:
    rng = random.Random(2000 + wilds)
    for _ in range(150):
        naturals = random_hand(rng, 13, wilds)
        shape = Shape((0, 0, 0, 0), wilds)
        for t in naturals:
            shape = shape.add(t)
        expected = [t for t in range(NUM_PLAYING)
                    if naturals.count(t) < 4 and oracle_win(naturals + [t], wilds)]
        assert waits(shape) == expected, naturals


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, NUM_PLAYING - 1), min_size=11, max_size=13),
       st.integers(0, 3))
def test_distance_zero_means_ready(naturals: list[int], wilds: int) -> None:
    naturals = naturals[: 13 - wilds]
    if any(naturals.count(t) > 4 for t in naturals) or len(naturals) + wilds != 13:
        return
    shape = Shape((0, 0, 0, 0), wilds)
    for t in naturals:
        shape = shape.add(t)
    ready = bool(waits(shape))
    assert (distance(shape, 4) == 0) == ready


def test_distance_counts_draws_to_ready() -> None:
    S = Shape.of
    assert distance(S(parse_tiles("123m456m789m123p5p"), None), 4) == 0
    assert distance(S(parse_tiles("123m456m789m12p59s"), None), 4) == 1
    assert distance(S(parse_tiles("13579m13579p147s"), None), 4) == 4
    # a 财神 fills any gap: the same bad hand with three of them is much closer
    # 13m 57m 13p become sets with three 财神; 57p waits on 6p and 9m on a pair
    assert distance(S(parse_tiles("13579m13579p555s"), tile("5s")), 4) == 1


def test_baotou_ready_waits_on_everything() -> None:
    shape = Shape.of(parse_tiles("123m456p789s111z5m"), tile("5m"))
    assert is_baotou_ready(shape)
    assert waits(shape, tile("5m")) == list(range(NUM_PLAYING))


def test_fifth_copy_is_allowed() -> None:
    # four 1m held and a 财神 standing as a fifth 1m: 11111m = 111m + 11m
    shape = Shape.of(parse_tiles("1111m") + parse_tiles("234p567p789s") + [tile("9m")],
                     tile("9m"))
    assert is_win(shape)


@pytest.mark.parametrize("seed", range(40))
def test_sets_only_check_matches_oracle_for_baotou(seed: int) -> None:
    """暴头 = the rest of the hand, less the drawn tile and one 财神, is sets only."""
    rng = random.Random(seed)
    for _ in range(25):
        wilds = rng.randint(1, 3)
        naturals = random_hand(rng, 14, wilds)
        win_tile = rng.choice(naturals)
        rest = Shape((0, 0, 0, 0), wilds - 1)
        for t in naturals:
            rest = rest.add(t)
        rest = rest.remove(win_tile)
        assert is_sets(rest) == oracle_baotou(naturals, wilds, win_tile), (naturals, win_tile)


def test_the_caishen_can_be_the_only_wait() -> None:
    # 24s needs a 3s, and 3s is the 财神's own kind: only drawing a 财神 wins
    shape = Shape.of(parse_tiles("66789m24s123p456p"), tile("3s"))
    assert waits(shape, tile("3s")) == [tile("3s")]
    assert distance(shape, 4) == 0


@pytest.mark.parametrize("wilds", [0, 1, 2])
def test_waits_with_the_caishen_agree_with_brute_force(wilds: int) -> None:
    rng = random.Random(3000 + wilds)
    for _ in range(120):
        caishen = rng.randrange(NUM_PLAYING)
        naturals = [t for t in random_hand(rng, 13, wilds) if t != caishen]
        shape = Shape((0, 0, 0, 0), 13 - len(naturals))
        for t in naturals:
            shape = shape.add(t)
        w = shape.wilds
        expected = [t for t in range(NUM_PLAYING)
                    if (t == caishen and oracle_win(naturals, w + 1))
                    or (t != caishen and naturals.count(t) < 4
                        and oracle_win(naturals + [t], w))]
        assert waits(shape, caishen) == expected, (naturals, caishen)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, NUM_PLAYING - 1), min_size=10, max_size=13),
       st.integers(0, 3), st.one_of(st.none(), st.integers(0, NUM_PLAYING - 1)))
def test_remembered_waits_are_the_waits_and_a_caller_cannot_spoil_them(
        naturals: list[int], wilds: int, caishen: int | None) -> None:
    naturals = [t for t in naturals if t != caishen][: 13 - wilds]
    if any(naturals.count(t) > 4 for t in naturals):
        return
    shape = Shape((0, 0, 0, 0), 13 - len(naturals))
    for t in naturals:
        shape = shape.add(t)
    fresh = winning._sets_waits_of(shape, caishen)
    first = waits(shape, caishen)
    assert first == fresh
    first.append(99)  # a caller that changes its list changes nothing remembered
    assert waits(shape, caishen) == fresh


def test_the_waits_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(winning, "WAITS_MEMO_MAX", 3)
    monkeypatch.setattr(winning, "_WAITS", {})
    for text in ("123m456m789m12p5p", "123m456m789m12p6p", "123m456m789m12p7p",
                 "123m456m789m12p8p", "123m456m789m13p9p"):
        waits(Shape.of(parse_tiles(text), None))
        assert len(winning._WAITS) <= 3


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, NUM_PLAYING - 1), min_size=1, max_size=14),
       st.lists(st.integers(0, NUM_PLAYING - 1), min_size=1, max_size=14))
def test_merged_tables_are_remembered_as_computed(first, second) -> None:
    """The memo of merge_tables gives what merging gives, whichever order it was filled in."""

    def shape(tiles: list[int]) -> Shape:
        out = Shape((0, 0, 0, 0), 0)
        for t in tiles:
            if out.count(t) < 4:
                out = out.add(t)
        return out

    tables = winning.group_tables(shape(first)) + winning.group_tables(shape(second))
    for a in tables:
        for b in tables:
            assert winning.merge_tables(a, b) == winning._merge_tables_of(a, b)


def test_the_merged_tables_memo_is_bounded_and_not_walked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At most MERGED_MEMO_MAX entries, all tuples of ints, which the garbage collector
    stops tracking (a full collection must not walk thousands of them: a long pause)."""
    import gc

    monkeypatch.setattr(winning, "MERGED_MEMO_MAX", 5)
    monkeypatch.setattr(winning, "_MERGED", {})
    tables = winning.group_tables(Shape.of(parse_tiles("1234m2357p1369s12z"), None))
    for a in tables:
        for b in tables:
            winning.merge_tables(a, b)
            assert len(winning._MERGED) <= 5
    for _ in range(3):  # a collection untracks one level of nested tuples at most
        gc.collect()
    assert winning._MERGED
    assert not any(gc.is_tracked(k) or gc.is_tracked(v) for k, v in winning._MERGED.items())
