"""The table as HTML: pure functions from a :class:`TableState` to markup strings.

No DOM and no rule logic here. What the player may do comes from the engine's
``legal_actions``; this module only draws it. Each region of the page (a seat, a
river, the centre panel, the hand, the action bar, the result) is one string of
escaped markup, assigned with a single ``innerHTML`` by :mod:`sxmj.ui.app`.

Seats: 0 is the player (bottom); play goes 0 → 1 (right, 下家) → 2 (across) →
3 (left, 上家). Each seat's tiles are drawn in its own frame and turned by the
seat's angle, so a claimed tile turns toward whoever gave it.

>>> from sxmj.match import Match
>>> m = Match(seed=1)
>>> html = render_all(TableState.of(m, lang="en"))
>>> 'data-testid="caishen"' in html["panel"]
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Protocol

from ..bots import LEVELS
from ..game import Action, Event
from ..melds import Meld
from ..messages import term
from ..observation import Observation
from ..scoring import FLOWER_ITEMS, PATTERNS, PATTERNS_ZH_EXPLAIN, PAY_REASONS, Evaluation
from ..tiles import code, format_tiles
from .assist import Ghost, tile_why
from .i18n import seat_name, tile_label, tiles_words, tr, wind_char, wind_name

POS = {0: "bottom", 1: "right", 2: "top", 3: "left"}
ANGLE = {0: 0, 1: 270, 2: 180, 3: 90}  # how each seat's own frame is turned on screen
TILE_SRC = "./static/tiles/{}.svg"


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def powers_html(text: str) -> str:
    """Escaped ``text`` with each ``^n`` (as in ``2^番``) set as a superscript.

    The caret stays, visually hidden, for screen readers and for copied text.

    >>> powers_html("2^3 × 6")
    '2<sup><span class="sr-only">^</span>3</sup> × 6'
    """
    return re.sub(r"\^(\d+|番)", r'<sup><span class="sr-only">^</span>\1</sup>', esc(text))


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
class TableState:
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
    menu_extra: str = ""  # chips added to the menu (rules, profile, settings, help)
    result_top: str = ""  # markup above the result (the scenario's outcome)
    again_label: str = ""  # the next-hand button's label when it restarts (scenario mode)
    result_after: str = ""  # markup under the payments (the player's rank)
    preview: str = ""  # the status line while a tapped tile stands raised (sxmj.ui.touch)
    length: int = 0  # hands in the match (0: endless)
    match_over: bool = False  # the match's last hand is over: no next hand
    names: tuple[str, ...] = ()  # players' names by seat (the friends room), else the seats'

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

    @property
    def dealer(self) -> int:
        return self.obs.dealer

    @property
    def caishen(self) -> int:
        return self.obs.caishen

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


# ------------------------------------------------------------------ tiles


class TileLook(Protocol):
    """What the tile functions read from their state: :class:`TableState`, or the pages'
    :class:`sxmj.ui.cards.TileCtx`."""

    @property
    def lang(self) -> str: ...
    @property
    def caishen(self) -> int | None: ...
    def tr(self, key: str, /, **values: object) -> str: ...


def tile_of(a: Action) -> int:
    """The tile of a discard, claim or kong (the engine always names it for those)."""
    if a.tile is None:
        raise ValueError(f"{a} names no tile")
    return a.tile


def tile_html(t: int, st: TileLook, rot: int = 0, cls: str = "", tag: str = "span",
              attrs: str = "", alt: bool = True, note: str = "") -> str:
    """One tile face turned by ``rot`` degrees; a 财神 gets the gold frame and 财 badge."""
    rot %= 360
    classes = ["t", f"r{rot}"]
    cai = t == st.caishen
    if cai:
        classes.append("is-cai")
    if cls:
        classes.append(cls)
    name = tile_label(t, st.lang)
    if cai:
        name += f" ({st.tr('caishen')})"
    img_alt = esc(name) if alt else ""
    badge = f'<i class="cai" aria-hidden="true">{esc(st.tr("caishen_badge"))}</i>' if cai else ""
    extra = f'<i class="t__note">{esc(note)}</i>' if note else ""
    return (f'<{tag} class="{" ".join(classes)}"{attrs}>'
            f'<img src="{TILE_SRC.format(code(t))}" alt="{img_alt}" draggable="false">'
            f"{badge}{extra}</{tag}>")


def back_html(rot: int = 0, cls: str = "") -> str:
    """A face-down tile (an 暗杠's outer tiles)."""
    rot %= 360
    return (f'<span class="t r{rot} t--back {cls}" aria-hidden="true">'
            f'<img src="{TILE_SRC.format("back")}" alt="" draggable="false"></span>')


def group_html(tiles: Iterable[int], st: TileLook, cls: str = "") -> str:
    """Small upright tiles side by side (claim choices, result sets)."""
    inner = "".join(tile_html(t, st) for t in tiles)
    return f'<span class="tg {cls}">{inner}</span>'


# ------------------------------------------------------------------ melds


def meld_html(meld: Meld, seat: int, st: TileLook) -> str:
    """A meld in ``seat``'s frame: the claimed tile turned toward its giver.

    The giver sits on the melder's left (上家), across or right (下家); the turned
    tile goes first, in the middle or last accordingly.
    """
    kind, tiles, source, claimed = meld.kind, meld.tiles, meld.source, meld.claimed
    angle = ANGLE[seat]
    label = f"{tr(st.lang, 'act_' + kind)} {tiles_words(tiles, st.lang)}"
    if kind == "angang":
        t = tiles[0]
        parts = [back_html(angle), tile_html(t, st, angle), tile_html(t, st, angle),
                 back_html(angle)]
        return (f'<span class="meld" data-kind="angang" role="img" aria-label="{esc(label)}">'
                f'{"".join(parts)}</span>')
    rel = (source - seat) % 4 if source is not None else 3
    turn = 90 if rel == 1 else -90
    if claimed is None:  # a meld given without a table: its first tile turned
        claimed = tiles[0]
    rest = list(tiles)
    rest.remove(claimed)
    if kind == "jiagang":
        rest.remove(claimed)  # the added tile lies on the turned one
        turned = ('<span class="stack">' + tile_html(claimed, st, angle + turn) +
                  tile_html(claimed, st, angle + turn) + "</span>")
    else:
        turned = tile_html(claimed, st, angle + turn, cls="is-claimed")
    at = {3: 0, 2: 1, 1: len(rest)}[rel]
    faces = [tile_html(t, st, angle) for t in rest]
    faces.insert(at, turned)
    return (f'<span class="meld" data-kind="{esc(kind)}" role="img" aria-label="{esc(label)}">'
            f'{"".join(faces)}</span>')


def melds_html(seat: int, st: TableState) -> str:
    melds = st.obs.melds[seat]
    if not melds:
        return ""
    inner = [meld_html(m, seat, st) for m in melds]
    if st.is_fresh("meld", seat):
        inner[-1] = inner[-1].replace('class="meld"', 'class="meld is-new"', 1)
    label = st.tr("melds_label", name=st.name(seat))
    return f'<div class="strip melds" aria-label="{esc(label)}">{"".join(inner)}</div>'


def flowers_html(seat: int, st: TableState) -> str:
    flowers = st.obs.flowers[seat]
    if not flowers:
        return ""
    new = st.is_fresh("flower", seat)
    inner = "".join(tile_html(t, st, ANGLE[seat], cls="is-new" if new and i == len(flowers) - 1
                              else "") for i, t in enumerate(flowers))
    label = st.tr("flowers_label", name=st.name(seat), n=len(flowers))
    return f'<div class="strip flowers" aria-label="{esc(label)}">{inner}</div>'


# ------------------------------------------------------------------ seats


def active_seat(st: TableState) -> int | None:
    """The seat the table waits on: the turn, or the player when asked to claim."""
    obs = st.obs
    if st.result is not None or obs.phase == "over":
        return None
    if st.thinking is not None:
        return st.thinking
    if obs.phase == "turn":
        return obs.turn
    if st.legal:
        return 0
    return None


def plate_html(seat: int, st: TableState) -> str:
    obs = st.obs
    classes = ["plate"]
    active = active_seat(st) == seat
    if active:
        classes.append("is-active")
    if st.thinking == seat:
        classes.append("is-thinking")
    wind = wind_char(seat, st.dealer)
    wind_title = wind_name(seat, st.dealer, st.lang)
    n_flowers = len(obs.flowers[seat])
    dealer = (f'<span class="plate__dealer" title="{esc(st.tr("dealer"))}">'
              f'{esc(st.tr("dealer_short"))}</span>' if seat == st.dealer else "")
    pos = ""
    if seat and st.lang == "en":
        pos = f'<span class="plate__pos">{esc(wind_title)}</span>'
    state = ""
    if st.thinking == seat:
        state = (f'<span class="plate__state">{esc(st.tr("thinking"))}'
                 f'<i class="dots" aria-hidden="true"><b></b><b></b><b></b></i></span>')
    elif active and seat == 0:
        state = f'<span class="plate__state">{esc(st.tr("your_move"))}</span>'
    flowers_label = st.tr("flowers_label", name=st.name(seat), n=n_flowers)
    return (f'<header class="{" ".join(classes)}" data-seat="{seat}">'
            f'<span class="plate__wind" title="{esc(wind_title)}">{wind}</span>'
            f'<span class="plate__name">{esc(st.name(seat))}{pos}</span>{dealer}'
            f'<span class="plate__flowers" title="{esc(flowers_label)}">'
            f'{esc(st.tr("flowers_count", n=n_flowers))}</span>{state}</header>')


def opponent_html(seat: int, st: TableState) -> str:
    """An opponent's corner: plate, concealed tiles as backs with their count, melds, flowers."""
    n = st.obs.hand_counts[seat]
    backs = '<i class="back"></i>' * n
    if n and st.is_fresh("draw", seat):
        backs = '<i class="back"></i>' * (n - 1) + '<i class="back is-new"></i>'
    label = st.tr("hand_label", name=st.name(seat), n=n)
    hand = (f'<div class="strip hand hand--backs" role="img" aria-label="{esc(label)}">'
            f'{backs}<span class="count" aria-hidden="true">{n}</span></div>')
    if st.result is not None and st.result.hands:
        hand = open_hand_html(seat, st)
    opened = melds_html(seat, st) + flowers_html(seat, st)
    if opened:
        opened = f'<div class="seat__open">{opened}</div>'
    return plate_html(seat, st) + f'<div class="seat__tiles">{hand}{opened}</div>'


def open_hand_html(seat: int, st: TableState) -> str:
    """An opponent's hand laid open once the hand is over (the winning tile lifted)."""
    r = st.result
    assert r is not None
    lifted = r.evaluation.win_tile if r.winner == seat and r.evaluation is not None else None
    faces = []
    for t in sorted(r.hands[seat], key=lambda t: (t != st.caishen, t)):
        cls = ""
        if lifted is not None and t == lifted:
            cls, lifted = "is-win", None
        faces.append(tile_html(t, st, ANGLE[seat], cls=cls))
    label = st.tr("hand_open_label", name=st.name(seat))
    win = " is-winner" if r.winner == seat else ""
    return (f'<div class="strip hand hand--open{win}" role="group" aria-label="{esc(label)}">'
            f'{"".join(faces)}</div>')


def me_plate_html(st: TableState) -> str:
    """The player's plate with the flowers laid open beside it."""
    return plate_html(0, st) + flowers_html(0, st)


def me_melds_html(st: TableState) -> str:
    return melds_html(0, st)


def drawn_tile(st: TableState) -> int | None:
    """The tile the player just drew, shown apart at the right end of the hand."""
    obs = st.obs
    if obs.phase != "turn" or obs.turn != 0 or obs.last_tile is None:
        return None
    if len(obs.hand) % 3 != 2 or obs.last_tile not in obs.hand:
        return None
    return obs.last_tile


def hand_order(st: TableState) -> list[int]:
    """The player's concealed tiles as drawn: 财神 far left, the drawn tile apart at the right."""
    hand = list(st.obs.hand)
    drawn = drawn_tile(st)
    if drawn is not None and drawn != st.caishen:
        hand.remove(drawn)
        hand.append(drawn)
    return hand


def hand_html(st: TableState) -> str:
    """The player's concealed tiles, face up, 财神 far left; only legal discards enabled.

    A disabled tile says why (``data-why``: a tooltip on hover, a note on tap, and its
    ``aria-description``); the suggested discard carries ``data-suggested``, the tile
    chosen with ←/→ ``is-picked``."""
    obs = st.obs
    hand = hand_order(st)
    legal = {a.tile for a in st.legal if a.kind == "discard"}
    my_turn = obs.phase == "turn" and obs.turn == 0 and st.result is None
    drawn = drawn_tile(st)
    apart = drawn is not None and drawn != st.caishen
    suggested = st.suggest.tile if st.suggest is not None and st.suggest.kind == "discard" \
        else None
    last_suggested = max((i for i, t in enumerate(hand) if t == suggested), default=None)
    r = st.result
    lifted = r.evaluation.win_tile if r is not None and r.winner == 0 and r.evaluation else None
    out = []
    marked = False
    for i, t in enumerate(hand):
        cls = []
        is_drawn = drawn is not None and t == drawn and (
            (apart and i == len(hand) - 1) or (not apart and not marked))
        if is_drawn:
            marked = True
            cls.append("is-drawn")
        if apart and i == len(hand) - 1:
            cls.append("is-apart")
        name = tile_label(t, st.lang)
        if t == st.caishen:
            name += f" ({st.tr('caishen')})"
        if t in legal and st.result is None and not st.viewer:
            attrs = f' data-tile="{code(t)}" aria-label="{esc(st.tr("discard_tile", tile=name))}"'
            if i == last_suggested:
                attrs += ' data-suggested="true"'
            if st.pick == i:
                cls.append("is-picked")
                attrs += ' data-raised="1"'
        else:
            why = "" if st.viewer else tile_why(obs, st.legal, t, st.lang)
            attrs = f' data-tile="{code(t)}" aria-label="{esc(name)}" disabled'
            if why:
                attrs += f' data-why="{esc(why)}" aria-description="{esc(why)}"'
            if my_turn:
                cls.append("is-illegal")
            if lifted is not None and t == lifted:
                cls.append("is-win")
                lifted = None
        out.append(tile_html(t, st, cls=" ".join(cls), tag="button",
                             attrs=' type="button"' + attrs, alt=False))
    return "".join(out)


# ------------------------------------------------------------------ actions


@dataclass(frozen=True)
class Button:
    """One button of the action bar; ``engine`` is the action it applies (None: UI only)."""

    action: str  # data-action: hu chi peng gang pass piao cancel
    key: str  # the shortcut printed on it
    label: str
    engine: Action | None = None
    tiles: tuple[int, ...] = ()
    primary: bool = False

    @property
    def data_tiles(self) -> str:
        return format_tiles(self.tiles) if self.tiles else ""


CHI_KEYS = ("C", "V", "B")
GANG_KEYS = ("G", "F", "T", "R")


def buttons(st: TableState) -> list[Button]:
    """The choices the player has now, as buttons (only legal ones)."""
    if st.result is not None or not st.legal:
        return []
    lang = st.lang
    phase = st.obs.phase
    legal = st.legal
    hu = next((a for a in legal if a.kind == "hu"), None)
    out: list[Button] = []
    if st.confirm_piao:
        piao = next((a for a in legal if a.kind == "discard" and a.tile == st.caishen), None)
        if hu is not None:
            out.append(Button("hu", "H", tr(lang, "act_zimo"), hu, primary=True))
        if piao is not None:
            out.append(Button("piao", "Y", tr(lang, "act_piao"), piao, (st.caishen,)))
        out.append(Button("cancel", "Esc", tr(lang, "act_cancel")))
        return out
    if phase == "rob":
        robbed = () if st.obs.rob_tile is None else (st.obs.rob_tile,)
        if hu is not None:
            out.append(Button("hu", "H", tr(lang, "act_qianggang"), hu, robbed, primary=True))
        out.append(Button("pass", "X", tr(lang, "act_pass"),
                          next(a for a in legal if a.kind == "pass")))
        return out
    if phase == "claim":
        chis = [a for a in legal if a.kind == "chi"]
        for i, a in enumerate(chis):
            key = "C" if len(chis) == 1 else CHI_KEYS[i]
            out.append(Button("chi", key, tr(lang, "act_chi"), a, a.tiles))
        for a in legal:
            if a.kind == "peng":
                out.append(Button("peng", "P", tr(lang, "act_peng"), a, (tile_of(a),) * 3))
            elif a.kind == "minggang":
                out.append(Button("gang", "G", tr(lang, "act_minggang"), a, (tile_of(a),) * 4))
        out.append(Button("pass", "X", tr(lang, "act_pass"),
                          next(a for a in legal if a.kind == "pass")))
        return out
    # own turn: 胡 and kongs are offers beside the discards
    if st.dismissed:
        return []
    if hu is not None:
        out.append(Button("hu", "H", tr(lang, "act_zimo"), hu, primary=True))
    kongs = [a for a in legal if a.kind in ("angang", "jiagang")]
    for i, a in enumerate(kongs):
        key = "G" if len(kongs) == 1 else GANG_KEYS[i % len(GANG_KEYS)]
        out.append(Button("gang", key, tr(lang, "act_" + a.kind), a, (tile_of(a),) * 4))
    if out:
        out.append(Button("pass", "X", tr(lang, "act_pass")))
    return out


def button_html(b: Button, st: TableState) -> str:
    cls = "act" + (" act--primary" if b.primary else "") + f" act--{b.action}"
    attrs = f' data-action="{esc(b.action)}" data-key="{esc(b.key.lower())}"'
    if b.data_tiles:
        attrs += f' data-tiles="{esc(b.data_tiles)}"'
    if b.engine is not None and b.action == "gang":
        attrs += f' data-kind="{esc(b.engine.kind)}"'
    if b.engine is not None and b.engine == st.suggest:
        cls += " is-suggested"
        attrs += ' data-suggested="true"'
    key_label = st.tr("key_hint", key=b.key)
    tiles = ""
    if b.tiles:
        last = st.obs.last_discard
        claimed = last[1] if b.action == "chi" and last else None
        faces = "".join(tile_html(t, st, cls="is-claimed" if t == claimed else "")
                        for t in b.tiles)
        tiles = f'<span class="tg tg--btn">{faces}</span>'
    return (f'<button type="button" class="{cls}"{attrs} aria-keyshortcuts="{esc(b.key)}">'
            f'<span class="act__label">{esc(b.label)}</span>{tiles}'
            f'<kbd title="{esc(key_label)}">{esc(b.key)}</kbd></button>')


GHOST_KEYS = {"hu": "H", "chi": "C", "peng": "P", "gang": "G"}


def ghost_html(g: Ghost, st: TableState) -> str:
    """A disallowed action as a button that explains itself (hover, focus, tap or its key);
    ``aria-disabled`` (not ``disabled``) so that it can still be tapped and focused, and no
    ``data-action``: it is never one of the player's choices."""
    key = GHOST_KEYS.get(g.action, "")
    return (f'<button type="button" class="act act--off" aria-disabled="true" '
            f'data-why-action="{esc(g.action)}" data-why="{esc(g.why)}" '
            f'aria-description="{esc(g.why)}" data-key="{esc(key.lower())}">'
            f'<span class="act__label">{esc(g.label)}</span>'
            f'<span class="act__why" aria-hidden="true">?</span></button>')


def status_text(st: TableState) -> str:
    """One line telling the player what the table waits for."""
    obs = st.obs
    if st.result is not None or obs.phase == "over":
        return st.tr("status_over")
    if st.viewer:  # a replay: nobody is asked anything
        return st.tr("viewer")
    if st.preview:  # a tapped tile stands raised: tap again to throw it
        return st.preview
    if st.thinking is not None:
        return st.tr("status_thinking", name=st.name(st.thinking))
    kinds = {a.kind for a in st.legal}
    if obs.phase == "claim" and st.legal and obs.last_discard:
        seat, t = obs.last_discard
        return st.tr("status_claim", name=st.name(seat), tile=tile_label(t, st.lang))
    if obs.phase == "rob" and st.legal and obs.rob_tile is not None:
        return st.tr("status_rob", name=st.name(obs.turn),
                     tile=tile_label(obs.rob_tile, st.lang))
    if obs.phase == "turn" and obs.turn == 0:
        if st.confirm_piao:
            return st.tr("piao_prompt")
        if "hu" in kinds and not st.dismissed:
            return st.tr("status_your_turn_hu")
        if kinds & {"angang", "jiagang"} and not st.dismissed:
            return st.tr("status_your_turn_gang")
        if drawn_tile(st) is None and len(obs.hand) % 3 == 2 and obs.melds[0]:
            return st.tr("status_after_claim")
        return st.tr("status_your_turn")
    if obs.phase == "turn":
        return st.tr("status_thinking", name=st.name(obs.turn))
    return st.tr("status_waiting")


def put_away_offers(st: TableState) -> bool:
    """True when the player put the 胡/杠 offers of this turn away and may want them back."""
    if not st.dismissed or st.result is not None:
        return False
    return any(a.kind in ("hu", "angang", "jiagang") for a in st.legal)


def actions_html(st: TableState) -> str:
    bs = buttons(st)
    mine = active_seat(st) == 0
    status_cls = "status" + (" status--mine" if mine else "")
    if st.confirm_piao:
        status_cls += " status--ask"
    if st.preview:
        status_cls += " status--raised"
    out = [f'<p class="{status_cls}" id="status" role="status">{esc(status_text(st))}</p>']
    ghosts = "" if st.confirm_piao else "".join(ghost_html(g, st) for g in st.ghosts)
    if bs or ghosts:
        out.append('<div class="acts">' + "".join(button_html(b, st) for b in bs) + ghosts +
                   "</div>")
        if bs and st.obs.phase == "turn" and not st.confirm_piao:
            out.append(f'<p class="acts__hint">{esc(st.tr("or_discard"))}</p>')
    elif put_away_offers(st):
        out.append(f'<button type="button" class="chip chip--offers" data-ui="offers">'
                   f'{esc(st.tr("show_offers"))}</button>')
    return "".join(out)


# ------------------------------------------------------------------ rivers and panel


def river_html(seat: int, st: TableState) -> str:
    """A seat's discards in order, six to a row, newest highlighted; claimed ones dimmed."""
    river = st.obs.discards[seat]
    last = st.obs.last_discard  # kept until the next discard, cleared by a claim
    out = []
    for i, (t, by) in enumerate(river):
        cls = []
        note = ""
        if by is not None:
            cls.append("is-taken")
            note = "↗"
        is_last = i == len(river) - 1 and last is not None and last[0] == seat
        if is_last:
            cls.append("is-last")
        attrs = f' title="{esc(tile_label(t, st.lang))}"'
        if by is not None:
            attrs = f' title="{esc(tile_label(t, st.lang))} → {esc(st.name(by))}"'
        out.append(tile_html(t, st, cls=" ".join(cls), attrs=attrs, note=note))
    return f'<div class="river__in">{"".join(out)}</div>'


PIPS = {
    1: [(12, 12)],
    2: [(7, 7), (17, 17)],
    3: [(6, 6), (12, 12), (18, 18)],
    4: [(7, 7), (17, 7), (7, 17), (17, 17)],
    5: [(7, 7), (17, 7), (12, 12), (7, 17), (17, 17)],
    6: [(7, 6), (17, 6), (7, 12), (17, 12), (7, 18), (17, 18)],
}


def die_html(n: int) -> str:
    fill = "#c8202b" if n in (1, 4) else "#1f1a14"
    r = 3.2 if n == 1 else 2.2
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}"/>' for x, y in PIPS[n])
    return (f'<svg class="die" viewBox="0 0 24 24" aria-hidden="true">'
            f'<rect x="1" y="1" width="22" height="22" rx="5" fill="#fffaf0" stroke="#c9b88a"/>'
            f"{pips}</svg>")


