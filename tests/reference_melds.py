"""Slow, obviously-correct Python reference for ``kernels/melds.py`` (tests only).

Telefunken rules (docs/rules/telefunken.md §2-4, §9.4, §10). A holding is a
``collections.Counter`` of card ids (0..51, ``JK`` = 52 for jokers). Everything is brute
force: candidate melds are enumerated card by card and checked with the validity functions
below; contracts try every combination of candidates.
"""
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement, product

JK = 52
MAX_JOKERS = 1
MIN_GROUP = 3
MIN_RUN = 3
MAX_RUN = 13


def rank(c):
    return c % 13


def suit(c):
    return c // 13


def points(c):
    """§2: 2-9 face value, 10/J/Q/K 10, A 11, JK 15."""
    if c == JK:
        return 15
    r = rank(c)
    if r == 0:
        return 11
    return r + 1 if r <= 8 else 10


def holding_points(hold):
    return sum(points(c) * n for c, n in hold.items())


def pos_rank(p):
    """Run position 1..14 -> rank (1 and 14 are both the ace)."""
    return (p - 1) % 13


# ---- validity --------------------------------------------------------------------
def valid_group(naturals, jokers, dups=True):
    """>= 1 natural, all of one rank, <= 1 joker, >= 3 cards; duplicates allowed when
    ``dups`` (rules option A3), else no card twice."""
    return (len(naturals) >= 1 and len({rank(c) for c in naturals}) == 1
            and 0 <= jokers <= MAX_JOKERS and len(naturals) + jokers >= MIN_GROUP
            and (dups or len(set(naturals)) == len(naturals)))


def is_pure_trio(naturals, jokers):
    return jokers == 0 and len(naturals) == 3 and len({rank(c) for c in naturals}) == 1 \
        and len({suit(c) for c in naturals}) == 3


def valid_run_layout(layout, min_len=MIN_RUN):
    """``layout``: {position: card or JK}. One suit, each natural at its own rank's
    position, contiguous, 1 <= lo, hi <= 14, length min_len..13, <= 1 joker."""
    if not layout:
        return False
    ps = sorted(layout)
    if ps != list(range(ps[0], ps[-1] + 1)):
        return False
    if ps[0] < 1 or ps[-1] > 14 or not (min_len <= len(ps) <= MAX_RUN):
        return False
    nats = [(p, c) for p, c in layout.items() if c != JK]
    if not nats or len(layout) - len(nats) > MAX_JOKERS:
        return False
    if len({suit(c) for _, c in nats}) != 1:
        return False
    if len({c for _, c in nats}) != len(nats):
        return False
    return all(pos_rank(p) == rank(c) for p, c in nats)


def valid_run(naturals, joker_positions, min_len=MIN_RUN):
    """Some placement of the naturals (an ace at 1 or 14) with the jokers at the given
    positions is a valid run."""
    choices = []
    for c in naturals:
        r = rank(c)
        choices.append([1, 14] if r == 0 else [r + 1])

    def place(i, layout):
        if i == len(naturals):
            return valid_run_layout(layout, min_len)
        for p in choices[i]:
            if p not in layout:
                layout[p] = naturals[i]
                if place(i + 1, layout):
                    return True
                del layout[p]
        return False
    start = {}
    for p in joker_positions:
        if p in start:
            return False
        start[p] = JK
    return place(0, start)


# ---- candidate melds from a holding ----------------------------------------------
def fits(hold, cards):
    need = Counter(cards)
    return all(hold[c] >= n for c, n in need.items())


def candidate_groups(hold, size, exact=True, pure=False, dups=True):
    """Every distinct group (as a sorted card tuple, jokers as JK) the holding can lay."""
    out = set()
    for r in range(13):
        copies = []
        for s in range(4):
            copies += [s * 13 + r] * hold[s * 13 + r]
        for j in range((0 if pure else min(MAX_JOKERS, hold[JK])) + 1):
            sizes = [size - j] if exact else range(size - j, len(copies) + 1)
            for k in sizes:
                for nat in combinations(copies, k):
                    if pure and not is_pure_trio(list(nat), j):
                        continue
                    if valid_group(list(nat), j, dups):
                        out.add(tuple(sorted(nat)) + (JK,) * j)
    return sorted(out)


def candidate_runs(hold, min_len):
    out = set()
    for s in range(4):
        held = {p for p in range(1, 15) if hold[s * 13 + pos_rank(p)]}
        for lo in range(1, 15):
            for hi in range(lo + min_len - 1, 15):
                if len(set(range(lo, hi + 1)) - held) > MAX_JOKERS:
                    continue            # one joker per missing card would be too many
                for jp in [None] + list(range(lo, hi + 1)):
                    layout = {p: (JK if p == jp else s * 13 + pos_rank(p))
                              for p in range(lo, hi + 1)}
                    cards = list(layout.values())
                    if fits(hold, cards) and valid_run_layout(layout, min_len):
                        out.add(tuple(sorted(cards)))
    return sorted(out)


