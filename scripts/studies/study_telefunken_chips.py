"""Study: how many chips should a Telefunken player save for the last hand? (a chip-value policy)

    python scripts/studies/study_telefunken_chips.py [--games 4000] [--seed 2026] [--fields greedy,strong]
        [--reserve 0,1,2] [--per-hand 0,0.25,0.5] [--h7-growth -1,0,1] [--family planner]
        [--out results/telefunken_chip_reserve]

One ``planner`` seat whose buying follows a chip-value policy against a field of three equal seats
(each label of ``--fields``: today's field ``greedy`` and the self-consistent ``strong`` field),
4 players, default (Venezuela) rules. The policy's parameters:

- ``reserve``: before the last hand, buy only while holding more than reserve + per_hand x hands to come;
- ``per_hand``: chips kept back for each hand still to come (a chip's worth rising with the hands to go);
- ``h7_growth``: how a Hand-7 purchase counts the cards it adds that must be laid (-1: all it adds, the
  card and its penalty cards, i.e. checks the enlarged holding can still be melded; 0: the old naive
  fixed target).

The planner's other parameters stay at their defaults (which play as greedy), so the point
reserve=0, per_hand=0, h7_growth=-1 is plain greedy. With ``--family expert`` (issue 41) the seat is
an ``expert`` whose other parameters are its defaults, ``strong``'s: the point reserve=0,
per_hand=0, h7_growth=0 is ``strong`` itself, and the differences are to it. Every point plays the very same games from every
seat (duplicate deals, seats rotated), so differences are paired. A grid axis whose best point lies on
its upper edge (below the parameter's own range end) is extended on the same deals until the best is
interior or the range ends. Totals are penalty points over the 7 hands (payout = -total; lower is
better); a win is the unique lowest total. Writes ``summary.parquet`` (one row per field and point,
with a ``field`` column) and ``report.md``.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.dataset as ds

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.sim.experiment import make_sweep, run_experiment  # noqa: E402
from cardsim.sim.stats import mean_ci  # noqa: E402

COLUMNS = ["point", "deal_id", "lineup", "payout", "win", "total", "buys", "chips_before_h7", "h7_buys", "h7_pen"]
METRICS = ["total", "win", "chips_before_h7", "buys", "h7_buys", "h7_pen"]
AXES = ("reserve", "per_hand", "h7_growth")
# the parameters' own range ends (`cardsim strategies telefunken`) and the step an extension adds
RANGE_HI = {"reserve": 20, "per_hand": 7.0, "h7_growth": 4}
STEP = {"reserve": 1, "per_hand": 0.25, "h7_growth": 1}
BASE = (0, 0.0, -1)   # plays as greedy
BASE_NAME = "greedy"  # what the base point plays (``--family``: set in main)
FAMILY = "planner"
# family -> (its base point, what that point plays, how the report describes the seat)
FAMILIES = {
    "planner": ((0, 0.0, -1), "greedy",
                "Its other parameters are the planner defaults, which play as greedy, so reserve=0, per_hand=0, "
                "h7_growth=−1 is plain greedy."),
    "expert": ((0, 0.0, 0), "strong",
               "Its other parameters are the expert's defaults, `strong`'s (issue 41), so reserve=0, per_hand=0, "
               "h7_growth=0 is `strong` itself."),
}
MAX_EXTENSIONS = 4


def fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def play(field: str, grid: dict[str, list[float]], games: int, seed: int) -> dict[tuple, dict[str, np.ndarray]]:
    """Per point (reserve, per_hand, h7_growth): per metric, the candidate's value per game (mean over the seat rotations)."""
    params = [f"{a}={','.join(fmt(v) for v in grid[a])}" for a in AXES]
    exp = make_sweep("telefunken", FAMILY, params, players=4, field=field, seed=seed, deals=games,
                     shard_size=min(games, 8192))
    with tempfile.TemporaryDirectory() as tmp:
        run_experiment(exp, games, str(Path(tmp) / "sweep"))
        df = ds.dataset(Path(tmp) / "sweep", format="parquet", partitioning="hive").to_table(columns=COLUMNS).to_pandas()
    df = df.sort_values(["point", "lineup", "deal_id"])
    lineups = len(exp.points[0].lineups)
    out = {}
    for i, p in enumerate(exp.points):
        d = dict(p.params)
        key = tuple(float(d[a]) for a in AXES)
        sub = df[df["point"] == i]
        out[key] = {c: sub[c].to_numpy(np.float64).reshape(lineups, games).mean(axis=0) for c in METRICS}
    return out


