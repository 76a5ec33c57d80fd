"""Study: the best knock threshold at Tonk for 2, 3 and 4 players, against two fields.

    python scripts/studies/study_tonk_knock.py [--deals 100000] [--seed 2026] [--fields greedy,knocker:threshold=8,strong]
                                       [--out results/tonk_knock_threshold]

For each field (greedy opponents, who never knock; the ``strong`` table, the self-consistent
expert field of ``cardsim tune --self``) and player count, ``knocker:threshold=t`` (t = 0..30,
extended in steps of 10 up to the parameter's end, 50, while the best threshold is the grid's
last) takes every seat in turn against the field on the very same deals (duplicate deals,
common random numbers). Writes ``summary.parquet`` (one row per field x players x threshold
with 95% intervals, and the paired difference to that field and player count's best
threshold), ``report.md`` (the answer per field and a verdict: robust or field-dependent) and
plots. Needs the ``report`` extra (matplotlib).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.sim.experiment import ExperimentAccumulator, make_sweep, play_experiment_shard  # noqa: E402
from cardsim.sim.stats import mean_ci  # noqa: E402

SHARD = 1 << 15
TOP = 50                   # the threshold parameter's own maximum


def sweep_scores(field: str, n: int, hi: int, deals: int, seed: int):
    """(summary points, X[point, deal]) of knocker thresholds 0..hi against ``field``: X is the
    mean over lineups of the candidate seat's payout on each deal (kept in memory)."""
    exp = make_sweep("tonk", "knocker", [f"threshold=0:{hi}:1"], players=n, field=field, seed=seed, deals=deals)
    acc = ExperimentAccumulator(exp)
    xs = []
    for first in range(0, deals, SHARD):
        count = min(SHARD, deals - first)
        cols = play_experiment_shard(exp, first, count)
        acc.add(cols, count)
        xs.append(cols["payout"].astype(np.float64).reshape(len(exp.points), n, count).mean(axis=1))
    return acc.summary()["points"], np.concatenate(xs, axis=1)


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
    fields = list(dict.fromkeys(df["field"]))
    fig, axes = plt.subplots(1, len(fields), figsize=(6.5 * len(fields), 5), dpi=110, squeeze=False)
    for ax, field in zip(axes[0], fields):
        for n, g in df[df["field"] == field].groupby("players"):
            best = g.loc[g["mean_payout"].idxmax()]
            line, = ax.plot(g["threshold"], g["mean_payout"], marker="o", ms=3,
                            label=f"{n} players (best: {int(best['threshold'])})")
            ax.fill_between(g["threshold"], g["payout_lo"], g["payout_hi"], alpha=0.25, color=line.get_color())
            ax.plot([best["threshold"]], [best["mean_payout"]], marker="*", ms=14, color=line.get_color(),
                    markeredgecolor="black")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set(title=f"knocker seat against {field}", xlabel="knock threshold (points)",
               ylabel="chips per deal (95% CI band)")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(f"Tonk: mean payout of a knocker seat, {deals:,} duplicate deals per point, seats rotated")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--max-threshold", type=int, default=30)
    ap.add_argument("--fields", default="greedy,knocker:threshold=8,strong", help="comma-separated field strategies")
    ap.add_argument("--out", default=str(ROOT / "results" / "tonk_knock_threshold"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    t0 = time.perf_counter()
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    for field in fields:
        for n in (2, 3, 4):
            hi = args.max_threshold
            while True:
                pts, x = sweep_scores(field, n, hi, args.deals, args.seed)
                pts = pd.DataFrame(pts)
                best = int(pts["mean_payout"].idxmax())
                if best < len(pts) - 1 or hi >= TOP:
                    break
                hi = min(TOP, hi + 10)          # the best point is the grid's edge: extend it
                print(f"{field}, {n} players: best at the edge, grid extended to {hi}", flush=True)
            vs_best = paired_to_best(x, best)
            pts["field"] = field
            pts["players"] = n
            pts["diff_to_best"] = [v[0] for v in vs_best]
            pts["diff_to_best_lo"] = [v[1] for v in vs_best]
            pts["diff_to_best_hi"] = [v[2] for v in vs_best]
            pts["indistinguishable_from_best"] = [(v[1] <= 0 <= v[2]) or i == best for i, v in enumerate(vs_best)]
            rows.append(pts)
            print(f"{field}, {n} players: best threshold {int(pts.loc[best, 'threshold'])} "
                  f"({pts.loc[best, 'mean_payout']:+.4f} chips/deal)", flush=True)
    df = pd.concat(rows, ignore_index=True)
    df["threshold"] = df["threshold"].astype(int)
    keep = ["field", "players", "threshold", "mean_payout", "payout_lo", "payout_hi", "win_rate", "win_lo", "win_hi",
            "diff", "diff_lo", "diff_hi", "diff_se", "variance_reduction", "diff_to_best", "diff_to_best_lo",
            "diff_to_best_hi", "indistinguishable_from_best"]
    df = df[keep]
    df.to_parquet(out / "summary.parquet", index=False)
    plot(df, out / "knock_threshold.png", args.deals)
    write_markdown(df, out / "report.md", args, time.perf_counter() - t0, fields)
    print(f"wrote {out}")


def verdict(df: pd.DataFrame, fields: list[str]) -> list[str]:
    """Per player count: is the best threshold of one field among the indistinguishable-from-best
    thresholds of every other field?"""
    lines = []
    for n, g in df.groupby("players"):
        sets = {f: set(g[(g["field"] == f) & g["indistinguishable_from_best"]]["threshold"]) for f in fields}
        bests = {f: int(g[g["field"] == f].loc[g[g["field"] == f]["mean_payout"].idxmax(), "threshold"])
                 for f in fields}
        robust = all(bests[a] in sets[b] for a in fields for b in fields)
        shared = set.intersection(*sets.values()) if sets else set()
        lines.append(f"- **{n} players: {'robust' if robust else 'field-dependent'}** — best "
                     + ", ".join(f"{bests[f]} against {f}" for f in fields)
                     + (f"; thresholds as good as the best against every field: {', '.join(map(str, sorted(shared)))}"
                        if shared else "; no threshold is as good as the best against every field"))
    return lines


def write_markdown(df: pd.DataFrame, path: Path, args, wall: float, fields: list[str]) -> None:
    lines = ["# Tonk: the best knock threshold, against two fields", "",
             f"`python scripts/studies/study_tonk_knock.py --deals {args.deals} --seed {args.seed} --fields {args.fields}` "
             f"(wall time {wall / 60:.1f} min on 2 cores).", "",
             "One `knocker:threshold=t` seat (greedy play, knocks at the start of a turn when its count is at most "
             "t) against a field, default (seed) rules, S = 1. Fields: `greedy` (never knocks), `knocker:threshold=8` and `strong` (the "
             "self-consistent expert table of `cardsim tune --self` (issue 41), `results/tune/tonk/`). Every threshold plays "
             f"the very same {args.deals:,} deals from every seat (duplicate deals, seats rotated), so differences "
             "between thresholds are paired. Mean payout = chips won per deal by the knocker seat. A grid whose "
             "best threshold is its last is extended by 10 (up to 50, the parameter's end).", "",
             "## Verdict", ""]
    lines += verdict(df, fields)
    lines += ["", "## Answer", ""]
    for (field, n), g in df.groupby(["field", "players"], sort=False):
        b = g.loc[g["mean_payout"].idxmax()]
        near = sorted(g.loc[g["indistinguishable_from_best"], "threshold"].astype(int))
        lines.append(f"- **{field}, {n} players**: best threshold **{int(b['threshold'])}** (grid 0..{g['threshold'].max()}), "
                     f"{b['mean_payout']:+.4f} chips per deal (95% CI {b['payout_lo']:+.4f} to {b['payout_hi']:+.4f}); "
                     f"thresholds not significantly worse (paired 95% CI of the difference contains 0): "
                     f"{', '.join(map(str, near))}.")
    lines += ["", "![knock threshold](knock_threshold.png)", "", "## All points", ""]
    for (field, n), g in df.groupby(["field", "players"], sort=False):
        lines += [f"### {field}, {n} players", "",
                  "| threshold | mean payout | 95% CI | win rate | 95% CI | diff to best | 95% CI |",
                  "|---:|---:|---|---:|---|---:|---|"]
        for _, r in g.iterrows():
            lines.append(f"| {int(r['threshold'])} | {r['mean_payout']:+.4f} | {r['payout_lo']:+.4f} – "
                         f"{r['payout_hi']:+.4f} | {100 * r['win_rate']:.2f}% | {100 * r['win_lo']:.2f} – "
                         f"{100 * r['win_hi']:.2f}% | {r['diff_to_best']:+.4f} | {r['diff_to_best_lo']:+.4f} – "
                         f"{r['diff_to_best_hi']:+.4f} |")
        lines.append("")
    lines += ["Data: `summary.parquet` (one row per field × players × threshold; `diff*` columns are paired "
              "differences to threshold 0, `diff_to_best*` to the best threshold of that field and player count).",
              ""]
    path.write_text("\n".join(lines))


if __name__ == "__main__":
    main()
