"""What a seat may see in Tonk: the public cards, the cards a rival is known to hold, the cards
a seat cannot place (the expert's and the search's reads, all from one seat's view), and what a
plug-in's ``decide(view, legal, n, prm)`` is given (``fill_view``, ``plugin_pick``; the ``V_*``
layout)."""
from cardsim.kernels.cards import FULL_DECK, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.tonk.layout import (
    BLOCKED,
    BOOK,
    CUR,
    DEALER,
    DRY_TURNS,
    HAND,
    HITS,
    K_MELD,
    K_START,
    KNOWN,
    MAX_PLAYERS,
    N,
    NEW_SPREAD,
    P_START,
    PHASE,
    PILE_LEN,
    PILE_MASK,
    PLUG_KINDS,
    RUN,
    STOCK_PTR,
    TAKEN,
    TURNS,
    V_BLOCKED,
    V_BOOKS,
    V_DEALER,
    V_DRY_TURNS,
    V_HAND,
    V_HELD,
    V_HITS,
    V_KIND,
    V_NEW_SPREAD,
    V_PILE,
    V_PILE_LEN,
    V_PLAYERS,
    V_RUNS,
    V_SEAT,
    V_SPARE,
    V_STOCK,
    V_TAKEN,
    V_TOP,
    V_TURNS,
)
from cardsim.kernels.tonk.rules import pile_top


# =============================================================================
# what a seat sees of the others' cards
# =============================================================================
@njit(cache=True)
def public_cards(st):
    """Every card seat-independent information places: the discard pile and the spreads."""
    m = st[PILE_MASK]
    for q in range(st[N]):
        m |= st[BOOK + q] | st[RUN + q]
    return m


@njit(cache=True, inline='always')
def rival_known(st, p, q):
    """The cards seat ``q`` is publicly known to hold, as ``p`` sees it: taken from the pile
    and not played since (nor in ``p``'s own hand)."""
    return st[KNOWN + q] & ~(st[HAND + p] | public_cards(st))


@njit(cache=True, inline='always')
def rivals_known(st, p):
    """The cards some other seat is publicly known to hold, as ``p`` sees them (the union of
    ``rival_known`` over the rivals)."""
    m = 0
    for q in range(st[N]):
        if q != p:
            m |= st[KNOWN + q]
    return m & ~(st[HAND + p] | public_cards(st))


@njit(cache=True, inline='always')
def unseen_by(st, p):
    """The cards seat ``p`` cannot place: not in its hand, the pile, a spread, or among the
    cards a rival is known to hold. Reads only what ``p`` may see."""
    return FULL_DECK & ~(st[HAND + p] | public_cards(st) | rivals_known(st, p))


# =============================================================================
# what a plug-in sees
# =============================================================================
@njit(cache=True)
def decision_kind(st):
    """The plug-in decision kind of the seat to act (K_START or K_MELD)."""
    return K_START if st[PHASE] == P_START else K_MELD


@njit(cache=True)
def fill_view(st, view):
    """What the seat to act may see, into ``view`` (the V_* layout): its own hand, the table,
    the discard pile, counts; never another hand or the stock's order."""
    p = st[CUR]
    view[V_SEAT] = p
    view[V_KIND] = K_START if st[PHASE] == P_START else K_MELD
    view[V_HAND] = st[HAND + p]
    view[V_TOP] = pile_top(st)
    view[V_PILE] = st[PILE_MASK]
    view[V_PILE_LEN] = st[PILE_LEN]
    view[V_STOCK] = 52 - st[STOCK_PTR]
    view[V_TURNS] = st[TURNS]
    view[V_TAKEN] = st[TAKEN]
    view[V_NEW_SPREAD] = st[NEW_SPREAD]
    view[V_HITS] = st[HITS]
    view[V_DRY_TURNS] = st[DRY_TURNS]
    view[V_BLOCKED] = (st[BLOCKED] >> p) & 1
    view[V_PLAYERS] = st[N]
    view[V_DEALER] = st[DEALER]
    view[V_SPARE] = 0
    for q in range(MAX_PLAYERS):            # seats beyond the table: 0
        live = q < st[N]
        view[V_HELD + q] = popcount(st[HAND + q]) if live else 0
        view[V_BOOKS + q] = st[BOOK + q] if live else 0
        view[V_RUNS + q] = st[RUN + q] if live else 0


@njit(cache=True, inline='always')
def plugin_pick(st, acts, n, plug, pprm, view, legal):
    """A plug-in seat's choice: ``plug(view, legal, n, pprm)`` on its view and a copy of the
    legal actions, for the decision kinds in its mask; -1 leaves the choice to its base
    built-in (so does a kind it is not asked), -2 is an illegal answer (E_PLUGIN)."""
    kind = K_START if st[PHASE] == P_START else K_MELD
    if not (int(pprm[PLUG_KINDS]) >> kind) & 1:
        return -1
    fill_view(st, view)
    legal[:n] = acts[:n]
    i = plug(view, legal[:n], n, pprm)
    if i == -1 or 0 <= i < n:
        return i
    return -2
