"""Tonk (Tunk): the whole game as small numba kernels.

Rules source: ``docs/rules/tonk.md`` (the seed text, pagat and Wikipedia; every
DECISION of that spec is followed). Choices this module adds where the spec leaves room:

* A turn-start decision merges "knock / continue" and the draw: the legal actions are
  ``knock``, ``draw_stock``, ``draw_discard`` (also the dry-stock ``take_discard``) and
  ``end_dry``. The meld phase merges "end_meld" with the discard: a discard ends the meld
  phase, so it is legal exactly when ``end_meld`` would be (``must_spread``,
  ``discard_pickup_must_be_used``).
* A hit names its target: (card, owner seat, book or run); a card that fits two spreads
  gives two actions.
* ``discard_pickup_must_be_used``: taking the discard is legal only when the card can be
  laid in a spread with the hand or hit at once, and until it is used the only legal
  actions are those that use it.
* ``hit_blocks_drop``: the owner of a spread hit by another player may not knock at the
  start of his next turn.
* Whole-hand turn cap ``max_turns`` (default 1000, not in the spec): a hand that reaches it
  is settled like a dry stock and flagged ``truncated`` (end reason ``turn_cap``). The dry
  loop guard (``max_turns_after_stock_empty``) also sets ``truncated``.
* End reasons (``REASON_NAMES``, the record's ``end_reason``): ``deal_tonk``, ``void_redeal``,
  ``tonk_out`` (hand emptied by spreads and hits without a discard: 2S each), ``out`` (emptied
  by the last discard: S each), ``knock_won``, ``knock_caught``, ``dry``, ``turn_cap``, and
  ``hit_out``: under ``tonk_out_requires_new_spread`` a hand emptied without a discard and
  without a new spread that turn (by hits alone) pays S each (§6.1) and is recorded as
  ``hit_out``, not ``tonk_out`` (RULES_VERSION 2; before, it was a ``tonk_out`` paying S).
  Without the option going out by hits alone is a ``tonk_out`` (2S), as the spec says.
* Strategies (issue 15): with a dry stock the greedy family (greedy, knocker, watcher,
  planner) takes a discard that lowers its count and ends the hand only when none does
  (before, greedy ended a dry hand whenever the discard was not usable at once, whatever its
  count). ``planner`` is watcher with four study parameters for the spec's §13 questions:
  ``dry_end`` (end a dry hand at that count or below), ``take_low`` (take a known discard
  worth at most that many points when it lowers the count, instead of a blind stock card),
  ``hold_spreads`` and ``hold_min_stock`` (keep spreads in hand for a tonk out while the
  stock is longer: a spread goes down only when the whole hand then goes this turn,
  ``can_clear``); at 0 it plays as watcher. ``fuzz`` draws random legal actions by kind with
  chances (knock, take, end_dry, meld): ``random`` knocks at once in most hands (a knock is
  one of two or three turn-start actions), the fuzzer reaches every end reason.
* ``expert`` (issue 41, sid ``S_EXPERT``; ``strong`` is a tuned expert): planner plus what a
  good player reads from the table, all from its own seat's view (``unseen_by``: not in its
  hand, the pile, a spread, nor among the cards a rival took from the pile and still holds).
  It knocks when the knock cannot be caught (its count is below ``least_rival_count``) or is
  not caught with chance at least ``knock_odds`` (``knock_chance``: each rival's known cards
  plus the rest drawn at random from the unseen cards; exact for one or two cards, a normal
  law above). It discards by count: a card's points, less ``pair_keep`` and ``near_keep`` for every
  two unseen cards that would make a book or a run of three of it with the hand (its live
  outs; a dead pair or gap weighs nothing), less ``feed`` when a rival could use it (it
  extends a spread on the table or fits a card the rival took). Its takes ask whether
  the card lowers the count after its own discard. A knock by chance is a model with uniform
  hidden hands, as the search's worlds are: the critique's turn-start regret in Tonk has the
  same bias (``results/critique/tonk_check.md``).
* ``search`` (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
  determinized Monte Carlo. At a decision with more than one legal action it deals ``worlds``
  times what its seat cannot see (``determinize``: the other hands, which keep the cards they
  took from the discard pile and still hold, ``KNOWN``, and the stock's order), plays every
  legal action in each and rolls the deal out to its end with the rollout policy at every
  seat (``rollouts`` times, the same rollout streams for every action), and takes the action
  with the best total payout. A hand is the deal, so the rollout value is the record's payout.
  ``KNOWN`` is public bookkeeping only: it changes no rule (``RULES_VERSION`` unchanged).
* Deals are independent records; the dealer of deal ``d`` is ``(first + d) % n``. A void
  deal (two or more deal-tonks) is its own record (``void_redeal``) and the next record is
  dealt by the next dealer. With ``tonk_tie_redeal_same_dealer`` the same dealer redeals
  inside the same record (``redeals`` counts them, capped at ``MAX_REDEALS``).

Options (int array read by the kernels, built by ``sim.games.tonk.TonkOptions``):

| index | option | values |
|---|---|---|
| O_PLAYERS | n_players | 2..4 |
| O_INITIAL_UPCARD | initial_upcard | 0/1 |
| O_DT49, O_DT50 | deal_tonk_totals | 0/1 each |
| O_TIE_SAME_DEALER | tonk_tie_redeal_same_dealer | 0/1 |
| O_HIT_OWN_ONLY | hit_own_spreads_only | 0/1 |
| O_REDISCARD | allow_rediscard_of_taken_card | 0/1 |
| O_TONK_NEW_SPREAD | tonk_out_requires_new_spread | 0/1 |
| O_CAUGHT_BONUS | caught_lowest_bonus | 0 all_others, 1 above_knocker_only, 2 none |
| O_CAUGHT_PAYS_BASE | caught_knocker_also_pays_base | 0/1 |
| O_DRY_TIE | dry_tie_rule | 0 each_tied_collects, 1 void |
| O_DRY_CAP | max_turns_after_stock_empty | turns (default 10 n) |
| O_MUST_SPREAD | must_spread | 0/1 |
| O_ACES_EXC | three_aces_exception | 0/1 |
| O_HIT_BLOCKS | hit_blocks_drop | 0/1 |
| O_MAX_HITS | max_hits_per_turn | -1 = unlimited |
| O_PICKUP_USE | discard_pickup_must_be_used | 0/1 |
| O_FIRST_DEALER | first_dealer | -1 random, else seat |
| O_STAKE | stake S | >= 1 |
| O_MAX_TURNS | max_turns | >= 1 |

``RULES_VERSION`` goes into the output metadata: 1 first release; 2 the ``hit_out`` end
reason (issue 12; payouts unchanged).

State: one int64 array, fields below (masks are 52-bit card masks, see ``cards``).
Score range per deal: payouts are chips, zero-sum over the seats, and every payout lies in
``[-3 (n-1) S, 3 (n-1) S]`` (the extremes: a caught knocker under
``caught_knocker_also_pays_base`` pays 2S + S to each other seat; a tonk out collects 2S from
each). The check mode asserts both.

Speed (the batch loop plays a few hundred thousand deals a second per thread):

* Every kernel on the per-action path (legal actions, the strategies, applying an action
  short of a settlement) is ``inline='always'``, so the action loop compiles into
  ``play_deal`` as one function, and ``play_deal`` works on ``unowned`` views of its arrays,
  so the loop does no reference counting. Once-a-deal kernels (dealing, settlement, the
  check mode) stay separate functions.
* Constant arguments of kernels that are not inlined are written ``np.int64(...)`` or
  ``np.bool_(...)``: numba would otherwise compile one version per literal value.
* The search reaches ``play_deal`` as a callback (``srch``, of type ``SEARCH_SIG``):
  ``search_cfunc()`` is compiled the first time a table has a search seat, so the batch
  kernel compiles without the search's rollouts (issue 14).
"""
import math

import numpy as np
from numba import prange

from cardsim.kernels.cards import (
    ACES,
    FULL_DECK,
    POINTS_TEN_CAP,
    SUIT_PLANE,
    bit,
    lowbit,
    popcount,
    rank_mask,
    ranks_present,
    run_neighbours,
)
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
    seed_stream,
    shuffle,
    stream_key,
    uniform,
)

RULES_VERSION = 2
MAX_PLAYERS = 4
MAX_REDEALS = 100
MAX_ACTS = 128
CHUNK = 512

# ---- options array -----------------------------------------------------------
O_PLAYERS = 0
O_INITIAL_UPCARD = 1
O_DT49 = 2
O_DT50 = 3
O_TIE_SAME_DEALER = 4
O_HIT_OWN_ONLY = 5
O_REDISCARD = 6
O_TONK_NEW_SPREAD = 7
O_CAUGHT_BONUS = 8
O_CAUGHT_PAYS_BASE = 9
O_DRY_TIE = 10
O_DRY_CAP = 11
O_MUST_SPREAD = 12
O_ACES_EXC = 13
O_HIT_BLOCKS = 14
O_MAX_HITS = 15
O_PICKUP_USE = 16
O_FIRST_DEALER = 17
O_STAKE = 18
O_MAX_TURNS = 19
O_SIZE = 20

