"""Contract Rummy's search strategy (issue 19): its public bookkeeping (KNOWN), no peeking,
determinism across workers, its parameters and the kernel row it builds."""
import numpy as np
import pytest

import cardsim
from cardsim.kernels import contract_rummy as K
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.sim.registry import seat_arrays, seat_table, short_label
from test_contract_rummy_peeking import GAME, mid_deal_states

SEARCH = "search:worlds=2,z=0"      # z = 0: the best mean decides, the most world-sensitive answer


def known(st, q):
    """Seat q's publicly known cards (a count vector, copied)."""
    return st[K.KNOWN + K.HOLD * q:K.KNOWN + K.HOLD * (q + 1)].copy()


def redeal_hidden(st, p, rng):
    """A copy of st with what seat p cannot see dealt anew: the other hands (each keeps the
    cards it is publicly known to hold) and the stock."""
    s = st.copy()
    n = int(s[K.N])
    pool = [int(s[K.STOCK + i]) for i in range(s[K.STOCK_LO], s[K.STOCK_HI])]
    for q in range(n):
        if q != p:
            free = K.hand_of(s, q) - known(s, q)
            assert free.min() >= 0
            pool += [c for c in range(K.HOLD) for _ in range(int(free[c]))]
    pool = [int(c) for c in rng.permutation(pool)]
    for q in range(n):
        if q != p:
            h = K.hand_of(s, q)
            k = int(h.sum() - known(s, q).sum())
            h[:] = known(s, q)
            for c in pool[:k]:
                h[c] += 1
            pool = pool[k:]
    s[K.STOCK + s[K.STOCK_LO]:K.STOCK + s[K.STOCK_HI]] = pool
    return s


def test_known_is_public_and_held():
    """KNOWN never exceeds a hand, and a card taken from the pile stays known in the taker's
    hand until that seat gives up a copy of it (independent tracking from the trace)."""
    opts = GAME.options_cls().to_array(4)
    sids, params = seat_arrays(GAME, seat_table(GAME, ["fuzz:noise=0.2", "greedy", "fuzz", "strong"], 4))
    seen_known = 0
    for g in range(4):
        trace = np.zeros((4000, 6), np.int64)
        st = K.replay_game(3, g, opts, sids, params, True, trace)
        assert st[K.ERR] == 0
        rows = trace[:st[K.TR_LEN]]
        taken = {}                      # (seat, card) -> still surely held by the trace's account
        for code, q, a, *_ in rows:
            if code == K.T_DEAL:
                taken = {}
            elif code in (K.T_TAKE, K.T_BUY):
                taken[(q, a)] = taken.get((q, a), 0) + 1
            elif code in (K.T_DISCARD, K.T_LAYOFF) and taken.get((q, a), 0) > 0:
                taken[(q, a)] -= 1
            elif code in (K.T_MELD, K.T_SWAP):
                taken = {k: v for k, v in taken.items() if k[0] != q}   # melds: conservatively forget
        # at the end of the last deal: every card the trace says is surely held is in KNOWN
        for (q, c), v in taken.items():
            assert st[K.KNOWN + K.HOLD * q + c] >= v
            seen_known += v
        for q in range(4):
            assert (known(st, q) <= K.hand_of(st, q)).all()
    assert seen_known > 0


@pytest.mark.parametrize("preset,over", [("contract", {}), ("may_i", {}), ("contract", {"may_i_model": "buy"})])
def test_search_does_not_peek(preset, over):
    """At a turn's draw and at its discard, the search answers the same when the cards hidden
    from its seat are dealt otherwise (other hands, keeping the cards they are known to hold,
    and the stock order)."""
    _, prm = seat_arrays(GAME, seat_table(GAME, [SEARCH], 4))
    fuzz_sids, fuzz_prm = seat_arrays(GAME, seat_table(GAME, ["strong"] * 4, 4))
    rng = np.random.default_rng(5)
    checked = {K.K_DRAW: 0, K.K_DISCARD: 0}
    moved = 0
    for st, tab, opts in mid_deal_states(preset, 12, seed=8, **over):
        p = int(st[K.CUR])
        for q in range(4):
            assert (known(st, q) <= K.hand_of(st, q)).all()
        K.begin_turn(st, p)
        plug, pprm, vb = K.no_plug(4)
        if K.draw_asked(st, opts, p):
            other = redeal_hidden(st, p, rng)
            moved += not np.array_equal(other, st)
            key = int(rng.integers(1, 2 ** 62))
            a = K.search_pick(st.copy(), opts, tab.copy(), p, K.K_DRAW, prm[0], np.array([key, 0], np.uint64),
                              plug, pprm, vb)
            b = K.search_pick(other, opts, tab.copy(), p, K.K_DRAW, prm[0], np.array([key, 0], np.uint64),
                              plug, pprm, vb)
            assert a == b
            checked[K.K_DRAW] += 1
        # on to the discard with the policy: the draw and step 2
        trace = np.zeros((0, 6), np.int64)
        sc = np.zeros(16, np.int64)
        mo = np.zeros((K.MO_ROWS, K.HOLD), np.int64)
        gplay = np.array([11, 0], np.uint64)
        q = K.draw_phase(st, opts, tab, p, fuzz_sids, fuzz_prm, gplay, trace, sc, plug, pprm, vb)
        if q != -1 or K.over(st):
            continue
        K.act_phase(st, opts, tab, p, fuzz_sids[p], fuzz_prm[p], gplay, mo, trace, False, plug, pprm, vb)
        if K.over(st):
            continue
        other = redeal_hidden(st, p, rng)
        key = int(rng.integers(1, 2 ** 62))
        a = K.search_pick(st.copy(), opts, tab.copy(), p, K.K_DISCARD, prm[0], np.array([key, 0], np.uint64),
                          plug, pprm, vb)
        b = K.search_pick(other, opts, tab.copy(), p, K.K_DISCARD, prm[0], np.array([key, 0], np.uint64),
                          plug, pprm, vb)
        assert a == b and K.discard_ok(st, p, a, False)
        checked[K.K_DISCARD] += 1
    assert checked[K.K_DRAW] >= 4 and checked[K.K_DISCARD] >= 6 and moved >= 3, (checked, moved)


