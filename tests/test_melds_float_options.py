"""The floating-joker engine's rule options against brute force: ``min_naturals_per_meld`` > 1
(A20) in the contract search, and ``joker_position`` (A19) in lay-offs and joker swaps, both
floating (some joker assignment) and fixed (each joker keeps its place).

The references here are independent of the engine: contracts by trying every candidate
meld (``reference_melds.cr_candidates``, filtered by naturals), runs as explicit layouts
(position -> card or joker). ``CARDSIM_MELD_FUZZ`` sets the holdings per case as in
``tests/test_melds_float.py`` (default 150 here; 400 lay/swap cases per mode).
"""
import os
from collections import Counter

import numpy as np
import pytest
import reference_melds as R
from test_melds_float import MODES, check_rows, pack

from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.cards import JOKER

FUZZ = int(os.environ.get("CARDSIM_MELD_FUZZ", "150"))


# ---- contracts with a minimum of naturals per meld ----------------------------------------
def best_contract_min(hold, n_sets, n_runs, kmin, exact, all_cards, no_touch):
    """Best contract value (32 * natural points - jokers) with every meld holding at least
    ``kmin`` naturals, or -1: every choice of candidate melds, with the bound cut of
    ``reference_melds.cr_best_contract``."""
    hold = Counter(hold)
    sets, runs = R.cr_candidates(hold, exact)
    sets = [m for m in sets if len(m[2]) >= kmin]
    runs = [m for m in runs if len(m[2]) >= kmin]
    total = sum(hold.values())
    every = 32 * sum(R.cr_points(c) * k for c, k in hold.items() if c != JOKER)
    best = [-1]

    def need(m):
        return list(Counter(m[2]).items()) + [(JOKER, m[3])]

    def rec(start, chosen, used, value):
        if best[0] >= 0 and all_cards:
            return
        if value + every - 32 * sum(R.cr_points(c) * k for c, k in used.items() if c != JOKER) <= best[0]:
            return
        if len(chosen) == n_sets + n_runs:
            if no_touch and not R._touch_free([m for m in chosen if m[0] == "run"]):
                return
            if all_cards and sum(used.values()) != total:
                return
            best[0] = max(best[0], value)
            return
        done = sum(m[0] == "run" for m in chosen)
        pool, lo = (runs, start) if done < n_runs else (sets, start if chosen and chosen[-1][0] == "set" else 0)
        for i in range(lo, len(pool)):
            m = pool[i]
            if all(used[c] + k <= hold[c] for c, k in need(m)):
                u = used.copy()
                for c, k in need(m):
                    u[c] += k
                rec(i, chosen + [m], u, value + 32 * sum(R.cr_points(c) for c in m[2]) - m[3])

    rec(0, [], Counter({JOKER: 0}), 0)
    return best[0]


def joker_hold(rng, deal, decks, jokers, share=0.33):
    """The deal's hand size + 1 (or a few more) cards, jokers over-represented: a seeded
    contract with a ``share`` of its cards turned into jokers, so that melds short of
    naturals (and melds that need a natural moved over) are common."""
    groups, runs = F.CONTRACT_SHAPES[deal - 1]
    size = (10 if deal <= 3 else 12) + 1 + int(rng.integers(0, 3))
    cards = []
    for _ in range(groups):
        r = int(rng.integers(13))
        cards += [int(s) * 13 + r for s in rng.integers(0, 4, 3)]
    for _ in range(runs):
        s, n = int(rng.integers(4)), int(rng.integers(4, 7))
        lo = int(rng.integers(1, 15 - n + 1))
        cards += [s * 13 + (p - 1) % 13 for p in range(lo, lo + n)]
    rest = Counter(pack(decks, jokers))
    out = []
    for c in cards:
        c = JOKER if rng.random() < share else c
        if rest[c] > 0 and len(out) < size:
            rest[c] -= 1
            out.append(c)
    pool = list(rest.elements())
    for i in rng.permutation(len(pool))[: size - len(out)]:
        out.append(pool[i])
    return Counter(out)


@pytest.mark.parametrize("kmin", [2, 3])
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("deal", range(1, 8))
def test_min_naturals_fuzz(kmin, mode, deal):
    table, base, decks, jokers, exact, no_touch = MODES[mode]
    rules = F.make_float_rules(joker_points=int(base[M.R_JOKER_POINTS]), no_touch=no_touch, min_naturals=kmin)
    spec = table[deal]
    groups, runs = F.CONTRACT_SHAPES[deal - 1]
    rng = np.random.default_rng(5000 + 100 * kmin + 10 * deal + (mode == "may_i"))
    out = np.zeros((F.MAX_CM, M.M_SIZE), np.int64)
    held = 0
    for i in range(FUZZ):
        hold = joker_hold(rng, deal, decks, jokers + 2, 0.33 if kmin == 2 else 0.2)
        h = np.zeros(F.HOLD, np.int64)
        for c, k in hold.items():
            h[c] = k
        want = best_contract_min(hold, groups, runs, kmin, exact and deal < 7, bool(spec[F.CF_ALL]), no_touch)
        got = F.solve_contract(h, spec, rules, out, False)
        assert got == want, (kmin, mode, deal, i, sorted(hold.elements()))
        assert (F.solve_contract(h, spec, rules, out.copy(), True) >= 0) == (want >= 0)
        if got >= 0:
            held += 1
            check_rows(h, out, groups + runs, spec, rules, got)
            for k in range(groups + runs):
                nat = F.row_len(out[k]) - out[k, M.M_JOKERS]
                assert nat >= kmin
    assert held > FUZZ // 20


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("deal", [2, 3, 6, 7])
def test_fixed_contract_rows_hold_their_windows(mode, deal):
    """joker_position = fixed: the contract search is the floating one (the player names an
    assignment that works); every row's window is that assignment."""
    table, _, decks, jokers, _, no_touch = MODES[mode]
    rules = F.make_float_rules(no_touch=no_touch, fixed=True)
    groups, runs = F.CONTRACT_SHAPES[deal - 1]
    rng = np.random.default_rng(77 + deal)
    out = np.zeros((F.MAX_CM, M.M_SIZE), np.int64)
    for _ in range(FUZZ):
        hold = joker_hold(rng, deal, decks, jokers)
        h = np.zeros(F.HOLD, np.int64)
        for c, k in hold.items():
            h[c] = k
        v = F.solve_contract(h, table[deal], rules, out, False)
        if v >= 0:
            check_rows(h, out, groups + runs, table[deal], rules, v)


