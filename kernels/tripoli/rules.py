"""Tripoli's rules: small helpers (moving chips between seats, board and ledgers), the deal
(antes, cards, the Cosmo dials), the widow phase and its auctions (section 4, variant 2), Phase 1
(pay cards, section 5), Phase 2 (the poker hand choice, betting and the showdown, section 6) with
the clearing rounds (section 9), and Phase 3 (Michigan, section 7). Every forced step is played
here; the decisions are applied by ``legal.apply_action``.
"""
import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit, trace_put
from cardsim.kernels.rng import below, seed_stream, shuffle
from cardsim.kernels.tripoli.layout import (
    ACTED, ACTIVE, AU_KIND, AU_OLD, AU_SUIT, AU_WIDOW, A_AUCTION_WIDOW, A_BET, A_BID, A_CALL, A_CHECK, A_DONE, A_FOLD,
    A_KEEP, A_RAISE, A_SWAP, BANNED, BETS, BET_CTX, BET_DEALER, BOARD, BOARD0, B_BET, B_CALL, B_CHECK, B_FOLD,
    B_RAISE, CALL_PRICE, CHIPS, CLH, CLS, CL_FIRST, CL_INDEX, CL_LEFT, CL_POT, CL_RESERVE, CL_TOTAL, COLOR, CONTRIB,
    CUR, CUR_BET, DEALER, DEAL_ID, FIRST_LEAD, FOLDED, FOLD_PRICE, HAND, HCAT, HIGH, HIGH_BY, LAST_C, LAST_P, LEADER,
    LEADS, LOW13, L_ANTE, L_CLEAR, L_MICHIGAN, L_PAY, L_POKER, L_WIDOW, MAX_PLAYERS, MWIN, N, NOTH, OLD_HAND, O_ANTE,
    O_BID_GUARDED, O_CLEARING, O_COLOR, O_COSMO, O_FIRST_BETTOR, O_FIRST_LOWEST, O_LEADER, O_LIMIT, O_LIMIT_MODE,
    O_MAX_BID, O_MAX_RAISES, O_PAY_SUIT, O_RAISES_GUARDED, O_SEQ_SPLIT, O_SEQ_START, O_SUIT_AUCTION, O_TIMING,
    O_WIDOW, O_WIDOW_LAST, P2_FOLDED, P2_RAISES, PAY_SUIT, PH, PHASE, PICK, PICKED_N, PLAYED, POKER_END, POT, POT_WIN,
    P_AFTER_SWAP, P_AFTER_UNSOLD, P_AUCTION, P_BET, P_LEAD, P_OVER, P_SELECT, P_SUIT, P_WIDOW, RAISES, REASON,
    RUN_LEN, RUN_START, R_BLOCKED, R_OUT, SEED, SEL_LEFT, SEQ, SP_KITTY, SP_KQ, SP_POT, SP_SEQ, STREAM_CLEAR, ST_SIZE,
    SUIT_BY, SUIT_PRICE, TOTAL0, TRUNC, TR_LEN, T_ANTE, T_BOARD, T_CLAIM, T_CLDEAL, T_CLEAR, T_DEAL, T_DIALS,
    T_PAYMENT, T_PLAY, T_POT, T_PRIZE, T_SHOW, T_SOLD, T_STAKE, T_STOP, WIDOW, W_ACT, W_AUCTION_OLD, W_AUCTION_WIDOW,
    W_BUYER, W_PRICE, W_SEEN, W_SOLD_OLD, W_SOLD_WIDOW, W_SWAP,
)
from cardsim.kernels.tripoli.actions import action_arg, action_kind


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, 0, 0)


@njit(cache=True, inline='always')
def nxt(st, p):
    return (p + 1) % st[N]


@njit(cache=True, inline='always')
def ah_rank(c):
    """Ace-high rank index of a card: 2 -> 0 .. A -> 12."""
    return (c % 13 + 12) % 13


@njit(cache=True, inline='always')
def card_at(s, ah):
    return s * 13 + (ah + 1) % 13


