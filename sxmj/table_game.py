"""What the table reads of a game and of a match: :class:`TableGame` and :class:`TableMatch`.

The page draws one table for every way to play. Mostly it holds a real
:class:`~sxmj.match.Match` and its :class:`~sxmj.game.Game`; a friends room's guest holds no
game while a hand is played — no wall, no other hand — only the hand as its seat sees it
(:class:`~sxmj.room.guest.SeenGame` in a :class:`~sxmj.room.guest.SeenMatch`). These two
protocols name what the table (its view, the assist, the controls, the sounds, the end of a
hand and of a match) reads, so that the table can be typed against them and both kinds
are checked to answer it: the type checker proves it in ``tests/test_room_table_game.py``,
and both are :func:`~typing.runtime_checkable`.

Everything is read from seat 0's side: a guest's table numbers the seats from its own.

>>> from sxmj.match import Match
>>> m = Match(seed=1)
>>> isinstance(m, TableMatch), isinstance(m.game, TableGame), isinstance(object(), TableGame)
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .game import Action, HandResult
from .observation import Observation
from .rules import Options


@runtime_checkable
class TableGame(Protocol):
    """The hand on the table, as the table reads it."""

    @property
    def options(self) -> Options:
        """The rules the hand is played by."""

    @property
    def dealer(self) -> int:
        """The dealer's seat."""

    @property
    def caishen(self) -> int:
        """The 财神 tile of the hand."""

    @property
    def phase(self) -> str:
        """Where the hand stands (a :class:`~sxmj.actions.Phase`)."""

    @property
    def over(self) -> bool:
        """The hand has ended (then :attr:`result` says how)."""

    @property
    def result(self) -> HandResult | None:
        """How the hand ended (None while it is played)."""

    @property
    def actions(self) -> Sequence[object]:
        """The actions played so far: the table reads only how many there are (a guest
        knows no more), as the key of the state it shows."""

    @property
    def deal_events(self) -> list[dict[str, Any]]:
        """The events of the deal: the table notes and sounds them once per hand."""

    def to_move(self) -> list[int]:
        """The seats that must decide now."""

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees (the table asks for seat 0's)."""

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (the table asks for seat 0's)."""

    def concealed(self, seat: int) -> list[int]:
        """``seat``'s concealed tiles (another seat's only once the hand is over)."""

    def can_win_now(self, seat: int) -> object | None:
        """Not None when ``seat`` may declare 胡 now (the table asks before a 财神 discard
        passes the win up)."""


@runtime_checkable
class TableMatch(Protocol):
    """The match on the table, as the table reads it."""

    @property
    def game(self) -> TableGame:
        """The hand being played, or the last one."""

    @property
    def options(self) -> Options:
        """The match's rules (``match_hands``: its length as chosen)."""

    @property
    def seed(self) -> int:
        """The seed the match was dealt from (a room's walls are explicit: 0)."""

    @property
    def hand_no(self) -> int:
        """The hand being played, from 0."""

    @property
    def length(self) -> int:
        """How many hands the match has (0: endless)."""

    @property
    def scores(self) -> list[int]:
        """Each seat's running score."""

    @property
    def results(self) -> list[HandResult]:
        """How each finished hand ended."""

    @property
    def finished(self) -> bool:
        """The match's last hand is over."""

    def places(self) -> list[int]:
        """Each seat's place by score (ties share a place)."""


__all__ = ["TableGame", "TableMatch"]
