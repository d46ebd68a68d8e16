"""The seeded random source, the dice, and the wall (牌墙).

Randomness never comes from a global generator: a :class:`Rng` is built from
an integer seed and its state travels with the game, so a seed and a list of
actions replay the same way in CPython and in Pyodide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .messages import CoreError
from .tiles import TileError, caishen_of, code, counts_of, full_set, parse_tiles

_MASK = (1 << 64) - 1
# randbelow's rejection bound for each n a shuffle of the wall meets
_LIMITS = [0] + [(1 << 64) - (1 << 64) % n for n in range(1, 256)]


class Rng:
    """SplitMix64: tiny, fast enough, identical on every Python.

    >>> Rng(7).randbelow(6) == Rng(7).randbelow(6)
    True
    """

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        # Rejection sampling keeps every outcome equally likely.
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        # randbelow and next64 written out in one loop: every hand's wall starts here,
        # and the calls cost more than the arithmetic (the stream is the same)
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < 256 else (1 << 64) - (1 << 64) % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def dice(self) -> tuple[int, int]:
        return self.randbelow(6) + 1, self.randbelow(6) + 1

    def fork(self, n: int) -> Rng:
        """An independent stream for sub-task ``n`` (e.g. hand number n)."""
        return Rng(Rng(self.state ^ (n * 0xD1B54A32D192ED03 & _MASK)).next64())


class WallError(CoreError):
    """An explicit wall that does not hold the 144 tiles exactly once each."""

    def __init__(self, code: str, **params: object):
        super().__init__(code, "wall", **params)


@dataclass
class Wall:
    """The live wall: ``tiles`` in drawing order, head first.

    Draws take from the head, replacements (after a flower or a kong) from
    the tail. The indicator has already been taken out and set aside.
    """

    tiles: list[int]
    indicator: int
    dice: tuple[int, int] = (1, 1)
    head: int = 0
    tail: int = field(default=-1)

    def __post_init__(self) -> None:
        if self.tail < 0:
            self.tail = len(self.tiles)

    @property
    def caishen(self) -> int:
        return caishen_of(self.indicator)

    @property
    def remaining(self) -> int:
        return self.tail - self.head

    def undealt(self) -> Wall:
        """A fresh copy of this wall as it stood before the deal (for replays)."""
        return Wall(list(self.tiles), self.indicator, self.dice)

    def draw_head(self, seat: int) -> int:
        """The next tile from the head, drawn by ``seat`` (one wall: any seat takes the
        same tile; :class:`SeatStreamWall` is where the seat matters)."""
        t = self.tiles[self.head]
        self.head += 1
        return t

    def draw_tail(self, seat: int) -> int:
        """The next replacement tile from the tail, drawn by ``seat``."""
        self.tail -= 1
        return self.tiles[self.tail]

    def live(self) -> list[int]:
        return self.tiles[self.head:self.tail]

    @staticmethod
    def shuffled(rng: Rng) -> Wall:
        """Shuffle, break the wall where the dice say, turn up the indicator.

        The 72 stacks form a ring; the break is ``dice`` stacks into the
        dealer's wall. The indicator is the upper tile of the stack ``dice``
        stacks in from the tail; it is set aside and never drawn.
        """
        tiles = full_set()
        rng.shuffle(tiles)
        dice = rng.dice()
        total = dice[0] + dice[1]
        start = 2 * total
        ring = tiles[start:] + tiles[:start]
        pos = len(ring) - 2 * total
        indicator = ring.pop(pos)
        return Wall(ring, indicator, dice)

    @staticmethod
    def from_tiles(tiles: Sequence[int] | str, indicator: int | str,
                   dice: tuple[int, int] = (1, 1)) -> Wall:
        """An explicit wall: 143 tiles head→tail plus the indicator (all 144 once).

        Used by tests, tutorials and scenarios. Raises :class:`WallError`
        naming the tile that is missing or doubled.
        """
        try:
            seq = parse_tiles(tiles) if isinstance(tiles, str) else list(tiles)
            ind = parse_tiles(indicator) if isinstance(indicator, str) else [indicator]
            if len(ind) != 1:
                raise WallError("tile.one", value=indicator)
        except TileError as e:
            raise WallError(e.code, **e.params) from None
        if not (isinstance(dice, tuple) and len(dice) == 2
                and all(type(d) is int and 1 <= d <= 6 for d in dice)):
            raise WallError("wall.dice", value=dice)
        if any(type(t) is not int or not 0 <= t < 42 for t in seq + ind):
            raise WallError("tile.text", value=tiles)
        have = counts_of(seq + ind)
        want = counts_of(full_set())
        for t in range(len(want)):
            if have[t] != want[t]:
                raise WallError("wall.copies", tile=code(t), have=have[t], want=want[t])
        return Wall(list(seq), ind[0], dice)

    @staticmethod
    def arrange(hands: Sequence[str], draws: str = "", replacements: str = "",
                indicator: str = "1z", dealer: int = 0, rest_seed: int = 0,
                flowers_in_fill: bool = True) -> Wall:
        """A wall that deals the given hands, then draws the given tiles in order.

        ``hands[s]`` is seat s's dealt hand (14 tiles for the dealer, 13 for the
        others; shorter hands are topped up from the rest), ``draws`` the head
        draws that follow, ``replacements`` the tail tiles (first used first).
        The remaining tiles are shuffled with ``rest_seed`` in between; without
        ``flowers_in_fill`` no flower tops up a hand, so scripted tail tiles stay
        for the kongs they are meant for.

        >>> w = Wall.arrange(["123456789m1234p5s", "", "", ""], draws="9p", indicator="4m")
        >>> w.caishen == 4
        True
        """
        try:
            dealt = [parse_tiles(h) for h in hands]
            head = parse_tiles(draws)
            tail = parse_tiles(replacements)
            ind = parse_tiles(indicator)[0]
        except TileError as e:
            raise WallError(e.code, **e.params) from None
        if len(dealt) != 4:
            raise WallError("wall.hands")
        pool = counts_of(full_set())
        for t in [ind] + [t for h in dealt for t in h] + head + tail:
            pool[t] -= 1
            if pool[t] < 0:
                raise WallError("wall.too_many", tile=code(t))
        rest = [t for t in range(len(pool)) for _ in range(pool[t])]
        Rng(rest_seed).shuffle(rest)
        if not flowers_in_fill:
            rest.sort(key=lambda t: t < 31)  # flowers first: popped last
        for s in range(4):
            need = (14 if s == dealer else 13) - len(dealt[s])
            if need < 0:
                raise WallError("wall.dealt", seat=s, count=len(dealt[s]),
                                limit=14 if s == dealer else 13)
            dealt[s] += [rest.pop() for _ in range(need)]
        order = deal_order(dealer)
        sequence = [dealt[s].pop(0) for s in order]
        middle_len = 143 - len(sequence) - len(head) - len(tail)
        middle = rest[:middle_len]
        return Wall(sequence + head + middle + tail[::-1], ind)


def deal_order(dealer: int) -> list[int]:
    """Seat receiving each of the 53 dealt tiles: three rounds of four, then
    one each, then the dealer's 14th (跳牌)."""
    seats = [(dealer + i) % 4 for i in range(4)]
    order = []
    for _ in range(3):
        for s in seats:
            order += [s] * 4
    order += seats
    order.append(dealer)
    return order


