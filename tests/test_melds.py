"""Double-deck meld engine (kernels/melds.py) against the brute-force reference
(tests/reference_melds.py) and the worked examples of telefunken.md §19.

Fuzz size: ``CARDSIM_MELD_FUZZ`` random holdings per contract (default 5000, about 10 s).
The issue's full check, 100,000 holdings per contract with zero disagreements, is

    CARDSIM_MELD_FUZZ=100000 .venv/bin/python -m pytest -q tests/test_melds.py -k fuzz

(2.5 minutes on one core, mostly the Python reference). Holdings have 11-16 cards from
the 108-card deck; half of them get the contract's cards seeded in (a random group of the
contract's size per group, a random 7-9 card run, sometimes with a joker) so that contracts
are held often enough to test ``best_contract``, the rest are plain random draws.
"""
import os
from collections import Counter

import numpy as np
import pytest

from cardsim.kernels import melds as M
import telefunken_tables as TT
from cardsim.kernels.cards import JOKER
from cardsim.sim.notation import parse
import reference_melds as R
from reference_melds import planes

RULES = TT.TELEFUNKEN_RULES
CONTRACTS = TT.TELEFUNKEN_CONTRACTS
FUZZ = int(os.environ.get("CARDSIM_MELD_FUZZ", "5000"))


# =============================================================================
# helpers
# =============================================================================
def H(text):
    return planes(parse(text))


def counter_of(p1, p2, j):
    c = Counter()
    for k in range(52):
        c[k] += (p1 >> k & 1) + (p2 >> k & 1)
    c[JOKER] = j
    return +c if j == 0 else c


def row_cards(row):
    """Meld row -> list of card ids (jokers as 52)."""
    return [k for k in range(52) for plane in (row[M.M_P1], row[M.M_P2]) if plane >> k & 1] \
        + [JOKER] * int(row[M.M_JOKERS])


def pos_mask(*ps):
    return sum(1 << p for p in ps)


def group(text, pure=False, closed=False):
    p1, p2, j = H(text)
    row = np.zeros(M.M_SIZE, np.int64)
    row[M.M_KIND] = M.MK_GROUP
    row[M.M_KEY] = [c for c in parse(text) if c != JOKER][0] % 13
    row[M.M_JOKERS] = j
    row[M.M_FLAGS] = (M.F_PURE if pure else 0) | (M.F_CLOSED if closed else 0)
    row[M.M_P1], row[M.M_P2] = p1, p2
    return row


def run(text):
    """Run written low to high; a joker takes the position between its neighbours, e.g.
    ``JK 6D 7D`` = JK(5D); the lowest start that fits is used (ace low before high)."""
    cards = parse(text)
    for lo in range(1, 15):
        if all(c == JOKER or R.pos_rank(lo + i) == c % 13 for i, c in enumerate(cards)):
            break
    jp = [lo + i for i, c in enumerate(cards) if c == JOKER]
    p1, p2, j = planes(cards)
    row = np.zeros(M.M_SIZE, np.int64)
    row[M.M_KIND] = M.MK_RUN
    row[M.M_KEY] = [c for c in cards if c != JOKER][0] // 13
    row[M.M_LO], row[M.M_HI] = lo, lo + len(cards) - 1
    row[M.M_JOKERS] = j
    row[M.M_JPOS] = pos_mask(*jp)
    row[M.M_P1] = p1
    assert M.meld_valid(row, RULES), text
    return row


def table_of(*rows):
    t = np.zeros((max(len(rows), 1), M.M_SIZE), np.int64)
    for i, r in enumerate(rows):
        t[i] = r
    return t


def layoff_set(hold_text, table):
    p1, p2, j = H(hold_text)
    out = np.zeros((2 * 53 * len(table), 3), np.int64)
    n = M.layoffs(p1, p2, j, table, len(table), RULES, out)
    return {tuple(int(x) for x in r) for r in out[:n]}


def contract(hold_text, hand):
    p1, p2, j = H(hold_text)
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    ok = M.find_contract(p1, p2, j, hand, CONTRACTS, RULES, out)
    out2 = np.zeros_like(out)
    left = M.best_contract(p1, p2, j, hand, CONTRACTS, RULES, out2)
    assert ok == (left >= 0)
    return ok, left, out2


