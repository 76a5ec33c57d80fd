"""Tonk's search (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
determinized Monte Carlo over the legal actions (the package docstring describes it). The batch
kernels reach it as a callback (``search_cfunc``), compiled the first time a table has a search
seat."""
import numpy as np

from cardsim.kernels.cards import bit, lowbit, popcount
from cardsim.kernels.jit import lazy_cfunc, njit
from cardsim.kernels.search import (
    ACTS_SEARCH_SIG,
    SP_POLICY,
    SP_PRM,
    SP_ROLLOUTS,
    best_action,
    no_acts_search,
    plan_budget,
    search_key,
    seed_sub,
    shuffle_prefix,
)
from cardsim.kernels.tonk.layout import CUR, DECK, HAND, MAX_ACTS, MAX_PLAYERS, N, P_OVER, PAY, PHASE, ST_SIZE, STOCK_PTR
from cardsim.kernels.tonk.rules import apply_action, legal_actions
from cardsim.kernels.tonk.strategies import choose
from cardsim.kernels.tonk.view import rival_known, unseen_by


# =============================================================================
# search (issue 19): determinized Monte Carlo over the legal actions
# =============================================================================
@njit(cache=True)
def determinize(st, p, gen, cards):
    """Deal again, in ``st``, what seat ``p`` cannot see: every other hand (its cards taken
    from the discard pile and still unplayed stay in it; the rest drawn at random) and the
    stock's order, from the cards ``p`` has not seen. Reads only what ``p`` may see: its own
    hand, the pile, the spreads, hand sizes, the stock's size and the public takes."""
    n = st[N]
    known = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for q in range(n):
        if q != p:
            known[q] = rival_known(st, p, q)
    m = 0
    rest = unseen_by(st, p)
    while rest:
        c = lowbit(rest)
        cards[m] = c
        m += 1
        rest &= rest - 1
    shuffle_prefix(cards, m, gen)
    k = 0
    for q in range(n):
        if q != p:
            h = known[q]
            for _ in range(popcount(st[HAND + q]) - popcount(known[q])):
                h |= bit(cards[k])
                k += 1
            st[HAND + q] = h
    for i in range(st[STOCK_PTR], 52):
        st[DECK + i] = cards[k]
        k += 1


@njit(cache=True)
def rollout(st, opts, sid, prm, gen, acts, trace):
    """Play the hand in ``st`` to its end with the built-in ``sid`` (row ``prm``) at every seat."""
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, acts)
        if n == 0:
            break
        apply_action(st, opts, acts[choose(st, opts, acts, n, sid, prm, gen)], trace)


@njit(cache=True)
def world_values(st, p, opts, acts, n, active, prm, key, w, base, sim, acts2, cards, g, trace, out):
    """World ``w`` of a decision's search (stream keyed by ``key``): the hidden cards of seat
    ``p`` dealt again into ``base`` (a copy of ``st``), then each active legal action played and
    rolled out ``rollouts`` times by the row's policy; ``out[i]`` = the total payout of seat
    ``p`` over those rollouts after action ``i`` (the same rollout streams for every action:
    common random numbers)."""
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, p, g, cards)
    play_world(base, p, opts, acts, n, active, prm, key, w, sim, acts2, g, trace, out)


@njit(cache=True)
def play_world(base, p, opts, acts, n, active, prm, key, w, sim, acts2, g, trace, out):
    """The rollouts of ``world_values`` in the world ``base`` (however it was dealt)."""
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:]
    for i in range(n):
        out[i] = 0.0
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                apply_action(sim, opts, acts[i], trace)
                rollout(sim, opts, sid, pprm, g, acts2, trace)
                out[i] += sim[PAY + p]


@njit(cache=True)
def search_values(st, opts, acts, n, prm, gen, total):
    """The search's totals ``total[:n]`` for the legal actions ``acts[:n]`` (row ``prm``:
    ``kernels.search``): for each of ``worlds`` determinizations (``world_values``), every legal
    action is played and rolled out to the end of the deal ``rollouts`` times by the policy,
    and the deciding seat's payout is added. The hand's payout is the deal's, so a rollout to
    the end of the hand is a whole deal. Returns the number of (world, rollout) samples per
    action."""
    p = st[CUR]
    worlds, rollouts = plan_budget(prm, n)
    key = search_key(gen)
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    g = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    out = np.empty(n, dtype=np.float64)
    total[:n] = 0.0
    for w in range(worlds):
        world_values(st, p, opts, acts, n, active, prm, key, w, base, sim, acts2, cards, g, trace, out)
        for i in range(n):
            total[i] += out[i]
    return worlds * rollouts


@njit(cache=True)
def search_pick(st, opts, acts, n, prm, gen):
    """The search strategy's choice among ``acts[:n]``: the best total of ``search_values``
    (a single legal action is taken without searching)."""
    if n == 1:
        return 0
    total = np.empty(n, dtype=np.float64)
    search_values(st, opts, acts, n, prm, gen, total)
    return best_action(total, n)


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


@njit(cache=True)
def search_means(st, opts, prm, key, acts, means):
    """The legal actions of ``st`` in ``acts`` and the search's mean payout of each in
    ``means`` (stream keyed by ``key``); returns their number (``scripts/search_distance.py``)."""
    n = legal_actions(st, opts, acts)
    g = np.empty(2, dtype=np.uint64)
    g[0] = np.uint64(key)
    g[1] = 0
    k = search_values(st, opts, acts, n, prm, g, means)
    for i in range(n):
        means[i] /= k
    return n
