"""Bots: each level's key decisions on constructed positions, and legality in play."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from observations import observation

from sxmj.bots import LEVELS, Bot
from sxmj.game import Action, Game
from sxmj.observation import Observation
from sxmj.simulate import Checker, play_hand
from sxmj.tiles import tile
from sxmj.wall import Rng, Wall


def turn_legal(obs: Observation, win: bool) -> list[Action]:
    out = [Action(0, "discard", t) for t in sorted(set(obs.hand))]
    return out + [Action(0, "hu")] if win else out


# ---------------------------------------------------------------- hard

def test_hard_piaos_with_two_caishen_early_but_wins_late():
    # 5m is the 财神: two of them beside four sets, the drawn 财神 wins as 暴头.
    early = observation("123m456p789s111z5m5m", "5m", wall=80, last="5m")
    choice = Bot("hard").choose(early, turn_legal(early, True))
    assert choice.action == Action(0, "discard", tile("5m"))
    assert "飘" in choice.reason and "飘" in choice.reason_zh
    late = observation("123m456p789s111z5m5m", "5m", wall=3, last="5m")
    assert Bot("hard").choose(late, turn_legal(late, True)).action.kind == "hu"


def test_hard_passes_a_plain_win_for_a_baotou_wait_early_only():
    # 3m completes 123m; the 财神 pairs with 9p: a plain win. Throwing 9p
    # leaves 财神 + four sets, which any draw completes as 暴头 (double).
    early = observation("123m456p789s111z5m9p", "5m", wall=75, last="3m")
    choice = Bot("hard").choose(early, turn_legal(early, True))
    assert choice.action == Action(0, "discard", tile("9p"))
    assert "暴头" in choice.reason and "暴头" in choice.reason_zh
    late = observation("123m456p789s111z5m9p", "5m", wall=2, last="3m")
    assert Bot("hard").choose(late, turn_legal(late, True)).action.kind == "hu"


def test_hard_keeps_the_caishen():
    obs = observation("5m1m2m6p7p9p3s4s8s9s1z2z3z4z", "5m", wall=70)
    choice = Bot("hard").choose(obs, turn_legal(obs, False))
    assert choice.action.tile != tile("5m")


def test_hard_claims_by_the_race_not_by_distance_alone():
    # 2m is the 财神. One step from ready either way, but pung 6p (then throw
    # 6s) leaves 52 live tiles instead of 20: hard takes it, normal (distance
    # only) passes.
    obs = observation("24577799m5668p6s", "2m", wall=70, phase="claim",
                      last_discard=(2, "6p"))
    legal = [Action(0, "peng", tile("6p")), Action(0, "pass")]
    assert Bot("normal").choose(obs, legal).action.kind == "pass"
    choice = Bot("hard").choose(obs, legal)
    assert choice.action.kind == "peng"
    assert choice.reason and choice.reason_zh


def test_hard_declines_a_chi_that_narrows_its_hand():
    # 2z is the 财神. Chi 789s (7s 8s from the complete 678s run) is one step
    # closer by distance, so normal takes it; but it leaves 28 live tiles
    # where its own draw has 92 to choose from: hard passes.
    obs = observation("579m29p134678s24z", "2z", wall=70, phase="claim",
                      last_discard=(3, "9s"))
    legal = [Action(0, "chi", None, (tile("7s"), tile("8s"), tile("9s"))), Action(0, "pass")]
    assert Bot("normal").choose(obs, legal).action.kind == "chi"
    assert Bot("hard").choose(obs, legal).action.kind == "pass"


def test_hard_values_a_claim_by_a_hand_it_would_keep():
    """A chow or pung is worth the hand hard keeps after its discard: one closest to ready,
    as its discards keep. In a quarter of the claims on offer in these hands some farther
    hand scores higher in the race model, and hard once claimed for that hand."""
    from sxmj.bots.analysis import after_claim, analyse, distinct_tiles, minus
    from sxmj.bots.hard import HardStrategy
    from sxmj.game import Phase
    from sxmj.match import Match
    from sxmj.winning import Shape

    hard = HardStrategy()
    claims = farther_scores_higher = 0
    for seed in range(6):
        m = Match(seed=seed)
        g = m.game
        bots = [Bot("hard", seed=seed + s) for s in range(4)]
        while not g.over:
            seat = g.to_move()[0]
            obs, legal = g.observation(seat), g.legal_actions(seat)
            for a in (a for a in legal if a.kind in ("chi", "peng")):
                assert obs.phase == Phase.CLAIM and obs.last_discard is not None
                ctx = hard.context(obs)
                shape = Shape.of(obs.playing_hand, ctx.caishen)
                t = obs.last_discard[1]
                after = after_claim(shape, a, t)
                keeps = []
                for x in distinct_tiles(after, ctx.caishen):
                    kept = minus(after, x, ctx.caishen)
                    d, useful, _ = analyse(kept, ctx.sets - 1, ctx.caishen, ctx.unseen)
                    keeps.append((d, hard.hand_value(ctx, kept, d, useful, 3)))
                closest = min(d for d, _ in keeps)
                value = hard.claim_value(ctx, shape, a, t)
                assert value == max(v for d, v in keeps if d == closest)
                claims += 1
                farther_scores_higher += max(v for _, v in keeps) > value
            m.apply(bots[seat].choose(obs, legal).action)
    assert claims > 20 and farther_scores_higher > 0  # the case the rule is for does occur


# ---------------------------------------------------------------- normal

def test_normal_keeps_the_better_wait():
    # Throwing 5p waits on 3p/6p (8 tiles); throwing 4p waits on 5p/1s (4).
    obs = observation("123m456m789m11s455p", "9s", wall=60)
    choice = Bot("normal").choose(obs, turn_legal(obs, False))
    assert choice.action == Action(0, "discard", tile("5p"))
    assert "3, 6 Dots" in choice.reason and "12 still unseen" in choice.reason  # 4 财神 too


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_wins_a_plain_win_late(level):
    obs = observation("123m456p789s111z9p9p", "5m", wall=2, last="9p")
    assert Bot(level).choose(obs, turn_legal(obs, True)).action.kind == "hu"


def test_normal_claims_a_chi_that_brings_it_closer_and_passes_a_useless_one():
    # Left neighbour (seat 3) throws 3m; 12m + 3m completes a chow.
    obs = observation("12m456p789s11z5s9s2p", "5m", phase="claim",
                      last_discard=(3, "3m"))
    legal = [Action(0, "chi", None, (0, 1, 2)), Action(0, "pass")]
    assert Bot("normal").choose(obs, legal).action.kind == "chi"
    # Ready on 1z/2p already: a peng would only change the wait.
    obs = observation("123m456p789s11z22p", "5m", phase="claim",
                      last_discard=(3, "1z"))
    legal = [Action(0, "peng", tile("1z")), Action(0, "pass")]
    assert Bot("normal").choose(obs, legal).action.kind == "pass"


# ---------------------------------------------------------------- easy

def test_easy_never_throws_the_caishen_for_nothing():
    obs = observation("5m1m4m9m2p6p9p3s7s1z2z3z4z4z", "5m", wall=70)
    for seed in range(30):
        choice = Bot("easy", seed=seed).choose(obs, turn_legal(obs, False))
        assert choice.action.tile != tile("5m")


def test_easy_always_wins_when_it_can():
    obs = observation("123m456p789s111z5m5m", "5m", wall=80, last="5m")
    for seed in range(10):
        assert Bot("easy", seed=seed).choose(obs, turn_legal(obs, True)).action.kind == "hu"


# ---------------------------------------------------------------- all levels

@pytest.mark.parametrize("seats", [("hard", "normal", "easy", "normal"),
                                   ("easy", "hard", "hard", "normal")])
def test_bots_play_legal_hands_with_reasons(seats):
    rng = Rng(17)
    for h in range(6):
        game = Game(Wall.shuffled(rng.fork(h + 1)), dealer=h % 4)
        bots = [Bot(lv, seed=h * 4 + s) for s, lv in enumerate(seats)]
        checker = Checker()
        while not game.over:
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            choice = bots[seat].choose(game.observation(seat), legal)
            assert choice.action in legal
            assert choice.reason.strip() and choice.reason_zh.strip()
            game.apply(choice.action)
            checker.after_action(game, "test")
        assert not checker.violations


def test_bots_see_only_the_observation():
    """The same observation gives the same choice, whatever the hidden tiles are."""
    rng = Rng(3)
    game = Game(Wall.shuffled(rng.fork(1)), dealer=0)
    obs = game.observation(0)
    legal = game.legal_actions(0)
    other = Game(Wall.shuffled(rng.fork(2)), dealer=0)
    assert other.wall.tiles != game.wall.tiles
    for level in LEVELS:
        assert Bot(level, seed=1).choose(obs, legal) == Bot(level, seed=1).choose(obs, legal)


def test_a_hand_with_three_hard_bots_ends():
    rng = Rng(9)
    game = Game(Wall.shuffled(rng.fork(1)), dealer=0)
    result = play_hand(game, [Bot("hard", seed=s) for s in range(4)], Checker())
    assert sum(result.payments) == 0


def test_tournament_json_contract_and_its_bot_factory(capsys):
    from sxmj.cli import main
    from sxmj.simulate import tournament
    assert main(["tournament", "--hands", "2", "--seed", "3", "--seats",
                 "hard,normal,easy,normal", "--json"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(last["levels"]) == {"hard", "normal", "easy"}
    for r in last["levels"].values():
        assert set(r) >= {"mean", "ci95", "win_rate", "p95_ms"}
        assert r["ci95"][0] <= r["mean"] <= r["ci95"][1] and 0 <= r["win_rate"] <= 1
    # every seat's bot is built by the factory, beside the game it plays
    built = []

    def make_bot(level, seed, game):
        built.append((level, game))
        return Bot("normal", seed=seed)

    again = tournament(2, 3, ["x", "normal", "normal", "normal"], make_bot=make_bot)
    assert len(built) == 2 * 4 * 4 and {lv for lv, _ in built} == {"x", "normal"}
    assert all(isinstance(g, Game) for _, g in built)
    assert again["x"]["win_rate"] >= 0 and set(again) == {"x", "normal"}


def test_tournament_jobs_split_the_walls_and_give_the_same_figures(capsys):
    from sxmj.cli import main
    args = ["tournament", "--hands", "3", "--seed", "4", "--seats",
            "hard,normal,easy,normal", "--json"]
    figures = []
    for jobs in ("1", "2"):
        assert main(args + ["--jobs", jobs]) == 0
        levels = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["levels"]
        # decision times differ from run to run; the points and wins may not
        figures.append({lv: (r["mean"], r["ci95"], r["win_rate"]) for lv, r in levels.items()})
    assert figures[0] == figures[1]


# 承包: a discard that may feed a third claim is weighed like any other

def _turns_of_hard_play(seed: int, count: int) -> list[tuple[Observation, list[Action]]]:
    """Seat turns (a discard to choose) met while four hards play a hand off wall ``seed``."""
    game = Game(Wall.shuffled(Rng(seed).fork(1)), dealer=0)
    bots = [Bot("hard", seed=s) for s in range(4)]
    turns = []
    while game.to_move() and len(turns) < count:
        seat = game.to_move()[0]
        obs, legal = game.observation(seat), game.legal_actions(seat)
        if obs.phase == "turn" and sum(a.kind == "discard" for a in legal) > 1:
            turns.append((obs, legal))
        game.apply(bots[seat].choose(obs, legal).action)
    return turns


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), at=st.integers(0, 11),
       claims=st.lists(st.integers(0, 2), min_size=16, max_size=16))
def test_hard_does_not_shun_a_discard_that_may_feed_a_third_claim(seed, at, claims):
    """Whoever has claimed our discards twice, hard throws what it would throw otherwise: the
    contract binds both ways (they pay 5 if we win, we pay 3 if they win); shunning such
    discards cost 0.3 points a hand (bench/contract_fear.py)."""
    turns = _turns_of_hard_play(seed, at + 1)
    obs, legal = turns[min(at, len(turns) - 1)]
    matrix = tuple(tuple(0 if i == j else claims[4 * i + j] for j in range(4))
                   for i in range(4))
    bound = dataclasses.replace(obs, claims=matrix)
    free = dataclasses.replace(obs, claims=((0,) * 4,) * 4)
    assert Bot("hard").choose(bound, legal).action == Bot("hard").choose(free, legal).action
