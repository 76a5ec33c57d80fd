"""Marafon's search (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts):
determinized Monte Carlo over the legal cards (and the trump). ``determinize`` deals the hidden
hands again consistently with everything public, ``roll_hand`` plays a hand out with the rollout
policy, ``world_values`` values every action of a decision in one world (the critique's too).
The package docstring describes it."""
import numpy as np

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit, no_plugin
from cardsim.kernels.search import best_action, plan_budget, search_key, seed_sub, shuffle_prefix, SP_POLICY, SP_PRM
from cardsim.kernels.trick_search import (
    cards_of, deal_cards, hidden_places, other_seats, search_scratch, start_deal, unseen_cards,
)
from cardsim.kernels.tricks import CRICCA, cricche, legal_cards
from cardsim.kernels.marafon.layout import (
    ASKED,
    BATT,
    DECL,
    EX_GAME_WEIGHT,
    EX_TRUMP,
    FOUR_COINS,
    HAND,
    HAND_END,
    HAND_NO,
    K_CARD,
    K_DECLARE,
    K_TRUMP,
    LAST_WINNER,
    LEADER,
    LED,
    MARAF,
    N_PARAMS,
    N_PLAYERS,
    NCARDS,
    O_AUTO_DECLARE,
    O_CLAIM_TIMING,
    O_DECLARER,
    O_MARAF_POINTS,
    O_TRUMP_ONLY,
    OVER,
    PLAYED,
    PLAYED_BY,
    PTS,
    ST_SIZE,
    THIRDS,
    TRACE_W,
    TRICK_NO,
    TRICKS,
    TRUMP,
    VOID,
    WIN_SIDE,
)
from cardsim.kernels.marafon.actions import ACT_MASK
from cardsim.kernels.marafon.rules import (
    card_window_due,
    close_hand,
    declarable,
    declare,
    finish_trick,
    put_card,
    resolve_claim,
    set_trump,
)
from cardsim.kernels.marafon.strategies import choose_card, choose_trump, wants_claim
from cardsim.kernels.marafon.windows import claim_window, declare_step


DEAL_TRIES = 16         # deals tried for a world that also respects the declarations not made


@njit(cache=True)
def acted_in_first_trick(st, q):
    """Seat q has had its turn in trick 1 (so it declared there, or held nothing to declare)."""
    return st[TRICK_NO] > 0 or ((q - st[LEADER]) & 3) < st[NCARDS]


@njit(cache=True)
def declarable_in(st, opts, q, hand):
    """``declarable`` for seat q holding ``hand``."""
    if opts[O_DECLARER] == 1 and q != st[BATT]:
        return 0
    c = cricche(hand)
    if opts[O_TRUMP_ONLY]:
        c &= 1 << st[TRUMP]
    return c


@njit(cache=True)
def known_cards(st, q):
    """The cards public play places in seat q's hand: its declared cricche and, in a game's first
    hand, the battitore's 4 of coins (he named trump as its holder), until they are played."""
    m = 0
    for s in range(4):
        if (st[DECL + q] >> s) & 1:
            m |= np.int64(CRICCA) << (10 * s)
    if st[HAND_NO] == 1 and q == st[BATT]:
        m |= np.int64(1) << FOUR_COINS
    return m & ~st[PLAYED]


@njit(cache=True)
def determinize(st, opts, p, gen, work):
    """Deal again, in ``st``, the three hands seat ``p`` cannot see, from the cards it has not
    seen, consistently with everything public: hand sizes, the suits each seat has shown void
    in (``VOID``), the declared cricche still unplayed and the battitore's 4 of coins
    (``known_cards``); with ``marafona_auto_declare``, no seat that has had its turn in trick 1
    gets a cricca it would have declared and did not (up to DEAL_TRIES deals; then the last
    one). The deal is ``kernels.trick_search``'s. Reads only what ``p`` may see. ``work``:
    scratch (64 int64)."""
    others = work[0:3]
    known = work[3:6]
    need = work[6:9]
    hands = work[9:12]
    left = work[12:15]
    rem = work[15:19]
    elig = work[19:23]
    cards = work[24:64]
    other_seats(p, others)
    taken = st[PLAYED] | st[HAND + p]
    for j in range(3):
        known[j] = known_cards(st, others[j])
        taken |= known[j]
    hidden_places(others, st[HAND:HAND + N_PLAYERS], st[VOID:VOID + N_PLAYERS], known, need, elig)
    m = unseen_cards(taken, cards)
    check = opts[O_AUTO_DECLARE] == 1 and st[TRUMP] >= 0
    for attempt in range(DEAL_TRIES):
        shuffle_prefix(cards, m, gen)
        start_deal(cards, m, need, left, rem, hands)
        deal_cards(cards, m, elig, left, rem, hands, gen)
        ok = True
        if check:
            for j in range(3):
                q = others[j]
                if acted_in_first_trick(st, q) and \
                        declarable_in(st, opts, q, hands[j] | known[j] | st[PLAYED_BY + q]) != st[DECL + q]:
                    ok = False
        if ok:
            break
    for j in range(3):
        st[HAND + others[j]] = hands[j] | known[j]


