"""The player's hand row fits at every width from 360 to 1440 px.

Between the phone layout (≤ 700 px) and the rail's (≥ 1180 px) the hand shares its row with
the plate and the melds; tiles sized from the viewport alone once spilled out of it (over
the plate, past the screen's edge or under the rail). One page per scenario, booted once and
resized through the widths (the layout is CSS only: nothing in Python reads the width).

- The widest hand: the player's own turn with 14 concealed tiles, the drawn one set apart.
- A hand with melds beside it (claims taken whenever offered).

At each width: no sideways overflow of the hand, its row or the page; every tile inside
the hand, the row and the viewport; the hand clear of the plate and the melds; tiles wide
enough to read and tap. Screenshots: ``e2e/artifacts/layout-<case>-<w>x<h>.png``.
"""

from __future__ import annotations

import pytest
from harness import DESKTOP, wait_ready, watch
from playwright.sync_api import Page

HAND = '[data-testid="my-hand"] button[data-tile]'
ENABLED = HAND + ":not([disabled])"
RESULT = '[data-testid="hand-result"]'
CLAIMS = ("gang", "peng", "chi")
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")
SIZES = [(360, 740), (390, 844), (600, 900), (701, 800), (768, 1024), (820, 800), (900, 800),
         (1024, 768), (1100, 800), (1179, 800), (1180, 800), (1200, 800), (1280, 800),
         (1440, 900)]
SLACK = 0.5  # px: sub-pixel rounding of the layout
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"

MEASURE = """() => {
  const box = e => { if (!e) return null; const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, width: r.width}; };
  const shown = e => e && e.getClientRects().length > 0;
  const hand = document.querySelector('[data-testid="my-hand"]');
  const row = document.querySelector('#seat-bottom');
  const plate = document.querySelector('#me-plate');
  const melds = document.querySelector('#me-melds');
  return {
    viewport: document.documentElement.clientWidth,
    page: document.documentElement.scrollWidth,
    hand: {...box(hand), client: hand.clientWidth, scroll: hand.scrollWidth},
    row: {...box(row), client: row.clientWidth, scroll: row.scrollWidth},
    plate: shown(plate) ? box(plate) : null,
    melds: shown(melds) ? box(melds) : null,
    meldTiles: [...document.querySelectorAll('#me-melds .t')].map(box),
    tiles: [...hand.querySelectorAll('button[data-tile]')].map(box),
  };
}"""


def _overlap(a: dict, b: dict) -> float:
    return min(a["right"], b["right"]) - max(a["left"], b["left"])


def overflows(m: dict, width: int) -> list[str]:
    """What sticks out sideways in measurement ``m`` (empty when the row fits)."""
    out = []
    hand, row, vw = m["hand"], m["row"], m["viewport"]
    if m["page"] > vw:
        out.append(f"the page scrolls sideways: {m['page']} > {vw}")
    if hand["scroll"] > hand["client"]:
        out.append(f"the hand overflows: scrollWidth {hand['scroll']} > {hand['client']}")
    if row["scroll"] > row["client"]:
        out.append(f"the hand's row overflows: scrollWidth {row['scroll']} > {row['client']}")
    for name, box in (("hand", hand), ("row", row)):
        if box["left"] < -SLACK or box["right"] > vw + SLACK:
            out.append(f"the {name} [{box['left']:.1f}, {box['right']:.1f}] leaves the viewport")
    for i, t in enumerate(m["tiles"]):
        for name, box in (("hand", hand), ("row", row)):
            if t["left"] < box["left"] - SLACK or t["right"] > box["right"] + SLACK:
                out.append(f"tile {i} [{t['left']:.1f}, {t['right']:.1f}] sticks out of the "
                           f"{name} [{box['left']:.1f}, {box['right']:.1f}]")
        if t["left"] < -SLACK or t["right"] > vw + SLACK:
            out.append(f"tile {i} [{t['left']:.1f}, {t['right']:.1f}] leaves the viewport {vw}")
        min_w = 20 if width <= 700 else 32
        if t["width"] < min_w:
            out.append(f"tile {i} is {t['width']:.1f} px wide (< {min_w}): too small to tap")
    for t in m["meldTiles"]:
        if t["left"] < row["left"] - SLACK or t["right"] > row["right"] + SLACK:
            out.append(f"a meld tile [{t['left']:.1f}, {t['right']:.1f}] leaves the row")
    if width > 700 and m["tiles"]:  # one row: plate | hand | melds, side by side
        tiles = {"left": min(t["left"] for t in m["tiles"]),
                 "right": max(t["right"] for t in m["tiles"])}
        for name in ("plate", "melds"):
            if m[name] and _overlap(tiles, m[name]) > SLACK:
                out.append(f"the tiles [{tiles['left']:.1f}, {tiles['right']:.1f}] run into "
                           f"the {name} [{m[name]['left']:.1f}, {m[name]['right']:.1f}]")
    return out


