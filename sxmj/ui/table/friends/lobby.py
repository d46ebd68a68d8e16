"""The friends room's markup (pure): the host's and a guest's lobby, the quick phrases, the
invite link; what a room's sessions show (``data-testid`` contract:
docs/reference/testing-contract.md).

>>> read_hash("#room=ab12&key=cd34"), read_hash("#host=ab12"), read_hash("#x")
(('guest', 'ab12', 'cd34'), ('host', 'ab12', ''), None)
>>> [r.param for r in hash_refusals("#room=ab12&key=cd%2034")]
['#key']
>>> read_offer_hash("#room=ab12&key=cd34&offer=aX5oM.p&seat=2"), read_offer_hash("#room=ab12")
(('aX5oM.p', 2), None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote

from sxmj.messages import CoreError, render
from sxmj.room import protocol
from sxmj.room.codes import MAX_CODE
from sxmj.room.host import HANDS_CHOICES, TIMER_CHOICES, Room, is_room_number, number_room_id
from sxmj.room.ice import PRESETS as ICE_PRESETS
from sxmj.room.ice import parse_servers
from sxmj.rules import BASE_FLOWERS
from sxmj.ui.i18n import tr, wind_name
from sxmj.ui.params import Refusal, refusal
from sxmj.ui.table.storage.saved import LEVELS
from sxmj.ui.table.view import esc

_CODE = re.compile(r"^[A-Za-z0-9._-]+$")  # a connection code's characters (sxmj/room/codes.py)
HASH_KEYS = ("room", "key", "host", "ice", "num", "offer", "seat", "token")


def _hash_values(fragment: str) -> dict[str, str]:
    q = parse_qs(fragment.lstrip("#"), keep_blank_values=True)
    return {k: q[k][-1] for k in HASH_KEYS if k in q}


def _hash_ok(value: str) -> bool:
    return bool(value) and len(value) <= 64 and value.isascii() and value.isalnum()


def read_hash(fragment: str) -> tuple[str, str, str] | None:
    """``#room=ID&key=SECRET`` (a guest's link), ``#room=sxmjNNNNNN&num=NNNNNN`` (a guest who
    typed the 房号: ``(number, id, number)``) or ``#host=ID`` (a host's reload) as
    ``(role, id, secret)``; None for anything else (:func:`hash_refusals` says why)."""
    values = _hash_values(fragment)
    room, key, host = (values.get(k, "") for k in ("room", "key", "host"))
    if _hash_ok(room) and _hash_ok(key):
        return "guest", room, key
    number = values.get("num", "")
    if is_room_number(number) and room == number_room_id(number):
        return "number", room, number  # joined by the 房号: a reload knocks again
    if _hash_ok(host):
        return "host", host, ""
    return None


def hash_refusals(fragment: str) -> list[Refusal]:
    """Why a fragment that looks like a room's link is none: each of ``#room``, ``#key``
    (or ``#host``) missing or damaged, for the notice (the page then plays on alone,
    asking nothing of any broker). Empty for a good link or a fragment of no room."""
    values = _hash_values(fragment)
    bad_ice = [refusal("#ice", values["ice"], "invite")] if values.get("ice") and \
        not read_ice(fragment) else []
    bad_offer = [refusal("#offer", values["offer"], "invite")] if values.get("offer") and \
        not read_offer_hash(fragment) else []
    for key in ("ice", "num", "offer", "seat", "token"):
        values.pop(key, None)
    if read_hash(fragment) is not None or not values:
        return bad_ice + bad_offer
    wanted = ("host",) if set(values) == {"host"} else ("room", "key")
    return [refusal(f"#{k}", values.get(k, ""), "invite") for k in wanted
            if not _hash_ok(values.get(k, ""))]


def read_offer_hash(fragment: str) -> tuple[str, int] | None:
    """A connection code's link (``#room=…&key=…&offer=CODE&seat=N``: the host's offer for
    seat N, :mod:`sxmj.room.codes`) as ``(code, seat)``; None when the fragment holds none,
    or one no code could be (the code itself is read when it is answered)."""
    values = _hash_values(fragment)
    offer, seat = values.get("offer", ""), values.get("seat", "")
    if not offer or len(offer) > MAX_CODE or not _CODE.match(offer) or seat not in ("1", "2", "3"):
        return None
    return offer, int(seat)


def read_token(fragment: str) -> str:
    """The seat token a connection code's link may carry (``&token=``: a friend coming back
    to the seat they held), or "" for none or one no token could be."""
    token = _hash_values(fragment).get("token", "")
    return token if _hash_ok(token) else ""


def read_ice(fragment: str) -> str:
    """The custom ICE list an invite's fragment carries (``&ice=``: JSON, as
    ``RTCConfiguration.iceServers``, every TURN server with its login), checked; "" when
    there is none or it is not one (:func:`hash_refusals` names it).

    >>> read_ice("#room=r&key=k&ice=" + quote('[{"urls":"stun:s.example.cn"}]', safe=""))
    '[{"urls":"stun:s.example.cn"}]'
    >>> read_ice("#room=r&key=k&ice=%5B%7B%22urls%22%3A%22turn%3At.cn%22%7D%5D")  # no login
    ''
    """
    text = parse_qs(fragment.lstrip("#"), keep_blank_values=True).get("ice", [""])[-1]
    if not text:
        return ""
    try:
        parse_servers(text, logins=True)
    except CoreError:
        return ""
    return text


def invite_link(base: str, query: str, room_id: str, secret: str, ice: str = "") -> str:
    """The link a friend opens: this page, the broker's parameters, the room and secret,
    and a custom ICE list (``ice``: in the fragment, which no server ever receives, and
    which no length limit of a query cuts)."""
    tail = f"&ice={quote(ice, safe='')}" if ice else ""
    return f"{base}{query}#room={room_id}&key={secret}{tail}"


# ------------------------------------------------------------------ markup


PATHS = ("direct", "relay", "none")  # a guest's route to the host (friends-net.js path())


def _path(seat: int, path: str, lang: str) -> str:
    """A guest's route, as the host's lobby shows it (``friends-path``): direct, through a
    relay, or none, with what to try then."""
    hint = (f' <small class="friends__path-hint">{esc(tr(lang, "friends_path_try"))}</small>'
            if path == "none" else "")
    return (f' <span class="friends__path" data-testid="friends-path" data-seat="{seat}" '
            f'data-path="{path}">{esc(tr(lang, "friends_path_" + path))}</span>{hint}')


def _seat_rows(lobby: dict[str, Any], lang: str, host: bool = False,
               paths: dict[int, str] | None = None) -> str:
    """The four seats; at the host's lobby before the start, a guest's seat has its remove
    button (``friends-remove``: the seat is free again for another friend), and each
    guest's route once it is known (``paths``)."""
    rows = []
    for s, seat in enumerate(lobby["seats"]):
        state = {"host": "friends_seat_host", "bot": "friends_seat_free"}.get(
            seat["kind"], "friends_seat_guest" if seat["online"] else "friends_seat_away")
        name = seat["name"] if seat["kind"] != "bot" else ""
        remove = ""
        if host and seat["kind"] == "guest" and not lobby["started"]:
            label = tr(lang, "friends_remove_label", name=name)
            remove = (f'<button type="button" class="act act--small act--quiet friends__remove" '
                      f'data-testid="friends-remove" data-ui="friends-remove" data-seat="{s}" '
                      f'aria-label="{esc(label)}">{esc(tr(lang, "friends_remove"))}</button>')
        path = (paths or {}).get(s) if seat["kind"] == "guest" else None
        route = _path(s, path, lang) if path in PATHS else ""
        rows.append(f'<li data-testid="friends-row" data-seat="{s}" data-kind="{seat["kind"]}"'
                    f' data-online="{int(seat["online"])}">'
                    f'<b>{esc(wind_name(s, 0, lang))}</b> <span>{esc(name)}</span> '
                    f'<i>{esc(tr(lang, state))}</i>{route}{remove}</li>')
    return f'<ul class="friends__seats">{"".join(rows)}</ul>'


