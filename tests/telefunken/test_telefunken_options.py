"""Telefunken on the Python side: options -> kernel arrays, presets (§16, §17), text syntaxes,
validation, registry entries, record columns and trace formatting, the listing commands.

Nothing here calls the kernel's play functions (they have tests of their own).
"""
from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import numpy as np
import pytest

from cardsim.kernels import melds as M
import telefunken_tables as TT
from cardsim.kernels import telefunken as K
from cardsim.sim.cli import app
from cardsim.sim.errors import UsageError
from cardsim.sim.games import telefunken as T
from cardsim.sim.games.telefunken import GAME, PRESETS, HandMap, TelefunkenOptions, parse_contracts, parse_hand_map
from cardsim.sim.options import build_options, options_dict, parse_overrides
from cardsim.sim.registry import games, get_game, parse_seat, seat_arrays, seat_table

OPTION_NAMES = [f.name for f in dataclasses.fields(TelefunkenOptions)]
DEFAULT_TEXT = "3p,3+3,4,4+4,5,5+5,3+r7"


def build(*pairs, preset=None):
    return build_options(TelefunkenOptions, PRESETS, preset, list(pairs))


def arr(*pairs, preset=None, n=4):
    return build(*pairs, preset=preset).to_array(n)


def rules_of(a):
    return a[K.O_RULES:K.O_RULES + M.R_SIZE]


def table_of(a):
    return a[K.O_CONTRACTS:K.O_SIZE].reshape(K.CONTRACT_ROWS, K.C_STRIDE)[:, :M.C_SIZE]


HANDS = K.HANDS


# ---- option arrays ----------------------------------------------------------------------------

