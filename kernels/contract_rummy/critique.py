"""Contract Rummy's critique (issue 40; ``kernels.critique`` has the contract): every answer of
the critiqued seat's questions valued by rollouts from the start of its turn segment
(``critique``, ``critique_deal``, ``critique_eval``).
"""
import numpy as np
from cardsim.kernels.critique import (
    ROUND as CR_ROUND, STREAM_CRITIQUE, finish_row, measure_pair, plain_row, round_done, sampled,
)
from cardsim.kernels.jit import njit, no_plugin, plugin_params, search_callback
from cardsim.kernels.rng import STREAM_PLAY, mix64, seed_stream, stream_key
from cardsim.kernels.search import SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS
from cardsim.kernels.contract_rummy.layout import (
    CM_RECORD, CV_BAD, CV_LOG, CV_MODE, CV_NLOG, CV_SEG, CV_SEGS, CV_SIZE, CV_STOP, CV_STOPPED, DEAL, DEALS, ERR,
    E_PLUGIN, FIRST_DEALER, HOLD, K_VOLUNTEER, LG_ANS, LG_CARD, LG_CODES, LG_HELD, LG_INFO, LG_KIND, LG_MELD, LG_N,
    LG_SEAT, LG_SEG, LG_STEP, LG_W, LOG_ROOM, MAX_LEGAL, MAX_MELDS, MAX_PACK, MO_ROWS, N, N_PLUG_PARAMS, O_PLAYERS,
    PERR, PLUGIN, SEG_ACT, SEG_OOT, SEG_W, SNAP_ST, SNAP_TAB, STREAM_DEAL, ST_SIZE, S_SEARCH, TW,
)
from cardsim.kernels.contract_rummy.actions import act_kind, pack_act
from cardsim.kernels.contract_rummy.rules import over, start_deal
from cardsim.kernels.contract_rummy.view import seat_row, seat_sid
from cardsim.kernels.contract_rummy.turns import play_turn
from cardsim.kernels.contract_rummy.play import buffers, close_deal, first_dealer, turn_capped
from cardsim.kernels.contract_rummy.search import (
    load_script, no_search, policy_table, rollout_from, search_cfunc, world_values,
)


# =============================================================================
# critique (issue 40): every answer of the critiqued seat's questions valued
# =============================================================================
# A game is played turn by turn by the batch's own ``play_turn`` with a critique's vb (record
# mode: every question of every seat logged with its legal codes and answer, the built-in seats'
# answers their own, as in the batch). After each turn, the critiqued seat's questions become
# rows; a sampled one is valued from the start of its turn segment (SEG_*: the state where the
# segment's first question was asked), the segment's earlier answers replayed from a script.
@njit(cache=True)
def decision_kind(act):
    """The decision kind (K_*) of a critique action code (``pack_act``)."""
    return act_kind(act)


@njit(cache=True)
def critique_eval(st, tab, opts, p, seg, q, script, m, acts, n, chosen, prm, key, row, acts_out, plug, asid, aprm,
                  apl):
    """Value every answer ``acts[:n]`` (critique action codes) of seat ``p``'s question with the
    search row ``prm`` (``kernels.critique``: a racing select stage over ``worlds`` worlds, then
    the best and the choice ``chosen`` measured on as many fresh ones) into ``row`` and
    ``acts_out``. ``st``, ``tab``: the start of the question's turn segment ``seg`` (``q``: the
    seat playing out of turn, -1 none); ``script[:m]``: the answers to the segment's questions
    before it (any seat's). Each world deals again what p cannot see and plays every answer out
    to the end of the deal (``world_values``) by the policy at every seat, as the search does,
    but for a question of step 2 (SEG_ACT) the rest of that step 2 by p's own strategy (``asid``,
    ``aprm``, ``apl``: the questions it asks depend on it). The value is p's ``deal_value`` (what
    the search maximizes). Returns the script answers that fit no question (0: tests)."""
    nseat = st[N]
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sids2, params2 = policy_table(nseat, np.int64(prm[SP_POLICY]), prm[SP_PRM:])
    own = seg == SEG_ACT
    osid = asid if own else sids2[0]
    oprm = aprm.copy() if own else params2[0].copy()
    opl = apl if own else False
    pprm2 = np.zeros((nseat, N_PLUG_PARAMS + 1), np.float64)
    vb = np.zeros(CV_SIZE, np.int64)
    vals = np.zeros((2 * worlds, n), np.float64)
    one = np.zeros((rollouts, n), np.float64)
    seen = np.zeros(n, np.int64)
    active = np.ones(n, np.bool_)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    tab2 = np.empty_like(tab)
    cards = np.empty(MAX_PACK, np.int64)
    g = np.empty(2, np.uint64)
    sc = np.zeros(16, np.int64)
    mo = np.zeros((MO_ROWS, HOLD), np.int64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + CR_ROUND)):
            world_value(st, tab, opts, p, seg, q, script, m, acts, n, active, sids2, params2, osid, oprm, opl, key,
                        ww, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm2, vb, one, vals[ww])
            for i in range(n):
                if active[i]:
                    played += rollouts
        w = min(worlds, w + CR_ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            world_value(st, tab, opts, p, seg, q, script, m, acts, n, active, sids2, params2, osid, oprm, opl, key,
                        ww, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm2, vb, one, vals[ww - worlds + w])
            played += 2 * rollouts
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)
    return vb[CV_BAD]


