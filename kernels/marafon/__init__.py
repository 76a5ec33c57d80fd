"""Marafon (Marafone, Beccaccino): 4 players in partnerships, as small numba kernels.

Rules source: ``docs/rules/marafon.md`` Part A (and §0, the common conventions); every
DECISION of its section C that concerns Marafon is an option below. The trick arithmetic
(card ids, legality, winner, values in thirds) is ``kernels.tricks``, and what its search and
critique share with Trionfo's (the deal that respects the voids, the action codes)
``kernels.trick_search``.

Choices this module adds where the spec leaves room
----------------------------------------------------
* One record is one **match** (``games_per_match`` games, default 1: one game). A match of
  several games stops as soon as one side has won a majority (best of three: first to 2).
* Each hand is shuffled from its own stream (seed, game, 16 + hand index in the match), so
  hand h gets the same cards whatever the strategies (duplicate deals).
* Decisions go to the seat's strategy one at a time in the order of the rules: trump (the
  battitore, seeing only his 10 cards), then per card: in trick 1 the marafona declaration
  (auto or the strategy's), the claim windows, the card. A claim window asks the four seats
  in turn from the seat that opened it; the first claim ends the game (§A8).
* ``marafona_trump_only = False``: every cricca (3-2-A of a suit) held at a player's turn in
  trick 1 scores; several cricche of one player are declared together.
* A hand cap ``max_hands`` (default 60, not in the spec) ends a game still running; the
  higher total wins (no winner on equal totals), end reason ``hand_cap``, ``truncated`` set.
* Trump (greedy and heuristic): the suit of best ``tricks.trump_score``; when only the trump
  cricca scores (``marafona_trump_only``, ``marafona_points > 0``) a suit holding the 3-2-A
  scores ``marafona_weight`` more (greedy: always named; issue 15: before, 7 % of the hands
  holding a cricca named another, longer suit and gave the marafona up).
* ``random`` is also the fuzzer: ``claim_prob`` claims at any window (mostly wrong claims),
  ``claim_due`` claims at a window where the side's exact count has reached the target
  (correct claims); with both 0 it never claims.
* ``allow_lead_signals`` is reserved by the spec without semantics: only ``False`` exists.
* ``search`` (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
  determinized Monte Carlo. At a card with more than one legal card it deals ``worlds``
  times the three hands its seat cannot see (``determinize``: hand sizes, the suits each seat
  has shown void in (``VOID``), the declared cricche still unplayed, the battitore's 4D in a
  game's first hand, and with automatic declarations no seat past its trick-1 turn holding a
  cricca it did not declare; ``deal_constrained`` keeps every card placeable by Hall's
  condition), plays every legal card in each and rolls the hand out to its end with the
  rollout policy at every seat (declarations and claims included; ``rollouts`` times, the same
  streams for every card), and takes the card with the best total ``search_value``: the
  hand's point difference of its side, plus ``game_weight`` points for a game won in that
  hand (minus for one lost). A record is a match of one or more games of several hands, so
  the hand's points are a proxy of the match result: sound, as the result is a race to the
  target in hand points, and the game term counts where the hand decides it. With ``trump``
  the battitore names trump the same way (each suit rolled out over whole hands); claims and
  optional declarations are the policy's. A table with a search seat plays the general loop
  (``play_out_plugged``; ``PLUGGED``), so the built-in tables' loop is unchanged. ``VOID``
  and ``PLAYED_BY`` are public bookkeeping only (``RULES_VERSION`` unchanged). A table with
  a search or plug-in seat plays its hands (trump and tricks) through a callback
  (``plugged_hand`` as ``PLUGGED_SIG``) compiled the first time such a table plays
  (``plugged_cfunc``; issue 14): a built-in table compiles neither.
* ``expert`` (issue 41, sid ``S_EXPERT``, ``expert_card``): heuristic (its four parameters,
  trump, claims and declarations alike) with three card-play rules, each reading only its
  seat's view (its hand, the cards played, the trick, the hand sizes and the voids shown):
  it draws trumps (``expert_lead``: holding ``draw_trumps`` or more while an opponent may
  hold one, the master trump if held, else the lowest); a master on top of the trick
  ``stands`` when the trick's last opponent is void in its suit with a chance of at most
  ``ruff_risk`` (``ruff_chance``: 1 once shown void, 0 when it can hold no trump, else
  hypergeometric over the unseen cards, ``tricks.void_chance``): a partner's standing card
  gets points, a standing card of ours wins at once (heuristic trusts only masters no one can
  ruff); a sure win takes the card of most ``bank`` x thirds less its keep cost
  (``tricks.bank_card``: an ace before a figure before a scartino; heuristic the cheapest).
  Two rules came from the critique of the first tuned expert (``examples/marafon_critique_fixes.py``
  gained +0.013 with them): at most ``clinch`` thirds short of the target it plays a sure trick
  (``clinch_card``: the richest master led, a trump first; the cheapest master trump that wins
  when following, any winner in fourth hand), since a trick won lets the side claim; and with
  ``plain_first`` it leads a counting plain-suit master before any other lead
  (``plain_master_lead``).
  Against a field of ``strong`` each rule pays on its own (``cardsim compare``, 20,000 matches:
  the expert +0.12 match result; without ruff_risk +0.06, without bank +0.08, without the
  draw +0.11). Tried and dropped (each lost against that field): keeping a lone plain 3 or 2
  instead of leading it, not leading a master an opponent may ruff, third hand overtaking a
  beatable partner with a standing master, letting the trump 3 and 2 win cheap late tricks,
  leading low for a partner's ruff (no effect), discarding toward a void.
* Plug-in strategies (issue 17): a seat with sid ``PLUGIN + b`` asks a user's ``decide`` (a
  ``jit.PLUG_SIG`` function) first for the decision kinds of its mask: K_TRUMP (legal: the
  suits 0..3), K_DECLARE (an optional marafona: 0 no, 1 yes), K_CLAIM (a claim window: 0 no,
  1 claim) and K_CARD (the playable cards' ids); -1 leaves the decision to the built-in b,
  anything else but an index of the legal list stops the match with E_PLUGIN. Its view
  (``fill_view``, the V_* layout) holds only what that seat may see. Left to the engine: the
  automatic declaration (``marafona_auto_declare``, the default), the order of the claim
  windows, declaring every cricca at once; no lead signals exist to decide.
* Critique (issue 40, ``kernels.critique``): ``critique_deal`` plays a match as the batch does
  (the general loop of ``plugged_hand``, through the same choice helpers: ``trump_choice``,
  ``declare_choice``, ``claim_choice``, ``card_choice``) and rows every decision of one seat:
  its trump, optional declarations, each claim window it is asked in, its cards. An action
  code is ``kind << ACT_SHIFT | action`` (a claim window and the card after it share a state).
  Each legal action is valued as the search values a card (``world_values``, which
  ``search_card`` and ``search_trump`` use): worlds of the hidden hands, the action played,
  the rest of the turn and of the claim window by the policy, the hand rolled out to its end;
  ``search_value`` for the seat's side.

Options (int array built by ``sim.games.marafon.MarafonOptions.to_array``):

| index | option | values |
|---|---|---|
| O_TRUMP_ONLY | marafona_trump_only | 0/1 |
| O_DECLARER | marafona_declarer | 0 any_player, 1 battitore_only |
| O_AUTO_DECLARE | marafona_auto_declare | 0/1 |
| O_MARAF_POINTS | marafona_points | >= 0 |
| O_FIRST_DEALER | first_dealer | -1 random, else seat |
| O_SECOND_DEALER | second_dealer | 0 four_of_coins_holder, 1 rotate |
| O_BOTH_REACH | both_reach_target | 0 extra_hand_cumulative, 1 extra_hand_points, 2 higher_total |
| O_TARGET | target_thirds | 123 (41), 93 (31), 94 (31 1/3), any >= 1 |
| O_CLAIM_TIMING | claim_timing | 0 trick_boundaries, 1 every_card |
| O_CLAIMS | claims_enabled | 0/1 |
| O_GAMES | games_per_match | >= 1 |
| O_MAX_HANDS | max_hands | hand cap per game |

State: one int64 array, fields below with one comment each. Masks are 40-bit card masks.
RULES_VERSION = 1 (bumped whenever a rule or an option's meaning changes).

Speed (measured before optimising: with plain calls the per-card helpers cost more in call
overhead than in work): every kernel on the per-card path (the card choice, the claim
windows, the declarations, the trick arithmetic of ``kernels.tricks``) is
``inline='always'``, so a trick compiles into one function; that doubled the hands per
second. Once-a-hand kernels (the deal, scoring, the end of the game) stay separate.

Score range: a hand gives the sides ``11 + marafona_points x (marafone declared)`` points
(at most 11 + 4 x 3 = 23 with every cricca), each side 0 .. that; game scores are sums of
hand points; ``payout`` is +1 for the two seats of the side that won the match, -1 for the
other two (0 for both sides when a capped game ends level).
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
    CRICCA,
    FULL40,
    LAST_TRICK_THIRDS,
    VALUE_THIRDS,
    bank_card,
    beating_cards,
    best_trump,
    cards_conserved,
    cheapest,
    cricche,
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
    trump_score,
    ruff_odds,
)

RULES_VERSION = 1
N_PLAYERS = 4
TRICKS = 10
FOUR_COINS = 10                 # card id of 4D (suit 1, strength 0)
STREAM_HAND = 16                # hand k of a match shuffles from stream STREAM_HAND + k
STREAM_DEALER = 15              # draws the first dealer
HAND_SLOTS = 16                 # hands of a match with their own record columns
CHUNK = 256

# ---- options array -------------------------------------------------------------
O_TRUMP_ONLY = 0
O_DECLARER = 1
O_AUTO_DECLARE = 2
O_MARAF_POINTS = 3
O_FIRST_DEALER = 4
O_SECOND_DEALER = 5
O_BOTH_REACH = 6
O_TARGET = 7
O_CLAIM_TIMING = 8
O_CLAIMS = 9
O_GAMES = 10
O_MAX_HANDS = 11
O_SIZE = 12

BOTH_CUMULATIVE = 0
BOTH_POINTS = 1
BOTH_HIGHER = 2

# ---- state fields (int64 array) ------------------------------------------------
N = 0            # number of players (4)
GAME_NO = 1      # game index in the match (0-based)
HAND_NO = 2      # hand number in the current game (1-based)
MATCH_HANDS = 3  # hands started in the match
DEALER = 4       # dealer of the current hand
FIRST_DEALER = 5  # dealer of the match's first hand
EXTRA = 6        # 1 while playing extra hands after both sides reached the target
OVER = 7         # 1 once the current game is decided
WIN_SIDE = 8     # side (0 = seats 0+2, 1 = seats 1+3) that won the current game, -1
REASON = 9       # end reason of the current game (R_*), -1 while playing
TRUNC = 10       # 1 if a game hit the hand cap
ERR = 11         # check-mode violation (E_*)
TR_LEN = 12      # trace rows written
SCORE = 13       # SCORE + side: game score in whole points
GAMES = 15       # GAMES + side: games won in the match
TRICKS_PLAYED = 17  # tricks played in the match
CLAIMS = 18      # claims made in the match
EXTRA_HANDS = 19  # extra hands played in the match
BATT = 20        # battitore of this hand (names trump, leads trick 1)
TRUMP = 21       # trump suit, -1 until named
HOLDER4D = 22    # seat dealt the 4 of coins this hand
MHOLDER = 23     # seat holding the 3-2-A of trump after trump is named, -1
LEADER = 24      # leader of the current trick
TRICK_NO = 25    # tricks completed in this hand (0..10)
NCARDS = 26      # cards in the current trick
LED = 27         # suit led in the current trick, -1 before the lead
PLAYED = 28      # mask of every card played this hand (public)
THIRDS = 29      # THIRDS + side: thirds won this hand (the last trick's 3 included)
TRICKS_WON = 31  # TRICKS_WON + side: tricks won this hand
LAST_WINNER = 33  # winner of the last completed trick, -1
MARAF = 34       # MARAF + side: marafone (cricche) declared this hand
ASKED = 36       # 1 right after a claim window (no second window before the next card)
HAND_END = 37    # 0 scored, 1 ended by a correct claim, 2 by a wrong claim
PTS = 38         # PTS + side: points this hand added to the game score
HAND = 40        # HAND + p: cards held by seat p
WON = 44         # WON + side: cards in the side's tricks this hand
TRICK = 46       # TRICK + i: i-th card of the current trick (play order)
DECK = 50        # DECK .. DECK+39: the shuffled deck of this hand
DECL = 90        # DECL + p: suit mask of the cricche seat p declared this hand (public; a plug-in's view)
PVIEW = 94       # PVIEW .. +VIEW_SIZE: a plug-in's view (scratch, written before each plug-in decision)
PLEGAL = 140     # PLEGAL .. +40: a plug-in decision's legal actions (scratch)
PLUGGED = 180    # 1 when a seat of the table is a plug-in (sid >= PLUGIN) or a search (S_SEARCH): the
                 # table plays the general loop (``play_out_plugged``)
VOID = 181       # VOID + p: suits (bits 0..3) seat p has shown void in this hand by not following (public)
PLAYED_BY = 185  # PLAYED_BY + p: cards seat p has played this hand (public)
ST_SIZE = 189

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
S_RANDOM = 0       # params: claim_prob, claim_due
S_GREEDY = 1       # no params
S_HEURISTIC = 2    # params: claim_margin, memory_noise, honour_min, marafona_weight
S_SEARCH = 3       # params: the search row (kernels.search: worlds, rollouts, budget, policy, game_weight,
                   # trump, then the policy's row)
S_EXPERT = 4       # params: heuristic's four, then draw_trumps, ruff_risk, bank (issue 41; the X_* slots)
X_DRAW = 4         # expert: lead trumps holding at least this many while an opponent may hold one (11: never)
X_RISK = 5         # expert: a master stands when the last opponent's chance of being void in its suit is at most this
X_BANK = 6         # expert: a sure win takes the card of most bank x 10 x thirds - keep_cost (0: the cheapest)
X_CLINCH = 7       # expert: at most this many thirds short of the target, play masters (0: never)
X_PLAIN = 8        # expert: 1: lead a plain master that counts before any other lead
N_PARAMS = SP_PRM + 9       # the search row, then its rollout policy's row (the expert's 9 at most)
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
# a critique action code (issue 40): kind << ACT_SHIFT | the legal action above (``kernels.trick_search``)
MAX_ACTS = TRICKS  # legal actions of a decision at most (the cards of a full hand)

# ---- what a plug-in's decide(view, legal, n, prm) sees: its seat's view ----------
V_SEAT = 0         # the deciding seat
V_KIND = 1         # decision kind (K_*)
V_SIDE = 2         # the seat's side: 0 = seats 0+2, 1 = seats 1+3
V_HAND = 3         # own cards (40-card mask)
V_TRUMP = 4        # trump suit, -1 before it is named
V_BATT = 5         # the battitore of this hand
V_DEALER = 6       # the dealer of this hand
V_LEADER = 7       # leader of the current trick (the battitore before trick 1)
V_TRICK_NO = 8     # tricks completed in this hand (0..9)
V_NCARDS = 9       # cards in the current trick
V_LED = 10         # suit led in the current trick, -1 before the lead
V_TRICK = 11       # V_TRICK + i: i-th card of the current trick (play order), -1 beyond V_NCARDS
V_PLAYED = 15      # every card played this hand (mask)
V_WON = 16         # V_WON + side: cards in the side's tricks this hand (mask)
V_THIRDS = 18      # V_THIRDS + side: thirds won this hand (the last trick's 3 included)
V_TRICKS_WON = 20  # V_TRICKS_WON + side: tricks won this hand
V_MARAF = 22       # V_MARAF + side: marafone declared this hand
V_SCORE = 24       # V_SCORE + side: game score before this hand (whole points)
V_GAMES = 26       # V_GAMES + side: games won in the match
V_COUNT = 28       # V_COUNT + side: the side's claim count in thirds (score, thirds won, marafone)
V_TARGET = 30      # the target in thirds (a claim is correct when the count reaches it)
V_MARAF_POINTS = 31  # points of a marafona
V_HAND_NO = 32     # hand number in the game (1-based)
V_GAME_NO = 33     # game number in the match (0-based)
V_EXTRA = 34       # 1 in an extra hand (both sides reached the target; no claims)
V_DECLARABLE = 35  # K_DECLARE: suit mask of the cricche the seat would declare (else 0)
V_DECLARED = 36    # V_DECLARED + p: suit mask of the cricche seat p declared this hand
V_HELD = 40        # V_HELD + p: cards seat p holds
V_LAST_WINNER = 44  # winner of the last completed trick, -1
V_TRUMP_ONLY = 45  # 1: only the 3-2-A of trump is a marafona (marafona_trump_only); 0: any suit's
VIEW_SIZE = 46

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

# ---- record columns (one row per match) -----------------------------------------
RC_DEALER = 0     # dealer of the first hand
RC_REASON = 1     # end reason of the last game
RC_WINNER = 2     # a seat of the winning side (alternates with the match index), -1
RC_WIN_SIDE = 3   # winning side, -1
RC_TRUNC = 4
RC_ERR = 5
RC_TRICKS = 6     # tricks played
RC_HANDS = 7      # hands played
RC_GAMES = 8      # games played
RC_GAMES_WON = 9  # + side
RC_SCORE = 11     # + side: final scores of the last game
RC_CLAIMS = 13
RC_EXTRA = 14     # extra hands played
RC_HAND = 16      # hand blocks, HB_SIZE each
HB_GAME = 0       # game number of the hand
HB_BATT = 1       # battitore
HB_TRUMP = 2      # trump suit
HB_PTS = 3        # + side: points added to the game score (0 if a claim ended the hand)
HB_THIRDS = 5     # + side: thirds won (so far, if a claim ended the hand)
HB_MARAF = 7      # + side: marafone declared
HB_HOLDER = 9     # seat holding the 3-2-A of trump, -1
HB_END = 10       # 0 scored, 1 correct claim, 2 wrong claim
HB_EXTRA = 11     # 1 for an extra hand
HB_SIZE = 12
RECORD_COLS = RC_HAND + HAND_SLOTS * HB_SIZE


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b, c, d):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, c, d)


@njit(cache=True, inline='always')
def side_count(st, opts, side):
    """The side's claim count in thirds: score before the hand, thirds won, marafone (§A8)."""
    return 3 * st[SCORE + side] + st[THIRDS + side] + 3 * opts[O_MARAF_POINTS] * st[MARAF + side]


