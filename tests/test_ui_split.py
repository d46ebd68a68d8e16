"""The table's controller split into parts (issue 14): each part small, none importing the
controller, the input tables covering the markup, and the assembled App playing, saving,
resuming and changing settings on a fake page under CPython (no browser)."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from sxmj.bots import Bot
from sxmj.game import Action
from sxmj.match import Match
from sxmj.record import to_record
from sxmj.ui.params import parse_params
from sxmj.ui.table import app as app_module
from sxmj.ui.table import view
from sxmj.ui.table.bot_loop import BotDriver
from sxmj.ui.table.replay.records import Replay
from sxmj.ui.table.storage.saved import KEY_SAVE, KEY_SETTINGS

UI = Path(__file__).resolve().parent.parent / "sxmj" / "ui"
TABLE = UI / "table"
PARTS = ("app", "decision", "dom", "drawing", "bot_loop", "storage/persistence",
         "replay/records", "regions", "inputs/routes", "settings/sheet")
# the modules that make bots or take their work, each for one job: the bots' loop, the
# assist's adviser, the review, the daily's par
BOT_CALLERS = ("bot_loop.py", "assist.py", "review/reviewer.py", "daily/par.py")

# ------------------------------------------------------------------ a fake page


class JsArray(list):
    """Enough of a JavaScript array for window.sxmjStats."""

    def push(self, value):
        self.append(value)

    @property
    def length(self):
        return len(self)

    def splice(self, start, count):
        del self[start:start + count]


class Element:
    """A DOM element: attributes, markup, dataset; every write is logged on its page."""

    def __init__(self, page: Page, name: str, tag: str = "div", attrs: dict | None = None):
        object.__setattr__(self, "page", page)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "tag", tag)
        object.__setattr__(self, "attrs", dict(attrs or {}))
        object.__setattr__(self, "dataset", Dataset(page, name))
        object.__setattr__(self, "classList", SimpleNamespace(toggle=lambda *a: None))
        self.innerHTML = ""
        self.textContent = ""
        self.hidden = False
        self.disabled = False
        self.open = False

    def __setattr__(self, key, value):
        self.page.writes.append((self.name, key, value))
        object.__setattr__(self, key, value)

    def getAttribute(self, name):
        return self.attrs.get(name)

    def setAttribute(self, name, value):
        self.page.writes.append((self.name, "@" + name, value))
        self.attrs[name] = value

    def removeAttribute(self, name):
        self.page.writes.append((self.name, "-@" + name, None))
        self.attrs.pop(name, None)
        if name.startswith("data-"):  # as the DOM does: the dataset loses its key too
            words = name[5:].split("-")
            self.dataset.__dict__.pop(words[0] + "".join(w.title() for w in words[1:]), None)

    def closest(self, selector):
        if selector == "button" and self.tag == "button":
            return self
        if selector == "[data-why]" and "data-why" in self.attrs:
            return self
        return None

    def focus(self, options=None):
        self.page.document.activeElement = self

    def showModal(self):
        self.open = True

    def close(self):
        self.open = False

    def addEventListener(self, kind, handler):
        self.page.listeners.append((self.name, kind))

    def remove(self):
        pass


class Dataset:
    def __init__(self, page: Page, name: str):
        object.__setattr__(self, "_page", page)
        object.__setattr__(self, "_name", name)

    def __setattr__(self, key, value):
        self._page.writes.append((self._name, "data." + key, value))
        object.__setattr__(self, key, value)


class Storage:
    def __init__(self, page: Page, items: dict[str, str]):
        self.page = page
        self.items = items

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        self.page.writes.append(("localStorage", key, value))
        self.items[key] = value


class Page:
    """``document`` and ``window`` of index.html, as far as the controller uses them."""

    IDS = ("table", "rail", "sheet", "notice", "announce", "why", "game-error", "loading")

    def __init__(self, storage: dict[str, str] | None = None, search: str = ""):
        self.writes: list[tuple] = []
        self.listeners: list[tuple] = []
        self.errors: list[str] = []
        elements = {rid: Element(self, rid) for rid in app_module.STATIC_REGIONS + self.IDS}
        body = Element(self, "body")
        self.document = SimpleNamespace(
            getElementById=elements.get, querySelector=lambda selector: None,
            body=body, documentElement=SimpleNamespace(lang=""), activeElement=None,
            addEventListener=lambda kind, handler: self.listeners.append(("document", kind)))
        self.elements = elements
        self.urls: list[str] = []
        stats = {name: JsArray() for name in ("botMoves", "botThinks", "botDraws", "tasks")}
        self.window = SimpleNamespace(
            localStorage=Storage(self, {} if storage is None else storage),
            sxmjStats=SimpleNamespace(**stats),
            performance=SimpleNamespace(now=lambda: 0.0),
            history=SimpleNamespace(replaceState=lambda s, t, url: self.urls.append(url)),
            location=SimpleNamespace(href="https://example.org/index.html" + search,
                                     search=search),
            console=SimpleNamespace(error=self.errors.append))

    def button(self, **attrs: str) -> Element:
        return Element(self, "button", "button", {k.replace("_", "-"): v
                                                  for k, v in attrs.items()})


class Net:
    """A friends room's transport (``window.sxmjNet``) as a session uses it: what it sends
    is kept, and whether it was closed."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.closed = False

    def send(self, peer: str, text: str) -> bool:
        self.sent.append((str(peer), str(text)))
        return True

    def drop(self, peer: str) -> bool:
        return True

    def close(self) -> None:
        self.closed = True


