"""Study: how much is a May-I worth in Contract Rummy, and what is a seat worth per deal?
Each answer against two fields (issue 16): today's field (``greedy``) and the self-consistent
``strong`` field (any strategy labels can be given with --fields; 99 is always on the grid).

    python scripts/studies/study_contract_rummy.py [--games 3000] [--seat-games 20000] [--seed 2026]
                                           [--fields greedy strong] [--grid 0,1,2,3,4,6,99]
                                           [--out results/contract_rummy_mayi]

Part 1 (May-I's), per field F: one candidate seat of F's own family and parameters with only
``max_mayi`` changed (at most m May-I's, i.e. penalty cards, per deal; 99 = no limit) against
n-1 seats of F, preset ``contract``, 4 players. Every m plays the same games from every seat
(duplicate deals, seats rotated), so the differences are paired per game. When the best m is
the largest finite grid value the grid is extended (doubling) and rerun until the best point is
interior or the end of the parameter's range (0 or 99).

Part 2 (seats per deal), per field F: all-F tables of 3, 4 and 5 players. Each deal's points
(its penalty minus any cut bonus) by position relative to THAT deal's dealer (0 = dealer,
1 = first player, ...), averaged over the game's seven deals, and paired against the dealer
in the same deal. (Game totals hide this: the deal passes on, so every seat plays every
position about equally often over seven deals.)

Writes ``summary.parquet`` (part 1, one row per field and m), ``seats.parquet`` (part 2, one
row per field, table size and position), ``report.md`` and ``contract_rummy.png``. Needs the
``report`` extra (matplotlib).
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.sim.experiment import make_sweep, run_experiment
from cardsim.sim.registry import get_game, seat_arrays, seat_table
from cardsim.sim.stats import mean_ci

GRID = [0, 1, 2, 3, 4, 6, 99]
FREE = 99                     # max_mayi's "no limit" value, the end of its range
COLUMNS = ["point", "deal_id", "lineup", "payout", "win", "total", "mayi", "oot"]
DEALS = 7
PLAYERS = (3, 4, 5)


def ci(x: np.ndarray) -> tuple[float, float, float]:
    m, lo, hi, _ = mean_ci(float(x.sum()), float((x * x).sum()), x.size)
    return m, lo, hi


def policy(m: int) -> str:
    return "never" if m == 0 else "freely" if m >= FREE else f"at most {m}/deal"


def per_game(dataset_dir: Path, points: int, games: int, lineups: int) -> dict[str, np.ndarray]:
    """Per column, X[point, game]: the mean over the seat rotations of the candidate's value."""
    table = ds.dataset(dataset_dir, format="parquet", partitioning="hive").to_table(columns=COLUMNS)
    df = table.to_pandas().sort_values(["point", "lineup", "deal_id"])
    return {c: df[c].to_numpy(np.float64).reshape(points, lineups, games).mean(axis=1) for c in COLUMNS[3:]}


def sweep(field: str, grid: list[int], games: int, seed: int) -> dict[str, np.ndarray]:
    with tempfile.TemporaryDirectory() as tmp:
        exp = make_sweep("contract_rummy", field, ["max_mayi=" + ",".join(map(str, grid))],
                         players=4, field=field, seed=seed, deals=games, preset="contract")
        run_experiment(exp, games, str(Path(tmp) / "sweep"))
        return per_game(Path(tmp) / "sweep", len(grid), games, 4)   # point = index into the grid


def extend(grid: list[int], best: int) -> list[int] | None:
    """The grid with points past ``best`` when best is the largest finite value below FREE."""
    finite = sorted(m for m in grid if m < FREE)
    if best != finite[-1] or best >= FREE - 1:
        return None
    new = sorted({*grid, min(FREE - 1, best + 1), min(FREE - 1, 2 * best)})
    return new if new != sorted(grid) else None


