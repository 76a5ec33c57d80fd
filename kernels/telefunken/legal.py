"""Telefunken's table actions: the candidates (go down, extra melds, lay-offs, joker operations,
going out at once) and the legal actions of a state (``legal_actions``)."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import lowbit, popcount, rank_mask
from cardsim.kernels.jit import njit
from cardsim.kernels.telefunken.layout import (
    A_BUY, A_CHOOSE, A_DISCARD, A_DRAW, A_EX_CARD, A_EX_DONE, A_GO_DOWN, A_GO_OUT7, A_LAYOFF, A_MELD, A_PASS,
    A_RETRIEVE, A_SHIFT, A_TAKE_UPCARD, A_TAKE_WILD, CAPPED, CONTRACT, CONTRACT_ROWS, CUR, C_STRIDE, DOWN,
    DOWN_TURN, H1, H2, HJ, HT, JK, JOKER_DUE, MAX_ACTIONS_PER_TURN, NMELDS, O_CONTRACTS, O_EXCHANGE_MODEL,
    O_EXTRA_MELDS, O_EXTRA_RUNS, O_FINAL_DISCARD, O_HANDS, O_JOKER_PRIOR, O_OWN_JOKER_OPS, O_OWN_NEW, O_RUN_TAKE,
    O_SIZE, PHASE, P_ACT, P_BUY, P_CHOOSE, P_EXCHANGE, P_OPEN, P_UPCARD, RUN_FILL, TABLE_ACTS, TAKEN, TURN,
    T_CONTRACT, T_OWNER, T_TURN, USED,
)
from cardsim.kernels.telefunken.actions import act, field
from cardsim.kernels.telefunken.rules import hand7_at_once, held, rules_of, spec_of, table_cards, wilds


# =============================================================================
# table actions (§9, §10, §12): candidates
# =============================================================================
@njit(cache=True)
def group_cards(st, p, r, rules):
    """The naturals of rank r in seat p's holding that one group can take: all of them, or
    one per suit when groups may not hold identical cards (A3)."""
    rm = rank_mask(r)
    return st[H1 + p] & rm, st[H2 + p] & rm if rules[M.R_GROUP_DUPS] else np.int64(0)


@njit(cache=True)
def add_group_melds(st, p, rules, acts, n):
    """Extra groups: every natural of a rank held, with 0, 1, .. wild cards (up to
    melds.wild_cap); the wild trío where the rules allow it."""
    w = wilds(st, p)
    for r in range(13):
        g1, g2 = group_cards(st, p, r, rules)
        k = popcount(g1) + popcount(g2)
        if k < 1:
            continue
        for j in range(min(w, M.wild_cap(M.MK_GROUP, k, rules)) + 1):
            if k + j >= rules[M.R_MIN_GROUP]:
                acts[n] = act(A_MELD, M.MK_GROUP, r, j, 0, 0)
                n += 1
    if rules[M.R_WILD_TRIO] and w >= 3:
        acts[n] = act(A_MELD, M.MK_GROUP, M.WILD_TRIO_RANK, 3, 0, 0)
        n += 1
    return n


@njit(cache=True)
def emit_run(rules, s, lo, hi, jp, acts, n):
    if lo < 1 or hi - lo + 1 < rules[M.R_MIN_RUN] or not M.pos_allowed(lo, hi, rules):
        return n
    acts[n] = act(A_MELD, M.MK_RUN, s, lo, hi, jp)
    return n + 1


@njit(cache=True)
def add_run_melds(st, p, rules, acts, n):
    """Extra runs per suit: each maximal segment of held positions (a 14-position one as
    A-K and 2-A); with a joker, two segments joined over a one-position gap, or a segment
    of two or more extended by the joker at either end. Runs that may take several wild
    cards or wrap: add_wild_run_melds."""
    if rules[M.R_RUN_WILDS] > 1 or rules[M.R_WRAP]:
        return add_wild_run_melds(st, p, rules, acts, n)
    joker = wilds(st, p) > 0 and rules[M.R_RUN_WILDS] > 0
    for s in range(4):
        pos = M.suit_positions(st[H1 + p], s)
        lo = 1
        while lo <= 14:
            if not (pos >> lo) & 1:
                lo += 1
                continue
            hi = lo
            while hi < 14 and (pos >> (hi + 1)) & 1:
                hi += 1
            if hi - lo == 13:
                n = emit_run(rules, s, 1, 13, 0, acts, n)
                n = emit_run(rules, s, 2, 14, 0, acts, n)
            else:
                n = emit_run(rules, s, lo, hi, 0, acts, n)
            if joker and hi - lo + 1 <= 12:
                n = emit_run(rules, s, lo - 1, hi, lo - 1, acts, n)
                n = emit_run(rules, s, lo, hi + 1, hi + 1, acts, n)
                if hi + 2 <= 14 and (pos >> (hi + 2)) & 1:
                    top = hi + 2
                    while top < 14 and (pos >> (top + 1)) & 1:
                        top += 1
                    n = emit_run(rules, s, lo, top, hi + 1, acts, n)
            lo = hi + 1
    return n


@njit(cache=True)
def add_wild_run_melds(st, p, rules, acts, n):
    """Extra runs when runs take several wild cards or wrap: from each start of a segment
    of held positions, the segment itself and the longest run that wild cards on the
    missing positions make (melds.wild_cap, the wild cards held, the ace / wrap rules)."""
    w = wilds(st, p)
    last_lo, last_hi = M.gen_span(rules)
    for s in range(4):
        pos = M.suit_positions_of(st[H1 + p], s, rules)
        for lo in range(1, last_lo + 1):
            if not (pos >> lo) & 1 or (lo > 1 and (pos >> (lo - 1)) & 1):
                continue
            seg, best = 0, 0
            for hi in range(lo, min(last_hi, lo + 12) + 1):
                iv = M.interval(lo, hi)
                miss = popcount(iv & ~pos)
                if miss == 0:
                    seg = hi
                if miss <= min(w, M.wild_cap(M.MK_RUN, popcount(iv & pos), rules)) and M.pos_allowed(lo, hi, rules):
                    best = hi
            n = emit_run(rules, s, lo, seg, 0, acts, n) if seg else n
            if best > seg:
                n = emit_run(rules, s, lo, best, RUN_FILL, acts, n)
    return n


@njit(cache=True)
def lays_wild(x):
    """An A_MELD action lays a wild card."""
    if field(x, 1) == M.MK_GROUP:
        return field(x, 3) > 0
    return field(x, 5) != 0


@njit(cache=True)
def meld_size(st, p, x, rules):
    """Cards an A_MELD action lays."""
    if field(x, 1) == M.MK_GROUP:
        if field(x, 2) == M.WILD_TRIO_RANK:
            return 3
        g1, g2 = group_cards(st, p, field(x, 2), rules)
        return popcount(g1) + popcount(g2) + field(x, 3)
    return field(x, 4) - field(x, 3) + 1


@njit(cache=True)
def own_new_ok(st, opts, p, i, tab):
    """Seat p may add to table meld i now: not one it laid this turn, unless
    first_meld_turn_layoff_own allows (A13)."""
    if tab[i, T_OWNER] != p or tab[i, T_TURN] != st[TURN]:
        return True
    rule = opts[O_OWN_NEW]
    return rule == 2 or (rule == 1 and tab[i, T_CONTRACT] == 0)


@njit(cache=True)
def joker_ops_ok(st, opts, p, i, tab):
    """§10 operations on meld i are open to seat p now (A12, A38, A39)."""
    if opts[O_EXCHANGE_MODEL] != 0:
        return False
    if opts[O_JOKER_PRIOR] and st[DOWN_TURN + p] == st[TURN]:
        return False
    if tab[i, T_OWNER] == p and opts[O_OWN_JOKER_OPS] == 0:
        return False
    return own_new_ok(st, opts, p, i, tab)


@njit(cache=True)
def add_layoffs(st, opts, p, tab, rules, sc, acts, n, joker_only, last_ok):
    """Lay-offs onto melds seat p may add to (§9.2-9.4); a wild card's lay-off is offered
    for each kind of wild card held (the joker, the two of each suit)."""
    k = M.layoffs(st[H1 + p], st[H2 + p], wilds(st, p), tab, st[NMELDS], rules, sc)
    for i in range(k):
        c = sc[i, 0]
        if (joker_only and c != JK) or not own_new_ok(st, opts, p, sc[i, 1], tab):
            continue
        if not (last_ok or held(st, p) > 1):
            continue
        if c == JK:
            n = add_wild_choices(st, p, A_LAYOFF, sc[i, 1], sc[i, 2], acts, n)
        else:
            acts[n] = act(A_LAYOFF, c, sc[i, 1], sc[i, 2], 0, 0)
            n += 1
    return n


@njit(cache=True)
def add_wild_choices(st, p, kind, b, c, acts, n):
    """One action (kind, wild card, b, c) per kind of wild card seat p holds: the joker,
    then the twos by suit."""
    if st[HJ + p] > 0:
        acts[n] = act(kind, JK, b, c, 0, 0)
        n += 1
    for s in range(4):
        if (st[HT + p] >> (2 * s)) & 3:
            acts[n] = act(kind, s * 13 + 1, b, c, 0, 0)
            n += 1
    return n


@njit(cache=True)
def add_joker_ops(st, opts, p, tab, rules, sc, acts, n, last_ok):
    """Joker shifts and group-joker retrievals (§10)."""
    if opts[O_EXCHANGE_MODEL] != 0 or (opts[O_JOKER_PRIOR] and st[DOWN_TURN + p] == st[TURN]):
        return n
    k = M.joker_shifts(st[H1 + p], st[H2 + p], wilds(st, p), tab, st[NMELDS], rules, sc)
    for i in range(k):
        if joker_ops_ok(st, opts, p, sc[i, 1], tab) and (last_ok or held(st, p) > 1):
            acts[n] = act(A_SHIFT, sc[i, 0], sc[i, 1], sc[i, 2], 0, 0)
            n += 1
    k = M.joker_retrievals(st[H1 + p], st[H2 + p], wilds(st, p), tab, st[NMELDS], rules, sc)
    for i in range(k):
        if joker_ops_ok(st, opts, p, sc[i, 0], tab):
            acts[n] = act(A_RETRIEVE, sc[i, 0], sc[i, 1], sc[i, 2] + 1, 0, 0)
            n += 1
    if opts[O_RUN_TAKE]:
        k = M.joker_takes(st[H1 + p], tab, st[NMELDS], rules, sc)
        for i in range(k):
            if joker_ops_ok(st, opts, p, sc[i, 1], tab):
                acts[n] = act(A_TAKE_WILD, sc[i, 0], sc[i, 1], 0, 0, 0)
                n += 1
    return n


@njit(cache=True)
def add_discards(st, p, acts, n):
    m = st[H1 + p]
    while m:
        acts[n] = act(A_DISCARD, lowbit(m), 0, 0, 0, 0)
        n += 1
        m &= m - 1
    return add_wild_choices(st, p, A_DISCARD, 0, 0, acts, n)


@njit(cache=True)
def turn_discards(st, p, acts, n):
    """Step C's discards: every card held but the kind just taken from the pile under
    take_discard (a pass otherwise), unless nothing else is left."""
    m = add_discards(st, p, acts, n)
    if st[TAKEN] < 0:
        return m
    k = n
    for i in range(n, m):
        if field(acts[i], 1) != st[TAKEN]:
            acts[k] = acts[i]
            k += 1
    return k if k > n else m


@njit(cache=True, inline='always')
def contracts_of(opts):
    return opts[O_CONTRACTS:O_SIZE].reshape((CONTRACT_ROWS, C_STRIDE))


@njit(cache=True)
def exchange_holding(st, p, tab, i, c):
    """Seat p's holding after giving c to meld i for its joker: (p1, p2, jokers)."""
    q1, q2 = M.dd_remove_mask(st[H1 + p], st[H2 + p], np.int64(1) << c)
    return q1, q2, wilds(st, p) + 1


