"""The host's side of a friends room: who sits where, what each guest is sent, and which
of a guest's actions are accepted.

The host's browser owns the :class:`~sxmj.match.Match` and is the referee. Each guest
gets only its own seat's observation (turned so it sits at the bottom), the public
events, and — once a hand is over, when every hand lies open — that hand's record, so its
table can show the end exactly and any player can export the match. Nothing here sends
or waits: the page's transport delivers the messages :class:`Room` returns, and its
clock runs the turn timers (the core reads no clock).

A guest's action is accepted only if it names the state it was chosen in (``hand`` and
``step``: a late or repeated action no longer does), comes from a seat that must decide
now, and is one of that seat's legal actions. Anything else is refused with a reason,
and the match is untouched.

A guest's ``step`` counts only what it may know happened (:func:`seen_step`), and a guest
is sent a state only when its table changes (:meth:`Room.states`): another seat's quiet
answer to a claim window — a pass, a 吃 still waiting on the others — sends nothing and
counts nothing, so no guest can count who else was asked (who holds a pair of the tile).
Only a turn timer running out is told to everyone, as the room's rules say: then that seat
was asked.

>>> from sxmj.match import Match
>>> room = Room("r" * 20, "s" * 20, "Host", tokens=iter(["t1", "t2"]).__next__)
>>> out = room.hello("peer-a", {"secret": "s" * 20, "name": "Ann", "token": None})
>>> out[0][1].startswith('{"v":1,"t":"lobby"')
True
>>> [kind for _, kind in [(p, m.split('"t":"')[1].split('"')[0]) for p, m in
...                       room.sit("peer-a", {"seat": 2, "name": "Ann"})]]
['seated', 'lobby']
>>> room.seats[2].name, room.seats[2].kind
('Ann', 'guest')
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..game import Action, Game, Phase
from ..match import Match
from ..messages import CoreError
from ..record import to_record
from ..rules import MAX_MATCH_HANDS, Options
from ..wall import Rng, Wall
from .protocol import (
    clean_name,
    message,
    pack_record,
    private,
    turn_action,
    turn_events,
    turn_observation,
    turn_scores,
    turned,
)

Out = list[tuple[str, str]]  # (peer id, wire message)
TIMER_DEFAULT = 20  # seconds a human has for a decision before their bot plays it
TIMER_CHOICES = (10, 20, 30, 60)
GRACE = 10  # seconds a dropped guest's seat waits before the bot covers it


@dataclass
class Seat:
    """One chair: the host's (0), a guest's, or a bot's (nobody took it)."""

    kind: str = "bot"  # "host", "guest" or "bot"
    name: str = ""
    token: str = ""  # the guest's seat token: a reload or the link again finds the seat
    peer: str | None = None  # the guest's connection while it is connected
    online: bool = False

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "online": self.online}


