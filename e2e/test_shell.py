"""The static game shell: offline boot, the skeleton before Python, relative URLs, errors."""

from __future__ import annotations

import json
import re
import tomllib
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from harness import BOOT_RUNTIME, DESKTOP, PHONE, SITE, boot_log, build_vendor, wait_ready, watch

# the boot itself is tested here: every page starts as a first visit does
pytestmark = pytest.mark.cold_boot

STAGE_TEXT = {
    "download": ("正在下载运行时", "Downloading runtime"),
    "start": ("正在启动 Python", "Starting Python"),
    "prepare": ("正在准备牌桌", "Preparing the table"),
}
SKELETON_IDS = (
    "table",
    "seat-top",
    "seat-left",
    "seat-right",
    "seat-bottom",
    "center",
    "panel",
    "actions",
    "hand",
    "loading",
    "loading-progress",
)
EMPTY_MODULE = {"body": "export {};", "content_type": "text/javascript"}


class Links(HTMLParser):
    """Every URL-bearing attribute, and every id, of an HTML document."""

    URL_ATTRS = {"src", "href", "config", "action", "poster", "srcset", "data"}

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in self.URL_ATTRS and value is not None:
                self.urls.append((tag, name, value))


def parse(html: str) -> Links:
    links = Links()
    links.feed(html)
    return links


def get_text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


# ---------- the booted page (shared by the module) ----------


def test_boots_to_ready_offline_without_errors(booted, artifacts):
    page, w = booted.page, booted.watch
    assert page.evaluate("document.body.dataset.sxmjReady") == "1"
    assert page.locator("body[data-sxmj-ready='1']").count() == 1
    w.assert_clean()
    assert w.off_origin == []
    # everything came from the test server, below the sub-path
    assert all(u.startswith(booted.url) for u in w.requests if u.startswith("http")), w.requests
    # each runtime file is downloaded exactly once (the preloads in index.html must match
    # the requests Pyodide makes, or the 9.6 MB wasm is fetched twice)
    runtime = sorted(u.rsplit("/", 1)[1] for u in w.requests if "/static/vendor/pyodide/" in u)
    assert runtime == sorted(BOOT_RUNTIME), runtime
    timings = {
        "boot_seconds_measured_by_test": round(booted.boot_seconds, 2),
        "navigation": page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return {domContentLoaded: Math.round(n.domContentLoadedEventEnd),"
            " load: Math.round(n.loadEventEnd)} }"
        ),
        "first_contentful_paint": page.evaluate(
            "() => Math.round(performance.getEntriesByName('first-contentful-paint')[0].startTime)"
        ),
        "boot_log": page.evaluate("() => window.sxmjBoot.log"),
        "requests": len(w.requests),
    }
    (artifacts / "boot-timings.json").write_text(json.dumps(timings, indent=1) + "\n")
    # the skeleton painted long before Python was up
    python_up = next(e["t"] for e in timings["boot_log"] if e["detail"] == "prepare")
    assert timings["first_contentful_paint"] < python_up


def test_the_page_may_connect_to_the_site_and_its_brokers_only(booted):
    """The head's Content-Security-Policy says what may run; page-boot.js's, where the page
    may connect (issue 56): the site, and PeerJS's broker for a room with no ?broker=."""
    page = booted.page
    policies = page.evaluate("""() => [...document.querySelectorAll(
        'meta[http-equiv="Content-Security-Policy"]')].map(m => m.content)""")
    assert len(policies) == 2 and "object-src 'none'" in policies[0]
    assert "'unsafe-inline'" not in policies[0].split(";")[0]  # scripts: no inline handler
    assert policies[1].startswith("connect-src 'self'") and "wss://0.peerjs.com" in policies[1]
    blocked = page.evaluate("""async () => {
        const seen = new Promise((resolve) => document.addEventListener(
            "securitypolicyviolation", (e) => resolve(e.violatedDirective), {once: true}));
        const got = await fetch("http://127.0.0.9:9/x").then(() => "fetched", () => "failed");
        return [got, await seen];
    }""")
    assert blocked == ["failed", "connect-src"]
    # the refusal's console line is the point of this test, not a misbehaviour
    booted.watch.errors[:] = [e for e in booted.watch.errors
                              if "Content Security Policy" not in e]
    booted.watch.failed[:] = [f for f in booted.watch.failed if "127.0.0.9" not in f]


