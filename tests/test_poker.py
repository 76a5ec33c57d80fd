"""The poker evaluator (kernels/poker.py): full enumeration of the 2,598,960 five-card hands
(category counts and class counts of tripoli.md section 11), the worked comparisons of
section 15.5, and differential tests against a slow, obviously-correct Python ranking on
random pairs of 5-card hands and on best-5-of-7 / best-5-of-h holdings."""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from cardsim.kernels import poker as P
from cardsim.sim.notation import parse, parse_mask

CATEGORY_COUNTS = {  # tripoli.md section 11: hands, distinct classes
    P.C_STRAIGHT_FLUSH: (40, 10), P.C_QUADS: (624, 156), P.C_FULL_HOUSE: (3744, 156),
    P.C_FLUSH: (5108, 1277), P.C_STRAIGHT: (10200, 10), P.C_TRIPS: (54912, 858),
    P.C_TWO_PAIR: (123552, 858), P.C_PAIR: (1098240, 2860), P.C_HIGH: (1302540, 1277),
}


# ---- slow reference ---------------------------------------------------------------
def ref_key(cards) -> tuple:
    """(category, tie-break ranks) of 5 card ids; ranks 2..14 (ace 14); bigger is better."""
    ranks = sorted((14 if c % 13 == 0 else int(c) % 13 + 1 for c in cards), reverse=True)
    suits = {int(c) // 13 for c in cards}
    counts = Counter(ranks)
    flush = len(suits) == 1
    uniq = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(uniq) == 5:
        if uniq[0] - uniq[4] == 4:
            straight_top = uniq[0]
        elif uniq == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        return (8, straight_top)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [g[1] for g in groups]
    order = tuple(g[0] for g in groups)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if straight_top:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *ranks)


def ref_best(cards) -> tuple:
    return max(ref_key(c) for c in itertools.combinations(cards, 5))


def mask_of(cards) -> int:
    return sum(1 << int(c) for c in cards)


# ---- enumeration --------------------------------------------------------------------
def all_hands() -> np.ndarray:
    idx = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int64)
    return idx


@pytest.fixture(scope="module")
def enumerated():
    hands = all_hands()
    return hands, P.evaluate(hands)


def test_full_enumeration_category_counts(enumerated):
    hands, s = enumerated
    assert len(s) == 2_598_960
    assert s.min() == 0 and s.max() == P.N_CLASSES - 1
    cats = P.categories(s)
    for cat, (count, classes) in CATEGORY_COUNTS.items():
        assert int((cats == cat).sum()) == count, P.CATEGORY_NAMES[cat]
        assert len(np.unique(s[cats == cat])) == classes, P.CATEGORY_NAMES[cat]
    assert len(np.unique(s)) == 7462


def test_masks_entry_agrees_with_cards_entry(enumerated):
    hands, s = enumerated
    sub = hands[::97]
    masks = (np.int64(1) << sub).sum(axis=1)
    assert (P.evaluate_masks(masks) == s[::97]).all()
    assert (P.evaluate(sub, parallel=False) == s[::97]).all()


def test_order_matches_reference_on_random_pairs():
    rng = np.random.default_rng(5)
    a = np.array([rng.choice(52, 5, replace=False) for _ in range(4000)])
    b = np.array([rng.choice(52, 5, replace=False) for _ in range(4000)])
    sa, sb = P.evaluate(a), P.evaluate(b)
    for i in range(len(a)):
        ka, kb = ref_key(a[i]), ref_key(b[i])
        assert int(np.sign(int(sa[i]) - int(sb[i]))) == int(ka > kb) - int(ka < kb), (a[i], b[i])
        assert P.categories(sa[i:i + 1])[0] == ka[0]


def test_classes_are_exactly_reference_classes(enumerated):
    """Every class is one reference key and the order of classes is the reference order."""
    hands, s = enumerated
    rng = np.random.default_rng(1)
    pick = rng.choice(len(hands), 60000, replace=False)
    keys = {}
    for i in pick:
        keys.setdefault(int(s[i]), set()).add(ref_key(hands[i]))
    assert all(len(v) == 1 for v in keys.values())
    ordered = [next(iter(keys[k])) for k in sorted(keys)]
    assert ordered == sorted(ordered)


def test_worked_comparisons():
    """tripoli.md section 15.5."""
    def s(text):
        return int(P.evaluate(np.array([parse(text)]))[0])
    assert s("2C 3D 4H 5S 6C") > s("AC 2D 3H 4S 5C")
    assert s("KH JH 9H 6H 3H") > s("KS JS 9S 6S 2S")
    assert s("3C 3D 3H 2S 2C") > s("AD KD QD JD 9D")
    assert s("KC KD 4H 4S 9C") > s("KH KS 4C 4D 7C")
    assert s("AS KS QS JS 10S") == s("AH KH QH JH 10H") == P.N_CLASSES - 1
    assert s("7C 8D 9H 10S JC") == s("7D 8H 9S 10C JH")


@pytest.mark.parametrize("size", [5, 6, 7, 9, 12, 18])
def test_best5_matches_reference(size):
    rng = np.random.default_rng(size)
    n = 1500 if size <= 7 else 150
    holdings = [rng.choice(52, size, replace=False) for _ in range(n)]
    masks = np.array([mask_of(h) for h in holdings], dtype=np.int64)
    best, chosen = P.best_of(masks)
    for h, m, v, c in zip(holdings, masks, best, chosen):
        c = int(c)
        assert bin(c).count("1") == 5 and c & ~int(m) == 0
        cards = [x for x in range(52) if c >> x & 1]
        assert int(P.evaluate(np.array([cards]))[0]) == int(v)
        if size <= 7 or size == 9:
            # the exhaustive maximum over every 5-subset, by the fast 5-card evaluator and the reference
            subs = np.array(list(itertools.combinations(h, 5)))
            assert int(v) == int(P.evaluate(subs).max())
            assert ref_key(cards) == ref_best(h)


def test_best5_examples():
    best, chosen = P.best_of(np.array([parse_mask("AS KS QS JS 10S 9S AH AD AC")]))
    assert int(best[0]) == P.N_CLASSES - 1 and int(chosen[0]) == parse_mask("AS KS QS JS 10S")
    best, _ = P.best_of(np.array([parse_mask("AH 2C 3D 4S 5H 9C 9D")]))
    assert P.categories(best)[0] == P.C_STRAIGHT
    best, chosen = P.best_of(np.array([parse_mask("3C 3D 3H 5S 5C 5D 2H")]))
    assert int(chosen[0]) & parse_mask("5S 5C 5D") == parse_mask("5S 5C 5D")
    assert P.categories(best)[0] == P.C_FULL_HOUSE
