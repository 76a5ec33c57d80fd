"""Contract Rummy's plug-in seats (issue 17): the seat's view (``fill_view``), the question a
plug-in is asked (``ask``) with its legal list per decision kind (``K_*``), the step mode's
snapshot and the critique's question log (``crit_ask``, ``note``).
"""
import numpy as np
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.jit import njit, no_plugin, plugin_params
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.kernels.contract_rummy.layout import (
    BIG, CM_RECORD, CM_SCRIPT, CUR, CV_BAD, CV_LEN, CV_LOG, CV_MODE, CV_NLOG, CV_SCRIPT, CV_SEG, CV_SEGS, CV_STEP,
    CV_STOP, CV_STOPPED, DEAL, DEALER, DOWN, DREASON, D_STOPPED, HAND, HOLD, HSIZE, JOKER_DUE, K_BUY, K_DISCARD, K_DRAW,
    K_MELD, K_MELD_JOKERS, K_VOLUNTEER, LG_ANS, LG_CARD, LG_CODES, LG_HELD, LG_INFO, LG_KIND, LG_MELD, LG_N, LG_SEAT,
    LG_SEG, LG_STEP, LG_W, LOG_ROOM, MAX_LEGAL, MAX_MELDS, MAYI, N, NMELDS, N_PLUG_PARAMS, OOT, O_GO_OUT_DISCARD,
    O_MAYI_MODEL, PENDING, PERR, PILE, PILE_LEN, PLUGIN, PLUG_KINDS, RS_ANS, RS_AT, RS_C, RS_I, SEG_ACT, SEG_DISCARD,
    SEG_DRAW, SEG_OOT, SEG_W, SNAP, SNAP_SIZE, SNAP_ST, SNAP_TAB, STOCK_HI, STOCK_LO, ST_SIZE, S_SEARCH, TAKEN, TOTAL,
    TURN, TW, VB_SIZE,
    VIEW_SIZE, V_CARD, V_CUR, V_C_ALL, V_C_EXACT, V_C_RUNS, V_C_SETS, V_DEAL, V_DEALER, V_DOWN, V_HAND, V_HELD, V_INFO,
    V_INFO2, V_JOKER_DUE, V_KIND, V_MAYI, V_MELD, V_MODEL, V_NMELDS, V_OOT, V_PILE, V_PILE_LEN, V_PLAYERS, V_SEAT,
    V_STOCK, V_TAB, V_TAKEN, V_TOP, V_TOTAL, V_TURN, V_XFER, XFER,
)
from cardsim.kernels.contract_rummy.actions import act_code, act_kind, pile_card
from cardsim.kernels.contract_rummy.rules import hand_of, rules_of, spec_of, special7, top_card
from cardsim.kernels.contract_rummy.contracts import add_jokers
from cardsim.kernels.contract_rummy.strategies import discard_ok


# =============================================================================
# plug-in seats (issue 17): the view, the question, the legal lists
# =============================================================================
@njit(cache=True, inline='always')
def base_of(sid):
    """The built-in strategy of a seat (a plug-in seat's base)."""
    return sid - PLUGIN if sid >= PLUGIN else sid


@njit(cache=True, inline='always')
def seat_sid(sids, params, q):
    """The built-in that makes seat q's undecided choices: its base, or a search seat's policy."""
    s = base_of(sids[q])
    return np.int64(params[q, SP_POLICY]) if s == S_SEARCH else s


@njit(cache=True, inline='always')
def seat_row(sids, params, q):
    """The parameter row of ``seat_sid`` (a search seat: its policy's row)."""
    return params[q][SP_PRM:] if base_of(sids[q]) == S_SEARCH else params[q][0:]