def panel_html(st: TableState) -> str:
    """The centre: hand number, wall count, indicator and 财神, dice, winds and scores."""
    obs = st.obs
    active = active_seat(st)
    edges = []
    for seat in range(4):
        cls = f"edge edge--{POS[seat]}"
        if active == seat:
            cls += " is-active"
        if seat == st.dealer:
            cls += " is-dealer"
        score = st.scores[seat]
        label = st.tr("score_of", name=st.name(seat), score=score)
        marker = '<i class="edge__turn" aria-hidden="true">▲</i>' if active == seat else ""
        dealer = (f'<i class="edge__dealer" title="{esc(st.tr("dealer"))}">'
                  f'{esc(st.tr("dealer_short"))}</i>' if seat == st.dealer else "")
        edges.append(
            f'<div class="{cls}" data-seat="{seat}" data-score="{score}" role="listitem" '
            f'aria-label="{esc(label)}">{marker}'
            f'<b class="edge__wind" title="{esc(wind_name(seat, st.dealer, st.lang))}">'
            f'{wind_char(seat, st.dealer)}</b>{dealer}'
            f'<span class="edge__score">{_signed(score) if score else "0"}</span></div>')
    ind, cai = obs.indicator, obs.caishen
    a, b = obs.dice
    piao = ""
    if obs.piao_block:
        who = obs.piao_block[0]
        piao = (f'<p class="panel__piao" title="{esc(st.tr("piao_round", name=st.name(who)))}">'
                f'{esc(st.tr("piao_badge", name=st.name(who)))}</p>')
    return (
        f'<div class="panel__scores" data-testid="scores" role="list" '
        f'aria-label="{esc(st.tr("scores"))}">{"".join(edges)}</div>'
        f'<div class="panel__mid">'
        f'<p class="panel__round">{esc(hand_no_text(st))}</p>'
        f'<div class="panel__cai">'
        f'<figure class="slot"><span class="slot__tile" title="{esc(st.tr("indicator_is", tile=tile_label(ind, st.lang)))}">'  # noqa: E501
        f'{tile_html(ind, st, cls="t--ind")}</span>'
        f'<figcaption>{esc(st.tr("indicator"))}</figcaption></figure>'
        f'<span class="slot__arrow" aria-hidden="true">→</span>'
        f'<figure class="slot slot--cai"><span class="slot__tile" data-testid="caishen" '
        f'data-tile="{code(cai)}" title="{esc(st.tr("caishen_is", tile=tile_label(cai, st.lang)))}">'  # noqa: E501
        f'{tile_html(cai, st)}</span>'
        f'<figcaption>{esc(st.tr("caishen"))}</figcaption></figure></div>'
        f'<p class="panel__wall" title="{esc(st.tr("wall"))}">'
        f'{_wall_text(st)}</p>'
        f'<p class="panel__dice" role="img" aria-label="{esc(st.tr("dice", a=a, b=b))}">'
        f"{die_html(a)}{die_html(b)}</p>{piao}</div>")


