"""Study: how much is a May-I worth in Contract Rummy, and how big is the first-seat advantage?

    python scripts/study_contract_rummy.py [--games 2000] [--seat-games 8000] [--seed 2026]
                                           [--out results/contract_rummy_mayi]

Part 1 (May-I's): one ``mayi:max_mayi=m,near=99`` seat (greedy play; at most m May-I's, i.e.
penalty cards, per deal; it still volunteers for every out-of-turn play) against three
``greedy`` opponents (who May-I freely), preset ``contract``, 4 players, m = 0 (never), 1, 2
(sparingly) and 99 (freely = greedy). Every m plays the same games from every seat (duplicate
deals, seats rotated), so the differences are paired per game.

Part 2 (first seat): all-greedy tables of 3, 4 and 5 players; win rate and mean total by
position relative to the first dealer (position 1 = the first player of deal 1; the deal
passes on, so positions 1..(7 mod n) play first once more than the others).

Writes ``summary.parquet`` (part 1, one row per m), ``seats.parquet`` (part 2, one row per
table size and position), ``report.md`` and ``contract_rummy.png``. Needs the ``report``
extra (matplotlib).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow.dataset as ds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.experiment import make_sweep, run_experiment
from sim.registry import get_game, seat_arrays, seat_table
from sim.stats import mean_ci

LIMITS = [0, 1, 2, 99]
LABELS = {0: "never", 1: "sparingly (1/deal)", 2: "sparingly (2/deal)", 99: "freely"}
COLUMNS = ["point", "deal_id", "lineup", "payout", "win", "total", "mayi", "oot"]


def ci(x: np.ndarray) -> tuple[float, float, float]:
    m, lo, hi, _ = mean_ci(float(x.sum()), float((x * x).sum()), x.size)
    return m, lo, hi


def per_game(dataset_dir: Path, points: int, games: int, lineups: int) -> dict[str, np.ndarray]:
    """Per column, X[point, game]: the mean over the seat rotations of the candidate's value."""
    table = ds.dataset(dataset_dir, format="parquet", partitioning="hive").to_table(columns=COLUMNS)
    df = table.to_pandas().sort_values(["point", "lineup", "deal_id"])
    return {c: df[c].to_numpy(np.float64).reshape(points, lineups, games).mean(axis=1) for c in COLUMNS[3:]}


def mayi_part(games: int, seed: int) -> pd.DataFrame:
    with tempfile.TemporaryDirectory() as tmp:
        exp = make_sweep("contract_rummy", "mayi:near=99", ["max_mayi=" + ",".join(map(str, LIMITS))],
                         players=4, field="greedy", seed=seed, deals=games)
        run_experiment(exp, games, str(Path(tmp) / "sweep"))
        x = per_game(Path(tmp) / "sweep", len(LIMITS), games, 4)
    free = LIMITS.index(99)
    rows = []
    for i, m in enumerate(LIMITS):
        r = {"max_mayi": m, "policy": LABELS[m]}
        for col in ("total", "win", "mayi", "oot"):
            r[col], r[f"{col}_lo"], r[f"{col}_hi"] = ci(x[col][i])
        r["total_vs_free"], r["total_vs_free_lo"], r["total_vs_free_hi"] = ci(x["total"][i] - x["total"][free])
        r["win_vs_free"], r["win_vs_free_lo"], r["win_vs_free_hi"] = ci(x["win"][i] - x["win"][free])
        rows.append(r)
    return pd.DataFrame(rows)


def seat_part(games: int, seed: int) -> pd.DataFrame:
    from kernels import contract_rummy as K
    game = get_game("contract_rummy")
    rows = []
    for n in (3, 4, 5):
        opts = game.options_cls().to_array(n)
        sids, params = seat_arrays(game, seat_table(game, ["greedy"], n))
        rec = np.zeros((games, K.RECORD_COLS), np.int64)
        game.play_batch(seed + n, 0, games, opts, sids, params, False, rec)
        dealer = rec[:, K.RC_DEALER]
        for pos in range(1, n + 1):
            seat = (dealer + pos) % n
            total = rec[np.arange(games), K.RC_TOTAL + seat].astype(np.float64)
            win = (rec[:, K.RC_WINNER] == seat).astype(np.float64)
            r = {"players": n, "position": pos, "first_turns": len(range(pos - 1, 7, n))}
            r["total"], r["total_lo"], r["total_hi"] = ci(total)
            r["win"], r["win_lo"], r["win_hi"] = ci(win)
            rows.append(r)
        for r in rows[-n:]:
            r["fair_win"] = float((rec[:, K.RC_WINNER] >= 0).mean()) / n
    return pd.DataFrame(rows)


