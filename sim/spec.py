"""Shared types of the registry: what a game module builds (``GameSpec`` with its strategies'
``StrategySpec`` / ``ParamSpec`` schemas and record ``Column`` help) and the record-column helpers
every game uses. Game modules depend on this module (and on ``sim.options``, ``sim.notation``,
``sim.trace``), never on each other or on ``sim.registry``, which finds them by name.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np


def num_text(v: float) -> str:
    """A parameter value as labels and messages write it: whole numbers without a point."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


@dataclass(frozen=True)
class ParamSpec:
    name: str
    default: float
    lo: float
    hi: float
    help: str
    integer: bool = False     # a count or a 0/1 switch: only whole numbers are accepted
    choices: tuple = ()       # names of the values 0, 1, ...: the parameter takes a name or its index
                              # (a search strategy's rollout policy); labels print the name
    slot: str = ""            # the kernel constant naming this parameter's slot in the row (issue 42: bound
                              # by name; tests/test_conformance.py checks K.<slot> is its index)

    def show(self, v: float) -> str:
        """The value as a label writes it (a choice by its name)."""
        if self.choices and float(v).is_integer() and 0 <= int(v) < len(self.choices):
            return self.choices[int(v)]
        return num_text(v)

    def read(self, text: str) -> float | None:
        """A choice's name as its index (None: not a name of this parameter)."""
        return float(self.choices.index(text)) if text in self.choices else None


@dataclass(frozen=True)
class StrategySpec:
    name: str
    sid: int
    params: tuple[ParamSpec, ...]
    help: str
    kernel_row: Callable | None = None    # values -> the kernel's parameter row, where it is not the values
                                          # themselves (search: its rollout policy's sid and parameters)
    search: bool = False                  # a search strategy (its kernels compile on first use: compile_search)


def with_defaults(params: tuple, defaults: dict) -> tuple:
    """``params`` with the defaults of the names in ``defaults`` replaced (a family built on
    another's parameters, starting from another point; issue 41's experts)."""
    return tuple(replace(p, default=float(defaults.get(p.name, p.default))) for p in params)


def tuned(base: StrategySpec, label: str, source: str, name: str = "strong") -> StrategySpec:
    """A strategy of ``base``'s family (same kernel id) whose defaults are the parameters of
    ``label`` (``"planner:threshold=19.3,..."``, the best point of a committed ``cardsim tune
    --self`` run); ``source`` names that run and the command that reproduces it (its help)."""
    fam, _, rest = label.partition(":")
    if fam != base.name:
        raise ValueError(f"{label!r} is not a {base.name} point")
    values = {k: float(v) for k, v in (x.split("=", 1) for x in rest.split(",") if x)}
    unknown = set(values) - {p.name for p in base.params}
    if unknown:
        raise ValueError(f"{label!r}: {base.name} has no parameter {sorted(unknown)[0]}")
    params = with_defaults(base.params, values)
    return StrategySpec(name, base.sid, params,
                        f"{base.name} with the parameters of the self-consistent field found by {source} "
                        f"(iterated best response: no {base.name} point beats a table of it at that budget)")


# The kernel parameter row of a search strategy (issue 19; every game's kernels read it alike,
# kernels/search.py's SP_* slots): [worlds, rollouts, budget, policy sid, four game-specific
# slots, the policy's parameters from slot 8 (SP_PRM) on]
SEARCH_ROW_EXTRA = 4


def search_strategy(sid: int, strategies: list, policies: tuple, worlds: int, budget: int, help: str,
                    extra: tuple = (), policy: str = "strong", rollouts: int = 1,
                    name: str = "search") -> StrategySpec:
    """The determinized Monte Carlo search strategy of a game (kernel id ``sid``): at each
    decision it samples ``worlds`` deals of the cards its seat cannot see, plays every legal
    action out ``rollouts`` times in each with the built-in ``policy`` at every seat, and
    takes the best mean. ``policies``: the names (of ``strategies``) it may roll out with;
    ``extra``: up to four game-specific parameters (the row's slots 4..7)."""
    from cardsim.kernels import search as KS        # the search row's slots (loaded with the game's kernels)
    by_name = {s.name: s for s in strategies}
    pols = tuple(by_name[n] for n in policies)
    if len(extra) > SEARCH_ROW_EXTRA:
        raise ValueError("at most four game-specific search parameters")
    params = (
        ParamSpec("worlds", float(worlds), 1.0, 4096.0, "determinizations (deals of the unseen cards) per decision",
                  integer=True, slot="SP_WORLDS"),
        ParamSpec("rollouts", float(rollouts), 1.0, 64.0, "rollouts per determinization and legal action",
                  integer=True, slot="SP_ROLLOUTS"),
        ParamSpec("budget", float(budget), 0.0, 1e7, "at most this many rollouts per decision (fewer "
                  "determinizations where there are many legal actions; at least one each); 0 = no cap",
                  integer=True, slot="SP_BUDGET"),
        ParamSpec("policy", float(policies.index(policy)), 0.0, float(len(pols) - 1),
                  "the built-in strategy (with its default parameters) every seat plays in the rollouts: "
                  + ", ".join(f"{i} {n}" for i, n in enumerate(policies)), integer=True, choices=tuple(policies),
                  slot="SP_POLICY"),
    ) + tuple(extra)
    where = [getattr(KS, p.slot) for p in params[:4]] + [KS.SP_EXTRA + j for j in range(len(extra))]

    def kernel_row(values):
        """The kernel's row: each value at its slot (the extras from SP_EXTRA on), the policy as its
        strategy id, then the policy's own default row from SP_PRM."""
        row = [0.0] * KS.SP_PRM
        for at, v in zip(where, values):
            row[at] = float(v)
        pol = pols[int(values[3])]
        row[KS.SP_POLICY] = float(pol.sid)
        return row + [p.default for p in pol.params]
    return StrategySpec(name, sid, params, help, kernel_row=kernel_row, search=True)


