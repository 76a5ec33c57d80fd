"""No peeking (issue 15): a Contract Rummy strategy decides only on what its seat can see.

Random mid-deal states come from fuzz play (every deal number, seats down or not). For the
deciding seat, the cards it cannot see (the other hands and the stock, with its order) are
dealt anew at random, keeping every hand size and the stock size; the discard pile, the
table, the counts and the seat's own hand stay. A full redistribution is a superset of the
ones consistent with what the seat has seen (the discards others took are public history;
no built-in strategy reads that history), so an unchanged decision under it is unchanged
under those. Every built-in strategy and every decision kind of §17 is checked:
choose_draw (take the discard, with and without a penalty card), respond_may_i (volunteer;
buy), choose_discard and choose_oot_discard, and the act step (choose_meld, choose_joker_swap,
choose_layoff: the seat's holding and the table after it). The random strategies' streams
are copied, so both sides see the same coins."""
import numpy as np
import pytest

from cardsim.kernels import contract_rummy as K
from cardsim.kernels.rng import STREAM_PLAY, seed_stream
from cardsim.sim.registry import get_game, seat_arrays, seat_table

GAME = get_game("contract_rummy")
STRATEGIES = [s for s in GAME.strategies if s != "search"]   # search: tests/contract_rummy/test_contract_rummy_search.py
FIELD = ["fuzz:noise=0.1", "fuzz", "greedy", "fuzz:noise=0.5"]


def mid_deal_states(preset, count, seed, **over):
    """(st, tab, opts) at the start of a turn of a random deal, after some turns of fuzz play."""
    opts = GAME.options_cls(**{**GAME.presets[preset], **over}).to_array(4)
    sids, params = seat_arrays(GAME, seat_table(GAME, FIELD, 4))
    rng = np.random.default_rng(seed)
    trace = np.zeros((0, 6), np.int64)
    out = []
    g = 0
    while len(out) < count:
        g += 1
        st, tab, sc, mo, gdeck, gplay, vb = K.buffers()
        st[:] = 0
        st[K.N] = 4
        seed_stream(gplay, seed, g, np.int64(STREAM_PLAY))
        d = int(rng.integers(1, 8))
        seed_stream(gdeck, seed, g, np.int64(K.STREAM_DEAL + d))
        K.start_deal(st, opts, d, int(rng.integers(0, 4)), gdeck, trace)
        for _ in range(int(rng.integers(0, 70))):
            if K.over(st):
                break
            K.play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, *K.no_plug(4), K.no_search)
        if not K.over(st):
            out.append((st, tab, opts))
    return out


def redistribute(st, p, rng):
    """A copy of st with the cards hidden from seat p (other hands, the stock) dealt anew."""
    s = st.copy()
    n = int(s[K.N])
    pool = [int(c) for i in range(s[K.STOCK_LO], s[K.STOCK_HI]) for c in [s[K.STOCK + i]]]
    for q in range(n):
        if q != p:
            h = K.hand_of(s, q)
            pool += [c for c in range(K.HOLD) for _ in range(int(h[c]))]
    pool = list(rng.permutation(pool))
    for q in range(n):
        if q != p:
            h = K.hand_of(s, q)
            size = int(h.sum())
            h[:] = 0
            for c in pool[:size]:
                h[c] += 1
            pool = pool[size:]
    s[K.STOCK + s[K.STOCK_LO]:K.STOCK + s[K.STOCK_HI]] = pool
    return s


def decisions(st, tab, opts, p, sid, prm, gplay):
    """Every decision seat p takes in this state (fresh copies of the streams each time)."""
    res = []
    sc = np.zeros(16, np.int64)
    top = K.top_card(st) if st[K.PILE_LEN] > 0 else -1

    def g():
        return gplay.copy()

    if top >= 0:
        res.append(("draw paid", K.wants_card(st.copy(), opts, tab.copy(), p, top, True, sid, prm, g(), sc)))
        res.append(("draw free", K.wants_card(st.copy(), opts, tab.copy(), p, top, False, sid, prm, g(), sc)))
    res.append(("volunteer", K.volunteers(st.copy(), opts, p, sid, prm, g())))
    res.append(("discard", K.choose_discard(st.copy(), opts, tab, p, False, sid, prm, g(), sc)))
    res.append(("oot discard", K.choose_discard(st.copy(), opts, tab, p, True, sid, prm, g(), sc)))
    s, t = st.copy(), tab.copy()
    mo = np.zeros((K.MO_ROWS, K.HOLD), np.int64)
    trace = np.zeros((0, 6), np.int64)
    K.act_phase(s, opts, t, p, sid, prm, g(), mo, trace, False, *K.no_plug(4))
    res.append(("act: hand", tuple(K.hand_of(s, p))))
    res.append(("act: table", tuple(t[: s[K.NMELDS], :K.M.M_SIZE].ravel())))
    res.append(("act: out", int(s[K.OUT])))
    return res


@pytest.mark.parametrize("preset,over", [("contract", {}), ("may_i", {}), ("contract", {"may_i_model": "buy"})])
def test_no_peeking(preset, over):
    rng = np.random.default_rng(7)
    kinds = {}
    down = changed = 0
    for st, tab, opts in mid_deal_states(preset, 30, seed=3, **over):
        p = int(st[K.CUR])
        K.begin_turn(st, p)
        down += int(st[K.DOWN + p])
        other = redistribute(st, p, rng)
        changed += not np.array_equal(other, st)
        assert np.array_equal(K.hand_of(other, p), K.hand_of(st, p))
        for name in STRATEGIES:
            sids, params = seat_arrays(GAME, seat_table(GAME, [name], 4))
            gplay = np.array([rng.integers(1, 2 ** 62), rng.integers(1, 2 ** 62)], np.uint64)
            want = decisions(st, tab, opts, p, sids[p], params[p], gplay)
            for _ in range(2):
                got = decisions(redistribute(st, p, rng), tab, opts, p, sids[p], params[p], gplay)
                for (kind, a), (_, b) in zip(want, got):
                    assert a == b, (name, kind, int(st[K.DEAL]))
                    kinds[kind] = kinds.get(kind, 0) + 1
    assert down >= 5 and changed >= 25, (down, changed)     # seats down (lay-offs, swaps); hidden cards moved
    assert set(kinds) >= {"draw paid", "draw free", "volunteer", "discard", "oot discard", "act: hand"}
