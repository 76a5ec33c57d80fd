"""Study: the best knock threshold at Tonk for 2, 3 and 4 players against greedy opponents.

    python scripts/study_tonk_knock.py [--deals 200000] [--seed 2026] [--out results/tonk_knock_threshold]

For each player count, ``knocker:threshold=t`` (t = 0..20) takes every seat in turn against
greedy opponents on the very same deals (duplicate deals, common random numbers). Writes
``summary.parquet`` (one row per players x threshold with 95% intervals, and the paired
difference to that player count's best threshold), ``report.md`` and plots. Needs the
``report`` extra (matplotlib).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.dataset as ds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.experiment import make_sweep, run_experiment  # noqa: E402
from sim.stats import mean_ci  # noqa: E402


def per_deal_scores(dataset_dir: Path, points: int, deals: int, lineups: int) -> np.ndarray:
    """X[point, deal]: mean over lineups of the counted seat's payout, from the dataset rows."""
    table = ds.dataset(dataset_dir, format="parquet", partitioning="hive").to_table(
        columns=["point", "deal_id", "lineup", "payout"])
    df = table.to_pandas().sort_values(["point", "lineup", "deal_id"])
    return df["payout"].to_numpy(np.float64).reshape(points, lineups, deals).mean(axis=1)


def paired_to_best(x: np.ndarray, best: int) -> list[tuple[float, float, float, float]]:
    out = []
    for p in range(x.shape[0]):
        d = x[p] - x[best]
        out.append(mean_ci(float(d.sum()), float((d * d).sum()), d.size))
    return out


def plot(df: pd.DataFrame, path: Path, deals: int) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), dpi=110)
    for n, g in df.groupby("players"):
        best = g.loc[g["mean_payout"].idxmax()]
        line, = axes[0].plot(g["threshold"], g["mean_payout"], marker="o", ms=4,
                             label=f"{n} players (best: {int(best['threshold'])})")
        axes[0].fill_between(g["threshold"], g["payout_lo"], g["payout_hi"], alpha=0.25, color=line.get_color())
        axes[0].plot([best["threshold"]], [best["mean_payout"]], marker="*", ms=16, color=line.get_color(),
                     markeredgecolor="black")
        line, = axes[1].plot(g["threshold"], 100 * g["win_rate"], marker="o", ms=4, label=f"{n} players")
        axes[1].fill_between(g["threshold"], 100 * g["win_lo"], 100 * g["win_hi"], alpha=0.25,
                             color=line.get_color())
    axes[0].axhline(0, color="grey", lw=0.8)
    axes[0].set(title="Mean payout of the knocker seat (chips per deal, S = 1)", xlabel="knock threshold (points)",
                ylabel="chips per deal (95% CI band)")
    axes[1].set(title="Deals won outright by the knocker seat", xlabel="knock threshold (points)",
                ylabel="win rate, % (95% CI band)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend()
        ax.set_xticks(sorted(df["threshold"].unique()))
    fig.suptitle(f"Tonk: knocker vs greedy opponents, {deals:,} duplicate deals per point, seats rotated")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--max-threshold", type=int, default=20)
    ap.add_argument("--out", default=str(ROOT / "results" / "tonk_knock_threshold"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in (2, 3, 4):
            exp = make_sweep("tonk", "knocker", [f"threshold=0:{args.max_threshold}:1"], players=n, field="greedy",
                             seed=args.seed, deals=args.deals)
            res = run_experiment(exp, args.deals, str(Path(tmp) / f"n{n}"))
            pts = pd.DataFrame(res.summary["points"])
            x = per_deal_scores(Path(tmp) / f"n{n}", len(pts), args.deals, n)
            best = int(pts["mean_payout"].idxmax())
            vs_best = paired_to_best(x, best)
            pts["players"] = n
            pts["diff_to_best"] = [v[0] for v in vs_best]
            pts["diff_to_best_lo"] = [v[1] for v in vs_best]
            pts["diff_to_best_hi"] = [v[2] for v in vs_best]
            pts["indistinguishable_from_best"] = [(v[1] <= 0 <= v[2]) or i == best for i, v in enumerate(vs_best)]
            rows.append(pts)
            print(f"{n} players: best threshold {int(pts.loc[best, 'threshold'])} "
                  f"({pts.loc[best, 'mean_payout']:+.4f} chips/deal)", flush=True)
    df = pd.concat(rows, ignore_index=True)
    df["threshold"] = df["threshold"].astype(int)
    keep = ["players", "threshold", "mean_payout", "payout_lo", "payout_hi", "win_rate", "win_lo", "win_hi",
            "diff", "diff_lo", "diff_hi", "diff_se", "variance_reduction", "diff_to_best", "diff_to_best_lo",
            "diff_to_best_hi", "indistinguishable_from_best"]
    df = df[keep]
    df.to_parquet(out / "summary.parquet", index=False)
    plot(df, out / "knock_threshold.png", args.deals)
    write_markdown(df, out / "report.md", args, time.perf_counter() - t0)
    print(f"wrote {out}")


def write_markdown(df: pd.DataFrame, path: Path, args, wall: float) -> None:
    lines = ["# Tonk: the best knock threshold against greedy opponents", "",
             f"`python scripts/study_tonk_knock.py --deals {args.deals} --seed {args.seed}` "
             f"(wall time {wall / 60:.1f} min on 2 cores).", "",
             "One `knocker:threshold=t` seat (greedy play, knocks at the start of a turn when its count is at most "
             "t) against greedy opponents, default (seed) rules, S = 1. Every threshold plays the very same "
             f"{args.deals:,} deals from every seat (duplicate deals, seats rotated), so differences between "
             "thresholds are paired. Mean payout = chips won per deal by the knocker seat.", "",
             "## Answer", ""]
    for n, g in df.groupby("players"):
        b = g.loc[g["mean_payout"].idxmax()]
        near = sorted(g.loc[g["indistinguishable_from_best"], "threshold"].astype(int))
        lines.append(f"- **{n} players**: best threshold **{int(b['threshold'])}**, "
                     f"{b['mean_payout']:+.4f} chips per deal (95% CI {b['payout_lo']:+.4f} to {b['payout_hi']:+.4f}); "
                     f"thresholds not significantly worse (paired 95% CI of the difference contains 0): "
                     f"{', '.join(map(str, near))}.")
    lines += ["", "![knock threshold](knock_threshold.png)", "", "## All points", ""]
    for n, g in df.groupby("players"):
        lines += [f"### {n} players", "",
                  "| threshold | mean payout | 95% CI | win rate | 95% CI | diff to best | 95% CI |",
                  "|---:|---:|---|---:|---|---:|---|"]
        for _, r in g.iterrows():
            lines.append(f"| {int(r['threshold'])} | {r['mean_payout']:+.4f} | {r['payout_lo']:+.4f} – "
                         f"{r['payout_hi']:+.4f} | {100 * r['win_rate']:.2f}% | {100 * r['win_lo']:.2f} – "
                         f"{100 * r['win_hi']:.2f}% | {r['diff_to_best']:+.4f} | {r['diff_to_best_lo']:+.4f} – "
                         f"{r['diff_to_best_hi']:+.4f} |")
        lines.append("")
    lines += ["Data: `summary.parquet` (one row per players × threshold; `diff*` columns are paired differences "
              "to threshold 0, `diff_to_best*` to the best threshold of that player count).", ""]
    path.write_text("\n".join(lines))


if __name__ == "__main__":
    main()
