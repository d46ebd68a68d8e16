"""The hand state machine: deal, flowers, claims, kongs, 抢杠, 飘 round, 臭庄, payments."""

from __future__ import annotations

import pytest

from sxmj.game import Action, Game, IllegalAction
from sxmj.match import Match
from sxmj.rules import Options
from sxmj.tiles import caishen_of, code, tile
from sxmj.wall import Rng, Wall, WallError

# Four full hands (dealer first, 14 tiles) so that no random filler interferes.
CLAIM_HANDS = ["3m999m111p222p567s1z", "45m777p888p123s22z", "33m444p555p666p33z",
               "678m999p789s44z1z2z"]


def game(hands=CLAIM_HANDS, draws="", replacements="", indicator="8s", dealer=0, **opts):
    wall = Wall.arrange(hands, draws=draws, replacements=replacements, indicator=indicator,
                        dealer=dealer)
    return Game(wall, dealer, Options(**opts))


def acts(g: Game, seat: int) -> list[str]:
    return [str(a) for a in g.legal_actions(seat)]


@pytest.mark.parametrize(("indicator", "caishen"), [("5m", "6m"), ("9m", "1m"), ("9p", "1p"),
                                                    ("3z", "4z"), ("4z", "1z"), ("5z", "1z"),
                                                    ("7z", "1z"), ("3f", "1z")])
def test_caishen_is_the_tile_after_the_indicator(indicator, caishen) -> None:
    assert code(caishen_of(tile(indicator))) == caishen


def test_shuffled_wall_deals_14_and_13_from_144_tiles() -> None:
    g = Game(Wall.shuffled(Rng(9)), dealer=2)
    assert g.tile_count() == 144
    sizes = [sum(g.hands[s]) + len(g.flowers[s]) for s in range(4)]
    # the dealer laid open their flowers on their first turn and replaced them
    assert sizes[2] - len(g.flowers[2]) == 14
    assert [sizes[s] for s in (0, 1, 3)] == [13, 13, 13]
    assert g.wall.indicator not in g.wall.live() or g.wall.live().count(g.wall.indicator) < 4


def test_explicit_wall_must_hold_every_tile_once() -> None:
    tiles = Wall.shuffled(Rng(1)).tiles
    with pytest.raises(WallError, match="appears"):
        Wall.from_tiles(tiles[:-1] + [tiles[0]], tile("1m"))


def test_dealt_flowers_wait_for_the_players_first_turn() -> None:
    hands = ["3m999m111p222p567s1z", "45m777p888p123s2z1f", "33m444p555p666p33z",
             "678m999p789s44z1z2z"]
    g = game(hands, draws="9s", replacements="6m")
    assert g.hands[1][tile("1f")] == 1 and g.flowers[1] == []
    g.apply("0 discard 1z")
    # seat 1's turn: the dealt 1f goes down and 6m comes from the tail, then the head draw
    assert g.flowers[1] == [tile("1f")]
    assert g.hands[1][tile("1f")] == 0 and g.hands[1][tile("6m")] == 1
    assert g.last_tile == tile("9s")


def test_a_drawn_flower_is_replaced_from_the_tail_repeatedly() -> None:
    g = game(draws="2f", replacements="3f5m")
    g.apply("0 discard 1z")
    assert g.flowers[1] == [tile("2f"), tile("3f")]
    assert g.last_tile == tile("5m")
    assert g.chain_flowers == 2


def test_chi_only_for_the_next_player_and_peng_beats_chi() -> None:
    g = game()
    g.apply("0 discard 3m")
    assert "1 chi 345m" in acts(g, 1)
    assert all("chi" not in a for a in acts(g, 2))
    assert "2 peng 3m" in acts(g, 2)
    assert g.to_move() == [1, 2]
    g.apply("1 chi 345m")
    assert g.phase == "claim"  # the chi waits for the peng decision
    g.apply("2 peng 3m")
    assert g.turn == 2 and g.melds[2][0].kind == "peng" and g.melds[1] == []
    assert g.claims[2][0] == 1
    assert all(a.startswith("2 discard") for a in acts(g, 2))  # no kong or win after a claim


