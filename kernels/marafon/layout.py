"""Marafon's layouts and codes: the option slots, the state fields, the plug-in's view, the
record columns and a hand's block of them (declared with ``kernels.layout.offsets``: no offset
is numbered by hand), the end reasons, the check-mode violations, the strategy ids and their
parameter slots, the decision kinds and the trace rows.

Plain module-level ints, read by numba as compile-time constants. The records depend on these
numbers: ``tests/marafon/test_marafon_layout.py`` checks every declared layout's names against
its rows and its values against the ones the records were written with.
"""
from cardsim.kernels.layout import offsets
from cardsim.kernels.search import SP_EXTRA, SP_PRM

RULES_VERSION = 1
N_PLAYERS = 4
TRICKS = 10
FOUR_COINS = 10                 # card id of 4D (suit 1, strength 0)
STREAM_HAND = 16                # hand k of a match shuffles from stream STREAM_HAND + k
STREAM_DEALER = 15              # draws the first dealer
HAND_SLOTS = 16                 # hands of a match with their own record columns
CHUNK = 256

# ---- options array (built by sim.games.marafon.MarafonOptions; the package docstring's table) ----
(O_TRUMP_ONLY, O_DECLARER, O_AUTO_DECLARE, O_MARAF_POINTS, O_FIRST_DEALER, O_SECOND_DEALER, O_BOTH_REACH, O_TARGET,
 O_CLAIM_TIMING, O_CLAIMS, O_GAMES, O_MAX_HANDS,
 O_SIZE) = offsets(
    ("O_TRUMP_ONLY", 1),         # marafona_trump_only
    ("O_DECLARER", 1),           # marafona_declarer: 0 any_player, 1 battitore_only
    ("O_AUTO_DECLARE", 1),       # marafona_auto_declare
    ("O_MARAF_POINTS", 1),       # marafona_points
    ("O_FIRST_DEALER", 1),       # first_dealer (-1 random, else the seat)
    ("O_SECOND_DEALER", 1),      # second_dealer: 0 four_of_coins_holder, 1 rotate
    ("O_BOTH_REACH", 1),         # both_reach_target (BOTH_*)
    ("O_TARGET", 1),             # target_thirds
    ("O_CLAIM_TIMING", 1),       # claim_timing: 0 trick_boundaries, 1 every_card
    ("O_CLAIMS", 1),             # claims_enabled
    ("O_GAMES", 1),              # games_per_match
    ("O_MAX_HANDS", 1),          # max_hands: hand cap per game
)

BOTH_CUMULATIVE = 0
BOTH_POINTS = 1
BOTH_HIGHER = 2

