"""Marafon for plug-in strategies: the view layout, the decision kinds, the legal-action
encoding of each kind and numba helpers to use inside ``decide`` (``cardsim.plugin``).

Cards are 40-card ids ``10 * suit + strength`` (suits 0 C batons, 1 D coins, 2 H cups,
3 S swords; strength 0..9 = 4 5 6 7 J Q K A 2 3, so the 3 is the highest); a mask has bit
``id`` set for each card. Sides: 0 = seats 0 and 2, 1 = seats 1 and 3.

Decision kinds (``view[V_KIND]``) and their legal actions ``legal[:n]`` (``decide`` returns
an index into them, or -1 to leave the decision to the base strategy):

* K_TRUMP: the battitore names trump, seeing his ten cards. legal = [0, 1, 2, 3], the suits.
* K_DECLARE: declare the marafona (3-2-A) in trick 1 at one's turn; asked only when the
  rules leave it to the player (``marafona_auto_declare = false``; otherwise the engine
  declares). legal = [0, 1]: 0 keep quiet, 1 declare (every cricca in ``V_DECLARABLE``).
* K_CLAIM: a claim window (after a trick, after a declaration, before each card with
  ``claim_timing = every_card``), asked of the seats in turn; a claim ends the game, won if
  the side's count (``V_COUNT + side``) has reached ``V_TARGET``. legal = [0, 1]: 0 no
  claim, 1 claim.
* K_CARD: play a card. legal = the 40-card ids of the playable cards, lowest id first.

View (int64, ``view[V_...]``), what the deciding seat may see: V_SEAT, V_KIND, V_SIDE,
V_HAND (own cards, a mask), V_TRUMP (-1 before it is named), V_BATT, V_DEALER, V_LEADER,
V_TRICK_NO (tricks done this hand), V_NCARDS (cards in the current trick), V_LED (-1 before
the lead), V_TRICK + i (the trick's cards in play order, -1 beyond V_NCARDS), V_PLAYED
(every card played this hand, a mask), and per side s: V_WON + s (cards in its tricks, a
mask), V_THIRDS + s (thirds won this hand), V_TRICKS_WON + s, V_MARAF + s (marafone
declared), V_SCORE + s (game score before this hand), V_GAMES + s (games won in the match),
V_COUNT + s (claim count in thirds); then V_TARGET (thirds), V_MARAF_POINTS, V_HAND_NO,
V_GAME_NO, V_EXTRA (1 in an extra hand: no claims), V_DECLARABLE (K_DECLARE: the suit mask
of the cricche to declare), V_DECLARED + p (suit mask seat p declared this hand), V_HELD + p
(cards seat p holds), V_LAST_WINNER (-1), V_TRUMP_ONLY (1: only the trump 3-2-A is a
marafona). Never another seat's cards.

Helpers: ``legal_mask(legal, n)``, ``index_of(legal, n, card)``, ``winning_index(view)`` /
``winning_card(view)`` (the card now taking the trick), ``trick_mask(view)``, and the trick
arithmetic of ``kernels.tricks``: ``beating_cards(mask, card, trump)``, ``cheapest(mask,
trump)``, ``richest(mask, trump)``, ``mask_thirds(mask)``, ``card_thirds(card)``,
``trump_score(hand, suit)``, ``best_trump(hand)``, ``cricche(hand)``, ``is_master(card,
unseen)``, ``lead_card(hand, unseen, trump)``, ``suit_of40(card)``, ``strength_of(card)``.
"""
import numpy as np

from cardsim.kernels.cards import popcount  # noqa: F401
from cardsim.kernels import tricks
from cardsim.kernels.jit import njit
from cardsim.kernels.marafon import (K_CARD, K_CLAIM, K_DECLARE, K_TRUMP, N_PLUG_PARAMS, V_BATT,  # noqa: F401
                                     V_COUNT, V_DEALER, V_DECLARABLE, V_DECLARED, V_EXTRA, V_GAME_NO, V_GAMES, V_HAND,
                                     V_HAND_NO, V_HELD, V_KIND, V_LAST_WINNER, V_LEADER, V_LED, V_MARAF, V_MARAF_POINTS,
                                     V_NCARDS, V_PLAYED, V_SCORE, V_SEAT, V_SIDE, V_TARGET, V_THIRDS, V_TRICK,
                                     V_TRICK_NO, V_TRICKS_WON, V_TRUMP, V_TRUMP_ONLY, V_WON, VIEW_SIZE)
from cardsim.plugin import index_of, legal_mask  # noqa: F401
from cardsim.kernels.tricks import (beating_cards, best_trump, card_thirds, cheapest, cricche, is_master,  # noqa: F401
                                    lead_card, mask_thirds, richest, strength_of, suit_of40, trick_winner, trump_score)


@njit(cache=True)
def winning_index(view):
    """Play-order index of the card now taking the current trick, -1 before the lead."""
    k = view[V_NCARDS]
    if k == 0:
        return -1
    return trick_winner(view[V_TRICK:V_TRICK + 4], k, view[V_TRUMP])


@njit(cache=True)
def winning_card(view):
    """The card now taking the current trick, -1 before the lead."""
    w = winning_index(view)
    return -1 if w < 0 else view[V_TRICK + w]


@njit(cache=True)
def trick_mask(view):
    """The cards of the current trick as a mask."""
    return np.int64(tricks.trick_mask(view[V_TRICK:], view[V_NCARDS]))