CONTRACTS = {1: [("pure", 3)], 2: [("group", 3)] * 2, 3: [("group", 4)],
             4: [("group", 4)] * 2, 5: [("group", 5)], 6: [("group", 5)] * 2,
             7: [("group", 3), ("run", 7)]}


def spec_of(entry):
    """A ``kernels.melds.make_contracts`` entry [(kind, size, pure), ...] -> this module's
    spec: pure tríos first, then the other groups, then the run."""
    groups = [("pure" if pure else "group", n) for kind, n, pure in entry if kind == "group"]
    runs = [("run", n) for kind, n, _ in entry if kind == "run"]
    return sorted(groups, key=lambda g: g[0] != "pure") + runs


def meld_rank(meld):
    return rank(next(c for c in meld if c != JK))


def contract_options(hold, hand, spec=None, joker_limit=None, distinct=False, dups=True):
    """Every way (tuple of melds) to lay the contract of ``hand`` (or the given ``spec``:
    melds ("pure", 3), ("group", n) exactly n, ("group+", n) at least n, ("run", n) at
    least n, in the order the kernel writes them) from ``hold``, with at most
    ``joker_limit`` jokers in all (None: no limit) and, when ``distinct``, groups of
    different ranks; ``dups``: see valid_group."""
    spec = spec or CONTRACTS[hand]
    cands = []
    for kind, n in spec:
        if kind == "pure":
            cands.append(candidate_groups(hold, n, pure=True))
        elif kind == "group":
            cands.append(candidate_groups(hold, n, dups=dups))
        elif kind == "group+":
            cands.append(candidate_groups(hold, n, exact=False, dups=dups))
        else:
            cands.append(candidate_runs(hold, n))
    if len(spec) >= 2 and spec[0] == spec[1]:           # one order of twin groups
        combos = ((a, b) + rest for a, b in combinations_with_replacement(cands[0], 2)
                  for rest in product(*cands[2:]))
    else:
        combos = product(*cands)
    out = []
    for melds in combos:
        if not fits(hold, sum(melds, ())):
            continue
        if joker_limit is not None and sum(m.count(JK) for m in melds) > joker_limit:
            continue
        ranks = [meld_rank(m) for m, (kind, _) in zip(melds, spec) if kind != "run"]
        if distinct and len(set(ranks)) < len(ranks):
            continue
        out.append(melds)
    return out


def best_contract(hold, hand, spec=None, joker_limit=None, distinct=False, dups=True):
    """(contract held?, least penalty left after laying it or None)."""
    total = holding_points(hold)
    best = None
    for melds in contract_options(hold, hand, spec, joker_limit, distinct, dups):
        left = total - sum(points(c) for m in melds for c in m)
        if best is None or left < best:
            best = left
    return best is not None, best


# ---- table melds, lay-offs and joker operations ------------------------------------
# A table group: {"kind": "group", "cards": [naturals], "jokers": n, "pure": bool,
#                 "closed": bool}
# A table run:   {"kind": "run", "layout": {position: card or JK}}
def layoffs(hold, table, dups=True):
    """Set of (card, meld index, position; 0 for a group) single-card lay-offs (§9.4)."""
    out = set()
    for card in [c for c in hold if hold[c] > 0]:
        for i, m in enumerate(table):
            if m["kind"] == "group":
                if m["closed"]:
                    continue
                if card == JK:
                    if not m["pure"] and valid_group(m["cards"], m["jokers"] + 1):
                        out.add((card, i, 0))
                    continue
                if m["pure"]:
                    # only the missing fourth suit, which closes it
                    if rank(card) == rank(m["cards"][0]) and \
                            suit(card) not in {suit(c) for c in m["cards"]}:
                        out.add((card, i, 0))
                elif valid_group(m["cards"] + [card], m["jokers"], dups):
                    out.add((card, i, 0))
            else:
                for p in range(1, 15):
                    if p in m["layout"] or (card != JK and pos_rank(p) != rank(card)):
                        continue
                    new = dict(m["layout"])
                    new[p] = card
                    if valid_run_layout(new):
                        out.add((card, i, p))
    return out


