"""Contract variants of the meld engine (kernels/melds.py): ``make_contracts`` (rules spec
A34), joker limits over a whole contract (A36), mixed pure / plain groups, distinct ranks
(A15), run-only contracts, the Ecuador and Bolivia tables (§17) and Hand-7 going out with a
contracts row — against the brute force of tests/reference_melds.py.

Fuzz size: ``CARDSIM_MELD_FUZZ`` random holdings per contract (default here 1000, about
15 s in all). Only the contracts that differ from the default table are fuzzed here (all of
Ecuador's, Bolivia's Hand 7, the two-group hands with distinct ranks). The issue's full
check, 100,000 holdings per contract with zero disagreements, is

    CARDSIM_MELD_FUZZ=100000 .venv/bin/python -m pytest -q tests/test_melds_variants.py -k fuzz

(the Python reference is the slow part).
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
FUZZ = int(os.environ.get("CARDSIM_MELD_FUZZ", "1000"))
DECK = list(range(52)) * 2 + [JOKER] * 4

TRIO, PURE = ("group", 3, False), ("group", 3, True)
G4, G5 = ("group", 4, False), ("group", 5, False)
DEFAULT_ENTRIES = [[PURE], [TRIO, TRIO], [G4], [G4, G4], [G5], [G5, G5],
                   [TRIO, ("run", 7, False)]]
ECUADOR_ENTRIES = [[PURE], [PURE, TRIO], [G4], [G4, G4], [G5], [TRIO, ("run", 4, False)],
                   [("run", 7, False)]]
ECUADOR_LIMITS = {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0, 7: 1}
BOLIVIA_ENTRIES = DEFAULT_ENTRIES[:6] + [[("run", 7, False)]]
DISTINCT_CONTRACTS = M.make_contracts(DEFAULT_ENTRIES, distinct_ranks=True)

NODUP = M.make_rules(group_dups=False)

# name -> (contracts table, make_contracts entries, joker limits, distinct ranks, rules)
TABLES = {
    "ecuador": (TT.ECUADOR_CONTRACTS, ECUADOR_ENTRIES, ECUADOR_LIMITS, False, RULES),
    "bolivia": (TT.BOLIVIA_CONTRACTS, BOLIVIA_ENTRIES, {}, False, RULES),
    "distinct": (DISTINCT_CONTRACTS, DEFAULT_ENTRIES, {}, True, RULES),
    "nodup": (TT.TELEFUNKEN_CONTRACTS, DEFAULT_ENTRIES, {}, False, NODUP),
    "ecuador-nodup": (TT.ECUADOR_CONTRACTS, ECUADOR_ENTRIES, ECUADOR_LIMITS, False, NODUP),
}


def H(text):
    return planes(parse(text))


def row_cards(row):
    return [k for k in range(52) for plane in (row[M.M_P1], row[M.M_P2]) if plane >> k & 1] \
        + [JOKER] * int(row[M.M_JOKERS])


def solve(table, hand, cards, rules=RULES):
    p1, p2, j = planes(cards)
    out = np.zeros((M.MAX_CONTRACT_MELDS, M.M_SIZE), np.int64)
    ok = bool(M.find_contract(p1, p2, j, hand, table, rules, out))
    found = out.copy()
    left = int(M.best_contract(p1, p2, j, hand, table, rules, out))
    assert ok == (left >= 0)
    return ok, left, found, out


# =============================================================================
# make_contracts
# =============================================================================
def test_make_contracts_default_and_presets():
    assert (M.make_contracts(DEFAULT_ENTRIES) == TT.TELEFUNKEN_CONTRACTS).all()
    assert TT.TELEFUNKEN_CONTRACTS.shape == (M.CONTRACT_ROWS, M.C_SIZE)
    assert (TT.TELEFUNKEN_CONTRACTS[1:8, M.C_JOKER_LIMIT] == -1).all()
    assert (TT.TELEFUNKEN_CONTRACTS[8:] == 0).all() and (TT.TELEFUNKEN_CONTRACTS[:, M.C_NEXT] == 0).all()
    assert (TT.TELEFUNKEN_CONTRACTS[:, M.C_DISTINCT] == 0).all()
    ecu = M.make_contracts(ECUADOR_ENTRIES, joker_limits=ECUADOR_LIMITS)
    assert (ecu == TT.ECUADOR_CONTRACTS).all()
    assert list(ecu[2]) == [2, 3, 1, 1, 0, 0, 1, 0, 0]              # two tríos, one pure
    assert list(ecu[6]) == [1, 3, 1, 0, 1, 4, 0, 0, 0]              # trío + run of 4+
    assert list(ecu[7]) == [0, 0, 0, 0, 1, 7, 1, 0, 0]              # run of 7+
    assert (M.make_contracts(BOLIVIA_ENTRIES) == TT.BOLIVIA_CONTRACTS).all()
    assert (TT.BOLIVIA_CONTRACTS[:7] == TT.TELEFUNKEN_CONTRACTS[:7]).all()
    assert (DISTINCT_CONTRACTS[1:8, M.C_DISTINCT] == 1).all()
    # the run may be listed first; pure groups go first
    t = M.make_contracts([[("run", 4, False), TRIO, PURE]] + DEFAULT_ENTRIES[1:])
    assert list(t[1]) == [2, 3, 1, 1, 1, 4, -1, 0, 0]


@pytest.mark.parametrize("entry, match", [
    ([], "at least one meld"),
    ([TRIO] * 5, "0-4 groups"),
    ([("run", 4, False)] * 4, "0-4 groups and 0-3 runs"),
    ([("run", 4, False), ("run", 5, False)], "one minimum length"),
    ([TRIO, G4], "share one size"),
    ([("group", 4, True)], "only a group of 3"),
    ([("run", 3, True)], "only a group of 3"),
    ([("set", 3, False)], "'group' or 'run'"),
    ([("group", 2, False)], "size >= 3"),
    ([("group", 3)], r"\(kind, size, pure\)"),
])
def test_make_contracts_rejects_unsupported(entry, match):
    with pytest.raises(ValueError, match=match):
        M.make_contracts([entry] + DEFAULT_ENTRIES[1:])


def test_make_contracts_rejects_bad_counts_and_limits():
    with pytest.raises(ValueError, match="1..8 entries"):
        M.make_contracts([])
    with pytest.raises(ValueError, match="1..8 entries"):
        M.make_contracts(DEFAULT_ENTRIES + DEFAULT_ENTRIES[:2])
    assert M.make_contracts(DEFAULT_ENTRIES[:6])[7, M.C_GROUPS] == 0          # six hands (Peru 1)
    with pytest.raises(ValueError, match="joker_limits"):
        M.make_contracts(DEFAULT_ENTRIES, joker_limits={8: 1})
    with pytest.raises(ValueError, match="joker_limits"):
        M.make_contracts(DEFAULT_ENTRIES, joker_limits={2: -1})


# =============================================================================
# examples
# =============================================================================
def test_joker_limit_over_the_whole_contract():
    ecu = TT.ECUADOR_CONTRACTS
    # Hand 4: two cuartetos with one joker each are fine by default, not in Ecuador
    hold = parse("7C 7D 7H JK 9C 9D 9S JK")
    assert solve(TT.TELEFUNKEN_CONTRACTS, 4, hold)[0]
    assert not solve(ecu, 4, hold)[0]
    ok, left, _, out = solve(ecu, 4, parse("7C 7D 7H JK 9C 9D 9S 9S JK"))
    assert ok and left == 15 and out[0, M.M_JOKERS] + out[1, M.M_JOKERS] == 1
    # Hands 3, 5: no joker at all; Hand 7: one run with one joker
    assert not solve(ecu, 3, parse("7C 7D 7H JK"))[0]
    assert solve(ecu, 3, parse("7C 7D 7H 7H JK"))[1] == 15
    assert solve(ecu, 7, parse("3C 4C 5C JK 7C 8C 9C"))[0]
    # Hand 6: trío + run of 4+, no joker: the joker stays even where it could be laid
    ok, left, _, out = solve(ecu, 6, parse("KC KD KH 5S 6S 7S 8S JK"))
    assert ok and left == 15 and out[1, M.M_KIND] == M.MK_RUN
    assert not solve(ecu, 6, parse("KC KD JK 5S 6S 7S 8S"))[0]
    assert not solve(ecu, 6, parse("KC KD KH 5S 6S JK 8S"))[0]


def test_mixed_pure_groups():
    ecu = TT.ECUADOR_CONTRACTS
    ok, left, _, out = solve(ecu, 2, parse("7C 7D 7H 9C 9C JK 2S"))
    assert ok and left == 2
    assert out[0, M.M_FLAGS] == M.F_PURE and sorted(row_cards(out[0])) == parse("7C 7D 7H")
    assert out[1, M.M_FLAGS] == 0 and M.meld_valid(out[1], RULES)
    # no pure trío: not held, even with two good groups
    assert not solve(ecu, 2, parse("7C 7C 7H 9C 9C 9D"))[0]
    # one rank for both: a pure trío + 3 more of the rank (any suits)
    ok, left, _, out = solve(ecu, 2, parse("7C 7D 7H 7C 7D 7S"))
    assert ok and left == 0 and out[0, M.M_KEY] == out[1, M.M_KEY] == 6
    assert M.is_pure_trio(out[0, M.M_P1], out[0, M.M_P2], 0)
    assert not solve(ecu, 2, parse("7C 7D 7H 7C JK"))[0]        # the trío is not a group
    # the higher-value rank is the pure one when only it can be
    ok, left, _, out = solve(ecu, 2, parse("3C 3C 3D AC AD AH"))
    assert ok and out[0, M.M_KEY] == 0 and out[1, M.M_KEY] == 2
    # two pure tríos of one rank from six naturals (the old hand-1 meaning, doubled)
    two_pure = M.make_contracts([[PURE, PURE]] + DEFAULT_ENTRIES[1:])
    assert solve(two_pure, 1, parse("7C 7D 7H 7C 7D 7S"))[0]
    assert not solve(two_pure, 1, parse("7C 7D 7H 7C 7D JK"))[0]


def test_distinct_ranks():
    hold = parse("5C 5D 5H 5S 5C JK")
    assert solve(TT.TELEFUNKEN_CONTRACTS, 2, hold)[1] == 0
    assert not solve(DISTINCT_CONTRACTS, 2, hold)[0]
    ok, left, _, out = solve(DISTINCT_CONTRACTS, 2, hold + parse("KD KD"))
    assert ok and out[0, M.M_KEY] != out[1, M.M_KEY]
    assert left == M.penalty(*H("5C 5S"))


def test_run_only_contract():
    bol = TT.BOLIVIA_CONTRACTS
    ok, left, _, out = solve(bol, 7, parse("2H 3H 4H 5H 6H 7H 8H KD KD"))
    assert ok and left == 20 and out[0, M.M_KIND] == M.MK_RUN and out[1, M.M_KIND] == 0
    assert not solve(bol, 7, parse("2H 3H 4H 5H 6H 7H KD KD KS"))[0]
    assert solve(bol, 7, parse("2H 3H 4H JK 6H 7H 8H"))[1] == 0


# =============================================================================
# differential fuzz
# =============================================================================
def seeded(rng, spec, dups=True):
    """11-16 cards; half the time the contract's melds are seeded in first (groups without
    identical cards unless ``dups``)."""
    size = int(rng.integers(11, 17))
    left = Counter(DECK)
    hold = []
    if rng.random() < 0.5:
        for kind, n in spec:
            for c in seed_meld(rng, kind, n, left, dups):
                if left[c] > 0:
                    left[c] -= 1
                    hold.append(c)
    hold = hold[:size]
    rest = list(left.elements())
    hold += [rest[i] for i in rng.choice(len(rest), size - len(hold), replace=False)]
    return hold


def seed_meld(rng, kind, n, left, dups=True):
    if kind == "run":
        s = int(rng.integers(4))
        length = int(rng.integers(n, min(n + 3, 14) + 1))
        lo = int(rng.integers(1, 16 - length))
        jp = lo + int(rng.integers(length)) if rng.random() < 0.3 else None
        return [JOKER if p == jp else s * 13 + R.pos_rank(p) for p in range(lo, lo + length)]
    r = int(rng.integers(13))
    if kind == "pure":
        return [int(s) * 13 + r for s in rng.permutation(4)[:n]]
    pool = [c for c in (s * 13 + r for s in range(4)) for _ in range(min(left[c], 1 + dups))]
    pool += [JOKER] * min(left[JOKER], 1)
    return [pool[i] for i in rng.choice(len(pool), min(n, len(pool)), replace=False)]


def check_melds(out, spec, hold, limit, distinct, rules, left=None):
    """The rows lay ``spec``: valid, disjoint, from the holding, within the joker limit,
    distinct ranks when asked, pure rows pure; ``left`` = the penalty they leave."""
    rows = [r for r in out if r[M.M_KIND] != 0]
    assert len(rows) == len(spec)
    used = Counter()
    for row, (kind, n) in zip(rows, spec):
        cards = row_cards(row)
        used.update(cards)
        nat = [c for c in cards if c != JOKER]
        assert M.meld_valid(row, rules)
        if kind == "run":
            assert row[M.M_KIND] == M.MK_RUN and len(cards) >= n
            assert R.valid_run(nat, [p for p in range(15) if row[M.M_JPOS] >> p & 1], n)
        else:
            assert row[M.M_KIND] == M.MK_GROUP and len(cards) == n
            assert R.valid_group(nat, len(cards) - len(nat), bool(rules[M.R_GROUP_DUPS]))
            assert bool(row[M.M_FLAGS] & M.F_PURE) == (kind == "pure")
            assert kind != "pure" or R.is_pure_trio(nat, len(cards) - len(nat))
    assert all(hold[c] >= k for c, k in used.items())
    assert limit is None or used[JOKER] <= limit
    ranks = [r[M.M_KEY] for r in rows if r[M.M_KIND] == M.MK_GROUP]
    assert not distinct or len(set(ranks)) == len(ranks)
    if left is not None:
        assert left == R.holding_points(hold) - sum(R.points(c) * k for c, k in used.items())


def fuzz_contract(name, hand, n, seed):
    """n random holdings: the kernel agrees with the brute force; returns how many held."""
    table, entries, limits, distinct, rules = TABLES[name]
    dups = bool(rules[M.R_GROUP_DUPS])
    spec = R.spec_of(entries[hand - 1])
    limit = limits.get(hand)
    rng = np.random.default_rng(seed)
    held = 0
    for _ in range(n):
        hold = seeded(rng, spec, dups)
        hc = Counter(hold)
        exists, ref_left = R.best_contract(hc, None, spec, limit, distinct, dups)
        ok, left, found, best = solve(table, hand, hold, rules)
        assert ok == exists, (name, hand, sorted(hold))
        if ok:
            held += 1
            assert left == ref_left, (name, hand, sorted(hold), left, ref_left)
            check_melds(found, spec, hc, limit, distinct, rules)
            check_melds(best, spec, hc, limit, distinct, rules, left)
    return held


# the contracts that differ from the default table (tests/test_melds.py fuzzes that one)
FUZZ_CASES = [("ecuador", h) for h in range(1, 8)] + [("bolivia", 7)] \
    + [("distinct", h) for h in (2, 4, 6)] + [("nodup", h) for h in range(2, 8)] \
    + [("ecuador-nodup", h) for h in (2, 6)]


@pytest.mark.parametrize("name, hand", FUZZ_CASES)
def test_contract_fuzz(name, hand):
    held = fuzz_contract(name, hand, FUZZ, 500 + 10 * hand + len(name))
    assert held > FUZZ // (100 if name == "nodup" and hand == 6 else 10)


# =============================================================================
# Hand 7 going out with a contracts row
# =============================================================================
def go_out(cards, spec):
    out = np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    return int(M.go_out_partition(*planes(cards), spec, RULES, out)), out


def check_partition(cards, d, out, group_size, run_min):
    rows = [r for r in out if r[M.M_KIND] != 0]
    used = Counter()
    has_group = group_size is None
    has_run = run_min is None
    for row in rows:
        assert M.meld_valid(row, RULES)
        cs = row_cards(row)
        used.update(cs)
        if row[M.M_KIND] == M.MK_GROUP:
            has_group |= len(cs) == group_size
        else:
            has_run |= len(cs) >= run_min
    assert has_group and has_run
    if d != M.GO_OUT_NO_DISCARD:
        used[d] += 1
    assert +used == +Counter(cards)


def test_ecuador_hand7_go_out_examples():
    spec = TT.ECUADOR_CONTRACTS[7]
    d, out = go_out(parse("2H 3H 4H 5H 6H 7H 8H KD KD KS"), spec)
    assert d == M.GO_OUT_NO_DISCARD                         # no exact-3 group needed
    check_partition(parse("2H 3H 4H 5H 6H 7H 8H KD KD KS"), d, out, None, 7)
    assert go_out(parse("2H 3H 4H 5H 6H 7H 8H KD KD KS"), TT.TELEFUNKEN_CONTRACTS[7])[0] \
        == M.GO_OUT_NO_DISCARD
    assert go_out(parse("2H 3H 4H 5H 6H 7H 8H KD KD KS KC"), spec)[0] == M.GO_OUT_NO_DISCARD
    assert go_out(parse("2H 3H 4H 5H 6H 7H 8H KD KD KS KC"), TT.TELEFUNKEN_CONTRACTS[7])[0] \
        == parse("KC")[0]
    assert go_out(parse("2H 3H 4H 5H 6H 7H KD KD KS"), spec)[0] == -1        # run of 6
    assert go_out(parse("2H 3H 4H 5H 6H 7H 8H 9C"), spec)[0] == parse("9C")[0]
    assert go_out(parse("2H 3H 4H 5H 6H 7H 8H 9C 10C"), spec)[0] == -1


def test_go_out_fuzz_ecuador_hand7():
    """Ecuador's Hand 7 (a 7+ run, no group) against the brute force, on the going-out
    holdings of tests/test_melds_goout.py and on holdings seeded with a 7-9 run."""
    import test_melds_goout as G
    spec = TT.ECUADOR_CONTRACTS[7]
    rng = np.random.default_rng(77)
    n_out = 0
    for i in range(max(FUZZ // 8, 100)):
        hold = G.partition_holding(rng) if i % 2 else seeded_run_holding(rng)
        ref = R.go_out_discards(Counter(hold), None, 7)
        d, out = go_out(hold, spec)
        assert (d >= 0) == bool(ref), (sorted(hold), d, ref)
        if ref:
            want = M.GO_OUT_NO_DISCARD if M.GO_OUT_NO_DISCARD in ref \
                else max(ref, key=lambda c: (R.points(c), -c))
            assert d == want, (sorted(hold), d, ref)
            check_partition(hold, d, out, None, 7)
            n_out += 1
    assert n_out > max(FUZZ // 8, 100) // 5


def seeded_run_holding(rng):
    """A 7-9 run and 0-2 extra melds of 3-4 cards, sometimes one random card more."""
    import test_melds_goout as G
    while True:
        hold = seed_meld(rng, "run", 7, Counter(DECK))[:int(rng.integers(7, 10))]
        for _ in range(int(rng.integers(0, 3))):
            hold += G.random_run(rng, 3) if rng.random() < 0.5 else G.random_group(rng, 3)
        if rng.random() < 0.4:
            hold.append(int(rng.integers(53)))
        cnt = Counter(hold)
        if cnt[JOKER] <= 4 and all(n <= 2 for c, n in cnt.items() if c != JOKER):
            return hold


# =============================================================================
# option A3: no identical cards in a group (make_rules(group_dups=False))
# =============================================================================
def test_no_duplicate_groups_examples():
    assert M.valid_group(*H("7C 7C 7D"), RULES) and not M.valid_group(*H("7C 7C 7D"), NODUP)
    assert M.valid_group(*H("7C 7D 7H 7S JK"), NODUP)
    assert not M.valid_group(*H("7C 7D 7H 7S 7S"), NODUP)
    # Hand 3 (1 x 4) and Hand 5 (1 x 5: four suits + a joker)
    assert solve(TT.TELEFUNKEN_CONTRACTS, 3, parse("7C 7C 7D 7H"))[0]
    assert not solve(TT.TELEFUNKEN_CONTRACTS, 3, parse("7C 7C 7D 7H"), NODUP)[0]
    assert solve(TT.TELEFUNKEN_CONTRACTS, 5, parse("9S 9H 9D 9C JK 9C"), NODUP)[1] == 9
    assert not solve(TT.TELEFUNKEN_CONTRACTS, 5, parse("9S 9H 9D 9C 9C"), NODUP)[0]
    # Hand 2: two tríos of one rank need two suit-distinct sets
    ok, left, _, out = solve(TT.TELEFUNKEN_CONTRACTS, 2, parse("5C 5D 5H 5C 5D 5S"), NODUP)
    assert ok and left == 0 and all(row[M.M_P2] == 0 for row in out[:2])
    assert solve(TT.TELEFUNKEN_CONTRACTS, 2, parse("5C 5D 5C 5D JK JK"), NODUP)[0]
    assert solve(TT.TELEFUNKEN_CONTRACTS, 2, parse("7C 7C 7D 9S 9S 9H"))[0]
    assert not solve(TT.TELEFUNKEN_CONTRACTS, 2, parse("7C 7C 7D 9S 9S 9H"), NODUP)[0]
    assert solve(TT.TELEFUNKEN_CONTRACTS, 2, parse("5C 5D 5H 5C 5D JK"), NODUP)[0]


def test_no_duplicate_layoffs_and_retrievals():
    t = np.zeros((1, M.M_SIZE), np.int64)
    p1, p2, _ = H("8S 8H")
    t[0, [M.M_KIND, M.M_KEY, M.M_JOKERS, M.M_P1, M.M_P2]] = [M.MK_GROUP, 7, 1, p1, p2]
    out = np.zeros((20, 3), np.int64)
    n = M.layoffs(*H("8S 8C"), t, 1, NODUP, out)
    assert [tuple(r) for r in out[:n].tolist()] == [(parse("8C")[0], 0, 0)]
    c8, d8, s8 = parse("8C 8D 8S")
    n = M.joker_retrievals(*H("8C 8C 8D 8S"), t, 1, NODUP, out)
    assert [tuple(r) for r in out[:n].tolist()] == [(0, c8, d8)]
    n = M.joker_retrievals(*H("8C 8C 8D 8S"), t, 1, RULES, out)
    assert {tuple(r) for r in out[:n].tolist()} == {(0, a, b) for a, b in
                                                    [(c8, c8), (c8, d8), (c8, s8), (d8, s8)]}


def test_no_duplicate_validity_and_table_ops_match_reference():
    import test_melds as T
    rng = np.random.default_rng(31)
    for _ in range(5000):
        nat = T.random_small(rng)
        j = int(rng.integers(3))
        p1, p2, _ = planes(nat)
        assert M.valid_group(p1, p2, j, NODUP) == R.valid_group(nat, j, False), (nat, j)
    out = np.zeros((2 * 53 * 8, 3), np.int64)
    for _ in range(1500):
        rows = []
        while len(rows) < int(rng.integers(1, 7)):
            row = T.random_table_meld(rng)
            if row[M.M_P2] == 0 and M.meld_valid(row, NODUP):
                rows.append(row)
        table = np.array(rows)
        hold = [DECK[i] for i in rng.choice(len(DECK), int(rng.integers(1, 16)), replace=False)]
        p1, p2, j = planes(hold)
        ref_table = [T.ref_meld(r) for r in table]
        hc = T.counter_of(p1, p2, j)
        n = M.layoffs(p1, p2, j, table, len(table), NODUP, out)
        got = {tuple(r) for r in out[:n].tolist()}
        assert got == R.layoffs(hc, ref_table, dups=False), (hold, table)
        n = M.joker_retrievals(p1, p2, j, table, len(table), NODUP, out)
        assert {tuple(r) for r in out[:n].tolist()} == R.joker_retrievals(hc, ref_table, False)
        for card, i, pos in got:
            t2 = table.copy()
            M.apply_layoff(t2, i, card, pos, NODUP)
            assert M.meld_valid(t2[i], NODUP)


@pytest.mark.parametrize("preset", ["telefunken", "ecuador"])
def test_go_out_fuzz_no_duplicates(preset):
    import test_melds_goout as G
    spec = TT.TELEFUNKEN_CONTRACTS[7] if preset == "telefunken" else TT.ECUADOR_CONTRACTS[7]
    group_size = 3 if preset == "telefunken" else None
    rng = np.random.default_rng(99)
    n_out = 0
    for _ in range(max(FUZZ // 16, 60)):
        hold = G.partition_holding(rng)
        ref = R.go_out_discards(Counter(hold), group_size, 7, dups=False)
        out = np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
        d = int(M.go_out_partition(*planes(hold), spec, NODUP, out))
        assert (d >= 0) == bool(ref), (sorted(hold), d, ref)
        if ref:
            want = M.GO_OUT_NO_DISCARD if M.GO_OUT_NO_DISCARD in ref \
                else max(ref, key=lambda c: (R.points(c), -c))
            assert d == want, (sorted(hold), d, ref)
            assert all(r[M.M_P2] == 0 for r in out if r[M.M_KIND] == M.MK_GROUP)
            assert all(M.meld_valid(r, NODUP) for r in out if r[M.M_KIND])
            n_out += 1
    assert n_out > 0
