"""Batch runner, Parquet output and statistics (sim.runner, sim.io, sim.stats) for Tonk.

Deal counts stay in the low thousands: the kernels are cached on disk by numba, so each
run here costs a fraction of a second.
"""
from __future__ import annotations

import copy
import json
import math
import os
import statistics

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cardsim.sim import runner
from cardsim.sim.errors import UsageError
from cardsim.sim.games.tonk import GAME as TONK
from cardsim.sim.io import META_KEY, TIMING_KEY, check_output_path, read_meta
from cardsim.sim.stats import Z95, Accumulator, mean_ci, t_quantile_975, wilson

REASONS = tuple(TONK.reason_names)
STRATS3 = ["knocker:threshold=10", "watcher:decay=1", "greedy"]


# ---- helpers -------------------------------------------------------------------

def cfg(deals=2000, seed=7, players=3, strategies=STRATS3, options=("caught_lowest_bonus=none",),
        preset=None, workers=None, first_deal=0, shard_size=runner.DEFAULT_SHARD, check=False):
    return runner.make_config("tonk", players, deals, seed, list(strategies), list(options), preset,
                              workers, check, first_deal, shard_size)


def run_to(tmp_path, name="run.parquet", **kw):
    path = tmp_path / name
    result = runner.run(cfg(**kw), str(path))
    assert result.path == str(path)
    return path, result


def leftovers(directory) -> list[str]:
    return sorted(n for n in os.listdir(directory) if ".partial-" in n)


def column_bytes(table: pa.Table) -> dict[str, bytes]:
    """Raw bytes of every column's values (dictionary columns: indices + dictionary)."""
    out = {}
    for name in table.column_names:
        col = table.column(name).combine_chunks()
        if pa.types.is_dictionary(col.type):
            out[name] = (col.indices.to_numpy(zero_copy_only=False).tobytes() + b"|"
                         + "\x00".join(col.dictionary.to_pylist()).encode())
        else:
            arr = col.to_numpy(zero_copy_only=False)
            out[name] = arr.dtype.str.encode() + b"|" + arr.tobytes()
    return out


def assert_same_records(a: pa.Table, b: pa.Table):
    assert a.schema.remove_metadata() == b.schema.remove_metadata()
    assert a.num_rows == b.num_rows
    assert a.equals(b)
    assert column_bytes(a) == column_bytes(b)


def footer(path) -> dict:
    return pq.ParquetFile(path).metadata.metadata


def read(path) -> pa.Table:
    return pq.read_table(path).replace_schema_metadata(None)


# ---- Parquet output --------------------------------------------------------------

@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """One 3-player run with mixed strategies, shared by the read-only tests below."""
    d = tmp_path_factory.mktemp("batch")
    path = d / "run.parquet"
    result = runner.run(cfg(deals=3000), str(path))
    return path, result


def test_parquet_columns_and_dtypes(batch):
    path, _ = batch
    t = pq.read_table(path)
    expected = (["deal_id", "dealer", "end_reason", "winner", "knocker", "turns", "stock_left", "redeals",
                 "truncated"] + [f"payout_{p}" for p in range(3)] + [f"count_{p}" for p in range(3)]
                + [f"cards_left_{p}" for p in range(3)])
    assert t.column_names == expected
    types = {f.name: f.type for f in t.schema}
    assert types["deal_id"] == pa.int64()
    assert pa.types.is_dictionary(types["end_reason"])
    assert types["end_reason"].value_type == pa.string()
    assert types["truncated"] == pa.bool_()
    for p in range(3):
        assert pa.types.is_integer(types[f"payout_{p}"])
        assert pa.types.is_integer(types[f"count_{p}"])
        assert pa.types.is_integer(types[f"cards_left_{p}"])