@njit(cache=True)
def owner_of(st, card):
    return holder_of(st[HAND:HAND + N_PLAYERS], card)


# =============================================================================
# the deal and the trump
# =============================================================================
@njit(cache=True)
def reset_hand(st):
    for i in range(BATT, PVIEW):
        st[i] = 0
    for i in range(VOID, ST_SIZE):
        st[i] = 0
    st[TRUMP] = -1
    st[LED] = -1
    st[LAST_WINNER] = -1
    st[MHOLDER] = -1


@njit(cache=True)
def deal(st, gdeck):
    """Shuffle and deal 10 each in two rounds of packets of 5 from the dealer's right."""
    for i in range(40):
        st[DECK + i] = i
    shuffle(gdeck, st, DECK, DECK + 40)
    for r in range(2):
        for k in range(1, 5):
            seat = (st[DEALER] + k) % 4
            for j in range(5):
                st[HAND + seat] |= np.int64(1) << st[DECK + 20 * r + 5 * (k - 1) + j]


@njit(cache=True)
def begin_hand(st, gdeck, trace):
    """Deal; the battitore is the 4D holder in a game's first hand, else the dealer's right."""
    reset_hand(st)
    deal(st, gdeck)
    st[HOLDER4D] = owner_of(st, FOUR_COINS)
    st[BATT] = st[HOLDER4D] if st[HAND_NO] == 1 else (st[DEALER] + 1) % 4
    log(st, trace, T_HAND, -1, st[HAND_NO], st[DEALER], st[BATT], st[HOLDER4D])
    for p in range(N_PLAYERS):
        log(st, trace, T_DEAL, p, st[HAND + p], 0, 0, 0)


