"""Tripoli (Tripoley, Michigan Rummy, Rummoli): pay cards, poker and Michigan in one deal.

Rules source: ``docs/rules/tripoli.md`` (the Persian seed = pagat's page; every DECISION of
that spec is followed, every option of its sections 10 and 14 is in the options array). The
poker arithmetic is ``kernels.poker``; this module is the game flow.

Choices this module adds where the spec leaves room
----------------------------------------------------
* **Sessions and records.** A record is one DEAL. Deals are grouped into sessions of
  ``deals_per_session`` deals: deal ``d`` is deal ``k = d % D`` of session ``s = d // D``.
  Every session starts with an empty board; chips left on the board carry from deal to
  deal inside the session. The board carried into a deal is computed deterministically by
  replaying the earlier deals of its session (each deal draws from its own random streams),
  so any deal still replays alone and rows do not depend on thread counts. The batch kernel
  plays whole sessions (a shard boundary inside a session replays that session's prefix).
  The end-of-session clearing round(s) belong to the record of the session's last deal
  (columns ``clear_{p}``, ``clearing_prize``).
* **Payouts.** ``payout_{p}`` = change of seat p's balance in the deal: antes, auction
  payments, pay-card and poker winnings, Michigan payments, clearing rounds. Chips on the
  board belong to nobody, so a row sums to minus the growth of the board; over a whole
  session (clearing on) the rows sum to zero. Check mode asserts after every action that
  balances + board (+ the open clearing pot) equal their value at the start of the deal.
* The first dealer of a session is drawn from (seed, session); the deal passes left.
* Auctions: a bid action names the new high bid, from ``max(high + 1, auction_min_bid)``
  up to 20 above the current high bid (jump bids beyond 20 are not offered) and never above
  ``auction_max_bid`` (default none = a guard of 1000; reaching the guard sets ``truncated``).
* Poker hand choice: the 5 poker cards are picked one card per action (``pick``), so the
  legal actions stay few; any 5-card subset can be chosen.
* Bet and raise sizes: every amount 1 .. the limit (per action) or up to the total limit.
  ``max_raises`` none = unlimited with a guard of 100 raises (reaching it sets ``truncated``).
* Phase 3 leads: the only decision is the suit (``lead``); following is forced.
* Rummoli timing (``payout_timing=michigan``) books pay-card claims in the pay-card ledger
  (``pay_{p}``) although they happen during Phase 3.
* Cosmo: the pay suit and sequence start are drawn from the deal's deck stream after the
  shuffle (duplicate deals see the same dials).
* ``max_steps`` (default 20,000) caps the decisions of a deal; a capped deal stops where it
  is (chips still conserved) and sets ``truncated`` (end reason ``step_cap``).

* Variant precedence in Phase 3: colour alternation (and Cosmo) decide every lead; otherwise
  ``first_lead_lowest_in_hand`` decides the first lead. A pay-suit auction nobody bids in
  leaves the configured ``pay_suit`` (hearts by default). A step-capped last deal of a
  session skips the clearing round (the board then stays as it is).
* Strategies see only their own hand and public facts (board, played cards, hand sizes,
  folds, bets); the heuristic's parameters are listed in ``sim.games.tripoli``. ``random``
  picks a uniform legal action; ``fuzz`` a uniform action KIND, then a uniform action of it
  (its auctions end after a few bids, so it reaches every end without the bid guard).
* Plug-in strategies (issue 17, ``cardsim.tripoli``): a seat with sid ``PLUGIN + b`` asks the
  plug-in's ``decide`` first for every decision of the kinds in its mask (K_*: the widow
  options, a hand auction's bid, the pay-suit bid and naming, each poker card picked, Phase-2
  and clearing-round betting, the Michigan lead), on its ``fill_view`` and a copy of the legal
  actions; -1 leaves the choice to the built-in b, anything but -1 or a legal index stops the
  deal with E_PLUGIN (every mode). ``OLD_HAND`` (the dealer's hand before his swap) is kept only
  for the dealer's view; records and traces of built-in play are unchanged.
* ``search`` (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
  determinized Monte Carlo. At a decision of a searched kind (``kinds``, K_* bits; default every
  kind but the poker-card picks, which the policy makes) it compares the legal actions (of a bid,
  bet or raise only ``sizes`` amounts spread from the smallest to the largest, and the policy's
  own choice): in each of ``worlds`` determinizations (``determinize``: the other hands and the
  widow dealt again from the cards the seat has not seen, keeping what the widow, Phase 1, a
  showdown, the Michigan leads and stops showed; in a betting round a world is kept with the
  chance that the policy would have bet as the others did, ``bet_likelihood``) every candidate
  is played and the deal rolled out to its end (a session's last deal: with its clearing rounds,
  their cards drawn anew) by the policy at every seat, ``rollouts`` times with the same streams
  for every candidate; the best total payout of the deal (the record's payout) wins. The public
  facts it needs beyond the existing fields are kept in the state (``NOTH``, ``BETS``,
  ``CALL_PRICE``, ``FOLD_PRICE``): bookkeeping only, no rule changes (``RULES_VERSION`` unchanged).
  The batch kernels call the search as a callback (``srch``, ``SEARCH_SIG``) compiled the first
  time a table has a search seat (``search_cfunc``; issue 14).
* The heuristic's defaults changed in issue 15 (a defect fix): the old thresholds (bet two
  pair, raise a straight, call a pair, never bluff) lost ~12 chips a deal to one tighter seat
  and ``swap_below=1.5`` was worse than never swapping. The defaults now come from a
  best-response search on duplicate deals at 5 players, checked at 3 and 7
  (``scripts/studies/study_tripoli.py --only response``): bet a full house, raise at 6.5, call at
  4.5 moved by the pot odds (``odds_weight`` 12), bluff half the weak openings with 8 chips,
  thresholds moved with the opponents' hand sizes (``size_shift`` 0.25), swap below 3, bid at
  most 1 for the dealer's old hand. Every tighter or looser threshold step loses against
  them at 3, 5 and 7 players; the best one-parameter step found gains ~0.2 chips a deal, and
  at 7 players the old loose defaults still gain ~0.6.

Options (int array, built by ``sim.games.tripoli.TripoliOptions.to_array``):

| index | option (tripoli.md) | values |
|---|---|---|
| O_PLAYERS | n_players (1) | 2..9 |
| O_ANTE | ante_per_space (2) | chips, default 1 |
| O_WIDOW, O_WIDOW_LAST | widow_exchange (4, 10.6), widow_dealt_last (3) | 0/1 |
| O_MIN_BID, O_MAX_BID, O_BID_GUARDED | auction_min_bid, auction_max_bid (4) | chips; none = 1000 guarded |
| O_TIMING | payout_timing (5, 10.1) | 0 phase1, 1 michigan (also set by pay_suit_auction) |
| O_SEQ_SPLIT | sequence_split (5) | 0 per_player, 1 per_sequence |
| O_PAY_SUIT, O_SEQ_START | pay_suit (1), sequence_start (10.3) | suit 0..3; ace-high rank 0..10 (2..Q) |
| O_SUIT_AUCTION | pay_suit_auction (10.2) | 0/1 |
| O_FIRST_BETTOR | poker_first_bettor (6.2, 10.4) | 0 left_of_dealer, 1 dealer |
| O_LIMIT, O_LIMIT_MODE | bet_limit, bet_limit_mode (6.2) | 1..60; 0 per_action, 1 total |
| O_MAX_RAISES, O_RAISES_GUARDED | max_raises (6.2) | count; none = 100 guarded |
| O_LEADER | michigan_first_leader (7, 10.5) | 0 poker_winner, 1 dealer, 2 left_of_dealer |
| O_FIRST_LOWEST, O_COLOR, O_COSMO | variants 10.7, 10.8, 10.9 | 0/1 (cosmo sets O_COLOR) |
| O_DEALS, O_CLEARING | deals_per_session, clearing_pots (9) | default n; default 1 |
| O_FIRST_DEALER | first dealer of each session (3) | -1 random, else a seat |
| O_MAX_STEPS | decision cap per deal (not in the spec) | default 20,000 |

State: one int64 array, the fields below with one comment each (masks are 52-bit card masks).
``RULES_VERSION`` (1) is stored with every run; it changes when a rule change alters records.
Score range: a deal's payout is unbounded above in principle (carried chips, unlimited
credit) and bounded in practice by the board, the bet limits and the auction guard; check
mode asserts chip conservation exactly, never a range.
"""
import numpy as np

from cardsim.kernels import poker as PK
from cardsim.kernels.cards import FULL_DECK, lowbit, popcount
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
    put_world,
    round_done,
    sampled,
)
from cardsim.kernels.search import (
    ACTS_SEARCH_SIG,
    SP_EXTRA,
    SP_POLICY,
    SP_PRM,
    SP_ROLLOUTS,
    SP_WORLDS,
    best_action,
    plan_budget,
    search_key,
    no_acts_search,
    seed_sub,
    shuffle_prefix,
)
from cardsim.kernels.rng import (
    STREAM_DECK,
    STREAM_PLAY,
    STREAM_RUN,
    below,
    mix64,
    next_u64,
    seed_stream,
    shuffle,
    stream_key,
    uniform,
)

RULES_VERSION = 1
MAX_PLAYERS = 9
MAX_ACTS = 64
BID_STEPS = 20
BID_GUARD = 1000
RAISE_GUARD = 100
STREAM_CLEAR = 8                # clearing round j shuffles from stream STREAM_CLEAR + j
SESSIONS_PER_CHUNK = 8
LOW13 = (1 << 13) - 1

# ---- options array -------------------------------------------------------------------
O_PLAYERS = 0        # n_players 2..9
O_ANTE = 1           # ante_per_space
O_WIDOW = 2          # widow_exchange 0/1
O_WIDOW_LAST = 3     # widow_dealt_last 0/1
O_MIN_BID = 4        # auction_min_bid
O_MAX_BID = 5        # auction_max_bid (the guard when none)
O_BID_GUARDED = 6    # 1 when auction_max_bid is none (reaching O_MAX_BID = truncated)
O_TIMING = 7         # payout_timing 0 phase1, 1 michigan (Rummoli)
O_SEQ_SPLIT = 8      # sequence_split 0 per_player, 1 per_sequence
O_PAY_SUIT = 9       # pay_suit 0 C, 1 D, 2 H, 3 S
O_SEQ_START = 10     # sequence_start as an ace-high rank index (2 -> 0 .. Q -> 10)
O_SUIT_AUCTION = 11  # pay_suit_auction 0/1
O_FIRST_BETTOR = 12  # poker_first_bettor 0 left_of_dealer, 1 dealer
O_LIMIT = 13         # bet_limit
O_LIMIT_MODE = 14    # bet_limit_mode 0 per_action, 1 total
O_MAX_RAISES = 15    # max_raises (RAISE_GUARD when none)
O_RAISES_GUARDED = 16  # 1 when max_raises is none
O_LEADER = 17        # michigan_first_leader 0 poker_winner, 1 dealer, 2 left_of_dealer
O_FIRST_LOWEST = 18  # first_lead_lowest_in_hand 0/1
O_COLOR = 19         # color_alternation 0/1
O_COSMO = 20         # cosmo 0/1
O_DEALS = 21         # deals_per_session
O_CLEARING = 22      # clearing_pots (0 = none)
O_FIRST_DEALER = 23  # -1 random per session, else a seat
O_MAX_STEPS = 24     # decisions per deal before the step cap
O_SIZE = 25

# ---- state fields (int64 array) ---------------------------------------------------------
N = 0            # number of players
DEALER = 1       # dealer of this deal
PHASE = 2        # P_*
CUR = 3          # seat to decide
SESSION = 4      # session number
DEAL_NO = 5      # deal number inside the session (0-based)
PAY_SUIT = 6     # pay suit of this deal
SEQ = 7          # sequence start (ace-high rank index) of this deal
TRUNC = 8        # 1 once a cap or guard bound
ERR = 9          # check-mode violation (E_*)
TR_LEN = 10      # trace rows written
STEPS = 11       # decisions taken this deal
REASON = 12      # end reason R_*, -1 while playing
MWIN = 13        # seat that went out in Phase 3, -1
WIDOW = 14       # widow mask
W_SEEN = 15      # seat that has seen the current widow, -1
W_ACT = 16       # widow decisions: bit mask of W_* flags
W_BUYER = 17     # buyer in a widow auction, -1
W_PRICE = 18     # price paid in a widow auction
AU_KIND = 19     # auction on: AU_WIDOW, AU_OLD, AU_SUIT
HIGH = 20        # current high bid (0 none)
HIGH_BY = 21     # seat of the high bid, -1
ACTIVE = 22      # bit mask of bidders who have not passed
SUIT_BY = 23     # winner of the pay-suit auction, -1
SUIT_PRICE = 24  # price paid for the pay suit
FOLDED = 25      # bit mask of folded seats
CUR_BET = 26     # highest total bet
RAISES = 27      # raises this betting round
ACTED = 28       # bit mask of seats that acted since the last bet / raise
POT_WIN = 29     # bit mask of the poker winners of the deal
POT = 30         # chips contested in the deal's poker pot (board Pot space + bets)
POKER_END = 31   # 0 showdown, 1 all others folded
BET_CTX = 32     # 0 Phase 2 betting, 1 clearing round
BET_DEALER = 33  # dealer of the current betting round
PLAYED = 34      # mask of cards played in Phase 3
BANNED = 35      # suit just stopped (-1 none)
COLOR = 36       # colour alternation: required colour 0 black 1 red, -1 off
LEADER = 37      # seat from which the next leader is searched
FIRST_LEAD = 38  # 1 before the first lead of Phase 3
LAST_P = 39      # seat of the last Phase-3 play (-1)
LAST_C = 40      # card of the last Phase-3 play (-1)
RUN_LEN = 41     # consecutive plays of one suit run by LAST_P
RUN_START = 42   # first card of that run
LEADS = 43       # leads in Phase 3
CL_POT = 44      # open clearing-round pot (prize + bets)
CL_LEFT = 45     # clearing rounds still to play after the current one
CL_INDEX = 46    # clearing round in play (0-based)
CL_TOTAL = 47    # chips pooled for the clearing rounds
TOTAL0 = 48      # balances + board at the start of the deal
DEAL_ID = 49     # deal id in the run
SEED = 50        # run seed (clearing rounds reseed the deck stream)
PICKED_N = 51    # cards picked by CUR for its poker hand
SEL_LEFT = 52    # seats still to pick their poker hand
LAST_DEAL = 53   # 1 if this deal ends its session
CL_FIRST = 54    # dealer of the first clearing round
CL_RESERVE = 55  # pooled chips of the clearing prizes not yet played for
P2_RAISES = 56   # raises in the Phase-2 betting round
P2_FOLDED = 57   # bit mask of the seats that folded in Phase 2
OLD_HAND = 58    # the dealer's hand before his swap (0: no swap); only his plug-in view shows it
HAND = 64        # HAND + p: seat p's hand
PICK = 73        # PICK + p: seat p's 5 poker cards (clearing rounds: its 5 dealt cards)
CONTRIB = 82     # CONTRIB + p: seat p's total bet this betting round
CHIPS = 91       # CHIPS + p: seat p's balance change this deal
HCAT = 100       # HCAT + p: poker strength class of PICK + p (-1 none)
BOARD = 109      # BOARD + i: chips on space i
BOARD0 = 118     # BOARD0 + i: chips on space i when the deal began (before the antes)
PH = 127         # PH + ledger * MAX_PLAYERS + p: chips won by seat p in ledger L_*
CLH = PH + 6 * MAX_PLAYERS   # CLH + p: seat p's 5 cards in the current clearing round
CLS = CLH + MAX_PLAYERS      # CLS + p: their strength class
NOTH = CLS + MAX_PLAYERS     # NOTH + p: cards seat p is publicly known not to hold (Phase 3: a lead of a
                             # suit's lowest card shows no lower card of it; a seat the lead passes shows no
                             # card of the suits it could lead); a search's determinization respects them
