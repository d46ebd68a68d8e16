"""A match: hands in sequence, dealer rotation and running scores."""

from __future__ import annotations

from typing import Any

from .game import Action, Game, HandResult
from .rules import Options
from .wall import Rng, Wall


class Match:
    """Hands played one after another from one seed.

    The dealer of the first hand is chosen by dice; afterwards the dealer
    keeps the deal on a dealer win or a drawn hand, otherwise the winner
    deals next. Hand ``n`` is dealt from the wall of ``Rng(seed).fork(n)``
    unless an explicit first wall is given.

    A match has a length, ``options.match_hands`` hands (0: endless): once that many
    hands are finished it is :attr:`finished`. The table ends the match there; the core
    does not stop anyone playing on (a simulation or a record may hold more hands).

    >>> m = Match(seed=3)
    >>> m.game.dealer == m.dealer, m.scores, m.length, m.finished
    (True, [0, 0, 0, 0], 8, False)
    """

    def __init__(self, seed: int = 0, options: Options | None = None,
                 wall: Wall | None = None, dealer: int | None = None):
        self.seed = seed
        self.options = options or Options()
        self.rng = Rng(seed)
        self.first_wall = wall
        self.first_dealer_fixed = dealer
        if dealer is None:
            d1, d2 = self.rng.fork(0).dice()
            dealer = (d1 + d2 - 1) % 4  # count seats from East (seat 0) by the dice
        self.dealer = dealer
        self.hand_no = 0
        self.scores = [0, 0, 0, 0]
        self.results: list[HandResult] = []
        self.hand_actions: list[list[Action]] = []
        self.walls: dict[int, Wall] = {}  # hand number -> the wall it was given (hand >= 1)
        self.game = self._new_game(wall)

    def _new_game(self, wall: Wall | None = None) -> Game:
        wall = wall or Wall.shuffled(self.rng.fork(self.hand_no + 1))
        self.hand_actions.append([])
        return Game(wall, self.dealer, self.options)

    def apply(self, action: Action | str) -> list[dict[str, Any]]:
        """Apply an action to the current hand, settling scores when it ends."""
        events = self.game.apply(action)
        self.hand_actions[-1] = self.game.actions
        if self.game.over:
            result = self.game.result
            assert result is not None
            self.results.append(result)
            for s in range(4):
                self.scores[s] += result.payments[s]
        return events

    @property
    def length(self) -> int:
        """How many hands the match has (0: endless)."""
        return self.options.match_hands

    @property
    def finished(self) -> bool:
        """The match's last hand is over (never, for an endless match)."""
        return bool(self.length) and self.game.over and len(self.results) >= self.length

    def places(self) -> list[int]:
        """Each seat's place by score (1 is first); equal scores share the better place.

        >>> m = Match(seed=3)
        >>> m.scores = [10, -30, 10, 10]
        >>> m.places()
        [1, 4, 1, 1]
        """
        return [1 + sum(other > mine for other in self.scores) for mine in self.scores]

    def next_dealer(self) -> int:
        """Who deals the next hand: the dealer again after a dealer win or 臭庄
        (连庄), else the winner. Only meaningful once the current hand is over."""
        winner = self.results[-1].winner if self.game.over and self.results else None
        return self.dealer if winner is None else winner

    def next_hand(self, wall: Wall | None = None) -> Game:
        """Start the next hand (the current one must be over), from the seed's wall for it
        or from ``wall``. The friends room deals each hand from fresh randomness this way,
        so that a finished hand's wall, which guests may see, says nothing of the next."""
        if not self.game.over:
            raise ValueError("the current hand is still being played")
        self.dealer = self.next_dealer()
        self.hand_no += 1
        if wall is not None:
            self.walls[self.hand_no] = wall
        self.game = self._new_game(wall)
        return self.game
