# Pyodide's `js` module: the page's global scope, every name a JS proxy.
from typing import Any

def __getattr__(name: str) -> Any: ...
