"""Every 番 pattern, every 花 rule, every payment rule and option (RULES.md §6–§10)."""

from __future__ import annotations

import pytest

from sxmj.rules import Options
from sxmj.scoring import evaluate_notation as ev
from sxmj.scoring import settle, settle_detail

FOUR_MELDS = ["peng 111m", "peng 999p", "chi 234s", "angang 6666s"]
KONG = ["angang 2222s"]  # a 杠开 needs the kong that made its replacement (RULES §12)
KONGS2 = ["angang 2222s", "angang 4444m"]

# (hand, win tile, 财神, keyword arguments, patterns, 番, 花)
PATTERN_CASES = [
    ("plain win", "123m456m789m123p55p", "5p", "9s", {}, [], 0, 0),
    ("暴头", "123m456m789m123p5p9s", "5p", "9s", {}, ["baotou"], 1, 1),
    ("暴头 drawing a 财神 onto a held 财神", "123m456m789m123p9s9s", "9s", "9s", {},
     ["baotou"], 1, 2),
    ("a drawn 财神 pairing a natural tile is not 暴头", "123m456m789m123p5p9s", "9s", "9s",
     {}, [], 0, 1),
    ("财飘 = 暴头 + 1 飘", "123m456m789m123p5p9s", "5p", "9s", {"piao": 1},
     ["baotou", "piao"], 2, 1),
    ("飘 scores only with 暴头", "123m456m789m123p55p", "5p", "9s", {"piao": 1}, [], 0, 0),
    ("杠开", "456m789m123p55p", "5p", "9s", {"win_by": "kong", "melds": KONG}, ["gangkai"],
     1, 2),
    ("杠开 after two kongs in a row", "789m123p55p", "5p", "9s",
     {"win_by": "kong", "replacements": 2, "melds": KONGS2}, ["gangkai"], 2, 4),
    ("杠爆 = 杠开 + 暴头", "456m789m123p5p9s", "5p", "9s", {"win_by": "kong", "melds": KONG},
     ["baotou", "gangkai"], 2, 3),
    ("杠开 on a flower replacement (杠花)", "123m456m789m123p55p", "5p", "9s",
     {"win_by": "flower", "flowers": "1f"}, ["gangkai"], 1, 1),
    ("flower replacement without flower_is_kong", "123m456m789m123p55p", "5p", "9s",
     {"win_by": "flower", "flowers": "1f", "options": Options(flower_is_kong=False)}, [], 0, 1),
    ("大吊", "55p", "5p", "9s", {"melds": FOUR_MELDS}, ["dadiao"], 1, 2),
    ("大吊爆头", "5p9s", "5p", "9s", {"melds": FOUR_MELDS}, ["baotou", "dadiao"], 2, 3),
    ("大吊杠开", "55p", "5p", "9s", {"melds": FOUR_MELDS, "win_by": "kong"},
     ["gangkai", "dadiao"], 2, 2),
    ("大吊杠爆", "5p9s", "5p", "9s", {"melds": FOUR_MELDS, "win_by": "kong"},
     ["baotou", "gangkai", "dadiao"], 3, 3),
    ("大吊财飘", "5p9s", "5p", "9s", {"melds": FOUR_MELDS, "piao": 1},
     ["baotou", "piao", "dadiao"], 3, 3),
    ("飘杠爆", "456m789m123p5p9s", "5p", "9s", {"piao": 1, "win_by": "kong", "melds": KONG},
     ["baotou", "piao", "gangkai"], 3, 3),
    ("杠财飘 = 杠开 + 财飘", "456m789m123p5p9s", "5p", "9s",
     {"piao": 1, "win_by": "kong", "melds": KONG}, ["baotou", "piao", "gangkai"], 3, 3),
    ("三番到底 caps 4 番 at 3", "456m789m123p5p9s", "5p", "9s",
     {"piao": 2, "win_by": "kong", "melds": KONG}, ["baotou", "piao", "gangkai"], 3, 3),
    ("抢杠", "123m456m789m12p3p55p", "3p", "9s", {"win_by": "rob"}, ["qianggang"], 1, 0),
    ("天胡", "123m456m789m123p55p", "5p", "9s", {"first_turn": True, "dealer": True},
     ["tianhu"], 3, 0),
    ("地胡", "123m456m789m123p55p", "5p", "9s", {"first_turn": True}, ["dihu"], 3, 0),
    ("全风 without sets", "4z4z1z2z3z", "4z", "9s",
     {"melds": ["peng 111z", "peng 222z", "peng 333z"]}, ["quanfeng"], 3, 3),
    ("全风 with a 财神 counting as a wind", "4z4z1z2z9s", "4z", "9s",
     {"melds": ["peng 111z", "peng 222z", "peng 333z"]}, ["quanfeng"], 3, 4),
    ("concealed wind pung and 暴头 in one reading", "123m456m789m111z5p9s", "5p", "9s", {},
     ["baotou"], 1, 2),
    ("fan_cap option", "123m456m789m123p5p9s", "5p", "9s",
     {"piao": 1, "options": Options(fan_cap=1)}, ["baotou", "piao"], 1, 1),
]


