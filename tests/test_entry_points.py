"""Every entry point survives odd input (issue 21), fuzzed in CPython with hypothesis.

- The URL parameters of every page (index, learn, calc, embed in each mode): arbitrary
  Unicode, huge, empty, repeated and percent-encoded values give a valid value or a named
  refusal (:class:`sxmj.ui.params.Refusal`), never an exception; a page's markup renders from
  what it read.
- What the game page keeps in ``localStorage`` (settings, profile, save): garbage, wrong
  types, old versions, huge and deeply nested values; each loader returns a usable value (and
  the problem), never an exception, and what it returns renders and round-trips.

The browser half (the notice, the reset after reload, no console error) is
``e2e/test_entry_points.py``.
"""

from __future__ import annotations

import doctest
import json
import re
from dataclasses import replace
from types import SimpleNamespace
from urllib.parse import parse_qsl, quote, urlencode

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sxmj.bots import LEVELS, Bot
from sxmj.match import Match
from sxmj.record import to_record
from sxmj.rules import Options
from sxmj.ui import params
from sxmj.ui.i18n import LANGS
from sxmj.ui.pages import calc, embed, learn, plumbing
from sxmj.ui.pages.judge import FIELDS, OPTION_FIELDS
from sxmj.ui.params import INDEX_PARAMS, MAX_SEED, parse_level, parse_params, query_values
from sxmj.ui.table import comforts, regions
from sxmj.ui.table.daily.session import DailyStore
from sxmj.ui.table.friends import lobby as friends
from sxmj.ui.table.result import match as match_summary
from sxmj.ui.table.settings import tabs as settings_tabs
from sxmj.ui.table.storage import saved
from sxmj.ui.table.storage.persistence import Persistence, url_overrides

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ------------------------------------------------------------------ odd values

WORST = [  # the fixed sample: what broke pages before, and its neighbours
    "", " ", "²", "٣", "１２", "𝟗", "Ⅻ", "½", "-1", "+7", " 7 ", "7.0", "1e3", "0x10",
    "9" * 19, str(MAX_SEED), str(MAX_SEED + 1), "\x00", "%", "%%", "%zz", "%C2%B2",
    "%ED%A0%80", "&", "=", "?", "#", "<script>alert(1)</script>", '"><img src=x>',
    "EN", "En", "fr", "zh-CN", "FAST", "warp", "expert", "hard,hard,hard", "easy,nope,hard",
    "hard,,", ",", "\u202e", "\ufeffen", "null", "undefined", "[]", "{}", "x" * 5000,
]
odd_values = st.one_of(
    st.sampled_from(WORST),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=200, max_size=3000),
    st.from_regex(r"[0-9٠-٩０-９²³¹]{1,25}", fullmatch=True),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


def names_of(known: tuple[str, ...]):
    return st.one_of(st.sampled_from(known), st.sampled_from(["", "Seed", "SEED", "seed ",
                                                              "lang[]", "utm_source", "mode"]),
                     st.text(max_size=12))


@st.composite
def queries(draw, known: tuple[str, ...], valid: dict[str, list[str]] | None = None) -> str:
    """A ``location.search``: names known and not, repeated, values odd or valid, and the
    query written three ways (form-encoded, raw, percent-encoded twice)."""
    pairs = []
    for _ in range(draw(st.integers(0, 6))):
        name = draw(names_of(known))
        pool = (valid or {}).get(name)
        value = draw(st.sampled_from(pool) if pool and draw(st.booleans()) else odd_values)
        pairs.append((name, value))
    how = draw(st.sampled_from(["form", "raw", "twice"]))
    if how == "form":
        body = urlencode(pairs)
    elif how == "raw":
        body = "&".join(f"{k}={v}" for k, v in pairs)
    else:
        body = "&".join(f"{quote(quote(k))}={quote(quote(v))}" for k, v in pairs)
    return "?" + body


def names_in(search: str) -> set[str]:
    return set(query_values(search))


def refused_names(refused) -> set[str]:
    return {r.param for r in refused}


