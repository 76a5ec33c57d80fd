"""strong Marafon with the fixes its critique's worst positions suggest (issue 41's "easy gains" test).

    cardsim compare marafon --strategy strong --strategy examples/marafon_critique_fixes.py:fixes --field strong

What a player writes in an hour from ``cardsim critique marafon --strategy strong`` (the worst
positions of results/critique/marafon.md), in three rounds:

Round 1, from the critique of the first tuned expert (both rules are now strong's ``clinch``
and ``plain_first``; at ``need=3, masters_first=0`` this plug-in plays as strong, whose
``plain_first`` 2 now leads the plain masters after its trump draws (round 3)):

* game point: the worst card plays were at 40-40 with the side's count at 120 or 121 of the
  123 thirds it needs: strong led a low card (6C, 4S) where a master (the trump 3, a plain
  3) takes the trick for sure and lets the side claim. Within ``need`` thirds of the target,
  lead a master (the trump master if held, else the plain master worth most), and when
  following, win with the cheapest sure winner (a master trump, or any winner in fourth hand).
* plain masters before trumps: in the same positions the best lead was a plain master (3C)
  rather than a low trump from length. With ``masters_first`` = 1, lead a plain master that
  counts (an ace, a 3, a 2 or a figure: the one worth most) before any other lead.

Round 2, from the critique of today's strong:

* conceding: its worst positions are claim windows of a side far behind in the game (10 to
  34), where the evaluation values a wrong claim, which loses the game at once, above playing
  on. Claim when the other side leads the game score by at least ``concede`` points.

Round 3, from the critique of the strong that round 2 measured (16,000 decisions grouped by
the card's place in the trick and what it did: lead, follow, ruff or discard, winning or not,
with points or without). Three patterns: strong led a plain card where a low trump was best
(holding two or three trumps but not the master trump), it kept the trump 3 or 2 in fourth
hand and threw an ace to the opponents' trick instead, and in second hand, void in the suit
led, it threw a scartino where throwing an ace that is not master (its suit's 3 or 2 unseen)
was best; and, read again from the strong that took the first two, it led a counting plain
master where drawing trumps first was best. The first two and the last are now strong's own
(``draw_low``, ``honour_count``, ``plain_first`` 2); the third is this plug-in's
``shed_ace``: in second hand, void in the suit led, throw a plain-suit ace that is not
master.

Everything else is ``strong``'s (``concede=0, shed_ace=0``: as strong).
results/critique/easy_gains.md says what each round gained against ``strong``.
"""
import numba
import numpy as np

from cardsim import marafon as M
from cardsim.plugin import Strategy, param

FULL40 = (np.int64(1) << 40) - 1


@numba.njit
def _masters(cards, unseen):
    """The cards of ``cards`` that no unseen card of their suit outranks."""
    out = np.int64(0)
    m = cards
    while m:
        card = M.popcount((m & -m) - 1)               # the lowest card's id
        if M.is_master(card, unseen):
            out |= np.int64(1) << card
        m &= m - 1
    return out


@numba.njit
def _game_point(view, hand, unseen, trump):
    masters = _masters(hand, unseen)
    if view[M.V_NCARDS] == 0:
        tm = masters & (np.int64(0x3FF) << (10 * trump))
        if tm:
            return M.richest(tm, trump)
        return M.richest(masters, trump) if masters else -1
    win = M.beating_cards(hand, M.winning_card(view), trump)
    sure = win if view[M.V_NCARDS] == 3 else win & masters & (np.int64(0x3FF) << (10 * trump))
    return M.cheapest(sure, trump) if sure else -1


@numba.njit
def _plain_master_lead(view, hand, unseen, trump):
    plain = _masters(hand, unseen) & ~(np.int64(0x3FF) << (10 * trump))
    best = M.richest(plain, trump) if plain else -1
    return best if best >= 0 and M.card_thirds(best) >= 1 else -1


@numba.njit
def _loose_ace(view, hand, unseen, trump):
    """Second hand, void in the suit led: a plain-suit ace that is not master, else -1."""
    led = view[M.V_LED]
    if view[M.V_NCARDS] != 1 or (view[M.V_HAND] >> (10 * led)) & 0x3FF:
        return -1
    for s in range(4):
        c = 10 * s + 7                                # the ace of suit s
        if s != trump and (hand >> c) & 1 and not M.is_master(c, unseen):
            return c
    return -1


@numba.njit
def decide(view, legal, n, prm):
    if view[M.V_KIND] == M.K_CLAIM:
        side = view[M.V_SIDE]
        behind = view[M.V_SCORE + 1 - side] - view[M.V_SCORE + side]
        return 1 if prm[2] > 0 and behind >= prm[2] else -1
    trump = view[M.V_TRUMP]
    hand = M.legal_mask(legal, n)
    unseen = FULL40 & ~view[M.V_PLAYED] & ~view[M.V_HAND]
    card = -1
    if prm[0] > 0 and view[M.V_COUNT + view[M.V_SIDE]] >= view[M.V_TARGET] - prm[0]:
        card = _game_point(view, hand, unseen, trump)
    if card < 0 and prm[1] > 0 and view[M.V_NCARDS] == 0:
        card = _plain_master_lead(view, hand, unseen, trump)
    if card < 0 and prm[3] > 0:
        card = _loose_ace(view, hand, unseen, trump)
    return -1 if card < 0 else M.index_of(legal, n, card)


fixes = Strategy("marafon", decide, base="strong", kinds=[M.K_CARD, M.K_CLAIM],
                 params=[param("need", 3, 0, 123, "at most this many thirds short of the target: play masters",
                               integer=True),
                         param("masters_first", 0, 0, 1, "1: lead a plain master that counts before any other lead, "
                                                         "trump draws included (strong's plain_first 1, before round 3); "
                                                         "0: as strong",
                               integer=True),
                         param("concede", 20, 0, 41, "claim (a wrong claim loses the game) when the other side "
                                                     "leads the game score by at least this (0: never)",
                               integer=True),
                         param("shed_ace", 1, 0, 1, "1: in second hand, void in the suit led, throw a plain-suit "
                                                    "ace that is not master", integer=True)],
                 help="strong, conceding a game far behind (round 2) and shedding an ace that is not master in "
                      "second hand (round 3), with round 1's masters at game point and plain masters first, now "
                      "strong's own (the critique's worst positions, as a plug-in)")
