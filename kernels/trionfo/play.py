"""One hand's decisions as the batch plays them: the auction, the contract (trump, the called
card or the named partner, the first leader) and the eight tricks, each decision its plug-in's,
its search's or its built-in's (``bid_choice``, ``trump_choice``, ``name_choice``,
``call_choice``, ``card_choice``). A table with a plug-in or search seat plays its tricks through
a callback (``plugged_cfunc``), compiled the first time one plays."""
import numba
import numpy as np
from numba import types

from cardsim.kernels.jit import PLUG_SIG, lazy_cfunc, njit
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.kernels.tricks import legal_cards
from cardsim.kernels.trionfo.layout import (
    EX_TRUMP, E_AUCTION, E_ILLEGAL, E_NO_MOVES, E_PLUGIN, FIRST_SPEAKER, HAND, HIGH_LEVEL, K_BID, K_CALL,
    K_CARD, K_NAME, K_TRUMP, LEADER, LED, LEVELS, N_PLAYERS, O_SELF_CALL, PLUGGED, PLUGIN, S_SEARCH, TRICKS, TRUMP,
)
from cardsim.kernels.trionfo.rules import (
    callable_cards, check_cards, declare, finish_trick, next_speaker, nxt, open_play, put_card, set_called, set_named,
    set_trump, speak,
)
from cardsim.kernels.trionfo.view import plugin_decide
from cardsim.kernels.trionfo.strategies import choose_bid, choose_called, choose_card, choose_named, choose_trump
from cardsim.kernels.trionfo.search import SEARCH_SIG


@njit(cache=True, inline='always')
def mark_plugged(st, sids):
    """A table with a plug-in or search seat plays the general loops (``PLUGGED``)."""
    for p in range(N_PLAYERS):
        if sids[p] >= PLUGIN or sids[p] == S_SEARCH:
            st[PLUGGED] = 1


# =============================================================================
# the auction and the contract
# =============================================================================
@njit(cache=True, inline='always')
def bid_choice(st, opts, p, sids, params, gplay, plug):
    """Seat p's call in the auction (0 pass, else a level): its plug-in's K_BID where its kinds
    ask, else its built-in's (a search seat bids as its rollout policy); -2 for a plug-in's
    illegal answer."""
    sid, level = sids[p], -1
    if sid >= PLUGIN:
        sid -= PLUGIN
        level = plugin_decide(st, opts, p, K_BID, st[HIGH_LEVEL], plug, params)
        if level == -2:
            return -2
    if level < 0:
        off = 0
        if sid == S_SEARCH:              # a search seat bids as its rollout policy
            sid = np.int64(params[p, SP_POLICY])
            off = SP_PRM
        level = choose_bid(st, p, st[HIGH_LEVEL], sid, params[p, off:], gplay)
    return level


@njit(cache=True)
def auction(st, opts, sids, params, check, gplay, trace, plug):
    """Run the auction (``next_speaker``, ``speak``); returns a check error (the winner is
    HIGH_BIDDER, -1 if all passed)."""
    p = st[FIRST_SPEAKER]
    spoken = 0
    while True:
        p = next_speaker(st, opts, p, spoken)
        if p < 0:
            return E_AUCTION if p == -2 else 0
        level = bid_choice(st, opts, p, sids, params, gplay, plug)
        if level == -2:
            return E_PLUGIN
        if check and level != 0 and not (st[HIGH_LEVEL] < level <= LEVELS):
            return E_ILLEGAL
        speak(st, p, level, trace)
        spoken += 1
        p = nxt(p)


@njit(cache=True, inline='always')
def declarer_sid(sids, params, d):
    """(plug-in seat, the built-in that decides what it leaves, the column of its row): a search
    declarer names (unless it searches the trump) and calls as its rollout policy."""
    sid = sids[d]
    plugged = sid >= PLUGIN
    if plugged:
        sid -= PLUGIN
    off = 0
    if sid == S_SEARCH:
        sid = np.int64(params[d, SP_POLICY])
        off = SP_PRM
    return plugged, sid, off


@njit(cache=True, inline='always')
def trump_choice(st, opts, d, sids, params, gplay, plug, srch):
    """The declarer d's trump: its plug-in's K_TRUMP where asked, else its search's (``trump``
    set) or its built-in's; -2 for a plug-in's illegal answer."""
    plugged, sid, off = declarer_sid(sids, params, d)
    trump = -1
    if plugged:
        trump = plugin_decide(st, opts, d, K_TRUMP, 0, plug, params)
        if trump == -2:
            return -2
    if trump < 0 and off > 0 and params[d, EX_TRUMP] != 0:
        trump = srch(st, opts, d, K_TRUMP, 0, params[d], gplay)
    if trump < 0:
        trump = choose_trump(st, d, sid, gplay)
    return trump


@njit(cache=True, inline='always')
def name_choice(st, opts, d, sids, params, gplay, plug):
    """The seat the declarer d names (name_player): its plug-in's K_NAME where asked, else its
    built-in's; -2 for a plug-in's illegal answer."""
    plugged, sid, off = declarer_sid(sids, params, d)
    q = -1
    if plugged:
        q = plugin_decide(st, opts, d, K_NAME, 0, plug, params)
        if q == -2:
            return -2
    return choose_named(st, d, sid, gplay) if q < 0 else q


