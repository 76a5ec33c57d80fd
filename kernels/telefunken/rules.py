"""Telefunken's rules, the flow of a hand: small helpers (the trace, seats, holdings), the stock
and the discard pile, the cut and the deal, the turns, the upcard, the buy window and the exchange,
and what the contracts need of a hand's growth (``needs_growth``, ``stuck_down``; read by the
strategies and by the blocked-hand test of ``close``).
"""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit, trace_put
from cardsim.kernels.rng import below, shuffle
from cardsim.kernels.telefunken.layout import (
    ASK, BUYS, CHIPS, CONTRACT, CUR, CUT_AIMED, CUT_B, CUT_EXACT, CUT_KEEPS, CUT_KEPT, C_STRIDE, DEALER,
    DECK_SIZE, DISCARD, DISCARDER, DOWN, DOWN_TURN, EXK, EX_ROUND, EX_SEAT, FIRST_DEALER, GAME_TURNS, GBUYS, H1,
    H2, HJ, HNO, HREASON, HT, H_EXHAUSTED, H_STOCK_END, H_TURN_CAP, JK, JOKER_DUE, KEEP_SET, KN, KN_STRIDE,
    LASTPEN, MAX_PLAYERS, N, NEXTP, OUT, O_BUY_AFTER_DOWN, O_BUY_PENALTY, O_CARDS, O_CHOOSE, O_CONTRACTS,
    O_CUT_AIM, O_CUT_JOKERS, O_CUT_MAX, O_CUT_MIN, O_CUT_MODEL, O_CUT_SPREAD, O_DEALER_OPENS, O_DISCARDER_BUYS,
    O_EXACT_BONUS, O_EXACT_POINTS, O_EXACT_TARGET, O_EXCHANGE, O_EXCHANGE_MODEL, O_EXHAUSTION, O_FINAL_DISCARD,
    O_FREE_UPCARD, O_H7_AT_ONCE, O_HANDS, O_IN_TURN_CHIP, O_MAX_TURNS, O_NO_BUY, O_RULES, O_TAKE_DISCARD,
    O_UPCARD_BUYABLE, PEN, PHASE, PILE, PILE_LEN, PLUGIN, POOL, POOL_LEN, P_ACT, P_BUY, P_CHOOSE, P_EXCHANGE,
    P_OPEN, P_OVER, P_UPCARD, RESHUF, STOCK, STOCK_HI, STOCK_LO, S_EXPERT, S_PLANNER, S_RANDOM, S_SEARCH,
    TABLE_ACTS, TAKEN, TOTAL, TRUNC, TR_LEN, TURN, T_CUT, T_DEAL, T_DRAW, T_EXCHANGE, T_HAND, T_MELD, T_OWNER,
    T_RESHUFFLE, T_TWOS, T_UPCARD, UPCARD, UP_OFFER, USED, WILD2, WIN_SKIP,
)
from cardsim.kernels.telefunken.actions import meld_code


# =============================================================================
# small helpers: trace, seats, holdings
# =============================================================================
@njit(cache=True)
def log(st, trace, code, seat, a, b, c, d=0):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True)
def log_meld(st, trace, tab, i):
    """A T_MELD row: table meld i as it is now."""
    if trace.shape[0] == 0:
        return
    r = tab[i]
    log(st, trace, T_MELD, r[T_OWNER], meld_code(i, r), r[M.M_JPOS], r[M.M_P1], r[M.M_P2])


@njit(cache=True, inline='always')
def nxt(st, p):
    return (p + 1) % st[N]


@njit(cache=True, inline='always')
def is_wild_two(st, c):
    """Card c is a 2 and twos are wild (O_WILD_TWOS): it is held in HT, not the planes."""
    return st[WILD2] != 0 and c < JK and c % 13 == 1


