"""The friends room's wire: versioned JSON messages, and what each seat may see.

One browser (the host) runs the :class:`~sxmj.match.Match`; each guest's browser only
draws. A guest always sits at the bottom of its own table, so everything the host sends
it is *turned* to its point of view: seat ``s`` of the host is seat 0 of that guest, and
every other seat moves with it (:func:`turn_observation`, :func:`turn_events`,
:func:`turn_action`). The engine's rules don't depend on where the deal starts, so a hand
turned this way is the same hand (tests check this on whole hands).

A message is one JSON object with the protocol version ``v`` and a type ``t``. Anything
else — too big, not JSON, another version, an unknown type, a field of the wrong type —
is refused by :func:`parse` with a :class:`ProtocolError`; the receiver drops and logs it,
and never acts on it.

>>> parse('{"v": 1, "t": "act", "hand": 0, "step": 3, "action": "0 discard 5m"}')["t"]
'act'
>>> parse('{"v": 9, "t": "act"}')
Traceback (most recent call last):
...
sxmj.room.protocol.ProtocolError: message: unsupported protocol version 9 (this table speaks 1)
"""

from __future__ import annotations

import base64
import binascii
import json
import unicodedata
import zlib
from dataclasses import replace
from typing import Any

from ..game import Action, Phase
from ..melds import Meld
from ..messages import CoreError
from ..observation import Observation

VERSION = 1
MAX_GUEST_BYTES = 4096  # what a guest may send: a name, an action, a phrase
MAX_HOST_BYTES = 196608  # what the host sends: an observation and events, or a match's record
MAX_RECORD_BYTES = 4 * 1024 * 1024  # a record unpacked: 99 hands of the longest kind fit many times
NAME_CHARS = 16  # a player's name on the plates
PHRASES = ("hello", "nice", "thanks", "hurry", "oops", "gg")  # quick phrases (i18n keys)
EMOJI = ("😄", "😮", "😅", "😂", "😭", "😎")  # one Unicode block: phones and fonts have them

# every field a message of each type may hold, with its JSON type
GUEST_TYPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"secret": str, "name": str, "token": (str, type(None))},
    # a 房号-joiner's hello: the room's number instead of the invite's secret (the lobby only)
    "knock": {"number": str, "name": str, "token": (str, type(None))},
    "sit": {"seat": int, "name": str},
    "act": {"hand": int, "step": int, "action": str},
    "ready": {"hand": int},
    "say": {"phrase": str},
    "ping": {},
    "dissolve": {"vote": str},  # 解散: "yes" (the first one proposes it) or "no"
    "away": {"on": bool},  # 暂离 / 托管: this seat's own browser plays for it (or no longer)
}
HOST_TYPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "lobby": {"room": dict},
    "seated": {"seat": int, "token": str},
    "state": {"state": dict},
    "refused": {"code": str, "action": str},
    "said": {"seat": int, "phrase": str},
    "notice": {"kind": str, "seat": int},
    "closed": {"reason": str},
    "pong": {},
    "vote": {"vote": dict},  # a 解散 vote: who asked, who answered what, how long it waits
    "ended": {"why": str, "record": str},  # the match ended early: its finished hands
    "away": {"on": bool},  # this seat is on 托管 (its time ran out twice): play for it
}


