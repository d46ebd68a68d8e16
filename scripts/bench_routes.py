#!/usr/bin/env python3
"""How far a move travels: the ``sxmj/`` files a host's discard and a guest's message pass
through, and the saves each message type costs the host (issue 50's figures).

It drives the table over the fake page the unit tests use (``tests/test_ui_split.py``), in
CPython, no browser:

- **a host's discard**: a friends room with three seated guests, its match started; the host
  (seat 0, the dealer) clicks a tile. Counted from the click handler to the last redraw,
  everything the click does before it returns (the room's check, the apply, the states sent to
  the guests, the redraw), with ``sys.setprofile``;
- **a guest's message**: a guest's page (seat 1) has the deal; the host's message that brings
  that discard arrives and is drawn;
- **saves**: each kind of message a guest may send, received by the host, and how many times
  the host wrote its room to ``localStorage`` for it.

Run it on any commit (``--root`` another checkout)::

    python3 scripts/bench_routes.py            # this checkout
    python3 scripts/bench_routes.py --json     # the figures as one JSON line
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The route's effects: the move applied, the room written, a message sent, the table painted.
# The files on the call stack at each of them are the route itself; every other file run is
# work done along it (the drawing's markup, the engine's insides).
# (The room's writer and sender under either layout: before issue 50's folders and after.)
EFFECTS = {("match.py", "apply"), ("local_storage.py", "store"), ("common.py", "_send"),
           ("persistence.py", "store"), ("room_session.py", "_send"),
           ("guest.py", "draw_state"), ("dom.py", "paint")}
# Work a click should do once: the legal moves asked, an action parsed from text, the whole
# table state built (a click that rebuilds it to find its button builds it twice)
COUNTED = {("game.py", "legal_actions"): "legal_actions", ("actions.py", "parse"): "parse",
           ("state.py", "of"): "table_state"}


def files_crossed(root: Path, run: Callable[[], Any],
                  calls: dict[str, int] | None = None) -> tuple[list[str], list[str]]:
    """The distinct ``sxmj/`` files whose code runs during ``run()``, and those on the call
    stack at one of its :data:`EFFECTS` (the route); ``calls`` counts the :data:`COUNTED`."""
    package = str(root / "sxmj")
    seen: set[str] = set()
    route: set[str] = set()
    calls = {} if calls is None else calls

    def profile(frame, event, arg) -> None:  # noqa: ANN001 - sys.setprofile's signature
        if event != "call":
            return
        name = frame.f_code.co_filename
        if not name.startswith(package):
            return
        seen.add(name)
        where = (Path(name).name, frame.f_code.co_name)
        if where in COUNTED:
            calls[COUNTED[where]] = calls.get(COUNTED[where], 0) + 1
        if where in EFFECTS:
            f = frame
            while f is not None:
                if f.f_code.co_filename.startswith(package):
                    route.add(f.f_code.co_filename)
                f = f.f_back

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)

    def named(files: set[str]) -> list[str]:
        return sorted(str(Path(f).relative_to(root)) for f in files)

    return named(seen), named(route)


class Net:
    """The transport: what the page sends, kept."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def send(self, peer: str, text: str) -> bool:
        self.sent.append((str(peer), str(text)))
        return True

    def drop(self, peer: str) -> bool:
        return True


