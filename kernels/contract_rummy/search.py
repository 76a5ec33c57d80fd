"""Contract Rummy's search (issue 19; ``kernels.search`` for the shared parts): determinized
Monte Carlo over the draw and the discard (``search_pick``, ``search_force``), reached by the
batch as a callback (``search_cfunc``, ``no_search``).
"""
import numba
import numpy as np
from cardsim.kernels import melds_float as F
from cardsim.kernels.jit import PLUG_SIG, lazy_cfunc, njit
from cardsim.kernels.search import (
    RACE_ROUND, SP_POLICY, SP_PRM, best_action, paired_gain, plan_budget, race_policy, search_key, seed_sub,
    shuffle_prefix,
)
from numba import types
from cardsim.kernels.contract_rummy.layout import (
    CM_SCRIPT, CUR, CUT_OK, CV_LEN, CV_MODE, CV_SCRIPT, CV_STEP, CV_STOP, CV_STOPPED, DEAL, DREASON, D_OUT, D_TURN_CAP,
    F_KIND, F_SEAT, F_VAL, HAND, HOLD, HSIZE, JK, KNOWN, K_DISCARD, K_DRAW, MAX_PACK, MODEL_OOT, MO_ROWS, N, NMELDS,
    N_PARAMS, N_POLICY, OUT, O_CUT_POINTS, O_CUT_RECIP, O_DECKS, O_JOKERS, O_MAX_TURNS, O_MAYI_MODEL, O_VOID_DEAD, PILE,
    PILE_LEN, SEG_ACT, SEG_DISCARD, SEG_DRAW, SEG_OOT, STOCK, STOCK_HI, STOCK_LO, ST_SIZE, SX_CANDS, SX_FUTILITY, SX_Z,
    TURN, VB_SIZE, XFER,
)
from cardsim.kernels.contract_rummy.actions import pile_card
from cardsim.kernels.contract_rummy.rules import (
    draw, end_deal, hand_of, over, rules_of, spec_of, table_counts, top_card,
)
from cardsim.kernels.contract_rummy.strategies import danger, discard_key, discard_ok, wants_card
from cardsim.kernels.contract_rummy.mayi import draw_phase, oot_discard
from cardsim.kernels.contract_rummy.melding import act_phase
from cardsim.kernels.contract_rummy.turns import begin_turn, end_turn


# =============================================================================
# search (issue 19): determinized Monte Carlo over the draw and the discard
# =============================================================================


@njit(cache=True)
def determinize(st, opts, tab, p, gen, cards):
    """Deal again, in ``st``, what seat ``p`` cannot see: every other hand (the cards it is
    publicly known to hold, ``KNOWN``, stay in it; the rest drawn at random) and the stock's
    order, from the cards ``p`` has not seen. Reads only what ``p`` may see: its own hand, the
    pile, the table, hand sizes, the stock's size and KNOWN. False if the counts disagree
    (never: tests)."""
    n = st[N]
    cnt = np.zeros(HOLD, np.int64)
    for c in range(52):
        cnt[c] = opts[O_DECKS]
    cnt[JK] = opts[O_JOKERS]
    seen = np.zeros(HOLD, np.int64)
    table_counts(tab, st[NMELDS], seen)
    for i in range(st[PILE_LEN]):
        seen[pile_card(st[PILE + i])] += 1
    for c in range(HOLD):
        seen[c] += st[HAND + HOLD * p + c]
        for q in range(n):
            if q != p:
                seen[c] += st[KNOWN + HOLD * q + c]
    m = 0
    for c in range(HOLD):
        for _ in range(cnt[c] - seen[c]):
            cards[m] = c
            m += 1
    need = st[STOCK_HI] - st[STOCK_LO]
    for q in range(n):
        if q != p:
            need += st[HSIZE + q] - st[KNOWN + HOLD * q:KNOWN + HOLD * (q + 1)].sum()
    if need != m:
        return False
    shuffle_prefix(cards, m, gen)
    k = 0
    for q in range(n):
        if q != p:
            for c in range(HOLD):
                st[HAND + HOLD * q + c] = st[KNOWN + HOLD * q + c]
            for _ in range(st[HSIZE + q] - st[KNOWN + HOLD * q:KNOWN + HOLD * (q + 1)].sum()):
                st[HAND + HOLD * q + cards[k]] += 1
                k += 1
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        st[STOCK + i] = cards[k]
        k += 1
    return True


