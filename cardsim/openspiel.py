"""cardsim's games as OpenSpiel Python games (issue 20; ``pip install -e '.[openspiel]'``).

    import cardsim.openspiel              # registers cardsim_tonk, ...
    import pyspiel
    game = pyspiel.load_game("cardsim_tonk(players=3,stake=2)")
    state = game.new_initial_state()

Importing this module registers every game that has a step adapter (``cardsim.sim.step``) as
``cardsim_<game>``. Game parameters: ``players``, ``preset`` (``none``: the defaults) and every rule option by
name, typed by its default (a bool, int or string as ``-o NAME=VALUE`` takes it; an option whose
default is ``none`` is an int with -1 for none, ``max_hits_per_turn=2``; a list is its values joined
by ``_``, a single value with a trailing one: ``deal_tonk_totals=49_50``, ``deal_tonk_totals=50_``; an
option that takes a number or a word is an int with -1 for the word: ``first_dealer=2``, -1 random,
which the bridge deals as seat 0: it has no run seed; Telefunken and Contract Rummy deal it by
chance; an option that defaults to none but takes a number is a float with -1 for none:
``cut_success_prob=0.5``; Telefunken's structured options, ``contracts`` and the hand maps, are
strings in their ``;`` spelling: ``contracts=3p;3+r7``, ``exchange_rounds=2:1``).
Chance nodes deal the cards one by one and decide every draw from the stock; actions are the step
API's dense ids, legal ones ascending; ``returns()`` are cardsim's payouts (chips). Information
state strings (perfect recall) and observation strings and tensors show a player only what that
seat may see. Every game has an adapter: Tonk, Marafon, Trionfo, Tripoli, Telefunken and Contract
Rummy (Tripoli, Telefunken and Contract Rummy are general-sum: without clearing rounds Tripoli's
board keeps chips; the rummies' returns are minus penalty totals). ``resample_from_infostate``
deals a world the player cannot tell from this one, for ISMCTS.
"""
from __future__ import annotations

import importlib
import typing

import numpy as np
import pyspiel

from cardsim.sim.options import option_fields
from cardsim.sim.registry import get_game
from cardsim.sim.step import CHANCE, TERMINAL, new_game, option_text, step_games


def _param_default(value):
    """An option's default as an OpenSpiel parameter: bool, int, float and str as they are; an
    option that defaults to none as the int -1; a list as a string joined by ``_`` (OpenSpiel's
    game strings split on commas, and read a value of digits and ``+`` as a number)."""
    if value is None:
        return -1
    if isinstance(value, (bool, int, float, str)):
        return value
    return "_".join(map(str, value)) + ("_" if len(value) == 1 else "")


def _option_value(default, value):
    """A parameter's value as the option text ``-o`` takes."""
    if isinstance(value, str) and (default is None or isinstance(default, dict)):
        return value                                   # a structured option's text form
    if default is None or isinstance(default, str) and isinstance(value, int):
        return ("none" if default is None else default) if value == -1 else value
    if isinstance(default, tuple):
        return ",".join(x for x in str(value).split("_") if x)
    return value


def _hint_args(cls, name: str) -> tuple:
    """The types an option's annotation allows (``str | int`` -> (str, int))."""
    return typing.get_args(typing.get_type_hints(cls)[name])


def _structured(cls, name: str, value) -> bool:
    """An option read from a text form (Telefunken's ``contracts``, its hand maps): a string
    parameter in its ``;`` spelling (``contracts=3p;3;4``, ``exchange_rounds=6:1;4:2``, ``none``),
    whose default ``default`` leaves the option as the rules or the preset set it."""
    args = _hint_args(cls, name)
    return isinstance(value, dict) or (value is None and any(
        isinstance(a, type) and a not in (int, float, str, bool, type(None)) for a in args))


def _int_or_word(cls, name: str) -> bool:
    """An option that takes a whole number or a word (Tonk's ``first_dealer``: random or a seat)."""
    args = _hint_args(cls, name)
    return int in args and str in args