@njit(cache=True, inline='always')
def next_card(c):
    """Next higher card of the same suit (-1 after an ace)."""
    ah = ah_rank(c)
    return -1 if ah == 12 else card_at(c // 13, ah + 1)


@njit(cache=True, inline='always')
def suit_ah(hand, s):
    """Ace-high rank bits of ``hand`` in suit s."""
    return PK.ace_high((hand >> (13 * s)) & LOW13)


@njit(cache=True, inline='always')
def lowest_in(hand, s):
    """Lowest card of suit s in ``hand`` (-1 if none)."""
    r = suit_ah(hand, s)
    return card_at(s, lowbit(r)) if r else -1


@njit(cache=True, inline='always')
def holder(st, c):
    for p in range(st[N]):
        if (st[HAND + p] >> c) & 1:
            return p
    return -1


@njit(cache=True, inline='always')
def pay_card(st, i):
    """Card id of single space i (A, K, Q, J, 10 of the pay suit)."""
    return st[PAY_SUIT] * 13 + (0, 12, 11, 10, 9)[i]


@njit(cache=True)
def to_board(st, p, space, amount, ledger):
    st[CHIPS + p] -= amount
    st[PH + ledger * MAX_PLAYERS + p] -= amount
    st[BOARD + space] += amount


@njit(cache=True)
def from_board(st, p, space, amount, ledger, trace):
    st[CHIPS + p] += amount
    st[PH + ledger * MAX_PLAYERS + p] += amount
    st[BOARD + space] -= amount
    log(st, trace, T_CLAIM, p, space, amount)


@njit(cache=True)
def transfer(st, payer, payee, amount, ledger):
    st[CHIPS + payer] -= amount
    st[PH + ledger * MAX_PLAYERS + payer] -= amount
    st[CHIPS + payee] += amount
    st[PH + ledger * MAX_PLAYERS + payee] += amount


@njit(cache=True)
def chips_total(st):
    t = st[CL_POT] + st[CL_RESERVE]
    for i in range(9):
        t += st[BOARD + i]
    for p in range(st[N]):
        t += st[CHIPS + p]
    return t


# =============================================================================
# the deal: antes, cards, dials
# =============================================================================
@njit(cache=True)
def reset_deal(st, opts, dealer):
    """Clear every per-deal field; keep N and the board."""
    for i in range(PHASE, ST_SIZE):
        if i < BOARD or i >= BOARD + 9:
            st[i] = 0
    for i in range(9):
        st[BOARD0 + i] = st[BOARD + i]
    for i in range(HCAT, HCAT + MAX_PLAYERS):
        st[i] = -1
    for f in (REASON, MWIN, W_SEEN, W_BUYER, HIGH_BY, SUIT_BY, BANNED, COLOR, LAST_P, LAST_C):
        st[f] = -1
    st[DEALER] = dealer
    st[PAY_SUIT] = opts[O_PAY_SUIT]
    st[SEQ] = opts[O_SEQ_START]
    st[TOTAL0] = chips_total(st)


@njit(cache=True)
def antes(st, opts, trace):
    log(st, trace, T_ANTE, -1, opts[O_ANTE], 0)
    for p in range(st[N]):
        for i in range(9):
            to_board(st, p, i, opts[O_ANTE], np.int64(L_ANTE))
    for i in range(9):
        log(st, trace, T_BOARD, -1, i, st[BOARD + i])


@njit(cache=True, inline='always')
def deal_seat(st, opts, i):
    """Who gets the card at deck position ``i`` (section 3): a seat, or ``N`` for the widow. The
    deal goes round the n seats from the dealer's left and the widow, the widow last (or first
    without ``widow_dealt_last``)."""
    n = st[N]
    j = i % (n + 1)                 # position in the deal order
    if not opts[O_WIDOW_LAST]:
        j = (j + n) % (n + 1)       # the widow first: position 0 -> widow
    return n if j == n else (st[DEALER] + 1 + j) % n


@njit(cache=True)
def deal_cards(st, opts, gdeck, deck, trace):
    """Shuffle and deal all 52 cards into n + 1 hands (section 3)."""
    n = st[N]
    for i in range(52):
        deck[i] = i
    shuffle(gdeck, deck, 0, 52)
    for i in range(52):
        to = deal_seat(st, opts, i)
        if to == n:
            st[WIDOW] |= np.int64(1) << deck[i]
        else:
            st[HAND + to] |= np.int64(1) << deck[i]
    for p in range(n):
        log(st, trace, T_DEAL, p, st[HAND + p], 0)
    log(st, trace, T_DEAL, -1, st[WIDOW], 0)


@njit(cache=True)
def cosmo_dials(st, opts, gdeck, trace):
    """Cosmo: pay suit and sequence start drawn anew each deal (after the shuffle)."""
    if opts[O_COSMO]:
        st[PAY_SUIT] = below(gdeck, np.int64(4))
        st[SEQ] = below(gdeck, np.int64(11))
    log(st, trace, T_DIALS, -1, st[PAY_SUIT], st[SEQ])


@njit(cache=True)
def start_deal(st, opts, gdeck, deck, trace):
    antes(st, opts, trace)
    deal_cards(st, opts, gdeck, deck, trace)
    cosmo_dials(st, opts, gdeck, trace)
    hands_dealt(st, opts, trace)


@njit(cache=True)
def hands_dealt(st, opts, trace):
    """The hands are dealt and the dials set: the dealer's widow decision (section 4), or without
    the widow exchange the pay-suit auction or the poker hand choice (``after_widow``)."""
    if opts[O_WIDOW]:
        st[PHASE] = P_WIDOW
        st[CUR] = st[DEALER]
    else:
        after_widow(st, opts, trace)


# =============================================================================
# widow phase and auctions (section 4, variant 2)
# =============================================================================
@njit(cache=True)
def swap_with_widow(st, p):
    h = st[HAND + p]
    st[HAND + p] = st[WIDOW]
    st[WIDOW] = h
    st[W_SEEN] = p


@njit(cache=True)
def start_auction(st, opts, kind):
    n = st[N]
    st[AU_KIND] = kind
    st[HIGH] = 0
    st[HIGH_BY] = -1
    st[ACTIVE] = (1 << n) - 1
    if kind != AU_SUIT:
        st[ACTIVE] &= ~(1 << st[DEALER])
        st[CUR] = nxt(st, st[DEALER])
    else:
        st[CUR] = st[DEALER]
    st[PHASE] = P_AUCTION


@njit(cache=True)
def sold(st, opts, trace):
    """The auction ended with a buyer: pay and hand over what was sold."""
    b = st[HIGH_BY]
    x = st[HIGH]
    log(st, trace, T_SOLD, b, x, -1 if st[AU_KIND] == AU_SUIT else st[DEALER])
    if st[AU_KIND] == AU_SUIT:
        to_board(st, b, np.int64(SP_KITTY), x, np.int64(L_WIDOW))
        st[SUIT_BY] = b
        st[SUIT_PRICE] = x
        st[CUR] = b
        st[PHASE] = P_SUIT
        return
    transfer(st, b, st[DEALER], x, np.int64(L_WIDOW))
    swap_with_widow(st, b)
    st[W_BUYER] = b
    st[W_PRICE] = x
    st[W_ACT] |= W_SOLD_WIDOW if st[AU_KIND] == AU_WIDOW else W_SOLD_OLD
    after_widow(st, opts, trace)


@njit(cache=True)
def unsold(st, opts, trace):
    if st[AU_KIND] == AU_WIDOW:
        st[PHASE] = P_AFTER_UNSOLD
        st[CUR] = st[DEALER]
    elif st[AU_KIND] == AU_OLD:
        after_widow(st, opts, trace)
    else:
        selection_start(st, opts, trace)


@njit(cache=True)
def auction_step(st, opts, p, a, trace):
    """A bid or a pass by p; ends the auction when one bidder remains after a bid."""
    if action_kind(a) == A_BID:
        st[HIGH] = action_arg(a)
        st[HIGH_BY] = p
        if st[HIGH] >= opts[O_MAX_BID] and opts[O_BID_GUARDED]:
            st[TRUNC] = 1
    else:
        st[ACTIVE] &= ~(1 << p)
    act = st[ACTIVE]
    if act == 0:
        unsold(st, opts, trace)
    elif popcount(act) == 1 and st[HIGH_BY] >= 0 and (act >> st[HIGH_BY]) & 1:
        sold(st, opts, trace)
    else:
        q = nxt(st, p)
        while not (act >> q) & 1:
            q = nxt(st, q)
        st[CUR] = q


@njit(cache=True)
def widow_action(st, opts, a, trace):
    kind = action_kind(a)
    if kind == A_KEEP or kind == A_DONE:
        after_widow(st, opts, trace)
    elif kind == A_SWAP:
        st[OLD_HAND] = st[HAND + st[DEALER]]
        swap_with_widow(st, st[DEALER])
        st[W_ACT] |= W_SWAP
        st[PHASE] = P_AFTER_SWAP
    elif kind == A_AUCTION_WIDOW:
        st[W_ACT] |= W_AUCTION_WIDOW
        start_auction(st, opts, np.int64(AU_WIDOW))
    else:
        st[W_ACT] |= W_AUCTION_OLD
        start_auction(st, opts, np.int64(AU_OLD))


@njit(cache=True)
def after_widow(st, opts, trace):
    """Hands are final: the pay-suit auction (variant 2) or the poker hand choice."""
    if opts[O_SUIT_AUCTION]:
        start_auction(st, opts, np.int64(AU_SUIT))
    else:
        selection_start(st, opts, trace)


# =============================================================================
# Phase 1: pay cards (section 5)
# =============================================================================
@njit(cache=True)
def seq_suits(st, hand):
    """Number of suits in which ``hand`` holds the three sequence cards."""
    k = 0
    for s in range(4):
        if ((suit_ah(hand, s) >> st[SEQ]) & 7) == 7:
            k += 1
    return k


@njit(cache=True)
def phase1_sequence(st, opts, trace):
    units = 0
    for p in range(st[N]):
        k = seq_suits(st, st[HAND + p])
        units += (1 if k else 0) if opts[O_SEQ_SPLIT] == 0 else k
    if units == 0:
        return
    share = st[BOARD + SP_SEQ] // units
    for p in range(st[N]):
        k = seq_suits(st, st[HAND + p])
        if k:
            units = 1 if opts[O_SEQ_SPLIT] == 0 else k
            from_board(st, p, np.int64(SP_SEQ), share * units, np.int64(L_PAY), trace)


@njit(cache=True)
def phase1(st, opts, trace):
    """Pay cards collect their spaces (the widow's cards win nothing)."""
    for i in range(5):
        p = holder(st, pay_card(st, i))
        if p >= 0:
            from_board(st, p, i, st[BOARD + i], np.int64(L_PAY), trace)
    pk = holder(st, pay_card(st, 1))
    if pk >= 0 and pk == holder(st, pay_card(st, 2)):
        from_board(st, pk, np.int64(SP_KQ), st[BOARD + SP_KQ], np.int64(L_PAY), trace)
    phase1_sequence(st, opts, trace)


@njit(cache=True)
def rummoli_claims(st, opts, p, c, trace):
    """payout_timing=michigan: claims made by playing card c (variant 1)."""
    if c // 13 == st[PAY_SUIT]:
        for i in range(5):
            if c == pay_card(st, i):
                from_board(st, p, i, st[BOARD + i], np.int64(L_PAY), trace)
        if c == pay_card(st, 1) and st[LAST_P] == p and st[LAST_C] == pay_card(st, 2):
            from_board(st, p, np.int64(SP_KQ), st[BOARD + SP_KQ], np.int64(L_PAY), trace)
    if st[LAST_P] == p and st[LAST_C] >= 0 and next_card(st[LAST_C]) == c:
        st[RUN_LEN] += 1
    else:
        st[RUN_LEN] = 1
        st[RUN_START] = c
    if ah_rank(c) == st[SEQ] + 2 and st[RUN_LEN] >= 3 and ah_rank(st[RUN_START]) <= st[SEQ]:
        from_board(st, p, np.int64(SP_SEQ), st[BOARD + SP_SEQ], np.int64(L_PAY), trace)


# =============================================================================
# Phase 2: poker hand choice, betting, showdown (section 6); clearing rounds (section 9)
# =============================================================================
@njit(cache=True)
def selection_start(st, opts, trace):
    if opts[O_TIMING] == 0:
        phase1(st, opts, trace)
    st[PHASE] = P_SELECT
    st[CUR] = nxt(st, st[DEALER])
    st[SEL_LEFT] = st[N]
    st[PICKED_N] = 0


@njit(cache=True)
def pick(st, opts, c, trace):
    p = st[CUR]
    st[PICK + p] |= np.int64(1) << c
    st[PICKED_N] += 1
    if st[PICKED_N] < 5:
        return
    st[HCAT + p] = PK.eval5(st[PICK + p])
    st[PICKED_N] = 0
    st[SEL_LEFT] -= 1
    st[CUR] = nxt(st, p)
    if st[SEL_LEFT] == 0:
        betting_start(st, opts, st[DEALER], np.int64(0))


@njit(cache=True)
def betting_start(st, opts, dealer, ctx):
    st[BET_CTX] = ctx
    st[BET_DEALER] = dealer
    st[FOLDED] = 0
    st[CUR_BET] = 0
    st[RAISES] = 0
    st[ACTED] = 0
    for p in range(MAX_PLAYERS):
        st[CONTRIB + p] = 0
        st[BETS + p] = 0
        st[CALL_PRICE + p] = 0
        st[FOLD_PRICE + p] = 0
    st[CUR] = dealer if opts[O_FIRST_BETTOR] else (dealer + 1) % st[N]
    st[PHASE] = P_BET


@njit(cache=True, inline='always')
def raise_cap(opts):
    return opts[O_MAX_RAISES]


@njit(cache=True, inline='always')
def max_amount(st, opts):
    """Largest opening bet or raise increment allowed now (0: none)."""
    if opts[O_LIMIT_MODE] == 0:
        return opts[O_LIMIT]
    return max(0, opts[O_LIMIT] - st[CUR_BET])


@njit(cache=True)
def put_in(st, p, amount, trace):
    """Seat p's bet goes to the Pot space (Phase 2) or the clearing pot."""
    log(st, trace, T_STAKE, p, amount, st[BET_CTX])
    st[CONTRIB + p] += amount
    if st[BET_CTX] == 0:
        to_board(st, p, np.int64(SP_POT), amount, np.int64(L_POKER))
    else:
        st[CHIPS + p] -= amount
        st[PH + L_CLEAR * MAX_PLAYERS + p] -= amount
        st[CL_POT] += amount


@njit(cache=True)
def note_bet(st, p, kind):
    """Public bookkeeping of p's betting action (``BETS``, and the price of a call or a fold)."""
    owe = st[CUR_BET] - st[CONTRIB + p]
    pot = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    price = np.int64(1e6 * owe / max(pot + owe, 1))
    if kind == A_CHECK:
        st[BETS + p] |= B_CHECK
    elif kind == A_BET:
        st[BETS + p] |= B_BET
    elif kind == A_RAISE:
        st[BETS + p] |= B_RAISE
    elif kind == A_CALL:
        st[BETS + p] |= B_CALL
        st[CALL_PRICE + p] = max(st[CALL_PRICE + p], price)
    else:
        st[BETS + p] |= B_FOLD
        st[FOLD_PRICE + p] = price


@njit(cache=True)
def bet_action(st, opts, a, gdeck, deck, trace):
    p = st[CUR]
    kind = action_kind(a)
    x = action_arg(a)
    note_bet(st, p, kind)
    if kind == A_CHECK or kind == A_CALL:
        put_in(st, p, st[CUR_BET] - st[CONTRIB + p], trace)
        st[ACTED] |= 1 << p
    elif kind == A_FOLD:
        st[FOLDED] |= 1 << p
    else:
        if kind == A_RAISE:
            st[RAISES] += 1
            if st[RAISES] >= opts[O_MAX_RAISES] and opts[O_RAISES_GUARDED]:
                st[TRUNC] = 1
        put_in(st, p, st[CUR_BET] + x - st[CONTRIB + p], trace)
        st[CUR_BET] += x
        st[ACTED] = 1 << p
    betting_next(st, opts, gdeck, deck, trace)


@njit(cache=True)
def betting_next(st, opts, gdeck, deck, trace):
    """Next bettor, or the end of the round (one left, or everybody matched)."""
    n = st[N]
    live = ((1 << n) - 1) & ~st[FOLDED]
    if popcount(live) == 1:
        round_won(st, opts, live, np.int64(1), gdeck, deck, trace)
        return
    if (st[ACTED] & live) == live:
        even = True
        for p in range(n):
            if (live >> p) & 1 and st[CONTRIB + p] != st[CUR_BET]:
                even = False
        if even:
            round_won(st, opts, showdown(st, live, trace), np.int64(0), gdeck, deck, trace)
            return
    q = nxt(st, st[CUR])
    while not (live >> q) & 1:
        q = nxt(st, q)
    st[CUR] = q


@njit(cache=True, inline='always')
def bet_hand(st, p):
    """(cards, strength class) seat p bets on: its poker hand, or its clearing-round cards."""
    if st[BET_CTX] == 0:
        return st[PICK + p], st[HCAT + p]
    return st[CLH + p], st[CLS + p]


@njit(cache=True)
def showdown(st, live, trace):
    """Mask of the seats with the best poker hand among ``live``."""
    best = -1
    win = 0
    for p in range(st[N]):
        if (live >> p) & 1:
            cards, v = bet_hand(st, p)
            log(st, trace, T_SHOW, p, cards, v)
            if v > best:
                best = v
                win = 0
            if v == best:
                win |= 1 << p
    return win


@njit(cache=True)
def first_from_left(st, mask, dealer):
    """First seat of ``mask`` going clockwise from the dealer's left."""
    q = (dealer + 1) % st[N]
    while not (mask >> q) & 1:
        q = nxt(st, q)
    return q


@njit(cache=True)
def round_won(st, opts, win, uncontested, gdeck, deck, trace):
    if st[BET_CTX] == 0:
        pot_won(st, opts, win, uncontested, trace)
        michigan_start(st, opts, trace)
    else:
        clearing_won(st, opts, win, gdeck, deck, trace)


@njit(cache=True)
def pot_won(st, opts, win, uncontested, trace):
    """Phase 2 result: winners split the Pot space; the odd chips stay on it."""
    st[POT] = st[BOARD + SP_POT]
    st[POT_WIN] = win
    st[POKER_END] = uncontested
    st[P2_RAISES] = st[RAISES]
    st[P2_FOLDED] = st[FOLDED]
    share = st[BOARD + SP_POT] // popcount(win)
    log(st, trace, T_POT, -1, win, share)
    for p in range(st[N]):
        if (win >> p) & 1:
            from_board(st, p, np.int64(SP_POT), share, np.int64(L_POKER), trace)


# ---- clearing rounds ----------------------------------------------------------------
@njit(cache=True)
def clearing_start(st, opts, gdeck, deck, trace):
    """After a session's last deal: pool the board into clearing_pots prizes."""
    total = 0
    for i in range(9):
        total += st[BOARD + i]
        st[BOARD + i] = 0
    st[CL_TOTAL] = total
    st[CL_RESERVE] = total
    st[CL_INDEX] = -1
    st[CL_LEFT] = opts[O_CLEARING]
    st[CL_FIRST] = nxt(st, st[DEALER])
    clearing_round(st, opts, gdeck, deck, trace)


@njit(cache=True, inline='always')
def clearing_seat(st, dealer, i):
    """Who gets the i-th card of a clearing round dealt by ``dealer`` (5 each from his left)."""
    return (dealer + 1 + i) % st[N]


@njit(cache=True, inline='always')
def clearing_classes(st):
    """The strength class of every seat's 5 clearing-round cards, once they are dealt."""
    for p in range(st[N]):
        st[CLS + p] = PK.eval5(st[CLH + p])


@njit(cache=True)
def clearing_round(st, opts, gdeck, deck, trace):
    """Deal 5 cards to each seat for the next prize and open its betting."""
    st[CL_INDEX] += 1
    st[CL_LEFT] -= 1
    k = opts[O_CLEARING]
    j = st[CL_INDEX]
    prize = st[CL_TOTAL] // k + (1 if j < st[CL_TOTAL] % k else 0)
    st[CL_RESERVE] -= prize
    st[CL_POT] = prize
    dealer = (st[CL_FIRST] + j) % st[N]
    seed_stream(gdeck, st[SEED], st[DEAL_ID], np.int64(STREAM_CLEAR + j))
    for i in range(52):
        deck[i] = i
    shuffle(gdeck, deck, 0, 52)
    for p in range(st[N]):
        st[CLH + p] = 0
    for i in range(5 * st[N]):
        st[CLH + clearing_seat(st, dealer, i)] |= np.int64(1) << deck[i]
    clearing_classes(st)
    log(st, trace, T_CLEAR, -1, prize, dealer)
    for p in range(st[N]):
        log(st, trace, T_CLDEAL, p, st[CLH + p], st[CLS + p])
    betting_start(st, opts, dealer, np.int64(1))


@njit(cache=True)
def clearing_won(st, opts, win, gdeck, deck, trace):
    """The prize and the bets go to the winners; the odd chips to the first winner."""
    pot = st[CL_POT]
    k = popcount(win)
    first = first_from_left(st, win, st[BET_DEALER])
    log(st, trace, T_POT, -1, win, pot // k)
    for p in range(st[N]):
        if (win >> p) & 1:
            amount = pot // k + (pot % k if p == first else 0)
            log(st, trace, T_PRIZE, p, amount, 0)
            st[CHIPS + p] += amount
            st[PH + L_CLEAR * MAX_PLAYERS + p] += amount
    st[CL_POT] = 0
    if st[CL_LEFT] > 0:
        clearing_round(st, opts, gdeck, deck, trace)
    else:
        st[PHASE] = P_OVER


# =============================================================================
# Phase 3: Michigan (section 7)
# =============================================================================
@njit(cache=True)
def michigan_start(st, opts, trace):
    lead = opts[O_LEADER]
    if lead == 0:
        st[LEADER] = first_from_left(st, st[POT_WIN], st[DEALER])
    elif lead == 1:
        st[LEADER] = st[DEALER]
    else:
        st[LEADER] = nxt(st, st[DEALER])
    st[BANNED] = -1
    st[COLOR] = 0 if opts[O_COLOR] else -1
    st[FIRST_LEAD] = 1
    find_leader(st, opts, trace)


@njit(cache=True)
def cand_suits(st, opts):
    """Bit mask of the suits a lead may be made in now (before looking at the hand)."""
    if st[COLOR] >= 0:
        return 9 if st[COLOR] == 0 else 6            # black: C S; red: D H
    if st[FIRST_LEAD] and opts[O_FIRST_LOWEST]:
        return 15
    return 15 & ~(1 << st[BANNED]) if st[BANNED] >= 0 else 15


@njit(cache=True)
def suits_below(cand, ah):
    """Mask of the cards of the suits in ``cand`` of ace-high rank below ``ah``."""
    m = 0
    for s in range(4):
        if (cand >> s) & 1:
            for r in range(ah):
                m |= np.int64(1) << card_at(s, r)
    return m


@njit(cache=True)
def lead_suits(st, opts, hand):
    """Bit mask of the suits ``hand`` may lead now (sections 7 and 10.7, 10.8)."""
    cand = cand_suits(st, opts)
    low = 13
    for s in range(4):
        if (cand >> s) & 1 and suit_ah(hand, s):
            low = min(low, lowbit(suit_ah(hand, s)))
    if low == 13:
        return 0
    restrict = st[COLOR] >= 0 or (st[FIRST_LEAD] and opts[O_FIRST_LOWEST])
    out = 0
    for s in range(4):
        r = suit_ah(hand, s)
        if (cand >> s) & 1 and r and (not restrict or lowbit(r) == low):
            out |= 1 << s
    return out


@njit(cache=True)
def find_leader(st, opts, trace):
    """From LEADER clockwise, the first seat that can lead; none = blocked end."""
    p = st[LEADER]
    for _ in range(st[N]):
        if lead_suits(st, opts, st[HAND + p]):
            st[CUR] = p
            st[PHASE] = P_LEAD
            return
        st[NOTH + p] |= suits_below(cand_suits(st, opts), np.int64(13))   # public: none of these suits
        p = nxt(st, p)
    blocked_end(st, trace)


@njit(cache=True)
def play_card(st, opts, p, c, trace):
    """p plays c; returns True if that emptied p's hand (the deal is then over)."""
    st[HAND + p] &= ~(np.int64(1) << c)
    st[PLAYED] |= np.int64(1) << c
    log(st, trace, T_PLAY, p, c, 0)
    if opts[O_TIMING]:
        rummoli_claims(st, opts, p, c, trace)
    st[LAST_P] = p
    st[LAST_C] = c
    if st[HAND + p] == 0:
        went_out(st, p, trace)
        return True
    return False


@njit(cache=True)
def lead(st, opts, s, trace):
    """Lead the lowest card of suit s, then the forced sequence up to the stop."""
    p = st[CUR]
    st[LEADS] += 1
    c = lowest_in(st[HAND + p], s)
    restrict = st[COLOR] >= 0 or (st[FIRST_LEAD] and opts[O_FIRST_LOWEST])
    st[NOTH + p] |= suits_below(cand_suits(st, opts) if restrict else 1 << s, ah_rank(c))  # public: lowest led
    if play_card(st, opts, p, c, trace):
        return
    while True:
        nc = next_card(c)
        if nc < 0 or (st[WIDOW] >> nc) & 1 or (st[PLAYED] >> nc) & 1:
            break
        p = holder(st, nc)
        c = nc
        if play_card(st, opts, p, c, trace):
            return
    log(st, trace, T_STOP, p, c, 0)
    st[LEADER] = p
    st[BANNED] = c // 13
    if st[COLOR] >= 0:
        st[COLOR] ^= 1
    st[FIRST_LEAD] = 0
    find_leader(st, opts, trace)


@njit(cache=True)
def went_out(st, w, trace):
    """w played his last card: the kitty and 1 chip per card from every other hand."""
    st[MWIN] = w
    st[REASON] = R_OUT
    from_board(st, w, np.int64(SP_KITTY), st[BOARD + SP_KITTY], np.int64(L_MICHIGAN), trace)
    for p in range(st[N]):
        k = popcount(st[HAND + p])
        if p != w and k:
            transfer(st, p, w, k, np.int64(L_MICHIGAN))
            log(st, trace, T_PAYMENT, p, k, w)
    st[PHASE] = P_OVER


@njit(cache=True)
def blocked_end(st, trace):
    """Nobody can lead: every player pays 1 chip per card onto the kitty."""
    st[REASON] = R_BLOCKED
    for p in range(st[N]):
        k = popcount(st[HAND + p])
        to_board(st, p, np.int64(SP_KITTY), k, np.int64(L_MICHIGAN))
        log(st, trace, T_PAYMENT, p, k, -1)
    st[PHASE] = P_OVER
