"""Print ``kernels.tripoli.STRENGTH_QUANTILES``: the quantiles of the poker strength (``strength``:
category + place inside it, 0..9) of the best 5 of h random cards, h = 5..18, 2 % apart.

The Tripoli expert's betting (issue 41) reads from it the chance that an opponent holding h
cards has a weaker hand. Sampled with numpy's generator (seed 41, 200,000 holdings a size);
``tests/tripoli/test_tripoli_expert.py`` checks the table against a fresh sample.

    python scripts/studies/tripoli_strength_table.py
"""
import textwrap

import numpy as np

from cardsim.kernels import poker as PK

SIZES = range(5, 19)
STEPS = 51                    # quantiles 0 %, 2 %, .., 100 %


def strengths(h: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """Strength of the best 5 of ``count`` random h-card holdings."""
    keys = rng.random((count, 52)).argsort(axis=1)[:, :h]
    masks = (np.int64(1) << keys.astype(np.int64)).sum(axis=1).astype(np.int64)
    cls = np.zeros(count, np.int64)
    chosen = np.zeros(count, np.int64)
    PK._best5_batch(masks, cls, chosen)
    cat = np.searchsorted(PK.BASE, cls, side="right") - 1
    return cat + (cls - PK.BASE[cat]) / (PK.BASE[cat + 1] - PK.BASE[cat])


def table(count: int = 200_000, seed: int = 41) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([np.quantile(strengths(h, count, rng), np.linspace(0, 1, STEPS)) for h in SIZES])


def main() -> None:
    print("STRENGTH_QUANTILES = np.array((")
    for h, row in zip(SIZES, table()):
        vals = ", ".join(f"{v:.3f}".rstrip("0").rstrip(".") for v in row)
        lines = textwrap.wrap(vals, 100, initial_indent="    (", subsequent_indent="     ")
        print(f"    # {h} cards\n" + "\n".join(lines) + "),")
    print("))")


if __name__ == "__main__":
    main()
