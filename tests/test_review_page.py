"""The hand review (复盘) on the page, under CPython on the fake page of test_ui_split: the
result panel's button starts it, it runs in a task that yields, it can be cancelled, it
flags a deliberately bad discard with both choices in words, and it works in the replay
viewer on an imported record."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sxmj.bots import review as review_module
from sxmj.bots.hard import HardStrategy
from sxmj.game import Action
from sxmj.record import to_record
from sxmj.ui.table.review.markup import ReviewShown, review_html
from tests.test_ui_split import Page, click_for, event, make_app, settle

BAD = Action.parse("0 discard 5m")  # breaks 456m; the coach says throw the South Wind


def real_clock(page: Page) -> None:
    """The review yields by the clock: give the fake page a running one."""
    page.window.performance = SimpleNamespace(now=lambda: time.perf_counter() * 1000)


def choose(game, first: bool) -> Action:
    """The player: the bad discard first, then hard's choice. One blunder in a short hand
    (7 decisions) keeps each review to seconds; throwing the drawn tile every turn made 23
    decisions and 9 flags, and these tests took 17-54 s each."""
    legal = game.legal_actions(0)
    if first and BAD in legal and not any(a.kind == "hu" for a in legal):
        return BAD
    return HardStrategy(0).choose(game.observation(0), legal).action


async def play_badly(page: Page, app) -> None:
    page.app = app
    app.kick()
    await settle(app)
    first = True
    while not app.match.game.over:
        action = choose(app.match.game, first)
        first = first and action != BAD
        app.router.on_click(event(click_for(page, action)))
        await settle(app)
    assert not first  # the bad discard was played


async def review_done(app, limit: float = 600) -> int:
    """Wait for the review's task; returns how many times it yielded meanwhile."""
    yields = 0
    deadline = time.monotonic() + limit
    while app.reviewer.task is not None and not app.reviewer.task.done():
        assert time.monotonic() < deadline, "the review never ended"
        await asyncio.sleep(0)
        yields += 1
    return yields


def result(page: Page) -> str:
    return page.elements["result"].innerHTML


@pytest.fixture(autouse=True)
def no_extra_guesses(monkeypatch):
    """These tests check the panel, not the judgement (tests/test_judge.py does): a decision
    takes its 24 guesses, and a suspect one (the planted discard) 48 at most, where its flag
    may stand, so a hand reviews in seconds, not minutes (with coverage a test took about
    100 s, and one of them 290 s, when the planted discard played on to 192 guesses or
    more)."""
    monkeypatch.setattr(review_module, "MOST", 0)
    monkeypatch.setattr(review_module, "MOST_SUSPECT", 48)
    monkeypatch.setattr(review_module, "CONFIRM_AFTER", 48)


def test_the_result_panel_reviews_the_hand_and_names_the_better_discard():
    page = Page()
    real_clock(page)
    app = make_app(page, "?scenario=baotou&speed=fast&lang=en")

    async def run() -> int:
        await play_badly(page, app)
        app.render()
        assert 'data-testid="review"' in result(page) and 'data-state="idle"' in result(page)
        app.router.on_click(event(page.button(data_ui="review")))
        assert 'data-testid="review-progress"' in result(page)
        return await review_done(app)

    yields = asyncio.run(run())
    assert yields > 1  # it ran in slices, not one long task
    html = result(page).replace("\u00a0", " ")  # tile names never break across lines
    flags = re.findall(r'<li class="review__flag"[^>]*data-played="([^"]+)" '
                       r'data-better="([^"]+)"', html)
    better = dict(flags).get(str(BAD))
    assert better is not None and Action.parse(better).kind == "discard"  # a tile named
    assert "You: Discard 5 Characters" in html and "Better: Discard" in html
    assert re.search(r"\d+ decisions? cost about \d+ points", html)
    assert not page.errors


def test_the_review_can_be_cancelled_and_started_again():
    page = Page()
    real_clock(page)
    app = make_app(page, "?scenario=baotou&speed=fast")

    async def run() -> None:
        await play_badly(page, app)
        app.router.on_click(event(page.button(data_ui="review")))
        for _ in range(3):
            await asyncio.sleep(0)
        task = app.reviewer.task
        assert task is not None and not task.done()
        app.router.on_click(event(page.button(data_ui="review-cancel")))
        await asyncio.sleep(0)
        assert task.cancelled() and app.reviewer.task is None
        assert 'data-state="cancelled"' in result(page) and "复盘已取消" in result(page)
        app.router.on_click(event(page.button(data_ui="review")))
        await review_done(app)

    asyncio.run(run())
    assert 'data-state="done"' in result(page)
    assert not page.errors


def test_the_replay_viewer_reviews_an_imported_record():
    page = Page()
    real_clock(page)
    app = make_app(page, "?scenario=baotou&speed=fast&lang=en")

    async def run() -> None:
        await play_badly(page, app)
        record = to_record(app.match)
        app.replay.open(record)  # what an imported file does
        viewer = app.replay.viewer
        assert viewer is not None and viewer.step == 0
        app.router.on_click(event(page.button(data_ui="review")))  # the replay bar's
        assert viewer.step == viewer.steps  # at the hand's end, its result shown
        await review_done(app)

    asyncio.run(run())
    assert 'data-played="0 discard 5m"' in result(page)


