"""The hand review (复盘) in a Web Worker: the page's side of ``static/boot/review-worker.js``.

A review plays thousands of playouts. On the main thread they run in slices of a few ms,
but a slice is only as short as its longest playout, which a slow phone stretches past
50 ms; in a worker the page never waits for one. The worker starts on the first review of
a visit (a second Pyodide, a few seconds) and stays for the next ones. It runs the page's
own modules (:func:`package_sources`, sent with the job), so it reviews exactly as the
command line does for the same seed.

Where there is no worker (no ``Worker`` in the page) or it can't start, the review runs on
the main thread in slices (:class:`sxmj.ui.table.driver.Reviewer`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sxmj

WORKER_URL = "./static/boot/review-worker.js"  # relative to the page
IDLE_SECONDS = 120.0  # a worker no review has used this long is stopped: its Pyodide holds
# tens of MB, which a phone's tab needs more than the second or two a new start costs


class WorkerFailed(Exception):
    """The worker could not review: ``stage`` is "start" (it never came up: review on the
    page instead) or "review" (the review itself failed)."""

    def __init__(self, stage: str, reason: str):
        super().__init__(f"the review worker failed ({stage}): {reason}")
        self.stage = stage


def package_sources(root: Path | None = None) -> dict[str, str]:
    """Every module of the ``sxmj`` package but the UI, ``{"sxmj/bots/review.py": text}``:
    what the worker imports (the review needs the core and the bots, never the DOM)."""
    root = root or Path(sxmj.__file__).parent
    return {f"sxmj/{path.relative_to(root).as_posix()}": path.read_text(encoding="utf-8")
            for path in sorted(root.rglob("*.py"))
            if path.relative_to(root).parts[0] != "ui"}


def has_worker(window: Any) -> bool:
    """True where the page can start a worker (a browser's page; not the tests' fake one)."""
    return window is not None and getattr(window, "Worker", None) is not None


class ReviewWorker:
    """One worker for the page's reviews, one job at a time (a newer one replaces it).

    Given the page's ``window`` and :mod:`pyscript.ffi`'s ``to_js`` and ``create_proxy``
    (the worker's messages call back into Python; by default pyscript's own).
    """

    def __init__(self, window: Any, to_js: Callable[[Any], Any],
                 create_proxy: Callable[[Any], Any] | None = None):
        self.window = window
        self.to_js = to_js
        self.create_proxy = create_proxy
        self.worker: Any = None
        self.handlers: list[Any] = []  # kept alive while the worker is
        self.job = 0
        self.waiting: asyncio.Future | None = None
        self.on_progress: Callable[[int, int], None] = lambda done, total: None
        self.sources: str | None = None  # the first job's, as JSON
        self.sources_sent = False  # to this worker (a new one needs them again)
        self.started_ms: int | None = None  # the worker's start, once it is up
        self.idle: asyncio.Future | None = None  # stops the worker once unused a while

    def _ensure(self) -> Any:
        if self.worker is None:
            if self.create_proxy is None:
                from pyscript.ffi import create_proxy  # only exists in the browser
                self.create_proxy = create_proxy
            self.worker = self.window.Worker.new(WORKER_URL, self.to_js({"type": "module"}))
            for name, handler in (("onmessage", self._message), ("onerror", self._error)):
                proxy = self.create_proxy(handler)
                self.handlers.append(proxy)
                setattr(self.worker, name, proxy)
        return self.worker

    async def review(self, record: dict, hand: int | None, seat: int,
                     on_progress: Callable[[int, int], None]) -> Any:
        """Review ``seat`` in ``hand`` of ``record`` in the worker; ``on_progress(done,
        total)`` as it goes. Returns the review as the worker sent it
        (:meth:`sxmj.bots.review.Review.to_wire`: the reviewer, the UI module that takes
        the review's work, rebuilds it). Raises :class:`WorkerFailed`; cancelling stops the
        job."""
        worker = self._ensure()
        self.job += 1
        job = self.job
        self.on_progress = on_progress
        self.waiting = asyncio.get_event_loop().create_future()
        if self.sources is None:
            self.sources = json.dumps(package_sources(), ensure_ascii=False)
        # the sources (a MB) only to a new worker: it reads them once, as it starts
        sources = "null" if self.sources_sent else self.sources
        self.sources_sent = True
        stdlib = getattr(self.window.sxmjBoot, "stdlib", None) \
            if hasattr(self.window, "sxmjBoot") else None
        stdlib_json = json.dumps(stdlib if isinstance(stdlib, str) else None)
        worker.postMessage(
            f'{{"type": "review", "id": {job}, "stdlib": {stdlib_json}, '
            f'"record": {json.dumps(json.dumps(record))}, "hand": {json.dumps(hand)}, '
            f'"seat": {int(seat)}, "sources": {sources}}}')
        try:
            wire = await self.waiting
        except asyncio.CancelledError:
            worker.postMessage(json.dumps({"type": "cancel", "id": job}))
            raise
        finally:
            self.waiting = None
            self.idle = asyncio.ensure_future(self._stop_when_idle(job))
        return wire

    async def _stop_when_idle(self, job: int) -> None:
        await asyncio.sleep(IDLE_SECONDS)
        if self.job == job and self.waiting is None:
            self.close()

    def _message(self, event: Any) -> None:
        try:
            message = json.loads(str(event.data))
        except ValueError:
            return
        if message.get("type") == "started":
            self.started_ms = message.get("ms")
            self._record("reviewWorkerMs", self.started_ms)
            return
        waiting = self.waiting
        if message.get("id") != self.job or waiting is None or waiting.done():
            return  # an older job's
        kind = message.get("type")
        if kind == "progress":
            self.on_progress(int(message["done"]), int(message["total"]))
        elif kind == "done":
            self._record("reviewWorkerHeapBytes", message.get("heap"))
            waiting.set_result(message["review"])
        elif kind == "failed":
            if message.get("stage") == "start":
                self.close()
            waiting.set_exception(WorkerFailed(str(message.get("stage")),
                                               str(message.get("reason"))))

    def _record(self, name: str, value: Any) -> None:
        """Keep a figure of the worker (its start, its memory) for the browser tests, on
        ``window.sxmjStats`` where the page has it."""
        stats = getattr(self.window, "sxmjStats", None)
        if stats is not None:
            setattr(stats, name, value)

    def _error(self, event: Any) -> None:
        """The worker's script did not load or threw outside a job: it is of no more use."""
        waiting = self.waiting
        self.close()
        if waiting is not None and not waiting.done():
            waiting.set_exception(WorkerFailed("start", str(getattr(event, "message", "")
                                                            or "the worker did not start")))

    def close(self) -> None:
        """Stop the worker (the next review starts another)."""
        if self.worker is not None:
            self.worker.terminate()
        self.worker = None
        self.sources_sent = False
        for proxy in self.handlers:
            proxy.destroy()
        self.handlers = []
