"""Contract Rummy's turn as kernel steps: its phases (the state's TPC names the next: TP_DRAW
``draw_step``, begin_turn and the draw with the May-I's; TP_ACT ``act_step``, step 2;
TP_DISCARD ``discard_step``, the discard; TP_OOT ``oot_step``, the out-of-turn play; each
leaves TPC at the next, TP_DRAW once the turn is over), the turn from the phase TPC names on
(``play_turn``) and the turn after step 2 (``end_turn``). The batch plays a turn from its
start through ``play_turn``; the step mode plays it on from where it stopped (a question or a
stock draw, RS_*: ``step.step_turn``).
"""
from cardsim.kernels.jit import njit
from cardsim.kernels.contract_rummy.layout import (
    COOL, CUR, DEAL, D_OUT, E_ILLEGAL, E_NO_MOVES, F_KIND, F_SEAT, F_VAL, HSIZE, JOKER_DUE, K_DISCARD, K_DRAW, N,
    O_D7_NO_DISCARD, PLUGIN, PTURN, RS_ANS, RS_DISCARD, RS_OOT_DISCARD, SX_DISCARD, SX_DRAW, SX_KINDS, S_SEARCH, TAKEN,
    TPC, TP_ACT, TP_DISCARD, TP_DRAW, TP_OOT, TQ, TURN, XFER,
)
from cardsim.kernels.contract_rummy.rules import discard, end_deal, over
from cardsim.kernels.contract_rummy.strategies import choose_discard
from cardsim.kernels.contract_rummy.view import at, critiquing, note, plug_discard, resuming, seat_row, seat_sid
from cardsim.kernels.contract_rummy.mayi import draw_asked, draw_phase, oot_discard, oot_play
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
    if pl or critiquing(vb):
        at(st, RS_DISCARD, -1, -1)
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
def draw_step(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb, srch):
    """TP_DRAW: CUR's turn begins and it draws (a search seat searches its draw first, ``srch``);
    TQ the seat that plays out of turn (-1 none); next TP_ACT, or TP_DRAW when the deal ended.
    Resuming at one of its questions (RS_ANS) the turn has begun."""
    p = st[CUR]
    if st[RS_ANS] == 0:
        begin_turn(st, p)
        if sids[p] == S_SEARCH and int(params[p, SX_KINDS]) & SX_DRAW and draw_asked(st, opts, p):
            srch(st, opts, tab, p, K_DRAW, params[p], gplay, plug, pprm, vb)
    q = draw_phase(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb)
    if q == -2 or over(st):
        st[TPC] = TP_DRAW
        return 0
    st[XFER] = 1 if q >= 0 else 0
    st[TQ] = q
    st[TPC] = TP_ACT
    return 0


@njit(cache=True, inline='always')
def act_step(st, opts, tab, sids, params, gplay, trace, mo, plug, pprm, vb):
    """TP_ACT: CUR's step 2; next TP_DISCARD, TP_OOT when TQ plays out of turn (E_ILLEGAL if a
    swapped joker is due for the discard it does not make), or TP_DRAW when the deal ended."""
    p = st[CUR]
    act_phase(st, opts, tab, p, seat_sid(sids, params, p), seat_row(sids, params, p), gplay, mo, trace,
              sids[p] >= PLUGIN, plug, pprm, vb)
    return after_act(st)


@njit(cache=True, inline='always')
def after_act(st):
    """The phase after step 2 (TPC; see ``act_step``); returns a check error."""
    if over(st):
        st[TPC] = TP_DRAW
        return 0
    if st[TQ] < 0:
        st[TPC] = TP_DISCARD
        return 0
    if st[JOKER_DUE] > 0:
        st[TPC] = TP_DRAW
        return E_ILLEGAL
    st[TPC] = TP_OOT
    return 0


@njit(cache=True, inline='always')
def discard_step(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb, srch):
    """TP_DISCARD: CUR discards (a search seat searches it first, ``srch``), then the next seat's
    turn (TP_DRAW)."""
    p = st[CUR]
    if sids[p] == S_SEARCH and int(params[p, SX_KINDS]) & SX_DISCARD and not (opts[O_D7_NO_DISCARD] and
                                                                               st[DEAL] == 7) and st[RS_ANS] == 0:
        srch(st, opts, tab, p, K_DISCARD, params[p], gplay, plug, pprm, vb)
    return discard_end(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb)


@njit(cache=True, inline='always')
def discard_end(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb):
    """CUR's discard and the next seat (TP_DRAW); returns a check error."""
    p = st[CUR]
    e = discard_phase(st, opts, tab, p, seat_sid(sids, params, p), seat_row(sids, params, p), gplay, trace, sc,
                      sids[p] >= PLUGIN, plug, pprm, vb)
    st[TPC] = TP_DRAW
    if e or over(st):
        return e
    st[CUR] = (p + 1) % st[N]
    return 0


@njit(cache=True, inline='always')
def oot_step(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb):
    """TP_OOT: TQ draws and discards out of turn, then the next seat's turn (TP_DRAW). Resuming
    at its discard (RS_OOT_DISCARD) the draw is made."""
    if resuming(st, RS_OOT_DISCARD):
        oot_discard(st, opts, tab, st[TQ], sids, params, gplay, trace, sc, plug, pprm, vb)
    else:
        oot_play(st, opts, tab, st[TQ], sids, params, gplay, trace, sc, plug, pprm, vb)
    st[TPC] = TP_DRAW
    st[CUR] = (st[CUR] + 1) % st[N]
    return 0


@njit(cache=True, inline='always')
def play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch):
    """One normal turn of CUR and any out-of-turn play it causes: its phases from the one TPC
    names (TP_DRAW: the turn's start) until the turn is over; returns a check error. Seats with
    sid >= PLUGIN ask ``plug`` first (their row of ``pprm``; ``vb``: the view and legal buffer,
    VB_SIZE). A search seat (S_SEARCH) searches its draw and its discard (the kinds of its row;
    ``srch``: ``search_force`` as SEARCH_SIG) and forces the answer on the hook; its policy
    makes the rest."""
    e = 0
    if st[TPC] == TP_DRAW:
        e = draw_step(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb, srch)
    if st[TPC] == TP_ACT:
        e = act_step(st, opts, tab, sids, params, gplay, trace, mo, plug, pprm, vb)
    if st[TPC] == TP_DISCARD:
        e = discard_step(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb, srch)
    elif st[TPC] == TP_OOT:
        e = oot_step(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb)
    return e


@njit(cache=True, inline='always')
def end_turn(st, opts, tab, sids, params, gplay, trace, sc, p, q, plug, pprm, vb):
    """The turn after step 2 (``p`` = CUR, ``q`` the seat playing out of turn, -1 none): the
    discard (none when Q plays out of turn), Q's out-of-turn play, the next turn player; the
    phases ``after_act``, ``discard_end``, ``oot_step`` without a search."""
    st[TQ] = q
    e = after_act(st)
    if e or st[TPC] == TP_DRAW:
        return e
    if st[TPC] == TP_DISCARD:
        return discard_end(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb)
    return oot_step(st, opts, tab, sids, params, gplay, trace, sc, plug, pprm, vb)
