"""How Python starts: from the standard library compiled at build time on a first visit, from
the memory snapshot the device made itself on every later one, and the normal way whenever the
snapshot must not or cannot be used.

``make site`` builds ``static/vendor/snapshot/`` (scripts/build_snapshot.py: the compiled
standard library, the sources bundle, the manifest) and pyscript.toml's ``interpreter`` is
``static/boot/pyodide-snapshot.mjs``. ``window.sxmjBoot.snapshot`` says how the interpreter
started, ``window.sxmjBoot.device`` what became of this device's snapshot.
"""

from __future__ import annotations

import json
import re
import zipfile

import pytest
from harness import SITE, boot_log, wait_ready, watch

# the boot itself is tested here: every page starts as a first visit does
pytestmark = pytest.mark.cold_boot

KIT_DIR = SITE / "static" / "vendor" / "snapshot"
# what the page requested until it was ready (resource timing, from navigation start)
BEFORE_READY = """() => { const t = sxmjBoot.log.find(e => e.detail === 'ready').t;
  return performance.getEntriesByType('resource').filter(e => e.startTime <= t)
    .map(e => e.name); }"""
DEVICE_DONE = "() => ['kept', 'failed', 'skipped'].includes(window.sxmjBoot.device.state)"
# the device's snapshot entries in the site's cache
DEVICE_ENTRIES = """async () => { const out = [];
  for (const n of await caches.keys())
    for (const r of await (await caches.open(n)).keys())
      if (r.url.includes('/static/vendor/snapshot/device-')) out.push([n, r.url]);
  return out; }"""


def manifest() -> dict:
    return json.loads((KIT_DIR / "manifest.json").read_text(encoding="utf-8"))


def built_kit() -> dict:
    code = (SITE / "static" / "boot" / "pyodide-snapshot.mjs").read_text(encoding="utf-8")
    found = re.search(r"^const KIT = (\{.*\});$", code, flags=re.M)
    assert found, "make site writes the kit's manifest into the interpreter module"
    return json.loads(found[1])


def run_python(page, code: str, key: str, timeout: float = 30000) -> str:
    """Run ``code`` in the page's interpreter; it must set ``document.body.dataset[key]``."""
    page.evaluate(
        "code => { const s = document.createElement('script');"
        " s.type = 'py'; s.textContent = code; document.body.append(s); }",
        code,
    )
    page.wait_for_function(f"() => document.body.dataset.{key} !== undefined", timeout=timeout)
    return page.evaluate(f"() => document.body.dataset.{key}")


def boot(page, site_url):
    """Boot ``page`` cleanly to ready; the watch and the console warnings it printed."""
    w = watch(page, site_url)
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(site_url)
    wait_ready(page, w)
    w.assert_clean()
    return w, warnings


def state(page) -> dict:
    return page.evaluate("() => window.sxmjBoot.snapshot")


def device_done(page) -> dict:
    page.wait_for_function(DEVICE_DONE, timeout=90000)
    return page.evaluate("() => window.sxmjBoot.device")


def reload(page, site_url):
    w = watch(page, site_url)
    page.reload()
    wait_ready(page, w)
    w.assert_clean()
    return w


# ---------- what the build ships ----------


