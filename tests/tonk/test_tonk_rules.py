"""Tonk rule scenarios on stacked positions: every worked example of tonk.md §12, the
option variants they mention, hitting and discarding rules (§4, §5, §8), the dry stock
(§6.4) and the deal-tonk frequencies of §3.3.

Seats: A = dealer = seat 0, B = seat 1 (left of A), C = seat 2, D = seat 3. S = 1.
"""
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np
import pytest

from cardsim.kernels import rng as R
from cardsim.kernels import tonk as K
from cardsim.sim.games.tonk import TonkOptions, _format_action
from cardsim.sim.notation import fmt_card, parse, parse_card, parse_mask

A, B, C, D = 0, 1, 2, 3
NO_TRACE = np.zeros((0, 4), np.int64)
KNOCK, DRAW, TAKE, END_DRY = K.A_KNOCK, K.A_DRAW_STOCK, K.A_DRAW_DISCARD, K.A_END_DRY


# =============================================================================
# helpers
# =============================================================================
def opts_for(n, **kw):
    return TonkOptions(**kw).to_array(n)


def lay(text):
    return K.A_LAY | (parse_mask(text) << 8)


def hit(card, owner, on_run=True):
    return K.A_HIT | (parse_card(card) << 8) | (owner << 16) | (int(on_run) << 20)


def discard(card):
    return K.A_DISCARD | (parse_card(card) << 8)


def position(opts, hands, *, cur, books=None, runs=None, pile="", stock="", stock_only=False):
    """A stacked position at the start of ``cur``'s turn (A = seat 0 deals).

    ``hands``/``books``/``runs``: {seat: cards}. ``pile``: discard pile, bottom first (top
    last). ``stock``: the top stock cards, top first. Every card not named goes to the
    bottom of the stock, or, with ``stock_only`` (the stock is exactly ``stock``; empty =
    dry), under the discard pile, so that all 52 cards are accounted for.
    """
    st = K.new_state(opts)
    K.reset_hand(st)
    st[K.DEALER] = A
    used = 0
    for field, spec in ((K.HAND, hands), (K.BOOK, books or {}), (K.RUN, runs or {})):
        for seat, text in spec.items():
            m = parse_mask(text)
            assert not used & m, f"card named twice: {text}"
            used |= m
            st[field + seat] |= m
    pile_cards, stock_cards = parse(pile), parse(stock)
    for c in pile_cards + stock_cards:
        assert not used >> c & 1, f"card named twice: {fmt_card(c)}"
        used |= 1 << c
    rest = [c for c in range(52) if not used >> c & 1]
    if stock_only:
        pile_cards = rest + pile_cards
    else:
        stock_cards = stock_cards + rest
    st[K.STOCK_PTR] = 52 - len(stock_cards)
    for i, c in enumerate(stock_cards):
        st[K.DECK + st[K.STOCK_PTR] + i] = c
    for i, c in enumerate(pile_cards):
        st[K.PILE + i] = c
    st[K.PILE_LEN] = len(pile_cards)
    st[K.CUR] = cur
    K.begin_turn(st, opts)
    assert K.check_invariants(st, opts) == 0
    return st


def legal(st, opts):
    acts = np.zeros(K.MAX_ACTS, np.int64)
    n = K.legal_actions(st, opts, acts)
    return [int(a) for a in acts[:n]]


def names(actions):
    return sorted(_format_action(a) for a in actions)


def play(st, opts, *actions):
    """Apply each action after checking that it is legal; invariants hold throughout."""
    for a in actions:
        acts = legal(st, opts)
        assert a in acts, f"{_format_action(a)} not legal; legal: {names(acts)}"
        K.apply_action(st, opts, a, NO_TRACE)
        assert K.check_invariants(st, opts) == 0


def kinds(acts, kind):
    return [a for a in acts if a & 15 == kind]


def payouts(st):
    return [int(st[K.PAY + p]) for p in range(st[K.N])]


def over(st, reason, pays, winner):
    assert st[K.PHASE] == K.P_OVER
    assert K.REASON_NAMES[st[K.REASON]] == K.REASON_NAMES[reason]
    assert payouts(st) == pays
    assert st[K.WINNER] == winner


def first_discard(st, opts):
    return kinds(legal(st, opts), K.A_DISCARD)[0]


# =============================================================================
# §12.1 / §12.2 deal-tonks (and §3.2, §3.3)
# =============================================================================
def _holders_of(opts, hands):
    st = K.new_state(opts)
    for seat, text in hands.items():
        st[K.HAND + seat] = parse_mask(text)
    return tuple(int(x) for x in K.deal_tonk_holders(st, opts))


