"""Floating-joker meld engine (Contract Rummy, Liverpool, May I?): ``kernels.melds`` generalised.

Rules source: ``docs/rules/contract_rummy.md`` §4 (melds, floating jokers, the §4.4 validity
predicates), §6 (contracts), §8 (exact-minimum or larger first melds), §9 (no touching
same-suit runs), §10 (lay-offs), §11 (joker swaps, dead jokers). The §19 worked examples are
tests in ``tests/test_melds_float.py``; the brute-force reference is
``tests/reference_melds.py`` (its floating-joker section).

What is shared with ``kernels.melds`` (not copied): the rules array (``melds.make_rules``:
``R_MIN_GROUP``, ``R_MIN_RUN``, ``R_JOKER_POINTS``, ``R_POINTS + rank``) extended here by
entries after ``melds.R_SIZE`` (``make_float_rules``); the contract-row fields ``C_GROUPS``,
``C_GROUP_SIZE``, ``C_GROUP_EXACT``, ``C_RUNS``, ``C_RUN_MIN`` extended by ``CF_ALL`` (the
contract must use every card: Contract Rummy deal 7) and no longer limited to 2 groups and 1
run; the meld-row layout ``M_*`` / ``MK_GROUP`` / ``MK_RUN``; the position helpers
(``interval``, ``pos_rank``, ``highbit``).

Differences from Telefunken's engine, all rule parameters:

* ``RF_MIN_NAT`` naturals per meld (1..3, A20) and **no** joker limit per meld; jokers
  **float**: a run is valid if *some* placement of its jokers makes it valid (§4.3-4.4), so
  a table run stores its naturals and its joker count, plus a window ``M_LO..M_HI`` (the
  placement kept: found by the search, moved by the fewest positions at each lay-off or
  swap, ``fit_window``).
* ``RF_FIXED`` (``joker_position = fixed``, A19): the window is binding: a lay-off only
  extends it at an end (a joker or an ace fitting both ends goes high), a swap must bring
  the card a joker stands for, and a valid row's window holds its cards (``window_ok``).
* ``RF_MAX_RUN`` (14): the ace-to-ace run, the only run holding two aces.
* ``RF_NO_TOUCH``: the same-suit runs of one contract meld may not touch (§9), legal when
  some joker placement avoids it (A24).
* ``C_GROUP_EXACT`` (1: first melds of exactly 3 / 4 cards, CONTRACT and LIVERPOOL; 0: 3+ /
  4+, MAY_I) and ``CF_ALL`` (every card held goes into the meld: deal 7 going out).

Holdings are **count vectors** (``int64[53]``: copies of each card id 0..51, then the jokers
at index 52) because MAY_I with five players uses three decks.

Floating meld rows (``melds.M_SIZE`` fields):

| field | set | run |
|---|---|---|
| ``M_KIND`` | ``MK_GROUP`` | ``MK_RUN`` |
| ``M_KEY`` | rank | suit |
| ``M_LO``, ``M_HI`` | 0 | the window: its positions without a natural are the jokers' (an ace at 1 before 14) |
| ``M_JOKERS`` | jokers | jokers |
| ``M_FLAGS`` | ``F_DEAD`` (jokers never leave a set) | ``F_DEAD`` under MAY_I |
| ``M_P1`` | copies per suit, 4 bits each (suit s at bit 4s) | non-ace natural positions (bits 2..13) |
| ``M_P2`` | naturals | aces (0..2) |

Contract search (``solve_contract``): runs first, in canonical order (suit, lo, hi), each a
window of positions whose cards are taken from the holding where held and jokers elsewhere;
then sets by rank ascending. A meld left without a natural *borrows* one from an earlier run
holding two or more (that run puts a joker in its place), which is exactly the case where a
run should have preferred a joker to a natural it held. With ``RF_MIN_NAT`` > 1 the levels
keep melds short of naturals when earlier melds hold fitting ones, and the leaf moves
naturals over by a small max-flow (``redistribute``). **Objective**: most natural points
laid, then fewest jokers laid (value ``32 * points - jokers``); the first optimum in
enumeration order wins. Exact against the reference (``tests/test_melds_float.py``; the
options: ``tests/test_melds_float_options.py``).
"""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.separate import separate
from numba import types
from cardsim.kernels.melds import (
    C_GROUP_EXACT,
    C_GROUP_SIZE,
    C_GROUPS,
    C_RUN_MIN,
    C_RUNS,
    MK_GROUP,
    MK_RUN,
    M_FLAGS,
    M_HI,
    M_JOKERS,
    M_KEY,
    M_KIND,
    M_LO,
    M_P1,
    M_P2,
    R_JOKER_POINTS,
    R_MIN_GROUP,
    R_MIN_RUN,
    R_POINTS,
    highbit,
    interval,
    pos_rank,
)

JK = 52
HOLD = 53                       # length of a holding count vector

