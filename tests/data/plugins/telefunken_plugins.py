"""Telefunken plug-ins for tests/telefunken/test_plugins_telefunken.py."""
import numba

from cardsim import telefunken as T
from cardsim.plugin import Strategy, param


@numba.njit
def _illegal(view, legal, n, prm):
    if view[T.V_KIND] == prm[0]:
        return n + 3                      # no legal index: the game must stop
    return -1


illegal_for = Strategy("telefunken", _illegal, base="greedy",
                       params=[param("kind", 0, 0, T.N_KINDS - 1, "the decision kind answered illegally",
                                     integer=True)])


@numba.njit
def _abstain(view, legal, n, prm):
    return -1


abstain = Strategy("telefunken", _abstain, base="random", help="asked every kind, always -1")
abstain_fuzz = Strategy("telefunken", _abstain, base="fuzz")
abstain_planner = Strategy("telefunken", _abstain, base="planner:down_left=4,down_turn=40,exchange=6")


@numba.njit
def _planner_bits(view, legal, n, prm):
    k = view[T.V_KIND]
    if k == T.K_EXCHANGE and prm[0] == 0:
        return n - 1                      # A_EX_DONE at once: pass no card
    if k == T.K_CUT and prm[1] > 0:
        return int(prm[1]) - 1            # legal[i] = i + 1
    if k == T.K_KEEP:
        return min(int(prm[2]), n - 1)    # legal[i] = i jokers kept
    return -1


planner_bits = Strategy("telefunken", _planner_bits, base="planner",
                        kinds=[T.K_EXCHANGE, T.K_CUT, T.K_KEEP],
                        params=[param("exchange", 4, 0, 11, integer=True), param("cut_aim", 0, 0, 105, integer=True),
                                param("keep", 3, 0, 3, integer=True)],
                        help="planner's exchange=0, cut_aim and keep_jokers as a plug-in")


@numba.njit
def _holder(view, legal, n, prm):
    # lay nothing once down and never go down before turn prm[0]: A_HOLD where offered
    if legal[n - 1] == T.A_HOLD and view[T.V_TURN] < prm[0]:
        return n - 1
    return -1


holder = Strategy("telefunken", _holder, base="greedy", kinds=[T.K_GO_DOWN, T.K_LAY, T.K_GO_OUT],
                  params=[param("turn", 30, 0, 2000, integer=True)])
