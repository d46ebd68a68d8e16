"""How much each connection may send the host: per message type, a bucket of tokens.

A room's host is one browser: every message a peer sends costs it CPU, and some cost the
others too (a ``say`` is relayed to every guest, a ``hello`` tells everyone who is back). So
each connection gets, per message type, a bucket (:class:`Bucket`): ``burst`` messages at
once, refilled at ``rate`` a second. A message over its bucket is not acted on (``over``);
a connection that goes on past its limits — :data:`STRIKES` messages over them — is dropped
(the page closes the connection and tells the host).

The limits are sized for honest play with room to spare, the fair deal's traffic included
(about 130 messages up per human per hand, most of them in a burst while the wall is
shuffled and at each private draw: ``../shared/notes/fair-deal-research.md`` §2):

================  =========  ===========  ============================================
type              burst      per second   why
================  =========  ===========  ============================================
``act``           240        8            the fair deal's shuffle and shares come in bursts
``ready``         4          1            one a hand
``say``           3          0.5          a phrase every 2 s reaches the others; a flood
                                          reaches them as 3 messages
``hello``         3          0.1          a reload; a flood of rejoins is a few "is back"
``knock``         3          0.1          the same by the 房号; a stranger's guesses: 3 at
                                          once, one each 5 s, then cut
``sit``           4          1            choosing a seat
``ping``          5          2            keep-alives
``dissolve``      3          0.2          a 解散 vote: a proposal and an answer; a flood
                                          reaches the others as 3 messages
``away``          4          0.5          托管 on and off
================  =========  ===========  ============================================

A connection that has not given the invite's secret (a stranger: the room id is all the
broker saw) gets :data:`STRANGER` instead: a few ``hello`` and ``ping`` and nothing else
counted, and never anything saved, drawn or relayed for it (:meth:`sxmj.room.host.Room.receive`).
The transport (``static/js/friends-net.js``) also caps every connection as a whole, before
Python sees anything: :data:`WIRE_BURST` messages at once, :data:`WIRE_RATE` a second.

The clock is the caller's (the core reads none): ``now`` in seconds, any origin.

>>> b = Bucket(burst=2, rate=1.0)
>>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

from dataclasses import dataclass, field

# (burst, rate per second) per message type of a seated guest or an admitted visitor
SEATED: dict[str, tuple[float, float]] = {
    "act": (240, 8.0),
    "ready": (4, 1.0),
    "say": (3, 0.5),
    "hello": (3, 0.1),
    "knock": (3, 0.1),
    "sit": (4, 1.0),
    "ping": (5, 2.0),
    "dissolve": (3, 0.2),
    "away": (4, 0.5),
}
# a connection that never gave the secret: a few hellos (a mistyped link) and pings
STRANGER: dict[str, tuple[float, float]] = {"hello": (3, 0.2), "knock": (3, 0.2),
                                             "ping": (3, 1.0)}
STRIKES = 20  # messages over the limits before the connection is dropped
# the transport's cap on a whole connection (= friends-net.js WIRE_BURST, WIRE_RATE; a test
# holds them equal): over it, a connection is closed before Python reads a message
WIRE_BURST = 300
WIRE_RATE = 40.0
# the page's log of dropped messages keeps this many lines
DROPPED_LOG = 50


@dataclass
class Bucket:
    """``burst`` tokens, refilled at ``rate`` a second; a message takes one."""

    burst: float
    rate: float
    tokens: float = -1.0
    at: float | None = None

    def take(self, now: float) -> bool:
        """Take a token at ``now`` (seconds); False when the bucket is empty."""
        if self.at is None:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass
class Meter:
    """One connection's buckets and strikes."""

    buckets: dict[str, Bucket] = field(default_factory=dict)
    strikes: int = 0

    def allow(self, kind: str, now: float, stranger: bool) -> bool:
        """May a message of ``kind`` be acted on now? A stranger's types other than
        :data:`STRANGER`'s never are (and count as strikes)."""
        limits = STRANGER if stranger else SEATED
        key = ("stranger:" if stranger else "") + kind
        if kind not in limits:
            self.strikes += 1
            return False
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(*limits[kind])
        if bucket.take(now):
            return True
        self.strikes += 1
        return False

    @property
    def flooding(self) -> bool:
        """Past its limits for good: the page drops the connection."""
        return self.strikes >= STRIKES


__all__ = ["DROPPED_LOG", "SEATED", "STRANGER", "STRIKES", "WIRE_BURST", "WIRE_RATE", "Bucket",
           "Meter"]
