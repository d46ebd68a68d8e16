"""``python3 -m sxmj``: see :mod:`sxmj.cli`."""

import sys

from .cli import main

sys.exit(main())
