"""Registries: games, their strategies (ids, parameter schemas, help) and record columns.

A game is a package in ``sim/games/`` whose ``GAME`` is its ``GameSpec`` (the types are in
``sim.spec``, which game modules import; this module discovers the games by their packages and
the ``cardsim.games`` entry points, so no list of games is kept and nothing imports in a
circle); ``games()`` lists them. A seat's strategy is an integer id plus a float parameter row, so
sweeps never recompile.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from dataclasses import dataclass, field, replace

import numpy as np

from cardsim.sim.errors import UsageError
from cardsim.sim.options import ascii_only
from cardsim.sim.spec import num_text as _num
from cardsim.sim.spec import (Column, GameSpec, ParamSpec, RecordRangeError, StrategySpec,  # noqa: F401 - re-exported
                              kernel_fields, narrow, record_fields, tuned)


@dataclass(frozen=True)
class Seat:
    """A strategy bound to parameter values, as given by ``name:key=value,...``. A plug-in
    seat (``file.py:NAME:key=value``, ``sim.plugin``) also names where its Strategy is
    (``plugin`` = (file or "" for an entry point, name)) and its ``base`` built-in seat."""
    strategy: StrategySpec
    values: tuple[float, ...] = field(default=())
    plugin: tuple = ()
    base: "Seat | None" = None

    @property
    def label(self) -> str:
        if not self.strategy.params:
            return self.strategy.name
        kv = ",".join(f"{p.name}={p.show(v)}" for p, v in zip(self.strategy.params, self.values))
        return f"{self.strategy.name}:{kv}"

    def as_dict(self) -> dict:
        return {"strategy": self.strategy.name,
                "params": {p.name: v for p, v in zip(self.strategy.params, self.values)}}


GAME_GROUP = "cardsim.games"     # entry points of games installed from another distribution


@functools.cache
def _discovered() -> dict[str, str]:
    """Every game's name -> the module whose ``GAME`` is its spec, found without importing any
    game: each package under ``sim/games/`` (a game lives in its own package there), then each
    entry point of the group ``cardsim.games`` (``name = "package.module"``, a game installed by
    another distribution; a built-in name wins)."""
    import pkgutil
    from importlib.metadata import entry_points

    import cardsim.sim.games as builtin
    found = {m.name: f"{builtin.__name__}.{m.name}" for m in pkgutil.iter_modules(builtin.__path__) if m.ispkg}
    for ep in entry_points(group=GAME_GROUP):
        if re.fullmatch(r"[a-z][a-z0-9_]*", ep.name) and ep.name not in found:
            found[ep.name] = ep.value
    return dict(sorted(found.items()))


def game_names() -> tuple[str, ...]:
    """The names of every discovered game (sorted; ``games()`` gives them in listing order)."""
    return tuple(_discovered())


def __getattr__(name: str):
    if name == "GAME_NAMES":          # discovered on first use: importing the registry scans nothing
        return game_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def games() -> dict[str, GameSpec]:
    """Every game's spec in listing order (``GameSpec.order``, then name). Imports every game
    module: its Python side and its kernels' dispatchers, none of which compiles or loads machine
    code until called."""
    specs = [get_game(name) for name in game_names()]
    return {g.name: g for g in sorted(specs, key=lambda g: (g.order, g.name))}


def get_game(name: str) -> GameSpec:
    """The spec of one game, importing that game's modules only (``cardsim run tonk`` never
    loads another game's kernels)."""
    import importlib
    key = name.strip().lower()
    where = _discovered().get(key)
    if where is None:
        raise UsageError(f"unknown game {name!r}; games: {', '.join(game_names())}")
    return importlib.import_module(where).GAME


_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def split_label(text: str) -> tuple[str, str]:
    """A strategy label's name and its ``key=value,...`` text: ``("knocker", "threshold=8")``,
    ``("my.py:NAME", "a=1")`` for a plug-in file's label."""
    from cardsim.sim import plugin as P
    parts = P.split(text)
    if parts is not None:
        return f"{parts[0]}:{parts[1]}", parts[2]
    name, _, rest = text.strip().partition(":")
    return name, rest


