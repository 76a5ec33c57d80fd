"""One Marafon match: a seat's card and trump (plug-in, search or built-in), a trick with its
declarations and claim windows, a hand, a game, the match and its record row. The built-in
tables play ``play_out`` (no plug-in branches); a table with a plug-in or search seat plays its
hands through the callback ``plugged_cfunc()`` (PLUGGED_SIG), compiled the first time one plays."""
import numba
import numpy as np
from numba import types

from cardsim.kernels.jit import lazy_cfunc, njit, PLUG_SIG
from cardsim.kernels.rng import seed_stream, STREAM_PLAY
from cardsim.kernels.tricks import legal_cards
from cardsim.kernels.marafon.layout import (
    BATT,
    CLAIMS,
    DEALER,
    E_ILLEGAL,
    E_NO_MOVES,
    E_PLUGIN,
    ERR,
    EXTRA,
    EXTRA_HANDS,
    FIRST_DEALER,
    GAME_NO,
    GAMES,
    HAND,
    HAND_END,
    HAND_SLOTS,
    HB_BATT,
    HB_END,
    HB_EXTRA,
    HB_GAME,
    HB_HOLDER,
    HB_MARAF,
    HB_PTS,
    HB_SIZE,
    HB_THIRDS,
    HB_TRUMP,
    K_CARD,
    K_TRUMP,
    LAST_WINNER,
    LEADER,
    LED,
    MARAF,
    MATCH_HANDS,
    MHOLDER,
    N,
    N_PLAYERS,
    O_GAMES,
    OVER,
    PLUGGED,
    PLUGIN,
    PTS,
    RC_CLAIMS,
    RC_DEALER,
    RC_ERR,
    RC_EXTRA,
    RC_GAMES,
    RC_GAMES_WON,
    RC_HAND,
    RC_HANDS,
    RC_REASON,
    RC_SCORE,
    RC_TRICKS,
    RC_TRUNC,
    RC_WIN_SIDE,
    RC_WINNER,
    REASON,
    S_SEARCH,
    SCORE,
    STREAM_HAND,
    THIRDS,
    TRICK_NO,
    TRICKS,
    TRICKS_PLAYED,
    TRUMP,
    TRUNC,
)
from cardsim.kernels.marafon.rules import (
    begin_hand,
    card_window_due,
    check_cards,
    close_hand,
    count_extra,
    finish_trick,
    first_dealer,
    match_over,
    next_dealer,
    put_card,
    set_trump,
    start_game,
    start_hand,
)
from cardsim.kernels.marafon.view import asks, plugin_decide
from cardsim.kernels.marafon.strategies import choose_card, choose_trump
from cardsim.kernels.marafon.windows import claim_window, declare_step
from cardsim.kernels.marafon.search import search_card, search_trump


@njit(cache=True, inline='always')
def card_choice(st, opts, p, legal, sid, prm, gplay, plug, params, plugged):
    """Seat p's card among the mask ``legal`` (its plug-in's K_CARD where asked, else its
    search's or its built-in's; ``prm`` its row), -2 for a plug-in's illegal answer."""
    card = -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, p, K_CARD):
            card = plugin_decide(st, opts, p, K_CARD, legal, plug, params)
        if card == -2:
            return -2
    if card < 0:
        if plugged and sid == S_SEARCH:
            card = search_card(st, opts, p, legal, prm, gplay, plug)
        else:
            card = choose_card(st, opts, p, legal, sid, prm, gplay)
    return card


@njit(cache=True, inline='always')
def play_turn(st, opts, p, sid, prm, check, gplay, trace, plug, params, plugged):
    """Seat p plays one card; returns a check error (0 = none)."""
    legal = legal_cards(st[HAND + p], st[LED])
    if legal == 0:
        return E_NO_MOVES
    card = card_choice(st, opts, p, legal, sid, prm, gplay, plug, params, plugged)
    if card == -2:
        return E_PLUGIN
    if check and not (legal >> card) & 1:
        return E_ILLEGAL
    put_card(st, p, card, trace)
    return 0


