"""One Telefunken game: the cut stage's and the seats' decisions (``cut_choices``,
``seat_choice``), a hand (``play_hand``, ``close_hand``) and a game (``play_game``)."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import STREAM_PLAY, below, seed_stream
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.kernels.telefunken.layout import (
    ASK, CHIPS, CUR, CUT_AIMED, CUT_KEEPS, ERR, E_BUY_DOWN, E_NO_MOVES, E_PLUGIN, E_TOTALS, FIRST_DEALER,
    GAME_RESHUF, GAME_TURNS, HREASON, H_BLOCKED, H_TURN_CAP, KEEP_SET, MAX_ACTS, MAX_MELDS, N, OUT, O_CHIPS,
    O_FIRST_DEALER, O_HANDS, O_PLAYERS, O_WILD_TWOS, PHASE, PLUGIN, P_BUY, P_OVER, Q_CUT_AIM, Q_KEEP_JOKERS,
    RC_ERR, RESHUF, STREAM_HAND, ST_SIZE, S_SEARCH, TRUNC, TURN, TW, T_END, WILD2,
)
from cardsim.kernels.telefunken.rules import log, planner_like, start_hand
from cardsim.kernels.telefunken.legal import legal_actions
from cardsim.kernels.telefunken.apply import apply_action
from cardsim.kernels.telefunken.close import hand_blocked, score_hand, totals_ok, write_game, write_hand
from cardsim.kernels.telefunken.check import check_buy, check_invariants
from cardsim.kernels.telefunken.strategies import choose
from cardsim.kernels.telefunken.view import plugin_cut, plugin_pick


@njit(cache=True)
def cut_choices(st, opts, tab, h, dealer, sids, params, gdeck, plug, pprm, view, legal):
    """The cutter's aim and joker keep before hand h is dealt (CUT_AIMED, CUT_KEEPS, KEEP_SET):
    a planner's parameters (a search seat's: its rollout policy's), a plug-in's answers
    (``plugin_cut``); returns E_PLUGIN on an illegal answer, else 0."""
    cutter = (dealer + st[N] - 1) % st[N]
    st[CUT_AIMED], st[CUT_KEEPS], st[KEEP_SET] = 0, 3, 0
    csid = sids[cutter]
    if csid >= PLUGIN:
        csid -= PLUGIN
    off = 0
    if csid == S_SEARCH:                            # a search seat cuts as its rollout policy
        csid, off = int(params[cutter, SP_POLICY]), SP_PRM
    if planner_like(csid):
        st[CUT_AIMED] = int(params[cutter, off + Q_CUT_AIM])
        st[CUT_KEEPS] = int(params[cutter, off + Q_KEEP_JOKERS])
    if sids[cutter] >= PLUGIN:
        if plugin_cut(st, opts, tab, h, dealer, cutter, gdeck, plug, pprm[cutter], view, legal) != 0:
            return E_PLUGIN
    return 0


@njit(cache=True, inline='always')
def seat_choice(st, opts, tab, acts, n, p, sids, params, sc, mo, gplay, plug, pprm, view, legal, srch):
    """(n, i): the index among ``acts[:n]`` seat p plays: its plug-in's (sid >= PLUGIN, its row
    of ``pprm``; an A_HOLD answer drops the table actions, n shrinks), else its search's
    (``srch``) or its built-in's; i = -2 for an illegal plug-in answer."""
    sid, i = sids[p], -1
    if sid >= PLUGIN:
        n, i = plugin_pick(st, opts, tab, acts, n, p, plug, pprm[p], view, legal)
        if i == -2:
            return n, -2
        sid -= PLUGIN
    if i < 0:
        if sid == S_SEARCH:
            i = srch(st, opts, tab, acts, n, params[p], gplay)
        else:
            i = choose(st, opts, tab, sc, mo, acts, n, sid, params[p], gplay)
    return n, i