def test_default_array():
    a = TelefunkenOptions().to_array(4)
    assert a.shape == (K.O_SIZE,) and a.dtype == np.int64
    expected = {
        K.O_PLAYERS: 4, K.O_CHIPS: 7, K.O_LEFTOVER_POINTS: 0, K.O_CUT_MODEL: 0, K.O_CUT_AIM: 45,
        K.O_CUT_SPREAD: 6, K.O_CUT_MIN: 1, K.O_CUT_MAX: 105, K.O_CUT_JOKERS: 0, K.O_EXACT_BONUS: 0,
        K.O_EXACT_POINTS: 25, K.O_EXACT_TARGET: 0, K.O_FREE_UPCARD: 1, K.O_UPCARD_BUYABLE: 0,
        K.O_JOKER_PRIOR: 1, K.O_OWN_NEW: 0, K.O_BUY_AFTER_DOWN: 0, K.O_DISCARDER_BUYS: 0, K.O_EXHAUSTION: 0,
        K.O_JOKER_NOW: 0, K.O_FINAL_DISCARD: 0, K.O_H7_AT_ONCE: 1, K.O_BUY_PENALTY: 1, K.O_MAX_TURNS: 2000,
        K.O_OWN_JOKER_OPS: 1, K.O_EXCHANGE_MODEL: 0, K.O_EXTRA_MELDS: 1, K.O_EXTRA_RUNS: 1, K.O_FIRST_DEALER: -1,
    }
    for i, v in expected.items():
        assert a[i] == v, i
    assert [a[K.O_EXCHANGE + h] for h in range(1, 8)] == [0, 0, 0, 0, 0, 1, 0]
    assert [a[K.O_NO_BUY + h] for h in range(1, 8)] == [0] * 7
    assert np.array_equal(rules_of(a), TT.TELEFUNKEN_RULES)
    r = rules_of(a)
    assert r[M.R_MAX_JOKERS] == 1 and r[M.R_JOKER_POINTS] == 15 and r[M.R_RETRIEVE] == 2
    assert r[M.R_PURE_EXT] == M.PURE_FOURTH_SUIT
    assert list(r[M.R_POINTS:M.R_POINTS + 13]) == [11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert np.array_equal(table_of(a), TT.TELEFUNKEN_CONTRACTS)
    assert list(table_of(a)[7, :M.C_RUN_MIN + 1]) == [1, 3, 1, 0, 1, 7]      # exactly 3 + run of 7+


def test_venezuela_is_the_default():
    assert PRESETS["venezuela"] == {}
    assert build(preset="venezuela") == TelefunkenOptions()


def test_ecuador_preset():
    o = build(preset="ecuador")
    a = o.to_array(4)
    assert a.shape == (K.O_SIZE,)
    assert a[K.O_CHIPS] == 12 and a[K.O_BUY_PENALTY] == 2 and a[K.O_EXCHANGE_MODEL] == 1 and a[K.O_JOKER_NOW] == 1
    assert [a[K.O_NO_BUY + h] for h in range(1, 8)] == [1, 0, 0, 0, 0, 0, 0]
    assert a[K.O_EXCHANGE + 6] == 1                       # Ecuador keeps the Hand-6 exchange
    r = rules_of(a)
    assert list(r[M.R_POINTS:M.R_POINTS + 13]) == [15] + [5] * 8 + [10] * 4
    assert r[M.R_JOKER_POINTS] == 50
    t = table_of(a)
    assert np.array_equal(t, TT.ECUADOR_CONTRACTS)
    assert list(t[1:8, M.C_JOKER_LIMIT]) == [0, 1, 0, 1, 0, 0, 1]
    assert t[2, M.C_GROUPS] == 2 and t[2, M.C_PURE] == 1           # 2 tríos, one of them pure
    assert (t[6, M.C_GROUPS], t[6, M.C_GROUP_SIZE], t[6, M.C_RUNS], t[6, M.C_RUN_MIN]) == (1, 3, 1, 4)
    assert (t[7, M.C_GROUPS], t[7, M.C_RUNS], t[7, M.C_RUN_MIN]) == (0, 1, 7)
    assert str(o.contracts) == "3p,3p+3,4,4+4,5,3+r4,r7"


def test_bolivia_preset():
    a = arr(preset="bolivia")
    assert a[K.O_EXACT_TARGET] == 2 and a[K.O_FREE_UPCARD] == 0 and a[K.O_UPCARD_BUYABLE] == 1
    assert [a[K.O_EXCHANGE + h] for h in range(1, 8)] == [0] * 7
    assert a[K.O_H7_AT_ONCE] == 0 and a[K.O_OWN_NEW] == 2 and a[K.O_OWN_JOKER_OPS] == 0
    assert a[K.O_BUY_AFTER_DOWN] == 1 and a[K.O_CHIPS] == 7
    r = rules_of(a)
    assert r[M.R_PURE_EXT] == M.PURE_ANY_NATURAL and r[M.R_RETRIEVE] == 1
    assert r[M.R_POINTS] == 15 and r[M.R_JOKER_POINTS] == 30
    assert list(r[M.R_POINTS + 1:M.R_POINTS + 9]) == list(range(2, 10))
    t = table_of(a)
    assert np.array_equal(t, TT.BOLIVIA_CONTRACTS)
    assert np.array_equal(t[:7], TT.TELEFUNKEN_CONTRACTS[:7])
    assert (t[7, M.C_GROUPS], t[7, M.C_RUNS], t[7, M.C_RUN_MIN]) == (0, 1, 7)


@pytest.mark.parametrize("pair, index, value", [
    ("cut_model=uniform", K.O_CUT_MODEL, 1),
    ("cut_aim=50", K.O_CUT_AIM, 50),
    ("cut_spread=0", K.O_CUT_SPREAD, 0),
    ("cut_min=10", K.O_CUT_MIN, 10),
    ("cut_max=90", K.O_CUT_MAX, 90),
    ("cut_joker_keep=optional", K.O_CUT_JOKERS, 1),
    ("cut_joker_keep=off", K.O_CUT_JOKERS, 2),
    ("exact_cut_bonus=card", K.O_EXACT_BONUS, 1),
    ("exact_cut_bonus=points", K.O_EXACT_BONUS, 2),
    ("exact_cut_bonus=none", K.O_EXACT_BONUS, 3),
    ("exact_cut_points=50", K.O_EXACT_POINTS, 50),
    ("exact_cut_target=deal_only", K.O_EXACT_TARGET, 1),
    ("first_player_free_upcard=false", K.O_FREE_UPCARD, 0),
    ("upcard_buyable=true", K.O_UPCARD_BUYABLE, 1),
    ("joker_ops_require_prior_turn_meld=false", K.O_JOKER_PRIOR, 0),
    ("first_meld_turn_layoff_own=non_contract", K.O_OWN_NEW, 1),
    ("buy_after_meld_allowed=true", K.O_BUY_AFTER_DOWN, 1),
    ("discarder_may_buy=yes", K.O_DISCARDER_BUYS, 1),
    ("stock_exhaustion=reshuffle_keep_top", K.O_EXHAUSTION, 1),
    ("stock_exhaustion=end_hand", K.O_EXHAUSTION, 2),
    ("retrieved_joker_use_immediately=true", K.O_JOKER_NOW, 1),
    ("final_discard_required=true", K.O_FINAL_DISCARD, 1),
    ("hand7_must_go_out_at_once=false", K.O_H7_AT_ONCE, 0),
    ("buy_penalty_cards=2", K.O_BUY_PENALTY, 2),
    ("max_turns_per_hand=50", K.O_MAX_TURNS, 50),
    ("joker_ops_on_own_melds=false", K.O_OWN_JOKER_OPS, 0),
    ("joker_exchange_model=ecuador", K.O_EXCHANGE_MODEL, 1),
    ("allow_extra_melds=false", K.O_EXTRA_MELDS, 0),
    ("allow_runs=false", K.O_EXTRA_RUNS, 0),
    ("first_dealer=3", K.O_FIRST_DEALER, 3),
    ("chips_per_player=13", K.O_CHIPS, 13),
    ("leftover_chip_points=-10", K.O_LEFTOVER_POINTS, -10),
    ("no_buy_hands=3,1", K.O_NO_BUY + 1, 1),
    ("no_buy_hands=3,1", K.O_NO_BUY + 3, 1),
    ("exchange_rounds=4:1,6:2", K.O_EXCHANGE + 4, 1),
    ("exchange_rounds=4:1,6:2", K.O_EXCHANGE + 6, 2),
    ("exchange_rounds=none", K.O_EXCHANGE + 6, 0),
    ("exchange_rounds=", K.O_EXCHANGE + 6, 0),
])
def test_option_entries(pair, index, value):
    a = arr(pair)
    assert a[index] == value
    default = TelefunkenOptions().to_array(4)
    assert np.count_nonzero(a[:K.O_RULES] != default[:K.O_RULES]) <= 2


def test_player_count_goes_into_the_array():
    for n in (3, 4, 5):
        assert TelefunkenOptions().to_array(n)[K.O_PLAYERS] == n
    for n in (2, 6):
        with pytest.raises(UsageError, match="3 to 5 players"):
            TelefunkenOptions().to_array(n)


def test_points_options():
    r = rules_of(arr("low_card_points=5", "ace_points=20", "joker_points=50"))
    assert list(r[M.R_POINTS:M.R_POINTS + 13]) == [20] + [5] * 8 + [10] * 4
    assert r[M.R_JOKER_POINTS] == 50
    assert build("low_card_points=face").low_card_points == "face"


def test_meld_rule_options():
    for ext, code in (("fourth_suit_only", M.PURE_FOURTH_SUIT), ("any_natural", M.PURE_ANY_NATURAL),
                      ("none", M.PURE_NONE)):
        assert rules_of(arr(f"pure_trio_extension={ext}"))[M.R_PURE_EXT] == code
    for k in (0, 1, 2):
        assert rules_of(arr(f"joker_group_retrieval_cards={k}"))[M.R_RETRIEVE] == k


def test_contract_table_options():
    t = table_of(arr("contract_groups_distinct_ranks=true"))
    assert list(t[1:8, M.C_DISTINCT]) == [1] * 7
    t = table_of(arr("contract_joker_limit=2:1,7:0"))
    assert list(t[1:8, M.C_JOKER_LIMIT]) == [-1, 1, -1, -1, -1, -1, 0]
    t = table_of(arr("contracts=3;3+3;4;4+4;5;5+5;3+r8"))
    assert t[1, M.C_PURE] == 0 and t[7, M.C_RUN_MIN] == 8
    assert np.array_equal(table_of(arr(f"contracts={DEFAULT_TEXT}")), TT.TELEFUNKEN_CONTRACTS)


def test_groups_allow_duplicate_suits():
    assert TelefunkenOptions(groups_allow_duplicate_suits=True)
    if T.make_group_dups_supported():
        TelefunkenOptions(groups_allow_duplicate_suits=False).to_array(4)
    else:
        with pytest.raises(UsageError, match="groups_allow_duplicate_suits: false is not supported"):
            build("groups_allow_duplicate_suits=false")


# ---- text syntaxes -------------------------------------------------------------------------------

def test_contracts_text_round_trips():
    for c in (T.DEFAULT_CONTRACTS, T.ECUADOR_CONTRACTS, T.BOLIVIA_CONTRACTS):
        assert parse_contracts(str(c)) == c
        assert build(f"contracts={c}").contracts == c
    assert str(T.DEFAULT_CONTRACTS) == DEFAULT_TEXT
    assert parse_contracts("3p;3,3;4;4,4;5;5,5;3,r7") == T.DEFAULT_CONTRACTS
    assert parse_contracts("3P; 3+3; g4; 4,4; 5; 5+5; 3, R7") == T.DEFAULT_CONTRACTS
    assert parse_contracts("none") is None and parse_contracts("default") is None
    assert build("contracts=none").contracts is None
    c = parse_contracts(DEFAULT_TEXT)
    assert c[0] == (("group", 3, True),) and c[6] == (("group", 3, False), ("run", 7, False))


def test_contracts_from_python_values():
    entries = [[("group", 3, True)], [("group", 3, False)] * 2, [("group", 4, False)], [("group", 4, False)] * 2,
               [("group", 5, False)], [("group", 5, False)] * 2, [("run", 7, False)]]
    o = TelefunkenOptions(contracts=entries)
    assert o.contracts == T.BOLIVIA_CONTRACTS and str(o.contracts) == "3p,3+3,4,4+4,5,5+5,r7"
    assert hash(o) == hash(TelefunkenOptions(contracts=T.BOLIVIA_CONTRACTS))


def test_hand_map_text_round_trips():
    for text, value in (("6:1", {6: 1}), ("4:1,6:2", {4: 1, 6: 2}), ("4=1;6=2", {4: 1, 6: 2}),
                        ("{6: 1}", {6: 1}), (" 6 : 1 , 4 : 1 ", {4: 1, 6: 1}), ("none", {}), ("", {})):
        o = build(f"exchange_rounds={text}")
        assert o.exchange_rounds == value, text
        assert build(f"exchange_rounds={o.exchange_rounds}").exchange_rounds == value
    assert str(HandMap({6: 2, 4: 1})) == "4:1,6:2" and str(HandMap()) == "none"
    lim = build("contract_joker_limit=1:0,2:1,3:0,4:1,5:0,6:0,7:1").contract_joker_limit
    assert lim == PRESETS["ecuador"]["contract_joker_limit"]
    assert build(f"contract_joker_limit={lim}").contract_joker_limit == lim
    assert build("contract_joker_limit=none").contract_joker_limit is None
    assert TelefunkenOptions(exchange_rounds={}).exchange_rounds == {}
    assert parse_hand_map("x", None, 0, 1, optional=True) is None


def test_options_are_hashable_picklable_and_json_friendly():
    for preset in PRESETS:
        o = build(preset=preset)
        assert hash(o) == hash(copy.deepcopy(o))
        assert pickle.loads(pickle.dumps(o)) == o
        assert dataclasses.replace(o, chips_per_player=9).exchange_rounds == o.exchange_rounds
        json.dumps(options_dict(o), sort_keys=True)
    with pytest.raises(TypeError):
        TelefunkenOptions().exchange_rounds[6] = 2
    assert TelefunkenOptions().exchange_rounds == {6: 1}         # the default is untouched


def test_parse_overrides_types():
    got = parse_overrides(TelefunkenOptions, ["low_card_points=5", "first_dealer=2", "no_buy_hands=1",
                                              "contracts=none", "contract_joker_limit=", "allow_runs=no"])
    assert got == {"low_card_points": 5, "first_dealer": 2, "no_buy_hands": (1,), "contracts": None,
                   "contract_joker_limit": None, "allow_runs": False}


# ---- validation -------------------------------------------------------------------------------------

BAD = [
    (["ace_points=-1"], ["option ace_points", "0..100", "-1"]),
    (["joker_points=lots"], ["joker_points", "'lots'", "integer"]),
    (["low_card_points=six"], ["option low_card_points", "face, a whole number", "'six'"]),
    (["low_card_points=5,5"], ["option low_card_points", "8 numbers, got 2"]),
    (["wild_ratio=half"], ["wild_ratio", "none, at_most_naturals, fewer_than_naturals"]),
    (["cards_dealt=15"], ["cards_dealt", "1..14"]),
    (["max_wilds_in_run=14"], ["max_wilds_in_run", "0..13"]),
    (["max_wilds_in_run=2"], ["hand7_must_go_out_at_once", "allow_extra_melds=false"]),
    (["exchange_rounds=7:1", "contracts=3,3,3,3,3,3"], ["exchange_rounds", "hand 7 does not exist", "6 hands"]),
    (["low_card_points=101"], ["low_card_points", "0..100"]),
    (["allow_ace_both_ends=true"], ["allow_ace_both_ends", "true is not supported by this engine", "only false"]),
    (["allow_ace_both_ends=true"], ["allow_ace_both_ends", "not supported by this engine"]),
    (["allow_rearrangement=true"], ["allow_rearrangement", "not supported by this engine"]),
    (["buy_priority=first_call"], ["buy_priority", "'first_call' is not supported", "only turn_order"]),
    (["on_total_exhaustion=redeal"], ["on_total_exhaustion", "not supported", "only end_hand_all_score"]),
    (["tie_rule=split_pot"], ["tie_rule", "not supported", "only shared"]),
    (["deal_start=dealer_left"], ["deal_start", "not supported", "only dealer_right"]),
    (["allow_runs=maybe"], ["allow_runs", "'maybe'", "boolean"]),
    (["exact_cut_bonus=gold"], ["exact_cut_bonus", "'gold'", "chip, card, points, none"]),
    (["exact_cut_target=nearly"], ["exact_cut_target", "deal_plus_upcard, deal_only, either"]),
    (["cut_model=fair"], ["cut_model", "aimed, uniform"]),
    (["cut_joker_keep=never"], ["cut_joker_keep", "mandatory, optional, off"]),
    (["first_meld_turn_layoff_own=some"], ["first_meld_turn_layoff_own", "none, non_contract, all"]),
    (["pure_trio_extension=open"], ["pure_trio_extension", "fourth_suit_only, any_natural, none"]),
    (["stock_exhaustion=stop"], ["stock_exhaustion", "reshuffle_all, reshuffle_keep_top, end_hand"]),
    (["joker_exchange_model=peru"], ["joker_exchange_model", "venezuela, ecuador"]),
    (["cut_aim=0"], ["option cut_aim", "1..105", "got 0"]),
    (["cut_aim=103"], ["cut_aim +- cut_spread", "1..105", "103 +- 6"]),
    (["cut_spread=-1"], ["cut_spread", "0..104"]),
    (["cut_min=50", "cut_max=40"], ["cut_min", "<= cut_max", "50 > 40"]),
    (["cut_max=106"], ["cut_max", "1..105"]),
    (["exact_cut_points=-5"], ["exact_cut_points", "0..1000"]),
    (["first_dealer=5"], ["first_dealer", "random or a seat number 0..4", "5"]),
    (["first_dealer=north"], ["first_dealer", "'north'"]),
    (["chips_per_player=-1"], ["chips_per_player", "0..50"]),
    (["leftover_chip_points=500"], ["leftover_chip_points", "-100..100"]),
    (["buy_penalty_cards=9"], ["buy_penalty_cards", "0..5"]),
    (["no_buy_hands=9"], ["no_buy_hands", "hands 1..8", "(9,)"]),
    (["no_buy_hands=8"], ["no_buy_hands", "hand 8 does not exist", "7 hands"]),
    (["no_buy_hands=x"], ["no_buy_hands", "comma-separated list of integers"]),
    (["joker_group_retrieval_cards=3"], ["joker_group_retrieval_cards", "0..2"]),
    (["max_turns_per_hand=0"], ["max_turns_per_hand", "1..30000", "got 0"]),
    (["exchange_rounds=6"], ["exchange_rounds", "HAND:VALUE pairs"]),
    (["exchange_rounds=9:1"], ["exchange_rounds", "hands are 1..8", "9"]),
    (["exchange_rounds=6:x"], ["exchange_rounds", "'6:x' is not HAND:VALUE"]),
    (["exchange_rounds=6:1,6:2"], ["exchange_rounds", "hand 6 is given twice"]),
    (["exchange_rounds=6:9"], ["exchange_rounds", "hand 6", "0..3", "9"]),
    (["contract_joker_limit=2:-1"], ["contract_joker_limit", "hand 2", "0..4"]),
    (["contracts=3p,3+3,4,4+4,5,5+5,3+r7,3,3"], ["contracts", "must list 1..8 hands", "got 9"]),
    (["contracts=3p,3+3,4,4+4,5,5+5,q7"], ["contracts", "bad meld 'q7' in hand 7", "3p (pure trio)"]),
    (["contracts=3p,3+3,4,4+4,5,5+5,4p"], ["contracts", "hand 7", "only a group of 3 can be pure"]),
    (["contracts=3p,3+3,4,3+4,5,5+5,3+r7"], ["contracts", "hand 4", "same size", "3+4"]),
    (["contracts=3p,3+3+3+3+3,4,4+4,5,5+5,3+r7"], ["contracts", "hand 2", "at most 4 groups and 3 runs"]),
    (["contracts=3p,3+3,4,4+4,5,5+5,r3+r7"], ["contracts", "hand 7", "its runs the same length"]),
    (["contracts=3p,3+3,4,4+4,5,5+5,3+r7|3+3"], ["hand7_must_go_out_at_once", "allow_extra_melds=false"]),
    (["contracts=2,3+3,4,4+4,5,5+5,3+r7"], ["contracts", "hand 1", "a group has 3..9 cards", "got 2"]),
    (["contracts=3p,3+3,4,4+4,5,5+5,r14"], ["contracts", "hand 7", "a run has 3..13 cards", "got 14"]),
    (["contracts=3p,,4,4+4,5,5+5,3+r7"], ["contracts", "bad meld '' in hand 2"]),
    (["exact_cut_bonus=gold"], ["exact_cut_bonus", "erase_previous"]),
    (["nonsense=1"], ["unknown option 'nonsense'", "ace_points"]),
]


@pytest.mark.parametrize("pairs, fragments", BAD, ids=[" ".join(p) for p, _ in BAD])
def test_invalid_values_are_usage_errors(pairs, fragments):
    with pytest.raises(UsageError) as exc:
        build(*pairs).to_array(4)
    msg = str(exc.value)
    assert "\n" not in msg
    for frag in fragments:
        assert frag in msg, (frag, msg)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"allow_runs": 1}, "option allow_runs: must be true or false (got 1)"),
    ({"ace_points": True}, "option ace_points: must be a whole number"),
    ({"no_buy_hands": (1, 1)}, "option no_buy_hands: must be distinct hands"),
    ({"exchange_rounds": {6: True}}, "option exchange_rounds: hand 6: must be a whole number 0..3"),
    ({"exchange_rounds": [6, 1]}, "option exchange_rounds: must be HAND:VALUE pairs"),
    ({"contract_joker_limit": {"x": 1}}, "option contract_joker_limit: hands are 1..8"),
    ({"contracts": [[("group", 3, True)]] * 9}, "must list 1..8 hands (got 9"),
    ({"contracts": [[[("group", 3, False)]]] * 7}, "alternatives need two contracts or more"),
    ({"contracts": [[("set", 3, False)]] * 7}, "a meld must be (\"group\" or \"run\", size, pure)"),
    ({"contracts": [[("group", 3, 1)]] * 7}, "a meld must be"),
    ({"contracts": 7}, "option contracts: must be one entry per hand"),
    ({"allow_ace_both_ends": True}, "not supported by this engine"),
    ({"low_card_points": (1, 2)}, "8 numbers"),
])
def test_invalid_python_values(kwargs, fragment):
    with pytest.raises(UsageError) as exc:
        TelefunkenOptions(**kwargs)
    assert fragment in str(exc.value), str(exc.value)