# ---- the plug-in's view (its size is a state field's width) ----------------------
(V_SEAT, V_KIND, V_SIDE, V_HAND, V_TRUMP, V_BATT, V_DEALER, V_LEADER, V_TRICK_NO, V_NCARDS, V_LED, V_TRICK, V_PLAYED,
 V_WON, V_THIRDS, V_TRICKS_WON, V_MARAF, V_SCORE, V_GAMES, V_COUNT, V_TARGET, V_MARAF_POINTS, V_HAND_NO, V_GAME_NO,
 V_EXTRA, V_DECLARABLE, V_DECLARED, V_HELD, V_LAST_WINNER, V_TRUMP_ONLY,
 VIEW_SIZE) = offsets(
    ("V_SEAT", 1),               # the deciding seat
    ("V_KIND", 1),               # decision kind (K_*)
    ("V_SIDE", 1),               # the seat's side: 0 = seats 0+2, 1 = seats 1+3
    ("V_HAND", 1),               # own cards (40-card mask)
    ("V_TRUMP", 1),              # trump suit, -1 before it is named
    ("V_BATT", 1),               # the battitore of this hand
    ("V_DEALER", 1),             # the dealer of this hand
    ("V_LEADER", 1),             # leader of the current trick (the battitore before trick 1)
    ("V_TRICK_NO", 1),           # tricks completed in this hand (0..9)
    ("V_NCARDS", 1),             # cards in the current trick
    ("V_LED", 1),                # suit led in the current trick, -1 before the lead
    ("V_TRICK", 4),              # V_TRICK + i: i-th card of the current trick (play order), -1 beyond V_NCARDS
    ("V_PLAYED", 1),             # every card played this hand (mask)
    ("V_WON", 2),                # V_WON + side: cards in the side's tricks this hand (mask)
    ("V_THIRDS", 2),             # V_THIRDS + side: thirds won this hand (the last trick's 3 included)
    ("V_TRICKS_WON", 2),         # V_TRICKS_WON + side: tricks won this hand
    ("V_MARAF", 2),              # V_MARAF + side: marafone declared this hand
    ("V_SCORE", 2),              # V_SCORE + side: game score before this hand (whole points)
    ("V_GAMES", 2),              # V_GAMES + side: games won in the match
    ("V_COUNT", 2),              # V_COUNT + side: the side's claim count in thirds (score, thirds won, marafone)
    ("V_TARGET", 1),             # the target in thirds (a claim is correct when the count reaches it)
    ("V_MARAF_POINTS", 1),       # points of a marafona
    ("V_HAND_NO", 1),            # hand number in the game (1-based)
    ("V_GAME_NO", 1),            # game number in the match (0-based)
    ("V_EXTRA", 1),              # 1 in an extra hand (both sides reached the target; no claims)
    ("V_DECLARABLE", 1),         # K_DECLARE: suit mask of the cricche the seat would declare (else 0)
    ("V_DECLARED", N_PLAYERS),   # V_DECLARED + p: suit mask of the cricche seat p declared this hand
    ("V_HELD", N_PLAYERS),       # V_HELD + p: cards seat p holds
    ("V_LAST_WINNER", 1),        # winner of the last completed trick, -1
    ("V_TRUMP_ONLY", 1),         # 1: only the 3-2-A of trump is a marafona (marafona_trump_only); 0: any suit's
)

