"""URL parameters of the pages (part of the testing contract, see README).

The game page (index.html): ``?seed=N`` deals a reproducible match, ``?lang=zh|en``
(default zh), ``?speed=slow|normal|fast`` (fast: bots move at once), ``?bots=LEVEL`` (all
three bots, a level of :data:`sxmj.bots.LEVELS`) or ``?bots=easy,normal,hard`` (seats 1, 2, 3),
``?hands=N`` (the match's length on this page: N hands, 0 endless; without it the settings'
rule, 8 by default) and ``?scenario=NAME`` (:mod:`sxmj.ui.table.scenario.mode`).

One rule for every page: a parameter the page does not know, or a value it cannot use, never
stops it. The page goes on as if the parameter were absent (its default) and names it in a
small notice: a :class:`Refusal`. A repeated parameter keeps its last value; an empty value is
the same as none.

>>> p = parse_params("?seed=42&lang=en&speed=fast")
>>> p.seed, p.seed_given, p.lang, p.speed, p.level, p.refused
(42, True, 'en', 'fast', 'normal', ())
>>> p.query()
'?seed=42&lang=en&speed=fast'
>>> [(r.param, r.kind) for r in parse_params("?seed=%C2%B2&sede=7", 5).refused]
[('seed', 'bad'), ('sede', 'unknown')]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from sxmj.bots import LEVELS
from sxmj.daily import DailyError, parse_day
from sxmj.room.ice import PRESETS as ICE_PRESETS
from sxmj.rules import MAX_MATCH_HANDS, Options
from sxmj.ui.i18n import LANGS, tr
from sxmj.ui.markup import esc

SPEEDS = ("slow", "normal", "fast")  # the bots' pace (?speed= and the settings)
NOTICE_LINES = 6  # refusals listed one by one; more are counted

MAX_SEED = 2**53 - 1  # a seed survives a round trip through JavaScript numbers
MAX_VALUE = 200  # no parameter's value is longer (a hand is under 60 characters)
SHOWN = 24  # characters of a refused name or value the notice shows
INDEX_PARAMS = ("seed", "lang", "speed", "bots", "hands", "scenario", "broker", "ice", "timescale",
                "daily")


@dataclass(frozen=True)
class Refusal:
    """A URL parameter a page did not use; it went on with the parameter's default.

    ``param`` is the name and ``value`` what was given (both shortened for display);
    ``kind`` is ``unknown`` (the page has no such parameter), ``bad`` (a value it does not
    take; ``expected`` lists the ones it does), ``long`` (too long), ``invite`` (a friends
    room's link, ``#room=…&key=…``, that is cut short or damaged) or ``host_lost`` (a host's
    ``#host=…`` whose room this browser no longer holds)."""

    param: str
    value: str = ""
    kind: str = "bad"
    expected: str = ""


def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis says so)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def refusal(param: str, value: str, kind: str = "bad", expected: str = "") -> Refusal:
    return Refusal(shorten(param, 40), shorten(value), kind, expected)


def query_values(search: str) -> dict[str, str]:
    """``location.search`` → {name: value}: percent-decoded once, a repeated name keeps its
    last value, blank values kept. Never raises (bad percent-escapes decode to U+FFFD)."""
    return dict(parse_qsl(search.lstrip("?"), keep_blank_values=True))


def unknown_params(values: dict[str, str], known: tuple[str, ...]) -> list[Refusal]:
    """A refusal for each parameter not in ``known``."""
    return [refusal(name, value, "unknown") for name, value in values.items()
            if name not in known]


def given(values: dict[str, str], name: str) -> str:
    """A parameter's value, trimmed and lower-cased ('' when absent or blank)."""
    return values.get(name, "").strip().lower()


def read_lang(values: dict[str, str]) -> tuple[str, list[Refusal]]:
    """``?lang=``: zh (the default) or en; anything else is refused."""
    lang = given(values, "lang")
    if not lang:
        return "zh", []
    if lang in LANGS:
        return lang, []
    return "zh", [refusal("lang", values["lang"], expected=" | ".join(LANGS))]


