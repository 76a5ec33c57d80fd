"""Trionfo's critique (issue 40, ``kernels.critique``): a session played as the batch plays it,
every decision of one seat rowed and its legal actions valued (``critique_deal``)."""
import numpy as np

from cardsim.kernels.critique import race_actions
from cardsim.kernels.jit import njit, no_plugin, search_callback, with_plugin_params
from cardsim.kernels.rng import STREAM_PLAY, seed_stream
from cardsim.kernels.search import SP_POLICY, SP_ROLLOUTS, SP_WORLDS
from cardsim.kernels.trick_search import HALT, critique_context, row_decision, search_scratch
from cardsim.kernels.tricks import legal_cards
from cardsim.kernels.trionfo.actions import act_code, mask_acts
from cardsim.kernels.trionfo.layout import (
    DECLARER, ERR, E_AUCTION, E_NO_MOVES, E_PLUGIN, FIRST_SPEAKER, HAND, HAND_IDX, HIGH_LEVEL, K_BID, K_CALL, K_CARD,
    K_NAME, K_TRUMP, LEADER, LED, LEVELS, MAX_ACTS, N_PLAYERS, N_PLUG_PARAMS, PARTNER, PLUGIN, ROLE_AUCTION,
    ROLE_DECLARER, ROLE_DEFENDER, ROLE_PARTNER, STREAM_HAND, ST_SIZE, S_SEARCH, TRACE_W, TRICKS, TRICK_NO, VOID_HAND,
)
from cardsim.kernels.trionfo.play import bid_choice, call_choice, card_choice, mark_plugged, name_choice, trump_choice
from cardsim.kernels.trionfo.rules import (
    callable_cards, close_auction, deal, declare, finish_trick, first_dealer, next_hand, next_speaker, nxt, open_play,
    put_card, set_called, set_named, set_trump, settle, speak, start_hand, start_session,
)
from cardsim.kernels.trionfo.search import no_search, search_cfunc, world_values


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
@njit(cache=True)
def role(st, p):
    """Seat p's part in the hand as p itself knows it: ROLE_AUCTION before the contract, then
    declarer, partner (it holds the called card or was named; a self-caller is the declarer),
    defender."""
    if st[DECLARER] < 0:
        return ROLE_AUCTION
    if p == st[DECLARER]:
        return ROLE_DECLARER
    return ROLE_PARTNER if p == st[PARTNER] else ROLE_DEFENDER


@njit(cache=True)
def critique_world(wx, w, active, out):
    """``world_values`` of world ``w`` for ``race_actions`` (``wx``: ``critique_eval``'s)."""
    st, opts, p, kind, ctx, acts, n, prm, rollouts, sids, key, base, sim, work, g, trace = wx
    world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, key, w, base, sim, work, g, trace, out)


@njit(cache=True)
def critique_eval(st, opts, p, kind, ctx, acts, n, chosen, prm, key, row, acts_out):
    """Value every legal action ``acts[:n]`` (action codes) of seat ``p``'s decision ``kind``
    (``ctx``: ``play_choice``) with the search row ``prm`` (``kernels.critique.race_actions``: a
    racing select stage over ``worlds`` worlds, then the best and the choice ``chosen`` measured
    on as many fresh ones) into ``row`` and ``acts_out``. The value is the search's: seat p's
    money in the hand, each rollout played to the hand's settlement (a thrown-in deal: 0). Bids,
    the trump, the call and the naming are valued too (``play_choice``), whatever the row's
    ``trump``."""
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sids = np.full(N_PLAYERS, np.int64(prm[SP_POLICY]))
    base, sim, work, _, g, trace, _ = search_scratch(ST_SIZE, 0, TRACE_W)
    wx = (st, opts, p, kind, ctx, acts, n, prm, rollouts, sids, key, base, sim, work, g, trace)
    race_actions(critique_world, wx, acts, n, chosen, worlds, rollouts, row, acts_out)


@njit(cache=True)
def cr_decision(st, opts, p, kind, ctx, acts, n, i, cr):
    """A decision of seat ``p`` (index ``i`` of ``acts[:n]`` chosen) in the critique driver
    (``trick_search.row_decision``; its row's detail p's ``role``), valued by ``critique_eval``
    when sampled."""
    k, key = row_decision(cr, st, p, kind, st[TRICK_NO], role(st, p), acts, n, i)
    if k >= 0:
        critique_eval(st, opts, p, kind, ctx, acts, n, i, cr[1], key, cr[5][k], cr[6][k])


@njit(cache=True)
def cr_auction(st, opts, sids, params, gplay, trace, plug, cr):
    """``auction`` in the critique driver (``next_speaker``, ``speak``; each call is a K_BID
    decision)."""
    cx = cr[4]
    acts = np.empty(LEVELS + 1, np.int64)
    p = st[FIRST_SPEAKER]
    spoken = 0
    while True:
        p = next_speaker(st, opts, p, spoken)
        if p < 0:
            return E_AUCTION if p == -2 else 0
        if cx[2] == cx[3]:
            return HALT
        level = bid_choice(st, opts, p, sids, params, gplay, plug)
        if level == -2:
            return E_PLUGIN
        high = st[HIGH_LEVEL]
        acts[0] = act_code(K_BID, 0)
        for k in range(high + 1, LEVELS + 1):
            acts[k - high] = act_code(K_BID, k)
        cr_decision(st, opts, p, K_BID, spoken, acts, LEVELS + 1 - high, 0 if level == 0 else level - high, cr)
        speak(st, p, level, trace)
        spoken += 1
        p = nxt(p)