def share_text(hands: int, base: int, link: str, lang: str, number: str = "") -> str:
    """The invite as a chat expects it: the game, the 房号 (``number``, if the room has one),
    the match's terms (局数, 底花), a call to the table, and the link on a line of its own.

    >>> print(share_text(8, 5, "https://x.cn/#room=r&key=k", "zh", "407215"))
    【绍兴麻将】房号 407215 · 8 局 · 底花 5 · 开搓！
    https://x.cn/#room=r&key=k
    >>> share_text(8, 5, "L", "zh").splitlines()[0]
    '【绍兴麻将】8 局 · 底花 5 · 开搓！'
    """
    key = "friends_share_number" if number else "friends_share"
    return tr(lang, key, hands=hands, base=base, number=number) + "\n" + link


def terms_text(hands: int, base: int, lang: str) -> str:
    """局数 and 底花 in words ("8 局 · 底花 5")."""
    return tr(lang, "friends_terms", hands=hands, base=base)


PUBLIC_BROKER = "0.peerjs.com"  # PeerJS's public broker, the one used when none is set


def failure_html(reason: str, broker: str, lang: str, host: bool) -> str:
    """Why the room can't form (``reason``, a string key: the broker is silent or failed, a
    guest's host can't be reached), in words, and the ways out: try again, and for the host
    another broker (the settings) or closing the room. No way to start."""
    other = (f'<button type="button" class="act" data-ui="codes-open" data-testid="codes-open">'
             f'{esc(tr(lang, "codes_open"))}</button> '
             f'<button type="button" class="act act--quiet" data-ui="settings">'
             f'{esc(tr(lang, "friends_other_broker"))}</button> '
             f'<button type="button" class="act act--quiet" data-ui="friends-cancel">'
             f'{esc(tr(lang, "friends_cancel"))}</button>') if host else ""
    return (f'<div class="friends__error" role="alert" data-testid="friends-error" '
            f'data-reason="{esc(reason)}">'
            f'<p class="friends__error-what">{esc(tr(lang, reason, broker=broker))}</p>'
            f'<p>{esc(tr(lang, reason + "_next"))}</p>'
            f'<p class="friends__buttons"><button type="button" class="act" '
            f'data-testid="friends-retry" data-ui="friends-retry" autofocus>'
            f'{esc(tr(lang, "friends_retry"))}</button> {other}</p></div>')


