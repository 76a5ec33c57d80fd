"""Tonk strategies (issue 15) on stacked positions: the dry-stock endgame, holding spreads
back for a tonk-out, the discard as a deliberate draw source; the fuzzer's coverage of every
end reason and action kind; no peeking.

Seats: A = dealer = seat 0, B = seat 1, C = seat 2. S = 1."""
import numpy as np
import pytest

from cardsim.kernels import tonk as K
from cardsim.kernels.rng import seed_stream
from cardsim.sim.games.tonk import GAME, TonkOptions
from cardsim.sim.notation import parse_card, parse_mask
from cardsim.sim.registry import seat_arrays, seat_table
from test_tonk_rules import position

A, B, C = 0, 1, 2


def gen(seed=1):
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, 0, 0)
    return g


def seat(spec, n=3):
    sids, params = seat_arrays(GAME, seat_table(GAME, [spec], n))
    return int(sids[0]), params[0]


def decide(st, opts, spec, seed=1):
    """The action ``spec`` picks for the player to act."""
    acts = np.zeros(K.MAX_ACTS, np.int64)
    n = K.legal_actions(st, opts, acts)
    sid, prm = seat(spec, int(opts[K.O_PLAYERS]))
    return int(acts[K.choose(st, opts, acts, n, sid, prm, gen(seed))])


GREEDY_FAMILY = ["greedy", "knocker", "watcher", "planner"]


@pytest.mark.parametrize("spec", GREEDY_FAMILY)
def test_dry_stock_high_count_takes_a_discard_that_lowers_it(spec):
    """Dry stock, B counts 47 and the top discard 2H fits nothing: taking it and throwing the
    K lowers the count to 37; before issue 15 greedy ended the hand at once (and paid S)."""
    opts = TonkOptions().to_array(3)
    st = position(opts, {A: "3C 4D", B: "KS QS JH 9D 8C", C: "AC 2D"}, cur=B, pile="2H", stock_only=True)
    assert K.stock_empty(st)
    assert decide(st, opts, spec) == K.A_DRAW_DISCARD


@pytest.mark.parametrize("spec, want", [("greedy", K.A_DRAW_DISCARD), ("planner", K.A_DRAW_DISCARD),
                                        ("planner:dry_end=5", K.A_END_DRY), ("planner:dry_end=3", K.A_END_DRY),
                                        ("planner:dry_end=2", K.A_DRAW_DISCARD)])
def test_dry_end_threshold(spec, want):
    """A count of 3 with AH on the pile: greedy takes it (AC AH, the 2D goes: count 2); the
    planner ends the hand when the count is already within dry_end."""
    opts = TonkOptions().to_array(3)
    st = position(opts, {A: "3C 4D", B: "AC 2D", C: "KD QD JD TD"}, cur=B, pile="AH", stock_only=True)
    assert decide(st, opts, spec) == want


@pytest.mark.parametrize("spec", GREEDY_FAMILY)
def test_dry_stock_ends_when_no_discard_lowers_the_count(spec):
    opts = TonkOptions().to_array(3)
    st = position(opts, {A: "3C 4D", B: "KS QS JH 9D 8C", C: "AC 2D"}, cur=B, pile="KH", stock_only=True)
    assert decide(st, opts, spec) == K.A_END_DRY


@pytest.mark.parametrize("spec, want", [("greedy", K.A_DRAW_STOCK), ("watcher", K.A_DRAW_STOCK),
                                        ("planner", K.A_DRAW_STOCK), ("planner:take_low=1", K.A_DRAW_DISCARD),
                                        ("planner:take_low=3", K.A_DRAW_DISCARD)])
def test_take_low_uses_the_discard_as_a_draw_source(spec, want):
    """AH on the pile fits nothing in KS QS JH 9D 8C: the planner's take_low takes the known
    ace (and throws a king) instead of a blind stock card."""
    opts = TonkOptions().to_array(3)
    st = position(opts, {A: "3C 4D 5H 6S 9S", B: "KS QS JH 9D 8C", C: "2C 2D 4S 6H 8H"}, cur=B, pile="AH")
    assert decide(st, opts, spec) == want


