"""Contract Rummy (presets CONTRACT, LIVERPOOL, MAY_I): the seven-deal game as small numba kernels.

Rules source: ``docs/rules/contract_rummy.md`` (the Persian seed, pagat, and the spec's
DECISIONs). The meld arithmetic (contracts with floating jokers, lay-offs, joker swaps) is
``kernels.melds_float`` (which generalises ``kernels.melds``); this module is the game flow.

Choices this module adds where the spec leaves room
----------------------------------------------------
* One record is one **game** of seven deals. Per deal: the seat out, the end reason, turns,
  reshuffles, the LIVERPOOL cut, and per seat the penalty, the May-I's (penalty cards taken)
  and the out-of-turn plays.
* Decisions are strategy hooks (§17): ``choose_draw`` (take the discard or not; under
  ``out_of_turn_discard`` taking it is a May-I: the penalty card follows), ``respond_may_i``
  (volunteer for the out-of-turn play; under ``buy``: buy the discard), the contract meld (the
  engine's best meld: most natural points laid, fewest jokers; with larger first melds
  (MAY_I) a meld of every card, going out, is preferred when it exists, and with the
  ``meld_jokers`` parameter every joker held goes into it; with ``meld_pick = 1`` an exact
  contract is laid as the meld after which most held cards can be laid off), joker swaps (an
  atomic (run, natural, target meld) action; the freed joker goes where the ``joker_target`` parameter
  says, or, with ``swapped_joker_may_be_discarded``, may be kept for this turn's discard),
  lay-offs one card at a time onto the meld ``layoff_target`` / ``joker_target`` choose,
  repeated to a fixed point (swaps and lay-offs alternate while they shed cards), and the
  discard.
* Strategies (issue 15): every strategy but ``random`` reads one parameter row (``P_*``);
  ``greedy`` is ``mayi`` with ``max_mayi = near = 99`` (no limits). Default behaviour changed by issue 15's
  fixes: lay-offs to a fixed point, jokers placed where they let a held card follow (else on
  a set), MAY_I melds take every joker held, a rank's copies past three count as no contract
  help in the discard choice (the ``may_i_model = none`` stall), ``cautious`` defends only
  while ``far`` cards short. ``fuzz`` is greedy with each decision random with probability
  ``noise``.
* ``expert`` (issue 41; sid ``S_EXPERT``): ``cautious`` with its distance to the contract
  counting each card once (``contract_need``'s ``exact``): an ace in one run (``ace_spent``;
  the others count one ace card in a low and a high run of its suit at once: AD 2D 3D 4D with
  JD QD KD is "two runs held") and the sets from the cards the runs leave (``after_runs``; the
  others count AD in a run and in a set of aces), so they believe a contract held and draw
  past the card that completes it. Not down, once a rival who has melded holds at most
  ``shed_at`` cards (P_SHED; ``sheds``) it discards its costliest natural whatever its contract
  needs (cautious's ``danger`` sheds only while far from its contract). The old strategies' play
  is unchanged (the flag defaults to their count; P_SHED is read by the expert only).
* ``search`` (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
  determinized Monte Carlo over two decision kinds of its own turns, chosen by the ``kinds``
  bit mask: the draw (take the top discard, a May-I under ``out_of_turn_discard``, or draw)
  and the discard (the policy's best ``discards`` card types). At such a decision it deals
  ``worlds`` times what its seat cannot see (``determinize``: the other hands, which keep the
  cards they are publicly known to hold, ``KNOWN``, and the stock's order), forces each
  answer on the hook (``F_KIND``, ``F_SEAT``, ``F_VAL``) and plays the deal out to its end
  with the rollout policy at every seat (``rollouts`` times; the same streams for every
  answer); the value is minus its penalty of the deal relative to the others' mean (the game
  score is the sum of deal penalties). The policy's own answer is tried first and kept unless
  another one's mean gain is at least ``z`` paired standard errors (as a Student t quantile:
  ``z + (z^3 + z) / (4 (m - 1))`` for m samples; one sample keeps the policy's answer). The policy (its default
  parameters) makes every other decision of the seat. The search's key is drawn from the
  table's play stream. ``KNOWN`` is public bookkeeping only: it changes no rule
  (``RULES_VERSION`` unchanged) and no other strategy's play. The batch kernels call
  ``search_force`` as a callback (``srch``, ``SEARCH_SIG``) compiled the first time a table
  has a search seat (``search_cfunc``), not in every game's batch kernel (issue 14).
* Plug-in seats (issue 17, sid ``PLUGIN + base``): every decision above is a ``K_*`` kind
  with its own legal list built where it is taken (``ask``; the codes are listed at the
  ``K_*`` constants and in ``cardsim.contract_rummy``), the seat's view is ``fill_view``;
  -1 leaves the decision to the base built-in, an answer that is no index of the list stops
  the deal (``E_PLUGIN``, in every mode). Built-in seats never build the lists.
* Step mode (issue 20, ``XSTEP``; the step API and the OpenSpiel bridge,
  ``sim.games.contract_rummy.step``): a turn is ``step_turn``, replayed from its start with
  every seat a plug-in answering from a script (``step_plugin``, the ``SS_*`` slots of its
  ``pprm`` row); a question the script does not answer stops the turn and leaves a snapshot of
  the state where it was asked (``SNAP``). Stock cards come from the feed (``XFEED``: the cards
  chance dealt this turn, in draw order); a draw the feed has no card for stops the turn
  (``XNEED``); a reshuffle leaves the pile's order (chance deals from it). Off in the batch
  (XSTEP 0): no rule and no record changes.
* Critique (issue 40, ``critique_deal``; ``kernels.critique`` has the contract): a game is played
  turn by turn by ``play_turn`` with a longer ``vb`` (CV_*): every question of every seat is
  logged (the plug-in lists of the K_* kinds built for the built-in seats too, whose answers
  stay their own: the batch's game) and counted (``CR_STEP``; ``stop`` halts before one, with
  its state). A turn has four segments (SEG_*: the draw with the buys and volunteers, step 2,
  the discard, an out-of-turn discard); every question of a segment is asked in its start
  state or follows from it by the answers alone, so the critiqued seat's question is valued by
  rollouts from that start (``rollout_from``) that answer the segment's earlier questions from
  a script and then force each legal answer (``world_values``, the search's own per-world
  values: determinized worlds, the policy at every seat, the seat's ``deal_value``). In the
  batch ``vb`` is VB_SIZE long and none of it runs (``critiquing``).
* The card taken from the pile (A9, §7.1.3): its **type** may not be discarded that turn, a
  twin included. Copies are indistinguishable, so discarding the twin puts the same card back
  on the pile: the "take D, discard D" pass the rule forbids. The exception is a holding of
  nothing but that type (the spec's "unless it is the only card he holds"). A joker kept
  from a swap for this turn's discard goes even if the card taken was a joker (it is
  another card, off the table).
* The ``random`` strategy flips a fair coin at each yes/no hook and picks the discard
  uniformly among the legal card types; the meld it lays is the engine's best one, and its
  lay-offs and jokers go on the first meld that takes them.
* ``go_out_requires_discard``: a lay-off or a meld may not empty the hand; the last card
  goes by discard. CONTRACT deal 7 always goes out with no discard (§13). When the best meld
  would take every card, the engine lays the best meld of all the cards but one (the player
  goes out on the discard) or else the best meld that leaves more; with larger first melds
  (MAY_I) a meld of all but one card is also preferred when the best meld leaves 2 to 5
  (as a meld of every card is without the option).
* ``joker_swap_requires_prior_meld = false``: a player may swap on the turn he makes his
  contract meld too, but §8 bars lay-offs on that turn, so the freed joker is never laid off
  then. Before the meld, a player who cannot meld may swap a natural for a table joker that
  completes his meld: the joker goes into the meld (used this turn, §11; the first (run,
  natural) in table and card order that gives a meld laying a joker). After the meld on
  that turn a swap is made only to keep the joker for the discard
  (``swapped_joker_may_be_discarded``). From the next turn on, swaps are as by default.
* ``joker_position = fixed`` (A19): each run joker keeps the place it was given. A run's
  place list is its window (``M_LO``..``M_HI``; the positions without a natural are the
  jokers'): the contract search's window (the first optimum in search order, so
  ``JK 7S 8S 9S`` is laid with the joker as 6S); a lay-off extends the window at one end (a
  joker, or an ace that fits both ends, goes high when there is room); a swap needs exactly
  the card a joker stands for. With floating jokers the window is only the assignment shown
  in traces (moved by the fewest positions at each lay-off or swap).
* ``min_naturals_per_meld`` (A20): 1 to 3 naturals in every meld, contract melds and after
  lay-offs (4 would forbid the 3-card sets of the exact contracts). The meld search is exact
  for every value (``melds_float``).
* ``oot_discarder_cooldown``: after an out-of-turn play a seat may not volunteer again until
  every other seat has started a turn.
* LIVERPOOL cut: a Bernoulli event of probability ``cut_success_prob`` drawn from the deal's
  own stream before the deal; the cutter is ``prev(dealer)``; ``cut_bonus_recipient =
  deal_winner`` gives the bonus to the seat that goes out (nobody if nobody does).
* Duplicate deals: deal d of game g is shuffled (and its cut drawn) from its own stream of
  (seed, g, d); reshuffles and the random strategy draw from the play stream.
* ``max_turns_per_deal`` caps each deal (normal turns); a capped deal ends as a dead stock
  does (everybody scores, or nobody with ``dead_stock_rule = void_deal``) and sets
  ``truncated``.

Options (int array, built by ``sim.games.contract_rummy.ContractRummyOptions.to_array``):
the ``O_*`` entries below, the hand size of deal d at ``O_HAND + d``, the floating rules array
(``melds_float.make_float_rules``) at ``O_RULES`` and the contract table (8 rows of
``C_STRIDE``, ``melds_float.CF_SIZE`` used) at ``O_CONTRACTS``.

State: ``st`` int64 fields (below), per-seat holdings as count vectors (``HAND + 53 p``), the
stock and the discard pile (pile entries are ``card + 64 k``: k numbers the discards of the
deal, D_k of §7.3), table melds ``tab`` (``melds_float`` rows plus owner and creation turn).
Score range per deal and seat: 0 .. the penalty of the largest holding (at most 162 cards
of at most 25 points); totals are sums of deal penalties minus LIVERPOOL cut bonuses.

Replay trace: rows (code, seat, a, b, c, d) of the ``T_*`` codes below: each seat's dealt
cards, every draw, take, penalty card, volunteer, buy, each contract meld row in full
(``pack_row``), each lay-off and swap with the windows after it, every discard (out of turn
flagged, after its out-of-turn draw), reshuffles, scores; d holds the sizes after the event
(``sizes``). ``sim.games.contract_rummy.trace_events`` reads them.

RULES_VERSION 2 (issue 12): see the note at ``RULES_VERSION``.
"""
import numpy as np

from cardsim.kernels import melds as M
from cardsim.kernels import melds_float as F
from cardsim.kernels.cards import lowbit, popcount
import numba
from numba import types

from cardsim.kernels.critique import (
    ROUND as CR_ROUND,
    STREAM_CRITIQUE,
    finish_row,
    measure_pair,
    plain_row,
    round_done,
    sampled,
)
from cardsim.kernels.jit import (
    PLUG_SIG,
    lazy_cfunc,
    njit,
    no_plugin,
    plugin_params,
    search_callback,
    threaded_batch,
    trace_put,
    unowned,
)
from cardsim.kernels.rng import STREAM_PLAY, below, mix64, seed_stream, shuffle, stream_key, uniform
from cardsim.kernels.search import SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS, best_action, plan_budget, \
    RACE_ROUND, paired_gain, race_policy, search_key, seed_sub, shuffle_prefix

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
O_PLAYERS = 0            # num_players 3..5
O_DECKS = 1              # 52-card decks in the pack
O_JOKERS = 2             # jokers in the pack
O_PACK = 3               # cards in the pack
O_MAYI_MODEL = 4         # may_i_model: 0 out_of_turn_discard, 1 buy, 2 none
O_PENALTY = 5            # take_discard_penalty: 0 always, 1 if_claimed
O_MAYI_LIMIT = 6         # may_i_limit_per_deal, -1 = unlimited
O_NO_CONSEC = 7          # may_i_no_consecutive
O_COOLDOWN = 8           # oot_discarder_cooldown
O_TAKEN_DISCARD = 9      # may_discard_taken_card
O_GO_OUT_DISCARD = 10    # go_out_requires_discard
O_D7_NO_DISCARD = 11     # deal7_discard_mode = never
O_SWAP = 12              # joker_swap_allowed
O_SWAP_PRIOR = 13        # joker_swap_requires_prior_meld
O_SWAP_DISCARD = 14      # swapped_joker_may_be_discarded
O_VOID_DEAD = 15         # dead_stock_rule = void_deal
O_MAX_TURNS = 16         # max_turns_per_deal
O_CUT_POINTS = 17        # cut_bonus_points (0 = no cut)
O_CUT_RECIP = 18         # cut_bonus_recipient: 0 cutter, 1 deal_winner
O_CUT_PPB = 19           # cut_success_prob in parts per 10**9
O_FIRST_DEALER = 20      # -1 random, else the dealer of deal 1
O_DEAL7_SPECIAL = 21     # deal7_special: deal 7 melds all cards and goes out
O_HAND = 24              # O_HAND + d: hand size of deal d (1..7)
O_RULES = 32             # melds_float rules array (RF_SIZE entries, room for RULES_ROOM)
RULES_ROOM = 48
O_CONTRACTS = O_RULES + RULES_ROOM
C_STRIDE = 16
O_SIZE = O_CONTRACTS + 8 * C_STRIDE

MODEL_OOT = 0
MODEL_BUY = 1
MODEL_NONE = 2

# ---- state ----------------------------------------------------------------------------
N = 0            # players
DEAL = 1         # deal number 1..7
DEALER = 2
CUR = 3          # turn player
TURN = 4         # normal turns started this deal
OUT = 5          # seat that went out, -1
DREASON = 6      # D_* once the deal is over, -1 while playing
TRUNC = 7        # 1 once a deal hit the turn cap
RESHUF = 8       # reshuffles this deal
NMELDS = 9       # melds on the table
STOCK_LO = 10    # index of the top stock card
STOCK_HI = 11
PILE_LEN = 12
PILE_K = 13      # discards made this deal (the k of the newest D_k)
ERR = 14         # check-mode violation (E_*)
TR_LEN = 15      # trace rows written
FIRST_DEALER = 16
GAME_TURNS = 17
GAME_RESHUF = 18
TAKEN = 19       # card taken from the pile this turn, -1
CUT_OK = 20      # this deal's LIVERPOOL cut succeeded
JOKER_DUE = 21   # swapped jokers kept for this turn's discard
TOP_FROM = 22    # seat that discarded the top card (-1: the up-card)
XFER = 23        # this turn's discard is transferred to an out-of-turn player
PERR = 24        # 1 once a plug-in answered an illegal index (the deal stops: E_PLUGIN)
DOWN = 30        # DOWN + p: melded this deal
MELD_TURN = 35   # MELD_TURN + p: personal turn of the meld
PTURN = 40       # PTURN + p: personal turn counter
MAYI = 45        # MAYI + p: penalty cards taken this deal (May-I's)
LASTK = 50       # LASTK + p: k of the last discard obtained with a penalty
OOT = 55         # OOT + p: out-of-turn plays this deal
COOL = 60        # COOL + p: seats still to start a turn before p may volunteer again
TOTAL = 65       # TOTAL + p: cumulative score
PEN = 70         # PEN + p: penalty this deal
GMAYI = 75       # GMAYI + p: May-I's in the game
GOOT = 80        # GOOT + p: out-of-turn plays in the game
HSIZE = 85       # HSIZE + p: cards held
GAIN = 90        # GAIN + p: cards received this deal (after the deal)
LOSS = 95        # LOSS + p: cards given up this deal
PCARDS = 100     # PCARDS + p: penalty cards drawn this deal (check: equals MAYI)
HAND = 110       # HAND + 53 p: count vector of seat p
STOCK = HAND + HOLD * MAX_PLAYERS
PILE = STOCK + MAX_PACK
KNOWN = PILE + MAX_PACK  # KNOWN + 53 p + c: copies of card c seat p is publicly known to hold (taken
                         # from the pile, bought, or a joker freed by its swap, less each copy of c it
                         # gave up since; never more than it holds): a search's determinization keeps them
