"""Tonk's layouts and codes: the option slots, the state fields, the plug-in's view, the record
columns (declared with ``kernels.layout.offsets``: no offset is numbered by hand), the end
reasons, the actions, the check-mode violations, the strategy ids and the trace rows.

Plain module-level ints, read by numba as compile-time constants. The records depend on these
numbers: ``tests/test_layouts.py`` checks every declared layout's names against its rows and its
values against the ones the records were written with.
"""
from cardsim.kernels.layout import offsets
from cardsim.kernels.search import SP_EXTRA, SP_PRM

MAX_PLAYERS = 4
MAX_REDEALS = 100
MAX_ACTS = 128
CHUNK = 512

# ---- options array (built by sim.games.tonk.TonkOptions; the package docstring's table) ----
(O_PLAYERS, O_INITIAL_UPCARD, O_DT49, O_DT50, O_TIE_SAME_DEALER, O_HIT_OWN_ONLY, O_REDISCARD, O_TONK_NEW_SPREAD,
 O_CAUGHT_BONUS, O_CAUGHT_PAYS_BASE, O_DRY_TIE, O_DRY_CAP, O_MUST_SPREAD, O_ACES_EXC, O_HIT_BLOCKS, O_MAX_HITS,
 O_PICKUP_USE, O_FIRST_DEALER, O_STAKE, O_MAX_TURNS,
 O_SIZE) = offsets(
    ("O_PLAYERS", 1),            # n_players
    ("O_INITIAL_UPCARD", 1),     # initial_upcard
    ("O_DT49", 1),               # deal_tonk_totals holds 49
    ("O_DT50", 1),               # deal_tonk_totals holds 50
    ("O_TIE_SAME_DEALER", 1),    # tonk_tie_redeal_same_dealer
    ("O_HIT_OWN_ONLY", 1),       # hit_own_spreads_only
    ("O_REDISCARD", 1),          # allow_rediscard_of_taken_card
    ("O_TONK_NEW_SPREAD", 1),    # tonk_out_requires_new_spread
    ("O_CAUGHT_BONUS", 1),       # caught_lowest_bonus: 0 all_others, 1 above_knocker_only, 2 none
    ("O_CAUGHT_PAYS_BASE", 1),   # caught_knocker_also_pays_base
    ("O_DRY_TIE", 1),            # dry_tie_rule: 0 each_tied_collects, 1 void
    ("O_DRY_CAP", 1),            # max_turns_after_stock_empty (turns)
    ("O_MUST_SPREAD", 1),        # must_spread
    ("O_ACES_EXC", 1),           # three_aces_exception
    ("O_HIT_BLOCKS", 1),         # hit_blocks_drop
    ("O_MAX_HITS", 1),           # max_hits_per_turn (-1 = unlimited)
    ("O_PICKUP_USE", 1),         # discard_pickup_must_be_used
    ("O_FIRST_DEALER", 1),       # first_dealer (-1 random, else the seat)
    ("O_STAKE", 1),              # stake S
    ("O_MAX_TURNS", 1),          # max_turns
)

# ---- state fields (int64 array) ------------------------------------------------
(N, DEALER, CUR, PHASE, TURNS, STOCK_PTR, PILE_LEN, TAKEN, NEW_SPREAD, HITS, DRY_TURNS, REASON, KNOCKER, WINNER,
 TRUNC, REDEALS, BLOCKED, ERR, TR_LEN, PILE_MASK, HAND, BOOK, RUN, PAY, COUNT, DECK, PILE, KNOWN,
 ST_SIZE) = offsets(
    ("N", 1),                    # number of players
    ("DEALER", 1),               # dealer seat
    ("CUR", 1),                  # seat to act
    ("PHASE", 1),                # P_START / P_MELD / P_OVER
    ("TURNS", 1),                # turns started this hand
    ("STOCK_PTR", 1),            # index in the deck of the next stock card (52 = stock empty)
    ("PILE_LEN", 1),             # cards on the discard pile
    ("TAKEN", 1),                # card taken from the discard pile this turn, or -1
    ("NEW_SPREAD", 1),           # 1 once the player to act laid a new spread this turn
    ("HITS", 1),                 # hits made this turn
    ("DRY_TURNS", 1),            # turns started since the stock ran out
    ("REASON", 1),               # end reason (R_*), -1 while playing
    ("KNOCKER", 1),              # knocking seat or -1
    ("WINNER", 1),               # seat with the unique highest payout, or -1
    ("TRUNC", 1),                # 1 if a cap ended the hand
    ("REDEALS", 1),              # void deals redealt inside this record
    ("BLOCKED", 1),              # bit p: seat p may not knock at its next turn start
    ("ERR", 1),                  # check-mode violation code (0 = none)
    ("TR_LEN", 1),               # trace rows written
    ("PILE_MASK", 1),            # the cards in the discard pile (a mask; what a plug-in's view shows)
    ("HAND", MAX_PLAYERS),       # HAND + p: hand mask of seat p
    ("BOOK", MAX_PLAYERS),       # BOOK + p: cards in books laid by seat p
    ("RUN", MAX_PLAYERS),        # RUN + p: cards in runs laid by seat p
    ("PAY", MAX_PLAYERS),        # PAY + p: payout of seat p (chips, zero-sum)
    ("COUNT", MAX_PLAYERS),      # COUNT + p: point count of seat p's hand at the end
    ("DECK", 52),                # DECK .. DECK+51: the shuffled deck (stock = DECK[STOCK_PTR:])
    ("PILE", 52),                # PILE .. PILE+51: discard pile, bottom first
    ("KNOWN", MAX_PLAYERS),      # KNOWN + p: cards seat p took from the discard pile (public; a search's
                                 # determinization keeps those still in that hand there)
)
# (reset_hand clears CUR .. DECK-1 and KNOWN: everything a hand writes but N and DEALER)

