"""Tripoli's built-in strategies (``choose``): ``random``, the heuristic, ``fuzz`` and the expert
(issue 41), with the poker strength tables the heuristic's and the expert's betting read.
"""
import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below, uniform
from cardsim.kernels.tripoli.layout import (
    ACTED, AU_KIND, AU_SUIT, AU_WIDOW, A_BET, A_PICK, A_RAISE, BETS, BET_CTX, BET_EPS, BOARD, B_BET, B_CALL,
    B_CHECK, B_FOLD, B_RAISE, CALL_PRICE, CL_POT, COLOR, CONTRIB, CUR, CUR_BET, DEALER, FOLDED, FOLD_PRICE, HAND,
    LOW13, N, PAY_SUIT, PHASE, PICK, PLAYED, PR_AUCTION_WIDOW, PR_BET_AT, PR_BET_FRAC, PR_BET_SIZE, PR_BID_MAX,
    PR_BID_OLD_MAX, PR_BLUFF, PR_BLUFF_SIZE, PR_CALL_AT, PR_CALL_MARGIN, PR_CALL_RANGE, PR_FEED_SHOWN,
    PR_HIDE_MARGIN, PR_KEEP_ENTRY, PR_LEAD_CHANCE, PR_LEAD_PLAN, PR_ODDS_WEIGHT, PR_OPP_SHIFT, PR_OWN_LOW,
    PR_PAY_WEIGHT, PR_POS_SHIFT, PR_RAISE_AT, PR_RAISE_EQ, PR_RAISE_RANGE, PR_RUN_WEIGHT, PR_SELL_OLD,
    PR_SIZE_SHIFT, PR_STOP_BONUS, PR_SUIT_BID_MAX, PR_SWAP_BELOW, PR_VALUE_EQ, PR_WIDOW_STOPS, P_AFTER_SWAP,
    P_AFTER_UNSOLD, P_AUCTION, P_BET, P_SELECT, P_SUIT, P_WIDOW, RUN_OPEN, RUN_OUT, RUN_STOP, SEQ, SP_KQ, SP_POT,
    SP_SEQ, S_EXPERT, S_FUZZ, S_RANDOM, WIDOW,
)
from cardsim.kernels.tripoli.actions import action_arg, action_kind
from cardsim.kernels.tripoli.rules import (
    ah_rank, bet_hand, card_at, lowest_in, max_amount, next_card, pay_card, seq_suits, suit_ah,
)
from cardsim.kernels.tripoli.view import known_widow, public_cards, shown_of


# mean poker strength (``strength``: category + place in it) of the best 5 of h random cards,
# h = 0..18 (h < 5 as 5); 100,000 random holdings per size. The heuristic's betting thresholds
# are set for opponents holding 9 cards and move with this curve (``PR_SIZE_SHIFT``).
TYPICAL_STRENGTH = (1.12, 1.12, 1.12, 1.12, 1.12, 1.12, 1.55, 2.10, 2.78, 3.51, 4.26, 4.90, 5.43,
                    5.84, 6.14, 6.37, 6.54, 6.69, 6.83)
