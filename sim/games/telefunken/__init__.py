"""Telefunken on the Python side: options, presets, strategies, records and trace formatting.

One record row is one **game** of all its hands (one per contract: seven in Telefunken, six in
Peru 1, eight in Farmer's Rummy; the ``h{h}_*`` columns exist for the hands the game has).
``payout_{p}`` is seat p's *score*: minus its
final total of penalty points, so that higher is better as with Tonk's chips (0 = no penalty;
only an exact-cut points bonus lifts it above 0); the generic statistics, win rates and reports
read it unchanged. ``winner`` is
the seat with the unique lowest total (-1 when the win is shared, A21); ``winners`` is the
bit mask of every seat with the lowest total.

Text forms of the structured options (``--option NAME=VALUE``):

* ``contracts``: one contract per hand (1..8 hands) separated by ``,`` (or ``;``), the melds of
  one hand joined by ``+`` (or ``,`` when ``;`` separates the hands), alternatives of a hand by
  ``|``. A meld is ``3`` (a group of exactly 3),
  ``3p`` (a pure trío: 3 suits, no joker) or ``r7`` (a run of 7 or more). The §4 table is
  ``3p,3+3,4,4+4,5,5+5,3+r7`` (= ``3p;3,3;4;4,4;5;5,5;3,r7``); ``none`` = that default.
* ``low_card_points``: ``face``, one number, or eight numbers for 2..9 (``20,5,5,5,5,5,10,10``).
* hand maps (``exchange_rounds``, ``contract_joker_limit``): ``HAND:VALUE`` pairs separated by
  ``,`` (or ``;``), ``HAND=VALUE`` also accepted: ``6:1``, ``4:1,6:2``; ``none`` or an empty
  value = no entries (``contract_joker_limit=none``: no limit beyond one joker per meld).

The ``;`` and ``=`` spellings contain neither ``,`` nor ``:`` and so fit ``--option-grid`` values.

Plug-in strategies (``--strategy file.py:NAME``, ``cardsim.plugin``): ``cardsim.telefunken`` gives
the view layout, the decision kinds (buy, the free upcard, go down, go out in Hand 7, lay, discard,
the Hand-6 exchange, the dealer's contract, the cut and the jokers kept at it) and the action
encoding; ``examples/telefunken_hold_back.py`` is the planner's hold-back rule as a plug-in.

The ``GameSpec`` is assembled here from the parts, each a module of this package: ``options`` (rule
options and presets), ``strategies``, ``records`` (columns and their checks), ``trace``
(play-by-play, action text, critique positions), ``step`` (the step adapter), ``plugin`` (what a
plug-in sees; ``cardsim.telefunken``), ``odds`` and ``tools`` (what scripts/ know).
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import telefunken as K
from cardsim.sim.games.telefunken.options import (  # noqa: F401
    Alternatives, BOLIVIA_CONTRACTS, CUT_JOKER_KEEP, CUT_MODEL, Contract, Contracts, DEFAULT_CONTRACTS,
    ECUADOR_CONTRACTS, EXACT_BONUS, EXACT_TARGET, EXCHANGE_MODEL, FARMERS_CONTRACTS, HANDS, HandMap, LAYOFF_OWN,
    MAX_CUT, MAX_HANDS, MAX_POINTS, MAX_TURNS_PER_HAND, PERU1_CONTRACTS, PERU2_CONTRACTS, PRESETS, PURE_EXT,
    STOCK_EXHAUSTION, TRACE_ROWS_CAP, TelefunkenOptions, WILD_RATIO, make_group_dups_supported, parse_contracts,
    parse_hand_map,
)
from cardsim.sim.games.telefunken.records import (  # noqa: F401
    COLUMNS, _record_check, _record_columns,
)
from cardsim.sim.games.telefunken.strategies import (  # noqa: F401
    SEARCH_KINDS, STRATEGIES, STRONG,
)
from cardsim.sim.games.telefunken.trace import (  # noqa: F401
    _action_text, _position, _replay, fmt_holding, format_trace, holding_cards, meld_cards, trace_events,
    trace_rows,
)
from cardsim.sim.games.telefunken.tools import TOOLS
from cardsim.sim.spec import GameSpec, kernel_fields, plugin_fields

CRITIQUE = {
    "run": K.critique,
    "max_rows": lambda opts, n: 1024,           # a strong seat's game: 90 .. 300 decisions (all-random: ~1,500)
    "max_acts": 128,                            # the cut's 105 aims; a turn's step: 53 at most seen
    "state_size": K.SNAP_SIZE,
    "trace": lambda opts: np.zeros((trace_rows(opts), K.TRACE_WIDTH), dtype=np.int64),
    "phase": ("hand", "the hand of the game (1 .. 7 in the default game)"),
    "detail": ("chips", "the chips the seat holds"),
    "action_text": _action_text,
    "position": _position,
    "value": "points of the hand: minus the seat's penalty at its end, less the search's chip value (4 points) "
             "per chip spent before the last hand (an exact cut's chip, or points, counted)",
}


GAME = GameSpec(
    name="telefunken",
    title="Telefunken",
    rules="docs/rules/telefunken.md",
    players=(3, K.MAX_PLAYERS, 4),
    options_cls=TelefunkenOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K),
    plugin={**plugin_fields(K),
            "kinds": {K.K_BUY: "buy the discard on offer, or pass",
                      K.K_UPCARD: "take the upcard (take_discard: the top discard) free, or draw",
                      K.K_GO_DOWN: "go down (with which alternative contract / Ecuador exchange), or hold back",
                      K.K_GO_OUT: "a hand laid at once (Hand 7): go out now, or hold back",
                      K.K_LAY: "once down: an extra meld, a lay-off, a joker operation, or lay nothing more",
                      K.K_DISCARD: "the discard that ends the turn (and the dealer's opening discard)",
                      K.K_EXCHANGE: "the Hand-6 exchange: pass one more card, or be done",
                      K.K_CHOOSE: "dealer_chooses_contract: the contract this hand plays",
                      K.K_CUT: "the cutter's aim: the bottom portion of the cut (aimed cut model)",
                      K.K_KEEP: "cut_joker_keep=optional: how many inspected jokers the cutter keeps"},
            "bench": {"builtin": "planner:down_left=4,down_turn=40",
                      "plugin": "examples/telefunken_hold_back.py:hold_back:left=4,turn=40",
                      "players": 4, "other": "greedy", "scale": 0.1}},     # games of seven hands
    state_payouts=lambda st, n: [-int(st[K.TOTAL + p]) for p in range(n)],
    payout_label="score (minus penalty points)",
    payout_unit="points",
    record_unit=("game", "games"),
    seat_extras=(("total", "total_{p}"), ("buys", "buys_{p}"), ("chips_before_h7", "h6_chips_{p}"),
                 ("h7_buys", "h7_buys_{p}"), ("h7_pen", "h7_pen_{p}")),
    record_check=lambda cols, opts, n: _record_check(cols, opts, n),
    critique=CRITIQUE,
    order=1,
    step=f"{__name__}.step",
    compile_seconds=60,
    search_seconds=60,
    tools=TOOLS,
    odds=f"{__name__}.odds",
)