def event(target: Element | None = None, key: str = "") -> SimpleNamespace:
    return SimpleNamespace(target=target, key=key, ctrlKey=False, metaKey=False, altKey=False,
                           preventDefault=lambda: None)


def make_app(page: Page, search: str) -> app_module.App:
    params = parse_params(search, fallback_seed=1)
    return app_module.App(page.document, page.window, params, search=search)


async def settle(app: app_module.App) -> None:
    """Let the bots' task run until it waits for the player or the hand is over (the end of
    a hand shows for a moment before its result: the fast pace's pause)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        task = app.driver.task
        if task is None or task.done():
            return
        await asyncio.sleep(0)
    raise AssertionError("the bots never stopped")


def click_for(page: Page, action: Action) -> Element:
    """The button the table shows for the player's ``action``."""
    if action.kind == "discard":
        return page.button(data_tile=view.code(action.tile))
    page.app.render()  # the action bar as drawn now: its choices carry their place
    move = next(i for i, b in enumerate(page.app.decision.choices) if b.engine == action)
    assert f'data-move="{move}"' in page.elements["actions"].innerHTML
    b = page.app.decision.choices[move]
    return page.button(data_action=b.action, data_tiles=b.data_tiles, data_move=str(move))


async def play(page: Page, app: app_module.App, hands: int) -> list[str]:
    """Click the first legal choice at each decision for ``hands`` hands."""
    page.app = app
    clicked: list[str] = []
    app.kick()
    for _ in range(hands):
        for _ in range(500):
            await settle(app)
            game = app.match.game
            if game.over:
                break
            legal = game.legal_actions(0)
            shown = {b.engine for b in view.buttons(app.state())}
            choice = next(a for a in legal if a.kind == "discard" or a in shown)
            clicked.append(str(choice))
            app.router.on_click(event(click_for(page, choice)))
        assert app.match.game.over
        app.router.on_click(event(page.button(data_action="next-hand")))
    await settle(app)
    return clicked


# ------------------------------------------------------------------ the split