@njit(cache=True)
def give(st, p, c):
    """Card c (52 = joker) goes into seat p's holding."""
    if c == JK:
        st[HJ + p] += 1
        return
    if is_wild_two(st, c):
        st[HT + p] += np.int64(1) << (2 * (c // 13))
        return
    b = np.int64(1) << c
    if st[H1 + p] & b:
        st[H2 + p] |= b
    else:
        st[H1 + p] |= b


@njit(cache=True)
def take(st, p, c):
    """Card c (52 = joker) leaves seat p's holding (one publicly known copy fewer, KN)."""
    if st[KN + KN_STRIDE * p + c] > 0:
        st[KN + KN_STRIDE * p + c] -= 1
    if c == JK:
        st[HJ + p] -= 1
        return
    if is_wild_two(st, c):
        st[HT + p] -= np.int64(1) << (2 * (c // 13))
        return
    b = np.int64(1) << c
    if st[H2 + p] & b:
        st[H2 + p] &= ~b
    else:
        st[H1 + p] &= ~b


@njit(cache=True, inline='always')
def twos_count(x):
    """Cards in a packed wild-twos field (2 bits per suit)."""
    return (x & 3) + ((x >> 2) & 3) + ((x >> 4) & 3) + ((x >> 6) & 3)


@njit(cache=True, inline='always')
def planner_like(sid):
    """The strategies that read the planner's parameter row (Q_*): the planner and the expert."""
    return sid == S_PLANNER or sid == S_EXPERT


@njit(cache=True, inline='always')
def wilds(st, p):
    """Wild cards seat p holds: jokers and wild twos (what the meld engine calls jokers)."""
    return st[HJ + p] + twos_count(st[HT + p])


@njit(cache=True)
def lowest_two(x):
    """The card id of the lowest-suit two of a packed wild-twos field (x > 0)."""
    s = 0
    while (x >> (2 * s)) & 3 == 0:
        s += 1
    return s * 13 + 1


@njit(cache=True)
def pick_wild(st, p, rules):
    """The wild card seat p lays when the engine asks for one: the one worth more penalty
    points (a joker on equal points), a two from the lowest suit."""
    if st[HJ + p] > 0 and (st[HT + p] == 0 or rules[M.R_JOKER_POINTS] >= rules[M.R_POINTS + 1]):
        return JK
    return lowest_two(st[HT + p])


@njit(cache=True, inline='always')
def known_give(st, p, c):
    """Card c goes into seat p's holding in sight of everybody (KN)."""
    give(st, p, c)
    st[KN + KN_STRIDE * p + c] += 1


@njit(cache=True)
def take_mask(st, p, q1, q2, jokers, rules):
    """Natural cards (two planes) and ``jokers`` wild cards (pick_wild each) leave seat p's
    holding; returns the wild twos taken (packed as HT)."""
    for plane in (q1, q2):
        m = plane
        while m:
            take(st, p, lowbit(m))
            m &= m - 1
    twos = np.int64(0)
    for _ in range(jokers):
        c = pick_wild(st, p, rules)
        take(st, p, c)
        if c != JK:
            twos += np.int64(1) << (2 * (c // 13))
    return twos


@njit(cache=True)
def wild_out(st, tab, i, p):
    """A wild card leaves table meld i for seat p's holding: a joker while the meld has one,
    else its lowest-suit two (the meld's wild cards are interchangeable)."""
    twos = tab[i, T_TWOS]
    if tab[i, M.M_JOKERS] > twos_count(twos) or twos == 0:
        known_give(st, p, JK)
        return JK
    c = lowest_two(twos)
    tab[i, T_TWOS] -= np.int64(1) << (2 * (c // 13))
    known_give(st, p, c)
    return c


@njit(cache=True, inline='always')
def held(st, p):
    """Cards in seat p's holding."""
    return popcount(st[H1 + p]) + popcount(st[H2 + p]) + wilds(st, p)


@njit(cache=True, inline='always')
def rules_of(opts):
    return opts[O_RULES:O_RULES + M.R_SIZE]


@njit(cache=True, inline='always')
def spec_of(opts, h):
    return opts[O_CONTRACTS + h * C_STRIDE:O_CONTRACTS + (h + 1) * C_STRIDE]


@njit(cache=True, inline='always')
def hand7_at_once(st, opts):
    """This hand must be laid in one go: it plays the last contract (Hand 7's in Telefunken)
    and hand7_must_go_out_at_once is on."""
    return st[CONTRACT] == opts[O_HANDS] and opts[O_H7_AT_ONCE] != 0


# =============================================================================
# stock and discard pile (§11.2)
# =============================================================================
@njit(cache=True)
def end_hand(st, reason):
    st[HREASON] = reason
    st[PHASE] = P_OVER
    if reason == H_TURN_CAP:
        st[TRUNC] = 1


@njit(cache=True)
def refill(st, opts, gplay, trace):
    """Empty stock: turn the discard pile (all, or all but the top) into a new shuffled
    stock. False when the hand ends instead."""
    if opts[O_EXHAUSTION] == 2:
        end_hand(st, H_STOCK_END)
        return False
    keep = 1 if opts[O_EXHAUSTION] == 1 and st[PILE_LEN] > 0 else 0
    k = st[PILE_LEN] - keep
    if k <= 0:
        end_hand(st, H_EXHAUSTED)
        return False
    for i in range(k):
        st[STOCK + i] = st[PILE + i]
    if keep:
        st[PILE] = st[PILE + k]
    st[PILE_LEN] = keep
    shuffle(gplay, st, STOCK, STOCK + k)
    st[STOCK_LO] = 0
    st[STOCK_HI] = k
    st[RESHUF] += 1
    log(st, trace, T_RESHUFFLE, -1, k, 0, 0)
    return True


@njit(cache=True)
def draw_to(st, opts, p, k, gplay, trace):
    """Seat p draws k stock cards; False if the hand ended on an empty stock."""
    for _ in range(k):
        if st[STOCK_HI] == st[STOCK_LO] and not refill(st, opts, gplay, trace):
            return False
        c = st[STOCK + st[STOCK_LO]]
        give(st, p, c)
        st[STOCK_LO] += 1
        log(st, trace, T_DRAW, p, c, 0, 0)
    return True


@njit(cache=True)
def pile_push(st, c):
    st[PILE + st[PILE_LEN]] = c
    st[PILE_LEN] += 1


@njit(cache=True)
def pile_pop(st):
    st[PILE_LEN] -= 1
    return st[PILE + st[PILE_LEN]]


# =============================================================================
# cut and deal (§5)
# =============================================================================
# The cut and the deal in steps, called alike by the batch (``deal_hand``, ``deal_cut``) and by the
# step adapter (``sim.games.telefunken.step``): the cut's outcomes (``cut_count`` equally likely
# ``cut_outcome``s; ``cut_bottom`` draws one), the keep decision of each inspected card
# (``inspected_keep``; ``keeps_joker`` for the cutter's choice), the dealing sequence with the kept
# jokers to the cutter (``cut_apply``), and the deal itself (``deal_after_cut``).
@njit(cache=True, inline='always')
def cut_count(opts):
    """How many outcomes the cut's draw has, each as likely (``cut_outcome``)."""
    if opts[O_CUT_MODEL] == 0:
        return 2 * opts[O_CUT_SPREAD] + 1
    return opts[O_CUT_MAX] - opts[O_CUT_MIN] + 1


@njit(cache=True, inline='always')
def cut_outcome(opts, st_aim, u):
    """Bottom portion B of the cut's outcome u (0 .. cut_count - 1; §5.3, A9), clamped so the
    top portion has 3 cards."""
    if opts[O_CUT_MODEL] == 0:
        s = opts[O_CUT_SPREAD]
        b = opts[O_CUT_AIM] + u - s
        if st_aim > 0:                        # the cutter's own aim (planner), same noise
            b += st_aim - opts[O_CUT_AIM]
    else:
        b = opts[O_CUT_MIN] + u
    return min(max(b, 1), DECK_SIZE - 3)


@njit(cache=True)
def cut_bottom(opts, gdeck, st_aim):
    """Bottom portion B of the cut (§5.3, A9), drawn from the hand's stream."""
    return cut_outcome(opts, st_aim, below(gdeck, cut_count(opts)))


@njit(cache=True, inline='always')
def inspected_keep(opts, c):
    """An inspected card c (one of the three above the bottom portion) at the cut: 0 it stays in
    the deck (not a joker, or cut_joker_keep=off), 1 the cutter keeps it (mandatory), 2 the cutter
    decides (optional: ``keeps_joker``, a plug-in's K_KEEP, the step API's keep decision)."""
    if c != JK or opts[O_CUT_JOKERS] == 2:
        return 0
    return 2 if opts[O_CUT_JOKERS] == 1 else 1


@njit(cache=True)
def keeps_joker(st, opts, sid, kept, gplay):
    """The cutter keeps an inspected joker (A11): optional keep, random: a coin; planner:
    while it kept fewer than CUT_KEEPS (its keep_jokers); a plug-in that chose (K_KEEP): as
    many as it said; the others keep every one."""
    if opts[O_CUT_JOKERS] == 2:
        return False
    if opts[O_CUT_JOKERS] == 1 and sid >= PLUGIN:
        if st[KEEP_SET]:                    # the plug-in chose (K_KEEP): at most CUT_KEEPS
            return kept < st[CUT_KEEPS]
        sid -= PLUGIN                       # else its base
    if opts[O_CUT_JOKERS] == 1 and sid == S_RANDOM:
        return below(gplay, 2) == 1
    if opts[O_CUT_JOKERS] == 1 and (planner_like(sid) or sid == S_SEARCH):
        return kept < st[CUT_KEEPS]
    return True


@njit(cache=True)
def cut_sequence(st, opts, b, cutter, sids, gplay):
    """The cutter's keeps of the inspected jokers (``inspected_keep``, ``keeps_joker``), then the
    dealing sequence (``cut_apply``). Returns the number of jokers kept."""
    t = DECK_SIZE - b
    keep = 0
    kept = 0
    for j in range(3):
        k = inspected_keep(opts, st[STOCK + t - 3 + j])
        if k == 1 or (k == 2 and keeps_joker(st, opts, sids[cutter], kept, gplay)):
            keep |= 1 << j
            kept += 1
    return cut_apply(st, b, cutter, keep)


@njit(cache=True)
def cut_apply(st, b, cutter, keep):
    """Reorder the shuffled deck (STOCK, top first) into the dealing sequence: the bottom
    portion, then the top portion minus the inspected jokers kept (bit j of ``keep``: the
    inspected card j, from the top portion's third last), which go to the cutter. Returns the
    number of jokers kept."""
    t = DECK_SIZE - b
    n = 0
    for i in range(t, DECK_SIZE):
        st[POOL + n] = st[STOCK + i]
        n += 1
    kept = 0
    for i in range(t):
        c = st[STOCK + i]
        if i >= t - 3 and (keep >> (i - (t - 3))) & 1:
            known_give(st, cutter, JK)
            kept += 1
        else:
            st[POOL + n] = c
            n += 1
    for i in range(n):
        st[STOCK + i] = st[POOL + i]
    st[STOCK_LO] = 0
    st[STOCK_HI] = n
    return kept


@njit(cache=True)
def exact_cut(opts, n, b, kept):
    """The cut is exact (§5.7, A8): the bottom portion held the dealt cards (plus the
    upcard, unless the dealer opens instead)."""
    target = opts[O_EXACT_TARGET]
    dealt = opts[O_CARDS] * n + opts[O_DEALER_OPENS] - kept
    up = 0 if opts[O_DEALER_OPENS] else 1
    return ((target != 1 and b == dealt + up) or (target != 0 and b == dealt))


@njit(cache=True)
def deal_holdings(st, opts, dealer):
    """One card at a time from next(dealer) until every holding has cards_dealt cards (the
    dealer one more when it opens)."""
    n = st[N]
    done = False
    while not done:
        done = True
        for k in range(1, n + 1):
            p = (dealer + k) % n
            if held(st, p) < opts[O_CARDS] + (opts[O_DEALER_OPENS] if p == dealer else 0):
                give(st, p, st[STOCK + st[STOCK_LO]])
                st[STOCK_LO] += 1
                done = False


@njit(cache=True)
def exact_bonus(st, opts, cutter, gplay, trace):
    """Reward an exact cut (A7)."""
    kind = opts[O_EXACT_BONUS]
    if kind == 0:
        st[CHIPS + cutter] += 1
    elif kind == 1:
        draw_to(st, opts, cutter, 1, gplay, trace)
    elif kind == 2 or kind == 4:
        bonus = opts[O_EXACT_POINTS] if kind == 2 else st[LASTPEN + cutter]
        st[PEN + cutter] -= bonus
        st[TOTAL + cutter] -= bonus


@njit(cache=True)
def reset_hand(st, h, dealer):
    """Clear what a hand writes; keep chips, totals and the game counters."""
    n = st[N]
    trunc, first, tr_len = st[TRUNC], st[FIRST_DEALER], st[TR_LEN]
    for i in range(CUR, GAME_TURNS):
        st[i] = 0
    st[TRUNC], st[FIRST_DEALER], st[TR_LEN] = trunc, first, tr_len
    st[EX_SEAT] = 0
    st[WIN_SKIP] = 0
    st[HNO] = h
    st[DEALER] = dealer
    st[DISCARD] = -1
    st[OUT] = -1
    st[HREASON] = -1
    st[CONTRACT] = h
    st[UP_OFFER] = 0
    for p in range(n):
        for f in (H1, H2, HJ, HT, DOWN, DOWN_TURN, BUYS, PEN, EXK):
            st[f + p] = 0
    for i in range(KN, KN + KN_STRIDE * MAX_PLAYERS):
        st[i] = 0


@njit(cache=True)
def deal_hand(st, opts, h, dealer, sids, gdeck, gplay, trace):
    """Shuffle, cut, deal and turn the upcard of hand h (§5)."""
    for i in range(DECK_SIZE):
        st[STOCK + i] = i // 2 if i < 104 else JK
    shuffle(gdeck, st, STOCK, STOCK + DECK_SIZE)
    deal_cut(st, opts, h, dealer, cut_bottom(opts, gdeck, st[CUT_AIMED]), sids, gplay, trace)


@njit(cache=True)
def deal_cut(st, opts, h, dealer, b, sids, gplay, trace):
    """Cut the shuffled deck in STOCK (top first) with bottom portion b, deal and turn the
    upcard of hand h (the critique's cut worlds deal their own decks through it)."""
    n = st[N]
    cutter = (dealer + n - 1) % n
    kept = cut_sequence(st, opts, b, cutter, sids, gplay)
    deal_after_cut(st, opts, h, dealer, b, kept, trace)
    if st[CUT_EXACT]:
        exact_bonus(st, opts, cutter, gplay, trace)


@njit(cache=True)
def deal_after_cut(st, opts, h, dealer, b, kept, trace):
    """Deal the dealing sequence (``cut_apply``: bottom portion b, ``kept`` jokers to the
    cutter) and turn the upcard of hand h; the cut's fields and trace rows (an exact cut's
    bonus follows: ``exact_bonus``)."""
    n = st[N]
    cutter = (dealer + n - 1) % n
    deal_holdings(st, opts, dealer)
    st[UPCARD] = -1
    if opts[O_DEALER_OPENS] == 0:
        st[UPCARD] = st[STOCK + st[STOCK_LO]]
        st[STOCK_LO] += 1
        pile_push(st, st[UPCARD])
    st[CUT_B] = b
    st[CUT_KEPT] = kept
    st[CUT_EXACT] = 1 if exact_cut(opts, n, b, kept) else 0
    log(st, trace, T_HAND, dealer, h, dealer, st[CONTRACT])
    log(st, trace, T_CUT, cutter, b, kept, st[CUT_EXACT])
    for p in range(n):
        log(st, trace, T_DEAL, p, st[H1 + p], st[H2 + p], st[HJ + p], st[HT + p])
    if st[UPCARD] >= 0:
        log(st, trace, T_UPCARD, -1, st[UPCARD], 0, 0)


# =============================================================================
# turns, the upcard, the buy window (§7, §8), the exchange (§6)
# =============================================================================
@njit(cache=True)
def turn_start(st, opts, p):
    """Seat p starts a turn; False when the turn cap ends the hand (A32)."""
    if st[TURN] >= opts[O_MAX_TURNS]:
        end_hand(st, H_TURN_CAP)
        return False
    st[TURN] += 1
    st[CUR] = p
    st[TABLE_ACTS] = 0
    st[JOKER_DUE] = 0
    st[TAKEN] = -1
    st[PHASE] = P_ACT
    return True


@njit(cache=True)
def start_and_draw(st, opts, p, k, gplay, trace):
    """Seat p starts its turn and draws k cards."""
    if turn_start(st, opts, p):
        draw_to(st, opts, p, k, gplay, trace)


@njit(cache=True)
def may_buy(st, opts, p):
    """Seat p may buy the card on offer (§8.2, A16, A18, A37)."""
    if p == st[DISCARDER] and opts[O_DISCARDER_BUYS] == 0:
        return False
    if p == st[NEXTP] and st[WIN_SKIP]:
        return False
    if (st[CHIPS + p] <= 0 and not free_buy(st, opts, p)) or opts[O_NO_BUY + st[CONTRACT]] != 0:
        return False
    return st[DOWN + p] == 0 or opts[O_BUY_AFTER_DOWN] != 0


@njit(cache=True, inline='always')
def free_buy(st, opts, p):
    """A purchase by seat p now costs no chip: in turn, when in_turn_buy_costs_chip is off."""
    return p == st[NEXTP] and not st[WIN_SKIP] and opts[O_IN_TURN_CHIP] == 0


@njit(cache=True)
def next_asked(st, opts, after):
    """The next seat to ask after priority step ``after`` (1 = next(discarder) ..
    n = the discarder), -1 when nobody else may buy."""
    n = st[N]
    for k in range(after + 1, n + 1):
        p = (st[DISCARDER] + k) % n
        if may_buy(st, opts, p):
            return p
    return -1


@njit(cache=True)
def close_window(st, opts, gplay, trace):
    """Nobody bought: the player due draws normally, or (take_discard) chooses between the
    top discard and the stock."""
    st[DISCARD] = -1
    p = st[NEXTP]
    if st[WIN_SKIP]:
        st[PHASE] = P_ACT
        draw_to(st, opts, p, 1, gplay, trace)
    elif opts[O_TAKE_DISCARD] and st[PILE_LEN] > 0:
        if turn_start(st, opts, p):
            st[PHASE] = P_UPCARD
            st[UP_OFFER] = 0
    else:
        start_and_draw(st, opts, p, 1, gplay, trace)


@njit(cache=True)
def open_window(st, opts, discarder, card, skip_next, gplay, trace):
    """Offer ``card`` (on top of the pile) to the seats in priority order (§8.3)."""
    st[DISCARD] = card
    st[DISCARDER] = discarder
    st[NEXTP] = nxt(st, discarder)
    st[WIN_SKIP] = skip_next
    st[ASK] = next_asked(st, opts, 0)
    if st[ASK] < 0:
        close_window(st, opts, gplay, trace)
    else:
        st[PHASE] = P_BUY


@njit(cache=True)
def priority_step(st, p):
    return (p - st[DISCARDER] + st[N] - 1) % st[N] + 1


@njit(cache=True)
def buy(st, opts, gplay, trace):
    """The asked seat buys (§8.4): discard + penalty cards, in turn also the draw."""
    b = st[ASK]
    if not free_buy(st, opts, b):
        st[CHIPS + b] -= 1
    st[BUYS + b] += 1
    st[GBUYS + b] += 1
    known_give(st, b, pile_pop(st))
    st[DISCARD] = -1
    pen = opts[O_BUY_PENALTY]
    p = st[NEXTP]
    if b == p and not st[WIN_SKIP]:
        start_and_draw(st, opts, p, pen + 1, gplay, trace)
        return
    if draw_to(st, opts, b, pen, gplay, trace):
        if st[WIN_SKIP]:
            st[PHASE] = P_ACT
            draw_to(st, opts, p, 1, gplay, trace)
        else:
            start_and_draw(st, opts, p, 1, gplay, trace)


@njit(cache=True)
def pass_buy(st, opts, gplay, trace):
    st[ASK] = next_asked(st, opts, priority_step(st, st[ASK]))
    if st[ASK] < 0:
        close_window(st, opts, gplay, trace)


@njit(cache=True)
def begin_play(st, opts, gplay, trace):
    """After the deal (and the exchange): the first turn (§7 step A, A10), or the dealer's
    opening discard (dealer_opens)."""
    first = nxt(st, st[DEALER])
    if opts[O_DEALER_OPENS]:
        if turn_start(st, opts, st[DEALER]):
            st[PHASE] = P_OPEN
    elif opts[O_FREE_UPCARD]:
        if turn_start(st, opts, first):
            st[PHASE] = P_UPCARD
            st[UP_OFFER] = 1
    elif opts[O_UPCARD_BUYABLE]:
        open_window(st, opts, st[DEALER], st[UPCARD], 0, gplay, trace)
    else:
        start_and_draw(st, opts, first, 1, gplay, trace)


@njit(cache=True)
def decline_upcard(st, opts, gplay, trace):
    """The player draws instead; the hand's upcard may then be bought by the others."""
    if st[UP_OFFER] and opts[O_UPCARD_BUYABLE]:
        open_window(st, opts, st[DEALER], st[UPCARD], 1, gplay, trace)
    else:
        st[PHASE] = P_ACT
        draw_to(st, opts, st[CUR], 1, gplay, trace)


@njit(cache=True)
def start_exchange(st):
    st[PHASE] = P_EXCHANGE
    st[CUR] = nxt(st, st[DEALER])
    st[EX_SEAT] = 0
    st[POOL_LEN] = 0
    for p in range(st[N]):
        st[EXK + p] = 0


@njit(cache=True)
def exchange_card(st, c):
    take(st, st[CUR], c)
    st[POOL + st[POOL_LEN]] = c
    st[POOL_LEN] += 1
    st[EXK + st[CUR]] += 1


@njit(cache=True)
def exchange_done(st, opts, gplay, trace):
    """CUR has chosen; after the last seat, shuffle the pool and give each seat back as
    many cards as it passed (§6)."""
    st[EX_SEAT] += 1
    st[CUR] = nxt(st, st[CUR])
    if st[EX_SEAT] < st[N]:
        return
    shuffle(gplay, st, POOL, POOL + st[POOL_LEN])
    i = 0
    for k in range(1, st[N] + 1):
        p = (st[DEALER] + k) % st[N]
        for _ in range(st[EXK + p]):
            give(st, p, st[POOL + i])
            i += 1
        if st[EXK + p] > 0:                         # what it passed is private: nothing known stays
            for c in range(KN_STRIDE):
                st[KN + KN_STRIDE * p + c] = 0
        log(st, trace, T_EXCHANGE, p, st[H1 + p], st[H2 + p], st[HJ + p], st[HT + p])
    st[POOL_LEN] = 0
    st[EX_ROUND] -= 1
    if st[EX_ROUND] > 0:
        start_exchange(st)
    else:
        begin_play(st, opts, gplay, trace)


@njit(cache=True)
def start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace):
    """Deal hand h; then the dealer's choice of contract (dealer_chooses_contract), the
    exchange and play."""
    reset_hand(st, h, dealer)
    deal_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
    open_hand(st, opts, gplay, trace)


@njit(cache=True)
def open_hand(st, opts, gplay, trace):
    """After the deal: the dealer's choice of contract (dealer_chooses_contract), else the
    exchange and play (after_deal)."""
    if opts[O_CHOOSE]:
        st[PHASE] = P_CHOOSE
        st[CUR] = st[DEALER]
    else:
        after_deal(st, opts, gplay, trace)


@njit(cache=True)
def after_deal(st, opts, gplay, trace):
    """The exchange rounds of this hand (by hand number, §6), then the first turn."""
    st[EX_ROUND] = opts[O_EXCHANGE + st[HNO]]
    if st[EX_ROUND] > 0:
        start_exchange(st)
    else:
        begin_play(st, opts, gplay, trace)


@njit(cache=True)
def choose_contract(st, opts, k, gplay, trace):
    """The dealer plays contract k this hand (each contract once in the game)."""
    st[CONTRACT] = k
    st[USED] |= np.int64(1) << k
    after_deal(st, opts, gplay, trace)


# =============================================================================
# the table's cards; the hands that need a purchase to be won (read by the strategies and close)
# =============================================================================
@njit(cache=True)
def table_cards(tab, k):
    n = 0
    for i in range(k):
        n += popcount(tab[i, M.M_P1]) + popcount(tab[i, M.M_P2]) + tab[i, M.M_JOKERS]
    return n


@njit(cache=True)
def contract_cards(opts, k):
    """Fewest cards a go-down with contract k (its first row) lays."""
    spec = spec_of(opts, k)
    return spec[M.C_GROUPS] * spec[M.C_GROUP_SIZE] + spec[M.C_RUNS] * spec[M.C_RUN_MIN]


@njit(cache=True)
def can_grow(st, opts, p):
    """Seat p's holding can still grow by purchases this hand (chips, or free in-turn buys)."""
    if opts[O_NO_BUY + st[CONTRACT]] != 0 or (st[DOWN + p] and opts[O_BUY_AFTER_DOWN] == 0):
        return False
    return st[CHIPS + p] > 0 or opts[O_IN_TURN_CHIP] == 0


@njit(cache=True)
def closed_contract(opts, k):
    """Contract k's melds are closed once laid: groups only (no alternative) of the largest
    size a group can have when identical cards are not allowed (A3: four naturals, one of each
    suit, and every wild card a group may hold), so nothing can ever be laid off onto them nor
    a joker freed from them (venezuela joker model)."""
    rules = rules_of(opts)
    spec = spec_of(opts, k)
    return rules[M.R_GROUP_DUPS] == 0 and opts[O_EXCHANGE_MODEL] == 0 and spec[M.C_NEXT] == 0 \
        and spec[M.C_RUNS] == 0 and spec[M.C_GROUPS] > 0 and spec[M.C_GROUP_SIZE] >= 4 + rules[M.R_GROUP_WILDS]


@njit(cache=True)
def needs_growth(opts, k):
    """Contract k is closed (``closed_contract``) and a dealt holding and its draw, going
    down, would keep too few cards for an extra meld and too many for one discard: no seat
    goes out of that hand without a purchase (or another's extra meld). Venezuela's Hand 6
    (5+5) under ``groups_allow_duplicate_suits=false``."""
    if not closed_contract(opts, k) or opts[O_CHOOSE]:
        return False
    left = opts[O_CARDS] + 1 - contract_cards(opts, k)
    return 2 <= left < 3 + (opts[O_FINAL_DISCARD] != 0)


@njit(cache=True)
def growth_hands_after(st, opts):
    """Hands after this one that need a purchase to be won (``needs_growth``)."""
    k = 0
    if rules_of(opts)[M.R_GROUP_DUPS] == 0:          # (identical cards allowed: no such hand)
        for h in range(st[HNO] + 1, opts[O_HANDS] + 1):
            if needs_growth(opts, h):
                k += 1
    return k


@njit(cache=True)
def closed_hand(st, opts):
    """No seat's holding can grow this hand and every contract meld is closed once laid
    (``closed_contract``): Venezuela's Hand 6 (5+5) under
    ``groups_allow_duplicate_suits=false`` once every chip is spent."""
    if not closed_contract(opts, st[CONTRACT]):
        return False
    for p in range(st[N]):
        if can_grow(st, opts, p):
            return False
    return True


@njit(cache=True)
def stuck_down(st, opts, p, drawn=False):
    """In a closed hand (``closed_hand``), seat p (not down) going down at its turn (after its
    draw; ``drawn``: it has drawn already) could never go out: it would keep at least two cards
    (one discard cannot empty its holding) and too few for an extra meld (three, and a discard
    under final_discard_required), and, its holding never growing, it could afterwards only lay
    off, onto closed melds or melds no seat can add."""
    left = held(st, p) + (0 if drawn else 1) - contract_cards(opts, st[CONTRACT])
    return 2 <= left < 3 + (opts[O_FINAL_DISCARD] != 0)
