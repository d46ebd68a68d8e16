#!/usr/bin/env python3
"""Build ``_site/``: exactly what the deployed game needs (``make site``).

Copies ``index.html``, ``main.py``, ``pyscript.toml``, ``manifest.webmanifest``, ``sw.js``, the
modules listed in its ``[files]`` table and ``static/`` (css, icons, tiles, the wrapper module
``static/boot/``, the vendored runtime and the memory snapshot), and adds ``.nojekyll``.
Nothing else: no tests, no node_modules, no scripts.

The pages share one head, ``scripts/page_head.html``: each page's line
``<meta name="sxmj-build" content="dev">`` stands for it (:func:`render_page`, which
``scripts/serve.py`` also applies, so ``make play`` serves the pages as the site does). It
holds the texts shown before Python starts, the ``boot_*`` strings of the UI's string table
(``STRINGS`` in ``sxmj/ui/strings.py``), as a JSON block that ``static/js/page-boot.js`` reads.

Then it stamps the build: ``BUILD``, a hash of every file of the site, goes into ``sw.js``
(with ``FILES``, what the service worker caches, each with its hash; its cache is named
``sxmj-<BUILD>``) and into every page's ``<meta name="sxmj-build">`` (``dev`` in the
repository: no service worker), beside the preloads of the build's compiled standard library
and sources bundle (``static/vendor/snapshot/``, :mod:`build_snapshot`), whose manifest goes
into the interpreter module (``KIT``).

``FILES`` leaves out what no page uses: the ``sxmj`` sources one by one (the bundle holds them,
``sxmj/cli.py`` and ``sxmj/__main__.py`` included), the kit's manifest (the interpreter module
holds it), ``examples/`` (an article for embedders), and PyScript's editor, terminal and what
only they load (:func:`pyscript_unused`).

Fails if ``static/vendor`` is missing (run ``make vendor``), if ``[files]`` does not match
``sxmj/**/*.py`` (run ``make sync``): a deployed site with a missing module is broken, or if
the compiled standard library and the bundle are missing or stale (run ``make snapshot``).
"""

from __future__ import annotations

import argparse
import ast
import base64
import hashlib
import json
import re
import shutil
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_snapshot  # noqa: E402
from sync_pyscript_files import package_modules, replace_files_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOP_FILES = ("index.html", "main.py", "pyscript.toml", "manifest.webmanifest", "sw.js")
# the rules, calculator and embed pages and their entry scripts; examples/: an ordinary
# article that embeds them (docs/reference/embedding.md)
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
SW_FILES = "const FILES = {};"
SNAPSHOT_MANIFEST = Path("static/vendor/snapshot/manifest.json")
# the head every page shares; BUILD_META in a page marks its place, and the head holds it again
PAGE_HEAD = Path("scripts/page_head.html")
BOOT_TEXT = "{boot_text}"  # in PAGE_HEAD: the boot_* strings, as JSON
HEAD_DONE = 'id="sxmj-boot-text"'  # a page holding this has its head already
I18N = Path("sxmj/ui/strings.py")  # the UI's string table (STRINGS, a literal)
BOOT_SCRIPT = Path("static/js/page-boot.js")
INLINE = ("static/js/page-boot.js", "static/js/sound.js")  # classic scripts of the head
# PyScript's interpreter module: the built site's [files] list goes into it (move_sources)
INTERPRETER = Path("static/boot/pyodide-snapshot.mjs")
INTERPRETER_SOURCES = "const SOURCES = null;"
INTERPRETER_KIT = "const KIT = null;"
# what the built interpreter module needs of the kit's manifest (the sources' hashes are for
# a dev page, which compares the served sources with them)
KIT_FIELDS = ("format", "key", "pyodide", "stdlib", "bundle", "imports")
# PyScript's chunks that no page loads: its editor (codemirror), the packages' graph (no
# package is loaded), archives in [files] (none); and whatever only the plugins load lazily
# (the terminal's xterm, the editor's TOML): only core.js, what it imports and what the core
# chunk itself imports are kept
PYSCRIPT_DIR = Path("static/vendor/pyscript")
PYSCRIPT_UNUSED = re.compile(r"^(codemirror.*|pyodide_graph-.*|zip-.*)\.js$")
# not for the service worker: the one-by-one sources, the kit's manifest, the article
SW_LEAVES_OUT = re.compile(r"^(sxmj/.*\.py|static/vendor/snapshot/manifest\.json|examples/.*)$")
MOVED_FILES = (
    "# [files]: `make site` moved the list into static/boot/pyodide-snapshot.mjs (SOURCES):\n"
    "# the memory snapshot holds the modules, so PyScript fetches none of them.\n"
)


