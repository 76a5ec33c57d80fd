"""Contract Rummy (presets ``contract``, ``liverpool``, ``may_i``) on the Python side: the game's
``GameSpec`` assembled from its parts, each a module of this package: ``options`` (rule options and
presets), ``strategies``, ``records`` (columns and their checks), ``trace`` (play-by-play, action
text, critique positions), ``step`` (the step adapter), ``plugin`` (what a plug-in sees;
``cardsim.contract_rummy``), ``odds`` and ``tools`` (what scripts/ know).

Rules source: ``docs/rules/contract_rummy.md`` (RULES_VERSION = ``kernels.contract_rummy.
RULES_VERSION``). One record row is one **game** of seven deals. ``payout_{p}`` is seat p's
*score*: minus its final total of penalty points (higher is better; a LIVERPOOL cut bonus can
lift it above 0). ``winner`` is the seat with the unique lowest total (-1 when shared, §14);
``winners`` the bit mask of every seat with the lowest total. Score range per deal and seat:
0 .. the penalty of the holding (jokers 15, MAY_I 25).

Options (``--option NAME=VALUE``; §15 and §18 of the rules; presets are §15.1):

| option | contract | liverpool | may_i |
|---|---|---|---|
| deck_rule | two_decks | two_decks | one_per_two_players |
| joker_rule | players_minus_one | players_minus_one | two_per_deck |
| joker_points | 15 | 15 | 25 |
| initial_meld_exact_size | true | true | false |
| forbid_contiguous_runs | true | true | false |
| joker_swap_allowed | true | true | false |
| deal7_special | true | true | false |
| cut_bonus_points | 0 | 50 | 0 |

and, the same in every preset: mayi_deck_rounding (ceil), hand_sizes (10,10,10,12,12,12,12),
may_i_model (out_of_turn_discard / buy / none), take_discard_penalty (always / if_claimed),
may_i_limit_per_deal (none), may_i_no_consecutive (true), oot_discarder_cooldown (false),
may_discard_taken_card (false), go_out_requires_discard (false), deal7_discard_mode (normal /
never), joker_position (floating / fixed), min_naturals_per_meld (1; 1..3),
joker_swap_requires_prior_meld (true), swapped_joker_may_be_discarded (false),
dead_stock_rule (score_all / void_deal), cut_bonus_recipient (cutter / deal_winner),
cut_success_prob (none = 1/(N-1) for a pack of N), max_turns_per_deal (1000), tie_rule
(shared; the only choice), first_dealer (random or a seat). How the engine reads each
option where the spec leaves room is in the docstring of ``kernels/contract_rummy/``.

Plug-in strategies (issue 17): ``--strategy file.py:NAME`` seats a ``cardsim.plugin.Strategy``;
its decision kinds, view and legal codes are ``cardsim.contract_rummy``'s (example:
``examples/contract_rummy_mayi_limit.py``).

Replays: ``trace_events`` gives the game as ``sim.trace`` events (its docstring lists the
actions, fields and ``state`` keys); ``format_trace`` is their text.
"""
from __future__ import annotations

import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.sim.games.contract_rummy.options import (  # noqa: F401
    CUT_RECIP, D7_MODE, DEAD_STOCK, DEALS, DECK_RULE, JOKER_POSITION, JOKER_RULE, MAX_TURNS_PER_DEAL, MAY_I_PRESET,
    MAYI_MODEL, PENALTY, PRESETS, ROUNDING, ContractRummyOptions,
)
from cardsim.sim.games.contract_rummy.records import COLUMNS, _record_check, _record_columns
from cardsim.sim.games.contract_rummy.strategies import STRATEGIES, STRONG  # noqa: F401
from cardsim.sim.games.contract_rummy.tools import TOOLS
from cardsim.sim.games.contract_rummy.trace import (  # noqa: F401
    TRACE_ROWS_CAP, _action_text, _card, _position, _replay, _TableMeld, action_text, format_trace, trace_events,
)
from cardsim.sim.spec import GameSpec, kernel_fields, plugin_fields

CRITIQUE = {
    "run": K.critique,
    "max_rows": lambda opts, n: min(1024, 64 + 8 * DEALS * int(opts[K.O_MAX_TURNS]) // n),
    "max_acts": K.MAX_LEGAL,
    "state_size": K.SEG_W,                  # the state, then the table (the melds)
    "trace": lambda opts: np.zeros((min(TRACE_ROWS_CAP, DEALS * (int(opts[K.O_MAX_TURNS]) * 12 + 600)), 6),
                                   dtype=np.int64),
    "phase": ("deal", "the deal of the game (1..7: its contract)"),
    "detail": ("held", "cards the seat holds at the decision"),
    "action_text": lambda a: _action_text(int(a)),
    "position": _position,
    "value": "points: the others' mean penalty of the deal less the seat's own (the search's deal_value), each "
             "answer played out to the end of the deal",
    "worlds": 32,                           # the search's own default
}


GAME = GameSpec(
    name="contract_rummy",
    title="Contract Rummy (Liverpool, May I?)",
    rules="docs/rules/contract_rummy.md",
    players=(3, K.MAX_PLAYERS, 4),
    options_cls=ContractRummyOptions,
    presets=PRESETS,
    strategies={s.name: s for s in STRATEGIES},
    columns=COLUMNS,
    record_columns=_record_columns,
    replay=_replay,
    format_trace=format_trace,
    trace_events=trace_events,
    **kernel_fields(K),
    plugin={**plugin_fields(K),
            "kinds": {K.K_DRAW: "turn start: draw from the stock or take the top discard (a May-I where it costs "
                                "a penalty card)",
                      K.K_BUY: "buy: another seat buys the top discard or not (may_i_model = buy)",
                      K.K_VOLUNTEER: "volunteer: play out of turn (draw, discard) or not (out_of_turn_discard)",
                      K.K_MELD: "go down: now or not, and with the engine's meld or the plain best one",
                      K.K_MELD_JOKERS: "meld jokers: how many more held jokers go into the meld (non-exact "
                                       "contracts)",
                      K.K_SWAP: "swap: a natural for a table run's joker or not",
                      K.K_JOKER: "freed joker: keep it for the discard or the meld it goes on",
                      K.K_LAYOFF: "lay off: keep a card that fits a meld, or the meld it goes on",
                      K.K_DISCARD: "discard: the card discarded (in turn or out of turn)"},
            "bench": {"builtin": "mayi:max_mayi=2,near=99",
                      "plugin": "examples/contract_rummy_mayi_limit.py:limited:limit=2",
                      "players": 4, "other": "greedy"}},
    state_payouts=lambda st, n: [-int(st[K.TOTAL + p]) for p in range(n)],
    payout_label="score (minus penalty points)",
    payout_unit="points",
    record_unit=("game", "games"),
    seat_extras=(("total", "total_{p}"), ("mayi", "mayi_{p}"), ("oot", "oot_{p}")),
    record_check=lambda cols, opts, n: _record_check(cols, opts, n),
    critique=CRITIQUE,
    order=5,
    step=f"{__name__}.step",
    compile_seconds=55,
    search_seconds=40,
    tools=TOOLS,
    odds=f"{__name__}.odds",
)