F_KIND = KNOWN + HOLD * MAX_PLAYERS  # a search rollout's forced decision: its kind + 1 (0: none) ...
F_SEAT = F_KIND + 1      # ... the seat it is forced for ...
F_VAL = F_KIND + 2       # ... and the answer (K_DRAW: 1 take; K_DISCARD: the card); used once
XSTEP = F_KIND + 3       # step mode (the step API, ``sim.games.contract_rummy.step``): 1 = every stock card
                         # comes from the feed, and a reshuffle leaves the pile's order (chance deals it)
XFEED_LEN = XSTEP + 1    # step mode: cards in the feed
XFEED_POS = XSTEP + 2    # step mode: feed cards drawn so far this turn
XNEED = XSTEP + 3        # step mode: 1 once a draw found the feed spent (the turn stopped there), 2 a feed
                         # card the stock does not hold
XFEED = XSTEP + 4        # step mode: the feed, this turn's stock cards in the order they are drawn
FEED_ROOM = 16
ST_SIZE = XFEED + FEED_ROOM

# table rows: melds_float meld row, then
T_OWNER = M.M_SIZE
T_TURN = M.M_SIZE + 1
TW = M.M_SIZE + 2

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
N_POLICY = 13       # a built-in's parameter row (the P_* slots)
N_PARAMS = SP_PRM + N_POLICY
P_MAX = 0           # May-I's (penalty cards) per deal; >= 99: no limit
P_NEAR = 1          # take a paid discard only if at most this many cards stay missing
P_VOL = 2           # 1 = volunteer for out-of-turn plays
P_DANGER = 3        # cautious: an opponent down with at most this many cards is a danger
P_FAR = 4           # cautious: defend only while at least this many cards are missing
P_LAYOFF = 5        # lay-off target: 0 first meld in table order, 1 the one after which most held cards fit
P_JOKER = 6         # joker target (lay-off, swap): 0 first meld, 1 where it lets a held card
                    # follow, else a set (dead: nobody reuses it), 2 the same but a run before a set
P_MELD_JK = 7       # larger first melds (MAY_I): 1 = every joker held goes into the meld
P_VOL_PTS = 8       # volunteer only when the holding is worth at least this many points
P_NOISE = 9         # fuzz: probability that a decision is a fair coin / a random discard
P_SWAP = 10         # 1 = make joker swaps
P_MELD = 11         # exact contracts: 0 the engine's meld (most natural points laid, fewest jokers), 1 the
                    # meld after which most held cards can be laid off (``flexible_meld``)
P_SHED = 12         # expert: not down, once a seat that has melded holds at most this many cards, discard the
                    # natural with the most points whatever the contract needs (0 = never; ``sheds``)
UNLIMITED = 99
SX_KINDS = SP_EXTRA      # search: bit 0 the draw (take the discard or not), bit 1 the discard
SX_CANDS = SP_EXTRA + 1  # search: discards tried, the policy's best ones first
SX_Z = SP_EXTRA + 2      # search: another answer than the policy's only if its paired gain is at least
                         # this many standard errors (0: the best mean)
SX_FUTILITY = SP_EXTRA + 3  # search: racing's futility share (``kernels.search.race_policy``; 0: off)
SX_DRAW = 1
SX_DISCARD = 2
JT_FIRST = 0
JT_HELP = 1
JT_RUN = 2
PLUGIN = 64         # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8   # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k

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
V_SEAT = 0          # the deciding seat
V_KIND = 1          # the decision kind (K_*)
V_PLAYERS = 2
V_DEAL = 3          # deal number 1..7
V_DEALER = 4
V_CUR = 5           # the turn player
V_TURN = 6          # normal turns started this deal
V_STOCK = 7         # cards in the stock
V_PILE_LEN = 8      # cards in the discard pile
V_TOP = 9           # top discard, -1 if none
V_TAKEN = 10        # card type taken from the pile this turn that may not be discarded, -1
V_MODEL = 11        # may_i_model: 0 out_of_turn_discard, 1 buy, 2 none
V_JOKER_DUE = 12    # swapped jokers kept for this turn's discard
V_XFER = 13         # 1: this turn's discard goes to an out-of-turn player (no discard)
V_CARD = 14         # the card the decision is about (kind notes), -1
V_MELD = 15         # the table meld the decision is about (kind notes), -1
V_INFO = 16         # per kind (kind notes)
V_INFO2 = 17
V_C_SETS = 18       # this deal's contract: sets, runs, exact sizes (1), every card (1)
V_C_RUNS = 19
V_C_EXACT = 20
V_C_ALL = 21
V_NMELDS = 22       # melds on the table
V_HELD = 24         # V_HELD + q: cards seat q holds
V_DOWN = 29         # V_DOWN + q: 1 once seat q melded this deal
V_MAYI = 34         # V_MAYI + q: penalty cards seat q took this deal
V_OOT = 39          # V_OOT + q: out-of-turn plays of seat q this deal
V_TOTAL = 44        # V_TOTAL + q: seat q's penalty total before this deal
V_HAND = 49         # V_HAND + c: copies of card c held (c = 13 * suit + rank, 52 = joker)
V_PILE = 102        # V_PILE + c: copies of card c in the discard pile
V_TAB = 155         # V_TAB + TW * i + f: field f of table meld i (melds_float row, owner, turn)
VIEW_SIZE = V_TAB + MAX_MELDS * (M.M_SIZE + 2)
MAX_LEGAL = 64
VB_SIZE = VIEW_SIZE + 2 * MAX_LEGAL   # view, the plug-in's copy of legal, the engine's legal
# step mode passes a longer vb: a question a plug-in does not answer leaves, from SNAP on, its
# legal count, the state and the table as they were when it was asked (``snapshot``)
SNAP = VB_SIZE
SNAP_ST = SNAP + 1
SNAP_TAB = SNAP_ST + ST_SIZE
SNAP_SIZE = SNAP_TAB + MAX_MELDS * (M.M_SIZE + 2)
# a step-mode seat's pprm row: the plug-in's slots and PLUG_KINDS, then its script of answers
SS_POS = N_PLUG_PARAMS + 1      # answers used in this run
SS_LEN = SS_POS + 1             # answers scripted
SS_MODE = SS_POS + 2            # 0 exact; 1 a resampled world: a question the script does not name gets the
                                # passive answer (no, keep) while answers are left; 2 also after them
SS_ANS = SS_POS + 3             # (question key, legal code) per answer, in the seat's order
SS_ROOM = 256                   # answers a seat may have scripted in one turn
SS_SIZE = SS_ANS + 2 * SS_ROOM
# critique (issue 40) passes a vb longer still: from CV on, its bookkeeping (``critiquing``). In
# record mode every question of every seat is logged (the plug-in lists built for the built-in
# seats too, their answers left to them as in the batch) and counted; in script mode (a
# rollout) the questions are answered from a script. A question counted CV_STOP stops the turn
# with the snapshot at SNAP (as step mode's).
CV = SNAP_SIZE
CV_MODE = CV            # 0 off, CM_RECORD, CM_SCRIPT
CV_STEP = CV + 1        # questions counted (record: any seat's in the game; script: answered)
CV_STOP = CV + 2        # stop before question CV_STOP (-1: never)
CV_STOPPED = CV + 3     # 1 once stopped (the snapshot at SNAP)
CV_NLOG = CV + 4        # questions logged this turn
CV_SEGS = CV + 5        # bit s: the start of segment s this turn is kept (at CV_SEG)
CV_LEN = CV + 6         # script: answers
CV_BAD = CV + 7         # script: answers that fit no question (never: tests)
CV_SCRIPT = CV + 8      # script: the answers in question order (critique action codes, ``pack_act``)
LOG_ROOM = 512          # questions one turn may log (a turn asks far fewer)
CV_LOG = CV_SCRIPT + LOG_ROOM
LG_SEAT, LG_KIND, LG_N, LG_CARD, LG_MELD, LG_INFO, LG_ANS, LG_SEG, LG_STEP, LG_HELD = range(10)
LG_CODES = 10           # the legal codes
LG_W = LG_CODES + MAX_LEGAL
PENDING = -99           # LG_ANS before the answer is known
CV_SEG = CV_LOG + LOG_ROOM * LG_W
SEG_W = ST_SIZE + MAX_MELDS * TW    # a state and its table (a critique snapshot: ``state_size``)
N_SEGS = 4
CV_SIZE = CV_SEG + N_SEGS * SEG_W
CM_RECORD = 1
CM_SCRIPT = 2
# a turn's segments: the questions of one segment are asked in one state (its start) or follow
# from it by the answers alone, so a rollout restarts there (``rollout_from``)
SEG_DRAW = 0            # the turn player's draw: K_DRAW, K_BUY, K_VOLUNTEER (begin_turn done)
SEG_ACT = 1             # its step 2: K_MELD, K_MELD_JOKERS, K_SWAP, K_JOKER, K_LAYOFF (the draw done)
SEG_DISCARD = 2         # its discard (step 2 done)
SEG_OOT = 3             # an out-of-turn play's discard (its draw done)

# trace rows (replay only): code, seat (-1: the table), a, b, c, d. d is the sizes after
# the event: cards held by the seat + 256 * stock size + 65536 * discard pile size (see
# ``sizes``). Windows are lo + 256 * hi (a run's positions, the joker assignment shown).
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

# ---- record -------------------------------------------------------------------------
RC_DEALER = 0
RC_WINNER = 1
RC_WINNERS = 2
RC_REASON = 3
RC_TRUNC = 4
RC_ERR = 5
RC_TURNS = 6
RC_RESHUF = 7
RC_TOTAL = 8
RC_MAYI = RC_TOTAL + MAX_PLAYERS
RC_OOT = RC_MAYI + MAX_PLAYERS
RC_DEAL = RC_OOT + MAX_PLAYERS
DB_OUT = 0
DB_REASON = 1
DB_TURNS = 2
DB_RESHUF = 3
DB_CUT = 4
DB_PEN = 5
DB_MAYI = DB_PEN + MAX_PLAYERS
DB_OOT = DB_MAYI + MAX_PLAYERS
DB_SIZE = DB_OOT + MAX_PLAYERS
RECORD_COLS = RC_DEAL + DEALS * DB_SIZE


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True)
def log(st, trace, code, seat, a, b, c, d):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True)
def sizes(st, p):
    """Trace column d: cards held by seat p (0 for -1), stock and discard pile sizes."""
    held = st[HSIZE + p] if p >= 0 else 0
    return held + 256 * (st[STOCK_HI] - st[STOCK_LO]) + 65536 * st[PILE_LEN]


@njit(cache=True)
def window(row):
    return row[M.M_LO] + 256 * row[M.M_HI]


@njit(cache=True)
def pack_row(row):
    """Trace column b of a meld row: kind, key, jokers, M_P2, window, flags."""
    return (row[M.M_KIND] + (row[M.M_KEY] << 2) + (row[M.M_JOKERS] << 8) + (row[M.M_P2] << 16)
            + (row[M.M_LO] << 24) + (row[M.M_HI] << 32) + (row[M.M_FLAGS] << 40))


@njit(cache=True)
def hand_of(st, p):
    return st[HAND + HOLD * p:HAND + HOLD * (p + 1)]


@njit(cache=True)
def give(st, p, c):
    st[HAND + HOLD * p + c] += 1
    st[HSIZE + p] += 1
    st[GAIN + p] += 1


@njit(cache=True)
def take(st, p, c):
    st[HAND + HOLD * p + c] -= 1
    if st[KNOWN + HOLD * p + c] > 0:
        st[KNOWN + HOLD * p + c] -= 1
    st[HSIZE + p] -= 1
    st[LOSS + p] += 1


@njit(cache=True)
def rules_of(opts):
    return opts[O_RULES:O_RULES + F.RF_SIZE]


@njit(cache=True)
def spec_of(opts, d):
    return opts[O_CONTRACTS + d * C_STRIDE:O_CONTRACTS + d * C_STRIDE + F.CF_SIZE]


@njit(cache=True)
def special7(st, opts):
    return opts[O_DEAL7_SPECIAL] == 1 and st[DEAL] == 7


@njit(cache=True)
def end_deal(st, reason, out):
    if st[DREASON] < 0:
        st[DREASON] = reason
        st[OUT] = out


@njit(cache=True)
def over(st):
    return st[DREASON] >= 0


# =============================================================================
# stock and discard pile (§12)
# =============================================================================
@njit(cache=True)
def reshuffle(st, gplay, trace):
    """All of the discard pile but its top card becomes the new, shuffled stock."""
    m = st[PILE_LEN] - 1
    for i in range(m):
        st[STOCK + i] = st[PILE + i] & 63
    st[PILE] = st[PILE + m]
    st[PILE_LEN] = 1
    st[STOCK_LO] = 0
    st[STOCK_HI] = m
    if st[XSTEP] == 0:
        shuffle(gplay, st, STOCK, STOCK + m)
    st[RESHUF] += 1
    log(st, trace, T_RESHUFFLE, -1, m, 0, 0, sizes(st, -1))


@njit(cache=True)
def stock_card(st, opts, gplay, trace):
    """Top stock card (reshuffling when needed), or -1: dead stock ends the deal."""
    if st[STOCK_LO] == st[STOCK_HI]:
        if st[PILE_LEN] <= 1:
            end_deal(st, D_DEAD_STOCK, -1)
            return -1
        reshuffle(st, gplay, trace)
    if st[XSTEP]:
        return feed_card(st)
    c = st[STOCK + st[STOCK_LO]]
    st[STOCK_LO] += 1
    return c


@njit(cache=True)
def feed_card(st):
    """Step mode: the feed's next card, moved to the stock's top and drawn; -1 when the feed is
    spent (XNEED 1) or names a card the stock lacks (XNEED 2): the turn stops (the deal reads as
    over) until chance deals the card."""
    i = st[XFEED_POS]
    lo = st[STOCK_LO]
    if i < st[XFEED_LEN] and i < FEED_ROOM:
        c = st[XFEED + i]
        for k in range(lo, st[STOCK_HI]):
            if st[STOCK + k] == c:
                st[STOCK + k] = st[STOCK + lo]
                st[STOCK + lo] = c
                st[XFEED_POS] = i + 1
                st[STOCK_LO] = lo + 1
                return c
        st[XNEED] = 2
    else:
        st[XNEED] = 1
    st[PERR] = 1
    end_deal(st, D_STOPPED, -1)
    return -1


@njit(cache=True)
def draw(st, opts, p, gplay, trace):
    """Seat p draws from the stock; False when the deal ended (dead stock)."""
    c = stock_card(st, opts, gplay, trace)
    if c < 0:
        return False
    give(st, p, c)
    log(st, trace, T_DRAW, p, c, 0, 0, sizes(st, p))
    return True


@njit(cache=True)
def discard(st, p, c, oot, trace):
    take(st, p, c)
    st[PILE_K] += 1
    st[PILE + st[PILE_LEN]] = c + 64 * st[PILE_K]
    st[PILE_LEN] += 1
    st[TOP_FROM] = p
    log(st, trace, T_DISCARD, p, c, oot, 0, sizes(st, p))


@njit(cache=True)
def top_card(st):
    return st[PILE + st[PILE_LEN] - 1] & 63


@njit(cache=True)
def top_k(st):
    return st[PILE + st[PILE_LEN] - 1] >> 6


@njit(cache=True)
def pile_pop(st):
    st[PILE_LEN] -= 1
    return st[PILE + st[PILE_LEN]] & 63


# =============================================================================
# dealing (§5, §15.2)
# =============================================================================
@njit(cache=True)
def reset_deal(st, d, dealer):
    n = st[N]
    st[DEAL] = d
    st[DEALER] = dealer
    st[TURN] = 0
    st[OUT] = -1
    st[DREASON] = -1
    st[RESHUF] = 0
    st[NMELDS] = 0
    st[PILE_LEN] = 0
    st[PILE_K] = 0
    st[TAKEN] = -1
    st[JOKER_DUE] = 0
    st[TOP_FROM] = -1
    for p in range(n):
        for f in (DOWN, MELD_TURN, PTURN, MAYI, OOT, COOL, PEN, HSIZE, GAIN, LOSS, PCARDS):
            st[f + p] = 0
        st[LASTK + p] = -10
    st[HAND:STOCK] = 0
    st[KNOWN:F_KIND] = 0
    st[F_KIND] = 0


