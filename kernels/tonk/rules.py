"""Tonk's rules: small helpers, the deal, the turn flow and the settlements, the legal actions,
applying an action, and the check mode (see the package docstring for the rules and the options).

Every kernel on the per-action path is ``inline='always'``; once-a-deal kernels (dealing,
settlement, the check mode) are separate functions.
"""
import numpy as np

from cardsim.kernels.cards import (
    ACES,
    FULL_DECK,
    SUIT_PLANE,
    bit,
    lowbit,
    popcount,
    rank_mask,
    ranks_present,
    run_neighbours,
)
from cardsim.kernels.jit import njit, trace_put
from cardsim.kernels.rng import STREAM_RUN, shuffle, stream_key
from cardsim.kernels.tonk.actions import (
    action_card,
    action_cards,
    action_kind,
    action_on_run,
    action_owner,
    discard_action,
    hit_action,
    lay_action,
)
from cardsim.kernels.tonk.layout import (
    A_DRAW_DISCARD,
    A_DRAW_STOCK,
    A_END_DRY,
    A_HIT,
    A_KNOCK,
    A_LAY,
    BLOCKED,
    BOOK,
    COUNT,
    CUR,
    DEALER,
    DECK,
    DRY_TURNS,
    E_BOUND,
    E_CAP,
    E_CARDS,
    E_HAND_SIZE,
    E_SPREAD,
    E_ZERO_SUM,
    HAND,
    HITS,
    KNOCKER,
    KNOWN,
    MAX_PLAYERS,
    MAX_REDEALS,
    N,
    NEW_SPREAD,
    O_ACES_EXC,
    O_CAUGHT_BONUS,
    O_CAUGHT_PAYS_BASE,
    O_DRY_CAP,
    O_DRY_TIE,
    O_DT49,
    O_DT50,
    O_FIRST_DEALER,
    O_HIT_BLOCKS,
    O_HIT_OWN_ONLY,
    O_INITIAL_UPCARD,
    O_MAX_HITS,
    O_MAX_TURNS,
    O_MUST_SPREAD,
    O_PICKUP_USE,
    O_PLAYERS,
    O_REDISCARD,
    O_STAKE,
    O_TIE_SAME_DEALER,
    O_TONK_NEW_SPREAD,
    P_MELD,
    P_OVER,
    P_START,
    PAY,
    PHASE,
    PILE,
    PILE_LEN,
    PILE_MASK,
    R_DEAL_TONK,
    R_DRY,
    R_HIT_OUT,
    R_KNOCK_CAUGHT,
    R_KNOCK_WON,
    R_OUT,
    R_TONK_OUT,
    R_TURN_CAP,
    R_VOID,
    REASON,
    REDEALS,
    RUN,
    ST_SIZE,
    STOCK_PTR,
    T_ACTION,
    T_DEAL,
    T_END,
    T_UPCARD,
    T_VOID,
    TAKEN,
    TR_LEN,
    TRUNC,
    TURNS,
    WINNER,
)


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, 0, 0)


# Bit j of a card's point value (A = 1 ... 10, J Q K = 10), as card masks: the count of a
# hand is sum_j 2**j * popcount(hand & VALUE_BIT_j) (same as mask_points with POINTS_TEN_CAP).
VALUE_BIT_0 = 0b0000101010101 * ACES      # ranks A 3 5 7 9 (values 1 3 5 7 9)
VALUE_BIT_1 = 0b1111001100110 * ACES      # ranks 2 3 6 7 10 J Q K
VALUE_BIT_2 = 0b0000001111000 * ACES      # ranks 4 5 6 7
VALUE_BIT_3 = 0b1111110000000 * ACES      # ranks 8 9 10 J Q K


@njit(cache=True)
def hand_count(hand):
    """Point count of a hand (A = 1, 2..10 face value, J Q K = 10)."""
    return (popcount(hand & VALUE_BIT_0) + 2 * popcount(hand & VALUE_BIT_1)
            + 4 * popcount(hand & VALUE_BIT_2) + 8 * popcount(hand & VALUE_BIT_3))


@njit(cache=True, inline='always')
def stock_empty(st):
    return st[STOCK_PTR] >= 52


@njit(cache=True, inline='always')
def pile_top(st):
    return st[PILE + st[PILE_LEN] - 1] if st[PILE_LEN] > 0 else -1