# ---- state fields (int64 array) ------------------------------------------------
N = 0            # number of players
DEALER = 1       # dealer seat
CUR = 2          # seat to act
PHASE = 3        # P_START / P_MELD / P_OVER
TURNS = 4        # turns started this hand
STOCK_PTR = 5    # index in the deck of the next stock card (52 = stock empty)
PILE_LEN = 6     # cards on the discard pile
TAKEN = 7        # card taken from the discard pile this turn, or -1
NEW_SPREAD = 8   # 1 once the player to act laid a new spread this turn
HITS = 9         # hits made this turn
DRY_TURNS = 10   # turns started since the stock ran out
REASON = 11      # end reason (R_*), -1 while playing
KNOCKER = 12     # knocking seat or -1
WINNER = 13      # seat with the unique highest payout, or -1
TRUNC = 14       # 1 if a cap ended the hand
REDEALS = 15     # void deals redealt inside this record
BLOCKED = 16     # bit p: seat p may not knock at its next turn start
ERR = 17         # check-mode violation code (0 = none)
TR_LEN = 18      # trace rows written
PILE_MASK = 19   # the cards in the discard pile (a mask; what a plug-in's view shows)
HAND = 20        # HAND + p: hand mask of seat p
BOOK = 24        # BOOK + p: cards in books laid by seat p
RUN = 28         # RUN + p: cards in runs laid by seat p
PAY = 32         # PAY + p: payout of seat p (chips, zero-sum)
COUNT = 36       # COUNT + p: point count of seat p's hand at the end
DECK = 40        # DECK .. DECK+51: the shuffled deck (stock = DECK[STOCK_PTR:])
PILE = 92        # PILE .. PILE+51: discard pile, bottom first
KNOWN = 144      # KNOWN + p: cards seat p took from the discard pile (public; a search's
                 # determinization keeps those still in that hand there)
ST_SIZE = 148

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

# ---- actions: kind in bits 0-3, payload above ----------------------------------
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
N_PARAMS = SP_PRM + 11
EXP = 7            # index of the expert's knock_odds (its rules after planner's: ``expert_*``)
PLAN = 3           # index of the planner's dry_end; greedy, knocker and watcher play it at 0
PLUGIN = 64        # sid PLUGIN + b: a plug-in seat whose undecided choices the built-in b makes
N_PLUG_PARAMS = 8  # a plug-in's own parameters (its row of ``pprm``; one more slot: PLUG_KINDS)
PLUG_KINDS = N_PLUG_PARAMS  # pprm slot: bit k set = the plug-in decides decisions of kind k

# ---- what a plug-in's decide(view, legal, n, prm) sees: its seat's view ----------
V_SEAT = 0         # the deciding seat
V_KIND = 1         # decision kind: K_START (knock / draw / take / end a dry hand) or K_MELD
V_HAND = 2         # own hand (card mask)
V_TOP = 3          # top card of the discard pile, -1 if none
V_PILE = 4         # every card in the discard pile (mask; the pile is face up)
V_PILE_LEN = 5     # cards in the discard pile
V_STOCK = 6        # cards left in the stock
V_TURNS = 7        # turns played this hand
V_TAKEN = 8        # card taken from the discard this turn, or -1
V_NEW_SPREAD = 9   # 1 once this seat laid a new spread this turn
V_HITS = 10        # hits made this turn
V_DRY_TURNS = 11   # turns started since the stock ran out
V_BLOCKED = 12     # 1 when this seat may not knock this turn
V_PLAYERS = 13     # players at the table
V_DEALER = 14      # the dealer's seat
V_HELD = 16        # V_HELD + p: cards held by seat p
V_BOOKS = 20       # V_BOOKS + p: cards seat p laid in books (mask)
V_RUNS = 24        # V_RUNS + p: cards seat p laid in runs (mask)
VIEW_SIZE = 28
K_START = 0
K_MELD = 1

# ---- trace rows: [code, seat, a, b] --------------------------------------------
T_DEAL = 1       # a = hand mask
T_UPCARD = 2     # a = card
T_ACTION = 3     # a = action, b = card drawn (draw_stock: from the stock; draw_discard: the
                 # top discard taken) or -1
T_VOID = 4       # two or more deal-tonks; a = redeal number
T_END = 5        # a = reason, b = winner
RECORD_COLS = 9 + 3 * MAX_PLAYERS
R_COL_DEALER, R_COL_REASON, R_COL_WINNER, R_COL_KNOCKER, R_COL_TURNS = 0, 1, 2, 3, 4
R_COL_STOCK, R_COL_REDEALS, R_COL_TRUNC, R_COL_ERR = 5, 6, 7, 8
R_COL_PAY, R_COL_COUNT, R_COL_LEFT = 9, 9 + MAX_PLAYERS, 9 + 2 * MAX_PLAYERS


# =============================================================================
# small helpers
# =============================================================================
@njit(cache=True, inline='always')
def log(st, trace, code, seat, a, b):
    """One trace row (replay only; see ``jit.trace_put``)."""
    trace_put(trace, st, TR_LEN, code, seat, a, b, 0, 0)


# Bit j of a card's point value (A = 1 ... 10, J Q K = 10), as card masks: the count of a
# hand is sum_j 2**j * popcount(hand & VALUE_BIT_j) (same as mask_points with POINTS_TEN_CAP).
VALUE_BIT_0 = 0b0000101010101 * ACES      # ranks A 3 5 7 9 (values 1 3 5 7 9)
VALUE_BIT_1 = 0b1111001100110 * ACES      # ranks 2 3 6 7 10 J Q K
VALUE_BIT_2 = 0b0000001111000 * ACES      # ranks 4 5 6 7
VALUE_BIT_3 = 0b1111110000000 * ACES      # ranks 8 9 10 J Q K


@njit(cache=True)
def hand_count(hand):
    """Point count of a hand (A = 1, 2..10 face value, J Q K = 10)."""
    return (popcount(hand & VALUE_BIT_0) + 2 * popcount(hand & VALUE_BIT_1)
            + 4 * popcount(hand & VALUE_BIT_2) + 8 * popcount(hand & VALUE_BIT_3))


@njit(cache=True, inline='always')
def stock_empty(st):
    return st[STOCK_PTR] >= 52


@njit(cache=True, inline='always')
def pile_top(st):
    return st[PILE + st[PILE_LEN] - 1] if st[PILE_LEN] > 0 else -1


@njit(cache=True)
def pay(st, payer, receiver, amount):
    st[PAY + payer] -= amount
    st[PAY + receiver] += amount


@njit(cache=True)
def has_run(plane13):
    """A suit plane holds three consecutive ranks."""
    return (plane13 & (plane13 >> 1) & (plane13 >> 2)) != 0


@njit(cache=True)
def has_spread(hand, aces_exempt):
    """The hand holds a book or a run (aces-only books ignored when exempt)."""
    for s in range(4):
        if has_run((hand >> (13 * s)) & 0x1FFF):
            return True
    for r in range(1 if aces_exempt else 0, 13):
        if popcount(hand & rank_mask(r)) >= 3:
            return True
    return False


@njit(cache=True, inline='always')
def run_length_through(plane13, r):
    """Length of the consecutive run of set ranks in a suit plane that contains rank r."""
    lo = r
    while lo > 0 and (plane13 >> (lo - 1)) & 1:
        lo -= 1
    hi = r
    while hi < 12 and (plane13 >> (hi + 1)) & 1:
        hi += 1
    return hi - lo + 1


@njit(cache=True, inline='always')
def forms_spread(hand, card):
    """``card`` makes a book or a run together with cards of ``hand``."""
    h = hand | bit(card)
    if popcount(h & rank_mask(card % 13)) >= 3:
        return True
    s = card // 13
    return run_length_through((h >> (13 * s)) & 0x1FFF, card % 13) >= 3


@njit(cache=True, inline='always')
def hit_owners_allowed(st, opts, cur, o):
    return opts[O_HIT_OWN_ONLY] == 0 or o == cur


@njit(cache=True, inline='always')
def can_hit(st, opts, cur, card):
    """``card`` can be hit onto some spread ``cur`` may hit now."""
    if opts[O_MAX_HITS] >= 0 and st[HITS] >= opts[O_MAX_HITS]:
        return False
    b = bit(card)
    for o in range(st[N]):
        if hit_owners_allowed(st, opts, cur, o):
            if popcount(st[BOOK + o] & rank_mask(card % 13)) == 3:
                return True
            if run_neighbours(st[RUN + o]) & b:
                return True
    return False


@njit(cache=True, inline='always')
def usable_now(st, opts, cur, card):
    """``card`` could be laid in a spread with the hand, or hit, this turn."""
    return forms_spread(st[HAND + cur], card) or can_hit(st, opts, cur, card)


# =============================================================================
# the deal
# =============================================================================
@njit(cache=True)
def new_state(opts):
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[N] = opts[O_PLAYERS]
    return st


@njit(cache=True)
def reset_hand(st):
    """Clear everything a hand writes; keep N and DEALER."""
    for i in range(CUR, DECK):
        st[i] = 0
    for p in range(MAX_PLAYERS):
        st[KNOWN + p] = 0
    st[TAKEN] = -1
    st[REASON] = -1
    st[KNOCKER] = -1
    st[WINNER] = -1


