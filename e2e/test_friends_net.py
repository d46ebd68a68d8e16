"""The friends-mode transport (issue 15): static/js/friends-net.js over the vendored PeerJS,
between browser contexts, through a local PeerServer, inside the network namespace of
``scripts/netns_run`` (skipped elsewhere; ``make e2e`` runs it there).

Each context opens the test page ``e2e/pages/friends-net.html`` (served by the test server at
``<site>/__e2e__/``, not part of ``_site``). The host and its guests exchange messages both ways; an
oversized message is dropped, whichever side sends it; every page asks nothing of any origin
but the site and the broker, with no ICE server configured. The round-trip time of a message
goes to e2e/artifacts/friends-net.json (a measure, not an assertion).
"""

from __future__ import annotations

import json
import secrets
import statistics
import time

from friends_harness import TEST_PAGE, Broker
from playwright.sync_api import Page

TIMEOUT_MS = 20_000
# what the broker may carry: connection set-up only (peerjs-server's message types)
SIGNALLING = {"OPEN", "OFFER", "ANSWER", "CANDIDATE", "LEAVE", "EXPIRE", "HEARTBEAT"}


def room_id() -> str:
    return secrets.token_hex(12)  # 96 random bits, as the issue asks of a room id


def start(page: Page, role: str, room: str, broker: Broker) -> None:
    page.evaluate(f"([room, broker]) => sxmjNet.{role}(room, t.opts(broker, 'none'))",
                  [room, broker.url])


def wait_event(page: Page, *event: str) -> None:
    page.wait_for_function(
        "(want) => t.events.some((e) => want.every((w, i) => e[i] === w))",
        arg=list(event), timeout=TIMEOUT_MS)


def wait_got(page: Page, sender: str, text: str) -> None:
    page.wait_for_function(
        "([p, text]) => t.got.some((g) => g[0] === p && g[1] === text)",
        arg=[sender, text], timeout=TIMEOUT_MS)


def my_id(page: Page) -> str:
    page.wait_for_function("() => !!sxmjNet.id()", timeout=TIMEOUT_MS)
    return page.evaluate("() => sxmjNet.id()")


def open_room(friends_page, broker: Broker, guests: int) -> tuple[str, Page, list[Page], list[str]]:
    """A host and its guests, every channel open: (room, host, guests, guest ids)."""
    room = room_id()
    host, _ = friends_page(TEST_PAGE)
    start(host, "host", room, broker)
    wait_event(host, "open", room)
    pages, ids = [], []
    for _ in range(guests):
        guest, _ = friends_page(TEST_PAGE)
        start(guest, "join", room, broker)
        wait_event(guest, "peer", room)
        ids.append(my_id(guest))
        pages.append(guest)
    for gid in ids:
        wait_event(host, "peer", gid)
    return room, host, pages, ids


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def test_peerjs_loads_on_first_use_only(friends_page, broker):
    page, w = friends_page(TEST_PAGE)
    page.wait_for_function("() => !!window.sxmjNet")
    assert not [u for u in w.requests if "/static/vendor/" in u], w.requests
    svg = page.evaluate("() => sxmjNet.qrSvg('https://example.org/sxmj/index.html#room=abc')")
    assert svg.startswith("<svg") and "<path" in svg
    assert [u for u in w.requests if "/static/vendor/" in u] == [
        w.origin + "/sxmj/static/vendor/qrcode/qrcode.js"]
    start(page, "host", room_id(), broker)
    page.wait_for_function("() => t.status.includes('open')", timeout=TIMEOUT_MS)
    assert any(u.endswith("/static/vendor/peerjs/peerjs.min.js") for u in w.requests)


def test_broker_and_ice_options(friends_page):
    page, _ = friends_page(TEST_PAGE)
    options = "([b, i]) => sxmjNet.options(b, i)"
    assert page.evaluate(options, ["http://10.0.0.5:9000/sxmj-broker", "none"]) == {
        "debug": 0, "host": "10.0.0.5", "port": 9000, "path": "/sxmj-broker", "secure": False,
        "config": {"iceServers": []}}
    assert page.evaluate(options, ["https://broker.example.org/p", ""]) == {
        "debug": 0, "host": "broker.example.org", "port": 443, "path": "/p", "secure": True}
    assert page.evaluate(options, ["", ""]) == {"debug": 0}  # PeerJS's public broker and ICE
    servers = '[{"urls":"stun:stun.qq.com:3478"},{"urls":"turns:r.example.cn:443",' \
              '"username":"u","credential":"p"}]'
    given = "([b, i, s]) => sxmjNet.options(b, i, s)"
    assert page.evaluate(given, ["", "china", servers])["config"] == {"iceServers": [
        {"urls": "stun:stun.qq.com:3478"},
        {"urls": "turns:r.example.cn:443", "username": "u", "credential": "p"}]}
    assert page.evaluate(given, ["", "none", ""])["config"] == {"iceServers": []}


