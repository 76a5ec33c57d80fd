"""How well do the critique's worlds guess a Tonk rival's hand? (issue 41, ``cardsim critique --infer``)

    python scripts/studies/tonk_infer_calibration.py [--deals 400] [--cands 1 8 32 128]

Along ``strong``'s 2-player deals (field strong), at every third decision after the sixth action,
the rival's point count in four worlds of the evaluation is compared with its real count: uniform
worlds (``search.determinize``, what the critique uses by default) and inference worlds
(``infer.infer_world``, each kept of CANDS deals by how well strong explains the rival's play).
Prints the mean absolute error of each (the lower, the better the worlds know the rival's hand).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cardsim.kernels import tonk as K  # noqa: E402
from cardsim.kernels.rng import seed_stream  # noqa: E402
from cardsim.kernels.tonk import infer as I  # noqa: E402
from cardsim.kernels.tonk.search import determinize  # noqa: E402
from cardsim.sim.critique import evaluator  # noqa: E402
from cardsim.sim.games.tonk import GAME, TonkOptions  # noqa: E402
from cardsim.sim.registry import seat_arrays, seat_table  # noqa: E402


def decisions(deals: int, seed: int):
    """(options, state, the hand's first state, its actions so far) at strong's decisions."""
    opts = TonkOptions().to_array(2)
    sids, params = seat_arrays(GAME, seat_table(GAME, ["strong"], 2))
    acts = np.zeros(K.MAX_ACTS, np.int64)
    trace = np.zeros((0, 4), np.int64)
    for d in range(deals):
        st = K.new_state(opts)
        g = np.zeros(2, np.uint64)
        seed_stream(g, seed, d, 1)
        K.start_deal(st, opts, g, np.int64(d % 2), trace)
        st0, hist = st.copy(), []
        while st[K.PHASE] != K.P_OVER:
            m = K.legal_actions(st, opts, acts)
            yield opts, st, st0, np.array(hist, np.int64)
            i = K.choose(st, opts, acts, m, int(sids[0]), params[0], g)
            hist.append(int(acts[i]))
            K.apply_action(st, opts, acts[i], trace)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--cands", type=int, nargs="+", default=[1, 8, 32, 128])
    ap.add_argument("--seed", type=int, default=3)
    a = ap.parse_args()
    prm = evaluator(GAME, 2, 8, "strong")
    cards = np.empty(52, np.int64)
    print("| candidates per world | decisions x worlds | inference worlds: error | uniform worlds: error |")
    print("|---:|---:|---:|---:|")
    for cands in a.cands:
        err_i = err_u = 0.0
        m = 0
        for i, (opts, st, st0, hist) in enumerate(decisions(a.deals, a.seed)):
            if i % 3 or len(hist) < 6:
                continue
            p = int(st[K.CUR])
            q = 1 - p
            real = K.hand_count(st[K.HAND + q])
            slots = [np.empty(52, np.int64), np.empty(52, np.int64), np.empty(52, np.int64),
                     np.empty((52, 2), np.int64)]
            k = I.history_slots(st0, opts, hist, len(hist), p, *slots)
            g = np.zeros(2, np.uint64)
            for w in range(4):
                base = np.empty(K.ST_SIZE, np.int64)
                I.infer_world(st, p, opts, st0, hist, len(hist), (*slots, k), cands, prm, np.uint64(i), w, base,
                              cards, g)
                uni = st.copy()
                seed_stream(g, 77, i * 10 + w, 3)
                determinize(uni, p, g, cards)
                err_i += abs(K.hand_count(base[K.HAND + q]) - real)
                err_u += abs(K.hand_count(uni[K.HAND + q]) - real)
                m += 1
        print(f"| {cands} | {m:,} | {err_i / m:.2f} points | {err_u / m:.2f} points |")


if __name__ == "__main__":
    main()
