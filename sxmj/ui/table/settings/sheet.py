"""The sheet (⚙, §, ★, ?): a ``<dialog>`` with the tabs 设置 Settings, 档案 Profile, 记录 Records
and 按键 Keys, and what a changed setting does.

The markup of each tab is pure (:mod:`sxmj.ui.table.comforts`); the controller gives the sheet the
markup of a tab, and :class:`Preferences` keeps the settings and tells the controller what
changed.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sxmj.room.ice import PRESETS as ICE_PRESETS
from sxmj.room.ice import ice_list_ok, turn_secret_ok
from sxmj.rules import Options
from sxmj.ui.i18n import LANGS, tr
from sxmj.ui.params import SPEEDS, is_broker, is_whole
from sxmj.ui.table import comforts
from sxmj.ui.table.dom import Screen, attr, is_none, reaches
from sxmj.ui.table.settings.tabs import broker_reload_html
from sxmj.ui.table.sound import is_volume
from sxmj.ui.table.storage.saved import LEVELS, TAPS, Settings

# the level and speed chips step through the one list of each, round and round
SPEED_CYCLE = {s: SPEEDS[(i + 1) % len(SPEEDS)] for i, s in enumerate(SPEEDS)}
LEVEL_CYCLE = {lv: LEVELS[(i + 1) % len(LEVELS)] for i, lv in enumerate(LEVELS)}
RULE_NUMBERS = ("base_flowers", "fan_cap", "reserved_tiles", "match_hands")
SOUND_FLAGS = {"sound": "on", "speech": "speech", "cues": "cues",  # input → SoundSettings field
               "notify": "notify"}


def ask_notifications(document) -> None:
    """Ask the browser for system notifications (the player just turned them on)."""
    try:
        notification = document.defaultView.Notification
        if str(notification.permission) == "default":
            notification.requestPermission()
    except Exception:  # noqa: BLE001 - no Notification API: the setting stays, silent
        pass


class Preferences:
    """The player's settings: each change is kept at once, then ``changed(name)`` tells the
    controller which one (``lang``, ``speed``, ``bots``, ``anim``, ``assist``, ``sound`` or
    ``rules``; a rule applies from the next match)."""

    def __init__(self, document, keep: Callable[[Settings], None],
                 changed: Callable[[str], None]):
        self.document = document
        self.keep = keep
        self.changed = changed
        self.settings = Settings()

    def _save(self, settings: Settings) -> None:
        self.settings = settings
        self.keep(settings)

    def set_lang(self, lang: str) -> None:
        """The table's language (and the page's ``lang`` and the table's name)."""
        self._save(replace(self.settings, lang=lang))
        self.document.documentElement.lang = "zh-Hans" if lang == "zh" else "en"
        self.document.getElementById("table").setAttribute("aria-label", tr(lang, "table"))
        self.changed("lang")

    def toggle_lang(self) -> None:
        """中文 ↔ English."""
        self.set_lang("en" if self.settings.lang == "zh" else "zh")

    def set_speed(self, speed: str) -> None:
        """The bots' pace."""
        self._save(replace(self.settings, speed=speed))
        self.changed("speed")

    def cycle_speed(self) -> None:
        """The next pace: slow → normal → fast → slow."""
        self.set_speed(SPEED_CYCLE[self.settings.speed])

    def set_levels(self, levels: tuple[str, str, str]) -> None:
        """Each bot's level, from their next move on."""
        self._save(replace(self.settings, bots=levels))
        self.changed("bots")

    def cycle_level(self) -> None:
        """All bots one level up (after hard: easy; a mixed table goes to easy too)."""
        current = self.settings.bots[0] if len(set(self.settings.bots)) == 1 else "hard"
        self.set_levels((LEVEL_CYCLE[current],) * 3)

    def set_anim(self, anim: str) -> None:
        """How much moves (``body[data-sxmj-anim]``; the stylesheet does the rest)."""
        self._save(replace(self.settings, anim=anim))
        self.document.body.dataset.sxmjAnim = anim
        self.changed("anim")

    def set_tap(self, tap: str) -> None:
        """How a tap or a click discards (sxmj.ui.table.inputs.touch): auto, one or two."""
        self._save(replace(self.settings, tap=tap))
        self.changed("tap")

    def set_broker(self, broker: str) -> None:
        """The PeerServer of the rooms this player hosts ("" for PeerJS's public one)."""
        self._save(replace(self.settings, broker=broker))
        self.changed("broker")

    def set_ice(self, ice: str | None = None, ice_servers: str | None = None,
                turn_secret: str | None = None) -> None:
        """The ICE servers of the rooms this player hosts: ``ice`` (the preset),
        ``ice_servers`` (a custom list), ``turn_secret`` (mints each room's TURN logins);
        None keeps one as it is."""
        s = self.settings
        self._save(replace(s, ice=s.ice if ice is None else ice,
                           ice_servers=s.ice_servers if ice_servers is None else ice_servers,
                           turn_secret=s.turn_secret if turn_secret is None else turn_secret))
        self.changed("ice")

    def toggle_assist(self) -> None:
        """The assist on or off."""
        self._save(replace(self.settings, assist=not self.settings.assist))
        self.changed("assist")

    def set_sound(self, **change: Any) -> None:
        """A sound setting (``on``: off mutes everything, ``volume``, ``speech``, ``cues``)."""
        self._save(replace(self.settings, sound=replace(self.settings.sound, **change)))
        self.changed("sound")

    def toggle_sound(self) -> None:
        """Sound on or off (mute)."""
        self.set_sound(on=not self.settings.sound.on)

    def set_rule(self, name: str, value: bool | int) -> None:
        """One rule option for the next match (ignored if the options refuse it)."""
        rules = self.settings.rules.to_dict()
        rules[name] = value
        try:
            options = Options.from_dict(rules)
        except ValueError:
            return
        self._save(replace(self.settings, rules=options))
        self.changed("rules")

    def reset_rules(self) -> None:
        """The rule book's options for the next match."""
        self._save(replace(self.settings, rules=Options()))
        self.changed("rules")


