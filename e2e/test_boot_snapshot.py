"""The game boots from the Pyodide memory snapshot, and boots normally whenever it must not.

``make site`` builds ``static/vendor/snapshot/`` (scripts/build_snapshot.py) and pyscript.toml's
``interpreter`` is ``static/boot/pyodide-snapshot.mjs``, which uses the snapshot only when its
manifest matches the runtime and the served sources; otherwise it warns (a console warning,
not an error) and PyScript gets a normally booted Pyodide. ``window.sxmjBoot.snapshot`` says
which happened.
"""

from __future__ import annotations

import json
import re

import pytest
from harness import SITE, boot_log, wait_ready, watch

SNAPSHOT = SITE / "static" / "vendor" / "snapshot"


def manifest() -> dict:
    return json.loads((SNAPSHOT / "manifest.json").read_text(encoding="utf-8"))


def run_python(page, code: str, key: str) -> str:
    """Run ``code`` in the page's interpreter; it must set ``document.body.dataset[key]``."""
    page.evaluate(
        "code => { const s = document.createElement('script');"
        " s.type = 'py'; s.textContent = code; document.body.append(s); }",
        code,
    )
    page.wait_for_function(f"() => document.body.dataset.{key} !== undefined", timeout=30000)
    return page.evaluate(f"() => document.body.dataset.{key}")


def boot(fresh, site_url):
    """A fresh page booted cleanly to ready, and the console warnings it printed."""
    page = fresh()
    w = watch(page, site_url)
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(site_url)
    wait_ready(page, w)
    w.assert_clean()
    return page, w, warnings


def snapshot_state(page) -> dict:
    return page.evaluate("() => window.sxmjBoot.snapshot")


def test_site_ships_a_snapshot_for_its_sources():
    m = manifest()
    assert m["format"] == 2
    assert sum(length for _, length in m["runs"]) == m["packed"] < m["raw"]
    assert m["pyodide"] == json.loads((SITE.parent / "node_modules" / "pyodide" / "package.json")
                                      .read_text(encoding="utf-8"))["version"]
    snap = SNAPSHOT / m["snapshot"]
    assert snap.is_file() and snap.name.endswith(".snap.gz")
    assert snap.read_bytes()[:2] == b"\x1f\x8b"  # gzip
    assert sorted(p.name for p in SNAPSHOT.iterdir()) == sorted(["manifest.json", snap.name])
    # the game's modules are inside, the UI too (it imports `pyscript` only when started)
    sources = m["sources"]
    for name in ("sxmj/__init__.py", "sxmj/match.py", "sxmj/bots/__init__.py",
                 "sxmj/bots/hard.py", "sxmj/scoring.py", "sxmj/request.py", "sxmj/record.py",
                 "sxmj/ranks.py", "sxmj/ui/table/app.py", "sxmj/ui/table/view.py"):
        assert name in sources, name
    # the command line is left out, and no page module pulls it in any more
    assert "sxmj/__main__.py" not in sources and "sxmj/cli.py" not in sources
    for path, want in sources.items():
        assert (SITE / path).stat().st_size == want["size"], path


def test_boots_from_the_snapshot(fresh, site_url):
    page, w, warnings = boot(fresh, site_url)
    state = snapshot_state(page)
    assert state["state"] == "loaded", (state, boot_log(page))
    assert state["file"] == manifest()["snapshot"]
    assert not [t for t in warnings if "snapshot" in t or "preload" in t], warnings
    # index.html preloads the snapshot and its manifest: each is downloaded once
    for name in ("manifest.json", state["file"]):
        fetched = [u for u in w.requests if u.endswith("/static/vendor/snapshot/" + name)]
        assert len(fetched) == 1, (name, fetched)
    # no source the snapshot holds is fetched (PyScript's [files] moved out of the built
    # pyscript.toml); only those it lacks, which no page imports, are written beside it
    sources = [u.split("/sxmj/", 1)[1] for u in w.requests if re.search(r"/sxmj/sxmj/.*\.py$", u)]
    assert sorted(sources) == ["sxmj/__main__.py", "sxmj/cli.py"], sources
    log = page.evaluate("() => window.sxmjBoot.log")
    assert [e["detail"] for e in log if e["event"] == "stage"] == ["start", "prepare", "ready"]
    assert any(e["event"] == "snapshot" and e["detail"].startswith("loaded") for e in log), log
    # the snapshot's sxmj is the one the game runs, at the path PyScript writes the files to
    found = run_python(
        page,
        "import sys, json\nfrom pyscript import document\n"
        "document.body.dataset.where = json.dumps("
        "[sys.modules['sxmj.match'].__file__, 'sxmj.scoring' in sys.modules])\n",
        "where",
    )
    assert json.loads(found) == ["/home/pyodide/sxmj/match.py", True]


def test_random_is_reseeded_after_the_restore(fresh, site_url):
    """The snapshot froze `random`'s state: two visits must not deal the same."""
    draws = []
    for _ in range(2):
        page, w, _ = boot(fresh, site_url)
        assert snapshot_state(page)["state"] == "loaded"
        draws.append(run_python(
            page,
            "import random\nfrom pyscript import document\n"
            "document.body.dataset.draw = repr(random.getrandbits(64))\n",
            "draw",
        ))
    assert draws[0] != draws[1], draws