REF_CARDS = 9
# quantiles (0 %, 2 %, .., 100 %) of the poker strength (``strength``) of the best 5 of h random
# cards, one row per h = 5..18 (``python scripts/studies/tripoli_strength_table.py``, 200,000 holdings a
# size). The expert's betting reads from it the chance that an opponent holding h cards is weaker.
STRENGTH_QUANTILES = np.array((
    # 5 cards
    (0, 0.038, 0.079, 0.117, 0.157, 0.197, 0.238, 0.278, 0.318, 0.358, 0.398, 0.439, 0.478, 0.517,
     0.557, 0.597, 0.637, 0.677, 0.717, 0.756, 0.796, 0.837, 0.877, 0.917, 0.957, 0.997, 1.042,
     1.091, 1.138, 1.186, 1.233, 1.28, 1.328, 1.375, 1.423, 1.47, 1.516, 1.564, 1.612, 1.658, 1.705,
     1.753, 1.8, 1.848, 1.896, 1.944, 1.991, 2.339, 2.769, 3.407, 8.7),
    # 6 cards
    (0.009, 0.137, 0.218, 0.29, 0.35, 0.436, 0.496, 0.547, 0.595, 0.659, 0.727, 0.776, 0.834, 0.868,
     0.926, 0.962, 0.993, 1.04, 1.075, 1.126, 1.162, 1.207, 1.249, 1.288, 1.334, 1.373, 1.42, 1.455,
     1.502, 1.535, 1.585, 1.615, 1.668, 1.709, 1.749, 1.795, 1.833, 1.875, 1.915, 1.962, 1.996,
     2.135, 2.298, 2.459, 2.625, 2.781, 2.945, 3.364, 3.907, 4.9, 8.9),
    # 7 cards
    (0.038, 0.329, 0.489, 0.58, 0.695, 0.815, 0.868, 0.948, 0.987, 1.034, 1.072, 1.126, 1.153,
     1.211, 1.259, 1.3, 1.354, 1.384, 1.441, 1.488, 1.531, 1.58, 1.614, 1.671, 1.715, 1.761, 1.81,
     1.844, 1.9, 1.942, 1.99, 2.044, 2.136, 2.224, 2.307, 2.393, 2.473, 2.562, 2.652, 2.73, 2.817,
     2.901, 2.979, 3.29, 3.689, 4, 4.5, 4.9, 5.614, 6.308, 8.9),
    # 8 cards
    (0.094, 0.607, 0.869, 0.987, 1.054, 1.118, 1.153, 1.23, 1.303, 1.377, 1.441, 1.512, 1.567,
     1.615, 1.688, 1.762, 1.826, 1.888, 1.923, 1.998, 2.057, 2.125, 2.189, 2.253, 2.307, 2.371,
     2.434, 2.495, 2.549, 2.601, 2.664, 2.716, 2.777, 2.828, 2.882, 2.935, 2.985, 3.228, 3.614, 4,
     4.2, 4.4, 4.7, 4.9, 5.168, 5.47, 5.768, 6.071, 6.404, 6.737, 8.9),
    # 9 cards
    (0.291, 1.042, 1.152, 1.288, 1.384, 1.535, 1.67, 1.769, 1.903, 1.999, 2.071, 2.136, 2.191,
     2.255, 2.317, 2.368, 2.422, 2.472, 2.524, 2.573, 2.627, 2.676, 2.716, 2.768, 2.815, 2.845,
     2.908, 2.948, 2.985, 3.205, 3.689, 4, 4.1, 4.3, 4.4, 4.6, 4.7, 4.9, 5.051, 5.221, 5.382, 5.543,
     5.706, 5.864, 6.019, 6.199, 6.372, 6.551, 6.724, 6.897, 8.9),
    # 10 cards
    (0.586, 1.378, 1.765, 2.024, 2.126, 2.204, 2.268, 2.345, 2.42, 2.46, 2.536, 2.575, 2.64, 2.689,
     2.74, 2.793, 2.83, 2.871, 2.934, 2.971, 2.998, 3.612, 4, 4.1, 4.3, 4.4, 4.5, 4.6, 4.7, 4.9,
     4.9, 5.073, 5.183, 5.29, 5.401, 5.507, 5.604, 5.709, 5.812, 5.912, 6, 6.115, 6.224, 6.34,
     6.442, 6.558, 6.66, 6.763, 6.872, 6.974, 8.9),
    # 11 cards
    (0.999, 2.127, 2.267, 2.371, 2.46, 2.562, 2.65, 2.702, 2.79, 2.831, 2.896, 2.958, 2.986, 3.998,
     4.1, 4.2, 4.3, 4.4, 4.6, 4.7, 4.8, 4.9, 4.9, 5.069, 5.156, 5.237, 5.317, 5.396, 5.478, 5.552,
     5.623, 5.706, 5.78, 5.854, 5.924, 5.987, 6.064, 6.141, 6.218, 6.295, 6.372, 6.449, 6.519,
     6.596, 6.667, 6.737, 6.808, 6.878, 6.942, 7.141, 8.9),
    # 12 cards
    (1.077, 2.408, 2.573, 2.691, 2.819, 2.932, 2.986, 4, 4.2, 4.3, 4.4, 4.6, 4.7, 4.9, 4.9, 5.027,
     5.105, 5.179, 5.252, 5.32, 5.385, 5.453, 5.516, 5.579, 5.637, 5.702, 5.764, 5.823, 5.875,
     5.934, 5.986, 6.051, 6.115, 6.167, 6.224, 6.288, 6.353, 6.404, 6.455, 6.519, 6.577, 6.622,
     6.679, 6.737, 6.788, 6.833, 6.891, 6.942, 6.987, 7.609, 8.9),
    # 13 cards
    (2.012, 2.691, 2.946, 4, 4.2, 4.5, 4.7, 4.9, 4.9, 5.058, 5.137, 5.207, 5.277, 5.338, 5.403,
     5.467, 5.522, 5.58, 5.632, 5.695, 5.75, 5.805, 5.856, 5.906, 5.953, 5.993, 6.058, 6.109, 6.147,
     6.212, 6.263, 6.301, 6.359, 6.404, 6.449, 6.5, 6.532, 6.59, 6.622, 6.673, 6.718, 6.756, 6.808,
     6.833, 6.885, 6.91, 6.962, 6.987, 7.365, 7.917, 8.9),
    # 14 cards
    (2.114, 4, 4.5, 4.8, 5.012, 5.11, 5.19, 5.271, 5.339, 5.409, 5.478, 5.534, 5.586, 5.641, 5.706,
     5.763, 5.816, 5.861, 5.909, 5.953, 5.99, 6.051, 6.071, 6.141, 6.192, 6.218, 6.282, 6.301,
     6.365, 6.391, 6.442, 6.481, 6.519, 6.558, 6.596, 6.635, 6.673, 6.686, 6.744, 6.763, 6.821,
     6.833, 6.885, 6.91, 6.942, 6.981, 6.994, 7.301, 7.756, 8.2, 8.9),
    # 15 cards
    (2.191, 4.9, 5.099, 5.213, 5.311, 5.393, 5.476, 5.543, 5.602, 5.668, 5.737, 5.791, 5.843, 5.889,
     5.937, 5.979, 6.038, 6.071, 6.128, 6.147, 6.212, 6.224, 6.288, 6.327, 6.365, 6.404, 6.442,
     6.455, 6.519, 6.532, 6.59, 6.603, 6.654, 6.679, 6.686, 6.744, 6.763, 6.808, 6.827, 6.84, 6.897,
     6.91, 6.917, 6.974, 6.987, 7.058, 7.372, 7.686, 7.994, 8.4, 8.9),
    # 16 cards
    (2.357, 5.175, 5.326, 5.448, 5.536, 5.608, 5.695, 5.767, 5.832, 5.875, 5.936, 5.977, 6.045,
     6.071, 6.135, 6.147, 6.212, 6.256, 6.295, 6.333, 6.372, 6.397, 6.442, 6.455, 6.513, 6.532,
     6.577, 6.603, 6.609, 6.667, 6.679, 6.724, 6.75, 6.763, 6.808, 6.827, 6.84, 6.885, 6.904, 6.91,
     6.942, 6.974, 6.987, 6.994, 7.218, 7.449, 7.686, 7.917, 8.2, 8.6, 8.9),
    # 17 cards
    (5.002, 5.355, 5.522, 5.629, 5.745, 5.831, 5.894, 5.956, 5.996, 6.064, 6.128, 6.147, 6.218,
     6.224, 6.295, 6.346, 6.372, 6.41, 6.449, 6.455, 6.519, 6.532, 6.583, 6.603, 6.609, 6.667,
     6.679, 6.686, 6.744, 6.756, 6.763, 6.821, 6.833, 6.84, 6.885, 6.904, 6.91, 6.917, 6.974, 6.987,
     6.994, 6.994, 7.218, 7.378, 7.603, 7.763, 7.987, 8.1, 8.4, 8.7, 8.9),
    # 18 cards
    (5.012, 5.547, 5.713, 5.84, 5.927, 5.987, 6.064, 6.135, 6.179, 6.224, 6.288, 6.301, 6.372,
     6.378, 6.442, 6.455, 6.519, 6.532, 6.583, 6.603, 6.609, 6.667, 6.679, 6.686, 6.744, 6.756,
     6.763, 6.814, 6.827, 6.833, 6.84, 6.897, 6.91, 6.917, 6.917, 6.974, 6.987, 6.994, 6.994, 7.071,
     7.224, 7.378, 7.532, 7.686, 7.84, 7.994, 8.1, 8.3, 8.6, 8.8, 8.9),
))