def plugin_param(name: str, default: float, lo: float, hi: float, help: str = "", integer: bool = False) -> ParamSpec:
    """One parameter of a plug-in: name, default, range [lo, hi], help (``integer``: whole numbers)."""
    return ParamSpec(name, float(default), float(lo), float(hi), help, integer)


@dataclass(frozen=True)
class PluginStrategy:
    """A plug-in strategy (``cardsim.plugin.Strategy``, ``sim.plugin``): the game it plays, a
    numba ``decide(view, legal, n, prm) -> index or -1``, the built-in ``base`` label that takes
    the decisions left to it, parameters (``plugin_param`` rows) and help."""
    game: str
    decide: Any
    base: str = "greedy"
    params: tuple = ()
    help: str = ""
    kinds: tuple = ()          # the decision kinds decide is asked (the game's K_* values); () = every kind

    def __post_init__(self):
        object.__setattr__(self, "params", tuple(self.params))
        object.__setattr__(self, "kinds", tuple(int(k) for k in self.kinds))


@dataclass(frozen=True)
class Column:
    """One record column (or a family: ``{p}`` stands for the seat number, ``{h}`` for a hand,
    ``{s}`` for a side...): its Parquet type and what it means. ``codes`` names the values of a
    code column (``{0: "C", 1: "D", ...}``): the description lists them and the Python API
    reads the column as a categorical with those names (``sim.columns``)."""
    name: str
    dtype: str
    help: str
    codes: dict | None = None
    seat_mask: bool = False       # a bit mask of seats (bit p: seat p): the API adds NAME_p booleans

    @property
    def description(self) -> str:
        """The help, with the codes spelled out (what the README, ``cardsim columns`` and the
        Parquet field metadata give)."""
        if self.seat_mask:
            return f"{self.help} (the Python API's records add one boolean column {self.name}_p per seat p)"
        if not self.codes:
            return self.help
        items = [f"{k} {v}" for k, v in self.codes.items()]
        if len(items) > 12:                      # a card id: the first ones and the last
            items = items[:3] + ["...", items[-1]]
        return f"{self.help}: " + ", ".join(items)


@dataclass(frozen=True)
class GameTools:
    """What the project's tools (``scripts/``, the conformance tests) need to know of a game, declared
    with the game (issue 42) so that no script keeps a list of games. Each field names what reads it."""
    digest_records: int                      # scripts/tools/record_digests.py: records of each fixed run
    digest_slow: dict = field(default_factory=dict)   # preset -> its records instead (a slow preset)
    tune: tuple = ()                         # scripts/tools/tune_strong.py: the ``cardsim tune`` arguments behind
                                             # ``strong`` (family and parameter ranges, budget, rounds)
    bench: tuple = ()                        # scripts/tools/bench.py --baseline: throughput rows (preset, strategy,
                                             # players, records)
    bench_players: int = 0                   # scripts/tools/bench.py: players of the start-up (first deal) figure;
                                             # 0: the game's default
    search_records: int = 1000               # scripts/tools/bench.py --game search: records per row
    critique_decisions: int = 1000           # scripts/tools/bench.py --game critique: decisions at --scale 1
    openspiel: tuple = ()                    # scripts/tools/bench.py --game openspiel: bridge games timed
    old_strong: str = ""                     # scripts/tools/bench.py --game strong: issue 16's ``strong`` (the
                                             # baseline row of issue 41's speed target)
    bench_note: str = ""                     # scripts/tools/bench.py: the sentence under its throughput table (its target)
    issue14_cold: float | None = None        # scripts/tools/bench.py --game startup: cold compile when issue 14 was filed
    quick: tuple = ()                        # tests/test_conformance.py: options making a record short (bridge spelling)


# The record columns every game gives (``record_columns``), which the runner's statistics read:
# the seat (or side) that won, the end reason's code, whether a cap stopped the record, its turns
# (or the game's unit of length), and each seat's payout (``payout_{p}``).
REQUIRED_COLUMNS = ("winner", "end_reason", "truncated", "turns")