@njit(cache=True)
def deal_cards(st, opts, gen, trace):
    """Shuffle, deal five cards each from the dealer's left, turn the upcard."""
    for i in range(52):
        st[DECK + i] = i
    shuffle(gen, st, DECK, DECK + 52)
    deal_from_deck(st, opts, trace)


@njit(cache=True)
def deal_from_deck(st, opts, trace):
    """Deal five cards each from the dealer's left off the deck in ``DECK`` (as it lies) and
    turn the upcard (the OpenSpiel bridge sets the deck card by card)."""
    n = st[N]
    for p in range(MAX_PLAYERS):
        st[HAND + p] = 0
    for i in range(5 * n):
        seat = (st[DEALER] + 1 + i) % n
        st[HAND + seat] |= bit(st[DECK + i])
    st[STOCK_PTR] = 5 * n
    st[PILE_LEN] = 0
    st[PILE_MASK] = 0
    if opts[O_INITIAL_UPCARD]:
        push_pile(st, st[DECK + 5 * n])
        st[STOCK_PTR] += 1
    for p in range(n):
        log(st, trace, T_DEAL, p, st[HAND + p], 0)
    if st[PILE_LEN]:
        log(st, trace, T_UPCARD, -1, pile_top(st), 0)


@njit(cache=True)
def deal_tonk_holders(st, opts):
    """Number of hands totalling a deal-tonk (49/50 per options) and the last such seat."""
    holders = 0
    who = -1
    for p in range(st[N]):
        t = hand_count(st[HAND + p])
        if (t == 49 and opts[O_DT49]) or (t == 50 and opts[O_DT50]):
            holders += 1
            who = p
    return holders, who


@njit(cache=True)
def start_deal(st, opts, gen, dealer, trace):
    """Deal (redealing voids under the same-dealer option) and settle a deal-tonk."""
    reset_hand(st)
    st[DEALER] = dealer
    for attempt in range(MAX_REDEALS + 1):
        deal_cards(st, opts, gen, trace)
        if not after_deal(st, opts, attempt, trace):
            return
        st[REDEALS] += 1
    st[TRUNC] = 1 if st[REDEALS] > MAX_REDEALS else 0
    finish(st, np.int64(R_VOID), trace)


@njit(cache=True)
def after_deal(st, opts, attempt, trace):
    """The dealt hands' deal-tonks: none, the first player's turn begins; one, it is settled;
    two or more, a void: True when the same dealer deals again (``tonk_tie_redeal_same_dealer``),
    else the deal ends void. Returns whether a redeal is due."""
    holders, who = deal_tonk_holders(st, opts)
    if holders == 0:
        st[CUR] = (st[DEALER] + 1) % st[N]
        begin_turn(st, opts)
        return False
    if holders == 1:
        for p in range(st[N]):
            if p != who:
                pay(st, p, who, 2 * opts[O_STAKE])
        finish(st, np.int64(R_DEAL_TONK), trace)
        return False
    log(st, trace, T_VOID, -1, attempt, 0)
    if opts[O_TIE_SAME_DEALER] == 0:
        finish(st, np.int64(R_VOID), trace)
        return False
    return True


@njit(cache=True)
def dealer_of(opts, seed, deal_id):
    """Dealer of a deal: the first dealer (fixed or drawn from the run seed) rotated left."""
    n = opts[O_PLAYERS]
    first = opts[O_FIRST_DEALER]
    if first < 0:
        first = np.int64(stream_key(seed, np.int64(0), np.int64(STREAM_RUN)) % np.uint64(n))
    return (first + deal_id) % n


# =============================================================================
# turn flow and settlement
# =============================================================================
@njit(cache=True, inline='always')
def begin_turn(st, opts):
    """Start the turn of CUR: reset per-turn fields, apply the dry guard and the turn cap."""
    st[TURNS] += 1
    st[TAKEN] = -1
    st[NEW_SPREAD] = 0
    st[HITS] = 0
    st[PHASE] = P_START
    if stock_empty(st):
        st[DRY_TURNS] += 1


@njit(cache=True, inline='always')
def cap_reached(st, opts):
    """A cap ends the hand at this turn start: the dry loop guard or the turn cap."""
    if st[DRY_TURNS] > opts[O_DRY_CAP]:
        return R_DRY
    if st[TURNS] > opts[O_MAX_TURNS]:
        return R_TURN_CAP
    return -1


@njit(cache=True, inline='always')
def next_turn(st, opts, trace):
    st[CUR] = (st[CUR] + 1) % st[N]
    begin_turn(st, opts)
    cap = cap_reached(st, opts)
    if cap >= 0:
        st[TRUNC] = 1
        settle_lowest(st, opts, cap, trace)


@njit(cache=True)
def finish(st, reason, trace):
    """Record counts, the end reason and the winner (unique highest positive payout)."""
    n = st[N]
    best = 0
    winner = -1
    for p in range(n):
        st[COUNT + p] = hand_count(st[HAND + p])
        if st[PAY + p] > best:
            best = st[PAY + p]
            winner = p
        elif st[PAY + p] == best and best > 0:
            winner = -1
    st[REASON] = reason
    st[WINNER] = winner
    st[PHASE] = P_OVER
    log(st, trace, T_END, -1, reason, winner)


@njit(cache=True)
def settle_out(st, opts, tonked, trace):
    """CUR emptied the hand: 2S each for a tonk out; S each for an out by the last discard,
    and, under tonk_out_requires_new_spread, for emptying it by hits alone (``hit_out``)."""
    p = st[CUR]
    s = opts[O_STAKE]
    reason = R_OUT
    amount = s
    if tonked:
        if opts[O_TONK_NEW_SPREAD] == 0 or st[NEW_SPREAD]:
            reason = R_TONK_OUT
            amount = 2 * s
        else:
            reason = R_HIT_OUT
    for q in range(st[N]):
        if q != p:
            pay(st, q, p, amount)
    finish(st, np.int64(reason), trace)


@njit(cache=True)
def lowest_others(st, k):
    """Minimum count over the seats other than k (k = -1: over all seats)."""
    m = 1 << 30
    for p in range(st[N]):
        if p != k:
            m = min(m, hand_count(st[HAND + p]))
    return m


@njit(cache=True)
def settle_knock(st, opts, trace):
    """Knock showdown of tonk.md 6.3 with every caught_lowest_bonus mode."""
    k = st[CUR]
    n = st[N]
    s = opts[O_STAKE]
    ck = hand_count(st[HAND + k])
    m = lowest_others(st, k)
    st[KNOCKER] = k
    if ck < m:
        for p in range(n):
            if p != k:
                pay(st, p, k, s)
        finish(st, np.int64(R_KNOCK_WON), trace)
        return
    for p in range(n):
        if p != k and hand_count(st[HAND + p]) <= ck:
            pay(st, k, p, 2 * s)
    for q in range(n):
        if q != k and hand_count(st[HAND + q]) == m:
            pay_lowest_bonus(st, opts, k, ck, m, q)
    finish(st, np.int64(R_KNOCK_CAUGHT), trace)


@njit(cache=True)
def pay_lowest_bonus(st, opts, k, ck, m, q):
    """Payments to q, a holder of the real lowest count, after knocker k was caught."""
    s = opts[O_STAKE]
    if opts[O_CAUGHT_PAYS_BASE]:
        pay(st, k, q, s)
    mode = opts[O_CAUGHT_BONUS]
    if mode == 2:
        return
    for p in range(st[N]):
        cp = hand_count(st[HAND + p])
        if p != k and cp != m and (mode == 0 or cp > ck):
            pay(st, p, q, s)


@njit(cache=True)
def settle_lowest(st, opts, reason, trace):
    """Dry stock (or a cap): the lowest count collects S from every player not tied lowest."""
    n = st[N]
    m = lowest_others(st, np.int64(-1))
    tied = 0
    for p in range(n):
        tied += hand_count(st[HAND + p]) == m
    if tied < n and (tied == 1 or opts[O_DRY_TIE] == 0):
        for q in range(n):
            if hand_count(st[HAND + q]) == m:
                for p in range(n):
                    if hand_count(st[HAND + p]) != m:
                        pay(st, p, q, opts[O_STAKE])
    finish(st, reason, trace)


# =============================================================================
# legal actions
# =============================================================================
@njit(cache=True, inline='always')
def push(acts, n, a):
    acts[n] = a
    return n + 1


@njit(cache=True, inline='always')
def legal_start(st, opts, acts):
    """Turn start: knock / draw stock / draw (take) the discard / end a dry hand."""
    cur = st[CUR]
    n = 0
    if not (st[BLOCKED] >> cur) & 1:
        n = push(acts, n, A_KNOCK)
    if not stock_empty(st):
        n = push(acts, n, A_DRAW_STOCK)
    top = pile_top(st)
    if top >= 0 and (opts[O_PICKUP_USE] == 0 or usable_now(st, opts, cur, top)):
        n = push(acts, n, A_DRAW_DISCARD)
    if stock_empty(st):
        n = push(acts, n, A_END_DRY)
    return n


@njit(cache=True)
def book_ranks(hand):
    """13-bit mask of the ranks of which ``hand`` holds three or four cards."""
    a = hand & SUIT_PLANE
    b = (hand >> 13) & SUIT_PLANE
    c = (hand >> 26) & SUIT_PLANE
    d = (hand >> 39) & SUIT_PLANE
    return (a & b & (c | d)) | (c & d & (a | b))


