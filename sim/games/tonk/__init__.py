"""Tonk on the Python side: the game's ``GameSpec`` assembled from its parts, each a module of
this package: ``options`` (rule options and presets), ``strategies``, ``records`` (columns and
their checks), ``trace`` (play-by-play, action text, critique positions), ``step`` (the step
adapter), ``plugin`` (what a plug-in sees; ``cardsim.tonk``) and ``tools`` (what scripts/ know)."""
from __future__ import annotations

import numpy as np

from cardsim.kernels import tonk as K
from cardsim.sim.games.tonk.options import CAUGHT_BONUS, DRY_TIE, MAX_STAKE, MAX_TURNS, PRESETS, TonkOptions  # noqa: F401
from cardsim.sim.games.tonk.records import COLUMNS, _record_check, _record_columns
from cardsim.sim.games.tonk.strategies import STRATEGIES, STRONG  # noqa: F401
from cardsim.sim.games.tonk.tools import TOOLS
from cardsim.sim.games.tonk.trace import _format_action, _position, _replay, format_trace, trace_events  # noqa: F401
from cardsim.sim.spec import GameSpec, kernel_fields, plugin_fields

CRITIQUE = {
    "run": K.critique,
    "max_rows": lambda opts, n: min(4 * int(opts[K.O_MAX_TURNS]) // n + 64, 512),
    "max_acts": K.MAX_ACTS,
    "state_size": K.ST_SIZE,
    "trace": lambda opts: np.zeros((64 + 8 * (int(opts[K.O_MAX_TURNS]) + 2), 4), dtype=np.int64),
    "phase": ("round", "the round of the deal (turns started / players)"),
    "detail": ("count", "the point count of the seat's hand"),
    "action_text": lambda a: _format_action(int(a)),
    "position": _position,
    "value": "chips (the deal's payout)",
    "worlds": 128,                          # the search's own default: a Tonk rollout is cheap
    "infer_slot": K.SX_INFER,               # --infer: worlds weighed by the rivals' play (kernels.tonk.infer)
}


GAME = GameSpec(
    name="tonk",
    title="Tonk (Tunk)",
    rules="docs/rules/tonk.md",
    players=(2, 4, 2),
    options_cls=TonkOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K, err_col=K.R_COL_ERR),
    plugin={**plugin_fields(K),
            "kinds": {K.K_START: "turn start: knock, draw from the stock, take the discard, end a dry hand",
                      K.K_MELD: "lay a spread, hit, or discard"},
            "bench": {"builtin": "knocker:threshold=5", "plugin": "examples/tonk_low_knock.py:low_knock:threshold=5",
                      "players": 3, "other": "greedy"}},
    state_payouts=lambda st, n: [int(st[K.PAY + p]) for p in range(n)],
    zero_sum=True,
    record_check=_record_check,
    critique=CRITIQUE,
    order=0,
    step=f"{__name__}.step",
    compile_seconds=15,
    search_seconds=15,
    tools=TOOLS,
)
