#!/usr/bin/env python3
"""Home of the benchmarks (``make bench``): runs each benchmark script in turn.

- scripts/bench_core.py: evaluator, engine and bots in CPython and in Pyodide
  under Node, and the 100,000-hand random-play invariant check.
- scripts/bench_differential.py: 30,000 random requests, the evaluator against the
  rule-book oracle (tests/oracle.py); exits 1 on any disagreement.
- scripts/bench_review.py: how far the hand review (复盘) can be trusted — false flags when
  following the assist, planted blunders caught, stability under another sampling seed.
Other benchmarks (the browser boot) have their own script and Makefile target.
Results go to the git-ignored ``bench/out/``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = [["bench_core.py"], ["bench_differential.py", "30000", "1"],
           ["bench_review.py", "--hands", "16", "--blunders", "20", "--jobs", "2"]]


def main() -> int:
    status = 0
    for name, *args in SCRIPTS:
        status |= subprocess.call([sys.executable, str(ROOT / "scripts" / name), *args],
                                  cwd=ROOT)
    return status


if __name__ == "__main__":
    sys.exit(main())
