"""Tripoli for plug-in strategies: the view layout, the decision kinds, the action encoding and
numba helpers to use inside ``decide`` (``cardsim.plugin``).

Cards are ids 0..51, ``13 * suit + rank`` (suits 0 C, 1 D, 2 H, 3 S; rank 0 = ace, 1 = two ..
12 = king); a set of cards is a mask (bit = card id). Poker classes are
``kernels.poker.eval5`` values 0..7461 (higher is better; ``strength`` maps one to 0..9).

Decision kinds (``view[V_KIND]``) and their legal actions (``kind(a)`` and the payload; these
helpers are the kernels' own action codec, ``kernels.tripoli.actions``):

* K_WIDOW, the dealer's widow options (``view[V_PHASE]``: P_WIDOW keep | swap | auction the
  widow; P_AFTER_SWAP done | auction his old hand; P_AFTER_UNSOLD keep | swap): A_KEEP, A_SWAP,
  A_AUCTION_WIDOW, A_DONE, A_AUCTION_OLD.
* K_BID, a bid in the auction of the unseen widow (``view[V_AUCTION] == AU_WIDOW``) or of the
  dealer's old hand (AU_OLD): A_PASS, or A_BID with ``amount(a)`` = the new high bid (from
  the high bid + 1, at least the minimum bid, up to 20 above the high bid).
* K_SUIT_BID, a bid in the pay-suit auction: A_PASS, A_BID (as K_BID).
* K_SUIT, its winner names the pay suit: A_SUIT, ``suit(a)`` = 0..3.
* K_PICK, the poker hand, one card a decision (five decisions; ``view[V_PICK]`` = the cards
  picked so far): A_PICK, ``card(a)`` = a card of the hand not yet picked.
* K_BET (Phase 2) and K_CLEAR_BET (a clearing round's 5 dealt cards): no bet yet A_CHECK |
  A_BET (``amount(a)`` = the bet); facing a bet A_FOLD | A_CALL | A_RAISE (``amount(a)`` = the
  raise increment; only while raises are left). Amounts run 1 .. ``view[V_MAX_AMOUNT]``.
* K_LEAD, Michigan: A_LEAD, ``suit(a)`` = the suit whose lowest card is led (following,
  stops and payments are forced).

Nothing else is a decision in Tripoli (Phase 1, following in Phase 3 and all payments are
forced by the rules); the only engine limit is that a bid jumps at most 20 above the high bid.

View (int64, ``view[V_...]``), what the deciding seat may see: V_SEAT, V_KIND, V_PHASE,
V_PLAYERS, V_DEALER (of the betting round in a clearing round), V_DEAL_NO, V_DEALS, V_HAND (own
hand), V_PICK (own picks), V_BET_HAND / V_BET_CLASS (the five cards bet on and their class, 0 /
-1 before chosen), V_WIDOW (the whole widow if this seat has seen it, else its public cards:
pay cards nobody claimed in Phase 1, cards a Phase-3 stop revealed), V_OLD_HAND (the dealer
after his swap: his hand before it), V_W_ACT (W_* flags), V_W_BUYER, V_W_PRICE, V_AUCTION (AU_*
of the open auction, -1), V_HIGH, V_HIGH_BY, V_ACTIVE (bidders who have not passed), V_PAY_SUIT,
V_SEQ (sequence start: 2 -> 0 .. Q -> 10), V_SUIT_BY, V_SUIT_PRICE, V_CUR_BET, V_OWE (chips to
call), V_RAISES, V_POT, V_FOLDED, V_ACTED (masks of seats), V_MAX_AMOUNT, V_MAX_RAISES,
V_PLAYED (cards played in Phase 3), V_BANNED (suit that may not be led, -1), V_COLOR,
V_FIRST_LEAD, V_LEADS, V_POT_WIN, V_TIMING (1: Rummoli), V_CLEARING (clearing round, -1),
V_BOARD + i (chips on space i: SP_A .. SP_POT), and per seat p: V_HELD + p (cards held),
V_CHIPS + p (balance change this deal), V_CONTRIB + p (bet this round), V_SHOWN + p (cards of
its hand everybody has seen: Phase-1 pay cards, its poker hand at a showdown).
"""
import numpy as np

from cardsim.kernels.cards import popcount as hand_count  # noqa: F401  (cards in a mask)
from cardsim.kernels.jit import njit
from cardsim.kernels.poker import best5, category, eval5  # noqa: F401
from cardsim.kernels.tripoli import (A_AUCTION_OLD, A_AUCTION_WIDOW, A_BET, A_BID, A_CALL, A_CHECK, A_DONE,  # noqa: F401
                                     A_FOLD, A_KEEP, A_LEAD, A_PASS, A_PICK, A_RAISE, A_SUIT, A_SWAP, AU_OLD, AU_SUIT,
                                     AU_WIDOW, K_BET, K_BID, K_CLEAR_BET, K_LEAD, K_PICK, K_SUIT, K_SUIT_BID, K_WIDOW,
                                     KIND_NAMES, N_KINDS, N_PLUG_PARAMS, P_AFTER_SWAP, P_AFTER_UNSOLD, P_AUCTION, P_BET,
                                     P_LEAD, P_SELECT, P_SUIT, P_WIDOW, SP_10, SP_A, SP_J, SP_K, SP_KITTY, SP_KQ, SP_POT,
                                     SP_Q, SP_SEQ, V_ACTED, V_ACTIVE, V_AUCTION, V_BANNED, V_BET_CLASS, V_BET_HAND,
                                     V_BOARD, V_CHIPS, V_CLEARING, V_COLOR, V_CONTRIB, V_CUR_BET, V_DEAL_NO, V_DEALER,
                                     V_DEALS, V_FIRST_LEAD, V_FOLDED, V_HAND, V_HELD, V_HIGH, V_HIGH_BY, V_KIND, V_LEADS,
                                     V_MAX_AMOUNT, V_MAX_RAISES, V_OLD_HAND, V_OWE, V_PAY_SUIT, V_PHASE, V_PICK,
                                     V_PLAYED, V_PLAYERS, V_POT, V_POT_WIN, V_RAISES, V_SEAT, V_SEQ, V_SHOWN, V_SUIT_BY,
                                     V_SUIT_PRICE, V_TIMING, V_W_ACT, V_W_BUYER, V_W_PRICE, V_WIDOW, VIEW_SIZE,
                                     W_AUCTION_OLD, W_AUCTION_WIDOW, W_SOLD_OLD, W_SOLD_WIDOW, W_SWAP, lowest_in,
                                     next_card, strength)
from cardsim.kernels.tripoli import action_arg as amount  # noqa: F401 - a bid's new high bid, a bet, a raise's increment
from cardsim.kernels.tripoli import action_arg as card  # noqa: F401 - the card of a pick
from cardsim.kernels.tripoli import action_arg as suit  # noqa: F401 - the suit (0..3) of a lead or of naming the pay suit
from cardsim.kernels.tripoli import action_kind as kind  # noqa: F401 - the action's kind (A_*)


@njit(cache=True)
def suit_count(hand, s):
    """Cards of suit s in the mask ``hand``."""
    return hand_count(hand & (np.int64(0x1FFF) << np.int64(13 * s)))
