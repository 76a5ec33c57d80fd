"""Trionfo: 5 players, an auction, a called partner or a solo, as small numba kernels.

Rules source: ``docs/rules/marafon.md`` Part B (and §0); every Trionfo DECISION of its
section C is an option below. Trick arithmetic and the shared play heuristics are
``kernels.tricks``; what its search and critique share with Marafon's (the deal that respects
the voids, the action codes) ``kernels.trick_search``.

Choices this module adds where the spec leaves room
----------------------------------------------------
* One record is one **session** of ``trionfo_hands`` hands; the first HAND_SLOTS hands have
  their own record columns. Hand h is shuffled from stream (seed, session, 16 + h); a
  thrown-in deal is reshuffled from the same stream (so hand h's first deal is the same
  whatever the strategies).
* ``open_ascending``: a bid names the contract, so the heuristic bids the level it wants
  (by its strength thresholds) at once when that is above the current bid, and passes
  otherwise; jump bids are legal.
* Knowledge used by the play heuristic: the declarer knows his partner once the called card
  is played; the partner knows the declarer; a defender treats the other defenders as
  partners only when that is public (a solo contract, or the partner revealed). Unknown
  seats count as opponents.
* ``trionfo_allow_self_call``: a self-called partnership is a secret solo; it is paid as a
  solo at the bid's stake (the public still sees a partnership contract).
* Self-call (issue 15): under ``trionfo_allow_self_call`` greedy and heuristic declarers of a
  partnership contract call one of their own cards (the highest trump they hold) when their
  hand strength reaches their ``self_call`` parameter (greedy 12, heuristic 16; 41 = never):
  a secret solo. Before, neither ever called itself. Measured (20,000 sessions, self_call
  preset, each against a field that never self-calls): heuristic -0.004 money a session at
  16 (within noise), -0.93 at 13; greedy -0.25 at 12, -0.51 at 11: a secret solo on a chiamo
  hand does not pay at these bidding thresholds.
* ``random``'s ``pass_bias`` (default 0: every legal call equally likely) makes it the
  all-pass fuzzer that reaches ``redeal_cap``.
* ``name_player``: the declarer names a seat openly; the heuristic names the seat that bid
  highest in the auction (nearest to the declarer's right on ties, his right if nobody else
  bid).
* ``search`` (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
  determinized Monte Carlo over the legal cards. It deals ``worlds`` times the four hands
  its seat cannot see (``determinize``: hand sizes, the suits each seat has shown void in
  (``VOID``), in a session's first hand the 5D with the first speaker, and an unplayed called
  card it does not hold with one of the others, never the declarer without self-calls; that
  seat is the world's partner, so the secret partner is sampled, not read), plays every
  legal card in each and rolls the hand out with the rollout policy's card play at every
  seat (``rollouts`` times, the same streams for every card), and takes the card with the
  best total money of its seat in the hand. A record is a session of hands whose money is
  the sum of the hands' and a hand's play changes no other hand, so the hand's money is the
  record's own measure. With ``trump`` the declarer names trump the same way (each suit
  rolled out over the whole hand, the partner called as the policy calls); bids and the call
  are the policy's. A table with a search
  seat plays the general card loop (``play_tricks_plugged``; ``PLUGGED``); ``VOID`` is public
  bookkeeping only (``RULES_VERSION`` unchanged). The batch kernels call the search as a
  callback (``srch``, ``SEARCH_SIG``: a card or the trump) compiled the first time a table
  has a search seat (``search_cfunc``; issue 14), and a table with a search or plug-in seat
  plays its tricks through another (``play_tricks_plugged`` as ``PLUGGED_SIG``,
  ``plugged_cfunc``): a built-in table compiles neither.
* Redeal cap ``MAX_REDEALS`` (100, not in the spec): a hand still thrown in after that many
  deals is void (no money) and the session is flagged ``truncated``.
* Plug-in strategies (issue 17): a seat with sid ``PLUGIN + b`` asks a user's ``decide`` (a
  ``jit.PLUG_SIG`` function) first for the decision kinds of its mask: K_BID (legal: 0 pass,
  then the levels above the highest bid), K_TRUMP (the suits 0..3), K_CALL (the cards it
  may call: any card not in its hand, every card under self-call), K_NAME (the other seats,
  from its right) and K_CARD (the playable cards); -1 leaves the decision to the built-in b,
  anything else but an index of the legal list stops the session with E_PLUGIN. Its view
  (``fill_view``, the V_* layout) holds only what that seat may see: never another hand,
  nor a secret partner before the called card is played. Left to the engine: redeals after
  an all-pass auction and the leader of trick 1 (both set by the rules).
* Critique (issue 40, ``kernels.critique``): ``critique_deal`` plays a session as the batch
  does (through the choice helpers the batch uses: ``bid_choice``, ``trump_choice``,
  ``name_choice``, ``call_choice``, ``card_choice``) and rows every decision of one seat: its
  calls in every auction, its trump and call or naming as declarer, its cards. An action code
  is ``kind << ACT_SHIFT | action``. Each legal action is valued as the search values a card
  (``world_values``, which ``search_card`` and ``search_trump`` use): worlds of the hidden
  hands, the action played, the rest of the auction and the contract by the policy, the hand
  rolled out and settled; the seat's money in the hand (a deal thrown in: 0).

Options (int array built by ``sim.games.trionfo.TrionfoOptions.to_array``):

| index | option | values |
|---|---|---|
| O_PARTNER_LEVELS | trionfo_partner_levels | 1 (chiamo) or 2 (chiamo, di più) |
| O_STAKE + k | trionfo_bid_stakes | stake of level k + 1 |
| O_PARTNER_METHOD | trionfo_partner_method | 0 call_card, 1 name_player |
| O_SELF_CALL | trionfo_allow_self_call | 0/1 |
| O_AUCTION | trionfo_auction | 0 open_ascending, 1 single_round |
| O_FIRST_LEADER | trionfo_first_leader | 0 first_bidder, 1 first_speaker, 2 declarer |
| O_REDEAL_DEALER | trionfo_redeal_dealer | 0 same, 1 next |
| O_WIN_POINTS | trionfo_win_points | 1..11 |
| O_PAYOUT | trionfo_payout | 0 chiamata |
| O_HANDS | trionfo_hands | hands per session |
| O_FIRST_DEALER | first_dealer | -1 random, else seat |

RULES_VERSION = 1. Speed: as in ``kernels.marafon``, the per-card and per-bid kernels are
``inline='always'`` (about 1.6x the hands per second of plain calls).

State: one int64 array, fields below with one comment each. Money per hand: the declarer
wins or pays 2s (partner s, each opponent s) or 4s alone (each opponent s), s the stake of
the contract; the hand and the session are zero-sum; |money of a hand| <= 4 x max stake.
"""
import numpy as np

from cardsim.kernels.cards import lowbit, nth_card, popcount
import numba
from numba import types

from cardsim.kernels.jit import (
    PLUG_SIG,
    lazy_cfunc,
    njit,
    no_plugin,
    plugged_callback,
    search_callback,
    threaded_batch,
    trace_put,
    unowned,
    with_plugin_params,
)
from cardsim.kernels.critique import ROUND as CR_ROUND, STREAM_CRITIQUE, finish_row, measure_pair, plain_row, \
    put_world, round_done, sampled
from cardsim.kernels.rng import STREAM_PLAY, below, mix64, seed_stream, shuffle, stream_key, uniform
from cardsim.kernels.search import (SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS, best_action, plan_budget,
                                    search_key, seed_sub, shuffle_prefix)
from cardsim.kernels.trick_search import (ACT_MASK, ACT_SHIFT, HALT, act_code, decision_kind,  # noqa: F401
                                         mask_acts, place)
from cardsim.kernels.tricks import (
    FULL40,
    LAST_TRICK_THIRDS,
    S_ACE,
    S_THREE,
    S_TWO,
    SUIT40,
    VALUE_THIRDS,
    bank_card,
    beating_cards,
    best_trump,
    cards_conserved,
    cheapest,
    follow_card,
    greedy_card,
    highbit,
    holder_of,
    is_master,
    lead_card,
    legal_cards,
    mask_thirds,
    masters_of,
    richest,
    suit_mask40,
    trick_mask,
    trick_winner,
    trump_honours,
    ruff_odds,
)

RULES_VERSION = 1
N_PLAYERS = 5
TRICKS = 8
FIVE_COINS = 11                 # card id of 5D (suit 1, strength 1)
STREAM_HAND = 16
STREAM_DEALER = 15
HAND_SLOTS = 20
MAX_REDEALS = 100
MAX_SPEECHES = 64               # auction guard (an open auction ends within 4 raises)
CHUNK = 128
LEVELS = 4

# ---- options array -------------------------------------------------------------
O_PARTNER_LEVELS = 0
O_STAKE = 1        # O_STAKE + k, k = 0..3
O_PARTNER_METHOD = 5
O_SELF_CALL = 6
O_AUCTION = 7
O_FIRST_LEADER = 8
O_REDEAL_DEALER = 9
O_WIN_POINTS = 10
O_PAYOUT = 11
O_HANDS = 12
O_FIRST_DEALER = 13
O_SIZE = 14