def best_key(res: dict) -> tuple:
    return min(res, key=lambda k: res[k]["total"].mean())


def study_field(field: str, grid0: dict[str, list[float]], games: int, seed: int, log) -> tuple[dict, dict, list[str]]:
    """Play the grid against one field, extending any axis whose best lies on its upper edge."""
    grid = {a: sorted(float(v) for v in vs) for a, vs in grid0.items()}
    res = play(field, grid, games, seed)
    notes = []
    for _ in range(MAX_EXTENSIONS):
        b = best_key(res)
        grew = False
        for j, a in enumerate(AXES):
            if len(grid[a]) > 1 and b[j] == grid[a][-1] and grid[a][-1] < RANGE_HI[a]:
                new = min(grid[a][-1] + STEP[a], RANGE_HI[a])
                sub = dict(grid)
                sub[a] = [new]
                res.update(play(field, sub, games, seed))
                grid[a] = grid[a] + [new]
                notes.append(f"{a} extended to {fmt(new)} (best was on its upper edge)")
                log(f"[{field}] {notes[-1]}")
                grew = True
                break
        if not grew:
            break
    b = best_key(res)
    for j, a in enumerate(AXES):
        if b[j] == grid[a][0]:
            lo_end = {"reserve": 0, "per_hand": 0, "h7_growth": -1}[a]
            notes.append(f"best {a}={fmt(b[j])} is on the grid's lower edge"
                         + (", the end of the parameter's range" if grid[a][0] == lo_end else " (not the range end)"))
        elif b[j] == grid[a][-1]:
            notes.append(f"best {a}={fmt(b[j])} is on the grid's upper edge"
                         + (", the end of the parameter's range" if grid[a][-1] >= RANGE_HI[a] else
                            f" after {MAX_EXTENSIONS} extensions"))
    return res, grid, notes


def ci(x: np.ndarray) -> tuple[float, float, float]:
    m, lo, hi, _ = mean_ci(float(x.sum()), float((x * x).sum()), x.size)
    return m, lo, hi


def summarise(field: str, res: dict) -> pd.DataFrame:
    b = best_key(res)
    base = res.get(BASE)
    rows = []
    for key in sorted(res):
        x = res[key]
        r = {"field": field, **dict(zip(AXES, key))}
        for m in METRICS:
            r[m], r[f"{m}_lo"], r[f"{m}_hi"] = ci(x[m])
        for name, ref in ((f"vs_{BASE_NAME}", base), ("vs_best", res[b])):
            if ref is None:
                continue
            for m in ("total", "win"):
                r[f"{m}_{name}"], r[f"{m}_{name}_lo"], r[f"{m}_{name}_hi"] = ci(x[m] - ref[m])
        r["best"] = key == b
        r["tied_with_best"] = key == b or r["total_vs_best_lo"] <= 0.0
        rows.append(r)
    return pd.DataFrame(rows)


def label(r) -> str:
    return f"reserve={fmt(r['reserve'])}, per_hand={fmt(r['per_hand'])}, h7_growth={fmt(r['h7_growth'])}"


def answer_line(df: pd.DataFrame) -> str:
    b = df[df["best"]].iloc[0]
    tied = df[df["tied_with_best"]]
    g = df[(df["reserve"] == BASE[0]) & (df["per_hand"] == BASE[1]) & (df["h7_growth"] == BASE[2])]
    s = (f"best policy {label(b)}: mean total {b['total']:.1f} (95% CI {b['total_lo']:.1f}–{b['total_hi']:.1f}), "
         f"win rate {100 * b['win']:.1f}%, {b['chips_before_h7']:.2f} chips at Hand 7, Hand-7 penalty {b['h7_pen']:.1f}")
    if len(g) and not bool(g.iloc[0]["best"]):
        g = g.iloc[0]
        v = f"total_vs_{BASE_NAME}"
        s += (f"; against {'plain greedy buying' if BASE_NAME == 'greedy' else BASE_NAME + ' itself'} "
              f"{b[v]:+.1f} points (95% CI {b[v + '_lo']:+.1f} to {b[v + '_hi']:+.1f})")
    s += f"; {len(tied)} point(s) statistically tied with it, chips at Hand 7 {tied['chips_before_h7'].min():.2f}–" \
         f"{tied['chips_before_h7'].max():.2f}"
    return s


