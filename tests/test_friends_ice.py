"""The friends room's ICE servers in the page (issue 51): ``?ice=`` names a preset, and the
servers the page hands its transport follow it."""

from __future__ import annotations

import json

import pytest
from test_ui_split import Page, make_app

from sxmj.room.ice import CHINA_STUN
from sxmj.ui.params import parse_params
from sxmj.ui.table.friends.host import HostSession


@pytest.mark.parametrize("value, kept, refused", [
    ("", "", False), ("none", "none", False), ("china", "china", False),
    ("default", "", False), ("google", "", True), ("stun:x.cn", "", True)])
def test_the_ice_parameter_names_a_preset(value, kept, refused):
    p = parse_params(f"?seed=3&ice={value}")
    assert p.ice == kept and ([r.param for r in p.refused] == ["ice"]) is refused
    assert dict(p.network()).get("ice", "") == kept  # the invite carries it


@pytest.mark.parametrize("value, servers", [
    ("", ""), ("none", "[]"),
    ("china", json.dumps([{"urls": u} for u in CHINA_STUN], separators=(",", ":")))])
def test_the_transport_is_handed_the_presets_servers(value, servers):
    app = make_app(Page(), f"?seed=3&ice={value}")
    assert HostSession(app).ice_servers() == servers
