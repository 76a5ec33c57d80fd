"""Tripoli's critique (issue 40): the deal the batch plays for every seat, a widow decision whose
answer is known by hand (the dealer holds every pay card), no peeking (values and the printed
position), ``stop`` (the state before a decision), plug-ins."""
import numpy as np

import cardsim
from cardsim.kernels import critique as CK
from cardsim.kernels import tripoli as K
from cardsim.sim.critique import evaluator
from cardsim.sim.games.tripoli import GAME, TripoliOptions, _position
from cardsim.sim.notation import fmt_mask
from cardsim.sim.registry import seat_arrays, seat_table
from cardsim.sim.runner import make_config, replay
from test_tripoli_peeking import fuzz_decision_states, redeal

N = 5
OPTS = TripoliOptions().to_array(N)
NOTRACE = np.zeros((0, 4), np.int64)


def table(labels):
    return seat_arrays(GAME, seat_table(GAME, labels, N))


def state_at(deal: int, step: int):
    sids, params = table(["strong"])
    rows, acts, snaps = CK.buffers(512, K.MAX_ACTS, K.ST_SIZE)
    _, _, st = K.critique(0, deal, OPTS, sids, params, 0, evaluator(GAME, N, 1, None), 0.0, step, rows, acts,
                          snaps, NOTRACE)
    return st.copy()


def evaluate(st, opts, chosen, worlds=16, key=11):
    acts = np.zeros(K.MAX_ACTS, np.int64)
    n = K.legal_actions(st, opts, acts)
    row = np.zeros(CK.CR_WIDTH)
    out = np.zeros((n, CK.ACT_WIDTH))
    K.critique_eval(st, opts, acts[:n].copy(), n, chosen(acts[:n]), evaluator(GAME, int(st[K.N]), worlds, "strong"),
                    np.uint64(key), row, out)
    return row, out, acts[:n]


def test_critique_plays_the_batch_deal():
    """Nothing evaluated: each deal (sessions' later deals too) ends as the batch's replay, for every seat."""
    lineup = ["strong", "heuristic", "strong", "heuristic", "random"]
    sids, params = table(lineup)
    cfg = make_config("tripoli", N, 6, 0, lineup)
    prm = evaluator(GAME, N, 2, "strong")
    for deal in (0, 1, 4):
        st_b, _ = replay(cfg, deal)
        for seat in range(N):
            rows, acts, snaps = CK.buffers(512, K.MAX_ACTS, K.ST_SIZE)
            k, seen, st = K.critique(0, deal, OPTS, sids, params, seat, prm, 0.0, -1, rows, acts, snaps, NOTRACE)
            assert np.array_equal(st[K.CHIPS:K.CHIPS + N], st_b[K.CHIPS:K.CHIPS + N]), (deal, seat)
            assert k == seen and not rows[:k, CK.CR_EVAL].any()


def test_keeping_every_pay_card_beats_the_swap():
    """The dealer's widow decision (keep, swap or auction the widow) with all five pay cards in his
    hand and 60 chips on each of their spaces: swapping his hand for the unseen widow gives them up
    (Phase 1 pays the holder): the best is to keep the hand (keep, or auction the widow to the
    others, which keeps it too) and the swap's regret is large and significant."""
    for step in range(12):
        st = state_at(0, step)
        if st[K.PHASE] == K.P_WIDOW:
            break
    else:
        raise AssertionError("no widow decision")
    dealer = int(st[K.CUR])
    assert dealer == st[K.DEALER]
    for i in range(5):                      # move each pay card into the dealer's hand (a card of his out)
        c = int(K.pay_card(st, i))
        owner = next(q for q in range(-1, N) if int(st[K.WIDOW] if q < 0 else st[K.HAND + q]) >> c & 1)
        if owner == dealer:
            continue
        give = next(x for x in range(52) if int(st[K.HAND + dealer]) >> x & 1
                    and all(x != int(K.pay_card(st, j)) for j in range(5)))
        slot = K.WIDOW if owner < 0 else K.HAND + owner
        st[slot] = (int(st[slot]) & ~(1 << c)) | (1 << give)
        st[K.HAND + dealer] = (int(st[K.HAND + dealer]) & ~(1 << give)) | (1 << c)
        st[K.BOARD + i] = 60
    row, out, acts = evaluate(st, OPTS, lambda a: next(i for i, x in enumerate(a) if x & 15 == K.A_SWAP))
    assert acts[int(row[CK.CR_BEST])] & 15 in (K.A_KEEP, K.A_AUCTION_WIDOW)
    assert row[CK.CR_REGRET] > 100 and row[CK.CR_REGRET] > 3 * row[CK.CR_SE_REGRET]


