"""Input routing: which handler a click, a tap or a key reaches.

A button says what it is by its data attributes (``data-ui`` a menu, sheet, assist, replay or
dialog control; ``data-tab`` a tab of the sheet; ``data-action`` a choice of the game, or
``new-match``; ``data-tile`` a tile to discard, or on touch to raise first
(:mod:`sxmj.ui.table.inputs.touch`); ``data-why`` why it is not allowed). The tables below
map those to the table's handlers (:class:`Table`, the controller), so adding a control is
one line.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from functools import partial
from typing import Protocol

from sxmj.match import Match
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import tr
from sxmj.ui.table import view
from sxmj.ui.table.decision import Decision
from sxmj.ui.table.dom import Clock, Screen, attr, is_none
from sxmj.ui.table.friends.door import Door
from sxmj.ui.table.inputs.touch import Swipe, two_taps
from sxmj.ui.table.overlay import Guard, Overlay
from sxmj.ui.table.replay.records import Records, Replay
from sxmj.ui.table.result.reveal import Ending
from sxmj.ui.table.review.reviewer import Reviewer
from sxmj.ui.table.session import Session
from sxmj.ui.table.settings.sheet import Preferences, SettingsSheet

PICK_STEPS = {"ArrowLeft": -1, "ArrowRight": 1}  # ←/→ choose the previous/next tile


class Table(Protocol):
    """What the player's input can reach: the controller and the parts it holds."""

    match: TableMatch

    @property
    def played(self) -> Match: ...
    keyboard: bool
    screen: Screen
    preferences: Preferences
    sheet: SettingsSheet
    decision: Decision
    replay: Replay
    ending: Ending
    overlay: Overlay
    guard: Guard
    session: Session
    reviewer: Reviewer
    door: Door

    def state(self) -> view.TableState: ...

    def fail(self, text: str) -> None: ...

    def next_hand(self) -> None: ...

    def new_match(self) -> None: ...

    def toggle_rail(self) -> None: ...

    def export_record(self) -> None: ...

    def session_command(self, name: str, value: str = "") -> None: ...