BETS = NOTH + MAX_PLAYERS    # BETS + p: seat p's actions in the current betting round (B_* bits; public)
CALL_PRICE = BETS + MAX_PLAYERS   # CALL_PRICE + p: highest price (x 1e6) at which p called this round, where
                                  # price = chips to call / (pot + chips to call), the heuristic's pot odds
FOLD_PRICE = CALL_PRICE + MAX_PLAYERS   # FOLD_PRICE + p: the price p folded at
ST_SIZE = FOLD_PRICE + MAX_PLAYERS

# board spaces
SP_A, SP_K, SP_Q, SP_J, SP_10, SP_KQ, SP_SEQ, SP_KITTY, SP_POT = range(9)
SPACE_NAMES = ("A", "K", "Q", "J", "10", "K-Q", "sequence", "kitty", "pot")
SPACE_RANK = (0, 12, 11, 10, 9)         # kernels.cards rank of the single-card spaces
# ledgers
L_ANTE, L_WIDOW, L_PAY, L_POKER, L_MICHIGAN, L_CLEAR = range(6)
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

# actions: kind in bits 0-3, payload << 8
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
S_EXPERT = 4       # params: the heuristic's row + PR_VALUE_EQ .. PR_LEAD_CHANCE (issue 41: ``expert_bet``, ``expert_lead``)
PR_SWAP_BELOW, PR_PAY_WEIGHT, PR_AUCTION_WIDOW, PR_SELL_OLD, PR_BID_MAX, PR_SUIT_BID_MAX = range(6)
PR_BET_AT, PR_RAISE_AT, PR_CALL_AT, PR_BET_SIZE, PR_RUN_WEIGHT, PR_STOP_BONUS = range(6, 12)
PR_BID_OLD_MAX, PR_BLUFF, PR_BLUFF_SIZE, PR_SIZE_SHIFT, PR_OPP_SHIFT, PR_ODDS_WEIGHT = range(12, 18)
PR_HIDE_MARGIN, PR_POS_SHIFT = 18, 19
PR_VALUE_EQ, PR_RAISE_EQ, PR_CALL_MARGIN, PR_BET_FRAC, PR_RAISE_RANGE, PR_CALL_RANGE = range(20, 26)
PR_WIDOW_STOPS = 26
PR_LEAD_PLAN, PR_LEAD_CHANCE = 27, 28
RUN_OPEN, RUN_STOP, RUN_OUT = 0, 1, 2   # how a Michigan lead's run ends for the leader (``own_run``)
N_PARAMS = SP_PRM + 29
SX_KINDS = SP_EXTRA      # search row: bit mask of the decision kinds (K_*) it searches; others the policy plays
SX_SIZES = SP_EXTRA + 1  # search row: at most this many amounts of a bid / bet / raise compared (0 = all)
PLUGIN = 64        # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8  # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k

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
V_SEAT = 0         # the deciding seat
V_KIND = 1         # decision kind K_*
V_PHASE = 2        # the kernel's phase P_* (P_WIDOW, P_AFTER_SWAP, P_AFTER_UNSOLD, P_AUCTION, ...)
V_PLAYERS = 3      # players at the table
V_DEALER = 4       # dealer of the deal (of the betting round in a clearing round: V_BET_DEALER)
V_DEAL_NO = 5      # deal number inside the session (0-based)
V_DEALS = 6        # deals per session (the last one ends with the clearing rounds)
V_HAND = 7         # own hand (card mask: bit 13 * suit + rank, rank 0 = ace; suits C D H S)
V_PICK = 8         # own poker cards picked so far (mask; its five once chosen)
V_BET_HAND = 9     # the cards this seat bets on: its poker hand, or its 5 cards in a clearing round
V_BET_CLASS = 10   # their poker class (kernels.poker.eval5; higher is better), -1 before chosen
V_WIDOW = 11       # widow cards this seat knows: the whole widow if it has seen it, else the public
                   # ones (pay cards nobody claimed in Phase 1, cards a Phase-3 stop revealed)
V_OLD_HAND = 12    # the dealer only, after his swap: his hand before it (whoever holds it now)
V_W_ACT = 13       # the dealer's widow decisions so far (W_* flags)
V_W_BUYER = 14     # buyer of a hand in a widow auction, -1
V_W_PRICE = 15     # its price
V_AUCTION = 16     # what the open auction sells: AU_WIDOW, AU_OLD, AU_SUIT; -1 no auction open
V_HIGH = 17        # the auction's high bid (0 none)
V_HIGH_BY = 18     # its bidder, -1
V_ACTIVE = 19      # bit mask of the bidders who have not passed
V_PAY_SUIT = 20    # pay suit of the deal (0 C, 1 D, 2 H, 3 S)
V_SEQ = 21         # sequence start, ace-high rank index (2 -> 0 .. Q -> 10)
V_SUIT_BY = 22     # winner of the pay-suit auction, -1
V_SUIT_PRICE = 23  # its price
V_CUR_BET = 24     # highest total bet of the betting round
V_OWE = 25         # chips this seat must put in to call
V_RAISES = 26      # raises made in the betting round
V_POT = 27         # chips in the pot bet for (the Pot space; in a clearing round the clearing pot)
V_FOLDED = 28      # bit mask of the folded seats (this betting round)
V_ACTED = 29       # bit mask of the seats that acted since the last bet or raise
V_MAX_AMOUNT = 30  # largest bet or raise increment allowed now
V_MAX_RAISES = 31  # raises allowed per betting round (option; the guard when unlimited)
V_PLAYED = 32      # cards played in Phase 3 (mask)
V_BANNED = 33      # suit just stopped (may not be led), -1
V_COLOR = 34       # colour alternation: required colour 0 black 1 red, -1 off
V_FIRST_LEAD = 35  # 1 before the first lead of Phase 3
V_LEADS = 36       # leads made in Phase 3
V_POT_WIN = 37     # bit mask of the Phase-2 pot winners (0 before the showdown)
V_TIMING = 38      # payout timing: 0 Phase 1, 1 when played (Rummoli)
V_CLEARING = 39    # clearing round in play (0-based), -1 outside the clearing rounds
V_BOARD = 40       # V_BOARD + i: chips on board space i (SP_*)
V_HELD = 49        # V_HELD + p: cards seat p holds
V_CHIPS = 58       # V_CHIPS + p: seat p's balance change in this deal so far (antes included)
V_CONTRIB = 67     # V_CONTRIB + p: seat p's total bet in this betting round
V_SHOWN = 76       # V_SHOWN + p: cards of seat p's hand everybody has seen (its Phase-1 pay cards,
                   # its poker hand at a showdown)
VIEW_SIZE = 85
# mean poker strength (``strength``: category + place in it) of the best 5 of h random cards,
# h = 0..18 (h < 5 as 5); 100,000 random holdings per size. The heuristic's betting thresholds
# are set for opponents holding 9 cards and move with this curve (``PR_SIZE_SHIFT``).
TYPICAL_STRENGTH = (1.12, 1.12, 1.12, 1.12, 1.12, 1.12, 1.55, 2.10, 2.78, 3.51, 4.26, 4.90, 5.43,
                    5.84, 6.14, 6.37, 6.54, 6.69, 6.83)
REF_CARDS = 9
# quantiles (0 %, 2 %, .., 100 %) of the poker strength (``strength``) of the best 5 of h random
# cards, one row per h = 5..18 (``python scripts/studies/tripoli_strength_table.py``, 200,000 holdings a
# size). The expert's betting reads from it the chance that an opponent holding h cards is weaker.
STRENGTH_QUANTILES = np.array((
    # 5 cards
    (0, 0.038, 0.079, 0.117, 0.157, 0.197, 0.238, 0.278, 0.318, 0.358, 0.398, 0.439, 0.478, 0.517,
     0.557, 0.597, 0.637, 0.677, 0.717, 0.756, 0.796, 0.837, 0.877, 0.917, 0.957, 0.997, 1.042,
     1.091, 1.138, 1.186, 1.233, 1.28, 1.328, 1.375, 1.423, 1.47, 1.516, 1.564, 1.612, 1.658, 1.705,
     1.753, 1.8, 1.848, 1.896, 1.944, 1.991, 2.339, 2.769, 3.407, 8.7),
    # 6 cards
    (0.009, 0.137, 0.218, 0.29, 0.35, 0.436, 0.496, 0.547, 0.595, 0.659, 0.727, 0.776, 0.834, 0.868,
     0.926, 0.962, 0.993, 1.04, 1.075, 1.126, 1.162, 1.207, 1.249, 1.288, 1.334, 1.373, 1.42, 1.455,
     1.502, 1.535, 1.585, 1.615, 1.668, 1.709, 1.749, 1.795, 1.833, 1.875, 1.915, 1.962, 1.996,
     2.135, 2.298, 2.459, 2.625, 2.781, 2.945, 3.364, 3.907, 4.9, 8.9),
    # 7 cards
    (0.038, 0.329, 0.489, 0.58, 0.695, 0.815, 0.868, 0.948, 0.987, 1.034, 1.072, 1.126, 1.153,
     1.211, 1.259, 1.3, 1.354, 1.384, 1.441, 1.488, 1.531, 1.58, 1.614, 1.671, 1.715, 1.761, 1.81,
     1.844, 1.9, 1.942, 1.99, 2.044, 2.136, 2.224, 2.307, 2.393, 2.473, 2.562, 2.652, 2.73, 2.817,
     2.901, 2.979, 3.29, 3.689, 4, 4.5, 4.9, 5.614, 6.308, 8.9),
    # 8 cards
    (0.094, 0.607, 0.869, 0.987, 1.054, 1.118, 1.153, 1.23, 1.303, 1.377, 1.441, 1.512, 1.567,
     1.615, 1.688, 1.762, 1.826, 1.888, 1.923, 1.998, 2.057, 2.125, 2.189, 2.253, 2.307, 2.371,
     2.434, 2.495, 2.549, 2.601, 2.664, 2.716, 2.777, 2.828, 2.882, 2.935, 2.985, 3.228, 3.614, 4,
     4.2, 4.4, 4.7, 4.9, 5.168, 5.47, 5.768, 6.071, 6.404, 6.737, 8.9),
    # 9 cards
    (0.291, 1.042, 1.152, 1.288, 1.384, 1.535, 1.67, 1.769, 1.903, 1.999, 2.071, 2.136, 2.191,
     2.255, 2.317, 2.368, 2.422, 2.472, 2.524, 2.573, 2.627, 2.676, 2.716, 2.768, 2.815, 2.845,
     2.908, 2.948, 2.985, 3.205, 3.689, 4, 4.1, 4.3, 4.4, 4.6, 4.7, 4.9, 5.051, 5.221, 5.382, 5.543,
     5.706, 5.864, 6.019, 6.199, 6.372, 6.551, 6.724, 6.897, 8.9),
    # 10 cards
    (0.586, 1.378, 1.765, 2.024, 2.126, 2.204, 2.268, 2.345, 2.42, 2.46, 2.536, 2.575, 2.64, 2.689,
     2.74, 2.793, 2.83, 2.871, 2.934, 2.971, 2.998, 3.612, 4, 4.1, 4.3, 4.4, 4.5, 4.6, 4.7, 4.9,
     4.9, 5.073, 5.183, 5.29, 5.401, 5.507, 5.604, 5.709, 5.812, 5.912, 6, 6.115, 6.224, 6.34,
     6.442, 6.558, 6.66, 6.763, 6.872, 6.974, 8.9),
    # 11 cards
    (0.999, 2.127, 2.267, 2.371, 2.46, 2.562, 2.65, 2.702, 2.79, 2.831, 2.896, 2.958, 2.986, 3.998,
     4.1, 4.2, 4.3, 4.4, 4.6, 4.7, 4.8, 4.9, 4.9, 5.069, 5.156, 5.237, 5.317, 5.396, 5.478, 5.552,
     5.623, 5.706, 5.78, 5.854, 5.924, 5.987, 6.064, 6.141, 6.218, 6.295, 6.372, 6.449, 6.519,
     6.596, 6.667, 6.737, 6.808, 6.878, 6.942, 7.141, 8.9),
    # 12 cards
    (1.077, 2.408, 2.573, 2.691, 2.819, 2.932, 2.986, 4, 4.2, 4.3, 4.4, 4.6, 4.7, 4.9, 4.9, 5.027,
     5.105, 5.179, 5.252, 5.32, 5.385, 5.453, 5.516, 5.579, 5.637, 5.702, 5.764, 5.823, 5.875,
     5.934, 5.986, 6.051, 6.115, 6.167, 6.224, 6.288, 6.353, 6.404, 6.455, 6.519, 6.577, 6.622,
     6.679, 6.737, 6.788, 6.833, 6.891, 6.942, 6.987, 7.609, 8.9),
    # 13 cards
    (2.012, 2.691, 2.946, 4, 4.2, 4.5, 4.7, 4.9, 4.9, 5.058, 5.137, 5.207, 5.277, 5.338, 5.403,
     5.467, 5.522, 5.58, 5.632, 5.695, 5.75, 5.805, 5.856, 5.906, 5.953, 5.993, 6.058, 6.109, 6.147,
     6.212, 6.263, 6.301, 6.359, 6.404, 6.449, 6.5, 6.532, 6.59, 6.622, 6.673, 6.718, 6.756, 6.808,
     6.833, 6.885, 6.91, 6.962, 6.987, 7.365, 7.917, 8.9),
    # 14 cards
    (2.114, 4, 4.5, 4.8, 5.012, 5.11, 5.19, 5.271, 5.339, 5.409, 5.478, 5.534, 5.586, 5.641, 5.706,
     5.763, 5.816, 5.861, 5.909, 5.953, 5.99, 6.051, 6.071, 6.141, 6.192, 6.218, 6.282, 6.301,
     6.365, 6.391, 6.442, 6.481, 6.519, 6.558, 6.596, 6.635, 6.673, 6.686, 6.744, 6.763, 6.821,
     6.833, 6.885, 6.91, 6.942, 6.981, 6.994, 7.301, 7.756, 8.2, 8.9),
    # 15 cards
    (2.191, 4.9, 5.099, 5.213, 5.311, 5.393, 5.476, 5.543, 5.602, 5.668, 5.737, 5.791, 5.843, 5.889,
     5.937, 5.979, 6.038, 6.071, 6.128, 6.147, 6.212, 6.224, 6.288, 6.327, 6.365, 6.404, 6.442,
     6.455, 6.519, 6.532, 6.59, 6.603, 6.654, 6.679, 6.686, 6.744, 6.763, 6.808, 6.827, 6.84, 6.897,
     6.91, 6.917, 6.974, 6.987, 7.058, 7.372, 7.686, 7.994, 8.4, 8.9),
    # 16 cards
    (2.357, 5.175, 5.326, 5.448, 5.536, 5.608, 5.695, 5.767, 5.832, 5.875, 5.936, 5.977, 6.045,
     6.071, 6.135, 6.147, 6.212, 6.256, 6.295, 6.333, 6.372, 6.397, 6.442, 6.455, 6.513, 6.532,
     6.577, 6.603, 6.609, 6.667, 6.679, 6.724, 6.75, 6.763, 6.808, 6.827, 6.84, 6.885, 6.904, 6.91,
     6.942, 6.974, 6.987, 6.994, 7.218, 7.449, 7.686, 7.917, 8.2, 8.6, 8.9),
    # 17 cards
    (5.002, 5.355, 5.522, 5.629, 5.745, 5.831, 5.894, 5.956, 5.996, 6.064, 6.128, 6.147, 6.218,
     6.224, 6.295, 6.346, 6.372, 6.41, 6.449, 6.455, 6.519, 6.532, 6.583, 6.603, 6.609, 6.667,
     6.679, 6.686, 6.744, 6.756, 6.763, 6.821, 6.833, 6.84, 6.885, 6.904, 6.91, 6.917, 6.974, 6.987,
     6.994, 6.994, 7.218, 7.378, 7.603, 7.763, 7.987, 8.1, 8.4, 8.7, 8.9),
    # 18 cards
    (5.012, 5.547, 5.713, 5.84, 5.927, 5.987, 6.064, 6.135, 6.179, 6.224, 6.288, 6.301, 6.372,
     6.378, 6.442, 6.455, 6.519, 6.532, 6.583, 6.603, 6.609, 6.667, 6.679, 6.686, 6.744, 6.756,
     6.763, 6.814, 6.827, 6.833, 6.84, 6.897, 6.91, 6.917, 6.917, 6.974, 6.987, 6.994, 6.994, 7.071,
     7.224, 7.378, 7.532, 7.686, 7.84, 7.994, 8.1, 8.3, 8.6, 8.8, 8.9),
))

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

