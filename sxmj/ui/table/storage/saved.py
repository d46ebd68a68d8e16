"""What the game page keeps in ``localStorage``: settings, the profile and the saved match.

Pure: the controller (:mod:`sxmj.ui.table.app`) reads and writes the three strings; this module
turns them into values and back, and says in words what is wrong with a bad one. Nothing
here ever raises on bad stored data: a reader returns a value and, when the stored text was
unusable, a :class:`Problem` (shown to the player as a notice; never a Python error).

Keys and formats (each value is JSON):

``sxmj.settings`` ::

    {"v": 1, "lang": "zh", "speed": "normal", "anim": "normal", "assist": true,
     "bots": ["normal", "normal", "normal"],
     "rules": {"base_flowers": 5, "flower_is_kong": true, ...},   # sxmj.rules.Options
     "sound": {"on": true, "volume": 70, "speech": true, "cues": true},  # sxmj.ui.table.sound
     "tap": "auto"}   # sxmj.ui.table.inputs.touch: auto, one or two

``sxmj.profile`` ::

    {"v": 2, "points": 2400, "net": -40, "hands": 12, "wins": 3,
     "best": {"gain": 96, "fan": 2, "patterns": ["baotou", "gangkai"], "share": 32,
              "seed": 7, "hand": 3},
     "matches": 1, "places": [0, 1, 0, 0]}

``points`` are the rank points of RULES §11 (:mod:`sxmj.ranks`): 20 for each point the player
has won (a lost hand takes none away) and each finished match's place points (1st 2,000 … 4th
400), so progress shows from the first match (a version 1 profile counted one per point won:
it is read with its points × 20); ``net`` is the plain running
total; ``matches`` the finished matches and ``places`` how often each place was reached
(a profile without them has none).

``sxmj.save`` — the match being played, as a game record (:mod:`sxmj.record`) ::

    {"format": "sxmj-save", "version": 1, "record": {...sxmj-record...},
     "counted": 2, "check": "<16 hex digits>"}

``counted`` is how many finished hands of the match the profile already holds (so a reload
never counts a hand twice); ``check`` is a hash of ``record`` and ``counted``: a save edited by
hand no longer matches it and is refused, like a corrupt one or one written by another version.

>>> from sxmj.match import Match
>>> text = save_text(Match(seed=7), counted=0)
>>> loaded = load_save(text)
>>> loaded.match.seed, loaded.problem
(7, None)
>>> load_save("{oops").problem.kind
'corrupt'
>>> load_profile("[" * 100_000)[1].kind  # nested past the parser's depth: still just corrupt
'corrupt'

An unusable value is reset by its reader's caller once
(:mod:`sxmj.ui.table.storage.persistence`), so its notice shows once.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from sxmj.bots import LEVELS
from sxmj.match import Match
from sxmj.ranks import PLACE_POINTS, RANK_POINTS_PER_POINT, Rank, hand_points, rank_of
from sxmj.record import RecordError, replay, to_record
from sxmj.room.ice import PRESETS as ICE_PRESETS
from sxmj.room.ice import ice_list_ok, turn_secret_ok
from sxmj.rules import Options, RuleError
from sxmj.ui.i18n import LANGS
from sxmj.ui.params import SPEEDS, is_broker
from sxmj.ui.table.sound import SoundSettings

KEY_SETTINGS = "sxmj.settings"
KEY_PROFILE = "sxmj.profile"
KEY_SAVE = "sxmj.save"
SAVE_FORMAT = "sxmj-save"
SAVE_VERSION = 1
SETTINGS_VERSION = 1
PROFILE_VERSION = 2
ANIMS = ("normal", "quick", "off")
# discarding by tap (sxmj.ui.table.inputs.touch): auto is two on touch
TAPS = ("auto", "one", "two")


@dataclass(frozen=True)
class Problem:
    """Why stored data was not used: ``kind`` is ``corrupt``, ``old``, ``edited`` or
    ``invalid``; ``detail`` is one line (English, from the checks) for the curious."""

    what: str  # "save", "profile" or "settings"
    kind: str
    detail: str = ""


MAX_DEPTH = 64  # what is kept nests 7 deep; the parser must never get near the stack's end
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")


def too_deep(text: str) -> bool:
    """True when ``text``'s brackets (outside strings) nest deeper than :data:`MAX_DEPTH` or do
    not pair up: no JSON we wrote. Checked before parsing, without recursion: under Pyodide a
    deeply nested value overflows the WebAssembly stack inside the parser, a fatal error no
    ``except`` catches.

    >>> too_deep('{"a": [[1], "[[["]}'), too_deep("[" * 100 + "]" * 100), too_deep("[" * 9)
    (False, True, True)
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(MAX_DEPTH):
        if not brackets:
            return False
        brackets, removed = _EMPTY_PAIR.subn("", brackets)  # the innermost pairs
        if not removed:
            break
    return bool(brackets)


