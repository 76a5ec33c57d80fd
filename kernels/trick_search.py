"""Search and critique parts the 40-card trick games share (issue 42), stateless.

``kernels.search`` and ``kernels.critique`` hold what every game's search and critique share;
this module holds what the trick games built on ``kernels.tricks`` (Marafon, Trionfo) had each
written alike on top of them:

* the deal of the cards a searching seat cannot see (its game's ``determinize``) that respects
  the suits each seat has shown void in: ``place`` draws a card's seat in proportion to its open
  places among those that may take the suit and leave the rest dealable (``deal_feasible``,
  Hall's condition); without voids that is a uniform deal;
* the critique's action codes, ``kind << ACT_SHIFT | action`` (``act_code``, ``mask_acts``), and
  its driver's answer ``HALT``.

A game passes the arrays it reads (slices of its scratch buffer) and its seats' masks; nothing
here reads a game's state.
"""
import numpy as np

from cardsim.kernels.cards import lowbit
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below

ACT_SHIFT = 6      # a critique action code (issue 40): kind << ACT_SHIFT | the legal action
ACT_MASK = (1 << ACT_SHIFT) - 1
HALT = -3          # a critique driver's answer: stopped before the decision ``stop``


# =============================================================================
# the deal of the unseen cards (a game's ``determinize``)
# =============================================================================
@njit(cache=True)
def deal_feasible(rem, left, elig):
    """Whether the cards still to deal (``rem[s]``: of suit s) fit the seats' open places
    (``left[j]``, seat j of ``len(left)``) where ``elig[s]`` (a mask of those seats) may take
    suit s: Hall's condition, for every set T of seats, the cards only seats of T may take are
    at most T's places."""
    n = len(left)
    for t in range(1 << n):
        cap = 0
        for j in range(n):
            if (t >> j) & 1:
                cap += left[j]
        dem = 0
        for s in range(4):
            if elig[s] & ~t == 0:
                dem += rem[s]
        if dem > cap:
            return False
    return True


@njit(cache=True)
def place(c, seats, left, rem, elig, gen):
    """A seat for card ``c`` among the mask ``seats``, drawn from ``gen`` in proportion to its open
    places (``left``, one taken) among those that leave the rest dealable (``deal_feasible`` with
    ``rem``, the cards still to deal after ``c``, and ``elig``); -1 if none does (inconsistent
    constraints: the caller chooses)."""
    n = len(left)
    skip = 0
    while True:
        tot = 0
        for j in range(n):
            if (seats >> j) & 1 and not (skip >> j) & 1:
                tot += left[j]
        if tot == 0:
            return -1
        x = below(gen, tot)
        j = 0
        for jj in range(n):
            w = left[jj] if (seats >> jj) & 1 and not (skip >> jj) & 1 else 0
            if x < w:
                j = jj
                break
            x -= w
        left[j] -= 1
        if deal_feasible(rem, left, elig):
            return j
        left[j] += 1
        skip |= 1 << j


# =============================================================================
# critique action codes
# =============================================================================
@njit(cache=True, inline='always')
def act_code(kind, v):
    """The critique's action code of the legal action ``v`` (a suit, a call, a card, a seat) of
    decision ``kind`` (the game's K_*)."""
    return (np.int64(kind) << ACT_SHIFT) | v


@njit(cache=True)
def decision_kind(code):
    """The decision kind (the game's K_*) of a critique action code: decisions that see the same
    state (a claim window and the card after it, the declarer's trump and his call) are told apart
    by their codes."""
    return code >> ACT_SHIFT


@njit(cache=True, inline='always')
def mask_acts(kind, mask, v, acts):
    """The codes of the actions of the mask ``mask`` (cards, lowest first) into ``acts``; returns
    (their number, the index of ``v``)."""
    n, i = 0, 0
    while mask:
        c = lowbit(mask)
        if c == v:
            i = n
        acts[n] = act_code(kind, c)
        n += 1
        mask &= mask - 1
    return n, i
