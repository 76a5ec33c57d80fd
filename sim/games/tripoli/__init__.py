"""Tripoli on the Python side: the game's ``GameSpec`` assembled from its parts, each a module of
this package: ``options`` (rule options and presets), ``strategies``, ``records`` (columns and
their checks), ``trace`` (play-by-play, action text, critique positions), ``step`` (the step
adapter), ``plugin`` (what a plug-in sees; ``cardsim.tripoli``) and ``tools`` (what scripts/ know).

Rules source ``docs/rules/tripoli.md``; the kernel and its choices: ``kernels/tripoli/``.
Plug-in strategies (``cardsim.plugin``) decide any of the kinds in ``GAME.plugin["kinds"]``
(every decision of the game) on the seat's view; ``cardsim.tripoli`` documents the view, the
kinds and the actions of each, ``examples/tripoli_widow_stops.py`` is a worked example.
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import tripoli as K
from cardsim.sim.games.tripoli.options import (  # noqa: F401
    FIRST_BETTOR, LEADER, LIMIT_MODE, MAX_BID, MAX_DEALS, MAX_RAISES, MAX_STEPS, PRESETS, SPLIT, SUITS, TIMING,
    TripoliOptions,
)
from cardsim.sim.games.tripoli.records import COLUMNS, _derived_columns, _record_check, _record_columns  # noqa: F401
from cardsim.sim.games.tripoli.strategies import STRATEGIES, STRONG  # noqa: F401
from cardsim.sim.games.tripoli.tools import TOOLS
from cardsim.sim.games.tripoli.trace import (  # noqa: F401
    RANK_WORDS, _position, _replay, format_action, format_trace, trace_events,
)
from cardsim.sim.spec import GameSpec, kernel_fields, plugin_fields

CRITIQUE = {
    "run": K.critique,
    "max_rows": lambda opts, n: min(int(opts[K.O_MAX_STEPS]), 512),
    "max_acts": K.MAX_ACTS,
    "state_size": K.ST_SIZE,
    "trace": lambda opts: np.zeros((2048 + 2 * int(opts[K.O_MAX_STEPS]), 4), dtype=np.int64),
    "phase": ("round", "0 the deal, k the session's clearing round k"),
    "detail": ("chips", "the seat's chips won (+) or paid (-) in the deal so far"),
    "action_text": lambda a: format_action(int(a)),
    "position": _position,
    "value": "chips (the seat's payout of the deal)",
    "worlds": 16,
}


GAME = GameSpec(
    name="tripoli",
    title="Tripoli",
    rules="docs/rules/tripoli.md",
    players=(2, K.MAX_PLAYERS, 5),
    options_cls=TripoliOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K),
    state_payouts=lambda st, n: [int(st[K.CHIPS + p]) for p in range(n)],
    payout_label="payout (chips won in the deal)",
    payout_unit="chips",
    seat_extras=(("pay", "pay_{p}"), ("poker", "poker_{p}"), ("michigan", "michigan_{p}"),
                 ("widow", "widow_{p}"), ("clear", "clear_{p}")),
    derived_columns=lambda cols, opts, n: _derived_columns(cols, opts, n),
    record_check=lambda cols, opts, n: _record_check(cols, opts, n),
    plugin={**plugin_fields(K),
            "kinds": {K.K_WIDOW: "dealer's widow options: keep, swap or auction the widow; after a swap: done or "
                                 "auction the old hand; after an unsold auction: keep or swap",
                      K.K_BID: "a bid or a pass in an auction of the unseen widow or of the dealer's old hand",
                      K.K_SUIT_BID: "a bid or a pass in the pay-suit auction (pay_suit_auction)",
                      K.K_SUIT: "the pay-suit auction's winner names the pay suit",
                      K.K_PICK: "one card of the poker hand (five decisions choose the five cards shown)",
                      K.K_BET: "Phase-2 betting: check or bet a size; facing a bet: fold, call or raise a size",
                      K.K_CLEAR_BET: "a clearing round's betting (the same actions)",
                      K.K_LEAD: "Michigan: the suit to lead (its lowest card; following is forced)"},
            "bench": {"builtin": "heuristic", "plugin": "examples/tripoli_widow_stops.py:widow_stops:widow_stops=0",
                      "players": 5, "other": "heuristic"}},
    critique=CRITIQUE,
    order=4,
    step=f"{__name__}.step",
    compile_seconds=30,
    search_seconds=20,
    tools=TOOLS,
)