def test_first_dealer_checked_against_the_player_count():
    o = build("first_dealer=4")
    assert o.to_array(5)[K.O_FIRST_DEALER] == 4
    with pytest.raises(UsageError, match="seat 4 does not exist with 4 players"):
        o.to_array(4)


def test_uniform_cut_ignores_the_aim():
    a = arr("cut_model=uniform", "cut_aim=104")
    assert a[K.O_CUT_MODEL] == 1 and a[K.O_CUT_AIM] == 104


# ---- registry ---------------------------------------------------------------------------------------

def test_registry_lists_telefunken():
    assert "telefunken" in games() and "tonk" in games()
    g = get_game("Telefunken")
    assert g is GAME
    assert g.players == (3, 5, 4)
    assert g.rules == "docs/rules/telefunken.md" and g.rules_version == K.RULES_VERSION
    assert g.n_params == K.N_PARAMS and g.record_width == K.RECORD_COLS and g.err_col == K.RC_ERR
    assert g.reason_names == K.REASON_NAMES and g.error_names == K.ERROR_NAMES
    assert g.payout_label == "score (minus penalty points)" and g.payout_unit == "points"
    assert get_game("tonk").payout_label == "payout (chips)"
    assert set(g.presets) == {"venezuela", "ecuador", "bolivia", "peru1", "peru2", "farmers"}


