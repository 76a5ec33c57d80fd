"""Trionfo on the Python side: the game's ``GameSpec`` assembled from its parts, each a module of
this package: ``options`` (rule options and presets), ``strategies``, ``records`` (columns and
their checks), ``trace`` (play-by-play, action text, critique positions), ``step`` (the step
adapter), ``plugin`` (what a plug-in sees; ``cardsim.trionfo``) and ``tools`` (what scripts/ know).

Rules: ``docs/rules/marafon.md`` Part B; the kernels are ``kernels/trionfo/`` (its
docstring lists the choices made where the spec leaves room) on ``kernels/tricks.py``.

One record row is one **session** of ``trionfo_hands`` hands (default 10). ``payout_{p}`` is
seat p's net money over the session (zero-sum); ``winner`` is the seat with the unique
highest money, -1 on a tie. Per hand (the first 20): declarer, bid level, trump, partner,
called card, the declarer's hand strength, the declarer side's points, won, money per seat.

Plug-in strategies (issue 17, ``cardsim.plugin``): a user's numba ``decide`` may take a seat's
bids, the trump, the call of the partner's card (self-call included), the naming of a
partner and card play (``cardsim.trionfo`` gives the view layout, the kinds and the
legal-action encodings; ``examples/trionfo_long_trumps.py`` is a worked example).
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import trionfo as K
from cardsim.sim.games.trionfo.options import (  # noqa: F401
    AUCTION, BID_NAMES, FIRST_LEADER, PARTNER_METHOD, PAYOUT, PRESETS, REDEAL_DEALER, TrionfoOptions,
)
from cardsim.sim.games.trionfo.records import (  # noqa: F401
    CARDS, COLUMNS, LEVELS, SUITS, _record_check, _record_columns, _unplayed,
)
from cardsim.sim.games.trionfo.strategies import STRATEGIES, STRONG  # noqa: F401
from cardsim.sim.games.trionfo.tools import TOOLS
from cardsim.sim.games.trionfo.trace import (  # noqa: F401
    ROLES, _action_text, _position, _replay, _trace, format_trace, trace_events,
)
from cardsim.sim.spec import GameSpec, kernel_fields, plugin_fields


def _max_rows(opts: np.ndarray, n: int) -> int:
    """Rows of a session at most (more are counted, not rowed): per hand a few calls in the auction
    (more after thrown-in deals), the contract's two decisions, eight cards."""
    return min(int(opts[K.O_HANDS]) * 24 + 64, 1024)


CRITIQUE = {
    "run": K.critique,
    "max_rows": _max_rows,
    "max_acts": K.MAX_ACTS,
    "state_size": K.ST_SIZE,
    "trace": _trace,
    "phase": ("trick", "tricks completed in the hand (0: the auction, the contract and trick 1)"),
    "detail": ("role", "the seat's part in the hand as it knows it: 0 in the auction, 1 declarer, 2 partner, "
                       "3 defender"),
    "action_text": _action_text,
    "position": _position,
    "value": "stakes (the seat's money in the hand; a deal thrown in after an all-pass auction counts 0)",
}


GAME = GameSpec(
    name="trionfo",
    title="Trionfo",
    rules="docs/rules/marafon.md",
    players=(5, 5, 5),
    options_cls=TrionfoOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    unplayed=_unplayed,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K, compile_search=lambda: (K.search_cfunc(), K.plugged_cfunc())),
    plugin={**plugin_fields(K),
            "kinds": {K.K_BID: "speak in the auction (legal: 0 pass, then the levels above the highest bid)",
                      K.K_TRUMP: "the declarer names trump (legal: the suits 0..3)",
                      K.K_CALL: "call the partner's card (legal: the callable cards' ids; own cards under self-call)",
                      K.K_NAME: "name the partner openly (legal: the other seats, from the declarer's right)",
                      K.K_CARD: "play a card (legal: the playable cards' 40-card ids)"},
            "bench": {"builtin": "greedy", "plugin": "examples/trionfo_long_trumps.py:long_trumps:min_trumps=0",
                      "players": 5, "other": "heuristic"}},
    state_payouts=lambda st, n: [int(st[K.MONEY + p]) for p in range(n)],
    payout_label="money (stake units)",
    payout_unit="stakes",
    record_unit=("session", "sessions"),
    seat_extras=(),
    zero_sum=True,
    record_check=lambda cols, opts, n: _record_check(cols, opts, n),
    critique=CRITIQUE,
    order=3,
    step=f"{__name__}.step",
    compile_seconds=15,
    search_seconds=15,
    tools=TOOLS,
)
