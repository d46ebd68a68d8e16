"""Benchmark workloads, run the same way in CPython and in Pyodide (under Node).

Each returns plain numbers; the timer is passed in so the same code measures
both interpreters. Results are medians over batches.
"""

from __future__ import annotations

from statistics import median

from sxmj.game import Game
from sxmj.match import Match
from sxmj.simulate import Checker
from sxmj.tiles import NUM_PLAYING
from sxmj.wall import Rng
from sxmj.winning import Shape, is_win, waits


def random_shapes(count: int, size: int, seed: int) -> list[tuple[Shape, list[int], int]]:
    """Random concealed hands of ``size`` tiles holding 0–4 财神 (uniformly)."""
    rng = Rng(seed)
    out = []
    for i in range(count):
        caishen = rng.randbelow(NUM_PLAYING)
        wilds = i % 5
        tiles = [caishen] * wilds
        counts = [0] * NUM_PLAYING
        counts[caishen] = wilds
        while len(tiles) < size:
            t = rng.randbelow(NUM_PLAYING)
            if t != caishen and counts[t] < 4:
                counts[t] += 1
                tiles.append(t)
        out.append((Shape.of(tiles, caishen), tiles, caishen))
    return out


def per_call_us(fn, items, timer, batch: int = 500, rounds: int = 15) -> float:
    """Median over rounds of the mean µs per call across a batch."""
    samples = []
    for r in range(rounds):
        chunk = items[(r * batch) % len(items):][:batch] or items[:batch]
        t0 = timer()
        for it in chunk:
            fn(it)
        samples.append((timer() - t0) / len(chunk) * 1e6)
    return median(samples)


def win_check(timer, n: int = 5000) -> dict:
    hands = random_shapes(n, 14, 1)
    for s, _, _ in hands:  # fill the lazily built tables first
        is_win(s)
    return {
        "win_check_us": per_call_us(lambda h: is_win(h[0]), hands, timer),
        "win_check_from_tiles_us": per_call_us(lambda h: is_win(Shape.of(h[1], h[2])),
                                               hands, timer),
        "win_rate_in_sample": sum(is_win(s) for s, _, _ in hands) / n,
    }


def ready_shapes(count: int, seed: int) -> list[tuple[Shape, int]]:
    """13-tile hands that are ready: four sets and a pair with one tile taken out,
    some tiles replaced by 财神."""
    rng = Rng(seed)
    out = []
    while len(out) < count:
        caishen = rng.randbelow(NUM_PLAYING)
        tiles: list[int] = []
        for _ in range(4):
            if rng.randbelow(2):
                tiles += [rng.randbelow(NUM_PLAYING)] * 3
            else:
                base = 9 * rng.randbelow(3) + rng.randbelow(7)
                tiles += [base, base + 1, base + 2]
        tiles += [rng.randbelow(NUM_PLAYING)] * 2
        rng.shuffle(tiles)
        tiles.pop()
        for i in range(rng.randbelow(3)):
            tiles[i] = caishen
        if all(tiles.count(t) <= 4 for t in tiles):
            out.append((Shape.of(tiles, caishen), caishen))
    return out


def waits_13(timer, n: int = 3000) -> dict:
    hands = random_shapes(n, 13, 2)
    ready = ready_shapes(n, 3)
    for s, _, c in hands:
        waits(s, c)
    for s, c in ready:
        waits(s, c)
    return {"waits_us": per_call_us(lambda h: waits(h[0], h[2]), hands, timer),
            "waits_ready_hands_us": per_call_us(lambda h: waits(h[0], h[1]), ready, timer)}


def simple_choice(game: Game, seat: int):
    """A simple legal policy: win when possible; otherwise keep the tile just
    drawn if it pairs up or is the 财神 and throw the first lone tile instead,
    else throw the drawn tile; never claim."""
    legal = game.legal_actions(seat)
    for a in legal:
        if a.kind == "hu":
            return a
    if legal[0].kind == "discard":  # its own turn: the discards come first
        obs = game.observation(seat)  # only its own turn needs a look
        hand = obs.hand
        drawn = obs.last_tile
        caishen = obs.caishen
        if drawn is not None and drawn != caishen and hand.count(drawn) == 1:
            for a in legal:
                if a.tile == drawn and a.kind == "discard":
                    return a
        for a in legal:
            t = a.tile
            if t != caishen and a.kind == "discard" and hand.count(t) == 1:
                return a
        return legal[0]
    return next(a for a in legal if a.kind == "pass")


