"""The end of a hand and of a match: the result's markup, the hands laid open, the
match's summary."""
