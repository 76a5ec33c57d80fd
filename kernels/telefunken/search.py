"""Telefunken's search (issue 19): determinized Monte Carlo over the decisions of chosen kinds
(``determinize``, ``search_pick``, ``world_values``), reached by the batch kernels as a callback
(``search_cfunc``, SEARCH_SIG)."""
import numpy as np
import numba
from numba import types

from cardsim.kernels import melds as M
from cardsim.kernels.jit import lazy_cfunc, njit
from cardsim.kernels.search import (
    SP_POLICY, SP_PRM, SP_ROLLOUTS, best_action, plan_budget, search_key, seed_sub, shuffle_prefix,
)
from cardsim.kernels.telefunken.layout import (
    ASK, A_DISCARD, A_GO_DOWN, A_GO_OUT7, CHIPS, CONTRACT, CUR, DEALER, DEAL_TRIES, DECK_SIZE, DISCARD, DOWN, EXK,
    H1, H2, HJ, HNO, HT, JK, KN, KN_STRIDE, K_BUY, K_DISCARD, K_GO_DOWN, K_GO_OUT, K_LAY, K_UPCARD, MAX_ACTS, N,
    OUT, O_EXCHANGE_MODEL, O_HANDS, PHASE, POOL, POOL_LEN, P_ACT, P_BUY, P_EXCHANGE, P_OVER, P_UPCARD,
    SEARCH_POLICY_STREAM, STOCK, STOCK_HI, STOCK_LO, ST_SIZE, S_EXPERT, TRACE_WIDTH, TURN, X_CHIP, X_COND,
    X_HANDS, X_KINDS, X_MARGIN,
)
from cardsim.kernels.telefunken.rules import give, hand7_at_once, held, is_wild_two, rules_of, spec_of, wilds
from cardsim.kernels.telefunken.legal import contract_melds, legal_actions
from cardsim.kernels.telefunken.apply import apply_action
from cardsim.kernels.telefunken.close import holding_points
from cardsim.kernels.telefunken.strategies import choose, need_with


