"""Contract Rummy's rules around the turn: small helpers (the trace, hands, the floating rules and
the deal's contract), the stock and the discard pile (§12: draws, reshuffles, the step mode's
feed), the deal (§5, §15.2: the pack, the LIVERPOOL cut, the hands and the up-card) and the
check mode's invariants.
"""
import numpy as np
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.jit import njit, trace_put
from cardsim.kernels.rng import shuffle, uniform
from cardsim.kernels.contract_rummy.layout import (
    COOL, CUR, CUT_OK, C_STRIDE, DEAL, DEALER, DOWN, DREASON, D_DEAD_STOCK, D_STOPPED, E_CAP, E_CARDS, E_HAND, E_MAYI,
    E_MELD, FEED_ROOM, F_KIND, GAIN, HAND, HOLD, HSIZE, JK, JOKER_DUE, KNOWN, LASTK, LOSS, MAYI, MELD_TURN, N, NMELDS,
    OOT, OUT, O_CONTRACTS, O_CUT_POINTS, O_CUT_PPB, O_CUT_RECIP, O_DEAL7_SPECIAL, O_DECKS, O_HAND, O_JOKERS,
    O_MAX_TURNS, O_MAYI_LIMIT, O_RULES, PCARDS, PEN, PERR, PILE, PILE_K, PILE_LEN, PTURN, RESHUF, STOCK, STOCK_HI,
    STOCK_LO, TAKEN, TOP_FROM, TOTAL, TR_LEN, TURN, T_DEAL, T_DISCARD, T_DRAW, T_HOLD, T_RESHUFFLE, T_UPCARD, XFEED,
    XFEED_LEN, XFEED_POS, XNEED, XSTEP,
)
from cardsim.kernels.contract_rummy.actions import pack_sizes, pile_card, pile_entry, pile_k


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True)
def log(st, trace, code, seat, a, b, c, d):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True)
def sizes(st, p):
    """Trace column d: cards held by seat p (0 for -1), stock and discard pile sizes."""
    held = st[HSIZE + p] if p >= 0 else 0
    return pack_sizes(held, st[STOCK_HI] - st[STOCK_LO], st[PILE_LEN])


@njit(cache=True)
def hand_of(st, p):
    return st[HAND + HOLD * p:HAND + HOLD * (p + 1)]


@njit(cache=True)
def give(st, p, c):
    st[HAND + HOLD * p + c] += 1
    st[HSIZE + p] += 1
    st[GAIN + p] += 1


@njit(cache=True)
def take(st, p, c):
    st[HAND + HOLD * p + c] -= 1
    if st[KNOWN + HOLD * p + c] > 0:
        st[KNOWN + HOLD * p + c] -= 1
    st[HSIZE + p] -= 1
    st[LOSS + p] += 1


@njit(cache=True)
def rules_of(opts):
    return opts[O_RULES:O_RULES + F.RF_SIZE]


@njit(cache=True)
def spec_of(opts, d):
    return opts[O_CONTRACTS + d * C_STRIDE:O_CONTRACTS + d * C_STRIDE + F.CF_SIZE]


@njit(cache=True)
def special7(st, opts):
    return opts[O_DEAL7_SPECIAL] == 1 and st[DEAL] == 7


@njit(cache=True)
def end_deal(st, reason, out):
    if st[DREASON] < 0:
        st[DREASON] = reason
        st[OUT] = out


@njit(cache=True)
def over(st):
    return st[DREASON] >= 0


# =============================================================================
# stock and discard pile (§12)
# =============================================================================
@njit(cache=True)
def reshuffle(st, gplay, trace):
    """All of the discard pile but its top card becomes the new, shuffled stock."""
    m = st[PILE_LEN] - 1
    for i in range(m):
        st[STOCK + i] = pile_card(st[PILE + i])
    st[PILE] = st[PILE + m]
    st[PILE_LEN] = 1
    st[STOCK_LO] = 0
    st[STOCK_HI] = m
    if st[XSTEP] == 0:
        shuffle(gplay, st, STOCK, STOCK + m)
    st[RESHUF] += 1
    log(st, trace, T_RESHUFFLE, -1, m, 0, 0, sizes(st, -1))


