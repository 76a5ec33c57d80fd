"""Comparisons and sweeps on duplicate deals (sim.experiment), the sequential precision target
(sim.sequential, ``--until-ci``) and the ``compare``/``sweep`` commands.

Every figure of a summary is recomputed here from the long-format rows of the ``--out``
dataset (read back with pyarrow.dataset and pandas: ``point-K/`` folders whose files keep the
integer ``point`` column), and every lineup is
checked against a plain run of the same seats on the same seed: that is what "the very same
deals" means. Deal counts stay in the low thousands (the kernels are cached by numba).
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from cardsim.sim import sequential
from cardsim.sim.errors import UsageError
from cardsim.sim.experiment import (ExperimentAccumulator, make_compare, make_sweep, parse_grid, play_experiment_shard,
                                    run_experiment)
from cardsim.sim.games.tonk import GAME as TONK
from cardsim.sim.io import META_KEY
from cardsim.sim.registry import parse_seat
from cardsim.sim.runner import RunConfig, make_config, max_workers, play_shard, run
from cardsim.sim.stats import json_clean, t_quantile_975
from cli_helpers import assert_usage_error, invoke

REASONS = tuple(TONK.reason_names)
CANDS3 = ["knocker:threshold=5", "watcher", "knocker:threshold=12"]


# ---- helpers -------------------------------------------------------------------

def label(text: str) -> str:
    return parse_seat(TONK, text).label


def summary_path(directory) -> Path:
    """The summary file of a dataset (``_summary.json``; ``summary.json`` in older layouts)."""
    d = Path(directory)
    for name in ("_summary.json", "summary.json"):
        if (d / name).is_file():
            return d / name
    raise AssertionError(f"no summary file in {d}: {sorted(os.listdir(d))}")


def read_rows(directory):
    """The dataset's rows as a DataFrame sorted by (point, lineup, deal_id)."""
    table = ds.dataset(str(directory), format="parquet").to_table()
    df = table.to_pandas()
    df["end_reason"] = df["end_reason"].astype(str)
    return df.sort_values(["point", "lineup", "deal_id"], kind="stable").reset_index(drop=True)


def per_point(df, exp, deals):
    """X[i, d] (mean payout of point i over its lineups), W[i, d] (share of lineups won)."""
    k, nl = len(exp.points), len(exp.points[0].lineups)
    pay = df["payout"].to_numpy(np.float64).reshape(k, nl, deals)
    win = df["win"].to_numpy(np.float64).reshape(k, nl, deals)
    return pay.mean(axis=1), win.mean(axis=1)


def se(x) -> float:
    return float(np.std(x, ddof=1) / math.sqrt(len(x)))


def check_summary_against_rows(summary, df, exp, deals):
    """Means, intervals, paired differences and the variance reduction, from the rows."""
    assert summary["deals"] == deals
    x, w = per_point(df, exp, deals)
    t = t_quantile_975(deals - 1)
    rows = summary["points"]
    assert [r["point"] for r in rows] == list(range(len(exp.points)))
    assert [r["label"] for r in rows] == [p.label for p in exp.points]
    var0 = np.var(x[0], ddof=1)
    for i, r in enumerate(rows):
        assert r["mean_payout"] == pytest.approx(x[i].mean(), abs=1e-12)
        assert r["payout_se"] == pytest.approx(se(x[i]), rel=1e-9, abs=1e-15)
        assert r["payout_lo"] == pytest.approx(x[i].mean() - t * se(x[i]), rel=1e-9, abs=1e-12)
        assert r["payout_hi"] == pytest.approx(x[i].mean() + t * se(x[i]), rel=1e-9, abs=1e-12)
        assert r["win_rate"] == pytest.approx(w[i].mean(), abs=1e-12)
        assert r["win_lo"] <= r["win_rate"] <= r["win_hi"]
        assert r["payout_lo"] <= r["mean_payout"] <= r["payout_hi"]
        if i == 0:
            assert (r["diff"], r["diff_lo"], r["diff_hi"], r["diff_se"]) == (0.0, 0.0, 0.0, 0.0)
            assert r["variance_reduction"] is None or math.isnan(r["variance_reduction"])
            continue
        d = x[i] - x[0]
        # the paired difference is the difference of the means, and its interval holds it
        assert r["diff"] == pytest.approx(r["mean_payout"] - rows[0]["mean_payout"], abs=1e-12)
        assert r["diff"] == pytest.approx(d.mean(), abs=1e-12)
        assert r["diff_se"] == pytest.approx(se(d), rel=1e-9, abs=1e-15)
        assert r["diff_lo"] <= r["diff"] <= r["diff_hi"]
        assert r["diff_hi"] - r["diff_lo"] == pytest.approx(2 * t * se(d), rel=1e-9, abs=1e-12)
        var_d = np.var(d, ddof=1)
        if var_d > 0:
            expected = (np.var(x[i], ddof=1) + var0) / var_d
            assert r["variance_reduction"] == pytest.approx(expected, rel=1e-9)
        else:
            assert r["variance_reduction"] is None or math.isnan(r["variance_reduction"])