# ---- state fields (int64 array) ------------------------------------------------
(N, GAME_NO, HAND_NO, MATCH_HANDS, DEALER, FIRST_DEALER, EXTRA, OVER, WIN_SIDE, REASON, TRUNC, ERR, TR_LEN, SCORE,
 GAMES, TRICKS_PLAYED, CLAIMS, EXTRA_HANDS, BATT, TRUMP, HOLDER4D, MHOLDER, LEADER, TRICK_NO, NCARDS, LED, PLAYED,
 THIRDS, TRICKS_WON, LAST_WINNER, MARAF, ASKED, HAND_END, PTS, HAND, WON, TRICK, DECK, DECL, PVIEW, PLEGAL, PLUGGED,
 VOID, PLAYED_BY,
 ST_SIZE) = offsets(
    ("N", 1),                    # number of players (4)
    ("GAME_NO", 1),              # game index in the match (0-based)
    ("HAND_NO", 1),              # hand number in the current game (1-based)
    ("MATCH_HANDS", 1),          # hands started in the match
    ("DEALER", 1),               # dealer of the current hand
    ("FIRST_DEALER", 1),         # dealer of the match's first hand
    ("EXTRA", 1),                # 1 while playing extra hands after both sides reached the target
    ("OVER", 1),                 # 1 once the current game is decided
    ("WIN_SIDE", 1),             # side (0 = seats 0+2, 1 = seats 1+3) that won the current game, -1
    ("REASON", 1),               # end reason of the current game (R_*), -1 while playing
    ("TRUNC", 1),                # 1 if a game hit the hand cap
    ("ERR", 1),                  # check-mode violation (E_*)
    ("TR_LEN", 1),               # trace rows written
    ("SCORE", 2),                # SCORE + side: game score in whole points
    ("GAMES", 2),                # GAMES + side: games won in the match
    ("TRICKS_PLAYED", 1),        # tricks played in the match
    ("CLAIMS", 1),               # claims made in the match
    ("EXTRA_HANDS", 1),          # extra hands played in the match
    ("BATT", 1),                 # battitore of this hand (names trump, leads trick 1)
    ("TRUMP", 1),                # trump suit, -1 until named
    ("HOLDER4D", 1),             # seat dealt the 4 of coins this hand
    ("MHOLDER", 1),              # seat holding the 3-2-A of trump after trump is named, -1
    ("LEADER", 1),               # leader of the current trick
    ("TRICK_NO", 1),             # tricks completed in this hand (0..10)
    ("NCARDS", 1),               # cards in the current trick
    ("LED", 1),                  # suit led in the current trick, -1 before the lead
    ("PLAYED", 1),               # mask of every card played this hand (public)
    ("THIRDS", 2),               # THIRDS + side: thirds won this hand (the last trick's 3 included)
    ("TRICKS_WON", 2),           # TRICKS_WON + side: tricks won this hand
    ("LAST_WINNER", 1),          # winner of the last completed trick, -1
    ("MARAF", 2),                # MARAF + side: marafone (cricche) declared this hand
    ("ASKED", 1),                # 1 right after a claim window (no second window before the next card)
    ("HAND_END", 1),             # 0 scored, 1 ended by a correct claim, 2 by a wrong claim
    ("PTS", 2),                  # PTS + side: points this hand added to the game score
    ("HAND", N_PLAYERS),         # HAND + p: cards held by seat p
    ("WON", 2),                  # WON + side: cards in the side's tricks this hand
    ("TRICK", N_PLAYERS),        # TRICK + i: i-th card of the current trick (play order)
    ("DECK", 40),                # DECK .. DECK+39: the shuffled deck of this hand
    ("DECL", N_PLAYERS),         # DECL + p: suit mask of the cricche seat p declared this hand (public; a
                                 # plug-in's view)
    ("PVIEW", VIEW_SIZE),        # PVIEW .. +VIEW_SIZE: a plug-in's view (scratch, written before each plug-in
                                 # decision)
    ("PLEGAL", 40),              # PLEGAL .. +40: a plug-in decision's legal actions (scratch)
    ("PLUGGED", 1),              # 1 when a seat of the table is a plug-in (sid >= PLUGIN) or a search
                                 # (S_SEARCH): the table plays the general loop (``plugged_hand``)
    ("VOID", N_PLAYERS),         # VOID + p: suits (bits 0..3) seat p has shown void in this hand by not
                                 # following (public)
    ("PLAYED_BY", N_PLAYERS),    # PLAYED_BY + p: cards seat p has played this hand (public)
)
# (reset_hand clears BATT .. PVIEW-1 and VOID .. ST_SIZE-1: everything a hand writes)

# ---- end reasons -----------------------------------------------------------------
R_TARGET = 0
R_CLAIM_CORRECT = 1
R_CLAIM_WRONG = 2
R_EXTRA = 3
R_HIGHER = 4
R_CAP = 5
REASON_NAMES = ("target", "claim_correct", "claim_wrong", "extra_hand", "higher_total", "hand_cap")

# ---- check-mode violations -----------------------------------------------------
E_CARDS = 1
E_NO_MOVES = 2
E_ILLEGAL = 3
E_POINTS = 4
E_BOUND = 5
E_CAP = 6
E_PLUGIN = 7       # a plug-in strategy returned no legal action's index (checked in every mode)
ERROR_NAMES = ("", "cards not conserved", "no legal card", "illegal card chosen",
               "hand points differ from 11 + bonuses (or thirds from 35)",
               "score out of bounds", "hand cap exceeded", "a plug-in strategy returned an illegal action")

