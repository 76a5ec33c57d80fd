"""Tonk's built-in strategies: an id (``S_*``) and a float parameter row per seat; ``choose``
picks among the legal actions (the package docstring describes each strategy)."""
import math

from cardsim.kernels.cards import POINTS_TEN_CAP, bit, lowbit, popcount, rank_mask, run_neighbours
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below, uniform
from cardsim.kernels.tonk.actions import action_card, action_cards, action_kind, discard_action
from cardsim.kernels.tonk.layout import (
    A_DISCARD,
    A_DRAW_DISCARD,
    A_DRAW_STOCK,
    A_END_DRY,
    A_HIT,
    A_KNOCK,
    A_LAY,
    BOOK,
    CUR,
    HAND,
    N,
    P_START,
    PHASE,
    F_END_DRY,
    F_KNOCK,
    F_MELD,
    F_TAKE,
    PLAN,
    P_DECAY,
    P_FEED,
    P_KNOCK_ODDS,
    P_NEAR_KEEP,
    P_PAIR_KEEP,
    P_THRESHOLD,
    P_WARY_CARDS,
    RUN,
    S_EXPERT,
    S_FUZZ,
    S_KNOCKER,
    S_PLANNER,
    S_RANDOM,
    STOCK_PTR,
    TAKEN,
    TURNS,
)
from cardsim.kernels.tonk.rules import can_hit, hand_count, pile_top, stock_empty, usable_now
from cardsim.kernels.tonk.view import rival_known, rivals_known, unseen_by


# =============================================================================
# strategies: an id and a float parameter row per seat
# =============================================================================
@njit(cache=True, inline='always')
def helps_in_hand(hand, card):
    """Another card of the hand shares the rank or is within two ranks in the suit."""
    others = hand & ~bit(card)
    near = run_neighbours(bit(card))
    near |= run_neighbours(near)
    return (others & (rank_mask(card % 13) | near)) != 0


@njit(cache=True, inline='always')
def plan(sid, prm, k):
    """The planner's k-th study parameter (0 dry_end, 1 take_low, 2 hold_spreads,
    3 hold_min_stock); greedy, knocker and watcher play all four at 0."""
    return prm[PLAN + k] if sid == S_PLANNER or sid == S_EXPERT else 0.0


@njit(cache=True, inline='always')
def greedy_discard(hand, taken):
    """The card greedy's meld phase would discard from ``hand`` (``meld_value``), never
    ``taken`` (the card just taken from the pile); -1 if there is none."""
    best = -1e300
    bc = -1
    m = hand & ~bit(taken) if taken >= 0 else hand
    while m:
        c = lowbit(m)
        m &= m - 1
        v = meld_value(hand, discard_action(c))
        if v > best:
            best = v
            bc = c
    return bc


@njit(cache=True)
def take_lowers_count(hand, card):
    """Taking ``card`` and discarding what greedy would discard then lowers the count."""
    h = hand | bit(card)
    d = greedy_discard(h, card)
    return d >= 0 and POINTS_TEN_CAP[d % 13] > POINTS_TEN_CAP[card % 13]


@njit(cache=True, inline='always')
def is_spread(mask):
    """``mask`` is one book (3 or 4 of a rank) or one run (3+ consecutive of a suit)."""
    if popcount(mask) < 3:
        return False
    c = lowbit(mask)
    if mask & ~rank_mask(c % 13) == 0:
        return True
    s = c // 13
    plane = (mask >> (13 * s)) & 0x1FFF
    if plane << (13 * s) != mask:
        return False
    p = plane >> (c % 13)
    return (p & (p + 1)) == 0


