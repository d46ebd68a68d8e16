"""Golden records: replaying them reproduces every result, in CPython and in Pyodide."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sxmj.record import replay

ROOT = Path(__file__).parent.parent
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def summary(match) -> dict:
    return {"scores": match.scores,
            "results": [[r.winner, r.payments, r.patterns] for r in match.results],
            "final": list(match.game.observation(0).hand)}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_in_cpython(path: Path) -> None:
    record = json.loads(path.read_text())
    match = replay(record)
    assert match.scores == record["final_scores"]
    assert len(match.results) == len(record["hands"])


def test_records_replay_identically_in_pyodide() -> None:
    node_pyodide = ROOT / "node_modules" / "pyodide"
    if not shutil.which("node") or not node_pyodide.exists():
        if os.environ.get("CI"):
            pytest.fail("node and node_modules/pyodide are needed (make vendor)")
        pytest.skip("node_modules/pyodide missing: run `make vendor`")
    records = [json.loads(p.read_text()) for p in GOLDEN]
    expected = [summary(replay(r)) for r in records]
    script = ("[{'scores': m.scores, 'results': [[r.winner, r.payments, r.patterns] "
              "for r in m.results], 'final': list(m.game.observation(0).hand)} "
              f"for m in [__import__('sxmj.record').record.replay(r) for r in {records!r}]]")
    p = subprocess.run(["node", str(ROOT / "bench" / "pyodide_node.mjs"), script], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got == json.loads(json.dumps(expected))
