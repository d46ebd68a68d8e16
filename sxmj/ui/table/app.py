"""The game in the browser: the controller, where the table's parts are put together.

It holds the match and the table's parts, applies the actions a session lets through, and
has the table redrawn (:mod:`sxmj.ui.table.drawing`). How the match is played — against bots,
a lesson, the daily, a friends room's host or guest, or a record watched — is the
:attr:`App.session`'s to answer (:mod:`sxmj.ui.table.session`; which one a visit opens:
:mod:`sxmj.ui.table.ways`): the player's choice goes to ``session.act``.

Each part it builds gets only what it needs and none imports this module: ``dom`` (the page,
its clock, the speaker), ``local_storage`` (the match is saved after every action, resumed on
reload), ``bot_loop`` (the bots and their pace), ``assist`` (the adviser), ``reviewer`` (the
review), ``decision`` (a decision in progress), ``drawing`` (the table's state and its
painting), ``settings_dialog`` (the sheet and the settings), ``records`` (export, import, the
replay) and ``routes`` (which handler a click, a tap or a key reaches).

Contract with ``index.html`` and the tests: when the table is interactive,
:func:`start` sets, last of all, ``document.body.dataset.sxmjReady = "1"``.
``body[data-sxmj-waiting]`` says what the table waits for: ``you`` (a click),
``bots`` or ``result`` (the result panel is open).
"""

from __future__ import annotations

import random
from dataclasses import replace

from sxmj.game import Action, Game
from sxmj.match import Match
from sxmj.record import dumps as record_dumps
from sxmj.record import to_record
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import seat_name, tr
from sxmj.ui.params import Params, Refusal, level_param
from sxmj.ui.table import comforts, regions, view, ways, welcome
from sxmj.ui.table.assist import Adviser
from sxmj.ui.table.bot_loop import BotDriver
from sxmj.ui.table.decision import Decision
from sxmj.ui.table.dom import Clock, Screen, Speaker, is_none, reaches
from sxmj.ui.table.drawing import Drawing
from sxmj.ui.table.inputs.routes import InputRouter
from sxmj.ui.table.overlay import Guard, Overlay
from sxmj.ui.table.replay.records import Records, Replay
from sxmj.ui.table.result.reveal import Ending
from sxmj.ui.table.review.reviewer import Reviewer
from sxmj.ui.table.session import Session
from sxmj.ui.table.settings.sheet import Preferences, SettingsSheet
from sxmj.ui.table.storage.persistence import Persistence
from sxmj.ui.table.storage.saved import Problem, Settings

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
                           lambda: self.session.follows_settings, self.restart,
                           lambda: self.persistence.counted,
                           lambda match, counted: self.restart(kept=(match, counted)),
                           lambda: self.persistence.store(welcome.KEY, welcome.HIDDEN))
        self.router = InputRouter(self, self.records, self.clock)
        self.drawing = Drawing(self, Adviser(self.clock))
        self.reviewer = Reviewer(document, self.clock, self.render, self.fail,  # 复盘
                                 window, to_js)
        self.rail_open = False
        self.first_win = False  # the hand just ended is the player's first win ever
        self.keyboard = False  # the last input was a key (focus follows the game then)
        self.session: Session = ways.plain(self)
        self.door = ways.door(self)  # 加入房间
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

    # ------------------------------------------------------------ match lifecycle

    def boot(self, search: str) -> None:
        """Settings, profile and the match: a scenario, the saved match, or a new one."""
        self.preferences.settings = self.persistence.load_settings(search)
        self.speaker.configure()
        self.persistence.load_profile()
        self.session = ways.opening(self, search)

    def sync_params(self, seed: int | None = None) -> None:
        s = self.settings
        self.params = replace(self.params, seed=self.params.seed if seed is None else seed,
                              seed_given=True, lang=s.lang, speed=s.speed,
                              level=level_param(s.bots))

    def review_hand(self, hand: int) -> None:
        """Hand ``hand`` (from 0) of the match played, watched to its end, then reviewed (a
        daily card's 复盘)."""
        record = to_record(self.played)
        if not 0 <= hand < len(record.get("hands", [])):
            return
        self.replay.open(record, hand)
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

    def room_closed(self) -> None:
        """The room was closed before its match: a plain table again."""
        self.session = ways.plain(self)

    def persist(self) -> None:
        """Save the match (after every action): a reload resumes exactly here."""
        self.session.persist()

    def count_hands(self) -> None:
        """Add the hands finished since the last count to the profile (once each)."""
        if self.session.counts_hands:
            self.persistence.count_hands(self.played)

    # ------------------------------------------------------------ state

    def session_command(self, name: str, value: str = "") -> None:
        """A control of the way to play (the session's: a room's, the daily's)."""
        self.session.command(name, value)

    def link_query(self) -> str:
        """The query that plays this table again (the address bar and the menu's link)."""
        return self.session.link_query(self.params)

    # ------------------------------------------------------------ drawing

    def render(self) -> None:
        """Redraw what changed (and say what the table now waits for)."""
        t0 = self.clock.now()
        st, drawn, waiting = self.drawing.compose()
        self.screen.paint(drawn)
        self.screen.show_waiting(waiting, self.keyboard)
        self.screen.announce(st, waiting)
        if self.sheet.tab is not None:
            self.sheet.render()
        self.clock.record("render", t0, self.clock.now() - t0)

    def state(self) -> view.TableState:
        """Everything the table shows now (:class:`sxmj.ui.table.drawing.Drawing`)."""
        return self.drawing.state()

    def sheet_markup(self, tab: str) -> str:
        """The sheet's markup with ``tab`` open."""
        now = self.match.options if self.session.follows_settings else self.settings.rules
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
        self.params = replace(self.params, seed_given=True, daily="")  # leaving a daily too
        self.replay.drop()
        self.session = ways.plain(self)
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
        if what == "bots" and self.session.follows_settings:
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
        text = self.session.record_text()  # a guest's is its host's record
        self.records.export(self.match, self.session.record_name,
                            record_dumps(self.played) if text is None else text)

    def watch(self) -> None:
        """A record is opened to watch: the session underneath waits (its bots stop)."""
        self.driver.stop()
        ways.watching(self, self.replay)

    def replay_closed(self) -> None:
        """Esc in a replay: the game, which waited, goes on."""
        ways.back_from_watching(self)
        self.notes.fresh = {}
        self.go_on()


def new_seed() -> int:
    """A random seed for a new match (shown in the menu and the address bar)."""
    return random.randrange(1, 1_000_000)
