"""Plug-ins that are wrong in every way tests/test_plugins.py checks."""
import numba

from cardsim.plugin import Strategy


@numba.njit
def illegal(view, legal, n, prm):
    return n                      # one past the last legal action


@numba.njit
def three_args(view, legal, n):
    return -1


@numba.njit
def uncompilable(view, legal, n, prm):
    return len("x" + view)        # a string and an array: numba cannot type it


@numba.njit
def undefined(view, legal, n, prm):
    return not_defined_anywhere + 1     # noqa: F821 - a name numba does not know


def plain(view, legal, n, prm):   # not a numba function
    return -1


returns_illegal = Strategy("tonk", illegal, base="greedy")
wrong_signature = Strategy("tonk", three_args, base="greedy")
cannot_compile = Strategy("tonk", uncompilable, base="greedy")
undefined_name = Strategy("tonk", undefined, base="greedy")
not_numba = Strategy("tonk", plain, base="greedy")
for_telefunken = Strategy("telefunken", illegal, base="greedy")
bad_base = Strategy("tonk", illegal, base="nobody")
just_a_number = 42