def test_site_ships_the_kit_not_a_snapshot():
    m = manifest()
    assert m["format"] == 3
    assert m["pyodide"] == json.loads((SITE.parent / "node_modules" / "pyodide" / "package.json")
                                      .read_text(encoding="utf-8"))["version"]
    assert sorted(p.name for p in KIT_DIR.iterdir()) == sorted(
        ["manifest.json", m["stdlib"], m["bundle"]])
    assert not list(SITE.rglob("*.snap.gz"))
    # the compiled standard library: bytecode only, far smaller than the vendored sources
    with zipfile.ZipFile(KIT_DIR / m["stdlib"]) as compiled:
        names = compiled.namelist()
    assert names and all(n.endswith(".pyc") for n in names)
    for module in ("encodings/__init__.pyc", "asyncio/__init__.pyc", "json/__init__.pyc",
                   "dataclasses.pyc", "random.pyc", "pyodide/ffi/__init__.pyc"):
        assert module in names, module
    vendored = SITE / "static" / "vendor" / "pyodide" / "python_stdlib.zip"
    assert (KIT_DIR / m["stdlib"]).stat().st_size < 0.8 * vendored.stat().st_size
    # the bundle holds every source as served
    bundle = json.loads((KIT_DIR / m["bundle"]).read_text(encoding="utf-8"))
    shipped = sorted(p.relative_to(SITE).as_posix() for p in (SITE / "sxmj").rglob("*.py"))
    assert sorted(bundle) == shipped
    for path, text in bundle.items():
        assert (SITE / path).read_text(encoding="utf-8") == text, path
    # the snapshot imports the game's modules, the UI too, never the command line
    for name in ("sxmj.match", "sxmj.bots.hard", "sxmj.scoring", "sxmj.ui.table.app",
                 "sxmj.ui.table.view", "asyncio", "json"):
        assert name in m["imports"], name
    assert "sxmj.cli" not in m["imports"] and "sxmj.__main__" not in m["imports"]
    # the built interpreter module holds the same kit (no manifest fetched on a built page)
    kit = built_kit()
    assert {k: m[k] for k in kit} == kit


# ---------- a first visit ----------


def test_first_visit_boots_from_the_compiled_standard_library(fresh, site_url):
    page = fresh()
    w, warnings = boot(page, site_url)
    s = state(page)
    assert s["state"] == "none" and s["checked"] == "build", (s, boot_log(page))
    assert s["key"] == manifest()["key"]
    assert not [t for t in warnings if "snapshot" in t or "preload" in t], warnings
    m = manifest()
    ready = page.evaluate(BEFORE_READY)
    # the kit's two files, each once (the page preloads them); no manifest, no source one by
    # one, no vendored zip before ready
    for name in (m["stdlib"], m["bundle"]):
        assert len([u for u in ready if u.endswith("/static/vendor/snapshot/" + name)]) == 1, name
    assert not [u for u in ready if u.endswith(("/manifest.json", "/python_stdlib.zip"))], ready
    assert not [u for u in ready if re.search(r"/sxmj/sxmj/.*\.py$", u)], ready
    found = run_python(
        page,
        "import sys, json\nfrom pyscript import document\n"
        "document.body.dataset.where = json.dumps([sys.modules['sxmj.match'].__file__,"
        " sys.modules['json'].__file__, sys.modules['dataclasses'].__file__])\n",
        "where",
    )
    assert json.loads(found) == ["/home/pyodide/sxmj/match.py",
                                 "/lib/python314.zip/json/__init__.pyc",
                                 "/lib/python314.zip/dataclasses.pyc"]


def test_device_makes_its_snapshot_and_later_visits_restore_it(fresh, site_url):
    page = fresh()
    boot(page, site_url)
    made = device_done(page)
    assert made["state"] == "kept", (made, boot_log(page))
    key = manifest()["key"]
    entries = page.evaluate(DEVICE_ENTRIES)
    assert sorted(url.rsplit("/", 1)[1] for _, url in entries) == [
        f"device-{key}.json", f"device-{key}.raw"]
    assert {name for name, _ in entries} == {f"sxmj-{page.evaluate('sxmjBoot.build')}"}
    # every later visit starts from it, with the vendored zip mounted at once
    draws = []
    for _ in range(2):
        w = reload(page, site_url)
        s = state(page)
        assert s["state"] == "loaded" and s["cached"] is True and s["full"] is True, s
        assert s["file"] == f"device-{key}.raw"
        assert page.evaluate("() => window.sxmjBoot.device.state") == "used"
        assert not [u for u in w.requests if "/static/vendor/snapshot/device-" in u]
        # the snapshot froze `random`'s state: two visits must not deal the same
        draws.append(run_python(
            page,
            "import random\nfrom pyscript import document\n"
            "document.body.dataset.draw = repr(random.getrandbits(64))\n",
            "draw",
        ))
    assert draws[0] != draws[1], draws
    # the snapshot's sxmj is the one the game runs, at the path PyScript writes the files to
    found = run_python(
        page,
        "import sys, json, linecache\nfrom pyscript import document\n"
        "f = sys.modules['sxmj.match'].__file__\n"
        "document.body.dataset.restored = json.dumps([f, bool(linecache.getline(f, 1))])\n",
        "restored",
    )
    assert json.loads(found) == ["/home/pyodide/sxmj/match.py", True]


