#!/usr/bin/env python3
"""Build the Pyodide memory snapshot with ``sxmj`` imported (``make snapshot``; run by
``make site`` and ``make play``).

Writes into ``static/vendor/snapshot/`` (git-ignored, like the rest of ``static/vendor``):

- ``sxmj-<key>.snap.gz``: the snapshot made in Node by ``scripts/build_snapshot.mjs`` from the
  pinned ``node_modules/pyodide`` after importing every ``sxmj`` module (the UI too) except
  ``sxmj.cli``, ``sxmj.__main__`` and any module that imports a browser-only module
  (``pyscript``, ``js``, ``pyodide``) when it is imported, directly or through another one;
  only its parts that are not zeros (about half of it), one after the other, gzip-compressed
  (the browser inflates it with ``DecompressionStream`` and puts each run in its place).
- ``manifest.json``: the Pyodide version the snapshot is locked to, its file name, its size
  (``raw``), the size of the stored parts (``packed``) and where each goes (``runs``:
  ``[offset, length]``), and a size and hash of every ``sxmj`` source file it holds.
  ``static/boot/pyodide-snapshot.mjs`` (PyScript's ``interpreter``) reads it first and boots
  normally, with a console warning, when anything does not match what is served: a snapshot
  never runs stale code.

``<key>`` hashes the Pyodide version and build, this script, the Node script and every
``sxmj`` source: when none changed the snapshot is not rebuilt (about 5 s otherwise).
``--check`` builds nothing and exits 1 when the snapshot is missing or stale.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sync_pyscript_files import package_modules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NODE_SCRIPT = Path(__file__).resolve().with_suffix(".mjs")
# 2: the file holds only the memory's parts that are not zeros, placed by the manifest's runs
FORMAT = 2
# Left out of the snapshot: the command line. No module of the pages imports it (the
# request validators live in sxmj.request; tests/test_architecture.py keeps it so).
EXCLUDE = ("sxmj/cli.py", "sxmj/__main__.py")
# A module importing one of these at import time is left out: `pyscript` exists only in the
# page, and `js`/`pyodide` would import in Node and then hold Node's objects in the page.
BROWSER_ONLY = frozenset({"js", "pyodide", "pyscript", "polyscript", "_pyscript"})
# Standard modules PyScript's own start-up imports; captured so the browser need not.
STDLIB = ("asyncio", "dataclasses", "html", "inspect", "json", "random")


def cyrb53(data: bytes) -> str:
    """53-bit hash of ``data``, bit for bit the one static/boot/pyodide-snapshot.mjs computes."""
    m = 0xFFFFFFFF
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    for byte in data:
        h1 = ((h1 ^ byte) * 2654435761) & m
        h2 = ((h2 ^ byte) * 1597334677) & m
    h1 = ((h1 ^ (h1 >> 16)) * 2246822507) & m
    h1 ^= ((h2 ^ (h2 >> 13)) * 3266489909) & m
    h2 = ((h2 ^ (h2 >> 16)) * 2246822507) & m
    h2 ^= ((h1 ^ (h1 >> 13)) * 3266489909) & m
    return format(((h2 & 0x1FFFFF) << 32) + h1, "x")


def module_name(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def import_time_imports(source: str, name: str, is_package: bool) -> set[str]:
    """Modules ``source`` imports when it is imported (not inside functions), absolute names."""
    found: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]

    class Visitor(ast.NodeVisitor):
        def visit_FunctionDef(self, node):  # noqa: N802 (ast naming)
            pass  # runs later, in the page

        visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef  # noqa: N815

        def visit_Import(self, node):  # noqa: N802
            found.update(alias.name for alias in node.names)

        def visit_ImportFrom(self, node):  # noqa: N802
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                parent = ".".join(base + ([node.module] if node.module else []))
            else:
                parent = node.module or ""
            found.add(parent)
            found.update(f"{parent}.{alias.name}" for alias in node.names)  # maybe submodules

    Visitor().visit(ast.parse(source))
    found.discard("__future__")
    return found


def source_files(root: Path) -> list[str]:
    """The sxmj modules the snapshot imports: all but EXCLUDE and the browser-only ones."""
    modules = {
        module_name(rel): rel for rel in package_modules(root) if not rel.startswith(EXCLUDE)
    }
    imports = {
        name: import_time_imports(
            (root / rel).read_text(encoding="utf-8"), name, rel.endswith("__init__.py")
        )
        for name, rel in modules.items()
    }
    unsafe = {n for n, deps in imports.items() if {d.split(".")[0] for d in deps} & BROWSER_ONLY}
    changed = True
    while changed:  # importing a module that imports an unsafe one is unsafe too
        changed = False
        for name, deps in imports.items():
            if name not in unsafe and deps & unsafe:
                unsafe.add(name)
                changed = True
    return sorted(rel for name, rel in modules.items() if name not in unsafe)


def pyodide_dir(root: Path) -> Path:
    return root / "node_modules" / "pyodide"


def build_key(root: Path) -> str:
    """Changes whenever the snapshot could differ."""
    pyodide = pyodide_dir(root)
    digest = hashlib.sha256()
    meta = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))
    digest.update(meta["version"].encode())
    for path in (pyodide / "pyodide.asm.wasm", pyodide / "python_stdlib.zip", NODE_SCRIPT,
                 Path(__file__).resolve()):
        digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    for rel in package_modules(root):
        digest.update(rel.encode() + b"\0" + hashlib.sha256((root / rel).read_bytes()).digest())
    digest.update(json.dumps([FORMAT, STDLIB, EXCLUDE]).encode())
    return digest.hexdigest()[:16]


def current(out: Path, key: str) -> dict | None:
    """The manifest in ``out`` if it describes the snapshot for ``key`` and that file exists."""
    try:
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.get("key") != key or not (out / str(manifest.get("snapshot"))).is_file():
        return None
    return manifest


def build(root: Path, out: Path, level: int = 9, force: bool = False) -> dict:
    if not (pyodide_dir(root) / "pyodide.mjs").is_file():
        raise SystemExit("build_snapshot: node_modules/pyodide missing: run `npm ci`")
    if shutil.which("node") is None:
        raise SystemExit("build_snapshot: node not found (make npm installs it)")
    key = build_key(root)
    manifest = current(out, key)
    if manifest and not force:
        print(f"snapshot: up to date ({manifest['snapshot']}, {manifest['gzip'] / 1e6:.1f} MB)")
        return manifest
    out.mkdir(parents=True, exist_ok=True)
    name = f"sxmj-{key}.snap.gz"
    files = source_files(root)
    job = {
        "pyodide": str(pyodide_dir(root)),
        # every module is there to be imported (e.g. through a captured one); EXCLUDE are only
        # never imported directly
        "files": {rel: str(root / rel) for rel in package_modules(root)},
        "imports": [*STDLIB, *(module_name(rel) for rel in files)],
        "out": str(out / (name + ".tmp")),
        "level": level,
    }
    start = time.monotonic()
    proc = subprocess.run(
        ["node", str(NODE_SCRIPT)], input=json.dumps(job), capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise SystemExit(f"build_snapshot: node failed:\n{proc.stderr}{proc.stdout}")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    for module, error in report["failed"].items():
        print(f"snapshot: warning: {module} left out, it failed to import in Node: {error}")
    # the browser checks exactly the files whose code is inside the snapshot
    sources = {
        rel: {"size": len(data), "hash": cyrb53(data)}
        for rel in report["loaded"]
        for data in [(root / rel).read_bytes()]
    }
    manifest = {
        "format": FORMAT,
        "key": key,
        "pyodide": report["pyodide"],
        "snapshot": name,
        "raw": report["raw"],
        "packed": report["packed"],
        "runs": report["runs"],
        "gzip": report["gzip"],
        "sources": sources,
    }
    (out / (name + ".tmp")).replace(out / name)
    for old in out.iterdir():
        if old.name not in (name, "manifest.json"):
            old.unlink()
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    ms = report["ms"]
    print(
        f"snapshot: {name}: {report['raw'] / 1e6:.1f} MB ({report['packed'] / 1e6:.1f} MB not"
        f" zeros, in {len(report['runs'])} runs), {report['gzip'] / 1e6:.1f} MB gzip,"
        f" {len(sources)} sxmj modules, {report['modules']} modules in all"
        f" (node: boot {ms['boot']} ms, imports {ms['imports']} ms, snapshot+gzip"
        f" {ms['snapshot_and_gzip']} ms; {time.monotonic() - start:.1f} s in all)"
    )
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "static" / "vendor" / "snapshot")
    parser.add_argument("--level", type=int, default=9, help="gzip level (default 9)")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    parser.add_argument("--check", action="store_true", help="only report; exit 1 if stale")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    if args.check:
        ok = current(out, build_key(ROOT)) is not None
        print(f"snapshot: {'up to date' if ok else 'missing or stale: run `make snapshot`'}")
        return 0 if ok else 1
    build(ROOT, out, args.level, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
