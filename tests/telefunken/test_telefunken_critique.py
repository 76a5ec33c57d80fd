"""Telefunken's critique (issue 40): the game the batch plays (built-in and plug-in seats), a go-down
that ends the hand (its answer known by hand), no peeking, ``stop`` (the state before a decision)."""
import numpy as np

from cardsim.kernels import critique as CK
from cardsim.kernels import telefunken as K
from cardsim.sim.critique import evaluator
from cardsim.sim.games.telefunken import CRITIQUE, GAME, TelefunkenOptions, _action_text, _position
from cardsim.sim.registry import seat_arrays, seat_plugin, seat_table
from cardsim.sim.runner import make_config, replay
from test_telefunken_search import counts, holding_cards

N = 4
OPTS = TelefunkenOptions().to_array(N)
NOTRACE = np.zeros((0, K.TRACE_WIDTH), np.int64)
NONE = np.full(3, -1, np.int64)
HOLD_BACK = "examples/telefunken_hold_back.py:hold_back:left=4,turn=40"


def buffers():
    return CK.buffers(CRITIQUE["max_rows"](OPTS, N), CRITIQUE["max_acts"], CRITIQUE["state_size"])


def run(lineup, game, seat, prm, rate=0.0, stop=-1, seed=3, opts=OPTS, trace=NOTRACE):
    seats = seat_table(GAME, lineup, N)
    sids, params = seat_arrays(GAME, seats)
    plug, pprm = seat_plugin(GAME, seats, False)
    rows, acts, snaps = buffers()
    k, seen, st = K.critique(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts, snaps, trace,
                             plug, pprm)
    return k, seen, st.copy(), rows[:k], acts[:k], snaps[:k]


def test_critique_plays_the_batch_game():
    """Nothing evaluated (rate 0): the game ends with the batch replay's totals for every seat (its
    state and trace exactly, traced), a plug-in seat's included (the hold-back example: some of its
    go-downs are held back, a discard chosen among the go-down decision's actions), and every decision of the seat is a row. A seat
    with no chip left is never offered a purchase (the default rules: buying is impossible; with
    in_turn_buy_costs_chip=false it is offered the free purchase in turn)."""
    prm = evaluator(GAME, N, 1, "greedy")
    for lineup, seats in ((["strong", "greedy", "planner", "strong"], range(N)), ([HOLD_BACK, "strong"] * 2, (0,))):
        cfg = make_config("telefunken", N, 2, 3, lineup)
        st_b, trace_b = replay(cfg, 1)
        trace = CRITIQUE["trace"](OPTS)
        st = run(lineup, 1, 0, prm, trace=trace)[2]
        assert np.array_equal(st, st_b) and np.array_equal(trace, trace_b)
        for seat in seats:
            k, seen, st, rows, _, _ = run(lineup, 1, seat, prm)
            assert np.array_equal(st[K.TOTAL:K.TOTAL + N], st_b[K.TOTAL:K.TOTAL + N]), (lineup, seat)
            assert np.array_equal(st[K.CHIPS:K.CHIPS + N], st_b[K.CHIPS:K.CHIPS + N])
            assert k == seen > 50 and not rows[:, CK.CR_EVAL].any()
            assert set(rows[:, CK.CR_PHASE].astype(int)) == set(range(1, 8))
            buys = rows[rows[:, CK.CR_KIND] == K.K_BUY]
            assert len(buys) and (buys[:, CK.CR_DETAIL] >= 1).all() and (rows[:, CK.CR_DETAIL] == 0).any()
            if lineup[0] == HOLD_BACK:
                down = rows[rows[:, CK.CR_KIND] == K.K_GO_DOWN]
                chosen = CK.codes(down[:, CK.CR_CHOSEN_ACT]) & 15
                assert (chosen == K.A_GO_DOWN).any() and (chosen == K.A_DISCARD).any()
    free = TelefunkenOptions(in_turn_buy_costs_chip=False).to_array(N)
    rows = run(["strong"] * N, 1, 0, prm, opts=free)[3]
    assert ((rows[:, CK.CR_KIND] == K.K_BUY) & (rows[:, CK.CR_DETAIL] == 0)).any()


