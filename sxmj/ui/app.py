"""The game in the browser: the controller (the only module that touches the DOM).

It owns the :class:`~sxmj.match.Match`, asks the engine for ``legal_actions``,
lets the bots choose from their own observation only, and redraws the table
with :func:`sxmj.ui.view.render_all` — one ``innerHTML`` per region that
changed. Bots move from an asyncio task that sleeps between moves (a
``setTimeout`` under Pyodide), so clicks and keys are handled between them.

The player comforts live here too (their logic and markup are pure modules):
the assist (:mod:`sxmj.ui.assist`), settings, the profile and the saved match in
``localStorage`` (:mod:`sxmj.ui.store`: the match is saved after every action and
resumed on reload), the sheet with settings, profile, records and keys, the replay
viewer and the notice (:mod:`sxmj.ui.panels`), and the scenario mode of
``?scenario=NAME`` (:mod:`sxmj.ui.scenario_mode`).

Contract with ``index.html`` and the tests: when the table is interactive,
:func:`start` sets, last of all, ``document.body.dataset.sxmjReady = "1"``.
``body[data-sxmj-waiting]`` says what the table waits for: ``you`` (a click),
``bots`` or ``result`` (the result panel is open).
"""

from __future__ import annotations

import asyncio
import random
import traceback
from dataclasses import dataclass, replace
from urllib.parse import parse_qs, urlencode

from ..bots import Bot
from ..game import Action
from ..match import Match
from ..ranks import rank_of
from ..record import dumps as record_dumps
from ..record import replay
from ..rules import Options
from ..scenarios import ScenarioError
from ..tiles import tile as tile_of
from . import panels, view
from .assist import AssistInfo, assist_info, ghosts
from .i18n import LANGS, seat_name, tr
from .params import MAX_SEED, Params, is_whole, level_param, parse_params
from .scenario_mode import ScenarioMode, error_html, from_search, scenario_name
from .store import (
    KEY_PROFILE,
    KEY_SAVE,
    KEY_SETTINGS,
    LEVELS,
    SPEEDS,
    Problem,
    Settings,
    load_profile,
    load_save,
    load_settings,
    read_record,
    save_text,
)

DELAYS = {"slow": 1.1, "normal": 0.6, "fast": 0.0}  # a bot's thinking time, seconds
CLAIM_PAUSE = 0.5  # share of the delay a claim stays on screen before the claimer moves
SPEED_CYCLE = {"slow": "normal", "normal": "fast", "fast": "slow"}
LEVEL_CYCLE = {"easy": "normal", "normal": "hard", "hard": "easy"}
ASSIST_LEVEL = "hard"  # the bot whose choice on the player's own observation is suggested
WHY_SECONDS = 6.0  # how long a tapped explanation stays up
STATIC_REGIONS = ("menu", "seat-1", "seat-2", "seat-3", "panel", "me-plate",
                  "me-melds", "hand", "actions", "result", "river-bottom", "river-right",
                  "river-top", "river-left", "log",
                  "callout-0", "callout-1", "callout-2", "callout-3",
                  "assist", "assist-mini", "coach", "viewer")


def _attr(element, name: str) -> str | None:
    """An attribute's text, or None (JavaScript's null and undefined alike)."""
    value = element.getAttribute(name)
    return value if isinstance(value, str) else None


def _is_none(value) -> bool:
    return value is None or not hasattr(value, "getAttribute")


@dataclass
class Viewer:
    """An imported record being watched: position ``step`` of ``steps`` (hand ``i``,
    ``j`` actions into it; the end of each hand is a position of its own)."""

    record: dict
    positions: list[tuple[int, int]]
    step: int
    match: Match
    last: str = ""

    @staticmethod
    def open(record: dict) -> Viewer:
        hands = record.get("hands", [])
        positions = [(i, j) for i, h in enumerate(hands) for j in range(len(h) + 1)]
        v = Viewer(record, positions or [(0, 0)], 0, replay(dict(record, hands=[[]],
                                                                 results=[])))
        return v

    @property
    def steps(self) -> int:
        return len(self.positions) - 1

    def go(self, step: int) -> None:
        step = max(0, min(self.steps, step))
        if step == self.step:
            return
        hands = self.record["hands"]
        i, j = self.positions[step]
        if step == self.step + 1:  # forward one: apply it (or deal the next hand)
            if j == 0:
                self.match.next_hand()
                self.last = ""
            else:
                text = hands[i][j - 1]
                self.match.apply(Action.parse(text))
                self.last = text
        else:  # anything else: replay from the start up to there
            cut = [list(h) for h in hands[:i]] + [list(hands[i][:j])]
            self.match = replay(dict(self.record, hands=cut, results=[]))
            self.last = hands[i][j - 1] if j else ""
        self.step = step