# =============================================================================
# search (issue 19): determinized Monte Carlo over the decisions of chosen kinds
# =============================================================================
@njit(cache=True, inline='always')
def copies(st, q, c):
    """Copies of card c (52 = joker) in seat q's holding."""
    if c == JK:
        return st[HJ + q]
    if is_wild_two(st, c):
        return (st[HT + q] >> (2 * (c // 13))) & 3
    return ((st[H1 + q] >> c) & 1) + ((st[H2 + q] >> c) & 1)


@njit(cache=True)
def could_go_down(st, opts, q, mo):
    """Seat q's holding holds this hand's contract (one of its alternatives)."""
    h = st[CONTRACT]
    if spec_of(opts, h)[M.C_NEXT] == 0:
        return contract_melds(st[H1 + q], st[H2 + q], wilds(st, q), h, opts, mo, True)
    alt = h
    while alt:
        if contract_melds(st[H1 + q], st[H2 + q], wilds(st, q), h, opts, mo, True, alt):
            return True
        alt = spec_of(opts, alt)[M.C_NEXT]
    return False


@njit(cache=True)
def determinize(st, opts, p, gen, cards, cond, mo):
    """Deal again, in ``st``, what seat ``p`` cannot see: every other holding (the copies
    every seat knows it holds, KN, stay; the rest drawn at random) and the stock's order,
    from the unseen cards (the stock and the other holdings less their known copies: the
    deck less p's holding, the discard pile, the table and the known copies, so a function
    of what p sees, listed in card order). During an exchange (the critique; p = CUR, the
    seat choosing) the cards the others passed (the pool but p's own, the last ones) are
    unseen too and dealt again, and a seat that has passed cards keeps no known copies (which
    of them it passed is private). ``cond``: a seat that is not down though it has played a
    turn of this hand (not one laid at once) is dealt a holding that cannot go down (up to
    DEAL_TRIES deals), as the rollout policy, which goes down when it can, would hold."""
    n = st[N]
    first = (st[DEALER] + 1) % n
    cond = cond != 0 and not hand7_at_once(st, opts) and opts[O_EXCHANGE_MODEL] == 0
    cnt = np.zeros(KN_STRIDE, np.int64)
    pool = 0
    if st[PHASE] == P_EXCHANGE:
        pool = st[POOL_LEN] - st[EXK + p]
        for i in range(pool):
            cnt[st[POOL + i]] += 1
        for q in range(n):
            if q != p and st[EXK + q] > 0:
                for c in range(KN_STRIDE):
                    st[KN + KN_STRIDE * q + c] = 0
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        cnt[st[STOCK + i]] += 1
    for q in range(n):
        if q != p:
            for c in range(KN_STRIDE):
                cnt[c] += copies(st, q, c) - st[KN + KN_STRIDE * q + c]
    m = 0
    for c in range(KN_STRIDE):
        for _ in range(cnt[c]):
            cards[m] = c
            m += 1
    shuffle_prefix(cards, m, gen)
    k = 0
    for q in range(n):
        if q == p:
            continue
        size = held(st, q)
        check = cond and st[DOWN + q] == 0 and (q - first + n) % n < st[TURN]
        for t in range(DEAL_TRIES if check else 1):
            if t > 0:                               # it could go down: deal it again
                shuffle_prefix(cards[k:], m - k, gen)
            st[H1 + q], st[H2 + q], st[HJ + q], st[HT + q] = 0, 0, 0, 0
            left = size
            for c in range(KN_STRIDE):
                for _ in range(st[KN + KN_STRIDE * q + c]):
                    give(st, q, c)
                    left -= 1
            for j in range(left):
                give(st, q, cards[k + j])
            if not check or not could_go_down(st, opts, q, mo):
                break
        k += left
    for i in range(pool):
        st[POOL + i] = cards[k]
        k += 1
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        st[STOCK + i] = cards[k]
        k += 1


@njit(cache=True)
def search_rollout(st, opts, tab, sc, mo, sid, prm, gen, acts, trace):
    """Play the hand in ``st`` to its end with the built-in ``sid`` (row ``prm``) at every seat."""
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, tab, sc, mo, acts)
        if n == 0:
            break
        apply_action(st, opts, tab, mo, acts[choose(st, opts, tab, sc, mo, acts, n, sid, prm, gen)], gen, trace)


@njit(cache=True)
def search_value(sim, st, opts, p, chip):
    """Seat p's result at the end of the rolled-out hand ``sim`` (decided in ``st``): minus its
    penalty, less ``chip`` points per chip it spent since (before the last hand only)."""
    v = 0.0
    if sim[OUT] != p:
        v -= holding_points(sim, p, rules_of(opts))
    if st[HNO] < opts[O_HANDS]:
        v -= chip * (st[CHIPS + p] - sim[CHIPS + p])
    return v


@njit(cache=True)
def search_kind(st, opts, acts, n, p, exact=False):
    """The plug-in kind (K_*) of the decision ``acts[:n]`` of seat ``p``, -1 for those the
    search never takes (the exchange, the dealer's contract and opening discard). A purchase
    offer counts only when the card itself would bring p nearer its contract (else the
    policy passes: nothing to weigh)."""
    ph = st[PHASE]
    if ph == P_BUY:
        if st[DOWN + p] or need_with(st, opts, p, st[DISCARD], -1, exact) >= need_with(st, opts, p, -1, 0, exact):
            return -1
        return K_BUY
    if ph == P_UPCARD:
        return K_UPCARD
    if ph != P_ACT:
        return -1
    lay = False
    for i in range(n):
        k = acts[i] & 15
        if k == A_GO_OUT7:
            return K_GO_OUT
        if k == A_GO_DOWN:
            return K_GO_DOWN
        if k != A_DISCARD:
            lay = True
    return K_LAY if lay else K_DISCARD


@njit(cache=True)
def policy_among(st, opts, tab, sc, mo, acts, idx, m, sid, prm, gen, a2):
    """Index (into acts) of the policy's choice among ``acts[idx[:m]]``."""
    for i in range(m):
        a2[i] = acts[idx[i]]
    x = a2[choose(st, opts, tab, sc, mo, a2, m, sid, prm, gen)]
    for i in range(m):
        if acts[idx[i]] == x:
            return idx[i]
    return idx[0]


@njit(cache=True)
def search_pick(st, opts, tab, acts, n, prm, gplay):
    """The search strategy's choice among ``acts[:n]`` (row ``prm``: ``kernels.search``,
    X_* slots). Decisions of a kind outside X_KINDS, or of a hand outside X_HANDS, are the
    policy's. Otherwise the
    candidates (buy / pass; take / draw; each go-down or go-out and the policy's discard
    without it; each table action and the policy's discard; each discard) are played in
    ``worlds`` determinizations, each rolled out ``rollouts`` times to the end of the hand
    by the policy at every seat (the same streams for every candidate), valued by
    ``search_value``; the best mean wins when it beats the policy's own choice by more than
    X_MARGIN standard errors of the paired differences, else the policy's choice stands."""
    p = st[ASK] if st[PHASE] == P_BUY else st[CUR]
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:].copy()                      # C-contiguous: choose's compiled signature
    sc = np.empty((MAX_ACTS, 3), np.int64)
    mo = np.empty((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    searched = n > 1 and (np.int64(prm[X_HANDS]) >> (st[HNO] - 1)) & 1
    kind = search_kind(st, opts, acts, n, p, sid == S_EXPERT) if searched else -1
    if kind < 0 or not (np.int64(prm[X_KINDS]) >> kind) & 1:
        return choose(st, opts, tab, sc, mo, acts, n, sid, pprm, gplay)
    key = search_key(gplay)
    g = np.empty(2, np.uint64)
    a2 = np.empty(MAX_ACTS, np.int64)
    idx = np.empty(n, np.int64)
    cand = np.empty(n + 1, np.int64)
    for i in range(n):
        idx[i] = i
    seed_sub(g, key, SEARCH_POLICY_STREAM, 0)
    pol = policy_among(st, opts, tab, sc, mo, acts, idx, n, sid, pprm, g, a2)
    m = 0
    if kind == K_BUY or kind == K_UPCARD or kind == K_DISCARD:
        for i in range(n):
            cand[m] = i
            m += 1
    else:
        k = 0
        for i in range(n):
            if acts[i] & 15 == A_DISCARD:
                idx[k] = i
                k += 1
            else:
                cand[m] = i
                m += 1
        if k > 0:
            seed_sub(g, key, SEARCH_POLICY_STREAM, 1)
            cand[m] = policy_among(st, opts, tab, sc, mo, acts, idx, k, sid, pprm, g, a2)
            m += 1
    pc = -1
    for i in range(m):
        if cand[i] == pol:
            pc = i
    if pc < 0:
        cand[m] = pol
        pc = m
        m += 1
    if m == 1:
        return pol
    worlds, rollouts = plan_budget(prm, m)
    vals = np.zeros((m, worlds * rollouts), np.float64)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    stab = np.empty_like(tab)
    cards = np.empty(DECK_SIZE, np.int64)
    trace = np.zeros((0, TRACE_WIDTH), np.int64)
    active = np.ones(m, np.bool_)
    for w in range(worlds):
        world_values(st, tab, opts, p, acts, cand, m, active, prm, sid, pprm, key, w, base, sim, stab, sc, mo, cards,
                     g, a2, trace, vals, w * rollouts)
    return cand[confident_best(vals, m, worlds * rollouts, pc, prm[X_MARGIN])]


@njit(cache=True)
def world_values(st, tab, opts, p, acts, cand, m, active, prm, sid, pprm, key, w, base, sim, stab, sc, mo, cards, g,
                 a2, trace, vals, off):
    """World ``w`` of a decision's search (streams keyed by ``key``): what seat ``p`` cannot see
    dealt again into ``base`` (``determinize``), then each active candidate ``acts[cand[i]]``
    played and rolled out to the end of the hand ``rollouts`` times by the policy ``sid`` (row
    ``pprm``) at every seat, on the same streams for every candidate (common random numbers);
    ``vals[i, off + r]`` = ``search_value`` of rollout r (row ``prm``: rollouts, X_CHIP, X_COND)."""
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    chip = prm[X_CHIP]
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, cards, (np.int64(prm[X_KINDS]) >> X_COND) & 1, mo)
    for r in range(rollouts):
        for i in range(m):
            if active[i]:
                sim[:] = base
                stab[:] = tab
                seed_sub(g, key, w, r)
                apply_action(sim, opts, stab, mo, acts[cand[i]], g, trace)
                search_rollout(sim, opts, stab, sc, mo, sid, pprm, g, a2, trace)
                vals[i, off + r] = search_value(sim, st, opts, p, chip)


@njit(cache=True)
def confident_best(vals, m, k, pc, z):
    """Index of the candidate with the best mean of ``vals[:, :k]`` (the first on ties) if it
    beats candidate ``pc`` (the policy's choice) by more than ``z`` standard errors of the
    paired differences (any gain at z = 0), else ``pc``."""
    total = np.zeros(m, np.float64)
    for i in range(m):
        total[i] = vals[i, :k].sum()
    best = best_action(total, m)
    if best == pc:
        return pc
    d = vals[best, :k] - vals[pc, :k]
    mean = d.mean()
    if mean <= 0.0:
        return pc
    if z > 0.0:
        if k < 2:
            return pc
        se = np.sqrt(((d - mean) ** 2).sum() / (k - 1) / k)
        if mean <= z * se:
            return pc
    return best


# The batch kernels call the search through SEARCH_SIG: ``search_cfunc()`` compiled when a
# search seat plays (jit.lazy_cfunc), ``no_search`` otherwise (never called).
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[:, ::1], types.int64[::1], types.int64,
                         types.float64[::1], types.uint64[::1])


def _search_entry(st, opts, tab, acts, n, prm, gplay):
    return search_pick(st, opts, tab, acts, n, prm, gplay)


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@numba.cfunc(SEARCH_SIG, cache=True)
def no_search(st, opts, tab, acts, n, prm, gplay):
    """The search argument of a table without a search seat (never called)."""
    return 0


@njit(cache=True)
def search_decision(st, opts, tab, prm, key):
    """The search's choice (an action) in state ``st`` / table ``tab`` with its play stream
    keyed by ``key`` (tests: the same state with other hidden cards must give the same)."""
    acts = np.empty(MAX_ACTS, np.int64)
    sc = np.empty((MAX_ACTS, 3), np.int64)
    mo = np.empty((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    t = st.copy()
    n = legal_actions(t, opts, tab, sc, mo, acts)
    g = np.empty(2, np.uint64)
    g[0] = np.uint64(key)
    g[1] = 0
    return acts[search_pick(t, opts, tab, acts, n, prm, g)]