def _label_parts(spec: GameSpec | None, label: str):
    """(name as tables show it, [(key, value text)], the parameters' specs or None) of a strategy
    label: a built-in's, or a plug-in's (``dir/file.py:NAME:...``: shown as ``file:NAME``; its
    specs, and so its defaults, known where the plug-in is loaded in this process)."""
    from cardsim.sim import plugin as P
    name, rest = split_label(label)
    pairs = [tuple(kv.partition("=")[::2]) for kv in rest.split(",") if kv] if rest else []
    parts = P.split(label)
    if parts is not None:
        params = P.loaded_params(parts[0], parts[1])
        return f"{Path(parts[0]).stem}:{parts[1]}", pairs, params
    strat = spec.strategies.get(name) if spec is not None else None
    return name, pairs, (strat.params if strat is not None else None)


def _value(params, key: str, text: str):
    """A label's value text as a number (a choice's name as its index); the text where it is neither."""
    by_name = {p.name: p for p in params or ()}
    named = by_name[key].read(text) if key in by_name else None
    if named is not None:
        return named
    try:
        return float(text)
    except ValueError:
        return text


def short_labels(game: GameSpec | str, labels) -> dict[str, str]:
    """Each of ``labels`` as tables and plots show it beside the others: the parameters that
    differ from the strategy's defaults (``"watcher:threshold=8,decay=1,wary_cards=2"`` ->
    ``"watcher:decay=1"``; all defaults -> the bare name), and every parameter whose value tells
    two labels of the same strategy apart even at its default (``knocker:threshold=6`` beside
    ``knocker:threshold=8``, not ``knocker``). A plug-in's label is its file's stem, its name and
    its parameters (those at their defaults dropped where the plug-in is loaded). Two different
    labels never show the same text: where they would, they show in full. The full labels stay
    in the metadata and ``--json``; a label the game does not know is shown as it is."""
    try:
        spec = get_game(game) if isinstance(game, str) else game
    except Exception:  # noqa: BLE001 - labels of an unknown game print as they are
        spec = None
    labels = list(dict.fromkeys(str(x) for x in labels))
    parts = {lab: _label_parts(spec, lab) for lab in labels}
    telling: dict[str, set] = {}
    for name in {v[0] for v in parts.values()}:
        group = [v for v in parts.values() if v[0] == name]
        keys = dict.fromkeys(k for v in group for k, _ in v[1])
        values = [{k: _value(v[2], k, t) for k, t in v[1]} for v in group]
        telling[name] = {k for k in keys if len({repr(d.get(k)) for d in values}) > 1}
    short = {}
    for lab, (name, pairs, params) in parts.items():
        defaults = {p.name: float(p.default) for p in params or ()}
        kept = [f"{k}={t}" for k, t in pairs
                if k in telling[name] or k not in defaults or _value(params, k, t) != defaults[k]]
        short[lab] = name + (":" + ",".join(kept) if kept else "")
    seen: dict[str, list] = {}
    for lab, text in short.items():
        seen.setdefault(text, []).append(lab)
    for text, same in seen.items():
        if len(same) > 1:
            for lab in same:
                short[lab] = lab
    return short


def short_label(game: GameSpec | str, label: str) -> str:
    """A strategy label for tables, shown alone (``short_labels`` of that label)."""
    return short_labels(game, [label])[str(label)]