def legal(st, tab):
    _, _, acts, sc, mo, _, _ = K.buffers()
    n = K.legal_actions(st.copy(), OPTS, tab.copy(), sc, mo, acts)
    return acts[:n].copy()


def first_turn_state(game, seat, hand):
    """The state at ``seat``'s first step of a turn in ``hand`` (strong play, nothing laid yet)."""
    rows = run(["strong"] * N, game, seat, evaluator(GAME, N, 1, "greedy"))[3]
    step = next(int(r[CK.CR_STEP]) for r in rows if r[CK.CR_PHASE] == hand and r[CK.CR_KIND] == K.K_DISCARD)
    st = run(["strong"] * N, game, seat, evaluator(GAME, N, 1, "greedy"), stop=step)[2]
    assert st[K.PHASE] == K.P_ACT and st[K.CUR] == seat and st[K.NMELDS] == 0 and not st[K.DOWN + seat]
    return st


def test_a_go_down_that_ends_the_hand_beats_every_discard():
    """Hand 2 (two groups of three), the seat to act holding exactly 7C 7D 7H 9C 9D 9S after its draw
    (its other cards put back on the stock): going down lays every card and goes out (0 points, the
    best there is); any discard keeps five cards (and a lost turn): a discard's regret is positive,
    far above its standard error, and the go-down's value is exactly 0."""
    seat = 1
    st = first_turn_state(2, seat, 2)
    want = [6, 19, 32, 8, 21, 47]                     # 7C 7D 7H 9C 9D 9S
    mine = holding_cards(st, seat)
    for c in want:                      # take each wanted card from where it is, in exchange for one of ours
        if c in mine:
            mine.remove(c)
            continue
        give = mine.pop(next(i for i, x in enumerate(mine) if x not in want))
        for q in range(N):
            if q != seat and counts(holding_cards(st, q))[c]:
                K.take(st, q, c)
                K.give(st, q, give)
                break
        else:                           # in the stock, else in the discard pile
            lo, hi = int(st[K.STOCK_LO]), int(st[K.STOCK_HI])
            where = [K.STOCK + j for j in range(lo, hi)] + [K.PILE + j for j in range(int(st[K.PILE_LEN]))]
            st[next(j for j in where if st[j] == c)] = give
    for c in mine:                      # the rest go on top of the stock
        st[K.STOCK_LO] -= 1
        st[K.STOCK + st[K.STOCK_LO]] = c
    st[K.H1 + seat] = st[K.H2 + seat] = st[K.HJ + seat] = st[K.HT + seat] = 0
    for c in want:
        K.give(st, seat, c)
    st[K.KN:K.KN + K.KN_STRIDE * N] = 0               # (nothing known: the cards were moved by hand)
    tab = np.zeros((K.MAX_MELDS, K.TW), np.int64)
    acts = legal(st, tab)
    n = len(acts)
    assert n == 7 and acts[0] & 15 == K.A_GO_DOWN and K.decision_kind(st, acts, n) == K.K_GO_DOWN
    row, out = np.zeros(CK.CR_WIDTH), np.zeros((n, CK.ACT_WIDTH))
    K.critique_eval(st, tab, OPTS, K.K_GO_DOWN, acts, n, 3, evaluator(GAME, N, 16, "strong"), np.uint64(5), row, out,
                    NONE)
    assert acts[int(row[CK.CR_BEST])] & 15 == K.A_GO_DOWN and row[CK.CR_V_BEST] == 0.0
    assert row[CK.CR_REGRET] > 2 * row[CK.CR_SE_REGRET] and row[CK.CR_REGRET] > 0
    assert (out[1:, 1] < 0).all() and row[CK.CR_V_CHOSEN] < 0
    assert _action_text(acts[0]) == "go down" and _action_text(acts[3]).startswith("discard ")