def test_example1_deal_tonk_detection():
    """§12.1: B's K♠ Q♥ J♦ 10♣ 9♠ = 49 is the single deal-tonk; not under totals {50}."""
    hands = {A: "2C 3C 4D 5H 6S", B: "KS QH JD 10C 9S", C: "KH KD 9H 9D 9C"}
    assert _holders_of(opts_for(3), hands) == (1, B)
    assert _holders_of(opts_for(3, deal_tonk_totals=(50,)), hands)[0] == 0


def test_example2_double_deal_tonk_detection():
    """§12.2: B 10♠ J♠ Q♦ K♣ 10♥ (50) and C K♠ Q♠ J♥ 10♦ 9♣ (49): two holders."""
    hands = {A: "2C 3C 4D 5H 6S", B: "10S JS QD KC 10H", C: "KS QS JH 10D 9C"}
    assert _holders_of(opts_for(3), hands) == (2, C)
    assert _holders_of(opts_for(3, deal_tonk_totals=(50,)), hands) == (1, B)


N_FREQ = {2: 3_000_000, 3: 3_000_000, 4: 2_000_000}
SEED_FREQ = 20240611


@pytest.fixture(scope="module")
def deal_tonk_counts():
    """out[d] = deal-tonk hands in deal d (first_dealer A, so deal d is dealt by d % n)."""
    res = {}
    for n, count in N_FREQ.items():
        out = np.zeros(count, np.int64)
        K.deal_only_batch(SEED_FREQ, 0, count, opts_for(n, first_dealer=0), out)
        res[n] = out
    return res


def _replay_final(opts, deal):
    sids = np.zeros(K.MAX_PLAYERS, np.int64)
    params = np.zeros((K.MAX_PLAYERS, K.N_PARAMS))
    return K.replay_deal(SEED_FREQ, deal, opts, sids, params, True, NO_TRACE)


def test_example1_single_deal_tonk_settles(deal_tonk_counts):
    """§12.1 through the real deal: a deal where only B (dealer A) holds 49. Not played;
    A and C pay B 2 each; B deals the next record."""
    opts = opts_for(3, first_dealer=0)
    for d in np.flatnonzero(deal_tonk_counts[3] == 1)[:2000]:
        if d % 3:
            continue
        st = _replay_final(opts, int(d))
        if st[K.COUNT + B] == 49:
            break
    else:
        pytest.fail("no deal with B alone holding 49")
    assert st[K.DEALER] == A and st[K.TURNS] == 0 and st[K.ERR] == 0
    assert st[K.COUNT + A] not in (49, 50) and st[K.COUNT + C] not in (49, 50)
    over(st, K.R_DEAL_TONK, [-2, 4, -2], B)
    assert K.dealer_of(opts, SEED_FREQ, int(d) + 1) == B


def test_example2_double_deal_tonk_void(deal_tonk_counts):
    """§12.2 / §3.3: B and C both hold 49/50 (dealer A): void, no payments, B deals next;
    with tonk_tie_redeal_same_dealer A redeals inside the same record."""
    opts = opts_for(3, first_dealer=0)
    for d in np.flatnonzero(deal_tonk_counts[3] == 2):
        if d % 3:
            continue
        st = _replay_final(opts, int(d))
        if st[K.COUNT + B] in (49, 50) and st[K.COUNT + C] in (49, 50):
            break
    else:
        pytest.fail("no void deal with B and C holding 49/50")
    over(st, K.R_VOID, [0, 0, 0], -1)
    assert st[K.TURNS] == 0 and st[K.TRUNC] == 0 and st[K.REDEALS] == 0
    assert K.dealer_of(opts, SEED_FREQ, int(d) + 1) == B

    same = opts_for(3, first_dealer=0, tonk_tie_redeal_same_dealer=True)
    st2 = _replay_final(same, int(d))
    assert st2[K.REDEALS] >= 1 and st2[K.DEALER] == A and st2[K.ERR] == 0
    assert st2[K.REASON] != K.R_VOID and sum(payouts(st2)) == 0


def _exact(n, totals):
    """Exact P(0), P(1), P(>=2) deal-tonks by hand compositions (tens, nines, others)."""
    comps = [(t, m, 5 - t - m) for t in range(6) for m in range(6 - t)]

    def qualifies(t, m):
        return (t == 5 and 50 in totals) or (t == 4 and m == 1 and 49 in totals)

    @lru_cache(None)
    def ways(k, tens, nines, others):
        if k == 0:
            return {0: 1}
        res = {}
        for t, m, o in comps:
            w = comb(tens, t) * comb(nines, m) * comb(others, o)
            if w:
                for q, ww in ways(k - 1, tens - t, nines - m, others - o).items():
                    key = q + qualifies(t, m)
                    res[key] = res.get(key, 0) + w * ww
        return res

    w = ways(n, 16, 4, 32)
    total = sum(w.values())
    p0, p1 = Fraction(w.get(0, 0), total), Fraction(w.get(1, 0), total)
    return float(p0), float(p1), float(1 - p0 - p1)


