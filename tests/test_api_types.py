"""The Python API refuses arguments of the wrong type or value (issue 39), as a table.

``CASES`` has one row per case: a call of the API with one bad argument, the exception it must
raise (``UsageTypeError``: a wrong type, a ``UsageError`` that is a ``TypeError`` too;
``UsageError``: a wrong value) and the argument its message must name. Every row runs with the
engine's entry points (the game registry, the config builders, the players) replaced by ones
that fail the row: the refusal must come before anything is imported, compiled, played or
written. Every row runs in its own directory, which holds an earlier run's output and is also
the temporary directory: afterwards nothing in it may have changed (``overwrite="no"`` is
refused, not taken as true, and the output it names is left as it was).
"""
from __future__ import annotations

import inspect
import os
import tempfile
import typing
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import cardsim
from cardsim import api
from cardsim.sim import experiment, odds, registry, runner, step, tune
from cardsim.sim.errors import UsageError, UsageTypeError
from cardsim.sim.io import META_KEY
from cardsim.sim.store import recognise

T, V = UsageTypeError, UsageError
NAN, INF = float("nan"), float("inf")
OUT = "out.parquet"            # an earlier run's output in every row's directory


def row(call, exc, name: str, id: str):
    """A case: ``call(d)`` (``d``: the row's directory) must raise ``exc`` naming ``name``."""
    return pytest.param(call, exc, name, id=id)


