#!/usr/bin/env python3
"""Build what a page needs to start Python fast, and to make the memory snapshot on the device
(``make snapshot``; run by ``make site`` and ``make play``).

No memory snapshot is shipped: a first visit would download it before anything else (7 MB),
more than the runtime itself. The page boots Pyodide the normal way, from what this writes,
and once it is ready the device makes its own snapshot in idle time
(``static/boot/snapshot-worker.js``), which every later visit restores
(``static/boot/pyodide-snapshot.mjs``; docs/boot-and-offline.md). Writes into
``static/vendor/snapshot/`` (git-ignored, like the rest of ``static/vendor``):

- ``python_stdlib-<key>.zip``: the standard modules the pages use, compiled to bytecode by the
  pinned Pyodide in Node (``scripts/build_snapshot.mjs``): those loaded after importing every
  ``sxmj`` module (the UI too) and every module the sources, the pages' entry scripts and
  PyScript's own Python name anywhere. A normal boot spends most of its time compiling the
  standard library from source; this zip spares it, and is smaller than the vendored
  ``python_stdlib.zip`` (sources of the whole library), which a page mounts only after it is
  ready, for whatever else might be imported later.
- ``sxmj-<key>.json``: every ``sxmj`` source in one file (``{path: text}``): one request
  instead of one per module.
- ``manifest.json``: the Pyodide version the device's snapshot is locked to, the two files
  above, the modules the snapshot imports (``imports``: every ``sxmj`` module but ``sxmj.cli``,
  ``sxmj.__main__`` and any that imports a browser-only module, ``pyscript``, ``js`` or
  ``pyodide``, when it is imported, directly or through another one; plus the standard modules
  PyScript's start-up uses), and the size and hash of every source. A built site
  (``scripts/build_site.py``) writes it into the interpreter module; a dev page reads it and
  compares the served sources with it (an edited module must not run from a stale snapshot).

``<key>`` hashes the Pyodide version and build, this script, the Node script, every ``sxmj``
source and what the seeds are: a device's snapshot is keyed by it, so any change of the code
makes the next visit boot normally and make a new one. When none changed nothing is rebuilt.
``--check`` builds nothing and exits 1 when the files are missing or stale.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sync_pyscript_files import package_modules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NODE_SCRIPT = Path(__file__).resolve().with_suffix(".mjs")
# 3: no snapshot file; the compiled standard library, the sources bundle, the snapshot's imports
FORMAT = 3
# Left out of the snapshot: the command line. No module of the pages imports it (the
# request validators live in sxmj.request; tests/test_architecture.py keeps it so).
EXCLUDE = ("sxmj/cli.py", "sxmj/__main__.py")
# A module importing one of these at import time is left out: `pyscript` exists only in the
# page, and `js`/`pyodide` would import in Node and then hold Node's objects in the page.
BROWSER_ONLY = frozenset({"js", "pyodide", "pyscript", "polyscript", "_pyscript"})
# Standard modules PyScript's own start-up imports; captured so the browser need not.
STDLIB = ("asyncio", "dataclasses", "html", "inspect", "json", "random")
# The pages' entry scripts: what they import is part of the seeds
ENTRY_SCRIPTS = ("main.py", "learn_main.py", "calc_main.py", "embed_main.py")
# PyScript's Python (the `pyscript` package it writes at start-up) is inside its JS bundle
PYSCRIPT_DIST = Path("node_modules/@pyscript/core/dist")
# (a statement starts a line, a string or follows a `;`: the files are JSON or JS strings there)
PYTHON_IMPORT = re.compile(
    r"""(?:^|\\n|[;\n"'`])[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w., \t]+))""")


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


def every_import(source: str, name: str, is_package: bool) -> set[str]:
    """Every module ``source`` names in an import, wherever (in functions too), absolute, with
    each parent package."""
    found: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                parent = ".".join(base + ([node.module] if node.module else []))
            else:
                parent = node.module or ""
            names = [parent, *(f"{parent}.{alias.name}" for alias in node.names)]
        for dotted in names:
            parts = dotted.split(".")
            found.update(".".join(parts[: i + 1]) for i in range(len(parts)) if all(parts[: i + 1]))
    return found


def pyscript_imports(root: Path) -> set[str]:
    """The modules PyScript's own Python imports (its source is in strings of its JS bundle):
    every dotted name after an ``import``/``from``; those that are no module are skipped."""
    found: set[str] = set()
    for bundle in sorted((root / PYSCRIPT_DIST).glob("*.js")):
        for from_name, names in PYTHON_IMPORT.findall(bundle.read_text(encoding="utf-8")):
            for dotted in [from_name] if from_name else names.split(","):
                dotted = dotted.strip().split(" ")[0]
                if re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", dotted):
                    found.add(dotted)
    return found


def seeds(root: Path) -> list[str]:
    """Standard modules the compiled standard library must hold, besides what ``imports``
    loads: every module named in an import of the sources (the command line's too: every
    module must import at once), the entry scripts and PyScript."""
    found = pyscript_imports(root)
    for rel in [*package_modules(root), *ENTRY_SCRIPTS]:
        if (root / rel).is_file():
            found |= every_import((root / rel).read_text(encoding="utf-8"), module_name(rel),
                                  rel.endswith("__init__.py"))
    own = {"sxmj", "js", "pyscript", "polyscript", "_pyscript"}
    return sorted(n for n in found if n.split(".")[0] not in own)


def pyodide_dir(root: Path) -> Path:
    return root / "node_modules" / "pyodide"


def build_key(root: Path) -> str:
    """Changes whenever what this builds, or the device's snapshot, could differ."""
    pyodide = pyodide_dir(root)
    digest = hashlib.sha256()
    meta = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))
    digest.update(meta["version"].encode())
    for path in (pyodide / "pyodide.asm.wasm", pyodide / "python_stdlib.zip", NODE_SCRIPT,
                 Path(__file__).resolve()):
        digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    for rel in package_modules(root):
        digest.update(rel.encode() + b"\0" + hashlib.sha256((root / rel).read_bytes()).digest())
    digest.update(json.dumps([FORMAT, STDLIB, EXCLUDE, seeds(root)]).encode())
    return digest.hexdigest()[:16]


