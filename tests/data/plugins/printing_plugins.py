"""A plug-in that prints at import and at every decision, then leaves it to its base, one per
game (``<game>_prints``): its text goes to stderr, so ``--json`` output stays one document."""
import numba

from cardsim.plugin import Strategy

print("printing_plugins: printed at import")


@numba.njit
def prints(view, legal, n, prm):
    print("decide: kind", view[1])
    return -1


for _g in ("tonk", "telefunken", "contract_rummy", "marafon", "trionfo", "tripoli"):
    globals()[f"{_g}_prints"] = Strategy(_g, prints, base="greedy")