@njit(cache=True)
def stock_card(st, opts, gplay, trace):
    """Top stock card (reshuffling when needed), or -1: dead stock ends the deal."""
    if st[STOCK_LO] == st[STOCK_HI]:
        if st[PILE_LEN] <= 1:
            end_deal(st, D_DEAD_STOCK, -1)
            return -1
        reshuffle(st, gplay, trace)
    if st[XSTEP]:
        return feed_card(st)
    c = st[STOCK + st[STOCK_LO]]
    st[STOCK_LO] += 1
    return c


@njit(cache=True)
def feed_card(st):
    """Step mode: the feed's next card, moved to the stock's top and drawn; -1 when the feed is
    spent (XNEED 1) or names a card the stock lacks (XNEED 2): the turn stops (the deal reads as
    over) until chance deals the card."""
    i = st[XFEED_POS]
    lo = st[STOCK_LO]
    if i < st[XFEED_LEN] and i < FEED_ROOM:
        c = st[XFEED + i]
        for k in range(lo, st[STOCK_HI]):
            if st[STOCK + k] == c:
                st[STOCK + k] = st[STOCK + lo]
                st[STOCK + lo] = c
                st[XFEED_POS] = i + 1
                st[STOCK_LO] = lo + 1
                return c
        st[XNEED] = 2
    else:
        st[XNEED] = 1
    st[PERR] = 1
    end_deal(st, D_STOPPED, -1)
    return -1


@njit(cache=True)
def draw(st, opts, p, gplay, trace):
    """Seat p draws from the stock; False when the deal ended (dead stock)."""
    c = stock_card(st, opts, gplay, trace)
    if c < 0:
        return False
    give(st, p, c)
    log(st, trace, T_DRAW, p, c, 0, 0, sizes(st, p))
    return True


@njit(cache=True)
def discard(st, p, c, oot, trace):
    take(st, p, c)
    st[PILE_K] += 1
    st[PILE + st[PILE_LEN]] = pile_entry(c, st[PILE_K])
    st[PILE_LEN] += 1
    st[TOP_FROM] = p
    log(st, trace, T_DISCARD, p, c, oot, 0, sizes(st, p))


@njit(cache=True)
def top_card(st):
    return pile_card(st[PILE + st[PILE_LEN] - 1])


@njit(cache=True)
def top_k(st):
    return pile_k(st[PILE + st[PILE_LEN] - 1])


@njit(cache=True)
def pile_pop(st):
    st[PILE_LEN] -= 1
    return pile_card(st[PILE + st[PILE_LEN]])


# =============================================================================
# dealing (§5, §15.2)
# =============================================================================
@njit(cache=True)
def reset_deal(st, d, dealer):
    n = st[N]
    st[DEAL] = d
    st[DEALER] = dealer
    st[TURN] = 0
    st[OUT] = -1
    st[DREASON] = -1
    st[RESHUF] = 0
    st[NMELDS] = 0
    st[PILE_LEN] = 0
    st[PILE_K] = 0
    st[TAKEN] = -1
    st[JOKER_DUE] = 0
    st[TOP_FROM] = -1
    for p in range(n):
        for f in (DOWN, MELD_TURN, PTURN, MAYI, OOT, COOL, PEN, HSIZE, GAIN, LOSS, PCARDS):
            st[f + p] = 0
        st[LASTK + p] = -10
    st[HAND:STOCK] = 0
    st[KNOWN:F_KIND] = 0
    st[F_KIND] = 0


@njit(cache=True)
def build_pack(st, opts):
    i = 0
    for c in range(52):
        for _ in range(opts[O_DECKS]):
            st[STOCK + i] = c
            i += 1
    for _ in range(opts[O_JOKERS]):
        st[STOCK + i] = JK
        i += 1
    st[STOCK_LO] = 0
    st[STOCK_HI] = i


@njit(cache=True)
def shuffle_cut(st, opts, gdeck):
    """The deal's pack shuffled into the stock from the deal's stream ``gdeck``, then LIVERPOOL's
    cut: 1 when the cutter prev(dealer) cuts exactly (cut_success_prob, §15.2), 0 otherwise or
    with no cut bonus (no draw then). The step API orders the batch's pack with it too."""
    build_pack(st, opts)
    shuffle(gdeck, st, STOCK, STOCK + st[STOCK_HI])
    if opts[O_CUT_POINTS] == 0:
        return 0
    return 1 if uniform(gdeck) * 1e9 < opts[O_CUT_PPB] else 0