def test_determinize_conserves_cards():
    """A determinization keeps every card of the pack in one place, every hand size, the
    searching seat's hand and the known cards."""
    rng = np.random.default_rng(2)
    for st, tab, opts in mid_deal_states("contract", 6, seed=4):
        p = int(st[K.CUR])
        s = st.copy()
        assert K.determinize(s, opts, tab, p, np.array([int(rng.integers(1, 2 ** 62)), 0], np.uint64),
                             np.zeros(K.MAX_PACK, np.int64))
        assert K.cards_ok(s, opts, tab) and K.hands_ok(s, opts)
        assert np.array_equal(K.hand_of(s, p), K.hand_of(st, p))
        for q in range(4):
            assert (known(s, q) <= K.hand_of(s, q)).all()


def test_search_result_does_not_depend_on_workers():
    """The search's randomness comes from the table's play stream: 1 and 2 workers give the same
    records."""
    kw = dict(players=3, deals=4, strategies=["search:worlds=1,kinds=2,discards=2", "strong", "strong"], seed=5)
    r1 = cardsim.run("contract_rummy", workers=1, shard_size=2, **kw)
    r2 = cardsim.run("contract_rummy", workers=2, shard_size=2, **kw)
    assert r1.records.equals(r2.records)


def test_search_row_and_labels():
    """The game's slots (kinds, discards, z) follow the shared ones; the policy by name."""
    sids, params = seat_arrays(GAME, seat_table(GAME, ["search:policy=greedy,kinds=2,discards=5,z=1.5", "strong", "strong", "strong"], 4))
    assert sids[0] == K.S_SEARCH and params[0, SP_POLICY] == K.S_GREEDY
    assert params[0, K.SX_KINDS] == 2 and params[0, K.SX_CANDS] == 5 and params[0, K.SX_Z] == 1.5
    strong = GAME.strategies["strong"]
    _, p2 = seat_arrays(GAME, seat_table(GAME, ["search"], 4))
    row = [p.default for p in strong.params]
    assert p2[0, SP_POLICY] == strong.sid and list(p2[0, SP_PRM:SP_PRM + len(row)]) == row
    assert p2[0, 0] == 32 and p2[0, K.SX_KINDS] == 3 and p2[0, K.SX_CANDS] == 3 and p2[0, K.SX_Z] == 2  # defaults
    assert p2[0, K.SX_FUTILITY] == 0
    assert short_label(GAME, seat_table(GAME, ["search"], 4)[0].label) == "search"


def test_race_drops_answers_that_cannot_gain():
    """race_policy (issue 40): an answer clearly worse than the policy's, or equal to it in every
    sample, stops being played; one whose gain is still possible stays."""
    from cardsim.kernels.search import race_policy
    m = 8
    total = np.array([0.0, -40.0, 0.0, 10.0, 3.0])
    # squares of the paired differences: answer 1 always -5; answer 2 always 0; answer 3 +10 and -10
    # alternately (+1.25 mean); answer 4 +3 and -3 (mean gain 0.375, wide)
    dsq = np.array([0.0, 25.0 * m, 0.0, 100.0 * m, 9.0 * m])
    active = np.ones(5, np.bool_)
    assert race_policy(total, dsq, m, 5, active, 2.0, 0.5, 10**6 * m) == 2     # (far from the end)
    assert list(active) == [True, False, False, True, True]
    # projected to 4x the samples: answer 3's z-score 1.25 / 3.75 * 2 = 0.67 < 0.5 * 2 stops,
    # answer 4's 0.375 / 1.125 * 2 = 0.67 too; a steady gain (answer 5: +1 every sample) stays
    total = np.append(total, 8.0)
    dsq = np.append(dsq, 8.0)
    active = np.ones(6, np.bool_)
    assert race_policy(total, dsq, m, 6, active, 2.0, 0.5, 4 * m) == 1
    assert list(active) == [True, False, False, False, False, True]