def test_the_whole_standard_library_is_mounted_after_ready(fresh, site_url):
    """The compiled zip holds what the pages use; anything else comes from the vendored zip,
    which goes on sys.path once the page is ready (from the service worker's cache)."""
    page = fresh()
    boot(page, site_url)
    page.wait_for_function("() => window.sxmjBoot.snapshot.full === true", timeout=60000)
    found = run_python(
        page,
        "import sys, json\nfrom pyscript import document\n"
        "import email.message, difflib\n"
        "document.body.dataset.full = json.dumps([email.message.__file__, sys.path[-1]])\n",
        "full",
    )
    assert json.loads(found) == ["/lib/python_stdlib.zip/email/message.py",
                                 "/lib/python_stdlib.zip"]


# ---------- when the snapshot must not or cannot be used ----------


def test_a_broken_device_snapshot_boots_normally_and_is_made_again(fresh, site_url):
    page = fresh()
    boot(page, site_url)
    assert device_done(page)["state"] == "kept"
    key = manifest()["key"]
    page.evaluate(
        """async (key) => { const c = await caches.open('sxmj-' + sxmjBoot.build);
        const url = new URL('static/vendor/snapshot/device-' + key + '.raw', location.href).href;
        await c.put(url, new Response(new Uint8Array(1000))); }""", key)
    w = watch(page, site_url)
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.reload()
    wait_ready(page, w)
    w.assert_clean()
    s = state(page)
    assert s["state"] == "failed" and "bytes" in s["reason"], s
    assert any("without a memory snapshot" in t for t in warnings), warnings
    assert device_done(page)["state"] == "kept"  # made again
    reload(page, site_url)
    assert state(page)["state"] == "loaded"


def test_new_code_does_not_run_from_the_old_snapshot(fresh, site_url):
    """A snapshot belongs to one build's key (the runtime and every source): with another key
    (a deploy that changed the code) the page boots normally and makes a new one."""
    page = fresh()
    boot(page, site_url)
    assert device_done(page)["state"] == "kept"
    old = manifest()["key"]
    module = (SITE / "static" / "boot" / "pyodide-snapshot.mjs").read_text(encoding="utf-8")
    assert module.count(f'"key":"{old}"') == 1
    # the service worker answers from the site's cache: the new code goes there
    page.evaluate(
        """async (code) => { const c = await caches.open('sxmj-' + sxmjBoot.build);
        const url = new URL('static/boot/pyodide-snapshot.mjs', location.href).href;
        await c.put(url, new Response(code, {headers: {'Content-Type': 'text/javascript'}})); }""",
        module.replace(f'"key":"{old}"', '"key":"0123456789abcdef"'))
    assert page.evaluate("() => !!navigator.serviceWorker.controller")
    reload(page, site_url)
    s = state(page)
    assert s["state"] == "none" and "no snapshot of this build" in s["reason"], s
    assert device_done(page)["state"] == "kept"
    # the old key's snapshot is gone with it
    names = sorted(url.rsplit("/", 1)[1] for _, url in page.evaluate(DEVICE_ENTRIES))
    assert names == ["device-0123456789abcdef.json", "device-0123456789abcdef.raw"], names


def test_missing_kit_boots_from_the_vendored_zip(fresh, site_url):
    """A dev page without `make snapshot` (no manifest): the vendored zip, every source."""
    page = fresh()
    as_dev_page(page)
    page.route("**/static/vendor/snapshot/manifest.json",
               lambda route: route.fulfill(status=404, body="not found"))
    w = watch(page, site_url)
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(site_url)
    # a 404 is reported by the browser itself as a console error: expected here
    wait_ready(page, None)
    problems = [p for p in w.problems() if "manifest.json" not in p and "404" not in p]
    assert not problems, problems
    s = state(page)
    assert s["state"] == "skipped" and "404" in s["reason"], s
    assert any("without a memory snapshot" in t for t in warnings), warnings
    assert [u for u in w.requests if u.endswith("/static/vendor/pyodide/python_stdlib.zip")]
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


