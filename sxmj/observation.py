"""What one seat may see of a hand: a frozen, typed value that travels as JSON.

:meth:`sxmj.game.Game.observation` builds it; bots, the assist, the table view
and the friends room read it, and never the game itself, so nothing can peek
at another seat's concealed tiles or the wall. ``to_json`` / ``from_json``
round-trip exactly (the friends room sends this value to each guest).

Besides what lies open on the table it carries the public win context of the
seat to move: how its last tile arrived (``arrival``), the 杠开 chain that led
to it (``chain``) and whether it has just claimed (``after_claim``) — everyone
at a real table sees the kongs and flowers, so no bot has to remember them.

>>> from sxmj.match import Match
>>> obs = Match(seed=5).game.observation(0)
>>> Observation.from_json(obs.to_json()) == obs
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .actions import Phase
from .melds import Meld
from .messages import CoreError
from .rules import Options
from .scoring import WinContext
from .tiles import NUM_KINDS, NUM_PLAYING

_new = object.__new__
_setattr = object.__setattr__

PHASES = tuple(p.value for p in Phase)
ARRIVALS = ("", "deal", "draw", "kong", "flower", "claim")


@dataclass(frozen=True)
class Observation:
    """One seat's view. Seats are 0–3; tiles are indices (see :mod:`sxmj.tiles`)."""

    seat: int
    dealer: int
    phase: Phase                    # one of PHASES
    turn: int                       # the seat whose turn it is (or was, in a claim window)
    to_move: tuple[int, ...]        # seats that have a decision to make now
    caishen: int
    indicator: int
    dice: tuple[int, int]
    wall: int                       # tiles left to draw
    hand: tuple[int, ...]           # this seat's concealed tiles, 财神 first
    hand_counts: tuple[int, ...]    # concealed tiles per seat
    melds: tuple[tuple[Meld, ...], ...]
    flowers: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[tuple[int, int | None], ...], ...]  # (tile, claimed by) per seat
    last_discard: tuple[int, int] | None  # (seat, tile) open to claims
    last_tile: int | None           # the tile this seat received last, on its own turn
    piao_chain: tuple[int, ...]
    piao_block: tuple[int, ...]     # seats whose 飘 round blocks the others' claims
    claims: tuple[tuple[int, ...], ...]  # claims[a][b]: times a claimed b's discards
    rob_tile: int | None            # the tile of a 加杠 open to robbing
    options: Options
    arrival: str                    # how the turn seat's last tile came (ARRIVALS)
    chain: int                      # its 杠开 chain (kongs, and flowers by option)
    after_claim: bool               # it has just chi'd or peng'd: it must discard
    first_turn: bool                # a 天胡/地胡 is still possible for it

    @classmethod
    def build(cls, values: dict[str, Any]) -> Observation:
        """The engine's constructor: the same value as ``Observation(**values)``, made
        without the frozen dataclass's per-field ``__setattr__`` or a keyword-argument
        copy (bots ask for an observation on every decision). ``values`` becomes the
        instance's own attributes, so the caller must not keep it."""
        obs = _new(cls)
        _setattr(obs, "__dict__", values)
        return obs

    # ------------------------------------------------------------ derived views

    @property
    def playing_hand(self) -> list[int]:
        """The hand without dealt flowers still waiting to be laid open."""
        return [t for t in self.hand if t < NUM_PLAYING]

    @property
    def my_melds(self) -> tuple[Meld, ...]:
        return self.melds[self.seat]

    @property
    def sets_needed(self) -> int:
        """Sets the concealed hand must still make (four minus the melds)."""
        return 4 - len(self.melds[self.seat])

    def visible_counts(self) -> list[int]:
        """Copies of each tile this seat can see: its hand, melds, rivers, flowers, indicator."""
        seen = [0] * NUM_KINDS
        for t in self.hand:
            seen[t] += 1
        for melds in self.melds:
            for m in melds:
                for t in m.tiles:
                    seen[t] += 1
        for river in self.discards:
            for t, by in river:
                if by is None:  # a claimed discard is counted in the claimer's meld
                    seen[t] += 1
        for flowers in self.flowers:
            for t in flowers:
                seen[t] += 1
        seen[self.indicator] += 1
        return seen

    def unseen(self) -> list[int]:
        """Copies of each tile this seat can't see (in the wall or in other hands)."""
        seen = self.visible_counts()
        return [max(0, (1 if t >= 34 else 4) - seen[t]) for t in range(NUM_KINDS)]

    def win_context(self, hand: list[int], win_tile: int, win_by: str | None = None,
                    chain: int | None = None, piao: int | None = None) -> WinContext:
        """The evaluator's input for this seat winning with ``hand`` on ``win_tile``;
        by default as the tile arrived now (``arrival``, ``chain``)."""
        if win_by is None:
            win_by = self.arrival if self.arrival in ("kong", "flower") else "draw"
            chain = self.chain if chain is None else chain
        seat = self.seat
        return WinContext.at_table(hand, win_tile, self.caishen, self.melds[seat],
                                   self.flowers[seat], win_by=win_by, chain=chain or 0,
                                   piao=self.piao_chain[seat] if piao is None else piao,
                                   first_turn=self.first_turn, dealer=seat == self.dealer)

    # ------------------------------------------------------------ the wire

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (ints, lists, strings); :meth:`from_json` gives back an equal value."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "melds":
                value = [[_meld_json(m) for m in ms] for ms in value]
            elif f.name == "options":
                value = value.to_dict()
            out[f.name] = _lists(value)
        return out

    @staticmethod
    def from_json(data: Any) -> Observation:
        """The inverse of :meth:`to_json`; malformed data raises CoreError naming the field."""
        if not isinstance(data, dict):
            raise CoreError("input.object", "observation", value=data)
        names = [f.name for f in fields(Observation)]
        missing = [n for n in names if n not in data]
        if missing:
            raise CoreError("field.required", f"observation.{missing[0]}")
        try:
            values = {n: data[n] for n in names}
            values["melds"] = tuple(tuple(_meld_of(m) for m in ms) for ms in data["melds"])
            values["options"] = Options.from_dict(data["options"])
            for n in ("to_move", "hand", "hand_counts", "piao_chain", "piao_block", "dice"):
                values[n] = tuple(_int(x, n) for x in data[n])
            values["flowers"] = tuple(tuple(_int(x, "flowers") for x in f) for f in data["flowers"])
            values["claims"] = tuple(tuple(_int(x, "claims") for x in r) for r in data["claims"])
            values["discards"] = tuple(tuple((_int(t, "discards"), _opt_int(by, "discards"))
                                             for t, by in river) for river in data["discards"])
            ld = data["last_discard"]
            values["last_discard"] = None if ld is None else (_int(ld[0], "last_discard"),
                                                              _int(ld[1], "last_discard"))
            for n in ("seat", "dealer", "turn", "caishen", "indicator", "wall", "chain"):
                values[n] = _int(data[n], n)
            for n in ("last_tile", "rob_tile"):
                values[n] = _opt_int(data[n], n)
            for n in ("after_claim", "first_turn"):
                if not isinstance(data[n], bool):
                    raise CoreError("field.bool", f"observation.{n}", value=data[n])
        except (TypeError, ValueError, IndexError, KeyError) as e:
            if isinstance(e, CoreError):
                raise
            raise CoreError("input.object", "observation", value=str(e)) from None
        if data["phase"] not in PHASES:
            raise CoreError("field.choice", "observation.phase", value=data["phase"],
                            known=PHASES)
        values["phase"] = Phase(data["phase"])
        if data["arrival"] not in ARRIVALS:
            raise CoreError("field.choice", "observation.arrival", value=data["arrival"],
                            known=ARRIVALS)
        return Observation(**values)