@njit(cache=True, inline='always')
def set_trump(st, suit, trace):
    st[TRUMP] = suit
    st[LEADER] = st[BATT]
    for p in range(N_PLAYERS):
        if (cricche(st[HAND + p]) >> suit) & 1:
            st[MHOLDER] = p
    log(st, trace, T_TRUMP, st[BATT], suit, 0, 0, 0)


@njit(cache=True, inline='always')
def choose_trump(hand, sid, prm, opts, gen):
    """The trump-choice policy sees only the battitore's own ten cards (§A3) and the rules.

    greedy / heuristic: the suit of best ``tricks.trump_score``, where a suit holding the
    3-2-A scores ``marafona_weight`` more (heuristic's parameter; greedy: GREEDY_MARAFONA_WEIGHT)
    when the rules pay the marafona only in trumps, so the battitore keeps his marafona
    (before this, 7 % of the hands holding a cricca named another, longer suit)."""
    if sid == S_RANDOM:
        return below(gen, 4)
    c = cricche(hand)
    if c == 0 or opts[O_TRUMP_ONLY] == 0 or opts[O_MARAF_POINTS] == 0:
        return best_trump(hand)
    w = GREEDY_MARAFONA_WEIGHT if sid == S_GREEDY else prm[3]
    best = 0
    bv = -1e300
    for s in range(4):
        v = trump_score(hand, s) + (w if (c >> s) & 1 else 0.0)
        if v > bv:
            bv = v
            best = s
    return best


# =============================================================================
# claims (§A8)
# =============================================================================
@njit(cache=True, inline='always')
def wants_claim(st, opts, p, sid, prm, gen):
    """random: with probability claim_prob (or claim_due once the count is due). greedy: exact count. heuristic: a count off by up
    to memory_noise thirds (uniform), claiming with claim_margin thirds to spare."""
    c = side_count(st, opts, p & 1)
    t = opts[O_TARGET]
    if sid == S_RANDOM:
        if prm[1] > 0 and c >= t and uniform(gen) < prm[1]:
            return True
        return prm[0] > 0 and uniform(gen) < prm[0]
    if sid == S_GREEDY:
        return c >= t
    noise = np.int64(prm[1])
    if c + noise < t + prm[0]:
        return False
    if noise > 0:
        c += below(gen, 2 * noise + 1) - noise
    return c >= t + prm[0]


@njit(cache=True, inline='always')
def end_game(st, side, reason, trace):
    st[OVER] = 1
    st[WIN_SIDE] = side
    st[REASON] = reason
    if side >= 0:
        st[GAMES + side] += 1
    log(st, trace, T_END, -1, reason, side, st[SCORE], st[SCORE + 1])


@njit(cache=True, inline='always')
def resolve_claim(st, opts, p, trace):
    """A correct claim wins the game at once, a wrong one loses it."""
    side = p & 1
    count = side_count(st, opts, side)
    ok = count >= opts[O_TARGET]
    st[CLAIMS] += 1
    st[HAND_END] = 1 if ok else 2
    log(st, trace, T_CLAIM, p, np.int64(ok), count, 0, 0)
    end_game(st, side if ok else 1 - side, np.int64(R_CLAIM_CORRECT if ok else R_CLAIM_WRONG), trace)


@njit(cache=True, inline='always')
def claim_window(st, opts, first, sids, params, gplay, trace, plug, plugged):
    """Ask the seats from ``first`` anticlockwise; the first claim ends the game. Returns
    E_PLUGIN for a plug-in's illegal answer, else 0. ``plugged``: a constant, False when no
    seat at the table is a plug-in (``play_out``: the plug-in branches compile away)."""
    st[ASKED] = 1
    if opts[O_CLAIMS] == 0 or st[EXTRA]:
        return 0
    for k in range(N_PLAYERS):
        p = (first + k) & 3
        i = claim_choice(st, opts, p, sids, params, gplay, plug, plugged)
        if i == -2:
            return E_PLUGIN
        if i:
            resolve_claim(st, opts, p, trace)
            return 0
    return 0


@njit(cache=True, inline='always')
def claim_choice(st, opts, p, sids, params, gplay, plug, plugged):
    """Seat p's answer at a claim window: 1 claim, 0 not, -2 a plug-in's illegal answer (its
    plug-in's K_CLAIM where its kinds ask, else its built-in's; a search seat as its policy)."""
    sid, i = sids[p], -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, p, K_CLAIM):
            i = plugin_decide(st, opts, p, K_CLAIM, 0, plug, params)
        if i == -2:
            return -2
    if i < 0:
        off = 0
        if plugged and sid == S_SEARCH:          # a search seat claims as its rollout policy
            sid = np.int64(params[p, SP_POLICY])
            off = SP_PRM
        i = 1 if wants_claim(st, opts, p, sid, params[p, off:], gplay) else 0
    return i


# =============================================================================
# the marafona (§A5)
# =============================================================================
@njit(cache=True, inline='always')
def declarable(st, opts, p):
    """Suit mask of the cricche seat p may declare now (trick 1, his turn)."""
    if opts[O_DECLARER] == 1 and p != st[BATT]:
        return 0
    c = cricche(st[HAND + p])
    if opts[O_TRUMP_ONLY]:
        c &= 1 << st[TRUMP]
    return c


@njit(cache=True, inline='always')
def wants_declare(sid, gen):
    """Only asked when declaring is optional: random tosses a coin, the others declare."""
    if sid == S_RANDOM:
        return below(gen, 2) == 1
    return True


@njit(cache=True, inline='always')
def declare_step(st, opts, p, sids, params, gplay, trace, plug, plugged):
    """Seat p's marafona (trick 1, its turn), then a claim window; returns E_PLUGIN or 0."""
    c = declarable(st, opts, p)
    if c == 0:
        return 0
    if opts[O_AUTO_DECLARE] == 0:
        i = declare_choice(st, opts, p, sids, params, gplay, plug, plugged)
        if i == -2:
            return E_PLUGIN
        if i == 0:
            return 0
    declare(st, p, c, trace)
    return claim_window(st, opts, p, sids, params, gplay, trace, plug, plugged)


@njit(cache=True, inline='always')
def declare_choice(st, opts, p, sids, params, gplay, plug, plugged):
    """Seat p's optional marafona (``marafona_auto_declare`` false): 1 declare, 0 not, -2 a
    plug-in's illegal answer (its plug-in's K_DECLARE where asked, else its built-in's; a
    search seat as its policy)."""
    sid, i = sids[p], -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, p, K_DECLARE):
            i = plugin_decide(st, opts, p, K_DECLARE, 0, plug, params)
        if i == -2:
            return -2
    if i < 0:
        if plugged and sid == S_SEARCH:
            sid = np.int64(params[p, SP_POLICY])
        i = 1 if wants_declare(sid, gplay) else 0
    return i


@njit(cache=True, inline='always')
def declare(st, p, c, trace):
    """Seat p declares the cricche of the suit mask ``c``."""
    st[MARAF + (p & 1)] += popcount(c)
    st[DECL + p] |= c
    log(st, trace, T_DECLARE, p, c, 0, 0, 0)


# =============================================================================
# plug-in strategies: the view and the call
# =============================================================================
@njit(cache=True)
def fill_view(st, opts, p, kind, view):
    """What seat p may see when it decides a ``kind`` decision, into ``view`` (the V_*
    layout): its own hand, the table, the public history of the hand (cards played, tricks
    won, declarations), scores; never another hand, the deck, or who holds an undeclared
    cricca."""
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_SIDE] = p & 1
    view[V_HAND] = st[HAND + p]
    view[V_TRUMP] = st[TRUMP]
    view[V_BATT] = st[BATT]
    view[V_DEALER] = st[DEALER]
    view[V_LEADER] = st[LEADER] if st[TRUMP] >= 0 else st[BATT]
    view[V_TRICK_NO] = st[TRICK_NO]
    view[V_NCARDS] = st[NCARDS]
    view[V_LED] = st[LED]
    for i in range(4):
        view[V_TRICK + i] = st[TRICK + i] if i < st[NCARDS] else -1
    view[V_PLAYED] = st[PLAYED]
    for s in range(2):
        view[V_WON + s] = st[WON + s]
        view[V_THIRDS + s] = st[THIRDS + s]
        view[V_TRICKS_WON + s] = st[TRICKS_WON + s]
        view[V_MARAF + s] = st[MARAF + s]
        view[V_SCORE + s] = st[SCORE + s]
        view[V_GAMES + s] = st[GAMES + s]
        view[V_COUNT + s] = side_count(st, opts, s)
    view[V_TARGET] = opts[O_TARGET]
    view[V_MARAF_POINTS] = opts[O_MARAF_POINTS]
    view[V_HAND_NO] = st[HAND_NO]
    view[V_GAME_NO] = st[GAME_NO]
    view[V_EXTRA] = st[EXTRA]
    view[V_DECLARABLE] = declarable(st, opts, p) if kind == K_DECLARE else 0
    for q in range(N_PLAYERS):
        view[V_DECLARED + q] = st[DECL + q]
        view[V_HELD + q] = popcount(st[HAND + q])
    view[V_LAST_WINNER] = st[LAST_WINNER]
    view[V_TRUMP_ONLY] = opts[O_TRUMP_ONLY]