# =============================================================================
# strategies
# =============================================================================
@njit(cache=True)
def pay_value(st, hand):
    """Chips the pay cards of ``hand`` would collect from the board now (Phase 1 rules)."""
    v = 0
    for i in range(5):
        if (hand >> pay_card(st, i)) & 1:
            v += st[BOARD + i]
    if (hand >> pay_card(st, 1)) & 1 and (hand >> pay_card(st, 2)) & 1:
        v += st[BOARD + SP_KQ]
    if seq_suits(st, hand):
        v += st[BOARD + SP_SEQ]
    return v


@njit(cache=True)
def strength(cls):
    """Poker strength on a 0..9 scale: category + position inside the category."""
    c = PK.category(cls)
    return c + (cls - PK.BASE[c]) / (PK.BASE[c + 1] - PK.BASE[c])


@njit(cache=True)
def hand_value(st, hand, prm):
    return strength(PK.best5(hand)[0]) + prm[PR_PAY_WEIGHT] * pay_value(st, hand)


@njit(cache=True)
def find(acts, n, kind, x):
    """Index of action kind (payload x; -1 = any) in acts[:n], else -1."""
    for i in range(n):
        if action_kind(acts[i]) == kind and (x < 0 or action_arg(acts[i]) == x):
            return i
    return -1


