"""Trionfo's search (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts):
determinized Monte Carlo over the legal cards (and with ``trump`` the declarer's trump; the package
docstring describes it). The batch kernels reach it as a callback (``search_cfunc``), compiled the
first time a table has a search seat."""
import numba
import numpy as np
from numba import types

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import lazy_cfunc, njit
from cardsim.kernels.search import SP_POLICY, SP_PRM, best_action, plan_budget, search_key, seed_sub, shuffle_prefix
from cardsim.kernels.trick_search import (
    cards_of, deal_cards, hidden_places, other_seats, place_card, search_scratch, start_deal, unseen_cards,
)
from cardsim.kernels.tricks import legal_cards
from cardsim.kernels.trionfo.actions import ACT_MASK
from cardsim.kernels.trionfo.layout import (
    CALLED, DECLARER, FIRST_SPEAKER, FIVE_COINS, HAND, HAND_IDX, HIGH_BIDDER, HIGH_LEVEL, HMONEY, K_BID, K_CALL,
    K_CARD, K_NAME, K_TRUMP, LEADER, LED, NCARDS, N_PLAYERS, O_SELF_CALL, PARTNER, PLAYED, ST_SIZE, TRACE_W, TRICKS,
    VOID,
)
from cardsim.kernels.trionfo.rules import (
    after_card, declare, first_leader, next_speaker, nxt, open_play, put_card, set_called, set_named, set_trump,
    speak,
)
from cardsim.kernels.trionfo.strategies import choose_bid, choose_called, choose_card, choose_named, choose_trump


# =============================================================================
# search (issue 19): determinized Monte Carlo over the legal cards
# =============================================================================
OTHERS = N_PLAYERS - 1


