"""加入房间: the door a friend comes through with a 房号 instead of the link
(``[data-testid="join-room"]``). It reads the six digits and the network to look them up on
(the joiner's own broker and ICE preset), and hands them to the way that turns the table
into that room's guest (:func:`sxmj.ui.table.ways.joining`). A number that finds no room is
said in the dialog, and each failure doubles the wait before the next try (kept for the
tab's session), so typing numbers at random gets slow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sxmj.room.host import is_room_number
from sxmj.room.ice import PRESETS as ICE_PRESETS
from sxmj.ui.params import is_broker
from sxmj.ui.table.dom import is_none
from sxmj.ui.table.friends.lobby import join_html
from sxmj.ui.table.overlay import Overlay

FAILS_KEY = "sxmj.join.fails"  # sessionStorage: failed lookups in this tab
WAIT_CAP = 60  # seconds: the longest wait between two tries


def wait_after(fails: int) -> int:
    """Seconds before the next try after ``fails`` failed lookups: none after the first,
    then 2, 4, 8 … up to :data:`WAIT_CAP`.

    >>> [wait_after(n) for n in (0, 1, 2, 3, 9)]
    [0, 0, 2, 4, 60]
    """
    return 0 if fails < 2 else min(WAIT_CAP, 2 ** (fails - 1))


class Door:
    """The join dialog. ``join(number, broker, ice)`` turns the table into the guest of the
    room with that 房号; ``now`` is the page's clock (seconds), for the wait."""

    def __init__(self, document: Any, window: Any, overlay: Overlay, lang: Callable[[], str],
                 network: Callable[[], tuple[str, str]],
                 join: Callable[[str, str, str], None], now: Callable[[], float]):
        self.document = document
        self.window = window
        self.overlay = overlay
        self.lang = lang
        self.network = network
        self.join = join
        self.now = now
        self.until = 0.0  # no try before this (the page's clock)

    def show(self, number: str = "", error: str = "") -> None:
        """Open the dialog (again: with the number tried and why it failed)."""
        broker, ice = self.network()
        wait = max(0, round(self.until - self.now()))
        self.overlay.open("join", join_html(self.lang(), number, error, wait, broker, ice))

    def go(self) -> None:
        """加入: a six-digit number, the network's fields as typed (a broker that is no
        address, or an unknown preset, keeps this page's own), and the way in."""
        number = self._value("join-room-number").strip()
        if not is_room_number(number):
            self.show(number[:12], "join_bad_number")
            return
        if self.now() < self.until:
            self.show(number)
            return
        broker, ice = self.network()
        typed = self._value("join-room-broker").strip()
        preset = self._value("join-room-ice")
        broker = typed if typed and is_broker(typed) else broker
        ice = preset if preset in ICE_PRESETS else ice
        self.overlay.close()
        self.join(number, broker, "" if ice == "default" else ice)

    def failed(self, number: str, error: str) -> None:
        """The number found no room: counted, the wait doubled, the dialog again."""
        fails = self._fails() + 1
        try:
            self.window.sessionStorage.setItem(FAILS_KEY, str(fails))
        except Exception:  # noqa: BLE001 - a page without storage counts in this page only
            pass
        self.until = self.now() + wait_after(fails)
        self.show(number, error)

    def _fails(self) -> int:
        try:
            text = self.window.sessionStorage.getItem(FAILS_KEY)
        except Exception:  # noqa: BLE001
            return 0
        return int(text) if isinstance(text, str) and text.isdigit() else 0

    def _value(self, rid: str) -> str:
        element = self.document.getElementById(rid)
        return "" if is_none(element) else str(element.value)
