"""Contract odds: how often K cards drawn at random from a pack hold a contract.

Telefunken: ``contract_hits`` (the 108-card double deck, ``kernels.melds``). Contract Rummy:
``float_contract_hits`` (any pack given as card ids, floating jokers, ``kernels.melds_float``).

The deck is 108 cards: ids 0..103 are the two copies of the 52 naturals (``id % 52``) and
104..107 the four jokers. Sample ``s`` of a run draws its K cards by a partial Fisher-Yates
shuffle keyed by (seed, s), so results do not depend on the number of threads.
"""
import numpy as np
from numba import prange

from cardsim.kernels.cards import dd_add
from cardsim.kernels.jit import njit
from cardsim.kernels.melds import M_SIZE, MAX_CONTRACT_MELDS, find_contract
from cardsim.kernels.melds_float import HOLD, MAX_CM, solve_contract
from cardsim.kernels.rng import STREAM_DECK, below, seed_stream

DOUBLE_DECK = 108
NATURAL_IDS = 104
CHUNK = 1024


@njit(cache=True)
def draw_holding(gen, deck, k):
    """K cards from a fresh 108-card deck: (p1, p2, jokers)."""
    for i in range(DOUBLE_DECK):
        deck[i] = i
    p1 = np.int64(0)
    p2 = np.int64(0)
    jokers = 0
    for i in range(k):
        r = i + below(gen, DOUBLE_DECK - i)
        c = deck[r]
        deck[r] = deck[i]
        deck[i] = c
        if c >= NATURAL_IDS:
            jokers += 1
        else:
            p1, p2 = dd_add(p1, p2, c % 52)
    return p1, p2, jokers


@njit(cache=True, parallel=True)
def contract_hits(seed, samples, hand, k, contracts, rules):
    """Number of the ``samples`` random K-card holdings that contain the contract of ``hand``."""
    chunks = (samples + CHUNK - 1) // CHUNK
    hits = np.zeros(chunks, dtype=np.int64)
    for c in prange(chunks):
        deck = np.empty(DOUBLE_DECK, dtype=np.int64)
        out = np.zeros((MAX_CONTRACT_MELDS, M_SIZE), dtype=np.int64)
        gen = np.empty(2, dtype=np.uint64)
        for s in range(c * CHUNK, min(samples, (c + 1) * CHUNK)):
            seed_stream(gen, seed, s, STREAM_DECK)
            p1, p2, jokers = draw_holding(gen, deck, k)
            if find_contract(p1, p2, jokers, hand, contracts, rules, out):
                hits[c] += 1
    return hits.sum()


# ---- floating-joker contracts (Contract Rummy: kernels.melds_float) ----------------------
@njit(cache=True)
def draw_counts(gen, deck, n_pack, k, hold):
    """K cards from a fresh pack (``deck`` holds its card ids, 52 = joker) as a count vector."""
    hold[:] = 0
    for i in range(k):
        r = i + below(gen, n_pack - i)
        c = deck[r]
        deck[r] = deck[i]
        deck[i] = c
        hold[c] += 1


@njit(cache=True, parallel=True)
def float_contract_hits(seed, samples, k, pack, spec, rules):
    """Number of the ``samples`` random K-card holdings from ``pack`` (card ids, 52 = joker)
    that hold the contract row ``spec`` (``melds_float.solve_contract``)."""
    chunks = (samples + CHUNK - 1) // CHUNK
    hits = np.zeros(chunks, dtype=np.int64)
    n_pack = pack.shape[0]
    for c in prange(chunks):
        deck = np.empty(n_pack, dtype=np.int64)
        hold = np.zeros(HOLD, dtype=np.int64)
        out = np.zeros((MAX_CM, M_SIZE), dtype=np.int64)
        gen = np.empty(2, dtype=np.uint64)
        for s in range(c * CHUNK, min(samples, (c + 1) * CHUNK)):
            seed_stream(gen, seed, s, STREAM_DECK)
            deck[:] = pack
            draw_counts(gen, deck, n_pack, k, hold)
            if solve_contract(hold, spec, rules, out, True) >= 0:
                hits[c] += 1
    return hits.sum()
