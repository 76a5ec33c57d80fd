"""Tonk's rule options (``docs/rules/tonk.md``: one frozen dataclass, its option array for the
kernels) and the presets (named option sets)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.kernels import tonk as K
from cardsim.sim.errors import UsageError
from cardsim.sim.options import check_choice, check_ranges, opt

MAX_STAKE = 1_000_000     # |payout| <= 3 (n - 1) x stake = 9,000,000: int32 columns
MAX_TURNS = 10_000        # turns (int16) and the replay trace stay small
CAUGHT_BONUS = ("all_others", "above_knocker_only", "none")
DRY_TIE = ("each_tied_collects", "void")


@dataclass(frozen=True)
class TonkOptions:
    """Rule options of ``docs/rules/tonk.md`` (defaults = the seed's rules)."""
    initial_upcard: bool = opt(True, "turn the first discard up at the deal (3.1)")
    deal_tonk_totals: tuple[int, ...] = opt((49, 50), "dealt totals that win 2S at once (3.2): 49,50 or 50")
    tonk_tie_redeal_same_dealer: bool = opt(False, "after two or more deal-tonks the same dealer redeals (3.3)")
    hit_own_spreads_only: bool = opt(False, "a player may hit only his own spreads (4)")
    allow_rediscard_of_taken_card: bool = opt(False, "the card just taken from the pile may be discarded again (5)")
    tonk_out_requires_new_spread: bool = opt(False, "going out by hits alone pays S, not 2S (6.1)")
    caught_lowest_bonus: str = opt("all_others", "who else pays the real lowest when a knocker is caught (6.3)",
                                   CAUGHT_BONUS)
    caught_knocker_also_pays_base: bool = opt(False, "a caught knocker also pays S to each real lowest (6.3)")
    dry_tie_rule: str = opt("each_tied_collects", "ties for lowest when the stock runs dry (6.4)", DRY_TIE)
    max_turns_after_stock_empty: int | None = opt(None, "dry loop guard in turns (6.4); none = 10 x players",
                                                  lo=1, hi=MAX_TURNS)
    must_spread: bool = opt(False, "a player may not keep a spread in hand (8.2)")
    three_aces_exception: bool = opt(True, "under must_spread, aces-only books may be kept (8.2)")
    hit_blocks_drop: bool = opt(False, "a player whose spread was hit may not knock at his next turn (8.4)")
    max_hits_per_turn: int | None = opt(None, "cap on hits per turn (8.5); none = unlimited", lo=0, hi=52)
    discard_pickup_must_be_used: bool = opt(False, "a card taken from the pile must be used that turn (8.6)")
    first_dealer: str | int = opt("random", "first dealer: random (from the seed) or a seat number (2)")
    stake: int = opt(1, "base stake S in chips (1)", lo=1, hi=MAX_STAKE)
    max_turns: int = opt(1000, "hard cap on turns in a hand (settled as dry, flagged truncated)", lo=1, hi=MAX_TURNS)

    def __post_init__(self):
        check_ranges(self)
        if not self.deal_tonk_totals or not set(self.deal_tonk_totals) <= {49, 50}:
            raise UsageError("option deal_tonk_totals: must be 49,50 or 50 or 49 "
                             f"(got {','.join(map(str, self.deal_tonk_totals)) or 'nothing'})")
        object.__setattr__(self, "deal_tonk_totals", tuple(sorted(set(self.deal_tonk_totals))))
        check_choice("caught_lowest_bonus", self.caught_lowest_bonus, CAUGHT_BONUS)
        check_choice("dry_tie_rule", self.dry_tie_rule, DRY_TIE)
        for name in ("max_turns_after_stock_empty", "max_turns", "stake"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 1):
                raise UsageError(f"option {name}: must be a whole number >= 1 (got {v!r})")
        if self.max_hits_per_turn is not None and self.max_hits_per_turn < 0:
            raise UsageError(f"option max_hits_per_turn: must be >= 0 or none (got {self.max_hits_per_turn})")
        if self.first_dealer != "random" and not (isinstance(self.first_dealer, int) and 0 <= self.first_dealer < 4):
            raise UsageError(f"option first_dealer: must be random or a seat number 0..3 (got {self.first_dealer!r})")

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see the table in ``kernels/tonk/``)."""
        if self.first_dealer != "random" and self.first_dealer >= n_players:
            raise UsageError(f"option first_dealer: seat {self.first_dealer} does not exist with {n_players} players")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_PLAYERS] = n_players
        a[K.O_INITIAL_UPCARD] = self.initial_upcard
        a[K.O_DT49] = 49 in self.deal_tonk_totals
        a[K.O_DT50] = 50 in self.deal_tonk_totals
        a[K.O_TIE_SAME_DEALER] = self.tonk_tie_redeal_same_dealer
        a[K.O_HIT_OWN_ONLY] = self.hit_own_spreads_only
        a[K.O_REDISCARD] = self.allow_rediscard_of_taken_card
        a[K.O_TONK_NEW_SPREAD] = self.tonk_out_requires_new_spread
        a[K.O_CAUGHT_BONUS] = CAUGHT_BONUS.index(self.caught_lowest_bonus)
        a[K.O_CAUGHT_PAYS_BASE] = self.caught_knocker_also_pays_base
        a[K.O_DRY_TIE] = DRY_TIE.index(self.dry_tie_rule)
        a[K.O_DRY_CAP] = self.max_turns_after_stock_empty or 10 * n_players
        a[K.O_MUST_SPREAD] = self.must_spread
        a[K.O_ACES_EXC] = self.three_aces_exception
        a[K.O_HIT_BLOCKS] = self.hit_blocks_drop
        a[K.O_MAX_HITS] = -1 if self.max_hits_per_turn is None else self.max_hits_per_turn
        a[K.O_PICKUP_USE] = self.discard_pickup_must_be_used
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        a[K.O_STAKE] = self.stake
        a[K.O_MAX_TURNS] = self.max_turns
        return a


PRESETS = {
    "seed": {},
    "english": {"deal_tonk_totals": (50,), "caught_lowest_bonus": "none"},
    "seed_variants": {"initial_upcard": False, "must_spread": True, "tonk_out_requires_new_spread": True},
    "house": {"hit_blocks_drop": True, "max_hits_per_turn": 1, "discard_pickup_must_be_used": True},
}