def redeal(st, seat, rng):
    """The cards hidden from ``seat`` dealt again (the other holdings less the copies known to be
    there, the stock, in an exchange the cards the others passed) in the same places and sizes."""
    n = int(st[K.N])
    st = st.copy()
    exchange = st[K.PHASE] == K.P_EXCHANGE
    plen = int(st[K.POOL_LEN] - st[K.EXK + seat]) if exchange else 0
    lo, hi = int(st[K.STOCK_LO]), int(st[K.STOCK_HI])
    pool = [int(x) for x in st[K.STOCK + lo:K.STOCK + hi]] + [int(x) for x in st[K.POOL:K.POOL + plen]]
    kept, sizes = {}, []
    for q in range(n):
        if q == seat:
            continue
        known = st[K.KN + K.KN_STRIDE * q:K.KN + K.KN_STRIDE * (q + 1)].copy()
        if exchange and st[K.EXK + q]:
            known[:] = 0
        hidden = counts(holding_cards(st, q)) - known
        pool += [c for c in range(K.KN_STRIDE) for _ in range(hidden[c])]
        kept[q] = [c for c in range(K.KN_STRIDE) for _ in range(known[c])]
        sizes.append((q, int(hidden.sum())))
    rng.shuffle(pool)
    for q, k in sizes:
        st[K.H1 + q] = st[K.H2 + q] = st[K.HJ + q] = st[K.HT + q] = 0
        for c in kept[q] + pool[:k]:
            K.give(st, q, c)
        pool = pool[k:]
    st[K.STOCK + lo:K.STOCK + hi] = pool[:hi - lo]
    st[K.POOL:K.POOL + plen] = pool[hi - lo:]
    return st


def test_stop_gives_the_state_before_each_decision_and_no_peeking():
    """``stop`` = s ends the game before its decision s (any seat's, the cuts counted): the state
    returned is the snapshot of the seat's row at step s (a cut: the hand reset, nothing dealt).
    The values of each action, and the position printed, are the same when the cards hidden from
    the seat are dealt otherwise (the exchange's passed cards too)."""
    prm = evaluator(GAME, N, 1, "greedy")
    lineup = ["strong", "planner", "greedy", "strong"]
    seat = 3
    _, _, _, rows, _, snaps = run(lineup, 2, seat, prm, rate=1.0)
    ev = np.flatnonzero(rows[:, CK.CR_EVAL])
    kinds = {int(rows[j, CK.CR_KIND]) for j in ev}
    assert {K.K_CUT, K.K_BUY, K.K_DISCARD, K.K_EXCHANGE} <= kinds and len(ev) > 20
    cut = next(j for j in ev if rows[j, CK.CR_KIND] == K.K_CUT)
    for j in sorted(set(ev[::8]) | {cut}):
        step = int(rows[j, CK.CR_STEP])
        st = run(lineup, 2, seat, prm, stop=step)[2]
        assert np.array_equal(st, snaps[j, :K.ST_SIZE]), step
    assert snaps[cut, K.SNAP_CUT] == 1 and snaps[cut, K.H1:K.H1 + N].sum() == 0
    assert _action_text(K.CUT_CODE | 45) == "cut aimed at a bottom portion of 45"
    rng = np.random.default_rng(1)
    prm2 = evaluator(GAME, N, 2, "strong")
    checked = set()
    for j in ev[::-1]:                  # each kind's last decision (the exchange's: after others passed cards)
        kind = int(rows[j, CK.CR_KIND])
        if kind in checked or kind == K.K_CUT:
            continue
        checked.add(kind)
        st = snaps[j, :K.ST_SIZE].copy()
        assert kind != K.K_EXCHANGE or st[K.POOL_LEN] > st[K.EXK + seat]
        tab = snaps[j, K.SNAP_TAB:K.SNAP_CUT].reshape(K.MAX_MELDS, K.TW).copy()
        other = redeal(st, seat, rng)
        assert not np.array_equal(other, st)
        n = int(rows[j, CK.CR_LEGAL])
        got = []
        for s in (st, other):
            a = legal(s, tab)
            assert len(a) == n
            row, out = np.zeros(CK.CR_WIDTH), np.zeros((n, CK.ACT_WIDTH))
            K.critique_eval(s, tab, OPTS, kind, a, n, 0, prm2, np.uint64(9), row, out, NONE)
            snap = snaps[j].copy()
            snap[:K.ST_SIZE] = s
            got.append((row, out, _position(snap, seat, OPTS)))
        assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1]), kind
        assert got[0][2] == got[1][2], kind
    assert {K.K_BUY, K.K_DISCARD, K.K_EXCHANGE} <= checked