@dataclass(frozen=True)
class CodesPanel:
    """The connection codes the host's lobby shows (:mod:`sxmj.room.codes`): per seat a
    friend may take, its offer link ("" while it is being made); and what became of the
    last answer pasted: ``note`` (it is connecting) or ``error`` (why it was refused)."""

    offers: dict[int, str]
    note: str = ""
    error: str = ""
    pasted: str = ""  # the text refused, kept in the field to mend


def codes_html(panel: CodesPanel, lang: str) -> str:
    """The route with no broker: one offer per free seat (``codes-offer``, ``data-seat``)
    to copy into the chat, the field the answers are pasted into (``codes-paste``; a whole
    answer connects as soon as it is there; what isn't one is refused with why once pasted
    or on ``codes-connect``), and the warning that
    this page must stay open meanwhile."""
    rows = []
    for seat, link in sorted(panel.offers.items()):
        wind = wind_name(seat, 0, lang)
        label = tr(lang, "codes_for", wind=wind)
        box = (f'<textarea readonly rows="2" class="codes__code" data-testid="codes-offer" '
               f'data-seat="{seat}" id="codes-offer-{seat}" aria-label="{esc(label)}">'
               f'{esc(link)}</textarea>'
               f'<span class="codes__buttons"><button type="button" class="act act--small" '
               f'data-ui="codes-copy" data-seat="{seat}">{esc(tr(lang, "friends_copy"))}'
               f'</button> <button type="button" class="act act--small act--quiet" '
               f'data-ui="codes-new" data-seat="{seat}">{esc(tr(lang, "codes_new"))}</button>'
               f'</span>') if link else (
            f'<span class="codes__making" data-testid="codes-making" data-seat="{seat}">'
            f'{esc(tr(lang, "codes_making"))}</span>')
        rows.append(f'<li data-seat="{seat}"><b>{esc(label)}</b>{box}</li>')
    note = (f'<p class="codes__note" role="status" data-testid="codes-note">'
            f'{esc(panel.note)}</p>' if panel.note else "")
    error = (f'<p class="friends__error-what" role="alert" data-testid="codes-error">'
             f'{esc(panel.error)}</p>' if panel.error else "")
    return (f'<section class="codes" data-testid="codes">'
            f'<h3>{esc(tr(lang, "codes_title"))}</h3>'
            f'<p class="codes__keep" role="note"><b>{esc(tr(lang, "codes_keep"))}</b></p>'
            f'<ol class="codes__steps"><li>{esc(tr(lang, "codes_step_send"))}</li>'
            f'<li>{esc(tr(lang, "codes_step_back"))}</li></ol>'
            f'<ul class="codes__offers">{"".join(rows)}</ul>'
            f'<p class="codes__paste"><label for="codes-paste">{esc(tr(lang, "codes_paste"))}'
            f'</label><textarea id="codes-paste" data-testid="codes-paste" rows="2" '
            f'data-ui-input="friends-paste" autocomplete="off" spellcheck="false" '
            f'placeholder="{esc(tr(lang, "codes_paste_hint"))}">{esc(panel.pasted)}</textarea>'
            f'<button type="button" class="act act--small" data-ui="codes-connect" '
            f'data-testid="codes-connect">{esc(tr(lang, "codes_connect"))}</button></p>'
            f'{note}{error}</section>')


