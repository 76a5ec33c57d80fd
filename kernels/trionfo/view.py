"""What a plug-in's ``decide`` is given: its seat's view (``fill_view``, the V_* layout) and the
call itself (``plugin_decide``: the legal list of each decision kind, the answer checked)."""
import numpy as np

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.trionfo.layout import (
    BID, CALLED, DEALER, DECLARER, FIRST_BIDDER, FIRST_SPEAKER, HAND, HAND_IDX, HIGH_BIDDER, HIGH_LEVEL, K_BID,
    K_NAME, K_TRUMP, LAST_WINNER, LEADER, LED, LEVELS, MONEY, NCARDS, N_PARAMS, N_PLAYERS, O_AUCTION, O_HANDS,
    O_PARTNER_LEVELS, O_PARTNER_METHOD, O_SELF_CALL, O_STAKE, O_WIN_POINTS, PARTNER, PASSED, PLAYED, PLEGAL,
    PLUG_KINDS, PVIEW, REDEALS, REVEALED, THIRDS, TRICK, TRICK_NO, TRUMP, VIEW_SIZE, V_AUCTION, V_BID, V_CALLED,
    V_DEALER, V_DECLARER, V_FIRST_BIDDER, V_FIRST_SPEAKER, V_HAND, V_HANDS, V_HAND_IDX, V_HELD, V_HIGH_BIDDER,
    V_HIGH_LEVEL, V_KIND, V_LAST_WINNER, V_LEADER, V_LED, V_MONEY, V_NCARDS, V_PARTNER, V_PARTNER_LEVELS,
    V_PARTNER_METHOD, V_PASSED, V_PLAYED, V_REDEALS, V_REVEALED, V_SEAT, V_SELF_CALL, V_STAKE, V_THIRDS, V_TRICK,
    V_TRICK_NO, V_TRUMP, V_WIN_POINTS,
)


# =============================================================================
# plug-in strategies: the view and the call
# =============================================================================
@njit(cache=True)
def fill_view(st, opts, p, kind, view):
    """What seat p may see when it decides a ``kind`` decision, into ``view`` (the V_*
    layout): its own hand, the auction, the contract, the table and the public history of
    the hand; never another hand, the deck, or a secret partner (V_PARTNER is -2 until the
    seat knows: it holds the called card, called itself, or the card is played)."""
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_HAND] = st[HAND + p]
    view[V_DEALER] = st[DEALER]
    view[V_FIRST_SPEAKER] = st[FIRST_SPEAKER]
    view[V_HIGH_LEVEL] = st[HIGH_LEVEL]
    view[V_HIGH_BIDDER] = st[HIGH_BIDDER]
    view[V_FIRST_BIDDER] = st[FIRST_BIDDER]
    view[V_PASSED] = st[PASSED]
    d = st[DECLARER]
    partner = st[PARTNER]
    view[V_DECLARER] = d
    view[V_TRUMP] = st[TRUMP]
    view[V_CALLED] = st[CALLED]
    if partner < 0 or st[REVEALED] == 1 or p == partner or (p == d and partner == d):
        view[V_PARTNER] = partner
    else:
        view[V_PARTNER] = -2
    view[V_REVEALED] = st[REVEALED]
    view[V_LEADER] = st[LEADER]
    view[V_TRICK_NO] = st[TRICK_NO]
    view[V_NCARDS] = st[NCARDS]
    view[V_LED] = st[LED]
    for i in range(N_PLAYERS):
        view[V_TRICK + i] = st[TRICK + i] if i < st[NCARDS] else -1
    view[V_PLAYED] = st[PLAYED]
    for q in range(N_PLAYERS):
        view[V_BID + q] = st[BID + q]
        view[V_THIRDS + q] = st[THIRDS + q]
        view[V_MONEY + q] = st[MONEY + q]
        view[V_HELD + q] = popcount(st[HAND + q])
    view[V_HAND_IDX] = st[HAND_IDX]
    view[V_HANDS] = opts[O_HANDS]
    view[V_REDEALS] = st[REDEALS]
    view[V_PARTNER_LEVELS] = opts[O_PARTNER_LEVELS]
    for k in range(LEVELS):
        view[V_STAKE + k] = opts[O_STAKE + k]
    view[V_PARTNER_METHOD] = opts[O_PARTNER_METHOD]
    view[V_SELF_CALL] = opts[O_SELF_CALL]
    view[V_AUCTION] = opts[O_AUCTION]
    view[V_WIN_POINTS] = opts[O_WIN_POINTS]
    view[V_LAST_WINNER] = st[LAST_WINNER]


@njit(cache=True)
def plugin_decide(st, opts, p, kind, arg, plug, params):
    """Plug-in seat p's decision of ``kind``, when its kinds mask asks (its plug-in
    parameters ``prm`` are row p of ``params`` from column N_PARAMS on): the legal list into
    ``legal`` (st[PLEGAL:]; K_BID: pass and the levels above ``arg``, the highest bid;
    K_TRUMP: the suits; K_CALL / K_CARD: the cards of the mask ``arg``; K_NAME: the other
    seats from p's right), then ``plug(view, legal, n, prm)`` on the seat's view (st[PVIEW:]).
    Returns the chosen action (a level, a suit, a card, a seat), -1 to leave the decision to
    the seat's base built-in (or a kind not asked), -2 for an illegal answer. One plain
    function for every call site, so the inlined play loop holds only the call."""
    prm = params[p][N_PARAMS:]
    view = st[PVIEW:PVIEW + VIEW_SIZE]
    legal = st[PLEGAL:PLEGAL + 40]
    if not (np.int64(prm[PLUG_KINDS]) >> kind) & 1:
        return -1
    n = 0
    if kind == K_BID:
        legal[0] = 0
        n = 1
        for k in range(arg + 1, LEVELS + 1):
            legal[n] = k
            n += 1
    elif kind == K_TRUMP:
        for s in range(4):
            legal[s] = s
        n = 4
    elif kind == K_NAME:
        for k in range(1, N_PLAYERS):
            legal[n] = (p + k) % N_PLAYERS
            n += 1
    else:
        m = arg
        while m:                                 # the cards of the mask, lowest first
            legal[n] = lowbit(m)
            m &= m - 1
            n += 1
    fill_view(st, opts, p, kind, view)
    i = plug(view, legal[:n], n, prm)
    if i == -1:
        return -1
    if 0 <= i < n:
        return legal[i]
    return -2
