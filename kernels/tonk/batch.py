"""Tonk's entry points: a batch of deals on threads (``play_batch`` over the ``nogil``
``play_chunk``), one deal replayed with its trace (``replay_deal``), and the deal-only floor
benchmark (``deal_only_batch``)."""
import numpy as np
from numba import prange

from cardsim.kernels.jit import no_plugin, njit, plugin_params, search_callback, threaded_batch, unowned
from cardsim.kernels.rng import STREAM_DECK, seed_stream
from cardsim.kernels.tonk.layout import CHUNK, DEALER, MAX_ACTS, N_PLUG_PARAMS, PLUGIN, S_SEARCH, VIEW_SIZE
from cardsim.kernels.tonk.play import play_deal, write_record
from cardsim.kernels.tonk.rules import deal_cards, deal_tonk_holders, dealer_of, new_state
from cardsim.kernels.tonk.search import no_search, search_cfunc


# =============================================================================
# a batch, a replay
# =============================================================================
@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, pprm, srch):
    """Play deals first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug`` is
    the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, ``srch``
    the search (SEARCH_SIG) for the search seats."""
    st = new_state(opts)
    acts = np.empty(MAX_ACTS, dtype=np.int64)
    legal = np.empty(MAX_ACTS, dtype=np.int64)
    view = np.empty(VIEW_SIZE, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    gplay = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)   # shared by threads
    pp = unowned(pprm)
    for d in range(lo, hi):
        play_deal(st, o, seed, first + d, s, p, check, trace, acts, gdeck, gplay, plug, pp, view, legal, srch)
        write_record(st, r[d])


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` deals starting at ``first`` on ``numba.get_num_threads()`` threads into ``rec``
    (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``). ``plug``: the
    plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with its parameters
    ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    plug = no_plugin if plug is None else plug
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    threaded_batch(play_chunk, seed, first, count, opts, sids, params, check, rec, plug, pprm, srch, least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, deal_id, opts, sids, params, check, trace, plug, pprm, srch, st, acts, legal, view, gdeck,
                  gplay):
    play_deal(st, opts, seed, deal_id, sids, params, check, trace, acts, gdeck, gplay, plug, pprm, view, legal,
              srch)
    return st


def replay_deal(seed, deal_id, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one deal alone with a trace buffer; returns the final state. The working arrays
    are made here, outside the compiled call: ``play_deal`` (inlined) works on ``unowned``
    views, so the arrays must outlive the call; locals of the kernel whose last use is the
    call would be freed under the views (a search seat's allocations then reused them)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return replay_kernel(seed, deal_id, opts, sids, params, check, trace, no_plugin if plug is None else plug, pprm,
                         srch, new_state(opts), np.empty(MAX_ACTS, dtype=np.int64), np.empty(MAX_ACTS, dtype=np.int64),
                         np.empty(VIEW_SIZE, dtype=np.int64), np.empty(2, dtype=np.uint64),
                         np.empty(2, dtype=np.uint64))


@njit(cache=True, parallel=True)
def deal_only_batch(seed, first, count, opts, out):
    """Floor benchmark and deal-tonk statistics: shuffle, deal and check only.

    ``out[d]`` = number of deal-tonk hands in deal ``first + d`` (first deal, no redeal).
    """
    chunks = (count + CHUNK - 1) // CHUNK
    for c in prange(chunks):
        st = new_state(opts)
        gdeck = np.empty(2, dtype=np.uint64)
        trace = np.empty((0, 4), dtype=np.int64)
        for d in range(c * CHUNK, min(count, (c + 1) * CHUNK)):
            seed_stream(gdeck, seed, first + d, np.int64(STREAM_DECK))
            st[DEALER] = dealer_of(opts, seed, first + d)
            deal_cards(st, opts, gdeck, trace)
            out[d] = deal_tonk_holders(st, opts)[0]
