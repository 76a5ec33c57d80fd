"""First use of a game's kernels: the compile notice, ``cardsim warmup``, and that a run of one
game imports no other game's modules."""
from __future__ import annotations

import io
import subprocess
import sys

import numba
import pytest
from rich.console import Console
from typer.testing import CliRunner

import cardsim.sim.cli as cli_mod
from cardsim.sim import warm
from cardsim.sim.cli import app


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The markers live in a fresh directory (the kernels' own cache is untouched)."""
    import cardsim.kernels.tonk  # noqa: F401  (kernels sets numba.config.CACHE_DIR when first imported; a
    #                                  dispatcher picks its cache directory when it is created)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    return tmp_path


def test_notice_until_the_game_is_compiled(cache):
    line = warm.notice("telefunken")
    assert line.startswith("compiling telefunken kernels once, about ")
    assert "cardsim warmup telefunken" in line
    warm.mark_compiled("telefunken")
    assert warm.notice("telefunken") is None
    assert warm.notice("telefunken", "replay").startswith("compiling telefunken replay kernels once")
    assert warm.notice("tonk") is not None


def test_a_search_seat_adds_the_search_kernels_to_the_notice(cache):
    line = warm.notice("tonk", "play", search=True)
    assert line.startswith("compiling tonk kernels and search kernels once, about ")
    warm.mark_compiled("tonk")
    assert warm.notice("tonk", "play", search=True).startswith("compiling tonk search kernels once")
    assert warm.notice("tonk", "play") is None
    warm.mark_compiled("tonk", "search")
    assert warm.notice("tonk", "replay", search=True).startswith("compiling tonk replay kernels once")


def test_run_prints_the_notice_once_on_a_terminal(cache, monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(cli_mod, "err", Console(file=buf, force_terminal=True, soft_wrap=True))
    runner = CliRunner()
    first = runner.invoke(app, ["run", "tonk", "--deals", "50"])
    assert first.exit_code == 0, first.output
    assert buf.getvalue().count("compiling tonk kernels once") == 1
    second = runner.invoke(app, ["run", "tonk", "--deals", "50"])
    assert second.exit_code == 0
    assert buf.getvalue().count("compiling tonk kernels once") == 1
    assert "compiling" not in first.stdout + second.stdout


def test_the_notice_also_when_not_a_terminal_but_not_when_quiet_or_json(cache):
    """Issue 43: a log or a pipe says why the first run waits too (stderr); --quiet and --json
    say nothing."""
    runner = CliRunner()
    for args in (["run", "tonk", "--deals", "20", "--json"], ["run", "tonk", "--deals", "20", "--quiet"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 0
        assert "compiling" not in res.output
        (cache / "cardsim-tonk-play.compiled").unlink()      # as if not compiled yet, again
    res = runner.invoke(app, ["run", "tonk", "--deals", "20"])
    assert res.exit_code == 0
    assert res.stderr.count("compiling tonk kernels once") == 1 and "compiling" not in res.stdout


def test_odds_say_when_they_compile_and_warmup_compiles_them(cache):
    """Issue 43: ``cardsim odds`` says it compiles the first time (its kernels are an entry of
    their own, ``odds``), and ``cardsim warmup`` compiles them for the games that have odds."""
    runner = CliRunner()
    res = runner.invoke(app, ["odds", "telefunken", "--hand", "1", "--samples", "200"])
    assert res.exit_code == 0, res.output
    assert res.stderr.count("compiling telefunken odds kernels once") == 1
    again = runner.invoke(app, ["odds", "telefunken", "--hand", "1", "--samples", "200"])
    assert again.exit_code == 0 and "compiling" not in again.stderr
    assert "odds" in warm.entries_of("telefunken") and "odds" not in warm.entries_of("tonk")
    res = runner.invoke(app, ["odds", "tonk", "--hand", "1"])
    assert res.exit_code == 2 and "compiling" not in res.output             # no odds: no notice, one error


def test_critique_says_when_it_compiles_and_warmup_compiles_it(cache):
    """Issue 43: ``cardsim critique`` says it compiles the first time (an entry of its own,
    ``critique``, which ``cardsim warmup`` compiles for every game), not the second time."""
    runner = CliRunner()
    res = runner.invoke(app, ["critique", "tonk", "--strategy", "greedy", "--decisions", "3", "--worlds", "2"])
    assert res.exit_code == 0, res.output
    assert res.stderr.count("compiling tonk critique kernels once") == 1
    again = runner.invoke(app, ["critique", "tonk", "--strategy", "greedy", "--decisions", "3", "--worlds", "2"])
    assert again.exit_code == 0 and "compiling" not in again.stderr
    assert all(warm.entries_of(g)[-1] == "critique" for g in ("tonk", "telefunken"))


def test_warmup_compiles_and_marks(cache):
    res = CliRunner().invoke(app, ["warmup", "tonk", "--quiet"])
    assert res.exit_code == 0, res.output
    assert warm.is_compiled("tonk") and warm.is_compiled("tonk", "replay") and warm.is_compiled("tonk", "search")
    assert not warm.is_compiled("tonk", "odds")                   # Tonk has no odds: no entry of them
    res = CliRunner().invoke(app, ["warmup", "tonk"])
    assert res.exit_code == 0
    assert res.stdout.startswith("tonk: kernels compiled in ")


def test_warmup_refuses_an_unknown_game(cache):
    res = CliRunner().invoke(app, ["warmup", "chess"])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == ["Error: unknown game 'chess'; games: contract_rummy, marafon, telefunken, "
                                               "tonk, trionfo, tripoli"]


def test_warmup_refuses_no_jobs(cache):
    res = CliRunner().invoke(app, ["warmup", "all", "--jobs", "0"])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == ["Error: --jobs must be at least 1, not 0"]


def test_games_warm_side_by_side_in_their_own_processes():
    """``warmup all`` compiles the games in fresh interpreters, two at once here: every entry of
    each game is reported as it is cached and marked in the cache the runs use (the suite's own
    cache: the two cheapest games)."""
    seen = []
    warm.warm_in_processes(["tonk", "trionfo"], warm.ENTRIES, 2, lambda g, e: seen.append((g, e)))
    assert sorted(seen) == sorted((g, e) for g in ("tonk", "trionfo") for e in warm.ENTRIES)
    assert all(warm.is_compiled(g, e) for g, e in seen)


def test_a_failed_warmup_process_is_one_error():
    with pytest.raises(warm.WarmupError, match=r"^compiling chess failed: .*unknown game 'chess'"):
        warm.warm_in_processes(["chess", "tonk"], ("play",), 2)


@pytest.mark.parametrize("game", ["tonk", "marafon"])
def test_a_game_imports_only_its_own_modules(game):
    code = ("import sys\nfrom cardsim.sim.runner import make_config\n"
            f"make_config({game!r}, deals=1)\n"
            "print(sorted(m for m in sys.modules if m.startswith(('cardsim.kernels.', 'cardsim.sim.games.'))))")
    mods = eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    others = {"tonk", "telefunken", "marafon", "trionfo", "tripoli", "contract_rummy", "melds", "melds_float",
              "poker", "odds", "tricks"} - {game}
    if game == "marafon":
        others -= {"tricks"}
    assert not [m for m in mods if m.split(".")[-1] in others], mods


# A table without a search seat never compiles the search (issue 14: the search's rollouts are
# a callback compiled on first use, kernels.jit.lazy_cfunc); a table with one compiles it once.
SEARCH_COMPILED = """
import numpy as np
from cardsim.kernels import {game} as K
from cardsim.sim.runner import make_config, play_shard
play_shard(make_config({game!r}, {players}, deals=2, seed=1, strategies={plain!r}), 0, 2)
before = K.search_cfunc.cache_info().currsize
play_shard(make_config({game!r}, {players}, deals=1, seed=1, strategies={searching!r}), 0, 1)
print(before, K.search_cfunc.cache_info().currsize)
"""


@pytest.mark.parametrize("game,players", [("tonk", 2), ("tripoli", 4)])
def test_the_search_compiles_only_for_a_search_seat(game, players):
    code = SEARCH_COMPILED.format(game=game, players=players, plain=["greedy"],
                                  searching=["search:worlds=1"] + ["greedy"] * (players - 1))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "1"]


def test_a_runs_speed_leaves_the_compile_out(cache, monkeypatch):
    """Issue 43: kernels not yet compiled are compiled before the run's clock starts (the notice
    first), so its speed is its play's; the header says how long the compile took, once."""
    calls = []
    real = warm.warm

    def slow_warm(game, entry="play"):
        calls.append((game, entry))
        real(game, entry)
        import time
        time.sleep(1.2)                              # a compile that takes a while
    monkeypatch.setattr(warm, "warm", slow_warm)
    runner = CliRunner()
    first = runner.invoke(app, ["run", "tonk", "--deals", "50"])
    assert first.exit_code == 0, first.output
    head = first.stdout.splitlines()[0]
    assert calls == [("tonk", "play")] and "compiled first in 1 s" in head, head
    assert float(head.split(" · ")[-1].split(" s ")[0]) < 1.2                  # the run's own time
    second = runner.invoke(app, ["run", "tonk", "--deals", "50"])
    assert second.exit_code == 0 and calls == [("tonk", "play")]             # cached: nothing compiled first
    assert "compiled first" not in second.stdout
