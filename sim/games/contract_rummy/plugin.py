"""Contract Rummy (presets contract, liverpool, may_i) for plug-in strategies: the view layout,
the decision kinds, the legal-action encoding of each kind and numba helpers to use inside
``decide`` (``cardsim.plugin``). One record is a game of seven deals.

Cards: ``c = 13 * suit + rank`` (rank 0 = ace .. 12 = king), 52 = a joker; a holding is a
count vector of 53 entries (two or three decks: copies).

View (int64, ``view[V_...]``; what the deciding seat may see, never another hand, a penalty
card or the stock): V_SEAT (the deciding seat: for K_BUY, K_VOLUNTEER and an out-of-turn
K_DISCARD not the turn player), V_KIND, V_PLAYERS, V_DEAL (1..7), V_DEALER, V_CUR (the turn
player), V_TURN (normal turns this deal), V_STOCK (cards in the stock), V_PILE_LEN, V_TOP (top
discard, -1), V_TAKEN (the card type taken from the pile this turn, which may not be discarded,
-1), V_MODEL (may_i_model: 0 out_of_turn_discard, 1 buy, 2 none), V_JOKER_DUE (swapped jokers
kept for this turn's discard), V_XFER (1: this turn's discard goes to an out-of-turn player),
V_CARD / V_MELD / V_INFO / V_INFO2 (the decision's details, below), the deal's contract
V_C_SETS, V_C_RUNS, V_C_EXACT (1: exact sizes 3 and 4), V_C_ALL (1: every card, going out),
V_NMELDS (melds on the table); per seat q: V_HELD + q (cards held), V_DOWN + q (melded this
deal), V_MAYI + q (penalty cards taken this deal), V_OOT + q (out-of-turn plays this deal),
V_TOTAL + q (penalty total so far); V_HAND + c (own copies of card c), V_PILE + c (copies of
c in the discard pile); the table: ``meld_field(view, i, f)`` (f one of M_KIND, M_KEY,
M_JOKERS, M_P1, ..., T_OWNER, T_TURN; ``kernels.melds`` documents the row).

Decision kinds (``K_*``) and their legal codes (``legal[:n]``; ``decide`` returns an index):

* K_DRAW: the turn player, the pile not empty (May-I model: the limits allowing it):
  0 draw from the stock, 1 take the top discard V_CARD; V_INFO 0 free, 1 a penalty card
  follows (a May-I), 2 one follows only if a seat volunteers (take_discard_penalty = if_claimed).
* K_BUY (may_i_model = buy): a seat other than the discarder, before the turn player draws:
  0 pass, 1 buy V_CARD (a penalty card follows).
* K_VOLUNTEER (out_of_turn_discard): the turn player takes V_CARD; asked in seat order:
  0 no, 1 play out of turn (draw from the stock, discard any card).
* K_MELD (not down, a contract meld exists): 0 not now, 1 the engine's meld (the built-ins'),
  2 the plain best meld (most natural points, fewest jokers) where the engine preferred one
  that goes out or leaves one card, 3 + c a meld of every card but one copy of c (c is kept:
  discard it to go out; ``kept(code)``; not in CONTRACT's deal 7, which goes out whole);
  V_INFO / V_INFO2 = cards held after meld 1 / 2 (-1). Codes may name the same meld.
* K_MELD_JOKERS (going down, a non-exact contract, jokers left in the hand): code j = 0..m
  more jokers go into the meld; V_INFO = cards held after the meld without them.
* K_SWAP: swap natural V_CARD for the joker of table run V_MELD: 0 no, 1 yes (V_INFO 1: before
  the contract meld, the joker goes into it; a swap whose joker has nowhere to go is undone).
  After the meld, swaps are offered only where the base swaps (its ``swap`` parameter, 1 by
  default), in table and card order.
* K_JOKER: the joker a swap freed from run V_MELD: 0 keep it for this turn's discard, 1 + t
  lay it on meld t (``target(code)``).
* K_LAYOFF: card V_CARD (offered card by card, naturals then jokers, repeated while cards go):
  0 keep it, 1 + t lay it on meld t.
* K_DISCARD: the card types that may be discarded (V_INFO 1: the out-of-turn discard).

Left to the engine: which contract meld the search finds (K_MELD offers the engine's, the
plain best one and one per card kept back; the melds are not enumerated), where extra meld
jokers go, the order cards are offered for swaps and lay-offs
(swaps and lay-offs alternate while they shed cards), the out-of-turn player's draw (always
the stock), reshuffles and scoring. The view shows the discard pile's contents, not its order,
nor which discards each seat took.
"""
from cardsim.kernels.contract_rummy import (K_BUY, K_DISCARD, K_DRAW, K_JOKER, K_LAYOFF, K_MELD,  # noqa: F401
                                            K_MELD_JOKERS, K_SWAP, K_VOLUNTEER, N_KINDS, N_PLUG_PARAMS, T_OWNER,
                                            T_TURN, TW, V_C_ALL, V_C_EXACT, V_C_RUNS, V_C_SETS, V_CARD, V_CUR,
                                            V_DEAL, V_DEALER, V_DOWN, V_HAND, V_HELD, V_INFO, V_INFO2, V_JOKER_DUE,
                                            V_KIND, V_MAYI, V_MELD, V_MODEL, V_NMELDS, V_OOT, V_PILE, V_PILE_LEN,
                                            V_PLAYERS, V_SEAT, V_STOCK, V_TAB, V_TAKEN, V_TOP, V_TOTAL, V_TURN,
                                            V_XFER, VIEW_SIZE, JK)
from cardsim.kernels.melds import (MK_GROUP, MK_RUN, M_FLAGS, M_HI, M_JOKERS, M_KEY, M_KIND, M_LO,  # noqa: F401
                                   M_P1, M_P2)
from cardsim.kernels.jit import njit
from cardsim.plugin import index_of

NO = 0       # K_DRAW / K_BUY / K_VOLUNTEER / K_MELD / K_SWAP: the "no" code
YES = 1
KEEP = 0     # K_LAYOFF / K_JOKER: keep the card


@njit(cache=True)
def target(code):
    """The table meld a K_LAYOFF / K_JOKER code lays the card on (-1: kept)."""
    return code - 1


@njit(cache=True)
def kept(code):
    """The card a K_MELD code 3 + c keeps back (-1 for codes 0..2)."""
    return code - 3 if code >= 3 else -1


@njit(cache=True)
def meld_field(view, i, f):
    """Field f (M_KIND, M_KEY, ..., T_OWNER, T_TURN) of table meld i."""
    return view[V_TAB + TW * i + f]


@njit(cache=True)
def held(view, c):
    """Own copies of card c."""
    return view[V_HAND + c]


find = index_of          # the index of a code in legal[:n], -1 if it is not legal

# The meld kinds' names before issue 42 (plug-ins written with them keep working): a meld's kind
# is MK_GROUP / MK_RUN, since K_* are the decision kinds.
K_GROUP = MK_GROUP
K_RUN = MK_RUN
