"""The benchmark workloads stay runnable (tiny sizes; speed is measured by `make bench`)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))

import workloads as W  # noqa: E402

from sxmj.winning import waits  # noqa: E402


def test_workloads_run_and_report_sane_numbers() -> None:
    t = time.perf_counter
    assert W.win_check(t, n=200)["win_check_us"] > 0
    w = W.waits_13(t, n=100)
    assert w["waits_us"] > 0 and w["waits_ready_hands_us"] > 0
    e = W.engine_hands(t, hands=5, check=True)
    assert e["hands"] == 5 and e["violations"] == 0
    assert W.random_play_violations(3, 3) == 0


def test_ready_hands_really_are_ready() -> None:
    for shape, caishen in W.ready_shapes(50, 5):
        assert waits(shape, caishen), shape


def test_decision_times_count_every_decision_of_seat_zero() -> None:
    ticks = iter(range(10**6))
    r = W.decision_times(lambda: next(ticks) / 1000, "easy", hands=1)  # 1 ms per tick
    assert r["level"] == "easy" and r["decisions"] > 5
    assert r["mean_ms"] == r["p95_ms"] == 1.0  # each decision is one tick of this clock


def test_engine_ratio_compares_in_the_same_run() -> None:
    played: list[int] = []

    def minimal(seed: int) -> None:  # a stand-in yardstick that takes a little time
        played.append(seed)
        time.sleep(0.002)

    r = W.engine_ratio(time.perf_counter, minimal, hands=4, rounds=3)
    assert played[:20] == list(range(10000, 10020)) and len(played) == 20 + 3 * 4
    assert len(r["ratios"]) == 3 and r["ratio"] == sorted(r["ratios"])[1] and r["ratio"] > 0


def test_a_variant_identical_to_hard_scores_exactly_zero_and_another_does_not(capsys) -> None:
    from functools import partial

    import variants

    def variant_beside_hards(name: str) -> dict:
        return variants.duel(["variant", "hard", "hard", "hard"],
                             partial(variants.make_bot, name), walls=2, seed=3, jobs=1)["variant"]

    same = variant_beside_hards("hard")
    assert same["mean"] == 0.0 and same["win_rate"] == 0.25
    assert variant_beside_hards("normal")["mean"] != 0.0
    assert variants.main(["flower_counter", "--walls", "1", "--seed", "2", "--jobs", "1"]) == 0
    assert "flower_counter: 1 walls × 4 seatings, seed 2:" in capsys.readouterr().out


def test_the_wall_sight_oracle_sees_the_wall_copies_of_what_the_seat_cannot_see() -> None:
    import variants

    from sxmj.match import Match

    class Spy(variants.WallSight):
        """Keeps the unseen counts each of its turns was decided on."""

        seen: list[tuple[list[int], list[int], int]] = []

        def turn(self, o, legal):  # type: ignore[no-untyped-def]
            self.seen.append((o.unseen(), variants.Observation.unseen(o), self.game.wall.remaining))
            return super().turn(o, legal)

    g = Match(seed=8).game
    while not g.over:
        seat = g.to_move()[0]
        g.apply(Spy(1, g).choose(g.observation(seat), g.legal_actions(seat)).action)
    assert len(Spy.seen) > 10
    for wall, unseen, remaining in Spy.seen:
        assert sum(wall) == remaining  # the wall's copies, every one of them
        assert all(w <= u for w, u in zip(wall, unseen, strict=True))  # and no more than unseen
        assert wall != unseen


def test_the_distance_cost_variant_changes_claims_alone_and_only_towards_claiming() -> None:
    import variants

    from sxmj.bots import HardStrategy
    from sxmj.game import Phase
    from sxmj.match import Match

    hard, costly = HardStrategy(1), variants.DistanceCost(1)
    claims = changed = 0
    for seed in range(6):
        g = Match(seed=seed).game
        while not g.over:
            seat = g.to_move()[0]
            obs, legal = g.observation(seat), g.legal_actions(seat)
            ours, theirs = costly.choose(obs, legal).action, hard.choose(obs, legal).action
            if obs.phase == Phase.TURN:
                assert ours == theirs  # one distance: the same ranking, less a constant
            elif any(a.kind in ("chi", "peng") for a in legal):
                claims += 1
                if ours != theirs:
                    changed += 1
                    assert theirs.kind == "pass" or ours.kind != "pass"
            g.apply(theirs)
    assert claims > 10 and changed  # it does change some claims


def test_the_calibration_table_groups_by_stretch_and_distance() -> None:
    import calibration

    rows = calibration.play(range(2), seed=3)
    assert rows and all(d >= 0 and v >= 0 for _, d, v, _ in rows)
    table = calibration.offsets(rows, least=1)
    assert sum(n for n, *_ in table.values()) == len(rows)
    assert calibration.offsets([(65, 4, 2.0, -5), (66, 3, 4.0, -9)], least=1) == {
        (3, 3): (2, 3.0, -7.0, 2.0)}