@njit(cache=True, inline='always')
def add_lays(hand, need, acts, n):
    """Every book (3 or 4, and the 3-subsets of a 4) and every run of 3+ in ``hand``.

    Order: books by rank (a four, then its 3-subsets), then runs by suit, low end, length."""
    rp = book_ranks(hand)
    while rp:
        m = hand & rank_mask(lowbit(rp))
        rp &= rp - 1
        n = push_lay(m, need, acts, n)
        if popcount(m) == 4:
            sub = m
            while sub:
                n = push_lay(m & ~(sub & -sub), need, acts, n)
                sub &= sub - 1
    for s in range(4):
        plane = (hand >> (13 * s)) & SUIT_PLANE
        if has_run(plane):
            n = add_runs(plane, s, need, acts, n)
    return n


@njit(cache=True)
def add_runs(plane, s, need, acts, n):
    """Every run of 3+ in suit plane ``plane`` of suit ``s``, by low end then length."""
    starts = plane & (plane >> 1) & (plane >> 2)
    while starts:
        lo = lowbit(starts)
        starts &= starts - 1
        hi = lo + 2
        while hi < 13 and (plane >> hi) & 1:
            n = push_lay((((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)) << (13 * s), need, acts, n)
            hi += 1
    return n


@njit(cache=True, inline='always')
def push_lay(mask, need, acts, n):
    if need >= 0 and not (mask >> need) & 1:
        return n
    return push(acts, n, A_LAY | (mask << 8))


@njit(cache=True, inline='always')
def add_hits(st, opts, hand, need, acts, n):
    """Every (card, owner, book/run) hit the player to act may make now."""
    cur = st[CUR]
    if opts[O_MAX_HITS] >= 0 and st[HITS] >= opts[O_MAX_HITS]:
        return n
    if need >= 0:
        hand &= bit(need)
    for o in range(st[N]):
        if not hit_owners_allowed(st, opts, cur, o):
            continue
        books = st[BOOK + o]
        rp = ranks_present(books)
        while rp:
            r = lowbit(rp)
            rp &= rp - 1
            if popcount(books & rank_mask(r)) == 3 and hand & rank_mask(r) & ~books:
                n = push(acts, n, A_HIT | (lowbit(hand & rank_mask(r)) << 8) | (o << 16))
        adj = run_neighbours(st[RUN + o]) & hand
        while adj:
            n = push(acts, n, A_HIT | (lowbit(adj) << 8) | (o << 16) | (1 << 20))
            adj &= adj - 1
    return n


@njit(cache=True, inline='always')
def add_discards(st, opts, hand, acts, n):
    """Discards (each ends the meld phase) when ending the meld phase is allowed."""
    taken = st[TAKEN]
    if opts[O_MUST_SPREAD] and has_spread(hand, opts[O_ACES_EXC] != 0):
        return n
    forbid = -1
    if taken >= 0 and opts[O_REDISCARD] == 0 and popcount(hand) > 1:
        forbid = taken
    m = hand
    while m:
        c = lowbit(m)
        m &= m - 1
        if c != forbid:
            n = push(acts, n, A_DISCARD | (c << 8))
    return n


@njit(cache=True, inline='always')
def legal_meld(st, opts, acts):
    hand = st[HAND + st[CUR]]
    need = -1
    if opts[O_PICKUP_USE] and st[TAKEN] >= 0 and (hand >> st[TAKEN]) & 1:
        need = st[TAKEN]
    n = add_lays(hand, need, acts, 0)
    n = add_hits(st, opts, hand, need, acts, n)
    if need < 0:
        n = add_discards(st, opts, hand, acts, n)
    return n


@njit(cache=True, inline='always')
def legal_actions(st, opts, acts):
    """Fill ``acts`` with the legal actions of the player to act; returns their number."""
    if st[PHASE] == P_START:
        return legal_start(st, opts, acts)
    if st[PHASE] == P_MELD:
        return legal_meld(st, opts, acts)
    return 0


# =============================================================================
# applying actions
# =============================================================================
@njit(cache=True, inline='always')
def push_pile(st, card):
    st[PILE + st[PILE_LEN]] = card
    st[PILE_LEN] += 1
    st[PILE_MASK] |= bit(card)


@njit(cache=True, inline='always')
def draw_stock(st):
    card = st[DECK + st[STOCK_PTR]]
    st[STOCK_PTR] += 1
    st[HAND + st[CUR]] |= bit(card)
    st[PHASE] = P_MELD


@njit(cache=True, inline='always')
def take_discard(st):
    st[PILE_LEN] -= 1
    card = st[PILE + st[PILE_LEN]]
    st[PILE_MASK] &= ~bit(card)
    st[HAND + st[CUR]] |= bit(card)
    for q in range(MAX_PLAYERS):
        st[KNOWN + q] &= ~bit(card)
    st[KNOWN + st[CUR]] |= bit(card)
    st[TAKEN] = card
    st[PHASE] = P_MELD


@njit(cache=True)
def lay(st, opts, mask, trace):
    cur = st[CUR]
    st[HAND + cur] &= ~mask
    if popcount(mask & rank_mask(lowbit(mask) % 13)) == popcount(mask):
        st[BOOK + cur] |= mask
    else:
        st[RUN + cur] |= mask
    st[NEW_SPREAD] = 1
    if st[HAND + cur] == 0:
        settle_out(st, opts, np.bool_(True), trace)


@njit(cache=True)
def hit(st, opts, card, owner, on_run, trace):
    cur = st[CUR]
    st[HAND + cur] &= ~bit(card)
    st[(RUN if on_run else BOOK) + owner] |= bit(card)
    st[HITS] += 1
    if opts[O_HIT_BLOCKS] and owner != cur:
        st[BLOCKED] |= 1 << owner
    if st[HAND + cur] == 0:
        settle_out(st, opts, np.bool_(True), trace)


@njit(cache=True, inline='always')
def discard(st, opts, card, trace):
    cur = st[CUR]
    st[HAND + cur] &= ~bit(card)
    push_pile(st, card)
    if st[HAND + cur] == 0:
        settle_out(st, opts, np.bool_(False), trace)
    else:
        next_turn(st, opts, trace)


@njit(cache=True, inline='always')
def apply_action(st, opts, a, trace):
    """Play action ``a`` for the player to act (it must be legal)."""
    kind = a & 15
    cur = st[CUR]
    if st[PHASE] == P_START:
        st[BLOCKED] &= ~(1 << cur)
    drawn = -1
    if kind == A_DRAW_STOCK:
        drawn = st[DECK + st[STOCK_PTR]]
    elif kind == A_DRAW_DISCARD:
        drawn = pile_top(st)
    log(st, trace, T_ACTION, cur, a, drawn)
    if kind == A_KNOCK:
        settle_knock(st, opts, trace)
    elif kind == A_DRAW_STOCK:
        draw_stock(st)
    elif kind == A_DRAW_DISCARD:
        take_discard(st)
    elif kind == A_END_DRY:
        settle_lowest(st, opts, np.int64(R_DRY), trace)
    elif kind == A_LAY:
        lay(st, opts, a >> 8, trace)
    elif kind == A_HIT:
        hit(st, opts, (a >> 8) & 63, (a >> 16) & 15, (a >> 20) & 1, trace)
    else:
        discard(st, opts, (a >> 8) & 63, trace)


@njit(cache=True)
def is_over(st):
    return st[PHASE] == P_OVER


@njit(cache=True)
def score(st, p):
    """Payout of seat p in chips (valid once the hand is over)."""
    return st[PAY + p]


# =============================================================================
# strategies: an id and a float parameter row per seat
# =============================================================================
@njit(cache=True, inline='always')
def helps_in_hand(hand, card):
    """Another card of the hand shares the rank or is within two ranks in the suit."""
    others = hand & ~bit(card)
    near = run_neighbours(bit(card))
    near |= run_neighbours(near)
    return (others & (rank_mask(card % 13) | near)) != 0


@njit(cache=True, inline='always')
def plan(sid, prm, k):
    """The planner's k-th study parameter (0 dry_end, 1 take_low, 2 hold_spreads,
    3 hold_min_stock); greedy, knocker and watcher play all four at 0."""
    return prm[PLAN + k] if sid == S_PLANNER or sid == S_EXPERT else 0.0


@njit(cache=True, inline='always')
def greedy_discard(hand, taken):
    """The card greedy's meld phase would discard from ``hand`` (``meld_value``), never
    ``taken`` (the card just taken from the pile); -1 if there is none."""
    best = -1e300
    bc = -1
    m = hand & ~bit(taken) if taken >= 0 else hand
    while m:
        c = lowbit(m)
        m &= m - 1
        v = meld_value(hand, A_DISCARD | (c << 8))
        if v > best:
            best = v
            bc = c
    return bc


@njit(cache=True)
def take_lowers_count(hand, card):
    """Taking ``card`` and discarding what greedy would discard then lowers the count."""
    h = hand | bit(card)
    d = greedy_discard(h, card)
    return d >= 0 and POINTS_TEN_CAP[d % 13] > POINTS_TEN_CAP[card % 13]


@njit(cache=True, inline='always')
def is_spread(mask):
    """``mask`` is one book (3 or 4 of a rank) or one run (3+ consecutive of a suit)."""
    if popcount(mask) < 3:
        return False
    c = lowbit(mask)
    if mask & ~rank_mask(c % 13) == 0:
        return True
    s = c // 13
    plane = (mask >> (13 * s)) & 0x1FFF
    if plane << (13 * s) != mask:
        return False
    p = plane >> (c % 13)
    return (p & (p + 1)) == 0


@njit(cache=True)
def can_clear(st, opts, hand):
    """The hand can be emptied in this meld phase (a tonk out): after the cards it can hit
    now, what is left is nothing, one spread, or two spreads of three."""
    cur = st[CUR]
    rest = hand
    m = hand
    while m:
        c = lowbit(m)
        m &= m - 1
        if can_hit(st, opts, cur, c):
            rest &= ~bit(c)
    if rest == 0 or is_spread(rest):
        return True
    if popcount(rest) != 6:
        return False
    # two spreads of three: try every 3-card subset holding the lowest card
    lo = lowbit(rest)
    others = rest & ~bit(lo)
    a = others
    while a:
        x = lowbit(a)
        a &= a - 1
        b = a
        while b:
            y = lowbit(b)
            b &= b - 1
            t = bit(lo) | bit(x) | bit(y)
            if is_spread(t) and is_spread(rest & ~t):
                return True
    return False


@njit(cache=True, inline='always')
def holding(st, sid, prm):
    """The planner holds its spreads back for a tonk out (``hold_spreads`` = 1) while the
    stock holds more than ``hold_min_stock`` cards."""
    return plan(sid, prm, 2) > 0 and 52 - st[STOCK_PTR] > plan(sid, prm, 3)


@njit(cache=True, inline='always')
def wants_knock(st, sid, prm):
    """knocker: count <= threshold. watcher: the threshold falls by ``decay`` per round and
    it never knocks while an opponent holds <= ``wary_cards`` cards. Never with a dry stock
    (ending it is never worse than knocking)."""
    if sid < S_KNOCKER or stock_empty(st):
        return False
    cur = st[CUR]
    c = hand_count(st[HAND + cur])
    if sid == S_KNOCKER:
        return c <= prm[0]
    if sid == S_EXPERT and expert_knocks(st, cur, c, prm):
        return True
    for p in range(st[N]):
        if p != cur and popcount(st[HAND + p]) <= prm[2]:
            return False
    return c <= prm[0] - prm[1] * ((st[TURNS] - 1) // st[N])


# ---- the expert (issue 41): what a good player reads from the table ------------
@njit(cache=True, inline='always')
def rival_known(st, p, q):
    """The cards seat ``q`` is publicly known to hold, as ``p`` sees it: taken from the pile
    and not played since (nor in ``p``'s own hand)."""
    return st[KNOWN + q] & ~(st[HAND + p] | public_cards(st))


@njit(cache=True, inline='always')
def rivals_known(st, p):
    """The cards some other seat is publicly known to hold, as ``p`` sees them (the union of
    ``rival_known`` over the rivals)."""
    m = 0
    for q in range(st[N]):
        if q != p:
            m |= st[KNOWN + q]
    return m & ~(st[HAND + p] | public_cards(st))


@njit(cache=True, inline='always')
def unseen_by(st, p):
    """The cards seat ``p`` cannot place: not in its hand, the pile, a spread, or among the
    cards a rival is known to hold. Reads only what ``p`` may see."""
    return FULL_DECK & ~(st[HAND + p] | public_cards(st) | rivals_known(st, p))


@njit(cache=True)
def least_rival_count(st, p, unseen):
    """The least count any other seat can hold, given what ``p`` sees (``unseen``:
    ``unseen_by``): its known cards plus the lowest unseen cards for the rest of its hand. A
    knock below it cannot be caught."""
    least = 1 << 30
    for q in range(st[N]):
        if q == p:
            continue
        kq = rival_known(st, p, q)
        need = popcount(st[HAND + q]) - popcount(kq)
        c = hand_count(kq)
        r = 0
        while need > 0 and r < 13:
            k = min(need, popcount(unseen & rank_mask(r)))
            c += k * POINTS_TEN_CAP[r]
            need -= k
            r += 1
        least = min(least, c)
    return least


@njit(cache=True, inline='always')
def unseen_sums(unseen):
    """(count, sum of points, sum of squared points) of the ``unseen`` cards: the moments of
    ``chance_at_most``'s normal law, computed once a decision."""
    s2 = 0.0
    for r in range(13):
        s2 += popcount(unseen & rank_mask(r)) * POINTS_TEN_CAP[r] * POINTS_TEN_CAP[r]
    return popcount(unseen), float(hand_count(unseen)), s2


@njit(cache=True)
def chance_at_most(unseen, h, t, u, s1, s2):
    """The chance that ``h`` cards drawn at random from ``unseen`` (``u``, ``s1``, ``s2``: its
    ``unseen_sums``) count at most ``t`` points: exact for one or two cards, else the normal
    law of a sum drawn without replacement (with a continuity correction). Cheap: it runs at
    every turn start of an expert."""
    if t < 0:
        return 0.0
    if h <= 0:
        return 1.0
    if h > u:
        return 0.0
    if h <= 2:
        good = 0.0
        for r in range(13):
            if POINTS_TEN_CAP[r] > t:
                break                             # the points grow with the rank
            a = popcount(unseen & rank_mask(r))
            if h == 1:
                good += a
                continue
            for r2 in range(r, 13):
                if POINTS_TEN_CAP[r] + POINTS_TEN_CAP[r2] > t:
                    break
                good += a * (a - 1) / 2 if r2 == r else a * popcount(unseen & rank_mask(r2))
        return good / (u if h == 1 else u * (u - 1) / 2)
    mean = s1 / u
    var = max(s2 / u - mean * mean, 1e-9) * h * (u - h) / max(u - 1, 1)
    return 0.5 * (1.0 + math.erf((t + 0.5 - h * mean) / math.sqrt(2.0 * var)))


@njit(cache=True)
def knock_chance(st, p, c, unseen, u, s1, s2):
    """The chance, as seat ``p`` sees it, that a knock at count ``c`` is not caught: every
    other seat counts more (its known cards plus its other cards drawn at random from the
    cards ``p`` has not seen, ``unseen`` with its ``unseen_sums``, each seat taken alone)."""
    chance = 1.0
    for q in range(st[N]):
        if q != p:
            kq = rival_known(st, p, q)
            h = popcount(st[HAND + q]) - popcount(kq)
            chance *= 1.0 - chance_at_most(unseen, h, c - hand_count(kq), u, s1, s2)
    return chance


@njit(cache=True)
def likely_caught(st, p, c, u, s1):
    """Some rival with three or more cards unknown to ``p`` is expected (by ``chance_at_most``'s
    normal law, with its continuity correction) to count at most ``c``: its term of
    ``knock_chance`` is then at most 1/2, so a knock needing better odds than 1/2 is refused
    without the law's erf (a shortcut: the same decisions, issue 41's speed target)."""
    for q in range(st[N]):
        if q == p:
            continue
        kq = rival_known(st, p, q)
        h = popcount(st[HAND + q]) - popcount(kq)
        if 3 <= h <= u and c - hand_count(kq) + 0.5 >= h * (s1 / u):
            return True
    return False


@njit(cache=True)
def expert_knocks(st, p, c, prm):
    """The expert knocks when a knock at its count ``c`` cannot be caught, or is not caught
    with chance at least ``knock_odds`` (below 1)."""
    unseen = unseen_by(st, p)
    if c < least_rival_count(st, p, unseen):
        return True
    if prm[EXP] >= 1.0:
        return False
    u, s1, s2 = unseen_sums(unseen)
    if prm[EXP] > 0.5 and likely_caught(st, p, c, u, s1):
        return False
    return knock_chance(st, p, c, unseen, u, s1, s2) >= prm[EXP]


@njit(cache=True, inline='always')
def pair_outs(hand, unseen, card):
    """The unseen cards that would make a book of ``card`` and a card of its rank in the hand
    (0 when the hand holds no other card of the rank)."""
    rm = rank_mask(card % 13)
    return popcount(unseen & rm) if hand & ~bit(card) & rm else 0


@njit(cache=True, inline='always')
def run_outs(hand, unseen, card):
    """The unseen cards that would make a run of three of ``card`` and the hand's cards of its
    suit (a window of three ranks holding two of the hand's cards and one unseen card); a
    card already in three of a suit in a row counts as two outs."""
    s, r = card // 13, card % 13
    plane = (hand >> (13 * s)) & 0x1FFF
    free = (unseen >> (13 * s)) & 0x1FFF
    outs = 0
    for lo in range(max(r - 2, 0), min(r, 10) + 1):
        w = 7 << lo
        k = popcount(plane & w)
        if k == 3:
            return 2
        if k == 2:
            outs |= w & ~plane & free
    return popcount(outs)


@njit(cache=True, inline='always')
def feeds(st, card, known):
    """Discarding ``card`` hands a rival something: it extends a spread on the table, or it
    shares a rank with, or sits next to in a suit, a card a rival is known to hold
    (``known``: ``rivals_known``)."""
    b = bit(card)
    if known & (rank_mask(card % 13) | run_neighbours(b)):
        return True
    for q in range(st[N]):
        if popcount(st[BOOK + q] & rank_mask(card % 13)) == 3 or run_neighbours(st[RUN + q]) & b:
            return True
    return False


@njit(cache=True, inline='always')
def expert_discard_value(st, hand, card, prm, unseen, known):
    """The expert's wish to discard ``card``: its points, less ``pair_keep`` and ``near_keep``
    for every two outs of a book and of a run it would give up (``pair_outs``, ``run_outs``;
    ``unseen``: ``unseen_by``), less ``feed`` when a rival can use it (``feeds``; ``known``:
    ``rivals_known``). The card index breaks ties as greedy's does."""
    v = POINTS_TEN_CAP[card % 13] + card * 1e-3
    v -= 0.5 * (prm[EXP + 1] * pair_outs(hand, unseen, card) + prm[EXP + 2] * run_outs(hand, unseen, card))
    if feeds(st, card, known):
        v -= prm[EXP + 3]
    return v



@njit(cache=True)
def expert_take_lowers(st, card, prm):
    """Taking ``card`` and discarding what the expert would then discard lowers the count."""
    hand = st[HAND + st[CUR]] | bit(card)
    unseen = unseen_by(st, st[CUR])
    known = rivals_known(st, st[CUR])
    best = -1e300
    bc = -1
    m = hand & ~bit(card)
    while m:
        c = lowbit(m)
        m &= m - 1
        v = expert_discard_value(st, hand, c, prm, unseen, known)
        if v > best:
            best = v
            bc = c
    return bc >= 0 and POINTS_TEN_CAP[bc % 13] > POINTS_TEN_CAP[card % 13]

@njit(cache=True, inline='always')
def start_score(st, opts, a, sid, prm):
    """Greedy family at turn start: knock when the strategy wants to; take a discard that it
    can use at once, or one that lowers the count (with a dry stock always; the planner's
    ``take_low`` also with a stock: a known card worth at most that many points rather than
    a blind stock card); end a dry hand when no discard would lower the count, or (planner)
    when the count is at most ``dry_end`` (issue 15: before, a dry stock ended the hand
    whenever the discard was not usable at once)."""
    kind = a & 15
    cur = st[CUR]
    if kind == A_KNOCK:
        return 100.0 if wants_knock(st, sid, prm) else -100.0
    if kind == A_END_DRY:
        return 30.0 if hand_count(st[HAND + cur]) <= plan(sid, prm, 0) else 5.0
    if kind == A_DRAW_DISCARD:
        top = pile_top(st)
        if usable_now(st, opts, cur, top):
            return 20.0
        if ((stock_empty(st) or POINTS_TEN_CAP[top % 13] <= plan(sid, prm, 1))
                and (expert_take_lowers(st, top, prm) if sid == S_EXPERT
                     else take_lowers_count(st[HAND + cur], top))):
            return 15.0
        return 0.0
    return 10.0


@njit(cache=True, inline='always')
def meld_value(hand, a):
    """Greedy family in the meld phase: biggest spreads, then hits, then the best discard."""
    kind = a & 15
    if kind == A_LAY:
        return 300.0 + 10.0 * popcount(a >> 8)
    card = (a >> 8) & 63
    if kind == A_HIT:
        return 200.0 + POINTS_TEN_CAP[card % 13]
    penalty = 100.0 if helps_in_hand(hand, card) else 0.0
    return POINTS_TEN_CAP[card % 13] - penalty + card * 1e-3


@njit(cache=True, inline='always')
def meld_score(st, opts, a, sid, prm, unseen, known):
    """``meld_value`` of action ``a`` for the hand of the player to act; while ``holding``,
    a spread is laid only when the rest of the hand can then go too (a tonk out), and
    otherwise ranks below every discard. The expert's discards by ``expert_discard_value``
    (``unseen``, ``known``: its ``unseen_by`` and ``rivals_known``, computed once a decision)."""
    hand = st[HAND + st[CUR]]
    kind = a & 15
    if kind == A_LAY and holding(st, sid, prm) and not can_clear(st, opts, hand & ~(a >> 8)):
        return -1000.0 + popcount(a >> 8)
    if sid == S_EXPERT and kind == A_DISCARD:
        v = expert_discard_value(st, hand, (a >> 8) & 63, prm, unseen, known)
    else:
        v = meld_value(hand, a)
    if kind == A_DISCARD and ((a >> 8) & 63) == st[TAKEN]:
        return v - 50.0                           # a re-discard (if allowed) only as a last resort
    return v


@njit(cache=True, inline='always')
def best_start(st, opts, acts, n, sid, prm):
    """Index of the first best ``start_score`` among ``acts[:n]``."""
    best = -1e300
    bi = 0
    for i in range(n):
        v = start_score(st, opts, acts[i], sid, prm)
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True, inline='always')
def best_meld(st, opts, acts, n, sid, prm):
    """Index of the first best ``meld_score`` among ``acts[:n]``."""
    best = -1e300
    bi = 0
    unseen = unseen_by(st, st[CUR]) if sid == S_EXPERT else 0
    known = rivals_known(st, st[CUR]) if sid == S_EXPERT else 0
    for i in range(n):
        v = meld_score(st, opts, acts[i], sid, prm, unseen, known)
        if v > best:
            best = v
            bi = i
    return bi


@njit(cache=True, inline='always')
def pick_kind(acts, n, kinds, gen):
    """Index of a uniformly drawn action among ``acts[:n]`` whose kind bit is in ``kinds``
    (-1 if none)."""
    k = 0
    for i in range(n):
        k += (kinds >> (acts[i] & 15)) & 1
    if k == 0:
        return -1
    j = below(gen, k)
    for i in range(n):
        if (kinds >> (acts[i] & 15)) & 1:
            if j == 0:
                return i
            j -= 1
    return -1


@njit(cache=True)
def fuzz_choice(st, acts, n, prm, gen):
    """The fuzzer: knock with chance ``knock``; take the discard with chance ``take``; end a
    dry hand with chance ``end_dry`` (else take the discard); else draw from the stock. In
    the meld phase a lay or hit with chance ``meld`` (uniform among them), else a uniform
    discard. Each kind falls back to any legal action when it is not legal."""
    i = -1
    if st[PHASE] == P_START:
        if uniform(gen) < prm[0]:
            i = pick_kind(acts, n, 1 << A_KNOCK, gen)
        if i < 0 and stock_empty(st):
            first = A_END_DRY if uniform(gen) < prm[2] else A_DRAW_DISCARD
            i = pick_kind(acts, n, 1 << first, gen)
            if i < 0:
                i = pick_kind(acts, n, (1 << A_END_DRY) | (1 << A_DRAW_DISCARD), gen)
        if i < 0 and uniform(gen) < prm[1]:
            i = pick_kind(acts, n, 1 << A_DRAW_DISCARD, gen)
        if i < 0:
            i = pick_kind(acts, n, 1 << A_DRAW_STOCK, gen)
    else:
        if uniform(gen) < prm[3]:
            i = pick_kind(acts, n, (1 << A_LAY) | (1 << A_HIT), gen)
        if i < 0:
            i = pick_kind(acts, n, 1 << A_DISCARD, gen)
    return i if i >= 0 else below(gen, n)


@njit(cache=True, inline='always')
def choose(st, opts, acts, n, sid, prm, gen):
    """Index of the action the strategy ``sid`` picks among ``acts[:n]``."""
    if sid == S_RANDOM:
        return below(gen, n)
    if sid == S_FUZZ:
        return fuzz_choice(st, acts, n, prm, gen)
    if st[PHASE] == P_START:
        return best_start(st, opts, acts, n, sid, prm)
    return best_meld(st, opts, acts, n, sid, prm)


@njit(cache=True)
def fill_view(st, view):
    """What the seat to act may see, into ``view`` (the V_* layout): its own hand, the table,
    the discard pile, counts; never another hand or the stock's order."""
    p = st[CUR]
    view[V_SEAT] = p
    view[V_KIND] = K_START if st[PHASE] == P_START else K_MELD
    view[V_HAND] = st[HAND + p]
    view[V_TOP] = pile_top(st)
    view[V_PILE] = st[PILE_MASK]
    view[V_PILE_LEN] = st[PILE_LEN]
    view[V_STOCK] = 52 - st[STOCK_PTR]
    view[V_TURNS] = st[TURNS]
    view[V_TAKEN] = st[TAKEN]
    view[V_NEW_SPREAD] = st[NEW_SPREAD]
    view[V_HITS] = st[HITS]
    view[V_DRY_TURNS] = st[DRY_TURNS]
    view[V_BLOCKED] = (st[BLOCKED] >> p) & 1
    view[V_PLAYERS] = st[N]
    view[V_DEALER] = st[DEALER]
    view[15] = 0
    for q in range(MAX_PLAYERS):            # seats beyond the table: 0
        live = q < st[N]
        view[V_HELD + q] = popcount(st[HAND + q]) if live else 0
        view[V_BOOKS + q] = st[BOOK + q] if live else 0
        view[V_RUNS + q] = st[RUN + q] if live else 0


@njit(cache=True, inline='always')
def plugin_pick(st, acts, n, plug, pprm, view, legal):
    """A plug-in seat's choice: ``plug(view, legal, n, pprm)`` on its view and a copy of the
    legal actions, for the decision kinds in its mask; -1 leaves the choice to its base
    built-in (so does a kind it is not asked), -2 is an illegal answer (E_PLUGIN)."""
    kind = K_START if st[PHASE] == P_START else K_MELD
    if not (int(pprm[PLUG_KINDS]) >> kind) & 1:
        return -1
    fill_view(st, view)
    legal[:n] = acts[:n]
    i = plug(view, legal[:n], n, pprm)
    if i == -1 or 0 <= i < n:
        return i
    return -2


# =============================================================================
# search (issue 19): determinized Monte Carlo over the legal actions
# =============================================================================
@njit(cache=True)
def public_cards(st):
    """Every card seat-independent information places: the discard pile and the spreads."""
    m = st[PILE_MASK]
    for q in range(st[N]):
        m |= st[BOOK + q] | st[RUN + q]
    return m


@njit(cache=True)
def determinize(st, p, gen, cards):
    """Deal again, in ``st``, what seat ``p`` cannot see: every other hand (its cards taken
    from the discard pile and still unplayed stay in it; the rest drawn at random) and the
    stock's order, from the cards ``p`` has not seen. Reads only what ``p`` may see: its own
    hand, the pile, the spreads, hand sizes, the stock's size and the public takes."""
    n = st[N]
    known = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for q in range(n):
        if q != p:
            known[q] = rival_known(st, p, q)
    m = 0
    rest = unseen_by(st, p)
    while rest:
        c = lowbit(rest)
        cards[m] = c
        m += 1
        rest &= rest - 1
    shuffle_prefix(cards, m, gen)
    k = 0
    for q in range(n):
        if q != p:
            h = known[q]
            for _ in range(popcount(st[HAND + q]) - popcount(known[q])):
                h |= bit(cards[k])
                k += 1
            st[HAND + q] = h
    for i in range(st[STOCK_PTR], 52):
        st[DECK + i] = cards[k]
        k += 1


@njit(cache=True)
def rollout(st, opts, sid, prm, gen, acts, trace):
    """Play the hand in ``st`` to its end with the built-in ``sid`` (row ``prm``) at every seat."""
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, acts)
        if n == 0:
            break
        apply_action(st, opts, acts[choose(st, opts, acts, n, sid, prm, gen)], trace)


