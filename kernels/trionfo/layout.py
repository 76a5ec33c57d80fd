"""Trionfo's layouts and codes: the option slots, the state fields, the plug-in's view and the
record columns (one session a row, then a block of columns per hand; declared with
``kernels.layout.offsets``: no offset is numbered by hand), the end reasons, the check-mode
violations, the strategy ids and their parameter slots, the plug-in decision kinds, the trace
codes and the step API's action ids.

Plain module-level ints, read by numba as compile-time constants. The records depend on these
numbers: ``tests/trionfo/test_trionfo_layout.py`` checks every declared layout's names against its
rows and its values against the ones the records were written with.
"""
from cardsim.kernels.layout import offsets
from cardsim.kernels.search import SP_EXTRA, SP_PRM

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

# ---- options array (built by sim.games.trionfo.TrionfoOptions; the package docstring's table) ----
(O_PARTNER_LEVELS, O_STAKE, O_PARTNER_METHOD, O_SELF_CALL, O_AUCTION, O_FIRST_LEADER, O_REDEAL_DEALER,
 O_WIN_POINTS, O_PAYOUT, O_HANDS, O_FIRST_DEALER,
 O_SIZE) = offsets(
    ("O_PARTNER_LEVELS", 1),     # trionfo_partner_levels: 1 (chiamo) or 2 (chiamo, di più)
    ("O_STAKE", LEVELS),         # O_STAKE + k: stake of level k + 1 (trionfo_bid_stakes)
    ("O_PARTNER_METHOD", 1),     # trionfo_partner_method: 0 call_card, 1 name_player
    ("O_SELF_CALL", 1),          # trionfo_allow_self_call
    ("O_AUCTION", 1),            # trionfo_auction: 0 open_ascending, 1 single_round
    ("O_FIRST_LEADER", 1),       # trionfo_first_leader: 0 first_bidder, 1 first_speaker, 2 declarer
    ("O_REDEAL_DEALER", 1),      # trionfo_redeal_dealer: 0 same, 1 next
    ("O_WIN_POINTS", 1),         # trionfo_win_points: 1..11
    ("O_PAYOUT", 1),             # trionfo_payout: 0 chiamata
    ("O_HANDS", 1),              # trionfo_hands: hands per session
    ("O_FIRST_DEALER", 1),       # first_dealer: -1 random, else the seat
)

# ---- plug-in decision kinds and their legal actions (``legal[i]``) ----------------
K_BID = 0          # speak in the auction: 0 pass, then the levels V_HIGH_LEVEL + 1 .. 4
K_TRUMP = 1        # the declarer names trump: the suits 0, 1, 2, 3
K_CALL = 2         # call the partner's card (call_card): the callable cards' ids, lowest first
K_NAME = 3         # name the partner (name_player): the other seats, from the declarer's right
K_CARD = 4         # play a card: the legal cards' 40-card ids, lowest first
# a critique action code (issue 40): kind << ACT_SHIFT | the legal action above (``actions``)
MAX_ACTS = 40      # legal actions of a decision at most (K_CALL under self-calls: every card)
ROLE_AUCTION, ROLE_DECLARER, ROLE_PARTNER, ROLE_DEFENDER = 0, 1, 2, 3   # a critique row's detail