@njit(cache=True)
def can_clear(st, opts, hand):
    """The hand can be emptied in this meld phase (a tonk out): after the cards it can hit
    now, what is left is nothing, one spread, or two spreads of three."""
    cur = st[CUR]
    rest = hand
    m = hand
    while m:
        c = lowbit(m)
        m &= m - 1
        if can_hit(st, opts, cur, c):
            rest &= ~bit(c)
    if rest == 0 or is_spread(rest):
        return True
    if popcount(rest) != 6:
        return False
    # two spreads of three: try every 3-card subset holding the lowest card
    lo = lowbit(rest)
    others = rest & ~bit(lo)
    a = others
    while a:
        x = lowbit(a)
        a &= a - 1
        b = a
        while b:
            y = lowbit(b)
            b &= b - 1
            t = bit(lo) | bit(x) | bit(y)
            if is_spread(t) and is_spread(rest & ~t):
                return True
    return False


@njit(cache=True, inline='always')
def holding(st, sid, prm):
    """The planner holds its spreads back for a tonk out (``hold_spreads`` = 1) while the
    stock holds more than ``hold_min_stock`` cards."""
    return plan(sid, prm, 2) > 0 and 52 - st[STOCK_PTR] > plan(sid, prm, 3)


@njit(cache=True, inline='always')
def wants_knock(st, sid, prm):
    """knocker: count <= threshold. watcher: the threshold falls by ``decay`` per round and
    it never knocks while an opponent holds <= ``wary_cards`` cards. Never with a dry stock
    (ending it is never worse than knocking)."""
    if sid < S_KNOCKER or stock_empty(st):
        return False
    cur = st[CUR]
    c = hand_count(st[HAND + cur])
    if sid == S_KNOCKER:
        return c <= prm[P_THRESHOLD]
    if sid == S_EXPERT and expert_knocks(st, cur, c, prm):
        return True
    for p in range(st[N]):
        if p != cur and popcount(st[HAND + p]) <= prm[P_WARY_CARDS]:
            return False
    return c <= prm[P_THRESHOLD] - prm[P_DECAY] * ((st[TURNS] - 1) // st[N])


# ---- the expert (issue 41): what a good player reads from the table ------------
# (what its seat sees of the others' cards: ``view``: rival_known, rivals_known, unseen_by)
@njit(cache=True)
def least_rival_count(st, p, unseen):
    """The least count any other seat can hold, given what ``p`` sees (``unseen``:
    ``unseen_by``): its known cards plus the lowest unseen cards for the rest of its hand. A
    knock below it cannot be caught."""
    least = 1 << 30
    for q in range(st[N]):
        if q == p:
            continue
        kq = rival_known(st, p, q)
        need = popcount(st[HAND + q]) - popcount(kq)
        c = hand_count(kq)
        r = 0
        while need > 0 and r < 13:
            k = min(need, popcount(unseen & rank_mask(r)))
            c += k * POINTS_TEN_CAP[r]
            need -= k
            r += 1
        least = min(least, c)
    return least


@njit(cache=True, inline='always')
def unseen_sums(unseen):
    """(count, sum of points, sum of squared points) of the ``unseen`` cards: the moments of
    ``chance_at_most``'s normal law, computed once a decision."""
    s2 = 0.0
    for r in range(13):
        s2 += popcount(unseen & rank_mask(r)) * POINTS_TEN_CAP[r] * POINTS_TEN_CAP[r]
    return popcount(unseen), float(hand_count(unseen)), s2


@njit(cache=True)
def chance_at_most(unseen, h, t, u, s1, s2):
    """The chance that ``h`` cards drawn at random from ``unseen`` (``u``, ``s1``, ``s2``: its
    ``unseen_sums``) count at most ``t`` points: exact for one or two cards, else the normal
    law of a sum drawn without replacement (with a continuity correction). Cheap: it runs at
    every turn start of an expert."""
    if t < 0:
        return 0.0
    if h <= 0:
        return 1.0
    if h > u:
        return 0.0
    if h <= 2:
        good = 0.0
        for r in range(13):
            if POINTS_TEN_CAP[r] > t:
                break                             # the points grow with the rank
            a = popcount(unseen & rank_mask(r))
            if h == 1:
                good += a
                continue
            for r2 in range(r, 13):
                if POINTS_TEN_CAP[r] + POINTS_TEN_CAP[r2] > t:
                    break
                good += a * (a - 1) / 2 if r2 == r else a * popcount(unseen & rank_mask(r2))
        return good / (u if h == 1 else u * (u - 1) / 2)
    mean = s1 / u
    var = max(s2 / u - mean * mean, 1e-9) * h * (u - h) / max(u - 1, 1)
    return 0.5 * (1.0 + math.erf((t + 0.5 - h * mean) / math.sqrt(2.0 * var)))


@njit(cache=True)
def knock_chance(st, p, c, unseen, u, s1, s2):
    """The chance, as seat ``p`` sees it, that a knock at count ``c`` is not caught: every
    other seat counts more (its known cards plus its other cards drawn at random from the
    cards ``p`` has not seen, ``unseen`` with its ``unseen_sums``, each seat taken alone)."""
    chance = 1.0
    for q in range(st[N]):
        if q != p:
            kq = rival_known(st, p, q)
            h = popcount(st[HAND + q]) - popcount(kq)
            chance *= 1.0 - chance_at_most(unseen, h, c - hand_count(kq), u, s1, s2)
    return chance


@njit(cache=True)
def likely_caught(st, p, c, u, s1):
    """Some rival with three or more cards unknown to ``p`` is expected (by ``chance_at_most``'s
    normal law, with its continuity correction) to count at most ``c``: its term of
    ``knock_chance`` is then at most 1/2, so a knock needing better odds than 1/2 is refused
    without the law's erf (a shortcut: the same decisions, issue 41's speed target)."""
    for q in range(st[N]):
        if q == p:
            continue
        kq = rival_known(st, p, q)
        h = popcount(st[HAND + q]) - popcount(kq)
        if 3 <= h <= u and c - hand_count(kq) + 0.5 >= h * (s1 / u):
            return True
    return False


@njit(cache=True)
def expert_knocks(st, p, c, prm):
    """The expert knocks when a knock at its count ``c`` cannot be caught, or is not caught
    with chance at least ``knock_odds`` (below 1)."""
    unseen = unseen_by(st, p)
    if c < least_rival_count(st, p, unseen):
        return True
    if prm[P_KNOCK_ODDS] >= 1.0:
        return False
    u, s1, s2 = unseen_sums(unseen)
    if prm[P_KNOCK_ODDS] > 0.5 and likely_caught(st, p, c, u, s1):
        return False
    return knock_chance(st, p, c, unseen, u, s1, s2) >= prm[P_KNOCK_ODDS]


@njit(cache=True, inline='always')
def pair_outs(hand, unseen, card):
    """The unseen cards that would make a book of ``card`` and a card of its rank in the hand
    (0 when the hand holds no other card of the rank)."""
    rm = rank_mask(card % 13)
    return popcount(unseen & rm) if hand & ~bit(card) & rm else 0


@njit(cache=True, inline='always')
def run_outs(hand, unseen, card):
    """The unseen cards that would make a run of three of ``card`` and the hand's cards of its
    suit (a window of three ranks holding two of the hand's cards and one unseen card); a
    card already in three of a suit in a row counts as two outs."""
    s, r = card // 13, card % 13
    plane = (hand >> (13 * s)) & 0x1FFF
    free = (unseen >> (13 * s)) & 0x1FFF
    outs = 0
    for lo in range(max(r - 2, 0), min(r, 10) + 1):
        w = 7 << lo
        k = popcount(plane & w)
        if k == 3:
            return 2
        if k == 2:
            outs |= w & ~plane & free
    return popcount(outs)


@njit(cache=True, inline='always')
def feeds(st, card, known):
    """Discarding ``card`` hands a rival something: it extends a spread on the table, or it
    shares a rank with, or sits next to in a suit, a card a rival is known to hold
    (``known``: ``rivals_known``)."""
    b = bit(card)
    if known & (rank_mask(card % 13) | run_neighbours(b)):
        return True
    for q in range(st[N]):
        if popcount(st[BOOK + q] & rank_mask(card % 13)) == 3 or run_neighbours(st[RUN + q]) & b:
            return True
    return False


@njit(cache=True, inline='always')
def expert_discard_value(st, hand, card, prm, unseen, known):
    """The expert's wish to discard ``card``: its points, less ``pair_keep`` and ``near_keep``
    for every two outs of a book and of a run it would give up (``pair_outs``, ``run_outs``;
    ``unseen``: ``unseen_by``), less ``feed`` when a rival can use it (``feeds``; ``known``:
    ``rivals_known``). The card index breaks ties as greedy's does."""
    v = POINTS_TEN_CAP[card % 13] + card * 1e-3
    v -= 0.5 * (prm[P_PAIR_KEEP] * pair_outs(hand, unseen, card) + prm[P_NEAR_KEEP] * run_outs(hand, unseen, card))
    if feeds(st, card, known):
        v -= prm[P_FEED]
    return v


@njit(cache=True)
def expert_take_lowers(st, card, prm):
    """Taking ``card`` and discarding what the expert would then discard lowers the count."""
    hand = st[HAND + st[CUR]] | bit(card)
    unseen = unseen_by(st, st[CUR])
    known = rivals_known(st, st[CUR])
    best = -1e300
    bc = -1
    m = hand & ~bit(card)
    while m:
        c = lowbit(m)
        m &= m - 1
        v = expert_discard_value(st, hand, c, prm, unseen, known)
        if v > best:
            best = v
            bc = c
    return bc >= 0 and POINTS_TEN_CAP[bc % 13] > POINTS_TEN_CAP[card % 13]


@njit(cache=True, inline='always')
def start_score(st, opts, a, sid, prm):
    """Greedy family at turn start: knock when the strategy wants to; take a discard that it
    can use at once, or one that lowers the count (with a dry stock always; the planner's
    ``take_low`` also with a stock: a known card worth at most that many points rather than
    a blind stock card); end a dry hand when no discard would lower the count, or (planner)
    when the count is at most ``dry_end`` (issue 15: before, a dry stock ended the hand
    whenever the discard was not usable at once)."""
    kind = action_kind(a)
    cur = st[CUR]
    if kind == A_KNOCK:
        return 100.0 if wants_knock(st, sid, prm) else -100.0
    if kind == A_END_DRY:
        return 30.0 if hand_count(st[HAND + cur]) <= plan(sid, prm, 0) else 5.0
    if kind == A_DRAW_DISCARD:
        top = pile_top(st)
        if usable_now(st, opts, cur, top):
            return 20.0
        if ((stock_empty(st) or POINTS_TEN_CAP[top % 13] <= plan(sid, prm, 1))
                and (expert_take_lowers(st, top, prm) if sid == S_EXPERT
                     else take_lowers_count(st[HAND + cur], top))):
            return 15.0
        return 0.0
    return 10.0


@njit(cache=True, inline='always')
def meld_value(hand, a):
    """Greedy family in the meld phase: biggest spreads, then hits, then the best discard."""
    kind = action_kind(a)
    if kind == A_LAY:
        return 300.0 + 10.0 * popcount(action_cards(a))
    card = action_card(a)
    if kind == A_HIT:
        return 200.0 + POINTS_TEN_CAP[card % 13]
    penalty = 100.0 if helps_in_hand(hand, card) else 0.0
    return POINTS_TEN_CAP[card % 13] - penalty + card * 1e-3


@njit(cache=True, inline='always')
def meld_score(st, opts, a, sid, prm, unseen, known):
    """``meld_value`` of action ``a`` for the hand of the player to act; while ``holding``,
    a spread is laid only when the rest of the hand can then go too (a tonk out), and
    otherwise ranks below every discard. The expert's discards by ``expert_discard_value``
    (``unseen``, ``known``: its ``unseen_by`` and ``rivals_known``, computed once a decision)."""
    hand = st[HAND + st[CUR]]
    kind = action_kind(a)
    if kind == A_LAY and holding(st, sid, prm) and not can_clear(st, opts, hand & ~action_cards(a)):
        return -1000.0 + popcount(action_cards(a))
    if sid == S_EXPERT and kind == A_DISCARD:
        v = expert_discard_value(st, hand, action_card(a), prm, unseen, known)
    else:
        v = meld_value(hand, a)
    if kind == A_DISCARD and action_card(a) == st[TAKEN]:
        return v - 50.0                           # a re-discard (if allowed) only as a last resort
    return v


@njit(cache=True, inline='always')
def best_start(st, opts, acts, n, sid, prm):
    """Index of the first best ``start_score`` among ``acts[:n]``."""
    best = -1e300
    bi = 0
    for i in range(n):
        v = start_score(st, opts, acts[i], sid, prm)
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True, inline='always')
def best_meld(st, opts, acts, n, sid, prm):
    """Index of the first best ``meld_score`` among ``acts[:n]``."""
    best = -1e300
    bi = 0
    unseen = unseen_by(st, st[CUR]) if sid == S_EXPERT else 0
    known = rivals_known(st, st[CUR]) if sid == S_EXPERT else 0
    for i in range(n):
        v = meld_score(st, opts, acts[i], sid, prm, unseen, known)
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True, inline='always')
def pick_kind(acts, n, kinds, gen):
    """Index of a uniformly drawn action among ``acts[:n]`` whose kind bit is in ``kinds``
    (-1 if none)."""
    k = 0
    for i in range(n):
        k += (kinds >> action_kind(acts[i])) & 1
    if k == 0:
        return -1
    j = below(gen, k)
    for i in range(n):
        if (kinds >> action_kind(acts[i])) & 1:
            if j == 0:
                return i
            j -= 1
    return -1


