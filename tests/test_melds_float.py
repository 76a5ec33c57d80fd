"""Floating-joker meld engine (kernels/melds_float.py) against the brute-force reference
(tests/reference_melds.py, Contract Rummy section) and the meld examples of
contract_rummy.md §19.

Fuzz size: ``CARDSIM_MELD_FUZZ`` random holdings per contract and mode (default 400 here).
The issue's full check, 100,000 holdings per contract with zero disagreements, is

    CARDSIM_MELD_FUZZ=100000 .venv/bin/python -m pytest -q tests/test_melds_float.py -k fuzz

(last run 2026-11-30: all 14 contract/mode cases, zero disagreements, about 42 minutes of
CPU; the slowest cases are deal 7 of contract and may_i, about 8 minutes each.)

Holdings have the deal's hand size + 1 cards (+ 0-2 more, as after May-I penalty cards) from
the preset's pack; half of them get a random contract seeded in so that contracts are held
often enough to test the optimum, the rest are plain random draws.
"""
import os
from collections import Counter

import numpy as np
import pytest
import reference_melds as R

from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.cards import JOKER
from cardsim.sim.notation import parse

FUZZ = int(os.environ.get("CARDSIM_MELD_FUZZ", "400"))
RULES = F.make_float_rules()
RULES_MAYI = F.make_float_rules(joker_points=25, no_touch=False)
CONTRACT = F.make_contract_table(exact=True, deal7_all=True)
MAYI = F.make_contract_table(exact=False, deal7_all=False)


def hold_of(text):
    h = np.zeros(F.HOLD, np.int64)
    for c in parse(text):
        h[c] += 1
    return h


def solve(text, deal, table=CONTRACT, rules=RULES):
    out = np.zeros((F.MAX_CM, M.M_SIZE), np.int64)
    v = F.solve_contract(hold_of(text), table[deal], rules, out, False)
    return v, out


def run_row(text):
    cards = parse(text)
    row = np.zeros(M.M_SIZE, np.int64)
    row[M.M_KIND] = M.MK_RUN
    row[M.M_KEY] = next(c for c in cards if c != JOKER) // 13
    for c in cards:
        F.lay(row, c)
    return row


def set_row(text):
    cards = parse(text)
    row = np.zeros(M.M_SIZE, np.int64)
    row[M.M_KIND] = M.MK_GROUP
    row[M.M_KEY] = next(c for c in cards if c != JOKER) % 13
    for c in cards:
        F.lay(row, c)
    return row


# ---- §4.4 validity ------------------------------------------------------------------
@pytest.mark.parametrize("text,ok", [
    ("AD 2D 3D 4D", True), ("JC QC KC AC", True), ("QS KS AS 2S", False), ("KS AS 2S 3S", False),
    ("JK 7S 8S 9S", True), ("9D 10D JK QD KD AD", True), ("3H 4H 5H", False),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", True), ("AH 2H 3H 4H AH", False),
    ("JK JK JK 5C", True), ("5C 5C 6C 7C", False), ("AC JK JK JK", True),
])
def test_run_validity(text, ok):
    row = run_row(text)
    assert F.row_valid(row, RULES) == ok
    cards = parse(text)
    assert R.cr_valid_run([c for c in cards if c != JOKER], cards.count(JOKER)) == ok


def test_set_validity():
    assert F.row_valid(set_row("QS QS JK"), RULES)
    assert F.row_valid(set_row("5D 5D 5S"), RULES)
    assert not F.row_valid(set_row("QS JK"), RULES)


# ---- §19 worked examples (melds) -------------------------------------------------------
def test_example_1_two_sets_with_duplicate_and_joker():
    v, out = solve("7C 7D 7H QS QS JK", 1)
    assert v > 0
    assert sorted(int(out[k, M.M_KEY]) for k in range(2)) == [6, 11]


