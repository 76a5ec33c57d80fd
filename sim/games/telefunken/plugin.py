"""Telefunken for plug-in strategies: the view layout, the decision kinds, the action encoding
and numba helpers to use inside ``decide`` (``cardsim.plugin``).

Cards: 0..51 = 13 * suit + rank (suits C D H S, rank 0 = ace .. 12 = king), 52 = a joker. A set
of cards is two 52-bit masks (held at least once, held twice: two packs) and a joker count.

View (int64, ``view[V_...]``, VIEW_SIZE): V_SEAT, V_KIND (the K_* below), V_HNO (hand 1..),
V_HANDS, V_DEALER, V_PLAYERS, V_TURN (turns started this hand), V_CONTRACT (its contracts-table
row), V_AT_ONCE (1: this hand is laid in one go, Hand 7), the contract's first row: V_C_GROUPS,
V_C_GROUP_SIZE, V_C_PURE, V_C_RUNS, V_C_RUN_MIN, V_C_NEXT (alternative row, 0 none); own
holding: V_H1, V_H2 (masks), V_JOKERS, V_TWOS (wild twos, 2 bits per suit; V_WILD_TWOS = 1 when
twos are wild); V_OFFER (the card offered in the buy window, -1), V_DISCARDER; the discard pile
(face up since the last reshuffle): V_TOP (-1 if empty), V_PILE_LEN, V_PILE1, V_PILE2,
V_PILE_JOKERS; V_STOCK (cards left), V_TABLE_ACTS, V_JOKER_DUE (retrieved jokers still to lay),
V_TAKEN (a card taken from the pile this turn, -1), V_UP_OFFER, V_RESHUF, V_EX_ROUND, V_USED,
V_CUT_KEPT, V_CUT_EXACT, V_RULE_CUT_AIM, V_RULE_CUT_SPREAD, V_NMELDS; per seat p (p < 5, 0 beyond
the table): V_HELD + p (cards held), V_DOWN + p, V_DOWN_TURN + p, V_CHIPS + p, V_TOTAL + p
(penalty so far), V_BUYS + p (this hand), V_EXK + p (cards passed in the exchange), V_GBUYS + p
(this game); the table: meld i at ``view[V_TABLE + i * TW + f]`` (``meld_field(view, i, f)``),
f = M_KIND (MK_GROUP 1 / MK_RUN 2: the meld kinds; the decision kinds are the K_* below), M_KEY (a group's rank, a run's suit), M_LO, M_HI (run
positions, 1 = ace low .. 14 = ace high), M_JOKERS (wild cards), M_JPOS (a run's wild
positions, a mask), M_FLAGS, M_P1, M_P2 (its naturals, masks), T_TWOS, T_OWNER, T_TURN,
T_CONTRACT. Never another holding, the stock's order or the exchange pool.

Decision kinds and their legal actions (``legal[:n]``):

* K_BUY: [A_BUY, A_PASS] (index 0 buys, 1 passes).
* K_UPCARD: [A_TAKE_UPCARD, A_DRAW]: take the upcard (take_discard: the top discard) free, or draw.
* K_GO_DOWN (not down, first table action of a turn): the A_GO_DOWN actions (``field(a, 3)`` = the
  alternative contract row, 0 = the hand's only contract; ``field(a, 1)`` = 1 + the meld whose
  joker an Ecuador exchange takes, ``field(a, 2)`` = the card given), then A_HOLD (0): do not go
  down now, the discard (K_DISCARD) follows. The engine lays the contract the way that lays the
  most points.
* K_GO_OUT (a hand laid at once): [A_GO_OUT7, A_HOLD]; the engine lays the partition and discards.
* K_LAY (down): A_MELD (``field(a, 1)`` = MK_GROUP: rank ``field(a, 2)`` with ``field(a, 3)`` wild
  cards; MK_RUN: suit ``field(a, 2)``, positions ``field(a, 3)``..``field(a, 4)``, wild position
  ``field(a, 5)``), A_LAYOFF (``card(a)`` onto meld ``field(a, 2)`` at position ``field(a, 3)``),
  A_SHIFT, A_RETRIEVE, A_TAKE_WILD (joker operations), then A_HOLD: lay nothing more (absent while
  a retrieved joker must still be laid).
* K_DISCARD: the A_DISCARD actions (``card(a)``; also the dealer's opening discard).
* K_EXCHANGE (Hand 6): A_EX_CARD (``card(a)``) for each kind of card held, then A_EX_DONE.
* K_CHOOSE (dealer_chooses_contract): A_CHOOSE actions, ``field(a, 1)`` = the contract.
* K_CUT (the aimed cut, before the deal): ``legal[i] = i + 1``, the bottom portion aimed at
  (the rules' cut_spread noise applies).
* K_KEEP (cut_joker_keep=optional, some of the three inspected cards are jokers): ``legal[i] = i``,
  how many of them to keep.

A plug-in that answers A_HOLD on K_GO_DOWN / K_GO_OUT / K_LAY is asked K_DISCARD next (or its
base discards). -1 leaves a decision to ``base``, as everywhere.
"""
import numba

