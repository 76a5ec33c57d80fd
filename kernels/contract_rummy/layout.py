"""Contract Rummy's layouts and codes: the option slots, the state fields, the table rows, the
plug-in's view and its vb, a step-mode seat's pprm row, the critique's question log, the
parameter row, the record columns (declared with ``kernels.layout.offsets``: no offset is
numbered by hand), the end reasons, the check-mode violations, the strategy ids, the decision
kinds and the trace codes.

Plain module-level ints, read by numba as compile-time constants. The records depend on these
numbers: ``tests/contract_rummy/test_contract_rummy_layout.py`` checks every declared layout's
names against its rows and its values against the ones the records were written with.
"""
from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.layout import offsets
from cardsim.kernels.search import SP_EXTRA, SP_PRM

RULES_VERSION = 2
# 2 (issue 12): go_out_requires_discard melds all but one card instead of not melding; the
#   taken card's type may not be discarded (a twin included); no lay-off of a swapped joker on
#   the meld turn, swaps before the meld put the joker into it; joker_position = fixed;
#   min_naturals_per_meld 1..3; the trace lists dealt hands, melds card by card, windows,
#   sizes, and the out-of-turn draw before the out-of-turn discard.
MAX_PLAYERS = 5
DEALS = 7
MAX_PACK = 162
HOLD = 53
JK = 52
MAX_MELDS = 16
CHUNK = 64
STREAM_DEAL = 16            # deal d shuffles from stream STREAM_DEAL + d (0: first dealer)
BIG = 1 << 30
# meld rows (first M_SIZE columns), trial rows, a scratch holding, a scratch contract row,
# then the search workspace
MO_ROWS = 2 * F.MAX_CM + 2 + F.WS_ROWS

# ---- options array ------------------------------------------------------------------
RULES_ROOM = 48
C_STRIDE = 16
(O_PLAYERS, O_DECKS, O_JOKERS, O_PACK, O_MAYI_MODEL, O_PENALTY, O_MAYI_LIMIT, O_NO_CONSEC, O_COOLDOWN,
 O_TAKEN_DISCARD, O_GO_OUT_DISCARD, O_D7_NO_DISCARD, O_SWAP, O_SWAP_PRIOR, O_SWAP_DISCARD, O_VOID_DEAD,
 O_MAX_TURNS, O_CUT_POINTS, O_CUT_RECIP, O_CUT_PPB, O_FIRST_DEALER, O_DEAL7_SPECIAL, O_SPARE, O_HAND, O_RULES,
 O_CONTRACTS,
 O_SIZE) = offsets(
    ("O_PLAYERS", 1),            # num_players 3..5
    ("O_DECKS", 1),              # 52-card decks in the pack
    ("O_JOKERS", 1),             # jokers in the pack
    ("O_PACK", 1),               # cards in the pack
    ("O_MAYI_MODEL", 1),         # may_i_model: 0 out_of_turn_discard, 1 buy, 2 none
    ("O_PENALTY", 1),            # take_discard_penalty: 0 always, 1 if_claimed
    ("O_MAYI_LIMIT", 1),         # may_i_limit_per_deal, -1 = unlimited
    ("O_NO_CONSEC", 1),          # may_i_no_consecutive
    ("O_COOLDOWN", 1),           # oot_discarder_cooldown
    ("O_TAKEN_DISCARD", 1),      # may_discard_taken_card
    ("O_GO_OUT_DISCARD", 1),     # go_out_requires_discard
    ("O_D7_NO_DISCARD", 1),      # deal7_discard_mode = never
    ("O_SWAP", 1),               # joker_swap_allowed
    ("O_SWAP_PRIOR", 1),         # joker_swap_requires_prior_meld
    ("O_SWAP_DISCARD", 1),       # swapped_joker_may_be_discarded
    ("O_VOID_DEAD", 1),          # dead_stock_rule = void_deal
    ("O_MAX_TURNS", 1),          # max_turns_per_deal
    ("O_CUT_POINTS", 1),         # cut_bonus_points (0 = no cut)
    ("O_CUT_RECIP", 1),          # cut_bonus_recipient: 0 cutter, 1 deal_winner
    ("O_CUT_PPB", 1),            # cut_success_prob in parts per 10**9
    ("O_FIRST_DEALER", 1),       # -1 random, else the dealer of deal 1
    ("O_DEAL7_SPECIAL", 1),      # deal7_special: deal 7 melds all cards and goes out
    ("O_SPARE", 2),              # unused, always 0
    ("O_HAND", 8),               # O_HAND + d: hand size of deal d (1..7)
    ("O_RULES", RULES_ROOM),     # melds_float rules array (RF_SIZE entries, room for RULES_ROOM)
    ("O_CONTRACTS", 8 * C_STRIDE),  # the contract table: 8 rows of C_STRIDE (melds_float.CF_SIZE used)
)

