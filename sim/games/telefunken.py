"""Telefunken on the Python side: options, presets, strategies, records and trace formatting.

One record row is one **game** of seven hands. ``payout_{p}`` is seat p's *score*: minus its
final total of penalty points, so that higher is better as with Tonk's chips (0 = no penalty;
only an exact-cut points bonus lifts it above 0); the generic statistics, win rates and reports
read it unchanged. ``winner`` is
the seat with the unique lowest total (-1 when the win is shared, A21); ``winners`` is the
bit mask of every seat with the lowest total.

Text forms of the structured options (``--option NAME=VALUE``):

* ``contracts``: the seven hands separated by ``,`` (or ``;``), the melds of one hand joined
  by ``+`` (or ``,`` when ``;`` separates the hands). A meld is ``3`` (a group of exactly 3),
  ``3p`` (a pure trío: 3 suits, no joker) or ``r7`` (a run of 7 or more). The §4 table is
  ``3p,3+3,4,4+4,5,5+5,3+r7`` (= ``3p;3,3;4;4,4;5;5,5;3,r7``); ``none`` = that default.
* hand maps (``exchange_rounds``, ``contract_joker_limit``): ``HAND:VALUE`` pairs separated by
  ``,`` (or ``;``), ``HAND=VALUE`` also accepted: ``6:1``, ``4:1,6:2``; ``none`` or an empty
  value = no entries (``contract_joker_limit=none``: no limit beyond one joker per meld).

The ``;`` and ``=`` spellings contain neither ``,`` nor ``:`` and so fit ``--option-grid`` values.
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

import numpy as np

from kernels import melds as M
from kernels import telefunken as K
from kernels.cards import RANK_NAMES, SUIT_NAMES
from sim.errors import UsageError
from sim.notation import fmt, fmt_card
from sim.options import check_choice, opt
from sim.registry import Column, GameSpec, ParamSpec, StrategySpec, kernel_fields, record_fields

EXACT_BONUS = ("chip", "card", "points", "none")
EXACT_TARGET = ("deal_plus_upcard", "deal_only", "either")
CUT_MODEL = ("aimed", "uniform")
CUT_JOKER_KEEP = ("mandatory", "optional", "off")
LAYOFF_OWN = ("none", "non_contract", "all")
PURE_EXT = ("fourth_suit_only", "any_natural", "none")
STOCK_EXHAUSTION = ("reshuffle_all", "reshuffle_keep_top", "end_hand")
EXCHANGE_MODEL = ("venezuela", "ecuador")
_PURE_CODES = {"fourth_suit_only": M.PURE_FOURTH_SUIT, "any_natural": M.PURE_ANY_NATURAL, "none": M.PURE_NONE}

HANDS = K.HANDS
MAX_CUT = 105            # the cutter must have three cards to inspect (A9)
MAX_POINTS = 100         # card points; keeps a hand's penalty within the int16 columns
MAX_TURNS_PER_HAND = 30_000
TRACE_ROWS_CAP = 2_000_000


# ---- structured option values ------------------------------------------------------------

class HandMap(dict):
    """Read-only, hashable ``{hand: value}`` (options are hashable frozen dataclasses);
    ``str()`` is the text form ``4:1,6:2``."""
    __slots__ = ()

    def __hash__(self):
        return hash(tuple(sorted(self.items())))

    def __reduce__(self):
        return HandMap, (dict(self),)

    def _read_only(self, *args, **kwargs):
        raise TypeError("option values are read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __str__(self):
        return ",".join(f"{h}:{v}" for h, v in sorted(self.items())) or "none"


class Contract(tuple):
    """One hand's contract: ``(kind, size, pure)`` melds; ``str()`` is e.g. ``3+r7``."""
    __slots__ = ()

    def __str__(self):
        return "+".join(("r" if kind == "run" else "") + str(size) + ("p" if pure else "")
                        for kind, size, pure in self)


class Contracts(tuple):
    """The seven contracts; ``str()`` is the text form ``3p,3+3,4,4+4,5,5+5,3+r7``."""
    __slots__ = ()

    def __str__(self):
        return ",".join(map(str, self))


def _g(size, pure=False):
    return ("group", size, pure)


def _r(size):
    return ("run", size, False)


# §4 (the default), §17 Ecuador and Bolivia, as option values
DEFAULT_CONTRACTS = Contracts(Contract(c) for c in (
    (_g(3, True),), (_g(3), _g(3)), (_g(4),), (_g(4), _g(4)), (_g(5),), (_g(5), _g(5)), (_g(3), _r(7))))
ECUADOR_CONTRACTS = Contracts(Contract(c) for c in (
    (_g(3, True),), (_g(3, True), _g(3)), (_g(4),), (_g(4), _g(4)), (_g(5),), (_g(3), _r(4)), (_r(7),)))
BOLIVIA_CONTRACTS = Contracts(Contract(c) for c in DEFAULT_CONTRACTS[:6] + ((_r(7),),))