@njit(cache=True)
def widow_choice(st, acts, n, prm):
    ph = st[PHASE]
    if ph == P_AFTER_SWAP:
        return 1 if prm[PR_SELL_OLD] > 0.5 else 0
    if ph == P_WIDOW and prm[PR_AUCTION_WIDOW] > 0.5:
        return 2
    weak = hand_value(st, st[HAND + st[DEALER]], prm) < prm[PR_SWAP_BELOW]
    return 1 if weak else 0


@njit(cache=True)
def suit_values(st, hand, out):
    """Chips each suit's pay spaces would give ``hand`` as the pay suit."""
    keep = st[PAY_SUIT]
    for s in range(4):
        st[PAY_SUIT] = s
        out[s] = pay_value(st, hand) - (st[BOARD + SP_SEQ] if seq_suits(st, hand) else 0)
    st[PAY_SUIT] = keep


@njit(cache=True)
def auction_choice(st, acts, n, prm):
    """Bid the minimum while the price stays within the strategy's value, else pass. A weak
    hand bids up to ``bid_max`` for the unseen widow and ``bid_old_max`` for the dealer's old
    hand (seen by the dealer, so adversely selected)."""
    p = st[CUR]
    if st[AU_KIND] == AU_SUIT:
        vals = np.zeros(4, np.int64)
        suit_values(st, st[HAND + p], vals)
        limit = min(prm[PR_SUIT_BID_MAX], vals.max())
    else:
        weak = hand_value(st, st[HAND + p], prm) < prm[PR_SWAP_BELOW]
        cap = prm[PR_BID_MAX] if st[AU_KIND] == AU_WIDOW else prm[PR_BID_OLD_MAX]
        limit = cap if weak else 0.0
    if n > 1 and action_arg(acts[1]) <= limit:
        return 1
    return 0


@njit(cache=True)
def typical(h):
    """``TYPICAL_STRENGTH`` at a (fractional) hand size h, linear between sizes."""
    h = min(max(h, 5.0), 18.0)
    i = min(np.int64(h), 17)
    f = h - i
    return TYPICAL_STRENGTH[i] * (1.0 - f) + TYPICAL_STRENGTH[i + 1] * f