def test_strategies_and_parameters():
    g = GAME
    assert list(g.strategies) == ["random", "greedy", "chip_saver", "patient", "planner", "fuzz", "expert", "strong",
                                  "search"]
    assert [s.sid for s in g.strategies.values()] == [K.S_RANDOM, K.S_GREEDY, K.S_CHIP_SAVER, K.S_PATIENT,
                                                      K.S_PLANNER, K.S_FUZZ, K.S_EXPERT,
                                                      K.S_EXPERT,   # strong: the tuned expert (issue 41)
                                                      K.S_SEARCH]
    params = {s.name: [(p.name, p.default, p.lo, p.hi) for p in s.params] for s in g.strategies.values()}
    assert params["random"] == params["greedy"] == []
    assert params["chip_saver"] == [("reserve", 2.0, 0.0, 20.0)]
    assert params["patient"] == [("reserve", 2.0, 0.0, 20.0), ("near", 1.0, 0.0, 10.0)]
    assert [p[0] for p in params["planner"]] == ["reserve", "near", "per_hand", "down_left", "down_turn",
                                                 "exchange", "keep_jokers", "cut_aim", "deny", "stall",
                                                 "alternative", "h7_growth"]
    assert [p[0] for p in params["fuzz"]] == ["greedy", "buy", "hold"]
    assert [p[0] for p in params["expert"]] == [p[0] for p in params["planner"]] + ["dump_at", "dump_need",
                                                                                   "wild_room", "rich"]
    assert all(len(s.params) <= g.n_params for s in g.strategies.values())
    seats = seat_table(g, ["patient:near=3,reserve=5", "chip_saver", "greedy", "random"], 4)
    sids, prm = seat_arrays(g, seats)
    assert list(sids) == [K.S_PATIENT, K.S_CHIP_SAVER, K.S_GREEDY, K.S_RANDOM]
    assert list(prm[0, :2]) == [5.0, 3.0] and prm[1, 0] == 2.0
    with pytest.raises(UsageError, match="out of range"):
        parse_seat(g, "chip_saver:reserve=21")
    with pytest.raises(UsageError, match="out of range"):
        parse_seat(g, "patient:near=11")


