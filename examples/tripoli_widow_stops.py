"""The heuristic Tripoli player, but counting known widow cards as Michigan stops.

    cardsim run tripoli --players 3 --strategy examples/tripoli_widow_stops.py:widow_stops --strategy heuristic --strategy heuristic

The heuristic leads the suit that sheds the most cards: the suit's length + run_weight x the
run of its own cards up from the lowest + stop_bonus when that run ends in a sure stop (an ace,
or a card already played). A card in the widow stops a run just as surely; the dealer who
swapped knows the whole widow (his old hand), everybody knows the pay cards nobody claimed in
Phase 1 and cards an earlier stop revealed (``view[T.V_WIDOW]``). With ``widow_stops=0`` this is
the heuristic's lead exactly; ``base`` (the heuristic) takes every other decision.
"""
import numba

from cardsim import tripoli as T
from cardsim.plugin import Strategy, param


@numba.njit
def decide(view, legal, n, prm):            # asked only for Michigan leads (kinds below)
    hand = view[T.V_HAND]
    stops = view[T.V_PLAYED] | (view[T.V_WIDOW] if prm[2] > 0.5 else 0)
    best, bi = -1e300, 0
    for i in range(n):
        s = T.suit(legal[i])
        c = T.lowest_in(hand, s)
        run = 1
        nc = T.next_card(c)
        while nc >= 0 and (hand >> nc) & 1:    # the own run up from the lowest card
            run += 1
            c = nc
            nc = T.next_card(c)
        stop = nc < 0 or (stops >> nc) & 1
        v = T.suit_count(hand, s) + prm[0] * run + (prm[1] if stop else 0.0)
        if v > best:
            best, bi = v, i
    return bi


widow_stops = Strategy("tripoli", decide, base="heuristic", kinds=[T.K_LEAD],
                       params=[param("run_weight", 1.0, 0.0, 10.0, "lead score per card of the own run"),
                               param("stop_bonus", 2.0, 0.0, 20.0, "lead score bonus when the run ends in a stop"),
                               param("widow_stops", 1, 0, 1, "1: a known widow card is a stop too", integer=True)],
                       help="heuristic, but its Michigan leads count known widow cards as stops")