# =============================================================================
# validity edge cases (§3)
# =============================================================================
def vrun(text, *jpos):
    p1, p2, j = H(text)
    return M.valid_run(p1, p2, j, pos_mask(*jpos), RULES)


def vgroup(text):
    p1, p2, j = H(text)
    return M.valid_group(p1, p2, j, RULES)


def test_runs_ace_high_low_no_wrap():
    assert vrun("AH 2H 3H") and vrun("QH KH AH")
    assert not vrun("KH AH 2H")                                  # wraps
    assert vrun("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")        # 13, ace high
    assert vrun("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")        # 13, ace low
    assert not vrun("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", 14)   # ace at both ends
    assert not vrun("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK", 1)
    assert vrun("KH AH JK", 12) and not vrun("KH AH JK", 1) and not vrun("KH AH JK", 2)
    assert vrun("AH 3H JK", 2) and not vrun("AH 3H JK", 14)
    assert vrun("5D JK 7D", 6) and not vrun("5D JK 7D", 8)     # the joker position matters
    assert vrun("5D 6D JK", 4) and vrun("5D 6D JK", 7) and not vrun("5D 6D JK", 6)
    assert not vrun("5D JK JK 8D", 6, 7)                         # two jokers
    assert not vrun("4C 5C 6D") and not vrun("4C 5C") and not vrun("4C JK", 6)
    assert not vrun("4C 4C 5C 6C")                               # duplicate in a run
    no_high = M.make_rules(ace_high=False)
    p1, p2, j = H("QH KH AH")
    assert not M.valid_run(p1, p2, j, 0, no_high)
    assert M.valid_run(*H("AH 2H 3H"), 0, no_high)
    assert not M.valid_run(*H("5D 6D 7D 8D"), 0, M.make_rules(min_run=5))


def test_groups_duplicates_and_jokers():
    assert vgroup("7C 7C 7D") and vgroup("7C 7C 7D 7D 7H 7H 7S 7S JK")
    assert vgroup("7C 7D JK") and not vgroup("7C JK JK") and not vgroup("7C 7D 7H JK JK")
    assert not vgroup("7C 7D") and not vgroup("7C 7D 8C")
    assert M.valid_group(*H("7C JK JK"), M.make_rules(max_jokers=2))
    assert M.is_pure_trio(*H("7C 7D 7H"))
    assert not M.is_pure_trio(*H("7C 7C 7H")) and not M.is_pure_trio(*H("7C 7D JK"))
    assert not M.is_pure_trio(*H("7C 7D 7H 7S"))


def random_small(rng):
    """A random natural multiset of 1-6 cards, biased to one rank or one suit."""
    k = rng.integers(1, 7)
    mode = rng.integers(3)
    if mode == 0:
        r = rng.integers(13)
        cards = [int(rng.integers(4)) * 13 + r for _ in range(k)]
    elif mode == 1:
        s, lo = rng.integers(4), rng.integers(13)
        cards = [int(s * 13 + (lo + rng.integers(5)) % 13) for _ in range(k)]
    else:
        cards = [int(rng.integers(52)) for _ in range(k)]
    cnt = Counter(cards)
    return [c for c in cnt for _ in range(min(cnt[c], 2))]


def test_validity_matches_reference():
    rng = np.random.default_rng(11)
    for _ in range(20000):
        nat = random_small(rng)
        j = int(rng.integers(3))
        p1, p2, _ = planes(nat)
        assert M.valid_group(p1, p2, j, RULES) == R.valid_group(nat, j), (nat, j)
        assert M.is_pure_trio(p1, p2, j) == R.is_pure_trio(nat, j)
        jps = [int(p) for p in rng.choice(np.arange(1, 15), size=j, replace=False)]
        assert M.valid_run(p1, p2, j, pos_mask(*jps), RULES) == R.valid_run(nat, jps), \
            (nat, jps)


def test_penalty():
    assert M.penalty(*H("AS JK 10D 7C 2H")) == 45                # §19.16
    assert M.penalty(*H("AS AS KD QD JD 9C JK JK")) == 11 + 11 + 30 + 9 + 30
    p1, p2, j = H("AS AS KD QD JD 9C JK JK 2C 5H 5H")
    assert M.penalty(p1, p2, j) == M.penalty_rules(p1, p2, j, RULES) == R.holding_points(
        counter_of(p1, p2, j))


