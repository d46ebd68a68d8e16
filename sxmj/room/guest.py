"""A guest's side of a friends room: the table drawn from what the host sends.

A guest has no wall and no other hand, so it holds no :class:`~sxmj.game.Game` while a
hand is played: :class:`SeenGame` answers the few questions the table asks of a game
from the last observation and legal actions the host sent. When a hand is over the host
sends the record of the finished hands; the guest plays the hand it adds (turned to its own
seat) onto the hands it already holds, and from then on the table shows a real finished
:class:`~sxmj.match.Match` — the revealed hands, the result and the running scores exactly as
the host has them.

>>> from sxmj.match import Match
>>> from sxmj.room.host import Room, deal
>>> from sxmj.rules import Options
>>> import json
>>> m = deal(iter(range(1, 99)).__next__, Options())
>>> room = Room("id", "secret", "Host")
>>> table = GuestTable()
>>> table.update(json.loads(room.state(2, m, []))["state"])
>>> table.match.game.observation(0).seat, table.seat
(0, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game import Action, HandResult
from ..match import Match
from ..messages import CoreError
from ..observation import Observation, Observed
from ..record import extend, replay
from ..rules import Options
from .protocol import ProtocolError, parse, turn_action, turn_scores, turned, unpack_record


class SeenGame(Observed):
    """The hand being played, as much of it as this seat may see: what the table's view,
    the assist and the controls read of a game."""

    def __init__(self, obs: Observation, legal: list[Action], step: int,
                 events: list[dict[str, Any]]):
        self.obs = obs
        self.legal = legal
        self.actions: list[None] = [None] * step  # only their number is known (and used)
        self.deal_events = [e for e in events if e.get("type") == "deal"]
        self.result: HandResult | None = None
        self.options: Options = obs.options

    over = False

    @property
    def phase(self) -> str:
        return self.obs.phase

    def to_move(self) -> list[int]:
        return list(self.obs.to_move)

    def observation(self, seat: int) -> Observation:
        if seat != 0:
            raise ValueError("a guest sees only its own seat")
        return self.obs

    def legal_actions(self, seat: int) -> list[Action]:
        return self.legal if seat == 0 else []

    def concealed(self, seat: int) -> list[int]:
        if seat != 0:
            raise ValueError("a guest sees only its own hand")
        return list(self.obs.hand)

    def can_win_now(self, seat: int) -> bool | None:
        """True when 胡 is offered (the table asks before a 财神 discard passes it up)."""
        return True if Action(seat, "hu") in self.legal else None


class SeenMatch:
    """The match while a hand is played: the host's scores, the hands finished so far."""

    def __init__(self, game: SeenGame, scores: list[int], hand_no: int, length: int,
                 done: Match | None):
        self.game = game
        self.scores = scores
        self.hand_no = hand_no
        self.options = game.options
        self.seed = 0
        self.length = length
        self.results = list(done.results) if done is not None else []
        self.finished = False

    def places(self) -> list[int]:
        return [1 + sum(other > mine for other in self.scores) for mine in self.scores]


def turn_record(record: dict[str, Any], viewer: int, since: int = 0) -> dict[str, Any]:
    """A room's record (host-numbered, every wall explicit) as ``viewer``'s table numbers
    the seats: the same hands, dealt the same way, with ``viewer`` at seat 0. Hands before
    ``since`` are left empty (a table that has played them turns only the new ones)."""
    out = dict(record)
    out["dealer"] = turned(record.get("dealer", 0), viewer)
    out["hands"] = [[] if i < since else [str(turn_action(Action.parse(a), viewer))
                                          for a in hand]
                    for i, hand in enumerate(record["hands"])]
    if "results" in record:
        out["results"] = [{"winner": None if r["winner"] is None else turned(r["winner"], viewer),
                           "payments": turn_scores(r["payments"], viewer)}
                          for r in record["results"]]
    return out


def _wall(record: dict[str, Any], hand: int) -> Any:
    """Hand ``hand``'s wall as the record gives it (None: dealt from the seed, or the first)."""
    walls = record.get("walls") or []
    return walls[hand] if hand < len(walls) else None


