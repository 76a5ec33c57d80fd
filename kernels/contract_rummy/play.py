"""One Contract Rummy game: a deal played turn by turn (``play_deal``), its scoring and close
(``score_deal``, ``close_deal``), the record's deal blocks and game columns (``write_deal``,
``write_game``, ``totals_ok``), the first dealer and the seven deals (``play_game``), and a
thread's working arrays (``buffers``).
"""
import numpy as np
from cardsim.kernels import melds_float as F
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import STREAM_PLAY, below, seed_stream
from cardsim.kernels.contract_rummy.layout import (
    BIG, CUT_OK, DB_CUT, DB_MAYI, DB_OOT, DB_OUT, DB_PEN, DB_REASON, DB_RESHUF, DB_SIZE, DB_TURNS, DEAL, DEALS, DREASON,
    D_OUT, D_TURN_CAP, ERR, E_PLUGIN, E_TOTALS, FIRST_DEALER, GAME_RESHUF, GAME_TURNS, GMAYI, GOOT, HOLD, MAX_MELDS,
    MAYI, MO_ROWS, N, OOT, OUT, O_CUT_POINTS, O_CUT_RECIP, O_FIRST_DEALER, O_MAX_TURNS, O_PLAYERS, O_VOID_DEAD, PEN,
    PERR, RC_DEAL, RC_DEALER, RC_ERR, RC_MAYI, RC_OOT, RC_REASON, RC_RESHUF, RC_TOTAL, RC_TRUNC, RC_TURNS, RC_WINNER,
    RC_WINNERS, RESHUF, STREAM_DEAL, ST_SIZE, TOTAL, TRUNC, TURN, TW, T_END, T_SCORE, VB_SIZE,
)
from cardsim.kernels.contract_rummy.rules import check_invariants, end_deal, hand_of, log, over, rules_of, start_deal
from cardsim.kernels.contract_rummy.turns import play_turn


@njit(cache=True)
def score_deal(st, opts, trace):
    """§14: everybody but the player out scores his hand (nobody: void dead-stock deal)."""
    void = opts[O_VOID_DEAD] and st[DREASON] != D_OUT
    rules = rules_of(opts)
    for p in range(st[N]):
        if p != st[OUT] and not void:
            st[PEN + p] = F.hold_points(hand_of(st, p), rules)
            st[TOTAL + p] += st[PEN + p]
    if st[CUT_OK] and opts[O_CUT_RECIP] == 1 and st[OUT] >= 0:
        st[TOTAL + st[OUT]] -= opts[O_CUT_POINTS]
    for p in range(st[N]):
        log(st, trace, T_SCORE, p, st[PEN + p], st[TOTAL + p], F.hold_points(hand_of(st, p), rules), 0)


# =============================================================================
# deals, games, batches
# =============================================================================
@njit(cache=True, inline='always')
def play_deal(st, opts, tab, d, dealer, sids, params, check, trace, sc, mo, gdeck, gplay, plug, pprm, vb, srch):
    """Deal and play deal d to its end and score it; returns the check error (0 = none),
    E_PLUGIN when a plug-in's answer stopped it."""
    start_deal(st, opts, d, dealer, gdeck, trace)
    while not over(st):
        if turn_capped(st, opts):
            break
        e = play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch)
        if st[PERR]:
            return E_PLUGIN
        if e == 0 and check:
            e = check_invariants(st, opts, tab)
        if e:
            return e
    close_deal(st, opts, trace)
    return 0


@njit(cache=True)
def turn_capped(st, opts):
    """The deal hit max_turns_per_deal: it ends as a dead stock does, the game truncated."""
    if st[TURN] < opts[O_MAX_TURNS]:
        return False
    end_deal(st, D_TURN_CAP, -1)
    st[TRUNC] = 1
    return True


@njit(cache=True)
def close_deal(st, opts, trace):
    """The deal is over: score it and add its counts to the game's."""
    log(st, trace, T_END, st[OUT], st[DREASON], st[OUT], 0, 0)
    score_deal(st, opts, trace)
    st[GAME_TURNS] += st[TURN]
    st[GAME_RESHUF] += st[RESHUF]
    for p in range(st[N]):
        st[GMAYI + p] += st[MAYI + p]
        st[GOOT + p] += st[OOT + p]


