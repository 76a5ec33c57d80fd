"""Marafon's rules: small helpers, the deal and the trump, a claim resolved and the end of a game,
the marafona declared, a card put on the trick and the trick closed, the hand scored and the game
decided, the next dealer, and the check mode (see the package docstring for the rules and the
options; ``docs/rules/marafon.md`` Part A).

Every kernel on the per-card path is ``inline='always'``; once-a-hand kernels (the deal, scoring,
the end of the game, the check mode) are separate functions. A small inlined kernel that takes
the state arrays and tests them reads them before it branches (``card_window_due``): numba keeps
the reference counts of an inlined copy's array arguments across a short-circuit over them, a
call pair every card on the per-card path.
"""
import numpy as np

from cardsim.kernels.cards import popcount
from cardsim.kernels.jit import njit, trace_put
from cardsim.kernels.rng import below, seed_stream, shuffle
from cardsim.kernels.tricks import (
    cards_conserved,
    cricche,
    holder_of,
    LAST_TRICK_THIRDS,
    mask_thirds,
    trick_mask,
    trick_winner,
)
from cardsim.kernels.marafon.layout import (
    ASKED,
    BATT,
    BOTH_HIGHER,
    BOTH_POINTS,
    CLAIMS,
    DEALER,
    DECK,
    DECL,
    E_BOUND,
    E_CARDS,
    E_POINTS,
    ERR,
    EXTRA,
    EXTRA_HANDS,
    FOUR_COINS,
    GAME_NO,
    GAMES,
    HAND,
    HAND_END,
    HAND_NO,
    HOLDER4D,
    LAST_WINNER,
    LEADER,
    LED,
    MARAF,
    MATCH_HANDS,
    MHOLDER,
    N_PLAYERS,
    NCARDS,
    O_BOTH_REACH,
    O_CLAIM_TIMING,
    O_CLAIMS,
    O_DECLARER,
    O_FIRST_DEALER,
    O_GAMES,
    O_MARAF_POINTS,
    O_MAX_HANDS,
    O_SECOND_DEALER,
    O_TARGET,
    O_TRUMP_ONLY,
    OVER,
    PLAYED,
    PLAYED_BY,
    PTS,
    PVIEW,
    R_CAP,
    R_CLAIM_CORRECT,
    R_CLAIM_WRONG,
    R_EXTRA,
    R_HIGHER,
    R_TARGET,
    REASON,
    SCORE,
    ST_SIZE,
    STREAM_DEALER,
    T_CLAIM,
    T_DEAL,
    T_DECLARE,
    T_END,
    T_GAME,
    T_HAND,
    T_PLAY,
    T_SCORE,
    T_TRICK,
    T_TRUMP,
    THIRDS,
    TR_LEN,
    TRICK,
    TRICK_NO,
    TRICKS,
    TRICKS_PLAYED,
    TRICKS_WON,
    TRUMP,
    TRUNC,
    VOID,
    WIN_SIDE,
    WON,
)


@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b, c, d):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True, inline='always')
def side_count(st, opts, side):
    """The side's claim count in thirds: score before the hand, thirds won, marafone (§A8)."""
    return 3 * st[SCORE + side] + st[THIRDS + side] + 3 * opts[O_MARAF_POINTS] * st[MARAF + side]


@njit(cache=True)
def owner_of(st, card):
    return holder_of(st[HAND:HAND + N_PLAYERS], card)


@njit(cache=True)
def reset_hand(st):
    for i in range(BATT, PVIEW):
        st[i] = 0
    for i in range(VOID, ST_SIZE):
        st[i] = 0
    st[TRUMP] = -1
    st[LED] = -1
    st[LAST_WINNER] = -1
    st[MHOLDER] = -1


