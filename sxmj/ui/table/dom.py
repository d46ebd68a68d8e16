"""The page as the table's parts touch it: its regions, the focus, the live regions, the
error box, the speaker (``window.sxmjAudio``), and the clock that times the work done on the
main thread.

Every part of the controller (:mod:`sxmj.ui.table.app` and the collaborators it builds) goes
through these few objects, so "what does the DOM see" has one answer. The markup itself
comes from the pure modules (:mod:`sxmj.ui.table.view`, :mod:`sxmj.ui.table.comforts`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # typing.TypeIs is Python 3.13's; only mypy reads it
    from typing_extensions import TypeIs

from sxmj.table_game import TableGame
from sxmj.ui.i18n import tr
from sxmj.ui.params import broker_origin
from sxmj.ui.table import view
from sxmj.ui.table.sound import (
    celebration_plan,
    plan,
    starts_waiting,
    tick_plan,
    waits_for_player,
)
from sxmj.ui.table.storage.saved import Settings

if TYPE_CHECKING:
    pass

WHY_SECONDS = 6.0  # how long a tapped explanation stays up
KEEP_SCROLL = {"result": ".result__card"}  # a region → its scrolling box, kept when redrawn


def attr(element, name: str) -> str | None:
    """An attribute's text, or None (JavaScript's null and undefined alike)."""
    value = element.getAttribute(name)
    return value if isinstance(value, str) else None


def is_none(value: object) -> TypeIs[None]:
    """True for a missing element (None, or a JavaScript null that is no element)."""
    return value is None or not hasattr(value, "getAttribute")


class Clock:
    """The page's clock, and ``window.sxmjStats``: how long each piece of work held the main
    thread (the browser tests read it to prove the bots never freeze the page)."""

    def __init__(self, window, to_js: Callable = lambda value: value):
        self.window = window
        self.to_js = to_js
        self.stats = window.sxmjStats
        self.recorded = 0

    def now(self) -> float:
        """Milliseconds on the page's clock (comparable with PerformanceObserver entries)."""
        return float(self.window.performance.now())

    def record(self, what: str, start: float, first: float, second: float = 0.0) -> None:
        """Keep how long a piece of work held the main thread (window.sxmjStats)."""
        try:
            if what == "bot":
                self.stats.botMoves.push(round(max(first, second), 2))
                self.stats.botThinks.push(round(first, 2))
                self.stats.botDraws.push(round(second, 2))
            self.stats.tasks.push(self.to_js([what, round(start), round(first + second, 1)]))
            self.recorded += 1
            if self.recorded % 1000 == 0:  # keep the last few thousand entries only
                for name in ("tasks", "botMoves", "botThinks", "botDraws"):
                    series = getattr(self.stats, name)
                    if series.length > 4000:
                        series.splice(0, series.length - 3000)
        except Exception:  # noqa: BLE001 - the stats object is optional
            pass


