"""What every bot level reads off an observation: distances, useful tiles, the race model.

Pure functions of an :class:`~sxmj.observation.Observation` and of hand shapes;
the strategies (:mod:`.easy`, :mod:`.normal`, :mod:`.hard`) only decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Action
from ..messages import render
from ..observation import Observation
from ..tiles import NUM_PLAYING, tile_name
from ..winning import Shape, distance, useful_draws, waits


@dataclass(frozen=True)
class Choice:
    """A bot's decision and why, as a message code (``bot.*`` in :mod:`sxmj.messages`)."""

    action: Action
    code: str = "bot.pass"
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def reason_in(self, lang: str) -> str:
        """The one-sentence reason in ``lang`` ("zh" or "en")."""
        return render(self.code, self.params, lang)

    @property
    def reason(self) -> str:
        return self.reason_in("en")

    @property
    def reason_zh(self) -> str:
        return self.reason_in("zh")


@dataclass(frozen=True)
class DiscardOption:
    """How a hand stands after discarding ``tile``."""

    tile: int
    distance: int   # draws still needed to be ready (0 = ready)
    useful: tuple[int, ...]  # tiles that would bring the hand closer
    live: int       # unseen copies of those tiles


def plus(shape: Shape, t: int, caishen: int) -> Shape:
    """The shape with one more ``t`` (a 财神 adds a wildcard)."""
    return shape.with_wilds(shape.wilds + 1) if t == caishen else shape.add(t)


def minus(shape: Shape, t: int, caishen: int) -> Shape:
    """The shape with one ``t`` fewer (a 财神 takes a wildcard)."""
    return shape.with_wilds(shape.wilds - 1) if t == caishen else shape.remove(t)


def analyse(shape13: Shape, sets: int, caishen: int,
            unseen: Sequence[int]) -> tuple[int, tuple[int, ...], int]:
    """(distance to ready, useful tiles, live copies of them) for a 3k+1 hand."""
    d, useful = useful_draws(shape13, sets, caishen, list(unseen))
    return d, tuple(useful), sum(unseen[t] for t in useful)


def discard_options(obs: Observation, only_best: bool = True,
                    live: bool = True) -> list[DiscardOption]:
    """Distinct discards from a 14-tile turn hand, analysed.

    With ``only_best`` the live-tile count is worked out only for the
    discards that leave the hand closest to ready (the rest keep ``live`` 0);
    without ``live`` only distances are worked out.
    """
    caishen = obs.caishen
    hand = obs.playing_hand
    sets = obs.sets_needed
    shape = Shape.of(hand, caishen)
    unseen = obs.unseen()
    dist = {t: distance(minus(shape, t, caishen), sets) for t in set(hand)}
    best = min(dist.values())
    out = []
    for t in sorted(dist):
        if not live or only_best and dist[t] > best:
            out.append(DiscardOption(t, dist[t], (), 0))
            continue
        d, useful, n = analyse(minus(shape, t, caishen), sets, caishen, unseen)
        out.append(DiscardOption(t, d, useful, n))
    return out


def distinct_tiles(shape: Shape, caishen: int) -> list[int]:
    """The kinds a shape holds, the 财神 last."""
    out = [t for t in range(NUM_PLAYING) if t != caishen and shape.count(t)]
    if shape.wilds:
        out.append(caishen)
    return out


def claim_uses(a: Action, t: int) -> list[int]:
    """The tiles a chi, peng or 明杠 of the discard ``t`` takes from the hand."""
    if a.kind == "chi":
        used = list(a.tiles)
        used.remove(t)
        return used
    return [t] * (2 if a.kind == "peng" else 3)


def after_claim(shape: Shape, a: Action, t: int) -> Shape:
    """The hand's shape once the chi, peng or 明杠 ``a`` of the discard ``t`` has taken its
    tiles from it (into the meld)."""
    for x in claim_uses(a, t):
        shape = shape.remove(x)
    return shape


def isolation(hand: Sequence[int], t: int, caishen: int) -> int:
    """How alone a tile is: fewer neighbours and copies → discard it first."""
    if t == caishen:
        return -10
    score = 0
    for x in hand:
        if x == caishen:
            continue
        if x == t:
            score -= 2
        elif t < 27 and x // 9 == t // 9 and abs(x - t) <= 2:
            score -= 1
    if t >= 27:
        score += 1
    elif t % 9 in (0, 8):
        score += 1
    return score + 1  # the tile itself was counted once as its own copy


