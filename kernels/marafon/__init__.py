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
  it draws trumps (``trump_draw``: holding ``draw_trumps`` or more while an opponent may
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
  (``plain_master_lead``). Two more came from the second critique round (16,000 decisions of
  strong grouped by the card's place in the trick and what it did; each measured against
  strong in a field of strong, 20,000 matches): holding ``draw_low`` or more trumps but not the
  master trump it leads the lowest trump (strong led a plain card there: +0.042 match result
  with ``draw_trumps`` 5), and with ``honour_count`` the card it would throw instead of the
  trump 3 or 2 counts towards ``honour_min`` (1 in any hand, 2 in fourth hand only: strong
  kept the 3 and threw an ace to the opponents' trick; +0.003, +0.012 with honour_min 3). A
  third round (the same grouping of strong's leads) found the plain masters led before the
  trump draws that the evaluation preferred: with ``plain_first`` 2 the trumps are drawn first
  (``trump_draw``), then the counting plain masters (+0.020 against that strong). A fourth
  round (40,000 decisions grouped by the seat's side, the card's place and what it did; each
  rule measured in play, 20,000 matches) found two: second hand plays its cheapest card against a
  lead worth less than ``duck`` thirds (a scartino led is left to the partner in fourth hand,
  the sure 3 kept for a trick with points: +0.020), and with ``top_master`` of the equal plain
  masters of a suit it leads the highest (the 3 before the 2: the partner, who cannot see that
  the 2 is master while the 3 is unseen to him, gives points only to a card he sees stand:
  +0.006); together +0.026 against that strong. A third, ``lead_figure`` (with no master to lead
  and no trump to draw, the highest figure of the longest plain suit when it holds at least
  that many cards, ``figure_lead``), gains +0.011 at 3 against the new strong but widens the
  search's gap over it (+0.200 to +0.220 match result, +0.199 to +0.211 on a second seed), so
  strong leaves it at 0 (the target of issue 41 its gap meets).
  Against a field of ``strong`` each rule pays on its own (``cardsim compare``, 20,000 matches:
  the expert +0.12 match result; without ruff_risk +0.06, without bank +0.08, without the
  draw +0.11). Tried and dropped (each lost against that field): keeping a lone plain 3 or 2
  instead of leading it, not leading a master an opponent may ruff, third hand overtaking a
  beatable partner with a standing master, letting the trump 3 and 2 win cheap late tricks,
  leading low for a partner's ruff (no effect), discarding toward a void; in the second round,
  throwing an ace that is not master in second hand when void in the suit led (the critique's
  third pattern: -0.003); leading the lowest trump rather than the master trump when drawing
  from ``draw_trumps`` (-0.006 to -0.015); in the fourth round, the defenders (the side that
  did not name trump) drawing with the master trump from three or two trumps (-0.001, -0.007),
  fourth hand winning a cheap trump trick with the trump 3 or 2 (-0.003 to -0.010), second hand
  ducking a lead that counts (-0.024), ducking in third hand too (-0.003), second hand ducking
  when its cheapest winner is a counting card that may not stand (-0.000 to -0.029).
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

State: one int64 array, its fields declared in ``layout`` with one comment each. Masks are 40-bit
card masks.
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

Modules, each importing only those above it (this package re-exports by name what the rest of
the project reads as ``K.<name>``):

* ``layout``: every constant: options, state fields, the plug-in's view, the record columns and a
  hand's block of them (declared with ``kernels.layout.offsets``), end reasons, check-mode
  violations, strategy ids and parameter slots, decision kinds, trace codes;
* ``actions``: the action codec (the critique's action codes ``act_code`` / ``decision_kind`` /
  ``act_value``, the step API's dense ids ``dense_id`` / ``dense_value``);
* ``rules``: small helpers, the deal and the trump, a claim resolved, the marafona declared, a
  card and a trick, scoring and the end of a game, the next dealer, the check mode, and the flow
  of a match step by step (``start_game``, ``start_hand``, ``deal_to`` (the batch's ``deal`` a
  packet at a time, the step adapter's ``deal_card`` a card at a time), ``dealt``,
  ``window_opens``, ``card_window_due``, ``close_hand``, ``match_over``), which the play loops,
  the critique and the step adapter (``sim.games.marafon.step``) share;
* ``view``: what a plug-in's ``decide`` is given (``fill_view``) and the call (``plugin_decide``);
* ``strategies``: the built-in strategies (``choose_trump``, ``wants_claim``, ``wants_declare``,
  ``choose_card``, the expert's card);
* ``windows``: the marafona declaration and the claim windows, each seat's answer;
* ``search``: the determinized search (``determinize``, ``roll_hand``, ``world_values``,
  ``search_card``, ``search_trump``);
* ``play``: a seat's card and trump, a trick, a hand, a game, a match and its record
  (``play_match``; the plug-in / search hand callback ``plugged_cfunc``);
* ``critique`` and ``batch``: the entry points (``critique``; ``play_batch``, ``replay_match``).
"""
# Re-exported by name: what code outside this package reads as ``K.<name>`` (K = this package).
# Imported in dependency order; ``critique`` (the function) is bound after its module has loaded.
# the trick play and search parts both trick games share (kernels.tricks, kernels.trick_search)
from cardsim.kernels.tricks import cards_conserved, greedy_card, holder_of, trick_mask  # noqa: F401
from cardsim.kernels.trick_search import mask_acts, place  # noqa: F401
from cardsim.kernels.critique import ROUND as CR_ROUND, STREAM_CRITIQUE  # noqa: F401
from cardsim.kernels.rng import STREAM_PLAY  # noqa: F401
from cardsim.kernels.search import SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS  # noqa: F401 - the search row
from cardsim.kernels.trick_search import HALT  # noqa: F401
from cardsim.kernels.tricks import CRICCA, FULL40, LAST_TRICK_THIRDS, best_trump, legal_cards  # noqa: F401
from cardsim.kernels.marafon.layout import (  # noqa: F401
    ASKED, BATT, BOTH_CUMULATIVE, BOTH_HIGHER, BOTH_POINTS, CHUNK, CLAIMS, DEALER, DECK, DECL, E_BOUND, E_CAP,
    E_CARDS, E_ILLEGAL, E_NO_MOVES, E_PLUGIN, E_POINTS, ERR, ERROR_NAMES, EX_GAME_WEIGHT, EX_TRUMP, EXTRA,
    EXTRA_HANDS, F_CLAIM_DUE, F_CLAIM_PROB, F_SIZE, FIRST_DEALER, FOUR_COINS, GAME_NO, GAMES,
    GREEDY_MARAFONA_WEIGHT, H_HONOUR_MIN, H_MARAF_WEIGHT, H_MARGIN, H_NOISE, HAND, HAND_END, HAND_NO, HAND_SLOTS,
    HB_BATT, HB_END, HB_EXTRA, HB_GAME, HB_HOLDER, HB_MARAF, HB_PTS, HB_SIZE, HB_THIRDS, HB_TRUMP, HOLDER4D, K_CARD,
    K_CLAIM, K_DECLARE, K_TRUMP, LAST_WINNER, LEADER, LED, MARAF, MATCH_HANDS, MAX_ACTS, MHOLDER, N, N_PARAMS,
    N_PLAYERS, N_PLUG_PARAMS, NCARDS, O_AUTO_DECLARE, O_BOTH_REACH, O_CLAIM_TIMING, O_CLAIMS, O_DECLARER,
    O_FIRST_DEALER, O_GAMES, O_MARAF_POINTS, O_MAX_HANDS, O_SECOND_DEALER, O_SIZE, O_TARGET, O_TRUMP_ONLY, OVER,
    P_SIZE, PLAYED, PLAYED_BY, PLEGAL, PLUG_KINDS, PLUGGED, PLUGIN, PTS, PVIEW, R_CAP, R_CLAIM_CORRECT,
    R_CLAIM_WRONG, R_EXTRA, R_HIGHER, R_TARGET, RC_CLAIMS, RC_DEALER, RC_ERR, RC_EXTRA, RC_GAMES, RC_GAMES_WON,
    RC_HAND, RC_HANDS, RC_REASON, RC_SCORE, RC_SPARE, RC_TRICKS, RC_TRUNC, RC_WIN_SIDE, RC_WINNER, REASON,
    REASON_NAMES, RECORD_COLS, RULES_VERSION, S_EXPERT, S_GREEDY, S_HEURISTIC, S_RANDOM, S_SEARCH, SCORE, ST_SIZE,
    STREAM_DEALER, STREAM_HAND, T_CLAIM, T_DEAL, T_DECLARE, T_END, T_GAME, T_HAND, T_PLAY, T_SCORE, T_TRICK,
    T_TRUMP, THIRDS, TR_LEN, TRACE_W, TRICK, TRICK_NO, TRICKS, TRICKS_PLAYED, TRICKS_WON, TRUMP, TRUNC, V_BATT,
    V_COUNT, V_DEALER, V_DECLARABLE, V_DECLARED, V_EXTRA, V_GAME_NO, V_GAMES, V_HAND, V_HAND_NO, V_HELD, V_KIND,
    V_LAST_WINNER, V_LEADER, V_LED, V_MARAF, V_MARAF_POINTS, V_NCARDS, V_PLAYED, V_SCORE, V_SEAT, V_SIDE, V_TARGET,
    V_THIRDS, V_TRICK, V_TRICK_NO, V_TRICKS_WON, V_TRUMP, V_TRUMP_ONLY, V_WON, VIEW_SIZE, VOID, WIN_SIDE, WON,
    X_BANK, X_CLINCH, X_DRAW, X_DRAW_LOW, X_HONOUR_COUNT, X_DUCK, X_TOP, X_FIGURE, X_PLAIN, X_RISK,
)
from cardsim.kernels.marafon.actions import (  # noqa: F401
    A_CLAIM, A_DECLARE, A_NO, A_TRUMP, act_code, ACT_MASK, ACT_SHIFT, act_value, decision_kind, dense_id,
    dense_value, N_ACTIONS,
)
from cardsim.kernels.marafon.rules import (  # noqa: F401
    after_hand, begin_hand, cap_game, card_window_due, check_cards, check_hand, close_hand, count_extra, deal_card,
    deal_to, dealt, declarable, declare, finish_trick, match_over, next_dealer, owner_of, put_card, reset_hand,
    resolve_claim, score_hand, set_trump, side_count, start_game, start_hand, window_opens,
)
from cardsim.kernels.marafon.view import (  # noqa: F401
    fill_view,
)
from cardsim.kernels.marafon.strategies import (  # noqa: F401
    choose_card, choose_trump, wants_claim, wants_declare,
)
from cardsim.kernels.marafon.windows import (  # noqa: F401
    claim_window,
)
from cardsim.kernels.marafon.search import (  # noqa: F401
    acted_in_first_trick, DEAL_TRIES, determinize, search_card, search_decision, search_trump, search_trump_decision,
)
from cardsim.kernels.marafon.play import (  # noqa: F401
    play_out, plugged_cfunc,
)
from cardsim.kernels.marafon.critique import (  # noqa: F401
    critique, critique_eval,
)
from cardsim.kernels.marafon.batch import (  # noqa: F401
    play_batch, replay_match,
)