class ProtocolError(CoreError):
    """A message this table will not act on (dropped and logged)."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code, "message", **params)


def parse(text: Any, sender: str = "guest") -> dict[str, Any]:
    """A message from ``sender`` (``"guest"`` or ``"host"``), checked; or ProtocolError."""
    types = GUEST_TYPES if sender == "guest" else HOST_TYPES
    cap = MAX_GUEST_BYTES if sender == "guest" else MAX_HOST_BYTES
    if not isinstance(text, str):
        raise ProtocolError("room.not_text")
    # every character takes a byte at least: a text longer than the cap is refused before
    # anything is encoded (a 100 MB string costs nothing); a shorter one encodes to 4x at most
    if len(text) > cap or len(text.encode("utf-8", "surrogatepass")) > cap:
        raise ProtocolError("room.too_big", size=len(text), cap=cap)
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("room.not_json") from None
    if not isinstance(msg, dict):
        raise ProtocolError("room.not_json")
    if msg.get("v") != VERSION or type(msg.get("v")) is not int:
        raise ProtocolError("room.version", value=msg.get("v"), want=VERSION)
    kind = msg.get("t")
    if not isinstance(kind, str) or kind not in types:
        raise ProtocolError("room.type", value=kind)
    spec = types[kind]
    for name, want in spec.items():
        value = msg.get(name)
        # a missing field is refused like a wrong one (None is a value only when it is sent)
        if name not in msg or not isinstance(value, want) or isinstance(value, bool) and \
                want is int:
            raise ProtocolError("room.field", name=name, type=kind)
    if set(msg) - set(spec) - {"v", "t"}:
        raise ProtocolError("room.extra", type=kind,
                            names=",".join(sorted(set(msg) - set(spec) - {"v", "t"}))[:60])
    return msg


def pack_record(record: dict[str, Any]) -> str:
    """A match's record as a state message carries it: compact JSON, deflated, in base64.
    A record grows with every hand (99 hands of long, drawn hands pass 170 kB as JSON);
    packed, a 99-hand match's takes about 20 kB of one message's 192 KiB.

    >>> unpack_record(pack_record({"hands": [["0 discard 5m"]]}))
    {'hands': [['0 discard 5m']]}
    """
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def unpack_record(packed: Any) -> dict[str, Any]:
    """The record :func:`pack_record` packed; ProtocolError for anything else, including
    one that would unpack past :data:`MAX_RECORD_BYTES` (it is never unpacked further)."""
    if not isinstance(packed, str):
        raise ProtocolError("room.record")
    try:
        data = base64.b64decode(packed.encode("ascii"), validate=True)
        inflate = zlib.decompressobj()
        raw = inflate.decompress(data, MAX_RECORD_BYTES)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ProtocolError("room.record")
        record = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeError, binascii.Error, zlib.error, RecursionError):
        raise ProtocolError("room.record") from None
    if not isinstance(record, dict):
        raise ProtocolError("room.record")
    return record


def message(type_: str, /, **fields: Any) -> str:
    """A message of type ``type_`` as it goes on the wire (compact JSON)."""
    return json.dumps({"v": VERSION, "t": type_, **fields}, ensure_ascii=False,
                      separators=(",", ":"))


# Printable characters that draw no ink (a blank plate, or a name that looks like another):
# Hangul fillers, the braille blank, Mongolian and Khmer vowel separators and inherents, the
# combining grapheme joiner, musical-symbol spacers
NO_INK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f\u2028\u2029"
                   "\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178"
                   "\U0001d179\U0001d17a")
MAX_MARKS = 2  # combining marks kept on one letter (Vietnamese needs two; a stack of 15 is noise)


def clean_name(name: str, fallback: str) -> str:
    """A name as the plates show it: only characters that draw ink (no control, format or
    blank-looking ones; spaces of every kind become one plain space), at most
    :data:`MAX_MARKS` combining marks on a letter, trimmed, at most :data:`NAME_CHARS`; the
    ``fallback`` when nothing visible is left.

    >>> clean_name(chr(0x3164) + chr(0x2800) + " ", "2"), clean_name("Ann \t Li", "2")
    ('2', 'Ann Li')
    >>> len(clean_name("A" + chr(0x301) * 15, "2"))
    3
    """
    out: list[str] = []
    marks = 0
    for c in name:
        category = unicodedata.category(c)
        if c.isspace() or category == "Zs":
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if not c.isprintable() or c in NO_INK or category in ("Cf", "Cc", "Cs", "Co", "Cn"):
            continue
        if category in ("Mn", "Me", "Mc"):
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(c)
    kept = "".join(out).strip()[:NAME_CHARS].strip()
    return kept or fallback


# ------------------------------------------------------------------ turning the table


def turned(seat: int, viewer: int) -> int:
    """Where ``seat`` (the host's numbering) sits at the table of ``viewer`` (at 0 there).

    >>> [turned(s, 2) for s in range(4)]
    [2, 3, 0, 1]
    """
    return (seat - viewer) % 4


def _reindex(values: tuple[Any, ...], viewer: int) -> tuple[Any, ...]:
    return tuple(values[(i + viewer) % 4] for i in range(4))


def _meld(m: Meld, viewer: int) -> Meld:
    return m if m.source is None else replace(m, source=turned(m.source, viewer))


def turn_observation(obs: Observation, viewer: int) -> Observation:
    """``obs`` (a seat's view, in the host's numbering) as the table of ``viewer`` numbers
    the seats. Turning by ``-viewer`` afterwards (``(4 - viewer) % 4``) gives it back."""
    if viewer % 4 == 0:
        return obs
    def seat_of(seat: int) -> int:
        return turned(seat, viewer)

    return replace(
        obs, seat=seat_of(obs.seat), dealer=seat_of(obs.dealer), turn=seat_of(obs.turn),
        to_move=tuple(seat_of(s) for s in obs.to_move),
        hand_counts=_reindex(obs.hand_counts, viewer),
        melds=tuple(tuple(_meld(m, viewer) for m in ms) for ms in _reindex(obs.melds, viewer)),
        flowers=_reindex(obs.flowers, viewer),
        discards=tuple(tuple((tile, None if by is None else seat_of(by)) for tile, by in river)
                       for river in _reindex(obs.discards, viewer)),
        last_discard=None if obs.last_discard is None else (seat_of(obs.last_discard[0]),
                                                            obs.last_discard[1]),
        piao_chain=_reindex(obs.piao_chain, viewer),
        piao_block=tuple(sorted(seat_of(s) for s in obs.piao_block)),
        claims=tuple(_reindex(row, viewer) for row in _reindex(obs.claims, viewer)),
    )


def turn_action(action: Action, viewer: int) -> Action:
    """An action as the table of ``viewer`` numbers its seat."""
    return replace(action, seat=turned(action.seat, viewer))


SEAT_KEYS = ("seat", "dealer", "source")


def private(obs: Observation) -> Observation:
    """``obs`` without what only the host knows of the other seats: who else may claim a
    discard or rob a kong says that they hold a pair of it, or wait on it. A guest learns
    only whether it is asked itself (the table then waits for "the others")."""
    if obs.phase == Phase.TURN:
        return obs
    return replace(obs, to_move=tuple(s for s in obs.to_move if s == obs.seat))


def turn_events(events: list[dict[str, Any]], viewer: int) -> list[dict[str, Any]]:
    """The events ``viewer`` may see, numbered for its table: another seat's draw loses its
    tile (it went into a concealed hand), a claim window names only ``viewer`` if it is
    asked (the others it asks hold a pair of the tile), everything else is open at a real
    table."""
    out = []
    for e in events:
        e = dict(e)
        if e.get("type") == "draw" and e.get("seat") != viewer:
            e.pop("tile", None)
        if e.get("type") == "claim_window" and isinstance(e.get("seats"), list):
            e["seats"] = [s for s in e["seats"] if s == viewer]
        for key in SEAT_KEYS:
            if isinstance(e.get(key), int):
                e[key] = turned(e[key], viewer)
        if isinstance(e.get("robbed"), int):
            e["robbed"] = turned(e["robbed"], viewer)
        if isinstance(e.get("seats"), list):
            e["seats"] = [turned(s, viewer) for s in e["seats"]]
        if isinstance(e.get("payments"), list) and len(e["payments"]) == 4:
            e["payments"] = list(_reindex(tuple(e["payments"]), viewer))
        out.append({k: (str(v) if k == "type" else v) for k, v in e.items()})
    return out


def turn_scores(scores: list[int], viewer: int) -> list[int]:
    """Four per-seat numbers (scores, payments) in the order of ``viewer``'s table."""
    return list(_reindex(tuple(scores), viewer))


__all__ = ["EMOJI", "MAX_GUEST_BYTES", "MAX_HOST_BYTES", "MAX_RECORD_BYTES", "PHRASES", "VERSION",
           "ProtocolError", "clean_name", "message", "pack_record", "parse", "private",
           "turn_action", "turn_events", "turn_observation", "turn_scores", "turned",
           "unpack_record"]
