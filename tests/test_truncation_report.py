"""Issue 15: the share of deals stopped by a turn cap is printed by every run and comparison
summary (terminal and JSON) and by both kinds of report. Tonk with a tiny turn cap truncates
most deals, so the figures are checked against the records themselves."""
from __future__ import annotations

import json
import re

import pyarrow.parquet as pq
import pytest

from cli_helpers import invoke

CAP = ["--option", "max_turns=3", "--seed", "5", "--players", "3", "--quiet"]


def test_run_summary_prints_truncated_share(tmp_path):
    out = tmp_path / "run.parquet"
    res = invoke("run", "tonk", "--deals", 600, *CAP, "--out", out)
    assert res.exit_code == 0, res.output
    m = re.search(r"truncated deals ([\d,]+) \((\d+\.\d\d)%, stopped by a turn cap\)", res.stdout)
    assert m, res.stdout
    truncated = pq.read_table(out, columns=["truncated"])["truncated"].to_numpy()
    assert int(m.group(1).replace(",", "")) == int(truncated.sum()) > 0
    assert float(m.group(2)) == pytest.approx(100 * truncated.mean(), abs=0.006)
    doc = json.loads(invoke("run", "tonk", "--deals", 600, *CAP, "--json").stdout)
    assert doc["summary"]["truncated_share"] == pytest.approx(truncated.mean())


def test_compare_summary_prints_truncated_share_per_point(tmp_path):
    res = invoke("compare", "tonk", "--deals", 300, *CAP, "--strategy", "greedy", "--strategy", "knocker",
                 "--field", "greedy")
    assert res.exit_code == 0, res.output
    assert re.search(r"truncated deals \(stopped by a turn cap\): .*\d+\.\d\d%", res.stdout), res.stdout
    doc = json.loads(invoke("compare", "tonk", "--deals", 300, *CAP, "--strategy", "greedy", "--strategy",
                            "knocker", "--field", "greedy", "--json").stdout)
    for p in doc["summary"]["points"]:
        assert 0 < p["truncated_share"] <= 1 and p["truncated"] == round(p["truncated_share"] * 300 * 3)


def test_reports_state_truncated_share(tmp_path):
    pytest.importorskip("matplotlib")
    run = tmp_path / "run.parquet"
    assert invoke("run", "tonk", "--deals", 300, *CAP, "--out", run).exit_code == 0
    cmp_dir = tmp_path / "cmp"
    assert invoke("compare", "tonk", "--deals", 200, *CAP, "--strategy", "greedy", "--strategy", "knocker",
                  "--field", "greedy", "--out", cmp_dir).exit_code == 0
    for src, pattern in ((run, r"\(truncated\): [\d,]+ \(\d+\.\d\d%\)"),
                         (cmp_dir, r"stopped by a turn cap \(truncated\): 0: [\d,]+ \(\d+\.\d\d%\); 1: ")):
        rep = tmp_path / f"rep-{src.name}"
        res = invoke("report", src, "--out", rep)
        assert res.exit_code == 0, res.output
        text = next(rep.glob("*.md")).read_text()
        assert re.search(pattern, text), text[-2000:]