def hand_no_text(st: TableState) -> str:
    """第 3 局, or 第 3/8 局 in a match of a length."""
    return st.tr("hand_no_of", n=st.hand_no, of=st.length) if st.length else st.tr(
        "hand_no", n=st.hand_no)


def _wall_text(st: TableState) -> str:
    n = f'<b data-testid="wall-count">{st.obs.wall}</b>'
    text = esc(st.tr("wall_left", n="\x00"))
    return text.replace("\x00", n)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", "−")


# ------------------------------------------------------------------ result


def result_html(st: TableState) -> str:
    """The end of a hand: winner, hand in its sets, 番, 花, formula, payments; or 臭庄."""
    r = st.result
    if r is None:
        return ""
    lang = st.lang
    ev = r.evaluation
    if r.winner is None:
        title = st.tr("result_draw")
        sub = f'<p class="result__sub">{esc(st.tr("result_draw_note"))}</p>'
        body = ""
        kind = "draw"
    else:
        title = (st.tr("result_you_win") if r.winner == 0
                 else st.tr("result_win", name=st.name(r.winner)))
        how = (st.tr("win_by_rob_of", name=st.name(r.robbed)) if r.win_by == "rob" and
               r.robbed is not None else st.tr(f"win_by_{r.win_by or 'draw'}"))
        sub = (f'<p class="result__sub">{esc(how)} · '
               f'{esc(wind_name(r.winner, st.dealer, lang))}</p>')
        body = (_winning_hand_html(st, r.winner, r.hand, ev) + _scoring_html(st, ev)
                if ev is not None else "")
        kind = "win"
    pay = _payments_html(st, r)
    foot = new = ""
    if not st.viewer:
        view_table = (f'<button type="button" class="act act--ghost act--view" '
                      f'data-ui="view-table" aria-pressed="false"><span class="act__label">'
                      f'{esc(st.tr("view_table"))}</span></button>')
        if st.match_over:  # the match is over: a new one, not a next hand
            go = (f'<button type="button" class="act act--primary act--next" '
                  f'data-action="new-match"><span class="act__label">'
                  f'{esc(st.tr("match_again"))}</span></button>')
        else:  # 新比赛 sits in the card's corner, far from 下一局
            go = (f'<button type="button" class="act act--primary act--next" '
                  f'data-action="next-hand" data-key="n" aria-keyshortcuts="N">'
                  f'<span class="act__label">{esc(st.again_label or st.tr("act_next_hand"))}'
                  f'</span><kbd>N</kbd></button>')
            new = (f'<button type="button" class="act act--ghost act--newmatch" '
                   f'data-action="new-match"><span class="act__label">'
                   f'{esc(st.tr("act_new_match"))}</span></button>')
        foot = f'<footer class="result__foot">{view_table}{go}</footer>'
    return (
        f'<div class="result__card" data-testid="hand-result" data-result="{kind}" '
        f'role="dialog" aria-labelledby="result-title">{st.result_top}'
        f'<header class="result__head">{new}<p class="result__hand-no">'
        f'{esc(st.tr("hand_n_done", n=st.hand_no))}</p>'
        f'<h2 id="result-title">{esc(title)}</h2>{sub}</header>'
        f"{body}{pay}{st.result_after}{foot}</div>")