@njit(cache=True)
def write_deal(st, row):
    b = RC_DEAL + (st[DEAL] - 1) * DB_SIZE
    row[b + DB_OUT] = st[OUT]
    row[b + DB_REASON] = st[DREASON]
    row[b + DB_TURNS] = st[TURN]
    row[b + DB_RESHUF] = st[RESHUF]
    row[b + DB_CUT] = st[CUT_OK]
    for p in range(st[N]):
        row[b + DB_PEN + p] = st[PEN + p]
        row[b + DB_MAYI + p] = st[MAYI + p]
        row[b + DB_OOT + p] = st[OOT + p]


@njit(cache=True)
def write_game(st, row):
    """Totals, the winner(s) (lowest total; ties shared), the game counters."""
    n = st[N]
    low = BIG
    for p in range(n):
        low = min(low, st[TOTAL + p])
    mask = 0
    for p in range(n):
        if st[TOTAL + p] == low:
            mask |= 1 << p
        row[RC_TOTAL + p] = st[TOTAL + p]
        row[RC_MAYI + p] = st[GMAYI + p]
        row[RC_OOT + p] = st[GOOT + p]
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_WINNERS] = mask
    row[RC_WINNER] = -1
    for p in range(n):
        if mask == 1 << p:
            row[RC_WINNER] = p
    row[RC_REASON] = 1 if st[TRUNC] else 0
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_TURNS] = st[GAME_TURNS]
    row[RC_RESHUF] = st[GAME_RESHUF]


@njit(cache=True)
def totals_ok(st, opts, row):
    """Each total is the sum of its deal penalties minus its cut bonuses."""
    n = st[N]
    for p in range(n):
        s = 0
        for d in range(DEALS):
            b = RC_DEAL + d * DB_SIZE
            s += row[b + DB_PEN + p]
            if row[b + DB_CUT]:
                dealer = (st[FIRST_DEALER] + d) % n
                winner = (dealer + n - 1) % n if opts[O_CUT_RECIP] == 0 else row[b + DB_OUT]
                if winner == p:
                    s -= opts[O_CUT_POINTS]
        if s != st[TOTAL + p]:
            return False
    return True


@njit(cache=True)
def first_dealer(opts, seed, game, gdeck):
    if opts[O_FIRST_DEALER] >= 0:
        return opts[O_FIRST_DEALER]
    seed_stream(gdeck, seed, game, np.int64(STREAM_DEAL))
    return below(gdeck, opts[O_PLAYERS])


@njit(cache=True, inline='always')
def play_game(st, opts, tab, seed, game, sids, params, check, trace, sc, mo, gdeck, gplay, row, plug, pprm, vb,
              srch):
    """Play game ``game`` of run ``seed`` (seven deals) into the record ``row``."""
    st[:] = 0
    row[:] = 0
    n = opts[O_PLAYERS]
    st[N] = n
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    dealer = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = dealer
    for d in range(1, DEALS + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_DEAL + d))
        st[ERR] = play_deal(st, opts, tab, d, dealer, sids, params, check, trace, sc, mo,
                            gdeck, gplay, plug, pprm, vb, srch)
        write_deal(st, row)
        if st[ERR]:
            break
        dealer = (dealer + 1) % n
    write_game(st, row)
    if check and st[ERR] == 0 and not totals_ok(st, opts, row):
        st[ERR] = E_TOTALS
        row[RC_ERR] = E_TOTALS
    return st[ERR]


@njit(cache=True)
def buffers():
    """Working arrays of one thread: state, table, scratch, meld rows, streams, the
    plug-in's view and legal buffer."""
    return (np.zeros(ST_SIZE, np.int64), np.zeros((MAX_MELDS, TW), np.int64),
            np.zeros(16, np.int64), np.zeros((MO_ROWS, HOLD), np.int64),
            np.zeros(2, np.uint64), np.zeros(2, np.uint64), np.zeros(VB_SIZE, np.int64))
