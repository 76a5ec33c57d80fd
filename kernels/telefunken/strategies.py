"""Telefunken's built-in strategies (``choose``): random, the greedy family (greedy, chip_saver,
patient, planner, expert) and fuzz (the package docstring says what each does)."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import lowbit, popcount, rank_mask
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below
from cardsim.kernels.telefunken.layout import (
    F_BUY, F_GREEDY, F_HOLD,
    ASK, A_DISCARD, A_GO_DOWN, A_GO_OUT7, A_LAYOFF, A_MELD, A_RETRIEVE, A_SHIFT, BIG, CHIPS, CONTRACT, CUR,
    DEALER, DISCARD, DISCARDER, DOWN, EXK, H1, H2, HNO, JK, KN, KN_STRIDE, N, NMELDS, O_BUY_PENALTY,
    O_EXTRA_MELDS, O_HANDS, PHASE, PILE, PILE_LEN, P_ACT, P_BUY, P_CHOOSE, P_EXCHANGE, P_UPCARD, Q_ALT, Q_DENY,
    Q_DOWN_LEFT, Q_DOWN_TURN, Q_DUMP_AT, Q_DUMP_NEED, Q_EXCHANGE, Q_H7_GROWTH, Q_NEAR, Q_PER_HAND, Q_RESERVE,
    Q_RICH, Q_STALL, Q_WILD_ROOM, S_CHIP_SAVER, S_EXPERT, S_FUZZ, S_PATIENT, S_PLANNER, S_RANDOM, TURN, TW,
)
from cardsim.kernels.telefunken.actions import field
from cardsim.kernels.telefunken.rules import (
    can_grow, contract_cards, growth_hands_after, hand7_at_once, held, is_wild_two, may_buy, needs_growth,
    planner_like, priority_step, rules_of, spec_of, stuck_down, wilds,
)
from cardsim.kernels.telefunken.legal import contracts_of, hand_size, solve_row
from cardsim.kernels.telefunken.apply import meld_row


@njit(cache=True)
def group_need(p1, p2, jok, spec, rules, exact=False):
    """Cards still missing for the contract groups (a heuristic: wild cards fill up to
    R_GROUP_WILDS gaps per group; two groups from one rank need twice the size; three or
    four groups: the smallest gaps of as many ranks). Without ``exact`` (the greedy family,
    as built) the wild cards are capped per contract, not per group: with groups short by
    0 and 2 cards, two jokers count as closing both (one meld may hold only one); the
    expert (``exact``) caps them per group (``wild_use``)."""
    g = spec[M.C_GROUPS]
    if g == 0:
        return 0, jok
    size = spec[M.C_GROUP_SIZE]
    pure = spec[M.C_PURE] >= g
    nodup = rules[M.R_GROUP_DUPS] == 0          # a group takes one natural a suit (A3)
    d1 = BIG
    d2 = BIG
    same = BIG
    gaps = np.zeros(13, np.int64)
    for r in range(13):
        rm = rank_mask(r)
        both = popcount(p1 & rm) + popcount(p2 & rm)
        nat = popcount(p1 & rm) if pure or nodup else both
        d = max(0, size - nat)
        gaps[r] = d
        if d < d1:
            d2 = d1
            d1 = d
        elif d < d2:
            d2 = d
        same = min(same, max(0, 2 * size - (nat if pure else both)))
    if g <= 2:
        need = d1 if g == 1 else min(d1 + d2, same)
    else:
        need = np.sort(gaps)[:g].sum()
    if pure:
        return need, jok
    w = rules[M.R_GROUP_WILDS]
    if not exact:
        use = min(jok, g * w, need)
    elif g == 1:
        use = min(jok, w, d1)
    elif g == 2:
        use = min(jok, wild_use(d1, w) + wild_use(d2, w)) if d1 + d2 <= same else min(jok, 2 * w, same)
    else:
        use = 0
        for d in np.sort(gaps)[:g]:
            use += wild_use(d, w)
        use = min(jok, use)
    return need - use, jok - use


@njit(cache=True, inline='always')
def wild_use(gap, w):
    """Wild cards one group short of ``gap`` naturals can take (at most ``w`` a meld)."""
    return min(gap, w)


@njit(cache=True)
def run_need(p1, jok, spec, rules):
    """Cards still missing for the contract runs (the best window of the minimum length per
    suit; several runs: the best suits' windows)."""
    runs = spec[M.C_RUNS]
    if runs == 0:
        return 0
    ln = max(spec[M.C_RUN_MIN], rules[M.R_MIN_RUN])
    last_lo = M.gen_span(rules)[0]
    gaps = np.full(4, ln, np.int64)
    for s in range(4):
        pos = M.suit_positions_of(p1, s, rules)
        for lo in range(1, last_lo + 1):
            if M.pos_allowed(lo, lo + ln - 1, rules):
                gaps[s] = min(gaps[s], ln - popcount(pos & M.interval(lo, lo + ln - 1)))
    need = np.sort(gaps)[:runs].sum() + ln * max(0, runs - 4)
    return max(0, need - min(jok, runs * rules[M.R_RUN_WILDS]))


@njit(cache=True)
def contract_need(p1, p2, jok, spec, rules, exact=False):
    """Heuristic distance to the contract: cards still missing (``exact``: group_need's)."""
    g, left = group_need(p1, p2, jok, spec, rules, exact)
    return g + run_need(p1, left, spec, rules)


@njit(cache=True)
def hand_need(p1, p2, j, opts, k, exact=False):
    """contract_need of contract k: the nearest of its alternatives."""
    rules = rules_of(opts)
    need = BIG
    row = k
    while row:
        spec = spec_of(opts, row)
        need = min(need, contract_need(p1, p2, j, spec, rules, exact))
        row = spec[M.C_NEXT]
    return need


@njit(cache=True)
def h7_shape(st, opts):
    """This hand is laid at once and its contract is one run (and at most one group) that
    the Hand-7 heuristics below model: a run window plus a group beside it."""
    if not hand7_at_once(st, opts):
        return False
    spec = spec_of(opts, st[CONTRACT])
    return spec[M.C_NEXT] == 0 and spec[M.C_RUNS] == 1 and spec[M.C_GROUPS] <= 1 \
        and not M.needs_general(spec, rules_of(opts))


@njit(cache=True)
def need_with(st, opts, p, c, extra=0, exact=False):
    """The distance to this hand's contract of seat p's holding, with card c added when
    c >= 0 and ``extra`` unknown cards besides (a purchase's penalty cards; Hand 7 laid at
    once: h7_need, where every card held must be laid)."""
    p1, p2, j = st[H1 + p], st[H2 + p], wilds(st, p)
    if c == JK or (c >= 0 and is_wild_two(st, c)):
        j += 1
    elif c >= 0:
        b = np.int64(1) << c
        if p1 & b:
            p2 |= b
        else:
            p1 |= b
    rules = rules_of(opts)
    if h7_shape(st, opts):
        lay = hand_size(p1, p2, j) + extra
        return h7_need(p1, p2, j, rules, spec_of(opts, st[CONTRACT]), lay)
    return hand_need(p1, p2, j, opts, st[CONTRACT], exact)


# Hand 7 going out at once needs the whole holding in melds: with 12 cards after the draw,
# a group of 3 and a run of 8 (and a discard); every purchase makes the melds two cards
# bigger. The greedy family picks a target: the suit and window (of the run length the
# holding needs, at least the contract's) holding most of its cards, and keeps a group
# beside it.
H7_GROUP = 3


@njit(cache=True)
def h7_window(spec, lay):
    """Run length of the Hand-7 target when ``lay`` cards must be laid."""
    return min(13, max(spec[M.C_RUN_MIN], lay - h7_group(spec), 3))


@njit(cache=True, inline='always')
def h7_group(spec):
    return spec[M.C_GROUP_SIZE] if spec[M.C_GROUPS] else H7_GROUP


@njit(cache=True)
def h7_target(p1, rules, ln):
    """(suit, window mask, positions held in it) of the best ``ln``-window of a suit."""
    best_s, best_w, best_k = 0, np.int64(0), -1
    for s in range(4):
        pos = M.suit_positions(p1, s)
        for lo in range(1, 16 - ln):
            w = M.interval(lo, lo + ln - 1)
            k = popcount(pos & w)
            if k > best_k and M.pos_allowed(lo, lo + ln - 1, rules):
                best_s, best_w, best_k = s, w, k
    return best_s, best_w, best_k


@njit(cache=True)
def in_window(c, s, w):
    return c // 13 == s and (M.suit_positions(np.int64(1) << c, s) & w) != 0


@njit(cache=True)
def h7_need(p1, p2, jok, rules, spec, lay):
    """Cards missing to lay ``lay`` cards as a run in the target window plus a group beside
    it (at most one joker each; what neither holds counts as missing)."""
    ln = h7_window(spec, lay)
    gs = h7_group(spec)
    s, w, k = h7_target(p1, rules, ln)
    run = M.pos_to_ranks(w) << (13 * s)
    grp = 0
    for r in range(13):
        rm = rank_mask(r)
        grp = max(grp, popcount(p1 & rm & ~run) + popcount(p2 & rm))
    need = max(0, ln - k) + max(0, gs - grp) + max(0, lay - ln - gs)
    return max(0, need - min(jok, 2))


@njit(cache=True)
def run_shape(spec, rules):
    """Contract row ``spec`` is one run and at most one group (target_keep models it)."""
    return spec[M.C_RUNS] == 1 and spec[M.C_GROUPS] <= 1 and not M.needs_general(spec, rules)


@njit(cache=True)
def target_keep(st, p, c, rules, spec, ln, gw):
    """Keep score of card c towards a run of ``ln`` in the target window (the suit and
    window holding most of the run) and a group beside it: the target run first, then
    groups (up to the group's size, weight ``gw``), then neighbours."""
    p1, p2 = st[H1 + p], st[H2 + p]
    s, w, k = h7_target(p1, rules, ln)
    b = np.int64(1) << c
    if in_window(c, s, w) and (p2 & b) == 0:
        return 1000 - rules[M.R_POINTS + c % 13]
    rm = rank_mask(c % 13)
    run = M.pos_to_ranks(w) << (13 * s)
    grp = popcount(p1 & rm & ~run) + popcount(p2 & rm)
    cs = c // 13
    near = popcount(M.suit_positions(p1, cs) & near_mask(M.suit_positions(b, cs) & -M.suit_positions(b, cs)))
    return 100 * (gw * min(grp, h7_group(spec)) + near) - rules[M.R_POINTS + c % 13]


@njit(cache=True)
def nearest_spec(st, opts, p, exact=False):
    """The contracts row of this hand's contract (of its alternatives, the one seat p's
    holding is nearest to)."""
    row = st[CONTRACT]
    if spec_of(opts, row)[M.C_NEXT] == 0:
        return row
    rules = rules_of(opts)
    best, need = row, BIG
    while row:
        spec = spec_of(opts, row)
        d = contract_need(st[H1 + p], st[H2 + p], wilds(st, p), spec, rules, exact)
        if d < need:
            best, need = row, d
        row = spec[M.C_NEXT]
    return best


@njit(cache=True)
def wants(st, opts, p, c, sid, prm):
    """Seat p (greedy family) takes / buys card c. A purchase counts its penalty cards: in a
    hand laid at once they must be laid too. A seat already down never buys (its contract
    is laid; a purchase only adds a card to lay off and a penalty card)."""
    buying = st[PHASE] == P_BUY
    ex = sid == S_EXPERT
    if buying and planner_like(sid) and prm[Q_DENY] >= 0 and st[CHIPS + p] > prm[Q_DENY] \
            and (c == JK or is_wild_two(st, c) or collected_after(st, opts, p, c)):
        return True                                 # deny the next seats a wild card, or a card they collect
    if buying and st[DOWN + p]:
        return False
    before = need_with(st, opts, p, -1, 0, ex)
    extra = opts[O_BUY_PENALTY]                     # the bought card's own place: need_with
    if planner_like(sid) and prm[Q_H7_GROWTH] >= 0:
        extra = int(prm[Q_H7_GROWTH]) - 1
    after = need_with(st, opts, p, c, extra if buying else -1, ex)   # taken instead of the draw
    grow = buying and rules_of(opts)[M.R_GROUP_DUPS] == 0 and needs_growth(opts, st[CONTRACT])
    if after > before or (after == before and not (grow and stuck_down(st, opts, p))):
        return False                                # (a hand won only by a purchase: grow)
    if not buying:
        return True
    keep = 0 if grow else growth_hands_after(st, opts)
    if keep > 0 and st[CHIPS + p] <= keep:
        return False                                # a chip kept for each such hand to come
    late = st[HNO] == opts[O_HANDS] or grow
    if sid == S_CHIP_SAVER:
        return late or st[CHIPS + p] > prm[Q_RESERVE]
    if sid == S_PATIENT:
        return after <= prm[Q_NEAR] and (late or st[CHIPS + p] > prm[Q_RESERVE])
    if planner_like(sid):
        to_go = opts[O_HANDS] - st[HNO]             # hands after this one
        return after <= prm[Q_NEAR] and (late or st[CHIPS + p] > prm[Q_RESERVE] + prm[Q_PER_HAND] * to_go)
    return True


@njit(cache=True)
def collects(st, opts, q, c):
    """Seat q is publicly collecting natural c: it holds a copy every seat saw it take (KN,
    from the discard pile) of c's rank when this hand's contract has groups, or of c's suit
    within two ranks of it when it has runs."""
    spec = spec_of(opts, st[CONTRACT])
    base = KN + KN_STRIDE * q
    for x in range(52):
        if st[base + x] > 0:
            if spec[M.C_GROUPS] > 0 and x % 13 == c % 13:
                return True
            if spec[M.C_RUNS] > 0 and x // 13 == c // 13 and abs(x % 13 - c % 13) <= 2:
                return True
    return False


@njit(cache=True)
def collected_after(st, opts, p, c):
    """A seat asked after p in this buy window (may buy, by priority) is publicly collecting
    natural c (``collects``): buying c denies it to that seat (the planner's ``deny``)."""
    if c == JK or is_wild_two(st, c):
        return False
    n = st[N]
    for k in range(priority_step(st, p) + 1, n + 1):
        q = (st[DISCARDER] + k) % n
        if q != p and may_buy(st, opts, q) and collects(st, opts, q, c):
            return True
    return False


@njit(cache=True)
def joker_room(st, opts, p):
    """Wild cards seat p can still use: down, one for an extra meld while it holds more than
    two cards (the greedy family lays off at once every wild card the table takes; with no
    extra melds, or two cards left, a wild card nobody's meld took is shed); in a hand laid at once, one for the run and
    one for the group; otherwise one per contract meld that admits one (capped by the
    contract's joker limit; the best alternative) and one more for an extra meld after going
    down."""
    if st[DOWN + p]:
        return 1 if opts[O_EXTRA_MELDS] and held(st, p) > 2 else 0
    if h7_shape(st, opts):
        return 2
    rules = rules_of(opts)
    room = 0
    row = st[CONTRACT]
    while row:
        spec = spec_of(opts, row)
        r = (spec[M.C_GROUPS] - min(spec[M.C_PURE], spec[M.C_GROUPS])) * rules[M.R_GROUP_WILDS] \
            + spec[M.C_RUNS] * rules[M.R_RUN_WILDS]
        if spec[M.C_JOKER_LIMIT] >= 0:
            r = min(r, spec[M.C_JOKER_LIMIT])
        room = max(room, r)
        row = spec[M.C_NEXT]
    if opts[O_EXTRA_MELDS] and not hand7_at_once(st, opts) and \
            (rules[M.R_GROUP_DUPS] or held(st, p) + 1 - contract_cards(opts, st[CONTRACT]) >= 4):
        room += 1                                   # (no identical cards: only if an extra meld fits)
    return room


@njit(cache=True)
def near_mask(q):
    """Positions within two of run position q, q excluded."""
    return M.interval(max(q - 2, 1), min(q + 2, 14)) & ~(np.int64(1) << q)


@njit(cache=True)
def keep_score(st, opts, p, c, exact=False, room=0):
    """How much seat p wants to keep card c (low = discard first; ties go to the card
    with the higher penalty). Wild cards are kept while the melds can take them
    (joker_room; the expert ``room`` more while not down), a surplus one goes first.
    Copies of a rank count up to what the contract's groups take (runs-only contract: an
    extra group of 3 after going down)."""
    rules = rules_of(opts)
    if c == JK or is_wild_two(st, c):
        if wilds(st, p) <= joker_room(st, opts, p) + (room if st[DOWN + p] == 0 else 0):
            return BIG
        return -rules[M.R_JOKER_POINTS] if c == JK else -rules[M.R_POINTS + c % 13]
    row = nearest_spec(st, opts, p, exact)
    spec = spec_of(opts, row)
    if st[DOWN + p] == 0 and run_shape(spec, rules):
        ln = h7_window(spec, held(st, p) - 1) if hand7_at_once(st, opts) else spec[M.C_RUN_MIN]
        gw = 2 if spec[M.C_GROUPS] or opts[O_EXTRA_MELDS] else 0
        return target_keep(st, p, c, rules, spec, ln, gw)
    r = c % 13
    s = c // 13
    rm = rank_mask(r)
    nat = popcount(st[H1 + p] & rm) + popcount(st[H2 + p] & rm)
    pos = M.suit_positions(st[H1 + p], s)
    cp = M.suit_positions(np.int64(1) << c, s)
    near = 0
    while cp:
        q = lowbit(cp)
        cp &= cp - 1
        near += popcount(pos & near_mask(q))
    wg, wr = 2, 2
    if st[DOWN + p] == 0:
        if rules[M.R_GROUP_DUPS] == 0 and st[H2 + p] & (np.int64(1) << c):
            return -100 * wg - rules[M.R_POINTS + r]    # a second copy: no group takes it (A3), nor a run
        if spec[M.C_GROUPS] == 0:
            wg, wr = 1, 3
            nat = min(nat, 3 if opts[O_EXTRA_MELDS] else 1)
        else:
            nat = min(nat, (spec[M.C_GROUPS] if spec[M.C_GROUP_EXACT] == 0 or not hand7_at_once(st, opts)
                            else 1) * spec[M.C_GROUP_SIZE])
            if spec[M.C_RUNS]:
                wg, wr = 2, 3
            else:
                wg, wr = 4, 1
    return 100 * (wg * (nat - 1) + wr * near) - rules[M.R_POINTS + r]


@njit(cache=True)
def best_discard(st, opts, acts, n, kind, exact=False, room=0):
    """Index of the action of ``kind`` whose card has the lowest keep score."""
    best = -1
    score = BIG + 1
    for i in range(n):
        if acts[i] & 15 == kind:
            k = keep_score(st, opts, st[CUR], field(acts[i], 1), exact, room)
            if k < score:
                score = k
                best = i
    return best


ACT_ORDER = (A_GO_OUT7, A_GO_DOWN, A_SHIFT, A_RETRIEVE, A_MELD, A_LAYOFF)


@njit(cache=True)
def pick_go_down(st, opts, mo, acts, n, pref):
    """Among go-down actions of alternative contracts (Peru 2's last hand), the one the
    strategy takes: ``pref`` = 0 the one laying the most points (ties: the first), k > 0 the
    k-th alternative when held (else the most points); -1 when there is none."""
    best, gain, k = -1, -1, 0
    p = st[CUR]
    for i in range(n):
        if acts[i] & 15 != A_GO_DOWN:
            continue
        alt = field(acts[i], 3)
        if alt == 0:
            return i
        k += 1
        if k == pref:
            return i
        g = solve_row(st[H1 + p], st[H2 + p], wilds(st, p), contracts_of(opts), st[CONTRACT], alt,
                      rules_of(opts), mo, False)
        if g > gain:
            best, gain = i, g
    return best


# A hand still running after STALL_TURNS turns is usually a standoff: every seat keeps the
# cards another needs (all chasing one suit, no chips left; or each holding one of the two
# jokers its contract needs). From then on the greedy family breaks it: a seat still two or
# more cards from its contract makes one discard in STALL_ODDS a uniformly random non-wild
# card (the seats nearest to it play on); after twice as many turns every seat does, wild
# cards included, except in a hand laid at once (no seat needs a wild card there, and
# scrambling the seats nearest to going out kept 0.1 % of Hand 7s at the turn cap). A hand
# won only by a purchase (needs_growth) has its own breaker (growth_breaker).
STALL_TURNS = 300
STALL_ODDS = 3


@njit(cache=True)
def greedy_act(st, opts, mo, acts, n, stall, pref, gplay, exact=False, dump_at=0, dump_need=0, room=0,
               rich=False):
    """Go out / go down / joker operations / melds / lay-offs first, then discard (after
    ``stall`` turns of the hand, sometimes a random card: STALL_TURNS; the expert sheds
    points when the hand is lost: ``sheds``, and with ``rich`` lays the extra meld that
    lays the most points first: ``richest_meld``)."""
    for kind in ACT_ORDER:
        if kind == A_GO_DOWN:
            i = pick_go_down(st, opts, mo, acts, n, pref)
            if i >= 0:
                return i
            continue
        if kind == A_MELD and rich:
            i = richest_meld(st, opts, acts, n)
            if i >= 0:
                return i
            continue
        for i in range(n):
            if acts[i] & 15 == kind:
                return i
    if dump_at > 0 and sheds(st, opts, dump_at, dump_need, exact):
        i = costliest_discard(st, opts, acts, n, exact)
        if i >= 0:
            return i
    if stall > 0 and st[TURN] >= stall:
        if needs_growth(opts, st[CONTRACT]):
            return growth_breaker(st, opts, acts, n, stall, gplay, exact, room)
        late = st[TURN] >= 2 * stall and not hand7_at_once(st, opts)    # wild cards too
        if (late or need_with(st, opts, st[CUR], -1, 0, exact) > 1) and below(gplay, STALL_ODDS) == 0:
            i = random_discard(st, acts, n, gplay, late)
            if i >= 0:
                return i
    return best_discard(st, opts, acts, n, A_DISCARD, exact, room)


@njit(cache=True)
def richest_meld(st, opts, acts, n):
    """Index of the extra meld (A_MELD) that lays the most penalty points (its naturals and
    wild cards; ties: the first), -1 when there is none. The greedy family lays the first
    one found, which often spends a joker on a pair of twos beside a pair of kings."""
    rules = rules_of(opts)
    p = st[CUR]
    row = np.zeros(TW, np.int64)
    best, most = -1, -1
    for i in range(n):
        if acts[i] & 15 == A_MELD:
            meld_row(st, p, acts[i], row, rules)
            v = M.penalty_rules(row[M.M_P1], row[M.M_P2], row[M.M_JOKERS], rules)
            if v > most:
                best, most = i, v
    return best


@njit(cache=True)
def sheds(st, opts, dump_at, dump_need, exact):
    """The expert's hand is lost and it sheds points: another seat is down holding at most
    ``dump_at`` cards (it may go out any turn) while this seat is not down and still misses
    at least ``dump_need`` cards of its contract. Never in a hand laid at once (no seat is
    down there)."""
    p = st[CUR]
    if st[DOWN + p]:
        return False
    for q in range(st[N]):                          # the cheap test first: need_with is not
        if q != p and st[DOWN + q] and held(st, q) <= dump_at:
            return need_with(st, opts, p, -1, 0, exact) >= dump_need
    return False


@njit(cache=True)
def card_points(st, opts, c):
    """Penalty points of card c held at the end of the hand (a wild two: the 2's points)."""
    return M.go_card_points(c, rules_of(opts))


@njit(cache=True)
def costliest_discard(st, opts, acts, n, exact):
    """Index of the discard of the card with the most penalty points (ties: the lowest keep
    score); -1 when there is none."""
    best, pts, keep = -1, -1, BIG + 1
    for i in range(n):
        if acts[i] & 15 == A_DISCARD:
            c = field(acts[i], 1)
            v = card_points(st, opts, c)
            if v < pts:
                continue
            k = keep_score(st, opts, st[CUR], c, exact)   # (only to break a tie, or the next one)
            if v > pts or k < keep:
                best, pts, keep = i, v, k
    return best


@njit(cache=True)
def stall_leader(st, stall):
    """The seat not down that a hand won only by a purchase leaves its wild cards to after
    ``stall`` turns: the first not down after the dealer, then the next one every ``stall``
    turns (all of it public). -1 when every seat is down."""
    n = st[N]
    k = 0
    for i in range(n):
        if st[DOWN + (st[DEALER] + 1 + i) % n] == 0:
            k += 1
    if k == 0:
        return -1
    pick = ((st[TURN] - stall) // stall) % k
    for i in range(n):
        q = (st[DEALER] + 1 + i) % n
        if st[DOWN + q] == 0:
            if pick == 0:
                return q
            pick -= 1
    return -1


@njit(cache=True)
def growth_breaker(st, opts, acts, n, stall, gplay, exact=False, room=0):
    """The standoff breaker of a hand won only by a purchase (``needs_growth``; its contract
    needs two wild cards a seat, the deck has four, and once the chips are spent each seat
    often holds one and waits for another's). The leader (``stall_leader``) plays on; every
    other seat discards its wild cards, one a turn, and otherwise one time in STALL_ODDS a
    random natural, so the leader can complete its contract from the stock."""
    p = st[CUR]
    if p != stall_leader(st, stall):
        for i in range(n):
            c = field(acts[i], 1)
            if acts[i] & 15 == A_DISCARD and (c == JK or is_wild_two(st, c)):
                return i
        if below(gplay, STALL_ODDS) == 0:
            i = random_discard(st, acts, n, gplay, True)
            if i >= 0:
                return i
    return best_discard(st, opts, acts, n, A_DISCARD, exact, room)


@njit(cache=True, inline='always')
def discard_of(st, x, wilds):
    """Action x discards a card (a wild card only when ``wilds``)."""
    c = field(x, 1)
    return x & 15 == A_DISCARD and (wilds or (c != JK and not is_wild_two(st, c)))


@njit(cache=True)
def random_discard(st, acts, n, gplay, wilds):
    """Index of a uniformly random discard among acts[:n] (of a wild card too when ``wilds``),
    -1 when there is none (then nothing is drawn)."""
    k = 0
    for i in range(n):
        if discard_of(st, acts[i], wilds):
            k += 1
    if k == 0:
        return -1
    pick = below(gplay, k)
    for i in range(n):
        if discard_of(st, acts[i], wilds):
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True)
def greedy_exchange(st, opts, acts, n, most, exact=False, room=0):
    """Pass up to ``most`` (greedy: four) lone cards (no other natural of the rank), least
    useful first."""
    p = st[CUR]
    if st[EXK + p] < most:
        best = -1
        score = BIG
        for i in range(n - 1):
            c = field(acts[i], 1)
            if c != JK and not is_wild_two(st, c) and popcount(st[H1 + p] & rank_mask(c % 13)) \
                    + popcount(st[H2 + p] & rank_mask(c % 13)) == 1:
                k = keep_score(st, opts, p, c, exact, room)
                if k < score:
                    score = k
                    best = i
        if best >= 0:
            return best
    return n - 1


@njit(cache=True)
def choose(st, opts, tab, sc, mo, acts, n, sid, prm, gplay):
    """Index of the chosen action among acts[:n] (strategy ``sid``, parameters ``prm``)."""
    if sid == S_RANDOM:
        return below(gplay, n)
    ph = st[PHASE]
    if sid == S_FUZZ:
        if ph == P_BUY:
            return 0 if below(gplay, 100) < prm[F_BUY] else 1
        if below(gplay, 100) >= prm[F_GREEDY]:
            if ph == P_ACT and below(gplay, 100) < prm[F_HOLD]:
                i = random_discard(st, acts, n, gplay, True)   # lay nothing: one of the discards
                if i >= 0:
                    return i
            return below(gplay, n)
    if ph == P_BUY:
        return 0 if wants(st, opts, st[ASK], st[DISCARD], sid, prm) else 1
    if ph == P_UPCARD:
        top = st[PILE + st[PILE_LEN] - 1]
        if st[DOWN + st[CUR]]:
            return 0 if layable(st, opts, tab, sc, top) else 1
        return 0 if wants(st, opts, st[CUR], top, sid, prm) else 1
    ex = sid == S_EXPERT
    if ph == P_EXCHANGE:
        return greedy_exchange(st, opts, acts, n, int(prm[Q_EXCHANGE]) if planner_like(sid) else 4, ex,
                               int(prm[Q_WILD_ROOM]) if ex else 0)
    if ph == P_CHOOSE:
        return greedy_choose(st, opts, acts, n, ex)
    if waits_to_grow(st, opts) or (planner_like(sid) and holds_back(st, opts, prm)):
        k = 0
        for i in range(n):
            if acts[i] & 15 != A_GO_DOWN:
                acts[k] = acts[i]
                k += 1
        n = k
    if ex:
        return greedy_act(st, opts, mo, acts, n, int(prm[Q_STALL]), int(prm[Q_ALT]), gplay, True,
                          int(prm[Q_DUMP_AT]), int(prm[Q_DUMP_NEED]), int(prm[Q_WILD_ROOM]), prm[Q_RICH] > 0)
    if sid == S_PLANNER:
        return greedy_act(st, opts, mo, acts, n, int(prm[Q_STALL]), int(prm[Q_ALT]), gplay)
    return greedy_act(st, opts, mo, acts, n, STALL_TURNS, 0, gplay)


@njit(cache=True)
def waits_to_grow(st, opts):
    """In a hand won only by a purchase (``needs_growth``) the greedy family does not go down
    while going down would leave it stuck (``stuck_down``) and it can still buy: it waits to
    grow its holding into one that goes down and out."""
    p = st[CUR]
    return rules_of(opts)[M.R_GROUP_DUPS] == 0 and st[DOWN + p] == 0 and needs_growth(opts, st[CONTRACT]) \
        and can_grow(st, opts, p) and stuck_down(st, opts, p, True)


@njit(cache=True)
def holds_back(st, opts, prm):
    """The planner does not go down yet: more than Q_DOWN_LEFT cards would stay in hand
    (the contract counted at its sizes, runs at their minimum) and the hand is younger than
    Q_DOWN_TURN turns. Never in a hand laid at once (going down is going out)."""
    p = st[CUR]
    if st[DOWN + p] or hand7_at_once(st, opts) or st[TURN] >= prm[Q_DOWN_TURN]:
        return False
    return held(st, p) - contract_cards(opts, st[CONTRACT]) > prm[Q_DOWN_LEFT]


@njit(cache=True)
def layable(st, opts, tab, sc, c):
    """Card c could be laid off onto a table meld now (a down player's reason to take a
    discard under take_discard)."""
    wild = c == JK or is_wild_two(st, c)
    p1 = np.int64(0) if wild else np.int64(1) << c
    return M.layoffs(p1, np.int64(0), 1 if wild else 0, tab, st[NMELDS], rules_of(opts), sc) > 0


@njit(cache=True)
def greedy_choose(st, opts, acts, n, exact=False):
    """The dealer picks the unused contract its holding is nearest to (ties: the lowest)."""
    p = st[CUR]
    best, score = 0, BIG
    for i in range(n):
        need = hand_need(st[H1 + p], st[H2 + p], wilds(st, p), opts, field(acts[i], 1), exact)
        if need < score:
            best, score = i, need
    return best
