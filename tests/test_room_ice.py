"""The friends room's ICE servers in the core (issue 51): presets, a custom list checked
field by field, and TURN credentials minted from a shared secret that never leaves them."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sxmj.messages import CoreError
from sxmj.room.ice import (
    EVENING,
    MAX_SERVERS,
    IceServer,
    format_servers,
    parse_servers,
    preset_servers,
    turn_credentials,
    with_credentials,
)

SECRET = "north-wind-0123456789"


def test_the_presets():
    assert preset_servers("default") is None  # PeerJS's own
    assert preset_servers("none") == ()
    china = preset_servers("china")
    assert china and all(not s.relay and s.urls[0].startswith("stun:") for s in china)
    assert not any("google" in u for s in china for u in s.urls)
    with pytest.raises(CoreError) as e:
        preset_servers("google")
    assert e.value.code == "ice.preset"


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_a_minted_password_is_what_openssl_computes_for_coturn():
    """coturn checks HMAC-SHA1(secret, user), base64: computed here by another tool."""
    user, password = turn_credentials(SECRET, "room-7", now=1_765_000_000)
    assert user == f"{1_765_000_000 + EVENING}:room-7"
    digest = subprocess.run(["openssl", "dgst", "-sha1", "-hmac", SECRET, "-binary"],
                            input=user.encode(), capture_output=True, check=True).stdout
    assert password == base64.b64encode(digest).decode()


# the secret's letters are none of the room id's (hex) or the expiry's, so that the
# secret can only appear in the output by being copied there
@given(st.text(st.sampled_from("ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ!#%&*-_"),
               min_size=16, max_size=64),
       st.from_regex(r"[0-9a-f]{32}", fullmatch=True), st.integers(0, 2**33))
@settings(max_examples=60, deadline=None)
def test_the_secret_is_in_nothing_minted(secret, room, now):
    """An attacker who sees every credential a host hands out never sees its secret."""
    servers = (IceServer(("turns:relay.example.cn:443",)), IceServer(("stun:stun.qq.com",)))
    minted = with_credentials(servers, secret, room, now)
    text = format_servers(minted)
    assert secret not in text and all(secret not in v for s in minted
                                      for v in (s.username, s.credential))
    assert minted[0].username.startswith(f"{now + EVENING}:") and minted[1].username == ""
    assert parse_servers(text) == minted


@pytest.mark.parametrize("secret", ["short", "x" * 300, "tab\there-0123456789"])
def test_a_weak_or_odd_secret_is_refused(secret):
    with pytest.raises(CoreError) as e:
        turn_credentials(secret, "room", 0)
    assert e.value.code == "ice.secret"


@pytest.mark.parametrize("text, code", [
    ("", "ice.list"), ("{}", "ice.list"), ("[]", "ice.list"),
    (json.dumps([{"urls": "stun:a"}] * (MAX_SERVERS + 1)), "ice.list"),
    ('[{"urls": "http://evil.example/"}]', "ice.url"),
    ('[{"urls": "stun:"}]', "ice.url"),
    ('[{"urls": "turn:relay.example.cn:3478"}]', "ice.login"),
    ('[{"urls": "turn:r.cn", "username": "u", "credential": 5}]', "ice.login"),
    ('[{"urls": "stun:a", "extra": 1}]', "ice.list"),
    ('[{"urls": ["stun:a", 7]}]', "ice.url"),
])
def test_a_bad_list_is_refused_with_its_reason(text, code):
    with pytest.raises(CoreError) as e:
        parse_servers(text)
    assert e.value.code == code and e.value.text("zh") and e.value.text("en")


def test_the_hosts_own_list_may_leave_the_turn_login_to_be_minted():
    own = parse_servers('[{"urls": "turns:relay.example.cn:443"}]', logins=False)
    assert own[0].relay and own[0].username == ""


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_text_is_a_list_or_a_refusal(text):
    try:
        servers = parse_servers(text)
    except CoreError as e:
        assert e.code.startswith("ice.")
    else:
        assert 0 < len(servers) <= MAX_SERVERS
        assert parse_servers(format_servers(servers)) == servers