# ---- rules array: melds.make_rules + these entries ----------------------------------
RF_MIN_NAT = M.R_SIZE           # naturals every meld needs (1)
RF_NO_TOUCH = M.R_SIZE + 1      # same-suit contract runs may not touch (§9)
RF_MAX_RUN = M.R_SIZE + 2       # longest run (14: A..K..A)
RF_FIXED = M.R_SIZE + 3         # joker_position = fixed: a run's jokers keep their places
RF_SIZE = M.R_SIZE + 4
MAX_MIN_NAT = 3                 # min_naturals_per_meld 1..3 (4 would forbid every 3-card set)

ACE15_POINTS = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def make_float_rules(joker_points=15, no_touch=True, min_naturals=1, max_run=14,
                     points=ACE15_POINTS, fixed=False):
    """Rules array: ``melds.make_rules`` (sets 3+, runs 4+, §3 points) + the float entries."""
    if not 1 <= min_naturals <= MAX_MIN_NAT:
        raise ValueError(f"min_naturals_per_meld must be 1..{MAX_MIN_NAT}")
    if not 4 <= max_run <= 14:
        raise ValueError("max_run must be 4..14")
    base = M.make_rules(max_jokers=14, min_group=3, min_run=4, max_run=13,
                        joker_points=joker_points, points=points)
    r = np.zeros(RF_SIZE, np.int64)
    r[:M.R_SIZE] = base
    r[RF_MIN_NAT] = min_naturals
    r[RF_NO_TOUCH] = int(no_touch)
    r[RF_MAX_RUN] = max_run
    r[RF_FIXED] = int(fixed)
    return r


# ---- contract rows: melds.C_* fields + CF_ALL -------------------------------------
CF_ALL = M.C_SIZE               # 1: the meld must use every card held
CF_SIZE = M.C_SIZE + 1
MAX_CM = 6                      # most melds in one contract (groups + runs)
F_DEAD = 4                      # meld flag: its jokers can never be swapped out


def contract_row(groups, runs, exact=True, all_cards=False):
    """One contract row: ``groups`` sets of 3(+), ``runs`` runs of 4(+)."""
    if groups < 0 or runs < 0 or groups + runs == 0 or groups + runs > MAX_CM:
        raise ValueError("a contract has 1..6 melds")
    row = np.zeros(CF_SIZE, np.int64)
    row[C_GROUPS] = groups
    row[C_GROUP_SIZE] = 3
    row[C_GROUP_EXACT] = int(exact)
    row[C_RUNS] = runs
    row[C_RUN_MIN] = 4
    row[M.C_JOKER_LIMIT] = -1
    row[CF_ALL] = int(all_cards)
    return row


CONTRACT_SHAPES = ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))   # deals 1..7


def make_contract_table(exact=True, deal7_all=True):
    """Rows 1..7 = the §6 contracts (row 0 unused). ``exact``: deals 1-6 exact sizes;
    ``deal7_all``: deal 7's three runs take every card (CONTRACT); else deal 7 is ordinary."""
    t = np.zeros((8, CF_SIZE), np.int64)
    for d, (g, r) in enumerate(CONTRACT_SHAPES, 1):
        last = d == 7
        t[d] = contract_row(g, r, exact and not last, last and deal7_all)
    return t


# =============================================================================
# validity (§4.4)
# =============================================================================
@njit(cache=True)
def span(pm):
    """max - min + 1 of a position mask (0 for an empty one)."""
    if pm == 0:
        return 0
    return highbit(pm) - lowbit(pm) + 1


@njit(cache=True)
def run_fits(pm, aces, length, rules):
    """Naturals at non-ace positions ``pm`` plus ``aces`` aces fit a run of ``length``."""
    if length < rules[R_MIN_RUN] or length > rules[RF_MAX_RUN]:
        return False
    if aces == 0:
        return span(pm) <= length
    if aces == 1:
        return span(pm | 2) <= length or span(pm | (1 << 14)) <= length
    return aces == 2 and length == 14


@njit(cache=True)
def set_ok(naturals, jokers, rules):
    return naturals >= rules[RF_MIN_NAT] and naturals + jokers >= rules[R_MIN_GROUP]


@njit(cache=True)
def run_ok(pm, aces, jokers, rules):
    return popcount(pm) + aces >= rules[RF_MIN_NAT] and run_fits(pm, aces, popcount(pm) + aces + jokers, rules)


@njit(cache=True)
def row_len(row):
    return row[M_P2] + row[M_JOKERS] + (popcount(row[M_P1]) if row[M_KIND] == MK_RUN else 0)


@njit(cache=True)
def row_valid(row, rules):
    if row[M_KIND] == MK_GROUP:
        return set_ok(row[M_P2], row[M_JOKERS], rules)
    if not run_ok(row[M_P1], row[M_P2], row[M_JOKERS], rules):
        return False
    return rules[RF_FIXED] == 0 or window_ok(row)


@njit(cache=True)
def window_ok(row):
    """The run's window lo..hi is as long as the run and holds its naturals."""
    return row[M_HI] - row[M_LO] + 1 == row_len(row) and window_holds(row[M_P1], row[M_P2], row[M_LO], row[M_HI])


