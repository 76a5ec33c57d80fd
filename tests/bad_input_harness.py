"""The table-driven bad-input harness (``tests/test_bad_input*.py``): a ``Case`` is one real
``cardsim`` invocation with the exit code it must end with (2 bad input, 1 a failure, 0 where
the fix is a correct answer) and what its one ``Error:`` line (or its output) must say.
``check_case`` runs it in a fresh directory holding a sentinel file beside every output and
the row's input files; afterwards nothing in that directory may have changed (no output, no
work directory, no partial file, inputs and sentinels intact) but what the row may ``keep``."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest
from typer.testing import CliRunner

from cardsim.sim import experiment, runner
from cardsim.sim.cli import app


def make_sources(tmp_path_factory) -> dict:
    """A small Tonk run file and compare dataset the file rows are made from."""
    d = tmp_path_factory.mktemp("bad_input_sources")
    run_file = d / "run.parquet"
    runner.run(runner.make_config("tonk", 2, 300, 1, ["greedy", "knocker"]), str(run_file))
    dataset = d / "cmp"
    experiment.run_experiment(experiment.make_compare("tonk", ["greedy", "knocker"], players=2, seed=1), 200,
                              str(dataset))
    return {"run": run_file, "part": next((dataset / "point-0").glob("*.parquet"))}


@dataclass
class Case:
    name: str
    args: tuple
    code: int
    err: tuple = ()                       # fragments of the single Error: line
    setup: Callable | None = None         # (sources, directory) -> input files
    patch: Callable | None = None         # (monkeypatch) -> game patch (failure rows)
    verify: Callable | None = None        # (result) -> further checks of a successful row
    keep: tuple = ()                      # what a successful row may add to its directory
    not_in: tuple = field(default_factory=tuple)   # must not be in the Error line


def snapshot(root: Path) -> dict:
    """Every path under ``root`` (hidden ones too) with its bytes (None for a directory)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            out[os.path.relpath(os.path.join(dirpath, name), root)] = None
        for name in filenames:
            p = os.path.join(dirpath, name)
            out[os.path.relpath(p, root)] = Path(p).read_bytes()
    return out


def check_case(case: Case, sources, tmp_path: Path, monkeypatch) -> None:
    if case.args[0] == "report":
        pytest.importorskip("matplotlib")
    work = tmp_path / "work"
    work.mkdir()
    (work / "sentinel.txt").write_text("not cardsim's\n")          # beside every output of the row
    (work / "rep.txt").write_text("beside the report directory\n")
    if case.setup is not None:
        case.setup(sources, work)
    before = snapshot(work)
    monkeypatch.chdir(work)
    if case.patch is not None:
        case.patch(monkeypatch)
    res = CliRunner().invoke(app, list(case.args))
    text = res.stdout + res.stderr
    assert "Traceback" not in text, text
    assert res.exit_code == case.code, (res.exit_code, text)
    if case.code:
        lines = res.stderr.strip().splitlines()
        assert lines and lines[0].startswith("Error: "), res.stderr
        if case.code == 2:
            assert len(lines) == 1, res.stderr
        for frag in case.err:
            assert frag in lines[0], (frag, lines[0])
        for frag in case.not_in:
            assert frag not in lines[0], (frag, lines[0])
        assert res.stdout == "", res.stdout
    if case.verify is not None:
        case.verify(res)
    after = snapshot(work)
    added = {p for p in after if p not in before and not any(p == k or p.startswith(k + os.sep) for k in case.keep)}
    assert not added, f"created {sorted(added)}"
    assert not [p for p in before if p not in after], "removed files"
    assert [p for p in before if after[p] != before[p]] == [], "changed files"
