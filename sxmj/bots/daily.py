"""The daily challenge's players (每日挑战): three hard bots, the par, a shared match replayed.

The deal is the core's (:mod:`sxmj.daily`); here are those who sit at it. Seats 1–3 are
``hard`` bots seeded as the page seats them (``seed * 4 + seat``); hard never draws on chance,
so they answer the same moves the same way everywhere. The bots move first whenever they and
the player must both decide (a claim): that is the page's order too, and the claim is settled
only once every seat has answered, so the order changes nothing.

The **par** is what the ``expert`` makes at seat 0 on the same walls against the same bots:
its sampling is fixed by the seed and it is never cut by time here, so the CLI and the page
find the same par (the page runs :func:`par_steps` a guess at a time).

>>> from sxmj import daily
>>> m = replay("2026-11-29", daily.encode_moves([]))
>>> m.seed == daily.seed_of("2026-11-29"), len(m.results), m.length
(True, 0, 4)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import daily
from ..game import Action, Game
from ..match import Match
from ..tiles import code
from ..wall import Rng, Wall
from . import Bot
from .base import Strategy
from .expert import ExpertStrategy

LEVEL = "hard"  # seats 1-3
PAR_LEVEL = "expert"  # seat 0, for the par


def bots(seed: int) -> list[Strategy | None]:
    """Seats 1–3's bots for the day of ``seed`` (seat 0 is the player's: None)."""
    return [None] + [Bot(LEVEL, seed * 4 + s) for s in (1, 2, 3)]


def next_seat(game: Game) -> int:
    """Who moves next: a bot before the player when both must decide."""
    waiting = game.to_move()
    others = [s for s in waiting if s != 0]
    return others[0] if others else waiting[0]


def play(day: str, choose: Callable[[Game], Action | None],
         match: Match | None = None) -> Match:
    """Play the day's match (or go on with ``match``): seat 0 plays ``choose(game)``, until
    the match is finished or ``choose`` returns None (the match as it stands then)."""
    match = match or daily.new_match(day)
    seats = bots(match.seed)
    while not match.finished:
        game = match.game
        if game.over:
            match.next_hand()
            continue
        seat = next_seat(game)
        if seat == 0:
            action = choose(game)
            if action is None:
                break
        else:
            bot = seats[seat]
            assert bot is not None
            action = bot.choose(game.observation(seat), game.legal_actions(seat)).action
        match.apply(action)
    return match


def replay(day: str, moves: str) -> Match:
    """The day's match with seat 0's moves from the code ``moves``
    (:func:`sxmj.daily.encode_moves`): as far as they go, or :class:`~sxmj.daily.DailyError`
    if one of them is not legal where it falls, or some are left over at the match's end."""
    indices = daily.decode_moves(moves)
    at = [0]

    def choose(game: Game) -> Action | None:
        if at[0] >= len(indices):
            return None
        legal = game.legal_actions(0)
        i = indices[at[0]]
        if i >= len(legal):
            raise daily.DailyError("daily.illegal", "moves", index=at[0] + 1)
        at[0] += 1
        return legal[i]

    match = play(day, choose)
    if at[0] < len(indices):
        raise daily.DailyError("daily.illegal", "moves", index=at[0] + 1)
    return match


def move_index(game: Game, action: Action) -> int:
    """``action``'s index among seat 0's legal actions now (what a moves code holds)."""
    return game.legal_actions(0).index(action)


@dataclass
class Par:
    """The expert's result on the day's walls: its ``total`` and each hand's points."""

    day: str
    total: int
    hands: list[int] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day, "total": self.total, "hands": list(self.hands),
                "marks": list(self.marks)}


def par_steps(day: str) -> Iterator[Par | None]:
    """The expert plays the day at seat 0: ``None`` after each guess it plays out (a page
    yields to its event loop there), the :class:`Par` last."""
    match = daily.new_match(day)
    seats = bots(match.seed)
    expert = ExpertStrategy(match.seed * 4)
    while not match.finished:
        game = match.game
        if game.over:
            match.next_hand()
            continue
        seat = next_seat(game)
        if seat == 0:
            choice = None
            for step in expert.think(game.observation(0), game.legal_actions(0)):
                if step is None:
                    yield None
                else:
                    choice = step
            assert choice is not None
            action = choice.action
        else:
            bot = seats[seat]
            assert bot is not None
            action = bot.choose(game.observation(seat), game.legal_actions(seat)).action
        match.apply(action)
    yield Par(day, match.scores[0], [r.payments[0] for r in match.results],
              [daily.hand_mark(r) for r in match.results])


def par(day: str) -> Par:
    """The day's par (see :func:`par_steps`)."""
    last = deque(par_steps(day), maxlen=1)[0]
    assert last is not None
    return last


def walls(day: str, first: int = 4) -> list[dict[str, Any]]:
    """Each hand's wall of the day: its first ``first`` tiles in drawing order and its 财神
    (what anyone can check against the page)."""
    rng = Rng(daily.seed_of(day))
    out = []
    for n in range(daily.HANDS):
        wall = Wall.shuffled(rng.fork(n + 1))
        out.append({"hand": n + 1, "first": [code(t) for t in wall.tiles[:first]],
                    "caishen": code(wall.caishen)})
    return out