@njit(cache=True)
def roll_hand(st, opts, sids, params, gen, trace, plug):
    """Play the hand in ``st`` to its end from wherever it stands (mid-trick too: the seats
    still to play in this trick first), with the strategies ``sids`` / ``params`` (built-ins
    only): declarations, claim windows, tricks, and the scoring and end-of-game test of
    ``play_tricks``; stops at the end of the hand (or of the game)."""
    while st[OVER] == 0 and st[TRICK_NO] < TRICKS:
        while st[NCARDS] < N_PLAYERS:
            p = (st[LEADER] + st[NCARDS]) & 3
            if st[TRICK_NO] == 0:
                declare_step(st, opts, p, sids, params, gen, trace, plug, False)
            if card_window_due(st, opts):
                claim_window(st, opts, p, sids, params, gen, trace, plug, False)
            if st[OVER]:
                return
            legal = legal_cards(st[HAND + p], st[LED])
            put_card(st, p, choose_card(st, opts, p, legal, sids[p], params[p], gen), trace)
        finish_trick(st, trace)
        claim_window(st, opts, st[LAST_WINNER], sids, params, gen, trace, plug, False)
    if st[OVER] == 0:
        close_hand(st, opts, False, trace)


@njit(cache=True)
def search_value(st, opts, side, game_weight):
    """A rollout's worth to ``side``: its hand points minus the other side's (the scored
    points; thirds / 3 and the marafone where a claim ended the hand), plus ``game_weight``
    if the game ended in the hand and ``side`` won it (minus if it lost)."""
    o = 1 - side
    if st[TRICK_NO] == TRICKS and st[HAND_END] == 0:
        v = float(st[PTS + side] - st[PTS + o])
    else:
        v = (st[THIRDS + side] - st[THIRDS + o]) / 3.0 + opts[O_MARAF_POINTS] * (st[MARAF + side] - st[MARAF + o])
    if st[OVER]:
        if st[WIN_SIDE] == side:
            v += game_weight
        elif st[WIN_SIDE] == o:
            v -= game_weight
    return v


@njit(cache=True)
def rollout_table(prm, width):
    """Every seat the search row's rollout policy, with its parameter row."""
    sids = np.empty(N_PLAYERS, np.int64)
    params = np.zeros((N_PLAYERS, width), np.float64)
    for q in range(N_PLAYERS):
        sids[q] = np.int64(prm[SP_POLICY])
        for i in range(N_PARAMS - SP_PRM):
            params[q, i] = prm[SP_PRM + i]
    return sids, params


@njit(cache=True)
def finish_turn(st, opts, sids, params, gen, trace, plug):
    """The rest of the turn of the seat to play after its declaration step, as ``play_trick``
    plays it: a claim window where ``claim_timing`` asks one, then its card (``sids`` /
    ``params``: built-ins). Nothing once the game is over or the hand's tricks are played."""
    if st[OVER] or st[TRICK_NO] == TRICKS:
        return
    p = (st[LEADER] + st[NCARDS]) & 3
    if opts[O_CLAIM_TIMING] == 1 and st[ASKED] == 0:
        claim_window(st, opts, p, sids, params, gen, trace, plug, False)
        if st[OVER]:
            return
    legal = legal_cards(st[HAND + p], st[LED])
    put_card(st, p, choose_card(st, opts, p, legal, sids[p], params[p], gen), trace)


