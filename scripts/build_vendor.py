#!/usr/bin/env python3
"""Copy the pinned runtime from node_modules into static/vendor/.

Only the files the game needs at run time are copied:

- ``static/vendor/pyodide/``: the five files Pyodide boots from;
- ``static/vendor/pyscript/``: ``@pyscript/core``'s ``dist/*.js`` and ``dist/*.css``
  (no source maps);
- ``static/vendor/peerjs/``: the ``peerjs`` browser bundle (``peerjs.min.js``, the UMD build
  that sets ``window.peerjs``) and its LICENSE (the minified bundle carries no notice);
  loaded by ``static/js/friends-net.js`` only when a page plays with friends;
- ``static/vendor/qrcode/``: ``qrcode-generator``'s ``qrcode.js`` (its MIT notice is in the
  file's header), loaded on demand for invite QR codes.

The ``peer`` package (PeerServer, Node only: the tests and docs/friends.md's self-hosted broker) and
``axe-core`` (the accessibility test) are devDependencies too, never copied here.

The installed versions must match the exact pins in package.json; run ``npm ci`` first.
Unchanged files are not copied again, and stale files are removed, so the folder always
mirrors the lock file. Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


# every package copied into static/vendor/: its version must be the exact pin
VENDORED = ("pyodide", "@pyscript/core", "peerjs", "qrcode-generator")
# devDependencies that must never reach the site
NOT_SHIPPED = ("peer", "axe-core")


def pinned_version(root: Path, package: str) -> str:
    pins = json.loads((root / "package.json").read_text(encoding="utf-8"))
    return pins["devDependencies"][package]


def installed_version(root: Path, package: str) -> str:
    meta = root / "node_modules" / package / "package.json"
    if not meta.is_file():
        raise SystemExit(f"build_vendor: {package} is not installed ({meta} missing): run `npm ci`")
    return json.loads(meta.read_text(encoding="utf-8"))["version"]


def runtime_sources(root: Path) -> dict[str, list[Path]]:
    """Map each vendor subfolder to the exact files it must hold."""
    modules = root / "node_modules"
    pyodide = [modules / "pyodide" / name for name in PYODIDE_FILES]
    dist = modules / "@pyscript" / "core" / "dist"
    pyscript = sorted(p for p in dist.iterdir() if p.suffix in (".js", ".css") and p.is_file())
    if not any(p.name == "core.js" for p in pyscript):
        raise SystemExit(f"build_vendor: {dist}/core.js missing: run `npm ci`")
    peerjs = [modules / "peerjs" / "dist" / "peerjs.min.js", modules / "peerjs" / "LICENSE"]
    qrcode = [modules / "qrcode-generator" / "dist" / "qrcode.js"]
    return {"pyodide": pyodide, "pyscript": pyscript, "peerjs": peerjs, "qrcode": qrcode}


def same_file(src: Path, dst: Path) -> bool:
    if not dst.is_file():
        return False
    a, b = src.stat(), dst.stat()
    return a.st_size == b.st_size and int(a.st_mtime) == int(b.st_mtime)


def sync_folder(sources: list[Path], dest: Path) -> tuple[int, int]:
    """Mirror ``sources`` into ``dest``; return (copied, removed)."""
    dest.mkdir(parents=True, exist_ok=True)
    wanted = {p.name for p in sources}
    removed = 0
    for old in dest.iterdir():
        if old.name not in wanted:
            shutil.rmtree(old) if old.is_dir() else old.unlink()
            removed += 1
    copied = 0
    for src in sources:
        if not src.is_file():
            raise SystemExit(f"build_vendor: {src} missing: run `npm ci`")
        dst = dest / src.name
        if not same_file(src, dst):
            shutil.copy2(src, dst)
            copied += 1
    return copied, removed


def build(root: Path, out: Path) -> int:
    for package in VENDORED:
        want, have = pinned_version(root, package), installed_version(root, package)
        if want != have:
            raise SystemExit(
                f"build_vendor: {package} {have} installed but {want} pinned: run `npm ci`"
            )
    total = 0
    for sub, sources in runtime_sources(root).items():
        copied, removed = sync_folder(sources, out / sub)
        size = sum(p.stat().st_size for p in sources)
        total += size
        print(
            f"vendor/{sub}: {len(sources)} files, {size / 1e6:.1f} MB"
            f" ({copied} copied, {removed} removed)"
        )
    shown = out.relative_to(root) if out.is_relative_to(root) else out
    print(f"vendor: {total / 1e6:.1f} MB in {shown}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "static" / "vendor")
    args = parser.parse_args(argv)
    return build(ROOT, args.out.resolve())


if __name__ == "__main__":
    sys.exit(main())