def check_widths(page: Page, artifacts, case: str) -> dict[str, list[str]]:
    """Resize through :data:`SIZES`; the problems found at each width (only where some)."""
    found = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TWO_FRAMES)
        page.wait_for_timeout(300)  # let the 150–250 ms animations end
        page.screenshot(path=artifacts / f"layout-{case}-{width}x{height}.png")
        problems = overflows(page.evaluate(MEASURE), width)
        if problems:
            found[f"{width}x{height}"] = problems
    return found


def report(found: dict[str, list[str]]) -> str:
    return "the hand row overflows:\n" + "\n".join(
        f"  {size}: " + "; ".join(problems) for size, problems in found.items())


def open_table(fresh, site_url: str, query: str):
    page = fresh(viewport=DESKTOP)
    w = watch(page, site_url)
    page.goto(site_url + query)
    wait_ready(page, w)
    return page, w


def wait_for_player(page: Page, w) -> list[str]:
    """Wait until the table waits on the player; the actions offered."""
    page.wait_for_function(WAITING, timeout=30000)
    assert page.locator(".py-error").count() == 0, page.inner_text(".py-error")
    w.assert_clean()
    return page.locator("#actions button[data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)")


def act(page: Page, name: str) -> None:
    page.locator(f'#actions button[data-action="{name}"]').first.click()


def test_the_full_hand_fits_at_every_width(fresh, site_url, artifacts):
    page, w = open_table(fresh, site_url, "?seed=7&speed=fast")
    for _ in range(60):  # decline every claim until the player's own turn with 14 tiles
        names = wait_for_player(page, w)
        assert not page.locator(RESULT).count(), "the hand ended before the player's turn"
        if page.locator(ENABLED).count() and page.locator(HAND).count() == 14 \
                and not any(n in names for n in CLAIMS + ("hu",)):
            break
        if "pass" in names:
            act(page, "pass")
        else:
            page.locator(ENABLED).first.click()
    else:
        pytest.fail("never reached the player's turn with 14 tiles")
    assert page.locator(f"{HAND}.is-apart").count() == 1, "the drawn tile is set apart"
    found = check_widths(page, artifacts, "full")
    assert not found, report(found)
    w.assert_clean()


def test_a_hand_with_melds_fits_at_every_width(fresh, site_url, artifacts):
    page, w = open_table(fresh, site_url, "?seed=1&speed=fast")
    for _ in range(400):  # take every claim; discard the last tile otherwise
        names = wait_for_player(page, w)
        if page.locator(RESULT).count():
            page.locator('button[data-action="next-hand"]').click()
            continue
        melds = page.locator("#me-melds .meld").count()
        claims = [n for n in CLAIMS if n in names]
        if melds and page.locator(ENABLED).count() and not claims and "hu" not in names:
            break
        if claims:
            act(page, claims[0])
        elif "pass" in names:
            act(page, "pass")
        else:
            page.locator(ENABLED).last.click()
    else:
        pytest.skip("no meld claimed in 400 moves: nothing to measure")
    found = check_widths(page, artifacts, "melds")
    assert not found, report(found)
    w.assert_clean()
