"""The end of a Telefunken hand and game: the penalties (``score_hand``), the record rows
(``write_hand``, ``write_game``), and the turn cap's test of a blocked hand (``hand_blocked``, A32)."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.telefunken.layout import (
    A_DISCARD, A_GO_DOWN, A_MELD, BIG, BUYS, CAPPED, CHIPS, CONTRACT, CUR, CUT_B, CUT_EXACT, CUT_KEPT, DOWN, ERR,
    FIRST_DEALER, GAME_RESHUF, GAME_TURNS, GBUYS, G_COMPLETE, G_TRUNCATED, H1, H2, HB_BUYS, HB_CHIPS, HB_CONTRACT,
    HB_CUT, HB_EXACT, HB_KEPT, HB_OUT, HB_PEN, HB_REASON, HB_RESHUF, HB_SIZE, HB_TURNS, HJ, HNO, HREASON, HT, JK,
    JOKER_DUE, LASTPEN, N, OUT, O_CHOOSE, O_FINAL_DISCARD, O_HANDS, O_LEFTOVER_POINTS, PEN, PHASE, PILE, PILE_LEN,
    POOL, POOL_LEN, P_ACT, RC_BUYS, RC_CAPPED, RC_CHIPS, RC_CHOSEN, RC_DEALER, RC_ERR, RC_HAND, RC_HANDS,
    RC_REASON, RC_RESHUF, RC_TOTAL, RC_TRUNC, RC_TURNS, RC_WINNER, RC_WINNERS, RESHUF, STOCK, STOCK_HI, STOCK_LO,
    TABLE_ACTS, TAKEN, TOTAL, TRUNC, TURN, T_SCORE,
)
from cardsim.kernels.telefunken.rules import (
    can_grow, closed_hand, give, hand7_at_once, held, log, rules_of, stuck_down, twos_count,
)
from cardsim.kernels.telefunken.legal import legal_down, legal_not_down


# =============================================================================
# the end of a hand and of a game
# =============================================================================
@njit(cache=True)
def score_hand(st, opts, trace):
    """Everybody but the player who went out adds the penalty of the holding (§13)."""
    rules = rules_of(opts)
    for p in range(st[N]):
        if p != st[OUT]:
            pen = holding_points(st, p, rules)
            st[PEN + p] += pen
            st[TOTAL + p] += pen
        st[LASTPEN + p] = st[PEN + p]
        log(st, trace, T_SCORE, p, st[PEN + p], st[TOTAL + p], 0)


@njit(cache=True)
def holding_points(st, p, rules):
    """Penalty of seat p's holding (§2): naturals, jokers, wild twos (the 2's points)."""
    return (M.penalty_rules(st[H1 + p], st[H2 + p], st[HJ + p], rules)
            + twos_count(st[HT + p]) * rules[M.R_POINTS + 1])


@njit(cache=True)
def write_hand(st, row):
    b = RC_HAND + (st[HNO] - 1) * HB_SIZE
    row[b + HB_OUT] = st[OUT]
    row[b + HB_REASON] = st[HREASON]
    row[b + HB_TURNS] = st[TURN]
    row[b + HB_RESHUF] = st[RESHUF]
    row[b + HB_CUT] = st[CUT_B]
    row[b + HB_KEPT] = st[CUT_KEPT]
    row[b + HB_EXACT] = st[CUT_EXACT]
    row[b + HB_CONTRACT] = st[CONTRACT]
    for p in range(st[N]):
        row[b + HB_PEN + p] = st[PEN + p]
        row[b + HB_CHIPS + p] = st[CHIPS + p]
        row[b + HB_BUYS + p] = st[BUYS + p]


@njit(cache=True)
def write_game(st, opts, row):
    """Totals (with leftover-chip points), the winner(s), the game counters."""
    n = st[N]
    low = BIG
    for p in range(n):
        st[TOTAL + p] += st[CHIPS + p] * opts[O_LEFTOVER_POINTS]
        low = min(low, st[TOTAL + p])
    mask = 0
    for p in range(n):
        if st[TOTAL + p] == low:
            mask |= 1 << p
        row[RC_TOTAL + p] = st[TOTAL + p]
        row[RC_CHIPS + p] = st[CHIPS + p]
        row[RC_BUYS + p] = st[GBUYS + p]
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_WINNERS] = mask
    row[RC_WINNER] = lowbit(np.int64(mask)) if popcount(np.int64(mask)) == 1 else -1
    truncated = st[TRUNC] != 0 or st[CAPPED] > 0
    row[RC_REASON] = G_TRUNCATED if truncated else G_COMPLETE
    row[RC_TRUNC] = truncated
    row[RC_CAPPED] = st[CAPPED]
    row[RC_ERR] = st[ERR]
    row[RC_TURNS] = st[GAME_TURNS]
    row[RC_RESHUF] = st[GAME_RESHUF]
    row[RC_HANDS] = opts[O_HANDS]
    row[RC_CHOSEN] = opts[O_CHOOSE]


@njit(cache=True)
def totals_ok(st, opts, row):
    """Each total is the sum of its hand penalties (+ leftover-chip points)."""
    for p in range(st[N]):
        s = st[CHIPS + p] * opts[O_LEFTOVER_POINTS]
        for h in range(opts[O_HANDS]):
            s += row[RC_HAND + h * HB_SIZE + HB_PEN + p]
        if s != st[TOTAL + p]:
            return False
    return True


@njit(cache=True)
def pool_to(st, t, p):
    """Seat p of state copy t holds every card off the table in st: all holdings, the
    stock, the discard pile and the exchange pool."""
    t[H1 + p], t[H2 + p], t[HJ + p], t[HT + p] = 0, 0, 0, 0
    for q in range(st[N]):
        for plane in (st[H1 + q], st[H2 + q]):
            m = plane
            while m:
                give(t, p, lowbit(m))
                m &= m - 1
        for _ in range(st[HJ + q]):
            give(t, p, JK)
        for s in range(4):
            for _ in range((st[HT + q] >> (2 * s)) & 3):
                give(t, p, s * 13 + 1)
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        give(t, p, st[STOCK + i])
    for i in range(st[PILE_LEN]):
        give(t, p, st[PILE + i])
    for i in range(st[POOL_LEN]):
        give(t, p, st[POOL + i])


@njit(cache=True)
def hand_blocked(st, opts, tab, sc, mo, acts):
    """The hand is blocked (A32): even holding every card off the table, at a fresh turn no
    seat would have a table action (go down, meld, lay off, joker operation), only discards;
    so the table can never change, and no holding can shrink. A seat that is down and can
    no longer buy holds at most one card more than now when it acts, so an extra meld counts
    only when that many cards could make one (three, and one to discard under
    final_discard_required). In a closed hand (``closed_hand``: no holding can grow, the
    contract melds accept nothing once laid) a go-down that would leave its seat stuck
    (``stuck_down``) counts for nothing either: the table would change, but nobody could ever
    go out. Asked when the turn cap ends a hand. Never in a Hand 7 laid at once (a seat must
    lay its own whole holding there, which the pooled holding cannot judge)."""
    if hand7_at_once(st, opts):
        return False
    closed = closed_hand(st, opts)
    t = st.copy()
    t[TURN] += 1                                    # a fresh turn: no meld of "this turn"
    t[PHASE], t[TABLE_ACTS], t[JOKER_DUE], t[TAKEN] = P_ACT, 0, 0, -1
    for p in range(st[N]):
        pool_to(st, t, p)
        t[CUR] = p
        n = legal_down(t, opts, tab, sc, acts) if t[DOWN + p] else legal_not_down(t, opts, tab, mo, acts)
        small = st[DOWN + p] and not can_grow(st, opts, p) and \
            held(st, p) + 1 < 3 + (opts[O_FINAL_DISCARD] != 0)
        for i in range(n):
            kind = acts[i] & 15
            if kind == A_DISCARD or (kind == A_MELD and small):
                continue
            if kind == A_GO_DOWN and closed and stuck_down(st, opts, p):
                continue
            return False
        t[H1 + p], t[H2 + p], t[HJ + p], t[HT + p] = st[H1 + p], st[H2 + p], st[HJ + p], st[HT + p]
    return True