P_START = 0
P_MELD = 1
P_OVER = 2

# ---- end reasons ---------------------------------------------------------------
R_DEAL_TONK = 0
R_VOID = 1
R_TONK_OUT = 2
R_OUT = 3
R_KNOCK_WON = 4
R_KNOCK_CAUGHT = 5
R_DRY = 6
R_TURN_CAP = 7
R_HIT_OUT = 8
REASON_NAMES = ("deal_tonk", "void_redeal", "tonk_out", "out", "knock_won", "knock_caught",
                "dry", "turn_cap", "hit_out")

# ---- actions: kind in bits 0-3, payload above (the codec: ``actions``) ----------
A_KNOCK = 1
A_DRAW_STOCK = 2
A_DRAW_DISCARD = 3
A_END_DRY = 4
A_LAY = 5          # payload: card mask << 8
A_HIT = 6          # payload: card << 8 | owner << 16 | (0 book, 1 run) << 20
A_DISCARD = 7      # payload: card << 8
ACTION_NAMES = ("", "knock", "draw_stock", "draw_discard", "end_dry", "lay", "hit", "discard")

# ---- check-mode violations -----------------------------------------------------
E_CARDS = 1
E_HAND_SIZE = 2
E_ZERO_SUM = 3
E_NO_MOVES = 4
E_CAP = 5
E_SPREAD = 6
E_BOUND = 7
E_PLUGIN = 8       # a plug-in strategy returned no legal action's index (checked in every mode)
ERROR_NAMES = ("", "cards not conserved", "hand size out of bounds", "payouts not zero-sum",
               "no legal action", "turn cap exceeded", "invalid spread on the table",
               "payout out of bounds", "a plug-in strategy returned an illegal action")

# ---- strategies ----------------------------------------------------------------
S_RANDOM = 0
S_GREEDY = 1       # no params
S_KNOCKER = 2      # params: threshold
S_WATCHER = 3      # params: threshold, decay, wary_cards
S_FUZZ = 4         # params: knock, take, end_dry, meld (chances; see fuzz_choice)
S_PLANNER = 5      # params: watcher's three, then dry_end, take_low, hold_spreads, hold_min_stock
S_SEARCH = 6       # params: the search row (kernels.search: worlds, rollouts, budget, policy, ...)
S_EXPERT = 7       # params: planner's seven, then knock_odds, pair_keep, near_keep, feed (issue 41)
SX_INFER = SP_EXTRA  # search row: the critique's inference candidates per world (``infer``; 0 = uniform
                     # worlds): set by ``cardsim critique --infer``, read by the critique only (a search
                     # seat in play has no history of the deal to weigh its worlds by)

# ---- parameter rows (``sim.games.tonk.strategies``: each ParamSpec names its slot) ------------
# knocker, watcher, planner and expert share one row, each reading a prefix of it
(P_THRESHOLD, P_DECAY, P_WARY_CARDS, P_DRY_END, P_TAKE_LOW, P_HOLD_SPREADS, P_HOLD_MIN_STOCK, P_KNOCK_ODDS,
 P_PAIR_KEEP, P_NEAR_KEEP, P_FEED,
 P_SIZE) = offsets(
    ("P_THRESHOLD", 1),          # knocker on: knock at this count or below
    ("P_DECAY", 1),              # watcher on: the threshold falls by this per round
    ("P_WARY_CARDS", 1),         # watcher on: no knock while a rival holds this many cards or fewer
    ("P_DRY_END", 1),            # planner on (``plan``; greedy, knocker, watcher play these four at 0)
    ("P_TAKE_LOW", 1),
    ("P_HOLD_SPREADS", 1),
    ("P_HOLD_MIN_STOCK", 1),
    ("P_KNOCK_ODDS", 1),         # expert on (issue 41)
    ("P_PAIR_KEEP", 1),
    ("P_NEAR_KEEP", 1),
    ("P_FEED", 1),
)
# the fuzzer's chances (``fuzz_choice``)
F_KNOCK, F_TAKE, F_END_DRY, F_MELD, F_SIZE = offsets(("F_KNOCK", 1), ("F_TAKE", 1), ("F_END_DRY", 1), ("F_MELD", 1))
N_PARAMS = SP_PRM + P_SIZE   # a row holds the longest of these and the search's row
PLAN = P_DRY_END    # the planner's first slot; greedy, knocker and watcher play its four at 0
PLUGIN = 64        # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8  # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k