@njit(cache=True)
def fill_view(st, opts, tab, p, kind, card, meld, info, info2, view):
    """What seat p may see, into ``view`` (the V_* layout): its own hand, the table, the
    discard pile, the counts and scores, the decision's details; never another hand, a
    penalty card or the stock."""
    n = st[N]
    view[:] = 0
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_PLAYERS] = n
    view[V_DEAL] = st[DEAL]
    view[V_DEALER] = st[DEALER]
    view[V_CUR] = st[CUR]
    view[V_TURN] = st[TURN]
    view[V_STOCK] = st[STOCK_HI] - st[STOCK_LO]
    view[V_PILE_LEN] = st[PILE_LEN]
    view[V_TOP] = top_card(st) if st[PILE_LEN] > 0 else -1
    view[V_TAKEN] = st[TAKEN]
    view[V_MODEL] = opts[O_MAYI_MODEL]
    view[V_JOKER_DUE] = st[JOKER_DUE]
    view[V_XFER] = st[XFER]
    view[V_CARD] = card
    view[V_MELD] = meld
    view[V_INFO] = info
    view[V_INFO2] = info2
    spec = spec_of(opts, st[DEAL])
    view[V_C_SETS] = spec[M.C_GROUPS]
    view[V_C_RUNS] = spec[M.C_RUNS]
    view[V_C_EXACT] = spec[M.C_GROUP_EXACT]
    view[V_C_ALL] = spec[F.CF_ALL]
    view[V_NMELDS] = st[NMELDS]
    for q in range(n):
        view[V_HELD + q] = st[HSIZE + q]
        view[V_DOWN + q] = st[DOWN + q]
        view[V_MAYI + q] = st[MAYI + q]
        view[V_OOT + q] = st[OOT + q]
        view[V_TOTAL + q] = st[TOTAL + q]
    for c in range(HOLD):
        view[V_HAND + c] = st[HAND + HOLD * p + c]
    for i in range(st[PILE_LEN]):
        view[V_PILE + pile_card(st[PILE + i])] += 1
    for i in range(st[NMELDS]):
        for f in range(TW):
            view[V_TAB + TW * i + f] = tab[i, f]


@njit(cache=True, inline='always')
def critiquing(vb):
    """A critique's vb in record or script mode (never in the batch: its vb is VB_SIZE long)."""
    return vb.shape[0] > SNAP_SIZE and vb[CV_MODE] != 0


@njit(cache=True)
def seg_of(kind, info):
    """The turn segment (SEG_*) where a question of ``kind`` (V_INFO ``info``) is asked."""
    if kind == K_DRAW or kind == K_BUY or kind == K_VOLUNTEER:
        return SEG_DRAW
    if kind == K_DISCARD:
        return SEG_OOT if info else SEG_DISCARD
    return SEG_ACT


@njit(cache=True)
def crit_ask(st, tab, p, kind, n, card, meld, info, vb):
    """A question in a critique (legal codes at ``vb[VIEW_SIZE + MAX_LEGAL:]``): the one counted
    CV_STOP stops the turn (snapshot at SNAP, the deal stopped as by a plug-in's stop); in script
    mode the next scripted answer's index (-1 and CV_BAD when it fits no legal code); in record
    mode it is logged (seat, kind, legal codes; its segment's start kept if it is the first)
    and -1 returned: the seat answers as in the batch, ``note`` logs the answer."""
    legal = vb[VIEW_SIZE + MAX_LEGAL:VIEW_SIZE + MAX_LEGAL + n]
    j = vb[CV_STEP]
    if j == vb[CV_STOP]:
        snapshot(st, tab, n, vb)
        vb[CV_STOPPED] = 1
        vb[CV_MODE] = 0
        st[PERR] = 1
        st[DREASON] = D_STOPPED
        return -1
    vb[CV_STEP] = j + 1
    if vb[CV_MODE] == CM_SCRIPT:
        a = vb[CV_SCRIPT + j] if j < vb[CV_LEN] else -1
        if j + 1 >= vb[CV_LEN] and vb[CV_STOP] < 0:
            vb[CV_MODE] = 0
        if a >= 0 and act_kind(a) == kind:
            for i in range(n):
                if legal[i] == act_code(a):
                    return i
        vb[CV_BAD] += 1
        vb[CV_MODE] = 0
        return -1
    e = vb[CV_NLOG]
    if e < LOG_ROOM:
        r = CV_LOG + e * LG_W
        seg = seg_of(kind, info)
        vb[r + LG_SEAT] = p
        vb[r + LG_KIND] = kind
        vb[r + LG_N] = n
        vb[r + LG_CARD] = card
        vb[r + LG_MELD] = meld
        vb[r + LG_INFO] = info
        vb[r + LG_ANS] = PENDING
        vb[r + LG_SEG] = seg
        vb[r + LG_STEP] = j
        vb[r + LG_HELD] = st[HSIZE + p]
        vb[r + LG_CODES:r + LG_CODES + n] = legal
        vb[CV_NLOG] = e + 1
        if not (vb[CV_SEGS] >> seg) & 1:
            vb[CV_SEGS] |= 1 << seg
            keep_state(st, tab, vb[CV_SEG + seg * SEG_W:CV_SEG + (seg + 1) * SEG_W])
    return -1