@njit(cache=True)
def bet_shift(st, p, prm):
    """Threshold shift for the table seat p faces: ``size_shift`` x (typical strength of the
    live opponents' mean hand size - that of 9 cards) + ``opp_shift`` per live opponent above
    4 + ``pos_shift`` per live opponent still to act after p (since the last bet or raise, or
    since the round opened). Public facts only (hand sizes, folds, who has acted)."""
    k = 0
    behind = 0
    cards = 0
    for q in range(st[N]):
        if q != p and not (st[FOLDED] >> q) & 1:
            k += 1
            cards += 5 if st[BET_CTX] else popcount(st[HAND + q])
            if not (st[ACTED] >> q) & 1:
                behind += 1
    h = cards / max(k, 1)
    return (prm[PR_SIZE_SHIFT] * (typical(h) - typical(np.float64(REF_CARDS))) + prm[PR_OPP_SHIFT] * (k - 4)
            + prm[PR_POS_SHIFT] * behind)


@njit(cache=True)
def bet_choice(st, opts, acts, n, prm, gplay):
    """Thresholds on the own poker strength, moved by ``bet_shift``: open with a bet of
    ``bet_size`` at ``bet_at``, else bluff with probability ``bluff`` (a bet of ``bluff_size``);
    facing a bet, raise by ``bet_size`` at ``raise_at``, call at ``call_at`` + ``odds_weight`` x
    (price - 1/3) where price = chips to call / (pot after the call), else fold."""
    p = st[CUR]
    q = strength(bet_hand(st, p)[1])
    shift = bet_shift(st, p, prm)
    top = max_amount(st, opts)
    size = max(1, min(top, np.int64(prm[PR_BET_SIZE])))
    if st[CUR_BET] == 0:
        i = -1
        if q >= prm[PR_BET_AT] + shift:
            i = find(acts, n, np.int64(A_BET), size)
        elif prm[PR_BLUFF] > 0 and top >= 1 and uniform(gplay) < prm[PR_BLUFF]:
            i = find(acts, n, np.int64(A_BET), max(1, min(top, np.int64(prm[PR_BLUFF_SIZE]))))
        return max(i, 0)
    i = find(acts, n, np.int64(A_RAISE), size) if q >= prm[PR_RAISE_AT] + shift else -1
    if i >= 0:
        return i
    owe = st[CUR_BET] - st[CONTRIB + p]
    if owe <= 0:
        return 1
    pot = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    price = owe / (pot + owe)
    return 1 if q >= prm[PR_CALL_AT] + shift + prm[PR_ODDS_WEIGHT] * (price - 1.0 / 3.0) else 0


@njit(cache=True)
def lead_score(st, hand, s, prm):
    """Cards shed by leading suit s, plus a bonus when the run ends in an own stop."""
    c = lowest_in(hand, s)
    run = 1
    nc = next_card(c)
    while nc >= 0 and (hand >> nc) & 1:
        run += 1
        c = nc
        nc = next_card(c)
    stop = nc < 0 or (st[PLAYED] >> nc) & 1
    length = popcount(hand & (np.int64(LOW13) << (13 * s)))
    return length + prm[PR_RUN_WEIGHT] * run + (prm[PR_STOP_BONUS] if stop else 0.0)


@njit(cache=True)
def lead_choice(st, acts, n, prm):
    hand = st[HAND + st[CUR]]
    best = -1e300
    bi = 0
    for i in range(n):
        v = lead_score(st, hand, action_arg(acts[i]), prm)
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True)
def michigan_cards(st, hand):
    """Cards of ``hand`` worth hiding from a showdown: the pay-suit A K Q J 10 and the three
    sequence cards of every suit in which the hand holds them all."""
    m = 0
    for i in range(5):
        m |= np.int64(1) << pay_card(st, i)
    for s in range(4):
        if ((suit_ah(hand, s) >> st[SEQ]) & 7) == 7:
            for k in range(3):
                m |= np.int64(1) << card_at(s, st[SEQ] + k)
    return hand & m