def codes_dialog_html(panel: CodesPanel, lang: str) -> str:
    """The codes once the match is on (the host's 连接码 at the table): a code for each seat
    whose friend dropped, which brings them back to it, and a way back to the table."""
    return (f'<section class="friends" data-testid="codes-dialog">'
            f'<h2>{esc(tr(lang, "codes_title"))}</h2><p>{esc(tr(lang, "codes_again"))}</p>'
            f'{codes_html(panel, lang)}<div class="friends__buttons"><button type="button" '
            f'class="act act--ghost" data-ui="codes-close">{esc(tr(lang, "codes_close"))}'
            f'</button></div></section>')


def answer_html(answer: str, lang: str) -> str:
    """A guest who opened a connection code: its answer to send back to the host
    (``codes-answer``), with a copy button; "" while it is being made."""
    if not answer:
        return (f'<p data-testid="friends-status" class="codes__making">'
                f'{esc(tr(lang, "codes_answering"))}</p>')
    return (f'<section class="codes codes--answer" data-testid="codes">'
            f'<p>{esc(tr(lang, "codes_answer_lead"))}</p>'
            f'<p class="codes__paste"><textarea readonly rows="3" class="codes__code" '
            f'data-testid="codes-answer" id="codes-answer" '
            f'aria-label="{esc(tr(lang, "codes_paste"))}">{esc(answer)}</textarea>'
            f'<button type="button" class="act act--small" data-ui="codes-answer-copy">'
            f'{esc(tr(lang, "codes_copy"))}</button></p>'
            f'<p data-testid="friends-status">{esc(tr(lang, "codes_answer_wait"))}</p>'
            f'</section>')


