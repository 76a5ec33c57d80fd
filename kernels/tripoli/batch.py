"""Tripoli's entry points: ``play_batch`` (whole sessions on the worker threads) and
``replay_deal`` (one deal alone, after its session's earlier deals, with a trace).
"""
import numpy as np

from cardsim.kernels.jit import njit, no_plugin, plugin_params, search_callback, threaded_batch
from cardsim.kernels.tripoli.layout import (
    BOARD, MAX_ACTS, N_PLUG_PARAMS, O_DEALS, PLUGIN, SESSIONS_PER_CHUNK, S_SEARCH, VIEW_SIZE,
)
from cardsim.kernels.tripoli.search import no_search, search_cfunc
from cardsim.kernels.tripoli.play import buffers, play_deal, write_record


@njit(cache=True, nogil=True)
def play_range(seed, first, lo, hi, opts, sids, params, check, rec, plug, pprm, srch):
    """Play deals first+lo .. first+hi-1 into rec[lo:hi], replaying the session prefix
    of deal first+lo (its board) without writing it; ``plug`` is the plug-in (a
    ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, ``srch`` the search
    (SEARCH_SIG) for the search seats."""
    st, acts, gdeck, gplay, deck = buffers(opts)
    trace = np.zeros((0, 4), np.int64)
    legal = np.empty(MAX_ACTS, np.int64)
    view = np.empty(VIEW_SIZE, np.int64)
    D = opts[O_DEALS]
    start = (first + lo) // D * D
    for d in range(start, first + hi):
        if d % D == 0:
            for i in range(9):
                st[BOARD + i] = 0
        play_deal(st, opts, seed, d, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view, legal,
                  srch)
        if d >= first + lo:
            write_record(st, rec[d - first])


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play deals first .. first+count-1 into ``rec`` on ``numba.get_num_threads()`` threads
    (Python threads over the ``nogil`` ``play_range``: ``jit.threaded_batch``), cut at whole
    sessions, so a session's board never crosses threads. ``plug``: the plug-in
    (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with its parameters
    ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    plug = no_plugin if plug is None else plug
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    threaded_batch(play_range, seed, first, count, opts, sids, params, check, rec, plug, pprm, srch,
                   least=int(opts[O_DEALS]) * SESSIONS_PER_CHUNK, align=int(opts[O_DEALS]))


@njit(cache=True)
def replay_kernel(seed, deal_id, opts, sids, params, check, trace, plug, pprm, srch):
    st, acts, gdeck, gplay, deck = buffers(opts)
    legal = np.empty(MAX_ACTS, np.int64)
    view = np.empty(VIEW_SIZE, np.int64)
    none = np.zeros((0, 4), np.int64)
    D = opts[O_DEALS]
    for d in range(deal_id // D * D, deal_id + 1):   # the session's earlier deals unchecked, untraced
        last = d == deal_id                           # (one inlined copy of play_deal: half the compile)
        play_deal(st, opts, seed, d, sids, params, check and last, trace if last else none, acts, gdeck, gplay,
                  deck, plug, pprm, view, legal, srch)
    return st


def replay_deal(seed, deal_id, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one deal alone (after its session's earlier deals) with a trace; final state."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    return replay_kernel(seed, deal_id, opts, sids, params, check, trace, no_plugin if plug is None else plug, pprm,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))
