"""The game in the browser (stub: the real table UI replaces this module).

Contract with ``index.html`` and the tests: when the game is interactive, :func:`start`
removes the loading overlay (``#loading``) and sets, last of all,
``document.body.dataset.sxmjReady = "1"`` (``<body data-sxmj-ready="1">``).
"""

from __future__ import annotations


def start() -> None:
    """Show the (still empty) table and mark the page ready."""
    from pyscript import document  # only exists in the browser

    overlay = document.getElementById("loading")
    if overlay:
        overlay.remove()
    table = document.getElementById("table")
    if table:
        table.setAttribute("aria-busy", "false")
    status = document.getElementById("status")
    if status:
        status.innerHTML = '牌桌已就绪 <span lang="en">Table ready</span>'
    document.body.dataset.sxmjReady = "1"
