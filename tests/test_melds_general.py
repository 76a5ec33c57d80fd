"""The general contract search of kernels/melds.py (``gen_solve`` / ``gen_go_out``: several
groups and runs, several wild cards per meld, caps and ratio rules, wrapping runs, wild
tríos; the Peru 1, Peru 2 and Farmer's presets of telefunken.md §17) against the brute force
of tests/reference_wild.py, plus worked scenarios.

Fuzz size: ``CARDSIM_MELD_FUZZ`` random holdings per rules x contract case (default here
60; the reference enumerates every sub-multiset of a holding, about 20 ms each). The full
check is ``CARDSIM_MELD_FUZZ=20000 .venv/bin/python -m pytest -q tests/test_melds_general.py``.
"""
import os
from collections import Counter

import numpy as np
import pytest

from cardsim.kernels import melds as M
import telefunken_tables as TT
from cardsim.sim.notation import parse
import reference_wild as RW
from reference_melds import planes

FUZZ = int(os.environ.get("CARDSIM_MELD_FUZZ", "60"))
G3, R4 = ("group", 3, False), ("run", 4, False)

# name -> (kernel rules, reference rules, deck of natural ids, wild cards in the deck)
RULESETS = {
    "peru2": (M.make_rules(group_wilds=0, run_wilds=13, wrap=True, wild_trio=True, joker_points=20),
              RW.Rules(group_wilds=0, run_wilds=13, wrap=True, wild_trio=True, wild_points=20), 4),
    "peru1": (M.make_rules(group_wilds=0, run_wilds=13, wild_ratio=M.WR_AT_MOST, wrap=True),
              RW.Rules(group_wilds=0, run_wilds=13, ratio=RW.AT_MOST, wrap=True), 12),
    "farmers": (M.make_rules(group_wilds=13, run_wilds=13, wild_ratio=M.WR_FEWER),
                RW.Rules(group_wilds=13, run_wilds=13, ratio=RW.FEWER), 12),
    "one-wild": (TT.TELEFUNKEN_RULES, RW.Rules(), 4),
}
# (rules, kernel contract entry, reference contract keywords, holding sizes)
CASES = [
    ("peru2", [G3, G3], dict(groups=2, size=3, runs=0, run_min=0), (6, 13)),
    ("peru2", [G3, R4], dict(groups=1, size=3, runs=1, run_min=4), (7, 13)),
    ("peru2", [R4, R4], dict(groups=0, size=0, runs=2, run_min=4), (8, 13)),
    ("peru2", [G3] * 3, dict(groups=3, size=3, runs=0, run_min=0), (9, 13)),
    ("peru2", [G3, R4, R4], dict(groups=1, size=3, runs=2, run_min=4), (11, 13)),
    ("peru2", [G3] * 4, dict(groups=4, size=3, runs=0, run_min=0), (12, 13)),
    ("peru2", [R4] * 3, dict(groups=0, size=0, runs=3, run_min=4), (12, 13)),
    ("peru2", [("run", 12, False)], dict(groups=0, size=0, runs=1, run_min=12), (12, 13)),
    ("peru1", [G3, ("run", 5, False)], dict(groups=1, size=3, runs=1, run_min=5), (8, 13)),
    ("peru1", [("run", 4, False)] * 2, dict(groups=0, size=0, runs=2, run_min=4), (8, 13)),
    ("farmers", [("group", 5, False)] * 2, dict(groups=2, size=5, runs=0, run_min=0), (10, 13)),
    ("farmers", [("group", 6, False)], dict(groups=1, size=6, runs=0, run_min=0), (6, 12)),
    ("farmers", [("group", 4, False)] * 3, dict(groups=3, size=4, runs=0, run_min=0), (12, 13)),
    ("one-wild", [G3, G3, G3], dict(groups=3, size=3, runs=0, run_min=0), (9, 12)),
    ("one-wild", [("group", 3, True), G3, G3], dict(groups=3, size=3, runs=0, run_min=0, npure=1), (9, 12)),
    ("one-wild", [G3, R4, R4], dict(groups=1, size=3, runs=2, run_min=4), (11, 13)),
]


def deck(wilds):
    """Natural ids of two packs (the 2s are wild cards when the deck has 12 wild cards)."""
    nat = [c for c in range(52) if wilds < 12 or c % 13 != 1] * 2
    return nat + [M.JOKER_ID] * wilds


