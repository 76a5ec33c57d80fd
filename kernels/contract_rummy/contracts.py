"""Contract Rummy's hand arithmetic for the strategies: how far a holding is from the deal's
contract (``contract_need``; the expert's ``exact`` count, issue 41), the discard scores, what can
be laid off on the table, and the jokers a larger first meld takes (``add_jokers``).
"""
import numpy as np
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.cards import popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.contract_rummy.layout import BIG, JK


# =============================================================================
# contract need (strategy heuristic) and discard scores
# =============================================================================
@njit(cache=True)
def suit_positions(h, s, skip):
    """Run positions (1..14, the ace at both ends) of the suit-s ranks held, rank ``skip``
    left out (-1: none)."""
    m = np.int64(0)
    for r in range(13):
        if r != skip and h[s * 13 + r] > 0:
            m |= np.int64(1) << (r + 1)
    if m & 2:
        m |= np.int64(1) << 14
    return m


@njit(cache=True)
def window_have(m, lo):
    """Positions lo..lo+3 held in the suit position mask m."""
    return popcount(m & (np.int64(15) << lo))


@njit(cache=True)
def window_clash(sc, k, s, lo, no_touch):
    for i in range(k):
        if sc[2 * i] == s:
            d = abs(sc[2 * i + 1] - lo)
            if d < 4 or (no_touch and d == 4):
                return True
    return False


@njit(cache=True)
def runs_have(h, nr, no_touch, sc, exact=False):
    """Cards held towards nr runs of 4 (best disjoint windows, greedily). An ace sits at both
    ends of its suit's positions; without ``exact`` (the strategies as built) one ace card
    counts in a low and a high window of its suit at once (AD 2D 3D 4D and JD QD KD AD: two
    runs held); the expert (``exact``) counts it only as often as it is held (``ace_spent``)."""
    have = 0
    for k in range(nr):
        best = -1
        for s in range(4):
            m = suit_positions(h, s, -1)
            for lo in range(1, 12):
                if window_clash(sc, k, s, lo, no_touch):
                    continue
                w = window_have(m, lo)
                if exact and ace_spent(h, sc, k, s, lo):
                    w -= 1
                if w > best:
                    best = w
                    sc[2 * k] = s
                    sc[2 * k + 1] = lo
        have += best
    return have


@njit(cache=True)
def ace_spent(h, sc, k, s, lo):
    """The window of suit s at ``lo`` holds the suit's ace (lo 1: low, lo 11: high) and the
    windows chosen before it (sc[:2k]) already use every copy of it held."""
    if h[s * 13] == 0 or (lo != 1 and lo != 11):
        return False
    used = 0
    for i in range(k):
        if sc[2 * i] == s and (sc[2 * i + 1] == 1 or sc[2 * i + 1] == 11):
            used += 1
    return used >= h[s * 13]


@njit(cache=True)
def after_runs(h, nr, sc):
    """A copy of holding h less one copy of each card in the nr run windows runs_have chose
    (sc: suit and lowest position of each; position 14 is the ace)."""
    left = h.copy()
    for k in range(nr):
        s, lo = sc[2 * k], sc[2 * k + 1]
        for q in range(lo, lo + 4):
            c = s * 13 + (q - 1) % 13
            if left[c] > 0:
                left[c] -= 1
    return left


@njit(cache=True)
def sets_have(h, ns):
    """Cards held towards ns sets of 3 (the ranks held most, up to 3 each)."""
    have = 0
    used = 0
    for _ in range(ns):
        best = -1
        br = 0
        for r in range(13):
            if (used >> r) & 1:
                continue
            c = min(3, F.rank_total(h, r))
            if c > best:
                best = c
                br = r
        used |= 1 << br
        have += best
    return have


@njit(cache=True)
def contract_need(h, spec, rules, sc, exact=False):
    """Estimated cards still missing for the contract (0 = perhaps complete). ``exact`` (the
    expert): an ace counts in one run (runs_have's), and the sets are counted from the cards
    the runs' windows leave (``after_runs``); the others count a card in a run and a set at
    once (AD 2D 3D 4D with AS AS: a run and a set of aces)."""
    nr = spec[M.C_RUNS]
    ns = spec[M.C_GROUPS]
    runs = runs_have(h, nr, rules[F.RF_NO_TOUCH], sc, exact)
    have = runs + sets_have(after_runs(h, nr, sc) if exact and nr > 0 and ns > 0 else h, ns)
    return max(0, 3 * ns + 4 * nr - have - h[JK])