def _json(text: str) -> tuple[Any, str]:
    """The JSON value of ``text``, or (None, why not): bad JSON, digits past int()'s limit
    and nesting past :data:`MAX_DEPTH` alike."""
    if too_deep(text):
        return None, f"not JSON: brackets unpaired or nested deeper than {MAX_DEPTH}"
    try:
        return json.loads(text), ""
    except (ValueError, RecursionError) as e:
        return None, f"not JSON: {str(e)[:120]}"


def stored_object(text: str | None, what: str) -> tuple[dict | None, Problem | None]:
    """The JSON object stored as ``text`` (``what``: settings, profile, save or room), or None
    and why it is not one (no problem when nothing is stored). Too deep a value is refused
    before it is parsed: under Pyodide it would overflow the stack (see :func:`too_deep`)."""
    if text is None or text == "":
        return None, None
    data, why = _json(text)
    if why:
        return None, Problem(what, "corrupt", why)
    if not isinstance(data, dict):
        return None, Problem(what, "corrupt", "not a JSON object")
    return data, None


# ------------------------------------------------------------------ settings


@dataclass(frozen=True)
class Settings:
    """The player's choices. Rule options apply from the next match on."""

    lang: str = "zh"
    speed: str = "normal"
    anim: str = "normal"
    assist: bool = True
    bots: tuple[str, str, str] = ("normal", "normal", "normal")
    rules: Options = field(default_factory=Options)
    sound: SoundSettings = SoundSettings()
    tap: str = "auto"
    broker: str = ""  # a self-hosted PeerServer for the rooms this player hosts ("": PeerJS's)
    # the rooms this player hosts: the ICE preset (sxmj.room.ice.PRESETS), a custom list of
    # STUN and TURN servers (JSON, as RTCConfiguration.iceServers; "" none), and a coturn
    # static-auth-secret that mints each room's TURN logins ("" none: the list's own). The
    # secret stays here, on this device: only logins minted from it travel.
    ice: str = "default"
    ice_servers: str = ""
    turn_secret: str = ""

    def to_json(self) -> str:
        return json.dumps({"v": SETTINGS_VERSION, "lang": self.lang, "speed": self.speed,
                           "anim": self.anim, "assist": self.assist, "bots": list(self.bots),
                           "rules": self.rules.to_dict(), "sound": self.sound.to_dict(),
                           "tap": self.tap, "broker": self.broker, "ice": self.ice,
                           "ice_servers": self.ice_servers, "turn_secret": self.turn_secret},
                          separators=(",", ":"))

    def with_level(self, level: str) -> Settings:
        return replace(self, bots=(level, level, level))


