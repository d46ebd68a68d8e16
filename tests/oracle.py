"""A brute-force judge of winning hands, independent of sxmj.winning.

Every 财神 is replaced by every playing tile it could sensibly stand for,
and every substituted hand is split into sets and a pair by plain
recursion. The substitution domain is the tiles within two steps of a
natural tile, plus one "far" tile: a 财神 in a group with a natural tile
stands for a neighbour of it, and groups made only of 财神 are valid as
pungs/pairs of any single tile (a fifth copy is allowed), so one far tile
stands for them all. This keeps the search exhaustive yet small.

``oracle_evaluate`` (below) judges a whole evaluate request the same way, from
docs/RULES.md alone; tests/test_differential.py compares it with the project.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

NUM_PLAYING = 31


@cache
def _splits(counts: tuple[int, ...], need_pair: bool) -> bool:
    i = next((t for t, c in enumerate(counts) if c), -1)
    if i < 0:
        return not need_pair
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _splits(tuple(c), need_pair):
            return True
        c[i] += 3
    if need_pair and c[i] >= 2:
        c[i] -= 2
        if _splits(tuple(c), False):
            return True
        c[i] += 2
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _splits(tuple(c), need_pair):
            return True
    return False


def _domain(naturals: list[int]) -> list[int]:
    near = set()
    for t in naturals:
        if t < 27:
            lo = t // 9 * 9
            near.update(x for x in range(t - 2, t + 3) if lo <= x <= lo + 8)
        else:
            near.add(t)
    far = [x for x in range(NUM_PLAYING) if x not in near][:1]
    return sorted(near) + far


def substitutions(naturals: list[int], wilds: int):
    for combo in combinations_with_replacement(_domain(naturals), wilds):
        counts = [0] * NUM_PLAYING
        for t in naturals:
            counts[t] += 1
        for t in combo:
            counts[t] += 1
        yield counts


def oracle_win(naturals: list[int], wilds: int) -> bool:
    """Sets and a pair after some substitution of the 财神."""
    return any(_splits(tuple(c), True) for c in substitutions(naturals, wilds))


def oracle_sets(naturals: list[int], wilds: int) -> bool:
    """Sets only (no pair) after some substitution."""
    if not naturals and wilds == 0:
        return True
    return any(_splits(tuple(c), False) for c in substitutions(naturals, wilds))


def oracle_baotou(naturals: list[int], wilds: int, win_tile: int | None) -> bool:
    """The drawn tile pairs with a 财神 and the rest is sets (win_tile None: the drawn
    tile was itself a 财神, which must pair with another one)."""
    if win_tile is None:
        return wilds >= 2 and oracle_sets(naturals, wilds - 2)
    if wilds < 1 or win_tile not in naturals:
        return False
    rest = list(naturals)
    rest.remove(win_tile)
    return oracle_sets(rest, wilds - 1)


# ===================================================================================
# The whole evaluate request, judged from docs/RULES.md alone.
#
# oracle_evaluate(request) answers the `python3 -m sxmj evaluate` contract: None for
# input the rule book refuses, {"win": False} for no win, else fan, patterns, 花,
# share and (with a table) payments. It shares no code with sxmj.winning or
# sxmj.scoring; only the tile notation parser comes from sxmj.tiles.
# ===================================================================================

from itertools import product  # noqa: E402

from sxmj.tiles import TileError, parse_tiles  # noqa: E402  (notation only)

FIELDS = {"hand", "win_tile", "caishen", "melds", "flowers", "win_by", "replacements",
          "piao", "first_turn", "dealer", "base_flowers", "options", "table"}
OPTION_DEFAULTS = {"base_flowers": 5, "flower_is_kong": True, "piao_blocks_claims": True,
                   "baotou_required": False, "reserved_tiles": 0, "contract": True,
                   "fan_cap": 3}
PATTERN_ORDER = ("baotou", "piao", "gangkai", "dadiao", "qianggang", "tianhu", "dihu",
                 "quanfeng")
WINDS = range(27, 31)


class _Invalid(Exception):
    pass


def _require(ok: bool) -> None:
    if not ok:
        raise _Invalid


def _count(value, allow_none: bool = False) -> bool:
    """A whole number ≥ 0 (§12: a boolean or a fraction is refused)."""
    if value is None:
        return allow_none
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _tiles(value) -> list[int]:
    _require(isinstance(value, str))
    try:
        return parse_tiles(value)
    except TileError:
        raise _Invalid from None


def _meld(text, caishen: int) -> tuple[str, list[int]]:
    _require(isinstance(text, str) and len(text.split()) == 2)
    kind, notation = text.split()
    _require(kind in ("chi", "peng", "minggang", "angang", "jiagang"))
    tiles = sorted(_tiles(notation))
    # §3: a 财神 is never used to chi, peng or kong; §1: flower tiles never form sets
    _require(all(t < NUM_PLAYING and t != caishen for t in tiles))
    _require(len(tiles) == (3 if kind in ("chi", "peng") else 4))
    if kind == "chi":
        _require(tiles[0] < 27 and tiles[0] % 9 <= 6
                 and tiles == [tiles[0], tiles[0] + 1, tiles[0] + 2])
    else:
        _require(len(set(tiles)) == 1)
    return kind, tiles


def _options(item: dict) -> dict:
    given = item.get("options")
    _require(given is None or isinstance(given, dict))
    given = dict(given or {})
    if "base_flowers" in item:
        given["base_flowers"] = item["base_flowers"]
    opts = dict(OPTION_DEFAULTS)
    for name, value in given.items():
        _require(name in OPTION_DEFAULTS)
        if isinstance(OPTION_DEFAULTS[name], bool):
            _require(isinstance(value, bool))
        else:
            _require(isinstance(value, int) and not isinstance(value, bool))
        opts[name] = value
    _require(opts["base_flowers"] in (5, 10, 15, 20, 25))      # §9
    _require(0 <= opts["fan_cap"] <= 10 and 0 <= opts["reserved_tiles"] <= 40)
    return opts


def _seat(value) -> int:
    _require(value in (0, 1, 2, 3) and not isinstance(value, bool))
    return value


def _table(table, win_by: str):
    _require(isinstance(table, dict))
    winner = _seat(table.get("winner"))
    robbed = table.get("robbed")
    if robbed is not None:
        robbed = _seat(robbed)
        _require(robbed != winner)
    # the robbed seat exists exactly when the win is a 抢杠
    _require((robbed is not None) == (win_by == "rob"))
    piao = table.get("piao", [])
    _require(isinstance(piao, list))
    piao = [_seat(s) for s in piao]
    _require(len(set(piao)) == len(piao))                   # §12: a seat given twice
    claims = table.get("claims")
    if claims is not None:
        _require(isinstance(claims, list) and len(claims) == 4 and all(
            isinstance(r, list) and len(r) == 4 and all(_count(x) for x in r) for r in claims))
        # nobody claims their own discard; each claim lays down one of a hand's four sets
        _require(all(claims[s][s] == 0 and sum(claims[s]) <= 4 for s in range(4)))
    return winner, robbed, piao, claims


def _parse(item) -> dict:
    _require(isinstance(item, dict) and set(item) <= FIELDS)
    _require(all(name in item for name in ("hand", "win_tile", "caishen")))
    hand = _tiles(item["hand"])
    (win_tile,) = _one(item["win_tile"])
    (caishen,) = _one(item["caishen"])
    melds_in = item.get("melds")
    _require(melds_in is None or isinstance(melds_in, list))
    melds = [_meld(m, caishen) for m in melds_in or []]
    flowers = _tiles(item["flowers"]) if item.get("flowers") else []
    win_by = item.get("win_by", "draw")
    _require(win_by in ("draw", "kong", "flower", "rob"))
    opts = _options(item)
    replacements, piao = item.get("replacements"), item.get("piao", 0)
    _require(_count(replacements, allow_none=True) and _count(piao))
    first_turn, dealer = item.get("first_turn", False), item.get("dealer", False)
    _require(isinstance(first_turn, bool) and isinstance(dealer, bool))

    # §1: the 财神 and every tile kept in a hand are playing tiles; flowers are laid open
    _require(caishen < NUM_PLAYING and win_tile < NUM_PLAYING)
    _require(all(t < NUM_PLAYING for t in hand) and all(t >= NUM_PLAYING for t in flowers))
    _require(win_tile in hand and len(hand) + 3 * len(melds) == 14)
    # §1 and §12: four real copies of each tile (one of each flower), melds and flowers in
    seen = [0] * 42
    for t in hand + [t for _, ts in melds for t in ts] + flowers:
        seen[t] += 1
    _require(all(n <= (1 if t >= 34 else 4) for t, n in enumerate(seen)))

    if win_by == "rob":
        # §12: a 财神 is never konged, so never robbed; the robbed tile is the one natural copy
        _require(win_tile != caishen)
        _require(hand.count(win_tile) + sum(ts.count(win_tile) for _, ts in melds) == 1)
    kongs = sum(kind in ("minggang", "angang", "jiagang") for kind, _ in melds)
    if replacements is None:
        replacements = 1 if win_by in ("kong", "flower") else 0
    # §12: no replacements beyond the flowers and kongs that could have made them; without
    # flower_is_kong a flower is no link of a kong win's chain. The winning tile of a kong
    # or flower win is a replacement, so that kong or flower exists
    links = len(flowers) if win_by == "flower" or opts["flower_is_kong"] else 0
    _require(replacements <= kongs + links)
    # 天胡 and 地胡 are won on the dealt hand or the first draw, never after a kong
    _require(not (first_turn and win_by == "kong"))
    # nor with a set laid down (a claim, or a kong), nor after a 财神 discard of the winner
    _require(not (first_turn and (melds or piao)))
    # §12: each 飘 is a real 财神 in the river; with those held, four copies at most
    _require(not piao or piao + seen[caishen] <= 4)
    _require(replacements == 0 or win_by in ("kong", "flower"))
    _require(win_by != "kong" or kongs)
    _require(win_by != "flower" or flowers)

    table = _table(item["table"], win_by) if item.get("table") is not None else None
    return dict(hand=hand, win_tile=win_tile, caishen=caishen, melds=melds, flowers=flowers,
                win_by=win_by, replacements=replacements, piao=piao, first_turn=first_turn,
                dealer=dealer, opts=opts, table=table)


def _one(value) -> list[int]:
    tiles = _tiles(value)
    _require(len(tiles) == 1)
    return tiles


@cache
def _region_splits(counts: tuple[int, ...], suited: bool, need_pair: bool) -> frozenset:
    """Every split of one region (a suit, or the winds) into pungs, chows (suits only)
    and, if need_pair, one pair: the set of (pair index or None, number of pungs)."""
    i = next((t for t, c in enumerate(counts) if c), -1)
    if i < 0:
        return frozenset() if need_pair else frozenset({(None, 0)})
    out = set()
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        out |= {(p, n + 1) for p, n in _region_splits(tuple(c), suited, need_pair)}
        c[i] += 3
    if need_pair and c[i] >= 2:
        c[i] -= 2
        out |= {(i, n) for _, n in _region_splits(tuple(c), suited, False)}
        c[i] += 2
    if suited and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out |= _region_splits(tuple(c), suited, need_pair)
    return frozenset(out)


REGIONS = (range(0, 9), range(9, 18), range(18, 27), WINDS)


@cache
def _region_readings(region: int, naturals: tuple[int, ...], wilds: int, caishen: int,
                     win_tile: int, rob: bool) -> frozenset:
    """Every way `wilds` 财神 standing for tiles of one region (each for every tile of
    it, a fifth copy allowed: §12) and the region's natural tiles split into sets and
    at most one pair, as (pair, pungs, every 财神 stands as itself) with pair None, or
    "baotou" (§7: the drawn tile and one 财神; a drawn 财神 with a held 财神), or "plain"."""
    kinds = REGIONS[region]
    out = set()
    for combo in combinations_with_replacement(range(len(kinds)), wilds):
        stand = [0] * len(kinds)
        for k in combo:
            stand[k] += 1
        itself = all(kinds[k] == caishen for k in combo)
        counts = tuple(n + s for n, s in zip(naturals, stand, strict=True))
        for need_pair in (True, False):
            for pair, pungs in _region_splits(counts, region < 3, need_pair):
                if pair is None:
                    out.add((None, pungs, itself))
                    continue
                tile = kinds[pair]
                # the pair holds 0, 1 or 2 natural tiles, as the copies allow
                for nat in range(max(0, 2 - stand[pair]), min(2, naturals[pair]) + 1):
                    if rob and tile == win_tile and nat:
                        continue  # §6, §12: the robbed tile sits in a chow or pung
                    baotou = nat == 1 and tile == win_tile if win_tile != caishen else nat == 0
                    out.add(("baotou" if baotou else "plain", pungs, itself))
    return frozenset(out)


def _meld_flowers(melds) -> int:
    """§8: exposed wind pung 1, wind kong 2 (concealed 3), other kong 1 (concealed 2)."""
    total = 0
    for kind, tiles in melds:
        wind = tiles[0] in WINDS
        if kind == "peng":
            total += wind
        elif kind == "angang":
            total += 3 if wind else 2
        elif kind in ("minggang", "jiagang"):
            total += 2 if wind else 1
    return total


def _readings(r: dict):
    """Every legal reading of the hand as (baotou, concealed wind pungs, no-set 全风)."""
    cs, x, hand = r["caishen"], r["win_tile"], r["hand"]
    rob, required = r["win_by"] == "rob", r["opts"]["baotou_required"]
    wilds = hand.count(cs)
    naturals = [t for t in hand if t != cs]
    # Each 财神 stands for a tile of some region; try every share-out of them
    for shares in product(range(wilds + 1), repeat=4):
        if sum(shares) != wilds:
            continue
        parts = [_region_readings(i, tuple(naturals.count(t) for t in REGIONS[i]), k, cs, x, rob)
                 for i, k in enumerate(shares)]
        for combo in product(*parts):
            pairs = [p for p, _, _ in combo if p is not None]
            if len(pairs) != 1:
                continue
            baotou = pairs[0] == "baotou"
            # §7 有财必暴: holding a 财神, 暴头 or every 财神 standing as itself
            if required and wilds and not (baotou or all(i for _, _, i in combo)):
                continue
            yield baotou, combo[3][1], False
    # §7, §12: 全风 needs no sets; never robs; under 有财必暴 only with a wind 财神
    if (all(t in WINDS for t in naturals) and all(ts[0] in WINDS for _, ts in r["melds"])
            and not rob and not (required and wilds and cs not in WINDS)):
        yield False, 0, True


def _payments(share: int, table, contract: bool) -> list[int]:
    """§9 and §12: 抢杠, then 飘 penalty, then 承包; the winner takes what the rest pay."""
    winner, robbed, piao, claims = table
    others = [s for s in range(4) if s != winner]
    pays = dict.fromkeys(others, 0)
    payers = [s for s in piao if s != winner]
    if robbed is not None:
        pays[robbed] = 3
    elif payers:
        for s in payers:
            pays[s] = 3
    else:
        for s in others:
            pays[s] = 1
            if contract and claims:
                if claims[s][winner] >= 3:      # the winner's discards claimed: pay 5
                    pays[s] = 5
                elif claims[winner][s] >= 3:    # the winner claimed theirs: pay 3
                    pays[s] = 3
    out = [0] * 4
    for s, n in pays.items():
        out[s] = -n * share
    out[winner] = -sum(out)
    return out


def oracle_evaluate(request) -> dict | None:
    """The rule book's answer to one evaluate request; None when it is refused."""
    try:
        r = _parse(request)
    except _Invalid:
        return None
    opts, melds = r["opts"], r["melds"]
    self_draw = r["win_by"] != "rob"
    # §12: a 天胡 on a replacement for a dealt flower is 天胡 alone (the dealer's first
    # turn has no draw, so its flower replacements are the deal's)
    dealt = r["first_turn"] and r["dealer"] and r["win_by"] == "flower"
    gangkai = r["replacements"] if (r["win_by"] == "kong" or (
        r["win_by"] == "flower" and opts["flower_is_kong"] and not dealt)) else 0
    quanfeng = (all(t in WINDS or t == r["caishen"] for t in r["hand"])
                and all(ts[0] in WINDS for _, ts in melds))
    fixed_flowers = len(r["flowers"]) + r["hand"].count(r["caishen"]) + _meld_flowers(melds)
    best = None
    for baotou, wind_pungs, no_sets in _readings(r):
        fan = {"baotou": int(baotou),
               "piao": r["piao"] if baotou and self_draw else 0,
               "gangkai": gangkai,
               "dadiao": int(len(melds) == 4 and not no_sets),
               "qianggang": int(not self_draw),
               "tianhu": 3 * (self_draw and r["first_turn"] and r["dealer"]),
               "dihu": 3 * (self_draw and r["first_turn"] and not r["dealer"]),
               "quanfeng": 3 * quanfeng}
        raw = sum(fan.values())
        flowers = fixed_flowers + wind_pungs
        share = 2 ** min(raw, opts["fan_cap"]) * (opts["base_flowers"] + flowers)
        key = (share, raw)
        if best is None or key > best[0]:
            best = key, {"win": True, "fan": min(raw, opts["fan_cap"]),
                         "patterns": [p for p in PATTERN_ORDER if fan[p]],
                         "flowers": flowers, "share": share}
    if best is None:
        return {"win": False}
    out = best[1]
    if r["table"] is not None:
        out["payments"] = _payments(out["share"], r["table"], opts["contract"])
    return out
