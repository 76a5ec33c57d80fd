"""Trionfo's rules: small helpers, the deal, the auction's calls and its end, the contract's
first leader, a card put on the trick and the trick closed, the settlement (§B5) and the check
mode (see the package docstring for the rules and the options).

The per-card and per-bid kernels are ``inline='always'``; once-a-deal kernels (dealing,
settlement, the check mode) are separate functions.
"""
import numpy as np

from cardsim.kernels.cards import popcount
from cardsim.kernels.jit import njit, trace_put
from cardsim.kernels.rng import below, seed_stream, shuffle
from cardsim.kernels.tricks import (
    FULL40, LAST_TRICK_THIRDS, SUIT40, S_ACE, S_THREE, S_TWO, best_trump, cards_conserved, holder_of, mask_thirds,
    trick_mask, trick_winner,
)
from cardsim.kernels.trionfo.layout import (
    ALL_REDEALS, BID, CALLED, DEALER, DECK, DECLARER, E_BOUND, E_CARDS, E_POINTS, E_ZERO_SUM, FIRST_BIDDER,
    FIRST_DEALER, FIRST_SPEAKER, FIVE_COINS, HAND, HAND_IDX, HIGH_BIDDER, HIGH_LEVEL, HMONEY, K_CALL, K_NAME,
    LAST_WINNER, LEADER, LED, LEVELS, MAX_REDEALS, MAX_SPEECHES, MONEY, N, NCARDS, N_PLAYERS, O_AUCTION,
    O_FIRST_DEALER, O_FIRST_LEADER, O_HANDS, O_PARTNER_LEVELS, O_PARTNER_METHOD, O_REDEAL_DEALER, O_SELF_CALL,
    O_STAKE, O_WIN_POINTS, PARTNER, PASSED, PLAYED, PVIEW, REDEALS, REVEALED, SIDE_PTS, STREAM_DEALER, STRENGTH,
    ST_SIZE, THIRDS, TRICK, TRICKS, TRICKS_PLAYED, TRICK_NO, TRUMP, TRUNC, TR_LEN, T_BID, T_CONTRACT, T_DEAL,
    T_HAND, T_MONEY, T_PLAY, T_REDEAL, T_SETTLE, T_TRICK, VOID, VOID_HAND, WON,
)


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b, c, d):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True, inline='always')
def nxt(p):
    return (p + 1) % N_PLAYERS


@njit(cache=True)
def owner_of(st, card):
    return holder_of(st[HAND:HAND + N_PLAYERS], card)


@njit(cache=True)
def hand_strength(hand):
    """Bidding strength: with the best trump t, 2 per trump + 3/2/2 for its 3/2/A, plus per
    plain suit 2 for the 3, 1 for the 2 and 1 for the A."""
    t = best_trump(hand)
    s = 0
    for suit in range(4):
        m = (hand >> (10 * suit)) & SUIT40
        top = 2 * ((m >> S_THREE) & 1) + ((m >> S_TWO) & 1) + ((m >> S_ACE) & 1)
        if suit == t:
            s += 2 * popcount(m) + top + ((m >> S_THREE) & 1) + ((m >> S_TWO) & 1) + ((m >> S_ACE) & 1)
        else:
            s += top
    return s


@njit(cache=True, inline='always')
def is_solo(st, opts):
    """The contract is a public solo (its level has no partner)."""
    return st[HIGH_LEVEL] > opts[O_PARTNER_LEVELS]


# =============================================================================
# the deal and the auction
# =============================================================================
@njit(cache=True)
def reset_deal(st):
    for i in range(FIRST_SPEAKER, MONEY):
        st[i] = 0
    for i in range(HMONEY, PVIEW):
        st[i] = 0
    for i in range(VOID, ST_SIZE):
        st[i] = 0
    st[HIGH_BIDDER] = -1
    st[FIRST_BIDDER] = -1
    st[DECLARER] = -1
    st[TRUMP] = -1
    st[CALLED] = -1
    st[PARTNER] = -1
    st[LED] = -1
    st[LAST_WINNER] = -1