# ---- state fields (int64 array) ------------------------------------------------
N = 0            # number of players (5)
HAND_IDX = 1     # hand of the session being played (0-based)
DEALER = 2       # dealer of the current deal
FIRST_DEALER = 3  # dealer of the session's first hand
REDEALS = 4      # thrown-in deals of the current hand
ALL_REDEALS = 5  # thrown-in deals in the session
TRUNC = 6        # 1 if a hand hit the redeal cap
ERR = 7          # check-mode violation (E_*)
TR_LEN = 8       # trace rows written
TRICKS_PLAYED = 9  # tricks played in the session
FIRST_SPEAKER = 10  # first to speak in the auction
HIGH_LEVEL = 11  # highest bid so far (0 = none)
HIGH_BIDDER = 12  # seat of the highest bid, -1
FIRST_BIDDER = 13  # first seat that made a bid, -1
PASSED = 14      # bit p: seat p has passed
DECLARER = 15    # the auction's winner, -1
TRUMP = 16       # trump suit, -1 before it is named
CALLED = 17      # called card (call_card), -1
PARTNER = 18     # partner seat (-1 solo; = DECLARER after a self-call)
REVEALED = 19    # 1 once the partner is public (called card played, or named openly)
LEADER = 20      # leader of the current trick
TRICK_NO = 21    # tricks completed this hand
NCARDS = 22      # cards in the current trick
LED = 23         # suit led, -1 before the lead
PLAYED = 24      # mask of the cards played this hand
LAST_WINNER = 25  # winner of the last completed trick
SIDE_PTS = 26    # declarer side's points (truncated) at the end of the hand
WON = 27         # 1 if the declarer's side won the hand
STRENGTH = 28    # declarer's hand strength when the auction ended
VOID_HAND = 29   # 1 if the hand was void (redeal cap)
HAND = 30        # HAND + p: cards held by seat p
THIRDS = 35      # THIRDS + p: thirds won by seat p this hand
MONEY = 40       # MONEY + p: session money of seat p
HMONEY = 45      # HMONEY + p: money of seat p in this hand
BID = 50         # BID + p: highest level seat p bid in this auction (0 = none)
TRICK = 55       # TRICK + i: i-th card of the current trick
DECK = 60        # DECK .. DECK+39: the shuffled deck
PVIEW = 100      # PVIEW .. +VIEW_SIZE: a plug-in's view (scratch, written before each plug-in decision)
PLEGAL = 157     # PLEGAL .. +40: a plug-in decision's legal actions (scratch)
PLUGGED = 197    # 1 when a seat of the table is a plug-in (sid >= PLUGIN) or a search (S_SEARCH): the
                 # table plays the general card loop (``play_tricks_plugged``)
VOID = 198       # VOID + p: suits (bits 0..3) seat p has shown void in this hand by not following (public)
ST_SIZE = 203

# ---- end reasons of a session ----------------------------------------------------
R_COMPLETE = 0
R_REDEAL_CAP = 1
REASON_NAMES = ("complete", "redeal_cap")

# ---- check-mode violations -----------------------------------------------------
E_CARDS = 1
E_NO_MOVES = 2
E_ILLEGAL = 3
E_POINTS = 4
E_ZERO_SUM = 5
E_BOUND = 6
E_AUCTION = 7
E_PLUGIN = 8       # a plug-in strategy returned no legal action's index (checked in every mode)
ERROR_NAMES = ("", "cards not conserved", "no legal card", "illegal card or bid chosen",
               "thirds differ from 35 or points from 11", "money not zero-sum",
               "money out of bounds", "auction guard exceeded", "a plug-in strategy returned an illegal action")

# ---- strategies ----------------------------------------------------------------
S_RANDOM = 0       # params: pass_bias
S_GREEDY = 1       # params: self_call (bids by GREEDY_THRESHOLDS)
S_HEURISTIC = 2    # params: t1..t4 (strength for each level), explore, self_call
S_SEARCH = 3       # params: the search row (kernels.search: worlds, rollouts, budget, policy, trump, then the
                   # policy's row)
S_EXPERT = 4       # params: heuristic's six, then the X_* slots (issue 41; ``expert_card``)
X_HONOUR = 6       # expert: spend the trump 3 and 2 only on a trick worth this many thirds (heuristic: 3)
X_DRAW = 7         # expert: a solo declarer leads the master trump holding at least this many trumps (9: never)
X_RISK = 8         # expert: a master stands when the chance that an opponent after it ruffs is at most this
X_BANK = 9         # expert: a sure win takes the card of most bank x 10 x thirds - keep_cost (0: the cheapest)
X_CLINCH = 10      # expert: at most this many thirds short of the side's target, play a sure trick (0: never)
X_PLAIN = 11       # expert: 1: lead a counting plain master that stands before any other lead
X_READ = 12        # expert: 1: read the sides from the voids (a seat that cannot hold the called card)
X_RUFF_MIN = 13    # expert: out of the suit led (not trumps), ruff only a trick worth this many thirds (0: as heuristic)
X_DRAW_LAST = 14   # expert: a solo declarer leads the master trump while at most this many trumps are unseen (0: never)
N_PARAMS = SP_PRM + 15   # the search row, then its rollout policy's row (the expert's 15 at most)
EX_TRUMP = SP_EXTRA  # search row: 1 = the declarer's trump by search too, 0 = by the policy
GREEDY_THRESHOLDS = (9.0, 13.0, 15.0, 17.0)
PLUGIN = 64        # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8  # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k
# The kernels take a plug-in seat's ``pprm`` row appended to its ``params`` row (columns
# N_PARAMS ..), and the view and legal buffers inside the state (PVIEW, PLEGAL): the play loop
# then hands ``plugin_decide`` nothing the built-in path does not hold already (as in
# ``kernels.marafon``, where four more arrays at its call sites cost the built-ins 20-30 %).

# ---- plug-in decision kinds and their legal actions (``legal[i]``) ----------------
K_BID = 0          # speak in the auction: 0 pass, then the levels V_HIGH_LEVEL + 1 .. 4
K_TRUMP = 1        # the declarer names trump: the suits 0, 1, 2, 3
K_CALL = 2         # call the partner's card (call_card): the callable cards' ids, lowest first
K_NAME = 3         # name the partner (name_player): the other seats, from the declarer's right
K_CARD = 4         # play a card: the legal cards' 40-card ids, lowest first
# a critique action code (issue 40): kind << ACT_SHIFT | the legal action above (``kernels.trick_search``)
MAX_ACTS = 40      # legal actions of a decision at most (K_CALL under self-calls: every card)
ROLE_AUCTION, ROLE_DECLARER, ROLE_PARTNER, ROLE_DEFENDER = 0, 1, 2, 3   # a critique row's detail

# ---- what a plug-in's decide(view, legal, n, prm) sees: its seat's view ----------
V_SEAT = 0         # the deciding seat
V_KIND = 1         # decision kind (K_*)
V_HAND = 2         # own cards (40-card mask)
V_DEALER = 3       # dealer of this deal
V_FIRST_SPEAKER = 4  # first to speak in the auction
V_HIGH_LEVEL = 5   # highest bid so far (the contract's level once the auction is over), 0 none
V_HIGH_BIDDER = 6  # seat of the highest bid, -1
V_FIRST_BIDDER = 7  # first seat that bid, -1
V_PASSED = 8       # bit p: seat p has passed
V_BID = 9          # V_BID + p: highest level seat p bid in this auction (0 none)
V_DECLARER = 14    # the declarer, -1 during the auction
V_TRUMP = 15       # trump suit, -1 before it is named
V_CALLED = 16      # the called card (call_card), -1
V_PARTNER = 17     # the partner as this seat knows it: a seat, -1 none (solo, or no contract yet), -2 unknown
V_REVEALED = 18    # 1 once the partner is public (called card played, or named openly)
V_LEADER = 19      # leader of the current trick
V_TRICK_NO = 20    # tricks completed this hand (0..7)
V_NCARDS = 21      # cards in the current trick
V_LED = 22         # suit led, -1 before the lead
V_TRICK = 23       # V_TRICK + i: i-th card of the current trick (play order), -1 beyond V_NCARDS
V_PLAYED = 28      # every card played this hand (mask)
V_THIRDS = 29      # V_THIRDS + p: thirds seat p won this hand
V_MONEY = 34       # V_MONEY + p: seat p's session money before this hand
V_HELD = 39        # V_HELD + p: cards seat p holds
V_HAND_IDX = 44    # hand of the session (0-based)
V_HANDS = 45       # hands in the session (trionfo_hands)
V_REDEALS = 46     # thrown-in deals of this hand so far
V_PARTNER_LEVELS = 47  # levels with a partner (1 or 2); higher levels are solos
V_STAKE = 48       # V_STAKE + k: stake of level k + 1
V_PARTNER_METHOD = 52  # 0 call_card, 1 name_player
V_SELF_CALL = 53   # 1: the declarer may call his own card
V_AUCTION = 54     # 0 open_ascending, 1 single_round
V_WIN_POINTS = 55  # points the declarer's side needs
V_LAST_WINNER = 56  # winner of the last completed trick, -1
VIEW_SIZE = 57

# ---- trace rows: [code, seat, a, b, c, d] --------------------------------------
T_HAND = 1       # a = hand number (1-based), b = dealer, c = first speaker
T_DEAL = 2       # a = hand mask
T_BID = 3        # a = level (0 = pass)
T_REDEAL = 4     # a = redeal number
T_CONTRACT = 5   # seat = declarer, a = level, b = trump, c = called card or -1, d = partner
T_PLAY = 6       # a = card
T_TRICK = 7      # seat = winner, a = thirds
T_SETTLE = 8     # a = side points, b = won, c = stake
T_MONEY = 9      # seat, a = money this hand, b = session money
TRACE_W = 6

# ---- record columns (one row per session) ----------------------------------------
RC_DEALER = 0
RC_REASON = 1
RC_WINNER = 2     # seat with the unique highest money, -1
RC_TRUNC = 3
RC_ERR = 4
RC_TRICKS = 5
RC_HANDS = 6      # hands played (void hands included)
RC_REDEALS = 7
RC_MONEY = 8      # + p
RC_HAND = 13
HB_DECLARER = 0   # -1 for a void hand
HB_LEVEL = 1
HB_TRUMP = 2
HB_PARTNER = 3    # -1 solo, the declarer himself after a self-call
HB_CALLED = 4     # called card id, -1
HB_STRENGTH = 5   # declarer's hand strength
HB_PTS = 6        # declarer side's points
HB_WON = 7
HB_FIRST_BIDDER = 8
HB_REDEALS = 9
HB_MONEY = 10     # + p: money of seat p in the hand
HB_SIZE = 15
RECORD_COLS = RC_HAND + HAND_SLOTS * HB_SIZE


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b, c, d):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True, inline='always')
def nxt(p):
    return (p + 1) % N_PLAYERS


@njit(cache=True)
def owner_of(st, card):
    return holder_of(st[HAND:HAND + N_PLAYERS], card)


@njit(cache=True)
def hand_strength(hand):
    """Bidding strength: with the best trump t, 2 per trump + 3/2/2 for its 3/2/A, plus per
    plain suit 2 for the 3, 1 for the 2 and 1 for the A."""
    t = best_trump(hand)
    s = 0
    for suit in range(4):
        m = (hand >> (10 * suit)) & SUIT40
        top = 2 * ((m >> S_THREE) & 1) + ((m >> S_TWO) & 1) + ((m >> S_ACE) & 1)
        if suit == t:
            s += 2 * popcount(m) + top + ((m >> S_THREE) & 1) + ((m >> S_TWO) & 1) + ((m >> S_ACE) & 1)
        else:
            s += top
    return s


