"""The action bar: the player's choices as buttons (with their keys), the ghosts of the
choices not allowed, and the status line."""

from __future__ import annotations

from dataclasses import dataclass

from sxmj.actions import Phase
from sxmj.game import Action
from sxmj.tiles import format_tiles
from sxmj.ui.i18n import tile_label, tr
from sxmj.ui.markup import esc, tile_html, tile_of
from sxmj.ui.table.assist import Ghost
from sxmj.ui.table.seats import active_seat, drawn_tile
from sxmj.ui.table.state import TableState

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
    if phase == Phase.ROB:
        robbed = () if st.obs.rob_tile is None else (st.obs.rob_tile,)
        if hu is not None:
            out.append(Button("hu", "H", tr(lang, "act_qianggang"), hu, robbed, primary=True))
        out.append(Button("pass", "X", tr(lang, "act_pass"),
                          next(a for a in legal if a.kind == "pass")))
        return out
    if phase == Phase.CLAIM:
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


def drawn_choices(st: TableState) -> list[Button]:
    """The choices the action bar draws: the table's, worked out once with its state
    (``st.choices``; a click or a key chooses from this list), else from ``st`` now."""
    return st.choices if st.choices is not None else buttons(st)


def button_html(b: Button, st: TableState, move: int | None = None) -> str:
    """A choice as a button; ``move`` its place among the choices drawn (its handler's
    move: :meth:`sxmj.ui.table.decision.Decision.choose`)."""
    cls = "act" + (" act--primary" if b.primary else "") + f" act--{b.action}"
    attrs = f' data-action="{esc(b.action)}" data-key="{esc(b.key.lower())}"'
    if move is not None:
        attrs += f' data-move="{move}"'
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
    if st.result is not None or obs.phase == Phase.OVER:
        return st.tr("status_over")
    if st.viewer:  # a replay: nobody is asked anything
        return st.tr("viewer")
    if st.preview:  # a tapped tile stands raised: tap again to throw it
        return st.preview
    if st.thinking is not None:
        return st.tr("status_thinking", name=st.name(st.thinking))
    kinds = {a.kind for a in st.legal}
    if obs.phase == Phase.CLAIM and st.legal and obs.last_discard:
        seat, t = obs.last_discard
        return st.tr("status_claim", name=st.name(seat), tile=tile_label(t, st.lang))
    if obs.phase == Phase.ROB and st.legal and obs.rob_tile is not None:
        return st.tr("status_rob", name=st.name(obs.turn),
                     tile=tile_label(obs.rob_tile, st.lang))
    if obs.phase == Phase.TURN and obs.turn == 0:
        if st.confirm_piao:
            return st.tr("piao_prompt")
        if "hu" in kinds and not st.dismissed:
            return st.tr("status_your_turn_hu")
        if kinds & {"angang", "jiagang"} and not st.dismissed:
            return st.tr("status_your_turn_gang")
        if drawn_tile(st) is None and len(obs.hand) % 3 == 2 and obs.melds[0]:
            return st.tr("status_after_claim")
        return st.tr("status_your_turn")
    if st.held:  # the welcome card, a sheet: nobody plays until it closes
        return st.tr("status_held")
    if obs.phase == Phase.TURN:
        return st.tr("status_thinking", name=st.name(obs.turn))
    return st.tr("status_waiting")


def put_away_offers(st: TableState) -> bool:
    """True when the player put the 胡/杠 offers of this turn away and may want them back."""
    if not st.dismissed or st.result is not None:
        return False
    return any(a.kind in ("hu", "angang", "jiagang") for a in st.legal)


def actions_html(st: TableState) -> str:
    bs = drawn_choices(st)
    mine = active_seat(st) == 0
    status_cls = "status" + (" status--mine" if mine else "")
    if st.confirm_piao:
        status_cls += " status--ask"
    if st.preview:
        status_cls += " status--raised"
    out = [f'<p class="{status_cls}" id="status" role="status">{esc(status_text(st))}</p>']
    ghosts = "" if st.confirm_piao else "".join(ghost_html(g, st) for g in st.ghosts)
    if bs or ghosts:
        out.append('<div class="acts">' + "".join(button_html(b, st, i)
                                                  for i, b in enumerate(bs)) + ghosts +
                   "</div>")
        if bs and st.obs.phase == Phase.TURN and not st.confirm_piao:
            out.append(f'<p class="acts__hint">{esc(st.tr("or_discard"))}</p>')
    elif put_away_offers(st):
        out.append(f'<button type="button" class="chip chip--offers" data-ui="offers">'
                   f'{esc(st.tr("show_offers"))}</button>')
    return "".join(out)