# ---- what a plug-in's decide(view, legal, n, prm) sees: its seat's view ----------
(V_SEAT, V_KIND, V_HAND, V_DEALER, V_FIRST_SPEAKER, V_HIGH_LEVEL, V_HIGH_BIDDER, V_FIRST_BIDDER, V_PASSED, V_BID,
 V_DECLARER, V_TRUMP, V_CALLED, V_PARTNER, V_REVEALED, V_LEADER, V_TRICK_NO, V_NCARDS, V_LED, V_TRICK, V_PLAYED,
 V_THIRDS, V_MONEY, V_HELD, V_HAND_IDX, V_HANDS, V_REDEALS, V_PARTNER_LEVELS, V_STAKE, V_PARTNER_METHOD,
 V_SELF_CALL, V_AUCTION, V_WIN_POINTS, V_LAST_WINNER,
 VIEW_SIZE) = offsets(
    ("V_SEAT", 1),               # the deciding seat
    ("V_KIND", 1),               # decision kind (K_*)
    ("V_HAND", 1),               # own cards (40-card mask)
    ("V_DEALER", 1),             # dealer of this deal
    ("V_FIRST_SPEAKER", 1),      # first to speak in the auction
    ("V_HIGH_LEVEL", 1),         # highest bid so far (the contract's level once the auction is over), 0 none
    ("V_HIGH_BIDDER", 1),        # seat of the highest bid, -1
    ("V_FIRST_BIDDER", 1),       # first seat that bid, -1
    ("V_PASSED", 1),             # bit p: seat p has passed
    ("V_BID", N_PLAYERS),        # V_BID + p: highest level seat p bid in this auction (0 none)
    ("V_DECLARER", 1),           # the declarer, -1 during the auction
    ("V_TRUMP", 1),              # trump suit, -1 before it is named
    ("V_CALLED", 1),             # the called card (call_card), -1
    ("V_PARTNER", 1),            # the partner as this seat knows it: a seat, -1 none (solo, or no contract
                                 # yet), -2 unknown
    ("V_REVEALED", 1),           # 1 once the partner is public (called card played, or named openly)
    ("V_LEADER", 1),             # leader of the current trick
    ("V_TRICK_NO", 1),           # tricks completed this hand (0..7)
    ("V_NCARDS", 1),             # cards in the current trick
    ("V_LED", 1),                # suit led, -1 before the lead
    ("V_TRICK", N_PLAYERS),      # V_TRICK + i: i-th card of the current trick (play order), -1 beyond V_NCARDS
    ("V_PLAYED", 1),             # every card played this hand (mask)
    ("V_THIRDS", N_PLAYERS),     # V_THIRDS + p: thirds seat p won this hand
    ("V_MONEY", N_PLAYERS),      # V_MONEY + p: seat p's session money before this hand
    ("V_HELD", N_PLAYERS),       # V_HELD + p: cards seat p holds
    ("V_HAND_IDX", 1),           # hand of the session (0-based)
    ("V_HANDS", 1),              # hands in the session (trionfo_hands)
    ("V_REDEALS", 1),            # thrown-in deals of this hand so far
    ("V_PARTNER_LEVELS", 1),     # levels with a partner (1 or 2); higher levels are solos
    ("V_STAKE", LEVELS),         # V_STAKE + k: stake of level k + 1
    ("V_PARTNER_METHOD", 1),     # 0 call_card, 1 name_player
    ("V_SELF_CALL", 1),          # 1: the declarer may call his own card
    ("V_AUCTION", 1),            # 0 open_ascending, 1 single_round
    ("V_WIN_POINTS", 1),         # points the declarer's side needs
    ("V_LAST_WINNER", 1),        # winner of the last completed trick, -1
)

# ---- state fields (int64 array) ------------------------------------------------
(N, HAND_IDX, DEALER, FIRST_DEALER, REDEALS, ALL_REDEALS, TRUNC, ERR, TR_LEN, TRICKS_PLAYED, FIRST_SPEAKER,
 HIGH_LEVEL, HIGH_BIDDER, FIRST_BIDDER, PASSED, DECLARER, TRUMP, CALLED, PARTNER, REVEALED, LEADER, TRICK_NO, NCARDS,
 LED, PLAYED, LAST_WINNER, SIDE_PTS, WON, STRENGTH, VOID_HAND, HAND, THIRDS, MONEY, HMONEY, BID, TRICK, DECK, PVIEW,
 PLEGAL, PLUGGED, VOID,
 ST_SIZE) = offsets(
    ("N", 1),                    # number of players (5)
    ("HAND_IDX", 1),             # hand of the session being played (0-based)
    ("DEALER", 1),               # dealer of the current deal
    ("FIRST_DEALER", 1),         # dealer of the session's first hand
    ("REDEALS", 1),              # thrown-in deals of the current hand
    ("ALL_REDEALS", 1),          # thrown-in deals in the session
    ("TRUNC", 1),                # 1 if a hand hit the redeal cap
    ("ERR", 1),                  # check-mode violation (E_*)
    ("TR_LEN", 1),               # trace rows written
    ("TRICKS_PLAYED", 1),        # tricks played in the session
    ("FIRST_SPEAKER", 1),        # first to speak in the auction
    ("HIGH_LEVEL", 1),           # highest bid so far (0 = none)
    ("HIGH_BIDDER", 1),          # seat of the highest bid, -1
    ("FIRST_BIDDER", 1),         # first seat that made a bid, -1
    ("PASSED", 1),               # bit p: seat p has passed
    ("DECLARER", 1),             # the auction's winner, -1
    ("TRUMP", 1),                # trump suit, -1 before it is named
    ("CALLED", 1),               # called card (call_card), -1
    ("PARTNER", 1),              # partner seat (-1 solo; = DECLARER after a self-call)
    ("REVEALED", 1),             # 1 once the partner is public (called card played, or named openly)
    ("LEADER", 1),               # leader of the current trick
    ("TRICK_NO", 1),             # tricks completed this hand
    ("NCARDS", 1),               # cards in the current trick
    ("LED", 1),                  # suit led, -1 before the lead
    ("PLAYED", 1),               # mask of the cards played this hand
    ("LAST_WINNER", 1),          # winner of the last completed trick
    ("SIDE_PTS", 1),             # declarer side's points (truncated) at the end of the hand
    ("WON", 1),                  # 1 if the declarer's side won the hand
    ("STRENGTH", 1),             # declarer's hand strength when the auction ended
    ("VOID_HAND", 1),            # 1 if the hand was void (redeal cap)
    ("HAND", N_PLAYERS),         # HAND + p: cards held by seat p
    ("THIRDS", N_PLAYERS),       # THIRDS + p: thirds won by seat p this hand
    ("MONEY", N_PLAYERS),        # MONEY + p: session money of seat p
    ("HMONEY", N_PLAYERS),       # HMONEY + p: money of seat p in this hand
    ("BID", N_PLAYERS),          # BID + p: highest level seat p bid in this auction (0 = none)
    ("TRICK", N_PLAYERS),        # TRICK + i: i-th card of the current trick
    ("DECK", 40),                # DECK .. DECK+39: the shuffled deck
    ("PVIEW", VIEW_SIZE),        # PVIEW .. +VIEW_SIZE: a plug-in's view (scratch, written before each plug-in
                                 # decision)
    ("PLEGAL", MAX_ACTS),        # PLEGAL .. +40: a plug-in decision's legal actions (scratch)
    ("PLUGGED", 1),              # 1 when a seat of the table is a plug-in (sid >= PLUGIN) or a search
                                 # (S_SEARCH): the table plays the general card loop (``play_tricks_plugged``)
    ("VOID", N_PLAYERS),         # VOID + p: suits (bits 0..3) seat p has shown void in this hand by not
                                 # following (public)
)
# (reset_deal clears FIRST_SPEAKER .. MONEY-1, HMONEY .. PVIEW-1 and VOID ..: everything a deal writes)

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

