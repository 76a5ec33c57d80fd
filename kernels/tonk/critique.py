"""Tonk's critique (issue 40): every legal action of the critiqued seat's decisions valued by
the search's worlds (``kernels.critique`` for the shared parts)."""
import numpy as np

from cardsim.kernels.critique import STREAM_CRITIQUE, plain_row, race_actions, sampled
from cardsim.kernels.jit import njit, no_plugin, plugin_params, search_callback
from cardsim.kernels.rng import STREAM_DECK, STREAM_PLAY, mix64, seed_stream, stream_key
from cardsim.kernels.search import SP_ROLLOUTS, SP_WORLDS
from cardsim.kernels.tonk.layout import (
    CUR,
    E_NO_MOVES,
    E_PLUGIN,
    ERR,
    HAND,
    MAX_ACTS,
    N,
    N_PLUG_PARAMS,
    P_OVER,
    PHASE,
    PLUGIN,
    S_SEARCH,
    ST_SIZE,
    SX_INFER,
    TR_LEN,
    TURNS,
    VIEW_SIZE,
)
from cardsim.kernels.tonk.play import seat_choice
from cardsim.kernels.tonk.rules import apply_action, dealer_of, hand_count, legal_actions, new_state, start_deal
from cardsim.kernels.tonk.infer import HIST_MAX, history_slots, infer_world
from cardsim.kernels.tonk.search import no_search, play_world, search_cfunc, world_values
from cardsim.kernels.tonk.view import decision_kind


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
@njit(cache=True, inline='always')
def world(st, p, opts, acts, n, active, prm, key, ww, base, sim, acts2, cards, g, trace, out, st0, hist, nh, slots,
          cands):
    """World ``ww`` of an evaluation: a uniform one (``world_values``), or with ``cands`` > 0 an
    inference world (``infer.infer_world``) played out the same way."""
    if cands > 0:
        infer_world(st, p, opts, st0, hist, nh, slots, cands, prm, key, ww, base, cards, g)
        play_world(base, p, opts, acts, n, active, prm, key, ww, sim, acts2, g, trace, out)
    else:
        world_values(st, p, opts, acts, n, active, prm, key, ww, base, sim, acts2, cards, g, trace, out)


@njit(cache=True, inline='always')
def critique_world(wx, ww, active, out):
    """``world`` of world ``ww`` for ``race_actions`` (``wx``: ``evaluate``'s arguments)."""
    st, p, opts, acts, n, prm, key, base, sim, acts2, cards, g, trace, st0, hist, nh, slots, cands = wx
    world(st, p, opts, acts, n, active, prm, key, ww, base, sim, acts2, cards, g, trace, out, st0, hist, nh, slots,
          cands)


@njit(cache=True)
def critique_eval(st, opts, acts, n, chosen, prm, key, row, acts_out):
    """Value every legal action ``acts[:n]`` of the seat to act with the search row ``prm``
    (``kernels.critique.race_actions``: a racing select stage over ``worlds`` worlds, then the best
    and the choice ``chosen`` measured on as many fresh ones) into ``row`` and ``acts_out``; uniform
    worlds (no history of the deal)."""
    evaluate(st, opts, acts, n, chosen, prm, key, row, acts_out, st, np.empty(0, dtype=np.int64), 0, 0)


@njit(cache=True)
def evaluate(st, opts, acts, n, chosen, prm, key, row, acts_out, st0, hist, nh, cands):
    """``critique_eval`` whose worlds, where ``cands`` > 0, are inference worlds (``infer``: of
    ``cands`` deals consistent with the ``nh`` actions ``hist`` played since the hand's first
    state ``st0``, one kept by how well the rivals' model explains their play)."""
    p = st[CUR]
    owner, avail, laid = np.empty(52, dtype=np.int64), np.empty(52, dtype=np.int64), np.empty(52, dtype=np.int64)
    due = np.empty((52, 2), dtype=np.int64)
    k = history_slots(st0, opts, hist, nh, p, owner, avail, laid, due) if cands > 0 else 0
    slots = (owner, avail, laid, due, k)
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    g = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    wx = (st, p, opts, acts, n, prm, key, base, sim, acts2, cards, g, trace, st0, hist, nh, slots, cands)
    race_actions(critique_world, wx, acts, n, chosen, worlds, rollouts, row, acts_out)


@njit(cache=True, nogil=True)
def critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug,
                  pprm, srch):
    """Play deal ``deal_id`` of run ``seed`` exactly as ``play_deal`` does and write a
    ``kernels.critique`` row for each decision of ``seat`` (at most ``len(rows)``); a sampled
    one (``rate``) with more than one legal action is valued by ``critique_eval`` with the search
    row ``prm``, its state kept in ``snaps``. ``stop`` >= 0 stops the deal before its decision
    number ``stop`` (any seat's: ``CR_STEP``), the state there (``replay --until-decision``).
    Returns (rows written, decisions of ``seat``, the final state)."""
    st = new_state(opts)
    acts = np.empty(MAX_ACTS, dtype=np.int64)
    legal = np.empty(MAX_ACTS, dtype=np.int64)
    view = np.empty(VIEW_SIZE, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    gplay = np.empty(2, dtype=np.uint64)
    seed_stream(gdeck, seed, deal_id, np.int64(STREAM_DECK))
    seed_stream(gplay, seed, deal_id, np.int64(STREAM_PLAY))
    key = stream_key(seed, deal_id, np.int64(STREAM_CRITIQUE))
    st[ERR] = 0
    st[TR_LEN] = 0
    start_deal(st, opts, gdeck, dealer_of(opts, seed, deal_id), trace)
    st0 = st.copy()                               # the hand's first state and its actions: the
    cands = int(prm[SX_INFER])                    # inference worlds' history (``infer``)
    hist = np.empty(HIST_MAX if cands > 0 else 0, dtype=np.int64)
    k, seen, step = 0, 0, 0
    while st[PHASE] != P_OVER and step != stop:
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
                plain_row(rows[k], seen, step, decision_kind(st), st[TURNS] // st[N],
                          hand_count(st[HAND + p]), n, i, acts[i])
                if n > 1 and sampled(key, seen, rate):
                    snaps[k, :ST_SIZE] = st
                    evaluate(st, opts, acts, n, i, prm, mix64(key + np.uint64(seen + 1)), rows[k], acts_out[k], st0,
                             hist, step, cands if step <= len(hist) else 0)
                k += 1
            seen += 1
        if step < len(hist):
            hist[step] = acts[i]
        apply_action(st, opts, acts[i], trace)
        step += 1
    return k, seen, st


def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)