def assert_named(refused, search: str) -> None:
    """Every refusal names a parameter of the URL, shortened for the notice, with words."""
    given_names = names_in(search)
    for r in refused:
        assert r.kind in ("unknown", "bad", "long"), r
        assert len(r.param) <= 40 and len(r.value) <= params.SHOWN, r
        assert any(n == r.param or n.startswith(r.param[:-1]) for n in given_names), r
    for lang in LANGS:
        html = params.refusals_html(list(refused), lang)
        assert bool(html) == bool(refused)
        if refused:
            assert 'data-testid="param-notice"' in html and "<script>" not in html


# ------------------------------------------------------------------ index.html

INDEX_VALID = {"seed": ["0", "42", str(MAX_SEED)], "lang": ["zh", "en", " EN "],
               "speed": ["slow", "normal", "fast"],
               "bots": list(LEVELS) + ["easy,normal,hard", "expert,hard,easy"],
               "scenario": ["baotou", "nope"]}


@FUZZ
@given(queries(INDEX_PARAMS, INDEX_VALID), st.integers(0, MAX_SEED))
@example("?seed=%C2%B2&lang=fr&speed=warp&bots=genius&sede=7", 5)
@example("?seed=1&seed=%D9%A3&bots=expert", 5)
def test_index_parameters_are_a_valid_value_or_a_named_refusal(search, fallback):
    p = parse_params(search, fallback_seed=fallback)
    assert 0 <= p.seed <= MAX_SEED and p.lang in LANGS
    assert p.speed in params.SPEEDS and parse_level(p.level) == p.level
    assert len(p.levels) == 3 and all(level in LEVELS for level in p.levels)
    values = query_values(search)
    named = refused_names(p.refused)
    for name in set(values) - set(INDEX_PARAMS):
        assert params.shorten(name, 40) in named  # unknown: named
    given_ = {k: v.strip().lower() for k, v in values.items()}
    if given_.get("seed"):
        assert (p.seed_given and str(p.seed) == given_["seed"].lstrip("0").rjust(1, "0")) \
            or "seed" in named
    else:
        assert not p.seed_given and p.seed == fallback
    for name, got in (("lang", p.lang), ("speed", p.speed)):
        assert got == (given_.get(name) or got) or name in named
    if given_.get("bots"):
        assert p.level == parse_level(given_["bots"]) or "bots" in named
    assert_named(p.refused, search)
    again = parse_params(p.query())  # the address the page writes back is clean
    assert again == replace(p, seed_given=True) and again.refused == ()


@st.composite
def fragments(draw) -> str:
    """A ``location.hash``: a room's link whole, cut short, damaged or mixed with noise."""
    good = st.text(alphabet="abcdefABCDEF0123456789", min_size=1, max_size=64)
    pairs = []
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(["room", "key", "host", "x", "", "room "]))
        value = draw(st.one_of(good, odd_values, st.text(alphabet="ab1", max_size=70)))
        pairs.append((name, value))
    how = draw(st.sampled_from(["form", "raw"]))
    body = urlencode(pairs) if how == "form" else "&".join(f"{k}={v}" for k, v in pairs)
    return "#" + body


@FUZZ
@given(fragments())
@example("#room=abc123&key=")
@example("#room=abc123&key=k%20ey")
@example("#host=" + "a" * 65)
def test_a_rooms_link_is_read_or_its_damage_named(fragment):
    got = friends.read_hash(fragment)
    refused = friends.hash_refusals(fragment)
    if got is not None:
        role, room_id, secret = got
        assert role in ("guest", "host") and refused == []
        for v in (room_id, secret) if role == "guest" else (room_id,):
            assert 1 <= len(v) <= 64 and v.isascii() and v.isalnum()
    else:
        mentioned = {k for k, _ in parse_qsl(fragment.lstrip("#"), keep_blank_values=True)}
        assert bool(refused) == bool(mentioned & {"room", "key", "host"})
        assert {r.param for r in refused} <= {"#room", "#key", "#host"}
        assert all(r.kind == "invite" for r in refused)
        for lang in LANGS:
            html = params.refusals_html(refused, lang)
            assert bool(html) == bool(refused) and "<script" not in html


@pytest.mark.parametrize("value", LEVELS)
def test_every_bot_level_is_a_bots_value(value):
    p = parse_params(f"?bots={value}")
    assert p.level == value and p.refused == ()
    assert saved.load_settings(saved.Settings(bots=p.levels).to_json())[1] is None


# ------------------------------------------------------------------ learn.html


