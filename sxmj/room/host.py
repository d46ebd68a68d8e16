"""The host's side of a friends room: who sits where, what each guest is sent, and which
of a guest's actions are accepted.

The host's browser owns the :class:`~sxmj.match.Match` and is the referee. Each guest
gets only its own seat's observation (turned so it sits at the bottom), the public
events, and — once a hand is over, when every hand lies open — that hand's record, so its
table can show the end exactly and any player can export the match. Nothing here sends
or waits: the page's transport delivers the messages :class:`Room` returns, and its
clock runs the turn timers (the core reads no clock).

Every message a guest sends goes to :meth:`Room.receive`, which decides it and says what
the page must do (a :class:`Reception`: the move to apply, the replies, and so on); every
move of the host's own person goes to :meth:`Room.local`. A move is accepted only if it
names the state it was chosen in (``hand`` and ``step``: a late or repeated action no
longer does), comes from a seat that must decide now, and is one of that seat's legal
actions. Anything else is refused with a reason, and the match is untouched. The room and
its match are kept for a reload by :meth:`Room.to_json` and :meth:`Room.from_json`.

A guest's ``step`` counts only what it may know happened (:func:`seen_step`), and a guest
is sent a state only when its table changes (:meth:`Room.states`): another seat's quiet
answer to a claim window — a pass, a 吃 still waiting on the others — sends nothing and
counts nothing, so no guest can count who else was asked (who holds a pair of the tile).
Only a turn timer running out is told to everyone, as the room's rules say: then that seat
was asked.

>>> from sxmj.match import Match
>>> room = Room("r" * 20, "s" * 20, "Host", tokens=iter(["t1", "t2"]).__next__)
>>> got = room.receive("peer-a", message("hello", secret="s" * 20, name="Ann", token=None))
>>> got.replies[0][1].startswith('{"v":1,"t":"lobby"')
True
>>> got = room.receive("peer-a", message("sit", seat=2, name="Ann"))
>>> [json.loads(text)["t"] for _, text in got.replies], got.lobby, got.save
(['seated', 'lobby'], True, True)
>>> room.seats[2].name, room.seats[2].kind
('Ann', 'guest')
"""

from __future__ import annotations

import hmac
import json
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any

from ..game import Action, Game, Phase
from ..match import Match
from ..messages import CoreError
from ..record import dumps, replay, to_record
from ..request import read_json
from ..rules import BASE_FLOWERS, MAX_MATCH_HANDS, Options
from ..wall import Rng, Wall
from .limits import Meter
from .protocol import (
    EMOJI,
    NAME_CHARS,
    PHRASES,
    ProtocolError,
    clean_name,
    message,
    pack_record,
    parse,
    private,
    turn_action,
    turn_events,
    turn_observation,
    turn_scores,
    turned,
)

Out = list[tuple[str, str]]  # (peer id, wire message)
HOST = 0  # the host's seat: its person plays there, its page runs the match
TIMER_DEFAULT = 20  # seconds a human has for a decision before their bot plays it
TIMER_CHOICES = (10, 20, 30, 60)
HANDS_CHOICES = (4, 8, 16)  # 局数 a room may play (an evening: 4, 8 or 16 hands)
HANDS_DEFAULT = 8
GRACE = 10  # seconds a dropped guest's seat waits before the bot covers it
VOTE_SECONDS = 60  # 解散: a vote's unanswered seats count as agreeing after this long
AWAY_AFTER = 2  # turn timers run out in a row before a seat goes on 托管


@dataclass
class Seat:
    """One chair: the host's (0), a guest's, or a bot's (nobody took it)."""

    kind: str = "bot"  # "host", "guest" or "bot"
    name: str = ""
    token: str = ""  # the guest's seat token: a reload or the link again finds the seat
    peer: str | None = None  # the guest's connection while it is connected
    online: bool = False
    away: bool = False  # 托管: the person's own browser plays for them until they are back

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "online": self.online,
                "away": self.away}


@dataclass
class Vote:
    """A 解散 vote: the seat that proposed it, when (the page's clock), and each answer so
    far (host-numbered seats; the proposer's is yes)."""

    by: int
    opened: float
    answers: dict[int, bool]

    def public(self, viewer: int, voters: list[int], left: float, result: str) -> dict[str, Any]:
        """The vote as the seat ``viewer`` is shown it (its seats turned to its table)."""
        def seats(which: bool | None) -> list[int]:
            return sorted(turned(s, viewer) for s in voters if self.answers.get(s) is which)

        return {"by": turned(self.by, viewer), "yes": seats(True), "no": seats(False),
                "waiting": seats(None), "seconds": max(0, round(left)), "result": result}