# record columns (one row per deal)
RC_SESSION = 0       # session number
RC_DEAL_NO = 1       # deal number inside the session
RC_DEALER = 2
RC_REASON = 3        # R_*
RC_WINNER = 4        # seat with the unique highest payout, -1
RC_MWIN = 5          # seat that went out in Phase 3, -1
RC_LEADS = 6         # Phase-3 leads
RC_TRUNC = 7
RC_ERR = 8
RC_WIDOW = 9         # W_* flags
RC_W_BUYER = 10
RC_W_PRICE = 11
RC_PAY_SUIT = 12
RC_SEQ = 13          # sequence start rank (2..12, 11 = J, 12 = Q)
RC_SUIT_BY = 14
RC_SUIT_PRICE = 15
RC_POT = 16          # chips contested in the poker pot
RC_POT_WIN = 17      # poker winners mask
RC_POKER_END = 18
RC_RAISES = 19
RC_FOLDED = 20
RC_CLEAR_PRIZE = 21  # chips pooled for the clearing rounds (last deal of a session)
RC_BOARD = 22        # RC_BOARD + i: chips on space i after the deal
RC_SEAT = RC_BOARD + 9
SC_PAY, SC_WIDOW, SC_PH1, SC_POKER, SC_MICH, SC_CLEAR, SC_HAND, SC_LEFT = range(8)
SEAT_COLS = 8
RECORD_COLS = RC_SEAT + SEAT_COLS * MAX_PLAYERS


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, 0, 0)


@njit(cache=True, inline='always')
def nxt(st, p):
    return (p + 1) % st[N]


@njit(cache=True, inline='always')
def ah_rank(c):
    """Ace-high rank index of a card: 2 -> 0 .. A -> 12."""
    return (c % 13 + 12) % 13


@njit(cache=True, inline='always')
def card_at(s, ah):
    return s * 13 + (ah + 1) % 13


