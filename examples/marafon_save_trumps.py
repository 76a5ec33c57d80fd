"""greedy Marafon, but not spending a trump on a cheap trick: one card-play rule as a plug-in.

    cardsim compare marafon --strategy examples/marafon_save_trumps.py:save_trumps:min_thirds=3 --strategy greedy --field heuristic

greedy wins every trick it can with its cheapest winning card. This plug-in plays the same,
except that when only a trump would win a trick of another suit worth less than
``min_thirds`` thirds so far, it throws its cheapest card instead (at ``min_thirds=0`` it is
greedy exactly). Trump naming, declarations and claims are left to ``base`` (greedy).
``view`` is what the deciding seat may see (``cardsim.marafon`` names its fields),
``legal[:n]`` the playable cards (40-card ids), ``prm`` the parameter values in order.
"""
import numba

from cardsim import marafon as M
from cardsim.plugin import Strategy, param


@numba.njit
def decide(view, legal, n, prm):
    trump = view[M.V_TRUMP]
    hand = M.legal_mask(legal, n)
    card = M.cheapest(hand, trump)                        # leading: greedy's cheapest card
    if view[M.V_NCARDS] > 0:
        win = M.beating_cards(hand, M.winning_card(view), trump)
        only_trumps = (win & ~(0x3FF << (10 * trump))) == 0
        cheap = M.mask_thirds(M.trick_mask(view)) < prm[0]
        if win and not (only_trumps and view[M.V_LED] != trump and cheap):
            card = M.cheapest(win, trump)                 # greedy: the cheapest winning card
    return M.index_of(legal, n, card)


save_trumps = Strategy("marafon", decide, base="greedy", kinds=[M.K_CARD],   # asked only for cards
                       params=[param("min_thirds", 3, 0, 12, "trump a trick of another suit only when it is "
                                                            "worth at least this many thirds", integer=True)],
                       help="greedy, but keeps its trumps for tricks worth min_thirds thirds (0: greedy)")