def question_verdict(fields: list[str], df: pd.DataFrame, axes: tuple[str, ...]) -> str:
    """Robust when every field has the same best value of ``axes`` (the best point over the other axes), or
    when in every field the best point at each other field's best value is tied with the field's best
    (the paired 95% interval of the difference covers 0); field-dependent otherwise."""
    bests, chips = {}, {}
    for f in fields:
        d = df[df["field"] == f]
        b = d.loc[d["total"].idxmin()]
        bests[f] = tuple(float(b[a]) for a in axes)
        chips[f] = float(b["chips_before_h7"])

    def at(d, key):
        m = np.ones(len(d), bool)
        for a, v in zip(axes, key):
            m &= d[a].to_numpy(np.float64) == v
        return d[m]

    def show(key):
        return ", ".join(f"{a}={fmt(v)}" for a, v in zip(axes, key))

    if len(set(bests.values())) == 1:
        return f"**robust**: the same best {show(next(iter(bests.values())))} against every field"
    tied = all(len(at(df[df["field"] == f], bests[g])) and at(df[df["field"] == f], bests[g])["tied_with_best"].any()
               for f in fields for g in fields)
    each = "; ".join(f"`{f}`: {show(bests[f])}" for f in fields)
    if tied:
        return f"**robust**: the best values differ ({each}) but each is statistically tied with the best in every field"
    return f"**field-dependent**: {each}"


def verdict(fields: list[str], df: pd.DataFrame) -> str:
    return (f"how many chips to save (reserve, per_hand): {question_verdict(fields, df, ('reserve', 'per_hand'))}. "
            f"Hand-7 buying (h7_growth): {question_verdict(fields, df, ('h7_growth',))}. "
            f"Whole policy: {question_verdict(fields, df, AXES)}.")


def write_markdown(df: pd.DataFrame, notes: dict, fields: list[str], path: Path, cmd: str, wall: float, games: int) -> None:
    lines = ["# Telefunken: how many chips to save for the last hand (a chip-value policy)", "",
             f"`{cmd}`", "", f"Wall time {wall / 60:.1f} min (2 cores).", "",
             "## Answer", "", "| field | answer |", "|---|---|"]
    for f in fields:
        lines.append(f"| `{f}` ×3 | {answer_line(df[df['field'] == f])} |")
    lines += ["", "Verdict: " + verdict(fields, df), ""]
    if len(fields) > 1 and len({len(df[df["field"] == f]) for f in fields}) == 1 and all(
            np.allclose(df[df["field"] == f]["total"].to_numpy(), df[df["field"] == fields[0]]["total"].to_numpy())
            for f in fields[1:]):
        lines += ["Note: the fields played identically (their strategies take the same decisions, e.g. a `strong` "
                  "whose current parameters are the planner defaults, which play as greedy); the verdict is then "
                  "robust by construction and must be re-read once `strong` changes.", ""]
    lines += ["By reserve (the best point at each reserve, over per_hand and h7_growth):", "",
              "| field | " + " | ".join(f"reserve {fmt(k)}" for k in sorted(df["reserve"].unique())) + " |",
              "|---|" + "---:|" * df["reserve"].nunique()]
    for f in fields:
        d = df[df["field"] == f]
        cells = []
        for k in sorted(df["reserve"].unique()):
            dk = d[d["reserve"] == k]
            if not len(dk):
                cells.append("–")
                continue
            r = dk.loc[dk["total"].idxmin()]
            cells.append(f"{r['total']:.1f} ({r['chips_before_h7']:.1f} chips at H7, win {100 * r['win']:.1f}%)")
        lines.append(f"| `{f}` | " + " | ".join(cells) + " |")
    lines += ["",
              f"One `{FAMILY}` seat whose buying follows a chip-value policy against three seats of the field, 4 "
              "players, default (Venezuela) rules: before the last hand it buys only while holding more than "
              "`reserve + per_hand × hands still to come` chips; in Hand 7 a purchase is counted to add "
              "`h7_growth` cards that must be laid (−1: all it adds, the card and its penalty cards — the "
              "purchase must leave a holding that can still be melded; 0: the old naive fixed target). "
              f"{FAMILIES[FAMILY][2]} Every point plays the same {games:,} games from each of the 4 seats (duplicate "
              "deals, seats rotated); differences are paired per game. Totals are penalty points over the 7 hands "
              "(payout = −total, lower is better); a win is the unique lowest total (shared wins count as not won). "
              "\"Chips at Hand 7\" are the chips held after Hand 6. Tied = the paired 95% interval of the "
              "difference to the field's best point covers 0.", ""]
    for f in fields:
        d = df[df["field"] == f].sort_values("total")
        lines += [f"## Against `{f}` ×3", ""]
        lines += [f"- {n}" for n in notes[f]] or ["- no grid edge reached"]
        lines += ["", f"| reserve | per_hand | h7_growth | mean total | 95% CI | diff to {BASE_NAME} | 95% CI | diff to best | "
                  "95% CI | win rate | chips at H7 | buys | H7 buys | H7 penalty |",
                  "|---:|---:|---:|---:|---|---:|---|---:|---|---:|---:|---:|---:|---:|"]
        for _, r in d.iterrows():
            star = " ★" if r["best"] else (" (tied)" if r["tied_with_best"] else "")
            v = f"total_vs_{BASE_NAME}"
            vg = (f"{r[v]:+.2f} | {r[v + '_lo']:+.2f} – {r[v + '_hi']:+.2f}"
                  if v in r and pd.notna(r[v]) else "– | –")
            lines.append(
                f"| {fmt(r['reserve'])} | {fmt(r['per_hand'])} | {fmt(r['h7_growth'])} | {r['total']:.2f}{star} | "
                f"{r['total_lo']:.2f} – {r['total_hi']:.2f} | {vg} | {r['total_vs_best']:+.2f} | "
                f"{r['total_vs_best_lo']:+.2f} – {r['total_vs_best_hi']:+.2f} | {100 * r['win']:.2f}% | "
                f"{r['chips_before_h7']:.2f} | {r['buys']:.2f} | {r['h7_buys']:.2f} | {r['h7_pen']:.1f} |")
        lines.append("")
    lines += [f"Data: `summary.parquet` (one row per field and point; `*_vs_{BASE_NAME}` / `*_vs_best` = paired "
              f"difference to the {BASE_NAME} point / the field's best point; `_lo`/`_hi` = 95% interval).", ""]
    path.write_text("\n".join(lines))


