"""Contract Rummy's records: the kernel's record row (one game of seven deals) as named columns,
their help, and ``--check``'s check of the columns themselves (payouts and totals)."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.sim.games.contract_rummy.options import DEALS
from cardsim.sim.spec import Column, penalty_game_columns, record_fields


def _record_columns(rec: np.ndarray, n: int) -> dict:
    cols = penalty_game_columns(K, rec, n)
    cols.update(record_fields(rec, (("mayi_{p}", K.RC_MAYI, np.int32), ("oot_{p}", K.RC_OOT, np.int32)), n))
    for d in range(1, DEALS + 1):
        cols.update(record_fields(rec, _DEAL_FIELDS, n, K.RC_DEAL + (d - 1) * K.DB_SIZE, d=d))
    return cols


_DEAL_FIELDS = (("d{d}_out", K.DB_OUT, np.int8), ("d{d}_reason", K.DB_REASON, np.int8),
                ("d{d}_turns", K.DB_TURNS, np.int16), ("d{d}_reshuffles", K.DB_RESHUF, np.int16),
                ("d{d}_cut", K.DB_CUT, bool), ("d{d}_pen_{p}", K.DB_PEN, np.int16),
                ("d{d}_mayi_{p}", K.DB_MAYI, np.int16), ("d{d}_oot_{p}", K.DB_OOT, np.int16))


COLUMNS = [
    Column("deal_id", "int64", "game index in the run (a game = seven deals); with the seed it replays the game alone"),
    Column("dealer", "int8", "dealer of deal 1 (the deal passes to the next seat each deal)"),
    Column("end_reason", "category", "how the game ended: complete, truncated (a deal hit max_turns_per_deal)"),
    Column("winner", "int8", "seat with the unique lowest final total, -1 if the lowest is shared"),
    Column("winners", "int8", "bit mask of the seats with the lowest final total: bit p (value 2**p) set for "
                              "seat p", seat_mask=True),
    Column("turns", "int32", "normal turns in the game"),
    Column("reshuffles", "int32", "reshuffles of the discard pile in the game"),
    Column("truncated", "bool", "a deal hit the turn cap"),
    Column("payout_{p}", "int32", "score of seat p = minus its final total (higher is better)"),
    Column("total_{p}", "int32", "final total of seat p: penalty points of the seven deals minus LIVERPOOL cut "
                                 "bonuses"),
    Column("mayi_{p}", "int32", "May-I's of seat p in the game (penalty cards taken)"),
    Column("oot_{p}", "int32", "out-of-turn plays of seat p in the game"),
    Column("d{d}_out", "int8", "seat that went out in deal d, -1 if nobody did"),
    Column("d{d}_reason", "int8", "how deal d ended", dict(enumerate(K.DEAL_REASONS))),
    Column("d{d}_turns", "int16", "normal turns in deal d"),
    Column("d{d}_reshuffles", "int16", "reshuffles in deal d"),
    Column("d{d}_cut", "bool", "LIVERPOOL: the cut before deal d was exact"),
    Column("d{d}_pen_{p}", "int16", "penalty points of seat p in deal d (0 for the seat out)"),
    Column("d{d}_mayi_{p}", "int16", "May-I's (penalty cards) of seat p in deal d"),
    Column("d{d}_oot_{p}", "int16", "out-of-turn plays of seat p in deal d"),
]


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: payout = -total, and each total is the sum of the deals'
    penalties minus the cut bonuses it won (the cutter, seat dealer - 1 of the deal, or the
    seat out, as cut_bonus_recipient says)."""
    first = cols["dealer"].astype(np.int64)
    bonus, to_winner = int(opts[K.O_CUT_POINTS]), bool(opts[K.O_CUT_RECIP])
    for p in range(n):
        total = cols[f"total_{p}"].astype(np.int64)
        bad = np.flatnonzero(cols[f"payout_{p}"] != -total)
        if len(bad):
            return int(bad[0]), f"payout_{p} is not minus total_{p}"
        want = np.zeros(len(total), np.int64)
        for d in range(1, DEALS + 1):
            want += cols[f"d{d}_pen_{p}"]
            cutter = (first + d - 1 + n - 1) % n
            got = cols[f"d{d}_out"] if to_winner else cutter
            want -= bonus * (cols[f"d{d}_cut"] & (got == p))
        bad = np.flatnonzero(total != want)
        if len(bad):
            return int(bad[0]), f"total_{p} is not the sum of the deal penalties minus the cut bonuses"
    return None