@pytest.mark.parametrize(("name", "hand", "win", "caishen", "kw", "patterns", "fan", "flowers"),
                         PATTERN_CASES, ids=[c[0] for c in PATTERN_CASES])
def test_patterns(name, hand, win, caishen, kw, patterns, fan, flowers) -> None:
    r = ev(hand, win, caishen, **kw)
    assert r.win, r.reason
    assert r.patterns == patterns
    assert r.fan == fan
    assert r.flowers == flowers
    base = kw.get("options", Options()).base_flowers
    assert r.share == 2 ** fan * (base + flowers)


NOT_WINS = [
    ("not a winning shape", "123m456m789m123p56p", "6p", "9s", {}, "not a winning hand"),
    ("抢杠 pairing the robbed tile with a 财神", "123m456m789m123p5p9s", "5p", "9s",
     {"win_by": "rob"}, "抢杠 not allowed"),
    ("有财必暴 refuses a 财神 win without 暴头", "123m456m789m12p9s55p", "5p", "9s",
     {"options": Options(baotou_required=True)}, "有财必暴"),
]


@pytest.mark.parametrize(("name", "hand", "win", "caishen", "kw", "reason"), NOT_WINS,
                         ids=[c[0] for c in NOT_WINS])
def test_not_wins(name, hand, win, caishen, kw, reason) -> None:
    r = ev(hand, win, caishen, **kw)
    assert not r.win
    assert reason in r.reason
    assert r.explain("zh") and r.explain("en")


def test_baotou_required_allows_the_caishen_standing_as_itself() -> None:
    # 9s 9s 9s as a pung of themselves, 5p pair
    r = ev("123m456m789m999s55p", "5p", "9s", options=Options(baotou_required=True))
    assert r.win
    # and 暴头 is always fine
    assert ev("123m456m789m123p5p9s", "5p", "9s",
              options=Options(baotou_required=True)).patterns == ["baotou"]


def test_tianhu_and_dihu_never_on_a_rob() -> None:
    r = ev("123m456m789m12p3p55p", "3p", "9s", win_by="rob", first_turn=True)
    assert r.patterns == ["qianggang"]


FLOWER_CASES = [
    ("each flower laid open", {"flowers": "1f2f7z"}, 3),
    ("each 财神 in the hand", {"hand": "123m456m789m555p9s9s", "caishen": "9s"}, 2),
    ("exposed wind pung", {"melds": ["peng 111z"], "hand": "456m789m123p55p"}, 1),
    ("concealed wind pung", {"hand": "111z456m789m123p55p"}, 1),
    ("exposed wind kong", {"melds": ["minggang 1111z"], "hand": "456m789m123p55p"}, 2),
    ("added wind kong counts as exposed", {"melds": ["jiagang 1111z"],
                                           "hand": "456m789m123p55p"}, 2),
    ("concealed wind kong", {"melds": ["angang 1111z"], "hand": "456m789m123p55p"}, 3),
    ("other exposed kong", {"melds": ["minggang 1111m"], "hand": "456m789m123p55p"}, 1),
    ("other concealed kong", {"melds": ["angang 1111m"], "hand": "456m789m123p55p"}, 2),
    ("a chow or a suited pung scores nothing", {"melds": ["chi 123m", "peng 999p"],
                                                "hand": "456m789m55p"}, 0),
]


@pytest.mark.parametrize(("name", "kw", "flowers"), FLOWER_CASES, ids=[c[0] for c in FLOWER_CASES])
def test_flower_points(name, kw, flowers) -> None:
    kw = dict(kw)
    hand = kw.pop("hand", "123m456m789m123p55p")
    caishen = kw.pop("caishen", "9s")
    r = ev(hand, "5p", caishen, **kw)
    assert r.win, r.reason
    assert r.flowers == flowers
    assert sum(points for _, _, points in r.flower_items) == flowers


