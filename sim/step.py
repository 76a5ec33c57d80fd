"""A step API: one game state at a time, action by action, backed by the batch kernels (issue 20).

    from cardsim.sim.step import new_game
    g = new_game("tonk", players=2)
    s = g.new_state()
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])          # or sample by probability
        else:
            s.apply(s.legal_actions()[0])
    s.returns()                                         # cardsim's payouts, one per seat

A state is a chance node (the shuffle, dealt card by card, and every draw from the stock: the
next card is chosen among the cards not yet seen by anybody, uniformly) or a decision of
``current_player()``. Actions are ids of a fixed, dense space per game (``num_distinct_actions``),
legal ones listed in ascending order. ``observation_string(seat)`` / ``observation_tensor(seat)``
show what that seat sees now; ``information_state_string(seat)`` everything it has seen since the
deal (perfect recall). Nothing hidden from the seat is in them. It is what the OpenSpiel bridge
(``cardsim.openspiel``) wraps, and useful on its own: reinforcement-learning environments,
teaching, one decision looked at closely.

Each game's adapter lives in ``sim/games/<game>_step.py`` and registers itself in ``STEP_GAMES``.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import numpy as np

from cardsim.sim.errors import UsageError

CHANCE = -1
TERMINAL = -4

STEP_GAMES = {"tonk": "cardsim.sim.games.tonk_step", "marafon": "cardsim.sim.games.marafon_step",
              "trionfo": "cardsim.sim.games.trionfo_step", "tripoli": "cardsim.sim.games.tripoli_step"}


def option_text(value) -> str:
    """An option's value as ``-o NAME=VALUE`` writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


@dataclass
class StepGame:
    """A game with its players and options fixed: makes states (``new_state``)."""
    name: str
    players: int
    options: object                      # the game's options dataclass
    opts: np.ndarray = field(repr=False)  # the kernels' option array
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    min_utility: float
    max_utility: float
    observation_size: int
    state_cls: type = field(repr=False)

    def new_state(self):
        return self.state_cls(self)


def new_game(game: str, players: int | None = None, preset: str | None = None,
             options: dict | None = None) -> StepGame:
    """A step game: ``options`` maps option names to values (or their text, as ``-o`` takes)."""
    from cardsim.sim.options import build_options
    from cardsim.sim.registry import check_players, get_game
    if game not in STEP_GAMES:
        raise UsageError(f"no step API for {game!r} yet; games: {', '.join(STEP_GAMES)}")
    spec = get_game(game)
    n = check_players(spec, None if players is None else int(players))
    pairs = [f"{k}={option_text(v)}" for k, v in (options or {}).items()]
    opts = build_options(spec.options_cls, spec.presets, preset or None, pairs)
    return importlib.import_module(STEP_GAMES[game]).make_game(n, opts)
