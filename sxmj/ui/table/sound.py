"""What the table sounds like: which cues a batch of engine events means for the player.

Pure (no browser): :func:`plan` turns the events one action caused (``sxmj.game.Event``)
into the cues to fire, given the player's :class:`SoundSettings`, whether the page is hidden
and whether the table has just started waiting for the player. The synthesis (Web Audio,
the Web Speech API, ``navigator.vibrate``, ``document.title``) is ``static/js/sound.js``,
which owns ``window.sxmjAudio``; :class:`sxmj.ui.table.dom.Speaker` hands it a :class:`Plan`.

The cues (``window.sxmjAudio.log`` keeps one ``{"cue": name, "t": ms}`` per cue fired):

- ``draw``, ``discard``, ``claim`` (吃, 碰), ``kong`` (暗杠, 加杠, 明杠), ``flower``, ``win``
  (bigger for more 番), ``drawn-hand`` (臭庄) — what any seat does;
- ``speech:<word>`` — the calls spoken: ``chi``, ``peng``, ``gang``, ``hu``, ``buhua``,
  ``piao`` (a 财神 thrown), each word once per batch, before the sound of its tiles;
- ``turn`` — a soft chime when the table starts waiting for the player (their turn, or a
  claim offered) after the deal or a bot's move, never after the player's own move;
- ``tick`` — a turn timer's tick (:func:`tick_plan`): in a friends room, each of the last five
  seconds a person has for a decision;
- ``first-win`` — a short fanfare for the player's first win ever (:func:`celebration_plan`),
  after the win's own sound.

Muted (sound off), nothing is planned, so nothing is logged; with speech off no
``speech:`` cue. While the page is hidden only the turn cue fires: its chime, a vibration and
the title 「轮到你了」 / "Your turn" until the page is visible again (the vibration and the
title are the turn cues' setting, sound on or off).

>>> events = [{"type": "discard", "seat": 1, "tile": 4, "piao": False},
...           {"type": "claim_window", "seats": [0], "tile": 4}]
>>> p = plan(events, SoundSettings(), lang="en", hidden=False, prompted=True)
>>> p.names()
['discard', 'turn']
>>> plan(events, SoundSettings(on=False), lang="en", hidden=False, prompted=True).names()
[]
>>> plan(events, SoundSettings(), lang="en", hidden=True, prompted=True).title
'Your turn'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sxmj.game import Event
from sxmj.table_game import TableGame
from sxmj.ui.i18n import tr

CUES = ("draw", "discard", "claim", "kong", "flower", "win", "drawn-hand", "tick", "turn",
        "first-win")
WORDS = ("chi", "peng", "gang", "hu", "buhua", "piao")  # spoken as speech:<word>
VOICE_LANG = {"zh": "zh-CN", "en": "en"}  # the voice each table language asks for
VOLUMES = tuple(range(10, 101, 10))  # percent
DEFAULT_VOLUME = 70


@dataclass(frozen=True)
class SoundSettings:
    """The sound settings: ``on`` (off = muted: no effect, speech or chime), ``volume``
    (percent, one of :data:`VOLUMES`), ``speech`` (the calls spoken), ``cues`` (the turn
    cues: chime, vibration, the hidden page's title) and ``notify`` (in a friends room, a
    system notification when it is your turn and the page is hidden; off until asked for)."""

    on: bool = True
    volume: int = DEFAULT_VOLUME
    speech: bool = True
    cues: bool = True
    notify: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"on": self.on, "volume": self.volume, "speech": self.speech, "cues": self.cues,
                "notify": self.notify}

    @staticmethod
    def from_dict(data: object) -> tuple[SoundSettings, list[str]]:
        """The settings from stored data, and the names of the fields that were bad (each
        falls back to its default on its own; nothing stored is no fault).

        >>> SoundSettings.from_dict({"on": False, "volume": 30})
        (SoundSettings(on=False, volume=30, speech=True, cues=True, notify=False), [])
        >>> SoundSettings.from_dict({"volume": 1000, "speech": "yes"})[1]
        ['sound.volume', 'sound.speech']
        """
        if data is None:
            return SoundSettings(), []
        if not isinstance(data, dict):
            return SoundSettings(), ["sound"]
        default = SoundSettings()
        bad: list[str] = []
        values = {}
        for name in ("on", "volume", "speech", "cues", "notify"):
            value = data.get(name, getattr(default, name))
            if not (is_volume(value) if name == "volume" else isinstance(value, bool)):
                bad.append(f"sound.{name}")
                value = getattr(default, name)
            values[name] = value
        return SoundSettings(**values), bad


def is_volume(value: object) -> bool:
    """One of the volumes offered (a whole percent from :data:`VOLUMES`)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in VOLUMES


@dataclass(frozen=True)
class Cue:
    """One cue: its ``name`` (the log's), the ``word`` spoken (speech cues, in the table's
    language) with its voice's ``lang``, and a win's ``fan``."""

    name: str
    word: str = ""
    lang: str = ""
    fan: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cue": self.name}
        if self.word:
            out["word"], out["lang"] = self.word, self.lang
        if self.name == "win":
            out["fan"] = self.fan
        return out


