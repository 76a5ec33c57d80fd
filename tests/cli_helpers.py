"""The ``cardsim`` command line as the tests call it, shared by every test file (issue 42).

* ``invoke(*args, cwd=None)``: ``cardsim ARGS`` in this process with typer's CliRunner (no
  interpreter start-up); returns click's ``Result`` (``exit_code``, ``stdout``, ``stderr``,
  ``output``, ``exception``).
* ``cli_json(*args)``: ``cardsim ARGS --json -q`` in this process, exit 0 asserted, the JSON parsed.
* ``sub(*args, cwd=None, timeout=120, env=None)``: ``python -m cardsim ARGS`` in a fresh
  interpreter, for what needs a real process (exit status, working directory, the module entry
  point); returns the ``CompletedProcess`` (text, stdout and stderr captured).
* ``cardsim_cmd(*args, launcher=None)``: the argv of that process (or of a launcher script that
  patches something and then calls the CLI's ``main``), for ``Popen``.
* ``default_signals``: a ``preexec_fn`` giving a child the default SIGINT/SIGTERM handling.
* ``assert_usage_error(res, *fragments)``: the contract of every bad-input refusal.

Arguments are passed through ``str`` (numbers and paths welcome). The fixtures over these (the
runner itself) are in ``conftest.py``.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from typer.testing import CliRunner

from cardsim.sim.cli import app


def invoke(*args, cwd=None):
    """``cardsim ARGS`` in this process (typer's runner), from ``cwd`` when given."""
    if cwd is None:
        return CliRunner().invoke(app, [str(a) for a in args])
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(old)


def cli_json(*args):
    """``cardsim ARGS --json -q`` in this process: asserts exit 0, returns the parsed JSON."""
    res = invoke(*args, "--json", "-q")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def cardsim_cmd(*args, launcher=None) -> list[str]:
    """The argv of ``python -m cardsim ARGS``, or of ``python LAUNCHER ARGS`` when given."""
    head = [sys.executable, str(launcher)] if launcher is not None else [sys.executable, "-m", "cardsim"]
    return [*head, *map(str, args)]


def sub(*args, cwd=None, timeout=120, env=None):
    """``python -m cardsim ARGS`` in a fresh interpreter (text output captured, never raises on exit status)."""
    return subprocess.run(cardsim_cmd(*args), capture_output=True, text=True, cwd=cwd, timeout=timeout, env=env)


def default_signals():
    """For a child: SIGINT and SIGTERM unblocked and at their default action (then Python installs
    its own Ctrl-C handler), whatever the test process inherited or set."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)


def assert_usage_error(res_or_proc, *fragments):
    """Exit 2, one `Error:` line on stderr naming the problem (every fragment in it), nothing on
    stdout, no traceback; ``res_or_proc`` is an ``invoke`` result or a ``sub`` process."""
    code = getattr(res_or_proc, "exit_code", None)
    if code is None:
        code = res_or_proc.returncode
    stderr, stdout = res_or_proc.stderr, res_or_proc.stdout
    exc = getattr(res_or_proc, "exception", None)
    assert code == 2, (code, stdout, stderr, exc)
    assert "Traceback" not in stderr + stdout
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("Error: "), stderr
    for frag in fragments:
        assert frag in lines[0], (frag, lines[0])
    assert stdout.strip() == ""
    assert exc is None or isinstance(exc, SystemExit), exc