class Room:
    """One room: its id, its invite secret, the four seats, and the referee's checks.

    ``tokens`` makes seat tokens (the page passes a cryptographic source). Every method
    that changes something returns what to send, as ``(peer, message)`` pairs.
    """

    def __init__(self, room_id: str, secret: str, host_name: str, level: str = "normal",
                 timer: int = TIMER_DEFAULT, tokens: Callable[[], str] = lambda: ""):
        self.room_id = room_id
        self.secret = secret
        self.level = level
        self.timer = timer
        self.tokens = tokens
        self.seats = [Seat("host", clean_name(host_name, "1"), online=True)] + [
            Seat() for _ in range(3)]
        self.started = False
        self.ready: set[int] = set()  # seats that asked for the next hand
        self.sent_hands = 0  # finished hands whose records every guest has been sent
        # connections that gave the invite's secret: only they may take a seat (the room id
        # alone, which the broker sees, gets nobody in)
        self.admitted: set[str] = set()
        self._window: tuple[int, int] = (-1, -1)  # the decision window being timed
        # per guest seat: the last state it was sent, without its events (see states())
        self._last_view: dict[int, str] = {}
        self._opened = 0.0  # when it opened (the caller's clock)

    # ------------------------------------------------------------ who is here

    def seat_of(self, peer: str) -> int | None:
        """The seat of a connected guest (None: a visitor who hasn't sat down)."""
        for s, seat in enumerate(self.seats):
            if seat.kind == "guest" and seat.peer == peer:
                return s
        return None

    def guests(self) -> list[int]:
        """Seats of guests now connected."""
        return [s for s, seat in enumerate(self.seats) if seat.kind == "guest" and seat.online]

    def humans(self) -> set[int]:
        """Seats a person decides for now: the host's and every connected guest's (a
        dropped guest's seat is the bot's until it comes back)."""
        return {0} | set(self.guests())

    def lobby(self) -> dict[str, Any]:
        return {"id": self.room_id, "seats": [seat.public() for seat in self.seats],
                "started": self.started, "level": self.level, "timer": self.timer}

    def lobby_to_all(self) -> Out:
        """The lobby, sent to every guest online (after any change to the seats)."""
        text = message("lobby", room=self.lobby())
        return [(p, text) for p in self.peers()]

    def peers(self) -> list[str]:
        return [seat.peer for seat in self.seats if seat.peer is not None and seat.online]

    def hello(self, peer: str, msg: dict[str, Any]) -> Out:
        """A browser opened the link: a wrong secret is turned away; a known seat token
        takes its seat back; anyone else is shown the lobby."""
        if not hmac.compare_digest(msg["secret"].encode(), self.secret.encode()):
            return [(peer, message("closed", reason="secret"))]
        self.admitted.add(peer)
        token = msg["token"]
        for s, seat in enumerate(self.seats):
            if seat.kind == "guest" and token and hmac.compare_digest(token.encode(),
                                                                      seat.token.encode()):
                seat.peer, seat.online = peer, True
                out = [(peer, message("seated", seat=s, token=seat.token))]
                out += self.lobby_to_all()
                out += [(p, message("notice", kind="back", seat=turned(s, self.seat_of(p) or 0)))
                        for p in self.peers() if p != peer]
                return out
        return [(peer, message("lobby", room=self.lobby()))]

    def sit(self, peer: str, msg: dict[str, Any]) -> Out:
        """A visitor takes a free seat (one a bot would play) before the match starts."""
        if peer not in self.admitted:  # no hello with the secret first
            return [(peer, message("closed", reason="secret"))]
        s = msg["seat"]
        if self.started or not 1 <= s <= 3 or self.seats[s].kind != "bot" \
                or self.seat_of(peer) is not None:
            return [(peer, message("refused", code="room.seat_taken", action=f"sit {s}"))]
        token = self.tokens()
        self.seats[s] = Seat("guest", clean_name(msg["name"], str(s + 1)), token, peer, True)
        return [(peer, message("seated", seat=s, token=token))] + self.lobby_to_all()

    def drop(self, peer: str) -> Out:
        """A guest's connection closed: its seat waits (reconnecting) for it."""
        self.admitted.discard(peer)
        s = self.seat_of(peer)
        if s is None:
            return []
        self.seats[s].online = False
        self.seats[s].peer = None
        return self.lobby_to_all() + [
            (p, message("notice", kind="reconnecting", seat=turned(s, self.seat_of(p) or 0)))
            for p in self.peers()]

    # ------------------------------------------------------------ the referee

    def check(self, peer: str, msg: dict[str, Any], match: Match) -> Action | CoreError:
        """The host-numbered action a guest's ``act`` message asks for, if it may be
        played now; otherwise the reason it is refused (nothing is changed either way)."""
        seat = self.seat_of(peer)
        if seat is None or not self.started:
            return CoreError("room.not_seated", "action")
        game = match.game
        if msg["hand"] != match.hand_no or msg["step"] != seen_step(game, seat):
            return CoreError("room.late", "action", hand=msg["hand"], step=msg["step"])
        try:
            mine = Action.parse(msg["action"])
        except CoreError as e:
            return e
        if mine.seat != 0:  # a guest's own seat is 0 at its table
            return CoreError("room.not_yours", "action", text=msg["action"][:40])
        action = turn_action(mine, (4 - seat) % 4)
        if seat not in game.to_move():
            return CoreError("room.not_your_turn", "action")
        if action not in game.legal_actions(seat):
            return CoreError("room.illegal", "action", text=msg["action"][:40])
        return action

    def time_left(self, match: Match, now: float) -> float:
        """Seconds left of the turn timer at ``now`` (any clock the caller keeps). A claim
        window is timed once from the discard (or 加杠) that opened it: one person's answer
        doesn't give the others a fresh timer."""
        window = (match.hand_no, window_start(match.game))
        if window != self._window:
            self._window, self._opened = window, now
        return max(0.0, self.timer - (now - self._opened))

    def state(self, seat: int, match: Match, events: list[dict[str, Any]],
              full: bool = False) -> str:
        """What the guest at ``seat`` is sent after a change: its observation and legal
        actions, the scores and names, all turned to its table, and the public ``events``.
        When a hand is over (or ``full``: a guest just sat down again) it also carries the
        record of the finished hands (:meth:`history`, packed: :func:`pack_record`), so the
        guest's table shows the end exactly and the guest can export the match."""
        view = self._view(seat, match, self._record(match, full))
        self._last_view[seat] = _text(view)
        return message("state", state={**view, "events": turn_events(events, seat)})

    def states(self, match: Match, events: list[dict[str, Any]]) -> Out:
        """The state of every connected guest whose table changed (see :meth:`state`). A
        change it may not see — another seat's pass or waiting 吃 in a claim window —
        sends it nothing: a message that said nothing would still say someone was asked."""
        out: Out = []
        record = self._record(match, False)  # the same for every guest: packed once
        for s in self.guests():
            peer = self.seats[s].peer
            seen = turn_events(events, s)
            view = self._view(s, match, record)
            text = _text(view)
            if peer is None or not seen and self._last_view.get(s) == text:
                continue
            self._last_view[s] = text
            out.append((peer, message("state", state={**view, "events": seen})))
        return out

    def _record(self, match: Match, full: bool) -> str | None:
        """The packed record a state carries: when the hand is over, or ``full``."""
        return pack_record(self.history(match)) if match.game.over or full else None

    def _view(self, seat: int, match: Match, record: str | None) -> dict[str, Any]:
        game = match.game
        view: dict[str, Any] = {
            "seat": seat, "hand": match.hand_no, "step": seen_step(game, seat),
            "obs": turn_observation(private(game.observation(seat)), seat).to_json(),
            "legal": [str(turn_action(a, seat)) for a in game.legal_actions(seat)],
            "scores": turn_scores(match.scores, seat),
            "names": [self.seats[(i + seat) % 4].public() for i in range(4)],
            "timer": self.timer, "length": match.length,
        }
        if record is not None:
            view["record"] = record
        return view

    @staticmethod
    def history(match: Match) -> dict[str, Any]:
        """The match's record (host-numbered) of its finished hands only: the wall of the
        hand being played stays with the host. Every wall of a room's match is explicit
        (see :func:`deal`), so the seed, left out, would say nothing either."""
        rec = to_record(match)
        done = len(match.results)
        rec["seed"] = 0
        rec["hands"] = rec["hands"][:done]
        rec["results"] = rec["results"][:done]
        if "walls" in rec:
            rec["walls"] = rec["walls"][:done]
        if done == 0:
            rec.pop("wall", None)
        return rec


