"""Numba kernels: stateless card arithmetic and one module per game.

Everything here is ``@njit(cache=True)`` code (plus the integer constants it reads).
Python-side concerns (options, registries, I/O) live in ``sim/``.
"""
