"""Random play with every invariant checked after every action, fuzzing, records."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sxmj.game import Action, IllegalAction
from sxmj.match import Match
from sxmj.record import RecordError, dumps, replay, to_record
from sxmj.rules import Options
from sxmj.simulate import Checker

ROOT = Path(__file__).parent.parent
ALL_KINDS = ["discard", "chi", "peng", "minggang", "angang", "jiagang", "hu", "pass"]


def random_match(seed: int, hands: int, options: Options | None = None,
                 checker: Checker | None = None, fuzz: bool = False) -> Match:
    rng = random.Random(seed)
    m = Match(seed=seed, options=options)
    for h in range(hands):
        if h:
            m.next_hand()
        g = m.game
        while not g.over:
            seat = rng.choice(g.to_move())
            legal = g.legal_actions(seat)
            if fuzz and rng.random() < 0.3:
                bad = Action(rng.randrange(4), rng.choice(ALL_KINDS), rng.randrange(42))
                if bad not in g.legal_actions(bad.seat):
                    before = [g.observation(s) for s in range(4)], list(g.actions)
                    with pytest.raises(IllegalAction):
                        m.apply(bad)
                    assert ([g.observation(s) for s in range(4)], list(g.actions)) == before
            hu = [a for a in legal if a.kind == "hu"]
            action = hu[0] if hu and rng.random() < 0.9 else rng.choice(legal)
            assert action in legal
            m.apply(action)
            if checker:
                checker.after_action(g, f"seed {seed} hand {h}")
        assert sum(g.result.payments) == 0
    return m


@pytest.mark.parametrize("chunk", range(10))
def test_two_thousand_random_hands_keep_every_invariant(chunk: int) -> None:
    checker = Checker()
    options = [Options(), Options(piao_blocks_claims=False, flower_is_kong=False),
               Options(baotou_required=True, reserved_tiles=14, contract=False)][chunk % 3]
    for seed in range(chunk * 20, chunk * 20 + 20):  # 10 × 20 matches × 10 hands
        m = random_match(seed, 10, options, checker)
        assert sum(m.scores) == 0
        again = replay(json.loads(dumps(m)))
        assert again.scores == m.scores
        assert [r.payments for r in again.results] == [r.payments for r in m.results]
    assert checker.violations == []


def test_fuzzed_illegal_actions_always_raise_and_never_change_state() -> None:
    for seed in range(30):
        random_match(seed, 2, fuzz=True)


def test_replay_reproduces_every_state() -> None:
    m = random_match(5, 3)
    rec = to_record(m)
    n = sum(len(h) for h in rec["hands"])
    for upto in (0, 1, n // 2, n - 1):
        part = replay(rec, upto=upto)
        again = replay(rec, upto=upto)
        assert part.game.observation(0) == again.game.observation(0)
    full = replay(rec)
    assert [full.game.observation(s) for s in range(4)] == \
        [m.game.observation(s) for s in range(4)]


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda r: r.update(format="other"), "format must be"),
    (lambda r: r.update(version=99), "unsupported record version 99"),
    (lambda r: r.update(seed="x"), "seed must be an integer"),
    (lambda r: r["hands"][0].__setitem__(0, "0 fly 1m"), "hand 0 action 0"),
    (lambda r: r["hands"][0].insert(1, "3 discard 9m"), "hand 0 action 1"),
    (lambda r: r["results"][0].__setitem__("payments", [1, 2, 3, -6]), "the record says"),
    (lambda r: r.update(options={"fan_cap": "x"}), "fan_cap"),
])
def test_broken_records_are_rejected_with_a_reason(mutate, message) -> None:
    rec = json.loads(dumps(random_match(3, 2)))
    mutate(rec)
    with pytest.raises(RecordError, match=message):
        replay(rec)


def test_replay_command(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(dumps(random_match(8, 2)))
    p = subprocess.run([sys.executable, "-m", "sxmj", "replay", str(good)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "hand 1:" in p.stdout and "scores" in p.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sxmj-record", "version": 1, "hands": [["0 discard 1m"')
    p = subprocess.run([sys.executable, "-m", "sxmj", "replay", str(bad)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "not JSON" in p.stderr


def test_simulate_is_byte_identical_apart_from_speed() -> None:
    def run() -> list[dict]:
        p = subprocess.run([sys.executable, "-m", "sxmj", "simulate", "--hands", "6", "--seed",
                            "3", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        lines = [json.loads(x) for x in p.stdout.splitlines()]
        lines[-1].pop("hands_per_s")
        return lines
    a, b = run(), run()
    assert a == b
    assert a[-1] == {"summary": True, "hands": 6, "violations": 0}
    assert all({"winner", "patterns", "payments"} <= set(x) for x in a[:-1])
    assert all(sum(x["payments"]) == 0 for x in a[:-1])
