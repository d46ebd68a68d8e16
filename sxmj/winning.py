"""Winning shapes with 财神 (wildcards): win checks, waits, distance to ready.

A concealed hand is held as a :class:`Shape`: the counts of its natural
tiles packed into four base-5 integers (one per suit and one for the winds)
plus the number of 财神 it holds. The 财神 are taken out of the counts
because they stand for any playing tile, themselves included, so a hand is
a win when its natural tiles need no more wildcards than it holds.

The fast path keeps, per suit key, the fewest wildcards that turn the suit
into sets (and into sets plus the pair); these tables fill lazily and are
shared by the engine, the bots and the scorer.

>>> from sxmj.tiles import parse_tiles, tile
>>> shape = Shape.of(parse_tiles("123m456p789s111z5m"), caishen=tile("5m"))
>>> is_win(shape.add(tile("9p")))      # the 财神 5m pairs with the drawn 9p
True
>>> waits(shape) == list(range(NUM_PLAYING))   # 暴头-ready: any tile wins
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from .tiles import NUM_PLAYING, WINDS

__all__ = ["Shape", "is_win", "is_sets", "is_baotou_ready", "waits", "distance",
           "baotou_distance", "useful_draws", "decompositions", "wildcards_needed", "KEY_STEP"]

_POW5 = [5**i for i in range(9)]  # a suit's key counts its nine tiles in base 5
KEY_STEP: tuple[tuple[int, int], ...] = tuple((t // 9, _POW5[t % 9])
                                              for t in range(NUM_PLAYING))
"""The key update of one copy of tile ``t``: ``suit, step = KEY_STEP[t]`` and then
``keys[suit] += step`` (or ``-=``) keeps a list of :attr:`Shape.keys` in step with a hand,
as the engine does after every draw and discard."""
_INF = 99
K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Shape:
    """Natural tiles of a concealed hand as four base-5 keys, plus its 财神.

    ``keys[g]`` holds group ``g`` (0 万, 1 筒, 2 索, 3 winds): digit ``i``
    counts the tile ``9 * g + i``. ``wilds`` is the number of 财神.
    """

    keys: tuple[int, int, int, int]
    wilds: int

    @staticmethod
    def of(tiles: Iterable[int], caishen: int | None) -> Shape:
        keys = [0, 0, 0, 0]
        wilds = 0
        for t in tiles:
            if t == caishen:
                wilds += 1
            elif t < NUM_PLAYING:
                keys[t // 9] += _POW5[t % 9]
            else:
                raise ValueError(f"flower tile {t} cannot be part of a hand shape")
        return Shape((keys[0], keys[1], keys[2], keys[3]), wilds)

    def add(self, t: int) -> Shape:
        k = list(self.keys)
        k[t // 9] += _POW5[t % 9]
        return Shape((k[0], k[1], k[2], k[3]), self.wilds)

    def remove(self, t: int) -> Shape:
        k = list(self.keys)
        k[t // 9] -= _POW5[t % 9]
        return Shape((k[0], k[1], k[2], k[3]), self.wilds)

    def with_wilds(self, wilds: int) -> Shape:
        return Shape(self.keys, wilds)

    def count(self, t: int) -> int:
        count: int = self.keys[t // 9] // _POW5[t % 9] % 5
        return count

    def counts(self) -> list[int]:
        """Counts of the natural tiles, indexed by tile (length 31)."""
        return [self.keys[t // 9] // _POW5[t % 9] % 5 for t in range(NUM_PLAYING)]

    def size(self) -> int:
        return sum(self.counts()) + self.wilds


# ---------------------------------------------------------------- fast tables

_SUIT_NEED: dict[int, int] = {}  # (key << 1 | needs_pair) -> fewest wildcards


def _suit_need(key: int, pair: bool) -> int:
    """Fewest wildcards that make a numbered suit into sets (plus one pair)."""
    memo_key = key << 1 | pair
    best = _SUIT_NEED.get(memo_key)
    if best is not None:
        return best
    if key == 0:
        best = 2 if pair else 0
    else:
        i = 0
        while key // _POW5[i] % 5 == 0:
            i += 1
        c = key // _POW5[i] % 5
        use = min(c, 3)
        best = 3 - use + _suit_need(key - use * _POW5[i], pair)
        if pair:
            use = min(c, 2)
            best = min(best, 2 - use + _suit_need(key - use * _POW5[i], False))
        if i <= 7:
            # A chow with i as its lowest natural tile; taking every natural
            # member present is never worse (swap it with the wildcard).
            sub, missing = _POW5[i], 0
            for j in (i + 1, i + 2):
                if j <= 8 and key // _POW5[j] % 5:
                    sub += _POW5[j]
                else:
                    missing += 1
            best = min(best, missing + _suit_need(key - sub, pair))
    _SUIT_NEED[memo_key] = best
    return best


# Winds make no chows, so each wind needs wildcards on its own count alone.
_WIND_SETS = (0, 2, 1, 0, 2)
_WIND_PAIR = (2, 1, 0, 2, 1)
_WIND_NEED: dict[int, tuple[int, int]] = {}


def _wind_need(key: int) -> tuple[int, int]:
    r = _WIND_NEED.get(key)
    if r is None:
        cs = [key // _POW5[i] % 5 for i in range(4)]
        sets = sum(_WIND_SETS[c] for c in cs)
        pair = sets + min(_WIND_PAIR[c] - _WIND_SETS[c] for c in cs)
        r = (sets, pair)
        _WIND_NEED[key] = r
    return r


def _set_needs(a: int, b: int, c: int, d: int) -> tuple[int, int, int, int, int]:
    """Fewest wildcards for sets per suit, then the winds' (sets, sets plus pair)."""
    # The memo lookups are inlined: this runs on every turn of every hand.
    memo = _SUIT_NEED
    s0 = memo.get(a << 1)
    if s0 is None:
        s0 = _suit_need(a, False)
    s1 = memo.get(b << 1)
    if s1 is None:
        s1 = _suit_need(b, False)
    s2 = memo.get(c << 1)
    if s2 is None:
        s2 = _suit_need(c, False)
    wind = _WIND_NEED.get(d)
    ws, wp = wind if wind is not None else _wind_need(d)
    return s0, s1, s2, ws, wp