@njit(cache=True)
def deal_value(st, opts, p):
    """Seat p's result of the finished deal in ``st``: minus (its penalty less the cut bonus
    it wins) relative to the others' mean."""
    n = st[N]
    void = opts[O_VOID_DEAD] and st[DREASON] != D_OUT
    rules = rules_of(opts)
    mine = 0.0
    rest = 0.0
    for q in range(n):
        v = 0.0
        if q != st[OUT] and not void:
            v = F.hold_points(hand_of(st, q), rules)
        if st[CUT_OK] and opts[O_CUT_RECIP] == 1 and st[OUT] == q:
            v -= opts[O_CUT_POINTS]
        if q == p:
            mine = v
        else:
            rest += v
    return rest / (n - 1) - mine


@njit(cache=True)
def rollout(st, opts, tab, sids, params, g, sc, mo, plug, pprm, vb, draw):
    """Play the deal in ``st`` to its end with the rows ``params`` at every seat, from the
    turn player's draw (``draw``; begin_turn done) or its discard (its step 2 done, no
    out-of-turn play pending)."""
    p = st[CUR]
    rollout_from(st, opts, tab, sids, params, g, sc, mo, plug, pprm, vb, SEG_DRAW if draw else SEG_DISCARD, -1,
                 sids[p], params[p], False)


@njit(cache=True)
def rollout_from(st, opts, tab, sids, params, g, sc, mo, plug, pprm, vb, seg, q, asid, aprm, apl):
    """Play the deal in ``st`` to its end with the rows ``params`` at every seat, from the start
    of the turn player's segment ``seg``: SEG_DRAW its draw (begin_turn done), SEG_ACT its step 2
    (the draw done; ``q`` the seat playing out of turn, -1 none), SEG_DISCARD its discard (step 2
    done, no out-of-turn play pending), SEG_OOT seat ``q``'s out-of-turn discard (its draw done).
    This turn's step 2 is played by ``asid`` (row ``aprm``, ``apl``: as a plug-in seat), the
    rest by the table's rows."""
    trace = np.zeros((0, 6), np.int64)
    p = st[CUR]
    if seg == SEG_DRAW:
        q = draw_phase(st, opts, tab, p, sids, params, g, trace, sc, plug, pprm, vb)
        if q == -2 or over(st):
            return
        st[XFER] = 1 if q >= 0 else 0
    if seg <= SEG_ACT:
        act_phase(st, opts, tab, p, asid, aprm, g, mo, trace, apl, plug, pprm, vb)
        if over(st):
            return
    if seg == SEG_OOT:
        oot_discard(st, opts, tab, q, sids, params, g, trace, sc, plug, pprm, vb)
        st[CUR] = (p + 1) % st[N]
    elif end_turn(st, opts, tab, sids, params, g, trace, sc, p, q, plug, pprm, vb) or over(st):
        return
    while not over(st):
        if st[TURN] >= opts[O_MAX_TURNS]:
            end_deal(st, D_TURN_CAP, -1)
            return
        p = st[CUR]
        begin_turn(st, p)
        q = draw_phase(st, opts, tab, p, sids, params, g, trace, sc, plug, pprm, vb)
        if q == -2 or over(st):
            return
        st[XFER] = 1 if q >= 0 else 0
        act_phase(st, opts, tab, p, sids[p], params[p], g, mo, trace, False, plug, pprm, vb)
        if over(st):
            return
        if end_turn(st, opts, tab, sids, params, g, trace, sc, p, q, plug, pprm, vb):
            return