@njit(cache=True)
def card_pos(c):
    """Run position bit of a non-ace card (the ace has none: it floats)."""
    return np.int64(1) << (c % 13 + 1)


# =============================================================================
# a run's window: the positions lo..hi its cards occupy (§4.3 floating / A19 fixed)
# =============================================================================
@njit(cache=True)
def window_holds(pm, aces, lo, hi):
    """The window lo..hi holds the non-ace naturals ``pm`` and ``aces`` aces (at 1 / 14)."""
    if lo < 1 or hi > 14 or lo > hi:
        return False
    if pm & ~interval(lo, hi):
        return False
    return aces <= int(lo == 1) + int(hi == 14)


@njit(cache=True)
def fit_window(pm, aces, length, lo0):
    """The start of the window of ``length`` positions that holds the naturals and lies
    nearest the start ``lo0`` (ties: the lower), or -1 if none does. A run's window is the
    joker assignment the engine keeps: found by the contract search, moved as little as
    possible by each lay-off or swap (under ``RF_FIXED`` it never moves: see ``can_lay``)."""
    best = -1
    for lo in range(1, 16 - length):
        if window_holds(pm, aces, lo, lo + length - 1) and (best < 0 or abs(lo - lo0) < abs(best - lo0)):
            best = lo
    return best


@njit(cache=True)
def refit(row):
    """Move the run's window to fit its cards (see ``fit_window``)."""
    n = row_len(row)
    lo = fit_window(row[M_P1], row[M_P2], n, row[M_LO])
    if lo > 0:
        row[M_LO] = lo
        row[M_HI] = lo + n - 1


@njit(cache=True)
def ace_slots(row):
    """Ace positions (1, 14) inside the run's window."""
    return int(row[M_LO] == 1) + int(row[M_HI] == 14)


@njit(cache=True)
def fixed_end(row, c):
    """Under ``RF_FIXED``: natural ``c`` (JK: a joker) extends the run's window at an end
    (``lo - 1`` or ``hi + 1``; the ace at 1 or 14)."""
    lo, hi = row[M_LO], row[M_HI]
    if c == JK:
        return lo > 1 or hi < 14
    if c % 13 == 0:
        return lo == 2 or hi == 13
    p = c % 13 + 1
    return p == lo - 1 or p == hi + 1


# =============================================================================
# lay-offs and joker swaps on floating melds (§10, §11)
# =============================================================================
@njit(cache=True)
def can_lay(row, c, rules):
    """Card ``c`` (JK = joker) can be laid off on the meld ``row``."""
    if row[M_KIND] == MK_GROUP:
        return c == JK or c % 13 == row[M_KEY]
    if c != JK and c // 13 != row[M_KEY]:
        return False                    # another suit's card (tested first: the common case)
    n = row_len(row) + 1
    if rules[RF_FIXED] and (n > rules[RF_MAX_RUN] or not fixed_end(row, c)):
        return False
    if c == JK:
        return run_fits(row[M_P1], row[M_P2], n, rules)
    if c % 13 == 0:
        return row[M_P2] < 2 and run_fits(row[M_P1], row[M_P2] + 1, n, rules)
    b = card_pos(c)
    return (row[M_P1] & b) == 0 and run_fits(row[M_P1] | b, row[M_P2], n, rules)


