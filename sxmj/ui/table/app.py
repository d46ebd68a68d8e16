"""The game in the browser: the controller, where the table's parts are put together.

It owns the :class:`~sxmj.match.Match`, asks the engine for ``legal_actions`` and redraws the
table with :func:`sxmj.ui.table.view.render_all`. How the match is played — here against bots,
a scenario, a friends room's host or guest, or a record watched — is the :attr:`App.session`'s
to answer (:mod:`sxmj.ui.table.session`): the player's choice goes to ``session.act``.

Each part it builds gets only what it needs and none imports this module: ``dom`` (the page,
its clock, the speaker), ``local_storage`` (the match is saved after every action, resumed on
reload), ``driver`` (the bots, their pace, the assist's adviser, the review), ``decision`` (a
decision in progress), ``settings_dialog`` (the sheet and the settings), ``records`` (export,
import, replay), ``regions`` (the extra regions' markup), ``scenario_table`` (the scenario
played, ``?scenario=``) and ``routes`` (which handler a click, a tap or a key reaches).

Contract with ``index.html`` and the tests: when the table is interactive,
:func:`start` sets, last of all, ``document.body.dataset.sxmjReady = "1"``.
``body[data-sxmj-waiting]`` says what the table waits for: ``you`` (a click),
``bots`` or ``result`` (the result panel is open).
"""

from __future__ import annotations

import random

from sxmj.game import Action, Game
from sxmj.match import Match
from sxmj.record import dumps as record_dumps
from sxmj.record import to_record
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import seat_name, tr
from sxmj.ui.params import Params, Refusal, level_param
from sxmj.ui.table import comforts, regions, view, welcome
from sxmj.ui.table.assist import AssistInfo, ghosts
from sxmj.ui.table.daily import open_daily, today_link
from sxmj.ui.table.decision import Decision
from sxmj.ui.table.dom import Clock, Screen, Speaker, is_none, reaches
from sxmj.ui.table.driver import Adviser, BotDriver, Reviewer
from sxmj.ui.table.friends.guest import GuestSession
from sxmj.ui.table.friends.host import HostSession
from sxmj.ui.table.friends.lobby import chat_html, read_hash
from sxmj.ui.table.local_storage import Persistence
from sxmj.ui.table.match_summary import ends
from sxmj.ui.table.overlay import Guard, Overlay
from sxmj.ui.table.records import Records, Replay, Viewer
from sxmj.ui.table.reveal import Ending, reveal_html
from sxmj.ui.table.routes import InputRouter
from sxmj.ui.table.saved import Problem, Settings
from sxmj.ui.table.scenario_table import ScenarioTable
from sxmj.ui.table.session import (
    LocalSession,
    ScenarioSession,
    Session,
    unwatched,
    watched,
)
from sxmj.ui.table.settings_dialog import Preferences, SettingsSheet

STATIC_REGIONS = ("menu", "seat-1", "seat-2", "seat-3", "panel", "me-plate",
                  "me-melds", "hand", "actions", "result", "river-bottom", "river-right",
                  "river-top", "river-left", "log",
                  "callout-0", "callout-1", "callout-2", "callout-3",
                  "assist", "assist-mini", "coach", "viewer", "chat")


