"""strong Tonk with the fixes its critique's worst positions suggest (issue 41's "easy gains" test).

    cardsim compare tonk --players 2 --strategy strong --strategy examples/tonk_critique_fixes.py:fixes --field strong

What a player writes in an hour from ``cardsim critique tonk --strategy strong`` (the worst
positions of results/critique/tonk.md, the critique of the tuned expert):

* short knocks: the worst turn starts are knocks refused with two cards at a count of 7 or 8
  while the opponent, who has laid a book, holds two cards as well. Knock there when both
  hands hold at most two cards and the hand counts at most ``short`` points.
* early knocks: a knock refused at 23 points in round 4 while the opponent still holds five
  cards. Knock when the hand counts at most ``early`` points in the first ``rounds`` rounds
  while every opponent holds five cards.
* high pairs early: a discard that keeps a pair of kings at 32 points in round 0. Break a
  pair of ten-counts (discard one of its cards) in round 0 when the hand counts at least
  ``pair_count`` points.

Everything else is ``strong``'s. ``short=0``, ``early=0`` and ``pair_count=99`` play exactly as
strong. results/critique/easy_gains.md says what it gained against ``strong``, each fix alone
and all together.
"""
import numba

from cardsim import tonk as T
from cardsim.plugin import Strategy, param


@numba.njit
def _fewest_held(view):
    fewest = 99
    for q in range(view[T.V_PLAYERS]):
        if q != view[T.V_SEAT]:
            fewest = min(fewest, view[T.V_HELD + q])
    return fewest


@numba.njit
def _rank_count(hand, r):
    k = 0
    for s in range(4):
        k += (hand >> (13 * s + r)) & 1
    return k


@numba.njit
def _knock(view, legal, n):
    for i in range(n):
        if T.kind(legal[i]) == T.A_KNOCK:
            return i
    return -1


@numba.njit
def _fix_knock(view, legal, n, prm):
    if view[T.V_STOCK] == 0:
        return -1
    count = T.hand_count(view[T.V_HAND])
    fewest = _fewest_held(view)
    mine = view[T.V_HELD + view[T.V_SEAT]]
    if mine <= 2 and fewest <= 2 and count <= prm[0]:
        return _knock(view, legal, n)
    rnd = (view[T.V_TURNS] - 1) // view[T.V_PLAYERS]
    if fewest >= 5 and rnd <= prm[2] and count <= prm[1]:
        return _knock(view, legal, n)
    return -1


@numba.njit
def _break_high_pair(view, legal, n, prm):
    hand = view[T.V_HAND]
    if view[T.V_TURNS] > view[T.V_PLAYERS] or T.hand_count(hand) < prm[3]:
        return -1
    best, bi = -1, -1
    for i in range(n):
        if T.kind(legal[i]) != T.A_DISCARD:
            continue
        c = T.card(legal[i])
        r = c % 13
        if r >= 9 and _rank_count(hand, r) == 2 and c > best:   # a ten-count in a pair
            best, bi = c, i
    return bi


@numba.njit
def decide(view, legal, n, prm):
    if view[T.V_KIND] == T.K_START:
        return _fix_knock(view, legal, n, prm)
    return _break_high_pair(view, legal, n, prm)


fixes = Strategy("tonk", decide, base="strong", kinds=[T.K_START, T.K_MELD],
                 params=[param("short", 8, 0, 50, "knock at this count or below when both hands hold two cards or fewer"),
                         param("early", 23, 0, 50, "knock in the first rounds at this count or below while "
                                                   "every opponent holds five cards"),
                         param("rounds", 4, 0, 20, "the first rounds: at most this many rounds played", integer=True),
                         param("pair_count", 30, 0, 99, "break a pair of ten-counts in round 0 at this count or above")],
                 help="strong, with short-hand knocks, an early knock at a middling count and high pairs broken in round 0 "
                      "(the critique's worst positions, as a plug-in)")