def quick_options(spec) -> dict:
    """The options that keep a record short (``GameTools.quick``, the bridge's spelling) as
    ``-o`` option texts: a list's values joined by ``_`` (``hand_sizes=2_2_3``) are joined by
    commas. The test suite's records and ``sim.warm``'s step game use them."""
    defaults = spec.options_cls()
    out = {}
    for text in (spec.tools.quick if spec.tools else ()):
        name, _, value = text.partition("=")
        if isinstance(getattr(defaults, name), tuple):
            value = ",".join(x for x in value.split("_") if x)
        out[name] = value
    return out


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
    record_unit: tuple = ("deal", "deals")    # what one record row is (singular, plural): "game", "session"
    sides: tuple = ()                         # partnerships: the seats of each side ((0, 2), (1, 3)); a seat's
                                              # win rate is then its side's
    seat_extras: tuple = ()                   # (name, column with {p}): per-seat columns experiments keep
    trace_events: Callable | None = None      # (trace, state, seat_names) -> [event dicts] (sim.trace)
    zero_sum: bool = False                    # payout_{p} of every row sums to 0 (checked by --check)
    record_check: Callable | None = None      # (cols, opts array, n) -> (row, problem) | None: --check's
                                              # checks of the record columns themselves
    derived_columns: Callable | None = None   # (cols, opts array, n) -> None: columns computed from deal_id
    unplayed: Callable | None = None          # (cols) -> {column: bool mask}: record slots of hands the row
                                              # did not play, written as nulls (sim.io.table_from_columns)
    compile_search: Callable | None = None    # () -> the game's search callback, compiled (or loaded from the
                                              # cache) now: the kernels compile it only for a table with a
                                              # search seat (kernels.jit.lazy_cfunc; cardsim warmup)
    plugin: dict | None = None                # plug-in strategies: {"offset": sid of a plug-in seat over its
                                              # base's, "n_params": its parameter slots (the row has one
                                              # more: the kinds mask), "kinds": decision kinds, "error":
                                              # the code of an illegal plug-in action, optional "bench":
                                              # {"builtin", "plugin", "players", "other"} labels for
                                              # scripts/tools/bench.py --game plugins}; None: not taken
    critique: dict | None = None              # cardsim critique (issue 40, sim.critique: CRITIQUE_KEYS):
                                              # the game's critique kernel and how to print its positions
    order: int = 100                          # where ``cardsim games`` lists the game (then by name)
    step: str | None = None                   # the module of its step adapter (``sim.step``: its
                                              # ``make_game(n, opts)``; the OpenSpiel bridge's game)
    compile_seconds: int = 30                 # cold compile of import + first deal, 2 cores (rounded up
                                              # from results/BENCHMARKS.md): the compile notice quotes it
    search_seconds: int = 30                  # the search callbacks' compile, the first time a search
                                              # seat plays (rough)
    tools: GameTools | None = None            # what scripts/ need to know of it (GameTools)
    odds: str | None = None                   # the module of its contract odds (``cardsim odds``, sim.odds):
                                              # ODDS = {"contract": fn, "holding": fn (optional)}


def plugin_fields(K) -> dict:
    """The part of ``GameSpec.plugin`` a game's kernel module ``K`` defines: the sid offset of a
    plug-in seat (``K.PLUGIN``), its parameter slots (``K.N_PLUG_PARAMS``) and the code of an
    illegal plug-in answer (``K.E_PLUGIN``)."""
    return {"offset": K.PLUGIN, "n_params": K.N_PLUG_PARAMS, "error": K.E_PLUGIN}


def kernel_fields(K, **over) -> dict:
    """The GameSpec fields a kernel module ``K`` gives under the shared names (RULES_VERSION,
    N_PARAMS, RECORD_COLS, REASON_NAMES, ERROR_NAMES, RC_ERR, ERR, play_batch, search_cfunc);
    ``over`` replaces any of them."""
    fields = {"rules_version": K.RULES_VERSION, "n_params": K.N_PARAMS, "record_width": K.RECORD_COLS,
              "reason_names": K.REASON_NAMES, "error_names": K.ERROR_NAMES,
              "err_col": getattr(K, "RC_ERR", None),
              "play_batch": lambda *args: K.play_batch(*args),        # looked up when called
              "compile_search": lambda: K.search_cfunc(),
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


def penalty_game_columns(kern, rec: np.ndarray, n: int) -> dict:
    """The whole-game columns of a penalty-points rummy record (Telefunken, Contract Rummy:
    kernel ``kern`` names its columns alike): header, payout = minus the total, total."""
    cols = record_fields(rec, (("dealer", kern.RC_DEALER, np.int8), ("end_reason", kern.RC_REASON, np.int8),
                               ("winner", kern.RC_WINNER, np.int8), ("winners", kern.RC_WINNERS, np.int8),
                               ("turns", kern.RC_TURNS, np.int32), ("reshuffles", kern.RC_RESHUF, np.int32),
                               ("truncated", kern.RC_TRUNC, bool)))
    for p in range(n):
        cols[f"payout_{p}"] = (-rec[:, kern.RC_TOTAL + p]).astype(np.int32)
    cols.update(record_fields(rec, (("total_{p}", kern.RC_TOTAL, np.int32),), n))
    return cols