@njit(cache=True)
def pay(st, payer, receiver, amount):
    st[PAY + payer] -= amount
    st[PAY + receiver] += amount


@njit(cache=True)
def has_run(plane13):
    """A suit plane holds three consecutive ranks."""
    return (plane13 & (plane13 >> 1) & (plane13 >> 2)) != 0


@njit(cache=True)
def has_spread(hand, aces_exempt):
    """The hand holds a book or a run (aces-only books ignored when exempt)."""
    for s in range(4):
        if has_run((hand >> (13 * s)) & 0x1FFF):
            return True
    for r in range(1 if aces_exempt else 0, 13):
        if popcount(hand & rank_mask(r)) >= 3:
            return True
    return False


@njit(cache=True, inline='always')
def run_length_through(plane13, r):
    """Length of the consecutive run of set ranks in a suit plane that contains rank r."""
    lo = r
    while lo > 0 and (plane13 >> (lo - 1)) & 1:
        lo -= 1
    hi = r
    while hi < 12 and (plane13 >> (hi + 1)) & 1:
        hi += 1
    return hi - lo + 1


@njit(cache=True, inline='always')
def forms_spread(hand, card):
    """``card`` makes a book or a run together with cards of ``hand``."""
    h = hand | bit(card)
    if popcount(h & rank_mask(card % 13)) >= 3:
        return True
    s = card // 13
    return run_length_through((h >> (13 * s)) & 0x1FFF, card % 13) >= 3


@njit(cache=True, inline='always')
def hit_owners_allowed(st, opts, cur, o):
    return opts[O_HIT_OWN_ONLY] == 0 or o == cur


@njit(cache=True, inline='always')
def can_hit(st, opts, cur, card):
    """``card`` can be hit onto some spread ``cur`` may hit now."""
    if opts[O_MAX_HITS] >= 0 and st[HITS] >= opts[O_MAX_HITS]:
        return False
    b = bit(card)
    for o in range(st[N]):
        if hit_owners_allowed(st, opts, cur, o):
            if popcount(st[BOOK + o] & rank_mask(card % 13)) == 3:
                return True
            if run_neighbours(st[RUN + o]) & b:
                return True
    return False


@njit(cache=True, inline='always')
def usable_now(st, opts, cur, card):
    """``card`` could be laid in a spread with the hand, or hit, this turn."""
    return forms_spread(st[HAND + cur], card) or can_hit(st, opts, cur, card)


# =============================================================================
# the deal
# =============================================================================
@njit(cache=True)
def new_state(opts):
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[N] = opts[O_PLAYERS]
    return st


@njit(cache=True)
def reset_hand(st):
    """Clear everything a hand writes; keep N and DEALER."""
    for i in range(CUR, DECK):
        st[i] = 0
    for p in range(MAX_PLAYERS):
        st[KNOWN + p] = 0
    st[TAKEN] = -1
    st[REASON] = -1
    st[KNOCKER] = -1
    st[WINNER] = -1


@njit(cache=True)
def deal_cards(st, opts, gen, trace):
    """Shuffle, deal five cards each from the dealer's left, turn the upcard."""
    for i in range(52):
        st[DECK + i] = i
    shuffle(gen, st, DECK, DECK + 52)
    deal_from_deck(st, opts, trace)


@njit(cache=True)
def deal_from_deck(st, opts, trace):
    """Deal five cards each from the dealer's left off the deck in ``DECK`` (as it lies) and
    turn the upcard (the OpenSpiel bridge sets the deck card by card)."""
    n = st[N]
    for p in range(MAX_PLAYERS):
        st[HAND + p] = 0
    for i in range(5 * n):
        seat = (st[DEALER] + 1 + i) % n
        st[HAND + seat] |= bit(st[DECK + i])
    st[STOCK_PTR] = 5 * n
    st[PILE_LEN] = 0
    st[PILE_MASK] = 0
    if opts[O_INITIAL_UPCARD]:
        push_pile(st, st[DECK + 5 * n])
        st[STOCK_PTR] += 1
    for p in range(n):
        log(st, trace, T_DEAL, p, st[HAND + p], 0)
    if st[PILE_LEN]:
        log(st, trace, T_UPCARD, -1, pile_top(st), 0)