@njit(cache=True, inline='always')
def next_card(c):
    """Next higher card of the same suit (-1 after an ace)."""
    ah = ah_rank(c)
    return -1 if ah == 12 else card_at(c // 13, ah + 1)


@njit(cache=True, inline='always')
def suit_ah(hand, s):
    """Ace-high rank bits of ``hand`` in suit s."""
    return PK.ace_high((hand >> (13 * s)) & LOW13)


@njit(cache=True, inline='always')
def lowest_in(hand, s):
    """Lowest card of suit s in ``hand`` (-1 if none)."""
    r = suit_ah(hand, s)
    return card_at(s, lowbit(r)) if r else -1


@njit(cache=True, inline='always')
def holder(st, c):
    for p in range(st[N]):
        if (st[HAND + p] >> c) & 1:
            return p
    return -1


@njit(cache=True, inline='always')
def pay_card(st, i):
    """Card id of single space i (A, K, Q, J, 10 of the pay suit)."""
    return st[PAY_SUIT] * 13 + (0, 12, 11, 10, 9)[i]


@njit(cache=True)
def to_board(st, p, space, amount, ledger):
    st[CHIPS + p] -= amount
    st[PH + ledger * MAX_PLAYERS + p] -= amount
    st[BOARD + space] += amount


@njit(cache=True)
def from_board(st, p, space, amount, ledger, trace):
    st[CHIPS + p] += amount
    st[PH + ledger * MAX_PLAYERS + p] += amount
    st[BOARD + space] -= amount
    log(st, trace, T_CLAIM, p, space, amount)


@njit(cache=True)
def transfer(st, payer, payee, amount, ledger):
    st[CHIPS + payer] -= amount
    st[PH + ledger * MAX_PLAYERS + payer] -= amount
    st[CHIPS + payee] += amount
    st[PH + ledger * MAX_PLAYERS + payee] += amount


@njit(cache=True)
def chips_total(st):
    t = st[CL_POT] + st[CL_RESERVE]
    for i in range(9):
        t += st[BOARD + i]
    for p in range(st[N]):
        t += st[CHIPS + p]
    return t


# =============================================================================
# the deal: antes, cards, dials
# =============================================================================
@njit(cache=True)
def reset_deal(st, opts, dealer):
    """Clear every per-deal field; keep N and the board."""
    for i in range(PHASE, ST_SIZE):
        if i < BOARD or i >= BOARD + 9:
            st[i] = 0
    for i in range(9):
        st[BOARD0 + i] = st[BOARD + i]
    for i in range(HCAT, HCAT + MAX_PLAYERS):
        st[i] = -1
    for f in (REASON, MWIN, W_SEEN, W_BUYER, HIGH_BY, SUIT_BY, BANNED, COLOR, LAST_P, LAST_C):
        st[f] = -1
    st[DEALER] = dealer
    st[PAY_SUIT] = opts[O_PAY_SUIT]
    st[SEQ] = opts[O_SEQ_START]
    st[TOTAL0] = chips_total(st)


@njit(cache=True)
def antes(st, opts, trace):
    log(st, trace, T_ANTE, -1, opts[O_ANTE], 0)
    for p in range(st[N]):
        for i in range(9):
            to_board(st, p, i, opts[O_ANTE], np.int64(L_ANTE))
    for i in range(9):
        log(st, trace, T_BOARD, -1, i, st[BOARD + i])


@njit(cache=True)
def deal_cards(st, opts, gdeck, deck, trace):
    """Shuffle and deal all 52 cards into n + 1 hands (section 3)."""
    n = st[N]
    for i in range(52):
        deck[i] = i
    shuffle(gdeck, deck, 0, 52)
    for i in range(52):
        j = i % (n + 1)                 # position in the deal order
        if not opts[O_WIDOW_LAST]:
            j = (j + n) % (n + 1)       # the widow first: position 0 -> widow
        if j == n:
            st[WIDOW] |= np.int64(1) << deck[i]
        else:
            st[HAND + (st[DEALER] + 1 + j) % n] |= np.int64(1) << deck[i]
    for p in range(n):
        log(st, trace, T_DEAL, p, st[HAND + p], 0)
    log(st, trace, T_DEAL, -1, st[WIDOW], 0)


@njit(cache=True)
def cosmo_dials(st, opts, gdeck, trace):
    """Cosmo: pay suit and sequence start drawn anew each deal (after the shuffle)."""
    if opts[O_COSMO]:
        st[PAY_SUIT] = below(gdeck, np.int64(4))
        st[SEQ] = below(gdeck, np.int64(11))
    log(st, trace, T_DIALS, -1, st[PAY_SUIT], st[SEQ])


@njit(cache=True)
def start_deal(st, opts, gdeck, deck, trace):
    antes(st, opts, trace)
    deal_cards(st, opts, gdeck, deck, trace)
    cosmo_dials(st, opts, gdeck, trace)
    if opts[O_WIDOW]:
        st[PHASE] = P_WIDOW
        st[CUR] = st[DEALER]
    else:
        after_widow(st, opts, trace)


# =============================================================================
# widow phase and auctions (section 4, variant 2)
# =============================================================================
@njit(cache=True)
def swap_with_widow(st, p):
    h = st[HAND + p]
    st[HAND + p] = st[WIDOW]
    st[WIDOW] = h
    st[W_SEEN] = p


@njit(cache=True)
def start_auction(st, opts, kind):
    n = st[N]
    st[AU_KIND] = kind
    st[HIGH] = 0
    st[HIGH_BY] = -1
    st[ACTIVE] = (1 << n) - 1
    if kind != AU_SUIT:
        st[ACTIVE] &= ~(1 << st[DEALER])
        st[CUR] = nxt(st, st[DEALER])
    else:
        st[CUR] = st[DEALER]
    st[PHASE] = P_AUCTION


@njit(cache=True)
def sold(st, opts, trace):
    """The auction ended with a buyer: pay and hand over what was sold."""
    b = st[HIGH_BY]
    x = st[HIGH]
    log(st, trace, T_SOLD, b, x, -1 if st[AU_KIND] == AU_SUIT else st[DEALER])
    if st[AU_KIND] == AU_SUIT:
        to_board(st, b, np.int64(SP_KITTY), x, np.int64(L_WIDOW))
        st[SUIT_BY] = b
        st[SUIT_PRICE] = x
        st[CUR] = b
        st[PHASE] = P_SUIT
        return
    transfer(st, b, st[DEALER], x, np.int64(L_WIDOW))
    swap_with_widow(st, b)
    st[W_BUYER] = b
    st[W_PRICE] = x
    st[W_ACT] |= W_SOLD_WIDOW if st[AU_KIND] == AU_WIDOW else W_SOLD_OLD
    after_widow(st, opts, trace)


@njit(cache=True)
def unsold(st, opts, trace):
    if st[AU_KIND] == AU_WIDOW:
        st[PHASE] = P_AFTER_UNSOLD
        st[CUR] = st[DEALER]
    elif st[AU_KIND] == AU_OLD:
        after_widow(st, opts, trace)
    else:
        selection_start(st, opts, trace)


@njit(cache=True)
def auction_step(st, opts, p, a, trace):
    """A bid or a pass by p; ends the auction when one bidder remains after a bid."""
    if (a & 15) == A_BID:
        st[HIGH] = a >> 8
        st[HIGH_BY] = p
        if st[HIGH] >= opts[O_MAX_BID] and opts[O_BID_GUARDED]:
            st[TRUNC] = 1
    else:
        st[ACTIVE] &= ~(1 << p)
    act = st[ACTIVE]
    if act == 0:
        unsold(st, opts, trace)
    elif popcount(act) == 1 and st[HIGH_BY] >= 0 and (act >> st[HIGH_BY]) & 1:
        sold(st, opts, trace)
    else:
        q = nxt(st, p)
        while not (act >> q) & 1:
            q = nxt(st, q)
        st[CUR] = q


@njit(cache=True)
def widow_action(st, opts, a, trace):
    kind = a & 15
    if kind == A_KEEP or kind == A_DONE:
        after_widow(st, opts, trace)
    elif kind == A_SWAP:
        st[OLD_HAND] = st[HAND + st[DEALER]]
        swap_with_widow(st, st[DEALER])
        st[W_ACT] |= W_SWAP
        st[PHASE] = P_AFTER_SWAP
    elif kind == A_AUCTION_WIDOW:
        st[W_ACT] |= W_AUCTION_WIDOW
        start_auction(st, opts, np.int64(AU_WIDOW))
    else:
        st[W_ACT] |= W_AUCTION_OLD
        start_auction(st, opts, np.int64(AU_OLD))


@njit(cache=True)
def after_widow(st, opts, trace):
    """Hands are final: the pay-suit auction (variant 2) or the poker hand choice."""
    if opts[O_SUIT_AUCTION]:
        start_auction(st, opts, np.int64(AU_SUIT))
    else:
        selection_start(st, opts, trace)


# =============================================================================
# Phase 1: pay cards (section 5)
# =============================================================================
@njit(cache=True)
def seq_suits(st, hand):
    """Number of suits in which ``hand`` holds the three sequence cards."""
    k = 0
    for s in range(4):
        if ((suit_ah(hand, s) >> st[SEQ]) & 7) == 7:
            k += 1
    return k


@njit(cache=True)
def phase1_sequence(st, opts, trace):
    units = 0
    for p in range(st[N]):
        k = seq_suits(st, st[HAND + p])
        units += (1 if k else 0) if opts[O_SEQ_SPLIT] == 0 else k
    if units == 0:
        return
    share = st[BOARD + SP_SEQ] // units
    for p in range(st[N]):
        k = seq_suits(st, st[HAND + p])
        if k:
            units = 1 if opts[O_SEQ_SPLIT] == 0 else k
            from_board(st, p, np.int64(SP_SEQ), share * units, np.int64(L_PAY), trace)


@njit(cache=True)
def phase1(st, opts, trace):
    """Pay cards collect their spaces (the widow's cards win nothing)."""
    for i in range(5):
        p = holder(st, pay_card(st, i))
        if p >= 0:
            from_board(st, p, i, st[BOARD + i], np.int64(L_PAY), trace)
    pk = holder(st, pay_card(st, 1))
    if pk >= 0 and pk == holder(st, pay_card(st, 2)):
        from_board(st, pk, np.int64(SP_KQ), st[BOARD + SP_KQ], np.int64(L_PAY), trace)
    phase1_sequence(st, opts, trace)


@njit(cache=True)
def rummoli_claims(st, opts, p, c, trace):
    """payout_timing=michigan: claims made by playing card c (variant 1)."""
    if c // 13 == st[PAY_SUIT]:
        for i in range(5):
            if c == pay_card(st, i):
                from_board(st, p, i, st[BOARD + i], np.int64(L_PAY), trace)
        if c == pay_card(st, 1) and st[LAST_P] == p and st[LAST_C] == pay_card(st, 2):
            from_board(st, p, np.int64(SP_KQ), st[BOARD + SP_KQ], np.int64(L_PAY), trace)
    if st[LAST_P] == p and st[LAST_C] >= 0 and next_card(st[LAST_C]) == c:
        st[RUN_LEN] += 1
    else:
        st[RUN_LEN] = 1
        st[RUN_START] = c
    if ah_rank(c) == st[SEQ] + 2 and st[RUN_LEN] >= 3 and ah_rank(st[RUN_START]) <= st[SEQ]:
        from_board(st, p, np.int64(SP_SEQ), st[BOARD + SP_SEQ], np.int64(L_PAY), trace)


# =============================================================================
# Phase 2: poker hand choice, betting, showdown (section 6); clearing rounds (section 9)
# =============================================================================
@njit(cache=True)
def selection_start(st, opts, trace):
    if opts[O_TIMING] == 0:
        phase1(st, opts, trace)
    st[PHASE] = P_SELECT
    st[CUR] = nxt(st, st[DEALER])
    st[SEL_LEFT] = st[N]
    st[PICKED_N] = 0


@njit(cache=True)
def pick(st, opts, c, trace):
    p = st[CUR]
    st[PICK + p] |= np.int64(1) << c
    st[PICKED_N] += 1
    if st[PICKED_N] < 5:
        return
    st[HCAT + p] = PK.eval5(st[PICK + p])
    st[PICKED_N] = 0
    st[SEL_LEFT] -= 1
    st[CUR] = nxt(st, p)
    if st[SEL_LEFT] == 0:
        betting_start(st, opts, st[DEALER], np.int64(0))


@njit(cache=True)
def betting_start(st, opts, dealer, ctx):
    st[BET_CTX] = ctx
    st[BET_DEALER] = dealer
    st[FOLDED] = 0
    st[CUR_BET] = 0
    st[RAISES] = 0
    st[ACTED] = 0
    for p in range(MAX_PLAYERS):
        st[CONTRIB + p] = 0
        st[BETS + p] = 0
        st[CALL_PRICE + p] = 0
        st[FOLD_PRICE + p] = 0
    st[CUR] = dealer if opts[O_FIRST_BETTOR] else (dealer + 1) % st[N]
    st[PHASE] = P_BET


@njit(cache=True, inline='always')
def raise_cap(opts):
    return opts[O_MAX_RAISES]


@njit(cache=True, inline='always')
def max_amount(st, opts):
    """Largest opening bet or raise increment allowed now (0: none)."""
    if opts[O_LIMIT_MODE] == 0:
        return opts[O_LIMIT]
    return max(0, opts[O_LIMIT] - st[CUR_BET])


@njit(cache=True)
def put_in(st, p, amount, trace):
    """Seat p's bet goes to the Pot space (Phase 2) or the clearing pot."""
    log(st, trace, T_STAKE, p, amount, st[BET_CTX])
    st[CONTRIB + p] += amount
    if st[BET_CTX] == 0:
        to_board(st, p, np.int64(SP_POT), amount, np.int64(L_POKER))
    else:
        st[CHIPS + p] -= amount
        st[PH + L_CLEAR * MAX_PLAYERS + p] -= amount
        st[CL_POT] += amount


@njit(cache=True)
def note_bet(st, p, kind):
    """Public bookkeeping of p's betting action (``BETS``, and the price of a call or a fold)."""
    owe = st[CUR_BET] - st[CONTRIB + p]
    pot = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    price = np.int64(1e6 * owe / max(pot + owe, 1))
    if kind == A_CHECK:
        st[BETS + p] |= B_CHECK
    elif kind == A_BET:
        st[BETS + p] |= B_BET
    elif kind == A_RAISE:
        st[BETS + p] |= B_RAISE
    elif kind == A_CALL:
        st[BETS + p] |= B_CALL
        st[CALL_PRICE + p] = max(st[CALL_PRICE + p], price)
    else:
        st[BETS + p] |= B_FOLD
        st[FOLD_PRICE + p] = price


@njit(cache=True)
def bet_action(st, opts, a, gdeck, deck, trace):
    p = st[CUR]
    kind = a & 15
    x = a >> 8
    note_bet(st, p, kind)
    if kind == A_CHECK or kind == A_CALL:
        put_in(st, p, st[CUR_BET] - st[CONTRIB + p], trace)
        st[ACTED] |= 1 << p
    elif kind == A_FOLD:
        st[FOLDED] |= 1 << p
    else:
        if kind == A_RAISE:
            st[RAISES] += 1
            if st[RAISES] >= opts[O_MAX_RAISES] and opts[O_RAISES_GUARDED]:
                st[TRUNC] = 1
        put_in(st, p, st[CUR_BET] + x - st[CONTRIB + p], trace)
        st[CUR_BET] += x
        st[ACTED] = 1 << p
    betting_next(st, opts, gdeck, deck, trace)


@njit(cache=True)
def betting_next(st, opts, gdeck, deck, trace):
    """Next bettor, or the end of the round (one left, or everybody matched)."""
    n = st[N]
    live = ((1 << n) - 1) & ~st[FOLDED]
    if popcount(live) == 1:
        round_won(st, opts, live, np.int64(1), gdeck, deck, trace)
        return
    if (st[ACTED] & live) == live:
        even = True
        for p in range(n):
            if (live >> p) & 1 and st[CONTRIB + p] != st[CUR_BET]:
                even = False
        if even:
            round_won(st, opts, showdown(st, live, trace), np.int64(0), gdeck, deck, trace)
            return
    q = nxt(st, st[CUR])
    while not (live >> q) & 1:
        q = nxt(st, q)
    st[CUR] = q


@njit(cache=True, inline='always')
def bet_hand(st, p):
    """(cards, strength class) seat p bets on: its poker hand, or its clearing-round cards."""
    if st[BET_CTX] == 0:
        return st[PICK + p], st[HCAT + p]
    return st[CLH + p], st[CLS + p]


@njit(cache=True)
def showdown(st, live, trace):
    """Mask of the seats with the best poker hand among ``live``."""
    best = -1
    win = 0
    for p in range(st[N]):
        if (live >> p) & 1:
            cards, v = bet_hand(st, p)
            log(st, trace, T_SHOW, p, cards, v)
            if v > best:
                best = v
                win = 0
            if v == best:
                win |= 1 << p
    return win


@njit(cache=True)
def first_from_left(st, mask, dealer):
    """First seat of ``mask`` going clockwise from the dealer's left."""
    q = (dealer + 1) % st[N]
    while not (mask >> q) & 1:
        q = nxt(st, q)
    return q


@njit(cache=True)
def round_won(st, opts, win, uncontested, gdeck, deck, trace):
    if st[BET_CTX] == 0:
        pot_won(st, opts, win, uncontested, trace)
        michigan_start(st, opts, trace)
    else:
        clearing_won(st, opts, win, gdeck, deck, trace)


@njit(cache=True)
def pot_won(st, opts, win, uncontested, trace):
    """Phase 2 result: winners split the Pot space; the odd chips stay on it."""
    st[POT] = st[BOARD + SP_POT]
    st[POT_WIN] = win
    st[POKER_END] = uncontested
    st[P2_RAISES] = st[RAISES]
    st[P2_FOLDED] = st[FOLDED]
    share = st[BOARD + SP_POT] // popcount(win)
    log(st, trace, T_POT, -1, win, share)
    for p in range(st[N]):
        if (win >> p) & 1:
            from_board(st, p, np.int64(SP_POT), share, np.int64(L_POKER), trace)


# ---- clearing rounds ----------------------------------------------------------------
@njit(cache=True)
def clearing_start(st, opts, gdeck, deck, trace):
    """After a session's last deal: pool the board into clearing_pots prizes."""
    total = 0
    for i in range(9):
        total += st[BOARD + i]
        st[BOARD + i] = 0
    st[CL_TOTAL] = total
    st[CL_RESERVE] = total
    st[CL_INDEX] = -1
    st[CL_LEFT] = opts[O_CLEARING]
    st[CL_FIRST] = nxt(st, st[DEALER])
    clearing_round(st, opts, gdeck, deck, trace)


@njit(cache=True)
def clearing_round(st, opts, gdeck, deck, trace):
    """Deal 5 cards to each seat for the next prize and open its betting."""
    st[CL_INDEX] += 1
    st[CL_LEFT] -= 1
    k = opts[O_CLEARING]
    j = st[CL_INDEX]
    prize = st[CL_TOTAL] // k + (1 if j < st[CL_TOTAL] % k else 0)
    st[CL_RESERVE] -= prize
    st[CL_POT] = prize
    dealer = (st[CL_FIRST] + j) % st[N]
    seed_stream(gdeck, st[SEED], st[DEAL_ID], np.int64(STREAM_CLEAR + j))
    for i in range(52):
        deck[i] = i
    shuffle(gdeck, deck, 0, 52)
    for p in range(st[N]):
        st[CLH + p] = 0
    for i in range(5 * st[N]):
        st[CLH + (dealer + 1 + i) % st[N]] |= np.int64(1) << deck[i]
    for p in range(st[N]):
        st[CLS + p] = PK.eval5(st[CLH + p])
    log(st, trace, T_CLEAR, -1, prize, dealer)
    for p in range(st[N]):
        log(st, trace, T_CLDEAL, p, st[CLH + p], st[CLS + p])
    betting_start(st, opts, dealer, np.int64(1))


@njit(cache=True)
def clearing_won(st, opts, win, gdeck, deck, trace):
    """The prize and the bets go to the winners; the odd chips to the first winner."""
    pot = st[CL_POT]
    k = popcount(win)
    first = first_from_left(st, win, st[BET_DEALER])
    log(st, trace, T_POT, -1, win, pot // k)
    for p in range(st[N]):
        if (win >> p) & 1:
            amount = pot // k + (pot % k if p == first else 0)
            log(st, trace, T_PRIZE, p, amount, 0)
            st[CHIPS + p] += amount
            st[PH + L_CLEAR * MAX_PLAYERS + p] += amount
    st[CL_POT] = 0
    if st[CL_LEFT] > 0:
        clearing_round(st, opts, gdeck, deck, trace)
    else:
        st[PHASE] = P_OVER


# =============================================================================
# Phase 3: Michigan (section 7)
# =============================================================================
@njit(cache=True)
def michigan_start(st, opts, trace):
    lead = opts[O_LEADER]
    if lead == 0:
        st[LEADER] = first_from_left(st, st[POT_WIN], st[DEALER])
    elif lead == 1:
        st[LEADER] = st[DEALER]
    else:
        st[LEADER] = nxt(st, st[DEALER])
    st[BANNED] = -1
    st[COLOR] = 0 if opts[O_COLOR] else -1
    st[FIRST_LEAD] = 1
    find_leader(st, opts, trace)


@njit(cache=True)
def cand_suits(st, opts):
    """Bit mask of the suits a lead may be made in now (before looking at the hand)."""
    if st[COLOR] >= 0:
        return 9 if st[COLOR] == 0 else 6            # black: C S; red: D H
    if st[FIRST_LEAD] and opts[O_FIRST_LOWEST]:
        return 15
    return 15 & ~(1 << st[BANNED]) if st[BANNED] >= 0 else 15


@njit(cache=True)
def suits_below(cand, ah):
    """Mask of the cards of the suits in ``cand`` of ace-high rank below ``ah``."""
    m = 0
    for s in range(4):
        if (cand >> s) & 1:
            for r in range(ah):
                m |= np.int64(1) << card_at(s, r)
    return m


@njit(cache=True)
def lead_suits(st, opts, hand):
    """Bit mask of the suits ``hand`` may lead now (sections 7 and 10.7, 10.8)."""
    cand = cand_suits(st, opts)
    low = 13
    for s in range(4):
        if (cand >> s) & 1 and suit_ah(hand, s):
            low = min(low, lowbit(suit_ah(hand, s)))
    if low == 13:
        return 0
    restrict = st[COLOR] >= 0 or (st[FIRST_LEAD] and opts[O_FIRST_LOWEST])
    out = 0
    for s in range(4):
        r = suit_ah(hand, s)
        if (cand >> s) & 1 and r and (not restrict or lowbit(r) == low):
            out |= 1 << s
    return out


@njit(cache=True)
def find_leader(st, opts, trace):
    """From LEADER clockwise, the first seat that can lead; none = blocked end."""
    p = st[LEADER]
    for _ in range(st[N]):
        if lead_suits(st, opts, st[HAND + p]):
            st[CUR] = p
            st[PHASE] = P_LEAD
            return
        st[NOTH + p] |= suits_below(cand_suits(st, opts), np.int64(13))   # public: none of these suits
        p = nxt(st, p)
    blocked_end(st, trace)


@njit(cache=True)
def play_card(st, opts, p, c, trace):
    """p plays c; returns True if that emptied p's hand (the deal is then over)."""
    st[HAND + p] &= ~(np.int64(1) << c)
    st[PLAYED] |= np.int64(1) << c
    log(st, trace, T_PLAY, p, c, 0)
    if opts[O_TIMING]:
        rummoli_claims(st, opts, p, c, trace)
    st[LAST_P] = p
    st[LAST_C] = c
    if st[HAND + p] == 0:
        went_out(st, p, trace)
        return True
    return False


@njit(cache=True)
def lead(st, opts, s, trace):
    """Lead the lowest card of suit s, then the forced sequence up to the stop."""
    p = st[CUR]
    st[LEADS] += 1
    c = lowest_in(st[HAND + p], s)
    restrict = st[COLOR] >= 0 or (st[FIRST_LEAD] and opts[O_FIRST_LOWEST])
    st[NOTH + p] |= suits_below(cand_suits(st, opts) if restrict else 1 << s, ah_rank(c))  # public: lowest led
    if play_card(st, opts, p, c, trace):
        return
    while True:
        nc = next_card(c)
        if nc < 0 or (st[WIDOW] >> nc) & 1 or (st[PLAYED] >> nc) & 1:
            break
        p = holder(st, nc)
        c = nc
        if play_card(st, opts, p, c, trace):
            return
    log(st, trace, T_STOP, p, c, 0)
    st[LEADER] = p
    st[BANNED] = c // 13
    if st[COLOR] >= 0:
        st[COLOR] ^= 1
    st[FIRST_LEAD] = 0
    find_leader(st, opts, trace)


@njit(cache=True)
def went_out(st, w, trace):
    """w played his last card: the kitty and 1 chip per card from every other hand."""
    st[MWIN] = w
    st[REASON] = R_OUT
    from_board(st, w, np.int64(SP_KITTY), st[BOARD + SP_KITTY], np.int64(L_MICHIGAN), trace)
    for p in range(st[N]):
        k = popcount(st[HAND + p])
        if p != w and k:
            transfer(st, p, w, k, np.int64(L_MICHIGAN))
            log(st, trace, T_PAYMENT, p, k, w)
    st[PHASE] = P_OVER


@njit(cache=True)
def blocked_end(st, trace):
    """Nobody can lead: every player pays 1 chip per card onto the kitty."""
    st[REASON] = R_BLOCKED
    for p in range(st[N]):
        k = popcount(st[HAND + p])
        to_board(st, p, np.int64(SP_KITTY), k, np.int64(L_MICHIGAN))
        log(st, trace, T_PAYMENT, p, k, -1)
    st[PHASE] = P_OVER


# =============================================================================
# legal actions
# =============================================================================
@njit(cache=True, inline='always')
def push(acts, n, a):
    acts[n] = a
    return n + 1


@njit(cache=True)
def legal_auction(st, opts, acts):
    n = push(acts, 0, A_PASS)
    lo = max(st[HIGH] + 1, opts[O_MIN_BID])
    hi = min(st[HIGH] + BID_STEPS, opts[O_MAX_BID])
    for x in range(lo, hi + 1):
        n = push(acts, n, A_BID | (x << 8))
    return n


@njit(cache=True)
def legal_bet(st, opts, acts):
    top = max_amount(st, opts)
    if st[CUR_BET] == 0:
        n = push(acts, 0, A_CHECK)
        for x in range(1, top + 1):
            n = push(acts, n, A_BET | (x << 8))
        return n
    n = push(acts, 0, A_FOLD)
    n = push(acts, n, A_CALL)
    if st[RAISES] < raise_cap(opts):
        for x in range(1, top + 1):
            n = push(acts, n, A_RAISE | (x << 8))
    return n


@njit(cache=True)
def legal_pick(st, acts):
    p = st[CUR]
    m = st[HAND + p] & ~st[PICK + p]
    n = 0
    while m:
        n = push(acts, n, A_PICK | (lowbit(m) << 8))
        m &= m - 1
    return n


@njit(cache=True)
def legal_actions(st, opts, acts):
    """Fill ``acts`` with the legal actions of the seat to decide; returns their number."""
    ph = st[PHASE]
    if ph == P_WIDOW:
        acts[0], acts[1], acts[2] = A_KEEP, A_SWAP, A_AUCTION_WIDOW
        return 3
    if ph == P_AFTER_SWAP:
        acts[0], acts[1] = A_DONE, A_AUCTION_OLD
        return 2
    if ph == P_AFTER_UNSOLD:
        acts[0], acts[1] = A_KEEP, A_SWAP
        return 2
    if ph == P_AUCTION:
        return legal_auction(st, opts, acts)
    if ph == P_SUIT:
        for s in range(4):
            acts[s] = A_SUIT | (s << 8)
        return 4
    if ph == P_SELECT:
        return legal_pick(st, acts)
    if ph == P_BET:
        return legal_bet(st, opts, acts)
    if ph == P_LEAD:
        m = lead_suits(st, opts, st[HAND + st[CUR]])
        n = 0
        for s in range(4):
            if (m >> s) & 1:
                n = push(acts, n, A_LEAD | (s << 8))
        return n
    return 0


@njit(cache=True)
def apply_action(st, opts, a, gdeck, deck, trace):
    """Play action ``a`` for the seat to decide (it must be legal)."""
    log(st, trace, T_ACTION, st[CUR], a, 0)
    st[STEPS] += 1
    ph = st[PHASE]
    kind = a & 15
    if ph <= P_AFTER_UNSOLD:
        widow_action(st, opts, a, trace)
    elif ph == P_AUCTION:
        auction_step(st, opts, st[CUR], a, trace)
    elif ph == P_SUIT:
        st[PAY_SUIT] = a >> 8
        selection_start(st, opts, trace)
    elif ph == P_SELECT:
        pick(st, opts, a >> 8, trace)
    elif ph == P_BET:
        bet_action(st, opts, a, gdeck, deck, trace)
    elif kind == A_LEAD:
        lead(st, opts, a >> 8, trace)


# =============================================================================
# strategies
# =============================================================================
@njit(cache=True)
def pay_value(st, hand):
    """Chips the pay cards of ``hand`` would collect from the board now (Phase 1 rules)."""
    v = 0
    for i in range(5):
        if (hand >> pay_card(st, i)) & 1:
            v += st[BOARD + i]
    if (hand >> pay_card(st, 1)) & 1 and (hand >> pay_card(st, 2)) & 1:
        v += st[BOARD + SP_KQ]
    if seq_suits(st, hand):
        v += st[BOARD + SP_SEQ]
    return v


@njit(cache=True)
def strength(cls):
    """Poker strength on a 0..9 scale: category + position inside the category."""
    c = PK.category(cls)
    return c + (cls - PK.BASE[c]) / (PK.BASE[c + 1] - PK.BASE[c])


@njit(cache=True)
def hand_value(st, hand, prm):
    return strength(PK.best5(hand)[0]) + prm[PR_PAY_WEIGHT] * pay_value(st, hand)


@njit(cache=True)
def find(acts, n, kind, x):
    """Index of action kind (payload x; -1 = any) in acts[:n], else -1."""
    for i in range(n):
        if (acts[i] & 15) == kind and (x < 0 or (acts[i] >> 8) == x):
            return i
    return -1


@njit(cache=True)
def widow_choice(st, acts, n, prm):
    ph = st[PHASE]
    if ph == P_AFTER_SWAP:
        return 1 if prm[PR_SELL_OLD] > 0.5 else 0
    if ph == P_WIDOW and prm[PR_AUCTION_WIDOW] > 0.5:
        return 2
    weak = hand_value(st, st[HAND + st[DEALER]], prm) < prm[PR_SWAP_BELOW]
    return 1 if weak else 0


@njit(cache=True)
def suit_values(st, hand, out):
    """Chips each suit's pay spaces would give ``hand`` as the pay suit."""
    keep = st[PAY_SUIT]
    for s in range(4):
        st[PAY_SUIT] = s
        out[s] = pay_value(st, hand) - (st[BOARD + SP_SEQ] if seq_suits(st, hand) else 0)
    st[PAY_SUIT] = keep


@njit(cache=True)
def auction_choice(st, acts, n, prm):
    """Bid the minimum while the price stays within the strategy's value, else pass. A weak
    hand bids up to ``bid_max`` for the unseen widow and ``bid_old_max`` for the dealer's old
    hand (seen by the dealer, so adversely selected)."""
    p = st[CUR]
    if st[AU_KIND] == AU_SUIT:
        vals = np.zeros(4, np.int64)
        suit_values(st, st[HAND + p], vals)
        limit = min(prm[PR_SUIT_BID_MAX], vals.max())
    else:
        weak = hand_value(st, st[HAND + p], prm) < prm[PR_SWAP_BELOW]
        cap = prm[PR_BID_MAX] if st[AU_KIND] == AU_WIDOW else prm[PR_BID_OLD_MAX]
        limit = cap if weak else 0.0
    if n > 1 and (acts[1] >> 8) <= limit:
        return 1
    return 0


@njit(cache=True)
def typical(h):
    """``TYPICAL_STRENGTH`` at a (fractional) hand size h, linear between sizes."""
    h = min(max(h, 5.0), 18.0)
    i = min(np.int64(h), 17)
    f = h - i
    return TYPICAL_STRENGTH[i] * (1.0 - f) + TYPICAL_STRENGTH[i + 1] * f


@njit(cache=True)
def bet_shift(st, p, prm):
    """Threshold shift for the table seat p faces: ``size_shift`` x (typical strength of the
    live opponents' mean hand size - that of 9 cards) + ``opp_shift`` per live opponent above
    4 + ``pos_shift`` per live opponent still to act after p (since the last bet or raise, or
    since the round opened). Public facts only (hand sizes, folds, who has acted)."""
    k = 0
    behind = 0
    cards = 0
    for q in range(st[N]):
        if q != p and not (st[FOLDED] >> q) & 1:
            k += 1
            cards += 5 if st[BET_CTX] else popcount(st[HAND + q])
            if not (st[ACTED] >> q) & 1:
                behind += 1
    h = cards / max(k, 1)
    return (prm[PR_SIZE_SHIFT] * (typical(h) - typical(np.float64(REF_CARDS))) + prm[PR_OPP_SHIFT] * (k - 4)
            + prm[PR_POS_SHIFT] * behind)


@njit(cache=True)
def bet_choice(st, opts, acts, n, prm, gplay):
    """Thresholds on the own poker strength, moved by ``bet_shift``: open with a bet of
    ``bet_size`` at ``bet_at``, else bluff with probability ``bluff`` (a bet of ``bluff_size``);
    facing a bet, raise by ``bet_size`` at ``raise_at``, call at ``call_at`` + ``odds_weight`` x
    (price - 1/3) where price = chips to call / (pot after the call), else fold."""
    p = st[CUR]
    q = strength(bet_hand(st, p)[1])
    shift = bet_shift(st, p, prm)
    top = max_amount(st, opts)
    size = max(1, min(top, np.int64(prm[PR_BET_SIZE])))
    if st[CUR_BET] == 0:
        i = -1
        if q >= prm[PR_BET_AT] + shift:
            i = find(acts, n, np.int64(A_BET), size)
        elif prm[PR_BLUFF] > 0 and top >= 1 and uniform(gplay) < prm[PR_BLUFF]:
            i = find(acts, n, np.int64(A_BET), max(1, min(top, np.int64(prm[PR_BLUFF_SIZE]))))
        return max(i, 0)
    i = find(acts, n, np.int64(A_RAISE), size) if q >= prm[PR_RAISE_AT] + shift else -1
    if i >= 0:
        return i
    owe = st[CUR_BET] - st[CONTRIB + p]
    if owe <= 0:
        return 1
    pot = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    price = owe / (pot + owe)
    return 1 if q >= prm[PR_CALL_AT] + shift + prm[PR_ODDS_WEIGHT] * (price - 1.0 / 3.0) else 0


@njit(cache=True)
def lead_score(st, hand, s, prm):
    """Cards shed by leading suit s, plus a bonus when the run ends in an own stop."""
    c = lowest_in(hand, s)
    run = 1
    nc = next_card(c)
    while nc >= 0 and (hand >> nc) & 1:
        run += 1
        c = nc
        nc = next_card(c)
    stop = nc < 0 or (st[PLAYED] >> nc) & 1
    length = popcount(hand & (np.int64(LOW13) << (13 * s)))
    return length + prm[PR_RUN_WEIGHT] * run + (prm[PR_STOP_BONUS] if stop else 0.0)


@njit(cache=True)
def lead_choice(st, acts, n, prm):
    hand = st[HAND + st[CUR]]
    best = -1e300
    bi = 0
    for i in range(n):
        v = lead_score(st, hand, acts[i] >> 8, prm)
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True)
def michigan_cards(st, hand):
    """Cards of ``hand`` worth hiding from a showdown: the pay-suit A K Q J 10 and the three
    sequence cards of every suit in which the hand holds them all."""
    m = 0
    for i in range(5):
        m |= np.int64(1) << pay_card(st, i)
    for s in range(4):
        if ((suit_ah(hand, s) >> st[SEQ]) & 7) == 7:
            for k in range(3):
                m |= np.int64(1) << card_at(s, st[SEQ] + k)
    return hand & m


@njit(cache=True)
def poker_target(st, hand, prm):
    """The 5 poker cards: the best five, or the best five without the ``michigan_cards`` when
    that costs at most ``hide_margin`` poker strength (and leaves 5 cards)."""
    v, m = PK.best5(hand)
    if prm[PR_HIDE_MARGIN] > 0:
        rest = hand & ~michigan_cards(st, hand)
        if rest != hand and popcount(rest) >= 5:
            v2, m2 = PK.best5(rest)
            if strength(v) - strength(v2) <= prm[PR_HIDE_MARGIN]:
                return m2
    return m


@njit(cache=True)
def pick_choice(st, acts, n, prm):
    p = st[CUR]
    want = poker_target(st, st[HAND + p], prm) & ~st[PICK + p]
    return find(acts, n, np.int64(A_PICK), lowbit(want))


@njit(cache=True)
def suit_choice(st, prm):
    vals = np.zeros(4, np.int64)
    suit_values(st, st[HAND + st[CUR]], vals)
    return np.argmax(vals)


@njit(cache=True)
def fuzz_choice(acts, n, gplay):
    """A uniformly random action kind among the legal ones, then a uniform action of that kind:
    auctions pass half the time (they end), bets and raises are a third of the choices."""
    kinds = 0
    for i in range(n):
        kinds |= 1 << (acts[i] & 15)
    k = below(gplay, popcount(kinds))
    while k:
        kinds &= kinds - 1
        k -= 1
    kind = lowbit(kinds)
    m = 0
    for i in range(n):
        if (acts[i] & 15) == kind:
            m += 1
    j = below(gplay, m)
    for i in range(n):
        if (acts[i] & 15) == kind:
            if j == 0:
                return i
            j -= 1
    return 0


# ---- the expert (issue 41): bets by the chance of holding the best hand, leads to known stops
# and to a sure way out ----
@njit(cache=True)
def weaker(h, v):
    """Chance that the best 5 of h random cards are weaker than poker strength v
    (``STRENGTH_QUANTILES``, linear between its quantiles)."""
    row = STRENGTH_QUANTILES[min(max(h, 5), 18) - 5]
    k = row.shape[0] - 1
    if v <= row[0]:
        return 0.0
    if v >= row[k]:
        return 1.0
    i = np.searchsorted(row, v, side="right") - 1
    lo = row[i]
    hi = row[i + 1]
    f = (v - lo) / (hi - lo) if hi > lo else 1.0
    return (i + f) / k


@njit(cache=True)
def best_chance(st, p, v, prm):
    """Seat p's chance that its poker strength v beats every live opponent of the betting round:
    the product over them of ``weaker`` at their hand size (5 in a clearing round), where a seat
    that bet or raised this round is taken to hold the top ``raise_range`` of its hands and one
    that called the top ``call_range``. Public facts only (hand sizes, folds, bets)."""
    eq = 1.0
    for q in range(st[N]):
        if q == p or (st[FOLDED] >> q) & 1:
            continue
        h = 5 if st[BET_CTX] else popcount(st[HAND + q])
        f = weaker(h, v)
        r = 1.0
        if st[BETS + q] & (B_BET | B_RAISE):
            r = prm[PR_RAISE_RANGE]
        elif st[BETS + q] & B_CALL:
            r = prm[PR_CALL_RANGE]
        if r < 1.0:
            f = min(max((f - (1.0 - r)) / max(r, 1e-9), 0.0), 1.0)
        eq *= f
    return eq


@njit(cache=True)
def pot_size(st, opts, eq, pot, prm):
    """A bet or raise of ``bet_frac`` x the pot, within the limits (at least 1)."""
    return max(1, min(max_amount(st, opts), np.int64(prm[PR_BET_FRAC] * pot + 0.5)))


@njit(cache=True)
def expert_bet(st, opts, acts, n, prm, gplay):
    """Bet or raise ``bet_frac`` x the pot when the chance of the best hand (``best_chance``) is
    at least ``value_eq`` (opening) or ``raise_eq`` (facing a bet); open with the same size as a
    bluff with probability ``bluff``; call when the chance is at least the pot odds (chips to
    call / pot after the call) + ``call_margin``, else fold."""
    p = st[CUR]
    eq = best_chance(st, p, strength(bet_hand(st, p)[1]), prm)
    pot = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    if st[CUR_BET] == 0:
        if eq >= prm[PR_VALUE_EQ] or (prm[PR_BLUFF] > 0 and max_amount(st, opts) >= 1
                                     and uniform(gplay) < prm[PR_BLUFF]):
            return max(find(acts, n, np.int64(A_BET), pot_size(st, opts, eq, pot, prm)), 0)
        return 0
    owe = st[CUR_BET] - st[CONTRIB + p]
    if eq >= prm[PR_RAISE_EQ]:
        i = find(acts, n, np.int64(A_RAISE), pot_size(st, opts, eq, pot + owe, prm))
        if i >= 0:
            return i
    if owe <= 0:
        return 1
    return 1 if eq >= owe / (pot + owe) + prm[PR_CALL_MARGIN] else 0


@njit(cache=True)
def expert_likelihood(st, q, v, pprm):
    """How likely the expert (row ``pprm``) with poker strength v would have made seat q's betting
    actions of this round, judged at the table as it is now (``bet_likelihood``'s analogue)."""
    f = st[BETS + q]
    if f == 0:
        return 1.0
    eq = best_chance(st, q, v, pprm)
    bluff = min(max(pprm[PR_BLUFF], BET_EPS), 1.0 - BET_EPS)
    like = 1.0
    if f & B_RAISE and eq < pprm[PR_RAISE_EQ]:
        like *= BET_EPS
    if f & B_BET and eq < pprm[PR_VALUE_EQ]:
        like *= bluff
    if f & B_CHECK:
        like *= BET_EPS if eq >= pprm[PR_VALUE_EQ] else 1.0 - bluff
    if f & B_CALL and eq < st[CALL_PRICE + q] / 1e6 + pprm[PR_CALL_MARGIN]:
        like *= BET_EPS
    if f & B_FOLD and eq >= st[FOLD_PRICE + q] / 1e6 + pprm[PR_CALL_MARGIN]:
        like *= BET_EPS
    return like


@njit(cache=True)
def known_widow(st, opts, p):
    """Widow cards seat p knows: the whole widow if it has seen it, else the pay cards nobody
    claimed in Phase 1 and the cards a Phase-3 stop showed (their lower neighbour was played)."""
    w = st[WIDOW]
    if st[W_SEEN] == p:
        return w
    known = w & public_cards(st, opts)[0]
    m = w if st[PLAYED] else 0            # stops happen in Phase 3 only
    while m:
        c = lowbit(m)
        m &= m - 1
        if ah_rank(c) > 0 and (st[PLAYED] >> card_at(c // 13, ah_rank(c) - 1)) & 1:
            known |= np.int64(1) << c      # its lower neighbour was played: a stop showed it
    return known


@njit(cache=True)
def own_run(hand, dead, s):
    """Lead suit s from ``hand`` (its lowest card): (own cards the run plays, RUN_STOP when it
    surely stops after an own card (an ace next, or a dead card: played or known in the widow),
    RUN_OUT when it plays the last card of the hand, RUN_OPEN when the next card is not the
    seat's and not known dead)."""
    c = lowest_in(hand, s)
    shed = np.int64(0)
    while True:
        shed |= np.int64(1) << c
        if shed == hand:
            return shed, RUN_OUT
        nc = next_card(c)
        if nc < 0 or (dead >> nc) & 1:
            return shed, RUN_STOP
        if not (hand >> nc) & 1:
            return shed, RUN_OPEN
        c = nc


@njit(cache=True)
def sure_out(hand, dead, banned, depth):
    """1 if some lead other than suit ``banned`` starts at most ``depth`` leads in a row (each
    but the last a sure stop by the seat, the next one never the suit just stopped) that surely
    empty ``hand``."""
    for s in range(4):
        if s == banned or lowest_in(hand, s) < 0:
            continue
        shed, how = own_run(hand, dead, s)
        if how == RUN_OUT:
            return 1
        if how == RUN_STOP and depth > 1 and sure_out(hand & ~shed, dead | shed, s, depth - 1):
            return 1
    return 0


@njit(cache=True)
def widow_chance(st, opts, p, hand, known):
    """The chance that a card seat p has not seen (not in its hand, played, known in the widow
    ``known`` or shown by another seat) lies in the widow: the widow's unknown cards over all."""
    pay, shown = public_cards(st, opts)
    seen = hand | st[PLAYED] | known
    for q in range(st[N]):
        if q != p:
            seen |= shown_of(st, q, pay, shown)
    unseen = 52 - popcount(seen)
    hidden = popcount(st[WIDOW]) - popcount(known)
    return hidden / unseen if unseen > 0 else 0.0


@njit(cache=True)
def expert_lead(st, opts, acts, n, prm):
    """``lead_choice``, where with ``widow_stops`` a run that ends below a card the seat knows is
    in the widow is a stop too (the lead comes back); with ``lead_plan`` a lead that starts a
    sure way out (up to that many leads, each but the last a sure stop) comes first; with
    ``lead_chance`` a run that ends below an unseen card is a stop with lead_chance x the chance
    that the card lies in the widow. Without the colour rule only (under it the leads the plan
    assumes may not be allowed)."""
    p = st[CUR]
    hand = st[HAND + p]
    dead = st[PLAYED]
    known = np.int64(0)
    if prm[PR_WIDOW_STOPS] > 0.5:
        known = known_widow(st, opts, p)
        dead |= known
    plan = int(prm[PR_LEAD_PLAN]) if st[COLOR] < 0 else 0
    if plan > 0:
        for i in range(n):
            s = acts[i] >> 8
            shed, how = own_run(hand, dead, s)
            if how == RUN_OUT or (how == RUN_STOP and plan > 1
                                  and sure_out(hand & ~shed, dead | shed, s, plan - 1)):
                return i
    chance = 0.0
    if prm[PR_LEAD_CHANCE] > 0.0:
        chance = prm[PR_LEAD_CHANCE] * widow_chance(st, opts, p, hand, known)
    best = -1e300
    bi = 0
    for i in range(n):
        s = acts[i] >> 8
        c = lowest_in(hand, s)
        run = 1
        nc = next_card(c)
        while nc >= 0 and (hand >> nc) & 1:
            run += 1
            nc = next_card(nc)
        stop = 1.0 if nc < 0 or (dead >> nc) & 1 else chance
        length = popcount(hand & (np.int64(LOW13) << (13 * s)))
        v = length + prm[PR_RUN_WEIGHT] * run + prm[PR_STOP_BONUS] * stop
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True)
def choose(st, opts, acts, n, sid, prm, gplay):
    """Index of the action strategy ``sid`` picks among acts[:n]."""
    if sid == S_RANDOM:
        return below(gplay, n)
    if sid == S_FUZZ:
        return fuzz_choice(acts, n, gplay)
    ph = st[PHASE]
    if ph <= P_AFTER_UNSOLD:
        return widow_choice(st, acts, n, prm)
    if ph == P_AUCTION:
        return auction_choice(st, acts, n, prm)
    if ph == P_SUIT:
        return suit_choice(st, prm)
    if ph == P_SELECT:
        return pick_choice(st, acts, n, prm)
    if ph == P_BET:
        if sid == S_EXPERT:
            return expert_bet(st, opts, acts, n, prm, gplay)
        return bet_choice(st, opts, acts, n, prm, gplay)
    if sid == S_EXPERT:
        return expert_lead(st, opts, acts, n, prm)
    return lead_choice(st, acts, n, prm)


# =============================================================================
# plug-in strategies: the decision kind, the seat's view, the plug-in's choice
# =============================================================================
@njit(cache=True, inline='always')
def decision_kind(st):
    """The K_* kind of the decision to take now."""
    ph = st[PHASE]
    if ph <= P_AFTER_UNSOLD:
        return K_WIDOW
    if ph == P_AUCTION:
        return K_SUIT_BID if st[AU_KIND] == AU_SUIT else K_BID
    if ph == P_SUIT:
        return K_SUIT
    if ph == P_SELECT:
        return K_PICK
    if ph == P_BET:
        return K_CLEAR_BET if st[BET_CTX] else K_BET
    return K_LEAD


@njit(cache=True)
def public_cards(st, opts):
    """(pay cards shown by Phase 1, 1 if the Phase-2 showdown has shown the live seats' poker
    hands): what every seat has seen of the other hands."""
    pay = 0
    if opts[O_TIMING] == 0 and st[PHASE] >= P_SELECT:
        for i in range(5):
            pay |= np.int64(1) << pay_card(st, i)
    shown = st[POKER_END] == 0 and (st[PHASE] == P_LEAD or (st[PHASE] == P_BET and st[BET_CTX] == 1))
    return pay, shown


@njit(cache=True, inline='always')
def shown_of(st, q, pay, shown):
    """Cards of seat q's hand everybody has seen (``public_cards``' pay cards; its poker hand
    at a showdown unless it folded)."""
    h = st[HAND + q]
    s = h & pay
    if shown and not (st[P2_FOLDED] >> q) & 1:
        s |= h & st[PICK + q]
    return s


@njit(cache=True)
def fill_view(st, opts, view):
    """What the seat to decide may see, into ``view`` (the V_* layout): its own hand and poker
    cards, the widow only if it has seen it (else its public cards), the dealer's old hand to
    the dealer, and public facts (board, chips, auctions, bets, folds, played cards, hand sizes,
    cards shown); never another hand, an unseen widow card or another seat's unshown picks."""
    p = st[CUR]
    n = st[N]
    view[V_SEAT] = p
    view[V_KIND] = decision_kind(st)
    view[V_PHASE] = st[PHASE]
    view[V_PLAYERS] = n
    view[V_DEALER] = st[DEALER]
    view[V_DEAL_NO] = st[DEAL_NO]
    view[V_DEALS] = opts[O_DEALS]
    view[V_HAND] = st[HAND + p]
    view[V_PICK] = st[PICK + p]
    cards, cls = bet_hand(st, p)
    if st[BET_CTX] == 0 and popcount(cards) < 5:
        cards, cls = 0, -1
    view[V_BET_HAND] = cards
    view[V_BET_CLASS] = cls
    pay, shown = public_cards(st, opts)
    view[V_WIDOW] = known_widow(st, opts, p)
    view[V_OLD_HAND] = st[OLD_HAND] if p == st[DEALER] else 0
    view[V_W_ACT] = st[W_ACT]
    view[V_W_BUYER] = st[W_BUYER]
    view[V_W_PRICE] = st[W_PRICE]
    view[V_AUCTION] = st[AU_KIND] if st[PHASE] == P_AUCTION else -1
    view[V_HIGH] = st[HIGH]
    view[V_HIGH_BY] = st[HIGH_BY]
    view[V_ACTIVE] = st[ACTIVE]
    view[V_PAY_SUIT] = st[PAY_SUIT]
    view[V_SEQ] = st[SEQ]
    view[V_SUIT_BY] = st[SUIT_BY]
    view[V_SUIT_PRICE] = st[SUIT_PRICE]
    view[V_CUR_BET] = st[CUR_BET]
    view[V_OWE] = st[CUR_BET] - st[CONTRIB + p]
    view[V_RAISES] = st[RAISES]
    view[V_POT] = st[BOARD + SP_POT] if st[BET_CTX] == 0 else st[CL_POT]
    view[V_FOLDED] = st[FOLDED]
    view[V_ACTED] = st[ACTED]
    view[V_MAX_AMOUNT] = max_amount(st, opts)
    view[V_MAX_RAISES] = opts[O_MAX_RAISES]
    view[V_PLAYED] = st[PLAYED]
    view[V_BANNED] = st[BANNED]
    view[V_COLOR] = st[COLOR]
    view[V_FIRST_LEAD] = st[FIRST_LEAD]
    view[V_LEADS] = st[LEADS]
    view[V_POT_WIN] = st[POT_WIN]
    view[V_TIMING] = opts[O_TIMING]
    view[V_CLEARING] = st[CL_INDEX] if st[BET_CTX] == 1 else -1
    if st[BET_CTX] == 1:
        view[V_DEALER] = st[BET_DEALER]
    for i in range(9):
        view[V_BOARD + i] = st[BOARD + i]
    for q in range(MAX_PLAYERS):            # seats beyond the table: 0
        live = q < n
        h = st[HAND + q] if live else 0
        view[V_HELD + q] = popcount(h)
        view[V_CHIPS + q] = st[CHIPS + q] if live else 0
        view[V_CONTRIB + q] = st[CONTRIB + q] if live else 0
        view[V_SHOWN + q] = shown_of(st, q, pay, shown) if live else 0


@njit(cache=True, inline='always')
def plugin_pick(st, opts, acts, n, plug, pprm, view, legal):
    """A plug-in seat's choice: ``plug(view, legal, n, pprm)`` on its view and a copy of the
    legal actions, for the decision kinds in its mask; -1 leaves the choice to its base
    built-in (so does a kind it is not asked), -2 is an illegal answer (E_PLUGIN)."""
    if not (int(pprm[PLUG_KINDS]) >> decision_kind(st)) & 1:
        return -1
    fill_view(st, opts, view)
    legal[:n] = acts[:n]
    i = plug(view, legal[:n], n, pprm)
    if i == -1 or 0 <= i < n:
        return i
    return -2


# =============================================================================
# search (issue 19): determinized Monte Carlo over the legal actions
# =============================================================================
SEARCH_TRIES = 64   # deals of the hidden cards tried per world before the constraints are dropped
BET_EPS = 0.02      # likelihood of a betting action the rollout policy would not have made with the hand


@njit(cache=True)
def stop_widow(st):
    """Widow cards every seat knows: unplayed cards whose lower neighbour has been played (the
    sequence stopped there, so the card is in the widow)."""
    known = 0
    m = st[WIDOW] if st[PLAYED] else 0
    while m:
        c = lowbit(m)
        m &= m - 1
        if ah_rank(c) > 0 and (st[PLAYED] >> card_at(c // 13, ah_rank(c) - 1)) & 1:
            known |= np.int64(1) << c
    return known


@njit(cache=True)
def seq_count(st, opts, hand):
    """What Phase 1 shows of ``hand``'s sequences: whether it holds one (per player), or how many."""
    k = seq_suits(st, hand)
    return k if opts[O_SEQ_SPLIT] else min(k, 1)


@njit(cache=True)
def deal_hidden(st, opts, p, g, cards, m, need, forbid, out, seqs, strict):
    """One deal of the ``m`` hidden cards ``cards`` (their order is shuffled here) into the slots
    (seats but ``p``; slot n = the widow) with ``need`` free places each, into ``out``. Strict:
    every card avoids the slots that may not hold it (``forbid``) and the seats' Phase-1 sequences
    come out as shown (``seqs`` >= 0); False when that fails. Not strict: cards fill the slots in
    shuffled order."""
    n = st[N]
    shuffle_prefix(cards, m, g)
    for s in range(n + 1):
        out[s] = 0
    if not strict:
        k = 0
        for s in range(n + 1):
            if s != p:
                for _ in range(need[s]):
                    out[s] |= np.int64(1) << cards[k]
                    k += 1
        return True
    free = np.empty(MAX_PLAYERS + 1, np.int64)
    allowed = np.empty(52, np.int64)
    for s in range(n + 1):
        free[s] = need[s] if s != p else 0
    for i in range(m):                      # most constrained cards first (stable: the shuffle decides ties)
        a = 0
        for s in range(n + 1):
            if free[s] > 0 and not (forbid[s] >> cards[i]) & 1:
                a |= 1 << s
        allowed[i] = a
    order = np.empty(52, np.int64)
    k = 0
    for cnt in range(n + 2):
        for i in range(m):
            if popcount(allowed[i]) == cnt:
                order[k] = i
                k += 1
    for j in range(m):
        c = cards[order[j]]
        a = allowed[order[j]]
        tot = 0
        for s in range(n + 1):
            if (a >> s) & 1:
                tot += free[s]
        if tot == 0:
            return False
        r = below(g, tot)
        for s in range(n + 1):
            if (a >> s) & 1:
                if r < free[s]:
                    out[s] |= np.int64(1) << c
                    free[s] -= 1
                    break
                r -= free[s]
    for s in range(n):
        if s != p and seqs[s] >= 0 and seq_count(st, opts, out[s]) != seqs[s]:
            return False
    return True


@njit(cache=True)
def policy_pick(st, hand, sid, pprm):
    """The 5 poker cards the rollout policy would choose from ``hand``."""
    if sid == S_HEURISTIC or sid == S_EXPERT:
        return poker_target(st, hand, pprm)
    return PK.best5(hand)[1]


@njit(cache=True)
def bet_likelihood(st, q, v, pprm):
    """How likely the heuristic policy (row ``pprm``) with poker strength ``v`` would have made
    seat q's betting actions of this round (``BETS``, ``CALL_PRICE``, ``FOLD_PRICE``): 1 or the
    bluff odds where they fit its thresholds (moved by ``bet_shift`` as the table is now), else
    BET_EPS. A search weighs its worlds in a betting round by it."""
    f = st[BETS + q]
    if f == 0:
        return 1.0
    shift = bet_shift(st, q, pprm)
    bluff = min(max(pprm[PR_BLUFF], BET_EPS), 1.0 - BET_EPS)
    like = 1.0
    if f & B_RAISE and v < pprm[PR_RAISE_AT] + shift:
        like *= BET_EPS
    if f & B_BET and v < pprm[PR_BET_AT] + shift:
        like *= bluff
    if f & B_CHECK:
        like *= BET_EPS if v >= pprm[PR_BET_AT] + shift else 1.0 - bluff
    base = pprm[PR_CALL_AT] + shift - pprm[PR_ODDS_WEIGHT] / 3.0
    if f & B_CALL and v < base + pprm[PR_ODDS_WEIGHT] * st[CALL_PRICE + q] / 1e6:
        like *= BET_EPS
    if f & B_FOLD and v >= base + pprm[PR_ODDS_WEIGHT] * st[FOLD_PRICE + q] / 1e6:
        like *= BET_EPS
    return like


@njit(cache=True)
def deal_world(st, opts, p, g, cards, m, need, fixed, forbid, out, seqs, sid, pprm):
    """One deal of the hidden cards (``determinize``) into ``st``."""
    n = st[N]
    ok = False
    for _ in range(SEARCH_TRIES):
        if deal_hidden(st, opts, p, g, cards, m, need, forbid, out, seqs, True):
            ok = True
            break
    if not ok:
        deal_hidden(st, opts, p, g, cards, m, need, forbid, out, seqs, False)
    shown = public_cards(st, opts)[1]
    for s in range(n + 1):
        if s == p:
            continue
        if s == n:
            st[WIDOW] = fixed[s] | out[s]
            continue
        st[HAND + s] = fixed[s] | out[s]
        if shown and not (st[P2_FOLDED] >> s) & 1:
            continue
        if st[PICK + s] and st[PHASE] <= P_BET:
            st[PICK + s] = policy_pick(st, st[HAND + s], sid, pprm)
            st[HCAT + s] = PK.eval5(st[PICK + s])
        elif st[PICK + s]:
            st[PICK + s] = 0                # never read again in the deal: forget the real picks


@njit(cache=True)
def determinize(st, opts, p, g, cards, sid, pprm):
    """Deal again, in ``st``, what seat ``p`` cannot see, consistently with what it has seen.
    Kept: its own hand and picks, the played cards, the widow if it has seen it (``W_SEEN``), the
    hand of the buyer of its old hand (dealer), the pay cards Phase 1 showed, the poker hands a
    showdown showed, widow cards a stop showed (``stop_widow``). Dealt again: the rest of the
    other hands and of the widow (same sizes), avoiding the cards a seat is known not to hold
    (``NOTH``) and keeping the seats' Phase-1 sequences as shown (``SEARCH_TRIES`` deals, then
    without those two constraints); the other seats' unshown poker cards chosen from their new
    hands as the rollout policy would; in a clearing round the other seats' 5 cards. In a betting
    round with the heuristic as the rollout policy, a world is kept with the chance
    (``bet_likelihood``) that the policy would have bet as the other seats did this round
    (``SEARCH_TRIES`` worlds at most). The seed of later clearing rounds is drawn anew (their
    cards are not known yet)."""
    n = st[N]
    st[SEED] = np.int64(next_u64(g) >> np.uint64(2))
    clearing = st[PHASE] == P_BET and st[BET_CTX] == 1
    filt = st[PHASE] == P_BET and (sid == S_HEURISTIC or sid == S_EXPERT)
    fixed = np.zeros(MAX_PLAYERS + 1, np.int64)
    need = np.zeros(MAX_PLAYERS + 1, np.int64)
    forbid = np.zeros(MAX_PLAYERS + 1, np.int64)
    seqs = np.full(MAX_PLAYERS + 1, -1, np.int64)
    out = np.zeros(MAX_PLAYERS + 1, np.int64)
    m = 0
    if clearing:
        rest = FULL_DECK & ~st[CLH + p]
        while rest:
            cards[m] = lowbit(rest)
            m += 1
            rest &= rest - 1
    else:
        pay, shown = public_cards(st, opts)
        phase1 = opts[O_TIMING] == 0 and (st[PHASE] == P_SELECT or st[PHASE] == P_BET)
        pool = 0
        for s in range(n + 1):
            if s == p:
                continue
            held = st[WIDOW] if s == n else st[HAND + s]
            keep = held & pay
            if s == n:
                keep = held if st[W_SEEN] == p else keep | stop_widow(st)
            else:
                if p == st[DEALER] and st[W_ACT] & W_SOLD_OLD and s == st[W_BUYER]:
                    keep = held
                if shown and not (st[P2_FOLDED] >> s) & 1:
                    keep |= held & st[PICK + s]
                forbid[s] = st[NOTH + s]
                if phase1:
                    seqs[s] = seq_count(st, opts, held)
            fixed[s] = keep
            need[s] = popcount(held & ~keep)
            pool |= held & ~keep
        while pool:
            cards[m] = lowbit(pool)
            m += 1
            pool &= pool - 1
    for _ in range(SEARCH_TRIES if filt else 1):
        if clearing:
            shuffle_prefix(cards, m, g)
            k = 0
            for q in range(n):
                if q != p:
                    h = 0
                    for _ in range(5):
                        h |= np.int64(1) << cards[k]
                        k += 1
                    st[CLH + q] = h
                    st[CLS + q] = PK.eval5(h)
        else:
            deal_world(st, opts, p, g, cards, m, need, fixed, forbid, out, seqs, sid, pprm)
        if not filt:
            break
        like = 1.0
        for q in range(n):
            if q != p:
                v = strength(bet_hand(st, q)[1])
                like *= expert_likelihood(st, q, v, pprm) if sid == S_EXPERT else bet_likelihood(st, q, v, pprm)
        if uniform(g) < like:
            break


@njit(cache=True)
def rollout(st, opts, sid, prm, gen, acts, gdeck, deck, trace):
    """Play the deal in ``st`` to its end (a session's last deal: and its clearing rounds) with the
    built-in ``sid`` (row ``prm``) at every seat."""
    while True:
        if st[PHASE] == P_OVER:
            if st[BET_CTX] == 0 and st[LAST_DEAL] and opts[O_CLEARING] and st[REASON] != R_STEP_CAP:
                clearing_start(st, opts, gdeck, deck, trace)
                continue
            break
        if st[STEPS] >= opts[O_MAX_STEPS]:
            st[TRUNC] = 1
            st[REASON] = R_STEP_CAP
            st[PHASE] = P_OVER
            break
        n = legal_actions(st, opts, acts)
        if n == 0:
            break
        apply_action(st, opts, acts[choose(st, opts, acts, n, sid, prm, gen)], gdeck, deck, trace)


@njit(cache=True)
def candidates(st, opts, acts, n, prm, own, cand):
    """Indices of the actions the search compares, into ``cand``; returns their number: every
    action, except that of the sized kinds (bid, bet, raise) only ``sizes`` amounts (0 = all) are
    kept, spread evenly from the smallest to the largest (one: the largest), and the policy's own
    choice ``own``."""
    sizes = np.int64(prm[SX_SIZES])
    sized = 0
    for i in range(n):
        kind = acts[i] & 15
        if kind == A_BID or kind == A_BET or kind == A_RAISE:
            sized += 1
    k = 0
    j = 0
    for i in range(n):
        kind = acts[i] & 15
        if not (kind == A_BID or kind == A_BET or kind == A_RAISE):
            cand[k] = i
            k += 1
            continue
        take = sizes <= 0 or sized <= sizes or i == own
        if not take and sizes == 1:
            take = j == sized - 1
        elif not take:
            for t in range(sizes):                 # round(t (sized - 1) / (sizes - 1)) == j
                if (2 * t * (sized - 1) + sizes - 1) // (2 * (sizes - 1)) == j:
                    take = True
        if take:
            cand[k] = i
            k += 1
        j += 1
    return k


@njit(cache=True)
def world_values(st, opts, p, acts, n, active, sid, pprm, rollouts, key, w, base, sim, acts2, cards, deck, gdeck,
                 g, trace, out):
    """World ``w`` of a decision's search (stream keyed by ``key``): what seat ``p`` cannot see
    dealt again into ``base`` (a copy of ``st``), then each active action of ``acts[:n]`` played
    and the deal rolled out ``rollouts`` times by the policy ``sid`` (row ``pprm``); ``out[i]`` =
    seat ``p``'s total chips of the deal over those rollouts (the same streams for every action)."""
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, cards, sid, pprm)
    for i in range(n):
        out[i] = 0.0
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                apply_action(sim, opts, acts[i], gdeck, deck, trace)
                rollout(sim, opts, sid, pprm, g, acts2, gdeck, deck, trace)
                out[i] += sim[CHIPS + p]


@njit(cache=True)
def search_pick(st, opts, acts, n, prm, gen):
    """The search strategy's choice among ``acts[:n]`` (row ``prm``: ``kernels.search``, slots
    SX_*): at a decision of a searched kind with more than one candidate (``candidates``), for
    each of ``worlds`` determinizations every candidate is played and the deal rolled out to its
    end ``rollouts`` times by the policy; the best total payout of the deal wins. Decisions of the
    other kinds are the policy's."""
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:]
    if n == 1:
        return 0
    if not (np.int64(prm[SX_KINDS]) >> decision_kind(st)) & 1:
        return choose(st, opts, acts, n, sid, pprm, gen)
    p = st[CUR]
    key = search_key(gen)
    g = np.empty(2, dtype=np.uint64)
    seed_sub(g, key, 1 << 20, 0)
    own = choose(st, opts, acts, n, sid, pprm, g)
    cand = np.empty(MAX_ACTS, dtype=np.int64)
    m = candidates(st, opts, acts, n, prm, own, cand)
    if m == 1:
        return cand[0]
    worlds, rollouts = plan_budget(prm, m)
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    total = np.zeros(m, dtype=np.float64)
    trace = np.empty((0, 4), dtype=np.int64)
    cacts = np.empty(m, dtype=np.int64)
    for i in range(m):
        cacts[i] = acts[cand[i]]
    active = np.ones(m, dtype=np.bool_)
    out = np.empty(m, dtype=np.float64)
    for w in range(worlds):
        world_values(st, opts, p, cacts, m, active, sid, pprm, rollouts, key, w, base, sim, acts2, cards, deck,
                     gdeck, g, trace, out)
        for i in range(m):
            total[i] += out[i]
    return cand[best_action(total, m)]


# The batch kernels call the search through SEARCH_SIG (kernels.search): ``search_cfunc()``
# compiled when a search seat plays (jit.lazy_cfunc), ``no_search`` otherwise (never called).
SEARCH_SIG, no_search = ACTS_SEARCH_SIG, no_acts_search


def _search_entry(st, opts, acts, n, prm, gen):
    return search_pick(st, opts, acts, n, prm, gen)


search_cfunc = lazy_cfunc(SEARCH_SIG, _search_entry)


@njit(cache=True)
def search_decision(st, opts, prm, key):
    """The search's choice in state ``st`` with its play stream keyed by ``key`` (tests: the
    same state with other hidden cards must give the same choice)."""
    acts = np.empty(MAX_ACTS, dtype=np.int64)
    n = legal_actions(st, opts, acts)
    g = np.empty(2, dtype=np.uint64)
    g[0] = np.uint64(key)
    g[1] = 0
    return acts[search_pick(st, opts, acts, n, prm, g)]


# =============================================================================
# check mode
# =============================================================================
@njit(cache=True)
def cards_ok(st):
    seen = st[WIDOW] | st[PLAYED]
    total = popcount(st[WIDOW]) + popcount(st[PLAYED])
    for p in range(st[N]):
        seen |= st[HAND + p]
        total += popcount(st[HAND + p])
    return total == 52 and seen == FULL_DECK


@njit(cache=True)
def bets_ok(st, opts):
    if st[PHASE] != P_BET:
        return True
    if st[RAISES] > raise_cap(opts):
        return False
    for p in range(st[N]):
        c = st[CONTRIB + p]
        if c < 0 or c > st[CUR_BET] or (opts[O_LIMIT_MODE] == 1 and c > opts[O_LIMIT]):
            return False
    return True


@njit(cache=True)
def picks_ok(st):
    for p in range(st[N]):
        k = popcount(st[PICK + p])
        if st[PICK + p] & ~st[HAND + p] & ~st[PLAYED] or k > 5:
            return False
        if st[PHASE] > P_SELECT and k != 5 and st[REASON] != R_STEP_CAP:
            return False
    return True


@njit(cache=True)
def check_invariants(st, opts):
    """0 if the state is sound, else an E_* code."""
    if not cards_ok(st):
        return E_CARDS
    if chips_total(st) != st[TOTAL0]:
        return E_CHIPS
    for i in range(9):
        if st[BOARD + i] < 0:
            return E_BOARD
    if not bets_ok(st, opts):
        return E_BET
    if not picks_ok(st):
        return E_PICK
    if st[STEPS] > opts[O_MAX_STEPS]:
        return E_CAP
    return 0


# =============================================================================
# one deal, a session, a batch
# =============================================================================
@njit(cache=True)
def dealer_of(opts, seed, session, k):
    n = opts[O_PLAYERS]
    first = opts[O_FIRST_DEALER]
    if first < 0:
        first = np.int64(stream_key(seed, session, np.int64(STREAM_RUN)) % np.uint64(n))
    return (first + k) % n


@njit(cache=True, inline='always')
def play_deal(st, opts, seed, deal_id, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view,
              legal, srch):
    """Play deal ``deal_id`` on the board carried in ``st``; returns the check error. Seats with
    sid >= PLUGIN are decided by ``plug`` (their row of ``pprm``), search seats by ``srch``
    (SEARCH_SIG)."""
    st, opts, sids, params = unowned(st), unowned(opts), unowned(sids), unowned(params)
    trace, acts, gdeck, gplay, deck = unowned(trace), unowned(acts), unowned(gdeck), unowned(gplay), unowned(deck)
    pprm, view, legal = unowned(pprm), unowned(view), unowned(legal)
    begin_deal(st, opts, seed, deal_id, gdeck, gplay, deck, trace)
    for stage in range(2):                # the deal, then a session's clearing rounds (one inlined loop)
        if stage == 1:
            if not clearing_due(st, opts):
                break
            clearing_start(st, opts, gdeck, deck, trace)
        run_decisions(st, opts, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view, legal,
                      srch)
    if check and st[ERR] == 0:
        st[ERR] = check_invariants(st, opts)
    log(st, trace, T_END, st[MWIN], st[REASON], st[MWIN])
    return st[ERR]


@njit(cache=True, inline='always')
def begin_deal(st, opts, seed, deal_id, gdeck, gplay, deck, trace):
    """Deal ``deal_id`` of run ``seed`` set up on the board carried in ``st``: its streams, dealer,
    session fields and cards."""
    D = opts[O_DEALS]
    reset_deal(st, opts, dealer_of(opts, seed, deal_id // D, deal_id % D))
    st[SESSION] = deal_id // D
    st[DEAL_NO] = deal_id % D
    st[DEAL_ID] = deal_id
    st[SEED] = seed
    st[LAST_DEAL] = 1 if st[DEAL_NO] == D - 1 else 0
    seed_stream(gdeck, seed, deal_id, np.int64(STREAM_DECK))
    seed_stream(gplay, seed, deal_id, np.int64(STREAM_PLAY))
    start_deal(st, opts, gdeck, deck, trace)


@njit(cache=True, inline='always')
def clearing_due(st, opts):
    """Whether the session's clearing rounds follow the deal just played."""
    return st[ERR] == 0 and st[LAST_DEAL] and opts[O_CLEARING] and st[REASON] != R_STEP_CAP


@njit(cache=True, inline='always')
def step_capped(st, opts):
    """True (and the deal ended, truncated) once the deal has taken its cap of decisions."""
    if st[STEPS] >= opts[O_MAX_STEPS]:
        st[TRUNC] = 1
        st[REASON] = R_STEP_CAP
        st[PHASE] = P_OVER
        return True
    return False


@njit(cache=True, inline='always')
def seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch):
    """The index among ``acts[:n]`` the seat to act plays: its plug-in's (sid >= PLUGIN, its row
    of ``pprm``), else its search's (``srch``) or its built-in's; -2 for an illegal plug-in answer."""
    p = st[CUR]
    sid, i = sids[p], -1
    if sid >= PLUGIN:
        i = plugin_pick(st, opts, acts, n, plug, pprm[p], view, legal)
        if i == -2:
            return -2
        sid -= PLUGIN
    if i < 0:
        if sid == S_SEARCH:
            i = srch(st, opts, acts, n, params[p], gplay)
        else:
            i = choose(st, opts, acts, n, sid, params[p], gplay)
    return i


@njit(cache=True, inline='always')
def run_decisions(st, opts, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view, legal, srch):
    """Ask and apply decisions until the deal (or the clearing) is over or capped."""
    while st[PHASE] != P_OVER:
        if step_capped(st, opts):
            break
        n = legal_actions(st, opts, acts)
        if n == 0:
            st[ERR] = E_NO_MOVES
            break
        i = seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch)
        if i == -2:
            st[ERR] = E_PLUGIN
            break
        apply_action(st, opts, acts[i], gdeck, deck, trace)
        if check:
            st[ERR] = check_invariants(st, opts)
            if st[ERR]:
                break


@njit(cache=True)
def write_record(st, row):
    n = st[N]
    row[:] = 0
    row[RC_SESSION] = st[SESSION]
    row[RC_DEAL_NO] = st[DEAL_NO]
    row[RC_DEALER] = st[DEALER]
    row[RC_REASON] = st[REASON]
    row[RC_MWIN] = st[MWIN]
    row[RC_LEADS] = st[LEADS]
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_WIDOW] = st[W_ACT]
    row[RC_W_BUYER] = st[W_BUYER]
    row[RC_W_PRICE] = st[W_PRICE]
    row[RC_PAY_SUIT] = st[PAY_SUIT]
    row[RC_SEQ] = st[SEQ] + 2
    row[RC_SUIT_BY] = st[SUIT_BY]
    row[RC_SUIT_PRICE] = st[SUIT_PRICE]
    row[RC_POT] = st[POT]
    row[RC_POT_WIN] = st[POT_WIN]
    row[RC_POKER_END] = st[POKER_END]
    row[RC_RAISES] = st[P2_RAISES]
    row[RC_FOLDED] = st[P2_FOLDED]
    row[RC_CLEAR_PRIZE] = st[CL_TOTAL]
    for i in range(9):
        row[RC_BOARD + i] = st[BOARD + i]
    write_seats(st, row)
    row[RC_WINNER] = top_seat(st)


@njit(cache=True)
def write_seats(st, row):
    for p in range(st[N]):
        b = RC_SEAT + SEAT_COLS * p
        row[b + SC_PAY] = st[CHIPS + p]
        row[b + SC_WIDOW] = st[PH + L_WIDOW * MAX_PLAYERS + p]
        row[b + SC_PH1] = st[PH + L_PAY * MAX_PLAYERS + p]
        row[b + SC_POKER] = st[PH + L_POKER * MAX_PLAYERS + p]
        row[b + SC_MICH] = st[PH + L_MICHIGAN * MAX_PLAYERS + p]
        row[b + SC_CLEAR] = st[PH + L_CLEAR * MAX_PLAYERS + p]
        row[b + SC_HAND] = -1 if st[HCAT + p] < 0 else PK.category(st[HCAT + p])
        row[b + SC_LEFT] = popcount(st[HAND + p])


@njit(cache=True)
def top_seat(st):
    """Seat with the unique highest payout, -1 if shared."""
    best = st[CHIPS]
    who = 0
    for p in range(1, st[N]):
        if st[CHIPS + p] > best:
            best = st[CHIPS + p]
            who = p
        elif st[CHIPS + p] == best:
            who = -1
    return who


@njit(cache=True)
def buffers(opts):
    st = np.zeros(ST_SIZE, np.int64)
    st[N] = opts[O_PLAYERS]
    return (st, np.zeros(MAX_ACTS, np.int64), np.zeros(2, np.uint64), np.zeros(2, np.uint64),
            np.zeros(52, np.int64))


@njit(cache=True, nogil=True)
def play_range(seed, first, lo, hi, opts, sids, params, check, rec, plug, pprm, srch):
    """Play deals first+lo .. first+hi-1 into rec[lo:hi], replaying the session prefix
    of deal first+lo (its board) without writing it; ``plug`` is the plug-in (a
    ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, ``srch`` the search
    (SEARCH_SIG) for the search seats."""
    st, acts, gdeck, gplay, deck = buffers(opts)
    trace = np.zeros((0, 4), np.int64)
    legal = np.empty(MAX_ACTS, np.int64)
    view = np.empty(VIEW_SIZE, np.int64)
    D = opts[O_DEALS]
    start = (first + lo) // D * D
    for d in range(start, first + hi):
        if d % D == 0:
            for i in range(9):
                st[BOARD + i] = 0
        play_deal(st, opts, seed, d, sids, params, check, trace, acts, gdeck, gplay, deck, plug, pprm, view, legal,
                  srch)
        if d >= first + lo:
            write_record(st, rec[d - first])


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play deals first .. first+count-1 into ``rec`` on ``numba.get_num_threads()`` threads
    (Python threads over the ``nogil`` ``play_range``: ``jit.threaded_batch``), cut at whole
    sessions, so a session's board never crosses threads. ``plug``: the plug-in
    (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with its parameters
    ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    plug = no_plugin if plug is None else plug
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    threaded_batch(play_range, seed, first, count, opts, sids, params, check, rec, plug, pprm, srch,
                   least=int(opts[O_DEALS]) * SESSIONS_PER_CHUNK, align=int(opts[O_DEALS]))


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
@njit(cache=True)
def critique_eval(st, opts, acts, n, chosen, prm, key, row, acts_out):
    """Value every legal action ``acts[:n]`` of the seat to act with the search row ``prm``
    (``kernels.critique``: a racing select stage over ``worlds`` worlds, then the best and the
    choice ``chosen`` measured on as many fresh ones): the seat's chips of the deal."""
    p = st[CUR]
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:]
    vals = np.zeros((2 * worlds, n), dtype=np.float64)
    seen = np.zeros(n, dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    g = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    out = np.empty(n, dtype=np.float64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + CR_ROUND)):
            world_values(st, opts, p, acts, n, active, sid, pprm, rollouts, key, ww, base, sim, acts2, cards, deck,
                         gdeck, g, trace, out)
            played += rollouts * put_world(vals[ww], out, n, active, rollouts)
        w = min(worlds, w + CR_ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            world_values(st, opts, p, acts, n, active, sid, pprm, rollouts, key, ww, base, sim, acts2, cards, deck,
                         gdeck, g, trace, out)
            played += rollouts * put_world(vals[ww - worlds + w], out, n, active, rollouts)
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)


@njit(cache=True, nogil=True)
def critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug,
                  pprm, srch):
    """Play deal ``deal_id`` of run ``seed`` exactly as the batch does (after its session's
    earlier deals, untraced) and write a ``kernels.critique`` row for each decision of ``seat``
    (at most ``len(rows)``; the clearing rounds' included); a sampled one (``rate``) with more
    than one legal action is valued by ``critique_eval`` (search row ``prm``), its state kept in
    ``snaps``. ``stop`` >= 0 stops before the deal's decision number ``stop`` (any seat's).
    Returns (rows written, decisions of ``seat``, the state)."""
    st, acts, gdeck, gplay, deck = buffers(opts)
    legal = np.empty(MAX_ACTS, np.int64)
    view = np.empty(VIEW_SIZE, np.int64)
    none = np.zeros((0, 4), np.int64)
    D = opts[O_DEALS]
    for d in range(deal_id // D * D, deal_id):
        play_deal(st, opts, seed, d, sids, params, False, none, acts, gdeck, gplay, deck, plug, pprm, view, legal,
                  srch)
    st[TR_LEN] = 0
    begin_deal(st, opts, seed, deal_id, gdeck, gplay, deck, trace)
    key = stream_key(seed, deal_id, np.int64(STREAM_CRITIQUE))
    k, seen, step = 0, 0, 0
    for stage in range(2):
        if stage == 1:                    # (stopped at the clearing's first decision: after its cards are dealt)
            if st[PHASE] != P_OVER or not clearing_due(st, opts):
                break
            clearing_start(st, opts, gdeck, deck, trace)
        while st[PHASE] != P_OVER and step != stop:
            if step_capped(st, opts):
                break
            n = legal_actions(st, opts, acts)
            if n == 0:
                st[ERR] = E_NO_MOVES
                break
            p = st[CUR]
            i = seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch)
            if i == -2:
                st[ERR] = E_PLUGIN
                break
            if p == seat:
                if k < len(rows):
                    plain_row(rows[k], seen, step, decision_kind(st), st[BET_CTX] * (1 + st[CL_INDEX]),
                              st[CHIPS + p], n, i, acts[i])
                    if n > 1 and sampled(key, seen, rate):
                        snaps[k, :ST_SIZE] = st
                        critique_eval(st, opts, acts, n, i, prm, mix64(key + np.uint64(seen + 1)), rows[k],
                                      acts_out[k])
                    k += 1
                seen += 1
            apply_action(st, opts, acts[i], gdeck, deck, trace)
            step += 1
    if step != stop:
        log(st, trace, T_END, st[MWIN], st[REASON], st[MWIN])
    return k, seen, st


def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)


@njit(cache=True)
def replay_kernel(seed, deal_id, opts, sids, params, check, trace, plug, pprm, srch):
    st, acts, gdeck, gplay, deck = buffers(opts)
    legal = np.empty(MAX_ACTS, np.int64)
    view = np.empty(VIEW_SIZE, np.int64)
    none = np.zeros((0, 4), np.int64)
    D = opts[O_DEALS]
    for d in range(deal_id // D * D, deal_id + 1):   # the session's earlier deals unchecked, untraced
        last = d == deal_id                           # (one inlined copy of play_deal: half the compile)
        play_deal(st, opts, seed, d, sids, params, check and last, trace if last else none, acts, gdeck, gplay,
                  deck, plug, pprm, view, legal, srch)
    return st


def replay_deal(seed, deal_id, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one deal alone (after its session's earlier deals) with a trace; final state."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    return replay_kernel(seed, deal_id, opts, sids, params, check, trace, no_plugin if plug is None else plug, pprm,
                         search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search))
