"""Connection codes: the friends room's route with no broker at all (issue 51).

Where no PeerServer answers (the public one down or blocked, no broker of the host's own), the
room still forms through the chat the friends already share: the host's page makes one
**offer** per free seat (a link to the game whose fragment carries the offer), a friend opens
it and their page makes an **answer code** to send back, and the host pastes it. Each is the
part of a WebRTC session description the other browser needs — the ICE login, the DTLS
certificate's fingerprint, the DTLS role and the candidates, gathered in full first (no
trickle) — packed into URL-safe characters, so that one fits a chat message: about 60
characters and 27 more per candidate (a phone's offer with a relay: under 250).

Everything else of the description is the same for every sxmj data channel, and is written
back by :func:`build_sdp`. A code is read strictly (:func:`unpack`: a bounded length, one
alphabet, every field checked): anything else is a :class:`~sxmj.messages.CoreError`, so what
reaches the browser's ``setRemoteDescription`` is always a description this module wrote.

Pure: no I/O, no clock, no randomness.

>>> host = Candidate("host", "udp", "", "19c159b5-6f18-4bba-ace0-a1781b29ee29.local", 33416)
>>> offer = Description("actpass", "x5oM", "XqKwCwH2yi5STOYrJWLwi5w7", bytes(range(32)), (host,))
>>> offer_id, code = offer_code(build_sdp(offer)); offer_id, len(code)
('x5oM', 102)
>>> unpack(code) == offer
True
>>> from dataclasses import replace
>>> answer = answer_code(offer_id, build_sdp(replace(offer, setup="active", ufrag="eGc0")))
>>> answer[:11], read_answer("send this back: " + answer + " thanks")[0]
('SXMJ1.x5oM.', 'x5oM')
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
from dataclasses import dataclass

from sxmj.messages import CoreError

ANSWER_MARK = "SXMJ1"  # an answer code's first word (the format's version is its last digit)
MAX_CODE = 1200  # characters of a code (an answer with every candidate allowed fits)
MAX_CANDIDATES = 24
SETUPS = {"actpass": "a", "active": "c", "passive": "p"}  # a description's DTLS role
TYPES = ("host", "srflx", "prflx", "relay")
# (type preference of RFC 8445 §5.1.2.2, for the priority written back)
PREFERENCE = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}
TRANSPORTS = (("udp", ""), ("tcp", "active"), ("tcp", "passive"), ("tcp", "so"))
# one letter per (type, transport, tcptype): A host udp, B host tcp active, …, P relay tcp so
KINDS = [(t, p, tcp) for t in TYPES for p, tcp in TRANSPORTS]
_B64 = re.compile(r"^[A-Za-z0-9_-]*$")
_ICE_CHARS = re.compile(r"^[A-Za-z0-9+/]+$")  # RFC 8839 ice-char
_MID = re.compile(r"^[A-Za-z0-9]{1,16}$")
_MDNS = re.compile(r"^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.local$")
# an answer code somewhere in pasted text (a chat message copied whole)
_ANSWER = re.compile(ANSWER_MARK + r"\.([A-Za-z0-9_-]{4,32})\.([A-Za-z0-9._-]{40,"
                     + str(MAX_CODE) + "})")
# the address forms a code carries: an IPv4 address, an IPv6 one, an mDNS name (a browser's
# private address behind a random UUID)
ADDRESS_SIZE = {"4": 6, "6": 22, "m": 22}


@dataclass(frozen=True)
class Candidate:
    """One ICE candidate of a code: how to reach the browser (its data channel's component).

    ``kind`` is ``host``, ``srflx``, ``prflx`` or ``relay`` (RFC 8445); ``transport`` ``udp``
    or ``tcp`` (with its ``tcptype``); ``address`` an IP address or an mDNS name."""

    kind: str
    transport: str
    tcptype: str
    address: str
    port: int


@dataclass(frozen=True)
class Description:
    """What a browser's session description holds that the other one needs."""

    setup: str  # the DTLS role: actpass (an offer), active or passive (an answer)
    ufrag: str  # the ICE login (RFC 8839)
    pwd: str
    fingerprint: bytes  # the SHA-256 of the DTLS certificate
    candidates: tuple[Candidate, ...]
    mid: str = "0"


def _bad(what: str) -> CoreError:
    return CoreError("codes.bad", "code", value=what[:40])


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str, size: int) -> bytes:
    if not _B64.match(text):
        raise _bad(text)
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if len(data) != size or _b64(data) != text:  # one spelling per value
        raise _bad(text)
    return data


def _ice_text(text: str, low: int, high: int) -> str:
    if not low <= len(text) <= high or not _ICE_CHARS.match(text):
        raise _bad(text)
    return text