def _needs(keys: tuple[int, int, int, int]) -> tuple[int, int]:
    """(fewest wildcards for sets only, fewest for sets plus one pair)."""
    a, b, c, d = keys
    s0, s1, s2, ws, wp = _set_needs(a, b, c, d)
    sets = s0 + s1 + s2 + ws
    return sets, _pair_need(keys, sets, s0, s1, s2, ws, wp)


def _pair_need(keys: tuple[int, int, int, int], sets: int,
               s0: int, s1: int, s2: int, ws: int, wp: int) -> int:
    # the pair sits in one of the groups, or is made of two wildcards
    return min(
        sets + 2,
        sets - s0 + _suit_need(keys[0], True),
        sets - s1 + _suit_need(keys[1], True),
        sets - s2 + _suit_need(keys[2], True),
        sets - ws + wp,
    )


def wildcards_needed(keys: tuple[int, int, int, int]) -> int:
    """Fewest wildcards that complete these natural tiles into sets and one pair.

    A cheap measure of how far a hand is (the fast playout policy of the search
    bot ranks discards by it); :func:`distance` is the exact count of draws.
    """
    return _needs(keys)[1]


def is_win(shape: Shape) -> bool:
    """True when a 3k+2-tile concealed hand is k sets and a pair."""
    keys = shape.keys
    s0, s1, s2, ws, wp = _set_needs(*keys)
    sets = s0 + s1 + s2 + ws
    # Adding the pair saves at most one wildcard (a pair plus one is a set), so
    # most hands are rejected here, before the pair tables are looked at.
    if sets - 1 > shape.wilds:
        return False
    return _pair_need(keys, sets, s0, s1, s2, ws, wp) <= shape.wilds