def mayi_part(field: str, grid: list[int], games: int, seed: int) -> tuple[pd.DataFrame, list[str]]:
    notes = []
    grid = sorted(set(grid))
    while True:
        x = sweep(field, grid, games, seed)
        means = x["total"].mean(axis=1)
        # exact ties (a limit that never binds plays the same games as no limit) go to the largest m
        best = max(i for i in range(len(grid)) if means[i] <= means.min() + 1e-9)
        wider = extend(grid, grid[best])
        if wider is None:
            break
        notes.append(f"{field}: best m = {grid[best]} on the grid's finite edge; extended to {','.join(map(str, wider))}")
        grid = wider
    free = grid.index(FREE)
    rows = []
    for i, m in enumerate(grid):
        r = {"field": field, "max_mayi": m, "policy": policy(m), "games": games}
        for col in ("total", "win", "mayi", "oot"):
            r[col], r[f"{col}_lo"], r[f"{col}_hi"] = ci(x[col][i])
        for ref, name in ((free, "free"), (best, "best")):
            r[f"total_vs_{name}"], r[f"total_vs_{name}_lo"], r[f"total_vs_{name}_hi"] = ci(x["total"][i] - x["total"][ref])
        r["win_vs_free"], r["win_vs_free_lo"], r["win_vs_free_hi"] = ci(x["win"][i] - x["win"][free])
        r["best"] = i == best
        # tied with the best: the paired interval to the best point holds 0
        r["tied_best"] = r["total_vs_best_lo"] <= 0.0
        rows.append(r)
    return pd.DataFrame(rows), notes


def deal_points(game, K, rec: np.ndarray, opts: np.ndarray, n: int) -> np.ndarray:
    """P[game, deal, seat]: the deal's penalty points minus any cut bonus the seat won there."""
    first = rec[:, K.RC_DEALER]
    bonus, to_winner = int(opts[K.O_CUT_POINTS]), bool(opts[K.O_CUT_RECIP])
    pts = np.zeros((rec.shape[0], DEALS, n), np.float64)
    for d in range(DEALS):
        b = K.RC_DEAL + d * K.DB_SIZE
        dealer = (first + d) % n
        got = rec[:, b + K.DB_OUT] if to_winner else (dealer + n - 1) % n
        cut = rec[:, b + K.DB_CUT] != 0
        for p in range(n):
            pts[:, d, p] = rec[:, b + K.DB_PEN + p] - bonus * (cut & (got == p))
    # the record's own check: the deals add up to the game totals
    totals = rec[:, K.RC_TOTAL:K.RC_TOTAL + n]
    assert np.array_equal(pts.sum(axis=1), totals), "per-deal points do not add up to the totals"
    return pts


def seat_part(field: str, games: int, seed: int) -> pd.DataFrame:
    from cardsim.kernels import contract_rummy as K
    game = get_game("contract_rummy")
    rows = []
    for n in PLAYERS:
        opts = game.options_cls(**game.presets["contract"]).to_array(n)
        sids, params = seat_arrays(game, seat_table(game, [field], n))
        rec = np.zeros((games, K.RECORD_COLS), np.int64)
        game.play_batch(seed + n, 0, games, opts, sids, params, False, rec)
        assert not rec[:, K.RC_ERR].any(), "kernel error in a seat game"
        pts = deal_points(game, K, rec, opts, n)
        first = rec[:, K.RC_DEALER]
        g = np.arange(games)
        # X[game, deal, position]: points of the seat `position` places after that deal's dealer
        by_pos = np.stack([np.stack([pts[g, d, (first + d + k) % n] for d in range(DEALS)], axis=1)
                           for k in range(n)], axis=2)
        out = np.stack([np.stack([rec[:, K.RC_DEAL + d * K.DB_SIZE + K.DB_OUT] == (first + d + k) % n
                                  for d in range(DEALS)], axis=1) for k in range(n)], axis=2).astype(np.float64)
        for k in range(n):
            r = {"field": field, "players": n, "position": k, "games": games,
                 "role": "dealer" if k == 0 else "first player" if k == 1 else f"{k}. after dealer"}
            x = by_pos[:, :, k].mean(axis=1)
            r["points"], r["points_lo"], r["points_hi"] = ci(x)
            r["vs_dealer"], r["vs_dealer_lo"], r["vs_dealer_hi"] = ci(x - by_pos[:, :, 0].mean(axis=1))
            r["out"], r["out_lo"], r["out_hi"] = ci(out[:, :, k].mean(axis=1))
            for d in range(DEALS):
                r[f"d{d + 1}_vs_dealer"] = float((by_pos[:, d, k] - by_pos[:, d, 0]).mean())
            rows.append(r)
    return pd.DataFrame(rows)


