"""Issue 18: ``summarize`` and ``report`` read compare/sweep datasets as well as run files,
``_summary.json`` keeps numbers as numbers, and output folders get the normal permissions."""
from __future__ import annotations

import json
import os
import stat

import pytest

from cli_helpers import assert_usage_error, invoke, sub

SWEEP = ["sweep", "tonk", "--strategy", "knocker", "--param", "threshold=4,8.5", "--option-grid",
         "caught_lowest_bonus=all_others,none", "--deals", "600", "--seed", "3", "--shard-size", "250", "-q"]


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "sweep"
    res = invoke(*SWEEP, "--out", out, "--json")
    assert res.exit_code == 0, res.output
    return out, json.loads(res.stdout)


@pytest.fixture(scope="module")
def compare(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "cmp"
    res = invoke("compare", "tonk", "--strategy", "knocker:threshold=6", "--strategy", "greedy", "--strategy",
                 "watcher", "--players", "3", "--deals", "500", "--out", out, "--json", "-q")
    assert res.exit_code == 0, res.output
    return out, json.loads(res.stdout)


def _same(a: dict, b: dict):
    assert a["deals"] == b["deals"] and len(a["points"]) == len(b["points"])
    for x, y in zip(a["points"], b["points"]):
        for k, v in x.items():
            if isinstance(v, float):
                assert y[k] == pytest.approx(v, rel=1e-9, abs=1e-12), k
            else:
                assert y[k] == v, k


@pytest.mark.parametrize("which", ["sweep", "compare"])
def test_summarize_a_dataset_recomputes_its_statistics(which, sweep, compare):
    out, printed = sweep if which == "sweep" else compare
    res = invoke("summarize", out, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    _same(printed["summary"], doc["summary"])
    assert doc["meta"]["kind"] == which
    text = invoke("summarize", f"{out}/")                  # a trailing slash too
    assert text.exit_code == 0 and "per point" in text.stdout and "variance reduction" in text.stdout
    assert printed["summary"]["points"][1]["label"] in text.stdout


def test_summarize_dataset_in_a_subprocess(sweep):
    out, printed = sweep
    proc = sub("summarize", out, "--json")
    assert proc.returncode == 0, proc.stderr
    _same(printed["summary"], json.loads(proc.stdout)["summary"])


def test_summarize_dataset_bad_inputs(sweep, tmp_path):
    out, _ = sweep
    assert_usage_error(invoke("summarize", tmp_path), "not a compare/sweep dataset")
    assert_usage_error(invoke("summarize", out / "point-0"), "not a compare/sweep dataset")
    assert_usage_error(invoke("summarize", out / "point-0" / "part-0.parquet"), "one part of a sweep dataset",
                       repr(str(out.resolve())))
    assert_usage_error(invoke("summarize", tmp_path / "nothing"), "no such file")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "_summary.json").write_text("{not json")
    assert_usage_error(invoke("summarize", broken), "_summary.json")
    # rows missing: the dataset is not what its _summary.json describes
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "_summary.json").write_text((out / "_summary.json").read_text())
    for k in range(4):
        (damaged / f"point-{k}").mkdir()
        (damaged / f"point-{k}" / "part-0.parquet").write_bytes((out / f"point-{k}" / "part-0.parquet").read_bytes())
    (damaged / "point-3" / "part-0.parquet").unlink()
    assert_usage_error(invoke("summarize", damaged), "lacks the rows")


def test_report_reads_datasets_and_run_files(sweep, compare, tmp_path):
    for src in (sweep[0], compare[0]):
        res = invoke("report", src, "--out", tmp_path / f"rep-{src.name}")
        assert res.exit_code == 0, res.output
        assert (tmp_path / f"rep-{src.name}" / "report.md").read_text().startswith("# cardsim report: ")
    run = tmp_path / "run.parquet"
    assert invoke("run", "tonk", "--deals", "300", "--out", run, "-q").exit_code == 0
    assert invoke("report", run, "--out", tmp_path / "rep-run").exit_code == 0
    assert invoke("summarize", run).exit_code == 0


def test_summary_json_keeps_numbers_as_numbers(sweep):
    out, _ = sweep
    doc = json.loads((out / "_summary.json").read_text())
    assert [p["params"] for p in doc["meta"]["points"]] == [
        {"threshold": t, "caught_lowest_bonus": c} for t in (4, 8.5) for c in ("all_others", "none")]
    assert isinstance(doc["meta"]["points"][0]["params"]["threshold"], int)
    assert isinstance(doc["meta"]["points"][2]["params"]["threshold"], float)

    def strings_that_are_numbers(x, path=""):
        if isinstance(x, dict):
            return [s for k, v in x.items() for s in strings_that_are_numbers(v, f"{path}.{k}")]
        if isinstance(x, list):
            return [s for i, v in enumerate(x) for s in strings_that_are_numbers(v, f"{path}[{i}]")]
        if isinstance(x, str) and x.strip().lstrip("+-").replace(".", "", 1).isdigit():
            return [path]
        return []
    # labels are text by nature; versions are version strings
    found = [p for p in strings_that_are_numbers(doc) if not p.endswith(".label") and ".versions." not in p]
    assert not found, found


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_outputs_get_the_normal_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        out = tmp_path / "sweep"
        assert invoke(*SWEEP, "--out", out).exit_code == 0
        assert _mode(out) == 0o755
        assert all(_mode(p) == 0o755 for p in out.glob("point-*"))
        assert _mode(out / "_summary.json") == 0o644
        rep = tmp_path / "rep"
        assert invoke("report", out, "--out", rep).exit_code == 0
        assert _mode(rep) == 0o755
        os.umask(0o027)
        again = tmp_path / "sweep2"
        assert invoke(*SWEEP, "--out", again).exit_code == 0
        assert _mode(again) == 0o750                       # the umask decides, as for mkdir
        assert invoke(*SWEEP, "--out", again, "--overwrite").exit_code == 0
        assert _mode(again) == 0o750
    finally:
        os.umask(old)
