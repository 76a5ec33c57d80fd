"""strong Contract Rummy with the fix its critique's worst discards suggest (issue 41's "easy
gains" test).

    cardsim compare contract_rummy --strategy strong --strategy examples/contract_rummy_critique_fixes.py:fixes --field strong

What a player writes in an hour from ``cardsim critique contract_rummy --strategy strong`` (the
worst positions of results/critique/contract_rummy.md): the discards lose most, and the costliest
are made while a rival who has melded holds few cards. strong (cautious) sheds its highest cards
only while it is still ``far`` (3) cards or more short of its contract; nearer, it keeps its
aces and faces and is caught with them. The fix:

* ``panic``: once a seat that has melded holds at most this many cards, discard the card with
  the most penalty points (aces and jokers 15, faces 10, the rest face value: the default
  points) whatever this seat still needs; jokers are kept (the contract takes them).

Everything else is ``strong``'s. At ``panic=2`` this fix gained +1.78 ± 0.52 points a game
against the first tuned expert (8,000 games, seed 41) and became strong's own ``shed_at``, tuned
to 1 (+4.07 ± 0.32 against the expert without it): with ``panic`` 0 or 1 it plays today's strong
exactly (tests/contract_rummy/test_contract_rummy_expert.py). results/critique/easy_gains.md says what it gains
against today's strong.
"""
import numba

from cardsim import contract_rummy as C
from cardsim.plugin import Strategy, param


@numba.njit
def points(c):
    """A natural card's penalty points under the default rules."""
    r = c % 13
    if r == 0:
        return 15
    return 10 if r >= 9 else r + 1


@numba.njit
def decide(view, legal, n, prm):
    me = view[C.V_SEAT]
    if view[C.V_DOWN + me] or view[C.V_INFO] == 1:       # down (strong sheds already) or out of turn
        return -1
    near_out = False
    for q in range(view[C.V_PLAYERS]):
        if q != me and view[C.V_DOWN + q] and view[C.V_HELD + q] <= prm[0]:
            near_out = True
    if not near_out:
        return -1
    best, most = -1, -1
    for i in range(n):
        c = legal[i]
        if c != 52 and points(c) > most:
            best, most = i, points(c)
    return best


fixes = Strategy("contract_rummy", decide, base="strong", kinds=[C.K_DISCARD],
                 params=[param("panic", 1, 0, 20, "shed the costliest card once a seat that has melded holds at most "
                               "this many cards, however near this seat is to its contract (0: never, strong's play)",
                               integer=True)],
                 help="strong, shedding its costliest card whenever a seat that has melded is about to go out")
