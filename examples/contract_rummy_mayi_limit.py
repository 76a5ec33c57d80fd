"""greedy Contract Rummy, but with its own May-I limit: mayi's rule as a plug-in.

    cardsim run contract_rummy --players 3 --strategy examples/contract_rummy_mayi_limit.py:limited:limit=2 --strategy greedy --strategy mayi

A plug-in strategy is a ``cardsim.plugin.Strategy``: the game, a numba function ``decide(view,
legal, n, prm)`` that returns the index of the chosen legal action, or -1 to leave the decision
to ``base`` (here greedy: every meld, lay-off, swap and discard, and the takes it allows), and
its parameters. ``cardsim.contract_rummy`` documents the view and each kind's legal codes.
At limit=L it plays exactly as the built-in ``mayi:max_mayi=L,near=99``.
"""
import numba

from cardsim import contract_rummy as C
from cardsim.plugin import Strategy, param


@numba.njit
def decide(view, legal, n, prm):
    # taking the discard would cost a penalty card (a May-I, or a buy) and this deal's
    # allowance is spent: draw from the stock / do not buy
    if view[C.V_INFO] != 0 and view[C.V_MAYI + view[C.V_SEAT]] >= prm[0]:
        return C.find(legal, n, C.NO)
    return -1


limited = Strategy("contract_rummy", decide, base="greedy", kinds=[C.K_DRAW, C.K_BUY],
                   params=[param("limit", 2, 0, 99, "May-I's (penalty cards) per deal", integer=True)],
                   help="greedy with at most `limit` May-I's per deal (mayi's limit, written as a plug-in)")