@njit(cache=True, inline='always')
def asks(params, p, kind):
    """Whether plug-in seat p's kinds mask asks it decisions of ``kind`` (tested before the
    call: most claim windows of a card-play plug-in then cost no call)."""
    return (np.int64(params[p, N_PARAMS + PLUG_KINDS]) >> kind) & 1 == 1


@njit(cache=True)
def plugin_decide(st, opts, p, kind, cards, plug, params):
    """Plug-in seat p's decision of ``kind``, called only where its kinds mask asks (``asks``,
    tested at each call site; the plug-in parameters ``prm`` are row p of ``params`` from
    column N_PARAMS on): the legal list into ``legal`` (st[PLEGAL:]: K_TRUMP the suits,
    K_DECLARE / K_CLAIM 0 and 1, K_CARD the cards of the mask ``cards``), then
    ``plug(view, legal, n, prm)`` on the seat's view (st[PVIEW:]). Returns the chosen action
    (a suit, 0 / 1, a card), -1 to leave the decision to the seat's base built-in, -2 for an
    illegal answer. One plain function for every call site, so the inlined play loop holds
    only the call."""
    prm = params[p][N_PARAMS:]
    view = st[PVIEW:PVIEW + VIEW_SIZE]
    legal = st[PLEGAL:PLEGAL + 40]
    n = 0
    if kind == K_TRUMP:
        for s in range(4):
            legal[s] = s
        n = 4
    elif kind == K_CARD:
        m = cards
        while m:                                 # the cards of the mask, lowest first
            legal[n] = lowbit(m)
            m &= m - 1
            n += 1
    else:
        legal[0] = 0
        legal[1] = 1
        n = 2
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
def heuristic_card(st, p, legal, prm):
    """Club-player card play (``tricks.lead_card`` / ``tricks.follow_card``)."""
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    trump = st[TRUMP]
    k = st[NCARDS]
    if k == 0:
        return lead_card(hand, unseen, trump)
    w = trick_winner(st[TRICK:TRICK + 4], k, trump)
    friend = ((st[LEADER] + w) & 1) == (p & 1)
    opp_after = 2 if k == 0 else (1 if k < 3 else 0)
    return follow_card(legal, unseen, st[TRICK + w], friend, opp_after,
                       mask_thirds(trick_mask(st[TRICK:TRICK + 4], st[NCARDS])), trump, prm[2])


# ---- the expert (issue 41): heuristic plus what a good player reads from the table ----------
@njit(cache=True)
def ruff_chance(st, suit, unseen, q):
    """Chance that seat ``q`` can ruff a card of ``suit`` (``tricks.ruff_odds``: its voids shown,
    its hand's size that everyone sees)."""
    return ruff_odds(suit, st[TRUMP], unseen, st[VOID + q], popcount(st[HAND + q]))


