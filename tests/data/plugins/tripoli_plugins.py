"""Tripoli plug-ins for tests/tripoli/test_plugins_tripoli.py: one that leaves every decision to its
base, one that answers the first legal action everywhere, one that answers an illegal index
for one decision kind only."""
import numba

from cardsim import tripoli as T
from cardsim.plugin import Strategy, param


@numba.njit
def leave(view, legal, n, prm):
    return -1


@numba.njit
def first(view, legal, n, prm):
    return 0


@numba.njit
def illegal(view, legal, n, prm):
    return n if view[T.V_KIND] == prm[0] else -1


pass_heuristic = Strategy("tripoli", leave, base="heuristic", help="asked everything, leaves it to the heuristic")
pass_fuzz = Strategy("tripoli", leave, base="fuzz", help="asked everything, leaves it to fuzz")
first_legal = Strategy("tripoli", first, base="heuristic", help="the first legal action of every decision")
illegal_at = Strategy("tripoli", illegal, base="heuristic",
                      params=[param("kind", 0, 0, T.N_KINDS - 1, "the decision kind answered illegally",
                                    integer=True)],
                      help="an illegal answer for one decision kind, the heuristic elsewhere")
