"""Tonk's inference worlds (issue 41, ``kernels.tonk.infer``, ``cardsim critique --infer``): every
world is a deal the critiqued seat could be in (what it sees is the same), no world peeks at the
rivals' real cards, and weighing the worlds by the rivals' play guesses their counts better than
uniform deals do."""
import numpy as np
import pytest

from cardsim.kernels import tonk as K
from cardsim.kernels.tonk import layout as L
from cardsim.kernels.rng import seed_stream
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.kernels.tonk import infer as I
from cardsim.kernels.tonk.search import determinize
from cardsim.sim.critique import evaluator, make_critique, play
from cardsim.sim.errors import UsageError
from cardsim.sim.games.tonk import GAME, TonkOptions

from test_tonk_strategies import seat

# what seat p sees of a state: its hand, the table, the pile, the counts of cards, the turn
SEEN = [L.N, L.DEALER, L.CUR, L.PHASE, L.TURNS, L.STOCK_PTR, L.PILE_LEN, L.TAKEN, L.NEW_SPREAD, L.HITS,
        L.DRY_TURNS, L.BLOCKED, L.PILE_MASK]


def seen(st, p):
    n = int(st[K.N])
    view = [int(st[i]) for i in SEEN] + [int(st[K.HAND + p])]
    view += [int(st[K.BOOK + q]) for q in range(n)] + [int(st[K.RUN + q]) for q in range(n)]
    view += [bin(int(st[K.HAND + q])).count("1") for q in range(n)]
    view += [int(st[K.PILE + i]) for i in range(int(st[K.PILE_LEN]))]
    view += [int(st[K.KNOWN + q]) & ~int(st[K.HAND + p]) for q in range(n)]
    view += [int(st[K.DECK + i]) for i in range(int(st[K.STOCK_PTR]))
             if i < 5 * n and (int(st[K.DEALER]) + 1 + i) % n == p]
    return view


def deals(n, count, seed=5):
    """(state at each decision of the deals, the hand's first state, its actions so far), strong
    at every seat."""
    opts = TonkOptions().to_array(n)
    sid, prm = seat("strong", n)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    trace = np.zeros((0, 4), np.int64)
    for d in range(count):
        st = K.new_state(opts)
        g = np.zeros(2, np.uint64)
        seed_stream(g, seed, d, 1)
        K.start_deal(st, opts, g, np.int64(d % n), trace)
        st0, hist = st.copy(), []
        while st[K.PHASE] != K.P_OVER:
            m = K.legal_actions(st, opts, acts)
            yield opts, st, st0, np.array(hist, np.int64), acts[:m].copy()
            i = K.choose(st, opts, acts, m, sid, prm, g)
            hist.append(int(acts[i]))
            K.apply_action(st, opts, acts[i], trace)


def worlds_at(opts, st, st0, hist, prm, cands, count, key=11):
    p = int(st[K.CUR])
    owner, avail, laid, due = (np.empty(52, np.int64), np.empty(52, np.int64), np.empty(52, np.int64),
                               np.empty((52, 2), np.int64))
    k = I.history_slots(st0, opts, hist, len(hist), p, owner, avail, laid, due)
    cards = np.empty(52, np.int64)
    g = np.zeros(2, np.uint64)
    out = []
    for w in range(count):
        base = np.empty(K.ST_SIZE, np.int64)
        I.infer_world(st, p, opts, st0, hist, len(hist), (owner, avail, laid, due, k), cands, prm,
                      np.uint64(key), w, base, cards, g)
        out.append(base)
    return out