MODEL_OOT = 0
MODEL_BUY = 1
MODEL_NONE = 2

# ---- state ----------------------------------------------------------------------------
FEED_ROOM = 16
(N, DEAL, DEALER, CUR, TURN, OUT, DREASON, TRUNC, RESHUF, NMELDS, STOCK_LO, STOCK_HI, PILE_LEN, PILE_K, ERR, TR_LEN,
 FIRST_DEALER, GAME_TURNS, GAME_RESHUF, TAKEN, CUT_OK, JOKER_DUE, TOP_FROM, XFER, PERR, TPC, TQ, RS_AT, RS_ANS, RS_K,
 DOWN, MELD_TURN, PTURN, MAYI, LASTK, OOT, COOL, TOTAL, PEN, GMAYI, GOOT, HSIZE, GAIN, LOSS, PCARDS, RS_BEFORE, RS_I,
 RS_C, RS_STALE, RS_AUX, HAND, STOCK, PILE, KNOWN, F_KIND, F_SEAT, F_VAL, XSTEP, XFEED_LEN, XFEED_POS, XNEED, XFEED,
 ST_SIZE) = offsets(
    ("N", 1),                    # players
    ("DEAL", 1),                 # deal number 1..7
    ("DEALER", 1),
    ("CUR", 1),                  # turn player
    ("TURN", 1),                 # normal turns started this deal
    ("OUT", 1),                  # seat that went out, -1
    ("DREASON", 1),              # D_* once the deal is over, -1 while playing
    ("TRUNC", 1),                # 1 once a deal hit the turn cap
    ("RESHUF", 1),               # reshuffles this deal
    ("NMELDS", 1),               # melds on the table
    ("STOCK_LO", 1),             # index of the top stock card
    ("STOCK_HI", 1),
    ("PILE_LEN", 1),
    ("PILE_K", 1),               # discards made this deal (the k of the newest D_k)
    ("ERR", 1),                  # check-mode violation (E_*)
    ("TR_LEN", 1),               # trace rows written
    ("FIRST_DEALER", 1),
    ("GAME_TURNS", 1),
    ("GAME_RESHUF", 1),
    ("TAKEN", 1),                # card taken from the pile this turn, -1
    ("CUT_OK", 1),               # this deal's LIVERPOOL cut succeeded
    ("JOKER_DUE", 1),            # swapped jokers kept for this turn's discard
    ("TOP_FROM", 1),             # seat that discarded the top card (-1: the up-card)
    ("XFER", 1),                 # this turn's discard is transferred to an out-of-turn player
    ("PERR", 1),                 # 1 once a plug-in answered an illegal index (the deal stops: E_PLUGIN)
    ("TPC", 1),                  # the turn's phase to play next (TP_*; TP_DRAW between turns)
    ("TQ", 1),                   # the seat playing out of turn this turn (-1 none), from the draw phase on
    ("RS_AT", 1),                # the turn's question asked last (RS_*), where it resumes ...
    ("RS_ANS", 1),               # ... step mode: 1 + the answer's index to resume with there (a draw: 1; 0: not
                                 # resuming)
    ("RS_K", 1),                 # the pass of step 2's swaps and lay-offs (``act_phase``) it was asked in
    ("DOWN", MAX_PLAYERS),       # DOWN + p: melded this deal
    ("MELD_TURN", MAX_PLAYERS),  # MELD_TURN + p: personal turn of the meld
    ("PTURN", MAX_PLAYERS),      # PTURN + p: personal turn counter
    ("MAYI", MAX_PLAYERS),       # MAYI + p: penalty cards taken this deal (May-I's)
    ("LASTK", MAX_PLAYERS),      # LASTK + p: k of the last discard obtained with a penalty
    ("OOT", MAX_PLAYERS),        # OOT + p: out-of-turn plays this deal
    ("COOL", MAX_PLAYERS),       # COOL + p: seats still to start a turn before p may volunteer again
    ("TOTAL", MAX_PLAYERS),      # TOTAL + p: cumulative score
    ("PEN", MAX_PLAYERS),        # PEN + p: penalty this deal
    ("GMAYI", MAX_PLAYERS),      # GMAYI + p: May-I's in the game
    ("GOOT", MAX_PLAYERS),       # GOOT + p: out-of-turn plays in the game
    ("HSIZE", MAX_PLAYERS),      # HSIZE + p: cards held
    ("GAIN", MAX_PLAYERS),       # GAIN + p: cards received this deal (after the deal)
    ("LOSS", MAX_PLAYERS),       # LOSS + p: cards given up this deal
    ("PCARDS", MAX_PLAYERS),     # PCARDS + p: penalty cards drawn this deal (check: equals MAYI)
    ("RS_BEFORE", 1),            # the cards held when that pass began
    ("RS_I", 1),                 # the table meld of a swap question (``swap_phase``, ``swap_into_meld``), the
                                 # seat's offset from the turn player of a buy or volunteer question
    ("RS_C", 1),                 # the card of a swap or lay-off question
    ("RS_STALE", 1),             # a lay-off question's card types no meld takes (``layoff_phase``)
    ("RS_AUX", 1),               # the swaps made this pass (a swap question), the lay-off pass has laid a card
                                 # (a lay-off question), the K_MELD code (a K_MELD_JOKERS question)
    ("HAND", HOLD * MAX_PLAYERS),  # HAND + 53 p: count vector of seat p
    ("STOCK", MAX_PACK),         # the stock (cards STOCK_LO .. STOCK_HI - 1)
    ("PILE", MAX_PACK),          # the discard pile, entries card + 64 k (``actions.pile_entry``)
    ("KNOWN", HOLD * MAX_PLAYERS),  # KNOWN + 53 p + c: copies of card c seat p is publicly known to hold (taken
                                 # from the pile, bought, or a joker freed by its swap, less each copy of c it
                                 # gave up since; never more than it holds): a search's determinization keeps them
    ("F_KIND", 1),               # a search rollout's forced decision: its kind + 1 (0: none) ...
    ("F_SEAT", 1),               # ... the seat it is forced for ...
    ("F_VAL", 1),                # ... and the answer (K_DRAW: 1 take; K_DISCARD: the card); used once
    ("XSTEP", 1),                # step mode (the step API, ``sim.games.contract_rummy.step``): 1 = every stock
                                 # card comes from the feed, and a reshuffle leaves the pile's order (chance deals it)
    ("XFEED_LEN", 1),            # step mode: cards in the feed
    ("XFEED_POS", 1),            # step mode: feed cards drawn so far this turn
    ("XNEED", 1),                # step mode: 1 once a draw found the feed spent (the turn stopped there), 2 a
                                 # feed card the stock does not hold
    ("XFEED", FEED_ROOM),        # step mode: the feed, this turn's stock cards in the order they are drawn
)

