"""Tonk for plug-in strategies: the view layout, the decision kinds, the action encoding and
numba helpers to use inside ``decide`` (``cardsim.plugin``).

View (int64, ``view[V_...]``): V_SEAT, V_KIND (K_START: knock / draw from the stock / take the
discard / end a dry hand; K_MELD: lay, hit or discard), V_HAND (own cards, a mask: bit
13 * suit + rank, rank 0 = ace), V_TOP (top discard, -1), V_PILE (mask of the discard pile),
V_PILE_LEN, V_STOCK (cards left), V_TURNS, V_TAKEN (card taken this turn, -1), V_NEW_SPREAD,
V_HITS, V_DRY_TURNS, V_BLOCKED (1: may not knock now), V_PLAYERS, V_DEALER, V_HELD + p (cards
seat p holds), V_BOOKS + p / V_RUNS + p (cards seat p laid, masks).

Actions: ``kind(a)`` is one of A_KNOCK, A_DRAW_STOCK, A_DRAW_DISCARD, A_END_DRY, A_LAY (``cards(a)``
= the mask laid), A_HIT (``card(a)`` on seat ``owner(a)``'s book, or run when ``on_run(a)``), A_DISCARD
(``card(a)``). These helpers are the kernels' own action codec (``kernels.tonk.actions``).
"""
from cardsim.kernels.tonk import (A_DISCARD, A_DRAW_DISCARD, A_DRAW_STOCK, A_END_DRY, A_HIT, A_KNOCK,  # noqa: F401
                                  A_LAY, K_MELD, K_START, N_PLUG_PARAMS, V_BLOCKED, V_BOOKS, V_DEALER, V_DRY_TURNS,
                                  V_HAND, V_HELD, V_HITS, V_KIND, V_NEW_SPREAD, V_PILE, V_PILE_LEN, V_PLAYERS, V_RUNS,
                                  V_SEAT, V_STOCK, V_TAKEN, V_TOP, V_TURNS, VIEW_SIZE, hand_count)
from cardsim.kernels.tonk import action_card as card  # noqa: F401 - the card of a hit or a discard
from cardsim.kernels.tonk import action_cards as cards  # noqa: F401 - the cards (mask) a lay puts down
from cardsim.kernels.tonk import action_kind as kind  # noqa: F401 - the action's kind (A_*)
from cardsim.kernels.tonk import action_on_run as on_run  # noqa: F401 - a hit's target: 1 run, 0 book
from cardsim.kernels.tonk import action_owner as owner  # noqa: F401 - the seat whose spread a hit goes on
