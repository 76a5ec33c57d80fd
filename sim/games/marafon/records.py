"""Marafon's records: the kernel's record row (one match) as named columns, their help, the
hand slots a match did not play, each seat's match result, and ``--check``'s checks of the
columns themselves."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import marafon as K
from cardsim.kernels.tricks import SUIT_NAMES40
from cardsim.sim.spec import Column, record_fields

def _record_columns(rec: np.ndarray, n: int) -> dict:
    win_side = rec[:, K.RC_WIN_SIDE]
    cols = record_fields(rec, (("dealer", K.RC_DEALER, np.int8), ("end_reason", K.RC_REASON, np.int8),
                               ("winner", K.RC_WINNER, np.int8), ("win_side", K.RC_WIN_SIDE, np.int8),
                               ("turns", K.RC_TRICKS, np.int32), ("hands", K.RC_HANDS, np.int32),
                               ("games", K.RC_GAMES, np.int8), ("claims", K.RC_CLAIMS, np.int8),
                               ("extra_hands", K.RC_EXTRA, np.int32), ("truncated", K.RC_TRUNC, bool)))
    for p in range(n):
        cols[f"payout_{p}"] = np.where(win_side < 0, 0, np.where(win_side == p % 2, 1, -1)).astype(np.int8)
    cols.update(record_fields(rec, (("score_{s}", K.RC_SCORE, np.int32), ("games_won_{s}", K.RC_GAMES_WON, np.int8)),
                              2, each="s"))
    for h in range(1, K.HAND_SLOTS + 1):
        cols.update(record_fields(rec, _HAND_FIELDS, 2, K.RC_HAND + (h - 1) * K.HB_SIZE, each="s", h=h))
    return cols


_HAND_FIELDS = (("h{h}_game", K.HB_GAME, np.int8), ("h{h}_battitore", K.HB_BATT, np.int8),
                ("h{h}_trump", K.HB_TRUMP, np.int8), ("h{h}_holder", K.HB_HOLDER, np.int8),
                ("h{h}_end", K.HB_END, np.int8), ("h{h}_extra", K.HB_EXTRA, bool),
                ("h{h}_pts_{s}", K.HB_PTS, np.int8), ("h{h}_thirds_{s}", K.HB_THIRDS, np.int8),
                ("h{h}_marafone_{s}", K.HB_MARAF, np.int8))


def _unplayed(cols: dict) -> dict:
    """The hand slots after a match's last hand (h > hands): nulls in the written records, not
    zeros that look like a hand (seat 0 battitore, coins trump, a scored hand of 0 points)."""
    hands = cols["hands"]
    return {name.format(h=h, s=s): hands < h for h in range(1, K.HAND_SLOTS + 1)
            for name, _, _ in _HAND_FIELDS for s in (range(2) if "{s}" in name else (0,))}


SUITS = dict(enumerate(SUIT_NAMES40))
HAND_ENDS = {0: "scored", 1: "claim_correct", 2: "claim_wrong"}

# "{p}" = seat, "{s}" = side (0 = seats 0+2, 1 = seats 1+3), "{h}" = hand 1..16 of the match
COLUMNS = [
    Column("deal_id", "int64", "match index in the run; with the seed it replays the match alone"),
    Column("dealer", "int8", "dealer of the first hand (seat 0..3)"),
    Column("end_reason", "category", "how the (last) game of the match ended: target (a side reached the target "
                                     "at a hand's end), claim_correct, claim_wrong (a claim ended it), extra_hand "
                                     "(both sides reached the target: decided by extra hands), higher_total (both "
                                     "reached it: the higher total won), hand_cap (max_hands reached)"),
    Column("winner", "int8", "a seat of the winning side: side + 2 x (deal_id mod 2), partners credited on "
                             "alternate matches; -1 if no side won (capped, level)"),
    Column("win_side", "int8", "side that won the match: 0 = seats 0+2, 1 = seats 1+3, -1 none"),
    Column("turns", "int32", "tricks played in the match"),
    Column("hands", "int32", "hands played in the match (the h{h}_* columns of later hands are null)"),
    Column("games", "int8", "games played in the match"),
    Column("claims", "int8", "claims made (a claim ends its game)"),
    Column("extra_hands", "int32", "extra hands played after both sides reached the target"),
    Column("truncated", "bool", "a game hit the hand cap max_hands"),
    Column("payout_{p}", "int8", "+1 if seat p's side won the match, -1 if it lost (0: capped level game); "
                                 "the row sums to 0"),
    Column("score_{s}", "int32", "final game score of side s (0 = seats 0+2, 1 = seats 1+3) in the last game, "
                                 "in whole points"),
    Column("games_won_{s}", "int8", "games won by side s in the match"),
    Column("h{h}_game", "int8", "game of the match that hand h belongs to (0-based); the h{h}_* columns are null "
                                "for h > hands (not played) and exist for hands 1..16 only"),
    Column("h{h}_battitore", "int8", "seat (0..3) that named trump and led in hand h"),
    Column("h{h}_trump", "int8", "trump suit of hand h", SUITS),
    Column("h{h}_holder", "int8", "seat holding the 3-2-A of trump (the marafona) in hand h, -1 none"),
    Column("h{h}_end", "int8", "how hand h ended", HAND_ENDS),
    Column("h{h}_extra", "bool", "hand h was an extra hand (both sides had reached the target)"),
    Column("h{h}_pts_{s}", "int8", "points side s added to its game score in hand h (card points and marafona "
                                   "bonus; 0 if a claim ended the hand)"),
    Column("h{h}_thirds_{s}", "int8", "thirds of a point side s won in hand h (35 in all for a scored hand, the "
                                      "last trick's 3 included; so far, if a claim ended it)"),
    Column("h{h}_marafone_{s}", "int8", "marafone (3-2-A of a suit) declared by side s in hand h"),
]


def _payouts(st, n):
    g0, g1 = int(st[K.GAMES]), int(st[K.GAMES + 1])
    side = 0 if g0 > g1 else (1 if g1 > g0 else -1)
    return [0 if side < 0 else (1 if p % 2 == side else -1) for p in range(n)]


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: games won within the games played, at most the match's games."""
    games = cols["games"].astype(np.int64)
    for s in range(2):
        bad = np.flatnonzero(cols[f"games_won_{s}"] > games)
        if len(bad):
            return int(bad[0]), f"games_won_{s} exceeds games"
    bad = np.flatnonzero(games > int(opts[K.O_GAMES]))
    if len(bad):
        return int(bad[0]), "more games than games_per_match"
    return None