# ---- strategies ----------------------------------------------------------------
S_RANDOM = 0       # params: claim_prob, claim_due (the F_* slots)
S_GREEDY = 1       # no params
S_HEURISTIC = 2    # params: claim_margin, memory_noise, honour_min, marafona_weight (the H_* slots)
S_SEARCH = 3       # params: the search row (kernels.search: worlds, rollouts, budget, policy, game_weight,
                   # trump, then the policy's row)
S_EXPERT = 4       # params: heuristic's four, then draw_trumps, ruff_risk, bank, clinch, plain_first (issue 41;
                   # the X_* slots)

# ---- parameter rows (``sim.games.marafon.strategies``: each ParamSpec names its slot) ---------
# random's (the fuzzer's) chances (``wants_claim``)
F_CLAIM_PROB, F_CLAIM_DUE, F_SIZE = offsets(
    ("F_CLAIM_PROB", 1),         # a claim at any window
    ("F_CLAIM_DUE", 1),          # a claim at a window where the side's count has reached the target
)
# heuristic and expert share one row, heuristic reading its first four slots
(H_MARGIN, H_NOISE, H_HONOUR_MIN, H_MARAF_WEIGHT, X_DRAW, X_RISK, X_BANK, X_CLINCH, X_PLAIN, X_DRAW_LOW, X_HONOUR_COUNT,
 X_DUCK, X_TOP, X_FIGURE, P_SIZE) = offsets(
    ("H_MARGIN", 1),             # claim_margin: claim only this many thirds past the target
    ("H_NOISE", 1),              # memory_noise: the count off by up to this many thirds (uniform)
    ("H_HONOUR_MIN", 1),         # honour_min: the trump 3 and 2 only on a trick worth this many thirds
    ("H_MARAF_WEIGHT", 1),       # marafona_weight: a suit holding the 3-2-A counts this much more as trump
    ("X_DRAW", 1),               # expert on (issue 41): lead trumps holding at least this many while an
                                 # opponent may hold one (11: never)
    ("X_RISK", 1),               # a master stands when the last opponent's chance of being void in its suit is
                                 # at most this
    ("X_BANK", 1),               # a sure win takes the card of most bank x 10 x thirds - keep_cost (0: the
                                 # cheapest)
    ("X_CLINCH", 1),             # at most this many thirds short of the target, play masters (0: never)
    ("X_PLAIN", 1),              # 1: lead a plain master that counts before any other lead; 2: after the
                                 # trump draws
    ("X_DRAW_LOW", 1),           # lead the lowest trump holding at least this many without the master trump
                                 # (11: never)
    ("X_HONOUR_COUNT", 1),       # the card thrown instead of a trump 3 or 2 counts towards honour_min: 1 in
                                 # any hand, 2 in the fourth hand only (0: never)
    ("X_DUCK", 1),               # second hand, against a lead worth less than this many thirds, plays its
                                 # cheapest card (0: never)
    ("X_TOP", 1),                # 1: of the equal plain masters of a suit it leads the highest (0: the richest's
                                 # lowest)
    ("X_FIGURE", 1),             # no master to lead and no trump draw: lead the highest figure of the longest
                                 # plain suit when it holds at least this many cards (0: never)
)
N_PARAMS = SP_PRM + P_SIZE  # the search row, then its rollout policy's row (the expert's at most)
EX_GAME_WEIGHT = SP_EXTRA      # search row: a game won (lost) in a rollout counts this many points (minus)
EX_TRUMP = SP_EXTRA + 1        # search row: 1 = the battitore's trump by search too, 0 = by the policy
GREEDY_MARAFONA_WEIGHT = 1000.0   # greedy always names the suit of its marafona
PLUGIN = 64        # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8  # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k
# The kernels take a plug-in seat's ``pprm`` row appended to its ``params`` row (columns
# N_PARAMS ..), and the view and legal buffers inside the state (PVIEW, PLEGAL): the play loop
# then hands ``plugin_decide`` nothing the built-in path does not hold already (measured: four
# more arrays at its call sites cost the built-in strategies 20-30 % of their speed).

