"""PyScript entry point of calc.html: start the page (sxmj/ui/pages/calc.py)."""

from sxmj.ui.pages import calc

calc.start()
