"""Scenario mode of the game page, ``index.html?scenario=NAME``: the logic the controller needs.

Pure (no DOM): the table's controller (:mod:`sxmj.ui.table.app`) asks this module what to do
and draws the answers. Wiring, in the controller:

1. ``mode = from_search(location.search)`` — None without ``?scenario=``; an unknown name
   raises :class:`~sxmj.scenarios.ScenarioError` (show :func:`error_html`).
2. ``match = mode.start()`` instead of ``Match(seed)``: the scripted deal, seat 0 is you.
3. For a bot seat, ``mode.bot_action(game, seat)`` instead of the bot's choice (the
   scenario's script, else: throw the drawn tile, pass on claims), so it plays the same
   way every time.
4. After every render, ``mode.coach_html(game, lang)`` into the coach region, and
   ``body[data-sxmj-scenario=NAME]``. The coach line says what is happening and what to
   do; ``data-suggest`` is the suggested action (``0 discard 2z``, only when legal now) and
   ``data-suggest-tile`` its tile, for highlighting it in the hand. It is a hint, never
   forced: a move off the script is noticed (``data-state="off"``) and the coach offers a
   restart.
5. When the hand is over, ``mode.outcome(game)`` says whether the goal was reached (shown
   by ``coach_html`` too); "next hand" should restart the scenario (``mode.start()``).

Testing contract: ``[data-testid="coach"]`` with ``data-scenario``, ``data-state``
(``play``, ``off``, ``success``, ``failed``, ``over``), ``data-step``/``data-steps`` and
``data-suggest``.

>>> mode = from_search("?scenario=baotou&lang=en")
>>> game = mode.start().game
>>> view = mode.coach(game, "en")
>>> str(view.suggest), view.step, view.steps
('0 discard 2z', 1, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

from sxmj.actions import Phase
from sxmj.bots import ScriptedTable
from sxmj.game import Action, Game
from sxmj.match import Match
from sxmj.scenarios import BUILTIN, Scenario, ScenarioError, builtin
from sxmj.scoring import PATTERNS
from sxmj.tiles import code
from sxmj.ui.i18n import tile_label, tiles_words, tr
from sxmj.ui.markup import esc, tile_of

PARAM = "scenario"


def scenario_name(search: str) -> str | None:
    """The ``?scenario=`` value, or None when the page is a plain game."""
    for name, value in parse_qsl(search.lstrip("?"), keep_blank_values=True):
        if name == PARAM:
            return value.strip()
    return None


def from_search(search: str) -> ScenarioMode | None:
    """The scenario of ``?scenario=NAME``; None without it; ScenarioError for a bad name."""
    name = scenario_name(search)
    if name is None:
        return None
    return ScenarioMode(builtin(name))


@dataclass
class CoachView:
    """What the coach shows now."""

    text: str
    suggest: Action | None  # legal for seat 0 right now, else None
    hint: str  # the suggestion in words ("" without one)
    step: int  # 1-based index of the current coaching line (0: none yet)
    steps: int
    state: str  # play, off, success, failed, over
    outcome: str = ""


@dataclass
class Outcome:
    success: bool | None  # None: the scenario has no goal to check (a lesson)
    text_zh: str
    text_en: str


@dataclass
class ScenarioMode:
    scenario: Scenario
    _off: dict[tuple[int, int], bool] = field(default_factory=dict, repr=False)
    _table: ScriptedTable | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.scenario.name

    def start(self) -> Match:
        self._table = None  # a fresh deal: the script starts over
        return self.scenario.start()

    def bot_action(self, game: Game, seat: int) -> Action:
        """What the script plays at ``seat`` (the table's bots, for tests and tools)."""
        if self._table is None:
            self._table = ScriptedTable(self.scenario.script, [str(a) for a in game.actions])
        return self._table.action(game, seat)

    def restart_query(self, lang: str = "zh") -> str:
        items = [(PARAM, self.name)] + ([("lang", lang)] if lang != "zh" else [])
        return "?" + urlencode(items)

    def query(self, lang: str, speed: str) -> str:
        """The query that plays the scenario again (the address bar, the menu's link)."""
        items = [(PARAM, self.name)] + ([("lang", lang)] if lang != "zh" else []) + (
            [("speed", speed)] if speed != "normal" else [])
        return "?" + urlencode(items)

    # ------------------------------------------------------------ coaching

    def coach(self, game: Game, lang: str) -> CoachView:
        sc = self.scenario
        line = sc.coaching(game)
        step = sc.coach.index(line) + 1 if line is not None else 0
        text = "" if line is None else (line.zh if lang == "zh" else line.en)
        suggest = None
        if line is not None and line.suggest and not game.over:
            action = Action.parse(line.suggest)
            if action in game.legal_actions(0):
                suggest = action
        hint = tr(lang, "coach_hint", what=describe(suggest, game, lang)) if suggest else ""
        if game.over:
            out = self.outcome(game)
            state = ("over" if out.success is None else "success" if out.success
                     else "failed")
            text_out = out.text_zh if lang == "zh" else out.text_en
            return CoachView(text, None, "", step, len(sc.coach), state, text_out)
        state = "off" if self.off_script(game) else "play"
        return CoachView(text, suggest, hint, step, len(sc.coach), state)

    def off_script(self, game: Game) -> bool:
        """True once the player made a move other than a suggestion that was legal then."""
        key = (id(game), len(game.actions))
        if key in self._off:
            return self._off[key]
        replay = self.scenario.start().game
        off = False
        for action in game.actions:
            if action.seat == 0:
                line = self.scenario.coaching(replay)
                if line is not None and line.suggest:
                    wanted = Action.parse(line.suggest)
                    if wanted in replay.legal_actions(0) and wanted != action:
                        off = True
                        break
            replay.apply(action)
        self._off[key] = off
        return off

    def outcome(self, game: Game) -> Outcome:
        """Whether the finished hand met the scenario's ``expect``."""
        r = game.result
        expect = self.scenario.expect
        if r is None:
            what_zh, what_en = "", ""
        elif r.winner is None:
            what_zh, what_en = tr("zh", "coach_nobody"), tr("en", "coach_nobody")
        elif r.winner == 0:
            what_zh = tr("zh", "coach_won", patterns=_patterns(r.patterns, "zh"))
            what_en = tr("en", "coach_won", patterns=_patterns(r.patterns, "en"))
        else:
            what_zh = tr("zh", "coach_other_won", name=tr("zh", f"name_{r.winner}"))
            what_en = tr("en", "coach_other_won", name=tr("en", f"name_{r.winner}"))
        if not expect:
            return Outcome(None, tr("zh", "coach_over") + what_zh,
                           f'{tr("en", "coach_over")} {what_en}')
        success = r is not None and r.winner == expect.get("winner") and \
            r.patterns == expect.get("patterns", r.patterns) and \
            r.payments == expect.get("payments", r.payments) and \
            r.robbed == expect.get("robbed", r.robbed)
        key = "coach_success" if success else "coach_failed"
        return Outcome(success, tr("zh", key, what=what_zh), tr("en", key, what=what_en))

    # ------------------------------------------------------------ markup

    def coach_html(self, game: Game, lang: str) -> str:
        """The coach panel (``[data-testid="coach"]``), one string of escaped markup."""
        view = self.coach(game, lang)
        sc = self.scenario
        title = sc.title["zh" if lang == "zh" else "en"]
        suggest = str(view.suggest) if view.suggest else ""
        tile_attr = ""
        if view.suggest is not None and view.suggest.tile is not None:
            tile_attr = f' data-suggest-tile="{code(view.suggest.tile)}"'
        parts = [f'<p class="coach__head"><b>{esc(tr(lang, "coach"))}</b> '
                 f'<span class="coach__title">{esc(title)}</span>'
                 f'<span class="coach__step">{view.step}/{view.steps}</span></p>']
        if view.text:
            parts.append(f'<p class="coach__text">{esc(view.text)}</p>')
        if view.hint:
            parts.append(f'<p class="coach__hint">{esc(view.hint)}</p>')
        restart = (f'<a class="coach__restart" href="./index.html{esc(self.restart_query(lang))}">'
                   f'{esc(tr(lang, "coach_restart"))}</a>')
        if view.state == "off":
            parts.append(f'<p class="coach__warn">{esc(tr(lang, "coach_off"))} {restart}</p>')
        if view.outcome:
            parts.append(f'<p class="coach__outcome">{esc(view.outcome)}</p>'
                         f'<p class="coach__links">{restart} · <a href="./learn.html#scenarios">'
                         f'{esc(tr(lang, "scenario_more"))}</a></p>')
        return (f'<aside class="coach coach--{view.state}" data-testid="coach" '
                f'data-scenario="{esc(self.name)}" data-state="{view.state}" '
                f'data-step="{view.step}" data-steps="{view.steps}" '
                f'data-suggest="{esc(suggest)}"{tile_attr} aria-live="polite">'
                f'{"".join(parts)}</aside>')


def describe(action: Action | None, game: Game, lang: str) -> str:
    """A suggested action in words: 打出南风 / Discard South Wind (南风)."""
    if action is None:
        return ""
    if action.kind == "discard":
        return tr(lang, "discard_tile", tile=tile_label(tile_of(action), lang))
    if action.kind == "hu":
        return tr(lang, "act_qianggang" if game.phase == Phase.ROB else "act_zimo")
    if action.kind == "chi":
        return f'{tr(lang, "act_chi")} {tiles_words(action.tiles, lang)}'
    if action.kind == "pass":
        return tr(lang, "act_pass")
    return f'{tr(lang, "act_" + action.kind)} {tile_label(tile_of(action), lang)}'


def _patterns(ids: list[str], lang: str) -> str:
    if not ids:
        return tr(lang, "coach_won_plain")
    names = [PATTERNS[p][0] if lang == "zh" else f"{PATTERNS[p][0]} {PATTERNS[p][1]}"
             for p in ids]
    return ("、" if lang == "zh" else ", ").join(names)


def error_html(err: ScenarioError, name: str, lang: str) -> str:
    """An unknown ``?scenario=`` name, in both languages, with the known names."""
    names = ", ".join(BUILTIN)
    first = (tr("zh", "coach_unknown", name=name), tr("zh", "coach_known", names=names))
    second = (tr("en", "coach_unknown", name=name), tr("en", "coach_known", names=names))
    if lang != "zh":
        first, second = second, first
    return (f'<aside class="coach coach--failed" data-testid="coach" data-state="error" '
            f'role="alert"><p class="coach__text">{esc(first[0])} {esc(first[1])}</p>'
            f'<p class="coach__text" lang="{"en" if lang == "zh" else "zh-Hans"}">'
            f"{esc(second[0])} {esc(second[1])}</p></aside>")