@njit(cache=True)
def stands(st, card, unseen, last, risk):
    """A ``card`` on top of the trick is likely to stay there: no opponent plays after it (``last``
    -1), or it is a master of its suit (no unseen card outranks it) that ``last``, the opponent
    still to play, ruffs with a chance of at most ``risk``."""
    return last < 0 or (is_master(card, unseen) and ruff_chance(st, card // 10, unseen, last) <= risk)


@njit(cache=True)
def expert_lead(st, p, hand, unseen, prm):
    """The expert's lead: trumps while it holds ``draw_trumps`` or more and an opponent may
    still hold one (not both shown void): the master trump if held, else the lowest; otherwise
    as the heuristic (``tricks.lead_card``)."""
    trump = st[TRUMP]
    tmask = suit_mask40(trump)
    mine = hand & tmask
    opp_void = ((st[VOID + ((p + 1) & 3)] & st[VOID + ((p + 3) & 3)]) >> trump) & 1
    if mine and popcount(mine) >= prm[X_DRAW] and (unseen & tmask) and not opp_void:
        top = highbit(mine)                      # the highest trump held
        return top if is_master(top, unseen) else cheapest(mine, trump)
    return lead_card(hand, unseen, trump)


@njit(cache=True)
def expert_follow(st, p, legal, unseen, prm):
    """The expert's follow (``tricks.follow_card`` read with the odds of a ruff): a partner on
    top whose card ``stands`` (the last opponent ruffs it with a chance of at most
    ``ruff_risk``) gets points (``richest``), else the cheapest card; against an opponent on top
    a winner that stands (the fourth hand: any winner) is chosen by ``bank`` (points first:
    what is won now cannot be lost later), else the cheapest winner, or the cheapest card on a
    trick worth nothing; the trump 3 and 2 only on a trick worth ``honour_min`` thirds."""
    trump = st[TRUMP]
    k = st[NCARDS]
    w = trick_winner(st[TRICK:TRICK + 4], k, trump)
    best = st[TRICK + w]
    last = (st[LEADER] + 3) & 3 if k < 3 else -1
    thirds = mask_thirds(trick_mask(st[TRICK:TRICK + 4], st[NCARDS]))
    if ((st[LEADER] + w) & 1) == (p & 1):
        return richest(legal, trump) if stands(st, best, unseen, last, prm[X_RISK]) else cheapest(legal, trump)
    win = beating_cards(legal, best, trump)
    if win and thirds < prm[2]:                  # the trump 3 and 2 wait for a trick worth them
        win &= ~trump_honours(trump)
    if win == 0:
        return cheapest(legal, trump)
    sure = 0
    m = win
    while m:
        c = lowbit(m)
        m &= m - 1
        if stands(st, c, unseen, last, prm[X_RISK]):
            sure |= np.int64(1) << c
    if sure:
        return bank_card(sure, trump, prm[X_BANK])
    return cheapest(legal, trump) if thirds == 0 else cheapest(win, trump)


@njit(cache=True)
def clinch_card(st, legal, unseen):
    """At game point, a trick for sure: leading, the richest master trump, else the richest
    master; following, the cheapest sure winner (in fourth hand any winner, else a master
    trump). -1 when there is none."""
    trump = st[TRUMP]
    tmask = suit_mask40(trump)
    masters = masters_of(legal, unseen)
    if st[NCARDS] == 0:
        if masters & tmask:
            return richest(masters & tmask, trump)
        return richest(masters, trump) if masters else -1
    win = beating_cards(legal, st[TRICK + trick_winner(st[TRICK:TRICK + 4], st[NCARDS], trump)], trump)
    sure = win if st[NCARDS] == 3 else win & masters & tmask
    return cheapest(sure, trump) if sure else -1


@njit(cache=True)
def plain_master_lead(hand, unseen, trump):
    """The richest plain-suit master of ``hand`` when it counts (a figure, 2, 3 or ace), else -1."""
    plain = masters_of(hand, unseen) & ~suit_mask40(trump)
    best = richest(plain, trump) if plain else -1
    return best if best >= 0 and VALUE_THIRDS[best % 10] >= 1 else -1


@njit(cache=True, inline='always')
def expert_card(st, opts, p, legal, prm):
    """The expert's card: at most ``clinch`` thirds short of the target a sure trick
    (``clinch_card``: a trick won lets the side claim), then with ``plain_first`` a counting
    plain master led first (``plain_master_lead``), else ``expert_lead`` / ``expert_follow``.
    It reads only what its seat sees: its hand, the cards played, the trick, the voids shown,
    the hand sizes and the counts."""
    hand = st[HAND + p]
    unseen = FULL40 & ~st[PLAYED] & ~hand
    if prm[X_CLINCH] > 0 and side_count(st, opts, p & 1) >= opts[O_TARGET] - prm[X_CLINCH]:
        c = clinch_card(st, legal, unseen)
        if c >= 0:
            return c
    if st[NCARDS] == 0:
        if prm[X_PLAIN] > 0:
            c = plain_master_lead(hand, unseen, st[TRUMP])
            if c >= 0:
                return c
        return expert_lead(st, p, hand, unseen, prm)
    return expert_follow(st, p, legal, unseen, prm)


@njit(cache=True, inline='always')
def choose_card(st, opts, p, legal, sid, prm, gen):
    if sid == S_RANDOM:
        return nth_card(legal, below(gen, popcount(legal)))
    if sid == S_GREEDY:
        return greedy_card(legal, st[TRICK:TRICK + 4], st[NCARDS], st[TRUMP])
    if sid == S_EXPERT:
        return expert_card(st, opts, p, legal, prm)
    return heuristic_card(st, p, legal, prm)


@njit(cache=True, inline='always')
def put_card(st, p, card, trace):
    st[HAND + p] &= ~(np.int64(1) << card)
    st[PLAYED] |= np.int64(1) << card
    st[PLAYED_BY + p] |= np.int64(1) << card
    if st[NCARDS] == 0:
        st[LED] = card // 10
    elif card // 10 != st[LED]:
        st[VOID + p] |= np.int64(1) << st[LED]
    st[TRICK + st[NCARDS]] = card
    st[NCARDS] += 1
    st[ASKED] = 0
    log(st, trace, T_PLAY, p, card, 0, 0, 0)


@njit(cache=True, inline='always')
def card_choice(st, opts, p, legal, sid, prm, gplay, plug, params, plugged):
    """Seat p's card among the mask ``legal`` (its plug-in's K_CARD where asked, else its
    search's or its built-in's; ``prm`` its row), -2 for a plug-in's illegal answer."""
    card = -1
    if plugged and sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, p, K_CARD):
            card = plugin_decide(st, opts, p, K_CARD, legal, plug, params)
        if card == -2:
            return -2
    if card < 0:
        if plugged and sid == S_SEARCH:
            card = search_card(st, opts, p, legal, prm, gplay, plug)
        else:
            card = choose_card(st, opts, p, legal, sid, prm, gplay)
    return card


@njit(cache=True, inline='always')
def play_turn(st, opts, p, sid, prm, check, gplay, trace, plug, params, plugged):
    """Seat p plays one card; returns a check error (0 = none)."""
    legal = legal_cards(st[HAND + p], st[LED])
    if legal == 0:
        return E_NO_MOVES
    card = card_choice(st, opts, p, legal, sid, prm, gplay, plug, params, plugged)
    if card == -2:
        return E_PLUGIN
    if check and not (legal >> card) & 1:
        return E_ILLEGAL
    put_card(st, p, card, trace)
    return 0


@njit(cache=True, inline='always')
def finish_trick(st, trace):
    """The trick goes to its winner's side with its thirds (+3 for the last trick)."""
    w = trick_winner(st[TRICK:TRICK + 4], st[NCARDS], st[TRUMP])
    winner = (st[LEADER] + w) & 3
    m = trick_mask(st[TRICK:TRICK + 4], st[NCARDS])
    thirds = mask_thirds(m)
    st[TRICK_NO] += 1
    if st[TRICK_NO] == TRICKS:
        thirds += LAST_TRICK_THIRDS
    side = winner & 1
    st[THIRDS + side] += thirds
    st[WON + side] |= m
    st[TRICKS_WON + side] += 1
    st[LAST_WINNER] = winner
    st[LEADER] = winner
    st[NCARDS] = 0
    st[LED] = -1
    st[TRICKS_PLAYED] += 1
    log(st, trace, T_TRICK, winner, thirds, st[THIRDS], st[THIRDS + 1], 0)


@njit(cache=True, inline='always')
def play_trick(st, opts, sids, params, check, gplay, trace, plug, plugged):
    """One trick with its declarations and claim windows; returns a check error."""
    leader = st[LEADER]
    for k in range(N_PLAYERS):
        p = (leader + k) & 3
        if st[TRICK_NO] == 0:
            e = declare_step(st, opts, p, sids, params, gplay, trace, plug, plugged)
            if e:
                return e
        if opts[O_CLAIM_TIMING] == 1 and st[ASKED] == 0 and st[OVER] == 0:
            e = claim_window(st, opts, p, sids, params, gplay, trace, plug, plugged)
            if e:
                return e
        if st[OVER]:
            return 0
        e = play_turn(st, opts, p, sids[p], params[p], check, gplay, trace, plug, params, plugged)
        if e == 0 and check:
            e = check_cards(st)
        if e:
            return e
    finish_trick(st, trace)
    return claim_window(st, opts, st[LAST_WINNER], sids, params, gplay, trace, plug, plugged)


# =============================================================================
# scoring and the end of the game (§A6, §A7)
# =============================================================================
@njit(cache=True)
def score_hand(st, opts, trace):
    """Each side: its thirds truncated to whole points, plus its marafona bonuses."""
    for s in range(2):
        st[PTS + s] = st[THIRDS + s] // 3 + opts[O_MARAF_POINTS] * st[MARAF + s]
        st[SCORE + s] += st[PTS + s]
    log(st, trace, T_SCORE, -1, st[PTS], st[PTS + 1], st[SCORE], st[SCORE + 1])


@njit(cache=True)
def after_hand(st, opts, trace):
    """Decide the game after a scored hand: one side at the target wins; both: extra hands."""
    mode = opts[O_BOTH_REACH]
    if st[EXTRA]:
        d = st[PTS] - st[PTS + 1] if mode == BOTH_POINTS else st[SCORE] - st[SCORE + 1]
        if d != 0:
            end_game(st, np.int64(0 if d > 0 else 1), np.int64(R_HIGHER if mode == BOTH_HIGHER else R_EXTRA),
                     trace)
        return
    q0 = 3 * st[SCORE] >= opts[O_TARGET]
    q1 = 3 * st[SCORE + 1] >= opts[O_TARGET]
    if q0 and q1:
        if mode == BOTH_HIGHER and st[SCORE] != st[SCORE + 1]:
            end_game(st, np.int64(0 if st[SCORE] > st[SCORE + 1] else 1), np.int64(R_HIGHER), trace)
        else:
            st[EXTRA] = 1
    elif q0 or q1:
        end_game(st, np.int64(0 if q0 else 1), np.int64(R_TARGET), trace)


@njit(cache=True)
def next_dealer(st, opts):
    """Hand 2's dealer is the first hand's 4D holder (default), then the deal passes right."""
    if st[HAND_NO] == 1 and opts[O_SECOND_DEALER] == 0:
        st[DEALER] = st[HOLDER4D]
    else:
        st[DEALER] = (st[DEALER] + 1) % 4


# =============================================================================
# search (issue 19): determinized Monte Carlo over the legal cards (and the trump)
# =============================================================================
DEAL_TRIES = 16         # deals tried for a world that also respects the declarations not made


@njit(cache=True)
def acted_in_first_trick(st, q):
    """Seat q has had its turn in trick 1 (so it declared there, or held nothing to declare)."""
    return st[TRICK_NO] > 0 or ((q - st[LEADER]) & 3) < st[NCARDS]


@njit(cache=True)
def declarable_in(st, opts, q, hand):
    """``declarable`` for seat q holding ``hand``."""
    if opts[O_DECLARER] == 1 and q != st[BATT]:
        return 0
    c = cricche(hand)
    if opts[O_TRUMP_ONLY]:
        c &= 1 << st[TRUMP]
    return c


@njit(cache=True)
def deal_constrained(cards, m, need, elig, out, gen, left, rem):
    """Deal ``cards[:m]`` (shuffled) to three seats: ``need[j]`` cards each, none of a suit
    seat j has shown void in (``elig[s]``: the seats that may hold suit s), into ``out``. Each card
    goes to a seat drawn in proportion to its open places among those that may take it and leave
    the rest dealable (``trick_search.place``); without voids that is a uniform deal."""
    for j in range(3):
        left[j] = need[j]
        out[j] = 0
    for s in range(4):
        rem[s] = 0
    for i in range(m):
        rem[cards[i] // 10] += 1
    for i in range(m):
        c = cards[i]
        s = c // 10
        rem[s] -= 1
        chosen = place(c, elig[s], left, rem, elig, gen)
        if chosen < 0:           # only for inconsistent constraints: any seat with room
            for j in range(3):
                if left[j] > 0:
                    chosen = j
            left[chosen] -= 1
        out[chosen] |= np.int64(1) << c


@njit(cache=True)
def determinize(st, opts, p, gen, work):
    """Deal again, in ``st``, the three hands seat ``p`` cannot see, from the cards it has not
    seen, consistently with everything public: hand sizes, the suits each seat has shown void
    in (``VOID``), the declared cricche still unplayed (``DECL``) and, in a game's first hand,
    the 4 of coins with the battitore (he named trump as its holder) until it is played; with
    ``marafona_auto_declare``, no seat that has had its turn in trick 1 gets a cricca it would
    have declared and did not (up to DEAL_TRIES deals; then the last one). Reads only what
    ``p`` may see. ``work``: scratch (64 int64)."""
    others = work[0:3]
    known = work[3:6]
    need = work[6:9]
    hands = work[9:12]
    left = work[12:15]
    rem = work[15:19]
    elig = work[19:23]
    cards = work[24:64]
    k = 0
    for q in range(N_PLAYERS):
        if q != p:
            others[k] = q
            k += 1
    taken = st[PLAYED] | st[HAND + p]
    for s in range(4):
        elig[s] = 0
    for j in range(3):
        q = others[j]
        m = 0
        for s in range(4):
            if (st[DECL + q] >> s) & 1:
                m |= np.int64(CRICCA) << (10 * s)
        if st[HAND_NO] == 1 and q == st[BATT]:
            m |= np.int64(1) << FOUR_COINS
        m &= ~st[PLAYED]
        known[j] = m
        taken |= m
        need[j] = popcount(st[HAND + q]) - popcount(m)
        for s in range(4):
            if not (st[VOID + q] >> s) & 1:
                elig[s] |= 1 << j
    pool = FULL40 & ~taken
    m = 0
    while pool:
        cards[m] = lowbit(pool)
        m += 1
        pool &= pool - 1
    check = opts[O_AUTO_DECLARE] == 1 and st[TRUMP] >= 0
    for attempt in range(DEAL_TRIES):
        shuffle_prefix(cards, m, gen)
        deal_constrained(cards, m, need, elig, hands, gen, left, rem)
        ok = True
        if check:
            for j in range(3):
                q = others[j]
                if acted_in_first_trick(st, q) and \
                        declarable_in(st, opts, q, hands[j] | known[j] | st[PLAYED_BY + q]) != st[DECL + q]:
                    ok = False
        if ok:
            break
    for j in range(3):
        st[HAND + others[j]] = hands[j] | known[j]


@njit(cache=True)
def roll_hand(st, opts, sids, params, gen, trace, plug):
    """Play the hand in ``st`` to its end from wherever it stands (mid-trick too: the seats
    still to play in this trick first), with the strategies ``sids`` / ``params`` (built-ins
    only): declarations, claim windows, tricks, and the scoring and end-of-game test of
    ``play_tricks``; stops at the end of the hand (or of the game)."""
    while st[OVER] == 0 and st[TRICK_NO] < TRICKS:
        while st[NCARDS] < N_PLAYERS:
            p = (st[LEADER] + st[NCARDS]) & 3
            if st[TRICK_NO] == 0:
                declare_step(st, opts, p, sids, params, gen, trace, plug, False)
            if opts[O_CLAIM_TIMING] == 1 and st[ASKED] == 0 and st[OVER] == 0:
                claim_window(st, opts, p, sids, params, gen, trace, plug, False)
            if st[OVER]:
                return
            legal = legal_cards(st[HAND + p], st[LED])
            put_card(st, p, choose_card(st, opts, p, legal, sids[p], params[p], gen), trace)
        finish_trick(st, trace)
        claim_window(st, opts, st[LAST_WINNER], sids, params, gen, trace, plug, False)
    if st[OVER] == 0:
        score_hand(st, opts, trace)
        after_hand(st, opts, trace)


@njit(cache=True)
def search_value(st, opts, side, game_weight):
    """A rollout's worth to ``side``: its hand points minus the other side's (the scored
    points; thirds / 3 and the marafone where a claim ended the hand), plus ``game_weight``
    if the game ended in the hand and ``side`` won it (minus if it lost)."""
    o = 1 - side
    if st[TRICK_NO] == TRICKS and st[HAND_END] == 0:
        v = float(st[PTS + side] - st[PTS + o])
    else:
        v = (st[THIRDS + side] - st[THIRDS + o]) / 3.0 + opts[O_MARAF_POINTS] * (st[MARAF + side] - st[MARAF + o])
    if st[OVER]:
        if st[WIN_SIDE] == side:
            v += game_weight
        elif st[WIN_SIDE] == o:
            v -= game_weight
    return v


@njit(cache=True)
def rollout_table(prm, width):
    """Every seat the search row's rollout policy, with its parameter row."""
    sids = np.empty(N_PLAYERS, np.int64)
    params = np.zeros((N_PLAYERS, width), np.float64)
    for q in range(N_PLAYERS):
        sids[q] = np.int64(prm[SP_POLICY])
        for i in range(N_PARAMS - SP_PRM):
            params[q, i] = prm[SP_PRM + i]
    return sids, params


@njit(cache=True)
def finish_turn(st, opts, sids, params, gen, trace, plug):
    """The rest of the turn of the seat to play after its declaration step, as ``play_trick``
    plays it: a claim window where ``claim_timing`` asks one, then its card (``sids`` /
    ``params``: built-ins). Nothing once the game is over or the hand's tricks are played."""
    if st[OVER] or st[TRICK_NO] == TRICKS:
        return
    p = (st[LEADER] + st[NCARDS]) & 3
    if opts[O_CLAIM_TIMING] == 1 and st[ASKED] == 0:
        claim_window(st, opts, p, sids, params, gen, trace, plug, False)
        if st[OVER]:
            return
    legal = legal_cards(st[HAND + p], st[LED])
    put_card(st, p, choose_card(st, opts, p, legal, sids[p], params[p], gen), trace)


@njit(cache=True)
def play_choice(st, opts, p, kind, ctx, v, sids, params, gen, trace, plug):
    """Seat p's action ``v`` of decision ``kind`` in ``st`` (K_TRUMP a suit, K_CARD a card,
    K_DECLARE / K_CLAIM 1 or 0), then the hand played to its end by the built-ins ``sids`` /
    ``params`` (``roll_hand``). A claim window's other seats answer after p: ``ctx`` = 4 x the
    seat that opened it + p's place in it; then the turn under way goes on (``finish_turn``)."""
    if kind == K_TRUMP:
        set_trump(st, v, trace)
    elif kind == K_CARD:
        put_card(st, p, v, trace)
    elif kind == K_DECLARE:
        if v:
            declare(st, p, declarable(st, opts, p), trace)
            claim_window(st, opts, p, sids, params, gen, trace, plug, False)
        finish_turn(st, opts, sids, params, gen, trace, plug)
    elif v:
        resolve_claim(st, opts, p, trace)
    else:
        first = ctx >> 2
        for k in range((ctx & 3) + 1, N_PLAYERS):
            q = (first + k) & 3
            if wants_claim(st, opts, q, sids[q], params[q], gen):
                resolve_claim(st, opts, q, trace)
                break
        finish_turn(st, opts, sids, params, gen, trace, plug)
    roll_hand(st, opts, sids, params, gen, trace, plug)


@njit(cache=True)
def world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids, params, key, w, base, sim, work, g,
                 trace, plug, total):
    """World ``w`` of seat ``p``'s decision (``kind``, ``ctx``: ``play_choice``) searched with the
    stream keyed by ``key``: the hands ``p`` cannot see dealt again into ``base`` (a copy of
    ``st``: ``determinize``), then each active action ``acts[i]`` (its value in the low
    ACT_SHIFT bits) played and the hand rolled out ``rollouts`` times by the rollout table
    ``sids`` / ``params`` (the same streams for every action: common random numbers);
    ``total[i]`` += each rollout's ``search_value`` for p's side (row ``prm``'s game weight)."""
    gw = prm[EX_GAME_WEIGHT]
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, opts, p, g, work)
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                play_choice(sim, opts, p, kind, ctx, acts[i] & ACT_MASK, sids, params, g, trace, plug)
                total[i] += search_value(sim, opts, p & 1, gw)


