"""Tripoli's rule options (``docs/rules/tripoli.md``: one frozen dataclass, its option array for
the kernels) and the presets (named option sets)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.kernels import tripoli as K
from cardsim.sim.errors import UsageError
from cardsim.sim.options import check_choice, check_ranges, opt


TIMING = ("phase1", "michigan")
SPLIT = ("per_player", "per_sequence")
SUITS = ("clubs", "diamonds", "hearts", "spades")
FIRST_BETTOR = ("left_of_dealer", "dealer")
LIMIT_MODE = ("per_action", "total")
LEADER = ("poker_winner", "dealer", "left_of_dealer")
# Caps that keep every chip count within the int32 record columns: a session of at most
# MAX_DEALS deals grows the board by at most 9 x 9 x 1000 antes plus one pay-suit price
# (<= MAX_BID) per deal, about 1.1e8 chips; bets are bounded by the bet limit x raises.
MAX_DEALS = 1000
MAX_BID = 100_000
MAX_RAISES = 1000
MAX_STEPS = 1_000_000


@dataclass(frozen=True)
class TripoliOptions:
    """Rule options of ``docs/rules/tripoli.md`` (defaults = the seed's rules)."""
    ante_per_space: int = opt(1, "chips each player puts on each of the 9 spaces per deal (2)", lo=0, hi=1000)
    widow_exchange: bool = opt(True, "the dealer may keep, swap or auction the widow (4, 10.6)")
    widow_dealt_last: bool = opt(True, "the widow is the last hand of each round of the deal (3)")
    auction_min_bid: int = opt(1, "lowest first bid in an auction (4)", lo=1, hi=1000)
    auction_max_bid: int | None = opt(None, "highest bid in an auction (4); none = guard of 1000", lo=1, hi=MAX_BID)
    payout_timing: str = opt("phase1", "pay spaces paid in Phase 1, or when the card is played (Rummoli, 10.1)",
                             TIMING)
    sequence_split: str = opt("per_player", "8-9-10 shares per player or per qualifying suit (5)", SPLIT)
    pay_suit: str = opt("hearts", "suit of the pay cards (1)", SUITS)
    sequence_start: int = opt(8, "lowest rank of the sequence space, 2..12 (11 = J, 12 = Q) (10.3)", lo=2, hi=12)
    pay_suit_auction: bool = opt(False, "players bid for naming the pay suit; implies Rummoli timing (10.2)")
    poker_first_bettor: str = opt("left_of_dealer", "first to act in the betting (6.2, 10.4)", FIRST_BETTOR)
    bet_limit: int = opt(10, "bet limit in chips (6.2), at most 60", lo=1, hi=60)
    bet_limit_mode: str = opt("per_action", "limit on each bet / raise increment, or on a player's total (6.2)",
                              LIMIT_MODE)
    max_raises: int | None = opt(3, "raises per betting round (6.2); none = unlimited (guard of 100)",
                                 lo=0, hi=MAX_RAISES)
    michigan_first_leader: str = opt("poker_winner", "first leader in Phase 3 (7, 10.5)", LEADER)
    first_lead_lowest_in_hand: bool = opt(False, "the first Phase-3 lead is the leader's lowest card (10.7)")
    color_alternation: bool = opt(False, "Phase-3 leads alternate black / red, lowest card of the colour (10.8)")
    cosmo: bool = opt(False, "pay suit and sequence drawn each deal, colour alternation (10.9)")
    deals_per_session: int | None = opt(None, "deals in a session (9); none = one per player", lo=1, hi=MAX_DEALS)
    clearing_pots: int = opt(1, "clearing poker rounds after a session's last deal (9); 0 = none", lo=0, hi=100)
    first_dealer: str | int = opt("random", "first dealer of each session: random or a seat number (3)")
    max_steps: int = opt(20000, "cap on decisions per deal (the deal stops, flagged truncated)", lo=10,
                         hi=MAX_STEPS)

    def __post_init__(self):
        check_ranges(self)
        for name, choices in (("payout_timing", TIMING), ("sequence_split", SPLIT), ("pay_suit", SUITS),
                              ("poker_first_bettor", FIRST_BETTOR), ("bet_limit_mode", LIMIT_MODE),
                              ("michigan_first_leader", LEADER)):
            check_choice(name, getattr(self, name), choices)
        for name, lo, hi in (("ante_per_space", 0, 1000), ("auction_min_bid", 1, 1000), ("bet_limit", 1, 60),
                             ("sequence_start", 2, 12), ("clearing_pots", 0, 100), ("max_steps", 10, MAX_STEPS)):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise UsageError(f"option {name}: must be a whole number {lo}..{hi} (got {v!r})")
        for name, lo in (("auction_max_bid", self.auction_min_bid), ("max_raises", 0), ("deals_per_session", 1)):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < lo):
                raise UsageError(f"option {name}: must be a whole number >= {lo} or none (got {v!r})")
        if self.first_dealer != "random" and not (isinstance(self.first_dealer, int) and 0 <= self.first_dealer < 9):
            raise UsageError(f"option first_dealer: must be random or a seat number (got {self.first_dealer!r})")

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see the table in ``kernels/tripoli/``)."""
        if not 2 <= n_players <= K.MAX_PLAYERS:
            raise UsageError(f"tripoli takes 2 to {K.MAX_PLAYERS} players (got {n_players})")
        if self.first_dealer != "random" and self.first_dealer >= n_players:
            raise UsageError(f"option first_dealer: seat {self.first_dealer} does not exist with {n_players} players")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_PLAYERS] = n_players
        a[K.O_ANTE] = self.ante_per_space
        a[K.O_WIDOW] = self.widow_exchange
        a[K.O_WIDOW_LAST] = self.widow_dealt_last
        a[K.O_MIN_BID] = self.auction_min_bid
        a[K.O_MAX_BID] = K.BID_GUARD if self.auction_max_bid is None else self.auction_max_bid
        a[K.O_BID_GUARDED] = self.auction_max_bid is None
        a[K.O_TIMING] = self.payout_timing == "michigan" or self.pay_suit_auction
        a[K.O_SEQ_SPLIT] = SPLIT.index(self.sequence_split)
        a[K.O_PAY_SUIT] = SUITS.index(self.pay_suit)
        a[K.O_SEQ_START] = self.sequence_start - 2
        a[K.O_SUIT_AUCTION] = self.pay_suit_auction
        a[K.O_FIRST_BETTOR] = FIRST_BETTOR.index(self.poker_first_bettor)
        a[K.O_LIMIT] = self.bet_limit
        a[K.O_LIMIT_MODE] = LIMIT_MODE.index(self.bet_limit_mode)
        a[K.O_MAX_RAISES] = K.RAISE_GUARD if self.max_raises is None else self.max_raises
        a[K.O_RAISES_GUARDED] = self.max_raises is None
        a[K.O_LEADER] = LEADER.index(self.michigan_first_leader)
        a[K.O_FIRST_LOWEST] = self.first_lead_lowest_in_hand
        a[K.O_COLOR] = self.color_alternation or self.cosmo
        a[K.O_COSMO] = self.cosmo
        a[K.O_DEALS] = self.deals_per_session or n_players
        a[K.O_CLEARING] = self.clearing_pots
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        a[K.O_MAX_STEPS] = self.max_steps
        return a


PRESETS = {
    "seed": {},
    "rummoli": {"payout_timing": "michigan"},
    "suit_auction": {"pay_suit_auction": True},
    "cosmo": {"cosmo": True},
    "no_widow": {"widow_exchange": False},
    "sequence_678": {"sequence_start": 6, "sequence_split": "per_sequence"},
    "dealer_first": {"poker_first_bettor": "dealer", "michigan_first_leader": "dealer"},
    "lowest_lead": {"first_lead_lowest_in_hand": True, "michigan_first_leader": "left_of_dealer"},
    "colours": {"color_alternation": True},
    "total_limit": {"bet_limit_mode": "total", "max_raises": None, "bet_limit": 20},
    "long_session": {"deals_per_session": 12, "clearing_pots": 3, "widow_dealt_last": False,
                     "auction_max_bid": 50, "pay_suit": "spades", "ante_per_space": 2},
}