# ---- the strategies' parameter rows (``prm``; sim.games.trionfo.strategies binds each parameter to
# its slot by name) -------------------------------------------------------------------------------
(R_PASS_BIAS,
 R_SIZE) = offsets(              # random
    ("R_PASS_BIAS", 1),          # a pass weighs 1 + pass_bias legal bids (0: every call equally likely)
)
(G_SELF_CALL,
 G_SIZE) = offsets(              # greedy (it bids by GREEDY_THRESHOLDS)
    ("G_SELF_CALL", 1),          # strength from which a partnership declarer calls his own card (41: never)
)
(H_T1, H_T2, H_T3, H_T4, H_EXPLORE, H_SELF_CALL, X_HONOUR, X_DRAW, X_RISK, X_BANK, X_CLINCH, X_PLAIN, X_READ,
 X_RUFF_MIN, X_DRAW_LAST, X_DRAW_TOP, X_DRAW_FIRST, X_DEF_TRUMP, X_SOLO_LOW, X_DEF_RICH, X_SOLO_RUFF,
 X_SOLO_KEEP, X_SIZE) = offsets(  # heuristic (its six, H_*: H_SIZE) and the expert (those six, then X_*)
    ("H_T1", 1),                 # strength to bid level 1 (chiamo); H_T1 + k: level k + 1
    ("H_T2", 1),                 # strength to bid di più
    ("H_T3", 1),                 # strength to bid maso
    ("H_T4", 1),                 # strength to bid maso dei masi
    ("H_EXPLORE", 1),            # chance that a bid is made at random
    ("H_SELF_CALL", 1),          # strength from which a partnership declarer calls his own card (41: never)
    ("X_HONOUR", 1),             # spend the trump 3 and 2 only on a trick worth this many thirds (heuristic: 3)
    ("X_DRAW", 1),               # a solo declarer leads the master trump holding at least this many trumps (9: never)
    ("X_RISK", 1),               # a master stands when the chance that an opponent after it ruffs is at most this
    ("X_BANK", 1),               # a sure win takes the card of most bank x 10 x thirds - keep_cost (0: the cheapest)
    ("X_CLINCH", 1),             # at most this many thirds short of the side's target, play a sure trick (0: never)
    ("X_PLAIN", 1),              # lead a counting plain master that stands before any other lead (1; 2: but a
                                 # solo declarer; 0: never)
    ("X_READ", 1),               # 1: read the sides from the voids (a seat that cannot hold the called card)
    ("X_RUFF_MIN", 1),           # out of the suit led (not trumps), ruff only a trick worth this many thirds
                                 # (0: as heuristic)
    ("X_DRAW_LAST", 1),          # a solo declarer leads the master trump while at most this many trumps are
                                 # unseen (0: never)
    ("X_DRAW_TOP", 1),           # a solo declarer about to lead a trump that is not a master leads his lowest
                                 # master trump instead when the thirds still out exceed what he needs by less
                                 # than this (0: never)
    ("X_DRAW_FIRST", 1),         # a solo declarer holding this many trumps, a master among them, leads his lowest
                                 # master trump before any other lead while an opponent may hold one (9: never)
    ("X_DEF_TRUMP", 1),          # a defender against a partnership contract holding this many trumps leads his
                                 # lowest before any other lead while one may be out (0: never)
    ("X_SOLO_LOW", 1),           # a solo declarer holding this many trumps but not the master trump leads his
                                 # lowest before any other lead while an opponent may hold one (9: never)
    ("X_DEF_RICH", 1),           # 1: a defender against a partnership contract whose lead would be a plain card
                                 # worth nothing leads his richest plain card instead (0: never)
    ("X_SOLO_RUFF", 1),          # a solo declarer ruffing takes the trick with his cheapest trump that stands (1)
                                 # or that wins it (2), when one stands (0: as bank)
    ("X_SOLO_KEEP", 1),          # a solo declarer out of the suit led throws a plain card worth nothing rather than
                                 # ruff a trick worth fewer than this many thirds, but in second hand while a
                                 # trump is out (0: never)
)
H_SIZE = X_HONOUR                # the heuristic's row: the first six of the expert's
N_PARAMS = SP_PRM + X_SIZE       # the search row, then its rollout policy's row (the expert's 22 at most)
EX_TRUMP = SP_EXTRA  # search row: 1 = the declarer's trump by search too, 0 = by the policy
GREEDY_THRESHOLDS = (9.0, 13.0, 15.0, 17.0)
PLUGIN = 64        # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8  # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k
# The kernels take a plug-in seat's ``pprm`` row appended to its ``params`` row (columns
# N_PARAMS ..), and the view and legal buffers inside the state (PVIEW, PLEGAL): the play loop
# then hands ``plugin_decide`` nothing the built-in path does not hold already (as in
# ``kernels.marafon``, where four more arrays at its call sites cost the built-ins 20-30 %).

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