@njit(cache=True)
def keep_state(st, tab, out):
    """A state and its table into ``out`` (SEG_W: a critique snapshot)."""
    out[:ST_SIZE] = st
    k = ST_SIZE
    for i in range(MAX_MELDS):
        for f in range(TW):
            out[k] = tab[i, f]
            k += 1


@njit(cache=True, inline='always')
def note(vb, kind, code):
    """Record mode: the answer ``code`` to the question of ``kind`` logged last (if it waits
    for one)."""
    if critiquing(vb) and vb[CV_MODE] == CM_RECORD:
        e = vb[CV_NLOG] - 1
        if e >= 0:
            r = CV_LOG + e * LG_W
            if vb[r + LG_KIND] == kind and vb[r + LG_ANS] == PENDING:
                vb[r + LG_ANS] = code


@njit(cache=True, inline='always')
def asks(st, p, kind, pprm):
    """Plug-in seat p is asked decisions of this kind (its mask), and no answer stopped the deal."""
    return st[PERR] == 0 and (int(pprm[p, PLUG_KINDS]) >> kind) & 1 == 1


@njit(cache=True)
def ask(st, opts, tab, p, kind, n, card, meld, info, info2, plug, pprm, vb):
    """Plug-in seat p's choice among the n legal codes the caller wrote at
    ``vb[VIEW_SIZE + MAX_LEGAL:]``: ``plug(view, legal, n, prm)`` on its view and a copy of
    them, for the kinds in its mask. Returns the index, or -1: the base built-in decides (a
    kind not asked, or the answer -1). Any other answer stops the deal (PERR, the deal
    over: E_PLUGIN) and returns -1, so the turn winds down legally. A critique's vb
    (``critiquing``: every seat is asked, plug-in or not) first logs the question, stops
    there, or answers it from its script (``crit_ask``). Step mode resuming at this question
    (RS_ANS) answers it as the step adapter says, once (``resumed``)."""
    i = resumed(st)
    if i >= 0:
        return i
    if critiquing(vb):
        i = crit_ask(st, tab, p, kind, n, card, meld, info, vb)
        if i >= 0:
            return i
    if not asks(st, p, kind, pprm):
        return -1
    view = vb[:VIEW_SIZE]
    fill_view(st, opts, tab, p, kind, card, meld, info, info2, view)
    legal = vb[VIEW_SIZE:VIEW_SIZE + n]
    legal[:] = vb[VIEW_SIZE + MAX_LEGAL:VIEW_SIZE + MAX_LEGAL + n]
    i = plug(view, legal, n, pprm[p])
    if i == -1 or 0 <= i < n:
        return i
    if vb.shape[0] >= SNAP_SIZE:
        snapshot(st, tab, n, vb)
    st[PERR] = 1
    st[DREASON] = D_STOPPED
    return -1


