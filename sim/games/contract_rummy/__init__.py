"""Contract Rummy (presets ``contract``, ``liverpool``, ``may_i``) on the Python side: options,
presets, strategies, records and trace formatting.

Rules source: ``docs/rules/contract_rummy.md`` (RULES_VERSION = ``kernels.contract_rummy.
RULES_VERSION``). One record row is one **game** of seven deals. ``payout_{p}`` is seat p's
*score*: minus its final total of penalty points (higher is better; a LIVERPOOL cut bonus can
lift it above 0). ``winner`` is the seat with the unique lowest total (-1 when shared, §14);
``winners`` the bit mask of every seat with the lowest total. Score range per deal and seat:
0 .. the penalty of the holding (jokers 15, MAY_I 25).

Options (``--option NAME=VALUE``; §15 and §18 of the rules; presets are §15.1):

| option | contract | liverpool | may_i |
|---|---|---|---|
| deck_rule | two_decks | two_decks | one_per_two_players |
| joker_rule | players_minus_one | players_minus_one | two_per_deck |
| joker_points | 15 | 15 | 25 |
| initial_meld_exact_size | true | true | false |
| forbid_contiguous_runs | true | true | false |
| joker_swap_allowed | true | true | false |
| deal7_special | true | true | false |
| cut_bonus_points | 0 | 50 | 0 |

and, the same in every preset: mayi_deck_rounding (ceil), hand_sizes (10,10,10,12,12,12,12),
may_i_model (out_of_turn_discard / buy / none), take_discard_penalty (always / if_claimed),
may_i_limit_per_deal (none), may_i_no_consecutive (true), oot_discarder_cooldown (false),
may_discard_taken_card (false), go_out_requires_discard (false), deal7_discard_mode (normal /
never), joker_position (floating / fixed), min_naturals_per_meld (1; 1..3),
joker_swap_requires_prior_meld (true), swapped_joker_may_be_discarded (false),
dead_stock_rule (score_all / void_deal), cut_bonus_recipient (cutter / deal_winner),
cut_success_prob (none = 1/(N-1) for a pack of N), max_turns_per_deal (1000), tie_rule
(shared; the only choice), first_dealer (random or a seat). How the engine reads each
option where the spec leaves room is in the docstring of ``kernels/contract_rummy/``.

Plug-in strategies (issue 17): ``--strategy file.py:NAME`` seats a ``cardsim.plugin.Strategy``;
its decision kinds, view and legal codes are ``cardsim.contract_rummy``'s (example:
``examples/contract_rummy_mayi_limit.py``).

Replays: ``trace_events`` gives the game as ``sim.trace`` events (its docstring lists the
actions, fields and ``state`` keys); ``format_trace`` is their text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.cards import RANK_NAMES, SUIT_NAMES
from cardsim.sim.errors import UsageError
from cardsim.sim.games.contract_rummy.tools import TOOLS
from cardsim.sim.notation import fmt_card
from cardsim.sim.options import check_ranges, opt
from cardsim.sim.spec import (
    Column,
    GameSpec,
    ParamSpec,
    StrategySpec,
    kernel_fields,
    penalty_game_columns,
    plugin_fields,
    record_fields,
    search_strategy,
    tuned,
    with_defaults,
)
from cardsim.sim.trace import event, lines

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
TRACE_ROWS_CAP = 2_000_000
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

def _params(**defaults) -> tuple[ParamSpec, ...]:
    """The parameter row every strategy but random reads (kernel order ``P_*``), with this
    strategy's defaults."""
    d = {"max_mayi": 99.0, "near": 99.0, "volunteer": 1.0, "danger": 0.0, "far": 0.0, "layoff_target": 1.0,
         "joker_target": 1.0, "meld_jokers": 1.0, "vol_points": 0.0, "noise": 0.0, "swap": 1.0, "meld_pick": 0.0,
         **defaults}
    return (
        ParamSpec("max_mayi", d["max_mayi"], 0.0, 99.0, "May-I's (penalty cards) the seat allows itself per "
                  "deal (99 = no limit)", integer=True, slot="P_MAX"),
        ParamSpec("near", d["near"], 0.0, 99.0, "take a discard with a penalty only if at most this many cards "
                  "are still missing for the contract afterwards", integer=True, slot="P_NEAR"),
        ParamSpec("volunteer", d["volunteer"], 0.0, 1.0, "1 = accept out-of-turn plays (free under "
                  "out_of_turn_discard)", integer=True, slot="P_VOL"),
        ParamSpec("danger", d["danger"], 0.0, 30.0, "cautious: an opponent who has melded and holds at most this "
                  "many cards is about to go out (0 = never)", integer=True, slot="P_DANGER"),
        ParamSpec("far", d["far"], 0.0, 30.0, "cautious: defend only while at least this many cards are still "
                  "missing for the own contract (always once down)", integer=True, slot="P_FAR"),
        ParamSpec("layoff_target", d["layoff_target"], 0.0, 1.0, "a card that fits several melds goes on: 0 the "
                  "first in table order, 1 the one after which most held cards fit somewhere", integer=True, slot="P_LAYOFF"),
        ParamSpec("joker_target", d["joker_target"], 0.0, 2.0, "a joker laid off or freed by a swap goes: 0 on "
                  "the first meld that takes it, 1 where it lets a held card follow, else on a set (dead: "
                  "nobody reuses it), 2 the same but on a run (it floats) before a set", integer=True, slot="P_JOKER"),
        ParamSpec("meld_jokers", d["meld_jokers"], 0.0, 1.0, "larger first melds (MAY_I): 1 = every joker held "
                  "goes into the meld (a run first), 0 = the fewest jokers the meld needs", integer=True, slot="P_MELD_JK"),
        ParamSpec("vol_points", d["vol_points"], 0.0, 500.0, "volunteer for an out-of-turn play only with a "
                  "holding worth at least this many points (0 = always)", slot="P_VOL_PTS"),
        ParamSpec("noise", d["noise"], 0.0, 1.0, "probability that a decision is random (a fair coin, a random "
                  "discard): the fuzzer's knob", slot="P_NOISE"),
        ParamSpec("swap", d["swap"], 0.0, 1.0, "1 = swap naturals for table jokers when it sheds a card",
                  integer=True, slot="P_SWAP"),
        ParamSpec("meld_pick", d["meld_pick"], 0.0, 1.0, "which contract meld (exact contracts): 0 = the "
                  "engine's (most natural points laid, fewest jokers), 1 = of the melds the holding allows, the "
                  "one after which most of the cards left can be laid off", integer=True, slot="P_MELD"),
    )


STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (), "fair coin at every yes/no decision, uniformly random legal "
                 "discard (baseline); lays the engine's best contract meld when it melds, lay-offs, "
                 "swapped jokers on the first meld that takes them"),
    StrategySpec("greedy", K.S_GREEDY, _params(),
                 "melds as soon as it can (most natural points laid, fewest jokers; MAY_I: every joker "
                 "held goes in), lays off and swaps everything it can (to a fixed point: a run grows "
                 "downwards too), takes any discard that brings it closer to its contract (May-I's "
                 "unlimited), volunteers for every out-of-turn play, discards the card that helps its "
                 "contract least (highest points first; a rank's copies past three help nothing)"),
    StrategySpec("mayi", K.S_MAYI, _params(max_mayi=2.0, near=3.0),
                 "greedy with a May-I policy: at most max_mayi penalty cards per deal, only for a card "
                 "that leaves at most near cards missing, out-of-turn plays if volunteer"),
    StrategySpec("cautious", K.S_CAUTIOUS, _params(danger=3.0, far=3.0),
                 "greedy plus a defence: when an opponent who has melded holds at most danger cards and "
                 "the seat is still at least far cards short of its contract, it takes no penalty cards "
                 "and sheds its highest-scoring cards first (once down it sheds the highest cards that "
                 "cannot be laid off, as greedy does)"),
    StrategySpec("fuzz", K.S_FUZZ, _params(noise=0.25),
                 "the fuzzer: greedy, but each decision (take, volunteer, meld, lay off, swap, discard) "
                 "is random with probability noise; reaches every action and end reason"),
]