# the phases of a turn (TPC): kernel steps (``turns``) that ``play_turn`` plays, in the batch and in the
# step adapter
TP_DRAW = 0      # begin_turn and step 1, the draw with the May-I's (also: no turn under way)
TP_ACT = 1       # step 2: meld, swaps, lay-offs
TP_DISCARD = 2   # step 3: the discard, the next seat
TP_OOT = 3       # the out-of-turn play of TQ (no discard by the turn player), the next seat

# a turn's questions (RS_AT): where the step mode resumes a phase (``step.step_turn``)
RS_SWAP_MELD = 1     # K_SWAP into the meld (``swap_into_meld``; RS_I, RS_C)
RS_MELD = 2          # K_MELD
RS_MELD_JOKERS = 3   # K_MELD_JOKERS (RS_AUX the K_MELD code)
RS_SWAP = 4          # K_SWAP (``swap_phase``; RS_K, RS_BEFORE, RS_I, RS_C, RS_AUX)
RS_JOKER = 5         # K_JOKER after the swap (as RS_SWAP)
RS_LAYOFF = 6        # K_LAYOFF (``layoff_phase``; RS_K, RS_BEFORE, RS_C, RS_STALE, RS_AUX)
RS_DRAW = 7          # K_DRAW (``want_top``)
RS_VOLUNTEER = 8     # K_VOLUNTEER (``offer_oot``; RS_I the seat's offset from the turn player)
RS_BUY = 9           # K_BUY (``offer_buy``; RS_I as RS_VOLUNTEER)
RS_DISCARD = 10      # K_DISCARD (``discard_phase``)
RS_OOT_DISCARD = 11  # K_DISCARD out of turn (``oot_discard``, the out-of-turn draw made)
# ... and its stock draws (``mayi.card_due``: the step mode resumes there once chance dealt the card)
RS_STOCK = 12        # the turn player's draw from the stock
RS_BUY_PENALTY = 13  # a buyer's penalty card (RS_I the buyer; the discard bought)
RS_TAKE_PENALTY = 14  # the turn player's penalty card under out_of_turn_discard (RS_I the seat playing out of turn)
RS_OOT_DRAW = 15     # the out-of-turn player's draw