@njit(cache=True)
def determinize(st, opts, p, gen, work):
    """Deal again, in ``st``, the four hands seat ``p`` cannot see, from the cards it has not
    seen, consistently with everything public: hand sizes, the suits each seat has shown void
    in (``VOID``), in a session's first hand the 5 of coins with the first speaker (he speaks
    first as its holder) until it is played, and an unplayed called card not in ``p``'s hand
    with one of the others (not the declarer unless self-calls are allowed); its holder is the
    world's partner. The deal is ``kernels.trick_search``'s (without voids: a uniform deal).
    Reads only what ``p`` may see. ``work``: scratch (64 int64)."""
    others = work[0:4]
    known = work[4:8]
    left = work[8:12]
    hands = work[12:16]
    rem = work[16:20]
    elig = work[20:24]
    need = work[24:28]
    cards = work[28:64]             # at most 32 unseen cards (p holds 8)
    other_seats(p, others)
    taken = st[PLAYED] | st[HAND + p]
    for j in range(OTHERS):
        known[j] = 0
        if st[HAND_IDX] == 0 and others[j] == st[FIRST_SPEAKER]:
            known[j] = (np.int64(1) << FIVE_COINS) & ~st[PLAYED]
        taken |= known[j]
    hidden_places(others, st[HAND:HAND + N_PLAYERS], st[VOID:VOID + N_PLAYERS], known, need, elig)
    called = st[CALLED]
    special = called >= 0 and not (taken >> called) & 1
    if special:
        taken |= np.int64(1) << called
    m = unseen_cards(taken, cards)
    shuffle_prefix(cards, m, gen)
    start_deal(cards, m, need, left, rem, hands)
    if special:
        seats = elig[called // 10]
        for j in range(OTHERS):
            if others[j] == st[DECLARER] and opts[O_SELF_CALL] == 0:
                seats &= ~(1 << j)
        j = place_card(called, seats, left, rem, elig, gen)
        hands[j] |= np.int64(1) << called
        st[PARTNER] = others[j]
    deal_cards(cards, m, elig, left, rem, hands, gen)
    for j in range(OTHERS):
        st[HAND + others[j]] = hands[j] | known[j]


@njit(cache=True)
def roll_hand(st, opts, sids, prm, gen, trace):
    """Play the hand in ``st`` to its end from wherever it stands (mid-trick too, a trick just
    filled included) with the built-in card play of ``sids`` (row ``prm``) at every seat: each
    card closed by ``after_card``, as the step adapter plays it (the last trick settles the hand)."""
    while after_card(st, opts, trace) != 2:
        p = (st[LEADER] + st[NCARDS]) % N_PLAYERS
        legal = legal_cards(st[HAND + p], st[LED])
        put_card(st, p, choose_card(st, opts, p, legal, sids[p], prm, gen), trace)


@njit(cache=True)
def auction_rest(st, opts, p, spoken, sids, prm, gen, trace):
    """The auction from seat ``p``'s turn on (``spoken`` calls made) with the built-in bids of
    ``sids`` (row ``prm``) at every seat, as ``auction`` runs it (``next_speaker``, ``speak``; a
    runaway auction stops)."""
    p = next_speaker(st, opts, p, spoken)
    while p >= 0:
        speak(st, p, choose_bid(st, p, st[HIGH_LEVEL], sids[p], prm, gen), trace)
        spoken += 1
        p = next_speaker(st, opts, nxt(p), spoken)


@njit(cache=True)
def play_choice(st, opts, p, kind, ctx, v, sids, prm, gen, trace):
    """Seat p's action ``v`` of decision ``kind`` in ``st`` (K_BID a call, K_TRUMP a suit, K_CALL a
    card, K_NAME a seat, K_CARD a card), then the hand played to its end by the built-in ``sids``
    (row ``prm``) at every seat and settled: after a call the auction goes on (``ctx``: the calls
    made before it) and the declarer makes his contract as the policy (``declare``,
    ``choose_trump``); an auction everybody passes leaves the hand's money 0 (the deal is thrown
    in: the hand starts again on a new deal). After the trump the partner is called as the policy
    calls (``contract_as``). The steps are the batch's (``kernels.trionfo.rules``)."""
    if kind == K_BID:
        speak(st, p, v, trace)
        auction_rest(st, opts, nxt(p), ctx + 1, sids, prm, gen, trace)
        if st[HIGH_BIDDER] < 0:
            return
        d = declare(st)
        contract_as(st, opts, d, choose_trump(st, d, sids[d], gen), sids[d], prm, gen)
    elif kind == K_TRUMP:
        d = st[DECLARER]
        contract_as(st, opts, d, v, sids[d], prm, gen)
    elif kind == K_CALL:
        set_called(st, v)
        open_play(st, opts, trace)
    elif kind == K_NAME:
        set_named(st, v)
        open_play(st, opts, trace)
    else:
        put_card(st, p, v, trace)
    roll_hand(st, opts, sids, prm, gen, trace)


@njit(cache=True)
def world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, key, w, base, sim, work, g, trace,
                 total):
    """World ``w`` of seat ``p``'s decision (``kind``, ``ctx``: ``play_choice``) searched with the
    stream keyed by ``key``: the four hands ``p`` cannot see dealt again into ``base`` (a copy
    of ``st``: ``determinize``), then each active action ``acts[i]`` (its value in the low
    ACT_SHIFT bits) played and the hand rolled out ``rollouts`` times by the policy ``sids``
    (row ``prm``; the same streams for every action: common random numbers); ``total[i]`` +=
    each rollout's money of seat p in the hand."""
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, work)
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                play_choice(sim, opts, p, kind, ctx, acts[i] & ACT_MASK, sids, prm[SP_PRM:], g, trace)
                total[i] += sim[HMONEY + p]