@njit(cache=True)
def deal_to(st, i):
    """The seat dealt deck position ``i``: two rounds of packets of 5 from the dealer's right."""
    return (st[DEALER] + 1 + (i % 20) // 5) % 4


@njit(cache=True, inline='always')
def deal_card(st, i, card):
    """Deck position ``i`` is ``card``: it goes to its seat (``deal_to``)."""
    st[DECK + i] = card
    st[HAND + deal_to(st, i)] |= np.int64(1) << card


@njit(cache=True)
def deal(st, gdeck):
    """Shuffle and deal 10 each in two rounds of packets of 5 from the dealer's right: the seats of
    ``deal_to`` (the step adapter deals the same positions a card at a time, ``deal_card``), a
    packet at a time (per card, ``deal_card``'s seat arithmetic and stores cost Marafon 2 % of its
    throughput)."""
    for i in range(40):
        st[DECK + i] = i
    shuffle(gdeck, st, DECK, DECK + 40)
    for k in range(8):
        seat = deal_to(st, 5 * k)
        for j in range(5):
            st[HAND + seat] |= np.int64(1) << st[DECK + 5 * k + j]


@njit(cache=True, inline='always')
def dealt(st, trace):
    """The hand is dealt: the battitore is the 4D holder in a game's first hand, else the dealer's
    right. (Inlined into ``begin_hand``: one call a hand less.)"""
    st[HOLDER4D] = owner_of(st, FOUR_COINS)
    st[BATT] = st[HOLDER4D] if st[HAND_NO] == 1 else (st[DEALER] + 1) % 4
    log(st, trace, T_HAND, -1, st[HAND_NO], st[DEALER], st[BATT], st[HOLDER4D])
    for p in range(N_PLAYERS):
        log(st, trace, T_DEAL, p, st[HAND + p], 0, 0, 0)


@njit(cache=True)
def begin_hand(st, gdeck, trace):
    """Deal (``deal``), then ``dealt``."""
    reset_hand(st)
    deal(st, gdeck)
    dealt(st, trace)


@njit(cache=True, inline='always')
def set_trump(st, suit, trace):
    st[TRUMP] = suit
    st[LEADER] = st[BATT]
    for p in range(N_PLAYERS):
        if (cricche(st[HAND + p]) >> suit) & 1:
            st[MHOLDER] = p
    log(st, trace, T_TRUMP, st[BATT], suit, 0, 0, 0)


@njit(cache=True, inline='always')
def count_extra(st):
    """Once its trump is named, the hand counts in ``EXTRA_HANDS`` when it is an extra hand
    (``EXTRA``; read only by the record): the batch, the critique and the step adapter call it."""
    st[EXTRA_HANDS] += st[EXTRA]


@njit(cache=True, inline='always')
def end_game(st, side, reason, trace):
    st[OVER] = 1
    st[WIN_SIDE] = side
    st[REASON] = reason
    if side >= 0:
        st[GAMES + side] += 1
    log(st, trace, T_END, -1, reason, side, st[SCORE], st[SCORE + 1])


@njit(cache=True, inline='always')
def resolve_claim(st, opts, p, trace):
    """A correct claim wins the game at once, a wrong one loses it."""
    side = p & 1
    count = side_count(st, opts, side)
    ok = count >= opts[O_TARGET]
    st[CLAIMS] += 1
    st[HAND_END] = 1 if ok else 2
    log(st, trace, T_CLAIM, p, np.int64(ok), count, 0, 0)
    end_game(st, side if ok else 1 - side, np.int64(R_CLAIM_CORRECT if ok else R_CLAIM_WRONG), trace)


@njit(cache=True, inline='always')
def declarable(st, opts, p):
    """Suit mask of the cricche seat p may declare now (trick 1, his turn)."""
    if opts[O_DECLARER] == 1 and p != st[BATT]:
        return 0
    c = cricche(st[HAND + p])
    if opts[O_TRUMP_ONLY]:
        c &= 1 << st[TRUMP]
    return c


@njit(cache=True, inline='always')
def declare(st, p, c, trace):
    """Seat p declares the cricche of the suit mask ``c``."""
    st[MARAF + (p & 1)] += popcount(c)
    st[DECL + p] |= c
    log(st, trace, T_DECLARE, p, c, 0, 0, 0)


@njit(cache=True, inline='always')
def put_card(st, p, card, trace):
    st[HAND + p] &= ~(np.int64(1) << card)
    st[PLAYED] |= np.int64(1) << card
    st[PLAYED_BY + p] |= np.int64(1) << card
    if st[NCARDS] == 0:
        st[LED] = card // 10
    elif card // 10 != st[LED]:
        st[VOID + p] |= np.int64(1) << st[LED]
    st[TRICK + st[NCARDS]] = card
    st[NCARDS] += 1
    st[ASKED] = 0
    log(st, trace, T_PLAY, p, card, 0, 0, 0)


@njit(cache=True, inline='always')
def finish_trick(st, trace):
    """The trick goes to its winner's side with its thirds (+3 for the last trick)."""
    w = trick_winner(st[TRICK:TRICK + 4], st[NCARDS], st[TRUMP])
    winner = (st[LEADER] + w) & 3
    m = trick_mask(st[TRICK:TRICK + 4], st[NCARDS])
    thirds = mask_thirds(m)
    st[TRICK_NO] += 1
    if st[TRICK_NO] == TRICKS:
        thirds += LAST_TRICK_THIRDS
    side = winner & 1
    st[THIRDS + side] += thirds
    st[WON + side] |= m
    st[TRICKS_WON + side] += 1
    st[LAST_WINNER] = winner
    st[LEADER] = winner
    st[NCARDS] = 0
    st[LED] = -1
    st[TRICKS_PLAYED] += 1
    log(st, trace, T_TRICK, winner, thirds, st[THIRDS], st[THIRDS + 1], 0)


@njit(cache=True)
def score_hand(st, opts, trace):
    """Each side: its thirds truncated to whole points, plus its marafona bonuses."""
    for s in range(2):
        st[PTS + s] = st[THIRDS + s] // 3 + opts[O_MARAF_POINTS] * st[MARAF + s]
        st[SCORE + s] += st[PTS + s]
    log(st, trace, T_SCORE, -1, st[PTS], st[PTS + 1], st[SCORE], st[SCORE + 1])


@njit(cache=True)
def after_hand(st, opts, trace):
    """Decide the game after a scored hand: one side at the target wins; both: extra hands."""
    mode = opts[O_BOTH_REACH]
    if st[EXTRA]:
        d = st[PTS] - st[PTS + 1] if mode == BOTH_POINTS else st[SCORE] - st[SCORE + 1]
        if d != 0:
            end_game(st, np.int64(0 if d > 0 else 1), np.int64(R_HIGHER if mode == BOTH_HIGHER else R_EXTRA),
                     trace)
        return
    q0 = 3 * st[SCORE] >= opts[O_TARGET]
    q1 = 3 * st[SCORE + 1] >= opts[O_TARGET]
    if q0 and q1:
        if mode == BOTH_HIGHER and st[SCORE] != st[SCORE + 1]:
            end_game(st, np.int64(0 if st[SCORE] > st[SCORE + 1] else 1), np.int64(R_HIGHER), trace)
        else:
            st[EXTRA] = 1
    elif q0 or q1:
        end_game(st, np.int64(0 if q0 else 1), np.int64(R_TARGET), trace)


@njit(cache=True)
def next_dealer(st, opts):
    """Hand 2's dealer is the first hand's 4D holder (default), then the deal passes right."""
    if st[HAND_NO] == 1 and opts[O_SECOND_DEALER] == 0:
        st[DEALER] = st[HOLDER4D]
    else:
        st[DEALER] = (st[DEALER] + 1) % 4


@njit(cache=True)
def cap_game(st, trace):
    """The hand cap ends the game: the higher total wins, none on equal totals."""
    st[TRUNC] = 1
    d = st[SCORE] - st[SCORE + 1]
    end_game(st, np.int64(0 if d > 0 else (1 if d < 0 else -1)), np.int64(R_CAP), trace)


@njit(cache=True)
def first_dealer(opts, seed, game, gdeck):
    if opts[O_FIRST_DEALER] >= 0:
        return opts[O_FIRST_DEALER]
    seed_stream(gdeck, seed, game, np.int64(STREAM_DEALER))
    return below(gdeck, 4)



# ---- the flow of a match, step by step (the batch loops, the critique and the step adapter) ----
@njit(cache=True, inline='always')
def start_game(st, trace):
    """Game ``GAME_NO`` of the match starts: its scores and flags cleared."""
    st[SCORE] = 0
    st[SCORE + 1] = 0
    st[HAND_NO] = 0
    st[EXTRA] = 0
    st[OVER] = 0
    st[WIN_SIDE] = -1
    st[REASON] = -1
    log(st, trace, T_GAME, -1, st[GAME_NO], 0, 0, 0)


@njit(cache=True, inline='always')
def start_hand(st, opts, trace):
    """The game's next hand starts (numbered; the caller deals it), or the hand cap ends the game
    (``cap_game``): False."""
    if st[HAND_NO] >= opts[O_MAX_HANDS]:
        cap_game(st, trace)
        return False
    st[HAND_NO] += 1
    st[MATCH_HANDS] += 1
    return True


@njit(cache=True, inline='always')
def match_over(st, opts):
    """After a game: the match is over (a check error, a game without a winner, a side with a
    majority of ``games_per_match``, or its last game played)."""
    need = opts[O_GAMES] // 2 + 1
    return st[ERR] != 0 or st[WIN_SIDE] < 0 or st[GAMES] >= need or st[GAMES + 1] >= need or \
        st[GAME_NO] + 1 >= opts[O_GAMES]


@njit(cache=True)
def check_cards(st):
    """40 cards: hands disjoint, hands + played = deck, and every hand holds 10 - tricks done
    (- 1 if it played to this trick: ``tricks.cards_conserved``); tricks won + trick = played."""
    if not cards_conserved(st[HAND:HAND + N_PLAYERS], st[PLAYED], st[LEADER], st[NCARDS], TRICKS - st[TRICK_NO]):
        return E_CARDS
    if (st[WON] | st[WON + 1] | trick_mask(st[TRICK:TRICK + 4], st[NCARDS])) != st[PLAYED] or st[WON] & st[WON + 1]:
        return E_CARDS
    return 0


@njit(cache=True)
def check_hand(st, opts):
    """After a scored hand: 35 thirds, 11 points + bonuses, scores within bounds (at most
    11 points and four marafone a hand)."""
    if st[HAND_END] != 0:
        return 0
    bonus = opts[O_MARAF_POINTS] * (st[MARAF] + st[MARAF + 1])
    if st[THIRDS] + st[THIRDS + 1] != 35 or st[PTS] + st[PTS + 1] != 11 + bonus:
        return E_POINTS
    for s in range(2):
        if st[PTS + s] < 0 or st[SCORE + s] < 0 or st[SCORE + s] > (11 + 4 * opts[O_MARAF_POINTS]) * st[HAND_NO]:
            return E_BOUND
    return 0


@njit(cache=True, inline='always')
def close_hand(st, opts, check, trace):
    """After the hand's last trick: score it (``check``: its check-mode test) and decide the game;
    returns a check error."""
    score_hand(st, opts, trace)
    e = check_hand(st, opts) if check else 0
    if e == 0:
        after_hand(st, opts, trace)
    return e


@njit(cache=True, inline='always')
def window_opens(st, opts):
    """A claim window is held (``ASKED``: no second one before the next card); whether it asks
    the seats (claims on, not an extra hand). Branch-free over the arrays (``&``, not ``and``;
    see ``card_window_due``)."""
    st[ASKED] = 1
    return (opts[O_CLAIMS] != 0) & (st[EXTRA] == 0)


@njit(cache=True, inline='always')
def card_window_due(st, opts):
    """``claim_timing = every_card``: a window before the card of the seat to play, unless one
    was just held or the game is over.

    The three fields are read before the test: a short-circuit over the arrays themselves kept
    the reference counts of the arrays passed to each inlined copy (an NRT incref/decref pair
    before every card of the play loop), which with the per-card deal cost Marafon 5-8 % of its
    throughput against the single-file kernel (issue 42)."""
    timing = opts[O_CLAIM_TIMING]
    asked = st[ASKED]
    over = st[OVER]
    return timing == 1 and asked == 0 and over == 0
