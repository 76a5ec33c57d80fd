"""Hand-7 going out (kernels.melds.go_out_partition, telefunken.md §12.2) against the
worked examples §19.11-13, edge cases and the brute force ``reference_melds.go_out_discards``.

Fuzz size: ``CARDSIM_GOOUT_FUZZ`` random holdings (default 1200, about 20 s). Holdings
have 12-16 cards and are mostly built from a random valid going-out partition (an exact-3
group, a 7-9 card run, 0-2 extra melds, jokers sometimes), then left alone, given one or two
extra random cards, or have one card swapped, so both answers are common.
"""
import os
from collections import Counter

import numpy as np

from cardsim.kernels import melds as M
import telefunken_tables as TT
from cardsim.kernels.cards import JOKER
from cardsim.sim.notation import parse
import reference_melds as R
from reference_melds import planes

RULES = TT.TELEFUNKEN_RULES
SPEC = TT.TELEFUNKEN_CONTRACTS[7]
FUZZ = int(os.environ.get("CARDSIM_GOOUT_FUZZ", "1200"))
NONE = M.GO_OUT_NO_DISCARD


def row_cards(row):
    return [k for k in range(52) for plane in (row[M.M_P1], row[M.M_P2]) if plane >> k & 1] \
        + [JOKER] * int(row[M.M_JOKERS])


def go_out(cards):
    out = np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    d = M.go_out_partition(*planes(cards), SPEC, RULES, out)
    return int(d), out


def check_partition(cards, d, out):
    """The rows are valid disjoint melds with an exact-3 group and a 7+ run which, with the
    discard, use exactly the holding."""
    rows = [r for r in out if r[M.M_KIND] != 0]
    assert all(r[M.M_KIND] == 0 for r in out[len(rows):])
    used = Counter()
    g3 = r7 = False
    for row in rows:
        assert M.meld_valid(row, RULES), row
        cs = row_cards(row)
        nat = [c for c in cs if c != JOKER]
        used.update(cs)
        if row[M.M_KIND] == M.MK_GROUP:
            assert R.valid_group(nat, len(cs) - len(nat))
            g3 |= len(cs) == 3
        else:
            jps = [p for p in range(15) if row[M.M_JPOS] >> p & 1]
            assert R.valid_run(nat, jps)
            r7 |= len(cs) >= 7
    assert g3 and r7
    if d != NONE:
        used[d] += 1
    assert +used == +Counter(cards)


def expect_out(text, discard):
    cards = parse(text)
    d, out = go_out(cards)
    assert d == discard, (text, d)
    check_partition(cards, d, out)
    return out


# =============================================================================
# §19 worked examples
# =============================================================================
def test_example_11_goes_out():
    # KD is the only card that can be left over (the run needs 4C, the group the other 4s)
    cards = parse("4S 4H 4D 3C 4C 5C 6C 7C JK 9C 10C KD")
    d, out = go_out(cards)
    assert d == parse("KD")[0]
    check_partition(cards, d, out)
    rows = [r for r in out if r[M.M_KIND]]
    assert len(rows) == 2
    assert R.go_out_discards(Counter(cards)) == {parse("KD")[0]}


def test_example_12_goes_out_no_discard():
    out = expect_out("QS QS QD 5H 6H 7H 8H 9H 10H JH 2C 3C 4C 5C", NONE)
    assert len([r for r in out if r[M.M_KIND]]) == 3


def test_example_13_cannot_go_out():
    cards = parse("4S 4H 4D 4C 6H 7H 8H 9H 10H JH QH KD")
    d, out = go_out(cards)
    assert d == -1 and not out.any()
    assert R.go_out_discards(Counter(cards)) == set()


# =============================================================================
# edge cases
# =============================================================================
def test_exact_three_group_with_joker():
    expect_out("7C 7D JK 2H 3H 4H 5H 6H 7H 8H", NONE)
    # a joker in the group and another in the run
    expect_out("7C 7D JK 2H 3H JK 5H 6H 7H 8H", NONE)


def test_duplicate_group_is_exact_three():
    expect_out("7C 7C 7D 2H 3H 4H 5H 6H 7H 8H", NONE)


def test_group_of_four_is_not_the_exact_three():
    assert go_out(parse("7C 7D 7H 7S 2H 3H 4H 5H 6H 7H 8H"))[0] == parse("7C")[0]
    # ... but 4 + 3 of one rank (two groups) is fine, and so is 4C in a second run
    expect_out("7C 7D 7H 7S 7C 7D 7S 2H 3H 4H 5H 6H 7H 8H", NONE)
    expect_out("7C 7D 7H 7S 2H 3H 4H 5H 6H 7H 8H 8S 9S", NONE)
    assert go_out(parse("7C 7D 7H 7S KD 2H 3H 4H 5H 6H 7H 8H"))[0] == -1
    # with a joker: 7C 7D JK + 7H 7S ... no, 7H 7S JK + 7D plus 7C discarded (lowest id)
    assert go_out(parse("7C 7D 7H 7S JK 2H 3H 4H 5H 6H 7H 8H"))[0] == parse("7C")[0]


def test_two_runs_one_of_seven():
    expect_out("KD KS KH 2S 3S 4S 5S 6S 7S 8S 9C 10C JC QC", NONE)
    # two short runs do not make a 7-run
    assert go_out(parse("KD KS KH 2S 3S 4S 5S 7S 8S 9S 10S"))[0] == -1
    # a 13-card run counts, with the ace high
    expect_out("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 5D 5H 5C", NONE)


