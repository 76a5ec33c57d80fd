"""Tonk (Tunk): the whole game as small numba kernels.

Rules source: ``docs/rules/tonk.md`` (the seed text, pagat and Wikipedia; every
DECISION of that spec is followed). Choices this package adds where the spec leaves room:

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

Options (int array read by the kernels, built by ``sim.games.tonk.TonkOptions``; slots in ``layout``):

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

State: one int64 array, its fields in ``layout`` (masks are 52-bit card masks, see ``cards``).
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

Modules, each importing only those above it (this package re-exports by name what the rest of
the project reads as ``K.<name>``):

* ``layout``: every constant: options, state fields, the plug-in's view and the record columns
  (declared with ``kernels.layout.offsets``), end reasons, actions, check-mode violations,
  strategy ids, trace codes;
* ``actions``: the action codec (``action_kind``, ``action_card``, ... ``hit_action``);
* ``rules``: small helpers, the deal, turn flow and settlement, legal actions, applying an
  action, the check mode;
* ``view``: what a seat sees of the others' cards, and what a plug-in's ``decide`` is given;
* ``strategies``: the built-in strategies (``choose``);
* ``search``: the determinized search (``search_cfunc``);
* ``infer``: the critique's inference worlds (``--infer``: deals consistent with the play so
  far, weighed by how well the rollout policy explains the rivals' actions);
* ``play``: one deal (``seat_choice``, ``play_deal``, ``write_record``);
* ``critique`` and ``batch``: the entry points (``critique``; ``play_batch``, ``replay_deal``,
  ``deal_only_batch``).
"""
# Re-exported by name: what code outside this package reads as ``K.<name>`` (K = this package).
# Imported in dependency order; ``critique`` (the function) is bound after its module has loaded.
from cardsim.kernels.search import SP_POLICY, SP_PRM  # noqa: F401 - the search row, read by tests
from cardsim.kernels.tonk.layout import (  # noqa: F401
    ACTION_NAMES, A_DISCARD, A_DRAW_DISCARD, A_DRAW_STOCK, A_END_DRY, A_HIT, A_KNOCK, A_LAY, BOOK, CHUNK, COUNT, CUR,
    DEALER, DECK, ERR, ERROR_NAMES, E_NO_MOVES, E_PLUGIN, F_END_DRY, F_KNOCK, F_MELD, F_SIZE, F_TAKE, HAND, KNOCKER, KNOWN, K_MELD, K_START, MAX_ACTS,
    MAX_PLAYERS, MAX_REDEALS, N, N_PARAMS, N_PLUG_PARAMS, O_ACES_EXC, O_CAUGHT_BONUS, O_CAUGHT_PAYS_BASE, O_DRY_CAP,
    O_DRY_TIE, O_DT49, O_DT50, O_FIRST_DEALER, O_HIT_BLOCKS, O_HIT_OWN_ONLY, O_INITIAL_UPCARD, O_MAX_HITS,
    O_MAX_TURNS, O_MUST_SPREAD, O_PICKUP_USE, O_PLAYERS, O_REDISCARD, O_SIZE, O_STAKE, O_TIE_SAME_DEALER,
    O_TONK_NEW_SPREAD, P_DECAY, P_DRY_END, P_FEED, P_HOLD_MIN_STOCK, P_HOLD_SPREADS, P_KNOCK_ODDS, P_NEAR_KEEP,
    P_PAIR_KEEP, P_SIZE, P_TAKE_LOW, P_THRESHOLD, P_WARY_CARDS, PAY, PHASE, PILE, PILE_LEN, PILE_MASK, PLUGIN, P_MELD, P_OVER, P_START, REASON, REASON_NAMES,
    RECORD_COLS, REDEALS, RUN, R_COL_COUNT, R_COL_DEALER, R_COL_ERR, R_COL_KNOCKER, R_COL_LEFT, R_COL_PAY,
    R_COL_REASON, R_COL_REDEALS, R_COL_STOCK, R_COL_TRUNC, R_COL_TURNS, R_COL_WINNER, R_DEAL_TONK, R_DRY, R_HIT_OUT,
    R_KNOCK_CAUGHT, R_KNOCK_WON, R_OUT, R_TONK_OUT, R_TURN_CAP, R_VOID, STOCK_PTR, ST_SIZE, S_EXPERT, S_FUZZ,
    S_GREEDY, S_KNOCKER, S_PLANNER, S_RANDOM, S_SEARCH, S_WATCHER, SX_INFER, TAKEN, TRUNC, TR_LEN, TURNS, T_ACTION, T_DEAL,
    T_END, T_UPCARD, T_VOID, VIEW_SIZE, V_BLOCKED, V_BOOKS, V_DEALER, V_DRY_TURNS, V_HAND, V_HELD, V_HITS, V_KIND,
    V_NEW_SPREAD, V_PILE, V_PILE_LEN, V_PLAYERS, V_RUNS, V_SEAT, V_STOCK, V_TAKEN, V_TOP, V_TURNS, WINNER,
)
from cardsim.kernels.tonk.actions import (  # noqa: F401
    action_card, action_cards, action_kind, action_on_run, action_owner, discard_action, hit_action, lay_action,
)
from cardsim.kernels.tonk.rules import (  # noqa: F401
    add_lays, after_deal, apply_action, begin_turn, check_invariants, deal_cards, deal_from_deck, deal_tonk_holders,
    dealer_of, finish, forms_spread, hand_count, has_spread, legal_actions, new_state, pile_top, reset_hand,
    start_deal, stock_empty,
)
from cardsim.kernels.tonk.view import (  # noqa: F401
    fill_view, rival_known, unseen_by,
)
from cardsim.kernels.tonk.strategies import (  # noqa: F401
    chance_at_most, choose, least_rival_count, unseen_sums,
)
from cardsim.kernels.tonk.search import (  # noqa: F401
    search_cfunc, search_decision, search_means, search_pick,
)
from cardsim.kernels.tonk.play import (  # noqa: F401
    write_record,
)
from cardsim.kernels.tonk.critique import (  # noqa: F401
    critique, critique_eval,
)
from cardsim.kernels.tonk.batch import (  # noqa: F401
    deal_only_batch, play_batch, replay_deal,
)

RULES_VERSION = 2        # the version of these rules in the output metadata (history above)
