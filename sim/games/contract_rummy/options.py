"""Contract Rummy's rule options (``ContractRummyOptions``: the ``--option`` names, their checks and
the kernel's option array) and its presets (§15.1: ``contract``, ``liverpool``, ``may_i``)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import melds_float as F
from cardsim.sim.errors import UsageError
from cardsim.sim.options import check_ranges, opt

DECK_RULE = ("two_decks", "one_per_two_players")
ROUNDING = ("ceil", "floor")
JOKER_RULE = ("players_minus_one", "two_per_deck")
MAYI_MODEL = ("out_of_turn_discard", "buy", "none")
PENALTY = ("always", "if_claimed")
D7_MODE = ("normal", "never")
JOKER_POSITION = ("floating", "fixed")
DEAD_STOCK = ("score_all", "void_deal")
CUT_RECIP = ("cutter", "deal_winner")
DEALS = K.DEALS
MAX_TURNS_PER_DEAL = 30_000      # d{d}_turns and d{d}_reshuffles are int16

_BOOLS = ("initial_meld_exact_size", "forbid_contiguous_runs", "joker_swap_allowed", "deal7_special",
          "may_i_no_consecutive", "oot_discarder_cooldown", "may_discard_taken_card",
          "go_out_requires_discard", "joker_swap_requires_prior_meld", "swapped_joker_may_be_discarded")


def _check_int(name, v, lo, hi=None):
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        bounds = f">= {lo}" if hi is None else f"{lo}..{hi}"
        raise UsageError(f"option {name}: must be a whole number {bounds} (got {v!r})")


@dataclass(frozen=True)
class ContractRummyOptions:
    """Rule options of ``docs/rules/contract_rummy.md`` (defaults = preset ``contract``).
    ``num_players`` (3..5) is the run's player count, not an option here."""
    deck_rule: str = opt("two_decks", "pack (§2): two_decks, or one_per_two_players (MAY_I)", DECK_RULE)
    mayi_deck_rounding: str = opt("ceil", "one_per_two_players with odd n: round up or down (A16)", ROUNDING)
    joker_rule: str = opt("players_minus_one", "jokers in the pack (§2): n-1, or 2 per deck", JOKER_RULE)
    joker_points: int = opt(15, "penalty of a joker (§3; MAY_I 25)", lo=0, hi=100)
    hand_sizes: tuple[int, ...] = opt((10, 10, 10, 12, 12, 12, 12), "cards dealt in deals 1..7 (§5)", lo=1, hi=30)
    initial_meld_exact_size: bool = opt(True, "contract melds of exactly 3 / 4 cards in deals 1-6 (§8; "
                                        "MAY_I false: 3+ / 4+)")
    forbid_contiguous_runs: bool = opt(True, "same-suit contract runs may not touch (§9)")
    joker_swap_allowed: bool = opt(True, "jokers may be swapped out of runs (§11; MAY_I false)")
    deal7_special: bool = opt(True, "deal 7: three runs of every card, going out, no discard (§13)")
    cut_bonus_points: int = opt(0, "LIVERPOOL exact-cut bonus taken off a total (§15.2; 50)", lo=-1000, hi=1000)
    cut_bonus_recipient: str = opt("cutter", "who gets the cut bonus (A17)", CUT_RECIP)
    cut_success_prob: float | str | None = opt(None, "probability of an exact cut (A18); none = 1/(N-1)")
    may_i_model: str = opt("out_of_turn_discard", "May-I model (§7.2, §7.4, A1)", MAYI_MODEL)
    take_discard_penalty: str = opt("always", "penalty card when taking the discard (A2)", PENALTY)
    may_i_limit_per_deal: int | None = opt(None, "penalty cards a player may take per deal (A6); none = no limit",
                                           lo=0, hi=1000)
    may_i_no_consecutive: bool = opt(True, "nobody obtains D_k and D_k+1 both with penalties (§7.3, A7)")
    oot_discarder_cooldown: bool = opt(False, "A7's other reading: no second out-of-turn play before every "
                                       "other seat has started a turn")
    may_discard_taken_card: bool = opt(False, "the card taken from the pile may be discarded (A9)")
    go_out_requires_discard: bool = opt(False, "going out needs a final discard (A10)")
    deal7_discard_mode: str = opt("normal", "discards in deal 7 (A11)", D7_MODE)
    joker_position: str = opt("floating", "jokers in runs (A19): floating (a joker stands for whatever card "
                              "the run needs), or fixed (it keeps the place given when laid)", JOKER_POSITION)
    min_naturals_per_meld: int = opt(1, f"naturals every meld needs (A20; 1..{F.MAX_MIN_NAT})", lo=1,
                                     hi=F.MAX_MIN_NAT)
    joker_swap_requires_prior_meld: bool = opt(True, "swaps only after the meld turn (A22)")
    swapped_joker_may_be_discarded: bool = opt(False, "a swapped joker may be kept for this turn's discard (A21)")
    dead_stock_rule: str = opt("score_all", "stock and pile exhausted (A26)", DEAD_STOCK)
    max_turns_per_deal: int = opt(1000, "turn cap per deal: ends like a dead stock, flags the game truncated",
                                  lo=1, hi=MAX_TURNS_PER_DEAL)
    tie_rule: str = opt("shared", "equal lowest totals (A27; one choice only)", ("shared",))
    first_dealer: str | int = opt("random", "dealer of deal 1: random or a seat number")

    def __post_init__(self):
        check_ranges(self)
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise UsageError(f"option {name}: must be true or false (got {getattr(self, name)!r})")
        for name, choices in (("deck_rule", DECK_RULE), ("mayi_deck_rounding", ROUNDING),
                              ("joker_rule", JOKER_RULE), ("may_i_model", MAYI_MODEL),
                              ("take_discard_penalty", PENALTY), ("deal7_discard_mode", D7_MODE),
                              ("dead_stock_rule", DEAD_STOCK), ("cut_bonus_recipient", CUT_RECIP),
                              ("joker_position", JOKER_POSITION), ("tie_rule", ("shared",))):
            if getattr(self, name) not in choices:
                raise UsageError(f"option {name}: must be one of {', '.join(choices)} "
                                 f"(got {getattr(self, name)!r})")
        _check_int("joker_points", self.joker_points, 0, 100)
        _check_int("cut_bonus_points", self.cut_bonus_points, -1000, 1000)
        _check_int("max_turns_per_deal", self.max_turns_per_deal, 1, MAX_TURNS_PER_DEAL)
        _check_int("min_naturals_per_meld", self.min_naturals_per_meld, 1, F.MAX_MIN_NAT)
        if self.may_i_limit_per_deal is not None:
            _check_int("may_i_limit_per_deal", self.may_i_limit_per_deal, 0, 1000)
        sizes = tuple(self.hand_sizes)
        if len(sizes) != DEALS:
            raise UsageError(f"option hand_sizes: need {DEALS} sizes (got {len(sizes)})")
        for h in sizes:
            _check_int("hand_sizes", h, 1, 30)
        object.__setattr__(self, "hand_sizes", sizes)
        p = self.cut_success_prob
        if isinstance(p, str):
            try:
                p = float(p)
            except ValueError:
                raise UsageError(f"option cut_success_prob: {p!r} is not a number") from None
        if p is not None and (isinstance(p, bool) or not 0.0 <= float(p) <= 1.0):
            raise UsageError(f"option cut_success_prob: must be 0..1 (got {p!r})")
        object.__setattr__(self, "cut_success_prob", None if p is None else float(p))

    # ---- pack --------------------------------------------------------------------
    def decks(self, n: int) -> int:
        if self.deck_rule == "two_decks":
            return 2
        return math.ceil(n / 2) if self.mayi_deck_rounding == "ceil" else max(1, n // 2)

    def jokers(self, n: int) -> int:
        return n - 1 if self.joker_rule == "players_minus_one" else 2 * self.decks(n)

    def pack_size(self, n: int) -> int:
        return 52 * self.decks(n) + self.jokers(n)

    def rules_array(self) -> np.ndarray:
        return F.make_float_rules(joker_points=self.joker_points, no_touch=self.forbid_contiguous_runs,
                                  min_naturals=self.min_naturals_per_meld,
                                  fixed=self.joker_position == "fixed")

    def contract_table(self) -> np.ndarray:
        return F.make_contract_table(exact=self.initial_meld_exact_size, deal7_all=self.deal7_special)

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see ``kernels/contract_rummy/``)."""
        if not 3 <= n_players <= K.MAX_PLAYERS:
            raise UsageError(f"contract_rummy takes 3 to {K.MAX_PLAYERS} players (got {n_players})")
        if self.first_dealer != "random" and (not isinstance(self.first_dealer, int)
                                              or not 0 <= self.first_dealer < n_players):
            raise UsageError(f"option first_dealer: random or a seat 0..{n_players - 1} (got {self.first_dealer!r})")
        pack = self.pack_size(n_players)
        if pack > K.MAX_PACK:
            raise UsageError(f"the pack has {pack} cards; at most {K.MAX_PACK} are supported")
        if n_players * max(self.hand_sizes) + 2 > pack:
            raise UsageError(f"hand_sizes: {n_players} x {max(self.hand_sizes)} cards do not fit a pack of {pack}")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_PLAYERS] = n_players
        a[K.O_DECKS] = self.decks(n_players)
        a[K.O_JOKERS] = self.jokers(n_players)
        a[K.O_PACK] = pack
        a[K.O_MAYI_MODEL] = MAYI_MODEL.index(self.may_i_model)
        a[K.O_PENALTY] = PENALTY.index(self.take_discard_penalty)
        a[K.O_MAYI_LIMIT] = -1 if self.may_i_limit_per_deal is None else self.may_i_limit_per_deal
        a[K.O_NO_CONSEC] = self.may_i_no_consecutive
        a[K.O_COOLDOWN] = self.oot_discarder_cooldown
        a[K.O_TAKEN_DISCARD] = self.may_discard_taken_card
        a[K.O_GO_OUT_DISCARD] = self.go_out_requires_discard
        a[K.O_D7_NO_DISCARD] = self.deal7_discard_mode == "never"
        a[K.O_SWAP] = self.joker_swap_allowed
        a[K.O_SWAP_PRIOR] = self.joker_swap_requires_prior_meld
        a[K.O_SWAP_DISCARD] = self.swapped_joker_may_be_discarded
        a[K.O_VOID_DEAD] = self.dead_stock_rule == "void_deal"
        a[K.O_MAX_TURNS] = self.max_turns_per_deal
        a[K.O_CUT_POINTS] = self.cut_bonus_points
        a[K.O_CUT_RECIP] = CUT_RECIP.index(self.cut_bonus_recipient)
        prob = 1.0 / (pack - 1) if self.cut_success_prob is None else self.cut_success_prob
        a[K.O_CUT_PPB] = round(prob * 1e9)
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        a[K.O_DEAL7_SPECIAL] = self.deal7_special
        for d, h in enumerate(self.hand_sizes, 1):
            a[K.O_HAND + d] = h
        a[K.O_RULES:K.O_RULES + F.RF_SIZE] = self.rules_array()
        a[K.O_CONTRACTS:K.O_SIZE].reshape(8, K.C_STRIDE)[:, :F.CF_SIZE] = self.contract_table()
        return a


MAY_I_PRESET = {
    "deck_rule": "one_per_two_players",
    "joker_rule": "two_per_deck",
    "joker_points": 25,
    "initial_meld_exact_size": False,
    "forbid_contiguous_runs": False,
    "joker_swap_allowed": False,
    "deal7_special": False,
}
PRESETS = {
    "contract": {},
    "liverpool": {"cut_bonus_points": 50},
    "may_i": MAY_I_PRESET,
}
