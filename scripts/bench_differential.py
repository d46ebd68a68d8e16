"""Run the differential test's generator without hypothesis and sort disagreements.

    python3 scripts/bench_differential.py [N] [SEED]

Prints the speed of both evaluators, then one line per disagreement class (which
answer fields differ and how) with its count and the shortest request of that class,
so a run shows every kind of disagreement at once, not just the first one.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

from test_differential import RandomChooser, answers, build_request  # noqa: E402


def kind(got: dict | None, expected: dict | None) -> str:
    """A class name: the fields that differ, and for patterns which ones."""
    if got is None or expected is None:
        return "refused by " + ("project" if got is None else "rule book")
    if got["win"] != expected["win"]:
        return "win: project " + str(got["win"])
    parts = [k for k in ("fan", "flowers", "share", "payments") if got.get(k) != expected.get(k)]
    extra = set(got["patterns"]) - set(expected["patterns"])
    missing = set(expected["patterns"]) - set(got["patterns"])
    parts += [f"+{p}" for p in sorted(extra)] + [f"-{p}" for p in sorted(missing)]
    return " ".join(parts)


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    classes: dict[str, list] = defaultdict(list)
    start = time.perf_counter()
    for i in range(n):
        req = build_request(RandomChooser(seed * 1_000_003 + i))
        got, expected = answers(req)
        if got != expected:
            classes[kind(got, expected)].append((len(json.dumps(req)), req, got, expected))
    elapsed = time.perf_counter() - start
    print(f"{n} requests in {elapsed:.1f} s ({n / elapsed:.0f}/s), "
          f"{sum(map(len, classes.values()))} disagreements in {len(classes)} classes")
    for name, cases in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        _, req, got, expected = min(cases, key=lambda c: c[0])
        print(f"\n[{len(cases)}] {name}\n  request:   {json.dumps(req, ensure_ascii=False)}"
              f"\n  project:   {json.dumps(got)}\n  rule book: {json.dumps(expected)}")
    return 1 if classes else 0


if __name__ == "__main__":
    sys.exit(main())