def _winning_hand_html(st: TableState, winner: int, hand: list[int], ev: Evaluation) -> str:
    win_tile = ev.win_tile
    marked = False
    sets = []
    for kind, members in ev.groups:
        faces = []
        for t, wild in members:
            shown = st.caishen if wild or t is None else t
            is_win = not marked and (
                (wild and win_tile == st.caishen) or (not wild and t == win_tile))
            cls = "is-win" if is_win else ""
            marked = marked or is_win
            note = ""
            if wild:
                note = (st.tr("wild_as", tile=tile_label(t, st.lang).split(" (")[0])
                        if t is not None else st.tr("wild_free"))
            faces.append(tile_html(shown, st, cls=cls, note=note))
        sets.append(f'<span class="tg tg--set" data-kind="{esc(kind)}">{"".join(faces)}</span>')
    if not ev.groups:  # 全风: no sets needed, the tiles as they stand
        faces = []
        for t in hand:
            is_win = not marked and t == win_tile
            marked = marked or is_win
            faces.append(tile_html(t, st, cls="is-win" if is_win else ""))
        sets.append(f'<span class="tg tg--set">{"".join(faces)}</span>')
    for m in st.obs.melds[winner]:
        kind, tiles = m.kind, m.tiles
        faces = [tile_html(t, st) for t in tiles]
        sets.append(f'<span class="tg tg--set tg--meld" data-kind="{esc(kind)}" '
                    f'title="{esc(st.tr("act_" + kind))}">{"".join(faces)}</span>')
    flowers = st.obs.flowers[winner]
    if flowers:
        sets.append(group_html(flowers, st, "tg--flowers"))
    legend = "" if win_tile is None else (
        f'<p class="result__legend"><i class="legend-win" aria-hidden="true"></i>'
        f'{esc(st.tr("winning_tile"))}: {esc(tile_label(win_tile, st.lang))}</p>')
    return (f'<section class="result__hand" aria-label="{esc(st.tr("winning_hand"))}">'
            f'{"".join(sets)}</section>{legend}')


