"""Marafon's critique (issue 40, ``kernels.critique`` for the shared parts): a match played as the
batch plays it, every decision of one seat rowed and, when sampled, each of its legal actions
valued by the search's worlds (``world_values``). HALT, act_code, decision_kind, mask_acts:
``kernels.trick_search`` (a claim window and the card after it see the same state: their action
codes tell them apart)."""
import numpy as np

from cardsim.kernels.critique import race_actions
from cardsim.kernels.jit import njit, no_plugin, with_plugin_params
from cardsim.kernels.rng import seed_stream, STREAM_PLAY
from cardsim.kernels.search import SP_ROLLOUTS, SP_WORLDS
from cardsim.kernels.trick_search import critique_context, HALT, mask_acts, row_decision, search_scratch
from cardsim.kernels.tricks import legal_cards
from cardsim.kernels.marafon.layout import (
    BATT,
    DEALER,
    E_NO_MOVES,
    E_PLUGIN,
    ERR,
    FIRST_DEALER,
    GAME_NO,
    HAND,
    K_CARD,
    K_CLAIM,
    K_DECLARE,
    K_TRUMP,
    LAST_WINNER,
    LEADER,
    LED,
    MATCH_HANDS,
    MAX_ACTS,
    N,
    N_PARAMS,
    N_PLAYERS,
    N_PLUG_PARAMS,
    O_AUTO_DECLARE,
    O_GAMES,
    OVER,
    PLUGGED,
    PLUGIN,
    S_SEARCH,
    ST_SIZE,
    STREAM_HAND,
    TRACE_W,
    TRICK_NO,
    TRICKS,
)
from cardsim.kernels.marafon.actions import act_code
from cardsim.kernels.marafon.rules import (
    begin_hand,
    card_window_due,
    close_hand,
    count_extra,
    declarable,
    declare,
    finish_trick,
    first_dealer,
    match_over,
    next_dealer,
    put_card,
    resolve_claim,
    set_trump,
    side_count,
    start_game,
    start_hand,
    window_opens,
)
from cardsim.kernels.marafon.windows import claim_choice, declare_choice
from cardsim.kernels.marafon.search import rollout_table, world_values
from cardsim.kernels.marafon.play import card_choice, trump_choice


@njit(cache=True)
def critique_world(wx, w, active, out):
    """``world_values`` of world ``w`` for ``race_actions`` (``wx``: ``critique_eval``'s)."""
    st, opts, p, kind, ctx, acts, n, prm, rollouts, sids, params, key, base, sim, work, g, trace, plug = wx
    world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, params, key, w, base, sim, work, g,
                 trace, plug, out)


@njit(cache=True)
def critique_eval(st, opts, p, kind, ctx, acts, n, chosen, prm, key, row, acts_out, plug):
    """Value every legal action ``acts[:n]`` (action codes) of seat ``p``'s decision ``kind``
    (``ctx``: ``play_choice``) with the search row ``prm`` (``kernels.critique.race_actions``: a
    racing select stage over ``worlds`` worlds, then the best and the choice ``chosen`` measured
    on as many fresh ones) into ``row`` and ``acts_out``. The value is the search's
    ``search_value``: the hand's point difference of p's side, +- the row's game weight for a
    game decided in the hand; each rollout stops at the end of the hand (or of the game). Trump
    is valued by rolling every suit out whatever the row's ``trump``; declarations and claims
    likewise."""
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sids_r, params_r = rollout_table(prm, N_PARAMS)
    base, sim, work, _, g, trace, _ = search_scratch(ST_SIZE, 0, TRACE_W)
    wx = (st, opts, p, kind, ctx, acts, n, prm, rollouts, sids_r, params_r, key, base, sim, work, g, trace, plug)
    race_actions(critique_world, wx, acts, n, chosen, worlds, rollouts, row, acts_out)


@njit(cache=True)
def cr_decision(st, opts, p, kind, ctx, acts, n, i, plug, cr):
    """A decision of seat ``p`` (index ``i`` of ``acts[:n]`` chosen) in a critique driver
    (``trick_search.row_decision``; its row's detail the side's claim count), valued by
    ``critique_eval`` when sampled."""
    k, key = row_decision(cr, st, p, kind, st[TRICK_NO], side_count(st, opts, p & 1), acts, n, i)
    if k >= 0:
        critique_eval(st, opts, p, kind, ctx, acts, n, i, cr[1], key, cr[5][k], cr[6][k], plug)


@njit(cache=True)
def cr_window(st, opts, first, sids, params, gplay, trace, plug, cr):
    """``claim_window`` in the critique driver (each seat asked is a K_CLAIM decision)."""
    cx = cr[4]
    if not window_opens(st, opts):
        return 0
    acts = np.empty(2, np.int64)
    acts[0] = act_code(K_CLAIM, 0)
    acts[1] = act_code(K_CLAIM, 1)
    for k in range(N_PLAYERS):
        p = (first + k) & 3
        if cx[2] == cx[3]:
            return HALT
        i = claim_choice(st, opts, p, sids, params, gplay, plug, True)
        if i == -2:
            return E_PLUGIN
        cr_decision(st, opts, p, K_CLAIM, 4 * first + k, acts, 2, i, plug, cr)
        if i:
            resolve_claim(st, opts, p, trace)
            return 0
    return 0