# answers to a claim or rob window that change nothing anyone else sees until the window
# closes (a 吃 waits for the others' answers; a 抢杠 胡 for theirs); a 自摸 胡 ends the hand
# at once, so leaving it out of the count hides nothing either
QUIET_KINDS = ("pass", "chi", "hu")


def seen_step(game: Game, seat: int) -> int:
    """The ``step`` of ``seat``'s table: its own actions and every other seat's that it
    sees happen; another seat's quiet answer (:data:`QUIET_KINDS`) is left out.

    >>> m = Match(seed=1); seen_step(m.game, 2) == len(m.game.actions)
    True
    """
    return sum(1 for a in game.actions if a.seat == seat or a.kind not in QUIET_KINDS)


def _text(view: dict[str, Any]) -> str:
    """What of a guest's view decides whether it changed: not the names (whose online
    flags change when anyone drops or comes back; the lobby message says that, at once)
    and not the record (a full state carries it): either would make the next quiet answer
    look like a change, and send it."""
    return json.dumps({k: v for k, v in view.items() if k not in ("names", "record")},
                      sort_keys=True, separators=(",", ":"))


def window_start(game: Game) -> int:
    """The index of the action that opened the decision now asked for: the discard or
    加杠 of a claim or rob window, otherwise the next action (each turn is its own).

    >>> m = Match(seed=1); window_start(m.game) == len(m.game.actions)
    True
    """
    if game.phase in (Phase.CLAIM, Phase.ROB):
        for i in range(len(game.actions) - 1, -1, -1):
            if game.actions[i].kind in ("discard", "jiagang"):
                return i
    return len(game.actions)


def deal(entropy: Callable[[], int], options: Options, match: Match | None = None) -> Match:
    """A room's match, or its next hand, dealt from fresh randomness (``entropy`` gives
    64 random bits; the page passes a cryptographic source). Each wall is shuffled from
    its own draw and kept in the record, so a finished hand's wall — which every guest
    sees — says nothing about the next one.

    A room's match is never endless: an endless setting plays the longest match
    (:data:`~sxmj.rules.MAX_MATCH_HANDS` hands), whose whole record still fits the one
    message that brings each hand's end to every guest.

    >>> m = deal(iter([7, 1, 9]).__next__, Options(match_hands=0))
    >>> m.first_wall is not None and m.first_dealer_fixed == 1, m.length
    (True, 99)
    """
    wall = Wall.shuffled(Rng(entropy()))
    if match is None:
        if options.match_hands == 0:
            options = replace(options, match_hands=MAX_MATCH_HANDS)
        return Match(seed=0, options=options, wall=wall, dealer=entropy() % 4)
    match.next_hand(wall)
    return match


ERRORS = ("room.not_seated", "room.late", "room.not_yours", "room.not_your_turn",
          "room.illegal", "room.seat_taken")