@njit(cache=True)
def build_pack(st, opts):
    i = 0
    for c in range(52):
        for _ in range(opts[O_DECKS]):
            st[STOCK + i] = c
            i += 1
    for _ in range(opts[O_JOKERS]):
        st[STOCK + i] = JK
        i += 1
    st[STOCK_LO] = 0
    st[STOCK_HI] = i


@njit(cache=True)
def cut_bonus(st, opts, gdeck, trace):
    """LIVERPOOL: the cutter prev(dealer) succeeds with cut_success_prob (§15.2)."""
    st[CUT_OK] = 0
    if opts[O_CUT_POINTS] != 0:
        cut_result(st, opts, int(uniform(gdeck) * 1e9 < opts[O_CUT_PPB]))


@njit(cache=True)
def cut_result(st, opts, ok):
    """The cut succeeded (``ok``) or not; a success's bonus to the cutter (cut_bonus_recipient)."""
    st[CUT_OK] = ok
    if ok and opts[O_CUT_RECIP] == 0:
        st[TOTAL + (st[DEALER] + st[N] - 1) % st[N]] -= opts[O_CUT_POINTS]


@njit(cache=True)
def start_deal(st, opts, d, dealer, gdeck, trace):
    """Shuffle, cut, deal h_d cards one at a time from next(dealer), turn the up-card."""
    reset_deal(st, d, dealer)
    build_pack(st, opts)
    shuffle(gdeck, st, STOCK, STOCK + st[STOCK_HI])
    cut_bonus(st, opts, gdeck, trace)
    log(st, trace, T_DEAL, -1, d, dealer, st[CUT_OK], sizes(st, -1))
    deal_stock(st, opts, trace)


@njit(cache=True)
def deal_stock(st, opts, trace):
    """Deal h_d cards one at a time from next(dealer), from the stock's top, and turn the
    up-card (the step API deals its chance-dealt pack this way too)."""
    d, dealer = st[DEAL], st[DEALER]
    n = st[N]
    for _ in range(opts[O_HAND + d]):
        for k in range(1, n + 1):
            p = (dealer + k) % n
            st[HAND + HOLD * p + st[STOCK + st[STOCK_LO]]] += 1
            st[HSIZE + p] += 1
            st[STOCK_LO] += 1
    if trace.shape[0] > 0:
        for p in range(n):
            for c in range(HOLD):
                if st[HAND + HOLD * p + c] > 0:
                    log(st, trace, T_HOLD, p, c, st[HAND + HOLD * p + c], 0, sizes(st, p))
    st[PILE] = st[STOCK + st[STOCK_LO]] + 64 * 0
    st[STOCK_LO] += 1
    st[PILE_LEN] = 1
    log(st, trace, T_UPCARD, -1, st[PILE] & 63, 0, 0, sizes(st, -1))
    st[CUR] = (dealer + 1) % n


# =============================================================================
# contract need (strategy heuristic) and discard scores
# =============================================================================
@njit(cache=True)
def suit_positions(h, s, skip):
    """Run positions (1..14, the ace at both ends) of the suit-s ranks held, rank ``skip``
    left out (-1: none)."""
    m = np.int64(0)
    for r in range(13):
        if r != skip and h[s * 13 + r] > 0:
            m |= np.int64(1) << (r + 1)
    if m & 2:
        m |= np.int64(1) << 14
    return m


@njit(cache=True)
def window_have(m, lo):
    """Positions lo..lo+3 held in the suit position mask m."""
    return popcount(m & (np.int64(15) << lo))


@njit(cache=True)
def window_clash(sc, k, s, lo, no_touch):
    for i in range(k):
        if sc[2 * i] == s:
            d = abs(sc[2 * i + 1] - lo)
            if d < 4 or (no_touch and d == 4):
                return True
    return False


@njit(cache=True)
def runs_have(h, nr, no_touch, sc, exact=False):
    """Cards held towards nr runs of 4 (best disjoint windows, greedily). An ace sits at both
    ends of its suit's positions; without ``exact`` (the strategies as built) one ace card
    counts in a low and a high window of its suit at once (AD 2D 3D 4D and JD QD KD AD: two
    runs held); the expert (``exact``) counts it only as often as it is held (``ace_spent``)."""
    have = 0
    for k in range(nr):
        best = -1
        for s in range(4):
            m = suit_positions(h, s, -1)
            for lo in range(1, 12):
                if window_clash(sc, k, s, lo, no_touch):
                    continue
                w = window_have(m, lo)
                if exact and ace_spent(h, sc, k, s, lo):
                    w -= 1
                if w > best:
                    best = w
                    sc[2 * k] = s
                    sc[2 * k + 1] = lo
        have += best
    return have


@njit(cache=True)
def ace_spent(h, sc, k, s, lo):
    """The window of suit s at ``lo`` holds the suit's ace (lo 1: low, lo 11: high) and the
    windows chosen before it (sc[:2k]) already use every copy of it held."""
    if h[s * 13] == 0 or (lo != 1 and lo != 11):
        return False
    used = 0
    for i in range(k):
        if sc[2 * i] == s and (sc[2 * i + 1] == 1 or sc[2 * i + 1] == 11):
            used += 1
    return used >= h[s * 13]


@njit(cache=True)
def after_runs(h, nr, sc):
    """A copy of holding h less one copy of each card in the nr run windows runs_have chose
    (sc: suit and lowest position of each; position 14 is the ace)."""
    left = h.copy()
    for k in range(nr):
        s, lo = sc[2 * k], sc[2 * k + 1]
        for q in range(lo, lo + 4):
            c = s * 13 + (q - 1) % 13
            if left[c] > 0:
                left[c] -= 1
    return left


@njit(cache=True)
def sets_have(h, ns):
    """Cards held towards ns sets of 3 (the ranks held most, up to 3 each)."""
    have = 0
    used = 0
    for _ in range(ns):
        best = -1
        br = 0
        for r in range(13):
            if (used >> r) & 1:
                continue
            c = min(3, F.rank_total(h, r))
            if c > best:
                best = c
                br = r
        used |= 1 << br
        have += best
    return have


@njit(cache=True)
def contract_need(h, spec, rules, sc, exact=False):
    """Estimated cards still missing for the contract (0 = perhaps complete). ``exact`` (the
    expert): an ace counts in one run (runs_have's), and the sets are counted from the cards
    the runs' windows leave (``after_runs``); the others count a card in a run and a set at
    once (AD 2D 3D 4D with AS AS: a run and a set of aces)."""
    nr = spec[M.C_RUNS]
    ns = spec[M.C_GROUPS]
    runs = runs_have(h, nr, rules[F.RF_NO_TOUCH], sc, exact)
    have = runs + sets_have(after_runs(h, nr, sc) if exact and nr > 0 and ns > 0 else h, ns)
    return max(0, 3 * ns + 4 * nr - have - h[JK])


@njit(cache=True)
def top_sum(h, nr, ns):
    """Upper bound on the cards a holding can put into nr runs and ns sets (windows may
    repeat, cards may serve twice, a rank counts up to 3 per set)."""
    have = 0
    prev = BIG
    for _ in range(nr):
        best = 0
        for s in range(4):
            m = suit_positions(h, s, -1)
            for lo in range(1, 12):
                w = window_have(m, lo)
                if w > best and w <= prev:
                    best = w
        have += best
        prev = best
    f1 = 0
    f2 = 0
    f3 = 0
    for r in range(13):
        c = F.rank_total(h, r)
        f3 += c // 3
        if c % 3 == 2:
            f2 += 1
        elif c % 3 == 1:
            f1 += 1
    k3 = min(ns, f3)
    k2 = min(ns - k3, f2)
    return have + 3 * k3 + 2 * k2 + min(ns - k3 - k2, f1)


@njit(cache=True)
def may_hold(h, spec):
    """Necessary condition for holding the contract (a cheap filter before the search)."""
    need = 3 * spec[M.C_GROUPS] + 4 * spec[M.C_RUNS]
    if top_sum(h, spec[M.C_RUNS], spec[M.C_GROUPS]) + h[JK] < need:
        return False
    return spec[F.CF_ALL] == 0 or spec[M.C_GROUPS] > 0 or all_in_windows(h)


@njit(cache=True)
def all_in_windows(h):
    """Every natural lies in some 4-window of its suit that the jokers can complete."""
    for c in range(52):
        if h[c] == 0:
            continue
        s = c // 13
        p = c % 13 + 1
        m = suit_positions(h, s, -1)
        ok = False
        for pos in (p, 14) if p == 1 else (p, p):
            for lo in range(max(1, pos - 3), min(pos, 11) + 1):
                if window_have(m, lo) + h[JK] >= 4:
                    ok = True
        if not ok:
            return False
    return True


@njit(cache=True)
def neighbours(h, c):
    """Closeness of c's suit-mates within 3 positions (the ace at both ends): 3 for an
    adjacent card, 2 at distance 2, 1 at distance 3."""
    r = c % 13
    m = suit_positions(h, c // 13, r)
    own = np.int64(1) << (r + 1)
    if r == 0:
        own |= np.int64(1) << 14
    n = 0
    for d in range(1, 4):
        n += (4 - d) * popcount(m & ((own << d) | (own >> d)))
    return n


@njit(cache=True)
def related(h, c, spec):
    """Card c shares a rank (set contracts) or lies within 3 positions of a suit-mate (run
    contracts) with the holding: otherwise it cannot lower the contract need."""
    if spec[M.C_GROUPS] > 0 and F.rank_total(h, c % 13) > 0:
        return True
    return spec[M.C_RUNS] > 0 and neighbours(h, c) > 0


@njit(cache=True)
def keep_score(h, c, spec):
    """How much card c helps towards the contract (higher = keep)."""
    if c == JK:
        return BIG
    sc = 0
    if spec[M.C_GROUPS] > 0:
        k = F.rank_total(h, c % 13)
        if k <= 3:                      # copies past a set's 3 are surplus (issue 15: all four
            sc += 3 * (k - 1)           # seats hoarded one rank each and the deal stalled)
    if spec[M.C_RUNS] > 0:
        sc += neighbours(h, c)
        if spec[M.C_GROUPS] == 0 and h[c] >= 2:
            sc -= 3                     # a second copy only helps an overlapping run
    return sc


@njit(cache=True)
def layable(tab, n, c, rules):
    for i in range(n):
        if F.can_lay(tab[i], c, rules):
            return True
    return False


# =============================================================================
# strategy hooks (§17)
# =============================================================================
@njit(cache=True)
def param(sid, prm, i):
    """Strategy parameter i (the row of the seat's strategy; random has none)."""
    return prm[i]


@njit(cache=True)
def noisy(sid, prm, gplay):
    """fuzz: this decision is random (probability ``noise``)."""
    return sid == S_FUZZ and uniform(gplay) < prm[P_NOISE]


@njit(cache=True)
def coin(gplay):
    return below(gplay, 2) == 1


@njit(cache=True)
def danger(st, opts, p, prm, sid, sc):
    """Cautious: an opponent who has melded holds at most ``danger`` cards, and seat p is
    still at least ``far`` cards short of its contract (once down it always is in danger)."""
    if sid != S_CAUTIOUS and sid != S_EXPERT:
        return False
    near = False
    for q in range(st[N]):
        if q != p and st[DOWN + q] and st[HSIZE + q] <= prm[P_DANGER]:
            near = True
    if not near or st[DOWN + p]:
        return near
    need = contract_need(hand_of(st, p), spec_of(opts, st[DEAL]), rules_of(opts), sc, sid == S_EXPERT)
    return need >= prm[P_FAR]


@njit(cache=True)
def wants_card(st, opts, tab, p, c, paid, sid, prm, gplay, sc):
    """choose_draw / respond (buy): does seat p want card c (``paid``: with a penalty card)?"""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return coin(gplay)
    if paid and ((prm[P_MAX] < UNLIMITED and st[MAYI + p] >= prm[P_MAX])
                 or danger(st, opts, p, prm, sid, sc)):
        return False
    rules = rules_of(opts)
    if st[DOWN + p]:
        return (not paid) and c != JK and layable(tab, st[NMELDS], c, rules)
    if c == JK:
        return True
    h = hand_of(st, p)
    spec = spec_of(opts, st[DEAL])
    if not related(h, c, spec):
        return False
    before = contract_need(h, spec, rules, sc, sid == S_EXPERT)
    h[c] += 1
    after = contract_need(h, spec, rules, sc, sid == S_EXPERT)
    h[c] -= 1
    if paid and spec[F.CF_ALL] and after > 0:
        return False                    # every card must go out: a penalty card is junk
    return after < before and after <= prm[P_NEAR]


@njit(cache=True)
def volunteers(st, opts, q, sid, prm, gplay):
    """respond_may_i (out_of_turn_discard): play out of turn? (``volunteer``, and only with
    a holding worth at least ``vol_points``)"""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return coin(gplay)
    if prm[P_VOL] < 0.5:
        return False
    return prm[P_VOL_PTS] <= 0 or F.hold_points(hand_of(st, q), rules_of(opts)) >= prm[P_VOL_PTS]


@njit(cache=True)
def yes(sid, prm, gplay):
    """A yes/no hook where every strategy but random (and fuzz's noise) says yes (meld, lay
    off, swap)."""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return coin(gplay)
    return True


@njit(cache=True)
def discard_ok(st, p, c, free):
    """§7.1 step 3: c is held and is not of the type of the card taken from the pile (a twin
    would re-discard the same card: the pass A9 forbids), unless the holding has no other
    card (``may_discard_taken_card``: TAKEN is never set); ``free``: any card (out-of-turn
    play); a kept swapped joker must go now."""
    if st[HAND + HOLD * p + c] <= 0:
        return False
    if st[JOKER_DUE] > 0 and not free:
        return c == JK
    if free or c != st[TAKEN]:
        return True
    return st[HAND + HOLD * p + c] == st[HSIZE + p]


@njit(cache=True)
def random_discard(st, p, free, gplay):
    n = 0
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            n += 1
    if n == 0:
        return -1
    i = below(gplay, n)
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            if i == 0:
                return c
            i -= 1
    return -1


@njit(cache=True)
def discard_key(st, tab, p, c, h, spec, rules, near):
    """Lower = discard first: contract help (or, once down, whether it can be laid off),
    then the highest points; ``near`` (cautious, an opponent close to out) weighs points
    more."""
    if c == JK:
        return BIG
    pts = rules[M.R_POINTS + c % 13]
    if st[DOWN + p]:
        return (1000 if layable(tab, st[NMELDS], c, rules) else 0) - pts
    k = keep_score(h, c, spec)
    if near:
        return 4 * k - pts
    return 64 * k - pts


@njit(cache=True)
def sheds(st, p, prm):
    """The expert sheds points (P_SHED): it is not down and a seat that has melded holds at
    most P_SHED cards (it may go out any turn). cautious's ``danger`` sheds only while far
    from its contract and still weighs what a card does for it."""
    if prm[P_SHED] <= 0 or st[DOWN + p]:
        return False
    for q in range(st[N]):
        if q != p and st[DOWN + q] and st[HSIZE + q] <= prm[P_SHED]:
            return True
    return False


@njit(cache=True)
def choose_discard(st, opts, tab, p, free, sid, prm, gplay, sc):
    """choose_discard / choose_oot_discard: the card to discard, -1 if none is legal."""
    if sid == S_RANDOM or noisy(sid, prm, gplay):
        return random_discard(st, p, free, gplay)
    best = -1
    bk = BIG + 1
    h, spec, rules = hand_of(st, p), spec_of(opts, st[DEAL]), rules_of(opts)
    if sid == S_EXPERT and not free and sheds(st, p, prm):
        pts = -1
        for c in range(JK):                     # the costliest natural (ties: the first)
            if discard_ok(st, p, c, free) and rules[M.R_POINTS + c % 13] > pts:
                best, pts = c, rules[M.R_POINTS + c % 13]
        if best >= 0:
            return best
    near = danger(st, opts, p, prm, sid, sc)
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            k = discard_key(st, tab, p, c, h, spec, rules, near)
            if k < bk:
                bk = k
                best = c
    return best


# =============================================================================
# plug-in seats (issue 17): the view, the question, the legal lists
# =============================================================================
@njit(cache=True, inline='always')
def base_of(sid):
    """The built-in strategy of a seat (a plug-in seat's base)."""
    return sid - PLUGIN if sid >= PLUGIN else sid


@njit(cache=True, inline='always')
def seat_sid(sids, params, q):
    """The built-in that makes seat q's undecided choices: its base, or a search seat's policy."""
    s = base_of(sids[q])
    return np.int64(params[q, SP_POLICY]) if s == S_SEARCH else s


@njit(cache=True, inline='always')
def seat_row(sids, params, q):
    """The parameter row of ``seat_sid`` (a search seat: its policy's row)."""
    return params[q][SP_PRM:] if base_of(sids[q]) == S_SEARCH else params[q][0:]


@njit(cache=True)
def fill_view(st, opts, tab, p, kind, card, meld, info, info2, view):
    """What seat p may see, into ``view`` (the V_* layout): its own hand, the table, the
    discard pile, the counts and scores, the decision's details; never another hand, a
    penalty card or the stock."""
    n = st[N]
    view[:] = 0
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_PLAYERS] = n
    view[V_DEAL] = st[DEAL]
    view[V_DEALER] = st[DEALER]
    view[V_CUR] = st[CUR]
    view[V_TURN] = st[TURN]
    view[V_STOCK] = st[STOCK_HI] - st[STOCK_LO]
    view[V_PILE_LEN] = st[PILE_LEN]
    view[V_TOP] = top_card(st) if st[PILE_LEN] > 0 else -1
    view[V_TAKEN] = st[TAKEN]
    view[V_MODEL] = opts[O_MAYI_MODEL]
    view[V_JOKER_DUE] = st[JOKER_DUE]
    view[V_XFER] = st[XFER]
    view[V_CARD] = card
    view[V_MELD] = meld
    view[V_INFO] = info
    view[V_INFO2] = info2
    spec = spec_of(opts, st[DEAL])
    view[V_C_SETS] = spec[M.C_GROUPS]
    view[V_C_RUNS] = spec[M.C_RUNS]
    view[V_C_EXACT] = spec[M.C_GROUP_EXACT]
    view[V_C_ALL] = spec[F.CF_ALL]
    view[V_NMELDS] = st[NMELDS]
    for q in range(n):
        view[V_HELD + q] = st[HSIZE + q]
        view[V_DOWN + q] = st[DOWN + q]
        view[V_MAYI + q] = st[MAYI + q]
        view[V_OOT + q] = st[OOT + q]
        view[V_TOTAL + q] = st[TOTAL + q]
    for c in range(HOLD):
        view[V_HAND + c] = st[HAND + HOLD * p + c]
    for i in range(st[PILE_LEN]):
        view[V_PILE + (st[PILE + i] & 63)] += 1
    for i in range(st[NMELDS]):
        for f in range(TW):
            view[V_TAB + TW * i + f] = tab[i, f]


