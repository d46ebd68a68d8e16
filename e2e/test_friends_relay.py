"""The host's own TURN relay (issue 51, item 1), in two real browsers over WebRTC.

Inside the test's network namespace (``scripts/netns_run``; never another address), the test
starts Debian's coturn (``make test`` installs it) on 10.99.0.1 with a ``static-auth-secret``.
The host's page keeps that secret and the relay's address in its Settings; its invite carries
the relay with a login minted for the room (never the secret); both browsers are made to use
relayed candidates only (``iceTransportPolicy: "relay"``, set on every RTCPeerConnection by an
init script), so the room forms through coturn or not at all. The host's lobby then shows the
guest's route as "via relay" (``friends-path``), coturn's log shows the minted user's
allocation, and the secret is in neither page's link nor any message.
"""

from __future__ import annotations

import json
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import unquote

import pytest
from friends_harness import NETNS, NOT_IN_NETNS
from test_friends import LINK, join, player, start

SECRET = "relay-secret-" + secrets.token_hex(12)
PORT = 3478
# every RTCPeerConnection of the page gathers and uses relayed candidates only
RELAY_ONLY = """(() => {
  const Real = window.RTCPeerConnection;
  window.RTCPeerConnection = function (config, ...rest) {
    return new Real({...(config || {}), iceTransportPolicy: "relay"}, ...rest);
  };
  window.RTCPeerConnection.prototype = Real.prototype;
  Object.setPrototypeOf(window.RTCPeerConnection, Real);
})();"""


@pytest.fixture
def turn(tmp_path: Path):
    """coturn on 10.99.0.1:3478 (UDP and TCP) in this namespace, with a static-auth-secret;
    yields its log's path."""
    if not NETNS:
        pytest.skip(NOT_IN_NETNS)
    binary = shutil.which("turnserver")
    if binary is None:
        pytest.fail("coturn's turnserver is missing: `make test` installs it (apt: coturn)")
    log = tmp_path / "turn.log"
    proc = subprocess.Popen(
        [binary, "-n", "--listening-ip", NETNS, "--relay-ip", NETNS, "--listening-port",
         str(PORT), "--min-port", "49160", "--max-port", "49260", "--use-auth-secret",
         f"--static-auth-secret={SECRET}", "--realm", "sxmj.test", "--no-tls", "--no-dtls",
         "--no-cli", "--no-multicast-peers", "--fingerprint", "--log-file", str(log),
         "--simple-log", "--verbose"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # until it listens (TCP on the same port as UDP)
        try:
            socket.create_connection((NETNS, PORT), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail(f"coturn did not start: {log.read_text() if log.exists() else ''}")
    yield log
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_a_room_forms_through_the_hosts_own_relay(friends_page, broker, site_url, turn):
    servers = json.dumps([{"urls": [f"turn:{NETNS}:{PORT}?transport=udp",
                                    f"turn:{NETNS}:{PORT}?transport=tcp"]}])
    settings = json.dumps({"v": 1, "ice_servers": servers, "turn_secret": SECRET})
    keep = f"localStorage.setItem('sxmj.settings', {json.dumps(settings)});"
    host, hw = player(friends_page, site_url, f"index.html?seed=3&speed=fast&{broker.query}",
                      init=(RELAY_ONLY, keep))
    host.click('[data-testid="friends-create"]')
    host.wait_for_function(f"() => (document.querySelector('{LINK}') || {{}}).value",
                           timeout=30000)
    link = host.locator(LINK).input_value()
    assert "&ice=" in link and SECRET not in unquote(link)
    guest, gw, _ = join(friends_page, site_url, link, "Relay", 1, init=(RELAY_ONLY,))
    route = host.locator('[data-testid="friends-path"][data-seat="1"]')
    route.wait_for(timeout=15000)
    host.wait_for_function("() => document.querySelector('[data-testid=\"friends-path\"]"
                           "[data-seat=\"1\"]').dataset.path === 'relay'", timeout=15000)
    assert route.inner_text() == "经中继"
    host.screenshot(path=str(Path(__file__).parent / "artifacts" / "friends-relay.png"))
    start(host, 1)
    guest.wait_for_function("() => !document.body.dataset.sxmjRoom", timeout=30000)
    room_id = link.split("#room=")[1].split("&")[0]
    log = turn.read_text(errors="replace")
    assert f":{room_id}" in log  # the relay took the login minted for this room
    for page in (host, guest):
        wire = page.evaluate("JSON.stringify(window.sxmjWire)")
        assert SECRET not in wire
    hw.assert_clean()
    gw.assert_clean()