@njit(cache=True, inline='always')
def play_trick(st, opts, sids, params, check, gplay, trace, plug, plugged):
    """One trick with its declarations and claim windows; returns a check error."""
    leader = st[LEADER]
    for k in range(N_PLAYERS):
        p = (leader + k) & 3
        if st[TRICK_NO] == 0:
            e = declare_step(st, opts, p, sids, params, gplay, trace, plug, plugged)
            if e:
                return e
        if card_window_due(st, opts):
            e = claim_window(st, opts, p, sids, params, gplay, trace, plug, plugged)
            if e:
                return e
        if st[OVER]:
            return 0
        e = play_turn(st, opts, p, sids[p], params[p], check, gplay, trace, plug, params, plugged)
        if e == 0 and check:
            e = check_cards(st)
        if e:
            return e
    finish_trick(st, trace)
    return claim_window(st, opts, st[LAST_WINNER], sids, params, gplay, trace, plug, plugged)


@njit(cache=True, inline='always')
def trump_choice(st, opts, b, sids, params, gplay, plug):
    """The battitore b's trump at a table with a plug-in or search seat: its plug-in's K_TRUMP
    where asked, else its search's or its built-in's; -2 for a plug-in's illegal answer."""
    sid, suit = sids[b], -1
    if sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, b, K_TRUMP):
            suit = plugin_decide(st, opts, b, K_TRUMP, 0, plug, params)
        if suit == -2:
            return -2
    if suit < 0:
        if sid == S_SEARCH:
            suit = search_trump(st, opts, b, params[b], gplay, plug)
        else:
            suit = choose_trump(st[HAND + b], sid, params[b], opts, gplay)
    return suit


@njit(cache=True)
def write_hand(st, row, extra):
    k = st[MATCH_HANDS] - 1
    if k >= HAND_SLOTS:
        return
    b = RC_HAND + k * HB_SIZE
    row[b + HB_GAME] = st[GAME_NO]
    row[b + HB_BATT] = st[BATT]
    row[b + HB_TRUMP] = st[TRUMP]
    for s in range(2):
        row[b + HB_PTS + s] = st[PTS + s]
        row[b + HB_THIRDS + s] = st[THIRDS + s]
        row[b + HB_MARAF + s] = st[MARAF + s]
    row[b + HB_HOLDER] = st[MHOLDER]
    row[b + HB_END] = st[HAND_END]
    row[b + HB_EXTRA] = extra


@njit(cache=True, inline='always')
def play_tricks(st, opts, sids, params, check, gplay, trace, plug, plugged):
    e = 0
    for t in range(TRICKS):
        e = play_trick(st, opts, sids, params, check, gplay, trace, plug, plugged)
        if e or st[OVER]:
            break
    if e == 0 and st[OVER] == 0:
        e = close_hand(st, opts, check, trace)
    return e


@njit(cache=True)
def play_out(st, opts, sids, params, check, gplay, trace, plug):
    """Play the ten tricks of a dealt hand whose trump is named, score it and decide the
    game; returns a check error. A table without a plug-in or search seat (no plug-in
    branches)."""
    return play_tricks(st, opts, sids, params, check, gplay, trace, plug, False)


@njit(cache=True)
def plugged_hand(st, opts, sids, params, check, gplay, trace, plug):
    """Trump and tricks of a dealt hand at a table with a plug-in or search seat (``PLUGGED``):
    the battitore's trump (a plug-in's K_TRUMP, a search; ``count_extra``), then ``play_out``
    with the plug-in and search branches. Returns a check error, or -E_PLUGIN when the trump answer stopped the
    match (no hand played). Two copies of the play loop: the call sites of ``plugin_decide``
    alone cost the built-in strategies 15-25 % of their speed (measured), so the built-in
    tables play a loop without them; this one reaches the batch kernels as the callback
    ``plugged_cfunc()`` (PLUGGED_SIG), compiled the first time such a table plays."""
    suit = trump_choice(st, opts, st[BATT], sids, params, gplay, plug)
    if suit == -2:
        return -E_PLUGIN
    set_trump(st, suit, trace)
    count_extra(st)
    return play_tricks(st, opts, sids, params, check, gplay, trace, plug, True)