CASES = [
    # counts and ids: a str or None, a float, a bool
    row(lambda d: api.run("tonk", deals="x"), T, "deals", "run-deals-str"),
    row(lambda d: api.run("tonk", deals=None), T, "deals", "run-deals-none"),
    row(lambda d: api.run("tonk", deals=100.5), T, "deals", "run-deals-float"),
    row(lambda d: api.run("tonk", deals=True), T, "deals", "run-deals-true"),
    row(lambda d: api.run("tonk", seed="7"), T, "seed", "run-seed-str"),
    row(lambda d: api.run("tonk", seed=None), T, "seed", "run-seed-none"),
    row(lambda d: api.run("tonk", players="2"), T, "players", "run-players-str"),
    row(lambda d: api.run("tonk", players=2.0), T, "players", "run-players-float"),
    row(lambda d: api.run("tonk", players=False), T, "players", "run-players-bool"),
    row(lambda d: api.odds("telefunken", "1"), T, "hand", "odds-hand-str"),
    row(lambda d: api.odds("telefunken", 1.0), T, "hand", "odds-hand-float"),
    row(lambda d: api.replay("tonk", "3"), T, "deal", "replay-deal-str"),
    row(lambda d: api.replay("tonk", True), T, "deal", "replay-deal-true"),
    row(lambda d: api.replay("tonk", 3, seed="0"), T, "seed", "replay-seed-str"),
    row(lambda d: api.compare("tonk", ["greedy", "knocker"], deals=True), T, "deals", "compare-deals-true"),
    row(lambda d: api.sweep("tonk", "knocker", {"threshold": [1, 2]}, deals="100"), T, "deals", "sweep-deals-str"),
    row(lambda d: api.run("tonk", workers=1.0), T, "workers", "run-workers-float"),
    row(lambda d: api.run("tonk", first_deal="0"), T, "first_deal", "run-first-deal-str"),
    row(lambda d: api.run("tonk", shard_size=True), T, "shard_size", "run-shard-size-true"),
    row(lambda d: api.run("tonk", until_ci=0.1, max_deals=True), T, "max_deals", "run-max-deals-true"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, budget="x"), T, "budget", "tune-budget-str"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, rounds=2.5), T, "rounds", "tune-rounds-float"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, rung=True), T, "rung", "tune-rung-true"),
    row(lambda d: api.odds("telefunken", 1, samples=None), T, "samples", "odds-samples-none"),
    row(lambda d: api.odds("telefunken", 1, cards="11"), T, "cards", "odds-cards-str"),
    row(lambda d: api.replay("tonk", 0, point="0"), T, "point", "replay-point-str"),
    row(lambda d: api.replay("tonk", 0, lineup=1.0), T, "lineup", "replay-lineup-float"),
    row(lambda d: api.run("tonk", seed=10 ** 5000), V, "seed", "run-seed-huge"),
    row(lambda d: api.precision_cap(0.1, None, "10"), T, "deals", "precision-cap-deals-str"),
    row(lambda d: api.precision_cap("0.1", None, 10), T, "until_ci", "precision-cap-until-ci-str"),
    # numbers: a str, a bool, NaN, infinity
    row(lambda d: api.run("tonk", until_ci="0.1"), T, "until_ci", "run-until-ci-str"),
    row(lambda d: api.run("tonk", until_ci=True), T, "until_ci", "run-until-ci-true"),
    row(lambda d: api.run("tonk", until_ci=NAN), V, "until_ci", "run-until-ci-nan"),
    row(lambda d: api.compare("tonk", ["greedy", "knocker"], until_ci=INF), V, "until_ci", "compare-until-ci-inf"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, self_play=True, step=NAN), V, "step",
        "tune-step-nan"),
    # names: None, a number
    row(lambda d: api.run(None), T, "game", "run-game-none"),
    row(lambda d: api.run(7), T, "game", "run-game-int"),
    row(lambda d: api.compare(None, ["greedy", "knocker"]), T, "game", "compare-game-none"),
    row(lambda d: api.odds(7, 1), T, "game", "odds-game-int"),
    row(lambda d: api.replay(None), T, "game", "replay-game-none"),
    row(lambda d: api.options(None), T, "game", "options-game-none"),
    row(lambda d: api.presets(7), T, "game", "presets-game-int"),
    row(lambda d: api.rules(None), T, "game", "rules-game-none"),
    row(lambda d: api.columns(7), T, "game", "columns-game-int"),
    row(lambda d: api.strategies(None), T, "game", "strategies-game-none"),
    row(lambda d: api.run("tonk", preset=3), T, "preset", "run-preset-int"),
    row(lambda d: api.compare("tonk", ["greedy", "knocker"], field=3), T, "field", "compare-field-int"),
    row(lambda d: api.sweep("tonk", None, {"threshold": [1, 2]}), T, "strategy", "sweep-strategy-none"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, sampler=3), T, "sampler", "tune-sampler-int"),
    row(lambda d: api.run("tonk", cluster=4), T, "cluster", "run-cluster-int"),
    row(lambda d: api.run("tonk", scheduler=5), T, "scheduler", "run-scheduler-int"),
    # lists of labels: an item that is not a str, one str read letter by letter
    row(lambda d: api.run("tonk", strategies=[None]), T, "strategies", "run-strategies-none-item"),
    row(lambda d: api.run("tonk", strategies=[3]), T, "strategies", "run-strategies-int-item"),
    row(lambda d: api.run("tonk", strategies="knocker"), T, "strategies", "run-strategies-str"),
    row(lambda d: api.run("tonk", strategies={"greedy"}), T, "strategies", "run-strategies-set"),
    row(lambda d: api.compare("tonk", "knocker"), T, "strategies", "compare-strategies-str"),
    row(lambda d: api.compare("tonk", None), T, "strategies", "compare-strategies-none"),
    row(lambda d: api.compare("tonk", ["greedy", None]), T, "strategies", "compare-strategies-none-item"),
    row(lambda d: api.replay("tonk", 0, strategies=[3]), T, "strategies", "replay-strategies-int-item"),
    row(lambda d: api.strategies("tonk", plugins="x.py:s"), T, "plugins", "strategies-plugins-str"),
    row(lambda d: api.strategies("tonk", plugins=[None]), T, "plugins", "strategies-plugins-none-item"),
    row(lambda d: api.strategy_specs("tonk", plugins="x.py:s"), T, "plugins", "strategy-specs-plugins-str"),
    # option and grid mappings: str keys, values of the accepted kinds
    row(lambda d: api.run("tonk", options="stake=2"), T, "options", "run-options-str"),
    row(lambda d: api.run("tonk", options=["stake=2", 3]), T, "options", "run-options-int-item"),
    row(lambda d: api.run("tonk", options={3: "x"}), T, "options", "run-options-int-key"),
    row(lambda d: api.run("tonk", options={"stake": object()}), T, "options", "run-options-object-value"),
    row(lambda d: api.run("tonk", options={"stake": NAN}), V, "options", "run-options-nan-value"),
    row(lambda d: api.run("tonk", options={"deal_tonk_totals": [49, None]}), T, "options", "run-options-none-in-list"),
    row(lambda d: api.run("tonk", options=5), T, "options", "run-options-int"),
    row(lambda d: api.replay("tonk", 0, options={1: 2}), T, "options", "replay-options-int-key"),
    row(lambda d: api.sweep("tonk", "knocker", "threshold=0:4:2"), T, "params", "sweep-params-str"),
    row(lambda d: api.sweep("tonk", "knocker", {1: [1, 2]}), T, "params", "sweep-params-int-key"),
    row(lambda d: api.sweep("tonk", "knocker", {"threshold": object()}), T, "params", "sweep-params-object"),
    row(lambda d: api.sweep("tonk", "knocker", {"threshold": [1, INF]}), V, "params", "sweep-params-inf"),
    row(lambda d: api.sweep("tonk", "knocker", {"threshold": [1, 2]}, option_grid="stake=1,2"), T, "option_grid",
        "sweep-option-grid-str"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, "x")}), T, "params", "tune-params-str-bound"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, NAN)}), V, "params", "tune-params-nan-bound"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": 5}), T, "params", "tune-params-number"),
    row(lambda d: api.tune("tonk", "knocker", None), T, "params", "tune-params-none"),
    # flags: a str, a number, None (overwrite="no" against an existing output leaves it as it was)
    row(lambda d: api.run("tonk", deals=10, out=d / OUT, overwrite="no"), T, "overwrite", "run-overwrite-no"),
    row(lambda d: api.compare("tonk", ["greedy", "knocker"], out=d / "cmp", overwrite="no"), T, "overwrite",
        "compare-overwrite-no"),
    row(lambda d: api.sweep("tonk", "knocker", {"threshold": [1, 2]}, out=d / "sw", overwrite=1), T, "overwrite",
        "sweep-overwrite-int"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, out=d / "tn", overwrite="false"), T,
        "overwrite", "tune-overwrite-str"),
    row(lambda d: api.Result("run", pd.DataFrame(), {"game": "tonk"}, path=str(d / OUT)).report(d / "rep", "no"),
        T, "overwrite", "report-overwrite-no"),
    row(lambda d: api.run("tonk", deals=10, out=d / OUT, resume="yes"), T, "resume", "run-resume-str"),
    row(lambda d: api.run("tonk", keep_records="false"), T, "keep_records", "run-keep-records-str"),
    row(lambda d: api.run("tonk", check=1), T, "check", "run-check-int"),
    row(lambda d: api.run("tonk", check=None), T, "check", "run-check-none"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, self_play="yes"), T, "self_play",
        "tune-self-play-str"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, verbose="no"), T, "verbose", "tune-verbose-str"),
    row(lambda d: api.replay("tonk", 0, force="no"), T, "force", "replay-force-str"),
    row(lambda d: api.replay("tonk", 0, check="yes"), T, "check", "replay-check-str"),
    row(lambda d: api.columns("tonk", dataset=1), T, "dataset", "columns-dataset-int"),
    # paths and callbacks
    row(lambda d: api.run("tonk", out=3), T, "out", "run-out-int"),
    row(lambda d: api.run("tonk", out=os.fsencode(d / "x.parquet")), T, "out", "run-out-bytes"),
    row(lambda d: api.Result("run", pd.DataFrame(), {}, path=str(d / OUT)).report(None), T, "out_dir",
        "report-out-dir-none"),
    row(lambda d: api.run("tonk", progress=3), T, "progress", "run-progress-int"),
    row(lambda d: api.compare("tonk", ["greedy", "knocker"], notice="x"), T, "notice", "compare-notice-str"),
    row(lambda d: api.tune("tonk", "knocker", {"threshold": (0, 9)}, say=1), T, "say", "tune-say-int"),
    row(lambda d: api.replay("tonk", 0, warn=2), T, "warn", "replay-warn-int"),
    row(lambda d: api.odds("telefunken", 1, progress="bar"), T, "progress", "odds-progress-str"),
    # a call Python cannot bind: a misspelt or a missing argument
    row(lambda d: api.run("tonk", dealz=5), T, "dealz", "run-unknown-argument"),
    row(lambda d: api.sweep("tonk"), T, "strategy", "sweep-missing-argument"),
]


