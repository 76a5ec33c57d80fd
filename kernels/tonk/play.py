"""One Tonk deal: the seat's choice (plug-in, search or built-in), the play loop and its
record. ``play_deal`` is ``inline='always'`` into the batch, replay and critique kernels."""
import numpy as np

from cardsim.kernels.cards import popcount
from cardsim.kernels.jit import njit, unowned
from cardsim.kernels.rng import STREAM_DECK, STREAM_PLAY, seed_stream
from cardsim.kernels.tonk.layout import (
    COUNT,
    CUR,
    DEALER,
    E_NO_MOVES,
    E_PLUGIN,
    ERR,
    HAND,
    KNOCKER,
    N,
    P_OVER,
    PAY,
    PHASE,
    PLUGIN,
    R_COL_COUNT,
    R_COL_DEALER,
    R_COL_ERR,
    R_COL_KNOCKER,
    R_COL_LEFT,
    R_COL_PAY,
    R_COL_REASON,
    R_COL_REDEALS,
    R_COL_STOCK,
    R_COL_TRUNC,
    R_COL_TURNS,
    R_COL_WINNER,
    REASON,
    REDEALS,
    S_SEARCH,
    STOCK_PTR,
    TR_LEN,
    TRUNC,
    TURNS,
    WINNER,
)
from cardsim.kernels.tonk.rules import apply_action, check_invariants, dealer_of, legal_actions, start_deal
from cardsim.kernels.tonk.strategies import choose
from cardsim.kernels.tonk.view import plugin_pick


# =============================================================================
# one deal
# =============================================================================
@njit(cache=True, inline='always')
def seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch):
    """The index among ``acts[:n]`` the seat to act plays: its plug-in's (sid >= PLUGIN, its row
    of ``pprm``), else its search's (``srch``) or its built-in's; -2 for an illegal plug-in answer."""
    p = st[CUR]
    sid, i = sids[p], -1
    if sid >= PLUGIN:
        i = plugin_pick(st, acts, n, plug, pprm[p], view, legal)
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
def play_deal(st, opts, seed, deal_id, sids, params, check, trace, acts, gdeck, gplay, plug, pprm, view, legal,
              srch):
    """Play deal ``deal_id`` of run ``seed`` to the end in ``st``; returns the check error.
    Seats with sid >= PLUGIN are decided by ``plug`` (their row of ``pprm``), search seats by
    ``srch`` (SEARCH_SIG).

    The loop works on ``unowned`` views of the arrays (they live as long as this call)."""
    st, opts, sids, params = unowned(st), unowned(opts), unowned(sids), unowned(params)
    trace, acts, gdeck, gplay = unowned(trace), unowned(acts), unowned(gdeck), unowned(gplay)
    pprm, view, legal = unowned(pprm), unowned(view), unowned(legal)
    seed_stream(gdeck, seed, deal_id, np.int64(STREAM_DECK))
    seed_stream(gplay, seed, deal_id, np.int64(STREAM_PLAY))
    st[ERR] = 0
    st[TR_LEN] = 0
    start_deal(st, opts, gdeck, dealer_of(opts, seed, deal_id), trace)
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, acts)
        if n == 0:
            st[ERR] = E_NO_MOVES
            break
        i = seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch)
        if i == -2:
            st[ERR] = E_PLUGIN
            break
        apply_action(st, opts, acts[i], trace)
        if check:
            st[ERR] = check_invariants(st, opts)
            if st[ERR]:
                break
    if check and st[ERR] == 0:
        st[ERR] = check_invariants(st, opts)
    return st[ERR]


@njit(cache=True)
def write_record(st, row):
    row[R_COL_DEALER] = st[DEALER]
    row[R_COL_REASON] = st[REASON]
    row[R_COL_WINNER] = st[WINNER]
    row[R_COL_KNOCKER] = st[KNOCKER]
    row[R_COL_TURNS] = st[TURNS]
    row[R_COL_STOCK] = 52 - st[STOCK_PTR]
    row[R_COL_REDEALS] = st[REDEALS]
    row[R_COL_TRUNC] = st[TRUNC]
    row[R_COL_ERR] = st[ERR]
    for p in range(st[N]):
        row[R_COL_PAY + p] = st[PAY + p]
        row[R_COL_COUNT + p] = st[COUNT + p]
        row[R_COL_LEFT + p] = popcount(st[HAND + p])