@njit(cache=True, inline='always')
def resumed(st):
    """Step mode, resuming at the question asked in this state (its snapshot): the answer's
    index the step adapter gave (RS_ANS), used once; -1 when not resuming (the batch)."""
    if st[RS_ANS] == 0:
        return -1
    i = st[RS_ANS] - 1
    st[RS_ANS] = 0
    return i


@njit(cache=True, inline='always')
def resuming(st, site):
    """Step mode resumes at a question of ``site`` (RS_AT) not yet answered (RS_ANS)."""
    return st[RS_ANS] > 0 and st[RS_AT] == site


@njit(cache=True, inline='always')
def at(st, site, i, c):
    """Where a question is asked: ``site`` (RS_*), its loops' places i (RS_I) and c (RS_C)."""
    st[RS_AT] = site
    st[RS_I] = i
    st[RS_C] = c


@njit(cache=True)
def snapshot(st, tab, n, vb):
    """Step mode: the legal count, the state and the table at the question that stops the turn."""
    vb[SNAP] = n
    vb[SNAP_ST:SNAP_TAB] = st
    k = SNAP_TAB
    for i in range(MAX_MELDS):
        for f in range(TW):
            vb[k] = tab[i, f]
            k += 1


@njit(cache=True)
def ask_yes(st, opts, tab, p, kind, card, meld, info, plug, pprm, vb):
    """A yes/no decision (legal 0 no, 1 yes): 1, 0, or -1 (the base decides). The legal
    buffer is left alone for a seat not asked (after a stop it holds the stopping question's)."""
    if not (asks(st, p, kind, pprm) or critiquing(vb)):
        return -1
    vb[VIEW_SIZE + MAX_LEGAL] = 0
    vb[VIEW_SIZE + MAX_LEGAL + 1] = 1
    return ask(st, opts, tab, p, kind, 2, card, meld, info, 0, plug, pprm, vb)


@njit(cache=True)
def plug_discard(st, opts, tab, p, free, plug, pprm, vb):
    """K_DISCARD: the card a plug-in seat discards, -1 (the base decides)."""
    if not (asks(st, p, K_DISCARD, pprm) or critiquing(vb)):
        return -1
    m = VIEW_SIZE + MAX_LEGAL
    n = 0
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            vb[m + n] = c
            n += 1
    if n == 0:
        return -1
    a = ask(st, opts, tab, p, K_DISCARD, n, -1, -1, 1 if free else 0, 0, plug, pprm, vb)
    return vb[m + a] if a >= 0 else -1


@njit(cache=True)
def plug_target(st, opts, tab, p, kind, c, meld, keep, on_table, plug, pprm, vb):
    """K_LAYOFF / K_JOKER: 0 keep (``keep``: allowed), 1 + t on meld t (``on_table``: the
    melds that take c); -1: the base decides (or no choice to ask about)."""
    if not (asks(st, p, kind, pprm) or critiquing(vb)):
        return -1
    m = VIEW_SIZE + MAX_LEGAL
    n = 0
    if keep:
        vb[m] = 0
        n = 1
    if on_table:
        rules = rules_of(opts)
        for t in range(st[NMELDS]):
            if F.can_lay(tab[t], c, rules):
                vb[m + n] = 1 + t
                n += 1
    if n == 0:
        return -1
    a = ask(st, opts, tab, p, kind, n, c, meld, 1 if keep else 0, 0, plug, pprm, vb)
    return vb[m + a] if a >= 0 else -1


@njit(cache=True)
def rows_len(rows, nm):
    k = 0
    for i in range(nm):
        k += F.row_len(rows[i])
    return k


