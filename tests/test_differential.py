"""The evaluator against the rule book: random requests, two independent answers.

``oracle.oracle_evaluate`` is a brute-force reading of docs/RULES.md (every 财神
substituted, every split tried); the project's ``evaluate_json`` must give the same
refusal, win, 番, patterns, 花, share and payments. Requests are built to be mostly
winning shapes (4 sets + a pair, or all winds) with 财神, melds, kongs, flowers and
every way to win, plus some noise and junk, because random tiles almost never win.

``scripts/bench_differential.py`` runs the same generator without hypothesis and
sorts the disagreements into classes.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import oracle_evaluate

from sxmj.rules import RuleError

try:
    from sxmj.request import evaluate_json
except ImportError:  # the request module is being split out of the CLI
    from sxmj.cli import evaluate_json

WINDS = list(range(27, 31))
SUITS = "mps"


def code(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}" if t < 27 else f"{t - 26}z" if t < 34 else f"{t - 33}f"


def codes(tiles) -> str:
    return "".join(code(t) for t in tiles)


class RandomChooser:
    """The generator's choices from a seeded Random (the script's driver)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def pick(self, seq):
        return seq[self.int(0, len(seq) - 1)]

    def chance(self, percent: int) -> bool:
        # written so that hypothesis, shrinking toward 0, shrinks toward "no"
        return self.int(0, 99) >= 100 - percent


class DrawChooser(RandomChooser):
    """The same choices through hypothesis, so failures shrink."""

    def __init__(self, draw):
        self.draw = draw

    def int(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))


def build_request(ch: RandomChooser) -> dict:
    caishen = ch.int(0, 30)
    all_winds = ch.chance(12)
    used = [0] * 31  # real copies so far: most requests should be possible ones

    def fits(tiles: list[int]) -> bool:
        return all(used[t] + tiles.count(t) <= 4 for t in tiles)

    def some_group() -> list[int]:
        for _ in range(5):
            if all_winds or ch.chance(40):
                g = [ch.pick(WINDS) if all_winds else ch.int(0, 30)] * 3
            else:
                start = ch.int(0, 2) * 9 + ch.int(0, 6)
                g = [start, start + 1, start + 2]
            if fits(g):
                break
        for t in g:
            used[t] += 1
        return g

    groups = [some_group() for _ in range(4)]
    pair = some_group()[:2]  # a pung's kind with room for two
    concealed = list(pair)

    # Melds, kongs among them; a meld can't hold the 财神, that group stays concealed
    melds, kongs = [], 0
    n_melds = ch.pick([0, 0, 1, 2, 3, 4])
    for i, g in enumerate(groups):
        if i >= n_melds or caishen in g:
            concealed += g
        elif g[0] != g[1]:
            melds.append(f"chi {codes(g)}")
        else:
            kind = ch.pick(["peng", "peng", "minggang", "angang", "jiagang"])
            if kind != "peng" and used[g[0]] > 3:
                kind = "peng"
            kongs += kind != "peng"
            melds.append(f"{kind} {codes(g + [g[0]] * (kind != 'peng'))}")

    # Some tiles become 财神 (0-4, few of them: they cost the oracle most); sometimes noise
    for _ in range(ch.pick([0, 0, 1, 1, 2, 2, 3, 4])):
        concealed[ch.int(0, len(concealed) - 1)] = caishen
    if ch.chance(10):
        concealed[ch.int(0, len(concealed) - 1)] = ch.int(0, 30)

    flowers = sorted({ch.int(31, 41) for _ in range(ch.pick([0, 0, 0, 1, 2, 3]))})
    # a kong or flower win mostly has its kong or flower (the rest are refused)
    win_by = ch.pick(["draw", "draw", "kong", "flower", "rob"])
    if (win_by == "kong" and not kongs or win_by == "flower" and not flowers) \
            and not ch.chance(25):
        win_by = "draw"
    win_tile = ch.pick(concealed)
    if win_by == "rob":
        # mostly a tile the robbing hand holds once, as a real 抢杠 would
        meld_tiles = "".join(melds)
        once = [t for t in concealed if t != caishen and concealed.count(t) == 1
                and code(t) not in meld_tiles]
        if once and ch.chance(85):
            win_tile = ch.pick(once)
    req = {"hand": codes(concealed), "win_tile": code(win_tile), "caishen": code(caishen)}
    if melds:
        req["melds"] = melds
    if flowers:
        req["flowers"] = codes(flowers)
    if win_by != "draw":
        req["win_by"] = win_by
    if ch.chance(30):
        chain = kongs + len(flowers) if win_by in ("kong", "flower") else 0
        req["replacements"] = ch.int(0, chain + ch.chance(10))
    if ch.chance(20):
        req["piao"] = ch.int(1, 2)
    if ch.chance(15):
        req["first_turn"] = True
    if ch.chance(50):
        req["dealer"] = True
    if ch.chance(20):
        req["base_flowers"] = ch.pick([5, 10, 15, 20, 25])
    options = {}
    if ch.chance(30):
        options["baotou_required"] = True
    if ch.chance(20):
        options["flower_is_kong"] = False
    if ch.chance(20):
        options["fan_cap"] = ch.pick([0, 1, 2, 4, 10])
    if ch.chance(10):
        options["contract"] = False
    if options:
        req["options"] = options
    if ch.chance(50):
        req["table"] = build_table(ch, win_by)
    if ch.chance(6):
        junk(ch, req)
    return req