class App:
    """One table in one page."""

    match: TableMatch  # the match on the table (a friends room guest's: the hand as it sees it)

    def __init__(self, document, window, params: Params, to_js=lambda value: value,
                 search: str = ""):
        self.document = document
        self.window = window
        self.params = params
        self.clock = Clock(window, to_js)
        self.screen = Screen(document, window, to_js, STATIC_REGIONS)
        self.speaker = Speaker(document, window, lambda: self.settings)
        self.persistence = Persistence(window, self.clock)
        self.preferences = Preferences(document, self.persistence.save_settings,
                                       self.settings_changed)
        self.ending = Ending(lambda: self.render())
        self.driver = BotDriver(lambda: self.played.game, self.apply, self.render,
                                lambda: self.params.speed, self.fail, self.clock,
                                lambda: self.ending.wait(self.params.speed))
        self.decision = Decision(lambda: self.match.game, self.act, self.render, self.state,
                                 self.screen.focus)
        self.replay = Replay(self.watch, lambda: self.sheet.close(), self.render,
                             self.replay_closed)
        self.records = Records(document, window, to_js, lambda: self.params.lang,
                               lambda: self.match.seed, lambda: self.sheet.render(),
                               self.replay.open, self.fail)
        self.sheet = SettingsSheet(document, self.screen, self.sheet_markup, self.preferences,
                                   self.records.import_file, self.records.clear_status,
                                   self.fail)
        self.notes = regions.TableNotes(lambda: self.params.lang)
        self.overlay = Overlay(document, lambda kind: self.go_on())
        self.driver.held = lambda: self.overlay.is_open
        self.guard = Guard(self.overlay, lambda: self.params.lang, lambda: self.played,
                           lambda: self.session.scenario is not None, self.restart,
                           lambda: self.persistence.counted,
                           lambda match, counted: self.restart(kept=(match, counted)),
                           lambda: self.persistence.store(welcome.KEY, welcome.HIDDEN))
        self.router = InputRouter(self, self.records, self.clock)
        self.adviser = Adviser(self.clock)
        self.reviewer = Reviewer(document, self.clock, self.render, self.fail,  # 复盘
                                 window, to_js)
        self.scenario = ScenarioTable(self)
        self.rail_open = False
        self.first_win = False  # the hand just ended is the player's first win ever
        self.keyboard = False  # the last input was a key (focus follows the game then)
        self.session: Session = self.local_session()
        self.driver.humans = lambda: set(self.session.people())
        self.room_refused: tuple[Refusal, ...] = ()  # a #host= link whose room is gone
        self.link_record: dict | None = None  # a daily's shared link: the match to watch
        self.boot(search)

    @property
    def settings(self) -> Settings:
        """The player's settings in force."""
        return self.preferences.settings

    @property
    def played(self) -> Match:
        """The match this table plays (every session's but a guest's, whose host plays it)."""
        assert isinstance(self.match, Match), "a guest's table applies nothing: its host does"
        return self.match

    @property
    def viewer(self) -> Viewer | None:
        """The imported record being watched (None while playing)."""
        return self.replay.viewer

    @property
    def shown(self) -> TableMatch:
        """The match on the table: the replayed one while a record is watched."""
        return self.viewer.match if self.viewer is not None else self.match

    # ------------------------------------------------------------ match lifecycle

    def boot(self, search: str) -> None:
        """Settings, profile and the match: a scenario, the saved match, or a new one."""
        self.preferences.settings = self.persistence.load_settings(search)
        self.speaker.configure()
        self.persistence.load_profile()
        room = read_hash(str(getattr(self.window.location, "hash", "") or ""))
        if room is not None and room[0] == "guest":
            self.match = Match(seed=self.params.seed)  # drawn behind the room until the deal
            guest = GuestSession(self)
            self.session = guest
            guest.join(room[1], room[2])
            return
        if room is not None:  # a reload of the host: the room goes on if this browser has it
            host = HostSession(self)
            if host.resume_host(room[1]):
                self.session = host
                return
            self.room_refused = host.refused
        if self.params.daily:
            opened = open_daily(self, self.open_room, self.params.daily, self.persistence,
                                self.params.lang)
            self.room_refused += opened.refused
            self.link_record = opened.watch
            if opened.session is not None:
                self.session = opened.session
                return
            p = self.params  # a day after today: a plain table, the refusal shown
            self.params = Params(p.seed, False, p.lang, p.speed, p.level, refused=p.refused)
        if self.scenario.boot(search):
            mode = self.scenario.mode
            assert mode is not None
            self.session = ScenarioSession(self, self.open_room, mode, self.scenario.restart,
                                           self.scenario.show)
            return
        loaded = self.persistence.load_match()
        seed_wanted = self.params.seed_given and (
            loaded.match is None or loaded.match.seed != self.params.seed)
        seed_wanted |= self.params.hands is not None and loaded.match is not None and (
            loaded.match.length != self.params.hands)
        if loaded.match is not None and not seed_wanted:
            self.resume(loaded.match, loaded.counted)
        else:
            self.start_match(self.params.seed)

    def sync_params(self, seed: int | None = None) -> None:
        s = self.settings
        self.params = Params(self.params.seed if seed is None else seed, True, s.lang, s.speed,
                             level_param(s.bots), hands=self.params.hands,
                             broker=self.params.broker, ice=self.params.ice,
                             daily=self.params.daily)

    def review_hand(self, hand: int) -> None:
        """Hand ``hand`` (from 0) of the match played, watched to its end, then reviewed (a
        daily card's 复盘)."""
        record = to_record(self.played)
        if not 0 <= hand < len(record.get("hands", [])):
            return
        self.replay.open(record)
        viewer = self.viewer
        assert viewer is not None
        self.replay.go(max(k for k, (i, _) in enumerate(viewer.positions) if i == hand))
        self.router.review()

    def bot_move(self, game: Game, seat: int) -> Action:
        """What the bot at ``seat`` plays now (a daily's bot answering before the player)."""
        return self.driver.choose(game, seat)

    def note(self, problem: Problem) -> None:
        """A notice for the page: something kept on this device could not be used."""
        self.persistence.notices.append(problem)

    def start_match(self, seed: int) -> None:
        """A new match of ``seed`` with the settings' rules and bots (saved at once)."""
        self.sync_params(seed)
        self.play_match(Match(seed=seed, options=self.params.rules(self.settings.rules)),
                        self.settings.bots)
        self.persist()

    def resume(self, match: Match, counted: int) -> None:
        """Go on with the saved match (``counted`` hands already in the profile)."""
        self.play_match(match, self.settings.bots, heard=False)
        self.persistence.counted = counted
        self.notes.log.append(tr(self.params.lang, "resumed"))
        self.count_hands()

    def play_match(self, match: Match, levels: tuple[str, str, str], heard: bool = True) -> None:
        """Put ``match`` on the table with bots of ``levels``, none of its hands counted."""
        self.sync_params(match.seed)
        self.match = match
        self.driver.seat_bots(levels, self.params.seed)
        self.persistence.counted = 0
        self.new_hand_state(heard=heard)

    def new_hand_state(self, heard: bool = True) -> None:
        """A hand was dealt: forget the last one's decision and bubbles, note (and sound) it."""
        self.driver.thinking = None
        self.decision.reset()
        self.ending.reset()
        self.first_win = False
        self.notes.bubbles = {}
        game = self.match.game
        self.notes.note(game.deal_events)
        self.speaker.dealt(game, heard)
        self.notes.log.append(tr(self.params.lang, "log_new_hand", n=self.match.hand_no + 1,
                                 name=seat_name(game.dealer, self.params.lang)))

    def local_session(self) -> LocalSession:
        """You against the bots at this table (saved here, counted in your profile)."""
        return LocalSession(self, self.open_room, self.persistence, self.show_extras)

    def open_room(self) -> None:
        """和朋友玩: this table becomes a friends room's host."""
        host = HostSession(self)
        self.session = host
        host.create()

    def room_closed(self) -> None:
        """The room was closed before its match: a plain table again."""
        self.session = self.local_session()

    def persist(self) -> None:
        """Save the match (after every action): a reload resumes exactly here."""
        self.session.persist()

    def count_hands(self) -> None:
        """Add the hands finished since the last count to the profile (once each)."""
        if self.session.counts_hands:
            self.persistence.count_hands(self.played)

    # ------------------------------------------------------------ state

    def state(self) -> view.TableState:
        """Everything the table shows now (the replayed match while a record is watched)."""
        lang = self.params.lang
        viewing = self.viewer is not None
        d = self.decision
        st = view.TableState.of(
            self.shown, lang=lang, speed=self.params.speed,
            level=self.params.level if "," not in self.params.level else "mixed",
            thinking=None if viewing else self.driver.thinking,
            held=not viewing and self.driver.held(),
            confirm_piao=d.confirm_piao and not viewing,
            dismissed=d.dismissed, link=self.link_query(), fresh=self.notes.fresh,
            pick=d.pick, viewer=viewing, menu_rules=comforts.rules_chip(  # the next rules too
                self.match.options, None if self.session.scenario else self.params.rules(
                    self.settings.rules), lang),
            menu_extra=comforts.menu_chips(
                self.persistence.profile.rank if self.persistence.kept else None, lang),
            preview="" if viewing else d.preview(lang, self.settings.assist),
            first_win=self.first_win and not viewing,
            match_over=self.match.finished and not viewing and self.session.scenario is None,
            names=self.session.names(), daily_link=today_link(self.window, lang),
            welcome_open=self.overlay.kind == "welcome")
        review = self.reviewer.html(self.replay.review_key(self.match),  # 复盘
                                    lang) if self.session.reviews else ""
        if viewing:
            st.legal, st.result_after = [], review
            st.viewer_bar = regions.viewer_html(self.viewer, lang)
            return st
        st.ghosts = ghosts(st.obs, st.legal, lang)
        self.session.show(st, lang)  # the assist and the rank, or a scenario's coach
        st.result_after = reveal_html(st) + review + st.result_after
        st.choices = view.buttons(st)  # drawn, and what a click on one of them presses
        return st

    def session_command(self, name: str, value: str = "") -> None:
        """A control of the way to play (the session's: a room's, the daily's)."""
        self.session.command(name, value)

    def show_extras(self, st: view.TableState, lang: str) -> None:
        """What a match of yours shows beside the table: the assist's suggestion, the rank
        line and the match summary."""
        if self.settings.assist:
            info = self.assist_now()
            st.suggest = info.suggest if info is not None else None
        ends(st, self.match, self.persistence.profile, ranked=self.persistence.kept)

    def assist_now(self) -> AssistInfo | None:
        """The assist for the live game (worked out once per state)."""
        return self.adviser.advise(self.match.game, self.params.lang, self.session.scenario)

    def link_query(self) -> str:
        """The query that plays this table again (the address bar and the menu's link)."""
        return self.session.link_query(self.params)

    # ------------------------------------------------------------ drawing

    def render(self) -> None:
        """Redraw what changed (and say what the table now waits for)."""
        t0 = self.clock.now()
        self._render()
        self.clock.record("render", t0, self.clock.now() - t0)

    def _render(self) -> None:
        st = self.state()
        self.notes.fresh = {}  # what just arrived animates in this drawing only
        drawn = view.render_all(st)
        self.decision.drawn(st)  # a click on a choice presses one of these
        drawn.update(self.notes.regions())
        drawn.update(self.comfort_regions(st))
        drawn["chat"] = chat_html(self.params.lang) if self.session.names() else ""
        self.ending.place(st, drawn)  # the call, or the bar back to the result
        self.screen.paint(drawn)
        self.document.body.dataset.sxmjSession = self.session.kind
        waiting = self.ending.waiting(regions.waiting_for(self.shown.game, self.viewer
                                                          is not None, self.session.people()))
        self.screen.show_waiting(waiting, self.keyboard)
        self.screen.announce(st, waiting)
        if self.sheet.tab is not None:
            self.sheet.render()

    def comfort_regions(self, st: view.TableState) -> dict[str, str]:
        """The replay bar, the assist and the coach."""
        mode = self.session.scenario
        on = self.viewer is None and (self.settings.assist or mode is not None)
        return regions.comfort_regions(st, self.viewer, self.assist_now() if on else None,
                                       self.settings.assist, self.rail_open, mode,
                                       self.match.game, self.scenario.error)

    def sheet_markup(self, tab: str) -> str:
        """The sheet's markup with ``tab`` open."""
        now = self.match.options if self.session.scenario is None else self.settings.rules
        broker = self.settings.broker
        return comforts.sheet_markup(tab, self.settings, now, self.persistence.profile,
                                   self.records, self.params.lang,
                                   bool(broker) and not reaches(self.window, broker))

    def fail(self, text: str) -> None:
        """Show an error box (and log it: the browser tests fail on console errors)."""
        self.screen.fail(text, self.params.lang)

    # ------------------------------------------------------------ playing

    def apply(self, action: Action) -> None:
        """Apply a legal action (the player's or a bot's), then count and save."""
        events = self.played.apply(action)
        self.session.applied(events)
        self.decision.pick = None
        self.notes.note(events)
        self.speaker.hear(events, self.match.game, people=self.session.people())
        if self.match.game.over:
            wins = self.persistence.profile.wins
            self.count_hands()
            result = self.match.game.result
            self.first_win = (self.session.counts_hands and wins == 0 and result is not None
                              and result.winner == 0 and self.persistence.profile.wins == 1)
            if self.first_win:  # celebrated: a fanfare, and the call and the result say so
                self.speaker.celebrate()
            self.ending.start()  # the table shows the end before the result panel
        self.persist()

    def go_on(self) -> None:
        """Redraw, then let the bots go on (after anything that moves the game)."""
        self.render()
        self.kick()

    def kick(self) -> None:
        """Let the bots move (in a task) until the player must decide or the hand ends."""
        if self.session.drives_bots:
            self.driver.kick()

    def act(self, action: Action | None) -> None:
        """The player's choice goes to the session, which checks it and plays it (each way
        to play checks a move where it leaves the table: here, the room's referee, or the
        host's; the engine checks it again as it applies it)."""
        if action is None:
            return
        self.decision.settle()
        self.session.act(action)

    def next_hand(self) -> None:
        """下一局 once the hand is over: the session deals (or asks for) the next."""
        if self.match.game.over:
            self.session.next_hand()

    def new_match(self) -> None:
        """新比赛 (menu, sheet, result): asks first, or after a finished match starts at once
        with an undo (:class:`sxmj.ui.table.overlay.Guard`); the settings as they are now."""
        self.sheet.close()
        if not self.session.in_room:  # a room's match ends with the room
            self.guard.ask()

    def restart(self, seed: int | None = None, kept: tuple[Match, int] | None = None) -> None:
        """A new match (leaving a scenario, a daily or a replay), with the current settings;
        or with ``kept`` (a match and its counted hands) back to the one a new match
        replaced."""
        self.driver.stop()
        self.session.leave()
        self.params = Params(self.params.seed, True, self.params.lang, self.params.speed,
                             self.params.level, hands=self.params.hands,
                             broker=self.params.broker, ice=self.params.ice)
        self.replay.viewer = None
        self.scenario.leave()
        self.session = self.local_session()
        self.notes.log = []
        if kept is not None:
            self.resume(*kept)
            self.persist()
        else:
            self.start_match(seed if seed is not None else new_seed())
        self.update_url()
        self.go_on()

    # ------------------------------------------------------------ settings, sheet, replay

    def settings_changed(self, what: str) -> None:
        """A setting was changed and kept: apply it (a rule waits for the next match)."""
        self.sync_params()
        if what in ("anim", "sound"):  # body[data-sxmj-anim], or the speaker: no redraw
            self.speaker.configure()
            return
        if what == "bots" and self.session.scenario is None:
            self.driver.seat_bots(self.settings.bots, self.params.seed)
        if what in ("lang", "speed", "bots"):
            self.update_url()  # the link keeps them for a reload
        self.render()

    def update_url(self) -> None:
        """Write the table's query into the address bar (a reload plays it again)."""
        try:
            fragment = str(getattr(self.window.location, "hash", "") or "")
            self.window.history.replaceState(None, "", self.link_query()
                                             + (fragment if self.session.in_room else ""))
        except Exception:  # noqa: BLE001 - a sandboxed page may refuse; the game goes on
            pass

    def toggle_rail(self) -> None:
        """The assist's one line opens (or closes) the assist on a narrow screen."""
        self.rail_open = not self.rail_open
        rail = self.document.getElementById("rail")
        if not is_none(rail):
            rail.classList.toggle("is-open", self.rail_open)
        self.render()

    def export_record(self) -> None:
        """Download the match as a JSON record."""
        mode = self.session.scenario
        text = self.session.record_text()  # a guest's is its host's record
        self.records.export(self.match, None if mode is None else mode.name,
                            record_dumps(self.played) if text is None else text)

    def watch(self) -> None:
        """A record is opened to watch: the session underneath waits (its bots stop)."""
        self.driver.stop()
        self.session = watched(self.session)

    def replay_closed(self) -> None:
        """Esc in a replay: the game, which waited, goes on."""
        self.session = unwatched(self.session)
        self.notes.fresh = {}
        self.go_on()


def new_seed() -> int:
    """A random seed for a new match (shown in the menu and the address bar)."""
    return random.randrange(1, 1_000_000)
