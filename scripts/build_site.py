#!/usr/bin/env python3
"""Build ``_site/``: exactly what the deployed game needs (``make site``).

Copies ``index.html``, ``main.py``, ``pyscript.toml``, the modules listed in its ``[files]``
table and ``static/`` (css, icons, tiles, the vendored runtime), and adds ``.nojekyll``.
Nothing else: no tests, no node_modules, no scripts.

Fails if ``static/vendor`` is missing (run ``make vendor``) or if ``[files]`` does not match
``sxmj/**/*.py`` (run ``make sync``): a deployed site with a missing module is broken.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sync_pyscript_files import package_modules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOP_FILES = ("index.html", "main.py", "pyscript.toml")
VENDOR_NEEDS = (
    "vendor/pyodide/pyodide.mjs",
    "vendor/pyodide/pyodide.asm.wasm",
    "vendor/pyscript/core.js",
)
SKIP = shutil.ignore_patterns(".*", "*.map", "__pycache__", "*.pyc", "README.md")


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
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in TOP_FILES:
        shutil.copy2(root / name, out / name)
    for module in modules:
        (out / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / module, out / module)
    shutil.copytree(static, out / "static", ignore=SKIP)
    (out / ".nojekyll").write_text("", encoding="utf-8")
    files = [p for p in out.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    print(f"site: {len(files)} files, {size / 1e6:.1f} MB in {out.name}/")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_site")
    args = parser.parse_args(argv)
    return build(ROOT, args.out.resolve())


if __name__ == "__main__":
    sys.exit(main())
