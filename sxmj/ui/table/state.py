"""What the table shows, as one object: :class:`TableState` (seat 0's view of a match)
and :class:`ResultInfo` (how a finished hand ended)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sxmj.game import Action
from sxmj.observation import Observation, Observed
from sxmj.scoring import Evaluation
from sxmj.ui.i18n import seat_name, tr
from sxmj.ui.table.assist import Ghost

# ------------------------------------------------------------------ state


@dataclass
class ResultInfo:
    """How the hand ended, with what the table shows once it is over."""

    winner: int | None
    payments: list[int]
    reasons: list[str]
    evaluation: Evaluation | None
    robbed: int | None
    win_by: str
    hand: list[int] = field(default_factory=list)  # the winner's concealed tiles
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    hands: list[list[int]] = field(default_factory=list)  # every seat's, open once it ends


@dataclass
class TableState(Observed):
    """Everything the table shows, from the player's (seat 0's) point of view."""

    lang: str
    obs: Observation  # game.observation(0)
    legal: list[Action]  # seat 0's legal actions now (empty when it has nothing to decide)
    scores: list[int]
    hand_no: int
    seed: int = 0
    speed: str = "normal"
    level: str = "normal"
    thinking: int | None = None  # the bot seat visibly thinking
    held: bool = False  # a card or sheet is open: the bots wait for it to close
    confirm_piao: bool = False  # asking whether to throw the 财神 and pass up a win
    dismissed: bool = False  # own-turn offers (胡/杠) put away with 过
    result: ResultInfo | None = None
    link: str = ""
    fresh: dict[str, set[int]] = field(default_factory=dict)  # "meld"/"flower"/"draw": seats
    # that just got one, so the newest of each animates once (see fresh_events)
    suggest: Action | None = None  # the assist's or the coach's suggestion (highlighted)
    pick: int | None = None  # the tile chosen with ←/→ (index in the hand as drawn)
    ghosts: list[Ghost] = field(default_factory=list)  # disallowed actions, explained
    viewer: bool = False  # a replay: nothing to click on the table
    viewer_bar: str = ""  # a replay's bar, the result's footer at a hand's end
    menu_rules: str = ""  # the rules chip, first of the match's chips in the menu
    menu_extra: str = ""  # the player's chips at the menu's end (profile, settings, help)
    result_top: str = ""  # markup above the result (the scenario's outcome)
    again_label: str = ""  # the next-hand button's label when it restarts (scenario mode)
    result_after: str = ""  # markup under the payments (the player's rank)
    # the status line while a tapped tile stands raised (sxmj.ui.table.inputs.touch)
    preview: str = ""
    first_win: bool = False  # the hand just ended is the player's first win ever (celebrated)
    length: int = 0  # hands in the match (0: endless)
    match_over: bool = False  # the match's last hand is over: no next hand
    names: tuple[str, ...] = ()  # players' names by seat (the friends room), else the seats'
    seed_shown: bool = True  # the menu's seed chip (a daily is shared by its own link)
    banner: str = ""  # the strip over the table of a way to play (the daily's), in the rail
    daily_link: str = ""  # today's daily challenge (每日挑战): the menu's and welcome's link
    welcome_open: bool = False  # the welcome card is open (it holds the daily's link then)
    # the action bar's choices (action_bar.Button), once the table's state is complete: the
    # ones drawn are the ones a click or a key presses (None: worked out when drawn)
    choices: list[Any] | None = None

    def is_fresh(self, what: str, seat: int) -> bool:
        return seat in self.fresh.get(what, ())

    @staticmethod
    def of(match, lang: str = "zh", **kw) -> TableState:
        """The state of a :class:`sxmj.match.Match` as seat 0 sees it."""
        game = match.game
        result = kw.pop("result", None)
        if result is None and game.over and game.result is not None:
            result = result_info(match)
        kw.setdefault("length", match.options.match_hands)
        return TableState(lang=lang, obs=game.observation(0), legal=game.legal_actions(0),
                          scores=list(match.scores), hand_no=match.hand_no + 1,
                          seed=match.seed, result=result, **kw)

    def name(self, seat: int) -> str:
        if seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return seat_name(seat, self.lang)

    def tr(self, key: str, /, **values: object) -> str:
        return tr(self.lang, key, **values)


def result_info(match) -> ResultInfo:
    """The finished hand of ``match`` (the winner's hand is open to all once it ends)."""
    game = match.game
    r = game.result
    hand = game.concealed(r.winner) if r.winner is not None else []
    return ResultInfo(r.winner, list(r.payments), list(r.reasons), r.evaluation, r.robbed,
                      r.win_by, hand, list(match.scores),
                      [game.concealed(s) for s in range(4)])