@pytest.mark.parametrize("path", sorted(UI.rglob("*.py")), ids=lambda p: p.stem)
def test_no_part_imports_the_controller(path):
    """The controller builds its collaborators and hands each what it needs (a module is split
    by seam, not by length: a long module is fine when it is one thing)."""
    if path.stem in ("app", "start"):  # the controller, and the start that builds it
        return
    imported = {node.module for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.ImportFrom) and node.module}
    assert "sxmj.ui.table.app" not in imported


# what a UI module other than the bots' callers may take from sxmj.bots: names and types
BOT_VOCABULARY = {"LEVELS", "Choice", "Policy", "ScriptedTable"}


def test_only_the_bots_callers_call_the_bots():
    for name in PARTS:
        source = (TABLE / f"{name}.py").read_text(encoding="utf-8")
        assert ("from sxmj.bots" in source) == (f"{name}.py" in BOT_CALLERS), name


@pytest.mark.parametrize("path", sorted(UI.rglob("*.py")), ids=lambda p: p.stem)
def test_no_ui_module_but_the_bots_callers_makes_a_bot(path):
    """The friends room's modules and every other part too: a bot plays through the bots'
    loop, the adviser, the reviewer or the daily's par."""
    if str(path.relative_to(TABLE)) in BOT_CALLERS if path.is_relative_to(TABLE) else False:
        return
    taken = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: the UI imports by absolute names"
            module = node.module or ""
            if module == "sxmj.bots" or module.startswith("sxmj.bots."):
                assert module == "sxmj.bots", f"{path.name} imports {module}"
                taken |= {alias.name for alias in node.names}
    assert taken <= BOT_VOCABULARY, f"{path.name} takes {taken - BOT_VOCABULARY} from sxmj.bots"


def test_a_timed_out_person_is_played_by_the_driver():
    game = Match(seed=3).game
    driver = BotDriver(lambda: game, lambda a: None, lambda: None, lambda: "fast",
                       lambda text: None, None)
    driver.seat_bots(("normal", "normal", "normal"), 3)  # deterministic: asked twice
    seats = set()
    while not game.over and not (0 in seats and len(seats) > 1):
        seat = game.to_move()[0]
        seats.add(seat)
        if seat:  # a guest's seat: its bot (the level the host chose) plays
            action = driver.stand_in(game, seat, "hard")
            assert action == driver.choose(game, seat)
        else:  # the host's own seat has no bot: one of the room's level plays
            action = driver.stand_in(game, 0, "hard")
            assert action == Bot("hard").choose(game.observation(0), game.legal_actions(0)).action
        game.apply(action)
    assert 0 in seats and len(seats) > 1


def test_every_control_in_the_markup_has_a_route():
    page = Page()
    app = make_app(page, "?seed=3&speed=fast")
    routed = set(app.router.ui_routes) | set(Replay.STEPS) | {"import"}
    markup = "".join((TABLE / f"{name}.py").read_text(encoding="utf-8")
                     for name in ("comforts", "settings/tabs", "view", "seats", "action_bar",
                                  "result/hand"))
    shown = set(re.findall(r'data-ui="([a-z-]+)"', markup))
    shown |= set(re.findall(r'btn\("([a-z-]+)"', markup))
    assert shown and shown <= routed


# ------------------------------------------------------------------ the assembled table


