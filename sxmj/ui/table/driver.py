"""The bots' side of the table: who they are, the loop that makes them move, and the
assist's adviser.

The hand review (复盘) is started here too: :class:`Reviewer` sends a finished hand to the
review's Web Worker (:mod:`sxmj.ui.table.review_worker`, a second Pyodide), and where the
page has none or it can't start, steps the expert through the hand on the page in short
tasks.

Bots move from an asyncio task that sleeps between moves (a ``setTimeout`` under Pyodide),
so clicks and keys are handled between them. Each bot chooses from its own observation only;
in a scenario the other seats play the script instead. This is the one place that calls the
bots (:class:`sxmj.bots.Bot`).
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sxmj.actions import Phase
from sxmj.bots import Bot, ExpertStrategy, Policy, ScriptedBot
from sxmj.bots import daily as daily_players
from sxmj.bots.review import Review, review_steps
from sxmj.game import Action, Game
from sxmj.match import Match
from sxmj.table_game import TableGame
from sxmj.ui.params import SPEEDS
from sxmj.ui.table.assist import AssistInfo, assist_info
from sxmj.ui.table.dom import Clock, is_none
from sxmj.ui.table.review_worker import ReviewWorker, WorkerFailed, has_worker
from sxmj.ui.table.reviewing import ReviewShown, review_html, shown_flag
from sxmj.ui.table.scenario_mode import ScenarioMode

# a bot's thinking time at each speed (slow, normal, fast), seconds
DELAYS = dict(zip(SPEEDS, (1.1, 0.6, 0.0), strict=True))
SEARCH_BUDGET_MS = 600.0  # the expert's search stops here in the page (a guess or two more
# under Pyodide's ~2x slower Python than CPython's fixed count would take)
CLAIM_PAUSE = 0.5  # share of the delay a claim stays on screen before the claimer moves
REVIEW_SLICE_MS = 4.0  # the review's steps run back to back this long, then yield (one
# step, one move of the judged seat in a playout, is a median 1.3 ms and at most about 23 ms
# in CPython, about 1.7 × that in Pyodide)
REVIEW_PAINT_MS = 120.0  # the progress bar moves at most this often
ASSIST_LEVEL = "hard"  # the bot whose choice on the player's own observation is suggested
PAR_SLICE_MS = 6.0  # the daily's par: its steps run back to back this long, then yield
DAILY_LEVEL = daily_players.LEVEL  # the daily's bots (seats 1-3)
next_seat = daily_players.next_seat  # who moves next in a daily: a bot before the player
move_index = daily_players.move_index  # a move of seat 0 as a daily's moves code holds it


def daily_replay(day: str, moves: str) -> Match:
    """A daily's match with seat 0's ``moves`` (a moves code), its bots answering."""
    return daily_players.replay(day, moves)


@dataclass(eq=False)
class BotDriver:
    """Lets the bots (seats 1–3) move until the player must decide or the hand ends.

    Given the live game (``game``, asked afresh: a new match replaces it), ``apply`` for a
    chosen action, ``render``, the pace (``speed``), ``fail`` for an error, the clock, and
    ``pause`` (awaited when a hand is over: True if it paused, to show the end on the table
    before the result, :class:`sxmj.ui.table.reveal.Ending`). ``thinking`` is the seat shown
    thinking.
    """

    game: Callable[[], Game]
    apply: Callable[[Action], None]
    render: Callable[[], None]
    speed: Callable[[], str]
    fail: Callable[[str], None]
    clock: Clock
    pause: Callable[[], Awaitable[bool]] | None = None

    def __post_init__(self) -> None:
        self.held: Callable[[], bool] = lambda: False  # a dialog is open: the table waits
        self.humans: Callable[[], set[int]] = lambda: {0}  # seats people play (a room's)
        self.bots: list[Policy | None] = [None, None, None, None]
        self.script: ScenarioMode | None = None
        self.thinking: int | None = None
        self.longest_step = 0.0  # ms: the longest task of the last choice
        self.task: asyncio.Future | None = None
        self.gen = 0

    def seat_bots(self, levels: tuple[str, str, str], seed: int) -> None:
        """Bots of these levels at seats 1, 2, 3 (each seeded from the match's seed)."""
        self.script = None
        self.bots = [None] + [Bot(levels[s - 1], seed * 4 + s) for s in (1, 2, 3)]

    def play_script(self, mode: ScenarioMode) -> None:
        """A scenario: the other seats are its scripted bots (the same protocol)."""
        self.script = mode
        done = [str(a) for a in self.game().actions]
        self.bots = [None] + [ScriptedBot(mode.scenario.script, s, done) for s in (1, 2, 3)]

    def choose(self, game: Game, seat: int) -> Action:
        """What the bot at ``seat`` plays now, from its own observation."""
        bot = self.bots[seat]
        assert bot is not None  # seat 0 is the player's
        return bot.choose(game.observation(seat), game.legal_actions(seat)).action

    def stand_in(self, game: Game, seat: int, level: str) -> Action:
        """The move of a person at ``seat`` whose turn timer ran out (a friends room): the
        seat's bot's choice, or at seat 0 (the host's own, no bot) a ``level`` bot's."""
        if seat:
            return self.choose(game, seat)
        return Bot(level).choose(game.observation(0), game.legal_actions(0)).action

    async def choose_async(self, game: Game, seat: int) -> Action:
        """:meth:`choose`, but a searching bot (the expert) thinks one guess per task,
        yielding to the page between guesses, and stops at ``SEARCH_BUDGET_MS``."""
        bot = self.bots[seat]
        start = self.clock.now()
        if not isinstance(bot, ExpertStrategy):
            action = self.choose(game, seat)
            self.longest_step = self.clock.now() - start
            return action
        self.longest_step = 0.0
        step_start = start
        for step in bot.think(game.observation(seat), game.legal_actions(seat)):
            now = self.clock.now()
            self.longest_step = max(self.longest_step, now - step_start)
            if step is not None:
                return step.action
            if now - start > SEARCH_BUDGET_MS:
                return bot.settle().action
            await asyncio.sleep(0)  # one guess is one short task: clicks get in between
            step_start = self.clock.now()
        raise AssertionError("think() ended without a choice")

    def kick(self) -> None:
        """Let the bots move (in a task) unless they already are."""
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.ensure_future(self.drive(self.gen))

    def stop(self) -> None:
        """Stop the bots' task: whatever it was about to do is dropped."""
        self.gen += 1
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    async def drive(self, gen: int) -> None:
        """The bots' loop, until the player decides, the hand ends or ``stop`` is called."""
        try:
            await self._drive(gen)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - shown to the player and logged for the tests
            self.fail(traceback.format_exc())

    async def _drive(self, gen: int) -> None:
        while gen == self.gen:
            if self.held():
                return  # kicked again when the dialog closes
            game = self.game()
            if game.over:
                if self.pause is not None and await self.pause():
                    continue  # the end was shown: look again (a hand may have been dealt)
                self.render()
                return
            humans = self.humans()
            bots = [s for s in game.to_move() if s not in humans]
            if not bots:
                self.render()  # the player's decision: wait for a click
                return
            seat = bots[0]
            delay = DELAYS[self.speed()]
            if game.phase == Phase.TURN and self.thinking != seat:
                self.thinking = seat  # the bot "thinks" visibly: a timer, not work
                self.render()
                await asyncio.sleep(delay)
                continue
            # Choosing and drawing run as two tasks, so input is handled in between.
            t0 = self.clock.now()
            action = await self.choose_async(game, seat)
            t1 = t0 + self.longest_step  # what held the main thread, not the awaits between
            await asyncio.sleep(0)
            if gen != self.gen or self.game() is not game \
                    or action not in game.legal_actions(seat):
                continue  # the player acted meanwhile: look again
            t2 = self.clock.now()
            self.thinking = None
            self.apply(action)
            self.render()
            t3 = self.clock.now()
            self.clock.record("bot", t0, t1 - t0, t3 - t2)
            claimed = action.kind not in ("pass", "discard")
            await asyncio.sleep(delay * CLAIM_PAUSE if claimed else 0)


class Adviser:
    """The assist for the live game: what the hard bot would do from the player's own
    observation (in a scenario, the coach's suggestion), worked out once per state."""

    def __init__(self, clock: Clock):
        self.clock = clock
        self.bot = Bot(ASSIST_LEVEL)
        self.key: tuple | None = None
        self.info: AssistInfo | None = None

    def advise(self, game: TableGame, lang: str, coached: bool = False,
               suggest: Action | None = None) -> AssistInfo | None:
        """The assist for ``game`` now; ``coached``: a lesson's coach suggests (``suggest``),
        and the assist only reads the hand."""
        key = (id(game), len(game.actions), lang, coached)
        if key != self.key:
            t0 = self.clock.now()
            self.info = assist_info(game, None if coached else self.bot, lang, suggest)
            self.key = key
            self.clock.record("assist", t0, self.clock.now() - t0)
        return self.info


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


class ParRunner:
    """The day's par in the page: the expert's match on the same walls, played in slices of
    :data:`PAR_SLICE_MS` between the page's own tasks. ``done(par)`` when it is known."""

    def __init__(self, clock: Clock, done: Callable[[int], None],
                 fail: Callable[[str], None]):
        self.clock = clock
        self.done = done
        self.fail = fail
        self.task: asyncio.Future | None = None
        self.longest_step = 0.0

    def start(self, day: str) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run(day))

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    async def _run(self, day: str) -> None:
        try:
            slice_start = self.clock.now()
            for step in daily_players.par_steps(day):
                if step is not None:
                    self.done(step.total)
                    return
                now = self.clock.now()
                if now - slice_start >= PAR_SLICE_MS:
                    self.longest_step = max(self.longest_step, now - slice_start)
                    self.clock.record("par", slice_start, now - slice_start)
                    await asyncio.sleep(0)
                    slice_start = self.clock.now()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - shown to the player and logged for the tests
            self.fail(traceback.format_exc())
