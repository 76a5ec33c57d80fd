"""Telefunken's rule options (``docs/rules/telefunken.md``: the structured option values, their text
forms and checks, one frozen dataclass and its option array for the kernels) and the presets (named
option sets: the variants of §17)."""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels import telefunken as K
from cardsim.sim.errors import UsageError
from cardsim.sim.options import check_choice, opt


EXACT_BONUS = ("chip", "card", "points", "none", "erase_previous")
EXACT_TARGET = ("deal_plus_upcard", "deal_only", "either")
CUT_MODEL = ("aimed", "uniform")
CUT_JOKER_KEEP = ("mandatory", "optional", "off")
LAYOFF_OWN = ("none", "non_contract", "all")
PURE_EXT = ("fourth_suit_only", "any_natural", "none")
STOCK_EXHAUSTION = ("reshuffle_all", "reshuffle_keep_top", "end_hand")
EXCHANGE_MODEL = ("venezuela", "ecuador")
WILD_RATIO = ("none", "at_most_naturals", "fewer_than_naturals")
_PURE_CODES = {"fourth_suit_only": M.PURE_FOURTH_SUIT, "any_natural": M.PURE_ANY_NATURAL, "none": M.PURE_NONE}

HANDS = K.HANDS                 # hands of the default game
MAX_HANDS = K.MAX_HANDS
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


class Alternatives(tuple):
    """A hand whose contract may be any one of these Contracts (Peru 2's last hand);
    ``str()`` joins them with ``|``: ``3+3+3+3|r4+r4+r4|r12``."""
    __slots__ = ()

    def __str__(self):
        return "|".join(map(str, self))


class Contracts(tuple):
    """The contracts, one per hand (a Contract or Alternatives); ``str()`` is the text form
    ``3p,3+3,4,4+4,5,5+5,3+r7``."""
    __slots__ = ()

    def __str__(self):
        return ",".join(map(str, self))


def _g(size, pure=False):
    return ("group", size, pure)


def _r(size):
    return ("run", size, False)


# §4 (the default), §17 Ecuador, Bolivia, Peru 1, Peru 2 and Farmer's, as option values
DEFAULT_CONTRACTS = Contracts(Contract(c) for c in (
    (_g(3, True),), (_g(3), _g(3)), (_g(4),), (_g(4), _g(4)), (_g(5),), (_g(5), _g(5)), (_g(3), _r(7))))
ECUADOR_CONTRACTS = Contracts(Contract(c) for c in (
    (_g(3, True),), (_g(3, True), _g(3)), (_g(4),), (_g(4), _g(4)), (_g(5),), (_g(3), _r(4)), (_r(7),)))
BOLIVIA_CONTRACTS = Contracts(Contract(c) for c in DEFAULT_CONTRACTS[:6] + ((_r(7),),))
PERU1_CONTRACTS = Contracts(Contract(c) for c in (
    (_g(3), _g(3)), (_g(4),), (_g(4), _g(4)), (_g(5),), (_g(5), _g(5)), (_g(6),)))
PERU2_CONTRACTS = Contracts([Contract(c) for c in (
    (_g(3), _g(3)), (_g(3), _r(4)), (_r(4), _r(4)), (_g(3),) * 3, (_g(3), _g(3), _r(4)), (_g(3), _r(4), _r(4)))]
    + [Alternatives((Contract((_g(3),) * 4), Contract((_r(4),) * 3), Contract((_r(12),))))])
FARMERS_CONTRACTS = Contracts(Contract((_g(size),) * k) for size in (3, 4, 5, 6) for k in (1, 2))

_MELD_TOKEN = re.compile(r"(?:(g?)(\d+)(p?)|r(\d+))", re.IGNORECASE)
_CONTRACTS_HELP = ("write 3 (group of exactly 3), 3p (pure trio), r7 (run of 7 or more); melds of a hand "
                   "joined by +, alternatives by |, hands separated by , e.g. 3p,3+3,4,4+4,5,5+5,3+r7")