@njit(cache=True, inline='always')
def critiquing(vb):
    """A critique's vb in record or script mode (never in the batch: its vb is VB_SIZE long)."""
    return vb.shape[0] > SNAP_SIZE and vb[CV_MODE] != 0


@njit(cache=True)
def pack_act(kind, code, card, meld, info):
    """A critique action code: the decision kind, the legal code, the card and meld asked about
    (-1: none) and bit 28 = V_INFO & 1 (out of turn; a swap into the meld)."""
    return kind + (code << 4) + ((card + 1) << 12) + ((meld + 1) << 20) + ((info & 1) << 28)


@njit(cache=True)
def seg_of(kind, info):
    """The turn segment (SEG_*) where a question of ``kind`` (V_INFO ``info``) is asked."""
    if kind == K_DRAW or kind == K_BUY or kind == K_VOLUNTEER:
        return SEG_DRAW
    if kind == K_DISCARD:
        return SEG_OOT if info else SEG_DISCARD
    return SEG_ACT


@njit(cache=True)
def crit_ask(st, tab, p, kind, n, card, meld, info, vb):
    """A question in a critique (legal codes at ``vb[VIEW_SIZE + MAX_LEGAL:]``): the one counted
    CV_STOP stops the turn (snapshot at SNAP, the deal stopped as by a plug-in's stop); in script
    mode the next scripted answer's index (-1 and CV_BAD when it fits no legal code); in record
    mode it is logged (seat, kind, legal codes; its segment's start kept if it is the first)
    and -1 returned: the seat answers as in the batch, ``note`` logs the answer."""
    legal = vb[VIEW_SIZE + MAX_LEGAL:VIEW_SIZE + MAX_LEGAL + n]
    j = vb[CV_STEP]
    if j == vb[CV_STOP]:
        snapshot(st, tab, n, vb)
        vb[CV_STOPPED] = 1
        vb[CV_MODE] = 0
        st[PERR] = 1
        st[DREASON] = D_STOPPED
        return -1
    vb[CV_STEP] = j + 1
    if vb[CV_MODE] == CM_SCRIPT:
        a = vb[CV_SCRIPT + j] if j < vb[CV_LEN] else -1
        if j + 1 >= vb[CV_LEN] and vb[CV_STOP] < 0:
            vb[CV_MODE] = 0
        if a >= 0 and (a & 15) == kind:
            for i in range(n):
                if legal[i] == (a >> 4) & 255:
                    return i
        vb[CV_BAD] += 1
        vb[CV_MODE] = 0
        return -1
    e = vb[CV_NLOG]
    if e < LOG_ROOM:
        r = CV_LOG + e * LG_W
        seg = seg_of(kind, info)
        vb[r + LG_SEAT] = p
        vb[r + LG_KIND] = kind
        vb[r + LG_N] = n
        vb[r + LG_CARD] = card
        vb[r + LG_MELD] = meld
        vb[r + LG_INFO] = info
        vb[r + LG_ANS] = PENDING
        vb[r + LG_SEG] = seg
        vb[r + LG_STEP] = j
        vb[r + LG_HELD] = st[HSIZE + p]
        vb[r + LG_CODES:r + LG_CODES + n] = legal
        vb[CV_NLOG] = e + 1
        if not (vb[CV_SEGS] >> seg) & 1:
            vb[CV_SEGS] |= 1 << seg
            keep_state(st, tab, vb[CV_SEG + seg * SEG_W:CV_SEG + (seg + 1) * SEG_W])
    return -1


@njit(cache=True)
def keep_state(st, tab, out):
    """A state and its table into ``out`` (SEG_W: a critique snapshot)."""
    out[:ST_SIZE] = st
    k = ST_SIZE
    for i in range(MAX_MELDS):
        for f in range(TW):
            out[k] = tab[i, f]
            k += 1


@njit(cache=True, inline='always')
def note(vb, kind, code):
    """Record mode: the answer ``code`` to the question of ``kind`` logged last (if it waits
    for one)."""
    if critiquing(vb) and vb[CV_MODE] == CM_RECORD:
        e = vb[CV_NLOG] - 1
        if e >= 0:
            r = CV_LOG + e * LG_W
            if vb[r + LG_KIND] == kind and vb[r + LG_ANS] == PENDING:
                vb[r + LG_ANS] = code


@njit(cache=True, inline='always')
def asks(st, p, kind, pprm):
    """Plug-in seat p is asked decisions of this kind (its mask), and no answer stopped the deal."""
    return st[PERR] == 0 and (int(pprm[p, PLUG_KINDS]) >> kind) & 1 == 1


@njit(cache=True)
def ask(st, opts, tab, p, kind, n, card, meld, info, info2, plug, pprm, vb):
    """Plug-in seat p's choice among the n legal codes the caller wrote at
    ``vb[VIEW_SIZE + MAX_LEGAL:]``: ``plug(view, legal, n, prm)`` on its view and a copy of
    them, for the kinds in its mask. Returns the index, or -1: the base built-in decides (a
    kind not asked, or the answer -1). Any other answer stops the deal (PERR, the deal
    over: E_PLUGIN) and returns -1, so the turn winds down legally. A critique's vb
    (``critiquing``: every seat is asked, plug-in or not) first logs the question, stops
    there, or answers it from its script (``crit_ask``)."""
    if critiquing(vb):
        i = crit_ask(st, tab, p, kind, n, card, meld, info, vb)
        if i >= 0:
            return i
    if not asks(st, p, kind, pprm):
        return -1
    view = vb[:VIEW_SIZE]
    fill_view(st, opts, tab, p, kind, card, meld, info, info2, view)
    legal = vb[VIEW_SIZE:VIEW_SIZE + n]
    legal[:] = vb[VIEW_SIZE + MAX_LEGAL:VIEW_SIZE + MAX_LEGAL + n]
    i = plug(view, legal, n, pprm[p])
    if i == -1 or 0 <= i < n:
        return i
    if vb.shape[0] >= SNAP_SIZE:
        snapshot(st, tab, n, vb)
    st[PERR] = 1
    st[DREASON] = D_STOPPED
    return -1


@njit(cache=True)
def snapshot(st, tab, n, vb):
    """Step mode: the legal count, the state and the table at the question that stops the turn."""
    vb[SNAP] = n
    vb[SNAP_ST:SNAP_TAB] = st
    k = SNAP_TAB
    for i in range(MAX_MELDS):
        for f in range(TW):
            vb[k] = tab[i, f]
            k += 1


@njit(cache=True)
def ask_yes(st, opts, tab, p, kind, card, meld, info, plug, pprm, vb):
    """A yes/no decision (legal 0 no, 1 yes): 1, 0, or -1 (the base decides). The legal
    buffer is left alone for a seat not asked (after a stop it holds the stopping question's)."""
    if not (asks(st, p, kind, pprm) or critiquing(vb)):
        return -1
    vb[VIEW_SIZE + MAX_LEGAL] = 0
    vb[VIEW_SIZE + MAX_LEGAL + 1] = 1
    return ask(st, opts, tab, p, kind, 2, card, meld, info, 0, plug, pprm, vb)


@njit(cache=True)
def plug_discard(st, opts, tab, p, free, plug, pprm, vb):
    """K_DISCARD: the card a plug-in seat discards, -1 (the base decides)."""
    if not (asks(st, p, K_DISCARD, pprm) or critiquing(vb)):
        return -1
    m = VIEW_SIZE + MAX_LEGAL
    n = 0
    for c in range(HOLD):
        if discard_ok(st, p, c, free):
            vb[m + n] = c
            n += 1
    if n == 0:
        return -1
    a = ask(st, opts, tab, p, K_DISCARD, n, -1, -1, 1 if free else 0, 0, plug, pprm, vb)
    return vb[m + a] if a >= 0 else -1


@njit(cache=True)
def plug_target(st, opts, tab, p, kind, c, meld, keep, on_table, plug, pprm, vb):
    """K_LAYOFF / K_JOKER: 0 keep (``keep``: allowed), 1 + t on meld t (``on_table``: the
    melds that take c); -1: the base decides (or no choice to ask about)."""
    if not (asks(st, p, kind, pprm) or critiquing(vb)):
        return -1
    m = VIEW_SIZE + MAX_LEGAL
    n = 0
    if keep:
        vb[m] = 0
        n = 1
    if on_table:
        rules = rules_of(opts)
        for t in range(st[NMELDS]):
            if F.can_lay(tab[t], c, rules):
                vb[m + n] = 1 + t
                n += 1
    if n == 0:
        return -1
    a = ask(st, opts, tab, p, kind, n, c, meld, 1 if keep else 0, 0, plug, pprm, vb)
    return vb[m + a] if a >= 0 else -1


@njit(cache=True)
def rows_len(rows, nm):
    k = 0
    for i in range(nm):
        k += F.row_len(rows[i])
    return k


@njit(cache=True)
def plug_meld(st, opts, tab, p, mo, plug, pprm, vb):
    """K_MELD (the engine's meld in mo): 0 not now, 1 the engine's meld, 2 the plain best
    meld (most natural points, fewest jokers) where the engine preferred a meld that goes
    out or leaves one card and the plain one is legal, 3 + c a meld of every card but one
    c (kept to discard: going out next); the meld chosen is left in mo. Returns the code, or
    -1 (the base decides)."""
    if not (asks(st, p, K_MELD, pprm) or critiquing(vb)):
        return -1
    spec, rules, h = spec_of(opts, st[DEAL]), rules_of(opts), hand_of(st, p)
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    held = st[HSIZE + p]
    left1 = held - rows_len(mo, nm)
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    left2 = -1
    if F.sep_solve_contract_ws(h, spec, rules, trial, False, mo[2 * F.MAX_CM + 2:]) >= 0:
        l2 = held - rows_len(trial, nm)
        same = True
        for k in range(nm):
            for f in range(M.M_SIZE):
                if trial[k, f] != mo[k, f]:
                    same = False
        if not same and (l2 > 0 or opts[O_GO_OUT_DISCARD] == 0 or special7(st, opts)):
            left2 = l2
    m = VIEW_SIZE + MAX_LEGAL
    vb[m] = 0
    vb[m + 1] = 1
    n = 2
    if left2 >= 0:
        vb[m + 2] = 2
        n = 3
    every = mo[2 * F.MAX_CM + 1, :F.CF_SIZE]
    every[:] = spec
    every[F.CF_ALL] = 1
    ws = mo[2 * F.MAX_CM + 2:]
    if not special7(st, opts) and held >= 2:
        for c in range(HOLD):
            if h[c] > 0:
                h[c] -= 1
                if F.sep_solve_contract_ws(h, every, rules, trial, True, ws) >= 0:
                    vb[m + n] = 3 + c
                    n += 1
                h[c] += 1
    a = ask(st, opts, tab, p, K_MELD, n, -1, -1, left1, left2, plug, pprm, vb)
    if a < 0:
        return -1
    code = vb[m + a]
    if code == 2:
        F.sep_solve_contract_ws(h, spec, rules, trial, False, ws)
        mo[:nm, :M.M_SIZE] = trial[:nm]
    elif code >= 3:
        h[code - 3] -= 1
        F.sep_solve_contract_ws(h, every, rules, trial, False, ws)
        h[code - 3] += 1
        mo[:nm, :M.M_SIZE] = trial[:nm]
    return code


@njit(cache=True)
def plug_meld_jokers(st, opts, tab, p, mo, nm, keep, plug, pprm, vb):
    """K_MELD_JOKERS: how many of the held jokers the meld takes (0..m, m what ``add_jokers``
    can place), -1: the base decides (or none to place)."""
    if not (asks(st, p, K_MELD_JOKERS, pprm) or critiquing(vb)):
        return -1
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    trial[:nm] = mo[:nm, :M.M_SIZE]
    held = st[HSIZE + p]
    k = add_jokers(trial, nm, hand_of(st, p), held, rules_of(opts), keep, BIG)
    if k == 0:
        return -1
    m = VIEW_SIZE + MAX_LEGAL
    for j in range(k + 1):
        vb[m + j] = j
    return ask(st, opts, tab, p, K_MELD_JOKERS, k + 1, -1, -1, held - rows_len(mo, nm), 0, plug, pprm, vb)


def no_plug(seats):
    """(plug, pprm, vb) of a table without a plug-in, for callers of ``play_turn`` and the
    phases outside a batch (tests)."""
    return no_plugin, plugin_params(None, seats, N_PLUG_PARAMS), np.zeros(VB_SIZE, np.int64)


# =============================================================================
# the May-I procedure (§7.2-7.4)
# =============================================================================
@njit(cache=True)
def may_take_paid(st, opts, p):
    """§7.3: seat p may obtain the top discard with a penalty card."""
    lim = opts[O_MAYI_LIMIT]
    if lim >= 0 and st[MAYI + p] >= lim:
        return False
    return not (opts[O_NO_CONSEC] and st[LASTK + p] == top_k(st) - 1)


@njit(cache=True)
def penalty_card(st, opts, p, gplay, trace):
    """The penalty card of a May-I; False when the stock is dead."""
    c = stock_card(st, opts, gplay, trace)
    if c < 0:
        return False
    give(st, p, c)
    st[MAYI + p] += 1
    st[PCARDS + p] += 1
    log(st, trace, T_PENALTY, p, c, 0, 0, sizes(st, p))
    return True


