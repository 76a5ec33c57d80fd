"""Trionfo's rule options (``docs/rules/marafon.md`` section C, Trionfo rows: one frozen dataclass,
its option array for the kernels), the presets (named option sets) and the names of the bids."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.kernels import trionfo as K
from cardsim.sim.errors import UsageError
from cardsim.sim.options import check_choice, check_ranges, opt

PARTNER_METHOD = ("call_card", "name_player")
AUCTION = ("open_ascending", "single_round")
FIRST_LEADER = ("first_bidder", "first_speaker", "declarer")
REDEAL_DEALER = ("same", "next")
PAYOUT = ("chiamata",)
BID_NAMES = ("pass", "chiamo", "di più", "maso", "maso dei masi")


@dataclass(frozen=True)
class TrionfoOptions:
    """Rule options of ``docs/rules/marafon.md`` section C, Trionfo rows (defaults = the spec's)."""
    trionfo_partner_levels: int = opt(1, "bid levels that call a partner (C15): 1 chiamo only, 2 chiamo and di più",
                                      lo=1, hi=2)
    trionfo_bid_stakes: tuple[int, ...] = opt((1, 2, 3, 4), "stakes of the four bids (C16), e.g. 1,2,3,4",
                                              lo=0, hi=1000)
    trionfo_partner_method: str = opt("call_card", "how the partner is chosen (C17)", PARTNER_METHOD)
    trionfo_allow_self_call: bool = opt(False, "the declarer may call his own card: a secret solo (C17)")
    trionfo_auction: str = opt("open_ascending", "auction format (C18)", AUCTION)
    trionfo_first_leader: str = opt("first_bidder", "leader of trick 1 (C19)", FIRST_LEADER)
    trionfo_redeal_dealer: str = opt("same", "dealer after an all-pass redeal (C20)", REDEAL_DEALER)
    trionfo_win_points: int = opt(6, "points (of 11) the declarer's side needs to win (C21)", lo=1, hi=11)
    trionfo_payout: str = opt("chiamata", "money scheme (C22): chiamata 2s/s/s and 4s/s", PAYOUT)
    trionfo_hands: int = opt(10, "hands in a session (C23); a record is a session", lo=1, hi=10_000)
    first_dealer: str | int = opt("random", "first dealer: random or a seat number 0..4 (B1)")

    def __post_init__(self):
        check_ranges(self)
        for name, choices in (("trionfo_partner_method", PARTNER_METHOD), ("trionfo_auction", AUCTION),
                              ("trionfo_first_leader", FIRST_LEADER), ("trionfo_redeal_dealer", REDEAL_DEALER),
                              ("trionfo_payout", PAYOUT)):
            check_choice(name, getattr(self, name), choices)
        if self.trionfo_partner_levels not in (1, 2):
            raise UsageError(f"option trionfo_partner_levels: must be 1 or 2 (got {self.trionfo_partner_levels!r})")
        stakes = self.trionfo_bid_stakes
        if len(stakes) != 4 or any(not isinstance(s, int) or not 0 <= s <= 1000 for s in stakes):
            raise UsageError(f"option trionfo_bid_stakes: four whole numbers 0..1000 (got {stakes!r})")
        if not isinstance(self.trionfo_win_points, int) or not 1 <= self.trionfo_win_points <= 11:
            raise UsageError(f"option trionfo_win_points: must be 1..11 (got {self.trionfo_win_points!r})")
        if not isinstance(self.trionfo_hands, int) or not 1 <= self.trionfo_hands <= 10_000:
            raise UsageError(f"option trionfo_hands: must be 1..10000 (got {self.trionfo_hands!r})")
        if self.first_dealer != "random" and not (isinstance(self.first_dealer, int) and 0 <= self.first_dealer < 5):
            raise UsageError(f"option first_dealer: must be random or a seat number 0..4 (got {self.first_dealer!r})")

    def to_array(self, n_players: int) -> np.ndarray:
        if n_players != 5:
            raise UsageError(f"trionfo takes 5 players (got {n_players})")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_PARTNER_LEVELS] = self.trionfo_partner_levels
        a[K.O_STAKE:K.O_STAKE + 4] = self.trionfo_bid_stakes
        a[K.O_PARTNER_METHOD] = PARTNER_METHOD.index(self.trionfo_partner_method)
        a[K.O_SELF_CALL] = self.trionfo_allow_self_call
        a[K.O_AUCTION] = AUCTION.index(self.trionfo_auction)
        a[K.O_FIRST_LEADER] = FIRST_LEADER.index(self.trionfo_first_leader)
        a[K.O_REDEAL_DEALER] = REDEAL_DEALER.index(self.trionfo_redeal_dealer)
        a[K.O_WIN_POINTS] = self.trionfo_win_points
        a[K.O_PAYOUT] = PAYOUT.index(self.trionfo_payout)
        a[K.O_HANDS] = self.trionfo_hands
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        return a


PRESETS = {
    "seed": {},
    "partner2": {"trionfo_partner_levels": 2},
    "single_round": {"trionfo_auction": "single_round", "trionfo_first_leader": "declarer"},
    "open_partner": {"trionfo_partner_method": "name_player", "trionfo_redeal_dealer": "next"},
    "self_call": {"trionfo_allow_self_call": True, "trionfo_first_leader": "first_speaker"},
}