@njit(cache=True)
def search_options(st, opts, tab, p, kind, sid, pol, gen, out):
    """The answers a search tries (the policy's own first): K_DRAW its choice, then the other;
    K_DISCARD the legal discards in the policy's order (at most SX_CANDS of them, at least one)."""
    sc = np.zeros(16, np.int64)
    if kind == K_DRAW:
        paid = opts[O_MAYI_MODEL] == MODEL_OOT
        w = wants_card(st, opts, tab, p, top_card(st), paid, sid, pol, gen, sc)
        out[0] = 1 if w else 0
        out[1] = 0 if w else 1
        return 2
    h, spec, rules = hand_of(st, p), spec_of(opts, st[DEAL]), rules_of(opts)
    near = danger(st, opts, p, pol, sid, sc)
    keys = np.empty(HOLD, np.int64)
    m = 0
    for c in range(HOLD):
        if discard_ok(st, p, c, False):
            keys[m] = discard_key(st, tab, p, c, h, spec, rules, near) * 64 + c
            m += 1
    keys[:m].sort()
    for i in range(m):
        out[i] = keys[i] % 64
    return m


@njit(cache=True)
def policy_table(n, sid, pol):
    """The rollouts' table: the policy ``sid`` with its row ``pol`` at each of the n seats."""
    sids2 = np.full(n, sid, np.int64)
    params2 = np.zeros((n, N_PARAMS), np.float64)
    for q in range(n):
        params2[q, :N_POLICY] = pol[:N_POLICY]
    return sids2, params2


@njit(cache=True)
def world_values(st, opts, tab, p, seg, q, fkind, script, m, codes, k, active, sids2, params2, asid, aprm, apl, key,
                 w, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb, vals):
    """World ``w`` of a decision's valuation (stream keyed by ``key``): what seat ``p`` cannot
    see in ``st`` (``tab`` its table) dealt again into ``base``, then each active answer
    ``codes[i]`` forced and the deal played out from the start of segment ``seg``
    (``rollout_from``: ``q``; this turn's step 2 by ``asid``, ``aprm``, ``apl``) ``rollouts``
    times by the rows ``params2`` at every seat (the same
    streams for every answer); ``vals[r, i]`` = seat p's ``deal_value`` after rollout r of
    answer i. The search forces its answer on the hook (``fkind`` >= 0: K_DRAW or K_DISCARD,
    ``codes`` its answers); a critique (``fkind`` < 0) answers the segment's questions from a
    script in ``vb``: ``script[:m]`` (the answers before the decision) and ``codes[i]`` (critique
    action codes)."""
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, tab, p, g, cards)
    for r in range(rollouts):
        for i in range(k):
            if active[i]:
                sim[:] = base
                tab2[:] = tab
                if fkind >= 0:
                    sim[F_KIND] = fkind + 1
                    sim[F_SEAT] = p
                    sim[F_VAL] = codes[i]
                else:
                    sim[F_KIND] = 0
                    load_script(vb, script, m, codes[i], -1)
                seed_sub(g, key, w, r)
                rollout_from(sim, opts, tab2, sids2, params2, g, sc, mo, plug, pprm, vb, seg, q, asid, aprm, apl)
                vals[r, i] = deal_value(sim, opts, p)


@njit(cache=True)
def load_script(vb, script, m, last, stop):
    """Script mode in ``vb``: the answers ``script[:m]`` then ``last`` (none when < 0); ``stop``
    >= 0 stops at the question after that many answers."""
    vb[CV_MODE] = CM_SCRIPT
    vb[CV_STEP] = 0
    vb[CV_STOP] = stop
    vb[CV_STOPPED] = 0
    vb[CV_SCRIPT:CV_SCRIPT + m] = script[:m]
    if last >= 0:
        vb[CV_SCRIPT + m] = last
        m += 1
    vb[CV_LEN] = m
    if m == 0 and stop < 0:
        vb[CV_MODE] = 0


