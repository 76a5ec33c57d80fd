"""strong Tonk with the fix the inference critique's worst positions suggest (issue 41).

    cardsim compare tonk --players 2 --strategy strong --strategy examples/tonk_infer_fixes.py:take_spread --field strong

What a player writes from ``cardsim critique tonk --strategy strong --infer 16`` (worlds weighed by
the rivals' play; results/critique/tonk_infer.md): half of its turn-start blunders are knocks at
about 20 points where the discard pile's top card makes a book or run with the hand (take it,
lay the spread, and knock later with a few points; the worst: 22 points, 9D on the pile, 7D 8D in
hand). The other half are knocks refused at 23-27 points in the first rounds, which an earlier
plug-in (``tonk_critique_fixes.py``, ``early``) already showed to lose as a rule.

The fix: at a turn start, take the top discard whenever it makes a book or run with at least two
cards of the hand and the hand counts at least ``from_count`` points (below it strong's own
choice stands). Everything else is ``strong``'s; ``from_count=99`` plays exactly as strong.
"""
import numba

from cardsim import tonk as T
from cardsim.plugin import Strategy, param


@numba.njit
def _makes_spread(hand, c):
    """Whether card ``c`` makes a book (two more of its rank) or a run (two neighbours of its
    suit in a row with it) with ``hand``."""
    r, s = c % 13, c // 13
    same = 0
    for t in range(4):
        if t != s:
            same += (hand >> (13 * t + r)) & 1
    if same >= 2:
        return True
    run = 1
    k = r - 1
    while k >= 0 and (hand >> (13 * s + k)) & 1:
        run += 1
        k -= 1
    k = r + 1
    while k < 13 and (hand >> (13 * s + k)) & 1:
        run += 1
        k += 1
    return run >= 3


@numba.njit
def decide(view, legal, n, prm):
    if view[T.V_KIND] != T.K_START or view[T.V_TOP] < 0:
        return -1
    hand = view[T.V_HAND]
    if T.hand_count(hand) < prm[0] or not _makes_spread(hand, view[T.V_TOP]):
        return -1
    for i in range(n):
        if T.kind(legal[i]) == T.A_DRAW_DISCARD:
            return i
    return -1


take_spread = Strategy("tonk", decide, base="strong", kinds=[T.K_START],
                       params=[param("from_count", 15, 0, 99, "take a top discard that makes a spread with the hand "
                                                              "at this count or above (99: never)")],
                       help="strong, but takes the top discard whenever it makes a book or run with the hand "
                            "(the inference critique's worst turn starts, as a plug-in)")