@njit(cache=True)
def take_top(st, opts, p, code, trace):
    """Seat p takes the top discard (``code``: T_TAKE, or T_BUY for a buyer)."""
    k = top_k(st)
    c = pile_pop(st)
    give(st, p, c)
    st[KNOWN + HOLD * p + c] += 1
    st[TAKEN] = -1 if opts[O_TAKEN_DISCARD] or code == T_BUY else c
    log(st, trace, code, p, c, 0, 0, sizes(st, p))
    return k


@njit(cache=True)
def offer_oot(st, opts, tab, p, sids, params, gplay, trace, plug, pprm, vb):
    """Ask next(P) .. prev(P) in order whether to discard out of turn: the first is Q (none
    in deal 7 under deal7_discard_mode = never)."""
    if opts[O_D7_NO_DISCARD] and st[DEAL] == 7:
        return -1
    n = st[N]
    for i in range(1, n):
        q = (p + i) % n
        if opts[O_COOLDOWN] and st[COOL + q] != 0:
            continue
        a = ask_yes(st, opts, tab, q, K_VOLUNTEER, top_card(st), -1, 0, plug, pprm, vb) \
            if sids[q] >= PLUGIN or critiquing(vb) else -1
        v = volunteers(st, opts, q, seat_sid(sids, params, q), seat_row(sids, params, q), gplay) if a < 0 else a == 1
        note(vb, K_VOLUNTEER, 1 if v else 0)
        if v:
            log(st, trace, T_VOLUNTEER, q, 0, 0, 0, sizes(st, q))
            return q
    return -1


@njit(cache=True)
def offer_buy(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
    """model buy: before P draws, the others (not the discarder) may buy the top discard."""
    if st[PILE_LEN] == 0:
        return True
    n = st[N]
    c = top_card(st)
    for i in range(1, n):
        b = (p + i) % n
        if b == st[TOP_FROM] or not may_take_paid(st, opts, b):
            continue
        a = ask_yes(st, opts, tab, b, K_BUY, c, -1, 1, plug, pprm, vb) if sids[b] >= PLUGIN or critiquing(vb) else -1
        w = wants_card(st, opts, tab, b, c, True, seat_sid(sids, params, b), seat_row(sids, params, b), gplay, sc) \
            if a < 0 else a == 1
        note(vb, K_BUY, 1 if w else 0)
        if w:
            k = take_top(st, opts, b, T_BUY, trace)
            st[LASTK + b] = k
            return penalty_card(st, opts, b, gplay, trace)
    return True


@njit(cache=True)
def draw_oot_model(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Step 1 under out_of_turn_discard; returns Q (-1 none) or -2 if the deal ended."""
    if st[PILE_LEN] > 0 and may_take_paid(st, opts, p) and \
            want_top(st, opts, tab, p, True, sids, params, gplay, sc, plug, pprm, vb):
        q = offer_oot(st, opts, tab, p, sids, params, gplay, trace, plug, pprm, vb)
        k = take_top(st, opts, p, T_TAKE, trace)
        if opts[O_PENALTY] == 0 or q >= 0:
            st[LASTK + p] = k
            if not penalty_card(st, opts, p, gplay, trace):
                return -2
        return q
    return -1 if draw(st, opts, p, gplay, trace) else -2


@njit(cache=True)
def want_top(st, opts, tab, p, paid, sids, params, gplay, sc, plug, pprm, vb):
    """choose_draw: the turn player takes the top discard (K_DRAW for a plug-in seat; the
    answer a search forced on the hook, F_KIND, first)."""
    forced = st[F_KIND] == K_DRAW + 1 and st[F_SEAT] == p
    a = -1
    if sids[p] >= PLUGIN or critiquing(vb):
        info = 0 if not paid else (1 if opts[O_PENALTY] == 0 else 2)
        a = ask_yes(st, opts, tab, p, K_DRAW, top_card(st), -1, info, plug, pprm, vb)
    if forced:
        st[F_KIND] = 0
        w = st[F_VAL] == 1
    elif a >= 0:
        w = a == 1
    else:
        w = wants_card(st, opts, tab, p, top_card(st), paid, seat_sid(sids, params, p), seat_row(sids, params, p),
                       gplay, sc)
    note(vb, K_DRAW, 1 if w else 0)
    return w


@njit(cache=True)
def draw_phase(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Step 1 (§7.1): returns Q of an out-of-turn play (-1 none), -2 if the deal ended."""
    model = opts[O_MAYI_MODEL]
    if model == MODEL_OOT:
        return draw_oot_model(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb)
    if st[PILE_LEN] > 0 and want_top(st, opts, tab, p, False, sids, params, gplay, sc, plug, pprm, vb):
        take_top(st, opts, p, T_TAKE, trace)
        return -1
    if model == MODEL_BUY and not offer_buy(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb):
        return -2
    return -1 if draw(st, opts, p, gplay, trace) else -2


@njit(cache=True)
def oot_play(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Q draws from the stock and discards any card (§7.2 step 4)."""
    c = stock_card(st, opts, gplay, trace)
    if c < 0:
        return
    give(st, q, c)
    log(st, trace, T_OOT, q, c, 0, 0, sizes(st, q))
    oot_discard(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb)


@njit(cache=True)
def oot_discard(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb):
    """Q's out-of-turn discard (any card; its draw done)."""
    x = plug_discard(st, opts, tab, q, True, plug, pprm, vb) if sids[q] >= PLUGIN or critiquing(vb) else -1
    if x < 0:
        x = choose_discard(st, opts, tab, q, True, seat_sid(sids, params, q), seat_row(sids, params, q), gplay, sc)
    note(vb, K_DISCARD, x)
    discard(st, q, x, 1, trace)
    st[OOT + q] += 1
    if opts[O_COOLDOWN]:
        st[COOL + q] = ((1 << st[N]) - 1) & ~(1 << q)


# =============================================================================
# melding, swaps, lay-offs (§8, §10, §11)
# =============================================================================
@njit(cache=True)
def best_meld(st, opts, p, mo):
    """The contract meld seat p would lay (rows in mo), or -1 (none / not allowed)."""
    h = hand_of(st, p)
    spec = spec_of(opts, st[DEAL])
    rules = rules_of(opts)
    if not may_hold(h, spec):
        return -1
    out = mo[:F.MAX_CM, :M.M_SIZE]
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    rest = mo[2 * F.MAX_CM]
    every = mo[2 * F.MAX_CM + 1, :F.CF_SIZE]
    ws = mo[2 * F.MAX_CM + 2:]
    v = F.sep_solve_contract_ws(h, spec, rules, out, False, ws)
    if v < 0:
        return -1
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    rest[:] = h
    F.rows_cards(out, nm, rest)
    left = rest.sum()
    every[:] = spec                         # larger first melds: a meld that goes out
    every[F.CF_ALL] = 1
    if opts[O_GO_OUT_DISCARD] and not special7(st, opts):
        if left == 0 or (spec[M.C_GROUP_EXACT] == 0 and spec[F.CF_ALL] == 0 and 2 <= left <= 5):
            w = all_but_one(h, spec, every, rules, out, trial, ws, nm, left == 0)
            if w >= 0 or left == 0:
                return w
        return v
    if spec[M.C_GROUP_EXACT] == 0 and spec[F.CF_ALL] == 0 and 2 <= left <= 4 and \
            F.sep_solve_contract_ws(h, every, rules, trial, False, ws) >= 0:
        out[:nm] = trial[:nm]
    return v


@njit(cache=True)
def all_but_one(h, spec, every, rules, out, trial, ws, nm, fallback):
    """go_out_requires_discard (A10): the meld of every card but one (the player goes out on
    the discard), the one left chosen for the best meld value; ``fallback`` (the best meld
    took every card): else the best meld that leaves at least one card. Rows into ``out``;
    returns the meld value or -1."""
    for pass_spec in range(2):
        sp = every if pass_spec == 0 else spec
        best = -1
        bc = -1
        for c in range(HOLD):
            if h[c] > 0:
                h[c] -= 1
                w = F.sep_solve_contract_ws(h, sp, rules, trial, pass_spec == 0, ws)
                h[c] += 1
                if w > best:
                    best = w
                    bc = c
        if bc >= 0:
            h[bc] -= 1
            F.sep_solve_contract_ws(h, sp, rules, trial, pass_spec == 0, ws)
            h[bc] += 1
            out[:nm] = trial[:nm]
            return best
        if not fallback:
            return -1
    return -1


@njit(cache=True)
def leftover_fit(tab, n, rows, nm, h, rest, rules):
    """Cards of holding h left after laying the melds ``rows`` that fit one of them or a table
    meld (tab[:n]): the cards a seat down can lay off (``rest``: scratch)."""
    rest[:HOLD] = h
    F.rows_cards(rows, nm, rest)
    f = 0
    for x in range(HOLD):
        if rest[x] > 0:
            ok = False
            for k in range(nm):
                if not ok and F.can_lay(rows[k], x, rules):
                    ok = True
            for j in range(n):
                if not ok and F.can_lay(tab[j], x, rules):
                    ok = True
            if ok:
                f += rest[x]
    return f


@njit(cache=True)
def flexible_meld(st, opts, tab, p, mo):
    """Meld choice ``meld_pick = 1`` (§17 "which meld"; exact contracts): of the engine's meld
    (in mo) and, for each card type held, the best meld without one copy of it, the meld after
    which most of the cards left can be laid off (onto the table or the new melds), the
    engine's on a tie. Rows into mo."""
    spec, rules, h = spec_of(opts, st[DEAL]), rules_of(opts), hand_of(st, p)
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    trial = mo[F.MAX_CM:2 * F.MAX_CM, :M.M_SIZE]
    rest = mo[2 * F.MAX_CM]
    ws = mo[2 * F.MAX_CM + 2:]
    n = st[NMELDS]
    best = leftover_fit(tab, n, mo[:nm, :M.M_SIZE], nm, h, rest, rules)
    pick = -1
    for c in range(HOLD):
        if h[c] > 0:
            h[c] -= 1
            v = F.sep_solve_contract_ws(h, spec, rules, trial, False, ws)
            h[c] += 1
            if v >= 0:
                f = leftover_fit(tab, n, trial, nm, h, rest, rules)
                if f > best:
                    best, pick = f, c
    if pick >= 0:
        h[pick] -= 1
        F.sep_solve_contract_ws(h, spec, rules, trial, False, ws)
        h[pick] += 1
        mo[:nm, :M.M_SIZE] = trial[:nm]


@njit(cache=True)
def lay_meld(st, opts, tab, p, mo, trace):
    """Put the contract meld rows on the table and take their cards from the hand."""
    spec = spec_of(opts, st[DEAL])
    n = spec[M.C_GROUPS] + spec[M.C_RUNS]
    h = hand_of(st, p)
    before = st[HSIZE + p]
    was = h.copy()
    F.rows_cards(mo, n, h)
    for c in range(HOLD):
        st[KNOWN + HOLD * p + c] = max(0, st[KNOWN + HOLD * p + c] - (was[c] - h[c]))
    after = 0
    for c in range(HOLD):
        after += h[c]
    st[HSIZE + p] = after
    st[LOSS + p] += before - after
    for k in range(n):
        i = st[NMELDS]
        tab[i, :M.M_SIZE] = mo[k, :M.M_SIZE]
        tab[i, M.M_FLAGS] = F.F_DEAD if opts[O_SWAP] == 0 else 0
        tab[i, T_OWNER] = p
        tab[i, T_TURN] = st[TURN]
        st[NMELDS] = i + 1
        log(st, trace, T_MELD, p, i, pack_row(tab[i]), tab[i, M.M_P1], sizes(st, p))
    st[DOWN + p] = 1
    st[MELD_TURN + p] = st[PTURN + p]


@njit(cache=True)
def meld_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
    """choose_meld: lay the contract (deal 7 special: only all cards, going out). With
    ``joker_swap_requires_prior_meld = false`` a player who cannot meld may first swap a
    natural for a table joker that completes his meld (``swap_into_meld``). With larger
    first melds (MAY_I) and ``meld_jokers`` every joker held goes into the meld. A plug-in
    seat is asked K_MELD (which meld, or none) and K_MELD_JOKERS; a swap into the meld is its
    K_SWAP (V_INFO 1)."""
    if best_meld(st, opts, p, mo) < 0:
        if opts[O_SWAP] == 0 or opts[O_SWAP_PRIOR] == 1:
            return
        if not swap_into_meld(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
            return
    else:
        a = plug_meld(st, opts, tab, p, mo, plug, pprm, vb) if pl or critiquing(vb) else -1
        if a == 0 or (a < 0 and not yes(sid, prm, gplay)):
            note(vb, K_MELD, 0)
            return
        note(vb, K_MELD, a if a > 0 else 1)
        if a < 0 and sid != S_RANDOM and prm[P_MELD] > 0.5 and spec_of(opts, st[DEAL])[M.C_GROUP_EXACT] != 0 \
                and not special7(st, opts):
            flexible_meld(st, opts, tab, p, mo)       # meld_pick = 1 (exact contracts)
    spec = spec_of(opts, st[DEAL])
    if spec[M.C_GROUP_EXACT] == 0 and spec[F.CF_ALL] == 0:
        keep = 1 if opts[O_GO_OUT_DISCARD] else 0
        nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
        j = plug_meld_jokers(st, opts, tab, p, mo, nm, keep, plug, pprm, vb) if pl or critiquing(vb) else -1
        if j < 0 and sid != S_RANDOM and prm[P_MELD_JK] > 0.5:
            j = BIG
        added = 0
        if j > 0:
            added = add_jokers(mo, nm, hand_of(st, p), st[HSIZE + p], rules_of(opts), keep, j)
        note(vb, K_MELD_JOKERS, added)
    lay_meld(st, opts, tab, p, mo, trace)
    if st[HSIZE + p] == 0:
        end_deal(st, D_OUT, p)


@njit(cache=True)
def add_jokers(mo, nm, h, held, rules, keep, limit):
    """Larger first melds (MAY_I): the jokers the meld rows mo[:nm] leave in the holding h
    (``held`` cards) go into the meld (at most ``limit``), each on a run where it fits (it
    floats: the run then takes cards two places off its ends), else on a set; at least
    ``keep`` cards stay held. Under forbid_contiguous_runs only sets take them (a longer run
    might touch another). Returns the jokers added."""
    used = 0
    for k in range(nm):
        used += F.row_len(mo[k])
    extra = h[JK] - meld_jokers(mo, nm)
    added = 0
    while extra > 0 and held - used > keep and added < limit:
        t = -1
        for k in range(nm):
            if t < 0 and mo[k, M.M_KIND] == M.MK_RUN and rules[F.RF_NO_TOUCH] == 0 and F.can_lay(mo[k], JK, rules):
                t = k
        for k in range(nm):
            if t < 0 and mo[k, M.M_KIND] == M.MK_GROUP:
                t = k
        if t < 0:
            return added
        F.lay(mo[t], JK)
        used += 1
        extra -= 1
        added += 1
    return added


@njit(cache=True)
def meld_jokers(mo, n):
    j = 0
    for k in range(n):
        j += mo[k, M.M_JOKERS]
    return j


@njit(cache=True)
def swap_into_meld(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
    """A swap on the meld turn, before the meld: the natural goes into a table run and the
    freed joker into the contract meld laid next (it is used this turn, §11, and not laid
    off, §8). Tried only when the player cannot meld without it; the first (run, natural)
    in table and card order that makes a meld laying a joker; rows left in ``mo``."""
    rules = rules_of(opts)
    spec = spec_of(opts, st[DEAL])
    nm = spec[M.C_GROUPS] + spec[M.C_RUNS]
    h = hand_of(st, p)
    for i in range(st[NMELDS]):
        for c in range(52):
            if h[c] > 0 and F.can_swap(tab[i], c, rules):
                h[c] -= 1
                h[JK] += 1
                ok = best_meld(st, opts, p, mo) >= 0 and meld_jokers(mo, nm) >= 1
                h[c] += 1
                h[JK] -= 1
                a = ask_yes(st, opts, tab, p, K_SWAP, c, i, 1, plug, pprm, vb) if ok and (pl or critiquing(vb)) else -1
                y = ok and (yes(sid, prm, gplay) if a < 0 else a == 1)
                if ok:
                    note(vb, K_SWAP, 1 if y else 0)
                if y:
                    F.swap(tab[i], c)
                    take(st, p, c)
                    give(st, p, JK)
                    st[KNOWN + HOLD * p + JK] += 1
                    log(st, trace, T_SWAP, p, c, i, swap_info(window(tab[i]), tab, SWAP_MELD), sizes(st, p))
                    return True
    return False


@njit(cache=True)
def swap_info(wrun, tab, t):
    """Trace column c of a swap: joker target + 2, the run's window after the swap ``wrun``,
    the target's window after the joker is laid on it."""
    info = (t + 2) + (wrun << 8)
    if t >= 0:
        info += window(tab[t]) << 24
    return info


@njit(cache=True)
def fit_count(tab, n, i, row, h, rules):
    """Held card types (h) that fit some meld when meld i is ``row``."""
    f = 0
    for x in range(HOLD):
        if h[x] > 0:
            ok = F.can_lay(row, x, rules)
            for j in range(n):
                if not ok and j != i and F.can_lay(tab[j], x, rules):
                    ok = True
            f += ok
    return f


@njit(cache=True)
def place_target(tab, n, c, h, rules, mode):
    """choose_layoff's target for card c (JK: a joker), h the holding without it; -1 if no
    meld takes it. ``mode`` (params layoff_target / joker_target): 0 the first meld in table
    order; else the meld after which most held card types fit some meld (the first of
    those), a joker without such a gain: mode 1 on a set (dead, nobody reuses it), mode 2 on
    a run (it floats), else the first meld."""
    first = -1
    cands = 0
    runs = 0
    for i in range(n):
        if F.can_lay(tab[i], c, rules):
            cands += 1
            runs += tab[i, M.M_KIND] == M.MK_RUN
            if first < 0:
                first = i
    if mode == 0 or cands == 0 or (c != JK and (cands == 1 or runs == 0)):
        return first                    # a natural on sets of its rank: every choice is alike
    row = np.zeros(M.M_SIZE, np.int64)
    best = -1
    bf = -1
    for i in range(n):
        if F.can_lay(tab[i], c, rules):
            row[:] = tab[i, :M.M_SIZE]
            F.lay(row, c)
            f = fit_count(tab, n, i, row, h, rules)
            if f > bf:
                bf = f
                best = i
    if c != JK:
        return best
    row[:] = tab[0, :M.M_SIZE]
    if n > 0 and bf > fit_count(tab, n, 0, row, h, rules):
        return best                     # the joker lets a held card follow
    want = M.MK_GROUP if mode == JT_HELP else M.MK_RUN
    for i in range(n):
        if tab[i, M.M_KIND] == want and F.can_lay(tab[i], c, rules):
            return i
    return first


@njit(cache=True)
def unswap(row, c, lo, hi):
    """Undo ``melds_float.swap(row, c)`` (the run's window was lo..hi)."""
    if c % 13 == 0:
        row[M.M_P2] -= 1
    else:
        row[M.M_P1] &= ~F.card_pos(c)
    row[M.M_JOKERS] += 1
    row[M.M_LO] = lo
    row[M.M_HI] = hi


@njit(cache=True)
def swap_phase(st, opts, tab, p, sid, prm, gplay, trace, table_ok, pl, plug, pprm, vb):
    """choose_joker_swap, repeated: natural from hand into a run, freed joker laid off where
    ``joker_target`` says (``table_ok``: not on the meld turn, where lay-offs are barred, §8:
    there the joker can only be kept for the discard, with ``swapped_joker_may_be_discarded``).
    A swap may lay the last card (going out) unless go_out_requires_discard. Returns the
    swaps made."""
    rules = rules_of(opts)
    h = hand_of(st, p)
    jmode = 0 if sid == S_RANDOM else int(prm[P_JOKER])
    last = table_ok and opts[O_GO_OUT_DISCARD] == 0
    done = 0
    for i in range(st[NMELDS]):
        if tab[i, M.M_KIND] != M.MK_RUN or tab[i, M.M_JOKERS] == 0:
            continue                    # only a run's jokers are swapped, by its suit's cards
        s = tab[i, M.M_KEY]
        for c in range(13 * s, 13 * s + 13):
            while h[c] > 0 and F.can_swap(tab[i], c, rules) and (st[HSIZE + p] > 1 or last):
                a = ask_yes(st, opts, tab, p, K_SWAP, c, i, 0, plug, pprm, vb) if pl or critiquing(vb) else -1
                y = yes(sid, prm, gplay) if a < 0 else a == 1
                note(vb, K_SWAP, 1 if y else 0)
                if not y:
                    break
                lo, hi = tab[i, M.M_LO], tab[i, M.M_HI]
                F.swap(tab[i], c)
                wrun = window(tab[i])
                h[c] -= 1
                t = place_target(tab, st[NMELDS], JK, h, rules, jmode) if table_ok else -1
                h[c] += 1
                keep = opts[O_SWAP_DISCARD] == 1 and st[XFER] == 0
                if t < 0 and not keep:
                    unswap(tab[i], c, lo, hi)
                    break
                take(st, p, c)
                j = plug_target(st, opts, tab, p, K_JOKER, JK, i, keep, table_ok, plug, pprm, vb) \
                    if pl or critiquing(vb) else -1
                if j > 0:
                    t = j - 1
                if j == 0 or (j < 0 and keep and (t < 0 or sid == S_RANDOM and below(gplay, 2) == 1)):
                    give(st, p, JK)
                    st[KNOWN + HOLD * p + JK] += 1
                    st[JOKER_DUE] += 1
                    t = SWAP_KEPT
                else:
                    F.lay(tab[t], JK)
                note(vb, K_JOKER, 0 if t == SWAP_KEPT else 1 + t)
                log(st, trace, T_SWAP, p, c, i, swap_info(wrun, tab, t), sizes(st, p))
                done += 1
    return done


@njit(cache=True)
def unstale(stale, row, rules):
    """The stale card types (bit mask) less those the changed meld ``row`` now takes: only
    they can fit after the lay (every other meld is as it was when they did not fit)."""
    m = stale
    while m:
        x = lowbit(m)
        m &= m - 1
        if F.can_lay(row, x, rules):
            stale &= ~(np.int64(1) << x)
    return stale


@njit(cache=True)
def layoff_phase(st, opts, tab, p, sid, prm, gplay, trace, pl, plug, pprm, vb):
    """choose_layoff, repeated to a fixed point: passes over the held cards (naturals, then
    jokers) until a pass lays nothing, so a card that fits only after another (``3S`` after
    ``4S`` on ``5S-8S``) goes too; targets as ``layoff_target`` / ``joker_target`` say. A card
    type that fitted no meld is not tried again until a lay changes a meld that takes it."""
    rules = rules_of(opts)
    keep = 1 if opts[O_GO_OUT_DISCARD] else 0
    h = hand_of(st, p)
    lmode = 0 if sid == S_RANDOM else int(prm[P_LAYOFF])
    jmode = 0 if sid == S_RANDOM else int(prm[P_JOKER])
    stale = np.int64(0)             # card types no meld takes (until a lay changes a meld)
    more = True
    while more:
        more = False
        for c in range(HOLD):
            if (c == JK and st[JOKER_DUE] > 0) or (stale >> c) & 1:
                continue
            while h[c] > 0 and st[HSIZE + p] > keep:
                h[c] -= 1
                t = place_target(tab, st[NMELDS], c, h, rules, jmode if c == JK else lmode)
                h[c] += 1
                if t < 0:
                    stale |= np.int64(1) << c
                j = plug_target(st, opts, tab, p, K_LAYOFF, c, -1, True, True, plug, pprm, vb) \
                    if (pl or critiquing(vb)) and t >= 0 else -1
                if j > 0:
                    t = j - 1
                go = j > 0 or (j < 0 and t >= 0 and yes(sid, prm, gplay))
                if t >= 0:
                    note(vb, K_LAYOFF, 1 + t if go else 0)
                if not go:
                    break
                F.lay(tab[t], c)
                take(st, p, c)
                log(st, trace, T_LAYOFF, p, c, t, window(tab[t]), sizes(st, p))
                stale = unstale(stale, tab[t], rules)
                more = True
    if st[HSIZE + p] == 0:
        end_deal(st, D_OUT, p)


@njit(cache=True)
def act_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb):
    """Step 2: meld if not down; after an earlier turn's meld: swaps and lay-offs, repeated
    while they shed cards (a swap can open a lay-off and a lay-off a swap)."""
    if not st[DOWN + p]:
        meld_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb)
        if over(st) or not st[DOWN + p]:
            return
    earlier = st[PTURN + p] > st[MELD_TURN + p]
    swaps = opts[O_SWAP] == 1 and (earlier or opts[O_SWAP_PRIOR] == 0) and \
        (sid == S_RANDOM or prm[P_SWAP] > 0.5)
    sure = not pl and sid != S_RANDOM and sid != S_FUZZ     # lay-off answers are always yes
    for k in range(HOLD):
        before = st[HSIZE + p]
        done = swap_phase(st, opts, tab, p, sid, prm, gplay, trace, earlier, pl, plug, pprm, vb) if swaps else 0
        if not earlier or (k > 0 and done == 0 and sure):
            return                      # (no swap: the table is as the last lay-off pass left it)
        layoff_phase(st, opts, tab, p, sid, prm, gplay, trace, pl, plug, pprm, vb)
        if over(st) or st[HSIZE + p] == before or not swaps:
            return


# =============================================================================
# turns and deals
# =============================================================================
@njit(cache=True)
def begin_turn(st, p):
    st[TURN] += 1
    st[PTURN + p] += 1
    st[TAKEN] = -1
    st[JOKER_DUE] = 0
    for q in range(st[N]):
        st[COOL + q] &= ~(1 << p)


@njit(cache=True)
def discard_phase(st, opts, tab, p, sid, prm, gplay, trace, sc, pl, plug, pprm, vb):
    """Step 3: one discard (none in deal 7 under deal7_discard_mode = never)."""
    if opts[O_D7_NO_DISCARD] and st[DEAL] == 7:
        return 0
    c = -1
    if st[F_KIND] == K_DISCARD + 1 and st[F_SEAT] == p:
        if critiquing(vb):
            plug_discard(st, opts, tab, p, False, plug, pprm, vb)      # the question, logged
        st[F_KIND] = 0
        c = st[F_VAL]
    elif pl or critiquing(vb):
        c = plug_discard(st, opts, tab, p, False, plug, pprm, vb)
    if c < 0:
        c = choose_discard(st, opts, tab, p, False, sid, prm, gplay, sc)
    note(vb, K_DISCARD, c)
    if c < 0:
        return E_NO_MOVES
    discard(st, p, c, 0, trace)
    if st[HSIZE + p] == 0:
        end_deal(st, D_OUT, p)
    return 0


@njit(cache=True, inline='always')
def play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch):
    """One normal turn of CUR and any out-of-turn play it causes; returns a check error.
    Seats with sid >= PLUGIN ask ``plug`` first (their row of ``pprm``; ``vb``: the view and
    legal buffer, VB_SIZE). A search seat (S_SEARCH) searches its draw and its discard (the
    kinds of its row; ``srch``: ``search_force`` as SEARCH_SIG) and forces the answer on the
    hook; its policy makes the rest."""
    p = st[CUR]
    pl = sids[p] >= PLUGIN
    sid = seat_sid(sids, params, p)
    prm = seat_row(sids, params, p)
    searching = sids[p] == S_SEARCH
    begin_turn(st, p)
    if searching and int(params[p, SX_KINDS]) & SX_DRAW and draw_asked(st, opts, p):
        srch(st, opts, tab, p, K_DRAW, params[p], gplay, plug, pprm, vb)
    q = draw_phase(st, opts, tab, p, sids, params, gplay, trace, sc, plug, pprm, vb)
    if q == -2 or over(st):
        return 0
    st[XFER] = 1 if q >= 0 else 0
    act_phase(st, opts, tab, p, sid, prm, gplay, mo, trace, pl, plug, pprm, vb)
    if over(st):
        return 0
    if searching and q < 0 and int(params[p, SX_KINDS]) & SX_DISCARD and not (opts[O_D7_NO_DISCARD] and
                                                                               st[DEAL] == 7):
        srch(st, opts, tab, p, K_DISCARD, params[p], gplay, plug, pprm, vb)
    return end_turn(st, opts, tab, sids, params, gplay, trace, sc, p, q, plug, pprm, vb)


@njit(cache=True, inline='always')
def end_turn(st, opts, tab, sids, params, gplay, trace, sc, p, q, plug, pprm, vb):
    """The turn after step 2: the discard (none when Q plays out of turn), Q's out-of-turn
    play, the next turn player."""
    if q < 0:
        e = discard_phase(st, opts, tab, p, seat_sid(sids, params, p), seat_row(sids, params, p), gplay, trace, sc,
                          sids[p] >= PLUGIN, plug, pprm, vb)
        if e or over(st):
            return e
    elif st[JOKER_DUE] > 0:
        return E_ILLEGAL
    if q >= 0:
        oot_play(st, opts, tab, q, sids, params, gplay, trace, sc, plug, pprm, vb)
    st[CUR] = (p + 1) % st[N]
    return 0


# =============================================================================
# step mode (issue 20): a turn replayed from its start on a script of answers
# =============================================================================
@njit(cache=True)
def step_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch):
    """The step API's turn (``sim.games.contract_rummy.step``): ``play_turn`` with every seat a
    plug-in answering from its script (``step_plugin``), the stock drawn from the feed (XSTEP).
    It runs until the turn ends, a question no answer is scripted for (the snapshot in ``vb``)
    or a draw the feed has no card for (XNEED)."""
    return play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch)