# =============================================================================
# §19 worked examples
# =============================================================================
def test_example_1_pure_trio():
    ok, left, out = contract("7C 7D 7H 2S 4S 9D JD QC KH AH 5C", 1)
    assert ok and M.is_pure_trio(out[0, M.M_P1], out[0, M.M_P2], out[0, M.M_JOKERS])
    assert out[0, M.M_FLAGS] == M.F_PURE and sorted(row_cards(out[0])) == parse("7C 7D 7H")
    assert left == M.penalty(*H("2S 4S 9D JD QC KH AH 5C"))


def test_example_2_impure_candidates():
    assert not contract("7C 7C 7H", 1)[0]
    assert not contract("7C 7D JK", 1)[0]
    assert contract("7C 7C 7H 7D JK QS", 1)[0]                 # 7C 7D 7H is pure
    assert not contract("7C 7C 7H JK 2S 4S", 1)[0]
    # the extra group 7C 7C JK is a valid ordinary group
    assert vgroup("7C 7C JK")


def test_example_3_pure_trio_layoffs():
    t = table_of(group("7C 7D 7H", pure=True))
    assert layoff_set("7S 7C JK 7D", t) == {(parse("7S")[0], 0, 0)}
    M.apply_layoff(t, 0, parse("7S")[0], 0, RULES)
    assert t[0, M.M_FLAGS] == M.F_PURE | M.F_CLOSED and M.meld_valid(t[0], RULES)
    assert layoff_set("7S 7C JK 7D", t) == set()                  # closed
    # Bolivia: any natural; none
    any_nat = M.make_rules(pure_ext=M.PURE_ANY_NATURAL)
    t = table_of(group("7C 7D 7H", pure=True))
    out = np.zeros((200, 3), np.int64)
    n = M.layoffs(*H("7C 7S JK"), t, 1, any_nat, out)
    assert {int(c) for c in out[:n, 0]} == set(parse("7C 7S"))


def test_example_4_hand3():
    assert contract("7C 7C 7D 7H", 3)[0]
    assert contract("7C 7D 7H JK", 3)[0]
    assert not contract("7C 7D JK JK", 3)[0]
    assert not contract("7C 7D 7H", 3)[0]
    assert not vgroup("7C 7D JK JK")


def test_example_5_hand3_exact_four():
    ok, left, out = contract("7C 7D 7H 7S 7C 3D 4D 5D QS", 3)
    assert ok and len(row_cards(out[0])) == 4 and out[1, M.M_KIND] == 0
    assert left == M.penalty(*H("7C 3D 4D 5D QS"))                # the fifth 7 stays
    assert vrun("3D 4D 5D")                                        # the extra run


def test_example_6_hand5():
    assert contract("9S 9S 9H 9D 9C", 5)[0]
    assert contract("9S 9H 9D 9C JK", 5)[0]
    assert not contract("9S 9H 9D 9C", 5)[0]


def test_example_7_runs():
    assert vrun("QH KH AH") and vrun("AH 2H 3H") and vrun("5D JK 7D", 6)
    assert not vrun("KH AH 2H") and not vrun("5D JK JK 8D", 6, 7) and not vrun("4C 5C 6D")
    assert not vrun("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")   # 14 cards


def test_example_8_joker_shift():
    t = table_of(run("JK 6D 7D"))
    assert t[0, M.M_JPOS] == pos_mask(5)
    p1, p2, j = H("5D 9D")
    out = np.zeros((10, 3), np.int64)
    n = M.joker_shifts(p1, p2, j, t, 1, RULES, out)
    five, eight, nine = parse("5D 8D 9D")
    assert {tuple(r) for r in out[:n].tolist()} == {(five, 0, 4), (five, 0, 8)}
    M.apply_joker_shift(t, 0, five, 8)
    M.apply_layoff(t, 0, nine, 9, RULES)
    assert (t[0, M.M_LO], t[0, M.M_HI], t[0, M.M_JPOS]) == (5, 9, pos_mask(8))
    assert sorted(row_cards(t[0])) == sorted(parse("5D 6D 7D JK 9D"))
    assert M.meld_valid(t[0], RULES)
    assert M.joker_shifts(*H("8D"), t, 1, RULES, out) == 0          # frozen
    # beyond-an-end-joker lay-off freezes it (§9.4)
    t = table_of(run("5D 6D 7D JK"))
    assert layoff_set("9D 4D", t) == {(parse("9D")[0], 0, 9), (parse("4D")[0], 0, 4)}