@njit(cache=True)
def cr_contract(st, opts, sids, params, gplay, trace, plug, srch, cr):
    """``make_contract`` in the critique driver (``declare``, ``set_trump``, ``set_named`` or
    ``set_called``, ``open_play``; the trump, the call or the naming are decisions)."""
    cx = cr[4]
    acts = np.empty(MAX_ACTS, np.int64)
    d = declare(st)
    if cx[2] == cx[3]:
        return HALT
    trump = trump_choice(st, opts, d, sids, params, gplay, plug, srch)
    if trump == -2:
        return E_PLUGIN
    for s in range(4):
        acts[s] = act_code(K_TRUMP, s)
    cr_decision(st, opts, d, K_TRUMP, 0, acts, 4, trump, cr)
    partner = set_trump(st, opts, trump)
    if partner >= 0 and cx[2] == cx[3]:
        return HALT
    if partner == K_NAME:
        q = name_choice(st, opts, d, sids, params, gplay, plug)
        if q == -2:
            return E_PLUGIN
        for k in range(1, N_PLAYERS):
            acts[k - 1] = act_code(K_NAME, (d + k) % N_PLAYERS)
        cr_decision(st, opts, d, K_NAME, 0, acts, N_PLAYERS - 1, (q - d - 1) % N_PLAYERS, cr)
        set_named(st, q)
    elif partner == K_CALL:
        c = call_choice(st, opts, d, sids, params, gplay, plug)
        if c == -2:
            return E_PLUGIN
        n, i = mask_acts(K_CALL, callable_cards(st, opts, d), c, acts)
        cr_decision(st, opts, d, K_CALL, 0, acts, n, i, cr)
        set_called(st, c)
    open_play(st, opts, trace)
    return 0


@njit(cache=True)
def cr_tricks(st, opts, sids, params, gplay, trace, plug, srch, cr):
    """``tricks_loop`` in the critique driver (each card is a K_CARD decision)."""
    cx = cr[4]
    acts = np.empty(MAX_ACTS, np.int64)
    for t in range(TRICKS):
        leader = st[LEADER]
        for k in range(N_PLAYERS):
            p = (leader + k) % N_PLAYERS
            legal = legal_cards(st[HAND + p], st[LED])
            if legal == 0:
                return E_NO_MOVES
            if cx[2] == cx[3]:
                return HALT
            card = card_choice(st, opts, p, legal, sids[p], gplay, plug, params, True, srch)
            if card == -2:
                return E_PLUGIN
            n, i = mask_acts(K_CARD, legal, card, acts)
            cr_decision(st, opts, p, K_CARD, 0, acts, n, i, cr)
            put_card(st, p, card, trace)
        finish_trick(st, trace)
    return 0


@njit(cache=True)
def cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, srch, cr):
    """``play_hand`` (with ``deal_until_bid``: ``start_hand``, ``deal``, ``close_auction``) in the
    critique driver."""
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[HAND_IDX])
    start_hand(st)
    while True:
        deal(st, gdeck, trace)
        e = cr_auction(st, opts, sids, params, gplay, trace, plug, cr)
        if e:
            return e
        if close_auction(st, opts, trace) != 0:
            break
    if st[VOID_HAND] == 0:
        e = cr_contract(st, opts, sids, params, gplay, trace, plug, srch, cr)
        if e == 0:
            e = cr_tricks(st, opts, sids, params, gplay, trace, plug, srch, cr)
        if e == 0:
            settle(st, opts, trace)
    return e


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug, srch):
    """Play session ``game`` of run ``seed`` exactly as ``play_session`` does (the same streams;
    the general card loop, which a built-in table's loop matches) and write a
    ``kernels.critique`` row for each decision of ``seat`` (at most ``len(rows)``): its calls
    in every auction (thrown-in deals too), its trump, call or naming as declarer, its cards. A
    sampled one (``rate``) with more than one legal action is valued by ``critique_eval`` with
    the search row ``prm`` (its own stream, STREAM_CRITIQUE), its state kept in ``snaps``.
    ``stop`` >= 0 stops the session before its decision number ``stop`` (any seat's:
    ``CR_STEP``), the state there. ``params`` carries the plug-in rows (``with_plugin_params``),
    ``srch`` is the search (SEARCH_SIG). Returns (rows written, decisions of ``seat``, the state)."""
    st = np.zeros(ST_SIZE, np.int64)
    gdeck = np.zeros(2, np.uint64)
    gplay = np.zeros(2, np.uint64)
    cr = critique_context(seed, game, seat, prm, rate, stop, rows, acts_out, snaps)
    cx = cr[4]
    start_session(st, first_dealer(opts, seed, game, gdeck))
    mark_plugged(st, sids)
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    while True:                          # the hands, as ``play_session``
        e = cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, srch, cr)
        if e == HALT:
            break
        st[ERR] = e
        if e:
            st[HAND_IDX] += 1            # hands played, the one that failed included
            break
        if next_hand(st, opts):
            break
    return cx[0], cx[1], st

def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search (as ``play_batch``): session ``deal_id``."""
    return critique_deal(seed, deal_id, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), seat,
                         np.ascontiguousarray(prm, dtype=np.float64), float(rate), stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))