@njit(cache=True)
def first_dealer(opts, seed, game, gdeck):
    """The first dealer of session ``game`` of run ``seed``: trionfo_first_dealer, else drawn
    from the session's dealer stream (``gdeck`` reseeded)."""
    if opts[O_FIRST_DEALER] >= 0:
        return opts[O_FIRST_DEALER]
    seed_stream(gdeck, seed, game, np.int64(STREAM_DEALER))
    return below(gdeck, N_PLAYERS)


@njit(cache=True, inline='always')
def start_session(st, dealer):
    """A session's state before its first hand (``st`` zeroed): five players, the first dealer."""
    st[N] = N_PLAYERS
    st[DEALER] = dealer
    st[FIRST_DEALER] = dealer


@njit(cache=True, inline='always')
def start_hand(st):
    """A hand begins: no deal thrown in yet."""
    st[REDEALS] = 0


@njit(cache=True, inline='always')
def deal_to(st, i):
    """The seat that deck position ``i`` is dealt to: two rounds of packets of 4 from the dealer's
    right (position i to seat dealer + 1 + (i mod 20) // 4)."""
    return (st[DEALER] + 1 + (i % 20) // 4) % N_PLAYERS


@njit(cache=True, inline='always')
def deal_card(st, i, card):
    """Deck position ``i`` holds ``card``: it goes to its seat (``deal_to``)."""
    st[DECK + i] = card
    st[HAND + deal_to(st, i)] |= np.int64(1) << card


@njit(cache=True, inline='always')
def open_auction(st, trace):
    """The 40 cards are dealt: the first speaker is the 5D holder in the session's first hand,
    else the dealer's right. (Inlined into ``deal``: one call a deal less.)"""
    st[FIRST_SPEAKER] = owner_of(st, FIVE_COINS) if st[HAND_IDX] == 0 else nxt(st[DEALER])
    log(st, trace, T_HAND, -1, st[HAND_IDX] + 1, st[DEALER], st[FIRST_SPEAKER], 0)
    for p in range(N_PLAYERS):
        log(st, trace, T_DEAL, p, st[HAND + p], 0, 0, 0)


@njit(cache=True)
def deal(st, gdeck, trace):
    """Shuffle and deal 8 each in two rounds of packets of 4 from the dealer's right
    (the seats of ``deal_to``; the step adapter deals the same positions a card at a time,
    ``deal_card``), then open the auction (``open_auction``). A packet at a time: per card,
    ``deal_card``'s seat arithmetic and stores cost Trionfo 3 % of its throughput."""
    reset_deal(st)
    for i in range(40):
        st[DECK + i] = i
    shuffle(gdeck, st, DECK, DECK + 40)
    for k in range(10):
        seat = deal_to(st, 4 * k)
        for j in range(4):
            st[HAND + seat] |= np.int64(1) << st[DECK + 4 * k + j]
    open_auction(st, trace)


@njit(cache=True, inline='always')
def speak(st, p, level, trace):
    """Seat p passes (0) or bids ``level``."""
    log(st, trace, T_BID, p, level, 0, 0, 0)
    if level == 0:
        st[PASSED] |= 1 << p
        return
    st[HIGH_LEVEL] = level
    st[HIGH_BIDDER] = p
    st[BID + p] = level
    if st[FIRST_BIDDER] < 0:
        st[FIRST_BIDDER] = p


@njit(cache=True, inline='always')
def auction_over(st, opts, spoken):
    if st[HIGH_LEVEL] == LEVELS:
        return True
    if opts[O_AUCTION] == 1:
        return spoken >= N_PLAYERS
    out = popcount(st[PASSED])
    return out == N_PLAYERS or (out == N_PLAYERS - 1 and st[HIGH_BIDDER] >= 0)


@njit(cache=True, inline='always')
def next_speaker(st, opts, p, spoken):
    """The seat to speak next from seat ``p`` on (the first that has not passed), ``spoken`` calls
    made: -1 when the auction is over, -2 past its guard (MAX_SPEECHES)."""
    while not auction_over(st, opts, spoken):
        if spoken >= MAX_SPEECHES:
            return -2
        if not (st[PASSED] >> p) & 1:
            return p
        p = nxt(p)
    return -1


@njit(cache=True, inline='always')
def close_auction(st, opts, trace):
    """The auction is over: 1 a contract (its declarer next: ``declare``), 0 the deal thrown in
    (all passed; the dealer moves on under trionfo_redeal_dealer=next: deal again), -1 the hand
    void (thrown in MAX_REDEALS times already: the session is truncated)."""
    if st[HIGH_BIDDER] >= 0:
        return 1
    if st[REDEALS] < MAX_REDEALS:
        st[REDEALS] += 1
        st[ALL_REDEALS] += 1
        log(st, trace, T_REDEAL, -1, st[REDEALS], 0, 0, 0)
        if opts[O_REDEAL_DEALER] == 1:
            st[DEALER] = nxt(st[DEALER])
        return 0
    st[VOID_HAND] = 1
    st[TRUNC] = 1
    return -1


# =============================================================================
# the contract
# =============================================================================
@njit(cache=True, inline='always')
def callable_cards(st, opts, d):
    """The cards declarer d may call: any card not in his hand, every card under self-calls."""
    return FULL40 if opts[O_SELF_CALL] != 0 else FULL40 & ~st[HAND + d]


@njit(cache=True, inline='always')
def declare(st):
    """The auction's winner is the declarer (his hand's strength recorded); returns his seat."""
    d = st[HIGH_BIDDER]
    st[DECLARER] = d
    st[STRENGTH] = hand_strength(st[HAND + d])
    return d


@njit(cache=True, inline='always')
def first_leader(st, opts, d):
    """The leader of trick 1 once declarer d's contract is made (trionfo_first_leader)."""
    fl = opts[O_FIRST_LEADER]
    st[LEADER] = st[FIRST_BIDDER] if fl == 0 else (st[FIRST_SPEAKER] if fl == 1 else d)


@njit(cache=True, inline='always')
def set_trump(st, opts, trump):
    """The declarer names ``trump``: the decision that chooses his partner next (K_CALL under
    call_card, K_NAME under name_player), -1 for a solo."""
    st[TRUMP] = trump
    if is_solo(st, opts):
        return -1
    return K_NAME if opts[O_PARTNER_METHOD] == 1 else K_CALL


@njit(cache=True, inline='always')
def set_called(st, card):
    """The declarer calls ``card``: its holder is the (secret) partner."""
    st[CALLED] = card
    st[PARTNER] = owner_of(st, card)


@njit(cache=True, inline='always')
def set_named(st, q):
    """The declarer names seat ``q`` his partner openly."""
    st[PARTNER] = q
    st[REVEALED] = 1


@njit(cache=True, inline='always')
def open_play(st, opts, trace):
    """The contract is made: the leader of trick 1 (``first_leader``), and its trace row."""
    first_leader(st, opts, st[DECLARER])
    log(st, trace, T_CONTRACT, st[DECLARER], st[HIGH_LEVEL], st[TRUMP], st[CALLED], st[PARTNER])


# =============================================================================
# card play
# =============================================================================
@njit(cache=True, inline='always')
def put_card(st, p, card, trace):
    st[HAND + p] &= ~(np.int64(1) << card)
    st[PLAYED] |= np.int64(1) << card
    if st[NCARDS] == 0:
        st[LED] = card // 10
    elif card // 10 != st[LED]:
        st[VOID + p] |= np.int64(1) << st[LED]
    st[TRICK + st[NCARDS]] = card
    st[NCARDS] += 1
    if card == st[CALLED]:
        st[REVEALED] = 1
    log(st, trace, T_PLAY, p, card, 0, 0, 0)


@njit(cache=True, inline='always')
def finish_trick(st, trace):
    w = trick_winner(st[TRICK:TRICK + N_PLAYERS], st[NCARDS], st[TRUMP])
    winner = (st[LEADER] + w) % N_PLAYERS
    thirds = mask_thirds(trick_mask(st[TRICK:TRICK + N_PLAYERS], st[NCARDS]))
    st[TRICK_NO] += 1
    if st[TRICK_NO] == TRICKS:
        thirds += LAST_TRICK_THIRDS
    st[THIRDS + winner] += thirds
    st[LAST_WINNER] = winner
    st[LEADER] = winner
    st[NCARDS] = 0
    st[LED] = -1
    st[TRICKS_PLAYED] += 1
    log(st, trace, T_TRICK, winner, thirds, 0, 0, 0)


# =============================================================================
# settlement (§B5)
# =============================================================================
@njit(cache=True)
def settle(st, opts, trace):
    """Declarer's side wins with >= win_points; chiamata money 2s/s/s or 4s/s."""
    d = st[DECLARER]
    partner = st[PARTNER]
    mate = partner >= 0 and partner != d
    thirds = st[THIRDS + d] + (st[THIRDS + partner] if mate else 0)
    st[SIDE_PTS] = thirds // 3
    st[WON] = 1 if st[SIDE_PTS] >= opts[O_WIN_POINTS] else 0
    s = opts[O_STAKE + st[HIGH_LEVEL] - 1]
    sign = 1 if st[WON] else -1
    for p in range(N_PLAYERS):
        st[HMONEY + p] = -sign * s
    if mate:
        st[HMONEY + d] = 2 * sign * s
        st[HMONEY + partner] = sign * s
    else:
        st[HMONEY + d] = 4 * sign * s
    for p in range(N_PLAYERS):
        st[MONEY + p] += st[HMONEY + p]
    log(st, trace, T_SETTLE, d, st[SIDE_PTS], st[WON], s, 0)
    for p in range(N_PLAYERS):
        log(st, trace, T_MONEY, p, st[HMONEY + p], st[MONEY + p], 0, 0)


@njit(cache=True)
def after_card(st, opts, trace):
    """After a card: 0 the trick goes on; 1 the fifth card closed it (``finish_trick``); 2 that was
    the eighth trick and the hand is settled (``settle``)."""
    if st[NCARDS] < N_PLAYERS:
        return 0
    finish_trick(st, trace)
    if st[TRICK_NO] < TRICKS:
        return 1
    settle(st, opts, trace)
    return 2


@njit(cache=True, inline='always')
def next_hand(st, opts):
    """The hand is over: the deal passes to the right; True when it was the session's last."""
    st[DEALER] = nxt(st[DEALER])
    st[HAND_IDX] += 1
    return st[HAND_IDX] >= opts[O_HANDS]


# =============================================================================
# check mode
# =============================================================================
@njit(cache=True)
def check_cards(st):
    """Hands disjoint, hands + played = deck, every hand 8 - tricks done (- 1 if it played):
    ``tricks.cards_conserved``."""
    if not cards_conserved(st[HAND:HAND + N_PLAYERS], st[PLAYED], st[LEADER], st[NCARDS], TRICKS - st[TRICK_NO]):
        return E_CARDS
    return 0


@njit(cache=True)
def check_hand(st, opts):
    total = 0
    money = 0
    big = 0
    for p in range(N_PLAYERS):
        total += st[THIRDS + p]
        money += st[HMONEY + p]
        big = max(big, abs(st[HMONEY + p]))
    if total != 35:
        return E_POINTS
    if money != 0:
        return E_ZERO_SUM
    top = 0
    for k in range(LEVELS):
        top = max(top, opts[O_STAKE + k])
    return E_BOUND if big > 4 * top else 0
