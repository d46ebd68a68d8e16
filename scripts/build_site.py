#!/usr/bin/env python3
"""Build ``_site/``: exactly what the deployed game needs (``make site``).

Copies ``index.html``, ``main.py``, ``pyscript.toml``, ``manifest.webmanifest``, ``sw.js``, the
modules listed in its ``[files]`` table and ``static/`` (css, icons, tiles, the wrapper module
``static/boot/``, the vendored runtime and the memory snapshot), and adds ``.nojekyll``.
Nothing else: no tests, no node_modules, no scripts.

Then it stamps the build: ``BUILD``, a hash of every file of the site, goes into ``sw.js``
(with ``FILES``, the list the service worker caches; its cache is named ``sxmj-<BUILD>``) and
into index.html's ``<meta name="sxmj-build">`` (``dev`` in the repository: no service worker).

Fails if ``static/vendor`` is missing (run ``make vendor``), if ``[files]`` does not match
``sxmj/**/*.py`` (run ``make sync``): a deployed site with a missing module is broken, or if
the snapshot is missing or stale (run ``make snapshot``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_snapshot  # noqa: E402
from sync_pyscript_files import package_modules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOP_FILES = ("index.html", "main.py", "pyscript.toml", "manifest.webmanifest", "sw.js")
# the rules, calculator and embed pages and their entry scripts; examples/: an ordinary
# article that embeds them (README "Embedding sxmj in your page")
PAGES = ("learn.html", "calc.html", "embed.html", "learn_main.py", "calc_main.py",
         "embed_main.py")
PAGE_DIRS = ("examples",)
VENDOR_NEEDS = (
    "vendor/pyodide/pyodide.mjs",
    "vendor/pyodide/pyodide.asm.wasm",
    "vendor/pyscript/core.js",
)
SKIP = shutil.ignore_patterns(".*", "*.map", "*.tmp", "__pycache__", "*.pyc", "README.md")
BUILD_META = '<meta name="sxmj-build" content="dev">'
# sw.js in the repository holds these two lines; the site's copy gets the build's values
SW_BUILD = 'const BUILD = "dev";'
SW_FILES = "const FILES = [];"
SNAPSHOT_MANIFEST = Path("static/vendor/snapshot/manifest.json")


def listed_modules(root: Path) -> list[str]:
    config = tomllib.loads((root / "pyscript.toml").read_text(encoding="utf-8"))
    return sorted(key.removeprefix("./") for key in config.get("files", {}))


def build(root: Path, out: Path) -> int:
    static = root / "static"
    missing = [n for n in VENDOR_NEEDS if not (static / n).is_file()]
    if missing:
        raise SystemExit(f"build_site: {', '.join(missing)} missing: run `make vendor`")
    modules = listed_modules(root)
    if modules != package_modules(root):
        raise SystemExit("build_site: pyscript.toml [files] is out of date: run `make sync`")
    snapshot = static / "vendor" / "snapshot"
    if build_snapshot.current(snapshot, build_snapshot.build_key(root)) is None:
        raise SystemExit("build_site: the memory snapshot is missing or stale: run `make snapshot`")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in TOP_FILES + PAGES:
        shutil.copy2(root / name, out / name)
    for name in PAGE_DIRS:
        shutil.copytree(root / name, out / name, ignore=SKIP)
    for module in modules:
        (out / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / module, out / module)
    shutil.copytree(static, out / "static", ignore=SKIP)
    (out / ".nojekyll").write_text("", encoding="utf-8")
    build = stamp(out)
    files = [p for p in out.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    print(f"site: {len(files)} files, {size / 1e6:.1f} MB in {out.name}/, build {build}")
    return 0


def stamp(out: Path) -> str:
    """Write the build hash into index.html and sw.js, and sw.js's list of files; return it."""
    files = sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.name not in ("sw.js", ".nojekyll")
    )
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + hashlib.sha256((out / rel).read_bytes()).digest())
    digest.update(hashlib.sha256((out / "sw.js").read_bytes()).digest())
    build = digest.hexdigest()[:16]
    index = out / "index.html"
    html = index.read_text(encoding="utf-8")
    if html.count(BUILD_META) != 1:
        raise SystemExit(f"build_site: index.html must hold {BUILD_META} once")
    # the snapshot's name changes with every build of it: preload it (and its manifest) from
    # the first byte, beside the runtime, instead of when PyScript's interpreter module asks
    folder = SNAPSHOT_MANIFEST.parent.as_posix()
    snapshot = json.loads((out / SNAPSHOT_MANIFEST).read_text(encoding="utf-8"))["snapshot"]
    stamped = BUILD_META.replace('"dev"', f'"{build}"') + "".join(
        f'\n  <link rel="preload" href="./{folder}/{name}" as="fetch" crossorigin>'
        for name in ("manifest.json", snapshot)
    )
    index.write_text(html.replace(BUILD_META, stamped), "utf-8")
    for page in sorted(out.glob("*.html")):  # the other pages boot the same runtime
        text = page.read_text(encoding="utf-8")
        if page.name != "index.html" and BUILD_META in text:
            page.write_text(text.replace(BUILD_META, stamped), "utf-8")
    worker = out / "sw.js"
    code = worker.read_text(encoding="utf-8")
    for line in (SW_BUILD, SW_FILES):
        if len(re.findall(f"^{re.escape(line)}$", code, flags=re.M)) != 1:
            raise SystemExit(f"build_site: sw.js must hold the line {line!r} once")
    urls = ["./", *(f"./{rel}" for rel in files)]
    code = code.replace(SW_BUILD, SW_BUILD.replace('"dev"', f'"{build}"'))
    code = code.replace(SW_FILES, f"const FILES = {json.dumps(urls, indent=1)};")
    worker.write_text(code, encoding="utf-8")
    return build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_site")
    args = parser.parse_args(argv)
    return build(ROOT, args.out.resolve())


if __name__ == "__main__":
    sys.exit(main())
