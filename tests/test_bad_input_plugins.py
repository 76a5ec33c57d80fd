"""A user's plug-in never makes a silently wrong answer (issue 39): every way a plug-in can be
wrong, as real ``cardsim`` invocations in the bad-input table (``bad_input_harness``).

* **Refused when it loads** (one ``Error:`` line naming it, exit 2, nothing written): a decide
  answering a float or a bool, one writing into its view, legal list or parameter row (they are
  read-only), parameters declared with a default outside the range, twice, high to low, a NaN
  default, a name a label cannot write; a file that raises SystemExit or KeyboardInterrupt.
* **Stopped at run time** (one ``Error:`` line naming the plug-in, what it did, the decision kind
  and the deal; exit 2; no output; finished shards kept for ``--resume``), in every game: a
  decide that raises, divides by zero, answers an illegal index, or (under ``--check``, with
  bounds checking) reads out of bounds.
* **Kept clean:** a plug-in's prints go to stderr, so ``--json`` output parses; a broken installed
  entry point is named in a warning while ``cardsim strategies`` lists the others; a decide that
  never returns is stopped by a second Ctrl-C at once (in every game: a child process each);
  ``--resume`` after the plug-in's file changed is refused.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardsim.sim.plugin as plugin_mod
from cardsim.sim import experiment, runner
from cardsim.sim.errors import UsageError

from bad_input_harness import Case, check_case, make_sources

DATA = Path(__file__).resolve().parent / "data" / "plugins"
FAULTY = DATA / "faulty_plugins.py"
PRINTS = DATA / "printing_plugins.py"
DECL = DATA / "bad_declarations.py"
GAMES = ("tonk", "telefunken", "contract_rummy", "marafon", "trionfo", "tripoli")
DEALS = {"tonk": 20, "telefunken": 2, "contract_rummy": 2, "marafon": 2, "trionfo": 2, "tripoli": 4}
WORK = (".o.parquet.work",)          # what a stopped run keeps: its finished shards, for --resume


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    return make_sources(tmp_path_factory)


def _run(label: str, *extra, game: str = "tonk", out: bool = True) -> tuple:
    return ("run", game, "-n", str(DEALS[game]), "--strategy", label, *extra,
            *(("--out", "o.parquet") if out else ()))


def _decl(name: str, frags: tuple) -> Case:
    return Case(f"declaration: {name}", _run(f"{DECL}:{name}"), 2, (f"{name}", *frags))


def _valid_json(res) -> None:
    doc = json.loads(res.stdout)
    assert doc["meta"]["game"] and "summary" in doc
    assert "decide: kind" in res.stderr                 # its prints: on stderr (the import's too, once a process)


def _edited_plugin(src, d: Path) -> None:
    """An interrupted run of a copy of the low-knock example, whose file is then edited."""
    code = (Path(__file__).resolve().parent.parent / "examples" / "tonk_low_knock.py").read_text()
    (d / "mine.py").write_text(code)
    def stop(done, total, note=""):
        raise KeyboardInterrupt
    old = os.getcwd()
    os.chdir(d)
    try:
        cfg = runner.make_config("tonk", 2, 200, 0, ["mine.py:low_knock", "greedy"], shard_size=50)
        with pytest.raises(KeyboardInterrupt):
            runner.run(cfg, "o.parquet", progress=stop)
    finally:
        os.chdir(old)
    assert (d / ".o.parquet.work").is_dir()
    (d / "mine.py").write_text(code.replace("return -1", "return -1  # edited"))


def _dataset_of_a_plugin():
    """A compare dataset of a copy of the low-knock example against greedy; then its file is edited."""
    def setup(src, d: Path) -> None:
        code = (Path(__file__).resolve().parent.parent / "examples" / "tonk_low_knock.py").read_text()
        (d / "mine.py").write_text(code)
        old = os.getcwd()
        os.chdir(d)
        try:
            exp = experiment.make_compare("tonk", ["mine.py:low_knock", "greedy"], players=2, seed=1)
            experiment.run_experiment(exp, 20, "cmp")
        finally:
            os.chdir(old)
        (d / "mine.py").write_text(code.replace("return -1", "return -1  # edited"))
    return setup


def _broken_entry_point(monkeypatch) -> None:
    class Broken:
        name = "broken_ep"

        def load(self):
            raise ImportError("No module named 'gone'")

    class Other:
        name = "other_game_ep"

        def load(self):
            return plugin_mod._module_of(str(PRINTS)).telefunken_prints
    monkeypatch.setattr(plugin_mod, "_entry_points", lambda: {"broken_ep": Broken(), "other_game_ep": Other()})


def _lists_with_warning(res) -> None:
    assert "knocker" in res.stdout and "broken_ep" not in res.stdout
    warnings = [ln for ln in res.stderr.splitlines() if ln.startswith("Warning:")]
    assert len(warnings) == 1 and "broken_ep" in warnings[0] and "ImportError" in warnings[0], res.stderr


CASES = [
    # -- refused when the plug-in loads
    _decl("fraction_answer", ("decide must return an integer", "float64")),
    _decl("bool_answer", ("decide must return an integer", "bool")),
    _decl("prm_written", ("read-only", "bad_declarations.py, line")),
    _decl("view_written", ("read-only",)),
    _decl("legal_written", ("read-only",)),
    _decl("default_outside", ("parameter 'threshold'", "default 100 is outside its range [0, 50]")),
    _decl("duplicate_names", ("parameter 'threshold' is declared twice",)),
    _decl("high_to_low", ("range [50, 0] runs high to low",)),
    _decl("nan_default", ("default nan is not a finite number",)),
    _decl("inexpressible_name", ("parameter 'a=b,c' cannot be written in a label",)),
    Case("a plug-in file raising SystemExit", _run(f"{DATA / 'exits_at_import.py'}:x"), 2,
         ("does not import: SystemExit: 3",)),
    Case("a plug-in file raising KeyboardInterrupt", _run(f"{DATA / 'interrupts_at_import.py'}:x"), 2,
         ("does not import: KeyboardInterrupt",)),
    # -- stopped at run time (every game: test_every_failure_kind_in_every_game)
    Case("decide raises", _run(f"{FAULTY}:tonk_raises"), 2,
         ("tonk_raises raised ValueError: no decision today", "at decision kind", "in deal 0 (seed 0)",
          "cardsim replay tonk --seed 0 --deal 0"), keep=WORK),
    Case("decide divides by zero, no --out", _run(f"{FAULTY}:tonk_divides", out=False), 2,
         ("raised ZeroDivisionError", "in deal 0")),
    Case("decide reads out of bounds under --check", _run(f"{FAULTY}:tonk_out_of_bounds", "--check"), 2,
         ("raised IndexError", "in deal 0"), keep=WORK),
    Case("compare with a raising plug-in", ("compare", "tonk", "-n", "20", "--strategy", f"{FAULTY}:tonk_raises",
                                            "--strategy", "greedy", "--out", "cmp"), 2,
         ("raised ValueError",), keep=(".cmp.work",)),
    # -- kept clean
    Case("--json with a plug-in that prints", _run(f"{PRINTS}:tonk_prints", "--json", out=False), 0,
         verify=_valid_json),
    Case("--resume after the plug-in's file changed", ("run", "tonk", "-n", "200", "--shard-size", "50",
                                                       "--strategy", "mine.py:low_knock", "--strategy", "greedy",
                                                       "--out", "o.parquet", "--resume"), 2,
         ("cannot resume", "plug-in mine.py:low_knock has changed"), setup=_edited_plugin),
    Case("replay of a dataset whose plug-in changed", ("replay", "cmp", "--deal", "3", "--point", "0", "--lineup",
                                                        "0"), 2, ("plug-in mine.py:low_knock has changed",),
         setup=_dataset_of_a_plugin()),
    Case("a broken installed entry point", ("strategies", "tonk"), 0, patch=_broken_entry_point,
         verify=_lists_with_warning),
]


def test_every_row_has_a_distinct_name():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_plugin_input(case, sources, tmp_path, monkeypatch):
    check_case(case, sources, tmp_path, monkeypatch)


def test_a_file_never_runs_a_plugin_it_does_not_vouch_for(tmp_path, monkeypatch):
    """A table read from a file names a plug-in file whose code digest the file does not record:
    refused before that file is imported (it would raise SystemExit if it were)."""
    from cardsim.sim.registry import get_game
    (tmp_path / "evil.py").write_text((DATA / "exits_at_import.py").read_text())
    monkeypatch.chdir(tmp_path)
    for meta in ({}, {"plugins": {"evil.py:x": "0" * 64}}):
        with pytest.raises(UsageError, match="plug-in evil.py:x has changed since the file was written"):
            runner.check_plugin_code(get_game("tonk"), "evil.py:x", meta, "cmp")
    runner.check_plugin_code(get_game("tonk"), "knocker:threshold=3", {}, "cmp")      # a built-in: nothing to check


# ---- every failure kind in every game -----------------------------------------------------------

KINDS = {"raises": ((), ("raised ValueError: no decision today",)),
         "divides": ((), ("raised ZeroDivisionError",)),
         "illegal": ((), ("returned", "(legal: 0..")),
         "out_of_bounds": (("--check",), ("raised IndexError",))}


@pytest.mark.parametrize("game", GAMES)
def test_every_failure_kind_in_every_game(game, sources, tmp_path, monkeypatch):
    """One plug-in of each failure kind at a table of each game: stopped with one line naming the
    plug-in, what it did, the decision kind and the deal; a printing plug-in leaves --json pure."""
    for i, (kind, (extra, frags)) in enumerate(KINDS.items()):
        case = Case(f"{game} {kind}", _run(f"{FAULTY}:{game}_{kind}", *extra, game=game), 2,
                    (f"{game}_{kind} ", *frags, "at decision kind", "in deal "), keep=WORK)
        (tmp_path / str(i)).mkdir()
        check_case(case, sources, tmp_path / str(i), monkeypatch)
        monkeypatch.undo()
    case = Case(f"{game} prints", _run(f"{PRINTS}:{game}_prints", "--json", game=game, out=False), 0,
                verify=_valid_json)
    (tmp_path / "prints").mkdir()
    check_case(case, sources, tmp_path / "prints", monkeypatch)


# ---- a decide that never returns: Ctrl-C twice -----------------------------------------------------

LAUNCHER = r'''
import sys
from pathlib import Path
import cardsim.sim.runner as R
from cardsim.sim.cli import app

mark, args = Path(sys.argv[1]), sys.argv[2:]
first = R.held_call

def marked(fn, *a):
    mark.touch()                        # the kernel is about to run: the parent may press Ctrl-C
    return first(fn, *a)
R.held_call = marked
app(args, prog_name="cardsim")
'''


def test_a_decide_that_never_returns_stops_at_the_second_ctrl_c(tmp_path):
    """Each game's looping plug-in in a child process: once its kernel runs, the first Ctrl-C
    says it waits for the shard, the second ends the run at once (exit 130), its work kept."""
    procs = {}
    env = dict(os.environ, NUMBA_NUM_THREADS="1", COLUMNS="120")
    for game in GAMES:
        d = tmp_path / game
        d.mkdir()
        args = _run(f"{FAULTY}:{game}_loops", game=game)
        procs[game] = (d, subprocess.Popen([sys.executable, "-c", LAUNCHER, str(d / "mark"), *args], cwd=d,
                                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)))
    try:
        for game, (d, p) in procs.items():
            deadline = time.monotonic() + 300
            while not (d / "mark").exists() and p.poll() is None and time.monotonic() < deadline:
                time.sleep(0.2)
            assert (d / "mark").exists(), (game, p.poll(), p.stderr.read() if p.poll() is not None else "")
            time.sleep(1.0)
            p.send_signal(signal.SIGINT)
            time.sleep(0.5)
            p.send_signal(signal.SIGINT)
            t = time.monotonic()
            _, err = p.communicate(timeout=30)
            assert p.returncode == 130, (game, p.returncode, err)
            assert time.monotonic() - t < 10, game
            assert "Ctrl-C again to stop now" in err and "Interrupted." in err, (game, err)
            assert (d / ".o.parquet.work").is_dir() and not (d / "o.parquet").exists()
    finally:
        for _, p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()