class SeatStreamWall(Wall):
    """A guessed live wall (a searching bot's determinization) where each seat draws its
    own stream of tiles: position k of ``tiles`` goes to seat ``(first + k) % 4``, from
    the head, and replacements come from the far end of the same stream.

    With no claim and no replacement this is the plain wall's order exactly. What it
    changes is what a claim does: on one wall a chow shifts every later draw to the next
    seat, so two moves judged on the same guess play two unrelated hands; here every seat
    goes on drawing the same tiles, and the moves' difference is the moves', not the
    draws' (measured: the paired standard error of a claim decision falls to about half,
    of a discard to about three quarters). A seat whose stream runs out draws the first
    tile left anywhere (the last, for a replacement).

    Which position a draw takes depends only on who draws and which positions are
    taken, never on what the positions hold, so every draw is a uniform pick of the
    tiles not yet drawn, as on the plain wall: each game alone is dealt as fairly.

    >>> w = SeatStreamWall(list(range(8)), indicator=0, first=1)
    >>> [w.draw_head(1), w.draw_head(2), w.draw_head(1), w.draw_tail(2), w.remaining]
    [0, 1, 4, 5, 4]
    """

    def __init__(self, tiles: list[int], indicator: int, dice: tuple[int, int] = (1, 1),
                 first: int = 0):
        super().__init__(tiles, indicator, dice)
        n = len(tiles)
        self._taken = bytearray(n)
        self._next = [(s - first) % 4 for s in range(4)]  # each stream's next head position
        self._last = [n - 1 - (n - 1 - (s - first)) % 4 for s in range(4)]  # ... tail

    def draw_head(self, seat: int) -> int:
        self.head += 1
        return self._take(self._next, seat, 4)

    def draw_tail(self, seat: int) -> int:
        self.tail -= 1
        return self._take(self._last, seat, -4)

    def _take(self, stream: list[int], seat: int, step: int) -> int:
        """The tile at ``seat``'s next free position in ``stream`` (its head positions
        going up, ``step`` 4, or its tail positions going down, -4); once the stream is
        spent, at the free position nearest that end of the wall."""
        taken, n, p = self._taken, len(self._taken), stream[seat]
        while 0 <= p < n and taken[p]:
            p += step
        if 0 <= p < n:
            stream[seat] = p + step
        else:  # a seat that drew more than its share, late in a hand
            p = next(i for i in (range(n) if step > 0 else range(n - 1, -1, -1))
                     if not taken[i])
        taken[p] = 1
        return self.tiles[p]

    def live(self) -> list[int]:
        return [t for t, gone in zip(self.tiles, self._taken, strict=True) if not gone]