# ---- records and traces -------------------------------------------------------------------------------

def _columns_expanded(n, hands_in_game=HANDS, chosen=False):
    names = []
    for c in T.COLUMNS:
        if c.name == "h{h}_contract" and not chosen:
            continue
        hands = range(1, hands_in_game + 1) if "{h}" in c.name else [None]
        seats = range(n) if "{p}" in c.name else [None]
        for h in hands:
            for p in seats:
                names.append(c.name.replace("{h}", str(h)).replace("{p}", str(p)))
    return names


@pytest.mark.parametrize("n", [3, 4, 5])
def test_record_columns(n):
    rows = 3
    rec = np.zeros((rows, K.RECORD_COLS), dtype=np.int32)
    rec[:, K.RC_DEALER] = [0, 1, 2]
    rec[:, K.RC_WINNER] = [1, -1, 0]
    rec[:, K.RC_WINNERS] = [2, 3, 1]
    rec[:, K.RC_REASON] = [K.G_COMPLETE, K.G_TRUNCATED, K.G_COMPLETE]
    rec[:, K.RC_TRUNC] = [0, 1, 0]
    rec[:, K.RC_TURNS] = [300, 14000, 250]
    rec[:, K.RC_RESHUF] = [0, 9, 1]
    rec[:, K.RC_HANDS] = HANDS
    for p in range(n):
        rec[:, K.RC_TOTAL + p] = [100 + p, 200, -25 + p]
        rec[:, K.RC_CHIPS + p] = p
        rec[:, K.RC_BUYS + p] = 10 + p
    for h in range(1, HANDS + 1):
        b = K.RC_HAND + (h - 1) * K.HB_SIZE
        rec[:, b + K.HB_OUT] = (h % n) if h != 3 else -1
        rec[:, b + K.HB_REASON] = K.H_OUT if h != 3 else K.H_TURN_CAP
        rec[:, b + K.HB_TURNS] = 20 * h
        rec[:, b + K.HB_RESHUF] = h // 4
        rec[:, b + K.HB_CUT] = 40 + h
        rec[:, b + K.HB_KEPT] = h % 2
        rec[:, b + K.HB_EXACT] = h == 5
        for p in range(n):
            rec[:, b + K.HB_PEN + p] = 10 * h + p
            rec[:, b + K.HB_CHIPS + p] = 7 - p
            rec[:, b + K.HB_BUYS + p] = p
    cols = T._record_columns(rec, n)
    expected = _columns_expanded(n)
    assert expected[0] == "deal_id"                       # added by the runner
    assert sorted(cols) == sorted(expected[1:]) and len(cols) == len(expected) - 1
    assert all(len(v) == rows for v in cols.values())
    assert list(cols["winner"]) == [1, -1, 0] and list(cols["winners"]) == [2, 3, 1]
    assert list(cols["end_reason"]) == [0, 1, 0] and cols["end_reason"].dtype == np.int8
    assert list(cols["truncated"]) == [False, True, False]
    assert list(cols["turns"]) == [300, 14000, 250]
    for p in range(n):
        assert list(cols[f"payout_{p}"]) == [-(100 + p), -200, 25 - p]
        assert list(cols[f"total_{p}"]) == [100 + p, 200, -25 + p]
        assert cols[f"chips_{p}"][0] == p and cols[f"buys_{p}"][0] == 10 + p
    assert list(cols["h3_out"]) == [-1] * 3 and cols["h3_reason"][0] == K.H_TURN_CAP
    assert cols["h7_turns"][0] == 140 and cols["h7_cut"][0] == 47 and cols["h4_reshuffles"][0] == 1
    assert cols["h5_exact"].dtype == bool and cols["h5_exact"][0] and not cols["h6_exact"][0]
    assert cols[f"h6_pen_{n - 1}"][0] == 60 + n - 1 and cols["h2_chips_1"][0] == 6 and cols["h1_buys_2"][0] == 2
    dtypes = {c.name: c.dtype for c in T.COLUMNS}
    for c in T.COLUMNS:
        if c.name in ("deal_id", "h{h}_contract") or c.dtype == "category":
            continue
        name = c.name.replace("{h}", "1").replace("{p}", "0")
        assert str(cols[name].dtype) == dtypes[c.name], c.name


