"""The hand review (复盘) started from the table: :class:`Reviewer` sends a finished hand to
the review's Web Worker (:mod:`sxmj.ui.table.review.worker`, a second Pyodide), and where the
page has none or it can't start, steps the expert through the hand on the page in short
tasks.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable

from sxmj.bots.review import Review, review_steps
from sxmj.ui.table.dom import Clock, is_none
from sxmj.ui.table.review.markup import ReviewShown, review_html, shown_flag
from sxmj.ui.table.review.worker import ReviewWorker, WorkerFailed, has_worker

REVIEW_SLICE_MS = 4.0  # the review's steps run back to back this long, then yield (one
# step, one move of the judged seat in a playout, is a median 1.3 ms and at most about 23 ms
# in CPython, about 1.7 × that in Pyodide)
REVIEW_PAINT_MS = 120.0  # the progress bar moves at most this often


class Reviewer:
    """The hand review (复盘): the expert re-plays the player's decisions of a finished hand
    (:func:`sxmj.bots.review.review_steps`) in the review's worker; where there is none (no
    Worker, or its Pyodide can't start) on the page, a guess at a time, in an asyncio task
    that yields to the event loop every ``REVIEW_SLICE_MS``, so the page never freezes.

    Given the page (``document``, for the progress bar alone), the clock, ``render`` (once
    the review ends or stops) and ``fail``. ``shown`` is what the result panel shows;
    ``key`` names the hand reviewed (a review of another hand than the one shown stops).
    """

    def __init__(self, document, clock: Clock, render: Callable[[], None],
                 fail: Callable[[str], None], window=None, to_js: Callable = lambda v: v):
        self.document = document
        # the review runs in a worker where the page has one (a browser), else here in slices
        self.worker = ReviewWorker(window, to_js) if has_worker(window) else None
        self.clock = clock
        self.render = render
        self.fail = fail
        self.key: tuple | None = None
        self.shown = ReviewShown()
        self.task: asyncio.Future | None = None
        self.longest_step = 0.0  # ms: the longest task of the last review

    def start(self, key: tuple, record: dict, hand: int, seat: int = 0) -> None:
        """Review ``seat``'s decisions in ``hand`` of ``record`` (in a task)."""
        self.cancel(quiet=True)
        self.key = key
        self.shown = ReviewShown(status="running", where="page" if self.worker is None
                                 else "worker")
        self.longest_step = 0.0
        run = self.run if self.worker is None else self.run_in_worker
        self.task = asyncio.ensure_future(run(record, hand, seat))
        self.render()

    def cancel(self, quiet: bool = False) -> None:
        """Stop the review (the cancel button): what it found so far is dropped."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            self.shown = ReviewShown(status="cancelled")
        self.task = None
        if not quiet:
            self.render()

    def state_for(self, key: tuple) -> ReviewShown:
        """What the result panel of hand ``key`` shows; a review of another hand stops."""
        if key == self.key:
            return self.shown
        if self.task is not None:
            self.cancel(quiet=True)
        self.key = None
        return ReviewShown()

    def html(self, key: tuple, lang: str) -> str:
        """The review's section of the result panel of hand ``key``."""
        return review_html(self.state_for(key), lang)

    async def run_in_worker(self, record: dict, hand: int, seat: int) -> None:
        """The review in the worker; on the main thread (:meth:`run`) if the worker can't
        start, then and for the rest of the visit."""
        assert self.worker is not None
        try:
            review = Review.from_wire(await self.worker.review(record, hand, seat,
                                                               self.progress))
        except asyncio.CancelledError:
            raise
        except WorkerFailed as err:
            if err.stage != "start":
                self.failed(str(err))
                return
            self.clock.window.console.warn(f"sxmj: {err}; the review runs on the page")
            self.worker = None
            await self.run(record, hand, seat)
            return
        except Exception:  # noqa: BLE001 - shown to the player and logged for the tests
            self.failed(traceback.format_exc())
            return
        self.finish(review, "worker")

    def failed(self, reason: str) -> None:
        """Show the failed state, and hand ``reason`` to ``fail`` (shown and logged)."""
        self.task = None
        self.shown = ReviewShown(status="failed")
        self.fail(reason)

    def finish(self, review: Review, where: str) -> None:
        """Show the review found (``where`` it ran: "worker" or "page")."""
        self.shown = ReviewShown("done", review.decisions, review.total_loss,
                                 [shown_flag(f) for f in review.flagged], review.summary,
                                 where=where)
        self.task = None
        self.render()

    async def run(self, record: dict, hand: int, seat: int) -> None:
        """The review's loop: steps back to back for a slice, then a yield."""
        self.shown.where = "page"
        try:
            steps = review_steps(record, seat, hand, per_guess=True)
            painted = slice_start = self.clock.now()
            for done, total, found in steps:
                review = found  # the review so far; complete after the last step
                now = self.clock.now()
                if now - slice_start >= REVIEW_SLICE_MS:
                    self.longest_step = max(self.longest_step, now - slice_start)
                    self.clock.record("review", slice_start, now - slice_start)
                    if now - painted >= REVIEW_PAINT_MS:
                        self.progress(done, total)
                        painted = now
                    await asyncio.sleep(0)  # clicks (cancel) get in between
                    slice_start = self.clock.now()
            self.finish(review, "page")
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - shown to the player and logged for the tests
            self.failed(traceback.format_exc())

    def progress(self, done: int, total: int) -> None:
        """Move the progress bar in place (a full redraw would cost a task of its own)."""
        self.shown.done, self.shown.total = done, total
        bar = self.document.querySelector('[data-testid="review-progress"]')
        if is_none(bar):
            return
        bar.setAttribute("value", str(done))
        bar.setAttribute("max", str(max(total, 1)))
        bar.setAttribute("aria-valuenow", str(round(100 * done / max(total, 1))))