TABLE_3_3 = {2: (0.99104253, 0.00895136, 0.00000611),
             3: (0.98657295, 0.01340872, 0.00001833),
             4: (0.98210949, 0.01785386, 0.00003665)}


def test_frequency_table_is_exact():
    """The §3.3 table agrees with an exact count; one hand: 11,648 / C(52,5)."""
    assert comb(16, 5) + comb(16, 4) * 4 == 11648
    for n, row in TABLE_3_3.items():
        assert _exact(n, (49, 50)) == pytest.approx(row, abs=6e-9)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_tonk_frequencies(deal_tonk_counts, n):
    """§3.3: P(none), P(exactly one), P(two or more) within 4.5 standard errors."""
    out = deal_tonk_counts[n]
    k = len(out)
    got = ((out == 0).mean(), (out == 1).mean(), (out >= 2).mean())
    for p_hat, p in zip(got, TABLE_3_3[n]):
        se = np.sqrt(p * (1 - p) / k)
        assert abs(p_hat - p) < 4.5 * se, (n, got, TABLE_3_3[n])
    assert out.max() <= n


@pytest.mark.parametrize("n", [2, 4])
def test_deal_tonk_totals_50_only(n):
    """deal_tonk_totals=(50,): each hand qualifies with prob C(16,5)/C(52,5) (lower rate)."""
    k = 2_000_000
    out = np.zeros(k, np.int64)
    K.deal_only_batch(SEED_FREQ + 1, 0, k, opts_for(n, deal_tonk_totals=(50,)), out)
    p_hand = comb(16, 5) / comb(52, 5)
    mean, se = out.mean(), out.std() / np.sqrt(k)
    assert abs(mean - n * p_hand) < 4.5 * se
    _, p1, _ = _exact(n, (50,))
    assert abs((out == 1).mean() - p1) < 4.5 * np.sqrt(p1 * (1 - p1) / k)
    assert p1 < TABLE_3_3[n][1] / 2


# =============================================================================
# §12.3 - §12.5 going out
# =============================================================================
@pytest.mark.parametrize("new_spread_rule", [False, True])
def test_example3_tonk_out_with_new_spreads(new_spread_rule):
    """§12.3: B 4♣ 5♣ 6♣ 8♥ 8♠ draws 8♦, lays ♣4-5-6 and 8-8-8: 2 from A and C either way."""
    opts = opts_for(3, tonk_out_requires_new_spread=new_spread_rule)
    st = position(opts, {A: "2D 3D 9S", B: "4C 5C 6C 8H 8S", C: "KH QC"}, cur=B, stock="8D")
    play(st, opts, DRAW, lay("4C 5C 6C"))
    assert st[K.PHASE] == K.P_MELD and st[K.HAND + B] == parse_mask("8H 8S 8D")
    play(st, opts, lay("8H 8S 8D"))
    over(st, K.R_TONK_OUT, [-2, 4, -2], B)


@pytest.mark.parametrize("new_spread_rule, each, reason", [(False, 2, K.R_TONK_OUT), (True, 1, K.R_HIT_OUT)])
def test_example4_out_by_hitting_only(new_spread_rule, each, reason):
    """§12.4: table ♥5-6-7 (A) and Q♠Q♥Q♦ (C); B ♥4 ♥9 draws ♥8, hits 8, 9 high and 4 low.
    2 each (tonk_out) by default, 1 each (hit_out) under tonk_out_requires_new_spread."""
    opts = opts_for(3, tonk_out_requires_new_spread=new_spread_rule)
    st = position(opts, {A: "2D 3D", B: "4H 9H", C: "KC"},
                  runs={A: "5H 6H 7H"}, books={C: "QS QH QD"}, cur=B, stock="8H")
    play(st, opts, DRAW)
    hits = kinds(legal(st, opts), K.A_HIT)
    assert sorted(hits) == sorted([hit("4H", A), hit("8H", A)])   # 9H not yet adjacent
    play(st, opts, hit("8H", A), hit("9H", A), hit("4H", A))
    over(st, reason, [-each, 2 * each, -each], B)


def test_example5_out_by_discard():
    """§12.5: run ♠9-10-J; C 7♠ J♦ draws 8♠, hits 8♠ and 7♠, discards J♦: 1 from A and B."""
    opts = opts_for(3)
    st = position(opts, {A: "2D 3D", B: "4H 9H", C: "7S JD"}, runs={A: "9S 10S JS"},
                  cur=C, stock="8S")
    play(st, opts, DRAW, hit("8S", A), hit("7S", A), discard("JD"))
    over(st, K.R_OUT, [-1, -1, 2], C)