@njit(cache=True)
def world_values(st, p, opts, acts, n, active, prm, key, w, base, sim, acts2, cards, g, trace, out):
    """World ``w`` of a decision's search (stream keyed by ``key``): the hidden cards of seat
    ``p`` dealt again into ``base`` (a copy of ``st``), then each active legal action played and
    rolled out ``rollouts`` times by the row's policy; ``out[i]`` = the total payout of seat
    ``p`` over those rollouts after action ``i`` (the same rollout streams for every action:
    common random numbers)."""
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    sid = np.int64(prm[SP_POLICY])
    pprm = prm[SP_PRM:]
    base[:] = st
    seed_sub(g, key, w, -1)
    determinize(base, p, g, cards)
    for i in range(n):
        out[i] = 0.0
    for r in range(rollouts):
        for i in range(n):
            if active[i]:
                sim[:] = base
                seed_sub(g, key, w, r)
                apply_action(sim, opts, acts[i], trace)
                rollout(sim, opts, sid, pprm, g, acts2, trace)
                out[i] += sim[PAY + p]


@njit(cache=True)
def search_values(st, opts, acts, n, prm, gen, total):
    """The search's totals ``total[:n]`` for the legal actions ``acts[:n]`` (row ``prm``:
    ``kernels.search``): for each of ``worlds`` determinizations (``world_values``), every legal
    action is played and rolled out to the end of the deal ``rollouts`` times by the policy,
    and the deciding seat's payout is added. The hand's payout is the deal's, so a rollout to
    the end of the hand is a whole deal. Returns the number of (world, rollout) samples per
    action."""
    p = st[CUR]
    worlds, rollouts = plan_budget(prm, n)
    key = search_key(gen)
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    g = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    out = np.empty(n, dtype=np.float64)
    total[:n] = 0.0
    for w in range(worlds):
        world_values(st, p, opts, acts, n, active, prm, key, w, base, sim, acts2, cards, g, trace, out)
        for i in range(n):
            total[i] += out[i]
    return worlds * rollouts


