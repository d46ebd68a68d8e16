"""The centre of the table: its panel readable, its rivers legible, the claim bubbles clear.

- On a portrait tablet (768×1024) the centre once took its tile width from the viewport's
  width alone: a 120 px panel where the seat scores overlapped the hand number, the
  indicator, the 财神 and the dice, and 20 px river tiles while most of the felt was empty.
- On phones the claim bubbles (碰！ 杠！ 补花 …) sat over the rivers and the panel, hiding the
  indicator, the 财神 and the very discard being claimed.

One page per language, a few moves into a hand, resized through the sizes. At each: the
panel's parts (the four score edges, the hand number, the indicator and 财神 figures, the
wall count, the dice) do not overlap; the river tiles are at least ``MIN_RIVER[size]`` px
wide; the four bubbles, shown at once, stay off the panel and every river tile (the last
discard among them). Screenshots:
``e2e/artifacts/center-<lang>-<w>x<h>.png``.
"""

from __future__ import annotations

import pytest
from harness import DESKTOP, wait_ready, watch

HAND = '[data-testid="my-hand"] button[data-tile]'
ENABLED = HAND + ":not([disabled])"
RESULT = '[data-testid="hand-result"]'
WAITING = ("() => ['you', 'result'].includes(document.body.dataset.sxmjWaiting)"
           " || !!document.querySelector('.py-error')")
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
SLACK = 0.5  # px
# the narrowest river tile allowed (px) at each size checked
MIN_RIVER = {(768, 1024): 28, (390, 844): 20, (1440, 900): 28,
             (1024, 768): 24, (1280, 800): 24}
BUBBLES = {"zh": ["杠！", "碰！", "吃！", "补花"],
           "en": ["杠 Kong!", "碰 Pung!", "吃 Chow!", "补花 Flower"]}

MEASURE = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {l: r.left, t: r.top, r: r.right, b: r.bottom}; };
  const parts = [];
  for (const e of document.querySelectorAll('#panel .edge'))
    parts.push(['score edge ' + e.dataset.seat, box(e)]);
  for (const [name, sel] of [['hand number', '.panel__round'], ['figure', '.slot'],
                             ['wall count', '.panel__wall'], ['dice', '.panel__dice'],
                             ['piao', '.panel__piao']])
    document.querySelectorAll('#panel ' + sel)
      .forEach((e, i) => parts.push([name + ' ' + i, box(e)]));
  const tiles = [...document.querySelectorAll('.river .t')].map(e => {
    const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); });
  const areas = [['the panel', box(document.getElementById('panel'))]];
  for (const p of ['top', 'left', 'right', 'bottom'])
    document.querySelectorAll('#river-' + p + ' .t').forEach((e, i) => areas.push(
      [(e.classList.contains('is-last') ? 'the last discard, ' : '') + p + ' river tile ' + i,
       box(e)]));
  return {parts, tiles, areas};
}"""

SHOW_BUBBLES = """texts => { texts.forEach((t, seat) => {
  const p = document.createElement('p');
  p.className = 'callout__bubble';
  p.style.animation = 'none';
  p.style.opacity = '1';
  p.textContent = t;
  document.getElementById('callout-' + seat).replaceChildren(p); }); }"""

BUBBLE_BOXES = """() => [0, 1, 2, 3].map(seat => {
  const e = document.querySelector('#callout-' + seat + ' .callout__bubble');
  const r = e.getBoundingClientRect();
  return {l: r.left, t: r.top, r: r.right, b: r.bottom}; })"""

CLEAR_BUBBLES = ("() => [0, 1, 2, 3].forEach(s => "
                 "document.getElementById('callout-' + s).replaceChildren())")


def overlap(a: dict, b: dict) -> bool:
    return (min(a["r"], b["r"]) - max(a["l"], b["l"]) > SLACK
            and min(a["b"], b["b"]) - max(a["t"], b["t"]) > SLACK)


def fmt(b: dict) -> str:
    return f"[{b['l']:.0f},{b['t']:.0f} – {b['r']:.0f},{b['b']:.0f}]"


def problems_at(m: dict, bubbles: list[dict], size: tuple[int, int]) -> list[str]:
    out = []
    parts = m["parts"]
    for i, (n1, a) in enumerate(parts):
        for n2, b in parts[i + 1:]:
            if overlap(a, b):
                out.append(f"{n1} {fmt(a)} overlaps {n2} {fmt(b)}")
    if not m["tiles"]:
        out.append("no river tile to measure")
    elif min(m["tiles"]) < MIN_RIVER[size]:
        out.append(f"river tiles {min(m['tiles']):.1f} px wide (< {MIN_RIVER[size]})")
    for seat, bubble in enumerate(bubbles):
        for name, area in m["areas"]:
            if overlap(bubble, area):
                out.append(f"seat {seat}'s bubble {fmt(bubble)} covers {name} {fmt(area)}")
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_centre_is_readable_at_tablet_phone_and_desktop(fresh, site_url, artifacts, lang):
    page = fresh(viewport=DESKTOP)
    w = watch(page, site_url)
    page.goto(site_url + f"?seed=23&speed=fast&lang={lang}")
    wait_ready(page, w)
    for _ in range(8):  # a few discards: decline claims, discard the last tile
        page.wait_for_function(WAITING, timeout=30000)
        assert page.locator(".py-error").count() == 0, page.inner_text(".py-error")
        if page.locator(RESULT).count():
            page.locator('button[data-action="next-hand"]').click()
        elif page.locator('#actions button[data-action="pass"]').count():
            page.locator('#actions button[data-action="pass"]').first.click()
        elif page.locator(ENABLED).count():
            page.locator(ENABLED).last.click()
        else:
            page.locator("#actions button[data-action]").first.click()
        page.wait_for_timeout(150)
    page.wait_for_function(WAITING, timeout=30000)
    if page.locator(RESULT).count():
        page.locator('button[data-action="next-hand"]').click()
        page.wait_for_function(WAITING, timeout=30000)
    found = {}
    for size in MIN_RIVER:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.evaluate(TWO_FRAMES)
        page.wait_for_timeout(300)
        page.screenshot(path=artifacts / f"center-{lang}-{size[0]}x{size[1]}.png")
        m = page.evaluate(MEASURE)
        page.evaluate(SHOW_BUBBLES, BUBBLES[lang])
        page.evaluate(TWO_FRAMES)
        bubbles = page.evaluate(BUBBLE_BOXES)
        page.screenshot(path=artifacts / f"center-{lang}-{size[0]}x{size[1]}-bubbles.png")
        page.evaluate(CLEAR_BUBBLES)
        problems = problems_at(m, bubbles, size)
        if problems:
            found[f"{size[0]}x{size[1]}"] = problems
    assert not found, "the centre is crowded:\n" + "\n".join(
        f"  {size}:\n    " + "\n    ".join(p) for size, p in found.items())
    w.assert_clean()
