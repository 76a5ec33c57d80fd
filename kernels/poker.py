"""Poker hand evaluation: 5-card hands and the best 5 cards of a larger holding.

Stateless arithmetic shared by the games (Tripoli's poker phase and clearing rounds).

Strength: every 5-card hand maps to one of the 7,462 equivalence classes of standard high
poker (no wild cards, suits never break ties, the wheel A-2-3-4-5 is the lowest straight),
numbered densely ``0`` (7-5-4-3-2 offsuit, the worst) .. ``7461`` (a royal flush). Higher is
better; equal strength = a tie. ``category(s)`` gives the category ``C_HIGH`` .. ``C_STRAIGHT_FLUSH``
(0..8, the reverse of the ranking table of ``docs/rules/tripoli.md`` section 11).

Method (no hashing, no 7-card tables): the four suit planes of the card mask are turned
into "at least 1/2/3/4 of a rank" rank masks by bit-parallel AND/OR; the category follows
from those masks, and the class number inside the category is arithmetic on ranks plus
three 8,192-entry tables indexed by a 13-bit rank mask: ``COLEX`` (rank of a k-subset in
co-lexicographic order, which is exactly "compare the highest rank first"), ``UNIQUE``
(high-card / straight classes) and ``FLUSH`` (flush / straight-flush classes).
``best5`` uses the same masks on any holding (5..52 cards) and returns the strength and
one 5-card mask that reaches it, without enumerating subsets.

Rank index inside this module: ``ah = 0`` for a deuce .. ``12`` for an ace ("ace high");
card ids follow ``kernels.cards`` (suit * 13 + rank, rank 0 = ace).
"""
import numpy as np
from numba import prange

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit

N_CLASSES = 7462
C_HIGH, C_PAIR, C_TWO_PAIR, C_TRIPS, C_STRAIGHT, C_FLUSH, C_FULL_HOUSE, C_QUADS, C_STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")
# first class of each category (category c = classes BASE[c] .. BASE[c+1]-1)
BASE = np.array([0, 1277, 4137, 4995, 5853, 5863, 7140, 7296, 7452, 7462], dtype=np.int64)
B_PAIR, B_TWO_PAIR, B_TRIPS, B_STRAIGHT = 1277, 4137, 4995, 5853
B_FLUSH, B_FULL_HOUSE, B_QUADS, B_SF = 5863, 7140, 7296, 7452
WHEEL = (1 << 12) | 0b1111            # A 2 3 4 5 in ace-high rank bits
LOW13 = (1 << 13) - 1


def _build_tables():
    from math import comb
    colex = np.zeros(1 << 13, dtype=np.int32)
    for m in range(1 << 13):
        bits = [i for i in range(13) if m >> i & 1]
        colex[m] = sum(comb(b, k + 1) for k, b in enumerate(bits))
    straights = [WHEEL] + [0b11111 << i for i in range(9)]      # low to high
    fives = sorted((m for m in range(1 << 13) if bin(m).count("1") == 5), key=lambda m: colex[m])
    unique = np.full(1 << 13, -1, dtype=np.int32)
    flush = np.full(1 << 13, -1, dtype=np.int32)
    k = 0
    for m in fives:
        if m in straights:
            continue
        unique[m] = k
        flush[m] = B_FLUSH + k
        k += 1
    assert k == 1277
    for i, m in enumerate(straights):
        unique[m] = B_STRAIGHT + i
        flush[m] = B_SF + i
    return colex, unique, flush


COLEX, UNIQUE, FLUSH = _build_tables()


# =============================================================================
# rank-mask helpers
# =============================================================================
@njit(cache=True, inline='always')
def ace_high(plane):
    """A 13-bit suit plane (bit 0 = ace) -> ace-high rank bits (bit 12 = ace)."""
    return (plane >> 1) | ((plane & 1) << 12)


@njit(cache=True, inline='always')
def planes(mask):
    m = np.int64(mask)
    return (ace_high(m & LOW13), ace_high((m >> 13) & LOW13), ace_high((m >> 26) & LOW13),
            ace_high((m >> 39) & LOW13))


@njit(cache=True, inline='always')
def squeeze(m, r):
    """Remove bit r from rank mask m, closing the gap (12 ranks left)."""
    return (m & ((1 << r) - 1)) | ((m >> (r + 1)) << r)


@njit(cache=True, inline='always')
def top_bit(m):
    """Index of the highest set bit of a nonzero rank mask."""
    r = 12
    while not (m >> r) & 1:
        r -= 1
    return r


@njit(cache=True, inline='always')
def keep_top(m, k):
    """The k highest set bits of m (m has at least k)."""
    while popcount(m) > k:
        m &= m - 1
    return m