def host_lobby_html(room: Room, link: str, qr_svg: str, lang: str, failure: str = "",
                    broker: str = PUBLIC_BROKER, paths: dict[int, str] | None = None,
                    codes: CodesPanel | None = None) -> str:
    """The host's room: the invite (link, copy, QR), who is here and by which route
    (``paths``: seat → ``direct``, ``relay`` or ``none``), the bots, the timer; or, when the
    room can't form (``failure``), why, and what to try instead of any invite. With
    ``codes`` (the host chose connection codes) the room forms without any broker: the
    codes panel shows, and where the broker failed it takes the invite's place."""
    if failure and codes is None:
        return (f'<section class="friends" data-testid="friends-lobby" data-role="host">'
                f'<h2>{esc(tr(lang, "friends_title"))}</h2>'
                f'{failure_html(failure, broker, lang, host=True)}</section>')
    levels = "".join(f'<option value="{lv}"{" selected" if lv == room.level else ""}>'
                     f'{esc(tr(lang, "level_" + lv))}</option>' for lv in LEVELS)
    timers = "".join(f'<option value="{t}"{" selected" if t == room.timer else ""}>{t}</option>'
                     for t in TIMER_CHOICES)
    hands = "".join(f'<option value="{n}"{" selected" if n == room.hands else ""}>'
                    f'{esc(tr(lang, "friends_hands_n", n=n))}</option>' for n in HANDS_CHOICES)
    bases = "".join(f'<option value="{n}"{" selected" if n == room.base else ""}>{n}</option>'
                    for n in BASE_FLOWERS)
    share = share_text(room.hands, room.base, link, lang, room.number)
    terms = (f'<p class="friends__terms"><label>{esc(tr(lang, "friends_hands"))} '
             f'<select id="friends-hands" data-testid="friends-hands" '
             f'data-ui-change="friends-terms">{hands}</select></label> '
             f'<label>{esc(tr(lang, "friends_base"))} '
             f'<select id="friends-base" data-testid="friends-base" '
             f'data-ui-change="friends-terms">{bases}</select></label></p>')
    number = (f'<p class="friends__number">{esc(tr(lang, "friends_number"))} '
              f'<b data-testid="friends-room-number">{room.number}</b> '
              f'<small>{esc(tr(lang, "friends_number_hint"))}</small></p>'
              if room.number else "")
    waiting = "".join(
        f'<li data-testid="friends-waiting" data-seat="{s}"><span>{esc(name)}</span> '
        f'<i>{esc(tr(lang, "friends_wants", wind=wind_name(s, 0, lang)))}</i> '
        f'<button type="button" class="act act--small" data-testid="friends-approve" '
        f'data-ui="friends-approve" data-seat="{s}">{esc(tr(lang, "friends_approve"))}'
        f'</button></li>' for s, name in room.waiting_list())
    waiting = f'<ul class="friends__waiting">{waiting}</ul>' if waiting else ""
    if failure:  # (codes chosen) the broker's invite can't work: the codes take its place
        invite = (f'<p class="codes__why">{esc(tr(lang, "codes_no_broker"))}</p>{terms}'
                  f'{codes_html(codes, lang) if codes else ""}')
    else:
        invite = (
            f'{number}<p>{esc(tr(lang, "friends_invite"))}</p>'
            f'<p class="friends__link"><input type="text" readonly data-testid="friends-link" '
            f'id="friends-link" value="{esc(link)}" '
            f'aria-label="{esc(tr(lang, "friends_invite"))}">'
            f'<button type="button" class="act act--small" data-ui="friends-copy">'
            f'{esc(tr(lang, "friends_copy"))}</button></p>{terms}'
            f'<p class="friends__share"><textarea readonly rows="3" '
            f'data-testid="friends-share-text" id="friends-share-text" '
            f'aria-label="{esc(tr(lang, "friends_share_label"))}">{esc(share)}</textarea>'
            f'<button type="button" class="act act--small" data-ui="friends-share-copy" '
            f'data-testid="friends-share-copy">{esc(tr(lang, "friends_share_copy"))}</button>'
            f'</p><figure class="friends__qr" data-testid="friends-qr">{qr_svg}'
            f'<figcaption>{esc(tr(lang, "friends_qr"))}</figcaption></figure>' + (
                codes_html(codes, lang) if codes else
                f'<p class="codes__open"><button type="button" class="act act--small '
                f'act--quiet" data-ui="codes-open" data-testid="codes-open">'
                f'{esc(tr(lang, "codes_open"))}</button></p>'))
    return (
        f'<section class="friends" data-testid="friends-lobby" data-role="host">'
        f'<h2>{esc(tr(lang, "friends_title"))}</h2>{invite}'
        f'{_seat_rows(room.lobby(), lang, host=True, paths=paths)}{waiting}'
        f'<p class="friends__opts"><label>{esc(tr(lang, "friends_level"))} '
        f'<select id="friends-level" data-ui-change="friends-level">{levels}</select></label> '
        f'<label>{esc(tr(lang, "friends_timer"))} '
        f'<select id="friends-timer">{timers}</select></label> '
        f'<button type="button" class="act act--small act--quiet" data-testid="friends-lock" '
        f'data-ui="friends-lock" aria-pressed="{"true" if room.locked else "false"}">'
        f'{esc(tr(lang, "friends_locked" if room.locked else "friends_lock"))}</button></p>'
        f'<p class="friends__buttons"><button type="button" class="act" '
        f'data-testid="friends-start" data-ui="friends-start" autofocus>'
        f'{esc(tr(lang, "friends_start"))}</button> '
        f'<button type="button" class="act act--quiet" data-ui="friends-cancel">'
        f'{esc(tr(lang, "friends_cancel"))}</button></p></section>')