class Observed:
    """Reads the dealer and the 财神 of a seat's observation ``obs``, for what holds one
    in a game's place: a guest's game (:class:`sxmj.room.guest.SeenGame`) and the
    table's state (:class:`sxmj.ui.state.TableState`)."""

    obs: Observation

    @property
    def dealer(self) -> int:
        return self.obs.dealer

    @property
    def caishen(self) -> int:
        return self.obs.caishen


def _meld_json(m: Meld) -> dict[str, Any]:
    return {"kind": m.kind, "tiles": list(m.tiles), "source": m.source, "claimed": m.claimed}


def _meld_of(data: Any) -> Meld:
    if not isinstance(data, dict):
        raise CoreError("meld.text", "observation.melds", value=data)
    return Meld(str(data["kind"]), tuple(_int(t, "melds") for t in data["tiles"]),
                _opt_int(data["source"], "melds"), _opt_int(data["claimed"], "melds"))


def _int(value: Any, name: str) -> int:
    if type(value) is not int:
        raise CoreError("field.count", f"observation.{name}", value=value)
    return value


def _opt_int(value: Any, name: str) -> int | None:
    return None if value is None else _int(value, name)


def _lists(value: Any) -> Any:
    """Tuples as lists, all the way down (JSON has no tuples)."""
    if isinstance(value, (tuple, list)):
        return [_lists(v) for v in value]
    return value
