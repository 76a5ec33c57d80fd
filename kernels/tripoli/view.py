"""What a plug-in strategy sees and how it is asked: the decision kind (``decision_kind``), the
seat's view (``fill_view``, laid out by ``layout``'s V_* fields) and the plug-in's choice
(``plugin_pick``).
"""
import numpy as np

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit
from cardsim.kernels.tripoli.layout import (
    ACTED, ACTIVE, AU_KIND, AU_SUIT, BANNED, BET_CTX, BET_DEALER, BOARD, CHIPS, CL_INDEX, CL_POT, COLOR, CONTRIB, CUR,
    CUR_BET, DEALER, DEAL_NO, FIRST_LEAD, FOLDED, HAND, HIGH, HIGH_BY, K_BET, K_BID, K_CLEAR_BET, K_LEAD, K_PICK,
    K_SUIT, K_SUIT_BID, K_WIDOW, LEADS, MAX_PLAYERS, N, OLD_HAND, O_DEALS, O_MAX_RAISES, O_TIMING, P2_FOLDED,
    PAY_SUIT, PHASE, PICK, PLAYED, PLUG_KINDS, POKER_END, POT_WIN, P_AFTER_UNSOLD, P_AUCTION, P_BET, P_LEAD, P_SELECT,
    P_SUIT, RAISES, SEQ, SP_POT, SUIT_BY, SUIT_PRICE, V_ACTED, V_ACTIVE, V_AUCTION, V_BANNED, V_BET_CLASS, V_BET_HAND,
    V_BOARD, V_CHIPS, V_CLEARING, V_COLOR, V_CONTRIB, V_CUR_BET, V_DEALER, V_DEALS, V_DEAL_NO, V_FIRST_LEAD, V_FOLDED,
    V_HAND, V_HELD, V_HIGH, V_HIGH_BY, V_KIND, V_LEADS, V_MAX_AMOUNT, V_MAX_RAISES, V_OLD_HAND, V_OWE, V_PAY_SUIT,
    V_PHASE, V_PICK, V_PLAYED, V_PLAYERS, V_POT, V_POT_WIN, V_RAISES, V_SEAT, V_SEQ, V_SHOWN, V_SUIT_BY, V_SUIT_PRICE,
    V_TIMING, V_WIDOW, V_W_ACT, V_W_BUYER, V_W_PRICE, WIDOW, W_ACT, W_BUYER, W_PRICE, W_SEEN,
)
from cardsim.kernels.tripoli.rules import ah_rank, bet_hand, card_at, max_amount, pay_card


# =============================================================================
# plug-in strategies: the decision kind, the seat's view, the plug-in's choice
# =============================================================================
@njit(cache=True, inline='always')
def decision_kind(st):
    """The K_* kind of the decision to take now."""
    ph = st[PHASE]
    if ph <= P_AFTER_UNSOLD:
        return K_WIDOW
    if ph == P_AUCTION:
        return K_SUIT_BID if st[AU_KIND] == AU_SUIT else K_BID
    if ph == P_SUIT:
        return K_SUIT
    if ph == P_SELECT:
        return K_PICK
    if ph == P_BET:
        return K_CLEAR_BET if st[BET_CTX] else K_BET
    return K_LEAD


@njit(cache=True)
def public_cards(st, opts):
    """(pay cards shown by Phase 1, 1 if the Phase-2 showdown has shown the live seats' poker
    hands): what every seat has seen of the other hands."""
    pay = 0
    if opts[O_TIMING] == 0 and st[PHASE] >= P_SELECT:
        for i in range(5):
            pay |= np.int64(1) << pay_card(st, i)
    shown = st[POKER_END] == 0 and (st[PHASE] == P_LEAD or (st[PHASE] == P_BET and st[BET_CTX] == 1))
    return pay, shown


@njit(cache=True, inline='always')
def shown_of(st, q, pay, shown):
    """Cards of seat q's hand everybody has seen (``public_cards``' pay cards; its poker hand
    at a showdown unless it folded)."""
    h = st[HAND + q]
    s = h & pay
    if shown and not (st[P2_FOLDED] >> q) & 1:
        s |= h & st[PICK + q]
    return s