def test_a_click_carries_its_move_and_builds_no_state_to_find_it(monkeypatch):
    """Every choice the table offers, clicked by its ``data-move``: exactly that action is
    played, and nothing between the click and the press builds the table's state."""
    from sxmj.ui.table import state as state_module

    async def run() -> int:
        page = Page()
        page.app = app = make_app(page, "?seed=7&speed=fast")
        app.kick()
        built = [0]
        real_of = state_module.TableState.of

        def counting(*args, **kw):
            built[0] += 1
            return real_of(*args, **kw)

        monkeypatch.setattr(state_module.TableState, "of", staticmethod(counting))
        pressed = []
        real_press = app.decision.press
        app.decision.press = lambda b: (pressed.append((b.engine, built[0])), real_press(b))
        checked = 0
        for _ in range(400):
            await settle(app)
            game = app.match.game
            if game.over:  # on to the next hand, until enough choices were clicked
                if checked >= 3 or app.match.hand_no >= 6:
                    break
                await asyncio.sleep(0.3)  # the end of the hand shows for a moment
                app.router.on_click(event(page.button(data_action="next-hand")))
                continue
            app.render()
            choices = list(app.decision.choices)
            if not choices:  # only discards: the first legal tile
                tile = next(a.tile for a in game.legal_actions(0) if a.kind == "discard")
                app.router.on_click(event(page.button(data_tile=view.code(tile))))
                continue
            k = len(game.actions) % len(choices)  # a different choice each time
            built[0] = 0
            app.router.on_click(event(page.button(data_action=choices[k].action,
                                                  data_move=str(k))))
            if choices[k].engine is not None:
                assert pressed[-1] == (choices[k].engine, 0)
                checked += 1
        return checked

    assert asyncio.run(run()) >= 3


def test_a_move_from_an_old_drawing_is_not_played():
    page = Page()
    page.app = app = make_app(page, "?seed=7&speed=fast")
    before = list(app.match.game.actions)
    app.decision.choices = [view.Button("chi", "C", "", Action(0, "chi", 0, (0, 1, 2)))]
    app.router.on_click(event(page.button(data_action="chi", data_move="0")))
    app.router.on_click(event(page.button(data_action="chi", data_move="7")))
    assert app.match.game.actions == before and not page.errors


def test_plays_saves_and_resumes_exactly():
    page = Page()
    search = "?seed=11&speed=fast"
    app = make_app(page, search)
    clicked = asyncio.run(play(page, app, hands=2))
    assert clicked and not page.errors
    assert app.match.hand_no == 2
    saved = page.window.localStorage.items[KEY_SAVE]
    assert json.loads(saved)["counted"] == 2
    assert app.persistence.profile.hands == 2
    again = Page(dict(page.window.localStorage.items))
    resumed = make_app(again, search)
    assert resumed.match.game.actions == app.match.game.actions
    assert resumed.persistence.counted == 2 and resumed.persistence.profile.hands == 2
    assert not resumed.persistence.notices


def test_a_corrupt_save_is_a_notice_and_a_new_game():
    page = Page({KEY_SAVE: "{not json"})
    app = make_app(page, "?seed=5&speed=fast")
    assert [p.what for p in app.persistence.notices] == ["save"]
    assert app.match.seed == 5 and app.match.hand_no == 0


def test_settings_from_the_sheet_and_the_keys():
    page = Page()
    app = make_app(page, "?seed=7&speed=fast")
    app.sheet.change("speed", "slow", None)
    assert app.params.speed == "slow" and "speed=slow" in page.urls[-1]
    assert json.loads(page.window.localStorage.items[KEY_SETTINGS])["speed"] == "slow"
    before = app.driver.bots[2]
    app.sheet.change("bot2", "hard", None)
    assert app.settings.bots == ("normal", "hard", "normal")
    assert app.driver.bots[2] is not before and "bots=normal,hard,normal" in page.urls[-1]
    app.sheet.change("speed", "warp", None)  # not a value the form sends: ignored
    assert app.params.speed == "slow"
    assist = app.settings.assist
    app.router.on_key(event(key="A"))
    assert app.settings.assist is not assist
    app.router.on_click(event(page.button(data_ui="lang")))
    assert app.params.lang == "en" and page.document.documentElement.lang == "en"
    app.sheet.change("base_flowers", "10", None)
    assert app.settings.rules.base_flowers == 10 and app.match.options.base_flowers != 10


def test_a_scenario_plays_its_script_and_is_never_saved():
    page = Page()
    app = make_app(page, "?scenario=baotou&speed=fast")
    assert app.session.kind == "scenario" and app.driver.script is app.session.mode
    asyncio.run(settle_after_kick(app))
    assert KEY_SAVE not in page.window.localStorage.items
    assert not page.errors


