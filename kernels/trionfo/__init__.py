"""Trionfo: 5 players, an auction, a called partner or a solo, as small numba kernels.

Rules source: ``docs/rules/marafon.md`` Part B (and §0); every Trionfo DECISION of its
section C is an option below. Trick arithmetic and the shared play heuristics are
``kernels.tricks``; what its search and critique share with Marafon's (the deal that respects
the voids, the action codes) ``kernels.trick_search``.

Choices this module adds where the spec leaves room
----------------------------------------------------
* One record is one **session** of ``trionfo_hands`` hands; the first HAND_SLOTS hands have
  their own record columns. Hand h is shuffled from stream (seed, session, 16 + h); a
  thrown-in deal is reshuffled from the same stream (so hand h's first deal is the same
  whatever the strategies).
* ``open_ascending``: a bid names the contract, so the heuristic bids the level it wants
  (by its strength thresholds) at once when that is above the current bid, and passes
  otherwise; jump bids are legal.
* Knowledge used by the play heuristic: the declarer knows his partner once the called card
  is played; the partner knows the declarer; a defender treats the other defenders as
  partners only when that is public (a solo contract, or the partner revealed). Unknown
  seats count as opponents.
* ``trionfo_allow_self_call``: a self-called partnership is a secret solo; it is paid as a
  solo at the bid's stake (the public still sees a partnership contract).
* Self-call (issue 15): under ``trionfo_allow_self_call`` greedy and heuristic declarers of a
  partnership contract call one of their own cards (the highest trump they hold) when their
  hand strength reaches their ``self_call`` parameter (greedy 12, heuristic 16; 41 = never):
  a secret solo. Before, neither ever called itself. Measured (20,000 sessions, self_call
  preset, each against a field that never self-calls): heuristic -0.004 money a session at
  16 (within noise), -0.93 at 13; greedy -0.25 at 12, -0.51 at 11: a secret solo on a chiamo
  hand does not pay at these bidding thresholds.
* ``random``'s ``pass_bias`` (default 0: every legal call equally likely) makes it the
  all-pass fuzzer that reaches ``redeal_cap``.
* ``name_player``: the declarer names a seat openly; the heuristic names the seat that bid
  highest in the auction (nearest to the declarer's right on ties, his right if nobody else
  bid).
* ``search`` (issue 19, sid ``S_SEARCH``; ``kernels.search`` for the shared parts): flat
  determinized Monte Carlo over the legal cards. It deals ``worlds`` times the four hands
  its seat cannot see (``determinize``: hand sizes, the suits each seat has shown void in
  (``VOID``), in a session's first hand the 5D with the first speaker, and an unplayed called
  card it does not hold with one of the others, never the declarer without self-calls; that
  seat is the world's partner, so the secret partner is sampled, not read), plays every
  legal card in each and rolls the hand out with the rollout policy's card play at every
  seat (``rollouts`` times, the same streams for every card), and takes the card with the
  best total money of its seat in the hand. A record is a session of hands whose money is
  the sum of the hands' and a hand's play changes no other hand, so the hand's money is the
  record's own measure. With ``trump`` the declarer names trump the same way (each suit
  rolled out over the whole hand, the partner called as the policy calls); bids and the call
  are the policy's. A table with a search
  seat plays the general card loop (``play_tricks_plugged``; ``PLUGGED``); ``VOID`` is public
  bookkeeping only (``RULES_VERSION`` unchanged). The batch kernels call the search as a
  callback (``srch``, ``SEARCH_SIG``: a card or the trump) compiled the first time a table
  has a search seat (``search_cfunc``; issue 14), and a table with a search or plug-in seat
  plays its tricks through another (``play_tricks_plugged`` as ``PLUGGED_SIG``,
  ``plugged_cfunc``): a built-in table compiles neither.
* Redeal cap ``MAX_REDEALS`` (100, not in the spec): a hand still thrown in after that many
  deals is void (no money) and the session is flagged ``truncated``.
* Plug-in strategies (issue 17): a seat with sid ``PLUGIN + b`` asks a user's ``decide`` (a
  ``jit.PLUG_SIG`` function) first for the decision kinds of its mask: K_BID (legal: 0 pass,
  then the levels above the highest bid), K_TRUMP (the suits 0..3), K_CALL (the cards it
  may call: any card not in its hand, every card under self-call), K_NAME (the other seats,
  from its right) and K_CARD (the playable cards); -1 leaves the decision to the built-in b,
  anything else but an index of the legal list stops the session with E_PLUGIN. Its view
  (``fill_view``, the V_* layout) holds only what that seat may see: never another hand,
  nor a secret partner before the called card is played. Left to the engine: redeals after
  an all-pass auction and the leader of trick 1 (both set by the rules).
* Critique (issue 40, ``kernels.critique``): ``critique_deal`` plays a session as the batch
  does (through the choice helpers the batch uses: ``bid_choice``, ``trump_choice``,
  ``name_choice``, ``call_choice``, ``card_choice``) and rows every decision of one seat: its
  calls in every auction, its trump and call or naming as declarer, its cards. An action code
  is ``kind << ACT_SHIFT | action``. Each legal action is valued as the search values a card
  (``world_values``, which ``search_card`` and ``search_trump`` use): worlds of the hidden
  hands, the action played, the rest of the auction and the contract by the policy, the hand
  rolled out and settled; the seat's money in the hand (a deal thrown in: 0).

Options (int array built by ``sim.games.trionfo.TrionfoOptions.to_array``; slots in ``layout``):

| index | option | values |
|---|---|---|
| O_PARTNER_LEVELS | trionfo_partner_levels | 1 (chiamo) or 2 (chiamo, di più) |
| O_STAKE + k | trionfo_bid_stakes | stake of level k + 1 |
| O_PARTNER_METHOD | trionfo_partner_method | 0 call_card, 1 name_player |
| O_SELF_CALL | trionfo_allow_self_call | 0/1 |
| O_AUCTION | trionfo_auction | 0 open_ascending, 1 single_round |
| O_FIRST_LEADER | trionfo_first_leader | 0 first_bidder, 1 first_speaker, 2 declarer |
| O_REDEAL_DEALER | trionfo_redeal_dealer | 0 same, 1 next |
| O_WIN_POINTS | trionfo_win_points | 1..11 |
| O_PAYOUT | trionfo_payout | 0 chiamata |
| O_HANDS | trionfo_hands | hands per session |
| O_FIRST_DEALER | first_dealer | -1 random, else seat |

RULES_VERSION = 1. Speed: as in ``kernels.marafon``, the per-card and per-bid kernels are
``inline='always'`` (about 1.6x the hands per second of plain calls).

State: one int64 array, its fields in ``layout`` with one comment each. Money per hand: the declarer
wins or pays 2s (partner s, each opponent s) or 4s alone (each opponent s), s the stake of
the contract; the hand and the session are zero-sum; |money of a hand| <= 4 x max stake.

Modules, each importing only those above it (this package re-exports by name what the rest of
the project reads as ``K.<name>``):

* ``layout``: every constant: options, state fields, the plug-in's view, the record columns and
  the step API's action ids (declared with ``kernels.layout.offsets``), end reasons, check-mode
  violations, strategy ids and parameter slots, decision kinds, trace codes;
* ``actions``: the action codec (the critique's ``act_code``, ``action_kind``, ``action_value``;
  the step API's ``dense_id``, ``dense_kind``, ``dense_value``);
* ``rules``: small helpers and the steps of a session, which the batch (``play_session``) and the
  step API (``sim.games.trionfo.step``) both take: ``start_session``, ``start_hand``, the deal
  (the seats of ``deal_to``, dealt a packet at a time by the batch's ``deal`` and a card at a
  time by ``deal_card``; ``open_auction``), the auction (``next_speaker``, ``speak``, ``close_auction``), the
  contract (``declare``, ``set_trump``, ``set_called``, ``set_named``, ``open_play``), the cards (``put_card``,
  ``after_card``: ``finish_trick``, ``settle``), ``next_hand``; and the check mode;
* ``view``: what a plug-in's ``decide`` is given (``fill_view``, ``plugin_decide``);
* ``strategies``: the built-in strategies (``choose_bid``, ``choose_called``, ``choose_named``,
  ``choose_card``, the expert's card play);
* ``search``: the determinized search (``search_cfunc``);
* ``play``: a hand's decisions as the batch plays them (the auction, the contract, the tricks;
  ``plugged_cfunc``);
* ``critique`` and ``batch``: the entry points (``critique``; ``play_batch``, ``replay_session``).
"""
# Re-exported by name: what code outside this package reads as ``K.<name>`` (K = this package).
# Imported in dependency order; ``critique`` (the function) is bound after its module has loaded.
# the trick play and search parts both trick games share (kernels.tricks, kernels.trick_search)
from cardsim.kernels.tricks import cards_conserved, greedy_card, holder_of, trick_mask  # noqa: F401
from cardsim.kernels.trick_search import mask_acts, place  # noqa: F401
from cardsim.kernels.critique import ROUND as CR_ROUND, STREAM_CRITIQUE  # noqa: F401
from cardsim.kernels.rng import STREAM_PLAY, below  # noqa: F401
from cardsim.kernels.search import SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS  # noqa: F401 - the search row
from cardsim.kernels.trick_search import HALT  # noqa: F401 - a critique driver's answer
from cardsim.kernels.tricks import (  # noqa: F401
    FULL40, LAST_TRICK_THIRDS, SUIT40, S_ACE, S_THREE, S_TWO, best_trump, legal_cards,
)
from cardsim.kernels.trionfo.layout import (  # noqa: F401
    ALL_REDEALS, A_BID, A_CALL, A_CARD, A_NAME, A_PASS, A_TRUMP, BID, CALLED, CHUNK, DEALER, DECK, DECLARER, ERR,
    ERROR_NAMES, EX_TRUMP, E_AUCTION, E_BOUND, E_CARDS, E_ILLEGAL, E_NO_MOVES, E_PLUGIN, E_POINTS, E_ZERO_SUM,
    FIRST_BIDDER, FIRST_DEALER, FIRST_SPEAKER, FIVE_COINS, GREEDY_THRESHOLDS, G_SELF_CALL, G_SIZE, H_EXPLORE,
    H_SELF_CALL, H_SIZE, H_T1, H_T2, H_T3, H_T4, R_PASS_BIAS, R_SIZE, X_SIZE, HAND, HAND_IDX, HAND_SLOTS, HB_CALLED,
    HB_DECLARER, HB_FIRST_BIDDER, HB_LEVEL, HB_MONEY, HB_PARTNER, HB_PTS, HB_REDEALS, HB_SIZE, HB_STRENGTH, HB_TRUMP,
    HB_WON, HIGH_BIDDER, HIGH_LEVEL, HMONEY, K_BID, K_CALL, K_CARD, K_NAME, K_TRUMP, LAST_WINNER, LEADER, LED, LEVELS,
    MAX_ACTS, MAX_REDEALS, MAX_SPEECHES, MONEY, N, NCARDS, N_ACTIONS, N_PARAMS, N_PLAYERS, N_PLUG_PARAMS, O_AUCTION,
    O_FIRST_DEALER, O_FIRST_LEADER, O_HANDS, O_PARTNER_LEVELS, O_PARTNER_METHOD, O_PAYOUT, O_REDEAL_DEALER,
    O_SELF_CALL, O_SIZE, O_STAKE, O_WIN_POINTS, PARTNER, PASSED, PLAYED, PLEGAL, PLUGGED, PLUGIN, PLUG_KINDS, PVIEW,
    RC_DEALER, RC_ERR, RC_HAND, RC_HANDS, RC_MONEY, RC_REASON, RC_REDEALS, RC_TRICKS, RC_TRUNC, RC_WINNER,
    REASON_NAMES, RECORD_COLS, REDEALS, REVEALED, ROLE_AUCTION, ROLE_DECLARER, ROLE_DEFENDER, ROLE_PARTNER, R_COMPLETE,
    R_REDEAL_CAP, SIDE_PTS, STREAM_DEALER, STREAM_HAND, STRENGTH, ST_SIZE, S_EXPERT, S_GREEDY,
    S_HEURISTIC, S_RANDOM, S_SEARCH, THIRDS, TRACE_W, TRICK, TRICKS, TRICKS_PLAYED, TRICK_NO, TRUMP, TRUNC, TR_LEN,
    T_BID, T_CONTRACT, T_DEAL, T_HAND, T_MONEY, T_PLAY, T_REDEAL, T_SETTLE, T_TRICK, VIEW_SIZE, VOID, VOID_HAND,
    V_AUCTION, V_BID, V_CALLED, V_DEALER, V_DECLARER, V_FIRST_BIDDER, V_FIRST_SPEAKER, V_HAND, V_HANDS, V_HAND_IDX,
    V_HELD, V_HIGH_BIDDER, V_HIGH_LEVEL, V_KIND, V_LAST_WINNER, V_LEADER, V_LED, V_MONEY, V_NCARDS, V_PARTNER,
    V_PARTNER_LEVELS, V_PARTNER_METHOD, V_PASSED, V_PLAYED, V_REDEALS, V_REVEALED, V_SEAT, V_SELF_CALL, V_STAKE,
    V_THIRDS, V_TRICK, V_TRICK_NO, V_TRUMP, V_WIN_POINTS, WON, X_BANK, X_CLINCH, X_DEF_TRUMP, X_DRAW, X_DRAW_FIRST,
    X_DRAW_LAST, X_DRAW_TOP, X_HONOUR, X_PLAIN, X_READ, X_RISK, X_RUFF_MIN, X_SOLO_LOW, X_DEF_RICH, X_SOLO_RUFF,
    X_SOLO_KEEP,
)
from cardsim.kernels.trionfo.actions import (  # noqa: F401
    ACT_MASK, ACT_SHIFT, act_code, action_kind, action_value, decision_kind, dense_id, dense_kind, dense_value,
    mask_acts,
)
from cardsim.kernels.trionfo.rules import (  # noqa: F401
    after_card, auction_over, callable_cards, check_cards, check_hand, close_auction, deal, deal_card, deal_to, declare,
    finish_trick, first_dealer, first_leader, hand_strength, is_solo, next_hand, next_speaker, nxt, open_auction,
    open_play, owner_of, put_card, reset_deal, set_called, set_named, set_trump, settle, speak, start_hand,
    start_session,
)
from cardsim.kernels.trionfo.view import (  # noqa: F401
    fill_view,
)
from cardsim.kernels.trionfo.strategies import (  # noqa: F401
    choose_bid, choose_called, choose_card, choose_named, choose_trump, friends_of, is_friend, reads_friend,
)
from cardsim.kernels.trionfo.search import (  # noqa: F401
    OTHERS, contract_as, determinize, no_search, roll_hand, search_cfunc, search_decision, search_trump_decision,
)
from cardsim.kernels.trionfo.play import (  # noqa: F401
    make_contract, mark_plugged, play_turn, plugged_cfunc,
)
from cardsim.kernels.trionfo.critique import (  # noqa: F401
    critique, critique_eval, role,
)
from cardsim.kernels.trionfo.batch import (  # noqa: F401
    deal_until_bid, play_batch, replay_session,
)

RULES_VERSION = 1