def test_two_browsers_talk_both_ways(friends_page, broker, artifacts):
    t0 = time.monotonic()
    room, host, (guest,), (gid,) = open_room(friends_page, broker, 1)
    connect_s = time.monotonic() - t0
    assert guest.evaluate("() => t.status") == ["connecting", "open"]
    assert host.evaluate("() => sxmjNet.peers()") == [gid]
    # no STUN or TURN server: host candidates only
    assert guest.evaluate(
        "(room) => sxmjNet._connection(room).peerConnection.getConfiguration().iceServers",
        room) == []

    hello = json.dumps({"v": 1, "type": "hello", "name": "小明"}, ensure_ascii=False)
    assert guest.evaluate("([room, text]) => sxmjNet.send(room, text)", [room, hello])
    wait_got(host, gid, hello)
    assert host.evaluate("([gid, text]) => sxmjNet.send(gid, text)", [gid, '{"v":1,"seat":2}'])
    wait_got(guest, room, '{"v":1,"seat":2}')
    assert host.evaluate("() => sxmjNet.broadcast('{\"v\":1,\"all\":true}')") == 1
    wait_got(guest, room, '{"v":1,"all":true}')

    # too long: send() refuses it, and a receiver drops one that a peer sent anyway
    big = 'x' * (guest.evaluate("() => sxmjNet.MAX_BYTES") + 1)
    assert guest.evaluate("([room, big]) => sxmjNet.send(room, big)", [room, big]) is False
    guest.evaluate("([room, big]) => { sxmjNet._connection(room).send(big);"
                   " sxmjNet.send(room, 'after'); }", [room, big])
    wait_got(host, gid, "after")
    assert host.evaluate("() => t.got.every((g) => g[1].length < 1000)")
    wait_event(host, "error", "oversize")

    host.evaluate("() => { t.echo = true; }")
    rtt = guest.evaluate("(room) => t.pingPong(room, 50)", room)
    figures = {
        "what": "round trip of a short message guest → host → guest over a PeerJS data channel,"
                " two headless Chromium contexts in the test network namespace",
        "messages": len(rtt),
        "rtt_ms": {"median": round(statistics.median(rtt), 2),
                   "p95": round(percentile(rtt, 0.95), 2),
                   "min": round(min(rtt), 2), "max": round(max(rtt), 2)},
        "host_open_to_guest_connected_s": round(connect_s, 2),
    }
    (artifacts / "friends-net.json").write_text(json.dumps(figures, indent=1) + "\n")
    print("friends-net:", json.dumps(figures))

    guest.evaluate("() => sxmjNet.close()")
    wait_event(host, "close", gid)
    assert guest.evaluate("() => t.status.at(-1)") == "closed"
    assert host.evaluate("() => sxmjNet.peers()") == []
    host.evaluate("() => sxmjNet.close()")

    seen = broker.events()
    assert {e["type"] for e in seen if e["event"] == "message"} <= SIGNALLING, seen


def test_four_browsers_and_the_host_reloads(friends_page, broker):
    room, host, guests, ids = open_room(friends_page, broker, 3)
    assert sorted(host.evaluate("() => sxmjNet.peers()")) == sorted(ids)
    assert host.evaluate("() => sxmjNet.broadcast('{\"v\":1,\"deal\":1}')") == 3
    for guest, gid in zip(guests, ids, strict=True):
        wait_got(guest, room, '{"v":1,"deal":1}')
        guest.evaluate("([room, gid]) => sxmjNet.send(room, JSON.stringify({from: gid}))",
                       [room, gid])
        wait_got(host, gid, json.dumps({"from": gid}, separators=(",", ":")))

    # the host reloads: every guest sees the channel close, and rejoins by itself
    host.reload()
    host.wait_for_function("() => !!window.sxmjNet")
    for guest in guests:
        guest.wait_for_function("() => t.status.includes('reconnecting')", timeout=TIMEOUT_MS)
    start(host, "host", room, broker)
    for gid in ids:
        wait_event(host, "peer", gid)
    for guest in guests:
        guest.wait_for_function("() => t.status.at(-1) === 'open'", timeout=TIMEOUT_MS)
    assert host.evaluate("() => sxmjNet.broadcast('{\"v\":1,\"resumed\":1}')") == 3
    for guest in guests:
        wait_got(guest, room, '{"v":1,"resumed":1}')
    for page in (host, *guests):
        page.evaluate("() => sxmjNet.close()")
