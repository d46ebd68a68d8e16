"""Browser UI of the game: runs under PyScript/Pyodide only, never imported by the core."""