@njit(cache=True)
def search_pick(st, opts, acts, n, prm, gen):
    """The search strategy's choice among ``acts[:n]``: the best total of ``search_values``
    (a single legal action is taken without searching)."""
    if n == 1:
        return 0
    total = np.empty(n, dtype=np.float64)
    search_values(st, opts, acts, n, prm, gen, total)
    return best_action(total, n)


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


@njit(cache=True)
def search_means(st, opts, prm, key, acts, means):
    """The legal actions of ``st`` in ``acts`` and the search's mean payout of each in
    ``means`` (stream keyed by ``key``); returns their number (``scripts/search_distance.py``)."""
    n = legal_actions(st, opts, acts)
    g = np.empty(2, dtype=np.uint64)
    g[0] = np.uint64(key)
    g[1] = 0
    k = search_values(st, opts, acts, n, prm, g, means)
    for i in range(n):
        means[i] /= k
    return n


# =============================================================================
# critique (issue 40): every legal action of the critiqued seat's decisions valued
# =============================================================================
@njit(cache=True)
def critique_eval(st, opts, acts, n, chosen, prm, key, row, acts_out):
    """Value every legal action ``acts[:n]`` of the seat to act with the search row ``prm``
    (``kernels.critique``: a racing select stage over ``worlds`` worlds, then the best and the
    choice ``chosen`` measured on as many fresh ones) into ``row`` and ``acts_out``."""
    p = st[CUR]
    worlds = max(1, int(prm[SP_WORLDS]))
    rollouts = max(1, int(prm[SP_ROLLOUTS]))
    vals = np.zeros((2 * worlds, n), dtype=np.float64)
    seen = np.zeros(n, dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    base = np.empty(ST_SIZE, dtype=np.int64)
    sim = np.empty(ST_SIZE, dtype=np.int64)
    acts2 = np.empty(MAX_ACTS, dtype=np.int64)
    cards = np.empty(52, dtype=np.int64)
    g = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    out = np.empty(n, dtype=np.float64)
    w, best, played = 0, chosen, 0
    while w < worlds:
        for ww in range(w, min(worlds, w + CR_ROUND)):
            world_values(st, p, opts, acts, n, active, prm, key, ww, base, sim, acts2, cards, g, trace, out)
            played += rollouts * put_world(vals[ww], out, n, active, rollouts)
        w = min(worlds, w + CR_ROUND)
        best, stop = round_done(vals, w, n, active, seen, chosen)
        if stop:
            break
    w_all = w
    if best != chosen:
        measure_pair(active, best, chosen)
        for ww in range(worlds, 2 * worlds):
            world_values(st, p, opts, acts, n, active, prm, key, ww, base, sim, acts2, cards, g, trace, out)
            played += rollouts * put_world(vals[ww - worlds + w], out, n, active, rollouts)
        w_all = w + worlds
    finish_row(row, acts_out, vals, seen, n, acts, chosen, best, w, w_all, played)


@njit(cache=True)
def decision_kind(st):
    """The plug-in decision kind of the seat to act (K_START or K_MELD)."""
    return K_START if st[PHASE] == P_START else K_MELD


@njit(cache=True, nogil=True)
def critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug,
                  pprm, srch):
    """Play deal ``deal_id`` of run ``seed`` exactly as ``play_deal`` does and write a
    ``kernels.critique`` row for each decision of ``seat`` (at most ``len(rows)``); a sampled
    one (``rate``) with more than one legal action is valued by ``critique_eval`` with the search
    row ``prm``, its state kept in ``snaps``. ``stop`` >= 0 stops the deal before its decision
    number ``stop`` (any seat's: ``CR_STEP``), the state there (``replay --until-decision``).
    Returns (rows written, decisions of ``seat``, the final state)."""
    st = new_state(opts)
    acts = np.empty(MAX_ACTS, dtype=np.int64)
    legal = np.empty(MAX_ACTS, dtype=np.int64)
    view = np.empty(VIEW_SIZE, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    gplay = np.empty(2, dtype=np.uint64)
    seed_stream(gdeck, seed, deal_id, np.int64(STREAM_DECK))
    seed_stream(gplay, seed, deal_id, np.int64(STREAM_PLAY))
    key = stream_key(seed, deal_id, np.int64(STREAM_CRITIQUE))
    st[ERR] = 0
    st[TR_LEN] = 0
    start_deal(st, opts, gdeck, dealer_of(opts, seed, deal_id), trace)
    k, seen, step = 0, 0, 0
    while st[PHASE] != P_OVER and step != stop:
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
                plain_row(rows[k], seen, step, decision_kind(st), st[TURNS] // st[N],
                          hand_count(st[HAND + p]), n, i, acts[i])
                if n > 1 and sampled(key, seen, rate):
                    snaps[k, :ST_SIZE] = st
                    critique_eval(st, opts, acts, n, i, prm, mix64(key + np.uint64(seen + 1)), rows[k], acts_out[k])
                k += 1
            seen += 1
        apply_action(st, opts, acts[i], trace)
        step += 1
    return k, seen, st


def critique(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace, plug=None,
             pprm=None):
    """``critique_deal`` with the table's plug-in and search callbacks (as ``play_batch``)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return critique_deal(seed, deal_id, opts, sids, params, seat, prm, rate, stop, rows, acts_out, snaps, trace,
                         no_plugin if plug is None else plug, pprm, srch)


# =============================================================================
# check mode
# =============================================================================
@njit(cache=True)
def cards_conserved(st):
    seen = 0
    total = 0
    for p in range(st[N]):
        for f in (HAND, BOOK, RUN):
            seen |= st[f + p]
            total += popcount(st[f + p])
    for i in range(st[STOCK_PTR], 52):
        seen |= bit(st[DECK + i])
        total += 1
    for i in range(st[PILE_LEN]):
        seen |= bit(st[PILE + i])
        total += 1
    return total == 52 and seen == FULL_DECK


@njit(cache=True)
def spreads_valid(st):
    for p in range(st[N]):
        for r in range(13):
            c = popcount(st[BOOK + p] & rank_mask(r))
            if c == 1 or c == 2:
                return False
        for s in range(4):
            plane = (st[RUN + p] >> (13 * s)) & 0x1FFF
            for r in range(13):
                if (plane >> r) & 1 and run_length_through(plane, r) < 3:
                    return False
    return True


@njit(cache=True)
def check_invariants(st, opts):
    """0 if the state is sound, else an E_* code."""
    n = st[N]
    if not cards_conserved(st):
        return E_CARDS
    for p in range(n):
        limit = 6 if (st[PHASE] == P_MELD and p == st[CUR]) else 5
        if popcount(st[HAND + p]) > limit:
            return E_HAND_SIZE
    if not spreads_valid(st):
        return E_SPREAD
    if st[TURNS] > opts[O_MAX_TURNS] + 1 or st[DRY_TURNS] > opts[O_DRY_CAP] + 1:
        return E_CAP
    total = 0
    for p in range(n):
        total += st[PAY + p]
        if abs(st[PAY + p]) > 3 * (n - 1) * opts[O_STAKE]:
            return E_BOUND
    return E_ZERO_SUM if total != 0 else 0


# =============================================================================
# one deal, a batch
# =============================================================================
@njit(cache=True, inline='always')
def seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch):
    """The index among ``acts[:n]`` the seat to act plays: its plug-in's (sid >= PLUGIN, its row
    of ``pprm``), else its search's (``srch``) or its built-in's; -2 for an illegal plug-in answer."""
    p = st[CUR]
    sid, i = sids[p], -1
    if sid >= PLUGIN:
        i = plugin_pick(st, acts, n, plug, pprm[p], view, legal)
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
def play_deal(st, opts, seed, deal_id, sids, params, check, trace, acts, gdeck, gplay, plug, pprm, view, legal,
              srch):
    """Play deal ``deal_id`` of run ``seed`` to the end in ``st``; returns the check error.
    Seats with sid >= PLUGIN are decided by ``plug`` (their row of ``pprm``), search seats by
    ``srch`` (SEARCH_SIG).

    The loop works on ``unowned`` views of the arrays (they live as long as this call)."""
    st, opts, sids, params = unowned(st), unowned(opts), unowned(sids), unowned(params)
    trace, acts, gdeck, gplay = unowned(trace), unowned(acts), unowned(gdeck), unowned(gplay)
    pprm, view, legal = unowned(pprm), unowned(view), unowned(legal)
    seed_stream(gdeck, seed, deal_id, np.int64(STREAM_DECK))
    seed_stream(gplay, seed, deal_id, np.int64(STREAM_PLAY))
    st[ERR] = 0
    st[TR_LEN] = 0
    start_deal(st, opts, gdeck, dealer_of(opts, seed, deal_id), trace)
    while st[PHASE] != P_OVER:
        n = legal_actions(st, opts, acts)
        if n == 0:
            st[ERR] = E_NO_MOVES
            break
        i = seat_choice(st, opts, acts, n, sids, params, gplay, plug, pprm, view, legal, srch)
        if i == -2:
            st[ERR] = E_PLUGIN
            break
        apply_action(st, opts, acts[i], trace)
        if check:
            st[ERR] = check_invariants(st, opts)
            if st[ERR]:
                break
    if check and st[ERR] == 0:
        st[ERR] = check_invariants(st, opts)
    return st[ERR]


@njit(cache=True)
def write_record(st, row):
    row[R_COL_DEALER] = st[DEALER]
    row[R_COL_REASON] = st[REASON]
    row[R_COL_WINNER] = st[WINNER]
    row[R_COL_KNOCKER] = st[KNOCKER]
    row[R_COL_TURNS] = st[TURNS]
    row[R_COL_STOCK] = 52 - st[STOCK_PTR]
    row[R_COL_REDEALS] = st[REDEALS]
    row[R_COL_TRUNC] = st[TRUNC]
    row[R_COL_ERR] = st[ERR]
    for p in range(st[N]):
        row[R_COL_PAY + p] = st[PAY + p]
        row[R_COL_COUNT + p] = st[COUNT + p]
        row[R_COL_LEFT + p] = popcount(st[HAND + p])


@njit(cache=True, nogil=True)
def play_chunk(seed, first, lo, hi, opts, sids, params, check, rec, plug, pprm, srch):
    """Play deals first+lo .. first+hi-1 into rec[lo:hi] with one set of buffers; ``plug`` is
    the plug-in (a ``jit.PLUG_SIG`` function) for the seats whose sid is >= PLUGIN, ``srch``
    the search (SEARCH_SIG) for the search seats."""
    st = new_state(opts)
    acts = np.empty(MAX_ACTS, dtype=np.int64)
    legal = np.empty(MAX_ACTS, dtype=np.int64)
    view = np.empty(VIEW_SIZE, dtype=np.int64)
    gdeck = np.empty(2, dtype=np.uint64)
    gplay = np.empty(2, dtype=np.uint64)
    trace = np.empty((0, 4), dtype=np.int64)
    o, s, p, r = unowned(opts), unowned(sids), unowned(params), unowned(rec)   # shared by threads
    pp = unowned(pprm)
    for d in range(lo, hi):
        play_deal(st, o, seed, first + d, s, p, check, trace, acts, gdeck, gplay, plug, pp, view, legal, srch)
        write_record(st, r[d])


def play_batch(seed, first, count, opts, sids, params, check, rec, plug=None, pprm=None):
    """Play ``count`` deals starting at ``first`` on ``numba.get_num_threads()`` threads into ``rec``
    (Python threads over the ``nogil`` ``play_chunk``: ``jit.threaded_batch``). ``plug``: the
    plug-in (``jit.plug_cfunc``) seated at the seats whose sid is >= PLUGIN, with its parameters
    ``pprm``; one compiled kernel serves every table, with a plug-in or without."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    plug = no_plugin if plug is None else plug
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    threaded_batch(play_chunk, seed, first, count, opts, sids, params, check, rec, plug, pprm, srch, least=CHUNK)