_MELD_TOKEN = re.compile(r"(?:(g?)(\d+)(p?)|r(\d+))", re.IGNORECASE)
_CONTRACTS_HELP = ("write 3 (group of exactly 3), 3p (pure trio), r7 (run of 7 or more); melds of a hand "
                   "joined by +, hands separated by , e.g. 3p,3+3,4,4+4,5,5+5,3+r7")


def parse_contracts(text: str) -> Contracts | None:
    """``"3p,3+3,4,4+4,5,5+5,3+r7"`` (or ``"3p;3,3;4;..."``) -> Contracts; ``none`` -> None."""
    t = text.strip()
    if t.lower() in ("", "none", "default"):
        return None
    hands, sep = (t.split(";"), r"[+,]") if ";" in t else (t.split(","), r"\+")
    entries = []
    for i, h in enumerate(hands, 1):
        melds = []
        for tok in (x.strip() for x in re.split(sep, h)):
            m = _MELD_TOKEN.fullmatch(tok)
            if not m:
                raise UsageError(f"option contracts: bad meld {tok!r} in hand {i} ({_CONTRACTS_HELP})")
            if m.group(4) is not None:
                melds.append(_r(int(m.group(4))))
            else:
                melds.append(_g(int(m.group(2)), bool(m.group(3))))
        entries.append(tuple(melds))
    return _check_contracts(entries)


def _check_contracts(value) -> Contracts:
    """Structure of a contracts value (seven hands of (kind, size, pure) melds) -> Contracts."""
    try:
        entries = [tuple(tuple(m) for m in hand) for hand in value]
    except TypeError:
        raise UsageError(f"option contracts: must be seven hands of (kind, size, pure) melds or text "
                         f"({_CONTRACTS_HELP}) (got {value!r})") from None
    if len(entries) != HANDS:
        raise UsageError(f"option contracts: must list {HANDS} hands (got {len(entries)}; {_CONTRACTS_HELP})")
    out = []
    for h, hand in enumerate(entries, 1):
        if not hand:
            raise UsageError(f"option contracts: hand {h} has no meld ({_CONTRACTS_HELP})")
        melds = []
        for m in hand:
            if (len(m) != 3 or m[0] not in ("group", "run") or isinstance(m[1], bool) or not isinstance(m[1], int)
                    or not isinstance(m[2], bool)):
                raise UsageError(f"option contracts: hand {h}: a meld must be (\"group\" or \"run\", size, pure) "
                                 f"(got {m!r})")
            kind, size, pure = m
            if kind == "group" and not 3 <= size <= 9:
                raise UsageError(f"option contracts: hand {h}: a group has 3..9 cards (got {size})")
            if kind == "run" and not 3 <= size <= 13:
                raise UsageError(f"option contracts: hand {h}: a run has 3..13 cards (got {size})")
            if pure and (kind != "group" or size != 3):
                raise UsageError(f"option contracts: hand {h}: only a group of 3 can be pure (a pure trio, §3.2)")
            melds.append((kind, size, pure))
        groups = [m for m in melds if m[0] == "group"]
        runs = [m for m in melds if m[0] == "run"]
        if len(groups) > 2 or len(runs) > 1:
            raise UsageError(f"option contracts: hand {h}: at most 2 groups and 1 run per contract are "
                             f"supported by this engine (got {Contract(melds)})")
        if len({g[1] for g in groups}) > 1:
            raise UsageError(f"option contracts: hand {h}: the groups of one contract must have the same size "
                             f"in this engine (got {Contract(melds)})")
        out.append(Contract(melds))
    return Contracts(out)


def parse_hand_map(name: str, value, lo: int, hi: int, optional: bool) -> HandMap | None:
    """Text (``"4:1,6:2"``, ``"4=1;6=2"``, ``"none"``) or a dict -> HandMap of hands 1..7 to
    values in lo..hi. ``optional``: none means None (else an empty map)."""
    if value is None:
        if optional:
            return None
        return HandMap()
    if isinstance(value, str):
        t = value.strip().strip("{}").strip()
        if t.lower() in ("", "none"):
            return None if optional else HandMap()
        pairs = {}
        for item in filter(None, (x.strip() for x in re.split(r"[,;]", t))):
            h, sep, v = item.replace("=", ":").partition(":")
            try:
                hand, val = int(h), int(v)
            except ValueError:
                raise UsageError(f"option {name}: {item!r} is not HAND:VALUE (write e.g. 6:1 or 4:1,6:2)") from None
            if hand in pairs:
                raise UsageError(f"option {name}: hand {hand} is given twice")
            pairs[hand] = val
        value = pairs
    if not isinstance(value, dict):
        raise UsageError(f"option {name}: must be HAND:VALUE pairs such as 6:1 or 4:1,6:2 (got {value!r})")
    for hand, val in value.items():
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= HANDS:
            raise UsageError(f"option {name}: hands are 1..{HANDS} (got {hand!r})")
        if isinstance(val, bool) or not isinstance(val, int) or not lo <= val <= hi:
            raise UsageError(f"option {name}: hand {hand}: must be a whole number {lo}..{hi} (got {val!r})")
    return HandMap(sorted(value.items()))