@njit(cache=True)
def question_key(kind, card, meld):
    """A question's identity in a script: its kind, card and meld."""
    return kind + ((card + 1) << 4) + ((meld + 1) << 11)


@njit(cache=True)
def passive(legal, n):
    """The index of the code 0 (no, not now, keep), else the first."""
    for i in range(n):
        if legal[i] == 0:
            return i
    return 0


def _step_answer(view, legal, n, prm):
    """The script's answer (its index in ``legal``) to the question in ``view``; -2 (no index:
    the turn stops there) when the seat's script has none (or names another question in exact
    mode). A resampled world (SS_MODE) answers a question its script does not name passively."""
    key = question_key(view[V_KIND], view[V_CARD], view[V_MELD])
    pos = int(prm[SS_POS])
    m = int(prm[SS_LEN])
    mode = int(prm[SS_MODE])
    j = pos
    while j < m:
        if int(prm[SS_ANS + 2 * j]) == key:
            code = prm[SS_ANS + 2 * j + 1]
            for i in range(n):
                if legal[i] == code:
                    prm[SS_POS] = j + 1
                    return i
            return -2
        if mode == 0:
            return -2
        j += 1
    if mode == 0 or (pos >= m and mode == 1):
        return -2
    return passive(legal, n)


step_plugin = lazy_cfunc(PLUG_SIG, _step_answer)


# =============================================================================
# search (issue 19): determinized Monte Carlo over the draw and the discard
# =============================================================================
@njit(cache=True)
def draw_asked(st, opts, p):
    """choose_draw is asked of the turn player p (want_top is reached)."""
    if st[PILE_LEN] == 0:
        return False
    return opts[O_MAYI_MODEL] != MODEL_OOT or may_take_paid(st, opts, p)


@njit(cache=True)
def determinize(st, opts, tab, p, gen, cards):
    """Deal again, in ``st``, what seat ``p`` cannot see: every other hand (the cards it is
    publicly known to hold, ``KNOWN``, stay in it; the rest drawn at random) and the stock's
    order, from the cards ``p`` has not seen. Reads only what ``p`` may see: its own hand, the
    pile, the table, hand sizes, the stock's size and KNOWN. False if the counts disagree
    (never: tests)."""
    n = st[N]
    cnt = np.zeros(HOLD, np.int64)
    for c in range(52):
        cnt[c] = opts[O_DECKS]
    cnt[JK] = opts[O_JOKERS]
    seen = np.zeros(HOLD, np.int64)
    table_counts(tab, st[NMELDS], seen)
    for i in range(st[PILE_LEN]):
        seen[st[PILE + i] & 63] += 1
    for c in range(HOLD):
        seen[c] += st[HAND + HOLD * p + c]
        for q in range(n):
            if q != p:
                seen[c] += st[KNOWN + HOLD * q + c]
    m = 0
    for c in range(HOLD):
        for _ in range(cnt[c] - seen[c]):
            cards[m] = c
            m += 1
    need = st[STOCK_HI] - st[STOCK_LO]
    for q in range(n):
        if q != p:
            need += st[HSIZE + q] - st[KNOWN + HOLD * q:KNOWN + HOLD * (q + 1)].sum()
    if need != m:
        return False
    shuffle_prefix(cards, m, gen)
    k = 0
    for q in range(n):
        if q != p:
            for c in range(HOLD):
                st[HAND + HOLD * q + c] = st[KNOWN + HOLD * q + c]
            for _ in range(st[HSIZE + q] - st[KNOWN + HOLD * q:KNOWN + HOLD * (q + 1)].sum()):
                st[HAND + HOLD * q + cards[k]] += 1
                k += 1
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        st[STOCK + i] = cards[k]
        k += 1
    return True


