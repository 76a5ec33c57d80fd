"""Tonk's inference worlds (issue 41): the critique's worlds weighed by what the rivals' play shows.

A uniform determinization (``search.determinize``) deals a rival's hidden cards at random among
the unseen ones, so it cannot see that a rival who did not knock holds many points, or that one
who drew from the stock rather than take the upcard had no use for it. Here a world is a whole
deal consistent with everything the critiqued seat ``p`` has seen (its own cards and draws, the
upcard, every public action), built backwards from a uniform deal of today's hidden cards:

1. ``history_slots`` (once per decision): the deal is replayed with its real deck to find, for
   each rival, its hidden slots (the five cards dealt to it and each stock card it drew, with the
   action number of the draw) and the cards it laid, hit or discarded that it had not taken from
   the discard pile (each with the action number by which it must have been held).
2. ``candidate``: today's hidden cards are dealt at random (``determinize``); each rival's
   played cards go, earliest first, to a random free slot of its own that it held before it
   played them (the slots open before an action are nested, so this always succeeds), its
   hidden hand fills its remaining slots, and the stock beyond the last draw is the
   determinized one. The deal is replayed from its first action with that deck and the observed
   actions; at each decision of a rival (more than one legal action) its model, the rollout
   policy, is asked what it would have done: the world's weight is multiplied by ``1 - EPS``
   when the model agrees with the rival's real action and by ``EPS / (legal - 1)`` when not. A
   world in which a rival would have held a deal-tonk, or in which an observed action is not
   legal, weighs nothing.
3. ``infer_world``: of ``cands`` candidates one is kept with probability proportional to its
   weight (sampling-importance-resampling), so the critique's racing and measuring stages use
   it as they use a uniform world.

The model of every rival is the rollout policy (the critique's ``--policy``, ``strong`` by
default): exact where the field plays it, an assumption elsewhere. Reads only what ``p`` may see
(the real deck is used for ``p``'s own slots and the upcard only, and for nothing the world
keeps of a rival).
"""
import numpy as np

from cardsim.kernels.cards import bit, lowbit, nth_card, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below, uniform
from cardsim.kernels.search import SP_POLICY, SP_PRM, seed_sub
from cardsim.kernels.tonk.actions import action_card, action_cards, action_kind
from cardsim.kernels.tonk.layout import (
    A_DISCARD,
    A_DRAW_DISCARD,
    A_DRAW_STOCK,
    A_HIT,
    A_LAY,
    CUR,
    DEALER,
    DECK,
    HAND,
    KNOWN,
    MAX_ACTS,
    MAX_PLAYERS,
    N,
    PILE,
    PILE_LEN,
    ST_SIZE,
    STOCK_PTR,
)
from cardsim.kernels.tonk.rules import apply_action, deal_from_deck, deal_tonk_holders, legal_actions
from cardsim.kernels.tonk.search import determinize
from cardsim.kernels.tonk.strategies import choose

EPS = 0.1          # the model's chance of not playing its own choice (spread over the other actions)
HIST_MAX = 4096    # actions of a hand the critique keeps (a longer hand's later decisions: uniform worlds)
NO_SLOT = -1


@njit(cache=True)
def history_slots(st0, opts, hist, nh, p, owner, avail, played, due):
    """Replay the ``nh`` actions ``hist`` from the hand's first state ``st0`` (its real deck) and
    note, for every deck slot, the rival that holds it hidden (``owner[slot]``, -1 for ``p``'s
    slots, the upcard and the stock not drawn yet) and the action number from which it holds it
    (``avail[slot]``: 0 for a dealt card); and each card a rival played that it had not taken from
    the pile (``played[k]``, the rival in ``due[k, 0]``, the action number in ``due[k, 1]``).
    Returns the number of such cards."""
    sim = st0.copy()
    trace = np.empty((0, 4), dtype=np.int64)
    n = sim[N]
    for s in range(52):
        owner[s] = NO_SLOT
        avail[s] = 0
    for i in range(5 * n):
        q = (sim[DEALER] + 1 + i) % n
        if q != p:
            owner[i] = q
    took = np.zeros(MAX_PLAYERS, dtype=np.int64)
    k = 0
    for t in range(nh):
        a = hist[t]
        q = sim[CUR]
        kind = action_kind(a)
        if q != p:
            if kind == A_DRAW_STOCK:
                owner[sim[STOCK_PTR]] = q
                avail[sim[STOCK_PTR]] = t + 1
            elif kind == A_DRAW_DISCARD:
                took[q] |= bit(sim[PILE + sim[PILE_LEN] - 1])
            else:
                m = 0
                if kind == A_LAY:
                    m = action_cards(a)
                elif kind == A_HIT or kind == A_DISCARD:
                    m = bit(action_card(a))
                hidden = m & ~took[q]
                took[q] &= ~m
                while hidden:
                    played[k] = lowbit(hidden)
                    due[k, 0] = q
                    due[k, 1] = t
                    k += 1
                    hidden &= hidden - 1
        apply_action(sim, opts, a, trace)
    return k


