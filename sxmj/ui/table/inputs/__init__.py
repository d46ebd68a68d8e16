"""The player's input: which handler a click, a tap or a key reaches, and discarding by touch."""