def test_one_row_per_deal_and_row_invariants(batch):
    path, _ = batch
    df = pd.read_parquet(path)
    assert len(df) == 3000
    assert df["deal_id"].tolist() == list(range(3000))
    assert isinstance(df["end_reason"].dtype, pd.CategoricalDtype)
    assert set(df["end_reason"].astype(str)) <= set(REASONS)
    assert "knock_won" in set(df["end_reason"].astype(str))  # knocker seats do knock
    pays = df[[f"payout_{p}" for p in range(3)]].to_numpy(dtype=np.int64)
    assert (pays.sum(axis=1) == 0).all(), "payouts must sum to zero in every row"
    # winner = seat with the unique highest payout, -1 if none
    top = pays.max(axis=1)
    unique_top = (pays == top[:, None]).sum(axis=1) == 1
    expected_winner = np.where(unique_top, pays.argmax(axis=1), -1)
    assert (df["winner"].to_numpy() == expected_winner).all()
    knocked = df["end_reason"].astype(str).isin(["knock_won", "knock_caught"]).to_numpy()
    assert ((df["knocker"].to_numpy() >= 0) == knocked).all()
    assert df["knocker"].between(-1, 2).all()
    assert df["dealer"].between(0, 2).all()
    # the dealer rotates with the deal index
    assert ((df["dealer"].to_numpy() - df["deal_id"].to_numpy()) % 3 == df["dealer"].iloc[0]).all()
    assert (df["turns"] >= 0).all() and (df["stock_left"] >= 0).all() and (df["redeals"] >= 0).all()
    for p in range(3):
        assert df[f"cards_left_{p}"].between(0, 52).all()
        assert (df[f"count_{p}"] >= 0).all()
    assert df["truncated"].dtype == bool


def test_parquet_readable_with_pyarrow_and_pandas(batch):
    path, _ = batch
    t = pq.read_table(path)
    df = pd.read_parquet(path)
    assert t.num_rows == len(df) == 3000
    assert df["payout_0"].tolist() == t.column("payout_0").to_pylist()
    assert df["end_reason"].astype(str).tolist() == [str(x) for x in t.column("end_reason").to_pylist()]