def _check_int(name: str, v, lo: int, hi: int | None = None) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        bounds = f">= {lo}" if hi is None else f"{lo}..{hi}"
        raise UsageError(f"option {name}: must be a whole number {bounds} (got {v!r})")


def _check_only(name: str, v, supported, why: str) -> None:
    if v != supported or type(v) is not type(supported):
        def text(x):
            return str(x).lower() if isinstance(x, bool) else repr(x)
        raise UsageError(f"option {name}: {text(v)} is not supported by this engine "
                         f"(only {text(supported).strip(chr(39))}; {why})")


def make_group_dups_supported() -> bool:
    """Whether ``melds.make_rules`` can forbid identical cards in a group (``group_dups``)."""
    return "group_dups" in inspect.signature(M.make_rules).parameters


_BOOLS = ("groups_allow_duplicate_suits", "allow_extra_melds", "allow_runs", "allow_wraparound_runs",
          "allow_ace_both_ends", "first_player_free_upcard", "upcard_buyable", "joker_ops_require_prior_turn_meld",
          "contract_groups_distinct_ranks", "buy_after_meld_allowed", "discarder_may_buy",
          "retrieved_joker_use_immediately", "final_discard_required", "hand7_must_go_out_at_once",
          "allow_rearrangement", "joker_ops_on_own_melds")


