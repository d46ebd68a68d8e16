"""Offline play and installing: the service worker of the built site, and the web app manifest.

``make site`` stamps ``sw.js`` with the build hash and the files the pages use, with the hash
of each; once the game is ready, index.html registers it; it caches them in ``sxmj-<build>``
(taking what the page already downloaded from the page or the HTTP cache, never from the
network) and answers from that cache, so a reload works with the network gone (a game, the
daily, and a hand's review, whose worker starts a second Pyodide from the cache). A new build
replaces the old cache. The dev page (build "dev", ``make play``) registers no worker.
(What a first visit downloads, and that nothing is downloaded twice: test_first_visit.py.)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import time
from pathlib import Path

import pytest
from harness import PREFIX, SITE, serve, wait_ready, watch
from test_review import review_imported_record

HAND = '[data-testid="my-hand"] button[data-tile]'
MY_DISCARD = HAND + ":not([disabled])"
PASS = '#actions button[data-action="pass"]'
WAITING = "() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
CONTROLLED = "() => !!navigator.serviceWorker.controller"
DEVICE_DONE = "() => ['kept', 'failed', 'skipped'].includes(window.sxmjBoot.device.state)"
CACHES = "async () => { const out = {}; for (const n of await caches.keys())" \
    " out[n] = (await (await caches.open(n)).keys()).map(r => r.url); return out; }"


def site_build() -> str:
    html = (SITE / "index.html").read_text(encoding="utf-8")
    return re.search(r'<meta name="sxmj-build" content="([0-9a-f]{16})">', html).group(1)


def sw_files(root: Path = SITE) -> dict[str, str]:
    """The service worker's FILES: {"./path": the first 16 hex digits of its SHA-256}."""
    code = (root / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"^const FILES = (\{.*?\});$", code, re.M | re.S).group(1))


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@pytest.fixture
def own_site(tmp_path):
    """A copy of _site on a server of its own (so a test can stop it, or deploy anew)."""
    root = tmp_path / "site"

    def link(src, dst):
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(SITE, root, copy_function=link)
    servers = []

    def start():
        server, thread = serve.serve_in_thread(root, prefix=PREFIX)
        servers.append((server, thread))
        return serve.server_url(server)

    def stop():
        server, thread = servers.pop()
        server.shutdown()
        server.server_close()
        thread.join(5)

    yield root, start, stop
    while servers:
        stop()


def rewrite(path: Path, old: str, new: str) -> None:
    """Replace text in a (possibly hard-linked) copy without touching _site."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.unlink()
    path.write_text(text.replace(old, new), encoding="utf-8")


# ---------- the built site ----------


def test_site_is_stamped_with_its_build():
    build = site_build()
    code = (SITE / "sw.js").read_text(encoding="utf-8")
    assert f'const BUILD = "{build}";' in code
    files = sw_files()
    assert list(files)[0] == "./" and files["./"] == files["./index.html"]
    for file, digest in files.items():
        assert file == "./" or file_hash(SITE / file) == digest, file
    kit = json.loads((SITE / "static/vendor/snapshot/manifest.json").read_text())
    for needed in ("./index.html", "./learn.html", "./calc.html", "./embed.html", "./main.py",
                   "./pyscript.toml", "./manifest.webmanifest", "./static/css/table.css",
                   "./static/tiles/1m.svg", "./static/icons/app-192.png",
                   "./static/vendor/pyodide/pyodide.asm.wasm",
                   "./static/vendor/pyodide/python_stdlib.zip",
                   "./static/vendor/pyscript/core.js", "./static/vendor/pyscript/core.css",
                   f"./static/vendor/snapshot/{kit['stdlib']}",
                   f"./static/vendor/snapshot/{kit['bundle']}",
                   "./static/boot/pyodide-snapshot.mjs", "./static/boot/snapshot-worker.js",
                   "./static/boot/review-worker.js", "./static/boot/cache-first.mjs"):
        assert needed in files, needed
    # what no page uses is left out: the sources one by one (the bundle holds them, the
    # command line too), the kit's manifest, the article, PyScript's editor and terminal
    assert not [f for f in files if f.startswith(("./sxmj/", "./examples/"))]
    assert "./static/vendor/snapshot/manifest.json" not in files
    unused = [f for f in files if re.search(r"/(codemirror|xterm|mpy-|zip-|pyodide_graph)", f)]
    assert not unused, unused
    on_disk = {"./" + p.relative_to(SITE).as_posix() for p in SITE.rglob("*") if p.is_file()}
    assert set(files) - {"./"} <= on_disk
    # relative URLs only: the site works under any sub-path
    assert all(f.startswith("./") for f in files)
    assert '"/' not in code and "'/" not in code and "http" not in code


# ---------- offline ----------


def test_second_visit_plays_offline(browser, browser_context_args, own_site,
                                    tmp_path):
    root, start, stop = own_site
    url = start()
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        w = watch(page, url)
        page.goto(url)
        wait_ready(page, w)
        page.wait_for_function(CONTROLLED, timeout=60000)
        cached = page.evaluate(CACHES)
        build = site_build()
        assert list(cached) == [f"sxmj-{build}"], list(cached)
        urls = set(cached[f"sxmj-{build}"])
        missing = [f for f in sw_files() if url + f.removeprefix("./") not in urls]
        assert not missing, missing
        # the device makes its memory snapshot and keeps it there too
        page.wait_for_function(DEVICE_DONE, timeout=90000)
        assert page.evaluate("sxmjBoot.device.state") == "kept"
        w.assert_clean()

        stop()  # the server is gone, and the browser is offline too
        context.set_offline(True)
        w = watch(page, url)
        page.reload()
        wait_ready(page, w)
        w.assert_clean()
        snapshot = page.evaluate("() => window.sxmjBoot.snapshot")
        assert snapshot["state"] == "loaded" and snapshot["cached"] is True, snapshot
        assert page.evaluate(CONTROLLED)
        discard_one_tile(page)  # and it plays
        w.assert_clean()
        # today's daily challenge too, from the device's clock: no server to ask
        with page.expect_navigation():
            page.locator('[data-testid="daily-open"]').click()
        wait_ready(page, w)
        assert page.locator('[data-testid="daily"]').get_attribute("data-day")
        discard_one_tile(page)
        w.assert_clean()
        # and a hand's review, in its worker: a second Pyodide, from the cache alone
        review_imported_record(page, w, url, tmp_path, where="worker", shot=False)
    finally:
        context.close()


def discard_one_tile(page) -> None:
    """Wait for the player's turn (declining claims on the way) and discard a tile."""
    for _ in range(20):
        page.wait_for_function(WAITING, timeout=30000)
        if page.locator(MY_DISCARD).count():
            before = page.locator(HAND).count()
            page.locator(MY_DISCARD).first.click()
            page.wait_for_function(
                "([hand, n]) => document.querySelectorAll(hand).length !== n"
                " || document.body.dataset.sxmjWaiting !== 'you'",
                arg=[HAND, before],
                timeout=10000,
            )
            return
        if page.locator(PASS).count():
            page.locator(PASS).first.click()  # a claim offer on a bot's discard: decline
            page.wait_for_timeout(100)
            continue
        pytest.fail("the hand ended before the player could discard")
    pytest.fail("the player never got to discard")