def holding(rng, cards, entry, lo, hi):
    """A random holding of lo..hi cards from ``cards``; half the time it is built around
    the contract's melds (runs and groups of random suits and ranks), so both answers occur."""
    pool = Counter(cards)
    hold = []

    def take(c):
        if pool[c] == 0:
            c = M.JOKER_ID if pool[M.JOKER_ID] else None
        if c is not None and len(hold) < hi:
            pool[c] -= 1
            hold.append(c)

    if rng.random() < 0.5:
        for kind, size, _ in entry:
            if kind == "run":
                s, start = int(rng.integers(4)), int(rng.integers(13))
                for r in range(start, start + size):
                    take(s * 13 + r % 13)
            else:
                r = int(rng.integers(13))
                for s in rng.choice(8, size, replace=False):
                    take(int(s % 4) * 13 + r)
    rest = list(pool.elements())
    extra = max(0, int(rng.integers(lo, hi + 1)) - len(hold))
    hold += [rest[i] for i in rng.choice(len(rest), extra, replace=False)]
    return hold


def table_of(entry):
    return M.make_contracts([entry])


def rows_cards(out):
    cards = []
    for row in out:
        if row[M.M_KIND] == 0:
            continue
        cards += [c for c in range(52) for plane in (row[M.M_P1], row[M.M_P2]) if plane >> c & 1]
        cards += [M.JOKER_ID] * int(row[M.M_JOKERS])
    return Counter(cards)


def check_rows(out, entry, rules, hold):
    """The kernel's melds are valid, of the contract's kinds, and in the holding."""
    rows = [r for r in out if r[M.M_KIND]]
    assert len(rows) == len(entry)
    kinds = sorted(int(r[M.M_KIND]) for r in rows)
    assert kinds == sorted(M.MK_GROUP if m[0] == "group" else M.MK_RUN for m in entry)
    for r in rows:
        assert M.meld_valid(r, rules), r
    used = rows_cards(out)
    assert all(hold[c] >= n for c, n in used.items())


@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_contract_search_matches_brute_force(case):
    name, entry, ref_kw, (lo, hi) = CASES[case]
    rules, ref_rules, wilds = RULESETS[name]
    table = table_of(entry)
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    cards = deck(wilds)
    rng = np.random.default_rng(1000 + case)
    held_count = 0
    for _ in range(FUZZ):
        hold = holding(rng, cards, entry, lo, hi)
        p1, p2, j = planes(hold)
        hc = Counter(hold)
        ok, want = RW.best(ref_rules, hc, **ref_kw)
        assert M.find_contract(p1, p2, j, 1, table, rules, out) == ok, hold
        if ok:
            check_rows(out, entry, rules, hc)
        left = M.best_contract(p1, p2, j, 1, table, rules, out)
        assert (left >= 0) == ok, hold
        if ok:
            held_count += 1
            assert M.penalty_rules(p1, p2, j, rules) - left == want, hold
            check_rows(out, entry, rules, hc)
    assert FUZZ < 30 or held_count > 0          # the fuzz reaches held contracts


@pytest.mark.parametrize("case", [5, 6, 7])
def test_go_out_with_the_contract_alone_matches_brute_force(case):
    """Peru 2's last hand: the contract is the whole holding, or all of it but a discard."""
    name, entry, ref_kw, _ = CASES[case]
    rules, ref_rules, wilds = RULESETS[name]
    table = table_of(entry)
    out = np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    cards = deck(wilds)
    rng = np.random.default_rng(2000 + case)
    for _ in range(FUZZ * 3):
        hold = holding(rng, cards, entry, 12, 13)
        p1, p2, j = planes(hold)
        spares = RW.cover_spares(ref_rules, Counter(hold), **ref_kw)
        for need in (False, True):
            d = M.gen_go_out(p1, p2, j, table, 1, rules, out, need)
            if not need and 0 in spares:
                assert d == M.GO_OUT_NO_DISCARD, hold
            elif 1 in spares:
                assert 0 <= d <= M.JOKER_ID, hold
                rest = Counter(hold) - rows_cards(out)
                assert list(rest.elements()) == [d], hold
            else:
                assert d == -1, hold