@dataclass(frozen=True)
class TelefunkenOptions:
    """Rule options of ``shared/rules/telefunken.md`` §16 (defaults = Venezuela, the seed's rules).
    ``num_players`` (A30) is the run's player count (3..5), not an option here."""
    # scoring (§2, §13)
    ace_points: int = opt(11, "penalty points of an ace (A1; 15 Ecuador/Bolivia)")
    joker_points: int = opt(15, "penalty points of a joker (A2; 50 Ecuador, 30 Bolivia)")
    low_card_points: str | int = opt("face", "points of each 2..9 (A35): face = face value, or a number "
                                     "for every one (5 Ecuador); 10..K are always 10")
    # melds (§3)
    groups_allow_duplicate_suits: bool = opt(True, "groups outside the Hand-1 pure trio may hold identical cards "
                                             "(A3); false only if the meld engine supports it")
    allow_extra_melds: bool = opt(True, "melds beyond the contract may be laid (A5)")
    allow_runs: bool = opt(True, "extra melds may be runs (A5; contract runs are always allowed)")
    allow_wraparound_runs: bool = opt(False, "runs may wrap K-A-2 (A6; only false is supported)")
    allow_ace_both_ends: bool = opt(False, "a run may use the ace at both ends (A6; only false is supported)")
    # cut and deal (§5)
    cut_model: str = opt("aimed", "cut distribution (A9): aimed = cut_aim +- cut_spread, uniform = "
                         "cut_min..cut_max", CUT_MODEL)
    cut_aim: int = opt(45, "aimed cut: target bottom portion B (A9)")
    cut_spread: int = opt(6, "aimed cut: B is uniform on cut_aim +- cut_spread (A9)")
    cut_min: int = opt(1, "uniform cut: smallest B (A9)")
    cut_max: int = opt(105, "uniform cut: largest B (A9; at most 105 so the cutter sees three cards)")
    cut_joker_keep: str = opt("mandatory", "jokers among the cutter's three inspected cards (A11)", CUT_JOKER_KEEP)
    exact_cut_bonus: str = opt("chip", "reward of an exact cut (A7): +1 chip, 1 stock card, "
                               "exact_cut_points off the total, or none", EXACT_BONUS)
    exact_cut_points: int = opt(25, "points taken off the cutter's total for an exact cut (A7, bonus points)")
    exact_cut_target: str = opt("deal_plus_upcard", "what an exact cut counts (A8): B = 45 - j, 44 - j, "
                                "or either (Bolivia)", EXACT_TARGET)
    deal_start: str = opt("dealer_right", "where the deal starts (A29; one choice only)", ("dealer_right",))
    first_dealer: str | int = opt("random", "dealer of Hand 1: random (from the seed) or a seat number (5.1)")
    # upcard and buying (§7, §8)
    first_player_free_upcard: bool = opt(True, "the first player may take the upcard free (A10)")
    upcard_buyable: bool = opt(False, "the upcard may be bought like a discard (A10; Bolivia)")
    chips_per_player: int = opt(7, "chips per player for the game (A27; 12 Ecuador)")
    leftover_chip_points: int = opt(0, "points added to the final total per unused chip (A27; -10 Peru)")
    buy_penalty_cards: int = opt(1, "extra stock cards drawn with a bought card (A28; 2 Ecuador)")
    buy_after_meld_allowed: bool = opt(False, "a player who is down may buy (A16; Bolivia)")
    buy_priority: str = opt("turn_order", "who gets a discard several want (A17; one choice only)", ("turn_order",))
    discarder_may_buy: bool = opt(False, "a player may buy back his own discard (A18)")
    no_buy_hands: tuple[int, ...] = opt((), "hands in which nobody may buy, e.g. 1 or 1,3 (A37; Ecuador 1)")
    # table play (§9, §10)
    joker_ops_require_prior_turn_meld: bool = opt(True, "joker operations only after the turn of going down (A12)")
    first_meld_turn_layoff_own: str = opt("none", "additions to own melds laid the same turn (A13): none, "
                                          "non-contract melds only, all (Bolivia)", LAYOFF_OWN)
    pure_trio_extension: str = opt("fourth_suit_only", "what the Hand-1 pure trio accepts (A14)", PURE_EXT)
    retrieved_joker_use_immediately: bool = opt(False, "a retrieved joker must be laid in the same turn (A22; "
                                                "Ecuador)")
    joker_group_retrieval_cards: int = opt(2, "natural cards needed to free a group joker (A23): 2, 1 "
                                           "(Bolivia) or 0 = forbidden")
    joker_ops_on_own_melds: bool = opt(True, "joker operations on the player's own melds (A38; Bolivia: false)")
    joker_exchange_model: str = opt("venezuela", "joker operations (A39): venezuela = §10, ecuador = only an "
                                    "exchange from another's contract meld while going down", EXCHANGE_MODEL)
    allow_rearrangement: bool = opt(False, "table melds may be rearranged (A33; only false is supported)")
    # hands and contracts (§4, §6, §11, §12)
    contracts: Contracts | None = opt(None, "the seven contracts (A34): hands separated by , (or ;), melds "
                                      "of a hand joined by +; 3 = group of exactly 3, 3p = pure trio, r7 = run "
                                      "of 7+; none = the §4 table 3p,3+3,4,4+4,5,5+5,3+r7")
    contract_joker_limit: HandMap | None = opt(None, "jokers allowed over all contract melds of a hand, as "
                                               "HAND:LIMIT pairs (A36; Ecuador 1:0,2:1,3:0,4:1,5:0,6:0,7:1); "
                                               "none = one per meld only")
    contract_groups_distinct_ranks: bool = opt(False, "two contract groups must differ in rank (A15)")
    exchange_rounds: HandMap = opt(HandMap({6: 1}), "card exchanges before play as HAND:ROUNDS pairs (A26): "
                                   "6:1, 4:1,6:2, or none")
    hand7_must_go_out_at_once: bool = opt(True, "Hand 7 is laid in one go, going out (A25; Bolivia: false)")
    final_discard_required: bool = opt(False, "going out needs a final discard (A24)")
    stock_exhaustion: str = opt("reshuffle_all", "when the stock runs out (A20)", STOCK_EXHAUSTION)
    on_total_exhaustion: str = opt("end_hand_all_score", "stock and pile both empty (A19; one choice only)",
                                   ("end_hand_all_score",))
    tie_rule: str = opt("shared", "equal lowest final totals (A21; one choice only)", ("shared",))
    max_turns_per_hand: int = opt(2000, "turn cap per hand: a capped hand ends as blocked, everybody scores, "
                                  "the game is flagged truncated (A32)")

    def __post_init__(self):
        for name in _BOOLS:
            v = getattr(self, name)
            if not isinstance(v, bool):
                raise UsageError(f"option {name}: must be true or false (got {v!r})")
        _check_int("ace_points", self.ace_points, 0, MAX_POINTS)
        _check_int("joker_points", self.joker_points, 0, MAX_POINTS)
        if self.low_card_points != "face":
            if isinstance(self.low_card_points, str):
                raise UsageError(f"option low_card_points: must be face or a whole number 0..{MAX_POINTS} "
                                 f"(got {self.low_card_points!r})")
            _check_int("low_card_points", self.low_card_points, 0, MAX_POINTS)
        if not self.groups_allow_duplicate_suits and not make_group_dups_supported():
            raise UsageError("option groups_allow_duplicate_suits: false is not supported by this engine "
                             "(only true; the meld engine always allows identical cards in a group)")
        _check_only("allow_wraparound_runs", self.allow_wraparound_runs, False, "runs never wrap K-A-2")
        _check_only("allow_ace_both_ends", self.allow_ace_both_ends, False, "a run has at most 13 cards")
        _check_only("allow_rearrangement", self.allow_rearrangement, False, "table melds never change shape")
        _check_only("deal_start", self.deal_start, "dealer_right", "the deal starts at the dealer's right")
        _check_only("buy_priority", self.buy_priority, "turn_order", "buyers are asked in playing order")
        _check_only("on_total_exhaustion", self.on_total_exhaustion, "end_hand_all_score",
                    "the hand ends and everybody scores")
        _check_only("tie_rule", self.tie_rule, "shared", "equal lowest totals share the win")
        for name, choices in (("cut_model", CUT_MODEL), ("cut_joker_keep", CUT_JOKER_KEEP),
                              ("exact_cut_bonus", EXACT_BONUS), ("exact_cut_target", EXACT_TARGET),
                              ("first_meld_turn_layoff_own", LAYOFF_OWN), ("pure_trio_extension", PURE_EXT),
                              ("stock_exhaustion", STOCK_EXHAUSTION), ("joker_exchange_model", EXCHANGE_MODEL)):
            check_choice(name, getattr(self, name), choices)
        _check_int("cut_aim", self.cut_aim, 1, MAX_CUT)
        _check_int("cut_spread", self.cut_spread, 0, MAX_CUT - 1)
        _check_int("cut_min", self.cut_min, 1, MAX_CUT)
        _check_int("cut_max", self.cut_max, 1, MAX_CUT)
        lo, hi = self.cut_aim - self.cut_spread, self.cut_aim + self.cut_spread
        if self.cut_model == "aimed" and not (lo >= 1 and hi <= MAX_CUT):
            raise UsageError(f"option cut_spread: cut_aim +- cut_spread must stay within 1..{MAX_CUT} "
                             f"(got {self.cut_aim} +- {self.cut_spread})")
        if self.cut_min > self.cut_max:
            raise UsageError(f"option cut_min: must be <= cut_max (got {self.cut_min} > {self.cut_max})")
        _check_int("exact_cut_points", self.exact_cut_points, 0, 1000)
        if self.first_dealer != "random" and (isinstance(self.first_dealer, bool) or not isinstance(
                self.first_dealer, int) or not 0 <= self.first_dealer < K.MAX_PLAYERS):
            raise UsageError(f"option first_dealer: must be random or a seat number 0..{K.MAX_PLAYERS - 1} "
                             f"(got {self.first_dealer!r})")
        _check_int("chips_per_player", self.chips_per_player, 0, 50)
        _check_int("leftover_chip_points", self.leftover_chip_points, -MAX_POINTS, MAX_POINTS)
        _check_int("buy_penalty_cards", self.buy_penalty_cards, 0, 5)
        if isinstance(self.no_buy_hands, (list, tuple)):
            object.__setattr__(self, "no_buy_hands", tuple(sorted(self.no_buy_hands, key=repr)))
        if (not isinstance(self.no_buy_hands, tuple) or len(set(self.no_buy_hands)) != len(self.no_buy_hands)
                or not all(isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= HANDS
                           for h in self.no_buy_hands)):
            raise UsageError(f"option no_buy_hands: must be distinct hands 1..{HANDS}, e.g. 1 or 1,3 "
                             f"(got {self.no_buy_hands!r})")
        _check_int("joker_group_retrieval_cards", self.joker_group_retrieval_cards, 0, 2)
        _check_int("max_turns_per_hand", self.max_turns_per_hand, 1, MAX_TURNS_PER_HAND)
        # structured values: text from the command line, dicts/tuples from Python
        object.__setattr__(self, "exchange_rounds", parse_hand_map("exchange_rounds", self.exchange_rounds,
                                                                   0, 3, optional=False))
        object.__setattr__(self, "contract_joker_limit", parse_hand_map(
            "contract_joker_limit", self.contract_joker_limit, 0, 4, optional=True))
        c = self.contracts
        if c is not None:
            c = parse_contracts(c) if isinstance(c, str) else _check_contracts(c)
        object.__setattr__(self, "contracts", c)
        if hasattr(M, "make_contracts"):
            self.contract_table()          # what the meld engine itself refuses

    # ---- kernel arrays --------------------------------------------------------------------

    def points(self) -> tuple[int, ...]:
        """Penalty points per rank A..K (§2, A1, A35)."""
        low = tuple(range(2, 10)) if self.low_card_points == "face" else (self.low_card_points,) * 8
        return (self.ace_points,) + low + (10, 10, 10, 10)

    def rules_array(self) -> np.ndarray:
        """The meld engine's rules array (``melds.make_rules``)."""
        kw = {}
        if make_group_dups_supported():
            kw["group_dups"] = self.groups_allow_duplicate_suits
        return M.make_rules(max_jokers=1, pure_ext=_PURE_CODES[self.pure_trio_extension],
                            retrieve=self.joker_group_retrieval_cards, joker_points=self.joker_points,
                            points=self.points(), **kw)

    def contract_entries(self) -> Contracts:
        return DEFAULT_CONTRACTS if self.contracts is None else self.contracts

    def contract_table(self) -> np.ndarray:
        """The contracts table (8 rows x ``melds.C_SIZE``, row 0 unused) from ``melds.make_contracts``."""
        if not hasattr(M, "make_contracts"):
            raise UsageError("option contracts: the meld engine has no contract table builder (make_contracts)")
        entries = [[tuple(m) for m in hand] for hand in self.contract_entries()]
        limits = None if self.contract_joker_limit is None else dict(self.contract_joker_limit)
        try:
            table = M.make_contracts(entries, joker_limits=limits, distinct_ranks=self.contract_groups_distinct_ranks)
        except ValueError as exc:
            raise UsageError(f"option contracts: not supported by this engine ({exc})") from None
        table = np.asarray(table, dtype=np.int64)[:HANDS + 1]
        if table.shape != (HANDS + 1, M.C_SIZE):
            raise UsageError(f"option contracts: the meld engine built a table of shape {table.shape}, "
                             f"not {(HANDS + 1, M.C_SIZE)}")
        return table

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see the table in ``kernels/telefunken.py``)."""
        if not 3 <= n_players <= K.MAX_PLAYERS:
            raise UsageError(f"telefunken takes 3 to {K.MAX_PLAYERS} players (got {n_players})")
        if self.first_dealer != "random" and self.first_dealer >= n_players:
            raise UsageError(f"option first_dealer: seat {self.first_dealer} does not exist with {n_players} players")
        a = np.zeros(K.O_SIZE, dtype=np.int64)
        a[K.O_PLAYERS] = n_players
        a[K.O_CHIPS] = self.chips_per_player
        a[K.O_LEFTOVER_POINTS] = self.leftover_chip_points
        a[K.O_CUT_MODEL] = CUT_MODEL.index(self.cut_model)
        a[K.O_CUT_AIM] = self.cut_aim
        a[K.O_CUT_SPREAD] = self.cut_spread
        a[K.O_CUT_MIN] = self.cut_min
        a[K.O_CUT_MAX] = self.cut_max
        a[K.O_CUT_JOKERS] = CUT_JOKER_KEEP.index(self.cut_joker_keep)
        a[K.O_EXACT_BONUS] = EXACT_BONUS.index(self.exact_cut_bonus)
        a[K.O_EXACT_POINTS] = self.exact_cut_points
        a[K.O_EXACT_TARGET] = EXACT_TARGET.index(self.exact_cut_target)
        a[K.O_FREE_UPCARD] = self.first_player_free_upcard
        a[K.O_UPCARD_BUYABLE] = self.upcard_buyable
        a[K.O_JOKER_PRIOR] = self.joker_ops_require_prior_turn_meld
        a[K.O_OWN_NEW] = LAYOFF_OWN.index(self.first_meld_turn_layoff_own)
        a[K.O_BUY_AFTER_DOWN] = self.buy_after_meld_allowed
        a[K.O_DISCARDER_BUYS] = self.discarder_may_buy
        a[K.O_EXHAUSTION] = STOCK_EXHAUSTION.index(self.stock_exhaustion)
        a[K.O_JOKER_NOW] = self.retrieved_joker_use_immediately
        a[K.O_FINAL_DISCARD] = self.final_discard_required
        a[K.O_H7_AT_ONCE] = self.hand7_must_go_out_at_once
        a[K.O_BUY_PENALTY] = self.buy_penalty_cards
        a[K.O_MAX_TURNS] = self.max_turns_per_hand
        a[K.O_OWN_JOKER_OPS] = self.joker_ops_on_own_melds
        a[K.O_EXCHANGE_MODEL] = EXCHANGE_MODEL.index(self.joker_exchange_model)
        a[K.O_EXTRA_MELDS] = self.allow_extra_melds
        a[K.O_EXTRA_RUNS] = self.allow_runs
        a[K.O_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        for h, rounds in self.exchange_rounds.items():
            a[K.O_EXCHANGE + h] = rounds
        for h in self.no_buy_hands:
            a[K.O_NO_BUY + h] = 1
        a[K.O_RULES:K.O_RULES + M.R_SIZE] = self.rules_array()
        a[K.O_CONTRACTS:K.O_SIZE].reshape(HANDS + 1, K.C_STRIDE)[:, :M.C_SIZE] = self.contract_table()
        return a


PRESETS = {
    "venezuela": {},
    "ecuador": {
        "contracts": ECUADOR_CONTRACTS,
        "contract_joker_limit": HandMap({1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0, 7: 1}),
        "no_buy_hands": (1,),
        "chips_per_player": 12,
        "buy_penalty_cards": 2,
        "joker_exchange_model": "ecuador",
        "retrieved_joker_use_immediately": True,
        "low_card_points": 5,
        "ace_points": 15,
        "joker_points": 50,
    },
    "bolivia": {
        "exact_cut_target": "either",
        "first_player_free_upcard": False,
        "upcard_buyable": True,
        "contracts": BOLIVIA_CONTRACTS,
        "exchange_rounds": HandMap(),
        "hand7_must_go_out_at_once": False,
        "first_meld_turn_layoff_own": "all",
        "pure_trio_extension": "any_natural",
        "joker_ops_on_own_melds": False,
        "joker_group_retrieval_cards": 1,
        "buy_after_meld_allowed": True,
        "ace_points": 15,
        "joker_points": 30,
    },
}

_RESERVE = ParamSpec("reserve", 2.0, 0.0, 20.0, "in Hands 1-6, buy only while holding more than this many chips")
STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (), "uniformly random legal action (baseline and fuzzer)"),
    StrategySpec("greedy", K.S_GREEDY, (),
                 "goes down as soon as it can (the contract leaving the fewest penalty points), lays every "
                 "extra meld, lay-off and joker operation it can, buys any discard that brings it closer to "
                 "its contract while it has chips, discards the card that least helps its melds (highest "
                 "penalty first)"),
    StrategySpec("chip_saver", K.S_CHIP_SAVER, (_RESERVE,),
                 "greedy, but in Hands 1-6 buys only while it holds more than reserve chips"),
    StrategySpec("patient", K.S_PATIENT, (
        _RESERVE,
        ParamSpec("near", 1.0, 0.0, 10.0, "buy only if at most this many cards are still missing after buying"),
    ), "greedy, but buys only a discard that completes or nearly completes its contract (at most near "
       "cards missing after buying) and, in Hands 1-6, while it holds more than reserve chips"),
]


# ---- records ---------------------------------------------------------------------------------

def penalty_game_columns(kern, rec: np.ndarray, n: int) -> dict:
    """The whole-game columns of a penalty-points rummy record (Telefunken, Contract Rummy:
    kernel ``kern`` names its columns alike): header, payout = minus the total, total."""
    cols = record_fields(rec, (("dealer", kern.RC_DEALER, np.int8), ("end_reason", kern.RC_REASON, np.int8),
                               ("winner", kern.RC_WINNER, np.int8), ("winners", kern.RC_WINNERS, np.int8),
                               ("turns", kern.RC_TURNS, np.int32), ("reshuffles", kern.RC_RESHUF, np.int32),
                               ("truncated", kern.RC_TRUNC, bool)))
    for p in range(n):
        cols[f"payout_{p}"] = (-rec[:, kern.RC_TOTAL + p]).astype(np.int32)
    cols.update(record_fields(rec, (("total_{p}", kern.RC_TOTAL, np.int32),), n))
    return cols


def _record_columns(rec: np.ndarray, n: int) -> dict:
    cols = penalty_game_columns(K, rec, n)
    cols.update(record_fields(rec, (("chips_{p}", K.RC_CHIPS, np.int8), ("buys_{p}", K.RC_BUYS, np.int16)), n))
    for h in range(1, HANDS + 1):
        cols.update(record_fields(rec, _HAND_FIELDS, n, K.RC_HAND + (h - 1) * K.HB_SIZE, h=h))
    return cols


_HAND_FIELDS = (("h{h}_out", K.HB_OUT, np.int8), ("h{h}_reason", K.HB_REASON, np.int8),
                ("h{h}_turns", K.HB_TURNS, np.int16), ("h{h}_reshuffles", K.HB_RESHUF, np.int16),
                ("h{h}_cut", K.HB_CUT, np.int8), ("h{h}_kept", K.HB_KEPT, np.int8),
                ("h{h}_exact", K.HB_EXACT, bool), ("h{h}_pen_{p}", K.HB_PEN, np.int16),
                ("h{h}_chips_{p}", K.HB_CHIPS, np.int8), ("h{h}_buys_{p}", K.HB_BUYS, np.int8))


# "{p}" stands for the seat number, "{h}" for the hand number 1..7
COLUMNS = [
    Column("deal_id", "int64", "game index in the run (a game = seven hands); with the seed it replays the game alone"),
    Column("dealer", "int8", "dealer of Hand 1 (seat 0..n-1; the deal passes to the next seat each hand)"),
    Column("end_reason", "category", "how the game ended: " + ", ".join(K.REASON_NAMES)
           + " (a hand hit max_turns_per_hand)"),
    Column("winner", "int8", "seat with the unique lowest final total, -1 if the lowest is shared"),
    Column("winners", "int8", "bit mask of the seats with the lowest final total (shared wins, A21)"),
    Column("turns", "int32", "turns started in the game"),
    Column("reshuffles", "int32", "reshuffles of the discard pile into the stock in the game"),
    Column("truncated", "bool", "a hand hit the turn cap max_turns_per_hand"),
    Column("payout_{p}", "int32", "score of seat p = minus its final total (higher is better; 0 = no penalty)"),
    Column("total_{p}", "int32", "final total of seat p: penalty points of the seven hands (lowest wins)"),
    Column("chips_{p}", "int8", "chips seat p has left at the end"),
    Column("buys_{p}", "int16", "discards bought by seat p in the game"),
    Column("h{h}_out", "int8", "seat that went out in hand h, -1 if nobody did"),
    Column("h{h}_reason", "int8", "how hand h ended: " + ", ".join(f"{i} {r}" for i, r in enumerate(K.HAND_REASONS))),
    Column("h{h}_turns", "int16", "turns started in hand h"),
    Column("h{h}_reshuffles", "int16", "reshuffles in hand h"),
    Column("h{h}_cut", "int8", "bottom portion B of hand h's cut"),
    Column("h{h}_kept", "int8", "jokers the cutter kept at hand h's cut"),
    Column("h{h}_exact", "bool", "hand h's cut was exact"),
    Column("h{h}_pen_{p}", "int16", "penalty points of seat p in hand h (0 for the player who went out)"),
    Column("h{h}_chips_{p}", "int8", "chips of seat p after hand h"),
    Column("h{h}_buys_{p}", "int8", "discards bought by seat p in hand h"),
]


# ---- traces -------------------------------------------------------------------------------------

def fmt_holding(p1: int, p2: int, jokers: int) -> str:
    """Double-deck holding -> ``7C 7C 9D JK`` (suit then rank, both copies, jokers last)."""
    p1, p2 = int(p1), int(p2)
    cards = [c for c in range(52) if p1 >> c & 1 for _ in range(1 + (p2 >> c & 1))]
    text = " ".join([fmt(cards)] * bool(cards) + ["JK"] * int(jokers))
    return text or "-"


def _pos_name(suit: int, pos: int) -> str:
    return RANK_NAMES[(pos - 1) % 13] + SUIT_NAMES[suit] if 0 <= suit < 4 else f"position {pos}"


def _card(c: int) -> str:
    try:
        return fmt_card(c)
    except ValueError:
        return f"card {c}"


def _format_action(a: int) -> str:
    kind = a & 15
    f1, f2, f3, f4, f5 = ((a >> s) & 255 for s in (8, 16, 24, 32, 40))
    name = K.ACTION_NAMES[kind] if 0 <= kind < len(K.ACTION_NAMES) else f"action {kind}"
    if kind == K.A_GO_DOWN:
        return name + (f" exchanging {_card(f2)} for the joker of meld {f1 - 1}" if f1 else "")
    if kind == K.A_MELD:
        if f1 == M.K_GROUP:
            return f"meld group of {RANK_NAMES[f2 % 13]}s" + (f" with {f3} JK" if f3 else "")
        if f1 == M.K_RUN:
            run = f"meld run {_pos_name(f2, f3)}-{_pos_name(f2, f4)}"
            return run + (f" with JK as {_pos_name(f2, f5)}" if f5 else "")
        return f"meld {a >> 8:#x}"
    if kind == K.A_LAYOFF:
        return f"lay off {_card(f1)} on meld {f2}" + (f" at position {f3}" if f3 else "")
    if kind == K.A_SHIFT:
        return f"shift joker: {_card(f1)} into meld {f2}, joker to position {f3}"
    if kind == K.A_RETRIEVE:
        with_cards = _card(f2) + (f" {_card(f3 - 1)}" if f3 else "")
        return f"retrieve joker from meld {f1} with {with_cards}"
    if kind in (K.A_DISCARD, K.A_EX_CARD):
        return f"{name} {_card(f1)}"
    return name


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed game."""
    lines = []
    for code, seat, a, b, c in trace[: st[K.TR_LEN]]:
        code, seat, a, b, c = int(code), int(seat), int(a), int(b), int(c)
        who = f"seat {seat} ({seat_names[seat]})" if 0 <= seat < len(seat_names) else ""
        if code == K.T_HAND:
            lines.append(f"== hand {a}: dealer seat {b}")
        elif code == K.T_CUT:
            lines.append(f"cut by {who}: bottom portion {a}, jokers kept {b}" + (", exact" if c else ""))
        elif code == K.T_DEAL:
            lines.append(f"deal  {who}: {fmt_holding(a, b, c)}")
        elif code == K.T_UPCARD:
            lines.append(f"upcard {_card(a)}")
        elif code == K.T_EXCHANGE:
            lines.append(f"after the exchange {who}: {fmt_holding(a, b, c)}")
        elif code == K.T_ACTION:
            lines.append(f"      {who}: {_format_action(a)}  [chips {c}]")
        elif code == K.T_DRAW:
            lines.append(f"        {who} draws {_card(a)}")
        elif code == K.T_RESHUFFLE:
            lines.append(f"reshuffle: {a} cards in the new stock")
        elif code == K.T_END:
            reason = K.HAND_REASONS[a] if 0 <= a < len(K.HAND_REASONS) else f"reason {a}"
            lines.append(f"end of hand: {reason}" + (f", seat {b} went out" if b >= 0 else ""))
        elif code == K.T_SCORE:
            lines.append(f"  {who}: penalty {a}, total {b}")
        else:
            lines.append(f"(trace code {code}: {seat} {a} {b} {c})")
    n = int(st[K.N])
    for p in range(n):
        lines.append(f"  seat {p}: total {int(st[K.TOTAL + p])} score {-int(st[K.TOTAL + p]):+d} "
                     f"chips {int(st[K.CHIPS + p])} buys {int(st[K.GBUYS + p])}")
    return lines


def trace_rows(opts: np.ndarray) -> int:
    return min(TRACE_ROWS_CAP, HANDS * (int(opts[K.O_MAX_TURNS]) * 12 + 200))


def _replay(seed, game_id, opts, sids, params, check):
    trace = np.zeros((trace_rows(opts), 5), dtype=np.int64)
    st = K.replay_game(seed, game_id, opts, sids, params, check, trace)
    return st, trace


GAME = GameSpec(
    name="telefunken",
    title="Telefunken",
    rules="docs/rules/telefunken.md",
    players=(3, K.MAX_PLAYERS, 4),
    options_cls=TelefunkenOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    replay=_replay,
    format_trace=format_trace,
    **kernel_fields(K),
    state_payouts=lambda st, n: [-int(st[K.TOTAL + p]) for p in range(n)],
    payout_label="score (minus penalty points)",
    payout_unit="points",
    seat_extras=(("total", "total_{p}"), ("buys", "buys_{p}"), ("chips_before_h7", "h6_chips_{p}"),
                 ("h7_buys", "h7_buys_{p}"), ("h7_pen", "h7_pen_{p}")),
)