def test_record_columns_follow_the_hands_and_the_dealers_choice():
    rec = np.zeros((2, K.RECORD_COLS), dtype=np.int32)
    rec[:, K.RC_HANDS] = 8
    rec[:, K.RC_CHOSEN] = 1
    rec[:, K.RC_HAND + 7 * K.HB_SIZE + K.HB_CONTRACT] = [3, 5]
    cols = T._record_columns(rec, 4)
    assert sorted(cols) == sorted(_columns_expanded(4, 8, True)[1:])
    assert list(cols["h8_contract"]) == [3, 5]
    rec[:, K.RC_HANDS] = 6
    rec[:, K.RC_CHOSEN] = 0
    assert sorted(T._record_columns(rec, 4)) == sorted(_columns_expanded(4, 6)[1:])


def test_holding_notation():
    from cardsim.sim.notation import parse
    cards = parse("7C 9D")
    p1 = (1 << cards[0]) | (1 << cards[1])
    p2 = 1 << cards[0]
    assert T.fmt_holding(p1, p2, 1) == "7C 7C 9D JK"
    assert T.fmt_holding(0, 0, 2) == "JK JK" and T.fmt_holding(0, 0, 0) == "-"


def _act(kind, a=0, b=0, c=0, d=0, e=0):
    return kind | (a << 8) | (b << 16) | (c << 24) | (d << 32) | (e << 40)


