"""Card encoding, bitmask hands and point tables shared by every game.

Card ids (single 52-card deck): ``card = suit * 13 + rank`` with
rank 0 = A, 1 = 2, ..., 9 = 10, 10 = J, 11 = Q, 12 = K and suits
0 = C (clubs), 1 = D (diamonds), 2 = H (hearts), 3 = S (spades).
A hand is a bitmask with bit ``card`` set (52 bits; held in int64 or uint64).

Double-deck holdings (for the rummy games): two planes ``p1`` (at least one copy)
and ``p2`` (both copies) of 52-bit masks plus a joker count; see ``dd_*`` helpers.
Joker id is ``JOKER = 52`` in card arrays.

Notation (``7C 10H QS JK``) lives in ``sim/notation.py``; the tables it needs are
``RANK_NAMES`` and ``SUIT_NAMES`` here.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from cardsim.kernels.jit import njit

N_RANKS = 13
N_SUITS = 4
N_CARDS = 52
JOKER = 52
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES = ("C", "D", "H", "S")

FULL_DECK = (1 << 52) - 1                 # mask of all 52 cards
SUIT_PLANE = (1 << 13) - 1                # the 13 ranks of one suit (suit 0 position)
ACES = 1 | (1 << 13) | (1 << 26) | (1 << 39)      # rank-0 card of every suit
KINGS = ACES << 12                        # rank-12 card of every suit

# Tonk-style point values by rank: A = 1, 2..10 face value, J Q K = 10.
POINTS_TEN_CAP = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], dtype=np.int64)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits (LLVM ctpop: one instruction on current CPUs)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@intrinsic
def lowbit(typingctx, x):
    """Index of the lowest set bit (undefined for 0; LLVM cttz)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return x(x), codegen


@njit(cache=True)
def rank_of(card):
    return card % 13


@njit(cache=True)
def suit_of(card):
    return card // 13


@njit(cache=True)
def bit(card):
    return np.int64(1) << card


@njit(cache=True)
def rank_mask(rank):
    """Mask of the four cards of one rank."""
    return np.int64(ACES) << rank


@njit(cache=True)
def suit_mask(suit):
    """Mask of the thirteen cards of one suit."""
    return np.int64(SUIT_PLANE) << (13 * suit)


@njit(cache=True)
def nth_card(mask, k):
    """The k-th lowest card id in ``mask`` (0-based)."""
    m = mask
    for _ in range(k):
        m &= m - 1
    return lowbit(m)


@njit(cache=True)
def mask_points(mask, table):
    """Sum of ``table[rank]`` over the cards in ``mask``."""
    total = 0
    m = mask
    while m:
        total += table[lowbit(m) % 13]
        m &= m - 1
    return total


@njit(cache=True)
def ranks_present(mask):
    """13-bit mask of ranks with at least one card in ``mask``."""
    return (mask | (mask >> 13) | (mask >> 26) | (mask >> 39)) & SUIT_PLANE


@njit(cache=True)
def run_neighbours(mask):
    """Cards one rank above or below a card of ``mask`` in the same suit (ace low, no wrap)."""
    up = (mask & ~np.int64(KINGS)) << 1
    down = (mask & ~np.int64(ACES)) >> 1
    return (up | down) & FULL_DECK


# ---- double-deck holdings (two copies of each card + jokers) --------------------
@njit(cache=True)
def dd_add(p1, p2, card):
    """Add one copy of ``card`` to planes (p1, p2); returns the new planes."""
    b = np.int64(1) << card
    if p1 & b:
        return p1, p2 | b
    return p1 | b, p2


@njit(cache=True)
def dd_remove(p1, p2, card):
    """Remove one copy of ``card`` (which must be present); returns the new planes."""
    b = np.int64(1) << card
    if p2 & b:
        return p1, p2 & ~b
    return p1 & ~b, p2


@njit(cache=True)
def dd_size(p1, p2, jokers):
    """Number of cards in a double-deck holding."""
    return popcount(p1) + popcount(p2) + jokers
