"""The ``strong`` strategies (issue 16): each game's ``strong`` is the converged point of the
committed ``cardsim tune --self`` run in ``results/tune/GAME/``, made by the command that
``scripts/tune_strong.py`` runs, and its help says how to reproduce it."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from cardsim.sim.registry import GAME_NAMES, get_game, parse_seat
from cardsim.sim.tune import command_of

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("tune_strong", ROOT / "scripts" / "tune_strong.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("game", GAME_NAMES)
def test_strong_is_the_committed_tune_result(game):
    doc = json.loads((ROOT / "results" / "tune" / game / "_summary.json").read_text())
    summary, meta = doc["summary"], doc["meta"]
    g = get_game(game)
    strong = g.strategies["strong"]
    assert parse_seat(g, "strong").values == parse_seat(g, summary["best"]).values
    assert strong.sid == g.strategies[summary["best"].partition(":")[0]].sid
    # converged, or (no fixed point within --rounds) the least exploitable field met
    assert summary["status"] in ("converged", "not_converged", "cycle"), summary["status"]
    if summary["status"] != "converged":
        assert summary["best"] == min(summary["rounds"], key=lambda r: r["gain"])["field"]
    assert meta["self"] and meta["game"] == game
    assert f"scripts/tune_strong.py {game}" in strong.help
    # the dataset was made by exactly the command the script runs
    cmd = _script().command(game)
    made = command_of(meta).split()
    for flag, value in zip(cmd, cmd[1:]):
        if flag in ("--strategy", "--budget", "--seed", "--rounds") or flag == "--param":
            assert f"{flag} {value}" in " ".join(made), (flag, value)


def test_the_report_of_every_strong_run_is_committed():
    for game in GAME_NAMES:
        text = (ROOT / "results" / "tune" / f"{game}-report" / "report.md").read_text()
        assert text.startswith("# cardsim report: ") and "convergence.png" in text