@dataclass(frozen=True)
class Reception:
    """What the page does about one message the room received (:meth:`Room.receive`) or one
    move of the host's own person (:meth:`Room.local`). Nothing in it has been done to the
    match yet; the room's own bookkeeping (who sits where, who is online) is done.

    - ``kind``: the message's type (``hello``, ``sit``, ``act``, ``ready``, ``say``,
      ``ping``, ``dissolve``, ``away``); ``""`` when it was dropped unread.
    - ``action``: a checked move, host-numbered: apply it to the match (then send every
      guest its state, as after any move). None: nothing to play.
    - ``replies``: ``(peer, wire message)`` pairs to send, in order.
    - ``refused``: why the message was not acted on, when the room has a code for it — a
      :class:`~sxmj.room.protocol.ProtocolError` for a message dropped unread (malformed,
      oversized, another version: :attr:`dropped`), or the referee's refusal of a move or a
      seat (its ``refused`` reply is in ``replies``). None otherwise: a wrong invite secret
      is answered (``closed``, in ``replies``), and a stray ``ready`` or ``say`` is ignored.
    - ``back``: a guest's seat that is online again (its token, or its connection, said
      hello): it no longer waits out a grace period, and the host's table may say so.
    - ``ready``: a seat that is ready for the next hand (it saw the hand being played end).
    - ``said``: ``(seat, phrase)``, host-numbered: show the bubble at the host's table (the
      guests' ``said`` messages are in ``replies``).
    - ``lobby``: the lobby (the seats, who is online) changed: redraw it.
    - ``save``: what :meth:`Room.to_json` keeps changed (a seat was taken): save the room.
      A move changes the match, which the page saves when it applies it. Nothing else is
      saved: a dropped, refused or stranger's message writes nothing.
    - ``vote``: a 解散 vote changed (opened, answered, refused): show it (:attr:`Room.vote`).
    - ``ended``: why the match just ended early (``dissolved``): show its summary; every
      guest got its record (``replies``). Nothing more is played.
    - ``away``: a seat whose 托管 changed (host-numbered): redraw its plate; at
      :data:`HOST`, this page's own person's bot starts (or stops) playing.
    - ``cut``: the connection went past its limits (:mod:`sxmj.room.limits`): close it and
      tell the host. ``offline``: the seats it held, already marked offline (``replies``
      tells the others).
    """

    kind: str = ""
    action: Action | None = None
    replies: Out = field(default_factory=list)
    refused: CoreError | None = None
    back: int | None = None
    ready: int | None = None
    said: tuple[int, str] | None = None
    lobby: bool = False
    save: bool = False
    cut: bool = False
    offline: tuple[int, ...] = ()
    vote: bool = False
    ended: str = ""
    away: int | None = None

    @property
    def dropped(self) -> bool:
        """The message was not a message of this table (log it; it was never acted on)."""
        return isinstance(self.refused, ProtocolError)


