"""The daily's bots and its par in the page: who plays seats 1–3 of a daily, how its moves
code replays, and :class:`ParRunner`, the day's par worked out between the page's tasks.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable

from sxmj.bots import daily as daily_players
from sxmj.match import Match
from sxmj.ui.table.dom import Clock

PAR_SLICE_MS = 6.0  # the daily's par: its steps run back to back this long, then yield
DAILY_LEVEL = daily_players.LEVEL  # the daily's bots (seats 1-3)
next_seat = daily_players.next_seat  # who moves next in a daily: a bot before the player
move_index = daily_players.move_index  # a move of seat 0 as a daily's moves code holds it


def daily_replay(day: str, moves: str) -> Match:
    """A daily's match with seat 0's ``moves`` (a moves code), its bots answering."""
    return daily_players.replay(day, moves)


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