def check_lineups_are_plain_runs(df, exp, deals):
    """Every (point, lineup) is exactly a plain run of that lineup's seats on the same seed and
    deal indices: same cards, same random choices of the field."""
    for i, point in enumerate(exp.points):
        for r, (seats, counted) in enumerate(point.lineups):
            cfg = RunConfig(exp.game_name, exp.n_players, point.options, exp.preset, list(seats), exp.seed,
                            deals, exp.first_deal, False, exp.workers)
            cols = play_shard(cfg, exp.first_deal, deals)
            part = df[(df["point"] == i) & (df["lineup"] == r)]
            assert len(part) == deals
            np.testing.assert_array_equal(part["deal_id"], cols["deal_id"])
            assert (part["seat"] == counted).all()
            np.testing.assert_array_equal(part["payout"], cols[f"payout_{counted}"])
            np.testing.assert_array_equal(part["win"], cols["winner"] == counted)
            np.testing.assert_array_equal(part["turns"], cols["turns"])
            assert list(part["end_reason"]) == [REASONS[c] for c in cols["end_reason"]]


def check_dataset_layout(directory, exp, deals):
    d = Path(directory)
    k = len(exp.points)
    assert sorted(p.name for p in d.iterdir() if p.is_dir()) == sorted(f"point-{i}" for i in range(k))
    import pandas as pd
    frame = pd.read_parquet(d)
    assert str(frame["point"].dtype) == "int32" and sorted(frame["point"].unique()) == list(range(k))
    table = ds.dataset(str(d), format="parquet").to_table()
    assert table.num_rows == deals * k * exp.n_players            # deals x points x lineups
    assert set(table.column_names) == {"deal_id", "point", "lineup", "seat", "payout", "win", "end_reason",
                                       "turns", "truncated"}
    doc = json.loads(summary_path(d).read_text())
    assert doc["meta"]["deals"] == deals
    assert len(doc["meta"]["points"]) == k
    for part in d.glob("point-*/*.parquet"):
        meta = json.loads(pq.read_metadata(part).metadata[META_KEY])
        assert meta == doc["meta"]
    return doc


# ---- lineups: field mode and table rotation -------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_field_mode_candidate_at_every_seat(players):
    exp = make_compare("tonk", ["knocker:threshold=5", "watcher"], players=players, field="random")
    assert exp.kind == "compare" and exp.field == "random"
    for p, cand in zip(exp.points, ["knocker:threshold=5", "watcher"]):
        assert p.label == label(cand)
        assert len(p.lineups) == players
        for s, (seats, counted) in enumerate(p.lineups):
            assert counted == s
            assert [x.label for x in seats] == [label(cand) if q == s else "random" for q in range(players)]


