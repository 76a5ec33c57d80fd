"""Contract Rummy (presets CONTRACT, LIVERPOOL, MAY_I): the seven-deal game as small numba kernels.

Rules source: ``docs/rules/contract_rummy.md`` (the Persian seed, pagat, and the spec's
DECISIONs). The meld arithmetic (contracts with floating jokers, lay-offs, joker swaps) is
``kernels.melds_float`` (which generalises ``kernels.melds``); this package is the game flow.

Choices this package adds where the spec leaves room
-----------------------------------------------------
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
* Turn phases (issue 42, ``TPC``): a turn is four kernel steps (``turns``: TP_DRAW the draw
  with the May-I's, TP_ACT step 2, TP_DISCARD the discard, TP_OOT an out-of-turn play; ``TQ``
  the seat playing out of turn) that ``play_turn`` plays from the one TPC names; the batch
  and the step adapter play the same steps. A turn's questions and stock draws write where they are (RS_AT and the
  places of the loops they are in, RS_*): the step mode resumes a state saved there with the
  answer or the card (RS_ANS; ``view.resumed``, ``mayi.card_due``), as the loops pick up their
  places, instead of playing the phase again.
* Step mode (issue 20, ``XSTEP``; the step API and the OpenSpiel bridge,
  ``sim.games.contract_rummy.step``): a step is ``step_turn``, the turn played on from its
  start or a snapshot with every seat a plug-in (``step_plugin``, the ``SS_*`` slots of its
  ``pprm`` row: a script, which a replay of the whole turn answers from); a question the
  script does not answer stops the turn and leaves a snapshot of the state where it was asked
  (``SNAP``). Stock cards come from the feed (``XFEED``: the cards chance
  dealt this turn, in draw order); a draw the feed has no card for stops the turn
  (``XNEED``) and leaves a snapshot where it is; a reshuffle leaves the pile's order (chance
  deals from it). Off in the batch (XSTEP 0): no rule and no record changes.
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
the ``O_*`` entries (``layout``), the hand size of deal d at ``O_HAND + d``, the floating rules array
(``melds_float.make_float_rules``) at ``O_RULES`` and the contract table (8 rows of
``C_STRIDE``, ``melds_float.CF_SIZE`` used) at ``O_CONTRACTS``.

State: ``st`` int64 fields (``layout``), per-seat holdings as count vectors (``HAND + 53 p``), the
stock and the discard pile (pile entries are ``card + 64 k``: k numbers the discards of the
deal, D_k of §7.3), table melds ``tab`` (``melds_float`` rows plus owner and creation turn).
Score range per deal and seat: 0 .. the penalty of the largest holding (at most 162 cards
of at most 25 points); totals are sums of deal penalties minus LIVERPOOL cut bonuses.

Replay trace: rows (code, seat, a, b, c, d) of the ``T_*`` codes (``layout``): each seat's dealt
cards, every draw, take, penalty card, volunteer, buy, each contract meld row in full
(``pack_row``), each lay-off and swap with the windows after it, every discard (out of turn
flagged, after its out-of-turn draw), reshuffles, scores; d holds the sizes after the event
(``sizes``). ``sim.games.contract_rummy.trace_events`` reads them.

RULES_VERSION 2 (issue 12): see the note at ``RULES_VERSION``.

Modules, each importing only those above it (this package re-exports by name what the rest of
the project reads as ``K.<name>``):

* ``layout``: every constant: options, state fields, table rows, the plug-in's view and vb, a
  step-mode seat's pprm row, the critique's question log, the parameter row and the record
  columns (declared with ``kernels.layout.offsets``), end reasons, check-mode violations,
  strategy ids, decision kinds, trace codes;
* ``actions``: the codecs (``pack_act`` and ``act_*``, ``question_key``, ``window``,
  ``pack_row`` and ``row_*``, ``swap_info`` and ``swap_*``, ``pack_sizes`` and ``sizes_*``,
  ``pile_entry``, ``pile_card``, ``pile_k``);
* ``rules``: small helpers, the stock and the discard pile, the deal, the check mode;
* ``contracts``: the distance to the contract, discard scores, lay-off targets, the jokers of
  a larger first meld;
* ``strategies``: the built-in strategies' hooks (``choose_discard``, ``wants_card``, ...);
* ``view``: the plug-in seats: the view (``fill_view``), the questions and their legal lists
  (``ask``), the critique's question log;
* ``mayi``: the draw and the May-I procedure;
* ``melding``: step 2 of a turn: the contract meld, joker swaps, lay-offs (``act_phase``);
* ``turns``: a turn's phases and one turn (``draw_step`` ... ``oot_step``, ``play_turn``,
  ``begin_turn``, ``end_turn``);
* ``step``: the step mode (``step_turn``, ``step_plugin``);
* ``play``: one game (``play_deal``, ``close_deal``, ``score_deal``, ``write_deal``,
  ``write_game``, ``play_game``, ``buffers``);
* ``search``: the determinized search (``search_pick``, ``search_cfunc``);
* ``critique`` and ``batch``: the entry points (``critique``; ``play_batch``, ``replay_game``).
"""
# Re-exported by name: what code outside this package reads as ``K.<name>`` (K = this package).
# Imported in dependency order; ``critique`` (the function) is bound after its module has loaded.
from cardsim.kernels import melds as M  # noqa: F401 - read as K.M
from cardsim.kernels import melds_float as F  # noqa: F401 - read as K.F
from cardsim.kernels.critique import (  # noqa: F401
    ROUND as CR_ROUND, STREAM_CRITIQUE,
)
from cardsim.kernels.jit import (  # noqa: F401
    no_plugin,
)
from cardsim.kernels.rng import (  # noqa: F401
    STREAM_PLAY, below,
)
from cardsim.kernels.search import (  # noqa: F401
    RACE_ROUND, SP_EXTRA, SP_POLICY, SP_PRM, SP_ROLLOUTS, SP_WORLDS,
)
from cardsim.kernels.contract_rummy.layout import (  # noqa: F401
    BIG, CHUNK, CM_RECORD, CM_SCRIPT, COOL, CUR, CUT_OK, CV, CV_BAD, CV_LEN, CV_LOG, CV_MODE, CV_NLOG, CV_SCRIPT,
    CV_SEG, CV_SEGS, CV_SIZE, CV_STEP, CV_STOP, CV_STOPPED, C_STRIDE, DB_CUT, DB_MAYI, DB_OOT, DB_OUT, DB_PEN,
    DB_REASON, DB_RESHUF, DB_SIZE, DB_TURNS, DEAL, DEALER, DEALS, DEAL_REASONS, DOWN, DREASON, D_DEAD_STOCK, D_OUT,
    D_STOPPED, D_TURN_CAP, ERR, ERROR_NAMES, E_CAP, E_CARDS, E_HAND, E_ILLEGAL, E_MAYI, E_MELD, E_NO_MOVES,
    E_PLUGIN, E_TOTALS, FEED_ROOM, FIRST_DEALER, F_KIND, F_SEAT, F_VAL, GAIN, GAME_RESHUF, GAME_TURNS, GMAYI, GOOT,
    HAND, HOLD, HSIZE, JK, JOKER_DUE, JT_FIRST, JT_HELP, JT_RUN, KNOWN, K_BUY, K_DISCARD, K_DRAW, K_JOKER, K_LAYOFF,
    K_MELD, K_MELD_JOKERS, K_SWAP, K_VOLUNTEER, LASTK, LG_ANS, LG_CARD, LG_CODES, LG_HELD, LG_INFO, LG_KIND,
    LG_MELD, LG_N, LG_SEAT, LG_SEG, LG_STEP, LG_W, LOG_ROOM, LOSS, MAX_LEGAL, MAX_MELDS, MAX_PACK, MAX_PLAYERS,
    MAYI, MELD_TURN, MODEL_BUY, MODEL_NONE, MODEL_OOT, MO_ROWS, N, NMELDS, N_KINDS, N_PARAMS, N_PLUG_PARAMS,
    N_POLICY, N_SEGS, OOT, OUT, O_CONTRACTS, O_COOLDOWN, O_CUT_POINTS, O_CUT_PPB, O_CUT_RECIP, O_D7_NO_DISCARD,
    O_DEAL7_SPECIAL, O_DECKS, O_FIRST_DEALER, O_GO_OUT_DISCARD, O_HAND, O_JOKERS, O_MAX_TURNS, O_MAYI_LIMIT,
    O_MAYI_MODEL, O_NO_CONSEC, O_PACK, O_PENALTY, O_PLAYERS, O_RULES, O_SIZE, O_SWAP, O_SWAP_DISCARD, O_SWAP_PRIOR,
    O_TAKEN_DISCARD, O_VOID_DEAD, PCARDS, PEN, PENDING, PERR, PILE, PILE_K, PILE_LEN, PLUGIN, PLUG_KINDS, PTURN,
    P_DANGER, P_FAR, P_JOKER, P_LAYOFF, P_MAX, P_MELD, P_MELD_JK, P_NEAR, P_NOISE, P_SHED, P_SWAP, P_VOL, P_VOL_PTS,
    RC_DEAL, RC_DEALER, RC_ERR, RC_MAYI, RC_OOT, RC_REASON, RC_RESHUF, RC_TOTAL, RC_TRUNC, RC_TURNS, RC_WINNER,
    RC_WINNERS, REASON_NAMES, RECORD_COLS, RESHUF, RULES_ROOM, RULES_VERSION, SEG_ACT, SEG_DISCARD, SEG_DRAW,
    SEG_OOT, SEG_W, SNAP, SNAP_SIZE, SNAP_ST, SNAP_TAB, SS_ANS, SS_LEN, SS_MODE, SS_POS, SS_ROOM, SS_SIZE, STOCK,
    STOCK_HI, STOCK_LO, STREAM_DEAL, ST_SIZE, SWAP_KEPT, SWAP_MELD, SX_CANDS, SX_DISCARD, SX_DRAW, SX_FUTILITY,
    SX_END, SX_HEAD, SX_KINDS, SX_Z, S_CAUTIOUS, S_EXPERT, S_FUZZ, S_GREEDY, S_MAYI, S_RANDOM, S_SEARCH, TAKEN,
    TOP_FROM, TOTAL, TPC, TP_ACT, TP_DISCARD, TP_DRAW, TP_OOT, TQ, RS_ANS, RS_AT,
    TRUNC, TR_LEN, TURN, TW, T_BUY, T_DEAL, T_DISCARD, T_DRAW, T_END, T_HOLD, T_LAYOFF, T_MELD, T_OOT, T_OWNER,
    T_PENALTY, T_RESHUFFLE, T_SCORE, T_SWAP, T_TAKE, T_TURN, T_UPCARD, T_VOLUNTEER, UNLIMITED, VB_SIZE, VIEW_SIZE,
    V_CARD, V_CUR, V_C_ALL, V_C_EXACT, V_C_RUNS, V_C_SETS, V_DEAL, V_DEALER, V_DOWN, V_HAND, V_HELD, V_INFO,
    V_INFO2, V_JOKER_DUE, V_KIND, V_MAYI, V_MELD, V_MODEL, V_NMELDS, V_OOT, V_PILE, V_PILE_LEN, V_PLAYERS, V_SEAT,
    V_STOCK, V_TAB, V_TAKEN, V_TOP, V_TOTAL, V_TURN, V_XFER, XFEED, XFEED_LEN, XFEED_POS, XFER, XNEED, XSTEP,
)
from cardsim.kernels.contract_rummy.actions import (  # noqa: F401
    act_card, act_code, act_info, act_kind, act_meld, pack_act, pack_row, pack_sizes, pile_card, pile_entry, pile_k,
    question_key, row_hi, row_jokers, row_key, row_kind, row_lo, row_p2, sizes_held, sizes_pile, sizes_stock,
    swap_info, swap_run_window, swap_target, swap_target_window, window, window_hi, window_lo,
)
from cardsim.kernels.contract_rummy.rules import (  # noqa: F401
    cards_ok, check_invariants, cut_result, deal_stock, hand_of, hands_ok, over, reset_deal, rules_of, spec_of,
    shuffle_cut, special7, start_deal, table_counts, top_card,
)
from cardsim.kernels.contract_rummy.contracts import (  # noqa: F401
    contract_need,
)
from cardsim.kernels.contract_rummy.strategies import (  # noqa: F401
    choose_discard, discard_ok, volunteers, wants_card, yes,
)
from cardsim.kernels.contract_rummy.view import (  # noqa: F401
    fill_view, no_plug,
)
from cardsim.kernels.contract_rummy.mayi import (  # noqa: F401
    draw_asked, draw_phase,
)
from cardsim.kernels.contract_rummy.melding import (  # noqa: F401
    act_phase, best_meld, place_target,
)
from cardsim.kernels.contract_rummy.turns import (  # noqa: F401
    begin_turn, play_turn,
)
from cardsim.kernels.contract_rummy.step import (  # noqa: F401
    step_plugin, step_turn,
)
from cardsim.kernels.contract_rummy.play import (  # noqa: F401
    buffers, close_deal, first_dealer, score_deal, turn_capped, write_deal, write_game,
)
from cardsim.kernels.contract_rummy.search import (  # noqa: F401
    determinize, no_search, search_cfunc, search_pick,
)
from cardsim.kernels.contract_rummy.critique import (  # noqa: F401
    critique, critique_eval, segment_of,
)
from cardsim.kernels.contract_rummy.batch import (  # noqa: F401
    play_batch, replay_game,
)