def test_example_2_four_card_set_not_initial_meld_contract_but_mayi():
    hand = "7C 7D 7H 7S QS QD QH"
    _, out = solve(hand, 1)
    laid = sum(int(out[k, M.M_P2]) for k in range(2))
    assert laid == 6                                    # exactly 3 + 3; 7S waits
    _, out2 = solve(hand, 1, MAYI, RULES_MAYI)
    assert sum(int(out2[k, M.M_P2]) for k in range(2)) == 7


def test_example_3_ace_low_and_no_wrap():
    assert solve("9S 9H 9D AD 2D 3D 4D", 2)[0] > 0
    assert solve("9S 9H 9D QS KS AS 2S", 2)[0] == -1


def test_example_4_contiguous_runs():
    hand = "3H 4H 5H 6H 7H 8H 9H 10H"
    assert solve(hand, 3)[0] == -1
    assert solve(hand, 3, MAYI, RULES_MAYI)[0] > 0


def test_example_5_overlap_and_gap():
    assert solve("3H 4H 5H 6H 5H 6H 7H 8H", 3)[0] > 0
    assert solve("3H 4H 5H 6H 8H 9H 10H JH", 3)[0] > 0


def test_example_6_ace_both_ways_and_joker_gap():
    assert solve("JC QC KC AC AC 2C 3C 4C", 3)[0] > 0
    assert solve("3H 4H 5H JK 7H 8H 9H 10H", 3)[0] > 0


def test_example_7_deal7_goes_out():
    assert solve("2S 3S 4S 5S 9D 10D JD QD 4C 5C 6C 7C 8C", 7)[0] > 0


def test_example_8_deal7_contiguous_split():
    hand = "3H 4H 5H 6H 7H 8H 9H 10H 6C 7C 8C 9C 10C"
    assert solve(hand, 7)[0] == -1
    v, out = solve(hand, 7, MAYI, RULES_MAYI)
    assert v > 0
    rest = hold_of(hand)
    F.rows_cards(out, 3, rest)
    assert rest.sum() == 0                              # all 13 cards: out


def test_example_9_deal7_leftover():
    hand = "2S 3S 4S 5S 9D 10D JD QD 4C 5C 6C 7C KH"
    assert solve(hand, 7)[0] == -1
    v, out = solve(hand, 7, MAYI, RULES_MAYI)
    rest = hold_of(hand)
    F.rows_cards(out, 3, rest)
    assert v > 0 and rest.sum() == 1 and rest[parse("KH")[0]] == 1


def test_example_11_joker_swap():
    run = run_row("JK 7S 8S 9S")
    fours = set_row("4H 4C 4S")
    ten, six, five = parse("10S 6S 5S")
    assert F.can_swap(run, ten, RULES) and F.can_swap(run, six, RULES)
    assert not F.can_swap(run, five, RULES)
    assert not F.can_swap(fours, parse("4D")[0], RULES)          # never from a set
    F.swap(run, ten)
    assert run[M.M_JOKERS] == 0 and F.row_valid(run, RULES)
    assert F.can_lay(fours, JOKER, RULES)
    dead = run_row("JK 7S 8S 9S")
    dead[M.M_FLAGS] |= F.F_DEAD                                  # MAY_I
    assert not F.can_swap(dead, ten, RULES)


