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
the ``O_*`` entries (``layout``), then the meld rules array (``kernels.melds`` R_*) at ``O_RULES``,
then the contracts table (8 rows of ``C_STRIDE``, the first ``melds.C_SIZE`` used, row 0
unused) at ``O_CONTRACTS``.

State: ``st`` int64 fields (``layout``, one comment each), table melds ``tab`` (rows of
``melds`` M_* fields plus owner, creation turn and contract flag).
Score range per hand and seat: 0 .. the penalty of the largest holding (at most
108 cards); totals are sums of hand penalties (minus an exact-cut points bonus, plus
leftover-chip points). Chips: 0 .. chips_per_player + 7 (one exact-cut chip per hand).

Modules, each importing only those above it (this package re-exports by name what the rest of
the project reads as ``K.<name>``):

* ``layout``: every constant: options, state fields, table meld rows, the plug-in's view, the
  record columns and the parameter rows (declared with ``kernels.layout.offsets``), phases, end
  reasons, actions, check-mode violations, strategy ids, decision kinds, trace codes;
* ``actions``: the action codec (``act``, ``field``, ``action_kind``, ``action_card``);
* ``rules``: small helpers, the stock and the discard pile, the cut and the deal, the turns, the
  upcard, the buy window and the exchange, and the hands that need a purchase to be won;
