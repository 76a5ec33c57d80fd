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

State: one int64 array, its fields in ``layout`` with one comment each (masks are 52-bit card masks).
``RULES_VERSION`` (1) is stored with every run; it changes when a rule change alters records.
Score range: a deal's payout is unbounded above in principle (carried chips, unlimited
credit) and bounded in practice by the board, the bet limits and the auction guard; check
mode asserts chip conservation exactly, never a range.

Modules, each importing only those above it (this package re-exports by name what the rest of
the project reads as ``K.<name>``):

* ``layout``: every constant: options, state fields, the plug-in's view, the strategies'
  parameter row and the record columns (declared with ``kernels.layout.offsets``), board spaces
  and ledgers, phases, end reasons, actions, check-mode violations, strategy ids, decision kinds,
  trace codes;
* ``actions``: the action codec (``action_kind``, ``action_arg``, ``make_action``);
* ``rules``: small helpers, the deal, the widow phase and its auctions, Phase 1, Phase 2 and the
  clearing rounds, Phase 3 (every forced step);
* ``legal``: the legal actions, applying an action, the check mode;
* ``view``: what a seat knows of the others' cards, the decision kind and what a plug-in's
  ``decide`` is given;
* ``strategies``: the built-in strategies (``choose``) and the poker strength tables they read;
* ``search``: the determinized search (``search_cfunc``);
* ``play``: one deal (``play_deal``, ``seat_choice``, ``write_record``);
* ``critique`` and ``batch``: the entry points (``critique``; ``play_batch``, ``replay_deal``).
"""

# Re-exported by name: what code outside this package reads as ``K.<name>`` (K = this package),
# every constant of ``layout`` among them. Imported in dependency order; ``critique`` (the
# function) is bound after its module has loaded.
from cardsim.kernels.cards import FULL_DECK  # noqa: F401
from cardsim.kernels.critique import ROUND as CR_ROUND, STREAM_CRITIQUE  # noqa: F401
from cardsim.kernels.rng import STREAM_DECK, STREAM_PLAY, STREAM_RUN, below  # noqa: F401
from cardsim.kernels.search import SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS  # noqa: F401 - the search row
from cardsim.kernels.tripoli.layout import (  # noqa: F401
    ACTED, ACTION_NAMES, ACTIVE, AU_KIND, AU_OLD, AU_SUIT, AU_WIDOW, A_AUCTION_OLD, A_AUCTION_WIDOW, A_BET, A_BID,
    A_CALL, A_CHECK, A_DONE, A_FOLD, A_KEEP, A_LEAD, A_PASS, A_PICK, A_RAISE, A_SUIT, A_SWAP, BANNED, BETS, BET_CTX,
    BET_DEALER, BET_EPS, BID_GUARD, BID_STEPS, BOARD, BOARD0, B_BET, B_CALL, B_CHECK, B_FOLD, B_RAISE, CALL_PRICE,
    CHIPS, CLH, CLS, CL_FIRST, CL_INDEX, CL_LEFT, CL_POT, CL_RESERVE, CL_TOTAL, COLOR, CONTRIB, CUR, CUR_BET, DEALER,
    DEAL_ID, DEAL_NO, ERR, ERROR_NAMES, E_BET, E_BOARD, E_CAP, E_CARDS, E_CHIPS, E_NO_MOVES, E_PICK, E_PLUGIN,
    FIRST_LEAD, FOLDED, FOLD_PRICE, HAND, HCAT, HIGH, HIGH_BY, KIND_NAMES, K_BET, K_BID, K_CLEAR_BET, K_LEAD, K_PICK,
    K_SUIT, K_SUIT_BID, K_WIDOW, LAST_C, LAST_DEAL, LAST_P, LEADER, LEADS, LEDGER_NAMES, LOW13, L_ANTE, L_CLEAR,
    L_MICHIGAN, L_PAY, L_POKER, L_WIDOW, MAX_ACTS, MAX_PLAYERS, MWIN, N, NOTH, N_KINDS, N_LEDGERS, N_PARAMS,
    N_PLUG_PARAMS, N_PR, N_SPACES, OLD_HAND, O_ANTE, O_BID_GUARDED, O_CLEARING, O_COLOR, O_COSMO, O_DEALS,
    O_FIRST_BETTOR, O_FIRST_DEALER, O_FIRST_LOWEST, O_LEADER, O_LIMIT, O_LIMIT_MODE, O_MAX_BID, O_MAX_RAISES,
    O_MAX_STEPS, O_MIN_BID, O_PAY_SUIT, O_PLAYERS, O_RAISES_GUARDED, O_SEQ_SPLIT, O_SEQ_START, O_SIZE, O_SUIT_AUCTION,
    O_TIMING, O_WIDOW, O_WIDOW_LAST, P2_FOLDED, P2_RAISES, PAY_SUIT, PH, PHASE, PICK, PICKED_N, PLAYED, PLUGIN,
    PLUG_KINDS, POKER_END, POT, POT_WIN, PR_AUCTION_WIDOW, PR_BET_AT, PR_BET_FRAC, PR_BET_SIZE, PR_BID_MAX,
    PR_BID_OLD_MAX, PR_BLUFF, PR_BLUFF_SIZE, PR_CALL_AT, PR_CALL_MARGIN, PR_CALL_RANGE, PR_FEED_SHOWN, PR_HIDE_MARGIN,
    PR_KEEP_ENTRY, PR_LEAD_CHANCE, PR_LEAD_PLAN, PR_ODDS_WEIGHT, PR_OPP_SHIFT, PR_OWN_LOW, PR_PAY_WEIGHT,
    PR_POS_SHIFT, PR_RAISE_AT, PR_RAISE_EQ, PR_RAISE_RANGE, PR_RUN_WEIGHT, PR_SELL_OLD, PR_SIZE_SHIFT, PR_STOP_BONUS,
    PR_SUIT_BID_MAX, PR_SWAP_BELOW, PR_VALUE_EQ, PR_WIDOW_STOPS, P_AFTER_SWAP, P_AFTER_UNSOLD, P_AUCTION, P_BET,
    P_LEAD, P_OVER, P_SELECT, P_SUIT, P_WIDOW, RAISES, RAISE_GUARD, RC_BOARD, RC_CLEAR_PRIZE, RC_DEALER, RC_DEAL_NO,
    RC_ERR, RC_FOLDED, RC_LEADS, RC_MWIN, RC_PAY_SUIT, RC_POKER_END, RC_POT, RC_POT_WIN, RC_RAISES, RC_REASON,
    RC_SEAT, RC_SEQ, RC_SESSION, RC_SUIT_BY, RC_SUIT_PRICE, RC_TRUNC, RC_WIDOW, RC_WINNER, RC_W_BUYER, RC_W_PRICE,
    REASON, REASON_NAMES, RECORD_COLS, RULES_VERSION, RUN_LEN, RUN_OPEN, RUN_OUT, RUN_START, RUN_STOP, R_BLOCKED,
    R_OUT, R_STEP_CAP, SC_CLEAR, SC_HAND, SC_LEFT, SC_MICH, SC_PAY, SC_PH1, SC_POKER, SC_WIDOW, SEARCH_TRIES,
    SEAT_COLS, SEED, SEL_LEFT, SEQ, SESSION, SESSIONS_PER_CHUNK, SPACE_NAMES, SPACE_RANK, SP_10, SP_A, SP_J, SP_K,
    SP_KITTY, SP_KQ, SP_POT, SP_Q, SP_SEQ, STEPS, STREAM_CLEAR, ST_SIZE, ST_SPARE, SUIT_BY, SUIT_PRICE, SX_KINDS,
    SX_SIZES, S_EXPERT, S_FUZZ, S_HEURISTIC, S_RANDOM, S_SEARCH, TOTAL0, TRUNC, TR_LEN, T_ACTION, T_ANTE, T_BOARD,
    T_CLAIM, T_CLDEAL, T_CLEAR, T_DEAL, T_DIALS, T_END, T_PAYMENT, T_PLAY, T_POT, T_PRIZE, T_SHOW, T_SOLD, T_STAKE,
    T_STOP, VIEW_SIZE, V_ACTED, V_ACTIVE, V_AUCTION, V_BANNED, V_BET_CLASS, V_BET_HAND, V_BOARD, V_CHIPS, V_CLEARING,
    V_COLOR, V_CONTRIB, V_CUR_BET, V_DEALER, V_DEALS, V_DEAL_NO, V_FIRST_LEAD, V_FOLDED, V_HAND, V_HELD, V_HIGH,
    V_HIGH_BY, V_KIND, V_LEADS, V_MAX_AMOUNT, V_MAX_RAISES, V_OLD_HAND, V_OWE, V_PAY_SUIT, V_PHASE, V_PICK, V_PLAYED,
    V_PLAYERS, V_POT, V_POT_WIN, V_RAISES, V_SEAT, V_SEQ, V_SHOWN, V_SUIT_BY, V_SUIT_PRICE, V_TIMING, V_WIDOW,
    V_W_ACT, V_W_BUYER, V_W_PRICE, WIDOW, WIDOW_FLAG_NAMES, W_ACT, W_AUCTION_OLD, W_AUCTION_WIDOW, W_BUYER, W_PRICE,
    W_SEEN, W_SOLD_OLD, W_SOLD_WIDOW, W_SWAP,
)
from cardsim.kernels.tripoli.actions import (  # noqa: F401
    action_arg, action_kind, make_action,
)
from cardsim.kernels.tripoli.rules import (  # noqa: F401
    after_widow, antes, betting_start, chips_total, clearing_classes, clearing_seat, clearing_start, cosmo_dials,
    deal_cards, deal_seat, hands_dealt, holder, lead, lead_suits, lowest_in, next_card, pay_card, phase1, reset_deal,
    seq_suits, start_deal,
)
from cardsim.kernels.tripoli.legal import (  # noqa: F401
    apply_action, check_invariants, legal_actions,
)
from cardsim.kernels.tripoli.view import (  # noqa: F401
    decision_kind, fill_view, plugin_pick,
)
from cardsim.kernels.tripoli.strategies import (  # noqa: F401
    REF_CARDS, STRENGTH_QUANTILES, TYPICAL_STRENGTH, best_chance, choose, own_run, poker_target, reachable,
    shown_by_others, strength, sure_out, weaker, widow_chance,
)
from cardsim.kernels.tripoli.search import (  # noqa: F401
    SEARCH_SIG, candidates, determinize, no_search, search_cfunc, search_decision, search_pick, stop_widow,
)
from cardsim.kernels.tripoli.play import (  # noqa: F401
    buffers, clearing_due, dealer_of, open_deal, play_deal, seat_choice, step_capped, write_record,
)
from cardsim.kernels.tripoli.critique import (  # noqa: F401
    critique, critique_deal, critique_eval,
)
from cardsim.kernels.tripoli.batch import (  # noqa: F401
    play_batch, play_range, replay_deal, replay_kernel,
)
