"""One deal of Tripoli: its dealer, the deal itself (``play_deal``: a session's deal with its
clearing rounds), each seat's choice (``seat_choice``) and the record row (``write_record``).
"""
import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels.cards import popcount
from cardsim.kernels.jit import njit, unowned
from cardsim.kernels.rng import seed_stream, STREAM_DECK, stream_key, STREAM_PLAY, STREAM_RUN
from cardsim.kernels.tripoli.layout import (
    BOARD, CHIPS, CL_TOTAL, CUR, DEALER, DEAL_ID, DEAL_NO, ERR, E_NO_MOVES, E_PLUGIN, HAND, HCAT, LAST_DEAL, LEADS,
    L_CLEAR, L_MICHIGAN, L_PAY, L_POKER, L_WIDOW, MAX_ACTS, MAX_PLAYERS, MWIN, N, O_CLEARING, O_DEALS, O_FIRST_DEALER,
    O_MAX_STEPS, O_PLAYERS, P2_FOLDED, P2_RAISES, PAY_SUIT, PH, PHASE, PLUGIN, POKER_END, POT, POT_WIN, P_OVER,
    RC_BOARD, RC_CLEAR_PRIZE, RC_DEALER, RC_DEAL_NO, RC_ERR, RC_FOLDED, RC_LEADS, RC_MWIN, RC_PAY_SUIT, RC_POKER_END,
    RC_POT, RC_POT_WIN, RC_RAISES, RC_REASON, RC_SEAT, RC_SEQ, RC_SESSION, RC_SUIT_BY, RC_SUIT_PRICE, RC_TRUNC,
    RC_WIDOW, RC_WINNER, RC_W_BUYER, RC_W_PRICE, REASON, R_STEP_CAP, SC_CLEAR, SC_HAND, SC_LEFT, SC_MICH, SC_PAY,
    SC_PH1, SC_POKER, SC_WIDOW, SEAT_COLS, SEED, SEQ, SESSION, STEPS, ST_SIZE, SUIT_BY, SUIT_PRICE, S_SEARCH, TRUNC,
    T_END, W_ACT, W_BUYER, W_PRICE,
)
from cardsim.kernels.tripoli.rules import clearing_start, log, reset_deal, start_deal
from cardsim.kernels.tripoli.legal import apply_action, check_invariants, legal_actions
from cardsim.kernels.tripoli.view import plugin_pick
from cardsim.kernels.tripoli.strategies import choose


# =============================================================================
# one deal, a session, a batch
# =============================================================================
@njit(cache=True)
def dealer_of(opts, seed, session, k):
    n = opts[O_PLAYERS]
    first = opts[O_FIRST_DEALER]
    if first < 0:
        first = np.int64(stream_key(seed, session, np.int64(STREAM_RUN)) % np.uint64(n))
    return (first + k) % n


@njit(cache=True, inline='always')
def play_deal(st, opts, seed, deal_id, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view,
              legal, srch):
    """Play deal ``deal_id`` on the board carried in ``st``; returns the check error. Seats with
    sid >= PLUGIN are decided by ``plug`` (their row of ``pprm``), search seats by ``srch``
    (SEARCH_SIG)."""
    st, opts, sids, params = unowned(st), unowned(opts), unowned(sids), unowned(params)
    trace, acts, gdeck, gplay, deck = unowned(trace), unowned(acts), unowned(gdeck), unowned(gplay), unowned(deck)
    pprm, view, legal = unowned(pprm), unowned(view), unowned(legal)
    begin_deal(st, opts, seed, deal_id, gdeck, gplay, deck, trace)
    for stage in range(2):                # the deal, then a session's clearing rounds (one inlined loop)
        if stage == 1:
            if not clearing_due(st, opts):
                break
            clearing_start(st, opts, gdeck, deck, trace)
        run_decisions(st, opts, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view, legal,
                      srch)
    if check and st[ERR] == 0:
        st[ERR] = check_invariants(st, opts)
    log(st, trace, T_END, st[MWIN], st[REASON], st[MWIN])
    return st[ERR]


@njit(cache=True, inline='always')
def open_deal(st, opts, seed, deal_id, dealer):
    """Clear the deal's fields (the board carried) and set its session fields: deal ``deal_id`` of
    run ``seed`` dealt by ``dealer``."""
    D = opts[O_DEALS]
    reset_deal(st, opts, dealer)
    st[SESSION] = deal_id // D
    st[DEAL_NO] = deal_id % D
    st[DEAL_ID] = deal_id
    st[SEED] = seed
    st[LAST_DEAL] = 1 if st[DEAL_NO] == D - 1 else 0