def measure(root: Path) -> dict[str, Any]:
    sys.path[:0] = [str(root), str(root / "tests")]
    from test_ui_split import Page, event, make_app

    from sxmj.room import protocol
    from sxmj.room.host import Room, seen_step
    from sxmj.ui.table import view
    from sxmj.ui.table.friends.guest import GuestSession
    from sxmj.ui.table.friends.host import HostSession

    secret = "s3cret-s3cret-s3cret"
    figures: dict[str, Any] = {}

    async def host_side() -> tuple[Any, Any, Net]:
        page = Page()
        page.window.console.warn = lambda text: None  # a dropped message's line
        app = make_app(page, "?seed=3&speed=fast")
        page.app = app
        tokens = iter(f"token-{i}" for i in range(100))
        host = HostSession(app)
        host.room = Room("room-id", secret, "Host", tokens=tokens.__next__)
        host.room_id, host.secret = "room-id", secret
        host.net = net = Net()
        app.session = host
        for s in (1, 2, 3):
            host.host_message(f"peer-{s}", protocol.message("hello", secret=secret, name="",
                                                            token=None))
            host.host_message(f"peer-{s}", protocol.message("sit", seat=s, name=f"P{s}"))
        host.start()
        game = app.match.game
        for _ in range(40):  # the guests play (by their messages) until the host discards
            if game.to_move() == [0] and any(a.kind == "discard" for a in game.legal_actions(0)):
                break
            seat = game.to_move()[0]
            if seat == 0:  # the host passes a claim
                app.act(next(a for a in game.legal_actions(0) if a.kind == "pass"))
                continue
            legal = game.legal_actions(seat)
            move = next((a for a in legal if a.kind in ("pass", "discard")), legal[0])
            host.host_message(f"peer-{seat}", protocol.message(  # as its page would say it
                "act", hand=app.match.hand_no, step=seen_step(game, seat),
                action=str(protocol.turn_action(move, seat))))
        return page, app, net

    async def discard() -> dict[str, Any]:
        page, app, net = await host_side()
        game = app.match.game
        assert game.to_move() == [0], "the host discards"
        tile = next(a.tile for a in game.legal_actions(0) if a.kind == "discard")
        button = page.button(data_tile=view.code(tile))
        before = len(net.sent)
        played = len(game.actions)
        calls: dict[str, int] = {}
        crossed, route = files_crossed(root, lambda: app.router.on_click(event(button)), calls)
        assert len(game.actions) == played + 1, "the discard was played"
        earlier = [t for p, t in net.sent[:before] if p == "peer-1"
                   and json.loads(t)["t"] == "state"]
        after = next(t for p, t in net.sent[before:] if p == "peer-1")
        return {"files": crossed, "route": route, "calls": calls, "earlier": earlier,
                "after": after}

    host = asyncio.run(discard())
    figures["host_discard"] = {"run": host["files"], "route": host["route"],
                               "calls": host["calls"]}

    async def guest_side() -> tuple[list[str], list[str]]:
        page = Page()
        app = make_app(page, "?seed=3&speed=fast")
        guest = GuestSession(app)
        app.session = guest
        guest.room_id, guest.secret = "room-id", secret
        from sxmj.room.guest import GuestTable
        guest.guest = GuestTable()
        guest.net = Net()
        for text in host["earlier"]:  # the deal and the moves before the host's discard
            guest.guest_message("room-id", text)
        return files_crossed(root, lambda: guest.guest_message("room-id", host["after"]))

    run, route = asyncio.run(guest_side())
    figures["guest_message"] = {"run": run, "route": route}

    async def saves() -> dict[str, int]:
        page, app, net = await host_side()
        stored: list[str] = []
        original = app.persistence.store

        def counting(key: str, value: str) -> Any:
            stored.append(key)
            return original(key, value)

        app.persistence.store = counting
        session = app.session
        game = app.match.game
        counts: dict[str, int] = {}
        tile = next(a.tile for a in game.legal_actions(0) if a.kind == "discard")
        app.router.on_click(event(page.button(data_tile=view.code(tile))))
        hand = app.match.hand_no
        cases = [
            ("ping", "peer-2", protocol.message("ping")),
            ("say", "peer-2", protocol.message("say", phrase="gg")),
            ("hello (a stranger)", "stranger", protocol.message("hello", secret="wrong",
                                                                name="", token=None)),
            ("hello (a seat back)", "peer-9", protocol.message("hello", secret=secret,
                                                               name="", token="token-1")),
            ("act (refused: not its turn)", "peer-3", protocol.message(
                "act", hand=hand, step=seen_step(game, 3), action="0 discard 1m")),
            ("ready", "peer-2", protocol.message("ready", hand=hand)),
        ]
        movers = [s for s in game.to_move() if s != 0]
        if movers:
            seat = movers[0]
            legal = game.legal_actions(seat)
            move = next((a for a in legal if a.kind in ("pass", "discard")), legal[0])
            cases.append(("act (a move)", f"peer-{seat}", protocol.message(
                "act", hand=hand, step=seen_step(game, seat),
                action=str(protocol.turn_action(move, seat)))))
        for kind, peer, text in cases:
            before = len(stored)
            session.host_message(peer, text)
            counts[kind] = len(stored) - before
        return counts

    figures["saves"] = asyncio.run(saves())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout to measure (default: this one)")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args()
    figures = measure(args.root.resolve())
    if args.json:
        print(json.dumps(figures))
        return
    for name in ("host_discard", "guest_message"):
        run, route = figures[name]["run"], figures[name]["route"]
        print(f"{name}: {len(route)} files on the route, {len(run)} run")
        for f in route:
            print(f"  {f}")
        if "calls" in figures[name]:
            print("  calls:", json.dumps(figures[name]["calls"]))
    print("saves a message:", json.dumps(figures["saves"]))


if __name__ == "__main__":
    main()
