"""Records: export the match, import a record to watch step by step, copy the seed's link.

:class:`Viewer` is an imported record being replayed (pure: a :class:`~sxmj.match.Match` moved
forward and back); :class:`Records` is the sheet's 记录 Records tab and its status line.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from sxmj.game import Action
from sxmj.match import Match
from sxmj.record import replay, to_record
from sxmj.table_game import TableMatch
from sxmj.ui.i18n import tr
from sxmj.ui.table import comforts
from sxmj.ui.table.dom import is_none
from sxmj.ui.table.storage.saved import read_record


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
        """The record at its start (the first hand dealt, nothing played)."""
        hands = record.get("hands", [])
        positions = [(i, j) for i, h in enumerate(hands) for j in range(len(h) + 1)]
        v = Viewer(record, positions or [(0, 0)], 0, replay(_cut(record, [[]])))
        return v

    @property
    def steps(self) -> int:
        """The last position (the record's end)."""
        return len(self.positions) - 1

    def hand_end(self, hand: int) -> int:
        """The position where hand ``hand`` (from 0) ends and its result shows."""
        return max(k for k, (i, _) in enumerate(self.positions) if i == hand)

    def go(self, step: int) -> None:
        """Move to position ``step`` (clamped to the record)."""
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
            self.match = replay(_cut(self.record, cut))
            self.last = hands[i][j - 1] if j else ""
        self.step = step


@dataclass(eq=False)
class Records:
    """The 记录 Records tab: what it does, and ``status``, the line that says how it went.

    Given the page, the language (``lang``) and the match's ``seed``, ``redraw`` for the
    sheet, ``watch`` to replay an imported record and ``fail`` for an error.
    """

    document: Any
    window: Any
    to_js: Callable
    lang: Callable[[], str]
    seed: Callable[[], int]
    redraw: Callable[[], None]
    watch: Callable[[dict], None]
    fail: Callable[[str], None]
    status: str = field(default="", init=False)

    def clear_status(self) -> None:
        """A tab of the sheet opens: the last status line is gone."""
        self.status = ""

    def seed_link(self) -> str:
        """An absolute link that deals this match's seed."""
        base = str(self.window.location.href).split("?")[0].split("#")[0]
        query = "?" + urlencode([("seed", self.seed())] + (
            [("lang", self.lang())] if self.lang() != "zh" else []))
        return base + query

    def export(self, match: TableMatch, scenario: str | None, text: str) -> None:
        """Download ``text``, the record of ``match`` (``python3 -m sxmj replay`` plays it; a
        friends room guest's is its host's record of the finished hands)."""
        name = f"sxmj-seed{match.seed}-hand{match.hand_no + 1}.json"
        if scenario is not None:
            name = f"sxmj-scenario-{scenario}.json"
        blob = self.window.Blob.new(self.to_js([text]), self.to_js({"type": "application/json"}))
        url = self.window.URL.createObjectURL(blob)
        link = self.document.createElement("a")
        link.href = url
        link.download = name
        self.document.body.append(link)
        link.click()
        link.remove()
        self.status = tr(self.lang(), "rec_exported", name=name)
        self.redraw()

    async def import_file(self, file) -> None:
        """Read a chosen file: a record (or a save) is watched, anything else is refused."""
        try:
            text = str(await file.text())
            record, problem = read_record(text)
            if record is None:
                self.status = tr(self.lang(), "rec_bad", why=problem)
                self.redraw()
                return
            self.watch(record)
        except Exception:  # noqa: BLE001
            self.fail(traceback.format_exc())

    def copy_link_soon(self) -> None:
        """Copy the seed's link (the clipboard answers later)."""
        asyncio.ensure_future(self.copy_link())

    async def copy_link(self) -> None:
        """Copy the seed's link to the clipboard, or leave it selected for copying by hand."""
        link = self.seed_link()
        try:
            await self.window.navigator.clipboard.writeText(link)
            self.status = tr(self.lang(), "rec_copied")
        except Exception:  # noqa: BLE001 - no permission or no focus: try the old way
            copied = False
            box = self.document.querySelector('[data-testid="seed-link"]')
            if not is_none(box):
                box.focus()
                box.select()  # left selected for copying by hand if this fails too
                try:
                    copied = bool(self.document.execCommand("copy"))
                except Exception:  # noqa: BLE001
                    copied = False
            self.status = tr(self.lang(), "rec_copied" if copied else "rec_copy_failed")
        self.redraw()


class Replay:
    """Watching a record (``viewer``, None when not), a controller of its own (as
    majiang-ui's replay is): its bar, its buttons and its keys, and it hands the table back
    when it closes. The game waits meanwhile (its session is watched:
    :class:`sxmj.ui.table.session.WatchSession`).

    Given ``pause`` (the bots stop), ``close_sheet``, ``render`` and ``closed`` (the game
    takes over again).
    """

    STEPS: dict[str, Callable[[Viewer], int]] = {  # a replay's buttons (data-ui) and keys
        "step-first": lambda v: 0, "Home": lambda v: 0,
        "step-back": lambda v: v.step - 1, "ArrowLeft": lambda v: v.step - 1,
        "step-fwd": lambda v: v.step + 1, "ArrowRight": lambda v: v.step + 1,
        "step-last": lambda v: v.steps, "End": lambda v: v.steps,
    }

    def __init__(self, pause: Callable[[], None], close_sheet: Callable[[], None],
                 render: Callable[[], None], closed: Callable[[], None]):
        self.pause = pause
        self.close_sheet = close_sheet
        self.render = render
        self.closed = closed
        self.viewer: Viewer | None = None

    def open(self, record: dict, hand: int | None = None) -> None:
        """Watch ``record`` from its start (or from the end of its hand ``hand``, from 0,
        where that hand's result shows)."""
        self.viewer = Viewer.open(record)
        self.pause()
        if hand is not None:
            self.viewer.go(self.viewer.hand_end(hand))
        self.close_sheet()
        self.render()

    def bar(self, lang: str) -> str:
        """The replay bar (empty when no record is watched)."""
        v = self.viewer
        if v is None:
            return ""
        last = comforts.action_words(Action.parse(v.last), lang) if v.last else ""
        return comforts.viewer_html(v.step, v.steps, v.match.hand_no + 1, last, lang)

    def step(self, name: str) -> bool:
        """A replay button (``data-ui``) or key, while a record is watched: True when it
        was the replay's (Esc closes it)."""
        if self.viewer is None:
            return False
        if name in ("viewer-close", "Escape"):
            self.close()
            return True
        step = self.STEPS.get(name)
        if step is None:
            return False
        self.go(step(self.viewer))
        return True

    def drop(self) -> None:
        """Forget the record watched, without handing back (a new match replaces all)."""
        self.viewer = None

    def go(self, step: int) -> None:
        """Step to position ``step`` of the record."""
        if self.viewer is None:
            return
        self.viewer.go(step)
        self.render()

    def review_key(self, live: TableMatch) -> tuple:
        """The hand the result panel shows, for its review (复盘): the watched record's
        hand, or the live match's. It holds the record or match itself, not its ``id``: a new
        match (a scenario played again) may be given a freed one's id."""
        v = self.viewer
        if v is not None:
            return ("record", v.record, v.positions[v.step][0])
        return ("live", live, live.hand_no)

    def review_subject(self, live: Match) -> tuple[tuple, dict, int]:
        """What the review replays: the key, the record and the hand's index in it (the
        player's seat, 0, in a record exported by this page or played here)."""
        key = self.review_key(live)
        record = self.viewer.record if self.viewer is not None else to_record(live)
        return key, record, key[2]

    def to_hand_end(self) -> None:
        """In a replay, step to the end of the hand watched (where its result shows)."""
        v = self.viewer
        if v is None:
            return
        self.go(v.hand_end(v.positions[v.step][0]))

    def close(self) -> None:
        """Back to the game (Esc)."""
        if self.viewer is None:
            return
        self.viewer = None
        self.closed()


def _cut(record: dict, hands: list[list[str]]) -> dict:
    """The record up to a point: its first ``hands``, and no ``results`` (a record that
    gives results must give every finished hand's, so a cut one leaves them out)."""
    out = {k: v for k, v in record.items() if k != "results"}
    out["hands"] = hands
    return out
