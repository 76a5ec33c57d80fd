"""Telefunken's layouts and codes: the option slots, the state fields, the table meld rows, the
plug-in's view, the record columns, the parameter rows of the planner family and of the search and
the critique's snapshots (declared with ``kernels.layout.offsets``: no offset is numbered by hand),
the phases, the end reasons, the actions, the check-mode violations, the strategy ids, the plug-in
decision kinds and the trace rows.

Plain module-level ints, read by numba as compile-time constants. The records depend on these
numbers: ``tests/telefunken/test_telefunken_layout.py`` checks every declared layout's names against
its rows and its values against the ones the records were written with.
"""
from cardsim.kernels import melds as M
from cardsim.kernels.layout import offsets
from cardsim.kernels.search import SP_EXTRA, SP_PRM

RULES_VERSION = 5          # 2: the Ecuador exchange is offered only when needed; 3: a pure trio closes
#                            only under fourth_suit_only (A14); final_discard_required holds in Hand 7;
#                            the §17 variant features and presets; the going-out work cap;
#                            4: a capped hand that is blocked (A32) ends "blocked", not truncated;
#                            5: so does a capped closed hand whose go-downs would all leave their
#                            seats stuck (no chips, groups_allow_duplicate_suits=false, 5+5)
MAX_PLAYERS = 5
HANDS = 7                       # hands of the default game (O_HANDS: 1..MAX_HANDS)
MAX_HANDS = 8
DECK_SIZE = 108
JK = 52
MAX_MELDS = 40
MAX_ACTS = 4096
MAX_ACTIONS_PER_TURN = 400      # guard: table actions in one turn (never reached in play)
CHUNK = 64
STREAM_HAND = 16                # hand h shuffles from stream STREAM_HAND + h
BIG = 1 << 20                   # a distance no holding reaches (the strategies' "never")