def floats(text: str) -> list[float]:
    return [float(v) for v in text.split(",") if v.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--fields", default="greedy,strong", help="field strategy labels, comma-separated (semicolon-separated when a label has parameters)")
    ap.add_argument("--reserve", default="0,1,2")
    ap.add_argument("--per-hand", default="0,0.25,0.5")
    ap.add_argument("--h7-growth", default="-1,0,1")
    ap.add_argument("--family", default="planner", choices=sorted(FAMILIES),
                    help="the candidate seat's strategy family (expert: strong's, issue 41)")
    ap.add_argument("--out", default=str(ROOT / "results" / "telefunken_chip_reserve"))
    args = ap.parse_args()
    global BASE, BASE_NAME, FAMILY
    FAMILY = args.family
    BASE, BASE_NAME = FAMILIES[FAMILY][:2]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fields = [f.strip() for f in args.fields.split(";" if ";" in args.fields else ",") if f.strip()]
    grid = {"reserve": floats(args.reserve), "per_hand": floats(args.per_hand), "h7_growth": floats(args.h7_growth)}
    for a in AXES:
        if (BASE[AXES.index(a)]) not in grid[a]:
            grid[a] = [BASE[AXES.index(a)]] + grid[a]   # the base point (greedy, or strong) is always played
    t0 = time.perf_counter()
    frames, notes = [], {}
    for f in fields:
        res, _, notes[f] = study_field(f, grid, args.games, args.seed, print)
        frames.append(summarise(f, res))
        print(f"[{f}] {answer_line(frames[-1])}  ({(time.perf_counter() - t0) / 60:.1f} min)")
    df = pd.concat(frames, ignore_index=True)
    wall = time.perf_counter() - t0
    df["wall_min"] = wall / 60
    df.to_parquet(out / "summary.parquet", index=False)
    cmd = (f"python scripts/studies/study_telefunken_chips.py --games {args.games} --seed {args.seed} --fields {shlex.quote(args.fields)} "
           f"--reserve {args.reserve} --per-hand {args.per_hand} --h7-growth {args.h7_growth}"
           + (f" --family {FAMILY}" if FAMILY != "planner" else "")
           + (f" --out {args.out}" if args.out != ap.get_default("out") else ""))
    write_markdown(df, notes, fields, out / "report.md", cmd, wall, args.games)
    print("verdict:", verdict(fields, df))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
