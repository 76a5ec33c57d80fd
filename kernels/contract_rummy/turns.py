"""Contract Rummy's turn: its start, the discard and one whole turn (``play_turn``: the draw
with the May-I's, step 2, the discard or the out-of-turn play), then the next seat
(``end_turn``).
"""
from cardsim.kernels.jit import njit
from cardsim.kernels.contract_rummy.layout import (
    COOL, CUR, DEAL, D_OUT, E_ILLEGAL, E_NO_MOVES, F_KIND, F_SEAT, F_VAL, HSIZE, JOKER_DUE, K_DISCARD, K_DRAW, N,
    O_D7_NO_DISCARD, PLUGIN, PTURN, SX_DISCARD, SX_DRAW, SX_KINDS, S_SEARCH, TAKEN, TURN, XFER,
)
from cardsim.kernels.contract_rummy.rules import discard, end_deal, over
from cardsim.kernels.contract_rummy.strategies import choose_discard
from cardsim.kernels.contract_rummy.view import critiquing, note, plug_discard, seat_row, seat_sid
from cardsim.kernels.contract_rummy.mayi import draw_asked, draw_phase, oot_play
from cardsim.kernels.contract_rummy.melding import act_phase


# =============================================================================
# turns and deals
# =============================================================================
@njit(cache=True)
def begin_turn(st, p):
    st[TURN] += 1
    st[PTURN + p] += 1
    st[TAKEN] = -1
    st[JOKER_DUE] = 0
    for q in range(st[N]):
        st[COOL + q] &= ~(1 << p)


@njit(cache=True)
def discard_phase(st, opts, tab, p, sid, prm, gplay, trace, sc, pl, plug, pprm, vb):
    """Step 3: one discard (none in deal 7 under deal7_discard_mode = never)."""
    if opts[O_D7_NO_DISCARD] and st[DEAL] == 7:
        return 0
    c = -1
    if st[F_KIND] == K_DISCARD + 1 and st[F_SEAT] == p:
        if critiquing(vb):
            plug_discard(st, opts, tab, p, False, plug, pprm, vb)      # the question, logged
        st[F_KIND] = 0
        c = st[F_VAL]
    elif pl or critiquing(vb):
        c = plug_discard(st, opts, tab, p, False, plug, pprm, vb)
    if c < 0:
        c = choose_discard(st, opts, tab, p, False, sid, prm, gplay, sc)
    note(vb, K_DISCARD, c)
    if c < 0:
        return E_NO_MOVES
    discard(st, p, c, 0, trace)
    if st[HSIZE + p] == 0:
        end_deal(st, D_OUT, p)
    return 0


@njit(cache=True, inline='always')
def play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch):
    """One normal turn of CUR and any out-of-turn play it causes; returns a check error.
    Seats with sid >= PLUGIN ask ``plug`` first (their row of ``pprm``; ``vb``: the view and
    legal buffer, VB_SIZE). A search seat (S_SEARCH) searches its draw and its discard (the
    kinds of its row; ``srch``: ``search_force`` as SEARCH_SIG) and forces the answer on the
    hook; its policy makes the rest."""
    p = st[CUR]
    pl = sids[p] >= PLUGIN
    sid = seat_sid(sids, params, p)
    prm = seat_row(sids, params, p)
    searching = sids[p] == S_SEARCH
    begin_turn(st, p)
    if searching and int(params[p, SX_KINDS]) & SX_DRAW and draw_asked(st, opts, p):
        srch(st, opts, tab, p, K_DRAW, params[p], gplay, plug, pprm, vb)
    q = draw_phase(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb)
    if q == -2 or over(st):
        return 0
    st[XFER] = 1 if q >= 0 else 0
    act_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb)
    if over(st):
        return 0
    if searching and q < 0 and int(params[p, SX_KINDS]) & SX_DISCARD and not (opts[O_D7_NO_DISCARD] and
                                                                               st[DEAL] == 7):
        srch(st, opts, tab, p, K_DISCARD, params[p], gplay, plug, pprm, vb)
    return end_turn(st, opts, tab, sids, params, gplay, trace, sc, p, q, plug, pprm, vb)


@njit(cache=True, inline='always')
def end_turn(st, opts, tab, sids, params, gplay, trace, sc, p, q, plug, pprm, vb):
    """The turn after step 2: the discard (none when Q plays out of turn), Q's out-of-turn
    play, the next turn player."""
    if q < 0:
        e = discard_phase(st, opts, tab, p, seat_sid(sids, params, p), seat_row(sids, params, p), gplay, trace, sc,
                          sids[p] >= PLUGIN, plug, pprm, vb)
        if e or over(st):
            return e
    elif st[JOKER_DUE] > 0:
        return E_ILLEGAL
    if q >= 0:
        oot_play(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb)
    st[CUR] = (p + 1) % st[N]
    return 0