def test_new_build_replaces_the_old_cache(browser, browser_context_args, own_site):
    root, start, stop = own_site
    url = start()
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(url)
        wait_ready(page)
        page.wait_for_function(CONTROLLED, timeout=60000)
        old = site_build()
        assert list(page.evaluate(CACHES)) == [f"sxmj-{old}"]
        # deploy a new build (only its hash differs): its worker takes every unchanged file
        # from the old cache, and downloads index.html, whose hash it checks
        new = "0123456789abcdef"
        rewrite(root / "index.html", f'content="{old}"', f'content="{new}"')
        files_hash = sw_files(root)["./index.html"]
        page_hash = file_hash(root / "index.html")
        rewrite(root / "sw.js", f'const BUILD = "{old}";', f'const BUILD = "{new}";')
        code = (root / "sw.js").read_text(encoding="utf-8")
        rewrite(root / "sw.js", code, code.replace(f'"{files_hash}"', f'"{page_hash}"'))
        page.evaluate("async () => (await navigator.serviceWorker.ready).update()")
        deadline = time.monotonic() + 60
        while list(page.evaluate(CACHES)) != [f"sxmj-{new}"]:  # installed, old cache deleted
            assert time.monotonic() < deadline, page.evaluate(CACHES).keys()
            page.wait_for_timeout(250)
        page.reload()
        wait_ready(page)
        assert page.evaluate("() => window.sxmjBoot.build") == new
    finally:
        context.close()


def test_dev_page_registers_no_service_worker(fresh, site_url):
    page = fresh()
    build = site_build()
    original = (SITE / "index.html").read_text(encoding="utf-8")
    page.route(
        re.compile(r".*/sxmj/(index\.html)?$"),
        lambda route: route.fulfill(
            body=original.replace(f'content="{build}"', 'content="dev"'),
            content_type="text/html; charset=utf-8",
        ),
    )
    w = watch(page, site_url)
    page.goto(site_url)
    wait_ready(page, w)
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.sxmjBoot.build") == "dev"
    registrations = "async () => (await navigator.serviceWorker.getRegistrations()).length"
    assert page.evaluate(registrations) == 0
    assert not [e for e in page.evaluate("() => window.sxmjBoot.log") if e["event"] == "sw"]
    w.assert_clean()


# ---------- installing ----------


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def test_manifest_parses_and_every_icon_exists():
    manifest = json.loads((SITE / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == "绍兴麻将 Shaoxing Mahjong"
    assert manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["start_url"] == "." and manifest["scope"] == "."
    assert manifest["display"] in ("fullscreen", "standalone")
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[key]), key
    maskable = set()
    for icon in manifest["icons"]:
        assert not icon["src"].startswith(("/", "http")), icon
        path = SITE / icon["src"]
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            w, h = png_size(path)
            assert icon["sizes"] == f"{w}x{h}", icon
            if "maskable" in icon["purpose"].split():
                maskable.add(icon["sizes"])
    assert {"192x192", "512x512"} <= maskable


def test_index_links_the_manifest_and_a_touch_icon(site_url, browser, browser_context_args):
    html = (SITE / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="./manifest.webmanifest">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="\./([^"]+)">', html).group(1)
    assert (SITE / touch).is_file()
    context = browser.new_context(**browser_context_args)
    try:
        response = context.request.get(site_url + "manifest.webmanifest")
        assert response.ok
        assert response.headers["content-type"] == "application/manifest+json"
        json.loads(response.text())
    finally:
        context.close()