# =============================================================================
# §12.6 - §12.8 knocks
# =============================================================================
def test_example6_successful_knock():
    """§12.6: A 3♠ 2♥ (5), B 4♦ 5♣ (9), C 6♠ 9♦ (15); A knocks: B and C pay 1."""
    opts = opts_for(3)
    st = position(opts, {A: "3S 2H", B: "4D 5C", C: "6S 9D"}, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_WON, [2, -1, -1], A)
    assert st[K.KNOCKER] == A
    assert [st[K.COUNT + p] for p in range(3)] == [5, 9, 15]


EX7 = {A: "5C 3D", B: "4S 2H", C: "6D 2C"}          # counts 8, 6, 8


@pytest.mark.parametrize("bonus, pays, winner", [
    ("all_others", [-4, 3, 1], B),
    ("above_knocker_only", [-4, 2, 2], -1),      # C's 8 is not above the knocker's 8
    ("none", [-4, 2, 2], -1),
])
def test_example7_caught_one_lower(bonus, pays, winner):
    """§12.7: A knocks with 8, B 6, C 8: A pays 2 to B and C; L = {B}; C pays B 1 (seed)."""
    opts = opts_for(3, caught_lowest_bonus=bonus)
    st = position(opts, EX7, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_CAUGHT, pays, winner)
    assert st[K.KNOCKER] == A


def test_example7_two_player_tie_caught():
    """§12.7: two players, A knocks with 7 and B has 7: A is caught, pays B 2, nothing else."""
    for bonus in ("all_others", "above_knocker_only", "none"):
        opts = opts_for(2, caught_lowest_bonus=bonus)
        st = position(opts, {A: "4C 3D", B: "5S 2H"}, cur=A)
        play(st, opts, KNOCK)
        over(st, K.R_KNOCK_CAUGHT, [-2, 2], B)


EX8 = {A: "5C 7D", B: "2S 3H", C: "4D AC", D: "KS QH"}     # counts 12, 5, 5, 20


@pytest.mark.parametrize("bonus, pays", [
    ("all_others", [-4, 3, 3, -2]),
    ("above_knocker_only", [-4, 3, 3, -2]),       # D's 20 > 12: D still pays L
    ("none", [-4, 2, 2, 0]),
])
def test_example8_caught_tie_for_lowest(bonus, pays):
    """§12.8: 4 players, A knocks 12; B 5, C 5, D 20. L = {B, C}: D pays 1 to each (seed)."""
    opts = opts_for(4, caught_lowest_bonus=bonus)
    st = position(opts, EX8, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_CAUGHT, pays, -1)


def test_above_knocker_only_excludes_equal_count_payer():
    """§6.3(b) above_knocker_only: with A 8, B 6, C 8, D 9 only D (9 > 8) pays L = {B}."""
    hands = {A: "5C 3D", B: "4S 2H", C: "6D 2C", D: "9C"}
    opts = opts_for(4, caught_lowest_bonus="above_knocker_only")
    st = position(opts, hands, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_CAUGHT, [-4, 3, 2, -1], B)
    opts = opts_for(4)
    st = position(opts, hands, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_CAUGHT, [-4, 4, 1, -1], B)


def test_caught_everyone_tied():
    """§6.3: A knocks 8 and B, C also hold 8: A pays 2 to both; L = {B, C} pay nobody."""
    opts = opts_for(3)
    st = position(opts, {A: "5C 3D", B: "6S 2H", C: "6D 2C"}, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_CAUGHT, [-4, 2, 2], -1)


def test_caught_knocker_also_pays_base():
    """§6.3 caught_knocker_also_pays_base: the knocker also pays S to each real lowest."""
    opts = opts_for(3, caught_knocker_also_pays_base=True)
    st = position(opts, EX7, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_CAUGHT, [-5, 4, 1], B)
    opts = opts_for(4, caught_knocker_also_pays_base=True)
    st = position(opts, EX8, cur=A)
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_CAUGHT, [-6, 4, 4, -2], -1)


def test_knock_allowed_on_first_turn_and_with_dry_stock():
    """§5.1: knocking is allowed on any turn, including with the stock empty."""
    opts = opts_for(2)
    st = position(opts, {A: "AC 2D", B: "KS QH"}, cur=A, stock_only=True)
    acts = legal(st, opts)
    assert sorted(acts) == sorted([KNOCK, TAKE, END_DRY])
    play(st, opts, KNOCK)
    over(st, K.R_KNOCK_WON, [1, -1], A)


