"""Built-in scenarios play out as coached, and bad scenario data is explained."""

from __future__ import annotations

import pytest

from sxmj.bots import ScriptedTable
from sxmj.game import Action
from sxmj.scenarios import BUILTIN, Scenario, ScenarioError, builtin


def play_as_coached(scenario: Scenario, limit: int = 200):
    match = scenario.start()
    g = match.game
    coached = []
    for _ in range(limit):
        if g.over:
            break
        seat = g.to_move()[0]
        if seat == 0:
            coach = scenario.coaching(g)
            legal = g.legal_actions(0)
            if coach and coach.suggest and Action.parse(coach.suggest) in legal:
                action = Action.parse(coach.suggest)
                coached.append(coach.suggest)
            else:
                action = next((a for a in legal if a.kind == "pass"), None) or \
                    next(a for a in legal if a.kind == "discard" and a.tile == g.last_tile) \
                    if any(a.kind == "discard" and a.tile == g.last_tile for a in legal) \
                    else next(a for a in legal if a.kind in ("pass", "discard"))
        else:
            action = ScriptedTable(scenario.script, [str(a) for a in g.actions]).action(g, seat)
        match.apply(action)
    return match, coached


@pytest.mark.parametrize("name", [n for n, s in BUILTIN.items() if s["expect"]])
def test_following_the_coach_reaches_the_goal(name: str) -> None:
    scenario = builtin(name)
    match, coached = play_as_coached(scenario)
    r = match.game.result
    assert r is not None and r.winner == scenario.expect["winner"], coached
    assert r.patterns == scenario.expect["patterns"]
    if "robbed" in scenario.expect:
        assert r.robbed == scenario.expect["robbed"]
    if "payments" in scenario.expect:
        assert r.payments == scenario.expect["payments"]
    suggested = [c.suggest for c in scenario.coach if c.suggest]
    assert coached == suggested  # every hint was offered at its moment, in order


def test_piao_round_blocks_the_pair_holder() -> None:
    scenario = builtin("piao-round")
    match = scenario.start()
    g = match.game
    blocked_seen = False
    while not g.over and len(g.actions) < 12:
        seat = g.to_move()[0]
        if seat == 0 and g.phase == "turn":
            break
        if g.last_discard and g.last_discard[1] == 13 and g.piao_block:  # 5p on the table
            assert 0 not in g.to_move()
            blocked_seen = True
        match.apply(ScriptedTable(scenario.script, [str(a) for a in g.actions]).action(g, seat))
        if g.actions and str(g.actions[-1]) == "2 discard 5p":
            assert "peng" not in [a.kind for a in g.legal_actions(0)]
            blocked_seen = True
    assert blocked_seen
    assert scenario.coaching(g) is not None


def test_dadiao_stands_one_caishen_beside_four_claimed_sets() -> None:
    scenario = builtin("dadiao")
    match, coached = play_as_coached(scenario)
    g = match.game
    r = g.result
    assert [m.kind for m in g.melds[0]] == ["peng"] * 4
    assert len(r.evaluation.groups) == 1  # the pair: the drawn tile and the standing 财神
    assert r.evaluation.pattern_fan == {"baotou": 1, "dadiao": 1} and r.evaluation.fan == 2
    # the claims came from three different players: no contract
    assert max(g.claims[0]) < 3 and r.reasons == ["winner", "share", "share", "share"]
    assert coached[-1] == "0 hu"


def test_chengbao_the_fed_player_pays_three_shares() -> None:
    scenario = builtin("chengbao")
    match, _ = play_as_coached(scenario)
    g = match.game
    r = g.result
    assert g.claims[0] == [0, 0, 0, 3]  # seat 0 claimed seat 3's discards three times
    assert r.reasons == ["winner", "share", "share", "contract3"]
    share = r.evaluation.share
    assert r.payments == [5 * share, -share, -share, -3 * share] == scenario.expect["payments"]
    assert sum(r.payments) == 0


def test_chengbao_coach_names_the_contract_at_the_third_claim() -> None:
    scenario = builtin("chengbao")
    third = next(c for c in scenario.coach if c.suggest == "0 chi 789m")
    assert "承包" in third.zh and "承包" in third.en and "three shares" in third.en


@pytest.mark.parametrize(("data", "message"), [
    ("nope", "expected a JSON object"),
    ({"name": "x"}, "title: is required"),
    ({**BUILTIN["baotou"], "hands": ["1m"]}, "hands: give four hands"),
    ({**BUILTIN["baotou"], "hands": ["11111m", "", "", ""]}, "too many copies of 1m"),
    ({**BUILTIN["baotou"], "dealer": 7}, "dealer: must be a seat"),
    ({**BUILTIN["baotou"], "script": ["0 dance"]}, "script: not an action"),
    ({**BUILTIN["baotou"], "title": {"zh": "x"}}, "title: needs zh and en"),
    ({**BUILTIN["baotou"], "options": {"fan_cap": "x"}}, "fan_cap"),
])
def test_bad_scenarios_are_explained(data, message) -> None:
    with pytest.raises(ScenarioError, match=message):
        Scenario.from_dict(data)


def test_unknown_builtin_lists_the_known_ones() -> None:
    with pytest.raises(ScenarioError, match="known: baotou"):
        builtin("nope")
