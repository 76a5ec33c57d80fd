"""High card, a toy game that ``tests/test_new_game.py`` registers from a temporary folder
(issue 42's "new game" check): a game is found through the same discovery as the built-ins (here
the ``cardsim.games`` entry point of this folder's distribution) and runs through ``run`` and
``replay`` with nothing else touched.

Rules: each seat is dealt one card of a 52-card deck (counter-based: ``(seed, deal)``); in seat
order each may once change it for the next card of the deck; the highest rank (ace high; ties:
the lower seat) takes one chip from every other seat.

Strategies: ``keep`` (never changes), ``swap:below=R`` (changes a card of rank below R).
State (int64): [0] next card, [1 + p] seat p's card, [5 + p] whether it changed, [9] winner,
[10 + p] payouts. RULES_VERSION 1; payouts -1 .. n-1 chips.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.kernels.rng import STREAM_DECK, seed_stream, shuffle
from cardsim.sim.notation import fmt_card
from cardsim.sim.options import check_ranges, opt
from cardsim.sim.spec import Column, GameSpec, ParamSpec, StrategySpec

MAX_PLAYERS = 4
NEXT, CARD, SWAPPED, WINNER, PAY, SIZE = 0, 1, 5, 9, 10, 14
RECORD = 2 + 3 * MAX_PLAYERS           # winner, end reason, then card, swapped, payout per seat
S_KEEP, S_SWAP = 0, 1


@dataclass(frozen=True)
class ToyOptions:
    """Rule options of high card."""
    stake: int = opt(1, "chips each loser pays", lo=1, hi=10)

    def __post_init__(self):
        check_ranges(self)

    def to_array(self, n_players: int) -> np.ndarray:
        return np.array([n_players, self.stake], np.int64)


def _rank(card: int) -> int:
    return (card % 13 - 1) % 13            # ace (0) highest: 2 -> 0 .. A -> 12


def _deal(seed: int, deal: int, opts, sids, params, trace=None):
    n, stake = int(opts[0]), int(opts[1])
    st = np.zeros(SIZE, np.int64)
    g = np.zeros(2, np.uint64)
    seed_stream(g, seed, deal, np.int64(STREAM_DECK))
    deck = np.arange(52, dtype=np.int64)
    shuffle(g, deck, 0, 52)
    for p in range(n):
        st[CARD + p] = deck[p]
    st[NEXT] = n
    if trace is not None:
        trace.append(tuple(int(c) for c in deck[:n]))
    for p in range(n):
        if int(sids[p]) == S_SWAP and _rank(int(st[CARD + p])) + 2 < params[p][0]:
            old = int(st[CARD + p])
            st[CARD + p] = deck[st[NEXT]]
            st[NEXT] += 1
            st[SWAPPED + p] = 1
            if trace is not None:
                trace.append((p, old, int(st[CARD + p])))
    best = max(range(n), key=lambda p: (_rank(int(st[CARD + p])), -p))
    st[WINNER] = best
    for p in range(n):
        st[PAY + p] = stake * (n - 1) if p == best else -stake
    return st


def play_batch(seed, first, count, opts, sids, params, check, rec, *plugs):
    n = int(opts[0])
    for i in range(count):
        st = _deal(seed, first + i, opts, sids, params)
        rec[i, 0] = st[WINNER]
        rec[i, 1] = 0
        for p in range(n):
            rec[i, 2 + p] = st[CARD + p]
            rec[i, 2 + MAX_PLAYERS + p] = st[SWAPPED + p]
            rec[i, 2 + 2 * MAX_PLAYERS + p] = st[PAY + p]


def record_columns(rec, n):
    cols = {"winner": rec[:, 0].astype(np.int8), "end_reason": rec[:, 1].astype(np.int8),
            "truncated": np.zeros(len(rec), bool),           # no loop to cap
            "turns": rec[:, 2 + MAX_PLAYERS:2 + MAX_PLAYERS + n].sum(axis=1).astype(np.int32)}   # changes
    for p in range(n):
        cols[f"card_{p}"] = rec[:, 2 + p].astype(np.int8)
        cols[f"swapped_{p}"] = rec[:, 2 + MAX_PLAYERS + p].astype(bool)
        cols[f"payout_{p}"] = rec[:, 2 + 2 * MAX_PLAYERS + p].astype(np.int32)
    return cols


def replay(seed, deal, opts, sids, params, check, *plugs):
    trace = []
    st = _deal(seed, deal, opts, sids, params, trace)
    return st, trace


def format_trace(trace, st, seat_names):
    n = len(seat_names)
    lines = ["dealt: " + ", ".join(f"{seat_names[p]} {fmt_card(c)}" for p, c in enumerate(trace[0][:n]))]
    lines += [f"{seat_names[p]} changes {fmt_card(old)} for {fmt_card(new)}" for p, old, new in trace[1:]]
    lines.append(f"{seat_names[int(st[WINNER])]} wins")
    return lines


STRATEGIES = [
    StrategySpec("keep", S_KEEP, (), "never changes its card"),
    StrategySpec("swap", S_SWAP, (ParamSpec("below", 8.0, 2.0, 14.0, "change a card of rank below this "
                                            "(2..14, ace 14)"),), "changes a low card once"),
]

GAME = GameSpec(
    name="toy",
    title="High card (toy)",
    rules="the docstring of the cardsim_toy module",
    rules_version=1,
    players=(2, MAX_PLAYERS, 2),
    options_cls=ToyOptions,
    presets={"seed": {}},
    strategies={s.name: s for s in STRATEGIES},
    n_params=1,
    record_width=RECORD,
    reason_names=("showdown",),
    error_names=("none",),
    err_col=None,
    columns=[Column("winner", "int8", "seat with the highest card"),
             Column("end_reason", "int8", "how the deal ended", {0: "showdown"}),
             Column("truncated", "bool", "never: a deal has no loop to cap"),
             Column("turns", "int32", "cards changed in the deal"),
             Column("card_{p}", "int8", "seat p's final card"),
             Column("swapped_{p}", "bool", "whether seat p changed its card"),
             Column("payout_{p}", "int32", "chips won or lost by seat p")],
    play_batch=play_batch,
    record_columns=record_columns,
    replay=replay,
    format_trace=format_trace,
    state_payouts=lambda st, n: [int(st[PAY + p]) for p in range(n)],
    state_error=lambda st: 0,
    zero_sum=True,
)
