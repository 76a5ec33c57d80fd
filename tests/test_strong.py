"""The ``strong`` strategies (issue 16): each game's ``strong`` is the converged point of the
committed ``cardsim tune --self`` run in ``results/tune/GAME/``, made by the command that
``scripts/tools/tune_strong.py`` runs, and its help says how to reproduce it."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from cardsim.sim.registry import GAME_NAMES, get_game, parse_seat
from cardsim.sim.tune import command_of

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("tune_strong", ROOT / "scripts" / "tools" / "tune_strong.py")
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
    assert f"scripts/tools/tune_strong.py {game}" in strong.help
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


# issue 41: every parameter the committed tune run tunes must change some decision of
# ``strong``: set to the other end of its tuned box, a fixed run's records change. Games whose
# ``strong`` has not been reworked for issue 41 yet are listed with the parameters known to
# change nothing (their tuned value is then only a label).
_RUN_DEALS = {"tonk": 50000, "telefunken": 6, "contract_rummy": 6, "marafon": 300, "trionfo": 60, "tripoli": 2000}
# measured on these fixed runs, for the games whose strong is not reworked yet (issue 41, pending);
# none now (Telefunken's keep_jokers, down_left and down_turn are no longer tuned)
_INERT: dict[str, set[str]] = {}


def _tuned_params(game):
    """(name, lo, hi) of each parameter the committed tune run tunes, its box as the run gives it."""
    cmd = _script().command(game)
    out = []
    for f, v in zip(cmd, cmd[1:]):
        if f == "--param":
            name, box = v.split("=", 1)
            lo, hi = box.split(":")[:2]
            out.append((name, float(lo), float(hi)))
    return out


def _strong_records(game, label):
    import numpy as np

    from cardsim.sim.registry import seat_arrays
    from cardsim.sim.runner import make_config
    g = get_game(game)
    n = g.players[2]
    cfg = make_config(game, n, _RUN_DEALS[game], 5, [label] * n, [], None, 1, False)
    sids, params = seat_arrays(cfg.game, cfg.seats)
    rec = np.zeros((_RUN_DEALS[game], cfg.game.record_width), dtype=np.int32)
    cfg.game.play_batch(cfg.seed, 0, _RUN_DEALS[game], cfg.option_array, sids, params, False, rec)
    return rec


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_tuned_parameter_of_strong_changes_a_decision(game):
    g = get_game(game)
    strong = g.strategies["strong"]
    base = _strong_records(game, "strong")
    inert = []
    for name, lo, hi in _tuned_params(game):          # the other end of the tuned box
        p = next(q for q in strong.params if q.name == name)
        other = hi if p.default - lo < hi - p.default else lo
        value = int(other) if p.integer else other
        if (_strong_records(game, f"strong:{name}={value}") == base).all():
            inert.append(name)
    assert set(inert) == _INERT.get(game, set()), f"{game}: {inert} change no record of strong"
