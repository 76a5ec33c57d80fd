"""Declared layouts: the offsets of named fields laid one after another in an int array (a
game's state, a plug-in's view, the option slots, the record columns), computed from rows of
``(name, width)`` instead of numbered by hand.

    N, DEALER, HAND, DECK, ST_SIZE = offsets(
        ("N", 1),                  # number of players
        ("DEALER", 1),             # dealer seat
        ("HAND", MAX_PLAYERS),     # HAND + p: hand of seat p
        ("DECK", 52),              # the shuffled deck
    )

The result is the offset of every row, in order, then the total size, as plain ints: unpacked
into module-level names they are compile-time constants for numba and definitions that grep and
pyright find. Write the names on the left in the order of the rows (a game's test checks the two
against each other with ``ast``, so they cannot drift apart).

Stateless and plain Python (no numba): it runs once, at import.
"""
from __future__ import annotations


def offsets(*rows: tuple[str, int]) -> tuple[int, ...]:
    """The offsets of the fields ``rows`` (``(name, width)`` pairs, laid consecutively from 0)
    and, last, the total size. A name must be an identifier and appear once (ValueError); a width
    must be a whole number >= 1, which is what keeps the fields from overlapping (a width of 0
    would share the next field's offset, a negative one reach back into the field before)."""
    seen: set[str] = set()
    out: list[int] = []
    at = 0
    for row in rows:
        if not (isinstance(row, tuple) and len(row) == 2):
            raise ValueError(f"layout row {row!r}: expected (name, width)")
        name, width = row
        if not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"layout row {row!r}: the name must be an identifier")
        if name in seen:
            raise ValueError(f"layout field {name} is declared twice")
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ValueError(f"layout field {name}: width must be a whole number >= 1 (got {width!r})")
        seen.add(name)
        out.append(at)
        at += width
    return (*out, at)
