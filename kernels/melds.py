"""Double-deck meld engine (Telefunken; written to be shared with Contract Rummy).

Rules source: ``docs/rules/telefunken.md`` §1-4 (deck, values, melds, contracts), §9.4
(lay-offs), §10 (jokers on the table), §12 (Hand 7), options A3, A15, A34, A36 of §16 and
the §17 presets; the §19 worked examples are tests in ``tests/test_melds.py``, the options
and presets in ``tests/test_melds_variants.py``. Game flow (who may do what on which turn,
§9.1-9.3, §12) is left to the game module: these kernels answer "is this a meld", "can
this holding go down, and how best", "what can be laid off / which joker operations
exist", "can this Hand-7 holding go out".

Representation
--------------
* A **holding** (or the natural cards of one meld) is two 52-bit int64 masks ``p1`` (holds at
  least one copy) and ``p2`` (holds both copies), always ``p2 ⊆ p1``, plus a joker count;
  card id = ``suit * 13 + rank``, rank 0 = A .. 12 = K (``kernels.cards``). ``JOKER = 52``.
* **Run positions** 1..14: A low = 1, 2..K = 2..13, A high = 14. A set of positions is a
  15-bit mask with bit ``p`` for position ``p`` (bit 0 unused). A joker in a run stands for
  one position; ``jpos`` is the mask of the positions the jokers stand for.

Rules array (``rules``, int64, built by ``make_rules``; its defaults are Telefunken's §3)
-----------------------------------------------------------------------------------------
``R_MAX_JOKERS`` jokers per meld (1) · ``R_MIN_GROUP`` (3) · ``R_MIN_RUN`` (3) ·
``R_ACE_LOW`` / ``R_ACE_HIGH`` (1/1: A-2-3 and Q-K-A, never K-A-2) · ``R_MAX_RUN`` (13: the
ace never at both ends) · ``R_PURE_EXT`` pure-trío extension (0 = the missing 4th suit only,
then closed, §3.2; 1 = any natural of the rank; 2 = none) · ``R_RETRIEVE`` natural cards
needed to retrieve a group joker (2, §10.1; 0 = forbidden; 1 or 2 supported) ·
``R_JOKER_POINTS`` (15) · ``R_POINTS + rank`` penalty of each rank (A 11, 2..9 face,
10..K 10; §2) · ``R_GROUP_DUPS`` (1: a group may hold two identical natural cards, §3.1;
0: it may not, option A3 ``groups_allow_duplicate_suits=False`` — at most 4 naturals + its
jokers; honoured by valid_group, the contract search, lay-offs, joker retrievals and
going out). ``R_GROUP_DUPS`` is the last entry so the older indices are unchanged.

Contract table (``contracts``, int64 (8, C_SIZE), row = hand 1..7, row 0 unused;
a game builds its own from its options, as Telefunken's ``contract_table`` does for §4 and
the §17 presets; ``make_contracts(entries, joker_limits=None, distinct_ranks=False)`` builds one
from the A34 / A36 / A15 options and raises ValueError for shapes it cannot search):
``C_GROUPS`` number of groups (0..2; they share one size) · ``C_GROUP_SIZE`` ·
``C_GROUP_EXACT`` (1: size exactly, 0: at least) · ``C_PURE`` number of pure groups among
them (0..2; a pure group is a trío of distinct suits with no joker; the first ``C_PURE``
groups written are the pure ones, flagged ``F_PURE``) · ``C_RUNS`` (0 or 1) · ``C_RUN_MIN``
(minimum run length) · ``C_JOKER_LIMIT`` most jokers over all the contract melds together
(-1: no limit beyond ``R_MAX_JOKERS`` per meld; A36) · ``C_DISTINCT`` (1: the two groups of
a two-group contract must differ in rank; A15, default 0). By default two groups may share
a rank but never a physical card. The contract search is exact for ``R_MAX_JOKERS <= 1``
(the Telefunken rule); more runs per contract (Contract Rummy) are not supported yet.

Meld rows (int64, ``M_SIZE`` fields): the layout of a meld on the table and of the contract
melds written by ``find_contract`` / ``best_contract``:

| field | group | run |
|---|---|---|
| ``M_KIND`` | ``MK_GROUP`` (1) | ``MK_RUN`` (2); 0 = empty row |
| ``M_KEY`` | rank | suit |
| ``M_LO``, ``M_HI`` | 0, 0 | lowest and highest position (jokers included) |
| ``M_JOKERS`` | jokers in the meld | jokers in the meld |
| ``M_JPOS`` | 0 | position mask of the jokers |
| ``M_FLAGS`` | ``F_PURE`` 1, ``F_CLOSED`` 2 | 0 |
| ``M_P1``, ``M_P2`` | natural cards (both planes) | natural cards (``M_P2`` = 0) |

A joker is *frozen* (§10.3) when its position is neither ``M_LO`` nor ``M_HI``.

Kernels
-------
* ``valid_group``, ``valid_run`` (given the joker positions), ``is_pure_trio``, ``penalty``.
* ``find_contract(p1, p2, jokers, hand, contracts, rules, out) -> bool`` and
  ``best_contract(...) -> int`` (penalty left after going down, -1 when the contract is not
  held). Both write the melds into ``out`` (shape (``MAX_CONTRACT_MELDS``, ``M_SIZE``)):
  groups first (pure ones first), then the run. ``best_contract`` maximises the points laid
  (= minimises the holding's penalty left). A joker limit is met by letting the search lay
  at most ``C_JOKER_LIMIT`` jokers in all. **Ties**: the first optimum in enumeration order
  wins — runs by suit, ``lo``, ``hi``, joker position (none first, then ascending); for each
  run (or none), groups by rank ascending (A first), then joker counts ascending (first
  group before second); the second group's rank starts at the first's, or at A when
  exactly one group is pure (the pure one is always first); with ``C_DISTINCT`` the ranks
  differ. Group cards are taken from a rank as: one copy of each doubled card (suit
  order), then the single cards, then second copies, so the holding keeps as many distinct
  suits as it can. A pure trío (and every group when ``R_GROUP_DUPS`` is 0) takes one copy
  per suit in the same order. Suits with too few cards for the contract run are skipped.
* ``layoffs(p1, p2, jokers, table, n_melds, rules, out) -> n``: rows ``(card, meld, pos)``
  (card 52 = joker; pos = run position the card takes, 0 for a group) of every single-card
  lay-off of §9.4 (including a natural beyond an end joker). ``out`` needs
  ``2 * 53 * n_melds`` rows at most. ``apply_layoff`` updates the meld row.
* ``joker_shifts`` (§10.2): rows ``(card, meld, new_pos)``; ``apply_joker_shift``.
* ``joker_retrievals`` (§10.1): rows ``(meld, card_a, card_b)`` (``card_b`` = -1 when one
  card is needed); ``apply_retrieval``.
* ``go_out_partition(p1, p2, jokers, spec, rules, out) -> discard``: Hand 7 going out
  (§12.2) with the contract melds of the contracts row ``spec``; see its section comment.
Updating the holding (``kernels.cards.dd_remove``) is the caller's job.
"""
import numpy as np

from cardsim.kernels.cards import lowbit, popcount, rank_mask, suit_mask
from cardsim.kernels.jit import njit
from cardsim.kernels.separate import separate
from numba import types

# Signatures of the solvers other kernels call as separate kernels (``kernels.separate``): each
# compiled once, not again inside every caller above it.
_I, _B = types.int64, types.boolean
_V, _MX = types.int64[::1], types.int64[:, ::1]

# ---- rules array ---------------------------------------------------------------
R_MAX_JOKERS = 0
R_MIN_GROUP = 1
R_MIN_RUN = 2
R_ACE_LOW = 3
R_ACE_HIGH = 4
R_MAX_RUN = 5
R_PURE_EXT = 6
R_RETRIEVE = 7
R_JOKER_POINTS = 8
R_POINTS = 9            # R_POINTS + rank
R_GROUP_DUPS = R_POINTS + 13
R_GROUP_WILDS = R_GROUP_DUPS + 1    # most wild cards in a group (1)
R_RUN_WILDS = R_GROUP_DUPS + 2      # most wild cards in a run (1)
R_WILD_RATIO = R_GROUP_DUPS + 3     # WR_*: wild cards against the naturals of a meld
R_WRAP = R_GROUP_DUPS + 4           # 1: runs may wrap K-A-2 (A6)
R_WILD_TRIO = R_GROUP_DUPS + 5      # 1: three wild cards alone are a trío
R_WILD_LAYOFF = R_GROUP_DUPS + 6    # 1: wild cards may be laid off (0: Farmer's)
R_FROZEN = R_GROUP_DUPS + 7         # 1: a joker inside a run is frozen (§10.3; 0: Peru 2)
R_SIZE = R_GROUP_DUPS + 8

WR_NONE = 0                         # only the at-least-one-natural rule
WR_AT_MOST = 1                      # wild cards may not outnumber the naturals (Peru 1)
WR_FEWER = 2                        # the naturals must outnumber the wild cards (Farmer's)

PURE_FOURTH_SUIT = 0
PURE_ANY_NATURAL = 1
PURE_NONE = 2

ACE11_POINTS = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)   # by rank (ace first): ace 11, pips, faces 10


def make_rules(max_jokers=1, min_group=3, min_run=3, ace_low=True, ace_high=True, max_run=13,
               pure_ext=PURE_FOURTH_SUIT, retrieve=2, joker_points=15,
               points=ACE11_POINTS, group_dups=True, group_wilds=None, run_wilds=None,
               wild_ratio=WR_NONE, wrap=False, wild_trio=False, wild_layoff=True, frozen=True):
    """Rules array for the kernels (defaults: Telefunken §2-3, §9-10; ``group_dups``: a
    group may hold two identical natural cards, option A3). ``group_wilds`` / ``run_wilds``
    (default ``max_jokers``) cap the wild cards of a group / run, ``wild_ratio`` (WR_*)
    limits them against its naturals; ``R_MAX_JOKERS`` is the larger cap."""
    group_wilds = max_jokers if group_wilds is None else group_wilds
    run_wilds = max_jokers if run_wilds is None else run_wilds
    r = np.zeros(R_SIZE, np.int64)
    r[R_MAX_JOKERS] = max(group_wilds, run_wilds)
    r[R_GROUP_WILDS] = group_wilds
    r[R_RUN_WILDS] = run_wilds
    r[R_WILD_RATIO] = wild_ratio
    r[R_WRAP] = int(wrap)
    r[R_WILD_TRIO] = int(wild_trio)
    r[R_WILD_LAYOFF] = int(wild_layoff)
    r[R_FROZEN] = int(frozen)
    r[R_MIN_GROUP] = min_group
    r[R_MIN_RUN] = min_run
    r[R_ACE_LOW] = int(ace_low)
    r[R_ACE_HIGH] = int(ace_high)
    r[R_MAX_RUN] = min(max_run, 13)
    r[R_PURE_EXT] = pure_ext
    r[R_RETRIEVE] = retrieve
    r[R_JOKER_POINTS] = joker_points
    r[R_POINTS:R_POINTS + 13] = points
    r[R_GROUP_DUPS] = int(group_dups)
    return r


# ---- contract table --------------------------------------------------------------
C_GROUPS = 0
C_GROUP_SIZE = 1
C_GROUP_EXACT = 2
C_PURE = 3
C_RUNS = 4
C_RUN_MIN = 5
C_JOKER_LIMIT = 6
C_DISTINCT = 7
C_NEXT = 8              # row of the hand's next alternative contract, 0 = none (Peru 2)
C_SIZE = 9
MAX_HANDS = 8           # hands of a game (Farmer's Rummy has eight)
CONTRACT_ROWS = 16      # rows of a contracts table: 0 unused, hands 1..8, alternatives after
MAX_CONTRACT_MELDS = 7  # 4 groups + 3 runs
MAX_GROUPS = 4
MAX_RUNS = 3


