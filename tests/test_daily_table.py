"""The daily challenge at the table, over the fake page: its session alone knows the daily
(its deal, its par, its copy, its moves code), and the table never asks which session it has.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from test_ui_split import Page, click_for, event, make_app, settle

from sxmj import daily
from sxmj.ui.table.daily.history import KEY_HISTORY, KEY_LIVE, History, Live

NOON = 1_795_000_000_000  # a moment (ms since 1970): its day in Shanghai is the daily's today
TODAY = daily.shanghai_day(NOON)


def daily_page(storage: dict[str, str] | None = None, fragment: str = "") -> Page:
    page = Page(storage)
    page.window.Date = SimpleNamespace(now=lambda: NOON)  # the device's clock
    location = page.window.location
    location.origin, location.pathname, location.hash = "https://example.org", "/", fragment
    return page


def test_the_days_par_is_its_sessions_work_and_a_new_match_stops_it():
    async def run() -> None:
        page = daily_page()
        app = make_app(page, f"?daily={TODAY}&speed=fast")
        assert app.session.kind == "daily" and app.match.seed == daily.seed_of(TODAY)
        runner = app.session.par_runner
        assert runner.task is not None and not runner.task.done()
        app.restart(seed=5)  # a new match leaves the daily: its par stops
        assert runner.task is None and app.session.kind == "local"

    asyncio.run(run())


def test_the_daily_is_played_and_resumed_by_its_session():
    # the day's par known (no expert playing beside the bots, which coverage makes slow)
    kept = History()
    kept.set_par(TODAY, 3)

    async def run() -> tuple[str, list[int]]:
        page = daily_page({KEY_HISTORY: kept.to_json()})
        page.app = app = make_app(page, f"?daily={TODAY}&speed=fast")
        assert app.session.kind == "daily" and app.session.par_runner.task is None
        app.kick()
        for _ in range(3):  # three of the player's moves, each kept as an index
            await settle(app)
            legal = app.match.game.legal_actions(0)
            app.router.on_click(event(click_for(page, legal[0])))
        await settle(app)
        code = json.loads(page.window.localStorage.items[KEY_LIVE])["moves"]
        return code, list(app.session.moves)

    code, moves = asyncio.run(run())
    assert len(moves) == 3 and daily.decode_moves(code) == moves

    async def again() -> None:  # a reload of the day resumes those moves
        page = daily_page({KEY_HISTORY: kept.to_json(),
                           KEY_LIVE: Live(TODAY, code, True).to_json()})
        app = make_app(page, f"?daily={TODAY}&speed=fast")
        assert app.session.kind == "daily" and app.session.moves == moves
        app.session.leave()

    asyncio.run(again())


def test_a_known_par_is_not_worked_out_again_and_the_copy_says_how_it_went():
    kept = History()
    kept.set_par(TODAY, 12)
    history = kept.to_json()

    async def run() -> str:
        page = daily_page({KEY_HISTORY: history})
        copied: list[str] = []

        async def write(text: str) -> None:
            copied.append(text)

        page.window.navigator = SimpleNamespace(clipboard=SimpleNamespace(writeText=write))
        app = make_app(page, f"?daily={TODAY}&speed=fast&lang=en")
        session = app.session
        assert session.kind == "daily" and session.par == 12
        assert session.par_runner.task is None  # this device knows the day's par
        app.render()
        app.session_command("daily-copy")
        for _ in range(5):
            await asyncio.sleep(0)
        assert session.copy_status == "Copied: paste it into any chat", session.copy_status
        return copied[0] if copied else ""

    text = asyncio.run(run())
    assert TODAY in text and "?daily=" in text


def test_a_day_after_today_is_refused_and_the_table_plays_alone():
    page = daily_page()
    app = make_app(page, "?daily=2999-01-01&speed=fast")
    assert app.session.kind == "local" and app.params.daily == ""
    assert [r.param for r in app.room_refused] == ["daily"]


def test_a_shared_play_is_watched_and_a_damaged_one_refused():
    async def run() -> None:  # the day's par starts in the page's event loop
        shared = "#m=" + daily.encode_moves([0, 0, 0])  # the first legal move, thrice
        good = make_app(daily_page(fragment=shared), f"?daily={TODAY}&speed=fast")
        assert good.link_record is not None
        assert good.link_record["seed"] == daily.seed_of(TODAY)
        assert sum(a.startswith("0 ") for a in good.link_record["hands"][0]) == 3
        good.session.leave()
        bad = make_app(daily_page(fragment="#m=!!"), f"?daily={TODAY}&speed=fast")
        assert bad.link_record is None and [r.param for r in bad.room_refused] == ["m"]
        bad.session.leave()

    asyncio.run(run())
