"""Trionfo's records: the kernel's record row (a session's columns, then one block per hand) as
named columns, their help, the null slots of unplayed hands and ``--check``'s checks of the
columns themselves."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import trionfo as K
from cardsim.kernels.tricks import SUIT_NAMES40
from cardsim.sim.notation import fmt40_card
from cardsim.sim.spec import Column, record_fields


def _record_columns(rec: np.ndarray, n: int) -> dict:
    cols = record_fields(rec, (("dealer", K.RC_DEALER, np.int8), ("end_reason", K.RC_REASON, np.int8),
                               ("winner", K.RC_WINNER, np.int8), ("turns", K.RC_TRICKS, np.int32),
                               ("hands", K.RC_HANDS, np.int16), ("redeals", K.RC_REDEALS, np.int32),
                               ("truncated", K.RC_TRUNC, bool), ("payout_{p}", K.RC_MONEY, np.int32)), n)
    for h in range(1, K.HAND_SLOTS + 1):
        cols.update(record_fields(rec, _HAND_FIELDS, n, K.RC_HAND + (h - 1) * K.HB_SIZE, h=h))
    return cols


_HAND_FIELDS = tuple((f"h{{h}}_{name}", col, np.int8) for name, col in (
    ("declarer", K.HB_DECLARER), ("level", K.HB_LEVEL), ("trump", K.HB_TRUMP), ("partner", K.HB_PARTNER),
    ("called", K.HB_CALLED), ("strength", K.HB_STRENGTH), ("pts", K.HB_PTS),
    ("first_bidder", K.HB_FIRST_BIDDER), ("redeals", K.HB_REDEALS))) + (
    ("h{h}_won", K.HB_WON, bool), ("h{h}_money_{p}", K.HB_MONEY, np.int16))


def _unplayed(cols: dict) -> dict:
    """The hand slots after a session's last hand (h > hands: a session of trionfo_hands < 20
    hands): nulls in the written records, not zeros that look like a hand."""
    hands = cols["hands"]
    return {name.format(h=h, p=p): hands < h for h in range(1, K.HAND_SLOTS + 1)
            for name, _, _ in _HAND_FIELDS for p in (range(5) if "{p}" in name else (0,))}


SUITS = {-1: "none", **dict(enumerate(SUIT_NAMES40))}
LEVELS = {0: "none", 1: "chiamo", 2: "di più", 3: "maso", 4: "maso dei masi"}
CARDS = {-1: "none", **{c: fmt40_card(c) for c in range(40)}}

# "{p}" = seat, "{h}" = hand 1..20 of the session (the h{h}_* columns are null for h > hands)
COLUMNS = [
    Column("deal_id", "int64", "session index in the run; with the seed it replays the session alone"),
    Column("dealer", "int8", "dealer of the first hand (seat 0..4)"),
    Column("end_reason", "category", "how the session ended: complete (all its hands played), redeal_cap (a hand "
                                     "was void: every deal thrown in up to the redeal cap)"),
    Column("winner", "int8", "seat with the unique highest money, -1 on a tie"),
    Column("turns", "int32", "tricks played in the session"),
    Column("hands", "int16", "hands played (void hands included; thrown-in deals are not hands); the h{h}_* "
                             "columns of later hands are null"),
    Column("redeals", "int32", "all-pass deals thrown in (at most 100 per hand)"),
    Column("truncated", "bool", "a hand hit the redeal cap and was void"),
    Column("payout_{p}", "int32", "net money of seat p over the session (the row sums to 0)"),
    Column("h{h}_declarer", "int8", "declarer of hand h (hands 1..20 have columns; null for h > hands), -1 void "
                                    "hand"),
    Column("h{h}_level", "int8", "contract of hand h", LEVELS),
    Column("h{h}_trump", "int8", "trump suit of hand h", SUITS),
    Column("h{h}_partner", "int8", "partner seat in hand h, -1 solo (or void), the declarer himself after a "
                                   "self-call"),
    Column("h{h}_called", "int8", "card called in hand h (40-card id 10 x suit + strength)", CARDS),
    Column("h{h}_strength", "int8", "declarer's hand strength in hand h (the bidding measure of the heuristic)"),
    Column("h{h}_pts", "int8", "points of the declarer's side in hand h (of 11)"),
    Column("h{h}_won", "bool", "the declarer's side reached trionfo_win_points in hand h"),
    Column("h{h}_first_bidder", "int8", "first seat that bid in hand h, -1 none"),
    Column("h{h}_redeals", "int8", "deals thrown in before hand h"),
    Column("h{h}_money_{p}", "int16", "money of seat p in hand h"),
]


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: each recorded hand's money sums to 0 and is at most 4 x the
    highest stake per seat."""
    bound = 4 * int(max(opts[K.O_STAKE:K.O_STAKE + 4]))
    for h in range(1, K.HAND_SLOTS + 1):
        money = [cols[f"h{h}_money_{p}"].astype(np.int64) for p in range(n)]
        bad = np.flatnonzero(sum(money))
        if len(bad):
            return int(bad[0]), f"hand {h}'s money does not sum to 0"
        for p in range(n):
            bad = np.flatnonzero(np.abs(money[p]) > bound)
            if len(bad):
                return int(bad[0]), f"h{h}_money_{p} is beyond 4 x the highest stake ({bound})"
    return None