def _contract_row(hand, entry):
    """One contracts row from a list of (kind, size, pure) (see make_contracts)."""
    groups = []
    runs = []
    for meld in entry:
        if len(meld) != 3:
            raise ValueError(f"hand {hand}: a contract meld is (kind, size, pure), got {meld!r}")
        kind, size, pure = meld
        if kind not in ("group", "run"):
            raise ValueError(f"hand {hand}: meld kind must be 'group' or 'run', got {kind!r}")
        if int(size) != size or size < 3:
            raise ValueError(f"hand {hand}: a {kind} needs an integer size >= 3, got {size!r}")
        if pure and (kind != "group" or size != 3):
            raise ValueError(f"hand {hand}: only a group of 3 (a trío) can be pure")
        (groups if kind == "group" else runs).append((int(size), bool(pure)))
    if not groups and not runs:
        raise ValueError(f"hand {hand}: a contract needs at least one meld")
    if len(groups) > MAX_GROUPS or len(runs) > MAX_RUNS:
        raise ValueError(f"hand {hand}: supported contracts have 0-{MAX_GROUPS} groups and "
                         f"0-{MAX_RUNS} runs (got {len(groups)} groups, {len(runs)} runs)")
    if len({g[0] for g in groups}) > 1:
        raise ValueError(f"hand {hand}: the groups of a contract must share one size")
    if len({r[0] for r in runs}) > 1:
        raise ValueError(f"hand {hand}: the runs of a contract must share one minimum length")
    return [len(groups), groups[0][0] if groups else 0, 1 if groups else 0,
            sum(p for _, p in groups), len(runs), runs[0][0] if runs else 0, -1, 0, 0]


def is_meld_list(entry):
    """A contract entry is one contract (a list of (kind, size, pure) melds), not a list of
    alternative contracts."""
    return len(entry) > 0 and isinstance(entry[0], (tuple, list)) and len(entry[0]) == 3 \
        and isinstance(entry[0][0], str)


def make_contracts(entries, joker_limits=None, distinct_ranks=False):
    """Contract table (CONTRACT_ROWS rows, row 0 unused, row h = hand h) from ``entries``:
    one contract per hand (1..MAX_HANDS hands; seven in Telefunken), each a sequence of
    (kind, size, pure) with kind "group" (exactly ``size`` cards) or "run" (at least
    ``size``) — rules spec A34; or a list of such contracts, alternatives of which any one
    may be laid (Peru 2's last hand), chained by C_NEXT through rows after the hands.
    ``joker_limits``: {hand: most jokers over all the contract melds of the hand} (A36;
    other hands: no limit beyond the per-meld caps). ``distinct_ranks``: two contract groups
    must differ in rank (A15). Supported: 0-4 groups of one size (pure = a trío of distinct
    suits, no joker) and 0-3 runs of one minimum length; ValueError else."""
    entries = list(entries)
    if not 1 <= len(entries) <= MAX_HANDS:
        raise ValueError(f"contracts: need 1..{MAX_HANDS} entries (one per hand), got {len(entries)}")
    table = np.zeros((CONTRACT_ROWS, C_SIZE), np.int64)
    table[0, C_JOKER_LIMIT] = -1
    free = MAX_HANDS + 1
    for hand, entry in enumerate(entries, 1):
        alts = [entry] if is_meld_list(entry) else list(entry)
        if not alts:
            raise ValueError(f"hand {hand}: a contract needs at least one meld")
        rows = [hand] + list(range(free, free + len(alts) - 1))
        free += len(alts) - 1
        if free > CONTRACT_ROWS:
            raise ValueError(f"contracts: at most {CONTRACT_ROWS - MAX_HANDS - 1} alternatives in all")
        for i, (row, alt) in enumerate(zip(rows, alts)):
            table[row] = _contract_row(hand, alt)
            table[row, C_DISTINCT] = int(bool(distinct_ranks))
            table[row, C_NEXT] = rows[i + 1] if i + 1 < len(rows) else 0
    for hand, limit in (joker_limits or {}).items():
        if hand not in range(1, len(entries) + 1) or int(limit) != limit or limit < 0:
            raise ValueError(f"joker_limits: want {{hand 1..{len(entries)}: limit >= 0}}, got "
                             f"{hand!r}: {limit!r}")
        row = hand
        while row:
            table[row, C_JOKER_LIMIT] = int(limit)
            row = table[row, C_NEXT]
    return table


# ---- meld rows -------------------------------------------------------------------
M_KIND = 0
M_KEY = 1
M_LO = 2
M_HI = 3
M_JOKERS = 4
M_JPOS = 5
M_FLAGS = 6
M_P1 = 7
M_P2 = 8
M_SIZE = 9

# meld kinds (a table row's M_KIND); MK_, not K_: a game's K_* are its decision kinds
MK_NONE = 0
MK_GROUP = 1
MK_RUN = 2
F_PURE = 1
F_CLOSED = 2
F_WILD = 8                               # a trío of three wild cards (R_WILD_TRIO): no rank

RANKS13 = (1 << 13) - 1


# =============================================================================
# positions and small helpers
# =============================================================================
@njit(cache=True)
def interval(lo, hi):
    """Position mask of [lo, hi]."""
    return ((np.int64(1) << (hi + 1)) - 1) ^ ((np.int64(1) << lo) - 1)


@njit(cache=True)
def pos_to_ranks(pm):
    """Position mask -> 13-bit rank mask (positions 1 and 14 are both the ace)."""
    return ((pm >> 1) | (pm >> 14)) & RANKS13


@njit(cache=True)
def pos_rank(p):
    """Rank of the card at run position p (1..14; up to 26 when runs wrap, 0 = the king
    below a wrapping run's ace)."""
    return (p + 12) % 13


@njit(cache=True)
def highbit(x):
    """Index of the highest set bit (x > 0)."""
    h = 0
    while x >> (h + 1):
        h += 1
    return h


@njit(cache=True)
def pos_allowed(lo, hi, rules):
    """An interval [lo, hi] respects the ace rules and the length cap (no length minimum).
    Wrapping runs (R_WRAP) start at a position 1..13 and run on through 14 (A), 15 (2) ..."""
    if rules[R_WRAP]:
        return 1 <= lo <= 13 and lo <= hi and hi - lo + 1 <= min(rules[R_MAX_RUN], 13)
    if lo < 1 or hi > 14 or hi < lo:
        return False
    if lo == 1 and rules[R_ACE_LOW] == 0:
        return False
    if hi == 14 and rules[R_ACE_HIGH] == 0:
        return False
    return hi - lo + 1 <= rules[R_MAX_RUN] and hi - lo + 1 <= 13


@njit(cache=True)
def dd_remove_mask(p1, p2, cards):
    """Remove one copy of every card of ``cards`` (all held) from the planes."""
    return (p1 & ~cards) | (p2 & cards), p2 & ~cards


@njit(cache=True)
def nat_points(p1, p2, rules):
    """Penalty of the natural cards of (p1, p2)."""
    total = 0
    for plane in (p1, p2):
        m = plane
        while m:
            total += rules[R_POINTS + lowbit(m) % 13]
            m &= m - 1
    return total


@njit(cache=True)
def penalty_rules(p1, p2, jokers, rules):
    """Penalty of a holding under ``rules`` (§2)."""
    return nat_points(p1, p2, rules) + jokers * rules[R_JOKER_POINTS]


@njit(cache=True)
def penalty(p1, p2, jokers):
    """Telefunken penalty of a holding (§2: 2-9 face, 10-K 10, A 11, JK 15)."""
    total = 15 * jokers
    for plane in (p1, p2):
        m = plane
        while m:
            r = lowbit(m) % 13
            total += 11 if r == 0 else (r + 1 if r < 9 else 10)
            m &= m - 1
    return total


# =============================================================================
# validity of one meld
# =============================================================================
@njit(cache=True)
def valid_group(p1, p2, jokers, rules):
    """(p1, p2, jokers) is a group: one rank, duplicates allowed unless R_GROUP_DUPS is 0,
    >= 1 natural, <= R_MAX_JOKERS jokers, >= R_MIN_GROUP cards (§3.1)."""
    if p1 == 0 or (p2 & ~p1) != 0 or jokers < 0:
        return False
    if jokers > wild_cap(MK_GROUP, popcount(p1) + popcount(p2), rules):
        return False
    if p2 != 0 and rules[R_GROUP_DUPS] == 0:
        return False
    rm = rank_mask(lowbit(p1) % 13)
    if p1 & ~rm:
        return False
    return popcount(p1) + popcount(p2) + jokers >= rules[R_MIN_GROUP]


@njit(cache=True)
def is_pure_trio(p1, p2, jokers):
    """Three natural cards of one rank in three different suits, no joker (§3.2)."""
    if jokers != 0 or p2 != 0 or popcount(p1) != 3:
        return False
    return (p1 & ~rank_mask(lowbit(p1) % 13)) == 0


@njit(cache=True)
def suit_positions_of(p1, s, rules):
    """suit_positions, and under R_WRAP every rank a second time 13 positions up (the ace
    at 1 and 14, the 2 at 2 and 15, ...), so a wrapping run is an interval."""
    plane = (p1 >> (13 * s)) & RANKS13
    if rules[R_WRAP]:
        return (plane << 1) | (plane << 14)
    return (plane << 1) | ((plane & 1) << 14)


@njit(cache=True)
def run_frame_ok(p1, s, lo, hi, jpos, rules):
    """The naturals ``p1`` (of suit s, single copies) and wild cards at ``jpos`` fill the
    allowed interval [lo, hi] exactly, each natural once."""
    if not pos_allowed(lo, hi, rules):
        return False
    iv = interval(lo, hi)
    nat = iv & suit_positions_of(p1, s, rules)
    return (nat & jpos) == 0 and (nat | jpos) == iv and popcount(nat) == popcount(p1)


@njit(cache=True)
def run_interval(p1, jpos, rules):
    """(lo, hi) of the run made of the naturals ``p1`` (one suit, single copies) and jokers at
    positions ``jpos``, or (-1, -1) when they do not form a contiguous allowed interval.
    The ace goes low or high, whichever works (low tried first)."""
    s = lowbit(p1) // 13
    n = popcount(p1) + popcount(jpos)
    for lo in range(1, 15):
        if run_frame_ok(p1, s, lo, lo + n - 1, jpos, rules):
            return lo, lo + n - 1
    return -1, -1


@njit(cache=True)
def wild_cap(kind, naturals, rules):
    """Most wild cards a meld of ``kind`` with ``naturals`` natural cards may hold: the
    kind's cap (R_GROUP_WILDS / R_RUN_WILDS) and the ratio rule R_WILD_RATIO."""
    cap = rules[R_GROUP_WILDS] if kind == MK_GROUP else rules[R_RUN_WILDS]
    if rules[R_WILD_RATIO] == WR_AT_MOST:
        cap = min(cap, naturals)
    elif rules[R_WILD_RATIO] == WR_FEWER:
        cap = min(cap, naturals - 1)
    return cap