@njit(cache=True, inline='always')
def straight_top(m):
    """Index 0..9 of the highest straight in rank mask m (0 = wheel), or -1."""
    s = m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)
    if s:
        return top_bit(s) + 1
    if (m & WHEEL) == WHEEL:
        return 0
    return -1


# =============================================================================
# five-card hands
# =============================================================================
@njit(cache=True, inline='always')
def paired_class(n1, n2, n3, n4):
    """Class of a 5-card hand with at least one repeated rank (from the multiplicity masks)."""
    if n4:
        q = lowbit(n4)
        k = lowbit(n1 ^ n4)
        return B_QUADS + 12 * q + k - (k > q)
    if n3:
        t = lowbit(n3)
        if n2 != n3:
            p = lowbit(n2 ^ n3)
            return B_FULL_HOUSE + 12 * t + p - (p > t)
        return B_TRIPS + 66 * t + COLEX[squeeze(n1 ^ n3, t)]
    if popcount(n2) == 2:
        kick = lowbit(n1 ^ n2)
        kick -= popcount(n2 & ((1 << kick) - 1))
        return B_TWO_PAIR + 11 * COLEX[n2] + kick
    p = lowbit(n2)
    return B_PAIR + 220 * p + COLEX[squeeze(n1 ^ n2, p)]


@njit(cache=True, inline='always')
def eval5(mask):
    """Strength class 0..7461 of a 5-card hand given as a 52-bit card mask."""
    a, b, c, d = planes(mask)
    n1 = a | b | c | d
    if popcount(n1) == 5:
        if n1 == a or n1 == b or n1 == c or n1 == d:
            return np.int64(FLUSH[n1])
        return np.int64(UNIQUE[n1])
    ab = a & b
    cd = c & d
    aob = a | b
    cod = c | d
    n2 = ab | cd | (aob & cod)
    n3 = (ab & cod) | (cd & aob)
    n4 = ab & cd
    return np.int64(paired_class(n1, n2, n3, n4))


@njit(cache=True, inline='always')
def eval5_cards(c0, c1, c2, c3, c4):
    one = np.int64(1)
    return eval5((one << np.int64(c0)) | (one << np.int64(c1)) | (one << np.int64(c2)) | (one << np.int64(c3))
                 | (one << np.int64(c4)))


@njit(cache=True, inline='always')
def category(s):
    """Category C_* (0 high card .. 8 straight flush) of a strength class."""
    c = 0
    while s >= BASE[c + 1]:
        c += 1
    return c


# =============================================================================
# best five cards of a larger holding
# =============================================================================
@njit(cache=True, inline='always')
def cards_of_ranks(mask, ranks, per_rank):
    """Up to ``per_rank`` cards of ``mask`` for each ace-high rank bit of ``ranks``."""
    out = np.int64(0)
    while ranks:
        r = lowbit(ranks)
        ranks &= ranks - 1
        m = mask & (np.int64(0x8004002001) << ((r + 1) % 13))
        for _ in range(per_rank):
            if m:
                out |= m & -m
                m &= m - 1
    return out


@njit(cache=True)
def best_flush(mask, a, b, c, d):
    """(class, cards) of the best flush or straight flush in the holding, or (-1, 0)."""
    best = np.int64(-1)
    cards = np.int64(0)
    pl = (a, b, c, d)
    for s in range(4):
        p = pl[s]
        if popcount(p) < 5:
            continue
        st = straight_top(p)
        if st >= 0:
            run = WHEEL if st == 0 else (0b11111 << (st - 1))
            v = np.int64(B_SF + st)
        else:
            run = keep_top(p, 5)
            v = np.int64(FLUSH[run])
        if v > best:
            best = v
            cards = cards_of_ranks(mask & (np.int64(LOW13) << (13 * s)), run, 1)
    return best, cards


@njit(cache=True)
def best_paired(mask, n1, n2, n3, n4):
    """(class, cards) of the best quads / full house / trips / two pair / pair / high card."""
    if n4:
        q = top_bit(n4)
        k = top_bit(n1 & ~(1 << q))
        cards = cards_of_ranks(mask, 1 << q, 4) | cards_of_ranks(mask, 1 << k, 1)
        return np.int64(B_QUADS + 12 * q + k - (k > q)), cards
    if n3:
        t = top_bit(n3)
        rest = n2 & ~(1 << t)
        if rest:
            p = top_bit(rest)
            return (np.int64(B_FULL_HOUSE + 12 * t + p - (p > t)),
                    cards_of_ranks(mask, 1 << t, 3) | cards_of_ranks(mask, 1 << p, 2))
        kick = keep_top(n1 & ~(1 << t), 2)
        return (np.int64(B_TRIPS + 66 * t + COLEX[squeeze(kick, t)]),
                cards_of_ranks(mask, 1 << t, 3) | cards_of_ranks(mask, kick, 1))
    return best_pairs(mask, n1, n2)


