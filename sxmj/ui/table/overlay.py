"""The table's small dialogs and its undo notice: nothing is lost by one click.

新比赛 New match during a match opens a confirmation (``[data-testid="confirm"]``); after a
finished match it starts at once and offers an undo for a few seconds
(``[data-testid="undo"]``). The welcome card (:mod:`sxmj.ui.table.welcome`) opens in the same
dialog. :class:`Overlay` owns a ``<dialog id="overlay">`` (modal: the table waits behind it)
and a ``<div id="toast">`` (a live region), made at start when the page has none; the markup
is pure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from sxmj.match import Match
from sxmj.ui.i18n import tr
from sxmj.ui.markup import esc
from sxmj.ui.table.dom import is_none

UNDO_SECONDS = 8.0  # how long the undo notice stays


def confirm_html(hand: int, length: int, score: int, lang: str, scenario: bool = False) -> str:
    """Start a new match? What ends, and the two ways out (keeping the match is first)."""
    if scenario:
        what = tr(lang, "confirm_scenario")
    else:
        of = tr(lang, "confirm_of", n=length) if length else ""
        what = tr(lang, "confirm_what", hand=hand, of=of,
                  score=f"+{score}" if score > 0 else str(score))
    return (f'<div class="confirm" data-testid="confirm" role="alertdialog" '
            f'aria-labelledby="confirm-title" aria-describedby="confirm-what">'
            f'<h2 id="confirm-title">{esc(tr(lang, "confirm_title"))}</h2>'
            f'<p id="confirm-what">{esc(what)}</p>'
            f'<div class="confirm__acts">'
            f'<button type="button" class="act act--primary" data-ui="confirm-no" autofocus>'
            f'<span class="act__label">{esc(tr(lang, "confirm_keep"))}</span></button>'
            f'<button type="button" class="act act--danger" data-ui="confirm-yes">'
            f'<span class="act__label">{esc(tr(lang, "confirm_new"))}</span></button>'
            f'</div></div>')


def undo_html(lang: str) -> str:
    """A new match began: undo brings the finished one back."""
    return (f'<div class="toast__card" data-testid="undo"><span>{esc(tr(lang, "undo_text"))}'
            f'</span><button type="button" class="act act--small" data-ui="undo">'
            f'<span class="act__label">{esc(tr(lang, "undo_new_match"))}</span></button></div>')


class Overlay:
    """The dialog (``open`` / ``close``, ``kind`` says what it holds) and the undo notice.

    ``closed(kind)`` is called when the dialog closes by itself (Esc)."""

    def __init__(self, document, closed: Callable[[str], None] = lambda kind: None):
        self.document = document
        self.closed = closed
        self.kind = ""
        self.dialog = self._element("overlay", "dialog", "overlay")
        self.toast = self._element("toast", "div", "toast")
        if not is_none(self.toast):
            self.toast.setAttribute("role", "status")
        self.toast_gen = 0

    def _element(self, rid: str, tag: str, cls: str):
        """The page's element ``rid``, made and added to the body when it has none."""
        element = self.document.getElementById(rid)
        if is_none(element) and hasattr(self.document, "createElement"):
            element = self.document.createElement(tag)
            element.id = rid
            element.className = cls
            self.document.body.append(element)
        return element

    @property
    def is_open(self) -> bool:
        """The dialog is showing (the table's keys wait)."""
        return not is_none(self.dialog) and bool(self.dialog.open)

    def open(self, kind: str, html: str) -> None:
        """Show ``html`` in the dialog (modal), the focus on its first button."""
        if is_none(self.dialog):
            return
        self.kind = kind
        self.dialog.setAttribute("data-kind", kind)
        self.dialog.innerHTML = html
        if not self.dialog.open:
            self.dialog.showModal()
        button = self.document.querySelector("#overlay [autofocus], #overlay button")
        if not is_none(button):
            button.focus()

    def close(self) -> None:
        """Put the dialog away."""
        if not is_none(self.dialog) and self.dialog.open:
            self.dialog.close()  # its close event clears it (on_close)

    def on_close(self, event=None) -> None:
        """The dialog closed (a button, or Esc): its content goes."""
        kind, self.kind = self.kind, ""
        if not is_none(self.dialog) and not self.dialog.open:
            self.dialog.innerHTML = ""
        if kind:
            self.closed(kind)

    def checked(self, rid: str) -> bool:
        """Is the dialog's checkbox ``rid`` ticked?"""
        box = self.document.getElementById(rid)
        return not is_none(box) and bool(box.checked)

    def show_undo(self, lang: str) -> None:
        """The undo notice, for a few seconds."""
        if is_none(self.toast):
            return
        self.toast.innerHTML = undo_html(lang)
        self.toast_gen += 1
        asyncio.ensure_future(self._hide_toast(self.toast_gen))

    def hide_undo(self) -> None:
        if not is_none(self.toast):
            self.toast.innerHTML = ""

    async def _hide_toast(self, gen: int) -> None:
        await asyncio.sleep(UNDO_SECONDS)
        if gen == self.toast_gen:
            self.hide_undo()


@dataclass(eq=False)
class Guard:
    """新比赛 without losing a match by one click, and the welcome card's closing.

    During a match 新比赛 asks first; after a finished match (nothing left to lose) the new
    match starts at once and the undo notice brings the finished one back. Given the
    ``overlay``, the table's language (``lang``), the ``match`` in play, whether a
    ``scenario`` is played, ``start()`` a new match, ``counted()`` (the match's hands in the
    profile) for ``back(match, counted)`` to restore, and ``hide_welcome()`` (the player
    asked not to see the welcome again)."""

    overlay: Overlay
    lang: Callable[[], str]
    match: Callable[[], Match]
    follows_settings: Callable[[], bool]  # False: a lesson, no match to sum up or undo
    start: Callable[[], None]
    counted: Callable[[], int]
    back: Callable[[Match, int], None]
    hide_welcome: Callable[[], None]
    kept: tuple[Match, int] | None = field(default=None, init=False)

    def ask(self) -> None:
        """新比赛 was pressed (the menu, the sheet, the result panel, N after a match)."""
        m = self.match()
        if m.finished and self.follows_settings():
            self.kept = (m, self.counted())
            self.start()
            self.overlay.show_undo(self.lang())
            return
        self.overlay.open("confirm", confirm_html(m.hand_no + 1, m.length, m.scores[0],
                                                  self.lang(), not self.follows_settings()))

    def yes(self) -> None:
        """Start the new match after all."""
        self.overlay.close()
        self.kept = None
        self.overlay.hide_undo()
        self.start()

    def undo(self) -> None:
        """Back to the finished match."""
        self.overlay.hide_undo()
        kept, self.kept = self.kept, None
        if kept is not None:
            self.back(*kept)

    def welcomed(self) -> None:
        """The welcome card's button: closed, and not shown again if the player said so."""
        if self.overlay.checked("welcome-hide"):
            self.hide_welcome()
        self.overlay.close()
