"""The pages beside the table: learn.html, calc.html and embed.html, and what only they use.

Nothing here imports :mod:`sxmj.ui.table` (a test keeps it so): these pages boot without
the table's code."""
