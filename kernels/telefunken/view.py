"""What a Telefunken plug-in's ``decide`` is given: its view (``fill_view``, the V_* layout) and
the decisions it is asked (``plugin_pick``, ``plugin_cut``)."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import shuffle
from cardsim.kernels.telefunken.layout import (
    A_DISCARD, A_GO_DOWN, A_GO_OUT7, A_HOLD, BUYS, CHIPS, CONTRACT, CUT_AIMED, CUT_EXACT, CUT_KEEPS, CUT_KEPT,
    DEALER, DECK_SIZE, DISCARD, DISCARDER, DOWN, DOWN_TURN, EXK, EX_ROUND, E_PLUGIN, GBUYS, H1, H2, HJ, HNO, HT,
    JK, JOKER_DUE, KEEP_SET, K_BUY, K_CHOOSE, K_CUT, K_DISCARD, K_EXCHANGE, K_GO_DOWN, K_GO_OUT, K_KEEP, K_LAY,
    K_UPCARD, MAX_MELDS, MAX_PLAYERS, N, NMELDS, O_CUT_AIM, O_CUT_JOKERS, O_CUT_MODEL, O_CUT_SPREAD, O_HANDS,
    PHASE, PILE, PILE_LEN, PLUG_KINDS, P_ACT, P_BUY, P_CHOOSE, P_EXCHANGE, P_UPCARD, RESHUF, STOCK, STOCK_HI,
    STOCK_LO, TABLE_ACTS, TAKEN, TOTAL, TURN, TW, UP_OFFER, USED, V_AT_ONCE, V_BUYS, V_CHIPS, V_CONTRACT,
    V_CUT_EXACT, V_CUT_KEPT, V_C_GROUPS, V_C_GROUP_SIZE, V_C_NEXT, V_C_PURE, V_C_RUNS, V_C_RUN_MIN, V_DEALER,
    V_DISCARDER, V_DOWN, V_DOWN_TURN, V_EXK, V_EX_ROUND, V_GBUYS, V_H1, V_H2, V_HANDS, V_HELD, V_HNO, V_JOKERS,
    V_JOKER_DUE, V_KIND, V_NMELDS, V_OFFER, V_PILE1, V_PILE2, V_PILE_JOKERS, V_PILE_LEN, V_PLAYERS, V_RESHUF,
    V_RULE_CUT_AIM, V_RULE_CUT_SPREAD, V_SEAT, V_STOCK, V_TABLE, V_TABLE_ACTS, V_TAKEN, V_TOP, V_TOTAL, V_TURN,
    V_TWOS, V_UP_OFFER, V_USED, V_WILD_TWOS, WILD2,
)
from cardsim.kernels.telefunken.rules import cut_bottom, hand7_at_once, held, reset_hand, spec_of


# =============================================================================
# plug-in strategies: the view, the decisions asked
# =============================================================================
@njit(cache=True)
def fill_view(st, opts, tab, p, kind, view):
    """What seat p may see, into ``view`` (the V_* layout) for a decision of ``kind``: its own
    holding, the table, the discard pile (face up since the last reshuffle), counts, chips,
    totals, the contract; never another holding, the stock's order or the exchange pool."""
    n = st[N]
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_HNO] = st[HNO]
    view[V_HANDS] = opts[O_HANDS]
    view[V_DEALER] = st[DEALER]
    view[V_PLAYERS] = n
    view[V_TURN] = st[TURN]
    view[V_CONTRACT] = st[CONTRACT]
    view[V_AT_ONCE] = 1 if hand7_at_once(st, opts) else 0
    spec = spec_of(opts, st[CONTRACT])
    view[V_C_GROUPS] = spec[M.C_GROUPS]
    view[V_C_GROUP_SIZE] = spec[M.C_GROUP_SIZE]
    view[V_C_PURE] = spec[M.C_PURE]
    view[V_C_RUNS] = spec[M.C_RUNS]
    view[V_C_RUN_MIN] = spec[M.C_RUN_MIN]
    view[V_C_NEXT] = spec[M.C_NEXT]
    view[V_H1] = st[H1 + p]
    view[V_H2] = st[H2 + p]
    view[V_JOKERS] = st[HJ + p]
    view[V_TWOS] = st[HT + p]
    view[V_WILD_TWOS] = st[WILD2]
    view[V_OFFER] = st[DISCARD]
    view[V_DISCARDER] = st[DISCARDER]
    view[V_TOP] = st[PILE + st[PILE_LEN] - 1] if st[PILE_LEN] > 0 else -1
    view[V_PILE_LEN] = st[PILE_LEN]
    q1, q2, qj = np.int64(0), np.int64(0), 0
    for i in range(st[PILE_LEN]):
        c = st[PILE + i]
        if c == JK:
            qj += 1
        else:
            b = np.int64(1) << c
            if q1 & b:
                q2 |= b
            else:
                q1 |= b
    view[V_PILE1] = q1
    view[V_PILE2] = q2
    view[V_PILE_JOKERS] = qj
    view[V_STOCK] = st[STOCK_HI] - st[STOCK_LO]
    view[V_TABLE_ACTS] = st[TABLE_ACTS]
    view[V_JOKER_DUE] = st[JOKER_DUE]
    view[V_TAKEN] = st[TAKEN]
    view[V_UP_OFFER] = st[UP_OFFER]
    view[V_RESHUF] = st[RESHUF]
    view[V_EX_ROUND] = st[EX_ROUND]
    view[V_USED] = st[USED]
    view[V_CUT_KEPT] = st[CUT_KEPT]
    view[V_CUT_EXACT] = st[CUT_EXACT]
    view[V_RULE_CUT_AIM] = opts[O_CUT_AIM]
    view[V_RULE_CUT_SPREAD] = opts[O_CUT_SPREAD]
    view[V_NMELDS] = st[NMELDS]
    for q in range(MAX_PLAYERS):            # seats beyond the table: 0
        live = q < n
        view[V_HELD + q] = held(st, q) if live else 0
        view[V_DOWN + q] = st[DOWN + q] if live else 0
        view[V_DOWN_TURN + q] = st[DOWN_TURN + q] if live else 0
        view[V_CHIPS + q] = st[CHIPS + q] if live else 0
        view[V_TOTAL + q] = st[TOTAL + q] if live else 0
        view[V_BUYS + q] = st[BUYS + q] if live else 0
        view[V_EXK + q] = st[EXK + q] if live else 0
        view[V_GBUYS + q] = st[GBUYS + q] if live else 0
    k = st[NMELDS]
    for i in range(MAX_MELDS):
        for f in range(TW):
            view[V_TABLE + i * TW + f] = tab[i, f] if i < k else 0