def test_example_9_group_joker():
    t = table_of(group("8S 8H JK"))
    out = np.zeros((10, 3), np.int64)
    c8 = parse("8C")[0]
    n = M.joker_retrievals(*H("8C 8C"), t, 1, RULES, out)
    assert out[:n].tolist() == [[0, c8, c8]]
    assert M.joker_retrievals(*H("8C"), t, 1, RULES, out) == 0
    M.apply_retrieval(t, 0, c8, c8, RULES)
    assert sorted(row_cards(t[0])) == sorted(parse("8S 8H 8C 8C")) and M.meld_valid(t[0], RULES)
    t = table_of(group("8S 8H JK"))
    assert layoff_set("8C", t) == {(c8, 0, 0)}                     # single 8C: a lay-off
    M.apply_layoff(t, 0, c8, 0, RULES)
    assert sorted(row_cards(t[0])) == sorted(parse("8S 8H 8C JK"))


def test_example_10_hand2_and_layoff():
    ok, left, out = contract("5C 5D 5H QS QS JK", 2)
    assert ok and left == 0
    assert sorted(row_cards(out[0]) + row_cards(out[1])) == sorted(parse("5C 5D 5H QS QS JK"))
    t = table_of(run("3H 4H 5H"))
    assert layoff_set("6H", t) == {(parse("6H")[0], 0, 6)}
    # two groups of one rank (A15), disjoint physical cards
    ok, left, out = contract("5C 5D 5H 5S 5C JK", 2)
    assert ok and left == 0
    assert not contract("5C 5D 5H 5S JK", 2)[0]


def test_example_11_hand7():
    ok, left, out = contract("4S 4H 4D 3C 4C 5C 6C 7C JK 9C 10C KD", 7)
    assert ok and left == 10                                        # only KD left
    g, r = out[0], out[1]
    assert sorted(row_cards(g)) == sorted(parse("4S 4H 4D"))
    assert (r[M.M_KEY], r[M.M_LO], r[M.M_HI], r[M.M_JPOS]) == (0, 3, 10, pos_mask(8))


def test_example_12_hand7_extra_run():
    hold = "QS QS QD 5H 6H 7H 8H 9H 10H JH 2C 3C 4C 5C"
    ok, left, out = contract(hold, 7)
    assert ok and left == M.penalty(*H("2C 3C 4C 5C"))            # extra run laid by the game
    assert vrun("2C 3C 4C 5C")


def test_example_13_hand7_cannot_go_out():
    ok, left, out = contract("4S 4H 4D 4C 6H 7H 8H 9H 10H JH QH KD", 7)
    assert ok and left == M.penalty(*H("4C KD"))      # two cards left: no single discard
    assert not contract("4S 4H 4D 4C 6H 7H 8H 9H 10H JH KD", 7)[0]   # run of 6


# =============================================================================
# lay-offs and joker operations against the reference
# =============================================================================
def ref_meld(row):
    if row[M.M_KIND] == M.MK_GROUP:
        nat = [c for c in row_cards(row) if c != JOKER]
        return {"kind": "group", "cards": nat, "jokers": int(row[M.M_JOKERS]),
                "pure": bool(row[M.M_FLAGS] & M.F_PURE),
                "closed": bool(row[M.M_FLAGS] & M.F_CLOSED)}
    layout = {}
    for c in row_cards(row):
        if c == JOKER:
            continue
        p = c % 13 + 1
        if c % 13 == 0 and row[M.M_HI] == 14:
            p = 14
        layout[p] = c
    for p in range(1, 15):
        if row[M.M_JPOS] >> p & 1:
            layout[p] = R.JK
    return {"kind": "run", "layout": layout}