@dataclass(eq=False)
class SettingsSheet:
    """The sheet's dialog: which tab is open (``tab``, None when closed) and its markup.

    Given the page, ``markup`` for a tab, the ``preferences`` its inputs change,
    ``import_file`` for the Records tab's file input, ``opened`` (called as a tab opens,
    before it is drawn) and ``fail`` for an error.
    """

    document: Any
    screen: Screen
    markup: Callable[[str], str]
    preferences: Preferences
    import_file: Callable[[object], Awaitable[None]]
    opened: Callable[[], None]
    fail: Callable[[str], None]
    tab: str | None = field(default=None, init=False)
    # what the dialog holds, redrawn only when it changes
    html: str | None = field(default=None, init=False)

    def dialog(self):
        """The ``<dialog id="sheet">`` element (or a null)."""
        return self.document.getElementById("sheet")

    @property
    def is_open(self) -> bool:
        """The sheet is showing (its dialog is open)."""
        dialog = self.dialog()
        return not is_none(dialog) and bool(dialog.open)

    def open(self, tab: str) -> None:
        """Show the sheet at ``tab`` (modal), the focus on that tab."""
        self.tab = tab
        self.opened()
        self.render()
        dialog = self.dialog()
        if not is_none(dialog) and not dialog.open:
            dialog.showModal()
            tab_button = self.document.querySelector(f'#sheet [data-tab="{tab}"]')
            if not is_none(tab_button):
                tab_button.focus()

    def show(self, tab: str) -> None:
        """Switch the open sheet to ``tab``."""
        self.tab = tab
        self.opened()
        self.render()
        self.screen.focus(f'#sheet [data-tab="{tab}"]')

    def render(self) -> None:
        """Redraw the open tab (nothing when the sheet is closed)."""
        tab = self.tab
        if tab is None:
            return
        html = self.markup(tab)
        if self.html != html:
            self.html = html
            dialog = self.dialog()
            if not is_none(dialog):
                focused = self.document.activeElement
                keep = attr(focused, "data-setting") if not is_none(focused) else None
                dialog.innerHTML = html
                if keep:  # a changed setting redraws the sheet: keep the focus on it
                    self.screen.focus(f'#sheet [data-setting="{keep}"]')

    def close(self) -> None:
        """Close the dialog."""
        dialog = self.dialog()
        if not is_none(dialog) and dialog.open:
            dialog.close()
        self.closed()

    def closed(self, event=None) -> None:
        """The dialog closed (its close button, Esc, the backdrop)."""
        self.tab = None
        self.html = None

    def on_change(self, event) -> None:
        """An input of the sheet changed: apply it at once (the rules from the next match)."""
        try:
            target = event.target
            name = attr(target, "data-setting")
            if attr(target, "data-ui") == "import":
                files = target.files
                if files is not None and files.length:
                    asyncio.ensure_future(self.import_file(files.item(0)))
                return
            if name is None:
                return
            value = str(target.value)
            checked = bool(target.checked) if str(target.type) == "checkbox" else None
            self.change(name, value, checked)
            self.render()
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

    def _field_note(self, name: str, ok: bool, shown: str) -> None:
        """A typed field's note: its help when the value was saved, else why it was not
        (``shown``: what of the value the note may repeat; a secret is never repeated)."""
        field = self.document.querySelector(f'#sheet [data-setting="{name}"]')
        if is_none(field):
            return
        field.setAttribute("aria-invalid", "false" if ok else "true")
        note = field.parentElement.querySelector("small")
        if not is_none(note):
            lang = self.preferences.settings.lang
            note.textContent = tr(lang, f"set_{name}_note") if ok else tr(
                lang, f"set_{name}_bad", value=shown[:60])

    def change(self, name: str, value: str, checked: bool | None) -> None:
        """Apply input ``name`` now holding ``value`` (``checked`` for a checkbox); values
        the form could not have sent are ignored."""
        p = self.preferences
        if name == "lang" and value in LANGS:
            p.set_lang(value)
        elif name == "speed" and value in SPEEDS:
            p.set_speed(value)
        elif name == "anim":
            p.set_anim(value)
        elif name == "tap" and value in TAPS:
            p.set_tap(value)
        elif name == "broker":
            given = value.strip()
            ok = given == "" or is_broker(given)
            if ok:
                p.set_broker(given)
            # the field keeps what was typed (the sheet is redrawn only when a setting
            # changes); its note says why it was not saved, or goes back to its help
            field = self.document.querySelector('#sheet [data-setting="broker"]')
            if not is_none(field):
                note = field.parentElement.querySelector("small")
                field.setAttribute("aria-invalid", "false" if ok else "true")
                if not is_none(note):
                    lang = p.settings.lang
                    note.textContent = tr(lang, "set_broker_note") if ok else tr(
                        lang, "set_broker_bad", value=given[:80])
                    if ok and given and not reaches(self.document.defaultView, given):
                        note.innerHTML = broker_reload_html(lang)  # before any redraw
        elif name == "ice" and value in ICE_PRESETS:
            p.set_ice(ice=value)
        elif name in ("ice_servers", "turn_secret"):
            given = value.strip()
            ok = given == "" or (ice_list_ok if name == "ice_servers" else turn_secret_ok)(given)
            if ok and name == "ice_servers":
                p.set_ice(ice_servers=given)
            elif ok:
                p.set_ice(turn_secret=given)
            self._field_note(name, ok, given if name == "ice_servers" else "")
        elif name == "assist":
            if checked != p.settings.assist:
                p.toggle_assist()
        elif name in SOUND_FLAGS:
            if name == "notify" and checked:
                ask_notifications(self.document)  # in the click: browsers ask only then
            p.set_sound(**{SOUND_FLAGS[name]: bool(checked)})
        elif name == "volume" and is_whole(value) and is_volume(int(value)):
            p.set_sound(volume=int(value))
        elif name in ("bot1", "bot2", "bot3") and value in LEVELS:
            levels = list(p.settings.bots)
            levels[int(name[-1]) - 1] = value
            p.set_levels((levels[0], levels[1], levels[2]))
        elif name in comforts.RULE_FLAGS:
            p.set_rule(name, bool(checked))
        elif name in RULE_NUMBERS and is_whole(value):
            p.set_rule(name, int(value))
