"""Trionfo plug-ins for tests/trionfo/test_plugins_trionfo.py: greedy rewritten as a plug-in (every
decision kind), one that leaves everything to its base, and one illegal answer per kind."""
import numba

from cardsim import trionfo as T
from cardsim.plugin import Strategy, param


@numba.njit
def greedy_decide(view, legal, n, prm):
    kind = view[T.V_KIND]
    hand = view[T.V_HAND]
    trump = view[T.V_TRUMP]
    if kind == T.K_BID:
        s = T.hand_strength(hand)
        want = 0
        for k in range(4):
            if s >= T.GREEDY_THRESHOLDS[k]:
                want = k + 1
        i = T.index_of(legal, n, want)
        return i if i > 0 else 0
    if kind == T.K_TRUMP:
        return T.best_trump(hand)
    if kind == T.K_CALL:
        if view[T.V_SELF_CALL] and T.hand_strength(hand) >= prm[0]:      # a secret solo
            own = hand & (0x3FF << (10 * trump))
            m = own if own else hand
            c = 39
            while not (m >> c) & 1:
                c -= 1
            return T.index_of(legal, n, c)
        for s in range(9, -1, -1):                                      # the highest trump not held
            c = 10 * trump + s
            if not (hand >> c) & 1:
                return T.index_of(legal, n, c)
        return T.index_of(legal, n, T.cheapest(T.legal_mask(legal, n), trump))
    if kind == T.K_NAME:
        d = view[T.V_SEAT]
        best = (d + 1) % 5
        for k in range(1, 5):
            q = (d + k) % 5
            if view[T.V_BID + q] > view[T.V_BID + best]:
                best = q
        return T.index_of(legal, n, best)
    m = T.legal_mask(legal, n)
    if view[T.V_NCARDS] > 0:
        win = T.beating_cards(m, T.winning_card(view), trump)
        if win:
            m = win
    return T.index_of(legal, n, T.cheapest(m, trump))


greedy_plugin = Strategy("trionfo", greedy_decide, base="heuristic",
                         params=[param("self_call", 12, 0, 41, "greedy's self_call")],
                         help="greedy, every decision written as a plug-in")


@numba.njit
def pass_decide(view, legal, n, prm):
    return -1


leave_it = Strategy("trionfo", pass_decide, base="heuristic", help="heuristic: every decision left to the base")


@numba.njit
def illegal_decide(view, legal, n, prm):
    if view[T.V_KIND] == prm[0]:
        return -5 if prm[1] else n                         # below -1, or one past the last legal action
    return -1


illegal_at = Strategy("trionfo", illegal_decide, base="greedy",
                      params=[param("kind", 0, 0, 4, "the decision kind answered illegally", integer=True),
                              param("negative", 0, 0, 1, "1: answer -5 instead of n", integer=True)],
                      help="an illegal answer for one decision kind")
