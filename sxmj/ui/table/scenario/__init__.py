"""A lesson (``?scenario=NAME``) at the table: its logic and its session."""
