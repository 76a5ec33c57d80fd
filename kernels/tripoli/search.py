"""Tripoli's search (issue 19, sid ``S_SEARCH``): flat determinized Monte Carlo over the legal
actions (``determinize``, ``rollout``, ``search_pick``), called by the batch kernels through
``search_cfunc`` (the package docstring describes it).
"""
import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels.cards import FULL_DECK, lowbit, popcount
from cardsim.kernels.jit import lazy_cfunc, njit
from cardsim.kernels.rng import below, next_u64, uniform
from cardsim.kernels.search import (
    ACTS_SEARCH_SIG, best_action, no_acts_search, plan_budget, search_key, seed_sub, shuffle_prefix, SP_POLICY,
    SP_PRM,
)
from cardsim.kernels.tripoli.layout import (
    A_BET, A_BID, A_RAISE, BETS, BET_CTX, BET_EPS, B_BET, B_CALL, B_CHECK, B_FOLD, B_RAISE, CALL_PRICE, CHIPS, CLH,
    CLS, CUR, DEALER, FOLD_PRICE, HAND, HCAT, LAST_DEAL, MAX_ACTS, MAX_PLAYERS, N, NOTH, O_CLEARING, O_MAX_STEPS,
    O_SEQ_SPLIT, O_TIMING, P2_FOLDED, PHASE, PICK, PLAYED, PR_BET_AT, PR_BLUFF, PR_CALL_AT, PR_ODDS_WEIGHT,
    PR_RAISE_AT, P_BET, P_OVER, P_SELECT, REASON, R_STEP_CAP, SEARCH_TRIES, SEED, STEPS, ST_SIZE, SX_KINDS, SX_SIZES,
    S_EXPERT, S_HEURISTIC, TRUNC, WIDOW, W_ACT, W_BUYER, W_SEEN, W_SOLD_OLD,
)
from cardsim.kernels.tripoli.actions import action_kind
from cardsim.kernels.tripoli.rules import ah_rank, bet_hand, card_at, clearing_start, seq_suits
from cardsim.kernels.tripoli.legal import apply_action, legal_actions
from cardsim.kernels.tripoli.view import decision_kind, public_cards
from cardsim.kernels.tripoli.strategies import bet_shift, choose, expert_likelihood, poker_target, strength


# =============================================================================
# search (issue 19): determinized Monte Carlo over the legal actions
# =============================================================================


