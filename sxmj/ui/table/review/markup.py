"""The hand review's (复盘) markup on the result panel: a button, then a progress bar with a
cancel button, then the summary and each flagged decision with both choices in words.

Pure: it draws a :class:`ReviewShown`, which :class:`sxmj.ui.table.driver.Reviewer` (the one part
that runs the bots) fills in as the expert works through the hand.

>>> review_html(ReviewShown(), "en").count('data-ui="review"')
1
>>> 'value="3"' in review_html(ReviewShown("running", done=3, total=24), "en")
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sxmj.game import Action
from sxmj.ui.i18n import tr
from sxmj.ui.table.comforts import suggestion_words
from sxmj.ui.table.view import esc

STATES = ("idle", "running", "cancelled", "done", "failed")


@dataclass
class ShownFlag:
    """One decision that cost points: its index in the hand's record, the action played,
    the better one, the loss in points and the expert's reason (in a language)."""

    index: int
    played: Action
    better: Action
    loss: float
    reason: Callable[[str], str]


@dataclass
class ReviewShown:
    """Where the review of the hand on the result panel stands (``status``: one of
    :data:`STATES`); ``done``/``total`` count guesses while it runs."""

    status: str = "idle"
    decisions: int = 0
    total_loss: float = 0.0
    flags: list[ShownFlag] = field(default_factory=list)
    summary: Callable[[str], str] | None = None
    done: int = 0
    total: int = 0
    where: str = ""  # where it runs: "worker" (off the main thread) or "page"


def shown_flag(flag: Any) -> ShownFlag:
    """A :class:`sxmj.bots.review.Flag` as the panel shows it."""
    return ShownFlag(flag.index, flag.played, flag.better, flag.loss, flag.reason_in)


def _button(label: str, ui: str, testid: str) -> str:
    return (f'<button type="button" class="act act--ghost act--small review__btn" '
            f'data-ui="{ui}" data-testid="{testid}"><span class="act__label">'
            f'{esc(label)}</span></button>')


def flag_html(f: ShownFlag, lang: str) -> str:
    """A flagged decision: the move's number, what was played, what was better, the loss and
    the reason (``data-played``/``data-better`` in the record's notation, for tools)."""
    say = partial(tr, lang)
    played, better = suggestion_words(f.played, lang), suggestion_words(f.better, lang)
    return (f'<li class="review__flag" data-testid="review-flag" data-index="{f.index}" '
            f'data-played="{esc(f.played)}" data-better="{esc(f.better)}" '
            f'data-loss="{f.loss:.1f}"><p class="review__pair">'
            f'<b class="review__move">{esc(say("review_move", n=f.index + 1))}</b> '
            f'<span class="review__played">{esc(say("review_you", move=played))}</span>'
            f' · <span class="review__better">'
            f'{esc(say("review_better", move=better))}</span> · '
            f'<b class="review__loss">{esc(say("review_loss", points=f"{f.loss:.1f}"))}</b></p>'
            f'<p class="review__why">{esc(f.reason(lang))}</p></li>')


def review_html(shown: ReviewShown, lang: str) -> str:
    """The review's section of the result panel (``data-testid="review"``,
    ``data-state`` its status)."""
    say = partial(tr, lang)
    if shown.status == "running":
        total = max(shown.total, 1)
        body = (f'<p class="review__line" aria-live="polite">{esc(say("review_running"))}</p>'
                f'<progress class="review__bar" data-testid="review-progress" '
                f'max="{total}" value="{shown.done}" aria-label="{esc(say("review_progress"))}" '
                f'aria-valuenow="{round(100 * shown.done / total)}"></progress>'
                f'{_button(say("review_cancel"), "review-cancel", "review-cancel")}')
    elif shown.status == "done":
        summary = shown.summary(lang) if shown.summary is not None else ""
        flags = "".join(flag_html(f, lang) for f in shown.flags)
        body = (f'<p class="review__summary" data-testid="review-summary" aria-live="polite" '
                f'data-flagged="{len(shown.flags)}" data-decisions="{shown.decisions}">'
                f'{esc(summary)}</p>'
                + (f'<ol class="review__flags">{flags}</ol>' if flags else ""))
    else:
        note = {"cancelled": "review_cancelled", "failed": "review_failed"}.get(
            shown.status, "review_note")
        body = (f'<p class="review__line">{esc(say(note))}</p>'
                f'{_button(say("review_start"), "review", "review-start")}')
    where = f' data-where="{shown.where}"' if shown.where else ""
    return (f'<section class="review" data-testid="review" data-state="{shown.status}"{where} '
            f'aria-label="{esc(say("review_title"))}">'
            f'<h3 class="review__title">{esc(say("review_title"))}</h3>{body}</section>')