def random_table_meld(rng):
    row = np.zeros(M.M_SIZE, np.int64)
    if rng.random() < 0.5:
        r = int(rng.integers(13))
        kind = rng.integers(3)
        if kind == 0:                                       # pure trío, maybe closed
            suits = rng.permutation(4)[: 3 + int(rng.integers(2))]
            cards = [int(s) * 13 + r for s in suits]
            row[M.M_FLAGS] = M.F_PURE | (M.F_CLOSED if len(cards) == 4 else 0)
            j = 0
        else:
            j = int(rng.integers(2))
            n = int(rng.integers(3 - j, 7))
            cnt = Counter()
            while sum(cnt.values()) < n:
                c = int(rng.integers(4)) * 13 + r
                if cnt[c] < 2:
                    cnt[c] += 1
            cards = list(cnt.elements())
        p1, p2, _ = planes(cards)
        row[M.M_KIND], row[M.M_KEY], row[M.M_JOKERS] = M.MK_GROUP, r, j
        row[M.M_P1], row[M.M_P2] = p1, p2
    else:
        s = int(rng.integers(4))
        length = int(rng.integers(3, 14))
        lo = int(rng.integers(1, 16 - length))
        hi = lo + length - 1
        jp = 0
        if rng.random() < 0.5:
            jp = lo + int(rng.integers(length))
            if rng.random() < 0.5:
                jp = lo if rng.random() < 0.5 else hi
        nat = [s * 13 + R.pos_rank(p) for p in range(lo, hi + 1) if p != jp]
        row[M.M_KIND], row[M.M_KEY], row[M.M_LO], row[M.M_HI] = M.MK_RUN, s, lo, hi
        row[M.M_JOKERS] = 1 if jp else 0
        row[M.M_JPOS] = (1 << jp) if jp else 0
        row[M.M_P1] = planes(nat)[0]
    assert M.meld_valid(row, RULES), row
    return row


def test_layoffs_and_joker_ops_match_reference():
    rng = np.random.default_rng(5)
    deck = list(range(52)) * 2 + [JOKER] * 4
    out = np.zeros((2 * 53 * 8, 3), np.int64)
    for _ in range(3000):
        table = np.array([random_table_meld(rng) for _ in range(int(rng.integers(1, 7)))])
        hold = [deck[i] for i in rng.choice(len(deck), int(rng.integers(1, 16)), replace=False)]
        p1, p2, j = planes(hold)
        ref_table = [ref_meld(r) for r in table]
        hc = counter_of(p1, p2, j)
        n = M.layoffs(p1, p2, j, table, len(table), RULES, out)
        got = [tuple(r) for r in out[:n].tolist()]
        assert len(got) == len(set(got))
        assert set(got) == R.layoffs(hc, ref_table), (hold, table)
        n = M.joker_shifts(p1, p2, j, table, len(table), RULES, out)
        assert {tuple(r) for r in out[:n].tolist()} == R.joker_shifts(hc, ref_table)
        n = M.joker_retrievals(p1, p2, j, table, len(table), RULES, out)
        assert {tuple(r) for r in out[:n].tolist()} == R.joker_retrievals(hc, ref_table)
        # every lay-off keeps the meld valid
        for card, i, pos in got:
            t2 = table.copy()
            M.apply_layoff(t2, i, card, pos, RULES)
            assert M.meld_valid(t2[i], RULES)


# =============================================================================
# contracts: differential fuzz against the brute force
# =============================================================================
DECK = list(range(52)) * 2 + [JOKER] * 4


def seeded_holding(rng, hand):
    """11-16 cards; half the time the contract's cards are seeded in first."""
    size = int(rng.integers(11, 17))
    left = Counter(DECK)
    hold = []

    def take(c):
        left[c] -= 1
        hold.append(c)

    if rng.random() < 0.5:
        for kind, n in R.CONTRACTS[hand]:
            if kind == "run":
                s = int(rng.integers(4))
                length = int(rng.integers(7, 10))
                lo = int(rng.integers(1, 16 - length))
                jp = lo + int(rng.integers(length)) if rng.random() < 0.3 else None
                for p in range(lo, lo + length):
                    c = JOKER if p == jp else s * 13 + R.pos_rank(p)
                    if left[c] > 0:
                        take(c)
            else:
                r = int(rng.integers(13))
                pool = [c for c in (s * 13 + r for s in range(4)) for _ in range(left[c])]
                pool += [JOKER] * min(left[JOKER], 1)
                for i in rng.choice(len(pool), min(n, len(pool)), replace=False):
                    take(pool[i])
    hold = hold[:size]
    rest = list(left.elements())
    need = size - len(hold)
    hold += [rest[i] for i in rng.choice(len(rest), need, replace=False)]
    return hold