# =============================================================================
# §12.9 stock exhausted
# =============================================================================
def _dry_example(n, hand_a, hand_b, hand_c=None, **kw):
    """A draws the last stock card 2♣ and discards K♥; B ends the hand (declines K♥)."""
    opts = opts_for(n, **kw)
    hands = {A: hand_a + " KH", B: hand_b}
    if hand_c:
        hands[C] = hand_c
    st = position(opts, hands, cur=A, stock="2C", stock_only=True)
    play(st, opts, DRAW, discard("KH"))
    assert st[K.CUR] == B and st[K.STOCK_PTR] == 52
    assert sorted(legal(st, opts)) == sorted([KNOCK, TAKE, END_DRY])      # no draw_stock
    assert K.pile_top(st) == parse_card("KH")
    play(st, opts, END_DRY)
    assert st[K.TRUNC] == 0
    return st


def test_example9_dry_lowest_collects():
    """§12.9: counts A 4, B 9: B pays A 1."""
    st = _dry_example(2, "AC AD", "4S 5D")
    over(st, K.R_DRY, [1, -1], A)
    assert [st[K.COUNT + p] for p in range(2)] == [4, 9]


@pytest.mark.parametrize("rule", ["each_tied_collects", "void"])
def test_example9_dry_two_player_tie(rule):
    """§12.9: A 6, B 6 with two players: no payment under either tie rule."""
    st = _dry_example(2, "AC 3D", "4S 2S", dry_tie_rule=rule)
    over(st, K.R_DRY, [0, 0], -1)
    assert [st[K.COUNT + p] for p in range(2)] == [6, 6]


@pytest.mark.parametrize("rule, pays", [("each_tied_collects", [1, 1, -2]), ("void", [0, 0, 0])])
def test_example9_dry_three_player_tie(rule, pays):
    """§12.9: A 6, B 6, C 9: C pays 1 to A and 1 to B (dry_tie_rule=void: nothing)."""
    st = _dry_example(3, "AC 3D", "4S 2S", "4D 5S", dry_tie_rule=rule)
    over(st, K.R_DRY, pays, -1)


def test_dry_void_rule_keeps_single_lowest():
    """dry_tie_rule=void only voids ties: a single lowest still collects."""
    st = _dry_example(3, "AC AD", "4S 5D", "KD", dry_tie_rule="void")
    over(st, K.R_DRY, [2, -1, -1], A)


def _take_and_discard_until_over(st, opts, limit=200):
    played = 0
    while st[K.PHASE] != K.P_OVER and played < limit:
        play(st, opts, TAKE)
        play(st, opts, first_discard(st, opts))
        played += 1
    return played


@pytest.mark.parametrize("cap, n", [(2, 2), (None, 2), (None, 3), (5, 3)])
def test_dry_loop_guard(cap, n):
    """§6.4 loop guard: after max_turns_after_stock_empty (default 10 n) turns with an empty
    stock the hand ends as if the next player chose end_dry; flagged truncated."""
    opts = opts_for(n, max_turns_after_stock_empty=cap)
    hands = {A: "3C 6D 10H", B: "2C 5D 9H", C: "4C 7D JH"}
    st = position(opts, {p: hands[p] for p in range(n)}, cur=B, pile="KS", stock_only=True)
    played = _take_and_discard_until_over(st, opts)
    assert played == (cap or 10 * n)
    counts = [K.hand_count(st[K.HAND + p]) for p in range(n)]
    lo = min(counts)
    assert st[K.TRUNC] == 1 and st[K.REASON] == K.R_DRY
    if counts.count(lo) == 1:
        assert payouts(st)[counts.index(lo)] == n - 1
    assert sum(payouts(st)) == 0


def test_turn_cap_settles_as_dry_and_truncates():
    """Kernel cap max_turns: the hand is settled like a dry stock, reason turn_cap."""
    opts = opts_for(2, max_turns=3)
    st = position(opts, {A: "AC 2D 4H", B: "KS QH JD"}, cur=B, stock="9C 9D 9H 9S")
    for _ in range(3):
        assert st[K.PHASE] == K.P_START
        drawn = fmt_card(st[K.DECK + st[K.STOCK_PTR]])
        play(st, opts, DRAW, discard(drawn))
    # turn 4 would start: the cap ends the hand; A's 7 is lowest
    over(st, K.R_TURN_CAP, [1, -1], A)
    assert st[K.TRUNC] == 1


# =============================================================================
# §12.10 must_spread
# =============================================================================
@pytest.mark.parametrize("exception", [True, False])
def test_example10_must_spread_three_aces(exception):
    """§12.10 / §8.2: after drawing, B A♠ A♥ A♦ 7♣ K♦ may end the meld phase (discard)
    keeping the aces, unless three_aces_exception is off."""
    opts = opts_for(3, must_spread=True, three_aces_exception=exception)
    st = position(opts, {A: "2D", B: "AS AH 7C KD", C: "3D"}, cur=B, stock="AD")
    play(st, opts, DRAW)
    acts = legal(st, opts)
    assert lay("AS AH AD") in acts
    assert bool(kinds(acts, K.A_DISCARD)) == exception


