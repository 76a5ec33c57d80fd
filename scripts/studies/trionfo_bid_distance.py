"""How far Trionfo's bids are from a search's (issue 19's key decision "Trionfo bid").

    python scripts/studies/trionfo_bid_distance.py [--hands 2000] [--seed 1] [--worlds 64]
                                           [--strategy strong] [--out results/search/trionfo_bids.md]

Deals ``--hands`` hands (hand h of session h // hands_per_session, as the batch deals them, the
dealer rotating) and runs each auction with ``--strategy`` at every seat. At every speech it
asks a flat search for the bid: each legal call (pass, or a level above the high bid) is played
in ``W`` determinizations of the other hands (``kernels.trionfo.determinize``); the auction goes
on with the strategy's bids at every seat, the declarer names trump and calls or names the
partner as the strategy does (``contract_as``), and the hand is played out by the strategy
(``roll_hand``). The value is the seat's money in the hand (an all-pass auction: 0, a redeal).
The search's call is the best mean; both calls are then measured again on ``W`` other
determinizations, so the cost (search's mean minus the strategy's, money per decision, 95 %
interval) is not the selection's own noise. The strategy's call is the one played.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.kernels import trionfo as K  # noqa: E402
from cardsim.kernels.rng import seed_stream  # noqa: E402
from cardsim.sim.games.trionfo import GAME, TrionfoOptions  # noqa: E402
from cardsim.sim.registry import seat_arrays, seat_table  # noqa: E402

BID_NAMES = ("pass", "1 (chiamo)", "2", "3", "4 (maso dei masi)")


def auction_on(sim, opts, p, spoken, sids, params, g, trace) -> None:
    """The auction in ``sim`` after seat ``p`` spoke (``spoken`` speeches so far), each seat
    bidding as its strategy (the batch kernel's ``auction`` loop)."""
    q = K.nxt(np.int64(p))
    while not K.auction_over(sim, opts, np.int64(spoken)):
        if not (int(sim[K.PASSED]) >> q) & 1:
            level = K.choose_bid(sim, q, sim[K.HIGH_LEVEL], sids[q], params[q], g)
            K.speak(sim, q, level, trace)
            spoken += 1
        q = K.nxt(np.int64(q))


def value(st, opts, p, level, spoken, sids, params, key, w, trace, work) -> float:
    """Seat ``p``'s money in the hand after calling ``level`` (world ``w`` of ``key``)."""
    sim = st.copy()
    g = np.array([key, 2 * w + 1], np.uint64)
    K.determinize(sim, opts, p, g, work)
    K.speak(sim, p, level, trace)
    auction_on(sim, opts, p, spoken + 1, sids, params, g, trace)
    d = int(sim[K.HIGH_BIDDER])
    if d < 0:
        return 0.0
    sim[K.DECLARER] = d
    sim[K.STRENGTH] = K.hand_strength(sim[K.HAND + d])
    K.contract_as(sim, opts, d, K.best_trump(sim[K.HAND + d]), sids[d], params[d], g)
    K.roll_hand(sim, opts, sids, params[0], g, trace)   # every seat plays --strategy: one row
    return float(sim[K.HMONEY + p])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--strategy", default="strong")
    ap.add_argument("--out", default=str(ROOT / "results" / "search" / "trionfo_bids.md"))
    args = ap.parse_args()
    opts = TrionfoOptions().to_array(K.N_PLAYERS)
    sids, params = seat_arrays(GAME, seat_table(GAME, [args.strategy], K.N_PLAYERS))
    per = int(opts[K.O_HANDS])
    trace = np.zeros((0, K.TRACE_W), np.int64)
    work = np.empty(64, np.int64)
    gdeck, gplay = np.zeros(2, np.uint64), np.zeros(2, np.uint64)
    rows = []                      # (strength band, the strategy's call, the search's, cost)
    for h in range(args.hands):
        session, idx = divmod(h, per)
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = K.N_PLAYERS
        st[K.HAND_IDX] = idx
        st[K.DEALER] = idx % K.N_PLAYERS
        seed_stream(gdeck, args.seed, session, np.int64(K.STREAM_HAND) + idx)
        seed_stream(gplay, args.seed, session, np.int64(K.STREAM_PLAY))
        K.deal(st, gdeck, trace)
        p, spoken = int(st[K.FIRST_SPEAKER]), 0
        while not K.auction_over(st, opts, np.int64(spoken)):
            if not (int(st[K.PASSED]) >> p) & 1:
                level = int(K.choose_bid(st, p, st[K.HIGH_LEVEL], sids[p], params[p], gplay))
                calls = [0] + list(range(int(st[K.HIGH_LEVEL]) + 1, K.LEVELS + 1))
                key = (args.seed * 1_000_003 + h) * 64 + spoken
                pick = [np.mean([value(st, opts, p, c, spoken, sids, params, key, w, trace, work)
                                 for w in range(args.worlds)]) for c in calls]
                best = calls[int(np.argmax(pick))]
                check = [np.array([value(st, opts, p, c, spoken, sids, params, key + 1_000_000_007, w, trace, work)
                                   for w in range(args.worlds)]) for c in (best, level)]
                rows.append((float(K.hand_strength(st[K.HAND + p])), int(st[K.HIGH_LEVEL]), level, best,
                             check[0] - check[1]))
                K.speak(st, p, level, trace)
                spoken += 1
            p = int(K.nxt(np.int64(p)))
        if (h + 1) % 200 == 0:
            print(f"{h + 1} hands, {len(rows)} decisions", file=sys.stderr)
    write(args, rows)


def write(args, rows) -> None:
    def line(label, sel):
        if not sel:
            return None
        diffs = np.concatenate([r[4] for r in sel])
        per_dec = np.array([r[4].mean() for r in sel])
        half = 1.96 * per_dec.std(ddof=1) / np.sqrt(len(per_dec)) if len(per_dec) > 1 else float("nan")
        return (f"| {label} | {len(sel):,} | {np.mean([r[2] > 0 for r in sel]):.1%} | {np.mean([r[3] > 0 for r in sel]):.1%} "
                f"| {np.mean([r[2] != r[3] for r in sel]):.1%} | {diffs.mean():+.3f} ± {half:.3f} |")
    bands = [(-1e9, 10), (10, 15), (15, 20), (20, 25), (25, 30), (30, 1e9)]
    out = [f"# Trionfo: `{args.strategy}`'s bids against a search's", "",
           f"`python scripts/studies/trionfo_bid_distance.py --hands {args.hands} --seed {args.seed} --worlds {args.worlds} "
           f"--strategy {args.strategy}`", "",
           f"{args.hands:,} hands with `{args.strategy}` at every seat, default rules. At every speech of the auction "
           f"a flat search ({args.worlds} determinizations; the auction, the contract and the card play rolled out by "
           f"`{args.strategy}`) picks the call with the best mean money of the hand; both calls are measured again "
           f"on {args.worlds} other determinizations. Cost: the search's measured mean money of its own call minus "
           "that of the strategy's, per decision (95 % interval over decisions). Bid: any call but a pass.", "",
           "| hand strength | decisions | strategy bids | search bids | calls differ | cost per decision |",
           "|---|---:|---:|---:|---:|---:|"]
    for lo, hi in bands:
        label = f"below {hi:g}" if lo < -1e8 else (f"{lo:g} and up" if hi > 1e8 else f"{lo:g}–{hi:g}")
        x = line(label, [r for r in rows if lo <= r[0] < hi])
        if x:
            out.append(x)
    out.append(line("all", rows))
    out += ["", "By the high bid when the seat speaks (0: nobody has bid yet):", "",
            "| high bid | decisions | strategy bids | search bids | calls differ | cost per decision |",
            "|---|---:|---:|---:|---:|---:|"]
    for hb in range(K.LEVELS + 1):
        x = line(str(hb), [r for r in rows if r[1] == hb])
        if x:
            out.append(x)
    Path(args.out).write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
