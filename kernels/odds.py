"""Contract odds: how often K cards drawn at random from a double deck hold a contract.

The deck is 108 cards: ids 0..103 are the two copies of the 52 naturals (``id % 52``) and
104..107 the four jokers. Sample ``s`` of a run draws its K cards by a partial Fisher-Yates
shuffle keyed by (seed, s), so results do not depend on the number of threads.
"""
import numpy as np
from numba import njit, prange

from kernels.cards import dd_add
from kernels.melds import MAX_CONTRACT_MELDS, M_SIZE, find_contract
from kernels.rng import STREAM_DECK, below, seed_stream

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