def test_a_review_of_another_hand_stops():
    page = Page()
    real_clock(page)
    app = make_app(page, "?scenario=baotou&speed=fast")

    async def run() -> None:
        await play_badly(page, app)
        app.router.on_click(event(page.button(data_ui="review")))
        await asyncio.sleep(0)
        task = app.reviewer.task
        assert task is not None
        assert app.reviewer.state_for(("live", 0, 99)).status == "idle"
        await asyncio.sleep(0)
        assert task.cancelled() and app.reviewer.task is None

    asyncio.run(run())


def test_the_markup_in_each_state_has_both_languages():
    for status in ("idle", "running", "cancelled", "failed", "done"):
        shown = ReviewShown(status, total=10, done=4, summary=lambda lang: lang)
        zh, en = review_html(shown, "zh"), review_html(shown, "en")
        assert f'data-state="{status}"' in zh and zh != en
    running = review_html(ReviewShown("running", total=10, done=4), "en")
    assert 'value="4"' in running and 'data-ui="review-cancel"' in running


@settings(max_examples=60, deadline=None)
@given(total=st.integers(0, 10**6), share=st.floats(0, 1), lang=st.sampled_from(["zh", "en"]))
def test_the_progress_bar_stays_in_range(total, share, lang):
    done = int(total * share)
    html = review_html(ReviewShown("running", done=done, total=total), lang)
    value = int(re.search(r'value="(\d+)"', html).group(1))
    top = int(re.search(r'max="(\d+)"', html).group(1))
    percent = int(re.search(r'aria-valuenow="(\d+)"', html).group(1))
    assert 0 <= value <= top and top >= 1 and 0 <= percent <= 100


def test_a_scenario_played_again_shows_no_old_review():
    page = Page()
    real_clock(page)
    app = make_app(page, "?scenario=baotou&speed=fast")

    async def run() -> None:
        await play_badly(page, app)
        app.router.on_click(event(page.button(data_ui="review")))
        await review_done(app)
        assert 'data-state="done"' in result(page)
        app.next_hand()  # a scenario's next hand plays it again: a new match
        await settle(app)
        await play_badly(page, app)
        app.render()

    asyncio.run(run())
    assert 'data-state="idle"' in result(page)


class FakeWorker:
    """``static/boot/review-worker.js`` as far as the page sees it: the same JSON messages,
    the review worked out in this process (review_steps, as the worker's glue does), its
    answers delivered by the event loop. ``start_fails`` makes it fail to come up."""

    start_fails = False
    made: list[FakeWorker] = []
    HEAP = 45_350_912  # the bytes of WebAssembly memory its "done" reports

    def __init__(self, url: str, options: object):
        self.url, self.options = url, options
        self.sent: list[dict] = []
        self.terminated = False
        self.onmessage = self.onerror = None
        FakeWorker.made.append(self)

    @classmethod
    def new(cls, url: str, options: object) -> FakeWorker:
        return cls(url, options)

    def terminate(self) -> None:
        self.terminated = True

    def post(self, message: dict) -> None:
        data = json.dumps(message)
        asyncio.get_event_loop().call_soon(
            lambda: self.onmessage(SimpleNamespace(data=data)) if self.onmessage else None)

    def postMessage(self, text: str) -> None:  # noqa: N802 - the DOM's name
        message = json.loads(text)
        self.sent.append(message)
        if message["type"] != "review":
            return
        # the sources go to a new worker once: it reads them as it starts
        assert (message["sources"] is None) == any(m["type"] == "review" for m in self.sent[:-1])
        assert all(path.startswith("sxmj/") and "/ui/" not in path
                   for path in message["sources"] or ())
        if FakeWorker.start_fails:
            self.post({"type": "failed", "id": message["id"], "stage": "start",
                       "reason": "no wasm here"})
            return
        self.post({"type": "started", "ms": 1})
        steps = list(review_module.review_steps(json.loads(message["record"]), message["seat"],
                                                message["hand"], per_guess=True))
        for done, total, _ in steps[::40]:
            self.post({"type": "progress", "id": message["id"], "done": done, "total": total})
        self.post({"type": "done", "id": message["id"], "review": steps[-1][2].to_wire(),
                   "heap": FakeWorker.HEAP})


def worker_page() -> Page:
    page = Page()
    real_clock(page)
    page.window.Worker = FakeWorker
    page.window.console = SimpleNamespace(warn=lambda *a: page.errors.append(("warn", a)),
                                          error=lambda *a: page.errors.append(("error", a)))
    FakeWorker.made, FakeWorker.start_fails = [], False
    return page


