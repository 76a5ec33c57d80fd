"""Telefunken's entry points: a batch of games on threads (``play_batch`` over the ``nogil``
``play_chunk``) and one game replayed with its trace (``replay_game``)."""
import numpy as np

from cardsim.kernels.jit import njit, no_plugin, plugin_params, search_callback, threaded_batch, unowned
from cardsim.kernels.telefunken.layout import (
    CHUNK, MAX_ACTS, N_PLUG_PARAMS, PLUGIN, RECORD_COLS, S_SEARCH, TRACE_WIDTH, VIEW_SIZE,
)
from cardsim.kernels.telefunken.search import no_search, search_cfunc
from cardsim.kernels.telefunken.play import buffers, play_game


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, pprm, srch):
    """Play games first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug`` is
    the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, ``srch``
    the search (SEARCH_SIG) for the search seats. The loop
    works on ``unowned`` views of the inputs all threads share and of this thread's buffers
    (no reference counting, an atomic operation per array handed on; the arrays outlive the
    loop)."""
    st, tab, acts, sc, mo, gdeck, gplay = buffers()
    trace = np.zeros((0, TRACE_WIDTH), np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)
    legal = np.zeros(MAX_ACTS, np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)
    pp = unowned(pprm)
    for d in range(lo, hi):
        play_game(unowned(st), o, unowned(tab), seed, first + d, s, p, check, unowned(trace),
                  unowned(acts), unowned(sc), unowned(mo), unowned(gdeck), unowned(gplay), r[d],
                  plug, pp, unowned(view), unowned(legal), srch)


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` games starting at ``first`` on ``numba.get_num_threads()`` threads into
    ``rec`` (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``).
    ``plug``: the plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with
    its parameters ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    plug = no_plugin if plug is None else plug
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    threaded_batch(play_chunk, seed, first, count, opts, sids, params, check, rec, plug, pprm, srch, least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, game, opts, sids, params, check, trace, plug, pprm, srch):
    st, tab, acts, sc, mo, gdeck, gplay = buffers()
    row = np.zeros(RECORD_COLS, np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)
    legal = np.zeros(MAX_ACTS, np.int64)
    play_game(st, opts, tab, seed, game, sids, params, check, trace, acts, sc, mo, gdeck,
              gplay, row, plug, pprm, view, legal, srch)
    return st


def replay_game(seed, game, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one game alone with a trace buffer; returns the final state."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    return replay_kernel(seed, game, opts, sids, params, check, trace, no_plugin if plug is None else plug, pprm,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))
