"""PyScript entry point of embed.html: start the page (sxmj/ui/pages/embed.py)."""

from sxmj.ui.pages import embed

embed.start()
