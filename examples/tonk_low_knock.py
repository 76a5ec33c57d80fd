"""greedy Tonk, but knocking at a low count: knocker's rule as a plug-in.

    cardsim run tonk --players 2 --strategy examples/tonk_low_knock.py:low_knock:threshold=5 --strategy greedy

A plug-in strategy is a ``cardsim.plugin.Strategy``: the game, a numba function ``decide(view,
legal, n, prm)`` that returns the index of the chosen legal action, or -1 to leave the decision
to ``base`` (here greedy: every draw, lay, hit and discard), and its parameters. ``view`` is
what the deciding seat may see (``cardsim.tonk`` names its fields), ``legal[:n]`` the legal
actions, ``prm`` the parameter values in the order declared.
"""
import numba

from cardsim import tonk as T
from cardsim.plugin import Strategy, param


@numba.njit
def decide(view, legal, n, prm):
    # a turn start, knocking allowed and the hand counts at most `threshold`: knock
    if view[T.V_KIND] == T.K_START and view[T.V_STOCK] > 0 and T.hand_count(view[T.V_HAND]) <= prm[0]:
        for i in range(n):
            if T.kind(legal[i]) == T.A_KNOCK:
                return i
    return -1


low_knock = Strategy("tonk", decide, base="greedy", kinds=[T.K_START],   # asked only at turn starts
                     params=[param("threshold", 8, 0, 50, "knock when the hand counts at most this many points")],
                     help="greedy, and knocks when its count <= threshold (knocker, written as a plug-in)")
