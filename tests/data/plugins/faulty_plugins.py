"""Plug-ins that fail at run time in every way, one of each per game (tests/test_bad_input_plugins.py):
``<game>_raises`` raises ValueError at its first decision, ``<game>_divides`` divides an integer by
zero, ``<game>_illegal`` answers one past the last legal index, ``<game>_out_of_bounds`` reads far
past its legal list (an IndexError under --check), and ``<game>_loops`` never returns (``printing_plugins.py``: one that prints)."""
import numba

from cardsim.plugin import Strategy

GAMES = ("tonk", "telefunken", "contract_rummy", "marafon", "trionfo", "tripoli")


@numba.njit
def raises(view, legal, n, prm):
    if n >= 0:
        raise ValueError("no decision today")
    return -1


@numba.njit
def divides(view, legal, n, prm):
    return n // (view[1] - view[1])


@numba.njit
def illegal(view, legal, n, prm):
    return n


@numba.njit
def out_of_bounds(view, legal, n, prm):
    return -1 if legal[n + 100_000_000] != 7 else 0


@numba.njit
def loops(view, legal, n, prm):
    x = 1
    while x > 0:
        x = (x * 3) % 1_000_003 + 1
    return -1


for _g in GAMES:
    for _fn in (raises, divides, illegal, out_of_bounds, loops):
        globals()[f"{_g}_{_fn.py_func.__name__}"] = Strategy(_g, _fn, base="greedy")