async def settle_after_kick(app: app_module.App) -> None:
    app.kick()
    await settle(app)


def test_the_driver_stops_when_asked():
    page = Page()
    app = make_app(page, "?seed=9&speed=slow")

    async def run() -> None:
        app.kick()
        await asyncio.sleep(0)
        app.driver.stop()
        await asyncio.sleep(0)

    asyncio.run(run())
    assert app.driver.task is None and isinstance(app.driver, BotDriver)


# ------------------------------------------------------------------ the folders


def _ui_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    found |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
              for a in node.names}
    return {m for m in found if m.startswith("sxmj.ui")}


@pytest.mark.parametrize("folder, forbidden", [
    ("pages", ("sxmj.ui.table",)),  # learn, calc and embed boot without the table's code
    ("", ("sxmj.ui.table", "sxmj.ui.pages")),  # the shared modules serve every page
])
def test_each_folder_imports_only_what_it_may(folder, forbidden):
    paths = sorted((UI / folder).glob("*.py"))
    assert paths
    wrong = [f"{p.relative_to(UI)} imports {m}" for p in paths for m in _ui_imports(p)
             if m.startswith(forbidden)]
    assert not wrong, "\n".join(wrong)


def test_the_folder_check_can_fail(tmp_path):
    bad = tmp_path / "learn.py"
    bad.write_text("from sxmj.ui.table.view import buttons\n", encoding="utf-8")
    assert _ui_imports(bad) == {"sxmj.ui.table.view"}


def test_the_ui_has_the_folders_that_name_its_parts():
    assert {p.name for p in UI.iterdir() if p.is_dir() and p.name != "__pycache__"} == {
        "pages", "table"}
    assert (UI / "table" / "friends" / "__init__.py").exists()
    shared = {p.stem for p in UI.glob("*.py")}
    assert shared == {"__init__", "strings", "i18n", "markup", "params"}


# the table's folders, each one concern (docs/architecture.md, "The UI's folders")
TABLE_FOLDERS = {"daily", "friends", "inputs", "replay", "result", "review", "scenario",
                 "settings", "storage"}
VAGUE = {"common", "driver", "utils", "util", "helpers", "misc", "base"}


def test_the_table_is_in_folders_by_concern_with_no_vague_module():
    folders = {p.name for p in TABLE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == TABLE_FOLDERS
    assert all((TABLE / f / "__init__.py").exists() for f in folders)
    assert len(list(TABLE.glob("*.py"))) <= 20
    vague = [str(p.relative_to(TABLE)) for p in TABLE.rglob("*.py") if p.stem in VAGUE]
    assert not vague, vague


# ------------------------------------------------------------------ one session answers


# the sessions' own files, and the one that chooses among them: only they may tell one
# session from another or name a concrete session class
SESSION_FILES = ("session.py", "ways.py", "daily/session.py", "scenario/session.py",
                 "friends/room_session.py", "friends/host.py", "friends/guest.py")


def session_questions(source: str) -> list[str]:
    """Where ``source`` asks which session it has: ``isinstance`` against a session class,
    a session's kind compared with a name, its ``scenario``, a ``replay``'s ``viewer``
    (watching is a session's to answer), a role or mode, or an import of a concrete session
    class."""
    asked = []
    for node in ast.walk(ast.parse(source)):
        at = f"line {getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "isinstance" and len(node.args) == 2:
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            asked += [f"{at}: isinstance(…, {k.id})" for k in kinds
                      if isinstance(k, ast.Name) and k.id.endswith("Session")]
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) \
                and node.left.attr == "kind" and "session" in ast.unparse(node.left) and any(
                    isinstance(c, ast.Constant) and isinstance(c.value, str)
                    for c in node.comparators):
            asked.append(f"{at}: compares a kind")
        if isinstance(node, ast.Attribute):
            owner = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(
                node.value, "id", "")
            if (owner, node.attr) in (("session", "scenario"), ("replay", "viewer")) \
                    or node.attr in ("role", "friends"):
                asked.append(f"{at}: {owner}.{node.attr}")
        if isinstance(node, ast.ImportFrom):
            asked += [f"{at}: imports {n.name}" for n in node.names
                      if n.name.endswith("Session") and n.name != "Session"]
    return asked


