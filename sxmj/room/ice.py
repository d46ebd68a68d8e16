"""The friends room's ICE servers: the presets an invite names (``?ice=``), a custom list
(STUN and TURN, carried in the invite's fragment, never in a query a server would log), and
time-limited TURN credentials minted from a coturn ``static-auth-secret``.

A direct WebRTC path between two phones often fails behind carrier-grade NAT, and Google's
STUN server is blocked in mainland China; a TURN relay of the host's own, reachable on 443
(``turns:``), carries the room where nothing else does. The TURN REST scheme (coturn's
``use-auth-secret``) lets the host mint a credential for an evening without giving anyone the
secret: the user is ``EXPIRY:ROOM`` (the Unix time the credential stops working, and the
room's id), the password the base64 HMAC-SHA1 of the user under the secret. The secret stays
on the host's device; only minted credentials travel.

Pure: no clock (the caller hands ``now`` in), no I/O.

>>> servers = parse_servers('[{"urls": "turns:relay.example.cn:443", "username": "u", '
...                         '"credential": "p"}]')
>>> servers[0].urls, servers[0].relay
(('turns:relay.example.cn:443',), True)
>>> user, password = turn_credentials("0123456789abcdef", "room-1", now=1_700_000_000)
>>> user, len(password)
('1700043200:room-1', 28)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any

from sxmj.messages import CoreError

# the stun: servers reachable in mainland China (Xiaomi's and Tencent's), for ?ice=china
CHINA_STUN = ("stun:stun.miwifi.com:3478", "stun:stun.qq.com:3478")
PRESETS = ("default", "china", "none")  # default: PeerJS's own servers
MAX_SERVERS = 8
MAX_LOGIN = 256  # characters of a user name or a credential
MAX_URL = 200
EVENING = 12 * 3600  # a minted credential's life: an evening, so reconnects work
_URL = re.compile(r"^(stun|turns?):(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?"
                  r"(\?transport=(udp|tcp))?$")


@dataclass(frozen=True)
class IceServer:
    """One entry of ``RTCConfiguration.iceServers``: its URLs, and for TURN a login."""

    urls: tuple[str, ...]
    username: str = ""
    credential: str = ""

    @property
    def relay(self) -> bool:
        """A TURN server (it relays), not only a STUN one."""
        return any(u.startswith("turn") for u in self.urls)

    def to_json(self) -> dict[str, Any]:
        """As ``RTCIceServer`` takes it (and as the invite's fragment carries it)."""
        out: dict[str, Any] = {"urls": list(self.urls) if len(self.urls) > 1 else self.urls[0]}
        if self.username or self.credential:
            out["username"], out["credential"] = self.username, self.credential
        return out


def preset_servers(preset: str) -> tuple[IceServer, ...] | None:
    """The servers of a preset: ``none`` none at all (host candidates only), ``china`` STUN
    servers reachable there, ``default`` None (PeerJS's own).

    >>> [s.urls[0] for s in preset_servers("china")], preset_servers("none")
    (['stun:stun.miwifi.com:3478', 'stun:stun.qq.com:3478'], ())
    """
    if preset not in PRESETS:
        raise CoreError("ice.preset", "ice", value=preset[:24])
    if preset == "default":
        return None
    return tuple(IceServer((u,)) for u in CHINA_STUN) if preset == "china" else ()


def parse_servers(text: str, logins: bool = True) -> tuple[IceServer, ...]:
    """A custom list (JSON, as ``RTCConfiguration.iceServers``), every field checked: at most
    :data:`MAX_SERVERS` servers, ``stun:``/``turn:``/``turns:`` URLs with a host, and (with
    ``logins``, as an invite carries it) a user and a credential for every TURN server; the
    host's own list may leave them out, to be minted (:func:`with_credentials`). Raises
    :class:`CoreError` (``ice.*``)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise CoreError("ice.list", "ice", cap=MAX_SERVERS) from None
    if not isinstance(data, list) or not 0 < len(data) <= MAX_SERVERS:
        raise CoreError("ice.list", "ice", cap=MAX_SERVERS)
    return tuple(_server(entry, logins) for entry in data)


def _server(entry: Any, logins: bool) -> IceServer:
    if not isinstance(entry, dict) or set(entry) - {"urls", "username", "credential"}:
        raise CoreError("ice.list", "ice", cap=MAX_SERVERS)
    urls = entry.get("urls")
    urls = [urls] if isinstance(urls, str) else urls
    if not isinstance(urls, list) or not 0 < len(urls) <= 4:
        raise CoreError("ice.list", "ice", cap=MAX_SERVERS)
    for url in urls:
        if not isinstance(url, str) or len(url) > MAX_URL or not _URL.match(url):
            raise CoreError("ice.url", "ice", value=str(url)[:40])
    user, credential = entry.get("username", ""), entry.get("credential", "")
    turn = any(u.startswith("turn") for u in urls)
    for value in (user, credential):
        if not isinstance(value, str) or len(value) > MAX_LOGIN or (turn and logins
                                                                    and not value):
            raise CoreError("ice.login", "ice", value=urls[0][:40], cap=MAX_LOGIN)
    return IceServer(tuple(urls), user, credential)


def ice_list_ok(text: str) -> bool:
    """``text`` is a custom list a host may keep (:func:`parse_servers` without logins)."""
    try:
        parse_servers(text, logins=False)
    except CoreError:
        return False
    return True


def turn_secret_ok(secret: str) -> bool:
    """``secret`` can mint logins (:func:`turn_credentials`): 16 to 256 printable
    characters.

    >>> turn_secret_ok("0123456789abcdef"), turn_secret_ok("short")
    (True, False)
    """
    return 16 <= len(secret) <= 256 and secret.isprintable()


def format_servers(servers: tuple[IceServer, ...]) -> str:
    """The list as the invite's fragment carries it (compact JSON; the caller escapes it)."""
    return json.dumps([s.to_json() for s in servers], separators=(",", ":"))


def turn_credentials(secret: str, room: str, now: int, life: int = EVENING) -> tuple[str, str]:
    """A TURN login for ``room`` valid from ``now`` (Unix seconds) for ``life`` seconds,
    minted from coturn's ``static-auth-secret`` (the TURN REST scheme): user
    ``EXPIRY:ROOM``, password base64(HMAC-SHA1(secret, user)). The secret itself is in
    neither."""
    if not turn_secret_ok(secret):
        raise CoreError("ice.secret", "ice")
    user = f"{now + life}:{room}"
    digest = hmac.new(secret.encode(), user.encode(), hashlib.sha1).digest()
    return user, base64.b64encode(digest).decode("ascii")


def with_credentials(servers: tuple[IceServer, ...], secret: str, room: str,
                     now: int) -> tuple[IceServer, ...]:
    """``servers`` with every TURN server's login minted for ``room`` (STUN ones as they
    are): what the host's invite carries when it keeps a secret instead of a login."""
    user, password = turn_credentials(secret, room, now)
    return tuple(IceServer(s.urls, user, password) if s.relay else s for s in servers)
