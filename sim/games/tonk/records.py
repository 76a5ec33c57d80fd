"""Tonk's records: the kernel's record row as named columns, their help, and ``--check``'s
checks of the columns themselves."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import tonk as K
from cardsim.sim.spec import Column, record_fields

def _record_columns(rec: np.ndarray, n: int) -> dict:
    return record_fields(rec, (
        ("dealer", K.R_COL_DEALER, np.int8), ("end_reason", K.R_COL_REASON, np.int8),
        ("winner", K.R_COL_WINNER, np.int8), ("knocker", K.R_COL_KNOCKER, np.int8),
        ("turns", K.R_COL_TURNS, np.int16), ("stock_left", K.R_COL_STOCK, np.int8),
        ("redeals", K.R_COL_REDEALS, np.int8), ("truncated", K.R_COL_TRUNC, bool),
        ("payout_{p}", K.R_COL_PAY, np.int32), ("count_{p}", K.R_COL_COUNT, np.int16),
        ("cards_left_{p}", K.R_COL_LEFT, np.int8)), n)


COLUMNS = [
    Column("deal_id", "int64", "deal index in the run; with the seed it replays the deal alone"),
    Column("dealer", "int8", "dealer seat (seat 0..n-1; play starts at dealer + 1)"),
    Column("end_reason", "category", "how the hand ended: deal_tonk (one 49/50 hand at the deal), void_redeal (two "
                                     "or more), tonk_out (hand emptied without a discard: 2S each), hit_out (under "
                                     "tonk_out_requires_new_spread: emptied by hits alone, no new spread that turn: "
                                     "S each), out (emptied by the last discard: S each), knock_won, knock_caught, "
                                     "dry (stock exhausted), turn_cap"),
    Column("winner", "int8", "seat with the unique highest payout, -1 if none (void deal, tie)"),
    Column("knocker", "int8", "seat that knocked, -1 if nobody did"),
    Column("turns", "int16", "turns started in the hand (0 for a deal-tonk or a void deal)"),
    Column("stock_left", "int8", "cards left in the stock at the end"),
    Column("redeals", "int8", "void deals redealt inside this record (tonk_tie_redeal_same_dealer)"),
    Column("truncated", "bool", "a cap ended the hand (dry loop guard, max_turns, redeal cap)"),
    Column("payout_{p}", "int32", "chips won (+) or paid (-) by seat p; each row sums to 0 (at most 3 (n-1) x "
                                  "stake either way; stake is at most 1,000,000)"),
    Column("count_{p}", "int16", "point count of seat p's hand at the end (0 = empty hand)"),
    Column("cards_left_{p}", "int8", "cards in seat p's hand at the end"),
]




def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: every payout within 3 (n-1) x stake (the row's zero sum is
    checked for every zero-sum game)."""
    bound = 3 * (n - 1) * int(opts[K.O_STAKE])
    for p in range(n):
        bad = np.flatnonzero(np.abs(cols[f"payout_{p}"].astype(np.int64)) > bound)
        if len(bad):
            return int(bad[0]), f"payout_{p} is beyond 3 (n-1) x stake = {bound}"
    return None
