"""``cardsim tune`` (issue 16): a known answer found in a fraction of a sweep's deals,
determinism, ``--self``, the dataset and report it writes, and every bad input refused in
one line with exit code 2 and nothing written.

The known answer: Tonk, 2 players, ``knocker`` against greedy. A sweep of ``threshold`` over
0..20 on 20,000 duplicate deals per point (420,000 deals) is the reference; the tuner, with a
budget of a seventh of that, must return a point whose sweep mean lies within the 95 %
interval of the sweep's best point.
"""
from __future__ import annotations

import json
import os

import pyarrow.parquet as pq
import pytest

from cardsim.sim.errors import UsageError
from cardsim.sim.experiment import make_sweep, run_experiment
from cardsim.sim.tune import make_tune, run_tune
from cli_helpers import invoke

pytest.importorskip("optuna")

SWEEP_DEALS = 20_000
BUDGET = 60_000


@pytest.fixture(scope="module")
def sweep():
    exp = make_sweep("tonk", "knocker", ["threshold=0:20:1"], players=2, seed=5, deals=SWEEP_DEALS, workers=1)
    pts = run_experiment(exp, SWEEP_DEALS).summary["points"]
    return {float(p["threshold"]): p for p in pts}


def tonk_cfg(**kw):
    args = dict(game="tonk", strategy="knocker", params=["threshold=0:20:1"], players=2, budget=BUDGET, seed=5,
                workers=1)
    args.update(kw)
    return make_tune(**args)


def test_tune_finds_the_sweeps_best_point_in_a_seventh_of_its_deals(sweep):
    best = max(sweep.values(), key=lambda p: p["mean_payout"])
    res = run_tune(tonk_cfg())
    s = res.summary
    assert s["search_deals"] <= BUDGET < len(sweep) * SWEEP_DEALS / 6
    found = float(s["best"].split("threshold=")[1])
    assert best["payout_lo"] <= sweep[found]["mean_payout"] <= best["payout_hi"], (s["best"], best["label"])
    # the interval printed is the re-measurement's, on other deals than the search's
    r = s["rounds"][0]
    assert r["remeasure_seed"] != r["seed"]
    assert s["best_lo"] < s["best_mean"] < s["best_hi"]
    assert r["remeasured"][0]["label"] == "greedy" and len(r["remeasured"]) == 1 + 3


def test_tune_is_deterministic_for_a_seed_and_any_thread_count():
    a = run_tune(tonk_cfg(params=["threshold=0:20"], budget=20_000)).summary
    b = run_tune(tonk_cfg(params=["threshold=0:20"], budget=20_000, workers=2)).summary
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    c = run_tune(tonk_cfg(params=["threshold=0:20"], budget=20_000, seed=6)).summary
    assert json.dumps(a, sort_keys=True) != json.dumps(c, sort_keys=True)


def test_tune_warns_when_the_best_point_is_on_the_edge_of_the_box():
    s = run_tune(tonk_cfg(params=["threshold=5:20:1"], budget=20_000)).summary
    assert s["best"] == "knocker:threshold=5"
    assert s["edges"] and "low end" in s["edges"][0]


def test_tune_self_prints_each_round_and_stops(tmp_path):
    r = invoke("tune", "tonk", "--strategy", "watcher", "--param", "threshold=0:20", "--param", "decay=0:2",
               "-p", "3", "--budget", "20000", "--self", "--rounds", "3", "--seed", "2", "-w", "1", "-q",
               "--out", str(tmp_path / "t"))
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if ln.startswith("round ")]
    doc = json.loads((tmp_path / "t" / "_summary.json").read_text())
    s = doc["summary"]
    assert len(lines) == len(s["rounds"]) >= 1
    assert s["status"] in ("converged", "cycle", "not_converged")
    for k, rnd in enumerate(s["rounds"][1:], 1):          # each round's field is the previous best
        assert rnd["field"] == s["rounds"][k - 1]["best"]
    if s["status"] == "not_converged":
        assert len(s["rounds"]) == 3 and "NOT converged" in r.output
    assert "paste: --strategy watcher:" in r.output


