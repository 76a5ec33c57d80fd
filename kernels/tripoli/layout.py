"""Tripoli's layouts and codes: the option slots, the state fields, the plug-in's view, the record
columns (declared with ``kernels.layout.offsets``: no offset is numbered by hand), the board
spaces and ledgers, the phases, the end reasons, the actions, the check-mode violations, the
strategy ids and parameter slots, the decision kinds and the trace rows.

Plain module-level ints, read by numba as compile-time constants. The records depend on these
numbers: ``tests/tripoli/test_tripoli_layout.py`` checks every declared layout's names against its
rows and its values against the ones the records were written with.
"""
from cardsim.kernels.layout import offsets
from cardsim.kernels.search import SP_EXTRA, SP_PRM

RULES_VERSION = 1
MAX_PLAYERS = 9
MAX_ACTS = 64
BID_STEPS = 20
BID_GUARD = 1000
RAISE_GUARD = 100
STREAM_CLEAR = 8                # clearing round j shuffles from stream STREAM_CLEAR + j
SESSIONS_PER_CHUNK = 8
LOW13 = (1 << 13) - 1
N_SPACES = 9                    # board spaces (SP_*)
N_LEDGERS = 6                   # ledgers (L_*)

# ---- options array (built by sim.games.tripoli.TripoliOptions; the package docstring's table) ----
(O_PLAYERS, O_ANTE, O_WIDOW, O_WIDOW_LAST, O_MIN_BID, O_MAX_BID, O_BID_GUARDED, O_TIMING, O_SEQ_SPLIT,
 O_PAY_SUIT, O_SEQ_START, O_SUIT_AUCTION, O_FIRST_BETTOR, O_LIMIT, O_LIMIT_MODE, O_MAX_RAISES, O_RAISES_GUARDED,
 O_LEADER, O_FIRST_LOWEST, O_COLOR, O_COSMO, O_DEALS, O_CLEARING, O_FIRST_DEALER, O_MAX_STEPS,
 O_SIZE) = offsets(
    ("O_PLAYERS", 1),            # n_players 2..9
    ("O_ANTE", 1),               # ante_per_space
    ("O_WIDOW", 1),              # widow_exchange 0/1
    ("O_WIDOW_LAST", 1),         # widow_dealt_last 0/1
    ("O_MIN_BID", 1),            # auction_min_bid
    ("O_MAX_BID", 1),            # auction_max_bid (the guard when none)
    ("O_BID_GUARDED", 1),        # 1 when auction_max_bid is none (reaching O_MAX_BID = truncated)
    ("O_TIMING", 1),             # payout_timing 0 phase1, 1 michigan (Rummoli)
    ("O_SEQ_SPLIT", 1),          # sequence_split 0 per_player, 1 per_sequence
    ("O_PAY_SUIT", 1),           # pay_suit 0 C, 1 D, 2 H, 3 S
    ("O_SEQ_START", 1),          # sequence_start as an ace-high rank index (2 -> 0 .. Q -> 10)
    ("O_SUIT_AUCTION", 1),       # pay_suit_auction 0/1
    ("O_FIRST_BETTOR", 1),       # poker_first_bettor 0 left_of_dealer, 1 dealer
    ("O_LIMIT", 1),              # bet_limit
    ("O_LIMIT_MODE", 1),         # bet_limit_mode 0 per_action, 1 total
    ("O_MAX_RAISES", 1),         # max_raises (RAISE_GUARD when none)
    ("O_RAISES_GUARDED", 1),     # 1 when max_raises is none
    ("O_LEADER", 1),             # michigan_first_leader 0 poker_winner, 1 dealer, 2 left_of_dealer
    ("O_FIRST_LOWEST", 1),       # first_lead_lowest_in_hand 0/1
    ("O_COLOR", 1),              # color_alternation 0/1
    ("O_COSMO", 1),              # cosmo 0/1
    ("O_DEALS", 1),              # deals_per_session
    ("O_CLEARING", 1),           # clearing_pots (0 = none)
    ("O_FIRST_DEALER", 1),       # -1 random per session, else a seat
    ("O_MAX_STEPS", 1),          # decisions per deal before the step cap
)

