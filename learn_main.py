"""PyScript entry point of learn.html: start the page (sxmj/ui/learn.py)."""

from sxmj.ui import learn

learn.start()