def test_example_12_run_limits():
    full = run_row("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    assert F.row_valid(full, RULES)
    assert not F.can_lay(full, JOKER, RULES)
    high = run_row("9D 10D JK QD KD AD")
    assert F.row_valid(high, RULES)
    assert not F.can_lay(high, parse("2D")[0], RULES)
    assert F.can_lay(high, parse("8D")[0], RULES)


def test_example_13_scoring():
    assert F.hold_points(hold_of("7C QS AH JK 10D"), RULES) == 57
    assert F.hold_points(hold_of("7C QS AH JK 10D"), RULES_MAYI) == 67


def test_borrowing_cases():
    # the set needs the 7H that the run would take: run 4H-6H + JK, set 7H JK JK
    assert solve("4H 5H 6H 7H JK JK JK", 2)[0] > 0
    # two runs of hearts, the second needs a natural the first holds
    assert solve("5H 6H JK JK JK JK JK JK", 3)[0] > 0


# ---- differential fuzz against the reference -----------------------------------------
def pack(decks, jokers):
    return [c for c in range(52) for _ in range(decks)] + [JOKER] * jokers


def seeded(rng, deal, deck):
    """A random contract's cards (sets of 3, runs of 4-6) drawn from ``deck``."""
    groups, runs = F.CONTRACT_SHAPES[deal - 1]
    cards = []
    for _ in range(groups):
        r = rng.integers(13)
        cards += [int(s) * 13 + r for s in rng.integers(0, 4, 3)]
    for _ in range(runs):
        s, n = rng.integers(4), rng.integers(4, 7)
        lo = rng.integers(1, 15 - n + 1)
        cards += [s * 13 + (p - 1) % 13 for p in range(lo, lo + n)]
    cards = [JOKER if rng.random() < 0.1 else int(c) for c in cards]
    rest = Counter(deck)
    out = []
    for c in cards:
        if rest[c] > 0:
            rest[c] -= 1
            out.append(c)
    return out, rest


def random_hold(rng, deal, decks, jokers):
    size = (10 if deal <= 3 else 12) + 1 + int(rng.integers(0, 3) if rng.random() < 0.3 else 0)
    deck = pack(decks, jokers)
    base, rest = (seeded(rng, deal, deck) if rng.random() < 0.5 else ([], Counter(deck)))
    base = base[:size]
    pool = list(rest.elements())
    idx = rng.permutation(len(pool))[: size - len(base)]
    return Counter(base + [pool[i] for i in idx])


MODES = {
    "contract": (CONTRACT, RULES, 2, 3, True, True),
    "may_i": (MAYI, RULES_MAYI, 2, 4, False, False),
}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("deal", range(1, 8))
def test_contract_fuzz(mode, deal):
    table, rules, decks, jokers, exact, no_touch = MODES[mode]
    spec = table[deal]
    groups, runs = F.CONTRACT_SHAPES[deal - 1]
    rng = np.random.default_rng(1000 * deal + (mode == "may_i"))
    out = np.zeros((F.MAX_CM, M.M_SIZE), np.int64)
    held = 0
    for i in range(FUZZ):
        hold = random_hold(rng, deal, decks, jokers)
        h = np.zeros(F.HOLD, np.int64)
        for c, k in hold.items():
            h[c] = k
        want = R.cr_best_contract(hold, groups, runs, exact=exact and deal < 7,
                                  all_cards=bool(spec[F.CF_ALL]), no_touch=no_touch)
        got = F.solve_contract(h, spec, rules, out, False)
        assert got == want, (mode, deal, i, sorted(hold.elements()))
        assert (F.solve_contract(h, spec, rules, out.copy(), True) >= 0) == (want >= 0)
        if got >= 0:
            held += 1
            check_rows(h, out, groups + runs, spec, rules, got)
    assert held > FUZZ // 20


def check_rows(h, out, n, spec, rules, value):
    """The rows are valid melds of the contract's shape made of held cards, worth ``value``."""
    rest = h.copy()
    F.rows_cards(out, n, rest)
    assert rest.min() >= 0
    if spec[F.CF_ALL]:
        assert rest.sum() == 0
    laid = h - rest
    assert 32 * sum(int(laid[c]) * int(rules[M.R_POINTS + c % 13]) for c in range(52)) - laid[JOKER] == value
    for k in range(n):
        assert F.row_valid(out[k], rules)
        size = F.row_len(out[k])
        if spec[M.C_GROUP_EXACT]:
            assert size == (3 if out[k, M.M_KIND] == M.MK_GROUP else 4)
