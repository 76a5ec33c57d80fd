"""Study: Tripoli — the widow swap, the betting thresholds, the chips per seat per deal, and
one-parameter best responses, each answered against several fields (issue 16).

    python scripts/studies/study_tripoli.py [--fields heuristic,strong] [--deals 30000] [--bet-deals 10000]
                                    [--chip-deals 50000] [--response-deals 4000] [--seed 2026]
                                    [--players 5] [--out results] [--only widow|betting|chips|response]

Every part runs once per field label F in ``--fields`` (default ``heuristic`` = today's field and
``strong`` = the self-consistent tuned table; any strategy label, ``name:k=v,...`` included, can be
given). Against field F the candidate seats are variations of F itself (F's strategy with the
studied parameter moved), the other seats play F. All on duplicate deals (every candidate plays
the very same deals from every seat, seats rotated, so differences are paired), default rules:

1. ``tripoli_widow/``: how much is the widow swap worth to the dealer? The candidate's dealer
   policy varies (never swap; swap when the hand value is below t; swap and sell the old hand;
   auction the unseen widow first); it never bids itself (``bid_max=0``). Paired difference to
   "never swap" x n = value per deal the candidate deals.
2. ``tripoli_betting/``: which betting thresholds (``bet_at``, ``raise_at``, ``call_at``) win
   chips against F, relative to F's own thresholds. The grid is extended round by round around
   the best point until on every axis the best value is interior or at the end of the
   parameter's range (0..9). A field of the ``expert`` family (issue 41's ``strong``) bets by
   its chance of holding the best hand and ignores those three: its thresholds are
   ``value_eq``, ``raise_eq`` (0..1) and ``call_margin`` (-0.5..0.5), on their own grid.
3. ``tripoli_chips/``: expected chips per seat per deal for 2..9 players (all seats F), by seat
   position and ledger, and the paired per-deal gap between seats dealt the extra card and the
   others.
4. ``tripoli_response/``: F's seat with one parameter moved against a table of F at 3, 5 and 7
   players: does any simple change beat F? (An ``expert`` field's deviations move its own
   betting parameters, not the heuristic's that it ignores.)

Each part writes ``summary.parquet`` (with a ``field`` column), ``report.md`` (opening with the
command, runtime, the answer per field and a verdict per question) and a PNG plot where useful.
Needs the ``report`` extra (matplotlib). Estimated runtime with the defaults (both fields): about
8 minutes on an idle 2-core machine (scaled from smoke runs; each report states the measured time).
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.sim.experiment import make_compare, run_experiment  # noqa: E402
from cardsim.sim.registry import get_game  # noqa: E402
from cardsim.sim.runner import make_config, play_shard  # noqa: E402
from cardsim.sim.stats import mean_ci  # noqa: E402

LEDGERS = ("widow", "pay", "poker", "michigan", "clear")
GAME = get_game("tripoli")
DEFAULTS = {"fields": "heuristic,strong", "deals": 30_000, "bet_deals": 10_000, "chip_deals": 50_000,
            "response_deals": 4_000, "players": 5, "seed": 2026}
BET_AXES = ("bet_at", "raise_at", "call_at")


def plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as p
    return p


def field_params(field: str) -> tuple[str, dict, dict]:
    """``name:k=v`` -> (name, every parameter's value for this field, the overrides given)."""
    base, _, kv = field.partition(":")
    if base not in GAME.strategies:
        raise SystemExit(f"unknown strategy {base!r}; strategies: {', '.join(GAME.strategies)}")
    given = {k.strip(): float(v) for k, v in (x.split("=", 1) for x in kv.split(",") if "=" in x)}
    vals = {p.name: p.default for p in GAME.strategies[base].params}
    vals.update(given)
    return base, vals, given


def variant(field: str, **kv) -> str:
    """F's strategy with some parameters moved (the field's own overrides kept)."""
    base, _, given = field_params(field)
    merged = {**given, **kv}
    return base + (":" + ",".join(f"{k}={v:g}" for k, v in merged.items()) if merged else "")


def is_expert(field: str) -> bool:
    """An ``expert``-family field (issue 41: Tripoli's ``strong``) bets by its chance of holding the
    best hand (``value_eq``, ``raise_eq``, ``call_margin``, ...) and ignores the heuristic's
    ``bet_at`` .. ``pos_shift`` betting parameters (``bluff`` apart)."""
    return "value_eq" in field_params(field)[1]


def param_range(field: str, name: str) -> tuple[float, float]:
    base = field.partition(":")[0]
    p = next(p for p in GAME.strategies[base].params if p.name == name)
    return p.lo, p.hi


def compare(cands: list[str], field: str, args, deals: int, players=None) -> pd.DataFrame:
    exp = make_compare("tripoli", cands, players=players or args.players, field=field, seed=args.seed, deals=deals,
                       shard_size=8192)
    res = run_experiment(exp, deals)
    return pd.DataFrame(res.summary["points"])


def command(args, part: str | None = None) -> str:
    """The command line that reruns the study (only non-default options are written)."""
    words = ["python scripts/studies/study_tripoli.py"]
    for key, default in DEFAULTS.items():
        v = getattr(args, key)
        if v != default:
            words.append(f"--{key.replace('_', '-')} {v}")
    if args.only:
        words += [f"--only {o}" for o in args.only]
    return " ".join(words)


def ci(m, lo, hi, digits=2) -> str:
    return f"{m:+.{digits}f} ({lo:+.{digits}f} to {hi:+.{digits}f})"


def overlap(a_lo, a_hi, b_lo, b_hi) -> bool:
    return a_lo <= b_hi and b_lo <= a_hi


def head(title: str, args, runtime: float, table: list[str], verdict: str, notes: list[str]) -> list[str]:
    return ([f"# {title}", "", f"`{command(args)}`", "",
             f"Runtime of this part: {runtime:.0f} s ({len(args.field_list)} field(s): "
             + ", ".join(f"`{f}`" for f in args.field_list) + ").", "", "## Answer", ""] + table +
            ["", f"**Verdict: {verdict}**", ""] + notes)


# ---- 1. widow -------------------------------------------------------------------------------
def widow_policies(sw: float) -> list[tuple[str, dict]]:
    pol = [("never swap", {"swap_below": 0, "sell_old": 0})]
    pol += [(f"swap if value < {t:g}", {"swap_below": t, "sell_old": 0})
            for t in sorted({0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 10, sw})]
    pol += [(f"swap if value < {sw:g}, sell old hand", {"swap_below": sw, "sell_old": 1}),
            ("swap if value < 5, sell old hand", {"swap_below": 5, "sell_old": 1}),
            (f"auction unseen widow first, then swap < {sw:g} and sell",
             {"auction_widow": 1, "swap_below": sw, "sell_old": 1})]
    return pol


def plot_widow(df: pd.DataFrame, n: int, deals: int, path: Path) -> None:
    """The widow study's plot from its summary.parquet: each policy's value per deal dealt."""
    p = plt()
    fields = list(dict.fromkeys(df["field"]))
    fig, axes = p.subplots(1, len(fields), figsize=(8 * len(fields), 5.5), dpi=110, squeeze=False)
    for ax, (field, g) in zip(axes[0], df.groupby("field", sort=False)):
        y = np.arange(len(g))
        ax.barh(y, g["per_dealt_diff"], xerr=[g["per_dealt_diff"] - g["per_dealt_diff_lo"],
                                              g["per_dealt_diff_hi"] - g["per_dealt_diff"]], color="tab:blue")
        ax.set_yticks(y, g["policy"], fontsize=8)
        ax.invert_yaxis()
        ax.axvline(0, color="grey", lw=0.8)
        ax.set(xlabel="chips per deal dealt, vs never swapping (paired 95% CI)", title=f"field: {field}",
               ylabel="dealer's widow policy")
    fig.suptitle(f"Tripoli, {n} players: value of the dealer's widow policy ({deals:,} duplicate deals)")
    fig.tight_layout()
    fig.savefig(path)
    p.close(fig)


def widow_study(args, out: Path) -> str:
    n, frames, res = args.players, [], {}
    for field in args.field_list:
        sw = field_params(field)[1]["swap_below"]
        pols = widow_policies(sw)
        cands = [variant(field, **kv, bid_max=0) for _, kv in pols]
        df = compare(cands, field, args, args.deals)
        df.insert(0, "field", field)
        df.insert(1, "policy", [name for name, _ in pols])
        for c in ("diff", "diff_lo", "diff_hi"):
            df[f"per_dealt_{c}"] = df[c] * n
        frames.append(df)
        best = df.loc[int(df["per_dealt_diff"].idxmax())]
        sell = df[df["policy"] == f"swap if value < {sw:g}, sell old hand"].iloc[0]
        plain = df[df["policy"] == f"swap if value < {sw:g}"].iloc[0]
        own = sell if field_params(field)[1]["sell_old"] > 0.5 else plain
        res[field] = (best, own, plain, sell, sw)
    df = pd.concat(frames, ignore_index=True)
    df.to_parquet(out / "summary.parquet", index=False)
    plot_widow(df, n, args.deals, out / "widow_value.png")
    table = ["| field | own widow policy (swap < t; sell old: the field's own choice) vs never swap, per deal dealt | "
             "best policy tried | its value | selling the old hand adds |", "|---|---:|---|---:|---:|"]
    answers = []
    for field, (best, own, plain, sell, sw) in res.items():
        table.append(f"| `{field}` | t = {sw:g}{', sell' if own is sell else ', keep'}: "
                     f"{ci(own['per_dealt_diff'], own['per_dealt_diff_lo'], own['per_dealt_diff_hi'])} | "
                     f"{best['policy']} | {ci(best['per_dealt_diff'], best['per_dealt_diff_lo'], best['per_dealt_diff_hi'])} | "
                     f"{sell['per_dealt_diff'] - plain['per_dealt_diff']:+.2f} |")
        answers.append(f"{field}: swap worth {own['per_dealt_diff']:+.2f} per deal dealt, best {best['policy']} "
                       f"{best['per_dealt_diff']:+.2f}")
    owns = [r[1] for r in res.values()]
    bests = {r[0]["policy"] for r in res.values()}
    if len(owns) < 2:
        verdict = "only one field given"
    elif all(overlap(a["per_dealt_diff_lo"], a["per_dealt_diff_hi"], b["per_dealt_diff_lo"], b["per_dealt_diff_hi"])
             for a, b in itertools.combinations(owns, 2)):
        verdict = ("robust: the value of the field's own swap policy agrees (intervals overlap); best policies: "
                   + " / ".join(sorted(bests)))
    else:
        verdict = ("field-dependent: the swap's value moves from " +
                   " to ".join(f"{o['per_dealt_diff']:+.2f} ({f})" for f, o in zip(res, owns)) +
                   " chips per deal dealt (intervals disjoint); it is positive against every field"
                   if all(o["per_dealt_diff_lo"] > 0 for o in owns) else
                   "field-dependent: the swap's value moves from " +
                   " to ".join(f"{o['per_dealt_diff']:+.2f} ({f})" for f, o in zip(res, owns)) +
                   " chips per deal dealt (intervals disjoint)")
    notes = ["One candidate seat (a variation of the field's own strategy) against a table of the field, "
             f"sessions of {n} deals with clearing. The candidate never bids in auctions (`bid_max=0`), so the "
             "points differ only in the candidate's decisions as the dealer. Hand value = poker strength 0..9 of "
             "the best 5 cards + pay_weight per Phase-1 chip the hand would collect. Every policy plays the same "
             f"{args.deals:,} deals from every seat; 'per deal dealt' = paired difference to 'never swap' x {n} "
             "(the candidate deals one deal in n; effects on later deals through the board included).", "",
             "![widow value](widow_value.png)", ""]
    for field, g in df.groupby("field", sort=False):
        notes += [f"## Field `{field}`", "",
                  "| policy | mean payout per deal | 95% CI | vs never swap, per deal dealt | 95% CI |",
                  "|---|---:|---|---:|---|"]
        for _, r in g.iterrows():
            notes.append(f"| {r['policy']} | {r['mean_payout']:+.3f} | {r['payout_lo']:+.3f} – {r['payout_hi']:+.3f} | "
                         f"{r['per_dealt_diff']:+.3f} | {r['per_dealt_diff_lo']:+.3f} – {r['per_dealt_diff_hi']:+.3f} |")
        notes.append("")
    args.widow_lines = (table, verdict, notes)
    return "; ".join(answers) + f" — {verdict}"


# ---- 2. betting thresholds (adaptive grid) -----------------------------------------------
BASE_AXES = {"bet_at": [2, 4, 5, 6, 7], "raise_at": [5, 6.5, 8], "call_at": [2, 3, 4, 4.5, 5, 6]}
# the expert family (issue 41) bets by its chance of holding the best hand: its thresholds and grid
EXPERT_AXES = ("value_eq", "raise_eq", "call_margin")
EXPERT_BASE = {"value_eq": [0.3, 0.4, 0.5, 0.6, 0.7], "raise_eq": [0.5, 0.65, 0.8],
               "call_margin": [-0.1, -0.05, 0, 0.05, 0.1]}
STEP = {"bet_at": 1, "raise_at": 1, "call_at": 1, "value_eq": 0.1, "raise_eq": 0.1, "call_margin": 0.05}
MAX_ROUNDS = 8


def bet_axes(field: str) -> tuple[tuple[str, ...], dict]:
    """The betting thresholds the field's family plays by, and their round-1 grid."""
    return (EXPERT_AXES, EXPERT_BASE) if is_expert(field) else (BET_AXES, BASE_AXES)


def _neighbours(vals: list[float], v: float) -> list[float]:
    s = sorted(vals)
    i = s.index(v)
    return s[max(0, i - 1): i + 2]


def betting_field(field: str, args) -> tuple[pd.DataFrame, dict, int]:
    _, vals, _ = field_params(field)
    names, base = bet_axes(field)
    own = tuple(round(vals[a], 4) for a in names)
    axes = {a: sorted(set(base[a]) | {own[i]}) for i, a in enumerate(names)}
    todo = [pt for pt in itertools.product(*(axes[a] for a in names)) if pt != own]
    done: dict[tuple, dict] = {}
    rounds = 0
    status = {}
    while todo and rounds < MAX_ROUNDS:
        rounds += 1
        cands = [field] + [variant(field, **dict(zip(names, pt))) for pt in todo]
        df = compare(cands, field, args, args.bet_deals)
        if not done:
            done[own] = {**df.iloc[0].to_dict(), "round": 0}
        for pt, (_, r) in zip(todo, df.iloc[1:].iterrows()):
            done[pt] = {**r.to_dict(), "round": rounds}
        best = max(done, key=lambda q: done[q]["diff"])
        todo, status = [], {}
        for i, a in enumerate(names):
            lo, hi = param_range(field, a)
            v, s = best[i], sorted(axes[a])
            new = None
            if v == s[-1]:
                new = round(min(hi, v + STEP[a]), 4) if v < hi else None
                status[a] = f"{a} = {v:g} is the end of its range ({hi:g})" if v >= hi else None
            elif v == s[0]:
                new = round(max(lo, v - STEP[a]), 4) if v > lo else None
                status[a] = f"{a} = {v:g} is the end of its range ({lo:g})" if v <= lo else None
            else:
                status[a] = f"{a} = {v:g} interior ({s[s.index(v) - 1]:g} < {v:g} < {s[s.index(v) + 1]:g})"
            if new is not None:
                axes[a] = sorted(set(axes[a]) | {new})
                status[a] = None
                others = [_neighbours(axes[b], best[j]) if b != a else [new] for j, b in enumerate(names)]
                todo += [pt for pt in itertools.product(*others) if pt not in done and pt not in todo]
    for a in names:
        if status.get(a) is None:
            status[a] = f"{a}: still on the grid's edge after {MAX_ROUNDS} rounds"
    rows = [{"field": field, **dict(zip(names, pt)), **r} for pt, r in done.items()]
    return pd.DataFrame(rows), status, rounds


def betting_study(args, out: Path) -> str:
    frames, info = [], {}
    for field in args.field_list:
        df, status, rounds = betting_field(field, args)
        frames.append(df)
        info[field] = (df.sort_values("diff", ascending=False).iloc[0], status, rounds, len(df))
    df = pd.concat(frames, ignore_index=True)
    df.to_parquet(out / "summary.parquet", index=False)
    p = plt()
    fig, axes = p.subplots(1, len(args.field_list), figsize=(8 * len(args.field_list), 4.8), dpi=110,
                           squeeze=False, sharey=True)
    for ax, (field, g) in zip(axes[0], df.groupby("field", sort=False)):
        g = g.sort_values("diff").reset_index(drop=True)
        ax.errorbar(np.arange(len(g)), g["diff"], yerr=[g["diff"] - g["diff_lo"], g["diff_hi"] - g["diff"]],
                    fmt="o", ms=3, capsize=1)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set(title=f"field: {field}", xlabel="threshold points, sorted by gain")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("chips per deal vs the field's own thresholds (paired 95% CI)")
    fig.suptitle(f"Tripoli, {args.players} players: one seat's betting thresholds ({args.bet_deals:,} duplicate deals)")
    fig.tight_layout()
    fig.savefig(out / "betting_thresholds.png")
    p.close(fig)
    table = ["| field | thresholds | own | best point tried | gain over own, chips per deal | "
             "alternatives significantly better | grid end |", "|---|---|---|---|---:|---:|---|"]
    answers = []
    for field, (b, status, rounds, size) in info.items():
        _, vals, _ = field_params(field)
        ax = bet_axes(field)[0]
        g = df[df["field"] == field]
        sig = int((g["diff_lo"] > 0).sum())
        table.append(f"| `{field}` | {', '.join(ax)} | {', '.join(f'{vals[a]:g}' for a in ax)} | "
                     f"{', '.join(f'{b[a]:g}' for a in ax)} | {ci(b['diff'], b['diff_lo'], b['diff_hi'])} | "
                     f"{sig} of {size - 1} | {'; '.join(status.values())} ({rounds} round(s)) |")
        answers.append(f"{field}: best {'/'.join(f'{b[a]:g}' for a in ax)} {b['diff']:+.2f}")
    bs = [v[0] for v in info.values()]
    fams = {bet_axes(f)[0] for f in info}
    if len(bs) < 2:
        verdict = "only one field given"
    elif len(fams) > 1:
        gains = [(f, x) for f, x in zip(info, bs)]
        verdict = ("not comparable axis by axis: the fields bet by different thresholds (the heuristic's poker "
                   "strengths bet_at / raise_at / call_at, the expert's chances of the best hand value_eq / raise_eq "
                   "/ call_margin); the best point's gain over the field's own thresholds: "
                   + ", ".join(f"{ci(x['diff'], x['diff_lo'], x['diff_hi'])} vs `{f}`" for f, x in gains)
                   + (" (intervals overlap)" if all(overlap(x['diff_lo'], x['diff_hi'], y['diff_lo'], y['diff_hi'])
                                                   for (_, x), (_, y) in itertools.combinations(gains, 2))
                      else " (intervals disjoint)"))
    elif all(max(abs(x[a] - y[a]) / STEP[a] for a in next(iter(fams))) <= 1 for x, y in itertools.combinations(bs, 2)):
        verdict = "robust: the best thresholds agree within one grid step on every axis"
    else:
        ax = next(iter(fams))
        verdict = ("field-dependent: the best thresholds move " +
                   " -> ".join("(" + ", ".join(f"{x[a]:g}" for a in ax) + f") vs `{f}`"
                               for f, x in zip(info, bs)) + " (more than one grid step apart on some axis)")
    notes = ["One seat (the field's strategy with its own betting thresholds moved, every other "
             "parameter as the field's) against a table of the field, default rules (limit 10 per action, 3 raises). "
             "The heuristic family's thresholds are poker strengths `bet_at` / `raise_at` / `call_at` (strength = "
             "category 0..8 + place inside it: 1 = a pair, 2 = two pair, 3 = trips, ...); the expert family "
             "(issue 41's `strong`) ignores those and bets by its chance of holding the best hand: it opens at "
             "`value_eq`, raises at `raise_eq` and calls when the chance is at least the pot odds + `call_margin`. "
             "Payout = all chips of the deal. Paired differences to the field's own thresholds, every round on the "
             f"same {args.bet_deals:,} deals (same seed), so all points are comparable. Grid: round 1 is "
             "bet_at {2,4,5,6,7} x raise_at {5,6.5,8} x call_at {2,3,4,4.5,5,6} (expert: value_eq "
             "{0.3,0.4,0.5,0.6,0.7} x raise_eq {0.5,0.65,0.8} x call_margin {-0.1,-0.05,0,0.05,0.1}) plus the "
             "field's own values; while the best point's value is the lowest or highest tried on an axis and not "
             "the end of the parameter's range (0..9; expert 0..1, call_margin -0.5..0.5), the axis is extended by "
             "one step there (1; expert 0.1, call_margin 0.05; with the best point's neighbours on the "
             f"other axes), up to {MAX_ROUNDS} rounds. The best point is the largest mean gain (not re-measured on "
             "fresh deals: its interval carries some winner's curse).", "",
             "![betting thresholds](betting_thresholds.png)", ""]
    for field, g in df.groupby("field", sort=False):
        ax = bet_axes(field)[0]
        notes += [f"## Field `{field}`: top 10 of {len(g)}", "",
                  "| " + " | ".join(ax) + " | round | mean payout | vs own | 95% CI |",
                  "|" + "---:|" * len(ax) + "---:|---:|---:|---|"]
        for _, r in g.sort_values("diff", ascending=False).head(10).iterrows():
            notes.append("| " + " | ".join(f"{r[a]:g}" for a in ax) + f" | {int(r['round'])} | "
                         f"{r['mean_payout']:+.3f} | {r['diff']:+.3f} | {r['diff_lo']:+.3f} – {r['diff_hi']:+.3f} |")
        notes.append("")
    notes.append("All points: `summary.parquet`.")
    args.betting_lines = (table, verdict, notes)
    return "; ".join(answers) + f" — {verdict}"


# ---- 3. chips per seat per deal -----------------------------------------------------------
def hand_size(n: int, position: int) -> int:
    """Cards dealt to the seat ``position`` seats after the dealer (widow dealt last)."""
    q, r = divmod(52, n + 1)
    order = (position - 1) % n          # 0 = dealer's left ... n-1 = dealer
    return q + (order < r)


def chips_field(field: str, args) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows, gaps = [], []
    for n in range(2, 10):
        cfg = make_config("tripoli", players=n, deals=args.chip_deals, seed=args.seed, strategies=[field])
        cols = play_shard(cfg, 0, args.chip_deals)
        dealer = cols["dealer"].astype(np.int64)
        board = sum(cols[c].astype(np.int64) for c in cols if c.startswith("board_"))
        pays, cards = [], []
        for k in range(n):                         # k = seats after the dealer (0 = dealer)
            seat = (dealer + k) % n
            pick = lambda name: np.choose(seat, [cols[f"{name}_{p}"].astype(np.float64) for p in range(n)])  # noqa
            pay = pick("payout")
            pays.append(pay)
            cards.append(hand_size(n, k))
            m, lo, hi, _ = mean_ci(float(pay.sum()), float((pay * pay).sum()), pay.size)
            r = {"field": field, "players": n, "position": k, "cards": cards[-1], "mean_payout": m,
                 "payout_lo": lo, "payout_hi": hi, "ante": -9.0}
            for led in LEDGERS:
                r[led] = float(pick(led).mean())
            rows.append(r)
        rows[-n]["board_mean"] = float(board.mean())
        cards = np.array(cards)
        g = {"field": field, "players": n, "extra_seats": int((cards > cards.min()).sum())}
        if g["extra_seats"]:
            big = np.mean([pays[k] for k in range(n) if cards[k] > cards.min()], axis=0)
            small = np.mean([pays[k] for k in range(n) if cards[k] == cards.min()], axis=0)
            d = big - small                         # paired per deal
            g["gap"], g["gap_lo"], g["gap_hi"], _ = mean_ci(float(d.sum()), float((d * d).sum()), d.size)
        else:
            g["gap"] = g["gap_lo"] = g["gap_hi"] = float("nan")
        means = [r["mean_payout"] for r in rows[-n:]]
        g["dealer_payout"] = means[0]
        g["dealer_lowest"] = bool(rows[-n]["payout_hi"] < min(r["payout_lo"] for r in rows[-n + 1:]))
        g["best_position"] = int(np.argmax(means))
        gaps.append(g)
    return pd.DataFrame(rows), pd.DataFrame(gaps)


def _sign(r) -> str:
    if np.isnan(r["gap"]):
        return "none"
    return "+" if r["gap_lo"] > 0 else "-" if r["gap_hi"] < 0 else "0"


def chips_study(args, out: Path) -> str:
    frames, gap_frames = [], []
    for field in args.field_list:
        df, gp = chips_field(field, args)
        frames.append(df)
        gap_frames.append(gp)
    df, gp = pd.concat(frames, ignore_index=True), pd.concat(gap_frames, ignore_index=True)
    gp["sign"] = [_sign(r) for _, r in gp.iterrows()]
    df.to_parquet(out / "summary.parquet", index=False)
    gp.to_parquet(out / "gaps.parquet", index=False)
    p = plt()
    fig, axes = p.subplots(1, len(args.field_list), figsize=(7 * len(args.field_list), 5), dpi=110,
                           squeeze=False, sharey=True)
    for ax, (field, h) in zip(axes[0], df.groupby("field", sort=False)):
        for n, g in h.groupby("players"):
            ax.errorbar(g["position"], g["mean_payout"], yerr=[g["mean_payout"] - g["payout_lo"],
                        g["payout_hi"] - g["mean_payout"]], marker="o", ms=4, capsize=2, label=f"{n} players")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set(xlabel="seat position (0 = dealer, 1 = dealer's left, ...)", title=f"all seats `{field}`")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("chips per deal (95% CI)")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"Tripoli: expected chips per deal by seat position ({args.chip_deals:,} deals per player count)")
    fig.tight_layout()
    fig.savefig(out / "chips_per_seat.png")
    p.close(fig)
    table = ["| players | extra-card seats | " + " | ".join(f"gap `{f}` (95% CI)" for f in args.field_list) + " | " +
             " | ".join(f"dealer `{f}`" for f in args.field_list) + " |",
             "|---:|---:|" + "---:|" * (2 * len(args.field_list))]
    for n in range(2, 10):
        rs = [gp[(gp["field"] == f) & (gp["players"] == n)].iloc[0] for f in args.field_list]
        gaps = [("no extra card" if r["sign"] == "none" else f"{ci(r['gap'], r['gap_lo'], r['gap_hi'], 1)} [{r['sign']}]")
                for r in rs]
        dealers = [f"{r['dealer_payout']:+.1f}" + (" (lowest)" if r["dealer_lowest"] else "") for r in rs]
        table.append(f"| {n} | {int(rs[0]['extra_seats'])} of {n} | " + " | ".join(gaps) + " | " + " | ".join(dealers) + " |")
    answers = []
    for f in args.field_list:
        g = gp[gp["field"] == f]
        by = {s: [int(n) for n in g[g["sign"] == s]["players"]] for s in ("+", "-", "0")}
        low = [int(n) for n in g[g["dealer_lowest"]]["players"]]
        answers.append(f"against `{f}` the seats dealt the extra card expect significantly more than the others at "
                       f"{by['+'] or 'no'} players, significantly less at {by['-'] or 'no'}, no significant difference "
                       f"at {by['0'] or 'no'} (3 players: every seat holds 13); the dealer is the significantly "
                       f"lowest seat at {low or 'no'} players")
    signs = {f: list(gp[gp["field"] == f]["sign"]) for f in args.field_list}
    if len(signs) < 2:
        verdict = "only one field given"
    elif len({tuple(v) for v in signs.values()}) == 1:
        verdict = "robust: the sign of the extra-card gap agrees at every player count"
    else:
        moved = [n for i, n in enumerate(range(2, 10)) if len({v[i] for v in signs.values()}) > 1]
        verdict = f"field-dependent: the sign of the extra-card gap differs at {moved} players"
    answer = "Extra card and seat, by player count: " + "; ".join(answers) + "."
    notes = [answer, "", "Gap = paired per-deal difference between the mean payout of the seats dealt the extra card "
             "(the first 52 mod (n+1) seats left of the dealer; the dealer never gets one) and the mean of the "
             "others; [+] / [-] significant, [0] not. 'dealer (lowest)': the dealer's interval lies below every "
             "other seat's.", "",
             f"All seats the field's strategy, default rules (sessions of n deals, one clearing round), "
             f"{args.chip_deals:,} deals per player count. Payout = change of the seat's chips in the deal; what the "
             "seats lose together stays on the board (it comes back later). Positions count seats after the dealer.",
             "", "![chips per seat](chips_per_seat.png)", ""]
    for field, h in df.groupby("field", sort=False):
        notes += [f"## All seats `{field}`", "",
                  "| players | position | cards | mean payout | 95% CI | ante | widow | pay cards | poker | Michigan | "
                  "clearing |", "|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
        for _, r in h.iterrows():
            notes.append(f"| {int(r['players'])} | {int(r['position'])} | {int(r['cards'])} | {r['mean_payout']:+.3f} | "
                         f"{r['payout_lo']:+.3f} – {r['payout_hi']:+.3f} | {r['ante']:.0f} | {r['widow']:+.3f} | "
                         f"{r['pay']:+.3f} | {r['poker']:+.3f} | {r['michigan']:+.3f} | {r['clear']:+.3f} |")
        notes.append("")
    args.chips_lines = (table, verdict, notes)
    return answer + f" — {verdict}"


# ---- 4. best response to the field ---------------------------------------------------------
RESPONSES = [("all thresholds +1", {"bet_at": 1, "raise_at": 1, "call_at": 1}),
             ("all thresholds +0.5", {"bet_at": 0.5, "raise_at": 0.5, "call_at": 0.5}),
             ("all thresholds -0.5", {"bet_at": -0.5, "raise_at": -0.5, "call_at": -0.5}),
             ("call_at +1", {"call_at": 1}), ("call_at -1", {"call_at": -1}),
             ("bet_at +1", {"bet_at": 1}), ("bet_at -1", {"bet_at": -1}),
             ("raise_at +0.5", {"raise_at": 0.5}), ("raise_at -0.5", {"raise_at": -0.5}),
             ("bluff +0.1", {"bluff": 0.1}), ("bluff -0.1", {"bluff": -0.1}), ("no bluff", {"bluff": None}),
             ("bluff_size +2", {"bluff_size": 2}), ("bluff_size -3", {"bluff_size": -3}),
             ("bet_size -3", {"bet_size": -3}), ("odds_weight +3", {"odds_weight": 3}),
             ("odds_weight -5", {"odds_weight": -5}), ("size_shift +0.25", {"size_shift": 0.25}),
             ("size_shift -0.25", {"size_shift": -0.25}), ("opp_shift +0.25", {"opp_shift": 0.25}),
             ("opp_shift -0.25", {"opp_shift": -0.25}), ("pos_shift +0.25", {"pos_shift": 0.25}),
             ("pos_shift -0.25", {"pos_shift": -0.25}), ("swap_below +1", {"swap_below": 1}),
             ("swap_below -1", {"swap_below": -1}), ("bid_old_max +2", {"bid_old_max": 2})]
# an expert field (issue 41) ignores bet_at .. pos_shift (bluff apart): its deviations move its own
# betting parameters (thresholds on the chance of the best hand, bet sizes, reads) and Michigan leads
EXPERT_RESPONSES = [
    ("all thresholds +0.1 (call_margin +0.05)", {"value_eq": 0.1, "raise_eq": 0.1, "call_margin": 0.05}),
    ("all thresholds +0.05 (call_margin +0.025)", {"value_eq": 0.05, "raise_eq": 0.05, "call_margin": 0.025}),
    ("all thresholds -0.05 (call_margin -0.025)", {"value_eq": -0.05, "raise_eq": -0.05, "call_margin": -0.025}),
    ("call_margin +0.05", {"call_margin": 0.05}), ("call_margin -0.05", {"call_margin": -0.05}),
    ("value_eq +0.1", {"value_eq": 0.1}), ("value_eq -0.1", {"value_eq": -0.1}),
    ("raise_eq +0.05", {"raise_eq": 0.05}), ("raise_eq -0.05", {"raise_eq": -0.05}),
    ("bluff +0.1", {"bluff": 0.1}), ("bluff -0.1", {"bluff": -0.1}), ("no bluff", {"bluff": None}),
    ("bet_frac +0.25", {"bet_frac": 0.25}), ("bet_frac -0.25", {"bet_frac": -0.25}),
    ("raise_range +0.1", {"raise_range": 0.1}), ("raise_range -0.1", {"raise_range": -0.1}),
    ("call_range +0.1", {"call_range": 0.1}), ("call_range -0.1", {"call_range": -0.1}),
    ("stop_bonus +2", {"stop_bonus": 2}), ("stop_bonus -2", {"stop_bonus": -2}),
    ("no widow stops", {"widow_stops": None}), ("sell_old +1", {"sell_old": 1}),
    ("swap_below +1", {"swap_below": 1}), ("swap_below -1", {"swap_below": -1}),
    ("bid_old_max +2", {"bid_old_max": 2})]
RESPONSE_PLAYERS = (3, 5, 7)
CHANCE = 0.05   # a field "is beaten" when more than 5 % of the deviations gain significantly (2.5 % by chance)


def response_candidates(field: str) -> list[tuple[str, str]]:
    """(deviation, label) for the deviations that move a parameter inside its range."""
    _, vals, _ = field_params(field)
    out = []
    for name, delta in (EXPERT_RESPONSES if is_expert(field) else RESPONSES):
        kv = {}
        for k, v in delta.items():
            lo, hi = param_range(field, k)
            kv[k] = 0.0 if v is None else min(hi, max(lo, vals[k] + v))
            if next(p for p in GAME.strategies[field.partition(":")[0]].params if p.name == k).integer:
                kv[k] = round(kv[k])
        label = variant(field, **kv)
        if all(abs(kv[k] - vals[k]) > 1e-9 for k in kv) and label not in {lab for _, lab in out}:
            out.append((name, label))
    return out


def response_study(args, out: Path) -> str:
    rows = []
    for field in args.field_list:
        devs = response_candidates(field)
        for n in RESPONSE_PLAYERS:
            pts = compare([field] + [lab for _, lab in devs], field, args, args.response_deals, players=n)
            for (name, _), (_, p) in zip(devs, pts.iloc[1:].iterrows()):
                rows.append({"field": field, "players": n, "deviation": name, "diff": p["diff"],
                             "diff_lo": p["diff_lo"], "diff_hi": p["diff_hi"]})
    df = pd.DataFrame(rows)
    df.to_parquet(out / "summary.parquet", index=False)
    table = ["| field | best deviation | gain, chips per deal (95% CI) | deviations gaining significantly |",
             "|---|---|---:|---:|"]
    answers, anysig = [], {}
    for f in args.field_list:
        g = df[df["field"] == f]
        best = g.sort_values("diff", ascending=False).iloc[0]
        sig = g[g["diff_lo"] > 0]
        anysig[f] = len(sig) > CHANCE * len(g)
        table.append(f"| `{f}` | {best['deviation']} at {int(best['players'])} players | "
                     f"{ci(best['diff'], best['diff_lo'], best['diff_hi'])} | {len(sig)} of {len(g)} |")
        answers.append(f"{f}: best {best['deviation']} at {int(best['players'])} players {best['diff']:+.2f}, "
                       f"{len(sig)} of {len(g)} significant")
    said = {True: "more deviations gain significantly than chance explains", False: "no more deviations gain "
            "significantly than chance explains"}
    if len(anysig) < 2:
        verdict = "only one field given"
    elif len(set(anysig.values())) == 1:
        verdict = "robust: against every field " + said[next(iter(anysig.values()))]
    else:
        verdict = "field-dependent: " + "; ".join(f"against `{f}` {said[s]}" for f, s in anysig.items())
    notes = ["The field's seat with one parameter moved against a table of the field, default rules, every seat on "
             f"the same {args.response_deals:,} duplicate deals; paired difference to the field's own seat, chips per "
             "deal. Deviations that would leave the parameter's range (or not move it) are skipped. No correction "
             "for the many comparisons: about 1 in 40 null deviations shows 'significant' by chance, so the "
             "verdict counts a field as beaten only when more than 5 % of its deviations gain significantly.", ""]
    for f in args.field_list:
        g = df[df["field"] == f]
        notes += [f"## Field `{f}`", "", "| deviation | " + " | ".join(f"{n} players (95% CI)" for n in RESPONSE_PLAYERS)
                  + " |", "|---|" + "---:|" * len(RESPONSE_PLAYERS)]
        for name in dict.fromkeys(g["deviation"]):
            cells = []
            for n in RESPONSE_PLAYERS:
                r = g[(g["players"] == n) & (g["deviation"] == name)].iloc[0]
                cells.append(f"{r['diff']:+.3f} ({r['diff_lo']:+.3f} – {r['diff_hi']:+.3f})")
            notes.append(f"| {name} | " + " | ".join(cells) + " |")
        notes.append("")
    args.response_lines = (table, verdict, notes)
    return "; ".join(answers) + f" — {verdict}"


TITLES = {"widow": "Tripoli: how much is the widow swap worth to the dealer?",
          "betting": "Tripoli: which betting thresholds win chips against the table?",
          "chips": "Tripoli: expected chips per seat per deal, and does hand size decide the seat?",
          "response": "Tripoli: does any one-parameter change beat the table?"}


def split_fields(text: str) -> list[str]:
    """``heuristic,strong:bet_at=4,call_at=5`` -> ["heuristic", "strong:bet_at=4,call_at=5"]: a piece
    ``k=v`` without a strategy name belongs to the label before it."""
    out: list[str] = []
    for piece in filter(None, (x.strip() for x in text.split(","))):
        if "=" in piece and ":" not in piece and out:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fields", default=DEFAULTS["fields"],
                    help="comma-separated field labels (strategy[:k=v,...]); each study runs against each")
    ap.add_argument("--deals", type=int, default=DEFAULTS["deals"], help="deals per point of the widow study")
    ap.add_argument("--bet-deals", type=int, default=DEFAULTS["bet_deals"], help="deals per point of the betting study")
    ap.add_argument("--chip-deals", type=int, default=DEFAULTS["chip_deals"],
                    help="deals per player count of the chips study")
    ap.add_argument("--response-deals", type=int, default=DEFAULTS["response_deals"],
                    help="deals per point of the response study")
    ap.add_argument("--players", type=int, default=DEFAULTS["players"])
    ap.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    ap.add_argument("--out", default=str(ROOT / "results"))
    ap.add_argument("--only", choices=["widow", "betting", "chips", "response"], action="append")
    args = ap.parse_args()
    args.field_list = split_fields(args.fields)
    for f in args.field_list:
        field_params(f)
    parts = {"widow": widow_study, "betting": betting_study, "chips": chips_study, "response": response_study}
    t_all = time.perf_counter()
    for name in args.only or list(parts):
        out = Path(args.out) / f"tripoli_{name}"
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        answer = parts[name](args, out)
        dt = time.perf_counter() - t0
        table, verdict, notes = getattr(args, f"{name}_lines")
        (out / "report.md").write_text("\n".join(head(TITLES[name], args, dt, table, verdict, notes)) + "\n")
        print(f"[{name}] {dt:.0f} s: {answer}", flush=True)
    print(f"total {time.perf_counter() - t_all:.0f} s", flush=True)


if __name__ == "__main__":
    main()
