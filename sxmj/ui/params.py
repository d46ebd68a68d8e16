"""URL parameters of the page (part of the testing contract, see README).

``?seed=N`` deals a reproducible match, ``?lang=zh|en`` (default zh),
``?speed=slow|normal|fast`` (fast: bots move at once), ``?bots=easy|normal|hard`` (all three
bots) or ``?bots=easy,normal,hard`` (seats 1, 2, 3).

>>> p = parse_params("?seed=42&lang=en&speed=fast")
>>> p.seed, p.seed_given, p.lang, p.speed, p.level
(42, True, 'en', 'fast', 'normal')
>>> p.query()
'?seed=42&lang=en&speed=fast'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qs, urlencode

from ..bots import LEVELS
from .i18n import lang_of
from .store import SPEEDS

MAX_SEED = 2**53 - 1  # a seed survives a round trip through JavaScript numbers


@dataclass(frozen=True)
class Params:
    seed: int = 0
    seed_given: bool = False
    lang: str = "zh"
    speed: str = "normal"
    level: str = "normal"

    def query(self, **changes: Any) -> str:
        """The query string that reproduces this match (defaults left out)."""
        p = replace(self, **changes) if changes else self
        items: list[tuple[str, object]] = [("seed", p.seed)]
        if p.lang != "zh":
            items.append(("lang", p.lang))
        if p.speed != "normal":
            items.append(("speed", p.speed))
        if p.level != "normal":
            items.append(("bots", p.level))
        return "?" + urlencode(items, safe=",")

    @property
    def levels(self) -> tuple[str, str, str]:
        """The level of seats 1, 2 and 3."""
        parts = self.level.split(",")
        return (parts[0], parts[1], parts[2]) if len(parts) == 3 else (self.level,) * 3


def is_whole(text: str) -> bool:
    """ASCII digits only, and few enough for int(): ``str.isdigit`` also passes ``²``
    and ``٣``, which int() then refuses with a traceback."""
    return 0 < len(text) <= 18 and text.isascii() and text.isdigit()


def level_param(levels: tuple[str, str, str] | list[str]) -> str:
    """The ``bots`` value for three seats' levels: one level when they agree."""
    return levels[0] if len(set(levels)) == 1 else ",".join(levels)


def _level(text: str) -> str:
    parts = text.split(",")
    if text in LEVELS or (len(parts) == 3 and all(p in LEVELS for p in parts)):
        return level_param(parts) if len(parts) == 3 else text
    return "normal"


def parse_params(search: str, fallback_seed: int = 0) -> Params:
    """Parameters from ``location.search``; unknown or malformed values fall back."""
    q = parse_qs(search.lstrip("?"))

    def one(name: str) -> str:
        values = q.get(name)
        return values[-1].strip().lower() if values else ""

    seed_text = one("seed")
    seed_given = is_whole(seed_text) and int(seed_text) <= MAX_SEED
    seed = int(seed_text) if seed_given else fallback_seed
    lang = one("lang")
    speed = one("speed")
    level = one("bots")
    return Params(
        seed=seed,
        seed_given=seed_given,
        lang=lang_of(lang),
        speed=speed if speed in SPEEDS else "normal",
        level=_level(level),
    )