def test_explanation_lists_every_item_and_the_formula() -> None:
    r = ev("123m456m789m111z5p9s", "5p", "9s", flowers="1f", options=Options(base_flowers=10))
    en = "\n".join(r.explain("en"))
    zh = "\n".join(r.explain("zh"))
    assert "暴头 Bao Tou" in en and "1 番" in en
    assert "pung of a wind" in en and "flower tile laid open" in en
    assert "2^1 × (10 + 3) = 2 × 13 = 26" in en
    assert "风刻" in zh and "每家 = 2^1 × (10 + 3)" in zh
    assert r.share == 26


PAYMENTS = [
    ("each other player pays one share", dict(winner=0), [30, -10, -10, -10]),
    ("抢杠: the robbed player pays three shares", dict(winner=1, robbed=3), [0, 30, 0, -30]),
    ("飘 penalty", dict(winner=2, piao_seats=[0]), [-30, 0, 30, 0]),
    ("two 飘 chains each pay three", dict(winner=2, piao_seats=[0, 3]), [-30, 0, 60, -30]),
    ("承包: winner claimed B's discards 3 times, B pays 3",
     dict(winner=0, claims=[[0, 3, 0, 0], [0] * 4, [0] * 4, [0] * 4]), [50, -30, -10, -10]),
    ("承包: A claimed the winner's discards 3 times, A pays 5",
     dict(winner=0, claims=[[0] * 4, [3, 0, 0, 0], [0] * 4, [0] * 4]), [70, -50, -10, -10]),
    ("承包 both ways: 5", dict(winner=0, claims=[[0, 3, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4]),
     [70, -50, -10, -10]),
    ("two claims make no contract", dict(winner=0, claims=[[0, 2, 0, 0], [2, 0, 0, 0],
                                                             [0] * 4, [0] * 4]),
     [30, -10, -10, -10]),
    ("抢杠 beats 飘 and contracts", dict(winner=0, robbed=1, piao_seats=[2],
                                      claims=[[0, 0, 3, 0], [0] * 4, [0] * 4, [0] * 4]),
     [30, -30, 0, 0]),
    ("飘 beats contracts", dict(winner=0, piao_seats=[3],
                              claims=[[0, 3, 0, 0], [0] * 4, [0] * 4, [0] * 4]),
     [30, 0, 0, -30]),
    ("contract option off", dict(winner=0, claims=[[0, 3, 0, 0]] + [[0] * 4] * 3,
                                 options=Options(contract=False)), [30, -10, -10, -10]),
]


@pytest.mark.parametrize(("name", "kw", "expected"), PAYMENTS, ids=[p[0] for p in PAYMENTS])
def test_payments(name, kw, expected) -> None:
    amounts = settle(10, **kw)
    assert amounts == expected
    assert sum(amounts) == 0


def test_payment_reasons_name_the_rule() -> None:
    d = settle_detail(10, 0, claims=[[0, 3, 0, 0], [0] * 4, [0] * 4, [3, 0, 0, 0]])
    assert d.reasons == ["winner", "contract3", "share", "contract5"]


def test_baotou_matches_the_brute_force_oracle_on_random_wins() -> None:
    """暴头 is reported exactly when some reading pairs the drawn tile with a 财神."""
    import random

    from oracle import oracle_baotou

    from sxmj.scoring import WinContext, evaluate
    from sxmj.tiles import NUM_PLAYING
    from sxmj.winning import Shape, is_win

    rng = random.Random(5)
    checked = 0
    while checked < 1500:
        caishen = rng.randrange(NUM_PLAYING)
        tiles: list[int] = []
        while len(tiles) < 12:
            if rng.random() < 0.5:
                tiles += [rng.randrange(NUM_PLAYING)] * 3
            else:
                base = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [base, base + 1, base + 2]
        tiles += [rng.randrange(NUM_PLAYING)] * 2
        for i in rng.sample(range(14), rng.randint(0, 3)):
            tiles[i] = caishen
        if any(tiles.count(t) > 4 for t in tiles):
            continue
        win_tile = rng.choice(tiles)
        shape = Shape.of(tiles, caishen)
        if not is_win(shape):
            continue
        r = evaluate(WinContext.of(tiles, win_tile, caishen))
        assert r.win
        naturals = [t for t in tiles if t != caishen]
        wilds = len(tiles) - len(naturals)
        expected = oracle_baotou(naturals, wilds, None if win_tile == caishen else win_tile)
        assert ("baotou" in r.patterns) == expected, (tiles, win_tile, caishen)
        assert r.share == 2 ** r.fan * (5 + r.flowers) and r.fan <= 3
        checked += 1