def engine_hands(timer, hands: int = 400, check: bool = False) -> dict:
    """Full hands of a match with the simple policy; hands per second."""
    match = Match(seed=7)
    checker = Checker() if check else None
    t0 = timer()
    wins = 0
    for h in range(hands):
        if h:
            match.next_hand()
        g = match.game
        wall = g.wall.undealt()
        while not g.over:
            seat = g.to_move()[0]
            match.apply(simple_choice(g, seat))
            if checker:
                checker.after_action(g, f"hand {h}")
        if checker:
            checker.after_hand(g, wall, f"hand {h}")
        wins += g.result.winner is not None
    elapsed = timer() - t0
    return {"hands": hands, "hands_per_s": hands / elapsed, "won": wins,
            "violations": len(checker.violations) if checker else None}


def bot_hands(timer, level: str, hands: int = 60) -> dict:
    from sxmj.bots import Bot
    from sxmj.simulate import play_match_hand
    match = Match(seed=11)
    bots = [Bot(level, seed=i) for i in range(4)]
    t0 = timer()
    for h in range(hands):
        if h:
            match.next_hand()
        play_match_hand(match, bots)
    return {f"{level}_bot_hands_per_s": hands / (timer() - t0)}


def random_play_violations(seed: int, hands: int) -> int:
    """Random legal play (any seat, any action) with every invariant checked."""
    rng = Rng(seed)
    checker = Checker()
    match = Match(seed=seed)
    for h in range(hands):
        if h:
            match.next_hand()
        g = match.game
        wall = g.wall.undealt()
        while not g.over:
            movers = g.to_move()
            seat = movers[rng.randbelow(len(movers))]
            legal = g.legal_actions(seat)
            hu = [a for a in legal if a.kind == "hu"]
            match.apply(hu[0] if hu else legal[rng.randbelow(len(legal))])
            checker.after_action(g, f"seed {seed} hand {h}")
        checker.after_hand(g, wall, f"seed {seed} hand {h}")
        if sum(match.scores) != 0:
            checker.violations.append("scores not zero-sum")
    return len(checker.violations)


def decision_times(timer, level: str, hands: int = 12, seed: int = 11) -> dict:
    """How long one bot of ``level`` takes per decision (seat 0, against three hards):
    mean and p95 in ms over every decision it makes in ``hands`` hands of match ``seed``."""
    from sxmj.bots import Bot
    match = Match(seed=seed)
    bots = [Bot(level, seed=seed)] + [Bot("hard", seed=seed + s) for s in (1, 2, 3)]
    times: list[float] = []
    for h in range(hands):
        if h:
            match.next_hand()
        g = match.game
        while not g.over:
            seat = g.to_move()[0]
            obs, legal = g.observation(seat), g.legal_actions(seat)
            t0 = timer()
            action = bots[seat].choose(obs, legal).action
            if seat == 0:
                times.append((timer() - t0) * 1000)
            match.apply(action)
    times.sort()
    return {"level": level, "decisions": len(times),
            "mean_ms": round(sum(times) / len(times), 3),
            "p95_ms": round(times[min(len(times) - 1, int(0.95 * len(times)))], 3)}


def engine_ratio(timer, play_minimal, hands: int = 300, rounds: int = 3) -> dict:
    """Full hands through the public API (:func:`engine_hands`, the simple policy) against
    ``play_minimal(seed)``, the minimal greedy engine of ``../shared/bench``, interleaved in
    the same run; the median of ``rounds`` ratios of hands per second."""
    engine_hands(timer, 20)
    for s in range(20):
        play_minimal(10000 + s)  # its tables fill on first use
    rows = []
    for _ in range(rounds):
        ours = engine_hands(timer, hands)["hands_per_s"]
        t0 = timer()
        for s in range(hands):
            play_minimal(s)
        theirs = hands / (timer() - t0)
        rows.append((ours, theirs, ours / theirs))
    rows.sort(key=lambda r: r[2])
    ours, theirs, ratio = rows[len(rows) // 2]
    return {"hands": hands, "sxmj_hands_per_s": round(ours), "minimal_hands_per_s": round(theirs),
            "ratio": round(ratio, 3), "ratios": [round(r[2], 3) for r in rows]}