# ---- options array ---------------------------------------------------------------
RULES_ROOM = 40                 # slots kept for the melds rules array (R_SIZE used)
C_STRIDE = 16                   # slots of one contracts-table row (C_SIZE used)
CONTRACT_ROWS = 16
(O_PLAYERS, O_CHIPS, O_LEFTOVER_POINTS, O_CUT_MODEL, O_CUT_AIM, O_CUT_SPREAD, O_CUT_MIN, O_CUT_MAX, O_CUT_JOKERS,
 O_EXACT_BONUS, O_EXACT_POINTS, O_EXACT_TARGET, O_FREE_UPCARD, O_UPCARD_BUYABLE, O_JOKER_PRIOR, O_OWN_NEW,
 O_BUY_AFTER_DOWN, O_DISCARDER_BUYS, O_EXHAUSTION, O_JOKER_NOW, O_FINAL_DISCARD, O_H7_AT_ONCE, O_BUY_PENALTY,
 O_MAX_TURNS, O_OWN_JOKER_OPS, O_EXCHANGE_MODEL, O_EXTRA_MELDS, O_EXTRA_RUNS, O_FIRST_DEALER, O_HANDS, O_CARDS,
 O_DEALER_OPENS, O_WILD_TWOS, O_TAKE_DISCARD, O_IN_TURN_CHIP, O_RUN_TAKE, O_CHOOSE, O_SPARE, O_EXCHANGE, O_NO_BUY,
 O_RULES, O_CONTRACTS,
 O_SIZE) = offsets(
    ("O_PLAYERS", 1),            # num_players 3..5
    ("O_CHIPS", 1),              # chips_per_player
    ("O_LEFTOVER_POINTS", 1),    # leftover_chip_points (per unused chip, added at the end)
    ("O_CUT_MODEL", 1),          # 0 aimed, 1 uniform
    ("O_CUT_AIM", 1),            # cut_aim (bottom portion B)
    ("O_CUT_SPREAD", 1),         # cut_spread
    ("O_CUT_MIN", 1),            # cut_min (uniform model)
    ("O_CUT_MAX", 1),            # cut_max (uniform model)
    ("O_CUT_JOKERS", 1),         # cut_joker_keep: 0 mandatory, 1 optional, 2 off
    ("O_EXACT_BONUS", 1),        # exact_cut_bonus: 0 chip, 1 card, 2 points, 3 none
    ("O_EXACT_POINTS", 1),       # exact_cut_points
    ("O_EXACT_TARGET", 1),       # exact_cut_target: 0 deal_plus_upcard, 1 deal_only, 2 either
    ("O_FREE_UPCARD", 1),        # first_player_free_upcard
    ("O_UPCARD_BUYABLE", 1),     # upcard_buyable
    ("O_JOKER_PRIOR", 1),        # joker_ops_require_prior_turn_meld
    ("O_OWN_NEW", 1),            # first_meld_turn_layoff_own: 0 none, 1 non_contract, 2 all
    ("O_BUY_AFTER_DOWN", 1),     # buy_after_meld_allowed
    ("O_DISCARDER_BUYS", 1),     # discarder_may_buy
    ("O_EXHAUSTION", 1),         # stock_exhaustion: 0 reshuffle_all, 1 reshuffle_keep_top, 2 end_hand
    ("O_JOKER_NOW", 1),          # retrieved_joker_use_immediately
    ("O_FINAL_DISCARD", 1),      # final_discard_required
    ("O_H7_AT_ONCE", 1),         # hand7_must_go_out_at_once
    ("O_BUY_PENALTY", 1),        # buy_penalty_cards
    ("O_MAX_TURNS", 1),          # max_turns_per_hand
    ("O_OWN_JOKER_OPS", 1),      # joker_ops_on_own_melds
    ("O_EXCHANGE_MODEL", 1),     # joker_exchange_model: 0 venezuela, 1 ecuador
    ("O_EXTRA_MELDS", 1),        # allow_extra_melds
    ("O_EXTRA_RUNS", 1),         # allow_runs (extra runs; contract runs are always allowed)
    ("O_FIRST_DEALER", 1),       # -1 random, else the seat dealing Hand 1
    ("O_HANDS", 1),              # hands in the game (= contracts listed; 7, Peru 1 6, Farmer's 8)
    ("O_CARDS", 1),              # cards_dealt to each player (11; Peru 2 12)
    ("O_DEALER_OPENS", 1),       # dealer_opens: the dealer gets one card more and discards first, no upcard
    ("O_WILD_TWOS", 1),          # wild_twos: every 2 is a wild card (scored as low_card_points gives it)
    ("O_TAKE_DISCARD", 1),       # take_discard: a turn may start by taking the top discard free
    ("O_IN_TURN_CHIP", 1),       # in_turn_buy_costs_chip (0: Farmer's in-turn purchase is free)
    ("O_RUN_TAKE", 1),           # run_wild_takeback: a natural may take a wild card's place in a run (Peru 1)
    ("O_CHOOSE", 1),             # dealer_chooses_contract: each hand's dealer picks an unused contract
    ("O_SPARE", 3),              # unused
    ("O_EXCHANGE", 1 + MAX_HANDS),   # O_EXCHANGE + h: exchange rounds before Hand h (1..8)
    ("O_NO_BUY", 1 + MAX_HANDS),     # O_NO_BUY + k: 1 = nobody may buy while contract k is played
    ("O_RULES", RULES_ROOM),         # melds rules array (R_SIZE entries, room for RULES_ROOM)
    ("O_CONTRACTS", CONTRACT_ROWS * C_STRIDE),  # contracts table: CONTRACT_ROWS rows of C_STRIDE (C_SIZE used)
)
# Fixed offsets, not computed from cardsim.kernels.melds sizes: numba's cache does not notice a change
# of another module's constants, so layouts shared with Python stay literal.
assert M.R_SIZE <= RULES_ROOM and M.C_SIZE <= C_STRIDE and M.CONTRACT_ROWS == CONTRACT_ROWS
assert M.MAX_HANDS == MAX_HANDS

