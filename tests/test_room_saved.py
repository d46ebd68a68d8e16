"""The host's room kept for a reload: :meth:`Room.to_json` writes what the page wrote by
hand before, byte for byte, and :meth:`Room.from_json` reads it back — anything the page
stored before still resumes, and damaged text is refused whole with a clear reason.

:func:`page_save` and :func:`page_resume` are the host page's save and resume before the
room kept itself (``save`` and ``_resume_host`` of the friends host), kept as the
reference.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sxmj.bots import LEVELS, Bot
from sxmj.match import Match
from sxmj.messages import CoreError
from sxmj.record import dumps, replay
from sxmj.room.host import TIMER_CHOICES, Room, SavedRoomError, deal, seen_step
from sxmj.room.protocol import message, parse
from sxmj.rules import Options

SECRET = "0123456789abcdef0123456789abcdef"


def entropy(seed: int):
    rng = random.Random(seed)
    return lambda: rng.getrandbits(64)


def page_save(room: Room, match: Match | None) -> str:
    """What the host's page stored in ``localStorage["sxmj.room"]`` before ``to_json``."""
    data = {"id": room.room_id, "secret": room.secret, "level": room.level,
            "timer": room.timer, "started": room.started,
            "locked": room.locked,  # (kept since the host can lock the room)
            "hands": room.hands, "base": room.base,  # (kept since the host chooses them)
            "ended": room.ended,  # (kept since a match can be dissolved)
            "number": room.number,  # (kept since a room can have a 房号)
            "seats": [{"kind": s.kind, "name": s.name, "token": s.token} for s in room.seats],
            "match": dumps(match) if room.started else ""}  # type: ignore[arg-type]
    return json.dumps(data)


