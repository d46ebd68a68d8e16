"""``easy`` (简单): a plausible beginner who sees pairs and neighbours, not live tiles."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Action
from ..observation import Observation
from .analysis import Choice, DiscardOption, isolation
from .base import Strategy


class EasyStrategy(Strategy):
    level = "easy"

    def pick_discard(self, obs: Observation, options: list[DiscardOption]) -> DiscardOption:
        caishen = obs.caishen
        non_wild = [o for o in options if o.tile != caishen] or options
        best_d = min(o.distance for o in non_wild)
        pool = [o for o in non_wild if o.distance <= best_d + 1]
        hand = obs.playing_hand
        pool.sort(key=lambda o: (o.distance, -isolation(hand, o.tile, caishen)))
        top = [o for o in pool if o.distance == pool[0].distance]
        return top[self.rng.randbelow(len(top))]

    def claim(self, obs: Observation, legal: Sequence[Action]) -> Choice:
        passing = next(a for a in legal if a.kind == "pass")
        assert obs.last_discard is not None
        for a in legal:
            if a.kind in ("minggang", "peng") or a.kind == "chi" and self.rng.randbelow(2):
                return Choice(a, "bot.claim_set", {"claim": a.kind, "tname": obs.last_discard[1]})
        return Choice(passing, "bot.pass")
