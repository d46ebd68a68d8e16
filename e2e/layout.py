"""The layout audit's checks, for e2e/test_layout_audit.py and the tests of single screens.

:func:`problems` runs ``e2e/layout_audit.js`` (ink over ink, clipped or spilling text,
controls out of reach or covered, sideways scroll, tap targets under 24 × 24 px) and axe-core's
colour-contrast rule on the layer being looked at, and returns every problem in words.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Frame, Page

HERE = Path(__file__).resolve().parent
AUDIT_JS = (HERE / "layout_audit.js").read_text(encoding="utf-8")
AUDIT = AUDIT_JS[AUDIT_JS.index("async ("):]  # the function, without its heading comment
AXE = HERE.parent / "node_modules" / "axe-core" / "axe.min.js"
# the only text allowed a deliberate ellipsis: a player's name
NAMES = ".plate__name, .pay__name, .reveal__name, .summary__name, [data-player-name]"
# the hand's own tiles: as large as the row allows, and guarded by the two-tap raise
EXEMPT = '[data-testid="my-hand"] button[data-tile]'
CONTRAST = """async (scope) => {
  const nodes = [...document.querySelectorAll(scope)];
  const r = await axe.run(nodes.length === 1 ? nodes[0] : {include: nodes.map(n => [n])},
                          {runOnly: ["color-contrast"], resultTypes: ["violations"]});
  return r.violations.flatMap(v => v.nodes.map(n =>
    `colour contrast: ${n.target.join(" ")}: ${(n.any[0] || {}).message || v.help}`));
}"""
SETTLED = """async () => {
  await Promise.all([...document.images].map(i => i.complete ? null :
    new Promise(r => { i.onload = i.onerror = r; })));
  await Promise.all(document.getAnimations().filter(a => {
    const t = a.effect && a.effect.getComputedTiming();
    return t && Number.isFinite(t.endTime) && t.endTime < 2000;
  }).map(a => a.finished.catch(() => null)));
}"""


def settle(page: Page | Frame) -> None:
    """Images loaded and the short animations (150–350 ms) ended."""
    page.evaluate(SETTLED)
    page.wait_for_timeout(60)


def geometry(page: Page | Frame, scope: str = "body") -> list[str]:
    """The layout checks of ``layout_audit.js`` on ``scope``."""
    return page.evaluate(AUDIT, {"scope": scope, "names": NAMES, "exempt": EXEMPT})


def contrast(page: Page | Frame, scope: str = "body") -> list[str]:
    """axe-core's colour-contrast violations inside ``scope``."""
    load_axe(page)
    return page.evaluate(CONTRAST, scope)


def load_axe(page: Page | Frame) -> None:
    """axe-core in ``page`` (or a frame), once. Evaluated by the test's own connection, as
    DevTools would: the page's Content-Security-Policy rightly refuses an inline script tag."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")


def problems(page: Page | Frame, scope: str = "body") -> list[str]:
    """Everything the audit finds on ``scope`` as the page is drawn now."""
    settle(page)
    return geometry(page, scope) + contrast(page, scope)