def test_parquet_footer_metadata(batch):
    path, result = batch
    kv = footer(path)
    assert META_KEY in kv and TIMING_KEY in kv
    meta = json.loads(kv[META_KEY])
    assert meta == result.meta
    assert meta["game"] == "tonk"
    assert meta["rules_version"] == TONK.rules_version
    assert meta["players"] == 3
    assert meta["seed"] == 7
    assert meta["deals"] == 3000 and meta["first_deal"] == 0
    assert meta["options"]["caught_lowest_bonus"] == "none"
    assert meta["options"]["deal_tonk_totals"] == [49, 50]
    assert meta["options"]["max_turns"] == 1000
    seats = meta["seats"]
    assert [s["strategy"] for s in seats] == ["knocker", "watcher", "greedy"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert seats[0]["params"] == {"threshold": 10.0}
    assert seats[1]["params"] == {"threshold": 8.0, "decay": 1.0, "wary_cards": 2.0}
    assert seats[2]["params"] == {}
    assert seats[0]["label"] == "knocker:threshold=10"
    assert meta["reason_names"] == list(REASONS)
    for pkg in ("python", "cardsim", "numba", "numpy", "pyarrow", "pandas"):
        assert meta["versions"][pkg]
    timing = json.loads(kv[TIMING_KEY])
    assert isinstance(timing["wall_time_s"], float) and timing["wall_time_s"] > 0
    assert timing == result.timing
    assert read_meta(path) == (meta, timing)


def test_preset_and_override_recorded(tmp_path):
    path, result = run_to(tmp_path, deals=200, players=2, strategies=["knocker"], preset="english",
                          options=["caught_lowest_bonus=above_knocker_only", "max_turns=500"])
    meta = json.loads(footer(path)[META_KEY])
    assert meta["preset"] == "english"
    assert meta["options"]["deal_tonk_totals"] == [50]                      # from the preset
    assert meta["options"]["caught_lowest_bonus"] == "above_knocker_only"   # override beats preset
    assert meta["options"]["max_turns"] == 500
    assert [s["label"] for s in meta["seats"]] == ["knocker:threshold=8"] * 2


def test_run_without_output_file():
    result = runner.run(cfg(deals=500))
    assert result.path is None
    assert result.summary["deals"] == 500
    assert sum(o["count"] for o in result.summary["outcomes"]) == 500


def test_zero_deals_writes_empty_file(tmp_path):
    path, result = run_to(tmp_path, deals=0)
    assert pq.read_table(path).num_rows == 0
    assert "payout_2" in pq.read_table(path).column_names
    assert result.summary["deals"] == 0
    assert runner.summarize_file(path).summary["deals"] == 0
    assert leftovers(tmp_path) == []


# ---- determinism ---------------------------------------------------------------

def test_same_seed_identical_records_and_metadata(tmp_path, batch):
    path_a, _ = batch
    path_b, _ = run_to(tmp_path, deals=3000)
    assert_same_records(read(path_a), read(path_b))
    assert footer(path_a)[META_KEY] == footer(path_b)[META_KEY]


def test_different_seed_differs(tmp_path, batch):
    path_a, _ = batch
    path_b, _ = run_to(tmp_path, deals=3000, seed=8)
    a, b = read(path_a), read(path_b)
    assert not a.equals(b)
    assert a.column("payout_0") != b.column("payout_0")
    assert footer(path_a)[META_KEY] != footer(path_b)[META_KEY]


def test_workers_do_not_change_rows(tmp_path):
    if runner.max_workers() < 2:
        pytest.skip("needs at least two numba threads")
    p1, _ = run_to(tmp_path, "w1.parquet", deals=3000, workers=1)
    p2, _ = run_to(tmp_path, "w2.parquet", deals=3000, workers=2)
    assert_same_records(read(p1), read(p2))
    assert footer(p1)[META_KEY] == footer(p2)[META_KEY]
    assert json.loads(footer(p1)[TIMING_KEY])["workers"] == 1
    assert json.loads(footer(p2)[TIMING_KEY])["workers"] == 2


def test_shards_do_not_change_rows(tmp_path, batch):
    path_one, res_one = batch
    path_many, res_many = run_to(tmp_path, deals=3000, shard_size=700)  # 5 shards, the last partial
    assert pq.ParquetFile(path_many).metadata.num_row_groups >= 5
    assert_same_records(read(path_one), read(path_many))
    assert footer(path_one)[META_KEY] == footer(path_many)[META_KEY]
    s1, s2 = copy.deepcopy(res_one.summary), copy.deepcopy(res_many.summary)
    assert s1["deals"] == s2["deals"] and s1["outcomes"] == s2["outcomes"]
    for a, b in zip(s1["seats"], s2["seats"]):
        assert a == pytest.approx(b)
    for a, b in zip(s1["strategies"], s2["strategies"]):
        assert a.pop("seats") == b.pop("seats")
        assert a == pytest.approx(b)


def test_first_deal_offset_is_a_slice(tmp_path, batch):
    path_all, _ = batch
    path_part, _ = run_to(tmp_path, deals=1000, first_deal=1500, shard_size=300)
    part = read(path_part)
    assert part.column("deal_id").to_pylist() == list(range(1500, 2500))
    assert_same_records(read(path_all).slice(1500, 1000), part)
    meta = json.loads(footer(path_part)[META_KEY])
    assert meta["first_deal"] == 1500 and meta["deals"] == 1000


def test_replay_state_equals_batch_row(batch):
    path, _ = batch
    df = pd.read_parquet(path)
    c = cfg(deals=1)
    picks = df.groupby("end_reason", observed=True)["deal_id"].first().tolist()
    assert len(picks) >= 4
    for deal in picks:
        row = df.iloc[deal]
        st, _trace = runner.replay(c, deal)
        assert TONK.state_payouts(st, 3) == [int(row[f"payout_{p}"]) for p in range(3)], deal
        assert TONK.state_error(st) == 0
        lines = runner.replay_lines(c, deal)
        assert lines[0].startswith("Tonk (Tunk), seed 7, deal %d, 3 players" % deal)
        ends = [ln for ln in lines if ln.startswith("end: ")]
        assert ends and ends[-1].startswith(f"end: {row['end_reason']}")


# ---- atomic output / interruption -------------------------------------------------

def test_interrupt_after_first_shard_leaves_no_output_but_resumes(tmp_path):
    """Ctrl-C: nothing under the final name; finished shards wait in the work dir for --resume."""
    out = tmp_path / "run.parquet"
    work = tmp_path / ".run.parquet.work"
    calls = []

    def progress(done, total):
        calls.append((done, total))
        assert sorted(os.listdir(work)) == ["lock", "run.json", "shard-000000000000000.parquet"]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(cfg(deals=5000, shard_size=1000), str(out), progress)
    assert calls == [(1000, 5000)]
    assert not out.exists()
    assert leftovers(tmp_path) == []
    resumed = runner.run(cfg(deals=5000, shard_size=1000), str(out), resume=True)
    (tmp_path / "fresh").mkdir()
    fresh_path, fresh = run_to(tmp_path / "fresh", deals=5000, shard_size=1000)
    assert pq.read_table(out).equals(pq.read_table(fresh_path))
    assert resumed.summary == fresh.summary
    assert sorted(os.listdir(tmp_path)) == ["fresh", "run.parquet"]


def test_error_in_a_later_shard_leaves_nothing(tmp_path, monkeypatch):
    out = tmp_path / "run.parquet"
    real = runner.play_shard

    def flaky(c, first, count):
        if first >= 2000:
            raise RuntimeError("boom")
        return real(c, first, count)

    monkeypatch.setattr(runner, "play_shard", flaky)
    with pytest.raises(RuntimeError, match="boom"):
        runner.run(cfg(deals=5000, shard_size=1000), str(out))
    assert not out.exists()
    assert os.listdir(tmp_path) == []


def test_existing_output_survives_an_interrupted_rerun(tmp_path):
    """An existing output is refused without overwrite, and survives an interrupted overwrite."""
    path, _ = run_to(tmp_path, deals=300)
    before = path.read_bytes()

    def stop(done, total):
        raise KeyboardInterrupt

    with pytest.raises(UsageError, match="exists; pass --overwrite"):
        runner.run(cfg(deals=3000, shard_size=1000, seed=99), str(path), stop)
    with pytest.raises(KeyboardInterrupt):
        runner.run(cfg(deals=3000, shard_size=1000, seed=99), str(path), stop, overwrite=True)
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_progress_reports_every_shard(tmp_path):
    seen = []
    runner.run(cfg(deals=2500, shard_size=1000), str(tmp_path / "r.parquet"), lambda d, t: seen.append((d, t)))
    assert seen == [(1000, 2500), (2000, 2500), (2500, 2500)]
    assert leftovers(tmp_path) == []


def test_check_output_path(tmp_path):
    assert check_output_path(tmp_path / "ok.parquet") == tmp_path / "ok.parquet"
    with pytest.raises(UsageError, match="does not exist"):
        check_output_path(tmp_path / "missing" / "x.parquet")
    with pytest.raises(UsageError, match="is a directory"):
        check_output_path(tmp_path)
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError, match="does not exist"):
        check_output_path(tmp_path / "file" / "x.parquet")
    assert sorted(os.listdir(tmp_path)) == ["file"]