def test_no_table_module_asks_which_session_it_has():
    """Every module of ``ui/table/`` but the sessions' own: the session answers (its
    methods and capabilities), nobody checks its class, kind, lesson or replay."""
    asked = [f"{p.relative_to(TABLE)} {q}" for p in sorted(TABLE.rglob("*.py"))
             if str(p.relative_to(TABLE)) not in SESSION_FILES
             for q in session_questions(p.read_text(encoding="utf-8"))]
    assert not asked, asked


def test_the_session_guard_sees_a_planted_question():
    planted = ("from sxmj.ui.table.friends.host import HostSession\n"
               "def par_known(self, par):\n"
               "    if isinstance(self.session, (WatchSession, DailySession)):\n"
               "        self.session.par_known(par)\n"
               "    if self.session.kind == 'host' or self.session.scenario:\n"
               "        return self.replay.viewer\n")
    assert session_questions(planted) == ["line 1: imports HostSession",
                                          "line 3: isinstance(…, WatchSession)",
                                          "line 3: isinstance(…, DailySession)",
                                          "line 5: compares a kind",
                                          "line 5: session.scenario",
                                          "line 6: replay.viewer"]
    assert session_questions("isinstance(x, Match)\nfrom a import Session\n"
                             "self.viewer\nst.kind\n") == []


def test_the_controller_is_small_and_has_no_mixins():
    tree = ast.parse((TABLE / "app.py").read_text(encoding="utf-8"))
    app = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "App")
    assert app.bases == [] and app.end_lineno - app.lineno + 1 <= 300


def test_each_way_to_play_is_a_session():
    local = make_app(Page(), "?seed=3&speed=fast")
    assert local.session.kind == "local" and local.session.drives_bots
    lesson = make_app(Page(), "?scenario=baotou&speed=fast")
    assert lesson.session.kind == "scenario" and not lesson.session.counts_hands
    assert lesson.session.link_query(lesson.params).startswith("?scenario=baotou")


def test_a_watched_record_pauses_the_session_underneath():
    page = Page()
    app = make_app(page, "?seed=3&speed=fast")
    under = app.session
    app.replay.open(to_record(Match(seed=4)))
    assert app.session.kind == "watch" and not app.session.drives_bots
    before = list(app.match.game.actions)
    legal = app.match.game.legal_actions(0)
    if legal:
        app.act(legal[0])  # the player's choice waits while a record is watched
    app.next_hand()
    assert app.match.game.actions == before

    async def close() -> None:
        app.replay.close()  # the game, which waited, goes on
        app.driver.stop()

    asyncio.run(close())
    assert app.session is under


def test_a_scenario_plays_again_on_next_hand_and_a_new_match_leaves_it():
    page = Page()
    app = make_app(page, "?scenario=baotou&speed=fast")

    async def run() -> None:
        app.kick()
        await settle(app)
        first = app.match
        while not app.match.game.over:
            legal = app.match.game.legal_actions(0)
            if legal:
                app.act(legal[0])
            await settle(app)
        app.next_hand()
        assert app.match is not first and app.session.kind == "scenario"
        assert app.match.hand_no == 0 and not app.match.game.over
        app.driver.stop()
        app.restart(seed=12)
        assert app.session.kind == "local" and app.match.seed == 12
        app.driver.stop()

    asyncio.run(run())
    assert not page.errors