class ShellError(ValueError):
    """A page, the shared head or the boot strings are not as render_page needs them."""


def boot_strings(root: Path) -> dict[str, list[str]]:
    """``{name: [zh, en]}`` for every ``boot_<name>`` key of ``sxmj.ui.strings.STRINGS``.

    Read from the source with ``ast`` (``STRINGS`` is a literal), not imported: the dev
    server sees an edit at once, and the table of the folder being served is the one used.
    """
    tree = ast.parse((root / I18N).read_text(encoding="utf-8"), str(I18N))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if not (isinstance(target, ast.Name) and target.id == "STRINGS"):
            continue
        if not isinstance(node.value, ast.Dict):
            raise ShellError(f"{I18N}: STRINGS is not a dict literal")
        found: dict[str, list[str]] = {}
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            name = key.value if isinstance(key, ast.Constant) else None
            if not isinstance(name, str):
                raise ShellError(f"{I18N}:{value.lineno}: a STRINGS key that is not a literal")
            if not name.startswith("boot_"):
                continue
            try:
                zh, en = ast.literal_eval(value)
            except ValueError:
                raise ShellError(f"{I18N}:{value.lineno}: {name} is not a literal pair") from None
            found[name.removeprefix("boot_")] = [zh, en]
        return found
    raise ShellError(f"{I18N}: no STRINGS table")