def page_resume(text: str, room_id: str) -> tuple[Room, Match | None] | None:
    """What the host's page made of the stored text before ``from_json`` (None: it said the
    room was lost)."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("id") != room_id:
            return None
        seats = data["seats"]
        if not (isinstance(data["secret"], str) and data["level"] in LEVELS
                and data["timer"] in TIMER_CHOICES and isinstance(seats, list)
                and len(seats) == 4 and all(
                    isinstance(x, dict) and x.get("kind") in ("host", "guest", "bot")
                    and isinstance(x.get("name"), str) and isinstance(x.get("token"), str)
                    for x in seats)):
            return None
        room = Room(data["id"], data["secret"], "Host", data["level"], data["timer"])
        for s, seat in enumerate(seats):
            room.seats[s].kind, room.seats[s].name = seat["kind"], seat["name"]
            room.seats[s].token = seat["token"]
            room.seats[s].online = s == 0
        room.started = bool(data["started"])
        match = replay(data["match"]) if data.get("match") else None
    except (ValueError, KeyError, TypeError, IndexError, RecursionError, CoreError):
        return None
    return room, match


def a_room(seed: int, guests: tuple[int, ...] = (1, 3), moves: int = 0,
           started: bool = True) -> Room:
    """A room as a host's page has it: guests seated, the match started, ``moves`` played
    (across hands: each new hand dealt as the page deals it)."""
    tokens = iter(f"{i:032x}" for i in range(1, 100))
    room = Room("feedfacefeedfacefeedfacefeedface", SECRET, "主人", "hard", 30,
                tokens=tokens.__next__)
    for s in guests:
        room.receive(f"p{s}", message("hello", secret=SECRET, name="", token=None))
        room.receive(f"p{s}", message("sit", seat=s, name=f"客人 {s}"))
    if not started:
        return room
    match = deal(entropy(seed), Options(match_hands=4))
    room.start(match)
    bot = Bot("easy", seed)
    for _ in range(moves):
        if match.game.over:
            if match.finished:
                break
            deal(entropy(seed + len(match.results)), match.options, match)
            continue
        s = match.game.to_move()[0]
        match.apply(bot.choose(match.game.observation(s), match.game.legal_actions(s)).action)
    return room


ROOMS = [a_room(1, started=False), a_room(2, guests=(), started=False), a_room(3),
         a_room(4, moves=30), a_room(5, guests=(1, 2, 3), moves=400)]


@pytest.mark.parametrize("room", ROOMS, ids=range(len(ROOMS)))
def test_to_json_writes_what_the_page_wrote(room):
    assert room.to_json() == page_save(room, room.match)


@pytest.mark.parametrize("room", ROOMS, ids=range(len(ROOMS)))
def test_what_the_page_stored_resumes(room):
    text = page_save(room, room.match)
    again = Room.from_json(text, LEVELS)
    assert again._stored() == room._stored()
    assert [(s.online, s.peer) for s in again.seats] == [(True, None)] + [(False, None)] * 3
    assert again.started == room.started
    if room.match is None:
        assert again.match is None
    else:
        assert again.match is not None and dumps(again.match) == dumps(room.match)
        assert again.match.game.observation(0) == room.match.game.observation(0)
    assert again.to_json() == text
    old = page_resume(text, room.room_id)  # the page before resumed it just the same
    assert old is not None and old[0]._stored() == again._stored()


def test_a_resumed_room_plays_on():
    room = a_room(6, guests=(1, 2), moves=12)
    again = Room.from_json(room.to_json(), LEVELS, tokens=lambda: "fresh")
    match = again.match
    assert match is not None and again.humans() == {0}  # the guests reconnect by themselves
    got = again.receive("new-peer", message("hello", secret=SECRET, name="",
                                            token=room.seats[2].token))
    assert got.back == 2 and again.humans() == {0, 2}
    assert parse(got.replies[-1][1], "host")["state"]["step"] == seen_step(match.game, 2)
    while 2 not in match.game.to_move():
        s = match.game.to_move()[0]
        match.apply(Bot("easy").choose(match.game.observation(s),
                                       match.game.legal_actions(s)).action)
    action = match.game.legal_actions(2)[0]
    got = again.receive("new-peer", message("act", hand=match.hand_no,
                                            step=seen_step(match.game, 2),
                                            action=str(action.__class__(0, action.kind,
                                                                        action.tile,
                                                                        action.tiles))))
    assert got.action == action


@pytest.mark.parametrize("text, why", [
    (None, "not text"),
    ("", "not JSON"),
    ("{" * 100 + "}" * 100, "nested too deeply"),
    ('{"id": "r", "id": "s"}', "given twice"),
    ("[]", "not a JSON object"),
    ('{"id": "r"}', "secret is missing"),
    ('{"id": "", "secret": "s"}', "id must be a non-empty string"),
    ('{"id": "r", "secret": "s", "level": "godlike"}',
     "level must be one of easy, normal, hard, expert"),
    ('{"id": "r", "secret": "s", "level": "easy", "timer": 20.0}',
     "timer must be one of 10, 20, 30, 60"),
    ('{"id": "r", "secret": "s", "level": "easy", "timer": 20, "started": 1}',
     "started must be true or false"),
    ('{"id": "r", "secret": "s", "level": "easy", "timer": 20, "started": false, '
     '"seats": [1, 2]}', "seats must be a list of 4 seats"),
])
def test_damage_is_refused_with_what_is_wrong(text, why):
    with pytest.raises(SavedRoomError) as e:
        Room.from_json(text, LEVELS)
    assert why in str(e.value) and str(e.value).startswith("saved room: ")
    assert isinstance(e.value, ValueError)


def saved(room: Room) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(room.to_json())
    return data


@pytest.mark.parametrize("change, why", [
    (lambda d: d["seats"][0].update(kind="guest"), "seats[0].kind must be one of host"),
    (lambda d: d["seats"][2].update(kind="host"), "seats[2].kind must be one of guest, bot"),
    (lambda d: d["seats"][1].pop("token"), "seats[1].token is missing"),
    (lambda d: d["seats"][3].update(name="x" * 17), "seats[3].name must be a string of at"),
    (lambda d: d["seats"].__setitem__(1, None), "seats[1] must be an object"),
    (lambda d: d.update(match=""), "match must be the match's record once it has started"),
    (lambda d: d.update(started=False), "and empty before"),
    (lambda d: d.update(match=d["match"].replace('"hands":[[', '"hands":[["3 hu",')),
     "match: hands: hand 0 action 0 ('3 hu')"),
    (lambda d: d.update(match="{}"), "match: format: format must be 'sxmj-record'"),
])
def test_a_damaged_room_or_match_is_refused(change, why):
    data = saved(a_room(7, moves=10))
    change(data)
    with pytest.raises(SavedRoomError) as e:
        Room.from_json(json.dumps(data), LEVELS)
    assert why in str(e.value), str(e.value)


def test_the_levels_are_the_pages_to_name():
    data = saved(ROOMS[0])
    data["level"] = "grandmaster"
    assert Room.from_json(json.dumps(data)).level == "grandmaster"  # the core knows no bots
    with pytest.raises(SavedRoomError):
        Room.from_json(json.dumps(data), LEVELS)


def test_extra_keys_are_left_alone():
    data = saved(ROOMS[2])
    data["later"] = {"a": 1}
    assert Room.from_json(json.dumps(data), LEVELS)._stored() == ROOMS[2]._stored()


# ------------------------------------------------------------------ damage, at random

VALID = ROOMS[3].to_json()


def resumed_or_refused(text: str) -> Room | None:
    try:
        room = Room.from_json(text, LEVELS)
    except SavedRoomError as e:
        assert str(e).startswith("saved room: ") and len(str(e)) < 1000
        return None
    # whatever it takes, it keeps as it took it, and the page before took it as well
    assert Room.from_json(room.to_json(), LEVELS)._stored() == room._stored()
    old = page_resume(text, room.room_id)
    assert old is not None and old[0]._stored() == room._stored()
    assert (old[1] is None) == (room.match is None)
    if room.match is not None and old[1] is not None:
        assert dumps(room.match) == dumps(old[1])
    return room


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_damaged_text_is_resumed_whole_or_refused(data):
    text = VALID
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        how = data.draw(st.sampled_from(["cut", "drop", "put", "swap"]))
        piece = data.draw(st.sampled_from(list('{}[]",:0123456789 \\tnufe') + ["\ud800",
                                                                             "\x00", "é"]))
        if how == "cut":
            text = text[:at]
        elif how == "drop":
            text = text[:at] + text[at + data.draw(st.integers(1, 20)):]
        elif how == "put":
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + piece + text[at + 1:]
    resumed_or_refused(text)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 100) | st.floats(
    allow_nan=False) | st.text(max_size=20), lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=6), inner, max_size=5), max_leaves=12)


@given(st.data())
@settings(max_examples=200, deadline=None)
def test_any_field_of_any_value_is_resumed_whole_or_refused(data):
    stored = saved(data.draw(st.sampled_from(ROOMS[:4])))
    for _ in range(data.draw(st.integers(1, 3))):
        target: Any = stored
        key: Any = data.draw(st.sampled_from(["seats", "match", "started", "timer", "level",
                                              "secret", "id", "seats", "seats"]))
        seats = stored.get("seats")
        if key == "seats" and isinstance(seats, list) and len(seats) == 4 \
                and data.draw(st.booleans()):
            target = seats[data.draw(st.integers(0, 3))]
            if not isinstance(target, dict):
                continue
            key = data.draw(st.sampled_from(["kind", "name", "token", "online"]))
        if data.draw(st.booleans()) and key in target:
            del target[key]
        else:
            target[key] = data.draw(JSON | st.sampled_from(
                ["host", "guest", "bot", "easy", 10, True, False, "", ROOMS[4].to_json()]))
    resumed_or_refused(json.dumps(stored))
