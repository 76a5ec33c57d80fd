"""Telefunken: the seven-hand game (and its six- and eight-hand variants) as small numba
kernels.

Rules source: ``docs/rules/telefunken.md`` (pagat and the original text, with the
DECISIONs; every option of §16 and the §17 variant features (§20 there) the engine supports
is in the options array below).
The meld arithmetic (contracts, lay-offs, joker operations, Hand-7 going out) is
``kernels.melds``; this module is the game flow.

Choices this module adds where the spec leaves room
----------------------------------------------------
* One record is one **game** of all its hands (O_HANDS: one per contract, seven by default).
  Per hand: the seat that went out, the end reason, turns, reshuffles, the cut, the contract
  played, and per seat the penalty, chips left and purchases.
* The variant features (wild twos held in HT and recorded per meld in T_TWOS, wild caps and
  ratios, wrapping runs, the wild trío, moving jokers, taking a wild card back, the dealer's
  opening, taking the discard with no pass-back, free in-turn purchases, the erasing exact
  cut, alternative contracts, the dealer's choice of contract, the work cap on going out):
  ``docs/rules/telefunken.md`` §20 states each rule and choice; the code is commented where
  it applies them.
* Step B is a sequence of single table actions (D7-D10 as separate actions): go down (the
  contract the engine finds with the fewest penalty points left, ``melds.best_contract``; a
  hand with alternative contracts offers one go-down per alternative held, c = its row),
  lay one extra meld (candidates: all naturals of a rank held, with or without one joker;
  each maximal run of a suit, or a run that uses one joker for one gap or one end), one
  lay-off, one joker shift, one group-joker retrieval. A discard ends the turn. In Hand 7
  (``hand7_must_go_out_at_once``) the one table action is ``go out`` with the partition of
  ``melds.go_out_partition`` (no discard first, else the highest-penalty one).
* Adding to a meld created by the same player in the same turn is governed by
  ``first_meld_turn_layoff_own`` on every turn (none / non-contract melds / all): the same
  outcome as laying the meld larger (§9.3 allows engines to forbid it).
* ``retrieved_joker_use_immediately``: after a retrieval the only legal actions are those
  that lay a joker (the group just robbed always accepts it back) until it is laid.
* The Ecuador joker exchange (A39) is a go-down action: give another player's contract meld
  the natural its joker stands for (any natural of the rank for a group), and go down with
  a contract that uses at least one joker. It is offered only when the holding cannot go
  down without it (then every contract of the new holding uses a joker). No other §10
  operation exists in that model.
* The buy window asks seats in priority order (§8.3); the strategy of each seat answers.
  An upcard that the first player may not take free (``first_player_free_upcard=False``)
  or declines is offered like a discard when ``upcard_buyable`` (the dealer counts as its
  discarder); otherwise it can never be bought.
* Exact-cut ``points`` bonus: ``exact_cut_points`` are subtracted from the cutter's total.
  Leftover chips add ``leftover_chip_points`` each to the final total.
* Duplicate deals: hand h is shuffled from its own stream of (seed, game, h), so the cut,
  the deal and the stock order of every hand are the same whatever the play; reshuffles,
  the Hand-6 exchange and the random strategy draw from the play stream.
* ``final_discard_required`` (A24): going out always ends with a discard. Going down never
  lays the last card (when the best contract would use every card, the best one without
  each card in turn is laid), extra melds and lay-offs never take it, and the Hand-7
  partition always leaves a card to discard (Bolivia's Hand 7 laid normally obeys the same).
* ``pure_trio_extension`` (A14): only ``fourth_suit_only`` closes a pure trío after its
  fourth suit; under ``any_natural`` it keeps taking every natural of its rank.
* ``max_turns_per_hand`` caps each hand (turns started); a capped hand ends like a blocked
  one (everybody scores). A32 lets a blocked hand run to the cap; the engine then tells the
  two apart (``hand_blocked``): the hand is **blocked** (reason ``blocked``, not truncated)
  when, even holding every card off the table, no seat would have a table action at a fresh
  turn (no go-down, meld, lay-off or joker operation), so nothing could ever be laid and
  nobody go out (a Peru 2 Hand 1 whose groups' ranks are all laid); so is a closed hand
  (no holding can grow: no chips left; contract groups that accept nothing once laid:
  ``groups_allow_duplicate_suits=false`` and groups of five) in which every seat not down
  would be stuck after going down (two cards left: no discard empties its holding, no extra
  meld fits); otherwise reason ``turn_cap`` sets ``truncated``. A Hand 7 laid at once is
  never judged blocked.
* Plug-in strategies (issue 17): a seat with sid ``PLUGIN + b`` asks a plug-in's ``decide``
  (a ``jit.PLUG_SIG`` C callback) its decisions of the kinds ``K_*`` in its mask, with its view
  (``fill_view``: V_*) and a copy of the legal actions; -1 leaves a decision to the built-in b,
  an answer that is no legal index stops the game with E_PLUGIN (every mode). A turn's table
  step is asked as K_GO_DOWN / K_GO_OUT / K_LAY with A_HOLD (none of these) last, then the
  discard (K_DISCARD); the cut's aim and the jokers kept at an optional keep are K_CUT and
  K_KEEP (plugin_cut). The engine keeps deciding, for every strategy: the melds of a go-down
  (the most points laid), the Hand-7 partition and its discard, which wild card (a joker or a
  two) a go-down or an extra meld lays, and the buy window's order.

Strategies (ids S_*, parameters in ``sim.games.telefunken``): random; greedy and its
variants chip_saver and patient (purchase limits); planner, greedy with every §18 choice as a
parameter (Q_*: chip budget per hand to come, hold back from going down, the alternative
contract, the exchange size, the cut aim and the jokers kept at the cut, buying a wild card or
a card another seat is publicly collecting to deny it, the standoff breaker); fuzz, a mix of
greedy and random decisions at set rates (the fuzzer of the invariant tests). The greedy
family (issue 15) keeps copies of a rank only up to what the contract's groups take, keeps a runs contract's target window, sheds wild cards its
melds cannot take (``joker_room``), never buys once down, counts a purchase's penalty cards in
a hand laid at once, and after STALL_TURNS turns of a hand breaks standoffs with some random
discards; these changed the default strategies' play (they left ~31 % of Bolivia games at the
turn cap). Without identical cards in a group (A3) the family counts one natural a suit
towards its groups and sheds a second copy; a hand nobody goes out of without a purchase
(``needs_growth``: Hand 6's two closed groups of five) is planned for: a chip is kept back for
each such hand to come, in it the family buys to grow its holding, does not go down while it
would be left stuck, and its standoff breaker leaves the wild cards to one seat at a time
(``growth_breaker``); 15-66 % of those games were truncated, none now.

``expert`` (issue 41, sid ``S_EXPERT``; the planner's Q_* row and four more slots): the
planner with four things a good player does that the planner does not. Its distance to the
contract is exact about wild cards (``group_need``'s ``exact``: one meld takes one wild card;
the planner counts two jokers as closing two groups short by 0 and 2 cards, so in Hands 2, 4
and 6 it believes itself ready, never buys the card that lets it go down and breaks the pair
it needs). It sheds points when its hand is lost (``sheds``, Q_DUMP_AT, Q_DUMP_NEED: a seat
that is down holds few cards and the expert is still far from its contract: it discards its
costliest card). It keeps Q_WILD_ROOM wild cards more while not down (for the melds and
lay-offs after going down; Hand 1's pure trio takes none). Once down it lays first the extra
meld that lays the most points (``richest_meld``, Q_RICH; the greedy family lays the first
found, and spent a joker on a pair of twos beside a pair of kings). The old strategies' play is
unchanged (their functions take the expert's arguments with defaults that play as before).

``search`` (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
determinized Monte Carlo over the decisions of chosen kinds (X_KINDS, the plug-in kinds K_*:
by default buy offers of a card that would bring the seat nearer its contract, the free
upcard and going down) in chosen hands (X_HANDS, by default Hands 1-6; a Hand-7 rollout
costs several times more); the rollout policy (by default ``strong``) makes every other
decision. At a searched decision the candidates (buy / pass, take / draw, each go-down and
the policy's discard without it, ...) are played in ``worlds`` determinizations
(``determinize``: the other holdings, which keep the copies KN says they hold, and the
stock's order; optionally, X_COND, a seat not down that has played a turn gets a holding
that cannot go down), each rolled out ``rollouts`` times to the end of the hand with the
policy at every seat on the same streams for every candidate (common random numbers). The
value is the seat's result of the hand: minus its penalty, less X_CHIP points per chip
spent (before the last hand; chips are worth nothing after it). The best mean is taken only
when it beats the policy's own choice by more than X_MARGIN standard errors of the paired
differences; otherwise the policy's choice stands (few determinizations are noisy, and a
noisy choice between two actions costs more than it gains). KN is public bookkeeping only:
it changes no rule and no other strategy's play (``RULES_VERSION`` unchanged). A search
cutter cuts as its rollout policy would (planner's aim and joker keep). The batch kernels
call the search as a callback (``srch``, ``SEARCH_SIG``) that is compiled the first time a
table has a search seat (``search_cfunc``), not in every game's batch kernel (issue 14).

``critique`` (issue 40, ``kernels.critique``): ``critique_deal`` plays a game as ``play_game``
does and values every legal action of the critiqued seat's decisions by the search's own
worlds (``world_values``, factored out of ``search_pick``), every kind included: the exchange
(its determinization deals the cards the others passed again too), the dealer's contract and
opening discard, and the cut stage (K_CUT, K_KEEP: ``cut_world_values`` deals the unseen deck).

Options (int array, built by ``sim.games.telefunken.TelefunkenOptions.to_array``):
the ``O_*`` entries below, then the meld rules array (``kernels.melds`` R_*) at ``O_RULES``,
then the contracts table (8 rows of ``C_STRIDE``, the first ``melds.C_SIZE`` used, row 0
unused) at ``O_CONTRACTS``.

State: ``st`` int64 fields (below, one comment each), table melds ``tab`` (rows of
``melds`` M_* fields plus owner, creation turn and contract flag).
Score range per hand and seat: 0 .. the penalty of the largest holding (at most
108 cards); totals are sums of hand penalties (minus an exact-cut points bonus, plus
leftover-chip points). Chips: 0 .. chips_per_player + 7 (one exact-cut chip per hand).
"""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels.cards import lowbit, popcount, rank_mask
import numba
from numba import types

from cardsim.kernels.jit import (
    lazy_cfunc,
    njit,
    no_plugin,
    plugin_params,
    search_callback,
    threaded_batch,
    trace_put,
    unowned,
)
from cardsim.kernels.critique import (
    ROUND as CR_ROUND,
    STREAM_CRITIQUE,
    finish_row,
    measure_pair,
    plain_row,
    round_done,
    sampled,
)
from cardsim.kernels.rng import STREAM_PLAY, below, mix64, seed_stream, shuffle, stream_key
from cardsim.kernels.search import SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS, best_action, plan_budget, \
    search_key, seed_sub, shuffle_prefix

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

# ---- options array ---------------------------------------------------------------
O_PLAYERS = 0            # num_players 3..5
O_CHIPS = 1              # chips_per_player
O_LEFTOVER_POINTS = 2    # leftover_chip_points (per unused chip, added at the end)
O_CUT_MODEL = 3          # 0 aimed, 1 uniform
O_CUT_AIM = 4            # cut_aim (bottom portion B)
O_CUT_SPREAD = 5         # cut_spread
O_CUT_MIN = 6            # cut_min (uniform model)
O_CUT_MAX = 7            # cut_max (uniform model)
O_CUT_JOKERS = 8         # cut_joker_keep: 0 mandatory, 1 optional, 2 off
O_EXACT_BONUS = 9        # exact_cut_bonus: 0 chip, 1 card, 2 points, 3 none
O_EXACT_POINTS = 10      # exact_cut_points
O_EXACT_TARGET = 11      # exact_cut_target: 0 deal_plus_upcard, 1 deal_only, 2 either
O_FREE_UPCARD = 12       # first_player_free_upcard
O_UPCARD_BUYABLE = 13    # upcard_buyable
O_JOKER_PRIOR = 14       # joker_ops_require_prior_turn_meld
O_OWN_NEW = 15           # first_meld_turn_layoff_own: 0 none, 1 non_contract, 2 all
O_BUY_AFTER_DOWN = 16    # buy_after_meld_allowed
O_DISCARDER_BUYS = 17    # discarder_may_buy
O_EXHAUSTION = 18        # stock_exhaustion: 0 reshuffle_all, 1 reshuffle_keep_top, 2 end_hand
O_JOKER_NOW = 19         # retrieved_joker_use_immediately
O_FINAL_DISCARD = 20     # final_discard_required
O_H7_AT_ONCE = 21        # hand7_must_go_out_at_once
O_BUY_PENALTY = 22       # buy_penalty_cards
O_MAX_TURNS = 23         # max_turns_per_hand
O_OWN_JOKER_OPS = 24     # joker_ops_on_own_melds
O_EXCHANGE_MODEL = 25    # joker_exchange_model: 0 venezuela, 1 ecuador
O_EXTRA_MELDS = 26       # allow_extra_melds
O_EXTRA_RUNS = 27        # allow_runs (extra runs; contract runs are always allowed)
O_FIRST_DEALER = 28      # -1 random, else the seat dealing Hand 1
O_HANDS = 29             # hands in the game (= contracts listed; 7, Peru 1 6, Farmer's 8)
O_CARDS = 30             # cards_dealt to each player (11; Peru 2 12)
O_DEALER_OPENS = 31      # dealer_opens: the dealer gets one card more and discards first, no upcard
O_WILD_TWOS = 32         # wild_twos: every 2 is a wild card (scored as low_card_points gives it)
O_TAKE_DISCARD = 33      # take_discard: a turn may start by taking the top discard free
O_IN_TURN_CHIP = 34      # in_turn_buy_costs_chip (0: Farmer's in-turn purchase is free)
O_RUN_TAKE = 35          # run_wild_takeback: a natural may take a wild card's place in a run (Peru 1)
O_CHOOSE = 36            # dealer_chooses_contract: each hand's dealer picks an unused contract
O_EXCHANGE = 40          # O_EXCHANGE + h: exchange rounds before Hand h (1..8)
O_NO_BUY = 49            # O_NO_BUY + k: 1 = nobody may buy while contract k is played
O_RULES = 58             # melds rules array (R_SIZE entries, room for RULES_ROOM)
RULES_ROOM = 40
O_CONTRACTS = O_RULES + RULES_ROOM   # contracts table: CONTRACT_ROWS rows of C_STRIDE (C_SIZE used)
C_STRIDE = 16
CONTRACT_ROWS = 16
O_SIZE = O_CONTRACTS + CONTRACT_ROWS * C_STRIDE
# Fixed offsets, not computed from cardsim.kernels.melds sizes: numba's cache does not notice a change
# of another module's constants, so layouts shared with Python stay literal.
assert M.R_SIZE <= RULES_ROOM and M.C_SIZE <= C_STRIDE and M.CONTRACT_ROWS == CONTRACT_ROWS
assert M.MAX_HANDS == MAX_HANDS

# ---- state fields (int64 array) ----------------------------------------------------
N = 0            # number of players
HNO = 1          # hand number 1..7
DEALER = 2       # dealer of this hand
CUR = 3          # seat to act
PHASE = 4        # P_*
TURN = 5         # turns started in this hand (the global turn index of the current turn)
DISCARD = 6      # card on offer in the buy window, -1 none
DISCARDER = 7    # seat that discarded it (the dealer for the upcard)
ASK = 8          # seat asked now in the buy window
NEXTP = 9        # seat due to play after the window (the in-turn buyer)
TABLE_ACTS = 10  # table actions of CUR this turn
JOKER_DUE = 11   # retrieved jokers that must still be laid this turn
OUT = 12         # seat that went out, -1
HREASON = 13     # end reason of the hand (H_*), -1 while playing
TRUNC = 14       # 1 once any hand hit the turn cap
RESHUF = 15      # reshuffles this hand
NMELDS = 16      # melds on the table
STOCK_LO = 17    # index (in STOCK) of the top card of the stock
STOCK_HI = 18    # end of the stock
PILE_LEN = 19    # cards on the discard pile
POOL_LEN = 20    # cards passed in the exchange round
EX_ROUND = 21    # exchange rounds left before play
ERR = 22         # check-mode violation (E_*)
TR_LEN = 23      # trace rows written
FIRST_DEALER = 24  # dealer of Hand 1
CUT_B = 25       # bottom portion of this hand's cut
CUT_KEPT = 26    # jokers the cutter kept
CUT_EXACT = 27   # 1 if the cut was exact
GAME_TURNS = 28  # turns in the game so far
GAME_RESHUF = 29  # reshuffles in the game so far
UPCARD = 30      # the upcard of this hand
EX_SEAT = 31     # seats that finished choosing in this exchange round
CONTRACT = 33    # contracts-table row of this hand's contract (the hand number unless the
#                  dealer chooses)
USED = 34        # bit k: contract k has been played (dealer_chooses_contract)
WILD2 = 35       # 1: twos are wild cards (O_WILD_TWOS), read by give / take
UP_OFFER = 36    # 1: the P_UPCARD offer is the hand's upcard (0: a discard, take_discard)
TAKEN = 37       # card taken from the pile this turn under take_discard, -1 none (it may not
#                  be discarded again this turn)
CAPPED = 38      # going-out searches of the game that hit their work cap (melds.GO_CAPPED)
H1 = 40          # H1 + p: seat p's holding, cards held at least once (52-bit mask; no 2s
#                  when twos are wild)
H2 = 45          # H2 + p: cards held twice
HJ = 50          # HJ + p: jokers held
DOWN = 55        # DOWN + p: 1 once seat p went down this hand
DOWN_TURN = 60   # DOWN_TURN + p: the turn it went down
CHIPS = 65       # CHIPS + p: chips left
TOTAL = 70       # TOTAL + p: cumulative penalty
BUYS = 75        # BUYS + p: purchases this hand
PEN = 80         # PEN + p: penalty this hand
EXK = 85         # EXK + p: cards passed in this exchange round (public)
GBUYS = 90       # GBUYS + p: purchases in the game
HT = 95          # HT + p: wild twos held, 2 bits per suit (count of 2C at bit 0, 2D at 2, ..)
LASTPEN = 100    # LASTPEN + p: penalty of the hand before (exact_cut_bonus erase_previous)
CUT_AIMED = 105  # the cutter's strategy aims the cut at this bottom portion (0: cut_aim)
CUT_KEEPS = 106  # the cutter's strategy keeps at most this many inspected jokers (optional keep)
KEEP_SET = 107   # 1: a plug-in cutter chose CUT_KEEPS this hand (K_KEEP)
STOCK = 110      # STOCK .. +108: the stock (top at STOCK_LO)
PILE = STOCK + DECK_SIZE      # discard pile, bottom first
POOL = PILE + DECK_SIZE       # exchange pool
KN = POOL + DECK_SIZE          # KN + 53 * p + c: copies of card c (52 joker) seat p holds that every
#                                seat knows of: taken from the discard pile (bought, the free upcard,
#                                take_discard), jokers kept at the cut or taken back from the table;
#                                one copy fewer each time p lays, discards or passes a card c; cleared
#                                for a seat that passes cards in an exchange (public bookkeeping read
#                                only by the search's determinization)
KN_STRIDE = 53
ST_SIZE = KN + KN_STRIDE * MAX_PLAYERS