@njit(cache=True)
def poker_target(st, hand, prm):
    """The 5 poker cards: the best five, or the best five without the ``michigan_cards`` when
    that costs at most ``hide_margin`` poker strength (and leaves 5 cards)."""
    v, m = PK.best5(hand)
    if prm[PR_HIDE_MARGIN] > 0:
        rest = hand & ~michigan_cards(st, hand)
        if rest != hand and popcount(rest) >= 5:
            v2, m2 = PK.best5(rest)
            if strength(v) - strength(v2) <= prm[PR_HIDE_MARGIN]:
                return m2
    return m


@njit(cache=True)
def pick_choice(st, acts, n, prm):
    p = st[CUR]
    want = poker_target(st, st[HAND + p], prm) & ~st[PICK + p]
    return find(acts, n, np.int64(A_PICK), lowbit(want))


@njit(cache=True)
def suit_choice(st, prm):
    vals = np.zeros(4, np.int64)
    suit_values(st, st[HAND + st[CUR]], vals)
    return np.argmax(vals)


@njit(cache=True)
def fuzz_choice(acts, n, gplay):
    """A uniformly random action kind among the legal ones, then a uniform action of that kind:
    auctions pass half the time (they end), bets and raises are a third of the choices."""
    kinds = 0
    for i in range(n):
        kinds |= 1 << action_kind(acts[i])
    k = below(gplay, popcount(kinds))
    while k:
        kinds &= kinds - 1
        k -= 1
    kind = lowbit(kinds)
    m = 0
    for i in range(n):
        if action_kind(acts[i]) == kind:
            m += 1
    j = below(gplay, m)
    for i in range(n):
        if action_kind(acts[i]) == kind:
            if j == 0:
                return i
            j -= 1
    return 0


# ---- the expert (issue 41): bets by the chance of holding the best hand, leads to known stops
# and to a sure way out ----
@njit(cache=True)
def weaker(h, v):
    """Chance that the best 5 of h random cards are weaker than poker strength v
    (``STRENGTH_QUANTILES``, linear between its quantiles)."""
    row = STRENGTH_QUANTILES[min(max(h, 5), 18) - 5]
    k = row.shape[0] - 1
    if v <= row[0]:
        return 0.0
    if v >= row[k]:
        return 1.0
    i = np.searchsorted(row, v, side="right") - 1
    lo = row[i]
    hi = row[i + 1]
    f = (v - lo) / (hi - lo) if hi > lo else 1.0
    return (i + f) / k


@njit(cache=True)
def best_chance(st, p, v, prm):
    """Seat p's chance that its poker strength v beats every live opponent of the betting round:
    the product over them of ``weaker`` at their hand size (5 in a clearing round), where a seat
    that bet or raised this round is taken to hold the top ``raise_range`` of its hands and one
    that called the top ``call_range``. Public facts only (hand sizes, folds, bets)."""
    eq = 1.0
    for q in range(st[N]):
        if q == p or (st[FOLDED] >> q) & 1:
            continue
        h = 5 if st[BET_CTX] else popcount(st[HAND + q])
        f = weaker(h, v)
        r = 1.0
        if st[BETS + q] & (B_BET | B_RAISE):
            r = prm[PR_RAISE_RANGE]
        elif st[BETS + q] & B_CALL:
            r = prm[PR_CALL_RANGE]
        if r < 1.0:
            f = min(max((f - (1.0 - r)) / max(r, 1e-9), 0.0), 1.0)
        eq *= f
    return eq


@njit(cache=True)
def pot_size(st, opts, eq, pot, prm):
    """A bet or raise of ``bet_frac`` x the pot, within the limits (at least 1)."""
    return max(1, min(max_amount(st, opts), np.int64(prm[PR_BET_FRAC] * pot + 0.5)))


