"""Slow, obviously-correct reference for the general contract search of ``kernels/melds.py``
(``gen_solve`` / ``gen_go_out``): several groups and runs per contract, several wild cards
per meld, caps and ratio rules, wrapping runs, wild tríos (tests only).

Nothing is shared with the kernels' search: a holding is a ``Counter`` of card ids (0..51,
``W`` = 52 for a wild card); every sub-multiset of the holding is checked against the meld
definitions below, and a contract is any choice of one such meld per contract meld whose
union the holding contains.
"""
from collections import Counter
from dataclasses import dataclass, field
from itertools import product

W = 52
NONE, AT_MOST, FEWER = 0, 1, 2


@dataclass(frozen=True)
class Rules:
    group_wilds: int = 1
    run_wilds: int = 1
    ratio: int = NONE
    wrap: bool = False
    wild_trio: bool = False
    dups: bool = True
    min_run: int = 3
    ace_low: bool = True
    ace_high: bool = True
    points: tuple = field(default=(11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10))
    wild_points: int = 15


def cap(rules, kind, naturals):
    c = rules.group_wilds if kind == "group" else rules.run_wilds
    if rules.ratio == AT_MOST:
        c = min(c, naturals)
    elif rules.ratio == FEWER:
        c = min(c, naturals - 1)
    return c


def points(rules, cards):
    return sum(rules.wild_points if c == W else rules.points[c % 13] for c in cards)


# ---- one meld ----------------------------------------------------------------------
def is_group(rules, cards, size, exact=True, pure=False):
    nat = [c for c in cards if c != W]
    j = len(cards) - len(nat)
    if not nat:
        return rules.wild_trio and not pure and exact and size == 3 and j == 3
    if len({c % 13 for c in nat}) != 1 or j > cap(rules, "group", len(nat)):
        return False
    if (len(cards) != size) if exact else (len(cards) < size):
        return False
    if pure:
        return j == 0 and len(nat) == 3 and len({c // 13 for c in nat}) == 3
    return rules.dups or len(set(nat)) == len(nat)


def run_fits(rules, ranks, length):
    """Some allowed interval of ``length`` positions holds a position of every rank."""
    if rules.wrap:
        starts = range(1, 14)
    else:
        starts = [lo for lo in range(1, 15 - length + 1)
                  if (lo > 1 or rules.ace_low) and (lo + length - 1 < 14 or rules.ace_high)]
    for lo in starts:
        window = range(lo, lo + length)
        if all(any((p - 1) % 13 == r for p in window) for r in ranks):
            return True
    return False


def is_run(rules, cards, min_len):
    nat = [c for c in cards if c != W]
    j = len(cards) - len(nat)
    n = len(cards)
    if not nat or len({c // 13 for c in nat}) != 1 or len({c % 13 for c in nat}) != len(nat):
        return False
    if j > cap(rules, "run", len(nat)) or not max(min_len, rules.min_run) <= n <= 13:
        return False
    return run_fits(rules, {c % 13 for c in nat}, n)


def submultisets(hold):
    keys = sorted(hold)
    for counts in product(*(range(hold[k] + 1) for k in keys)):
        yield tuple(sorted(k for k, n in zip(keys, counts) for _ in range(n)))


# ---- contracts -------------------------------------------------------------------------
def contract_ways(rules, hold, groups, size, runs, run_min, npure=0, exact=True,
                  joker_limit=None, distinct=False):
    """Every way (tuple of melds, runs first, then the pure groups, then the others) to lay
    ``runs`` runs of ``run_min``+ and ``groups`` groups of ``size`` (exactly, or at least),
    the first ``npure`` of them pure tríos."""
    subs = [s for s in submultisets(hold) if s]
    run_c = [s for s in subs if is_run(rules, s, run_min)] if runs else []
    pure_c = [s for s in subs if is_group(rules, s, 3, True, True)] if npure else []
    group_c = [s for s in subs if is_group(rules, s, size, exact)] if groups > npure else []
    slots = [run_c] * runs + [pure_c] * npure + [group_c] * (groups - npure)
    out = []

    def rec(i, left, chosen, start):
        if i == len(slots):
            out.append(tuple(chosen))
            return
        same = i > 0 and slots[i] is slots[i - 1]
        for k in range(start if same else 0, len(slots[i])):
            meld = slots[i][k]
            need = Counter(meld)
            if any(left[c] < n for c, n in need.items()):
                continue
            rec(i + 1, left - need, chosen + [meld], k)

    rec(0, Counter(hold), [], 0)
    ok = []
    for way in out:
        if joker_limit is not None and sum(m.count(W) for m in way) > joker_limit:
            continue
        ranks = [next((c % 13 for c in m if c != W), None) for m in way[runs:]]
        ranked = [r for r in ranks if r is not None]
        if distinct and len(set(ranked)) < len(ranked):
            continue
        ok.append(way)
    return ok


def best(rules, hold, **contract):
    """(held?, most points laid)."""
    ways = contract_ways(rules, hold, **contract)
    if not ways:
        return False, None
    return True, max(points(rules, [c for m in w for c in m]) for w in ways)


def cover_spares(rules, hold, **contract):
    """The numbers of cards a way leaves over (going out with the contract alone)."""
    n = sum(hold.values())
    return {n - sum(len(m) for m in w) for w in contract_ways(rules, hold, **contract)}