@njit(cache=True)
def world_value(st, tab, opts, p, seg, q, script, m, acts, n, active, sids2, params2, asid, aprm, apl, key, w,
                rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb, one, out):
    """``out[i]``: active answer i's mean value over the rollouts of world ``w`` (``world_values``
    into ``one``)."""
    world_values(st, opts, tab, p, seg, q, -1, script, m, acts, n, active, sids2, params2, asid, aprm, apl, key, w,
                 rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb, one)
    for i in range(n):
        if active[i]:
            t = 0.0
            for r in range(rollouts):
                t += one[r, i]
            out[i] = t / rollouts


@njit(cache=True)
def position_at(st, tab, opts, seg, q, script, m, asid, aprm, apl, plug, out):
    """The state and table (``out``, SEG_W) where the question after ``script[:m]`` of segment
    ``seg`` (started in ``st``, ``tab``) is asked: the segment replayed on its answers and
    stopped there. False (``out`` left alone) if the replay does not reach it (never: tests)."""
    nseat = st[N]
    sim = st.copy()
    tab2 = tab.copy()
    sids2, params2 = policy_table(nseat, asid, aprm)
    pprm2 = np.zeros((nseat, N_PLUG_PARAMS + 1), np.float64)
    vb = np.zeros(CV_SIZE, np.int64)
    load_script(vb, script, m, -1, m)
    g = np.zeros(2, np.uint64)
    rollout_from(sim, opts, tab2, sids2, params2, g, np.zeros(16, np.int64), np.zeros((MO_ROWS, HOLD), np.int64),
                 plug, pprm2, vb, seg, q, asid, aprm, apl)
    if vb[CV_STOPPED] == 0 or vb[CV_BAD] != 0:
        return False
    out[:SEG_W] = vb[SNAP_ST:SNAP_ST + SEG_W]
    return True


@njit(cache=True)
def segment_of(vb, e, script):
    """Question ``e`` of the turn's log in ``vb`` (record mode): its turn segment (SEG_*), the
    seat playing out of turn there (``rollout_from``'s ``q``: the asked seat in SEG_OOT, the
    volunteer in SEG_ACT, else -1) and the answers to the segment's questions before it (any
    seat's, critique action codes ``pack_act``) in ``script``, their count. Returns (seg, q, m)."""
    r = CV_LOG + e * LG_W
    seg = vb[r + LG_SEG]
    oq = -1
    m = 0
    for e2 in range(e + 1):
        r2 = CV_LOG + e2 * LG_W
        if vb[r2 + LG_KIND] == K_VOLUNTEER and vb[r2 + LG_ANS] == 1:
            oq = vb[r2 + LG_SEAT]
        if e2 < e and vb[r2 + LG_SEG] == seg:
            script[m] = pack_act(vb[r2 + LG_KIND], vb[r2 + LG_ANS], vb[r2 + LG_CARD], vb[r2 + LG_MELD],
                                 vb[r2 + LG_INFO])
            m += 1
    q = vb[r + LG_SEAT] if seg == SEG_OOT else (oq if seg == SEG_ACT else -1)
    return seg, q, m