@njit(cache=True)
def plugin_ask(st, opts, tab, p, kind, legal, m, plug, pprm, view):
    """Ask the plug-in of seat p a decision of ``kind`` among legal[:m] (if its mask takes the
    kind): the index chosen, -1 (its base decides) or -2 (an illegal answer: E_PLUGIN)."""
    if not (int(pprm[PLUG_KINDS]) >> kind) & 1:
        return -1
    fill_view(st, opts, tab, p, kind, view)
    i = plug(view, legal[:m], m, pprm)
    if i == -1 or 0 <= i < m:
        return i
    return -2


@njit(cache=True, inline='always')
def plugin_pick(st, opts, tab, acts, n, p, plug, pprm, view, legal):
    """A plug-in seat's choice among acts[:n]: (n, i), i the index chosen, -1 for its base
    built-in, -2 for an illegal answer. A step of a turn asks first about its table actions
    (K_GO_DOWN, K_GO_OUT or K_LAY, with A_HOLD last); A_HOLD drops them from acts (n shrinks)
    and the discard (K_DISCARD) is asked next."""
    ph = st[PHASE]
    kind = K_DISCARD
    if ph == P_ACT:
        t = 0                                   # table actions come first, the discards after
        while t < n and acts[t] & 15 != A_DISCARD:
            t += 1
        if t > 0:
            a0 = acts[0] & 15
            k = K_GO_DOWN if a0 == A_GO_DOWN else (K_GO_OUT if a0 == A_GO_OUT7 else K_LAY)
            legal[:t] = acts[:t]
            m = t
            if t < n:
                legal[t] = A_HOLD
                m = t + 1
            i = plugin_ask(st, opts, tab, p, k, legal, m, plug, pprm, view)
            if i < t:
                return n, i
            for j in range(t, n):               # A_HOLD: the discards alone
                acts[j - t] = acts[j]
            n -= t
    elif ph == P_BUY:
        kind = K_BUY
    elif ph == P_UPCARD:
        kind = K_UPCARD
    elif ph == P_EXCHANGE:
        kind = K_EXCHANGE
    elif ph == P_CHOOSE:
        kind = K_CHOOSE
    legal[:n] = acts[:n]
    return n, plugin_ask(st, opts, tab, p, kind, legal, n, plug, pprm, view)


@njit(cache=True)
def plugin_cut(st, opts, tab, h, dealer, cutter, gdeck, plug, pprm, view, legal):
    """A plug-in cutter's choices before hand h is dealt: the aim of the cut (K_CUT, the aimed
    model) and, under cut_joker_keep=optional, how many of the jokers among the three
    inspected cards it keeps (K_KEEP: the deck is shuffled ahead on a copy of the hand's
    stream, so deal_hand deals the same cards). Returns E_PLUGIN on an illegal answer."""
    mask = int(pprm[PLUG_KINDS])
    if not (mask >> K_CUT) & 1 and not (mask >> K_KEEP) & 1:
        return 0
    reset_hand(st, h, dealer)                   # the view shows the new hand (nothing dealt yet)
    if opts[O_CUT_MODEL] == 0:
        m = DECK_SIZE - 3
        for i in range(m):
            legal[i] = i + 1
        i = plugin_ask(st, opts, tab, cutter, K_CUT, legal, m, plug, pprm, view)
        if i == -2:
            return E_PLUGIN
        if i >= 0:
            st[CUT_AIMED] = i + 1
    if opts[O_CUT_JOKERS] == 1 and (mask >> K_KEEP) & 1:
        g = gdeck.copy()
        for i in range(DECK_SIZE):
            st[STOCK + i] = i // 2 if i < 104 else JK
        shuffle(g, st, STOCK, STOCK + DECK_SIZE)
        t = DECK_SIZE - cut_bottom(opts, g, st[CUT_AIMED])
        j = 0
        for i in range(t - 3, t):
            if st[STOCK + i] == JK:
                j += 1
        if j > 0:
            for i in range(j + 1):
                legal[i] = i
            i = plugin_ask(st, opts, tab, cutter, K_KEEP, legal, j + 1, plug, pprm, view)
            if i == -2:
                return E_PLUGIN
            if i >= 0:
                st[CUT_KEEPS] = i
                st[KEEP_SET] = 1
    return 0