@FUZZ
@given(queries(("lang",), {"lang": ["zh", "en"]}))
@example("?lang=fr&lang=%FF&x")
def test_learn_parameters_are_a_valid_value_or_a_named_refusal(search):
    lang, refused = learn.read_learn(query_values(search))
    assert lang in LANGS
    values = query_values(search)
    named = refused_names(refused)
    for name in set(values) - {"lang"}:
        assert params.shorten(name, 40) in named
    if values.get("lang", "").strip() and lang != values["lang"].strip().lower():
        assert "lang" in named
    assert_named(refused, search)


# ------------------------------------------------------------------ calc.html

CALC_KNOWN = ("lang",) + FIELDS + OPTION_FIELDS
CALC_VALID = {"hand": ["123m456m789m123p9s5p", "123m456m789p234s9s", "1m"],
              "caishen": ["9s", "1z", "5z"], "win_tile": ["5p"], "melds": ["peng 222z,chi 123m"],
              "flowers": ["1f2f5z"], "win_by": ["draw", "kong", "rob"],
              "replacements": ["0", "1"], "piao": ["0", "2"], "first_turn": ["1", "0"],
              "dealer": ["true"], "base_flowers": ["5", "25"], "flower_is_kong": ["0"],
              "baotou_required": ["1"], "fan_cap": ["3", "0"]}


@FUZZ
@given(queries(CALC_KNOWN, CALC_VALID))
@example("?hand=123m456m789m123p9s5p&caishen=9s&piao=%C2%B2")
@example("?hand=123m&dealer=perhaps&win_by=teleport&fan_cap=99&colour=red")
def test_calc_parameters_are_a_valid_value_or_a_named_refusal(search):
    values = query_values(search)
    state, error, refused = calc.read_calc(values)
    named = refused_names(refused)
    for name in set(values) - set(CALC_KNOWN):
        assert params.shorten(name, 40) in named
    assert error is None or error.field in named  # a bad switch: in words and in the notice
    for name, options in calc.CHOICES.items():
        assert getattr(state, name) in options
    assert_named(refused, search)
    for lang in LANGS:
        html = calc.render_form(state, lang)  # the evaluator judges whatever was typed
        assert 'data-testid="calc-result"' in html and "Traceback" not in html
    again, _, left = calc.read_calc(dict(state.params()))
    assert again.params() == state.params() and left == []


# ------------------------------------------------------------------ embed.html

EMBED_KNOWN = ("mode", "lang", "name", "seed") + FIELDS + OPTION_FIELDS
EMBED_VALID = {**CALC_VALID, "mode": list(embed.MODES), "name": ["baotou", "piao-round"],
               "seed": ["42", "0"]}


@FUZZ
@given(st.sampled_from(embed.MODES + ("", "poker")), queries(EMBED_KNOWN, EMBED_VALID),
       st.sampled_from(LANGS))
@example("play", "?seed=%C2%B2", "zh")
@example("scenario", "?name=baotou&seed=1", "en")
@example("hand", "?hand=123m456m789m123p9s5p&caishen=9s&colour=red", "en")
def test_embed_parameters_are_a_valid_value_or_a_named_refusal(mode, search, lang):
    values = {"mode": mode, **query_values(search)} if mode else query_values(search)
    e = embed.render(values, lang)
    assert "Traceback" not in e.html
    if e.error is not None:  # what the mode needs is missing or bad: the frame names it
        assert e.error and 'data-testid="embed-error"' in e.html
        assert f'data-field="{e.error}"' in e.html or e.error == "mode"
    elif e.mode == "calc":
        assert e.calc is not None
        assert 'data-testid="calc-result"' in calc.render_form(e.calc, lang)
    else:
        assert e.html
    wanted = values.get("mode", "").strip().lower()
    if wanted in embed.MODES and e.error is None:
        allowed = embed.ALLOWED.get(wanted, FIELDS + OPTION_FIELDS) + embed.COMMON
        for name in set(values) - set(allowed):
            assert params.shorten(name, 40) in refused_names(e.refused)
    assert_named(e.refused, search + ("&mode=" + quote(mode) if mode else ""))


