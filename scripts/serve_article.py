#!/usr/bin/env python3
"""Another site's article with sxmj's embeds in it: ``python3 scripts/serve_article.py``.

The embeds' promise is "any web page", and any page is another site: a blog, a course page,
a forum post, where the browser treats sxmj's frames as third-party (storage partitioned, or
refused: Safari by default). This serves

- the built site (``_site/``, ``make site``) under ``/sxmj/`` on ``http://127.0.0.1:PORT/``,
  as GitHub Pages would (``--site URL``: use a site served elsewhere instead);
- the article, ``examples/third-party.html``, on ``http://localhost:ARTICLE_PORT/``: a
  different site for the browser (another host name), with every ``{{SITE}}`` written as the
  site's URL;
- ``/frames.html?src=PATH&src=PATH…`` on the article's server: a bare page of frames (each
  ``PATH`` relative to the site; ``lazy=1`` adds ``loading="lazy"``, ``gap=N`` puts N pixels
  between them), which the browser tests and ``scripts/bench_embeds.py`` open.

``make article`` runs it (``PORT``, ``ARTICLE_PORT``: default 8000 and 8001). The e2e tests
import :func:`serve_article` and run it in a thread. Stdlib only.
"""

from __future__ import annotations

import argparse
import html
import os
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import serve  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
ARTICLE = "third-party.html"
ARTICLE_HOST = "localhost"  # another site than 127.0.0.1 for the browser, still loopback


def frames_page(site: str, query: str) -> str:
    """A bare page of sxmj frames (``src``: paths below the site, in order)."""
    q = parse_qs(query)
    lazy = ' loading="lazy"' if q.get("lazy", ["0"])[-1] == "1" else ""
    try:
        gap = max(0, min(5000, int(q.get("gap", ["24"])[-1])))
        height = max(100, min(2000, int(q.get("height", ["420"])[-1])))
    except ValueError:
        gap, height = 24, 420
    frames = "".join(
        f'<iframe class="sxmj" id="f{i}" title="sxmj {i}" src="{html.escape(site + src)}" '
        f'style="display:block;width:100%;height:{height}px;border:0;margin:0 0 {gap}px"'
        f'{lazy}></iframe>'
        for i, src in enumerate(q.get("src", [])))
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            'content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
            '<title>frames</title></head><body style="margin:0;padding:12px;'
            f'font:16px system-ui"><p>Another site\'s page.</p>{frames}</body></html>')


class ArticleHandler(BaseHTTPRequestHandler):
    """The article and the frames page; nothing else (404)."""

    site = ""  # the sxmj site's URL, ending in "/"
    quiet = False

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        url = urlsplit(self.path)
        if url.path in ("/", "/" + ARTICLE):
            text = (EXAMPLES / ARTICLE).read_text(encoding="utf-8")
            body = text.replace("{{SITE}}", html.escape(self.site))
        elif url.path == "/frames.html":
            body = frames_page(self.site, url.query)
        else:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        data = body.encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


def serve_article(site: str, port: int = 0, quiet: bool = True
                  ) -> tuple[ThreadingHTTPServer, threading.Thread, str]:
    """The article's server for the sxmj site at ``site``, in a daemon thread: (server,
    thread, the article's origin ``http://localhost:PORT``)."""
    handler = type("Article", (ArticleHandler,),
                   {"site": site if site.endswith("/") else site + "/", "quiet": quiet})
    server = ThreadingHTTPServer((serve.HOST, port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="sxmj-article", daemon=True)
    thread.start()
    return server, thread, f"http://{ARTICLE_HOST}:{server.server_address[1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(ROOT / "_site"), help="the built site")
    parser.add_argument("--site", default="", help="a site served elsewhere (its URL)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
    parser.add_argument("--article-port", type=int,
                        default=int(os.environ.get("ARTICLE_PORT") or 8001))
    args = parser.parse_args(argv)
    site_server = None
    try:
        if not args.site:
            site_server = serve.make_server(args.root, args.port, "/sxmj/")
            threading.Thread(target=site_server.serve_forever, daemon=True).start()
        site = args.site or serve.server_url(site_server)
        server, thread, origin = serve_article(site, args.article_port, quiet=False)
    except (FileNotFoundError, OSError) as err:
        print(f"serve_article: {err} (run `make site`; set PORT= or ARTICLE_PORT=)",
              file=sys.stderr)
        return 2
    print(f"sxmj at {site}", flush=True)
    print(f"Open the article (another site): {origin}/", flush=True)
    print("Press Ctrl-C to stop.", flush=True)
    try:
        thread.join()
    except KeyboardInterrupt:
        print("\nStopped.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