# ---- what a plug-in's decide(view, legal, n, prm) sees: its seat's view ----------
(V_SEAT, V_KIND, V_HAND, V_TOP, V_PILE, V_PILE_LEN, V_STOCK, V_TURNS, V_TAKEN, V_NEW_SPREAD, V_HITS, V_DRY_TURNS,
 V_BLOCKED, V_PLAYERS, V_DEALER, V_SPARE, V_HELD, V_BOOKS, V_RUNS,
 VIEW_SIZE) = offsets(
    ("V_SEAT", 1),               # the deciding seat
    ("V_KIND", 1),               # decision kind: K_START (knock / draw / take / end a dry hand) or K_MELD
    ("V_HAND", 1),               # own hand (card mask)
    ("V_TOP", 1),                # top card of the discard pile, -1 if none
    ("V_PILE", 1),               # every card in the discard pile (mask; the pile is face up)
    ("V_PILE_LEN", 1),           # cards in the discard pile
    ("V_STOCK", 1),              # cards left in the stock
    ("V_TURNS", 1),              # turns played this hand
    ("V_TAKEN", 1),              # card taken from the discard this turn, or -1
    ("V_NEW_SPREAD", 1),         # 1 once this seat laid a new spread this turn
    ("V_HITS", 1),               # hits made this turn
    ("V_DRY_TURNS", 1),          # turns started since the stock ran out
    ("V_BLOCKED", 1),            # 1 when this seat may not knock this turn
    ("V_PLAYERS", 1),            # players at the table
    ("V_DEALER", 1),             # the dealer's seat
    ("V_SPARE", 1),              # unused, always 0 (the slots after it keep the offsets plug-ins know)
    ("V_HELD", MAX_PLAYERS),     # V_HELD + p: cards held by seat p
    ("V_BOOKS", MAX_PLAYERS),    # V_BOOKS + p: cards seat p laid in books (mask)
    ("V_RUNS", MAX_PLAYERS),     # V_RUNS + p: cards seat p laid in runs (mask)
)
K_START = 0
K_MELD = 1

# ---- trace rows: [code, seat, a, b] --------------------------------------------
T_DEAL = 1       # a = hand mask
T_UPCARD = 2     # a = card
T_ACTION = 3     # a = action, b = card drawn (draw_stock: from the stock; draw_discard: the
                 # top discard taken) or -1
T_VOID = 4       # two or more deal-tonks; a = redeal number
T_END = 5        # a = reason, b = winner

# ---- record columns (one int32 row per deal; sim.games.tonk names them) -----------
(R_COL_DEALER, R_COL_REASON, R_COL_WINNER, R_COL_KNOCKER, R_COL_TURNS, R_COL_STOCK, R_COL_REDEALS, R_COL_TRUNC,
 R_COL_ERR, R_COL_PAY, R_COL_COUNT, R_COL_LEFT,
 RECORD_COLS) = offsets(
    ("R_COL_DEALER", 1),         # dealer seat
    ("R_COL_REASON", 1),         # end reason (R_*)
    ("R_COL_WINNER", 1),         # seat with the unique highest payout, or -1
    ("R_COL_KNOCKER", 1),        # knocking seat or -1
    ("R_COL_TURNS", 1),          # turns started in the hand
    ("R_COL_STOCK", 1),          # cards left in the stock
    ("R_COL_REDEALS", 1),        # void deals redealt inside the record
    ("R_COL_TRUNC", 1),          # 1 if a cap ended the hand
    ("R_COL_ERR", 1),            # check-mode violation code (0 = none)
    ("R_COL_PAY", MAX_PLAYERS),  # R_COL_PAY + p: payout of seat p
    ("R_COL_COUNT", MAX_PLAYERS),  # R_COL_COUNT + p: point count of seat p's hand at the end
    ("R_COL_LEFT", MAX_PLAYERS),   # R_COL_LEFT + p: cards left in seat p's hand
)