@njit(cache=True)
def deal_value(st, opts, p):
    """Seat p's result of the finished deal in ``st``: minus (its penalty less the cut bonus
    it wins) relative to the others' mean."""
    n = st[N]
    void = opts[O_VOID_DEAD] and st[DREASON] != D_OUT
    rules = rules_of(opts)
    mine = 0.0
    rest = 0.0
    for q in range(n):
        v = 0.0
        if q != st[OUT] and not void:
            v = F.hold_points(hand_of(st, q), rules)
        if st[CUT_OK] and opts[O_CUT_RECIP] == 1 and st[OUT] == q:
            v -= opts[O_CUT_POINTS]
        if q == p:
            mine = v
        else:
            rest += v
    return rest / (n - 1) - mine


@njit(cache=True)
def rollout(st, opts, tab, sids, params, g, sc, mo, plug, pprm, vb, draw):
    """Play the deal in ``st`` to its end with the rows ``params`` at every seat, from the
    turn player's draw (``draw``; begin_turn done) or its discard (its step 2 done, no
    out-of-turn play pending)."""
    p = st[CUR]
    rollout_from(st, opts, tab, sids, params, g, sc, mo, plug, pprm, vb, SEG_DRAW if draw else SEG_DISCARD, -1,
                 sids[p], params[p], False)


@njit(cache=True)
def rollout_from(st, opts, tab, sids, params, g, sc, mo, plug, pprm, vb, seg, q, asid, aprm, apl):
    """Play the deal in ``st`` to its end with the rows ``params`` at every seat, from the start
    of the turn player's segment ``seg``: SEG_DRAW its draw (begin_turn done), SEG_ACT its step 2
    (the draw done; ``q`` the seat playing out of turn, -1 none), SEG_DISCARD its discard (step 2
    done, no out-of-turn play pending), SEG_OOT seat ``q``'s out-of-turn discard (its draw done).
    This turn's step 2 is played by ``asid`` (row ``aprm``, ``apl``: as a plug-in seat), the
    rest by the table's rows."""
    trace = np.zeros((0, 6), np.int64)
    p = st[CUR]
    if seg == SEG_DRAW:
        q = draw_phase(st, opts, tab, p, sids, params, g, trace, sc, plug, pprm, vb)
        if q == -2 or over(st):
            return
        st[XFER] = 1 if q >= 0 else 0
    if seg <= SEG_ACT:
        act_phase(st, opts, tab, p, asid, aprm, g, mo, trace, apl, plug, pprm, vb)
        if over(st):
            return
    if seg == SEG_OOT:
        oot_discard(st, opts, tab, q, sids, params, g, trace, sc, plug, pprm, vb)
        st[CUR] = (p + 1) % st[N]
    elif end_turn(st, opts, tab, sids, params, g, trace, sc, p, q, plug, pprm, vb) or over(st):
        return
    while not over(st):
        if st[TURN] >= opts[O_MAX_TURNS]:
            end_deal(st, D_TURN_CAP, -1)
            return
        p = st[CUR]
        begin_turn(st, p)
        q = draw_phase(st, opts, tab, p, sids, params, g, trace, sc, plug, pprm, vb)
        if q == -2 or over(st):
            return
        st[XFER] = 1 if q >= 0 else 0
        act_phase(st, opts, tab, p, sids[p], params[p], g, mo, trace, False, plug, pprm, vb)
        if over(st):
            return
        if end_turn(st, opts, tab, sids, params, g, trace, sc, p, q, plug, pprm, vb):
            return


@njit(cache=True)
def search_options(st, opts, tab, p, kind, sid, pol, gen, out):
    """The answers a search tries (the policy's own first): K_DRAW its choice, then the other;
    K_DISCARD the legal discards in the policy's order (at most SX_CANDS of them, at least one)."""
    sc = np.zeros(16, np.int64)
    if kind == K_DRAW:
        paid = opts[O_MAYI_MODEL] == MODEL_OOT
        w = wants_card(st, opts, tab, p, top_card(st), paid, sid, pol, gen, sc)
        out[0] = 1 if w else 0
        out[1] = 0 if w else 1
        return 2
    h, spec, rules = hand_of(st, p), spec_of(opts, st[DEAL]), rules_of(opts)
    near = danger(st, opts, p, pol, sid, sc)
    keys = np.empty(HOLD, np.int64)
    m = 0
    for c in range(HOLD):
        if discard_ok(st, p, c, False):
            keys[m] = discard_key(st, tab, p, c, h, spec, rules, near) * 64 + c
            m += 1
    keys[:m].sort()
    for i in range(m):
        out[i] = keys[i] % 64
    return m


@njit(cache=True)
def policy_table(n, sid, pol):
    """The rollouts' table: the policy ``sid`` with its row ``pol`` at each of the n seats."""
    sids2 = np.full(n, sid, np.int64)
    params2 = np.zeros((n, N_PARAMS), np.float64)
    for q in range(n):
        params2[q, :N_POLICY] = pol[:N_POLICY]
    return sids2, params2


@njit(cache=True)
def world_values(st, opts, tab, p, seg, q, fkind, script, m, codes, k, active, sids2, params2, asid, aprm, apl, key,
                 w, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb, vals):
    """World ``w`` of a decision's valuation (stream keyed by ``key``): what seat ``p`` cannot
    see in ``st`` (``tab`` its table) dealt again into ``base``, then each active answer
    ``codes[i]`` forced and the deal played out from the start of segment ``seg``
    (``rollout_from``: ``q``; this turn's step 2 by ``asid``, ``aprm``, ``apl``) ``rollouts``
    times by the rows ``params2`` at every seat (the same
    streams for every answer); ``vals[r, i]`` = seat p's ``deal_value`` after rollout r of
    answer i. The search forces its answer on the hook (``fkind`` >= 0: K_DRAW or K_DISCARD,
    ``codes`` its answers); a critique (``fkind`` < 0) answers the segment's questions from a
    script in ``vb``: ``script[:m]`` (the answers before the decision) and ``codes[i]`` (critique
    action codes)."""
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, tab, p, g, cards)
    for r in range(rollouts):
        for i in range(k):
            if active[i]:
                sim[:] = base
                tab2[:] = tab
                if fkind >= 0:
                    sim[F_KIND] = fkind + 1
                    sim[F_SEAT] = p
                    sim[F_VAL] = codes[i]
                else:
                    sim[F_KIND] = 0
                    load_script(vb, script, m, codes[i], -1)
                seed_sub(g, key, w, r)
                rollout_from(sim, opts, tab2, sids2, params2, g, sc, mo, plug, pprm, vb, seg, q, asid, aprm, apl)
                vals[r, i] = deal_value(sim, opts, p)


@njit(cache=True)
def load_script(vb, script, m, last, stop):
    """Script mode in ``vb``: the answers ``script[:m]`` then ``last`` (none when < 0); ``stop``
    >= 0 stops at the question after that many answers."""
    vb[CV_MODE] = CM_SCRIPT
    vb[CV_STEP] = 0
    vb[CV_STOP] = stop
    vb[CV_STOPPED] = 0
    vb[CV_SCRIPT:CV_SCRIPT + m] = script[:m]
    if last >= 0:
        vb[CV_SCRIPT + m] = last
        m += 1
    vb[CV_LEN] = m
    if m == 0 and stop < 0:
        vb[CV_MODE] = 0


@njit(cache=True)
def search_pick(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    """The search's answer to seat p's decision ``kind`` (K_DRAW: 1 take, 0 draw; K_DISCARD:
    the card), row ``prm`` (``kernels.search``): for each of ``worlds`` determinizations every
    answer tried is forced and the deal rolled out to its end ``rollouts`` times with the
    policy at every seat (the same streams for every answer); the best total ``deal_value``
    wins, the policy's own answer on ties."""
    n = st[N]
    sid = np.int64(prm[SP_POLICY])
    pol = prm[SP_PRM:]
    opt = np.empty(HOLD, np.int64)
    key = search_key(gen)
    g = np.empty(2, np.uint64)
    seed_sub(g, key, -1, -1)
    k = search_options(st, opts, tab, p, kind, sid, pol, g, opt)
    if kind == K_DISCARD:
        k = min(k, max(1, int(prm[SX_CANDS])))
    if k == 0:
        return -1
    if k == 1:
        return opt[0]
    worlds, rollouts = plan_budget(prm, k)
    sids2, params2 = policy_table(n, sid, pol)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    tab2 = np.empty_like(tab)
    cards = np.empty(MAX_PACK, np.int64)
    sc = np.zeros(16, np.int64)
    mo = np.zeros((MO_ROWS, HOLD), np.int64)
    total = np.zeros(k, np.float64)
    dsq = np.zeros(k, np.float64)       # squares of the paired differences to the policy's answer
    vals = np.zeros((rollouts, k), np.float64)
    active = np.ones(k, np.bool_)
    seg = SEG_DRAW if kind == K_DRAW else SEG_DISCARD
    vb2 = vb[:VB_SIZE]                  # the rollouts' own: never a critique's (``critiquing``)
    z = prm[SX_Z]
    step = RACE_ROUND if z > 0 else 0
    m = 0
    for w in range(worlds):
        world_values(st, opts, tab, p, seg, -1, kind, opt, 0, opt, k, active, sids2, params2, sids2[p], params2[p],
                     False, key, w, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb2, vals)
        for r in range(rollouts):
            for i in range(k):
                if active[i]:
                    total[i] += vals[r, i]
                    dsq[i] += (vals[r, i] - vals[r, 0]) ** 2
        m += rollouts
        if step > 0 and (w + 1) % step == 0 and w + 1 < worlds and \
                race_policy(total, dsq, m, k, active, z, prm[SX_FUTILITY], worlds * rollouts) == 0:
            return opt[0]               # no other answer can still show the gain the search needs
    for i in range(1, k):
        if not active[i]:
            total[i] = -np.inf
    b = best_action(total, k)
    if b > 0 and z > 0:
        if m < 2:
            return opt[0]               # no spread to test against: the policy's answer
        d, se = paired_gain(total, dsq, m, b)
        t = z + (z ** 3 + z) / (4 * (m - 1))    # z as a Student t quantile of m - 1 degrees of freedom
        if d < t * se:
            b = 0
    return opt[b]


@njit(cache=True)
def search_force(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    """Search seat p's decision ``kind`` and force its answer on the hook that takes it next."""
    st[F_VAL] = search_pick(st, opts, tab, p, kind, prm, gen, plug, pprm, vb)
    st[F_SEAT] = p
    st[F_KIND] = kind + 1


# The batch kernels call the search (``search_force``) through SEARCH_SIG: ``search_cfunc()``
# compiled when a search seat plays (jit.lazy_cfunc), ``no_search`` otherwise (never called).
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[:, ::1], types.int64, types.int64,
                         types.float64[::1], types.uint64[::1], types.FunctionType(PLUG_SIG),
                         types.float64[:, ::1], types.int64[::1])


def _search_entry(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    search_force(st, opts, tab, p, kind, prm, gen, plug, pprm, vb)
    return 0


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@numba.cfunc(SEARCH_SIG, cache=True)
def no_search(st, opts, tab, p, kind, prm, gen, plug, pprm, vb):
    """The search argument of a table without a search seat (never called)."""
    return 0


@njit(cache=True)
def score_deal(st, opts, trace):
    """§14: everybody but the player out scores his hand (nobody: void dead-stock deal)."""
    void = opts[O_VOID_DEAD] and st[DREASON] != D_OUT
    rules = rules_of(opts)
    for p in range(st[N]):
        if p != st[OUT] and not void:
            st[PEN + p] = F.hold_points(hand_of(st, p), rules)
            st[TOTAL + p] += st[PEN + p]
    if st[CUT_OK] and opts[O_CUT_RECIP] == 1 and st[OUT] >= 0:
        st[TOTAL + st[OUT]] -= opts[O_CUT_POINTS]
    for p in range(st[N]):
        log(st, trace, T_SCORE, p, st[PEN + p], st[TOTAL + p], F.hold_points(hand_of(st, p), rules), 0)


# =============================================================================
# critique (issue 40): every answer of the critiqued seat's questions valued
# =============================================================================
# A game is played turn by turn by the batch's own ``play_turn`` with a critique's vb (record
# mode: every question of every seat logged with its legal codes and answer, the built-in seats'
# answers their own, as in the batch). After each turn, the critiqued seat's questions become
# rows; a sampled one is valued from the start of its turn segment (SEG_*: the state where the
# segment's first question was asked), the segment's earlier answers replayed from a script.
@njit(cache=True)
def decision_kind(act):
    """The decision kind (K_*) of a critique action code (``pack_act``)."""
    return act & 15


@njit(cache=True)
def critique_eval(st, tab, opts, p, seg, q, script, m, acts, n, chosen, prm, key, row, acts_out, plug, asid, aprm,
                  apl):
    """Value every answer ``acts[:n]`` (critique action codes) of seat ``p``'s question with the
    search row ``prm`` (``kernels.critique``: a racing select stage over ``worlds`` worlds, then
    the best and the choice ``chosen`` measured on as many fresh ones) into ``row`` and
    ``acts_out``. ``st``, ``tab``: the start of the question's turn segment ``seg`` (``q``: the
    seat playing out of turn, -1 none); ``script[:m]``: the answers to the segment's questions
    before it (any seat's). Each world deals again what p cannot see and plays every answer out
    to the end of the deal (``world_values``) by the policy at every seat, as the search does,
    but for a question of step 2 (SEG_ACT) the rest of that step 2 by p's own strategy (``asid``,
    ``aprm``, ``apl``: the questions it asks depend on it). The value is p's ``deal_value`` (what
    the search maximizes). Returns the script answers that fit no question (0: tests)."""
    nseat = st[N]
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sids2, params2 = policy_table(nseat, np.int64(prm[SP_POLICY]), prm[SP_PRM:])
    own = seg == SEG_ACT
    osid = asid if own else sids2[0]
    oprm = aprm.copy() if own else params2[0].copy()
    opl = apl if own else False
    pprm2 = np.zeros((nseat, N_PLUG_PARAMS + 1), np.float64)
    vb = np.zeros(CV_SIZE, np.int64)
    vals = np.zeros((2 * worlds, n), np.float64)
    one = np.zeros((rollouts, n), np.float64)
    seen = np.zeros(n, np.int64)
    active = np.ones(n, np.bool_)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    tab2 = np.empty_like(tab)
    cards = np.empty(MAX_PACK, np.int64)
    g = np.empty(2, np.uint64)
    sc = np.zeros(16, np.int64)
    mo = np.zeros((MO_ROWS, HOLD), np.int64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + CR_ROUND)):
            world_value(st, tab, opts, p, seg, q, script, m, acts, n, active, sids2, params2, osid, oprm, opl, key,
                        ww, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm2, vb, one, vals[ww])
            for i in range(n):
                if active[i]:
                    played += rollouts
        w = min(worlds, w + CR_ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            world_value(st, tab, opts, p, seg, q, script, m, acts, n, active, sids2, params2, osid, oprm, opl, key,
                        ww, rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm2, vb, one, vals[ww - worlds + w])
            played += 2 * rollouts
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)
    return vb[CV_BAD]


@njit(cache=True)
def world_value(st, tab, opts, p, seg, q, script, m, acts, n, active, sids2, params2, asid, aprm, apl, key, w,
                rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb, one, out):
    """``out[i]``: active answer i's mean value over the rollouts of world ``w`` (``world_values``
    into ``one``)."""
    world_values(st, opts, tab, p, seg, q, -1, script, m, acts, n, active, sids2, params2, asid, aprm, apl, key, w,
                 rollouts, base, sim, tab2, cards, g, sc, mo, plug, pprm, vb, one)
    for i in range(n):
        if active[i]:
            t = 0.0
            for r in range(rollouts):
                t += one[r, i]
            out[i] = t / rollouts


@njit(cache=True)
def position_at(st, tab, opts, seg, q, script, m, asid, aprm, apl, plug, out):
    """The state and table (``out``, SEG_W) where the question after ``script[:m]`` of segment
    ``seg`` (started in ``st``, ``tab``) is asked: the segment replayed on its answers and
    stopped there. False (``out`` left alone) if the replay does not reach it (never: tests)."""
    nseat = st[N]
    sim = st.copy()
    tab2 = tab.copy()
    sids2, params2 = policy_table(nseat, asid, aprm)
    pprm2 = np.zeros((nseat, N_PLUG_PARAMS + 1), np.float64)
    vb = np.zeros(CV_SIZE, np.int64)
    load_script(vb, script, m, -1, m)
    g = np.zeros(2, np.uint64)
    rollout_from(sim, opts, tab2, sids2, params2, g, np.zeros(16, np.int64), np.zeros((MO_ROWS, HOLD), np.int64),
                 plug, pprm2, vb, seg, q, asid, aprm, apl)
    if vb[CV_STOPPED] == 0 or vb[CV_BAD] != 0:
        return False
    out[:SEG_W] = vb[SNAP_ST:SNAP_ST + SEG_W]
    return True


@njit(cache=True)
def turn_rows(st, opts, sids, params, seat, prm, rate, key, rows, acts_out, snaps, vb, k, seen, plug):
    """The critiqued seat's questions in the turn just played (its log in ``vb``) as rows
    ``rows[k:]`` (counted from ``seen``); a sampled one with more than one answer is valued
    (``critique_eval``, its position in ``snaps``) unless its segment's replay does not reach
    it (never: tests; the row stays unvalued). Returns the new (k, seen)."""
    ne = min(vb[CV_NLOG], LOG_ROOM)
    script = np.empty(ne + 1, np.int64)
    codes = np.empty(MAX_LEGAL, np.int64)
    asid = seat_sid(sids, params, seat)
    aprm = seat_row(sids, params, seat)
    apl = sids[seat] >= PLUGIN
    oq = -1
    for e in range(ne):
        r = CV_LOG + e * LG_W
        kind, ans = vb[r + LG_KIND], vb[r + LG_ANS]
        if kind == K_VOLUNTEER and ans == 1:
            oq = vb[r + LG_SEAT]
        if vb[r + LG_SEAT] != seat:
            continue
        if k < rows.shape[0]:
            n, card, meld, info = vb[r + LG_N], vb[r + LG_CARD], vb[r + LG_MELD], vb[r + LG_INFO]
            chosen = -1
            for i in range(n):
                codes[i] = pack_act(kind, vb[r + LG_CODES + i], card, meld, info)
                if chosen < 0 and vb[r + LG_CODES + i] == ans:
                    chosen = i
            act = codes[chosen] if chosen >= 0 else pack_act(kind, max(0, ans), card, meld, info)
            plain_row(rows[k], seen, vb[r + LG_STEP], kind, st[DEAL], vb[r + LG_HELD], n, chosen, act)
            if chosen >= 0 and n > 1 and sampled(key, seen, rate):
                seg = vb[r + LG_SEG]
                m = 0
                for e2 in range(e):
                    r2 = CV_LOG + e2 * LG_W
                    if vb[r2 + LG_SEG] == seg:
                        script[m] = pack_act(vb[r2 + LG_KIND], vb[r2 + LG_ANS], vb[r2 + LG_CARD], vb[r2 + LG_MELD],
                                             vb[r2 + LG_INFO])
                        m += 1
                start = vb[CV_SEG + seg * SEG_W:CV_SEG + (seg + 1) * SEG_W]
                s0 = start[:ST_SIZE].copy()
                t0 = start[ST_SIZE:].copy().reshape(MAX_MELDS, TW)
                q = seat if seg == SEG_OOT else (oq if seg == SEG_ACT else -1)
                if position_at(s0, t0, opts, seg, q, script, m, asid, aprm, apl, plug, snaps[k]) and \
                        critique_eval(s0, t0, opts, seat, seg, q, script, m, codes[:n].copy(), n, chosen, prm,
                                      mix64(key + np.uint64(seen + 1)), rows[k], acts_out[k], plug, asid, aprm,
                                      apl) != 0:
                    plain_row(rows[k], seen, vb[r + LG_STEP], kind, st[DEAL], vb[r + LG_HELD], n, chosen, act)
            k += 1
        seen += 1
    return k, seen


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug, pprm,
                  srch):
    """Play game ``game`` of run ``seed`` exactly as ``play_game`` does (the same streams, turn by
    turn through ``play_turn``) and write a ``kernels.critique`` row for each question of
    ``seat`` (at most ``len(rows)``): the plug-in kinds K_*, the action codes ``pack_act``,
    CR_PHASE the deal (its contract), CR_DETAIL the cards the seat holds. A sampled one
    (``rate``) with more than one answer is valued by ``critique_eval`` with the search row
    ``prm``; its position (state and table, SEG_W) is kept in ``snaps``. ``stop`` >= 0 stops the
    game before its question number ``stop`` (any seat's: ``CR_STEP``), the state there
    (``replay --until-decision``: the trace up to it). Returns (rows written, questions of
    ``seat``, the final state)."""
    st, tab, sc, mo, gdeck, gplay, _ = buffers()
    vb = np.zeros(CV_SIZE, np.int64)
    vb[CV_MODE] = CM_RECORD
    vb[CV_STOP] = stop
    key = stream_key(seed, game, np.int64(STREAM_CRITIQUE))
    n = opts[O_PLAYERS]
    st[N] = n
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    dealer = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = dealer
    k, seen = 0, 0
    for d in range(1, DEALS + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_DEAL + d))
        start_deal(st, opts, d, dealer, gdeck, trace)
        while not over(st):
            if turn_capped(st, opts):
                break
            vb[CV_NLOG] = 0
            vb[CV_SEGS] = 0
            e = play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch)
            k, seen = turn_rows(st, opts, sids, params, seat, prm, rate, key, rows, acts_out, snaps, vb, k, seen,
                                plug)
            if vb[CV_STOPPED]:
                return k, seen, vb[SNAP_ST:SNAP_TAB].copy()
            if st[PERR]:
                st[ERR] = E_PLUGIN
                return k, seen, st
            if e:
                st[ERR] = e
                return k, seen, st
        close_deal(st, opts, trace)
        dealer = (dealer + 1) % n
    return k, seen, st


