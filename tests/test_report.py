"""``sim.report.write_report``: Markdown + PNG reports of run files and experiment datasets.

Small runs (a few thousand deals; the kernels are cached on disk by numba) written once per
module; the tests check the files, the tables, the links and the error messages.
"""
from __future__ import annotations

import re
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytest.importorskip("matplotlib")

from cardsim.sim import experiment, runner  # noqa: E402
from cardsim.sim.errors import UsageError  # noqa: E402
from cardsim.sim.report import paired_difference, write_report  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
STRATS3 = ["greedy", "knocker:threshold=8", "watcher"]


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    d = tmp_path_factory.mktemp("report_sources")
    out = {}
    out["run"] = d / "run.parquet"
    runner.run(runner.make_config("tonk", 3, 3000, 1, STRATS3), str(out["run"]))
    exps = {
        "sweep": (experiment.make_sweep("tonk", "knocker", ["threshold=0:12:4"], players=2, seed=3), 1500),
        "sweep2": (experiment.make_sweep("tonk", "knocker", ["threshold=4,8"],
                                         option_grid=["caught_lowest_bonus=all_others,none"], players=3, seed=4), 800),
        "grid": (experiment.make_sweep("tonk", "knocker", [], option_grid=["initial_upcard=true,false"],
                                       players=2, seed=5), 800),
        "compare": (experiment.make_compare("tonk", ["knocker:threshold=6", "knocker:threshold=8"], players=3,
                                            seed=2), 1500),
    }
    for name, (exp, deals) in exps.items():
        out[name] = d / name
        res = experiment.run_experiment(exp, deals, str(out[name]))
        out[name + "_summary"] = res.summary
        out[name + "_meta"] = res.meta
    return out


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def check_report(md, expected_pngs: set[str]) -> str:
    """The report exists, links exactly the expected PNGs (relative), and they are valid images."""
    assert md.name == "report.md" and md.is_file()
    text = md.read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert set(links) == expected_pngs
    for name in links:
        assert "/" not in name
        w, h = png_size(md.parent / name)
        assert 300 < w < 3000 and 200 < h < 5000
    assert {p.name for p in md.parent.glob("*.png")} == expected_pngs
    return text


def table_rows(text: str, header_start: str, after: str | None = None) -> list[list[str]]:
    """Cells of the first Markdown table whose header starts with ``header_start`` (after the
    line containing ``after``, if given)."""
    lines = text.splitlines()
    k0 = next(k for k, line in enumerate(lines) if after in line) if after else 0
    i = next(k for k, line in enumerate(lines) if k >= k0 and line.startswith(header_start))
    rows = []
    for line in lines[i + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


# ---- run files -------------------------------------------------------------------------

def test_run_report(sources, tmp_path):
    md = write_report(str(sources["run"]), str(tmp_path / "nested" / "rep"))
    assert md == tmp_path / "nested" / "rep" / "report.md"
    text = check_report(md, {"strategies.png", "payouts.png", "outcomes.png"})
    assert text.startswith("# cardsim report: Tonk")
    assert "3,000" in text and "**Seed:** 1" in text and "all defaults" in text
    strat = table_rows(text, "| strategy | seats | win rate | 95% CI | mean payout (chips) | 95% CI |")
    assert [r[0] for r in strat] == ["`greedy`", "`knocker:threshold=8`",
                                     "`watcher:threshold=8,decay=0.5,wary_cards=2`"]
    assert all(re.fullmatch(r"\d+\.\d\d% – \d+\.\d\d%", r[3]) for r in strat)
    assert len(table_rows(text, "| seat | strategy |")) == 3
    outcomes = table_rows(text, "| end reason | deals | share | 95% CI |")
    assert sum(int(r[1].replace(",", "")) for r in outcomes) == 3000
    # payout distribution: one row per seat, shares of each seat sum to ~100%
    dist = table_rows(text, "| seat |", after="Share of deals by payout")
    assert [r[0] for r in dist] == ["0: `greedy`", "1: `knocker:threshold=8`",
                                    "2: `watcher:threshold=8,decay=0.5,wary_cards=2`"]
    for row in dist:
        shares = [float(c.rstrip("%")) for c in row[1:-1] if c.endswith("%") and not c.startswith("<")]
        assert abs(sum(shares) - 100) < 1.0


def test_run_report_matches_summary(sources, tmp_path):
    res = runner.summarize_file(sources["run"])
    text = write_report(str(sources["run"]), str(tmp_path)).read_text(encoding="utf-8")
    for r in res.summary["strategies"]:
        assert f"{100 * r['win_rate']:.2f}%" in text
    mean_turns = res.summary["mean_turns"]
    assert f"Mean turns per deal: {mean_turns:.2f}" in text


def test_options_that_differ_are_listed(tmp_path):
    path = tmp_path / "opt.parquet"
    runner.run(runner.make_config("tonk", 2, 500, 9, ["knocker"], ["stake=2", "must_spread=true"]), str(path))
    text = write_report(str(path), str(tmp_path / "rep")).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("- **Rule options:**"))
    assert "`stake=2`" in line and "`must_spread=true`" in line and "initial_upcard" not in line