def _scoring_html(st: TableState, ev: Evaluation) -> str:
    lang = st.lang
    rows = []
    for pid in ev.patterns:
        zh, en, what = PATTERNS[pid]
        n = ev.pattern_fan[pid]
        if lang == "zh":
            name, expl = zh, PATTERNS_ZH_EXPLAIN[pid]
        else:
            name, expl = f"{zh} {en}", what
        rows.append(f'<li><span class="row__name">{esc(name)}</span>'
                    f'<span class="row__expl">{esc(expl)}</span>'
                    f'<b class="row__val">{esc(st.tr("fan_n", n=n))}</b></li>')
    if not ev.patterns:
        rows.append(f'<li><span class="row__name">{esc(st.tr("plain_win"))}</span>'
                    f'<span class="row__expl">{esc(st.tr("plain_win_note"))}</span>'
                    f'<b class="row__val">{esc(st.tr("fan_n", n=0))}</b></li>')
    if ev.fan < ev.fan_raw:
        rows.append(f'<li class="row--note"><span class="row__name">'
                    f'{esc(term("explain.cap", st.lang, raw=ev.fan_raw, fan=ev.fan))}</span></li>')
    fan = (f'<section class="score-box"><h3>{esc(st.tr("fan_title"))}'
           f'<span>{esc(st.tr("fan_total", n=ev.fan))}</span></h3><ul>{"".join(rows)}</ul>'
           f"</section>")
    items = [f'<li><span class="row__name">{esc(st.tr("flowers_base"))}</span>'
             f'<b class="row__val">{esc(st.tr("hua_n", n=ev.base))}</b></li>']
    for item, count, points in ev.flower_items:
        zh, en, _ = FLOWER_ITEMS[item]
        name = zh if lang == "zh" else en if zh in en else f"{zh} {en}"
        items.append(f'<li><span class="row__name">{esc(name)} ×{count}</span>'
                     f'<b class="row__val">{esc(st.tr("hua_n", n=points))}</b></li>')
    hua = (f'<section class="score-box"><h3>{esc(st.tr("flowers_title"))}'
           # the total is what the formula multiplies: 底花 plus every row below it
           f'<span>{esc(st.tr("flowers_total", n=ev.base + ev.flowers))}</span></h3>'
           f'<ul>{"".join(items)}</ul></section>')
    formula = (f'<p class="result__formula"><span>{esc(st.tr("formula_title"))}</span>'
               f'<span class="formula__words">{powers_html(st.tr("formula_words"))}</span>'
               f"<code>{powers_html(ev.formula(lang))}</code></p>")
    return f'<div class="result__scoring">{fan}{hua}</div>{formula}'