def joker_shifts(hold, table):
    """Set of (card, meld, new joker position): §10.2."""
    out = set()
    for i, m in enumerate(table):
        if m["kind"] != "run":
            continue
        ps = sorted(m["layout"])
        for jp in (ps[0], ps[-1]):
            if m["layout"][jp] != JK:
                continue
            card = next(c for c in m["layout"].values() if c != JK) // 13 * 13 + pos_rank(jp)
            if hold[card] == 0:
                continue
            for p in range(1, 15):
                if p in m["layout"]:
                    continue
                new = dict(m["layout"])
                new[jp] = card
                new[p] = JK
                if valid_run_layout(new):
                    out.add((card, i, p))
    return out


def joker_retrievals(hold, table, dups=True):
    """Set of (meld, card_a, card_b), card_a <= card_b: §10.1 with two cards; the group
    must stay valid (``dups``: see valid_group)."""
    out = set()
    for i, m in enumerate(table):
        if m["kind"] != "group" or m["jokers"] == 0 or m["pure"]:
            continue
        r = rank(m["cards"][0])
        copies = []
        for s in range(4):
            copies += [s * 13 + r] * hold[s * 13 + r]
        for a, b in combinations(copies, 2):
            if valid_group(m["cards"] + [a, b], m["jokers"] - 1, dups):
                out.add((i, min(a, b), max(a, b)))
    return out


# ---- Hand 7: going out in one turn (§12.2) -----------------------------------------
GO_OUT_NO_DISCARD = 53


def go_out_discards(hold, group_size=3, run_min=7, dups=True):
    """Every way to go out in Hand 7 (§12.2): the set of discards that work (a card id, JK
    for a joker, GO_OUT_NO_DISCARD when the whole holding can be laid).

    The laid cards must split exactly into valid melds (groups and runs of 3+, at most one
    joker each) including a group of exactly ``group_size`` (None: no group needed) and a
    run of ``run_min`` or more (None: no run needed); ``dups``: see valid_group. Brute
    force: the meld
    through the lowest natural card left is tried every possible way (from every meld the
    full holding could lay), memoised on (cards left, contract melds laid so far)."""
    melds = [(m, "group") for m in candidate_groups(hold, MIN_GROUP, exact=False, dups=dups)]
    melds += [(m, "run") for m in candidate_runs(hold, MIN_RUN)]

    @cache
    def covers(left, have_group3, have_run7):
        rest = Counter(dict(left))
        naturals = sorted(c for c in rest if c != JK)
        if not naturals:
            return rest[JK] == 0 and have_group3 and have_run7
        for meld, kind in melds:
            if naturals[0] in meld and fits(rest, meld):
                g3 = have_group3 or (kind == "group" and len(meld) == group_size)
                r7 = have_run7 or (kind == "run" and run_min is not None
                                   and len(meld) >= run_min)
                if covers(key(rest - Counter(meld)), g3, r7):
                    return True
        return False

    def key(counter):
        return tuple(sorted((+counter).items()))

    out = set()
    start = (group_size is None, run_min is None)
    if covers(key(Counter(hold)), *start):
        out.add(GO_OUT_NO_DISCARD)
    for c in [c for c in hold if hold[c] > 0]:
        rest = Counter(hold)
        rest[c] -= 1
        if covers(key(rest), *start):
            out.add(c)
    return out


def planes(cards):
    """Card ids (52 = joker) -> the kernels' (p1, p2, jokers) representation."""
    p1 = p2 = j = 0
    for c in cards:
        if c == JK:
            j += 1
        elif p1 >> c & 1:
            assert not p2 >> c & 1, "three copies"
            p2 |= 1 << c
        else:
            p1 |= 1 << c
    return p1, p2, j


# =============================================================================
# Contract Rummy (contract_rummy.md §4, §6, §8, §9): floating jokers, any number per meld,
# at least one natural, runs of 4..14 (the ace at both ends only in the 14-card run), sets
# of 3+, exact-minimum or larger first melds, no touching same-suit runs. Reference for
# kernels/melds_float.py. A meld is (kind, key, naturals Counter, jokers, windows): windows
# are every (lo, hi) placement of a run, found by trying them all.
# =============================================================================
def cr_points(c, joker_points=15):
    """§3: 2-10 face, J/Q/K 10, A 15, JK 15 (MAY_I 25)."""
    if c == JK:
        return joker_points
    r = rank(c)
    if r == 0:
        return 15
    return r + 1 if r <= 9 else 10