def test_empty_run_file(tmp_path):
    path = tmp_path / "zero.parquet"
    runner.run(runner.make_config("tonk", 3, 0, 1), str(path))
    md = write_report(str(path), str(tmp_path / "rep"))
    assert "no deals" in check_report(md, set())


# ---- experiment datasets ---------------------------------------------------------------------

def best_point(summary) -> dict:
    return max(summary["points"], key=lambda r: r["mean_payout"])


def test_sweep_report(sources, tmp_path):
    md = write_report(str(sources["sweep"]), str(tmp_path))
    text = check_report(md, {"sweep.png", "payouts.png", "outcomes.png"})
    rows = table_rows(text, "| point | label | mean payout (chips) |")
    assert [r[1].split()[0] for r in rows] == ["`threshold=0`", "`threshold=4`", "`threshold=8`", "`threshold=12`"]
    assert rows[0][6] == "reference"
    best = best_point(sources["sweep_summary"])
    assert f"The best point by mean payout is **{best['label']}**" in text
    assert "runner-up" in text and "95% CI" in text
    assert sum("**(best)**" in r[1] for r in rows) == 1
    assert "grid: `threshold` = 0, 4, 8, 12" in text
    assert len(table_rows(text, "| point |", after="Share of deals by payout")) == 4
    outcomes = table_rows(text, "| point |", after="by how they ended")
    assert [r[-1] for r in outcomes] == ["3,000"] * 4          # 2 lineups x 1500 deals


def test_two_parameter_sweep_draws_curves(sources, tmp_path):
    md = write_report(str(sources["sweep2"]), str(tmp_path))
    text = check_report(md, {"sweep.png", "payouts.png", "outcomes.png"})
    assert "varied by the grid: `caught_lowest_bonus`" in text
    assert len(table_rows(text, "| point | label | mean payout (chips) |")) == 4


def test_non_numeric_grid_draws_bars(sources, tmp_path):
    md = write_report(str(sources["grid"]), str(tmp_path))
    check_report(md, {"points.png", "payouts.png", "outcomes.png"})


def test_compare_report(sources, tmp_path):
    md = write_report(str(sources["compare"]), str(tmp_path))
    text = check_report(md, {"points.png", "payouts.png", "outcomes.png"})
    assert "comparison of 2 strategies" in text
    assert "field `greedy`" in text
    outcomes = table_rows(text, "| point |", after="by how they ended")
    assert [r[-1] for r in outcomes] == ["4,500", "4,500"]   # 3 lineups x 1500 deals
    assert "Share of deals (all lineups)" in text and "games" not in text      # Tonk's records are deals


def test_paired_difference_matches_summary(sources):
    s, meta = sources["sweep_summary"], sources["sweep_meta"]
    for k in (1, 3):
        m, lo, hi, se, n = paired_difference(sources["sweep"], 0, k, 2, 0, s["deals"])
        row = s["points"][k]
        assert n == s["deals"]
        assert m == pytest.approx(row["diff"], abs=1e-12)
        assert (lo, hi, se) == pytest.approx((row["diff_lo"], row["diff_hi"], row["diff_se"]), rel=1e-9)
    # antisymmetric, and small chunks give the same answer
    import cardsim.sim.report as report
    m2 = paired_difference(sources["sweep"], 3, 1, 2, 0, s["deals"])[0]
    old = report.PAIRED_CHUNK
    try:
        report.PAIRED_CHUNK = 250
        m3 = paired_difference(sources["sweep"], 1, 3, 2, 0, s["deals"])[0]
    finally:
        report.PAIRED_CHUNK = old
    ref = s["points"][3]["diff"] - s["points"][1]["diff"]
    assert m3 == pytest.approx(ref, abs=1e-12) and m2 == pytest.approx(-ref, abs=1e-12)
    assert meta["kind"] == "sweep"


def test_report_is_rewritten_in_place(sources, tmp_path):
    """A previous report is replaced only with overwrite (issue 13: an existing output is refused)."""
    first = write_report(str(sources["compare"]), str(tmp_path)).read_text(encoding="utf-8")
    with pytest.raises(UsageError, match="exists; pass --overwrite"):
        write_report(str(sources["compare"]), str(tmp_path))
    second = write_report(str(sources["compare"]), str(tmp_path), overwrite=True).read_text(encoding="utf-8")
    assert first == second


# ---- errors ----------------------------------------------------------------------------------

