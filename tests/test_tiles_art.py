"""The tile art in static/tiles/ is exactly what scripts/make_tiles.py draws."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_tiles.py"
TILES = ROOT / "static" / "tiles"
ICONS = ROOT / "static" / "icons"
SVG_NS = "{http://www.w3.org/2000/svg}"

CODES = (
    [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 9)]
    + ["back"]
)


def test_codes_cover_the_set():
    assert len(CODES) == 43
    assert len(set(CODES)) == 43


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("art")
    subprocess.run([sys.executable, str(SCRIPT), "--out-dir", str(out)],
                   check=True, capture_output=True)
    return out


def test_generator_reproduces_committed_tiles(generated):
    made = sorted(p.name for p in (generated / "tiles").iterdir())
    committed = sorted(p.name for p in TILES.iterdir())
    assert made == committed, "static/tiles/ holds files the script does not make (or lacks some)"
    for name in made:
        assert (generated / "tiles" / name).read_bytes() == (TILES / name).read_bytes(), (
            f"static/tiles/{name} differs from scripts/make_tiles.py output; "
            "rerun: python scripts/make_tiles.py")


def test_generator_reproduces_committed_icons(generated):
    for name in ("app-192.svg", "app-512.svg"):
        assert (generated / "icons" / name).read_bytes() == (ICONS / name).read_bytes(), name


def test_generator_is_deterministic(generated, tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), "--out-dir", str(tmp_path)],
                   check=True, capture_output=True)
    for p in sorted((generated / "tiles").iterdir()):
        assert (tmp_path / "tiles" / p.name).read_bytes() == p.read_bytes(), p.name


@pytest.mark.parametrize("code", CODES)
def test_tile_file(code):
    path = TILES / f"{code}.svg"
    assert path.is_file(), path
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert root.get("role") == "img"
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text and title.text.strip()
    # Chinese name first, then an English name
    zh, _, en = title.text.partition(" ")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh), title.text
    assert en and en.isascii(), title.text


def test_some_titles():
    def title(code):
        root = ET.parse(TILES / f"{code}.svg").getroot()
        return root.find(f"{SVG_NS}title").text

    assert title("5m") == "五万 5 Characters"
    assert title("1z") == "东风 East Wind"
    assert title("5z") == "白板 White Dragon"
    assert title("1f") == "春 Spring"


@pytest.mark.parametrize("name", ["app-192.svg", "app-512.svg"])
def test_icon_svg(name):
    root = ET.parse(ICONS / name).getroot()
    assert root.get("viewBox") == "0 0 512 512"
    assert root.find(f"{SVG_NS}title") is not None


def test_readme_states_licence():
    text = (TILES / "README.md").read_text(encoding="utf-8")
    assert "scripts/make_tiles.py" in text
    assert "our own" in text
