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


def pytest_configure(config):
    """The whole suite (no test paths given, or only ``tests``, no -k or -m): compile every game's kernels
    first, side by side, one interpreter per game and core (``sim.warm.warm_in_processes``, the
    entries every test path uses), where numba's cache lacks them. Otherwise each xdist worker
    compiles the same kernels at the same time. Once cached, it costs nothing (the markers say
    so). Not in the workers (the controller did it); ``CARDSIM_TEST_WARM=0`` skips it."""
    if hasattr(config, "workerinput") or os.environ.get("CARDSIM_TEST_WARM") == "0" or config.option.collectonly \
            or config.option.keyword or config.option.markexpr:
        return                      # (-k, -m: a selection, which compiles what it uses)
    if any(os.path.abspath(a.split("::")[0]) != os.path.abspath(os.path.join(str(config.rootpath), "tests"))
           for a in config.args):
        return                      # a few files or tests: they compile what they use
    from cardsim.sim.registry import game_names
    from cardsim.sim.warm import ENTRIES, MORE, WarmupError, is_compiled, warm_in_processes
    entries = (*ENTRIES, "odds", *MORE)
    todo = [g for g in game_names() if not all(is_compiled(g, e) for e in entries)]
    if todo:
        try:
            warm_in_processes(todo, entries)
        except WarmupError as exc:  # the tests that take that path will say what fails
            print(f"warning: warming the kernels failed: {exc}")