@njit(cache=True)
def joker_card(tab, i, c):
    """Natural c can take the place of a joker of table meld i (Ecuador exchange)."""
    row = tab[i]
    if row[M.M_JOKERS] == 0:
        return False
    if row[M.M_KIND] == M.MK_GROUP:
        return c % 13 == row[M.M_KEY]
    if c // 13 != row[M.M_KEY]:
        return False
    jm = row[M.M_JPOS]
    while jm:
        if M.pos_rank(lowbit(jm)) == c % 13:
            return True
        jm &= jm - 1
    return False


@njit(cache=True)
def add_exchange_downs(st, opts, p, tab, mo, acts, n):
    """Ecuador (A39): go down using a joker taken from another player's contract meld. Only
    offered when the holding cannot go down without it; then every way to go down with the
    exchanged holding uses a joker, as the rule requires."""
    for i in range(st[NMELDS]):
        if tab[i, T_OWNER] == p or tab[i, T_CONTRACT] == 0 or tab[i, M.M_JOKERS] == 0:
            continue
        m = st[H1 + p]
        while m:
            c = lowbit(m)
            m &= m - 1
            if not joker_card(tab, i, c):
                continue
            q1, q2, qj = exchange_holding(st, p, tab, i, c)
            if contract_melds(q1, q2, qj, st[CONTRACT], opts, mo, True):
                acts[n] = act(A_GO_DOWN, i + 1, c, 0, 0, 0)
                n += 1
    return n


