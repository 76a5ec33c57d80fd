"""Helpers shared by the plug-in tests (``tests/test_plugins*.py``)."""
from __future__ import annotations

import os

import numpy as np
from typer.testing import CliRunner

from cardsim.sim.cli import app


def invoke(*args, cwd=None):
    """``cardsim ARGS`` in this process (typer's runner), from ``cwd`` when given."""
    old = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        return CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(old)


def same(a, b) -> bool:
    """Two record sets (column -> array) are identical."""
    return all(np.array_equal(a[k], b[k]) for k in a)
