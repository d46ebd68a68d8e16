#!/usr/bin/env python3
"""Branch coverage of ``sxmj/`` after ``pytest tests --cov`` (``make test``, ``make unit``).

Prints the figure of the core (``sxmj/`` without ``sxmj/ui/``) and of the UI, then every
module below 90 %, and exits 1 when the core is below ``--floor``. The UI's DOM code runs
only in the browser tests, so only the core has a floor.

    python scripts/coverage_report.py --floor 90 [--data .coverage]

The figure is coverage.py's own: covered lines and branches over all lines and branches.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import coverage

ROOT = Path(__file__).resolve().parent.parent
UI = "sxmj/ui/"
LOW = 90.0  # modules below this are listed


def figure(summaries: list[dict]) -> float:
    """Percent covered of several files' summaries, as coverage.py counts it."""
    done = sum(s["covered_lines"] + s.get("covered_branches", 0) for s in summaries)
    total = sum(s["num_statements"] + s.get("num_branches", 0) for s in summaries)
    return 100.0 * done / total if total else 100.0


def summaries(data_file: Path) -> dict[str, dict]:
    """``{module path relative to the repository: coverage.py's summary}``."""
    cov = coverage.Coverage(data_file=str(data_file), config_file=str(ROOT / "pyproject.toml"))
    cov.load()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "coverage.json"
        cov.json_report(outfile=str(out))
        files = json.loads(out.read_text(encoding="utf-8"))["files"]
    return {Path(name).resolve().relative_to(ROOT).as_posix(): f["summary"]
            for name, f in files.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floor", type=float, required=True,
                        help="fail when the core's branch coverage is below this percent")
    parser.add_argument("--data", type=Path, default=ROOT / ".coverage",
                        help="coverage data file (default: .coverage)")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"coverage: no data in {args.data}: run pytest tests --cov first", file=sys.stderr)
        return 1
    found = summaries(args.data)
    core = {name: s for name, s in found.items() if not name.startswith(UI)}
    ui = {name: s for name, s in found.items() if name.startswith(UI)}
    core_pct, ui_pct = figure(list(core.values())), figure(list(ui.values()))
    all_pct = figure(list(found.values()))
    low = sorted((s["percent_covered"], name) for name, s in found.items()
                 if s["percent_covered"] < LOW)
    if low:
        print(f"coverage: modules below {LOW:.0f} % (branch coverage)")
        for pct, name in low:
            print(f"  {pct:5.1f} %  {name}")
    print(f"coverage: core (sxmj/ without ui/) {core_pct:.1f} %, floor {args.floor:.1f} %; "
          f"UI (sxmj/ui/, unit tests only) {ui_pct:.1f} %; all {all_pct:.1f} %")
    if core_pct < args.floor:
        print(f"coverage: FAILED: the core's {core_pct:.1f} % is below the floor "
              f"{args.floor:.1f} %")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