def critique(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)


# =============================================================================
# invariants (check mode)
# =============================================================================
@njit(cache=True)
def table_counts(tab, n, cnt):
    for i in range(n):
        row = tab[i]
        cnt[JK] += row[M.M_JOKERS]
        if row[M.M_KIND] == M.MK_GROUP:
            for s in range(4):
                cnt[s * 13 + row[M.M_KEY]] += (row[M.M_P1] >> (4 * s)) & 15
        else:
            s = row[M.M_KEY]
            cnt[s * 13] += row[M.M_P2]
            for r in range(1, 13):
                cnt[s * 13 + r] += (row[M.M_P1] >> (r + 1)) & 1


@njit(cache=True)
def cards_ok(st, opts, tab):
    """Every card of the pack is in exactly one place (hands, stock, pile, table)."""
    cnt = np.zeros(HOLD, np.int64)
    table_counts(tab, st[NMELDS], cnt)
    for p in range(st[N]):
        cnt += hand_of(st, p)
    for i in range(st[STOCK_LO], st[STOCK_HI]):
        cnt[st[STOCK + i]] += 1
    for i in range(st[PILE_LEN]):
        cnt[st[PILE + i] & 63] += 1
    for c in range(52):
        if cnt[c] != opts[O_DECKS]:
            return False
    return cnt[JK] == opts[O_JOKERS]


@njit(cache=True)
def hands_ok(st, opts):
    for p in range(st[N]):
        h = hand_of(st, p)
        if h.min() < 0 or h.sum() != st[HSIZE + p]:
            return False
        if st[HSIZE + p] != opts[O_HAND + st[DEAL]] + st[GAIN + p] - st[LOSS + p]:
            return False
    return True


@njit(cache=True)
def mayi_ok(st, opts):
    for p in range(st[N]):
        if st[MAYI + p] != st[PCARDS + p]:
            return False
        if opts[O_MAYI_LIMIT] >= 0 and st[MAYI + p] > opts[O_MAYI_LIMIT]:
            return False
    return True


@njit(cache=True)
def check_invariants(st, opts, tab):
    if not cards_ok(st, opts, tab):
        return E_CARDS
    rules = rules_of(opts)
    for i in range(st[NMELDS]):
        if not F.row_valid(tab[i], rules) or (tab[i, M.M_KIND] == M.MK_RUN and not F.window_ok(tab[i])):
            return E_MELD
    if not hands_ok(st, opts):
        return E_HAND
    if not mayi_ok(st, opts):
        return E_MAYI
    if st[TURN] > opts[O_MAX_TURNS]:
        return E_CAP
    return 0


# =============================================================================
# deals, games, batches
# =============================================================================
@njit(cache=True, inline='always')
def play_deal(st, opts, tab, d, dealer, sids, params, check, trace, sc, mo, gdeck, gplay, plug, pprm, vb, srch):
    """Deal and play deal d to its end and score it; returns the check error (0 = none),
    E_PLUGIN when a plug-in's answer stopped it."""
    start_deal(st, opts, d, dealer, gdeck, trace)
    while not over(st):
        if turn_capped(st, opts):
            break
        e = play_turn(st, opts, tab, sids, params, gplay, trace, sc, mo, plug, pprm, vb, srch)
        if st[PERR]:
            return E_PLUGIN
        if e == 0 and check:
            e = check_invariants(st, opts, tab)
        if e:
            return e
    close_deal(st, opts, trace)
    return 0


@njit(cache=True)
def turn_capped(st, opts):
    """The deal hit max_turns_per_deal: it ends as a dead stock does, the game truncated."""
    if st[TURN] < opts[O_MAX_TURNS]:
        return False
    end_deal(st, D_TURN_CAP, -1)
    st[TRUNC] = 1
    return True


@njit(cache=True)
def close_deal(st, opts, trace):
    """The deal is over: score it and add its counts to the game's."""
    log(st, trace, T_END, st[OUT], st[DREASON], st[OUT], 0, 0)
    score_deal(st, opts, trace)
    st[GAME_TURNS] += st[TURN]
    st[GAME_RESHUF] += st[RESHUF]
    for p in range(st[N]):
        st[GMAYI + p] += st[MAYI + p]
        st[GOOT + p] += st[OOT + p]


@njit(cache=True)
def write_deal(st, row):
    b = RC_DEAL + (st[DEAL] - 1) * DB_SIZE
    row[b + DB_OUT] = st[OUT]
    row[b + DB_REASON] = st[DREASON]
    row[b + DB_TURNS] = st[TURN]
    row[b + DB_RESHUF] = st[RESHUF]
    row[b + DB_CUT] = st[CUT_OK]
    for p in range(st[N]):
        row[b + DB_PEN + p] = st[PEN + p]
        row[b + DB_MAYI + p] = st[MAYI + p]
        row[b + DB_OOT + p] = st[OOT + p]


@njit(cache=True)
def write_game(st, row):
    """Totals, the winner(s) (lowest total; ties shared), the game counters."""
    n = st[N]
    low = BIG
    for p in range(n):
        low = min(low, st[TOTAL + p])
    mask = 0
    for p in range(n):
        if st[TOTAL + p] == low:
            mask |= 1 << p
        row[RC_TOTAL + p] = st[TOTAL + p]
        row[RC_MAYI + p] = st[GMAYI + p]
        row[RC_OOT + p] = st[GOOT + p]
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_WINNERS] = mask
    row[RC_WINNER] = -1
    for p in range(n):
        if mask == 1 << p:
            row[RC_WINNER] = p
    row[RC_REASON] = 1 if st[TRUNC] else 0
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_TURNS] = st[GAME_TURNS]
    row[RC_RESHUF] = st[GAME_RESHUF]


@njit(cache=True)
def totals_ok(st, opts, row):
    """Each total is the sum of its deal penalties minus its cut bonuses."""
    n = st[N]
    for p in range(n):
        s = 0
        for d in range(DEALS):
            b = RC_DEAL + d * DB_SIZE
            s += row[b + DB_PEN + p]
            if row[b + DB_CUT]:
                dealer = (st[FIRST_DEALER] + d) % n
                winner = (dealer + n - 1) % n if opts[O_CUT_RECIP] == 0 else row[b + DB_OUT]
                if winner == p:
                    s -= opts[O_CUT_POINTS]
        if s != st[TOTAL + p]:
            return False
    return True


@njit(cache=True)
def first_dealer(opts, seed, game, gdeck):
    if opts[O_FIRST_DEALER] >= 0:
        return opts[O_FIRST_DEALER]
    seed_stream(gdeck, seed, game, np.int64(STREAM_DEAL))
    return below(gdeck, opts[O_PLAYERS])


@njit(cache=True, inline='always')
def play_game(st, opts, tab, seed, game, sids, params, check, trace, sc, mo, gdeck, gplay, row, plug, pprm, vb,
              srch):
    """Play game ``game`` of run ``seed`` (seven deals) into the record ``row``."""
    st[:] = 0
    row[:] = 0
    n = opts[O_PLAYERS]
    st[N] = n
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    dealer = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = dealer
    for d in range(1, DEALS + 1):
        seed_stream(gdeck, seed, game, np.int64(STREAM_DEAL + d))
        st[ERR] = play_deal(st, opts, tab, d, dealer, sids, params, check, trace, sc, mo,
                            gdeck, gplay, plug, pprm, vb, srch)
        write_deal(st, row)
        if st[ERR]:
            break
        dealer = (dealer + 1) % n
    write_game(st, row)
    if check and st[ERR] == 0 and not totals_ok(st, opts, row):
        st[ERR] = E_TOTALS
        row[RC_ERR] = E_TOTALS
    return st[ERR]


@njit(cache=True)
def buffers():
    """Working arrays of one thread: state, table, scratch, meld rows, streams, the
    plug-in's view and legal buffer."""
    return (np.zeros(ST_SIZE, np.int64), np.zeros((MAX_MELDS, TW), np.int64),
            np.zeros(16, np.int64), np.zeros((MO_ROWS, HOLD), np.int64),
            np.zeros(2, np.uint64), np.zeros(2, np.uint64), np.zeros(VB_SIZE, np.int64))


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, pprm, srch):
    """Games first+lo .. first+hi-1 into rec[lo:hi]; ``plug`` is the plug-in (a
    ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, ``srch`` the search
    (SEARCH_SIG) for the search seats. The loop works on
    ``unowned`` views of the inputs all threads share and of this thread's buffers (no
    reference counting, an atomic operation per array handed on; the arrays outlive this
    call)."""
    st, tab, sc, mo, gdeck, gplay, vb = buffers()
    trace = np.zeros((0, 6), np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)
    pp = unowned(pprm)
    for g in range(lo, hi):
        play_game(unowned(st), o, unowned(tab), seed, first + g, s, p, check, unowned(trace),
                  unowned(sc), unowned(mo), unowned(gdeck), unowned(gplay), r[g], plug, pp, unowned(vb), srch)


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` games starting at ``first`` on ``numba.get_num_threads()`` threads into
    ``rec`` (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``).
    ``plug``: the plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN,
    with its parameters ``pprm``; one compiled kernel serves every table."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    plug = no_plugin if plug is None else plug
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    threaded_batch(play_chunk, seed, first, count, opts, sids, params, check, rec, plug, pprm, srch, least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, game, opts, sids, params, check, trace, plug, pprm, srch):
    st, tab, sc, mo, gdeck, gplay, vb = buffers()
    row = np.zeros(RECORD_COLS, np.int64)
    play_game(st, opts, tab, seed, game, sids, params, check, trace, sc, mo, gdeck, gplay, row, plug, pprm, vb,
              srch)
    return st


def replay_game(seed, game, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one game alone with a trace buffer; returns the final state."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    return replay_kernel(seed, game, opts, sids, params, check, trace, no_plugin if plug is None else plug, pprm,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))