@njit(cache=True)
def search_pick(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    """The search's answer to seat p's decision ``kind`` (K_DRAW: 1 take, 0 draw; K_DISCARD:
    the card), row ``prm`` (``kernels.search``): for each of ``worlds`` determinizations every
    answer tried is forced and the deal rolled out to its end ``rollouts`` times with the
    policy at every seat (the same streams for every answer); the best total ``deal_value``
    wins, the policy's own answer on ties."""
    n = st[N]
    sid = np.int64(prm[SP_POLICY])
    pol = prm[SP_PRM:]
    opt = np.empty(HOLD, np.int64)
    key = search_key(gen)
    g = np.empty(2, np.uint64)
    seed_sub(g, key, -1, -1)
    k = search_options(st, opts, tab, p, kind, sid, pol, g, opt)
    if kind == K_DISCARD:
        k = min(k, max(1, int(prm[SX_CANDS])))
    if k == 0:
        return -1
    if k == 1:
        return opt[0]
    worlds, rollouts = plan_budget(prm, k)
    sids2, params2 = policy_table(n, sid, pol)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    tab2 = np.empty_like(tab)
    cards = np.empty(MAX_PACK, np.int64)
    sc = np.zeros(16, np.int64)
    mo = np.zeros((MO_ROWS, HOLD), np.int64)
    total = np.zeros(k, np.float64)
    dsq = np.zeros(k, np.float64)       # squares of the paired differences to the policy's answer
    vals = np.zeros((rollouts, k), np.float64)
    active = np.ones(k, np.bool_)
    seg = SEG_DRAW if kind == K_DRAW else SEG_DISCARD
    vb2 = vb[:VB_SIZE]                  # the rollouts' own: never a critique's (``critiquing``)
    z = prm[SX_Z]
    step = RACE_ROUND if z > 0 else 0
    m = 0
    for w in range(worlds):
        world_values(st, opts, tab, p, seg, -1, kind, opt, 0, opt, k, active, sids2, params2, sids2[p], params2[p],
                     False, key, w, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb2, vals)
        for r in range(rollouts):
            for i in range(k):
                if active[i]:
                    total[i] += vals[r, i]
                    dsq[i] += (vals[r, i] - vals[r, 0]) ** 2
        m += rollouts
        if step > 0 and (w + 1) % step == 0 and w + 1 < worlds and \
                race_policy(total, dsq, m, k, active, z, prm[SX_FUTILITY], worlds * rollouts) == 0:
            return opt[0]               # no other answer can still show the gain the search needs
    for i in range(1, k):
        if not active[i]:
            total[i] = -np.inf
    b = best_action(total, k)
    if b > 0 and z > 0:
        if m < 2:
            return opt[0]               # no spread to test against: the policy's answer
        d, se = paired_gain(total, dsq, m, b)
        t = z + (z ** 3 + z) / (4 * (m - 1))    # z as a Student t quantile of m - 1 degrees of freedom
        if d < t * se:
            b = 0
    return opt[b]


@njit(cache=True)
def search_force(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    """Search seat p's decision ``kind`` and force its answer on the hook that takes it next."""
    st[F_VAL] = search_pick(st, opts, tab, p, kind, prm, gen, plug, pprm, vb)
    st[F_SEAT] = p
    st[F_KIND] = kind + 1


# The batch kernels call the search (``search_force``) through SEARCH_SIG: ``search_cfunc()``
# compiled when a search seat plays (jit.lazy_cfunc), ``no_search`` otherwise (never called).
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[:, ::1], types.int64, types.int64,
                         types.float64[::1], types.uint64[::1], types.FunctionType(PLUG_SIG),
                         types.float64[:, ::1], types.int64[::1])


def _search_entry(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    search_force(st, opts, tab, p, kind, prm, gen, plug, pprm, vb)
    return 0


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@numba.cfunc(SEARCH_SIG, cache=True)
def no_search(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    """The search argument of a table without a search seat (never called)."""
    return 0