def guest_lobby_html(lobby: dict[str, Any] | None, seat: int | None, status: str,
                     lang: str, failure: str = "", by_number: bool = False,
                     answer: str | None = None, suggested: int = 0) -> str:
    """A guest's view of the room before the match: a name and the free seats, or why it
    waits (connecting, seated, the room is full, the link is wrong, the host left), or why
    it can't reach the room (``failure``) and what to try. A guest who opened a connection
    code sees its ``answer`` to send back ("" while it is made) until the host takes it,
    and the seat the code was for (``suggested``) first among the free ones."""
    head = f'<h2>{esc(tr(lang, "friends_title"))}</h2>'
    if failure and not status:
        body = failure_html(failure, "", lang, host=False)
    elif status:
        body = f'<p data-testid="friends-status">{esc(tr(lang, status))}</p>'
        if status in ("friends_host_gone", "friends_codes_lost"):
            body += (f'<p><button type="button" class="act" data-ui="friends-export">'
                     f'{esc(tr(lang, "friends_export"))}</button></p>')
    elif lobby is None and answer is not None:
        body = answer_html(answer, lang)
    elif lobby is None:
        body = f'<p data-testid="friends-status">{esc(tr(lang, "friends_connecting"))}</p>'
    elif seat is not None:
        body = (_seat_rows(lobby, lang) + _terms(lobby, lang) +
                f'<p data-testid="friends-status">{esc(tr(lang, "friends_waiting"))}</p>')
    else:
        free = sorted((s for s, st in enumerate(lobby["seats"]) if st["kind"] == "bot"),
                      key=lambda s: s != suggested)
        if lobby.get("locked") and not lobby["started"] and not by_number:
            body = (_seat_rows(lobby, lang) + f'<p data-testid="friends-status">'
                    f'{esc(tr(lang, "friends_room_locked"))}</p>')
        elif lobby["started"] or not free:
            body = f'<p data-testid="friends-status">{esc(tr(lang, "friends_full"))}</p>'
        else:
            buttons = "".join(
                f'<button type="button" class="act" data-testid="friends-seat" '
                f'data-ui="friends-seat" data-seat="{s}">'
                f'{esc(tr(lang, "friends_sit", wind=wind_name(s, 0, lang)))}</button> '
                for s in free)
            ask = (f'<p data-testid="friends-status">{esc(tr(lang, "friends_ask_host"))}</p>'
                   if lobby.get("locked") else "")  # (a 房号-joiner: the host approves)
            body = (_seat_rows(lobby, lang) + _terms(lobby, lang) + ask +
                    f'<p><label>{esc(tr(lang, "friends_name"))} <input type="text" '
                    f'id="friends-name" data-testid="friends-name" '
                    f'maxlength="{protocol.NAME_CHARS}" autocomplete="nickname"></label></p>'
                    f'<p>{esc(tr(lang, "friends_pick"))}</p>'
                    f'<p class="friends__buttons">{buttons}</p>')
    return (f'<section class="friends" data-testid="friends-lobby" data-role="guest">'
            f'{head}{body}</section>')


def _terms(lobby: dict[str, Any], lang: str) -> str:
    """The match's terms as the host chose them (nothing for a lobby without them)."""
    hands, base = lobby.get("hands"), lobby.get("base")
    if type(hands) is not int or hands not in HANDS_CHOICES or type(base) is not int \
            or base not in BASE_FLOWERS:
        return ""
    return (f'<p class="friends__terms" data-testid="friends-terms" data-hands="{hands}" '
            f'data-base="{base}">{esc(terms_text(hands, base, lang))}</p>')