# ---- records ---------------------------------------------------------------------------
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


# ---- traces ------------------------------------------------------------------------------
# ``trace_events`` reads the kernel trace (rows code, seat, a, b, c, d: see the T_* codes in
# kernels/contract_rummy/) into sim.trace events. It keeps its own copy of the table (each
# meld as the kernel logged it, updated by every lay-off and swap with the windows the kernel
# logs), so that every meld can be shown card by card.
def _card(c: int) -> str:
    return "JK" if c == K.JK else fmt_card(int(c))


class _TableMeld:
    """A meld on the table as the trace shows it: a set (rank ``key``, copies per suit, jokers)
    or a run (suit ``key``, non-ace positions, aces, jokers, window lo..hi)."""

    def __init__(self, packed: int, p1: int):
        self.kind = packed & 3
        self.key = (packed >> 2) & 63
        self.jokers = (packed >> 8) & 255
        self.p2 = (packed >> 16) & 255
        self.lo = (packed >> 24) & 255
        self.hi = (packed >> 32) & 255
        self.p1 = p1

    def add(self, c: int) -> None:
        if c == K.JK:
            self.jokers += 1
        elif self.kind == M.MK_GROUP:
            self.p1 += 1 << (4 * (c // 13))
            self.p2 += 1
        elif c % 13 == 0:
            self.p2 += 1
        else:
            self.p1 |= 1 << (c % 13 + 1)

    def window(self, w: int) -> None:
        if self.kind == M.MK_RUN:
            self.lo, self.hi = w & 255, (w >> 8) & 255

    def cards(self) -> list[str]:
        """The meld in table order, each joker as the card it stands for: a run's window
        position; in a set, the suits the set lacks first (C, D, H, S), then C, D, H, S again."""
        rank = RANK_NAMES
        if self.kind == M.MK_GROUP:
            counts = [(self.p1 >> (4 * s)) & 15 for s in range(4)]
            out = [rank[self.key] + SUIT_NAMES[s] for s in range(4) for _ in range(counts[s])]
            suits = [s for s in range(4) if counts[s] == 0] + [0, 1, 2, 3] * self.jokers
            return out + [f"JK({rank[self.key]}{SUIT_NAMES[suits[i]]})" for i in range(self.jokers)]
        aces = self.p2
        out = []
        for p in range(self.lo, self.hi + 1):
            name = rank[(p - 1) % 13] + SUIT_NAMES[self.key]
            if p in (1, 14):
                natural = aces > 0
                aces -= natural
            else:
                natural = bool(self.p1 >> p & 1)
            out.append(name if natural else f"JK({name})")
        return out


def _text(cards: list[str]) -> str:
    return " ".join(cards)


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The replayed game as sim.trace events, in the order things happen.

    Actions: ``hand`` (a deal starts: ``deal``, ``dealer``, ``cut``), ``deal`` (a seat's
    dealt cards), ``upcard``, ``draw`` (``out_of_turn`` true for an out-of-turn play's draw),
    ``take discard``, ``penalty card`` (the May-I penalty card), ``may i`` (a seat volunteers
    to discard out of turn), ``buy`` (under may_i_model = buy; its penalty card follows),
    ``meld`` (the contract meld: ``melds``, ``ids`` their table indices), ``lay off``
    (``target``, ``meld_id``), ``swap`` (``cards`` = the natural put in, ``target`` = the
    run before, ``meld_id``; ``joker``: ``laid`` on ``joker_target`` (that meld before,
    ``joker_meld_id``), ``kept`` for this turn's discard, or ``meld``: into the contract meld
    that follows), ``discard`` (``out_of_turn``), ``reshuffle``, ``end`` (``reason``,
    ``out``), ``score`` (``penalty``, ``total``: after the deal, ``points``: the holding's
    points, also for the seat out and in a void deal), ``result`` (``total``, ``mayi``,
    ``oot`` of the game).

    Cards: ``"7C"``, ``"JK"`` in a hand; on the table a joker is ``"JK(8D)"``, the card it
    stands for: in a run, its position in the run's window (the assignment the engine keeps:
    the contract search's window, moved by the fewest positions at each lay-off or swap; under
    joker_position = fixed the places never move); in a set, the suits the set lacks first.

    ``state`` (every event but ``result``), after the event: ``held`` (cards held per seat),
    ``stock`` (cards in the stock), ``pile`` (cards in the discard pile).
    """
    n = int(st[K.N])
    names = list(seat_names)
    held = [0] * n
    stock = pile = 0
    table: dict[int, _TableMeld] = {}
    events: list[dict] = []
    rows = [tuple(int(x) for x in r) for r in trace[: int(st[K.TR_LEN])]]

    def who(p: int) -> str:
        return f"seat {p} ({names[p]})" if 0 <= p < len(names) else f"seat {p}"

    def sizes(p: int, d: int) -> dict:
        nonlocal stock, pile
        if 0 <= p < n:
            held[p] = d & 255
        stock, pile = (d >> 8) & 255, d >> 16
        return {"held": list(held), "stock": stock, "pile": pile}

    def out_note(p: int) -> str:
        return " and goes out" if 0 <= p < n and held[p] == 0 else ""

    i = 0
    while i < len(rows):
        code, p, a, b, c, d = rows[i]
        i += 1
        if code == K.T_DEAL:
            table.clear()
            held[:] = [0] * n
            events.append(event("hand", f"== deal {a}: dealer seat {b}" + (", exact cut" if c else ""),
                                deal=a, dealer=b, cut=bool(c), state=sizes(-1, d)))
        elif code == K.T_HOLD:
            cards = [_card(a)] * b
            while i < len(rows) and rows[i][0] == K.T_HOLD and rows[i][1] == p:
                cards += [_card(rows[i][2])] * rows[i][3]
                d = rows[i][5]
                i += 1
            held[p] = len(cards)                # the stock as if the seats were dealt in turn
            stock -= len(cards)
            events.append(event("deal", f"   {who(p)} is dealt {_text(cards)}", p, cards=cards,
                                state={"held": list(held), "stock": stock, "pile": pile}))
        elif code == K.T_UPCARD:
            events.append(event("upcard", f"up-card {_card(a)}", cards=[_card(a)], state=sizes(-1, d)))
        elif code == K.T_DRAW:
            events.append(event("draw", f"   {who(p)} draws {_card(a)}", p, cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_OOT:
            events.append(event("draw", f"   {who(p)} draws {_card(a)} out of turn", p, cards=[_card(a)],
                                out_of_turn=True, state=sizes(p, d)))
        elif code == K.T_TAKE:
            events.append(event("take discard", f"   {who(p)} takes the discard {_card(a)}", p,
                                cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_PENALTY:
            events.append(event("penalty card", f"   {who(p)} takes the penalty card {_card(a)}", p,
                                cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_VOLUNTEER:
            events.append(event("may i", f"   {who(p)} will discard out of turn (May I)", p, state=sizes(p, d)))
        elif code == K.T_BUY:
            events.append(event("buy", f"   {who(p)} buys {_card(a)}", p, cards=[_card(a)], state=sizes(p, d)))
        elif code == K.T_MELD:
            ids, melds = [], []
            while True:
                table[a] = _TableMeld(b, c)
                ids.append(a)
                melds.append(table[a].cards())
                if not (i < len(rows) and rows[i][0] == K.T_MELD and rows[i][1] == p):
                    break
                _, p, a, b, c, d = rows[i]
                i += 1
            state = sizes(p, d)
            events.append(event("meld", f"   {who(p)} melds {' + '.join(_text(m) for m in melds)}{out_note(p)}", p,
                                cards=[x for m in melds for x in m], melds=melds, ids=ids, state=state))
        elif code == K.T_LAYOFF:
            meld = table[b]
            before = meld.cards()
            meld.add(a)
            meld.window(c)
            state = sizes(p, d)
            events.append(event("lay off", f"   {who(p)} lays off {_card(a)} on {_text(before)}{out_note(p)}", p,
                                cards=[_card(a)], target=before, meld_id=b, state=state))
        elif code == K.T_SWAP:
            run = table[b]
            before = run.cards()
            run.add(a)
            run.jokers -= 1
            run.window((c >> 8) & 0xFFFF)           # after the swap, before the joker is laid
            t = (c & 255) - 2
            fields = {}
            if t >= 0:
                fields["joker_target"] = table[t].cards()
                fields["joker_meld_id"] = t
                table[t].add(K.JK)
                table[t].window((c >> 24) & 0xFFFF)
                tail = f"; the joker goes on {_text(fields['joker_target'])}"
                fields["joker"] = "laid"
            elif t == K.SWAP_KEPT:
                tail, fields["joker"] = "; keeps the joker to discard it", "kept"
            else:
                tail, fields["joker"] = "; the joker goes into the meld", "meld"
            events.append(event("swap", f"   {who(p)} swaps {_card(a)} for the joker of {_text(before)}{tail}", p,
                                cards=[_card(a)], target=before, meld_id=b, state=sizes(p, d), **fields))
        elif code == K.T_DISCARD:
            state = sizes(p, d)
            note = " out of turn" if b else out_note(p)
            events.append(event("discard", f"   {who(p)} discards {_card(a)}{note}", p, cards=[_card(a)],
                                out_of_turn=bool(b), state=state))
        elif code == K.T_RESHUFFLE:
            events.append(event("reshuffle", f"reshuffle: {a} cards in the new stock", state=sizes(-1, d)))
        elif code == K.T_END:
            events.append(event("end", f"end of deal: {K.DEAL_REASONS[a]}" + (f", seat {b} went out" if b >= 0 else ""),
                                reason=K.DEAL_REASONS[a], out=b, state={"held": list(held), "stock": stock,
                                                                        "pile": pile}))
        elif code == K.T_SCORE:
            events.append(event("score", f"  {who(p)}: penalty {a}, total {b}", p, penalty=a, total=b, points=c,
                                state={"held": list(held), "stock": stock, "pile": pile}))
    if int(st[K.TR_LEN]) >= len(trace):
        events.append(event("truncated", "(the trace buffer is full: the rest of the game is not shown)"))
    for p in range(n):
        events.append(event("result", f"  seat {p}: total {int(st[K.TOTAL + p])} May-I's {int(st[K.GMAYI + p])} "
                                      f"out-of-turn plays {int(st[K.GOOT + p])}", p, total=int(st[K.TOTAL + p]),
                            mayi=int(st[K.GMAYI + p]), oot=int(st[K.GOOT + p])))
    return events


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed game: the text of ``trace_events``."""
    return lines(trace_events(trace, st, seat_names))


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


def _replay(seed, game_id, opts, sids, params, check, plug=None, pprm=None):
    rows = min(TRACE_ROWS_CAP, DEALS * (int(opts[K.O_MAX_TURNS]) * 12 + 600))
    trace = np.zeros((rows, 6), dtype=np.int64)
    st = K.replay_game(seed, game_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


# ---- critique (issue 40) -------------------------------------------------------------------
def _contract_text(opts: np.ndarray, d: int) -> str:
    """Deal d's contract in words: its sets and runs, exact sizes, every card."""
    spec = opts[K.O_CONTRACTS + d * K.C_STRIDE:K.O_CONTRACTS + d * K.C_STRIDE + F.CF_SIZE]
    sets, runs = int(spec[M.C_GROUPS]), int(spec[M.C_RUNS])
    size = "exactly {}" if spec[M.C_GROUP_EXACT] else "{}+"
    parts = [f"{x} {w}{'s' if x != 1 else ''} of {size.format(k)}" for x, w, k in ((sets, "set", 3), (runs, "run", 4))
             if x]
    return " and ".join(parts) + (", every card" if spec[F.CF_ALL] else "")


def _cards(counts) -> str:
    return " ".join(_card(c) for c in range(K.HOLD) for _ in range(int(counts[c]))) or "-"


def _position(snap: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued question (``cardsim critique``'s worst positions): the
    snapshot is the kernel state and the table (``K.SEG_W``: state, then ``MAX_MELDS`` rows of
    ``TW``). Its own hand, the contract, the discard pile, the melds on the table, and per seat
    the cards held, whether it is down, its May-I's, its total before the deal and the cards it
    is publicly known to hold. Nothing hidden from it."""
    st = np.asarray(snap[:K.ST_SIZE], dtype=np.int64)
    tab = np.asarray(snap[K.ST_SIZE:K.SEG_W], dtype=np.int64).reshape(K.MAX_MELDS, K.TW)
    n, d = int(st[K.N]), int(st[K.DEAL])
    rules = opts[K.O_RULES:K.O_RULES + F.RF_SIZE]
    hand = st[K.HAND + K.HOLD * seat:K.HAND + K.HOLD * (seat + 1)].copy()
    pile = [int(st[K.PILE + i]) & 63 for i in range(int(st[K.PILE_LEN]))]
    out = [(f"seat {seat}, deal {d} (contract: {_contract_text(opts, d)}), dealer seat {int(st[K.DEALER])}, seat "
            f"{int(st[K.CUR])}'s turn, turn {int(st[K.TURN])}, stock {int(st[K.STOCK_HI] - st[K.STOCK_LO])} cards"),
           f"hand: {_cards(hand)}  [{int(F.hold_points(hand, rules))} points]"
           + (", down" if st[K.DOWN + seat] else "") + f", May-I's {int(st[K.MAYI + seat])}, total "
           f"{int(st[K.TOTAL + seat])}",
           "discard pile (top last): " + (" ".join(_card(c) for c in pile[-8:]) or "empty")
           + (f"  (+{len(pile) - 8} below)" if len(pile) > 8 else "")]
    if int(st[K.CUR]) == seat and st[K.TAKEN] >= 0:
        out.append(f"taken from the pile this turn: {_card(int(st[K.TAKEN]))} (not to be discarded)")
    if int(st[K.CUR]) == seat and st[K.JOKER_DUE] > 0:
        out.append(f"swapped jokers kept for this turn's discard: {int(st[K.JOKER_DUE])}")
    for i in range(int(st[K.NMELDS])):
        cards = _TableMeld(int(K.pack_row(tab[i])), int(tab[i, M.M_P1])).cards()
        out.append(f"meld {i} (seat {int(tab[i, K.T_OWNER])}): {_text(cards)}")
    for q in range(n):
        if q == seat:
            continue
        known = st[K.KNOWN + K.HOLD * q:K.KNOWN + K.HOLD * (q + 1)]
        out.append(f"seat {q}: {int(st[K.HSIZE + q])} cards" + (", down" if st[K.DOWN + q] else "")
                   + f", May-I's {int(st[K.MAYI + q])}, total {int(st[K.TOTAL + q])}"
                   + (f", known to hold {_cards(known)}" if known.sum() else ""))
    return out


def action_text(kind: int, code: int, card: int = -1, meld: int = -1) -> str:
    """A decision's answer in words."""
    if kind == K.K_DRAW:
        return "take the discard" if code else "draw from the stock"
    if kind == K.K_BUY:
        return "buy the discard" if code else "do not buy"
    if kind == K.K_VOLUNTEER:
        return "play out of turn" if code else "do not play out of turn"
    if kind == K.K_SWAP:
        what = f" {_card(card)} for the joker of meld {meld}" if card >= 0 else ""
        return f"swap{what}" if code else f"do not swap{what}"
    if kind == K.K_MELD:
        return ("do not meld", "lay the engine's meld", "lay the plain best meld")[code] if code < 3 else \
            f"meld every card but {_card(code - 3)}"
    if kind == K.K_MELD_JOKERS:
        return f"put {code} more joker(s) into the meld"
    if kind in (K.K_JOKER, K.K_LAYOFF):
        what = _card(card) if kind == K.K_LAYOFF and card >= 0 else "the joker"
        return f"keep {what}" if code == 0 else f"lay {what} on meld {code - 1}"
    return f"discard {_card(code)}"


def _action_text(a: int) -> str:
    """A critique action code (``K.pack_act``) in words (the step API's texts)."""
    kind, code = a & 15, (a >> 4) & 255
    card, meld, info = ((a >> 12) & 255) - 1, ((a >> 20) & 255) - 1, (a >> 28) & 1
    text = action_text(kind, code, card, meld)
    if kind in (K.K_DRAW, K.K_BUY) and code == 1 and card >= 0:
        text += f" ({_card(card)})"
    if kind == K.K_DISCARD and info:
        text += " out of turn"
    if kind == K.K_SWAP and info:
        text += " (the joker goes into the contract meld)"
    return text


CRITIQUE = {
    "run": K.critique,
    "max_rows": lambda opts, n: min(1024, 64 + 8 * DEALS * int(opts[K.O_MAX_TURNS]) // n),
    "max_acts": K.MAX_LEGAL,
    "state_size": K.SEG_W,                  # the state, then the table (the melds)
    "trace": lambda opts: np.zeros((min(TRACE_ROWS_CAP, DEALS * (int(opts[K.O_MAX_TURNS]) * 12 + 600)), 6),
                                   dtype=np.int64),
    "phase": ("deal", "the deal of the game (1..7: its contract)"),
    "detail": ("held", "cards the seat holds at the decision"),
    "action_text": lambda a: _action_text(int(a)),
    "position": _position,
    "value": "points: the others' mean penalty of the deal less the seat's own (the search's deal_value), each "
             "answer played out to the end of the deal",
    "worlds": 32,                           # the search's own default
}


# issue 41: the expert is cautious (issue 16's strong point by default) with its distance to the
# contract counting each card once (kernels/contract_rummy/ ``contract_need``'s ``exact``:
# cautious counts one ace in a low and a high run of its suit at once, and a run's cards in a set
# too, so with AD 2D 3D 4D JD QD KD it believes two runs held and never takes the card that
# completes its second run)
_CAUTIOUS = next(s for s in STRATEGIES if s.name == "cautious").params
STRATEGIES.append(StrategySpec("expert", K.S_EXPERT, with_defaults(_CAUTIOUS, {
    "max_mayi": 99, "near": 99, "volunteer": 1, "danger": 3, "far": 3, "layoff_target": 1, "joker_target": 1,
    "meld_jokers": 1, "vol_points": 0, "noise": 0, "swap": 1}) + (
    ParamSpec("shed_at", 1.0, 0.0, 20.0, "not down, once a seat that has melded holds at most this many cards, "
              "discard the card with the most points whatever the contract needs (0 = never; cautious sheds only "
              "while far from its contract)", integer=True, slot="P_SHED"),),
    "cautious (issue 16's strong point by default) with its distance to the contract counting each card once: "
    "an ace in one run, not in a low and a high run of its suit at once, and a run's cards not in a set too "
    "(cautious's count, which leaves it believing its contract held and drawing instead of taking the card "
    "that completes it); and it sheds its costliest card once a rival who has melded is about to go out "
    "(shed_at)"))

# issue 41: the self-consistent field of the committed `cardsim tune --self` run of the expert
# (`python scripts/tools/tune_strong.py contract_rummy`, results/tune/contract_rummy/; tests/test_strong.py checks the two
# agree); issue 16's was cautious at the same point (OLD_STRONG in scripts/tools/bench.py)
STRONG = ("expert:max_mayi=99,near=99,volunteer=1,danger=3,far=3,layoff_target=1,joker_target=1,meld_jokers=1,"
          "vol_points=0,noise=0,swap=1,shed_at=1")
STRATEGIES.append(tuned(next(s for s in STRATEGIES if s.name == "expert"), STRONG,
                        "`python scripts/tools/tune_strong.py contract_rummy` (results/tune/contract_rummy/)"))
STRATEGIES.append(search_strategy(
    K.S_SEARCH, STRATEGIES, ("strong", "cautious", "mayi", "greedy", "random", "expert"), worlds=32, budget=0,
    extra=(ParamSpec("kinds", 3.0, 1.0, 3.0, "decisions searched (a bit mask): 1 the draw (take the top discard, a "
                     "May-I under out_of_turn_discard, or draw), 2 the discard; the policy makes the rest",
                     integer=True),
           ParamSpec("discards", 3.0, 1.0, 12.0, "discards tried, the policy's best ones first", integer=True),
           ParamSpec("z", 2.0, 0.0, 10.0, "another answer than the policy's only where its mean gain over the policy's "
                     "is at least z standard errors (paired on the same worlds); 0 = the best mean"),
           ParamSpec("futility", 0.0, 0.0, 1.0, "racing: an answer whose z-score, projected to every world at "
                     "its mean and spread so far, stays below futility x z stops being played (0: only answers "
                     "whose gain is not above 0 by z standard errors stop); 0.5 is about 2.5x faster and "
                     "gained about 5 points a game less against strong (results/search/contract_rummy.md)")),
    help="determinized Monte Carlo search: at its draw and its discard it deals the unseen cards again (other "
         "hands, keeping the cards they are known to hold, and the stock) and plays each answer out to the end of "
         "the deal with the rollout policy at every seat; takes the best mean of its penalty against the others' "
         "mean; every 8 worlds an answer that cannot plausibly show a gain of z standard errors over the policy's by "
         "the last world (futility) stops being played, and the search ends with the policy's answer once none is "
         "left"))


GAME = GameSpec(
    name="contract_rummy",
    title="Contract Rummy (Liverpool, May I?)",
    rules="docs/rules/contract_rummy.md",
    players=(3, K.MAX_PLAYERS, 4),
    options_cls=ContractRummyOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K),
    plugin={**plugin_fields(K),
            "kinds": {K.K_DRAW: "turn start: draw from the stock or take the top discard (a May-I where it costs "
                                "a penalty card)",
                      K.K_BUY: "buy: another seat buys the top discard or not (may_i_model = buy)",
                      K.K_VOLUNTEER: "volunteer: play out of turn (draw, discard) or not (out_of_turn_discard)",
                      K.K_MELD: "go down: now or not, and with the engine's meld or the plain best one",
                      K.K_MELD_JOKERS: "meld jokers: how many more held jokers go into the meld (non-exact "
                                       "contracts)",
                      K.K_SWAP: "swap: a natural for a table run's joker or not",
                      K.K_JOKER: "freed joker: keep it for the discard or the meld it goes on",
                      K.K_LAYOFF: "lay off: keep a card that fits a meld, or the meld it goes on",
                      K.K_DISCARD: "discard: the card discarded (in turn or out of turn)"},
            "bench": {"builtin": "mayi:max_mayi=2,near=99",
                      "plugin": "examples/contract_rummy_mayi_limit.py:limited:limit=2",
                      "players": 4, "other": "greedy"}},
    state_payouts=lambda st, n: [-int(st[K.TOTAL + p]) for p in range(n)],
    payout_label="score (minus penalty points)",
    payout_unit="points",
    record_unit=("game", "games"),
    seat_extras=(("total", "total_{p}"), ("mayi", "mayi_{p}"), ("oot", "oot_{p}")),
    record_check=lambda cols, opts, n: _record_check(cols, opts, n),
    critique=CRITIQUE,
    order=5,
    step=f"{__name__}.step",
    compile_seconds=55,
    search_seconds=40,
    tools=TOOLS,
    odds=f"{__name__}.odds",
)