def cr_run_windows(naturals, jokers, max_run=14):
    """Every window (lo, hi) in which the naturals (one suit) and ``jokers`` jokers form a run:
    each natural at a distinct position of its rank (the ace at 1 or 14), jokers filling the
    rest; length 4..max_run."""
    length = len(naturals) + jokers
    out = []
    if length < 4 or length > max_run or not naturals:
        return out
    for lo in range(1, 15 - length + 1):
        hi = lo + length - 1
        free = set(range(lo, hi + 1))
        ok = True
        aces = 0
        for c in naturals:
            if rank(c) == 0:
                aces += 1
                continue
            p = rank(c) + 1
            if p not in free:
                ok = False
                break
            free.discard(p)
        if not ok:
            continue
        ends = [p for p in (1, 14) if p in free]
        if aces > len(ends):
            continue
        out.append((lo, hi))
    return out


def cr_valid_run(naturals, jokers, max_run=14):
    return len({suit(c) for c in naturals}) == 1 and bool(cr_run_windows(naturals, jokers, max_run))


def cr_valid_set(naturals, jokers):
    return len(naturals) >= 1 and len({rank(c) for c in naturals}) == 1 and len(naturals) + jokers >= 3


def _sub_multisets(items):
    """items: [(card, copies)] -> every sub-multiset as a list of cards."""
    ranges = [range(n + 1) for _, n in items]
    for pick in product(*ranges):
        yield [c for (c, _), k in zip(items, pick) for _ in range(k)]


def cr_candidates(hold, exact):
    """Every set and run the holding can lay: (kind, key, cards tuple, jokers, windows)."""
    J = hold[JK]
    sets, runs = [], []
    for r in range(13):
        items = [(s * 13 + r, hold[s * 13 + r]) for s in range(4) if hold[s * 13 + r]]
        for nat in _sub_multisets(items):
            for j in range(J + 1):
                if cr_valid_set(nat, j) and (len(nat) + j == 3 if exact else True):
                    sets.append(("set", r, tuple(nat), j, None))
    for s in range(4):
        items = [(s * 13 + r, min(hold[s * 13 + r], 2 if r == 0 else 1)) for r in range(13)
                 if hold[s * 13 + r]]
        for nat in _sub_multisets(items):
            for j in range(J + 1):
                if exact and len(nat) + j != 4:
                    continue
                w = cr_run_windows(nat, j)
                if w and nat:
                    runs.append(("run", s, tuple(nat), j, w))
    return sets, runs


def _touch_free(runs):
    """Some choice of windows leaves no two same-suit runs touching (§9)."""
    for choice in product(*[m[4] for m in runs]):
        bad = False
        for i in range(len(runs)):
            for k in range(i + 1, len(runs)):
                if runs[i][1] == runs[k][1]:
                    (a, b), (c, d) = choice[i], choice[k]
                    if b + 1 == c or d + 1 == a:
                        bad = True
        if not bad:
            return True
    return False


def cr_best_contract(hold, n_sets, n_runs, exact=True, all_cards=False, no_touch=True):
    """Best contract meld: max 32 * natural points laid - jokers laid, or -1 if none.
    ``all_cards``: every card of the holding is laid (jokers beyond the runs' windows may
    only go onto a set: in a run they would lengthen it, which the windows already cover).

    Every choice of ``n_runs`` runs and ``n_sets`` sets (as multisets of candidates) is
    tried, with one plain cut: a branch stops when even laying every unused natural could
    not beat the best found, and with ``all_cards`` the first full cover is the answer
    (every full cover is worth the same)."""
    hold = Counter(hold)
    sets, runs = cr_candidates(hold, exact)
    total_cards = sum(hold.values())
    all_points = 32 * sum(cr_points(c) * k for c, k in hold.items() if c != JK)
    best = [-1]

    def need(meld):
        return tuple(Counter(meld[2]).items()) + ((JK, meld[3]),)

    needs = {id(m): need(m) for m in sets + runs}

    def rec(start, chosen, used, value):
        if best[0] >= 0 and all_cards:
            return
        if value + all_points - 32 * sum(cr_points(c) * k for c, k in used.items() if c != JK) <= best[0]:
            return
        if len(chosen) == n_runs + n_sets:
            if no_touch and not _touch_free([m for m in chosen if m[0] == "run"]):
                return
            if all_cards and sum(used.values()) != total_cards:
                return
            best[0] = max(best[0], value)
            return
        runs_done = sum(m[0] == "run" for m in chosen)
        pool, lo = (runs, start) if runs_done < n_runs else (sets, start if chosen and chosen[-1][0] == "set" else 0)
        for i in range(lo, len(pool)):
            m = pool[i]
            if all(used[c] + k <= hold[c] for c, k in needs[id(m)]):
                used2 = used.copy()
                for c, k in needs[id(m)]:
                    used2[c] += k
                gain = 32 * sum(cr_points(c) for c in m[2]) - m[3]
                rec(i, chosen + [m], used2, value + gain)

    rec(0, [], Counter({JK: 0}), 0)
    return best[0]