from cardsim.kernels.melds import MK_GROUP, MK_RUN, M_FLAGS, M_HI, M_JOKERS, M_JPOS, M_KEY, M_KIND, M_LO, M_P1, M_P2  # noqa: F401
from cardsim.kernels.telefunken import (A_BUY, A_CHOOSE, A_DISCARD, A_DRAW, A_EX_CARD, A_EX_DONE, A_GO_DOWN,  # noqa: F401
                                        A_GO_OUT7, A_HOLD, A_LAYOFF, A_MELD, A_PASS, A_RETRIEVE, A_SHIFT, A_TAKE_UPCARD,
                                        A_TAKE_WILD, JK, K_BUY, K_CHOOSE, K_CUT, K_DISCARD, K_EXCHANGE, K_GO_DOWN,
                                        K_GO_OUT, K_KEEP, K_LAY, K_UPCARD, N_KINDS, N_PLUG_PARAMS, T_CONTRACT, T_OWNER,
                                        T_TURN, T_TWOS, TW, V_AT_ONCE, V_BUYS, V_C_GROUP_SIZE, V_C_GROUPS, V_C_NEXT,
                                        V_C_PURE, V_C_RUN_MIN, V_C_RUNS, V_CHIPS, V_CONTRACT, V_CUT_EXACT, V_CUT_KEPT,
                                        V_DEALER, V_DISCARDER, V_DOWN, V_DOWN_TURN, V_EX_ROUND, V_EXK, V_GBUYS, V_H1, V_H2,
                                        V_HANDS, V_HELD, V_HNO, V_JOKER_DUE, V_JOKERS, V_KIND, V_NMELDS, V_OFFER,
                                        V_PILE1, V_PILE2, V_PILE_JOKERS, V_PILE_LEN, V_PLAYERS, V_RESHUF, V_RULE_CUT_AIM,
                                        V_RULE_CUT_SPREAD, V_SEAT, V_STOCK, V_TABLE, V_TABLE_ACTS, V_TAKEN, V_TOP,
                                        V_TOTAL, V_TURN, V_TWOS, V_UP_OFFER, V_USED, V_WILD_TWOS, VIEW_SIZE)
from cardsim.kernels.telefunken import action_card as card  # noqa: F401 - the card of a lay-off, a discard, ..
from cardsim.kernels.telefunken import action_kind as kind  # noqa: F401 - the action's kind (A_*; A_HOLD is 0)
from cardsim.kernels.telefunken import field  # noqa: F401 - field i (1 = a .. 5 = e) of an action
from cardsim.kernels.jit import njit


@njit(cache=True)
def meld_field(view, i, f):
    """Field f (M_*, T_*) of table meld i."""
    return view[V_TABLE + i * TW + f]


@njit(cache=True)
def popcount(x):
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@njit(cache=True)
def own_count(view):
    """Cards in the deciding seat's holding."""
    return view[V_HELD + view[V_SEAT]]


@njit(cache=True)
def rank_count(view, r):
    """Naturals of rank r (0 = ace) in the deciding seat's holding."""
    m = 0
    for s in range(4):
        b = numba.int64(1) << (13 * s + r)
        m += (1 if view[V_H1] & b else 0) + (1 if view[V_H2] & b else 0)
    return m

# The meld kinds' names before issue 42 (plug-ins written with them keep working): a meld's kind
# is MK_GROUP / MK_RUN, since K_* are the decision kinds.
K_GROUP = MK_GROUP
K_RUN = MK_RUN
