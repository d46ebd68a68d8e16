"""The game in the browser: the controller (the only module that touches the DOM).

It owns the :class:`~sxmj.match.Match`, asks the engine for ``legal_actions``,
lets the bots choose from their own observation only, and redraws the table
with :func:`sxmj.ui.view.render_all` — one ``innerHTML`` per region that
changed. Bots move from an asyncio task that sleeps between moves (a
``setTimeout`` under Pyodide), so clicks and keys are handled between them.

Contract with ``index.html`` and the tests: when the table is interactive,
:func:`start` sets, last of all, ``document.body.dataset.sxmjReady = "1"``.
``body[data-sxmj-waiting]`` says what the table waits for: ``you`` (a click),
``bots`` or ``result`` (the result panel is open).
"""

from __future__ import annotations

import asyncio
import random
import traceback

from ..bots import Bot
from ..game import Action
from ..match import Match
from ..tiles import tile as tile_of
from . import view
from .i18n import seat_name, tr
from .params import MAX_SEED, Params, parse_params

DELAYS = {"slow": 1.1, "normal": 0.6, "fast": 0.0}  # a bot's thinking time, seconds
CLAIM_PAUSE = 0.5  # share of the delay a claim stays on screen before the claimer moves
SPEED_CYCLE = {"slow": "normal", "normal": "fast", "fast": "slow"}
LEVEL_CYCLE = {"easy": "normal", "normal": "hard", "hard": "easy"}
STATIC_REGIONS = ("menu", "seat-1", "seat-2", "seat-3", "panel", "me-plate",
                  "me-melds", "hand", "actions", "result", "river-bottom", "river-right",
                  "river-top", "river-left", "log",
                  "callout-0", "callout-1", "callout-2", "callout-3")


def _attr(element, name: str) -> str | None:
    """An attribute's text, or None (JavaScript's null and undefined alike)."""
    value = element.getAttribute(name)
    return value if isinstance(value, str) else None


def _is_none(value) -> bool:
    return value is None or not hasattr(value, "getAttribute")