class InputRouter:
    """The page's click, pointer-up and keydown listeners, routed to ``table``."""

    def __init__(self, table: Table, records: Records, clock: Clock):
        self.table = table
        self.clock = clock
        t = table
        p = table.preferences
        d = table.decision
        self.ui_routes: dict[str, Callable[[], None]] = {  # data-ui → handler
            "lang": p.toggle_lang,
            "speed": p.cycle_speed,
            "level": p.cycle_level,
            "offers": d.show_offers,
            "new-match": t.new_match,
            "settings": lambda: t.sheet.open("settings"),
            "rules": lambda: t.sheet.open("settings"),
            "profile": lambda: t.sheet.open("profile"),
            "help": lambda: t.sheet.open("help"),
            "close": t.sheet.close,
            "assist": p.toggle_assist,
            "assist-open": t.toggle_rail,
            "rules-reset": p.reset_rules,
            "export": t.export_record,
            "copy-link": records.copy_link_soon,
            "notice-ok": t.screen.hide_notice,
            "param-notice-ok": t.screen.hide_notice,
            "viewer-close": t.replay.close,
            "see-result": lambda: t.ending.skip(),
            "view-table": lambda: t.ending.toggle_peek(),
            "confirm-yes": lambda: t.guard.yes(),
            "confirm-no": lambda: t.overlay.close(),
            "undo": lambda: t.guard.undo(),
            "welcome-ok": lambda: t.guard.welcomed(),
            "friends-create": lambda: t.session.command("create"),
            "friends-start": lambda: t.session.command("start"),
            "friends-cancel": lambda: t.session.command("cancel"),
            "friends-retry": lambda: t.session.command("retry"),
            "friends-copy": lambda: t.session.command("copy"),
            "friends-share-copy": lambda: t.session.command("share-copy"),
            "friends-lock": lambda: t.session.command("lock"),
            "codes-open": lambda: t.session.command("codes-open"),
            "codes-connect": lambda: t.session.command("codes-connect"),
            "codes-close": lambda: t.session.command("codes-close"),
            "codes-answer-copy": lambda: t.session.command("codes-answer-copy"),
            "away-toggle": lambda: t.session.command("away"),
            "join-room-open": lambda: t.door.show(),
            "join-room-go": lambda: t.door.go(),
            "join-room-cancel": lambda: t.overlay.close(),
            "friends-dissolve": lambda: t.session.command("dissolve"),
            "friends-ended-close": lambda: t.session.command("ended-close"),
            "friends-export": t.export_record,
            "review": self.review,
            "review-cancel": lambda: t.reviewer.cancel(),
            "menu-more": lambda: None,  # ☰: the browser opens its popover (popovertarget)
            "daily-copy": lambda: t.session.command("daily-copy"),
            **{f"daily-review-{n}": partial(t.session_command, "daily-review", str(n))
               for n in range(1, 9)},
        }
        self.table_keys: dict[str, Callable[[], None]] = {  # lower-case key → handler, always
            "?": lambda: t.sheet.open("help"),
            "a": p.toggle_assist,
            "m": self.toggle_sound,
        }
        self.result_keys: dict[str, Callable[[], None]] = {  # when the hand is over
            "n": t.next_hand,
        }
        self.swipe = Swipe()
        self.swallow = 0.0  # a click before this time ends a swipe already handled
        self.document = None  # the page's, once listening

    def listen(self, document, proxy: Callable) -> list:
        """Add the page's listeners (each wrapped by ``proxy`` for JavaScript); returns the
        wrapped ones, which must be kept alive as long as the page."""
        t = self.table
        self.document = document
        click, key, pointer = proxy(self.on_click), proxy(self.on_key), proxy(self.on_pointer)
        change, closed = proxy(t.sheet.on_change), proxy(t.sheet.closed)
        down, dialog_closed = proxy(self.on_pointer_down), proxy(t.overlay.on_close)
        dialog_change = proxy(self.on_dialog_change)
        dialog_input = proxy(self.on_dialog_input)
        for rid in ("table", "result", "sheet", "viewer", "notice", "overlay", "toast"):
            element = document.getElementById(rid)
            if not is_none(element):
                element.addEventListener("click", click)
        document.getElementById("table").addEventListener("pointerup", pointer)
        document.getElementById("table").addEventListener("pointerdown", down)
        if not is_none(t.overlay.dialog):
            t.overlay.dialog.addEventListener("close", dialog_closed)
            t.overlay.dialog.addEventListener("change", dialog_change)
            t.overlay.dialog.addEventListener("input", dialog_input)
        sheet = document.getElementById("sheet")
        if not is_none(sheet):
            sheet.addEventListener("change", change)
            sheet.addEventListener("close", closed)
        document.addEventListener("keydown", key)
        return [click, key, pointer, change, closed, down, dialog_closed, dialog_change,
                dialog_input]

    def on_dialog_change(self, event) -> None:
        """A choice changed in a dialog: a room's terms (``data-ui-change="friends-terms"``)
        go to the session."""
        try:
            name = attr(event.target, "data-ui-change") or ""
            if name.startswith("friends-"):
                self.table.session.command(name[len("friends-"):])
        except Exception:  # noqa: BLE001
            self.table.fail(traceback.format_exc())

    def on_dialog_input(self, event) -> None:
        """Text typed or pasted in a dialog: an answer code (``data-ui-input="friends-paste"``)
        connects as soon as it is whole."""
        try:
            if attr(event.target, "data-ui-input") == "friends-paste":  # (typed or pasted)
                self.table.session.command("paste", str(getattr(event, "inputType", "") or ""))
        except Exception:  # noqa: BLE001
            self.table.fail(traceback.format_exc())

    # ------------------------------------------------------------ clicks

    def on_click(self, event) -> None:
        """A click anywhere on the table, the result, the sheet, the replay bar or a notice."""
        t0 = self.clock.now()
        try:
            self._on_click(event)
        finally:
            self.clock.record("click", t0, self.clock.now() - t0)

    def _on_click(self, event) -> None:
        t = self.table
        try:
            target = event.target
            if not is_none(target) and attr(target, "id") == "sheet":
                t.sheet.close()  # a click on the backdrop
                return
            if not is_none(target) and attr(target, "id") == "overlay":
                t.overlay.close()  # the dialog's backdrop: keep playing
                return
            button = target.closest("button") if hasattr(target, "closest") else None
            if self.clock.now() < self.swallow:
                return  # the click that ends a swipe already handled
            if is_none(button) or button.disabled:
                t.decision.lower()  # a tap anywhere else lowers a raised tile
                return
            code = attr(button, "data-tile")
            if code is None:
                t.decision.lower()
            why = attr(button, "data-why")
            if why is not None and attr(button, "aria-disabled") == "true":
                t.screen.show_why(why)
                return
            tab = attr(button, "data-tab")
            if tab is not None:
                t.sheet.show(tab)
                return
            ui = attr(button, "data-ui")
            if ui in ("friends-seat", "friends-say"):  # the button says which seat or phrase
                seat, phrase = attr(button, "data-seat") or "", attr(button, "data-phrase") or ""
                t.session.command("seat", seat) if seat else t.session.command("say", phrase)
                return
            if ui in ("friends-remove", "friends-approve"):  # the host's: which seat
                t.session.command(ui[len("friends-"):], attr(button, "data-seat") or "")
                return
            if ui in ("codes-copy", "codes-new"):  # a connection code's: which seat
                t.session.command(ui, attr(button, "data-seat") or "")
                return
            if ui == "dissolve-vote":  # 解散: this person's answer
                t.session.command("vote", attr(button, "data-vote") or "")
                return
            if ui is not None and self.ui(ui):
                return
            if not t.session.takes_moves:  # a record watched: nobody plays
                return
            action = attr(button, "data-action")
            if action == "next-hand":
                t.next_hand()
                return
            if action == "new-match":
                t.new_match()
                return
            if action is None and code is not None:
                pointer = str(getattr(event, "pointerType", "") or "")
                t.decision.tap(code, sibling_index(button),
                               two_taps(t.preferences.settings.tap, pointer))
                return
            move = attr(button, "data-move")
            if move is not None:  # a choice: the button carries its place among them
                t.decision.choose(move)
        except Exception:  # noqa: BLE001
            t.fail(traceback.format_exc())

    def review(self) -> None:
        """复盘: review the player's decisions in the hand shown (in a replay, its end first)."""
        t = self.table
        t.replay.to_hand_end()
        key, record, hand = t.replay.review_subject(t.played)
        t.reviewer.start(key, record, hand)

    def toggle_sound(self) -> None:
        """The key M: sound on or off (mute), and a word saying which."""
        p = self.table.preferences
        p.toggle_sound()
        s = p.settings
        self.table.screen.show_why(tr(s.lang, "sound_now_on" if s.sound.on else "sound_now_off"))

    def ui(self, ui: str) -> bool:
        """A menu, sheet, assist or viewer control; True when handled."""
        route = self.ui_routes.get(ui)
        if route is not None:
            route()
            return True
        return self.table.replay.step(ui)  # its bar's buttons, while a record is watched

    def on_pointer_down(self, event) -> None:
        """A finger down on a hand tile may start a swipe up
        (:class:`sxmj.ui.table.inputs.touch.Swipe`)."""
        try:
            target = event.target
            tile = target.closest("#hand button[data-tile]") if hasattr(
                target, "closest") else None
            code = None if is_none(tile) or tile.disabled else attr(tile, "data-tile")
            index = None if code is None else sibling_index(tile)
            self.swipe.down(code, index, float(event.clientY), str(event.pointerType or ""))
        except Exception:  # noqa: BLE001
            self.table.fail(traceback.format_exc())

    def on_pointer(self, event) -> None:
        """Pointer up: the end of a swipe up on a tile (it throws the tile), or a disabled
        tile (a click never reaches a disabled button: it says why)."""
        t = self.table
        try:
            t.keyboard = False
            swiped = self.swipe.up(float(getattr(event, "clientY", 0) or 0))
            if swiped is not None and t.session.takes_moves:
                self.swallow = self.clock.now() + 400
                t.decision.discard(swiped[0])
                return
            target = event.target
            if not hasattr(target, "closest"):
                return
            element = target.closest("[data-why]")
            if is_none(element) or not element.disabled:
                return
            t.screen.show_why(attr(element, "data-why") or "")
        except Exception:  # noqa: BLE001
            t.fail(traceback.format_exc())

    # ------------------------------------------------------------ keys

    def on_key(self, event) -> None:
        """A key (see docs/player-guide.md "Keys"); the sheet, when open, handles its own."""
        t = self.table
        try:
            t.keyboard = True
            if event.ctrlKey or event.metaKey or event.altKey:
                return
            key = str(event.key)
            low = key.lower()
            if t.sheet.is_open or t.overlay.is_open or self.menu_open():
                return  # the sheet, the dialog and the menu handle their own keys (Esc closes)
            if not t.session.takes_moves:  # a record watched: the replay's keys
                if t.replay.step(key):
                    event.preventDefault()
                return
            route = self.table_keys.get(low)
            if route is not None:
                event.preventDefault()
                route()
                return
            if t.match.game.over:
                route = self.result_keys.get(low)
                if route is not None:
                    event.preventDefault()
                    route()
                return
            if key in PICK_STEPS:
                if t.decision.move_pick(PICK_STEPS[key]):
                    event.preventDefault()
                return
            if key == "Enter" and t.decision.pick is not None:
                code = t.decision.picked_code()
                if code is not None:
                    event.preventDefault()
                    t.decision.discard(code)
                return
            self.choice_key(event, "esc" if low == "escape" else low)
        except Exception:  # noqa: BLE001
            t.fail(traceback.format_exc())

    def menu_open(self) -> bool:
        """The folded menu (☰, a popover) is open: Esc is its own, never a pass."""
        menu = None if self.document is None else self.document.getElementById("menu-more")
        try:
            return not is_none(menu) and bool(menu.matches(":popover-open"))
        except Exception:  # noqa: BLE001 - a browser without popovers shows its chips inline
            return False

    def choice_key(self, event, wanted: str) -> None:
        """The key printed on a choice presses it; the key of a disallowed one says why."""
        t = self.table
        choices = t.decision.choices  # as drawn: the keys printed on them
        for b in choices:
            if b.key.lower() == wanted:
                event.preventDefault()
                t.decision.press(b)
                return
        if wanted == "esc":  # Esc also passes when there is nothing to cancel
            for b in choices:
                if b.action == "pass":
                    t.decision.press(b)
                    return
        for g in t.decision.ghosts:  # the key of an action the rules don't allow: say why
            if view.GHOST_KEYS.get(g.action, "").lower() == wanted:
                event.preventDefault()
                t.screen.show_why(g.why)
                return


def sibling_index(element) -> int | None:
    """The element's position among its parent's children (None when it can't be told):
    a tapped tile's place in the hand, so the copy tapped is the one raised."""
    n = 0
    try:
        other = element.previousElementSibling
        while not is_none(other):
            n += 1
            other = other.previousElementSibling
    except AttributeError:
        return None
    return n