# table rows: melds_float meld row, then the owner and the creation turn
(T_ROW, T_OWNER, T_TURN,
 TW) = offsets(
    ("T_ROW", M.M_SIZE),         # the melds_float meld row
    ("T_OWNER", 1),              # seat that laid the meld
    ("T_TURN", 1),               # its personal turn when laid
)

# deal end reasons
D_OUT = 0
D_DEAD_STOCK = 1
D_TURN_CAP = 2
D_STOPPED = 3    # a plug-in's illegal answer stopped the deal (never recorded: E_PLUGIN)
DEAL_REASONS = ("out", "dead_stock", "turn_cap")
REASON_NAMES = ("complete", "truncated")

# check-mode errors
E_CARDS = 1
E_MELD = 2
E_HAND = 3
E_MAYI = 4
E_CAP = 5
E_NO_MOVES = 6
E_TOTALS = 7
E_ILLEGAL = 8
E_PLUGIN = 9        # a plug-in strategy returned no legal action's index (checked in every mode)
ERROR_NAMES = ("", "cards not conserved", "invalid meld on the table", "hand size inconsistent",
               "May-I count inconsistent or over the limit", "turn cap exceeded",
               "no legal discard", "totals do not add up", "illegal action chosen",
               "a plug-in strategy returned an illegal action")

