#!/usr/bin/env python3
"""Development server for the game: ``python3 scripts/serve.py [--root DIR] [--prefix /sxmj/]``.

A stdlib ``http.server`` that

- sends ``.wasm`` as ``application/wasm`` (Pyodide hangs on ``application/octet-stream``)
  and ``.mjs`` as ``text/javascript``;
- sends ``Cache-Control: no-cache`` so an edited ``.py`` file is never stale;
- binds 127.0.0.1 on ``PORT`` (default 8000) and prints the URL;
- can serve the folder under a sub-path (``--prefix /sxmj/``), as GitHub Pages does, to prove
  that every URL of the site is relative;
- serves a page of the repository as the built site holds it: with the head every page
  shares (``scripts/page_head.html`` and the boot strings of ``sxmj/ui/strings.py``, put in by
  :func:`build_site.render_page`, read afresh on every request); the pages of a built site
  already have it and are served as they are;
- stops cleanly on Ctrl-C.

The e2e tests import :func:`make_server` and run it in a thread.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_site  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"

CONTENT_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".md": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
    ".gz": "application/gzip",  # a file that is gzip, never Content-Encoding
}


def normalize_prefix(prefix: str) -> str:
    """``sxmj`` / ``/sxmj`` / ``/sxmj/`` -> ``/sxmj/``; empty or ``/`` -> ``/``."""
    parts = [p for p in prefix.split("/") if p]
    return "/" + "".join(p + "/" for p in parts)


class Handler(SimpleHTTPRequestHandler):
    """Static files with the right MIME types, no caching and an optional URL prefix."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **CONTENT_TYPES}
    prefix = "/"
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def _strip_prefix(self) -> bool:
        """Rewrite ``self.path`` below the prefix; answer and return False outside it."""
        if self.prefix == "/":
            return True
        url = urlsplit(self.path)
        if url.path == self.prefix.rstrip("/"):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            query = f"?{url.query}" if url.query else ""
            self.send_header("Location", self.prefix + query)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not url.path.startswith(self.prefix):
            self.send_error(HTTPStatus.NOT_FOUND, f"outside {self.prefix}")
            return False
        self.path = self.path[len(self.prefix) - 1 :]
        return True

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        if self._strip_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:  # noqa: N802
        if self._strip_prefix():
            super().do_HEAD()

    def send_head(self):
        """A repository page gets the shared head; everything else is served as it is."""
        page = self._repository_page()
        if page is None:
            return super().send_head()
        try:
            body = build_site.render_page(page, Path(self.directory)).encode("utf-8")
        except (OSError, SyntaxError, ValueError) as err:
            self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR, f"the page's shared head: {err}")
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", CONTENT_TYPES[".html"])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def _repository_page(self) -> str | None:
        """The text of the requested page when it still lacks the shared head, else None."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not urlsplit(self.path).path.endswith("/"):
                return None  # http.server redirects to the folder's URL
            path = os.path.join(path, "index.html")
        if not path.endswith(".html") or not os.path.isfile(path):
            return None
        try:
            html = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        return html if build_site.needs_head(html) else None

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    root: str | os.PathLike[str] = ROOT,
    port: int = 8000,
    prefix: str = "/",
    host: str = HOST,
    quiet: bool = False,
) -> ThreadingHTTPServer:
    """A server for ``root`` at ``http://host:port{prefix}`` (port 0 picks a free one)."""
    root = Path(root).resolve()
    if not (root / "index.html").is_file():
        raise FileNotFoundError(f"{root}/index.html not found")
    handler = type("SxmjHandler", (Handler,), {"prefix": normalize_prefix(prefix), "quiet": quiet})
    server = ThreadingHTTPServer((host, port), partial(handler, directory=str(root)))
    server.daemon_threads = True
    return server


def server_url(server: ThreadingHTTPServer) -> str:
    """The URL of the served site, e.g. ``http://127.0.0.1:8000/sxmj/``."""
    host, port = server.server_address[:2]
    return f"http://{host}:{port}{server.RequestHandlerClass.func.prefix}"


def serve_in_thread(
    root: str | os.PathLike[str], prefix: str = "/"
) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """Start a quiet server on a free port in a daemon thread (for tests)."""
    server = make_server(root, port=0, prefix=prefix, quiet=True)
    thread = threading.Thread(target=server.serve_forever, name="sxmj-serve", daemon=True)
    thread.start()
    return server, thread


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the game for development.")
    parser.add_argument("--root", default=str(ROOT), help="folder to serve (default: repo root)")
    parser.add_argument("--prefix", default="/", help="serve under this sub-path, e.g. /sxmj/")
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT") or 8000), help="default: $PORT"
    )
    parser.add_argument("--host", default=HOST)
    args = parser.parse_args(argv)
    try:
        server = make_server(args.root, args.port, args.prefix, args.host)
    except FileNotFoundError as err:
        print(f"serve: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"serve: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        print("serve: set PORT=<free port>, e.g. `make play PORT=8001`", file=sys.stderr)
        return 2
    # Ctrl-C must work even when started from a shell that ignores SIGINT (e.g. `cmd &`),
    # and SIGTERM stops as cleanly.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    with server:
        print(f"Serving {Path(args.root).resolve()} at {server_url(server)}", flush=True)
        print("Open that URL in a browser. Press Ctrl-C to stop.", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nStopped.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
