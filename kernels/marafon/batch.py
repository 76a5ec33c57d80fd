"""Marafon's entry points: a batch of matches on threads (``play_batch`` over the ``nogil``
``play_chunk``) and one match replayed with its trace (``replay_match``)."""
import numpy as np

from cardsim.kernels.jit import njit, no_plugin, plugged_callback, threaded_batch, unowned, with_plugin_params
from cardsim.kernels.marafon.layout import CHUNK, N_PLUG_PARAMS, PLUGIN, RECORD_COLS, S_SEARCH, ST_SIZE, TRACE_W
from cardsim.kernels.marafon.play import no_plugged, play_match, plugged_cfunc


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, hand):
    """Play matches first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug`` is
    the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, its
    parameters in ``params`` from column N_PARAMS on (``jit.with_plugin_params``); ``hand`` plays
    the hands of a table with a plug-in or search seat (PLUGGED_SIG)."""
    st = np.zeros(ST_SIZE, np.int64)
    gdeck = np.zeros(2, np.uint64)
    gplay = np.zeros(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)   # shared by threads
    for d in range(lo, hi):
        play_match(unowned(st), o, seed, first + d, s, p, check, unowned(trace), unowned(gdeck),
                   unowned(gplay), r[d], plug, hand)


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` matches starting at ``first`` on ``numba.get_num_threads()`` threads into
    ``rec`` (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``).
    ``plug``: the plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with
    its parameters ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    threaded_batch(play_chunk, seed, first, count, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS),
                   check, rec, no_plugin if plug is None else plug,
                   plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged), least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, game, opts, sids, params, check, trace, plug, hand):
    st = np.zeros(ST_SIZE, np.int64)
    row = np.zeros(RECORD_COLS, np.int64)
    play_match(st, opts, seed, game, sids, params, check, trace, np.zeros(2, np.uint64),
               np.zeros(2, np.uint64), row, plug, hand)
    return st


def replay_match(seed, game, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one match alone with a trace buffer; returns the final state."""
    return replay_kernel(seed, game, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), check, trace,
                         no_plugin if plug is None else plug,
                         plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged))