@njit(cache=True)
def deal_tonk_holders(st, opts):
    """Number of hands totalling a deal-tonk (49/50 per options) and the last such seat."""
    holders = 0
    who = -1
    for p in range(st[N]):
        t = hand_count(st[HAND + p])
        if (t == 49 and opts[O_DT49]) or (t == 50 and opts[O_DT50]):
            holders += 1
            who = p
    return holders, who


@njit(cache=True)
def start_deal(st, opts, gen, dealer, trace):
    """Deal (redealing voids under the same-dealer option) and settle a deal-tonk."""
    reset_hand(st)
    st[DEALER] = dealer
    for attempt in range(MAX_REDEALS + 1):
        deal_cards(st, opts, gen, trace)
        if not after_deal(st, opts, attempt, trace):
            return
        st[REDEALS] += 1
    st[TRUNC] = 1 if st[REDEALS] > MAX_REDEALS else 0
    finish(st, np.int64(R_VOID), trace)


@njit(cache=True)
def after_deal(st, opts, attempt, trace):
    """The dealt hands' deal-tonks: none, the first player's turn begins; one, it is settled;
    two or more, a void: True when the same dealer deals again (``tonk_tie_redeal_same_dealer``),
    else the deal ends void. Returns whether a redeal is due."""
    holders, who = deal_tonk_holders(st, opts)
    if holders == 0:
        st[CUR] = (st[DEALER] + 1) % st[N]
        begin_turn(st, opts)
        return False
    if holders == 1:
        for p in range(st[N]):
            if p != who:
                pay(st, p, who, 2 * opts[O_STAKE])
        finish(st, np.int64(R_DEAL_TONK), trace)
        return False
    log(st, trace, T_VOID, -1, attempt, 0)
    if opts[O_TIE_SAME_DEALER] == 0:
        finish(st, np.int64(R_VOID), trace)
        return False
    return True


@njit(cache=True)
def dealer_of(opts, seed, deal_id):
    """Dealer of a deal: the first dealer (fixed or drawn from the run seed) rotated left."""
    n = opts[O_PLAYERS]
    first = opts[O_FIRST_DEALER]
    if first < 0:
        first = np.int64(stream_key(seed, np.int64(0), np.int64(STREAM_RUN)) % np.uint64(n))
    return (first + deal_id) % n


# =============================================================================
# turn flow and settlement
# =============================================================================
@njit(cache=True, inline='always')
def begin_turn(st, opts):
    """Start the turn of CUR: reset per-turn fields, apply the dry guard and the turn cap."""
    st[TURNS] += 1
    st[TAKEN] = -1
    st[NEW_SPREAD] = 0
    st[HITS] = 0
    st[PHASE] = P_START
    if stock_empty(st):
        st[DRY_TURNS] += 1


@njit(cache=True, inline='always')
def cap_reached(st, opts):
    """A cap ends the hand at this turn start: the dry loop guard or the turn cap."""
    if st[DRY_TURNS] > opts[O_DRY_CAP]:
        return R_DRY
    if st[TURNS] > opts[O_MAX_TURNS]:
        return R_TURN_CAP
    return -1


@njit(cache=True, inline='always')
def next_turn(st, opts, trace):
    st[CUR] = (st[CUR] + 1) % st[N]
    begin_turn(st, opts)
    cap = cap_reached(st, opts)
    if cap >= 0:
        st[TRUNC] = 1
        settle_lowest(st, opts, cap, trace)


@njit(cache=True)
def finish(st, reason, trace):
    """Record counts, the end reason and the winner (unique highest positive payout)."""
    n = st[N]
    best = 0
    winner = -1
    for p in range(n):
        st[COUNT + p] = hand_count(st[HAND + p])
        if st[PAY + p] > best:
            best = st[PAY + p]
            winner = p
        elif st[PAY + p] == best and best > 0:
            winner = -1
    st[REASON] = reason
    st[WINNER] = winner
    st[PHASE] = P_OVER
    log(st, trace, T_END, -1, reason, winner)


@njit(cache=True)
def settle_out(st, opts, tonked, trace):
    """CUR emptied the hand: 2S each for a tonk out; S each for an out by the last discard,
    and, under tonk_out_requires_new_spread, for emptying it by hits alone (``hit_out``)."""
    p = st[CUR]
    s = opts[O_STAKE]
    reason = R_OUT
    amount = s
    if tonked:
        if opts[O_TONK_NEW_SPREAD] == 0 or st[NEW_SPREAD]:
            reason = R_TONK_OUT
            amount = 2 * s
        else:
            reason = R_HIT_OUT
    for q in range(st[N]):
        if q != p:
            pay(st, q, p, amount)
    finish(st, np.int64(reason), trace)


