"""Contract Rummy's draw and the May-I procedure (§7.2-7.4): the turn player's draw, the
out-of-turn discard (volunteers) and the buy models, penalty cards. A question or a stock draw
writes where it is (RS_AT, RS_I) and the step mode resumes there (``view.resuming``,
``card_due``), as in step 2.
"""
from cardsim.kernels.jit import njit
from cardsim.kernels.contract_rummy.layout import (
    COOL, DEAL, FEED_ROOM, F_KIND, F_SEAT, F_VAL, HOLD, KNOWN, K_BUY, K_DISCARD, K_DRAW, K_VOLUNTEER, LASTK, MAYI,
    MODEL_BUY, MODEL_OOT, N, OOT, O_COOLDOWN, O_D7_NO_DISCARD, O_MAYI_LIMIT, O_MAYI_MODEL, O_NO_CONSEC, O_PENALTY,
    O_TAKEN_DISCARD,
    PCARDS, PERR, PILE_LEN, PLUGIN, RS_ANS, RS_BUY, RS_BUY_PENALTY, RS_DRAW, RS_I, RS_OOT_DISCARD, RS_OOT_DRAW,
    RS_STOCK, RS_TAKE_PENALTY, RS_VOLUNTEER, SNAP_SIZE, STOCK_HI, STOCK_LO, TAKEN, TOP_FROM, T_BUY, T_OOT, T_PENALTY,
    T_TAKE, T_VOLUNTEER, XFEED_LEN, XFEED_POS, XSTEP,
)
from cardsim.kernels.contract_rummy.rules import (
    discard, draw, give, log, pile_pop, reshuffle, sizes, stock_card, top_card, top_k,
)
from cardsim.kernels.contract_rummy.strategies import choose_discard, volunteers, wants_card
from cardsim.kernels.contract_rummy.view import (
    ask_yes, at, critiquing, note, plug_discard, resuming, seat_row, seat_sid, snapshot,
)


# =============================================================================
# the May-I procedure (§7.2-7.4)
# =============================================================================
@njit(cache=True)
def may_take_paid(st, opts, p):
    """§7.3: seat p may obtain the top discard with a penalty card."""
    lim = opts[O_MAYI_LIMIT]
    if lim >= 0 and st[MAYI + p] >= lim:
        return False
    return not (opts[O_NO_CONSEC] and st[LASTK + p] == top_k(st) - 1)


@njit(cache=True, inline='always')
def card_due(st, tab, gplay, trace, vb, site, i):
    """Before a stock draw at ``site`` (RS_*; ``i`` its RS_I): resuming there (chance dealt the
    card into the feed) the resume is used up; else the place is written and, in step mode,
    ``feed_due``."""
    if resuming(st, site):
        st[RS_ANS] = 0
        return
    at(st, site, i, -1)
    if st[XSTEP]:
        feed_due(st, tab, gplay, trace, vb)


@njit(cache=True)
def feed_due(st, tab, gplay, trace, vb):
    """Step mode, a stock draw due: with the feed spent the stock is made ready (the reshuffle
    the draw needs) and the state saved where the draw is (the snapshot, SNAP -1: no question);
    the draw then stops the deal (``rules.feed_card``) until chance deals the card."""
    if st[PERR] or (st[XFEED_POS] < st[XFEED_LEN] and st[XFEED_POS] < FEED_ROOM):
        return                          # (a deal stopped; a card in the feed)
    if st[STOCK_LO] == st[STOCK_HI]:
        if st[PILE_LEN] <= 1:
            return                      # a dead stock: no card to deal
        reshuffle(st, gplay, trace)
    if vb.shape[0] >= SNAP_SIZE:
        snapshot(st, tab, -1, vb)


@njit(cache=True)
def penalty_card(st, opts, p, gplay, trace):
    """The penalty card of a May-I; False when the stock is dead."""
    c = stock_card(st, opts, gplay, trace)
    if c < 0:
        return False
    give(st, p, c)
    st[MAYI + p] += 1
    st[PCARDS + p] += 1
    log(st, trace, T_PENALTY, p, c, 0, 0, sizes(st, p))
    return True