def parse_contracts(text: str) -> Contracts | None:
    """``"3p,3+3,4,4+4,5,5+5,3+r7"`` (or ``"3p;3,3;4;..."``; ``|`` between alternatives of a
    hand) -> Contracts; ``none`` -> None."""
    t = text.strip()
    if t.lower() in ("", "none", "default"):
        return None
    hands, sep = (t.split(";"), r"[+,]") if ";" in t else (t.split(","), r"\+")
    entries = []
    for i, h in enumerate(hands, 1):
        alts = []
        for alt in h.split("|"):
            melds = []
            for tok in (x.strip() for x in re.split(sep, alt)):
                m = _MELD_TOKEN.fullmatch(tok)
                if not m:
                    raise UsageError(f"option contracts: bad meld {tok!r} in hand {i} ({_CONTRACTS_HELP})")
                if m.group(4) is not None:
                    melds.append(_r(int(m.group(4))))
                else:
                    melds.append(_g(int(m.group(2)), bool(m.group(3))))
            alts.append(tuple(melds))
        entries.append(alts[0] if len(alts) == 1 else alts)
    return _check_contracts(entries)


def _check_contract(h: int, hand) -> Contract:
    """One contract of hand h: (kind, size, pure) melds the engine can search."""
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
    if len(groups) > M.MAX_GROUPS or len(runs) > M.MAX_RUNS:
        raise UsageError(f"option contracts: hand {h}: at most {M.MAX_GROUPS} groups and {M.MAX_RUNS} runs per "
                         f"contract are supported by this engine (got {Contract(melds)})")
    if len({g[1] for g in groups}) > 1 or len({r[1] for r in runs}) > 1:
        raise UsageError(f"option contracts: hand {h}: the groups of one contract must have the same size, and "
                         f"its runs the same length, in this engine (got {Contract(melds)})")
    return Contract(melds)


def _is_meld(m) -> bool:
    return isinstance(m, (tuple, list)) and len(m) == 3 and isinstance(m[0], str)


def _check_contracts(value) -> Contracts:
    """Structure of a contracts value (one entry per hand: (kind, size, pure) melds, or a list
    of such contracts = alternatives) -> Contracts."""
    try:
        entries = [tuple(tuple(m) if _is_meld(m) else tuple(tuple(x) for x in m) for m in hand)
                   for hand in value]
    except TypeError:
        raise UsageError(f"option contracts: must be one entry per hand of (kind, size, pure) melds or text "
                         f"({_CONTRACTS_HELP}) (got {value!r})") from None
    if not 1 <= len(entries) <= MAX_HANDS:
        raise UsageError(f"option contracts: must list 1..{MAX_HANDS} hands (got {len(entries)}; "
                         f"{_CONTRACTS_HELP})")
    out = []
    for h, hand in enumerate(entries, 1):
        if hand and all(not _is_meld(m) for m in hand):
            if len(hand) < 2:
                raise UsageError(f"option contracts: hand {h}: alternatives need two contracts or more")
            out.append(Alternatives(_check_contract(h, alt) for alt in hand))
        else:
            out.append(_check_contract(h, hand))
    return Contracts(out)


def parse_hand_map(name: str, value, lo: int, hi: int, optional: bool) -> HandMap | None:
    """Text (``"4:1,6:2"``, ``"4=1;6=2"``, ``"none"``) or a dict -> HandMap of hands 1..8 to
    values in lo..hi (checked against the game's hands by the options). ``optional``: none
    means None (else an empty map)."""
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
    value = {int(k) if isinstance(k, str) and k.isdigit() else k: v for k, v in value.items()}  # JSON keys
    for hand, val in value.items():
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= MAX_HANDS:
            raise UsageError(f"option {name}: hands are 1..{MAX_HANDS} (got {hand!r})")
        if isinstance(val, bool) or not isinstance(val, int) or not lo <= val <= hi:
            raise UsageError(f"option {name}: hand {hand}: must be a whole number {lo}..{hi} (got {val!r})")
    return HandMap(sorted(value.items()))