def test_general_search_agrees_with_the_fast_path_on_the_default_contracts():
    """gen_solve (called directly) and the fast path give the same answers on §4."""
    rules = TT.TELEFUNKEN_RULES
    cards = deck(4)
    rng = np.random.default_rng(7)
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    for hand in range(1, 8):
        spec = TT.TELEFUNKEN_CONTRACTS[hand]
        for _ in range(FUZZ * 4):
            hold = [cards[i] for i in rng.choice(len(cards), int(rng.integers(8, 15)), replace=False)]
            p1, p2, j = planes(hold)
            for stop in (True, False):
                a = M.solve_contract(p1, p2, j, spec, rules, out, stop)
                b = M.gen_solve(p1, p2, j, spec, rules, out, stop)
                assert (a >= 0) == (b >= 0), (hand, hold)
                if not stop:
                    assert a == b, (hand, hold)


# ---- worked scenarios ---------------------------------------------------------------------
def H(text):
    return planes(parse(text))


PERU2 = RULESETS["peru2"][0]
PERU2_TABLE = M.make_contracts([[G3, G3], [G3, R4], [R4, R4], [G3] * 3, [G3, G3, R4], [G3, R4, R4],
                                [[G3] * 4, [R4] * 3, [("run", 12, False)]]])


def test_a_run_gives_up_a_natural_to_a_group():
    """Trío + run of 4 from 7C 7D 7H 4H 5H 6H JK: the trío keeps 7H, the run takes the joker
    (first in order: as 3H; the X set lets a run give up a natural it holds when needed)."""
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    assert M.best_contract(*H("7C 7D 7H 4H 5H 6H JK 9S"), 2, PERU2_TABLE, PERU2, out) == 9
    group = next(r for r in out if r[M.M_KIND] == M.MK_GROUP)
    assert group[M.M_P1] == sum(1 << c for c in parse("7C 7D 7H"))
    assert M.best_contract(*H("7C 7D 7H 4H 5H 6H 7H JK"), 2, PERU2_TABLE, PERU2, out) == 0
    assert M.best_contract(*H("7C 7D 4H 5H 6H 7H JK 9S"), 2, PERU2_TABLE, PERU2, out) == 9


def test_wrapping_runs_and_the_wild_trio():
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    assert M.best_contract(*H("QS KS AS 2S 8D 9D 10D JD"), 3, PERU2_TABLE, PERU2, out) == 0
    assert not M.find_contract(*H("QS KS AS 2S 8D 9D 10D JD"), 3, PERU2_TABLE, TT.TELEFUNKEN_RULES, out)
    assert M.best_contract(*H("JK JK JK 5C 5D 5H 9S"), 1, PERU2_TABLE, PERU2, out) == 9
    assert any(r[M.M_FLAGS] & M.F_WILD for r in out)
    no_trio = M.make_rules(group_wilds=0, run_wilds=13, wrap=True, joker_points=20)
    assert not M.find_contract(*H("JK JK JK 5C 5D 5H 9S"), 1, PERU2_TABLE, no_trio, out)


def test_last_hand_alternatives_and_going_out():
    out = np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    twelve = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    assert M.gen_go_out(*H(twelve + " 5D"), PERU2_TABLE, 7, PERU2, out, False) == parse("5D")[0]
    assert M.gen_go_out(*H(twelve), PERU2_TABLE, 7, PERU2, out, False) == M.GO_OUT_NO_DISCARD
    assert M.gen_go_out(*H(twelve), PERU2_TABLE, 7, PERU2, out, True) == -1     # 11 cards hold no contract
    trios = "4C 4D 4H 8S 8S 8D QH QH QC AC AD AS 9D"
    assert M.gen_go_out(*H(trios), PERU2_TABLE, 7, PERU2, out, False) == parse("9D")[0]
    assert M.gen_go_out(*H("4C 4D 4H 8S 8S 8D QH QH QC AC AD 9D 9C"), PERU2_TABLE, 7, PERU2, out, False) == -1


def test_ratio_rules():
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    farmers = RULESETS["farmers"][0]
    five = M.make_contracts([[("group", 5, False)]])
    assert M.find_contract(*H("9C 9D 9H JK JK"), 1, five, farmers, out)            # 3 naturals > 2 wild cards
    assert not M.find_contract(*H("9C 9D JK JK JK"), 1, five, farmers, out)
    peru1 = RULESETS["peru1"][0]
    run6 = M.make_contracts([[("run", 6, False)]])
    assert M.find_contract(*H("5H 7H 9H JK JK JK"), 1, run6, peru1, out)           # 3 wild cards = 3 naturals
    assert not M.find_contract(*H("5H 9H JK JK JK JK"), 1, run6, peru1, out)