# ---- lay-offs and swaps on runs: layouts ------------------------------------------------
def pos_card(s, p):
    return s * 13 + (p - 1) % 13


def random_layout(rng, kmin=1):
    """A run as {position: card or JOKER} over a window lo..hi (4..13 long)."""
    while True:
        n = int(rng.integers(4, 14))
        lo = int(rng.integers(1, 15 - n + 1))
        s = int(rng.integers(4))
        lay = {p: (JOKER if rng.random() < 0.35 else pos_card(s, p)) for p in range(lo, lo + n)}
        if sum(c != JOKER for c in lay.values()) >= kmin:
            return s, lay


def row_of(s, lay):
    row = np.zeros(M.M_SIZE, np.int64)
    row[M.M_KIND] = M.MK_RUN
    row[M.M_KEY] = s
    row[M.M_LO], row[M.M_HI] = min(lay), max(lay)
    for p, c in lay.items():
        if c == JOKER:
            row[M.M_JOKERS] += 1
        elif p in (1, 14):
            row[M.M_P2] += 1
        else:
            row[M.M_P1] |= 1 << p
    return row


def naturals(lay):
    return [c for c in lay.values() if c != JOKER]


def ref_fixed_lay(lay, c):
    """The position a card (or joker) laid on a fixed run takes, or None."""
    lo, hi = min(lay), max(lay)
    if len(lay) >= 14:
        return None
    ends = [p for p in (hi + 1, lo - 1) if 1 <= p <= 14]
    if c == JOKER:
        return ends[0] if ends else None
    s = next(x for x in naturals(lay)) // 13
    for p in ends:                     # high end first
        if pos_card(s, p) == c:
            return p
    return None


def ref_fixed_swap(lay, c):
    return any(x == JOKER and pos_card(next(iter(naturals(lay))) // 13, p) == c for p, x in lay.items())


def nearest(windows, lo):
    return min(windows, key=lambda w: (abs(w[0] - lo), w[0]))


@pytest.mark.parametrize("fixed", [False, True])
def test_layoff_and_swap_fuzz(fixed):
    rules = F.make_float_rules(fixed=fixed)
    rng = np.random.default_rng(31 + fixed)
    checked = 0
    for _ in range(400):
        s, lay = random_layout(rng)
        nat = naturals(lay)
        jok = len(lay) - len(nat)
        lo = min(lay)
        for c in [pos_card(s, p) for p in range(1, 14)] + [JOKER, pos_card((s + 1) % 4, 5)]:
            row = row_of(s, lay)
            assert F.row_valid(row, rules)
            # lay-off
            if fixed:
                p = ref_fixed_lay(lay, c)
                want = p is not None
            else:
                new = nat + ([] if c == JOKER else [c])
                want = (c == JOKER or c // 13 == s) and R.cr_valid_run(new, jok + (c == JOKER))
            assert F.can_lay(row, c, rules) == want, (fixed, sorted(lay.items()), c)
            if want:
                F.lay(row, c)
                assert F.row_valid(row, rules) and F.row_len(row) == len(lay) + 1
                if fixed:
                    assert (row[M.M_LO], row[M.M_HI]) == (min(lo, p), max(max(lay), p))
                else:
                    new = nat + ([] if c == JOKER else [c])
                    w = R.cr_run_windows(new, jok + (c == JOKER))
                    assert (row[M.M_LO], row[M.M_HI]) == nearest(w, lo)
                checked += 1
            # swap
            row = row_of(s, lay)
            if c == JOKER or c // 13 != s or jok == 0:
                want = False
            elif fixed:
                want = ref_fixed_swap(lay, c)
            else:
                want = R.cr_valid_run(nat + [c], jok - 1)
            assert F.can_swap(row, c, rules) == want, ("swap", fixed, sorted(lay.items()), c)
            if want:
                F.swap(row, c)
                assert F.row_valid(row, rules) and F.row_len(row) == len(lay)
                if fixed:
                    assert (row[M.M_LO], row[M.M_HI]) == (lo, max(lay))
                else:
                    assert (row[M.M_LO], row[M.M_HI]) == nearest(R.cr_run_windows(nat + [c], jok - 1), lo)
    assert checked > 400