def test_the_notice_names_each_parameter_in_the_pages_language_and_more_are_counted():
    refused = parse_params("?seed=%C2%B2&lang=fr&a=1&b=2&c=3&d=4&e=5&f=6").refused
    zh = params.refusals_html(refused, "zh")
    assert re.search(r'data-params="seed lang a b c d e f"', zh)
    assert "seed=²：不能用" in zh and "还有 2 个" in zh
    assert 'lang="en"' in zh and "the default is used" in zh  # lang refused: English too
    en = params.refusals_html(parse_params("?speed=warp&lang=en").refused, "en")
    assert "speed=warp: not a value it takes (slow | normal | fast)" in en and "中" not in en


def test_docstring_examples_of_the_parsers():
    for module in (params, plumbing, calc, learn, saved):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__


# ------------------------------------------------------------------ localStorage


def json_values():
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                        st.text(max_size=20))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


HUGE = ["x" * 1_000_000, json.dumps("x" * 1_000_000), "[" * 100_000, "{" * 50_000,
        '{"v": 1, "points": ' + "9" * 5000 + "}", '{"a":' * 3000 + "1" + "}" * 3000,
        "\ud800", '"\\ud800"', "\x00" * 100, "null", "[]", "0", "true", '""']


def garbage():
    return st.one_of(st.sampled_from(HUGE), st.text(), st.binary().map(lambda b: b.decode(
        "latin-1")), json_values().map(json.dumps))


def fields_over(good: dict, extra: dict):
    """``good`` with some fields replaced by arbitrary JSON (wrong types, old versions)."""
    return st.fixed_dictionaries({k: st.one_of(st.just(v), st.sampled_from(extra.get(k, [v])),
                                               json_values()) for k, v in good.items()})


def _settings_json() -> dict:
    return json.loads(saved.Settings(lang="en", bots=("hard", "expert", "easy")).to_json())


def _profile_json() -> dict:
    return {"v": 1, "points": 120, "net": -40, "hands": 12, "wins": 3,
            "best": {"gain": 96, "fan": 2, "patterns": ["baotou"], "share": 32, "seed": 7,
                     "hand": 3}}


@FUZZ
@given(st.one_of(garbage(), fields_over(_settings_json(), {
    "v": [0, 2, "1", None], "lang": ["fr", "EN", ""], "bots": [["hard"], ["x", "y", "z"]],
    "rules": [{"base_flowers": 7}, {"fan_cap": -1}, {"nope": 1}, []]}).map(json.dumps)))
def test_settings_loader_never_raises_and_what_it_returns_works(text):
    s, problem = saved.load_settings(text)
    assert s.lang in LANGS and s.speed in params.SPEEDS and s.anim in saved.ANIMS
    assert isinstance(s.assist, bool) and all(b in LEVELS for b in s.bots)
    assert saved.load_settings(s.to_json()) == (s, None)  # what the page stores back reads
    assert problem is None or problem.what == "settings"
    for lang in LANGS:
        settings_tabs.settings_html(s, Options(), lang)


@FUZZ
@given(st.one_of(garbage(), fields_over(_profile_json(), {
    "v": [0, 2, "1", None], "points": [-1, 1.5, "9", 2**80], "wins": [99],
    "best": [{}, {"patterns": []}, {"gain": 1}, [], "best"]}).map(json.dumps)))
@example(json.dumps({**_profile_json(), "best": {"patterns": ["baotou"]}}))
def test_profile_loader_never_raises_and_what_it_returns_works(text):
    profile, problem = saved.load_profile(text)
    assert problem is None or (problem.what, problem.kind) in {
        ("profile", k) for k in ("corrupt", "old", "invalid")}
    if problem is not None:
        assert profile == saved.Profile()  # reset: a fresh profile
    assert saved.load_profile(profile.to_json()) == (profile, None)
    for lang in LANGS:
        settings_tabs.profile_html(profile, lang)


def _played(seed: int, actions: int) -> Match:
    match = Match(seed=seed)
    bots = [Bot("easy", s) for s in range(4)]
    while len(match.game.actions) < actions and not match.game.over:
        seat = match.game.to_move()[0]
        g = match.game
        match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
    return match


GOOD_SAVE = json.loads(saved.save_text(_played(7, 30), counted=0))


