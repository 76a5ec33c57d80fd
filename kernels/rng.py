"""Counter-based random numbers keyed by (run seed, deal index, stream).

The i-th output of a stream is ``mix64(key + i * GOLDEN)`` (SplitMix64's finaliser over a
Weyl sequence), where ``key`` hashes (seed, deal, stream). Nothing is shared between deals,
so any deal replays on its own and results do not depend on thread or worker counts.

Streams: ``STREAM_DECK`` shuffles the cards, ``STREAM_PLAY`` feeds strategy choices, so
the same (seed, deal) gives the same cards whatever the strategies (duplicate deals).

A generator is a ``uint64[2]`` array: ``[key, counter]``.
"""
import numpy as np

from cardsim.kernels.jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
STREAM_DECK = 0
STREAM_PLAY = 1
STREAM_RUN = 2


@njit(cache=True)
def mix64(z):
    """SplitMix64 finaliser: a bijective 64-bit mixer."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key(seed, deal, stream):
    """Key of the generator for one (seed, deal, stream)."""
    k = mix64(np.uint64(seed) ^ np.uint64(0x243F6A8885A308D3))
    k = mix64(k + np.uint64(deal) * GOLDEN)
    return mix64(k + np.uint64(stream) * np.uint64(0xD1B54A32D192ED03))


@njit(cache=True)
def seed_stream(gen, seed, deal, stream):
    """(Re)key ``gen`` in place for (seed, deal, stream) and reset its counter."""
    gen[0] = stream_key(seed, deal, stream)
    gen[1] = np.uint64(0)


@njit(cache=True)
def new_stream(seed, deal, stream):
    gen = np.empty(2, dtype=np.uint64)
    seed_stream(gen, seed, deal, stream)
    return gen


@njit(cache=True)
def next_u64(gen):
    gen[1] += np.uint64(1)
    return mix64(gen[0] + gen[1] * GOLDEN)


@njit(cache=True)
def below(gen, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (Lemire's method, unbiased)."""
    bound = np.uint64(n)
    m = (next_u64(gen) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        t = (np.uint64(0x100000000) - bound) % bound
        while low < t:
            m = (next_u64(gen) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True)
def uniform(gen):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(gen) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(gen, arr, start, stop):
    """Fisher-Yates shuffle of ``arr[start:stop]`` in place."""
    for i in range(stop - 1, start, -1):
        j = start + below(gen, i - start + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