@njit(cache=True)
def lowest_others(st, k):
    """Minimum count over the seats other than k (k = -1: over all seats)."""
    m = 1 << 30
    for p in range(st[N]):
        if p != k:
            m = min(m, hand_count(st[HAND + p]))
    return m


@njit(cache=True)
def settle_knock(st, opts, trace):
    """Knock showdown of tonk.md 6.3 with every caught_lowest_bonus mode."""
    k = st[CUR]
    n = st[N]
    s = opts[O_STAKE]
    ck = hand_count(st[HAND + k])
    m = lowest_others(st, k)
    st[KNOCKER] = k
    if ck < m:
        for p in range(n):
            if p != k:
                pay(st, p, k, s)
        finish(st, np.int64(R_KNOCK_WON), trace)
        return
    for p in range(n):
        if p != k and hand_count(st[HAND + p]) <= ck:
            pay(st, k, p, 2 * s)
    for q in range(n):
        if q != k and hand_count(st[HAND + q]) == m:
            pay_lowest_bonus(st, opts, k, ck, m, q)
    finish(st, np.int64(R_KNOCK_CAUGHT), trace)


@njit(cache=True)
def pay_lowest_bonus(st, opts, k, ck, m, q):
    """Payments to q, a holder of the real lowest count, after knocker k was caught."""
    s = opts[O_STAKE]
    if opts[O_CAUGHT_PAYS_BASE]:
        pay(st, k, q, s)
    mode = opts[O_CAUGHT_BONUS]
    if mode == 2:
        return
    for p in range(st[N]):
        cp = hand_count(st[HAND + p])
        if p != k and cp != m and (mode == 0 or cp > ck):
            pay(st, p, q, s)


@njit(cache=True)
def settle_lowest(st, opts, reason, trace):
    """Dry stock (or a cap): the lowest count collects S from every player not tied lowest."""
    n = st[N]
    m = lowest_others(st, np.int64(-1))
    tied = 0
    for p in range(n):
        tied += hand_count(st[HAND + p]) == m
    if tied < n and (tied == 1 or opts[O_DRY_TIE] == 0):
        for q in range(n):
            if hand_count(st[HAND + q]) == m:
                for p in range(n):
                    if hand_count(st[HAND + p]) != m:
                        pay(st, p, q, opts[O_STAKE])
    finish(st, reason, trace)


# =============================================================================
# legal actions
# =============================================================================
@njit(cache=True, inline='always')
def push(acts, n, a):
    acts[n] = a
    return n + 1


@njit(cache=True, inline='always')
def legal_start(st, opts, acts):
    """Turn start: knock / draw stock / draw (take) the discard / end a dry hand."""
    cur = st[CUR]
    n = 0
    if not (st[BLOCKED] >> cur) & 1:
        n = push(acts, n, A_KNOCK)
    if not stock_empty(st):
        n = push(acts, n, A_DRAW_STOCK)
    top = pile_top(st)
    if top >= 0 and (opts[O_PICKUP_USE] == 0 or usable_now(st, opts, cur, top)):
        n = push(acts, n, A_DRAW_DISCARD)
    if stock_empty(st):
        n = push(acts, n, A_END_DRY)
    return n


@njit(cache=True)
def book_ranks(hand):
    """13-bit mask of the ranks of which ``hand`` holds three or four cards."""
    a = hand & SUIT_PLANE
    b = (hand >> 13) & SUIT_PLANE
    c = (hand >> 26) & SUIT_PLANE
    d = (hand >> 39) & SUIT_PLANE
    return (a & b & (c | d)) | (c & d & (a | b))


@njit(cache=True, inline='always')
def add_lays(hand, need, acts, n):
    """Every book (3 or 4, and the 3-subsets of a 4) and every run of 3+ in ``hand``.

    Order: books by rank (a four, then its 3-subsets), then runs by suit, low end, length."""
    rp = book_ranks(hand)
    while rp:
        m = hand & rank_mask(lowbit(rp))
        rp &= rp - 1
        n = push_lay(m, need, acts, n)
        if popcount(m) == 4:
            sub = m
            while sub:
                n = push_lay(m & ~(sub & -sub), need, acts, n)
                sub &= sub - 1
    for s in range(4):
        plane = (hand >> (13 * s)) & SUIT_PLANE
        if has_run(plane):
            n = add_runs(plane, s, need, acts, n)
    return n