@njit(cache=True, inline='always')
def begin_deal(st, opts, seed, deal_id, gdeck, gplay, deck, trace):
    """Deal ``deal_id`` of run ``seed`` set up on the board carried in ``st``: its streams, dealer,
    session fields and cards."""
    D = opts[O_DEALS]
    open_deal(st, opts, seed, deal_id, dealer_of(opts, seed, deal_id // D, deal_id % D))
    seed_stream(gdeck, seed, deal_id, np.int64(STREAM_DECK))
    seed_stream(gplay, seed, deal_id, np.int64(STREAM_PLAY))
    start_deal(st, opts, gdeck, deck, trace)


@njit(cache=True, inline='always')
def clearing_due(st, opts):
    """Whether the session's clearing rounds follow the deal just played."""
    return st[ERR] == 0 and st[LAST_DEAL] and opts[O_CLEARING] and st[REASON] != R_STEP_CAP


@njit(cache=True, inline='always')
def step_capped(st, opts):
    """True (and the deal ended, truncated) once the deal has taken its cap of decisions."""
    if st[STEPS] >= opts[O_MAX_STEPS]:
        st[TRUNC] = 1
        st[REASON] = R_STEP_CAP
        st[PHASE] = P_OVER
        return True
    return False


@njit(cache=True, inline='always')
def seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch):
    """The index among ``acts[:n]`` the seat to act plays: its plug-in's (sid >= PLUGIN, its row
    of ``pprm``), else its search's (``srch``) or its built-in's; -2 for an illegal plug-in answer."""
    p = st[CUR]
    sid, i = sids[p], -1
    if sid >= PLUGIN:
        i = plugin_pick(st, opts, acts, n, plug, pprm[p], view, legal)
        if i == -2:
            return -2
        sid -= PLUGIN
    if i < 0:
        if sid == S_SEARCH:
            i = srch(st, opts, acts, n, params[p], gplay)
        else:
            i = choose(st, opts, acts, n, sid, params[p], gplay)
    return i


@njit(cache=True, inline='always')
def run_decisions(st, opts, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view, legal, srch):
    """Ask and apply decisions until the deal (or the clearing) is over or capped."""
    while st[PHASE] != P_OVER:
        if step_capped(st, opts):
            break
        n = legal_actions(st, opts, acts)
        if n == 0:
            st[ERR] = E_NO_MOVES
            break
        i = seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch)
        if i == -2:
            st[ERR] = E_PLUGIN
            break
        apply_action(st, opts, acts[i], gdeck, deck, trace)
        if check:
            st[ERR] = check_invariants(st, opts)
            if st[ERR]:
                break


@njit(cache=True)
def write_record(st, row):
    n = st[N]
    row[:] = 0
    row[RC_SESSION] = st[SESSION]
    row[RC_DEAL_NO] = st[DEAL_NO]
    row[RC_DEALER] = st[DEALER]
    row[RC_REASON] = st[REASON]
    row[RC_MWIN] = st[MWIN]
    row[RC_LEADS] = st[LEADS]
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_WIDOW] = st[W_ACT]
    row[RC_W_BUYER] = st[W_BUYER]
    row[RC_W_PRICE] = st[W_PRICE]
    row[RC_PAY_SUIT] = st[PAY_SUIT]
    row[RC_SEQ] = st[SEQ] + 2
    row[RC_SUIT_BY] = st[SUIT_BY]
    row[RC_SUIT_PRICE] = st[SUIT_PRICE]
    row[RC_POT] = st[POT]
    row[RC_POT_WIN] = st[POT_WIN]
    row[RC_POKER_END] = st[POKER_END]
    row[RC_RAISES] = st[P2_RAISES]
    row[RC_FOLDED] = st[P2_FOLDED]
    row[RC_CLEAR_PRIZE] = st[CL_TOTAL]
    for i in range(9):
        row[RC_BOARD + i] = st[BOARD + i]
    write_seats(st, row)
    row[RC_WINNER] = top_seat(st)


@njit(cache=True)
def write_seats(st, row):
    for p in range(st[N]):
        b = RC_SEAT + SEAT_COLS * p
        row[b + SC_PAY] = st[CHIPS + p]
        row[b + SC_WIDOW] = st[PH + L_WIDOW * MAX_PLAYERS + p]
        row[b + SC_PH1] = st[PH + L_PAY * MAX_PLAYERS + p]
        row[b + SC_POKER] = st[PH + L_POKER * MAX_PLAYERS + p]
        row[b + SC_MICH] = st[PH + L_MICHIGAN * MAX_PLAYERS + p]
        row[b + SC_CLEAR] = st[PH + L_CLEAR * MAX_PLAYERS + p]
        row[b + SC_HAND] = -1 if st[HCAT + p] < 0 else PK.category(st[HCAT + p])
        row[b + SC_LEFT] = popcount(st[HAND + p])


@njit(cache=True)
def top_seat(st):
    """Seat with the unique highest payout, -1 if shared."""
    best = st[CHIPS]
    who = 0
    for p in range(1, st[N]):
        if st[CHIPS + p] > best:
            best = st[CHIPS + p]
            who = p
        elif st[CHIPS + p] == best:
            who = -1
    return who


@njit(cache=True)
def buffers(opts):
    st = np.zeros(ST_SIZE, np.int64)
    st[N] = opts[O_PLAYERS]
    return (st, np.zeros(MAX_ACTS, np.int64), np.zeros(2, np.uint64), np.zeros(2, np.uint64),
            np.zeros(52, np.int64))