def after_draw(hand_b, card, **kw):
    opts = TonkOptions(**kw).to_array(3)
    st = position(opts, {A: "3C 4D 5H 6S 9S", B: hand_b, C: "2C 2D 4S 6H 8H"}, cur=B, pile="AH", stock=card)
    K.apply_action(st, opts, K.A_DRAW_STOCK, np.zeros((0, 4), np.int64))
    assert st[K.PHASE] == K.P_MELD
    return st, opts


@pytest.mark.parametrize("spec, lays", [("greedy", True), ("planner", True), ("planner:hold_spreads=1", False),
                                        ("planner:hold_spreads=1,hold_min_stock=30", False),
                                        ("planner:hold_spreads=1,hold_min_stock=40", True)])
def test_hold_spreads_back_for_a_tonk_out(spec, lays):
    """B draws 2H to 7S 7H 7D KC QD: greedy lays the sevens at once; the planner's hold_spreads
    keeps them in hand (discards the king) while the stock (35 cards) is longer than
    hold_min_stock."""
    st, opts = after_draw("7S 7H 7D KC QD", "2H")
    a = decide(st, opts, spec)
    assert (a == (K.A_LAY | (parse_mask("7S 7H 7D") << 8))) == lays
    if not lays:
        assert a & 15 == K.A_DISCARD and (a >> 8) & 63 in (parse_card("KC"), parse_card("QD"))


@pytest.mark.parametrize("spec", ["greedy", "planner:hold_spreads=1"])
def test_held_spreads_go_down_for_a_tonk_out(spec):
    """7S 7H 7D 8C 9C + TC: two spreads, the whole hand goes (tonk out, 2S each)."""
    st, opts = after_draw("7S 7H 7D 8C 9C", "TC")
    trace = np.zeros((0, 4), np.int64)
    for _ in range(3):
        if st[K.PHASE] == K.P_OVER:
            break
        a = decide(st, opts, spec)
        assert a & 15 == K.A_LAY
        K.apply_action(st, opts, a, trace)
    assert st[K.REASON] == K.R_TONK_OUT and st[K.PAY + B] == 4


# =============================================================================
# no peeking
# =============================================================================
BUILT_IN = ["random", "greedy", "knocker", "watcher", "fuzz", "planner", "planner:take_low=5,dry_end=6",
            "planner:hold_spreads=1,hold_min_stock=10,threshold=12", "planner:take_low=3,hold_spreads=1",
            "expert", "strong", "expert:knock_odds=0.5,pair_keep=30,near_keep=30,feed=20,wary_cards=0"]


def redeal_hidden(st, cur, known, rng):
    """A copy of ``st`` in which the cards ``cur`` cannot see (the other hands, except cards
    known to have been taken from the pile into them, and the stock order) are dealt again
    at random, hand sizes and the stock's length kept."""
    st2 = st.copy()
    n = int(st[K.N])
    pool = [c for i in range(int(st[K.STOCK_PTR]), 52) for c in [int(st[K.DECK + i])]]
    free = {}
    for p in range(n):
        if p == cur:
            continue
        m = int(st[K.HAND + p]) & ~known[p]
        free[p] = bin(m).count("1")
        pool += [c for c in range(52) if m >> c & 1]
    pool = list(rng.permutation(pool))
    for p in free:
        m = int(st[K.HAND + p]) & known[p]
        for _ in range(free[p]):
            m |= 1 << int(pool.pop())
        st2[K.HAND + p] = m
    for i in range(int(st[K.STOCK_PTR]), 52):
        st2[K.DECK + i] = pool.pop()
    assert not pool
    return st2


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_peeking(n):
    """Along 40 fuzzed deals per player count, at every decision (turn start: knock / draw /
    take / end a dry hand; meld phase: lay / hit / discard), each built-in strategy (twelve
    settings, the expert's included: it reads the cards a rival took from the pile) picks the
    same action when the cards hidden from the deciding seat are dealt otherwise."""
    opts = TonkOptions().to_array(n)
    seats = [seat(s, n) for s in BUILT_IN]
    trace = np.zeros((0, 4), np.int64)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    rng = np.random.default_rng(n)
    checked = np.zeros(len(K.ACTION_NAMES), np.int64)
    moved = decisions = 0
    fuzz_sid, fuzz_prm = seat("fuzz:knock=0.01", n)
    for d in range(40):
        st = K.new_state(opts)
        g = np.zeros(2, np.uint64)
        seed_stream(g, 77, d, 1)
        K.start_deal(st, opts, g, np.int64(d % n), trace)
        known = [0] * K.MAX_PLAYERS
        while st[K.PHASE] != K.P_OVER:
            cur = int(st[K.CUR])
            k = K.legal_actions(st, opts, acts)
            other = redeal_hidden(st, cur, known, rng)
            decisions += 1
            moved += bool((other[K.HAND:K.HAND + n] != st[K.HAND:K.HAND + n]).any())
            acts2 = np.zeros(K.MAX_ACTS, np.int64)
            assert K.legal_actions(other, opts, acts2) == k and (acts2[:k] == acts[:k]).all()
            for sid, prm in seats:
                g1, g2 = g.copy(), g.copy()
                i1 = K.choose(st, opts, acts, k, sid, prm, g1)
                i2 = K.choose(other, opts, acts2, k, sid, prm, g2)
                assert i1 == i2, (d, cur, sid, prm, K.ACTION_NAMES[acts[i1] & 15])
                checked[acts[i1] & 15] += 1
            a = int(acts[K.choose(st, opts, acts, k, fuzz_sid, fuzz_prm, g)])
            if a & 15 == K.A_DRAW_DISCARD:
                known[cur] |= 1 << int(K.pile_top(st))
            K.apply_action(st, opts, a, trace)
            known[cur] &= int(st[K.HAND + cur])
    assert (checked[1:] > 0).all(), dict(zip(K.ACTION_NAMES, checked))
    assert moved > 0.7 * decisions                         # the hidden cards really moved


