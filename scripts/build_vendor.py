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

PyScript is patched as it is copied (:data:`PYSCRIPT_PATCHES`): its Pyodide loader keeps a
packages cache in IndexedDB on every boot, even with no packages to cache, and a frame whose
storage is refused (a third-party iframe in Safari, or with third-party cookies blocked) or
absent made that cache fail the boot: the cache's ``onerror`` dispatches the very event being
dispatched (``InvalidStateError``, an uncaught error) and its rejection stopped the start; and
the ``pyscript.fs`` store it opens at import left an unhandled rejection. Patched, the cache is
kept in memory when IndexedDB can't be opened, and a store nobody uses fails quietly. Each
patch must match exactly as often as the pinned version has the code, so an upgrade that
changes it fails the build instead of shipping an unpatched runtime.

The installed versions must match the exact pins in package.json; run ``npm ci`` first.
Unchanged files are not copied again, and stale files are removed, so the folder always
mirrors the lock file. Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Patch:
    """One change to vendored files: ``pattern`` (a regular expression) must match ``count``
    times over the folder's files, each replaced by ``replace`` (a ``re.sub`` template or
    function)."""

    why: str
    pattern: str
    replace: str | Callable[[re.Match[str]], str]
    count: int


def _memory_when_refused(m: re.Match[str]) -> str:
    # IDBMapSync (a Map mirrored into IndexedDB): when the database never opens, its mirror
    # is dropped (this.#s = null) and every later write or close skips it: the Map alone
    body = m.group(0).replace("this.#s.close()", "this.#s?.close()")
    for method in ("clear()", "delete(e)", "set(e,t)"):
        body = body.replace(f"()=>this.#s.{method}", f"()=>this.#s?.{method}")
    head = "super.set({1},{2})}})".format(*m.group(3, 4, 5))
    return body.replace(head, head + ".catch(()=>{this.#s=null})", 1)


# @pyscript/core 0.7.31: core-*.js carries @webreflection/idb-map twice (the main thread's copy
# and the worker's), storage.js once (the onerror) or not at all (its Map)
PYSCRIPT_PATCHES = (
    Patch(
        "idb-map's onerror re-dispatched the event being dispatched (InvalidStateError)",
        r"onerror\((\w)\)\{(\w)\(\1\),this\.dispatchEvent\(\1\)\}",
        r"onerror(\1){\2(\1)}",
        3,
    ),
    Patch(
        # PyScript makes one at import ("@pyscript.fs"), awaited only if a page uses pyscript.fs
        "an IDBMap whose database never opens leaves no unhandled rejection",
        r"(this\.#e=new Promise\(\((\w),(\w)\)=>\{\w\(indexedDB\.open\(.{0,400}?return \w\}\))"
        r"\}dispatchEvent\(",
        r"\1,this.#e.catch(()=>{})}dispatchEvent(",
        3,
    ),
    Patch(
        "the packages cache stays in memory when IndexedDB can't be opened",
        r"class (\w+) extends Map\{#s;#o;constructor\(\.\.\.e\)\{super\(\),this\.#s=new "
        r"(\w+)\(\.\.\.e\),this\.#o=this\.#s\.entries\(\)\.then\((\w)=>\{for\(const"
        r"\[(\w),(\w)\]of \3\)super\.set\(\4,\5\)\}\)\}.*?super\.set\(e,t\)\}",
        _memory_when_refused,
        2,
    ),
)


def patch_text(text: str, patches: tuple[Patch, ...], found: dict[str, int]) -> str:
    """``text`` with every patch applied; ``found`` counts each patch's matches."""
    for patch in patches:
        text, n = re.subn(patch.pattern, patch.replace, text)
        found[patch.why] = found.get(patch.why, 0) + n
    return text


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


def sync_folder(sources: list[Path], dest: Path,
                patches: tuple[Patch, ...] = ()) -> tuple[int, int]:
    """Mirror ``sources`` into ``dest`` (each ``*.js`` with ``patches`` applied); return
    (copied, removed). Every patch must apply to one of the files."""
    dest.mkdir(parents=True, exist_ok=True)
    wanted = {p.name for p in sources}
    removed = 0
    for old in dest.iterdir():
        if old.name not in wanted:
            shutil.rmtree(old) if old.is_dir() else old.unlink()
            removed += 1
    copied = 0
    found: dict[str, int] = {}
    for src in sources:
        if not src.is_file():
            raise SystemExit(f"build_vendor: {src} missing: run `npm ci`")
        dst = dest / src.name
        if patches and src.suffix == ".js":
            text = src.read_text(encoding="utf-8")
            new = patch_text(text, patches, found)
            if new != text:
                if not dst.is_file() or dst.read_text(encoding="utf-8") != new:
                    dst.write_text(new, encoding="utf-8")
                    copied += 1
                continue
        if not same_file(src, dst):
            shutil.copy2(src, dst)
            copied += 1
    for patch in patches:
        if found.get(patch.why, 0) != patch.count:
            raise SystemExit(f"build_vendor: {dest.name}: {patch.why}: matched "
                             f"{found.get(patch.why, 0)} times, not {patch.count}: the vendored "
                             f"code changed, update the patch")
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
        patches = PYSCRIPT_PATCHES if sub == "pyscript" else ()
        copied, removed = sync_folder(sources, out / sub, patches)
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
