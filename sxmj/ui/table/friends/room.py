"""Play with friends in the page: the room's lobby, the transport, the host's and a guest's
side of the table (the rules of the room are :mod:`sxmj.room`).

「和朋友玩 / Play with friends」 (``[data-testid="friends-create"]``) makes this browser the
host: it opens a room (a 128-bit id and a 128-bit secret, both from the browser's
cryptographic source), shows the invite link ``…/index.html#room=<id>&key=<secret>``
(``[data-testid="friends-link"]``) with a copy button and a QR code made here, and starts
the match with ``[data-testid="friends-start"]``. A friend who opens the link types a name
(``[data-testid="friends-name"]``) and takes a free seat (``[data-testid="friends-seat"]``,
``data-seat`` the host's seat number). Seats nobody takes are bots of the level the host
chose. The host runs the match and referees; a guest's table is drawn from what the host
sends it, with the same buttons and keys.

The browsers talk over WebRTC data channels (``static/js/friends-net.js``, PeerJS, loaded
only here); ``?broker=`` and ``?ice=none`` choose the PeerServer and the ICE servers.
A guest's seat token lives in ``sessionStorage``: a reload takes the seat back. The host's
room and match live in ``localStorage["sxmj.room"]`` (never over the single-player save):
a reload of the host (its address is ``#host=<id>``) resumes the match under the same id,
and the guests reconnect by themselves.
"""

from __future__ import annotations

from sxmj.room import protocol
from sxmj.ui.table.dom import is_none
from sxmj.ui.table.friends.common import ROOM_KEY
from sxmj.ui.table.friends.guest import GuestSide
from sxmj.ui.table.friends.host import HostSide
from sxmj.ui.table.friends.lobby import chat_html, hash_refusals, phrase_text, read_hash

__all__ = ["Friends", "chat_html", "hash_refusals", "read_hash"]


class Friends(HostSide, GuestSide):
    """The room of this page, as host or guest (``role``), or none. ``app`` is the table
    (:class:`sxmj.ui.table.app.App`): the room reads its match and calls its apply and render."""

    def people(self) -> frozenset[int]:
        """Seats of people, as this table numbers them (a guest's others all decide at
        tables of their own or are played by the host)."""
        if self.role == "guest":
            return frozenset(range(4))
        return frozenset(self.humans())

    def say(self, phrase: str) -> None:
        """A quick phrase or emoji from this table."""
        if not phrase_text(phrase, "en"):
            return
        box = self.app.document.querySelector("#chat details")
        if not is_none(box):
            box.open = False  # said: the phrases fold away
        if self.role == "host":
            self.said(0, phrase)
        elif self.role == "guest":
            self._send(self.room_id, protocol.message("say", phrase=phrase))

    def close(self) -> None:
        """Close the room (the host's 关闭房间 before the match starts)."""
        if self.net is not None:
            self.net.close()
        self.role, self.room, self.net = "", None, None
        self.app.persistence.remove(ROOM_KEY)
        self.app.driver.humans = lambda: {0}
        self._hash("")
        self.app.overlay.close()
