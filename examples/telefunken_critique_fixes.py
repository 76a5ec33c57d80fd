"""strong Telefunken with the fix its critique's worst discards suggest (issue 41's "easy gains"
test).

    cardsim compare telefunken --strategy strong --strategy examples/telefunken_critique_fixes.py:fixes --field strong

What a player writes in an hour from ``cardsim critique telefunken --strategy strong`` (the worst
positions of results/critique/telefunken.md): the costliest discards are made while a seat that
is down holds one or two cards and will go out any turn. Holding 2C 4C 6C 9C 10C JC QC 8D JD QH
JS JS JK JK in Hand 4 (two groups of four: one card from going down) with a rival down to one
card, strong kept its jokers and threw 8D; the evaluation preferred throwing a joker (15 points)
by 44 points. strong sheds points only when it is far from its contract (three cards or more,
its ``dump_need``); the fix:

* ``panic``: once a seat that is down holds at most this many cards, discard the card with the
  most penalty points whatever this seat still needs (jokers 15, aces 11, faces 10, the rest
  their rank: the default rules' points; wild twos are not modelled).

Everything else is ``strong``'s; with ``panic=0`` it plays strong exactly (tests/telefunken/test_telefunken_expert.py).
results/critique/easy_gains.md says what it gains against today's strong.
"""
import numba

from cardsim import telefunken as T
from cardsim.plugin import Strategy, param


@numba.njit
def points(c):
    """A card's penalty points under the default rules."""
    if c == T.JK:
        return 15
    r = c % 13
    if r == 0:
        return 11
    return 10 if r >= 9 else r + 1


@numba.njit
def decide(view, legal, n, prm):
    me = view[T.V_SEAT]
    if view[T.V_AT_ONCE] or view[T.V_DOWN + me]:
        return -1
    near_out = False
    for q in range(view[T.V_PLAYERS]):
        if q != me and view[T.V_DOWN + q] and view[T.V_HELD + q] <= prm[0]:
            near_out = True
    if not near_out:
        return -1
    best, most = -1, -1
    for i in range(n):
        if T.kind(legal[i]) == T.A_DISCARD and points(T.card(legal[i])) > most:
            best, most = i, points(T.card(legal[i]))
    return best


fixes = Strategy("telefunken", decide, base="strong", kinds=[T.K_DISCARD],
                 params=[param("panic", 1, 0, 10, "shed the costliest card once a seat that is down holds at most this "
                               "many cards, however near this seat is to its contract (0: never, strong's play)",
                               integer=True)],
                 help="strong, shedding its costliest card whenever a seat that is down is about to go out")
