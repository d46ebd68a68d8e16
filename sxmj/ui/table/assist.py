"""The player's assist and the reasons behind everything that can't be done (pure).

- :func:`assist_info`: what the assist panel shows — the current waits with how many of
  each are still live, the distance to ready, 暴头-ready in plain words, and on the
  player's decision the suggestion of a bot playing the player's own observation, with the
  bot's one-sentence reason.
- :func:`tile_why`: why a tile of the hand can't be discarded now (shown on hover, on tap
  and to screen readers).
- :func:`ghosts`: actions a player might look for that the rules don't allow here, each
  with its reason ("the 财神 can't be used to pung", "Shaoxing has no discard wins (无放铳)").
  They are drawn as disabled buttons that explain themselves (never ``data-action``).

The rules themselves come from the core (``legal_actions``, :mod:`sxmj.winning`,
:mod:`sxmj.bots`); this module only reads what the player's observation shows.

>>> from sxmj.match import Match
>>> m = Match(seed=5)
>>> from sxmj.bots import Bot
>>> info = assist_info(m.game, Bot("normal"), "en")
>>> info.state in ("turn", "wait")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sxmj.actions import Phase
from sxmj.bots import Bot, Choice, Policy
from sxmj.game import Action
from sxmj.observation import Observation
from sxmj.table_game import TableGame
from sxmj.tiles import NUM_PLAYING
from sxmj.ui.i18n import seat_name, tile_label, tr, unbroken
from sxmj.winning import Shape, distance, is_baotou_ready, is_win, waits


@dataclass(frozen=True)
class Wait:
    tile: int
    live: int  # copies the player can't see anywhere: still to come


@dataclass
class AssistInfo:
    """What the assist shows now.

    ``state``: ``turn`` (the player discards), ``claim``/``rob`` (the player decides on
    someone's tile), ``wait`` (others move), ``win`` (the suggestion is 胡), ``none``.
    The hand figures (``distance``, ``waits``, ``baotou_ready``) are the 13-tile hand's:
    the hand as it stands, or on the player's turn the hand after the suggested discard.
    """

    state: str
    distance: int | None = None
    waits: list[Wait] = field(default_factory=list)
    any_tile: bool = False  # 暴头-ready: every tile wins
    baotou_ready: bool = False
    after: int | None = None  # the figures are for the hand after discarding this tile
    suggest: Action | None = None
    reason: str = ""
    note: str = ""  # about the last discard (e.g. 无放铳)

    @property
    def live(self) -> int:
        return sum(w.live for w in self.waits)


def hand_figures(tiles: list[int], sets: int, caishen: int, hidden: list[int],
                 melds_all_winds: bool = False) -> tuple[int, list[Wait], bool, bool]:
    """(distance to ready, waits with live counts, any tile wins, 暴头-ready) of 3k+1 tiles.

    ``melds_all_winds``: every meld is a wind set, so a hand of winds waits for 全风."""
    shape = Shape.of(tiles, caishen)
    d = distance(shape, sets)
    baotou = is_baotou_ready(shape)
    ws = waits(shape, caishen, melds_all_winds) if d == 0 or melds_all_winds else []
    if ws and d:
        d = 0  # ready for 全风, which needs no sets
    any_tile = baotou and len(ws) >= NUM_PLAYING - 1
    return d, [Wait(t, hidden[t]) for t in ws], any_tile, baotou


def assist_info(game: TableGame, bot: Policy | None, lang: str,
                suggest: Action | None = None) -> AssistInfo:
    """The assist for seat 0 now. ``bot`` (any level) makes the suggestion; or ``suggest``
    is given (the scenario coach's); with neither, only the hand's figures are worked out."""
    if game.over:
        return AssistInfo("none")
    obs = game.observation(0)
    legal = game.legal_actions(0)
    caishen = obs.caishen
    hand = obs.playing_hand
    sets = 4 - len(obs.melds[0])
    hidden = obs.unseen()  # copies the player cannot see (the wall, other hands)
    info = AssistInfo("wait")
    choice = None
    if legal and suggest is not None and suggest in legal:
        choice = Choice(suggest, "bot.scripted")
    elif legal and bot is not None:
        choice = bot.choose(obs, legal)
    if choice is not None:
        info.suggest = choice.action
        info.reason = unbroken(choice.reason_in(lang))  # tile names whole
    if legal:
        info.state = {"turn": "turn", "claim": "claim", "rob": "rob"}.get(obs.phase, "wait")
    tiles = hand
    if len(hand) % 3 == 2:  # the player's turn: the hand after the suggested discard
        if choice is not None and choice.action.kind == "hu":
            info.state = "win"
            return info
        if choice is None or choice.action.kind != "discard" or choice.action.tile is None:
            return info
        tiles = list(hand)
        tiles.remove(choice.action.tile)
        info.after = choice.action.tile
    if len(tiles) % 3 != 1:
        return info  # dealt flowers not laid open yet
    winds = all(m.is_wind_set for m in obs.melds[0])
    info.distance, info.waits, info.any_tile, info.baotou_ready = hand_figures(
        tiles, sets, caishen, hidden, winds)
    last = obs.last_discard
    if info.after is None and last is not None and last[0] != 0 and last[1] != caishen \
            and info.distance == 0 and any(w.tile == last[1] for w in info.waits):
        info.note = tr(lang, "why_no_discard_win_tile", tile=tile_label(last[1], lang),
                       name=seat_name(last[0], lang))
    return info


# ------------------------------------------------------------------ why not


def tile_why(obs: Observation, legal: list[Action], t: int, lang: str) -> str:
    """Why tile ``t`` of the player's hand can't be discarded now ("" when it can)."""
    if any(a.kind == "discard" and a.tile == t for a in legal):
        return ""
    phase = obs.phase
    if phase == Phase.OVER:
        return tr(lang, "why_over")
    if t >= NUM_PLAYING:
        return tr(lang, "flower_in_hand")
    if phase == Phase.CLAIM and legal:
        return tr(lang, "why_decide_claim")
    if phase == Phase.ROB and legal:
        return tr(lang, "why_decide_rob")
    if phase == Phase.TURN and obs.turn != 0:
        return tr(lang, "why_turn_of", name=seat_name(obs.turn, lang))
    if phase in (Phase.CLAIM, Phase.ROB):
        return tr(lang, "why_others_deciding")
    return tr(lang, "not_your_turn")


@dataclass(frozen=True)
class Ghost:
    """An action the player may look for that isn't allowed here, with the reason."""

    action: str  # hu, chi, peng, gang
    label: str
    why: str


def ghosts(obs: Observation, legal: list[Action], lang: str) -> list[Ghost]:
    """Disabled actions worth explaining in the player's current decision."""
    if not legal or obs.phase == Phase.OVER:
        return []
    kinds = {a.kind for a in legal}
    caishen = obs.caishen
    hand = obs.playing_hand
    counts = [hand.count(t) for t in range(42)]
    wilds = counts[caishen]
    out: list[Ghost] = []
    if obs.phase == Phase.CLAIM and obs.last_discard is not None:
        who, t = obs.last_discard
        name = seat_name(who, lang)
        if "hu" not in kinds and len(hand) % 3 == 1 and \
                is_win(Shape.of(hand + [t], caishen)):
            out.append(Ghost("hu", tr(lang, "act_hu"), tr(lang, "why_no_discard_win")))
        if t < NUM_PLAYING and t != caishen:
            if "chi" not in kinds and t < 27:
                natural = _chow_with(counts, t, caishen, wild=False)
                with_cai = wilds and _chow_with(counts, t, caishen, wild=True)
                if natural and who != 3:
                    out.append(Ghost("chi", tr(lang, "act_chi"),
                                     tr(lang, "why_chi_left_only", name=name)))
                elif with_cai and not natural and who == 3:
                    out.append(Ghost("chi", tr(lang, "act_chi"), tr(lang, "why_cai_chi")))
            if "peng" not in kinds and counts[t] == 1 and wilds:
                out.append(Ghost("peng", tr(lang, "act_peng"),
                                 tr(lang, "why_cai_peng", tile=tile_label(t, lang))))
            if "minggang" not in kinds and counts[t] == 2 and wilds:
                out.append(Ghost("gang", tr(lang, "act_minggang"), tr(lang, "why_cai_gang")))
            elif "minggang" not in kinds and counts[t] == 3:
                out.append(Ghost("gang", tr(lang, "act_minggang"), tr(lang, "why_wall_gang")))
    elif obs.phase == Phase.TURN and obs.turn == 0 and len(hand) % 3 == 2:
        kongs = {a.tile for a in legal if a.kind in ("angang", "jiagang")}
        if wilds == 4:
            out.append(Ghost("gang", tr(lang, "act_angang"), tr(lang, "why_cai_gang")))
        elif any(counts[x] == 3 and wilds and x != caishen and x not in kongs
                 for x in range(NUM_PLAYING)):
            out.append(Ghost("gang", tr(lang, "act_angang"), tr(lang, "why_cai_gang")))
        elif any(counts[x] == 4 and x != caishen and x not in kongs
                 for x in range(NUM_PLAYING)):
            out.append(Ghost("gang", tr(lang, "act_angang"), tr(lang, "why_wall_gang")))
        if "hu" not in kinds and obs.options.baotou_required and wilds and \
                is_win(Shape.of(hand, caishen)):
            out.append(Ghost("hu", tr(lang, "act_zimo"), tr(lang, "why_baotou_required")))
    return out


def _chow_with(counts: list[int], t: int, caishen: int, wild: bool) -> bool:
    """A chow through ``t`` from the hand: with natural tiles only, or needing a 财神."""
    lo = t // 9 * 9
    for base in (t - 2, t - 1, t):
        if base < lo or base + 2 > lo + 8:
            continue
        others = [m for m in (base, base + 1, base + 2) if m != t]
        natural = sum(1 for m in others if counts[m] and m != caishen)
        if natural == 2 and not wild:
            return True
        if wild and natural == 1:
            return True
    return False


ASSIST_LEVEL = "hard"  # the bot whose choice on the player's own observation is suggested


class Stopwatch(Protocol):
    """The page's clock as the adviser times itself (:class:`sxmj.ui.table.dom.Clock`)."""

    def now(self) -> float: ...

    def record(self, what: str, start: float, first: float, second: float = 0.0) -> None: ...


class Adviser:
    """The assist for the live game: what the hard bot would do from the player's own
    observation (in a scenario, the coach's suggestion), worked out once per state."""

    def __init__(self, clock: Stopwatch):
        self.clock = clock
        self.bot = Bot(ASSIST_LEVEL)
        self.key: tuple | None = None
        self.info: AssistInfo | None = None

    def advise(self, game: TableGame, lang: str, coached: bool = False,
               suggest: Action | None = None) -> AssistInfo | None:
        """The assist for ``game`` now; ``coached``: a lesson's coach suggests (``suggest``),
        and the assist only reads the hand."""
        key = (id(game), len(game.actions), lang, coached)
        if key != self.key:
            t0 = self.clock.now()
            self.info = assist_info(game, None if coached else self.bot, lang, suggest)
            self.key = key
            self.clock.record("assist", t0, self.clock.now() - t0)
        return self.info