@njit(cache=True)
def place_cards(deck, owner, avail, played, due, k, world, p, g):
    """The candidate deck ``deck``: the real deck with every rival's hidden slots refilled (its
    played cards, earliest first, each in a random free slot it held before playing it; then
    its hidden cards in ``world`` at random in the rest) and the stock not drawn yet as
    ``world`` dealt it. Returns False where a played card finds no slot (never for a
    consistent history)."""
    free = np.ones(52, dtype=np.bool_)
    for j in range(k):
        q, t = due[j, 0], due[j, 1]
        m = 0
        for s in range(52):
            if owner[s] == q and free[s] and avail[s] <= t:
                m += 1
        if m == 0:
            return False
        r = below(g, m)
        for s in range(52):
            if owner[s] == q and free[s] and avail[s] <= t:
                if r == 0:
                    deck[s] = played[j]
                    free[s] = False
                    break
                r -= 1
    for q in range(world[N]):
        if q == p:
            continue
        rest = world[HAND + q] & ~world[KNOWN + q]
        for s in range(52):
            if owner[s] == q and free[s]:
                c = nth_card(rest, below(g, popcount(rest)))     # a random card of the rest
                deck[s] = c
                rest &= ~bit(c)
                free[s] = False
    for s in range(world[STOCK_PTR], 52):
        deck[s] = world[DECK + s]
    return True


@njit(cache=True)
def replay_weight(w, opts, hist, nh, p, prm, acts, trace):
    """Replay the observed actions in the candidate ``w`` (dealt from its DECK); the log of its
    weight under the rivals' model (the row's rollout policy), -inf when the world contradicts
    what ``p`` saw."""
    deal_from_deck(w, opts, trace)
    holders, _ = deal_tonk_holders(w, opts)
    if holders > 0:
        return -np.inf
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:]
    g = np.zeros(2, dtype=np.uint64)
    logw = 0.0
    for t in range(nh):
        a = hist[t]
        n = legal_actions(w, opts, acts)
        at = -1
        for i in range(n):
            if acts[i] == a:
                at = i
                break
        if at < 0:
            return -np.inf
        if w[CUR] != p and n > 1:
            i = choose(w, opts, acts, n, sid, pprm, g)
            logw += np.log(1.0 - EPS) if i == at else np.log(EPS / (n - 1))
        apply_action(w, opts, a, trace)
    return logw


@njit(cache=True)
def infer_world(st, p, opts, st0, hist, nh, slots, cands, prm, key, ww, base, cards, g):
    """World ``ww`` of a decision into ``base``: of ``cands`` candidates (``candidate``), one in
    proportion to its weight (streamed: each replaces the one kept with probability its weight
    over the weights so far). ``slots`` = (owner, avail, played, due, k) of ``history_slots``."""
    owner, avail, played, due, k = slots
    world = np.empty(ST_SIZE, dtype=np.int64)
    w = np.empty(ST_SIZE, dtype=np.int64)
    deck = w[DECK:DECK + 52]              # the candidate's deck: the real one, refilled in place
    acts = np.empty(MAX_ACTS, dtype=np.int64)
    trace = np.empty((0, 4), dtype=np.int64)
    total = -np.inf
    kept = False
    for c in range(cands):
        world[:] = st
        seed_sub(g, key, ww, -2 - c)
        determinize(world, p, g, cards)
        w[:] = st0
        if not place_cards(deck, owner, avail, played, due, k, world, p, g):
            continue
        lw = replay_weight(w, opts, hist, nh, p, prm, acts, trace)
        if lw == -np.inf:
            continue
        hi = max(total, lw)
        total = hi + np.log(np.exp(total - hi) + np.exp(lw - hi))
        if not kept or uniform(g) < np.exp(lw - total):
            base[:] = w
            kept = True
    if not kept:                 # no candidate fits (cands too small): a uniform world
        base[:] = st
        seed_sub(g, key, ww, -1)
        determinize(base, p, g, cards)
