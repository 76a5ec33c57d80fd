"""Marafon plug-ins for tests/marafon/test_plugins_marafon.py: greedy rewritten as a plug-in (every
decision kind), one that leaves everything to its base, and one illegal answer per kind."""
import numba

from cardsim import marafon as M
from cardsim.plugin import Strategy, param


@numba.njit
def greedy_decide(view, legal, n, prm):
    kind = view[M.V_KIND]
    hand = view[M.V_HAND]
    if kind == M.K_TRUMP:                                   # greedy: a marafona's suit, else best score
        c = M.cricche(hand)
        if c == 0 or view[M.V_TRUMP_ONLY] == 0 or view[M.V_MARAF_POINTS] == 0:
            return M.best_trump(hand)
        best, bv = 0, -1e300
        for s in range(4):
            v = M.trump_score(hand, s) + (1000.0 if (c >> s) & 1 else 0.0)
            if v > bv:
                best, bv = s, v
        return best
    if kind == M.K_DECLARE:
        return 1
    if kind == M.K_CLAIM:
        return 1 if view[M.V_COUNT + view[M.V_SIDE]] >= view[M.V_TARGET] else 0
    trump = view[M.V_TRUMP]
    m = M.legal_mask(legal, n)
    if view[M.V_NCARDS] > 0:
        win = M.beating_cards(m, M.winning_card(view), trump)
        if win:
            m = win
    return M.index_of(legal, n, M.cheapest(m, trump))


greedy_plugin = Strategy("marafon", greedy_decide, base="heuristic", help="greedy, every decision written as a plug-in")


@numba.njit
def pass_decide(view, legal, n, prm):
    return -1


leave_it = Strategy("marafon", pass_decide, base="heuristic", help="heuristic: every decision left to the base")


@numba.njit
def illegal_decide(view, legal, n, prm):
    if view[M.V_KIND] == prm[0]:
        return n                                           # one past the last legal action
    return -1


illegal_at = Strategy("marafon", illegal_decide, base="greedy",
                      params=[param("kind", 0, 0, 3, "the decision kind answered illegally", integer=True)],
                      help="an illegal answer for one decision kind")