def _meld_row(i, kind, key, lo, hi, wild, owner, jpos, cards, flags=0, twos=0):
    """A T_MELD trace row (see kernels.telefunken.T_MELD)."""
    from cardsim.sim.notation import parse
    p1 = p2 = 0
    for c in parse(cards):
        if p1 >> c & 1:
            p2 |= 1 << c
        else:
            p1 |= 1 << c
    packed = i | kind << 6 | key << 8 | lo << 12 | hi << 17 | wild << 22 | flags << 27 | twos << 32
    return (K.T_MELD, owner, packed, jpos, p1, p2)


def test_format_trace():
    from cardsim.sim.notation import parse_card
    c7, c8d, c10d, jk = parse_card("7C"), parse_card("8D"), parse_card("10D"), 52
    rows = [
        (K.T_HAND, 2, 1, 2, 1, 0),
        (K.T_CUT, 1, 44, 1, 1, 0),
        (K.T_DEAL, 0, 1 << c7, 1 << c7, 1, 0),
        (K.T_UPCARD, -1, c8d, 0, 0, 0),
        (K.T_ACTION, 3, _act(K.A_TAKE_UPCARD), 0, 7, 0),
        (K.T_TAKE, 3, c8d, 0, 0, 0),
        (K.T_ACTION, 3, _act(K.A_MELD, M.MK_GROUP, 6, 1), 0, 7, 0),
        _meld_row(0, M.MK_GROUP, 6, 0, 0, 1, 3, 0, "7C 7D 7H"),
        (K.T_ACTION, 3, _act(K.A_MELD, M.MK_RUN, 1, 5, 9, 8), 0, 7, 0),
        _meld_row(1, M.MK_RUN, 1, 5, 9, 1, 3, 1 << 8, "5D 6D 7D 9D"),
        (K.T_ACTION, 0, _act(K.A_LAYOFF, c10d, 1, 10), 0, 7, 0),
        _meld_row(1, M.MK_RUN, 1, 5, 10, 1, 3, 1 << 8, "5D 6D 7D 9D 10D"),
        (K.T_ACTION, 0, _act(K.A_LAYOFF, jk, 1, 11), 0, 7, 0),
        _meld_row(1, M.MK_RUN, 1, 5, 11, 2, 3, 1 << 8 | 1 << 11, "5D 6D 7D 9D 10D", twos=1 << 2),
        (K.T_ACTION, 3, _act(K.A_RETRIEVE, 0, c7, c7 + 1), 0, 7, 0),
        _meld_row(0, M.MK_GROUP, 6, 0, 0, 0, 3, 0, "7C 7C 7C 7D 7H"),
        (K.T_ACTION, 3, _act(K.A_DISCARD, c8d), 0, 6, 0),
        (K.T_RESHUFFLE, -1, 40, 0, 0, 0),
        (K.T_END, 0, K.H_OUT, 0, 0, 0),
        (K.T_SCORE, 1, 37, 120, 0, 0),
    ]
    trace = np.zeros((30, K.TRACE_WIDTH), dtype=np.int64)
    trace[:len(rows)] = rows
    st = np.zeros(K.ST_SIZE, dtype=np.int64)
    st[K.TR_LEN] = len(rows)
    st[K.N] = 4
    st[K.TOTAL + 1] = 120
    st[K.CHIPS + 1] = 5
    events = T.trace_events(trace, st, ["greedy", "patient", "random", "chip_saver"])
    text = "\n".join(T.format_trace(trace, st, ["greedy", "patient", "random", "chip_saver"]))
    assert "hand 1: dealer seat 2" in text
    assert "cut by seat 1 (patient): bottom portion 44, jokers kept 1, exact" in text
    assert "deal  seat 0 (greedy): 7C 7C JK" in text
    assert "upcard 8D" in text
    assert "seat 3 (chip_saver): take upcard" in text and "seat 3 (chip_saver) takes the discard 8D" in text
    assert "meld: 7C 7D 7H JK  [chips 7]" in text
    assert "meld: 5D 6D 7D JK(8D) 9D" in text
    assert "lay off 10D on 5D 6D 7D JK(8D) 9D  [chips 7]" in text
    assert "lay off JK on 5D 6D 7D JK(8D) 9D 10D" in text
    assert "retrieve a wild card from 7C 7D 7H JK with 7C 7C" in text
    assert "discard 8D  [chips 6]" in text
    assert "reshuffle: 40 cards" in text
    assert "end of hand: out, seat 0 went out" in text
    assert "seat 1 (patient): penalty 37, total 120" in text
    assert "seat 1: total 120 score -120 chips 5" in text
    assert len(events) == len(rows) - 5 + 4                 # T_MELD rows join their action
    melds = [e for e in events if e["action"] == "meld"]
    assert melds[1]["melds"] == [["5D", "6D", "7D", "JK(8D)", "9D"]]
    layoff = [e for e in events if e["action"] == "lay off"][1]
    assert layoff["result"] == ["5D", "6D", "7D", "JK(8D)", "9D", "10D", "2D(JD)"]   # jokers first, then twos
    assert all("text" in e and "action" in e and "seat" in e for e in events)
    assert events[5]["action"] == "take discard"
    assert events[5]["state"]["held"][3] == 1 and events[5]["state"]["pile"] == 0


