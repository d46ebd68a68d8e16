"""scripts/serve.py: MIME types Pyodide needs, no caching, the sub-path prefix, and the pages
served as the built site holds them: with the head they share (scripts/page_head.html) and the
boot strings of sxmj/ui/i18n.py (build_site.render_page, also used by `make site`)."""

from __future__ import annotations

import json
import re
import shutil
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_site  # noqa: E402
import serve  # noqa: E402

BOOT_JSON = re.compile(r'<script type="application/json" id="sxmj-boot-text">(.*?)</script>')
# each page's own policy: the hashes of its own inline scripts (tests/test_content_policy.py)
CSP_CONTENT = re.compile(r'(<meta http-equiv="Content-Security-Policy" content=")[^"]*"')
PAGES = ("index.html", "learn.html", "calc.html", "embed.html")


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


# ---------- the pages' shared head ----------


def boot_names() -> list[str]:
    """The texts static/js/page-boot.js shows (its ``var TEXTS = [...]``)."""
    script = (ROOT / build_site.BOOT_SCRIPT).read_text(encoding="utf-8")
    return re.findall(r'"(\w+)"', re.search(r"var TEXTS = \[([^\]]*)\];", script).group(1))


def write_strings(root: Path, strings: dict[str, tuple[str, str]]) -> None:
    (root / build_site.I18N).write_text(
        "from __future__ import annotations\n\n"
        f"STRINGS: dict[str, tuple[str, str]] = {strings!r}\n", encoding="utf-8")


@pytest.fixture
def repo(tmp_path):
    """A folder laid out like the repository: a source page, the shared head, the boot
    script and a string table; served under /sxmj/ as `make play` serves the repository."""
    root = tmp_path / "repo"
    for rel in (build_site.PAGE_HEAD, build_site.BOOT_SCRIPT, build_site.I18N):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
    for rel in (build_site.PAGE_HEAD, build_site.BOOT_SCRIPT):
        shutil.copy2(ROOT / rel, root / rel)
    strings = {f"boot_{n}": (f"{n} 中文…", f"{n} English…") for n in boot_names()}
    write_strings(root, {"title": ("绍兴麻将", "Shaoxing Mahjong"), **strings})
    (root / "index.html").write_text(
        '<!doctype html>\n<html lang="zh-Hans" data-sw>\n<head>\n'
        f"  {build_site.BUILD_META}\n  <title>t</title>\n</head>\n<body>b</body>\n</html>\n",
        encoding="utf-8")
    server, thread = serve.serve_in_thread(root, prefix="/sxmj/")
    yield root, serve.server_url(server), strings
    server.shutdown()
    server.server_close()
    thread.join(5)


def boot_json(html: str) -> dict:
    blocks = BOOT_JSON.findall(html)
    assert len(blocks) == 1, html
    return json.loads(blocks[0])


def test_dev_server_serves_a_page_with_the_shared_head(repo):
    root, url, strings = repo
    for path in ("", "index.html", "index.html?seed=7&lang=en"):
        status, headers, body = fetch(url + path)
        assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
        assert int(headers["Content-Length"]) == len(body)
        html = body.decode("utf-8")
        assert html.startswith('<!doctype html>\n<html lang="zh-Hans" data-sw>\n<head>\n'
                               '  <meta charset="utf-8">\n')
        assert html.count(build_site.BUILD_META) == 1  # the build stamps it; "dev" here
        # the boot script is written into the page (build_site.inline_scripts)
        assert '<script src="./static/js/page-boot.js"></script>' not in html
        boot = (ROOT / "static" / "js" / "page-boot.js").read_text(encoding="utf-8")
        assert f'<script data-inline="static/js/page-boot.js">\n{boot}</script>' in html
        assert html.index("page-boot.js") < html.index("pyodide-snapshot.mjs") < html.index(
            'src="./static/vendor/pyscript/core.js"') < html.index("<title>t</title>")
        assert boot_json(html) == {k.removeprefix("boot_"): list(v) for k, v in strings.items()}
        assert "{boot_text}" not in html and "title" not in boot_json(html)
    assert fetch(url + "index.html")[2] == fetch(url)[2]


def test_dev_server_reads_the_strings_afresh(repo):
    root, url, strings = repo
    first = boot_names()[0]
    write_strings(root, {**strings, f"boot_{first}": ("改过了", "Edited </script>")})
    served = boot_json(fetch(url)[2].decode("utf-8"))
    assert served[first] == ["改过了", "Edited </script>"]  # escaped in the page: "<\/script>"


def test_dev_server_says_which_boot_string_is_missing(repo):
    root, url, strings = repo
    last = boot_names()[-1]
    write_strings(root, {k: v for k, v in strings.items() if k != f"boot_{last}"})
    status, _, _ = fetch(url)
    assert status == 500
    with pytest.raises(build_site.ShellError, match=f"boot_{last}"):
        build_site.render_page((root / "index.html").read_text(encoding="utf-8"), root)


def test_a_built_page_is_served_as_it_is(repo):
    root, url, _ = repo
    built = build_site.render_page((root / "index.html").read_text(encoding="utf-8"), root)
    built = built.replace(build_site.BUILD_META, '<meta name="sxmj-build" content="0123abcd">')
    (root / "built.html").write_text(built, encoding="utf-8")
    assert fetch(url + "built.html")[2].decode("utf-8") == built
    with pytest.raises(build_site.ShellError):
        build_site.render_page(built.replace('content="0123abcd"', 'content="dev"'), root)


def test_the_boot_strings_are_the_string_table():
    """The strings the pages show before Python starts are sxmj.ui.i18n.STRINGS' boot_* keys
    (read with ast: the same as importing it), one for each text the boot script shows."""
    from sxmj.ui.i18n import STRINGS

    found = build_site.boot_strings(ROOT)
    assert found == {k.removeprefix("boot_"): list(v) for k, v in STRINGS.items()
                     if k.startswith("boot_")}
    missing = [n for n in boot_names() if n not in found]
    assert not missing, f"static/js/page-boot.js shows these; add boot_<name> to STRINGS: {missing}"
    # the game page's first paint says the same as the boot script once it runs
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    for name in ("download",):
        assert all(t in index for t in found[name]), found[name]


def test_every_page_has_one_head_in_one_place():
    """The repository pages hold only what is their own; the shared head holds the rest
    (no copy of it drifts in a page), and every rendered page gets the same."""
    head = (ROOT / build_site.PAGE_HEAD).read_text(encoding="utf-8")
    shared = [line.strip() for line in head.splitlines() if line.strip().startswith("<")]
    rendered = []
    for name in PAGES:
        source = (ROOT / name).read_text(encoding="utf-8")
        assert build_site.needs_head(source), name
        for line in shared:
            if line != build_site.BUILD_META and "{boot_text}" not in line:
                assert line not in source, f"{name} repeats the shared head: {line}"
        html = build_site.render_page(source, ROOT)
        assert html.count('<meta charset="utf-8">') == 1
        assert html.encode().index(b'<meta charset="utf-8">') < 1024, name  # as HTML requires
        head_part = html.split("<title>")[0].split("<head>")[1]
        rendered.append(CSP_CONTENT.sub(r'\1"', BOOT_JSON.sub("", head_part)))
        assert not re.search(r'(?:src|href)="(?!\./|#|\?)', html), name
    assert len(set(rendered)) == 1  # the same shared head, up to each page's own part
