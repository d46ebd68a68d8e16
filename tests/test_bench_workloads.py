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