@pytest.fixture
def nothing_runs(monkeypatch):
    """The engine's entry points replaced by ones that fail the row: a refusal must come first."""
    def reached(*args, **kwargs):
        raise AssertionError("the engine was reached: the argument was not refused first")
    for mod, name in ((registry, "get_game"), (runner, "make_config"), (runner, "run"),
                      (runner, "open_replay_source"), (runner, "replay_document"), (experiment, "make_compare"),
                      (experiment, "make_sweep"), (experiment, "run_experiment"), (tune, "make_tune"),
                      (tune, "run_tune"), (odds, "contract_odds")):
        monkeypatch.setattr(mod, name, reached)


def earlier_run(path: Path) -> None:
    """A file cardsim takes for an earlier run's output (one ``overwrite=True`` would replace)."""
    table = pa.table({"deal_id": [0]}).replace_schema_metadata({META_KEY: b'{"game": "tonk"}'})
    pq.write_table(table, path)
    assert recognise(path) == ("run", None)


def snapshot(root: Path) -> dict:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath, name)
            out[str(p.relative_to(root))] = None if p.is_dir() else p.read_bytes()
    return out


@pytest.mark.parametrize("call,exc,name", CASES)
def test_bad_argument_is_refused_before_anything_runs(call, exc, name, tmp_path, monkeypatch, nothing_runs):
    earlier_run(tmp_path / OUT)
    (tmp_path / "sentinel.txt").write_text("not cardsim's\n")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))        # a result's temporary records land here
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(exc) as info:
        call(tmp_path)
    if exc is V:
        assert not isinstance(info.value, TypeError), info.value   # a wrong value, not a wrong type
    message = str(info.value)
    assert name in message, message
    assert "\n" not in message and len(message) < 400, message
    assert snapshot(tmp_path) == before, "something was written"


