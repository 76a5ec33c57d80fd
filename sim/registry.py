"""Registries: games, their strategies (ids, parameter schemas, help) and record columns.

A game module in ``sim/games/`` builds one ``GameSpec``; ``games()`` lists them. A seat's
strategy is an integer id plus a float parameter row, so sweeps never recompile.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim.errors import UsageError
from sim.options import ascii_only


@dataclass(frozen=True)
class ParamSpec:
    name: str
    default: float
    lo: float
    hi: float
    help: str
    integer: bool = False     # a count or a 0/1 switch: only whole numbers are accepted


@dataclass(frozen=True)
class StrategySpec:
    name: str
    sid: int
    params: tuple[ParamSpec, ...]
    help: str


def tuned(base: StrategySpec, label: str, source: str, name: str = "strong") -> StrategySpec:
    """A strategy of ``base``'s family (same kernel id) whose defaults are the parameters of
    ``label`` (``"planner:threshold=19.3,..."``, the best point of a committed ``cardsim tune
    --self`` run); ``source`` names that run and the command that reproduces it (its help)."""
    from dataclasses import replace as _replace
    fam, _, rest = label.partition(":")
    if fam != base.name:
        raise ValueError(f"{label!r} is not a {base.name} point")
    values = {k: float(v) for k, v in (x.split("=", 1) for x in rest.split(",") if x)}
    unknown = set(values) - {p.name for p in base.params}
    if unknown:
        raise ValueError(f"{label!r}: {base.name} has no parameter {sorted(unknown)[0]}")
    params = tuple(_replace(p, default=values.get(p.name, p.default)) for p in base.params)
    return StrategySpec(name, base.sid, params,
                        f"{base.name} with the parameters of the self-consistent field found by {source} "
                        f"(iterated best response: no {base.name} point beats a table of it at that budget)")


@dataclass(frozen=True)
class Column:
    name: str          # "{p}" stands for the seat number
    dtype: str
    help: str


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    rules: str
    rules_version: int
    players: tuple[int, int, int]            # min, max, default
    options_cls: type
    presets: dict
    strategies: dict
    n_params: int
    record_width: int
    reason_names: tuple
    error_names: tuple
    err_col: int
    columns: list
    play_batch: Callable                      # (seed, first, count, opts, sids, params, check, rec)
    record_columns: Callable                  # (rec, n_players) -> {column: array}
    replay: Callable                          # (seed, deal, opts, sids, params, check) -> (state, trace)
    format_trace: Callable                    # (trace, state, seat_names) -> [lines]
    state_payouts: Callable                   # (state, n_players) -> [payout per seat]
    state_error: Callable                     # (state) -> check-mode error code (0 = none)
    payout_label: str = "payout (chips)"      # what payout_{p} is, for reports ("score (minus penalty points)")
    payout_unit: str = "chips"                # its unit in running text ("chips per deal")
    seat_extras: tuple = ()                   # (name, column with {p}): per-seat columns experiments keep
    trace_events: Callable | None = None      # (trace, state, seat_names) -> [event dicts] (sim.trace)
    zero_sum: bool = False                    # payout_{p} of every row sums to 0 (checked by --check)
    record_check: Callable | None = None      # (cols, opts array, n) -> (row, problem) | None: --check's
                                              # checks of the record columns themselves
    derived_columns: Callable | None = None   # (cols, opts array, n) -> None: columns computed from deal_id


def kernel_fields(K, **over) -> dict:
    """The GameSpec fields a kernel module ``K`` gives under the shared names (RULES_VERSION,
    N_PARAMS, RECORD_COLS, REASON_NAMES, ERROR_NAMES, RC_ERR, ERR, play_batch); ``over``
    replaces any of them."""
    fields = {"rules_version": K.RULES_VERSION, "n_params": K.N_PARAMS, "record_width": K.RECORD_COLS,
              "reason_names": K.REASON_NAMES, "error_names": K.ERROR_NAMES,
              "err_col": getattr(K, "RC_ERR", None),
              "play_batch": lambda *args: K.play_batch(*args),        # looked up when called
              "state_error": lambda st: int(st[K.ERR])}
    fields.update(over)
    return fields


class RecordRangeError(RuntimeError):
    """A record value does not fit its column's dtype (a bug: the dtype or an option cap is
    too narrow). Carries the column, the row and the value; the runner names the deal."""

    def __init__(self, column: str, row: int, value: int, dtype):
        super().__init__(f"record column {column} = {value} does not fit its type {np.dtype(dtype).name}")
        self.column, self.row, self.value, self.dtype = column, row, value, np.dtype(dtype).name

    def __reduce__(self):  # travels back from Dask workers intact
        return (RecordRangeError, (self.column, self.row, self.value, self.dtype))


def narrow(values: np.ndarray, dtype, column: str) -> np.ndarray:
    """``values`` as ``dtype``, refusing (RecordRangeError) any value the cast would change
    (a wrapped integer, a bool from anything but 0/1), so no record is ever silently wrong."""
    out = np.asarray(values).astype(dtype)
    if len(out) and not np.array_equal(out, values):
        row = int(np.flatnonzero(out != values)[0])
        raise RecordRangeError(column, row, int(values[row]), dtype)
    return out


def record_fields(rec: np.ndarray, fields, n: int = 0, base: int = 0, each: str = "p", **names) -> dict:
    """Record columns from ``(name, column, dtype)`` rows: ``rec[:, base + column]`` as dtype
    (checked: ``narrow``). A name holding ``{p}`` (``each``) gives one column per seat (or
    side) 0..n-1, read from ``column + p``; ``names`` fill the other fields of the name
    (e.g. ``d=3``)."""
    cols = {}
    for name, col, dtype in fields:
        key = "{" + each + "}"
        if key in name:
            for p in range(n):
                full = name.format(**names, **{each: p})
                cols[full] = narrow(rec[:, base + col + p], dtype, full)
        else:
            full = name.format(**names)
            cols[full] = narrow(rec[:, base + col], dtype, full)
    return cols


@dataclass(frozen=True)
class Seat:
    """A strategy bound to parameter values, as given by ``name:key=value,...``."""
    strategy: StrategySpec
    values: tuple[float, ...] = field(default=())

    @property
    def label(self) -> str:
        if not self.strategy.params:
            return self.strategy.name
        kv = ",".join(f"{p.name}={_num(v)}" for p, v in zip(self.strategy.params, self.values))
        return f"{self.strategy.name}:{kv}"

    def as_dict(self) -> dict:
        return {"strategy": self.strategy.name,
                "params": {p.name: v for p, v in zip(self.strategy.params, self.values)}}


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


GAME_NAMES = ("tonk", "telefunken", "marafon", "trionfo", "tripoli", "contract_rummy")


def games() -> dict[str, GameSpec]:
    """Every game's spec (imports every game module: its Python side and its kernels' dispatchers,
    none of which compiles or loads machine code until called)."""
    return {name: get_game(name) for name in GAME_NAMES}


def get_game(name: str) -> GameSpec:
    """The spec of one game, importing that game's modules only (``cardsim run tonk`` never
    loads another game's kernels)."""
    import importlib
    key = name.strip().lower()
    if key not in GAME_NAMES:
        raise UsageError(f"unknown game {name!r}; games: {', '.join(GAME_NAMES)}")
    return importlib.import_module(f"sim.games.{key}").GAME