@njit(cache=True, inline='always')
def is_solo(st, opts):
    """The contract is a public solo (its level has no partner)."""
    return st[HIGH_LEVEL] > opts[O_PARTNER_LEVELS]


# =============================================================================
# the deal and the auction
# =============================================================================
@njit(cache=True)
def reset_deal(st):
    for i in range(FIRST_SPEAKER, MONEY):
        st[i] = 0
    for i in range(HMONEY, PVIEW):
        st[i] = 0
    for i in range(VOID, ST_SIZE):
        st[i] = 0
    st[HIGH_BIDDER] = -1
    st[FIRST_BIDDER] = -1
    st[DECLARER] = -1
    st[TRUMP] = -1
    st[CALLED] = -1
    st[PARTNER] = -1
    st[LED] = -1
    st[LAST_WINNER] = -1


@njit(cache=True)
def deal(st, gdeck, trace):
    """Shuffle and deal 8 each in two rounds of packets of 4 from the dealer's right; the
    first speaker is the 5D holder in the session's first hand, else the dealer's right."""
    reset_deal(st)
    for i in range(40):
        st[DECK + i] = i
    shuffle(gdeck, st, DECK, DECK + 40)
    for r in range(2):
        for k in range(1, 6):
            seat = (st[DEALER] + k) % N_PLAYERS
            for j in range(4):
                st[HAND + seat] |= np.int64(1) << st[DECK + 20 * r + 4 * (k - 1) + j]
    st[FIRST_SPEAKER] = owner_of(st, FIVE_COINS) if st[HAND_IDX] == 0 else nxt(st[DEALER])
    log(st, trace, T_HAND, -1, st[HAND_IDX] + 1, st[DEALER], st[FIRST_SPEAKER], 0)
    for p in range(N_PLAYERS):
        log(st, trace, T_DEAL, p, st[HAND + p], 0, 0, 0)


@njit(cache=True, inline='always')
def choose_bid(st, p, high, sid, prm, gen):
    """0 = pass, else a level above ``high``. random: uniform among the legal calls (a pass
    weighs 1 + ``pass_bias`` legal bids: 0 = uniform; large = the all-pass fuzzer);
    greedy / heuristic: the level wanted (strength thresholds) if it is higher, else pass."""
    if sid == S_RANDOM and prm[0] > 0:
        w = 1.0 + prm[0]
        if uniform(gen) * (w + LEVELS - high) < w:
            return 0
        return high + 1 + below(gen, LEVELS - high)
    if sid == S_RANDOM or ((sid == S_HEURISTIC or sid == S_EXPERT) and prm[4] > 0 and uniform(gen) < prm[4]):
        k = below(gen, LEVELS - high + 1)
        return 0 if k == 0 else high + k
    s = hand_strength(st[HAND + p])
    want = 0
    for k in range(LEVELS):
        t = GREEDY_THRESHOLDS[k] if sid == S_GREEDY else prm[k]
        if s >= t:
            want = k + 1
    return want if want > high else 0


@njit(cache=True, inline='always')
def speak(st, p, level, trace):
    """Seat p passes (0) or bids ``level``."""
    log(st, trace, T_BID, p, level, 0, 0, 0)
    if level == 0:
        st[PASSED] |= 1 << p
        return
    st[HIGH_LEVEL] = level
    st[HIGH_BIDDER] = p
    st[BID + p] = level
    if st[FIRST_BIDDER] < 0:
        st[FIRST_BIDDER] = p


@njit(cache=True, inline='always')
def auction_over(st, opts, spoken):
    if st[HIGH_LEVEL] == LEVELS:
        return True
    if opts[O_AUCTION] == 1:
        return spoken >= N_PLAYERS
    out = popcount(st[PASSED])
    return out == N_PLAYERS or (out == N_PLAYERS - 1 and st[HIGH_BIDDER] >= 0)


@njit(cache=True)
def auction(st, opts, sids, params, check, gplay, trace, plug):
    """Run the auction; returns a check error (the winner is HIGH_BIDDER, -1 if all passed)."""
    p = st[FIRST_SPEAKER]
    spoken = 0
    while not auction_over(st, opts, spoken):
        if spoken >= MAX_SPEECHES:
            return E_AUCTION
        if not (st[PASSED] >> p) & 1:
            level = bid_choice(st, opts, p, sids, params, gplay, plug)
            if level == -2:
                return E_PLUGIN
            if check and level != 0 and not (st[HIGH_LEVEL] < level <= LEVELS):
                return E_ILLEGAL
            speak(st, p, level, trace)
            spoken += 1
        p = nxt(p)
    return 0


@njit(cache=True, inline='always')
def bid_choice(st, opts, p, sids, params, gplay, plug):
    """Seat p's call in the auction (0 pass, else a level): its plug-in's K_BID where its kinds
    ask, else its built-in's (a search seat bids as its rollout policy); -2 for a plug-in's
    illegal answer."""
    sid, level = sids[p], -1
    if sid >= PLUGIN:
        sid -= PLUGIN
        level = plugin_decide(st, opts, p, K_BID, st[HIGH_LEVEL], plug, params)
        if level == -2:
            return -2
    if level < 0:
        off = 0
        if sid == S_SEARCH:              # a search seat bids as its rollout policy
            sid = np.int64(params[p, SP_POLICY])
            off = SP_PRM
        level = choose_bid(st, p, st[HIGH_LEVEL], sid, params[p, off:], gplay)
    return level


# =============================================================================
# the contract: trump and partner
# =============================================================================
@njit(cache=True)
def wants_self_call(strength, sid, prm):
    """Greedy / heuristic call one of their own cards (a secret solo, when the rules allow it)
    with a hand strength of at least their ``self_call`` parameter."""
    return strength >= (prm[0] if sid == S_GREEDY else prm[5])


@njit(cache=True)
def choose_called(st, d, trump, sid, prm, gen, self_ok):
    """The card the declarer calls: random picks any allowed card; the others call the
    highest trump they do not hold, or under ``trionfo_allow_self_call`` with a strong
    enough hand (``wants_self_call``) the highest trump they hold (their highest card if
    they hold no trump)."""
    hand = st[HAND + d]
    allowed = FULL40 if self_ok else FULL40 & ~hand
    if sid == S_RANDOM:
        return nth_card(allowed, below(gen, popcount(allowed)))
    if self_ok and wants_self_call(hand_strength(hand), sid, prm):
        own = hand & (np.int64(SUIT40) << (10 * trump))
        m = own if own else hand
        c = 39
        while not (m >> c) & 1:
            c -= 1
        return c
    for s in range(9, -1, -1):
        c = 10 * trump + s
        if not (hand >> c) & 1:
            return c
    return cheapest(allowed, trump)


@njit(cache=True)
def choose_named(st, d, sid, gen):
    """Seat named openly: random, or the other seat that bid highest (nearest right on ties)."""
    if sid == S_RANDOM:
        return (d + 1 + below(gen, N_PLAYERS - 1)) % N_PLAYERS
    best = (d + 1) % N_PLAYERS
    for k in range(1, N_PLAYERS):
        q = (d + k) % N_PLAYERS
        if st[BID + q] > st[BID + best]:
            best = q
    return best


@njit(cache=True)
def make_contract(st, opts, sids, params, gplay, trace, plug, srch):
    """Declarer, trump, partner and the leader of trick 1; returns E_PLUGIN for a plug-in's
    illegal answer, else 0."""
    d = st[HIGH_BIDDER]
    st[DECLARER] = d
    st[STRENGTH] = hand_strength(st[HAND + d])
    trump = trump_choice(st, opts, d, sids, params, gplay, plug, srch)
    if trump == -2:
        return E_PLUGIN
    st[TRUMP] = trump
    if not is_solo(st, opts):
        if opts[O_PARTNER_METHOD] == 1:
            q = name_choice(st, opts, d, sids, params, gplay, plug)
            if q == -2:
                return E_PLUGIN
            st[PARTNER] = q
            st[REVEALED] = 1
        else:
            c = call_choice(st, opts, d, sids, params, gplay, plug)
            if c == -2:
                return E_PLUGIN
            st[CALLED] = c
            st[PARTNER] = owner_of(st, c)
    first_leader(st, opts, d)
    log(st, trace, T_CONTRACT, d, st[HIGH_LEVEL], st[TRUMP], st[CALLED], st[PARTNER])
    return 0


@njit(cache=True, inline='always')
def declarer_sid(sids, params, d):
    """(plug-in seat, the built-in that decides what it leaves, the column of its row): a search
    declarer names (unless it searches the trump) and calls as its rollout policy."""
    sid = sids[d]
    plugged = sid >= PLUGIN
    if plugged:
        sid -= PLUGIN
    off = 0
    if sid == S_SEARCH:
        sid = np.int64(params[d, SP_POLICY])
        off = SP_PRM
    return plugged, sid, off


@njit(cache=True, inline='always')
def trump_choice(st, opts, d, sids, params, gplay, plug, srch):
    """The declarer d's trump: its plug-in's K_TRUMP where asked, else its search's (``trump``
    set) or its built-in's; -2 for a plug-in's illegal answer."""
    plugged, sid, off = declarer_sid(sids, params, d)
    trump = -1
    if plugged:
        trump = plugin_decide(st, opts, d, K_TRUMP, 0, plug, params)
        if trump == -2:
            return -2
    if trump < 0 and off > 0 and params[d, EX_TRUMP] != 0:
        trump = srch(st, opts, d, K_TRUMP, 0, params[d], gplay)
    if trump < 0:
        trump = below(gplay, 4) if sid == S_RANDOM else best_trump(st[HAND + d])
    return trump


@njit(cache=True, inline='always')
def name_choice(st, opts, d, sids, params, gplay, plug):
    """The seat the declarer d names (name_player): its plug-in's K_NAME where asked, else its
    built-in's; -2 for a plug-in's illegal answer."""
    plugged, sid, off = declarer_sid(sids, params, d)
    q = -1
    if plugged:
        q = plugin_decide(st, opts, d, K_NAME, 0, plug, params)
        if q == -2:
            return -2
    return choose_named(st, d, sid, gplay) if q < 0 else q