@njit(cache=True)
def go_out(p1, p2, jokers, opts, mo):
    """The last hand laid in one go (Hand 7, §12): the discard of going out (melds in
    ``mo``; 52 = a wild card, 53 = none), -1 when the holding cannot; with
    final_discard_required (A24) always a card. The Hand-7 partition solver takes extra
    melds beside the contract (§12.2); without extra melds (allow_extra_melds false), or
    under rules it does not cover, the contract alone must take the cards (melds.gen_go_out,
    any alternative of the contract)."""
    k = opts[O_HANDS]
    rules = rules_of(opts)
    need = opts[O_FINAL_DISCARD] != 0
    spec = spec_of(opts, k)
    if opts[O_EXTRA_MELDS] and spec[M.C_NEXT] == 0 and not M.needs_general(spec, rules) \
            and rules[M.R_MAX_JOKERS] <= 1:
        return M.sep_go_out_partition(p1, p2, jokers, spec, rules, mo, need)
    return M.sep_gen_go_out(p1, p2, jokers, contracts_of(opts), k, rules, mo, need)


@njit(cache=True)
def solve_row(p1, p2, jok, contracts, h, alt, rules, mo, stop_first):
    """Points laid by the best way to go down in hand h (alt = 0: any of its alternatives;
    alt > 0: that contracts row alone), -1 when the holding lacks it."""
    if alt > 0:
        return M.sep_solve_contract(p1, p2, jok, contracts[alt], rules, mo, stop_first)
    return M.sep_solve_hand(p1, p2, jok, contracts, h, rules, mo, stop_first)