def test_example10_must_spread_four_aces_exempt():
    """§8.2 DECISION: the exception covers four aces too."""
    opts = opts_for(3, must_spread=True)
    st = position(opts, {A: "2D", B: "AS AH AC KD", C: "3D"}, cur=B, stock="AD")
    play(st, opts, DRAW)
    assert len(kinds(legal(st, opts), K.A_DISCARD)) == 5


def test_example10_must_spread_run_with_ace_not_exempt():
    """§12.10: B A♠ 2♠ 3♠ 9♥ K♦ must lay the run before discarding."""
    opts = opts_for(3, must_spread=True)
    st = position(opts, {A: "2D", B: "AS 2S 9H KD", C: "3D"}, cur=B, stock="3S")
    play(st, opts, DRAW)
    acts = legal(st, opts)
    assert kinds(acts, K.A_DISCARD) == [] and acts == [lay("AS 2S 3S")]
    play(st, opts, lay("AS 2S 3S"))
    assert sorted(kinds(legal(st, opts), K.A_DISCARD)) == sorted([discard("9H"), discard("KD")])
    # without the variant the run may be kept
    opts = opts_for(3)
    st = position(opts, {A: "2D", B: "AS 2S 9H KD", C: "3D"}, cur=B, stock="3S")
    play(st, opts, DRAW)
    assert len(kinds(legal(st, opts), K.A_DISCARD)) == 5


def test_must_spread_knock_allowed_with_spread_in_hand():
    """§8.2 DECISION / §11.17: the rule is checked at end_meld only; knocking is allowed."""
    opts = opts_for(3, must_spread=True)
    st = position(opts, {A: "2D", B: "AS 2S 3S 9H KD", C: "3D"}, cur=B)
    assert KNOCK in legal(st, opts)


# =============================================================================
# §4 hitting
# =============================================================================
HIT_CASES = {
    "book of 3 accepts the 4th": (
        {"books": {C: "7C 7D 7H"}}, "7S 8S KD", [("7S", C, False)]),
    "book of 4 accepts nothing, not a run": (
        {"books": {A: "7C 7D 7H 7S"}}, "6S 8S 6C 8C", []),
    "7S in a book does not let 6S/8S hit": (
        {"books": {A: "7S 7D 7H"}}, "6S 8S 7C", [("7C", A, False)]),
    "run accepts its ends only": (
        {"runs": {A: "4H 5H 6H"}}, "3H 7H 8H 2H", [("3H", A, True), ("7H", A, True)]),
    "ace low, no wrap": (
        {"runs": {A: "AS 2S 3S", C: "JD QD KD"}}, "KS 4S AD 10D",
        [("4S", A, True), ("10D", C, True)]),
    "a card may fit two runs": (
        {"runs": {A: "3C 4C 5C", C: "7C 8C 9C"}}, "6C 2C 10C",
        [("6C", A, True), ("6C", C, True), ("2C", A, True), ("10C", C, True)]),
    "own spreads can be hit": (
        {"runs": {B: "9D 10D JD"}, "books": {A: "5C 5D 5H"}}, "8D QD 5S",
        [("8D", B, True), ("QD", B, True), ("5S", A, False)]),
}


@pytest.mark.parametrize("case", list(HIT_CASES))
def test_hit_legality(case):
    """§4: exactly the expected hits are offered (filler 2♦ drawn from the stock)."""
    table, hand, want = HIT_CASES[case]
    opts = opts_for(3)
    st = position(opts, {B: hand}, cur=B, stock="2D", **table)
    play(st, opts, DRAW)
    got = kinds(legal(st, opts), K.A_HIT)
    assert names(got) == names([hit(*w) for w in want])
    for a in got:                                   # each offered hit really applies
        s2 = st.copy()
        K.apply_action(s2, opts, a, NO_TRACE)
        assert K.check_invariants(s2, opts) == 0


def test_hits_extend_the_right_spread():
    """§4: a book hit stays a book (7♠ on 7♣7♦7♥ does not open 6♠), a run hit extends the
    run (7♠ on ♠4-5-6 opens 8♠); the card lands in the owner's spread."""
    opts = opts_for(3)
    st = position(opts, {B: "7S 6S"}, books={C: "7C 7D 7H"}, cur=B, stock="2D")
    play(st, opts, DRAW, hit("7S", C, False))
    assert st[K.BOOK + C] == parse_mask("7C 7D 7H 7S") and st[K.RUN + C] == 0
    assert kinds(legal(st, opts), K.A_HIT) == []
    st = position(opts, {B: "7S 8S"}, runs={A: "4S 5S 6S"}, cur=B, stock="2D")
    play(st, opts, DRAW)
    assert kinds(legal(st, opts), K.A_HIT) == [hit("7S", A)]
    play(st, opts, hit("7S", A))
    assert st[K.RUN + A] == parse_mask("4S 5S 6S 7S")
    assert kinds(legal(st, opts), K.A_HIT) == [hit("8S", A)]