def is_sets(shape: Shape) -> bool:
    """True when a 3k-tile concealed hand is k sets (no pair)."""
    return _needs(shape.keys)[0] <= shape.wilds


def is_baotou_ready(shape: Shape) -> bool:
    """A 3k+1 hand that holds a 财神 beside k complete sets: any tile wins (暴头)."""
    return shape.wilds >= 1 and is_sets(shape.with_wilds(shape.wilds - 1))


def waits(shape: Shape, caishen: int | None = None, melds_all_winds: bool = False) -> list[int]:
    """Playing tiles that complete a 3k+1-tile hand, in index order.

    A tile far from every natural tile can only join a group of wildcards,
    and then every tile would do; so only tiles near the hand are tried
    unless the hand is 暴头-ready. Drawing the 财神 itself completes the
    hand whenever anything does. With ``melds_all_winds`` (every meld is a
    wind set) a hand of winds and 财神 also waits on every wind: 全风 needs
    no sets (RULES §12 "Waits include 全风").
    """
    if melds_all_winds and shape.keys[0] == shape.keys[1] == shape.keys[2] == 0:
        found = set(_sets_waits(shape, caishen))
        found.update(t for t in WINDS if shape.count(t) < 4 or t == caishen)
        if caishen is not None and caishen < NUM_PLAYING:
            found.add(caishen)
        return sorted(found)
    return _sets_waits(shape, caishen)


def remember(memo: dict[K, V], key: K, value: V, most: int) -> V:
    """Store ``value`` under ``key`` in a memo of at most ``most`` entries (a full one is
    emptied first: the memos of hands serve a playout's repeats, not a whole session) and
    return it."""
    if len(memo) >= most:
        memo.clear()
    memo[key] = value
    return value


_WAITS: dict[tuple[tuple[int, int, int, int], int, int | None], tuple[int, ...]] = {}
WAITS_MEMO_MAX = 30_000  # entries, about 10 MB at most (a phone's tab); the first 100
# playouts of a decision make about 3,700


def _sets_waits(shape: Shape, caishen: int | None) -> list[int]:
    """:func:`waits` by the sets-and-a-pair readings only, remembered: the bots' playouts
    ask about the same few thousand hands again and again (a third of a playout's time)."""
    key = (shape.keys, shape.wilds, caishen)
    hit = _WAITS.get(key)
    if hit is None:  # a tuple: the garbage collector stops tracking it
        hit = remember(_WAITS, key, tuple(_sets_waits_of(shape, caishen)), WAITS_MEMO_MAX)
    return list(hit)


def _sets_waits_of(shape: Shape, caishen: int | None) -> list[int]:
    if is_baotou_ready(shape):
        return [t for t in range(NUM_PLAYING) if shape.count(t) < 4 or t == caishen]
    keys = shape.keys
    w = shape.wilds
    need = [(_suit_need(keys[g], False), _suit_need(keys[g], True)) for g in range(3)]
    need.append(_wind_need(keys[3]))
    sets_total = sum(n[0] for n in need)
    deltas = [n[1] - n[0] for n in need]
    # One more natural tile saves at most one 财神 (swap it back for a 财神 to see
    # why), so a hand that needs two or more beyond its own waits on nothing.
    if sets_total + min(2, *deltas) - 1 > w:
        return []  # a drawn 财神 (one more wildcard) can't close the gap either
    other_delta = [min(2, *(deltas[h] for h in range(4) if h != g)) for g in range(4)]
    out = []
    for t in _candidates(keys):
        if t == caishen or shape.count(t) == 4:
            continue  # no fifth natural copy can be drawn
        g = t // 9
        key = keys[g] + _POW5[t % 9]
        ns, np_ = (_suit_need(key, False), _suit_need(key, True)) if g < 3 else _wind_need(key)
        sets = sets_total - need[g][0] + ns
        # the pair sits in the changed group, in another group, or is two 财神
        best_delta = min(np_ - ns, other_delta[g])
        if sets + best_delta <= w:
            out.append(t)
    # Drawing the 财神 adds a wildcard; it can win even when no natural tile
    # does, since the tile a gap needs may be the 财神's own kind.
    if caishen is not None and caishen < NUM_PLAYING and \
            (out or is_win(shape.with_wilds(w + 1))):
        out.append(caishen)
        out.sort()
    return out