@njit(cache=True)
def turn_rows(st, opts, sids, params, seat, prm, rate, key, rows, acts_out, snaps, vb, k, seen, plug):
    """The critiqued seat's questions in the turn just played (its log in ``vb``) as rows
    ``rows[k:]`` (counted from ``seen``); a sampled one with more than one answer is valued
    (``critique_eval``, its position in ``snaps``) unless its segment's replay does not reach
    it (never: tests; the row stays unvalued). Returns the new (k, seen)."""
    ne = min(vb[CV_NLOG], LOG_ROOM)
    script = np.empty(ne + 1, np.int64)
    codes = np.empty(MAX_LEGAL, np.int64)
    asid = seat_sid(sids, params, seat)
    aprm = seat_row(sids, params, seat)
    apl = sids[seat] >= PLUGIN
    for e in range(ne):
        r = CV_LOG + e * LG_W
        kind, ans = vb[r + LG_KIND], vb[r + LG_ANS]
        if vb[r + LG_SEAT] != seat:
            continue
        if k < rows.shape[0]:
            n, card, meld, info = vb[r + LG_N], vb[r + LG_CARD], vb[r + LG_MELD], vb[r + LG_INFO]
            chosen = -1
            for i in range(n):
                codes[i] = pack_act(kind, vb[r + LG_CODES + i], card, meld, info)
                if chosen < 0 and vb[r + LG_CODES + i] == ans:
                    chosen = i
            act = codes[chosen] if chosen >= 0 else pack_act(kind, max(0, ans), card, meld, info)
            plain_row(rows[k], seen, vb[r + LG_STEP], kind, st[DEAL], vb[r + LG_HELD], n, chosen, act)
            if chosen >= 0 and n > 1 and sampled(key, seen, rate):
                seg, q, m = segment_of(vb, e, script)
                start = vb[CV_SEG + seg * SEG_W:CV_SEG + (seg + 1) * SEG_W]
                s0 = start[:ST_SIZE].copy()
                t0 = start[ST_SIZE:].copy().reshape(MAX_MELDS, TW)
                if position_at(s0, t0, opts, seg, q, script, m, asid, aprm, apl, plug, snaps[k]) and \
                        critique_eval(s0, t0, opts, seat, seg, q, script, m, codes[:n].copy(), n, chosen, prm,
                                      mix64(key + np.uint64(seen + 1)), rows[k], acts_out[k], plug, asid, aprm,
                                      apl) != 0:
                    plain_row(rows[k], seen, vb[r + LG_STEP], kind, st[DEAL], vb[r + LG_HELD], n, chosen, act)
            k += 1
        seen += 1
    return k, seen


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug, pprm,
                  srch):
    """Play game ``game`` of run ``seed`` exactly as ``play_game`` does (the same streams, turn by
    turn through ``play_turn``) and write a ``kernels.critique`` row for each question of
    ``seat`` (at most ``len(rows)``): the plug-in kinds K_*, the action codes ``pack_act``,
    CR_PHASE the deal (its contract), CR_DETAIL the cards the seat holds. A sampled one
    (``rate``) with more than one answer is valued by ``critique_eval`` with the search row
    ``prm``; its position (state and table, SEG_W) is kept in ``snaps``. ``stop`` >= 0 stops the
    game before its question number ``stop`` (any seat's: ``CR_STEP``), the state there
    (``replay --until-decision``: the trace up to it). Returns (rows written, questions of
    ``seat``, the final state)."""
    st, tab, sc, mo, gdeck, gplay, _ = buffers()
    vb = np.zeros(CV_SIZE, np.int64)
    vb[CV_MODE] = CM_RECORD
    vb[CV_STOP] = stop
    key = stream_key(seed, game, np.int64(STREAM_CRITIQUE))
    n = opts[O_PLAYERS]
    st[N] = n
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    dealer = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = dealer
    k, seen = 0, 0
    for d in range(1, DEALS + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_DEAL + d))
        start_deal(st, opts, d, dealer, gdeck, trace)
        while not over(st):
            if turn_capped(st, opts):
                break
            vb[CV_NLOG] = 0
            vb[CV_SEGS] = 0
            e = play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch)
            k, seen = turn_rows(st, opts, sids, params, seat, prm, rate, key, rows, acts_out, snaps, vb, k, seen,
                                plug)
            if vb[CV_STOPPED]:
                return k, seen, vb[SNAP_ST:SNAP_TAB].copy()
            if st[PERR]:
                st[ERR] = E_PLUGIN
                return k, seen, st
            if e:
                st[ERR] = e
                return k, seen, st
        close_deal(st, opts, trace)
        dealer = (dealer + 1) % n
    return k, seen, st


def critique(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)