def test_ready_page_drops_the_overlay(booted):
    page = booted.page
    page.wait_for_selector("#loading", state="detached", timeout=5000)
    assert page.get_attribute("#table", "aria-busy") == "false"
    assert page.locator(".py-error").count() == 0


def test_boot_stages_advance_in_order(booted):
    boot = booted.page.evaluate("() => window.sxmjBoot")
    stages = [e["detail"] for e in boot["log"] if e["event"] == "stage"]
    assert stages == ["start", "prepare", "ready"], boot["log"]
    assert boot["percent"] == 100 and boot["error"] is None
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"):
        assert name in boot["fetched"], boot["fetched"]
    times = [e["t"] for e in boot["log"]]
    assert times == sorted(times)


def test_runtime_is_served_with_the_right_types(booted):
    api = booted.page.request
    wasm = api.get(booted.url + "static/vendor/pyodide/pyodide.asm.wasm")
    assert wasm.ok and wasm.headers["content-type"] == "application/wasm"
    assert wasm.headers["cache-control"] == "no-cache"
    mjs = api.get(booted.url + "static/vendor/pyodide/pyodide.mjs")
    assert mjs.headers["content-type"] == "text/javascript"


def built_sources() -> list[str]:
    """The sources the built interpreter module writes when needed (its ``SOURCES``)."""
    wrapper = (SITE / "static" / "boot" / "pyodide-snapshot.mjs").read_text(encoding="utf-8")
    found = re.search(r"^const SOURCES = (\[.*\]);$", wrapper, flags=re.M)
    assert found, "make site writes the [files] list into the interpreter module"
    return json.loads(found[1])


def test_every_sxmj_module_imports_in_the_browser(booted):
    """Each module the site ships imports under Pyodide (a second script shares the
    interpreter): those the snapshot holds, and those the interpreter module wrote beside it."""
    modules = sorted(
        path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for path in built_sources()
        if not path.endswith("__main__.py")
    )
    assert "sxmj" in modules and "sxmj.ui.table.app" in modules
    code = (
        "import importlib, json, traceback\n"
        "from pyscript import document\n"
        "failed = {}\n"
        f"for name in {modules!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except BaseException:\n"
        "        failed[name] = traceback.format_exc(limit=3)\n"
        "document.body.dataset.importCheck = json.dumps(failed)\n"
    )
    page = booted.page
    page.evaluate(
        "code => { const s = document.createElement('script');"
        " s.type = 'py'; s.textContent = code; document.body.append(s); }",
        code,
    )
    page.wait_for_function("() => document.body.dataset.importCheck !== undefined", timeout=30000)
    failed = json.loads(page.evaluate("() => document.body.dataset.importCheck"))
    assert failed == {}, "\n".join(f"{k}:\n{v}" for k, v in failed.items())


def test_ready_screenshots(booted, artifacts):
    page = booted.page
    page.screenshot(path=artifacts / "ready-1280x800.png")
    try:
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(100)
        page.screenshot(path=artifacts / "ready-390x844.png")
        assert_hand_fits(page)
    finally:
        page.set_viewport_size(DESKTOP)


def assert_hand_fits(page):
    """The whole hand is inside the viewport, with no sideways scrolling."""
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = page.locator("#hand > *").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right] })"
    )
    assert boxes and all(0 <= left and right <= width for left, right in boxes), boxes


# ---------- before Python: what index.html paints by itself ----------


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_skeleton_paints_before_python(fresh, site_url, artifacts, viewport):
    page = fresh(viewport=viewport)
    w = watch(page, site_url)
    page.route("**/static/vendor/pyscript/core.js", lambda route: route.fulfill(**EMPTY_MODULE))
    page.goto(site_url)
    page.wait_for_load_state("load")
    for element_id in SKELETON_IDS:
        assert page.locator(f"#{element_id}").is_visible(), element_id
    assert page.locator("#hand > *").count() == 14
    assert page.locator("#seat-top .back").count() == 13
    assert page.get_attribute("#loading", "data-stage") in ("download", "start")
    text = page.inner_text("#loading")
    assert "绍兴麻将" in text and "Shaoxing Mahjong" in text
    zh, en = page.inner_text("#loading-zh"), page.inner_text("#loading-en")
    assert zh.startswith(("正在下载运行时", "正在启动 Python")), zh
    assert en.startswith(("Downloading runtime", "Starting Python")), en
    assert page.locator("#loading-error").is_hidden()
    assert page.evaluate("document.body.dataset.sxmjReady") is None
    page.screenshot(path=artifacts / f"skeleton-{viewport['width']}x{viewport['height']}.png")
    if viewport is PHONE:
        assert_hand_fits(page)
    w.assert_clean()


