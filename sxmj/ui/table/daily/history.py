"""The daily challenge's history on this device (``localStorage["sxmj.daily"]``), pure.

A day's result is **counted** once: the first play of today's daily that is begun (the
player's first move) is the day's; replaying a past day, or today's again, is practice and
is marked so. A reload in the middle of a counted play goes on counting
(``localStorage["sxmj.daily.live"]`` keeps the day, the moves so far and whether it counts),
so a restart can't be used to try the day again.

Stored data that can't be read resets this history once, with a notice, and touches nothing
else (the settings, the profile and the saved match have keys of their own).

>>> h = History()
>>> h.begin("2026-11-29", today="2026-11-29"), h.begin("2026-11-29", today="2026-11-29")
(True, False)
>>> h.finish("2026-11-29", 12, ["won", "lost", "drawn", "lost"], counted=True)
>>> h.streak("2026-11-29"), h.streak("2026-11-30"), h.streak("2026-12-01")
(1, 1, 0)
>>> load_history(h.to_json())[0] == h
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sxmj.daily import MARKS, DailyError, add_days, decode_moves, parse_day
from sxmj.ui.table.storage.saved import Problem, stored_object

KEY_HISTORY = "sxmj.daily"
KEY_LIVE = "sxmj.daily.live"
VERSION = 1
MAX_DAYS = 5000  # more than ten years of days: a longer history is not this game's


@dataclass
class DayResult:
    """A counted day: the player's ``score``, the ``par`` once known, each hand's mark."""

    score: int
    marks: list[str]
    par: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "marks": list(self.marks), "par": self.par}


@dataclass
class History:
    """The days counted, the days begun (a counted play in progress or done), the pars
    worked out (so a reload need not work them out again) and the practice plays."""

    days: dict[str, DayResult] = field(default_factory=dict)
    begun: set[str] = field(default_factory=set)
    pars: dict[str, int] = field(default_factory=dict)
    practice: int = 0

    def counts(self, day: str, today: str) -> bool:
        """Would a play of ``day`` begun now count?"""
        return day == today and day not in self.begun and day not in self.days

    def begin(self, day: str, today: str) -> bool:
        """The player's first move in a play of ``day``: True when this play counts."""
        if not self.counts(day, today):
            return False
        self.begun.add(day)
        return True

    def finish(self, day: str, score: int, marks: list[str], counted: bool) -> None:
        """A play of ``day`` ended with ``score``: kept when it ``counted``, else practice."""
        if counted:
            self.days[day] = DayResult(score, list(marks), self.pars.get(day))
        else:
            self.practice += 1

    def set_par(self, day: str, par: int) -> None:
        """The par of ``day`` is known (beside its counted result, if any)."""
        self.pars[day] = par
        if day in self.days:
            self.days[day].par = par

    def streak(self, today: str) -> int:
        """Counted days in a row, ending today (or yesterday, while today is still open)."""
        day = today if today in self.days else add_days(today, -1)
        n = 0
        while day in self.days:
            n += 1
            day = add_days(day, -1)
        return n

    def best(self) -> tuple[str, DayResult] | None:
        """The counted day with the highest score (the latest of equals), or None."""
        if not self.days:
            return None
        return max(self.days.items(), key=lambda kv: (kv[1].score, kv[0]))

    def to_json(self) -> str:
        return json.dumps({"v": VERSION,
                           "days": {d: r.to_json() for d, r in sorted(self.days.items())},
                           "begun": sorted(self.begun), "pars": dict(sorted(self.pars.items())),
                           "practice": self.practice}, separators=(",", ":"))


def _whole(value: Any, name: str, signed: bool = True) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not signed):
        raise ValueError(f"{name} must be a whole number")
    if abs(value) > 10**9:
        raise ValueError(f"{name} is out of range")
    return value


def _day(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a day must be text")
    try:
        return parse_day(value)
    except DailyError as e:
        raise ValueError(str(e)) from None


def load_history(text: str | None) -> tuple[History, Problem | None]:
    """The history from stored text; unreadable → an empty one and the problem."""
    data, problem = stored_object(text, "daily")
    if data is None:
        return History(), problem
    if data.get("v") != VERSION:
        return History(), Problem("daily", "old", f"version {data.get('v')!r}")
    try:
        days, pars, begun = data.get("days"), data.get("pars", {}), data.get("begun", [])
        if not isinstance(days, dict) or not isinstance(pars, dict) \
                or not isinstance(begun, list):
            raise ValueError("days, pars and begun must be an object, an object and a list")
        if max(len(days), len(pars), len(begun)) > MAX_DAYS:
            raise ValueError("too many days")
        h = History(practice=_whole(data.get("practice", 0), "practice", signed=False))
        for day, r in days.items():
            if not isinstance(r, dict):
                raise ValueError(f"day {day!r} must be an object")
            marks = r.get("marks")
            if not (isinstance(marks, list) and len(marks) <= 64
                    and all(m in MARKS for m in marks)):
                raise ValueError(f"day {day!r}: marks must be {', '.join(MARKS)}")
            par = r.get("par")
            h.days[_day(day)] = DayResult(_whole(r.get("score"), "score"), list(marks),
                                          None if par is None else _whole(par, "par"))
        h.pars = {_day(d): _whole(p, "par") for d, p in pars.items()}
        h.begun = {_day(d) for d in begun}
    except ValueError as e:
        return History(), Problem("daily", "invalid", str(e)[:120])
    return h, None


@dataclass(frozen=True)
class Live:
    """A daily in progress: its ``day``, seat 0's ``moves`` (a moves code) and whether the
    play ``counted``."""

    day: str
    moves: str
    counted: bool

    def to_json(self) -> str:
        return json.dumps({"v": VERSION, "day": self.day, "moves": self.moves,
                           "counted": self.counted}, separators=(",", ":"))


def load_live(text: str | None) -> tuple[Live | None, Problem | None]:
    """The daily in progress from stored text (None when there is none or it is bad)."""
    data, problem = stored_object(text, "daily")
    if data is None:
        return None, problem
    try:
        if data.get("v") != VERSION:
            raise ValueError(f"version {data.get('v')!r}")
        moves, counted = data.get("moves"), data.get("counted")
        if not isinstance(moves, str) or not isinstance(counted, bool):
            raise ValueError("moves must be text and counted true or false")
        decode_moves(moves)
        return Live(_day(data.get("day")), moves, counted), None
    except (ValueError, DailyError) as e:
        return None, Problem("daily", "invalid", str(e)[:120])