@st.composite
def saves(draw) -> str:
    """A save with its check made to match, so the record itself is what is odd."""
    data = json.loads(json.dumps(GOOD_SAVE))
    record = data["record"]
    which = draw(st.sampled_from(["hands", "seed", "options", "format", "version", "drop",
                                  "action", "counted"]))
    if which == "hands":
        record["hands"] = draw(st.one_of(json_values(), st.lists(st.lists(st.text(max_size=12),
                                                                            max_size=3))))
    elif which == "seed":
        record["seed"] = draw(st.one_of(json_values(), st.integers()))
    elif which == "options":
        record["options"] = draw(json_values())
    elif which == "format":
        record["format"] = draw(st.one_of(json_values(), st.just("sxmj-record")))
    elif which == "version":
        data["version"] = draw(st.sampled_from([0, 2, "1", None, 1.0, True]))
    elif which == "drop":
        key = draw(st.sampled_from(sorted(record)))
        del record[key]
    elif which == "action":
        hand = record["hands"][0]
        i = draw(st.integers(0, len(hand) - 1))
        hand[i] = draw(st.one_of(st.text(max_size=16), st.sampled_from(
            ["discard 0z", "discard 9s", "peng 1m", "hu", "pass", "discard " + "1" * 400])))
    else:
        data["counted"] = draw(st.one_of(json_values(), st.integers(-3, 5)))
    if isinstance(data.get("counted"), int) and isinstance(record, dict):
        try:
            data["check"] = saved._check(record, data["counted"])
        except (TypeError, ValueError):
            pass
    return json.dumps(data)


@FUZZ
@given(st.one_of(garbage(), saves(), fields_over(GOOD_SAVE, {
    "format": ["sxmj-record", None], "version": [0, 2], "counted": [-1, 99, "2"],
    "check": ["0" * 16, None]}).map(json.dumps)))
def test_save_loader_never_raises_and_what_it_returns_works(text):
    loaded = saved.load_save(text)
    if text == "":
        assert loaded == saved.Loaded(None)  # nothing saved
    elif loaded.match is None:
        assert loaded.problem is not None and loaded.problem.what == "save"
        assert loaded.problem.kind in ("corrupt", "old", "edited", "invalid")
    else:
        assert loaded.problem is None and 0 <= loaded.counted <= len(loaded.match.results)
        again = saved.load_save(saved.save_text(loaded.match, loaded.counted))
        assert to_record(again.match) == to_record(loaded.match)  # what the page saves next


def test_a_valid_save_still_loads():
    loaded = saved.load_save(json.dumps(GOOD_SAVE))
    assert loaded.problem is None and len(loaded.match.game.actions) >= 30


@FUZZ
@given(json_values(), st.integers(0, 3))
def test_the_depth_check_never_refuses_json_we_could_write(value, wrap):
    for _ in range(wrap):
        value = {"v": [value, "[{\\\"", "]"]}
    assert not saved.too_deep(json.dumps(value))
    assert not saved.too_deep(json.dumps(value, ensure_ascii=False, indent=1))


def test_the_depth_check_stops_at_its_limit():
    deep = saved.MAX_DEPTH
    assert not saved.too_deep("[" * deep + "]" * deep)
    assert saved.too_deep("[" * (deep + 1) + "]" * (deep + 1))
    assert saved.load_profile("{" * 50_000)[1].kind == "corrupt"  # never reaches the parser


@pytest.mark.parametrize("text", HUGE)
def test_the_worst_stored_values_give_a_problem_not_an_exception(text):
    for problem in (saved.load_settings(text)[1], saved.load_profile(text)[1],
                    saved.load_save(text).problem):
        assert problem is None or problem.kind in ("corrupt", "old", "invalid")
    assert saved.read_record(text)[0] is None


# ------------------------------------------------------------------ the table's reset-once


class Storage:
    """``window.localStorage`` as the table uses it."""

    def __init__(self, items: dict[str, str]):
        self.items = dict(items)

    def getItem(self, key):  # noqa: N802 - the DOM's names
        return self.items.get(key)

    def setItem(self, key, value):  # noqa: N802
        self.items[key] = value

    def removeItem(self, key):  # noqa: N802
        self.items.pop(key, None)


class Window:
    def __init__(self, storage: Storage):
        self.localStorage = storage


class Clock:
    def now(self) -> float:
        return 0.0

    def record(self, *args) -> None:
        pass


def boot(storage: Storage, search: str = "") -> Persistence:
    """What the table reads at start, in its order."""
    p = Persistence(Window(storage), Clock())
    p.load_settings(search)
    p.load_profile()
    p.load_match()
    return p