@njit(cache=True, inline='always')
def call_choice(st, opts, d, sids, params, gplay, plug):
    """The card the declarer d calls (call_card): its plug-in's K_CALL where asked, else its
    built-in's; -2 for a plug-in's illegal answer."""
    plugged, sid, off = declarer_sid(sids, params, d)
    c = -1
    if plugged:
        c = plugin_decide(st, opts, d, K_CALL, callable_cards(st, opts, d), plug, params)
        if c == -2:
            return -2
    return choose_called(st, d, st[TRUMP], sid, params[d, off:], gplay, opts[O_SELF_CALL] != 0) if c < 0 else c


@njit(cache=True)
def make_contract(st, opts, sids, params, gplay, trace, plug, srch):
    """Declarer (``declare``), trump, partner and the leader of trick 1 (``set_trump``,
    ``set_named`` or ``set_called``, ``open_play``); returns E_PLUGIN for a plug-in's illegal
    answer, else 0."""
    d = declare(st)
    trump = trump_choice(st, opts, d, sids, params, gplay, plug, srch)
    if trump == -2:
        return E_PLUGIN
    partner = set_trump(st, opts, trump)
    if partner == K_NAME:
        q = name_choice(st, opts, d, sids, params, gplay, plug)
        if q == -2:
            return E_PLUGIN
        set_named(st, q)
    elif partner == K_CALL:
        c = call_choice(st, opts, d, sids, params, gplay, plug)
        if c == -2:
            return E_PLUGIN
        set_called(st, c)
    open_play(st, opts, trace)
    return 0


# =============================================================================
# card play
# =============================================================================
@njit(cache=True, inline='always')
def card_choice(st, opts, p, legal, sid, gplay, plug, params, plugged, srch):
    """Seat p's card among the mask ``legal``: its plug-in's K_CARD where asked, else its
    search's or its built-in's; -2 for a plug-in's illegal answer."""
    card = -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        card = plugin_decide(st, opts, p, K_CARD, legal, plug, params)
        if card == -2:
            return -2
    if card < 0:
        if plugged and sid == S_SEARCH:
            card = srch(st, opts, p, K_CARD, legal, params[p], gplay)
        else:
            card = choose_card(st, opts, p, legal, sid, params[p], gplay)
    return card


@njit(cache=True, inline='always')
def play_turn(st, opts, p, sid, check, gplay, trace, plug, params, plugged, srch):
    legal = legal_cards(st[HAND + p], st[LED])
    if legal == 0:
        return E_NO_MOVES
    card = card_choice(st, opts, p, legal, sid, gplay, plug, params, plugged, srch)
    if card == -2:
        return E_PLUGIN
    if check and not (legal >> card) & 1:
        return E_ILLEGAL
    put_card(st, p, card, trace)
    return 0


@njit(cache=True)
def play_tricks(st, opts, sids, params, check, gplay, trace, plug, srch):
    """The eight tricks at a table without a plug-in seat (no plug-in branches)."""
    return tricks_loop(st, opts, sids, params, check, gplay, trace, plug, False, srch)


@njit(cache=True)
def play_tricks_plugged(st, opts, sids, params, check, gplay, trace, plug, srch):
    """``play_tricks`` for a table with a plug-in or search seat. Two copies of the card
    loop: the call site of ``plugin_decide`` alone cost the built-in strategies about 15 % of
    their speed (measured), so the built-in tables play a loop without it; this one reaches
    the batch kernels as the callback ``plugged_cfunc()`` (PLUGGED_SIG), compiled the first
    time such a table plays."""
    return tricks_loop(st, opts, sids, params, check, gplay, trace, plug, True, srch)


@njit(cache=True, inline='always')
def tricks_loop(st, opts, sids, params, check, gplay, trace, plug, plugged, srch):
    for t in range(TRICKS):
        leader = st[LEADER]
        for k in range(N_PLAYERS):
            p = (leader + k) % N_PLAYERS
            e = play_turn(st, opts, p, sids[p], check, gplay, trace, plug, params, plugged, srch)
            if e == 0 and check:
                e = check_cards(st)
            if e:
                return e
        finish_trick(st, trace)
    return 0


# A table with a plug-in or search seat plays its tricks through PLUGGED_SIG: ``plugged_cfunc()``
# compiled the first time one plays (jit.lazy_cfunc), ``no_plugged`` otherwise (never called).
PLUGGED_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[::1], types.float64[:, ::1],
                          types.boolean, types.uint64[::1], types.int64[:, ::1], types.FunctionType(PLUG_SIG),
                          types.FunctionType(SEARCH_SIG))


def _plugged_entry(st, opts, sids, params, check, gplay, trace, plug, srch):
    return play_tricks_plugged(st, opts, sids, params, check, gplay, trace, plug, srch)


plugged_cfunc = lazy_cfunc(PLUGGED_SIG, _plugged_entry)


@numba.cfunc(PLUGGED_SIG, cache=True)
def no_plugged(st, opts, sids, params, check, gplay, trace, plug, srch):
    """The tricks argument of a table without a plug-in or search seat (never called)."""
    return 0