# ------------------------------------------------------------------ a description and SDP


def parse_sdp(sdp: str) -> Description:
    """The parts of a browser's session description (its data channel's) that a code
    carries. Candidates a code can't carry (a host name that is not an mDNS one, another
    component) are left out; at most :data:`MAX_CANDIDATES` are kept, in their order.

    Raises :class:`~sxmj.messages.CoreError` (``codes.bad``) when the description has no
    ICE login, no SHA-256 fingerprint or no DTLS role."""
    values: dict[str, str] = {}
    candidates: list[Candidate] = []
    for line in sdp.replace("\r\n", "\n").split("\n"):
        if not line.startswith("a=") or ":" not in line:
            continue
        key, _, value = line[2:].partition(":")
        if key == "candidate":
            candidate = _parse_candidate(value)
            if candidate is not None and len(candidates) < MAX_CANDIDATES:
                candidates.append(candidate)
        elif key in ("ice-ufrag", "ice-pwd", "fingerprint", "setup", "mid"):
            values.setdefault(key, value.strip())
    algorithm, _, digest = values.get("fingerprint", "").partition(" ")
    if algorithm.lower() != "sha-256":
        raise _bad("fingerprint")
    try:
        fingerprint = bytes.fromhex(digest.replace(":", ""))
    except ValueError:
        raise _bad("fingerprint") from None
    if len(fingerprint) != 32 or values.get("setup") not in SETUPS:
        raise _bad("fingerprint" if len(fingerprint) != 32 else "setup")
    mid = values.get("mid", "0")
    if not _MID.match(mid):
        raise _bad("mid")
    return Description(values["setup"], _ice_text(values.get("ice-ufrag", ""), 4, 32),
                       _ice_text(values.get("ice-pwd", ""), 22, 64), fingerprint,
                       tuple(candidates), mid)


def _parse_candidate(value: str) -> Candidate | None:
    parts = value.split()
    if len(parts) < 8 or parts[1] != "1" or parts[6] != "typ":
        return None
    transport, address, port, kind = parts[2].lower(), parts[4], parts[5], parts[7]
    tcptype = ""
    if "tcptype" in parts[8:]:
        at = parts.index("tcptype", 8)
        tcptype = parts[at + 1] if at + 1 < len(parts) else ""
    if (transport, tcptype) not in TRANSPORTS or kind not in TYPES or not port.isdigit() \
            or not 0 <= int(port) <= 65535 or _address_code(address) is None:
        return None
    return Candidate(kind, transport, tcptype, address.lower(), int(port))


def _address_code(address: str) -> str | None:
    match = _MDNS.match(address.lower())
    if match:
        return "m" + _b64(bytes.fromhex(match.group(1).replace("-", "")))
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return ("4" if ip.version == 4 else "6") + _b64(ip.packed)


def _address(family: str, text: str) -> str:
    data = _unb64(text, 4 if family == "4" else 16)
    if family == "m":
        h = data.hex()
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}.local"
    return str(ipaddress.ip_address(data))


def build_sdp(d: Description) -> str:
    """The session description a browser takes (``setRemoteDescription``) for ``d``: one
    data channel's ``m=`` line, its ICE login, fingerprint, role and candidates (every
    candidate's priority written back from its type and order, as RFC 8445 computes it)."""
    session = int.from_bytes(hashlib.sha256(d.fingerprint).digest()[:7], "big")
    lines = ["v=0", f"o=- {session} 2 IN IP4 127.0.0.1", "s=-", "t=0 0",
             f"a=group:BUNDLE {d.mid}", "a=msid-semantic: WMS",
             "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"]
    for n, c in enumerate(d.candidates):
        priority = (PREFERENCE[c.kind] << 24) + ((65535 - n) << 8) + 255
        tcp = f" tcptype {c.tcptype}" if c.tcptype else ""
        lines.append(f"a=candidate:{n + 1} 1 {c.transport} {priority} {c.address} {c.port} "
                     f"typ {c.kind}{tcp}")
    lines += [f"a=ice-ufrag:{d.ufrag}", f"a=ice-pwd:{d.pwd}",
              "a=fingerprint:sha-256 " + ":".join(f"{b:02X}" for b in d.fingerprint),
              f"a=setup:{d.setup}", f"a=mid:{d.mid}", "a=sctp-port:5000",
              "a=max-message-size:262144"]
    return "\r\n".join(lines) + "\r\n"


# ------------------------------------------------------------------ a code


def _ice_code(text: str) -> str:
    return text.replace("+", "-").replace("/", "_")  # (ice-chars have no - or _)