# ---- state fields (int64 array) -------------------------------------------------------
(N, DEALER, PHASE, CUR, SESSION, DEAL_NO, PAY_SUIT, SEQ, TRUNC, ERR, TR_LEN, STEPS, REASON, MWIN, WIDOW, W_SEEN,
 W_ACT, W_BUYER, W_PRICE, AU_KIND, HIGH, HIGH_BY, ACTIVE, SUIT_BY, SUIT_PRICE, FOLDED, CUR_BET, RAISES, ACTED,
 POT_WIN, POT, POKER_END, BET_CTX, BET_DEALER, PLAYED, BANNED, COLOR, LEADER, FIRST_LEAD, LAST_P, LAST_C, RUN_LEN,
 RUN_START, LEADS, CL_POT, CL_LEFT, CL_INDEX, CL_TOTAL, TOTAL0, DEAL_ID, SEED, PICKED_N, SEL_LEFT, LAST_DEAL,
 CL_FIRST, CL_RESERVE, P2_RAISES, P2_FOLDED, OLD_HAND, ST_SPARE, HAND, PICK, CONTRIB, CHIPS, HCAT, BOARD, BOARD0,
 PH, CLH, CLS, NOTH, BETS, CALL_PRICE, FOLD_PRICE,
 ST_SIZE) = offsets(
    ("N", 1),                    # number of players
    ("DEALER", 1),               # dealer of this deal
    ("PHASE", 1),                # P_*
    ("CUR", 1),                  # seat to decide
    ("SESSION", 1),              # session number
    ("DEAL_NO", 1),              # deal number inside the session (0-based)
    ("PAY_SUIT", 1),             # pay suit of this deal
    ("SEQ", 1),                  # sequence start (ace-high rank index) of this deal
    ("TRUNC", 1),                # 1 once a cap or guard bound
    ("ERR", 1),                  # check-mode violation (E_*)
    ("TR_LEN", 1),               # trace rows written
    ("STEPS", 1),                # decisions taken this deal
    ("REASON", 1),               # end reason R_*, -1 while playing
    ("MWIN", 1),                 # seat that went out in Phase 3, -1
    ("WIDOW", 1),                # widow mask
    ("W_SEEN", 1),               # seat that has seen the current widow, -1
    ("W_ACT", 1),                # widow decisions: bit mask of W_* flags
    ("W_BUYER", 1),              # buyer in a widow auction, -1
    ("W_PRICE", 1),              # price paid in a widow auction
    ("AU_KIND", 1),              # auction on: AU_WIDOW, AU_OLD, AU_SUIT
    ("HIGH", 1),                 # current high bid (0 none)
    ("HIGH_BY", 1),              # seat of the high bid, -1
    ("ACTIVE", 1),               # bit mask of bidders who have not passed
    ("SUIT_BY", 1),              # winner of the pay-suit auction, -1
    ("SUIT_PRICE", 1),           # price paid for the pay suit
    ("FOLDED", 1),               # bit mask of folded seats
    ("CUR_BET", 1),              # highest total bet
    ("RAISES", 1),               # raises this betting round
    ("ACTED", 1),                # bit mask of seats that acted since the last bet / raise
    ("POT_WIN", 1),              # bit mask of the poker winners of the deal
    ("POT", 1),                  # chips contested in the deal's poker pot (board Pot space + bets)
    ("POKER_END", 1),            # 0 showdown, 1 all others folded
    ("BET_CTX", 1),              # 0 Phase 2 betting, 1 clearing round
    ("BET_DEALER", 1),           # dealer of the current betting round
    ("PLAYED", 1),               # mask of cards played in Phase 3
    ("BANNED", 1),               # suit just stopped (-1 none)
    ("COLOR", 1),                # colour alternation: required colour 0 black 1 red, -1 off
    ("LEADER", 1),               # seat from which the next leader is searched
    ("FIRST_LEAD", 1),           # 1 before the first lead of Phase 3
    ("LAST_P", 1),               # seat of the last Phase-3 play (-1)
    ("LAST_C", 1),               # card of the last Phase-3 play (-1)
    ("RUN_LEN", 1),              # consecutive plays of one suit run by LAST_P
    ("RUN_START", 1),            # first card of that run
    ("LEADS", 1),                # leads in Phase 3
    ("CL_POT", 1),               # open clearing-round pot (prize + bets)
    ("CL_LEFT", 1),              # clearing rounds still to play after the current one
    ("CL_INDEX", 1),             # clearing round in play (0-based)
    ("CL_TOTAL", 1),             # chips pooled for the clearing rounds
    ("TOTAL0", 1),               # balances + board at the start of the deal
    ("DEAL_ID", 1),              # deal id in the run
    ("SEED", 1),                 # run seed (clearing rounds reseed the deck stream)
    ("PICKED_N", 1),             # cards picked by CUR for its poker hand
    ("SEL_LEFT", 1),             # seats still to pick their poker hand
    ("LAST_DEAL", 1),            # 1 if this deal ends its session
    ("CL_FIRST", 1),             # dealer of the first clearing round
    ("CL_RESERVE", 1),           # pooled chips of the clearing prizes not yet played for
    ("P2_RAISES", 1),            # raises in the Phase-2 betting round
    ("P2_FOLDED", 1),            # bit mask of the seats that folded in Phase 2
    ("OLD_HAND", 1),             # the dealer's hand before his swap (0: no swap); only his plug-in view shows it
    ("ST_SPARE", 5),             # unused, always 0 (the fields after it keep their offsets)
    ("HAND", MAX_PLAYERS),       # HAND + p: seat p's hand
    ("PICK", MAX_PLAYERS),       # PICK + p: seat p's 5 poker cards (clearing rounds: its 5 dealt cards)
    ("CONTRIB", MAX_PLAYERS),    # CONTRIB + p: seat p's total bet this betting round
    ("CHIPS", MAX_PLAYERS),      # CHIPS + p: seat p's balance change this deal
    ("HCAT", MAX_PLAYERS),       # HCAT + p: poker strength class of PICK + p (-1 none)
    ("BOARD", N_SPACES),         # BOARD + i: chips on space i
    ("BOARD0", N_SPACES),        # BOARD0 + i: chips on space i when the deal began (before the antes)
    ("PH", N_LEDGERS * MAX_PLAYERS),  # PH + ledger * MAX_PLAYERS + p: chips won by seat p in ledger L_*
    ("CLH", MAX_PLAYERS),        # CLH + p: seat p's 5 cards in the current clearing round
    ("CLS", MAX_PLAYERS),        # CLS + p: their strength class
    ("NOTH", MAX_PLAYERS),       # NOTH + p: cards seat p is publicly known not to hold (Phase 3: a lead of a
                                 # suit's lowest card shows no lower card of it; a seat the lead passes shows no
                                 # card of the suits it could lead); a search's determinization respects them
    ("BETS", MAX_PLAYERS),       # BETS + p: seat p's actions in the current betting round (B_* bits; public)
    ("CALL_PRICE", MAX_PLAYERS),  # CALL_PRICE + p: highest price (x 1e6) at which p called this round, where
                                  # price = chips to call / (pot + chips to call), the heuristic's pot odds
    ("FOLD_PRICE", MAX_PLAYERS),  # FOLD_PRICE + p: the price p folded at
)

