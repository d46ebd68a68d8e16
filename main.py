"""PyScript entry point (see index.html): start the game UI."""

from sxmj.ui import start

start.start()