@njit(cache=True)
def expert_bet(st, opts, acts, n, prm, gplay):
    """Bet or raise ``bet_frac`` x the pot when the chance of the best hand (``best_chance``) is
    at least ``value_eq`` (opening) or ``raise_eq`` (facing a bet); open with the same size as a
    bluff with probability ``bluff``; call when the chance is at least the pot odds (chips to
    call / pot after the call) + ``call_margin``, else fold."""
    p = st[CUR]
    eq = best_chance(st, p, strength(bet_hand(st, p)[1]), prm)
    pot = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    if st[CUR_BET] == 0:
        if eq >= prm[PR_VALUE_EQ] or (prm[PR_BLUFF] > 0 and max_amount(st, opts) >= 1
                                     and uniform(gplay) < prm[PR_BLUFF]):
            return max(find(acts, n, np.int64(A_BET), pot_size(st, opts, eq, pot, prm)), 0)
        return 0
    owe = st[CUR_BET] - st[CONTRIB + p]
    if eq >= prm[PR_RAISE_EQ]:
        i = find(acts, n, np.int64(A_RAISE), pot_size(st, opts, eq, pot + owe, prm))
        if i >= 0:
            return i
    if owe <= 0:
        return 1
    return 1 if eq >= owe / (pot + owe) + prm[PR_CALL_MARGIN] else 0


@njit(cache=True)
def expert_likelihood(st, q, v, pprm):
    """How likely the expert (row ``pprm``) with poker strength v would have made seat q's betting
    actions of this round, judged at the table as it is now (``bet_likelihood``'s analogue)."""
    f = st[BETS + q]
    if f == 0:
        return 1.0
    eq = best_chance(st, q, v, pprm)
    bluff = min(max(pprm[PR_BLUFF], BET_EPS), 1.0 - BET_EPS)
    like = 1.0
    if f & B_RAISE and eq < pprm[PR_RAISE_EQ]:
        like *= BET_EPS
    if f & B_BET and eq < pprm[PR_VALUE_EQ]:
        like *= bluff
    if f & B_CHECK:
        like *= BET_EPS if eq >= pprm[PR_VALUE_EQ] else 1.0 - bluff
    if f & B_CALL and eq < st[CALL_PRICE + q] / 1e6 + pprm[PR_CALL_MARGIN]:
        like *= BET_EPS
    if f & B_FOLD and eq >= st[FOLD_PRICE + q] / 1e6 + pprm[PR_CALL_MARGIN]:
        like *= BET_EPS
    return like


@njit(cache=True)
def own_run(hand, dead, s):
    """Lead suit s from ``hand`` (its lowest card): (own cards the run plays, RUN_STOP when it
    surely stops after an own card (an ace next, or a dead card: played or known in the widow),
    RUN_OUT when it plays the last card of the hand, RUN_OPEN when the next card is not the
    seat's and not known dead)."""
    c = lowest_in(hand, s)
    shed = np.int64(0)
    while True:
        shed |= np.int64(1) << c
        if shed == hand:
            return shed, RUN_OUT
        nc = next_card(c)
        if nc < 0 or (dead >> nc) & 1:
            return shed, RUN_STOP
        if not (hand >> nc) & 1:
            return shed, RUN_OPEN
        c = nc


@njit(cache=True)
def sure_out(hand, dead, banned, depth):
    """1 if some lead other than suit ``banned`` starts at most ``depth`` leads in a row (each
    but the last a sure stop by the seat, the next one never the suit just stopped) that surely
    empty ``hand``."""
    for s in range(4):
        if s == banned or lowest_in(hand, s) < 0:
            continue
        shed, how = own_run(hand, dead, s)
        if how == RUN_OUT:
            return 1
        if how == RUN_STOP and depth > 1 and sure_out(hand & ~shed, dead | shed, s, depth - 1):
            return 1
    return 0


@njit(cache=True)
def shown_by_others(st, opts, p):
    """The cards other seats than p have shown (a showdown, a Phase-1 claim) and still hold."""
    pay, shown = public_cards(st, opts)
    m = np.int64(0)
    for q in range(st[N]):
        if q != p:
            m |= shown_of(st, q, pay, shown)
    return m


@njit(cache=True)
def widow_chance(st, opts, p, hand, known):
    """The chance that a card seat p has not seen (not in its hand, played, known in the widow
    ``known`` or shown by another seat) lies in the widow: the widow's unknown cards over all."""
    seen = hand | st[PLAYED] | known | shown_by_others(st, opts, p)
    unseen = 52 - popcount(seen)
    hidden = popcount(st[WIDOW]) - popcount(known)
    return hidden / unseen if unseen > 0 else 0.0