@njit(cache=True)
def known_widow(st, opts, p):
    """Widow cards seat p knows: the whole widow if it has seen it, else the pay cards nobody
    claimed in Phase 1 and the cards a Phase-3 stop showed (their lower neighbour was played)."""
    w = st[WIDOW]
    if st[W_SEEN] == p:
        return w
    known = w & public_cards(st, opts)[0]
    m = w if st[PLAYED] else 0            # stops happen in Phase 3 only
    while m:
        c = lowbit(m)
        m &= m - 1
        if ah_rank(c) > 0 and (st[PLAYED] >> card_at(c // 13, ah_rank(c) - 1)) & 1:
            known |= np.int64(1) << c      # its lower neighbour was played: a stop showed it
    return known


@njit(cache=True)
def fill_view(st, opts, view):
    """What the seat to decide may see, into ``view`` (the V_* layout): its own hand and poker
    cards, the widow only if it has seen it (else its public cards), the dealer's old hand to
    the dealer, and public facts (board, chips, auctions, bets, folds, played cards, hand sizes,
    cards shown); never another hand, an unseen widow card or another seat's unshown picks."""
    p = st[CUR]
    n = st[N]
    view[V_SEAT] = p
    view[V_KIND] = decision_kind(st)
    view[V_PHASE] = st[PHASE]
    view[V_PLAYERS] = n
    view[V_DEALER] = st[DEALER]
    view[V_DEAL_NO] = st[DEAL_NO]
    view[V_DEALS] = opts[O_DEALS]
    view[V_HAND] = st[HAND + p]
    view[V_PICK] = st[PICK + p]
    cards, cls = bet_hand(st, p)
    if st[BET_CTX] == 0 and popcount(cards) < 5:
        cards, cls = 0, -1
    view[V_BET_HAND] = cards
    view[V_BET_CLASS] = cls
    pay, shown = public_cards(st, opts)
    view[V_WIDOW] = known_widow(st, opts, p)
    view[V_OLD_HAND] = st[OLD_HAND] if p == st[DEALER] else 0
    view[V_W_ACT] = st[W_ACT]
    view[V_W_BUYER] = st[W_BUYER]
    view[V_W_PRICE] = st[W_PRICE]
    view[V_AUCTION] = st[AU_KIND] if st[PHASE] == P_AUCTION else -1
    view[V_HIGH] = st[HIGH]
    view[V_HIGH_BY] = st[HIGH_BY]
    view[V_ACTIVE] = st[ACTIVE]
    view[V_PAY_SUIT] = st[PAY_SUIT]
    view[V_SEQ] = st[SEQ]
    view[V_SUIT_BY] = st[SUIT_BY]
    view[V_SUIT_PRICE] = st[SUIT_PRICE]
    view[V_CUR_BET] = st[CUR_BET]
    view[V_OWE] = st[CUR_BET] - st[CONTRIB + p]
    view[V_RAISES] = st[RAISES]
    view[V_POT] = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    view[V_FOLDED] = st[FOLDED]
    view[V_ACTED] = st[ACTED]
    view[V_MAX_AMOUNT] = max_amount(st, opts)
    view[V_MAX_RAISES] = opts[O_MAX_RAISES]
    view[V_PLAYED] = st[PLAYED]
    view[V_BANNED] = st[BANNED]
    view[V_COLOR] = st[COLOR]
    view[V_FIRST_LEAD] = st[FIRST_LEAD]
    view[V_LEADS] = st[LEADS]
    view[V_POT_WIN] = st[POT_WIN]
    view[V_TIMING] = opts[O_TIMING]
    view[V_CLEARING] = st[CL_INDEX] if st[BET_CTX] == 1 else -1
    if st[BET_CTX] == 1:
        view[V_DEALER] = st[BET_DEALER]
    for i in range(9):
        view[V_BOARD + i] = st[BOARD + i]
    for q in range(MAX_PLAYERS):            # seats beyond the table: 0
        live = q < n
        h = st[HAND + q] if live else 0
        view[V_HELD + q] = popcount(h)
        view[V_CHIPS + q] = st[CHIPS + q] if live else 0
        view[V_CONTRIB + q] = st[CONTRIB + q] if live else 0
        view[V_SHOWN + q] = shown_of(st, q, pay, shown) if live else 0


@njit(cache=True, inline='always')
def plugin_pick(st, opts, acts, n, plug, pprm, view, legal):
    """A plug-in seat's choice: ``plug(view, legal, n, pprm)`` on its view and a copy of the
    legal actions, for the decision kinds in its mask; -1 leaves the choice to its base
    built-in (so does a kind it is not asked), -2 is an illegal answer (E_PLUGIN)."""
    if not (int(pprm[PLUG_KINDS]) >> decision_kind(st)) & 1:
        return -1
    fill_view(st, opts, view)
    legal[:n] = acts[:n]
    i = plug(view, legal[:n], n, pprm)
    if i == -1 or 0 <= i < n:
        return i
    return -2