def parse_seat(game: GameSpec, text: str) -> Seat:
    """``"knocker:threshold=8"`` -> Seat with every parameter checked: a known name given
    once, a plain decimal number (ASCII digits; no nan/inf) within its range, a whole number
    for an integer parameter. ``"my.py:NAME:threshold=5"`` (or an entry point's name) seats a
    plug-in strategy (``sim.plugin``) whose parameters are checked alike."""
    from cardsim.sim import plugin as P
    parts = P.split(text)
    if parts is None:
        name, _, rest = text.strip().partition(":")
        if name not in game.strategies and name in P.entry_point_names():
            parts = ("", name, rest)
    if parts is not None:
        source, name, rest = parts
        strat = P.load(source, name, game)
        base = parse_seat(game, strat.base)
        if base.plugin:
            raise UsageError(f"{name}: a plug-in's base must be a built-in strategy (got {strat.base!r})")
        if len(strat.params) > game.plugin["n_params"]:
            raise UsageError(f"{name}: at most {game.plugin['n_params']} plug-in parameters in {game.name} "
                             f"(it declares {len(strat.params)})")
        label = f"{source}:{name}" if source else name
        spec = StrategySpec(label, game.plugin["offset"] + base.strategy.sid, strat.params,
                            strat.help or f"plug-in strategy {label} (base {base.label})")
        return replace(_parse_params(spec, rest), plugin=(source, name), base=base)
    name, _, rest = text.strip().partition(":")
    if name not in game.strategies:
        raise UsageError(f"unknown strategy {name!r} for {game.name}; strategies: {', '.join(game.strategies)}")
    return _parse_params(game.strategies[name], rest)


def _parse_params(spec: StrategySpec, rest: str) -> Seat:
    name = spec.name
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
        p = next(p for p in spec.params if p.name == key)
        named = p.read(val)
        if named is not None:
            values[key] = named
            continue
        if not _NUMBER.fullmatch(val):
            if p.choices:
                raise UsageError(f"strategy {name}: parameter {key}={val!r} is none of {', '.join(p.choices)}")
            raise UsageError(f"strategy {name}: parameter {key}={val!r} is not a number")
        num = float(val)
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
    """Strategy ids and the float parameter matrix the kernels read (a plug-in seat: its
    base's parameters; its own are ``seat_plugin``'s)."""
    sids = np.array([s.strategy.sid for s in seats], dtype=np.int64)
    params = np.zeros((len(seats), game.n_params), dtype=np.float64)
    for i, s in enumerate(seats):
        src = s.base if s.plugin else s
        values = src.values
        if src.strategy.kernel_row is not None:          # a search seat: its policy's row appended
            values = src.strategy.kernel_row(values)
        params[i, : len(values)] = values
    return sids, params


def plugin_codes(seats) -> dict[str, str]:
    """``{"file.py:NAME" (or an entry point's name): sha256 of its code}`` for the plug-ins among
    ``seats`` (``sim.plugin.code_digest``): in a run's metadata beside the seats, so that its
    identity (``--resume``, a replay from its file) covers the plug-in's code. Empty without one."""
    from cardsim.sim import plugin as P
    out = {}
    for s in seats:
        if s.plugin:
            source, name = s.plugin
            out[f"{source}:{name}" if source else name] = P.code_digest(source, name)
    return dict(sorted(out.items()))


def seat_plugin(game: GameSpec, seats: list[Seat], check: bool = False):
    """(decide function, plug-in parameter matrix) of the plug-in at the table, or (None,
    None) when every seat is built in. One plug-in per table (it may take several seats).
    ``check`` (``--check``): decide compiled with bounds checking (``sim.plugin.compiled``)."""
    plugged = {s.plugin for s in seats if s.plugin}
    if not plugged:
        return None, None
    if len(plugged) > 1:
        raise UsageError("one plug-in strategy per table: " + ", ".join(sorted(f"{a}:{b}" if a else b
                                                                             for a, b in plugged)))
    from cardsim.sim import plugin as P
    (source, name), = plugged
    strat = P.load(source, name, game)
    k = game.plugin["n_params"]
    pprm = np.zeros((len(seats), k + 1), dtype=np.float64)
    mask = sum(1 << int(x) for x in strat.kinds) if strat.kinds else (1 << len(game.plugin["kinds"])) - 1
    for i, s in enumerate(seats):
        if s.plugin:
            pprm[i, : len(s.values)] = s.values
            pprm[i, k] = mask
    return P.compiled(strat, check), pprm


def check_players(game: GameSpec, n: int | None) -> int:
    lo, hi, default = game.players
    if n is None:
        return default
    if not lo <= n <= hi:
        raise UsageError(f"{game.name} takes {lo} to {hi} players (got {n})")
    return n