# board spaces
SP_A, SP_K, SP_Q, SP_J, SP_10, SP_KQ, SP_SEQ, SP_KITTY, SP_POT = range(N_SPACES)
SPACE_NAMES = ("A", "K", "Q", "J", "10", "K-Q", "sequence", "kitty", "pot")
SPACE_RANK = (0, 12, 11, 10, 9)         # kernels.cards rank of the single-card spaces
# ledgers
L_ANTE, L_WIDOW, L_PAY, L_POKER, L_MICHIGAN, L_CLEAR = range(N_LEDGERS)
LEDGER_NAMES = ("ante", "widow", "pay", "poker", "michigan", "clear")

# phases (decision points)
P_WIDOW = 0        # dealer: keep | swap | auction_widow
P_AFTER_SWAP = 1   # dealer: done | auction_old
P_AFTER_UNSOLD = 2  # dealer: keep | swap
P_AUCTION = 3      # CUR: bid | pass (AU_KIND says what is sold)
P_SUIT = 4         # the pay-suit auction winner names the suit
P_SELECT = 5       # CUR picks its poker cards
P_BET = 6          # CUR bets (Phase 2 or a clearing round)
P_LEAD = 7         # CUR chooses the suit to lead
P_OVER = 8
AU_WIDOW, AU_OLD, AU_SUIT = 0, 1, 2