@njit(cache=True)
def top_sum(h, nr, ns):
    """Upper bound on the cards a holding can put into nr runs and ns sets (windows may
    repeat, cards may serve twice, a rank counts up to 3 per set)."""
    have = 0
    prev = BIG
    for _ in range(nr):
        best = 0
        for s in range(4):
            m = suit_positions(h, s, -1)
            for lo in range(1, 12):
                w = window_have(m, lo)
                if w > best and w <= prev:
                    best = w
        have += best
        prev = best
    f1 = 0
    f2 = 0
    f3 = 0
    for r in range(13):
        c = F.rank_total(h, r)
        f3 += c // 3
        if c % 3 == 2:
            f2 += 1
        elif c % 3 == 1:
            f1 += 1
    k3 = min(ns, f3)
    k2 = min(ns - k3, f2)
    return have + 3 * k3 + 2 * k2 + min(ns - k3 - k2, f1)


@njit(cache=True)
def may_hold(h, spec):
    """Necessary condition for holding the contract (a cheap filter before the search)."""
    need = 3 * spec[M.C_GROUPS] + 4 * spec[M.C_RUNS]
    if top_sum(h, spec[M.C_RUNS], spec[M.C_GROUPS]) + h[JK] < need:
        return False
    return spec[F.CF_ALL] == 0 or spec[M.C_GROUPS] > 0 or all_in_windows(h)


@njit(cache=True)
def all_in_windows(h):
    """Every natural lies in some 4-window of its suit that the jokers can complete."""
    for c in range(52):
        if h[c] == 0:
            continue
        s = c // 13
        p = c % 13 + 1
        m = suit_positions(h, s, -1)
        ok = False
        for pos in (p, 14) if p == 1 else (p, p):
            for lo in range(max(1, pos - 3), min(pos, 11) + 1):
                if window_have(m, lo) + h[JK] >= 4:
                    ok = True
        if not ok:
            return False
    return True


@njit(cache=True)
def neighbours(h, c):
    """Closeness of c's suit-mates within 3 positions (the ace at both ends): 3 for an
    adjacent card, 2 at distance 2, 1 at distance 3."""
    r = c % 13
    m = suit_positions(h, c // 13, r)
    own = np.int64(1) << (r + 1)
    if r == 0:
        own |= np.int64(1) << 14
    n = 0
    for d in range(1, 4):
        n += (4 - d) * popcount(m & ((own << d) | (own >> d)))
    return n


@njit(cache=True)
def related(h, c, spec):
    """Card c shares a rank (set contracts) or lies within 3 positions of a suit-mate (run
    contracts) with the holding: otherwise it cannot lower the contract need."""
    if spec[M.C_GROUPS] > 0 and F.rank_total(h, c % 13) > 0:
        return True
    return spec[M.C_RUNS] > 0 and neighbours(h, c) > 0


@njit(cache=True)
def keep_score(h, c, spec):
    """How much card c helps towards the contract (higher = keep)."""
    if c == JK:
        return BIG
    sc = 0
    if spec[M.C_GROUPS] > 0:
        k = F.rank_total(h, c % 13)
        if k <= 3:                      # copies past a set's 3 are surplus (issue 15: all four
            sc += 3 * (k - 1)           # seats hoarded one rank each and the deal stalled)
    if spec[M.C_RUNS] > 0:
        sc += neighbours(h, c)
        if spec[M.C_GROUPS] == 0 and h[c] >= 2:
            sc -= 3                     # a second copy only helps an overlapping run
    return sc


@njit(cache=True)
def layable(tab, n, c, rules):
    for i in range(n):
        if F.can_lay(tab[i], c, rules):
            return True
    return False


@njit(cache=True)
def add_jokers(mo, nm, h, held, rules, keep, limit):
    """Larger first melds (MAY_I): the jokers the meld rows mo[:nm] leave in the holding h
    (``held`` cards) go into the meld (at most ``limit``), each on a run where it fits (it
    floats: the run then takes cards two places off its ends), else on a set; at least
    ``keep`` cards stay held. Under forbid_contiguous_runs only sets take them (a longer run
    might touch another). Returns the jokers added."""
    used = 0
    for k in range(nm):
        used += F.row_len(mo[k])
    extra = h[JK] - meld_jokers(mo, nm)
    added = 0
    while extra > 0 and held - used > keep and added < limit:
        t = -1
        for k in range(nm):
            if t < 0 and mo[k, M.M_KIND] == M.MK_RUN and rules[F.RF_NO_TOUCH] == 0 and F.can_lay(mo[k], JK, rules):
                t = k
        for k in range(nm):
            if t < 0 and mo[k, M.M_KIND] == M.MK_GROUP:
                t = k
        if t < 0:
            return added
        F.lay(mo[t], JK)
        used += 1
        extra -= 1
        added += 1
    return added


@njit(cache=True)
def meld_jokers(mo, n):
    j = 0
    for k in range(n):
        j += mo[k, M.M_JOKERS]
    return j