# strategies
S_RANDOM = 0
S_GREEDY = 1
S_MAYI = 2          # greedy with May-I limits (max_mayi, near)
S_CAUTIOUS = 3      # greedy plus the defence (danger, far)
S_FUZZ = 4          # greedy with random decisions (noise)
S_SEARCH = 5        # determinized Monte Carlo search (row: kernels.search; the policy's row from SP_PRM)
S_EXPERT = 6        # cautious counting each card once towards its contract (issue 41: contract_need's ``exact``)
# Every strategy but random reads the same parameter row (sim.games.contract_rummy lists
# each strategy's defaults): greedy is mayi with no May-I limit and no defence.
(P_MAX, P_NEAR, P_VOL, P_DANGER, P_FAR, P_LAYOFF, P_JOKER, P_MELD_JK, P_VOL_PTS, P_NOISE, P_SWAP, P_MELD, P_SHED,
 N_POLICY) = offsets(        # a built-in's parameter row (the P_* slots; the search's policy row from SP_PRM)
    ("P_MAX", 1),                # May-I's (penalty cards) per deal; >= 99: no limit
    ("P_NEAR", 1),               # take a paid discard only if at most this many cards stay missing
    ("P_VOL", 1),                # 1 = volunteer for out-of-turn plays
    ("P_DANGER", 1),             # cautious: an opponent down with at most this many cards is a danger
    ("P_FAR", 1),                # cautious: defend only while at least this many cards are missing
    ("P_LAYOFF", 1),             # lay-off target: 0 first meld in table order, 1 the one after which most held
                                 # cards fit
    ("P_JOKER", 1),              # joker target (lay-off, swap): 0 first meld, 1 where it lets a held card
                                 # follow, else a set (dead: nobody reuses it), 2 the same but a run before a set
    ("P_MELD_JK", 1),            # larger first melds (MAY_I): 1 = every joker held goes into the meld
    ("P_VOL_PTS", 1),            # volunteer only when the holding is worth at least this many points
    ("P_NOISE", 1),              # fuzz: probability that a decision is a fair coin / a random discard
    ("P_SWAP", 1),               # 1 = make joker swaps
    ("P_MELD", 1),               # exact contracts: 0 the engine's meld (most natural points laid, fewest
                                 # jokers), 1 the meld after which most held cards can be laid off
                                 # (``flexible_meld``)
    ("P_SHED", 1),               # expert: not down, once a seat that has melded holds at most this many cards,
                                 # discard the natural with the most points whatever the contract needs (0 =
                                 # never; ``sheds``)
)
N_PARAMS = SP_PRM + N_POLICY
UNLIMITED = 99
# the search's row (``kernels.search``: worlds, rollouts, budget, policy, then these four slots, then
# the policy's row from SP_PRM on; ``sim.games.contract_rummy`` binds its parameters to them by name)
(SX_HEAD, SX_KINDS, SX_CANDS, SX_Z, SX_FUTILITY,
 SX_END) = offsets(
    ("SX_HEAD", SP_EXTRA),       # kernels.search's SP_WORLDS, SP_ROLLOUTS, SP_BUDGET, SP_POLICY
    ("SX_KINDS", 1),             # bit 0 the draw (take the discard or not), bit 1 the discard
    ("SX_CANDS", 1),             # discards tried, the policy's best ones first
    ("SX_Z", 1),                 # another answer than the policy's only if its paired gain is at least this
                                 # many standard errors (0: the best mean)
    ("SX_FUTILITY", 1),          # racing's futility share (``kernels.search.race_policy``; 0: off)
)
assert SX_END == SP_PRM, "the search's game-specific slots end where the policy's row starts"
SX_DRAW = 1
SX_DISCARD = 2
JT_FIRST = 0
JT_HELP = 1
JT_RUN = 2
PLUGIN = 64         # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8   # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)

# ---- plug-in decisions (kind: legal codes; the plug-in returns an index into legal[:n]) ----
K_DRAW = 0          # turn start, the pile not empty (and, May-I model, the limits allow it):
                    # 0 draw from the stock, 1 take the top discard (V_INFO: 0 free, 1 with a
                    # penalty card, 2 with one only if a seat volunteers: take_discard_penalty
                    # = if_claimed)
K_BUY = 1           # may_i_model = buy, another seat (not the discarder, limits allowing)
                    # before the turn player draws: 0 pass, 1 buy the top discard (+ penalty)
K_VOLUNTEER = 2     # out_of_turn_discard: the turn player takes the discard; a seat asked in
                    # order: 0 no, 1 discard out of turn (draw from the stock, then discard)
K_MELD = 3          # not down, a contract meld exists: 0 not now, 1 the engine's meld (what
                    # the built-ins lay), 2 the plain best meld where it differs, 3 + c a
                    # meld of every card but one c (V_INFO / V_INFO2: cards held after
                    # meld 1 / 2, -1 when 2 is not offered)
K_MELD_JOKERS = 4   # going down with a non-exact contract and jokers left in the hand: j =
                    # 0..m, how many more jokers go into the meld (V_INFO: cards held after
                    # the meld without them)
K_SWAP = 5          # a joker swap: natural V_CARD for the joker of run V_MELD; 0 no, 1 swap
                    # (V_INFO 1: before the contract meld, the joker goes into it)
K_JOKER = 6         # the joker freed by a swap (V_MELD: its run): 0 keep it for this turn's
                    # discard (swapped_joker_may_be_discarded), 1 + t lay it on meld t
K_LAYOFF = 7        # lay-off of card V_CARD (offered card by card, repeated to a fixed
                    # point): 0 keep it, 1 + t lay it on meld t
