"""Precision targets: play until a 95% interval is narrow enough, validly.

Looking at an interval after every shard and stopping when it is narrow enough ("naive
peeking") breaks its coverage. cardsim spends the error rate over the looks instead
(a Bonferroni / alpha-spending rule): look ``j = 1, 2, ...`` uses the level

    alpha_j = alpha * 6 / (pi**2 * j**2),       sum over j of alpha_j = alpha,

so by the union bound the intervals of *all* looks hold together with probability at least
``1 - alpha``, and therefore so does the interval reported at the (data-dependent) stopping
look. The price is a wider interval per look (z = 2.16 at look 1, 2.67 at look 2, 3.24 at
look 5, 3.61 at look 10), which the rule pays in extra deals; shards double in size (up to
8x the first) so that the number of looks stays small (16 looks for 100x the first shard).
"""
from __future__ import annotations

import math
from statistics import NormalDist

ALPHA = 0.05


def alpha_at_look(j: int, alpha: float = ALPHA) -> float:
    return alpha * 6.0 / (math.pi ** 2 * j * j)


def z_at_look(j: int, alpha: float = ALPHA) -> float:
    """Two-sided normal quantile for look ``j`` (1-based) of the spending rule."""
    return NormalDist().inv_cdf(1.0 - alpha_at_look(j, alpha) / 2.0)


def shard_plan(total_cap: int, first: int, shard: int, growth: float = 1.5):
    """(first, count) of successive shards: ``shard`` deals, growing by ``growth`` per look
    up to 8x, never past ``total_cap`` deals in all. Deterministic, so resume finds them."""
    done = 0
    size = shard
    while done < total_cap:
        count = min(int(size), total_cap - done)
        yield first + done, count
        done += count
        size = min(size * growth, 8 * shard)


_ESTIMATES = {"payout": "mean_payout", "win": "win_rate", "diff": "diff"}


def with_sequential(summary: dict, seq: dict | None) -> dict:
    """``summary`` with the stopping look's ``seq`` attached and, in every row that has a
    standard error, the sequential interval beside the ordinary one (``payout_seq_lo`` /
    ``payout_seq_hi``, ``win_seq_*``, ``diff_seq_*``: estimate -/+ z se), so that ``--json`` and
    the API carry the intervals the tables print."""
    if not seq:
        return summary
    summary["sequential"] = seq
    z = seq["z"]
    for rows in summary.values():
        if not isinstance(rows, list):
            continue
        for r in rows:
            if not isinstance(r, dict):
                continue
            for key, est in _ESTIMATES.items():
                se, x = r.get(f"{key}_se"), r.get(est)
                if se is None or x is None:
                    continue
                r[f"{key}_seq_lo"], r[f"{key}_seq_hi"] = x - z * se, x + z * se
    return summary