@njit(cache=True)
def take_top(st, opts, p, code, trace):
    """Seat p takes the top discard (``code``: T_TAKE, or T_BUY for a buyer)."""
    k = top_k(st)
    c = pile_pop(st)
    give(st, p, c)
    st[KNOWN + HOLD * p + c] += 1
    st[TAKEN] = -1 if opts[O_TAKEN_DISCARD] or code == T_BUY else c
    log(st, trace, code, p, c, 0, 0, sizes(st, p))
    return k


@njit(cache=True)
def offer_oot(st, opts, tab, p, sids, params, gplay, trace, plug, pprm, vb):
    """Ask next(P) .. prev(P) in order whether to discard out of turn: the first is Q (none
    in deal 7 under deal7_discard_mode = never)."""
    if opts[O_D7_NO_DISCARD] and st[DEAL] == 7:
        return -1
    n = st[N]
    for i in range(st[RS_I] if resuming(st, RS_VOLUNTEER) else 1, n):
        q = (p + i) % n
        if opts[O_COOLDOWN] and st[COOL + q] != 0:
            continue
        a = -1
        if sids[q] >= PLUGIN or critiquing(vb):
            at(st, RS_VOLUNTEER, i, -1)
            a = ask_yes(st, opts, tab, q, K_VOLUNTEER, top_card(st), -1, 0, plug, pprm, vb)
        v = volunteers(st, opts, q, seat_sid(sids, params, q), seat_row(sids, params, q), gplay) if a < 0 else a == 1
        note(vb, K_VOLUNTEER, 1 if v else 0)
        if v:
            log(st, trace, T_VOLUNTEER, q, 0, 0, 0, sizes(st, q))
            return q
    return -1


