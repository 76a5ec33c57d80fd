"""Contract odds (`cardsim odds`, sim.odds): exact small cases, determinism, one holding."""
from __future__ import annotations

import json
from math import comb

import numba
import pytest
from typer.testing import CliRunner

from cardsim.sim.cli import app
from cardsim.sim.errors import UsageError
from cardsim.sim.games.telefunken.odds import holding_meets_contract
from cardsim.sim.odds import contract_odds


def within(r: dict, exact: float) -> bool:
    return r["lo"] <= exact <= r["hi"]


def test_pure_trio_in_three_cards_matches_the_exact_count():
    """Hand 1, 3 cards: 13 ranks x 4 suit triples x 2^3 copies of C(108, 3)."""
    r = contract_odds("telefunken", 1, cards=3, samples=400_000, seed=3)
    assert within(r, 13 * 4 * 8 / comb(108, 3))


def test_group_of_four_in_four_cards_matches_the_exact_count():
    """Hand 3, 4 cards: four naturals of a rank, or three and a joker (one joker at most)."""
    exact = 13 * (comb(8, 4) + comb(8, 3) * 4) / comb(108, 4)
    r = contract_odds("telefunken", 3, cards=4, samples=2_000_000, seed=4)
    assert within(r, exact)


def test_same_seed_same_answer_whatever_the_threads():
    numba.set_num_threads(1)
    one = contract_odds("telefunken", 2, samples=30_000, seed=9)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    many = contract_odds("telefunken", 2, samples=30_000, seed=9)
    assert one == many
    assert contract_odds("telefunken", 2, samples=30_000, seed=10)["hits"] != one["hits"]


def test_more_cards_never_hurt():
    """The same samples with more cards drawn (the first k cards are a prefix) hit at least as often."""
    a = contract_odds("telefunken", 4, cards=11, samples=50_000, seed=1)
    b = contract_odds("telefunken", 4, cards=16, samples=50_000, seed=1)
    assert b["hits"] >= a["hits"]


@pytest.mark.parametrize("holding, hand, ok, melds", [
    ("7C 7D 7H 2S 4S 9D JD QC KH AH 5C", 1, True, ["7C 7D 7H"]),        # §19 example 1
    ("7C 7C 7H 2S 4S 9D", 1, False, []),                                    # §19 example 2
    ("7C 7D JK 2S 4S 9D", 1, False, []),
    ("9S 9S 9H 9D 9C 2C", 5, True, None),                                   # §19 example 6
    ("9S 9H 9D 9C", 5, False, []),
    ("4S 4H 4D 3C 4C 5C 6C 7C JK 9C 10C KD", 7, True, None),               # §19 example 11
])
def test_holding_meets_contract(holding, hand, ok, melds):
    got, laid = holding_meets_contract(holding, hand)
    assert got is ok
    if melds is not None:
        assert laid == melds
    if ok and hand == 7:
        assert any("JK(8C)" in m or len(m.split()) == 3 for m in laid)


def test_holding_errors():
    with pytest.raises(UsageError, match="more than twice"):
        holding_meets_contract("7C 7C 7C", 1)
    with pytest.raises(UsageError, match="1..7"):
        holding_meets_contract("7C", 8)
    with pytest.raises(ValueError, match="not a card"):
        holding_meets_contract("7X", 1)


def test_cli_odds():
    res = CliRunner().invoke(app, ["odds", "telefunken", "--hand", "1", "-n", "20000", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["cards"] == 11 and doc["samples"] == 20000 and doc["lo"] <= doc["probability"] <= doc["hi"]
    res = CliRunner().invoke(app, ["odds", "telefunken", "--hand", "3", "-n", "1000"])
    assert res.exit_code == 0 and "P(contract in 11 random cards)" in res.stdout


@pytest.mark.parametrize("args, fragment", [
    (["odds", "tonk", "--hand", "1"], "contract odds exist for: telefunken"),
    (["odds", "tonk"], "contract odds exist for: telefunken, contract_rummy"),       # the game before the hand
    (["odds", "telefunken", "--hand", "0"], "--hand must be 1..7"),
    (["odds", "telefunken", "--hand", "1", "--cards", "0"], "--cards must be 1..108"),
    (["odds", "telefunken", "--hand", "1", "-n", "0"], "--samples must be >= 1"),
    (["odds", "telefunken", "--hand", "1", "--seed", "-1"], "--seed must be"),
])
def test_cli_odds_bad_input(args, fragment):
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2
    assert res.stderr.startswith("Error:") and fragment in res.stderr and res.stderr.count("\n") == 1