@njit(cache=True)
def reachable(hand, dead, s):
    """1 if another seat's lead of suit s can run into the seat's lowest card of it: some lower card
    of the suit is neither the seat's nor dead (played or known in the widow)."""
    c = lowest_in(hand, s)
    for ah in range(ah_rank(c)):
        if not ((hand | dead) >> card_at(s, ah)) & 1:
            return 1
    return 0


@njit(cache=True)
def expert_lead(st, opts, acts, n, prm):
    """``lead_choice``, where with ``widow_stops`` a run that ends below a card the seat knows is
    in the widow is a stop too (the lead comes back); with ``lead_plan`` a lead that starts a
    sure way out (up to that many leads, each but the last a sure stop) comes first; with
    ``lead_chance`` a run that ends below an unseen card is a stop with lead_chance x the chance
    that the card lies in the widow. Without the colour rule only (under it the leads the plan
    assumes may not be allowed). With ``keep_entry`` a stop that another seat's lead can reach
    (``reachable``) is worth less: kept, it brings the lead back; with ``own_low`` a suit nobody
    else can lead into scores more (only the seat's own lead sheds it); with ``feed_shown`` a run
    that ends open below a card another seat has shown scores less (it hands that seat the lead)."""
    p = st[CUR]
    hand = st[HAND + p]
    dead = st[PLAYED]
    known = np.int64(0)
    if prm[PR_WIDOW_STOPS] > 0.5:
        known = known_widow(st, opts, p)
        dead |= known
    plan = int(prm[PR_LEAD_PLAN]) if st[COLOR] < 0 else 0
    if plan > 0:
        for i in range(n):
            s = action_arg(acts[i])
            shed, how = own_run(hand, dead, s)
            if how == RUN_OUT or (how == RUN_STOP and plan > 1
                                  and sure_out(hand & ~shed, dead | shed, s, plan - 1)):
                return i
    chance = 0.0
    if prm[PR_LEAD_CHANCE] > 0.0:
        chance = prm[PR_LEAD_CHANCE] * widow_chance(st, opts, p, hand, known)
    shown = shown_by_others(st, opts, p) if prm[PR_FEED_SHOWN] != 0.0 else np.int64(0)
    best = -1e300
    bi = 0
    for i in range(n):
        s = action_arg(acts[i])
        c = lowest_in(hand, s)
        run = 1
        nc = next_card(c)
        while nc >= 0 and (hand >> nc) & 1:
            run += 1
            nc = next_card(nc)
        open_end = nc >= 0 and not (dead >> nc) & 1
        stop = chance if open_end else 1.0
        reach = reachable(hand, dead, s)
        if reach:
            stop *= 1.0 - prm[PR_KEEP_ENTRY]
        length = popcount(hand & (np.int64(LOW13) << (13 * s)))
        v = length + prm[PR_RUN_WEIGHT] * run + prm[PR_STOP_BONUS] * stop
        if not reach:
            v += prm[PR_OWN_LOW]
        if open_end and (shown >> nc) & 1:
            v -= prm[PR_FEED_SHOWN]
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True)
def choose(st, opts, acts, n, sid, prm, gplay):
    """Index of the action strategy ``sid`` picks among acts[:n]."""
    if sid == S_RANDOM:
        return below(gplay, n)
    if sid == S_FUZZ:
        return fuzz_choice(acts, n, gplay)
    ph = st[PHASE]
    if ph <= P_AFTER_UNSOLD:
        return widow_choice(st, acts, n, prm)
    if ph == P_AUCTION:
        return auction_choice(st, acts, n, prm)
    if ph == P_SUIT:
        return suit_choice(st, prm)
    if ph == P_SELECT:
        return pick_choice(st, acts, n, prm)
    if ph == P_BET:
        if sid == S_EXPERT:
            return expert_bet(st, opts, acts, n, prm, gplay)
        return bet_choice(st, opts, acts, n, prm, gplay)
    if sid == S_EXPERT:
        return expert_lead(st, opts, acts, n, prm)
    return lead_choice(st, acts, n, prm)
