"""The ``python3 -m sxmj evaluate`` JSON contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def run(payload: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sxmj", "evaluate"], input=payload,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_one_object_in_one_object_out() -> None:
    p = run(json.dumps({"hand": "123m456m789m123p5p9s", "win_tile": "5p", "caishen": "9s",
                        "table": {"winner": 2}}))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out == {"win": True, "fan": 1, "patterns": ["baotou"], "flowers": 1, "share": 12,
                   "payments": [-12, -12, 36, -12]}


def test_array_in_array_out_and_groups_in_any_order() -> None:
    p = run(json.dumps([
        {"hand": "5p123p9m78m123m456m5p", "win_tile": "9m", "caishen": "9s"},
        {"hand": "123m456m789m123p56p", "win_tile": "6p", "caishen": "9s"},
        {"hand": "12p3p55p", "win_tile": "3p", "caishen": "9s", "win_by": "rob",
         "melds": ["chi 123m", "peng 999m", "minggang 4444p"], "flowers": "1f2f7z",
         "base_flowers": 10, "table": {"winner": 0, "robbed": 3}},
    ]))
    assert p.returncode == 0, p.stderr
    a, b, c = json.loads(p.stdout)
    assert a["win"] and a["fan"] == 0
    assert b == {"win": False, "reason": b["reason"]} and "not a winning hand" in b["reason"]
    assert c["patterns"] == ["qianggang"] and c["flowers"] == 3 + 1
    assert c["share"] == 2 * (10 + 4) and c["payments"] == [84, 0, 0, -84]


def test_contract_claims_matrix_and_piao_seats() -> None:
    base = {"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s"}
    p = run(json.dumps([
        {**base, "table": {"winner": 0, "claims": [[0, 3, 0, 0], [0] * 4, [0] * 4, [3, 0, 0, 0]]}},
        {**base, "table": {"winner": 0, "piao": [2]}},
    ]))
    contract, piao = json.loads(p.stdout)
    assert contract["payments"] == [45, -15, -5, -25]
    assert piao["payments"] == [15, 0, -15, 0]


def test_options_and_defaults() -> None:
    p = run(json.dumps({"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                        "win_by": "flower", "flowers": "3f", "options": {"flower_is_kong": False}}))
    assert json.loads(p.stdout)["patterns"] == []
    p = run(json.dumps({"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                        "win_by": "flower", "flowers": "3f"}))
    assert json.loads(p.stdout)["patterns"] == ["gangkai"]


BAD = [
    ("not JSON", "{hand:", "input: not JSON"),
    ("unknown tile", {"hand": "123m456m789m123p50p", "win_tile": "5p", "caishen": "9s"},
     "hand: unknown tile 0p"),
    ("unknown honour", {"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "8z"},
     "caishen: unknown tile 8z"),
    ("flower in the hand", {"hand": "123m456m789m123p5p7z", "win_tile": "5p", "caishen": "9s"},
     "hand: 7z is a flower tile"),
    ("wrong tile count", {"hand": "123m456m789m123p5p", "win_tile": "5p", "caishen": "9s"},
     "hand: 13 tiles"),
    ("more than four copies", {"hand": "11111m456m789m555p", "win_tile": "5p", "caishen": "9s"},
     "hand: more than 4 copies of 1m"),
    ("win tile not in hand", {"hand": "123m456m789m123p55p", "win_tile": "6p", "caishen": "9s"},
     "win_tile: 6p is not in the hand"),
    ("unknown win_by", {"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                        "win_by": "discard"}, "win_by: unknown win_by 'discard'"),
    ("财神 a flower tile", {"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "5z"},
     "caishen: 5z is a flower tile"),
    ("malformed meld", {"hand": "456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                        "melds": ["chi 135m"]}, "melds: chi needs three consecutive"),
    ("meld kind", {"hand": "456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                   "melds": ["pung 111m"]}, "melds: unknown meld kind 'pung'"),
    ("财神 in a meld", {"hand": "456m789m123p55p", "win_tile": "5p", "caishen": "1m",
                      "melds": ["peng 111m"]}, "melds: 1m is the 财神"),
    ("bad option", {"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                    "options": {"fan_cap": "3"}}, "options: fan_cap must be a whole number"),
    ("bad base", {"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                  "base_flowers": 7}, "base_flowers: base_flowers must be one of"),
    ("bad table", {"hand": "123m456m789m123p55p", "win_tile": "5p", "caishen": "9s",
                   "table": {"winner": 5}}, "table.winner: must be a seat"),
    ("second item of an array", [{"hand": "123m456m789m123p55p", "win_tile": "5p",
                                  "caishen": "9s"}, {"hand": "1m"}], "[1].win_tile: is required"),
]


@pytest.mark.parametrize(("name", "payload", "message"), BAD, ids=[b[0] for b in BAD])
def test_invalid_input_exits_2_with_one_line(name, payload, message) -> None:
    p = run(payload if isinstance(payload, str) else json.dumps(payload))
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert message in lines[0]
