"""pyscript.toml must ship every module of the sxmj package to the browser.

A module missing from ``[files]`` is an ImportError in the browser while every CPython test
stays green; fix a failure here with ``make sync``.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_vendor  # noqa: E402
import sync_pyscript_files as sync  # noqa: E402


@pytest.fixture(scope="module")
def config() -> dict:
    return tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))


def test_every_package_module_is_listed(config):
    listed = {key.removeprefix("./") for key in config["files"]}
    modules = sync.package_modules(ROOT)
    assert "sxmj/__init__.py" in modules
    missing = [m for m in modules if m not in listed]
    assert not missing, f"not in pyscript.toml [files] (run `make sync`): {missing}"


def test_every_listed_file_exists_and_keeps_its_path(config):
    for url, dest in config["files"].items():
        assert url.startswith("./sxmj/") and url.endswith(".py"), url
        assert (ROOT / url).is_file(), f"[files] lists {url}, which does not exist: `make sync`"
        assert dest == url, f"{url} must land at the same path in the browser, not {dest}"


def test_files_table_is_exactly_what_sync_writes():
    assert sync.sync(ROOT, check=True) == 0, "pyscript.toml [files] is stale: run `make sync`"


def test_interpreter_is_the_vendored_local_copy(config):
    """The interpreter is the snapshot wrapper, which loads the vendored runtime."""
    interpreter = config["interpreter"]
    assert interpreter == "./static/boot/pyodide-snapshot.mjs"
    wrapper = (ROOT / interpreter).read_text()
    assert 'from "../vendor/pyodide/pyodide.mjs"' in wrapper
    assert "pyodide.mjs" in build_vendor.PYODIDE_FILES
    # the npm package has no wheels: a package list would be fetched from a CDN
    assert "packages" not in config


def test_every_url_in_the_config_is_relative(config):
    urls = [config["interpreter"], *config["files"]]
    for url in urls:
        assert url.startswith("./") and "://" not in url, url


def test_index_html_boots_main_py_with_this_config():
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    assert '<script type="py" src="./main.py" config="./pyscript.toml">' in html
    assert " worker" not in html.split('<script type="py"', 1)[1].split(">", 1)[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "[files]\n"),
        ('name = "x"\n', 'name = "x"\n\n[files]\n'),
        ('a = 1\n\n# old header\n[files]\n"./old.py" = "./old.py"\n', "a = 1\n\n[files]\n"),
        ('[files]\n"./x.py" = "./x.py"\n\n[other]\nb = 2\n', "[files]\n\n[other]\nb = 2\n"),
    ],
)
def test_replace_files_table(text, expected):
    table = "[files]\n"
    assert sync.replace_files_table(text, table) == expected
    assert sync.replace_files_table(expected, table) == expected


def test_sync_lists_nested_packages_and_skips_caches(tmp_path):
    for name in ("sxmj/__init__.py", "sxmj/a.py", "sxmj/ui/__init__.py", "sxmj/ui/b.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "sxmj/__pycache__").mkdir()
    (tmp_path / "sxmj/__pycache__/a.cpython-311.py").write_text("")
    (tmp_path / "pyscript.toml").write_text('interpreter = "./x.mjs"\n')
    assert sync.sync(tmp_path, check=True) == 1
    assert sync.sync(tmp_path) == 0
    config = tomllib.loads((tmp_path / "pyscript.toml").read_text())
    assert config["interpreter"] == "./x.mjs"
    assert list(config["files"]) == [
        "./sxmj/__init__.py",
        "./sxmj/a.py",
        "./sxmj/ui/__init__.py",
        "./sxmj/ui/b.py",
    ]
    assert sync.sync(tmp_path, check=True) == 0
