#!/usr/bin/env python3
"""Home of the benchmarks (``make bench``).

Runs ``python -m sxmj.bench`` once that module exists (later issues add it; results go to the
git-ignored ``bench/out/``); until then it says so and exits 0.
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    if importlib.util.find_spec("sxmj.bench") is None:
        print("no benchmarks yet (add sxmj/bench.py; `make bench` runs `python -m sxmj.bench`)")
        return 0
    sys.argv = ["sxmj.bench", *(sys.argv[1:] if argv is None else argv)]
    runpy.run_module("sxmj.bench", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