* ``legal``: the table actions' candidates and the legal actions (``legal_actions``);
* ``apply``: applying an action (``apply_action``);
* ``close``: scoring a hand, the record rows, the blocked hand (``hand_blocked``);
* ``check``: the check mode's invariants;
* ``strategies``: the built-in strategies (``choose``);
* ``view``: what a plug-in's ``decide`` is given and asked (``fill_view``, ``plugin_pick``);
* ``search``: the determinized search (``search_cfunc``);
* ``play``: one hand, one game (``seat_choice``, ``play_hand``, ``play_game``);
* ``critique`` and ``batch``: the entry points (``critique``; ``play_batch``, ``replay_game``).
"""
# Re-exported by name: what code outside this package reads as ``K.<name>`` (K = this package), and every
# constant. Imported in dependency order; ``critique`` (the function) is bound after its module has loaded.
from cardsim.kernels import melds as M  # noqa: F401 - read as K.M by the Python side
from cardsim.kernels.critique import ROUND as CR_ROUND, STREAM_CRITIQUE  # noqa: F401
from cardsim.kernels.rng import STREAM_PLAY, below, seed_stream  # noqa: F401
from cardsim.kernels.search import SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS  # noqa: F401
from cardsim.kernels.telefunken.layout import (  # noqa: F401
    ACTION_NAMES, ASK, A_BUY, A_CHOOSE, A_DISCARD, A_DRAW, A_EX_CARD, A_EX_DONE, A_GO_DOWN, A_GO_OUT7, A_HOLD,
    A_LAYOFF, A_MELD, A_PASS, A_RETRIEVE, A_SHIFT, A_TAKE_UPCARD, A_TAKE_WILD, BIG, BUYS, CAPPED, CHIPS, CHUNK,
    CONTRACT, CONTRACT_ROWS, CUR, CUT_AIMED, CUT_B, CUT_CODE, CUT_EXACT, CUT_KEEPS, CUT_KEPT, C_STRIDE, DEALER,
    DEAL_TRIES, DECK_SIZE, DISCARD, DISCARDER, DOWN, DOWN_TURN, ERR, ERROR_NAMES, EXK, EX_ROUND, EX_SEAT,
    E_ACTIONS, E_BUY_DOWN, E_CAP, E_CARDS, E_CHIPS, E_MELD, E_NO_MOVES, E_PLUGIN, E_TOTALS, FIRST_DEALER, F_BUY,
    F_GREEDY, F_HOLD, F_SIZE,
    GAME_RESHUF, GAME_TURNS, GBUYS, G_COMPLETE, G_TRUNCATED, H1, H2, HANDS, HAND_REASONS, HB_BUYS, HB_CHIPS,
    HB_CONTRACT, HB_CUT, HB_EXACT, HB_KEPT, HB_OUT, HB_PEN, HB_REASON, HB_RESHUF, HB_SIZE, HB_TURNS, HJ, HNO,
    HREASON, HT, H_BLOCKED, H_EXHAUSTED, H_OUT, H_STOCK_END, H_TURN_CAP, JK, JOKER_DUE, KEEP_CODE, KEEP_SET, KN,
    KN_STRIDE, K_BUY, K_CHOOSE, K_CUT, K_DISCARD, K_EXCHANGE, K_GO_DOWN, K_GO_OUT, K_KEEP, K_LAY, K_UPCARD,
    LASTPEN, MAX_ACTIONS_PER_TURN, MAX_ACTS, MAX_HANDS, MAX_MELDS, MAX_PLAYERS, N, NEXTP, NMELDS, N_KINDS,
    N_PARAMS, N_PLUG_PARAMS, OUT, O_BUY_AFTER_DOWN, O_BUY_PENALTY, O_CARDS, O_CHIPS, O_CHOOSE, O_CONTRACTS,
    O_CUT_AIM, O_CUT_JOKERS, O_CUT_MAX, O_CUT_MIN, O_CUT_MODEL, O_CUT_SPREAD, O_DEALER_OPENS, O_DISCARDER_BUYS,
    O_EXACT_BONUS, O_EXACT_POINTS, O_EXACT_TARGET, O_EXCHANGE, O_EXCHANGE_MODEL, O_EXHAUSTION, O_EXTRA_MELDS,
    O_EXTRA_RUNS, O_FINAL_DISCARD, O_FIRST_DEALER, O_FREE_UPCARD, O_H7_AT_ONCE, O_HANDS, O_IN_TURN_CHIP,
    O_JOKER_NOW, O_JOKER_PRIOR, O_LEFTOVER_POINTS, O_MAX_TURNS, O_NO_BUY, O_OWN_JOKER_OPS, O_OWN_NEW, O_PLAYERS,
    O_RULES, O_RUN_TAKE, O_SIZE, O_SPARE, O_TAKE_DISCARD, O_UPCARD_BUYABLE, O_WILD_TWOS, PEN, PHASE, PILE,
    PILE_LEN, PLUGIN, PLUG_KINDS, POOL, POOL_LEN, P_ACT, P_BUY, P_CHOOSE, P_EXCHANGE, P_OPEN, P_OVER, P_UPCARD,
    Q_ALT, Q_CUT_AIM, Q_DENY, Q_DOWN_LEFT, Q_DOWN_TURN, Q_DUMP_AT, Q_DUMP_NEED, Q_EXCHANGE, Q_H7_GROWTH,
    Q_KEEP_JOKERS, Q_NEAR, Q_PER_HAND, Q_RESERVE, Q_RICH, Q_SIZE, Q_STALL, Q_WILD_ROOM, RC_BUYS, RC_CAPPED,
    RC_CHIPS, RC_CHOSEN, RC_DEALER, RC_ERR, RC_HAND, RC_HANDS, RC_REASON, RC_RESHUF, RC_TOTAL, RC_TRUNC, RC_TURNS,
    RC_WINNER, RC_WINNERS, REASON_NAMES, RECORD_COLS, RESHUF, RULES_ROOM, RULES_VERSION, RUN_FILL,
    SEARCH_POLICY_STREAM, SNAP_CUT, SNAP_INSPECT, SNAP_SIZE, SNAP_ST, SNAP_TAB, STOCK, STOCK_HI, STOCK_LO,
    STREAM_HAND, ST_SIZE, ST_SPARE1, ST_SPARE2, S_CHIP_SAVER, S_EXPERT, S_FUZZ, S_GREEDY, S_PATIENT, S_PLANNER,
    S_RANDOM, S_SEARCH, TABLE_ACTS, TAKEN, TOTAL, TRACE_WIDTH, TRUNC, TR_LEN, TURN, TW, T_ACTION, T_CONTRACT,
    T_CUT, T_DEAL, T_DRAW, T_END, T_EXCHANGE, T_HAND, T_MELD, T_MELD_FIELDS, T_OWNER, T_RESHUFFLE, T_SCORE,
    T_SPARE, T_TAKE, T_TURN, T_TWOS, T_UPCARD, UPCARD, UP_OFFER, USED, VIEW_SIZE, V_AT_ONCE, V_BUYS, V_CHIPS,
    V_CONTRACT, V_CUT_EXACT, V_CUT_KEPT, V_C_GROUPS, V_C_GROUP_SIZE, V_C_NEXT, V_C_PURE, V_C_RUNS, V_C_RUN_MIN,
    V_DEALER, V_DISCARDER, V_DOWN, V_DOWN_TURN, V_EXK, V_EX_ROUND, V_GBUYS, V_H1, V_H2, V_HANDS, V_HELD, V_HNO,
    V_JOKERS, V_JOKER_DUE, V_KIND, V_NMELDS, V_OFFER, V_PILE1, V_PILE2, V_PILE_JOKERS, V_PILE_LEN, V_PLAYERS,
    V_RESHUF, V_RULE_CUT_AIM, V_RULE_CUT_SPREAD, V_SEAT, V_STOCK, V_TABLE, V_TABLE_ACTS, V_TAKEN, V_TOP, V_TOTAL,
    V_TURN, V_TWOS, V_UP_OFFER, V_USED, V_WILD_TWOS, WILD2, WIN_SKIP, X_CHIP, X_COND, X_END, X_HANDS, X_KINDS,
    X_MARGIN, X_SP,
)
from cardsim.kernels.telefunken.actions import (  # noqa: F401
    act, action_card, action_kind, field, meld_code, meld_code_fields,
)
from cardsim.kernels.telefunken.rules import (  # noqa: F401
    after_deal, cut_apply, cut_bottom, cut_count, cut_outcome, deal_after_cut, inspected_keep, deal_holdings, exact_bonus, exact_cut, give, hand7_at_once, held, known_give,
    pile_push, planner_like, reset_hand, rules_of, spec_of, start_hand, table_cards, take, twos_count, wilds,
)
from cardsim.kernels.telefunken.legal import (  # noqa: F401
    legal_actions,
)
from cardsim.kernels.telefunken.apply import (  # noqa: F401
    apply_action, meld_row,
)
from cardsim.kernels.telefunken.close import (  # noqa: F401
    hand_blocked, holding_points, score_hand, write_game, write_hand,
)
from cardsim.kernels.telefunken.check import (  # noqa: F401
    cards_ok, check_invariants,
)
from cardsim.kernels.telefunken.strategies import (  # noqa: F401
    H7_GROUP, STALL_ODDS, STALL_TURNS, best_discard, card_points, choose, contract_need, need_with, wants,
)
from cardsim.kernels.telefunken.view import (  # noqa: F401
    fill_view,
)
from cardsim.kernels.telefunken.search import (  # noqa: F401
    determinize, search_cfunc, search_decision, search_kind,
)
from cardsim.kernels.telefunken.play import (  # noqa: F401
    buffers, close_hand, first_dealer,
)
from cardsim.kernels.telefunken.critique import (  # noqa: F401
    critique, critique_eval, decision_kind,
)
from cardsim.kernels.telefunken.batch import (  # noqa: F401
    play_batch, replay_game,
)