_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def parse_seat(game: GameSpec, text: str) -> Seat:
    """``"knocker:threshold=8"`` -> Seat with every parameter checked: a known name given
    once, a plain decimal number (ASCII digits; no nan/inf) within its range, a whole number
    for an integer parameter."""
    name, _, rest = text.strip().partition(":")
    if name not in game.strategies:
        raise UsageError(f"unknown strategy {name!r} for {game.name}; strategies: {', '.join(game.strategies)}")
    spec = game.strategies[name]
    values = {p.name: p.default for p in spec.params}
    given = set()
    for pair in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, val = pair.partition("=")
        key, val = key.strip(), val.strip()
        if key not in values:
            accepted = ", ".join(values) or "none"
            raise UsageError(f"strategy {name}: unknown parameter {key!r}; parameters: {accepted}")
        if not eq or not val:
            raise UsageError(f"strategy {name}: missing value for parameter {key} (write {key}=VALUE)")
        if key in given:
            raise UsageError(f"strategy {name}: parameter {key} is given twice; give it once")
        given.add(key)
        ascii_only(f"strategy {name}: parameter {key}", val)
        if not _NUMBER.fullmatch(val):
            raise UsageError(f"strategy {name}: parameter {key}={val!r} is not a number")
        num = float(val)
        p = next(p for p in spec.params if p.name == key)
        if not (p.lo <= num <= p.hi):
            raise UsageError(f"strategy {name}: parameter {key}={val} is out of range [{_num(p.lo)}, {_num(p.hi)}]")
        if p.integer and not num.is_integer():
            raise UsageError(f"strategy {name}: parameter {key}={val} must be a whole number "
                             f"({_num(p.lo)}..{_num(p.hi)})")
        values[key] = num
    return Seat(spec, tuple(values[p.name] for p in spec.params))


def seat_table(game: GameSpec, specs: list[str], n_players: int) -> list[Seat]:
    """One Seat per player: no spec = greedy everywhere, one spec = all seats, else one each."""
    specs = list(specs or [])
    if not specs:
        specs = ["greedy"]
    if len(specs) == 1:
        specs = specs * n_players
    if len(specs) != n_players:
        raise UsageError(f"{len(specs)} strategies given for {n_players} players; give one for all seats or one per seat")
    return [parse_seat(game, s) for s in specs]


def seat_arrays(game: GameSpec, seats: list[Seat]) -> tuple[np.ndarray, np.ndarray]:
    """Strategy ids and the float parameter matrix the kernels read."""
    sids = np.array([s.strategy.sid for s in seats], dtype=np.int64)
    params = np.zeros((len(seats), game.n_params), dtype=np.float64)
    for i, s in enumerate(seats):
        params[i, : len(s.values)] = s.values
    return sids, params


def check_players(game: GameSpec, n: int | None) -> int:
    lo, hi, default = game.players
    if n is None:
        return default
    if not lo <= n <= hi:
        raise UsageError(f"{game.name} takes {lo} to {hi} players (got {n})")
    return n