# ---- state fields (int64 array) ----------------------------------------------------
KN_STRIDE = 53                  # KN's row of one seat: copies of each card (52 joker)
(N, HNO, DEALER, CUR, PHASE, TURN, DISCARD, DISCARDER, ASK, NEXTP, TABLE_ACTS, JOKER_DUE, OUT, HREASON, TRUNC,
 RESHUF, NMELDS, STOCK_LO, STOCK_HI, PILE_LEN, POOL_LEN, EX_ROUND, ERR, TR_LEN, FIRST_DEALER, CUT_B, CUT_KEPT,
 CUT_EXACT, GAME_TURNS, GAME_RESHUF, UPCARD, EX_SEAT, WIN_SKIP, CONTRACT, USED, WILD2, UP_OFFER, TAKEN, CAPPED,
 ST_SPARE1, H1, H2, HJ, DOWN, DOWN_TURN, CHIPS, TOTAL, BUYS, PEN, EXK, GBUYS, HT, LASTPEN, CUT_AIMED, CUT_KEEPS,
 KEEP_SET, ST_SPARE2, STOCK, PILE, POOL, KN,
 ST_SIZE) = offsets(
    ("N", 1),            # number of players
    ("HNO", 1),          # hand number 1..7
    ("DEALER", 1),       # dealer of this hand
    ("CUR", 1),          # seat to act
    ("PHASE", 1),        # P_*
    ("TURN", 1),         # turns started in this hand (the global turn index of the current turn)
    ("DISCARD", 1),      # card on offer in the buy window, -1 none
    ("DISCARDER", 1),    # seat that discarded it (the dealer for the upcard)
    ("ASK", 1),          # seat asked now in the buy window
    ("NEXTP", 1),        # seat due to play after the window (the in-turn buyer)
    ("TABLE_ACTS", 1),   # table actions of CUR this turn
    ("JOKER_DUE", 1),    # retrieved jokers that must still be laid this turn
    ("OUT", 1),          # seat that went out, -1
    ("HREASON", 1),      # end reason of the hand (H_*), -1 while playing
    ("TRUNC", 1),        # 1 once any hand hit the turn cap
    ("RESHUF", 1),       # reshuffles this hand
    ("NMELDS", 1),       # melds on the table
    ("STOCK_LO", 1),     # index (in STOCK) of the top card of the stock
    ("STOCK_HI", 1),     # end of the stock
    ("PILE_LEN", 1),     # cards on the discard pile
    ("POOL_LEN", 1),     # cards passed in the exchange round
    ("EX_ROUND", 1),     # exchange rounds left before play
    ("ERR", 1),          # check-mode violation (E_*)
    ("TR_LEN", 1),       # trace rows written
    ("FIRST_DEALER", 1),  # dealer of Hand 1
    ("CUT_B", 1),        # bottom portion of this hand's cut
    ("CUT_KEPT", 1),     # jokers the cutter kept
    ("CUT_EXACT", 1),    # 1 if the cut was exact
    ("GAME_TURNS", 1),   # turns in the game so far
    ("GAME_RESHUF", 1),  # reshuffles in the game so far
    ("UPCARD", 1),       # the upcard of this hand
    ("EX_SEAT", 1),      # seats that finished choosing in this exchange round
    ("WIN_SKIP", 1),     # 1: NEXTP already started its turn and may not buy in turn
    ("CONTRACT", 1),     # contracts-table row of this hand's contract (the hand number unless the
    #                      dealer chooses)
    ("USED", 1),         # bit k: contract k has been played (dealer_chooses_contract)
    ("WILD2", 1),        # 1: twos are wild cards (O_WILD_TWOS), read by give / take
    ("UP_OFFER", 1),     # 1: the P_UPCARD offer is the hand's upcard (0: a discard, take_discard)
    ("TAKEN", 1),        # card taken from the pile this turn under take_discard, -1 none (it may not
    #                      be discarded again this turn)
    ("CAPPED", 1),       # going-out searches of the game that hit their work cap (melds.GO_CAPPED)
    ("ST_SPARE1", 1),    # unused
    ("H1", MAX_PLAYERS),         # H1 + p: seat p's holding, cards held at least once (52-bit mask; no 2s
    #                              when twos are wild)
    ("H2", MAX_PLAYERS),         # H2 + p: cards held twice
    ("HJ", MAX_PLAYERS),         # HJ + p: jokers held
    ("DOWN", MAX_PLAYERS),       # DOWN + p: 1 once seat p went down this hand
    ("DOWN_TURN", MAX_PLAYERS),  # DOWN_TURN + p: the turn it went down
    ("CHIPS", MAX_PLAYERS),      # CHIPS + p: chips left
    ("TOTAL", MAX_PLAYERS),      # TOTAL + p: cumulative penalty
    ("BUYS", MAX_PLAYERS),       # BUYS + p: purchases this hand
    ("PEN", MAX_PLAYERS),        # PEN + p: penalty this hand
    ("EXK", MAX_PLAYERS),        # EXK + p: cards passed in this exchange round (public)
    ("GBUYS", MAX_PLAYERS),      # GBUYS + p: purchases in the game
    ("HT", MAX_PLAYERS),         # HT + p: wild twos held, 2 bits per suit (count of 2C at bit 0, 2D at 2, ..)
    ("LASTPEN", MAX_PLAYERS),    # LASTPEN + p: penalty of the hand before (exact_cut_bonus erase_previous)
    ("CUT_AIMED", 1),    # the cutter's strategy aims the cut at this bottom portion (0: cut_aim)
    ("CUT_KEEPS", 1),    # the cutter's strategy keeps at most this many inspected jokers (optional keep)
    ("KEEP_SET", 1),     # 1: a plug-in cutter chose CUT_KEEPS this hand (K_KEEP)
    ("ST_SPARE2", 2),    # unused
    ("STOCK", DECK_SIZE),        # STOCK .. +108: the stock (top at STOCK_LO)
    ("PILE", DECK_SIZE),         # discard pile, bottom first
    ("POOL", DECK_SIZE),         # exchange pool
    ("KN", KN_STRIDE * MAX_PLAYERS),  # KN + 53 * p + c: copies of card c (52 joker) seat p holds that every
    #                                   seat knows of: taken from the discard pile (bought, the free upcard,
    #                                   take_discard), jokers kept at the cut or taken back from the table;
    #                                   one copy fewer each time p lays, discards or passes a card c; cleared
    #                                   for a seat that passes cards in an exchange (public bookkeeping read
    #                                   only by the search's determinization)
)

