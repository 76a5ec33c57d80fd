"""Determinized Monte Carlo search, the parts every game's ``search`` strategy shares (issue 19).

Stateless arithmetic only; each game module writes its own ``determinize`` (what its seat
cannot see, dealt again consistently with everything public) and ``search_pick`` (the flat
search over its legal actions), built from these helpers.

The search strategy's parameter row (``sim.spec.search_strategy`` builds it):

| slot | meaning |
|---|---|
| SP_WORLDS | determinizations per decision |
| SP_ROLLOUTS | rollouts per determinization and legal action |
| SP_BUDGET | at most this many rollouts per decision (0 = no cap) |
| SP_POLICY | the sid of the built-in strategy every seat plays in the rollouts |
| SP_EXTRA .. SP_EXTRA+3 | game-specific parameters |
| SP_PRM .. | the policy's parameter row |

Randomness: a search draws one 64-bit key from the seat's play stream per decision; world
``w`` is dealt from the stream keyed by (key, w) and rollout ``r`` of world ``w`` plays from
the stream keyed by (key, w, r), the same for every legal action (common random numbers: the
actions are compared on the same deals and the same rollout luck).
"""
import numba
import numpy as np
from numba import types

from cardsim.kernels.jit import njit
from cardsim.kernels.rng import GOLDEN, below, mix64, next_u64

SP_WORLDS = 0
SP_ROLLOUTS = 1
SP_BUDGET = 2
SP_POLICY = 3
SP_EXTRA = 4
SP_PRM = 8

# The batch kernels of a game whose search picks among a list of legal actions (Tonk, Tripoli)
# call it through this type: (state, options, actions, their number, the search row, the play
# stream) -> the index chosen. The game's ``search_cfunc()`` (``jit.lazy_cfunc``) is compiled when
# a search seat plays; a table without one passes ``no_acts_search``.
ACTS_SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[::1], types.int64,
                              types.float64[::1], types.uint64[::1])


@numba.cfunc(ACTS_SEARCH_SIG, cache=True)
def no_acts_search(st, opts, acts, n, prm, gen):
    """The search argument of a table without a search seat (never called)."""
    return 0

@njit(cache=True)
def search_key(gen):
    """One key for a decision's search, from the seat's play stream ``gen``."""
    return next_u64(gen)


@njit(cache=True)
def seed_sub(g, key, a, b):
    """Key the generator ``g`` by (key, a, b) and reset its counter: the world and rollout
    streams of a decision's search."""
    k = mix64(key + np.uint64(a + 1) * GOLDEN)
    g[0] = mix64(k + np.uint64(b + 1) * np.uint64(0xD1B54A32D192ED03))
    g[1] = 0


@njit(cache=True)
def plan_budget(prm, n):
    """(worlds, rollouts) for a decision among ``n`` legal actions: the row's worlds, cut so
    that worlds x n x rollouts stays within the budget (at least one world)."""
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    budget = int(prm[SP_BUDGET])
    if budget > 0:
        worlds = max(1, min(worlds, budget // max(1, n * rollouts)))
    return worlds, rollouts


RACE_ROUND = 8      # worlds between two racing checks of a search (``race_policy``)


@njit(cache=True)
def paired_gain(total, dsq, m, i):
    """Mean and standard error of answer i's gain over the policy's answer (index 0) from ``m``
    paired samples: ``total`` the answers' sums, ``dsq[i]`` the sum of the squared differences."""
    d = (total[i] - total[0]) / m
    return d, np.sqrt(max(0.0, dsq[i] / m - d * d) / max(1, m - 1))


@njit(cache=True)
def race_policy(total, dsq, m, k, active, z, futility, m_end):
    """Racing for a search that keeps the policy's answer (index 0) unless another is better by
    ``z`` standard errors after ``m_end`` samples: ``total[i]`` the sum of answer i's ``m``
    samples, ``dsq[i]`` the sum of the squares of its paired differences to the policy's. An
    active answer i > 0 stops being played when its gain cannot plausibly reach that margin: its
    mean gain d over the policy's, with standard error se, is not above 0 by ``z`` se (d + z se
    <= 0), or, projected to ``m_end`` samples at the same mean and spread, its z-score
    d / se * sqrt(m_end / m) stays below ``futility`` * z (0: never). Returns the answers other than the
    policy's still active."""
    left = 0
    for i in range(1, k):
        if active[i]:
            d, se = paired_gain(total, dsq, m, i)
            if d + z * se <= 1e-12 or (futility > 0 and d < futility * z * se * np.sqrt(m / m_end)):
                active[i] = False
            else:
                left += 1
    return left


@njit(cache=True)
def shuffle_prefix(cards, m, gen):
    """Shuffle ``cards[:m]`` in place (Fisher-Yates with ``gen``)."""
    for i in range(m - 1, 0, -1):
        j = below(gen, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


@njit(cache=True)
def best_action(total, n):
    """Index of the largest of ``total[:n]`` (the first on ties: the legal order)."""
    best = 0
    for i in range(1, n):
        if total[i] > total[best]:
            best = i
    return best
