"""Connection codes (sxmj/room/codes.py): the room's route with no broker.

The descriptions are Chromium's own (taken in the friends tests' network namespace), and
the forms a phone's browser gathers elsewhere (server-reflexive, relayed, TCP, IPv6,
Firefox's spelling). A code must survive the trip unchanged, fit a chat message, and every
other text must be refused with a clear error, never anything else.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sxmj.messages import CoreError
from sxmj.room import codes
from sxmj.room.codes import (
    KINDS,
    MAX_CODE,
    Candidate,
    Description,
    answer_code,
    build_sdp,
    offer_code,
    pack,
    parse_sdp,
    read_answer,
    read_offer,
    unpack,
)

CHROMIUM_OFFER = """v=0
o=- 2883547377077604094 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=candidate:3549844931 1 udp 2113937151 19c159b5-6f18-4bba-ace0-a1781b29ee29.local 33416 typ host generation 0 network-cost 999
a=ice-ufrag:x5oM
a=ice-pwd:XqKwCwH2yi5STOYrJWLwi5w7
a=ice-options:trickle
a=fingerprint:sha-256 D3:2D:ED:6B:E8:0D:D3:39:20:66:61:26:B7:41:B0:E6:3E:1E:4B:47:69:59:27:B6:89:48:BC:BD:BD:1F:90:7F
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
""".replace("\n", "\r\n")  # noqa: E501

CHROMIUM_ANSWER = CHROMIUM_OFFER.replace("x5oM", "eGc0").replace(
    "XqKwCwH2yi5STOYrJWLwi5w7", "RV55bCFHEZu5DRJga6PtvkqH").replace(
    "setup:actpass", "setup:active").replace("33416", "51183")

# a phone behind a NAT with a TURN server: every candidate form a browser writes
PHONE_OFFER = CHROMIUM_OFFER.replace(
    "a=ice-ufrag:x5oM",
    "a=candidate:842163049 1 udp 1677729535 203.0.113.7 61234 typ srflx raddr 0.0.0.0 rport 0 "
    "generation 0 network-cost 999\r\n"
    "a=candidate:1390553624 1 udp 33562623 198.51.100.9 50123 typ relay raddr 203.0.113.7 "
    "rport 61234 generation 0 network-cost 999\r\n"
    "a=candidate:3144391254 1 tcp 1518280447 5b3c0e4e-0b0c-4a7e-9f3e-1a2b3c4d5e6f.local 9 "
    "typ host tcptype active generation 0 network-id 1\r\n"
    "a=candidate:77 1 UDP 2122252543 2001:db8::1 54321 typ host\r\n"
    "a=candidate:78 1 tcp 2105524479 198.51.100.9 443 typ relay raddr 1.2.3.4 rport 5 "
    "tcptype passive\r\n"
    "a=candidate:79 1 udp 2122252543 printer.example.com 4000 typ host\r\n"  # not carried
    "a=candidate:80 2 udp 2122252543 10.0.0.2 4001 typ host\r\n"  # another component
    "a=ice-ufrag:x5oM")


def test_a_chromium_offer_and_answer_make_the_trip_unchanged() -> None:
    offer_id, code = offer_code(CHROMIUM_OFFER)
    assert offer_id == "x5oM" and len(code) <= 110
    got_id, sdp = read_offer(code)
    assert got_id == offer_id and parse_sdp(sdp) == parse_sdp(CHROMIUM_OFFER)
    answer = answer_code(offer_id, CHROMIUM_ANSWER)
    assert answer.startswith("SXMJ1.x5oM.") and len(answer) <= 120
    got_id, sdp = read_answer(answer)
    assert got_id == offer_id and parse_sdp(sdp) == parse_sdp(CHROMIUM_ANSWER)
    assert "a=setup:active" in sdp and "51183 typ host" in sdp


def test_every_candidate_form_a_phone_gathers() -> None:
    d = parse_sdp(PHONE_OFFER)
    assert [(c.kind, c.transport, c.tcptype, c.address, c.port) for c in d.candidates] == [
        ("host", "udp", "", "19c159b5-6f18-4bba-ace0-a1781b29ee29.local", 33416),
        ("srflx", "udp", "", "203.0.113.7", 61234),
        ("relay", "udp", "", "198.51.100.9", 50123),
        ("host", "tcp", "active", "5b3c0e4e-0b0c-4a7e-9f3e-1a2b3c4d5e6f.local", 9),
        ("host", "udp", "", "2001:db8::1", 54321),
        ("relay", "tcp", "passive", "198.51.100.9", 443),
    ]
    _, code = offer_code(PHONE_OFFER)
    assert unpack(code) == d
    # a host candidate outranks a server-reflexive one, which outranks a relayed one
    sdp = build_sdp(d)
    priorities = {line.split()[7]: int(line.split()[3]) for line in sdp.splitlines()
                  if line.startswith("a=candidate:")}
    assert priorities["host"] > priorities["srflx"] > priorities["relay"]


def test_an_offer_link_fits_one_chat_message() -> None:
    """Eight candidates (a phone on Wi-Fi and mobile data, with STUN and TURN): the offer
    link (the page, the room, its secret, the code) stays within 500 characters."""
    d = parse_sdp(PHONE_OFFER)
    many = Description(d.setup, d.ufrag, d.pwd, d.fingerprint, (d.candidates * 2)[:8])
    _, code = offer_code(build_sdp(many))
    link = f"https://friends.github.io/sxmj/?ice=china#room=sxmj407215&key={'a' * 32}" \
           f"&offer={code}&seat=3"
    assert len(link) <= 500, len(link)
    assert set(code) <= set(string.ascii_letters + string.digits + "-_.")


def test_what_is_not_a_code_is_refused_with_a_reason() -> None:
    _, code = offer_code(CHROMIUM_OFFER)
    for bad in ("", "x" * (MAX_CODE + 1), code[:-3], code + "A", code.replace(".", "", 1),
                code.replace("a", "z", 1), "c" + code[1:] + ".0", code + ".a-b"):
        with pytest.raises(CoreError) as err:
            read_offer(bad)
        assert err.value.code == "codes.bad"
    with pytest.raises(CoreError) as err:
        read_answer("房主你好，码在这里：" + code)  # an offer pasted back: no answer in it
    assert err.value.code == "codes.none"
    with pytest.raises(CoreError):  # an answer where an offer belongs, and the reverse
        read_offer(answer_code("x5oM", CHROMIUM_ANSWER).split(".", 2)[2])
    with pytest.raises(CoreError):
        answer_code("x5oM", CHROMIUM_OFFER)
    with pytest.raises(CoreError):  # no candidate: nothing to connect to
        read_answer("SXMJ1.x5oM." + pack(Description("active", "eGc0", "p" * 22,
                                                     bytes(32), ())))
    for sdp in (CHROMIUM_OFFER.replace("sha-256", "sha-1"),
                CHROMIUM_OFFER.replace("a=setup:actpass\r\n", ""),
                CHROMIUM_OFFER.replace("a=ice-ufrag:x5oM", "a=ice-ufrag:x!"),
                CHROMIUM_OFFER.replace("7F\r\n", "\r\n")):
        with pytest.raises(CoreError):
            offer_code(sdp)


def test_a_code_at_the_end_of_a_sentence_is_still_read() -> None:
    answer = answer_code("x5oM", CHROMIUM_ANSWER)
    assert read_answer(f"好了：{answer}。")[0] == "x5oM"
    assert read_answer(f"here: {answer}.\nsee you")[0] == "x5oM"


# ------------------------------------------------------------------ properties

ice_text = st.text(alphabet=string.ascii_letters + string.digits + "+/", min_size=4, max_size=32)
addresses = st.one_of(
    st.ip_addresses(v=4).map(str), st.ip_addresses(v=6).map(str),
    st.uuids().map(lambda u: f"{u}.local"))
candidates = st.builds(
    lambda kind, address, port: Candidate(*kind, address, port),
    st.sampled_from(KINDS), addresses, st.integers(0, 65535))
descriptions = st.builds(
    Description, st.sampled_from(["actpass", "active", "passive"]), ice_text,
    st.text(alphabet=string.ascii_letters + string.digits + "+/", min_size=22, max_size=64),
    st.binary(min_size=32, max_size=32), st.lists(candidates, max_size=codes.MAX_CANDIDATES)
    .map(tuple), st.text(alphabet=string.ascii_letters + string.digits, min_size=1,
                         max_size=16))


@given(descriptions)
def test_a_description_survives_code_and_sdp(d: Description) -> None:
    code = pack(d)
    assert len(code) <= MAX_CODE
    assert unpack(code) == d
    assert parse_sdp(build_sdp(d)) == d
    assert pack(unpack(code)) == code


@given(descriptions, st.data())
def test_a_damaged_code_is_refused_or_is_another_whole_code(d: Description,
                                                            data: st.DataObject) -> None:
    """One character changed, dropped or added: a clear refusal, or (rarely) another code
    that packs back to exactly what was read; never any other error."""
    code = pack(d)
    at = data.draw(st.integers(0, len(code) - 1))
    char = data.draw(st.sampled_from(string.ascii_letters + string.digits + "-_.!~ "))
    for damaged in (code[:at] + char + code[at + 1:], code[:at] + code[at + 1:],
                    code[:at] + char + code[at:]):
        try:
            got = unpack(damaged)
        except CoreError as e:
            assert e.code == "codes.bad"
        else:
            assert pack(got) == damaged


@given(st.text(max_size=400))
def test_any_text_pasted_is_an_answer_or_a_clear_refusal(text: str) -> None:
    for read in (read_answer, read_offer, unpack):
        try:
            read(text)
        except CoreError as e:
            assert e.code in ("codes.bad", "codes.none")
            assert e.text("zh") and e.text("en")


@given(st.text(max_size=2000))
def test_any_description_text_is_parsed_or_refused(text: str) -> None:
    try:
        d = parse_sdp(text)
    except CoreError as e:
        assert e.code == "codes.bad"
    else:
        assert unpack(pack(d)) == d