# ---- table meld rows: melds M_* fields, then ---------------------------------------
(T_MELD_FIELDS, T_TWOS, T_SPARE, T_OWNER, T_TURN, T_CONTRACT,
 TW) = offsets(
    ("T_MELD_FIELDS", 9),    # columns 0 .. M_SIZE - 1: the melds M_* row
    ("T_TWOS", 1),           # the wild twos among its wild cards (2 bits per suit, as HT)
    ("T_SPARE", 2),          # unused
    ("T_OWNER", 1),          # seat that laid it
    ("T_TURN", 1),           # turn it was laid
    ("T_CONTRACT", 1),       # 1 = a contract meld
)
assert M.M_SIZE <= T_TWOS

# ---- phases --------------------------------------------------------------------------
P_EXCHANGE = 0   # CUR chooses cards to pass
P_UPCARD = 1     # CUR may take the upcard free
P_BUY = 2        # ASK may buy DISCARD
P_ACT = 3        # CUR's steps B and C
P_OVER = 4       # the hand is over
P_OPEN = 5       # the dealer opens by discarding (dealer_opens)
P_CHOOSE = 6     # the dealer picks this hand's contract (dealer_chooses_contract)

# ---- hand end reasons ----------------------------------------------------------------
H_OUT = 0
H_EXHAUSTED = 1  # stock and discard pile both empty (A19)
H_STOCK_END = 2  # stock_exhaustion = end_hand
H_TURN_CAP = 3   # the turn cap ended a hand that could still change (truncated)
H_BLOCKED = 4    # the turn cap ended a blocked hand: no card could ever be laid again (A32)
HAND_REASONS = ("out", "exhausted", "stock_end", "turn_cap", "blocked")
G_COMPLETE = 0
G_TRUNCATED = 1
REASON_NAMES = ("complete", "truncated")

# ---- actions: kind in bits 0-3, fields a << 8, b << 16, c << 24, d << 32, e << 40 ----
A_DRAW = 1        # decline the upcard (draw from the stock)
A_TAKE_UPCARD = 2
A_BUY = 3
A_PASS = 4        # do not buy
A_GO_DOWN = 5     # a = 0, or 1 + the meld whose joker is exchanged (Ecuador), b = card given
A_MELD = 6        # a = MK_GROUP, b = rank, c = jokers | a = MK_RUN, b = suit, c = lo, d = hi, e = joker pos
A_LAYOFF = 7      # a = card (52 joker), b = meld, c = run position
A_SHIFT = 8       # a = card, b = meld, c = new joker position
A_RETRIEVE = 9    # a = meld, b = card, c = second card + 1 (0 = none)
A_GO_OUT7 = 10    # Hand 7: lay the whole partition (and discard the card left, if any)
A_DISCARD = 11    # a = card (52 joker)
A_EX_CARD = 12    # pass a = card in the exchange
A_EX_DONE = 13    # finish choosing the exchange
A_TAKE_WILD = 14  # a = natural card, b = run: the card takes a wild card's place (run_wild_takeback)
A_CHOOSE = 15     # a = contract (dealer_chooses_contract)
ACTION_NAMES = ("", "draw", "take upcard", "buy", "pass", "go down", "meld", "lay off",
                "shift joker", "retrieve joker", "go out", "discard", "pass card",
                "exchange done", "take back wild card", "choose contract")