@njit(cache=True)
def search_card(st, opts, p, legal, prm, gen):
    """The search strategy's card (row ``prm``: ``kernels.search``) among the mask ``legal``:
    in each of ``worlds`` determinizations every legal card is played and the hand rolled out
    ``rollouts`` times with the policy's card play at every seat (the same rollout streams for
    every card); the card with the best total money of seat ``p`` in the hand wins (the
    lowest card on ties). The session's money is the sum of its hands' and the play of a hand
    changes no other hand, so the hand's money is the record's own measure."""
    n = popcount(legal)
    if n == 1:
        return lowbit(legal)
    acts = np.empty(TRICKS, np.int64)
    cards_of(legal, acts)
    worlds, rollouts = plan_budget(prm, n)
    key = search_key(gen)
    sids = np.full(N_PLAYERS, np.int64(prm[SP_POLICY]))
    base, sim, work, total, g, trace, active = search_scratch(ST_SIZE, n, TRACE_W)
    for w in range(worlds):
        world_values(st, opts, p, K_CARD, 0, acts, n, active, prm, rollouts, sids, key, w, base, sim, work, g, trace,
                     total)
    return acts[best_action(total, n)]


@njit(cache=True)
def contract_as(st, opts, d, trump, sid, prm, gen):
    """``make_contract`` after the trump, for a rollout: ``set_trump``, the partner as the
    built-in ``sid`` (row ``prm``) calls or names it (``set_called``, ``set_named``), and the
    leader of trick 1 (``first_leader``, as ``open_play`` without its trace row)."""
    partner = set_trump(st, opts, trump)
    if partner == K_NAME:
        set_named(st, choose_named(st, d, sid, gen))
    elif partner == K_CALL:
        set_called(st, choose_called(st, d, trump, sid, prm, gen, opts[O_SELF_CALL] != 0))
    first_leader(st, opts, d)


@njit(cache=True)
def search_trump(st, opts, d, prm, gen):
    """The search declarer's trump: each suit is named in ``worlds`` deals of the other 32
    cards, the partner called as the policy would, and the hand rolled out by the policy; the
    suit of the best total money of the declarer wins."""
    worlds, rollouts = plan_budget(prm, 4)
    key = search_key(gen)
    sids = np.full(N_PLAYERS, np.int64(prm[SP_POLICY]))
    base, sim, work, total, g, trace, active = search_scratch(ST_SIZE, 4, TRACE_W)
    acts = np.arange(4, dtype=np.int64)
    for w in range(worlds):
        world_values(st, opts, d, K_TRUMP, 0, acts, 4, active, prm, rollouts, sids, key, w, base, sim, work, g, trace,
                     total)
    return best_action(total, 4)


# The batch kernels call the search through SEARCH_SIG (seat, kind K_CARD with the legal mask
# or K_TRUMP): ``search_cfunc()`` compiled when a search seat plays (jit.lazy_cfunc),
# ``no_search`` otherwise (never called).
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64,
                         types.float64[::1], types.uint64[::1])


def _search_entry(st, opts, p, kind, legal, prm, gen):
    if kind == K_TRUMP:
        return search_trump(st, opts, p, prm, gen)
    return search_card(st, opts, p, legal, prm, gen)


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@numba.cfunc(SEARCH_SIG, cache=True)
def no_search(st, opts, p, kind, legal, prm, gen):
    """The search argument of a table without a search seat (never called)."""
    return 0


def search_decision(st, opts, prm, key):
    """The search's card in state ``st`` (the seat to play: leader + cards in the trick) with
    its play stream keyed by ``key`` (tests: other hidden cards must give the same card)."""
    p = (int(st[LEADER]) + int(st[NCARDS])) % N_PLAYERS
    g = np.array([key, 0], dtype=np.uint64)
    return search_card(st, opts, p, legal_cards(st[HAND + p], st[LED]), prm, g)


def search_trump_decision(st, opts, prm, key):
    """The search declarer's trump in state ``st`` (auction over, DECLARER set) for tests."""
    g = np.array([key, 0], dtype=np.uint64)
    return search_trump(st, opts, int(st[DECLARER]), prm, g)