@njit(cache=True)
def add_card(row, c):
    if c == JK:
        row[M_JOKERS] += 1
    elif row[M_KIND] == MK_GROUP:
        row[M_P1] += np.int64(1) << (4 * (c // 13))
        row[M_P2] += 1
    elif c % 13 == 0:
        row[M_P2] += 1
    else:
        row[M_P1] |= card_pos(c)


@njit(cache=True)
def lay(row, c):
    """Add card ``c`` to the meld (after ``can_lay``); a run's window grows by the fewest
    moves (a joker or an ace that fits both ends goes high)."""
    add_card(row, c)
    if row[M_KIND] == MK_RUN:
        refit(row)


@njit(cache=True)
def can_swap(row, c, rules):
    """Natural ``c`` can replace a joker of the run ``row`` (§11: runs only, live jokers;
    under ``RF_FIXED`` only the card the joker stands for)."""
    if row[M_KIND] != MK_RUN or row[M_JOKERS] == 0 or (row[M_FLAGS] & F_DEAD) or c == JK:
        return False
    if c // 13 != row[M_KEY]:
        return False
    n = row_len(row)
    if c % 13 == 0:
        if rules[RF_FIXED] and ace_slots(row) <= row[M_P2]:
            return False
        return row[M_P2] < 2 and run_fits(row[M_P1], row[M_P2] + 1, n, rules)
    b = card_pos(c)
    if rules[RF_FIXED] and (b & interval(row[M_LO], row[M_HI])) == 0:
        return False
    return (row[M_P1] & b) == 0 and run_fits(row[M_P1] | b, row[M_P2], n, rules)


@njit(cache=True)
def swap(row, c):
    """Put natural ``c`` in and take one joker out (after ``can_swap``); the window moves
    only if the natural lies outside it (floating jokers)."""
    add_card(row, c)
    row[M_JOKERS] -= 1
    refit(row)


# =============================================================================
# contract search
# =============================================================================
# cur / best rows: kind, key, lo, hi, naturals (run: position mask incl. ace bits 1 and 14;
# set: copies per suit, 4 bits each), jokers, natural count
W_KIND = 0
W_KEY = 1
W_LO = 2
W_HI = 3
W_NAT = 4
W_JOK = 5
W_NN = 6
W_SIZE = 7
BV_VAL = 0
BV_FOUND = 1
BV_NODES = 2                    # search nodes visited (the search is finite: no cap)


@njit(cache=True)
def pos_card(s, p):
    return s * 13 + pos_rank(p)


@njit(cache=True)
def take_window(cnt, s, lo, hi, rules):
    """Take the held cards of suit s at positions lo..hi (one card per position; the ace
    card serves 1 and 14). Returns (natural mask, jokers needed, points)."""
    nat = np.int64(0)
    pts = 0
    for p in range(lo, hi + 1):
        c = pos_card(s, p)
        if cnt[c] > 0:
            cnt[c] -= 1
            nat |= np.int64(1) << p
            pts += rules[R_POINTS + c % 13]
    return nat, hi - lo + 1 - popcount(nat), pts


@njit(cache=True)
def give_back(cnt, s, nat):
    m = nat
    while m:
        cnt[pos_card(s, lowbit(m))] += 1
        m &= m - 1


@njit(cache=True)
def touches(cur, k, s, lo, hi):
    """The window touches an earlier same-suit run of the contract (§9)."""
    for i in range(k):
        if cur[i, W_KEY] == s and (cur[i, W_HI] + 1 == lo or hi + 1 == cur[i, W_LO]):
            return True
    return False


@njit(cache=True)
def lender(cur, k, s, want):
    """An earlier run of suit s with >= 2 naturals holding one at a position of ``want``;
    returns (run, position) or (-1, 0)."""
    for i in range(k):
        if cur[i, W_KIND] == MK_RUN and cur[i, W_KEY] == s and cur[i, W_NN] >= 2:
            m = cur[i, W_NAT] & want
            if m:
                return i, lowbit(m)
    return -1, 0


@njit(cache=True)
def lend(cur, i, p, delta):
    """Run i lends (delta=1) or takes back (delta=-1) its natural at position p."""
    cur[i, W_NAT] ^= np.int64(1) << p
    cur[i, W_JOK] += delta
    cur[i, W_NN] -= delta


@njit(cache=True)
def ace_twin(m):
    """A position mask with the ace at both 1 and 14 when it has either."""
    if m & ((np.int64(1) << 1) | (np.int64(1) << 14)):
        m |= (np.int64(1) << 1) | (np.int64(1) << 14)
    return m


@njit(cache=True)
def set_run(cur, k, s, lo, hi, nat, jok):
    cur[k, W_KIND] = MK_RUN
    cur[k, W_KEY] = s
    cur[k, W_LO] = lo
    cur[k, W_HI] = hi
    cur[k, W_NAT] = nat
    cur[k, W_JOK] = jok
    cur[k, W_NN] = popcount(nat)


@njit(cache=True)
def take_rank(cnt, r, n):
    """Take n copies of rank r (suits with the most copies first); packed suit counts."""
    packed = np.int64(0)
    for _ in range(n):
        bs = 0
        for s in range(1, 4):
            if cnt[s * 13 + r] > cnt[bs * 13 + r]:
                bs = s
        cnt[bs * 13 + r] -= 1
        packed += np.int64(1) << (4 * bs)
    return packed


@njit(cache=True)
def put_rank(cnt, r, packed):
    for s in range(4):
        cnt[s * 13 + r] += (packed >> (4 * s)) & 15


@njit(cache=True)
def rank_total(cnt, r):
    return cnt[r] + cnt[13 + r] + cnt[26 + r] + cnt[39 + r]


@njit(cache=True)
def set_set(cur, k, r, packed, jok, n):
    cur[k, W_KIND] = MK_GROUP
    cur[k, W_KEY] = r
    cur[k, W_LO] = 0
    cur[k, W_HI] = 0
    cur[k, W_NAT] = packed
    cur[k, W_JOK] = jok
    cur[k, W_NN] = n


@njit(cache=True)
def leaf(cnt, jrem, cur, k, spec, rules, best, bv, val, alt, fl):
    """A complete contract: keep it if it is the best so far (CF_ALL: every card used;
    jokers left over go onto a set when the contract has one; RF_MIN_NAT > 1: the naturals
    can be moved so that every meld has enough, see ``redistribute``)."""
    if spec[CF_ALL]:
        for c in range(52):
            if cnt[c]:
                return
        if jrem > 0:
            if spec[C_GROUPS] == 0:
                return
            val -= jrem
    if bv[BV_FOUND] == 0 or val > bv[BV_VAL]:
        src = cur
        if rules[RF_MIN_NAT] > 1 and short_meld(cur, k, rules[RF_MIN_NAT]) >= 0:
            alt[:k] = cur[:k]
            if not redistribute(alt, k, rules[RF_MIN_NAT], fl):
                return
            src = alt
        bv[BV_FOUND] = 1
        bv[BV_VAL] = val
        best[:k] = src[:k]
        if spec[CF_ALL] and jrem > 0:
            best[spec[C_RUNS], W_JOK] += jrem


# ---- min_naturals_per_meld > 1 (A20) ----------------------------------------------------
# The search lays each run on every held card of its window and each set on n naturals of
# its rank, as with one natural per meld. A meld may then hold fewer than RF_MIN_NAT
# naturals while an earlier meld holds a card that fits one of its joker places: moving
# that card over (and a joker back) keeps the value (same cards laid) and both melds valid.
# The levels accept such a meld when the earlier melds hold enough fitting naturals
# (``run_supply``, ``set_supply``: an upper bound), and the leaf decides exactly with a
# tiny max-flow over the melds (``redistribute``). Later melds never hold a card that fits
# an earlier run's joker place (the earlier run took every copy it could), so the bound
# only looks back. RF_MIN_NAT = 1 keeps the borrowing of ``apply_window`` / ``apply_borrow``.
ACE_BITS = (np.int64(1) << 1) | (np.int64(1) << 14)


@njit(cache=True)
def short_meld(cur, n, kmin):
    """The first meld with fewer than ``kmin`` naturals, or -1."""
    for i in range(n):
        if cur[i, W_NN] < kmin:
            return i
    return -1


@njit(cache=True)
def run_supply(cur, k, s, free):
    """Joker places ``free`` of a suit-s run that earlier contract runs hold a natural for."""
    m = np.int64(0)
    for i in range(k):
        if cur[i, W_KIND] == MK_RUN and cur[i, W_KEY] == s:
            m |= ace_twin(cur[i, W_NAT])
    return popcount(m & free)


@njit(cache=True)
def set_supply(cur, k, r):
    """Naturals of rank r in earlier contract melds."""
    want = ACE_BITS if r == 0 else np.int64(1) << (r + 1)
    n = 0
    for i in range(k):
        if cur[i, W_KIND] == MK_RUN:
            n += popcount(cur[i, W_NAT] & want)
        elif cur[i, W_KEY] == r:
            n += cur[i, W_NN]
    return n


@njit(cache=True)
def run_free(row):
    """Joker places of a contract run (window positions without a natural)."""
    return interval(row[W_LO], row[W_HI]) & ~row[W_NAT]


@njit(cache=True)
def ace_at(m):
    """An ace position of the mask m (1 first), or 0."""
    if m & 2:
        return 1
    if m & (np.int64(1) << 14):
        return 14
    return 0


@njit(cache=True)
def move(alt, x, y, do):
    """Meld x holds a natural that fits a joker place of meld y; ``do``: move it there (and
    the joker to x)."""
    if alt[x, W_NN] == 0:
        return False
    ykind = alt[y, W_KIND]
    xkind = alt[x, W_KIND]
    if ykind == MK_RUN:
        s = alt[y, W_KEY]
        free = run_free(alt[y])
        if free == 0:
            return False
        px = 0
        py = 0
        sx = -1
        if xkind == MK_RUN:
            if alt[x, W_KEY] != s:
                return False
            m = alt[x, W_NAT] & free & interval(2, 13)
            if m:
                px = lowbit(m)
                py = px
            elif ace_at(alt[x, W_NAT]) and ace_at(free):
                px = ace_at(alt[x, W_NAT])
                py = ace_at(free)
            else:
                return False
        else:
            r = alt[x, W_KEY]
            if ((alt[x, W_NAT] >> (4 * s)) & 15) == 0:
                return False
            py = ace_at(free) if r == 0 else (r + 1 if (free >> (r + 1)) & 1 else 0)
            if py == 0:
                return False
            sx = s
        if do:
            if sx < 0:
                alt[x, W_NAT] ^= np.int64(1) << px
            else:
                alt[x, W_NAT] -= np.int64(1) << (4 * sx)
            alt[y, W_NAT] |= np.int64(1) << py
    else:
        if alt[y, W_JOK] == 0:
            return False
        r = alt[y, W_KEY]
        s = -1
        px = 0
        if xkind == MK_RUN:
            want = ACE_BITS if r == 0 else np.int64(1) << (r + 1)
            m = alt[x, W_NAT] & want
            if m == 0:
                return False
            px = lowbit(m)
            s = alt[x, W_KEY]
        else:
            if alt[x, W_KEY] != r:
                return False
            for t in range(4):
                if s < 0 and (alt[x, W_NAT] >> (4 * t)) & 15:
                    s = t
        if do:
            if xkind == MK_RUN:
                alt[x, W_NAT] ^= np.int64(1) << px
            else:
                alt[x, W_NAT] -= np.int64(1) << (4 * s)
            alt[y, W_NAT] += np.int64(1) << (4 * s)
    if do:
        alt[x, W_NN] -= 1
        alt[x, W_JOK] += 1
        alt[y, W_NN] += 1
        alt[y, W_JOK] -= 1
    return True


@njit(cache=True)
def redistribute(alt, n, kmin, fl):
    """Move naturals between the melds alt[:n] until each holds ``kmin`` (True) or show that
    no moves can (False). Max-flow by augmenting paths: a path ends at a meld short of
    naturals and starts at one with a natural to spare; each meld on it passes one natural
    on (the graph of ``move`` on the current melds is the residual graph, a move back being
    an ordinary move). ``fl``: scratch of 3 * MAX_CM."""
    queue = fl[:MAX_CM]
    par = fl[MAX_CM:2 * MAX_CM]
    seen = fl[2 * MAX_CM:3 * MAX_CM]
    for _ in range(n * kmin + 1):            # each path raises a short meld by one natural
        d = short_meld(alt, n, kmin)
        if d < 0:
            return True
        seen[:] = 0
        seen[d] = 1
        queue[0] = d
        head = 0
        tail = 1
        src = -1
        while head < tail and src < 0:
            y = queue[head]
            head += 1
            for x in range(n):
                if seen[x] == 0 and move(alt, x, y, False):
                    seen[x] = 1
                    par[x] = y
                    if alt[x, W_NN] > kmin:
                        src = x
                        break
                    queue[tail] = x
                    tail += 1
        if src < 0:
            return False
        x = src
        while x != d:
            move(alt, x, par[x], True)
            x = par[x]
    return short_meld(alt, n, kmin) < 0


# level rows of the iterative search: cursor (run: suit, lo, hi; set: rank, naturals with
# -1 = rank not started, 0 = borrow), then the undo record of the applied candidate
U_A = 0
U_B = 1
U_C = 2
U_NAT = 3       # naturals taken (run: position mask; set: packed suit counts)
U_LI = 4        # lending run, -1 none
U_LP = 5        # its lent position
U_J = 6         # jokers used (lender's included)
U_V = 7         # value added
U_SIZE = 8


@njit(cache=True)
def hi_max(lo, spec, rules):
    if spec[C_GROUP_EXACT]:
        return lo + spec[C_RUN_MIN] - 1
    return min(14, lo + rules[RF_MAX_RUN] - 1)


@njit(cache=True)
def next_window(lv, spec, rules):
    """Advance the run cursor (suit, lo, hi) of level row ``lv`` in canonical order."""
    size = spec[C_RUN_MIN]
    lv[U_C] += 1
    if lv[U_C] > hi_max(lv[U_B], spec, rules):
        lv[U_B] += 1
        lv[U_C] = lv[U_B] + size - 1
        if lv[U_B] > 15 - size:
            lv[U_A] += 1
            lv[U_B] = 1
            lv[U_C] = size


@njit(cache=True)
def init_level(lv, k, spec, cur):
    """Cursor of level k: runs from the previous run's window, sets from its rank."""
    lv[U_LI] = -1
    if k < spec[C_RUNS]:
        if k == 0:
            lv[U_A], lv[U_B], lv[U_C] = 0, 1, spec[C_RUN_MIN]
        else:
            lv[U_A], lv[U_B], lv[U_C] = cur[k - 1, W_KEY], cur[k - 1, W_LO], cur[k - 1, W_HI]
    else:
        lv[U_A] = cur[k - 1, W_KEY] if k > spec[C_RUNS] else 0
        lv[U_B] = -1


@njit(cache=True)
def apply_window(cnt, jrem, k, lv, spec, rules, cur):
    """Lay contract run k on the cursor's window; True if it fits (undo record in lv)."""
    s, lo, hi = lv[U_A], lv[U_B], lv[U_C]
    if rules[RF_NO_TOUCH] and touches(cur, k, s, lo, hi):
        return False
    nat, need, pts = take_window(cnt, s, lo, hi, rules)
    lv[U_NAT] = nat
    lv[U_LI] = -1
    if rules[RF_MIN_NAT] > 1:
        if need <= jrem and popcount(nat) + run_supply(cur, k, s, interval(lo, hi) & ~nat) >= rules[RF_MIN_NAT]:
            set_run(cur, k, s, lo, hi, nat, need)
            lv[U_J] = need
            lv[U_V] = 32 * pts - need
            return True
        give_back(cnt, s, nat)
        lv[U_NAT] = 0
        return False
    if nat != 0 and need <= jrem:
        set_run(cur, k, s, lo, hi, nat, need)
        lv[U_J] = need
        lv[U_V] = 32 * pts - need
        return True
    give_back(cnt, s, nat)
    lv[U_NAT] = 0
    if nat == 0 and need + 1 <= jrem:
        i, p = lender(cur, k, s, ace_twin(interval(lo, hi)))
        if i >= 0:
            lend(cur, i, p, 1)
            set_run(cur, k, s, lo, hi, np.int64(1) << (p if lo <= p <= hi else 15 - p), need - 1)
            lv[U_LI] = i
            lv[U_LP] = p
            lv[U_J] = need
            lv[U_V] = -need
            return True
    return False


@njit(cache=True)
def uncovered_before(cnt, s, lo):
    """A natural left that no window from (s, lo) on can cover: any card of a lower suit, or
    of suit s below position lo (the ace can still go high). Used with CF_ALL."""
    for c in range(13 * s):
        if cnt[c]:
            return True
    for r in range(1, lo - 1):
        if cnt[13 * s + r]:
            return True
    return False


@njit(cache=True)
def window_short(cnt, jrem, s, lo, hi):
    """Even with a card at every held position, window lo..hi of suit s needs more than
    ``jrem`` jokers (then so does every longer window from lo: the need never falls)."""
    have = 0
    for p in range(lo, hi + 1):
        if cnt[pos_card(s, p)] > 0:
            have += 1
    return hi - lo + 1 - have > jrem


@njit(cache=True)
def run_level(cnt, jrem, k, lv, spec, rules, cur):
    """Apply the next fitting window of level k (True) or report it exhausted."""
    while lv[U_A] < 4:
        if spec[CF_ALL] and spec[C_GROUPS] == 0 and uncovered_before(cnt, lv[U_A], lv[U_B]):
            lv[U_A] = 4
            return False
        if window_short(cnt, jrem, lv[U_A], lv[U_B], lv[U_C]):
            ok = False
            lv[U_C] = hi_max(lv[U_B], spec, rules)
        else:
            ok = apply_window(cnt, jrem, k, lv, spec, rules, cur)
        next_window(lv, spec, rules)
        if ok:
            return True
    return False


@njit(cache=True)
def apply_borrow(jrem, k, lv, spec, cur):
    """A set of the cursor's rank with no natural left borrows one from a contract run."""
    size = spec[C_GROUP_SIZE]
    r = lv[U_A]
    if size > jrem:
        return False
    want = ace_twin(np.int64(1) << (r + 1))
    for s in range(4):
        i, p = lender(cur, spec[C_RUNS], s, want)
        if i >= 0:
            lend(cur, i, p, 1)
            set_set(cur, k, r, np.int64(1) << (4 * s), size - 1, 1)
            lv[U_LI] = i
            lv[U_LP] = p
            lv[U_J] = size
            lv[U_V] = -size
            return True
    return False


@njit(cache=True)
def set_level_min(cnt, jrem, k, lv, spec, rules, cur):
    """``set_level`` with RF_MIN_NAT > 1: n naturals down to 0, kept when the earlier melds
    can make up the naturals the set lacks (``set_supply``; the leaf decides)."""
    size = spec[C_GROUP_SIZE]
    kmin = rules[RF_MIN_NAT]
    while lv[U_A] < 13:
        r = lv[U_A]
        if lv[U_B] == -1:
            avail = rank_total(cnt, r)
            lv[U_B] = min(size, avail) if spec[C_GROUP_EXACT] else avail
        n = lv[U_B]
        lv[U_LI] = -1
        jok = max(size - n, 0)
        if n == 0 or jok > jrem:            # fewer naturals need still more jokers
            lv[U_A] += 1
            lv[U_B] = -1
            if jok > jrem:
                continue
        else:
            lv[U_B] = n - 1
        if n + min(jok, set_supply(cur, k, r)) < kmin:
            continue
        packed = take_rank(cnt, r, n)
        set_set(cur, k, r, packed, jok, n)
        lv[U_NAT] = packed
        lv[U_J] = jok
        lv[U_V] = 32 * n * rules[R_POINTS + r] - jok
        return True
    return False


@njit(cache=True)
def set_level(cnt, jrem, k, lv, spec, rules, cur):
    """Apply the next candidate set of level k (rank ascending, naturals descending)."""
    if rules[RF_MIN_NAT] > 1:
        return set_level_min(cnt, jrem, k, lv, spec, rules, cur)
    size = spec[C_GROUP_SIZE]
    while lv[U_A] < 13:
        r = lv[U_A]
        avail = rank_total(cnt, r)
        if lv[U_B] == -1:
            lv[U_B] = (min(size, avail) if spec[C_GROUP_EXACT] else avail) if avail else 0
        n = lv[U_B]
        lv[U_LI] = -1
        if n == 0:
            lv[U_A] += 1
            lv[U_B] = -1
            if apply_borrow(jrem, k, lv, spec, cur):
                return True
            continue
        jok = max(size - n, 0)
        if jok > jrem:
            lv[U_A] += 1
            lv[U_B] = -1
            continue
        packed = take_rank(cnt, r, n)
        set_set(cur, k, r, packed, jok, n)
        lv[U_NAT] = packed
        lv[U_J] = jok
        lv[U_V] = 32 * n * rules[R_POINTS + r] - jok
        lv[U_B] = n - 1
        if lv[U_B] == 0:
            lv[U_A] += 1
            lv[U_B] = -1
        return True
    return False


@njit(cache=True)
def undo_level(cnt, k, lv, spec, cur):
    """Take back the candidate applied at level k."""
    if lv[U_LI] >= 0:
        lend(cur, lv[U_LI], lv[U_LP], -1)
    elif k < spec[C_RUNS]:
        give_back(cnt, cur[k, W_KEY], lv[U_NAT])
    else:
        put_rank(cnt, cur[k, W_KEY], lv[U_NAT])


@njit(cache=True)
def search(cnt, jrem, spec, rules, cur, best, bv, levels, stop, alt, fl):
    """Depth-first search over the contract melds (runs, then sets), iteratively."""
    total = spec[C_RUNS] + spec[C_GROUPS]
    val = 0
    k = 0
    init_level(levels[0], 0, spec, cur)
    while True:
        if k == total:
            leaf(cnt, jrem, cur, k, spec, rules, best, bv, val, alt, fl)
            if stop and bv[BV_FOUND]:
                return
        else:
            bv[BV_NODES] += 1
            lv = levels[k]
            if k < spec[C_RUNS]:
                ok = run_level(cnt, jrem, k, lv, spec, rules, cur)
            else:
                ok = set_level(cnt, jrem, k, lv, spec, rules, cur)
            if ok:
                jrem -= lv[U_J]
                val += lv[U_V]
                k += 1
                if k < total:
                    init_level(levels[k], k, spec, cur)
                continue
        if k == 0:
            return
        k -= 1
        undo_level(cnt, k, levels[k], spec, cur)
        jrem += levels[k, U_J]
        val -= levels[k, U_V]


@njit(cache=True)
def write_rows(best, n, out):
    """The best contract as floating meld rows (see the module table)."""
    for k in range(n):
        row = out[k]
        row[:] = 0
        row[M_KIND] = best[k, W_KIND]
        row[M_KEY] = best[k, W_KEY]
        row[M_JOKERS] = best[k, W_JOK]
        if best[k, W_KIND] == MK_GROUP:
            row[M_P1] = best[k, W_NAT]
            row[M_P2] = best[k, W_NN]
        else:
            nat = best[k, W_NAT]
            row[M_LO] = best[k, W_LO]
            row[M_HI] = best[k, W_HI]
            row[M_P1] = nat & interval(2, 13)
            row[M_P2] = ((nat >> 1) & 1) + ((nat >> 14) & 1)


@njit(cache=True)
def solve_contract(hold, spec, rules, out, stop_first):
    """Best contract meld of the holding ``hold`` (count vector) for contract row ``spec``;
    writes ``spec[C_GROUPS] + spec[C_RUNS]`` rows into ``out`` (runs first) and returns the
    objective value (``32 * natural points - jokers laid``), or -1 if no contract meld exists.
    ``stop_first``: stop at the first contract found (feasibility only)."""
    return solve_contract_ws(hold, spec, rules, out, stop_first, np.zeros((WS_ROWS, HOLD), np.int64))


WS_ROWS = 3 + 4 * MAX_CM        # workspace rows: counts, best value + flow scratch, cur, best, levels, alt


@njit(cache=True)
def solve_contract_ws(hold, spec, rules, out, stop_first, ws):
    """``solve_contract`` on the caller's workspace ``ws`` (int64[WS_ROWS, 53]): no
    allocation, for the game loops."""
    cnt = ws[0, :52]
    cnt[:] = hold[:52]
    bv = ws[1, :3]
    cur = ws[2:2 + MAX_CM, :W_SIZE]
    best = ws[2 + MAX_CM:2 + 2 * MAX_CM, :W_SIZE]
    levels = ws[2 + 2 * MAX_CM:3 + 3 * MAX_CM, :U_SIZE]
    alt = ws[3 + 3 * MAX_CM:3 + 4 * MAX_CM, :W_SIZE]
    fl = ws[1, 8:8 + 3 * MAX_CM]
    bv[:] = 0
    cur[:] = 0
    best[:] = 0
    levels[:] = 0
    search(cnt, hold[JK], spec, rules, cur, best, bv, levels, stop_first, alt, fl)
    if bv[BV_FOUND] == 0:
        return -1
    write_rows(best, spec[C_GROUPS] + spec[C_RUNS], out)
    return bv[BV_VAL]


# The game loops call the solver as a separate kernel (``kernels.separate``): compiled once,
# not again inside each of the half-dozen Contract Rummy kernels above it.
_I, _V = types.int64, types.int64[::1]
sep_solve_contract_ws = separate(solve_contract_ws, _I(_V, _V, _V, types.int64[:, :], types.boolean,
                                                         types.int64[:, ::1]))


@njit(cache=True)
def rows_cards(out, n, hold):
    """Subtract the cards of meld rows out[:n] from the count vector ``hold``."""
    for k in range(n):
        row = out[k]
        hold[JK] -= row[M_JOKERS]
        if row[M_KIND] == MK_GROUP:
            for s in range(4):
                hold[s * 13 + row[M_KEY]] -= (row[M_P1] >> (4 * s)) & 15
        else:
            s = row[M_KEY]
            hold[s * 13] -= row[M_P2]
            m = row[M_P1]
            while m:
                hold[s * 13 + lowbit(m) - 1] -= 1
                m &= m - 1


@njit(cache=True)
def hold_points(hold, rules):
    """Penalty of a holding (§3)."""
    t = hold[JK] * rules[R_JOKER_POINTS]
    for c in range(52):
        t += hold[c] * rules[R_POINTS + c % 13]
    return t