def test_missing_source(tmp_path):
    with pytest.raises(UsageError, match="no such file or directory"):
        write_report(str(tmp_path / "nope.parquet"), str(tmp_path / "rep"))
    assert not (tmp_path / "rep").exists()


def test_not_a_cardsim_file(tmp_path):
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"x": [1, 2, 3]}), plain)
    with pytest.raises(UsageError, match="not a cardsim output"):
        write_report(str(plain), str(tmp_path / "rep"))
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(UsageError, match="not a Parquet file"):
        write_report(str(text), str(tmp_path / "rep"))


def test_directory_without_summary(tmp_path):
    with pytest.raises(UsageError, match="not a cardsim output"):
        write_report(str(tmp_path), str(tmp_path / "rep"))
    (tmp_path / "_summary.json").write_text("{not json")
    with pytest.raises(UsageError, match="unreadable _summary.json"):
        write_report(str(tmp_path), str(tmp_path / "rep"))


def test_part_file_of_a_dataset(sources, tmp_path):
    part = next((sources["compare"] / "point-0").glob("*.parquet"))
    with pytest.raises(UsageError, match="report its directory"):
        write_report(str(part), str(tmp_path))


def test_out_dir_not_creatable(sources, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UsageError, match="not a directory"):
        write_report(str(sources["run"]), str(blocker))
    with pytest.raises(UsageError, match="cannot create the report directory"):
        write_report(str(sources["run"]), str(blocker / "sub"))


def test_matplotlib_missing(sources, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(UsageError, match=r"pip install 'cardsim\[report\]'"):
        write_report(str(sources["run"]), str(tmp_path / "rep"))
    assert not (tmp_path / "rep").exists()


def test_errors_are_one_line(tmp_path):
    with pytest.raises(UsageError) as info:
        write_report(str(tmp_path / "missing"), str(tmp_path))
    assert "\n" not in str(info.value)


# ---- histograms ------------------------------------------------------------------------------

def test_int_hist_grows_and_bins(tmp_path):
    import numpy as np
    from cardsim.sim.report import IntHist, _binned, _common_bins, _distribution_plot
    h = IntHist()
    h.add(np.array([0, 1, 1]))
    h.add(np.array([-3, 5]))
    h.add(np.array([], dtype=np.int32))
    assert h.lo == -3 and h.total == 5 and h.span() == (-3, 5)
    assert h.counts.tolist() == [1, 0, 0, 1, 2, 0, 0, 0, 1]
    assert _common_bins([h]) == [(v, v) for v in range(-3, 6)]
    wide = IntHist()
    wide.add(np.arange(-100, 201))
    bins = _common_bins([h, wide])
    assert bins[0][0] == -100 and bins[-1][1] == 200 and len(bins) <= 31
    assert _binned(wide, bins).sum() == 301 and _binned(h, bins).sum() == 5
    name = _distribution_plot(tmp_path, "wide.png", "wide", [("a", h), ("b", wide)], "seat")
    assert png_size(tmp_path / name)[0] > 300


def test_cli_report(sources, tmp_path):
    """`cardsim report SOURCE --out DIR` writes the report; a bad source exits 2 with one line."""
    from typer.testing import CliRunner

    from cardsim.sim.cli import app
    res = CliRunner().invoke(app, ["report", str(sources["run"]), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "rep" / "report.md").exists() and "wrote" in res.stdout
    res = CliRunner().invoke(app, ["report", str(tmp_path / "missing.parquet"), "--out", str(tmp_path / "x")])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("Error:")
    assert not (tmp_path / "x").exists()


def test_units_are_the_games_records(tmp_path, monkeypatch):
    """Telefunken's record is a game: the report's title, headings, table and notes and every
    plot's title and axes say games, never deals (issue 43: units a reader can trust)."""
    from cardsim.sim import report
    texts = []

    def hook(name, fig):
        for ax in fig.axes:
            texts.extend([ax.get_title(), ax.get_xlabel(), ax.get_ylabel()])
        texts.append(fig._suptitle.get_text() if fig._suptitle else "")
    monkeypatch.setattr(report, "FIGURE_HOOK", hook)
    quick = ["max_turns_per_hand=12"]
    run = tmp_path / "telefunken.parquet"
    runner.run(runner.make_config("telefunken", 3, 40, 1, ["greedy"], quick), str(run))
    comp = tmp_path / "cmp"
    experiment.run_experiment(experiment.make_compare("telefunken", ["greedy", "random"], players=3, seed=2,
                                                      options=quick), 20, str(comp))
    for src, name in ((run, "r"), (comp, "c")):
        md = write_report(str(src), str(tmp_path / name))
        text = md.read_text(encoding="utf-8")
        assert "games" in text and not re.search(r"\bdeals?\b", text.replace("deal indices", "")), text
    shown = " | ".join(t for t in texts if t)
    assert "per game" in shown and "games" in shown and not re.search(r"\bdeals?\b", shown), shown