class Room:
    """One room: its id, its invite secret, the four seats, and the referee's checks.

    ``tokens`` makes seat tokens (the page passes a cryptographic source). Every method
    that changes something returns what to send, as ``(peer, message)`` pairs.

    The page hands every guest's message to :meth:`receive` and every move of the host's
    own person to :meth:`local`: both go through the same referee (:meth:`check`). Once
    the match starts (:meth:`start`) the room holds it (``match``), so that it can judge a
    move and be saved whole (:meth:`to_json`, :meth:`from_json`); the page still applies
    each move, deals each hand and runs the clock.
    """

    def __init__(self, room_id: str, secret: str, host_name: str, level: str = "normal",
                 timer: int = TIMER_DEFAULT, tokens: Callable[[], str] = lambda: "",
                 number: str = ""):
        self.room_id = room_id
        self.secret = secret
        # the 房号 a friend may type instead of opening the link ("": none): it admits to the
        # lobby only; a seat then needs an open room or the host's approval
        self.number = number
        self.level = level
        self.timer = timer
        self.tokens = tokens
        self.seats = [Seat("host", clean_name(host_name, "1"), online=True)] + [
            Seat() for _ in range(3)]
        self.started = False
        self.match: Match | None = None  # the room's match, once it has started
        self.ready: set[int] = set()  # seats that asked for the next hand (HOST included)
        # connections that gave the invite's secret: only they may take a seat (the room id
        # alone, which the broker sees, gets nobody in)
        self.admitted: set[str] = set()
        self.knocked: set[str] = set()  # connections that gave the 房号 (the lobby only)
        # 房号-joiners asking for a seat of the locked room: connection → (seat, name)
        self.waiting: dict[str, tuple[int, str]] = {}
        self._window: tuple[int, int] = (-1, -1)  # the decision window being timed
        # per guest seat: the last state it was sent, without its events (see states())
        self._last_view: dict[int, str] = {}
        self._opened = 0.0  # when it opened (the caller's clock)
        self.locked = False  # no more seats taken (the host's lock, before the start)
        # the match's terms, chosen before the start and shown in the invite: 局数 and 底花
        self.hands = HANDS_DEFAULT
        self.base = BASE_FLOWERS[0]
        self.meters: dict[str, Meter] = {}  # per connection: its rate limits (limits.py)
        self.cut_off: set[str] = set()  # connections cut for flooding: never heard again
        self.vote: Vote | None = None  # a 解散 vote under way
        self.ended = ""  # "dissolved" once the players voted the match over
        self.timeouts = [0, 0, 0, 0]  # per seat: turn timers run out in a row
        # the page's clock's seconds per second of the room's timers (1; the tests'
        # ?timescale= makes a turn timer or a vote's wait short)
        self.scale = 1.0
        self._now = 0.0  # the page's clock at the message being received

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
                "started": self.started, "level": self.level, "timer": self.timer,
                "locked": self.locked, "hands": self.hands, "base": self.base}

    def choose(self, hands: int, base: int) -> Out:
        """The match's terms (局数 ``hands``, one of :data:`HANDS_CHOICES`; 底花 ``base``,
        one of :data:`sxmj.rules.BASE_FLOWERS`), before the start; every guest is shown them.
        Anything else changes nothing.

        >>> room = Room("r", "s" * 20, "Host")
        >>> _ = room.choose(4, 10); room.hands, room.base
        (4, 10)
        >>> room.choose(5, 10), room.hands
        ([], 4)
        """
        if self.started or hands not in HANDS_CHOICES or base not in BASE_FLOWERS:
            return []
        self.hands, self.base = hands, base
        return self.lobby_to_all()

    def options(self, rules: Options) -> Options:
        """The room's match options: the host's ``rules`` with the room's 局数 and 底花."""
        return replace(rules, match_hands=self.hands, base_flowers=self.base)

    def lobby_to_all(self) -> Out:
        """The lobby, sent to every guest online (after any change to the seats)."""
        text = message("lobby", room=self.lobby())
        return [(p, text) for p in self.peers()]

    def peers(self) -> list[str]:
        return [seat.peer for seat in self.seats if seat.peer is not None and seat.online]

    def hello(self, peer: str, msg: dict[str, Any]) -> Out:
        """A browser opened the link: a wrong secret is turned away; a known seat token
        takes its seat back; anyone else is shown the lobby."""
        if not _same(msg["secret"], self.secret):
            return [(peer, message("closed", reason="secret"))]
        self.admitted.add(peer)
        return self._retake(peer, msg["token"])

    def knock(self, peer: str, msg: dict[str, Any]) -> Out:
        """A browser typed the 房号: a wrong number (or a room without one) is turned away,
        with nothing of the room; a known seat token takes its seat back; anyone else is
        shown the lobby, and never the invite's secret.

        >>> room = Room("r", "s" * 20, "Host", number="123456")
        >>> [json.loads(t)["t"] for _, t in room.knock("p", {"number": "123457", "token": None})]
        ['closed']
        >>> [json.loads(t)["t"] for _, t in room.knock("p", {"number": "123456", "token": None})]
        ['lobby']
        """
        if not self.number or not _same(msg["number"], self.number):
            return [(peer, message("closed", reason="number"))]
        self.knocked.add(peer)
        return self._retake(peer, msg["token"])

    def _retake(self, peer: str, token: str | None) -> Out:
        """An admitted connection: its seat token takes its seat back, else the lobby."""
        held = self.seat_of(peer)
        for s, seat in enumerate(self.seats):
            if seat.kind == "guest" and token and _same(token, seat.token):
                if held is not None and held != s:  # one connection, one seat
                    return [(peer, message("refused", code="room.one_seat", action=""))]
                if seat.peer is not None and seat.peer != peer:
                    # the token moved: the old connection holds none
                    self.admitted.discard(seat.peer)
                    self.knocked.discard(seat.peer)
                # a page that comes back starts without 托管 (the page that played for the
                # seat is gone): every plate says so, and its timeouts count afresh
                seat.peer, seat.online, seat.away = peer, True, False
                self.timeouts[s] = 0
                out = [(peer, message("seated", seat=s, token=seat.token))]
                out += self.lobby_to_all()
                out += [(p, message("notice", kind="back", seat=turned(s, self.seat_of(p) or 0)))
                        for p in self.peers() if p != peer]
                return out
        return [(peer, message("lobby", room=self.lobby()))]

    def sit(self, peer: str, msg: dict[str, Any]) -> Out:
        """A visitor takes a free seat (one a bot would play) before the match starts."""
        return self._sit(peer, msg)[0]

    def _sit(self, peer: str, msg: dict[str, Any]) -> tuple[Out, CoreError | None]:
        by_number = peer in self.knocked and peer not in self.admitted
        if peer not in self.admitted and not by_number:  # no hello with the secret first
            return [(peer, message("closed", reason="secret"))], None
        s = msg["seat"]
        if self.locked and not self.started and not by_number:
            refused = CoreError("room.locked", "seat")
            return [(peer, message("refused", code=refused.code, action=""))], refused
        if self.started or not 1 <= s <= 3 or self.seats[s].kind != "bot" \
                or self.seat_of(peer) is not None:
            refused = CoreError("room.seat_taken", "seat")
            return [(peer, message("refused", code=refused.code, action=f"sit {s}"))], refused
        name = self.unique_name(clean_name(msg["name"], str(s + 1)), s)
        if self.locked and by_number:  # the host approves (or not) a 房号-joiner's seat
            self.waiting[peer] = (s, name)
            return [(peer, message("notice", kind="waiting", seat=s))], None
        return self._seat(peer, s, name), None

    def _seat(self, peer: str, s: int, name: str) -> Out:
        token = self.tokens()
        self.seats[s] = Seat("guest", name, token, peer, True)
        self.waiting.pop(peer, None)
        return [(peer, message("seated", seat=s, token=token))] + self.lobby_to_all()

    def approve(self, seat: int) -> Out:
        """The host lets the 房号-joiner who asked for ``seat`` of the locked room take it
        (``friends-approve``); when the seat was taken meanwhile, the joiner is told.

        >>> room = Room("r", "s" * 20, "Host", number="123456", tokens=lambda: "t")
        >>> _ = room.lock(True); _ = room.knock("p", {"number": "123456", "token": None})
        >>> [json.loads(t)["kind"] for _, t in room.sit("p", {"seat": 2, "name": "Bo"})]
        ['waiting']
        >>> room.seats[2].kind, [json.loads(t)["t"] for _, t in room.approve(2)][0]
        ('bot', 'seated')
        >>> room.seats[2].name
        'Bo'
        """
        peer = next((p for p, (s, _) in self.waiting.items() if s == seat), None)
        if peer is None or self.started:
            return []
        _, name = self.waiting.pop(peer)
        if self.seats[seat].kind != "bot" or self.seat_of(peer) is not None:
            return [(peer, message("refused", code="room.seat_taken", action=f"sit {seat}"))]
        return self._seat(peer, seat, self.unique_name(name, seat))

    def waiting_list(self) -> list[tuple[int, str]]:
        """The 房号-joiners waiting for the host's approval: (seat asked for, name)."""
        return sorted(self.waiting.values())

    def drop(self, peer: str) -> Out:
        """A guest's connection closed: every seat it held waits (reconnecting) for it."""
        self.admitted.discard(peer)
        self.knocked.discard(peer)
        self.waiting.pop(peer, None)
        self.meters.pop(peer, None)
        held = [s for s, seat in enumerate(self.seats) if seat.kind == "guest"
                and seat.peer == peer]
        if not held:
            return []
        for s in held:
            self.seats[s].online = False
            self.seats[s].peer = None
        return self.lobby_to_all() + [
            (p, message("notice", kind="reconnecting", seat=turned(s, self.seat_of(p) or 0)))
            for s in held for p in self.peers()]

    def unique_name(self, name: str, seat: int) -> str:
        """``name``, with a number after it when another seat already shows it (the same
        letters, whatever their case or width): nobody can pass for the host or a friend.

        >>> room = Room("r", "s", "Ann")
        >>> room.unique_name("ann", 2), room.unique_name("Bo", 2)
        ('ann 2', 'Bo')
        """
        def key(text: str) -> str:
            return unicodedata.normalize("NFKC", text).casefold()

        taken = {key(st.name) for s, st in enumerate(self.seats) if s != seat
                 and st.kind != "bot"}
        if key(name) not in taken:
            return name
        for n in range(2, 9):
            candidate = f"{name[:NAME_CHARS - 2]} {n}"
            if key(candidate) not in taken:
                return candidate
        return str(seat + 1)

    def remove(self, seat: int) -> Out:
        """The host removes the guest at ``seat`` before the match starts: the seat is free
        again (another friend may take it) and the guest is told (``closed``, ``removed``).
        After the start nothing is removed (a dropped guest's bot covers the seat)."""
        if self.started or not 1 <= seat <= 3 or self.seats[seat].kind != "guest":
            return []
        peer = self.seats[seat].peer
        self.seats[seat] = Seat()
        out: Out = []
        if peer is not None:
            self.admitted.discard(peer)
            self.knocked.discard(peer)
            out.append((peer, message("closed", reason="removed")))
        return out + self.lobby_to_all()

    def lock(self, locked: bool) -> Out:
        """The host locks (or opens) the room before the start: no seat is taken while it is
        locked. Every guest's lobby says so."""
        if self.started or locked == self.locked:
            return []
        self.locked = locked
        return self.lobby_to_all()

    # ------------------------------------------------------------ the referee

    def check(self, peer: str, msg: dict[str, Any], match: Match) -> Action | CoreError:
        """The host-numbered action a guest's ``act`` message asks for, if it may be
        played now; otherwise the reason it is refused (nothing is changed either way)."""
        seat = self.seat_of(peer)
        if seat is None or not self.started:
            return CoreError("room.not_seated", "action")
        if self.ended:
            return CoreError("room.ended", "action")
        late = _late(seat, msg["hand"], msg["step"], match)
        if late is not None:
            return late
        try:
            mine = Action.parse(msg["action"])  # the wire's text, read once
        except CoreError as e:
            return e
        return self._judge(seat, mine, match)

    def _judge(self, seat: int, mine: Action, match: Match) -> Action | CoreError:
        """:meth:`check` for the person at ``seat``, whoever it is (a guest, or the host),
        once the move is known to answer the state now: ``mine`` as that person's table
        numbers the seats."""
        game = match.game
        if mine.seat != 0:  # a person's own seat is 0 at their table
            return CoreError("room.not_yours", "action", text=str(mine))
        action = turn_action(mine, (4 - seat) % 4)
        if seat not in game.to_move():
            return CoreError("room.not_your_turn", "action")
        if action not in game.legal_actions(seat):
            return CoreError("room.illegal", "action", text=str(mine))
        return action

    # ------------------------------------------------------------ one message in

    def receive(self, peer: str, text: str, now: float | None = None) -> Reception:
        """Everything the room does about one message ``text`` from the connection ``peer``,
        and what the page must do about it (:class:`Reception`). Anything that is not a
        guest's message of this table is dropped unread (``refused`` says why); a move is
        judged by :meth:`check`. The match is never changed here: the page applies
        ``action``. Never raises.

        ``now`` (seconds, the page's clock) meters the connection (:mod:`sxmj.room.limits`):
        a message over its type's limit is dropped unread (``room.flood``), and a connection
        that goes on is cut (``cut``: its seats are marked offline here). A connection that
        never gave the invite's secret is answered a few pings and hellos, and nothing else
        it sends is acted on. None: no limits (the tests' and the command line's rooms).

        >>> room = Room("r", "s" * 20, "Host")
        >>> got = room.receive("p", '{"v":1,"t":"ping"}')
        >>> got.kind, got.replies
        ('ping', [('p', '{"v":1,"t":"pong"}')])
        >>> got = room.receive("p", '{"v":1,"t":"act"}')
        >>> got.dropped, got.refused.code, got.replies
        (True, 'room.field', [])
        """
        if peer in self.cut_off:  # (what the transport still had queued)
            return Reception(refused=ProtocolError("room.flood", type="cut"))
        meter = None if now is None else self.meters.setdefault(peer, Meter())
        try:
            msg = parse(text)
        except ProtocolError as e:
            if meter is not None:
                meter.strikes += 1  # junk counts against the connection too
                if meter.flooding:
                    return self._cut(peer, e)
            return Reception(refused=e)
        stranger = peer not in self.admitted and peer not in self.knocked
        if meter is not None and not meter.allow(msg["t"], now or 0.0, stranger):
            flood = ProtocolError("room.flood", type=msg["t"])
            return self._cut(peer, flood) if meter.flooding else Reception(refused=flood)
        lobby, stored = (self.lobby(), self.waiting_list()), self._stored()
        self._now = now or 0.0
        got = self._receive(peer, msg)
        return replace(got, lobby=(self.lobby(), self.waiting_list()) != lobby,
                       save=self._stored() != stored)

    def _cut(self, peer: str, why: ProtocolError) -> Reception:
        """``peer`` went past its limits: its seats go offline (the page closes it)."""
        held = tuple(s for s, seat in enumerate(self.seats) if seat.kind == "guest"
                     and seat.peer == peer)
        out = self.drop(peer)
        self.cut_off.add(peer)
        return Reception(refused=why, replies=out, cut=True, lobby=bool(out), offline=held)

    def _receive(self, peer: str, msg: dict[str, Any]) -> Reception:
        kind: str = msg["t"]
        if kind in ("hello", "knock"):
            out = self.hello(peer, msg) if kind == "hello" else self.knock(peer, msg)
            s = self.seat_of(peer)
            given = (_same(msg["secret"], self.secret) if kind == "hello" else
                     bool(self.number) and _same(msg["number"], self.number))
            if s is None or not given:
                return Reception(kind, replies=out)
            if self.started and self.match is not None:  # its table, whole, as it was
                out.append((peer, self.state(s, self.match, [], full=True)))
            return Reception(kind, replies=out, back=s)
        if kind == "sit":
            out, refused = self._sit(peer, msg)
            return Reception(kind, replies=out, refused=refused)
        if kind == "act":
            got = (self.check(peer, msg, self.match) if self.match is not None
                   else CoreError("room.not_seated", "action"))
            if isinstance(got, Action):
                self.moved(self.seat_of(peer) or 0)
                return Reception(kind, action=got)
            # the move as this table writes it, never the sender's own text back
            return Reception(kind, refused=got, replies=[(peer, message(
                "refused", code=got.code, action=canonical(msg["action"])))])
        s = self.seat_of(peer)
        if kind == "ready":
            if s is None or self.match is None or msg["hand"] != self.match.hand_no:
                return Reception(kind)
            self.ready.add(s)
            return Reception(kind, ready=s)
        if kind == "say":
            return Reception(kind) if s is None else self.say(s, msg["phrase"])
        if kind == "dissolve":
            if s is None or msg["vote"] not in ("yes", "no"):
                return Reception(kind)
            return self.dissolve(s, msg["vote"] == "yes", self._now)
        if kind == "away":
            if s is None or not self.started or self.ended:
                return Reception(kind)
            out = self.set_away(s, msg["on"])
            return Reception(kind, replies=out, away=s if out else None)
        assert kind == "ping"  # parse() lets no other type through
        return Reception(kind, replies=[(peer, message("pong"))])

    def local(self, action: Action, hand: int | None = None,
              step: int | None = None) -> Reception:
        """A move of the host's own person (seat :data:`HOST`, whose table numbers the seats
        as the match does), judged as a guest's is (:meth:`check`): the page calls it for
        every choice made at the host's table, and applies ``action`` if there is one.
        ``hand`` and ``step`` name the state the choice was made in, as a guest's ``act``
        does (left out: the state now, so only whether the move is legal now is checked).

        >>> from sxmj.rules import Options
        >>> room = Room("r", "s" * 20, "Host")
        >>> _ = room.start(deal(iter(range(1, 9)).__next__, Options()))
        >>> legal = room.match.game.legal_actions(HOST)
        >>> all(room.local(a).action == a for a in legal), room.local(Action(1, "pass")).action
        (True, None)
        >>> room.local(Action(HOST, "hu"), step=999).refused.code
        'room.late'
        """
        match = self.match
        if match is None or not self.started:
            return Reception("act", refused=CoreError("room.not_seated", "action"))
        if self.ended:
            return Reception("act", refused=CoreError("room.ended", "action"))
        late = _late(HOST, match.hand_no if hand is None else hand,
                     seen_step(match.game, HOST) if step is None else step, match)
        got = self._judge(HOST, action, match) if late is None else late
        if isinstance(got, Action):
            self.moved(HOST)
            return Reception("act", action=got)
        return Reception("act", refused=got)

    def host_ready(self) -> None:
        """The host pressed 下一局."""
        self.ready.add(HOST)

    def all_ready(self) -> bool:
        """Every connected guest and the host asked for the next hand."""
        return set(self.guests()) | {HOST} <= self.ready

    def dealt(self) -> None:
        """The next hand was dealt: everyone is asked again at its end."""
        self.ready = set()

    def say(self, seat: int, phrase: str) -> Reception:
        """A quick phrase or emoji from ``seat`` (host-numbered; the host's own is
        :data:`HOST`): the bubble for the host's table, ``said`` to every guest. Anything
        but the room's own phrases and emoji is ignored."""
        if phrase not in PHRASES and phrase not in EMOJI:
            return Reception("say")
        out = [(peer, message("said", seat=turned(seat, s), phrase=phrase))
               for s in self.guests() if (peer := self.seats[s].peer) is not None]
        return Reception("say", replies=out, said=(seat, phrase))

    def timed_out(self, seat: int) -> Out:
        """Every guest is told that ``seat``'s turn timer ran out (its bot played). The
        :data:`AWAY_AFTER`-th time in a row, the seat goes on 托管 (:meth:`set_away`): its
        own browser plays for it from then on, until its person is back.

        >>> room = Room("r", "s" * 20, "Host")
        >>> _ = room.timed_out(0); room.seats[0].away
        False
        >>> _ = room.timed_out(0); room.seats[0].away
        True
        """
        out = [(peer, message("notice", kind="timeout", seat=turned(seat, s)))
               for s in self.guests() if (peer := self.seats[s].peer) is not None]
        self.timeouts[seat] += 1
        chair = self.seats[seat]
        if self.timeouts[seat] >= AWAY_AFTER and not chair.away:
            out += self.set_away(seat, True)
            if chair.kind == "guest" and chair.peer is not None:  # its own page must know
                out.insert(0, (chair.peer, message("away", on=True)))
        return out

    def moved(self, seat: int) -> None:
        """``seat``'s person chose a move: its run of timeouts is over."""
        self.timeouts[seat] = 0

    def set_away(self, seat: int, on: bool) -> Out:
        """托管 on (or off: "我回来了") for ``seat``: its plate says so at every table.
        Nothing else changes: a move still goes through the referee, whoever chose it (only
        the seat's own browser, which holds its hand, plays for it).

        >>> room = Room("r", "s" * 20, "Host")
        >>> _ = room.set_away(0, True); room.lobby()["seats"][0]["away"]
        True
        """
        chair = self.seats[seat]
        if chair.kind == "bot" or chair.away == on:
            return []
        chair.away = on
        if not on:
            self.timeouts[seat] = 0
        return self.lobby_to_all()

    # ------------------------------------------------------------ 解散: ending by agreement

    def voters(self) -> list[int]:
        """The seats a 解散 vote asks: every person's (the host's and each guest's, online or
        not: one who doesn't answer in time agrees). Bots have no say."""
        return [s for s, seat in enumerate(self.seats) if seat.kind != "bot"]

    def dissolve(self, seat: int, yes: bool, now: float) -> Reception:
        """``seat`` (host-numbered) votes to end the match now (``yes``; the first yes
        proposes it) or against. Any no keeps the match going; every person's yes ends it
        (``ended``): the hand being played is void, every guest gets the record of the
        finished hands, and nothing more is played. ``now`` is the page's clock, in the
        room's seconds (:meth:`vote_due` counts from it).

        >>> from sxmj.rules import Options
        >>> room = Room("r", "s" * 20, "Host")
        >>> _ = room.start(deal(iter(range(1, 9)).__next__, Options()))
        >>> room.dissolve(0, True, 0.0).ended  # nobody else to ask: over at once
        'dissolved'
        >>> room.local(Action(HOST, "pass")).refused.code
        'room.ended'
        """
        if not self.started or self.ended or self.match is None or \
                self.seats[seat].kind == "bot":
            return Reception("dissolve")
        vote = self.vote
        if vote is None:
            if not yes:
                return Reception("dissolve")
            vote = self.vote = Vote(seat, now, {})
        if seat in vote.answers:  # (one answer each: a second changes nothing)
            return Reception("dissolve")
        vote.answers[seat] = yes
        return self._count(now)

    def vote_due(self, now: float) -> Reception:
        """The page's timer: once a vote has waited :data:`VOTE_SECONDS`, every seat that
        has not answered agrees (a player who walked away doesn't hold the table)."""
        vote = self.vote
        if vote is None or now - vote.opened < VOTE_SECONDS * self.scale:
            return Reception("dissolve")
        for s in self.voters():
            vote.answers.setdefault(s, True)
        return self._count(now)

    def vote_left(self, now: float) -> float:
        """Seconds (the page's clock) before the vote under way counts the unanswered seats
        as agreeing."""
        if self.vote is None:
            return 0.0
        return max(0.0, VOTE_SECONDS * self.scale - (now - self.vote.opened))

    def _count(self, now: float) -> Reception:
        vote = self.vote
        assert vote is not None and self.match is not None
        voters = self.voters()
        if False in vote.answers.values():
            result = "kept"
        elif all(vote.answers.get(s) for s in voters):
            result = "dissolved"
        else:
            result = "open"
        left = self.vote_left(now) / self.scale
        out = [(peer, message("vote", vote=vote.public(s, voters, left, result)))
               for s in self.guests() if (peer := self.seats[s].peer) is not None]
        if result == "open":
            return Reception("dissolve", replies=out, vote=True)
        self.vote = None
        if result == "kept":
            return Reception("dissolve", replies=out, vote=True)
        self.ended = "dissolved"
        record = pack_record(self.history(self.match))
        out += [(peer, message("ended", why="dissolved", record=record))
                for s in self.guests() if (peer := self.seats[s].peer) is not None]
        return Reception("dissolve", replies=out, vote=True, ended=self.ended, save=True)

    def vote_shown(self, viewer: int, now: float) -> dict[str, Any] | None:
        """The vote under way as ``viewer``'s table shows it (None: there is none)."""
        if self.vote is None:
            return None
        return self.vote.public(viewer, self.voters(), self.vote_left(now) / self.scale,
                                "open")

    def start(self, match: Match) -> Out:
        """The match begins (dealt by :func:`deal`): the room holds it from now on. Returns
        every guest's whole table (its deal) and then the lobby, which says it started."""
        if self.started:
            return []
        self.started, self.match = True, match
        events = match.game.deal_events
        out = [(peer, self.state(s, match, events, full=True))
               for s in self.guests() if (peer := self.seats[s].peer) is not None]
        return out + self.lobby_to_all()

    def time_left(self, match: Match, now: float) -> float:
        """Seconds left of the turn timer at ``now`` (any clock the caller keeps; its
        seconds, :attr:`scale` of the room's each). A claim window is timed once from the
        discard (or 加杠) that opened it: one person's answer doesn't give the others a
        fresh timer."""
        window = (match.hand_no, window_start(match.game))
        if window != self._window:
            self._window, self._opened = window, now
        return max(0.0, self.timer * self.scale - (now - self._opened))

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

    def seen(self, seat: int, match: Match,
             events: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """What a guest at ``seat`` would be sent after a change (see :meth:`state`), as
        values: the state without its record, and the record of the finished hands once the
        hand is over (else None). The host's own table is drawn from this, for seat
        :data:`HOST` (:meth:`sxmj.room.guest.GuestTable.update`): what a guest in that seat
        would see, no more.

        >>> from sxmj.rules import Options
        >>> room = Room("r", "s" * 20, "Host")
        >>> _ = room.start(deal(iter(range(1, 9)).__next__, Options()))
        >>> state, record = room.seen(HOST, room.match, [])
        >>> state["seat"], record is None, state["legal"] == room.match.game.legal_actions(HOST)
        (0, True, True)
        """
        record = self.history(match) if match.game.over else None
        view = self._view(seat, match, None, wire=False)
        return {**view, "events": turn_events(events, seat)}, record

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

    def _view(self, seat: int, match: Match, record: str | None,
              wire: bool = True) -> dict[str, Any]:
        """A seat's state; ``wire``: its legal actions as the message's text (else as
        actions, for the host's own table: nothing goes to text and back in one page)."""
        game = match.game
        legal = [turn_action(a, seat) for a in game.legal_actions(seat)]
        view: dict[str, Any] = {
            "seat": seat, "hand": match.hand_no, "step": seen_step(game, seat),
            "obs": turn_observation(private(game.observation(seat)), seat).to_json(),
            "legal": [str(a) for a in legal] if wire else legal,
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


    # ------------------------------------------------------------ saved for a reload

    def _stored(self) -> dict[str, Any]:
        """What is kept of the room apart from its match (see :meth:`to_json`)."""
        return {"id": self.room_id, "secret": self.secret, "level": self.level,
                "timer": self.timer, "started": self.started, "locked": self.locked,
                "hands": self.hands, "base": self.base, "ended": self.ended,
                "number": self.number,
                "seats": [{"kind": s.kind, "name": s.name, "token": s.token}
                          for s in self.seats]}

    def to_json(self) -> str:
        """The room and its match as the host's page keeps them for a reload
        (``localStorage["sxmj.room"]``; :meth:`from_json` reads it back)::

            {"id": ..., "secret": ..., "level": "normal", "timer": 20, "started": true,
             "seats": [{"kind": "host", "name": ..., "token": ""}, ...4 seats],
             "match": "<the match's record, as JSON text; empty before it starts>"}

        Who is connected is not kept: after a reload every guest says hello again with its
        seat token, and each guest's seat waits for it meanwhile.

        >>> room = Room("r", "s" * 20, "Host", tokens=lambda: "t")
        >>> Room.from_json(room.to_json()).to_json() == room.to_json()
        True
        """
        match = dumps(self.match) if self.started and self.match is not None else ""
        return json.dumps({**self._stored(), "match": match})

    @classmethod
    def from_json(cls, text: str, levels: Collection[str] | None = None,
                  tokens: Callable[[], str] = lambda: "") -> Room:
        """The room :meth:`to_json` kept (or the page before it: the same text), with its
        match replayed; every guest's seat offline until its guest says hello. ``levels``
        are the bot levels there are (the page passes :data:`sxmj.bots.LEVELS`; the core
        doesn't know the bots), ``tokens`` as for a new room.

        Stored text is anyone's to edit: every field is checked before anything is built,
        and anything this room could not have written raises :class:`SavedRoomError`.

        >>> Room.from_json('{"id": "r"}')
        Traceback (most recent call last):
        ...
        sxmj.room.host.SavedRoomError: saved room: secret is missing
        """
        if not isinstance(text, str):
            raise SavedRoomError(f"not text (got {type(text).__name__})")
        try:
            data = read_json(text, "room")
        except CoreError as e:
            raise SavedRoomError(e.detail) from None
        if not isinstance(data, dict):
            raise SavedRoomError(f"not a JSON object (got {_show(data)})")
        text_ = "a non-empty string"
        room_id = _saved(data, "id", lambda v: isinstance(v, str) and v != "", text_)
        secret = _saved(data, "secret", lambda v: isinstance(v, str) and v != "", text_)
        level = _saved(data, "level", lambda v: isinstance(v, str) and v != "" and (
            levels is None or v in levels), text_ if levels is None else
            "one of " + ", ".join(levels))
        timer = _saved(data, "timer", lambda v: type(v) is int and v in TIMER_CHOICES,
                       "one of " + ", ".join(map(str, TIMER_CHOICES)))
        started = _saved(data, "started", lambda v: type(v) is bool, "true or false")
        seats = _saved(data, "seats", lambda v: isinstance(v, list) and len(v) == 4,
                       "a list of 4 seats")
        chairs = []
        for s, seat in enumerate(seats):
            where = f"seats[{s}]"
            if not isinstance(seat, dict):
                raise SavedRoomError(f"{where} must be an object (got {_show(seat)})")
            kinds = ("host",) if s == HOST else ("guest", "bot")
            kind = _saved(seat, "kind", kinds.__contains__, "one of " + ", ".join(kinds),
                          where)
            name = _saved(seat, "name", lambda v: isinstance(v, str) and len(v) <= NAME_CHARS,
                          f"a string of at most {NAME_CHARS} characters", where)
            token = _saved(seat, "token", lambda v: isinstance(v, str), "a string", where)
            chairs.append(Seat(kind, name, token, None, s == HOST))
        record = data.get("match", "")
        if not isinstance(record, str) or started != (record != ""):
            raise SavedRoomError("match must be the match's record once it has started, and "
                                 f"empty before (started: {_show(started)}, match: "
                                 f"{_show(record)})")
        match = None
        if started:
            try:
                match = replay(record)
            except (ValueError, RecursionError) as e:  # a RecordError, with what is wrong
                raise SavedRoomError(f"match: {e}") from None
        locked = data.get("locked", False)  # (a room kept before the lock had none)
        if type(locked) is not bool:
            raise SavedRoomError(f"locked must be true or false (got {_show(locked)})")
        # (a room kept before its terms were chosen plays the default ones)
        hands = data.get("hands", HANDS_DEFAULT)
        base = data.get("base", BASE_FLOWERS[0])
        if type(hands) is not int or hands not in HANDS_CHOICES:
            raise SavedRoomError(f"hands must be one of {HANDS_CHOICES} (got {_show(hands)})")
        if type(base) is not int or base not in BASE_FLOWERS:
            raise SavedRoomError(f"base must be one of {BASE_FLOWERS} (got {_show(base)})")
        ended = data.get("ended", "")  # (a room kept before 解散 had none)
        if ended not in ("", "dissolved") or ended and not started:
            raise SavedRoomError(f'ended must be "" or "dissolved" once started (got '
                                 f'{_show(ended)})')
        number = data.get("number", "")  # (a room kept before the 房号 had none)
        if not isinstance(number, str) or number and not is_room_number(number):
            raise SavedRoomError(f"number must be 6 digits or empty (got {_show(number)})")
        room = cls(room_id, secret, "", level, timer, tokens, number)
        room.seats, room.started, room.match, room.locked = chairs, started, match, locked
        room.hands, room.base, room.ended = hands, base, ended
        return room


class SavedRoomError(ValueError):
    """A saved room that can't be resumed (:meth:`Room.from_json`); the text says why."""

    def __init__(self, why: str):
        super().__init__(f"saved room: {why}")


def _saved(data: dict[str, Any], key: str, ok: Callable[[Any], bool], want: str,
           where: str = "") -> Any:
    """``data[key]`` if ``ok`` says it is what a saved room holds; else SavedRoomError."""
    name = f"{where}.{key}" if where else key
    if key not in data:
        raise SavedRoomError(f"{name} is missing")
    if not ok(data[key]):
        raise SavedRoomError(f"{name} must be {want} (got {_show(data[key])})")
    return data[key]


NUMBER_DIGITS = 6
NUMBER_PREFIX = "sxmj"  # a room with a 房号 is the broker's peer "sxmj" + its number


def is_room_number(text: str) -> bool:
    """A 房号: six ASCII digits.

    >>> is_room_number("012345"), is_room_number("12345"), is_room_number("１２３４５６")
    (True, False, False)
    """
    return len(text) == NUMBER_DIGITS and text.isascii() and text.isdigit()


def number_room_id(number: str) -> str:
    """The room id (the host's peer on the broker) of the room with this 房号."""
    return NUMBER_PREFIX + number


def canonical(text: str) -> str:
    """A guest's action as this table writes it ("" when it is no action): what a refusal
    says back, never the sender's own text (which may carry anything, lone surrogates too).

    >>> canonical("0  discard 5m"), canonical("\\ud800")
    ('0 discard 5m', '')
    """
    try:
        return str(Action.parse(text))
    except CoreError:
        return ""


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:60] + "…"


def _same(text: str, secret: str) -> bool:
    """``text`` is ``secret`` (compared in constant time; any text, even a lone surrogate
    a JSON escape can carry, is compared, never raised on)."""
    return hmac.compare_digest(text.encode("utf-8", "surrogatepass"),
                               secret.encode("utf-8", "surrogatepass"))


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


def _late(seat: int, hand: int, step: int, match: Match) -> CoreError | None:
    """A move chosen in the state (``hand``, ``step``) that ``seat`` no longer sees: the
    table has moved on since (refused ``room.late``)."""
    if hand != match.hand_no or step != seen_step(match.game, seat):
        return CoreError("room.late", "action", hand=hand, step=step)
    return None


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
          "room.illegal", "room.seat_taken", "room.one_seat", "room.locked", "room.ended")