@njit(cache=True)
def replay_kernel(seed, deal_id, opts, sids, params, check, trace, plug, pprm, srch, st, acts, legal, view, gdeck,
                  gplay):
    play_deal(st, opts, seed, deal_id, sids, params, check, trace, acts, gdeck, gplay, plug, pprm, view, legal,
              srch)
    return st


def replay_deal(seed, deal_id, opts, sids, params, check, trace, plug=None, pprm=None):
    """Play one deal alone with a trace buffer; returns the final state. The working arrays
    are made here, outside the compiled call: ``play_deal`` (inlined) works on ``unowned``
    views, so the arrays must outlive the call; locals of the kernel whose last use is the
    call would be freed under the views (a search seat's allocations then reused them)."""
    pprm = plugin_params(pprm, len(sids), N_PLUG_PARAMS)
    srch = search_callback(sids, S_SEARCH, PLUGIN, search_cfunc, no_search)
    return replay_kernel(seed, deal_id, opts, sids, params, check, trace, no_plugin if plug is None else plug, pprm,
                         srch, new_state(opts), np.empty(MAX_ACTS, dtype=np.int64), np.empty(MAX_ACTS, dtype=np.int64),
                         np.empty(VIEW_SIZE, dtype=np.int64), np.empty(2, dtype=np.uint64),
                         np.empty(2, dtype=np.uint64))


@njit(cache=True, parallel=True)
def deal_only_batch(seed, first, count, opts, out):
    """Floor benchmark and deal-tonk statistics: shuffle, deal and check only.

    ``out[d]`` = number of deal-tonk hands in deal ``first + d`` (first deal, no redeal).
    """
    chunks = (count + CHUNK - 1) // CHUNK
    for c in prange(chunks):
        st = new_state(opts)
        gdeck = np.empty(2, dtype=np.uint64)
        trace = np.empty((0, 4), dtype=np.int64)
        for d in range(c * CHUNK, min(count, (c + 1) * CHUNK)):
            seed_stream(gdeck, seed, first + d, np.int64(STREAM_DECK))
            st[DEALER] = dealer_of(opts, seed, first + d)
            deal_cards(st, opts, gdeck, trace)
            out[d] = deal_tonk_holders(st, opts)[0]