def current(out: Path, key: str) -> dict | None:
    """The manifest in ``out`` if it describes the files for ``key`` and they exist."""
    try:
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.get("key") != key or manifest.get("format") != FORMAT:
        return None
    if not all((out / str(manifest.get(name))).is_file() for name in ("stdlib", "bundle")):
        return None
    return manifest


def build(root: Path, out: Path, force: bool = False) -> dict:
    if not (pyodide_dir(root) / "pyodide.mjs").is_file():
        raise SystemExit("build_snapshot: node_modules/pyodide missing: run `npm ci`")
    if shutil.which("node") is None:
        raise SystemExit("build_snapshot: node not found (make npm installs it)")
    key = build_key(root)
    manifest = current(out, key)
    if manifest and not force:
        print(f"snapshot: up to date ({manifest['stdlib']}, {manifest['stdlib_size'] / 1e6:.2f}"
              f" MB; {manifest['bundle']})")
        return manifest
    out.mkdir(parents=True, exist_ok=True)
    stdlib = f"python_stdlib-{key}.zip"
    bundle = f"sxmj-{key}.json"
    modules = package_modules(root)
    imports = [*STDLIB, *(module_name(rel) for rel in source_files(root))]
    job = {
        "pyodide": str(pyodide_dir(root)),
        "files": {rel: str(root / rel) for rel in modules},
        "imports": imports,
        "seeds": seeds(root),
        "out": str(out / (stdlib + ".tmp")),
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
    texts = {rel: (root / rel).read_text(encoding="utf-8") for rel in modules}
    (out / (bundle + ".tmp")).write_text(
        json.dumps(texts, ensure_ascii=False, separators=(",", ":"), sort_keys=True),
        encoding="utf-8")
    sources = {
        rel: {"size": len(data), "hash": cyrb53(data)}
        for rel in modules
        for data in [(root / rel).read_bytes()]
    }
    with zipfile.ZipFile(out / (stdlib + ".tmp")) as compiled:
        count = len(compiled.namelist())
    manifest = {
        "format": FORMAT,
        "key": key,
        "pyodide": report["pyodide"],
        "stdlib": stdlib,
        "stdlib_size": (out / (stdlib + ".tmp")).stat().st_size,
        "stdlib_modules": count,
        "bundle": bundle,
        "imports": [name for name in imports if name not in report["failed"]],
        "sources": sources,
    }
    for name in (stdlib, bundle):
        (out / (name + ".tmp")).replace(out / name)
    for old in out.iterdir():
        if old.name not in (stdlib, bundle, "manifest.json"):
            old.unlink()
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    ms = report["ms"]
    print(
        f"snapshot: {stdlib}: {count} standard modules compiled,"
        f" {manifest['stdlib_size'] / 1e6:.2f} MB (the vendored zip:"
        f" {(pyodide_dir(root) / 'python_stdlib.zip').stat().st_size / 1e6:.2f} MB); {bundle}:"
        f" {len(modules)} sources, {(out / bundle).stat().st_size / 1e6:.2f} MB"
        f" (node: boot {ms['boot']} ms, imports and compiling {ms['imports_and_compile']} ms;"
        f" {time.monotonic() - start:.1f} s in all)"
    )
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "static" / "vendor" / "snapshot")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    parser.add_argument("--check", action="store_true", help="only report; exit 1 if stale")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    if args.check:
        ok = current(out, build_key(ROOT)) is not None
        print(f"snapshot: {'up to date' if ok else 'missing or stale: run `make snapshot`'}")
        return 0 if ok else 1
    build(ROOT, out, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