@njit(cache=True)
def best_pairs(mask, n1, n2):
    if popcount(n2) >= 2:
        pr = keep_top(n2, 2)
        k = top_bit(n1 & ~pr)
        idx = k - popcount(pr & ((1 << k) - 1))
        cards = cards_of_ranks(mask, pr, 2) | cards_of_ranks(mask, 1 << k, 1)
        return np.int64(B_TWO_PAIR + 11 * COLEX[pr] + idx), cards
    if n2:
        p = lowbit(n2)
        kick = keep_top(n1 & ~(1 << p), 3)
        return (np.int64(B_PAIR + 220 * p + COLEX[squeeze(kick, p)]),
                cards_of_ranks(mask, 1 << p, 2) | cards_of_ranks(mask, kick, 1))
    top = keep_top(n1, 5)
    return np.int64(UNIQUE[top]), cards_of_ranks(mask, top, 1)


@njit(cache=True)
def best5(mask):
    """(strength class, 5-card mask reaching it) of the best 5 cards of a holding of >= 5."""
    a, b, c, d = planes(mask)
    n1 = a | b | c | d
    ab = a & b
    cd = c & d
    aob = a | b
    cod = c | d
    n2 = ab | cd | (aob & cod)
    n3 = (ab & cod) | (cd & aob)
    n4 = ab & cd
    fv, fc = best_flush(mask, a, b, c, d)
    if fv >= B_SF:
        return fv, fc
    if n4 or (n3 and popcount(n2) >= 2):
        return best_paired(mask, n1, n2, n3, n4)
    if fv >= 0:
        return fv, fc
    st = straight_top(n1)
    if st >= 0:
        run = WHEEL if st == 0 else (0b11111 << (st - 1))
        return np.int64(B_STRAIGHT + st), cards_of_ranks(mask, run, 1)
    return best_paired(mask, n1, n2, n3, n4)


# =============================================================================
# vectorised entry points
# =============================================================================
@njit(cache=True, parallel=True)
def _eval_cards_batch(cards, out):
    for i in prange(cards.shape[0]):
        out[i] = eval5_cards(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@njit(cache=True)
def _eval_cards_serial(cards, out):
    for i in range(cards.shape[0]):
        out[i] = eval5_cards(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@njit(cache=True, parallel=True)
def _eval_masks_batch(masks, out):
    for i in prange(masks.shape[0]):
        out[i] = eval5(masks[i])


@njit(cache=True, parallel=True)
def _best5_batch(masks, out, chosen):
    for i in prange(masks.shape[0]):
        out[i], chosen[i] = best5(masks[i])


def evaluate(cards, parallel: bool = True) -> np.ndarray:
    """Strength classes (int16, 0..7461, higher is better) of an (N, 5) array of card ids
    (any integer dtype; int8 / uint8 reads least memory)."""
    cards = np.ascontiguousarray(cards)
    if cards.dtype not in (np.int8, np.uint8, np.int16, np.int32, np.int64):
        cards = cards.astype(np.int64)
    if cards.ndim != 2 or cards.shape[1] != 5:
        raise ValueError(f"evaluate wants an (N, 5) array of card ids, got shape {cards.shape}")
    out = np.empty(len(cards), dtype=np.int16)
    (_eval_cards_batch if parallel else _eval_cards_serial)(cards, out)
    return out


def evaluate_masks(masks) -> np.ndarray:
    """Strength classes of 5-card hands given as 52-bit card masks (int64 array)."""
    masks = np.ascontiguousarray(masks, dtype=np.int64)
    out = np.empty(len(masks), dtype=np.int16)
    _eval_masks_batch(masks, out)
    return out


def best_of(masks) -> tuple[np.ndarray, np.ndarray]:
    """(strength, chosen 5-card mask) of the best 5 cards of each holding (int64 masks)."""
    masks = np.ascontiguousarray(masks, dtype=np.int64)
    out = np.empty(len(masks), dtype=np.int16)
    chosen = np.empty(len(masks), dtype=np.int64)
    _best5_batch(masks, out, chosen)
    return out, chosen


def categories(strength) -> np.ndarray:
    """Category 0..8 (C_*) of each strength class (vectorised)."""
    return (np.searchsorted(BASE, np.asarray(strength), side="right") - 1).astype(np.int8)