@dataclass(frozen=True)
class Params:
    seed: int = 0
    seed_given: bool = False
    lang: str = "zh"
    speed: str = "normal"
    level: str = "normal"
    refused: tuple[Refusal, ...] = field(default=(), compare=False)
    hands: int | None = None  # ?hands=N: the match's length on this page
    broker: str = ""  # ?broker=http://HOST:PORT/PATH: the friends room's PeerServer
    ice: str = ""  # ?ice=china|none: the friends room's ICE preset (sxmj.room.ice)
    daily: str = ""  # ?daily=YYYY-MM-DD: that day's challenge (每日挑战), checked as a day
    # ?timescale=X (0 < X <= 1), for tests only: the friends room's waits (the broker's
    # answer, a dropped guest's grace, the host gone, the next deal) last X times as long
    timescale: float = 1.0

    def rules(self, options: Options) -> Options:
        """The rule options a new match of this page plays: ``options`` with ``?hands=N``."""
        return options if self.hands is None else replace(options, match_hands=self.hands)

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
        if p.hands is not None:
            items.append(("hands", p.hands))
        items += p.network()
        return "?" + urlencode(items, safe=",:/")

    def network(self) -> list[tuple[str, object]]:
        """The friends room's ``broker`` and ``ice`` (an invite link carries them), and a
        test's ``timescale``."""
        scale = f"{self.timescale:g}" if self.timescale != 1.0 else ""
        return [(k, v) for k, v in (("broker", self.broker), ("ice", self.ice),
                                    ("timescale", scale)) if v]

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


def parse_level(text: str) -> str | None:
    """A ``bots`` value (one level, or three comma-separated) in its short form; None if bad.

    >>> parse_level("expert"), parse_level("hard,hard,hard"), parse_level("hard,easy")
    ('expert', 'hard', None)
    """
    parts = [p.strip() for p in text.split(",")] if len(text) <= MAX_VALUE else []
    if len(parts) == 1 and parts[0] in LEVELS:
        return parts[0]
    if len(parts) == 3 and all(p in LEVELS for p in parts):
        return level_param(parts)
    return None


LEVELS_EXPECTED = " | ".join(LEVELS) + " | " + ",".join(LEVELS[:3])


def parse_params(search: str, fallback_seed: int = 0) -> Params:
    """The game page's parameters from ``location.search``: a bad or unknown one falls back
    to its default and is named in ``refused``."""
    values = query_values(search)
    refused = unknown_params(values, INDEX_PARAMS)
    seed_text = given(values, "seed")
    seed_given = is_whole(seed_text) and int(seed_text) <= MAX_SEED
    if seed_text and not seed_given:
        refused.append(refusal("seed", values["seed"], expected=f"0 – {MAX_SEED}"))
    lang, bad = read_lang(values)
    refused += bad
    speed = given(values, "speed") or "normal"
    if speed not in SPEEDS:
        refused.append(refusal("speed", values["speed"], expected=" | ".join(SPEEDS)))
        speed = "normal"
    level_text = given(values, "bots")
    level = parse_level(level_text) if level_text else "normal"
    if level is None:
        refused.append(refusal("bots", values["bots"], expected=LEVELS_EXPECTED))
        level = "normal"
    hands_text = given(values, "hands")
    hands = int(hands_text) if is_whole(hands_text) and int(hands_text) <= MAX_MATCH_HANDS \
        else None
    if hands_text and hands is None:
        refused.append(refusal("hands", values["hands"], expected=f"0 – {MAX_MATCH_HANDS}"))
    broker = given(values, "broker")
    if broker and not is_broker(broker):
        refused.append(refusal("broker", values["broker"], expected="http(s)://HOST:PORT/PATH"))
        broker = ""
    ice = given(values, "ice")
    if ice and ice not in ICE_PRESETS:
        refused.append(refusal("ice", values["ice"], expected=" | ".join(ICE_PRESETS)))
        ice = ""
    ice = "" if ice == "default" else ice  # PeerJS's own servers: nothing to carry
    scale_text = given(values, "timescale")
    scale = 1.0
    if scale_text:
        try:
            scale = float(scale_text)
        except ValueError:
            scale = 0.0
        if not 0.001 <= scale <= 1.0:
            refused.append(refusal("timescale", values["timescale"], expected="0.001 – 1"))
            scale = 1.0
    day = given(values, "daily")
    if day:
        try:
            day = parse_day(day)
        except DailyError:
            refused.append(refusal("daily", values["daily"], expected="YYYY-MM-DD"))
            day = ""
    order = {name: i for i, name in enumerate(values)}
    return Params(
        seed=int(seed_text) if seed_given else fallback_seed,
        seed_given=seed_given,
        lang=lang,
        speed=speed,
        level=level,
        refused=tuple(sorted(refused, key=lambda r: order.get(r.param, len(order)))),
        hands=hands,
        broker=broker,
        ice=ice,
        daily=day,
        timescale=scale,
    )


