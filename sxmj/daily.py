"""The daily challenge (每日挑战): the same deal for everyone on a calendar day.

A day is an ISO date (``YYYY-MM-DD``), a day of the Asia/Shanghai calendar. Its seed is the
first 53 bits of ``SHA-256("sxmj-daily-v1:" + day)`` (53 bits: a seed survives a trip through
JavaScript's numbers), and the day's match is an ordinary :class:`~sxmj.match.Match` of
:data:`HANDS` hands from that seed, with the default rules whatever the player's settings:
hand ``n`` is dealt from ``Rng(seed).fork(n + 1)``, the same walls for everyone. The other
seats are hard bots, which never draw on chance, so two players who make the same moves see
the same answers and the same score: a duplicate game. (The bots and the par, the expert's
total on the same walls, are in :mod:`sxmj.bots.daily`: the core never imports the bots.)

A finished daily is shared as the player's own moves, nothing else: each decision of seat 0
is the index of the action chosen among ``legal_actions(0)``, one base64url character each
(:func:`encode_moves`), enough to replay the whole match.

The core reads no clock: the page passes the time (:func:`shanghai_day`).

>>> seed_of("2026-11-29") == seed_of("2026-11-29") != seed_of("2026-11-30")
True
>>> shanghai_day(1_764_432_000_000)  # 2025-11-29 16:00 UTC is already the 30th in Shanghai
'2025-11-30'
>>> decode_moves(encode_moves([0, 5, 63, 12]))
[0, 5, 63, 12]
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import re
from dataclasses import replace

from .game import HandResult
from .match import Match
from .messages import CoreError
from .rules import Options

PREFIX = "sxmj-daily-v1:"  # changing it deals every day anew (and breaks shared links)
HANDS = 4
SEED_BITS = 53
SHANGHAI_OFFSET_MS = 8 * 3_600_000  # UTC+8 all year (China has kept no summer time since 1991)
FIRST_DAY = "2020-01-01"  # the calendar starts here: older days are refused
DAY_PATTERN = re.compile(r"\d{4}-\d{2}-\d{2}")
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"  # base64url
CODE_VERSION = "1"  # the first character of a moves code
MAX_MOVES = 4000  # far beyond any four hands: a longer code is refused before it is read
MARKS = ("won", "big", "drawn", "lost")  # a hand as the share text shows it


class DailyError(CoreError):
    """A day or a moves code that can't be used (``daily.date``, ``daily.early``,
    ``daily.moves``)."""


def parse_day(text: str) -> str:
    """``text`` as a day (its ISO form), or :class:`DailyError` naming what is wrong.

    >>> parse_day(" 2026-11-29 ")
    '2026-11-29'
    >>> parse_day("2026-02-30")
    Traceback (most recent call last):
    ...
    sxmj.daily.DailyError: daily: not a day of the calendar: '2026-02-30' (a date is YYYY-MM-DD)
    """
    day = str(text).strip()
    if not DAY_PATTERN.fullmatch(day):
        raise DailyError("daily.date", "daily", value=day[:40])
    try:
        _dt.date.fromisoformat(day)
    except ValueError:
        raise DailyError("daily.date", "daily", value=day) from None
    if day < FIRST_DAY:
        raise DailyError("daily.early", "daily", value=day, first=FIRST_DAY)
    return day


def seed_of(day: str) -> int:
    """The day's seed: the first :data:`SEED_BITS` bits of SHA-256 of the prefix and the day.

    >>> seed_of("2026-11-29")
    527003208696120
    """
    digest = hashlib.sha256((PREFIX + parse_day(day)).encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def shanghai_day(epoch_ms: float) -> str:
    """The Asia/Shanghai calendar day at ``epoch_ms`` (milliseconds since 1970, UTC)."""
    moment = _dt.datetime(1970, 1, 1) + _dt.timedelta(milliseconds=epoch_ms
                                                       + SHANGHAI_OFFSET_MS)
    return moment.date().isoformat()


def add_days(day: str, n: int) -> str:
    """The day ``n`` days after ``day`` (before it when ``n`` is negative)."""
    return (_dt.date.fromisoformat(day) + _dt.timedelta(days=n)).isoformat()


def options() -> Options:
    """The daily's rules: the default rules, :data:`HANDS` hands (the same for everyone)."""
    return replace(Options(), match_hands=HANDS)


def new_match(day: str) -> Match:
    """The day's match, nothing played yet."""
    return Match(seed=seed_of(day), options=options())


def encode_moves(indices: list[int]) -> str:
    """Seat 0's choices (each an index into its legal actions) as a short code."""
    if any(not 0 <= i < len(ALPHABET) for i in indices):
        raise ValueError("a move index out of 0-63")  # no position offers 64 actions
    return CODE_VERSION + "".join(ALPHABET[i] for i in indices)


def decode_moves(code: str) -> list[int]:
    """The indices of :func:`encode_moves`, or :class:`DailyError` (``daily.moves``)."""
    text = str(code).strip()
    if not text.startswith(CODE_VERSION) or len(text) > MAX_MOVES + 1:
        raise DailyError("daily.moves", "moves", value=text[:40])
    bad = [c for c in text[1:] if c not in ALPHABET]
    if bad:
        raise DailyError("daily.moves", "moves", value=text[:40])
    return [ALPHABET.index(c) for c in text[1:]]


def hand_mark(result: HandResult, seat: int = 0) -> str:
    """How a hand went for ``seat``: ``big`` (a win with a 番: 暴头, 飘, 杠开 …), ``won``,
    ``drawn`` (臭庄) or ``lost``."""
    if result.winner is None:
        return "drawn"
    if result.winner == seat:
        return "big" if result.patterns else "won"
    return "lost"