K_DISCARD = 8       # the discard: the card types allowed (V_INFO 1: out of turn)
N_KINDS = 9

# ---- what a plug-in's decide(view, legal, n, prm) sees: its seat's view --------------
(V_SEAT, V_KIND, V_PLAYERS, V_DEAL, V_DEALER, V_CUR, V_TURN, V_STOCK, V_PILE_LEN, V_TOP, V_TAKEN, V_MODEL,
 V_JOKER_DUE, V_XFER, V_CARD, V_MELD, V_INFO, V_INFO2, V_C_SETS, V_C_RUNS, V_C_EXACT, V_C_ALL, V_NMELDS, V_SPARE,
 V_HELD, V_DOWN, V_MAYI, V_OOT, V_TOTAL, V_HAND, V_PILE, V_TAB,
 VIEW_SIZE) = offsets(
    ("V_SEAT", 1),               # the deciding seat
    ("V_KIND", 1),               # the decision kind (K_*)
    ("V_PLAYERS", 1),
    ("V_DEAL", 1),               # deal number 1..7
    ("V_DEALER", 1),
    ("V_CUR", 1),                # the turn player
    ("V_TURN", 1),               # normal turns started this deal
    ("V_STOCK", 1),              # cards in the stock
    ("V_PILE_LEN", 1),           # cards in the discard pile
    ("V_TOP", 1),                # top discard, -1 if none
    ("V_TAKEN", 1),              # card type taken from the pile this turn that may not be discarded, -1
    ("V_MODEL", 1),              # may_i_model: 0 out_of_turn_discard, 1 buy, 2 none
    ("V_JOKER_DUE", 1),          # swapped jokers kept for this turn's discard
    ("V_XFER", 1),               # 1: this turn's discard goes to an out-of-turn player (no discard)
    ("V_CARD", 1),               # the card the decision is about (kind notes), -1
    ("V_MELD", 1),               # the table meld the decision is about (kind notes), -1
    ("V_INFO", 1),               # per kind (kind notes)
    ("V_INFO2", 1),
    ("V_C_SETS", 1),             # this deal's contract: sets, runs, exact sizes (1), every card (1)
    ("V_C_RUNS", 1),
    ("V_C_EXACT", 1),
    ("V_C_ALL", 1),
    ("V_NMELDS", 1),             # melds on the table
    ("V_SPARE", 1),              # unused, always 0 (the slots after it keep the offsets plug-ins know)
    ("V_HELD", MAX_PLAYERS),     # V_HELD + q: cards seat q holds
    ("V_DOWN", MAX_PLAYERS),     # V_DOWN + q: 1 once seat q melded this deal
    ("V_MAYI", MAX_PLAYERS),     # V_MAYI + q: penalty cards seat q took this deal
    ("V_OOT", MAX_PLAYERS),      # V_OOT + q: out-of-turn plays of seat q this deal
    ("V_TOTAL", MAX_PLAYERS),    # V_TOTAL + q: seat q's penalty total before this deal
    ("V_HAND", HOLD),            # V_HAND + c: copies of card c held (c = 13 * suit + rank, 52 = joker)
    ("V_PILE", HOLD),            # V_PILE + c: copies of card c in the discard pile
    ("V_TAB", MAX_MELDS * TW),   # V_TAB + TW * i + f: field f of table meld i (melds_float row, owner, turn)
)
MAX_LEGAL = 64
# the vb a plug-in is asked with: the view, the plug-in's copy of legal, the engine's legal. Step
# mode passes a longer vb: a question a plug-in does not answer leaves, from SNAP on, its legal
# count, the state and the table as they were when it was asked (``snapshot``). Critique (issue
# 40) passes a vb longer still: from CV on, its bookkeeping (``critiquing``). In record mode every
# question of every seat is logged (the plug-in lists built for the built-in seats too, their
# answers left to them as in the batch) and counted; in script mode (a rollout) the questions are
# answered from a script. A question counted CV_STOP stops the turn with the snapshot at SNAP (as
# step mode's).
LOG_ROOM = 512          # questions one turn may log (a turn asks far fewer)
(LG_SEAT, LG_KIND, LG_N, LG_CARD, LG_MELD, LG_INFO, LG_ANS, LG_SEG, LG_STEP, LG_HELD, LG_CODES,
 LG_W) = offsets(       # a logged question's row
    ("LG_SEAT", 1),
    ("LG_KIND", 1),
    ("LG_N", 1),
    ("LG_CARD", 1),
    ("LG_MELD", 1),
    ("LG_INFO", 1),
    ("LG_ANS", 1),
    ("LG_SEG", 1),
    ("LG_STEP", 1),
    ("LG_HELD", 1),
    ("LG_CODES", MAX_LEGAL),     # the legal codes
)
PENDING = -99           # LG_ANS before the answer is known
SEG_W = ST_SIZE + MAX_MELDS * TW    # a state and its table (a critique snapshot: ``state_size``)
N_SEGS = 4
(VB_VIEW, VB_PLUG_LEGAL, VB_LEGAL, SNAP, SNAP_ST, SNAP_TAB, CV_MODE, CV_STEP, CV_STOP, CV_STOPPED, CV_NLOG,
 CV_SEGS, CV_LEN, CV_BAD, CV_SCRIPT, CV_LOG, CV_SEG,
 CV_SIZE) = offsets(
    ("VB_VIEW", VIEW_SIZE),      # the view
    ("VB_PLUG_LEGAL", MAX_LEGAL),  # the plug-in's copy of the legal codes
    ("VB_LEGAL", MAX_LEGAL),     # the engine's legal codes
    ("SNAP", 1),                 # step mode and critique: the legal count of the question stopped at ...
    ("SNAP_ST", ST_SIZE),        # ... the state ...
    ("SNAP_TAB", MAX_MELDS * TW),  # ... and the table as they were when it was asked
    ("CV_MODE", 1),              # critique: 0 off, CM_RECORD, CM_SCRIPT
    ("CV_STEP", 1),              # questions counted (record: any seat's in the game; script: answered)
    ("CV_STOP", 1),              # stop before question CV_STOP (-1: never)
    ("CV_STOPPED", 1),           # 1 once stopped (the snapshot at SNAP)
    ("CV_NLOG", 1),              # questions logged this turn
    ("CV_SEGS", 1),              # bit s: the start of segment s this turn is kept (at CV_SEG)
    ("CV_LEN", 1),               # script: answers
    ("CV_BAD", 1),               # script: answers that fit no question (never: tests)
    ("CV_SCRIPT", LOG_ROOM),     # script: the answers in question order (critique action codes, ``pack_act``)
    ("CV_LOG", LOG_ROOM * LG_W),  # the questions logged this turn (LG_* rows)
    ("CV_SEG", N_SEGS * SEG_W),  # the kept segment starts (SEG_W each)
)
VB_SIZE = SNAP          # the batch's vb
SNAP_SIZE = CV_MODE     # step mode's vb
CV = CV_MODE            # the critique's bookkeeping starts here
CM_RECORD = 1
CM_SCRIPT = 2
# a step-mode seat's pprm row: the plug-in's slots and PLUG_KINDS, then its script of answers
SS_ROOM = 256                   # answers a seat may have scripted in one turn
(PLUG_PRM, PLUG_KINDS, SS_POS, SS_LEN, SS_MODE, SS_ANS,
 SS_SIZE) = offsets(
    ("PLUG_PRM", N_PLUG_PARAMS),  # a plug-in's own parameters
    ("PLUG_KINDS", 1),           # bit k set = the plug-in decides decisions of kind k
    ("SS_POS", 1),               # answers used in this run
    ("SS_LEN", 1),               # answers scripted
    ("SS_MODE", 1),              # 0 exact; 1 a resampled world: a question the script does not name gets the
                                 # passive answer (no, keep) while answers are left; 2 also after them
    ("SS_ANS", 2 * SS_ROOM),     # (question key, legal code) per answer, in the seat's order
)
# a turn's segments: the questions of one segment are asked in one state (its start) or follow
# from it by the answers alone, so a rollout restarts there (``rollout_from``)
SEG_DRAW = 0            # the turn player's draw: K_DRAW, K_BUY, K_VOLUNTEER (begin_turn done)
SEG_ACT = 1             # its step 2: K_MELD, K_MELD_JOKERS, K_SWAP, K_JOKER, K_LAYOFF (the draw done)
SEG_DISCARD = 2         # its discard (step 2 done)
SEG_OOT = 3             # an out-of-turn play's discard (its draw done)

