"""``normal`` (普通): tile efficiency — fewest draws to ready, then most live useful tiles."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Action
from ..observation import Observation
from ..winning import Shape, distance
from .analysis import Choice, DiscardOption, after_claim, claim_uses, isolation, minus
from .base import Strategy


class NormalStrategy(Strategy):
    level = "normal"

    def pick_discard(self, obs: Observation, options: list[DiscardOption]) -> DiscardOption:
        caishen = obs.caishen
        hand = obs.playing_hand
        return min(options, key=lambda o: (o.distance, -o.live, o.tile == caishen,
                                           -isolation(hand, o.tile, caishen)))

    def kong_keeps_pace(self, obs: Observation, kong: Action, best: DiscardOption) -> bool:
        sets = obs.sets_needed
        shape = Shape.of(obs.playing_hand, obs.caishen)
        t = kong.tile
        assert t is not None
        if kong.kind == "angang":
            after = shape
            for _ in range(4):
                after = after.remove(t)
            # 14 - 4 = 10 tiles = 3(k-1)+1 before the replacement draw
            return distance(after, sets - 1) <= best.distance
        return distance(shape.remove(t), sets) <= best.distance

    def claim(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        """Claim what brings the hand closer to ready."""
        passing = next(a for a in legal if a.kind == "pass")
        claims = [a for a in legal if a.kind != "pass"]
        if not claims:
            return Choice(passing, "bot.pass")
        assert obs.last_discard is not None
        t = obs.last_discard[1]
        caishen = obs.caishen
        sets = obs.sets_needed
        hand = obs.playing_hand
        shape = Shape.of(hand, caishen)
        now = distance(shape, sets)
        best, best_gain = passing, 0
        for a in claims:
            after = after_claim(shape, a, t)
            used = claim_uses(a, t)
            if a.kind == "minggang":
                gain = 1 if distance(after, sets - 1) <= now else -1
            else:
                # After chi/peng a discard follows: best 3(k-1)+1 hand.
                hand_after = list(hand)
                for x in used:
                    hand_after.remove(x)
                d_after = min(distance(minus(after, x, caishen), sets - 1)
                              for x in set(hand_after))
                gain = now - d_after
            if gain > best_gain:
                best, best_gain = a, gain
        if best is passing:
            return Choice(passing, "bot.pass_no_gain")
        return Choice(best, "bot.claim_closer", {"claim": best.kind, "tname": t})
