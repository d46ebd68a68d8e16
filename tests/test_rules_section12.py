"""RULES.md §12, "Decisions added after the first audit": each case the audit found.

Every test here failed on the code before the decisions were implemented.
"""

from __future__ import annotations

import random

import pytest

from sxmj.game import Action, Game
from sxmj.messages import MESSAGES, CoreError
from sxmj.request import evaluate_json
from sxmj.rules import Options
from sxmj.scoring import InvalidHand
from sxmj.ui.pages.judge import analyse
from sxmj.wall import Rng, Wall


def game(hands: list[str], draws: str = "", replacements: str = "", **opts) -> Game:
    wall = Wall.arrange(hands, draws=draws, replacements=replacements, indicator="8s",
                        flowers_in_fill=False)
    return Game(wall, 0, Options(**opts))


# ------------------------------------------------------------------ engine


def test_a_tianhu_on_a_dealt_flowers_replacement_is_tianhu_alone() -> None:
    g = game(["123m456m789m123p5p1f", "", "", ""], replacements="5p")
    assert "0 hu" in [str(a) for a in g.legal_actions(0)]
    g.apply("0 hu")
    assert g.result.patterns == ["tianhu"] and g.result.win_by == "draw"


def test_a_dihu_after_replacing_dealt_flowers_scores_no_gangkai() -> None:
    g = game(["3m999m111p222p567s1z", "123m456m789m123p1f", "", ""], draws="5p",
             replacements="5p")
    g.apply("0 discard 1z")
    while g.phase == "claim":
        g.apply(Action(g.to_move()[0], "pass"))
    g.apply("1 hu")
    assert g.result.patterns == ["dihu"] and g.result.evaluation.share == 8 * (5 + 1)


def test_a_first_turn_reached_by_a_minggang_counts_the_kong_once() -> None:
    hands = ["7p111m222m333m456s4z", "111z222z333z44z66s", "777p123m456m789m1f",
             "123p123p456p789s7m"]
    g = game(hands, replacements="5s5s")
    g.apply("0 discard 7p")
    g.apply("2 minggang 7p")
    g.apply("2 hu")
    assert g.result.patterns == ["gangkai"] and g.result.evaluation.pattern_fan["gangkai"] == 1


PIAO_HANDS = ["3m999m111p222p567s1z", "45m777p888p123s22z", "33m9s9s444p555p123s",
              "678m999p789s44z1z2z"]


def test_a_caishen_thrown_right_after_a_peng_is_no_piao() -> None:
    g = game(PIAO_HANDS)
    g.apply("0 discard 3m")
    g.apply("2 peng 3m")
    assert not g.can_win_now(2)  # after a peng no win is legal: nothing is passed up
    g.apply("2 discard 9s")
    assert g.piao_chain[2] == 0
    assert g.piao_block == {2}  # the 飘 round follows every 财神 discard all the same


def test_a_caishen_thrown_while_a_win_is_legal_is_piao() -> None:
    g = game(["9s9s444p555p123s678m", "", "", ""])  # two 财神 and four sets: a win
    assert g.can_win_now(0)
    g.apply("0 discard 9s")
    assert g.piao_chain[0] == 1


ROB_HANDS = ["3m12m111p222p567s99m", "45m777p888p123s2z3z", "333m444p555p666p3z",
             "12m456m789m55s678s"]


def _to_the_rob(g: Game) -> None:
    g.apply("0 discard 3m")
    g.apply("1 pass")
    g.apply("2 peng 3m")
    g.apply("2 discard 3z")
    for seat in (3, 0, 1):
        g.apply(f"{seat} discard 4z")
    g.apply("2 jiagang 3m")


@pytest.mark.parametrize(("answers", "winner"), [({3: "hu", 0: "hu"}, 3),
                                                 ({3: "pass", 0: "hu"}, 0)])
def test_of_several_robbers_the_first_in_turn_order_wins(answers, winner) -> None:
    g = game(ROB_HANDS, draws="4z4z4z4z")
    _to_the_rob(g)
    assert g.phase == "rob" and g.to_move() == [3, 0]
    for seat in (0, 3):
        g.apply(Action(seat, answers[seat]))
    assert g.result.winner == winner and g.result.robbed == 2
    assert g.result.payments[2] == -3 * g.result.evaluation.share


def test_no_kong_is_offered_without_a_replacement_tile() -> None:
    rng = random.Random(3)
    kongs = 0
    for seed in range(60):
        g = Game(Wall.shuffled(Rng(seed)), seed % 4,
                 Options(reserved_tiles=rng.choice([0, 10, 30])))
        while not g.over:
            seat = g.to_move()[0]
            legal = g.legal_actions(seat)
            for a in legal:
                if a.kind in ("angang", "jiagang", "minggang"):
                    kongs += 1
                    assert g.wall.remaining > g.options.reserved_tiles, a
            g.apply(rng.choice(legal))
    assert kongs > 0  # the walk did meet kongs


# ------------------------------------------------------------------ evaluator