class App:
    """One table in one page."""

    def __init__(self, document, window, params: Params, to_js=lambda value: value,
                 search: str = ""):
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
        self.storage = self._storage()
        self.notices: list[Problem] = []
        self.mode: ScenarioMode | None = None
        self.scenario_error: str | None = None
        self.viewer: Viewer | None = None
        self.sheet_tab: str | None = None
        self.records_status = ""
        self.rail_open = False
        self.pick: int | None = None
        self.keyboard = False  # the last input was a key (focus follows the game then)
        self.announced = ""
        self.why_gen = 0
        self.assist_key: tuple | None = None
        self.assist: AssistInfo | None = None
        self.assist_bot = Bot(ASSIST_LEVEL)
        self.counted = 0
        self.boot(search)

    # ------------------------------------------------------------ storage

    def _storage(self):
        try:
            storage = self.window.localStorage
            return None if storage is None else storage
        except Exception:  # noqa: BLE001 - storage may be disabled: play without it
            return None

    def load(self, key: str) -> str | None:
        if self.storage is None:
            return None
        try:
            value = self.storage.getItem(key)
        except Exception:  # noqa: BLE001
            return None
        return value if isinstance(value, str) else None

    def store(self, key: str, value: str) -> None:
        if self.storage is None:
            return
        try:
            self.storage.setItem(key, value)
        except Exception:  # noqa: BLE001 - full or refused: the game goes on unsaved
            pass

    # ------------------------------------------------------------ match lifecycle

    def boot(self, search: str) -> None:
        """Settings, profile and the match: a scenario, the saved match, or a new one."""
        settings, problem = load_settings(self.load(KEY_SETTINGS))
        if problem is not None:
            self.notices.append(problem)
        self.settings = self._url_overrides(settings, search)
        self.store(KEY_SETTINGS, self.settings.to_json())
        self.profile, problem = load_profile(self.load(KEY_PROFILE))
        if problem is not None:
            self.notices.append(problem)
        name = scenario_name(search)
        if name is not None:
            try:
                self.mode = from_search(search)
            except ScenarioError:
                self.scenario_error = name
        if self.mode is not None:
            self.start_scenario()
            return
        loaded = load_save(self.load(KEY_SAVE))
        if loaded.problem is not None:
            self.notices.append(loaded.problem)
        seed_wanted = self.params.seed_given and (
            loaded.match is None or loaded.match.seed != self.params.seed)
        if loaded.match is not None and not seed_wanted:
            self.resume(loaded.match, loaded.counted)
        else:
            self.start_match(self.params.seed)

    def _url_overrides(self, s: Settings, search: str) -> Settings:
        """Parameters given in the URL win over the stored settings (and are kept)."""
        q = parse_qs(search.lstrip("?"))

        def given(name: str) -> str:
            values = q.get(name)
            return values[-1].strip().lower() if values else ""

        if given("lang") in LANGS:
            s = replace(s, lang=given("lang"))
        if given("speed") in SPEEDS:
            s = replace(s, speed=given("speed"))
        if given("bots"):
            parsed = parse_params("?bots=" + given("bots"))
            if given("bots") in LEVELS or "," in parsed.level:
                s = replace(s, bots=parsed.levels)
        return s

    def _sync_params(self, seed: int | None = None) -> None:
        s = self.settings
        self.params = Params(self.params.seed if seed is None else seed, True, s.lang, s.speed,
                             level_param(s.bots))

    def _make_bots(self) -> None:
        seed = self.params.seed
        self.bots = [None] + [Bot(self.settings.bots[s - 1], seed * 4 + s) for s in (1, 2, 3)]

    def start_match(self, seed: int) -> None:
        self._sync_params(seed)
        self.match = Match(seed=seed, options=self.settings.rules)
        self._make_bots()
        self.counted = 0
        self.new_hand_state()
        self.persist()

    def resume(self, match: Match, counted: int) -> None:
        self._sync_params(match.seed)
        self.match = match
        self._make_bots()
        self.counted = counted
        self.new_hand_state()
        self.log.append(tr(self.params.lang, "resumed"))
        self.count_hands()

    def start_scenario(self) -> None:
        self._sync_params(0)
        self.match = self.mode.start()
        self.bots = [None, None, None, None]
        self.new_hand_state()

    def new_hand_state(self) -> None:
        self.thinking: int | None = None
        self.confirm_piao = False
        self.dismissed = False
        self.pick = None
        self.bubbles: dict[int, tuple[str, int]] = {}
        game = self.match.game
        self.note(game.deal_events)
        self.log.append(tr(self.params.lang, "log_new_hand", n=self.match.hand_no + 1,
                           name=seat_name(game.dealer, self.params.lang)))

    def persist(self) -> None:
        """Save the match (after every action): a reload resumes exactly here."""
        if self.mode is not None:
            return  # a scenario is a lesson: it starts over, and never replaces your match
        t0 = self.now()
        self.store(KEY_SAVE, save_text(self.match, self.counted))
        self.record("save", t0, self.now() - t0)

    def count_hands(self) -> None:
        """Add the hands finished since the last count to the profile (once each)."""
        if self.mode is not None:
            return
        done = len(self.match.results)
        if done <= self.counted:
            return
        for i in range(self.counted, done):
            self.profile.add_hand(self.match, i)
        self.counted = done
        self.store(KEY_PROFILE, self.profile.to_json())

    # ------------------------------------------------------------ state

    @property
    def shown(self) -> Match:
        return self.viewer.match if self.viewer is not None else self.match

    def state(self) -> view.TableState:
        lang = self.params.lang
        viewing = self.viewer is not None
        st = view.TableState.of(
            self.shown, lang=lang, speed=self.params.speed,
            level=self.params.level if "," not in self.params.level else "mixed",
            thinking=None if viewing else self.thinking,
            confirm_piao=self.confirm_piao and not viewing,
            dismissed=self.dismissed, link=self.link_query(), fresh=self.fresh,
            pick=self.pick, viewer=viewing, menu_extra=self.menu_extra(lang))
        if viewing:
            st.legal = []
            return st
        st.ghosts = ghosts(st.obs, st.legal, lang)
        if self.mode is not None:
            coach = self.mode.coach(self.match.game, lang)
            st.suggest = coach.suggest
            if self.match.game.over:
                st.again_label = tr(lang, "scenario_again")
                st.result_top = self.scenario_top(coach)
        else:
            if self.settings.assist:
                info = self.assist_now()
                st.suggest = info.suggest if info is not None else None
            if self.match.game.over and self.match.results:
                gain = self.match.results[-1].payments[0]
                before = rank_of(self.profile.points - gain if gain > 0 else
                                 self.profile.points)
                up = self.profile.rank.level > before.level
                st.result_after = panels.rank_line(self.profile, gain, up, lang)
        return st

    def assist_now(self) -> AssistInfo | None:
        """The assist for the live game (worked out once per state)."""
        game = self.match.game
        key = (id(game), len(game.actions), self.params.lang, self.mode is None)
        if key != self.assist_key:
            t0 = self.now()
            if self.mode is None:
                self.assist = assist_info(game, self.assist_bot, self.params.lang)
            else:  # a scenario: the coach suggests, the assist only reads the hand
                suggest = self.mode.coach(game, self.params.lang).suggest
                self.assist = assist_info(game, None, self.params.lang, suggest)
            self.assist_key = key
            self.record("assist", t0, self.now() - t0)
        return self.assist

    def scenario_top(self, coach) -> str:
        lang = self.params.lang
        sc = self.mode.scenario
        title = sc.title["zh" if lang == "zh" else "en"]
        goal = sc.goal["zh" if lang == "zh" else "en"]
        return (f'<section class="result__scenario scenario-done scenario-done--{coach.state}" '
                f'data-testid="scenario-done" data-state="{coach.state}">'
                f'<p class="scenario-done__k">{view.esc(tr(lang, "scenario_done"))} · '
                f'{view.esc(title)}</p>'
                f'<p class="scenario-done__outcome">{view.esc(coach.outcome)}</p>'
                f'<p class="scenario-done__goal">{view.esc(tr(lang, "scenario_goal", goal=goal))}'
                f'</p><p class="scenario-done__links"><a href="./learn.html#scenarios">'
                f'{view.esc(tr(lang, "scenario_more"))}</a></p></section>')

    def link_query(self) -> str:
        if self.mode is not None:
            items = [("scenario", self.mode.name)]
            if self.params.lang != "zh":
                items.append(("lang", self.params.lang))
            if self.params.speed != "normal":
                items.append(("speed", self.params.speed))
            return "?" + urlencode(items)
        return self.params.query()

    def seed_link(self) -> str:
        """An absolute link that deals this match's seed."""
        base = str(self.window.location.href).split("?")[0].split("#")[0]
        query = "?" + urlencode([("seed", self.match.seed)] + (
            [("lang", self.params.lang)] if self.params.lang != "zh" else []))
        return base + query

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
        regions.update(self.comfort_regions(st))
        for rid, html in regions.items():
            if self.cache.get(rid) != html:
                element = self.elements.get(rid)
                if _is_none(element):
                    continue
                self.cache[rid] = html
                element.innerHTML = html
        game = self.shown.game
        if self.viewer is not None:
            waiting = "viewer"
        elif game.over:
            waiting = "result"
        elif 0 in game.to_move() and not any(s for s in game.to_move() if s != 0):
            waiting = "you"
        else:
            waiting = "bots"
        if waiting != self.waiting:
            self.waiting = waiting
            self.document.body.dataset.sxmjWaiting = waiting
            if waiting == "result":  # keyboard users land on "next hand"
                self.focus('[data-action="next-hand"]')
            elif waiting == "you" and self.keyboard:
                self.focus("#actions button[data-action]") or self.focus(
                    "#hand button[data-suggested]") or self.focus("#hand button:not([disabled])")
        self.announce(st, waiting)
        if self.sheet_tab is not None:
            self.render_sheet()

    def comfort_regions(self, st: view.TableState) -> dict[str, str]:
        lang = self.params.lang
        out: dict[str, str] = {}
        if self.viewer is not None:
            v = self.viewer
            last = panels.action_words(Action.parse(v.last), lang) if v.last else ""
            out["viewer"] = panels.viewer_html(v.step, v.steps, v.match.hand_no + 1, last, lang)
        else:
            out["viewer"] = ""
        info = None
        if self.viewer is None and (self.settings.assist or self.mode is not None):
            info = self.assist_now()
        if self.viewer is None:
            out["assist"] = panels.assist_html(info, st, self.settings.assist)
            out["assist-mini"] = panels.assist_mini_html(info, st, self.settings.assist,
                                                         self.rail_open)
        else:  # a replay: no assist
            out["assist"] = out["assist-mini"] = ""
        if self.mode is not None and self.viewer is None:
            out["coach"] = self.mode.coach_html(self.match.game, lang)
        elif self.scenario_error is not None:
            out["coach"] = error_html(ScenarioError(self.scenario_error), self.scenario_error,
                                      lang)
        else:
            out["coach"] = ""
        return out

    def menu_extra(self, lang: str) -> str:
        pending = None if self.mode is not None else self.settings.rules
        return (panels.rules_chip(self.match.options, pending, lang) +
                panels.menu_chips(self.profile.rank, lang))

    def focus(self, selector: str) -> bool:
        element = self.document.querySelector(selector)
        if _is_none(element):
            return False
        element.focus(self.to_js({"preventScroll": True}))
        return True

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
            if not _is_none(box):
                box.textContent = text

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
        self.pick = None
        self.note(events)
        if self.match.game.over:
            self.count_hands()
        self.persist()

    def bot_action(self, game, seat: int) -> Action:
        if self.mode is not None:
            return self.mode.bot_action(game, seat)
        return self.bots[seat].choose(game.observation(seat), game.legal_actions(seat)).action

    def kick(self) -> None:
        """Let the bots move (in a task) until the player must decide or the hand ends."""
        if self.viewer is not None:
            return
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
            action = self.bot_action(game, seat)
            t1 = self.now()
            await asyncio.sleep(0)
            if gen != self.gen or self.match.game is not game \
                    or action not in game.legal_actions(seat):
                continue  # the player acted meanwhile: look again
            t2 = self.now()
            self.thinking = None
            self.apply(action)
            self.render()
            t3 = self.now()
            self.record("bot", t0, t1 - t0, t3 - t2)
            claimed = action.kind not in ("pass", "discard")
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
        if self.viewer is not None or action is None or action not in game.legal_actions(0):
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
        if self.viewer is not None or not self.match.game.over:
            return
        if self.mode is not None:  # a scenario's "next hand" plays it again
            self.restart_scenario()
            return
        self.match.next_hand()
        self.new_hand_state()
        self.persist()
        self.render()
        self.kick()

    def stop_bots(self) -> None:
        self.gen += 1
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    def restart(self, seed: int | None = None) -> None:
        """A new match (leaving a scenario or a replay), with the current settings."""
        self.stop_bots()
        self.viewer = None
        if self.mode is not None:
            self.document.body.removeAttribute("data-sxmj-scenario")
        self.mode = None
        self.scenario_error = None
        self.log = []
        self.start_match(seed if seed is not None else new_seed())
        self.update_url()
        self.render()
        self.kick()

    def restart_scenario(self) -> None:
        self.stop_bots()
        self.log = []
        self.start_scenario()
        self.render()
        self.kick()

    # ------------------------------------------------------------ settings

    def save_settings(self, settings: Settings) -> None:
        self.settings = settings
        self.store(KEY_SETTINGS, settings.to_json())
        self._sync_params()

    def set_lang(self, lang: str) -> None:
        self.save_settings(replace(self.settings, lang=lang))
        self.document.documentElement.lang = "zh-Hans" if lang == "zh" else "en"
        self.document.getElementById("table").setAttribute(
            "aria-label", tr(lang, "table"))
        self.update_url()
        self.render()

    def cycle_speed(self) -> None:
        self.set_speed(SPEED_CYCLE[self.params.speed])

    def set_speed(self, speed: str) -> None:
        self.save_settings(replace(self.settings, speed=speed))
        self.update_url()
        self.render()

    def cycle_level(self) -> None:
        """Change the bots' level from their next move on (the URL keeps it for a reload)."""
        current = self.settings.bots[0] if len(set(self.settings.bots)) == 1 else "hard"
        self.set_levels((LEVEL_CYCLE[current],) * 3)

    def set_levels(self, levels: tuple[str, str, str]) -> None:
        self.save_settings(replace(self.settings, bots=levels))
        if self.mode is None:
            self._make_bots()
        self.update_url()
        self.render()

    def set_anim(self, anim: str) -> None:
        self.save_settings(replace(self.settings, anim=anim))
        self.document.body.dataset.sxmjAnim = anim

    def toggle_assist(self) -> None:
        self.save_settings(replace(self.settings, assist=not self.settings.assist))
        self.render()

    def set_rule(self, name: str, value) -> None:
        rules = self.settings.rules.to_dict()
        rules[name] = value
        try:
            options = Options.from_dict(rules)
        except ValueError:
            return
        self.save_settings(replace(self.settings, rules=options))
        self.render()

    def update_url(self) -> None:
        try:
            self.window.history.replaceState(None, "", self.link_query())
        except Exception:  # noqa: BLE001 - a sandboxed page may refuse; the game goes on
            pass

    # ------------------------------------------------------------ the sheet

    def sheet(self):
        return self.document.getElementById("sheet")

    def open_sheet(self, tab: str) -> None:
        self.sheet_tab = tab
        self.records_status = ""
        self.render_sheet()
        dialog = self.sheet()
        if not _is_none(dialog) and not dialog.open:
            dialog.showModal()
            tab_button = self.document.querySelector(f'#sheet [data-tab="{tab}"]')
            if not _is_none(tab_button):
                tab_button.focus()

    def render_sheet(self) -> None:
        tab = self.sheet_tab
        if tab is None:
            return
        lang = self.params.lang
        if tab == "settings":
            now = self.match.options if self.mode is None else self.settings.rules
            body = panels.settings_html(self.settings, now, lang)
        elif tab == "profile":
            body = panels.profile_html(self.profile, lang)
        elif tab == "records":
            body = panels.records_html(self.seed_link(), self.records_status, lang)
        else:
            body = panels.keys_html(lang)
        html = panels.sheet_html(tab, body, lang)
        if self.cache.get("sheet") != html:
            self.cache["sheet"] = html
            dialog = self.sheet()
            if not _is_none(dialog):
                focused = self.document.activeElement
                keep = _attr(focused, "data-setting") if not _is_none(focused) else None
                dialog.innerHTML = html
                if keep:  # a changed setting redraws the sheet: keep the focus on it
                    self.focus(f'#sheet [data-setting="{keep}"]')

    def close_sheet(self) -> None:
        dialog = self.sheet()
        if not _is_none(dialog) and dialog.open:
            dialog.close()
        self.sheet_closed()

    def sheet_closed(self, event=None) -> None:
        self.sheet_tab = None
        self.cache.pop("sheet", None)

    def on_change(self, event) -> None:
        try:
            target = event.target
            name = _attr(target, "data-setting")
            if _attr(target, "data-ui") == "import":
                files = target.files
                if files is not None and files.length:
                    asyncio.ensure_future(self.import_file(files.item(0)))
                return
            if name is None:
                return
            value = str(target.value)
            checked = bool(target.checked) if str(target.type) == "checkbox" else None
            if name == "lang" and value in LANGS:
                self.set_lang(value)
            elif name == "speed" and value in SPEEDS:
                self.set_speed(value)
            elif name == "anim":
                self.set_anim(value)
            elif name == "assist":
                if checked != self.settings.assist:
                    self.toggle_assist()
            elif name in ("bot1", "bot2", "bot3") and value in LEVELS:
                levels = list(self.settings.bots)
                levels[int(name[-1]) - 1] = value
                self.set_levels((levels[0], levels[1], levels[2]))
            elif name in panels.RULE_FLAGS:
                self.set_rule(name, bool(checked))
            elif name in ("base_flowers", "fan_cap", "reserved_tiles") and is_whole(value):
                self.set_rule(name, int(value))
            self.render_sheet()
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

    # ------------------------------------------------------------ records

    def export_record(self) -> None:
        text = record_dumps(self.match)
        name = f"sxmj-seed{self.match.seed}-hand{self.match.hand_no + 1}.json"
        if self.mode is not None:
            name = f"sxmj-scenario-{self.mode.name}.json"
        blob = self.window.Blob.new(self.to_js([text]), self.to_js({"type": "application/json"}))
        url = self.window.URL.createObjectURL(blob)
        link = self.document.createElement("a")
        link.href = url
        link.download = name
        self.document.body.append(link)
        link.click()
        link.remove()
        self.records_status = tr(self.params.lang, "rec_exported", name=name)
        self.render_sheet()

    async def import_file(self, file) -> None:
        try:
            text = str(await file.text())
            record, problem = read_record(text)
            if record is None:
                self.records_status = tr(self.params.lang, "rec_bad", why=problem)
                self.render_sheet()
                return
            self.open_viewer(record)
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

    async def copy_link(self) -> None:
        link = self.seed_link()
        try:
            await self.window.navigator.clipboard.writeText(link)
            self.records_status = tr(self.params.lang, "rec_copied")
        except Exception:  # noqa: BLE001 - no permission or no focus: try the old way
            copied = False
            box = self.document.querySelector('[data-testid="seed-link"]')
            if not _is_none(box):
                box.focus()
                box.select()  # left selected for copying by hand if this fails too
                try:
                    copied = bool(self.document.execCommand("copy"))
                except Exception:  # noqa: BLE001
                    copied = False
            self.records_status = tr(self.params.lang,
                                     "rec_copied" if copied else "rec_copy_failed")
        self.render_sheet()

    def open_viewer(self, record: dict) -> None:
        self.stop_bots()
        self.viewer = Viewer.open(record)
        self.close_sheet()
        self.render()

    def viewer_go(self, step: int) -> None:
        if self.viewer is None:
            return
        self.viewer.go(step)
        self.render()

    def close_viewer(self) -> None:
        if self.viewer is None:
            return
        self.viewer = None
        self.fresh = {}
        self.render()
        self.kick()

    # ------------------------------------------------------------ explanations

    def show_why(self, text: str) -> None:
        """A tapped disabled tile or button says why (never only on hover)."""
        box = self.document.getElementById("why")
        if _is_none(box) or not text:
            return
        box.textContent = text
        self.why_gen += 1
        asyncio.ensure_future(self._hide_why(self.why_gen))

    async def _hide_why(self, gen: int) -> None:
        await asyncio.sleep(WHY_SECONDS)
        if gen == self.why_gen:
            box = self.document.getElementById("why")
            if not _is_none(box):
                box.textContent = ""

    def on_pointer(self, event) -> None:
        """Pointer up on a disabled tile (a click never reaches a disabled button)."""
        try:
            self.keyboard = False
            target = event.target
            if not hasattr(target, "closest"):
                return
            element = target.closest("[data-why]")
            if _is_none(element) or not element.disabled:
                return
            self.show_why(_attr(element, "data-why") or "")
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

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
            if not _is_none(target) and _attr(target, "id") == "sheet":
                self.close_sheet()  # a click on the backdrop
                return
            button = target.closest("button") if hasattr(target, "closest") else None
            if _is_none(button) or button.disabled:
                return
            why = _attr(button, "data-why")
            if why is not None and _attr(button, "aria-disabled") == "true":
                self.show_why(why)
                return
            tab = _attr(button, "data-tab")
            if tab is not None:
                self.sheet_tab = tab
                self.records_status = ""
                self.render_sheet()
                self.focus(f'#sheet [data-tab="{tab}"]')
                return
            ui = _attr(button, "data-ui")
            if ui is not None and self.ui(ui):
                return
            if self.viewer is not None:
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

    def ui(self, ui: str) -> bool:
        """A menu, sheet, assist or viewer control; True when handled."""
        if ui == "lang":
            self.set_lang("en" if self.params.lang == "zh" else "zh")
        elif ui == "speed":
            self.cycle_speed()
        elif ui == "level":
            self.cycle_level()
        elif ui == "offers":
            self.dismissed = False
            self.render()
        elif ui == "new-match":
            self.close_sheet()
            self.restart()
        elif ui in ("settings", "rules"):
            self.open_sheet("settings")
        elif ui == "profile":
            self.open_sheet("profile")
        elif ui == "help":
            self.open_sheet("keys")
        elif ui == "close":
            self.close_sheet()
        elif ui == "assist":
            self.toggle_assist()
        elif ui == "assist-open":
            self.rail_open = not self.rail_open
            rail = self.document.getElementById("rail")
            if not _is_none(rail):
                rail.classList.toggle("is-open", self.rail_open)
            self.render()
        elif ui == "rules-reset":
            self.save_settings(replace(self.settings, rules=Options()))
            self.render()
        elif ui == "export":
            self.export_record()
        elif ui == "copy-link":
            asyncio.ensure_future(self.copy_link())
        elif ui == "notice-ok":
            box = self.document.getElementById("notice")
            if not _is_none(box):
                box.hidden = True
        elif ui == "step-first" and self.viewer is not None:
            self.viewer_go(0)
        elif ui == "step-back" and self.viewer is not None:
            self.viewer_go(self.viewer.step - 1)
        elif ui == "step-fwd" and self.viewer is not None:
            self.viewer_go(self.viewer.step + 1)
        elif ui == "step-last" and self.viewer is not None:
            self.viewer_go(self.viewer.steps)
        elif ui == "viewer-close":
            self.close_viewer()
        else:
            return False
        return True

    def on_key(self, event) -> None:
        try:
            self.keyboard = True
            if event.ctrlKey or event.metaKey or event.altKey:
                return
            key = str(event.key)
            low = key.lower()
            dialog = self.sheet()
            if not _is_none(dialog) and dialog.open:
                return  # the sheet handles its own keys (Esc closes it)
            if self.viewer is not None:
                self.viewer_key(event, key)
                return
            if key == "?":
                event.preventDefault()
                self.open_sheet("keys")
                return
            if low == "a":
                event.preventDefault()
                self.toggle_assist()
                return
            if self.match.game.over:
                if low == "n":
                    event.preventDefault()
                    self.next_hand()
                return
            if key in ("ArrowLeft", "ArrowRight"):
                if self.move_pick(-1 if key == "ArrowLeft" else 1):
                    event.preventDefault()
                return
            if key == "Enter" and self.pick is not None:
                st = self.state()
                order = view.hand_order(st)
                if self.pick < len(order):
                    event.preventDefault()
                    self.discard(view.code(order[self.pick]))
                return
            wanted = "esc" if low == "escape" else low
            st = self.state()
            choices = view.buttons(st)
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
            for g in st.ghosts:  # the key of an action the rules don't allow: say why
                if view.GHOST_KEYS.get(g.action, "").lower() == wanted:
                    event.preventDefault()
                    self.show_why(g.why)
                    return
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

    def viewer_key(self, event, key: str) -> None:
        v = self.viewer
        steps = {"ArrowLeft": v.step - 1, "ArrowRight": v.step + 1, "Home": 0,
                 "End": v.steps}
        if key in steps:
            event.preventDefault()
            self.viewer_go(steps[key])
        elif key == "Escape":
            event.preventDefault()
            self.close_viewer()

    def move_pick(self, step: int) -> bool:
        """←/→: choose the next discardable tile (raised, focused); Enter discards it."""
        st = self.state()
        order = view.hand_order(st)
        legal = {a.tile for a in st.legal if a.kind == "discard"}
        enabled = [i for i, t in enumerate(order) if t in legal]
        if not enabled:
            return False
        if self.pick in enabled:
            at = enabled.index(self.pick) + step
            self.pick = enabled[at % len(enabled)]
        else:
            self.pick = enabled[-1] if step < 0 else enabled[0]
        self.render()
        self.focus(f"#hand > button:nth-child({self.pick + 1})")
        return True

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
    params = Params(min(params.seed, MAX_SEED), params.seed_given, params.lang, params.speed,
                    params.level)
    window.sxmjStats = to_js({"botMoves": [], "botThinks": [], "botDraws": [], "tasks": []})
    app = App(document, window, params, to_js, search)
    document.documentElement.lang = "zh-Hans" if app.params.lang == "zh" else "en"
    document.body.dataset.sxmjAnim = app.settings.anim
    if app.mode is not None:
        document.body.dataset.sxmjScenario = app.mode.name
    app.update_url()
    app.render()
    if app.notices:
        box = document.getElementById("notice")
        if not _is_none(box):
            box.innerHTML = panels.notice_html(app.notices, app.params.lang)
            box.hidden = False
    click = create_proxy(app.on_click)
    key = create_proxy(app.on_key)
    pointer = create_proxy(app.on_pointer)
    change = create_proxy(app.on_change)
    closed = create_proxy(app.sheet_closed)
    for rid in ("table", "result", "sheet", "viewer", "notice"):
        element = document.getElementById(rid)
        if not _is_none(element):
            element.addEventListener("click", click)
    document.getElementById("table").addEventListener("pointerup", pointer)
    sheet = document.getElementById("sheet")
    if not _is_none(sheet):
        sheet.addEventListener("change", change)
        sheet.addEventListener("close", closed)
    document.addEventListener("keydown", key)
    _APPS.append((app, click, key, pointer, change, closed))
    overlay = document.getElementById("loading")
    if not _is_none(overlay):
        overlay.remove()
    table = document.getElementById("table")
    table.setAttribute("aria-busy", "false")
    table.setAttribute("aria-label", tr(app.params.lang, "table"))
    app.kick()
    document.body.dataset.sxmjReady = "1"


_APPS: list = []  # keeps the app and its event proxies alive for the page's lifetime
