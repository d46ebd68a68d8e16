"""Every page's Content-Security-Policy (issue 56): scripts from the site alone and the inline
ones by their hashes, no plugin, no <base>, no form sent anywhere; page-boot.js adds where the
page may connect. e2e/test_shell.py and e2e/test_friends.py see a browser enforce them."""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_site  # noqa: E402

PAGES = ("index.html", "learn.html", "calc.html", "embed.html")


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.mark.parametrize("name", PAGES)
def test_each_page_runs_only_the_sites_scripts_and_its_own_inline_ones(name):
    html = build_site.render_page((ROOT / name).read_text(encoding="utf-8"), ROOT)
    metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert len(metas) == 1
    policy = dict(d.strip().split(" ", 1) for d in metas[0].split(";"))
    # before any script: a policy met after a script would not cover it
    assert html.index("Content-Security-Policy") < html.index("<script")
    inline = re.findall(r"<script data-inline=\"[^\"]*\">(.*?)</script>", html, re.S)
    assert inline, "the head's small scripts are inlined"
    sources = policy["script-src"].split()
    assert sorted(s for s in sources if s.startswith("'sha256-")) == sorted(map(sha, inline))
    assert "'unsafe-inline'" not in sources and "*" not in sources
    assert {"'self'", "'wasm-unsafe-eval'"} <= set(sources)
    assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"
    assert "default-src" not in policy and "connect-src" not in policy  # page-boot.js's
    # no inline handler anywhere in the page (the policy would refuse it)
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", html, re.I)


def test_a_changed_inline_script_no_longer_matches():
    html = "<head><script data-inline=\"x\">go()</script></head>"
    assert sha("go()") in build_site.content_policy(html)
    assert sha("go()") not in build_site.content_policy(html.replace("go()", "go(1)"))


def test_page_boot_allows_a_broker_by_host_and_port_only():
    js = (ROOT / "static/js/page-boot.js").read_text(encoding="utf-8")
    pattern = re.search(r"if \(!/(\^\[a-z0-9\.-\]\+\(:\\d\+\)\?\$)/i\.test\(host\)\) return;", js)
    assert pattern, "page-boot.js's host check moved: update this test"
    host = re.compile(pattern[1].replace("\\\\", "\\"), re.I)
    for ok in ("127.0.0.1:9000", "broker.example.org", "0.peerjs.com"):
        assert host.fullmatch(ok)
    for bad in ("a;script-src *", "a b", "a'", "[::1]:9", "a/b", ""):
        assert not host.fullmatch(bad)


def test_no_markup_the_game_draws_asks_for_an_inline_handler():
    """The policy refuses inline handlers: a button drawn with ``onclick=`` would do nothing
    (page-boot.js carries the two the pages had: ``data-reload``, and no form is sent)."""
    found = [f"{path.relative_to(ROOT)}: {m.group(0)}"
             for path in sorted((ROOT / "sxmj" / "ui").rglob("*.py"))
             for m in re.finditer(r"<[a-z][^<>]*\son[a-z]+=", path.read_text(encoding="utf-8"))]
    assert not found, found