class Proxy:
    """pyscript.ffi.create_proxy's stand-in: calls through, and can be destroyed."""

    def __init__(self, fn):
        self.fn, self.destroyed = fn, False

    def __call__(self, *args):
        assert not self.destroyed
        return self.fn(*args)

    def destroy(self) -> None:
        self.destroyed = True


def worker_app(page: Page, search: str):
    app = make_app(page, search)
    assert app.reviewer.worker is not None  # a page with workers reviews in one
    app.reviewer.worker.create_proxy = Proxy
    return app


def reviewed(page: Page, search: str) -> str:
    app = worker_app(page, search)

    async def run() -> None:
        await play_badly(page, app)
        app.router.on_click(event(page.button(data_ui="review")))
        await review_done(app)

    asyncio.run(run())
    return result(page)


def test_the_review_in_a_worker_finds_what_the_page_finds():
    """The review sent to the worker (the page's own sources, the record, the seat and hand)
    comes back whole: the panel shows the same flags as a review on the main thread."""
    page = Page()
    real_clock(page)
    app = make_app(page, "?scenario=baotou&speed=fast&lang=en")
    assert app.reviewer.worker is None  # no Worker in the fake page: slices

    async def run() -> None:
        await play_badly(page, app)
        app.router.on_click(event(page.button(data_ui="review")))
        await review_done(app)

    asyncio.run(run())
    reviewed_on_the_page = result(page)
    assert 'data-where="page"' in reviewed_on_the_page
    worker = worker_page()
    worker.window.sxmjStats = SimpleNamespace()
    in_worker = reviewed(worker, "?scenario=baotou&speed=fast&lang=en")
    assert 'data-where="worker"' in in_worker and 'data-state="done"' in in_worker
    # the worker's memory, for the browser tests to record
    assert worker.window.sxmjStats.reviewWorkerHeapBytes == FakeWorker.HEAP
    flags = re.compile(r'<li class="review__flag".*?</li>', re.S)
    on_page = flags.findall(reviewed_on_the_page)
    assert on_page and flags.findall(in_worker) == on_page
    (made,) = FakeWorker.made
    assert made.url.endswith("static/boot/review-worker.js") and not made.terminated
    assert not worker.errors


def test_a_worker_that_cannot_start_leaves_the_review_to_the_page():
    page = worker_page()
    FakeWorker.start_fails = True
    html = reviewed(page, "?scenario=baotou&speed=fast&lang=en")
    assert 'data-state="done"' in html and 'data-played="0 discard 5m"' in html
    assert FakeWorker.made[0].terminated
    assert [kind for kind, *_ in page.errors] == ["warn"]  # said on the console, once


def test_cancelling_a_review_in_the_worker_tells_the_worker():
    page = worker_page()
    app = worker_app(page, "?scenario=baotou&speed=fast")

    async def run() -> None:
        await play_badly(page, app)
        app.router.on_click(event(page.button(data_ui="review")))
        await asyncio.sleep(0)
        app.router.on_click(event(page.button(data_ui="review-cancel")))
        await asyncio.sleep(0)
        await asyncio.sleep(0.05)  # the worker's late answers arrive, and are ignored

    asyncio.run(run())
    sent = FakeWorker.made[0].sent
    assert [m["type"] for m in sent] == ["review", "cancel"] and sent[1]["id"] == sent[0]["id"]
    assert 'data-state="cancelled"' in result(page)


def test_the_worker_gets_every_module_the_review_imports(tmp_path):
    """The sources sent to the worker alone are enough to review a record (a fresh
    interpreter with nothing else on its path), and hold no UI module."""
    from sxmj.ui.table.review.worker import package_sources

    sources = package_sources()
    assert "sxmj/bots/review.py" in sources and not any("/ui/" in p for p in sources)
    for path, text in sources.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    code = ("import json, sys; sys.path.insert(0, '.'); "
            "from sxmj.bots.review import review_steps; from sxmj.match "
            "import Match; from sxmj.record import to_record; "
            "steps = list(review_steps(to_record(Match(seed=3)), 0, per_guess=True)); "
            "assert 'sxmj.ui' not in sys.modules; print(json.dumps(steps[-1][2].to_wire()))")
    out = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["decisions"] == 0


def test_an_unused_worker_is_stopped_and_a_new_review_starts_another(monkeypatch):
    from sxmj.ui.table.review import worker as review_worker

    monkeypatch.setattr(review_worker, "IDLE_SECONDS", 0.01)
    page = worker_page()
    app = worker_app(page, "?scenario=baotou&speed=fast&lang=en")

    async def run() -> None:
        await play_badly(page, app)
        for pause in (0, 0.1, 0.1):  # two reviews back to back, then one after a pause
            app.router.on_click(event(page.button(data_ui="review")))
            await review_done(app)
            assert 'data-where="worker"' in result(page)
            await asyncio.sleep(pause)

    asyncio.run(run())
    assert [w.terminated for w in FakeWorker.made] == [True, True]
    assert [m["sources"] is None for m in FakeWorker.made[0].sent] == [False, True]
    assert app.reviewer.worker is not None and app.reviewer.worker.worker is None
