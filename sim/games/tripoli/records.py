"""Tripoli's records: the kernel's record row as named columns, their help, the derived
``session`` column and ``--check``'s checks of the columns themselves."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels import tripoli as K
from cardsim.sim.spec import Column, record_fields


def _seat(rec, p, col):
    return rec[:, K.RC_SEAT + K.SEAT_COLS * p + col]


def _record_columns(rec: np.ndarray, n: int) -> dict:
    cols = record_fields(rec, (
        ("session", K.RC_SESSION, np.int64), ("deal_in_session", K.RC_DEAL_NO, np.int32),
        ("dealer", K.RC_DEALER, np.int8), ("end_reason", K.RC_REASON, np.int8),
        ("winner", K.RC_WINNER, np.int8), ("michigan_winner", K.RC_MWIN, np.int8),
        ("turns", K.RC_LEADS, np.int16), ("truncated", K.RC_TRUNC, bool),
        ("widow", K.RC_WIDOW, np.int8), ("widow_buyer", K.RC_W_BUYER, np.int8),
        ("widow_price", K.RC_W_PRICE, np.int32), ("pay_suit", K.RC_PAY_SUIT, np.int8),
        ("sequence_start", K.RC_SEQ, np.int8), ("suit_buyer", K.RC_SUIT_BY, np.int8),
        ("suit_price", K.RC_SUIT_PRICE, np.int32), ("pot", K.RC_POT, np.int32),
        ("pot_winners", K.RC_POT_WIN, np.int16), ("pot_uncontested", K.RC_POKER_END, bool),
        ("raises", K.RC_RAISES, np.int16), ("folded", K.RC_FOLDED, np.int16),
        ("clearing_prize", K.RC_CLEAR_PRIZE, np.int32)))
    for i, name in enumerate(K.SPACE_NAMES):
        cols[f"board_{name.replace('-', '').lower()}"] = rec[:, K.RC_BOARD + i].astype(np.int32)
    for name, col, dt in (("payout", K.SC_PAY, np.int32), ("widow", K.SC_WIDOW, np.int32),
                          ("pay", K.SC_PH1, np.int32), ("poker", K.SC_POKER, np.int32),
                          ("michigan", K.SC_MICH, np.int32), ("clear", K.SC_CLEAR, np.int32),
                          ("hand", K.SC_HAND, np.int8), ("cards_left", K.SC_LEFT, np.int8)):
        for p in range(n):
            cols[f"{name}_{p}"] = _seat(rec, p, col).astype(dt)
    return cols


COLUMNS = [
    Column("deal_id", "int64", "deal index in the run; session = deal_id // deals_per_session"),
    Column("session", "int64", "session number (each session starts with an empty board)"),
    Column("deal_in_session", "int32", "deal number inside the session (the last one also plays the clearing)"),
    Column("dealer", "int8", "dealer seat (0..n-1)"),
    Column("end_reason", "category", "how Phase 3 (Michigan) ended: out (a seat went out and took the kitty), "
                                     "blocked (nobody could play on), step_cap (the step cap stopped it)"),
    Column("winner", "int8", "seat with the unique highest payout of the deal, -1 if shared"),
    Column("michigan_winner", "int8", "seat that went out in Phase 3 (took the kitty), -1 if blocked"),
    Column("turns", "int16", "Phase-3 leads"),
    Column("truncated", "bool", "a cap or guard bound (step cap, auction guard, raise guard)"),
    Column("widow", "int8", "dealer's widow decisions, a sum of bit flags: 1 swap, 2 auctioned the widow, "
           "4 widow sold, 8 auctioned his old hand, 16 old hand sold (0 = kept his hand)"),
    Column("widow_buyer", "int8", "seat that bought a hand in a widow auction, -1 none"),
    Column("widow_price", "int32", "price paid to the dealer for it (chips)"),
    Column("pay_suit", "int8", "pay suit of the deal", dict(enumerate(("C", "D", "H", "S")))),
    Column("sequence_start", "int8", "lowest rank of the sequence space (2..12, 11 J, 12 Q)"),
    Column("suit_buyer", "int8", "winner of the pay-suit auction (pay_suit_auction), -1 none"),
    Column("suit_price", "int32", "the pay-suit auction winner's bid (put on the kitty)"),
    Column("pot", "int32", "chips in the poker pot when it was won (carried chips, antes and bets)"),
    Column("pot_winners", "int16", "bit mask of the seats that won (split) the poker pot: bit p (value 2**p) set "
                                    "for seat p", seat_mask=True),
    Column("pot_uncontested", "bool", "the pot was won without a showdown: everybody else folded"),
    Column("raises", "int16", "raises in the Phase-2 betting round"),
    Column("folded", "int16", "bit mask of the seats that folded in Phase 2: bit p (value 2**p) set for seat p", seat_mask=True),
    Column("clearing_prize", "int32", "chips pooled for the session's clearing rounds (last deal only)"),
    Column("board_{space}", "int32", "chips left on a board space after the deal; {space} is one of "
           + ", ".join(n.replace('-', '').lower() for n in K.SPACE_NAMES)
           + " (the A, K, Q, J, 10 and K-Q pay cards, the sequence, the kitty, the poker pot)"),
    Column("payout_{p}", "int32", "change of seat p's chips in the deal (all phases, antes included); "
           "the row sums to minus the growth of the board"),
    Column("widow_{p}", "int32", "seat p's chips from widow and pay-suit auctions"),
    Column("pay_{p}", "int32", "seat p's chips won with pay cards (Phase 1, or during Phase 3 under Rummoli)"),
    Column("poker_{p}", "int32", "seat p's poker result: pot won minus bets"),
    Column("michigan_{p}", "int32", "seat p's Phase-3 result: kitty and card payments"),
    Column("clear_{p}", "int32", "seat p's clearing rounds result: prize won minus bets"),
    Column("hand_{p}", "int8", "poker category of seat p's 5 poker cards", dict(enumerate(PK.CATEGORY_NAMES))),
    Column("cards_left_{p}", "int8", "cards in seat p's hand when Phase 3 ended"),
]


def _derived_columns(cols: dict, opts: np.ndarray, n: int) -> None:
    """``session`` = deal_id // deals_per_session, from the int64 deal id: the kernel's int32
    record column (what ``_record_columns`` reads) wraps for deal ids of 2**31 sessions on."""
    cols["session"] = cols["deal_id"] // int(opts[K.O_DEALS])


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: payout = the ledgers (widow, pay, poker, michigan, clear)
    minus the 9 antes, and the row sums to minus the growth of the board (where the deal
    before it in the session is in the same shard, or it opens its session)."""
    ante = 9 * int(opts[K.O_ANTE])
    pays = []
    for p in range(n):
        pay = cols[f"payout_{p}"].astype(np.int64)
        ledgers = sum(cols[f"{name}_{p}"].astype(np.int64) for name in ("widow", "pay", "poker", "michigan", "clear"))
        bad = np.flatnonzero(pay != ledgers - ante)
        if len(bad):
            return int(bad[0]), f"payout_{p} is not the sum of its ledgers minus the antes"
        pays.append(pay)
    board = sum(cols[f"board_{name.replace('-', '').lower()}"].astype(np.int64) for name in K.SPACE_NAMES)
    first = cols["deal_in_session"] == 0
    prev = np.where(first, 0, np.concatenate([[0], board[:-1]]))
    known = first | np.concatenate([[False], np.diff(cols["deal_id"]) == 1])
    bad = np.flatnonzero(known & (sum(pays) + board - prev != 0))
    if len(bad):
        return int(bad[0]), "chips not conserved: the payouts do not sum to minus the growth of the board"
    return None