def plot(df: pd.DataFrame, seats: pd.DataFrame, path: Path, games: int) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8), dpi=100)
    xs = np.arange(len(df))
    for ax, (col, title, scale) in zip(axes[:2], (("total", "mean final total (lower is better)", 1),
                                                  ("win", "game win rate, %", 100))):
        ax.errorbar(xs, scale * df[col], yerr=[scale * (df[col] - df[f"{col}_lo"]), scale * (df[f"{col}_hi"] - df[col])],
                    marker="o", capsize=4)
        ax.set_xticks(xs, [f"m={m}" for m in df["max_mayi"]])
        ax.set(title=title, xlabel="May-I's per deal allowed (99 = freely)")
        ax.grid(alpha=0.3)
    ax = axes[2]
    for n, g in seats.groupby("players"):
        ax.errorbar(g["position"], 100 * g["win"], yerr=[100 * (g["win"] - g["win_lo"]), 100 * (g["win_hi"] - g["win"])],
                    marker="o", capsize=3, label=f"{n} players")
    ax.set(title="win rate by position (1 = first player of deal 1), %", xlabel="position")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.suptitle(f"Contract Rummy: a May-I policy seat vs 3 greedy ({games:,} duplicate games per policy, seats "
                 "rotated) and the first-seat advantage, 95% CIs")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def answers(df: pd.DataFrame, seats: pd.DataFrame) -> tuple[str, str]:
    free = df[df["max_mayi"] == 99].iloc[0]
    never = df[df["max_mayi"] == 0].iloc[0]
    best = df.loc[df["total"].idxmin()]
    a1 = (f"Against three greedy players, a seat that never May-I's averages {never['total']:.1f} points "
          f"(win rate {100 * never['win']:.1f}%) against {free['total']:.1f} ({100 * free['win']:.1f}%) when it "
          f"May-I's freely: the paired difference is {never['total_vs_free']:+.1f} points (95% CI "
          f"{never['total_vs_free_lo']:+.1f} to {never['total_vs_free_hi']:+.1f}) over a game of "
          f"{free['mayi']:.1f} May-I's, so each May-I is worth about {never['total_vs_free'] / max(free['mayi'] - never['mayi'], 1e-9):.1f} "
          f"points; the best policy is {best['policy']} ({best['total']:.1f} points).")
    parts = []
    for n, g in seats.groupby("players"):
        first = g[g["position"] == 1].iloc[0]
        last = g[g["position"] == n].iloc[0]
        parts.append(f"{n} players: position 1 wins {100 * first['win']:.1f}% "
                     f"(95% CI {100 * first['win_lo']:.1f}–{100 * first['win_hi']:.1f}%) vs "
                     f"{100 * last['win']:.1f}% for position {n} (fair share {100 * first['fair_win']:.1f}%), "
                     f"mean totals {first['total']:.1f} vs {last['total']:.1f}")
    a2 = "First-seat advantage with greedy players: " + "; ".join(parts) + "."
    return a1, a2


def write_markdown(df, seats, path: Path, args, wall: float) -> None:
    a1, a2 = answers(df, seats)
    lines = ["# Contract Rummy: how much is a May-I worth? Is there a first-seat advantage?", "",
             (f"`python scripts/study_contract_rummy.py --games {args.games} --seat-games {args.seat_games} "
             f"--seed {args.seed}` (wall time {wall / 60:.1f} min, {numba.get_num_threads()} numba threads; "
             f"rules version {get_game('contract_rummy').rules_version})."), "",
             ("Preset `contract` (default May-I model `out_of_turn_discard`: the turn player who takes the discard "
             "takes a penalty card, a volunteer discards out of turn). Part 1: one `mayi:max_mayi=m,near=99` seat "
             "(greedy play with at most m May-I's per deal) against three `greedy` opponents, 4 players; every m "
             f"plays the same {args.games:,} games from each of the 4 seats (duplicate deals, seats rotated), so "
             "differences are paired. Totals are penalty points over the 7 deals (lower is better); a win is the "
             f"unique lowest total. Part 2: {args.seat_games:,} all-greedy games per table size."), "",
             "## Answers", "", a1, "", a2, "", "![study](contract_rummy.png)", "",
             "## May-I policies", "",
             "| m | policy | mean total | 95% CI | diff to freely | 95% CI | win rate | 95% CI | May-I's | out-of-turn plays |",
             "|---:|---|---:|---|---:|---|---:|---|---:|---:|"]
    for _, r in df.iterrows():
        lines.append(f"| {int(r['max_mayi'])} | {r['policy']} | {r['total']:.2f} | {r['total_lo']:.2f} – "
                     f"{r['total_hi']:.2f} | {r['total_vs_free']:+.2f} | {r['total_vs_free_lo']:+.2f} – "
                     f"{r['total_vs_free_hi']:+.2f} | {100 * r['win']:.2f}% | {100 * r['win_lo']:.2f} – "
                     f"{100 * r['win_hi']:.2f}% | {r['mayi']:.2f} | {r['oot']:.2f} |")
    lines += ["", "## Positions", "", "| players | position | deals played first | mean total | 95% CI | win rate | 95% CI |",
              "|---:|---:|---:|---:|---|---:|---|"]
    for _, r in seats.iterrows():
        lines.append(f"| {int(r['players'])} | {int(r['position'])} | {int(r['first_turns'])} | {r['total']:.2f} | "
                     f"{r['total_lo']:.2f} – {r['total_hi']:.2f} | {100 * r['win']:.2f}% | "
                     f"{100 * r['win_lo']:.2f} – {100 * r['win_hi']:.2f}% |")
    lines += ["", "Data: `summary.parquet` (part 1) and `seats.parquet` (part 2); `_lo`/`_hi` = 95% interval.", ""]
    path.write_text("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seat-games", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=str(ROOT / "results" / "contract_rummy_mayi"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    df = mayi_part(args.games, args.seed)
    seats = seat_part(args.seat_games, args.seed)
    df.to_parquet(out / "summary.parquet", index=False)
    seats.to_parquet(out / "seats.parquet", index=False)
    plot(df, seats, out / "contract_rummy.png", args.games)
    write_markdown(df, seats, out / "report.md", args, time.perf_counter() - t0)
    for a in answers(df, seats):
        print(a)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
