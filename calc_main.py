"""PyScript entry point of calc.html: start the page (sxmj/ui/calc.py)."""

from sxmj.ui import calc

calc.start()