@njit(cache=True)
def offer_buy(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
    """model buy: before P draws, the others (not the discarder) may buy the top discard; False
    when the buyer's penalty card finds the stock dead."""
    if resuming(st, RS_BUY_PENALTY):
        return buy_penalty(st, opts, tab, st[RS_I], gplay, trace, vb)
    if st[PILE_LEN] == 0:
        return True
    n = st[N]
    c = top_card(st)
    for i in range(st[RS_I] if resuming(st, RS_BUY) else 1, n):
        b = (p + i) % n
        if b == st[TOP_FROM] or not may_take_paid(st, opts, b):
            continue
        a = -1
        if sids[b] >= PLUGIN or critiquing(vb):
            at(st, RS_BUY, i, -1)
            a = ask_yes(st, opts, tab, b, K_BUY, c, -1, 1, plug, pprm, vb)
        w = wants_card(st, opts, tab, b, c, True, seat_sid(sids, params, b), seat_row(sids, params, b), gplay, sc) \
            if a < 0 else a == 1
        note(vb, K_BUY, 1 if w else 0)
        if w:
            k = take_top(st, opts, b, T_BUY, trace)
            st[LASTK + b] = k
            return buy_penalty(st, opts, tab, b, gplay, trace, vb)
    return True


@njit(cache=True)
def buy_penalty(st, opts, tab, b, gplay, trace, vb):
    """Buyer b's penalty card (RS_BUY_PENALTY); False when the stock is dead."""
    card_due(st, tab, gplay, trace, vb, RS_BUY_PENALTY, b)
    return penalty_card(st, opts, b, gplay, trace)


@njit(cache=True)
def draw_oot_model(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Step 1 under out_of_turn_discard; returns Q (-1 none) or -2 if the deal ended."""
    if resuming(st, RS_TAKE_PENALTY):
        return take_penalty(st, opts, tab, p, st[RS_I], gplay, trace, vb)
    if not resuming(st, RS_STOCK) and (resuming(st, RS_VOLUNTEER) or st[PILE_LEN] > 0 and
                                       may_take_paid(st, opts, p) and
                                       want_top(st, opts, tab, p, True, sids, params, gplay, sc, plug, pprm, vb)):
        q = offer_oot(st, opts, tab, p, sids, params, gplay, trace, plug, pprm, vb)
        k = take_top(st, opts, p, T_TAKE, trace)
        if opts[O_PENALTY] == 0 or q >= 0:
            st[LASTK + p] = k
            return take_penalty(st, opts, tab, p, q, gplay, trace, vb)
        return q
    return stock_draw(st, opts, tab, p, gplay, trace, vb)


@njit(cache=True)
def take_penalty(st, opts, tab, p, q, gplay, trace, vb):
    """The turn player's penalty card for the discard it took (RS_TAKE_PENALTY; ``q`` the seat
    playing out of turn, -1 none): returns q, -2 when the stock is dead."""
    card_due(st, tab, gplay, trace, vb, RS_TAKE_PENALTY, q)
    return q if penalty_card(st, opts, p, gplay, trace) else -2


@njit(cache=True)
def stock_draw(st, opts, tab, p, gplay, trace, vb):
    """The turn player draws from the stock (RS_STOCK): -1, -2 when the stock is dead."""
    card_due(st, tab, gplay, trace, vb, RS_STOCK, -1)
    return -1 if draw(st, opts, p, gplay, trace) else -2


@njit(cache=True)
def want_top(st, opts, tab, p, paid, sids, params, gplay, sc, plug, pprm, vb):
    """choose_draw: the turn player takes the top discard (K_DRAW for a plug-in seat; the
    answer a search forced on the hook, F_KIND, first)."""
    forced = st[F_KIND] == K_DRAW + 1 and st[F_SEAT] == p
    a = -1
    if sids[p] >= PLUGIN or critiquing(vb):
        info = 0 if not paid else (1 if opts[O_PENALTY] == 0 else 2)
        at(st, RS_DRAW, -1, -1)
        a = ask_yes(st, opts, tab, p, K_DRAW, top_card(st), -1, info, plug, pprm, vb)
    if forced:
        st[F_KIND] = 0
        w = st[F_VAL] == 1
    elif a >= 0:
        w = a == 1
    else:
        w = wants_card(st, opts, tab, p, top_card(st), paid, seat_sid(sids, params, p), seat_row(sids, params, p),
                       gplay, sc)
    note(vb, K_DRAW, 1 if w else 0)
    return w


@njit(cache=True)
def draw_phase(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Step 1 (§7.1): returns Q of an out-of-turn play (-1 none), -2 if the deal ended."""
    model = opts[O_MAYI_MODEL]
    if model == MODEL_OOT:
        return draw_oot_model(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb)
    later = resuming(st, RS_BUY) or resuming(st, RS_BUY_PENALTY) or resuming(st, RS_STOCK)
    if not later and st[PILE_LEN] > 0 and want_top(st, opts, tab, p, False, sids, params, gplay, sc, plug, pprm, vb):
        take_top(st, opts, p, T_TAKE, trace)
        return -1
    if model == MODEL_BUY and not resuming(st, RS_STOCK) and \
            not offer_buy(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
        return -2
    return stock_draw(st, opts, tab, p, gplay, trace, vb)


@njit(cache=True)
def oot_play(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Q draws from the stock (RS_OOT_DRAW) and discards any card (§7.2 step 4)."""
    card_due(st, tab, gplay, trace, vb, RS_OOT_DRAW, -1)
    c = stock_card(st, opts, gplay, trace)
    if c < 0:
        return
    give(st, q, c)
    log(st, trace, T_OOT, q, c, 0, 0, sizes(st, q))
    oot_discard(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb)


@njit(cache=True)
def oot_discard(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Q's out-of-turn discard (any card; its draw done)."""
    x = -1
    if sids[q] >= PLUGIN or critiquing(vb):
        at(st, RS_OOT_DISCARD, -1, -1)
        x = plug_discard(st, opts, tab, q, True, plug, pprm, vb)
    if x < 0:
        x = choose_discard(st, opts, tab, q, True, seat_sid(sids, params, q), seat_row(sids, params, q), gplay, sc)
    note(vb, K_DISCARD, x)
    discard(st, q, x, 1, trace)
    st[OOT + q] += 1
    if opts[O_COOLDOWN]:
        st[COOL + q] = ((1 << st[N]) - 1) & ~(1 << q)
@njit(cache=True)
def draw_asked(st, opts, p):
    """choose_draw is asked of the turn player p (want_top is reached)."""
    if st[PILE_LEN] == 0:
        return False
    return opts[O_MAYI_MODEL] != MODEL_OOT or may_take_paid(st, opts, p)
