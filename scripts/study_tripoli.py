"""Study: Tripoli — the widow swap, the betting thresholds, the chips per seat per deal, and
one-parameter best responses to the default heuristic.

    python scripts/study_tripoli.py [--deals 60000] [--bet-deals 16000] [--chip-deals 100000]
                                    [--response-deals 6000] [--seed 2026] [--players 5] [--out results]
                                    [--only widow|betting|chips|response]

Four parts, default (seed) rules, all on duplicate deals (every candidate plays the very same
deals from every seat, seats rotated, so differences are paired):

1. ``tripoli_widow/``: how much is the widow swap worth to the dealer? One candidate
   ``heuristic`` seat whose dealer policy varies (never swap; swap when the hand value is below
   t; swap and sell the old hand; auction the unseen widow first) against a table of default
   heuristics. The candidate never bids itself (``bid_max=0``), so the points differ only in
   what it does as the dealer; the paired difference to "never swap", times n, is the value of
   the policy per deal the candidate deals.
2. ``tripoli_betting/``: which betting thresholds (``bet_at``, ``raise_at``, ``call_at``) win
   chips against the heuristic table; the difference to the default heuristic is paired.
3. ``tripoli_chips/``: expected chips per seat per deal for 2..9 players (all heuristic), by
   seat position relative to the dealer and by ledger (antes, widow, pay cards, poker,
   Michigan, clearing), and what stays on the board.

4. ``tripoli_response/``: one heuristic seat with one parameter moved (thresholds, bluffing, bet
   sizes, pot odds, the hand-size, opponent and position shifts, the widow swap) against default heuristics
   at 3, 5 and 7 players: does any simple change beat the default? (Issue 15: the old defaults
   lost ~12 chips a deal to a tighter seat.)

Each part writes ``summary.parquet``, ``report.md`` and a PNG plot. Needs the ``report`` extra
(matplotlib). Runs in about 10 minutes on 2 cores with the defaults.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.experiment import make_compare, run_experiment  # noqa: E402
from sim.registry import get_game  # noqa: E402
from sim.runner import make_config, play_shard  # noqa: E402
from sim.stats import mean_ci  # noqa: E402

LEDGERS = ("widow", "pay", "poker", "michigan", "clear")
DEF = {p.name: p.default for p in get_game("tripoli").strategies["heuristic"].params}
LOW = {p.name: p.lo for p in get_game("tripoli").strategies["heuristic"].params}
SW = DEF["swap_below"]


def plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as p
    return p


def compare(cands: list[str], args, deals: int) -> pd.DataFrame:
    exp = make_compare("tripoli", cands, players=args.players, field="heuristic", seed=args.seed, deals=deals)
    res = run_experiment(exp, deals)
    return pd.DataFrame(res.summary["points"])


# ---- 1. widow -------------------------------------------------------------------------------
WIDOW_POLICIES = [("never swap", "swap_below=0,sell_old=0")] + [
    (f"swap if value < {t:g}", f"swap_below={t:g},sell_old=0")
    for t in sorted({0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 10, SW})] + [
    (f"swap if value < {SW:g}, sell old hand", f"swap_below={SW:g},sell_old=1"),
    ("swap if value < 5, sell old hand", "swap_below=5,sell_old=1"),
    (f"auction unseen widow first, then swap < {SW:g} and sell", f"auction_widow=1,swap_below={SW:g},sell_old=1")]


def widow_study(args, out: Path) -> str:
    cands = [f"heuristic:{kv},bid_max=0" for _, kv in WIDOW_POLICIES]
    df = compare(cands, args, args.deals)
    n = args.players
    df.insert(0, "policy", [name for name, _ in WIDOW_POLICIES])
    for c in ("diff", "diff_lo", "diff_hi"):
        df[f"per_dealt_{c}"] = df[c] * n
    df.to_parquet(out / "summary.parquet", index=False)
    p = plt()
    fig, ax = p.subplots(figsize=(10, 5.5), dpi=110)
    y = np.arange(len(df))
    ax.barh(y, df["per_dealt_diff"], xerr=[df["per_dealt_diff"] - df["per_dealt_diff_lo"],
                                           df["per_dealt_diff_hi"] - df["per_dealt_diff"]], color="tab:blue")
    ax.set_yticks(y, df["policy"])
    ax.invert_yaxis()
    ax.axvline(0, color="grey", lw=0.8)
    ax.set(xlabel="chips per deal dealt, vs never swapping (paired 95% CI)",
           title=f"Tripoli, {n} players: value of the dealer's widow policy ({args.deals:,} duplicate deals)")
    fig.tight_layout()
    fig.savefig(out / "widow_value.png")
    p.close(fig)
    i = int(df["per_dealt_diff"].idxmax())
    best = df.loc[i]
    sold = df[df["policy"] == f"swap if value < {SW:g}, sell old hand"].iloc[0]
    plain = df[df["policy"] == f"swap if value < {SW:g}"].iloc[0]
    always = df[df["policy"] == "swap if value < 10"].iloc[0]
    answer = (f"With {n} players the best widow policy tried ({best['policy']}) is worth "
              f"{best['per_dealt_diff']:+.2f} chips per deal dealt (95% CI {best['per_dealt_diff_lo']:+.2f} to "
              f"{best['per_dealt_diff_hi']:+.2f}) over never swapping; always swapping is worth "
              f"{always['per_dealt_diff']:+.2f}, and selling the old hand after a swap (default swap_below "
              f"{SW:g}) adds "
              f"{sold['per_dealt_diff'] - plain['per_dealt_diff']:+.2f}.")
    lines = ["# Tripoli: how much is the widow swap worth to the dealer?", "",
             f"`python scripts/study_tripoli.py --deals {args.deals} --seed {args.seed} --players {n}`", "",
             "One `heuristic` candidate seat against a table of default heuristics, default rules, sessions of "
             f"{n} deals with clearing. The candidate never bids in auctions (`bid_max=0`), so the points differ only "
             "in the candidate's decisions as the dealer. Hand value = poker strength 0..9 of the best 5 cards "
             "(1 = a pair, 2 = two pair, ...) + 0.1 per Phase-1 chip the hand would collect. Every policy plays "
             f"the same {args.deals:,} deals from every seat; 'per deal dealt' = paired difference to "
             f"'never swap' x {n} (the candidate deals one deal in {n}; effects on later deals of the session "
             "through the board are included).", "", "## Answer", "", answer, "",
             "![widow value](widow_value.png)", "",
             "| policy | mean payout per deal | 95% CI | vs never swap, per deal dealt | 95% CI |",
             "|---|---:|---|---:|---|"]
    for _, r in df.iterrows():
        lines.append(f"| {r['policy']} | {r['mean_payout']:+.3f} | {r['payout_lo']:+.3f} – {r['payout_hi']:+.3f} | "
                     f"{r['per_dealt_diff']:+.3f} | {r['per_dealt_diff_lo']:+.3f} – {r['per_dealt_diff_hi']:+.3f} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return answer


# ---- 2. betting thresholds ----------------------------------------------------------------
def betting_grid() -> list[tuple[float, float, float]]:
    pts = [(DEF["bet_at"], DEF["raise_at"], DEF["call_at"])]
    for bet in (2, 4, 5, 6, 7):
        for call in (2, 3, 4, 4.5, 5, 6):
            for rse in (5, 6.5, 8):
                if (bet, rse, call) != pts[0]:
                    pts.append((float(bet), float(rse), float(call)))
    return pts


def betting_study(args, out: Path) -> str:
    grid = betting_grid()
    cands = [f"heuristic:bet_at={b:g},raise_at={r:g},call_at={c:g}" for b, r, c in grid]
    df = compare(cands, args, args.bet_deals)
    df.insert(0, "bet_at", [g[0] for g in grid])
    df.insert(1, "raise_at", [g[1] for g in grid])
    df.insert(2, "call_at", [g[2] for g in grid])
    df.to_parquet(out / "summary.parquet", index=False)
    p = plt()
    fig, axes = p.subplots(1, 3, figsize=(15, 4.8), dpi=110, sharey=True)
    for ax, rse in zip(axes, (5, 6.5, 8)):
        g = df[df["raise_at"] == rse]
        for call, h in g.groupby("call_at"):
            ax.errorbar(h["bet_at"], h["diff"], yerr=[h["diff"] - h["diff_lo"], h["diff_hi"] - h["diff"]],
                        marker="o", ms=4, capsize=2, label=f"call_at {call:g}")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set(title=f"raise_at = {rse}", xlabel="bet_at (poker strength: 1 pair, 2 two pair, 3 trips, ...)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("chips per deal vs the default heuristic (paired 95% CI)")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Tripoli, {args.players} players: one seat's betting thresholds against the heuristic table "
                 f"({args.bet_deals:,} duplicate deals)")
    fig.tight_layout()
    fig.savefig(out / "betting_thresholds.png")
    p.close(fig)
    top = df.sort_values("diff", ascending=False).head(5)
    b = top.iloc[0]
    sig = df[df["diff_lo"] > 0]
    answer = (f"Against the heuristic table the best thresholds tried are bet_at={b['bet_at']:g}, "
              f"raise_at={b['raise_at']:g}, call_at={b['call_at']:g}: {b['diff']:+.2f} chips per deal over the "
              f"default (bet_at={DEF['bet_at']:g}, raise_at={DEF['raise_at']:g}, call_at={DEF['call_at']:g}; "
              f"95% CI {b['diff_lo']:+.2f} to {b['diff_hi']:+.2f}); "
              f"{len(sig)} of {len(df) - 1} alternatives beat the default significantly.")
    lines = ["# Tripoli: which betting thresholds win chips against the heuristic table?", "",
             f"`python scripts/study_tripoli.py --bet-deals {args.bet_deals} --seed {args.seed} "
             f"--players {args.players}`", "",
             "One heuristic seat with its own `bet_at` / `raise_at` / `call_at` (poker strength = category "
             "0..8 + place inside the category: 1 = a pair, 2 = two pair, 3 = trips, 4 = straight, ...; bets "
             "and raises are `bet_size` chips; the other parameters, bluffing and pot odds included, at their "
             "defaults) against default heuristics, default rules (limit 10 per action, 3 raises). Payout = all chips of the deal, so a threshold's effect on the Michigan lead "
             "(the poker winner leads) is included. Paired differences to the default heuristic (point 0).", "",
             "## Answer", "", answer, "", "![betting thresholds](betting_thresholds.png)", "",
             "## Top 5", "", "| bet_at | raise_at | call_at | mean payout | vs default | 95% CI |",
             "|---:|---:|---:|---:|---:|---|"]
    for _, r in top.iterrows():
        lines.append(f"| {r['bet_at']:g} | {r['raise_at']:g} | {r['call_at']:g} | {r['mean_payout']:+.3f} | "
                     f"{r['diff']:+.3f} | {r['diff_lo']:+.3f} – {r['diff_hi']:+.3f} |")
    lines += ["", "## All points", "", "| bet_at | raise_at | call_at | mean payout | vs default | 95% CI |",
              "|---:|---:|---:|---:|---:|---|"]
    for _, r in df.iterrows():
        lines.append(f"| {r['bet_at']:g} | {r['raise_at']:g} | {r['call_at']:g} | {r['mean_payout']:+.3f} | "
                     f"{r['diff']:+.3f} | {r['diff_lo']:+.3f} – {r['diff_hi']:+.3f} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return answer


# ---- 4. best response to the default -------------------------------------------------------
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
             ("swap_below -1", {"swap_below": -1}), ("bid_old_max +2", {"bid_old_max": 2}),
             ("old defaults (before issue 15)", "old")]
OLD = "bet_at=2,raise_at=4,call_at=1.5,bluff=0,swap_below=1.5,bid_old_max=3,size_shift=0,odds_weight=0"


def response_study(args, out: Path) -> str:
    rows = []
    for n in (3, 5, 7):
        cands = ["heuristic"]
        for _, delta in RESPONSES:
            if delta == "old":
                cands.append("heuristic:" + OLD)
                continue
            kv = {k: (0.0 if v is None else DEF[k] + v) for k, v in delta.items()}
            cands.append("heuristic:" + ",".join(f"{k}={max(v, LOW[k]):g}" for k, v in kv.items()))
        exp = make_compare("tripoli", cands, players=n, field="heuristic", seed=args.seed, deals=args.response_deals,
                           shard_size=8192)
        pts = run_experiment(exp, args.response_deals).summary["points"]
        for (name, _), p in zip(RESPONSES, pts[1:]):
            rows.append({"players": n, "deviation": name, "diff": p["diff"], "diff_lo": p["diff_lo"],
                         "diff_hi": p["diff_hi"]})
    df = pd.DataFrame(rows)
    df.to_parquet(out / "summary.parquet", index=False)
    best = df[df["deviation"] != RESPONSES[-1][0]].sort_values("diff", ascending=False).iloc[0]
    sig = df[(df["diff_lo"] > 0) & (df["deviation"] != RESPONSES[-1][0])]
    answer = (f"Against a table of default heuristics the best one-parameter deviation tried is "
              f"{best['deviation']} at {int(best['players'])} players: {best['diff']:+.2f} chips per deal "
              f"(95% CI {best['diff_lo']:+.2f} to {best['diff_hi']:+.2f}); {len(sig)} of "
              f"{len(df) - 3} deviations gain significantly.")
    wide = df.pivot(index="deviation", columns="players", values="diff").reindex([r[0] for r in RESPONSES])
    lines = ["# Tripoli: does any one-parameter change beat the default heuristic?", "",
             f"`python scripts/study_tripoli.py --only response --response-deals {args.response_deals} "
             f"--seed {args.seed}`", "",
             "One heuristic seat with one parameter moved (or the pre-issue-15 defaults) against default "
             "heuristics, default rules, every seat on the same duplicate deals; paired difference to the "
             "default seat, chips per deal.", "", "## Answer", "", answer, "",
             "| deviation | " + " | ".join(f"{n} players (95% CI)" for n in (3, 5, 7)) + " |",
             "|---|" + "---:|" * 3]
    for name in wide.index:
        cells = []
        for n in (3, 5, 7):
            r = df[(df["players"] == n) & (df["deviation"] == name)].iloc[0]
            cells.append(f"{r['diff']:+.3f} ({r['diff_lo']:+.3f} – {r['diff_hi']:+.3f})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return answer


# ---- 3. chips per seat per deal -----------------------------------------------------------
def hand_size(n: int, position: int) -> int:
    """Cards dealt to the seat ``position`` seats after the dealer (widow dealt last)."""
    q, r = divmod(52, n + 1)
    order = (position - 1) % n          # 0 = dealer's left ... n-1 = dealer
    return q + (order < r)


def chips_study(args, out: Path) -> str:
    rows = []
    for n in range(2, 10):
        cfg = make_config("tripoli", players=n, deals=args.chip_deals, seed=args.seed, strategies=["heuristic"])
        cols = play_shard(cfg, 0, args.chip_deals)
        dealer = cols["dealer"].astype(np.int64)
        board = sum(cols[c].astype(np.int64) for c in cols if c.startswith("board_"))
        for k in range(n):                         # k = seats after the dealer (0 = dealer)
            seat = (dealer + k) % n
            pick = lambda name: np.choose(seat, [cols[f"{name}_{p}"].astype(np.float64) for p in range(n)])  # noqa
            pay = pick("payout")
            m, lo, hi, _ = mean_ci(float(pay.sum()), float((pay * pay).sum()), pay.size)
            r = {"players": n, "position": k, "mean_payout": m, "payout_lo": lo, "payout_hi": hi,
                 "ante": -9.0}
            for led in LEDGERS:
                r[led] = float(pick(led).mean())
            rows.append(r)
        rows[-n]["board_mean"] = float(board.mean())
    df = pd.DataFrame(rows)
    p = plt()
    fig, axes = p.subplots(1, 2, figsize=(14, 5), dpi=110)
    for n, g in df.groupby("players"):
        axes[0].errorbar(g["position"], g["mean_payout"], yerr=[g["mean_payout"] - g["payout_lo"],
                         g["payout_hi"] - g["mean_payout"]], marker="o", ms=4, capsize=2, label=f"{n} players")
    axes[0].axhline(0, color="grey", lw=0.8)
    axes[0].set(xlabel="seat position (0 = dealer, 1 = dealer's left, ...)", ylabel="chips per deal (95% CI)",
                title="Expected chips per deal by seat position")
    axes[0].legend(fontsize=8)
    avg = df.groupby("players")[["ante", *LEDGERS]].mean()
    bottom_pos = np.zeros(len(avg))
    bottom_neg = np.zeros(len(avg))
    for led in ("ante", *LEDGERS):
        v = avg[led].to_numpy()
        base = np.where(v >= 0, bottom_pos, bottom_neg)
        axes[1].bar(avg.index, v, bottom=base, label=led)
        bottom_pos += np.where(v >= 0, v, 0)
        bottom_neg += np.where(v < 0, v, 0)
    axes[1].axhline(0, color="black", lw=0.8)
    axes[1].set(xlabel="players", ylabel="chips per deal per seat", title="Where the chips come from (seat average)")
    axes[1].legend(fontsize=8)
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.suptitle(f"Tripoli, all heuristic, default rules, {args.chip_deals:,} deals per player count")
    fig.tight_layout()
    fig.savefig(out / "chips_per_seat.png")
    p.close(fig)
    df["cards"] = [hand_size(int(n), int(k)) for n, k in zip(df["players"], df["position"])]
    gaps = {}
    for n, g in df.groupby("players"):
        big, small = g[g["cards"] > g["cards"].min()], g[g["cards"] == g["cards"].min()]
        if len(big):
            gaps[int(n)] = big["mean_payout"].mean() - small["mean_payout"].mean()
    d5 = df[df["players"] == 5]
    answer = (f"Hand size decides the seat: a seat dealt the extra card (the first 52 mod (n+1) seats left of "
              f"the dealer; the dealer never gets one) expects {min(gaps.values()):+.1f} to {max(gaps.values()):+.1f} "
              f"chips per deal more than a seat without it (2..9 players, mostly through the poker pot); with 5 "
              f"players the dealer (8 cards) expects {d5['mean_payout'].iloc[0]:+.2f} chips per deal and the four "
              f"9-card seats {d5['mean_payout'].iloc[1:].min():+.2f} to {d5['mean_payout'].iloc[1:].max():+.2f}.")
    df.to_parquet(out / "summary.parquet", index=False)
    lines = ["# Tripoli: expected chips per seat per deal", "",
             f"`python scripts/study_tripoli.py --chip-deals {args.chip_deals} --seed {args.seed}`", "",
             "All seats `heuristic`, default rules (sessions of n deals, one clearing round), "
             f"{args.chip_deals:,} deals per player count. Payout = change of the seat's chips in the deal; "
             "what the seats lose together stays on the board (it comes back in later deals and the clearing "
             "round, so over a whole session the payouts sum to zero). Positions count seats after the dealer.",
             "", "## Answer", "", answer, "", "![chips per seat](chips_per_seat.png)", "",
             "| players | position | cards | mean payout | 95% CI | ante | widow | pay cards | poker | Michigan | "
             "clearing |", "|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    for _, r in df.iterrows():
        lines.append(f"| {int(r['players'])} | {int(r['position'])} | {int(r['cards'])} | {r['mean_payout']:+.3f} | "
                     f"{r['payout_lo']:+.3f} – "
                     f"{r['payout_hi']:+.3f} | {r['ante']:.0f} | {r['widow']:+.3f} | {r['pay']:+.3f} | "
                     f"{r['poker']:+.3f} | {r['michigan']:+.3f} | {r['clear']:+.3f} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return answer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60_000, help="deals per point of the widow study")
    ap.add_argument("--bet-deals", type=int, default=16_000, help="deals per point of the betting study")
    ap.add_argument("--chip-deals", type=int, default=100_000, help="deals per player count of the chips study")
    ap.add_argument("--response-deals", type=int, default=6_000, help="deals per point of the response study")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=str(ROOT / "results"))
    ap.add_argument("--only", choices=["widow", "betting", "chips", "response"], action="append")
    args = ap.parse_args()
    parts = {"widow": widow_study, "betting": betting_study, "chips": chips_study, "response": response_study}
    for name in args.only or list(parts):
        out = Path(args.out) / f"tripoli_{name}"
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        answer = parts[name](args, out)
        print(f"[{name}] {time.perf_counter() - t0:.0f} s: {answer}", flush=True)


if __name__ == "__main__":
    main()