def test_chi_taken_when_the_peng_player_passes() -> None:
    g = game()
    g.apply("0 discard 3m")
    g.apply("2 pass")
    g.apply("1 chi 345m")
    assert g.turn == 1 and str(g.melds[1][0]) == "chi 345m"
    assert g.discards[0][-1] == (tile("3m"), 1)


def test_no_discard_wins() -> None:
    g = game()
    g.apply("0 discard 3m")
    with pytest.raises(IllegalAction, match="no discard wins"):
        g.apply("1 hu")


def test_illegal_actions_raise_and_change_nothing() -> None:
    g = game()
    before = [g.observation(s) for s in range(4)]
    for bad in ["1 discard 4m", "0 discard 5m", "0 peng 9m", "2 pass", "0 angang 9m",
                "0 chi 123m", "9 discard 1m", "0 fly 1m", "0 discard", "0 hu"]:
        with pytest.raises(IllegalAction) as e:
            g.apply(bad)
        assert bad.split()[1] in str(e.value) or "not an action" in str(e.value)
    assert [g.observation(s) for s in range(4)] == before


def test_caishen_discard_cannot_be_claimed_and_opens_the_piao_round() -> None:
    hands = ["9s999m111p222p567s1z", "45m777p888p123s22z", "33m444p555p666p33z",
             "678m999p789s44z1z2z"]
    # seat 1 draws 3m and throws it: seat 2 holds 33m but the 飘 round blocks it
    g = game(hands, draws="3m")
    g.apply("0 discard 9s")
    assert g.phase == "turn" and g.turn == 1  # nobody could claim the 财神
    assert g.piao_block == {0}
    g.apply("1 discard 3m")
    assert g.turn == 2 and g.melds[2] == []
    g2 = game(hands, draws="3m", piao_blocks_claims=False)
    g2.apply("0 discard 9s")
    g2.apply("1 discard 3m")
    assert "2 peng 3m" in acts(g2, 2)


def test_the_piao_discarder_may_still_claim() -> None:
    hands = ["9s99m111p222p567s11z", "45m777p888p123s22z", "33m444p555p666p33z",
             "678m999p789s44z2z3z"]
    g = game(hands, draws="1z", indicator="8s")
    g.apply("0 discard 9s")
    g.apply("1 discard 1z")
    assert "0 peng 1z" in acts(g, 0)


def test_concealed_kong_draws_from_the_tail_and_scores_gangkai() -> None:
    hands = ["1111m234m567m89m55p", "", "", ""]
    g = game(hands, replacements="7m", indicator="8s")
    assert "0 angang 1m" in acts(g, 0)
    g.apply("0 angang 1m")
    assert g.last_tile == tile("7m") and g.chain_kongs == 1
    assert "0 hu" in acts(g, 0)
    g.apply("0 hu")
    assert g.result.winner == 0
    assert "gangkai" in g.result.patterns and g.result.win_by == "kong"


ROB_HANDS = ["3m999m111p222p567s1z", "45m777p888p123s2z3z", "333m444p555p666p3z",
             "12m456m789m55s678s"]


def test_added_kong_can_be_robbed_and_the_robbed_player_pays_all() -> None:
    g = game(ROB_HANDS, draws="4z4z4z4z", indicator="8s")
    g.apply("0 discard 3m")
    g.apply("1 pass")
    g.apply("2 peng 3m")
    g.apply("2 discard 3z")
    for seat in (3, 0, 1):
        g.apply(f"{seat} discard 4z")
    assert "2 jiagang 3m" in acts(g, 2)
    g.apply("2 jiagang 3m")
    assert g.phase == "rob" and acts(g, 3) == ["3 hu", "3 pass"]
    g.apply("3 hu")
    r = g.result
    assert r.winner == 3 and r.robbed == 2 and r.patterns == ["qianggang"]
    assert r.payments[2] == -3 * r.evaluation.share and r.payments[0] == r.payments[1] == 0
    assert g.tile_count() == 144