@njit(cache=True)
def play_choice(st, opts, p, kind, ctx, v, sids, params, gen, trace, plug):
    """Seat p's action ``v`` of decision ``kind`` in ``st`` (K_TRUMP a suit, K_CARD a card,
    K_DECLARE / K_CLAIM 1 or 0), then the hand played to its end by the built-ins ``sids`` /
    ``params`` (``roll_hand``). A claim window's other seats answer after p: ``ctx`` = 4 x the
    seat that opened it + p's place in it; then the turn under way goes on (``finish_turn``)."""
    if kind == K_TRUMP:
        set_trump(st, v, trace)
    elif kind == K_CARD:
        put_card(st, p, v, trace)
    elif kind == K_DECLARE:
        if v:
            declare(st, p, declarable(st, opts, p), trace)
            claim_window(st, opts, p, sids, params, gen, trace, plug, False)
        finish_turn(st, opts, sids, params, gen, trace, plug)
    elif v:
        resolve_claim(st, opts, p, trace)
    else:
        first = ctx >> 2
        for k in range((ctx & 3) + 1, N_PLAYERS):
            q = (first + k) & 3
            if wants_claim(st, opts, q, sids[q], params[q], gen):
                resolve_claim(st, opts, q, trace)
                break
        finish_turn(st, opts, sids, params, gen, trace, plug)
    roll_hand(st, opts, sids, params, gen, trace, plug)


@njit(cache=True)
def world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, params, key, w, base, sim, work, g,
                 trace, plug, total):
    """World ``w`` of seat ``p``'s decision (``kind``, ``ctx``: ``play_choice``) searched with the
    stream keyed by ``key``: the hands ``p`` cannot see dealt again into ``base`` (a copy of
    ``st``: ``determinize``), then each active action ``acts[i]`` (its value in the low
    ACT_SHIFT bits) played and the hand rolled out ``rollouts`` times by the rollout table
    ``sids`` / ``params`` (the same streams for every action: common random numbers);
    ``total[i]`` += each rollout's ``search_value`` for p's side (row ``prm``'s game weight)."""
    gw = prm[EX_GAME_WEIGHT]
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, work)
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                play_choice(sim, opts, p, kind, ctx, acts[i] & ACT_MASK, sids, params, g, trace, plug)
                total[i] += search_value(sim, opts, p & 1, gw)


@njit(cache=True)
def search_card(st, opts, p, legal, prm, gen, plug):
    """The search strategy's card (row ``prm``: ``kernels.search``) among the mask ``legal``:
    in each of ``worlds`` determinizations every legal card is played and the hand rolled out
    ``rollouts`` times by the policy at every seat (the same rollout streams for every card);
    the card with the best total ``search_value`` wins (the lowest card on ties)."""
    n = popcount(legal)
    if n == 1:
        return lowbit(legal)
    acts = np.empty(TRICKS, np.int64)
    cards_of(legal, acts)
    worlds, rollouts = plan_budget(prm, n)
    key = search_key(gen)
    sids_r, params_r = rollout_table(prm, N_PARAMS)
    base, sim, work, total, g, trace, active = search_scratch(ST_SIZE, n, TRACE_W)
    for w in range(worlds):
        world_values(st, opts, p, K_CARD, 0, acts, n, active, prm, rollouts, sids_r, params_r, key, w, base, sim,
                     work, g, trace, plug, total)
    return acts[best_action(total, n)]


@njit(cache=True)
def search_trump(st, opts, b, prm, gen, plug):
    """The search battitore's trump: with ``trump`` set, each suit is named in ``worlds``
    deals of the other 30 cards and the hand rolled out by the policy (declarations
    included); the best total ``search_value`` wins. With ``trump`` 0, the policy's choice."""
    if prm[EX_TRUMP] == 0:
        return choose_trump(st[HAND + b], np.int64(prm[SP_POLICY]), prm[SP_PRM:], opts, gen)
    worlds, rollouts = plan_budget(prm, 4)
    key = search_key(gen)
    sids_r, params_r = rollout_table(prm, N_PARAMS)
    base, sim, work, total, g, trace, active = search_scratch(ST_SIZE, 4, TRACE_W)
    acts = np.arange(4, dtype=np.int64)
    for w in range(worlds):
        world_values(st, opts, b, K_TRUMP, 0, acts, 4, active, prm, rollouts, sids_r, params_r, key, w, base, sim,
                     work, g, trace, plug, total)
    return best_action(total, 4)


def search_decision(st, opts, prm, key):
    """The search's card in state ``st`` (the seat to play: leader + cards in the trick) with
    its play stream keyed by ``key`` (tests: other hidden cards must give the same card)."""
    p = (int(st[LEADER]) + int(st[NCARDS])) & 3
    g = np.array([key, 0], dtype=np.uint64)
    return search_card(st, opts, p, legal_cards(st[HAND + p], st[LED]), prm, g, no_plugin)


def search_trump_decision(st, opts, prm, key):
    """The search battitore's trump in state ``st`` (dealt, trump not named) for tests."""
    g = np.array([key, 0], dtype=np.uint64)
    return search_trump(st, opts, int(st[BATT]), prm, g, no_plugin)