class App:
    """One table in one page."""

    def __init__(self, document, window, params: Params, to_js=lambda value: value):
        self.document = document
        self.window = window
        self.to_js = to_js
        self.params = params
        self.elements = {rid: document.getElementById(rid) for rid in STATIC_REGIONS}
        self.cache: dict[str, str] = {}
        self.waiting = ""
        self.task: asyncio.Future | None = None
        self.gen = 0
        self.serial = 0
        self.recorded = 0
        self.fresh: dict[str, set[int]] = {}
        self.log: list[str] = []
        self.stats = window.sxmjStats
        self.start_match(params.seed)

    # ------------------------------------------------------------ match lifecycle

    def start_match(self, seed: int) -> None:
        self.params = Params(seed, True, self.params.lang, self.params.speed, self.params.level)
        self.match = Match(seed=seed)
        self.bots = [None] + [Bot(self.params.level, seed * 4 + s) for s in (1, 2, 3)]
        self.new_hand_state()

    def new_hand_state(self) -> None:
        self.thinking: int | None = None
        self.confirm_piao = False
        self.dismissed = False
        self.bubbles: dict[int, tuple[str, int]] = {}
        game = self.match.game
        self.note(game.deal_events)
        self.log.append(tr(self.params.lang, "log_new_hand", n=self.match.hand_no + 1,
                           name=seat_name(game.dealer, self.params.lang)))

    def state(self) -> view.TableState:
        return view.TableState.of(
            self.match, lang=self.params.lang, speed=self.params.speed,
            level=self.params.level, thinking=self.thinking, confirm_piao=self.confirm_piao,
            dismissed=self.dismissed, link=self.params.query(), fresh=self.fresh)

    # ------------------------------------------------------------ drawing

    def render(self) -> None:
        t0 = self.now()
        self._render()
        self.record("render", t0, self.now() - t0)

    def _render(self) -> None:
        st = self.state()
        self.fresh = {}  # what just arrived animates in this drawing only
        regions = view.render_all(st)
        for seat, (text, n) in self.bubbles.items():
            regions[f"callout-{seat}"] = view.callout_html(seat, text, n)
        regions["log"] = "".join(f"<p>{view.esc(line)}</p>" for line in self.log[-3:])
        for rid, html in regions.items():
            if self.cache.get(rid) != html:
                self.cache[rid] = html
                self.elements[rid].innerHTML = html
        game = self.match.game
        if game.over:
            waiting = "result"
        elif 0 in game.to_move() and not any(s for s in game.to_move() if s != 0):
            waiting = "you"
        else:
            waiting = "bots"
        if waiting != self.waiting:
            self.waiting = waiting
            self.document.body.dataset.sxmjWaiting = waiting
            if waiting == "result":  # keyboard users land on "next hand"
                button = self.document.querySelector('[data-action="next-hand"]')
                if not _is_none(button):
                    button.focus(self.to_js({"preventScroll": True}))

    def note(self, events: list[dict]) -> None:
        self.fresh = view.fresh_events(events)
        bubbles, lines = view.event_notes(events, self.params.lang)
        for seat, text in bubbles.items():
            self.serial += 1
            self.bubbles[seat] = (text, self.serial)
        self.log.extend(lines)
        del self.log[:-20]

    # ------------------------------------------------------------ playing

    def apply(self, action: Action) -> None:
        events = self.match.apply(action)
        self.note(events)

    def kick(self) -> None:
        """Let the bots move (in a task) until the player must decide or the hand ends."""
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.ensure_future(self.drive(self.gen))

    async def drive(self, gen: int) -> None:
        try:
            await self._drive(gen)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - shown to the player and logged for the tests
            self.fail(traceback.format_exc())

    async def _drive(self, gen: int) -> None:
        while gen == self.gen:
            game = self.match.game
            if game.over:
                self.render()
                return
            bots = [s for s in game.to_move() if s != 0]
            if not bots:
                self.render()  # the player's decision: wait for a click
                return
            seat = bots[0]
            delay = DELAYS[self.params.speed]
            if game.phase == "turn" and self.thinking != seat:
                self.thinking = seat  # the bot "thinks" visibly: a timer, not work
                self.render()
                await asyncio.sleep(delay)
                continue
            # Choosing and drawing run as two tasks, so input is handled in between.
            t0 = self.now()
            choice = self.bots[seat].choose(game.observation(seat), game.legal_actions(seat))
            t1 = self.now()
            await asyncio.sleep(0)
            if gen != self.gen or self.match.game is not game \
                    or choice.action not in game.legal_actions(seat):
                continue  # the player acted meanwhile: look again
            t2 = self.now()
            self.thinking = None
            self.apply(choice.action)
            self.render()
            t3 = self.now()
            self.record("bot", t0, t1 - t0, t3 - t2)
            claimed = choice.action.kind not in ("pass", "discard")
            await asyncio.sleep(delay * CLAIM_PAUSE if claimed else 0)

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

    def act(self, action: Action | None) -> None:
        """Apply the player's choice (only if legal now) and let the bots go on."""
        game = self.match.game
        if action is None or action not in game.legal_actions(0):
            return
        self.confirm_piao = False
        self.dismissed = False
        self.apply(action)
        self.render()
        self.kick()

    def discard(self, code: str) -> None:
        game = self.match.game
        try:
            t = tile_of(code)
        except ValueError:
            return
        action = Action(0, "discard", t)
        if action not in game.legal_actions(0):
            return
        if t == game.caishen and not self.confirm_piao and game.can_win_now(0) is not None:
            self.confirm_piao = True  # 飘 would pass up a win: ask first
            self.render()
            return
        self.act(action)

    def press(self, button: view.Button) -> None:
        if button.engine is not None:
            self.act(button.engine)
        elif button.action == "cancel":
            self.confirm_piao = False
            self.render()
        elif button.action == "pass":  # own turn: put the 胡/杠 offers away
            self.dismissed = True
            self.render()

    def next_hand(self) -> None:
        if not self.match.game.over:
            return
        self.match.next_hand()
        self.new_hand_state()
        self.render()
        self.kick()

    def restart(self, seed: int | None = None) -> None:
        self.gen += 1
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self.log = []
        self.start_match(seed if seed is not None else new_seed())
        self.update_url()
        self.render()
        self.kick()

    # ------------------------------------------------------------ settings

    def set_lang(self, lang: str) -> None:
        self.params = Params(self.params.seed, True, lang, self.params.speed, self.params.level)
        self.document.documentElement.lang = "zh-Hans" if lang == "zh" else "en"
        self.document.getElementById("table").setAttribute(
            "aria-label", tr(lang, "table"))
        self.update_url()
        self.render()

    def cycle_speed(self) -> None:
        speed = SPEED_CYCLE[self.params.speed]
        self.params = Params(self.params.seed, True, self.params.lang, speed, self.params.level)
        self.update_url()
        self.render()

    def cycle_level(self) -> None:
        """Change the bots' level from their next move on (the URL keeps it for a reload)."""
        level = LEVEL_CYCLE[self.params.level]
        self.params = Params(self.params.seed, True, self.params.lang, self.params.speed, level)
        seed = self.params.seed
        self.bots = [None] + [Bot(level, seed * 4 + s) for s in (1, 2, 3)]
        self.update_url()
        self.render()

    def update_url(self) -> None:
        try:
            self.window.history.replaceState(None, "", self.params.query())
        except Exception:  # noqa: BLE001 - a sandboxed page may refuse; the game goes on
            pass

    # ------------------------------------------------------------ events

    def on_click(self, event) -> None:
        t0 = self.now()
        try:
            self._on_click(event)
        finally:
            self.record("click", t0, self.now() - t0)

    def _on_click(self, event) -> None:
        try:
            target = event.target
            button = target.closest("button") if hasattr(target, "closest") else None
            if _is_none(button) or button.disabled:
                return
            ui = _attr(button, "data-ui")
            if ui == "lang":
                self.set_lang("en" if self.params.lang == "zh" else "zh")
                return
            if ui == "speed":
                self.cycle_speed()
                return
            if ui == "level":
                self.cycle_level()
                return
            if ui == "offers":
                self.dismissed = False
                self.render()
                return
            if ui == "new-match":
                self.restart()
                return
            action = _attr(button, "data-action")
            if action == "next-hand":
                self.next_hand()
                return
            code = _attr(button, "data-tile")
            if action is None and code is not None:
                self.discard(code)
                return
            if action is None:
                return
            tiles = _attr(button, "data-tiles") or ""
            kind = _attr(button, "data-kind")
            for b in view.buttons(self.state()):
                if b.action == action and b.data_tiles == tiles and (
                        kind is None or b.engine is None or b.engine.kind == kind):
                    self.press(b)
                    return
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

    def on_key(self, event) -> None:
        try:
            if event.ctrlKey or event.metaKey or event.altKey:
                return
            key = str(event.key).lower()
            if self.match.game.over:
                if key == "n":
                    event.preventDefault()
                    self.next_hand()
                return
            wanted = "esc" if key == "escape" else key
            choices = view.buttons(self.state())
            for b in choices:
                if b.key.lower() == wanted:
                    event.preventDefault()
                    self.press(b)
                    return
            if wanted == "esc":  # Esc also passes when there is nothing to cancel
                for b in choices:
                    if b.action == "pass":
                        self.press(b)
                        return
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

    def fail(self, text: str) -> None:
        """Show an error box (and log it: the browser tests fail on console errors)."""
        self.window.console.error("sxmj: " + text)
        lang = self.params.lang
        box = self.document.getElementById("game-error")
        if not _is_none(box):
            title = view.esc(tr(lang, "error_title"))
            box.innerHTML = (
                f'<div class="game-error__card" role="alert"><h2>{title}</h2>'
                f'<p>{view.esc(tr(lang, "error_note"))}</p><pre>{view.esc(text)}</pre>'
                f'<button type="button" class="act act--primary" onclick="location.reload()">'
                f'{view.esc(tr(lang, "reload"))}</button></div>')
            box.hidden = False