HAND = {"hand": "123m456m789m12p3p55p", "win_tile": "3p", "caishen": "9s"}


@pytest.mark.parametrize(("request_", "field", "code"), [
    ({"hand": "123456789m11p123s", "win_tile": "1s", "caishen": "1s", "win_by": "rob",
      "options": {"baotou_required": True}}, "win_tile", "hand.rob_caishen"),
    ({"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s", "win_by": "rob"},
     "hand", "hand.rob_copies"),
    ({"hand": "12p3p55s", "win_tile": "3p", "caishen": "9s", "win_by": "rob",
      "melds": ["chi 345p", "peng 111m", "peng 999m"]}, "hand", "hand.rob_copies"),
    ({**HAND, "table": {"winner": 0, "piao": [2, 2]}}, "table.piao", "hand.piao_twice"),
    ({**HAND, "table": {"winner": 1.0}}, "table.winner", "field.seat"),
    ({**HAND, "table": {"winner": False}}, "table.winner", "field.seat"),
    ({**HAND, "table": {"winner": 0, "piao": [1.0]}}, "table.piao", "field.seat"),
    ({**HAND, "win_by": "rob", "table": {"winner": 0, "robbed": 1.0}}, "table.robbed",
     "field.seat"),
    ({**HAND, "piao": False}, "piao", "field.count"),
    ({**HAND, "piao": 0.0}, "piao", "field.count"),
    ({**HAND, "replacements": True}, "replacements", "field.count"),
    ({**HAND, "table": {"winner": 0, "claims": [[0.0] * 4] * 4}}, "table.claims", "hand.claims"),
    ({**HAND, "win_by": "kong"}, "win_by", "hand.replacement_source"),
    ({**HAND, "win_by": "flower"}, "win_by", "hand.replacement_source"),
    ({"hand": "456m789m12p3p55p", "win_tile": "3p", "caishen": "9s", "melds": ["angang 2222s"],
      "win_by": "kong", "replacements": 2}, "replacements", "hand.replacements"),
    ({**HAND, "replacements": 1}, "replacements", "hand.replacements_win_by"),
    # without flower_is_kong a flower's replacement is no link of a kong's chain
    ({"hand": "456m789m12p3p55p", "win_tile": "3p", "caishen": "9s", "melds": ["angang 2222s"],
      "flowers": "1f", "win_by": "kong", "replacements": 2,
      "options": {"flower_is_kong": False}}, "replacements", "hand.replacements"),
    # a kong leaves the first turn behind: no 天胡 or 地胡 on its replacement
    ({"hand": "456m789m12p3p55p", "win_tile": "3p", "caishen": "9s", "melds": ["angang 2222s"],
      "win_by": "kong", "first_turn": True, "dealer": True}, "first_turn",
     "hand.first_turn_kong"),
    # no set can be laid down on the first turn: a claim ends it, a kong leaves it behind
    ({"hand": "456m789m123p55p", "win_tile": "5p", "caishen": "9s", "melds": ["peng 111z"],
      "first_turn": True}, "first_turn", "hand.first_turn_melds"),
    ({"hand": "456m789m12p3p55p", "win_tile": "3p", "caishen": "9s", "melds": ["angang 2222s"],
      "first_turn": True, "dealer": True}, "first_turn", "hand.first_turn_melds"),
    # the first turn comes before the winner's first discard: no 飘 yet
    ({"hand": "123m456m789m123p5p9s", "win_tile": "5p", "caishen": "9s", "first_turn": True,
      "dealer": True, "piao": 1}, "piao", "hand.first_turn_piao"),
    # three 9s discarded and two held are five real copies
    ({"hand": "123m456m789m123p9s9s", "win_tile": "9s", "caishen": "9s", "piao": 3}, "piao",
     "hand.piao_copies"),
    ({"hand": "123m456m789m123p5p9s", "win_tile": "5p", "caishen": "9s", "piao": 4}, "piao",
     "hand.piao_copies"),
    ({"hand": "²²²m", "win_tile": "2m", "caishen": "9s"}, "hand", "tile.letter"),
    ({**HAND, "win_tile": "٣p"}, "win_tile", "tile.letter"),
    ({**HAND, "melds": ["peng ²²²m"]}, "melds", "tile.letter"),
])
def test_impossible_requests_are_refused_with_a_code(request_, field, code) -> None:
    with pytest.raises(InvalidHand) as e:
        evaluate_json(request_)
    assert (e.value.field, e.value.code) == (field, code)
    assert e.value.text("zh") != e.value.text("en")


def test_piao_up_to_the_copies_left_is_scored() -> None:
    # one 9s held and three in the river: the most 飘 a hand can have
    out = evaluate_json({"hand": "123m456m789m123p5p9s", "win_tile": "5p", "caishen": "9s",
                         "piao": 3, "options": {"fan_cap": 10}})
    assert out["patterns"] == ["baotou", "piao"] and out["fan"] == 4


