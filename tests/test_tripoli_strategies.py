"""Tripoli strategy defects (issue 15) as small paired comparisons, and the strategy
decisions of tripoli.md section 16 as parameters (stacked-state scenarios).

Paired comparisons: ``sim.experiment`` plays every candidate on the same duplicate deals from
every seat against a field of default heuristics; the 95 % interval is on the paired
difference to the first candidate."""
from __future__ import annotations

import pytest

from sim.experiment import make_compare, run_experiment
from sim.registry import get_game

DEFAULTS = {p.name: p.default for p in get_game("tripoli").strategies["heuristic"].params}


def shifted(**delta) -> str:
    """The default heuristic with some parameters moved by ``delta``."""
    return "heuristic:" + ",".join(f"{k}={DEFAULTS[k] + v:g}" for k, v in delta.items())


def paired(cands, deals, seed=15, players=5, field="heuristic"):
    exp = make_compare("tripoli", cands, players=players, field=field, seed=seed, deals=deals)
    return run_experiment(exp, deals).summary["points"]


# =============================================================================
# defects: betting thresholds, the widow swap
# =============================================================================
@pytest.mark.parametrize("players", [5])
def test_a_tighter_seat_does_not_beat_the_default_field(players):
    """Before issue 15 the defaults (bet 2, raise 4, call 1.5: two pair bets, a pair calls)
    called so loosely that one seat with every threshold a strength point higher won
    +12 chips a deal against them. Now a tighter seat gains nothing significant."""
    pts = paired(["heuristic", shifted(bet_at=1, raise_at=1, call_at=1)], 1500, players=players)
    tight = pts[1]
    assert tight["diff_lo"] <= 0.0, (tight["diff"], tight["diff_lo"], tight["diff_hi"])


def test_the_default_widow_swap_beats_never_swapping():
    """Before issue 15 ``swap_below=1.5`` was worse than never swapping (results/tripoli_widow);
    the default dealer policy now gains significantly over keeping every hand."""
    pts = paired(["heuristic:swap_below=0,sell_old=0", "heuristic"], 1500)
    gain = pts[1]
    assert gain["diff_lo"] > 0.0, (gain["diff"], gain["diff_lo"], gain["diff_hi"])