def test_missing_snapshot_boots_normally(fresh, site_url):
    page = fresh()
    page.route("**/static/vendor/snapshot/manifest.json",
               lambda route: route.fulfill(status=404, body="not found"))
    w = watch(page, site_url)
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(site_url)
    # a 404 is reported by the browser itself as a console error: expected here
    wait_ready(page, None)
    problems = [p for p in w.problems() if "manifest.json" not in p and "404" not in p]
    assert not problems, problems
    state = snapshot_state(page)
    assert state["state"] == "skipped" and "404" in state["reason"], state
    assert any("without the memory snapshot" in t for t in warnings), warnings
    # booted the normal way, the interpreter module wrote every source PyScript no longer does
    found = run_python(
        page,
        "import os, json\nfrom pyscript import document\n"
        "document.body.dataset.written = json.dumps(sorted("
        "os.path.relpath(os.path.join(d, f), '/home/pyodide')"
        " for d, _, fs in os.walk('/home/pyodide/sxmj') for f in fs if f.endswith('.py')))\n",
        "written",
    )
    shipped = sorted(str(p.relative_to(SITE)) for p in (SITE / "sxmj").rglob("*.py"))
    assert json.loads(found) == shipped


@pytest.mark.parametrize(
    ("what", "expected"),
    [("corrupt", "failed"), ("version", "skipped"), ("format", "skipped")],
)
def test_unusable_snapshot_boots_normally(fresh, site_url, what, expected):
    page = fresh()
    m = manifest()
    if what == "corrupt":
        page.route(f"**/static/vendor/snapshot/{m['snapshot']}",
                   lambda route: route.fulfill(body=b"\x1f\x8b this is not gzip",
                                               content_type="application/gzip"))
    else:
        changed = {**m, "pyodide": "0.0.1"} if what == "version" else {**m, "format": 99}
        page.route("**/static/vendor/snapshot/manifest.json",
                   lambda route: route.fulfill(body=json.dumps(changed),
                                               content_type="application/json"))
    w = watch(page, site_url)
    warnings = []
    page.on("console", lambda m_: warnings.append(m_.text) if m_.type == "warning" else None)
    page.goto(site_url)
    wait_ready(page, w)
    w.assert_clean()
    state = snapshot_state(page)
    assert state["state"] == expected, state
    assert any("without the memory snapshot" in t for t in warnings), warnings


def as_dev_page(page) -> None:
    """Serve index.html as in the repository (`make play`): build "dev", no snapshot preload."""
    html = (SITE / "index.html").read_text(encoding="utf-8")
    html = re.sub(r'<meta name="sxmj-build" content="[0-9a-f]+">\n(  <link rel="preload" href='
                  r'"\./static/vendor/snapshot/[^"]+" as="fetch" crossorigin>\n)*',
                  '<meta name="sxmj-build" content="dev">\n', html)
    assert 'content="dev"' in html and "vendor/snapshot" not in html
    page.route(re.compile(r".*/sxmj/(index\.html)?$"), lambda route: route.fulfill(
        body=html, content_type="text/html; charset=utf-8"))


def test_built_page_trusts_its_own_snapshot(fresh, site_url):
    """A built page preloads its snapshot: no need to fetch and compare every source first."""
    page, w, _ = boot(fresh, site_url)
    assert snapshot_state(page)["checked"] == "build"


def test_dev_page_checks_the_sources_and_boots_from_the_snapshot(fresh, site_url):
    page = fresh()
    as_dev_page(page)
    w = watch(page, site_url)
    page.goto(site_url)
    wait_ready(page, w)
    w.assert_clean()
    state = snapshot_state(page)
    assert state["state"] == "loaded" and state["checked"] == "sources", state


def test_edited_source_is_not_run_from_a_stale_snapshot(fresh, site_url):
    """Dev page, a served module that differs from the snapshot's copy (an edit after `make
    snapshot`): boot normally and run the served module."""
    page = fresh()
    as_dev_page(page)
    source = (SITE / "sxmj" / "ranks.py").read_text(encoding="utf-8")
    page.route("**/sxmj/sxmj/ranks.py", lambda route: route.fulfill(
        body=source + "\nEDITED_AFTER_THE_SNAPSHOT = 1\n", content_type="text/x-python"))
    w = watch(page, site_url)
    page.goto(site_url)
    wait_ready(page, w)
    w.assert_clean()
    state = snapshot_state(page)
    assert state["state"] == "skipped" and "sxmj/ranks.py" in state["reason"], state
    edited = run_python(
        page,
        "import sxmj.ranks\nfrom pyscript import document\n"
        "document.body.dataset.edited = repr("
        "getattr(sxmj.ranks, 'EDITED_AFTER_THE_SNAPSHOT', 0))\n",
        "edited",
    )
    assert edited == "1"