@njit(cache=True, inline='always')
def play_hand(st, opts, tab, h, dealer, sids, params, check, trace, acts, sc, mo, gdeck, gplay,
              plug, pprm, view, legal, srch):
    """Deal and play hand h to its end; returns the check error (0 = none). Seats with sid >=
    PLUGIN are decided by ``plug`` (their row of ``pprm``) where it answers, by their base
    built-in (sid - PLUGIN) elsewhere; search seats by ``srch`` (SEARCH_SIG)."""
    if cut_choices(st, opts, tab, h, dealer, sids, params, gdeck, plug, pprm, view, legal) != 0:
        return E_PLUGIN
    trunc = st[TRUNC]
    start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, tab, sc, mo, acts)
        if n == 0:
            return E_NO_MOVES
        p = st[ASK] if st[PHASE] == P_BUY else st[CUR]
        n, i = seat_choice(st, opts, tab, acts, n, p, sids, params, sc, mo, gplay, plug, pprm, view, legal, srch)
        if i == -2:
            return E_PLUGIN
        x = acts[i]
        if check and check_buy(st, opts, x):
            return E_BUY_DOWN
        apply_action(st, opts, tab, mo, x, gplay, trace)
        if check:
            e = check_invariants(st, opts, tab)
            if e:
                return e
    close_hand(st, opts, tab, sc, mo, acts, trunc, trace)
    return 0


@njit(cache=True)
def close_hand(st, opts, tab, sc, mo, acts, trunc, trace):
    """The hand is over: a turn-capped hand that is blocked (A32) is no truncation (``trunc``:
    TRUNC before the hand); score it and add its counts to the game's."""
    if st[HREASON] == H_TURN_CAP and hand_blocked(st, opts, tab, sc, mo, acts):
        st[HREASON] = H_BLOCKED                     # a blocked hand (A32), not a truncation
        st[TRUNC] = trunc
    log(st, trace, T_END, st[OUT], st[HREASON], st[OUT], 0)
    score_hand(st, opts, trace)
    st[GAME_TURNS] += st[TURN]
    st[GAME_RESHUF] += st[RESHUF]


@njit(cache=True)
def first_dealer(opts, seed, game, gdeck):
    if opts[O_FIRST_DEALER] >= 0:
        return opts[O_FIRST_DEALER]
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND))
    return below(gdeck, opts[O_PLAYERS])


@njit(cache=True)
def open_game(st, opts, seed, game, gdeck, gplay):
    """The start of game ``game`` of run ``seed`` in the zeroed ``st``: the seats, wild twos and
    starting chips, the play stream and the first dealer (returned)."""
    n = opts[O_PLAYERS]
    st[N] = n
    st[WILD2] = opts[O_WILD_TWOS]
    for p in range(n):
        st[CHIPS + p] = opts[O_CHIPS]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    dealer = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = dealer
    return dealer


@njit(cache=True, inline='always')
def play_game(st, opts, tab, seed, game, sids, params, check, trace, acts, sc, mo, gdeck,
              gplay, row, plug, pprm, view, legal, srch):
    """Play game ``game`` of run ``seed`` (O_HANDS hands) into the record ``row``."""
    st[:] = 0
    row[:] = 0
    n = opts[O_PLAYERS]
    dealer = open_game(st, opts, seed, game, gdeck, gplay)
    for h in range(1, opts[O_HANDS] + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_HAND + h))
        st[ERR] = play_hand(st, opts, tab, h, dealer, sids, params, check, trace, acts, sc,
                            mo, gdeck, gplay, plug, pprm, view, legal, srch)
        write_hand(st, row)
        if st[ERR]:
            break
        dealer = (dealer + 1) % n
    write_game(st, opts, row)
    if check and st[ERR] == 0 and not totals_ok(st, opts, row):
        st[ERR] = E_TOTALS
        row[RC_ERR] = E_TOTALS
    return st[ERR]


@njit(cache=True)
def buffers():
    """Working arrays of one thread: state, table, actions, scratch rows, melds, streams."""
    return (np.zeros(ST_SIZE, np.int64), np.zeros((MAX_MELDS, TW), np.int64),
            np.zeros(MAX_ACTS, np.int64), np.zeros((MAX_ACTS, 3), np.int64),
            np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64), np.zeros(2, np.uint64),
            np.zeros(2, np.uint64))
