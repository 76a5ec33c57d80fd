"""A game added from outside (issue 42): the toy game in ``tests/data/toy_game`` (a package and
its distribution's ``cardsim.games`` entry point) is copied to a temporary folder put on the
path, and is then found by the same discovery as the built-in games and played through
``run``, ``replay`` and the listings, with no file of cardsim touched. The README's "Adding a
game" section describes the same steps for a built-in game."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from cardsim.sim.spec import REQUIRED_COLUMNS

TOY = Path(__file__).resolve().parent / "data" / "toy_game"


@pytest.fixture(scope="module")
def toy_path(tmp_path_factory) -> Path:
    """A temporary folder holding the toy game's package and distribution metadata."""
    where = tmp_path_factory.mktemp("games")
    shutil.copytree(TOY, where, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    return where


def cardsim(toy_path: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``cardsim ARGS`` in a fresh interpreter with the toy game's folder on the path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(toy_path), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "cardsim", *args], capture_output=True, text=True, env=env,
                          cwd=cwd or toy_path)


def test_the_toy_game_is_discovered_and_listed(toy_path):
    res = cardsim(toy_path, "games", "--json")
    assert res.returncode == 0, res.stderr
    games = [g["game"] for g in json.loads(res.stdout)]
    assert games[-1] == "toy" and "tonk" in games          # listed after the built-ins (its order)
    res = cardsim(toy_path, "strategies", "toy")
    assert res.returncode == 0 and "swap" in res.stdout and "below" in res.stdout


def test_run_and_replay_the_toy_game(toy_path, tmp_path):
    out = tmp_path / "toy.parquet"
    res = cardsim(toy_path, "run", "toy", "--deals", "3000", "--strategy", "swap", "--strategy", "keep",
                  "--seed", "4", "--out", str(out))
    assert res.returncode == 0, res.stderr
    rec = pd.read_parquet(out)
    assert len(rec) == 3000 and set(REQUIRED_COLUMNS) <= set(rec.columns)
    assert (rec.payout_0 + rec.payout_1 == 0).all() and rec.swapped_0.any() and not rec.swapped_1.any()
    assert rec.payout_0.mean() > 0                          # changing low cards beats keeping them
    row = rec.iloc[7]
    res = cardsim(toy_path, "replay", str(out), "--deal", "7")
    assert res.returncode == 0, res.stderr
    assert ("swap wins" if row.winner == 0 else "keep wins") in res.stdout
    again = cardsim(toy_path, "replay", "toy", "--deal", "7", "--seed", "4", "--strategy", "swap",
                    "--strategy", "keep")
    assert again.returncode == 0 and again.stdout.splitlines()[1:] == res.stdout.splitlines()[1:]


def test_a_built_in_game_does_not_load_the_toy(toy_path):
    code = ("import sys\nfrom cardsim.sim.runner import make_config, play_shard\n"
            "play_shard(make_config('tonk', deals=1), 0, 1)\n"
            "print(sorted(m for m in sys.modules if m.startswith(('cardsim_toy', 'cardsim.sim.games.', "
            "'cardsim.kernels.')) and m.count('.') <= 3))")
    env = dict(os.environ, PYTHONPATH=str(toy_path))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    loaded = eval(res.stdout.strip())                       # noqa: S307 - our own printed list
    assert not any(m.startswith("cardsim_toy") for m in loaded)
    games = {m.split(".")[3] for m in loaded if m.startswith("cardsim.sim.games.")}
    assert games == {"tonk"}, loaded


def test_the_toy_game_passes_the_conformance_suite(toy_path):
    """``tests/test_conformance.py`` collects the toy game with the built-ins (it iterates the
    discovered games) and its checks pass for it; those a toy cannot take (no step adapter, no
    plug-ins, no kernels under ``cardsim.kernels``) are skipped, and say so."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(toy_path), os.environ.get("PYTHONPATH", "")]))
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-rs",
                          str(root / "tests" / "test_conformance.py"), "-k", "toy"],
                         capture_output=True, text=True, env=env, cwd=root)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    summary = res.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary, summary
    passed = int(summary.split(" passed")[0].split()[-1])
    assert passed >= 5, summary                               # the batch records and the four bad inputs