@njit(cache=True, inline='always')
def callable_cards(st, opts, d):
    """The cards declarer d may call: any card not in his hand, every card under self-calls."""
    return FULL40 if opts[O_SELF_CALL] != 0 else FULL40 & ~st[HAND + d]


@njit(cache=True, inline='always')
def call_choice(st, opts, d, sids, params, gplay, plug):
    """The card the declarer d calls (call_card): its plug-in's K_CALL where asked, else its
    built-in's; -2 for a plug-in's illegal answer."""
    plugged, sid, off = declarer_sid(sids, params, d)
    c = -1
    if plugged:
        c = plugin_decide(st, opts, d, K_CALL, callable_cards(st, opts, d), plug, params)
        if c == -2:
            return -2
    return choose_called(st, d, st[TRUMP], sid, params[d, off:], gplay, opts[O_SELF_CALL] != 0) if c < 0 else c


@njit(cache=True, inline='always')
def first_leader(st, opts, d):
    """The leader of trick 1 once declarer d's contract is made (trionfo_first_leader)."""
    fl = opts[O_FIRST_LEADER]
    st[LEADER] = st[FIRST_BIDDER] if fl == 0 else (st[FIRST_SPEAKER] if fl == 1 else d)


# =============================================================================
# plug-in strategies: the view and the call
# =============================================================================
@njit(cache=True)
def fill_view(st, opts, p, kind, view):
    """What seat p may see when it decides a ``kind`` decision, into ``view`` (the V_*
    layout): its own hand, the auction, the contract, the table and the public history of
    the hand; never another hand, the deck, or a secret partner (V_PARTNER is -2 until the
    seat knows: it holds the called card, called itself, or the card is played)."""
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_HAND] = st[HAND + p]
    view[V_DEALER] = st[DEALER]
    view[V_FIRST_SPEAKER] = st[FIRST_SPEAKER]
    view[V_HIGH_LEVEL] = st[HIGH_LEVEL]
    view[V_HIGH_BIDDER] = st[HIGH_BIDDER]
    view[V_FIRST_BIDDER] = st[FIRST_BIDDER]
    view[V_PASSED] = st[PASSED]
    d = st[DECLARER]
    partner = st[PARTNER]
    view[V_DECLARER] = d
    view[V_TRUMP] = st[TRUMP]
    view[V_CALLED] = st[CALLED]
    if partner < 0 or st[REVEALED] == 1 or p == partner or (p == d and partner == d):
        view[V_PARTNER] = partner
    else:
        view[V_PARTNER] = -2
    view[V_REVEALED] = st[REVEALED]
    view[V_LEADER] = st[LEADER]
    view[V_TRICK_NO] = st[TRICK_NO]
    view[V_NCARDS] = st[NCARDS]
    view[V_LED] = st[LED]
    for i in range(N_PLAYERS):
        view[V_TRICK + i] = st[TRICK + i] if i < st[NCARDS] else -1
    view[V_PLAYED] = st[PLAYED]
    for q in range(N_PLAYERS):
        view[V_BID + q] = st[BID + q]
        view[V_THIRDS + q] = st[THIRDS + q]
        view[V_MONEY + q] = st[MONEY + q]
        view[V_HELD + q] = popcount(st[HAND + q])
    view[V_HAND_IDX] = st[HAND_IDX]
    view[V_HANDS] = opts[O_HANDS]
    view[V_REDEALS] = st[REDEALS]
    view[V_PARTNER_LEVELS] = opts[O_PARTNER_LEVELS]
    for k in range(LEVELS):
        view[V_STAKE + k] = opts[O_STAKE + k]
    view[V_PARTNER_METHOD] = opts[O_PARTNER_METHOD]
    view[V_SELF_CALL] = opts[O_SELF_CALL]
    view[V_AUCTION] = opts[O_AUCTION]
    view[V_WIN_POINTS] = opts[O_WIN_POINTS]
    view[V_LAST_WINNER] = st[LAST_WINNER]


@njit(cache=True)
def plugin_decide(st, opts, p, kind, arg, plug, params):
    """Plug-in seat p's decision of ``kind``, when its kinds mask asks (its plug-in
    parameters ``prm`` are row p of ``params`` from column N_PARAMS on): the legal list into
    ``legal`` (st[PLEGAL:]; K_BID: pass and the levels above ``arg``, the highest bid;
    K_TRUMP: the suits; K_CALL / K_CARD: the cards of the mask ``arg``; K_NAME: the other
    seats from p's right), then ``plug(view, legal, n, prm)`` on the seat's view (st[PVIEW:]).
    Returns the chosen action (a level, a suit, a card, a seat), -1 to leave the decision to
    the seat's base built-in (or a kind not asked), -2 for an illegal answer. One plain
    function for every call site, so the inlined play loop holds only the call."""
    prm = params[p][N_PARAMS:]
    view = st[PVIEW:PVIEW + VIEW_SIZE]
    legal = st[PLEGAL:PLEGAL + 40]
    if not (np.int64(prm[PLUG_KINDS]) >> kind) & 1:
        return -1
    n = 0
    if kind == K_BID:
        legal[0] = 0
        n = 1
        for k in range(arg + 1, LEVELS + 1):
            legal[n] = k
            n += 1
    elif kind == K_TRUMP:
        for s in range(4):
            legal[s] = s
        n = 4
    elif kind == K_NAME:
        for k in range(1, N_PLAYERS):
            legal[n] = (p + k) % N_PLAYERS
            n += 1
    else:
        m = arg
        while m:                                 # the cards of the mask, lowest first
            legal[n] = lowbit(m)
            m &= m - 1
            n += 1
    fill_view(st, opts, p, kind, view)
    i = plug(view, legal[:n], n, prm)
    if i == -1:
        return -1
    if 0 <= i < n:
        return legal[i]
    return -2


# =============================================================================
# card play
# =============================================================================
@njit(cache=True, inline='always')
def is_friend(st, opts, p, q):
    """Seat p knows that seat q plays on its side (unknown = no)."""
    d = st[DECLARER]
    partner = st[PARTNER]
    if p == d:
        return st[REVEALED] == 1 and q == partner and partner != d
    if is_solo(st, opts):
        return q != d
    if p == partner:
        return q == d
    if q == d:
        return False
    return st[REVEALED] == 1 and q != partner


@njit(cache=True, inline='always')
def heuristic_card(st, opts, p, legal):
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    trump = st[TRUMP]
    k = st[NCARDS]
    if k == 0:
        return lead_card(hand, unseen, trump)
    w = trick_winner(st[TRICK:TRICK + N_PLAYERS], k, trump)
    friend = is_friend(st, opts, p, (st[LEADER] + w) % N_PLAYERS)
    opp_after = 0
    for j in range(k + 1, N_PLAYERS):
        if not is_friend(st, opts, p, (st[LEADER] + j) % N_PLAYERS):
            opp_after += 1
    return follow_card(legal, unseen, st[TRICK + w], friend, opp_after,
                       mask_thirds(trick_mask(st[TRICK:TRICK + N_PLAYERS], st[NCARDS])), trump, np.int64(3))


