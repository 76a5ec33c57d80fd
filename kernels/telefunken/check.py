"""Telefunken's invariants (the check mode): the 108 cards conserved, the melds on the table
valid, the chips and the purchases."""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import rank_mask
from cardsim.kernels.jit import njit
from cardsim.kernels.telefunken.layout import (
    ASK, A_BUY, CHIPS, DECK_SIZE, DOWN, E_ACTIONS, E_BUY_DOWN, E_CAP, E_CARDS, E_CHIPS, E_MELD, H1, H2,
    MAX_ACTIONS_PER_TURN, N, NMELDS, O_BUY_AFTER_DOWN, O_MAX_TURNS, PILE_LEN, POOL_LEN, STOCK_HI, STOCK_LO,
    TABLE_ACTS, TURN, T_TWOS, WILD2,
)
from cardsim.kernels.telefunken.rules import held, rules_of, table_cards, twos_count


@njit(cache=True)
def cards_ok(st, tab):
    """Holdings + stock + discard pile + exchange pool + table = 108, and no card is held
    more than twice (jokers: 4) anywhere."""
    total = st[STOCK_HI] - st[STOCK_LO] + st[PILE_LEN] + st[POOL_LEN] + table_cards(tab, st[NMELDS])
    twos = rank_mask(1) if st[WILD2] else np.int64(0)
    for p in range(st[N]):
        total += held(st, p)
        if (st[H1 + p] | st[H2 + p]) & twos:
            return False                            # a wild two held as a natural
    for i in range(st[NMELDS]):
        if tab[i, M.M_P1] & twos:
            return False
    return total == DECK_SIZE


@njit(cache=True)
def melds_ok(tab, k, rules):
    """Every table meld is valid (melds.meld_valid: kinds, caps, ratio) and holds at most
    as many wild twos as wild cards."""
    for i in range(k):
        if not M.meld_valid(tab[i], rules) or twos_count(tab[i, T_TWOS]) > tab[i, M.M_JOKERS]:
            return False
    return True


@njit(cache=True)
def check_invariants(st, opts, tab):
    if not cards_ok(st, tab):
        return E_CARDS
    if not melds_ok(tab, st[NMELDS], rules_of(opts)):
        return E_MELD
    for p in range(st[N]):
        if st[CHIPS + p] < 0:
            return E_CHIPS
    if st[TURN] > opts[O_MAX_TURNS]:
        return E_CAP
    if st[TABLE_ACTS] > MAX_ACTIONS_PER_TURN + 1:
        return E_ACTIONS
    return 0


@njit(cache=True)
def check_buy(st, opts, x):
    """A purchase by a seat that is down (A16)."""
    if x & 15 == A_BUY and st[DOWN + st[ASK]] and opts[O_BUY_AFTER_DOWN] == 0:
        return E_BUY_DOWN
    return 0