def tile_waits(obs: Observation) -> list[int]:
    """The tiles a 13-tile observation hand is waiting on (for the assist)."""
    return waits(Shape.of(obs.playing_hand, obs.caishen), obs.caishen)


# ------------------------------------------------------------------ the race model

def hazard(wall: int) -> float:
    """Chance that one opponent self-draws a win on one turn, by tiles left in the wall.

    Fitted to bot play (there are almost no drawn hands): nobody wins in the
    first rounds, then about 1 turn in 30 with 60 tiles left, 1 in 7 with 30.
    """
    return min(0.2, max(0.0, 0.0035 * (75 - wall)))


def survival(wall: int, turns: int) -> float:
    """Chance that none of the next ``turns`` opponent turns wins."""
    p = 1.0
    for i in range(turns):
        if wall - i <= 0:
            return 0.0
        p *= 1 - hazard(wall - i)
    return p


_ALIVE: dict[tuple[int, int], tuple[float, ...]] = {}


def _alive(wall: int, lead: int) -> tuple[float, ...]:
    """Chance that no opponent has won before each of our next draws (at most 24): it
    depends on the wall and the lead alone, so it is worked out once for each."""
    hit = _ALIVE.get((wall, lead))
    if hit is not None:
        return hit
    alive: list[float] = []
    w = wall
    p_alive = 1.0
    opp = lead
    while w > 0 and len(alive) < 24:
        for _ in range(opp):
            if w <= 0:
                break
            p_alive *= 1 - hazard(w)
            w -= 1
        if w <= 0:
            break
        alive.append(p_alive)
        w -= 1
        opp = 3
    hit = _ALIVE[(wall, lead)] = tuple(alive)
    return hit


def race(stages: Sequence[float], ready: Sequence[tuple[float, float, float]],
         wall: int, lead: int) -> float:
    """Expected value of winning a race against three opponents.

    ``stages``: per-draw chances of the draws still needed to become ready;
    ``ready``: (weight, per-draw chance to win, value) of the ready hands
    reached. Before our first draw ``lead`` opponents play, then three
    between our draws; each may win first (:func:`hazard`).
    """
    alive = _alive(wall, lead)
    k_max = len(alive)
    if not k_max:
        return 0.0
    # done[j]: chance the last stage completes exactly at draw j (0 = already ready).
    # Each sum over the draws is a running one (a geometric wait is memoryless), so a
    # stage costs one pass over the draws, not one per pair of them.
    done = [1.0] + [0.0] * k_max
    for q in stages:
        nxt = [0.0] * (k_max + 1)
        run = 0.0
        for k in range(1, k_max + 1):
            pj = done[k - 1]
            run = run * (1 - q) + (pj * q if pj >= 1e-9 else 0.0)
            nxt[k] = run
        done = nxt
    value = 0.0
    for weight, p, v in ready:
        if p <= 0:
            continue
        # after[j]: chance of winning on a draw after j (and before anyone else)
        acc = 0.0
        after = 0.0
        for j in range(k_max - 1, -1, -1):
            after = p * alive[j] + (1 - p) * after
            pj = done[j]
            if pj >= 1e-9:
                acc += pj * after
        value += weight * acc * v
    return value


# ------------------------------------------------------------------ words

def span(useful: Sequence[int]) -> str:
    """Useful tiles in English words, numbers grouped by suit: ``3, 6 Dots; 1 Bamboo …``."""
    if len(useful) >= NUM_PLAYING - 1:
        return "any tile"
    groups: list[str] = []
    shown = sorted(useful)[:4]
    for suit in range(3):
        nums = [str(t % 9 + 1) for t in shown if t // 9 == suit]
        if nums:
            groups.append(", ".join(nums) + " " + tile_name(9 * suit + 8, "en").split(" ", 1)[1])
    groups += [tile_name(t, "en") for t in shown if t >= 27]
    return "; ".join(groups) + (" …" if len(useful) > 4 else "")


def discard_choice(seat: int, best: DiscardOption) -> Choice:
    """A discard with its reason: how far from ready it leaves the hand, and on what."""
    action = Action(seat, "discard", best.tile)
    if best.distance == 0:
        return Choice(action, "bot.discard_ready", {"tname": best.tile, "kinds": len(best.useful),
                                                    "span": span(best.useful), "live": best.live})
    return Choice(action, "bot.discard", {"tname": best.tile, "distance": best.distance,
                                          "span": span(best.useful), "live": best.live})