def test_dadiao_needs_the_pair_so_never_the_no_set_quanfeng_reading() -> None:
    out = evaluate_json({"hand": "1z2z", "win_tile": "2z", "caishen": "5m",
                         "melds": ["peng 111z", "peng 222z", "peng 333z", "peng 444z"]})
    assert out["patterns"] == ["quanfeng"] and out["fan"] == 3
    paired = evaluate_json({"hand": "2z2z", "win_tile": "2z", "caishen": "5m",
                            "melds": ["peng 111z", "peng 333z", "peng 444z", "chi 123m"]})
    assert paired["patterns"] == ["dadiao"]


def test_baotou_required_restricts_the_no_set_quanfeng_reading() -> None:
    request = {"hand": "1111z2222z3333z4z5m", "win_tile": "4z", "caishen": "5m"}
    assert evaluate_json(request)["patterns"] == ["quanfeng"]
    refused = evaluate_json({**request, "options": {"baotou_required": True}})
    assert not refused["win"] and "有财必暴" in refused["reason"]
    # a wind 财神 stands as itself: 全风 stays allowed
    wind = evaluate_json({"hand": "1z2z3z4z1z2z3z4z2z3z4z2z3z4z", "win_tile": "4z",
                          "caishen": "1z", "options": {"baotou_required": True}})
    assert wind["win"] and "quanfeng" in wind["patterns"]


def test_a_failed_rob_under_baotou_required_names_that_rule() -> None:
    out = evaluate_json({"hand": "123m456m789m12p3p9s5p", "win_tile": "3p", "caishen": "9s",
                         "win_by": "rob", "options": {"baotou_required": True}})
    assert not out["win"] and out["reason"].startswith("有财必暴")
    pair = evaluate_json({"hand": "123m456m789m123p9s5p", "win_tile": "5p", "caishen": "9s",
                          "win_by": "rob"})
    assert not pair["win"] and pair["reason"].startswith("抢杠 not allowed")


def test_waits_include_quanfeng() -> None:
    a = analyse({"hand": "1z2z2z3z4z4z4z1z2z1z", "caishen": "6s", "melds": ["peng 333z"]})
    waits = {w.tile: w.judgement.evaluation.patterns for w in a.waits}
    assert 27 in waits and waits[27] == ["quanfeng"]  # 1z, the example
    assert all("quanfeng" in p for p in waits.values())


def test_a_quanfeng_without_sets_cant_rob_and_says_so() -> None:
    # the reason was "not four sets and a pair", although the hand wins that way on a draw
    hand = {"hand": "1z2z3333z4444z5m", "win_tile": "1z", "caishen": "5m",
            "melds": ["peng 222z"]}
    assert evaluate_json(hand)["patterns"] == ["quanfeng"]
    robbed = evaluate_json({**hand, "win_by": "rob"})
    assert not robbed["win"] and "全风" in robbed["reason"] and "rob" in robbed["reason"]


@pytest.mark.parametrize("fan_cap", [3, 10])
def test_the_dealers_first_turn_flower_replacement_is_the_deals_no_gangkai(fan_cap) -> None:
    # the dealer draws nothing on the first turn: a flower replacement then replaced a
    # dealt flower, and a 天胡 on it is 天胡 alone (the evaluator scored 杠开 + 天胡)
    hand = {"hand": "123m456m789m123p5p5p", "win_tile": "5p", "caishen": "9s",
            "flowers": "1f2f", "win_by": "flower", "first_turn": True,
            "options": {"fan_cap": fan_cap}}
    out = evaluate_json({**hand, "dealer": True, "replacements": 2})
    assert out["patterns"] == ["tianhu"] and out["fan"] == 3
    # the engine agrees: its 天胡 there is a draw win
    g = game(["123m456m789m123p5p1f", "", "", ""], replacements="5p", fan_cap=fan_cap)
    g.apply("0 hu")
    assert g.result.patterns == out["patterns"]
    # a non-dealer's first turn draws: a flower drawn then starts a chain (地胡 + 杠开)
    assert evaluate_json(hand)["patterns"] == ["gangkai", "dihu"]


# ------------------------------------------------------------------ messages


def test_every_message_code_has_both_texts_and_renders_from_its_parameters() -> None:
    import string

    from sxmj.messages import render

    for code, (zh, en) in MESSAGES.items():
        assert zh and en and zh != en, code
        # both are rendered from one set of parameters; each text may leave some out
        names = {f.split("!")[0] for text in (zh, en)
                 for _, f, _, _ in string.Formatter().parse(text) if f}
        params = {n: (4 if n.startswith("tname") else "5m" if n.startswith("tile") else "x")
                  for n in names}
        assert render(code, params, "zh") and render(code, params, "en"), code


def test_an_illegal_action_gives_its_reason_in_both_languages() -> None:
    g = Game(Wall.shuffled(Rng(1)), 0)
    with pytest.raises(CoreError) as e:
        g.apply("1 discard 5m")
    assert e.value.code == "action.illegal"
    assert e.value.reason.code == "action.not_your_turn"
    assert "轮到" in e.value.text("zh") and "turn" in str(e.value)