# ---- summarize ---------------------------------------------------------------------

def test_summarize_file_equals_run_summary(batch):
    path, result = batch
    again = runner.summarize_file(path)
    assert again.summary == result.summary
    assert again.meta == result.meta
    assert again.timing == result.timing
    assert again.path == str(path)


def test_summary_matches_the_rows(batch):
    path, result = batch
    df = pd.read_parquet(path)
    s = result.summary
    n = len(df)
    assert s["deals"] == n
    assert s["truncated"] == int(df["truncated"].sum())
    assert s["mean_turns"] == pytest.approx(df["turns"].mean())
    counts = df["end_reason"].astype(str).value_counts()
    assert [o["end_reason"] for o in s["outcomes"]] == list(REASONS)
    for o in s["outcomes"]:
        assert o["count"] == int(counts.get(o["end_reason"], 0))
        assert (o["rate"], o["lo"], o["hi"]) == pytest.approx(wilson(o["count"], n))
    for row in s["seats"]:
        p = row["seat"]
        wins = int((df["winner"] == p).sum())
        assert row["win_rate"] == pytest.approx(wins / n)
        assert row["win_lo"] <= row["win_rate"] <= row["win_hi"]
        pay = df[f"payout_{p}"].to_numpy(dtype=float)
        assert row["mean_payout"] == pytest.approx(pay.mean())
        assert row["payout_se"] == pytest.approx(pay.std(ddof=1) / math.sqrt(n))
        assert row["payout_lo"] < row["mean_payout"] < row["payout_hi"]
    assert sum(r["mean_payout"] for r in s["seats"]) == pytest.approx(0, abs=1e-12)
    assert [r["strategy"] for r in s["strategies"]] == ["knocker:threshold=10",
                                                        "watcher:threshold=8,decay=1,wary_cards=2", "greedy"]


