"""Telefunken's critique (issue 40): every legal action of the critiqued seat's decisions valued
by the search's worlds (``critique_deal``, ``critique``)."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.critique import (
    ROUND as CR_ROUND, STREAM_CRITIQUE, finish_row, measure_pair, plain_row, round_done, sampled,
)
from cardsim.kernels.jit import njit, no_plugin, plugin_params, search_callback
from cardsim.kernels.rng import below, mix64, seed_stream, shuffle, stream_key
from cardsim.kernels.search import SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS, seed_sub, shuffle_prefix
from cardsim.kernels.telefunken.layout import (
    ASK, A_DISCARD, A_GO_DOWN, A_GO_OUT7, CHIPS, CUR, CUT_AIMED, CUT_CODE, CUT_EXACT, CUT_KEEPS, CUT_KEPT, DEALER,
    DECK_SIZE, ERR, E_NO_MOVES, E_PLUGIN, HNO, JK, KEEP_CODE, KEEP_SET, KN_STRIDE, K_BUY, K_CHOOSE, K_CUT,
    K_DISCARD, K_EXCHANGE, K_GO_DOWN, K_GO_OUT, K_KEEP, K_LAY, K_UPCARD, MAX_ACTS, N, N_PLUG_PARAMS, O_CUT_AIM,
    O_CUT_JOKERS, O_CUT_MODEL, O_CUT_SPREAD, O_HANDS, O_PLAYERS, PEN, PHASE, PLUGIN, P_ACT, P_BUY, P_CHOOSE,
    P_EXCHANGE, P_OVER, P_UPCARD, Q_KEEP_JOKERS, RECORD_COLS, SNAP_CUT, SNAP_INSPECT, SNAP_SIZE, SNAP_TAB, STOCK,
    STREAM_HAND, ST_SIZE, S_SEARCH, TRACE_WIDTH, TRUNC, VIEW_SIZE, X_CHIP,
)
from cardsim.kernels.telefunken.rules import (
    cut_bottom, deal_cut, open_hand, planner_like, reset_hand, start_hand,
)
from cardsim.kernels.telefunken.legal import legal_actions
from cardsim.kernels.telefunken.apply import apply_action
from cardsim.kernels.telefunken.close import write_game
from cardsim.kernels.telefunken.search import (
    no_search, search_cfunc, search_rollout, search_value, world_values,
)
from cardsim.kernels.telefunken.play import buffers, close_hand, cut_choices, open_game, seat_choice


@njit(cache=True)
def decision_kind(st, acts, n):
    """The plug-in kind (K_*) of the decision ``acts[:n]`` of the seat to act, as ``plugin_pick``
    asks it (a turn's step: K_GO_DOWN / K_GO_OUT / K_LAY while it offers table actions, the
    discards among them; the cut stage's K_CUT and K_KEEP are not decisions of a state)."""
    ph = st[PHASE]
    if ph == P_BUY:
        return K_BUY
    if ph == P_UPCARD:
        return K_UPCARD
    if ph == P_EXCHANGE:
        return K_EXCHANGE
    if ph == P_CHOOSE:
        return K_CHOOSE
    if ph == P_ACT and n > 0:
        a0 = acts[0] & 15
        if a0 == A_GO_DOWN:
            return K_GO_DOWN
        if a0 == A_GO_OUT7:
            return K_GO_OUT
        if a0 != A_DISCARD:
            return K_LAY
    return K_DISCARD


@njit(cache=True)
def cut_world_values(st, tab, opts, p, kind, acts, n, active, insp, prm, sid, pprm, key, w, sim, stab, sc, mo, deck,
                     wsids, g, a2, trace, vals, off):
    """World ``w`` of a cut-stage decision of the cutter ``p`` (``st``: the hand reset, nothing
    dealt; streams keyed by ``key``): the deck it cannot see dealt at random as the dealing
    sequence (the bottom portion, then the top portion; K_KEEP: the three inspected cards
    ``insp`` last, where the cut puts them) and the cut's noise; each active action cuts and
    deals from them: K_CUT an aim (bottom portion aim + the noise; the sequence stays, so only
    whether the cut is exact differs, and actions alike share one rollout), K_KEEP a number of
    inspected jokers kept (at K_CUT the policy keeps as it would). The hand is rolled out
    ``rollouts`` times by the policy at every seat; ``vals[i, off + r]`` = ``search_value``
    plus the points an exact cut took off the penalty. Returns the rollouts played."""
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    chip = prm[X_CHIP]
    h, dealer = st[HNO], st[DEALER]
    seed_sub(g, key, w, -1)
    cnt = np.full(KN_STRIDE, 2, np.int64)
    cnt[JK] = DECK_SIZE - 104
    if kind == K_KEEP:
        for j in range(3):
            cnt[insp[j]] -= 1
            deck[DECK_SIZE - 3 + j] = insp[j]
    m = 0
    for c in range(KN_STRIDE):
        for _ in range(cnt[c]):
            deck[m] = c
            m += 1
    shuffle_prefix(deck, m, g)
    if kind == K_KEEP:
        b0 = cut_bottom(opts, g, st[CUT_AIMED])
    else:
        s = opts[O_CUT_SPREAD]
        b0 = below(g, 2 * s + 1) - s             # the noise of the aimed cut
    wsids[:] = sid
    if kind == K_KEEP:
        wsids[p] = PLUGIN + sid                  # keeps as many as the action says (KEEP_SET)
    cache = np.zeros(2, np.float64)
    done = np.zeros(2, np.bool_)
    played = 0
    for r in range(rollouts):
        done[:] = False
        for i in range(n):
            if not active[i]:
                continue
            b = b0 if kind == K_KEEP else min(max((acts[i] & 0xFFFF) + b0, 1), DECK_SIZE - 3)
            t = DECK_SIZE - b
            sim[:] = st
            stab[:] = tab
            for j in range(b):
                sim[STOCK + t + j] = deck[j]
            for j in range(t):
                sim[STOCK + j] = deck[b + j]
            sim[KEEP_SET] = 1 if kind == K_KEEP else 0
            if kind == K_KEEP:
                sim[CUT_KEEPS] = acts[i] & 0xFFFF
            else:
                sim[CUT_KEEPS] = int(pprm[Q_KEEP_JOKERS]) if planner_like(sid) else 3
            seed_sub(g, key, w, r)
            deal_cut(sim, opts, h, dealer, b, wsids, g, trace)
            e = sim[CUT_EXACT]
            if kind == K_CUT and done[e]:
                vals[i, off + r] = cache[e]
                continue
            open_hand(sim, opts, g, trace)
            search_rollout(sim, opts, stab, sc, mo, sid, pprm, g, a2, trace)
            v = search_value(sim, st, opts, p, chip) + st[PEN + p] - sim[PEN + p]
            vals[i, off + r] = v
            cache[e] = v
            done[e] = True
            played += 1
    return played


@njit(cache=True)
def critique_world(st, tab, opts, p, kind, acts, cand, n, active, insp, prm, sid, pprm, key, w, base, sim, stab, sc,
                   mo, cards, wsids, g, a2, trace, out):
    """World ``w`` of a critiqued decision: ``out[i, r]`` the value of action i in rollout r
    (``world_values``, the search's; the cut stage: ``cut_world_values``); returns the rollouts
    played."""
    if kind == K_CUT or kind == K_KEEP:
        return cut_world_values(st, tab, opts, p, kind, acts, n, active, insp, prm, sid, pprm, key, w, sim, stab, sc,
                                mo, cards, wsids, g, a2, trace, out, 0)
    world_values(st, tab, opts, p, acts, cand, n, active, prm, sid, pprm, key, w, base, sim, stab, sc, mo, cards, g,
                 a2, trace, out, 0)
    return max(1, int(prm[SP_ROLLOUTS])) * active[:n].sum()


@njit(cache=True)
def critique_eval(st, tab, opts, kind, acts, n, chosen, prm, key, row, acts_out, insp):
    """Value every legal action ``acts[:n]`` of the seat deciding in ``st`` (table ``tab``) with
    the search row ``prm`` (``kernels.critique``: a racing select stage over ``worlds`` worlds,
    then the best and the choice ``chosen`` measured on as many fresh ones) into ``row`` and
    ``acts_out``. A world deals what the seat cannot see again (``determinize``) and rolls each
    action out to the end of the hand with the policy at every seat; the value is the search's
    (``search_value``: minus the seat's penalty of the hand, less X_CHIP points per chip spent
    before the last hand). ``kind`` K_CUT / K_KEEP: the cutter's decision before the deal
    (``st`` the hand reset, ``insp`` the inspected cards; ``cut_world_values``)."""
    cut = kind == K_CUT or kind == K_KEEP
    p = (st[DEALER] + st[N] - 1) % st[N] if cut else (st[ASK] if st[PHASE] == P_BUY else st[CUR])
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:].copy()                      # C-contiguous: choose's compiled signature
    vals = np.zeros((2 * worlds, n), np.float64)
    out = np.zeros((n, rollouts), np.float64)
    seen = np.zeros(n, np.int64)
    active = np.ones(n, np.bool_)
    cand = np.arange(n)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    stab = np.empty_like(tab)
    sc = np.empty((MAX_ACTS, 3), np.int64)
    mo = np.empty((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    cards = np.empty(DECK_SIZE, np.int64)
    wsids = np.empty(st[N], np.int64)
    g = np.empty(2, np.uint64)
    a2 = np.empty(MAX_ACTS, np.int64)
    trace = np.zeros((0, TRACE_WIDTH), np.int64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + CR_ROUND)):
            played += critique_world(st, tab, opts, p, kind, acts, cand, n, active, insp, prm, sid, pprm, key, ww,
                                     base, sim, stab, sc, mo, cards, wsids, g, a2, trace, out)
            for i in range(n):
                if active[i]:
                    vals[ww, i] = out[i].sum() / rollouts
        w = min(worlds, w + CR_ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            played += critique_world(st, tab, opts, p, kind, acts, cand, n, active, insp, prm, sid, pprm, key, ww,
                                     base, sim, stab, sc, mo, cards, wsids, g, a2, trace, out)
            vals[ww - worlds + w, best] = out[best].sum() / rollouts
            vals[ww - worlds + w, chosen] = out[chosen].sum() / rollouts
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)


@njit(cache=True)
def critique_row(st, tab, opts, kind, acts, n, chosen, seat, prm, key, rate, seen, step, rows, acts_out, snaps, k,
                 cut, insp):
    """Row ``k`` (if there is room) of the decision ``acts[:n]`` of ``seat`` (its ``seen``-th,
    the game's ``step``-th): phase = the hand, detail = the seat's chips; a sampled one with
    more than one legal action (and no more than ``acts_out`` holds) is valued
    (``critique_eval``) and its snapshot kept (SNAP_*: the state, the table, ``cut`` and the
    inspected cards). Returns the rows written."""
    if k >= len(rows):
        return k
    plain_row(rows[k], seen, step, kind, st[HNO], st[CHIPS + seat], n, chosen, acts[chosen])
    if n > 1 and n <= acts_out.shape[1] and sampled(key, seen, rate):
        snaps[k, :ST_SIZE] = st
        snaps[k, SNAP_TAB:SNAP_CUT] = tab.ravel()
        snaps[k, SNAP_CUT] = cut
        snaps[k, SNAP_INSPECT:SNAP_SIZE] = insp
        critique_eval(st, tab, opts, kind, acts, n, chosen, prm, mix64(key + np.uint64(seen + 1)), rows[k],
                      acts_out[k], insp)
    return k + 1


@njit(cache=True)
def inspected(st, opts, gdeck, insp):
    """The three cards the cutter inspects in the hand about to be dealt (``insp``, the deck
    shuffled ahead on a copy of the hand's stream, as ``plugin_cut``); returns the jokers
    among them."""
    t = st.copy()
    g = gdeck.copy()
    for i in range(DECK_SIZE):
        t[STOCK + i] = i // 2 if i < 104 else JK
    shuffle(g, t, STOCK, STOCK + DECK_SIZE)
    top = DECK_SIZE - cut_bottom(opts, g, st[CUT_AIMED])
    j = 0
    for i in range(3):
        insp[i] = t[STOCK + top - 3 + i]
        if insp[i] == JK:
            j += 1
    return j


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug, pprm,
                  srch):
    """Play game ``game`` of run ``seed`` exactly as ``play_game`` does (the same streams, cut
    choices, plug-in and search seats) and write a ``kernels.critique`` row for each decision
    of ``seat`` (at most ``len(rows)``): its cuts (K_CUT under the aimed cut model: the bottom
    portion aimed at, the actions CUT_CODE | 1 .. 105; K_KEEP under cut_joker_keep=optional
    with jokers among the inspected cards: KEEP_CODE | kept), then every decision of the hand
    (``decision_kind``; a turn's step is one decision among all its actions, table actions and
    discards). A sampled one (``rate``, its own stream from STREAM_CRITIQUE, never a play
    stream) with more than one legal action is valued by ``critique_eval`` with the search row
    ``prm``, its snapshot in ``snaps`` (SNAP_SIZE wide). ``stop`` >= 0 stops the game before its
    decision number ``stop`` (any seat's, the cut stage's counted: ``CR_STEP``), the state there
    (a cut-stage decision: the hand reset, nothing dealt). Returns (rows written, decisions of
    ``seat``, the final state: totals with the leftover-chip points as the batch's)."""
    st, tab, acts, sc, mo, gdeck, gplay = buffers()
    view = np.zeros(VIEW_SIZE, np.int64)
    legal = np.zeros(MAX_ACTS, np.int64)
    full = np.zeros(MAX_ACTS, np.int64)
    cut = np.zeros(DECK_SIZE, np.int64)
    pre = np.zeros(ST_SIZE, np.int64)
    insp = np.full(3, -1, np.int64)
    none = np.full(3, -1, np.int64)
    record = np.zeros(RECORD_COLS, np.int64)
    n = opts[O_PLAYERS]
    dealer = open_game(st, opts, seed, game, gdeck, gplay)
    key = stream_key(seed, game, np.int64(STREAM_CRITIQUE))
    k, seen, step, stopped = 0, 0, 0, False
    for h in range(1, opts[O_HANDS] + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_HAND + h))
        e = cut_choices(st, opts, tab, h, dealer, sids, params, gdeck, plug, pprm, view, legal)
        if e:
            st[ERR] = e
            break
        cutter = (dealer + n - 1) % n
        reset_hand(st, h, dealer)                   # (start_hand resets it again: the same)
        pre[:] = st
        jokers = inspected(st, opts, gdeck, insp) if opts[O_CUT_JOKERS] == 1 else 0
        if opts[O_CUT_MODEL] == 0:                  # K_CUT: the cutter's aim
            if step == stop:
                stopped = True
                break
            if cutter == seat:
                for i in range(DECK_SIZE - 3):
                    cut[i] = CUT_CODE | (i + 1)
                aim = st[CUT_AIMED] if st[CUT_AIMED] > 0 else opts[O_CUT_AIM]
                k = critique_row(pre, tab, opts, K_CUT, cut, DECK_SIZE - 3, min(max(aim, 1), DECK_SIZE - 3) - 1,
                                 seat, prm, key, rate, seen, step, rows, acts_out, snaps, k, 1, none)
                seen += 1
            step += 1
        keep_step = -1
        if jokers > 0:                              # K_KEEP: how many inspected jokers to keep
            if step == stop:
                stopped = True
                break
            keep_step = step
            step += 1
        trunc = st[TRUNC]
        start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
        if keep_step >= 0 and cutter == seat:       # (its answer is known once the deal is done)
            for i in range(jokers + 1):
                cut[i] = KEEP_CODE | i
            k = critique_row(pre, tab, opts, K_KEEP, cut, jokers + 1, st[CUT_KEPT], seat, prm, key, rate, seen,
                             keep_step, rows, acts_out, snaps, k, 2, insp)
            seen += 1
        while st[PHASE] != P_OVER:
            if step == stop:
                stopped = True
                break
            m = legal_actions(st, opts, tab, sc, mo, acts)
            if m == 0:
                st[ERR] = E_NO_MOVES
                break
            p = st[ASK] if st[PHASE] == P_BUY else st[CUR]
            kind = -1
            if p == seat:                           # (the seat's choice may reorder acts: a copy)
                kind = decision_kind(st, acts, m)
                full[:m] = acts[:m]
            _, i = seat_choice(st, opts, tab, acts, m, p, sids, params, sc, mo, gplay, plug, pprm, view, legal, srch)
            if i == -2:
                st[ERR] = E_PLUGIN
                break
            x = acts[i]
            if p == seat:
                c = 0
                while full[c] != x:
                    c += 1
                k = critique_row(st, tab, opts, kind, full, m, c, seat, prm, key, rate, seen, step, rows, acts_out,
                                 snaps, k, 0, none)
                seen += 1
            apply_action(st, opts, tab, mo, x, gplay, trace)
            step += 1
        if stopped or st[ERR]:
            break
        close_hand(st, opts, tab, sc, mo, acts, trunc, trace)
        dealer = (dealer + 1) % n
    if not stopped:
        write_game(st, opts, record)
    return k, seen, st


def critique(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)
