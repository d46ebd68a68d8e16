"""What players do and what happens: :class:`Action` (a decision, printed like
``0 discard 5m``) and :class:`Event` (the ``type`` of each event ``Game.apply`` returns).

>>> Action.parse("1 chi 345m")
Action(seat=1, kind='chi', tile=None, tiles=(2, 3, 4))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .messages import CoreError
from .tiles import NUM_PLAYING, code, format_tiles, parse_tiles

ACTION_KINDS = ("discard", "chi", "peng", "minggang", "angang", "jiagang", "hu", "pass")
OWN_KONGS = ("angang", "jiagang")  # the kongs a player declares on its own turn


class Event(StrEnum):
    """The ``type`` of each event ``apply`` returns (a str: it compares and serialises
    as its value)."""

    DEAL = "deal"
    TURN = "turn"
    DRAW = "draw"
    FLOWER = "flower"
    EXHAUSTED = "exhausted"
    KONG = "kong"
    DISCARD = "discard"
    CLAIM_WINDOW = "claim_window"
    CLAIM = "claim"
    JIAGANG_DECLARED = "jiagang_declared"
    HU = "hu"


class Phase(StrEnum):
    """Where a hand stands (``Game.phase``, ``Observation.phase``; a str, like Event)."""

    DEAL = "deal"    # being dealt: nobody has moved yet
    TURN = "turn"    # a seat draws (or has drawn) and must discard, kong or win
    CLAIM = "claim"  # a discard waits for the seats that may 吃, 碰 or 杠 it
    ROB = "rob"      # a 加杠 waits for the seats that may rob it (抢杠)
    OVER = "over"    # won or drawn out


# the phases by name, for the engine's hot comparisons (a module global is read faster
# than an enum's attribute)
DEAL, TURN, CLAIM, ROB, OVER = Phase


@dataclass(frozen=True, order=True)
class Action:
    """A decision by one seat, printed like ``0 discard 5m`` or ``1 chi 345m``.

    ``tile`` is the discarded, claimed or konged tile; a chi also carries the
    chow it forms in ``tiles``.
    """

    seat: int
    kind: str
    tile: int | None = None
    tiles: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.kind == "chi":
            return f"{self.seat} chi {format_tiles(self.tiles)}"
        if self.tile is None:
            return f"{self.seat} {self.kind}"
        return f"{self.seat} {self.kind} {code(self.tile)}"

    @staticmethod
    def parse(text: str) -> Action:
        """The inverse of ``str(action)``; raises CoreError (a ValueError) on malformed text."""
        parts = text.split() if isinstance(text, str) and len(text) <= 40 else []
        shown = text[:40] if isinstance(text, str) else repr(text)[:40]
        if len(parts) not in (2, 3) or parts[0] not in ("0", "1", "2", "3") \
                or parts[1] not in ACTION_KINDS:
            raise CoreError("action.text", "action", text=shown)
        seat, kind = int(parts[0]), parts[1]
        if kind in ("hu", "pass"):
            if len(parts) != 2:
                raise CoreError("action.no_tile", "action", kind=kind, text=shown)
            return Action(seat, kind)
        if len(parts) != 3:
            raise CoreError("action.needs_tile", "action", kind=kind, text=shown)
        tiles = parse_tiles(parts[2])
        if kind == "chi":
            if len(tiles) != 3:
                raise CoreError("action.chi_tiles", "action", text=shown)
            return Action(seat, kind, None, tuple(sorted(tiles)))
        if len(tiles) != 1:
            raise CoreError("action.one_tile", "action", kind=kind, text=shown)
        return Action(seat, kind, tiles[0])


# Actions are immutable, so the common ones are made once: building a frozen
# dataclass costs about a microsecond, and the engine offers thousands per hand.
_DISCARDS = [[Action(seat, "discard", t) for t in range(42)] for seat in range(4)]
_PENG = [[Action(seat, "peng", t) for t in range(42)] for seat in range(4)]
_MINGGANG = [[Action(seat, "minggang", t) for t in range(42)] for seat in range(4)]
_CHI = [{b: Action(seat, "chi", None, (b, b + 1, b + 2)) for b in range(27) if b % 9 <= 6}
        for seat in range(4)]  # _CHI[seat][lowest tile of the chow]
_PASS = [Action(seat, "pass") for seat in range(4)]
_ALL_TILES = range(42)
_PLAYING = range(NUM_PLAYING)
_RUNS = [[[t] * n for n in range(5)] for t in range(42)]  # _RUNS[t][n]: n copies of t


__all__ = ["ACTION_KINDS", "OWN_KONGS", "Action", "Event", "Phase"]