# In A_LAYOFF, A_DISCARD and A_EX_CARD a wild two is its own card id (suit * 13 + 1); in A_MELD
# a run's e = RUN_FILL lays wild cards on every position of [lo, hi] not held (the general
# meld generator's runs, several wild cards); a group's b = 13 is the wild trío.
RUN_FILL = 31

# ---- check-mode violations -------------------------------------------------------------
E_CARDS = 1
E_MELD = 2
E_CHIPS = 3
E_BUY_DOWN = 4
E_NO_MOVES = 5
E_TOTALS = 6
E_CAP = 7
E_ACTIONS = 8
E_PLUGIN = 9      # a plug-in strategy returned no legal action's index (checked in every mode)
ERROR_NAMES = ("", "cards not conserved (108)", "invalid meld on the table",
               "negative chips", "a player bought after going down", "no legal action",
               "totals differ from the sum of hand penalties", "turn cap exceeded",
               "too many table actions in one turn", "a plug-in strategy returned an illegal action")

# ---- strategies ---------------------------------------------------------------------------
S_RANDOM = 0
S_GREEDY = 1
S_CHIP_SAVER = 2      # params: reserve
S_PATIENT = 3         # params: reserve, near
S_PLANNER = 4         # params: Q_* below
S_FUZZ = 5            # params: greedy (percent of decisions played as greedy), buy (percent of offers
#                       bought), hold (percent of turns that lay nothing): the fuzzer
S_SEARCH = 6          # params: the search row (kernels.search: worlds, rollouts, budget, policy; X_*:
#                       kinds, chip, margin, hands; then the policy's row)
S_EXPERT = 7          # params: the planner's Q_* and the expert's Q_DUMP_AT .. Q_RICH (issue 41; the
#                       module docstring says what it adds to the planner)
# planner parameters (Q_*: indices into its row; the expert's row is the planner's and four more slots)
(Q_RESERVE, Q_NEAR, Q_PER_HAND, Q_DOWN_LEFT, Q_DOWN_TURN, Q_EXCHANGE, Q_KEEP_JOKERS, Q_CUT_AIM, Q_DENY, Q_STALL,
 Q_ALT, Q_H7_GROWTH, Q_DUMP_AT, Q_DUMP_NEED, Q_WILD_ROOM, Q_RICH,
 Q_SIZE) = offsets(
    ("Q_RESERVE", 1),     # buy before the last hand only while holding more than this (plus Q_PER_HAND)
    ("Q_NEAR", 1),        # buy only if at most this many cards are missing after buying
    ("Q_PER_HAND", 1),    # chips kept back per hand still to come after this one
    ("Q_DOWN_LEFT", 1),   # go down only when at most this many cards would be left in hand ..
    ("Q_DOWN_TURN", 1),   # .. or from this turn of the hand on
    ("Q_EXCHANGE", 1),    # cards passed in the exchange (lone cards, least useful first)
    ("Q_KEEP_JOKERS", 1),  # inspected jokers kept at the cut when the keep is optional
    ("Q_CUT_AIM", 1),     # bottom portion the cut aims at (0: the rules' cut_aim)
    ("Q_DENY", 1),        # buy a discarded wild card, or a natural a seat asked later publicly collects
    #                       (collected_after), to deny it while holding more chips than this (-1: never)
    ("Q_STALL", 1),       # turns of a hand after which a standoff is broken (0: never)
    ("Q_ALT", 1),         # alternative contract to go down with (0: the most points laid; k: the k-th)
    ("Q_H7_GROWTH", 1),   # a purchase in a hand laid at once is counted to add this many cards to lay (-1: all it adds)
    ("Q_DUMP_AT", 1),     # expert: shed points (discard the highest-penalty card) once a seat that is down holds at
    #                       most this many cards ..                                  (0: never)
    ("Q_DUMP_NEED", 1),   # .. while this seat, not down, still misses at least this many cards of its contract
    ("Q_WILD_ROOM", 1),   # expert: wild cards kept beyond joker_room while not down (for the melds laid after going down)
    ("Q_RICH", 1),        # expert: 1 = lay the extra meld that lays the most points first (richest_meld), 0 = the first
)
N_PARAMS = SP_PRM + Q_SIZE    # a seat's parameter row: room for the search's row and its policy's Q_* row
# chip_saver's row is Q_RESERVE; patient's Q_RESERVE, Q_NEAR (the planner's slots); fuzz's:
(F_GREEDY, F_BUY, F_HOLD,
 F_SIZE) = offsets(
    ("F_GREEDY", 1),      # percent of decisions (but purchases) taken as greedy would
    ("F_BUY", 1),         # percent of offered discards bought
    ("F_HOLD", 1),        # percent of the other turns that lay nothing (a random discard)
)
PLUGIN = 64           # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8     # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k