@njit(cache=True)
def contract_melds(p1, p2, jok, h, opts, mo, stop_first, alt=0):
    """The melds of going down in hand h into ``mo`` (``alt`` > 0: with that alternative
    contract row): the most points laid (or the first way found); False when the holding
    lacks the contract. With final_discard_required (A24) the
    melds keep a card back for the discard: when the best way lays every card, the best way
    without each card in turn is taken instead."""
    contracts = contracts_of(opts)
    rules = rules_of(opts)
    gain = solve_row(p1, p2, jok, contracts, h, alt, rules, mo, stop_first)
    if gain < 0 or opts[O_FINAL_DISCARD] == 0 or table_cards(mo, len(mo)) < hand_size(p1, p2, jok):
        return gain >= 0
    best, keep = -1, -1
    m = p1 | (np.int64(1) << JK if jok > 0 else np.int64(0))
    while m:
        c = lowbit(m)
        m &= m - 1
        q1, q2, qj = without(p1, p2, jok, c)
        g = solve_row(q1, q2, qj, contracts, h, alt, rules, mo, stop_first)
        if g > best:
            best, keep = g, c
            if stop_first:
                return True
    if best < 0:
        return False
    q1, q2, qj = without(p1, p2, jok, keep)
    solve_row(q1, q2, qj, contracts, h, alt, rules, mo, stop_first)
    return True


@njit(cache=True, inline='always')
def hand_size(p1, p2, jok):
    return popcount(p1) + popcount(p2) + jok


@njit(cache=True)
def without(p1, p2, jok, c):
    """The holding (p1, p2, jokers) less one card c (52 = a joker)."""
    if c == JK:
        return p1, p2, jok - 1
    q1, q2 = M.dd_remove_mask(p1, p2, np.int64(1) << c)
    return q1, q2, jok


