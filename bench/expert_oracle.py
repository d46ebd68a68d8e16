"""Judge the expert where it leaves hard's choice, with a slower and better search.

The expert plays its candidates out with a fast greedy policy. Whether that search finds
better moves than hard is a question a tournament answers only after thousands of hands
(its interval is wide because the hands where the two disagree diverge). This asks it
position by position instead: seat 0 plays hard's line through ``--hands`` hands of a
match (three hards beside it); wherever the expert would choose differently, both moves
are played out over ``--guesses`` determinized guesses of the hidden tiles with *hard's
own policy at every seat* (about a thousand times slower than a playout of the search),
and the paired difference is printed. A positive sum says the expert's deviations gain
points against hards; a negative one that the fast playouts mislead it.

    python3 bench/expert_oracle.py --hands 12 --guesses 40 --noise 1.0 --match-seed 5
    python3 bench/expert_oracle.py --phase claim --hands 40 --noise 1.0 --match-seed 7

Each guess uses only seat 0's observation (the search's own ``sample_hidden``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sxmj.bots import Bot  # noqa: E402
from sxmj.bots.expert import ExpertStrategy  # noqa: E402
from sxmj.bots.hard import HardStrategy  # noqa: E402
from sxmj.bots.search import playout, sample_hidden  # noqa: E402
from sxmj.game import Game  # noqa: E402
from sxmj.match import Match  # noqa: E402
from sxmj.wall import Rng  # noqa: E402


def deviations(hands: int, match_seed: int, noise: float, samples: int, phase: str | None):
    """(observation, hard's action, the expert's action) wherever they differ on seat 0."""
    expert = ExpertStrategy(seed=1, samples=samples)
    expert.noise = noise
    hard = HardStrategy(seed=1)
    others = [None] + [Bot("hard", seed=i) for i in (2, 3, 4)]
    match = Match(seed=match_seed)
    found, decisions = [], 0
    for h in range(hands):
        if h:
            match.next_hand()
        game = match.game
        while not game.over:
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            obs = game.observation(seat)
            if seat == 0:
                mine = hard.choose(obs, legal).action
                if len(legal) > 1:
                    decisions += 1
                    theirs = expert.choose(obs, legal).action
                    if theirs != mine and (phase is None or obs.phase == phase):
                        found.append((obs, mine, theirs))
                match.apply(mine)  # hard's line: the positions hard meets
            else:
                match.apply(others[seat].choose(obs, legal).action)
    return found, decisions


def judge(obs, hard_action, expert_action, guesses: int) -> tuple[float, float]:
    """Mean and standard error of expert − hard over ``guesses`` hard-policy playouts."""
    bots = [HardStrategy(seed=10 + s) for s in range(4)]

    def policy(game: Game, seat: int):
        return bots[seat].choose(game.observation(seat), game.legal_actions(seat)).action

    rng = Rng(12345)
    diffs = []
    for i in range(guesses):
        hands, wall = sample_hidden(obs, rng.fork(i))
        values = []
        for action in (expert_action, hard_action):
            game = Game.from_observation(obs, hands, wall)
            game.apply(action)
            values.append(playout(game, policy)[obs.seat])
        diffs.append(values[0] - values[1])
    mean = sum(diffs) / guesses
    var = sum((d - mean) ** 2 for d in diffs) / (guesses - 1)
    return mean, (var / guesses) ** 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--match-seed", type=int, default=5)
    parser.add_argument("--noise", type=float, default=ExpertStrategy.noise,
                        help="the expert's margin in standard errors (its default unless set)")
    parser.add_argument("--samples", type=int, default=20, help="the expert's own guesses")
    parser.add_argument("--guesses", type=int, default=40, help="hard-policy playouts per move")
    parser.add_argument("--phase", choices=("turn", "claim"), default=None)
    args = parser.parse_args()
    found, decisions = deviations(args.hands, args.match_seed, args.noise, args.samples,
                                  args.phase)
    print(f"{len(found)} of {decisions} decisions differ from hard's", flush=True)
    total, var = 0.0, 0.0
    for obs, mine, theirs in found:
        mean, se = judge(obs, mine, theirs, args.guesses)
        total += mean
        var += se * se
        print(f"  {obs.phase:5} wall {obs.wall:3}: hard {mine} -> expert {theirs}:"
              f" {mean:+.2f} ± {se:.2f}", flush=True)
    print(f"sum {total:+.1f} ± {var ** 0.5:.1f} points over {args.hands} hands"
          f" ({total / args.hands:+.2f} a hand)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
