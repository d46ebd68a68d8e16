"""Play with friends in the page: the room's lobby, the transport, and the two sessions of a
room — the host's (:mod:`sxmj.ui.table.friends.host`) and a guest's
(:mod:`sxmj.ui.table.friends.guest`). The rules of the room are in the core
(:mod:`sxmj.room`).

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