def _payments_html(st: TableState, r: ResultInfo) -> str:
    share = r.evaluation.share if r.evaluation is not None and r.winner is not None else 0
    rows = []
    for seat in range(4):
        amount = r.payments[seat]
        reason = r.reasons[seat] if r.reasons else ""
        zh, en = PAY_REASONS.get(reason, ("", ""))
        text = (zh if st.lang == "zh" else en) or st.tr("reason_none")
        cls = "pos" if amount > 0 else "neg" if amount < 0 else "zero"
        win = " is-winner" if seat == r.winner else ""
        shares = ""
        if share and amount and abs(amount) % share == 0:
            n = abs(amount) // share
            shares = (f' <small class="pay__shares">'
                      f'{esc(st.tr("pay_shares", n=n, s="" if n == 1 else "s"))} × {share}'
                      f'</small>')
        rows.append(
            f'<tr class="pay__row{win}" data-pay-seat="{seat}">'
            f'<th scope="row"><b class="pay__wind">{wind_char(seat, st.dealer)}</b>'
            f"{esc(st.name(seat))}</th>"
            f'<td class="pay__reason" data-reason="{esc(reason)}">{esc(text)}{shares}</td>'
            f'<td class="pay__amount pay__amount--{cls}">{_signed(amount)}</td>'
            f'<td class="pay__total">{_signed(r.scores[seat])}</td></tr>')
    return (f'<table class="pay"><caption>{esc(st.tr("payments"))}</caption>'
            f'<thead><tr><th scope="col">{esc(st.tr("col_player"))}</th>'
            f'<th scope="col">{esc(st.tr("col_reason"))}</th>'
            f'<th scope="col">{esc(st.tr("col_change"))}</th>'
            f'<th scope="col">{esc(st.tr("col_total"))}</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{_pay_summary(st, r, share)}')


