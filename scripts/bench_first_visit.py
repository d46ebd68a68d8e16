#!/usr/bin/env python3
"""First-visit benchmark (``make bench-first-visit``, part of ``make bench``): the game on a
phone network, as a new player meets it.

Serves a copy of ``_site/`` (hard links) under ``/sxmj/`` the way GitHub Pages does
(:class:`PagesHandler`: gzip for text and wasm, ``ETag`` and ``Last-Modified`` answered with
304, ``Cache-Control: max-age=600``, HTTP/1.1 keep-alive), and opens it in a fresh Debian
Chromium (a new profile folder each run, driven by Playwright) under the network emulation of
DevTools (CDP ``Network.emulateNetworkConditions``): 4G (9 Mbps down, 60 ms) and slow 4G
(1.6 Mbps down, 150 ms). For each run it reports

- the first visit: the bytes the server sent until the ready marker
  (``body[data-sxmj-ready="1"]``), the ready time and the first contentful paint (both from
  navigation start, in the page), then how long until the page has done its work in the
  background (the service worker controls the page and the device's memory snapshot is kept:
  ``sxmjBoot.device``), and the bytes of the whole first visit;
- the second visit: Chromium closed and started again on the same profile (a player coming
  back), the same figures, and how the interpreter started (``sxmjBoot.snapshot``).

The bytes are counted at the server (headers and bodies as sent, compressed where the server
compresses): the same on every run. The runtime floor is ``pyodide.asm.wasm`` and
``pyodide.asm.mjs`` gzipped plus ``python_stdlib.zip`` (issue 31: a first visit fetches at
most 1.15 times it before ready). Times depend on the machine: the 1-minute load average is
printed beside every run (``uptime``; below 1 is a quiet machine here, 2 cores shared).
Results go to ``bench/out/first_visit.json``. The emulation throttles the page's own requests;
the service worker's and the workers' (after ready) go at loopback speed.
"""

from __future__ import annotations

import argparse
import email.utils
import gzip
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

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
PREFIX = "/sxmj/"
TIMEOUT_MS = 240_000
GZIP_LEVEL = 6  # what the figures match: pyodide.asm.wasm 3.56 MB
# What GitHub Pages sends compressed (gzip): text, scripts, JSON, SVG and wasm; never the
# zip, the images or an already compressed file.
COMPRESSED = ("text/", "application/javascript", "application/json",
              "application/manifest+json", "application/wasm", "image/svg+xml")
MAX_AGE = 600
BUDGET = 1.15  # first-visit bytes until ready, times the runtime floor (issue 31)
READY_TARGET_S = 8.0  # on 4G
SECOND_TARGET_S = 2.5  # on 4G


@dataclass(frozen=True)
class Profile:
    name: str
    down_bps: float  # bits per second
    up_bps: float
    latency_ms: float

    def conditions(self) -> dict[str, Any]:
        return {"offline": False, "latency": self.latency_ms,
                "downloadThroughput": self.down_bps / 8, "uploadThroughput": self.up_bps / 8}


# DevTools' presets of the same names (upload as there; the issue names down and latency)
PROFILES = {
    "4g": Profile("4G", 9e6, 1.5e6, 60),
    "slow4g": Profile("slow 4G", 1.6e6, 0.75e6, 150),
}

READY = "() => document.body.dataset.sxmjReady === '1' || !!document.querySelector('.py-error')"
TIMES = """() => ({
  ready: (sxmjBoot.log.find(e => e.event === 'stage' && e.detail === 'ready') || {}).t,
  fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
  snapshot: sxmjBoot.snapshot && sxmjBoot.snapshot.state,
  error: (document.querySelector('.py-error') || {}).textContent || null,
  controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
})"""
# The background work of a first visit is over: the service worker controls the page, and
# the device's snapshot is kept (static/boot/pyodide-snapshot.mjs: sxmjBoot.device; an older
# site kept the inflated shipped snapshot as "<name>.raw")
SETTLED = """async () => {
  if (!(navigator.serviceWorker && navigator.serviceWorker.controller)) return false;
  const device = window.sxmjBoot && sxmjBoot.device;
  if (device) return ['kept', 'failed', 'skipped'].includes(device.state) && device.state;
  for (const name of await caches.keys())
    for (const r of await (await caches.open(name)).keys())
      if (r.url.endsWith('.raw')) return 'raw';
  return false;
}"""


# ---------- the server ----------


