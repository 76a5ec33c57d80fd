"""Telefunken's records: the kernel's record row (one game of all its hands) as named columns,
their help, and ``--check``'s checks of the columns themselves."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import telefunken as K
from cardsim.sim.games.telefunken.options import HANDS
from cardsim.sim.spec import Column, penalty_game_columns, record_fields


def _record_columns(rec: np.ndarray, n: int) -> dict:
    """Record columns; the per-hand blocks for the hands the game has (every row of a run
    has as many), h{h}_contract when the dealers chose the contracts."""
    cols = penalty_game_columns(K, rec, n)
    cols.update(record_fields(rec, (("search_capped", K.RC_CAPPED, np.int32),)))
    cols.update(record_fields(rec, (("chips_{p}", K.RC_CHIPS, np.int8), ("buys_{p}", K.RC_BUYS, np.int32)), n))
    hands = int(rec[:, K.RC_HANDS].max()) if len(rec) else HANDS
    chosen = bool(len(rec) and rec[:, K.RC_CHOSEN].max())
    for h in range(1, hands + 1):
        base = K.RC_HAND + (h - 1) * K.HB_SIZE
        cols.update(record_fields(rec, _HAND_FIELDS, n, base, h=h))
        if chosen:
            cols.update(record_fields(rec, (("h{h}_contract", K.HB_CONTRACT, np.int8),), base=base, h=h))
    return cols


_HAND_FIELDS = (("h{h}_out", K.HB_OUT, np.int8), ("h{h}_reason", K.HB_REASON, np.int8),
                ("h{h}_turns", K.HB_TURNS, np.int16), ("h{h}_reshuffles", K.HB_RESHUF, np.int16),
                ("h{h}_cut", K.HB_CUT, np.int8), ("h{h}_kept", K.HB_KEPT, np.int8),
                ("h{h}_exact", K.HB_EXACT, bool), ("h{h}_pen_{p}", K.HB_PEN, np.int16),
                ("h{h}_chips_{p}", K.HB_CHIPS, np.int8), ("h{h}_buys_{p}", K.HB_BUYS, np.int16))


# "{p}" stands for the seat number, "{h}" for the hand number 1..7 (or as many hands as the contracts give)
COLUMNS = [
    Column("deal_id", "int64", "game index in the run (a game = all its hands, seven by default); with the seed "
           "it replays the game alone"),
    Column("dealer", "int8", "dealer of Hand 1 (seat 0..n-1; the deal passes to the next seat each hand)"),
    Column("end_reason", "category", "how the game ended: complete, truncated (a hand hit max_turns_per_hand "
                                     "while it could still change, or a going-out search its work cap; a "
                                     "blocked hand is no truncation)"),
    Column("winner", "int8", "seat with the unique lowest final total, -1 if the lowest is shared"),
    Column("winners", "int8", "bit mask of the seats with the lowest final total: bit p (value 2**p) set for "
                              "seat p (shared wins, A21)", seat_mask=True),
    Column("turns", "int32", "turns started in the game"),
    Column("reshuffles", "int32", "reshuffles of the discard pile into the stock in the game"),
    Column("truncated", "bool", "a hand hit the turn cap max_turns_per_hand while it could still change (a "
           "provably blocked hand ends 'blocked' instead), or a going-out search its work cap (search_capped)"),
    Column("search_capped", "int32", "checks of the last hand's going out in one go that stopped at the "
           "search's work cap (then taken as 'cannot go out'; holdings of 30+ cards, nearly only random play)"),
    Column("payout_{p}", "int32", "score of seat p = minus its final total (higher is better; 0 = no penalty)"),
    Column("total_{p}", "int32", "final total of seat p: penalty points of all the hands (lowest wins)"),
    Column("chips_{p}", "int8", "chips seat p has left at the end"),
    Column("buys_{p}", "int32", "discards bought by seat p in the game"),
    Column("h{h}_out", "int8", "seat that went out in hand h, -1 if nobody did"),
    Column("h{h}_reason", "int8", "how hand h ended (turn_cap truncates the game; blocked: the turn cap ended "
           "a hand no card could ever change, or a closed hand nobody could ever go out of, A32, which is no "
           "truncation)", dict(enumerate(K.HAND_REASONS))),
    Column("h{h}_turns", "int16", "turns started in hand h"),
    Column("h{h}_reshuffles", "int16", "reshuffles in hand h"),
    Column("h{h}_cut", "int8", "bottom portion B of hand h's cut"),
    Column("h{h}_kept", "int8", "jokers the cutter kept at hand h's cut"),
    Column("h{h}_exact", "bool", "hand h's cut was exact"),
    Column("h{h}_pen_{p}", "int16", "penalty points of seat p in hand h (0 for the player who went out)"),
    Column("h{h}_chips_{p}", "int8", "chips of seat p after hand h"),
    Column("h{h}_buys_{p}", "int16", "discards bought by seat p in hand h (free in-turn purchases: up to a "
                                     "third of max_turns_per_hand)"),
    Column("h{h}_contract", "int8", "the contract (its number in the contracts list) played in hand h; only "
           "when dealer_chooses_contract (otherwise it is h)"),
]


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: payout = -total, and each total is the sum of the hands'
    penalties plus leftover_chip_points per chip left."""
    hands = int(opts[K.O_HANDS])
    for p in range(n):
        total = cols[f"total_{p}"].astype(np.int64)
        bad = np.flatnonzero(cols[f"payout_{p}"] != -total)
        if len(bad):
            return int(bad[0]), f"payout_{p} is not minus total_{p}"
        want = cols[f"chips_{p}"].astype(np.int64) * int(opts[K.O_LEFTOVER_POINTS])
        want = want + sum(cols[f"h{h}_pen_{p}"].astype(np.int64) for h in range(1, hands + 1))
        bad = np.flatnonzero(total != want)
        if len(bad):
            return int(bad[0]), f"total_{p} is not the sum of the hand penalties (and leftover-chip points)"
    return None