# ---- plug-in decision kinds and their legal actions (``legal[i]``) ----------------
K_TRUMP = 0        # the battitore names trump: legal = the suits 0, 1, 2, 3
K_DECLARE = 1      # declare the marafona (only when marafona_auto_declare is false): 0 no, 1 yes
K_CLAIM = 2        # a claim window: 0 no claim, 1 claim the game (asked of every seat in turn)
K_CARD = 3         # play a card: the legal cards' 40-card ids, lowest first
# a decision's action codes and dense ids: ``actions``
MAX_ACTS = TRICKS  # legal actions of a decision at most (the cards of a full hand)

# ---- trace rows: [code, seat, a, b, c, d] --------------------------------------
T_GAME = 1       # a = game number in the match
T_HAND = 2       # a = hand number in the game, b = dealer, c = battitore, d = 4D holder
T_DEAL = 3       # a = hand mask
T_TRUMP = 4      # a = suit
T_DECLARE = 5    # a = suit mask of the cricche declared
T_PLAY = 6       # a = card
T_TRICK = 7      # seat = winner, a = trick thirds, b = thirds side 0, c = thirds side 1
T_CLAIM = 8      # a = 1 correct / 0 wrong, b = the side's count in thirds
T_SCORE = 9      # a, b = hand points of sides 0 and 1, c, d = game scores
T_END = 10       # a = reason, b = winning side
TRACE_W = 6

# ---- record columns (one row per match; sim.games.marafon names them) -----------
# a hand's block of columns, HB_SIZE each, from RC_HAND + (hand - 1) x HB_SIZE
(HB_GAME, HB_BATT, HB_TRUMP, HB_PTS, HB_THIRDS, HB_MARAF, HB_HOLDER, HB_END, HB_EXTRA,
 HB_SIZE) = offsets(
    ("HB_GAME", 1),              # game number of the hand
    ("HB_BATT", 1),              # battitore
    ("HB_TRUMP", 1),             # trump suit
    ("HB_PTS", 2),               # + side: points added to the game score (0 if a claim ended the hand)
    ("HB_THIRDS", 2),            # + side: thirds won (so far, if a claim ended the hand)
    ("HB_MARAF", 2),             # + side: marafone declared
    ("HB_HOLDER", 1),            # seat holding the 3-2-A of trump, -1
    ("HB_END", 1),               # 0 scored, 1 correct claim, 2 wrong claim
    ("HB_EXTRA", 1),             # 1 for an extra hand
)
(RC_DEALER, RC_REASON, RC_WINNER, RC_WIN_SIDE, RC_TRUNC, RC_ERR, RC_TRICKS, RC_HANDS, RC_GAMES, RC_GAMES_WON,
 RC_SCORE, RC_CLAIMS, RC_EXTRA, RC_SPARE, RC_HAND,
 RECORD_COLS) = offsets(
    ("RC_DEALER", 1),            # dealer of the first hand
    ("RC_REASON", 1),            # end reason of the last game
    ("RC_WINNER", 1),            # a seat of the winning side (alternates with the match index), -1
    ("RC_WIN_SIDE", 1),          # winning side, -1
    ("RC_TRUNC", 1),             # 1 if a game hit the hand cap
    ("RC_ERR", 1),               # check-mode violation (E_*)
    ("RC_TRICKS", 1),            # tricks played
    ("RC_HANDS", 1),             # hands played
    ("RC_GAMES", 1),             # games played
    ("RC_GAMES_WON", 2),         # + side
    ("RC_SCORE", 2),             # + side: final scores of the last game
    ("RC_CLAIMS", 1),            # claims made
    ("RC_EXTRA", 1),             # extra hands played
    ("RC_SPARE", 1),             # unused, always 0 (the hand blocks after it keep their columns)
    ("RC_HAND", HAND_SLOTS * HB_SIZE),  # the hand blocks, HB_SIZE each, of hands 1 .. HAND_SLOTS
)
