"""Fixtures shared by the test files (issue 42: the tests as a library of conformance checks).

The command-line helpers themselves are plain functions in ``cli_helpers.py`` (``invoke``,
``cli_json``, ``sub``, ``cardsim_cmd``, ``default_signals``, ``assert_usage_error``): import them
with ``from cli_helpers import invoke`` (``tests/`` is on ``sys.path``, as for ``plugin_helpers``).
"""
from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

# the tests' tables are those of a piped run without COLUMNS (200 wide), whatever the shell running
# them exports; a test that wants a width sets COLUMNS for its own child process
os.environ.pop("COLUMNS", None)


@pytest.fixture(scope="session")
def cli():
    """Typer's CliRunner, for tests that call ``cli.invoke(app, [...])`` themselves."""
    return CliRunner()