@pytest.mark.parametrize("what", ["format", "sources"])
def test_unusable_manifests_boot_normally(fresh, site_url, what):
    page = fresh()
    as_dev_page(page)
    m = manifest()
    changed = {**m, "format": 99} if what == "format" else {**m, "sources": {
        **m["sources"], "sxmj/ranks.py": {"size": 1, "hash": "0"}}}
    page.route("**/static/vendor/snapshot/manifest.json",
               lambda route: route.fulfill(body=json.dumps(changed),
                                           content_type="application/json"))
    w, warnings = boot(page, site_url)
    s = state(page)
    assert s["state"] == "skipped", s
    assert ("format 99" if what == "format" else "sxmj/ranks.py") in s["reason"], s
    assert any("without a memory snapshot" in t for t in warnings), warnings
    assert page.evaluate("() => window.sxmjBoot.device.state") == "skipped"


# ---------- dev pages (`make play`) ----------


def as_dev_page(page) -> None:
    """Serve index.html as in the repository (`make play`): build "dev", no kit preloads."""
    html = (SITE / "index.html").read_text(encoding="utf-8")
    html = re.sub(r'<meta name="sxmj-build" content="[0-9a-f]+">\n(  <link rel="preload" href='
                  r'"\./static/vendor/snapshot/[^"]+" as="fetch" crossorigin>\n)*',
                  '<meta name="sxmj-build" content="dev">\n', html)
    assert 'content="dev"' in html and "vendor/snapshot" not in html
    # (the game puts its seed in the address: a reload asks for "?seed=...")
    page.route(re.compile(r".*/sxmj/(index\.html)?(\?[^/]*)?$"), lambda route: route.fulfill(
        body=html, content_type="text/html; charset=utf-8"))
    # the repository's interpreter module: no built kit, the sources are checked
    module = (SITE / "static" / "boot" / "pyodide-snapshot.mjs").read_text(encoding="utf-8")
    module = re.sub(r"^const KIT = \{.*\};$", "const KIT = null;", module, flags=re.M)
    page.route("**/static/boot/pyodide-snapshot.mjs", lambda route: route.fulfill(
        body=module, content_type="text/javascript"))


def test_dev_page_checks_the_sources_and_makes_its_own_snapshot(fresh, site_url):
    page = fresh()
    as_dev_page(page)
    boot(page, site_url)
    s = state(page)
    assert s["state"] == "none" and s["checked"] == "sources", s
    assert device_done(page)["state"] == "kept"
    assert {name for name, _ in page.evaluate(DEVICE_ENTRIES)} == {"sxmj-dev"}
    reload(page, site_url)
    s = state(page)
    assert s["state"] == "loaded" and s["checked"] == "sources", s


def test_edited_source_is_not_run_from_a_stale_snapshot(fresh, site_url):
    """Dev page, a served module that differs from the build's (an edit after `make
    snapshot`): no snapshot, the vendored zip, and the served module runs."""
    page = fresh()
    as_dev_page(page)
    boot(page, site_url)
    assert device_done(page)["state"] == "kept"
    source = (SITE / "sxmj" / "ranks.py").read_text(encoding="utf-8")
    page.route("**/sxmj/sxmj/ranks.py", lambda route: route.fulfill(
        body=source + "\nEDITED_AFTER_THE_SNAPSHOT = 1\n", content_type="text/x-python"))
    reload(page, site_url)
    s = state(page)
    assert s["state"] == "skipped" and "sxmj/ranks.py" in s["reason"], s
    edited = run_python(
        page,
        "import sxmj.ranks\nfrom pyscript import document\n"
        "document.body.dataset.edited = repr("
        "getattr(sxmj.ranks, 'EDITED_AFTER_THE_SNAPSHOT', 0))\n",
        "edited",
    )
    assert edited == "1"