@njit(cache=True)
def add_runs(plane, s, need, acts, n):
    """Every run of 3+ in suit plane ``plane`` of suit ``s``, by low end then length."""
    starts = plane & (plane >> 1) & (plane >> 2)
    while starts:
        lo = lowbit(starts)
        starts &= starts - 1
        hi = lo + 2
        while hi < 13 and (plane >> hi) & 1:
            n = push_lay((((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)) << (13 * s), need, acts, n)
            hi += 1
    return n


@njit(cache=True, inline='always')
def push_lay(mask, need, acts, n):
    if need >= 0 and not (mask >> need) & 1:
        return n
    return push(acts, n, lay_action(mask))


@njit(cache=True, inline='always')
def add_hits(st, opts, hand, need, acts, n):
    """Every (card, owner, book/run) hit the player to act may make now."""
    cur = st[CUR]
    if opts[O_MAX_HITS] >= 0 and st[HITS] >= opts[O_MAX_HITS]:
        return n
    if need >= 0:
        hand &= bit(need)
    for o in range(st[N]):
        if not hit_owners_allowed(st, opts, cur, o):
            continue
        books = st[BOOK + o]
        rp = ranks_present(books)
        while rp:
            r = lowbit(rp)
            rp &= rp - 1
            if popcount(books & rank_mask(r)) == 3 and hand & rank_mask(r) & ~books:
                n = push(acts, n, hit_action(lowbit(hand & rank_mask(r)), o, 0))
        adj = run_neighbours(st[RUN + o]) & hand
        while adj:
            n = push(acts, n, hit_action(lowbit(adj), o, 1))
            adj &= adj - 1
    return n


@njit(cache=True, inline='always')
def add_discards(st, opts, hand, acts, n):
    """Discards (each ends the meld phase) when ending the meld phase is allowed."""
    taken = st[TAKEN]
    if opts[O_MUST_SPREAD] and has_spread(hand, opts[O_ACES_EXC] != 0):
        return n
    forbid = -1
    if taken >= 0 and opts[O_REDISCARD] == 0 and popcount(hand) > 1:
        forbid = taken
    m = hand
    while m:
        c = lowbit(m)
        m &= m - 1
        if c != forbid:
            n = push(acts, n, discard_action(c))
    return n


@njit(cache=True, inline='always')
def legal_meld(st, opts, acts):
    hand = st[HAND + st[CUR]]
    need = -1
    if opts[O_PICKUP_USE] and st[TAKEN] >= 0 and (hand >> st[TAKEN]) & 1:
        need = st[TAKEN]
    n = add_lays(hand, need, acts, 0)
    n = add_hits(st, opts, hand, need, acts, n)
    if need < 0:
        n = add_discards(st, opts, hand, acts, n)
    return n


@njit(cache=True, inline='always')
def legal_actions(st, opts, acts):
    """Fill ``acts`` with the legal actions of the player to act; returns their number."""
    if st[PHASE] == P_START:
        return legal_start(st, opts, acts)
    if st[PHASE] == P_MELD:
        return legal_meld(st, opts, acts)
    return 0


# =============================================================================
# applying actions
# =============================================================================
@njit(cache=True, inline='always')
def push_pile(st, card):
    st[PILE + st[PILE_LEN]] = card
    st[PILE_LEN] += 1
    st[PILE_MASK] |= bit(card)


@njit(cache=True, inline='always')
def draw_stock(st):
    card = st[DECK + st[STOCK_PTR]]
    st[STOCK_PTR] += 1
    st[HAND + st[CUR]] |= bit(card)
    st[PHASE] = P_MELD


@njit(cache=True, inline='always')
def take_discard(st):
    st[PILE_LEN] -= 1
    card = st[PILE + st[PILE_LEN]]
    st[PILE_MASK] &= ~bit(card)
    st[HAND + st[CUR]] |= bit(card)
    for q in range(MAX_PLAYERS):
        st[KNOWN + q] &= ~bit(card)
    st[KNOWN + st[CUR]] |= bit(card)
    st[TAKEN] = card
    st[PHASE] = P_MELD


@njit(cache=True)
def lay(st, opts, mask, trace):
    cur = st[CUR]
    st[HAND + cur] &= ~mask
    if popcount(mask & rank_mask(lowbit(mask) % 13)) == popcount(mask):
        st[BOOK + cur] |= mask
    else:
        st[RUN + cur] |= mask
    st[NEW_SPREAD] = 1
    if st[HAND + cur] == 0:
        settle_out(st, opts, np.bool_(True), trace)


@njit(cache=True)
def hit(st, opts, card, owner, on_run, trace):
    cur = st[CUR]
    st[HAND + cur] &= ~bit(card)
    st[(RUN if on_run else BOOK) + owner] |= bit(card)
    st[HITS] += 1
    if opts[O_HIT_BLOCKS] and owner != cur:
        st[BLOCKED] |= 1 << owner
    if st[HAND + cur] == 0:
        settle_out(st, opts, np.bool_(True), trace)


@njit(cache=True, inline='always')
def discard(st, opts, card, trace):
    cur = st[CUR]
    st[HAND + cur] &= ~bit(card)
    push_pile(st, card)
    if st[HAND + cur] == 0:
        settle_out(st, opts, np.bool_(False), trace)
    else:
        next_turn(st, opts, trace)


@njit(cache=True, inline='always')
def apply_action(st, opts, a, trace):
    """Play action ``a`` for the player to act (it must be legal)."""
    kind = action_kind(a)
    cur = st[CUR]
    if st[PHASE] == P_START:
        st[BLOCKED] &= ~(1 << cur)
    drawn = -1
    if kind == A_DRAW_STOCK:
        drawn = st[DECK + st[STOCK_PTR]]
    elif kind == A_DRAW_DISCARD:
        drawn = pile_top(st)
    log(st, trace, T_ACTION, cur, a, drawn)
    if kind == A_KNOCK:
        settle_knock(st, opts, trace)
    elif kind == A_DRAW_STOCK:
        draw_stock(st)
    elif kind == A_DRAW_DISCARD:
        take_discard(st)
    elif kind == A_END_DRY:
        settle_lowest(st, opts, np.int64(R_DRY), trace)
    elif kind == A_LAY:
        lay(st, opts, action_cards(a), trace)
    elif kind == A_HIT:
        hit(st, opts, action_card(a), action_owner(a), action_on_run(a), trace)
    else:
        discard(st, opts, action_card(a), trace)


@njit(cache=True)
def is_over(st):
    return st[PHASE] == P_OVER


@njit(cache=True)
def score(st, p):
    """Payout of seat p in chips (valid once the hand is over)."""
    return st[PAY + p]


# =============================================================================
# check mode
# =============================================================================
@njit(cache=True)
def cards_conserved(st):
    seen = 0
    total = 0
    for p in range(st[N]):
        for f in (HAND, BOOK, RUN):
            seen |= st[f + p]
            total += popcount(st[f + p])
    for i in range(st[STOCK_PTR], 52):
        seen |= bit(st[DECK + i])
        total += 1
    for i in range(st[PILE_LEN]):
        seen |= bit(st[PILE + i])
        total += 1
    return total == 52 and seen == FULL_DECK


@njit(cache=True)
def spreads_valid(st):
    for p in range(st[N]):
        for r in range(13):
            c = popcount(st[BOOK + p] & rank_mask(r))
            if c == 1 or c == 2:
                return False
        for s in range(4):
            plane = (st[RUN + p] >> (13 * s)) & 0x1FFF
            for r in range(13):
                if (plane >> r) & 1 and run_length_through(plane, r) < 3:
                    return False
    return True


@njit(cache=True)
def check_invariants(st, opts):
    """0 if the state is sound, else an E_* code."""
    n = st[N]
    if not cards_conserved(st):
        return E_CARDS
    for p in range(n):
        limit = 6 if (st[PHASE] == P_MELD and p == st[CUR]) else 5
        if popcount(st[HAND + p]) > limit:
            return E_HAND_SIZE
    if not spreads_valid(st):
        return E_SPREAD
    if st[TURNS] > opts[O_MAX_TURNS] + 1 or st[DRY_TURNS] > opts[O_DRY_CAP] + 1:
        return E_CAP
    total = 0
    for p in range(n):
        total += st[PAY + p]
        if abs(st[PAY + p]) > 3 * (n - 1) * opts[O_STAKE]:
            return E_BOUND
    return E_ZERO_SUM if total != 0 else 0