@njit(cache=True)
def valid_run(p1, p2, jokers, jpos, rules):
    """(p1, p2, jokers) is a run with its jokers at the positions of mask ``jpos``: one suit,
    no duplicate, consecutive positions, ace low or high but never in the middle (unless
    R_WRAP), length R_MIN_RUN..R_MAX_RUN, at most wild_cap jokers (§3.3)."""
    if p1 == 0 or p2 != 0 or jokers < 0 or jokers > wild_cap(MK_RUN, popcount(p1), rules):
        return False
    if popcount(jpos) != jokers or (jpos & 1) != 0:
        return False
    if p1 & ~suit_mask(lowbit(p1) // 13):
        return False
    lo, hi = run_interval(p1, jpos, rules)
    return lo > 0 and hi - lo + 1 >= rules[R_MIN_RUN]


# =============================================================================
# contracts
# =============================================================================
@njit(cache=True)
def rank_counts(q1, q2, total, distinct):
    for r in range(13):
        rm = rank_mask(r)
        distinct[r] = popcount(q1 & rm)
        total[r] = distinct[r] + popcount(q2 & rm)


@njit(cache=True)
def take_group(q1, q2, r, k):
    """Take k natural cards of rank r from (q1, q2): one copy of each doubled card, then the
    singles, then second copies (suit order each). Returns (g1, g2, q1, q2)."""
    rm = rank_mask(r)
    dbl = q2 & rm
    first = lowest_bits(dbl, k)                          # one copy of each doubled card
    single = lowest_bits(q1 & rm & ~dbl, k - popcount(first))
    second = lowest_bits(first, k - popcount(first) - popcount(single))
    return first | single, second, q1 & ~single & ~second, q2 & ~first


@njit(cache=True)
def lowest_bits(m, k):
    """The k lowest set bits of m (all of them if m has fewer)."""
    out = np.int64(0)
    while m and k > 0:
        out |= m & -m
        m &= m - 1
        k -= 1
    return out


@njit(cache=True)
def group_need(size, j):
    """Fewest naturals a group of ``size`` cards with j jokers needs (at least one)."""
    return max(size - j, 1)


@njit(cache=True)
def group_gain(r, j, k, rules):
    """Points laid by a group of k naturals of rank r and j jokers."""
    return k * rules[R_POINTS + r] + j * rules[R_JOKER_POINTS]


@njit(cache=True)
def set_group(choice, i, r, j, k):
    """Record group i (0 or 1) of a choice: rank, jokers, naturals used."""
    choice[3 * i] = r
    choice[3 * i + 1] = j
    choice[3 * i + 2] = k


@njit(cache=True)
def pair_naturals(total, r1, need1, r2, need2, exact):
    """Naturals (k1, k2) used by two groups of ranks r1 <= r2 needing need1 / need2: exactly
    those for exact-size groups, else the rest of the rank (both ranks when they differ, the
    second group when they are one rank); (-1, -1) when the holding lacks them."""
    if r2 == r1:
        if total[r1] < need1 + need2:
            return -1, -1
        return need1, (need2 if exact else total[r1] - need1)
    if total[r2] < need2:
        return -1, -1
    if exact:
        return need1, need2
    return total[r1], total[r2]


@njit(cache=True)
def pair_mixed(total, distinct, r1, need1, r2, need2, exact, npure, nodup):
    """pair_naturals when group 1 is pure if npure >= 1, group 2 if npure == 2, and no
    group holds two identical cards if ``nodup`` (group 1's own count was checked). Pure
    groups take exactly their size. Two sets of distinct suits of one rank, sizes a and
    b <= distinct, exist iff a + b <= total (the doubled suits can be in both)."""
    u2 = npure == 2 or nodup
    if r2 == r1:
        if total[r1] < need1 + need2 or (u2 and distinct[r1] < need2):
            return -1, -1
        if exact:
            return need1, need2
        k1 = min(distinct[r1], total[r1] - need2) if nodup and npure == 0 else need1
        if npure == 2:
            return k1, need2
        return k1, (min(distinct[r1], total[r1] - k1) if u2 else total[r1] - k1)
    avail2 = distinct[r2] if u2 else total[r2]
    if avail2 < need2:
        return -1, -1
    if exact:
        return need1, need2
    k1 = need1 if npure >= 1 else (distinct[r1] if nodup else total[r1])
    return k1, (need2 if npure == 2 else avail2)


@njit(cache=True)
def best_one_group(total, distinct, maxj, size, exact, suits, rules, choice, stop_first):
    """Best single contract group (rank A..K, then jokers ascending); -1 if none. With
    ``suits`` (a pure trío, or no identical cards in groups) it takes one card per suit."""
    best = -1
    for r in range(13):
        avail = distinct[r] if suits else total[r]
        for j in range(maxj + 1):
            need = group_need(size, j)
            if avail < need:
                continue
            k = need if exact else avail
            if j > wild_cap(MK_GROUP, k, rules):
                continue
            gain = group_gain(r, j, k, rules)
            if gain > best:
                best = gain
                set_group(choice, 0, r, j, k)
                if stop_first:
                    return best
    return best


@njit(cache=True)
def best_two_groups(total, jok, maxj, size, exact, rules, choice, stop_first):
    """Best two disjoint contract groups, neither pure, ranks free (r1 <= r2 from A, jokers
    ascending, first group's before the second's); -1 if none. The default contracts' path:
    best_mixed_pair does the general case, slower."""
    best = -1
    for r1 in range(13):
        for j1 in range(maxj + 1):
            need1 = group_need(size, j1)
            if total[r1] < need1:
                continue
            for r2 in range(r1, 13):
                for j2 in range(min(maxj, jok - j1) + 1):
                    k1, k2 = pair_naturals(total, r1, need1, r2, group_need(size, j2), exact)
                    if k1 < 0 or j1 > wild_cap(MK_GROUP, k1, rules) or j2 > wild_cap(MK_GROUP, k2, rules):
                        continue
                    gain = group_gain(r1, j1, k1, rules) + group_gain(r2, j2, k2, rules)
                    if gain > best:
                        best = gain
                        set_group(choice, 0, r1, j1, k1)
                        set_group(choice, 1, r2, j2, k2)
                        if stop_first:
                            return best
    return best


@njit(cache=True)
def best_mixed_pair(total, distinct, jok, maxj, size, exact, npure, dist, nodup, rules,
                    choice, stop_first):
    """Best two disjoint contract groups, the first ``npure`` of them pure; ranks differ when
    ``dist``; no identical cards in a group when ``nodup``. Order: r1 from A, j1 ascending,
    r2 (from r1, or from A when exactly one group is pure), j2 ascending; -1 if none."""
    best = -1
    for r1 in range(13):
        avail1 = distinct[r1] if npure >= 1 or nodup else total[r1]
        for j1 in range((0 if npure >= 1 else maxj) + 1):
            need1 = group_need(size, j1)
            if avail1 < need1:
                continue
            maxj2 = 0 if npure == 2 else min(maxj, jok - j1)
            for r2 in range(0 if npure == 1 else r1, 13):
                if dist and r2 == r1:
                    continue
                for j2 in range(maxj2 + 1):
                    k1, k2 = pair_mixed(total, distinct, r1, need1, r2, group_need(size, j2),
                                        exact, npure, nodup)
                    if k1 < 0 or j1 > wild_cap(MK_GROUP, k1, rules) or j2 > wild_cap(MK_GROUP, k2, rules):
                        continue
                    gain = group_gain(r1, j1, k1, rules) + group_gain(r2, j2, k2, rules)
                    if gain > best:
                        best = gain
                        set_group(choice, 0, r1, j1, k1)
                        set_group(choice, 1, r2, j2, k2)
                        if stop_first:
                            return best
    return best


@njit(cache=True, inline='always')
def best_groups(total, distinct, jok, spec, rules, choice, stop_first):
    """Best contract groups of ``spec`` (0..2 disjoint groups) from rank counts, with at
    most ``jok`` jokers in all; -1 if none. ``choice`` receives (r1, j1, k1, r2, j2, k2)
    (k = naturals used). Returns points laid."""
    g = spec[C_GROUPS]
    if g == 0:
        return 0
    maxj = min(rules[R_GROUP_WILDS], jok)
    nodup = rules[R_GROUP_DUPS] == 0
    if g == 1:
        return best_one_group(total, distinct, 0 if spec[C_PURE] else maxj, spec[C_GROUP_SIZE],
                              spec[C_GROUP_EXACT] != 0, spec[C_PURE] != 0 or nodup, rules,
                              choice, stop_first)
    if spec[C_PURE] == 0 and spec[C_DISTINCT] == 0 and not nodup:
        return best_two_groups(total, jok, maxj, spec[C_GROUP_SIZE], spec[C_GROUP_EXACT] != 0,
                               rules, choice, stop_first)
    return best_mixed_pair(total, distinct, jok, maxj, spec[C_GROUP_SIZE],
                           spec[C_GROUP_EXACT] != 0, spec[C_PURE], spec[C_DISTINCT] != 0, nodup,
                           rules, choice, stop_first)


@njit(cache=True, inline='always')
def contract_groups(q1, q2, jokers, spec, rules, total, distinct, choice, stop_first):
    """best_groups for the groups of the contract ``spec`` from the holding (q1, q2, jokers);
    ``total`` and ``distinct`` are scratch rank counts."""
    rank_counts(q1, q2, total, distinct)
    return best_groups(total, distinct, jokers, spec, rules, choice, stop_first)


@njit(cache=True)
def write_groups(q1, q2, g, npure, choice, out, row):
    """Write the chosen groups as meld rows from ``row`` on (the first ``npure`` flagged
    pure); returns the remaining planes."""
    for i in range(g):
        r = choice[3 * i]
        g1, g2, q1, q2 = take_group(q1, q2, r, choice[3 * i + 2])
        o = out[row + i]
        o[M_KIND] = MK_GROUP
        o[M_KEY] = r
        o[M_LO] = 0
        o[M_HI] = 0
        o[M_JOKERS] = choice[3 * i + 1]
        o[M_JPOS] = 0
        o[M_FLAGS] = F_PURE if i < npure else 0
        o[M_P1] = g1
        o[M_P2] = g2
    return q1, q2


# A run contract's choice: the CH_GROUPS group fields (r1, j1, k1, r2, j2, k2) as for
# best_groups, then the run (suit, lo, hi, joker position mask). The per-candidate path
# (best_placement -> run_candidate -> contract_groups -> best_groups) is inline='always' so
# that search_runs compiles into one loop with no per-candidate array reference counting;
# the tiny scalar helpers stay plain njit (LLVM inlines them, and faster than numba does).
CH_GROUPS = 6
CH_SUIT = 6
CH_LO = 7
CH_HI = 8
CH_JPOS = 9
CH_SIZE = 10


@njit(cache=True)
def suit_positions(p1, s):
    """Run positions (1..14, the ace at both 1 and 14) of the cards of suit s held."""
    plane = (p1 >> (13 * s)) & RANKS13
    return (plane << 1) | ((plane & 1) << 14)


@njit(cache=True)
def joker_places(iv, held, maxj):
    """Joker placements to try for a run on the positions ``iv`` as a mask, ascending =
    enumeration order: bit 0 = no joker (only when nothing is missing), bit p = the joker at
    p (the one missing position, or any position of a complete run)."""
    miss = iv & ~held
    m = popcount(miss)
    if m > maxj or m > 1:
        return np.int64(0)
    if m == 1:
        return miss
    return np.int64(1) | (iv if maxj >= 1 else np.int64(0))


@njit(cache=True)
def choice_run_cards(choice):
    """Natural cards of the run of a choice."""
    iv = interval(choice[CH_LO], choice[CH_HI])
    return pos_to_ranks(iv & ~choice[CH_JPOS]) << (13 * choice[CH_SUIT])


@njit(cache=True, inline='always')
def run_candidate(p1, p2, jokers, s, iv, jpos, spec, rules, total, distinct, cand,
                  stop_first):
    """Points laid by the run of suit s on the positions ``iv`` with jokers at ``jpos`` plus
    the best contract groups from the rest of the holding (written to ``cand``); -1 when the
    groups are not there."""
    cards = pos_to_ranks(iv & ~jpos) << (13 * s)
    q1, q2 = dd_remove_mask(p1, p2, cards)
    nj = popcount(jpos)
    gg = contract_groups(q1, q2, jokers - nj, spec, rules, total, distinct, cand, stop_first)
    if gg < 0:
        return -1
    return gg + nat_points(cards, 0, rules) + nj * rules[R_JOKER_POINTS]


@njit(cache=True, inline='always')
def record_choice(choice, cand, s, lo, hi, jpos):
    """A better candidate: its groups (``cand``) and its run go to ``choice``."""
    for i in range(CH_GROUPS):
        choice[i] = cand[i]
    choice[CH_SUIT] = s
    choice[CH_LO] = lo
    choice[CH_HI] = hi
    choice[CH_JPOS] = jpos


@njit(cache=True, inline='always')
def best_placement(p1, p2, jokers, s, lo, hi, places, spec, rules, total, distinct, cand,
                   choice, best, stop_first):
    """Try the joker placements ``places`` (see joker_places) of the run [lo, hi] of suit s;
    a total above ``best`` goes to ``choice``. Returns the best so far."""
    iv = interval(lo, hi)
    while places:
        jpos = places & -places & ~np.int64(1)          # bit 0: no joker
        places &= places - 1
        gain = run_candidate(p1, p2, jokers, s, iv, jpos, spec, rules, total, distinct, cand,
                             stop_first)
        if gain > best:
            best = gain
            record_choice(choice, cand, s, lo, hi, jpos)
            if stop_first:
                break
    return best


@njit(cache=True)
def search_runs(p1, p2, jokers, spec, rules, choice, stop_first):
    """Points laid by the best (first if ``stop_first``) run + groups of the contract
    ``spec``, -1 if none, the winner in ``choice``. Candidates go by suit, lo, hi, then joker
    placement (joker_places)."""
    run_min = max(spec[C_RUN_MIN], rules[R_MIN_RUN])
    maxj = min(rules[R_RUN_WILDS], jokers)
    total = np.zeros(13, np.int64)
    distinct = np.zeros(13, np.int64)
    cand = np.zeros(CH_GROUPS, np.int64)
    best = -1
    for s in range(4):
        held = suit_positions(p1, s)
        if popcount(held & ~np.int64(2)) + maxj < run_min:
            continue                                    # too few cards of the suit
        for lo in range(1, 15):
            for hi in range(lo + run_min - 1, 15):
                places = joker_places(interval(lo, hi), held, maxj)
                if places == 0 or not pos_allowed(lo, hi, rules):
                    continue
                best = best_placement(p1, p2, jokers, s, lo, hi, places, spec, rules, total,
                                      distinct, cand, choice, best, stop_first)
                if stop_first and best >= 0:
                    return best
    return best


@njit(cache=True)
def write_run_contract(p1, p2, spec, choice, out):
    """Write a run contract's choice: the groups first, then the run."""
    g = spec[C_GROUPS]
    cards = choice_run_cards(choice)
    q1, q2 = dd_remove_mask(p1, p2, cards)
    write_groups(q1, q2, g, spec[C_PURE], choice, out, 0)
    o = out[g]
    o[M_KIND] = MK_RUN
    o[M_KEY] = choice[CH_SUIT]
    o[M_LO] = choice[CH_LO]
    o[M_HI] = choice[CH_HI]
    o[M_JOKERS] = popcount(choice[CH_JPOS])
    o[M_JPOS] = choice[CH_JPOS]
    o[M_FLAGS] = 0
    o[M_P1] = cards
    o[M_P2] = 0


@njit(cache=True)
def solve_contract(p1, p2, jokers, spec, rules, out, stop_first):
    """Core of find_contract / best_contract: points laid by the best (or first) way to lay
    the contract ``spec`` (a contracts row), -1 if impossible; the melds go to ``out``.
    A joker limit (C_JOKER_LIMIT >= 0) caps the jokers the search may lay in all. Shapes
    and rules beyond the fast path (needs_general) go to gen_solve."""
    if needs_general(spec, rules):
        return gen_solve(p1, p2, jokers, spec, rules, out, stop_first)
    out[:] = 0
    choice = np.zeros(CH_SIZE, np.int64)
    if 0 <= spec[C_JOKER_LIMIT] < jokers:
        jokers = spec[C_JOKER_LIMIT]
    if spec[C_RUNS] != 0:
        best = search_runs(p1, p2, jokers, spec, rules, choice, stop_first)
        if best >= 0:
            write_run_contract(p1, p2, spec, choice, out)
        return best
    total = np.zeros(13, np.int64)
    distinct = np.zeros(13, np.int64)
    best = contract_groups(p1, p2, jokers, spec, rules, total, distinct, choice, stop_first)
    if best >= 0:
        write_groups(p1, p2, spec[C_GROUPS], spec[C_PURE], choice, out, 0)
    return best


sep_solve_contract = separate(solve_contract, _I(_I, _I, _I, _V, _V, _MX, _B))


@njit(cache=True)
def solve_hand(p1, p2, jokers, contracts, hand, rules, out, stop_first):
    """solve_contract over the contract of ``hand`` and its alternatives (C_NEXT): the most
    points laid (ties: the first alternative; ``stop_first``: the first that is held)."""
    row = contracts[hand, C_NEXT]
    best = sep_solve_contract(p1, p2, jokers, contracts[hand], rules, out, stop_first)
    if row == 0 or (stop_first and best >= 0):
        return best
    alt = np.zeros_like(out)
    while row:
        gain = sep_solve_contract(p1, p2, jokers, contracts[row], rules, alt, stop_first)
        if gain > best:
            best = gain
            out[:] = alt
            if stop_first:
                break
        row = contracts[row, C_NEXT]
    return best


sep_solve_hand = separate(solve_hand, _I(_I, _I, _I, _MX, _I, _V, _MX, _B))


@njit(cache=True)
def find_contract(p1, p2, jokers, hand, contracts, rules, out):
    """The holding can lay the contract of ``hand``; one way to do it goes to ``out``."""
    return sep_solve_hand(p1, p2, jokers, contracts, hand, rules, out, True) >= 0


@njit(cache=True)
def best_contract(p1, p2, jokers, hand, contracts, rules, out):
    """Penalty left in the holding after laying the contract of ``hand`` in the way that
    leaves the least (ties: see module docstring), melds in ``out``; -1 if not held."""
    gain = sep_solve_hand(p1, p2, jokers, contracts, hand, rules, out, False)
    if gain < 0:
        return -1
    return penalty_rules(p1, p2, jokers, rules) - gain


# =============================================================================
# general contracts: more groups and runs, several wild cards per meld, wrapping runs
# =============================================================================
# gen_solve is the exact search for what the fast path above does not cover
# (needs_general): more than two groups or one run, runs that may take more than one wild
# card or wrap, wild tríos (R_WILD_TRIO). Depth-first over the contract melds, one level
# each: the runs first, in canonical order (suit, lo, hi; each run at or after the one
# before), then the pure groups, then the other groups (rank ascending within each class;
# rank 13 is the wild trío; ranks differ under C_DISTINCT). A run on [lo, hi] takes the
# naturals it holds there except a set X of them, and wild cards fill every other position
# (X's cards stay in the holding for later melds: the run gets wild cards in their place);
# X is enumerated by size, then in combination order, only while a later meld exists. A
# group takes j wild cards (ascending) and k naturals of its rank (exact: size - j; else
# every k from size - j up), the physical cards as take_group does (pure tríos and groups
# without identical cards: one card per suit, doubled suits first). Per meld: at least one
# natural (but the wild trío), wild_cap; over the contract: C_JOKER_LIMIT. Objective: most
# points laid (wild cards at R_JOKER_POINTS), the first optimum in enumeration order; with
# ``stop_first`` the first way found. Cover mode (gen_go_out): the cards left over must
# number spare_lo..spare_hi (a contract that is the whole holding, Peru 2's last hand).
GEN_LEVELS = MAX_CONTRACT_MELDS
LV_Q1 = 0               # level columns: the holding before the level's meld
LV_Q2 = 1
LV_W = 2                # wild cards held
LV_BUDGET = 3           # wild cards the contract may still take (C_JOKER_LIMIT)
LV_GAIN = 4             # points laid by the levels before
LV_FRESH = 5            # 1: the level has not produced a meld yet
LV_S = 6                # run: suit, lo, hi, |X|, X as a combination of the held positions
LV_LO = 7
LV_HI = 8
LV_XN = 9
LV_XV = 10
LV_R = 6                # group: rank (13: wild trío), wild cards, naturals
LV_J = 7
LV_K = 8
LV_SIZE = 11
WILD_TRIO_RANK = 13
GEN_NODE_CAP = 2_000_000     # work cap (far above the 12-14 card holdings of its presets):
#                              gen_search returns GO_CAPPED (no way found yet) or the best so far


@njit(cache=True)
def needs_general(spec, rules):
    """The contracts row ``spec`` under ``rules`` needs gen_solve."""
    if spec[C_GROUPS] > 2 or spec[C_RUNS] > 1 or rules[R_WILD_TRIO]:
        return True
    return spec[C_RUNS] > 0 and (rules[R_RUN_WILDS] > 1 or rules[R_WRAP] != 0)


@njit(cache=True)
def deposit(v, mask):
    """The bits of ``mask`` picked by the low bits of ``v`` (bit i of v -> i-th set bit)."""
    out = np.int64(0)
    i = 0
    while mask:
        b = mask & -mask
        mask &= mask - 1
        if (v >> i) & 1:
            out |= b
        i += 1
    return out


@njit(cache=True)
def next_combination(v):
    """The next larger integer with as many set bits as v (> 0): Gosper's hack."""
    c = v & -v
    r = v + c
    return (((r ^ v) >> 2) // c) | r


@njit(cache=True)
def gen_span(rules):
    """Last start and last end position of a run (14 / 14; wrapping: 13 / 25)."""
    return (13, 25) if rules[R_WRAP] else (14, 14)


@njit(cache=True)
def gen_run_option(lv, d, spec, rules, row):
    """Level d's run cursor as a meld (written to ``row``), or False when it does not fit:
    naturals held on [lo, hi] minus X, wild cards elsewhere, wild_cap and the budget."""
    s, lo, hi = lv[d, LV_S], lv[d, LV_LO], lv[d, LV_HI]
    q1, w = lv[d, LV_Q1], min(lv[d, LV_W], lv[d, LV_BUDGET])
    iv = interval(lo, hi)
    held = iv & suit_positions_of(q1, s, rules)
    x = deposit(lv[d, LV_XV], held) if lv[d, LV_XN] else np.int64(0)
    nat = held & ~x
    j = popcount(iv & ~nat)
    if nat == 0 or j > w or j > wild_cap(MK_RUN, popcount(nat), rules) or not pos_allowed(lo, hi, rules):
        return False
    go_set_meld(row, MK_RUN, s, lo, hi, j, iv & ~nat, pos_to_ranks(nat) << (13 * s), 0)
    return True


@njit(cache=True)
def gen_run_xmax(lv, d, nlev, rules):
    """Largest X worth trying on level d's interval: wild cards to spare, a natural kept in
    the run, and a later meld that could use X's cards."""
    if d + 1 >= nlev:
        return 0
    iv = interval(lv[d, LV_LO], lv[d, LV_HI])
    held = iv & suit_positions_of(lv[d, LV_Q1], lv[d, LV_S], rules)
    w = min(lv[d, LV_W], lv[d, LV_BUDGET])
    return min(w - popcount(iv & ~held), popcount(held) - 1)


@njit(cache=True)
def gen_run_step(lv, d, nlev, spec, rules):
    """Move level d's run cursor one option on: the next X, else the next interval (a
    longer one, the next start, the next suit). False when the suits are used up."""
    xn, xv = lv[d, LV_XN], lv[d, LV_XV]
    if xn > 0:
        iv = interval(lv[d, LV_LO], lv[d, LV_HI])
        nb = popcount(iv & suit_positions_of(lv[d, LV_Q1], lv[d, LV_S], rules))
        xv = next_combination(xv)
        if xv < (np.int64(1) << nb):
            lv[d, LV_XV] = xv
            return True
    if xn + 1 <= gen_run_xmax(lv, d, nlev, rules):
        lv[d, LV_XN] = xn + 1
        lv[d, LV_XV] = (np.int64(1) << (xn + 1)) - 1
        return True
    lv[d, LV_XN] = 0
    lv[d, LV_XV] = 0
    return gen_next_interval(lv, d, spec, rules)


@njit(cache=True)
def gen_next_interval(lv, d, spec, rules):
    """Level d's next interval (s, lo, hi) in canonical order; False after the last suit."""
    run_min = max(spec[C_RUN_MIN], rules[R_MIN_RUN])
    last_lo, last_hi = gen_span(rules)
    s, lo, hi = lv[d, LV_S], lv[d, LV_LO], lv[d, LV_HI] + 1
    while s < 4:
        if hi <= min(last_hi, lo + 12) and lo <= last_lo:
            lv[d, LV_S], lv[d, LV_LO], lv[d, LV_HI] = s, lo, hi
            return True
        lo += 1
        if lo > last_lo:
            s += 1
            lo = 1
        hi = lo + run_min - 1
    return False


@njit(cache=True)
def gen_run_next(lv, d, nlev, spec, rules, row):
    """The next run of level d (from its cursor, which advances) into ``row``."""
    if lv[d, LV_FRESH]:
        lv[d, LV_FRESH] = 0
        if gen_run_option(lv, d, spec, rules, row):
            return True
    while gen_run_step(lv, d, nlev, spec, rules):
        if gen_run_option(lv, d, spec, rules, row):
            return True
    return False


@njit(cache=True)
def gen_group_class(d, spec):
    """(first level of level d's group class, pure?) — the pure groups come first."""
    first = spec[C_RUNS]
    if d - first < spec[C_PURE]:
        return first, True
    return first + spec[C_PURE], False


@njit(cache=True)
def gen_rank_taken(lv, d, spec, r):
    """Under C_DISTINCT: an earlier group level already has rank r."""
    if spec[C_DISTINCT] == 0 or r == WILD_TRIO_RANK:
        return False
    for e in range(spec[C_RUNS], d):
        if lv[e, LV_R] == r:
            return True
    return False


@njit(cache=True)
def gen_group_option(lv, d, spec, rules, row):
    """Level d's group cursor (rank, wild cards j, naturals k) as a meld in ``row``, or False
    when it does not fit."""
    r, j, k = lv[d, LV_R], lv[d, LV_J], lv[d, LV_K]
    q1, q2 = lv[d, LV_Q1], lv[d, LV_Q2]
    size = spec[C_GROUP_SIZE]
    if j > min(lv[d, LV_W], lv[d, LV_BUDGET]) or gen_rank_taken(lv, d, spec, r):
        return False
    if r == WILD_TRIO_RANK:
        if min(lv[d, LV_W], lv[d, LV_BUDGET]) < 3:
            return False
        go_set_meld(row, MK_GROUP, 0, 0, 0, 3, 0, np.int64(0), np.int64(0))
        row[M_FLAGS] = F_WILD
        return True
    pure = gen_group_class(d, spec)[1]
    if k < 1 or j > wild_cap(MK_GROUP, k, rules) or (pure and j > 0):
        return False
    if k + j != size and (spec[C_GROUP_EXACT] or k + j < size):
        return False
    rm = rank_mask(r)
    if pure or rules[R_GROUP_DUPS] == 0:
        if popcount(q1 & rm) < k:
            return False
        first = lowest_bits(q2 & rm, k)
        g1, g2 = first | lowest_bits(q1 & rm & ~q2, k - popcount(first)), np.int64(0)
    else:
        if popcount(q1 & rm) + popcount(q2 & rm) < k:
            return False
        g1, g2, _, _ = take_group(q1, q2, r, k)
    go_set_meld(row, MK_GROUP, r, 0, 0, j, 0, g1, g2)
    row[M_FLAGS] = F_PURE if pure else 0
    return True


@njit(cache=True)
def gen_group_step(lv, d, spec, rules):
    """Move level d's group cursor on: naturals k, then wild cards j, then the rank (13,
    the wild trío, only where allowed). False after the last."""
    size = spec[C_GROUP_SIZE]
    r, j, k = lv[d, LV_R], lv[d, LV_J], lv[d, LV_K]
    if r < WILD_TRIO_RANK:
        if spec[C_GROUP_EXACT] == 0 and k < 8:
            lv[d, LV_K] = k + 1
            return True
        jmax = min(lv[d, LV_W], rules[R_GROUP_WILDS])
        if j + 1 <= (min(jmax, size - 1) if spec[C_GROUP_EXACT] else jmax):
            lv[d, LV_J] = j + 1
            lv[d, LV_K] = max(size - j - 1, 1)
            return True
        r += 1
    else:
        return False
    trio = rules[R_WILD_TRIO] and size == 3 and spec[C_GROUP_EXACT] and not gen_group_class(d, spec)[1]
    if r == WILD_TRIO_RANK and not trio:
        return False
    lv[d, LV_R], lv[d, LV_J], lv[d, LV_K] = r, 0, size
    return True


@njit(cache=True)
def gen_group_next(lv, d, spec, rules, row):
    """The next group of level d (from its cursor, which advances) into ``row``."""
    if lv[d, LV_FRESH]:
        lv[d, LV_FRESH] = 0
        if gen_group_option(lv, d, spec, rules, row):
            return True
    while gen_group_step(lv, d, spec, rules):
        if gen_group_option(lv, d, spec, rules, row):
            return True
    return False


@njit(cache=True)
def gen_start_level(lv, d, spec, rules):
    """Level d's cursor at its first option: a run at the previous run's interval (or the
    first one), a group at its class's previous rank (or A)."""
    lv[d, LV_FRESH] = 1
    nr = spec[C_RUNS]
    if d < nr:
        if d == 0:
            lv[d, LV_S], lv[d, LV_LO] = 0, 1
            lv[d, LV_HI] = max(spec[C_RUN_MIN], rules[R_MIN_RUN])
        else:
            lv[d, LV_S], lv[d, LV_LO], lv[d, LV_HI] = lv[d - 1, LV_S], lv[d - 1, LV_LO], lv[d - 1, LV_HI]
        lv[d, LV_XN] = 0
        lv[d, LV_XV] = 0
        return
    first, _ = gen_group_class(d, spec)
    lv[d, LV_R] = lv[d - 1, LV_R] if d > first else 0
    lv[d, LV_J] = 0
    lv[d, LV_K] = spec[C_GROUP_SIZE]


@njit(cache=True)
def gen_descend(lv, d, row, rules):
    """Level d + 1 starts from level d's holding minus the meld ``row``."""
    q1, q2 = dd_remove_mask(lv[d, LV_Q1], lv[d, LV_Q2], row[M_P1])
    q1, q2 = dd_remove_mask(q1, q2, row[M_P2])
    lv[d + 1, LV_Q1] = q1
    lv[d + 1, LV_Q2] = q2
    lv[d + 1, LV_W] = lv[d, LV_W] - row[M_JOKERS]
    lv[d + 1, LV_BUDGET] = lv[d, LV_BUDGET] - row[M_JOKERS]
    gain = nat_points(row[M_P1], row[M_P2], rules) + row[M_JOKERS] * rules[R_JOKER_POINTS]
    lv[d + 1, LV_GAIN] = lv[d, LV_GAIN] + gain


@njit(cache=True)
def gen_left(lv, d, rules):
    """(cards left at level d, points they are worth)."""
    q1, q2, w = lv[d, LV_Q1], lv[d, LV_Q2], lv[d, LV_W]
    return popcount(q1) + popcount(q2) + w, penalty_rules(q1, q2, w, rules)


@njit(cache=True)
def gen_orphans(q1, q2, w, groups, runs, spec, rules):
    """Natural cards (with their copies) that none of ``groups`` groups / ``runs`` runs still
    to lay could hold: a group needs C_GROUP_SIZE cards of the rank with the wild cards it
    may take, a run a window of C_RUN_MIN positions of the suit through the card whose
    missing positions the wild cards fill."""
    cov = np.int64(0)
    if groups > 0:
        size = spec[C_GROUP_SIZE]
        for r in range(13):
            rm = rank_mask(r)
            k = popcount(q1 & rm) + popcount(q2 & rm)
            if k > 0 and k + min(w, wild_cap(MK_GROUP, k, rules)) >= size:
                cov |= rm
    if runs > 0:
        n = max(spec[C_RUN_MIN], rules[R_MIN_RUN])
        last_lo = gen_span(rules)[0]
        for s in range(4):
            held = suit_positions_of(q1, s, rules)
            for lo in range(1, last_lo + 1):
                iv = interval(lo, lo + n - 1)
                k = popcount(iv & held)
                if k > 0 and pos_allowed(lo, lo + n - 1, rules) and \
                        popcount(iv & ~held) <= min(w, wild_cap(MK_RUN, k, rules)):
                    cov |= pos_to_ranks(iv & held) << (13 * s)
    return popcount(q1 & ~cov) + popcount(q2 & ~cov)


@njit(cache=True)
def gen_cover_hopeless(lv, d, spec, rules, row, spare_hi):
    """Cover mode prune after level d's meld ``row``: the cards left must fit the levels
    after d (a group takes its size, a run at most 13) plus the spare; and the cards no
    later level can reach — the suits before a run's suit (later runs come after it in
    canonical order), the ranks below a group's rank (later groups of its class are not
    lower) — must fit the later groups that can take them, plus the spare."""
    nr, ng = spec[C_RUNS], spec[C_GROUPS]
    q1, q2, w = lv[d + 1, LV_Q1], lv[d + 1, LV_Q2], lv[d + 1, LV_W]
    later_groups = ng - max(0, d + 1 - nr)
    later_runs = max(0, nr - d - 1)
    room = later_groups * spec[C_GROUP_SIZE] + 13 * later_runs
    if popcount(q1) + popcount(q2) + w > room + spare_hi:
        return True
    if gen_orphans(q1, q2, w, later_groups, later_runs, spec, rules) > spare_hi:
        return True
    if d < nr:
        before = (np.int64(1) << (13 * row[M_KEY])) - 1
        return popcount(q1 & before) + popcount(q2 & before) > later_groups * spec[C_GROUP_SIZE] + spare_hi
    if d < nr + spec[C_PURE] and ng > spec[C_PURE]:
        return False                    # the plain groups after the pure ones may take any rank
    r = WILD_TRIO_RANK if row[M_FLAGS] & F_WILD else row[M_KEY]
    low = np.int64(0)
    for k in range(r):
        low |= rank_mask(k)
    return popcount(q1 & low) + popcount(q2 & low) > spare_hi


@njit(cache=True)
def gen_search(p1, p2, jokers, spec, rules, stop_first, spare_lo, spare_hi, best_rows):
    """The depth-first search of gen_solve (see the section comment): the points laid by
    the best (or first) way, -1 if none; its melds, one per level, in ``best_rows``."""
    nr, ng = spec[C_RUNS], spec[C_GROUPS]
    nlev = nr + ng
    lv = np.zeros((nlev + 1, LV_SIZE), np.int64)
    cur = np.zeros((nlev, M_SIZE), np.int64)
    lv[0, LV_Q1], lv[0, LV_Q2], lv[0, LV_W] = p1, p2, jokers
    lv[0, LV_BUDGET] = jokers if spec[C_JOKER_LIMIT] < 0 else spec[C_JOKER_LIMIT]
    gen_start_level(lv, 0, spec, rules)
    if spare_hi < 99 and gen_orphans(p1, p2, jokers, ng, nr, spec, rules) > spare_hi:
        return -1                                   # cover mode: more cards than spares fit nowhere
    best = -1
    d = 0
    nodes = 0
    while d >= 0:
        nodes += 1
        if nodes > GEN_NODE_CAP:
            return GO_CAPPED if best < 0 else best
        if d == nlev:
            left, _ = gen_left(lv, d, rules)
            if spare_lo <= left <= spare_hi and lv[d, LV_GAIN] > best:
                best = lv[d, LV_GAIN]
                best_rows[:nlev] = cur
                if stop_first:
                    return best
            d -= 1
            continue
        ok = gen_run_next(lv, d, nlev, spec, rules, cur[d]) if d < nr else gen_group_next(lv, d, spec, rules, cur[d])
        if not ok:
            d -= 1
            continue
        gen_descend(lv, d, cur[d], rules)
        if spare_hi < 99 and gen_cover_hopeless(lv, d, spec, rules, cur[d], spare_hi):
            continue
        left, pts = gen_left(lv, d + 1, rules)
        if best >= 0 and lv[d + 1, LV_GAIN] + pts <= best:
            continue                                # cannot lay more than the best so far
        d += 1
        if d < nlev:
            gen_start_level(lv, d, spec, rules)
    return best


sep_gen_search = separate(gen_search, _I(_I, _I, _I, _V, _V, _B, _I, _I, _MX))


@njit(cache=True)
def gen_write(rows, spec, out):
    """The levels' melds in the fast path's order: groups (pure first), then the runs."""
    out[:] = 0
    nr, ng = spec[C_RUNS], spec[C_GROUPS]
    for i in range(ng):
        out[i] = rows[nr + i]
    for i in range(nr):
        out[ng + i] = rows[i]


@njit(cache=True)
def gen_solve(p1, p2, jokers, spec, rules, out, stop_first):
    """solve_contract for the general shapes and rules (see the section comment); a search
    that hits GEN_NODE_CAP without a way counts as not held."""
    rows = np.zeros((GEN_LEVELS, M_SIZE), np.int64)
    best = sep_gen_search(p1, p2, jokers, spec, rules, stop_first, 0, 99, rows)
    out[:] = 0
    if best >= 0:
        gen_write(rows, spec, out)
    return max(best, -1)


@njit(cache=True)
def gen_go_out(p1, p2, jokers, contracts, hand, rules, out, need_discard):
    """Going out in one turn with nothing but the contract melds of ``hand`` (any of its
    alternatives): -1 if impossible, else the discard (card id, 52 = a wild card, 53 =
    none), GO_CAPPED when a search hit its work cap. No discard is tried first (not with
    ``need_discard``), then one card left over; within each, the alternatives in order and
    the first way found."""
    rows = np.zeros((GEN_LEVELS, M_SIZE), np.int64)
    for spare in range(1 if need_discard else 0, 2):
        row = hand
        while row:
            spec = contracts[row]
            found = sep_gen_search(p1, p2, jokers, spec, rules, True, spare, spare, rows)
            if found == GO_CAPPED:
                return GO_CAPPED
            if found >= 0:
                gen_write(rows, spec, out)
                if spare == 0:
                    return GO_OUT_NO_DISCARD
                a1, a2, aj = melds_cards(out, MAX_CONTRACT_MELDS)
                q1, q2 = dd_remove_mask(p1, p2, a1)
                q1, q2 = dd_remove_mask(q1, q2, a2)
                return lowbit(q1) if q1 else JOKER_ID
            row = contracts[row, C_NEXT]
    out[:] = 0
    return -1



sep_gen_go_out = separate(gen_go_out, _I(_I, _I, _I, _MX, _I, _V, _MX, _B))


@njit(cache=True)
def melds_cards(melds, n):
    """Union of the natural cards and the jokers of ``n`` meld rows, as (p1, p2, jokers)
    (p1 = -1 when some card is used three times or more)."""
    a1 = np.int64(0)
    a2 = np.int64(0)
    jok = 0
    for i in range(n):
        for plane in (melds[i, M_P1], melds[i, M_P2]):
            if a2 & plane:
                return np.int64(-1), a2, jok
            a2 |= a1 & plane
            a1 |= plane
        jok += melds[i, M_JOKERS]
    return a1, a2, jok


@njit(cache=True)
def meld_valid(row, rules):
    """A meld row is a valid group / run whose fields agree with its cards."""
    kind = row[M_KIND]
    if kind == MK_GROUP and row[M_FLAGS] & F_WILD:
        return rules[R_WILD_TRIO] != 0 and row[M_JOKERS] == 3 and row[M_P1] == 0 and row[M_P2] == 0
    if kind == MK_GROUP:
        if not valid_group(row[M_P1], row[M_P2], row[M_JOKERS], rules):
            return False
        if lowbit(row[M_P1]) % 13 != row[M_KEY]:
            return False
        if row[M_FLAGS] & F_PURE:
            # a pure trío, possibly extended (fourth suit; any natural under PURE_ANY_NATURAL):
            # never a joker, and its three suits stay
            return row[M_JOKERS] == 0 and popcount(row[M_P1]) >= 3
        return True
    if kind == MK_RUN:
        if not valid_run(row[M_P1], row[M_P2], row[M_JOKERS], row[M_JPOS], rules):
            return False
        if lowbit(row[M_P1]) // 13 != row[M_KEY]:
            return False
        # the row fixes where the ace sits (a 13-card run can be A-K or 2-A)
        return run_frame_ok(row[M_P1], row[M_KEY], row[M_LO], row[M_HI], row[M_JPOS], rules)
    return False


# =============================================================================
# lay-offs and joker operations (§9.4, §10)
# =============================================================================
@njit(cache=True)
def emit(out, n, a, b, c):
    out[n, 0] = a
    out[n, 1] = b
    out[n, 2] = c
    return n + 1


@njit(cache=True)
def wild_room(row, rules):
    """The meld ``row`` may take one more wild card (R_WILD_LAYOFF, its kind's cap and
    ratio; never a pure trío or a wild trío)."""
    if rules[R_WILD_LAYOFF] == 0 or row[M_FLAGS] & (F_PURE | F_CLOSED | F_WILD):
        return False
    return row[M_JOKERS] < wild_cap(row[M_KIND], popcount(row[M_P1]) + popcount(row[M_P2]), rules)


@njit(cache=True)
def group_accepts(row, card, rules):
    """A natural ``card`` may be laid off onto the group ``row`` (not a second copy of one
    of its cards when R_GROUP_DUPS is 0; never onto a wild trío)."""
    if card % 13 != row[M_KEY] or row[M_FLAGS] & (F_CLOSED | F_WILD):
        return False
    new_suit = (row[M_P1] & (np.int64(1) << card)) == 0
    if row[M_FLAGS] & F_PURE:
        ext = rules[R_PURE_EXT]
        if ext == PURE_NONE:
            return False
        if ext == PURE_FOURTH_SUIT:
            return new_suit
    return new_suit or rules[R_GROUP_DUPS] != 0


@njit(cache=True)
def run_end_ok(row, pos, rules):
    """Position ``pos`` is a legal new end (lo-1 or hi+1) of the run ``row``; under R_WRAP,
    0 is the king below a run starting at the low ace (widen_run re-bases it)."""
    lo = row[M_LO]
    hi = row[M_HI]
    if pos == lo - 1:
        if pos == 0 and rules[R_WRAP]:
            return pos_allowed(13, hi + 13, rules)
        return pos_allowed(pos, hi, rules)
    if pos == hi + 1:
        return pos_allowed(lo, pos, rules)
    return False


@njit(cache=True)
def layoffs(p1, p2, jokers, table, n_melds, rules, out):
    """Every single-card lay-off of the holding onto the table melds (§9.4):
    rows (card, meld index, position; 0 for groups). Returns the number of rows."""
    n = 0
    for i in range(n_melds):
        row = table[i]
        kind = row[M_KIND]
        if kind == MK_GROUP:
            m = p1 & rank_mask(row[M_KEY])
            while m:
                c = lowbit(m)
                if group_accepts(row, c, rules):
                    n = emit(out, n, c, i, 0)
                m &= m - 1
            if jokers > 0 and wild_room(row, rules):
                n = emit(out, n, 52, i, 0)
        elif kind == MK_RUN:
            s = row[M_KEY]
            for pos in (row[M_LO] - 1, row[M_HI] + 1):
                if not run_end_ok(row, pos, rules):
                    continue
                c = s * 13 + pos_rank(pos)
                if p1 & (np.int64(1) << c):
                    n = emit(out, n, c, i, pos)
            if jokers > 0 and wild_room(row, rules):
                for pos in (row[M_LO] - 1, row[M_HI] + 1):
                    if run_end_ok(row, pos, rules):
                        n = emit(out, n, 52, i, pos)
    return n


@njit(cache=True)
def apply_layoff(table, i, card, pos, rules):
    """Lay ``card`` (52 = joker) onto meld ``i`` at run position ``pos`` (0 for a group). The
    fourth suit closes a pure trío only under PURE_FOURTH_SUIT (§3.2; A14)."""
    row = table[i]
    if card == 52:
        row[M_JOKERS] += 1
        if row[M_KIND] == MK_RUN:
            row[M_JPOS] |= np.int64(1) << pos
    else:
        b = np.int64(1) << card
        if row[M_P1] & b:
            row[M_P2] |= b
        else:
            row[M_P1] |= b
        if (row[M_KIND] == MK_GROUP and row[M_FLAGS] & F_PURE and popcount(row[M_P1]) == 4
                and rules[R_PURE_EXT] == PURE_FOURTH_SUIT):
            row[M_FLAGS] |= F_CLOSED
    if row[M_KIND] == MK_RUN:
        widen_run(row, pos)


@njit(cache=True)
def widen_run(row, pos):
    """Stretch a run row's [lo, hi] to include position ``pos``; position 0 (a wrapping
    run's king below its low ace) re-bases the run 13 positions up."""
    if pos == 0:
        row[M_LO] += 13
        row[M_HI] += 13
        row[M_JPOS] <<= 13
        pos = 13
    row[M_LO] = min(row[M_LO], pos)
    row[M_HI] = max(row[M_HI], pos)


@njit(cache=True)
def held_joker_places(row, p1, ends_only):
    """Mask of the positions of the run ``row``'s jokers whose natural card p1 holds (only
    the jokers at an end when ``ends_only``)."""
    m = np.int64(0)
    jm = row[M_JPOS]
    while jm:
        jp = lowbit(jm)
        jm &= jm - 1
        if ends_only and jp != row[M_LO] and jp != row[M_HI]:
            continue
        if p1 & (np.int64(1) << (row[M_KEY] * 13 + pos_rank(jp))):
            m |= np.int64(1) << jp
    return m


@njit(cache=True)
def joker_shifts(p1, p2, jokers, table, n_melds, rules, out):
    """§10.2: rows (card, meld index, new joker position) for every run whose joker sits at an
    end (any joker unless R_FROZEN, §10.3) while the holding has the card it stands for; the
    joker moves to lo-1 or hi+1."""
    n = 0
    for i in range(n_melds):
        row = table[i]
        if row[M_KIND] != MK_RUN or row[M_JOKERS] == 0:
            continue
        jm = held_joker_places(row, p1, rules[R_FROZEN] != 0)
        while jm:
            c = row[M_KEY] * 13 + pos_rank(lowbit(jm))
            jm &= jm - 1
            for pos in (row[M_LO] - 1, row[M_HI] + 1):
                if run_end_ok(row, pos, rules):
                    n = emit(out, n, c, i, pos)
    return n


@njit(cache=True)
def apply_joker_shift(table, i, card, new_pos):
    """The natural ``card`` takes the place of the joker standing for it (an end joker, or
    any one unless R_FROZEN); the joker moves to ``new_pos``."""
    row = table[i]
    take_joker_place(row, card)
    row[M_JOKERS] += 1
    row[M_JPOS] |= np.int64(1) << new_pos
    widen_run(row, new_pos)


@njit(cache=True)
def take_joker_place(row, card):
    """The natural ``card`` replaces the wild card standing for it in the run ``row`` (its
    rank occurs once in the run's positions); the wild card leaves the meld."""
    jm = row[M_JPOS]
    while jm:
        p = lowbit(jm)
        jm &= jm - 1
        if pos_rank(p) == card % 13:
            row[M_JPOS] &= ~(np.int64(1) << p)
            break
    row[M_P1] |= np.int64(1) << card
    row[M_JOKERS] -= 1


@njit(cache=True)
def joker_takes(p1, table, n_melds, rules, out):
    """Rows (card, meld index, 0): a natural held that can take the place of a wild card in a
    run (the wild card goes to the holding; Peru 1's rule, and the Ecuador exchange)."""
    n = 0
    for i in range(n_melds):
        row = table[i]
        if row[M_KIND] != MK_RUN or row[M_JOKERS] == 0:
            continue
        jm = held_joker_places(row, p1, False)
        while jm:
            n = emit(out, n, row[M_KEY] * 13 + pos_rank(lowbit(jm)), i, 0)
            jm &= jm - 1
    return n


@njit(cache=True)
def joker_retrievals(p1, p2, jokers, table, n_melds, rules, out):
    """§10.1: rows (meld index, card_a, card_b) — add these naturals of the group's rank,
    take its joker (card_b = -1 when R_RETRIEVE is 1). Pure trío groups never have jokers.
    With R_GROUP_DUPS 0 the cards must be of suits the group lacks (and differ)."""
    n = 0
    need = rules[R_RETRIEVE]
    if need <= 0:
        return 0
    for i in range(n_melds):
        row = table[i]
        if row[M_KIND] != MK_GROUP or row[M_JOKERS] == 0 or row[M_FLAGS] & (F_PURE | F_WILD):
            continue
        m = p1 & rank_mask(row[M_KEY])
        if rules[R_GROUP_DUPS] == 0:
            m &= ~row[M_P1]                     # only suits the group lacks, one card each
        while m:
            a = lowbit(m)
            m &= m - 1
            if need == 1:
                n = emit(out, n, i, a, -1)
                continue
            if p2 & (np.int64(1) << a) and rules[R_GROUP_DUPS] != 0:
                n = emit(out, n, i, a, a)
            m2 = m
            while m2:
                n = emit(out, n, i, a, lowbit(m2))
                m2 &= m2 - 1
    return n


@njit(cache=True)
def apply_retrieval(table, i, a, b, rules):
    """Add naturals a (and b unless -1) to group ``i`` and take one joker off it."""
    apply_layoff(table, i, a, 0, rules)
    if b >= 0:
        apply_layoff(table, i, b, 0, rules)
    table[i, M_JOKERS] -= 1


# =============================================================================
# Hand 7: going out in one turn (§12.2)
# =============================================================================
# ``go_out_partition(p1, p2, jokers, spec, rules, out) -> int``: can the holding go out in
# Hand 7, i.e. lay the whole holding, or all of it but one card that is then discarded, as
# valid melds (groups 3+, with duplicates unless R_GROUP_DUPS is 0, runs 3+, each
# <= R_MAX_JOKERS jokers, at most one joker per run) including the contract melds of
# ``spec`` (a contracts row): a group of exactly C_GROUP_SIZE cards when C_GROUPS >= 1 and
# a run of C_RUN_MIN or more when C_RUNS is 1 (Telefunken's row 7: exactly 3 + 7 or more;
# Ecuador's and Bolivia's: a 7+ run only). Only one contract group is supported (C_GROUPS 2
# is read as 1); C_PURE, C_GROUP_EXACT, C_JOKER_LIMIT and C_DISTINCT are not read (no
# preset's Hand 7 needs them: Ecuador's limit of 1 joker on its single run is
# R_MAX_JOKERS). Returns -1 if not, else the discard: a card id, 52 for a joker,
# GO_OUT_NO_DISCARD (53) when every card is laid. The melds go to the rows of ``out``
# (shape (MAX_GO_OUT_MELDS, M_SIZE); M_KIND 0 for unused rows, M_FLAGS 0).
# **Preference** (deterministic): no discard first; else the discard with the highest
# penalty (R_JOKER_POINTS / R_POINTS), ties by the lowest card id (the joker is id 52).
# For each discard, the first cover found in search order wins.
# Gate (cheap necessary conditions, the answer is unchanged): more than one natural card
# that no meld of the holding can hold (go_orphans) -> -1, exactly one -> it is the only
# possible discard; the contract melds must be in the holding (find_contract on a row
# relaxed to one plain group + the run).
# Search: depth-first cover of the holding, explicit stack (one level per meld): each level
# takes the lowest natural card c left and tries every meld containing it — groups of c's
# rank (c + 0..2 more copies of each suit, then 0/1 joker; option k < GO_GROUP_OPTS), then
# runs of c's suit through c (lo, hi, joker slot; k >= GO_GROUP_OPTS). Jokers are laid only
# inside melds, so a joker left when the naturals are gone is a failure. Pruned when a card
# left has no meld in what is left, when no suit can still give the contract run, or when
# too few cards are left for the missing contract melds (pruning never changes which cover
# is found first). Exact for R_MAX_JOKERS <= 1 (Telefunken); a holding needing more than
# MAX_GO_OUT_MELDS melds (impossible below 38 cards) is reported as not going out.
# Work cap: a search stops after GO_NODE_CAP melds tried (a holding of 30+ cards, random play
# with every purchase, can take minutes otherwise); go_out_partition then returns GO_CAPPED,
# which the game counts and reports (the game is flagged truncated).
GO_OUT_NO_DISCARD = 53
GO_CAPPED = -2
GO_NODE_CAP = 250_000
MAX_GO_OUT_MELDS = 12
GO_GROUP_OPTS = 162                    # 3^4 extra-copy counts x (0 / 1 joker)
GO_RUN_OPTS = 14 * 14 * 15             # lo 1..14 x hi 1..14 x joker slot 0..14
GF_GROUP = 1                           # stack flags: the contract group is laid
GF_RUN = 2                             # the contract run is laid
GF_DISC = 4                            # (go_cover_spare) the spare card is used
S_Q1 = 0                               # stack columns: holding left, jokers, flags, cursor
S_Q2 = 1
S_JOK = 2
S_FLAGS = 3
S_K = 4
S_SIZE = 5
G_REQ = 0                              # goal array: flags required, group size, run minimum
G_GROUP = 1
G_RUN = 2


@njit(cache=True)
def go_extra_copies(q1, q2, b, cb, rules):
    """Copies of card ``b`` a group through card ``cb`` (same rank) can add: those held, c's
    own copy not counted, at most one per suit unless R_GROUP_DUPS."""
    have = (1 if q1 & b else 0) + (1 if q2 & b else 0) - (1 if b == cb else 0)
    if rules[R_GROUP_DUPS] == 0:
        have = min(have, 0 if b == cb else 1)
    return have


@njit(cache=True)
def go_group_option(q1, q2, jok, c, k, rules):
    """Group option k (< GO_GROUP_OPTS) through card c: (g1, g2, jokers); g1 = 0 when the
    holding lacks it. Jokers k % 2; base-3 digits of k // 2: extra copies per suit."""
    nj = k % 2
    if nj > jok or nj > rules[R_GROUP_WILDS]:
        return np.int64(0), np.int64(0), 0
    cb = np.int64(1) << c
    g1 = cb
    g2 = np.int64(0)
    size = 1 + nj
    t = k // 2
    for s in range(4):
        n = t % 3
        t //= 3
        b = np.int64(1) << (s * 13 + c % 13)
        if n > go_extra_copies(q1, q2, b, cb, rules):
            return np.int64(0), np.int64(0), 0
        if b == cb:
            g2 |= b if n == 1 else np.int64(0)
        else:
            g1 |= b if n >= 1 else np.int64(0)
            g2 |= b if n == 2 else np.int64(0)
        size += n
    if size < rules[R_MIN_GROUP]:
        return np.int64(0), np.int64(0), 0
    return g1, g2, nj


@njit(cache=True)
def go_group_skip(q1, q2, c, k, rules):
    """The first group option >= k whose extra-copy digits the holding can supply (options
    in between are ones ``go_group_option`` rejects): k itself when its digits fit."""
    t = k // 2
    step = 1
    cb = np.int64(1) << c
    for s in range(4):
        b = np.int64(1) << (s * 13 + c % 13)
        if (t // step) % 3 > go_extra_copies(q1, q2, b, cb, rules):
            return 2 * ((t // (3 * step) + 1) * 3 * step)
        step *= 3
    return k


@njit(cache=True)
def go_run_block(held, cpos, lo, hi, rules):
    """Missing positions of the run [lo, hi] of one suit (``held``: its positions held)
    through c (``cpos``: c's positions), -1 if the interval is not a candidate."""
    if hi - lo + 1 < rules[R_MIN_RUN] or not pos_allowed(lo, hi, rules):
        return np.int64(-1)
    iv = interval(lo, hi)
    if (iv & cpos) == 0:
        return np.int64(-1)
    miss = iv & ~held
    if popcount(miss) > 1:
        return np.int64(-1)
    return miss


@njit(cache=True)
def go_run_jpos(miss, cpos, lo, hi, js, jok, rules):
    """Joker mask of joker slot js (0 = none, j = position lo + j - 1) of a run block, or
    -1 when the slot does not fit (a joker must fill the missing position, never c's)."""
    if js == 0:
        return np.int64(0) if miss == 0 else np.int64(-1)
    p = lo + js - 1
    if p > hi or jok < 1 or rules[R_RUN_WILDS] < 1:
        return np.int64(-1)
    jp = np.int64(1) << p
    if (miss != 0 and jp != miss) or (jp & cpos):
        return np.int64(-1)
    return jp


@njit(cache=True)
def go_set_meld(row, kind, key, lo, hi, nj, jpos, g1, g2):
    row[M_KIND] = kind
    row[M_KEY] = key
    row[M_LO] = lo
    row[M_HI] = hi
    row[M_JOKERS] = nj
    row[M_JPOS] = jpos
    row[M_FLAGS] = 0
    row[M_P1] = g1
    row[M_P2] = g2


@njit(cache=True)
def go_next_meld(q1, q2, jok, c, k, rules, row):
    """The first meld option >= k through card c (groups, then runs), written to ``row``;
    returns its option number, -1 when there are no more."""
    while k < GO_GROUP_OPTS:
        skip = go_group_skip(q1, q2, c, k, rules)
        if skip > k:
            k = skip
            continue
        g1, g2, nj = go_group_option(q1, q2, jok, c, k, rules)
        if g1 != 0:
            go_set_meld(row, MK_GROUP, c % 13, 0, 0, nj, 0, g1, g2)
            return k
        k += 1
    s = c // 13
    held = suit_positions(q1, s)
    cpos = suit_positions(np.int64(1) << c, s)
    while k < GO_GROUP_OPTS + GO_RUN_OPTS:
        kk = k - GO_GROUP_OPTS
        lo = kk // 210 + 1
        hi = (kk // 15) % 14 + 1
        js = kk % 15
        if lo > highbit(cpos):
            return -1                           # no later interval holds c
        hmin = max(lo + rules[R_MIN_RUN] - 1, lowbit(cpos >> lo << lo))
        if hi < hmin:                           # too short, or short of c: skip to hmin
            k = GO_GROUP_OPTS + (lo - 1) * 210 + (hmin - 1) * 15 if hmin <= 14 else GO_GROUP_OPTS + lo * 210
            continue
        miss = go_run_block(held, cpos, lo, hi, rules)
        if miss < 0:
            if hi >= lo and popcount(interval(lo, hi) & ~held) > 1:
                k = GO_GROUP_OPTS + lo * 210    # next lo: longer runs from lo miss 2+ too
            else:
                k += 15 - js                    # next interval
            continue
        jp = go_run_jpos(miss, cpos, lo, hi, js, jok, rules)
        if jp >= 0:
            cards = pos_to_ranks(interval(lo, hi) & ~jp) << (13 * s)
            go_set_meld(row, MK_RUN, s, lo, hi, popcount(jp), jp, cards, 0)
            return k
        k += 1
    return -1


@njit(cache=True)
def go_orphans(q1, q2, jok, rules):
    """Natural cards of the holding that no meld of the holding can hold (a group needs
    R_MIN_GROUP cards of the rank with <= R_MAX_JOKERS jokers; a run an R_MIN_RUN window of
    the suit through the card with at most one position missing, filled by a joker)."""
    jg = min(jok, rules[R_GROUP_WILDS])
    jr = min(jok, rules[R_RUN_WILDS], 1)
    cov = np.int64(0)
    dup = q2 if rules[R_GROUP_DUPS] else np.int64(0)
    for r in range(13):
        rm = rank_mask(r)
        if popcount(q1 & rm) + popcount(dup & rm) + jg >= rules[R_MIN_GROUP]:
            cov |= rm
    n = max(rules[R_MIN_RUN], 1)
    starts = np.int64(-1)
    for s in range(4):
        held = suit_positions(q1, s)
        if popcount(held & ~np.int64(2)) + jr < n:
            continue
        if starts < 0:
            starts = window_starts(n, rules)
        cov |= pos_to_ranks(window_cover(held, n, jr, starts)) << (13 * s)
    return q1 & ~cov


@njit(cache=True)
def window_starts(n, rules):
    """Mask of the positions lo whose run window [lo, lo + n - 1] ``pos_allowed`` accepts."""
    if n > rules[R_MAX_RUN] or n > 13:
        return np.int64(0)
    a = interval(1, 15 - n)
    if rules[R_ACE_LOW] == 0:
        a &= ~np.int64(2)
    if rules[R_ACE_HIGH] == 0:
        a &= ~(np.int64(1) << (15 - n))
    return a


@njit(cache=True)
def window_cover(held, n, jr, starts):
    """Positions of ``held`` inside some window [lo, lo + n - 1] (lo in ``starts``) that
    misses at most jr (0 or 1) positions: the misses are counted bit-parallel for every lo
    at once (``ones``: at least one, ``twos``: at least two)."""
    ones = np.int64(0)
    twos = np.int64(0)
    for i in range(n):
        x = ~held >> i
        twos |= ones & x
        ones |= x
    ok = starts & ~(ones if jr == 0 else twos)
    cov = np.int64(0)
    for i in range(n):
        cov |= ok << i
    return cov & held


@njit(cache=True)
def go_hopeless(q1, q2, jok, flags, goal, rules):
    """Prune: a card left has no meld, or the missing contract melds cannot come from what
    is left."""
    if go_orphans(q1, q2, jok, rules):
        return True
    miss = goal[G_REQ] & ~flags
    need = 0
    if miss & GF_RUN:
        runj = min(jok, 1, rules[R_RUN_WILDS])
        best = 0
        for s in range(4):
            best = max(best, popcount(suit_positions(q1, s) & ~np.int64(2)))
        if best + runj < goal[G_RUN]:
            return True
        need += goal[G_RUN]
    if miss & GF_GROUP:
        need += goal[G_GROUP]
    return popcount(q1) + popcount(q2) + jok < need


@njit(cache=True)
def go_meld_flags(row, goal):
    """Contract flags a meld row earns."""
    if row[M_KIND] == MK_GROUP:
        n = popcount(row[M_P1]) + popcount(row[M_P2]) + row[M_JOKERS]
        return GF_GROUP if n == goal[G_GROUP] else 0
    return GF_RUN if row[M_HI] - row[M_LO] + 1 >= goal[G_RUN] else 0


@njit(cache=True)
def go_push(st, melds, d, goal):
    """Level d + 1 = level d's holding minus the meld melds[d]."""
    row = melds[d]
    q1, q2 = dd_remove_mask(st[d, S_Q1], st[d, S_Q2], row[M_P1])
    q1, q2 = dd_remove_mask(q1, q2, row[M_P2])
    st[d + 1, S_Q1] = q1
    st[d + 1, S_Q2] = q2
    st[d + 1, S_JOK] = st[d, S_JOK] - row[M_JOKERS]
    st[d + 1, S_FLAGS] = st[d, S_FLAGS] | go_meld_flags(row, goal)
    st[d + 1, S_K] = 0


@njit(cache=True)
def go_cover(p1, p2, jokers, goal, rules, st, melds):
    """Depth-first cover of the whole holding by melds including the contract melds of
    ``goal``: the number of melds (rows 0.. of ``melds``), -1 if none, GO_CAPPED after
    GO_NODE_CAP melds tried."""
    st[0, S_Q1] = p1
    st[0, S_Q2] = p2
    st[0, S_JOK] = jokers
    st[0, S_FLAGS] = 0
    st[0, S_K] = 0
    d = 0
    nodes = 0
    while d >= 0:
        nodes += 1
        if nodes > GO_NODE_CAP:
            return GO_CAPPED
        q1 = st[d, S_Q1]
        if q1 == 0:
            if st[d, S_JOK] == 0 and (st[d, S_FLAGS] & goal[G_REQ]) == goal[G_REQ]:
                return d
            d -= 1
            continue
        if st[d, S_K] == 0 and (d == MAX_GO_OUT_MELDS or go_hopeless(
                q1, st[d, S_Q2], st[d, S_JOK], st[d, S_FLAGS], goal, rules)):
            d -= 1
            continue
        k = go_next_meld(q1, st[d, S_Q2], st[d, S_JOK], lowbit(q1), st[d, S_K], rules,
                         melds[d])
        if k < 0:
            d -= 1
            continue
        st[d, S_K] = k + 1
        go_push(st, melds, d, goal)
        d += 1
    return -1


# go_cover_spare: the same search, but one card may be left over (the discard). At each
# level, after every meld through the lowest card c, the option GO_SPARE_OPT leaves c over;
# a single joker left at the end is the spare too. It only answers "can the holding go out,
# with or without a discard" (one search instead of one per candidate discard);
# go_out_partition asks it first and, when the answer is yes, still picks the preferred
# discard with go_cover, so results do not change.
GO_SPARE_OPT = GO_GROUP_OPTS + GO_RUN_OPTS


@njit(cache=True)
def go_hopeless_spare(q1, q2, jok, flags, goal, rules):
    """go_hopeless while a spare card is still free: one card without a meld is allowed."""
    if flags & GF_DISC:
        return go_hopeless(q1, q2, jok, flags, goal, rules)
    orphans = go_orphans(q1, q2, jok, rules)
    if orphans & q2 or orphans & (orphans - 1):
        return True
    return go_hopeless(q1 & ~orphans, q2, jok, flags, goal, rules)


@njit(cache=True)
def go_spare_row(row, c):
    """Meld row standing for 'card c is left over' (go_push removes it, earns no flag)."""
    row[:] = 0
    row[M_P1] = np.int64(1) << c


@njit(cache=True)
def go_done_spare(st, d, goal):
    """Level d has no naturals left: a cover, with at most one joker left over unspent?"""
    flags = st[d, S_FLAGS]
    spare = 0 if flags & GF_DISC else 1
    return st[d, S_JOK] <= spare and (flags & goal[G_REQ]) == goal[G_REQ]


@njit(cache=True)
def go_cover_spare(p1, p2, jokers, goal, rules, st, melds):
    """1 if the holding can be covered by melds including the contract melds of ``goal``
    with at most one card left over, 0 if not, GO_CAPPED after GO_NODE_CAP melds tried."""
    st[0, S_Q1], st[0, S_Q2], st[0, S_JOK], st[0, S_FLAGS], st[0, S_K] = p1, p2, jokers, 0, 0
    d = 0
    nodes = 0
    while d >= 0:
        nodes += 1
        if nodes > GO_NODE_CAP:
            return GO_CAPPED
        q1 = st[d, S_Q1]
        if q1 == 0:
            if go_done_spare(st, d, goal):
                return 1
            d -= 1
            continue
        if st[d, S_K] == 0 and (d == MAX_GO_OUT_MELDS or go_hopeless_spare(
                q1, st[d, S_Q2], st[d, S_JOK], st[d, S_FLAGS], goal, rules)):
            d -= 1
            continue
        k = -1
        if st[d, S_K] < GO_SPARE_OPT:
            k = go_next_meld(q1, st[d, S_Q2], st[d, S_JOK], lowbit(q1), st[d, S_K], rules, melds[d])
        if k < 0 and st[d, S_K] <= GO_SPARE_OPT and not st[d, S_FLAGS] & GF_DISC:
            k = GO_SPARE_OPT
            go_spare_row(melds[d], lowbit(q1))
        if k < 0:
            d -= 1
            continue
        st[d, S_K] = k + 1
        go_push(st, melds, d, goal)
        st[d + 1, S_FLAGS] |= GF_DISC if k == GO_SPARE_OPT else 0
        d += 1
    return 0


JOKER_ID = 52


@njit(cache=True)
def go_discard_order(p1, jokers, rules, order):
    """Distinct discard candidates into ``order``, highest penalty first (ties: lowest id;
    the joker is 52); returns how many."""
    n = 0
    m = p1
    while m:
        order[n] = lowbit(m)
        n += 1
        m &= m - 1
    if jokers > 0:
        order[n] = JOKER_ID
        n += 1
    for i in range(1, n):                      # insertion sort, stable on ascending ids
        c = order[i]
        pc = go_card_points(c, rules)
        j = i
        while j > 0 and go_card_points(order[j - 1], rules) < pc:
            order[j] = order[j - 1]
            j -= 1
        order[j] = c
    return n


@njit(cache=True)
def go_card_points(c, rules):
    return rules[R_JOKER_POINTS] if c == JOKER_ID else rules[R_POINTS + c % 13]


@njit(cache=True)
def go_goal(spec, rules):
    """(goal array, relaxed contracts table for the gate) of a contracts row: one plain
    exact group (if any) and the run, no joker limit."""
    goal = np.zeros(3, np.int64)
    gate = np.zeros((2, C_SIZE), np.int64)
    g = gate[1]
    g[C_JOKER_LIMIT] = -1
    if spec[C_GROUPS] >= 1:
        goal[G_REQ] |= GF_GROUP
        goal[G_GROUP] = spec[C_GROUP_SIZE]
        g[C_GROUPS] = 1
        g[C_GROUP_SIZE] = spec[C_GROUP_SIZE]
        g[C_GROUP_EXACT] = 1
    if spec[C_RUNS] != 0:
        goal[G_REQ] |= GF_RUN
        goal[G_RUN] = max(spec[C_RUN_MIN], rules[R_MIN_RUN])
        g[C_RUNS] = 1
        g[C_RUN_MIN] = spec[C_RUN_MIN]
    return goal, gate


@njit(cache=True)
def go_candidates(p1, p2, jokers, spec, rules, out, order, need_discard):
    """Gate + discard candidates in preference order (GO_OUT_NO_DISCARD first unless
    ``need_discard``) into ``order``; returns (how many, goal). 0 when the holding cannot go
    out."""
    goal, gate = go_goal(spec, rules)
    orphans = go_orphans(p1, p2, jokers, rules)
    if orphans & p2 or orphans & (orphans - 1):
        return 0, goal                          # two cards nothing can hold
    if not find_contract(p1, p2, jokers, 1, gate, rules, out[:MAX_CONTRACT_MELDS]):
        return 0, goal
    if orphans:
        order[0] = lowbit(orphans)              # the only card that can be left over
        return 1, goal
    if need_discard:
        return go_discard_order(p1, jokers, rules, order), goal
    order[0] = GO_OUT_NO_DISCARD
    return 1 + go_discard_order(p1, jokers, rules, order[1:]), goal


@njit(cache=True)
def go_out_partition(p1, p2, jokers, spec, rules, out, need_discard=False):
    """Hand 7 going out (§12.2) with the contract melds of ``spec`` (a contracts row): -1 if
    the holding cannot, else the discard (card id, 52 = joker, 53 = none; never 53 when
    ``need_discard``: option A24 final_discard_required), GO_CAPPED when a search hit its
    work cap; the melds go to ``out``. See the section comment above."""
    order = np.zeros(54, np.int64)
    m, goal = go_candidates(p1, p2, jokers, spec, rules, out, order, need_discard)
    out[:] = 0
    st = np.zeros((MAX_GO_OUT_MELDS + 1, S_SIZE), np.int64)
    melds = np.zeros((MAX_GO_OUT_MELDS + 1, M_SIZE), np.int64)
    if m > 1:
        spare = go_cover_spare(p1, p2, jokers, goal, rules, st, melds)
        if spare <= 0:
            return -1 if spare == 0 else GO_CAPPED  # neither all cards nor all but one
    for i in range(m):
        c = order[i]
        q1, q2, jok = p1, p2, jokers
        if c == JOKER_ID:
            jok -= 1
        elif c != GO_OUT_NO_DISCARD:
            q1, q2 = dd_remove_mask(p1, p2, np.int64(1) << c)
        n = go_cover(q1, q2, jok, goal, rules, st, melds)
        if n >= 0:
            out[:n] = melds[:n]
            return c
        if n == GO_CAPPED:
            return GO_CAPPED
    return -1


sep_go_out_partition = separate(go_out_partition, _I(_I, _I, _I, _V, _V, _MX, _B))