# ---- plug-in decision kinds (what ``decide`` is asked; legal[:n] as described) -----------------
K_BUY = 0        # the buy window: legal = [A_BUY, A_PASS]
K_UPCARD = 1     # take the upcard (or, take_discard, the top discard) free: legal = [A_TAKE_UPCARD, A_DRAW]
K_GO_DOWN = 2    # not down, first table action of the turn: the A_GO_DOWN actions (one per alternative
#                  contract held, or per Ecuador exchange), then A_HOLD (do not go down: on to the discard)
K_GO_OUT = 3     # a hand laid at once (Hand 7): legal = [A_GO_OUT7, A_HOLD]
K_LAY = 4        # down: the extra melds (A_MELD), lay-offs (A_LAYOFF), joker operations (A_SHIFT,
#                  A_RETRIEVE, A_TAKE_WILD), then A_HOLD (lay nothing more: on to the discard); no A_HOLD
#                  while a retrieved joker must still be laid
K_DISCARD = 5    # step C (and the dealer's opening discard): the A_DISCARD actions
K_EXCHANGE = 6   # the Hand-6 exchange, one card at a time: the A_EX_CARD actions, then A_EX_DONE
K_CHOOSE = 7     # dealer_chooses_contract: the A_CHOOSE actions (a = an unused contract)
K_CUT = 8        # the cutter's aim (aimed cut model): legal[i] = i + 1, the bottom portion aimed at
K_KEEP = 9       # cut_joker_keep=optional, jokers among the three inspected cards: legal[i] = i, how many to keep
N_KINDS = 10
A_HOLD = 0       # legal code of K_GO_DOWN / K_GO_OUT / K_LAY: none of these actions, go on to the discard


