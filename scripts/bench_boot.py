#!/usr/bin/env python3
"""Boot benchmark (``make bench-boot``, part of ``make bench``): the game against bare Pyodide.

Serves a copy of ``_site/`` (hard links) plus ``bench/bare.html`` under ``/sxmj/`` and drives
Debian's headless Chromium with Playwright (from ``.venv``), a fresh browser context per load:

- cold pairs, alternating which goes first: (a) ``bare.html``, the same vendored Pyodide
  booted the normal way (``loadPyodide()``, then a marker), and (b) the game until
  ``data-sxmj-ready="1"``; both timed in the page from navigation start. Prints the median
  of the per-pair ratio b/a, the median of each, and the skeleton's first contentful paint;
- warm reloads: load the game, wait until the service worker controls the page (its install
  has cached the whole site) and the page has kept the inflated snapshot in that cache, then
  reload in the same context; alternating with the same reload in a context where service
  workers are blocked (HTTP cache only), for comparison.

Targets (issue 9): ratio <= 0.5, skeleton <= 0.5 s, warm reload <= 1.5 s and below cold.
Results also go to ``bench/out/boot.json``. The machine's other work makes timings noisy:
read the medians (the load average is printed with them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import serve  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 120_000
SETTLE_MS = 2000
READY = "() => document.body.dataset.sxmjReady === '1' || !!document.querySelector('.py-error')"
GAME_TIMES = """() => ({
  ready: (sxmjBoot.log.find(e => e.event === 'stage' && e.detail === 'ready') || {}).t,
  fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
  snapshot: sxmjBoot.snapshot && sxmjBoot.snapshot.state,
  error: (document.querySelector('.py-error') || {}).textContent || null,
  controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
})"""
SW_CONTROLS = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"
# the page keeps the inflated snapshot in the worker's cache a few seconds after the start
SNAPSHOT_KEPT = """async () => {
  for (const name of await caches.keys())
    for (const r of await (await caches.open(name)).keys()) if (r.url.endsWith('.raw')) return true;
  return false;
}"""


def bench_root(site: Path, out: Path) -> Path:
    """``out/serve``: the site (hard-linked) plus bare.html; the site itself is untouched."""
    root = out / "serve"
    if root.exists():
        shutil.rmtree(root)

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(site, root, copy_function=link)
    shutil.copy2(ROOT / "bench" / "bare.html", root / "bare.html")
    return root


def cold_bare(browser, url: str) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + "bare.html")
        page.wait_for_function("() => window.bareReadyAt !== undefined", timeout=TIMEOUT_MS)
        return page.evaluate("window.bareReadyAt") / 1000
    finally:
        context.close()


def game_times(page) -> dict:
    page.wait_for_function(READY, timeout=TIMEOUT_MS)
    times = page.evaluate(GAME_TIMES)
    if times["error"] or times["ready"] is None:
        raise SystemExit(f"bench_boot: the game did not start: {times['error']}")
    return times


def cold_game(browser, url: str) -> dict:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        return game_times(page)
    finally:
        context.close()


def warm_reloads(browser, url: str, reloads: int) -> tuple[list, list]:
    """A first load in two contexts (service worker allowed / blocked), then ``reloads``
    reloads of each, alternating; returns the times of both."""
    contexts = [browser.new_context(service_workers=mode) for mode in ("allow", "block")]
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.goto(url)
            game_times(page)
        pages[0].wait_for_function(SW_CONTROLS, timeout=TIMEOUT_MS)
        # (wait_for_function takes the promise of an async function for a truthy value: poll)
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while not pages[0].evaluate(SNAPSHOT_KEPT):
            if time.monotonic() > deadline:
                raise SystemExit("bench_boot: the page never kept the inflated snapshot")
            pages[0].wait_for_timeout(250)
        # let the first visit settle (its 31 MB cache write, the bots' first moves): a
        # reload at once measured that work, 1-2 s more, rather than the reload
        pages[0].wait_for_timeout(SETTLE_MS)
        runs: tuple[list, list] = ([], [])
        for _ in range(reloads):
            for page, times in zip(pages, runs, strict=True):
                page.reload()
                times.append(game_times(page))
        return runs
    finally:
        for context in contexts:
            context.close()


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_site")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out")
    parser.add_argument("--pairs", type=int, default=7, help="cold pairs (default 7, at least 5)")
    parser.add_argument("--reloads", type=int, default=5, help="warm reloads (default 5)")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        raise SystemExit(f"bench_boot: {args.site} is not built: run `make site`")
    from playwright.sync_api import sync_playwright

    out = args.out.resolve()
    root = bench_root(args.site.resolve(), out)
    server, thread = serve.serve_in_thread(root, prefix="/sxmj/")
    server.handle_error = lambda request, address: None  # a closed context cuts transfers short
    url = serve.server_url(server)
    pairs = []
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            cold_game(browser, url)  # warm-up: the OS file cache, Chromium's first start
            for i in range(args.pairs):
                if i % 2 == 0:
                    bare, game = cold_bare(browser, url), cold_game(browser, url)
                else:
                    game, bare = cold_game(browser, url), cold_bare(browser, url)
                pair = {"bare": bare, "game": game["ready"] / 1000, "fcp": game["fcp"] / 1000,
                        "snapshot": game["snapshot"]}
                pair["ratio"] = pair["game"] / pair["bare"]
                pairs.append(pair)
                print(
                    f"pair {i + 1}: bare {bare:.2f} s, game {pair['game']:.2f} s"
                    f" (snapshot {game['snapshot']}), ratio {pair['ratio']:.2f},"
                    f" skeleton {pair['fcp']:.2f} s",
                    flush=True,
                )
            sw_runs, http_runs = [], []
            if args.reloads:
                sw_runs, http_runs = warm_reloads(browser, url, args.reloads)
                print("warm reloads, service worker: "
                      + ", ".join(f"{r['ready'] / 1000:.2f}" for r in sw_runs), flush=True)
                print("warm reloads, HTTP cache only: "
                      + ", ".join(f"{r['ready'] / 1000:.2f}" for r in http_runs), flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
        shutil.rmtree(root, ignore_errors=True)

    result = {
        "pairs": pairs,
        "median_ratio": median([p["ratio"] for p in pairs]),
        "median_bare_s": median([p["bare"] for p in pairs]),
        "median_game_s": median([p["game"] for p in pairs]),
        "median_skeleton_fcp_s": median([p["fcp"] for p in pairs]),
        "warm_reload_sw_s": [r["ready"] / 1000 for r in sw_runs],
        "median_warm_reload_sw_s": median([r["ready"] / 1000 for r in sw_runs]),
        "warm_reload_sw_controlled": all(r["controlled"] for r in sw_runs),
        "warm_reload_http_cache_s": [r["ready"] / 1000 for r in http_runs],
        "median_warm_reload_http_cache_s": median([r["ready"] / 1000 for r in http_runs]),
        "snapshot_used": sorted({p["snapshot"] for p in pairs} | {r["snapshot"] for r in sw_runs}),
        "seconds": round(time.monotonic() - started, 1),
        "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "boot.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    targets = [
        ("cold game / bare Pyodide (median of pairs)", result["median_ratio"], 0.5, ""),
        ("skeleton first contentful paint", result["median_skeleton_fcp_s"], 0.5, " s"),
        ("warm reload with the service worker (median)", result["median_warm_reload_sw_s"], 1.5,
         " s"),
    ]
    print(f"\nboot benchmark, {len(pairs)} cold pairs, {args.reloads} warm reloads"
          f" ({result['seconds']:.0f} s, load average {load_before:.1f} -> "
          f"{result['load_average'][1]:.1f}; bench/out/boot.json)")
    print(f"  bare Pyodide boot (median)        {result['median_bare_s']:.2f} s")
    print(f"  game ready, cold (median)         {result['median_game_s']:.2f} s")
    print(f"  warm reload, HTTP cache only      {result['median_warm_reload_http_cache_s']:.2f} s")
    if sw_runs:
        first_sw, first_http = sw_runs[0]["ready"] / 1000, http_runs[0]["ready"] / 1000
        print(f"  first warm reload (2nd navigation): service worker {first_sw:.2f} s,"
              f" HTTP cache only {first_http:.2f} s")
    for name, value, target, unit in targets:
        mark = "ok" if value <= target else "MISSED"
        print(f"  {name:<44} {value:.2f}{unit}  (target <= {target}{unit}: {mark})")
    faster = result["median_warm_reload_sw_s"] < result["median_game_s"]
    print(f"  warm reload faster than cold: {'ok' if faster else 'MISSED'};"
          f" snapshot: {', '.join(map(str, result['snapshot_used']))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
