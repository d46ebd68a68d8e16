"""Sound and turn cues (issue 18): which cues a batch of engine events means for the player
(sxmj.ui.table.sound), the sound settings and where they are kept, the plan handed to
static/js/sound.js."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from sxmj.bots import Bot
from sxmj.game import Event, Game
from sxmj.match import Match
from sxmj.ui import i18n
from sxmj.ui.table.sound import (
    CUES,
    VOLUMES,
    WORDS,
    Cue,
    Plan,
    SoundSettings,
    event_cues,
    plan,
    starts_waiting,
    waits_for_player,
)
from sxmj.ui.table.storage import saved

ROOT = Path(__file__).resolve().parent.parent
ON = SoundSettings()


def ev(type_: str, **data) -> dict:
    return {"type": Event(type_), **data}


DRAW = ev("draw", seat=1, tile=3, source="head")
DISCARD = ev("discard", seat=1, tile=3, piao=False)
PIAO = ev("discard", seat=2, tile=8, piao=True)
FLOWER = ev("flower", seat=3, tile=33)
TAIL = ev("draw", seat=3, tile=4, source="tail")


# ---------- one event, one cue ----------


@pytest.mark.parametrize(("events", "names"), [
    ([ev("deal", dealer=0, indicator=1, caishen=2, dice=[3, 4])], []),
    ([ev("turn", seat=1)], []),
    ([DRAW], ["draw"]),
    ([DISCARD], ["discard"]),
    ([PIAO], ["speech:piao", "discard"]),
    ([FLOWER, TAIL], ["speech:buhua", "flower", "draw"]),
    ([ev("claim", seat=1, kind="chi", tile=3, source=0, tiles=[2, 3, 4])],
     ["speech:chi", "claim"]),
    ([ev("claim", seat=2, kind="peng", tile=3, source=0, tiles=[3, 3, 3])],
     ["speech:peng", "claim"]),
    ([ev("claim", seat=2, kind="minggang", tile=3, source=0, tiles=[3] * 4), TAIL],
     ["speech:gang", "kong", "draw"]),
    ([ev("kong", seat=1, kind="angang", tile=5), TAIL], ["speech:gang", "kong", "draw"]),
    ([ev("jiagang_declared", seat=1, tile=5)], ["speech:gang"]),
    ([ev("jiagang_declared", seat=1, tile=5), ev("kong", seat=1, kind="jiagang", tile=5), TAIL],
     ["speech:gang", "kong", "draw"]),
    ([ev("kong", seat=1, kind="jiagang", tile=5)], ["kong"]),  # after nobody robbed it
    ([ev("hu", seat=1, win_by="draw", robbed=None, payments=[-8, 24, -8, -8],
         patterns=[], fan=1, share=8)], ["speech:hu", "win"]),
    ([ev("exhausted")], ["drawn-hand"]),
    ([DISCARD, ev("claim_window", seats=[2], tile=3)], ["discard"]),
])
def test_each_event_sounds_as_the_table_would(events, names):
    assert plan(events, ON, lang="zh", hidden=False, prompted=False).names() == names


def test_every_event_type_is_either_heard_or_silent_on_purpose():
    silent = {Event.DEAL, Event.TURN, Event.CLAIM_WINDOW}
    samples = {Event.DRAW: DRAW, Event.DISCARD: DISCARD, Event.FLOWER: FLOWER,
               Event.EXHAUSTED: ev("exhausted"), Event.KONG: ev("kong", kind="angang"),
               Event.CLAIM: ev("claim", kind="peng"),
               Event.JIAGANG_DECLARED: ev("jiagang_declared"), Event.HU: ev("hu", fan=0)}
    assert set(samples) | silent == set(Event)
    for kind, sample in samples.items():
        assert event_cues([sample]), kind
    for kind in silent:
        assert event_cues([{"type": kind}]) == []


def test_a_call_is_said_once_per_batch_and_every_flower_still_sounds():
    three = [FLOWER, TAIL, FLOWER, TAIL, FLOWER, TAIL]
    assert plan(three, ON, lang="zh", hidden=False, prompted=False).names() == [
        "speech:buhua", "flower", "draw", "flower", "draw", "flower", "draw"]


def test_a_win_carries_its_fan_and_the_words_are_the_tables_language():
    hu = ev("hu", seat=0, win_by="kong", robbed=None, payments=[], patterns=[], fan=3, share=1)
    zh = plan([hu], ON, lang="zh", hidden=False, prompted=False)
    en = plan([hu], ON, lang="en", hidden=False, prompted=False)
    assert zh.cues == (Cue("speech:hu", "胡", "zh-CN"), Cue("win", fan=3))
    assert en.cues[0] == Cue("speech:hu", i18n.tr("en", "speak_hu"), "en")
    assert json.loads(zh.to_json()) == {
        "cues": [{"cue": "speech:hu", "word": "胡", "lang": "zh-CN"}, {"cue": "win", "fan": 3}],
        "title": None, "vibrate": False}


def test_every_word_is_in_the_string_table_in_both_languages():
    for word in WORDS:
        zh, en = i18n.STRINGS["speak_" + word]
        assert zh and en and not re.search(r"[\u4e00-\u9fff]", en), word
    assert i18n.STRINGS["turn_title"] == ("轮到你了", "Your turn")


# ---------- the turn cue, mute, speech, hidden ----------


BOT_DISCARD = [DISCARD, ev("claim_window", seats=[0], tile=3)]


@pytest.mark.parametrize(("settings", "hidden", "names", "title", "vibrate"), [
    (ON, False, ["discard", "turn"], None, True),
    (ON, True, ["turn"], "轮到你了", True),  # hidden: only the turn cue
    (SoundSettings(speech=False), False, ["discard", "turn"], None, True),
    (SoundSettings(cues=False), False, ["discard"], None, False),
    (SoundSettings(cues=False), True, [], None, False),
    (SoundSettings(on=False), False, [], None, True),  # muted: nothing heard, nothing logged
    (SoundSettings(on=False), True, [], "轮到你了", True),  # the title and vibration stay
    (SoundSettings(on=False, cues=False), True, [], None, False),
])
def test_turn_cue_by_settings_and_visibility(settings, hidden, names, title, vibrate):
    p = plan(BOT_DISCARD, settings, lang="zh", hidden=hidden, prompted=True)
    assert (p.names(), p.title, p.vibrate) == (names, title, vibrate)


def test_hidden_and_not_asked_is_silent():
    busy = [PIAO, FLOWER, TAIL, ev("exhausted")]
    p = plan(busy, ON, lang="en", hidden=True, prompted=False)
    assert p.empty and p.names() == [] and p.title is None


def test_speech_off_drops_only_the_words():
    events = [ev("claim", seat=2, kind="peng", tile=3, source=0, tiles=[3] * 3), PIAO]
    assert plan(events, SoundSettings(speech=False), lang="zh", hidden=False,
                prompted=False).names() == ["claim", "discard"]


def test_muted_plans_nothing_for_a_whole_hand():
    match = Match(seed=4)
    bots = [Bot("easy", s) for s in range(4)]
    g = match.game
    while not g.over:
        seat = g.to_move()[0]
        events = match.apply(bots[seat].choose(g.observation(seat), g.legal_actions(seat)).action)
        assert plan(events, SoundSettings(on=False), lang="zh", hidden=False,
                    prompted=True).names() == []


# ---------- when the table starts waiting for the player ----------


def _dealt_to(seat: int) -> Match:
    seed = next(s for s in range(1, 200) if Match(seed=s).game.dealer == seat)
    return Match(seed=seed)


def test_the_deal_asks_the_dealer_only():
    assert waits_for_player(_dealt_to(0).game)
    assert not waits_for_player(_dealt_to(2).game)


def test_own_moves_never_chime_and_bot_moves_chime_once_per_wait():
    rng = random.Random(5)
    for seed in range(1, 9):
        match = Match(seed=seed)
        bots = [Bot("normal", seed * 4 + s) for s in range(4)]
        g: Game = match.game
        chimes = waits = 0
        while not g.over:
            to_move = g.to_move()
            seat = 0 if to_move == [0] else next(s for s in to_move if s != 0)
            legal = g.legal_actions(seat)
            action = rng.choice(legal) if seat == 0 else \
                bots[seat].choose(g.observation(seat), legal).action
            before = waits_for_player(g)
            events = match.apply(action)
            p = plan(events, ON, lang="zh", hidden=False, prompted=starts_waiting(before, g))
            if seat == 0:
                assert "turn" not in p.names()
            chimes += p.names().count("turn")
            waits += starts_waiting(before, g)
            assert p.names().count("turn") <= 1
            assert "tick" not in p.names()  # no turn timer yet
            assert set(p.names()) <= set(CUES) | {f"speech:{w}" for w in WORDS}
            assert p.names().count("discard") == sum(e["type"] == "discard" for e in events)
        assert chimes == waits


# ---------- the settings ----------


@pytest.mark.parametrize(("stored", "expected", "bad"), [
    (None, SoundSettings(), []),
    ({}, SoundSettings(), []),
    ({"on": False, "volume": 30, "speech": False, "cues": False},
     SoundSettings(False, 30, False, False), []),
    ({"volume": 35}, SoundSettings(), ["sound.volume"]),
    ({"volume": True}, SoundSettings(), ["sound.volume"]),
    ({"volume": 0}, SoundSettings(), ["sound.volume"]),
    ({"on": "no", "cues": 1}, SoundSettings(), ["sound.on", "sound.cues"]),
    ("loud", SoundSettings(), ["sound"]),
])
def test_sound_settings_from_stored_data(stored, expected, bad):
    assert SoundSettings.from_dict(stored) == (expected, bad)


def test_sound_settings_round_trip_and_the_volumes():
    s = SoundSettings(False, 40, True, False)
    assert SoundSettings.from_dict(json.loads(json.dumps(s.to_dict()))) == (s, [])
    assert VOLUMES[0] == 10 and VOLUMES[-1] == 100 and SoundSettings().volume in VOLUMES


def test_sound_settings_are_kept_with_the_others():
    s = saved.Settings(sound=SoundSettings(on=False, volume=20))
    data = json.loads(s.to_json())
    assert data["sound"] == {"on": False, "volume": 20, "speech": True, "cues": True,
                             "notify": False}
    assert saved.load_settings(s.to_json()) == (s, None)
    older = {**data, "sound": {k: v for k, v in data["sound"].items() if k != "notify"}}
    assert saved.load_settings(json.dumps(older)) == (s, None)  # saved before notify
    notify = saved.Settings(sound=SoundSettings(notify=True))
    assert saved.load_settings(notify.to_json()) == (notify, None)
    old = json.dumps({k: v for k, v in data.items() if k != "sound"})
    assert saved.load_settings(old) == (saved.Settings(), None)  # saved before issue 18
    loaded, problem = saved.load_settings(json.dumps({**data, "sound": {"volume": "max"}}))
    assert loaded.sound == SoundSettings() and problem is not None
    assert "sound.volume" in problem.detail


# ---------- the page ships the synthesis ----------


def test_the_table_page_loads_sound_js_and_it_keeps_the_contract():
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    assert '<script src="./static/js/sound.js"></script>' in html
    js = (ROOT / "static" / "js" / "sound.js").read_text(encoding="utf-8")
    assert "window.sxmjAudio = audio" in js
    for cue in CUES:
        assert f"{cue}:" in js or f'"{cue}":' in js, f"no sound for {cue}"
    for word in WORDS:
        assert f"{word}:" in js, f"no tone for speech:{word}"
    assert not re.search(r"\.(mp3|ogg|wav|m4a)\b", js)  # every sound is made, none fetched


def test_plan_json_is_one_string_for_one_crossing():
    p = Plan((Cue("discard"), Cue("speech:peng", "碰", "zh-CN")), "轮到你了", True)
    assert json.loads(p.to_json()) == {
        "cues": [{"cue": "discard"}, {"cue": "speech:peng", "word": "碰", "lang": "zh-CN"}],
        "title": "轮到你了", "vibrate": True}


# ---------- the table plays them (the fake page of tests/test_ui_split.py) ----------


class FakeAudio:
    """window.sxmjAudio as the controller sees it: what it was asked to play."""

    def __init__(self):
        self.plans: list[dict] = []
        self.configured: list[dict] = []

    def play(self, text: str) -> None:
        self.plans.append(json.loads(text))

    def configure(self, text: str) -> None:
        self.configured.append(json.loads(text))

    def names(self) -> list[str]:
        return [c["cue"] for p in self.plans for c in p["cues"]]


def table(storage: dict | None = None, search: str = "?seed=11&speed=fast"):
    from tests.test_ui_split import Page, make_app
    page = Page(storage)
    page.window.sxmjAudio = FakeAudio()
    return page, make_app(page, search)


def test_the_table_sounds_every_move_once_in_order():
    import asyncio

    from sxmj.record import to_record
    from tests.test_ui_split import play
    page, app = table()
    asyncio.run(play(page, app, hands=2))
    audio = page.window.sxmjAudio
    record = to_record(app.match)
    expected: list[str] = []
    match = Match(seed=record["seed"])
    for h, actions in enumerate(record["hands"]):
        if h:
            match.next_hand()
        g = match.game
        expected += plan(g.deal_events, ON, lang="zh", hidden=False,
                         prompted=waits_for_player(g)).names()
        for a in actions:
            waited = waits_for_player(g)
            events = match.apply(a)
            expected += plan(events, ON, lang="zh", hidden=False,
                             prompted=starts_waiting(waited, g)).names()
    assert audio.names() == expected and "discard" in expected and "turn" in expected
    assert audio.configured == [{"on": True, "volume": 70}]

    again, resumed = table(dict(page.window.localStorage.items))
    assert again.window.sxmjAudio.plans == []  # a resumed hand's deal is not sounded again


def test_muted_the_table_plays_nothing_and_the_key_m_unmutes():
    import asyncio

    from tests.test_ui_split import event, play
    stored = saved.Settings(sound=SoundSettings(on=False)).to_json()
    page, app = table({saved.KEY_SETTINGS: stored})
    asyncio.run(play(page, app, hands=1))
    audio = page.window.sxmjAudio
    assert audio.names() == [] and audio.configured == [{"on": False, "volume": 70}]

    async def press_m() -> None:  # the note it shows hides itself later: a loop must run
        app.router.on_key(event(key="m"))

    asyncio.run(press_m())
    assert not page.errors
    assert app.settings.sound.on and audio.configured[-1] == {"on": True, "volume": 70}
    assert page.elements["why"].textContent == i18n.tr("zh", "sound_now_on")
    assert json.loads(page.window.localStorage.items[saved.KEY_SETTINGS])["sound"]["on"]


def test_the_sheet_changes_the_sound_settings():
    page, app = table()
    app.sheet.change("volume", "30", None)
    app.sheet.change("volume", "35", None)  # not offered: ignored
    app.sheet.change("speech", "on", False)
    app.sheet.change("cues", "on", False)
    app.sheet.change("sound", "on", False)
    assert app.settings.sound == SoundSettings(on=False, volume=30, speech=False, cues=False)
    assert page.window.sxmjAudio.configured[-1] == {"on": False, "volume": 30}
    kept = json.loads(page.window.localStorage.items[saved.KEY_SETTINGS])["sound"]
    assert kept == {"on": False, "volume": 30, "speech": False, "cues": False, "notify": False}
    app.sheet.change("notify", "on", True)  # a friends room's system notification
    assert app.settings.sound.notify is True


def test_a_claim_shared_with_another_person_still_chimes_in_a_friends_room():
    # the player and a guest may both claim: with the guest at its own table the host's
    # page waits for the player too, so the turn cue must come (it waited for the guest)
    for seed in range(1, 400):
        match = Match(seed=seed)
        g: Game = match.game
        bots = [Bot("normal", seed * 4 + s) for s in range(4)]
        while not g.over and not (g.phase == "claim" and 0 in g.to_move()
                                  and len(g.to_move()) > 1):
            s = g.to_move()[0]
            match.apply(bots[s].choose(g.observation(s), g.legal_actions(s)).action)
        if g.over:
            continue
        others = frozenset(g.to_move())
        assert not waits_for_player(g)                   # alone against bots: they go first
        assert waits_for_player(g, people=others | {0})  # the others are people too
        assert starts_waiting(False, g, others | {0})
        assert not waits_for_player(g, people=frozenset({0, 9}))
        return
    pytest.fail("no shared claim window in 400 hands")