@njit(cache=True)
def cut_result(st, opts, ok):
    """The cut succeeded (``ok``) or not; a success's bonus to the cutter (cut_bonus_recipient)."""
    st[CUT_OK] = ok
    if ok and opts[O_CUT_RECIP] == 0:
        st[TOTAL + (st[DEALER] + st[N] - 1) % st[N]] -= opts[O_CUT_POINTS]


@njit(cache=True)
def start_deal(st, opts, d, dealer, gdeck, trace):
    """Shuffle, cut, deal h_d cards one at a time from next(dealer), turn the up-card."""
    reset_deal(st, d, dealer)
    cut_result(st, opts, shuffle_cut(st, opts, gdeck))
    log(st, trace, T_DEAL, -1, d, dealer, st[CUT_OK], sizes(st, -1))
    deal_stock(st, opts, trace)


@njit(cache=True)
def deal_stock(st, opts, trace):
    """Deal h_d cards one at a time from next(dealer), from the stock's top, and turn the
    up-card (the step API deals its chance-dealt pack this way too)."""
    d, dealer = st[DEAL], st[DEALER]
    n = st[N]
    for _ in range(opts[O_HAND + d]):
        for k in range(1, n + 1):
            p = (dealer + k) % n
            st[HAND + HOLD * p + st[STOCK + st[STOCK_LO]]] += 1
            st[HSIZE + p] += 1
            st[STOCK_LO] += 1
    if trace.shape[0] > 0:
        for p in range(n):
            for c in range(HOLD):
                if st[HAND + HOLD * p + c] > 0:
                    log(st, trace, T_HOLD, p, c, st[HAND + HOLD * p + c], 0, sizes(st, p))
    st[PILE] = pile_entry(st[STOCK + st[STOCK_LO]], 0)
    st[STOCK_LO] += 1
    st[PILE_LEN] = 1
    log(st, trace, T_UPCARD, -1, pile_card(st[PILE]), 0, 0, sizes(st, -1))
    st[CUR] = (dealer + 1) % n


# =============================================================================
# invariants (check mode)
# =============================================================================
@njit(cache=True)
def table_counts(tab, n, cnt):
    for i in range(n):
        row = tab[i]
        cnt[JK] += row[M.M_JOKERS]
        if row[M.M_KIND] == M.MK_GROUP:
            for s in range(4):
                cnt[s * 13 + row[M.M_KEY]] += (row[M.M_P1] >> (4 * s)) & 15
        else:
            s = row[M.M_KEY]
            cnt[s * 13] += row[M.M_P2]
            for r in range(1, 13):
                cnt[s * 13 + r] += (row[M.M_P1] >> (r + 1)) & 1


@njit(cache=True)
def cards_ok(st, opts, tab):
    """Every card of the pack is in exactly one place (hands, stock, pile, table)."""
    cnt = np.zeros(HOLD, np.int64)
    table_counts(tab, st[NMELDS], cnt)
    for p in range(st[N]):
        cnt += hand_of(st, p)
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        cnt[st[STOCK + i]] += 1
    for i in range(st[PILE_LEN]):
        cnt[pile_card(st[PILE + i])] += 1
    for c in range(52):
        if cnt[c] != opts[O_DECKS]:
            return False
    return cnt[JK] == opts[O_JOKERS]


@njit(cache=True)
def hands_ok(st, opts):
    for p in range(st[N]):
        h = hand_of(st, p)
        if h.min() < 0 or h.sum() != st[HSIZE + p]:
            return False
        if st[HSIZE + p] != opts[O_HAND + st[DEAL]] + st[GAIN + p] - st[LOSS + p]:
            return False
    return True


@njit(cache=True)
def mayi_ok(st, opts):
    for p in range(st[N]):
        if st[MAYI + p] != st[PCARDS + p]:
            return False
        if opts[O_MAYI_LIMIT] >= 0 and st[MAYI + p] > opts[O_MAYI_LIMIT]:
            return False
    return True


@njit(cache=True)
def check_invariants(st, opts, tab):
    if not cards_ok(st, opts, tab):
        return E_CARDS
    rules = rules_of(opts)
    for i in range(st[NMELDS]):
        if not F.row_valid(tab[i], rules) or (tab[i, M.M_KIND] == M.MK_RUN and not F.window_ok(tab[i])):
            return E_MELD
    if not hands_ok(st, opts):
        return E_HAND
    if not mayi_ok(st, opts):
        return E_MAYI
    if st[TURN] > opts[O_MAX_TURNS]:
        return E_CAP
    return 0