# ---- the expert's arithmetic against brute force (issue 41) ------------------
def _points(c):
    return min(c % 13 + 1, 10)


@pytest.mark.parametrize("seed", range(6))
def test_chance_at_most_against_enumeration(seed):
    """Exact for one and two unknown cards; the normal law for three within 0.06 of the
    enumeration (unseen sets of 20 to 40 cards, every count)."""
    from itertools import combinations
    rng = np.random.default_rng(seed)
    cards = sorted(rng.choice(52, size=int(rng.integers(20, 41)), replace=False).tolist())
    unseen = sum(1 << c for c in cards)
    u, s1, s2 = K.unseen_sums(np.int64(unseen))
    for h in (1, 2, 3):
        combos = [sum(_points(c) for c in cs) for cs in combinations(cards, h)]
        for t in range(-1, 10 * h + 1):
            want = sum(x <= t for x in combos) / len(combos)
            got = K.chance_at_most(np.int64(unseen), h, t, u, s1, s2)
            if h <= 2:
                assert got == pytest.approx(want, abs=1e-12), (h, t)
            else:
                assert abs(got - want) < 0.06, (h, t, got, want)


def test_least_rival_count_is_the_lowest_possible_hand():
    """The least count a rival can hold: its known cards plus its lowest possible unknown
    ones, checked against every hand it could hold, along fuzzed deals."""
    from itertools import combinations
    n = 2
    opts = TonkOptions().to_array(n)
    fuzz_sid, fuzz_prm = seat("fuzz:knock=0.05", n)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    trace = np.zeros((0, 4), np.int64)
    checked = 0
    for d in range(30):
        st = K.new_state(opts)
        g = np.zeros(2, np.uint64)
        seed_stream(g, 91, d, 1)
        K.start_deal(st, opts, g, np.int64(d % n), trace)
        while st[K.PHASE] != K.P_OVER and checked < 300:
            p = int(st[K.CUR])
            q = 1 - p
            unseen = int(K.unseen_by(st, p))
            known = int(K.rival_known(st, p, q))
            need = bin(int(st[K.HAND + q])).count("1") - bin(known).count("1")
            pool = [c for c in range(52) if unseen >> c & 1]
            if need <= 3:
                best = min((sum(_points(c) for c in cs) for cs in combinations(pool, need)), default=0)
                assert K.least_rival_count(st, p, np.int64(unseen)) == best + sum(
                    _points(c) for c in range(52) if known >> c & 1)
                checked += 1
            k = K.legal_actions(st, opts, acts)
            K.apply_action(st, opts, int(acts[K.choose(st, opts, acts, k, fuzz_sid, fuzz_prm, g)]), trace)
    assert checked > 50