class Screen:
    """The regions of ``index.html`` the table draws into (each one rewritten only when its
    markup changed), the focus, the announcements, the tapped explanations and the error."""

    def __init__(self, document, window, to_js: Callable, region_ids: Iterable[str]):
        self.document = document
        self.window = window
        self.to_js = to_js
        self.elements = {rid: document.getElementById(rid) for rid in region_ids}
        self.cache: dict[str, str] = {}
        self.waiting = ""
        self.announced = ""
        self.why_gen = 0

    def paint(self, regions: dict[str, str]) -> None:
        """One ``innerHTML`` per region whose markup changed since it was last drawn. The
        result card keeps where it was scrolled to (a review's progress redraws it while
        the player reads it: it must not jump back to the top)."""
        for rid, html in regions.items():
            if self.cache.get(rid) != html:
                element = self.elements.get(rid)
                if is_none(element):
                    continue
                self.cache[rid] = html
                box = KEEP_SCROLL.get(rid)
                kept = self._scroll_of(element, box) if box else 0.0
                element.innerHTML = html
                if kept and box:
                    card = element.querySelector(box)
                    if not is_none(card):
                        card.scrollTop = kept

    @staticmethod
    def _scroll_of(element, selector: str) -> float:
        """How far the scrolling box ``selector`` of a region is scrolled (0 without one)."""
        query = getattr(element, "querySelector", None)
        box = query(selector) if query is not None else None
        return 0.0 if is_none(box) else float(box.scrollTop)

    def focus(self, selector: str) -> bool:
        """Focus the first element matching ``selector``; False when there is none."""
        element = self.document.querySelector(selector)
        if is_none(element):
            return False
        element.focus(self.to_js({"preventScroll": True}))
        return True

    def show_waiting(self, waiting: str, keyboard: bool) -> None:
        """``body[data-sxmj-waiting]``; when it changes, the focus goes where the game is."""
        if waiting == self.waiting:
            return
        self.waiting = waiting
        self.document.body.dataset.sxmjWaiting = waiting
        if waiting == "result":  # keyboard users land on "next hand" (a match's end: a new one)
            self.focus('#result [data-action="next-hand"]') or self.focus(
                '#result .result__foot [data-action="new-match"]')
        elif waiting == "you" and keyboard:
            self.focus("#actions button[data-action]") or self.focus(
                "#hand button[data-suggested]") or self.focus("#hand button:not([disabled])")

    def announce(self, st: view.TableState, waiting: str) -> None:
        """Turn and claim prompts (and the end of a hand) for screen readers."""
        if waiting == "you":
            text = view.status_text(st)
        elif waiting == "result" and st.result is not None:
            r = st.result
            title = (tr(st.lang, "result_draw") if r.winner is None else
                     tr(st.lang, "result_you_win") if r.winner == 0 else
                     tr(st.lang, "result_win", name=st.name(r.winner)))
            text = tr(st.lang, "ann_result", title=title)
        else:
            return
        if text != self.announced:
            self.announced = text
            box = self.document.getElementById("announce")
            if not is_none(box):
                box.textContent = text

    def show_why(self, text: str) -> None:
        """A tapped disabled tile or button says why (never only on hover)."""
        box = self.document.getElementById("why")
        if is_none(box) or not text:
            return
        box.textContent = text
        self.why_gen += 1
        asyncio.ensure_future(self._hide_why(self.why_gen))

    async def _hide_why(self, gen: int) -> None:
        await asyncio.sleep(WHY_SECONDS)
        if gen == self.why_gen:
            box = self.document.getElementById("why")
            if not is_none(box):
                box.textContent = ""

    def show_notice(self, html: str) -> None:
        """The notice (stored data that could not be used), until its OK is pressed."""
        box = self.document.getElementById("notice")
        if not is_none(box):
            box.innerHTML = html
            box.hidden = False

    def hide_notice(self) -> None:
        """Put the notice away (its OK)."""
        box = self.document.getElementById("notice")
        if not is_none(box):
            box.hidden = True

    def fail(self, text: str, lang: str) -> None:
        """Show an error box (and log it: the browser tests fail on console errors)."""
        self.window.console.error("sxmj: " + text)
        box = self.document.getElementById("game-error")
        if not is_none(box):
            title = view.esc(tr(lang, "error_title"))
            box.innerHTML = (
                f'<div class="game-error__card" role="alert"><h2>{title}</h2>'
                f'<p>{view.esc(tr(lang, "error_note"))}</p><pre>{view.esc(text)}</pre>'
                f'<button type="button" class="act act--primary" data-reload>'
                f'{view.esc(tr(lang, "reload"))}</button></div>')
            box.hidden = False


