"""Trionfo for plug-in strategies: the view layout, the decision kinds, the legal-action
encoding of each kind and numba helpers to use inside ``decide`` (``cardsim.plugin``).

Cards are 40-card ids ``10 * suit + strength`` (suits 0 C, 1 D, 2 H, 3 S; strength 0..9 =
4 5 6 7 J Q K A 2 3, the 3 highest); a mask has bit ``id`` set per card. Five seats; bid
levels 1 chiamo, 2 di più, 3 maso, 4 maso dei masi (levels above ``V_PARTNER_LEVELS`` are
solos).

Decision kinds (``view[V_KIND]``) and their legal actions ``legal[:n]`` (``decide`` returns
an index into them, or -1 to leave the decision to the base strategy):

* K_BID: speak in the auction. legal = [0, h + 1, ..., 4]: 0 pass, then every level above
  the highest bid h (``V_HIGH_LEVEL``); jump bids are legal.
* K_TRUMP: the declarer names trump. legal = [0, 1, 2, 3], the suits.
* K_CALL: the declarer of a partnership contract calls a card (``trionfo_partner_method =
  call_card``); its holder is the secret partner. legal = the ids of every card not in the
  declarer's hand, or of all 40 cards under ``trionfo_allow_self_call`` (calling one's own
  card: a secret solo), lowest first.
* K_NAME: the declarer names his partner openly (``name_player``). legal = the other four
  seats, from the declarer's right.
* K_CARD: play a card. legal = the ids of the playable cards, lowest first.

View (int64, ``view[V_...]``), what the deciding seat may see: V_SEAT, V_KIND, V_HAND (own
cards, a mask), V_DEALER, V_FIRST_SPEAKER; the auction: V_HIGH_LEVEL, V_HIGH_BIDDER (-1),
V_FIRST_BIDDER (-1), V_PASSED (bit per seat), V_BID + p (seat p's highest bid, 0 none); the
contract: V_DECLARER (-1 during the auction), V_TRUMP (-1), V_CALLED (-1), V_PARTNER (the
partner as this seat knows him: a seat, -1 no partner or no contract yet, -2 a partner
this seat cannot know yet: hidden until the called card is played), V_REVEALED; the play:
V_LEADER, V_TRICK_NO, V_NCARDS, V_LED (-1), V_TRICK + i (5 slots, -1 beyond V_NCARDS),
V_PLAYED (mask), V_THIRDS + p (thirds seat p won this hand), V_LAST_WINNER; the session:
V_MONEY + p (before this hand), V_HELD + p (cards held), V_HAND_IDX, V_HANDS, V_REDEALS; the
rules: V_PARTNER_LEVELS, V_STAKE + k (level k + 1), V_PARTNER_METHOD (0 call_card, 1
name_player), V_SELF_CALL, V_AUCTION (0 open_ascending, 1 single_round), V_WIN_POINTS.
Never another seat's cards.

Helpers: ``legal_mask(legal, n)``, ``index_of(legal, n, x)``, ``winning_index(view)`` /
``winning_card(view)`` (the card now taking the trick), ``trick_mask(view)``,
``hand_strength(hand)`` (the built-ins' bidding strength), and the trick arithmetic of
``kernels.tricks``: ``beating_cards``, ``cheapest``, ``richest``, ``mask_thirds``,
``card_thirds``, ``trump_score``, ``best_trump``, ``is_master``, ``lead_card``,
``suit_of40``, ``strength_of``.
"""
import numpy as np

from cardsim.kernels.cards import popcount  # noqa: F401
from cardsim.kernels import tricks
from cardsim.kernels.jit import njit
from cardsim.kernels.trionfo import (GREEDY_THRESHOLDS, K_BID, K_CALL, K_CARD, K_NAME, K_TRUMP, N_PLUG_PARAMS,  # noqa: F401
                                     V_AUCTION, V_BID, V_CALLED, V_DEALER, V_DECLARER, V_FIRST_BIDDER, V_FIRST_SPEAKER,
                                     V_HAND, V_HAND_IDX, V_HANDS, V_HELD, V_HIGH_BIDDER, V_HIGH_LEVEL, V_KIND,
                                     V_LAST_WINNER, V_LEADER, V_LED, V_MONEY, V_NCARDS, V_PARTNER, V_PARTNER_LEVELS,
                                     V_PARTNER_METHOD, V_PASSED, V_PLAYED, V_REDEALS, V_REVEALED, V_SEAT, V_SELF_CALL,
                                     V_STAKE, V_THIRDS, V_TRICK, V_TRICK_NO, V_TRUMP, V_WIN_POINTS, VIEW_SIZE,
                                     hand_strength)
from cardsim.plugin import index_of, legal_mask  # noqa: F401
from cardsim.kernels.tricks import (beating_cards, best_trump, card_thirds, cheapest, is_master, lead_card,  # noqa: F401
                                    mask_thirds, richest, strength_of, suit_of40, trick_winner, trump_score)


@njit(cache=True)
def winning_index(view):
    """Play-order index of the card now taking the current trick, -1 before the lead."""
    k = view[V_NCARDS]
    if k == 0:
        return -1
    return trick_winner(view[V_TRICK:V_TRICK + 5], k, view[V_TRUMP])


@njit(cache=True)
def winning_card(view):
    """The card now taking the current trick, -1 before the lead."""
    w = winning_index(view)
    return -1 if w < 0 else view[V_TRICK + w]


@njit(cache=True)
def trick_mask(view):
    """The cards of the current trick as a mask."""
    return np.int64(tricks.trick_mask(view[V_TRICK:], view[V_NCARDS]))
