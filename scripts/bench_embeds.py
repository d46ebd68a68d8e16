#!/usr/bin/env python3
"""Many embeds on another site's page (``make bench-embeds``; issue 49): what a tutorial with
12 hand embeds costs its reader.

The built site (``_site/``) on ``http://127.0.0.1:PORT/sxmj/``, the article on
``http://localhost:PORT2/`` (scripts/serve_article.py's frames page): every frame is
third-party, in Debian's headless Chromium (a fresh context: storage refused), the HTTP cache
warm (one load of each page first, in the same context). Alternated runs, medians:

- ``one``: a page with one hand embed: time from navigation to its ``data-sxmj-ready``;
- ``lazy12``: 12 hand embeds, ``loading="lazy"`` (1,000 px apart): the first one's time to
  ready (the target: within 1.5x of ``one``), how many frames started before any scroll, then
  the last one's time to ready once scrolled into view (the target: within 3 s);
- ``eager12``: the same 12 without ``lazy``, in a window 12,000 px tall so that all are on
  screen at once (an embed starts Python only once it is on screen): the worst case; time
  until all are ready, and the memory: the
  renderers' resident set (every Chromium renderer process, read from /proc) and the sum of
  the frames' WebAssembly memories (``sxmjBoot.wasmBytes()``).

Timings count only on a quiet machine: the 1-minute load average is printed before and after
(below 1: quiet). Results go to ``bench/out/embeds.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import serve  # noqa: E402
import serve_article  # noqa: E402

HAND = "embed.html?mode=hand&hand=123m456m789m123p9s5p&caishen=9s&lang=en"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "() => !!document.body && document.body.dataset.sxmjReady === '1'"


def frames_url(article: str, n: int, lazy: bool) -> str:
    src = "&".join(f"src={quote(HAND, safe='')}" for _ in range(n))
    return f"{article}/frames.html?{src}&gap=580" + ("&lazy=1" if lazy else "")


def renderer_rss() -> int:
    """Bytes resident in every Chromium renderer process."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"chromium" not in cmd or b"--type=renderer" not in cmd:
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def ready_at(page, frame_id: str, timeout: float = 120) -> float:
    """ms from navigation start until ``frame_id``'s frame is ready (the frame's own clock
    counts from its navigation: add when it started, in the parent's clock)."""
    handle = page.locator(f"#{frame_id}").element_handle()
    deadline = time.monotonic() + timeout
    while True:
        frame = handle.content_frame()
        if frame is not None and frame.url.startswith("http") and frame.evaluate(READY):
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"bench_embeds: {frame_id} not ready after {timeout:.0f} s")
        page.wait_for_timeout(20)
    stamp = frame.evaluate("() => performance.timeOrigin + (window.sxmjBoot.log.find("
                           "(e) => e.event === 'stage' && e.detail === 'ready') || {t: "
                           "performance.now()}).t")
    return stamp - page.evaluate("() => performance.timeOrigin")


def run(rounds: int) -> dict:
    from playwright.sync_api import sync_playwright

    server = serve.make_server(ROOT / "_site", 0, "/sxmj/", quiet=True)
    import threading
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = serve.server_url(server)
    article_server, _, article = serve_article.serve_article(site)
    out: dict = {"one": [], "lazy12_first": [], "lazy12_started": [], "lazy12_scrolled": [],
                 "eager12_all": [], "eager12_rss_mb": [], "eager12_wasm_mb": [],
                 "load_before": os.getloadavg()[0]}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        for url in (frames_url(article, 1, False), frames_url(article, 1, True)):  # warm up
            page.goto(url)
            ready_at(page, "f0")
        for r in range(rounds):
            for kind in (("one", "lazy") if r % 2 == 0 else ("lazy", "one")):
                page.goto("about:blank")
                if kind == "one":
                    page.goto(frames_url(article, 1, False))
                    out["one"].append(ready_at(page, "f0"))
                    continue
                page.goto(frames_url(article, 12, True))
                out["lazy12_first"].append(ready_at(page, "f0"))
                page.wait_for_timeout(500)
                out["lazy12_started"].append(sum(
                    1 for f in page.frames if f.url.startswith(site)))
                t0 = page.evaluate("() => performance.now()")
                page.locator("#f11").scroll_into_view_if_needed()
                out["lazy12_scrolled"].append(ready_at(page, "f11") - t0)
        # the worst case: a window tall enough for all 12 at once (each starts once on screen)
        page.set_viewport_size({"width": 1280, "height": 12 * 1000})
        for _ in range(max(1, rounds // 2)):
            page.goto("about:blank")
            page.goto(frames_url(article, 12, False))
            out["eager12_all"].append(max(ready_at(page, f"f{i}") for i in range(12)))
            page.wait_for_timeout(1000)
            out["eager12_rss_mb"].append(renderer_rss() / 2**20)
            wasm = 0
            for i in range(12):
                frame = page.locator(f"#f{i}").element_handle().content_frame()
                wasm += frame.evaluate("() => window.sxmjBoot.wasmBytes()") or 0
            out["eager12_wasm_mb"].append(wasm / 2**20)
        browser.close()
    article_server.shutdown()
    server.shutdown()
    out["load_after"] = os.getloadavg()[0]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="alternated pairs (default 6)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    out = run(args.rounds)
    med = {k: statistics.median(v) for k, v in out.items() if isinstance(v, list)}
    print(f"load average (1 min): {out['load_before']:.2f} before, {out['load_after']:.2f} after")
    print(f"one embed ready:              {med['one']:.0f} ms (median of {len(out['one'])})")
    print(f"12 lazy, first ready:         {med['lazy12_first']:.0f} ms "
          f"({med['lazy12_first'] / med['one']:.2f}x one; target <= 1.5x)")
    print(f"12 lazy, frames started:      {med['lazy12_started']:.0f} of 12 before a scroll")
    print(f"12 lazy, scrolled-to ready:   {med['lazy12_scrolled']:.0f} ms (target <= 3000)")
    print(f"12 eager, all ready:          {med['eager12_all']:.0f} ms")
    print(f"12 eager, renderers' RSS:     {med['eager12_rss_mb']:.0f} MiB; frames' "
          f"WebAssembly memory {med['eager12_wasm_mb']:.0f} MiB "
          f"({med['eager12_wasm_mb'] / 12:.1f} MiB a frame)")
    dest = ROOT / "bench" / "out"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "embeds.json").write_text(json.dumps({"runs": out, "medians": med}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