def test_a_huge_or_hostile_value_is_shown_short():
    class Hostile:
        def __repr__(self):
            raise RuntimeError("no repr")
    with pytest.raises(T, match=r"strategies\[0\] .*got <a 16610-bit integer> \(int\)"):
        api.run("tonk", strategies=[10 ** 5000])
    with pytest.raises(T, match=r"got <a Hostile> \(Hostile\)"):
        api.run("tonk", deals=Hostile())
    with pytest.raises(T) as info:
        api.run("tonk", strategies="x" * 500)
    assert len(str(info.value)) < 250


def test_the_message_says_what_is_accepted():
    with pytest.raises(T, match=r"^deals must be a whole number \(int\), got 'x' \(str\)$"):
        api.run("tonk", deals="x")
    with pytest.raises(T, match=r"^overwrite must be True or False \(bool\), got 'no' \(str\)$"):
        api.run("tonk", overwrite="no")
    with pytest.raises(T, match=r"write \['knocker'\] for one"):
        api.run("tonk", strategies="knocker")
    for exc in (T, V):                     # the README's promise: a UsageError; a wrong type is a TypeError too
        assert issubclass(exc, cardsim.UsageError) and issubclass(exc, ValueError)
    assert issubclass(T, TypeError)


def test_numpy_numbers_are_taken_as_python_ones(monkeypatch):
    """np.int64 where an int is taken, an int where a float is, np.bool_ for a flag: they reach
    the engine as int, float and bool (metadata stays JSON)."""
    seen = {}

    def make_config(*args):
        seen["args"] = args
        raise UsageError("stop")
    monkeypatch.setattr(runner, "make_config", make_config)
    with pytest.raises(UsageError, match="stop"):
        api.run("tonk", players=np.int64(2), deals=np.int32(10), seed=np.uint8(3), check=np.bool_(True),
                options={"stake": np.int64(2), "deal_tonk_totals": (np.int64(49), 50)}, strategies=("greedy",))
    _, players, deals, seed, strategies, options, _, _, check = seen["args"][:9]
    assert (players, deals, seed, check) == (2, 10, 3, True)
    assert [type(x) for x in (players, deals, seed, check)] == [int, int, int, bool]
    assert strategies == ["greedy"] and options == ["stake=2", "deal_tonk_totals=49,50"]
    assert api.precision_cap(np.int64(1), None, np.int64(10)) == 1000              # an int where a float is
    monkeypatch.undo()
    with pytest.raises(UsageError, match="takes 2 to 4 players"):                 # the engine's own range check
        api.run("tonk", players=np.int64(9))


