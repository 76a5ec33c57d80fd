"""Streaming summary statistics with 95% intervals.

Rates use the Wilson score interval; means use Student's t (normal for large n).
Per-strategy figures treat the deal as the unit (deals are independent; seats in one
deal are not): a strategy held by k seats has, per deal, the mean payout of its seats
and the indicator "one of its seats won", whose rate divided by k is the per-seat win rate.

In a partnership game (``sides``: Marafon's seats 0+2 and 1+3) a seat wins when its side
wins: a seat's win rate is its side's, a strategy's the mean over its seats of that indicator
(a t interval: per deal it is 0, 1/2 or 1 for a strategy on both sides), and the summary adds
one row per side.
"""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


# t(0.975, df) for df = 1..30 (standard table values)
_T975 = (12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252,
         2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830, 2.160368656, 2.144786688,
         2.131449546, 2.119905299, 2.109815578, 2.100922040, 2.093024054, 2.085963447, 2.079613845,
         2.073873068, 2.068657610, 2.063898562, 2.059538553, 2.055529439, 2.051830516, 2.048407142,
         2.045229642, 2.042272456)


def t_quantile_975(df: float) -> float:
    """Two-sided 95% Student-t quantile: table for df <= 30, Cornish-Fisher expansion above
    (error < 1e-5 there)."""
    if df <= 0 or math.isinf(df):
        return Z95
    if df <= 30:
        return _T975[max(1, int(round(df))) - 1]
    z = Z95
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float, float]:
    """(rate, low, high) of the Wilson score interval."""
    if n <= 0:
        return float("nan"), float("nan"), float("nan")
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, center - half), min(1.0, center + half)


def mean_ci(total: float, total_sq: float, n: float) -> tuple[float, float, float, float]:
    """(mean, low, high, standard error) from a sum and a sum of squares."""
    if n <= 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    mean = total / n
    if n < 2:
        return mean, float("nan"), float("nan"), float("nan")
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    se = math.sqrt(var / n)
    half = t_quantile_975(n - 1) * se
    return mean, mean - half, mean + half, se