def check_contract_melds(hand, out, hold_counter, left=None):
    spec = R.CONTRACTS[hand]
    rows = [r for r in out if r[M.M_KIND] != 0]
    assert len(rows) == len(spec)
    used = Counter()
    for row, (kind, n) in zip(rows, spec):
        cards = row_cards(row)
        used.update(cards)
        nat = [c for c in cards if c != JOKER]
        assert M.meld_valid(row, RULES)
        if kind == "run":
            assert row[M.M_KIND] == M.MK_RUN and len(cards) >= n
            jps = [p for p in range(15) if row[M.M_JPOS] >> p & 1]
            assert R.valid_run(nat, jps)
        else:
            assert row[M.M_KIND] == M.MK_GROUP and len(cards) == n
            assert R.valid_group(nat, len(cards) - len(nat))
            if kind == "pure":
                assert R.is_pure_trio(nat, len(cards) - len(nat))
    assert all(hold_counter[c] >= k for c, k in used.items())   # disjoint, from the holding
    if left is not None:
        laid = sum(R.points(c) * k for c, k in used.items())
        assert left == R.holding_points(hold_counter) - laid


@pytest.mark.parametrize("hand", range(1, 8))
def test_contract_fuzz(hand):
    rng = np.random.default_rng(1000 + hand)
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    held = 0
    for _ in range(FUZZ):
        hold = seeded_holding(rng, hand)
        p1, p2, j = planes(hold)
        hc = Counter(hold)
        exists, ref_left = R.best_contract(hc, hand)
        ok = M.find_contract(p1, p2, j, hand, CONTRACTS, RULES, out)
        assert ok == exists, (hand, sorted(hold))
        if ok:
            check_contract_melds(hand, out, hc)
        left = M.best_contract(p1, p2, j, hand, CONTRACTS, RULES, out)
        assert (left >= 0) == exists
        if exists:
            held += 1
            assert left == ref_left, (hand, sorted(hold), left, ref_left)
            check_contract_melds(hand, out, hc, left)
    assert held > FUZZ // 5                       # the seeding makes contracts common


# Contract Rummy-style contracts through the same solver: groups of at least n, a run alone,
# a group with a run of 4+ (table rows in the C_* layout).
OTHER_SPECS = [
    ([2, 3, 0, 0, 0, 0, -1, 0, 0], [("group+", 3), ("group+", 3)]),
    ([1, 3, 0, 0, 1, 4, -1, 0, 0], [("group+", 3), ("run", 4)]),
    ([0, 0, 0, 0, 1, 4, -1, 0, 0], [("run", 4)]),
    ([1, 4, 1, 0, 1, 3, -1, 0, 0], [("group", 4), ("run", 3)]),
]


@pytest.mark.parametrize("k", range(len(OTHER_SPECS)))
def test_other_contract_specs_match_reference(k):
    row, spec = OTHER_SPECS[k]
    table = np.array([row, row], np.int64)
    rng = np.random.default_rng(77 + k)
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    for _ in range(max(FUZZ // 5, 200)):
        hold = seeded_holding(rng, 7 if k else 2)
        p1, p2, j = planes(hold)
        exists, ref_left = R.best_contract(Counter(hold), None, spec)
        assert M.find_contract(p1, p2, j, 1, table, RULES, out) == exists, sorted(hold)
        left = M.best_contract(p1, p2, j, 1, table, RULES, out)
        assert (left >= 0) == exists and (not exists or left == ref_left), (sorted(hold), spec)
        if exists:
            rows = [r for r in out if r[M.M_KIND]]
            assert len(rows) == len(spec) and all(M.meld_valid(r, RULES) for r in rows)
            used = Counter(c for r in rows for c in row_cards(r))
            assert all(Counter(hold)[c] >= n for c, n in used.items())