@njit(cache=True)
def stop_widow(st):
    """Widow cards every seat knows: unplayed cards whose lower neighbour has been played (the
    sequence stopped there, so the card is in the widow)."""
    known = 0
    m = st[WIDOW] if st[PLAYED] else 0
    while m:
        c = lowbit(m)
        m &= m - 1
        if ah_rank(c) > 0 and (st[PLAYED] >> card_at(c // 13, ah_rank(c) - 1)) & 1:
            known |= np.int64(1) << c
    return known


@njit(cache=True)
def seq_count(st, opts, hand):
    """What Phase 1 shows of ``hand``'s sequences: whether it holds one (per player), or how many."""
    k = seq_suits(st, hand)
    return k if opts[O_SEQ_SPLIT] else min(k, 1)


@njit(cache=True)
def deal_hidden(st, opts, p, g, cards, m, need, forbid, out, seqs, strict):
    """One deal of the ``m`` hidden cards ``cards`` (their order is shuffled here) into the slots
    (seats but ``p``; slot n = the widow) with ``need`` free places each, into ``out``. Strict:
    every card avoids the slots that may not hold it (``forbid``) and the seats' Phase-1 sequences
    come out as shown (``seqs`` >= 0); False when that fails. Not strict: cards fill the slots in
    shuffled order."""
    n = st[N]
    shuffle_prefix(cards, m, g)
    for s in range(n + 1):
        out[s] = 0
    if not strict:
        k = 0
        for s in range(n + 1):
            if s != p:
                for _ in range(need[s]):
                    out[s] |= np.int64(1) << cards[k]
                    k += 1
        return True
    free = np.empty(MAX_PLAYERS + 1, np.int64)
    allowed = np.empty(52, np.int64)
    for s in range(n + 1):
        free[s] = need[s] if s != p else 0
    for i in range(m):                      # most constrained cards first (stable: the shuffle decides ties)
        a = 0
        for s in range(n + 1):
            if free[s] > 0 and not (forbid[s] >> cards[i]) & 1:
                a |= 1 << s
        allowed[i] = a
    order = np.empty(52, np.int64)
    k = 0
    for cnt in range(n + 2):
        for i in range(m):
            if popcount(allowed[i]) == cnt:
                order[k] = i
                k += 1
    for j in range(m):
        c = cards[order[j]]
        a = allowed[order[j]]
        tot = 0
        for s in range(n + 1):
            if (a >> s) & 1:
                tot += free[s]
        if tot == 0:
            return False
        r = below(g, tot)
        for s in range(n + 1):
            if (a >> s) & 1:
                if r < free[s]:
                    out[s] |= np.int64(1) << c
                    free[s] -= 1
                    break
                r -= free[s]
    for s in range(n):
        if s != p and seqs[s] >= 0 and seq_count(st, opts, out[s]) != seqs[s]:
            return False
    return True


@njit(cache=True)
def policy_pick(st, hand, sid, pprm):
    """The 5 poker cards the rollout policy would choose from ``hand``."""
    if sid == S_HEURISTIC or sid == S_EXPERT:
        return poker_target(st, hand, pprm)
    return PK.best5(hand)[1]


@njit(cache=True)
def bet_likelihood(st, q, v, pprm):
    """How likely the heuristic policy (row ``pprm``) with poker strength ``v`` would have made
    seat q's betting actions of this round (``BETS``, ``CALL_PRICE``, ``FOLD_PRICE``): 1 or the
    bluff odds where they fit its thresholds (moved by ``bet_shift`` as the table is now), else
    BET_EPS. A search weighs its worlds in a betting round by it."""
    f = st[BETS + q]
    if f == 0:
        return 1.0
    shift = bet_shift(st, q, pprm)
    bluff = min(max(pprm[PR_BLUFF], BET_EPS), 1.0 - BET_EPS)
    like = 1.0
    if f & B_RAISE and v < pprm[PR_RAISE_AT] + shift:
        like *= BET_EPS
    if f & B_BET and v < pprm[PR_BET_AT] + shift:
        like *= bluff
    if f & B_CHECK:
        like *= BET_EPS if v >= pprm[PR_BET_AT] + shift else 1.0 - bluff
    base = pprm[PR_CALL_AT] + shift - pprm[PR_ODDS_WEIGHT] / 3.0
    if f & B_CALL and v < base + pprm[PR_ODDS_WEIGHT] * st[CALL_PRICE + q] / 1e6:
        like *= BET_EPS
    if f & B_FOLD and v >= base + pprm[PR_ODDS_WEIGHT] * st[FOLD_PRICE + q] / 1e6:
        like *= BET_EPS
    return like


@njit(cache=True)
def deal_world(st, opts, p, g, cards, m, need, fixed, forbid, out, seqs, sid, pprm):
    """One deal of the hidden cards (``determinize``) into ``st``."""
    n = st[N]
    ok = False
    for _ in range(SEARCH_TRIES):
        if deal_hidden(st, opts, p, g, cards, m, need, forbid, out, seqs, True):
            ok = True
            break
    if not ok:
        deal_hidden(st, opts, p, g, cards, m, need, forbid, out, seqs, False)
    shown = public_cards(st, opts)[1]
    for s in range(n + 1):
        if s == p:
            continue
        if s == n:
            st[WIDOW] = fixed[s] | out[s]
            continue
        st[HAND + s] = fixed[s] | out[s]
        if shown and not (st[P2_FOLDED] >> s) & 1:
            continue
        if st[PICK + s] and st[PHASE] <= P_BET:
            st[PICK + s] = policy_pick(st, st[HAND + s], sid, pprm)
            st[HCAT + s] = PK.eval5(st[PICK + s])
        elif st[PICK + s]:
            st[PICK + s] = 0                # never read again in the deal: forget the real picks


@njit(cache=True)
def determinize(st, opts, p, g, cards, sid, pprm):
    """Deal again, in ``st``, what seat ``p`` cannot see, consistently with what it has seen.
    Kept: its own hand and picks, the played cards, the widow if it has seen it (``W_SEEN``), the
    hand of the buyer of its old hand (dealer), the pay cards Phase 1 showed, the poker hands a
    showdown showed, widow cards a stop showed (``stop_widow``). Dealt again: the rest of the
    other hands and of the widow (same sizes), avoiding the cards a seat is known not to hold
    (``NOTH``) and keeping the seats' Phase-1 sequences as shown (``SEARCH_TRIES`` deals, then
    without those two constraints); the other seats' unshown poker cards chosen from their new
    hands as the rollout policy would; in a clearing round the other seats' 5 cards. In a betting
    round with the heuristic as the rollout policy, a world is kept with the chance
    (``bet_likelihood``) that the policy would have bet as the other seats did this round
    (``SEARCH_TRIES`` worlds at most). The seed of later clearing rounds is drawn anew (their
    cards are not known yet)."""
    n = st[N]
    st[SEED] = np.int64(next_u64(g) >> np.uint64(2))
    clearing = st[PHASE] == P_BET and st[BET_CTX] == 1
    filt = st[PHASE] == P_BET and (sid == S_HEURISTIC or sid == S_EXPERT)
    fixed = np.zeros(MAX_PLAYERS + 1, np.int64)
    need = np.zeros(MAX_PLAYERS + 1, np.int64)
    forbid = np.zeros(MAX_PLAYERS + 1, np.int64)
    seqs = np.full(MAX_PLAYERS + 1, -1, np.int64)
    out = np.zeros(MAX_PLAYERS + 1, np.int64)
    m = 0
    if clearing:
        rest = FULL_DECK & ~st[CLH + p]
        while rest:
            cards[m] = lowbit(rest)
            m += 1
            rest &= rest - 1
    else:
        pay, shown = public_cards(st, opts)
        phase1 = opts[O_TIMING] == 0 and (st[PHASE] == P_SELECT or st[PHASE] == P_BET)
        pool = 0
        for s in range(n + 1):
            if s == p:
                continue
            held = st[WIDOW] if s == n else st[HAND + s]
            keep = held & pay
            if s == n:
                keep = held if st[W_SEEN] == p else keep | stop_widow(st)
            else:
                if p == st[DEALER] and st[W_ACT] & W_SOLD_OLD and s == st[W_BUYER]:
                    keep = held
                if shown and not (st[P2_FOLDED] >> s) & 1:
                    keep |= held & st[PICK + s]
                forbid[s] = st[NOTH + s]
                if phase1:
                    seqs[s] = seq_count(st, opts, held)
            fixed[s] = keep
            need[s] = popcount(held & ~keep)
            pool |= held & ~keep
        while pool:
            cards[m] = lowbit(pool)
            m += 1
            pool &= pool - 1
    for _ in range(SEARCH_TRIES if filt else 1):
        if clearing:
            shuffle_prefix(cards, m, g)
            k = 0
            for q in range(n):
                if q != p:
                    h = 0
                    for _ in range(5):
                        h |= np.int64(1) << cards[k]
                        k += 1
                    st[CLH + q] = h
                    st[CLS + q] = PK.eval5(h)
        else:
            deal_world(st, opts, p, g, cards, m, need, fixed, forbid, out, seqs, sid, pprm)
        if not filt:
            break
        like = 1.0
        for q in range(n):
            if q != p:
                v = strength(bet_hand(st, q)[1])
                like *= expert_likelihood(st, q, v, pprm) if sid == S_EXPERT else bet_likelihood(st, q, v, pprm)
        if uniform(g) < like:
            break


@njit(cache=True)
def rollout(st, opts, sid, prm, gen, acts, gdeck, deck, trace):
    """Play the deal in ``st`` to its end (a session's last deal: and its clearing rounds) with the
    built-in ``sid`` (row ``prm``) at every seat."""
    while True:
        if st[PHASE] == P_OVER:
            if st[BET_CTX] == 0 and st[LAST_DEAL] and opts[O_CLEARING] and st[REASON] != R_STEP_CAP:
                clearing_start(st, opts, gdeck, deck, trace)
                continue
            break
        if st[STEPS] >= opts[O_MAX_STEPS]:
            st[TRUNC] = 1
            st[REASON] = R_STEP_CAP
            st[PHASE] = P_OVER
            break
        n = legal_actions(st, opts, acts)
        if n == 0:
            break
        apply_action(st, opts, acts[choose(st, opts, acts, n, sid, prm, gen)], gdeck, deck, trace)


@njit(cache=True)
def candidates(st, opts, acts, n, prm, own, cand):
    """Indices of the actions the search compares, into ``cand``; returns their number: every
    action, except that of the sized kinds (bid, bet, raise) only ``sizes`` amounts (0 = all) are
    kept, spread evenly from the smallest to the largest (one: the largest), and the policy's own
    choice ``own``."""
    sizes = np.int64(prm[SX_SIZES])
    sized = 0
    for i in range(n):
        kind = action_kind(acts[i])
        if kind == A_BID or kind == A_BET or kind == A_RAISE:
            sized += 1
    k = 0
    j = 0
    for i in range(n):
        kind = action_kind(acts[i])
        if not (kind == A_BID or kind == A_BET or kind == A_RAISE):
            cand[k] = i
            k += 1
            continue
        take = sizes <= 0 or sized <= sizes or i == own
        if not take and sizes == 1:
            take = j == sized - 1
        elif not take:
            for t in range(sizes):                 # round(t (sized - 1) / (sizes - 1)) == j
                if (2 * t * (sized - 1) + sizes - 1) // (2 * (sizes - 1)) == j:
                    take = True
        if take:
            cand[k] = i
            k += 1
        j += 1
    return k


@njit(cache=True)
def world_values(st, opts, p, acts, n, active, sid, pprm, rollouts, key, w, base, sim, acts2, cards, deck, gdeck,
                 g, trace, out):
    """World ``w`` of a decision's search (stream keyed by ``key``): what seat ``p`` cannot see
    dealt again into ``base`` (a copy of ``st``), then each active action of ``acts[:n]`` played
    and the deal rolled out ``rollouts`` times by the policy ``sid`` (row ``pprm``); ``out[i]`` =
    seat ``p``'s total chips of the deal over those rollouts (the same streams for every action)."""
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, cards, sid, pprm)
    for i in range(n):
        out[i] = 0.0
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                apply_action(sim, opts, acts[i], gdeck, deck, trace)
                rollout(sim, opts, sid, pprm, g, acts2, gdeck, deck, trace)
                out[i] += sim[CHIPS + p]


@njit(cache=True)
def search_pick(st, opts, acts, n, prm, gen):
    """The search strategy's choice among ``acts[:n]`` (row ``prm``: ``kernels.search``, slots
    SX_*): at a decision of a searched kind with more than one candidate (``candidates``), for
    each of ``worlds`` determinizations every candidate is played and the deal rolled out to its
    end ``rollouts`` times by the policy; the best total payout of the deal wins. Decisions of the
    other kinds are the policy's."""
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:]
    if n == 1:
        return 0
    if not (np.int64(prm[SX_KINDS]) >> decision_kind(st)) & 1:
        return choose(st, opts, acts, n, sid, pprm, gen)
    p = st[CUR]
    key = search_key(gen)
    g = np.empty(2, dtype=np.uint64)
    seed_sub(g, key, 1 << 20, 0)
    own = choose(st, opts, acts, n, sid, pprm, g)
    cand = np.empty(MAX_ACTS, dtype=np.int64)
    m = candidates(st, opts, acts, n, prm, own, cand)
    if m == 1:
        return cand[0]
    worlds, rollouts = plan_budget(prm, m)
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    total = np.zeros(m, dtype=np.float64)
    trace = np.empty((0, 4), dtype=np.int64)
    cacts = np.empty(m, dtype=np.int64)
    for i in range(m):
        cacts[i] = acts[cand[i]]
    active = np.ones(m, dtype=np.bool_)
    out = np.empty(m, dtype=np.float64)
    for w in range(worlds):
        world_values(st, opts, p, cacts, m, active, sid, pprm, rollouts, key, w, base, sim, acts2, cards, deck,
                     gdeck, g, trace, out)
        for i in range(m):
            total[i] += out[i]
    return cand[best_action(total, m)]


# The batch kernels call the search through SEARCH_SIG (kernels.search): ``search_cfunc()``
# compiled when a search seat plays (jit.lazy_cfunc), ``no_search`` otherwise (never called).
SEARCH_SIG, no_search = ACTS_SEARCH_SIG, no_acts_search


def _search_entry(st, opts, acts, n, prm, gen):
    return search_pick(st, opts, acts, n, prm, gen)


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@njit(cache=True)
def search_decision(st, opts, prm, key):
    """The search's choice in state ``st`` with its play stream keyed by ``key`` (tests: the
    same state with other hidden cards must give the same choice)."""
    acts = np.empty(MAX_ACTS, dtype=np.int64)
    n = legal_actions(st, opts, acts)
    g = np.empty(2, dtype=np.uint64)
    g[0] = np.uint64(key)
    g[1] = 0
    return acts[search_pick(st, opts, acts, n, prm, g)]