@njit(cache=True)
def fuzz_choice(st, acts, n, prm, gen):
    """The fuzzer: knock with chance ``knock``; take the discard with chance ``take``; end a
    dry hand with chance ``end_dry`` (else take the discard); else draw from the stock. In
    the meld phase a lay or hit with chance ``meld`` (uniform among them), else a uniform
    discard. Each kind falls back to any legal action when it is not legal."""
    i = -1
    if st[PHASE] == P_START:
        if uniform(gen) < prm[F_KNOCK]:
            i = pick_kind(acts, n, 1 << A_KNOCK, gen)
        if i < 0 and stock_empty(st):
            first = A_END_DRY if uniform(gen) < prm[F_END_DRY] else A_DRAW_DISCARD
            i = pick_kind(acts, n, 1 << first, gen)
            if i < 0:
                i = pick_kind(acts, n, (1 << A_END_DRY) | (1 << A_DRAW_DISCARD), gen)
        if i < 0 and uniform(gen) < prm[F_TAKE]:
            i = pick_kind(acts, n, 1 << A_DRAW_DISCARD, gen)
        if i < 0:
            i = pick_kind(acts, n, 1 << A_DRAW_STOCK, gen)
    else:
        if uniform(gen) < prm[F_MELD]:
            i = pick_kind(acts, n, (1 << A_LAY) | (1 << A_HIT), gen)
        if i < 0:
            i = pick_kind(acts, n, 1 << A_DISCARD, gen)
    return i if i >= 0 else below(gen, n)


@njit(cache=True, inline='always')
def choose(st, opts, acts, n, sid, prm, gen):
    """Index of the action the strategy ``sid`` picks among ``acts[:n]``."""
    if sid == S_RANDOM:
        return below(gen, n)
    if sid == S_FUZZ:
        return fuzz_choice(st, acts, n, prm, gen)
    if st[PHASE] == P_START:
        return best_start(st, opts, acts, n, sid, prm)
    return best_meld(st, opts, acts, n, sid, prm)
