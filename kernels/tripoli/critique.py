"""Tripoli's critique (issue 40): every legal action of the critiqued seat's decisions valued
(``critique_eval``, ``critique_deal``; ``critique`` with the table's callbacks).
"""
import numpy as np

from cardsim.kernels.critique import plain_row, race_actions, sampled, STREAM_CRITIQUE
from cardsim.kernels.jit import njit, no_plugin, plugin_params, search_callback
from cardsim.kernels.rng import mix64, stream_key
from cardsim.kernels.search import SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS
from cardsim.kernels.tripoli.layout import (
    BET_CTX, CHIPS, CL_INDEX, CUR, ERR, E_NO_MOVES, E_PLUGIN, MAX_ACTS, MWIN, N_PLUG_PARAMS, O_DEALS, PHASE, PLUGIN,
    P_OVER, REASON, ST_SIZE, S_SEARCH, TR_LEN, T_END, VIEW_SIZE,
)
from cardsim.kernels.tripoli.rules import clearing_start, log
from cardsim.kernels.tripoli.legal import apply_action, legal_actions
from cardsim.kernels.tripoli.view import decision_kind
from cardsim.kernels.tripoli.search import no_search, search_cfunc, world_values
from cardsim.kernels.tripoli.play import begin_deal, buffers, clearing_due, play_deal, seat_choice, step_capped


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
@njit(cache=True, inline='always')
def critique_world(wx, ww, active, out):
    """``world_values`` of world ``ww`` for ``race_actions`` (``wx``: ``critique_eval``'s)."""
    st, opts, p, acts, n, sid, pprm, rollouts, key, base, sim, acts2, cards, deck, gdeck, g, trace = wx
    world_values(st, opts, p, acts, n, active, sid, pprm, rollouts, key, ww, base, sim, acts2, cards, deck, gdeck, g,
                 trace, out)


@njit(cache=True)
def critique_eval(st, opts, acts, n, chosen, prm, key, row, acts_out):
    """Value every legal action ``acts[:n]`` of the seat to act with the search row ``prm``
    (``kernels.critique.race_actions``: a racing select stage over ``worlds`` worlds, then the best
    and the choice ``chosen`` measured on as many fresh ones): the seat's chips of the deal."""
    p = st[CUR]
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:]
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    g = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    wx = (st, opts, p, acts, n, sid, pprm, rollouts, key, base, sim, acts2, cards, deck, gdeck, g, trace)
    race_actions(critique_world, wx, acts, n, chosen, worlds, rollouts, row, acts_out)


@njit(cache=True, nogil=True)
def critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug,
                  pprm, srch):
    """Play deal ``deal_id`` of run ``seed`` exactly as the batch does (after its session's
    earlier deals, untraced) and write a ``kernels.critique`` row for each decision of ``seat``
    (at most ``len(rows)``; the clearing rounds' included); a sampled one (``rate``) with more
    than one legal action is valued by ``critique_eval`` (search row ``prm``), its state kept in
    ``snaps``. ``stop`` >= 0 stops before the deal's decision number ``stop`` (any seat's).
    Returns (rows written, decisions of ``seat``, the state)."""
    st, acts, gdeck, gplay, deck = buffers(opts)
    legal = np.empty(MAX_ACTS, np.int64)
    view = np.empty(VIEW_SIZE, np.int64)
    none = np.zeros((0, 4), np.int64)
    D = opts[O_DEALS]
    for d in range(deal_id // D * D, deal_id):
        play_deal(st, opts, seed, d, sids, params, False, none, acts, gdeck, gplay, deck, plug, pprm, view, legal,
                  srch)
    st[TR_LEN] = 0
    begin_deal(st, opts, seed, deal_id, gdeck, gplay, deck, trace)
    key = stream_key(seed, deal_id, np.int64(STREAM_CRITIQUE))
    k, seen, step = 0, 0, 0
    for stage in range(2):
        if stage == 1:                    # (stopped at the clearing's first decision: after its cards are dealt)
            if st[PHASE] != P_OVER or not clearing_due(st, opts):
                break
            clearing_start(st, opts, gdeck, deck, trace)
        while st[PHASE] != P_OVER and step != stop:
            if step_capped(st, opts):
                break
            n = legal_actions(st, opts, acts)
            if n == 0:
                st[ERR] = E_NO_MOVES
                break
            p = st[CUR]
            i = seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch)
            if i == -2:
                st[ERR] = E_PLUGIN
                break
            if p == seat:
                if k < len(rows):
                    plain_row(rows[k], seen, step, decision_kind(st), st[BET_CTX] * (1 + st[CL_INDEX]),
                              st[CHIPS + p], n, i, acts[i])
                    if n > 1 and sampled(key, seen, rate):
                        snaps[k, :ST_SIZE] = st
                        critique_eval(st, opts, acts, n, i, prm, mix64(key + np.uint64(seen + 1)), rows[k],
                                      acts_out[k])
                    k += 1
                seen += 1
            apply_action(st, opts, acts[i], gdeck, deck, trace)
            step += 1
    if step != stop:
        log(st, trace, T_END, st[MWIN], st[REASON], st[MWIN])
    return k, seen, st


def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)