# ---- a plug-in's view (int64, VIEW_SIZE): what the deciding seat may see ------------------------
(V_SEAT, V_KIND, V_HNO, V_HANDS, V_DEALER, V_PLAYERS, V_TURN, V_CONTRACT, V_AT_ONCE, V_C_GROUPS, V_C_GROUP_SIZE,
 V_C_PURE, V_C_RUNS, V_C_RUN_MIN, V_C_NEXT, V_H1, V_H2, V_JOKERS, V_TWOS, V_WILD_TWOS, V_OFFER, V_DISCARDER, V_TOP,
 V_PILE_LEN, V_PILE1, V_PILE2, V_PILE_JOKERS, V_STOCK, V_TABLE_ACTS, V_JOKER_DUE, V_TAKEN, V_UP_OFFER, V_RESHUF,
 V_EX_ROUND, V_USED, V_CUT_KEPT, V_CUT_EXACT, V_RULE_CUT_AIM, V_RULE_CUT_SPREAD, V_NMELDS, V_HELD, V_DOWN,
 V_DOWN_TURN, V_CHIPS, V_TOTAL, V_BUYS, V_EXK, V_GBUYS, V_TABLE,
 VIEW_SIZE) = offsets(
    ("V_SEAT", 1),           # the deciding seat
    ("V_KIND", 1),           # the decision kind (K_*)
    ("V_HNO", 1),            # hand number (1 ..)
    ("V_HANDS", 1),          # hands in the game
    ("V_DEALER", 1),         # dealer of this hand
    ("V_PLAYERS", 1),        # players at the table
    ("V_TURN", 1),           # turns started in this hand
    ("V_CONTRACT", 1),       # contracts-table row of this hand's contract (the hand number until chosen)
    ("V_AT_ONCE", 1),        # 1: this hand must be laid in one go (Hand 7)
    ("V_C_GROUPS", 1),       # the contract (its first row): groups ..
    ("V_C_GROUP_SIZE", 1),  # .. of this size ..
    ("V_C_PURE", 1),        # .. pure groups among them ..
    ("V_C_RUNS", 1),        # .. runs ..
    ("V_C_RUN_MIN", 1),     # .. of at least this length
    ("V_C_NEXT", 1),        # the contract's alternative row (0: none)
    ("V_H1", 1),            # own holding: naturals held at least once (mask, bit 13 * suit + rank, rank 0 = ace)
    ("V_H2", 1),            # own naturals held twice (mask)
    ("V_JOKERS", 1),        # own jokers
    ("V_TWOS", 1),          # own wild twos (2 bits per suit: count of 2C at bit 0, 2D at 2, ..)
    ("V_WILD_TWOS", 1),     # 1: twos are wild
    ("V_OFFER", 1),         # the card offered in the buy window (52 = joker), -1 none
    ("V_DISCARDER", 1),     # the seat that discarded it (the dealer for the upcard)
    ("V_TOP", 1),           # top card of the discard pile, -1 if empty
    ("V_PILE_LEN", 1),      # cards in the discard pile
    ("V_PILE1", 1),         # discard pile: cards there at least once (mask) ..
    ("V_PILE2", 1),         # .. twice (mask) ..
    ("V_PILE_JOKERS", 1),   # .. and its jokers
    ("V_STOCK", 1),         # cards left in the stock
    ("V_TABLE_ACTS", 1),    # table actions of the seat to act this turn
    ("V_JOKER_DUE", 1),     # retrieved jokers it must still lay this turn
    ("V_TAKEN", 1),         # card taken from the pile this turn (may not be discarded again), -1
    ("V_UP_OFFER", 1),      # K_UPCARD: 1 = the hand's upcard, 0 = a discard (take_discard)
    ("V_RESHUF", 1),        # reshuffles this hand
    ("V_EX_ROUND", 1),      # exchange rounds left before play
    ("V_USED", 1),          # bit k: contract k was played (dealer_chooses_contract)
    ("V_CUT_KEPT", 1),      # jokers the cutter kept this hand
    ("V_CUT_EXACT", 1),     # 1: this hand's cut was exact
    ("V_RULE_CUT_AIM", 1),  # the rules' cut_aim ..
    ("V_RULE_CUT_SPREAD", 1),  # .. and cut_spread
    ("V_NMELDS", 1),        # melds on the table
    ("V_HELD", MAX_PLAYERS),          # V_HELD + p: cards seat p holds
    ("V_DOWN", MAX_PLAYERS),          # V_DOWN + p: 1 once seat p went down this hand
    ("V_DOWN_TURN", MAX_PLAYERS),     # V_DOWN_TURN + p: the turn it went down
    ("V_CHIPS", MAX_PLAYERS),         # V_CHIPS + p: chips left
    ("V_TOTAL", MAX_PLAYERS),         # V_TOTAL + p: penalty total so far
    ("V_BUYS", MAX_PLAYERS),          # V_BUYS + p: purchases this hand
    ("V_EXK", MAX_PLAYERS),           # V_EXK + p: cards passed in this exchange round
    ("V_GBUYS", MAX_PLAYERS),         # V_GBUYS + p: purchases in the game
    ("V_TABLE", MAX_MELDS * TW),  # table meld i: view[V_TABLE + i * TW + f], f = the melds M_* fields, T_TWOS,
    #                               T_OWNER, T_TURN, T_CONTRACT (rows from V_NMELDS on: 0)
)

# ---- trace rows: [code, seat, a, b, c, d] ----------------------------------------------------
T_HAND = 1       # a = hand number, b = dealer, c = contract
T_CUT = 2        # a = bottom portion B, b = jokers kept, c = exact
T_DEAL = 3       # seat's holding: a = p1, b = p2, c = jokers, d = wild twos (as HT)
T_UPCARD = 4     # a = card
T_ACTION = 5     # a = action, c = the seat's chips before it (draws it causes follow)
T_RESHUFFLE = 6  # a = cards in the new stock
T_END = 7        # a = hand reason, b = seat out
T_SCORE = 8      # a = penalty this hand, b = total
T_EXCHANGE = 9   # a = p1, b = p2, c = jokers, d = wild twos after the exchange
T_DRAW = 10      # a = card drawn from the stock
T_MELD = 11      # a meld as it is now on the table (laid or changed by the action before):
#                  seat = owner, a = index | kind << 6 | key << 8 | lo << 12 | hi << 17 |
#                  wild cards << 22 | flags << 27 | wild twos << 32, b = wild positions,
#                  c = M_P1, d = M_P2
T_TAKE = 12      # a = the discard taken (take_discard, the free upcard)
TRACE_WIDTH = 6