def join_html(lang: str, number: str = "", error: str = "", wait: int = 0, broker: str = "",
              ice: str = "") -> str:
    """加入房间: the 房号 to type (six digits), and the network it is looked up on (the
    joiner's own broker and ICE preset, as the host's invite would carry them); ``error``
    (a string key) says why the last try failed; ``wait``: seconds before the next try (each
    failed lookup doubles it)."""
    presets = "".join(f'<option value="{p}"{" selected" if p == (ice or "default") else ""}>'
                      f'{esc(tr(lang, "ice_" + p))}</option>' for p in ICE_PRESETS)
    why = (f'<p class="friends__error-what" role="alert" data-testid="join-room-error" '
           f'data-reason="{esc(error)}">{esc(tr(lang, error, number=number))}</p>'
           if error else "")
    later = (f' disabled data-wait="{wait}" title="{esc(tr(lang, "join_wait", n=wait))}"'
             if wait else "")
    return (f'<section class="friends join" data-testid="join-room">'
            f'<h2>{esc(tr(lang, "join_title"))}</h2>'
            f'<p>{esc(tr(lang, "join_lead"))}</p>{why}'
            f'<p><label class="join__number">{esc(tr(lang, "friends_number"))} '
            f'<input type="text" id="join-room-number" data-testid="join-room-number" '
            f'inputmode="numeric" pattern="[0-9]{{6}}" maxlength="6" autocomplete="off" '
            f'value="{esc(number)}" autofocus></label></p>'
            f'<details class="join__net"><summary>{esc(tr(lang, "join_network"))}</summary>'
            f'<p><label>{esc(tr(lang, "set_ice"))} <select id="join-room-ice">{presets}'
            f'</select></label></p><p><label>{esc(tr(lang, "set_broker"))} '
            f'<input type="url" id="join-room-broker" value="{esc(broker)}" '
            f'placeholder="https://0.peerjs.com/" autocomplete="off" spellcheck="false">'
            f'</label></p></details>'
            f'<p class="friends__buttons"><button type="button" class="act" '
            f'data-testid="join-room-go" data-ui="join-room-go"{later}>'
            f'{esc(tr(lang, "join_go"))}</button> <button type="button" class="act act--quiet" '
            f'data-ui="join-room-cancel">{esc(tr(lang, "join_cancel"))}</button></p></section>')


def chat_html(lang: str, away: bool = False, ended: bool = False, codes: bool = False) -> str:
    """The room's controls at the table: the turn timer, 托管 (``away``: this seat's own
    browser plays for it until "我回来了"), 解散 (a vote to end the match now), the host's
    连接码 while a friend who came by code has dropped (``codes``), and the quick phrases and
    emoji behind one button (the room's chat: nothing typed travels). Once the match is
    ``ended`` only the phrases stay."""
    phrases = "".join(f'<button type="button" class="chip" data-ui="friends-say" '
                      f'data-phrase="{p}">{esc(tr(lang, "phrase_" + p))}</button>'
                      for p in protocol.PHRASES)
    emoji = "".join(f'<button type="button" class="chip chip--emoji" data-ui="friends-say" '
                    f'data-phrase="{e}" aria-label="{e}">{e}</button>' for e in protocol.EMOJI)
    rituals = "" if ended else (
        f'<button type="button" class="chip chat__away" data-ui="away-toggle" '
        f'data-testid="away-toggle" aria-pressed="{"true" if away else "false"}" '
        f'title="{esc(tr(lang, "friends_away_hint"))}">'
        f'{esc(tr(lang, "friends_back_now" if away else "friends_away"))}</button>'
        f'<button type="button" class="chip" data-ui="friends-dissolve" '
        f'data-testid="friends-dissolve">{esc(tr(lang, "friends_dissolve"))}</button>') + (
        f'<button type="button" class="chip" data-ui="codes-open" data-testid="codes-open">'
        f'{esc(tr(lang, "codes_title"))}</button>' if codes and not ended else "")
    return (f'<p class="turn-timer" id="turn-timer" data-testid="turn-timer" hidden '
            f'aria-label="{esc(tr(lang, "friends_timer_label"))}"></p>{rituals}'
            f'<details class="chat__box" data-testid="friends-chat"><summary class="chip">'
            f'{esc(tr(lang, "friends_say"))}</summary>'
            f'<div class="friends-chat" role="group" aria-label="{esc(tr(lang, "friends_say"))}">'
            f'{phrases}{emoji}</div></details>')