def boot_text_json(root: Path) -> str:
    """The boot strings for the page's JSON block; fails when a name the boot script shows
    (its ``var TEXTS = [...]``) has no ``boot_<name>``."""
    strings = boot_strings(root)
    script = (root / BOOT_SCRIPT).read_text(encoding="utf-8")
    declared = re.search(r"^\s*var TEXTS = \[([^\]]*)\];", script, flags=re.M)
    if declared is None:
        raise ShellError(f"{BOOT_SCRIPT} must declare the texts it shows: var TEXTS = [...];")
    missing = [n for n in re.findall(r'"(\w+)"', declared.group(1)) if n not in strings]
    if missing:
        keys = ", ".join(f"boot_{n}" for n in missing)
        raise ShellError(f"{BOOT_SCRIPT} shows {keys}: missing in {I18N} STRINGS")
    text = json.dumps(strings, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("</", "<\\/")  # nothing in it may close the <script> element


def needs_head(html: str) -> bool:
    """True for a page as written in the repository (its head not put in yet)."""
    return BUILD_META in html and HEAD_DONE not in html


def render_page(html: str, root: Path) -> str:
    """The page with the shared head (PAGE_HEAD, its boot strings filled in) in place of its
    ``<meta name="sxmj-build" content="dev">`` line, its small scripts inlined and its
    Content-Security-Policy (:func:`content_policy`) filled in; the build stamp stays "dev"."""
    if html.count(BUILD_META) != 1 or HEAD_DONE in html:
        raise ShellError(f"a page must hold {BUILD_META} once, where the shared head goes")
    head = (root / PAGE_HEAD).read_text(encoding="utf-8").strip()
    if head.count(BUILD_META) != 1 or head.count(BOOT_TEXT) != 1 or head.count(CSP_SLOT) != 1:
        raise ShellError(f"{PAGE_HEAD} must hold {BUILD_META}, {BOOT_TEXT} and {CSP_SLOT} "
                         "once each")
    page = inline_scripts(html.replace(BUILD_META, head.replace(BOOT_TEXT, boot_text_json(root))),
                          root)
    return page.replace(CSP_SLOT, content_policy(page))


# Every page's Content-Security-Policy, as a <meta http-equiv> (GitHub Pages sends no
# headers): scripts from the site alone, and the inline ones by their hashes (no inline
# handler, no script a name could smuggle into the page ever runs); no plugin, no <base>, no
# form posted anywhere. 'wasm-unsafe-eval' compiles Pyodide's WebAssembly. 'unsafe-eval' is
# PyScript's: its core builds its worker hooks with Function() on every page, the main
# thread's included (vendored @pyscript/core 0.7.31), so the page does not start without it;
# it lets no injected markup run (an inline handler needs 'unsafe-inline'). Inline styles
# stay allowed: the table sets widths and positions in style attributes. Where the page may
# connect (the site, the friends room's broker) is page-boot.js's connect-src, read from the
# address and the settings before anything connects.
CSP_SLOT = "{csp}"
CSP = ("script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'{hashes}; "
       "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; "
       "media-src 'self' data: blob:; worker-src 'self' blob:; manifest-src 'self'; "
       "frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"(?:application/json|py)\")"
                           r"[^>]*>(.*?)</script>", re.S | re.I)


def content_policy(html: str) -> str:
    """The page's policy: :data:`CSP`, with the SHA-256 of each inline script it runs.

    >>> content_policy("<script>go()</script>").split(";")[0].split()[-1]
    "'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"
    """
    hashes = "".join(
        f" 'sha256-{base64.b64encode(hashlib.sha256(m.group(1).encode()).digest()).decode()}'"
        for m in INLINE_SCRIPT.finditer(html))
    return CSP.format(hashes=hashes)


def inline_scripts(html: str, root: Path) -> str:
    """The small classic scripts of the head (INLINE) written into the page: the parser would
    otherwise stop at each until it arrived, and the skeleton's first paint waits for the
    parser (it came 40–50 ms sooner this way while the runtime's big downloads were under
    way). Each keeps its path in ``data-inline``."""
    for path in INLINE:
        tag = f'<script src="./{path}"></script>'
        if tag not in html:
            continue
        code = (root / path).read_text(encoding="utf-8")
        if "</script" in code.lower() or "<!--" in code:
            raise ShellError(f"{path} cannot be inlined: it holds </script or <!--")
        html = html.replace(tag, f'<script data-inline="{path}">\n{code}</script>')
    return html


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
    kit = build_snapshot.current(snapshot, build_snapshot.build_key(root))
    if kit is None:
        raise SystemExit("build_site: the compiled standard library is missing or stale: run"
                         " `make snapshot`")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in TOP_FILES + PAGES:
        if name.endswith(".html"):
            try:
                html = render_page((root / name).read_text(encoding="utf-8"), root)
            except ShellError as err:
                raise SystemExit(f"build_site: {name}: {err}") from None
            (out / name).write_text(html, encoding="utf-8")
        else:
            shutil.copy2(root / name, out / name)
    for name in PAGE_DIRS:
        shutil.copytree(root / name, out / name, ignore=SKIP)
    for module in modules:
        (out / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / module, out / module)
    shutil.copytree(static, out / "static", ignore=SKIP)
    (out / ".nojekyll").write_text("", encoding="utf-8")
    move_sources(out, modules, kit)
    build = stamp(out)
    files = [p for p in out.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    print(f"site: {len(files)} files, {size / 1e6:.1f} MB in {out.name}/, build {build}")
    return 0


def move_sources(out: Path, modules: list[str], kit: dict) -> None:
    """Take ``[files]`` out of the built pyscript.toml and give the list to the interpreter
    module (its ``SOURCES``), with the kit's manifest (``KIT``). PyScript would fetch every
    source, one request each, before running anything; the module writes them all from the
    bundle (one request)."""
    config = out / "pyscript.toml"
    text = replace_files_table(config.read_text(encoding="utf-8"), MOVED_FILES)
    if "files" in tomllib.loads(text):
        raise SystemExit("build_site: pyscript.toml still lists [files] after moving them")
    config.write_text(text, encoding="utf-8")
    module = out / INTERPRETER
    code = module.read_text(encoding="utf-8")
    if len(re.findall(f"^{re.escape(INTERPRETER_SOURCES)}$", code, flags=re.M)) != 1:
        raise SystemExit(
            f"build_site: {INTERPRETER} must hold the line {INTERPRETER_SOURCES!r} once")
    if len(re.findall(f"^{re.escape(INTERPRETER_KIT)}$", code, flags=re.M)) != 1:
        raise SystemExit(f"build_site: {INTERPRETER} must hold the line {INTERPRETER_KIT!r} once")
    listed = INTERPRETER_SOURCES.replace("null", json.dumps(modules))
    manifest = INTERPRETER_KIT.replace(
        "null", json.dumps({k: kit[k] for k in KIT_FIELDS}, separators=(",", ":")))
    code = code.replace(INTERPRETER_SOURCES, listed).replace(INTERPRETER_KIT, manifest)
    module.write_text(code, encoding="utf-8")


def pyscript_unused(out: Path) -> set[str]:
    """PyScript's files no page loads (paths relative to ``out``): its chunks but core.js,
    the chunks it imports and those the core chunk imports (at once or on demand), less
    PYSCRIPT_UNUSED; its stylesheets but core.css."""
    folder = out / PYSCRIPT_DIR
    imports = re.compile(r"""(?:from|import)\s*\(?\s*["']\./([\w.-]+\.js)["']""")
    used = {"core.js", "core.css"}
    core = set(imports.findall((folder / "core.js").read_text(encoding="utf-8")))
    used |= core
    for name in core:
        used |= set(imports.findall((folder / name).read_text(encoding="utf-8")))
    return {
        (PYSCRIPT_DIR / p.name).as_posix()
        for p in folder.iterdir()
        if p.name not in used or PYSCRIPT_UNUSED.match(p.name)
    }


def sw_files(out: Path, files: list[str]) -> dict[str, str]:
    """What the service worker caches, ``{"./path": hash}`` (``./`` is index.html); the hash
    is the first 16 hex digits of the file's SHA-256 (the worker checks every copy with it)."""
    skip = pyscript_unused(out)
    kept = [rel for rel in files if rel not in skip and not SW_LEAVES_OUT.match(rel)]
    hashes = {rel: hashlib.sha256((out / rel).read_bytes()).hexdigest()[:16] for rel in kept}
    return {"./": hashes["index.html"], **{f"./{rel}": hashes[rel] for rel in kept}}


def script_preloads(html: str) -> str:
    """Preloads of the page's Python script and its config: PyScript asks for them only once
    its own modules have loaded, and the interpreter is ready by then (examples/ embeds pages
    and has no Python script of its own)."""
    found = re.search(r'<script type="py" src="\./([^"]+)" config="\./([^"]+)">', html)
    if found is None:
        return ""
    return "".join(f'\n  <link rel="preload" href="./{name}" as="fetch" crossorigin>'
                   for name in found.groups())


def stamp(out: Path) -> str:
    """Write the build hash into the pages and sw.js, and sw.js's list of files; return it."""
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
    # the compiled standard library and the sources bundle are named by their key: preload
    # them from the first byte, beside the runtime, instead of when the interpreter module asks
    folder = SNAPSHOT_MANIFEST.parent.as_posix()
    kit = json.loads((out / SNAPSHOT_MANIFEST).read_text(encoding="utf-8"))
    stamped = BUILD_META.replace('"dev"', f'"{build}"') + "".join(
        f'\n  <link rel="preload" href="./{folder}/{name}" as="fetch" crossorigin>'
        for name in (kit["stdlib"], kit["bundle"])
    )
    for page in sorted(out.glob("*.html")):  # every page boots the same runtime
        html = page.read_text(encoding="utf-8")
        if html.count(BUILD_META) != 1:
            raise SystemExit(f"build_site: {page.name} must hold {BUILD_META} once")
        page.write_text(html.replace(BUILD_META, stamped + script_preloads(html)), "utf-8")
    worker = out / "sw.js"
    code = worker.read_text(encoding="utf-8")
    for line in (SW_BUILD, SW_FILES):
        if len(re.findall(f"^{re.escape(line)}$", code, flags=re.M)) != 1:
            raise SystemExit(f"build_site: sw.js must hold the line {line!r} once")
    code = code.replace(SW_BUILD, SW_BUILD.replace('"dev"', f'"{build}"'))
    code = code.replace(SW_FILES, f"const FILES = {json.dumps(sw_files(out, files), indent=1)};")
    worker.write_text(code, encoding="utf-8")
    return build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_site")
    args = parser.parse_args(argv)
    return build(ROOT, args.out.resolve())


if __name__ == "__main__":
    sys.exit(main())
