"""Telefunken's search strategy (issue 19): its public bookkeeping (KN: the cards every seat
knows a holding has), no peeking, determinism across workers, its parameters and kernel row."""
import numpy as np
from test_telefunken_strategies import holding_cards

import cardsim
from cardsim.kernels import telefunken as K
from cardsim.kernels.search import SP_EXTRA, SP_POLICY, SP_PRM
from cardsim.sim.games.telefunken import GAME
from cardsim.sim.registry import seat_arrays, seat_table, short_label

# every kind in every hand, any gain taken: the decisions differ from the policy's often
SEARCH = "search:worlds=2,kinds=63,hands=127,margin=0"


def counts(cards):
    c = np.zeros(K.KN_STRIDE, np.int64)
    for x in cards:
        c[x] += 1
    return c


def redeal_keeping_known(st, seat, known, rng):
    """Deal the other holdings (less the copies ``known`` says they hold) and the stock again at
    random in the same sizes; the known copies stay where they are."""
    n = int(st[K.N])
    others = [q for q in range(n) if q != seat]
    lo, hi = int(st[K.STOCK_LO]), int(st[K.STOCK_HI])
    pool, sizes = [int(x) for x in st[K.STOCK + lo:K.STOCK + hi]], []
    for q in others:
        hidden = counts(holding_cards(st, q)) - known[q]
        assert (hidden >= 0).all()
        pool += [c for c in range(K.KN_STRIDE) for _ in range(hidden[c])]
        sizes.append(int(hidden.sum()))
    rng.shuffle(pool)
    for q, k in zip(others, sizes):
        st[K.H1 + q] = st[K.H2 + q] = st[K.HJ + q] = st[K.HT + q] = 0
        for c in [c for c in range(K.KN_STRIDE) for _ in range(known[q][c])] + pool[:k]:
            K.give(st, q, c)
        pool = pool[k:]
    st[K.STOCK + lo:K.STOCK + hi] = pool


def test_search_does_not_peek():
    """Along a game of fuzzed play (default rules, four seats, every hand), the state's public
    bookkeeping (KN) equals this test's own tracking of what each seat was seen to take (bought
    or free upcards, jokers kept at the cut or taken back from a group) less what it laid,
    discarded or passed; and at every 9th decision the search decides the same when the cards
    hidden from the deciding seat are dealt otherwise (known copies kept)."""
    n = 4
    opts = GAME.options_cls().to_array(n)
    sids, params = seat_arrays(GAME, seat_table(GAME, ["fuzz:buy=30"], n))
    _, prm = seat_arrays(GAME, seat_table(GAME, [SEARCH], n))
    st, tab, acts, sc, mo, gdeck, gplay = K.buffers()
    trace = np.zeros((0, K.TRACE_WIDTH), np.int64)
    st[K.N] = n
    for p in range(n):
        st[K.CHIPS + p] = opts[K.O_CHIPS]
    K.seed_stream(gplay, 4, 0, np.int64(K.STREAM_PLAY))
    rng = np.random.default_rng(2)
    checked = moved = 0
    kinds = set()
    step = 0
    for h in range(1, 8):
        K.seed_stream(gdeck, 4, 0, np.int64(K.STREAM_HAND + h))
        dealer = (h - 1) % n
        K.start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
        known = np.zeros((n, K.KN_STRIDE), np.int64)
        known[(dealer + n - 1) % n][K.JK] = st[K.CUT_KEPT]
        k = 0
        while st[K.PHASE] != K.P_OVER and k < 600:
            for q in range(n):
                assert (st[K.KN + K.KN_STRIDE * q:K.KN + K.KN_STRIDE * (q + 1)] == known[q]).all(), (h, k, q)
            m = K.legal_actions(st, opts, tab, sc, mo, acts)
            p = int(st[K.ASK] if st[K.PHASE] == K.P_BUY else st[K.CUR])
            if step % 9 == 0 and m > 1 and st[K.PHASE] != K.P_EXCHANGE:
                other = st.copy()
                redeal_keeping_known(other, p, known, rng)
                moved += bool((other[K.H1:K.H1 + n] != st[K.H1:K.H1 + n]).any())
                key = 1000 * h + k
                a = K.search_decision(st, opts, tab.copy(), prm[0], key)
                b = K.search_decision(other, opts, tab.copy(), prm[0], key)
                assert a == b, (h, k, int(st[K.PHASE]))
                kinds.add(int(K.search_kind(st, opts, acts, m, p)))
                checked += 1
            step += 1
            x = int(acts[K.choose(st, opts, tab, sc, mo, acts, m, sids[p], params[p], gplay)])
            before = counts(holding_cards(st, p))
            kind = x & 15
            if kind == K.A_BUY:
                known[p][int(st[K.DISCARD])] += 1
            elif kind == K.A_TAKE_UPCARD:
                known[p][int(st[K.PILE + st[K.PILE_LEN] - 1])] += 1
            was_exchange = st[K.PHASE] == K.P_EXCHANGE
            K.apply_action(st, opts, tab, mo, x, gplay, trace)
            if kind == K.A_RETRIEVE:
                known[p][K.JK] += 1
            if not was_exchange:
                gone = np.maximum(before - counts(holding_cards(st, p)), 0)
                if kind == K.A_RETRIEVE:
                    gone[K.JK] = 0
                known[p] = np.maximum(known[p] - gone, 0)
            elif kind == K.A_EX_CARD:
                known[p] = np.maximum(known[p] - np.maximum(before - counts(holding_cards(st, p)), 0), 0)
            if was_exchange and st[K.PHASE] != K.P_EXCHANGE:
                for q in range(n):
                    if st[K.EXK + q] > 0:
                        known[q] = 0
            k += 1
        K.score_hand(st, opts, trace)
    assert checked > 60 and moved > 0.6 * checked
    assert {K.K_BUY, K.K_GO_DOWN, K.K_DISCARD} <= kinds


def test_search_result_does_not_depend_on_workers():
    """The search's randomness comes from the seat's play stream: 1 and 2 workers give the same
    records."""
    kw = dict(players=4, deals=4, strategies=["search:worlds=2", "strong", "strong", "strong"], seed=5)
    r1 = cardsim.run("telefunken", workers=1, shard_size=1, **kw)
    r2 = cardsim.run("telefunken", workers=2, shard_size=1, **kw)
    assert r1.records.equals(r2.records)


def test_search_row_and_labels():
    """The kernel row: worlds, rollouts, budget, the policy's sid, the four Telefunken slots
    (kinds, chip, margin, hands), then the policy's default parameters; labels print the name."""
    lineup = ["search:policy=greedy,worlds=16,chip=2"] + ["strong"] * 3
    sids, params = seat_arrays(GAME, seat_table(GAME, lineup, 4))
    assert sids[0] == K.S_SEARCH and params.shape[1] == K.N_PARAMS
    assert params[0, 0] == 16 and params[0, SP_POLICY] == K.S_GREEDY and params[0, K.X_CHIP] == 2
    _, p2 = seat_arrays(GAME, seat_table(GAME, ["search"], 4))
    strong = GAME.strategies["strong"]
    row = [p.default for p in strong.params]
    assert p2[0, SP_POLICY] == strong.sid and list(p2[0, SP_PRM:SP_PRM + len(row)]) == row
    assert p2[0, SP_EXTRA] == (1 << K.K_BUY) | (1 << K.K_UPCARD) | (1 << K.K_GO_DOWN)
    assert p2[0, K.X_HANDS] == 63
    assert short_label(GAME, seat_table(GAME, ["search"], 4)[0].label) == "search"
