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
teaching, one decision looked at closely. ``table_action`` plays the seat to act as the batch
seats it at a ``Table`` (a built-in, plug-in or search strategy: ``cardsim play``'s bots).

Each game's adapter lives in its package, ``sim/games/<game>/step.py``, named by its ``GameSpec.step``.
"""
from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from cardsim.kernels.rng import seed_stream
from cardsim.sim.errors import PluginError, UsageError, UsageTypeError
from cardsim.sim.options import option_text  # noqa: F401  (cardsim.openspiel imports it from here)

CHANCE = -1
TERMINAL = -4


class ActionValue(NamedTuple):
    """What one legal action is worth to the seat to act (``StepState.action_values``)."""
    action: int          # the action id (``legal_actions``)
    mean: float          # the seat's mean payout after it, in the game's unit
    se: float            # its standard error over the worlds
    worlds: int          # worlds it was played in (fewer where the race dropped it)


@dataclass
class Table:
    """The seats of a table as the batch seats them (``sim.registry``): each seat's ``Seat``, the
    kernels' strategy ids and parameter rows (``seat_arrays``), and the plug-in seated at it
    (``seat_plugin``: its C callback and parameter rows; None at a table without one).
    ``StepState.table_action`` plays the seat to act as the batch would (``cardsim play``'s bots)."""
    spec: object
    seats: list
    sids: np.ndarray
    params: np.ndarray
    plug: object = None
    pprm: np.ndarray | None = None

    @classmethod
    def of(cls, spec, seats: list) -> Table:
        """The table of ``seats`` (``registry.seat_table``'s Seats) in the game ``spec``; one
        plug-in per table, as in a run (UsageError otherwise)."""
        from cardsim.sim.registry import seat_arrays, seat_plugin
        sids, params = seat_arrays(spec, seats)
        plug, pprm = seat_plugin(spec, seats)
        return cls(spec, list(seats), sids, params, plug, pprm)

    def builtin(self, q: int) -> bool:
        """Seat ``q`` plays a built-in scripted strategy (no plug-in, no search)."""
        s = self.seats[q]
        return not s.plugin and s.strategy.kernel_row is None

    def searches(self, q: int) -> bool:
        """Seat ``q`` is a search seat (the search, or a plug-in whose base searches)."""
        s = self.seats[q]
        return (s.base if s.plugin else s).strategy.kernel_row is not None

    def callback(self):
        """The plug-in's C callback the kernels take (``jit.no_plugin`` without one)."""
        from cardsim.kernels.jit import no_plugin
        return no_plugin if self.plug is None else self.plug


def step_games() -> dict[str, str]:
    """Each game with a step adapter -> its module (``GameSpec.step``), in listing order."""
    from cardsim.sim.registry import games
    return {name: g.step for name, g in games().items() if g.step}


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


def whole(value, what: str) -> int:
    """``value`` as an int when it is one (a Python or numpy integer, not a bool); else
    UsageTypeError naming ``what``: a str, a float or a bool is never taken as an action or a
    seat (``int("3")``, ``int(2.7)`` and ``int(True)`` would)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise UsageTypeError(f"{what} must be a whole number (int), got {value!r} ({type(value).__name__})")
    return int(value)


def _checked_action(fn):
    @functools.wraps(fn)
    def apply(self, action):
        return fn(self, whole(action, "action"))
    return apply


def _checked_seat(fn):
    @functools.wraps(fn)
    def method(self, seat, *args, **kwargs):
        seat = whole(seat, "seat")
        if not 0 <= seat < self.n:
            raise UsageError(f"seat {seat} is not a seat of this {self.n}-player game (0..{self.n - 1})")
        return fn(self, seat, *args, **kwargs)
    return method


SEAT_METHODS = ("observation_string", "observation_tensor", "information_state_string", "resample")


class StepState:
    """What every game's step state shares: each seat's perfect-recall log (``_seen``), the
    action history, cloning (numpy arrays copied, lists copied one level down, everything else
    shared: the game and its options), and the uniform chance over the cards still to deal.
    Every game's ``apply`` takes only an integer action, and its seat methods (SEAT_METHODS)
    only one of its seats (``whole``; UsageError otherwise)."""
    _seen: list[list[str]]
    n: int

    phase: str

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "apply" in vars(cls):
            cls.apply = _checked_action(vars(cls)["apply"])
        for name in SEAT_METHODS:
            if name in vars(cls):
                setattr(cls, name, _checked_seat(vars(cls)[name]))

    def batch_record(self, k: int) -> int:
        """The batch record (with the bridge's options, ``first_dealer`` 0 where the game has it)
        that the ``k``-th bridged game replays when fed the batch's chance outcomes
        (``batch_outcome(seed, record)``) and its strategies' choices (``strategy_action``) on that
        record's play stream: the conformance suite checks the returns are its payouts."""
        return k

    def table_action(self, table: Table, gplay) -> int:
        """The action the seat to act takes at ``table``, as the batch plays that seat: a
        built-in strategy's (``strategy_action``); a plug-in's ``decide`` on its view (the kernel's
        own plug-in question), its base built-in where it answers -1 or is not asked that kind;
        a search seat's search (the kernel's). Draws from the play stream ``gplay`` as the batch
        does. A plug-in answer that would stop the batch's deal (not -1 nor a legal index, or
        decide raised) is a PluginError naming it."""
        q = self.current_player()
        if table.builtin(q):
            return self.strategy_action(int(table.sids[q]), table.params[q], gplay)
        before = gplay.copy()
        a = self._table_choice(table, table.callback(), gplay)
        if a is None:
            if not table.seats[q].plugin:
                raise RuntimeError(f"seat {q}'s search gave no action (a step API bug)")
            raise PluginError(self._plugin_stop(table, q, before))
        return int(a)

    def _table_choice(self, table: Table, plug, gplay) -> int | None:
        """``table_action`` of a plug-in or search seat with the plug-in callback ``plug``: the
        action, or None where the plug-in's answer stops the deal. The adapter calls its
        kernel's own seat logic (the batch's ``seat_choice`` or its game's equivalent) on a copy
        of the state, so that the state is left as it is."""
        raise UsageError(f"plug-in and search strategies cannot play {self.game.name} through the step API yet")

    def _plugin_stop(self, table: Table, q: int, gplay) -> str:
        """What the plug-in at seat ``q`` did to stop the game (``sim.plugin.explain_stop``: the
        decision asked again with a recording callback, on a clone of this state)."""
        from cardsim.sim import plugin as P
        seat = table.seats[q]
        strat = P.load(*seat.plugin, table.spec)
        what = P.explain_stop(strat, table.spec, False,
                              lambda cb: self.clone()._table_choice(table, cb, gplay.copy()))
        return f"plug-in strategy {seat.strategy.name} {what} (seat {q}); the game cannot go on"

    def plugin_view(self, seat: int) -> np.ndarray | None:
        """What a plug-in at ``seat`` is given at this decision (the kernel's own view array, the
        one its ``decide`` reads), or None where it is not that seat's decision or the adapter
        cannot make it. The conformance suite checks it is the same in every world the seat
        cannot tell apart (``resample``): a view hides the cards the seat may not see."""
        return None

    def action_values(self, worlds: int = 32, policy: str | None = "strong",
                      seed: int = 0) -> list[ActionValue] | None:
        """What each legal action of the seat to act is worth to it (``cardsim play``'s hint): the
        determinized evaluation of ``cardsim critique`` (the game's search row with ``worlds`` and
        ``policy``: the cards the seat cannot see dealt again consistent with what it has seen,
        a rollout after each action, the same worlds for every action, a race that drops the
        clearly worse ones) as one ``ActionValue`` per legal action, in ``legal_actions()`` order.
        ``seed`` keys the worlds. None at a chance node, at the end, or where the game's adapter
        does not evaluate (yet); a seat may ask only about its own decision."""
        return None

    def _values(self, codes, ids, run, worlds: int, policy: str | None, seed: int) -> list[ActionValue]:
        """``action_values`` for an adapter: ``codes`` are the kernel's legal action codes (the
        order its critique reads them), ``ids`` the action ids they are; ``run(acts, n, prm, key,
        row, acts_out)`` calls the game's ``critique_eval`` with the search row ``prm``. Sorted
        as ``legal_actions`` lists them."""
        from cardsim.kernels import critique as CK
        from cardsim.sim.critique import evaluator
        from cardsim.sim.registry import get_game
        from cardsim.kernels.rng import mix64
        n = len(codes)
        acts = np.asarray(codes, np.int64)
        prm = evaluator(get_game(self.game.name), self.n, int(worlds), policy)
        row = np.zeros(CK.CR_WIDTH, np.float64)
        out = np.zeros((max(1, n), 4), np.float64)
        key = np.uint64(mix64(np.uint64(int(seed) & (2 ** 63 - 1))))  # (mix64 from Python gives an int: typed back)
        run(acts, n, prm, key, row, out)
        vals = [ActionValue(int(ids[i]), float(out[i, 1]), float(out[i, 2]), int(out[i, 3])) for i in range(n)]
        return sorted(vals, key=lambda v: v.action)

    def is_chance(self) -> bool:
        """A phase machine's default: chance while dealing (``phase`` "deal"), over at "over"."""
        return self.phase == "deal"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _copy_fresh(self, game) -> bool:
        """OpenSpiel makes many initial states: after the first (``_keep_fresh``), each is a
        copy of it. False when there is none yet."""
        fresh = game.__dict__.get("_fresh_state")
        if fresh is not None:
            self.__dict__.update(fresh.clone().__dict__)
        return fresh is not None

    def _begin(self, game, size: int) -> np.ndarray:
        """A new state's game, options, players, and its zeroed kernel state of ``size`` fields
        (field 0: the number of players, as every kernel has it)."""
        self.game, self.opts, self.n = game, game.opts, game.players
        self.st = np.zeros(size, np.int64)
        self.st[0] = self.n
        return self.st

    def _keep_fresh(self) -> None:
        self.game._fresh_state = self.clone()

    def __deepcopy__(self, memo):
        """``clone`` (OpenSpiel clones a Python state with ``copy.deepcopy``: a deep copy would copy
        the game and every logged line, quadratic over a long match)."""
        return self.clone()

    def clone(self):
        c = self.__class__.__new__(self.__class__)
        for k, v in self.__dict__.items():
            if isinstance(v, np.ndarray):
                v = v.copy()
            elif isinstance(v, list):          # a list of lists (the logs) one level down, else flat
                v = [x.copy() for x in v] if v and isinstance(v[0], list) else v.copy()
            c.__dict__[k] = v
        return c

    def _tell(self, text: str, seat: int | None = None, private: str | None = None) -> None:
        """Log ``text`` for every seat (``private`` instead for ``seat``)."""
        for q in range(self.n):
            self._seen[q].append(private if q == seat and private is not None else text)

    @_checked_seat
    def information_state_string(self, seat: int) -> str:
        return f"seat {seat}\n" + "\n".join(self._seen[seat])

    def _checked(self, action) -> int:
        """``action`` as an int, if it is legal here (else ValueError)."""
        action = int(action)
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here")
        return action

    @staticmethod
    def _uniform(cards: int, taken: int) -> list[tuple[int, float]]:
        """Each of the ``cards`` card ids not in the mask ``taken``, equally likely."""
        left = [c for c in range(cards) if not taken >> c & 1]
        return [(c, 1.0 / len(left)) for c in left]

    def _resampled(self, c, seat: int) -> None:
        """In the resampled state ``c``, the other seats' logs say only that it was resampled."""
        for q in range(self.n):
            if q != seat:
                c._seen[q] = [f"a world resampled for seat {seat}", c.observation_string(q)]

    def _resample_with(self, seat: int, rng, deal_again):
        """A clone whose hidden cards ``deal_again(st, gen)`` (a kernel's determinization for
        ``seat``) deals again on a stream seeded from ``rng`` (a ``numpy.random.Generator``);
        at a chance node or the end, the clone as it is."""
        c = self.clone()
        if self.is_chance() or self.is_terminal():
            return c
        g = np.zeros(2, np.uint64)
        seed_stream(g, int(rng.integers(2 ** 62)), 0, np.int64(0))
        deal_again(c.st, g)
        self._resampled(c, seat)
        return c


class FlagState(StepState):
    """A step state whose chance is ``self.chance`` (None: none) and whose end is ``self.over``
    (Tripoli, Telefunken)."""
    chance: object
    over: bool

    def is_chance(self) -> bool:
        return self.chance is not None and not self.over

    def is_terminal(self) -> bool:
        return self.over

    def _chance_or_end(self) -> int | None:
        """``current_player`` at the end (TERMINAL) or a chance node (CHANCE), else None."""
        if self.over:
            return TERMINAL
        return CHANCE if self.chance is not None else None


class ViewedState(FlagState):
    """A flag state whose observations are made once per seat and kept (``_views``) until
    ``apply`` clears them (Telefunken, Contract Rummy: their strings and tensors are the costly
    part of a step); subclasses write ``_observation_string`` / ``_observation_tensor``."""

    def clone(self):
        c = super().clone()
        c._views = dict(self.__dict__.get("_views", {}))     # the same state: the same views
        return c

    def _view(self, kind: str, seat: int, make):
        """A seat's observation, made once until something it could see changes."""
        views = self.__dict__.setdefault("_views", {})
        key = (kind, seat)
        if key not in views:
            views[key] = make(seat)
        return views[key]

    def observation_string(self, seat: int) -> str:
        return self._view("string", seat, self._observation_string)

    def observation_tensor(self, seat: int) -> np.ndarray:
        return self._view("tensor", seat, self._observation_tensor).copy()

    @staticmethod
    def _weighted(cnt) -> list[tuple[int, float]]:
        """Chance over card types, each weighted by its copies left in ``cnt``."""
        total = sum(cnt)
        return [(c, k / total) for c, k in enumerate(cnt) if k]

    def _first_or(self, cut) -> list[tuple[int, float]] | None:
        """The chance outcomes of the first dealer (every seat alike) or of the cut (``cut()``),
        else None."""
        if self.chance == "first":
            return [(q, 1.0 / self.n) for q in range(self.n)]
        return cut() if self.chance == "cut" else None


def new_game(game: str, players: int | None = None, preset: str | None = None,
             options: dict | None = None) -> StepGame:
    """A step game: ``options`` maps option names to values (or their text, as ``-o`` takes)."""
    from cardsim.sim.options import build_options
    from cardsim.sim.registry import check_players, game_names, get_game
    spec = get_game(game) if isinstance(game, str) and game in game_names() else None
    if spec is None or not spec.step:
        raise UsageError(f"no step API for {game!r} yet; games: {', '.join(step_games())}")
    n = check_players(spec, None if players is None else whole(players, "players"))
    if options is not None and not isinstance(options, Mapping):
        raise UsageTypeError(f"options must be a dict of option names to values, got {options!r} "
                             f"({type(options).__name__})")
    pairs = [f"{k}={option_text(v)}" for k, v in (options or {}).items()]
    opts = build_options(spec.options_cls, spec.presets, preset or None, pairs)
    return importlib.import_module(spec.step).make_game(n, opts)
