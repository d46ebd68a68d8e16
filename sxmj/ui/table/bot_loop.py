"""The bots' loop at the table: who sits at seats 1–3 (bots of a level, or a lesson's
script) and the task that makes them move until the player must decide or the hand ends.

Bots move from an asyncio task that sleeps between moves (a ``setTimeout`` under Pyodide),
so clicks and keys are handled between them. Each bot chooses from its own observation only;
in a lesson the other seats play its script instead.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sxmj.actions import Phase
from sxmj.bots import Bot, ExpertStrategy, Policy, ScriptedBot
from sxmj.game import Action, Game
from sxmj.table_game import TableGame
from sxmj.ui.params import SPEEDS
from sxmj.ui.table.dom import Clock
from sxmj.ui.table.scenario.mode import ScenarioMode

# a bot's thinking time at each speed (slow, normal, fast), seconds
DELAYS = dict(zip(SPEEDS, (1.1, 0.6, 0.0), strict=True))
SEARCH_BUDGET_MS = 600.0  # the expert's search stops here in the page (a guess or two more
# under Pyodide's ~2x slower Python than CPython's fixed count would take)
CLAIM_PAUSE = 0.5  # share of the delay a claim stays on screen before the claimer moves


@dataclass(eq=False)
class BotDriver:
    """Lets the bots (seats 1–3) move until the player must decide or the hand ends.

    Given the live game (``game``, asked afresh: a new match replaces it), ``apply`` for a
    chosen action, ``render``, the pace (``speed``), ``fail`` for an error, the clock, and
    ``pause`` (awaited when a hand is over: True if it paused, to show the end on the table
    before the result, :class:`sxmj.ui.table.result.reveal.Ending`). ``thinking`` is the seat shown
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
        return self.for_person(game, level)

    @staticmethod
    def for_person(game: TableGame, level: str) -> Action:
        """A ``level`` bot's move for this table's own person (seat 0): their turn timer ran
        out, or they are on 托管 (a guest's table has only what its seat sees, which is all a
        bot reads)."""
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
