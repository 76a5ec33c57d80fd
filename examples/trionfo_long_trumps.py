"""greedy Trionfo, but bidding only with a long trump suit: one bidding rule as a plug-in.

    cardsim compare trionfo --strategy examples/trionfo_long_trumps.py:long_trumps:min_trumps=3 --strategy greedy --field heuristic

greedy bids the highest level whose strength threshold (9, 13, 15, 17) its hand reaches when
that is above the current bid, and passes otherwise. This plug-in bids the same, except
that it passes when its best trump suit has fewer than ``min_trumps`` cards (at
``min_trumps=0`` it is greedy exactly). Trump, the called card and card play are left to
``base`` (greedy). ``view`` is what the deciding seat may see (``cardsim.trionfo`` names its
fields), ``legal[:n]`` the legal calls (0 pass, then the levels above the highest bid),
``prm`` the parameter values in order.
"""
import numba

from cardsim import trionfo as T
from cardsim.plugin import Strategy, param


@numba.njit
def decide(view, legal, n, prm):
    hand = view[T.V_HAND]
    strength = T.hand_strength(hand)
    want = 0
    for k in range(4):
        if strength >= T.GREEDY_THRESHOLDS[k]:
            want = k + 1                                  # greedy's level
    if T.popcount(hand >> (10 * T.best_trump(hand)) & 0x3FF) < prm[0]:
        want = 0                                          # my rule: too few trumps, pass
    i = T.index_of(legal, n, want)                        # legal = [0 (pass), levels above the bid]
    return i if i > 0 else 0                              # not above the bid: pass


long_trumps = Strategy("trionfo", decide, base="greedy", kinds=[T.K_BID],     # asked only to bid
                       params=[param("min_trumps", 3, 0, 8, "bid only holding at least this many cards of the "
                                                            "best trump suit", integer=True)],
                       help="greedy, but passes without min_trumps cards of its best suit (0: greedy)")
