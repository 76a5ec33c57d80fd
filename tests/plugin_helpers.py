"""Helpers shared by the plug-in tests (``tests/test_plugins*.py``)."""
from __future__ import annotations

import numpy as np

from cli_helpers import invoke  # noqa: F401  (the plug-in tests import it from here)


def same(a, b) -> bool:
    """Two record sets (column -> array) are identical."""
    return all(np.array_equal(a[k], b[k]) for k in a)
