"""Issue 18: ``odds`` and ``report`` show progress by expected time. ``odds`` draws its samples
in pieces (each piece re-keys the seed so it draws the very samples of the one call: the
answer is identical); ``report`` counts its stages (the records read, each plot written).
Progress is checked with a recorder and with the CLI's bar on a fake clock."""
from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

import cardsim.sim.cli as cli_mod
import cardsim.sim.odds as odds_mod
from cardsim.sim.cli import LiveProgress
from cardsim.sim.odds import contract_odds, shifted_seed
from cli_helpers import invoke


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, done, total, note=""):
        self.calls.append((done, total, note))


def test_shifted_seed_keys_the_later_samples():
    from cardsim.kernels.rng import STREAM_DECK, stream_key
    for seed in (0, 7, 2 ** 63 - 1):
        for first in (1, 1 << 14, 10 ** 10):
            moved = shifted_seed(seed, first)
            assert -2 ** 63 <= moved < 2 ** 63
            for s in (0, 3, 4096):
                assert int(stream_key(moved, s, STREAM_DECK)) == int(stream_key(seed, first + s, STREAM_DECK))


@pytest.mark.parametrize("game, hand, extra", [("telefunken", 1, {}), ("contract_rummy", 2, {"players": 4})])
def test_odds_in_pieces_is_the_one_call(game, hand, extra, monkeypatch):
    monkeypatch.setattr(odds_mod, "FIRST_PIECE", 1000)
    monkeypatch.setattr(odds_mod, "PIECE_S", 0.0)           # every piece the smallest: many pieces
    whole = contract_odds(game, hand, samples=5_500, seed=11, **extra)
    rec = Recorder()
    pieces = contract_odds(game, hand, samples=5_500, seed=11, progress=rec, **extra)
    assert pieces == whole
    done = [d for d, _, _ in rec.calls]
    assert done[0] == 0 and done[-1] == 5_500 and done == sorted(done) and len(done) >= 6
    assert {t for _, t, _ in rec.calls} == {5_500}


class FakeClock:
    """Each reading is a second later: every run looks long, so the bar shows."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        self.t += 1.0
        return self.t


def _fake_bars(monkeypatch):
    console = Console(file=io.StringIO(), width=160)
    bars = []

    def progress(total, quiet, unit="deals", what="playing"):
        if quiet:
            return cli_mod.contextlib.nullcontext(), None
        bar = LiveProgress(total, unit, console=console, clock=FakeClock(), timer=False, what=what)
        bars.append(bar)
        return bar, bar

    monkeypatch.setattr(cli_mod, "_progress", progress)
    return console, bars


def test_cli_odds_shows_progress_and_the_same_answer(monkeypatch):
    monkeypatch.setattr(odds_mod, "FIRST_PIECE", 1000)
    console, bars = _fake_bars(monkeypatch)
    res = invoke("odds", "telefunken", "--hand", 1, "--samples", 4000, "--seed", 3)
    assert res.exit_code == 0, res.output
    assert len(bars) == 1 and bars[0].started
    task = bars[0].bar.tasks[0]
    assert task.completed == task.total == 4000
    assert "samples/s" in task.fields["rate"]
    plain = invoke("odds", "telefunken", "--hand", 1, "--samples", 4000, "--seed", 3, "--json")
    assert plain.exit_code == 0 and len(bars) == 1                      # --json: no bar
    r = json.loads(plain.stdout)
    assert f"{r['hits']:,} of 4,000 samples" in res.stdout


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    from cardsim.sim import runner
    path = tmp_path_factory.mktemp("progress") / "run.parquet"
    runner.run(runner.make_config("tonk", 3, 300, 1, ["greedy", "knocker", "watcher"]), str(path))
    return path


def test_report_tells_its_stages(run_file, tmp_path):
    pytest.importorskip("matplotlib")
    from cardsim.sim.report import write_report
    rec = Recorder()
    write_report(str(run_file), str(tmp_path / "r"), progress=rec)
    assert [d for d, _, _ in rec.calls] == [0, 1, 2, 3, 4, 4]
    assert {t for _, t, _ in rec.calls} == {4}
    notes = [n for _, _, n in rec.calls]
    assert notes[1] == "read the records"
    assert {"drew strategies.png", "drew payouts.png", "drew outcomes.png"} <= set(notes)


def test_cli_report_shows_progress(run_file, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    console, bars = _fake_bars(monkeypatch)
    res = invoke("report", run_file, "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    assert len(bars) == 1 and bars[0].started
    task = bars[0].bar.tasks[0]
    assert task.completed == task.total == 4
    assert (tmp_path / "r" / "report.md").is_file()
