"""PyScript entry point (see index.html): start the game UI."""

from sxmj.ui.table import start

start.start()