# betting actions of a seat in a betting round (state BETS; a search reads them as public facts)
B_CHECK, B_BET, B_RAISE, B_CALL, B_FOLD = 1, 2, 4, 8, 16

# widow decision flags (record column widow)
W_SWAP = 1
W_AUCTION_WIDOW = 2
W_SOLD_WIDOW = 4
W_AUCTION_OLD = 8
W_SOLD_OLD = 16
WIDOW_FLAG_NAMES = ("swap", "auction_widow", "sold_widow", "auction_old", "sold_old")

# end reasons
R_OUT = 0
R_BLOCKED = 1
R_STEP_CAP = 2
REASON_NAMES = ("out", "blocked", "step_cap")

# actions: kind in bits 0-3, payload << 8 (the codec: ``actions``)
A_KEEP = 1
A_SWAP = 2
A_AUCTION_WIDOW = 3
A_DONE = 4
A_AUCTION_OLD = 5
A_BID = 6          # payload: the new high bid
A_PASS = 7
A_SUIT = 8         # payload: suit
A_PICK = 9         # payload: card
A_CHECK = 10
A_BET = 11         # payload: amount
A_CALL = 12
A_RAISE = 13       # payload: raise increment
A_FOLD = 14
A_LEAD = 15        # payload: suit
ACTION_NAMES = ("", "keep", "swap", "auction widow", "done", "auction old hand", "bid", "pass",
                "name pay suit", "pick", "check", "bet", "call", "raise", "fold", "lead")

# check-mode violations
E_CARDS = 1
E_CHIPS = 2
E_NO_MOVES = 3
E_CAP = 4
E_BOARD = 5
E_BET = 6
E_PICK = 7
E_PLUGIN = 8       # a plug-in strategy returned no legal action's index (checked in every mode)
ERROR_NAMES = ("", "cards not conserved", "chips not conserved", "no legal action",
               "step cap exceeded", "negative board space", "bet outside the limits",
               "poker hand not 5 cards of the hand", "a plug-in strategy returned an illegal action")

# strategies: id + parameter row
S_RANDOM = 0
S_HEURISTIC = 1
S_FUZZ = 2         # no params: a uniformly random action KIND, then a uniformly random action of it
S_SEARCH = 3       # params: the search row (kernels.search: worlds, rollouts, budget, policy, kinds, sizes, ...)
S_EXPERT = 4       # params: the heuristic's row + PR_VALUE_EQ .. PR_FEED_SHOWN (issue 41: expert_bet, expert_lead)
# the heuristic's and the expert's parameter row (the expert: the heuristic's row, then its own); the
# ParamSpecs of sim.games.tripoli.strategies name these slots (``slot=``), the search's extras SX_KINDS, SX_SIZES
(PR_SWAP_BELOW, PR_PAY_WEIGHT, PR_AUCTION_WIDOW, PR_SELL_OLD, PR_BID_MAX, PR_SUIT_BID_MAX, PR_BET_AT, PR_RAISE_AT,
 PR_CALL_AT, PR_BET_SIZE, PR_RUN_WEIGHT, PR_STOP_BONUS, PR_BID_OLD_MAX, PR_BLUFF, PR_BLUFF_SIZE, PR_SIZE_SHIFT,
 PR_OPP_SHIFT, PR_ODDS_WEIGHT, PR_HIDE_MARGIN, PR_POS_SHIFT, PR_VALUE_EQ, PR_RAISE_EQ, PR_CALL_MARGIN, PR_BET_FRAC,
 PR_RAISE_RANGE, PR_CALL_RANGE, PR_WIDOW_STOPS, PR_LEAD_PLAN, PR_LEAD_CHANCE, PR_KEEP_ENTRY, PR_OWN_LOW, PR_FEED_SHOWN,
 N_PR) = offsets(
    ("PR_SWAP_BELOW", 1),        # the heuristic (``choose``) from here
    ("PR_PAY_WEIGHT", 1),
    ("PR_AUCTION_WIDOW", 1),
    ("PR_SELL_OLD", 1),
    ("PR_BID_MAX", 1),
    ("PR_SUIT_BID_MAX", 1),
    ("PR_BET_AT", 1),
    ("PR_RAISE_AT", 1),
    ("PR_CALL_AT", 1),
    ("PR_BET_SIZE", 1),
    ("PR_RUN_WEIGHT", 1),
    ("PR_STOP_BONUS", 1),
    ("PR_BID_OLD_MAX", 1),
    ("PR_BLUFF", 1),
    ("PR_BLUFF_SIZE", 1),
    ("PR_SIZE_SHIFT", 1),
    ("PR_OPP_SHIFT", 1),
    ("PR_ODDS_WEIGHT", 1),
    ("PR_HIDE_MARGIN", 1),
    ("PR_POS_SHIFT", 1),
    ("PR_VALUE_EQ", 1),          # expert (issue 41: ``expert_bet``) from here
    ("PR_RAISE_EQ", 1),
    ("PR_CALL_MARGIN", 1),
    ("PR_BET_FRAC", 1),
    ("PR_RAISE_RANGE", 1),
    ("PR_CALL_RANGE", 1),
    ("PR_WIDOW_STOPS", 1),
    ("PR_LEAD_PLAN", 1),         # ``expert_lead``
    ("PR_LEAD_CHANCE", 1),
    ("PR_KEEP_ENTRY", 1),
    ("PR_OWN_LOW", 1),
    ("PR_FEED_SHOWN", 1),
)
RUN_OPEN, RUN_STOP, RUN_OUT = 0, 1, 2   # how a Michigan lead's run ends for the leader (``own_run``)
N_PARAMS = SP_PRM + N_PR   # a strategy row: the search row, or the expert's (the longest of the others)
SX_KINDS = SP_EXTRA      # search row: bit mask of the decision kinds (K_*) it searches; others the policy plays
SX_SIZES = SP_EXTRA + 1  # search row: at most this many amounts of a bid / bet / raise compared (0 = all)
PLUGIN = 64        # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8  # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k
SEARCH_TRIES = 64   # deals of the hidden cards tried per world before the constraints are dropped
BET_EPS = 0.02      # likelihood of a betting action the rollout policy would not have made with the hand