def _spec(game: str) -> dict:
    spec = get_game(game)
    defaults = spec.options_cls()
    params = {"players": spec.players[2], "preset": "none"}
    for f in option_fields(spec.options_cls):
        v = getattr(defaults, f.name)
        if _structured(spec.options_cls, f.name, v):
            params[f.name] = "default"
            continue
        if _int_or_word(spec.options_cls, f.name) and isinstance(v, str):
            params[f.name] = -1
        elif v is None and float in _hint_args(spec.options_cls, f.name):
            params[f.name] = -1.0                      # a number or none (Contract Rummy's cut_success_prob)
        else:
            params[f.name] = _param_default(v)
    return params


def _game_type(game: str) -> pyspiel.GameType:
    spec = get_game(game)
    lo, hi, _ = spec.players
    zero_sum = getattr(importlib.import_module(spec.step), "ZERO_SUM", True)
    return pyspiel.GameType(
        short_name=f"cardsim_{game}", long_name=f"cardsim {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi, min_num_players=lo,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_spec(game))


def _make_classes(game: str):
    game_type = _game_type(game)
    zero_sum = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    defaults = _spec(game)
    spec = get_game(game)
    raw = {f.name: getattr(spec.options_cls(), f.name) for f in option_fields(spec.options_cls)}

    class CardsimGame(pyspiel.Game):
        def __init__(self, params=None):
            params = dict(params or {})
            full = {**defaults, **params}
            options = {k: _option_value(raw[k], v) for k, v in full.items()
                       if k not in ("players", "preset") and v != defaults[k]}
            self.step = new_game(game, int(full["players"]),
                                 None if full["preset"] in ("", "none") else full["preset"], options)
            s = self.step
            info = pyspiel.GameInfo(num_distinct_actions=s.num_distinct_actions,
                                    max_chance_outcomes=s.max_chance_outcomes, num_players=s.players,
                                    min_utility=s.min_utility, max_utility=s.max_utility,
                                    utility_sum=0.0 if zero_sum else None, max_game_length=s.max_game_length)
            super().__init__(game_type, info, params)

        def new_initial_state(self):
            return CardsimState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                            self.step.observation_size)

    class CardsimState(pyspiel.State):
        def __init__(self, g):
            super().__init__(g)
            self.inner = g.step.new_state()

        def current_player(self):
            p = self.inner.current_player()
            if p == CHANCE:
                return pyspiel.PlayerId.CHANCE
            if p == TERMINAL:
                return pyspiel.PlayerId.TERMINAL
            return p

        def _legal_actions(self, player):
            return self.inner.legal_actions()

        def chance_outcomes(self):
            return self.inner.chance_outcomes()

        def _apply_action(self, action):
            self.inner.apply(action)

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return f"chance: card {action}"
            return self.inner.action_string(action)

        def is_terminal(self):
            return self.inner.is_terminal()

        def returns(self):
            return self.inner.returns()

        def resample_from_infostate(self, player, sampler=None):
            """A state with the same information state for ``player`` (OpenSpiel's ISMCTS calls
            this): the step API's ``resample``; ``sampler`` is ignored (numpy draws the cards)."""
            c = self.clone()
            self._rng = getattr(self, "_rng", None) or np.random.default_rng(len(self.history()))
            c.inner = self.inner.resample(player, self._rng)
            return c

        def __str__(self):
            return str(self.inner)

    CardsimGame.__name__ = f"Cardsim{game.title().replace('_', '')}Game"
    return game_type, CardsimGame


class Observer:
    """OpenSpiel's PyObserver: the step API's observation (strings and tensor) or, with perfect
    recall, its information state string (no information state tensor)."""

    def __init__(self, iig_obs_type, size: int):
        self.recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0 if self.recall else size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if not self.recall:
            self.tensor[:] = state.inner.observation_tensor(player)

    def string_from(self, state, player):
        if self.recall:
            return state.inner.information_state_string(player)
        return state.inner.observation_string(player)


GAMES = {}
for _g in step_games():
    _type, _cls = _make_classes(_g)
    pyspiel.register_game(_type, _cls)
    GAMES[_g] = _cls

__all__ = ["GAMES"]