# ---- record columns (one row per game) -----------------------------------------------------
(HB_OUT, HB_REASON, HB_TURNS, HB_RESHUF, HB_CUT, HB_KEPT, HB_EXACT, HB_PEN, HB_CHIPS, HB_BUYS, HB_CONTRACT,
 HB_SIZE) = offsets(     # one hand's block of columns (RC_HAND + (h - 1) * HB_SIZE + HB_*)
    ("HB_OUT", 1),       # seat that went out, -1
    ("HB_REASON", 1),    # H_*
    ("HB_TURNS", 1),     # turns started
    ("HB_RESHUF", 1),    # reshuffles
    ("HB_CUT", 1),       # bottom portion B
    ("HB_KEPT", 1),      # jokers kept by the cutter
    ("HB_EXACT", 1),     # exact cut
    ("HB_PEN", MAX_PLAYERS),     # HB_PEN + p: penalty of seat p
    ("HB_CHIPS", MAX_PLAYERS),   # chips left after the hand
    ("HB_BUYS", MAX_PLAYERS),    # purchases in the hand
    ("HB_CONTRACT", 1),  # the contract played (the hand number unless chosen)
)
(RC_DEALER, RC_WINNER, RC_WINNERS, RC_REASON, RC_TRUNC, RC_ERR, RC_TURNS, RC_RESHUF, RC_TOTAL, RC_CHIPS, RC_BUYS,
 RC_HANDS, RC_CHOSEN, RC_CAPPED, RC_HAND,
 RECORD_COLS) = offsets(
    ("RC_DEALER", 1),    # dealer of Hand 1
    ("RC_WINNER", 1),    # the seat with the unique lowest total, -1 if shared
    ("RC_WINNERS", 1),   # bit mask of the seats with the lowest total
    ("RC_REASON", 1),    # G_*
    ("RC_TRUNC", 1),     # a hand hit the turn cap
    ("RC_ERR", 1),       # check-mode error
    ("RC_TURNS", 1),     # turns in the game
    ("RC_RESHUF", 1),    # reshuffles in the game
    ("RC_TOTAL", MAX_PLAYERS),   # RC_TOTAL + p: final total
    ("RC_CHIPS", MAX_PLAYERS),   # chips left at the end
    ("RC_BUYS", MAX_PLAYERS),    # purchases in the game
    ("RC_HANDS", 1),     # hands in the game
    ("RC_CHOSEN", 1),    # 1: the dealers chose the contracts
    ("RC_CAPPED", 1),    # going-out searches that hit their work cap
    ("RC_HAND", MAX_HANDS * HB_SIZE),   # per-hand blocks, HB_SIZE each, Hand 1 first
)

# ---- the search's row (kernels.search SP_*, then these) ------------------------------------------
(X_SP, X_KINDS, X_CHIP, X_MARGIN, X_HANDS,
 X_END) = offsets(
    ("X_SP", SP_EXTRA),  # the shared search row (kernels.search: worlds, rollouts, budget, policy)
    ("X_KINDS", 1),      # bit k: decisions of plug-in kind k (K_*) are searched
    ("X_CHIP", 1),       # points a chip left is worth before the last hand
    ("X_MARGIN", 1),     # standard errors by which another action must beat the policy's choice
    ("X_HANDS", 1),      # bit h - 1: decisions of hand h are searched
)
assert X_END <= SP_PRM
X_COND = 10                      # bit of X_KINDS (above the K_* kinds): determinizations deal the seats
#                                  not down holdings that cannot go down (determinize's ``cond``)
SEARCH_POLICY_STREAM = 1 << 20   # the world index of the stream the policy's own choice draws from
DEAL_TRIES = 12                  # deals of one holding tried before a determinization gives up a condition

# ---- the critique ----------------------------------------------------------------------------
CUT_CODE = 1 << 48                      # the critique's action codes of the cut stage (no table action
KEEP_CODE = 2 << 48                     # sets these bits): CUT_CODE | aim, KEEP_CODE | jokers kept
(SNAP_ST, SNAP_TAB, SNAP_CUT, SNAP_INSPECT,
 SNAP_SIZE) = offsets(                  # a critique snapshot:
    ("SNAP_ST", ST_SIZE),               # the state, then ..
    ("SNAP_TAB", MAX_MELDS * TW),       # .. the table (MAX_MELDS rows of TW) ..
    ("SNAP_CUT", 1),                    # .. 1: a K_CUT, 2: a K_KEEP decision (st: the hand reset, nothing dealt) ..
    ("SNAP_INSPECT", 3),                # .. the three cards the cutter inspected (K_KEEP; else -1)
)