@dataclass
class Sent:
    """What the server sent: bytes in all, and one line per response."""

    total: int = 0
    log: list[tuple[float, str, int, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, n: int) -> None:
        with self.lock:
            self.total += n

    def record(self, path: str, status: int, size: int) -> None:
        with self.lock:
            self.log.append((time.monotonic(), path, status, size))

    def mark(self) -> tuple[int, int]:
        with self.lock:
            return self.total, len(self.log)


@dataclass(frozen=True)
class Entity:
    body: bytes
    gzipped: bytes | None
    etag: str
    modified: str
    content_type: str


class Files:
    """The files of the served folder, read once, with their gzip form (computed once)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[Path, Entity] = {}
        self.lock = threading.Lock()

    def get(self, path: Path) -> Entity:
        with self.lock:
            hit = self.cache.get(path)
        if hit is not None:
            return hit
        body = path.read_bytes()
        content_type = serve.CONTENT_TYPES.get(path.suffix, "application/octet-stream")
        squeeze = content_type.startswith(COMPRESSED)
        entity = Entity(
            body=body,
            gzipped=gzip.compress(body, GZIP_LEVEL, mtime=0) if squeeze else None,
            etag='"' + hashlib.sha1(body).hexdigest()[:16] + '"',
            modified=email.utils.formatdate(path.stat().st_mtime, usegmt=True),
            content_type=content_type,
        )
        with self.lock:
            self.cache[path] = entity
        return entity


class PagesHandler(BaseHTTPRequestHandler):
    """Static files as GitHub Pages serves them, below ``PREFIX``; counts what it sends."""

    protocol_version = "HTTP/1.1"
    files: Files
    sent: Sent

    def setup(self) -> None:
        super().setup()
        raw, sent = self.wfile, self.sent

        class Counting:
            def write(self, data: bytes) -> int:
                n = raw.write(data)
                sent.add(len(data))
                return n

            def __getattr__(self, name: str) -> Any:
                return getattr(raw, name)

        self.wfile = Counting()  # type: ignore[assignment]

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_HEAD(self) -> None:  # noqa: N802 (http.server naming)
        self.answer(head=True)

    def do_GET(self) -> None:  # noqa: N802
        self.answer(head=False)

    def answer(self, head: bool) -> None:
        url = urlsplit(self.path)
        if url.path == PREFIX.rstrip("/"):
            self.empty(HTTPStatus.MOVED_PERMANENTLY, {"Location": PREFIX})
            return
        if not url.path.startswith(PREFIX):
            self.empty(HTTPStatus.NOT_FOUND)
            return
        rel = unquote(url.path[len(PREFIX):])
        path = (self.files.root / rel).resolve()
        if path.is_dir():
            path = path / "index.html"
        if not path.is_relative_to(self.files.root) or not path.is_file():
            self.empty(HTTPStatus.NOT_FOUND)
            return
        entity = self.files.get(path)
        gzipped = entity.gzipped is not None and "gzip" in self.headers.get("Accept-Encoding", "")
        headers = {
            "Content-Type": entity.content_type,
            "Cache-Control": f"max-age={MAX_AGE}",
            "ETag": ("W/" if gzipped else "") + entity.etag,
            "Last-Modified": entity.modified,
        }
        if entity.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        match = self.headers.get("If-None-Match", "")
        if match and entity.etag in match:
            self.empty(HTTPStatus.NOT_MODIFIED, headers, rel)
            return
        body = entity.gzipped if gzipped and entity.gzipped is not None else entity.body
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        self.send_response(HTTPStatus.OK)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                return
        self.sent.record(rel, 200, len(body))

    def empty(self, status: int, headers: dict[str, str] | None = None, rel: str = "") -> None:
        self.send_response(status)
        for key, value in (headers or {}).items():
            if key != "Content-Type" or status != HTTPStatus.NOT_MODIFIED:
                self.send_header(key, value)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.sent.record(rel or self.path, int(status), 0)


def start_server(root: Path) -> tuple[ThreadingHTTPServer, threading.Thread, Sent, str]:
    sent = Sent()
    handler = type("Pages", (PagesHandler,), {"files": Files(root), "sent": sent})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler))
    server.daemon_threads = True
    server.handle_error = lambda request, address: None  # type: ignore[method-assign]
    thread = threading.Thread(target=server.serve_forever, name="pages", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    return server, thread, sent, f"http://{host}:{port}{PREFIX}"


def runtime_floor(site: Path) -> dict[str, int]:
    """The bytes no first visit can go below: the wasm and its loader gzipped, the zip."""
    pyodide = site / "static" / "vendor" / "pyodide"
    wasm = len(gzip.compress((pyodide / "pyodide.asm.wasm").read_bytes(), GZIP_LEVEL))
    mjs = len(gzip.compress((pyodide / "pyodide.asm.mjs").read_bytes(), GZIP_LEVEL))
    stdlib = (pyodide / "python_stdlib.zip").stat().st_size
    return {"pyodide.asm.wasm.gz": wasm, "pyodide.asm.mjs.gz": mjs, "python_stdlib.zip": stdlib,
            "floor": wasm + mjs + stdlib}


# ---------- the browser ----------


def load_average() -> float:
    return os.getloadavg()[0]


def open_page(p: Any, profile_dir: Path, profile: Profile) -> tuple[Any, Any]:
    """Chromium on ``profile_dir``, one page under ``profile``'s network emulation."""
    context = p.chromium.launch_persistent_context(
        str(profile_dir), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
        viewport={"width": 390, "height": 844}, service_workers="allow")
    page = context.pages[0] if context.pages else context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", profile.conditions())
    return context, page


def visit(page: Any, url: str, sent: Sent) -> dict[str, Any]:
    """Navigate, wait for the ready marker; the figures of the visit until then."""
    before, lines = sent.mark()
    page.goto(url, timeout=TIMEOUT_MS)
    page.wait_for_function(READY, timeout=TIMEOUT_MS)
    after, _ = sent.mark()
    times = page.evaluate(TIMES)
    if times["error"] or times["ready"] is None:
        raise SystemExit(f"bench_first_visit: the game did not start: {times['error']}")
    files: dict[str, int] = {}
    with sent.lock:
        for _, path, _, size in sent.log[lines:]:
            files[path] = files.get(path, 0) + size
    return {"bytes": after - before, "ready_s": times["ready"] / 1000,
            "fcp_s": (times["fcp"] or 0) / 1000, "snapshot": times["snapshot"],
            "requests": len(sent.log) - lines, "files": files, "start": before}


def settle(page: Any, sent: Sent, start: int, timeout_s: float) -> dict[str, Any]:
    """Wait for the first visit's background work (the worker's install, the device's
    snapshot); how long it took after ready, and the bytes of the whole visit."""
    began = time.monotonic()
    state = page.evaluate(SETTLED)
    while not state and time.monotonic() < began + timeout_s:
        page.wait_for_timeout(250)
        state = page.evaluate(SETTLED)
    if not state:
        print(f"bench_first_visit: the first visit did not settle in {timeout_s:.0f} s (service"
              " worker and the device's snapshot)", file=sys.stderr)
        state = "not settled"
    page.wait_for_timeout(1000)  # let the last writes land before Chromium is closed
    device = page.evaluate("() => window.sxmjBoot && sxmjBoot.device || null")
    return {"settled": state, "settled_after_ready_s": round(time.monotonic() - began, 2),
            "bytes_whole_visit": sent.mark()[0] - start, "device": device}


def run_once(p: Any, url: str, sent: Sent, profile: Profile, settle_s: float) -> dict[str, Any]:
    load = load_average()
    with tempfile.TemporaryDirectory(prefix="sxmj-first-visit-") as folder:
        profile_dir = Path(folder)
        context, page = open_page(p, profile_dir, profile)
        try:
            first = visit(page, url, sent)
            first.update(settle(page, sent, first.pop("start"), settle_s))
        finally:
            context.close()
        context, page = open_page(p, profile_dir, profile)
        try:
            second = visit(page, url, sent)
            second.pop("start")
            page.wait_for_timeout(1000)
        finally:
            context.close()
    return {"profile": profile.name, "load": round(load, 2), "load_after": round(load_average(), 2),
            "first": first, "second": second}


# ---------- report ----------


def mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def summary(runs: list[dict[str, Any]], floor: int) -> dict[str, Any]:
    def med(visit: str, key: str) -> float:
        return median([r[visit][key] for r in runs])

    return {
        "runs": len(runs),
        "first_bytes_until_ready": med("first", "bytes"),
        "first_bytes_ratio_to_floor": round(med("first", "bytes") / floor, 3),
        "first_ready_s": med("first", "ready_s"),
        "first_fcp_s": med("first", "fcp_s"),
        "first_bytes_whole_visit": med("first", "bytes_whole_visit"),
        "first_settled_after_ready_s": med("first", "settled_after_ready_s"),
        "second_bytes": med("second", "bytes"),
        "second_ready_s": med("second", "ready_s"),
        "second_fcp_s": med("second", "fcp_s"),
        "second_snapshot": sorted({str(r["second"]["snapshot"]) for r in runs}),
        "load": [r["load"] for r in runs],
    }


def print_run(i: int, run: dict[str, Any]) -> None:
    f, s = run["first"], run["second"]
    print(f"  {run['profile']} run {i}: first visit {mb(f['bytes'])} until ready,"
          f" ready {f['ready_s']:.2f} s, FCP {f['fcp_s']:.2f} s (snapshot {f['snapshot']});"
          f" settled {f['settled_after_ready_s']:.1f} s after ready ({f['settled']},"
          f" {mb(f['bytes_whole_visit'])} in all); second visit {mb(s['bytes'])},"
          f" ready {s['ready_s']:.2f} s, FCP {s['fcp_s']:.2f} s (snapshot {s['snapshot']})"
          f" [load {run['load']:.2f} -> {run['load_after']:.2f}]", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_site")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out")
    parser.add_argument("--profiles", default="4g,slow4g",
                        help=f"comma-separated, of {', '.join(PROFILES)} (default: both)")
    parser.add_argument("--runs", type=int, default=3, help="runs on 4G (default 3)")
    parser.add_argument("--slow-runs", type=int, default=1, help="runs on slow 4G (default 1)")
    parser.add_argument("--files", action="store_true", help="list the bytes of each file")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a target is missed (default: report only)")
    parser.add_argument("--settle", type=float, default=TIMEOUT_MS / 1000, metavar="S",
                        help="wait up to S seconds for the first visit's background work")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").is_file():
        raise SystemExit(f"bench_first_visit: {site} is not built: run `make site`")
    from playwright.sync_api import sync_playwright

    out = args.out.resolve()
    root = out / "first-visit-serve"
    if root.exists():
        shutil.rmtree(root)

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(site, root, copy_function=link)
    floor = runtime_floor(root)
    server, thread, sent, url = start_server(root)
    results: dict[str, Any] = {"floor": floor, "profiles": {}}
    started = time.monotonic()
    print(f"first-visit benchmark: {url} (GitHub Pages-like: gzip -{GZIP_LEVEL}, ETag,"
          f" max-age={MAX_AGE}); runtime floor {mb(floor['floor'])}, load average"
          f" {load_average():.2f}", flush=True)
    try:
        with sync_playwright() as p:
            for key in args.profiles.split(","):
                profile = PROFILES[key.strip()]
                count = args.runs if key.strip() == "4g" else args.slow_runs
                runs = []
                for i in range(count):
                    run = run_once(p, url, sent, profile, args.settle)
                    print_run(i + 1, run)
                    if args.files:
                        for name, size in sorted(run["first"]["files"].items(),
                                                 key=lambda kv: -kv[1])[:25]:
                            print(f"      {size / 1e6:8.3f} MB  {name}")
                    runs.append(run)
                results["profiles"][key] = {"runs": runs,
                                            "summary": summary(runs, floor["floor"])}
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
        shutil.rmtree(root, ignore_errors=True)
    results["seconds"] = round(time.monotonic() - started, 1)
    out.mkdir(parents=True, exist_ok=True)
    (out / "first_visit.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    ok = True
    print(f"\nfirst-visit benchmark ({results['seconds']:.0f} s; bench/out/first_visit.json);"
          f" runtime floor {mb(floor['floor'])} (wasm {mb(floor['pyodide.asm.wasm.gz'])} gz,"
          f" asm.mjs {mb(floor['pyodide.asm.mjs.gz'])} gz, stdlib zip"
          f" {mb(floor['python_stdlib.zip'])})")
    for key, result in results["profiles"].items():
        s = result["summary"]
        loads = ", ".join(f"{x:.2f}" for x in s["load"])
        print(f"  {PROFILES[key].name} (median of {s['runs']}; load average {loads}):")
        within = s["first_bytes_until_ready"] <= BUDGET * floor["floor"]
        ok &= within
        print(f"    first visit, bytes until ready  {mb(s['first_bytes_until_ready'])}"
              f" = {s['first_bytes_ratio_to_floor']:.3f} x floor"
              f" (target <= {BUDGET}: {'ok' if within else 'MISSED'})")
        line = f"    first visit, ready              {s['first_ready_s']:.2f} s"
        if key == "4g":
            met = s["first_ready_s"] <= READY_TARGET_S
            ok &= met
            line += f" (target <= {READY_TARGET_S} s: {'ok' if met else 'MISSED'})"
        print(line)
        print(f"    first visit, FCP                {s['first_fcp_s']:.2f} s")
        print(f"    first visit, in the background  {s['first_settled_after_ready_s']:.1f} s"
              f" after ready, {mb(s['first_bytes_whole_visit'])} in all")
        line = (f"    second visit, ready             {s['second_ready_s']:.2f} s"
                f" ({mb(s['second_bytes'])}, snapshot {', '.join(s['second_snapshot'])})")
        if key == "4g":
            met = s["second_ready_s"] <= SECOND_TARGET_S
            ok &= met
            line += f" (target <= {SECOND_TARGET_S} s: {'ok' if met else 'MISSED'})"
        print(line)
        print(f"    second visit, FCP               {s['second_fcp_s']:.2f} s")
    return 0 if ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