@pytest.mark.parametrize("values", [
    {"settings": "[" * 20000, "profile": "garbage", "save": "x" * 100_000},
    {"settings": '{"lang": "fr", "bots": "hard"}', "profile": '{"v": 0}',
     "save": json.dumps({**GOOD_SAVE, "version": 0})},
    {"settings": '"settings"', "profile": json.dumps({"v": 1, "best": {"patterns": []}}),
     "save": json.dumps({**GOOD_SAVE, "counted": 99})},
])
def test_an_unreadable_stored_value_is_reset_once_with_one_notice(values):
    storage = Storage({f"sxmj.{k}": v for k, v in values.items()})
    first = boot(storage)
    assert sorted(p.what for p in first.notices) == ["profile", "save", "settings"]
    assert saved.load_settings(storage.items[saved.KEY_SETTINGS])[1] is None
    assert saved.load_profile(storage.items[saved.KEY_PROFILE]) == (saved.Profile(), None)
    assert saved.KEY_SAVE not in storage.items
    assert boot(storage).notices == []  # the next start: nothing to say


def test_a_readable_store_is_left_as_it_was():
    profile = saved.Profile(points=420, net=420, hands=9, wins=2).to_json()
    save = json.dumps(GOOD_SAVE, separators=(",", ":"), ensure_ascii=False)
    storage = Storage({saved.KEY_PROFILE: profile, saved.KEY_SAVE: save})
    p = boot(storage)
    assert p.notices == [] and storage.items[saved.KEY_PROFILE] == profile
    assert storage.items[saved.KEY_SAVE] == save


@pytest.mark.parametrize(("search", "bots", "lang"), [
    ("?bots=expert", ("expert",) * 3, "en"),
    ("?bots=easy,expert,hard&lang=en", ("easy", "expert", "hard"), "en"),
    ("?bots=easy,nope,hard&lang=fr", ("hard",) * 3, "en"),  # refused: the stored ones stay
])
def test_url_parameters_over_the_settings_only_when_used(search, bots, lang):
    stored = saved.Settings(lang="en", bots=("hard",) * 3)
    s = url_overrides(stored, search)
    assert (s.bots, s.lang) == (bots, lang)


# ------------------------------------------------------------------ a page that keeps nothing


class RefusingWindow:
    """A frame of another site's page whose browser refuses it storage (Safari's default):
    reading ``localStorage`` throws, as the DOM's SecurityError does."""

    @property
    def localStorage(self):  # noqa: N802 - the DOM's name
        raise RuntimeError("SecurityError: The operation is insecure.")


@pytest.mark.parametrize("window", [RefusingWindow(), SimpleNamespace(localStorage=None)],
                         ids=["refused", "absent"])
def test_a_page_refused_storage_plays_on_unkept_and_says_so_once(window):
    p = Persistence(window, Clock())
    p.load_settings("?lang=en")
    p.load_profile()
    assert p.load_match().match is None
    p.store(saved.KEY_SETTINGS, "{}")  # nothing raises, nothing is kept
    assert not p.kept and p.notices == []
    link = "https://sxmj.example/index.html?seed=7"
    html = regions.notice_html(p.notices, (), "en", link)
    assert 'data-kind="no-storage"' in html and f'href="{link}"' in html
    assert 'target="_blank"' in html and html.count('data-ui="notice-ok"') == 1
    assert "open-full" not in regions.notice_html([], (), "zh", "")  # a top page: no link
    assert Persistence(Window(Storage({})), Clock()).kept


def test_without_storage_no_rank_is_shown_and_the_daily_is_practice():
    match = Match(seed=3, options=Options(match_hands=1))
    while not match.finished:
        seat = match.game.to_move()[0]
        match.apply(match.game.legal_actions(seat)[0])
    menu = comforts.menu_chips(None, "en")
    assert 'data-ui="profile"' not in menu and 'data-ui="settings"' in menu
    ranked = match_summary.summary_html(match, saved.Profile(), "en")
    unranked = match_summary.summary_html(match, saved.Profile(), "en", ranked=False)
    assert 'data-testid="match-rank"' in ranked and 'data-testid="match-rank"' not in unranked
    store = DailyStore(Persistence(RefusingWindow(), Clock()))
    assert not store.kept
    assert DailyStore(Persistence(Window(Storage({})), Clock())).kept