# A table with a plug-in or search seat plays its hands through PLUGGED_SIG: ``plugged_cfunc()``
# compiled the first time one plays (jit.lazy_cfunc), ``no_plugged`` otherwise (never called).
PLUGGED_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[::1], types.float64[:, ::1],
                          types.boolean, types.uint64[::1], types.int64[:, ::1], types.FunctionType(PLUG_SIG))


def _plugged_entry(st, opts, sids, params, check, gplay, trace, plug):
    return plugged_hand(st, opts, sids, params, check, gplay, trace, plug)


plugged_cfunc = lazy_cfunc(PLUGGED_SIG, _plugged_entry)


@numba.cfunc(PLUGGED_SIG, cache=True)
def no_plugged(st, opts, sids, params, check, gplay, trace, plug):
    """The hand argument of a table without a plug-in or search seat (never called)."""
    return 0


@njit(cache=True, inline='always')
def play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand):
    """Deal, name trump and play hand ``HAND_NO`` to its end; returns a check error. A table
    with a plug-in or search seat plays it with ``hand`` (``plugged_hand``, PLUGGED_SIG)."""
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[MATCH_HANDS])
    begin_hand(st, gdeck, trace)
    extra = st[EXTRA]                 # naming trump leaves it alone; the hand's play may set it
    if st[PLUGGED]:
        e = hand(st, opts, sids, params, check, gplay, trace, plug)
        if e == -E_PLUGIN:            # the trump answer stopped the match (the hand not counted)
            return E_PLUGIN
    else:
        b = st[BATT]
        set_trump(st, choose_trump(st[HAND + b], sids[b], params[b], opts, gplay), trace)
        count_extra(st)
        e = play_out(st, opts, sids, params, check, gplay, trace, plug)
    write_hand(st, row, extra)
    return e


@njit(cache=True, inline='always')
def play_game(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand):
    """One game to the target (or a claim); returns a check error."""
    start_game(st, trace)
    while st[OVER] == 0:
        if not start_hand(st, opts, trace):
            break
        e = play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand)
        if e:
            return e
        next_dealer(st, opts)
    return 0


@njit(cache=True)
def write_match(st, row, game):
    g0 = st[GAMES]
    g1 = st[GAMES + 1]
    side = 0 if g0 > g1 else (1 if g1 > g0 else -1)
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_REASON] = st[REASON]
    row[RC_WIN_SIDE] = side
    row[RC_WINNER] = -1 if side < 0 else side + 2 * (game & 1)
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_TRICKS] = st[TRICKS_PLAYED]
    row[RC_HANDS] = st[MATCH_HANDS]
    row[RC_GAMES] = st[GAME_NO] + 1
    for s in range(2):
        row[RC_GAMES_WON + s] = st[GAMES + s]
        row[RC_SCORE + s] = st[SCORE + s]
    row[RC_CLAIMS] = st[CLAIMS]
    row[RC_EXTRA] = st[EXTRA_HANDS]


@njit(cache=True, inline='always')
def play_match(st, opts, seed, game, sids, params, check, trace, gdeck, gplay, row, plug, hand):
    """Play match ``game`` of run ``seed`` into ``row``; returns the check error. Seats with
    sid >= PLUGIN are decided by ``plug`` where its kinds ask (``plugin_decide``)."""
    st[:] = 0
    row[:] = 0
    st[N] = N_PLAYERS
    for p in range(N_PLAYERS):
        if sids[p] >= PLUGIN or sids[p] == S_SEARCH:
            st[PLUGGED] = 1
    st[DEALER] = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = st[DEALER]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    for g in range(opts[O_GAMES]):
        st[GAME_NO] = g
        st[ERR] = play_game(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand)
        if match_over(st, opts):
            break
    write_match(st, row, game)
    return st[ERR]
