"""Tripoli's decisions: the legal actions of the seat to act (``legal_actions``), applying one
(``apply_action``), and the check mode (``check_invariants``: cards and chips conserved, the
board, the bets and the picks within the rules).
"""
from cardsim.kernels.cards import FULL_DECK, lowbit, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.tripoli.layout import (
    A_AUCTION_OLD, A_AUCTION_WIDOW, A_BET, A_BID, A_CALL, A_CHECK, A_DONE, A_FOLD, A_KEEP, A_LEAD, A_PASS, A_PICK,
    A_RAISE, A_SUIT, A_SWAP, BID_STEPS, BOARD, CONTRIB, CUR, CUR_BET, E_BET, E_BOARD, E_CAP, E_CARDS, E_CHIPS, E_PICK,
    HAND, HIGH, N, O_LIMIT, O_LIMIT_MODE, O_MAX_BID, O_MAX_STEPS, O_MIN_BID, PAY_SUIT, PHASE, PICK, PLAYED,
    P_AFTER_SWAP, P_AFTER_UNSOLD, P_AUCTION, P_BET, P_LEAD, P_SELECT, P_SUIT, P_WIDOW, RAISES, REASON, R_STEP_CAP,
    STEPS, TOTAL0, T_ACTION, WIDOW,
)
from cardsim.kernels.tripoli.actions import action_arg, action_kind, make_action
from cardsim.kernels.tripoli.rules import (
    auction_step, bet_action, chips_total, lead, lead_suits, log, max_amount, pick, raise_cap, selection_start,
    widow_action,
)


# =============================================================================
# legal actions
# =============================================================================
@njit(cache=True, inline='always')
def push(acts, n, a):
    acts[n] = a
    return n + 1


@njit(cache=True)
def legal_auction(st, opts, acts):
    n = push(acts, 0, A_PASS)
    lo = max(st[HIGH] + 1, opts[O_MIN_BID])
    hi = min(st[HIGH] + BID_STEPS, opts[O_MAX_BID])
    for x in range(lo, hi + 1):
        n = push(acts, n, make_action(A_BID, x))
    return n


@njit(cache=True)
def legal_bet(st, opts, acts):
    top = max_amount(st, opts)
    if st[CUR_BET] == 0:
        n = push(acts, 0, A_CHECK)
        for x in range(1, top + 1):
            n = push(acts, n, make_action(A_BET, x))
        return n
    n = push(acts, 0, A_FOLD)
    n = push(acts, n, A_CALL)
    if st[RAISES] < raise_cap(opts):
        for x in range(1, top + 1):
            n = push(acts, n, make_action(A_RAISE, x))
    return n


@njit(cache=True)
def legal_pick(st, acts):
    p = st[CUR]
    m = st[HAND + p] & ~st[PICK + p]
    n = 0
    while m:
        n = push(acts, n, make_action(A_PICK, lowbit(m)))
        m &= m - 1
    return n


@njit(cache=True)
def legal_actions(st, opts, acts):
    """Fill ``acts`` with the legal actions of the seat to decide; returns their number."""
    ph = st[PHASE]
    if ph == P_WIDOW:
        acts[0], acts[1], acts[2] = A_KEEP, A_SWAP, A_AUCTION_WIDOW
        return 3
    if ph == P_AFTER_SWAP:
        acts[0], acts[1] = A_DONE, A_AUCTION_OLD
        return 2
    if ph == P_AFTER_UNSOLD:
        acts[0], acts[1] = A_KEEP, A_SWAP
        return 2
    if ph == P_AUCTION:
        return legal_auction(st, opts, acts)
    if ph == P_SUIT:
        for s in range(4):
            acts[s] = make_action(A_SUIT, s)
        return 4
    if ph == P_SELECT:
        return legal_pick(st, acts)
    if ph == P_BET:
        return legal_bet(st, opts, acts)
    if ph == P_LEAD:
        m = lead_suits(st, opts, st[HAND + st[CUR]])
        n = 0
        for s in range(4):
            if (m >> s) & 1:
                n = push(acts, n, make_action(A_LEAD, s))
        return n
    return 0


@njit(cache=True)
def apply_action(st, opts, a, gdeck, deck, trace):
    """Play action ``a`` for the seat to decide (it must be legal)."""
    log(st, trace, T_ACTION, st[CUR], a, 0)
    st[STEPS] += 1
    ph = st[PHASE]
    kind = action_kind(a)
    if ph <= P_AFTER_UNSOLD:
        widow_action(st, opts, a, trace)
    elif ph == P_AUCTION:
        auction_step(st, opts, st[CUR], a, trace)
    elif ph == P_SUIT:
        st[PAY_SUIT] = action_arg(a)
        selection_start(st, opts, trace)
    elif ph == P_SELECT:
        pick(st, opts, action_arg(a), trace)
    elif ph == P_BET:
        bet_action(st, opts, a, gdeck, deck, trace)
    elif kind == A_LEAD:
        lead(st, opts, action_arg(a), trace)


# =============================================================================
# check mode
# =============================================================================
@njit(cache=True)
def cards_ok(st):
    seen = st[WIDOW] | st[PLAYED]
    total = popcount(st[WIDOW]) + popcount(st[PLAYED])
    for p in range(st[N]):
        seen |= st[HAND + p]
        total += popcount(st[HAND + p])
    return total == 52 and seen == FULL_DECK


@njit(cache=True)
def bets_ok(st, opts):
    if st[PHASE] != P_BET:
        return True
    if st[RAISES] > raise_cap(opts):
        return False
    for p in range(st[N]):
        c = st[CONTRIB + p]
        if c < 0 or c > st[CUR_BET] or (opts[O_LIMIT_MODE] == 1 and c > opts[O_LIMIT]):
            return False
    return True


@njit(cache=True)
def picks_ok(st):
    for p in range(st[N]):
        k = popcount(st[PICK + p])
        if st[PICK + p] & ~st[HAND + p] & ~st[PLAYED] or k > 5:
            return False
        if st[PHASE] > P_SELECT and k != 5 and st[REASON] != R_STEP_CAP:
            return False
    return True


@njit(cache=True)
def check_invariants(st, opts):
    """0 if the state is sound, else an E_* code."""
    if not cards_ok(st):
        return E_CARDS
    if chips_total(st) != st[TOTAL0]:
        return E_CHIPS
    for i in range(9):
        if st[BOARD + i] < 0:
            return E_BOARD
    if not bets_ok(st, opts):
        return E_BET
    if not picks_ok(st):
        return E_PICK
    if st[STEPS] > opts[O_MAX_STEPS]:
        return E_CAP
    return 0