def test_joker_discard_and_highest_penalty_discard():
    assert go_out(parse("4S 4H 4D 3C 4C 5C 6C 7C 8C JK 2D 2D"))[0] == -1
    expect_out("4S 4H 4D 3C 4C 5C 6C 7C 8C 9C JK", NONE)          # JK = 2C or 10C
    expect_out("4S 4H JK 3C 4C 5C JK 7C 8C 9C JK", JOKER)         # every meld has one
    assert R.go_out_discards(Counter(parse("4S 4H JK 3C 4C 5C JK 7C 8C 9C JK"))) == {JOKER}
    # a joker that some meld can take is laid, not discarded (5C..KC + JK as the high ace)
    expect_out("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 5D 5H 5S JK", NONE)
    # equal penalties: the lowest card id (KC) goes
    expect_out("KS KH KD KC 3C 4C 5C 6C 7C 8C 9C", parse("KC")[0])


def test_ace_low_and_high_runs():
    expect_out("AC 2C 3C 4C 5C 6C 7C 9D 9D 9S", NONE)
    expect_out("8C 9C 10C JC QC KC AC 9D 9D 9S", NONE)
    assert go_out(parse("JC QC KC AC 2C 3C 4C 9D 9D 9S"))[0] == -1        # no wrap


# =============================================================================
# differential fuzz
# =============================================================================
def partition_holding(rng):
    """12-16 cards: a random going-out partition, then perturbed (kept, +1 / +2 cards, one
    card swapped), or (1 in 10) a plain random draw."""
    while True:
        left = Counter(list(range(52)) * 2 + [JOKER] * 4)
        hold = []

        def take(cs):
            need = Counter(cs)
            if all(left[c] >= n for c, n in need.items()):
                left.subtract(need)
                hold.extend(cs)

        if rng.random() < 0.1:
            size = int(rng.integers(12, 17))
            rest = list(left.elements())
            return [rest[i] for i in rng.choice(len(rest), size, replace=False)]
        take(random_run(rng, int(rng.integers(7, 10))))
        take(random_group(rng, 3))
        for _ in range(int(rng.integers(0, 3))):
            if rng.random() < 0.5:
                take(random_run(rng, int(rng.integers(3, 6))))
            else:
                take(random_group(rng, int(rng.integers(3, 5))))
        rest = list(left.elements())
        u = rng.random()
        if u < 0.3:
            hold += [rest[i] for i in rng.choice(len(rest), 1 + (u < 0.1), replace=False)]
        elif u < 0.5 and hold:
            hold[int(rng.integers(len(hold)))] = rest[int(rng.integers(len(rest)))]
            if max(Counter(c for c in hold if c != JOKER).values()) > 2:
                continue
        if 12 <= len(hold) <= 16:
            return hold


def random_run(rng, n):
    s = int(rng.integers(4))
    lo = int(rng.integers(1, 16 - n))
    jp = lo + int(rng.integers(n)) if rng.random() < 0.3 else None
    return [JOKER if p == jp else s * 13 + R.pos_rank(p) for p in range(lo, lo + n)]


def random_group(rng, n):
    r = int(rng.integers(13))
    cs = [int(s) * 13 + r for s in rng.integers(4, size=n)]
    if rng.random() < 0.3:
        cs[0] = JOKER
    return cs


def test_go_out_fuzz():
    rng = np.random.default_rng(2024)
    out = np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    n_out = n_discard = 0
    for _ in range(FUZZ):
        hold = partition_holding(rng)
        ref = R.go_out_discards(Counter(hold))
        d = int(M.go_out_partition(*planes(hold), SPEC, RULES, out))
        assert (d >= 0) == bool(ref), (sorted(hold), d, ref)
        if not ref:
            continue
        want = NONE if NONE in ref else max(ref, key=lambda c: (R.points(c), -c))
        assert d == want, (sorted(hold), d, ref)
        check_partition(hold, d, out)
        n_out += 1
        n_discard += d != NONE
    assert n_out > FUZZ // 4 and n_discard > FUZZ // 20 and FUZZ - n_out > FUZZ // 10


def test_window_masks_match_the_window_loop():
    """window_starts / window_cover (bit-parallel) against one window at a time."""
    import itertools
    rules = np.zeros(M.R_SIZE, np.int64)
    rng = np.random.default_rng(5)
    for al, ah, mr in itertools.product((0, 1), (0, 1), (3, 4, 7, 13, 99)):
        rules[M.R_ACE_LOW], rules[M.R_ACE_HIGH], rules[M.R_MAX_RUN] = al, ah, mr
        for n in range(1, 15):
            ok = [lo for lo in range(1, 16 - n) if M.pos_allowed(lo, lo + n - 1, rules)]
            starts = M.window_starts(n, rules)
            assert starts == sum(1 << lo for lo in ok)
            for _ in range(20):
                plane = int(rng.integers(0, 1 << 13))
                held = (plane << 1) | ((plane & 1) << 14)
                for jr in (0, 1):
                    want = 0
                    for lo in ok:
                        iv = ((1 << (lo + n)) - 1) ^ ((1 << lo) - 1)
                        if bin(iv & ~held).count("1") <= jr:
                            want |= iv & held
                    assert M.window_cover(np.int64(held), n, jr, starts) == want
