"""Trionfo's entry points: the hands of a session, a batch of sessions on threads (``play_batch``
over the ``nogil`` ``play_chunk``) and one session replayed with its trace (``replay_session``)."""
import numpy as np

from cardsim.kernels.jit import (
    njit, no_plugin, plugged_callback, search_callback, threaded_batch, unowned, with_plugin_params,
)
from cardsim.kernels.rng import STREAM_PLAY, seed_stream
from cardsim.kernels.trionfo.layout import (
    ALL_REDEALS, CALLED, CHUNK, DECLARER, ERR, E_ZERO_SUM, FIRST_BIDDER, FIRST_DEALER, HAND_IDX, HAND_SLOTS, HB_CALLED,
    HB_DECLARER, HB_FIRST_BIDDER, HB_LEVEL, HB_MONEY, HB_PARTNER, HB_PTS, HB_REDEALS, HB_SIZE, HB_STRENGTH, HB_TRUMP,
    HB_WON, HIGH_LEVEL, HMONEY, MONEY, N_PLAYERS, N_PLUG_PARAMS, PARTNER, PLUGGED, PLUGIN, RC_DEALER, RC_ERR, RC_HAND,
    RC_HANDS, RC_MONEY, RC_REASON, RC_REDEALS, RC_TRICKS, RC_TRUNC, RC_WINNER, RECORD_COLS, REDEALS, R_COMPLETE,
    R_REDEAL_CAP, SIDE_PTS, STREAM_HAND, STRENGTH, ST_SIZE, S_SEARCH, TRACE_W, TRICKS_PLAYED, TRUMP, TRUNC, VOID_HAND,
    WON,
)
from cardsim.kernels.trionfo.rules import (
    check_hand, close_auction, deal, first_dealer, next_hand, settle, start_hand, start_session,
)
from cardsim.kernels.trionfo.search import no_search, search_cfunc
from cardsim.kernels.trionfo.play import auction, make_contract, mark_plugged, no_plugged, play_tricks, plugged_cfunc


# =============================================================================
# hands, sessions, batches
# =============================================================================
@njit(cache=True)
def write_hand(st, row):
    k = st[HAND_IDX]
    if k >= HAND_SLOTS:
        return
    b = RC_HAND + k * HB_SIZE
    row[b + HB_DECLARER] = st[DECLARER]
    row[b + HB_LEVEL] = st[HIGH_LEVEL]
    row[b + HB_TRUMP] = st[TRUMP]
    row[b + HB_PARTNER] = st[PARTNER]
    row[b + HB_CALLED] = st[CALLED]
    row[b + HB_STRENGTH] = st[STRENGTH]
    row[b + HB_PTS] = st[SIDE_PTS]
    row[b + HB_WON] = st[WON]
    row[b + HB_FIRST_BIDDER] = st[FIRST_BIDDER]
    row[b + HB_REDEALS] = st[REDEALS]
    for p in range(N_PLAYERS):
        row[b + HB_MONEY + p] = st[HMONEY + p]


@njit(cache=True)
def deal_until_bid(st, opts, sids, params, check, gdeck, gplay, trace, plug):
    """Deal and auction, redealing while all pass (up to MAX_REDEALS: ``close_auction``); returns
    a check error."""
    start_hand(st)
    while True:
        deal(st, gdeck, trace)
        e = auction(st, opts, sids, params, check, gplay, trace, plug)
        if e:
            return e
        if close_auction(st, opts, trace) != 0:
            return 0


@njit(cache=True, inline='always')
def play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, srch, tricks):
    """One hand of the session (its deals, auction, contract, tricks, money)."""
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[HAND_IDX])
    e = deal_until_bid(st, opts, sids, params, check, gdeck, gplay, trace, plug)
    if e == 0 and st[VOID_HAND] == 0:
        e = make_contract(st, opts, sids, params, gplay, trace, plug, srch)
        if e == 0:
            if st[PLUGGED]:
                e = tricks(st, opts, sids, params, check, gplay, trace, plug, srch)
            else:
                e = play_tricks(st, opts, sids, params, check, gplay, trace, plug, srch)
        if e == 0:
            settle(st, opts, trace)
            if check:
                e = check_hand(st, opts)
    write_hand(st, row)
    return e


@njit(cache=True)
def write_session(st, row):
    best = -(1 << 40)
    winner = -1
    for p in range(N_PLAYERS):
        row[RC_MONEY + p] = st[MONEY + p]
        if st[MONEY + p] > best:
            best = st[MONEY + p]
            winner = p
        elif st[MONEY + p] == best:
            winner = -1
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_REASON] = R_REDEAL_CAP if st[TRUNC] else R_COMPLETE
    row[RC_WINNER] = winner
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_TRICKS] = st[TRICKS_PLAYED]
    row[RC_HANDS] = st[HAND_IDX]
    row[RC_REDEALS] = st[ALL_REDEALS]


@njit(cache=True, inline='always')
def play_session(st, opts, seed, game, sids, params, check, trace, gdeck, gplay, row, plug, srch, tricks):
    """Play session ``game`` of run ``seed`` (trionfo_hands hands) into ``row``. Seats with
    sid >= PLUGIN are decided by ``plug`` where its kinds ask (``plugin_decide``)."""
    st[:] = 0
    row[:] = 0
    start_session(st, first_dealer(opts, seed, game, gdeck))
    mark_plugged(st, sids)
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    while True:                          # the hands (``next_hand``; a session has at least one)
        st[ERR] = play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, srch,
                            tricks)
        if st[ERR]:
            st[HAND_IDX] += 1            # hands played, the one that failed included
            break
        if next_hand(st, opts):
            break
    if check and st[ERR] == 0:
        total = 0
        for p in range(N_PLAYERS):
            total += st[MONEY + p]
        st[ERR] = E_ZERO_SUM if total != 0 else 0
    write_session(st, row)
    return st[ERR]


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, srch, tricks):
    """Play sessions first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug``
    is the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, its
    parameters in ``params`` from column N_PARAMS on (``jit.with_plugin_params``)."""
    st = np.zeros(ST_SIZE, np.int64)
    gdeck = np.zeros(2, np.uint64)
    gplay = np.zeros(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)
    for d in range(lo, hi):
        play_session(unowned(st), o, seed, first + d, s, p, check, unowned(trace), unowned(gdeck),
                     unowned(gplay), r[d], plug, srch, tricks)


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` sessions starting at ``first`` on ``numba.get_num_threads()`` threads into
    ``rec`` (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``).
    ``plug``: the plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with
    its parameters ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    threaded_batch(play_chunk, seed, first, count, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS),
                   check, rec, no_plugin if plug is None else plug,
                   search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search),
                   plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged),
                   least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, game, opts, sids, params, check, trace, plug, srch, tricks):
    st = np.zeros(ST_SIZE, np.int64)
    row = np.zeros(RECORD_COLS, np.int64)
    play_session(st, opts, seed, game, sids, params, check, trace, np.zeros(2, np.uint64),
                 np.zeros(2, np.uint64), row, plug, srch, tricks)
    return st


def replay_session(seed, game, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one session alone with a trace buffer; returns the final state."""
    return replay_kernel(seed, game, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), check, trace,
                         no_plugin if plug is None else plug,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search),
                         plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged))
