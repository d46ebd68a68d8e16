"""The settings sheet: the dialog and its tabs."""