class Accumulator:
    """Aggregates record batches (dicts of column arrays) into per-seat, per-strategy and
    per-outcome statistics in O(seats + outcomes) memory."""

    def __init__(self, n_players: int, labels: list[str], reason_names: tuple, sides: tuple = ()):
        self.n = n_players
        self.sides = tuple(tuple(side) for side in sides)
        self.side_sum = np.zeros(len(self.sides))
        self.side_sq = np.zeros(len(self.sides))
        self.side_wins = np.zeros(len(self.sides), dtype=np.int64)
        self.labels = labels
        self.reason_names = reason_names
        self.groups = {lab: [p for p in range(n_players) if labels[p] == lab] for lab in dict.fromkeys(labels)}
        self.deals = 0
        self.truncated = 0
        self.turns = 0
        self.reasons = np.zeros(len(reason_names), dtype=np.int64)
        self.seat_wins = np.zeros(n_players, dtype=np.int64)
        self.seat_sum = np.zeros(n_players)
        self.seat_sq = np.zeros(n_players)
        self.group_wins = {lab: 0 for lab in self.groups}
        self.group_sum = {lab: 0.0 for lab in self.groups}
        self.group_sq = {lab: 0.0 for lab in self.groups}
        self.group_wsq = {lab: 0.0 for lab in self.groups}      # partnerships: sum of squares of the win share

    def add(self, cols: dict, count: int | None = None) -> None:
        winner = np.asarray(cols["winner"])
        self.deals += len(winner)
        self.truncated += int(np.count_nonzero(cols["truncated"]))
        self.turns += int(np.asarray(cols["turns"], dtype=np.int64).sum())
        self.reasons += np.bincount(np.asarray(cols["end_reason"], dtype=np.int64), minlength=len(self.reason_names))
        pays = np.stack([np.asarray(cols[f"payout_{p}"], dtype=np.float64) for p in range(self.n)], axis=1)
        self.seat_sum += pays.sum(axis=0)
        self.seat_sq += (pays * pays).sum(axis=0)
        if self.sides:
            won = np.zeros((len(winner), self.n))             # seat p's side won the deal
            for i, side in enumerate(self.sides):
                side_won = np.isin(winner, side)
                self.side_wins[i] += int(side_won.sum())
                g = pays[:, list(side)].mean(axis=1)
                self.side_sum[i] += float(g.sum())
                self.side_sq[i] += float((g * g).sum())
                won[:, list(side)] = side_won[:, None]
            self.seat_wins += won.sum(axis=0).astype(np.int64)
        else:
            self.seat_wins += np.bincount(winner[winner >= 0].astype(np.int64), minlength=self.n)
        for lab, seats in self.groups.items():
            g = pays[:, seats].mean(axis=1)
            if self.sides:
                w = won[:, seats].mean(axis=1)
                self.group_wins[lab] += float(w.sum())
                self.group_wsq[lab] += float((w * w).sum())
            else:
                self.group_wins[lab] += int(np.isin(winner, seats).sum())
            self.group_sum[lab] += float(g.sum())
            self.group_sq[lab] += float((g * g).sum())

    def headline(self, z: float) -> tuple[str, float, float]:
        """(name, estimate, half-width at normal quantile ``z``) of the least precise of the
        seats' and strategies' mean payouts (the metric ``--until-ci`` targets)."""
        if self.deals < 2:
            return "-", float("nan"), float("inf")
        sums = [(lab, self.group_sum[lab], self.group_sq[lab]) for lab in self.groups]
        sums += [(f"seat {p}", self.seat_sum[p], self.seat_sq[p]) for p in range(self.n)]
        name, s, ss = max(sums, key=lambda t: mean_ci(t[1], t[2], self.deals)[3])
        mean, _, _, se = mean_ci(s, ss, self.deals)
        return name, mean, z * se

    def summary(self) -> dict:
        n = self.deals
        seats = []
        for p in range(self.n):
            rate, lo, hi = wilson(self.seat_wins[p], n)
            mean, mlo, mhi, se = mean_ci(self.seat_sum[p], self.seat_sq[p], n)
            seats.append({"seat": p, "strategy": self.labels[p], "win_rate": rate, "win_lo": lo, "win_hi": hi,
                          "mean_payout": mean, "payout_lo": mlo, "payout_hi": mhi, "payout_se": se})
        strategies = []
        for lab, group in self.groups.items():
            k = len(group)
            if self.sides:
                rate, lo, hi, _ = mean_ci(self.group_wins[lab], self.group_wsq[lab], n)
                if self.group_wsq[lab] == self.group_wins[lab]:     # only 0 or 1 per deal: Wilson
                    rate, lo, hi = wilson(self.group_wins[lab], n)
                k = 1
            else:
                rate, lo, hi = wilson(self.group_wins[lab], n)
            mean, mlo, mhi, se = mean_ci(self.group_sum[lab], self.group_sq[lab], n)
            strategies.append({"strategy": lab, "seats": group, "win_rate": rate / k, "win_lo": lo / k,
                               "win_hi": hi / k, "mean_payout": mean, "payout_lo": mlo, "payout_hi": mhi,
                               "payout_se": se})
        sides = []
        for i, side in enumerate(self.sides):
            rate, lo, hi = wilson(self.side_wins[i], n)
            mean, mlo, mhi, se = mean_ci(self.side_sum[i], self.side_sq[i], n)
            sides.append({"side": i, "seats": list(side), "strategies": [self.labels[p] for p in side],
                          "win_rate": rate, "win_lo": lo, "win_hi": hi, "mean_payout": mean, "payout_lo": mlo,
                          "payout_hi": mhi, "payout_se": se})
        outcomes = []
        for i, name in enumerate(self.reason_names):
            rate, lo, hi = wilson(self.reasons[i], n)
            outcomes.append({"end_reason": name, "count": int(self.reasons[i]), "rate": rate, "lo": lo, "hi": hi})
        return {"deals": n, "truncated": self.truncated,
                "truncated_share": self.truncated / n if n else float("nan"), "mean_turns": self.turns / n if n else float("nan"),
                "seats": seats, "strategies": strategies, "outcomes": outcomes, **({"sides": sides} if sides else {})}


def json_clean(x):
    """NaN/inf -> None, recursively, so that the result is strict JSON."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return None
    if isinstance(x, dict):
        return {k: json_clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_clean(v) for v in x]
    return x