def test_no_peeking():
    """At decisions of every kind (fuzzed sessions' last deals, clearing rounds included), the values
    of every action are the same when the cards hidden from the seat are dealt otherwise."""
    rng = np.random.default_rng(3)
    kinds = set()
    for i, (st, opts, p, preset, n, gplay) in enumerate(fuzz_decision_states(["seed", "cosmo"], 4, 17)):
        if i % 7:
            continue
        acts = np.zeros(K.MAX_ACTS, np.int64)
        if K.legal_actions(st, opts, acts) < 2:
            continue
        kinds.add(int(K.decision_kind(st)))
        a, b = st.copy(), redeal(st, opts, p, rng)
        r1, o1, _ = evaluate(a, opts, lambda x: 0, worlds=4)
        r2, o2, _ = evaluate(b, opts, lambda x: 0, worlds=4)
        assert np.array_equal(r1, r2) and np.array_equal(o1, o2), (i, K.decision_kind(st))
    assert len(kinds) >= 4


def test_stop_returns_the_state_before_the_decision():
    """``stop`` = s stops the deal before its decision s (any seat's; a session's last deal counts
    on through its clearing rounds): the state returned is the snapshot the deciding seat's row at
    step s kept, the first decision of a clearing round included (its cards dealt)."""
    sids, params = table(["strong", "heuristic", "strong", "random", "strong"])
    prm = evaluator(GAME, N, 1, "heuristic")
    deal = 4                                        # the last deal of session 0: clearing rounds follow
    snaps_at = {}
    for seat in range(N):
        rows, acts, snaps = CK.buffers(512, K.MAX_ACTS, K.ST_SIZE)
        k, seen, _ = K.critique(0, deal, OPTS, sids, params, seat, prm, 1.0, -1, rows, acts, snaps, NOTRACE)
        assert k == seen
        for j in range(k):
            if rows[j, CK.CR_EVAL]:
                snaps_at[int(rows[j, CK.CR_STEP])] = snaps[j].copy()
    clearing = [s for s, snap in snaps_at.items() if snap[K.BET_CTX] == 1]
    assert clearing and len(snaps_at) > 20
    rows, acts, snaps = CK.buffers(512, K.MAX_ACTS, K.ST_SIZE)
    for step in sorted(snaps_at)[::4] + [min(clearing)]:
        _, _, st = K.critique(0, deal, OPTS, sids, params, 0, prm, 0.0, step, rows, acts, snaps, NOTRACE)
        assert np.array_equal(st, snaps_at[step]), step


def test_position_is_the_seats_view():
    """The position printed for a decision shows the seat's own cards (in a clearing round its five)
    and nothing hidden from it: the same lines when those cards are dealt otherwise, at every kind."""
    rng = np.random.default_rng(5)
    kinds = set()
    for st, opts, p, _, _, _ in fuzz_decision_states(["seed", "suit_auction", "cosmo", "rummoli"], 4, 29):
        lines = _position(st, p, opts)
        assert lines == _position(redeal(st, opts, p, rng), p, opts)
        own = int(st[K.CLH + p]) if st[K.PHASE] == K.P_BET and st[K.BET_CTX] else int(st[K.HAND + p])
        assert any(fmt_mask(own) in x for x in lines)
        kinds.add(int(K.decision_kind(st)))
    assert kinds == set(range(K.N_KINDS))


def test_plugin_and_random():
    """The example plug-in is critiqued like a built-in; random's regret is far above strong's."""
    res = cardsim.critique("tripoli", ["examples/tripoli_widow_stops.py:widow_stops"], field="strong", deals=4,
                           worlds=4)
    assert len(res.decisions) and res.meta["strategy"].startswith("examples/tripoli_widow_stops.py")
    r = {s: cardsim.critique("tripoli", [s], field="strong", decisions=500, worlds=8).total for s in ("random", "strong")}
    assert r["random"]["regret"] - r["random"]["regret_ci"] > r["strong"]["regret"] + r["strong"]["regret_ci"]