@njit(cache=True)
def search_card(st, opts, p, legal, prm, gen, plug):
    """The search strategy's card (row ``prm``: ``kernels.search``) among the mask ``legal``:
    in each of ``worlds`` determinizations every legal card is played and the hand rolled out
    ``rollouts`` times by the policy at every seat (the same rollout streams for every card);
    the card with the best total ``search_value`` wins (the lowest card on ties)."""
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
    sids_r, params_r = rollout_table(prm, N_PARAMS)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    work = np.empty(64, np.int64)
    total = np.zeros(n, np.float64)
    g = np.empty(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    active = np.ones(n, np.bool_)
    for w in range(worlds):
        world_values(st, opts, p, K_CARD, 0, acts, n, active, prm, rollouts, sids_r, params_r, key, w, base, sim,
                     work, g, trace, plug, total)
    return acts[best_action(total, n)]


@njit(cache=True)
def search_trump(st, opts, b, prm, gen, plug):
    """The search battitore's trump: with ``trump`` set, each suit is named in ``worlds``
    deals of the other 30 cards and the hand rolled out by the policy (declarations
    included); the best total ``search_value`` wins. With ``trump`` 0, the policy's choice."""
    if prm[EX_TRUMP] == 0:
        return choose_trump(st[HAND + b], np.int64(prm[SP_POLICY]), prm[SP_PRM:], opts, gen)
    worlds, rollouts = plan_budget(prm, 4)
    key = search_key(gen)
    sids_r, params_r = rollout_table(prm, N_PARAMS)
    base = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    work = np.empty(64, np.int64)
    total = np.zeros(4, np.float64)
    g = np.empty(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    acts = np.arange(4, dtype=np.int64)
    active = np.ones(4, np.bool_)
    for w in range(worlds):
        world_values(st, opts, b, K_TRUMP, 0, acts, 4, active, prm, rollouts, sids_r, params_r, key, w, base, sim,
                     work, g, trace, plug, total)
    return best_action(total, 4)


def search_decision(st, opts, prm, key):
    """The search's card in state ``st`` (the seat to play: leader + cards in the trick) with
    its play stream keyed by ``key`` (tests: other hidden cards must give the same card)."""
    p = (int(st[LEADER]) + int(st[NCARDS])) & 3
    g = np.array([key, 0], dtype=np.uint64)
    return search_card(st, opts, p, legal_cards(st[HAND + p], st[LED]), prm, g, no_plugin)


def search_trump_decision(st, opts, prm, key):
    """The search battitore's trump in state ``st`` (dealt, trump not named) for tests."""
    g = np.array([key, 0], dtype=np.uint64)
    return search_trump(st, opts, int(st[BATT]), prm, g, no_plugin)


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
# HALT, act_code, decision_kind, mask_acts: ``kernels.trick_search`` (a claim window and the card
# after it see the same state: their action codes tell them apart)


@njit(cache=True)
def critique_eval(st, opts, p, kind, ctx, acts, n, chosen, prm, key, row, acts_out, plug):
    """Value every legal action ``acts[:n]`` (action codes) of seat ``p``'s decision ``kind``
    (``ctx``: ``play_choice``) with the search row ``prm`` (``kernels.critique``: a racing select
    stage over ``worlds`` worlds, then the best and the choice ``chosen`` measured on as many
    fresh ones) into ``row`` and ``acts_out``. The value is the search's ``search_value``: the
    hand's point difference of p's side, +- the row's game weight for a game decided in the
    hand; each rollout stops at the end of the hand (or of the game). Trump is valued by
    rolling every suit out whatever the row's ``trump``; declarations and claims likewise."""
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sids_r, params_r = rollout_table(prm, N_PARAMS)
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
            world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids_r, params_r, key, ww, base, sim,
                         work, g, trace, plug, out)
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
            world_values(st, opts, p, kind, ctx, acts, n, active, prm, rollouts, sids_r, params_r, key, ww, base, sim,
                         work, g, trace, plug, out)
            played += rollouts * put_world(vals[ww - worlds + w], out, n, active, rollouts)
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)


