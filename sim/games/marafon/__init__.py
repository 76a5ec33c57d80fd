"""Marafon on the Python side: the game's ``GameSpec`` assembled from its parts, each a module of
this package: ``options`` (rule options and presets), ``strategies``, ``records`` (columns and
their checks), ``trace`` (the 40-card notation, play-by-play, action text, critique positions),
``step`` (the step adapter), ``plugin`` (what a plug-in sees; ``cardsim.marafon``) and ``tools``
(what scripts/ know).

Rules: ``docs/rules/marafon.md`` Part A; the kernels are ``kernels/marafon/`` (its
docstring lists the choices made where the spec leaves room) on ``kernels/tricks.py``.

One record row is one **match** (one game by default, ``games_per_match``). Partnerships are
seats 0+2 (side 0) and 1+3 (side 1). ``payout_{p}`` is the match result of seat p's side:
+1 won, -1 lost (0 for both sides if a capped game ended level), so a seat's mean payout is
2 x (its side's win rate) - 1 and the row sums to 0. ``winner`` must name one seat, while two
seats win together: it names the winning side's seat ``side + 2 x (deal_id mod 2)``, i.e.
each partner is credited on alternate matches, so a seat's win rate in the generic tables is
half its side's win rate and the paired comparisons of ``cardsim compare`` stay unbiased;
``win_side`` gives the side itself.

Cards use the 40-card ids of ``kernels.tricks``; ``parse40`` and ``fmt40`` translate the
usual notation (``3C 2C AC KD QH JS 7D 4D``) through ``sim.notation``.

Plug-in strategies (issue 17, ``cardsim.plugin``): a user's numba ``decide`` may take a seat's
trump naming, optional marafona declarations, claims and card play (``cardsim.marafon`` gives
the view layout, the kinds and the legal-action encodings; ``examples/marafon_save_trumps.py``
is a worked example).
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import marafon as K
from cardsim.sim.games.marafon.options import (  # noqa: F401
    BOTH_REACH, CLAIM_TIMING, DECLARER, PRESETS, SECOND_DEALER, MarafonOptions,
)
from cardsim.sim.games.marafon.records import (  # noqa: F401
    _HAND_FIELDS, COLUMNS, HAND_ENDS, SUITS, _payouts, _record_check, _record_columns, _unplayed,
)
from cardsim.sim.games.marafon.strategies import STRATEGIES, STRONG  # noqa: F401
from cardsim.sim.games.marafon.tools import TOOLS
from cardsim.sim.games.marafon.trace import (  # noqa: F401
    TRACE_ROWS_CAP, _action_text, _max_rows, _position, _replay, fmt40, fmt40_card, fmt40_mask, format_trace, mask40,
    parse40, parse52, trace_events, trace_rows,
)
from cardsim.sim.spec import GameSpec, kernel_fields, plugin_fields

CRITIQUE = {
    "run": K.critique,
    "max_rows": _max_rows,
    "max_acts": K.MAX_ACTS,
    "state_size": K.ST_SIZE,
    "trace": lambda opts: np.zeros((trace_rows(opts), K.TRACE_W), dtype=np.int64),
    "phase": ("trick", "tricks completed in the hand (0: the trump and trick 1; 10: the window after the last trick)"),
    "detail": ("count", "the seat's side's claim count in thirds (game score x 3 + thirds won in the hand + "
                        "marafone), against the target target_thirds"),
    "action_text": _action_text,
    "position": _position,
    "value": "hand points (the hand's point difference of the seat's side, +- the search's game_weight, 20, for "
             "a game won or lost in the hand)",
}


GAME = GameSpec(
    name="marafon",
    title="Marafon (Beccaccino)",
    rules="docs/rules/marafon.md",
    players=(4, 4, 4),
    options_cls=MarafonOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    unplayed=_unplayed,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K, compile_search=lambda: K.plugged_cfunc()),
    plugin={**plugin_fields(K),
            "kinds": {K.K_TRUMP: "the battitore names trump (legal: the suits 0..3)",
                      K.K_DECLARE: "declare a marafona when declaring is optional (legal: 0 no, 1 yes)",
                      K.K_CLAIM: "a claim window (legal: 0 no claim, 1 claim the game)",
                      K.K_CARD: "play a card (legal: the playable cards' 40-card ids)"},
            "bench": {"builtin": "greedy", "plugin": "examples/marafon_save_trumps.py:save_trumps:min_thirds=0",
                      "players": 4, "other": "heuristic"}},
    state_payouts=_payouts,
    payout_label="match result (+1 won, -1 lost)",
    payout_unit="result points",
    record_unit=("match", "matches"),
    sides=((0, 2), (1, 3)),
    seat_extras=(("hands", "hands"), ("win_side", "win_side")),
    zero_sum=True,
    record_check=_record_check,
    critique=CRITIQUE,
    order=2,
    step=f"{__name__}.step",
    compile_seconds=15,
    search_seconds=25,
    tools=TOOLS,
)