def vote_html(vote: dict[str, Any], names: list[str], lang: str) -> str:
    """A 解散 vote (``vote`` as :meth:`sxmj.room.host.Room.vote_shown` shows it to this
    table, seats turned: this table's own is 0; ``names`` by those seats): who asked, each
    person's answer, the seconds before silence counts as yes, and, while this table hasn't
    answered, 同意 and 拒绝 (``dissolve-vote``, ``data-vote`` = ``yes`` | ``no``)."""
    def answer(seat: int) -> str:
        key = ("friends_vote_yes" if seat in vote["yes"] else "friends_vote_no"
               if seat in vote["no"] else "friends_vote_waiting")
        return (f'<li data-seat="{seat}" data-answer="{key[len("friends_vote_"):]}">'
                f'<span>{esc(names[seat])}</span> <b>{esc(tr(lang, key))}</b></li>')

    people = sorted(set(vote["yes"]) | set(vote["no"]) | set(vote["waiting"]))
    mine = 0 in vote["waiting"]
    buttons = (f'<div class="friends__buttons">'
               f'<button type="button" class="act" data-ui="dissolve-vote" data-vote="yes" '
               f'data-testid="dissolve-vote">{esc(tr(lang, "friends_vote_agree"))}</button>'
               f'<button type="button" class="act act--ghost" data-ui="dissolve-vote" '
               f'data-vote="no" data-testid="dissolve-vote">'
               f'{esc(tr(lang, "friends_vote_refuse"))}</button></div>') if mine else (
        f'<p class="vote__wait">{esc(tr(lang, "friends_vote_sent"))}</p>')
    return (f'<section class="friends vote" data-testid="friends-vote" data-by="{vote["by"]}" '
            f'data-seconds="{vote["seconds"]}" aria-labelledby="vote-title">'
            f'<h2 id="vote-title">{esc(tr(lang, "friends_vote_title"))}</h2>'
            f'<p>{esc(tr(lang, "friends_vote_asked", name=names[vote["by"]]))}</p>'
            f'<ul class="vote__answers">{"".join(answer(s) for s in people)}</ul>'
            f'<p class="vote__left" data-testid="vote-left">'
            f'{esc(tr(lang, "friends_vote_left", n=vote["seconds"]))}</p>{buttons}</section>')


def ended_html(summary: str, lang: str) -> str:
    """The dialog of a match the players dissolved: what it was (the hand being played is
    void), the summary of the hands played (``summary``, ``data-ended="dissolved"``), the
    record to export, and a way back to the table."""
    return (f'<section class="friends ended" data-testid="friends-ended">'
            f'<p class="ended__why">{esc(tr(lang, "friends_dissolved"))}</p>{summary}'
            f'<div class="friends__buttons"><button type="button" class="act act--ghost" '
            f'data-ui="friends-ended-close">{esc(tr(lang, "friends_ended_close"))}</button>'
            f'</div></section>')


def phrase_text(phrase: str, lang: str) -> str:
    """What a phrase says (only the room's own phrases and emoji are ever shown)."""
    if phrase in protocol.PHRASES:
        return tr(lang, "phrase_" + phrase)
    return phrase if phrase in protocol.EMOJI else ""


def peer_dropped_html(lang: str) -> str:
    """The host's notice: a connection sent far too much and was closed (its seat, if any,
    is its bot's until its guest comes back with the seat token)."""
    return (f'<div class="param-notice" role="status" data-testid="notice" '
            f'data-kind="peer-dropped"><div class="param-notice__text"><p>'
            f'{esc(tr(lang, "friends_peer_dropped"))}</p></div>'
            f'<button type="button" class="param-notice__ok" data-ui="notice-ok">'
            f'{esc(tr(lang, "notice_ok"))}</button></div>')


def refusal_text(code: str, action: str, lang: str) -> str:
    """Why the host refused a move, in this table's language (the code is the host's; an
    unknown one is shown as it is)."""
    try:
        return render(code, {"text": action, "hand": "…", "step": "…", "kind": "",
                             "tile": ""}, lang)
    except (KeyError, IndexError, ValueError):
        return code[:40]
