"""Telefunken on the Python side: options, presets, strategies, records and trace formatting.

One record row is one **game** of all its hands (one per contract: seven in Telefunken, six in
Peru 1, eight in Farmer's Rummy; the ``h{h}_*`` columns exist for the hands the game has).
``payout_{p}`` is seat p's *score*: minus its
final total of penalty points, so that higher is better as with Tonk's chips (0 = no penalty;
only an exact-cut points bonus lifts it above 0); the generic statistics, win rates and reports
read it unchanged. ``winner`` is
the seat with the unique lowest total (-1 when the win is shared, A21); ``winners`` is the
bit mask of every seat with the lowest total.

Text forms of the structured options (``--option NAME=VALUE``):

* ``contracts``: one contract per hand (1..8 hands) separated by ``,`` (or ``;``), the melds of
  one hand joined by ``+`` (or ``,`` when ``;`` separates the hands), alternatives of a hand by
  ``|``. A meld is ``3`` (a group of exactly 3),
  ``3p`` (a pure trío: 3 suits, no joker) or ``r7`` (a run of 7 or more). The §4 table is
  ``3p,3+3,4,4+4,5,5+5,3+r7`` (= ``3p;3,3;4;4,4;5;5,5;3,r7``); ``none`` = that default.
* ``low_card_points``: ``face``, one number, or eight numbers for 2..9 (``20,5,5,5,5,5,10,10``).
* hand maps (``exchange_rounds``, ``contract_joker_limit``): ``HAND:VALUE`` pairs separated by
  ``,`` (or ``;``), ``HAND=VALUE`` also accepted: ``6:1``, ``4:1,6:2``; ``none`` or an empty
  value = no entries (``contract_joker_limit=none``: no limit beyond one joker per meld).

The ``;`` and ``=`` spellings contain neither ``,`` nor ``:`` and so fit ``--option-grid`` values.

Plug-in strategies (``--strategy file.py:NAME``, ``cardsim.plugin``): ``cardsim.telefunken`` gives
the view layout, the decision kinds (buy, the free upcard, go down, go out in Hand 7, lay, discard,
the Hand-6 exchange, the dealer's contract, the cut and the jokers kept at it) and the action
encoding; ``examples/telefunken_hold_back.py`` is the planner's hold-back rule as a plug-in.
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels import telefunken as K
from cardsim.kernels.cards import RANK_NAMES, SUIT_NAMES
from cardsim.sim.errors import UsageError
from cardsim.sim.games.telefunken.tools import TOOLS
from cardsim.sim.notation import fmt_card
from cardsim.sim.options import check_choice, opt
from cardsim.sim.spec import (Column, GameSpec, ParamSpec, StrategySpec, kernel_fields, penalty_game_columns,
                              plugin_fields, record_fields, search_strategy, tuned, with_defaults)
from cardsim.sim.trace import event, lines

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

_RESERVE = ParamSpec("reserve", 2.0, 0.0, 20.0, "in Hands 1-6, buy only while holding more than this many chips",
                     integer=True, slot="Q_RESERVE")
STRATEGIES = [
    StrategySpec("random", K.S_RANDOM, (), "uniformly random legal action (baseline)"),
    StrategySpec("greedy", K.S_GREEDY, (),
                 "goes down as soon as it can (the contract leaving the fewest penalty points), lays every "
                 "extra meld, lay-off and joker operation it can, buys any discard that brings it closer to "
                 "its contract while it has chips and is not down (in a hand laid at once, counting the penalty "
                 "cards it must lay too), discards the card that least helps its melds (a runs contract: its "
                 "target run window first; a wild card its melds cannot take first of all; highest penalty "
                 f"first); after {K.STALL_TURNS} turns of a hand one discard in {K.STALL_ODDS} of a seat two or more "
                 f"cards from its contract is random (after {2 * K.STALL_TURNS} turns: of every seat, wild cards "
                 "included, except in a hand laid at once). A hand that no seat can go out of without a purchase "
                 "(groups_allow_duplicate_suits=false: Hand 6's two closed groups of five) is planned for: the "
                 "family keeps a chip for each such hand to come, buys there to grow its holding, does not go down "
                 "while that would leave it stuck, and after the stall leaves its wild cards to one seat in turn"),
    StrategySpec("chip_saver", K.S_CHIP_SAVER, (_RESERVE,),
                 "greedy, but in Hands 1-6 buys only while it holds more than reserve chips"),
    StrategySpec("patient", K.S_PATIENT, (
        _RESERVE,
        ParamSpec("near", 1.0, 0.0, 10.0, "buy only if at most this many cards are still missing after buying",
                  integer=True, slot="Q_NEAR"),
    ), "greedy, but buys only a discard that completes or nearly completes its contract (at most near "
       "cards missing after buying) and, in Hands 1-6, while it holds more than reserve chips"),
    StrategySpec("planner", K.S_PLANNER, (
        ParamSpec("reserve", 0.0, 0.0, 20.0, "before the last hand, buy only while holding more than reserve "
                  "(+ per_hand x hands to come) chips", integer=True, slot="Q_RESERVE"),
        ParamSpec("near", 10.0, 0.0, 10.0, "buy only if at most this many cards are still missing after buying",
                  integer=True, slot="Q_NEAR"),
        ParamSpec("per_hand", 0.0, 0.0, 7.0, "chips kept back for each hand still to come after this one (a chip's "
                  "value that depends on chips left and hands to go)", slot="Q_PER_HAND"),
        ParamSpec("down_left", 20.0, 0.0, 20.0, "hold back from going down while more than this many cards would "
                  "stay in hand (20: never hold back) ...", integer=True, slot="Q_DOWN_LEFT"),
        ParamSpec("down_turn", 0.0, 0.0, 2000.0, "... and the hand has run fewer than this many turns",
                  integer=True, slot="Q_DOWN_TURN"),
        ParamSpec("exchange", 4.0, 0.0, 11.0, "cards passed in the Hand-6 exchange (lone cards, least useful first)",
                  integer=True, slot="Q_EXCHANGE"),
        ParamSpec("keep_jokers", 3.0, 0.0, 3.0, "inspected jokers kept at the cut when cut_joker_keep=optional",
                  integer=True, slot="Q_KEEP_JOKERS"),
        ParamSpec("cut_aim", 0.0, 0.0, 105.0, "bottom portion this seat aims its cut at (the cut_spread noise "
                  "applies; 0: the rules' cut_aim)", integer=True, slot="Q_CUT_AIM"),
        ParamSpec("deny", -1.0, -1.0, 20.0, "buy a discarded card that does not help, to deny it to the seats "
                  "asked after this one, while holding more than this many chips (-1: never): a wild card, or a "
                  "natural one of them is publicly collecting (it took a card of that rank from the pile, or of "
                  "that suit within two ranks when the contract has runs)", integer=True, slot="Q_DENY"),
        ParamSpec("stall", float(K.STALL_TURNS), 0.0, 30000.0, "after this many turns of a hand, one discard in "
                  f"{K.STALL_ODDS} is a random non-wild card, breaking a standoff (0: never)", integer=True, slot="Q_STALL"),
        ParamSpec("alternative", 0.0, 0.0, 4.0, "of a hand's alternative contracts (Peru 2's last hand), go down "
                  "with the k-th when held (0: the one laying the most points)", integer=True, slot="Q_ALT"),
        ParamSpec("h7_growth", -1.0, -1.0, 4.0, "in a hand laid at once (Hand 7), a purchase is counted to add this "
                  "many cards that must be laid (-1: all it adds, the card and its penalty cards, as greedy; 0: none, "
                  "the old fixed 12-card target: buy whatever brings the run or group nearer)", integer=True, slot="Q_H7_GROWTH"),
    ), "greedy with every §18 choice as a parameter: chip budget per hand to come, how near a purchase must "
       "bring the contract, how aggressively to buy in Hand 7, holding back from going down, which alternative "
       "contract to go down with, the "
       "exchange size, the cut and the jokers kept at it, "
       "buying to deny a wild card or a card another seat collects, the standoff breaker; the defaults play "
       "as greedy"),
    StrategySpec("fuzz", K.S_FUZZ, (
        ParamSpec("greedy", 50.0, 0.0, 100.0, "percent of decisions (but purchases) taken as greedy would",
                  integer=True),
        ParamSpec("buy", 50.0, 0.0, 100.0, "percent of offered discards bought", integer=True),
        ParamSpec("hold", 50.0, 0.0, 100.0, "percent of the other turns that lay nothing (a random discard)",
                  integer=True),
    ), "fuzzer: a mix of greedy and random decisions, buying at a set rate, sometimes laying nothing; its "
       "lineups reach every end reason of a hand (tests/telefunken/test_telefunken_invariants.py)"),
]


# ---- records ---------------------------------------------------------------------------------

def _record_columns(rec: np.ndarray, n: int) -> dict:
    """Record columns; the per-hand blocks for the hands the game has (every row of a run
    has as many), h{h}_contract when the dealers chose the contracts."""
    cols = penalty_game_columns(K, rec, n)
    cols.update(record_fields(rec, (("search_capped", K.RC_CAPPED, np.int32),)))
    cols.update(record_fields(rec, (("chips_{p}", K.RC_CHIPS, np.int8), ("buys_{p}", K.RC_BUYS, np.int32)), n))
    hands = int(rec[:, K.RC_HANDS].max()) if len(rec) else HANDS
    chosen = bool(len(rec) and rec[:, K.RC_CHOSEN].max())
    for h in range(1, hands + 1):
        base = K.RC_HAND + (h - 1) * K.HB_SIZE
        cols.update(record_fields(rec, _HAND_FIELDS, n, base, h=h))
        if chosen:
            cols.update(record_fields(rec, (("h{h}_contract", K.HB_CONTRACT, np.int8),), base=base, h=h))
    return cols


_HAND_FIELDS = (("h{h}_out", K.HB_OUT, np.int8), ("h{h}_reason", K.HB_REASON, np.int8),
                ("h{h}_turns", K.HB_TURNS, np.int16), ("h{h}_reshuffles", K.HB_RESHUF, np.int16),
                ("h{h}_cut", K.HB_CUT, np.int8), ("h{h}_kept", K.HB_KEPT, np.int8),
                ("h{h}_exact", K.HB_EXACT, bool), ("h{h}_pen_{p}", K.HB_PEN, np.int16),
                ("h{h}_chips_{p}", K.HB_CHIPS, np.int8), ("h{h}_buys_{p}", K.HB_BUYS, np.int16))


# "{p}" stands for the seat number, "{h}" for the hand number 1..7 (or as many hands as the contracts give)
COLUMNS = [
    Column("deal_id", "int64", "game index in the run (a game = all its hands, seven by default); with the seed "
           "it replays the game alone"),
    Column("dealer", "int8", "dealer of Hand 1 (seat 0..n-1; the deal passes to the next seat each hand)"),
    Column("end_reason", "category", "how the game ended: complete, truncated (a hand hit max_turns_per_hand "
                                     "while it could still change, or a going-out search its work cap; a "
                                     "blocked hand is no truncation)"),
    Column("winner", "int8", "seat with the unique lowest final total, -1 if the lowest is shared"),
    Column("winners", "int8", "bit mask of the seats with the lowest final total: bit p (value 2**p) set for "
                              "seat p (shared wins, A21)", seat_mask=True),
    Column("turns", "int32", "turns started in the game"),
    Column("reshuffles", "int32", "reshuffles of the discard pile into the stock in the game"),
    Column("truncated", "bool", "a hand hit the turn cap max_turns_per_hand while it could still change (a "
           "provably blocked hand ends 'blocked' instead), or a going-out search its work cap (search_capped)"),
    Column("search_capped", "int32", "checks of the last hand's going out in one go that stopped at the "
           "search's work cap (then taken as 'cannot go out'; holdings of 30+ cards, nearly only random play)"),
    Column("payout_{p}", "int32", "score of seat p = minus its final total (higher is better; 0 = no penalty)"),
    Column("total_{p}", "int32", "final total of seat p: penalty points of all the hands (lowest wins)"),
    Column("chips_{p}", "int8", "chips seat p has left at the end"),
    Column("buys_{p}", "int32", "discards bought by seat p in the game"),
    Column("h{h}_out", "int8", "seat that went out in hand h, -1 if nobody did"),
    Column("h{h}_reason", "int8", "how hand h ended (turn_cap truncates the game; blocked: the turn cap ended "
           "a hand no card could ever change, or a closed hand nobody could ever go out of, A32, which is no "
           "truncation)", dict(enumerate(K.HAND_REASONS))),
    Column("h{h}_turns", "int16", "turns started in hand h"),
    Column("h{h}_reshuffles", "int16", "reshuffles in hand h"),
    Column("h{h}_cut", "int8", "bottom portion B of hand h's cut"),
    Column("h{h}_kept", "int8", "jokers the cutter kept at hand h's cut"),
    Column("h{h}_exact", "bool", "hand h's cut was exact"),
    Column("h{h}_pen_{p}", "int16", "penalty points of seat p in hand h (0 for the player who went out)"),
    Column("h{h}_chips_{p}", "int8", "chips of seat p after hand h"),
    Column("h{h}_buys_{p}", "int16", "discards bought by seat p in hand h (free in-turn purchases: up to a "
                                     "third of max_turns_per_hand)"),
    Column("h{h}_contract", "int8", "the contract (its number in the contracts list) played in hand h; only "
           "when dealer_chooses_contract (otherwise it is h)"),
]


# ---- traces -------------------------------------------------------------------------------------

def fmt_holding(p1: int, p2: int, jokers: int, twos: int = 0) -> str:
    """Double-deck holding -> ``7C 7C 9D 2S JK`` (suit then rank, both copies; wild twos,
    then jokers, last)."""
    text = " ".join(holding_cards(p1, p2, jokers, twos))
    return text or "-"


def holding_cards(p1: int, p2: int, jokers: int, twos: int = 0) -> list[str]:
    """The cards of a holding (planes, jokers, wild twos packed 2 bits per suit) as text."""
    p1, p2 = int(p1), int(p2)
    cards = [fmt_card(c) for c in range(52) if p1 >> c & 1 for _ in range(1 + (p2 >> c & 1))]
    return cards + _twos(twos) + ["JK"] * int(jokers)


def _twos(packed: int) -> list[str]:
    """Wild twos of a packed field (2 bits per suit), as text."""
    return [f"2{SUIT_NAMES[s]}" for s in range(4) for _ in range((int(packed) >> (2 * s)) & 3)]


def _pos_name(suit: int, pos: int) -> str:
    return RANK_NAMES[(pos + 12) % 13] + SUIT_NAMES[suit] if 0 <= suit < 4 else f"position {pos}"


def _card(c: int) -> str:
    try:
        return fmt_card(c)
    except ValueError:
        return f"card {c}"


def meld_cards(packed: int, jpos: int, p1: int, p2: int) -> tuple[int, list[str]]:
    """(table index, cards) of a T_MELD row. A run lists its positions low to high, a wild
    card as the card it stands for (``JK(8D)``, a wild two ``2S(8D)``; a run's wild cards are
    shown jokers first, then its twos by suit, in position order: the engine treats the wild
    cards of one meld as interchangeable); a group lists its naturals, then its wild cards."""
    packed, jpos = int(packed), int(jpos)
    i, kind, key = packed & 63, (packed >> 6) & 3, (packed >> 8) & 15
    lo, hi, wild = (packed >> 12) & 31, (packed >> 17) & 31, (packed >> 22) & 31
    twos = _twos(packed >> 32)
    wilds = ["JK"] * (wild - len(twos)) + twos
    if kind == M.MK_GROUP:
        return i, holding_cards(p1, p2, 0) + wilds
    out = []
    for pos in range(lo, hi + 1):
        name = _pos_name(key, pos)
        out.append(f"{wilds.pop(0)}({name})" if jpos >> pos & 1 else name)
    return i, out


class _Table:
    """What the trace says is where: holdings' sizes, stock and pile, table melds."""

    def __init__(self, n: int):
        self.n = n
        self.held = [0] * n
        self.stock = 0
        self.pile: list[str] = []
        self.melds: dict[int, list[str]] = {}

    def state(self) -> dict:
        return {"held": list(self.held), "stock": self.stock, "pile": len(self.pile),
                "top": self.pile[-1] if self.pile else None}