# ---- the expert (issue 41): heuristic plus what a good player reads from the table ----------
@njit(cache=True, inline='always')
def called_seats(st, opts, p):
    """The seats (a bit mask) that may hold the unplayed called card as seat ``p`` sees it: the
    others but the declarer (the declarer too under self-calls) not shown void in its suit; 0
    when there is no secret partner to place (a solo, a named partner, the card played, or
    ``p`` holds it)."""
    c = st[CALLED]
    if c < 0 or st[REVEALED] == 1 or is_solo(st, opts) or (st[HAND + p] >> c) & 1:
        return 0
    d = st[DECLARER]
    out = 0
    for q in range(N_PLAYERS):
        if q != p and (q != d or opts[O_SELF_CALL] != 0) and not (st[VOID + q] >> (c // 10)) & 1:
            out |= 1 << q
    return out


@njit(cache=True, inline='always')
def friends_of(st, opts, p, read):
    """The seats (a bit mask) seat ``p`` knows for friends: ``is_friend``, and with ``read`` what
    the voids show of a secret partner: a defender counts a seat that cannot hold the called card
    (shown void in its suit) as a fellow defender; the declarer counts the one seat that still
    can as his partner. The expert asks it once a decision."""
    out = 0
    for q in range(N_PLAYERS):
        if is_friend(st, opts, p, q):
            out |= 1 << q
    if read == 0:
        return out
    cand = called_seats(st, opts, p)
    if cand == 0 or st[PARTNER] == p:
        return out
    d = st[DECLARER]
    for q in range(N_PLAYERS):
        if q == p or (out >> q) & 1:
            continue
        if p == d:
            if cand == (1 << q):
                out |= 1 << q
        elif q != d and not (cand >> q) & 1:
            out |= 1 << q
    return out


@njit(cache=True)
def reads_friend(st, opts, p, q, read):
    """Seat ``p`` knows seat ``q`` for a friend (``friends_of``)."""
    return (friends_of(st, opts, p, read) >> q) & 1 == 1


@njit(cache=True, inline='always')
def ruff_chance(st, suit, unseen, q):
    """Chance that seat ``q`` can ruff a card of ``suit`` (``tricks.ruff_odds``: its voids shown,
    its hand's size that everyone sees)."""
    return ruff_odds(suit, st[TRUMP], unseen, st[VOID + q], popcount(st[HAND + q]))


@njit(cache=True, inline='always')
def opponents_after(st, friends):
    """The seats (a bit mask) still to play in this trick after the seat to play that it does not
    know for friends (``friends``: ``friends_of``)."""
    out = 0
    for j in range(st[NCARDS] + 1, N_PLAYERS):
        q = (st[LEADER] + j) % N_PLAYERS
        if not (friends >> q) & 1:
            out |= 1 << q
    return out


@njit(cache=True, inline='always')
def stands(st, card, unseen, opps, risk):
    """A ``card`` on top of the trick is likely to stay there: no opponent plays after it (``opps``
    0), or it is a master of its suit (no unseen card outranks it) and the chance that one of
    ``opps`` ruffs it is at most ``risk`` (the seats' chances taken as independent)."""
    if opps == 0:
        return True
    if not is_master(card, unseen):
        return False
    keep = 1.0
    for q in range(N_PLAYERS):
        if (opps >> q) & 1:
            keep *= 1.0 - ruff_chance(st, card // 10, unseen, q)
            if 1.0 - keep > risk:          # keep only falls: the answer is known
                return False
    return True


@njit(cache=True, inline='always')
def standing(st, cards, unseen, opps, risk):
    """The cards of ``cards`` (a mask) that would stand on top of the trick (``stands``)."""
    out = np.int64(0)
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        if stands(st, c, unseen, opps, risk):
            out |= np.int64(1) << c
    return out


@njit(cache=True, inline='always')
def side_thirds(st, p, friends):
    """The thirds seat ``p`` knows its side has won this hand (its own and its known friends',
    ``friends_of``)."""
    t = st[THIRDS + p]
    for q in range(N_PLAYERS):
        if q != p and (friends >> q) & 1:
            t += st[THIRDS + q]
    return t


@njit(cache=True, inline='always')
def side_target(st, opts, p):
    """The thirds p's side needs: the declarer's side 3 x win_points, the defenders the rest of
    the 35 and one more."""
    need = 3 * opts[O_WIN_POINTS]
    if p == st[DECLARER] or p == st[PARTNER]:
        return need
    return 35 - need + 1


@njit(cache=True)
def expert_lead(st, opts, p, hand, unseen, prm, friends):
    """The expert's lead: with ``plain_first`` the richest counting plain master that stands
    (every seat but its known friends after it); a solo declarer holding the master trump with
    ``draw_trumps`` or more trumps, or with at most ``draw_last`` trumps unseen, while an
    opponent may hold one leads it (draws trumps); otherwise as the heuristic
    (``tricks.lead_card``)."""
    trump = st[TRUMP]
    opps = opponents_after(st, friends)
    if prm[X_PLAIN] > 0:
        plain = masters_of(hand, unseen) & ~suit_mask40(trump)
        best = -1
        bv = 0
        m = plain
        while m:
            c = lowbit(m)
            m &= m - 1
            v = VALUE_THIRDS[c % 10]
            if v > bv and stands(st, c, unseen, opps, prm[X_RISK]):
                bv = v
                best = c
        if best >= 0:
            return best
    tmask = suit_mask40(trump)
    mine = hand & tmask
    out = popcount(unseen & tmask)
    if p == st[DECLARER] and is_solo(st, opts) and mine and out and (popcount(mine) >= prm[X_DRAW]
                                                                      or out <= prm[X_DRAW_LAST]):
        top = highbit(mine)
        may = False
        for q in range(N_PLAYERS):
            if (opps >> q) & 1 and not (st[VOID + q] >> trump) & 1:
                may = True
        if may and is_master(top, unseen):
            return top
    return lead_card(hand, unseen, trump)


@njit(cache=True)
def expert_follow(st, opts, p, legal, unseen, prm, friends):
    """The expert's follow (``tricks.follow_card`` read with the odds of a ruff and the sides the
    voids show): a friend on top whose card ``stands`` gets points (``richest``), else the
    cheapest card; against an opponent on top a winner that stands is chosen by ``bank``
    (points first), else the cheapest winner, or the cheapest card on a trick worth nothing;
    the trump 3 and 2 only on a trick worth ``honour_min`` thirds; out of the suit led it
    ruffs only a trick worth ``ruff_min`` thirds (else its cheapest plain card)."""
    trump = st[TRUMP]
    k = st[NCARDS]
    w = trick_winner(st[TRICK:TRICK + N_PLAYERS], k, trump)
    best = st[TRICK + w]
    opps = opponents_after(st, friends)
    thirds = mask_thirds(trick_mask(st[TRICK:TRICK + N_PLAYERS], st[NCARDS]))
    if (friends >> ((st[LEADER] + w) % N_PLAYERS)) & 1:
        return richest(legal, trump) if stands(st, best, unseen, opps, prm[X_RISK]) else cheapest(legal, trump)
    win = beating_cards(legal, best, trump)
    if win and thirds < prm[X_HONOUR]:
        win &= ~trump_honours(trump)
    tmask = suit_mask40(trump)
    if st[LED] != trump and (legal & suit_mask40(st[LED])) == 0 and thirds < prm[X_RUFF_MIN] and legal & ~tmask:
        return cheapest(legal & ~tmask, trump)      # out of the suit led: no ruff on a cheap trick
    if win == 0:
        return cheapest(legal, trump)
    sure = standing(st, win, unseen, opps, prm[X_RISK])
    if sure:
        return bank_card(sure, trump, prm[X_BANK])
    return cheapest(legal, trump) if thirds == 0 else cheapest(win, trump)


@njit(cache=True)
def clinch_card(st, opts, p, legal, unseen, prm, friends):
    """Near the side's target, a trick for sure: leading, the richest master trump; following,
    the cheapest winner that stands against every opponent after it (``ruff_risk``). -1 when
    there is none."""
    trump = st[TRUMP]
    tmask = suit_mask40(trump)
    if st[NCARDS] == 0:
        mt = masters_of(legal, unseen) & tmask
        return richest(mt, trump) if mt else -1
    opps = opponents_after(st, friends)
    win = beating_cards(legal, st[TRICK + trick_winner(st[TRICK:TRICK + N_PLAYERS], st[NCARDS], trump)], trump)
    sure = standing(st, win, unseen, opps, prm[X_RISK])
    return cheapest(sure, trump) if sure else -1


@njit(cache=True)
def expert_card(st, opts, p, legal, prm):
    """The expert's card: at most ``clinch`` thirds short of its side's target a sure trick
    (``clinch_card``), else ``expert_lead`` / ``expert_follow``. It reads only what its seat
    sees: its hand, the cards played, the trick, the voids shown, the hand sizes, the thirds
    won and the contract as its seat knows it."""
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    friends = friends_of(st, opts, p, prm[X_READ])
    if prm[X_CLINCH] > 0 and side_thirds(st, p, friends) >= side_target(st, opts, p) - prm[X_CLINCH]:
        c = clinch_card(st, opts, p, legal, unseen, prm, friends)
        if c >= 0:
            return c
    if st[NCARDS] == 0:
        return expert_lead(st, opts, p, hand, unseen, prm, friends)
    return expert_follow(st, opts, p, legal, unseen, prm, friends)


@njit(cache=True, inline='always')
def choose_card(st, opts, p, legal, sid, prm, gen):
    if sid == S_RANDOM:
        return nth_card(legal, below(gen, popcount(legal)))
    if sid == S_GREEDY:
        return greedy_card(legal, st[TRICK:TRICK + N_PLAYERS], st[NCARDS], st[TRUMP])
    if sid == S_EXPERT:
        return expert_card(st, opts, p, legal, prm)
    return heuristic_card(st, opts, p, legal)


@njit(cache=True, inline='always')
def card_choice(st, opts, p, legal, sid, gplay, plug, params, plugged, srch):
    """Seat p's card among the mask ``legal``: its plug-in's K_CARD where asked, else its
    search's or its built-in's; -2 for a plug-in's illegal answer."""
    card = -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        card = plugin_decide(st, opts, p, K_CARD, legal, plug, params)
        if card == -2:
            return -2
    if card < 0:
        if plugged and sid == S_SEARCH:
            card = srch(st, opts, p, K_CARD, legal, params[p], gplay)
        else:
            card = choose_card(st, opts, p, legal, sid, params[p], gplay)
    return card


@njit(cache=True, inline='always')
def play_turn(st, opts, p, sid, check, gplay, trace, plug, params, plugged, srch):
    legal = legal_cards(st[HAND + p], st[LED])
    if legal == 0:
        return E_NO_MOVES
    card = card_choice(st, opts, p, legal, sid, gplay, plug, params, plugged, srch)
    if card == -2:
        return E_PLUGIN
    if check and not (legal >> card) & 1:
        return E_ILLEGAL
    put_card(st, p, card, trace)
    return 0


@njit(cache=True, inline='always')
def put_card(st, p, card, trace):
    st[HAND + p] &= ~(np.int64(1) << card)
    st[PLAYED] |= np.int64(1) << card
    if st[NCARDS] == 0:
        st[LED] = card // 10
    elif card // 10 != st[LED]:
        st[VOID + p] |= np.int64(1) << st[LED]
    st[TRICK + st[NCARDS]] = card
    st[NCARDS] += 1
    if card == st[CALLED]:
        st[REVEALED] = 1
    log(st, trace, T_PLAY, p, card, 0, 0, 0)


@njit(cache=True, inline='always')
def finish_trick(st, trace):
    w = trick_winner(st[TRICK:TRICK + N_PLAYERS], st[NCARDS], st[TRUMP])
    winner = (st[LEADER] + w) % N_PLAYERS
    thirds = mask_thirds(trick_mask(st[TRICK:TRICK + N_PLAYERS], st[NCARDS]))
    st[TRICK_NO] += 1
    if st[TRICK_NO] == TRICKS:
        thirds += LAST_TRICK_THIRDS
    st[THIRDS + winner] += thirds
    st[LAST_WINNER] = winner
    st[LEADER] = winner
    st[NCARDS] = 0
    st[LED] = -1
    st[TRICKS_PLAYED] += 1
    log(st, trace, T_TRICK, winner, thirds, 0, 0, 0)


@njit(cache=True)
def play_tricks(st, opts, sids, params, check, gplay, trace, plug, srch):
    """The eight tricks at a table without a plug-in seat (no plug-in branches)."""
    return tricks_loop(st, opts, sids, params, check, gplay, trace, plug, False, srch)


@njit(cache=True)
def play_tricks_plugged(st, opts, sids, params, check, gplay, trace, plug, srch):
    """``play_tricks`` for a table with a plug-in or search seat. Two copies of the card
    loop: the call site of ``plugin_decide`` alone cost the built-in strategies about 15 % of
    their speed (measured), so the built-in tables play a loop without it; this one reaches
    the batch kernels as the callback ``plugged_cfunc()`` (PLUGGED_SIG), compiled the first
    time such a table plays."""
    return tricks_loop(st, opts, sids, params, check, gplay, trace, plug, True, srch)


@njit(cache=True, inline='always')
def tricks_loop(st, opts, sids, params, check, gplay, trace, plug, plugged, srch):
    for t in range(TRICKS):
        leader = st[LEADER]
        for k in range(N_PLAYERS):
            p = (leader + k) % N_PLAYERS
            e = play_turn(st, opts, p, sids[p], check, gplay, trace, plug, params, plugged, srch)
            if e == 0 and check:
                e = check_cards(st)
            if e:
                return e
        finish_trick(st, trace)
    return 0


# =============================================================================
# settlement (§B5)
# =============================================================================
@njit(cache=True)
def settle(st, opts, trace):
    """Declarer's side wins with >= win_points; chiamata money 2s/s/s or 4s/s."""
    d = st[DECLARER]
    partner = st[PARTNER]
    mate = partner >= 0 and partner != d
    thirds = st[THIRDS + d] + (st[THIRDS + partner] if mate else 0)
    st[SIDE_PTS] = thirds // 3
    st[WON] = 1 if st[SIDE_PTS] >= opts[O_WIN_POINTS] else 0
    s = opts[O_STAKE + st[HIGH_LEVEL] - 1]
    sign = 1 if st[WON] else -1
    for p in range(N_PLAYERS):
        st[HMONEY + p] = -sign * s
    if mate:
        st[HMONEY + d] = 2 * sign * s
        st[HMONEY + partner] = sign * s
    else:
        st[HMONEY + d] = 4 * sign * s
    for p in range(N_PLAYERS):
        st[MONEY + p] += st[HMONEY + p]
    log(st, trace, T_SETTLE, d, st[SIDE_PTS], st[WON], s, 0)
    for p in range(N_PLAYERS):
        log(st, trace, T_MONEY, p, st[HMONEY + p], st[MONEY + p], 0, 0)


# =============================================================================
# search (issue 19): determinized Monte Carlo over the legal cards
# =============================================================================
OTHERS = N_PLAYERS - 1


@njit(cache=True)
def determinize(st, opts, p, gen, work):
    """Deal again, in ``st``, the four hands seat ``p`` cannot see, from the cards it has not
    seen, consistently with everything public: hand sizes, the suits each seat has shown void
    in (``VOID``), in a session's first hand the 5 of coins with the first speaker (he speaks
    first as its holder) until it is played, and an unplayed called card not in ``p``'s hand
    with one of the others (not the declarer unless self-calls are allowed); its holder is the
    world's partner. Each card goes to a seat drawn in proportion to its open places among
    those that may take it and leave the rest dealable (``trick_search.place``; without voids: a
    uniform deal). Reads only what ``p`` may see. ``work``: scratch (64 int64)."""
    others = work[0:4]
    known = work[4:8]
    left = work[8:12]
    hands = work[12:16]
    rem = work[16:20]
    elig = work[20:24]
    cards = work[24:64]
    k = 0
    for q in range(N_PLAYERS):
        if q != p:
            others[k] = q
            k += 1
    taken = st[PLAYED] | st[HAND + p]
    for s in range(4):
        elig[s] = 0
        rem[s] = 0
    for j in range(OTHERS):
        q = others[j]
        m = 0
        if st[HAND_IDX] == 0 and q == st[FIRST_SPEAKER]:
            m = np.int64(1) << FIVE_COINS
        m &= ~st[PLAYED]
        known[j] = m
        taken |= m
        left[j] = popcount(st[HAND + q]) - popcount(m)
        hands[j] = m
        for s in range(4):
            if not (st[VOID + q] >> s) & 1:
                elig[s] |= 1 << j
    called = st[CALLED]
    special = called >= 0 and not (taken >> called) & 1
    if special:
        taken |= np.int64(1) << called
    pool = FULL40 & ~taken
    m = 0
    while pool:
        cards[m] = lowbit(pool)
        rem[cards[m] // 10] += 1
        m += 1
        pool &= pool - 1
    shuffle_prefix(cards, m, gen)
    if special:
        seats = elig[called // 10]
        for j in range(OTHERS):
            if others[j] == st[DECLARER] and opts[O_SELF_CALL] == 0:
                seats &= ~(1 << j)
        j = place(called, seats, left, rem, elig, gen)
        if j < 0:                   # only for inconsistent constraints
            j = 0
            while left[j] == 0:
                j += 1
            left[j] -= 1
        hands[j] |= np.int64(1) << called
        st[PARTNER] = others[j]
    for i in range(m):
        c = cards[i]
        rem[c // 10] -= 1
        j = place(c, elig[c // 10], left, rem, elig, gen)
        if j < 0:
            j = 0
            while left[j] == 0:
                j += 1
            left[j] -= 1
        hands[j] |= np.int64(1) << c
    for j in range(OTHERS):
        st[HAND + others[j]] = hands[j]


@njit(cache=True)
def roll_hand(st, opts, sids, prm, gen, trace):
    """Play the hand in ``st`` to its end from wherever it stands (mid-trick too) with the
    built-in card play of ``sids`` (row ``prm``) at every seat, and settle it."""
    while st[TRICK_NO] < TRICKS:
        while st[NCARDS] < N_PLAYERS:
            p = (st[LEADER] + st[NCARDS]) % N_PLAYERS
            legal = legal_cards(st[HAND + p], st[LED])
            put_card(st, p, choose_card(st, opts, p, legal, sids[p], prm, gen), trace)
        finish_trick(st, trace)
    settle(st, opts, trace)


@njit(cache=True)
def auction_rest(st, opts, p, spoken, sids, prm, gen, trace):
    """The auction from seat ``p``'s turn on (``spoken`` calls made) with the built-in bids of
    ``sids`` (row ``prm``) at every seat, as ``auction`` runs it (a runaway auction stops)."""
    while not auction_over(st, opts, spoken) and spoken < MAX_SPEECHES:
        if not (st[PASSED] >> p) & 1:
            speak(st, p, choose_bid(st, p, st[HIGH_LEVEL], sids[p], prm, gen), trace)
            spoken += 1
        p = nxt(p)


@njit(cache=True)
def play_choice(st, opts, p, kind, ctx, v, sids, prm, gen, trace):
    """Seat p's action ``v`` of decision ``kind`` in ``st`` (K_BID a call, K_TRUMP a suit, K_CALL a
    card, K_NAME a seat, K_CARD a card), then the hand played to its end by the built-in ``sids``
    (row ``prm``) at every seat and settled: after a call the auction goes on (``ctx``: the calls
    made before it) and the declarer makes his contract as the policy; an auction everybody
    passes leaves the hand's money 0 (the deal is thrown in: the hand starts again on a new
    deal). After the trump the partner is called as the policy calls."""
    d = st[DECLARER]
    if kind == K_BID:
        speak(st, p, v, trace)
        auction_rest(st, opts, nxt(p), ctx + 1, sids, prm, gen, trace)
        if st[HIGH_BIDDER] < 0:
            return
        d = st[HIGH_BIDDER]
        st[DECLARER] = d
        st[STRENGTH] = hand_strength(st[HAND + d])
        contract_as(st, opts, d, below(gen, 4) if sids[d] == S_RANDOM else best_trump(st[HAND + d]), sids[d], prm,
                    gen)
    elif kind == K_TRUMP:
        contract_as(st, opts, d, v, sids[d], prm, gen)
    elif kind == K_CALL:
        st[CALLED] = v
        st[PARTNER] = owner_of(st, v)
        first_leader(st, opts, d)
    elif kind == K_NAME:
        st[PARTNER] = v
        st[REVEALED] = 1
        first_leader(st, opts, d)
    else:
        put_card(st, p, v, trace)
    roll_hand(st, opts, sids, prm, gen, trace)


@njit(cache=True)
def world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, key, w, base, sim, work, g, trace,
                 total):
    """World ``w`` of seat ``p``'s decision (``kind``, ``ctx``: ``play_choice``) searched with the
    stream keyed by ``key``: the four hands ``p`` cannot see dealt again into ``base`` (a copy
    of ``st``: ``determinize``), then each active action ``acts[i]`` (its value in the low
    ACT_SHIFT bits) played and the hand rolled out ``rollouts`` times by the policy ``sids``
    (row ``prm``; the same streams for every action: common random numbers); ``total[i]`` +=
    each rollout's money of seat p in the hand."""
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, work)
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                play_choice(sim, opts, p, kind, ctx, acts[i] & ACT_MASK, sids, prm[SP_PRM:], g, trace)
                total[i] += sim[HMONEY + p]


@njit(cache=True)
def search_card(st, opts, p, legal, prm, gen):
    """The search strategy's card (row ``prm``: ``kernels.search``) among the mask ``legal``:
    in each of ``worlds`` determinizations every legal card is played and the hand rolled out
    ``rollouts`` times with the policy's card play at every seat (the same rollout streams for
    every card); the card with the best total money of seat ``p`` in the hand wins (the
    lowest card on ties). The session's money is the sum of its hands' and the play of a hand
    changes no other hand, so the hand's money is the record's own measure."""
    n = popcount(legal)
    if n == 1:
        return lowbit(legal)
    acts = np.empty(TRICKS, np.int64)
    m = legal
    for i in range(n):
        acts[i] = lowbit(m)
        m &= m - 1
    worlds, rollouts = plan_budget(prm, n)
    key = search_key(gen)
    sids = np.full(N_PLAYERS, np.int64(prm[SP_POLICY]))
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    work = np.empty(64, np.int64)
    total = np.zeros(n, np.float64)
    g = np.empty(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    active = np.ones(n, np.bool_)
    for w in range(worlds):
        world_values(st, opts, p, K_CARD, 0, acts, n, active, prm, rollouts, sids, key, w, base, sim, work, g, trace,
                     total)
    return acts[best_action(total, n)]


@njit(cache=True)
def contract_as(st, opts, d, trump, sid, prm, gen):
    """``make_contract`` after the trump, for a rollout: the partner as the built-in ``sid``
    (row ``prm``) calls or names it, and the leader of trick 1."""
    st[TRUMP] = trump
    if not is_solo(st, opts):
        if opts[O_PARTNER_METHOD] == 1:
            st[PARTNER] = choose_named(st, d, sid, gen)
            st[REVEALED] = 1
        else:
            st[CALLED] = choose_called(st, d, trump, sid, prm, gen, opts[O_SELF_CALL] != 0)
            st[PARTNER] = owner_of(st, st[CALLED])
    first_leader(st, opts, d)


@njit(cache=True)
def search_trump(st, opts, d, prm, gen):
    """The search declarer's trump: each suit is named in ``worlds`` deals of the other 32
    cards, the partner called as the policy would, and the hand rolled out by the policy; the
    suit of the best total money of the declarer wins."""
    worlds, rollouts = plan_budget(prm, 4)
    key = search_key(gen)
    sids = np.full(N_PLAYERS, np.int64(prm[SP_POLICY]))
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    work = np.empty(64, np.int64)
    total = np.zeros(4, np.float64)
    g = np.empty(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    acts = np.arange(4, dtype=np.int64)
    active = np.ones(4, np.bool_)
    for w in range(worlds):
        world_values(st, opts, d, K_TRUMP, 0, acts, 4, active, prm, rollouts, sids, key, w, base, sim, work, g, trace,
                     total)
    return best_action(total, 4)


# The batch kernels call the search through SEARCH_SIG (seat, kind K_CARD with the legal mask
# or K_TRUMP): ``search_cfunc()`` compiled when a search seat plays (jit.lazy_cfunc),
# ``no_search`` otherwise (never called).
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64,
                         types.float64[::1], types.uint64[::1])


def _search_entry(st, opts, p, kind, legal, prm, gen):
    if kind == K_TRUMP:
        return search_trump(st, opts, p, prm, gen)
    return search_card(st, opts, p, legal, prm, gen)


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@numba.cfunc(SEARCH_SIG, cache=True)
def no_search(st, opts, p, kind, legal, prm, gen):
    """The search argument of a table without a search seat (never called)."""
    return 0


# A table with a plug-in or search seat plays its tricks through PLUGGED_SIG: ``plugged_cfunc()``
# compiled the first time one plays (jit.lazy_cfunc), ``no_plugged`` otherwise (never called).
PLUGGED_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[::1], types.float64[:, ::1],
                          types.boolean, types.uint64[::1], types.int64[:, ::1], types.FunctionType(PLUG_SIG),
                          types.FunctionType(SEARCH_SIG))


def _plugged_entry(st, opts, sids, params, check, gplay, trace, plug, srch):
    return play_tricks_plugged(st, opts, sids, params, check, gplay, trace, plug, srch)


plugged_cfunc = lazy_cfunc(PLUGGED_SIG, _plugged_entry)


@numba.cfunc(PLUGGED_SIG, cache=True)
def no_plugged(st, opts, sids, params, check, gplay, trace, plug, srch):
    """The tricks argument of a table without a plug-in or search seat (never called)."""
    return 0


def search_decision(st, opts, prm, key):
    """The search's card in state ``st`` (the seat to play: leader + cards in the trick) with
    its play stream keyed by ``key`` (tests: other hidden cards must give the same card)."""
    p = (int(st[LEADER]) + int(st[NCARDS])) % N_PLAYERS
    g = np.array([key, 0], dtype=np.uint64)
    return search_card(st, opts, p, legal_cards(st[HAND + p], st[LED]), prm, g)


def search_trump_decision(st, opts, prm, key):
    """The search declarer's trump in state ``st`` (auction over, DECLARER set) for tests."""
    g = np.array([key, 0], dtype=np.uint64)
    return search_trump(st, opts, int(st[DECLARER]), prm, g)


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
# HALT, act_code, decision_kind, mask_acts: ``kernels.trick_search`` (the declarer's trump and his
# call see the same kind of state: their action codes tell them apart)


@njit(cache=True)
def role(st, p):
    """Seat p's part in the hand as p itself knows it: ROLE_AUCTION before the contract, then
    declarer, partner (it holds the called card or was named; a self-caller is the declarer),
    defender."""
    if st[DECLARER] < 0:
        return ROLE_AUCTION
    if p == st[DECLARER]:
        return ROLE_DECLARER
    return ROLE_PARTNER if p == st[PARTNER] else ROLE_DEFENDER


@njit(cache=True)
def critique_eval(st, opts, p, kind, ctx, acts, n, chosen, prm, key, row, acts_out):
    """Value every legal action ``acts[:n]`` (action codes) of seat ``p``'s decision ``kind``
    (``ctx``: ``play_choice``) with the search row ``prm`` (``kernels.critique``: a racing select
    stage over ``worlds`` worlds, then the best and the choice ``chosen`` measured on as many
    fresh ones) into ``row`` and ``acts_out``. The value is the search's: seat p's money in the
    hand, each rollout played to the hand's settlement (a thrown-in deal: 0). Bids, the trump,
    the call and the naming are valued too (``play_choice``), whatever the row's ``trump``."""
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sids = np.full(N_PLAYERS, np.int64(prm[SP_POLICY]))
    vals = np.zeros((2 * worlds, n), dtype=np.float64)
    seen = np.zeros(n, dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    work = np.empty(64, np.int64)
    g = np.empty(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    out = np.empty(n, dtype=np.float64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + CR_ROUND)):
            out[:] = 0.0
            world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, key, ww, base, sim, work, g,
                         trace, out)
            played += rollouts * put_world(vals[ww], out, n, active, rollouts)
        w = min(worlds, w + CR_ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            out[:] = 0.0
            world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, key, ww, base, sim, work, g,
                         trace, out)
            played += rollouts * put_world(vals[ww - worlds + w], out, n, active, rollouts)
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)


@njit(cache=True)
def cr_decision(st, opts, p, kind, ctx, acts, n, i, cr):
    """A decision of seat ``p`` (index ``i`` of ``acts[:n]`` chosen) in the critique driver: a row
    when p is the critiqued seat (valued when sampled with more than one legal action), and the
    count of decisions. ``cr`` = (seat, prm, rate, key, cx, rows, acts_out, snaps), ``cx`` =
    [rows written, decisions of the seat, decisions of any seat, stop]."""
    seat, prm, rate, key, cx, rows, acts_out, snaps = cr
    if p == seat:
        k = cx[0]
        if k < len(rows):
            plain_row(rows[k], cx[1], cx[2], kind, st[TRICK_NO], role(st, p), n, i, acts[i])
            if n > 1 and sampled(key, cx[1], rate):
                snaps[k, :ST_SIZE] = st
                critique_eval(st, opts, p, kind, ctx, acts, n, i, prm, mix64(key + np.uint64(cx[1] + 1)), rows[k],
                              acts_out[k])
            cx[0] += 1
        cx[1] += 1
    cx[2] += 1


@njit(cache=True)
def cr_auction(st, opts, sids, params, gplay, trace, plug, cr):
    """``auction`` in the critique driver (each call is a K_BID decision)."""
    cx = cr[4]
    acts = np.empty(LEVELS + 1, np.int64)
    p = st[FIRST_SPEAKER]
    spoken = 0
    while not auction_over(st, opts, spoken):
        if spoken >= MAX_SPEECHES:
            return E_AUCTION
        if not (st[PASSED] >> p) & 1:
            if cx[2] == cx[3]:
                return HALT
            level = bid_choice(st, opts, p, sids, params, gplay, plug)
            if level == -2:
                return E_PLUGIN
            high = st[HIGH_LEVEL]
            acts[0] = act_code(K_BID, 0)
            for k in range(high + 1, LEVELS + 1):
                acts[k - high] = act_code(K_BID, k)
            cr_decision(st, opts, p, K_BID, spoken, acts, LEVELS + 1 - high, 0 if level == 0 else level - high, cr)
            speak(st, p, level, trace)
            spoken += 1
        p = nxt(p)
    return 0


@njit(cache=True)
def cr_contract(st, opts, sids, params, gplay, trace, plug, srch, cr):
    """``make_contract`` in the critique driver (the trump, the call or the naming are decisions)."""
    cx = cr[4]
    acts = np.empty(MAX_ACTS, np.int64)
    d = st[HIGH_BIDDER]
    st[DECLARER] = d
    st[STRENGTH] = hand_strength(st[HAND + d])
    if cx[2] == cx[3]:
        return HALT
    trump = trump_choice(st, opts, d, sids, params, gplay, plug, srch)
    if trump == -2:
        return E_PLUGIN
    for s in range(4):
        acts[s] = act_code(K_TRUMP, s)
    cr_decision(st, opts, d, K_TRUMP, 0, acts, 4, trump, cr)
    st[TRUMP] = trump
    if not is_solo(st, opts):
        if cx[2] == cx[3]:
            return HALT
        if opts[O_PARTNER_METHOD] == 1:
            q = name_choice(st, opts, d, sids, params, gplay, plug)
            if q == -2:
                return E_PLUGIN
            for k in range(1, N_PLAYERS):
                acts[k - 1] = act_code(K_NAME, (d + k) % N_PLAYERS)
            cr_decision(st, opts, d, K_NAME, 0, acts, N_PLAYERS - 1, (q - d - 1) % N_PLAYERS, cr)
            st[PARTNER] = q
            st[REVEALED] = 1
        else:
            c = call_choice(st, opts, d, sids, params, gplay, plug)
            if c == -2:
                return E_PLUGIN
            n, i = mask_acts(K_CALL, callable_cards(st, opts, d), c, acts)
            cr_decision(st, opts, d, K_CALL, 0, acts, n, i, cr)
            st[CALLED] = c
            st[PARTNER] = owner_of(st, c)
    first_leader(st, opts, d)
    log(st, trace, T_CONTRACT, d, st[HIGH_LEVEL], st[TRUMP], st[CALLED], st[PARTNER])
    return 0


@njit(cache=True)
def cr_tricks(st, opts, sids, params, gplay, trace, plug, srch, cr):
    """``tricks_loop`` in the critique driver (each card is a K_CARD decision)."""
    cx = cr[4]
    acts = np.empty(MAX_ACTS, np.int64)
    for t in range(TRICKS):
        leader = st[LEADER]
        for k in range(N_PLAYERS):
            p = (leader + k) % N_PLAYERS
            legal = legal_cards(st[HAND + p], st[LED])
            if legal == 0:
                return E_NO_MOVES
            if cx[2] == cx[3]:
                return HALT
            card = card_choice(st, opts, p, legal, sids[p], gplay, plug, params, True, srch)
            if card == -2:
                return E_PLUGIN
            n, i = mask_acts(K_CARD, legal, card, acts)
            cr_decision(st, opts, p, K_CARD, 0, acts, n, i, cr)
            put_card(st, p, card, trace)
        finish_trick(st, trace)
    return 0


@njit(cache=True)
def cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, srch, cr):
    """``play_hand`` (with ``deal_until_bid``) in the critique driver."""
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[HAND_IDX])
    st[REDEALS] = 0
    e = 0
    for attempt in range(MAX_REDEALS + 1):
        deal(st, gdeck, trace)
        e = cr_auction(st, opts, sids, params, gplay, trace, plug, cr)
        if e or st[HIGH_BIDDER] >= 0:
            break
        if attempt < MAX_REDEALS:
            st[REDEALS] += 1
            st[ALL_REDEALS] += 1
            log(st, trace, T_REDEAL, -1, st[REDEALS], 0, 0, 0)
            if opts[O_REDEAL_DEALER] == 1:
                st[DEALER] = nxt(st[DEALER])
        else:
            st[VOID_HAND] = 1
            st[TRUNC] = 1
    if e == 0 and st[VOID_HAND] == 0:
        e = cr_contract(st, opts, sids, params, gplay, trace, plug, srch, cr)
        if e == 0:
            e = cr_tricks(st, opts, sids, params, gplay, trace, plug, srch, cr)
        if e == 0:
            settle(st, opts, trace)
    return e


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug, srch):
    """Play session ``game`` of run ``seed`` exactly as ``play_session`` does (the same streams;
    the general card loop, which a built-in table's loop matches) and write a
    ``kernels.critique`` row for each decision of ``seat`` (at most ``len(rows)``): its calls
    in every auction (thrown-in deals too), its trump, call or naming as declarer, its cards. A
    sampled one (``rate``) with more than one legal action is valued by ``critique_eval`` with
    the search row ``prm`` (its own stream, STREAM_CRITIQUE), its state kept in ``snaps``.
    ``stop`` >= 0 stops the session before its decision number ``stop`` (any seat's:
    ``CR_STEP``), the state there. ``params`` carries the plug-in rows (``with_plugin_params``),
    ``srch`` is the search (SEARCH_SIG). Returns (rows written, decisions of ``seat``, the state)."""
    st = np.zeros(ST_SIZE, np.int64)
    gdeck = np.zeros(2, np.uint64)
    gplay = np.zeros(2, np.uint64)
    cx = np.zeros(4, np.int64)
    cx[3] = stop
    key = stream_key(seed, game, np.int64(STREAM_CRITIQUE))
    cr = (np.int64(seat), prm, np.float64(rate), key, cx, rows, acts_out, snaps)
    st[N] = N_PLAYERS
    for p in range(N_PLAYERS):
        if sids[p] >= PLUGIN or sids[p] == S_SEARCH:
            st[PLUGGED] = 1
    if opts[O_FIRST_DEALER] >= 0:
        st[DEALER] = opts[O_FIRST_DEALER]
    else:
        seed_stream(gdeck, seed, game, np.int64(STREAM_DEALER))
        st[DEALER] = below(gdeck, N_PLAYERS)
    st[FIRST_DEALER] = st[DEALER]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    for h in range(opts[O_HANDS]):
        st[HAND_IDX] = h
        e = cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, srch, cr)
        if e == HALT:
            return cx[0], cx[1], st
        st[ERR] = e
        if e:
            break
        st[DEALER] = nxt(st[DEALER])
    st[HAND_IDX] = min(st[HAND_IDX] + 1, opts[O_HANDS])
    return cx[0], cx[1], st


def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search (as ``play_batch``): session ``deal_id``."""
    return critique_deal(seed, deal_id, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), seat,
                         np.ascontiguousarray(prm, dtype=np.float64), float(rate), stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))


# =============================================================================
# check mode
# =============================================================================
@njit(cache=True)
def check_cards(st):
    """Hands disjoint, hands + played = deck, every hand 8 - tricks done (- 1 if it played):
    ``tricks.cards_conserved``."""
    if not cards_conserved(st[HAND:HAND + N_PLAYERS], st[PLAYED], st[LEADER], st[NCARDS], TRICKS - st[TRICK_NO]):
        return E_CARDS
    return 0


@njit(cache=True)
def check_hand(st, opts):
    total = 0
    money = 0
    big = 0
    for p in range(N_PLAYERS):
        total += st[THIRDS + p]
        money += st[HMONEY + p]
        big = max(big, abs(st[HMONEY + p]))
    if total != 35:
        return E_POINTS
    if money != 0:
        return E_ZERO_SUM
    top = 0
    for k in range(LEVELS):
        top = max(top, opts[O_STAKE + k])
    return E_BOUND if big > 4 * top else 0


# =============================================================================
# hands, sessions, batches
# =============================================================================
@njit(cache=True)
def write_hand(st, row):
    k = st[HAND_IDX]
    if k >= HAND_SLOTS:
        return
    b = RC_HAND + k * HB_SIZE
    row[b + HB_DECLARER] = st[DECLARER]
    row[b + HB_LEVEL] = st[HIGH_LEVEL]
    row[b + HB_TRUMP] = st[TRUMP]
    row[b + HB_PARTNER] = st[PARTNER]
    row[b + HB_CALLED] = st[CALLED]
    row[b + HB_STRENGTH] = st[STRENGTH]
    row[b + HB_PTS] = st[SIDE_PTS]
    row[b + HB_WON] = st[WON]
    row[b + HB_FIRST_BIDDER] = st[FIRST_BIDDER]
    row[b + HB_REDEALS] = st[REDEALS]
    for p in range(N_PLAYERS):
        row[b + HB_MONEY + p] = st[HMONEY + p]


@njit(cache=True)
def deal_until_bid(st, opts, sids, params, check, gdeck, gplay, trace, plug):
    """Deal and auction, redealing while all pass (up to MAX_REDEALS); returns a check error."""
    st[REDEALS] = 0
    for attempt in range(MAX_REDEALS + 1):
        deal(st, gdeck, trace)
        e = auction(st, opts, sids, params, check, gplay, trace, plug)
        if e or st[HIGH_BIDDER] >= 0:
            return e
        if attempt < MAX_REDEALS:
            st[REDEALS] += 1
            st[ALL_REDEALS] += 1
            log(st, trace, T_REDEAL, -1, st[REDEALS], 0, 0, 0)
            if opts[O_REDEAL_DEALER] == 1:
                st[DEALER] = nxt(st[DEALER])
    st[VOID_HAND] = 1
    st[TRUNC] = 1
    return 0


@njit(cache=True, inline='always')
def play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, srch, tricks):
    """One hand of the session (its deals, auction, contract, tricks, money)."""
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[HAND_IDX])
    e = deal_until_bid(st, opts, sids, params, check, gdeck, gplay, trace, plug)
    if e == 0 and st[VOID_HAND] == 0:
        e = make_contract(st, opts, sids, params, gplay, trace, plug, srch)
        if e == 0:
            if st[PLUGGED]:
                e = tricks(st, opts, sids, params, check, gplay, trace, plug, srch)
            else:
                e = play_tricks(st, opts, sids, params, check, gplay, trace, plug, srch)
        if e == 0:
            settle(st, opts, trace)
            if check:
                e = check_hand(st, opts)
    write_hand(st, row)
    return e


@njit(cache=True)
def write_session(st, row):
    best = -(1 << 40)
    winner = -1
    for p in range(N_PLAYERS):
        row[RC_MONEY + p] = st[MONEY + p]
        if st[MONEY + p] > best:
            best = st[MONEY + p]
            winner = p
        elif st[MONEY + p] == best:
            winner = -1
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_REASON] = R_REDEAL_CAP if st[TRUNC] else R_COMPLETE
    row[RC_WINNER] = winner
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_TRICKS] = st[TRICKS_PLAYED]
    row[RC_HANDS] = st[HAND_IDX]
    row[RC_REDEALS] = st[ALL_REDEALS]


@njit(cache=True, inline='always')
def play_session(st, opts, seed, game, sids, params, check, trace, gdeck, gplay, row, plug, srch, tricks):
    """Play session ``game`` of run ``seed`` (trionfo_hands hands) into ``row``. Seats with
    sid >= PLUGIN are decided by ``plug`` where its kinds ask (``plugin_decide``)."""
    st[:] = 0
    row[:] = 0
    st[N] = N_PLAYERS
    for p in range(N_PLAYERS):
        if sids[p] >= PLUGIN or sids[p] == S_SEARCH:
            st[PLUGGED] = 1
    if opts[O_FIRST_DEALER] >= 0:
        st[DEALER] = opts[O_FIRST_DEALER]
    else:
        seed_stream(gdeck, seed, game, np.int64(STREAM_DEALER))
        st[DEALER] = below(gdeck, N_PLAYERS)
    st[FIRST_DEALER] = st[DEALER]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    for h in range(opts[O_HANDS]):
        st[HAND_IDX] = h
        st[ERR] = play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, srch,
                            tricks)
        if st[ERR]:
            break
        st[DEALER] = nxt(st[DEALER])
    st[HAND_IDX] = min(st[HAND_IDX] + 1, opts[O_HANDS])
    if check and st[ERR] == 0:
        total = 0
        for p in range(N_PLAYERS):
            total += st[MONEY + p]
        st[ERR] = E_ZERO_SUM if total != 0 else 0
    write_session(st, row)
    return st[ERR]


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, srch, tricks):
    """Play sessions first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug``
    is the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, its
    parameters in ``params`` from column N_PARAMS on (``jit.with_plugin_params``)."""
    st = np.zeros(ST_SIZE, np.int64)
    gdeck = np.zeros(2, np.uint64)
    gplay = np.zeros(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)
    for d in range(lo, hi):
        play_session(unowned(st), o, seed, first + d, s, p, check, unowned(trace), unowned(gdeck),
                     unowned(gplay), r[d], plug, srch, tricks)


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` sessions starting at ``first`` on ``numba.get_num_threads()`` threads into
    ``rec`` (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``).
    ``plug``: the plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with
    its parameters ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    threaded_batch(play_chunk, seed, first, count, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS),
                   check, rec, no_plugin if plug is None else plug,
                   search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search),
                   plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged),
                   least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, game, opts, sids, params, check, trace, plug, srch, tricks):
    st = np.zeros(ST_SIZE, np.int64)
    row = np.zeros(RECORD_COLS, np.int64)
    play_session(st, opts, seed, game, sids, params, check, trace, np.zeros(2, np.uint64),
                 np.zeros(2, np.uint64), row, plug, srch, tricks)
    return st


def replay_session(seed, game, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one session alone with a trace buffer; returns the final state."""
    return replay_kernel(seed, game, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), check, trace,
                         no_plugin if plug is None else plug,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search),
                         plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged))