# ---- plug-in decision kinds (the legal actions of each are the kernel's A_* actions) ------
K_WIDOW = 0        # dealer: keep | swap | auction widow; after a swap: done | auction old hand;
                   # after an unsold widow auction: keep | swap (V_PHASE tells which)
K_BID = 1          # a widow auction (V_AUCTION: AU_WIDOW the unseen widow, AU_OLD the dealer's old
                   # hand): pass | bid x (the new high bid)
K_SUIT_BID = 2     # the pay-suit auction: pass | bid x
K_SUIT = 3         # the pay-suit auction's winner names the pay suit (suit 0..3)
K_PICK = 4         # choose the poker hand, one card per decision (five decisions): pick c
K_BET = 5          # Phase-2 betting: check | bet x, or fold | call | raise x (x = the increment)
K_CLEAR_BET = 6    # a clearing round's betting (same actions)
K_LEAD = 7         # Phase 3: the suit to lead (its lowest card is led; following is forced)
N_KINDS = 8
KIND_NAMES = ("widow", "bid", "suit_bid", "suit", "pick", "bet", "clear_bet", "lead")

# ---- what a plug-in's decide(view, legal, n, prm) sees: its seat's view (``fill_view``) ---
(V_SEAT, V_KIND, V_PHASE, V_PLAYERS, V_DEALER, V_DEAL_NO, V_DEALS, V_HAND, V_PICK, V_BET_HAND, V_BET_CLASS, V_WIDOW,
 V_OLD_HAND, V_W_ACT, V_W_BUYER, V_W_PRICE, V_AUCTION, V_HIGH, V_HIGH_BY, V_ACTIVE, V_PAY_SUIT, V_SEQ, V_SUIT_BY,
 V_SUIT_PRICE, V_CUR_BET, V_OWE, V_RAISES, V_POT, V_FOLDED, V_ACTED, V_MAX_AMOUNT, V_MAX_RAISES, V_PLAYED,
 V_BANNED, V_COLOR, V_FIRST_LEAD, V_LEADS, V_POT_WIN, V_TIMING, V_CLEARING, V_BOARD, V_HELD, V_CHIPS, V_CONTRIB,
 V_SHOWN,
 VIEW_SIZE) = offsets(
    ("V_SEAT", 1),               # the deciding seat
    ("V_KIND", 1),               # decision kind K_*
    ("V_PHASE", 1),              # the kernel's phase P_* (P_WIDOW, P_AFTER_SWAP, P_AFTER_UNSOLD, P_AUCTION, ...)
    ("V_PLAYERS", 1),            # players at the table
    ("V_DEALER", 1),             # dealer of the deal (of the betting round in a clearing round: V_BET_DEALER)
    ("V_DEAL_NO", 1),            # deal number inside the session (0-based)
    ("V_DEALS", 1),              # deals per session (the last one ends with the clearing rounds)
    ("V_HAND", 1),               # own hand (card mask: bit 13 * suit + rank, rank 0 = ace; suits C D H S)
    ("V_PICK", 1),               # own poker cards picked so far (mask; its five once chosen)
    ("V_BET_HAND", 1),           # the cards this seat bets on: its poker hand, or its 5 cards in a clearing round
    ("V_BET_CLASS", 1),          # their poker class (kernels.poker.eval5; higher is better), -1 before chosen
    ("V_WIDOW", 1),              # widow cards this seat knows: the whole widow if it has seen it, else the public
                                 # ones (pay cards nobody claimed in Phase 1, cards a Phase-3 stop revealed)
    ("V_OLD_HAND", 1),           # the dealer only, after his swap: his hand before it (whoever holds it now)
    ("V_W_ACT", 1),              # the dealer's widow decisions so far (W_* flags)
    ("V_W_BUYER", 1),            # buyer of a hand in a widow auction, -1
    ("V_W_PRICE", 1),            # its price
    ("V_AUCTION", 1),            # what the open auction sells: AU_WIDOW, AU_OLD, AU_SUIT; -1 no auction open
    ("V_HIGH", 1),               # the auction's high bid (0 none)
    ("V_HIGH_BY", 1),            # its bidder, -1
    ("V_ACTIVE", 1),             # bit mask of the bidders who have not passed
    ("V_PAY_SUIT", 1),           # pay suit of the deal (0 C, 1 D, 2 H, 3 S)
    ("V_SEQ", 1),                # sequence start, ace-high rank index (2 -> 0 .. Q -> 10)
    ("V_SUIT_BY", 1),            # winner of the pay-suit auction, -1
    ("V_SUIT_PRICE", 1),         # its price
    ("V_CUR_BET", 1),            # highest total bet of the betting round
    ("V_OWE", 1),                # chips this seat must put in to call
    ("V_RAISES", 1),             # raises made in the betting round
    ("V_POT", 1),                # chips in the pot bet for (the Pot space; in a clearing round the clearing pot)
    ("V_FOLDED", 1),             # bit mask of the folded seats (this betting round)
    ("V_ACTED", 1),              # bit mask of the seats that acted since the last bet or raise
    ("V_MAX_AMOUNT", 1),         # largest bet or raise increment allowed now
    ("V_MAX_RAISES", 1),         # raises allowed per betting round (option; the guard when unlimited)
    ("V_PLAYED", 1),             # cards played in Phase 3 (mask)
    ("V_BANNED", 1),             # suit just stopped (may not be led), -1
    ("V_COLOR", 1),              # colour alternation: required colour 0 black 1 red, -1 off
    ("V_FIRST_LEAD", 1),         # 1 before the first lead of Phase 3
    ("V_LEADS", 1),              # leads made in Phase 3
    ("V_POT_WIN", 1),            # bit mask of the Phase-2 pot winners (0 before the showdown)
    ("V_TIMING", 1),             # payout timing: 0 Phase 1, 1 when played (Rummoli)
    ("V_CLEARING", 1),           # clearing round in play (0-based), -1 outside the clearing rounds
    ("V_BOARD", N_SPACES),       # V_BOARD + i: chips on board space i (SP_*)
    ("V_HELD", MAX_PLAYERS),     # V_HELD + p: cards seat p holds
    ("V_CHIPS", MAX_PLAYERS),    # V_CHIPS + p: seat p's balance change in this deal so far (antes included)
    ("V_CONTRIB", MAX_PLAYERS),  # V_CONTRIB + p: seat p's total bet in this betting round
    ("V_SHOWN", MAX_PLAYERS),    # V_SHOWN + p: cards of seat p's hand everybody has seen (its Phase-1 pay cards,
                                 # its poker hand at a showdown)
)