@njit(cache=True)
def cr_decision(st, opts, p, kind, ctx, acts, n, i, plug, cr):
    """A decision of seat ``p`` (index ``i`` of ``acts[:n]`` chosen) in a critique driver: a row
    when p is the critiqued seat (valued when sampled with more than one legal action), and the
    count of decisions. ``cr`` = (seat, prm, rate, key, cx, rows, acts_out, snaps), ``cx`` =
    [rows written, decisions of the seat, decisions of any seat, stop]."""
    seat, prm, rate, key, cx, rows, acts_out, snaps = cr
    if p == seat:
        k = cx[0]
        if k < len(rows):
            plain_row(rows[k], cx[1], cx[2], kind, st[TRICK_NO], side_count(st, opts, p & 1), n, i, acts[i])
            if n > 1 and sampled(key, cx[1], rate):
                snaps[k, :ST_SIZE] = st
                critique_eval(st, opts, p, kind, ctx, acts, n, i, prm, mix64(key + np.uint64(cx[1] + 1)), rows[k],
                              acts_out[k], plug)
            cx[0] += 1
        cx[1] += 1
    cx[2] += 1


@njit(cache=True)
def cr_window(st, opts, first, sids, params, gplay, trace, plug, cr):
    """``claim_window`` in the critique driver (each seat asked is a K_CLAIM decision)."""
    cx = cr[4]
    st[ASKED] = 1
    if opts[O_CLAIMS] == 0 or st[EXTRA]:
        return 0
    acts = np.empty(2, np.int64)
    acts[0] = act_code(K_CLAIM, 0)
    acts[1] = act_code(K_CLAIM, 1)
    for k in range(N_PLAYERS):
        p = (first + k) & 3
        if cx[2] == cx[3]:
            return HALT
        i = claim_choice(st, opts, p, sids, params, gplay, plug, True)
        if i == -2:
            return E_PLUGIN
        cr_decision(st, opts, p, K_CLAIM, 4 * first + k, acts, 2, i, plug, cr)
        if i:
            resolve_claim(st, opts, p, trace)
            return 0
    return 0


@njit(cache=True)
def cr_declare(st, opts, p, sids, params, gplay, trace, plug, cr):
    """``declare_step`` in the critique driver (an optional declaration is a K_DECLARE decision)."""
    c = declarable(st, opts, p)
    if c == 0:
        return 0
    if opts[O_AUTO_DECLARE] == 0:
        cx = cr[4]
        if cx[2] == cx[3]:
            return HALT
        i = declare_choice(st, opts, p, sids, params, gplay, plug, True)
        if i == -2:
            return E_PLUGIN
        acts = np.empty(2, np.int64)
        acts[0] = act_code(K_DECLARE, 0)
        acts[1] = act_code(K_DECLARE, 1)
        cr_decision(st, opts, p, K_DECLARE, 0, acts, 2, i, plug, cr)
        if i == 0:
            return 0
    declare(st, p, c, trace)
    return cr_window(st, opts, p, sids, params, gplay, trace, plug, cr)


@njit(cache=True)
def cr_trick(st, opts, sids, params, gplay, trace, plug, cr):
    """``play_trick`` in the critique driver (each card is a K_CARD decision)."""
    cx = cr[4]
    acts = np.empty(MAX_ACTS, np.int64)
    leader = st[LEADER]
    for k in range(N_PLAYERS):
        p = (leader + k) & 3
        if st[TRICK_NO] == 0:
            e = cr_declare(st, opts, p, sids, params, gplay, trace, plug, cr)
            if e:
                return e
        if opts[O_CLAIM_TIMING] == 1 and st[ASKED] == 0 and st[OVER] == 0:
            e = cr_window(st, opts, p, sids, params, gplay, trace, plug, cr)
            if e:
                return e
        if st[OVER]:
            return 0
        legal = legal_cards(st[HAND + p], st[LED])
        if legal == 0:
            return E_NO_MOVES
        if cx[2] == cx[3]:
            return HALT
        card = card_choice(st, opts, p, legal, sids[p], params[p], gplay, plug, params, True)
        if card == -2:
            return E_PLUGIN
        n, i = mask_acts(K_CARD, legal, card, acts)
        cr_decision(st, opts, p, K_CARD, 0, acts, n, i, plug, cr)
        put_card(st, p, card, trace)
    finish_trick(st, trace)
    return cr_window(st, opts, st[LAST_WINNER], sids, params, gplay, trace, plug, cr)


@njit(cache=True)
def cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, cr):
    """``play_hand`` (with ``plugged_hand``) in the critique driver (the trump is a K_TRUMP decision)."""
    cx = cr[4]
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[MATCH_HANDS])
    begin_hand(st, gdeck, trace)
    extra = st[EXTRA]
    if cx[2] == cx[3]:
        return HALT
    b = st[BATT]
    suit = trump_choice(st, opts, b, sids, params, gplay, plug)
    if suit == -2:
        return E_PLUGIN
    acts = np.empty(4, np.int64)
    for s in range(4):
        acts[s] = act_code(K_TRUMP, s)
    cr_decision(st, opts, b, K_TRUMP, 0, acts, 4, suit, plug, cr)
    set_trump(st, suit, trace)
    e = 0
    for t in range(TRICKS):
        e = cr_trick(st, opts, sids, params, gplay, trace, plug, cr)
        if e or st[OVER]:
            break
    if e == HALT:
        return HALT
    if e == 0 and st[OVER] == 0:
        score_hand(st, opts, trace)
        after_hand(st, opts, trace)
    st[EXTRA_HANDS] += extra
    return e


@njit(cache=True, nogil=True)
def critique_deal(seed, game, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug):
    """Play match ``game`` of run ``seed`` exactly as ``play_match`` does (the same streams: the
    general loop of a table with a plug-in or search seat, which a built-in table's loop
    matches) and write a ``kernels.critique`` row for each decision of ``seat`` (at most
    ``len(rows)``): the trump, optional declarations, every claim window it is asked in, its
    cards. A sampled one (``rate``) with more than one legal action is valued by
    ``critique_eval`` with the search row ``prm`` (its own stream, STREAM_CRITIQUE), its state
    kept in ``snaps``. ``stop`` >= 0 stops the match before its decision number ``stop`` (any
    seat's: ``CR_STEP``), the state there. ``params`` carries the plug-in rows
    (``with_plugin_params``). Returns (rows written, decisions of ``seat``, the state)."""
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
    st[DEALER] = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = st[DEALER]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    need = opts[O_GAMES] // 2 + 1
    for g in range(opts[O_GAMES]):
        st[GAME_NO] = g
        st[SCORE] = 0
        st[SCORE + 1] = 0
        st[HAND_NO] = 0
        st[EXTRA] = 0
        st[OVER] = 0
        st[WIN_SIDE] = -1
        st[REASON] = -1
        log(st, trace, T_GAME, -1, st[GAME_NO], 0, 0, 0)
        e = 0
        while st[OVER] == 0:
            if st[HAND_NO] >= opts[O_MAX_HANDS]:
                cap_game(st, trace)
                break
            st[HAND_NO] += 1
            st[MATCH_HANDS] += 1
            e = cr_hand(st, opts, seed, game, sids, params, gdeck, gplay, trace, plug, cr)
            if e:
                break
            next_dealer(st, opts)
        if e == HALT:
            break
        st[ERR] = e
        if st[ERR] or st[WIN_SIDE] < 0 or st[GAMES] >= need or st[GAMES + 1] >= need:
            break
    return cx[0], cx[1], st


def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in (as ``play_batch``): match ``deal_id``."""
    return critique_deal(seed, deal_id, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), seat,
                         np.ascontiguousarray(prm, dtype=np.float64), float(rate), stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug)


# =============================================================================
# check mode
# =============================================================================
@njit(cache=True)
def check_cards(st):
    """40 cards: hands disjoint, hands + played = deck, and every hand holds 10 - tricks done
    (- 1 if it played to this trick: ``tricks.cards_conserved``); tricks won + trick = played."""
    if not cards_conserved(st[HAND:HAND + N_PLAYERS], st[PLAYED], st[LEADER], st[NCARDS], TRICKS - st[TRICK_NO]):
        return E_CARDS
    if (st[WON] | st[WON + 1] | trick_mask(st[TRICK:TRICK + 4], st[NCARDS])) != st[PLAYED] or st[WON] & st[WON + 1]:
        return E_CARDS
    return 0


@njit(cache=True)
def check_hand(st, opts):
    """After a scored hand: 35 thirds, 11 points + bonuses, scores within bounds (at most
    11 points and four marafone a hand)."""
    if st[HAND_END] != 0:
        return 0
    bonus = opts[O_MARAF_POINTS] * (st[MARAF] + st[MARAF + 1])
    if st[THIRDS] + st[THIRDS + 1] != 35 or st[PTS] + st[PTS + 1] != 11 + bonus:
        return E_POINTS
    for s in range(2):
        if st[PTS + s] < 0 or st[SCORE + s] < 0 or st[SCORE + s] > (11 + 4 * opts[O_MARAF_POINTS]) * st[HAND_NO]:
            return E_BOUND
    return 0


# =============================================================================
# hands, games, matches
# =============================================================================
@njit(cache=True)
def write_hand(st, row, extra):
    k = st[MATCH_HANDS] - 1
    if k >= HAND_SLOTS:
        return
    b = RC_HAND + k * HB_SIZE
    row[b + HB_GAME] = st[GAME_NO]
    row[b + HB_BATT] = st[BATT]
    row[b + HB_TRUMP] = st[TRUMP]
    for s in range(2):
        row[b + HB_PTS + s] = st[PTS + s]
        row[b + HB_THIRDS + s] = st[THIRDS + s]
        row[b + HB_MARAF + s] = st[MARAF + s]
    row[b + HB_HOLDER] = st[MHOLDER]
    row[b + HB_END] = st[HAND_END]
    row[b + HB_EXTRA] = extra


@njit(cache=True)
def play_out(st, opts, sids, params, check, gplay, trace, plug):
    """Play the ten tricks of a dealt hand whose trump is named, score it and decide the
    game; returns a check error. A table without a plug-in or search seat (no plug-in
    branches)."""
    return play_tricks(st, opts, sids, params, check, gplay, trace, plug, False)


@njit(cache=True)
def plugged_hand(st, opts, sids, params, check, gplay, trace, plug):
    """Trump and tricks of a dealt hand at a table with a plug-in or search seat (``PLUGGED``):
    the battitore's trump (a plug-in's K_TRUMP, a search), then ``play_out`` with the plug-in
    and search branches. Returns a check error, or -E_PLUGIN when the trump answer stopped the
    match (no hand played). Two copies of the play loop: the call sites of ``plugin_decide``
    alone cost the built-in strategies 15-25 % of their speed (measured), so the built-in
    tables play a loop without them; this one reaches the batch kernels as the callback
    ``plugged_cfunc()`` (PLUGGED_SIG), compiled the first time such a table plays."""
    suit = trump_choice(st, opts, st[BATT], sids, params, gplay, plug)
    if suit == -2:
        return -E_PLUGIN
    set_trump(st, suit, trace)
    return play_tricks(st, opts, sids, params, check, gplay, trace, plug, True)


@njit(cache=True, inline='always')
def trump_choice(st, opts, b, sids, params, gplay, plug):
    """The battitore b's trump at a table with a plug-in or search seat: its plug-in's K_TRUMP
    where asked, else its search's or its built-in's; -2 for a plug-in's illegal answer."""
    sid, suit = sids[b], -1
    if sid >= PLUGIN:
        sid -= PLUGIN
        if asks(params, b, K_TRUMP):
            suit = plugin_decide(st, opts, b, K_TRUMP, 0, plug, params)
        if suit == -2:
            return -2
    if suit < 0:
        if sid == S_SEARCH:
            suit = search_trump(st, opts, b, params[b], gplay, plug)
        else:
            suit = choose_trump(st[HAND + b], sid, params[b], opts, gplay)
    return suit


