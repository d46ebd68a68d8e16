"""The import graph keeps its shape (docs/architecture.md): checked with ``ast``.

core ← bots ← play ← cli, and core ← bots ← ui ← pages. The core uses the
standard library only and never touches the browser; no page module reaches
the command line; there are no import cycles.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("main.py", "learn_main.py", "calc_main.py", "embed_main.py")

# layer: the layers it may import (itself included)
ALLOWED = {
    "core": {"core"},
    "bots": {"core", "bots"},
    "play": {"core", "bots", "play"},
    "cli": {"core", "bots", "play", "cli"},
    "ui": {"core", "bots", "ui"},
    "pages": {"ui"},
}
BROWSER = {"js", "pyscript", "pyodide", "polyscript", "_pyscript"}

# A late import (inside a function, or under ``if TYPE_CHECKING:``) ties two modules
# together as much as one at the top of the file: it hides a cycle from the import
# system, not from a reader. So the cycle test counts every import, and a late one kept
# on purpose to close a cycle is named here, (importer, imported): why it must stay.
# None is needed: keep it that way.
ALLOWED_LATE: dict[tuple[str, str], str] = {}


def layer(module: str) -> str:
    if module in ("sxmj.cli", "sxmj.__main__"):
        return "cli"
    if module == "sxmj.simulate":
        return "play"
    if module == "sxmj.bots" or module.startswith("sxmj.bots."):
        return "bots"
    if module == "sxmj.ui" or module.startswith("sxmj.ui."):
        return "ui"
    if module.startswith("sxmj"):
        return "core"
    return "pages"


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, top_level: bool = False) -> set[str]:
    """Every module ``path`` imports (relative imports resolved), at any depth of the file
    (in functions and ``if TYPE_CHECKING:`` blocks too), or with ``top_level`` only the
    statements at the top of the file (not the late ones)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in (tree.body if top_level else ast.walk(tree)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            # ``from . import app`` imports a submodule
            out.update(f"{mod}.{a.name}" for a in node.names
                       if (ROOT / Path(*f"{mod}.{a.name}".split("."))).with_suffix(".py").exists())
    return out


def graph(top_level: bool = False) -> dict[str, set[str]]:
    files = list((ROOT / "sxmj").rglob("*.py")) + [ROOT / p for p in PAGES]
    return {module_name(p): imports(p, top_level) for p in files}


def test_every_layer_imports_only_what_it_may() -> None:
    wrong = []
    for mod, deps in graph().items():
        for dep in deps:
            if dep.split(".")[0] != "sxmj":
                continue
            if layer(dep) not in ALLOWED[layer(mod)]:
                wrong.append(f"{mod} ({layer(mod)}) imports {dep} ({layer(dep)})")
    assert not wrong, "\n".join(wrong)


def test_no_page_module_reaches_the_command_line() -> None:
    g = graph()
    for start in [m for m in g if layer(m) in ("ui", "pages")]:
        seen, todo = set(), [start]
        while todo:
            m = todo.pop()
            if m in seen or m not in g:
                continue
            seen.add(m)
            todo += [d for d in g[m] if d.startswith("sxmj")]
        assert "sxmj.cli" not in seen, start


def test_the_core_uses_the_standard_library_only_and_never_the_browser() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for mod, deps in graph().items():
        if layer(mod) not in ("core", "bots", "play"):
            continue
        for dep in deps:
            top = dep.split(".")[0]
            assert top not in BROWSER, f"{mod} imports {dep}"
            assert top == "sxmj" or top in stdlib, f"{mod} imports {dep}, not stdlib"


def test_there_are_no_import_cycles() -> None:
    # every import counts, the late ones too (see ALLOWED_LATE)
    full, top = graph(), graph(top_level=True)
    g = {m: {d for d in deps if d in full and not ((m, d) in ALLOWED_LATE and d not in top[m])}
         for m, deps in full.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in g[m]:
            if d == m.rpartition(".")[0]:
                # importing a submodule runs its package's __init__ first anyway; one that
                # re-exports its modules imports them back, and that is no cycle
                continue
            if state.get(d) == 1:
                raise AssertionError(" → ".join(path + [m, d]))
            if d not in state:
                visit(d, path + [m])
        state[m] = 2

    for m in g:
        if m not in state:
            visit(m, [])


def test_every_allowed_late_import_is_one_with_a_reason() -> None:
    full, top = graph(), graph(top_level=True)
    for (importer, imported), why in ALLOWED_LATE.items():
        assert why.strip(), f"{importer} → {imported}: say why"
        assert imported in full.get(importer, set()) - top.get(importer, set()), \
            f"{importer} no longer imports {imported} late: remove it from ALLOWED_LATE"