def test_mappings_become_the_command_line_texts():
    assert api._option_texts({"exchange_rounds": {6: 1}, "b": True, "c": None, "e": (), "f": np.float64(0.5)}) == \
        ["exchange_rounds={6: 1}", "b=true", "c=none", "e={}", "f=0.5"]
    assert api._grid_texts({"threshold": np.arange(0, 3), "t": (1, 2), "u": 5, "v": "0:4:2", "w": [True]}) == \
        ["threshold=0,1,2", "t=1,2", "u=5", "v=0:4:2", "w=true"]
    assert api._box_texts({"threshold": (0, 12), "decay": [0.5, 1, 0.25]}) == ["threshold=0:12", "decay=0.5:1:0.25"]
    assert api._option_texts(("stake=2",)) == ["stake=2"] and api._option_texts(None) == []


def test_every_public_argument_is_checked_and_typed():
    """Every public function (and Result.report) checks its arguments first, and every
    argument has a type hint a type checker can resolve."""
    public = [getattr(api, n) for n in api.__all__ if n != "Result"]
    public += [api.strategy_specs, api.precision_cap, api.Result.report]
    for fn in public:
        assert hasattr(fn, "__wrapped__"), f"{fn.__name__} does not check its arguments"
        hints = typing.get_type_hints(fn)
        params = [p for p in inspect.signature(fn).parameters if p != "self"]
        assert set(params) <= set(hints) and "return" in hints, fn.__name__
    for name in ("run", "compare", "sweep", "tune", "odds", "replay", "games", "strategies", "options"):
        assert getattr(cardsim, name) is getattr(api, name)


# ---- the step API (sim.step, what the OpenSpiel bridge wraps) ------------------------------------

STEP_CASES = [("players '2'", lambda: step.new_game("tonk", players="2"), UsageTypeError, "players"),
              ("players 2.7", lambda: step.new_game("tonk", players=2.7), UsageTypeError, "players"),
              ("players True", lambda: step.new_game("tonk", players=True), UsageTypeError, "players"),
              ("options as a str", lambda: step.new_game("tonk", options="stake=2"), UsageTypeError, "options"),
              ("game None", lambda: step.new_game(None), UsageError, "no step API"),
              ("apply('x')", lambda: _tonk_state().apply("x"), UsageTypeError, "action"),
              ("apply(2.5)", lambda: _tonk_state().apply(2.5), UsageTypeError, "action"),
              ("apply(True)", lambda: _tonk_state().apply(True), UsageTypeError, "action"),
              ("observation_string('0')", lambda: _tonk_state().observation_string("0"), UsageTypeError, "seat"),
              ("observation_tensor(5)", lambda: _tonk_state().observation_tensor(5), UsageError, "seat 5"),
              ("information_state_string(-1)", lambda: _tonk_state().information_state_string(-1), UsageError,
               "seat -1")]


def _tonk_state():
    return step.new_game("tonk", players=2).new_state()


@pytest.mark.parametrize("what, call, exc, words", STEP_CASES, ids=[c[0] for c in STEP_CASES])
def test_the_step_api_refuses_what_is_not_an_action_or_a_seat(what, call, exc, words):
    """``int("3")``, ``int(2.7)`` and ``int(True)`` are never taken as an action, a seat or a
    player count; a seat out of range is named."""
    with pytest.raises(exc, match=words):
        call()


# ---- errors name what the caller typed ---------------------------------------------------------

def test_api_errors_name_api_arguments_and_the_cli_names_flags():
    """The same check read from Python names the call's arguments (``max_deals``, ``until_ci``,
    ``strategies``), on the command line its flags (``--max-deals``); a flag the call has no
    argument for stays as written."""
    with pytest.raises(UsageError) as exc:
        cardsim.run("tonk", deals=10, max_deals=5)
    assert "max_deals caps until_ci" in str(exc.value) and "--" not in str(exc.value)
    assert api.api_words("--strategy: give --option x and --frobnicate", {"strategies", "options"}) == \
        "strategies: give options x and --frobnicate"
    from cli_helpers import assert_usage_error, invoke
    assert_usage_error(invoke("run", "tonk", "--deals", "10", "--max-deals", "5"), "--max-deals caps --until-ci")