@dataclass(frozen=True)
class Plan:
    """What to fire for one batch: the ``cues`` (in order), the ``title`` of a hidden page
    (None: unchanged) and whether to ``vibrate``."""

    cues: tuple[Cue, ...] = ()
    title: str | None = None
    vibrate: bool = False

    def names(self) -> list[str]:
        """The names the log will get, in order."""
        return [c.name for c in self.cues]

    @property
    def empty(self) -> bool:
        return not self.cues and self.title is None and not self.vibrate

    def to_json(self) -> str:
        """The plan for ``window.sxmjAudio.play`` (one string: one crossing)."""
        return json.dumps({"cues": [c.to_dict() for c in self.cues], "title": self.title,
                           "vibrate": self.vibrate}, ensure_ascii=False, separators=(",", ":"))


def tick_plan(settings: SoundSettings, hidden: bool) -> Plan:
    """One tick of a running-out turn timer (heard only: nothing while hidden or muted).

    >>> tick_plan(SoundSettings(), hidden=False).names(), tick_plan(SoundSettings(), True).names()
    (['tick'], [])
    """
    return Plan((Cue("tick"),)) if settings.on and not hidden else Plan()


def celebration_plan(settings: SoundSettings, hidden: bool) -> Plan:
    """The first win's fanfare (heard only: nothing while hidden or muted).

    >>> celebration_plan(SoundSettings(), False).names(), celebration_plan(SoundSettings(), True)
    (['first-win'], Plan(cues=(), title=None, vibrate=False))
    """
    return Plan((Cue("first-win"),)) if settings.on and not hidden else Plan()


def waits_for_player(game: TableGame, people: frozenset[int] = frozenset({0})) -> bool:
    """The table waits for the player and for nobody but ``people`` (the seats of people:
    in a friends room the others decide at their own tables meanwhile), as
    ``body[data-sxmj-waiting="you"]`` says."""
    moving = game.to_move()
    return not game.over and 0 in moving and all(s in people for s in moving)


def event_cues(events: Iterable[Mapping[str, Any]]) -> list[tuple[str, str, int]]:
    """The sounds and calls of a batch, in order: ``(cue, word, fan)``, ``word`` set for
    the calls (each at most once in a batch), ``fan`` for a win.

    >>> event_cues([{"type": "flower", "seat": 2, "tile": 31},
    ...             {"type": "draw", "seat": 2, "tile": 32, "source": "tail"},
    ...             {"type": "flower", "seat": 2, "tile": 32},
    ...             {"type": "draw", "seat": 2, "tile": 5, "source": "tail"}])[:3]
    [('speech', 'buhua', 0), ('flower', '', 0), ('draw', '', 0)]
    """
    out: list[tuple[str, str, int]] = []
    said: set[str] = set()

    def say(word: str) -> None:
        if word not in said:
            said.add(word)
            out.append(("speech", word, 0))

    for e in events:
        kind = e.get("type")
        if kind == Event.DRAW:
            out.append(("draw", "", 0))
        elif kind == Event.DISCARD:
            if e.get("piao"):
                say("piao")
            out.append(("discard", "", 0))
        elif kind == Event.FLOWER:
            say("buhua")
            out.append(("flower", "", 0))
        elif kind == Event.CLAIM:
            if e.get("kind") == "minggang":
                say("gang")
                out.append(("kong", "", 0))
            else:
                say(str(e.get("kind")))  # chi or peng
                out.append(("claim", "", 0))
        elif kind == Event.JIAGANG_DECLARED:
            say("gang")  # said as it is declared; its sound comes when it stands (KONG)
        elif kind == Event.KONG:
            if e.get("kind") == "angang":
                say("gang")
            out.append(("kong", "", 0))
        elif kind == Event.HU:
            say("hu")
            fan = e.get("fan", 0)
            out.append(("win", "", fan if isinstance(fan, int) else 0))
        elif kind == Event.EXHAUSTED:
            out.append(("drawn-hand", "", 0))
    return out


def plan(events: Iterable[Mapping[str, Any]], settings: SoundSettings, *, lang: str,
         hidden: bool, prompted: bool) -> Plan:
    """The cues of one batch of events for the player.

    ``prompted``: the table has just started waiting for the player (their turn or a claim
    offered), after the deal or someone else's move — see :func:`starts_waiting`.
    """
    cues: list[Cue] = []
    if settings.on and not hidden:
        for name, word, fan in event_cues(events):
            if name == "speech":
                if settings.speech:
                    cues.append(Cue(f"speech:{word}", tr(lang, "speak_" + word),
                                    VOICE_LANG.get(lang, "zh-CN")))
            else:
                cues.append(Cue(name, fan=fan))
    turn = prompted and settings.cues
    if turn and settings.on:
        cues.append(Cue("turn"))
    title = tr(lang, "turn_title") if turn and hidden else None
    return Plan(tuple(cues), title, turn)


def starts_waiting(waited_before: bool, game_after: TableGame,
                   people: frozenset[int] = frozenset({0})) -> bool:
    """The table started waiting for the player with this batch (it did not before)."""
    return waits_for_player(game_after, people) and not waited_before
