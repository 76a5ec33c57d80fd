"""The Python API for notebook users (issue 43): ``progress=True`` draws a bar and a progress
callable is called as documented, ``cardsim.load`` / ``cardsim.summarize`` read every output
back, results print short, compare/sweep records carry their point's label, and the API's
defaults are the command line's. Small Tonk games: the outputs are written once per module."""
from __future__ import annotations

import inspect
import sys

import pandas as pd
import pytest

import cardsim
from cardsim import api
from cardsim.sim.errors import UsageError, UsageTypeError

TONK = {"players": 2, "seed": 3}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """One output of every kind (run, compare, sweep, tune, critique) and the result that wrote it."""
    d = tmp_path_factory.mktemp("outputs")
    return {
        "run": (d / "run.parquet", cardsim.run("tonk", deals=1500, out=d / "run.parquet", **TONK)),
        "compare": (d / "compare", cardsim.compare("tonk", ["knocker:threshold=4", "knocker:threshold=10"],
                                                   deals=800, out=d / "compare", **TONK)),
        "sweep": (d / "sweep", cardsim.sweep("tonk", "knocker", {"threshold": [2, 8, 14]}, deals=600,
                                             out=d / "sweep", **TONK)),
        "tune": (d / "tune", cardsim.tune("tonk", "knocker", {"threshold": (0, 20)}, budget=1500, out=d / "tune",
                                          **TONK)),
        "critique": (d / "critique", cardsim.critique("tonk", ["greedy"], decisions=6, worlds=8, out=d / "critique",
                                                      **TONK)),
    }


# ---- progress ------------------------------------------------------------------------------------

def test_a_progress_callable_is_called_with_the_documented_arguments():
    """progress(done, total, note): two ints and a str, whichever function plays; a callable with
    no default for note works (the engine's calls without a note get "")."""
    for name, call in [("run", lambda cb: cardsim.run("tonk", deals=600, progress=cb, **TONK)),
                       ("compare", lambda cb: cardsim.compare("tonk", ["greedy", "knocker"], deals=300, progress=cb,
                                                              **TONK)),
                       ("tune", lambda cb: cardsim.tune("tonk", "knocker", {"threshold": (0, 9)}, budget=900,
                                                        progress=cb, keep_records=False, **TONK)),
                       ("critique", lambda cb: cardsim.critique("tonk", ["greedy"], decisions=3, worlds=4,
                                                                progress=cb, **TONK))]:
        calls = []

        def cb(done, total, note):                # exactly the documented signature
            calls.append((done, total, note))
        call(cb)
        assert calls, name
        assert all(type(d) is int and type(t) is int and type(n) is str for d, t, n in calls), (name, calls[:3])
        assert calls[-1][0] >= calls[-1][1] > 0 or name == "tune", (name, calls[-1])


def test_progress_true_draws_a_bar_and_false_none(capfd):
    cardsim.run("tonk", deals=700, progress=True, **TONK)
    err = capfd.readouterr().err
    assert "100%" in err and "700/700" in err and "deals" in err, err[-300:]
    cardsim.run("tonk", deals=700, progress=False, **TONK)
    assert capfd.readouterr().err == ""


def test_progress_true_without_tqdm_uses_rich(capfd, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)       # import tqdm... fails
    monkeypatch.setitem(sys.modules, "tqdm.std", None)
    cardsim.run("tonk", deals=500, progress=True, **TONK)
    assert "500/500" in capfd.readouterr().err


def test_progress_must_be_a_callable_or_a_bool():
    with pytest.raises(UsageTypeError, match=r"^progress must be a callable, True \(a progress bar\) or False"):
        cardsim.run("tonk", progress="bar")


# ---- load / summarize ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["run", "compare", "sweep", "tune", "critique"])
def test_load_and_summarize_read_every_output_back(outputs, kind):
    path, written = outputs[kind]
    for read in (cardsim.load(path), cardsim.summarize(str(path))):
        assert type(read) is type(written) and read.kind == written.kind == kind
        assert read.meta["game"] == "tonk"
        pd.testing.assert_frame_equal(read.summary, written.summary)
        if kind == "critique":
            assert read.path == str(path) and len(read.decisions) == len(written.decisions)
            assert read.text().splitlines()[0] == written.text().splitlines()[0]
        else:
            assert len(read.records) == len(written.records)


def test_load_refuses_what_is_no_output(tmp_path, outputs):
    with pytest.raises(UsageError, match="no such file"):
        cardsim.load(tmp_path / "missing.parquet")
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(UsageError, match="not a cardsim output: it is not a Parquet file"):
        cardsim.load(tmp_path / "notes.txt")
    with pytest.raises(UsageTypeError, match="^path must be a path"):
        cardsim.load(3)
    path, written = outputs["run"]
    report = written.report(tmp_path / "report") if _has("matplotlib") else None
    if report is not None:
        with pytest.raises(UsageError, match="is a cardsim report"):
            cardsim.load(report.parent)


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# ---- what a notebook shows ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["run", "compare", "sweep", "tune", "critique"])
def test_a_result_prints_short(outputs, kind):
    _, res = outputs[kind]
    text = repr(res)
    lines = text.splitlines()
    assert lines[0].startswith(f"cardsim {kind}: tonk, 2 players"), lines[0]
    assert len(lines) <= 14 and max(map(len, lines)) <= 140 and len(text) < 1500, text
    assert "meta=" not in text and "DataFrame" not in text
    html = res._repr_html_()
    assert html.startswith(f"<p><b>cardsim {kind}: tonk") and "<table" in html


@pytest.mark.parametrize("kind", ["compare", "sweep"])
def test_experiment_records_carry_the_point_label(outputs, kind):
    _, res = outputs[kind]
    rec = res.records
    assert list(rec.columns[:3]) == ["deal_id", "point", "label"]
    labels = {p["point"]: p["label"] for p in res.meta["points"]}
    assert (rec["label"].astype(str) == rec["point"].map(labels)).all()
    assert set(rec["label"].cat.categories) == set(res.summary["label"])


# ---- one default size ------------------------------------------------------------------------------

CLI_NAMES = {"strategy": "strategies", "option": "options", "param": "params", "self": "self_play"}


def test_the_api_defaults_are_the_command_lines():
    """Every option a command shares with its API function has the same default (deals included:
    cardsim run and cardsim.run both play api.DEALS deals)."""
    import typer

    from cardsim.sim.cli import app
    commands = typer.main.get_command(app).commands
    for name in ("run", "compare", "sweep", "tune", "odds", "critique"):
        sig = inspect.signature(getattr(api, name))
        for p in commands[name].params:
            arg = sig.parameters.get(CLI_NAMES.get(p.name, p.name))
            if arg is None or arg.default is inspect.Parameter.empty:
                continue
            empty = (None, [], (), False)
            assert p.default == arg.default or (p.default in empty and arg.default in empty), (name, p.name)
    assert inspect.signature(api.run).parameters["deals"].default == api.DEALS == 100_000