# trace rows: [code, seat, a, b]
T_DEAL = 1       # a = hand mask (seat -1: the widow)
T_BOARD = 2      # a = space, b = chips after the antes
T_ACTION = 3     # a = action
T_CLAIM = 4      # a = space, b = chips taken
T_SHOW = 5       # a = poker cards, b = strength class
T_POT = 6        # a = winners mask, b = chips each
T_PLAY = 7       # a = card
T_STOP = 8       # a = last card of the stopped sequence
T_END = 9        # a = reason, b = seat out
T_PAYMENT = 10   # a = chips, b = receiver (-1 the kitty)
T_CLEAR = 11     # a = prize, b = dealer of the clearing round
T_DIALS = 12     # a = pay suit, b = sequence start
T_ANTE = 13      # a = chips each seat puts on each of the 9 spaces (before the T_BOARD rows)
T_SOLD = 14      # seat = buyer, a = price, b = receiver (the dealer; -1 the kitty: pay suit)
T_STAKE = 15     # a = chips seat puts in by a check/call/bet/raise, b = 0 Pot space, 1 clearing pot
T_PRIZE = 16     # a = chips seat wins from the clearing pot
T_CLDEAL = 17    # a = seat's 5 cards for a clearing round, b = their strength class

# ---- record columns (one int32 row per deal; sim.games.tripoli names them) ----------------
# a seat's block of columns: RC_SEAT + SEAT_COLS * p + SC_*
(SC_PAY, SC_WIDOW, SC_PH1, SC_POKER, SC_MICH, SC_CLEAR, SC_HAND, SC_LEFT,
 SEAT_COLS) = offsets(
    ("SC_PAY", 1),               # payout (balance change in the deal)
    ("SC_WIDOW", 1),             # ledger L_WIDOW
    ("SC_PH1", 1),               # ledger L_PAY (Phase-1 pay cards)
    ("SC_POKER", 1),             # ledger L_POKER
    ("SC_MICH", 1),              # ledger L_MICHIGAN
    ("SC_CLEAR", 1),             # ledger L_CLEAR (clearing rounds)
    ("SC_HAND", 1),             # poker category of its hand (-1 none)
    ("SC_LEFT", 1),             # cards left in its hand
)
(RC_SESSION, RC_DEAL_NO, RC_DEALER, RC_REASON, RC_WINNER, RC_MWIN, RC_LEADS, RC_TRUNC, RC_ERR, RC_WIDOW, RC_W_BUYER,
 RC_W_PRICE, RC_PAY_SUIT, RC_SEQ, RC_SUIT_BY, RC_SUIT_PRICE, RC_POT, RC_POT_WIN, RC_POKER_END, RC_RAISES, RC_FOLDED,
 RC_CLEAR_PRIZE, RC_BOARD, RC_SEAT,
 RECORD_COLS) = offsets(
    ("RC_SESSION", 1),           # session number
    ("RC_DEAL_NO", 1),           # deal number inside the session
    ("RC_DEALER", 1),
    ("RC_REASON", 1),            # R_*
    ("RC_WINNER", 1),            # seat with the unique highest payout, -1
    ("RC_MWIN", 1),              # seat that went out in Phase 3, -1
    ("RC_LEADS", 1),             # Phase-3 leads
    ("RC_TRUNC", 1),
    ("RC_ERR", 1),
    ("RC_WIDOW", 1),             # W_* flags
    ("RC_W_BUYER", 1),
    ("RC_W_PRICE", 1),
    ("RC_PAY_SUIT", 1),
    ("RC_SEQ", 1),               # sequence start rank (2..12, 11 = J, 12 = Q)
    ("RC_SUIT_BY", 1),
    ("RC_SUIT_PRICE", 1),
    ("RC_POT", 1),               # chips contested in the poker pot
    ("RC_POT_WIN", 1),           # poker winners mask
    ("RC_POKER_END", 1),
    ("RC_RAISES", 1),
    ("RC_FOLDED", 1),
    ("RC_CLEAR_PRIZE", 1),       # chips pooled for the clearing rounds (last deal of a session)
    ("RC_BOARD", N_SPACES),      # RC_BOARD + i: chips on space i after the deal
    ("RC_SEAT", SEAT_COLS * MAX_PLAYERS),   # RC_SEAT + SEAT_COLS * p + SC_*: seat p's columns
)