def test_trace_buffer_size():
    opts = TelefunkenOptions().to_array(4)
    assert T.trace_rows(opts) == 7 * (2000 * 16 + 200)
    assert T.trace_rows(build("max_turns_per_hand=30000").to_array(4)) == T.TRACE_ROWS_CAP


def test_report_payout_words():
    from cardsim.sim.report import _payout_words
    assert _payout_words("telefunken") == ("score (minus penalty points)", "points")
    assert _payout_words("tonk") == ("payout (chips)", "chips")
    assert _payout_words("no-such-game") == ("payout (chips)", "chips")


# ---- command line ------------------------------------------------------------------------------------

def test_cli_options(cli):
    res = cli.invoke(app, ["options", "telefunken"])
    assert res.exit_code == 0, res.output
    text = res.stdout
    for name in OPTION_NAMES:
        assert name in text, name
    for preset in ("venezuela", "ecuador", "bolivia"):
        assert preset in text
    assert "(all defaults)" in text
    assert "contracts=3p,3p+3,4,4+4,5,3+r4,r7" in text
    assert "contract_joker_limit=1:0,2:1,3:0,4:1,5:0,6:0,7:1" in text
    assert "exchange_rounds=none" in text and "6:1" in text
    assert "fourth_suit_only | any_natural | none" in text


def test_cli_strategies(cli):
    res = cli.invoke(app, ["strategies", "telefunken"])
    assert res.exit_code == 0, res.output
    for name in ("random", "greedy", "chip_saver", "patient"):
        assert name in res.stdout
    assert "reserve=2 [0..20]" in res.stdout and "near=1 [0..10]" in res.stdout


def test_cli_games(cli):
    res = cli.invoke(app, ["games"])
    assert res.exit_code == 0, res.output
    assert "telefunken" in res.stdout and "3-5 (4)" in res.stdout


@pytest.mark.parametrize("args, fragment", [
    (["--option", "allow_ace_both_ends=true"], "not supported by this engine"),
    (["--option", "contracts=3p,3+3,4,4+4,5,5+5,3+r7,3,3"], "must list 1..8 hands"),
    (["--preset", "peru3"], "presets: venezuela, ecuador, bolivia, peru1, peru2, farmers"),
    (["--players", "6"], "3 to 5 players"),
    (["--strategy", "patient:near=99"], "out of range"),
])
def test_cli_bad_input_is_one_line(cli, tmp_path, args, fragment):
    res = cli.invoke(app, ["run", "telefunken", "--deals", "1", *args])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and fragment in lines[0], res.stderr


def test_cli_run_replay_and_compare(cli, tmp_path):
    import pandas as pd
    out = tmp_path / "tf.parquet"
    res = cli.invoke(app, ["run", "telefunken", "--games", "40", "--seed", "3", "-q", "--out", str(out),
                           "--strategy", "chip_saver:reserve=3", "--strategy", "greedy", "--strategy", "patient",
                           "--strategy", "greedy"])
    assert res.exit_code == 0, res.output
    assert "mean score" in res.stdout
    df = pd.read_parquet(out)
    assert len(df) == 40 and (df["payout_0"] == -df["total_0"]).all()
    assert (df[[f"h{h}_pen_1" for h in range(1, 8)]].sum(axis=1) == df["total_1"]).all()
    res = cli.invoke(app, ["replay", "telefunken", "--seed", "3", "--deal", "5", "--strategy", "greedy"])
    assert res.exit_code == 0, res.output
    assert "== hand 7" in res.stdout and "end of hand" in res.stdout and " draws " in res.stdout
    res = cli.invoke(app, ["compare", "telefunken", "--strategy", "greedy", "--strategy", "chip_saver:reserve=4",
                           "--field", "greedy", "--games", "20", "--out", str(tmp_path / "cmp")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "cmp" / "_summary.json").exists()


def test_cli_bad_output_leaves_nothing(cli, tmp_path):
    out = tmp_path / "x.parquet"
    res = cli.invoke(app, ["run", "telefunken", "--games", "5", "--out", str(out), "-o", "chips_per_player=-1"])
    assert res.exit_code == 2 and not out.exists()
    assert not list(tmp_path.iterdir())