@njit(cache=True)
def legal_not_down(st, opts, tab, mo, acts):
    """Step B/C of a player who has not gone down: go down / go out in Hand 7, discard."""
    p = st[CUR]
    n = 0
    if st[TABLE_ACTS] == 0:
        if hand7_at_once(st, opts):
            d = go_out(st[H1 + p], st[H2 + p], wilds(st, p), opts, mo)
            if d >= 0:
                acts[n] = act(A_GO_OUT7, 0, 0, 0, 0, 0)
                n += 1
            elif d == M.GO_CAPPED:
                st[CAPPED] += 1
        else:
            h = st[CONTRACT]
            row = spec_of(opts, h)[M.C_NEXT]
            if row:                                 # alternatives: one go-down per contract held
                alt = h
                while alt:
                    if contract_melds(st[H1 + p], st[H2 + p], wilds(st, p), h, opts, mo, True, alt):
                        acts[n] = act(A_GO_DOWN, 0, 0, alt, 0, 0)
                        n += 1
                    alt = spec_of(opts, alt)[M.C_NEXT]
            elif contract_melds(st[H1 + p], st[H2 + p], wilds(st, p), h, opts, mo, True):
                acts[n] = act(A_GO_DOWN, 0, 0, 0, 0, 0)
                n += 1
            elif opts[O_EXCHANGE_MODEL] == 1:
                n = add_exchange_downs(st, opts, p, tab, mo, acts, n)
    return turn_discards(st, p, acts, n)


@njit(cache=True)
def legal_down(st, opts, tab, sc, acts):
    """Step B/C of a player who is down: extra melds, lay-offs, joker operations, discard."""
    p = st[CUR]
    rules = rules_of(opts)
    last_ok = opts[O_FINAL_DISCARD] == 0
    n = 0
    if st[TABLE_ACTS] < MAX_ACTIONS_PER_TURN:
        due = st[JOKER_DUE] > 0
        if opts[O_EXTRA_MELDS]:
            k = add_group_melds(st, p, rules, acts, 0)
            if opts[O_EXTRA_RUNS]:
                k = add_run_melds(st, p, rules, acts, k)
            for i in range(k):
                x = acts[i]
                big = meld_size(st, p, x, rules)
                if (last_ok or big < held(st, p)) and (lays_wild(x) or not due):
                    acts[n] = x
                    n += 1
        n = add_layoffs(st, opts, p, tab, rules, sc, acts, n, due, last_ok)
        if not due:
            n = add_joker_ops(st, opts, p, tab, rules, sc, acts, n, last_ok)
        if due and n > 0:
            return n
    return turn_discards(st, p, acts, n)


@njit(cache=True)
def legal_actions(st, opts, tab, sc, mo, acts):
    """Legal actions of the seat to act (CUR, or ASK in the buy window)."""
    ph = st[PHASE]
    if ph == P_BUY:
        acts[0] = act(A_BUY, 0, 0, 0, 0, 0)
        acts[1] = act(A_PASS, 0, 0, 0, 0, 0)
        return 2
    if ph == P_UPCARD:
        acts[0] = act(A_TAKE_UPCARD, 0, 0, 0, 0, 0)
        acts[1] = act(A_DRAW, 0, 0, 0, 0, 0)
        return 2
    if ph == P_EXCHANGE:
        n = add_discards(st, st[CUR], acts, 0)
        for i in range(n):
            acts[i] = act(A_EX_CARD, field(acts[i], 1), 0, 0, 0, 0)
        acts[n] = act(A_EX_DONE, 0, 0, 0, 0, 0)
        return n + 1
    if ph == P_OPEN:
        return add_discards(st, st[CUR], acts, 0)
    if ph == P_CHOOSE:
        n = 0
        for k in range(1, opts[O_HANDS] + 1):
            if not (st[USED] >> k) & 1:
                acts[n] = act(A_CHOOSE, k, 0, 0, 0, 0)
                n += 1
        return n
    if ph == P_ACT:
        if st[DOWN + st[CUR]]:
            return legal_down(st, opts, tab, sc, acts)
        return legal_not_down(st, opts, tab, mo, acts)
    return 0
