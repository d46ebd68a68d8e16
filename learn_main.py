"""PyScript entry point of learn.html: start the page (sxmj/ui/pages/learn.py)."""

from sxmj.ui.pages import learn

learn.start()
