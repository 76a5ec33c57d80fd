"""Telefunken's table actions applied, and every action applied to the state
(``apply_action``)."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.telefunken.layout import (
    ASK, A_BUY, A_CHOOSE, A_DISCARD, A_DRAW, A_EX_CARD, A_EX_DONE, A_GO_DOWN, A_GO_OUT7, A_LAYOFF, A_MELD, A_PASS,
    A_RETRIEVE, A_SHIFT, A_TAKE_UPCARD, A_TAKE_WILD, CHIPS, CONTRACT, CUR, DOWN, DOWN_TURN, H1, H2, H_OUT, JK,
    JOKER_DUE, NMELDS, OUT, O_JOKER_NOW, O_TAKE_DISCARD, PHASE, P_ACT, P_BUY, RUN_FILL, TABLE_ACTS, TAKEN, TURN,
    T_ACTION, T_CONTRACT, T_OWNER, T_TAKE, T_TURN, T_TWOS,
)
from cardsim.kernels.telefunken.actions import act, field
from cardsim.kernels.telefunken.rules import (
    buy, choose_contract, decline_upcard, end_hand, exchange_card, exchange_done, held, is_wild_two, known_give,
    log, log_meld, open_window, pass_buy, pick_wild, pile_pop, pile_push, rules_of, take, take_mask, wild_out,
    wilds,
)
from cardsim.kernels.telefunken.legal import contract_melds, go_out, group_cards


# =============================================================================
# table actions: applying them
# =============================================================================
@njit(cache=True)
def lay_row(st, opts, tab, p, row, contract, trace):
    """Put meld ``row`` on the table as seat p's and take its cards from the holding (its
    wild cards: pick_wild each)."""
    i = st[NMELDS]
    for f in range(M.M_SIZE):
        tab[i, f] = row[f]
    tab[i, T_OWNER] = p
    tab[i, T_TURN] = st[TURN]
    tab[i, T_CONTRACT] = contract
    st[NMELDS] = i + 1
    tab[i, T_TWOS] = take_mask(st, p, row[M.M_P1], row[M.M_P2], row[M.M_JOKERS], rules_of(opts))
    log_meld(st, trace, tab, i)


@njit(cache=True)
def lay_rows(st, opts, tab, p, mo, contract, trace):
    for i in range(mo.shape[0]):
        if mo[i, M.M_KIND] != M.MK_NONE:
            lay_row(st, opts, tab, p, mo[i], contract, trace)


@njit(cache=True)
def give_for_joker(st, opts, tab, p, i, c):
    """Natural c takes the place of a wild card of meld i, which goes to seat p (the Ecuador
    exchange; run_wild_takeback)."""
    wild_out(st, tab, i, p)
    row = tab[i]
    if row[M.M_KIND] == M.MK_RUN:
        M.take_joker_place(row, c)
    else:
        M.apply_layoff(tab, i, c, 0, rules_of(opts))
        row[M.M_JOKERS] -= 1
    take(st, p, c)


@njit(cache=True)
def go_down(st, opts, tab, mo, x, trace):
    """Lay the contract (§9.1) the way that leaves the fewest penalty points (x's c > 0: of
    that alternative contract row)."""
    p = st[CUR]
    if field(x, 1) > 0:
        give_for_joker(st, opts, tab, p, field(x, 1) - 1, field(x, 2))
        log_meld(st, trace, tab, field(x, 1) - 1)
    contract_melds(st[H1 + p], st[H2 + p], wilds(st, p), st[CONTRACT], opts, mo, False, field(x, 3))
    lay_rows(st, opts, tab, p, mo, 1, trace)
    st[DOWN + p] = 1
    st[DOWN_TURN + p] = st[TURN]


@njit(cache=True)
def meld_row(st, p, x, row, rules):
    """The meld row of an A_MELD action."""
    row[:] = 0
    row[M.M_KIND] = field(x, 1)
    row[M.M_KEY] = field(x, 2)
    if field(x, 1) == M.MK_GROUP:
        if field(x, 2) == M.WILD_TRIO_RANK:
            row[M.M_KEY] = 0
            row[M.M_FLAGS] = M.F_WILD
            row[M.M_JOKERS] = 3
            return
        g1, g2 = group_cards(st, p, field(x, 2), rules)
        row[M.M_JOKERS] = field(x, 3)
    else:
        s, lo, hi, jp = field(x, 2), field(x, 3), field(x, 4), field(x, 5)
        iv = M.interval(lo, hi)
        if jp == RUN_FILL:
            jpos = iv & ~M.suit_positions_of(st[H1 + p], s, rules)
        else:
            jpos = np.int64(1) << jp if jp else np.int64(0)
        g1 = M.pos_to_ranks(iv & ~jpos) << (13 * s)
        g2 = np.int64(0)
        row[M.M_LO] = lo
        row[M.M_HI] = hi
        row[M.M_JOKERS] = popcount(jpos)
        row[M.M_JPOS] = jpos
    row[M.M_P1] = g1
    row[M.M_P2] = g2


@njit(cache=True)
def go_out_hand7(st, opts, tab, mo, trace):
    """Hand 7 (§12.2): lay the whole partition, discard the card left over if any."""
    p = st[CUR]
    d = go_out(st[H1 + p], st[H2 + p], wilds(st, p), opts, mo)
    lay_rows(st, opts, tab, p, mo, 1, trace)
    if d != M.GO_OUT_NO_DISCARD:
        if d == JK:
            d = pick_wild(st, p, rules_of(opts))        # the wild card left over
        take(st, p, d)
        pile_push(st, d)
        log(st, trace, T_ACTION, p, act(A_DISCARD, d, 0, 0, 0, 0), 0, st[CHIPS + p])
    st[DOWN + p] = 1
    st[DOWN_TURN + p] = st[TURN]


@njit(cache=True)
def lay_off(st, opts, tab, p, i, card, pos):
    """Seat p lays ``card`` (a natural, the joker or a wild two) off onto meld i."""
    rules = rules_of(opts)
    wild = card == JK or is_wild_two(st, card)
    M.apply_layoff(tab, i, JK if wild else card, pos, rules)
    if wild and card != JK:
        tab[i, T_TWOS] += np.int64(1) << (2 * (card // 13))
    take(st, p, card)
    if wild and st[JOKER_DUE] > 0:
        st[JOKER_DUE] -= 1


@njit(cache=True)
def table_action(st, opts, tab, mo, x, trace):
    """Apply one step-B action of CUR; every meld laid or changed goes to the trace."""
    p = st[CUR]
    kind = x & 15
    a, b, c = field(x, 1), field(x, 2), field(x, 3)
    if kind == A_GO_DOWN:
        go_down(st, opts, tab, mo, x, trace)
    elif kind == A_MELD:
        meld_row(st, p, x, mo[0], rules_of(opts))
        lay_row(st, opts, tab, p, mo[0], 0, trace)
    elif kind == A_LAYOFF:
        lay_off(st, opts, tab, p, b, a, c)
        log_meld(st, trace, tab, b)
    elif kind == A_SHIFT:
        M.apply_joker_shift(tab, b, a, c)
        take(st, p, a)
        log_meld(st, trace, tab, b)
    elif kind == A_RETRIEVE:
        wild_out(st, tab, a, p)
        M.apply_retrieval(tab, a, b, c - 1, rules_of(opts))
        take(st, p, b)
        if c > 0:
            take(st, p, c - 1)
        st[JOKER_DUE] += opts[O_JOKER_NOW]
        log_meld(st, trace, tab, a)
    elif kind == A_TAKE_WILD:
        give_for_joker(st, opts, tab, p, b, a)
        st[JOKER_DUE] += opts[O_JOKER_NOW]
        log_meld(st, trace, tab, b)
    elif kind == A_GO_OUT7:
        go_out_hand7(st, opts, tab, mo, trace)
    st[TABLE_ACTS] += 1
    if kind == A_MELD and st[JOKER_DUE] > 0 and tab[st[NMELDS] - 1, M.M_JOKERS] > 0:
        st[JOKER_DUE] -= 1
    if held(st, p) == 0:
        st[OUT] = p
        end_hand(st, H_OUT)


@njit(cache=True)
def discard(st, opts, c, gplay, trace):
    """Step C: discard c; an empty holding goes out, else the buy window opens."""
    p = st[CUR]
    take(st, p, c)
    pile_push(st, c)
    if held(st, p) == 0:
        st[OUT] = p
        end_hand(st, H_OUT)
    else:
        open_window(st, opts, p, c, 0, gplay, trace)


@njit(cache=True)
def apply_action(st, opts, tab, mo, x, gplay, trace):
    """Apply action x of the seat to act."""
    kind = x & 15
    seat = st[ASK] if st[PHASE] == P_BUY else st[CUR]
    log(st, trace, T_ACTION, seat, x, 0, st[CHIPS + seat])
    if kind == A_BUY:
        buy(st, opts, gplay, trace)
    elif kind == A_PASS:
        pass_buy(st, opts, gplay, trace)
    elif kind == A_TAKE_UPCARD:
        c = pile_pop(st)
        known_give(st, st[CUR], c)
        st[TAKEN] = c if opts[O_TAKE_DISCARD] else -1
        log(st, trace, T_TAKE, st[CUR], c, 0, 0)
        st[PHASE] = P_ACT
    elif kind == A_DRAW:
        decline_upcard(st, opts, gplay, trace)
    elif kind == A_CHOOSE:
        choose_contract(st, opts, field(x, 1), gplay, trace)
    elif kind == A_EX_CARD:
        exchange_card(st, field(x, 1))
    elif kind == A_EX_DONE:
        exchange_done(st, opts, gplay, trace)
    elif kind == A_DISCARD:
        discard(st, opts, field(x, 1), gplay, trace)
    else:
        table_action(st, opts, tab, mo, x, trace)