def new_seed() -> int:
    return random.randrange(1, 1_000_000)


def start() -> None:
    """Build the table, start the match and mark the page ready (last)."""
    from pyscript import document, window  # only exists in the browser
    from pyscript.ffi import create_proxy, to_js

    search = str(window.location.search or "")
    params = parse_params(search, fallback_seed=new_seed())
    params = Params(min(params.seed, MAX_SEED), True, params.lang, params.speed, params.level)
    window.sxmjStats = to_js({"botMoves": [], "botThinks": [], "botDraws": [], "tasks": []})
    app = App(document, window, params, to_js)
    document.documentElement.lang = "zh-Hans" if params.lang == "zh" else "en"
    app.update_url()
    app.render()
    click = create_proxy(app.on_click)
    key = create_proxy(app.on_key)
    document.getElementById("table").addEventListener("click", click)
    document.getElementById("result").addEventListener("click", click)
    document.addEventListener("keydown", key)
    _APPS.append((app, click, key))
    overlay = document.getElementById("loading")
    if not _is_none(overlay):
        overlay.remove()
    table = document.getElementById("table")
    table.setAttribute("aria-busy", "false")
    table.setAttribute("aria-label", tr(params.lang, "table"))
    app.kick()
    document.body.dataset.sxmjReady = "1"


_APPS: list = []  # keeps the app and its event proxies alive for the page's lifetime

