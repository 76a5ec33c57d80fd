"""Marafon's rule options (``docs/rules/marafon.md`` section C: one frozen dataclass, its option
array for the kernels) and the presets (named option sets)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.kernels import marafon as K
from cardsim.sim.errors import UsageError
from cardsim.sim.options import check_choice, check_ranges, opt

DECLARER = ("any_player", "battitore_only")
SECOND_DEALER = ("four_of_coins_holder", "rotate")
BOTH_REACH = ("extra_hand_cumulative", "extra_hand_points", "higher_total")
CLAIM_TIMING = ("trick_boundaries", "every_card")


@dataclass(frozen=True)
class MarafonOptions:
    """Rule options of ``docs/rules/marafon.md`` section C (defaults = the seed's rules)."""
    marafona_trump_only: bool = opt(True, "only the 3-2-A of trumps is a marafona (C1); false: any suit")
    marafona_declarer: str = opt("any_player", "who may declare the marafona (C2)", DECLARER)
    marafona_auto_declare: bool = opt(True, "the engine declares every marafona (C3); false: the strategy decides")
    marafona_points: int = opt(3, "bonus points of a marafona (C4)", lo=0, hi=20)
    first_dealer: str | int = opt("random", "first dealer: random or a seat number 0..3 (C5)")
    second_dealer: str = opt("four_of_coins_holder", "dealer of hand 2 (C6); later the deal passes right",
                             SECOND_DEALER)
    both_reach_target: str = opt("extra_hand_cumulative", "both sides reach the target in one hand (C7)",
                                 BOTH_REACH)
    target_thirds: int = opt(123, "target in thirds (C8): 123 = 41, 93 = 31, 94 = 31 1/3", lo=1, hi=3000)
    claim_timing: str = opt("trick_boundaries", "claim windows (C9)", CLAIM_TIMING)
    claims_enabled: bool = opt(True, "players may claim the game (C11)")
    allow_lead_signals: bool = opt(False, "reserved by the rules (C13); no semantics: only false")
    games_per_match: int = opt(1, "games in a match (C14): 1, or 3 = best of three (a record is a match)",
                               lo=1, hi=99)
    max_hands: int = opt(60, "hand cap per game (not in the rules; flagged truncated)", lo=1, hi=10_000)

    def __post_init__(self):
        check_ranges(self)
        check_choice("marafona_declarer", self.marafona_declarer, DECLARER)
        check_choice("second_dealer", self.second_dealer, SECOND_DEALER)
        check_choice("both_reach_target", self.both_reach_target, BOTH_REACH)
        check_choice("claim_timing", self.claim_timing, CLAIM_TIMING)
        if self.allow_lead_signals:
            raise UsageError("option allow_lead_signals: reserved by the rules without semantics; only false")
        if not isinstance(self.marafona_points, int) or not 0 <= self.marafona_points <= 20:
            raise UsageError(f"option marafona_points: must be 0..20 (got {self.marafona_points!r})")
        if not isinstance(self.target_thirds, int) or not 1 <= self.target_thirds <= 3000:
            raise UsageError(f"option target_thirds: must be 1..3000 (got {self.target_thirds!r})")
        for name, hi in (("games_per_match", 99), ("max_hands", 10_000)):
            v = getattr(self, name)
            if not isinstance(v, int) or not 1 <= v <= hi:
                raise UsageError(f"option {name}: must be a whole number 1..{hi} (got {v!r})")
        if self.first_dealer != "random" and not (isinstance(self.first_dealer, int) and 0 <= self.first_dealer < 4):
            raise UsageError(f"option first_dealer: must be random or a seat number 0..3 (got {self.first_dealer!r})")

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see the table in ``kernels/marafon/``)."""
        if n_players != 4:
            raise UsageError(f"marafon takes 4 players (got {n_players})")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_TRUMP_ONLY] = self.marafona_trump_only
        a[K.O_DECLARER] = DECLARER.index(self.marafona_declarer)
        a[K.O_AUTO_DECLARE] = self.marafona_auto_declare
        a[K.O_MARAF_POINTS] = self.marafona_points
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        a[K.O_SECOND_DEALER] = SECOND_DEALER.index(self.second_dealer)
        a[K.O_BOTH_REACH] = BOTH_REACH.index(self.both_reach_target)
        a[K.O_TARGET] = self.target_thirds
        a[K.O_CLAIM_TIMING] = CLAIM_TIMING.index(self.claim_timing)
        a[K.O_CLAIMS] = self.claims_enabled
        a[K.O_GAMES] = self.games_per_match
        a[K.O_MAX_HANDS] = self.max_hands
        return a


PRESETS = {
    "seed": {},
    "target31": {"target_thirds": 93},
    "target31_third": {"target_thirds": 94},
    "italian": {"marafona_declarer": "battitore_only", "marafona_auto_declare": False,
                "both_reach_target": "extra_hand_points"},
    "best_of_three": {"games_per_match": 3},
    "no_claims": {"claims_enabled": False, "both_reach_target": "higher_total"},
    "any_cricca": {"marafona_trump_only": False, "claim_timing": "every_card", "second_dealer": "rotate"},
}