@dataclass(frozen=True)
class Arrival:
    """What a guest's page does about one message from its host (:meth:`GuestTable.receive`):
    the guest's own bookkeeping (the table, the lobby) is done; the rest is the page's to
    show. Every seat in it is numbered as this table numbers them (its own is 0).

    - ``kind``: the message's type (``lobby``, ``seated``, ``state``, ``refused``, ``said``,
      ``notice``, ``closed``, ``pong``); ``""`` when it was dropped (``dropped`` says why).
    - ``lobby``: the room's lobby changed (:attr:`GuestTable.lobby`): redraw it.
    - ``seat`` and ``token``: this browser sits at ``seat`` of the host's table; keep the
      token, which takes the seat back after a reload.
    - for a ``state``: ``first`` (the first table this guest gets), ``dealt`` (a hand was
      dealt: start the new hand's notes and sounds, else note and sound ``events``),
      ``ended`` (the hand on the table just ended), ``timer`` (seconds this seat has for its
      decision, None when it has none to make).
    - ``refused``: ``(code, action)``, the host refused this table's move.
    - ``said``: ``(seat, phrase)``; ``notice``: ``(kind, seat)`` (``timeout``,
      ``reconnecting`` or ``back``).
    - ``closed``: the host closed this connection, and why (``secret``, ``removed``, ...).
    - ``vote``: a 解散 vote changed (:attr:`GuestTable.vote`: who asked, each answer, the
      seconds it waits, its ``result``: ``open``, ``kept`` or ``dissolved``).
    - ``match_ended``: the match ended early (``dissolved``): the table now holds its finished
      hands (:attr:`GuestTable.done`), the hand being played is void.
    - ``away``: this seat is on 托管 (its turn timer ran out twice): its page plays for it.
    """

    kind: str = ""
    dropped: CoreError | None = None
    lobby: bool = False
    seat: int | None = None
    token: str = ""
    first: bool = False
    dealt: bool = False
    ended: bool = False
    timer: int | None = None
    events: tuple[dict[str, Any], ...] = ()
    refused: tuple[str, str] | None = None
    said: tuple[int, str] | None = None
    notice: tuple[str, int] | None = None
    closed: str = ""
    vote: dict[str, Any] | None = None
    match_ended: str = ""
    away: bool | None = None