def test_added_kong_completes_when_nobody_robs() -> None:
    g = game(ROB_HANDS, draws="4z4z4z4z", replacements="9p", indicator="8s")
    g.apply("0 discard 3m")
    g.apply("1 pass")
    g.apply("2 peng 3m")
    g.apply("2 discard 3z")
    for seat in (3, 0, 1):
        g.apply(f"{seat} discard 4z")
    g.apply("2 jiagang 3m")
    g.apply("3 pass")
    assert str(g.melds[2][0]) == "jiagang 3333m" and g.last_tile == tile("9p")


def test_a_single_wait_cannot_rob() -> None:
    hands = ROB_HANDS[:3] + ["5m123p456p789p123s"]  # waits on 5m alone: 单吊
    g = game(hands, draws="4z4z4z4z", indicator="8s")
    g.apply("0 discard 3m")
    g.apply("1 pass")
    g.apply("2 peng 3m")
    g.apply("2 discard 3z")
    for seat in (3, 0, 1):
        g.apply(f"{seat} discard 4z")
    g.apply("2 jiagang 3m")
    assert g.phase == "turn"  # nobody could rob: 3m is not 5m, and no 财神 pairing is allowed


def test_exhausted_wall_is_a_drawn_hand_with_no_payment() -> None:
    m = Match(seed=11, options=Options(reserved_tiles=40))
    g = m.game
    dealer = m.dealer
    while not g.over:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        passing = [a for a in legal if a.kind == "pass"]
        discards = [a for a in legal if a.kind == "discard"]
        m.apply(passing[0] if passing else discards[-1])
    assert g.result.winner is None and g.result.payments == [0, 0, 0, 0]
    assert g.wall.remaining == 40
    m.next_hand()
    assert m.dealer == dealer  # 臭庄: the dealer keeps the deal


def test_tianhu_for_the_dealer_on_the_dealt_hand() -> None:
    g = game(["123m456m789m123p55p", "", "", ""], indicator="8s")
    assert "0 hu" in acts(g, 0)
    g.apply("0 hu")
    assert g.result.patterns == ["tianhu"] and g.result.evaluation.fan == 3


def test_dihu_on_a_first_draw_before_any_claim() -> None:
    g = game(["3m999m111p222p567s1z", "123m456m789m123p5p", "", ""], draws="5p",
             indicator="8s")
    g.apply("0 discard 1z")
    while g.phase == "claim":
        g.apply(Action(g.to_move()[0], "pass"))
    assert g.turn == 1 and "1 hu" in acts(g, 1)
    g.apply("1 hu")
    assert g.result.patterns == ["dihu"]


def test_dealer_rotation_and_zero_sum_scores_across_a_match() -> None:
    from sxmj.bots import Bot
    from sxmj.simulate import play_match_hand
    m = Match(seed=4)
    bots = [Bot("normal", seed=i) for i in range(4)]
    for _ in range(6):
        dealer = m.dealer
        r = play_match_hand(m, bots)
        assert sum(m.scores) == 0
        expected = dealer if r.winner in (None, dealer) else r.winner
        assert m.next_dealer() == expected
        m.next_hand()
        assert m.dealer == expected


def test_observation_hides_other_hands_and_the_wall() -> None:
    g = Game(Wall.shuffled(Rng(3)), dealer=0)
    obs = g.observation(1)
    assert list(obs.hand) == g.concealed(1)
    fields = set(obs.to_json())
    assert not fields & {"hands", "wall_tiles", "tiles"}  # no other hand, no wall
    assert obs.hand_counts[0] == sum(g.hands[0])
    assert obs.last_tile is None  # seat 1 doesn't see what seat 0 drew


def test_contract_counts_claims_between_two_players() -> None:
    g = game()
    g.apply("0 discard 3m")
    g.apply("1 pass")
    g.apply("2 peng 3m")
    assert g.claims[2][0] == 1 and sum(map(sum, g.claims)) == 1