def _ice_plain(text: str) -> str:
    return text.replace("-", "+").replace("_", "/")


def pack(d: Description) -> str:
    """``d`` as a code: ``<role><ufrag>.<pwd>.<fingerprint>.<candidates>[.<mid>]``, in the
    characters a URL's fragment and a chat message keep as they are (A–Z a–z 0–9 ``-_.``).
    A candidate is a letter for its type and transport, its address (``4``, ``6`` or ``m``
    and the bytes in base64) and its port (three base64 characters)."""
    cands = []
    for c in d.candidates:
        address = _address_code(c.address)
        if address is None:
            raise _bad(c.address)
        kind = KINDS.index((c.kind, c.transport, c.tcptype))
        cands.append(chr(ord("A") + kind) + address + _b64(c.port.to_bytes(3, "big"))[1:])
    tail = "" if d.mid == "0" else "." + d.mid
    return (f"{SETUPS[d.setup]}{_ice_code(d.ufrag)}.{_ice_code(d.pwd)}."
            f"{_b64(d.fingerprint)}.{''.join(cands)}{tail}")


def unpack(code: str) -> Description:
    """The description a code holds (:func:`pack`'s inverse); a
    :class:`~sxmj.messages.CoreError` (``codes.bad``) for anything that is not one."""
    if not code or len(code) > MAX_CODE or not _B64.match(code.replace(".", "")):
        raise _bad(code)
    fields = code.split(".")
    if len(fields) not in (4, 5):
        raise _bad(code)
    head, pwd, fingerprint, cands = fields[:4]
    setup = next((name for name, letter in SETUPS.items() if head[:1] == letter), None)
    mid = fields[4] if len(fields) == 5 else "0"
    if setup is None or not _MID.match(mid) or (len(fields) == 5 and mid == "0"):
        raise _bad(head[:1] or code)
    candidates: list[Candidate] = []
    at = 0
    while at < len(cands):
        if len(candidates) == MAX_CANDIDATES:
            raise _bad(cands[at:])
        kind, family = ord(cands[at]) - ord("A"), cands[at + 1:at + 2]
        size = ADDRESS_SIZE.get(family)
        if not 0 <= kind < len(KINDS) or size is None or len(cands) < at + 2 + size + 3:
            raise _bad(cands[at:])
        address = _address(family, cands[at + 2:at + 2 + size])
        port = int.from_bytes(_unb64("A" + cands[at + 2 + size:at + 5 + size], 3), "big")
        if port > 65535:
            raise _bad(cands[at:])
        candidates.append(Candidate(*KINDS[kind], address, port))
        at += 5 + size
    return Description(setup, _ice_text(_ice_plain(head[1:]), 4, 32),
                       _ice_text(_ice_plain(pwd), 22, 64), _unb64(fingerprint, 32),
                       tuple(candidates), mid)


def offer_code(sdp: str) -> tuple[str, str]:
    """The host's offer (a browser's session description) as ``(offer id, code)``: the id
    (the offer's ICE user fragment, in code characters) names the offer an answer answers."""
    d = parse_sdp(sdp)
    if d.setup != "actpass":
        raise _bad("setup")
    return _ice_code(d.ufrag), pack(d)


def read_offer(code: str) -> tuple[str, str]:
    """An offer code (from an invite's fragment) as ``(offer id, description)`` to answer."""
    d = unpack(code)
    if d.setup != "actpass" or not d.candidates:
        raise _bad("setup" if d.setup != "actpass" else "candidates")
    return _ice_code(d.ufrag), build_sdp(d)


def answer_code(offer_id: str, sdp: str) -> str:
    """A guest's answer (its browser's session description) to the offer ``offer_id``, as
    the code the host pastes: ``SXMJ1.<offer id>.<description>``."""
    d = parse_sdp(sdp)
    if d.setup == "actpass":
        raise _bad("setup")
    return f"{ANSWER_MARK}.{offer_id}.{pack(d)}"


def read_answer(text: str) -> tuple[str, str]:
    """The answer code in ``text`` (what the host pasted: the code alone, or the whole chat
    message around it) as ``(offer id, description)``; a
    :class:`~sxmj.messages.CoreError` (``codes.none``) when it holds none."""
    match = _ANSWER.search(text[:MAX_CODE * 4])
    if match is None:
        raise CoreError("codes.none", "code")
    d = unpack(match.group(2).rstrip("."))  # (a code that ends a sentence)
    if d.setup == "actpass" or not d.candidates:
        raise _bad("setup" if d.setup == "actpass" else "candidates")
    return match.group(1), build_sdp(d)
