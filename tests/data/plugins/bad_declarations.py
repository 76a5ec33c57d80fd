"""Plug-ins whose declarations are wrong (tests/test_bad_input_plugins.py): each is refused when
it loads, with one line naming what is wrong."""
import math

import numba

from cardsim import tonk as T
from cardsim.plugin import Strategy, param


@numba.njit
def knock_low(view, legal, n, prm):
    if view[T.V_KIND] == T.K_START and T.hand_count(view[T.V_HAND]) <= prm[0]:
        for i in range(n):
            if T.kind(legal[i]) == T.A_KNOCK:
                return i
    return -1


@numba.njit
def fraction(view, legal, n, prm):
    return 0.75


@numba.njit
def answers_bool(view, legal, n, prm):
    return n > 3


@numba.njit
def writes_prm(view, legal, n, prm):
    prm[0] = prm[0] + 1
    return -1


@numba.njit
def writes_view(view, legal, n, prm):
    view[0] = 0
    return -1


@numba.njit
def writes_legal(view, legal, n, prm):
    legal[0] = legal[n - 1]
    return 0


def _knock(*params):
    return Strategy("tonk", knock_low, base="greedy", kinds=[T.K_START], params=list(params))


default_outside = _knock(param("threshold", 100, 0, 50))
duplicate_names = _knock(param("threshold", 5, 0, 50), param("threshold", 6, 0, 50))
high_to_low = _knock(param("threshold", 5, 50, 0))
nan_default = _knock(param("threshold", math.nan, 0, 50))
inexpressible_name = _knock(param("a=b,c", 5, 0, 50))
fraction_answer = Strategy("tonk", fraction, base="greedy")
bool_answer = Strategy("tonk", answers_bool, base="greedy")
prm_written = Strategy("tonk", writes_prm, base="greedy", params=[param("x", 1, 0, 9)])
view_written = Strategy("tonk", writes_view, base="greedy")
legal_written = Strategy("tonk", writes_legal, base="greedy")