def test_hit_own_spreads_only():
    """§4 hit_own_spreads_only: B may hit his own run but not A's."""
    hands = {A: "2C", B: "7H 8C KS", C: "3C"}
    runs = {B: "4H 5H 6H", A: "9C 10C JC"}
    for own_only, want in ((False, [("7H", B), ("8C", A)]), (True, [("7H", B)])):
        opts = opts_for(3, hit_own_spreads_only=own_only)
        st = position(opts, hands, runs=runs, cur=B, stock="2D")
        play(st, opts, DRAW)
        assert names(kinds(legal(st, opts), K.A_HIT)) == names([hit(*w) for w in want])


@pytest.mark.parametrize("cap", [0, 1, None])
def test_max_hits_per_turn(cap):
    """§8.5 max_hits_per_turn: after ``cap`` hits no more hits are offered this turn."""
    opts = opts_for(3, max_hits_per_turn=cap)
    st = position(opts, {B: "3H 7H KC"}, runs={A: "4H 5H 6H"}, cur=B, stock="2D")
    play(st, opts, DRAW)
    hits = kinds(legal(st, opts), K.A_HIT)
    if cap == 0:
        assert hits == []
        return
    play(st, opts, hit("7H", A))
    hits = kinds(legal(st, opts), K.A_HIT)
    assert (hits == []) == (cap == 1)
    assert kinds(legal(st, opts), K.A_DISCARD)


# =============================================================================
# §5 discards, §8.4 and §8.6 house rules
# =============================================================================
@pytest.mark.parametrize("allow", [False, True])
def test_rediscard_of_taken_card(allow):
    """§5 DECISION: the card just taken from the pile may not be discarded again
    (unless allow_rediscard_of_taken_card)."""
    opts = opts_for(3, allow_rediscard_of_taken_card=allow)
    st = position(opts, {B: "4C 4D 4H 9D"}, cur=B, pile="KS")
    play(st, opts, TAKE)
    assert st[K.TAKEN] == parse_card("KS")
    assert (discard("KS") in legal(st, opts)) == allow
    assert discard("9D") in legal(st, opts)
    play(st, opts, lay("4C 4D 4H"))
    assert (discard("KS") in legal(st, opts)) == allow


def test_rediscard_allowed_when_last_card():
    """§5: the taken card may be discarded when it is the only card left -> out by discard."""
    opts = opts_for(3)
    st = position(opts, {A: "2D", B: "4C 4D 4H", C: "3D"}, cur=B, pile="KS")
    play(st, opts, TAKE, lay("4C 4D 4H"))
    assert legal(st, opts) == [discard("KS")]
    play(st, opts, discard("KS"))
    over(st, K.R_OUT, [-1, 2, -1], B)


def test_discard_pickup_must_be_used():
    """§8.6: the discard may be taken only if usable now, and must be used before discarding."""
    opts = opts_for(3, discard_pickup_must_be_used=True)
    st = position(opts, {B: "2C 5D 8H 9C"}, cur=B, pile="KS")
    assert sorted(legal(st, opts)) == sorted([KNOCK, DRAW])
    st = position(opts_for(3), {B: "2C 5D 8H 9C"}, cur=B, pile="KS")
    assert TAKE in legal(st, opts_for(3))

    st = position(opts, {B: "KC KD KH 8H"}, cur=B, pile="KS")
    play(st, opts, TAKE)
    assert names(legal(st, opts)) == names([lay("KC KD KS"), lay("KC KH KS"), lay("KD KH KS"),
                                           lay("KC KD KH KS")])
    play(st, opts, lay("KC KD KS"))
    assert sorted(kinds(legal(st, opts), K.A_DISCARD)) == sorted([discard("KH"), discard("8H")])

    st = position(opts, {B: "2C 9D"}, runs={A: "4H 5H 6H"}, cur=B, pile="7H")
    play(st, opts, TAKE)
    assert legal(st, opts) == [hit("7H", A)]
    play(st, opts, hit("7H", A))
    assert sorted(legal(st, opts)) == sorted([discard("2C"), discard("9D")])