def test_tune_self_with_a_step_moves_the_field_part_of_the_way():
    cfg = make_tune("tonk", "knocker", ["threshold=0:20:1"], players=2, budget=12_000, seed=3, self_play=True,
                    rounds=3, step=0.5, workers=1)
    s = run_tune(cfg).summary
    for prev, rnd in zip(s["rounds"], s["rounds"][1:]):
        f = float(prev["field"].split("=")[1])
        b = float(prev["best"].split("=")[1])
        assert float(rnd["field"].split("=")[1]) == round(f + 0.5 * (b - f))
    if s["status"] != "converged":      # no fixed point: the least exploitable field met
        assert s["gain"] == min(r["gain"] for r in s["rounds"])


def test_tune_writes_every_evaluation_and_a_report(tmp_path):
    out = tmp_path / "t"
    r = invoke("tune", "tonk", "--strategy", "knocker", "--param", "threshold=0:12:1", "-p", "2", "--budget",
               "12000", "-q", "-w", "1", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(os.listdir(out)) == ["_summary.json", "evaluations.parquet"]
    ev = pq.read_table(out / "evaluations.parquet").to_pandas()
    assert set(ev["phase"]) == {"search", "remeasure"}
    assert {"round", "trial", "rung", "deals", "mean", "lo", "hi", "label", "param_threshold"} <= set(ev.columns)
    assert json.loads((out / "_summary.json").read_text())["meta"]["kind"] == "tune"
    # a second run over it needs --overwrite, and then replaces it
    again = invoke("tune", "tonk", "--strategy", "knocker", "--param", "threshold=0:12:1", "-p", "2", "--budget",
                   "12000", "-q", "-w", "1", "--out", str(out))
    assert again.exit_code == 2 and "--overwrite" in again.output
    assert invoke("tune", "tonk", "--strategy", "knocker", "--param", "threshold=0:12:1", "-p", "2", "--budget",
                  "12000", "-q", "-w", "1", "--out", str(out), "--overwrite").exit_code == 0
    pytest.importorskip("matplotlib")
    rep = invoke("report", str(out), "--out", str(tmp_path / "rep"))
    assert rep.exit_code == 0, rep.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "## Rounds" in text and "convergence.png" in text and "--strategy knocker:threshold=" in text
    assert (tmp_path / "rep" / "convergence.png").is_file()


def test_tune_json_output():
    r = invoke("tune", "tonk", "--strategy", "knocker", "--param", "threshold=0:8:1", "-p", "2", "--budget",
               "6000", "-w", "1", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["summary"]["best"].startswith("knocker:threshold=") and doc["meta"]["kind"] == "tune"


BAD = [
    (["--param", "nope=0:3"], "has no parameter 'nope'"),
    (["--param", "threshold=5:5"], "need LO < HI"),
    (["--param", "threshold=0:99"], "leaves the range"),
    (["--param", "threshold=a:b"], "must be numbers"),
    (["--param", "threshold"], "must be NAME=LO:HI"),
    (["--param", "threshold=0:8", "--param", "threshold=1:2"], "given twice"),
    (["--param", "threshold=0:8:3"], "whole number of STEPs"),
    (["--param", "threshold=0:8", "--budget", "100"], "below one fully measured point"),
    (["--param", "threshold=0:8", "--budget", "0"], "--budget must be >= 1"),
    (["--param", "threshold=0:8", "--sampler", "grid"], "--sampler must be one of"),
    (["--param", "threshold=0:8", "--sampler", "cmaes"], "at least two --param"),
    (["--param", "threshold=0:8", "--eta", "1"], "--eta must be >= 2"),
    (["--param", "threshold=0:8", "--rounds", "0"], "--rounds must be in 1..50"),
    (["--param", "threshold=0:8", "--top", "0"], "--top must be >= 1"),
    (["--param", "threshold=0:8", "--self", "--field", "greedy"], "--self: the field must be"),
    (["--param", "threshold=0:8", "--field", "nobody"], "unknown strategy 'nobody'"),
    (["--param", "threshold=0:8", "-p", "9"], "takes 2 to"),
    (["--param", "threshold=0:8", "--step", "0.5"], "give it with --self"),
    (["--param", "threshold=0:8", "--self", "--step", "0"], "--step must be in (0, 1]"),
    ([], "at least one --param"),
]


@pytest.mark.parametrize("extra,words", BAD, ids=[" ".join(b[0]) or "no-param" for b in BAD])
def test_tune_refuses_bad_input_in_one_line(tmp_path, extra, words):
    (tmp_path / "mine.txt").write_text("keep\n")
    r = invoke("tune", "tonk", "--strategy", "knocker", *extra, "--out", "t", cwd=tmp_path)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], r.output
    assert sorted(os.listdir(tmp_path)) == ["mine.txt"]


def test_tune_refuses_a_fixed_and_tuned_parameter_and_a_foreign_out(tmp_path):
    with pytest.raises(UsageError, match="both fixed"):
        make_tune("tonk", "knocker:threshold=3", ["threshold=0:8"], players=2, budget=10_000)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("mine\n")
    r = invoke("tune", "tonk", "--strategy", "knocker", "--param", "threshold=0:8", "-p", "2", "--budget",
               "10000", "--out", str(tmp_path / "notes"), "--overwrite")
    assert r.exit_code == 2 and "not a previous cardsim tune dataset" in r.output
    assert os.listdir(tmp_path / "notes") == ["a.txt"]


def test_tune_records_whole_number_parameters_as_integers():
    """Issue 43: a whole-number parameter (Tonk watcher's wary_cards) is an integer column of the
    evaluations (empty in the re-measurement rows), a real one a float column."""
    import cardsim
    r = cardsim.tune("tonk", "watcher", {"wary_cards": (0, 5), "decay": (0, 2)}, budget=3000, workers=1)
    ev = r.records
    assert str(ev["param_wary_cards"].dtype) == "Int64" and ev["param_decay"].dtype == "float64"
    search = ev[ev["phase"] == "search"]
    assert search["param_wary_cards"].notna().all() and ev.loc[ev["phase"] == "remeasure", "param_wary_cards"].isna().all()
    assert all(f"wary_cards={int(v)}" in lab for v, lab in zip(search["param_wary_cards"], search["label"]))


def test_summarize_and_replay_of_a_tune_folder(tmp_path):
    """Issue 43: ``summarize`` of a ``tune --out`` folder prints its rounds and verdict as tune
    did (``--json``: its summary); ``replay`` of it says what a tune folder is and how to replay
    its best point (one line, exit 2)."""
    out = tmp_path / "t"
    r = invoke("tune", "tonk", "--strategy", "watcher", "--param", "wary_cards=0:5", "-p", "2", "--budget", "2000",
               "-q", "-w", "1", "--out", str(out))
    assert r.exit_code == 0, r.output
    best = next(ln for ln in r.stdout.splitlines() if ln.startswith("paste:"))
    s = invoke("summarize", str(out))
    assert s.exit_code == 0, s.output
    assert "round 0: field greedy" in s.stdout and best in s.stdout and "chips a deal" in s.stdout
    doc = json.loads(invoke("summarize", str(out), "--json").stdout)
    assert doc["meta"]["kind"] == "tune" and doc["summary"]["best"] in best
    rep = invoke("replay", str(out))
    assert rep.exit_code == 2 and rep.stderr.count("\n") == 1 and "is a tune output" in rep.stderr
    assert f"cardsim replay tonk --strategy {doc['summary']['best']}" in rep.stderr
