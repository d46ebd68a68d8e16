"""The regions the controller fills besides :func:`sxmj.ui.table.view.render_all`: what just
happened (speech bubbles, the log), the replay bar, the assist and the coach; and what the
table waits for.

Pure markup, like :mod:`sxmj.ui.table.view` and :mod:`sxmj.ui.table.comforts`;
:class:`TableNotes` keeps
the little that must be remembered between drawings.
"""

from __future__ import annotations

from collections.abc import Callable

from sxmj.scenarios import ScenarioError
from sxmj.table_game import TableGame
from sxmj.ui.i18n import tr
from sxmj.ui.params import Refusal, refusals_html
from sxmj.ui.table import comforts, view
from sxmj.ui.table.assist import AssistInfo
from sxmj.ui.table.scenario.mode import CoachView, ScenarioMode, error_html
from sxmj.ui.table.storage.saved import Problem


class TableNotes:
    """What just happened: a speech bubble per seat (``bubbles``), the log (``log``, the last
    20 lines), and which seats' new melds, flowers and draws animate in (``fresh``)."""

    def __init__(self, lang: Callable[[], str]):
        self.lang = lang
        self.bubbles: dict[int, tuple[str, int]] = {}
        self.serial = 0  # numbers each bubble, so a repeated 碰！ is drawn anew
        self.log: list[str] = []
        self.fresh: dict[str, set[int]] = {}

    def note(self, events: list[dict]) -> None:
        """The events of one action (public ones only: a bot's draw is never named)."""
        self.fresh = view.fresh_events(events)
        bubbles, lines = view.event_notes(events, self.lang())
        for seat, text in bubbles.items():
            self.serial += 1
            self.bubbles[seat] = (text, self.serial)
        self.log.extend(lines)
        del self.log[:-20]

    def say(self, seat: int, text: str) -> None:
        """A bubble at ``seat`` that no event made (a friend's quick phrase)."""
        self.serial += 1
        self.bubbles[seat] = (text, self.serial)

    def regions(self) -> dict[str, str]:
        """The bubbles' and the log's markup (the last three lines are shown)."""
        out = {f"callout-{seat}": view.callout_html(seat, text, n)
               for seat, (text, n) in self.bubbles.items()}
        out["log"] = "".join(f"<p>{view.esc(line)}</p>" for line in self.log[-3:])
        return out


def waiting_for(game: TableGame, viewing: bool, people: frozenset[int] = frozenset({0})) -> str:
    """What the table waits for (``body[data-sxmj-waiting]``): ``viewer``, ``result``,
    ``you`` or ``bots``. ``you`` once the player must decide and nobody but ``people`` (the
    seats of people: in a friends room the others decide at their own tables meanwhile)."""
    if viewing:
        return "viewer"
    if game.over:
        return "result"
    if 0 in game.to_move() and all(s in people for s in game.to_move()):
        return "you"
    return "bots"


def notice_html(problems: list[Problem], refused: tuple[Refusal, ...], lang: str,
                no_storage: str | None = None) -> str:
    """The notice at the start: that nothing can be kept here (``no_storage``: the link to
    the full game, "" for none), stored data that could not be used, then the URL parameters
    that were not (under the first one's OK, which closes them all); empty when all was used."""
    first = comforts.no_storage_html(no_storage, lang) if no_storage is not None else ""
    stored = comforts.notice_html(problems, lang) if problems else ""
    return first + stored + refusals_html(refused, lang, button=not (first or stored))


def assist_regions(info: AssistInfo | None, st: view.TableState, on: bool,
                   rail_open: bool) -> dict[str, str]:
    """The assist in the rail and its one line in the player's row."""
    return {"assist": comforts.assist_html(info, st, on),
            "assist-mini": comforts.assist_mini_html(info, st, on, rail_open)}


def comfort_regions(st: view.TableState, info: AssistInfo | None, assist: bool,
                    rail_open: bool, coach: str) -> dict[str, str]:
    """The replay bar, the assist (``info``, None when off) and the coach (a lesson's, else
    the way to play's banner); a replay (``st.viewer``) has neither assist nor coach. The
    replay bar takes the action bar's place (nobody acts in a replay), where it covers
    nothing of the table; at a hand's end it is the result's footer instead
    (``st.viewer_bar``, drawn by the result)."""
    out = {"viewer": ""}
    if st.viewer:
        if st.result is None:
            out["actions"] = st.viewer_bar
        out["assist"] = out["assist-mini"] = ""
    else:
        out.update(assist_regions(info, st, assist, rail_open))
    out["coach"] = coach or st.banner
    return out


def lesson_missing_html(name: str, lang: str) -> str:
    """Why the lesson asked for (``?scenario=NAME``) could not be played."""
    return error_html(ScenarioError(name), name, lang)


def scenario_done_html(mode: ScenarioMode, coach: CoachView, lang: str) -> str:
    """The top of a scenario's result: goal reached or not, and where to find more."""
    sc = mode.scenario
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
