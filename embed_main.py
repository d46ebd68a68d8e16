"""PyScript entry point of embed.html: start the page (sxmj/ui/embed.py)."""

from sxmj.ui import embed

embed.start()
