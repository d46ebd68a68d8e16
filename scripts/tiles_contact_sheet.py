#!/usr/bin/env python3
"""Render a contact sheet of all tile SVGs to PNG with headless Chromium.

Usage:
    python scripts/tiles_contact_sheet.py [--out /tmp/tiles_contact_sheet.png]
                                          [--tiles static/tiles] [--scale 1]

Shows every tile at 32, 48 and 64 px wide (plus a large 120 px row set) on a
felt-green background, so legibility at small sizes can be judged by eye.
The PNG is a check, not an asset: do not commit it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROWS = [
    [f"{n}m" for n in range(1, 10)],
    [f"{n}p" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    [f"{n}z" for n in range(1, 8)] + ["back"],
    [f"{n}f" for n in range(1, 9)],
]
SIZES = (32, 48, 64)


def page(tiles_dir: Path, big: int, sizes=SIZES) -> tuple[str, int, int]:
    def img(code: str, w: int) -> str:
        src = (tiles_dir / f"{code}.svg").resolve().as_uri()
        return f"<img src='{src}' width='{w}' height='{w * 4 // 3}' title='{code}'>"

    blocks = []
    for w in sizes:
        rows = "".join(
            "<div class='row'>" + "".join(img(c, w) for c in row) + "</div>" for row in ROWS)
        blocks.append(f"<div class='block'><h2>{w} px</h2>{rows}</div>")
    big_rows = "".join(
        "<div class='row'>" + "".join(img(c, big) for c in row) + "</div>" for row in ROWS
    ) if big else ""
    html = f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin:0; padding:16px; font: 14px sans-serif; color:#e8f3e8;
  background: radial-gradient(circle at 40% 30%, #2f7d4a, #1b5433 70%, #123d25); }}
h2 {{ font-size:14px; margin:4px 0 8px; font-weight:600; }}
.blocks {{ display:flex; gap:28px; align-items:flex-start; }}
.row {{ display:flex; gap:3px; margin-bottom:8px; }}
.big .row {{ gap:6px; }}
img {{ display:block; filter: drop-shadow(1px 2px 1.5px rgba(0,0,0,.45)); }}
</style></head><body>
<div class="blocks">{''.join(blocks)}</div>
<div class="big">{f"<h2>{big} px</h2>" if big else ""}{big_rows}</div>
</body></html>"""
    width = 32 + sum(9 * (w + 3) for w in sizes) + (len(sizes) - 1) * 28 + 16
    width = max(width, 32 + 9 * (big + 6))
    height = 32 + 40 + 5 * (max(sizes) * 4 // 3 + 8) + 16
    if big:
        height += 40 + 5 * (big * 4 // 3 + 8)
    return html, width, height


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tiles", type=Path, default=root / "static" / "tiles")
    ap.add_argument("--out", type=Path, default=Path("/tmp/tiles_contact_sheet.png"))
    ap.add_argument("--big", type=int, default=120,
                    help="width of the large tiles (0: leave them out)")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="comma-separated small widths to show (default 32,48,64)")
    ap.add_argument("--scale", type=float, default=1.0, help="device scale factor")
    args = ap.parse_args(argv)

    chrome = next((p for p in map(shutil.which, ("chromium", "chromium-browser",
                                                 "google-chrome")) if p), None)
    if not chrome:
        sys.exit("chromium not found (apt-get install chromium)")
    sizes = tuple(int(x) for x in args.sizes.split(",") if x)
    html, width, height = page(args.tiles, args.big, sizes)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sheet.html"
        path.write_text(html, encoding="utf-8")
        subprocess.run(
            [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--allow-file-access-from-files", f"--user-data-dir={tmp}/profile",
             f"--force-device-scale-factor={args.scale}",
             f"--window-size={width},{height}", f"--screenshot={args.out.resolve()}",
             path.as_uri()],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