# A table with a plug-in or search seat plays its hands through PLUGGED_SIG: ``plugged_cfunc()``
# compiled the first time one plays (jit.lazy_cfunc), ``no_plugged`` otherwise (never called).
PLUGGED_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[::1], types.float64[:, ::1],
                          types.boolean, types.uint64[::1], types.int64[:, ::1], types.FunctionType(PLUG_SIG))


def _plugged_entry(st, opts, sids, params, check, gplay, trace, plug):
    return plugged_hand(st, opts, sids, params, check, gplay, trace, plug)


plugged_cfunc = lazy_cfunc(PLUGGED_SIG, _plugged_entry)


@numba.cfunc(PLUGGED_SIG, cache=True)
def no_plugged(st, opts, sids, params, check, gplay, trace, plug):
    """The hand argument of a table without a plug-in or search seat (never called)."""
    return 0


@njit(cache=True, inline='always')
def play_tricks(st, opts, sids, params, check, gplay, trace, plug, plugged):
    e = 0
    for t in range(TRICKS):
        e = play_trick(st, opts, sids, params, check, gplay, trace, plug, plugged)
        if e or st[OVER]:
            break
    if e == 0 and st[OVER] == 0:
        score_hand(st, opts, trace)
        if check:
            e = check_hand(st, opts)
        if e == 0:
            after_hand(st, opts, trace)
    return e


@njit(cache=True, inline='always')
def play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand):
    """Deal, name trump and play hand ``HAND_NO`` to its end; returns a check error. A table
    with a plug-in or search seat plays it with ``hand`` (``plugged_hand``, PLUGGED_SIG)."""
    seed_stream(gdeck, seed, game, np.int64(STREAM_HAND) + st[MATCH_HANDS])
    begin_hand(st, gdeck, trace)
    extra = st[EXTRA]                 # naming trump leaves it alone; the hand's play may set it
    if st[PLUGGED]:
        e = hand(st, opts, sids, params, check, gplay, trace, plug)
        if e == -E_PLUGIN:
            return E_PLUGIN
        st[EXTRA_HANDS] += extra      # (read only by write_match)
    else:
        b = st[BATT]
        set_trump(st, choose_trump(st[HAND + b], sids[b], params[b], opts, gplay), trace)
        st[EXTRA_HANDS] += extra
        e = play_out(st, opts, sids, params, check, gplay, trace, plug)
    write_hand(st, row, extra)
    return e


@njit(cache=True)
def cap_game(st, trace):
    """The hand cap ends the game: the higher total wins, none on equal totals."""
    st[TRUNC] = 1
    d = st[SCORE] - st[SCORE + 1]
    end_game(st, np.int64(0 if d > 0 else (1 if d < 0 else -1)), np.int64(R_CAP), trace)


@njit(cache=True, inline='always')
def play_game(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand):
    """One game to the target (or a claim); returns a check error."""
    st[SCORE] = 0
    st[SCORE + 1] = 0
    st[HAND_NO] = 0
    st[EXTRA] = 0
    st[OVER] = 0
    st[WIN_SIDE] = -1
    st[REASON] = -1
    log(st, trace, T_GAME, -1, st[GAME_NO], 0, 0, 0)
    while st[OVER] == 0:
        if st[HAND_NO] >= opts[O_MAX_HANDS]:
            cap_game(st, trace)
            break
        st[HAND_NO] += 1
        st[MATCH_HANDS] += 1
        e = play_hand(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand)
        if e:
            return e
        next_dealer(st, opts)
    return 0


@njit(cache=True)
def first_dealer(opts, seed, game, gdeck):
    if opts[O_FIRST_DEALER] >= 0:
        return opts[O_FIRST_DEALER]
    seed_stream(gdeck, seed, game, np.int64(STREAM_DEALER))
    return below(gdeck, 4)


@njit(cache=True)
def write_match(st, row, game):
    g0 = st[GAMES]
    g1 = st[GAMES + 1]
    side = 0 if g0 > g1 else (1 if g1 > g0 else -1)
    row[RC_DEALER] = st[FIRST_DEALER]
    row[RC_REASON] = st[REASON]
    row[RC_WIN_SIDE] = side
    row[RC_WINNER] = -1 if side < 0 else side + 2 * (game & 1)
    row[RC_TRUNC] = st[TRUNC]
    row[RC_ERR] = st[ERR]
    row[RC_TRICKS] = st[TRICKS_PLAYED]
    row[RC_HANDS] = st[MATCH_HANDS]
    row[RC_GAMES] = st[GAME_NO] + 1
    for s in range(2):
        row[RC_GAMES_WON + s] = st[GAMES + s]
        row[RC_SCORE + s] = st[SCORE + s]
    row[RC_CLAIMS] = st[CLAIMS]
    row[RC_EXTRA] = st[EXTRA_HANDS]


@njit(cache=True, inline='always')
def play_match(st, opts, seed, game, sids, params, check, trace, gdeck, gplay, row, plug, hand):
    """Play match ``game`` of run ``seed`` into ``row``; returns the check error. Seats with
    sid >= PLUGIN are decided by ``plug`` where its kinds ask (``plugin_decide``)."""
    st[:] = 0
    row[:] = 0
    st[N] = N_PLAYERS
    for p in range(N_PLAYERS):
        if sids[p] >= PLUGIN or sids[p] == S_SEARCH:
            st[PLUGGED] = 1
    st[DEALER] = first_dealer(opts, seed, game, gdeck)
    st[FIRST_DEALER] = st[DEALER]
    seed_stream(gplay, seed, game, np.int64(STREAM_PLAY))
    need = opts[O_GAMES] // 2 + 1
    for g in range(opts[O_GAMES]):
        st[GAME_NO] = g
        st[ERR] = play_game(st, opts, seed, game, sids, params, check, gdeck, gplay, trace, row, plug, hand)
        if st[ERR] or st[WIN_SIDE] < 0 or st[GAMES] >= need or st[GAMES + 1] >= need:
            break
    write_match(st, row, game)
    return st[ERR]


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, hand):
    """Play matches first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug`` is
    the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, its
    parameters in ``params`` from column N_PARAMS on (``jit.with_plugin_params``); ``hand`` plays
    the hands of a table with a plug-in or search seat (PLUGGED_SIG)."""
    st = np.zeros(ST_SIZE, np.int64)
    gdeck = np.zeros(2, np.uint64)
    gplay = np.zeros(2, np.uint64)
    trace = np.zeros((0, TRACE_W), np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)   # shared by threads
    for d in range(lo, hi):
        play_match(unowned(st), o, seed, first + d, s, p, check, unowned(trace), unowned(gdeck),
                   unowned(gplay), r[d], plug, hand)


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` matches starting at ``first`` on ``numba.get_num_threads()`` threads into
    ``rec`` (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``).
    ``plug``: the plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with
    its parameters ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    threaded_batch(play_chunk, seed, first, count, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS),
                   check, rec, no_plugin if plug is None else plug,
                   plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged), least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, game, opts, sids, params, check, trace, plug, hand):
    st = np.zeros(ST_SIZE, np.int64)
    row = np.zeros(RECORD_COLS, np.int64)
    play_match(st, opts, seed, game, sids, params, check, trace, np.zeros(2, np.uint64),
               np.zeros(2, np.uint64), row, plug, hand)
    return st


def replay_match(seed, game, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one match alone with a trace buffer; returns the final state."""
    return replay_kernel(seed, game, opts, sids, with_plugin_params(params, pprm, N_PLUG_PARAMS), check, trace,
                         no_plugin if plug is None else plug,
                         plugged_callback(sids, S_SEARCH, PLUGIN, plugged_cfunc, no_plugged))
