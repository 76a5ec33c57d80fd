"""Write your own strategy: a ``Strategy`` is a game, a numba ``decide`` function, a built-in
``base`` for everything ``decide`` leaves alone, and parameters.

    import numba
    from cardsim.plugin import Strategy, param
    from cardsim import tonk as T

    @numba.njit
    def decide(view, legal, n, prm):
        if view[T.V_KIND] == T.K_START and T.hand_count(view[T.V_HAND]) <= prm[0]:
            for i in range(n):
                if T.kind(legal[i]) == T.A_KNOCK:
                    return i
        return -1                        # anything else: the base strategy decides

    low_knock = Strategy("tonk", decide, base="greedy", help="greedy that knocks low", kinds=[T.K_START],
                         params=[param("threshold", 3, 0, 50, "knock at this count or below")])

``cardsim run tonk --strategy my_file.py:low_knock:threshold=5``. ``decide(view, legal, n, prm)``
gets the seat's view (an int64 array in the game's ``V_*`` layout: what that seat may see,
never a hidden card), the legal actions ``legal[:n]`` (a copy, in the game's action encoding),
and ``prm``, the plug-in's parameter values in declaration order; it returns the index of
the chosen action, or -1 to let ``base`` choose. Any other value stops the deal (reported with
its id), and so does an exception ``decide`` raises (its type and message, the decision kind
and the deal are reported; a run with ``--out`` keeps its finished shards). ``view``, ``legal``
and ``prm`` are read-only (a write does not compile). Under ``--check``, ``decide`` is compiled
with bounds checking (an index out of range is an IndexError, reported alike; without it, it
can crash the process). A ``decide`` that never returns hangs its deal: the second Ctrl-C
stops the run. Checked when the plug-in loads: the signature, that numba compiles it, that it
returns an integer, and the parameters (a name ``key=value`` can write, given once, a finite
default inside a finite range written low to high). ``kinds`` (optional) lists the decision kinds ``decide`` is asked (the game's ``K_*``;
the others go straight to ``base``). The game modules (``cardsim.tonk``) give the layouts and
numba helpers; every game takes plug-ins (``cardsim.tonk``, ``cardsim.telefunken``,
``cardsim.contract_rummy``, ``cardsim.marafon``, ``cardsim.trionfo``, ``cardsim.tripoli``).
"""
from __future__ import annotations

from cardsim.kernels.jit import njit
from cardsim.sim.spec import PluginStrategy as Strategy, plugin_param as param

__all__ = ["Strategy", "param", "index_of", "legal_mask"]


@njit(cache=True)
def index_of(legal, n, x):
    """The index of ``x`` (a card, a code, a level, a seat) in ``legal[:n]``, -1 if it is not there."""
    for i in range(n):
        if legal[i] == x:
            return i
    return -1


@njit(cache=True)
def legal_mask(legal, n):
    """The cards of ``legal[:n]`` (a list of card indices) as a mask."""
    m = 0
    for i in range(n):
        m |= 1 << legal[i]
    return m
