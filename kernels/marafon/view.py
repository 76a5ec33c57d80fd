"""What a plug-in's ``decide(view, legal, n, prm)`` is given (``fill_view``: the ``V_*`` layout,
only what its seat may see) and the call itself (``asks``, ``plugin_decide``)."""
import numpy as np

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.marafon.layout import (
    BATT,
    DEALER,
    DECL,
    EXTRA,
    GAME_NO,
    GAMES,
    HAND,
    HAND_NO,
    K_CARD,
    K_DECLARE,
    K_TRUMP,
    LAST_WINNER,
    LEADER,
    LED,
    MARAF,
    N_PARAMS,
    N_PLAYERS,
    NCARDS,
    O_MARAF_POINTS,
    O_TARGET,
    O_TRUMP_ONLY,
    PLAYED,
    PLEGAL,
    PLUG_KINDS,
    PVIEW,
    SCORE,
    THIRDS,
    TRICK,
    TRICK_NO,
    TRICKS_WON,
    TRUMP,
    V_BATT,
    V_COUNT,
    V_DEALER,
    V_DECLARABLE,
    V_DECLARED,
    V_EXTRA,
    V_GAME_NO,
    V_GAMES,
    V_HAND,
    V_HAND_NO,
    V_HELD,
    V_KIND,
    V_LAST_WINNER,
    V_LEADER,
    V_LED,
    V_MARAF,
    V_MARAF_POINTS,
    V_NCARDS,
    V_PLAYED,
    V_SCORE,
    V_SEAT,
    V_SIDE,
    V_TARGET,
    V_THIRDS,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS_WON,
    V_TRUMP,
    V_TRUMP_ONLY,
    V_WON,
    VIEW_SIZE,
    WON,
)
from cardsim.kernels.marafon.rules import declarable, side_count


@njit(cache=True)
def fill_view(st, opts, p, kind, view):
    """What seat p may see when it decides a ``kind`` decision, into ``view`` (the V_*
    layout): its own hand, the table, the public history of the hand (cards played, tricks
    won, declarations), scores; never another hand, the deck, or who holds an undeclared
    cricca."""
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_SIDE] = p & 1
    view[V_HAND] = st[HAND + p]
    view[V_TRUMP] = st[TRUMP]
    view[V_BATT] = st[BATT]
    view[V_DEALER] = st[DEALER]
    view[V_LEADER] = st[LEADER] if st[TRUMP] >= 0 else st[BATT]
    view[V_TRICK_NO] = st[TRICK_NO]
    view[V_NCARDS] = st[NCARDS]
    view[V_LED] = st[LED]
    for i in range(4):
        view[V_TRICK + i] = st[TRICK + i] if i < st[NCARDS] else -1
    view[V_PLAYED] = st[PLAYED]
    for s in range(2):
        view[V_WON + s] = st[WON + s]
        view[V_THIRDS + s] = st[THIRDS + s]
        view[V_TRICKS_WON + s] = st[TRICKS_WON + s]
        view[V_MARAF + s] = st[MARAF + s]
        view[V_SCORE + s] = st[SCORE + s]
        view[V_GAMES + s] = st[GAMES + s]
        view[V_COUNT + s] = side_count(st, opts, s)
    view[V_TARGET] = opts[O_TARGET]
    view[V_MARAF_POINTS] = opts[O_MARAF_POINTS]
    view[V_HAND_NO] = st[HAND_NO]
    view[V_GAME_NO] = st[GAME_NO]
    view[V_EXTRA] = st[EXTRA]
    view[V_DECLARABLE] = declarable(st, opts, p) if kind == K_DECLARE else 0
    for q in range(N_PLAYERS):
        view[V_DECLARED + q] = st[DECL + q]
        view[V_HELD + q] = popcount(st[HAND + q])
    view[V_LAST_WINNER] = st[LAST_WINNER]
    view[V_TRUMP_ONLY] = opts[O_TRUMP_ONLY]


@njit(cache=True, inline='always')
def asks(params, p, kind):
    """Whether plug-in seat p's kinds mask asks it decisions of ``kind`` (tested before the
    call: most claim windows of a card-play plug-in then cost no call)."""
    return (np.int64(params[p, N_PARAMS + PLUG_KINDS]) >> kind) & 1 == 1


@njit(cache=True)
def plugin_decide(st, opts, p, kind, cards, plug, params):
    """Plug-in seat p's decision of ``kind``, called only where its kinds mask asks (``asks``,
    tested at each call site; the plug-in parameters ``prm`` are row p of ``params`` from
    column N_PARAMS on): the legal list into ``legal`` (st[PLEGAL:]: K_TRUMP the suits,
    K_DECLARE / K_CLAIM 0 and 1, K_CARD the cards of the mask ``cards``), then
    ``plug(view, legal, n, prm)`` on the seat's view (st[PVIEW:]). Returns the chosen action
    (a suit, 0 / 1, a card), -1 to leave the decision to the seat's base built-in, -2 for an
    illegal answer. One plain function for every call site, so the inlined play loop holds
    only the call."""
    prm = params[p][N_PARAMS:]
    view = st[PVIEW:PVIEW + VIEW_SIZE]
    legal = st[PLEGAL:PLEGAL + 40]
    n = 0
    if kind == K_TRUMP:
        for s in range(4):
            legal[s] = s
        n = 4
    elif kind == K_CARD:
        m = cards
        while m:                                 # the cards of the mask, lowest first
            legal[n] = lowbit(m)
            m &= m - 1
            n += 1
    else:
        legal[0] = 0
        legal[1] = 1
        n = 2
    fill_view(st, opts, p, kind, view)
    i = plug(view, legal[:n], n, prm)
    if i == -1:
        return -1
    if 0 <= i < n:
        return legal[i]
    return -2
