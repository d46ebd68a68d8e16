#!/usr/bin/env python3
"""What a hostile message costs the friends room's host (``make bench-room``; issue 56).

Runs ``bench/room_flood.py``'s ``measure()`` in CPython and in Pyodide under Node (the vendored
npm package, ``bench/pyodide_node.mjs``) and prints, per case, the host's CPU a message
(median, mean), the saves written and the messages sent. The load average is printed: timings
count only on a quiet machine (below 1). Results go to ``bench/out/room.json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import room_flood  # noqa: E402


def show(where: str, rows: list[dict]) -> None:
    print(f"{where}:")
    for r in rows:
        print(f"  {r['case']:<40} {r['messages']:>6} msgs  {r['us_median']:8.1f} us median"
              f"  {r['us_mean']:8.1f} us mean  saves {r['saves']:>3}  sent {r['sent']:>5}"
              f"  renders {r['renders']:>3}")


def main() -> int:
    load = os.getloadavg()[0]
    out = {"load_before": load, "cpython": room_flood.measure()}
    show("CPython", out["cpython"])
    expr = "__import__('room_flood').measure(500)"
    p = subprocess.run(["node", str(ROOT / "bench" / "pyodide_node.mjs"), expr], cwd=ROOT,
                       capture_output=True, text=True)
    if p.returncode == 0:
        out["pyodide"] = json.loads(p.stdout.strip().splitlines()[-1])
        show("Pyodide (node)", out["pyodide"])
    else:
        print(f"Pyodide: not measured ({p.stderr.strip()[-300:]})")
    out["load_after"] = os.getloadavg()[0]
    print(f"load average (1 min): {load:.2f} before, {out['load_after']:.2f} after")
    dest = ROOT / "bench" / "out"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "room.json").write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
