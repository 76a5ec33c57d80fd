"""planner Telefunken, but holding back from going down while many cards would stay in hand:
the planner's down_left / down_turn rule as a plug-in.

    cardsim run telefunken --players 3 --strategy examples/telefunken_hold_back.py:hold_back:left=4,turn=40 --strategy greedy --strategy planner

``decide(view, legal, n, prm)`` is asked only K_GO_DOWN (the first table action of a turn, a
contract held): the last legal action is A_HOLD, not going down now (the base then discards).
Everything else (and going down when it does not hold back) is the base's, planner (which
plays as greedy at its defaults). At left=L, turn=T it plays exactly planner:down_left=L,down_turn=T.
"""
import numba

from cardsim import telefunken as T
from cardsim.plugin import Strategy, param


@numba.njit
def decide(view, legal, n, prm):
    if view[T.V_AT_ONCE] == 0 and view[T.V_TURN] < prm[1]:
        laid = view[T.V_C_GROUPS] * view[T.V_C_GROUP_SIZE] + view[T.V_C_RUNS] * view[T.V_C_RUN_MIN]
        if T.own_count(view) - laid > prm[0]:
            return n - 1                     # A_HOLD: not yet
    return -1


hold_back = Strategy("telefunken", decide, base="planner", kinds=[T.K_GO_DOWN],
                     params=[param("left", 20, 0, 20, "hold back while more than this many cards would stay in hand",
                                   integer=True),
                             param("turn", 0, 0, 2000, "... and the hand has run fewer than this many turns",
                                   integer=True)],
                     help="planner, holding back from going down (its down_left / down_turn rule as a plug-in)")