def test_field_defaults_to_greedy_and_is_used_when_strategies_do_not_fill_the_table():
    exp = make_compare("tonk", ["knocker:threshold=5", "watcher"], players=3)
    assert exp.field == "greedy"
    assert all(x.label in ("greedy", p.label) for p in exp.points for seats, _ in p.lineups for x in seats)
    # one strategy per seat but an explicit --field: still field mode
    exp = make_compare("tonk", CANDS3, players=3, field="greedy")
    assert exp.field == "greedy"
    for p in exp.points:
        assert [sum(x.label == p.label for x in seats) for seats, _ in p.lineups] == [1, 1, 1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_table_mode_rotates_every_strategy_through_every_seat(players):
    cands = ["greedy", "knocker:threshold=5", "watcher", "random"][:players]
    exp = make_compare("tonk", cands, players=players)
    assert exp.field is None
    labels = [label(c) for c in cands]
    assert [p.label for p in exp.points] == labels
    tables = [tuple(x.label for x in seats) for seats, _ in exp.points[0].lineups]
    # every rotation is one table with each strategy exactly once ...
    for t in tables:
        assert sorted(t) == sorted(labels)
    # ... and over the rotations each strategy holds each seat exactly once (a Latin square)
    for s in range(players):
        assert sorted(t[s] for t in tables) == sorted(labels)
    assert len(set(tables)) == players
    for i, p in enumerate(exp.points):
        # all points play the same tables, in the same order; each counts its own seat
        assert [tuple(x.label for x in seats) for seats, _ in p.lineups] == tables
        assert sorted(c for _, c in p.lineups) == list(range(players))
        for seats, counted in p.lineups:
            assert seats[counted].label == labels[i]


@pytest.mark.parametrize("strategies, fragment", [
    ([], "at least two"),
    (["greedy"], "at least two"),
    (["knocker:threshold=8", "knocker:threshold=8.0"], "differ"),
    (["knocker", "knocker:threshold=8"], "differ"),
    (["greedy", "nosuch"], "unknown strategy"),
    (["greedy", "knocker:nope=1"], "unknown parameter"),
])
def test_compare_rejects_bad_strategy_lists(strategies, fragment):
    with pytest.raises(UsageError, match=fragment):
        make_compare("tonk", strategies, players=3)


# ---- compare: figures recomputed from the dataset --------------------------------

CMP_DEALS = 3000


@pytest.fixture(scope="module")
def field_compare(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "cmp"
    exp = make_compare("tonk", CANDS3, players=3, field="greedy", seed=11, shard_size=700)
    res = run_experiment(exp, CMP_DEALS, str(out))
    return exp, res, out, read_rows(out)


def test_compare_dataset_layout(field_compare):
    exp, res, out, df = field_compare
    assert res.path == str(out)
    doc = check_dataset_layout(out, exp, CMP_DEALS)
    assert doc["summary"] == json_clean(res.summary)
    assert doc["meta"] == json.loads(json.dumps(json_clean(res.meta)))
    assert doc["meta"]["kind"] == "compare" and doc["meta"]["field"] == "greedy"
    assert not (out.parent / f".{out.name}.work").exists()
    assert [n for n in os.listdir(out.parent) if n.startswith(".")] == []
    # every (point, lineup) holds every deal exactly once
    counts = df.groupby(["point", "lineup"])["deal_id"].agg(["count", "nunique", "min", "max"])
    assert (counts["count"] == CMP_DEALS).all() and (counts["nunique"] == CMP_DEALS).all()
    assert (counts["min"] == 0).all() and (counts["max"] == CMP_DEALS - 1).all()
    assert (df["seat"] == df["lineup"]).all()                     # field mode: lineup s counts seat s


def test_compare_summary_recomputed_from_rows(field_compare):
    exp, res, _, df = field_compare
    check_summary_against_rows(res.summary, df, exp, CMP_DEALS)
    # pairing on the same deals pays off here: the paired variance is smaller
    assert all(r["variance_reduction"] > 1 for r in res.summary["points"][1:])


def test_compare_plays_the_same_deals_as_plain_runs(field_compare):
    exp, _, _, df = field_compare
    check_lineups_are_plain_runs(df, exp, CMP_DEALS)


def test_compare_same_cards_for_every_point_and_lineup(field_compare):
    """What happens before anyone plays (a deal-tonk, a void deal) depends on the cards only:
    with the same cards in every point and lineup it happens in all of them at once."""
    _, _, _, df = field_compare
    pre = df["turns"] == 0
    by_deal = pre.groupby(df["deal_id"]).agg(["all", "any"])
    assert (by_deal["all"] == by_deal["any"]).all()
    assert by_deal["all"].sum() > 0
    reasons = df[pre].groupby("deal_id")["end_reason"].nunique()
    assert (reasons == 1).all()


def test_identical_strategies_give_a_zero_paired_difference(tmp_path):
    """knocker:threshold=0 never knocks with cards in hand, so it plays exactly like greedy: on
    duplicate deals every row coincides and the paired difference is exactly 0 with se 0."""
    exp = make_compare("tonk", ["greedy", "knocker:threshold=0", "knocker:threshold=8"], players=3,
                       field="greedy", seed=2, shard_size=800)
    res = run_experiment(exp, 2000, str(tmp_path / "same"))
    df = read_rows(tmp_path / "same")
    a, b = df[df["point"] == 0].reset_index(drop=True), df[df["point"] == 1].reset_index(drop=True)
    for col in ("deal_id", "lineup", "seat", "payout", "win", "end_reason", "turns"):
        assert (a[col] == b[col]).all(), col
    p0, p1, p2 = res.summary["points"]
    assert p1["diff"] == 0.0 and p1["diff_se"] == 0.0 and p1["diff_lo"] == 0.0 and p1["diff_hi"] == 0.0
    assert p1["mean_payout"] == p0["mean_payout"] and p1["win_rate"] == p0["win_rate"]
    # greedy in an all-greedy field: the seats of one table sum to zero, so X(d) = 0 exactly
    assert p0["mean_payout"] == 0.0 and p0["payout_se"] == 0.0
    assert p2["diff"] != 0.0 and p2["diff_se"] > 0
    check_summary_against_rows(res.summary, df, exp, 2000)


def test_table_mode_points_share_each_table(tmp_path):
    cands = ["greedy", "knocker:threshold=6", "watcher"]
    exp = make_compare("tonk", cands, players=3, seed=4, shard_size=600)
    res = run_experiment(exp, 1500, str(tmp_path / "table"))
    df = read_rows(tmp_path / "table")
    check_dataset_layout(tmp_path / "table", exp, 1500)
    check_summary_against_rows(res.summary, df, exp, 1500)
    check_lineups_are_plain_runs(df, exp, 1500)
    # in rotation r all points sit at the same table: same hand, their seats' payouts sum to 0
    for r in range(3):
        parts = [df[(df["point"] == i) & (df["lineup"] == r)].reset_index(drop=True) for i in range(3)]
        for p in parts[1:]:
            assert (p["turns"] == parts[0]["turns"]).all() and (p["end_reason"] == parts[0]["end_reason"]).all()
        assert (sum(p["payout"] for p in parts) == 0).all()
        assert (sum(p["win"].astype(int) for p in parts) <= 1).all()
        assert sorted(p["seat"].iloc[0] for p in parts) == [0, 1, 2]
    assert sum(r["mean_payout"] for r in res.summary["points"]) == pytest.approx(0, abs=1e-12)
    assert json.loads(summary_path(tmp_path / "table").read_text())["meta"]["field"] is None


@pytest.mark.parametrize("shard_size, workers", [(1500, 1), (211, 2), (4000, 2)])
def test_compare_independent_of_shard_size_and_workers(field_compare, tmp_path, shard_size, workers):
    if workers > max_workers():
        pytest.skip("needs 2 numba threads")
    exp0, res0, _, df0 = field_compare
    exp = make_compare("tonk", CANDS3, players=3, field="greedy", seed=11, shard_size=shard_size, workers=workers)
    res = run_experiment(exp, CMP_DEALS, str(tmp_path / "again"))
    df = read_rows(tmp_path / "again")
    assert df.equals(df0)
    assert res.meta == {**res0.meta, "deals": CMP_DEALS}
    for a, b in zip(res.summary["points"], res0.summary["points"]):
        assert a.keys() == b.keys()
        for k in a:
            if isinstance(a[k], str):
                assert a[k] == b[k]
            elif math.isnan(a[k]):
                assert math.isnan(b[k])
            else:
                assert a[k] == pytest.approx(b[k], rel=1e-9, abs=1e-12), k


def test_compare_workers_do_not_change_rows(field_compare, tmp_path):
    if max_workers() < 2:
        pytest.skip("needs 2 numba threads")
    rows = {}
    for w in (1, 2):
        exp = make_compare("tonk", CANDS3, players=3, field="greedy", seed=11, shard_size=700, workers=w)
        res = run_experiment(exp, 1400, str(tmp_path / f"w{w}"))
        rows[w] = (ds.dataset(str(tmp_path / f"w{w}"), format="parquet").to_table(),
                   res.summary)
    assert rows[1][0].equals(rows[2][0])
    assert json_clean(rows[1][1]) == json_clean(rows[2][1])


def test_accumulator_matches_a_single_pass():
    """Shard by shard or all at once: the same sums."""
    exp = make_compare("tonk", ["knocker:threshold=5", "watcher"], players=2, seed=9)
    whole = ExperimentAccumulator(exp)
    whole.add(play_experiment_shard(exp, 0, 900), 900)
    parts = ExperimentAccumulator(exp)
    for first, count in [(0, 100), (100, 500), (600, 300)]:
        parts.add(play_experiment_shard(exp, first, count), count)
    parts.add({}, 0)
    assert parts.n == whole.n == 900
    for name in ("sx", "sxx", "sw", "sww", "sd", "sdd"):
        np.testing.assert_allclose(getattr(parts, name), getattr(whole, name), rtol=1e-12)


def test_first_deal_shifts_the_deals(tmp_path):
    exp = make_compare("tonk", ["knocker:threshold=5", "watcher"], players=2, seed=9, first_deal=500)
    run_experiment(exp, 300, str(tmp_path / "fd"))
    df = read_rows(tmp_path / "fd")
    assert df["deal_id"].min() == 500 and df["deal_id"].max() == 799
    check_lineups_are_plain_runs(df, exp, 300)


# ---- sweep: grids -----------------------------------------------------------------

@pytest.mark.parametrize("text, name, values", [
    ("threshold=0:10:2", "threshold", ["0", "2", "4", "6", "8", "10"]),
    ("threshold=0:9:2", "threshold", ["0", "2", "4", "6", "8"]),
    ("decay=0:1:0.25", "decay", ["0", "0.25", "0.5", "0.75", "1"]),
    ("decay=0.1:0.3:0.1", "decay", ["0.1", "0.2", "0.3"]),
    ("decay=0:1:0.3", "decay", ["0", "0.3", "0.6", "0.9"]),
    ("x=-1:1:1", "x", ["-1", "0", "1"]),
    ("x=5:5:1", "x", ["5"]),
    ("threshold=6,8,10", "threshold", ["6", "8", "10"]),
    (" threshold = 6 , 8 ", "threshold", ["6", "8"]),
    ("caught_lowest_bonus=all_others,none", "caught_lowest_bonus", ["all_others", "none"]),
    ("x=0:999:1", "x", [str(i) for i in range(1000)]),
])
def test_parse_grid(text, name, values):
    assert parse_grid(text) == (name, values)


@pytest.mark.parametrize("text", ["threshold", "threshold=", "=1,2", " =1", "threshold=1:2", "threshold=a:b:c",
                                  "threshold=1:2:3:4", "threshold=0:1:0", "threshold=0:1:-1", "threshold=2:1:1",
                                  "threshold=0:1000:1", "threshold=1::1"])
def test_parse_grid_rejects(text):
    with pytest.raises(UsageError, match="grid"):
        parse_grid(text)


@pytest.mark.parametrize("text", ["threshold=0:nan:1", "threshold=0:inf:1", "threshold=0:1:nan"])
def test_parse_grid_rejects_non_finite(text):
    with pytest.raises(UsageError):
        parse_grid(text)


def test_sweep_rejects_an_empty_value_list():
    with pytest.raises(UsageError):
        make_sweep("tonk", "knocker", ["threshold=,"])


def test_sweep_two_parameters_cartesian_product():
    exp = make_sweep("tonk", "watcher:wary_cards=1", ["threshold=6,8", "decay=0:1:0.5"], players=3, field="random")
    assert exp.kind == "sweep" and exp.field == "random"
    combos = [(t, d) for t in ("6", "8") for d in ("0", "0.5", "1")]
    assert [p.label for p in exp.points] == [f"threshold={t},decay={d}" for t, d in combos]
    assert [p.params for p in exp.points] == [(("threshold", t), ("decay", d)) for t, d in combos]
    for p, (t, d) in zip(exp.points, combos):
        cand = label(f"watcher:threshold={t},decay={d},wary_cards=1")
        assert len(p.lineups) == 3
        for s, (seats, counted) in enumerate(p.lineups):
            assert counted == s
            assert [x.label for x in seats] == [cand if q == s else "random" for q in range(3)]
        assert p.options == exp.points[0].options


def test_sweep_option_grid_changes_the_rules():
    exp = make_sweep("tonk", "knocker", ["threshold=6,10"], ["caught_lowest_bonus=all_others,none"],
                     options=["stake=2"])
    assert len(exp.points) == 4
    assert [p.label for p in exp.points] == [
        "threshold=6,caught_lowest_bonus=all_others", "threshold=6,caught_lowest_bonus=none",
        "threshold=10,caught_lowest_bonus=all_others", "threshold=10,caught_lowest_bonus=none"]
    assert [p.options.caught_lowest_bonus for p in exp.points] == ["all_others", "none"] * 2
    assert all(p.options.stake == 2 for p in exp.points)               # --option still applies
    assert exp.field == "greedy"


@pytest.mark.parametrize("strategy, params, grid, fragment", [
    ("knocker", ["nope=1,2"], [], "no parameter 'nope'"),
    ("greedy", ["threshold=1,2"], [], "no parameter"),
    ("knocker", [], [], "at least one"),
    ("knocker", ["threshold=40:60:10"], [], "out of range"),
    ("knocker", ["threshold=1:2"], [], "grid"),
    ("knocker", ["threshold=1,2"], ["bogus=1,2"], "unknown option"),
    ("knocker", ["threshold=1,2"], ["caught_lowest_bonus=foo,none"], "all_others"),
    ("knocker", ["threshold=1,2"], ["first_dealer=0,3"], "first_dealer"),
    ("nosuch", ["threshold=1,2"], [], "unknown strategy"),
])
def test_sweep_rejects(strategy, params, grid, fragment):
    with pytest.raises(UsageError, match=fragment):
        make_sweep("tonk", strategy, params, grid, players=2)


@pytest.fixture(scope="module")
def option_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "sweep"
    # the field knocks too, so who pays the real lowest when a knocker is caught matters to the candidate
    exp = make_sweep("tonk", "knocker", ["threshold=6,10"], ["caught_lowest_bonus=all_others,none"],
                     players=3, field="knocker:threshold=10", seed=21, shard_size=600)
    res = run_experiment(exp, 1500, str(out))
    return exp, res, out, read_rows(out)


def test_sweep_dataset_and_summary(option_sweep):
    exp, res, out, df = option_sweep
    doc = check_dataset_layout(out, exp, 1500)
    assert doc["summary"] == json_clean(res.summary)
    assert doc["meta"]["kind"] == "sweep"
    assert [p["options"]["caught_lowest_bonus"] for p in doc["meta"]["points"]] == ["all_others", "none"] * 2
    assert [p["params"] for p in doc["meta"]["points"]] == [
        {"threshold": t, "caught_lowest_bonus": c} for t in (6, 10) for c in ("all_others", "none")]
    check_summary_against_rows(res.summary, df, exp, 1500)
    rows = res.summary["points"]
    assert [(r["threshold"], r["caught_lowest_bonus"]) for r in rows] == [
        (6.0, "all_others"), (6.0, "none"), (10.0, "all_others"), (10.0, "none")]


def test_sweep_points_play_the_same_deals(option_sweep):
    exp, _, _, df = option_sweep
    check_lineups_are_plain_runs(df, exp, 1500)
    # the option grid does matter: a caught knock pays differently without the bonus
    a = df[df["point"] == 2].reset_index(drop=True)
    b = df[df["point"] == 3].reset_index(drop=True)
    assert (a["turns"] == b["turns"]).all() and (a["end_reason"] == b["end_reason"]).all()
    differ = a["payout"] != b["payout"]
    assert differ.any()
    assert set(a.loc[differ, "end_reason"]) == {"knock_caught"}


def test_sweep_option_grid_stake_scales_payouts():
    exp = make_sweep("tonk", "knocker", ["threshold=6"], ["stake=1,2"], players=3, seed=21)
    cols = play_experiment_shard(exp, 0, 800)
    pay = cols["payout"].reshape(2, 3, 800)
    assert (pay[0] != 0).any()
    np.testing.assert_array_equal(pay[1], 2 * pay[0])
    np.testing.assert_array_equal(cols["turns"].reshape(2, 3, 800)[0], cols["turns"].reshape(2, 3, 800)[1])


# ---- the sequential rule -------------------------------------------------------------

def test_alpha_spending_sums_to_at_most_alpha():
    js = np.arange(1, 200_001, dtype=np.float64)
    total = float(np.sum(0.05 * 6 / (math.pi ** 2 * js ** 2)))
    assert total <= 0.05
    assert sum(sequential.alpha_at_look(j) for j in range(1, 200_001)) <= 0.05
    assert sum(sequential.alpha_at_look(j) for j in range(1, 200_001)) > 0.05 - 1e-5
    from statistics import NormalDist
    zs = [sequential.z_at_look(j) for j in range(1, 60)]
    assert all(a < b for a, b in zip(zs, zs[1:]))                      # wider at every later look
    assert zs[0] > 1.959963984540054                                  # stricter than one 95% look
    for j in (1, 2, 10, 50):
        alpha_j = 2 * (1 - NormalDist().cdf(sequential.z_at_look(j)))
        assert alpha_j == pytest.approx(0.05 * 6 / (math.pi ** 2 * j * j), rel=1e-9)


@pytest.mark.parametrize("cap, shard, growth", [(20000, 500, 2.0), (1000, 300, 1.5), (7, 10, 2.0), (0, 5, 2.0)])
def test_shard_plan(cap, shard, growth):
    plan = list(sequential.shard_plan(cap, 100, shard, growth))
    assert sum(c for _, c in plan) == cap
    assert [f for f, _ in plan] == [100 + sum(c for _, c in plan[:i]) for i in range(len(plan))]
    assert all(0 < c <= 8 * shard for _, c in plan)
    assert plan == list(sequential.shard_plan(cap, 100, shard, growth))
    if cap == 20000:
        assert [c for _, c in plan[:5]] == [500, 1000, 2000, 4000, 4000]


def looks_of(cap, first, shard):
    """Cumulative deal counts at each look of an --until-ci run."""
    out, n = [], 0
    for _, c in sequential.shard_plan(cap, first, shard, 2.0):
        n += c
        out.append(n)
    return out


def check_stopping(halfwidth_at, seq, deals, target, cap, first, shard):
    """Stopped at the first look whose half-width (at that look's z) is <= the target."""
    looks = looks_of(cap, first, shard)
    j = seq["looks"]
    assert looks[j - 1] == deals
    assert seq["z"] == pytest.approx(sequential.z_at_look(j), rel=1e-12)
    for i in range(1, j):
        h = halfwidth_at(looks[i - 1], sequential.z_at_look(i))
        assert h > target, (i, h)                                     # not before
    h = halfwidth_at(deals, sequential.z_at_look(j))
    assert seq["half_width"] == pytest.approx(h, rel=1e-9)
    assert seq["reached"] == (h <= target)
    if seq["reached"]:
        assert h <= target
    else:
        assert deals == cap and j == len(looks)


RUN_STRATS = ["knocker:threshold=10", "watcher", "greedy"]


def test_run_until_ci_stops_at_the_first_narrow_look(tmp_path):
    out = tmp_path / "seq.parquet"
    cfg = make_config("tonk", 3, 0, 5, RUN_STRATS, shard_size=500)
    res = run(cfg, str(out), until_ci=0.06, max_deals=30000)
    seq = res.summary["sequential"]
    assert seq["reached"] and seq["target"] == 0.06 and seq["looks"] >= 3
    table = pq.read_table(out)
    assert table.num_rows == res.summary["deals"] == res.meta["deals"]
    np.testing.assert_array_equal(table.column("deal_id").to_numpy(), np.arange(res.summary["deals"]))
    pays = np.stack([table.column(f"payout_{p}").to_numpy().astype(np.float64) for p in range(3)])

    def half(n, z):
        return max(z * se(pays[p, :n]) for p in range(3))
    check_stopping(half, seq, res.summary["deals"], 0.06, 30000, 0, 500)
    assert res.meta["until_ci"] == 0.06 and res.meta["max_deals"] == 30000
    # the same seed stops at the same deal, with the same figures
    again = run(make_config("tonk", 3, 0, 5, RUN_STRATS, shard_size=500), until_ci=0.06, max_deals=30000)
    assert json_clean(again.summary) == json_clean(res.summary)


def test_run_until_ci_cap(tmp_path):
    cfg = make_config("tonk", 3, 0, 5, RUN_STRATS, shard_size=500)
    res = run(cfg, until_ci=0.001, max_deals=2600)
    seq = res.summary["sequential"]
    assert not seq["reached"]
    assert res.summary["deals"] == 2600 and seq["looks"] == len(looks_of(2600, 0, 500))
    assert seq["half_width"] > 0.001


def test_compare_until_ci_stops_at_the_first_narrow_look(tmp_path):
    out = tmp_path / "seqcmp"
    exp = make_compare("tonk", CANDS3, players=3, field="greedy", seed=11, shard_size=300)
    res = run_experiment(exp, 0, str(out), until_ci=0.06, max_deals=20000)
    seq = res.summary["sequential"]
    deals = res.summary["deals"]
    assert seq["reached"] and seq["looks"] >= 3 and deals < 20000
    df = read_rows(out)
    check_dataset_layout(out, exp, deals)
    check_summary_against_rows(res.summary, df, exp, deals)
    x, _ = per_point(df, exp, deals)

    def half(n, z):
        return max(z * se(x[i, :n] - x[0, :n]) for i in (1, 2))
    check_stopping(half, seq, deals, 0.06, 20000, 0, 300)
    meta = json.loads(summary_path(out).read_text())["meta"]
    assert meta["until_ci"] == 0.06 and meta["max_deals"] == 20000 and meta["deals"] == deals
    again = run_experiment(make_compare("tonk", CANDS3, players=3, field="greedy", seed=11, shard_size=300), 0,
                           until_ci=0.06, max_deals=20000)
    assert json_clean(again.summary) == json_clean(res.summary)


def test_sweep_until_ci_and_cap(tmp_path):
    exp = make_sweep("tonk", "knocker", ["threshold=4,10"], players=2, seed=3, shard_size=300)
    res = run_experiment(exp, 0, str(tmp_path / "s"), until_ci=0.06, max_deals=20000)
    seq, deals = res.summary["sequential"], res.summary["deals"]
    assert seq["reached"] and seq["looks"] >= 2
    x, _ = per_point(read_rows(tmp_path / "s"), exp, deals)
    check_stopping(lambda n, z: z * se(x[1, :n] - x[0, :n]), seq, deals, 0.06, 20000, 0, 300)
    capped = run_experiment(exp, 0, until_ci=1e-4, max_deals=1000)
    assert capped.summary["deals"] == 1000 and not capped.summary["sequential"]["reached"]


def test_single_point_sweep_targets_the_mean(tmp_path):
    exp = make_sweep("tonk", "knocker", ["threshold=5"], players=2, seed=3, shard_size=300)
    res = run_experiment(exp, 0, str(tmp_path / "one"), until_ci=0.1, max_deals=20000)
    seq, deals = res.summary["sequential"], res.summary["deals"]
    x, _ = per_point(read_rows(tmp_path / "one"), exp, deals)
    check_stopping(lambda n, z: z * se(x[0, :n]), seq, deals, 0.1, 20000, 0, 300)


# ---- the commands -----------------------------------------------------------------

def test_cli_compare_table(tmp_path):
    out = tmp_path / "c"
    res = invoke("compare", "tonk", "-p", 3, "--strategy", "knocker:threshold=5", "--strategy", "watcher",
                 "-n", 400, "--seed", 3, "--out", out, "-q")
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert "compare · tonk · 3 players · 400 duplicate deals · seed 3 · field greedy" in text
    for col in ("mean payout", "win rate", "diff vs point 0", "variance reduction"):
        assert col in text
    assert "knocker:threshold=5" in text and "watcher" in text and "wary_cards" not in text   # defaults left out
    assert f"wrote {out}" in text
    assert summary_path(out).is_file()
    rot = invoke("compare", "tonk", "-p", 2, "--strategy", "greedy", "--strategy", "knocker", "-n", 300, "-q")
    assert rot.exit_code == 0, rot.output
    assert "table rotation" in rot.stdout and "wrote" not in rot.stdout


def test_cli_compare_json_matches_the_api(tmp_path):
    res = invoke("compare", "tonk", "-p", 3, "--strategy", "knocker:threshold=5", "--strategy", "watcher",
                 "--field", "random", "-n", 500, "--seed", 3, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["path"] is None and doc["meta"]["field"] == "random"
    api = run_experiment(make_compare("tonk", ["knocker:threshold=5", "watcher"], players=3, field="random",
                                      seed=3, workers=1), 500)
    assert doc["summary"] == json.loads(json.dumps(json_clean(api.summary)))


def test_cli_sweep_table_and_json(tmp_path):
    out = tmp_path / "sw"
    args = ["sweep", "tonk", "--strategy", "watcher", "--param", "threshold=6,10", "--param", "decay=0:1:1",
            "--option-grid", "caught_lowest_bonus=all_others,none", "-p", 2, "-n", 300, "--seed", 8]
    res = invoke(*args, "--out", out, "-q")
    assert res.exit_code == 0, res.output
    assert "sweep · tonk · 2 players · 300 duplicate deals · seed 8 · field greedy" in res.stdout
    assert "threshold=10,decay=1,caught_lowest_bonus=none" in res.stdout
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [f"point-{i}" for i in range(8)]
    doc = json.loads(summary_path(out).read_text())
    assert len(doc["summary"]["points"]) == 8
    js = invoke(*args, "--json")
    assert js.exit_code == 0, js.output
    got = json.loads(js.stdout)
    assert got["summary"] == doc["summary"]                           # same deals, same figures
    assert got["meta"]["kind"] == "sweep" and got["path"] is None
    assert [(r["threshold"], r["decay"], r["caught_lowest_bonus"]) for r in got["summary"]["points"]] == [
        (t, d, c) for t in (6.0, 10.0) for d in (0.0, 1.0) for c in ("all_others", "none")]


def test_cli_until_ci_flags(tmp_path):
    res = invoke("run", "tonk", "-p", 2, "--until-ci", 5, "--max-deals", 3000, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["summary"]["sequential"]["reached"] is True and doc["summary"]["sequential"]["looks"] == 1
    assert doc["meta"]["until_ci"] == 5 and doc["meta"]["max_deals"] == 3000
    # cap not reached, text output says so; default cap is 100 x --deals
    res = invoke("run", "tonk", "-p", 2, "--strategy", "knocker", "--strategy", "greedy", "--until-ci", 0.0001,
                 "-n", 20, "-q")
    assert res.exit_code == 0, res.output
    assert "NOT reached" in res.stdout and "2,000 deals" in res.stdout
    for cmd in (["compare", "tonk", "--strategy", "knocker:threshold=5", "--strategy", "watcher"],
                ["sweep", "tonk", "--strategy", "knocker", "--param", "threshold=4,10"]):
        res = invoke(*cmd, "-p", 2, "--until-ci", 0.0001, "--max-deals", 700, "--json")
        assert res.exit_code == 0, res.output
        doc = json.loads(res.stdout)
        assert doc["summary"]["deals"] == 700 and doc["summary"]["sequential"]["reached"] is False
        assert doc["meta"]["max_deals"] == 700 and doc["meta"]["until_ci"] == 0.0001
        res = invoke(*cmd, "-p", 2, "--until-ci", 10, "--max-deals", 700, "-q")
        assert res.exit_code == 0, res.output
        assert "precision target ± 10 reached" in res.stdout


CMP = ["compare", "tonk", "-n", "50"]
SWP = ["sweep", "tonk", "-n", "50", "--strategy", "knocker"]
BAD = [
    (CMP, [], "at least two"),
    (CMP + ["--strategy", "greedy"], [], "at least two"),
    (CMP + ["--strategy", "knocker:threshold=8", "--strategy", "knocker:threshold=8.0"], [], "differ"),
    (CMP + ["--strategy", "greedy", "--strategy", "nosuch"], [], "unknown strategy"),
    (CMP + ["--strategy", "greedy", "--strategy", "knocker", "--field", "nosuch"], [], "unknown strategy"),
    (CMP + ["--strategy", "greedy", "--strategy", "knocker"], ["--until-ci", "0"], "--until-ci"),
    (CMP + ["--strategy", "greedy", "--strategy", "knocker"], ["--until-ci", "-1"], "--until-ci"),
    (CMP + ["--strategy", "greedy", "--strategy", "knocker"], ["--until-ci", "1", "--max-deals", "0"], "--max-deals"),
    (CMP + ["--strategy", "greedy", "--strategy", "knocker"], ["--resume"], "--resume needs --out"),
    (CMP + ["--strategy", "greedy", "--strategy", "knocker", "-p", "5"], [], "2 to 4"),
    (CMP + ["--strategy", "greedy", "--strategy", "knocker", "--seed", "-1"], [], "--seed"),
    (SWP, [], "at least one"),
    (SWP + ["--param", "nope=1,2"], [], "no parameter 'nope'"),
    (SWP + ["--param", "threshold=1:2"], [], "grid"),
    (SWP + ["--param", "threshold=2:1:1"], [], "grid"),
    (SWP + ["--param", "threshold=0:1:0"], [], "grid"),
    (SWP + ["--param", "threshold"], [], "grid"),
    (SWP + ["--param", "threshold=40:60:5"], [], "out of range"),
    (SWP + ["--param", "threshold=1,2", "--option-grid", "bogus=1,2"], [], "unknown option"),
    (SWP + ["--param", "threshold=1,2", "--option-grid", "caught_lowest_bonus=x"], [], "caught_lowest_bonus"),
    (SWP + ["--param", "threshold=1,2"], ["--until-ci", "0"], "--until-ci"),
    (SWP + ["--param", "threshold=1,2"], ["--until-ci", "-0.5"], "--until-ci"),
    (SWP + ["--param", "threshold=1,2"], ["--resume"], "--resume needs --out"),
    (["run", "tonk", "-n", "50"], ["--resume"], "--resume needs --out"),
    (["run", "tonk", "-n", "50"], ["--until-ci", "0"], "--until-ci"),
]


@pytest.mark.parametrize("args, extra, fragment", BAD, ids=[" ".join(a[:1] + a[3:] + e) for a, e, _ in BAD])
def test_cli_bad_input(tmp_path, args, extra, fragment):
    res = invoke(*args, *extra)
    assert_usage_error(res, fragment)
    assert os.listdir(tmp_path) == []
    if "--resume" not in extra:                                       # with a valid --out: still nothing left
        res = invoke(*args, *extra, "--out", tmp_path / ("o.parquet" if args[0] == "run" else "o"))
        assert_usage_error(res, fragment)
        assert os.listdir(tmp_path) == []


def test_cli_out_is_a_file(tmp_path):
    f = tmp_path / "plain"
    f.write_text("x")
    res = invoke(*CMP, "--strategy", "greedy", "--strategy", "knocker", "--out", f)
    assert_usage_error(res, "not a directory")
    assert os.listdir(tmp_path) == ["plain"] and f.read_text() == "x"


@pytest.mark.parametrize("grid", ["threshold=0:nan:1", "threshold=0:inf:1", "threshold=,"])
def test_cli_sweep_bad_grid_values(tmp_path, grid):
    res = invoke(*SWP, "--param", grid, "--out", tmp_path / "o")
    assert_usage_error(res, "grid")
    assert os.listdir(tmp_path) == []


def test_cli_compare_zero_deals_with_out(tmp_path):
    """--deals 0 is accepted: an empty result, no traceback, no work directory left."""
    res = invoke(*CMP[:2], "-n", 0, "--strategy", "greedy", "--strategy", "knocker", "--out", tmp_path / "z",
                 "-q")
    assert res.exit_code == 0, (res.output, res.exception)
    assert "Traceback" not in res.output
    assert not (tmp_path / ".z.work").exists()
    assert [n for n in os.listdir(tmp_path) if n.startswith(".")] == []
    assert json.loads(summary_path(tmp_path / "z").read_text())["summary"]["deals"] == 0
