"""How often Telefunken's search decides otherwise than strong, by hand and decision kind
(results/search/telefunken.md): four strong seats play; at every decision of seat 0 that the
search could take, K.search_decision is asked too (its choice is not played).

    python scripts/studies/telefunken_search_decisions.py "search:kinds=1,hands=127,worlds=16" 30

Buy offers are also counted by hand and the chips seat 0 holds (the last table printed).
"""
import sys
import time

import numpy as np

from cardsim.kernels import telefunken as K
from cardsim.kernels.rng import seed_stream
from cardsim.sim.games.telefunken import GAME, TelefunkenOptions
from cardsim.sim.registry import seat_arrays, seat_table

CHIPS = {}   # (hand, chips held) -> [buy offers, strong buys, search buys]


def play(game, search_label, seed=3):
    """Counts per (hand, kind): decisions, search differs from strong, seconds searching, strong
    buys, search buys (and, in CHIPS, buy offers by hand and chips held)."""
    opts = TelefunkenOptions().to_array(4)
    sids, params = seat_arrays(GAME, seat_table(GAME, [search_label, "strong", "strong", "strong"], 4))
    st, tab, acts, sc, mo, gdeck, gplay = K.buffers()
    trace = np.zeros((0, K.TRACE_WIDTH), np.int64)
    n = 4; st[:] = 0; st[K.N] = n; st[K.WILD2] = opts[K.O_WILD_TWOS]
    for p in range(n): st[K.CHIPS + p] = opts[K.O_CHIPS]
    seed_stream(gplay, seed, game, K.STREAM_PLAY)
    dealer = K.first_dealer(opts, seed, game, gdeck)
    counts = {}
    for h in range(1, 8):
        seed_stream(gdeck, seed, game, K.STREAM_HAND + h)
        K.start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
        while st[K.PHASE] != K.P_OVER:
            k = K.legal_actions(st, opts, tab, sc, mo, acts)
            p = st[K.ASK] if st[K.PHASE] == K.P_BUY else st[K.CUR]
            if p == 0 and k > 1:
                kind = K.search_kind(st, opts, acts, k, p)
                if kind >= 0:
                    a2 = acts.copy()
                    i0 = K.choose(st, opts, tab, sc, mo, a2, k, sids[1], params[1], gplay.copy())
                    polx = a2[i0]
                    t0 = time.perf_counter()
                    sx = K.search_decision(st, opts, tab, params[0], 1000 * game + int(st[K.TURN]))
                    dt = time.perf_counter() - t0
                    c = counts.setdefault((h, kind), [0, 0, 0.0, 0, 0])
                    c[0] += 1; c[1] += int(sx != polx); c[2] += dt
                    if kind == 0:
                        c[3] += int((polx & 15) == K.A_BUY); c[4] += int((sx & 15) == K.A_BUY)
                        b = CHIPS.setdefault((h, int(st[K.CHIPS])), [0, 0, 0])
                        b[0] += 1; b[1] += int((polx & 15) == K.A_BUY); b[2] += int((sx & 15) == K.A_BUY)
            i = K.choose(st, opts, tab, sc, mo, acts, k, sids[1], params[1], gplay)
            K.apply_action(st, opts, tab, mo, acts[i], gplay, trace)
        K.score_hand(st, opts, trace)
        dealer = (dealer + 1) % n
    return counts

if __name__ == "__main__":
    label = sys.argv[1]; games = int(sys.argv[2])
    tot = {}
    for g in range(games):
        for key, v in play(g, label).items():
            t = tot.setdefault(key, [0, 0, 0.0, 0, 0])
            for j in range(len(v)): t[j] += v[j]
    names = {0: "buy", 1: "upcard", 2: "go_down", 3: "go_out", 4: "lay", 5: "discard"}
    bykind = {}
    for (h, kind), v in sorted(tot.items()):
        print(f"hand {h} {names[kind]:8s} decisions/game {v[0]/games:6.2f} deviate {v[1]/max(1,v[0]):.1%} ms/decision {1000*v[2]/max(1,v[0]):.2f}" + (f" strong buys {v[3]/max(1,v[0]):.1%} search buys {v[4]/max(1,v[0]):.1%}" if kind == 0 else ""))
        b = bykind.setdefault(kind, [0, 0, 0.0])
        for j in range(3): b[j] += v[j]
    for kind, v in bykind.items():
        print(f"{names[kind]:8s} decisions/game {v[0]/games:6.2f} deviate {v[1]/max(1,v[0]):.1%} ms/game {1000*v[2]/games:.1f}")
    print("\nbuy offers by hand and chips held: offers/game, strong buys, search buys")
    for (h, ch), v in sorted(CHIPS.items()):
        print(f"hand {h} chips {ch} offers/game {v[0]/games:5.2f} strong buys {v[1]/v[0]:6.1%} search buys {v[2]/v[0]:6.1%}")
