"""The duplicate tournament of ``python3 -m sxmj tournament`` with bots of the bench's own
making: the same walls and seatings (``tournament_wall``), split over processes.

A bench that measures a variant of a bot builds its seats with ``make_bot(level, seed,
game)``; the factory must be picklable (a module-level function, or a
``functools.partial`` of one), since each process builds its own bots.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sxmj.bots import Policy  # noqa: E402
from sxmj.game import Game  # noqa: E402
from sxmj.simulate import WallResult, summarize, tournament_wall  # noqa: E402

MakeBot = Callable[[str, int, Game], Policy]
T = TypeVar("T")


def spread(work: Callable[[range], list[T]], n: int, jobs: int) -> list[T]:
    """``work`` over ``range(n)``, split over ``jobs`` processes (every ``jobs``-th index to
    one), the parts' results joined; one job runs in this process. ``work`` must be
    picklable: a module-level function, or a ``functools.partial`` of one.

    >>> spread(list, 5, jobs=1)
    [0, 1, 2, 3, 4]
    """
    jobs = max(1, min(jobs, n))
    parts = [range(j, n, jobs) for j in range(jobs)]
    if jobs == 1:
        return work(parts[0])
    with ProcessPoolExecutor(jobs) as pool:
        return [x for part in pool.map(work, parts) for x in part]


def _walls(walls: range, seed: int, seats: list[str], make_bot: MakeBot) -> list[WallResult]:
    return [tournament_wall(h, seed, seats, make_bot=make_bot) for h in walls]


def duel(seats: Sequence[str], make_bot: MakeBot, walls: int, seed: int,
         jobs: int = 2) -> dict[str, dict[str, Any]]:
    """Each level's mean points a hand (95 % interval over walls) and win rate, over
    ``walls`` walls × 4 seatings of tournament ``seed``.

    >>> from sxmj.bots import Bot
    >>> def plain(level, seed, game): return Bot(level, seed=seed)
    >>> sorted(duel(["hard", "easy", "easy", "easy"], plain, walls=1, seed=1, jobs=1))
    ['easy', 'hard']
    """
    if walls < 1:
        raise ValueError(f"a duel needs at least one wall, not {walls}")
    return summarize(spread(partial(_walls, seed=seed, seats=list(seats), make_bot=make_bot),
                            walls, jobs))


def figure(level: dict[str, Any]) -> str:
    """One level's line of a duel: mean points a hand, its 95 % interval, and the win rate.

    >>> figure({"mean": 0.29, "ci95": [0.15, 0.44], "win_rate": 0.254})
    '+0.29 [+0.15, +0.44] points a hand, wins 25.4%'
    """
    lo, hi = level["ci95"]
    return (f"{level['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}] points a hand, "
            f"wins {level['win_rate']:.1%}")
