"""scripts/serve.py: MIME types Pyodide needs, no caching, and the sub-path prefix."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import serve  # noqa: E402


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str):
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, b""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    (root / "index.html").write_text("<!doctype html><title>t</title>")
    for name in ("runtime.wasm", "loader.mjs", "main.py", "pyscript.toml", "icon.svg"):
        (root / name).write_bytes(b"x")
    server, thread = serve.serve_in_thread(root, prefix="/sxmj/")
    yield serve.server_url(server)
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("runtime.wasm", "application/wasm"),
        ("loader.mjs", "text/javascript"),
        ("main.py", "text/x-python; charset=utf-8"),
        ("pyscript.toml", "text/plain; charset=utf-8"),
        ("icon.svg", "image/svg+xml"),
        ("", "text/html; charset=utf-8"),
    ],
)
def test_content_types_and_no_cache(site, name, content_type):
    status, headers, _ = fetch(site + name)
    assert status == 200
    assert headers["Content-Type"] == content_type
    assert headers["Cache-Control"] == "no-cache"


def test_url_is_under_the_prefix_on_loopback(site):
    assert site.startswith("http://127.0.0.1:") and site.endswith("/sxmj/")


def test_outside_the_prefix_is_not_found(site):
    origin = site.removesuffix("sxmj/")
    assert fetch(origin + "index.html")[0] == 404
    assert fetch(origin + "sxmjx/index.html")[0] == 404


def test_prefix_without_slash_redirects(site):
    status, headers, _ = fetch(site.removesuffix("/"))
    assert status == 301
    assert headers["Location"] == "/sxmj/"


@pytest.mark.parametrize(
    ("given", "expected"), [("", "/"), ("/", "/"), ("sxmj", "/sxmj/"), ("/a/b", "/a/b/")]
)
def test_normalize_prefix(given, expected):
    assert serve.normalize_prefix(given) == expected


def test_refuses_a_folder_without_index_html(tmp_path):
    with pytest.raises(FileNotFoundError):
        serve.make_server(tmp_path, port=0)