# trace rows (replay only): code, seat (-1: the table), a, b, c, d. d is the sizes after
# the event: cards held by the seat + 256 * stock size + 65536 * discard pile size (see
# ``sizes``, ``actions.pack_sizes``). Windows are lo + 256 * hi (a run's positions, the joker
# assignment shown; ``actions.pack_window``).
T_DEAL = 1       # a = deal, b = dealer, c = cut ok
T_HOLD = 2       # a seat's dealt cards, one row per card: a = card, b = copies
T_UPCARD = 3     # a = card
T_DRAW = 4       # a = card
T_TAKE = 5       # took the discard a
T_PENALTY = 6    # a = penalty card
T_MELD = 7       # one row per meld of the contract: a = table index, b = pack_row, c = M_P1
T_LAYOFF = 8     # a = card, b = meld, c = the meld's window after
T_SWAP = 9       # a = natural, b = run, c = swap_info (joker target, windows after)
T_DISCARD = 10   # a = card, b = 1 out of turn
T_OOT = 11       # out-of-turn draw: a = card drawn (its discard follows as T_DISCARD)
T_VOLUNTEER = 12
T_BUY = 13       # a = card bought (its penalty card follows)
T_RESHUFFLE = 14  # a = cards in the new stock
T_END = 15       # a = reason, b = seat out
T_SCORE = 16     # a = penalty, b = total, c = points of the holding
SWAP_KEPT = -1   # T_SWAP target: the joker is kept for this turn's discard
SWAP_MELD = -2   # T_SWAP target: the joker goes into the contract meld laid next