@njit(cache=True)
def cr_declare(st, opts, p, sids, params, gplay, trace, plug, cr):
    """``declare_step`` in the critique driver (an optional declaration is a K_DECLARE decision)."""
    c = declarable(st, opts, p)
    if c == 0:
        return 0
    if opts[O_AUTO_DECLARE] == 0:
        cx = cr[4]
        if cx[2] == cx[3]:
            return HALT
        i = declare_choice(st, opts, p, sids, params, gplay, plug, True)
        if i == -2:
            return E_PLUGIN
        acts = np.empty(2, np.int64)
        acts[0] = act_code(K_DECLARE, 0)
        acts[1] = act_code(K_DECLARE, 1)
        cr_decision(st, opts, p, K_DECLARE, 0, acts, 2, i, plug, cr)
        if i == 0:
            return 0
    declare(st, p, c, trace)
    return cr_window(st, opts, p, sids, params, gplay, trace, plug, cr)


@njit(cache=True)
def cr_trick(st, opts, sids, params, gplay, trace, plug, cr):
    """``play_trick`` in the critique driver (each card is a K_CARD decision)."""
    cx = cr[4]
    acts = np.empty(MAX_ACTS, np.int64)
    leader = st[LEADER]
    for k in range(N_PLAYERS):
        p = (leader + k) & 3
        if st[TRICK_NO] == 0:
            e = cr_declare(st, opts, p, sids, params, gplay, trace, plug, cr)
            if e:
                return e
        if card_window_due(st, opts):
            e = cr_window(st, opts, p, sids, params, gplay, trace, plug, cr)
            if e:
                return e
        if st[OVER]:
            return 0
        legal = legal_cards(st[HAND + p], st[LED])
        if legal == 0:
            return E_NO_MOVES
        if cx[2] == cx[3]:
            return HALT
        card = card_choice(st, opts, p, legal, sids[p], params[p], gplay, plug, params, True)
        if card == -2:
            return E_PLUGIN
        n, i = mask_acts(K_CARD, legal, card, acts)
        cr_decision(st, opts, p, K_CARD, 0, acts, n, i, plug, cr)
        put_card(st, p, card, trace)
    finish_trick(st, trace)
    return cr_window(st, opts, st[LAST_WINNER], sids, params, gplay, trace, plug, cr)


@njit(cache=True)
def cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, cr):
    """``play_hand`` (with ``plugged_hand``) in the critique driver (the trump is a K_TRUMP decision)."""
    cx = cr[4]
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[MATCH_HANDS])
    begin_hand(st, gdeck, trace)
    if cx[2] == cx[3]:
        return HALT
    b = st[BATT]
    suit = trump_choice(st, opts, b, sids, params, gplay, plug)
    if suit == -2:
        return E_PLUGIN
    acts = np.empty(4, np.int64)
    for s in range(4):
        acts[s] = act_code(K_TRUMP, s)
    cr_decision(st, opts, b, K_TRUMP, 0, acts, 4, suit, plug, cr)
    set_trump(st, suit, trace)
    count_extra(st)
    e = 0
    for t in range(TRICKS):
        e = cr_trick(st, opts, sids, params, gplay, trace, plug, cr)
        if e or st[OVER]:
            break
    if e == HALT:
        return HALT
    if e == 0 and st[OVER] == 0:
        close_hand(st, opts, False, trace)
    return e


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug):
    """Play match ``game`` of run ``seed`` exactly as ``play_match`` does (the same streams: the
    general loop of a table with a plug-in or search seat, which a built-in table's loop
    matches) and write a ``kernels.critique`` row for each decision of ``seat`` (at most
    ``len(rows)``): the trump, optional declarations, every claim window it is asked in, its
    cards. A sampled one (``rate``) with more than one legal action is valued by
    ``critique_eval`` with the search row ``prm`` (its own stream, STREAM_CRITIQUE), its state
    kept in ``snaps``. ``stop`` >= 0 stops the match before its decision number ``stop`` (any
    seat's: ``CR_STEP``), the state there. ``params`` carries the plug-in rows
    (``with_plugin_params``). Returns (rows written, decisions of ``seat``, the state)."""
    st = np.zeros(ST_SIZE, np.int64)
    gdeck = np.zeros(2, np.uint64)
    gplay = np.zeros(2, np.uint64)
    cr = critique_context(seed, game, seat, prm, rate, stop, rows, acts_out, snaps)
    cx = cr[4]
    st[N] = N_PLAYERS
    for p in range(N_PLAYERS):
        if sids[p] >= PLUGIN or sids[p] == S_SEARCH:
            st[PLUGGED] = 1
    st[DEALER] = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = st[DEALER]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    for g in range(opts[O_GAMES]):
        st[GAME_NO] = g
        start_game(st, trace)
        e = 0
        while st[OVER] == 0:
            if not start_hand(st, opts, trace):
                break
            e = cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, cr)
            if e:
                break
            next_dealer(st, opts)
        if e == HALT:
            break
        st[ERR] = e
        if match_over(st, opts):
            break
    return cx[0], cx[1], st


def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in (as ``play_batch``): match ``deal_id``."""
    return critique_deal(seed, deal_id, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), seat,
                         np.ascontiguousarray(prm, dtype=np.float64), float(rate), stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug)