def plot(df: pd.DataFrame, seats: pd.DataFrame, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    fields = list(dict.fromkeys(df["field"]))
    fig, axes = plt.subplots(1, 2 + len(fields), figsize=(7 + 5 * len(fields), 4.8), dpi=100)
    for f in fields:
        g = df[df["field"] == f]
        xs = np.arange(len(g))
        for ax, (col, scale) in zip(axes[:2], (("total_vs_free", 1), ("win_vs_free", 100))):
            ax.errorbar(xs, scale * g[col], yerr=[scale * (g[col] - g[f"{col}_lo"]), scale * (g[f"{col}_hi"] - g[col])],
                        marker="o", capsize=4, label=f"vs {f}")
            ax.set_xticks(xs, [f"m={m}" for m in g["max_mayi"]])
    axes[0].set(title="final total minus 'freely' (lower is better)", xlabel="May-I's per deal allowed (99 = freely)",
                ylabel="points per game vs 'freely' (95% CI)")
    axes[1].set(title="win rate minus 'freely', points of %", xlabel="May-I's per deal allowed (99 = freely)",
                ylabel="win rate vs 'freely' (points of %, 95% CI)")
    for ax, f in zip(axes[2:], fields):
        for n, g in seats[seats["field"] == f].groupby("players"):
            ax.errorbar(g["position"], g["vs_dealer"], yerr=[g["vs_dealer"] - g["vs_dealer_lo"], g["vs_dealer_hi"] - g["vs_dealer"]],
                        marker="o", capsize=3, label=f"{n} players")
        ax.set(title=f"seat vs the dealer, all {f}", xlabel="position (0 = dealer, 1 = first player)",
               ylabel="points per deal vs the dealer (95% CI)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.axhline(0, color="k", lw=0.5)
        ax.legend()
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[0].legend()
    fig.suptitle("Contract Rummy: a May-I policy seat against its own field, and seat effects per deal (95% CIs)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def mayi_answer(df: pd.DataFrame, f: str) -> str:
    g = df[df["field"] == f]
    best = g[g["best"]].iloc[0]
    never = g[g["max_mayi"] == 0].iloc[0]
    free = g[g["max_mayi"] == g["max_mayi"].max()].iloc[0]
    tied = ", ".join(str(int(m)) for m in g[g["tied_best"]]["max_mayi"])
    per = never["total_vs_free"] / max(free["mayi"] - never["mayi"], 1e-9)
    return (f"best m = {int(best['max_mayi'])} ({best['total']:.1f} points; tied with it within 95%: m = {tied}); never "
            f"{never['total_vs_free']:+.1f} ({never['total_vs_free_lo']:+.1f} to {never['total_vs_free_hi']:+.1f}) points vs freely "
            f"over {free['mayi']:.1f} May-I's a game, {per:.1f} points a May-I")


def mayi_verdict(df: pd.DataFrame, fields: list[str]) -> str:
    if len(fields) < 2:
        return "one field only"
    a, b = (df[df["field"] == f] for f in fields[:2])
    ba, bb = int(a[a["best"]]["max_mayi"].iloc[0]), int(b[b["best"]]["max_mayi"].iloc[0])
    ta, tb = set(a[a["tied_best"]]["max_mayi"]), set(b[b["tied_best"]]["max_mayi"])
    sign = np.sign(a[a["max_mayi"] == 0]["total_vs_free"].iloc[0]) == np.sign(b[b["max_mayi"] == 0]["total_vs_free"].iloc[0])
    if (ba in tb or bb in ta) and sign:
        return f"**robust** (best m = {ba} vs {fields[0]}, {bb} vs {fields[1]}, each within the other's tied set)"
    return f"**field-dependent** (best m moves from {ba} vs {fields[0]} to {bb} vs {fields[1]})"


def seat_answer(seats: pd.DataFrame, f: str, n: int) -> str:
    g = seats[(seats["field"] == f) & (seats["players"] == n)]
    fp = g[g["position"] == 1].iloc[0]
    worst = g.loc[g["vs_dealer"].idxmax()]
    best = g.loc[g["vs_dealer"].idxmin()]
    role = lambda r: r["role"] if r["position"] < 2 else f"position {int(r['position'])}"
    return (f"first player {fp['vs_dealer']:+.2f} ({fp['vs_dealer_lo']:+.2f} to {fp['vs_dealer_hi']:+.2f}) points a deal "
            f"against the dealer; best seat {role(best)}, worst {role(worst)}")


def seat_verdict(seats: pd.DataFrame, fields: list[str], n: int) -> str:
    """Robust: every position's interval (vs the dealer) overlaps between the fields; robust in sign:
    no position is significantly better than the dealer in one field and significantly worse in
    the other; else field-dependent."""
    if len(fields) < 2:
        return "one field only"
    a, b = (seats[(seats["field"] == f) & (seats["players"] == n)].set_index("position") for f in fields[:2])
    fa, fb = a.loc[1], b.loc[1]
    pos = [k for k in a.index if k > 0]
    overlap = all(a.loc[k, "vs_dealer_lo"] <= b.loc[k, "vs_dealer_hi"] and b.loc[k, "vs_dealer_lo"] <= a.loc[k, "vs_dealer_hi"]
                  for k in pos)
    sig = lambda r: 1 if r["vs_dealer_lo"] > 0 else -1 if r["vs_dealer_hi"] < 0 else 0
    clash = [k for k in pos if sig(a.loc[k]) * sig(b.loc[k]) < 0]
    text = f"first player {fa['vs_dealer']:+.2f} vs {fields[0]}, {fb['vs_dealer']:+.2f} vs {fields[1]}"
    if clash:
        return f"**field-dependent**: {text}; position(s) {', '.join(map(str, clash))} change sign"
    if overlap:
        return f"**robust**: {text}; every position's interval overlaps"
    moved = [k for k in pos if not (a.loc[k, "vs_dealer_lo"] <= b.loc[k, "vs_dealer_hi"] and b.loc[k, "vs_dealer_lo"] <= a.loc[k, "vs_dealer_hi"])]
    return f"**robust in sign** (size moves at position(s) {', '.join(map(str, moved))}): {text}"


def write_markdown(df, seats, notes, path: Path, args, fields, wall: float) -> None:
    strong = get_game("contract_rummy").strategies.get("strong")
    cmd = (f"python scripts/studies/study_contract_rummy.py --games {args.games} --seat-games {args.seat_games} "
           f"--seed {args.seed} --fields {' '.join(fields)} --grid {args.grid}")
    lines = ["# Contract Rummy: how much is a May-I worth? What is a seat worth per deal?", "",
             f"`{cmd}`", "",
             (f"Wall time {wall / 60:.1f} min with {numba.get_num_threads()} numba threads (kernels compiled); rules "
              f"version {get_game('contract_rummy').rules_version}."), "",
             "## Answers", "",
             "| question | " + " | ".join(f"against `{f}`" for f in fields) + " | verdict |",
             "|---|" + "---|" * len(fields) + "---|",
             "| May-I's: best per-deal limit m for one seat (4 players; game total points, lower is better; 99 = freely) | "
             + " | ".join(mayi_answer(df, f) for f in fields) + f" | {mayi_verdict(df, fields)} |"]
    for n in PLAYERS:
        lines.append(f"| seat per deal, {n} players: each position's points a deal minus the dealer's in the same deal (− = better than the dealer) | "
                     + " | ".join(seat_answer(seats, f, n) for f in fields) + f" | {seat_verdict(seats, fields, n)} |")
    lines += ["", *(f"- grid: {x}" for x in notes),
              ("- grid edges: m = 0 and m = 99 (no limit) are the ends of `max_mayi`'s own range; a best point on the "
               "largest finite m below 99 is extended automatically."), ""]
    if strong is not None and "strong" in fields:
        defaults = ",".join(f"{p.name}={p.default:g}" for p in strong.params)
        lines += [f"`strong` here: `{defaults}`: the point of the committed `cardsim tune --self` run, `results/tune/contract_rummy/` (issue 41: the `expert`, cautious counting each card once towards its contract, at issue 16's cautious point: no point of the family beat it).", ""]
    lines += [("Preset `contract` (default May-I model `out_of_turn_discard`). Part 1: against each field F, one seat "
               "of F's family and parameters with only `max_mayi=m` changed (at most m May-I's, i.e. penalty cards, "
               "per deal) against three F seats, 4 players; every m plays the same "
               f"{args.games:,} games from each of the 4 seats (duplicate deals, seats rotated), so differences are "
               "paired. Totals are penalty points over the 7 deals (lower is better); a win is the unique lowest total. "
               f"Part 2: {args.seat_games:,} all-F games per table size; each deal's points (penalty minus any cut bonus) "
               "by position relative to that deal's dealer (0 = dealer, 1 = first player, who plays first), averaged "
               "over the seven deals and paired against the dealer of the same deal. The earlier version of this "
               "study compared game totals by position relative to the first dealer, where the seven-deal rotation "
               "cancels most of the effect (every seat deals about equally often)."), "",
              "![study](contract_rummy.png)", "", "## May-I policies", "",
              "| field | m | policy | mean total | 95% CI | diff to freely | 95% CI | diff to best | 95% CI | win rate | 95% CI | May-I's | out-of-turn plays |",
              "|---|---:|---|---:|---|---:|---|---:|---|---:|---|---:|---:|"]
    for _, r in df.iterrows():
        lines.append(f"| {r['field']} | {int(r['max_mayi'])} | {r['policy']}{' (best)' if r['best'] else ''} | {r['total']:.2f} | "
                     f"{r['total_lo']:.2f} – {r['total_hi']:.2f} | {r['total_vs_free']:+.2f} | {r['total_vs_free_lo']:+.2f} – "
                     f"{r['total_vs_free_hi']:+.2f} | {r['total_vs_best']:+.2f} | {r['total_vs_best_lo']:+.2f} – "
                     f"{r['total_vs_best_hi']:+.2f} | {100 * r['win']:.2f}% | {100 * r['win_lo']:.2f} – "
                     f"{100 * r['win_hi']:.2f}% | {r['mayi']:.2f} | {r['oot']:.2f} |")
    lines += ["", "## Seats per deal", "",
              "| field | players | position | points a deal | 95% CI | minus dealer's | 95% CI | deals gone out | "
              + " | ".join(f"d{d} vs dealer" for d in range(1, DEALS + 1)) + " |",
              "|---|---:|---|---:|---|---:|---|---:|" + "---:|" * DEALS]
    for _, r in seats.iterrows():
        lines.append(f"| {r['field']} | {int(r['players'])} | {int(r['position'])} ({r['role']}) | {r['points']:.2f} | "
                     f"{r['points_lo']:.2f} – {r['points_hi']:.2f} | {r['vs_dealer']:+.2f} | {r['vs_dealer_lo']:+.2f} – "
                     f"{r['vs_dealer_hi']:+.2f} | {100 * r['out']:.1f}% | "
                     + " | ".join(f"{r[f'd{d}_vs_dealer']:+.1f}" for d in range(1, DEALS + 1)) + " |")
    lines += ["", ("Data: `summary.parquet` (part 1) and `seats.parquet` (part 2), both with a `field` column; "
                   "`_lo`/`_hi` = 95% interval; `dN_vs_dealer` = deal N alone (its contract), means only."), ""]
    path.write_text("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="duplicate games per May-I point (each from 4 seats)")
    ap.add_argument("--seat-games", type=int, default=20000, help="games per field and table size (part 2)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--fields", nargs="+", default=["greedy", "strong"],
                    help="strategy labels, space-separated (the first = today's field)")
    ap.add_argument("--grid", default=",".join(map(str, GRID)), help="max_mayi values (99 = no limit)")
    ap.add_argument("--out", default=str(ROOT / "results" / "contract_rummy_mayi"))
    args = ap.parse_args()
    fields = list(args.fields)
    grid = sorted({int(m) for m in args.grid.split(",")} | {FREE})     # 'freely' is every comparison's reference
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    parts, notes, seat_parts = [], [], []
    for f in fields:
        t1 = time.perf_counter()
        d, nt = mayi_part(f, grid, args.games, args.seed)
        parts.append(d)
        notes += nt
        t2 = time.perf_counter()
        seat_parts.append(seat_part(f, args.seat_games, args.seed))
        print(f"{f}: May-I part {t2 - t1:.0f} s ({len(d)} points), seat part {time.perf_counter() - t2:.0f} s", flush=True)
    df, seats = pd.concat(parts, ignore_index=True), pd.concat(seat_parts, ignore_index=True)
    df.to_parquet(out / "summary.parquet", index=False)
    seats.to_parquet(out / "seats.parquet", index=False)
    plot(df, seats, out / "contract_rummy.png")
    write_markdown(df, seats, notes, out / "report.md", args, fields, time.perf_counter() - t0)
    print((out / "report.md").read_text().split("## May-I policies")[0])
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