def test_initial_html_has_the_skeleton_and_bilingual_loading_text(site_url):
    html = get_text(site_url)
    ids = parse(html).ids
    assert set(SKELETON_IDS) <= ids, set(SKELETON_IDS) - ids
    for zh, en in STAGE_TEXT.values():
        assert zh in html and en in html, (zh, en)
    assert '<html lang="' in html
    assert '<meta name="viewport"' in html
    assert "<title>绍兴麻将 Shaoxing Mahjong</title>" in html
    # the overlay is in the markup itself, visible from the first paint
    assert '<div id="loading" class="loading" data-stage="download">' in html


def test_every_url_in_index_html_is_relative(site_url):
    html = get_text(site_url)
    links = parse(html)
    assert links.urls, "no URL found at all?"
    for tag, attr, url in links.urls:
        assert url.startswith("./"), f"<{tag} {attr}={url!r}> is not relative"
    assert '"/static' not in html and "'/static" not in html
    assert "http://" not in html and "https://" not in html
    css = get_text(site_url + "static/css/table.css")
    assert "url(" not in css.replace("url(./", "").replace('url("./', "")
    assert "@import" not in css and "@font-face" not in css


def test_favicon_is_a_real_icon(site_url):
    html = get_text(site_url)
    icons = re.findall(r'<link rel="icon" href="([^"]+)"', html)
    assert icons == ["./static/icons/favicon.svg"]
    svg = get_text(site_url + icons[0].removeprefix("./"))
    assert svg.lstrip().startswith("<svg") and "财" in svg


# ---------- when the boot fails ----------


def test_python_error_shows_a_readable_error_with_retry(fresh, site_url, artifacts):
    page = fresh()
    page.route(
        "**/sxmj/main.py",
        lambda route: route.fulfill(
            body='raise RuntimeError("boom from the e2e test")\n', content_type="text/x-python"
        ),
    )
    page.goto(site_url)
    error = page.locator("#loading-error")
    error.wait_for(state="visible", timeout=90000)
    assert page.get_attribute("#loading", "data-stage") == "error", boot_log(page)
    assert page.inner_text("#loading-zh") == "启动失败"
    assert page.inner_text("#loading-en") == "Could not start"
    assert "请重试" in error.inner_text() and "Retry" in error.inner_text()
    assert "boom from the e2e test" in page.locator("#loading-error-detail").inner_text()
    retry = page.locator("#loading-retry")
    assert retry.is_visible() and retry.evaluate("b => b === document.activeElement")
    page.screenshot(path=artifacts / "error-1280x800.png")
    page.unroute("**/sxmj/main.py")
    with page.expect_navigation():
        retry.click()
    wait_ready(page)


# ---------- the deployable folder ----------


def test_site_holds_only_what_the_game_needs():
    top = sorted(p.name for p in SITE.iterdir())
    assert top == [
        ".nojekyll", "calc.html", "calc_main.py", "embed.html", "embed_main.py", "examples",
        "index.html", "learn.html", "learn_main.py", "main.py", "manifest.webmanifest",
        "pyscript.toml", "static", "sw.js", "sxmj",
    ]
    assert {p.name for p in (SITE / "static").iterdir()} >= {
        "boot", "css", "icons", "tiles", "vendor"
    }
    assert not list(SITE.rglob("*.map")) and not list(SITE.rglob("__pycache__"))
    shipped = sorted(p.relative_to(SITE).as_posix() for p in (SITE / "sxmj").rglob("*.py"))
    # PyScript fetches no source (the snapshot holds them): [files] moved into the interpreter
    # module, which writes what the snapshot lacks, or everything on a normal boot
    config = tomllib.loads((SITE / "pyscript.toml").read_text(encoding="utf-8"))
    assert "files" not in config
    assert shipped == built_sources()
    vendored = {p.name for p in (SITE / "static" / "vendor" / "pyodide").iterdir()}
    assert vendored == set(build_vendor.PYODIDE_FILES)


def test_the_testing_doc_documents_the_artifacts_folder():
    doc = Path(__file__).resolve().parent.parent / "docs" / "testing.md"
    assert "e2e/artifacts" in doc.read_text(encoding="utf-8")