def build_table(ch: RandomChooser, win_by: str) -> dict:
    winner = ch.int(0, 3)
    table: dict = {"winner": winner}
    if win_by == "rob":
        table["robbed"] = ch.pick([s for s in range(4) if s != winner])
    if ch.chance(25):
        table["piao"] = sorted({ch.int(0, 3) for _ in range(ch.int(1, 2))})
    if ch.chance(40):
        table["claims"] = [[0 if a == b else ch.pick([0, 0, 1, 2, 3, 4]) for b in range(4)]
                           for a in range(4)]
    return table


def junk(ch: RandomChooser, req: dict) -> None:
    """One input the rule book refuses (§12) or the contract's vocabulary rejects."""
    what = ch.int(0, 10)
    if what == 0:
        req["replacements"] = True
    elif what == 1:
        req["piao"] = 1.5
    elif what == 2:
        req["table"] = {"winner": 0, "piao": [1, 1]}
    elif what == 3:
        req["table"] = {"winner": False}
    elif what == 4:
        req["hand"] = req["hand"] + "1m"
    elif what == 5:
        req["win_by"] = "discard"
    elif what == 6:
        req["options"] = {"fan_cap": 2.0}
    elif what == 7:
        req["flowers"] = "1f1f"
    elif what == 8:
        req["melds"] = req.get("melds", [])[:-1] + [f"peng {req['caishen'] * 3}"]
    elif what == 9:
        req["table"] = {"winner": 1, "robbed": 2}  # a robbed seat only belongs to a rob
    else:
        req["table"] = {"winner": 1, "claims": [[0, True, 0, 0]] + [[0] * 4] * 3}


def answers(req: dict) -> tuple[dict | None, dict | None]:
    """(project, rule book), both reduced to what the contract promises."""
    try:
        got = evaluate_json(copy.deepcopy(req))
    except RuleError:
        got = None
    if got is not None:
        keys = ("win", "fan", "patterns", "flowers", "share", "payments") if got["win"] \
            else ("win",)
        got = {k: got[k] for k in keys if k in got}
    return got, oracle_evaluate(copy.deepcopy(req))


@st.composite
def requests(draw) -> dict:
    return build_request(DrawChooser(draw))


@settings(max_examples=3000, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_evaluator_agrees_with_the_rule_book(req: dict) -> None:
    got, expected = answers(req)
    assert got == expected, json.dumps(req, ensure_ascii=False)