def _pay_summary(st: TableState, r: ResultInfo, share: int) -> str:
    """Who receives what, in one sentence (the rows above say who pays and why)."""
    if r.winner is None or not share:
        return ""
    total = r.payments[r.winner]
    name = st.name(r.winner)
    you = "_you" if r.winner == 0 else ""
    if all(r.reasons[s] == "share" for s in range(4) if s != r.winner):
        text = st.tr("pay_summary_all" + you, share=share, name=name, total=total)
    else:
        text = st.tr("pay_summary" + you, name=name, total=total, n=total // share, share=share)
    return f'<p class="pay__summary" data-testid="pay-summary">{esc(text)}</p>'


# ------------------------------------------------------------------ menu


# two people (an inline drawing: a phone's menu shows only this, and no emoji font is needed)
FRIENDS_ICON = ('<svg class="chip__icon" viewBox="0 0 20 16" width="16" height="13" '
                'aria-hidden="true" fill="currentColor"><circle cx="7" cy="4" r="3"/>'
                '<circle cx="14" cy="5" r="2.5"/><path d="M1 15c0-3.5 2.7-6 6-6s6 2.5 6 6z"/>'
                '<path d="M12.5 15c0-2-.6-3.7-1.7-5 .9-.6 2-1 3.2-1 2.8 0 5 2 5 5v1z"/></svg>')


def menu_html(st: TableState) -> str:
    room = bool(st.names)  # a friends room: no seed to share, the room is open already
    seed = ("" if room else
            f'<a class="chip chip--seed" href="{esc(st.link)}" title="{esc(st.tr("seed_label"))}">'
            f'{esc(st.tr("seed"))} <b>{st.seed}</b></a>')
    friends = ("" if room else
               f'<button type="button" class="chip chip--friends" data-ui="friends-create" '
               f'data-testid="friends-create" title="{esc(st.tr("friends_label"))}" '
               f'aria-label="{esc(st.tr("friends"))}">{FRIENDS_ICON}'
               f'<span class="chip__text">{esc(st.tr("friends"))}</span></button>')
    speed = st.tr(f"speed_{st.speed}")
    level = st.tr(f"level_{st.level}" if st.level in LEVELS else "level_mixed")
    return (
        f'<h1 class="brand"><img src="./static/icons/favicon.svg" alt="" width="22" height="22">'
        f'<span>{esc(st.tr("title"))}</span></h1>'
        f'<div class="menu__items">'
        f'{seed}'
        f'<button type="button" class="chip chip--level" data-ui="level" '
        f'title="{esc(st.tr("level_label", level=level))}">'
        f'{esc(st.tr("bots_level", level=level))}</button>'
        f'<button type="button" class="chip chip--speed" data-ui="speed" '
        f'title="{esc(st.tr("speed_label", speed=speed))}">'
        f'{esc(st.tr("speed"))} <b>{esc(speed)}</b></button>'
        f'<button type="button" class="chip" data-ui="lang" lang="{"en" if st.lang == "zh" else "zh"}" '  # noqa: E501
        f'title="{esc(st.tr("lang_switch_label"))}">{esc(st.tr("lang_switch"))}</button>'
        f'<button type="button" class="chip chip--new" data-action="new-match" '
        f'title="{esc(st.tr("new_match_label"))}">{esc(st.tr("new_match"))}</button>'
        f"{friends}{st.menu_extra}</div>")


# ------------------------------------------------------------------ the whole table


def render_all(st: TableState) -> dict[str, str]:
    """Every region's markup, keyed by the element id it fills."""
    out = {
        "menu": menu_html(st),
        "seat-1": opponent_html(1, st),
        "seat-2": opponent_html(2, st),
        "seat-3": opponent_html(3, st),
        "panel": panel_html(st),
        "me-plate": me_plate_html(st),
        "me-melds": me_melds_html(st),
        "hand": hand_html(st),
        "actions": actions_html(st),
        "result": result_html(st),
    }
    for seat in range(4):
        out[f"river-{POS[seat]}"] = river_html(seat, st)
    return out


def fresh_events(events: list[dict]) -> dict[str, set[int]]:
    """Which seats got a new meld, flower or drawn tile in these events."""
    fresh: dict[str, set[int]] = {"meld": set(), "flower": set(), "draw": set()}
    for e in events:
        if e["type"] in (Event.CLAIM, Event.KONG):
            fresh["meld"].add(e["seat"])
        elif e["type"] == Event.FLOWER:
            fresh["flower"].add(e["seat"])
        elif e["type"] == Event.DRAW:
            fresh["draw"].add(e["seat"])
    return fresh


def callout_html(seat: int, text: str, serial: int) -> str:
    """A short speech bubble at a seat (碰！); ``serial`` makes each one new."""
    return f'<p class="callout__bubble" data-n="{serial}">{esc(text)}</p>'


# ------------------------------------------------------------------ what just happened


def event_notes(events: list[dict], lang: str) -> tuple[dict[int, str], list[str]]:
    """Speech bubbles per seat and log lines for the events of one action.

    Only public events are described: a bot's draw is never named.
    """
    bubbles: dict[int, str] = {}
    lines: list[str] = []
    for e in events:
        kind = e["type"]
        if kind == Event.EXHAUSTED:
            lines.append(tr(lang, "log_exhausted"))
            continue
        seat = e.get("seat")
        if seat is None:  # every event described here names its seat
            continue
        name = seat_name(seat, lang)
        if kind == Event.DISCARD:
            lines.append(tr(lang, "log_discard", name=name, tile=tile_label(e["tile"], lang)))
            if e.get("piao"):
                bubbles[seat] = tr(lang, "say_piao")
        elif kind == Event.CLAIM:
            act = tr(lang, "act_" + e["kind"])
            lines.append(tr(lang, "log_claim", name=name, act=act,
                            tile=tile_label(e["tile"], lang)))
            bubbles[seat] = tr(lang, "say_" + ("gang" if e["kind"] == "minggang" else e["kind"]))
        elif kind == Event.KONG:
            lines.append(tr(lang, "log_claim", name=name, act=tr(lang, "act_" + e["kind"]),
                            tile=tile_label(e["tile"], lang)))
            bubbles[seat] = tr(lang, "say_gang")
        elif kind == Event.FLOWER:
            lines.append(tr(lang, "log_flower", name=name, tile=tile_label(e["tile"], lang)))
            bubbles.setdefault(seat, tr(lang, "say_flower"))
        elif kind == Event.HU:
            lines.append(tr(lang, "log_hu", name=name))
            bubbles[seat] = tr(lang, "say_hu" if e.get("win_by") == "rob" else "say_zimo")
    return bubbles, lines
