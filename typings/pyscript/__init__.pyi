# PyScript's top-level names that sxmj/ui uses; DOM objects are JS proxies, typed Any.
from typing import Any

document: Any
window: Any
