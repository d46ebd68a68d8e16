"""What a hostile message costs the host (issue 56): CPU a message and saves, through the host
page's own handling (:meth:`HostSession.host_message`) over a fake page that counts saves and
redraws, at the last hand of an 8-hand match (the biggest room to save).

Run in CPython by ``scripts/bench_room.py``, and in Pyodide under Node by the same script
(``bench/pyodide_node.mjs``): ``measure()`` returns one dict.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from types import SimpleNamespace
from typing import Any

from sxmj.bots import Bot
from sxmj.room.host import Room, deal
from sxmj.room.protocol import message
from sxmj.rules import Options
from sxmj.ui.table.friends import host as host_module

SECRET = "s" * 32


def late_room(seed: int = 1) -> Room:
    """A room of three guests whose 8-hand match is at its last hand."""
    tokens = iter(f"{i:032x}" for i in range(1, 100))
    room = Room("r" * 32, SECRET, "Host", tokens=tokens.__next__)
    for s in (1, 2, 3):
        room.receive(f"peer-{s}", message("hello", secret=SECRET, name="", token=None))
        room.receive(f"peer-{s}", message("sit", seat=s, name=f"P{s}"))
    rng = random.Random(seed)
    match = deal(lambda: rng.getrandbits(64), Options(match_hands=8))
    room.start(match)
    bots = [Bot("easy", s) for s in range(4)]
    while True:
        game = match.game
        while not game.over:
            s = game.to_move()[0]
            match.apply(bots[s].choose(game.observation(s), game.legal_actions(s)).action)
        if len(match.results) == 7:
            deal(lambda: rng.getrandbits(64), match.options, match)
            return room
        deal(lambda: rng.getrandbits(64), match.options, match)


class Page:
    """The host page's app, as far as host_message uses it: it counts saves and redraws."""

    def __init__(self) -> None:
        self.saves = 0
        self.saved_bytes = 0
        self.renders = 0
        self.sent = 0
        outer = self

        class Persistence:
            def store(self, key: str, value: str) -> None:
                outer.saves += 1
                outer.saved_bytes += len(value)

        self.app = SimpleNamespace(
            params=SimpleNamespace(lang="en"), persistence=Persistence(), render=self.render,
            overlay=SimpleNamespace(kind=None), notes=SimpleNamespace(log=[], say=lambda *a: None),
            screen=SimpleNamespace(show_notice=lambda html: None, show_why=lambda text: None),
            window=SimpleNamespace(console=SimpleNamespace(warn=lambda text: None)),
            kick=lambda: None, apply=lambda action: None, go_on=lambda: None)

    def render(self) -> None:
        self.renders += 1

    def send(self, peer: str, text: str) -> bool:
        self.sent += 1
        return True

    def drop(self, peer: str) -> bool:
        return True


def session(room: Room, page: Page, clock: list[float]) -> Any:
    s = host_module.HostSession.__new__(host_module.HostSession)
    host_module.RoomBase.__init__(s, page.app)
    s.net = page
    s.room = room
    s.play = lambda action: None  # the cost measured is the message's, not the move's
    host_module.asyncio.get_event_loop = lambda: SimpleNamespace(time=lambda: clock[0])
    host_module.asyncio.ensure_future = lambda coro: coro.close()
    return s


def case(name: str, messages: list[tuple[str, str]], spacing: float) -> dict[str, Any]:
    room = late_room()
    page = Page()
    clock = [0.0]
    host = session(room, page, clock)
    per = []
    for i, (peer, text) in enumerate(messages):
        clock[0] = i * spacing
        t0 = time.perf_counter()
        host.host_message(peer, text)
        per.append(time.perf_counter() - t0)
    return {"case": name, "messages": len(messages), "us_median": statistics.median(per) * 1e6,
            "us_mean": statistics.fmean(per) * 1e6, "saves": page.saves,
            "saved_kb": page.saved_bytes / 1024, "renders": page.renders,
            "sent": page.sent, "room_json_kb": len(room.to_json()) / 1024}


def measure(n: int = 2000) -> list[dict[str, Any]]:
    """The figures of issue 56, one dict per case."""
    asyncio.set_event_loop(asyncio.new_event_loop())
    ping = message("ping")
    act = message("act", hand=7, step=0, action="0 discard 1m")  # late: refused
    say = message("say", phrase="gg")
    return [
        # a stranger: one connection flooding, then many connections one ping each
        case("stranger ping, one connection", [("stranger", ping)] * n, 0.0001),
        case("stranger ping, a new connection each", [(f"s{i}", ping) for i in range(n)],
             0.0001),
        # a seated guest's refused move at an honest pace (never over its limit)
        case("refused act, paced", [("peer-1", act)] * n, 0.2),
        case("say flood, one seated guest", [("peer-2", say)] * (5 * n), 0.0001),
    ]