@njit(cache=True)
def plug_meld(st, opts, tab, p, mo, plug, pprm, vb):
    """K_MELD (the engine's meld in mo): 0 not now, 1 the engine's meld, 2 the plain best
    meld (most natural points, fewest jokers) where the engine preferred a meld that goes
    out or leaves one card and the plain one is legal, 3 + c a meld of every card but one
    c (kept to discard: going out next); the meld chosen is left in mo. Returns the code, or
    -1 (the base decides)."""
    if not (asks(st, p, K_MELD, pprm) or critiquing(vb)):
        return -1
    spec, rules, h = spec_of(opts, st[DEAL]), rules_of(opts), hand_of(st, p)
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    held = st[HSIZE + p]
    left1 = held - rows_len(mo, nm)
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    left2 = -1
    if F.sep_solve_contract_ws(h, spec, rules, trial, False, mo[2 * F.MAX_CM + 2:]) >= 0:
        l2 = held - rows_len(trial, nm)
        same = True
        for k in range(nm):
            for f in range(M.M_SIZE):
                if trial[k, f] != mo[k, f]:
                    same = False
        if not same and (l2 > 0 or opts[O_GO_OUT_DISCARD] == 0 or special7(st, opts)):
            left2 = l2
    m = VIEW_SIZE + MAX_LEGAL
    vb[m] = 0
    vb[m + 1] = 1
    n = 2
    if left2 >= 0:
        vb[m + 2] = 2
        n = 3
    every = mo[2 * F.MAX_CM + 1, :F.CF_SIZE]
    every[:] = spec
    every[F.CF_ALL] = 1
    ws = mo[2 * F.MAX_CM + 2:]
    if not special7(st, opts) and held >= 2:
        for c in range(HOLD):
            if h[c] > 0:
                h[c] -= 1
                if F.sep_solve_contract_ws(h, every, rules, trial, True, ws) >= 0:
                    vb[m + n] = 3 + c
                    n += 1
                h[c] += 1
    a = ask(st, opts, tab, p, K_MELD, n, -1, -1, left1, left2, plug, pprm, vb)
    if a < 0:
        return -1
    code = vb[m + a]
    meld_rows(st, opts, p, mo, code)
    return code


@njit(cache=True)
def meld_rows(st, opts, p, mo, code):
    """The rows of the K_MELD answer ``code`` into mo (holding the engine's meld): 1 the
    engine's, 2 the plain best meld, 3 + c every card but c (see ``plug_meld``)."""
    if code < 2:
        return
    spec, rules, h = spec_of(opts, st[DEAL]), rules_of(opts), hand_of(st, p)
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    ws = mo[2 * F.MAX_CM + 2:]
    if code == 2:
        F.sep_solve_contract_ws(h, spec, rules, trial, False, ws)
    else:
        every = mo[2 * F.MAX_CM + 1, :F.CF_SIZE]
        every[:] = spec
        every[F.CF_ALL] = 1
        h[code - 3] -= 1
        F.sep_solve_contract_ws(h, every, rules, trial, False, ws)
        h[code - 3] += 1
    mo[:nm, :M.M_SIZE] = trial[:nm]


@njit(cache=True)
def plug_meld_jokers(st, opts, tab, p, mo, nm, keep, plug, pprm, vb):
    """K_MELD_JOKERS: how many of the held jokers the meld takes (0..m, m what ``add_jokers``
    can place), -1: the base decides (or none to place)."""
    if not (asks(st, p, K_MELD_JOKERS, pprm) or critiquing(vb)):
        return -1
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    trial[:nm] = mo[:nm, :M.M_SIZE]
    held = st[HSIZE + p]
    k = add_jokers(trial, nm, hand_of(st, p), held, rules_of(opts), keep, BIG)
    if k == 0:
        return -1
    m = VIEW_SIZE + MAX_LEGAL
    for j in range(k + 1):
        vb[m + j] = j
    return ask(st, opts, tab, p, K_MELD_JOKERS, k + 1, -1, -1, held - rows_len(mo, nm), 0, plug, pprm, vb)


def no_plug(seats):
    """(plug, pprm, vb) of a table without a plug-in, for callers of ``play_turn`` and the
    phases outside a batch (tests)."""
    return no_plugin, plugin_params(None, seats, N_PLUG_PARAMS), np.zeros(VB_SIZE, np.int64)
