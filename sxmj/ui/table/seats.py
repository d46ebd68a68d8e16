"""The seats around the table: plates, melds, flowers, the hidden hands, the player's own
hand, the rivers and the centre panel (wind, scores, wall, dice)."""

from __future__ import annotations

from sxmj.actions import Phase
from sxmj.tiles import code
from sxmj.ui.i18n import tile_label, wind_char, wind_name
from sxmj.ui.markup import ANGLE, POS, esc, meld_html, signed, tile_html
from sxmj.ui.table.assist import tile_why
from sxmj.ui.table.state import TableState


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
    if st.result is not None or obs.phase == Phase.OVER:
        return None
    if st.thinking is not None:
        return st.thinking
    if obs.phase == Phase.TURN:
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
    label = st.tr("hand_label", name=st.name(seat), n=n, s="" if n == 1 else "s")
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
    if obs.phase != Phase.TURN or obs.turn != 0 or obs.last_tile is None:
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
    my_turn = obs.phase == Phase.TURN and obs.turn == 0 and st.result is None
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
            f'<span class="edge__score">{signed(score) if score else "0"}</span></div>')
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
    text = esc(st.tr("wall_left", n="\x00", s="" if st.obs.wall == 1 else "s"))
    return text.replace("\x00", n)
