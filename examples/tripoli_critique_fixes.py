"""strong Tripoli with the fixes its critique's worst Michigan leads suggest (issue 41's "easy
gains" test).

    cardsim compare tripoli --strategy strong --strategy examples/tripoli_critique_fixes.py:fixes --field strong

What a player writes in an hour from ``cardsim critique tripoli --strategy strong`` (the worst
positions of results/critique/tripoli.md): Michigan is where strong loses most, and its worst
leads ignore what the table has shown. Holding 6C 9C AS QS with KS shown by a rival at the
showdown and 7C 8C shown by another, strong led clubs and lost the lead; QS (KS follows from
the rival, AS from itself: a stop) and then 6C (7C 8C from the rival, 9C its last card) went out
for sure. The fixes:

* ``look``: a run is followed through the cards known to be in other hands (shown in Phase 1 or
  at the showdown, not yet played): the lead sheds every own card on the way, and it is a sure
  stop for the seat when the last card before a dead one (played, known in the widow, or after
  an ace) is its own. strong counts only its own run from the lowest card.
* ``plan``: before scoring, look for leads (up to ``plan`` of them in a row, each a sure stop
  for the seat but the last) that surely empty the hand, and take the first.
* ``chance``: a run that ends below a card of unknown place is a stop with the chance that the
  card lies in the widow (its unseen cards over all unseen cards), not never: the stop bonus
  counts ``chance`` x that chance.

The lead score is strong's (suit length + run_weight x cards shed + stop_bonus x the chance of a
stop, with strong's tuned weights as the defaults). Everything but the Michigan leads is
``strong``'s. The first round of this plug-in (``plan`` and ``chance``, +0.041 ± 0.012 chips a deal
against the first tuned expert) became strong's own ``lead_plan`` and ``lead_chance``: with
``look=0`` it plays strong's leads exactly, and with every fix off the expert's without them
(tests/tripoli/test_tripoli_expert.py checks both). ``look`` lost and stays a plug-in fix.
The second round (the leads grouped by how each run ends) gave strong ``keep_entry`` (a stop another
seat's lead can reach is kept as a way back to the lead), ``own_low`` (a suit only the seat's own lead
can shed comes first) and ``feed_shown`` (no run that ends below a card another seat has shown); the
plug-in plays them too (``keep_entry``, ``own_low``, ``feed``, strong's values as defaults), so with
``look=0`` it is strong's leads exactly.
results/critique/easy_gains.md says what it gains against today's strong.
"""
import numba
import numpy as np

from cardsim import tripoli as T
from cardsim.plugin import Strategy, param

LOST, STOP, OUT, PASSED = 0, 1, 2, 3       # how a lead ends for the seat (see chain)


@numba.njit
def chain(hand, others, dead, s, look):
    """Lead suit ``s`` from ``hand``: (own cards shed as a mask, how it ends: STOP a sure stop
    by the seat, OUT its last card played, PASSED a sure stop by another seat, LOST unknown)."""
    c = T.lowest_in(hand, s)
    shed = np.int64(0)
    mine = True
    while True:
        bit = np.int64(1) << c
        if hand & bit:
            shed |= bit
            mine = True
            if shed == hand:
                return shed, OUT
        elif look > 0 and others & bit:
            mine = False
        else:
            return shed, LOST                  # an unknown holder (or the widow: unknown too)
        nc = T.next_card(c)
        if nc < 0 or (dead >> nc) & 1:
            return shed, STOP if mine else PASSED
        c = nc


@numba.njit
def sure_out(hand, others, dead, banned, depth, look):
    """A suit whose lead starts a run of at most ``depth`` leads that surely empties the hand
    (every lead but the last a sure stop for the seat), else -1."""
    for s in range(4):
        if s == banned or T.lowest_in(hand, s) < 0:
            continue
        shed, how = chain(hand, others, dead, s, look)
        if how == OUT:
            return s
        if how == STOP and depth > 1:
            rest = hand & ~shed
            gone = dead | shed
            # the next lead may not be the stopped suit
            if sure_out(rest, others, gone, s, depth - 1, look) >= 0:
                return s
    return -1