def load_settings(text: str | None) -> tuple[Settings, Problem | None]:
    """Settings from stored text; a bad field falls back to its default on its own."""
    data, problem = stored_object(text, "settings")
    if data is None:
        return Settings(), problem
    bad: list[str] = []

    def pick(name: str, allowed: tuple, default):
        value = data.get(name, default)
        if value not in allowed:
            bad.append(name)
            return default
        return value

    lang = pick("lang", LANGS, "zh")
    speed = pick("speed", SPEEDS, "normal")
    anim = pick("anim", ANIMS, "normal")
    assist = data.get("assist", True)
    if not isinstance(assist, bool):
        bad.append("assist")
        assist = True
    bots = data.get("bots", ["normal"] * 3)
    if not (isinstance(bots, list) and len(bots) == 3 and all(b in LEVELS for b in bots)):
        bad.append("bots")
        bots = ["normal"] * 3
    try:
        rules = Options.from_dict(data.get("rules"), field="rules")
    except RuleError as e:
        bad.append(str(e))
        rules = Options()
    sound, bad_sound = SoundSettings.from_dict(data.get("sound"))
    bad += bad_sound
    tap = pick("tap", TAPS, "auto")
    broker = data.get("broker", "")
    if not (broker == "" or isinstance(broker, str) and is_broker(broker)):
        bad.append("broker")
        broker = ""
    ice = pick("ice", ICE_PRESETS, "default")
    servers = data.get("ice_servers", "")
    if not (servers == "" or isinstance(servers, str) and ice_list_ok(servers)):
        bad.append("ice_servers")
        servers = ""
    secret = data.get("turn_secret", "")
    if not (secret == "" or isinstance(secret, str) and turn_secret_ok(secret)):
        bad.append("turn_secret")
        secret = ""
    settings = Settings(lang, speed, anim, assist, (bots[0], bots[1], bots[2]), rules, sound,
                        tap, broker, ice, servers, secret)
    problem = Problem("settings", "invalid", "; ".join(bad)) if bad else None
    return settings, problem


# ------------------------------------------------------------------ profile


@dataclass
class Profile:
    """Cumulative points, the rank they give, and a few stats."""

    points: int = 0
    net: int = 0
    hands: int = 0
    wins: int = 0
    best: dict[str, Any] | None = None
    matches: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def rank(self) -> Rank:
        return rank_of(self.points)

    def add_hand(self, match: Match, index: int) -> None:
        """Count finished hand ``index`` of ``match`` (the player is seat 0)."""
        result = match.results[index]
        gain = result.payments[0]
        self.hands += 1
        self.net += gain
        self.points += hand_points(gain)  # rank points move with what is won
        if result.winner == 0:
            self.wins += 1
            ev = result.evaluation
            if ev is not None and (self.best is None or gain > self.best.get("gain", 0)):
                self.best = {"gain": gain, "fan": ev.fan, "patterns": list(ev.patterns),
                             "share": ev.share, "seed": match.seed, "hand": index + 1}

    def add_match(self, match: Match) -> None:
        """Count the finished ``match``: one more, the player's place in it, and that
        place's rank points (:data:`sxmj.ranks.PLACE_POINTS`)."""
        place = match.places()[0]
        self.matches += 1
        self.places[place - 1] += 1
        self.points += PLACE_POINTS[place - 1]

    def to_json(self) -> str:
        return json.dumps({"v": PROFILE_VERSION, "points": self.points, "net": self.net,
                           "hands": self.hands, "wins": self.wins, "best": self.best,
                           "matches": self.matches, "places": self.places},
                          separators=(",", ":"), ensure_ascii=False)


def _count(data: dict, name: str, signed: bool = False) -> int:
    value = data.get(name, 0)
    if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not signed):
        raise ValueError(f"{name} must be a whole number{'' if signed else ' ≥ 0'}")
    return value