_NEAR: dict[int, tuple[int, ...]] = {}  # suit key -> tile numbers 0..8 within two of a held tile


def _near(key: int) -> tuple[int, ...]:
    hit = _NEAR.get(key)
    if hit is None:
        near: set[int] = set()
        for i in range(9):
            if key // _POW5[i] % 5:
                near.update(range(max(0, i - 2), min(8, i + 2) + 1))
        hit = _NEAR[key] = tuple(sorted(near))
    return hit


def _candidates(keys: tuple[int, int, int, int]) -> list[int]:
    """Tiles that could complete something: within two of a held suit tile, or a held wind."""
    out = [9 * g + j for g in range(3) for j in _near(keys[g])]
    winds = keys[3]
    out += [27 + i for i in range(4) if winds // _POW5[i] % 5]
    return out


# ------------------------------------------------------ distance to ready

_SUIT_USE: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _best_use(key: int, wind: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Most natural tiles usable by at most g partial sets, g = 0..4.

    Returns (without a pair, with one partial pair). A partial set is 1–3
    tiles that belong to one chow or pung; a partial pair is 1–2 equal tiles.
    """
    memo_key = key * 2 + wind
    r = _SUIT_USE.get(memo_key)
    if r is not None:
        return r
    if key == 0:
        r = ((0,) * 5, (0,) * 5)
        _SUIT_USE[memo_key] = r
        return r
    i = 0
    while key // _POW5[i] % 5 == 0:
        i += 1
    c = key // _POW5[i] % 5
    rest = _best_use(key - _POW5[i], wind)  # tile i left unused
    no_pair = list(rest[0])
    with_pair = list(rest[1])

    def merge(sub: tuple[tuple[int, ...], tuple[int, ...]], used: int, groups: int,
              as_pair: bool) -> None:
        if as_pair:
            for g in range(5):
                with_pair[g] = max(with_pair[g], sub[0][g] + used)
            return
        for g in range(groups, 5):
            no_pair[g] = max(no_pair[g], sub[0][g - groups] + used)
            with_pair[g] = max(with_pair[g], sub[1][g - groups] + used)

    for use in range(1, min(c, 3) + 1):
        merge(_best_use(key - use * _POW5[i], wind), use, 1, False)
    for use in range(1, min(c, 2) + 1):
        merge(_best_use(key - use * _POW5[i], wind), use, 0, True)
    if not wind:
        for j1, j2 in ((i + 1, i + 2), (i + 1, None), (i + 2, None)):
            sub, used = _POW5[i], 1
            ok = True
            for j in (j1, j2):
                if j is None:
                    continue
                if j <= 8 and key // _POW5[j] % 5:
                    sub += _POW5[j]
                    used += 1
                else:
                    ok = False
            if ok and used > 1:
                merge(_best_use(key - sub, wind), used, 1, False)
    r = (tuple(no_pair), tuple(with_pair))
    _SUIT_USE[memo_key] = r
    return r


Table = tuple[tuple[int, ...], tuple[int, ...]]
_EMPTY: Table = ((0,) * 5, (0,) * 5)


def group_tables(shape: Shape) -> list[Table]:
    """Per group (万, 筒, 索, winds): most tiles usable by ≤ g partial sets, ± a pair."""
    k = shape.keys
    return [_best_use(k[0], False), _best_use(k[1], False), _best_use(k[2], False),
            _best_use(k[3], True)]


_MERGED: dict[tuple[Table, Table], Table] = {}
MERGED_MEMO_MAX = 8_000  # entries: about 350 bytes each with its key (measured with
# tracemalloc), so under 3 MB in a phone's tab; a whole hand of the expert's makes 1,500


def merge_tables(a: Table, b: Table) -> Table:
    """Combine two groups' tables: split the partial sets, at most one pair in all.
    Remembered: a playout's hands differ in one group at a time, and the few thousand
    tables of a decision's playouts meet again and again (a tenth of the expert's time)."""
    key = (a, b)
    hit = _MERGED.get(key)
    if hit is None:
        hit = remember(_MERGED, key, _merge_tables_of(a, b), MERGED_MEMO_MAX)
    return hit


def _merge_tables_of(a: Table, b: Table) -> Table:
    a0, a1 = a
    b0, b1 = b
    no_pair = []
    with_pair = []
    for g in range(5):
        best0 = best1 = 0
        for h in range(g + 1):
            x = a0[h] + b0[g - h]
            if x > best0:
                best0 = x
            x = a1[h] + b0[g - h]
            if x > best1:
                best1 = x
            x = a0[h] + b1[g - h]
            if x > best1:
                best1 = x
        no_pair.append(best0)
        with_pair.append(max(best1, best0))
    return tuple(no_pair), tuple(with_pair)


def used_with(others: Table, table: Table, sets: int) -> int:
    """Most natural tiles usable by ``sets`` partial sets and a pair across both tables."""
    o0, o1 = others
    t0, t1 = table
    best = 0
    for h in range(sets + 1):
        x = o0[sets - h] + t1[h]
        if x > best:
            best = x
        x = o1[sets - h] + t0[h]
        if x > best:
            best = x
    return best


def _distance_from(used: int, wilds: int, sets: int) -> int:
    # Every natural tile left out of the groups must be exchanged for a useful one.
    return max(0, 3 * sets + 2 - wilds - used)


def distance(shape: Shape, sets: int) -> int:
    """Tiles still to draw before a hand of ``sets`` sets and a pair is ready.

    For a 3k+1 hand (``sets`` = k): 0 means ready (some tile wins), 1 means
    one useful draw from ready, and so on. For a 3k+2 hand it is the number
    of tiles to exchange for a win (0 = already a win).
    """
    key = (shape.keys, shape.wilds, sets)
    hit = _DISTANCE.get(key)
    if hit is None:
        w = shape.wilds
        if shape.size() % 3 == 1:
            w += 1  # ready means: one more tile of the right kind wins
        t = group_tables(shape)
        left = merge_tables(merge_tables(t[0], t[1]), t[2])
        hit = remember(_DISTANCE, key, _distance_from(used_with(left, t[3], sets), w, sets),
                       USEFUL_MEMO_MAX)
    return hit


_DISTANCE: dict[tuple[tuple[int, int, int, int], int, int], int] = {}


def baotou_distance(shape: Shape, sets: int) -> int:
    """Draws until a 3k+1 hand is 暴头-ready: k natural sets beside a kept 财神.

    One 财神 is set aside as the future pair partner; the rest of the hand
    (other 财神 included) must become ``sets`` complete sets. A hand without a
    财神 gets a large number.
    """
    if shape.wilds == 0:
        return _INF
    t = group_tables(shape)
    merged = merge_tables(merge_tables(t[0], t[1]), merge_tables(t[2], t[3]))
    used = merged[0][min(sets, 4)]
    return max(0, 3 * sets - (shape.wilds - 1) - used)


_USEFUL: dict[tuple[tuple[int, int, int, int], int, int, int | None],
              tuple[int, tuple[int, ...]]] = {}
USEFUL_MEMO_MAX = 20_000  # entries in the useful-draws memo and in the distance memo: a
# few hundred bytes an entry, so a few MB each at most in a phone's tab


def useful_draws(shape: Shape, sets: int, caishen: int | None,
                 unseen: list[int]) -> tuple[int, list[int]]:
    """(distance to ready, tiles whose draw brings a 3k+1 hand closer or wins it).

    A draw is useful when it does as well as a 财神 would, and only a tile still unseen
    counts. Which draws would be useful depends on the hand alone, so it is remembered by
    shape: a playout's seat asks about the same hands again and again, with different
    tiles unseen.
    """
    key = (shape.keys, shape.wilds, sets, caishen)
    hit = _USEFUL.get(key)
    if hit is None:
        hit = remember(_USEFUL, key, _useful_draws_of(shape, sets, caishen), USEFUL_MEMO_MAX)
    d, draws = hit
    return d, [x for x in draws if unseen[x] > 0]


def _useful_draws_of(shape: Shape, sets: int, caishen: int | None
                     ) -> tuple[int, tuple[int, ...]]:
    # Only one group changes per draw, so the other three groups' table is merged once.
    t = group_tables(shape)
    w = shape.wilds + 1
    others = []
    for g in range(4):
        rest = [t[i] for i in range(4) if i != g]
        others.append(merge_tables(merge_tables(rest[0], rest[1]), rest[2]))
    d = _distance_from(used_with(others[3], t[3], sets), w, sets)
    useful = []
    keys = shape.keys
    for x in range(NUM_PLAYING):
        if x == caishen:
            useful.append(x)
            continue
        g = x // 9
        i = x % 9
        if keys[g] // _POW5[i] % 5 == 4:
            continue  # all four are in the hand: none left to draw
        key = keys[g] + _POW5[i]
        table = _best_use(key, g == 3)
        # the drawn tile is natural; the 财神 count stays
        if _distance_from(used_with(others[g], table, sets), w - 1, sets) <= d:
            useful.append(x)
    return d, tuple(useful)


# ------------------------------------------------------ full decompositions

Group = tuple[str, tuple[tuple[int | None, bool], ...]]
"""A set or pair: (kind, members). kind is ``chow``, ``pung`` or ``pair``;
each member is (tile, is_wild); a group made only of 财神 has tile None."""


def decompositions(counts: list[int], wilds: int, pair: bool = True) -> Iterator[list[Group]]:
    """Every reading of natural tile counts plus wildcards as sets (and a pair).

    Natural tiles always stand as themselves; 财神 fill the gaps, and leftover
    财神 form groups of their own. Yields lists of groups.
    """
    counts = list(counts)

    def first() -> int:
        for t in range(NUM_PLAYING):
            if counts[t]:
                return t
        return -1

    def rec(w: int, need_pair: bool, acc: list[Group]) -> Iterator[list[Group]]:
        t = first()
        if t < 0:
            rest = w - (2 if need_pair else 0)
            if rest < 0 or rest % 3:
                return
            groups = list(acc)
            if need_pair:
                groups.append(("pair", ((None, True), (None, True))))
            groups.extend(("pung", ((None, True),) * 3) for _ in range(rest // 3))
            yield groups
            return
        c = counts[t]
        shapes: list[tuple[str, list[int]]] = [("pung", [t, t, t])]
        if need_pair:
            shapes.append(("pair", [t, t]))
        if t < 27:
            lo = t // 9 * 9
            for base in (t - 2, t - 1, t):
                if base >= lo and base + 2 <= lo + 8:
                    shapes.append(("chow", [base, base + 1, base + 2]))
        for kind, members in shapes:
            taken: list[tuple[int | None, bool]] = []
            used_wilds = 0
            removed: list[int] = []
            if kind in ("pung", "pair"):
                real = min(c, len(members))
                one: int | None = t
                taken = [(one, False) for _ in range(real)] + \
                    [(one, True) for _ in range(len(members) - real)]
                used_wilds = len(members) - real
                removed = [t] * real
            else:
                for m in members:
                    if m >= t and counts[m] > 0 and m not in removed:
                        taken.append((m, False))
                        removed.append(m)
                    else:
                        taken.append((m, True))
                        used_wilds += 1
                if t not in removed:
                    continue
            if used_wilds > w:
                continue
            for m in removed:
                counts[m] -= 1
            acc.append((kind, tuple(taken)))
            yield from rec(w - used_wilds, need_pair and kind != "pair", acc)
            acc.pop()
            for m in removed:
                counts[m] += 1

    yield from rec(wilds, pair, [])