def _low_points(v):
    """low_card_points: face, one number for every 2..9, or eight numbers (2, 3, .., 9; text
    ``20,5,5,5,5,5,10,10``)."""
    if v == "face":
        return v
    if isinstance(v, str) and "," in v:
        try:
            v = tuple(int(x) for x in v.split(","))
        except ValueError:
            v = None
    if isinstance(v, (list, tuple)):
        if len(v) != 8:
            raise UsageError(f"option low_card_points: a list gives the points of 2, 3, .., 9 (8 numbers, got {len(v)})")
        for x in v:
            _check_int("low_card_points", x, 0, MAX_POINTS)
        return tuple(v)
    if isinstance(v, str) or v is None:
        raise UsageError(f"option low_card_points: must be face, a whole number 0..{MAX_POINTS} or eight of them "
                         f"for 2..9 (got {v!r})")
    _check_int("low_card_points", v, 0, MAX_POINTS)
    return v


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
          "allow_rearrangement", "joker_ops_on_own_melds", "dealer_opens", "wild_twos", "wild_trio",
          "wilds_may_be_laid_off", "frozen_jokers", "run_wild_takeback", "take_discard",
          "in_turn_buy_costs_chip", "dealer_chooses_contract")


@dataclass(frozen=True)
class TelefunkenOptions:
    """Rule options of ``docs/rules/telefunken.md`` §16 (defaults = Venezuela, the seed's rules)
    and the engine features of the §17 presets marked there. ``num_players`` (A30) is the
    run's player count (3..5), not an option here."""
    # scoring (§2, §13)
    ace_points: int = opt(11, "penalty points of an ace (A1; 15 Ecuador/Bolivia)", lo=0, hi=MAX_POINTS)
    joker_points: int = opt(15, "penalty points of a joker (A2; 50 Ecuador, 30 Bolivia)", lo=0, hi=MAX_POINTS)
    low_card_points: str | int = opt("face", "points of each 2..9 (A35): face = face value, a number for "
                                     "every one (5 Ecuador), or eight numbers for 2,3,..,9 (Farmer's "
                                     "20,5,5,5,5,5,10,10; a wild two scores the 2's value); 10..K are always 10")
    # melds (§3)
    groups_allow_duplicate_suits: bool = opt(True, "groups outside the Hand-1 pure trio may hold identical cards "
                                             "(A3); false only if the meld engine supports it")
    allow_extra_melds: bool = opt(True, "melds beyond the contract may be laid (A5)")
    allow_runs: bool = opt(True, "extra melds may be runs (A5; contract runs are always allowed)")
    allow_wraparound_runs: bool = opt(False, "runs may wrap K-A-2 (A6; Peru 1 and 2)")
    allow_ace_both_ends: bool = opt(False, "a run may use the ace at both ends (A6; only false is supported)")
    wild_twos: bool = opt(False, "every 2 is a wild card like a joker, never a natural (Peru 1, Farmer's)")
    max_wilds_in_group: int = opt(1, "most wild cards (jokers, wild twos) in one group (§3.4: 1; Peru 0, "
                                  "Farmer's 8)", lo=0, hi=8)
    max_wilds_in_run: int = opt(1, "most wild cards in one run (§3.4: 1; Peru 1 and 2: 13)", lo=0, hi=13)
    wild_ratio: str = opt("none", "wild cards against the naturals of a meld: none (at least one natural), "
                          "at_most_naturals (Peru 1), fewer_than_naturals (Farmer's)", WILD_RATIO)
    wild_trio: bool = opt(False, "three jokers alone are a trío (Peru 2: the only jokers groups may hold)")
    wilds_may_be_laid_off: bool = opt(True, "wild cards may be laid off onto melds (Farmer's: false)")
    frozen_jokers: bool = opt(True, "a joker inside a run is frozen (§10.3; Peru 2: false, jokers move "
                              "along the run)")
    run_wild_takeback: bool = opt(False, "a player who is down and holds the natural a run's wild card stands "
                                  "for may take the wild card (into the holding) and put the natural in its "
                                  "place (Peru 1)")
    # cut and deal (§5)
    cut_model: str = opt("aimed", "cut distribution (A9): aimed = cut_aim +- cut_spread, uniform = "
                         "cut_min..cut_max", CUT_MODEL)
    cut_aim: int = opt(45, "aimed cut: target bottom portion B (A9)", lo=1, hi=MAX_CUT)
    cut_spread: int = opt(6, "aimed cut: B is uniform on cut_aim +- cut_spread (A9)", lo=0, hi=MAX_CUT - 1)
    cut_min: int = opt(1, "uniform cut: smallest B (A9)", lo=1, hi=MAX_CUT)
    cut_max: int = opt(105, "uniform cut: largest B (A9; at most 105 so the cutter sees three cards)", lo=1,
                       hi=MAX_CUT)
    cut_joker_keep: str = opt("mandatory", "jokers among the cutter's three inspected cards (A11)", CUT_JOKER_KEEP)
    exact_cut_bonus: str = opt("chip", "reward of an exact cut (A7): +1 chip, 1 stock card, "
                               "exact_cut_points off the total, or none", EXACT_BONUS)
    exact_cut_points: int = opt(25, "points taken off the cutter's total for an exact cut (A7, bonus points)",
                                lo=0, hi=1000)
    exact_cut_target: str = opt("deal_plus_upcard", "what an exact cut counts (A8): B = 45 - j, 44 - j, "
                                "or either (Bolivia)", EXACT_TARGET)
    deal_start: str = opt("dealer_right", "where the deal starts (A29; one choice only)", ("dealer_right",))
    cards_dealt: int = opt(11, "cards dealt to each player (§5.4; Peru 2: 12)", lo=1, hi=14)
    dealer_opens: bool = opt(False, "the dealer gets one card more and opens by discarding; no upcard "
                             "(Peru 1)")
    first_dealer: str | int = opt("random", "dealer of Hand 1: random (from the seed) or a seat number (5.1)")
    # upcard and buying (§7, §8)
    first_player_free_upcard: bool = opt(True, "the first player may take the upcard free (A10)")
    take_discard: bool = opt(False, "every turn may start by taking the previous player's discard free "
                             "instead of drawing (Peru 2)")
    upcard_buyable: bool = opt(False, "the upcard may be bought like a discard (A10; Bolivia)")
    chips_per_player: int = opt(7, "chips per player for the game (A27; 12 Ecuador)", lo=0, hi=50)
    leftover_chip_points: int = opt(0, "points added to the final total per unused chip (A27; -10 Peru)",
                                    lo=-MAX_POINTS, hi=MAX_POINTS)
    buy_penalty_cards: int = opt(1, "extra stock cards drawn with a bought card (A28; 2 Ecuador, Farmer's)",
                                 lo=0, hi=5)
    in_turn_buy_costs_chip: bool = opt(True, "buying in turn costs a chip (§8.4; Farmer's: false, only "
                                       "buying out of turn costs a coin)")
    buy_after_meld_allowed: bool = opt(False, "a player who is down may buy (A16; Bolivia)")
    buy_priority: str = opt("turn_order", "who gets a discard several want (A17; one choice only)", ("turn_order",))
    discarder_may_buy: bool = opt(False, "a player may buy back his own discard (A18)")
    no_buy_hands: tuple[int, ...] = opt((), "contracts during which nobody may buy, e.g. 1 or 1,3 (A37; "
                                        "Ecuador 1; the hand numbers unless the dealer chooses)", lo=1,
                                        hi=MAX_HANDS)
    # table play (§9, §10)
    joker_ops_require_prior_turn_meld: bool = opt(True, "joker operations only after the turn of going down (A12)")
    first_meld_turn_layoff_own: str = opt("none", "additions to own melds laid the same turn (A13): none, "
                                          "non-contract melds only, all (Bolivia)", LAYOFF_OWN)
    pure_trio_extension: str = opt("fourth_suit_only", "what the Hand-1 pure trio accepts (A14)", PURE_EXT)
    retrieved_joker_use_immediately: bool = opt(False, "a retrieved joker must be laid in the same turn (A22; "
                                                "Ecuador)")
    joker_group_retrieval_cards: int = opt(2, "natural cards needed to free a group joker (A23): 2, 1 "
                                           "(Bolivia) or 0 = forbidden", lo=0, hi=2)
    joker_ops_on_own_melds: bool = opt(True, "joker operations on the player's own melds (A38; Bolivia: false)")
    joker_exchange_model: str = opt("venezuela", "joker operations (A39): venezuela = §10, ecuador = only an "
                                    "exchange from another's contract meld while going down", EXCHANGE_MODEL)
    allow_rearrangement: bool = opt(False, "table melds may be rearranged (A33; only false is supported)")
    # hands and contracts (§4, §6, §11, §12)
    contracts: Contracts | None = opt(None, "the contracts, one per hand; their number is the game's "
                                      "hands (A34): hands separated by , (or ;), melds of a hand joined by "
                                      "+, alternatives by |; 3 = group of exactly 3, 3p = pure trio, r7 = "
                                      "run of 7+; none = the §4 table 3p,3+3,4,4+4,5,5+5,3+r7")
    dealer_chooses_contract: bool = opt(False, "each hand's dealer picks, after the deal, one of the "
                                        "contracts not yet played (Ecuador sub-option)")
    contract_joker_limit: HandMap | None = opt(None, "jokers allowed over all contract melds of a hand, as "
                                               "HAND:LIMIT pairs (A36; Ecuador 1:0,2:1,3:0,4:1,5:0,6:0,7:1); "
                                               "none = one per meld only")
    contract_groups_distinct_ranks: bool = opt(False, "two contract groups must differ in rank (A15)")
    exchange_rounds: HandMap = opt(HandMap({6: 1}), "card exchanges before play as HAND:ROUNDS pairs (A26): "
                                   "6:1, 4:1,6:2, or none")
    hand7_must_go_out_at_once: bool = opt(True, "the last contract (Hand 7's) is laid in one go, going out "
                                          "(A25; Bolivia, Peru 1, Farmer's: false)")
    final_discard_required: bool = opt(False, "going out needs a final discard (A24)")
    stock_exhaustion: str = opt("reshuffle_all", "when the stock runs out (A20)", STOCK_EXHAUSTION)
    on_total_exhaustion: str = opt("end_hand_all_score", "stock and pile both empty (A19; one choice only)",
                                   ("end_hand_all_score",))
    tie_rule: str = opt("shared", "equal lowest final totals (A21; one choice only)", ("shared",))
    max_turns_per_hand: int = opt(2000, "turn cap per hand: a capped hand ends as blocked, everybody scores; "
                                  "the game is flagged truncated unless the hand is provably blocked "
                                  "(hand reason blocked, A32)", lo=1, hi=MAX_TURNS_PER_HAND)

    def __post_init__(self):
        for name in _BOOLS:
            v = getattr(self, name)
            if not isinstance(v, bool):
                raise UsageError(f"option {name}: must be true or false (got {v!r})")
        _check_int("ace_points", self.ace_points, 0, MAX_POINTS)
        _check_int("joker_points", self.joker_points, 0, MAX_POINTS)
        object.__setattr__(self, "low_card_points", _low_points(self.low_card_points))
        if not self.groups_allow_duplicate_suits and not make_group_dups_supported():
            raise UsageError("option groups_allow_duplicate_suits: false is not supported by this engine "
                             "(only true; the meld engine always allows identical cards in a group)")
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
                              ("stock_exhaustion", STOCK_EXHAUSTION), ("joker_exchange_model", EXCHANGE_MODEL),
                              ("wild_ratio", WILD_RATIO)):
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
        _check_int("cards_dealt", self.cards_dealt, 1, 14)
        _check_int("max_wilds_in_group", self.max_wilds_in_group, 0, 8)
        _check_int("max_wilds_in_run", self.max_wilds_in_run, 0, 13)
        if isinstance(self.no_buy_hands, (list, tuple)):
            object.__setattr__(self, "no_buy_hands", tuple(sorted(self.no_buy_hands, key=repr)))
        if (not isinstance(self.no_buy_hands, tuple) or len(set(self.no_buy_hands)) != len(self.no_buy_hands)
                or not all(isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= MAX_HANDS
                           for h in self.no_buy_hands)):
            raise UsageError(f"option no_buy_hands: must be distinct hands 1..{MAX_HANDS}, e.g. 1 or 1,3 "
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
        self._check_hands()
        self._check_last_hand()
        self.contract_table()              # what the meld engine itself refuses

    @property
    def hands(self) -> int:
        """Hands in the game: one per contract (7 in Telefunken, 6 in Peru 1, 8 in Farmer's)."""
        return len(self.contract_entries())

    def _check_hands(self) -> None:
        """Options keyed by hand (or contract) name hands the game has."""
        keyed = (("exchange_rounds", self.exchange_rounds), ("contract_joker_limit", self.contract_joker_limit or {}),
                 ("no_buy_hands", dict.fromkeys(self.no_buy_hands, 0)))
        for name, value in keyed:
            bad = [h for h in value if h > self.hands]
            if bad:
                raise UsageError(f"option {name}: hand {bad[0]} does not exist (the contracts give {self.hands} "
                                 f"hands)")

    def _check_last_hand(self) -> None:
        """Laying the last contract in one go with extra melds beside it is solved by the
        Hand-7 partition engine, which knows one wild card per meld, one contract group and
        run, no wrapping and no alternatives."""
        if not (self.hand7_must_go_out_at_once and self.allow_extra_melds):
            return
        last = self.contract_entries()[-1]
        plain = (not isinstance(last, Alternatives) and sum(m[0] == "group" for m in last) <= 1
                 and sum(m[0] == "run" for m in last) <= 1)
        if not plain or max(self.max_wilds_in_group, self.max_wilds_in_run) > 1 or self.allow_wraparound_runs \
                or self.wild_trio:
            raise UsageError("option hand7_must_go_out_at_once: laying the last contract in one go with extra "
                             "melds is supported only for one group and one run with one wild card per meld and "
                             "no wrapping; set allow_extra_melds=false (the contract alone then takes the whole "
                             "holding) or hand7_must_go_out_at_once=false")

    # ---- kernel arrays --------------------------------------------------------------------

    def points(self) -> tuple[int, ...]:
        """Penalty points per rank A..K (§2, A1, A35; a wild two scores the 2's entry)."""
        if self.low_card_points == "face":
            low = tuple(range(2, 10))
        elif isinstance(self.low_card_points, tuple):
            low = self.low_card_points
        else:
            low = (self.low_card_points,) * 8
        return (self.ace_points,) + low + (10, 10, 10, 10)

    def rules_array(self) -> np.ndarray:
        """The meld engine's rules array (``melds.make_rules``)."""
        kw = {}
        if make_group_dups_supported():
            kw["group_dups"] = self.groups_allow_duplicate_suits
        return M.make_rules(max_jokers=1, pure_ext=_PURE_CODES[self.pure_trio_extension],
                            retrieve=self.joker_group_retrieval_cards, joker_points=self.joker_points,
                            points=self.points(), group_wilds=self.max_wilds_in_group,
                            run_wilds=self.max_wilds_in_run, wild_ratio=WILD_RATIO.index(self.wild_ratio),
                            wrap=self.allow_wraparound_runs, wild_trio=self.wild_trio,
                            wild_layoff=self.wilds_may_be_laid_off, frozen=self.frozen_jokers, **kw)

    def contract_entries(self) -> Contracts:
        return DEFAULT_CONTRACTS if self.contracts is None else self.contracts

    def contract_table(self) -> np.ndarray:
        """The contracts table (``melds.CONTRACT_ROWS`` x ``melds.C_SIZE``, row 0 unused, row h =
        hand h, alternatives after the hands) from ``melds.make_contracts``."""
        entries = [[[tuple(m) for m in alt] for alt in hand] if isinstance(hand, Alternatives)
                   else [tuple(m) for m in hand] for hand in self.contract_entries()]
        limits = None if self.contract_joker_limit is None else dict(self.contract_joker_limit)
        try:
            table = M.make_contracts(entries, joker_limits=limits, distinct_ranks=self.contract_groups_distinct_ranks)
        except ValueError as exc:
            raise UsageError(f"option contracts: not supported by this engine ({exc})") from None
        return np.asarray(table, dtype=np.int64)

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel's option array (see the table in ``kernels/telefunken/``)."""
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
        a[K.O_HANDS] = self.hands
        a[K.O_CARDS] = self.cards_dealt
        a[K.O_DEALER_OPENS] = self.dealer_opens
        a[K.O_WILD_TWOS] = self.wild_twos
        a[K.O_TAKE_DISCARD] = self.take_discard
        a[K.O_IN_TURN_CHIP] = self.in_turn_buy_costs_chip
        a[K.O_RUN_TAKE] = self.run_wild_takeback
        a[K.O_CHOOSE] = self.dealer_chooses_contract
        for h, rounds in self.exchange_rounds.items():
            a[K.O_EXCHANGE + h] = rounds
        for h in self.no_buy_hands:
            a[K.O_NO_BUY + h] = 1
        a[K.O_RULES:K.O_RULES + M.R_SIZE] = self.rules_array()
        a[K.O_CONTRACTS:K.O_SIZE].reshape(K.CONTRACT_ROWS, K.C_STRIDE)[:, :M.C_SIZE] = self.contract_table()
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
    "peru1": {
        "contracts": PERU1_CONTRACTS,
        "hand7_must_go_out_at_once": False,
        "dealer_opens": True,
        "final_discard_required": True,
        "chips_per_player": 6,
        "leftover_chip_points": -10,
        "wild_twos": True,
        "max_wilds_in_group": 0,
        "max_wilds_in_run": 13,
        "wild_ratio": "at_most_naturals",
        "run_wild_takeback": True,
        "retrieved_joker_use_immediately": True,
        "joker_ops_require_prior_turn_meld": False,
        "stock_exhaustion": "end_hand",
        "allow_wraparound_runs": True,
        "ace_points": 15,
        "low_card_points": (20, 3, 4, 5, 6, 7, 8, 9),
        "joker_points": 20,
    },
    "peru2": {
        "contracts": PERU2_CONTRACTS,
        "cards_dealt": 12,
        "chips_per_player": 0,
        "take_discard": True,
        "max_wilds_in_group": 0,
        "wild_trio": True,
        "max_wilds_in_run": 13,
        "frozen_jokers": False,
        "allow_extra_melds": False,
        "allow_wraparound_runs": True,
        "cut_joker_keep": "off",
        "exact_cut_bonus": "erase_previous",
        "stock_exhaustion": "reshuffle_keep_top",
        "ace_points": 15,
        "joker_points": 20,
    },
    "farmers": {
        "contracts": FARMERS_CONTRACTS,
        "contract_joker_limit": HandMap({1: 0}),
        "hand7_must_go_out_at_once": False,
        "wild_twos": True,
        "max_wilds_in_group": 8,
        "wild_ratio": "fewer_than_naturals",
        "allow_runs": False,
        "wilds_may_be_laid_off": False,
        "chips_per_player": 10,
        "buy_penalty_cards": 2,
        "in_turn_buy_costs_chip": False,
        "final_discard_required": True,
        "ace_points": 20,
        "low_card_points": (20, 5, 5, 5, 5, 5, 10, 10),
        "joker_points": 50,
    },
}