class Speaker:
    """``window.sxmjAudio`` (``static/js/sound.js``): it plays what :mod:`sxmj.ui.table.sound`
    plans for each batch of events, with the player's ``settings`` (their sound and the
    table's language); ``waiting`` is whether the table waited for the player after the last
    batch (the turn cue is for when it starts). One crossing and one JSON string per batch; a
    page without the script plays nothing, and sound never stops the game."""

    def __init__(self, document, window, settings: Callable[[], Settings]):
        self.document = document
        self.window = window
        self.settings = settings
        self.waiting = False
        audio = getattr(window, "sxmjAudio", None)
        self.audio = audio if hasattr(audio, "play") else None

    def hidden(self) -> bool:
        """The page is hidden (another tab, a minimised window, a locked phone)."""
        try:
            return str(self.document.visibilityState) == "hidden"
        except Exception:  # noqa: BLE001 - no Page Visibility API: take it as visible
            return False

    def configure(self) -> None:
        """Hand the sound switch and the volume to the script."""
        s = self.settings().sound
        self._call("configure", json.dumps({"on": s.on, "volume": s.volume}))

    def dealt(self, game: TableGame, heard: bool = True) -> None:
        """A hand was dealt: its deal's cues (none for a resumed hand, ``heard`` False)."""
        self.waiting = False
        self.hear(game.deal_events if heard else [], game, heard)

    def hear(self, events: list[dict], game: TableGame, heard: bool = True,
             people: frozenset[int] = frozenset({0})) -> None:
        """Fire the cues of a batch of events that left ``game`` as it is; before the first
        user gesture the script logs them and plays nothing. ``people``: the seats of people
        (a friends room's host also waits for its guests, who decide at their tables)."""
        waited, self.waiting = self.waiting, waits_for_player(game, people)
        settings = self.settings()
        s = settings.sound
        if not heard or self.audio is None or not (s.on or s.cues):
            return
        cues = plan(events, s, lang=settings.lang, hidden=self.hidden(),
                    prompted=starts_waiting(waited, game, people))
        if not cues.empty:
            self._call("play", cues.to_json())

    def notify(self, text: str) -> None:
        """A system notification (a friends room's turn while the page is hidden), if the
        player turned it on and the browser allows it."""
        if not (self.settings().sound.notify and self.hidden()):
            return
        try:
            notification = self.window.Notification
            if str(notification.permission) == "granted":
                notification.new(text)
        except Exception as e:  # noqa: BLE001 - a comfort, never a failure
            self.window.console.warn(f"sxmj: notification: {e}")

    def celebrate(self) -> None:
        """The player's first win ever: a short fanfare after the win's own sound."""
        cues = celebration_plan(self.settings().sound, self.hidden())
        if not cues.empty:
            self._call("play", cues.to_json())

    def tick(self) -> None:
        """A turn timer's tick (the last seconds of a decision in a friends room)."""
        cues = tick_plan(self.settings().sound, self.hidden())
        if not cues.empty:
            self._call("play", cues.to_json())

    def _call(self, name: str, text: str) -> None:
        if self.audio is not None:
            try:
                getattr(self.audio, name)(text)
            except Exception as e:  # noqa: BLE001 - sound is a comfort, never a failure
                self.window.console.warn(f"sxmj: sound: {e}")


def reaches(window, broker: str) -> bool:
    """The page's connect policy lets it reach ``broker``. page-boot.js fixes the policy at
    load (``sxmjBoot.connect``: the site, the address's and the setting's brokers, PeerJS's
    public one), and a policy can't be widened later: a broker set during the visit is
    reached from the next load. True where there is no policy (no page-boot.js)."""
    try:  # a JavaScript array of the allowed sources; a page without it has no policy
        allowed = {str(a) for a in window.sxmjBoot.connect}
    except (AttributeError, TypeError):
        return True
    return broker_origin(broker) in allowed


def after_first_frame(window, *works: Callable[[], None]) -> None:
    """Run each of ``works`` in turn once the browser has produced its next frame (in a task
    after it)."""
    from pyscript.ffi import create_proxy  # only exists in the browser

    def run() -> None:
        for work in works:
            work()

    # (two proxies, once per page: kept alive rather than destroyed after the call)
    task = create_proxy(run)
    window.requestAnimationFrame(create_proxy(lambda _time: window.setTimeout(task, 0)))
