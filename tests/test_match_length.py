"""A match has a length: ``Options.match_hands`` (default 8, 0 endless), validated like every
rule option, carried by records, and read by ``Match.finished`` and ``Match.places``."""

from __future__ import annotations

import pytest

from sxmj.bots import Bot
from sxmj.match import Match
from sxmj.record import RecordError, replay, to_record
from sxmj.rules import Options, RuleError
from sxmj.simulate import play_match_hand


def play(match: Match, hands: int) -> Match:
    bots = [Bot("easy", seed=s) for s in range(4)]
    for h in range(hands):
        if h:
            match.next_hand()
        play_match_hand(match, bots)
    return match


def test_the_default_is_eight_hands():
    assert Options().match_hands == 8
    assert Match(seed=1).length == 8
    assert Options.from_dict({}).match_hands == 8


@pytest.mark.parametrize("value", [0, 1, 4, 8, 16, 99])
def test_whole_numbers_from_0_to_99_are_taken(value):
    assert Options.from_dict({"match_hands": value}).match_hands == value


@pytest.mark.parametrize("value", [-1, 100, 1000, "8", 8.0, True, None])
def test_anything_else_is_refused_naming_the_option(value):
    with pytest.raises(RuleError, match="match_hands"):
        Options.from_dict({"match_hands": value})


def test_a_match_is_finished_after_its_last_hand():
    m = Match(seed=5, options=Options(match_hands=2))
    assert not m.finished
    play(m, 1)
    assert m.game.over and not m.finished
    m.next_hand()
    assert not m.finished
    play_match_hand(m, [Bot("easy", seed=s) for s in range(4)])
    assert m.finished and len(m.results) == 2


def test_an_endless_match_never_finishes():
    m = play(Match(seed=5, options=Options(match_hands=0)), 3)
    assert m.length == 0 and not m.finished


def test_places_follow_the_scores_and_ties_share():
    m = Match(seed=1)
    m.scores = [30, -10, -10, -10]
    assert m.places() == [1, 2, 2, 2]
    m.scores = [-5, 15, 0, -10]
    assert m.places() == [3, 1, 2, 4]


def test_records_carry_the_length_and_replay_it():
    m = play(Match(seed=9, options=Options(match_hands=2, base_flowers=10)), 2)
    record = to_record(m)
    assert record["options"]["match_hands"] == 2
    again = replay(record)
    assert again.finished and again.scores == m.scores
    old = dict(record, options={k: v for k, v in record["options"].items()
                                if k != "match_hands"})
    assert replay(old).length == 8  # a record from before the option: the default length


def test_a_record_with_a_bad_length_is_refused():
    record = to_record(Match(seed=3))
    record["options"]["match_hands"] = 120
    with pytest.raises(RecordError, match="match_hands"):
        replay(record)