@numba.njit
def reachable(hand, dead, s):
    """1 if another seat's lead of suit s can run into the seat's lowest card of it (a lower card
    of the suit neither the seat's nor dead)."""
    c = T.lowest_in(hand, s)
    x = 13 * s + 1                             # the two
    while x != c:
        if not ((hand | dead) >> x) & 1:
            return 1
        x = T.next_card(x)
    return 0


@numba.njit
def open_end(hand, dead, s):
    """The card after the seat's own run from its lowest card of suit s when that card is neither
    dead nor past the ace (the run goes on in another hand or stops in the widow), else -1."""
    c = T.lowest_in(hand, s)
    nc = T.next_card(c)
    while nc >= 0 and (hand >> nc) & 1:
        nc = T.next_card(nc)
    return nc if nc >= 0 and not (dead >> nc) & 1 else -1


@numba.njit
def decide(view, legal, n, prm):            # asked only for Michigan leads (kinds below)
    look, plan = prm[0], prm[1]
    p = view[T.V_SEAT]
    hand = view[T.V_HAND]
    dead = view[T.V_PLAYED] | view[T.V_WIDOW]
    others = np.int64(0)
    for q in range(view[T.V_PLAYERS]):
        if q != p:
            others |= view[T.V_SHOWN + q]
    others &= ~view[T.V_PLAYED]
    if plan > 0:
        for i in range(n):
            s = T.suit(legal[i])
            shed, how = chain(hand, others, dead, s, look)
            if how == OUT:
                return i
            if how == STOP and plan > 1 and sure_out(hand & ~shed, others, dead | shed, s,
                                                     int(plan) - 1, look) >= 0:
                return i
    played = view[T.V_PLAYED]
    held = 0
    for q in range(view[T.V_PLAYERS]):
        held += view[T.V_HELD + q]
    widow_unseen = 52 - T.hand_count(played) - held - T.hand_count(view[T.V_WIDOW] & ~played)
    unseen = 52 - T.hand_count(played | hand | view[T.V_WIDOW] | others)
    in_widow = widow_unseen / unseen if unseen > 0 else 0.0
    best, bi = -1e300, 0
    for i in range(n):
        s = T.suit(legal[i])
        shed, how = chain(hand, others, dead, s, look)
        run = T.hand_count(shed)
        stop = 1.0 if how == STOP else (prm[4] * in_widow if how == LOST else 0.0)
        reach = reachable(hand, dead, s)
        if reach:
            stop *= 1.0 - prm[5]
        v = T.suit_count(hand, s) + prm[2] * run + prm[3] * stop
        if not reach:
            v += prm[6]
        nc = open_end(hand, dead, s)
        if nc >= 0 and (others >> nc) & 1:
            v -= prm[7]
        if v > best:
            best, bi = v, i
    return bi


fixes = Strategy("tripoli", decide, base="strong", kinds=[T.K_LEAD],
                 params=[param("look", 1, 0, 1, "1: a run goes on through cards known to be in other hands "
                                                "(shown, not played)", integer=True),
                         param("plan", 3, 0, 4, "leads looked ahead for a sure way out (0: none)", integer=True),
                         param("run_weight", 1.0, 0.0, 10.0, "lead score per own card the lead sheds (strong's)"),
                         param("stop_bonus", 3.861, 0.0, 20.0, "lead score bonus at a sure stop (strong's)"),
                         param("chance", 1.0, 0.0, 5.0, "weight of the chance that a run ending below an unseen card "
                                                        "stops in the widow (0: never, as strong)"),
                         param("keep_entry", 0.75, 0.0, 3.0, "a stop another seat's lead can reach is worth stop_bonus "
                                                             "x (1 - this) (strong's)"),
                         param("own_low", 3.0, 0.0, 10.0, "bonus for a suit no other seat's lead can reach (strong's)"),
                         param("feed", 0.5, 0.0, 10.0, "penalty for a run that ends open below a card another seat "
                                                       "has shown (strong's)")],
                 help="strong, but its Michigan leads follow runs through the cards shown in other hands, look "
                      "for a sure way out and count the chance of a stop in the widow (the critique's worst "
                      "positions, as a plug-in)")
