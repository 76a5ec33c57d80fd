"""strong Trionfo with the fix its critique's worst positions suggest (issue 41's "easy gains" test).

    cardsim compare trionfo --strategy strong --strategy examples/trionfo_critique_fixes.py:fixes --field strong

What a player writes in an hour from ``cardsim critique trionfo --strategy strong`` (the worst
positions of results/critique/trionfo.md): most of strong's loss is the solo declarer's card
play (a solo pays 4 stakes a seat), and its worst leads were solo declarers holding the master
trump with one or two trumps still out (KD with QD the only trump unseen, 2H with QH 7H out)
who led a plain card and let a defender ruff it. The fix:

* a solo declarer on lead who holds the master trump while at most ``few`` trumps are unseen
  leads it (draws the last trumps before cashing the plain suits); ``few=0``: as strong.

Everything else is ``strong``'s. results/critique/trionfo.md says what it gained against strong.
"""
import numba
import numpy as np

from cardsim import trionfo as T
from cardsim.plugin import Strategy, param

FULL40 = (np.int64(1) << 40) - 1


@numba.njit
def decide(view, legal, n, prm):
    p = view[T.V_SEAT]
    solo = view[T.V_HIGH_LEVEL] > view[T.V_PARTNER_LEVELS]
    if view[T.V_NCARDS] != 0 or not solo or view[T.V_DECLARER] != p or prm[0] <= 0:
        return -1
    trump = view[T.V_TRUMP]
    tmask = np.int64(0x3FF) << (10 * trump)
    hand = view[T.V_HAND]
    unseen = FULL40 & ~view[T.V_PLAYED] & ~hand
    out = T.popcount(unseen & tmask)
    mine = hand & tmask
    if out == 0 or out > prm[0] or mine == 0:
        return -1
    top = 39
    while not (mine >> top) & 1:                   # the highest trump held
        top -= 1
    if not T.is_master(top, unseen):
        return -1
    return T.index_of(legal, n, top)


fixes = Strategy("trionfo", decide, base="strong", kinds=[T.K_CARD],
                 params=[param("few", 2, 0, 10, "a solo declarer leads the master trump while at most this many "
                                                "trumps are unseen (0: as strong)", integer=True)],
                 help="strong, but a solo declarer draws the last trumps with the master trump (the critique's "
                      "worst positions, as a plug-in)")
