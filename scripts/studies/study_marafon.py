"""Study: Marafon's battitore advantage, the value of the marafona, and game length by target.

    python scripts/studies/study_marafon.py [--games 200000] [--seed 2026] [--tables heuristic,strong]
                                    [--out results/marafon]

Each question is answered at two tables (issue 16): four ``heuristic`` players (the club-player
strategy: perfect count for claims) and four ``strong`` players (the heuristic with the
parameters of the self-consistent field of ``cardsim tune --self``, ``results/tune/marafon/``),
with a verdict per question (robust / field-dependent). Default rules (``seed`` preset) for the
first two questions, then the ``seed``, ``target31`` and ``target31_third`` presets for the
third:

1. the battitore's side advantage per hand: points of the side that named trump (and led)
   minus the other side's, in the first hand of a game (the 4D holder names trump) and in
   later hands (the dealer's right), over scored hands (a claim ends a hand unscored);
2. the value of holding the marafona (3-2-A of trumps): how often it is held, over ALL hands
   (a hand a claim ends is dealt and named too: it counts), the holding side's points per
   scored hand, with and without the bonus, by who holds it, and the game win rate of the side
   holding it in the first hand;
3. how many hands a game lasts under each target variant (41, 31, 31 1/3).

Writes ``battitore.parquet``, ``marafona.parquet``, ``targets.parquet``, ``report.md`` and
``marafon.png``. Needs the ``report`` extra (matplotlib).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.kernels import marafon as K  # noqa: E402
from cardsim.sim.runner import make_config, play_shard  # noqa: E402
from cardsim.sim.stats import mean_ci, wilson  # noqa: E402

SHARD = 50_000
VARIANTS = (("41", "seed", ()), ("31", "target31", ()), ("31 1/3", "target31_third", ()),
            ("41, no claims", "seed", ("claims_enabled=false",)))


def play(preset: str, options: tuple, games: int, seed: int, table: str = "heuristic") -> dict[str, np.ndarray]:
    """Record columns of ``games`` matches (one game each) with four ``table`` players."""
    cfg = make_config("marafon", players=4, deals=games, seed=seed, strategies=[table], preset=preset,
                      options=list(options))
    parts = [play_shard(cfg, first, min(SHARD, games - first)) for first in range(0, games, SHARD)]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def hands_long(cols: dict[str, np.ndarray]) -> pd.DataFrame:
    """One row per played hand (within the 16 recorded hands of a game)."""
    rows = []
    n = len(cols["hands"])
    for h in range(1, K.HAND_SLOTS + 1):
        live = cols["hands"] >= h
        if not live.any():
            break
        part = {"game": np.flatnonzero(live), "hand": np.full(int(live.sum()), h)}
        for f in ("battitore", "holder", "end", "extra"):
            part[f] = cols[f"h{h}_{f}"][live]
        for s in range(2):
            for f in ("pts", "thirds", "marafone"):
                part[f"{f}_{s}"] = cols[f"h{h}_{f}_{s}"][live]
        rows.append(pd.DataFrame(part))
    df = pd.concat(rows, ignore_index=True)
    assert df["game"].max() < n
    return df


def ci(x: np.ndarray) -> tuple[float, float, float]:
    x = np.asarray(x, dtype=np.float64)
    m, lo, hi, _ = mean_ci(float(x.sum()), float((x * x).sum()), x.size)
    return m, lo, hi


def rate(k: np.ndarray) -> tuple[float, float, float]:
    return wilson(float(np.sum(k)), float(np.size(k)))


def side_view(df: pd.DataFrame, side: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points incl. bonus, card points, thirds) of ``side`` per row, and the same for the other side."""
    pts = np.where(side == 0, df["pts_0"], df["pts_1"]) - np.where(side == 0, df["pts_1"], df["pts_0"])
    card = (np.where(side == 0, df["thirds_0"], df["thirds_1"]) // 3
            - np.where(side == 0, df["thirds_1"], df["thirds_0"]) // 3)
    own_card = np.where(side == 0, df["thirds_0"], df["thirds_1"]) // 3
    return pts, card, own_card


def battitore_table(df: pd.DataFrame) -> pd.DataFrame:
    scored = df[df["end"] == 0]
    rows = []
    for label, sel in (("first hand (4D holder)", scored["hand"] == 1), ("later hands (dealer's right)",
                                                                         scored["hand"] > 1),
                       ("all hands", np.ones(len(scored), bool))):
        d = scored[sel]
        bs = d["battitore"].to_numpy() % 2
        pts, card, own = side_view(d, bs)
        r = {"hands": label, "n": len(d)}
        r["diff_pts"], r["diff_pts_lo"], r["diff_pts_hi"] = ci(pts)
        r["diff_card"], r["diff_card_lo"], r["diff_card_hi"] = ci(card)
        r["card_pts"], r["card_pts_lo"], r["card_pts_hi"] = ci(own)
        r["majority"], r["majority_lo"], r["majority_hi"] = rate(own >= 6)
        rows.append(r)
    return pd.DataFrame(rows)


def _holders(d: pd.DataFrame) -> list[tuple[str, np.ndarray]]:
    hb = d["holder"].to_numpy()
    bat = d["battitore"].to_numpy()
    return [("battitore holds it", hb == bat), ("battitore's partner", hb == (bat + 2) % 4),
            ("an opponent of the battitore", hb % 2 != bat % 2), ("anyone", np.ones(len(d), bool))]


def marafona_table(df: pd.DataFrame, cols: dict[str, np.ndarray]) -> pd.DataFrame:
    """How often the marafona is held over ALL hands (``share_of_hands``: claim-ended hands
    count, issue 16; ``share_of_scored`` is the old measure over scored hands only), and what
    it is worth per scored hand."""
    scored = df[df["end"] == 0]
    rows = []
    held = scored[scored["holder"] >= 0]
    none = scored[scored["holder"] < 0]
    held_all = df[df["holder"] >= 0]
    shares = {label: sel.sum() / len(df) for label, sel in _holders(held_all)}
    for label, sel in _holders(held):
        d = held[sel]
        side = d["holder"].to_numpy() % 2
        pts, card, own = side_view(d, side)
        r = {"holder": label, "n": len(d), "n_all_hands": int(round(shares[label] * len(df))),
             "share_of_hands": shares[label], "share_of_scored": len(d) / len(scored)}
        r["diff_pts"], r["diff_pts_lo"], r["diff_pts_hi"] = ci(pts)
        r["diff_card"], r["diff_card_lo"], r["diff_card_hi"] = ci(card)
        r["card_pts"], r["card_pts_lo"], r["card_pts_hi"] = ci(own)
        rows.append(r)
    bs = none["battitore"].to_numpy() % 2
    _, _, own = side_view(none, bs)
    r = {"holder": "nobody (battitore's side, for reference)", "n": len(none),
         "share_of_hands": float((df["holder"] < 0).mean()), "share_of_scored": len(none) / len(scored)}
    r["card_pts"], r["card_pts_lo"], r["card_pts_hi"] = ci(own)
    rows.append(r)
    first = df[(df["hand"] == 1) & (df["holder"] >= 0)]
    g = first["game"].to_numpy()
    won = cols["win_side"][g] == first["holder"].to_numpy() % 2
    r = {"holder": "game win rate of the side holding it in hand 1", "n": len(first)}
    r["game_win"], r["game_win_lo"], r["game_win_hi"] = rate(won)
    rows.append(r)
    return pd.DataFrame(rows)


def targets_table(runs: dict[str, dict[str, np.ndarray]]) -> pd.DataFrame:
    rows = []
    for label, cols in runs.items():
        hands = cols["hands"].astype(np.int64)
        counts = np.bincount(hands, minlength=21)
        reasons = np.bincount(cols["end_reason"].astype(np.int64), minlength=len(K.REASON_NAMES))
        r = {"target": label, "games": len(hands)}
        r["mean_hands"], r["mean_hands_lo"], r["mean_hands_hi"] = ci(hands)
        r["median_hands"] = float(np.median(hands))
        r["mode_hands"] = int(np.argmax(counts))
        for k in range(1, 21):
            r[f"share_{k}"] = counts[k] / len(hands) if k < len(counts) else 0.0
        r["share_over_20"] = counts[21:].sum() / len(hands)
        for i, name in enumerate(K.REASON_NAMES):
            r[f"reason_{name}"] = reasons[i] / len(hands)
        r["extra_hands_games"] = float(np.mean(cols["extra_hands"] > 0))
        rows.append(r)
    return pd.DataFrame(rows)


def plot(df: pd.DataFrame, bt: pd.DataFrame, mt: pd.DataFrame, tt: pd.DataFrame, path: Path,
         table: str = "heuristic") -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8), dpi=100)
    scored = df[df["end"] == 0]
    ax = axes[0]
    for label, sel, color in (("first hand", scored["hand"] == 1, "C0"), ("later hands", scored["hand"] > 1, "C1")):
        d = scored[sel]
        own = np.where(d["battitore"] % 2 == 0, d["thirds_0"], d["thirds_1"]) // 3
        share = np.bincount(own, minlength=12) / len(own)
        ax.bar(np.arange(12) + (-0.2 if color == "C0" else 0.2), 100 * share, width=0.4, color=color, label=label)
    ax.axvline(5.5, color="grey", lw=0.8, ls="--")
    ax.set(title="card points of the battitore's side (of 11)", xlabel="points", ylabel="% of scored hands",
           xticks=range(12))
    ax.legend()
    ax = axes[1]
    m = mt[mt["diff_pts"].notna()]
    y = np.arange(len(m))
    ax.barh(y + 0.2, m["diff_pts"], height=0.4, color="C2", label="points incl. the bonus")
    ax.barh(y - 0.2, m["diff_card"], height=0.4, color="C0", label="card points only")
    for col, off in (("diff_pts", 0.2), ("diff_card", -0.2)):
        ax.errorbar(m[col], y + off, xerr=[m[col] - m[f"{col}_lo"], m[f"{col}_hi"] - m[col]], fmt="none",
                    ecolor="black", lw=0.8)
    ax.set_yticks(y, m["holder"])
    ax.set(title="marafona: holding side's lead per hand", xlabel="points (holding side - other side)",
           ylabel="who holds the marafona")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)
    ax = axes[2]
    ks = np.arange(1, 21)
    w = 0.8 / max(len(tt), 1)                     # each hand count's group of bars centred on its tick
    for i, (_, r) in enumerate(tt.iterrows()):
        ax.bar(ks - 0.4 + w * (i + 0.5), [100 * r[f"share_{k}"] for k in ks], width=w, label=f"target {r['target']}")
    ax.set(title="hands per game by target", xlabel="hands in the game", ylabel="% of games", xticks=ks[:14],
           xlim=(0.5, 14.5))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)   # below: the bars fill the top
    fig.suptitle(f"Marafon, four {table} players (95% CI bars)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def answers(bt: pd.DataFrame, mt: pd.DataFrame, tt: pd.DataFrame) -> list[str]:
    a, f, later = bt.iloc[2], bt.iloc[0], bt.iloc[1]
    any_ = mt[mt["holder"] == "anyone"].iloc[0]
    win = mt[mt["game_win"].notna()].iloc[0]
    bat = mt.iloc[0]
    t41, t31, t31b, free = (tt.iloc[i] for i in range(4))
    return [
        f"**Battitore.** The side that names trump and leads scores on average {a['diff_pts']:+.2f} points per hand "
        f"more than the other side (95% CI {a['diff_pts_lo']:+.2f} to {a['diff_pts_hi']:+.2f}; {a['diff_card']:+.2f} in "
        f"card points alone) and takes the majority of the 11 card points in {100 * a['majority']:.1f}% of hands; "
        f"{f['diff_pts']:+.2f} in the first hand (the 4D holder) and {later['diff_pts']:+.2f} in later hands.",
        f"**Marafona.** It is held (3-2-A of trumps) in {100 * any_['share_of_hands']:.2f}% of all hands "
        f"({100 * any_['share_of_scored']:.2f}% of the scored ones), "
        f"{100 * bat['n_all_hands'] / max(any_['n_all_hands'], 1):.0f}% of them by the battitore; its side leads a "
        f"scored hand by "
        f"{any_['diff_pts']:+.2f} points (CI {any_['diff_pts_lo']:+.2f} to {any_['diff_pts_hi']:+.2f}), of which "
        f"{any_['diff_card']:+.2f} come from the cards and the rest from the 3-point bonus, and a side that holds it in "
        f"the first hand wins {100 * win['game_win']:.1f}% of games (CI {100 * win['game_win_lo']:.1f}–"
        f"{100 * win['game_win_hi']:.1f}%).",
        f"**Game length.** To 41 a game lasts {t41['mean_hands']:.2f} hands on average (median {t41['median_hands']:.0f}, "
        f"most often {t41['mode_hands']}); to 31, {t31['mean_hands']:.2f} (most often {t31['mode_hands']}); to 31 1/3, "
        f"{t31b['mean_hands']:.2f} (most often {t31b['mode_hands']}). Counting players end "
        f"{100 * t41['reason_claim_correct']:.0f}% of games to 41 by a correct claim in the middle of a hand; without "
        f"claims a game to 41 lasts {free['mean_hands']:.2f} hands and {100 * free['extra_hands_games']:.1f}% of games "
        f"need an extra hand because both sides pass 41 together.",
    ]


def md_table(df: pd.DataFrame, cols: list[tuple[str, str, str]]) -> list[str]:
    out = ["| " + " | ".join(h for h, _, _ in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for _, r in df.iterrows():
        cells = []
        for _, c, f in cols:
            v = r.get(c, np.nan)
            cells.append("" if (isinstance(v, float) and np.isnan(v)) else format(v, f))
        out.append("| " + " | ".join(cells) + " |")
    return out


VERDICT_TOL = 0.10      # answers within 10 % of each other (same sign) are called robust


def compare_line(name: str, unit: str, values: dict[str, tuple[float, float, float]]) -> str:
    """A verdict: robust when every table's estimate has the same sign and lies within 10 % of
    the first table's, or inside its 95 % interval; else field-dependent."""
    tables = list(values)
    m0, lo0, hi0 = values[tables[0]]
    robust = all((np.sign(m) == np.sign(m0) and abs(m - m0) <= VERDICT_TOL * abs(m0)) or lo0 <= m <= hi0
                 for m, _, _ in values.values())
    sign = "+" if "points" in unit else ""
    text = "; ".join(f"{t}: {m:{sign}.3f}{unit} ({lo:{sign}.3f} to {hi:{sign}.3f})" if math.isfinite(lo)
                     else f"{t}: {m:.3f}{unit}" for t, (m, lo, hi) in values.items())
    return f"- **{name}: {'robust' if robust else 'field-dependent'}** — {text}"


def verdicts(res: dict) -> list[str]:
    nan = float("nan")
    bat = {t: (r["bt"].iloc[2]["diff_pts"], r["bt"].iloc[2]["diff_pts_lo"], r["bt"].iloc[2]["diff_pts_hi"])
           for t, r in res.items()}
    any_ = {t: r["mt"][r["mt"]["holder"] == "anyone"].iloc[0] for t, r in res.items()}
    held = {t: (100 * a["share_of_hands"], nan, nan) for t, a in any_.items()}
    lead = {t: (a["diff_pts"], a["diff_pts_lo"], a["diff_pts_hi"]) for t, a in any_.items()}
    win = {t: r["mt"][r["mt"]["game_win"].notna()].iloc[0] for t, r in res.items()}
    won = {t: (100 * w["game_win"], 100 * w["game_win_lo"], 100 * w["game_win_hi"]) for t, w in win.items()}
    hands = {t: (r["tt"].iloc[0]["mean_hands"], r["tt"].iloc[0]["mean_hands_lo"], r["tt"].iloc[0]["mean_hands_hi"])
             for t, r in res.items()}
    return [compare_line("Battitore's side lead per scored hand", " points", bat),
            compare_line("Marafona held", "% of all hands", held),
            compare_line("Marafona: holding side's lead per scored hand", " points", lead),
            compare_line("Game win rate of the side holding it in hand 1", "%", won),
            compare_line("Hands per game to 41", " hands", hands)]


def write_markdown(path: Path, res: dict, args, wall: float) -> None:
    pct = [(f"{k} hands", f"share_{k}", ".1%") for k in range(3, 12)]
    tables = list(res)
    lines = ["# Marafon: battitore, marafona and game length, at two tables", "",
             f"`python scripts/studies/study_marafon.py --games {args.games} --seed {args.seed} --tables {args.tables}` "
             f"(wall time {wall / 60:.1f} min on 2 cores).", "",
             "Four players of one strategy per table: " + ", ".join(f"`{t}`" for t in tables) + " (`heuristic`: "
             "club-player card play, claims on an exact count; `strong`: the expert of issue 41 (heuristic card play that draws trumps (the lowest one without the master trump), trusts a master by the odds of a ruff, banks sure tricks, cashes plain masters after its trump draws, counts what it would throw instead of the trump 3 or 2, plays second hand low on a scartino led, leads the highest of equal plain masters and takes a sure trick at game point) with the parameters of the "
             "self-consistent field of `cardsim tune --self`, `results/tune/marafon/`), "
             f"{args.games:,} games per rule set, one record per game. Hands are those recorded per game (the "
             "first 16; no game here lasts longer). Intervals are 95% and treat hands as independent. The "
             "marafona's share counts every hand dealt (a hand a claim ends included); its value is measured on "
             "scored hands.", "",
             "## Verdicts (robust: the same sign and within 10% of the first table, or inside its interval)", "",
             *verdicts(res), ""]
    for t, r in res.items():
        bt, mt, tt = r["bt"], r["mt"], r["tt"]
        lines += [f"## Table: four `{t}` players", "", "### Answers", ""] + [f"- {x}" for x in answers(bt, mt, tt)] + [
             "", f"![marafon]({r['png']})", "",
             "### 1. The battitore's side, per scored hand", "",
             *md_table(bt, [("hands", "hands", "s"), ("n", "n", ",d"), ("points lead", "diff_pts", "+.3f"),
                            ("lo", "diff_pts_lo", "+.3f"), ("hi", "diff_pts_hi", "+.3f"),
                            ("card-point lead", "diff_card", "+.3f"), ("card points", "card_pts", ".3f"),
                            ("majority (>= 6)", "majority", ".1%")]),
             "", "### 2. Holding the marafona (3-2-A of trumps)", "",
             *md_table(mt, [("holder", "holder", "s"), ("scored hands", "n", ",d"),
                            ("share of all hands", "share_of_hands", ".2%"),
                            ("share of scored hands", "share_of_scored", ".2%"),
                            ("points lead", "diff_pts", "+.3f"), ("lo", "diff_pts_lo", "+.3f"),
                            ("hi", "diff_pts_hi", "+.3f"), ("card-point lead", "diff_card", "+.3f"),
                            ("card points", "card_pts", ".3f"), ("game win", "game_win", ".1%"),
                            ("lo", "game_win_lo", ".1%"), ("hi", "game_win_hi", ".1%")]),
             "", "### 3. Hands per game by target", "",
             *md_table(tt, [("target", "target", "s"), ("games", "games", ",d"), ("mean", "mean_hands", ".3f"),
                            ("median", "median_hands", ".0f"), ("mode", "mode_hands", "d"), *pct,
                            ("claim", "reason_claim_correct", ".1%"), ("target reached", "reason_target", ".1%"),
                            ("decided by an extra hand", "reason_extra_hand", ".1%")]), ""]
    lines += ["Data: `battitore.parquet`, `marafona.parquet`, `targets.parquet`, one block of rows per `table` "
              "(`share_k` = share of games lasting k hands; `reason_*` = share of games by end reason).", ""]
    path.write_text("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--tables", default="heuristic,strong", help="comma-separated strategies, one table each")
    ap.add_argument("--out", default=str(ROOT / "results" / "marafon"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    res = {}
    for i, table in enumerate(t.strip() for t in args.tables.split(",") if t.strip()):
        runs = {label: play(preset, options, args.games, args.seed, table) for label, preset, options in VARIANTS}
        df = hands_long(runs["41"])
        bt, mt, tt = battitore_table(df), marafona_table(df, runs["41"]), targets_table(runs)
        png = "marafon.png" if i == 0 else f"marafon_{table.split(':')[0]}.png"
        plot(df, bt, mt, tt, out / png, table)
        res[table] = {"bt": bt, "mt": mt, "tt": tt, "png": png}
        print(f"{table}:\n" + "\n".join(answers(bt, mt, tt)), flush=True)
    for name, key in (("battitore", "bt"), ("marafona", "mt"), ("targets", "tt")):
        pd.concat([r[key].assign(table=t) for t, r in res.items()], ignore_index=True).to_parquet(
            out / f"{name}.parquet", index=False)
    write_markdown(out / "report.md", res, args, time.perf_counter() - t0)
    print("\n".join(verdicts(res)))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