# ---- record: one int32 row per game (sim.games.contract_rummy names the columns) ------------
(DB_OUT, DB_REASON, DB_TURNS, DB_RESHUF, DB_CUT, DB_PEN, DB_MAYI, DB_OOT,
 DB_SIZE) = offsets(         # one deal's block (deal d at RC_DEAL + (d - 1) DB_SIZE)
    ("DB_OUT", 1),               # seat out, -1
    ("DB_REASON", 1),            # deal end reason (D_*)
    ("DB_TURNS", 1),             # normal turns
    ("DB_RESHUF", 1),            # reshuffles
    ("DB_CUT", 1),               # the LIVERPOOL cut succeeded
    ("DB_PEN", MAX_PLAYERS),     # DB_PEN + p: penalty of seat p
    ("DB_MAYI", MAX_PLAYERS),    # DB_MAYI + p: May-I's of seat p
    ("DB_OOT", MAX_PLAYERS),     # DB_OOT + p: out-of-turn plays of seat p
)
(RC_DEALER, RC_WINNER, RC_WINNERS, RC_REASON, RC_TRUNC, RC_ERR, RC_TURNS, RC_RESHUF, RC_TOTAL, RC_MAYI, RC_OOT,
 RC_DEAL,
 RECORD_COLS) = offsets(
    ("RC_DEALER", 1),            # first dealer
    ("RC_WINNER", 1),            # the unique lowest total, or -1
    ("RC_WINNERS", 1),           # seats sharing the lowest total (bit mask)
    ("RC_REASON", 1),            # 0 complete, 1 truncated (REASON_NAMES)
    ("RC_TRUNC", 1),             # 1 once a deal hit the turn cap
    ("RC_ERR", 1),               # check-mode violation code (0 = none)
    ("RC_TURNS", 1),             # normal turns in the game
    ("RC_RESHUF", 1),            # reshuffles in the game
    ("RC_TOTAL", MAX_PLAYERS),   # RC_TOTAL + p: total of seat p
    ("RC_MAYI", MAX_PLAYERS),    # RC_MAYI + p: May-I's of seat p in the game
    ("RC_OOT", MAX_PLAYERS),     # RC_OOT + p: out-of-turn plays of seat p in the game
    ("RC_DEAL", DEALS * DB_SIZE),  # the deal blocks (DB_*)
)