@pytest.mark.parametrize("n", [2, 3])
def test_every_inference_world_is_a_deal_the_seat_could_be_in(n):
    """At decisions along strong's deals, every inference world shows the deciding seat exactly
    what the real state shows it (hand, table, pile, counts, the public takes, its own dealt
    cards), the rivals' hands differ from the real ones in some worlds, and replaying the world's
    deck with the real actions from the hand's first state gives the world (the deck is a deal)."""
    prm = evaluator(GAME, n, 8, "strong")
    checked = moved = 0
    for i, (opts, st, st0, hist, acts) in enumerate(deals(n, 6)):
        if i % 5 or len(hist) == 0:
            continue
        p = int(st[K.CUR])
        for base in worlds_at(opts, st, st0, hist, prm, 8, 3, key=i):
            assert seen(base, p) == seen(st, p)
            assert sorted(base[K.DECK:K.DECK + 52]) == list(range(52))
            moved += any(base[K.HAND + q] != st[K.HAND + q] for q in range(n) if q != p)
            again = st0.copy()
            again[K.DECK:K.DECK + 52] = base[K.DECK:K.DECK + 52]
            assert I.replay_weight(again, opts, hist, len(hist), p, prm, np.zeros(K.MAX_ACTS, np.int64),
                                   np.zeros((0, 4), np.int64)) > -np.inf
            assert np.array_equal(again, base)
            checked += 1
    assert checked > 30 and moved > checked // 2


def test_inference_worlds_do_not_peek():
    """The worlds depend only on what the seat sees: the same decision with the rivals' hidden
    cards and the stock dealt otherwise (a consistent other history: the real deck's hidden slots
    refilled) gives the same worlds."""
    n = 2
    prm = evaluator(GAME, n, 8, "strong")
    done = 0
    for i, (opts, st, st0, hist, acts) in enumerate(deals(n, 8, seed=9)):
        if i % 7 or len(hist) < 4:
            continue
        p = int(st[K.CUR])
        other = worlds_at(opts, st, st0, hist, prm, 6, 1, key=1000 + i)[0]   # another real history
        other0 = st0.copy()
        other0[K.DECK:K.DECK + 52] = other[K.DECK:K.DECK + 52]
        K.deal_from_deck(other0, opts, np.zeros((0, 4), np.int64))
        a = worlds_at(opts, st, st0, hist, prm, 6, 4, key=i)
        b = worlds_at(opts, other, other0, hist, prm, 6, 4, key=i)
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
        done += 1
    assert done >= 5


def test_inference_guesses_the_rivals_counts_better_than_uniform_worlds():
    """Over decisions of strong's 2-player deals, the rival's point count in inference worlds is
    nearer the real one than in uniform deals of the unseen cards (mean absolute error)."""
    n = 2
    prm = evaluator(GAME, n, 8, "strong")
    err_u = err_i = 0.0
    m = 0
    cards = np.empty(52, np.int64)
    for i, (opts, st, st0, hist, acts) in enumerate(deals(n, 30, seed=3)):
        if i % 3 or len(hist) < 6:
            continue
        p = int(st[K.CUR])
        q = 1 - p
        real = K.hand_count(st[K.HAND + q])
        for j, base in enumerate(worlds_at(opts, st, st0, hist, prm, 32, 4, key=i)):
            uni = st.copy()
            g = np.zeros(2, np.uint64)
            seed_stream(g, 77, i * 10 + j, 3)
            determinize(uni, p, g, cards)
            err_i += abs(K.hand_count(base[K.HAND + q]) - real)
            err_u += abs(K.hand_count(uni[K.HAND + q]) - real)
            m += 1
    assert m > 100
    assert err_i < 0.9 * err_u, (err_i / m, err_u / m)


def test_critique_infer_option():
    """``infer`` goes into the evaluation row's slot and the metadata; other games refuse it in one
    line; 0 is the uniform critique, unchanged."""
    prm = evaluator(GAME, 2, 8, "strong", 16)
    assert prm[K.SX_INFER] == 16 and prm[SP_POLICY] == evaluator(GAME, 2, 8, "strong")[SP_POLICY]
    assert len(prm) > SP_PRM
    cfg = make_critique("tonk", ["strong"], decisions=20, worlds=8, infer=4, seed=2)
    res = play(cfg)
    assert res.meta["infer"] == 4 and res.total["evaluated"] >= 20
    plain = make_critique("tonk", ["strong"], decisions=20, worlds=8, seed=2)
    assert "infer" not in plain.meta()
    with pytest.raises(UsageError, match="no inference worlds"):
        make_critique("tripoli", ["strong"], decisions=5, infer=4)
    with pytest.raises(UsageError, match="--infer must be"):
        make_critique("tonk", ["strong"], decisions=5, infer=-1)