# ---- table meld rows: melds M_* fields, then ---------------------------------------
T_TWOS = 9               # the wild twos among its wild cards (2 bits per suit, as HT)
T_OWNER = 12             # seat that laid it (columns 0 .. M_SIZE - 1: the meld row)
T_TURN = 13              # turn it was laid
T_CONTRACT = 14          # 1 = a contract meld
TW = 15
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
N_PARAMS = SP_PRM + 16
# planner parameters (Q_*: indices into its row)
Q_RESERVE = 0         # buy before the last hand only while holding more than this (plus Q_PER_HAND)
Q_NEAR = 1            # buy only if at most this many cards are missing after buying
Q_PER_HAND = 2        # chips kept back per hand still to come after this one
Q_DOWN_LEFT = 3       # go down only when at most this many cards would be left in hand ..
Q_DOWN_TURN = 4       # .. or from this turn of the hand on
Q_EXCHANGE = 5        # cards passed in the exchange (lone cards, least useful first)
Q_KEEP_JOKERS = 6     # inspected jokers kept at the cut when the keep is optional
Q_CUT_AIM = 7         # bottom portion the cut aims at (0: the rules' cut_aim)
Q_DENY = 8            # buy a discarded wild card, or a natural a seat asked later publicly collects
#                       (collected_after), to deny it while holding more chips than this (-1: never)
Q_STALL = 9           # turns of a hand after which a standoff is broken (0: never)
Q_ALT = 10            # alternative contract to go down with (0: the most points laid; k: the k-th)
Q_H7_GROWTH = 11      # a purchase in a hand laid at once is counted to add this many cards to lay (-1: all it adds)
Q_DUMP_AT = 12        # expert: shed points (discard the highest-penalty card) once a seat that is down holds at
#                       most this many cards ..                                  (0: never)
Q_DUMP_NEED = 13      # .. while this seat, not down, still misses at least this many cards of its contract
Q_WILD_ROOM = 14      # expert: wild cards kept beyond joker_room while not down (for the melds laid after going down)
Q_RICH = 15           # expert: 1 = lay the extra meld that lays the most points first (richest_meld), 0 = the first
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
V_SEAT = 0           # the deciding seat
V_KIND = 1           # the decision kind (K_*)
V_HNO = 2            # hand number (1 ..)
V_HANDS = 3          # hands in the game
V_DEALER = 4         # dealer of this hand
V_PLAYERS = 5        # players at the table
V_TURN = 6           # turns started in this hand
V_CONTRACT = 7       # contracts-table row of this hand's contract (the hand number until chosen)
V_AT_ONCE = 8        # 1: this hand must be laid in one go (Hand 7)
V_C_GROUPS = 9       # the contract (its first row): groups ..
V_C_GROUP_SIZE = 10  # .. of this size ..
V_C_PURE = 11        # .. pure groups among them ..
V_C_RUNS = 12        # .. runs ..
V_C_RUN_MIN = 13     # .. of at least this length
V_C_NEXT = 14        # the contract's alternative row (0: none)
V_H1 = 15            # own holding: naturals held at least once (mask, bit 13 * suit + rank, rank 0 = ace)
V_H2 = 16            # own naturals held twice (mask)
V_JOKERS = 17        # own jokers
V_TWOS = 18          # own wild twos (2 bits per suit: count of 2C at bit 0, 2D at 2, ..)
V_WILD_TWOS = 19     # 1: twos are wild
V_OFFER = 20         # the card offered in the buy window (52 = joker), -1 none
V_DISCARDER = 21     # the seat that discarded it (the dealer for the upcard)
V_TOP = 22           # top card of the discard pile, -1 if empty
V_PILE_LEN = 23      # cards in the discard pile
V_PILE1 = 24         # discard pile: cards there at least once (mask) ..
V_PILE2 = 25         # .. twice (mask) ..
V_PILE_JOKERS = 26   # .. and its jokers
V_STOCK = 27         # cards left in the stock
V_TABLE_ACTS = 28    # table actions of the seat to act this turn
V_JOKER_DUE = 29     # retrieved jokers it must still lay this turn
V_TAKEN = 30         # card taken from the pile this turn (may not be discarded again), -1
V_UP_OFFER = 31      # K_UPCARD: 1 = the hand's upcard, 0 = a discard (take_discard)
V_RESHUF = 32        # reshuffles this hand
V_EX_ROUND = 33      # exchange rounds left before play
V_USED = 34          # bit k: contract k was played (dealer_chooses_contract)
V_CUT_KEPT = 35      # jokers the cutter kept this hand
V_CUT_EXACT = 36     # 1: this hand's cut was exact
V_RULE_CUT_AIM = 37  # the rules' cut_aim ..
V_RULE_CUT_SPREAD = 38  # .. and cut_spread
V_NMELDS = 39        # melds on the table
V_HELD = 40          # V_HELD + p: cards seat p holds
V_DOWN = 45          # V_DOWN + p: 1 once seat p went down this hand
V_DOWN_TURN = 50     # V_DOWN_TURN + p: the turn it went down
V_CHIPS = 55         # V_CHIPS + p: chips left
V_TOTAL = 60         # V_TOTAL + p: penalty total so far
V_BUYS = 65          # V_BUYS + p: purchases this hand
V_EXK = 70           # V_EXK + p: cards passed in this exchange round
V_GBUYS = 75         # V_GBUYS + p: purchases in the game
V_TABLE = 80         # table meld i: view[V_TABLE + i * TW + f], f = the melds M_* fields, T_TWOS,
#                      T_OWNER, T_TURN, T_CONTRACT (rows from V_NMELDS on: 0)
VIEW_SIZE = V_TABLE + MAX_MELDS * TW

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
RC_DEALER = 0    # dealer of Hand 1
RC_WINNER = 1    # the seat with the unique lowest total, -1 if shared
RC_WINNERS = 2   # bit mask of the seats with the lowest total
RC_REASON = 3    # G_*
RC_TRUNC = 4     # a hand hit the turn cap
RC_ERR = 5       # check-mode error
RC_TURNS = 6     # turns in the game
RC_RESHUF = 7    # reshuffles in the game
RC_TOTAL = 8     # RC_TOTAL + p: final total
RC_CHIPS = RC_TOTAL + MAX_PLAYERS     # chips left at the end
RC_BUYS = RC_CHIPS + MAX_PLAYERS      # purchases in the game
RC_HANDS = RC_BUYS + MAX_PLAYERS      # hands in the game
RC_CHOSEN = RC_HANDS + 1              # 1: the dealers chose the contracts
RC_CAPPED = RC_CHOSEN + 1             # going-out searches that hit their work cap
RC_HAND = RC_CAPPED + 1               # per-hand blocks, HB_SIZE each, Hand 1 first
HB_OUT = 0       # seat that went out, -1
HB_REASON = 1    # H_*
HB_TURNS = 2     # turns started
HB_RESHUF = 3    # reshuffles
HB_CUT = 4       # bottom portion B
HB_KEPT = 5      # jokers kept by the cutter
HB_EXACT = 6     # exact cut
HB_PEN = 7       # HB_PEN + p: penalty of seat p
HB_CHIPS = HB_PEN + MAX_PLAYERS       # chips left after the hand
HB_BUYS = HB_CHIPS + MAX_PLAYERS      # purchases in the hand
HB_CONTRACT = HB_BUYS + MAX_PLAYERS   # the contract played (the hand number unless chosen)
HB_SIZE = HB_CONTRACT + 1
RECORD_COLS = RC_HAND + MAX_HANDS * HB_SIZE
WIN_SKIP = 32    # (state) 1: NEXTP already started its turn and may not buy in turn


# =============================================================================
# small helpers: trace, seats, holdings
# =============================================================================
@njit(cache=True)
def log(st, trace, code, seat, a, b, c, d=0):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True)
def log_meld(st, trace, tab, i):
    """A T_MELD row: table meld i as it is now."""
    if trace.shape[0] == 0:
        return
    r = tab[i]
    packed = (i | r[M.M_KIND] << 6 | r[M.M_KEY] << 8 | r[M.M_LO] << 12 | r[M.M_HI] << 17
              | r[M.M_JOKERS] << 22 | r[M.M_FLAGS] << 27 | r[T_TWOS] << 32)
    log(st, trace, T_MELD, r[T_OWNER], packed, r[M.M_JPOS], r[M.M_P1], r[M.M_P2])


@njit(cache=True, inline='always')
def nxt(st, p):
    return (p + 1) % st[N]


@njit(cache=True, inline='always')
def act(kind, a, b, c, d, e):
    """Encode an action (see the A_* table)."""
    return kind | (a << 8) | (b << 16) | (c << 24) | (d << 32) | (e << 40)


@njit(cache=True, inline='always')
def field(x, i):
    """Field i (1 = a .. 5 = e) of an action."""
    return (x >> (8 * i)) & 255


@njit(cache=True, inline='always')
def is_wild_two(st, c):
    """Card c is a 2 and twos are wild (O_WILD_TWOS): it is held in HT, not the planes."""
    return st[WILD2] != 0 and c < JK and c % 13 == 1