def is_broker(text: str) -> bool:
    """A PeerServer's address: ``http(s)://HOST[:PORT][/PATH]``, nothing else.

    >>> is_broker("http://10.99.0.1:9000/sxmj-broker"), is_broker("javascript:alert(1)")
    (True, False)
    """
    try:
        u = urlsplit(text)
        port = u.port
    except ValueError:
        return False
    return (u.scheme in ("http", "https") and bool(u.hostname) and not u.query
            and not u.fragment and not u.username and (port is None or 0 < port < 65536))


def broker_origin(broker: str) -> str:
    """The origin a page connects to for ``broker``, as the page's connect policy names it
    (``static/js/page-boot.js``: the URL's scheme and host, the default port left out).

    >>> broker_origin("http://10.99.0.1:9000/sxmj-broker"), broker_origin("https://X.org:443/")
    ('http://10.99.0.1:9000', 'https://x.org')
    """
    u = urlsplit(broker)
    port = u.port
    default = {"http": 80, "https": 443}.get(u.scheme)
    host = (u.hostname or "") + (f":{port}" if port is not None and port != default else "")
    return f"{u.scheme}://{host}"


def refusal_line(r: Refusal, lang: str) -> str:
    """One refused parameter in words."""
    if r.kind == "unknown":
        return tr(lang, "param_unknown", name=r.param)
    if r.kind == "long":
        return tr(lang, "param_long", name=r.param, most=r.expected)
    if r.kind == "invite":
        return tr(lang, "param_invite", name=r.param)
    if r.kind == "future":
        return tr(lang, "param_daily_future", value=r.value, today=r.expected)
    if r.kind == "daily_link":
        return tr(lang, "param_daily_link", why=r.expected)
    if r.kind == "host_lost":
        return tr(lang, "param_host_lost", name=r.param)
    return tr(lang, "param_bad", name=r.param, value=r.value, expected=r.expected)


def refusals_html(refused: list[Refusal] | tuple[Refusal, ...], lang: str,
                  button: bool = True) -> str:
    """The small notice naming the URL parameters a page did not use (empty when none).

    In the page's language, and in the other one too when ``lang`` itself was refused (its
    reader asked for another language). ``data-params`` lists the names; the button
    ``data-ui="param-notice-ok"`` dismisses it (left out under another notice's own)."""
    if not refused:
        return ""
    langs = [lang]
    if any(r.param == "lang" for r in refused):
        langs.append("en" if lang == "zh" else "zh")
    parts = []
    for ln in langs:
        tag = "zh-Hans" if ln == "zh" else "en"
        items = "".join(f"<li>{esc(refusal_line(r, ln))}</li>" for r in refused[:NOTICE_LINES])
        if len(refused) > NOTICE_LINES:
            items += f"<li>{esc(tr(ln, 'param_more', n=len(refused) - NOTICE_LINES))}</li>"
        parts.append(f'<div lang="{tag}"><p class="param-notice__title">'
                     f'{esc(tr(ln, "param_notice"))}</p><ul>{items}</ul></div>')
    names = " ".join(dict.fromkeys(r.param for r in refused))
    ok = (f'<button type="button" class="param-notice__ok" data-ui="param-notice-ok" '
          f'aria-label="{esc(tr(lang, "param_dismiss"))}">{esc(tr(lang, "notice_ok"))}'
          f"</button>") if button else ""
    return (f'<div class="param-notice" role="status" data-testid="param-notice" '
            f'data-params="{esc(names)}"><div class="param-notice__text">{"".join(parts)}</div>'
            f"{ok}</div>")
