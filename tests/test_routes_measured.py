"""How far a move travels, measured (``scripts/bench_routes.py``, issue 50): the figures
docs/architecture.md reports hold, and the tool that makes them keeps working."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_tool():
    spec = importlib.util.spec_from_file_location("bench_routes", ROOT / "scripts" /
                                                  "bench_routes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_routes"] = module
    spec.loader.exec_module(module)
    return module


def test_a_hosts_discard_and_a_guests_message_take_short_routes_and_save_little():
    figures = load_tool().measure(ROOT)
    host, guest = figures["host_discard"], figures["guest_message"]
    assert len(host["route"]) <= 8 and "sxmj/room/host.py" in host["run"]
    assert "sxmj/ui/table/friends/guest.py" in guest["route"]
    assert "sxmj/room/guest.py" in guest["run"]  # the core takes the guest's message
    # checked where it leaves the table and by the engine: no text parsed, no state rebuilt
    assert host["calls"].get("parse", 0) == 0 and host["calls"]["table_state"] == 1
    saves = figures["saves"]
    assert saves.pop("act (a move)") == 1 and set(saves.values()) == {0}