def test_per_strategy_groups_seats():
    acc = Accumulator(3, ["a", "b", "a"], ("x", "y"))
    acc.add({"winner": np.array([0, 1, 2, -1]), "truncated": np.array([False, False, True, False]),
             "turns": np.array([3, 4, 5, 6]), "end_reason": np.array([0, 0, 1, 1]),
             "payout_0": np.array([2, -1, -1, 0]), "payout_1": np.array([-1, 2, -1, 0]),
             "payout_2": np.array([-1, -1, 2, 0])})
    s = acc.summary()
    assert s["deals"] == 4 and s["truncated"] == 1 and s["mean_turns"] == 4.5
    a = next(r for r in s["strategies"] if r["strategy"] == "a")
    assert a["seats"] == [0, 2]
    assert a["win_rate"] == pytest.approx(2 / 4 / 2)     # one of its seats won 2 of 4 deals, per seat
    assert a["mean_payout"] == pytest.approx(np.mean([0.5, -1, 0.5, 0]))
    assert [o["count"] for o in s["outcomes"]] == [2, 2]


# ---- statistics ---------------------------------------------------------------------

def test_wilson_known_values():
    p, lo, hi = wilson(50, 100)
    assert p == 0.5
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[:2] == (0.0, 0.0)
    assert wilson(0, 10)[2] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10)[0] == 1.0 and wilson(10, 10)[2] == pytest.approx(1.0)
    assert wilson(10, 10)[1] == pytest.approx(0.7225, abs=1e-4)
    for k, n in [(0, 1), (1, 3), (7, 1000), (999, 1000)]:
        rate, lo, hi = wilson(k, n)
        assert 0.0 <= lo <= rate <= hi <= 1.0
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_t_quantiles():
    assert t_quantile_975(10) == pytest.approx(2.228, abs=1e-3)
    assert t_quantile_975(30) == pytest.approx(2.042, abs=1e-3)
    assert t_quantile_975(100) == pytest.approx(1.9840, abs=1e-4)
    assert t_quantile_975(math.inf) == Z95
    assert t_quantile_975(5) == pytest.approx(2.5706, abs=1e-3)
    assert t_quantile_975(4) == pytest.approx(2.7764, abs=2e-3)
    assert t_quantile_975(10) > t_quantile_975(30) > t_quantile_975(1000) > Z95


def test_t_quantile_accuracy_as_documented():
    exact = {3: 3.182446, 4: 2.776445, 5: 2.570582, 10: 2.228139, 30: 2.042272}
    for df, v in exact.items():
        assert abs(t_quantile_975(df) - v) < 2e-4, df


def test_mean_ci_against_statistics():
    sample = [3, -1, 0, 2, 2, -4, 1, 1, 0, 5]
    n = len(sample)
    mean, lo, hi, se = mean_ci(float(sum(sample)), float(sum(x * x for x in sample)), n)
    assert mean == pytest.approx(statistics.fmean(sample))
    assert se == pytest.approx(statistics.stdev(sample) / math.sqrt(n))
    assert se == pytest.approx(np.std(sample, ddof=1) / math.sqrt(n))
    half = 2.262157 * se   # t_{0.975, 9}
    assert lo == pytest.approx(mean - half, abs=1e-3)
    assert hi == pytest.approx(mean + half, abs=1e-3)
    m1 = mean_ci(4.0, 16.0, 1)
    assert m1[0] == 4.0 and all(math.isnan(x) for x in m1[1:])
    assert all(math.isnan(x) for x in mean_ci(0.0, 0.0, 0))
    const = mean_ci(10.0, 20.0, 5)   # constant sample of 2s: zero width
    assert const[:3] == pytest.approx((2.0, 2.0, 2.0))


# ---- make_config validation -----------------------------------------------------------

@pytest.mark.parametrize("kwargs, fragment", [
    (dict(deals=-1), "--deals"),
    (dict(seed=-1), "--seed"),
    (dict(seed=2 ** 63), "--seed"),
    (dict(first_deal=-5), "--first-deal"),
    (dict(workers=0), "--workers"),
    (dict(workers=10_000), "--workers"),
    (dict(shard_size=0), "shard size"),
    (dict(players=5, strategies=["greedy"]), "2 to 4 players"),
    (dict(strategies=["greedy", "greedy"]), "one per seat"),
    (dict(options=["first_dealer=3"], players=3, strategies=["greedy"]), "first_dealer"),
])
def test_make_config_rejects(kwargs, fragment):
    with pytest.raises(UsageError) as exc:
        cfg(**kwargs)
    assert fragment in str(exc.value)
    assert "\n" not in str(exc.value)