class GuestTable:
    """What a guest knows: its seat, the last state the host sent, and the record of the
    finished hands (host-numbered: the one any player exports)."""

    def __init__(self) -> None:
        self.seat = 0
        self.state: dict[str, Any] | None = None
        self.record: dict[str, Any] | None = None
        self.done: Match | None = None  # the finished hands, replayed at this seat
        self.live: SeenMatch | None = None
        self.events: list[dict[str, Any]] = []
        self.lobby: dict[str, Any] | None = None  # the room as the host last showed it
        self.vote: dict[str, Any] | None = None  # the last 解散 vote the host showed
        self.ended = ""  # "dissolved": the players ended the match early

    def receive(self, text: str) -> Arrival:
        """One message from the host: what it changes at this table, and what the page
        shows (:class:`Arrival`). Never raises: a message that isn't the host's, or a state
        that doesn't hold together, comes back ``dropped`` and changes nothing.

        >>> from sxmj.room.protocol import message
        >>> t = GuestTable()
        >>> t.receive(message("said", seat=3, phrase="gg")).said
        (3, 'gg')
        >>> t.receive('{"v":1,"t":"state","state":{}}').dropped.code
        'room.field'
        """
        try:
            msg = parse(text, "host")
            kind = msg["t"]
            if kind == "state":
                return self._state(msg["state"])
            if kind == "vote":
                self.vote = _vote(msg["vote"])
                return Arrival(kind, vote=self.vote)
            if kind == "ended":
                return self._ended(msg["why"], msg["record"])
        except CoreError as e:
            return Arrival(dropped=e)
        if kind == "lobby":
            self.lobby = msg["room"]
            return Arrival(kind, lobby=True)
        if kind == "seated":
            return Arrival(kind, seat=msg["seat"], token=msg["token"])
        if kind == "refused":
            return Arrival(kind, refused=(msg["code"], msg["action"]))
        if kind == "said":
            return Arrival(kind, said=(msg["seat"] % 4, msg["phrase"]))
        if kind == "notice":
            return Arrival(kind, notice=(msg["kind"], msg["seat"] % 4))
        if kind == "closed":
            return Arrival(kind, closed=msg["reason"])
        if kind == "away":
            return Arrival(kind, away=msg["on"])
        return Arrival(kind)  # pong: the host is there

    def _ended(self, why: str, packed: str) -> Arrival:
        """The match ended early: the finished hands' record replaces the hand being
        played (which is void). A record that doesn't replay changes nothing."""
        if why != "dissolved":
            raise ProtocolError("room.field", name="why", type="ended")
        record = unpack_record(packed)
        try:
            done = replay(turn_record(record, self.seat)) if record.get("hands") else None
        except (CoreError, KeyError, TypeError, ValueError, IndexError):
            raise ProtocolError("room.record") from None
        self.record, self.done, self.ended, self.vote = record, done, why, None
        return Arrival("ended", match_ended=why)

    def _state(self, state: dict[str, Any]) -> Arrival:
        first, before = self.state is None, self.over
        try:
            self.update(state)
        except KeyError as e:  # a state without one of its fields: changes nothing
            raise ProtocolError("room.field", name=str(e.args[0])[:40], type="state") from None
        except (TypeError, ValueError, IndexError, AttributeError):
            raise ProtocolError("room.field", name="state", type="state") from None
        live = self.live
        deciding = live is not None and bool(live.game.legal) and not self.over
        return Arrival("state", first=first,
                       dealt=first or any(e.get("type") == "deal" for e in self.events),
                       ended=self.over and not before, events=tuple(self.events),
                       timer=int(state.get("timer", 20)) if deciding else None)

    def update(self, state: dict[str, Any], record: dict[str, Any] | None = None) -> None:
        """Take a ``state`` message's content (checked: malformed content raises
        CoreError and changes nothing). ``record``: the finished hands' record as a value,
        for the host's own table (:meth:`sxmj.room.host.Room.seen`); a guest's comes packed
        in the state."""
        obs = Observation.from_json(state["obs"])
        legal = [a if isinstance(a, Action) else Action.parse(a) for a in state["legal"]]
        if record is None and state.get("record") is not None:
            record = unpack_record(state["record"])
        # every field read and checked before the finished hands are played on (which
        # changes them)
        seat, step, events, hand = state["seat"], state["step"], state["events"], state["hand"]
        scores, length = state["scores"], state.get("length", 0)
        for name, value, low, high in (("seat", seat, 0, 3), ("step", step, 0, None),
                                       ("hand", hand, 0, None), ("length", length, 0, None)):
            if type(value) is not int or value < low or high is not None and value > high:
                raise ProtocolError("room.field", name=name, type="state")
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise ProtocolError("room.field", name="events", type="state")
        if not isinstance(scores, list) or len(scores) != 4 or \
                not all(type(x) is int for x in scores):
            raise ProtocolError("room.field", name="scores", type="state")
        scores = list(scores)
        game = SeenGame(obs, legal, step, events)
        done = self.done
        if record is not None and (self.record is None or record != self.record):
            done = self._grown(record, seat)
        live = SeenMatch(game, scores, hand, length, done)
        self.seat, self.state, self.events, self.live = seat, state, events, live
        if record is not None:
            self.record, self.done = record, done

    def _grown(self, record: dict[str, Any], seat: int) -> Match:
        """The finished hands of ``record`` replayed at ``seat``: only the new hands when it
        is the record already held with hands added (a long match costs each hand once),
        else all of them."""
        old, done = self.record, self.done
        held = 0 if old is None else len(old["hands"])
        grows = (old is not None and done is not None and seat == self.seat
                 and len(record["hands"]) > held and record["hands"][:held] == old["hands"]
                 and all(record.get(k) == old.get(k) for k in set(record) | set(old)
                         if k not in ("hands", "walls", "results"))
                 and all(_wall(record, i) == _wall(old, i) for i in range(held)))
        if not grows:
            return replay(turn_record(record, seat))
        assert done is not None and old is not None
        try:
            return extend(done, turn_record(record, seat, since=held))
        except (CoreError, KeyError, TypeError, ValueError, IndexError):
            # a hand that doesn't play: the hands held are played again, as they were
            self.done = replay(turn_record(old, seat))
            raise

    @property
    def over(self) -> bool:
        """The hand on the table is finished (its record has arrived), or the match was
        ended early with a hand finished."""
        if self.ended:
            return self.done is not None
        return (self.live is not None and self.done is not None
                and len(self.done.results) > self.live.hand_no)

    @property
    def match(self) -> Any:
        """What the table draws: the replayed match once the hand is over, else the hand
        as seen (both answer the table's questions the same way)."""
        if self.over:
            return self.done
        return self.live

    def step(self) -> tuple[int, int]:
        """The state an action chosen now answers (hand, step): the host refuses it if the
        table has moved on."""
        assert self.state is not None
        return self.state["hand"], self.state["step"]


def _vote(vote: dict[str, Any]) -> dict[str, Any]:
    """A vote as the host shows it, checked field by field (ProtocolError otherwise)."""
    def seats(value: Any) -> bool:
        return isinstance(value, list) and len(value) <= 4 and all(
            type(s) is int and 0 <= s <= 3 for s in value)

    ok = (type(vote.get("by")) is int and 0 <= vote["by"] <= 3
          and all(seats(vote.get(k)) for k in ("yes", "no", "waiting"))
          and type(vote.get("seconds")) is int and 0 <= vote["seconds"] <= 3600
          and vote.get("result") in ("open", "kept", "dissolved") and len(vote) == 6)
    if not ok:
        raise ProtocolError("room.field", name="vote", type="vote")
    return vote


__all__ = ["GuestTable", "SeenGame", "SeenMatch", "turn_record"]