@njit(cache=True)
def give(st, p, c):
    """Card c (52 = joker) goes into seat p's holding."""
    if c == JK:
        st[HJ + p] += 1
        return
    if is_wild_two(st, c):
        st[HT + p] += np.int64(1) << (2 * (c // 13))
        return
    b = np.int64(1) << c
    if st[H1 + p] & b:
        st[H2 + p] |= b
    else:
        st[H1 + p] |= b


@njit(cache=True)
def take(st, p, c):
    """Card c (52 = joker) leaves seat p's holding (one publicly known copy fewer, KN)."""
    if st[KN + KN_STRIDE * p + c] > 0:
        st[KN + KN_STRIDE * p + c] -= 1
    if c == JK:
        st[HJ + p] -= 1
        return
    if is_wild_two(st, c):
        st[HT + p] -= np.int64(1) << (2 * (c // 13))
        return
    b = np.int64(1) << c
    if st[H2 + p] & b:
        st[H2 + p] &= ~b
    else:
        st[H1 + p] &= ~b


@njit(cache=True, inline='always')
def twos_count(x):
    """Cards in a packed wild-twos field (2 bits per suit)."""
    return (x & 3) + ((x >> 2) & 3) + ((x >> 4) & 3) + ((x >> 6) & 3)


@njit(cache=True, inline='always')
def planner_like(sid):
    """The strategies that read the planner's parameter row (Q_*): the planner and the expert."""
    return sid == S_PLANNER or sid == S_EXPERT


@njit(cache=True, inline='always')
def wilds(st, p):
    """Wild cards seat p holds: jokers and wild twos (what the meld engine calls jokers)."""
    return st[HJ + p] + twos_count(st[HT + p])


@njit(cache=True)
def lowest_two(x):
    """The card id of the lowest-suit two of a packed wild-twos field (x > 0)."""
    s = 0
    while (x >> (2 * s)) & 3 == 0:
        s += 1
    return s * 13 + 1


@njit(cache=True)
def pick_wild(st, p, rules):
    """The wild card seat p lays when the engine asks for one: the one worth more penalty
    points (a joker on equal points), a two from the lowest suit."""
    if st[HJ + p] > 0 and (st[HT + p] == 0 or rules[M.R_JOKER_POINTS] >= rules[M.R_POINTS + 1]):
        return JK
    return lowest_two(st[HT + p])


@njit(cache=True, inline='always')
def known_give(st, p, c):
    """Card c goes into seat p's holding in sight of everybody (KN)."""
    give(st, p, c)
    st[KN + KN_STRIDE * p + c] += 1


@njit(cache=True)
def take_mask(st, p, q1, q2, jokers, rules):
    """Natural cards (two planes) and ``jokers`` wild cards (pick_wild each) leave seat p's
    holding; returns the wild twos taken (packed as HT)."""
    for plane in (q1, q2):
        m = plane
        while m:
            take(st, p, lowbit(m))
            m &= m - 1
    twos = np.int64(0)
    for _ in range(jokers):
        c = pick_wild(st, p, rules)
        take(st, p, c)
        if c != JK:
            twos += np.int64(1) << (2 * (c // 13))
    return twos


@njit(cache=True)
def wild_out(st, tab, i, p):
    """A wild card leaves table meld i for seat p's holding: a joker while the meld has one,
    else its lowest-suit two (the meld's wild cards are interchangeable)."""
    twos = tab[i, T_TWOS]
    if tab[i, M.M_JOKERS] > twos_count(twos) or twos == 0:
        known_give(st, p, JK)
        return JK
    c = lowest_two(twos)
    tab[i, T_TWOS] -= np.int64(1) << (2 * (c // 13))
    known_give(st, p, c)
    return c


@njit(cache=True, inline='always')
def held(st, p):
    """Cards in seat p's holding."""
    return popcount(st[H1 + p]) + popcount(st[H2 + p]) + wilds(st, p)


@njit(cache=True, inline='always')
def rules_of(opts):
    return opts[O_RULES:O_RULES + M.R_SIZE]


@njit(cache=True, inline='always')
def spec_of(opts, h):
    return opts[O_CONTRACTS + h * C_STRIDE:O_CONTRACTS + (h + 1) * C_STRIDE]


@njit(cache=True, inline='always')
def hand7_at_once(st, opts):
    """This hand must be laid in one go: it plays the last contract (Hand 7's in Telefunken)
    and hand7_must_go_out_at_once is on."""
    return st[CONTRACT] == opts[O_HANDS] and opts[O_H7_AT_ONCE] != 0


# =============================================================================
# stock and discard pile (§11.2)
# =============================================================================
@njit(cache=True)
def end_hand(st, reason):
    st[HREASON] = reason
    st[PHASE] = P_OVER
    if reason == H_TURN_CAP:
        st[TRUNC] = 1


@njit(cache=True)
def refill(st, opts, gplay, trace):
    """Empty stock: turn the discard pile (all, or all but the top) into a new shuffled
    stock. False when the hand ends instead."""
    if opts[O_EXHAUSTION] == 2:
        end_hand(st, H_STOCK_END)
        return False
    keep = 1 if opts[O_EXHAUSTION] == 1 and st[PILE_LEN] > 0 else 0
    k = st[PILE_LEN] - keep
    if k <= 0:
        end_hand(st, H_EXHAUSTED)
        return False
    for i in range(k):
        st[STOCK + i] = st[PILE + i]
    if keep:
        st[PILE] = st[PILE + k]
    st[PILE_LEN] = keep
    shuffle(gplay, st, STOCK, STOCK + k)
    st[STOCK_LO] = 0
    st[STOCK_HI] = k
    st[RESHUF] += 1
    log(st, trace, T_RESHUFFLE, -1, k, 0, 0)
    return True


@njit(cache=True)
def draw_to(st, opts, p, k, gplay, trace):
    """Seat p draws k stock cards; False if the hand ended on an empty stock."""
    for _ in range(k):
        if st[STOCK_HI] == st[STOCK_LO] and not refill(st, opts, gplay, trace):
            return False
        c = st[STOCK + st[STOCK_LO]]
        give(st, p, c)
        st[STOCK_LO] += 1
        log(st, trace, T_DRAW, p, c, 0, 0)
    return True


@njit(cache=True)
def pile_push(st, c):
    st[PILE + st[PILE_LEN]] = c
    st[PILE_LEN] += 1


@njit(cache=True)
def pile_pop(st):
    st[PILE_LEN] -= 1
    return st[PILE + st[PILE_LEN]]


# =============================================================================
# cut and deal (§5)
# =============================================================================
@njit(cache=True)
def cut_bottom(opts, gdeck, st_aim):
    """Bottom portion B of the cut (§5.3, A9), clamped so the top portion has 3 cards."""
    if opts[O_CUT_MODEL] == 0:
        s = opts[O_CUT_SPREAD]
        b = opts[O_CUT_AIM] + below(gdeck, 2 * s + 1) - s
        if st_aim > 0:                        # the cutter's own aim (planner), same noise
            b += st_aim - opts[O_CUT_AIM]
    else:
        b = opts[O_CUT_MIN] + below(gdeck, opts[O_CUT_MAX] - opts[O_CUT_MIN] + 1)
    return min(max(b, 1), DECK_SIZE - 3)


@njit(cache=True)
def keeps_joker(st, opts, sid, kept, gplay):
    """The cutter keeps an inspected joker (A11): optional keep, random: a coin; planner:
    while it kept fewer than CUT_KEEPS (its keep_jokers); a plug-in that chose (K_KEEP): as
    many as it said; the others keep every one."""
    if opts[O_CUT_JOKERS] == 2:
        return False
    if opts[O_CUT_JOKERS] == 1 and sid >= PLUGIN:
        if st[KEEP_SET]:                    # the plug-in chose (K_KEEP): at most CUT_KEEPS
            return kept < st[CUT_KEEPS]
        sid -= PLUGIN                       # else its base
    if opts[O_CUT_JOKERS] == 1 and sid == S_RANDOM:
        return below(gplay, 2) == 1
    if opts[O_CUT_JOKERS] == 1 and (planner_like(sid) or sid == S_SEARCH):
        return kept < st[CUT_KEEPS]
    return True


@njit(cache=True)
def cut_sequence(st, opts, b, cutter, sids, gplay):
    """Reorder the shuffled deck (STOCK, top first) into the dealing sequence: the bottom
    portion, then the top portion minus the kept jokers, which go to the cutter.
    Returns the number of jokers kept."""
    t = DECK_SIZE - b
    n = 0
    for i in range(t, DECK_SIZE):
        st[POOL + n] = st[STOCK + i]
        n += 1
    kept = 0
    for i in range(t):
        c = st[STOCK + i]
        if i >= t - 3 and c == JK and keeps_joker(st, opts, sids[cutter], kept, gplay):
            known_give(st, cutter, JK)
            kept += 1
        else:
            st[POOL + n] = c
            n += 1
    for i in range(n):
        st[STOCK + i] = st[POOL + i]
    st[STOCK_LO] = 0
    st[STOCK_HI] = n
    return kept


@njit(cache=True)
def exact_cut(opts, n, b, kept):
    """The cut is exact (§5.7, A8): the bottom portion held the dealt cards (plus the
    upcard, unless the dealer opens instead)."""
    target = opts[O_EXACT_TARGET]
    dealt = opts[O_CARDS] * n + opts[O_DEALER_OPENS] - kept
    up = 0 if opts[O_DEALER_OPENS] else 1
    return ((target != 1 and b == dealt + up) or (target != 0 and b == dealt))


@njit(cache=True)
def deal_holdings(st, opts, dealer):
    """One card at a time from next(dealer) until every holding has cards_dealt cards (the
    dealer one more when it opens)."""
    n = st[N]
    done = False
    while not done:
        done = True
        for k in range(1, n + 1):
            p = (dealer + k) % n
            if held(st, p) < opts[O_CARDS] + (opts[O_DEALER_OPENS] if p == dealer else 0):
                give(st, p, st[STOCK + st[STOCK_LO]])
                st[STOCK_LO] += 1
                done = False


@njit(cache=True)
def exact_bonus(st, opts, cutter, gplay, trace):
    """Reward an exact cut (A7)."""
    kind = opts[O_EXACT_BONUS]
    if kind == 0:
        st[CHIPS + cutter] += 1
    elif kind == 1:
        draw_to(st, opts, cutter, 1, gplay, trace)
    elif kind == 2 or kind == 4:
        bonus = opts[O_EXACT_POINTS] if kind == 2 else st[LASTPEN + cutter]
        st[PEN + cutter] -= bonus
        st[TOTAL + cutter] -= bonus


@njit(cache=True)
def reset_hand(st, h, dealer):
    """Clear what a hand writes; keep chips, totals and the game counters."""
    n = st[N]
    trunc, first, tr_len = st[TRUNC], st[FIRST_DEALER], st[TR_LEN]
    for i in range(CUR, GAME_TURNS):
        st[i] = 0
    st[TRUNC], st[FIRST_DEALER], st[TR_LEN] = trunc, first, tr_len
    st[EX_SEAT] = 0
    st[WIN_SKIP] = 0
    st[HNO] = h
    st[DEALER] = dealer
    st[DISCARD] = -1
    st[OUT] = -1
    st[HREASON] = -1
    st[CONTRACT] = h
    st[UP_OFFER] = 0
    for p in range(n):
        for f in (H1, H2, HJ, HT, DOWN, DOWN_TURN, BUYS, PEN, EXK):
            st[f + p] = 0
    for i in range(KN, KN + KN_STRIDE * MAX_PLAYERS):
        st[i] = 0


@njit(cache=True)
def deal_hand(st, opts, h, dealer, sids, gdeck, gplay, trace):
    """Shuffle, cut, deal and turn the upcard of hand h (§5)."""
    for i in range(DECK_SIZE):
        st[STOCK + i] = i // 2 if i < 104 else JK
    shuffle(gdeck, st, STOCK, STOCK + DECK_SIZE)
    deal_cut(st, opts, h, dealer, cut_bottom(opts, gdeck, st[CUT_AIMED]), sids, gplay, trace)


@njit(cache=True)
def deal_cut(st, opts, h, dealer, b, sids, gplay, trace):
    """Cut the shuffled deck in STOCK (top first) with bottom portion b, deal and turn the
    upcard of hand h (the critique's cut worlds deal their own decks through it)."""
    n = st[N]
    cutter = (dealer + n - 1) % n
    kept = cut_sequence(st, opts, b, cutter, sids, gplay)
    deal_holdings(st, opts, dealer)
    st[UPCARD] = -1
    if opts[O_DEALER_OPENS] == 0:
        st[UPCARD] = st[STOCK + st[STOCK_LO]]
        st[STOCK_LO] += 1
        pile_push(st, st[UPCARD])
    st[CUT_B] = b
    st[CUT_KEPT] = kept
    st[CUT_EXACT] = 1 if exact_cut(opts, n, b, kept) else 0
    log(st, trace, T_HAND, dealer, h, dealer, st[CONTRACT])
    log(st, trace, T_CUT, cutter, b, kept, st[CUT_EXACT])
    for p in range(n):
        log(st, trace, T_DEAL, p, st[H1 + p], st[H2 + p], st[HJ + p], st[HT + p])
    if st[UPCARD] >= 0:
        log(st, trace, T_UPCARD, -1, st[UPCARD], 0, 0)
    if st[CUT_EXACT]:
        exact_bonus(st, opts, cutter, gplay, trace)


# =============================================================================
# turns, the upcard, the buy window (§7, §8), the exchange (§6)
# =============================================================================
@njit(cache=True)
def turn_start(st, opts, p):
    """Seat p starts a turn; False when the turn cap ends the hand (A32)."""
    if st[TURN] >= opts[O_MAX_TURNS]:
        end_hand(st, H_TURN_CAP)
        return False
    st[TURN] += 1
    st[CUR] = p
    st[TABLE_ACTS] = 0
    st[JOKER_DUE] = 0
    st[TAKEN] = -1
    st[PHASE] = P_ACT
    return True


@njit(cache=True)
def start_and_draw(st, opts, p, k, gplay, trace):
    """Seat p starts its turn and draws k cards."""
    if turn_start(st, opts, p):
        draw_to(st, opts, p, k, gplay, trace)


@njit(cache=True)
def may_buy(st, opts, p):
    """Seat p may buy the card on offer (§8.2, A16, A18, A37)."""
    if p == st[DISCARDER] and opts[O_DISCARDER_BUYS] == 0:
        return False
    if p == st[NEXTP] and st[WIN_SKIP]:
        return False
    if (st[CHIPS + p] <= 0 and not free_buy(st, opts, p)) or opts[O_NO_BUY + st[CONTRACT]] != 0:
        return False
    return st[DOWN + p] == 0 or opts[O_BUY_AFTER_DOWN] != 0


@njit(cache=True, inline='always')
def free_buy(st, opts, p):
    """A purchase by seat p now costs no chip: in turn, when in_turn_buy_costs_chip is off."""
    return p == st[NEXTP] and not st[WIN_SKIP] and opts[O_IN_TURN_CHIP] == 0


@njit(cache=True)
def next_asked(st, opts, after):
    """The next seat to ask after priority step ``after`` (1 = next(discarder) ..
    n = the discarder), -1 when nobody else may buy."""
    n = st[N]
    for k in range(after + 1, n + 1):
        p = (st[DISCARDER] + k) % n
        if may_buy(st, opts, p):
            return p
    return -1


@njit(cache=True)
def close_window(st, opts, gplay, trace):
    """Nobody bought: the player due draws normally, or (take_discard) chooses between the
    top discard and the stock."""
    st[DISCARD] = -1
    p = st[NEXTP]
    if st[WIN_SKIP]:
        st[PHASE] = P_ACT
        draw_to(st, opts, p, 1, gplay, trace)
    elif opts[O_TAKE_DISCARD] and st[PILE_LEN] > 0:
        if turn_start(st, opts, p):
            st[PHASE] = P_UPCARD
            st[UP_OFFER] = 0
    else:
        start_and_draw(st, opts, p, 1, gplay, trace)


@njit(cache=True)
def open_window(st, opts, discarder, card, skip_next, gplay, trace):
    """Offer ``card`` (on top of the pile) to the seats in priority order (§8.3)."""
    st[DISCARD] = card
    st[DISCARDER] = discarder
    st[NEXTP] = nxt(st, discarder)
    st[WIN_SKIP] = skip_next
    st[ASK] = next_asked(st, opts, 0)
    if st[ASK] < 0:
        close_window(st, opts, gplay, trace)
    else:
        st[PHASE] = P_BUY


@njit(cache=True)
def priority_step(st, p):
    return (p - st[DISCARDER] + st[N] - 1) % st[N] + 1


@njit(cache=True)
def buy(st, opts, gplay, trace):
    """The asked seat buys (§8.4): discard + penalty cards, in turn also the draw."""
    b = st[ASK]
    if not free_buy(st, opts, b):
        st[CHIPS + b] -= 1
    st[BUYS + b] += 1
    st[GBUYS + b] += 1
    known_give(st, b, pile_pop(st))
    st[DISCARD] = -1
    pen = opts[O_BUY_PENALTY]
    p = st[NEXTP]
    if b == p and not st[WIN_SKIP]:
        start_and_draw(st, opts, p, pen + 1, gplay, trace)
        return
    if draw_to(st, opts, b, pen, gplay, trace):
        if st[WIN_SKIP]:
            st[PHASE] = P_ACT
            draw_to(st, opts, p, 1, gplay, trace)
        else:
            start_and_draw(st, opts, p, 1, gplay, trace)


@njit(cache=True)
def pass_buy(st, opts, gplay, trace):
    st[ASK] = next_asked(st, opts, priority_step(st, st[ASK]))
    if st[ASK] < 0:
        close_window(st, opts, gplay, trace)


@njit(cache=True)
def begin_play(st, opts, gplay, trace):
    """After the deal (and the exchange): the first turn (§7 step A, A10), or the dealer's
    opening discard (dealer_opens)."""
    first = nxt(st, st[DEALER])
    if opts[O_DEALER_OPENS]:
        if turn_start(st, opts, st[DEALER]):
            st[PHASE] = P_OPEN
    elif opts[O_FREE_UPCARD]:
        if turn_start(st, opts, first):
            st[PHASE] = P_UPCARD
            st[UP_OFFER] = 1
    elif opts[O_UPCARD_BUYABLE]:
        open_window(st, opts, st[DEALER], st[UPCARD], 0, gplay, trace)
    else:
        start_and_draw(st, opts, first, 1, gplay, trace)


@njit(cache=True)
def decline_upcard(st, opts, gplay, trace):
    """The player draws instead; the hand's upcard may then be bought by the others."""
    if st[UP_OFFER] and opts[O_UPCARD_BUYABLE]:
        open_window(st, opts, st[DEALER], st[UPCARD], 1, gplay, trace)
    else:
        st[PHASE] = P_ACT
        draw_to(st, opts, st[CUR], 1, gplay, trace)


@njit(cache=True)
def start_exchange(st):
    st[PHASE] = P_EXCHANGE
    st[CUR] = nxt(st, st[DEALER])
    st[EX_SEAT] = 0
    st[POOL_LEN] = 0
    for p in range(st[N]):
        st[EXK + p] = 0


@njit(cache=True)
def exchange_card(st, c):
    take(st, st[CUR], c)
    st[POOL + st[POOL_LEN]] = c
    st[POOL_LEN] += 1
    st[EXK + st[CUR]] += 1


@njit(cache=True)
def exchange_done(st, opts, gplay, trace):
    """CUR has chosen; after the last seat, shuffle the pool and give each seat back as
    many cards as it passed (§6)."""
    st[EX_SEAT] += 1
    st[CUR] = nxt(st, st[CUR])
    if st[EX_SEAT] < st[N]:
        return
    shuffle(gplay, st, POOL, POOL + st[POOL_LEN])
    i = 0
    for k in range(1, st[N] + 1):
        p = (st[DEALER] + k) % st[N]
        for _ in range(st[EXK + p]):
            give(st, p, st[POOL + i])
            i += 1
        if st[EXK + p] > 0:                         # what it passed is private: nothing known stays
            for c in range(KN_STRIDE):
                st[KN + KN_STRIDE * p + c] = 0
        log(st, trace, T_EXCHANGE, p, st[H1 + p], st[H2 + p], st[HJ + p], st[HT + p])
    st[POOL_LEN] = 0
    st[EX_ROUND] -= 1
    if st[EX_ROUND] > 0:
        start_exchange(st)
    else:
        begin_play(st, opts, gplay, trace)


@njit(cache=True)
def start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace):
    """Deal hand h; then the dealer's choice of contract (dealer_chooses_contract), the
    exchange and play."""
    reset_hand(st, h, dealer)
    deal_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
    open_hand(st, opts, gplay, trace)


@njit(cache=True)
def open_hand(st, opts, gplay, trace):
    """After the deal: the dealer's choice of contract (dealer_chooses_contract), else the
    exchange and play (after_deal)."""
    if opts[O_CHOOSE]:
        st[PHASE] = P_CHOOSE
        st[CUR] = st[DEALER]
    else:
        after_deal(st, opts, gplay, trace)


@njit(cache=True)
def after_deal(st, opts, gplay, trace):
    """The exchange rounds of this hand (by hand number, §6), then the first turn."""
    st[EX_ROUND] = opts[O_EXCHANGE + st[HNO]]
    if st[EX_ROUND] > 0:
        start_exchange(st)
    else:
        begin_play(st, opts, gplay, trace)


@njit(cache=True)
def choose_contract(st, opts, k, gplay, trace):
    """The dealer plays contract k this hand (each contract once in the game)."""
    st[CONTRACT] = k
    st[USED] |= np.int64(1) << k
    after_deal(st, opts, gplay, trace)


# =============================================================================
# table actions (§9, §10, §12): candidates
# =============================================================================
@njit(cache=True)
def group_cards(st, p, r, rules):
    """The naturals of rank r in seat p's holding that one group can take: all of them, or
    one per suit when groups may not hold identical cards (A3)."""
    rm = rank_mask(r)
    return st[H1 + p] & rm, st[H2 + p] & rm if rules[M.R_GROUP_DUPS] else np.int64(0)


@njit(cache=True)
def add_group_melds(st, p, rules, acts, n):
    """Extra groups: every natural of a rank held, with 0, 1, .. wild cards (up to
    melds.wild_cap); the wild trío where the rules allow it."""
    w = wilds(st, p)
    for r in range(13):
        g1, g2 = group_cards(st, p, r, rules)
        k = popcount(g1) + popcount(g2)
        if k < 1:
            continue
        for j in range(min(w, M.wild_cap(M.MK_GROUP, k, rules)) + 1):
            if k + j >= rules[M.R_MIN_GROUP]:
                acts[n] = act(A_MELD, M.MK_GROUP, r, j, 0, 0)
                n += 1
    if rules[M.R_WILD_TRIO] and w >= 3:
        acts[n] = act(A_MELD, M.MK_GROUP, M.WILD_TRIO_RANK, 3, 0, 0)
        n += 1
    return n


@njit(cache=True)
def emit_run(rules, s, lo, hi, jp, acts, n):
    if lo < 1 or hi - lo + 1 < rules[M.R_MIN_RUN] or not M.pos_allowed(lo, hi, rules):
        return n
    acts[n] = act(A_MELD, M.MK_RUN, s, lo, hi, jp)
    return n + 1


@njit(cache=True)
def add_run_melds(st, p, rules, acts, n):
    """Extra runs per suit: each maximal segment of held positions (a 14-position one as
    A-K and 2-A); with a joker, two segments joined over a one-position gap, or a segment
    of two or more extended by the joker at either end. Runs that may take several wild
    cards or wrap: add_wild_run_melds."""
    if rules[M.R_RUN_WILDS] > 1 or rules[M.R_WRAP]:
        return add_wild_run_melds(st, p, rules, acts, n)
    joker = wilds(st, p) > 0 and rules[M.R_RUN_WILDS] > 0
    for s in range(4):
        pos = M.suit_positions(st[H1 + p], s)
        lo = 1
        while lo <= 14:
            if not (pos >> lo) & 1:
                lo += 1
                continue
            hi = lo
            while hi < 14 and (pos >> (hi + 1)) & 1:
                hi += 1
            if hi - lo == 13:
                n = emit_run(rules, s, 1, 13, 0, acts, n)
                n = emit_run(rules, s, 2, 14, 0, acts, n)
            else:
                n = emit_run(rules, s, lo, hi, 0, acts, n)
            if joker and hi - lo + 1 <= 12:
                n = emit_run(rules, s, lo - 1, hi, lo - 1, acts, n)
                n = emit_run(rules, s, lo, hi + 1, hi + 1, acts, n)
                if hi + 2 <= 14 and (pos >> (hi + 2)) & 1:
                    top = hi + 2
                    while top < 14 and (pos >> (top + 1)) & 1:
                        top += 1
                    n = emit_run(rules, s, lo, top, hi + 1, acts, n)
            lo = hi + 1
    return n


@njit(cache=True)
def add_wild_run_melds(st, p, rules, acts, n):
    """Extra runs when runs take several wild cards or wrap: from each start of a segment
    of held positions, the segment itself and the longest run that wild cards on the
    missing positions make (melds.wild_cap, the wild cards held, the ace / wrap rules)."""
    w = wilds(st, p)
    last_lo, last_hi = M.gen_span(rules)
    for s in range(4):
        pos = M.suit_positions_of(st[H1 + p], s, rules)
        for lo in range(1, last_lo + 1):
            if not (pos >> lo) & 1 or (lo > 1 and (pos >> (lo - 1)) & 1):
                continue
            seg, best = 0, 0
            for hi in range(lo, min(last_hi, lo + 12) + 1):
                iv = M.interval(lo, hi)
                miss = popcount(iv & ~pos)
                if miss == 0:
                    seg = hi
                if miss <= min(w, M.wild_cap(M.MK_RUN, popcount(iv & pos), rules)) and M.pos_allowed(lo, hi, rules):
                    best = hi
            n = emit_run(rules, s, lo, seg, 0, acts, n) if seg else n
            if best > seg:
                n = emit_run(rules, s, lo, best, RUN_FILL, acts, n)
    return n


@njit(cache=True)
def lays_wild(x):
    """An A_MELD action lays a wild card."""
    if field(x, 1) == M.MK_GROUP:
        return field(x, 3) > 0
    return field(x, 5) != 0


@njit(cache=True)
def meld_size(st, p, x, rules):
    """Cards an A_MELD action lays."""
    if field(x, 1) == M.MK_GROUP:
        if field(x, 2) == M.WILD_TRIO_RANK:
            return 3
        g1, g2 = group_cards(st, p, field(x, 2), rules)
        return popcount(g1) + popcount(g2) + field(x, 3)
    return field(x, 4) - field(x, 3) + 1


@njit(cache=True)
def own_new_ok(st, opts, p, i, tab):
    """Seat p may add to table meld i now: not one it laid this turn, unless
    first_meld_turn_layoff_own allows (A13)."""
    if tab[i, T_OWNER] != p or tab[i, T_TURN] != st[TURN]:
        return True
    rule = opts[O_OWN_NEW]
    return rule == 2 or (rule == 1 and tab[i, T_CONTRACT] == 0)


@njit(cache=True)
def joker_ops_ok(st, opts, p, i, tab):
    """§10 operations on meld i are open to seat p now (A12, A38, A39)."""
    if opts[O_EXCHANGE_MODEL] != 0:
        return False
    if opts[O_JOKER_PRIOR] and st[DOWN_TURN + p] == st[TURN]:
        return False
    if tab[i, T_OWNER] == p and opts[O_OWN_JOKER_OPS] == 0:
        return False
    return own_new_ok(st, opts, p, i, tab)


@njit(cache=True)
def add_layoffs(st, opts, p, tab, rules, sc, acts, n, joker_only, last_ok):
    """Lay-offs onto melds seat p may add to (§9.2-9.4); a wild card's lay-off is offered
    for each kind of wild card held (the joker, the two of each suit)."""
    k = M.layoffs(st[H1 + p], st[H2 + p], wilds(st, p), tab, st[NMELDS], rules, sc)
    for i in range(k):
        c = sc[i, 0]
        if (joker_only and c != JK) or not own_new_ok(st, opts, p, sc[i, 1], tab):
            continue
        if not (last_ok or held(st, p) > 1):
            continue
        if c == JK:
            n = add_wild_choices(st, p, A_LAYOFF, sc[i, 1], sc[i, 2], acts, n)
        else:
            acts[n] = act(A_LAYOFF, c, sc[i, 1], sc[i, 2], 0, 0)
            n += 1
    return n


@njit(cache=True)
def add_wild_choices(st, p, kind, b, c, acts, n):
    """One action (kind, wild card, b, c) per kind of wild card seat p holds: the joker,
    then the twos by suit."""
    if st[HJ + p] > 0:
        acts[n] = act(kind, JK, b, c, 0, 0)
        n += 1
    for s in range(4):
        if (st[HT + p] >> (2 * s)) & 3:
            acts[n] = act(kind, s * 13 + 1, b, c, 0, 0)
            n += 1
    return n


@njit(cache=True)
def add_joker_ops(st, opts, p, tab, rules, sc, acts, n, last_ok):
    """Joker shifts and group-joker retrievals (§10)."""
    if opts[O_EXCHANGE_MODEL] != 0 or (opts[O_JOKER_PRIOR] and st[DOWN_TURN + p] == st[TURN]):
        return n
    k = M.joker_shifts(st[H1 + p], st[H2 + p], wilds(st, p), tab, st[NMELDS], rules, sc)
    for i in range(k):
        if joker_ops_ok(st, opts, p, sc[i, 1], tab) and (last_ok or held(st, p) > 1):
            acts[n] = act(A_SHIFT, sc[i, 0], sc[i, 1], sc[i, 2], 0, 0)
            n += 1
    k = M.joker_retrievals(st[H1 + p], st[H2 + p], wilds(st, p), tab, st[NMELDS], rules, sc)
    for i in range(k):
        if joker_ops_ok(st, opts, p, sc[i, 0], tab):
            acts[n] = act(A_RETRIEVE, sc[i, 0], sc[i, 1], sc[i, 2] + 1, 0, 0)
            n += 1
    if opts[O_RUN_TAKE]:
        k = M.joker_takes(st[H1 + p], tab, st[NMELDS], rules, sc)
        for i in range(k):
            if joker_ops_ok(st, opts, p, sc[i, 1], tab):
                acts[n] = act(A_TAKE_WILD, sc[i, 0], sc[i, 1], 0, 0, 0)
                n += 1
    return n


@njit(cache=True)
def add_discards(st, p, acts, n):
    m = st[H1 + p]
    while m:
        acts[n] = act(A_DISCARD, lowbit(m), 0, 0, 0, 0)
        n += 1
        m &= m - 1
    return add_wild_choices(st, p, A_DISCARD, 0, 0, acts, n)


@njit(cache=True)
def turn_discards(st, p, acts, n):
    """Step C's discards: every card held but the kind just taken from the pile under
    take_discard (a pass otherwise), unless nothing else is left."""
    m = add_discards(st, p, acts, n)
    if st[TAKEN] < 0:
        return m
    k = n
    for i in range(n, m):
        if field(acts[i], 1) != st[TAKEN]:
            acts[k] = acts[i]
            k += 1
    return k if k > n else m


@njit(cache=True, inline='always')
def contracts_of(opts):
    return opts[O_CONTRACTS:O_SIZE].reshape((CONTRACT_ROWS, C_STRIDE))


@njit(cache=True)
def exchange_holding(st, p, tab, i, c):
    """Seat p's holding after giving c to meld i for its joker: (p1, p2, jokers)."""
    q1, q2 = M.dd_remove_mask(st[H1 + p], st[H2 + p], np.int64(1) << c)
    return q1, q2, wilds(st, p) + 1


@njit(cache=True)
def joker_card(tab, i, c):
    """Natural c can take the place of a joker of table meld i (Ecuador exchange)."""
    row = tab[i]
    if row[M.M_JOKERS] == 0:
        return False
    if row[M.M_KIND] == M.MK_GROUP:
        return c % 13 == row[M.M_KEY]
    if c // 13 != row[M.M_KEY]:
        return False
    jm = row[M.M_JPOS]
    while jm:
        if M.pos_rank(lowbit(jm)) == c % 13:
            return True
        jm &= jm - 1
    return False


@njit(cache=True)
def add_exchange_downs(st, opts, p, tab, mo, acts, n):
    """Ecuador (A39): go down using a joker taken from another player's contract meld. Only
    offered when the holding cannot go down without it; then every way to go down with the
    exchanged holding uses a joker, as the rule requires."""
    for i in range(st[NMELDS]):
        if tab[i, T_OWNER] == p or tab[i, T_CONTRACT] == 0 or tab[i, M.M_JOKERS] == 0:
            continue
        m = st[H1 + p]
        while m:
            c = lowbit(m)
            m &= m - 1
            if not joker_card(tab, i, c):
                continue
            q1, q2, qj = exchange_holding(st, p, tab, i, c)
            if contract_melds(q1, q2, qj, st[CONTRACT], opts, mo, True):
                acts[n] = act(A_GO_DOWN, i + 1, c, 0, 0, 0)
                n += 1
    return n


@njit(cache=True)
def go_out(p1, p2, jokers, opts, mo):
    """The last hand laid in one go (Hand 7, §12): the discard of going out (melds in
    ``mo``; 52 = a wild card, 53 = none), -1 when the holding cannot; with
    final_discard_required (A24) always a card. The Hand-7 partition solver takes extra
    melds beside the contract (§12.2); without extra melds (allow_extra_melds false), or
    under rules it does not cover, the contract alone must take the cards (melds.gen_go_out,
    any alternative of the contract)."""
    k = opts[O_HANDS]
    rules = rules_of(opts)
    need = opts[O_FINAL_DISCARD] != 0
    spec = spec_of(opts, k)
    if opts[O_EXTRA_MELDS] and spec[M.C_NEXT] == 0 and not M.needs_general(spec, rules) \
            and rules[M.R_MAX_JOKERS] <= 1:
        return M.sep_go_out_partition(p1, p2, jokers, spec, rules, mo, need)
    return M.sep_gen_go_out(p1, p2, jokers, contracts_of(opts), k, rules, mo, need)


@njit(cache=True)
def solve_row(p1, p2, jok, contracts, h, alt, rules, mo, stop_first):
    """Points laid by the best way to go down in hand h (alt = 0: any of its alternatives;
    alt > 0: that contracts row alone), -1 when the holding lacks it."""
    if alt > 0:
        return M.sep_solve_contract(p1, p2, jok, contracts[alt], rules, mo, stop_first)
    return M.sep_solve_hand(p1, p2, jok, contracts, h, rules, mo, stop_first)


@njit(cache=True)
def contract_melds(p1, p2, jok, h, opts, mo, stop_first, alt=0):
    """The melds of going down in hand h into ``mo`` (``alt`` > 0: with that alternative
    contract row): the most points laid (or the first way found); False when the holding
    lacks the contract. With final_discard_required (A24) the
    melds keep a card back for the discard: when the best way lays every card, the best way
    without each card in turn is taken instead."""
    contracts = contracts_of(opts)
    rules = rules_of(opts)
    gain = solve_row(p1, p2, jok, contracts, h, alt, rules, mo, stop_first)
    if gain < 0 or opts[O_FINAL_DISCARD] == 0 or table_cards(mo, len(mo)) < hand_size(p1, p2, jok):
        return gain >= 0
    best, keep = -1, -1
    m = p1 | (np.int64(1) << JK if jok > 0 else np.int64(0))
    while m:
        c = lowbit(m)
        m &= m - 1
        q1, q2, qj = without(p1, p2, jok, c)
        g = solve_row(q1, q2, qj, contracts, h, alt, rules, mo, stop_first)
        if g > best:
            best, keep = g, c
            if stop_first:
                return True
    if best < 0:
        return False
    q1, q2, qj = without(p1, p2, jok, keep)
    solve_row(q1, q2, qj, contracts, h, alt, rules, mo, stop_first)
    return True


@njit(cache=True, inline='always')
def hand_size(p1, p2, jok):
    return popcount(p1) + popcount(p2) + jok


@njit(cache=True)
def without(p1, p2, jok, c):
    """The holding (p1, p2, jokers) less one card c (52 = a joker)."""
    if c == JK:
        return p1, p2, jok - 1
    q1, q2 = M.dd_remove_mask(p1, p2, np.int64(1) << c)
    return q1, q2, jok


@njit(cache=True)
def legal_not_down(st, opts, tab, mo, acts):
    """Step B/C of a player who has not gone down: go down / go out in Hand 7, discard."""
    p = st[CUR]
    n = 0
    if st[TABLE_ACTS] == 0:
        if hand7_at_once(st, opts):
            d = go_out(st[H1 + p], st[H2 + p], wilds(st, p), opts, mo)
            if d >= 0:
                acts[n] = act(A_GO_OUT7, 0, 0, 0, 0, 0)
                n += 1
            elif d == M.GO_CAPPED:
                st[CAPPED] += 1
        else:
            h = st[CONTRACT]
            row = spec_of(opts, h)[M.C_NEXT]
            if row:                                 # alternatives: one go-down per contract held
                alt = h
                while alt:
                    if contract_melds(st[H1 + p], st[H2 + p], wilds(st, p), h, opts, mo, True, alt):
                        acts[n] = act(A_GO_DOWN, 0, 0, alt, 0, 0)
                        n += 1
                    alt = spec_of(opts, alt)[M.C_NEXT]
            elif contract_melds(st[H1 + p], st[H2 + p], wilds(st, p), h, opts, mo, True):
                acts[n] = act(A_GO_DOWN, 0, 0, 0, 0, 0)
                n += 1
            elif opts[O_EXCHANGE_MODEL] == 1:
                n = add_exchange_downs(st, opts, p, tab, mo, acts, n)
    return turn_discards(st, p, acts, n)


@njit(cache=True)
def legal_down(st, opts, tab, sc, acts):
    """Step B/C of a player who is down: extra melds, lay-offs, joker operations, discard."""
    p = st[CUR]
    rules = rules_of(opts)
    last_ok = opts[O_FINAL_DISCARD] == 0
    n = 0
    if st[TABLE_ACTS] < MAX_ACTIONS_PER_TURN:
        due = st[JOKER_DUE] > 0
        if opts[O_EXTRA_MELDS]:
            k = add_group_melds(st, p, rules, acts, 0)
            if opts[O_EXTRA_RUNS]:
                k = add_run_melds(st, p, rules, acts, k)
            for i in range(k):
                x = acts[i]
                big = meld_size(st, p, x, rules)
                if (last_ok or big < held(st, p)) and (lays_wild(x) or not due):
                    acts[n] = x
                    n += 1
        n = add_layoffs(st, opts, p, tab, rules, sc, acts, n, due, last_ok)
        if not due:
            n = add_joker_ops(st, opts, p, tab, rules, sc, acts, n, last_ok)
        if due and n > 0:
            return n
    return turn_discards(st, p, acts, n)


@njit(cache=True)
def legal_actions(st, opts, tab, sc, mo, acts):
    """Legal actions of the seat to act (CUR, or ASK in the buy window)."""
    ph = st[PHASE]
    if ph == P_BUY:
        acts[0] = act(A_BUY, 0, 0, 0, 0, 0)
        acts[1] = act(A_PASS, 0, 0, 0, 0, 0)
        return 2
    if ph == P_UPCARD:
        acts[0] = act(A_TAKE_UPCARD, 0, 0, 0, 0, 0)
        acts[1] = act(A_DRAW, 0, 0, 0, 0, 0)
        return 2
    if ph == P_EXCHANGE:
        n = add_discards(st, st[CUR], acts, 0)
        for i in range(n):
            acts[i] = act(A_EX_CARD, field(acts[i], 1), 0, 0, 0, 0)
        acts[n] = act(A_EX_DONE, 0, 0, 0, 0, 0)
        return n + 1
    if ph == P_OPEN:
        return add_discards(st, st[CUR], acts, 0)
    if ph == P_CHOOSE:
        n = 0
        for k in range(1, opts[O_HANDS] + 1):
            if not (st[USED] >> k) & 1:
                acts[n] = act(A_CHOOSE, k, 0, 0, 0, 0)
                n += 1
        return n
    if ph == P_ACT:
        if st[DOWN + st[CUR]]:
            return legal_down(st, opts, tab, sc, acts)
        return legal_not_down(st, opts, tab, mo, acts)
    return 0


# =============================================================================
# table actions: applying them
# =============================================================================
@njit(cache=True)
def lay_row(st, opts, tab, p, row, contract, trace):
    """Put meld ``row`` on the table as seat p's and take its cards from the holding (its
    wild cards: pick_wild each)."""
    i = st[NMELDS]
    for f in range(M.M_SIZE):
        tab[i, f] = row[f]
    tab[i, T_OWNER] = p
    tab[i, T_TURN] = st[TURN]
    tab[i, T_CONTRACT] = contract
    st[NMELDS] = i + 1
    tab[i, T_TWOS] = take_mask(st, p, row[M.M_P1], row[M.M_P2], row[M.M_JOKERS], rules_of(opts))
    log_meld(st, trace, tab, i)


@njit(cache=True)
def lay_rows(st, opts, tab, p, mo, contract, trace):
    for i in range(mo.shape[0]):
        if mo[i, M.M_KIND] != M.MK_NONE:
            lay_row(st, opts, tab, p, mo[i], contract, trace)


@njit(cache=True)
def give_for_joker(st, opts, tab, p, i, c):
    """Natural c takes the place of a wild card of meld i, which goes to seat p (the Ecuador
    exchange; run_wild_takeback)."""
    wild_out(st, tab, i, p)
    row = tab[i]
    if row[M.M_KIND] == M.MK_RUN:
        M.take_joker_place(row, c)
    else:
        M.apply_layoff(tab, i, c, 0, rules_of(opts))
        row[M.M_JOKERS] -= 1
    take(st, p, c)


@njit(cache=True)
def go_down(st, opts, tab, mo, x, trace):
    """Lay the contract (§9.1) the way that leaves the fewest penalty points (x's c > 0: of
    that alternative contract row)."""
    p = st[CUR]
    if field(x, 1) > 0:
        give_for_joker(st, opts, tab, p, field(x, 1) - 1, field(x, 2))
        log_meld(st, trace, tab, field(x, 1) - 1)
    contract_melds(st[H1 + p], st[H2 + p], wilds(st, p), st[CONTRACT], opts, mo, False, field(x, 3))
    lay_rows(st, opts, tab, p, mo, 1, trace)
    st[DOWN + p] = 1
    st[DOWN_TURN + p] = st[TURN]


@njit(cache=True)
def meld_row(st, p, x, row, rules):
    """The meld row of an A_MELD action."""
    row[:] = 0
    row[M.M_KIND] = field(x, 1)
    row[M.M_KEY] = field(x, 2)
    if field(x, 1) == M.MK_GROUP:
        if field(x, 2) == M.WILD_TRIO_RANK:
            row[M.M_KEY] = 0
            row[M.M_FLAGS] = M.F_WILD
            row[M.M_JOKERS] = 3
            return
        g1, g2 = group_cards(st, p, field(x, 2), rules)
        row[M.M_JOKERS] = field(x, 3)
    else:
        s, lo, hi, jp = field(x, 2), field(x, 3), field(x, 4), field(x, 5)
        iv = M.interval(lo, hi)
        if jp == RUN_FILL:
            jpos = iv & ~M.suit_positions_of(st[H1 + p], s, rules)
        else:
            jpos = np.int64(1) << jp if jp else np.int64(0)
        g1 = M.pos_to_ranks(iv & ~jpos) << (13 * s)
        g2 = np.int64(0)
        row[M.M_LO] = lo
        row[M.M_HI] = hi
        row[M.M_JOKERS] = popcount(jpos)
        row[M.M_JPOS] = jpos
    row[M.M_P1] = g1
    row[M.M_P2] = g2


@njit(cache=True)
def go_out_hand7(st, opts, tab, mo, trace):
    """Hand 7 (§12.2): lay the whole partition, discard the card left over if any."""
    p = st[CUR]
    d = go_out(st[H1 + p], st[H2 + p], wilds(st, p), opts, mo)
    lay_rows(st, opts, tab, p, mo, 1, trace)
    if d != M.GO_OUT_NO_DISCARD:
        if d == JK:
            d = pick_wild(st, p, rules_of(opts))        # the wild card left over
        take(st, p, d)
        pile_push(st, d)
        log(st, trace, T_ACTION, p, act(A_DISCARD, d, 0, 0, 0, 0), 0, st[CHIPS + p])
    st[DOWN + p] = 1
    st[DOWN_TURN + p] = st[TURN]


@njit(cache=True)
def lay_off(st, opts, tab, p, i, card, pos):
    """Seat p lays ``card`` (a natural, the joker or a wild two) off onto meld i."""
    rules = rules_of(opts)
    wild = card == JK or is_wild_two(st, card)
    M.apply_layoff(tab, i, JK if wild else card, pos, rules)
    if wild and card != JK:
        tab[i, T_TWOS] += np.int64(1) << (2 * (card // 13))
    take(st, p, card)
    if wild and st[JOKER_DUE] > 0:
        st[JOKER_DUE] -= 1


@njit(cache=True)
def table_action(st, opts, tab, mo, x, trace):
    """Apply one step-B action of CUR; every meld laid or changed goes to the trace."""
    p = st[CUR]
    kind = x & 15
    a, b, c = field(x, 1), field(x, 2), field(x, 3)
    if kind == A_GO_DOWN:
        go_down(st, opts, tab, mo, x, trace)
    elif kind == A_MELD:
        meld_row(st, p, x, mo[0], rules_of(opts))
        lay_row(st, opts, tab, p, mo[0], 0, trace)
    elif kind == A_LAYOFF:
        lay_off(st, opts, tab, p, b, a, c)
        log_meld(st, trace, tab, b)
    elif kind == A_SHIFT:
        M.apply_joker_shift(tab, b, a, c)
        take(st, p, a)
        log_meld(st, trace, tab, b)
    elif kind == A_RETRIEVE:
        wild_out(st, tab, a, p)
        M.apply_retrieval(tab, a, b, c - 1, rules_of(opts))
        take(st, p, b)
        if c > 0:
            take(st, p, c - 1)
        st[JOKER_DUE] += opts[O_JOKER_NOW]
        log_meld(st, trace, tab, a)
    elif kind == A_TAKE_WILD:
        give_for_joker(st, opts, tab, p, b, a)
        st[JOKER_DUE] += opts[O_JOKER_NOW]
        log_meld(st, trace, tab, b)
    elif kind == A_GO_OUT7:
        go_out_hand7(st, opts, tab, mo, trace)
    st[TABLE_ACTS] += 1
    if kind == A_MELD and st[JOKER_DUE] > 0 and tab[st[NMELDS] - 1, M.M_JOKERS] > 0:
        st[JOKER_DUE] -= 1
    if held(st, p) == 0:
        st[OUT] = p
        end_hand(st, H_OUT)


@njit(cache=True)
def discard(st, opts, c, gplay, trace):
    """Step C: discard c; an empty holding goes out, else the buy window opens."""
    p = st[CUR]
    take(st, p, c)
    pile_push(st, c)
    if held(st, p) == 0:
        st[OUT] = p
        end_hand(st, H_OUT)
    else:
        open_window(st, opts, p, c, 0, gplay, trace)


@njit(cache=True)
def apply_action(st, opts, tab, mo, x, gplay, trace):
    """Apply action x of the seat to act."""
    kind = x & 15
    seat = st[ASK] if st[PHASE] == P_BUY else st[CUR]
    log(st, trace, T_ACTION, seat, x, 0, st[CHIPS + seat])
    if kind == A_BUY:
        buy(st, opts, gplay, trace)
    elif kind == A_PASS:
        pass_buy(st, opts, gplay, trace)
    elif kind == A_TAKE_UPCARD:
        c = pile_pop(st)
        known_give(st, st[CUR], c)
        st[TAKEN] = c if opts[O_TAKE_DISCARD] else -1
        log(st, trace, T_TAKE, st[CUR], c, 0, 0)
        st[PHASE] = P_ACT
    elif kind == A_DRAW:
        decline_upcard(st, opts, gplay, trace)
    elif kind == A_CHOOSE:
        choose_contract(st, opts, field(x, 1), gplay, trace)
    elif kind == A_EX_CARD:
        exchange_card(st, field(x, 1))
    elif kind == A_EX_DONE:
        exchange_done(st, opts, gplay, trace)
    elif kind == A_DISCARD:
        discard(st, opts, field(x, 1), gplay, trace)
    else:
        table_action(st, opts, tab, mo, x, trace)


# =============================================================================
# strategies
# =============================================================================
BIG = 1 << 20


@njit(cache=True)
def group_need(p1, p2, jok, spec, rules, exact=False):
    """Cards still missing for the contract groups (a heuristic: wild cards fill up to
    R_GROUP_WILDS gaps per group; two groups from one rank need twice the size; three or
    four groups: the smallest gaps of as many ranks). Without ``exact`` (the greedy family,
    as built) the wild cards are capped per contract, not per group: with groups short by
    0 and 2 cards, two jokers count as closing both (one meld may hold only one); the
    expert (``exact``) caps them per group (``wild_use``)."""
    g = spec[M.C_GROUPS]
    if g == 0:
        return 0, jok
    size = spec[M.C_GROUP_SIZE]
    pure = spec[M.C_PURE] >= g
    nodup = rules[M.R_GROUP_DUPS] == 0          # a group takes one natural a suit (A3)
    d1 = BIG
    d2 = BIG
    same = BIG
    gaps = np.zeros(13, np.int64)
    for r in range(13):
        rm = rank_mask(r)
        both = popcount(p1 & rm) + popcount(p2 & rm)
        nat = popcount(p1 & rm) if pure or nodup else both
        d = max(0, size - nat)
        gaps[r] = d
        if d < d1:
            d2 = d1
            d1 = d
        elif d < d2:
            d2 = d
        same = min(same, max(0, 2 * size - (nat if pure else both)))
    if g <= 2:
        need = d1 if g == 1 else min(d1 + d2, same)
    else:
        need = np.sort(gaps)[:g].sum()
    if pure:
        return need, jok
    w = rules[M.R_GROUP_WILDS]
    if not exact:
        use = min(jok, g * w, need)
    elif g == 1:
        use = min(jok, w, d1)
    elif g == 2:
        use = min(jok, wild_use(d1, w) + wild_use(d2, w)) if d1 + d2 <= same else min(jok, 2 * w, same)
    else:
        use = 0
        for d in np.sort(gaps)[:g]:
            use += wild_use(d, w)
        use = min(jok, use)
    return need - use, jok - use


@njit(cache=True, inline='always')
def wild_use(gap, w):
    """Wild cards one group short of ``gap`` naturals can take (at most ``w`` a meld)."""
    return min(gap, w)


@njit(cache=True)
def run_need(p1, jok, spec, rules):
    """Cards still missing for the contract runs (the best window of the minimum length per
    suit; several runs: the best suits' windows)."""
    runs = spec[M.C_RUNS]
    if runs == 0:
        return 0
    ln = max(spec[M.C_RUN_MIN], rules[M.R_MIN_RUN])
    last_lo = M.gen_span(rules)[0]
    gaps = np.full(4, ln, np.int64)
    for s in range(4):
        pos = M.suit_positions_of(p1, s, rules)
        for lo in range(1, last_lo + 1):
            if M.pos_allowed(lo, lo + ln - 1, rules):
                gaps[s] = min(gaps[s], ln - popcount(pos & M.interval(lo, lo + ln - 1)))
    need = np.sort(gaps)[:runs].sum() + ln * max(0, runs - 4)
    return max(0, need - min(jok, runs * rules[M.R_RUN_WILDS]))


@njit(cache=True)
def contract_need(p1, p2, jok, spec, rules, exact=False):
    """Heuristic distance to the contract: cards still missing (``exact``: group_need's)."""
    g, left = group_need(p1, p2, jok, spec, rules, exact)
    return g + run_need(p1, left, spec, rules)


@njit(cache=True)
def hand_need(p1, p2, j, opts, k, exact=False):
    """contract_need of contract k: the nearest of its alternatives."""
    rules = rules_of(opts)
    need = BIG
    row = k
    while row:
        spec = spec_of(opts, row)
        need = min(need, contract_need(p1, p2, j, spec, rules, exact))
        row = spec[M.C_NEXT]
    return need


@njit(cache=True)
def h7_shape(st, opts):
    """This hand is laid at once and its contract is one run (and at most one group) that
    the Hand-7 heuristics below model: a run window plus a group beside it."""
    if not hand7_at_once(st, opts):
        return False
    spec = spec_of(opts, st[CONTRACT])
    return spec[M.C_NEXT] == 0 and spec[M.C_RUNS] == 1 and spec[M.C_GROUPS] <= 1 \
        and not M.needs_general(spec, rules_of(opts))


@njit(cache=True)
def need_with(st, opts, p, c, extra=0, exact=False):
    """The distance to this hand's contract of seat p's holding, with card c added when
    c >= 0 and ``extra`` unknown cards besides (a purchase's penalty cards; Hand 7 laid at
    once: h7_need, where every card held must be laid)."""
    p1, p2, j = st[H1 + p], st[H2 + p], wilds(st, p)
    if c == JK or (c >= 0 and is_wild_two(st, c)):
        j += 1
    elif c >= 0:
        b = np.int64(1) << c
        if p1 & b:
            p2 |= b
        else:
            p1 |= b
    rules = rules_of(opts)
    if h7_shape(st, opts):
        lay = hand_size(p1, p2, j) + extra
        return h7_need(p1, p2, j, rules, spec_of(opts, st[CONTRACT]), lay)
    return hand_need(p1, p2, j, opts, st[CONTRACT], exact)


# Hand 7 going out at once needs the whole holding in melds: with 12 cards after the draw,
# a group of 3 and a run of 8 (and a discard); every purchase makes the melds two cards
# bigger. The greedy family picks a target: the suit and window (of the run length the
# holding needs, at least the contract's) holding most of its cards, and keeps a group
# beside it.
H7_GROUP = 3


@njit(cache=True)
def h7_window(spec, lay):
    """Run length of the Hand-7 target when ``lay`` cards must be laid."""
    return min(13, max(spec[M.C_RUN_MIN], lay - h7_group(spec), 3))


@njit(cache=True, inline='always')
def h7_group(spec):
    return spec[M.C_GROUP_SIZE] if spec[M.C_GROUPS] else H7_GROUP


@njit(cache=True)
def h7_target(p1, rules, ln):
    """(suit, window mask, positions held in it) of the best ``ln``-window of a suit."""
    best_s, best_w, best_k = 0, np.int64(0), -1
    for s in range(4):
        pos = M.suit_positions(p1, s)
        for lo in range(1, 16 - ln):
            w = M.interval(lo, lo + ln - 1)
            k = popcount(pos & w)
            if k > best_k and M.pos_allowed(lo, lo + ln - 1, rules):
                best_s, best_w, best_k = s, w, k
    return best_s, best_w, best_k


@njit(cache=True)
def in_window(c, s, w):
    return c // 13 == s and (M.suit_positions(np.int64(1) << c, s) & w) != 0


@njit(cache=True)
def h7_need(p1, p2, jok, rules, spec, lay):
    """Cards missing to lay ``lay`` cards as a run in the target window plus a group beside
    it (at most one joker each; what neither holds counts as missing)."""
    ln = h7_window(spec, lay)
    gs = h7_group(spec)
    s, w, k = h7_target(p1, rules, ln)
    run = M.pos_to_ranks(w) << (13 * s)
    grp = 0
    for r in range(13):
        rm = rank_mask(r)
        grp = max(grp, popcount(p1 & rm & ~run) + popcount(p2 & rm))
    need = max(0, ln - k) + max(0, gs - grp) + max(0, lay - ln - gs)
    return max(0, need - min(jok, 2))


@njit(cache=True)
def run_shape(spec, rules):
    """Contract row ``spec`` is one run and at most one group (target_keep models it)."""
    return spec[M.C_RUNS] == 1 and spec[M.C_GROUPS] <= 1 and not M.needs_general(spec, rules)


@njit(cache=True)
def target_keep(st, p, c, rules, spec, ln, gw):
    """Keep score of card c towards a run of ``ln`` in the target window (the suit and
    window holding most of the run) and a group beside it: the target run first, then
    groups (up to the group's size, weight ``gw``), then neighbours."""
    p1, p2 = st[H1 + p], st[H2 + p]
    s, w, k = h7_target(p1, rules, ln)
    b = np.int64(1) << c
    if in_window(c, s, w) and (p2 & b) == 0:
        return 1000 - rules[M.R_POINTS + c % 13]
    rm = rank_mask(c % 13)
    run = M.pos_to_ranks(w) << (13 * s)
    grp = popcount(p1 & rm & ~run) + popcount(p2 & rm)
    cs = c // 13
    near = popcount(M.suit_positions(p1, cs) & near_mask(M.suit_positions(b, cs) & -M.suit_positions(b, cs)))
    return 100 * (gw * min(grp, h7_group(spec)) + near) - rules[M.R_POINTS + c % 13]


@njit(cache=True)
def nearest_spec(st, opts, p, exact=False):
    """The contracts row of this hand's contract (of its alternatives, the one seat p's
    holding is nearest to)."""
    row = st[CONTRACT]
    if spec_of(opts, row)[M.C_NEXT] == 0:
        return row
    rules = rules_of(opts)
    best, need = row, BIG
    while row:
        spec = spec_of(opts, row)
        d = contract_need(st[H1 + p], st[H2 + p], wilds(st, p), spec, rules, exact)
        if d < need:
            best, need = row, d
        row = spec[M.C_NEXT]
    return best


@njit(cache=True)
def wants(st, opts, p, c, sid, prm):
    """Seat p (greedy family) takes / buys card c. A purchase counts its penalty cards: in a
    hand laid at once they must be laid too. A seat already down never buys (its contract
    is laid; a purchase only adds a card to lay off and a penalty card)."""
    buying = st[PHASE] == P_BUY
    ex = sid == S_EXPERT
    if buying and planner_like(sid) and prm[Q_DENY] >= 0 and st[CHIPS + p] > prm[Q_DENY] \
            and (c == JK or is_wild_two(st, c) or collected_after(st, opts, p, c)):
        return True                                 # deny the next seats a wild card, or a card they collect
    if buying and st[DOWN + p]:
        return False
    before = need_with(st, opts, p, -1, 0, ex)
    extra = opts[O_BUY_PENALTY]                     # the bought card's own place: need_with
    if planner_like(sid) and prm[Q_H7_GROWTH] >= 0:
        extra = int(prm[Q_H7_GROWTH]) - 1
    after = need_with(st, opts, p, c, extra if buying else -1, ex)   # taken instead of the draw
    grow = buying and rules_of(opts)[M.R_GROUP_DUPS] == 0 and needs_growth(opts, st[CONTRACT])
    if after > before or (after == before and not (grow and stuck_down(st, opts, p))):
        return False                                # (a hand won only by a purchase: grow)
    if not buying:
        return True
    keep = 0 if grow else growth_hands_after(st, opts)
    if keep > 0 and st[CHIPS + p] <= keep:
        return False                                # a chip kept for each such hand to come
    late = st[HNO] == opts[O_HANDS] or grow
    if sid == S_CHIP_SAVER:
        return late or st[CHIPS + p] > prm[0]
    if sid == S_PATIENT:
        return after <= prm[1] and (late or st[CHIPS + p] > prm[0])
    if planner_like(sid):
        to_go = opts[O_HANDS] - st[HNO]             # hands after this one
        return after <= prm[Q_NEAR] and (late or st[CHIPS + p] > prm[Q_RESERVE] + prm[Q_PER_HAND] * to_go)
    return True


@njit(cache=True)
def collects(st, opts, q, c):
    """Seat q is publicly collecting natural c: it holds a copy every seat saw it take (KN,
    from the discard pile) of c's rank when this hand's contract has groups, or of c's suit
    within two ranks of it when it has runs."""
    spec = spec_of(opts, st[CONTRACT])
    base = KN + KN_STRIDE * q
    for x in range(52):
        if st[base + x] > 0:
            if spec[M.C_GROUPS] > 0 and x % 13 == c % 13:
                return True
            if spec[M.C_RUNS] > 0 and x // 13 == c // 13 and abs(x % 13 - c % 13) <= 2:
                return True
    return False


@njit(cache=True)
def collected_after(st, opts, p, c):
    """A seat asked after p in this buy window (may buy, by priority) is publicly collecting
    natural c (``collects``): buying c denies it to that seat (the planner's ``deny``)."""
    if c == JK or is_wild_two(st, c):
        return False
    n = st[N]
    for k in range(priority_step(st, p) + 1, n + 1):
        q = (st[DISCARDER] + k) % n
        if q != p and may_buy(st, opts, q) and collects(st, opts, q, c):
            return True
    return False


@njit(cache=True)
def joker_room(st, opts, p):
    """Wild cards seat p can still use: down, one for an extra meld while it holds more than
    two cards (the greedy family lays off at once every wild card the table takes; with no
    extra melds, or two cards left, a wild card nobody's meld took is shed); in a hand laid at once, one for the run and
    one for the group; otherwise one per contract meld that admits one (capped by the
    contract's joker limit; the best alternative) and one more for an extra meld after going
    down."""
    if st[DOWN + p]:
        return 1 if opts[O_EXTRA_MELDS] and held(st, p) > 2 else 0
    if h7_shape(st, opts):
        return 2
    rules = rules_of(opts)
    room = 0
    row = st[CONTRACT]
    while row:
        spec = spec_of(opts, row)
        r = (spec[M.C_GROUPS] - min(spec[M.C_PURE], spec[M.C_GROUPS])) * rules[M.R_GROUP_WILDS] \
            + spec[M.C_RUNS] * rules[M.R_RUN_WILDS]
        if spec[M.C_JOKER_LIMIT] >= 0:
            r = min(r, spec[M.C_JOKER_LIMIT])
        room = max(room, r)
        row = spec[M.C_NEXT]
    if opts[O_EXTRA_MELDS] and not hand7_at_once(st, opts) and \
            (rules[M.R_GROUP_DUPS] or held(st, p) + 1 - contract_cards(opts, st[CONTRACT]) >= 4):
        room += 1                                   # (no identical cards: only if an extra meld fits)
    return room


@njit(cache=True)
def contract_cards(opts, k):
    """Fewest cards a go-down with contract k (its first row) lays."""
    spec = spec_of(opts, k)
    return spec[M.C_GROUPS] * spec[M.C_GROUP_SIZE] + spec[M.C_RUNS] * spec[M.C_RUN_MIN]


@njit(cache=True)
def near_mask(q):
    """Positions within two of run position q, q excluded."""
    return M.interval(max(q - 2, 1), min(q + 2, 14)) & ~(np.int64(1) << q)


@njit(cache=True)
def keep_score(st, opts, p, c, exact=False, room=0):
    """How much seat p wants to keep card c (low = discard first; ties go to the card
    with the higher penalty). Wild cards are kept while the melds can take them
    (joker_room; the expert ``room`` more while not down), a surplus one goes first.
    Copies of a rank count up to what the contract's groups take (runs-only contract: an
    extra group of 3 after going down)."""
    rules = rules_of(opts)
    if c == JK or is_wild_two(st, c):
        if wilds(st, p) <= joker_room(st, opts, p) + (room if st[DOWN + p] == 0 else 0):
            return BIG
        return -rules[M.R_JOKER_POINTS] if c == JK else -rules[M.R_POINTS + c % 13]
    row = nearest_spec(st, opts, p, exact)
    spec = spec_of(opts, row)
    if st[DOWN + p] == 0 and run_shape(spec, rules):
        ln = h7_window(spec, held(st, p) - 1) if hand7_at_once(st, opts) else spec[M.C_RUN_MIN]
        gw = 2 if spec[M.C_GROUPS] or opts[O_EXTRA_MELDS] else 0
        return target_keep(st, p, c, rules, spec, ln, gw)
    r = c % 13
    s = c // 13
    rm = rank_mask(r)
    nat = popcount(st[H1 + p] & rm) + popcount(st[H2 + p] & rm)
    pos = M.suit_positions(st[H1 + p], s)
    cp = M.suit_positions(np.int64(1) << c, s)
    near = 0
    while cp:
        q = lowbit(cp)
        cp &= cp - 1
        near += popcount(pos & near_mask(q))
    wg, wr = 2, 2
    if st[DOWN + p] == 0:
        if rules[M.R_GROUP_DUPS] == 0 and st[H2 + p] & (np.int64(1) << c):
            return -100 * wg - rules[M.R_POINTS + r]    # a second copy: no group takes it (A3), nor a run
        if spec[M.C_GROUPS] == 0:
            wg, wr = 1, 3
            nat = min(nat, 3 if opts[O_EXTRA_MELDS] else 1)
        else:
            nat = min(nat, (spec[M.C_GROUPS] if spec[M.C_GROUP_EXACT] == 0 or not hand7_at_once(st, opts)
                            else 1) * spec[M.C_GROUP_SIZE])
            if spec[M.C_RUNS]:
                wg, wr = 2, 3
            else:
                wg, wr = 4, 1
    return 100 * (wg * (nat - 1) + wr * near) - rules[M.R_POINTS + r]


@njit(cache=True)
def best_discard(st, opts, acts, n, kind, exact=False, room=0):
    """Index of the action of ``kind`` whose card has the lowest keep score."""
    best = -1
    score = BIG + 1
    for i in range(n):
        if acts[i] & 15 == kind:
            k = keep_score(st, opts, st[CUR], field(acts[i], 1), exact, room)
            if k < score:
                score = k
                best = i
    return best


ACT_ORDER = (A_GO_OUT7, A_GO_DOWN, A_SHIFT, A_RETRIEVE, A_MELD, A_LAYOFF)


@njit(cache=True)
def pick_go_down(st, opts, mo, acts, n, pref):
    """Among go-down actions of alternative contracts (Peru 2's last hand), the one the
    strategy takes: ``pref`` = 0 the one laying the most points (ties: the first), k > 0 the
    k-th alternative when held (else the most points); -1 when there is none."""
    best, gain, k = -1, -1, 0
    p = st[CUR]
    for i in range(n):
        if acts[i] & 15 != A_GO_DOWN:
            continue
        alt = field(acts[i], 3)
        if alt == 0:
            return i
        k += 1
        if k == pref:
            return i
        g = solve_row(st[H1 + p], st[H2 + p], wilds(st, p), contracts_of(opts), st[CONTRACT], alt,
                      rules_of(opts), mo, False)
        if g > gain:
            best, gain = i, g
    return best


# A hand still running after STALL_TURNS turns is usually a standoff: every seat keeps the
# cards another needs (all chasing one suit, no chips left; or each holding one of the two
# jokers its contract needs). From then on the greedy family breaks it: a seat still two or
# more cards from its contract makes one discard in STALL_ODDS a uniformly random non-wild
# card (the seats nearest to it play on); after twice as many turns every seat does, wild
# cards included, except in a hand laid at once (no seat needs a wild card there, and
# scrambling the seats nearest to going out kept 0.1 % of Hand 7s at the turn cap). A hand
# won only by a purchase (needs_growth) has its own breaker (growth_breaker).
STALL_TURNS = 300
STALL_ODDS = 3


@njit(cache=True)
def greedy_act(st, opts, mo, acts, n, stall, pref, gplay, exact=False, dump_at=0, dump_need=0, room=0,
               rich=False):
    """Go out / go down / joker operations / melds / lay-offs first, then discard (after
    ``stall`` turns of the hand, sometimes a random card: STALL_TURNS; the expert sheds
    points when the hand is lost: ``sheds``, and with ``rich`` lays the extra meld that
    lays the most points first: ``richest_meld``)."""
    for kind in ACT_ORDER:
        if kind == A_GO_DOWN:
            i = pick_go_down(st, opts, mo, acts, n, pref)
            if i >= 0:
                return i
            continue
        if kind == A_MELD and rich:
            i = richest_meld(st, opts, acts, n)
            if i >= 0:
                return i
            continue
        for i in range(n):
            if acts[i] & 15 == kind:
                return i
    if dump_at > 0 and sheds(st, opts, dump_at, dump_need, exact):
        i = costliest_discard(st, opts, acts, n, exact)
        if i >= 0:
            return i
    if stall > 0 and st[TURN] >= stall:
        if needs_growth(opts, st[CONTRACT]):
            return growth_breaker(st, opts, acts, n, stall, gplay, exact, room)
        late = st[TURN] >= 2 * stall and not hand7_at_once(st, opts)    # wild cards too
        if (late or need_with(st, opts, st[CUR], -1, 0, exact) > 1) and below(gplay, STALL_ODDS) == 0:
            i = random_discard(st, acts, n, gplay, late)
            if i >= 0:
                return i
    return best_discard(st, opts, acts, n, A_DISCARD, exact, room)


@njit(cache=True)
def richest_meld(st, opts, acts, n):
    """Index of the extra meld (A_MELD) that lays the most penalty points (its naturals and
    wild cards; ties: the first), -1 when there is none. The greedy family lays the first
    one found, which often spends a joker on a pair of twos beside a pair of kings."""
    rules = rules_of(opts)
    p = st[CUR]
    row = np.zeros(TW, np.int64)
    best, most = -1, -1
    for i in range(n):
        if acts[i] & 15 == A_MELD:
            meld_row(st, p, acts[i], row, rules)
            v = M.penalty_rules(row[M.M_P1], row[M.M_P2], row[M.M_JOKERS], rules)
            if v > most:
                best, most = i, v
    return best


@njit(cache=True)
def sheds(st, opts, dump_at, dump_need, exact):
    """The expert's hand is lost and it sheds points: another seat is down holding at most
    ``dump_at`` cards (it may go out any turn) while this seat is not down and still misses
    at least ``dump_need`` cards of its contract. Never in a hand laid at once (no seat is
    down there)."""
    p = st[CUR]
    if st[DOWN + p]:
        return False
    for q in range(st[N]):                          # the cheap test first: need_with is not
        if q != p and st[DOWN + q] and held(st, q) <= dump_at:
            return need_with(st, opts, p, -1, 0, exact) >= dump_need
    return False


@njit(cache=True)
def card_points(st, opts, c):
    """Penalty points of card c held at the end of the hand (a wild two: the 2's points)."""
    return M.go_card_points(c, rules_of(opts))


@njit(cache=True)
def costliest_discard(st, opts, acts, n, exact):
    """Index of the discard of the card with the most penalty points (ties: the lowest keep
    score); -1 when there is none."""
    best, pts, keep = -1, -1, BIG + 1
    for i in range(n):
        if acts[i] & 15 == A_DISCARD:
            c = field(acts[i], 1)
            v = card_points(st, opts, c)
            if v < pts:
                continue
            k = keep_score(st, opts, st[CUR], c, exact)   # (only to break a tie, or the next one)
            if v > pts or k < keep:
                best, pts, keep = i, v, k
    return best


@njit(cache=True)
def stall_leader(st, stall):
    """The seat not down that a hand won only by a purchase leaves its wild cards to after
    ``stall`` turns: the first not down after the dealer, then the next one every ``stall``
    turns (all of it public). -1 when every seat is down."""
    n = st[N]
    k = 0
    for i in range(n):
        if st[DOWN + (st[DEALER] + 1 + i) % n] == 0:
            k += 1
    if k == 0:
        return -1
    pick = ((st[TURN] - stall) // stall) % k
    for i in range(n):
        q = (st[DEALER] + 1 + i) % n
        if st[DOWN + q] == 0:
            if pick == 0:
                return q
            pick -= 1
    return -1


@njit(cache=True)
def growth_breaker(st, opts, acts, n, stall, gplay, exact=False, room=0):
    """The standoff breaker of a hand won only by a purchase (``needs_growth``; its contract
    needs two wild cards a seat, the deck has four, and once the chips are spent each seat
    often holds one and waits for another's). The leader (``stall_leader``) plays on; every
    other seat discards its wild cards, one a turn, and otherwise one time in STALL_ODDS a
    random natural, so the leader can complete its contract from the stock."""
    p = st[CUR]
    if p != stall_leader(st, stall):
        for i in range(n):
            c = field(acts[i], 1)
            if acts[i] & 15 == A_DISCARD and (c == JK or is_wild_two(st, c)):
                return i
        if below(gplay, STALL_ODDS) == 0:
            i = random_discard(st, acts, n, gplay, True)
            if i >= 0:
                return i
    return best_discard(st, opts, acts, n, A_DISCARD, exact, room)


@njit(cache=True, inline='always')
def discard_of(st, x, wilds):
    """Action x discards a card (a wild card only when ``wilds``)."""
    c = field(x, 1)
    return x & 15 == A_DISCARD and (wilds or (c != JK and not is_wild_two(st, c)))


@njit(cache=True)
def random_discard(st, acts, n, gplay, wilds):
    """Index of a uniformly random discard among acts[:n] (of a wild card too when ``wilds``),
    -1 when there is none (then nothing is drawn)."""
    k = 0
    for i in range(n):
        if discard_of(st, acts[i], wilds):
            k += 1
    if k == 0:
        return -1
    pick = below(gplay, k)
    for i in range(n):
        if discard_of(st, acts[i], wilds):
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True)
def greedy_exchange(st, opts, acts, n, most, exact=False, room=0):
    """Pass up to ``most`` (greedy: four) lone cards (no other natural of the rank), least
    useful first."""
    p = st[CUR]
    if st[EXK + p] < most:
        best = -1
        score = BIG
        for i in range(n - 1):
            c = field(acts[i], 1)
            if c != JK and not is_wild_two(st, c) and popcount(st[H1 + p] & rank_mask(c % 13)) \
                    + popcount(st[H2 + p] & rank_mask(c % 13)) == 1:
                k = keep_score(st, opts, p, c, exact, room)
                if k < score:
                    score = k
                    best = i
        if best >= 0:
            return best
    return n - 1


@njit(cache=True)
def choose(st, opts, tab, sc, mo, acts, n, sid, prm, gplay):
    """Index of the chosen action among acts[:n] (strategy ``sid``, parameters ``prm``)."""
    if sid == S_RANDOM:
        return below(gplay, n)
    ph = st[PHASE]
    if sid == S_FUZZ:
        if ph == P_BUY:
            return 0 if below(gplay, 100) < prm[1] else 1
        if below(gplay, 100) >= prm[0]:
            if ph == P_ACT and below(gplay, 100) < prm[2]:
                i = random_discard(st, acts, n, gplay, True)   # lay nothing: one of the discards
                if i >= 0:
                    return i
            return below(gplay, n)
    if ph == P_BUY:
        return 0 if wants(st, opts, st[ASK], st[DISCARD], sid, prm) else 1
    if ph == P_UPCARD:
        top = st[PILE + st[PILE_LEN] - 1]
        if st[DOWN + st[CUR]]:
            return 0 if layable(st, opts, tab, sc, top) else 1
        return 0 if wants(st, opts, st[CUR], top, sid, prm) else 1
    ex = sid == S_EXPERT
    if ph == P_EXCHANGE:
        return greedy_exchange(st, opts, acts, n, int(prm[Q_EXCHANGE]) if planner_like(sid) else 4, ex,
                               int(prm[Q_WILD_ROOM]) if ex else 0)
    if ph == P_CHOOSE:
        return greedy_choose(st, opts, acts, n, ex)
    if waits_to_grow(st, opts) or (planner_like(sid) and holds_back(st, opts, prm)):
        k = 0
        for i in range(n):
            if acts[i] & 15 != A_GO_DOWN:
                acts[k] = acts[i]
                k += 1
        n = k
    if ex:
        return greedy_act(st, opts, mo, acts, n, int(prm[Q_STALL]), int(prm[Q_ALT]), gplay, True,
                          int(prm[Q_DUMP_AT]), int(prm[Q_DUMP_NEED]), int(prm[Q_WILD_ROOM]), prm[Q_RICH] > 0)
    if sid == S_PLANNER:
        return greedy_act(st, opts, mo, acts, n, int(prm[Q_STALL]), int(prm[Q_ALT]), gplay)
    return greedy_act(st, opts, mo, acts, n, STALL_TURNS, 0, gplay)


@njit(cache=True)
def waits_to_grow(st, opts):
    """In a hand won only by a purchase (``needs_growth``) the greedy family does not go down
    while going down would leave it stuck (``stuck_down``) and it can still buy: it waits to
    grow its holding into one that goes down and out."""
    p = st[CUR]
    return rules_of(opts)[M.R_GROUP_DUPS] == 0 and st[DOWN + p] == 0 and needs_growth(opts, st[CONTRACT]) \
        and can_grow(st, opts, p) and stuck_down(st, opts, p, True)


@njit(cache=True)
def holds_back(st, opts, prm):
    """The planner does not go down yet: more than Q_DOWN_LEFT cards would stay in hand
    (the contract counted at its sizes, runs at their minimum) and the hand is younger than
    Q_DOWN_TURN turns. Never in a hand laid at once (going down is going out)."""
    p = st[CUR]
    if st[DOWN + p] or hand7_at_once(st, opts) or st[TURN] >= prm[Q_DOWN_TURN]:
        return False
    return held(st, p) - contract_cards(opts, st[CONTRACT]) > prm[Q_DOWN_LEFT]


@njit(cache=True)
def layable(st, opts, tab, sc, c):
    """Card c could be laid off onto a table meld now (a down player's reason to take a
    discard under take_discard)."""
    wild = c == JK or is_wild_two(st, c)
    p1 = np.int64(0) if wild else np.int64(1) << c
    return M.layoffs(p1, np.int64(0), 1 if wild else 0, tab, st[NMELDS], rules_of(opts), sc) > 0


@njit(cache=True)
def greedy_choose(st, opts, acts, n, exact=False):
    """The dealer picks the unused contract its holding is nearest to (ties: the lowest)."""
    p = st[CUR]
    best, score = 0, BIG
    for i in range(n):
        need = hand_need(st[H1 + p], st[H2 + p], wilds(st, p), opts, field(acts[i], 1), exact)
        if need < score:
            best, score = i, need
    return best


# =============================================================================
# plug-in strategies: the view, the decisions asked
# =============================================================================
@njit(cache=True)
def fill_view(st, opts, tab, p, kind, view):
    """What seat p may see, into ``view`` (the V_* layout) for a decision of ``kind``: its own
    holding, the table, the discard pile (face up since the last reshuffle), counts, chips,
    totals, the contract; never another holding, the stock's order or the exchange pool."""
    n = st[N]
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_HNO] = st[HNO]
    view[V_HANDS] = opts[O_HANDS]
    view[V_DEALER] = st[DEALER]
    view[V_PLAYERS] = n
    view[V_TURN] = st[TURN]
    view[V_CONTRACT] = st[CONTRACT]
    view[V_AT_ONCE] = 1 if hand7_at_once(st, opts) else 0
    spec = spec_of(opts, st[CONTRACT])
    view[V_C_GROUPS] = spec[M.C_GROUPS]
    view[V_C_GROUP_SIZE] = spec[M.C_GROUP_SIZE]
    view[V_C_PURE] = spec[M.C_PURE]
    view[V_C_RUNS] = spec[M.C_RUNS]
    view[V_C_RUN_MIN] = spec[M.C_RUN_MIN]
    view[V_C_NEXT] = spec[M.C_NEXT]
    view[V_H1] = st[H1 + p]
    view[V_H2] = st[H2 + p]
    view[V_JOKERS] = st[HJ + p]
    view[V_TWOS] = st[HT + p]
    view[V_WILD_TWOS] = st[WILD2]
    view[V_OFFER] = st[DISCARD]
    view[V_DISCARDER] = st[DISCARDER]
    view[V_TOP] = st[PILE + st[PILE_LEN] - 1] if st[PILE_LEN] > 0 else -1
    view[V_PILE_LEN] = st[PILE_LEN]
    q1, q2, qj = np.int64(0), np.int64(0), 0
    for i in range(st[PILE_LEN]):
        c = st[PILE + i]
        if c == JK:
            qj += 1
        else:
            b = np.int64(1) << c
            if q1 & b:
                q2 |= b
            else:
                q1 |= b
    view[V_PILE1] = q1
    view[V_PILE2] = q2
    view[V_PILE_JOKERS] = qj
    view[V_STOCK] = st[STOCK_HI] - st[STOCK_LO]
    view[V_TABLE_ACTS] = st[TABLE_ACTS]
    view[V_JOKER_DUE] = st[JOKER_DUE]
    view[V_TAKEN] = st[TAKEN]
    view[V_UP_OFFER] = st[UP_OFFER]
    view[V_RESHUF] = st[RESHUF]
    view[V_EX_ROUND] = st[EX_ROUND]
    view[V_USED] = st[USED]
    view[V_CUT_KEPT] = st[CUT_KEPT]
    view[V_CUT_EXACT] = st[CUT_EXACT]
    view[V_RULE_CUT_AIM] = opts[O_CUT_AIM]
    view[V_RULE_CUT_SPREAD] = opts[O_CUT_SPREAD]
    view[V_NMELDS] = st[NMELDS]
    for q in range(MAX_PLAYERS):            # seats beyond the table: 0
        live = q < n
        view[V_HELD + q] = held(st, q) if live else 0
        view[V_DOWN + q] = st[DOWN + q] if live else 0
        view[V_DOWN_TURN + q] = st[DOWN_TURN + q] if live else 0
        view[V_CHIPS + q] = st[CHIPS + q] if live else 0
        view[V_TOTAL + q] = st[TOTAL + q] if live else 0
        view[V_BUYS + q] = st[BUYS + q] if live else 0
        view[V_EXK + q] = st[EXK + q] if live else 0
        view[V_GBUYS + q] = st[GBUYS + q] if live else 0
    k = st[NMELDS]
    for i in range(MAX_MELDS):
        for f in range(TW):
            view[V_TABLE + i * TW + f] = tab[i, f] if i < k else 0


@njit(cache=True)
def plugin_ask(st, opts, tab, p, kind, legal, m, plug, pprm, view):
    """Ask the plug-in of seat p a decision of ``kind`` among legal[:m] (if its mask takes the
    kind): the index chosen, -1 (its base decides) or -2 (an illegal answer: E_PLUGIN)."""
    if not (int(pprm[PLUG_KINDS]) >> kind) & 1:
        return -1
    fill_view(st, opts, tab, p, kind, view)
    i = plug(view, legal[:m], m, pprm)
    if i == -1 or 0 <= i < m:
        return i
    return -2


@njit(cache=True, inline='always')
def plugin_pick(st, opts, tab, acts, n, p, plug, pprm, view, legal):
    """A plug-in seat's choice among acts[:n]: (n, i), i the index chosen, -1 for its base
    built-in, -2 for an illegal answer. A step of a turn asks first about its table actions
    (K_GO_DOWN, K_GO_OUT or K_LAY, with A_HOLD last); A_HOLD drops them from acts (n shrinks)
    and the discard (K_DISCARD) is asked next."""
    ph = st[PHASE]
    kind = K_DISCARD
    if ph == P_ACT:
        t = 0                                   # table actions come first, the discards after
        while t < n and acts[t] & 15 != A_DISCARD:
            t += 1
        if t > 0:
            a0 = acts[0] & 15
            k = K_GO_DOWN if a0 == A_GO_DOWN else (K_GO_OUT if a0 == A_GO_OUT7 else K_LAY)
            legal[:t] = acts[:t]
            m = t
            if t < n:
                legal[t] = A_HOLD
                m = t + 1
            i = plugin_ask(st, opts, tab, p, k, legal, m, plug, pprm, view)
            if i < t:
                return n, i
            for j in range(t, n):               # A_HOLD: the discards alone
                acts[j - t] = acts[j]
            n -= t
    elif ph == P_BUY:
        kind = K_BUY
    elif ph == P_UPCARD:
        kind = K_UPCARD
    elif ph == P_EXCHANGE:
        kind = K_EXCHANGE
    elif ph == P_CHOOSE:
        kind = K_CHOOSE
    legal[:n] = acts[:n]
    return n, plugin_ask(st, opts, tab, p, kind, legal, n, plug, pprm, view)


@njit(cache=True)
def plugin_cut(st, opts, tab, h, dealer, cutter, gdeck, plug, pprm, view, legal):
    """A plug-in cutter's choices before hand h is dealt: the aim of the cut (K_CUT, the aimed
    model) and, under cut_joker_keep=optional, how many of the jokers among the three
    inspected cards it keeps (K_KEEP: the deck is shuffled ahead on a copy of the hand's
    stream, so deal_hand deals the same cards). Returns E_PLUGIN on an illegal answer."""
    mask = int(pprm[PLUG_KINDS])
    if not (mask >> K_CUT) & 1 and not (mask >> K_KEEP) & 1:
        return 0
    reset_hand(st, h, dealer)                   # the view shows the new hand (nothing dealt yet)
    if opts[O_CUT_MODEL] == 0:
        m = DECK_SIZE - 3
        for i in range(m):
            legal[i] = i + 1
        i = plugin_ask(st, opts, tab, cutter, K_CUT, legal, m, plug, pprm, view)
        if i == -2:
            return E_PLUGIN
        if i >= 0:
            st[CUT_AIMED] = i + 1
    if opts[O_CUT_JOKERS] == 1 and (mask >> K_KEEP) & 1:
        g = gdeck.copy()
        for i in range(DECK_SIZE):
            st[STOCK + i] = i // 2 if i < 104 else JK
        shuffle(g, st, STOCK, STOCK + DECK_SIZE)
        t = DECK_SIZE - cut_bottom(opts, g, st[CUT_AIMED])
        j = 0
        for i in range(t - 3, t):
            if st[STOCK + i] == JK:
                j += 1
        if j > 0:
            for i in range(j + 1):
                legal[i] = i
            i = plugin_ask(st, opts, tab, cutter, K_KEEP, legal, j + 1, plug, pprm, view)
            if i == -2:
                return E_PLUGIN
            if i >= 0:
                st[CUT_KEEPS] = i
                st[KEEP_SET] = 1
    return 0


# =============================================================================
# invariants (check mode)
# =============================================================================
@njit(cache=True)
def table_cards(tab, k):
    n = 0
    for i in range(k):
        n += popcount(tab[i, M.M_P1]) + popcount(tab[i, M.M_P2]) + tab[i, M.M_JOKERS]
    return n


@njit(cache=True)
def cards_ok(st, tab):
    """Holdings + stock + discard pile + exchange pool + table = 108, and no card is held
    more than twice (jokers: 4) anywhere."""
    total = st[STOCK_HI] - st[STOCK_LO] + st[PILE_LEN] + st[POOL_LEN] + table_cards(tab, st[NMELDS])
    twos = rank_mask(1) if st[WILD2] else np.int64(0)
    for p in range(st[N]):
        total += held(st, p)
        if (st[H1 + p] | st[H2 + p]) & twos:
            return False                            # a wild two held as a natural
    for i in range(st[NMELDS]):
        if tab[i, M.M_P1] & twos:
            return False
    return total == DECK_SIZE


@njit(cache=True)
def melds_ok(tab, k, rules):
    """Every table meld is valid (melds.meld_valid: kinds, caps, ratio) and holds at most
    as many wild twos as wild cards."""
    for i in range(k):
        if not M.meld_valid(tab[i], rules) or twos_count(tab[i, T_TWOS]) > tab[i, M.M_JOKERS]:
            return False
    return True


@njit(cache=True)
def check_invariants(st, opts, tab):
    if not cards_ok(st, tab):
        return E_CARDS
    if not melds_ok(tab, st[NMELDS], rules_of(opts)):
        return E_MELD
    for p in range(st[N]):
        if st[CHIPS + p] < 0:
            return E_CHIPS
    if st[TURN] > opts[O_MAX_TURNS]:
        return E_CAP
    if st[TABLE_ACTS] > MAX_ACTIONS_PER_TURN + 1:
        return E_ACTIONS
    return 0


@njit(cache=True)
def check_buy(st, opts, x):
    """A purchase by a seat that is down (A16)."""
    if x & 15 == A_BUY and st[DOWN + st[ASK]] and opts[O_BUY_AFTER_DOWN] == 0:
        return E_BUY_DOWN
    return 0


# =============================================================================
# hands, games, batches
# =============================================================================
@njit(cache=True)
def score_hand(st, opts, trace):
    """Everybody but the player who went out adds the penalty of the holding (§13)."""
    rules = rules_of(opts)
    for p in range(st[N]):
        if p != st[OUT]:
            pen = holding_points(st, p, rules)
            st[PEN + p] += pen
            st[TOTAL + p] += pen
        st[LASTPEN + p] = st[PEN + p]
        log(st, trace, T_SCORE, p, st[PEN + p], st[TOTAL + p], 0)


@njit(cache=True)
def holding_points(st, p, rules):
    """Penalty of seat p's holding (§2): naturals, jokers, wild twos (the 2's points)."""
    return (M.penalty_rules(st[H1 + p], st[H2 + p], st[HJ + p], rules)
            + twos_count(st[HT + p]) * rules[M.R_POINTS + 1])


@njit(cache=True)
def write_hand(st, row):
    b = RC_HAND + (st[HNO] - 1) * HB_SIZE
    row[b + HB_OUT] = st[OUT]
    row[b + HB_REASON] = st[HREASON]
    row[b + HB_TURNS] = st[TURN]
    row[b + HB_RESHUF] = st[RESHUF]
    row[b + HB_CUT] = st[CUT_B]
    row[b + HB_KEPT] = st[CUT_KEPT]
    row[b + HB_EXACT] = st[CUT_EXACT]
    row[b + HB_CONTRACT] = st[CONTRACT]
    for p in range(st[N]):
        row[b + HB_PEN + p] = st[PEN + p]
        row[b + HB_CHIPS + p] = st[CHIPS + p]
        row[b + HB_BUYS + p] = st[BUYS + p]


@njit(cache=True)
def write_game(st, opts, row):
    """Totals (with leftover-chip points), the winner(s), the game counters."""
    n = st[N]
    low = BIG
    for p in range(n):
        st[TOTAL + p] += st[CHIPS + p] * opts[O_LEFTOVER_POINTS]
        low = min(low, st[TOTAL + p])
    mask = 0
    for p in range(n):
        if st[TOTAL + p] == low:
            mask |= 1 << p
        row[RC_TOTAL + p] = st[TOTAL + p]
        row[RC_CHIPS + p] = st[CHIPS + p]
        row[RC_BUYS + p] = st[GBUYS + p]
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_WINNERS] = mask
    row[RC_WINNER] = lowbit(np.int64(mask)) if popcount(np.int64(mask)) == 1 else -1
    truncated = st[TRUNC] != 0 or st[CAPPED] > 0
    row[RC_REASON] = G_TRUNCATED if truncated else G_COMPLETE
    row[RC_TRUNC] = truncated
    row[RC_CAPPED] = st[CAPPED]
    row[RC_ERR] = st[ERR]
    row[RC_TURNS] = st[GAME_TURNS]
    row[RC_RESHUF] = st[GAME_RESHUF]
    row[RC_HANDS] = opts[O_HANDS]
    row[RC_CHOSEN] = opts[O_CHOOSE]


@njit(cache=True)
def totals_ok(st, opts, row):
    """Each total is the sum of its hand penalties (+ leftover-chip points)."""
    for p in range(st[N]):
        s = st[CHIPS + p] * opts[O_LEFTOVER_POINTS]
        for h in range(opts[O_HANDS]):
            s += row[RC_HAND + h * HB_SIZE + HB_PEN + p]
        if s != st[TOTAL + p]:
            return False
    return True


@njit(cache=True)
def pool_to(st, t, p):
    """Seat p of state copy t holds every card off the table in st: all holdings, the
    stock, the discard pile and the exchange pool."""
    t[H1 + p], t[H2 + p], t[HJ + p], t[HT + p] = 0, 0, 0, 0
    for q in range(st[N]):
        for plane in (st[H1 + q], st[H2 + q]):
            m = plane
            while m:
                give(t, p, lowbit(m))
                m &= m - 1
        for _ in range(st[HJ + q]):
            give(t, p, JK)
        for s in range(4):
            for _ in range((st[HT + q] >> (2 * s)) & 3):
                give(t, p, s * 13 + 1)
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        give(t, p, st[STOCK + i])
    for i in range(st[PILE_LEN]):
        give(t, p, st[PILE + i])
    for i in range(st[POOL_LEN]):
        give(t, p, st[POOL + i])


@njit(cache=True)
def can_grow(st, opts, p):
    """Seat p's holding can still grow by purchases this hand (chips, or free in-turn buys)."""
    if opts[O_NO_BUY + st[CONTRACT]] != 0 or (st[DOWN + p] and opts[O_BUY_AFTER_DOWN] == 0):
        return False
    return st[CHIPS + p] > 0 or opts[O_IN_TURN_CHIP] == 0


@njit(cache=True)
def closed_contract(opts, k):
    """Contract k's melds are closed once laid: groups only (no alternative) of the largest
    size a group can have when identical cards are not allowed (A3: four naturals, one of each
    suit, and every wild card a group may hold), so nothing can ever be laid off onto them nor
    a joker freed from them (venezuela joker model)."""
    rules = rules_of(opts)
    spec = spec_of(opts, k)
    return rules[M.R_GROUP_DUPS] == 0 and opts[O_EXCHANGE_MODEL] == 0 and spec[M.C_NEXT] == 0 \
        and spec[M.C_RUNS] == 0 and spec[M.C_GROUPS] > 0 and spec[M.C_GROUP_SIZE] >= 4 + rules[M.R_GROUP_WILDS]


@njit(cache=True)
def needs_growth(opts, k):
    """Contract k is closed (``closed_contract``) and a dealt holding and its draw, going
    down, would keep too few cards for an extra meld and too many for one discard: no seat
    goes out of that hand without a purchase (or another's extra meld). Venezuela's Hand 6
    (5+5) under ``groups_allow_duplicate_suits=false``."""
    if not closed_contract(opts, k) or opts[O_CHOOSE]:
        return False
    left = opts[O_CARDS] + 1 - contract_cards(opts, k)
    return 2 <= left < 3 + (opts[O_FINAL_DISCARD] != 0)


@njit(cache=True)
def growth_hands_after(st, opts):
    """Hands after this one that need a purchase to be won (``needs_growth``)."""
    k = 0
    if rules_of(opts)[M.R_GROUP_DUPS] == 0:          # (identical cards allowed: no such hand)
        for h in range(st[HNO] + 1, opts[O_HANDS] + 1):
            if needs_growth(opts, h):
                k += 1
    return k


@njit(cache=True)
def closed_hand(st, opts):
    """No seat's holding can grow this hand and every contract meld is closed once laid
    (``closed_contract``): Venezuela's Hand 6 (5+5) under
    ``groups_allow_duplicate_suits=false`` once every chip is spent."""
    if not closed_contract(opts, st[CONTRACT]):
        return False
    for p in range(st[N]):
        if can_grow(st, opts, p):
            return False
    return True


@njit(cache=True)
def stuck_down(st, opts, p, drawn=False):
    """In a closed hand (``closed_hand``), seat p (not down) going down at its turn (after its
    draw; ``drawn``: it has drawn already) could never go out: it would keep at least two cards
    (one discard cannot empty its holding) and too few for an extra meld (three, and a discard
    under final_discard_required), and, its holding never growing, it could afterwards only lay
    off, onto closed melds or melds no seat can add."""
    left = held(st, p) + (0 if drawn else 1) - contract_cards(opts, st[CONTRACT])
    return 2 <= left < 3 + (opts[O_FINAL_DISCARD] != 0)


@njit(cache=True)
def hand_blocked(st, opts, tab, sc, mo, acts):
    """The hand is blocked (A32): even holding every card off the table, at a fresh turn no
    seat would have a table action (go down, meld, lay off, joker operation), only discards;
    so the table can never change, and no holding can shrink. A seat that is down and can
    no longer buy holds at most one card more than now when it acts, so an extra meld counts
    only when that many cards could make one (three, and one to discard under
    final_discard_required). In a closed hand (``closed_hand``: no holding can grow, the
    contract melds accept nothing once laid) a go-down that would leave its seat stuck
    (``stuck_down``) counts for nothing either: the table would change, but nobody could ever
    go out. Asked when the turn cap ends a hand. Never in a Hand 7 laid at once (a seat must
    lay its own whole holding there, which the pooled holding cannot judge)."""
    if hand7_at_once(st, opts):
        return False
    closed = closed_hand(st, opts)
    t = st.copy()
    t[TURN] += 1                                    # a fresh turn: no meld of "this turn"
    t[PHASE], t[TABLE_ACTS], t[JOKER_DUE], t[TAKEN] = P_ACT, 0, 0, -1
    for p in range(st[N]):
        pool_to(st, t, p)
        t[CUR] = p
        n = legal_down(t, opts, tab, sc, acts) if t[DOWN + p] else legal_not_down(t, opts, tab, mo, acts)
        small = st[DOWN + p] and not can_grow(st, opts, p) and \
            held(st, p) + 1 < 3 + (opts[O_FINAL_DISCARD] != 0)
        for i in range(n):
            kind = acts[i] & 15
            if kind == A_DISCARD or (kind == A_MELD and small):
                continue
            if kind == A_GO_DOWN and closed and stuck_down(st, opts, p):
                continue
            return False
        t[H1 + p], t[H2 + p], t[HJ + p], t[HT + p] = st[H1 + p], st[H2 + p], st[HJ + p], st[HT + p]
    return True


# =============================================================================
# search (issue 19): determinized Monte Carlo over the decisions of chosen kinds
# =============================================================================
SEARCH_POLICY_STREAM = 1 << 20   # the world index of the stream the policy's own choice draws from
X_KINDS = SP_EXTRA               # bit k: decisions of plug-in kind k (K_*) are searched
X_CHIP = SP_EXTRA + 1            # points a chip left is worth before the last hand
X_MARGIN = SP_EXTRA + 2          # standard errors by which another action must beat the policy's choice
X_HANDS = SP_EXTRA + 3           # bit h - 1: decisions of hand h are searched
X_COND = 10                      # bit of X_KINDS (above the K_* kinds): determinizations deal the seats
#                                  not down holdings that cannot go down (determinize's ``cond``)


@njit(cache=True, inline='always')
def copies(st, q, c):
    """Copies of card c (52 = joker) in seat q's holding."""
    if c == JK:
        return st[HJ + q]
    if is_wild_two(st, c):
        return (st[HT + q] >> (2 * (c // 13))) & 3
    return ((st[H1 + q] >> c) & 1) + ((st[H2 + q] >> c) & 1)


@njit(cache=True)
def could_go_down(st, opts, q, mo):
    """Seat q's holding holds this hand's contract (one of its alternatives)."""
    h = st[CONTRACT]
    if spec_of(opts, h)[M.C_NEXT] == 0:
        return contract_melds(st[H1 + q], st[H2 + q], wilds(st, q), h, opts, mo, True)
    alt = h
    while alt:
        if contract_melds(st[H1 + q], st[H2 + q], wilds(st, q), h, opts, mo, True, alt):
            return True
        alt = spec_of(opts, alt)[M.C_NEXT]
    return False


DEAL_TRIES = 12                  # deals of one holding tried before a determinization gives up a condition


@njit(cache=True)
def determinize(st, opts, p, gen, cards, cond, mo):
    """Deal again, in ``st``, what seat ``p`` cannot see: every other holding (the copies
    every seat knows it holds, KN, stay; the rest drawn at random) and the stock's order,
    from the unseen cards (the stock and the other holdings less their known copies: the
    deck less p's holding, the discard pile, the table and the known copies, so a function
    of what p sees, listed in card order). During an exchange (the critique; p = CUR, the
    seat choosing) the cards the others passed (the pool but p's own, the last ones) are
    unseen too and dealt again, and a seat that has passed cards keeps no known copies (which
    of them it passed is private). ``cond``: a seat that is not down though it has played a
    turn of this hand (not one laid at once) is dealt a holding that cannot go down (up to
    DEAL_TRIES deals), as the rollout policy, which goes down when it can, would hold."""
    n = st[N]
    first = (st[DEALER] + 1) % n
    cond = cond != 0 and not hand7_at_once(st, opts) and opts[O_EXCHANGE_MODEL] == 0
    cnt = np.zeros(KN_STRIDE, np.int64)
    pool = 0
    if st[PHASE] == P_EXCHANGE:
        pool = st[POOL_LEN] - st[EXK + p]
        for i in range(pool):
            cnt[st[POOL + i]] += 1
        for q in range(n):
            if q != p and st[EXK + q] > 0:
                for c in range(KN_STRIDE):
                    st[KN + KN_STRIDE * q + c] = 0
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        cnt[st[STOCK + i]] += 1
    for q in range(n):
        if q != p:
            for c in range(KN_STRIDE):
                cnt[c] += copies(st, q, c) - st[KN + KN_STRIDE * q + c]
    m = 0
    for c in range(KN_STRIDE):
        for _ in range(cnt[c]):
            cards[m] = c
            m += 1
    shuffle_prefix(cards, m, gen)
    k = 0
    for q in range(n):
        if q == p:
            continue
        size = held(st, q)
        check = cond and st[DOWN + q] == 0 and (q - first + n) % n < st[TURN]
        for t in range(DEAL_TRIES if check else 1):
            if t > 0:                               # it could go down: deal it again
                shuffle_prefix(cards[k:], m - k, gen)
            st[H1 + q], st[H2 + q], st[HJ + q], st[HT + q] = 0, 0, 0, 0
            left = size
            for c in range(KN_STRIDE):
                for _ in range(st[KN + KN_STRIDE * q + c]):
                    give(st, q, c)
                    left -= 1
            for j in range(left):
                give(st, q, cards[k + j])
            if not check or not could_go_down(st, opts, q, mo):
                break
        k += left
    for i in range(pool):
        st[POOL + i] = cards[k]
        k += 1
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        st[STOCK + i] = cards[k]
        k += 1


@njit(cache=True)
def search_rollout(st, opts, tab, sc, mo, sid, prm, gen, acts, trace):
    """Play the hand in ``st`` to its end with the built-in ``sid`` (row ``prm``) at every seat."""
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, tab, sc, mo, acts)
        if n == 0:
            break
        apply_action(st, opts, tab, mo, acts[choose(st, opts, tab, sc, mo, acts, n, sid, prm, gen)], gen, trace)


@njit(cache=True)
def search_value(sim, st, opts, p, chip):
    """Seat p's result at the end of the rolled-out hand ``sim`` (decided in ``st``): minus its
    penalty, less ``chip`` points per chip it spent since (before the last hand only)."""
    v = 0.0
    if sim[OUT] != p:
        v -= holding_points(sim, p, rules_of(opts))
    if st[HNO] < opts[O_HANDS]:
        v -= chip * (st[CHIPS + p] - sim[CHIPS + p])
    return v


@njit(cache=True)
def search_kind(st, opts, acts, n, p, exact=False):
    """The plug-in kind (K_*) of the decision ``acts[:n]`` of seat ``p``, -1 for those the
    search never takes (the exchange, the dealer's contract and opening discard). A purchase
    offer counts only when the card itself would bring p nearer its contract (else the
    policy passes: nothing to weigh)."""
    ph = st[PHASE]
    if ph == P_BUY:
        if st[DOWN + p] or need_with(st, opts, p, st[DISCARD], -1, exact) >= need_with(st, opts, p, -1, 0, exact):
            return -1
        return K_BUY
    if ph == P_UPCARD:
        return K_UPCARD
    if ph != P_ACT:
        return -1
    lay = False
    for i in range(n):
        k = acts[i] & 15
        if k == A_GO_OUT7:
            return K_GO_OUT
        if k == A_GO_DOWN:
            return K_GO_DOWN
        if k != A_DISCARD:
            lay = True
    return K_LAY if lay else K_DISCARD


@njit(cache=True)
def policy_among(st, opts, tab, sc, mo, acts, idx, m, sid, prm, gen, a2):
    """Index (into acts) of the policy's choice among ``acts[idx[:m]]``."""
    for i in range(m):
        a2[i] = acts[idx[i]]
    x = a2[choose(st, opts, tab, sc, mo, a2, m, sid, prm, gen)]
    for i in range(m):
        if acts[idx[i]] == x:
            return idx[i]
    return idx[0]


@njit(cache=True)
def search_pick(st, opts, tab, acts, n, prm, gplay):
    """The search strategy's choice among ``acts[:n]`` (row ``prm``: ``kernels.search``,
    X_* slots). Decisions of a kind outside X_KINDS, or of a hand outside X_HANDS, are the
    policy's. Otherwise the
    candidates (buy / pass; take / draw; each go-down or go-out and the policy's discard
    without it; each table action and the policy's discard; each discard) are played in
    ``worlds`` determinizations, each rolled out ``rollouts`` times to the end of the hand
    by the policy at every seat (the same streams for every candidate), valued by
    ``search_value``; the best mean wins when it beats the policy's own choice by more than
    X_MARGIN standard errors of the paired differences, else the policy's choice stands."""
    p = st[ASK] if st[PHASE] == P_BUY else st[CUR]
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:].copy()                      # C-contiguous: choose's compiled signature
    sc = np.empty((MAX_ACTS, 3), np.int64)
    mo = np.empty((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    searched = n > 1 and (np.int64(prm[X_HANDS]) >> (st[HNO] - 1)) & 1
    kind = search_kind(st, opts, acts, n, p, sid == S_EXPERT) if searched else -1
    if kind < 0 or not (np.int64(prm[X_KINDS]) >> kind) & 1:
        return choose(st, opts, tab, sc, mo, acts, n, sid, pprm, gplay)
    key = search_key(gplay)
    g = np.empty(2, np.uint64)
    a2 = np.empty(MAX_ACTS, np.int64)
    idx = np.empty(n, np.int64)
    cand = np.empty(n + 1, np.int64)
    for i in range(n):
        idx[i] = i
    seed_sub(g, key, SEARCH_POLICY_STREAM, 0)
    pol = policy_among(st, opts, tab, sc, mo, acts, idx, n, sid, pprm, g, a2)
    m = 0
    if kind == K_BUY or kind == K_UPCARD or kind == K_DISCARD:
        for i in range(n):
            cand[m] = i
            m += 1
    else:
        k = 0
        for i in range(n):
            if acts[i] & 15 == A_DISCARD:
                idx[k] = i
                k += 1
            else:
                cand[m] = i
                m += 1
        if k > 0:
            seed_sub(g, key, SEARCH_POLICY_STREAM, 1)
            cand[m] = policy_among(st, opts, tab, sc, mo, acts, idx, k, sid, pprm, g, a2)
            m += 1
    pc = -1
    for i in range(m):
        if cand[i] == pol:
            pc = i
    if pc < 0:
        cand[m] = pol
        pc = m
        m += 1
    if m == 1:
        return pol
    worlds, rollouts = plan_budget(prm, m)
    vals = np.zeros((m, worlds * rollouts), np.float64)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    stab = np.empty_like(tab)
    cards = np.empty(DECK_SIZE, np.int64)
    trace = np.zeros((0, TRACE_WIDTH), np.int64)
    active = np.ones(m, np.bool_)
    for w in range(worlds):
        world_values(st, tab, opts, p, acts, cand, m, active, prm, sid, pprm, key, w, base, sim, stab, sc, mo, cards,
                     g, a2, trace, vals, w * rollouts)
    return cand[confident_best(vals, m, worlds * rollouts, pc, prm[X_MARGIN])]


@njit(cache=True)
def world_values(st, tab, opts, p, acts, cand, m, active, prm, sid, pprm, key, w, base, sim, stab, sc, mo, cards, g,
                 a2, trace, vals, off):
    """World ``w`` of a decision's search (streams keyed by ``key``): what seat ``p`` cannot see
    dealt again into ``base`` (``determinize``), then each active candidate ``acts[cand[i]]``
    played and rolled out to the end of the hand ``rollouts`` times by the policy ``sid`` (row
    ``pprm``) at every seat, on the same streams for every candidate (common random numbers);
    ``vals[i, off + r]`` = ``search_value`` of rollout r (row ``prm``: rollouts, X_CHIP, X_COND)."""
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    chip = prm[X_CHIP]
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, cards, (np.int64(prm[X_KINDS]) >> X_COND) & 1, mo)
    for r in range(rollouts):
        for i in range(m):
            if active[i]:
                sim[:] = base
                stab[:] = tab
                seed_sub(g, key, w, r)
                apply_action(sim, opts, stab, mo, acts[cand[i]], g, trace)
                search_rollout(sim, opts, stab, sc, mo, sid, pprm, g, a2, trace)
                vals[i, off + r] = search_value(sim, st, opts, p, chip)


@njit(cache=True)
def confident_best(vals, m, k, pc, z):
    """Index of the candidate with the best mean of ``vals[:, :k]`` (the first on ties) if it
    beats candidate ``pc`` (the policy's choice) by more than ``z`` standard errors of the
    paired differences (any gain at z = 0), else ``pc``."""
    total = np.zeros(m, np.float64)
    for i in range(m):
        total[i] = vals[i, :k].sum()
    best = best_action(total, m)
    if best == pc:
        return pc
    d = vals[best, :k] - vals[pc, :k]
    mean = d.mean()
    if mean <= 0.0:
        return pc
    if z > 0.0:
        if k < 2:
            return pc
        se = np.sqrt(((d - mean) ** 2).sum() / (k - 1) / k)
        if mean <= z * se:
            return pc
    return best


# The batch kernels call the search through SEARCH_SIG: ``search_cfunc()`` compiled when a
# search seat plays (jit.lazy_cfunc), ``no_search`` otherwise (never called).
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[:, ::1], types.int64[::1], types.int64,
                         types.float64[::1], types.uint64[::1])


def _search_entry(st, opts, tab, acts, n, prm, gplay):
    return search_pick(st, opts, tab, acts, n, prm, gplay)


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@numba.cfunc(SEARCH_SIG, cache=True)
def no_search(st, opts, tab, acts, n, prm, gplay):
    """The search argument of a table without a search seat (never called)."""
    return 0


@njit(cache=True)
def search_decision(st, opts, tab, prm, key):
    """The search's choice (an action) in state ``st`` / table ``tab`` with its play stream
    keyed by ``key`` (tests: the same state with other hidden cards must give the same)."""
    acts = np.empty(MAX_ACTS, np.int64)
    sc = np.empty((MAX_ACTS, 3), np.int64)
    mo = np.empty((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    t = st.copy()
    n = legal_actions(t, opts, tab, sc, mo, acts)
    g = np.empty(2, np.uint64)
    g[0] = np.uint64(key)
    g[1] = 0
    return acts[search_pick(t, opts, tab, acts, n, prm, g)]


@njit(cache=True)
def cut_choices(st, opts, tab, h, dealer, sids, params, gdeck, plug, pprm, view, legal):
    """The cutter's aim and joker keep before hand h is dealt (CUT_AIMED, CUT_KEEPS, KEEP_SET):
    a planner's parameters (a search seat's: its rollout policy's), a plug-in's answers
    (``plugin_cut``); returns E_PLUGIN on an illegal answer, else 0."""
    cutter = (dealer + st[N] - 1) % st[N]
    st[CUT_AIMED], st[CUT_KEEPS], st[KEEP_SET] = 0, 3, 0
    csid = sids[cutter]
    if csid >= PLUGIN:
        csid -= PLUGIN
    off = 0
    if csid == S_SEARCH:                            # a search seat cuts as its rollout policy
        csid, off = int(params[cutter, SP_POLICY]), SP_PRM
    if planner_like(csid):
        st[CUT_AIMED] = int(params[cutter, off + Q_CUT_AIM])
        st[CUT_KEEPS] = int(params[cutter, off + Q_KEEP_JOKERS])
    if sids[cutter] >= PLUGIN:
        if plugin_cut(st, opts, tab, h, dealer, cutter, gdeck, plug, pprm[cutter], view, legal) != 0:
            return E_PLUGIN
    return 0


@njit(cache=True, inline='always')
def seat_choice(st, opts, tab, acts, n, p, sids, params, sc, mo, gplay, plug, pprm, view, legal, srch):
    """(n, i): the index among ``acts[:n]`` seat p plays: its plug-in's (sid >= PLUGIN, its row
    of ``pprm``; an A_HOLD answer drops the table actions, n shrinks), else its search's
    (``srch``) or its built-in's; i = -2 for an illegal plug-in answer."""
    sid, i = sids[p], -1
    if sid >= PLUGIN:
        n, i = plugin_pick(st, opts, tab, acts, n, p, plug, pprm[p], view, legal)
        if i == -2:
            return n, -2
        sid -= PLUGIN
    if i < 0:
        if sid == S_SEARCH:
            i = srch(st, opts, tab, acts, n, params[p], gplay)
        else:
            i = choose(st, opts, tab, sc, mo, acts, n, sid, params[p], gplay)
    return n, i


@njit(cache=True, inline='always')
def play_hand(st, opts, tab, h, dealer, sids, params, check, trace, acts, sc, mo, gdeck, gplay,
              plug, pprm, view, legal, srch):
    """Deal and play hand h to its end; returns the check error (0 = none). Seats with sid >=
    PLUGIN are decided by ``plug`` (their row of ``pprm``) where it answers, by their base
    built-in (sid - PLUGIN) elsewhere; search seats by ``srch`` (SEARCH_SIG)."""
    if cut_choices(st, opts, tab, h, dealer, sids, params, gdeck, plug, pprm, view, legal) != 0:
        return E_PLUGIN
    trunc = st[TRUNC]
    start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, tab, sc, mo, acts)
        if n == 0:
            return E_NO_MOVES
        p = st[ASK] if st[PHASE] == P_BUY else st[CUR]
        n, i = seat_choice(st, opts, tab, acts, n, p, sids, params, sc, mo, gplay, plug, pprm, view, legal, srch)
        if i == -2:
            return E_PLUGIN
        x = acts[i]
        if check and check_buy(st, opts, x):
            return E_BUY_DOWN
        apply_action(st, opts, tab, mo, x, gplay, trace)
        if check:
            e = check_invariants(st, opts, tab)
            if e:
                return e
    close_hand(st, opts, tab, sc, mo, acts, trunc, trace)
    return 0


@njit(cache=True)
def close_hand(st, opts, tab, sc, mo, acts, trunc, trace):
    """The hand is over: a turn-capped hand that is blocked (A32) is no truncation (``trunc``:
    TRUNC before the hand); score it and add its counts to the game's."""
    if st[HREASON] == H_TURN_CAP and hand_blocked(st, opts, tab, sc, mo, acts):
        st[HREASON] = H_BLOCKED                     # a blocked hand (A32), not a truncation
        st[TRUNC] = trunc
    log(st, trace, T_END, st[OUT], st[HREASON], st[OUT], 0)
    score_hand(st, opts, trace)
    st[GAME_TURNS] += st[TURN]
    st[GAME_RESHUF] += st[RESHUF]


@njit(cache=True)
def first_dealer(opts, seed, game, gdeck):
    if opts[O_FIRST_DEALER] >= 0:
        return opts[O_FIRST_DEALER]
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND))
    return below(gdeck, opts[O_PLAYERS])


@njit(cache=True)
def open_game(st, opts, seed, game, gdeck, gplay):
    """The start of game ``game`` of run ``seed`` in the zeroed ``st``: the seats, wild twos and
    starting chips, the play stream and the first dealer (returned)."""
    n = opts[O_PLAYERS]
    st[N] = n
    st[WILD2] = opts[O_WILD_TWOS]
    for p in range(n):
        st[CHIPS + p] = opts[O_CHIPS]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    dealer = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = dealer
    return dealer


@njit(cache=True, inline='always')
def play_game(st, opts, tab, seed, game, sids, params, check, trace, acts, sc, mo, gdeck,
              gplay, row, plug, pprm, view, legal, srch):
    """Play game ``game`` of run ``seed`` (O_HANDS hands) into the record ``row``."""
    st[:] = 0
    row[:] = 0
    n = opts[O_PLAYERS]
    dealer = open_game(st, opts, seed, game, gdeck, gplay)
    for h in range(1, opts[O_HANDS] + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_HAND + h))
        st[ERR] = play_hand(st, opts, tab, h, dealer, sids, params, check, trace, acts, sc,
                            mo, gdeck, gplay, plug, pprm, view, legal, srch)
        write_hand(st, row)
        if st[ERR]:
            break
        dealer = (dealer + 1) % n
    write_game(st, opts, row)
    if check and st[ERR] == 0 and not totals_ok(st, opts, row):
        st[ERR] = E_TOTALS
        row[RC_ERR] = E_TOTALS
    return st[ERR]


@njit(cache=True)
def buffers():
    """Working arrays of one thread: state, table, actions, scratch rows, melds, streams."""
    return (np.zeros(ST_SIZE, np.int64), np.zeros((MAX_MELDS, TW), np.int64),
            np.zeros(MAX_ACTS, np.int64), np.zeros((MAX_ACTS, 3), np.int64),
            np.zeros((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64), np.zeros(2, np.uint64),
            np.zeros(2, np.uint64))


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, pprm, srch):
    """Play games first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug`` is
    the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, ``srch``
    the search (SEARCH_SIG) for the search seats. The loop
    works on ``unowned`` views of the inputs all threads share and of this thread's buffers
    (no reference counting, an atomic operation per array handed on; the arrays outlive the
    loop)."""
    st, tab, acts, sc, mo, gdeck, gplay = buffers()
    trace = np.zeros((0, TRACE_WIDTH), np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)
    legal = np.zeros(MAX_ACTS, np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)
    pp = unowned(pprm)
    for d in range(lo, hi):
        play_game(unowned(st), o, unowned(tab), seed, first + d, s, p, check, unowned(trace),
                  unowned(acts), unowned(sc), unowned(mo), unowned(gdeck), unowned(gplay), r[d],
                  plug, pp, unowned(view), unowned(legal), srch)


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` games starting at ``first`` on ``numba.get_num_threads()`` threads into
    ``rec`` (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``).
    ``plug``: the plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with
    its parameters ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    plug = no_plugin if plug is None else plug
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    threaded_batch(play_chunk, seed, first, count, opts, sids, params, check, rec, plug, pprm, srch, least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, game, opts, sids, params, check, trace, plug, pprm, srch):
    st, tab, acts, sc, mo, gdeck, gplay = buffers()
    row = np.zeros(RECORD_COLS, np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)
    legal = np.zeros(MAX_ACTS, np.int64)
    play_game(st, opts, tab, seed, game, sids, params, check, trace, acts, sc, mo, gdeck,
              gplay, row, plug, pprm, view, legal, srch)
    return st


def replay_game(seed, game, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one game alone with a trace buffer; returns the final state."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    return replay_kernel(seed, game, opts, sids, params, check, trace, no_plugin if plug is None else plug, pprm,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
CUT_CODE = 1 << 48                      # the critique's action codes of the cut stage (no table action
KEEP_CODE = 2 << 48                     # sets these bits): CUT_CODE | aim, KEEP_CODE | jokers kept
SNAP_TAB = ST_SIZE                      # a critique snapshot: the state, then the table (MAX_MELDS rows of TW) ..
SNAP_CUT = SNAP_TAB + MAX_MELDS * TW    # .. 1: a K_CUT, 2: a K_KEEP decision (st: the hand reset, nothing dealt) ..
SNAP_INSPECT = SNAP_CUT + 1             # .. the three cards the cutter inspected (K_KEEP; else -1)
SNAP_SIZE = SNAP_INSPECT + 3


@njit(cache=True)
def decision_kind(st, acts, n):
    """The plug-in kind (K_*) of the decision ``acts[:n]`` of the seat to act, as ``plugin_pick``
    asks it (a turn's step: K_GO_DOWN / K_GO_OUT / K_LAY while it offers table actions, the
    discards among them; the cut stage's K_CUT and K_KEEP are not decisions of a state)."""
    ph = st[PHASE]
    if ph == P_BUY:
        return K_BUY
    if ph == P_UPCARD:
        return K_UPCARD
    if ph == P_EXCHANGE:
        return K_EXCHANGE
    if ph == P_CHOOSE:
        return K_CHOOSE
    if ph == P_ACT and n > 0:
        a0 = acts[0] & 15
        if a0 == A_GO_DOWN:
            return K_GO_DOWN
        if a0 == A_GO_OUT7:
            return K_GO_OUT
        if a0 != A_DISCARD:
            return K_LAY
    return K_DISCARD


@njit(cache=True)
def cut_world_values(st, tab, opts, p, kind, acts, n, active, insp, prm, sid, pprm, key, w, sim, stab, sc, mo, deck,
                     wsids, g, a2, trace, vals, off):
    """World ``w`` of a cut-stage decision of the cutter ``p`` (``st``: the hand reset, nothing
    dealt; streams keyed by ``key``): the deck it cannot see dealt at random as the dealing
    sequence (the bottom portion, then the top portion; K_KEEP: the three inspected cards
    ``insp`` last, where the cut puts them) and the cut's noise; each active action cuts and
    deals from them: K_CUT an aim (bottom portion aim + the noise; the sequence stays, so only
    whether the cut is exact differs, and actions alike share one rollout), K_KEEP a number of
    inspected jokers kept (at K_CUT the policy keeps as it would). The hand is rolled out
    ``rollouts`` times by the policy at every seat; ``vals[i, off + r]`` = ``search_value``
    plus the points an exact cut took off the penalty. Returns the rollouts played."""
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    chip = prm[X_CHIP]
    h, dealer = st[HNO], st[DEALER]
    seed_sub(g, key, w, -1)
    cnt = np.full(KN_STRIDE, 2, np.int64)
    cnt[JK] = DECK_SIZE - 104
    if kind == K_KEEP:
        for j in range(3):
            cnt[insp[j]] -= 1
            deck[DECK_SIZE - 3 + j] = insp[j]
    m = 0
    for c in range(KN_STRIDE):
        for _ in range(cnt[c]):
            deck[m] = c
            m += 1
    shuffle_prefix(deck, m, g)
    if kind == K_KEEP:
        b0 = cut_bottom(opts, g, st[CUT_AIMED])
    else:
        s = opts[O_CUT_SPREAD]
        b0 = below(g, 2 * s + 1) - s             # the noise of the aimed cut
    wsids[:] = sid
    if kind == K_KEEP:
        wsids[p] = PLUGIN + sid                  # keeps as many as the action says (KEEP_SET)
    cache = np.zeros(2, np.float64)
    done = np.zeros(2, np.bool_)
    played = 0
    for r in range(rollouts):
        done[:] = False
        for i in range(n):
            if not active[i]:
                continue
            b = b0 if kind == K_KEEP else min(max((acts[i] & 0xFFFF) + b0, 1), DECK_SIZE - 3)
            t = DECK_SIZE - b
            sim[:] = st
            stab[:] = tab
            for j in range(b):
                sim[STOCK + t + j] = deck[j]
            for j in range(t):
                sim[STOCK + j] = deck[b + j]
            sim[KEEP_SET] = 1 if kind == K_KEEP else 0
            if kind == K_KEEP:
                sim[CUT_KEEPS] = acts[i] & 0xFFFF
            else:
                sim[CUT_KEEPS] = int(pprm[Q_KEEP_JOKERS]) if planner_like(sid) else 3
            seed_sub(g, key, w, r)
            deal_cut(sim, opts, h, dealer, b, wsids, g, trace)
            e = sim[CUT_EXACT]
            if kind == K_CUT and done[e]:
                vals[i, off + r] = cache[e]
                continue
            open_hand(sim, opts, g, trace)
            search_rollout(sim, opts, stab, sc, mo, sid, pprm, g, a2, trace)
            v = search_value(sim, st, opts, p, chip) + st[PEN + p] - sim[PEN + p]
            vals[i, off + r] = v
            cache[e] = v
            done[e] = True
            played += 1
    return played


@njit(cache=True)
def critique_world(st, tab, opts, p, kind, acts, cand, n, active, insp, prm, sid, pprm, key, w, base, sim, stab, sc,
                   mo, cards, wsids, g, a2, trace, out):
    """World ``w`` of a critiqued decision: ``out[i, r]`` the value of action i in rollout r
    (``world_values``, the search's; the cut stage: ``cut_world_values``); returns the rollouts
    played."""
    if kind == K_CUT or kind == K_KEEP:
        return cut_world_values(st, tab, opts, p, kind, acts, n, active, insp, prm, sid, pprm, key, w, sim, stab, sc,
                                mo, cards, wsids, g, a2, trace, out, 0)
    world_values(st, tab, opts, p, acts, cand, n, active, prm, sid, pprm, key, w, base, sim, stab, sc, mo, cards, g,
                 a2, trace, out, 0)
    return max(1, int(prm[SP_ROLLOUTS])) * active[:n].sum()


@njit(cache=True)
def critique_eval(st, tab, opts, kind, acts, n, chosen, prm, key, row, acts_out, insp):
    """Value every legal action ``acts[:n]`` of the seat deciding in ``st`` (table ``tab``) with
    the search row ``prm`` (``kernels.critique``: a racing select stage over ``worlds`` worlds,
    then the best and the choice ``chosen`` measured on as many fresh ones) into ``row`` and
    ``acts_out``. A world deals what the seat cannot see again (``determinize``) and rolls each
    action out to the end of the hand with the policy at every seat; the value is the search's
    (``search_value``: minus the seat's penalty of the hand, less X_CHIP points per chip spent
    before the last hand). ``kind`` K_CUT / K_KEEP: the cutter's decision before the deal
    (``st`` the hand reset, ``insp`` the inspected cards; ``cut_world_values``)."""
    cut = kind == K_CUT or kind == K_KEEP
    p = (st[DEALER] + st[N] - 1) % st[N] if cut else (st[ASK] if st[PHASE] == P_BUY else st[CUR])
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:].copy()                      # C-contiguous: choose's compiled signature
    vals = np.zeros((2 * worlds, n), np.float64)
    out = np.zeros((n, rollouts), np.float64)
    seen = np.zeros(n, np.int64)
    active = np.ones(n, np.bool_)
    cand = np.arange(n)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    stab = np.empty_like(tab)
    sc = np.empty((MAX_ACTS, 3), np.int64)
    mo = np.empty((M.MAX_GO_OUT_MELDS, M.M_SIZE), np.int64)
    cards = np.empty(DECK_SIZE, np.int64)
    wsids = np.empty(st[N], np.int64)
    g = np.empty(2, np.uint64)
    a2 = np.empty(MAX_ACTS, np.int64)
    trace = np.zeros((0, TRACE_WIDTH), np.int64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + CR_ROUND)):
            played += critique_world(st, tab, opts, p, kind, acts, cand, n, active, insp, prm, sid, pprm, key, ww,
                                     base, sim, stab, sc, mo, cards, wsids, g, a2, trace, out)
            for i in range(n):
                if active[i]:
                    vals[ww, i] = out[i].sum() / rollouts
        w = min(worlds, w + CR_ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            played += critique_world(st, tab, opts, p, kind, acts, cand, n, active, insp, prm, sid, pprm, key, ww,
                                     base, sim, stab, sc, mo, cards, wsids, g, a2, trace, out)
            vals[ww - worlds + w, best] = out[best].sum() / rollouts
            vals[ww - worlds + w, chosen] = out[chosen].sum() / rollouts
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)


@njit(cache=True)
def critique_row(st, tab, opts, kind, acts, n, chosen, seat, prm, key, rate, seen, step, rows, acts_out, snaps, k,
                 cut, insp):
    """Row ``k`` (if there is room) of the decision ``acts[:n]`` of ``seat`` (its ``seen``-th,
    the game's ``step``-th): phase = the hand, detail = the seat's chips; a sampled one with
    more than one legal action (and no more than ``acts_out`` holds) is valued
    (``critique_eval``) and its snapshot kept (SNAP_*: the state, the table, ``cut`` and the
    inspected cards). Returns the rows written."""
    if k >= len(rows):
        return k
    plain_row(rows[k], seen, step, kind, st[HNO], st[CHIPS + seat], n, chosen, acts[chosen])
    if n > 1 and n <= acts_out.shape[1] and sampled(key, seen, rate):
        snaps[k, :ST_SIZE] = st
        snaps[k, SNAP_TAB:SNAP_CUT] = tab.ravel()
        snaps[k, SNAP_CUT] = cut
        snaps[k, SNAP_INSPECT:SNAP_SIZE] = insp
        critique_eval(st, tab, opts, kind, acts, n, chosen, prm, mix64(key + np.uint64(seen + 1)), rows[k],
                      acts_out[k], insp)
    return k + 1


@njit(cache=True)
def inspected(st, opts, gdeck, insp):
    """The three cards the cutter inspects in the hand about to be dealt (``insp``, the deck
    shuffled ahead on a copy of the hand's stream, as ``plugin_cut``); returns the jokers
    among them."""
    t = st.copy()
    g = gdeck.copy()
    for i in range(DECK_SIZE):
        t[STOCK + i] = i // 2 if i < 104 else JK
    shuffle(g, t, STOCK, STOCK + DECK_SIZE)
    top = DECK_SIZE - cut_bottom(opts, g, st[CUT_AIMED])
    j = 0
    for i in range(3):
        insp[i] = t[STOCK + top - 3 + i]
        if insp[i] == JK:
            j += 1
    return j


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug, pprm,
                  srch):
    """Play game ``game`` of run ``seed`` exactly as ``play_game`` does (the same streams, cut
    choices, plug-in and search seats) and write a ``kernels.critique`` row for each decision
    of ``seat`` (at most ``len(rows)``): its cuts (K_CUT under the aimed cut model: the bottom
    portion aimed at, the actions CUT_CODE | 1 .. 105; K_KEEP under cut_joker_keep=optional
    with jokers among the inspected cards: KEEP_CODE | kept), then every decision of the hand
    (``decision_kind``; a turn's step is one decision among all its actions, table actions and
    discards). A sampled one (``rate``, its own stream from STREAM_CRITIQUE, never a play
    stream) with more than one legal action is valued by ``critique_eval`` with the search row
    ``prm``, its snapshot in ``snaps`` (SNAP_SIZE wide). ``stop`` >= 0 stops the game before its
    decision number ``stop`` (any seat's, the cut stage's counted: ``CR_STEP``), the state there
    (a cut-stage decision: the hand reset, nothing dealt). Returns (rows written, decisions of
    ``seat``, the final state: totals with the leftover-chip points as the batch's)."""
    st, tab, acts, sc, mo, gdeck, gplay = buffers()
    view = np.zeros(VIEW_SIZE, np.int64)
    legal = np.zeros(MAX_ACTS, np.int64)
    full = np.zeros(MAX_ACTS, np.int64)
    cut = np.zeros(DECK_SIZE, np.int64)
    pre = np.zeros(ST_SIZE, np.int64)
    insp = np.full(3, -1, np.int64)
    none = np.full(3, -1, np.int64)
    record = np.zeros(RECORD_COLS, np.int64)
    n = opts[O_PLAYERS]
    dealer = open_game(st, opts, seed, game, gdeck, gplay)
    key = stream_key(seed, game, np.int64(STREAM_CRITIQUE))
    k, seen, step, stopped = 0, 0, 0, False
    for h in range(1, opts[O_HANDS] + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_HAND + h))
        e = cut_choices(st, opts, tab, h, dealer, sids, params, gdeck, plug, pprm, view, legal)
        if e:
            st[ERR] = e
            break
        cutter = (dealer + n - 1) % n
        reset_hand(st, h, dealer)                   # (start_hand resets it again: the same)
        pre[:] = st
        jokers = inspected(st, opts, gdeck, insp) if opts[O_CUT_JOKERS] == 1 else 0
        if opts[O_CUT_MODEL] == 0:                  # K_CUT: the cutter's aim
            if step == stop:
                stopped = True
                break
            if cutter == seat:
                for i in range(DECK_SIZE - 3):
                    cut[i] = CUT_CODE | (i + 1)
                aim = st[CUT_AIMED] if st[CUT_AIMED] > 0 else opts[O_CUT_AIM]
                k = critique_row(pre, tab, opts, K_CUT, cut, DECK_SIZE - 3, min(max(aim, 1), DECK_SIZE - 3) - 1,
                                 seat, prm, key, rate, seen, step, rows, acts_out, snaps, k, 1, none)
                seen += 1
            step += 1
        keep_step = -1
        if jokers > 0:                              # K_KEEP: how many inspected jokers to keep
            if step == stop:
                stopped = True
                break
            keep_step = step
            step += 1
        trunc = st[TRUNC]
        start_hand(st, opts, h, dealer, sids, gdeck, gplay, trace)
        if keep_step >= 0 and cutter == seat:       # (its answer is known once the deal is done)
            for i in range(jokers + 1):
                cut[i] = KEEP_CODE | i
            k = critique_row(pre, tab, opts, K_KEEP, cut, jokers + 1, st[CUT_KEPT], seat, prm, key, rate, seen,
                             keep_step, rows, acts_out, snaps, k, 2, insp)
            seen += 1
        while st[PHASE] != P_OVER:
            if step == stop:
                stopped = True
                break
            m = legal_actions(st, opts, tab, sc, mo, acts)
            if m == 0:
                st[ERR] = E_NO_MOVES
                break
            p = st[ASK] if st[PHASE] == P_BUY else st[CUR]
            kind = -1
            if p == seat:                           # (the seat's choice may reorder acts: a copy)
                kind = decision_kind(st, acts, m)
                full[:m] = acts[:m]
            _, i = seat_choice(st, opts, tab, acts, m, p, sids, params, sc, mo, gplay, plug, pprm, view, legal, srch)
            if i == -2:
                st[ERR] = E_PLUGIN
                break
            x = acts[i]
            if p == seat:
                c = 0
                while full[c] != x:
                    c += 1
                k = critique_row(st, tab, opts, kind, full, m, c, seat, prm, key, rate, seen, step, rows, acts_out,
                                 snaps, k, 0, none)
                seen += 1
            apply_action(st, opts, tab, mo, x, gplay, trace)
            step += 1
        if stopped or st[ERR]:
            break
        close_hand(st, opts, tab, sc, mo, acts, trunc, trace)
        dealer = (dealer + 1) % n
    if not stopped:
        write_game(st, opts, record)
    return k, seen, st


def critique(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)