def _format_action(a: int, table: _Table, melds: list, cur_melds: dict) -> tuple[str, str, dict]:
    """(event action, text, extra fields) of a T_ACTION row; ``melds`` = the T_MELD rows that
    follow it (index, cards)."""
    kind = a & 15
    f1, f2, f3, f4, f5 = ((a >> s) & 255 for s in (8, 16, 24, 32, 40))
    laid = [cards for _, cards in melds]
    if kind in (K.A_GO_DOWN, K.A_MELD, K.A_GO_OUT7):
        name = {K.A_GO_DOWN: "go down", K.A_MELD: "meld", K.A_GO_OUT7: "go out"}[kind]
        new = [cards for i, cards in melds if i not in cur_melds]
        text = name + ": " + " + ".join(" ".join(m) for m in new)
        extra = {"melds": new}
        if kind == K.A_GO_DOWN and f1:
            old = cur_melds.get(f1 - 1, [])
            now = next((cards for i, cards in melds if i == f1 - 1), old)
            text += f" (exchanging {_card(f2)} for the joker of {' '.join(old)})"
            extra["exchange"] = {"card": _card(f2), "target": old, "result": now}
        return "meld", text, extra
    target = cur_melds.get(f2 if kind in (K.A_LAYOFF, K.A_SHIFT, K.A_TAKE_WILD) else f1, [])
    after = laid[0] if laid else []
    if kind == K.A_LAYOFF:
        return "lay off", f"lay off {_card(f1)} on {' '.join(target)}", {"cards": [_card(f1)], "target": target,
                                                                         "result": after}
    if kind == K.A_SHIFT:
        return "shift joker", f"shift joker: {_card(f1)} into {' '.join(target)}, now {' '.join(after)}", \
            {"cards": [_card(f1)], "target": target, "result": after}
    if kind == K.A_RETRIEVE:
        cards = [_card(f2)] + ([_card(f3 - 1)] if f3 else [])
        return "retrieve joker", f"retrieve a wild card from {' '.join(target)} with {' '.join(cards)}", \
            {"cards": cards, "target": target, "result": after}
    if kind == K.A_TAKE_WILD:
        return "take back wild", f"take back the wild card of {' '.join(target)} with {_card(f1)}", \
            {"cards": [_card(f1)], "target": target, "result": after}
    if kind in (K.A_DISCARD, K.A_EX_CARD):
        return ("discard" if kind == K.A_DISCARD else "pass card"), \
            f"{K.ACTION_NAMES[kind]} {_card(f1)}", {"cards": [_card(f1)]}
    if kind == K.A_BUY:
        return "buy", f"buy {table.pile[-1] if table.pile else '?'}", {"cards": table.pile[-1:]}
    if kind == K.A_CHOOSE:
        return "choose contract", f"choose contract {f1}", {"contract": f1}
    if kind == K.A_DRAW:
        return "decline discard", "draw", {}                 # the stock card follows as a draw event
    if kind == K.A_TAKE_UPCARD:
        return "take upcard", "take upcard", {}              # the card follows as a take-discard event
    name = K.ACTION_NAMES[kind] if 0 <= kind < len(K.ACTION_NAMES) else f"action {kind}"
    return name, name, {}


