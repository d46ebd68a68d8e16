"""The documentation holds together: every relative link resolves, every ``#anchor`` names a
heading, the README stays a short door, docs/README.md indexes every page, and the rule book
is the shared one.

Anchors follow GitHub's slugs: the heading's text lower-cased, every character that is not a
letter, a digit, an underscore, a hyphen or a space dropped (CJK characters are letters and
stay), spaces turned into hyphens, and ``-1``, ``-2`` … added to repeated slugs.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"
README_MAX_LINES = 150

FENCE = re.compile(r"^ {0,3}(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) and ![alt](target), with an optional "title"; <target> form too
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")


def doc_files() -> list[Path]:
    """The Markdown files whose links are checked."""
    return [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted(DOCS.rglob("*.md"))]


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks and indented code, inline code blanked out."""
    out: list[str] = []
    fenced = None
    previous_blank = True
    for line in text.splitlines():
        fence = FENCE.match(line)
        if fenced is not None:
            if fence and fence.group(1) == fenced:
                fenced = None
            previous_blank = False
            continue
        if fence:
            fenced = fence.group(1)
            continue
        if previous_blank and line.startswith("    ") and line.strip():
            continue  # an indented code block (a command), not prose
        previous_blank = not line.strip()
        out.append(INLINE_CODE.sub("", line))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a file offers: its headings' slugs (repeats numbered) and HTML anchors."""
    text = path.read_text(encoding="utf-8")
    seen: dict[str, int] = {}
    out: set[str] = set()
    fenced = None
    for line in text.splitlines():
        fence = FENCE.match(line)
        if fenced is not None:
            fenced = None if fence and fence.group(1) == fenced else fenced
            continue
        if fence:
            fenced = fence.group(1)
            continue
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    out.update(HTML_ANCHOR.findall(text))
    return out


def links(path: Path) -> list[str]:
    """Every link target written in the file's prose (code is not prose)."""
    lines = prose_lines(path.read_text(encoding="utf-8"))
    prose = "\n".join(lines)
    found = [m.group(1) for m in LINK.finditer(prose)]
    found += REFERENCE.findall(prose)
    return [t[1:-1] if t.startswith("<") and t.endswith(">") else t for t in found]


def broken_links(path: Path) -> list[str]:
    """The relative links of ``path`` that lead nowhere: a missing file, or an anchor that no
    heading of the target has."""
    problems: list[str] = []
    cache: dict[Path, set[str]] = {}
    for target in links(path):
        if EXTERNAL.match(target):
            continue  # http(s), mailto: the network is not checked here
        file_part, _, fragment = target.partition("#")
        dest = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not dest.exists():
            problems.append(f"{target}: no such file")
            continue
        if not fragment:
            continue
        if dest.is_dir() or dest.suffix.lower() != ".md":
            problems.append(f"{target}: an anchor into something that is not Markdown")
            continue
        if dest not in cache:
            cache[dest] = anchors(dest)
        if unquote(fragment) not in cache[dest]:
            problems.append(f"{target}: no heading #{unquote(fragment)} in {dest.name}")
    return problems


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path: Path) -> None:
    assert path.exists()
    assert broken_links(path) == []


def test_the_readme_is_a_short_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_the_docs_index_links_every_page() -> None:
    index = DOCS / "README.md"
    linked = {(index.parent / unquote(t.partition("#")[0])).resolve()
              for t in links(index) if not EXTERNAL.match(t) and t.partition("#")[0]}
    pages = {p.resolve() for p in DOCS.rglob("*.md") if p != index}
    missing = sorted(p.relative_to(DOCS).as_posix() for p in pages - linked)
    assert not missing, f"docs/README.md does not link {missing}"


def test_the_rule_book_is_the_shared_one() -> None:
    if not SHARED_RULES.exists():
        pytest.skip("no ../shared/RULES.md next to this checkout")
    assert (DOCS / "RULES.md").read_bytes() == SHARED_RULES.read_bytes(), (
        "docs/RULES.md differs from ../shared/RULES.md: copy the shared rule book")


@pytest.mark.parametrize(("heading", "expected"), [
    ("Hand review (复盘)", "hand-review-复盘"),
    ("Testing contract (selectors, URL parameters)", "testing-contract-selectors-url-parameters"),
    ("A guest's move", "a-guests-move"),
    ("Offline: the service worker", "offline-the-service-worker"),
    ("The `Phase` enum", "the-phase-enum"),
    ("1 December 2026, 12:28: the run", "1-december-2026-1228-the-run"),
    ("snake_case and -hyphens-", "snake_case-and--hyphens-"),
])
def test_slugs_follow_github(heading: str, expected: str) -> None:
    assert slug(heading) == expected


GOOD_TARGET = "# Target\n\n## A section (二)\n\n## A section (二)\n"


@pytest.mark.parametrize(("source", "problem"), [
    ("See [there](target.md).", None),
    ("See [there](target.md#a-section-二) and [again](target.md#a-section-二-1).", None),
    ("See [there](target.md#a-section-%E4%BA%8C).", None),
    ("# Here\n\nSee [here](#here) and ![an image](target.md).", None),
    ("See `[code](missing.md)` and\n\n    [indented](missing.md)\n", None),
    ("See [the web](https://example.com/x.md#nothing).", None),
    ("See [gone](missing.md).", "missing.md: no such file"),
    ("See [there](target.md#no-such-section).", "no heading #no-such-section"),
    ("# Here\n\nSee [nowhere](#elsewhere).", "no heading #elsewhere"),
    ("See [a ref][r].\n\n[r]: missing/ref.md\n", "missing/ref.md: no such file"),
    ("```\n## Fenced\n```\n\nSee [fenced](#fenced).", "no heading #fenced"),
], ids=["file", "anchors", "encoded", "self", "code", "external", "missing-file",
        "missing-anchor", "missing-own-anchor", "reference", "fenced-heading"])
def test_the_checker_finds_broken_links(tmp_path: Path, source: str, problem: str | None) -> None:
    (tmp_path / "target.md").write_text(GOOD_TARGET, encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(source, encoding="utf-8")
    found = broken_links(page)
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and problem in found[0], found