def load_profile(text: str | None) -> tuple[Profile, Problem | None]:
    """The profile from stored text; unreadable → a fresh profile and the problem."""
    data, problem = stored_object(text, "profile")
    if data is None:
        return Profile(), problem
    if data.get("v") not in (1, PROFILE_VERSION):
        return Profile(), Problem("profile", "old", f"version {data.get('v')!r}")
    try:
        profile = Profile(_count(data, "points"), _count(data, "net", signed=True),
                          _count(data, "hands"), _count(data, "wins"))
        if data["v"] == 1:  # counted one rank point per point won: the same progress now
            profile.points *= RANK_POINTS_PER_POINT
        if profile.wins > profile.hands:
            raise ValueError("more wins than hands")
        profile.matches = _count(data, "matches")
        places = data.get("places", [0, 0, 0, 0])
        if not (isinstance(places, list) and len(places) == 4 and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in places)):
            raise ValueError("places must be four whole numbers ≥ 0")
        if sum(places) != profile.matches:
            raise ValueError("places do not add up to the matches")
        profile.places = list(places)
        best = data.get("best")
        if best is not None:
            if not isinstance(best, dict):
                raise ValueError("best must be an object")
            for name in ("gain", "fan", "share", "seed", "hand"):
                if name not in best:  # the profile panel shows each of them
                    raise ValueError(f"best.{name} missing")
                _count(best, name)
            patterns = best.get("patterns", [])
            if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
                raise ValueError("best.patterns must be a list of names")
            profile.best = best
    except ValueError as e:
        return Profile(), Problem("profile", "invalid", str(e))
    return profile, None


# ------------------------------------------------------------------ the saved match


def _check(record: dict, counted: int) -> str:
    body = json.dumps({"record": record, "counted": counted}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def save_text(match: Match, counted: int) -> str:
    """The saved form of ``match`` (see the module docstring)."""
    record = to_record(match)
    return json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION, "record": record,
                       "counted": counted, "check": _check(record, counted)},
                      separators=(",", ":"), ensure_ascii=False)


@dataclass
class Loaded:
    match: Match | None
    counted: int = 0
    problem: Problem | None = None


def load_save(text: str | None) -> Loaded:
    """The saved match, replayed to exactly where it was; never raises on bad data."""
    data, problem = stored_object(text, "save")
    if data is None:
        return Loaded(None, 0, problem)
    if data.get("format") != SAVE_FORMAT:
        kind = "old" if "hands" in data or "record" in data else "corrupt"
        return Loaded(None, 0, Problem("save", kind, f"format {data.get('format')!r}"))
    if data.get("version") != SAVE_VERSION:
        return Loaded(None, 0, Problem("save", "old", f"version {data.get('version')!r} "
                                                      f"(this build reads {SAVE_VERSION})"))
    record, counted = data.get("record"), data.get("counted")
    if not isinstance(record, dict) or not isinstance(counted, int) \
            or isinstance(counted, bool) or counted < 0:
        return Loaded(None, 0, Problem("save", "corrupt", "record or counted missing"))
    try:
        expected = _check(record, counted)
    except (TypeError, ValueError, RecursionError) as e:
        return Loaded(None, 0, Problem("save", "corrupt", str(e)))
    if data.get("check") != expected:
        return Loaded(None, 0, Problem("save", "edited", "the check does not match"))
    try:
        match = replay(record)
    except RecordError as e:
        return Loaded(None, 0, Problem("save", "invalid", str(e)))
    except Exception as e:  # noqa: BLE001 - a save must never stop the page
        return Loaded(None, 0, Problem("save", "invalid", f"{type(e).__name__}: {e}"))
    if counted > len(match.results):
        return Loaded(None, 0, Problem("save", "invalid", "counted more hands than played"))
    return Loaded(match, counted)


def read_record(text: str) -> tuple[dict | None, str]:
    """An imported record file: (the record, "") or (None, what is wrong in one line).

    Accepts a bare ``sxmj-record`` or a save (its ``record`` is taken)."""
    data, why = _json(text)
    if why:
        return None, why
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        data = data.get("record")
    if not isinstance(data, dict):
        return None, "not a game record (a JSON object with format sxmj-record)"
    try:
        replay(data)
    except RecordError as e:
        return None, str(e)
    except Exception as e:  # noqa: BLE001 - a bad file must never stop the page
        return None, f"{type(e).__name__}: {e}"
    return data, ""


def steps_of(record: dict) -> int:
    """How many actions a (valid) record holds, over all its hands."""
    return sum(len(h) for h in record.get("hands", []))
