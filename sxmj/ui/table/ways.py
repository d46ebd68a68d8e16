"""Which way to play a visit opens, and the ways a table turns into: the one module beside
the sessions' own files that names their classes (:mod:`sxmj.ui.table.session`).

A visit opens, in this order: a friends room's guest (``#room=``, by the link, by a
connection code or by the 房号), the host's room again
after a reload (``#host=``), the daily (``?daily=``), a lesson (``?scenario=``), else the
saved match (or a new one of ``?seed=``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Protocol

from sxmj.match import Match
from sxmj.ui.params import Params, Refusal
from sxmj.ui.table.daily.session import DailyTable, open_daily
from sxmj.ui.table.drawing import Drawing
from sxmj.ui.table.friends.door import Door
from sxmj.ui.table.friends.guest import GuestSession
from sxmj.ui.table.friends.host import HostSession
from sxmj.ui.table.friends.lobby import read_hash, read_ice, read_offer_hash, read_token
from sxmj.ui.table.friends.room_session import RoomTable
from sxmj.ui.table.regions import lesson_missing_html
from sxmj.ui.table.replay.records import Replay
from sxmj.ui.table.scenario.session import LessonTable, ScenarioSession, lesson
from sxmj.ui.table.session import LocalSession, Session, unwatched, watched
from sxmj.ui.table.storage.persistence import Persistence


class Visit(DailyTable, LessonTable, RoomTable, Protocol):
    """The table a visit opens a session at (the controller)."""

    params: Params
    persistence: Persistence
    drawing: Drawing
    session: Session
    room_refused: tuple[Refusal, ...]
    link_record: dict | None

    def resume(self, match: Match, counted: int) -> None: ...

    def start_match(self, seed: int) -> None: ...



def opening(table: Visit, search: str) -> Session:
    """The session this visit opens (its match dealt or resumed); a refused room or daily
    link goes to ``table.room_refused``, a daily's shared play to ``table.link_record``."""
    fragment = str(getattr(table.window.location, "hash", "") or "")
    room = read_hash(fragment)
    if room is not None and room[0] in ("guest", "number"):
        table.match = Match(seed=table.params.seed)  # drawn behind the room until the deal
        guest = GuestSession(table)
        table.session = guest
        offer = read_offer_hash(fragment) if room[0] == "guest" else None
        if room[0] == "number":  # a reload of a friend who typed the 房号: it knocks again
            guest.join_number(room[2])
        elif offer is not None:  # a connection code: no broker at all
            guest.join_code(room[1], room[2], *offer, read_ice(fragment), read_token(fragment))
        else:
            guest.join(room[1], room[2], read_ice(fragment))
        return guest
    if room is not None:  # a reload of the host: the room goes on if this browser has it
        host = HostSession(table)
        if host.resume_host(room[1]):
            return host
        table.room_refused = host.refused
    if table.params.daily:
        opened = open_daily(table, lambda: hosting(table), table.params.daily,
                            table.persistence, table.params.lang)
        table.room_refused += opened.refused
        table.link_record = opened.watch
        if opened.session is not None:
            return opened.session
        p = table.params  # a day after today: a plain table, the refusal shown
        table.params = Params(p.seed, False, p.lang, p.speed, p.level, refused=p.refused)
    asked = lesson(search)
    if asked is not None and not isinstance(asked, str):
        scenario = ScenarioSession(table, lambda: hosting(table), asked)
        scenario.start()
        return scenario
    local = plain(table, lesson_missing_html(asked, table.params.lang) if asked else "")
    loaded = table.persistence.load_match()
    seed_wanted = table.params.seed_given and (
        loaded.match is None or loaded.match.seed != table.params.seed)
    seed_wanted |= table.params.hands is not None and loaded.match is not None and (
        loaded.match.length != table.params.hands)
    table.session = local
    if loaded.match is not None and not seed_wanted:
        table.resume(loaded.match, loaded.counted)
    else:
        table.start_match(table.params.seed)
    return local


def plain(table: Visit, missing: str = "") -> LocalSession:
    """You against the bots at this table (saved here, counted in your profile);
    ``missing``: why the lesson asked for isn't played."""
    return LocalSession(table, lambda: hosting(table), table.persistence,
                        table.drawing.show_extras,
                        missing)


def hosting(table: Visit) -> None:
    """和朋友玩: this table becomes a friends room's host."""
    host = HostSession(table)
    table.session = host
    host.create()


def joining(table: Visit, number: str, broker: str, ice: str) -> None:
    """加入房间: this table becomes the guest of the room with this 房号, looked up on
    ``broker`` with the ICE preset ``ice`` (the joiner's own: no invite names them)."""
    table.params = replace(table.params, broker=broker, ice=ice)
    guest = GuestSession(table)
    table.session = guest
    guest.join_number(number)


def door(table: Visit) -> Door:
    """加入房间's dialog, which turns this table into the guest of the room it finds."""
    return Door(table.document, table.window, table.overlay, lambda: table.params.lang,
                lambda: (table.params.broker or table.settings.broker,
                         table.params.ice or table.settings.ice),
                lambda number, broker, ice: joining(table, number, broker, ice),
                time.monotonic)


def watching(table: Visit, replay: Replay) -> None:
    """A record is opened to watch: the session underneath waits."""
    table.session = watched(table.session, replay)


def back_from_watching(table: Visit) -> None:
    """The replay closed: the session it paused goes on."""
    table.session = unwatched(table.session)