# ---- record columns (one row per session: the session's columns, then HAND_SLOTS hand blocks) ----
# one hand's block of columns (at RC_HAND + h * HB_SIZE)
(HB_DECLARER, HB_LEVEL, HB_TRUMP, HB_PARTNER, HB_CALLED, HB_STRENGTH, HB_PTS, HB_WON, HB_FIRST_BIDDER, HB_REDEALS,
 HB_MONEY,
 HB_SIZE) = offsets(
    ("HB_DECLARER", 1),          # -1 for a void hand
    ("HB_LEVEL", 1),             # the contract's level
    ("HB_TRUMP", 1),             # trump suit
    ("HB_PARTNER", 1),           # -1 solo, the declarer himself after a self-call
    ("HB_CALLED", 1),            # called card id, -1
    ("HB_STRENGTH", 1),          # declarer's hand strength
    ("HB_PTS", 1),               # declarer side's points
    ("HB_WON", 1),               # 1 if the declarer's side won
    ("HB_FIRST_BIDDER", 1),      # first seat that bid, -1
    ("HB_REDEALS", 1),           # deals thrown in before the hand
    ("HB_MONEY", N_PLAYERS),     # HB_MONEY + p: money of seat p in the hand
)
# the session's columns
(RC_DEALER, RC_REASON, RC_WINNER, RC_TRUNC, RC_ERR, RC_TRICKS, RC_HANDS, RC_REDEALS, RC_MONEY, RC_HAND,
 RECORD_COLS) = offsets(
    ("RC_DEALER", 1),            # dealer of the session's first hand
    ("RC_REASON", 1),            # end reason (R_*)
    ("RC_WINNER", 1),            # seat with the unique highest money, -1
    ("RC_TRUNC", 1),             # 1 if a hand hit the redeal cap
    ("RC_ERR", 1),               # check-mode violation (E_*)
    ("RC_TRICKS", 1),            # tricks played in the session
    ("RC_HANDS", 1),             # hands played (void hands included)
    ("RC_REDEALS", 1),           # thrown-in deals in the session
    ("RC_MONEY", N_PLAYERS),     # RC_MONEY + p: session money of seat p
    ("RC_HAND", HAND_SLOTS * HB_SIZE),  # RC_HAND + h * HB_SIZE: the block of hand h (HB_*), the first HAND_SLOTS hands
)

# ---- the step API's action ids (one range per decision kind; the codec: ``actions``) -------------
(A_CARD, A_CALL, A_TRUMP, A_BID, A_NAME,
 N_ACTIONS) = offsets(
    ("A_CARD", 40),              # A_CARD + card: play that card (40-card id)
    ("A_CALL", 40),              # A_CALL + card: call that card
    ("A_TRUMP", 4),              # A_TRUMP + suit: name that suit trump
    ("A_BID", LEVELS + 1),       # A_BID + level: pass (0) or bid that level (1..4)
    ("A_NAME", N_PLAYERS),       # A_NAME + seat: name that seat partner
)
A_PASS = A_BID