def _group_rows(trace: np.ndarray, n_rows: int) -> list:
    """Trace rows, each with the T_MELD rows that follow it."""
    groups = []
    for row in trace[:n_rows]:
        row = [int(x) for x in row]
        if row[0] == K.T_MELD and groups:
            groups[-1][1].append(meld_cards(row[2], row[3], row[4], row[5]))
        else:
            groups.append((row, []))
    return groups


def trace_events(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[dict]:
    """The replayed game as events (sim.trace). ``state`` after each: ``held`` (cards per
    seat), ``stock`` and ``pile`` (cards in them) and ``top`` (the top discard)."""
    n = int(st[K.N])
    table = _Table(n)
    events = []
    for (code, seat, a, b, c, d), melds in _group_rows(trace, int(st[K.TR_LEN])):
        who = f"seat {seat} ({seat_names[seat]})" if 0 <= seat < len(seat_names) else ""
        ev = _trace_event(table, code, seat, a, b, c, d, melds, who)
        for i, cards in melds:
            table.melds[i] = cards
        if ev is not None:
            ev["state"] = table.state()
            events.append(ev)
    for p in range(n):
        events.append(event("result", f"  seat {p}: total {int(st[K.TOTAL + p])} score {-int(st[K.TOTAL + p]):+d} "
                                      f"chips {int(st[K.CHIPS + p])} buys {int(st[K.GBUYS + p])}", p,
                            total=int(st[K.TOTAL + p]), chips=int(st[K.CHIPS + p]), buys=int(st[K.GBUYS + p])))
    return events


def _trace_event(table: _Table, code, seat, a, b, c, d, melds, who):
    """One event of a trace row (None for rows that only update the table)."""
    if code == K.T_HAND:
        table.melds.clear()
        table.pile.clear()
        table.held = [0] * table.n
        table.stock = K.DECK_SIZE
        return event("hand", f"== hand {a}: dealer seat {b}", None, hand=a, dealer=b, contract=c)
    if code == K.T_CUT:
        return event("cut", f"cut by {who}: bottom portion {a}, jokers kept {b}" + (", exact" if c else ""),
                     seat, bottom=a, kept=b, exact=bool(c))
    if code in (K.T_DEAL, K.T_EXCHANGE):
        cards = holding_cards(a, b, c, d)
        if code == K.T_DEAL:
            table.stock -= len(cards)
        table.held[seat] = len(cards)
        name = "deal" if code == K.T_DEAL else "exchange"
        text = f"deal  {who}: " if code == K.T_DEAL else f"after the exchange {who}: "
        return event(name, text + (" ".join(cards) or "-"), seat, cards=cards)
    if code == K.T_UPCARD:
        table.stock -= 1
        table.pile.append(_card(a))
        return event("upcard", f"upcard {_card(a)}", None, cards=[_card(a)])
    if code == K.T_ACTION:
        return _action_event(table, seat, a, c, melds, who)
    if code in (K.T_DRAW, K.T_TAKE):
        if code == K.T_DRAW:
            table.stock -= 1
        else:
            table.pile.pop()
        table.held[seat] += 1
        verb = "draws" if code == K.T_DRAW else "takes the discard"
        return event("draw" if code == K.T_DRAW else "take discard", f"        {who} {verb} {_card(a)}", seat,
                     cards=[_card(a)])
    if code == K.T_RESHUFFLE:
        keep = len(table.pile) - a                  # 1 when the top discard stays (A20)
        table.pile = table.pile[-keep:] if keep > 0 else []
        table.stock = a
        return event("reshuffle", f"reshuffle: {a} cards in the new stock", None, cards_in_stock=a)
    if code == K.T_END:
        reason = K.HAND_REASONS[a] if 0 <= a < len(K.HAND_REASONS) else f"reason {a}"
        return event("end", f"end of hand: {reason}" + (f", seat {b} went out" if b >= 0 else ""), None,
                     reason=reason, out=b if b >= 0 else None)
    if code == K.T_SCORE:
        return event("score", f"  {who}: penalty {a}, total {b}", seat, penalty=a, total=b)
    return event("unknown", f"(trace code {code}: {seat} {a} {b} {c})", seat)


def _action_event(table: _Table, seat, a, chips, melds, who):
    action, text, extra = _format_action(a, table, melds, table.melds)
    kind = a & 15
    if kind == K.A_BUY and table.pile:
        table.pile.pop()
        table.held[seat] += 1
    elif kind in (K.A_DISCARD, K.A_EX_CARD):
        table.held[seat] -= 1
        if kind == K.A_DISCARD:
            table.pile.append(extra["cards"][0])
    elif kind in (K.A_GO_DOWN, K.A_MELD, K.A_GO_OUT7, K.A_LAYOFF, K.A_SHIFT, K.A_RETRIEVE, K.A_TAKE_WILD):
        before = sum(len(table.melds.get(i, [])) for i, _ in melds)
        table.held[seat] -= sum(len(cards) for _, cards in melds) - before
    return event(action, f"      {who}: {text}  [chips {chips}]", seat, chips=chips, **extra)


def format_trace(trace: np.ndarray, st: np.ndarray, seat_names: list[str]) -> list[str]:
    """Readable play-by-play of a replayed game (the text of trace_events)."""
    return lines(trace_events(trace, st, seat_names))


def trace_rows(opts: np.ndarray) -> int:
    return min(TRACE_ROWS_CAP, int(opts[K.O_HANDS]) * (int(opts[K.O_MAX_TURNS]) * 16 + 200))


def _record_check(cols: dict, opts: np.ndarray, n: int):
    """--check on the records: payout = -total, and each total is the sum of the hands'
    penalties plus leftover_chip_points per chip left."""
    hands = int(opts[K.O_HANDS])
    for p in range(n):
        total = cols[f"total_{p}"].astype(np.int64)
        bad = np.flatnonzero(cols[f"payout_{p}"] != -total)
        if len(bad):
            return int(bad[0]), f"payout_{p} is not minus total_{p}"
        want = cols[f"chips_{p}"].astype(np.int64) * int(opts[K.O_LEFTOVER_POINTS])
        want = want + sum(cols[f"h{h}_pen_{p}"].astype(np.int64) for h in range(1, hands + 1))
        bad = np.flatnonzero(total != want)
        if len(bad):
            return int(bad[0]), f"total_{p} is not the sum of the hand penalties (and leftover-chip points)"
    return None


def _replay(seed, game_id, opts, sids, params, check, plug=None, pprm=None):
    trace = np.zeros((trace_rows(opts), K.TRACE_WIDTH), dtype=np.int64)
    st = K.replay_game(seed, game_id, opts, sids, params, check, trace, plug, pprm)
    return st, trace


# ---- critique (issue 40) ----------------------------------------------------------------------

def _action_text(a: int) -> str:
    """A kernel action code in words, without the table's context (``cardsim critique``'s
    actions; melds are named by their index on the table, as the position lists them)."""
    a = int(a)
    if a >> 48 == K.CUT_CODE >> 48:
        return f"cut aimed at a bottom portion of {a & 0xFFFF}"
    if a >> 48 == K.KEEP_CODE >> 48:
        k = a & 0xFFFF
        return f"keep {k} inspected joker{'' if k == 1 else 's'}"
    kind = a & 15
    f1, f2, f3, f4, f5 = ((a >> s) & 255 for s in (8, 16, 24, 32, 40))
    if kind == K.A_GO_DOWN:
        text = "go down" + (f" (alternative contract {f3})" if f3 else "")
        return text + (f", giving {_card(f2)} for the joker of meld {f1 - 1}" if f1 else "")
    if kind == K.A_MELD:
        if f1 == M.MK_GROUP:
            if f2 == M.WILD_TRIO_RANK:
                return "meld a trio of three wild cards"
            return f"meld a group of {RANK_NAMES[f2]}s" + (f" with {f3} wild card{'s' if f3 > 1 else ''}" if f3 else "")
        text = f"meld a run {_pos_name(f2, f3)}-{_pos_name(f2, f4)}"
        if f5 == K.RUN_FILL:
            return text + " (wild cards in its gaps)"
        return text + (f" (a wild card as {_pos_name(f2, f5)})" if f5 else "")
    if kind == K.A_LAYOFF:
        return f"lay off {_card(f1)} on meld {f2}" + (f" (position {f3})" if f3 else "")
    if kind == K.A_SHIFT:
        return f"put {_card(f1)} in meld {f2}, its joker to position {f3}"
    if kind == K.A_RETRIEVE:
        return f"retrieve the wild card of meld {f1} with {_card(f2)}" + (f" and {_card(f3 - 1)}" if f3 else "")
    if kind == K.A_TAKE_WILD:
        return f"take back the wild card of meld {f2} with {_card(f1)}"
    if kind == K.A_GO_OUT7:
        return "go out (lay the whole holding)"
    if kind in (K.A_DISCARD, K.A_EX_CARD):
        return f"{K.ACTION_NAMES[kind]} {_card(f1)}"
    if kind == K.A_CHOOSE:
        return f"choose contract {f1}"
    return K.ACTION_NAMES[kind] if 0 < kind < len(K.ACTION_NAMES) else f"action {a}"


def _contract_text(opts: np.ndarray, row: int) -> str:
    """Contracts-table row ``row`` (and its alternatives) as the ``contracts`` option writes it."""
    out = []
    while row:
        c = opts[K.O_CONTRACTS + row * K.C_STRIDE:K.O_CONTRACTS + (row + 1) * K.C_STRIDE]
        melds = [f"{int(c[M.C_GROUP_SIZE])}{'p' if i < int(c[M.C_PURE]) else ''}" for i in range(int(c[M.C_GROUPS]))]
        melds += [f"r{int(c[M.C_RUN_MIN])}"] * int(c[M.C_RUNS])
        out.append("+".join(melds))
        row = int(c[M.C_NEXT])
    return "|".join(out)


def _points(opts: np.ndarray, p1: int, p2: int, jokers: int, twos: int) -> int:
    rules = opts[K.O_RULES:]
    nat = sum(int(rules[M.R_POINTS + c % 13]) * ((p1 >> c & 1) + (p2 >> c & 1)) for c in range(52))
    return nat + jokers * int(rules[M.R_JOKER_POINTS]) + len(_twos(twos)) * int(rules[M.R_POINTS + 1])


def _position(snap: np.ndarray, seat: int, opts: np.ndarray) -> list[str]:
    """What seat ``seat`` sees at a critiqued decision (``cardsim critique``'s worst positions;
    ``snap``: the kernel's SNAP_* snapshot, the state then the table): the hand and its
    contract, its own holding, the discard pile, the melds on the table, every seat's cards
    held, going down, chips, totals and the copies it is known to hold (taken from the pile);
    at a cut, the cutter's inspected cards. Never another holding, the stock or the cards
    others passed in an exchange."""
    st = [int(x) for x in snap[:K.ST_SIZE]]
    tab = np.asarray(snap[K.SNAP_TAB:K.SNAP_CUT], dtype=np.int64).reshape(K.MAX_MELDS, K.TW)
    n, h, dealer = st[K.N], st[K.HNO], st[K.DEALER]
    head = f"hand {h} of {int(opts[K.O_HANDS])}, contract {_contract_text(opts, st[K.CONTRACT])}, dealer seat {dealer}"
    seats = [f"seat {q}{' (you)' if q == seat else ''}: chips {st[K.CHIPS + q]}, total {st[K.TOTAL + q]}"
             for q in range(n)]
    cut = int(snap[K.SNAP_CUT])
    if cut:
        out = [head + f"; seat {seat} cuts before the deal (the rules' aim {int(opts[K.O_CUT_AIM])} +- "
                      f"{int(opts[K.O_CUT_SPREAD])}: an exact cut leaves the dealt cards"
                      + (" and the upcard" if not opts[K.O_DEALER_OPENS] else "") + " in the bottom portion)"]
        if cut == 2:
            insp = [_card(int(c)) for c in snap[K.SNAP_INSPECT:K.SNAP_INSPECT + 3]]
            out.append("inspected (lowest three of the top portion): " + " ".join(insp))
        return out + seats
    own = holding_cards(st[K.H1 + seat], st[K.H2 + seat], st[K.HJ + seat], st[K.HT + seat])
    pts = _points(opts, st[K.H1 + seat], st[K.H2 + seat], st[K.HJ + seat], st[K.HT + seat])
    pile = [_card(c) for c in st[K.PILE:K.PILE + st[K.PILE_LEN]]]
    out = [head + f", turn {st[K.TURN]}; stock {st[K.STOCK_HI] - st[K.STOCK_LO]} cards",
           f"holding: {' '.join(own) or '-'}  [{len(own)} cards, {pts} points]",
           "discard pile (top last): " + (" ".join(pile[-8:]) or "empty")
           + (f"  (+{len(pile) - 8} below)" if len(pile) > 8 else "")]
    ph = st[K.PHASE]
    if ph == K.P_BUY:
        out.append(f"on offer: {_card(st[K.DISCARD])}, discarded by seat {st[K.DISCARDER]}"
                   + (" (you play next)" if st[K.NEXTP] == seat and not st[K.WIN_SKIP] else ""))
    elif ph == K.P_UPCARD:
        out.append(f"free to take: {pile[-1] if pile else '?'} ("
                   + ("the upcard" if st[K.UP_OFFER] else "the discard") + "), or draw")
    elif ph == K.P_EXCHANGE:
        mine = st[K.POOL + st[K.POOL_LEN] - st[K.EXK + seat]:K.POOL + st[K.POOL_LEN]] if st[K.EXK + seat] else []
        out.append("exchange: you passed " + (" ".join(_card(c) for c in mine) or "nothing yet") + "; cards passed "
                   + ", ".join(f"seat {q} {st[K.EXK + q]}" for q in range(n) if q != seat))
    elif ph == K.P_CHOOSE:
        used = [k for k in range(1, int(opts[K.O_HANDS]) + 1) if st[K.USED] >> k & 1]
        out.append("contracts played: " + (", ".join(map(str, used)) or "none"))
    elif ph == K.P_ACT and st[K.TAKEN] >= 0:
        out.append(f"taken from the pile this turn: {_card(st[K.TAKEN])} (not to be discarded again)")
    for i in range(st[K.NMELDS]):
        r = tab[i]
        packed = (i | int(r[M.M_KIND]) << 6 | int(r[M.M_KEY]) << 8 | int(r[M.M_LO]) << 12 | int(r[M.M_HI]) << 17
                  | int(r[M.M_JOKERS]) << 22 | int(r[M.M_FLAGS]) << 27 | int(r[K.T_TWOS]) << 32)
        _, cards = meld_cards(packed, int(r[M.M_JPOS]), int(r[M.M_P1]), int(r[M.M_P2]))
        out.append(f"meld {i} (seat {int(r[K.T_OWNER])}{', contract' if r[K.T_CONTRACT] else ''}): {' '.join(cards)}")
    for q in range(n):
        held = (st[K.H1 + q].bit_count() + st[K.H2 + q].bit_count() + st[K.HJ + q]
                + len(_twos(st[K.HT + q])))
        line = seats[q] + f", {held} cards, " + (f"down (turn {st[K.DOWN_TURN + q]})" if st[K.DOWN + q] else "not down")
        line += f", buys this hand {st[K.BUYS + q]}"
        known = [_card(c) for c in range(K.KN_STRIDE) for _ in range(st[K.KN + K.KN_STRIDE * q + c])]
        if known and q != seat and not (ph == K.P_EXCHANGE and st[K.EXK + q]):
            line += ", known to hold " + " ".join(known)
        out.append(line)
    return out


CRITIQUE = {
    "run": K.critique,
    "max_rows": lambda opts, n: 1024,           # a strong seat's game: 90 .. 300 decisions (all-random: ~1,500)
    "max_acts": 128,                            # the cut's 105 aims; a turn's step: 53 at most seen
    "state_size": K.SNAP_SIZE,
    "trace": lambda opts: np.zeros((trace_rows(opts), K.TRACE_WIDTH), dtype=np.int64),
    "phase": ("hand", "the hand of the game (1 .. 7 in the default game)"),
    "detail": ("chips", "the chips the seat holds"),
    "action_text": _action_text,
    "position": _position,
    "value": "points of the hand: minus the seat's penalty at its end, less the search's chip value (4 points) "
             "per chip spent before the last hand (an exact cut's chip, or points, counted)",
}


# issue 41: the expert is the planner with its distances to the contract exact about wild cards
# (a meld takes one: kernels/telefunken/ ``group_need``'s ``exact``; the planner, as built,
# counts two jokers as closing two groups short by 0 and 2 cards, so it never buys the card that
# lets it go down); its defaults: issue 16's strong point, with the two values there that changed
# no decision written as what they play (per_hand 0.1716 keeps no chip back before a chip count of
# 2: per_hand 0; down_left 17 never holds back: 20)
_PLANNER = next(s for s in STRATEGIES if s.name == "planner").params
_STRONG_START = {"reserve": 0, "near": 2, "per_hand": 0, "down_left": 20, "down_turn": 0, "exchange": 8,
                 "keep_jokers": 1, "cut_aim": 0, "deny": -1, "stall": 300, "alternative": 0, "h7_growth": 0}
STRATEGIES.append(StrategySpec("expert", K.S_EXPERT, with_defaults(_PLANNER, _STRONG_START) + (
    ParamSpec("dump_at", 4.0, 0.0, 11.0, "shed points (discard the card with the most penalty points) once a seat "
              "that is down holds at most this many cards ... (0: never)", integer=True, slot="Q_DUMP_AT"),
    ParamSpec("dump_need", 3.0, 1.0, 10.0, "... while this seat is not down and still misses at least this many "
              "cards of its contract", integer=True, slot="Q_DUMP_NEED"),
    ParamSpec("wild_room", 1.0, 0.0, 3.0, "wild cards kept, while not down, beyond those the contract (and an extra "
              "meld) can take: for the melds and lay-offs after going down (Hand 1's pure trio takes none)",
              integer=True, slot="Q_WILD_ROOM"),
    ParamSpec("rich", 1.0, 0.0, 1.0, "once down, lay first the extra meld that lays the most penalty points (1; "
              "0: the first found, as the planner, which may spend a joker on a pair of twos beside a pair of kings)",
              integer=True, slot="Q_RICH"),
), "the planner (its parameters, issue 16's strong point by default) with its distance to the contract exact "
   "about wild cards (a meld takes one, so two jokers do not close two groups short by 0 and 2 cards: the "
   "planner's count, which keeps it from buying the card that lets it go down), and shedding points when its "
   "hand is lost (dump_at, dump_need); it may keep more wild cards (wild_room) and lay its richest extra meld "
   "first (rich)"))

# issue 41: the self-consistent field of the committed `cardsim tune --self` run of the expert
# (`python scripts/tools/tune_strong.py telefunken`, results/tune/telefunken/; tests/test_strong.py checks the two agree);
# issue 16's was the planner's "planner:reserve=0,near=2,per_hand=0.1716,down_left=17,down_turn=0,exchange=8,
# keep_jokers=1,cut_aim=0,deny=-1,stall=300,alternative=0,h7_growth=0" (OLD_STRONG in scripts/tools/bench.py)
STRONG = ("expert:reserve=0,near=2,per_hand=0,down_left=20,down_turn=0,exchange=8,keep_jokers=1,cut_aim=0,deny=-1,"
          "stall=300,alternative=0,h7_growth=0,dump_at=4,dump_need=3,wild_room=1,rich=1")
STRATEGIES.append(tuned(next(s for s in STRATEGIES if s.name == "expert"), STRONG,
                        "`python scripts/tools/tune_strong.py telefunken` (results/tune/telefunken/)"))
SEARCH_KINDS = (1 << K.K_BUY) | (1 << K.K_UPCARD) | (1 << K.K_GO_DOWN)
STRATEGIES.append(search_strategy(
    K.S_SEARCH, STRATEGIES, ("strong", "planner", "greedy", "chip_saver", "patient", "random", "expert"), worlds=8,
    budget=0,
    extra=(ParamSpec("kinds", float(SEARCH_KINDS), 0.0, float((1 << (K.X_COND + 1)) - 1),
                     "bit mask of the decision kinds searched (the plug-in kinds: 1 buy, 2 upcard, 4 go down, "
                     "8 go out in Hand 7, 16 lay once down, 32 discard); the policy takes the others; "
                     f"+{1 << K.X_COND}: the determinizations deal a seat that is not down though it has played a "
                     "turn of the hand a holding that cannot go down (as the policy would hold)", integer=True),
           ParamSpec("chip", 4.0, 0.0, 100.0, "points a chip left is worth at the end of a hand before the last "
                     "(the value of a chip spent in the hand searched)"),
           ParamSpec("margin", 2.0, 0.0, 100.0, "standard errors (of the paired differences over the "
                     "determinizations and rollouts) by which another action's mean must beat the rollout policy's "
                     "own choice to be taken instead (0: any gain)"),
           ParamSpec("hands", 63.0, 0.0, 255.0, "bit mask of the hands whose decisions are searched (1 Hand 1, "
                     "2 Hand 2, 4 Hand 3, .., 64 Hand 7; 63: Hands 1-6, whose rollouts are cheaper); the policy "
                     "plays the others", integer=True)),
    help="determinized Monte Carlo search of the chosen decision kinds in the chosen hands (default: buy offers "
         "of a card that brings the seat nearer its contract, the free upcard and going down, in Hands 1-6): deals the "
         "unseen cards again (other holdings keep the cards known to be there: bought or taken from the pile, "
         "jokers kept at the cut or taken back) and the stock, plays every candidate out to the end of the hand "
         "with the rollout policy at every seat, and takes the best mean of minus its hand penalty less chip points "
         "per chip spent; the policy makes every other decision"))


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
    trace_events=trace_events,
    **kernel_fields(K),
    plugin={**plugin_fields(K),
            "kinds": {K.K_BUY: "buy the discard on offer, or pass",
                      K.K_UPCARD: "take the upcard (take_discard: the top discard) free, or draw",
                      K.K_GO_DOWN: "go down (with which alternative contract / Ecuador exchange), or hold back",
                      K.K_GO_OUT: "a hand laid at once (Hand 7): go out now, or hold back",
                      K.K_LAY: "once down: an extra meld, a lay-off, a joker operation, or lay nothing more",
                      K.K_DISCARD: "the discard that ends the turn (and the dealer's opening discard)",
                      K.K_EXCHANGE: "the Hand-6 exchange: pass one more card, or be done",
                      K.K_CHOOSE: "dealer_chooses_contract: the contract this hand plays",
                      K.K_CUT: "the cutter's aim: the bottom portion of the cut (aimed cut model)",
                      K.K_KEEP: "cut_joker_keep=optional: how many inspected jokers the cutter keeps"},
            "bench": {"builtin": "planner:down_left=4,down_turn=40",
                      "plugin": "examples/telefunken_hold_back.py:hold_back:left=4,turn=40",
                      "players": 4, "other": "greedy", "scale": 0.1}},     # games of seven hands
    state_payouts=lambda st, n: [-int(st[K.TOTAL + p]) for p in range(n)],
    payout_label="score (minus penalty points)",
    payout_unit="points",
    record_unit=("game", "games"),
    seat_extras=(("total", "total_{p}"), ("buys", "buys_{p}"), ("chips_before_h7", "h6_chips_{p}"),
                 ("h7_buys", "h7_buys_{p}"), ("h7_pen", "h7_pen_{p}")),
    record_check=lambda cols, opts, n: _record_check(cols, opts, n),
    critique=CRITIQUE,
    order=1,
    step=f"{__name__}.step",
    compile_seconds=60,
    search_seconds=60,
    tools=TOOLS,
    odds=f"{__name__}.odds",
)