def test_pickup_rule_respects_max_hits_and_own_only():
    """§8.6 with §8.5 / §4: a hit that is not allowed does not make the discard usable."""
    for kw in ({"max_hits_per_turn": 0}, {"hit_own_spreads_only": True}):
        opts = opts_for(3, discard_pickup_must_be_used=True, **kw)
        st = position(opts, {B: "2C 9D"}, runs={A: "4H 5H 6H"}, cur=B, pile="7H")
        assert TAKE not in legal(st, opts)


def _draw_and_discard(st, opts):
    play(st, opts, DRAW)
    play(st, opts, first_discard(st, opts))


@pytest.mark.parametrize("rule", [False, True])
def test_hit_blocks_drop(rule):
    """§8.4 hit_blocks_drop: B hits A's run; A may not knock at his next turn only."""
    opts = opts_for(3, hit_blocks_drop=rule)
    st = position(opts, {A: "2C 3D 5S", B: "7H 2D 9C KS", C: "3C 4D 8S"},
                  runs={A: "4H 5H 6H", B: "9S 10S JS"}, cur=B)
    play(st, opts, DRAW, hit("7H", A))
    play(st, opts, first_discard(st, opts))
    assert st[K.CUR] == C and KNOCK in legal(st, opts)
    _draw_and_discard(st, opts)
    assert st[K.CUR] == A
    assert (KNOCK in legal(st, opts)) == (not rule)
    assert DRAW in legal(st, opts)
    _draw_and_discard(st, opts)
    assert st[K.CUR] == B and KNOCK in legal(st, opts)
    _draw_and_discard(st, opts)
    _draw_and_discard(st, opts)
    assert st[K.CUR] == A and KNOCK in legal(st, opts)        # blocked for one turn only


def test_hit_own_spread_does_not_block():
    """§8.4: only a hit by another player blocks the owner."""
    opts = opts_for(3, hit_blocks_drop=True)
    st = position(opts, {A: "2C 3D 5S", B: "QS 2D 9C KS", C: "3C 4D 8S"},
                  runs={B: "9S 10S JS"}, cur=B)
    play(st, opts, DRAW, hit("QS", B))
    play(st, opts, first_discard(st, opts))
    _draw_and_discard(st, opts)
    _draw_and_discard(st, opts)
    assert st[K.CUR] == B and KNOCK in legal(st, opts)


# =============================================================================
# stakes, the deal, first turn
# =============================================================================
def test_stake_multiplies_payouts():
    """§1: every payment is S or 2S."""
    s = 3
    opts = opts_for(3, stake=s)
    st = position(opts, {A: "3S 2H", B: "4D 5C", C: "6S 9D"}, cur=A)
    play(st, opts, KNOCK)
    assert payouts(st) == [2 * s, -s, -s]
    st = position(opts, EX7, cur=A)
    play(st, opts, KNOCK)
    assert payouts(st) == [-4 * s, 3 * s, s]
    st = position(opts, {A: "2D 3D 9S", B: "4C 5C 6C 8H 8S", C: "KH QC"}, cur=B, stock="8D")
    play(st, opts, DRAW, lay("4C 5C 6C"), lay("8H 8S 8D"))
    assert payouts(st) == [-2 * s, 4 * s, -2 * s]
    st = _dry_example(3, "AC 3D", "4S 2S", "4D 5S", stake=s)
    assert payouts(st) == [s, s, -2 * s]


def _real_deals(opts, n, want=6):
    """States after start_deal for the first few deals that are not deal-tonks."""
    found = []
    for d in range(200):
        st = K.new_state(opts)
        gen = R.new_stream(77, d, R.STREAM_DECK)
        K.start_deal(st, opts, gen, d % n, NO_TRACE)
        if st[K.PHASE] != K.P_OVER:
            found.append((d % n, st))
        if len(found) == want:
            return found
    raise AssertionError("too many deal-tonks")


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("upcard", [True, False])
def test_deal_and_initial_upcard(n, upcard):
    """§3.1: five cards each from the dealer's left; upcard unless initial_upcard=False, in
    which case the first player (dealer's left) cannot draw the discard."""
    opts = opts_for(n, initial_upcard=upcard)
    for dealer, st in _real_deals(opts, n):
        for i in range(5 * n):
            seat = (dealer + 1 + i) % n
            assert st[K.HAND + seat] >> st[K.DECK + i] & 1
        assert all(bin(int(st[K.HAND + p])).count("1") == 5 for p in range(n))
        assert st[K.CUR] == (dealer + 1) % n and st[K.TURNS] == 1
        assert 52 - st[K.STOCK_PTR] == 52 - 5 * n - int(upcard)
        assert st[K.PILE_LEN] == int(upcard)
        want = [KNOCK, DRAW] + ([TAKE] if upcard else [])
        assert sorted(legal(st, opts)) == sorted(want)
        assert K.check_invariants(st, opts) == 0
