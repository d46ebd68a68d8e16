#!/usr/bin/env python3
"""Rewrite the ``[files]`` table of pyscript.toml from ``sxmj/**/*.py``.

PyScript copies into the browser's file system only the files listed in ``[files]``: a module
missing there is an ImportError in the browser while CPython tests stay green. Run this
(``make sync``) after adding, renaming or removing a module, and commit pyscript.toml with it.

``--check`` changes nothing and exits 1 when the table is out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = "pyscript.toml"
PACKAGE = "sxmj"
HEADER = (
    "# Every module of the sxmj package, written by scripts/sync_pyscript_files.py\n"
    "# (`make sync`): do not edit by hand. URL (relative to this file) = path in the browser.\n"
)


def package_modules(root: Path = ROOT) -> list[str]:
    """``sxmj/**/*.py`` as sorted POSIX paths relative to ``root``."""
    found = (
        p.relative_to(root).as_posix()
        for p in (root / PACKAGE).rglob("*.py")
        if "__pycache__" not in p.parts and p.is_file()
    )
    return sorted(found)


def files_table(modules: list[str]) -> str:
    lines = [f'"./{m}" = "./{m}"' for m in modules]
    return HEADER + "[files]\n" + "\n".join(lines) + "\n"


def replace_files_table(text: str, table: str) -> str:
    """Put ``table`` in place of the ``[files]`` table (and its header comment) of ``text``."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == "[files]"), None)
    if start is None:
        body = text.rstrip("\n")
        return (body + "\n\n" if body else "") + table
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines)
    )
    # drop the generated header comment just above [files], then trailing blank lines
    first = start
    while first > 0 and lines[first - 1].startswith("#"):
        first -= 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    rest = "".join(lines[end:])
    before = "".join(lines[:first])
    return before + table + ("\n" + rest.lstrip("\n") if rest.strip() else "")


def sync(root: Path = ROOT, check: bool = False) -> int:
    path = root / CONFIG
    old = path.read_text(encoding="utf-8")
    new = replace_files_table(old, files_table(package_modules(root)))
    if new == old:
        print(f"{CONFIG}: [files] up to date ({len(package_modules(root))} modules)")
        return 0
    if check:
        print(f"{CONFIG}: [files] is out of date: run `make sync`", file=sys.stderr)
        return 1
    path.write_text(new, encoding="utf-8")
    print(f"{CONFIG}: [files] rewritten ({len(package_modules(root))} modules)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report; exit 1 if stale")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    return sync(args.root.resolve(), args.check)


if __name__ == "__main__":
    sys.exit(main())
