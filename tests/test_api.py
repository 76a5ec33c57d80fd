"""The Python API (issue 17): ``import cardsim`` runs what the command line runs, returns
DataFrames with intervals and records with named end reasons, and refuses bad input with
``cardsim.UsageError``."""
from __future__ import annotations

import json

import pandas as pd
import pytest

import cardsim
from cardsim.sim.stats import json_clean
from cli_helpers import cli_json


def test_run_matches_the_command_line_and_names_end_reasons():
    r = cardsim.run("tonk", players=3, deals=3000, seed=4, strategies=["greedy", "knocker:threshold=8", "watcher"],
                    options={"caught_lowest_bonus": "none"}, workers=1)
    doc = cli_json("run", "tonk", "-p", "3", "-n", "3000", "-s", "4", "--strategy", "greedy", "--strategy",
                   "knocker:threshold=8", "--strategy", "watcher", "-o", "caught_lowest_bonus=none", "-w", "1")
    assert r.raw["seats"] == doc["summary"]["seats"]
    assert list(r.summary["strategy"]) == ["greedy", "knocker:threshold=8", "watcher:threshold=8,decay=0.5,wary_cards=2"]
    assert {"mean_payout", "payout_lo", "payout_hi", "win_rate", "win_lo", "win_hi"} <= set(r.summary.columns)
    rec = r.records
    assert len(rec) == 3000 and isinstance(rec["end_reason"].dtype, pd.CategoricalDtype)
    assert set(rec["end_reason"].cat.categories) >= {"tonk_out", "knock_won"}
    assert r.meta["options"]["caught_lowest_bonus"] == "none"


def test_compare_sweep_and_their_reports(tmp_path):
    c = cardsim.compare("tonk", ["knocker:threshold=6", "knocker:threshold=8"], field="greedy", players=2,
                        deals=1000, seed=1, workers=1)
    doc = cli_json("compare", "tonk", "-p", "2", "--strategy", "knocker:threshold=6", "--strategy",
                   "knocker:threshold=8", "--field", "greedy", "-n", "1000", "-s", "1", "-w", "1")
    assert json.loads(json.dumps(json_clean(c.raw["points"]), default=float)) == doc["summary"]["points"]
    assert list(c.summary["label"]) == ["knocker:threshold=6", "knocker:threshold=8"]
    s = cardsim.sweep("tonk", "knocker", {"threshold": range(0, 9, 4)}, players=2, deals=500, seed=1, workers=1)
    assert list(s.summary["label"]) == ["threshold=0", "threshold=4", "threshold=8"]
    assert len(s.records) == 3 * 2 * 500                         # points x lineups x deals
    pytest.importorskip("matplotlib")
    assert s.report(tmp_path / "rep").is_file()


def test_tune_odds_replay():
    pytest.importorskip("optuna")
    t = cardsim.tune("tonk", "knocker", {"threshold": (0, 12)}, players=2, budget=6000, seed=2, workers=1)
    assert t.raw["best"].startswith("knocker:threshold=") and list(t.summary["round"]) == [0]
    assert {"phase", "mean", "label"} <= set(t.records.columns)
    o = cardsim.odds("telefunken", 1, samples=20_000, seed=1)
    assert 0 < o["probability"] < 1 and o["lo"] <= o["probability"] <= o["hi"]
    doc = cardsim.replay("tonk", 3, seed=0)
    assert doc["deal"] == 3 and doc["events"] and doc["text"].startswith("Tonk")


def test_listings_and_bad_input():
    assert "telefunken" in set(cardsim.games()["game"])
    st = cardsim.strategies("tonk")
    assert {"knocker", "strong"} <= set(st["strategy"])
    assert "caught_lowest_bonus" in set(cardsim.options("tonk")["option"])
    with pytest.raises(cardsim.UsageError, match="takes 2 to 4 players"):
        cardsim.run("tonk", players=9)
    with pytest.raises(cardsim.UsageError, match="unknown strategy"):
        cardsim.compare("tonk", ["nobody", "greedy"])
    assert isinstance(cardsim.__version__, str)


def test_sweep_result_carries_the_notes_the_command_line_prints():
    """An option that changes nothing at 2 players (Tonk's caught_lowest_bonus) is named in the
    result's ``notes`` (the lines under the command line's table); a run has none."""
    import cardsim
    res = cardsim.sweep("tonk", "knocker", {"threshold": [5, 10]},
                        option_grid={"caught_lowest_bonus": ["all_others", "none"]}, players=2, deals=300,
                        keep_records=False)
    assert any("caught_lowest_bonus" in n and "does not change" in n for n in res.notes), res.notes
    assert cardsim.run("tonk", deals=100, keep_records=False).notes == []


def test_seat_masks_are_spelled_out_as_booleans():
    """Tripoli's pot_winners and folded (bit masks of seats) come with one boolean column per seat."""
    r = cardsim.run("tripoli", players=3, deals=200, seed=2, workers=1)
    df = r.records
    for name in ("pot_winners", "folded"):
        for p in range(3):
            assert (df[f"{name}_{p}"] == (df[name].to_numpy() >> p & 1).astype(bool)).all()
        assert f"{name}_3" not in df.columns
    assert df[[f"pot_winners_{p}" for p in range(3)]].any(axis=1).all()      # every pot has a winner


def test_compare_until_ci_rows_carry_the_sequential_interval():
    c = cardsim.compare("tonk", ["knocker:threshold=6", "knocker"], field="greedy", players=2, deals=2000,
                        until_ci=0.2, max_deals=4000, seed=1, workers=1)
    seq = c.raw["sequential"]
    b = c.raw["points"][1]
    assert b["diff_seq_lo"] == pytest.approx(b["diff"] - seq["z"] * b["diff_se"])
    assert b["payout_seq_hi"] == pytest.approx(b["mean_payout"] + seq["z"] * b["payout_se"])
