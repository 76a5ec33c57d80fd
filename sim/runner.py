"""Batch runner: shards of deals on all cores, streamed to Parquet, summarised on the fly.

Deals are independent (their randomness is keyed by seed and deal index), so a run is a
sequence of shards ``[first, first + size)`` each played by the game's parallel kernel
(numba ``prange`` over chunks of deals). Memory is bounded by the shard size whatever the
number of deals, and the rows do not depend on the number of worker threads.
"""
from __future__ import annotations

import dataclasses
import json
import platform
from dataclasses import dataclass, field
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Callable

import numba
import numpy as np

from cardsim.sim.errors import CheckError, PluginError, UsageError
from cardsim.sim.executor import LocalExecutor
from cardsim.sim.drive import drive, shard_layout, timing_meta
from cardsim.sim.interrupt import held_call
from cardsim.sim.limits import DEAL_LIMIT, check_deal_range, check_seed  # noqa: F401 (re-exported)
from cardsim.sim.io import iter_record_batches, read_output_meta, read_run_meta
from cardsim.sim.store import ShardStore
from cardsim.sim.options import build_options, options_dict
from cardsim.sim.registry import (GameSpec, RecordRangeError, Seat, check_players, get_game, parse_seat, seat_arrays,
                                  plugin_codes, seat_plugin, seat_table)
from cardsim.sim.stats import Accumulator
from cardsim.sim.trace import event, lines
from cardsim.sim.sequential import with_sequential

DEFAULT_SHARD = 1 << 18
SHARD_BYTES = 4 << 30             # record buffer of one shard (shard size x record width x 4 bytes)


@dataclass
class RunConfig:
    """Everything that determines the rows of a run (workers and shard size do not).
    Plain, picklable data: Dask workers receive it with each shard."""
    game_name: str
    n_players: int
    options: object
    preset: str | None
    seats: list[Seat]
    seed: int
    deals: int
    first_deal: int = 0
    check: bool = False
    workers: int = field(default_factory=lambda: max_workers())
    shard_size: int = DEFAULT_SHARD

    @property
    def game(self) -> GameSpec:
        return get_game(self.game_name)

    @property
    def option_array(self) -> np.ndarray:
        return self.options.to_array(self.n_players)

    def meta(self) -> dict:
        return {
            "game": self.game.name,
            "rules_version": self.game.rules_version,
            "players": self.n_players,
            "preset": self.preset,
            "options": options_dict(self.options),
            "seats": [dict(seat=i, label=s.label, **s.as_dict()) for i, s in enumerate(self.seats)],
            **({"plugins": codes} if (codes := plugin_codes(self.seats)) else {}),
            "seed": self.seed,
            "first_deal": self.first_deal,
            "deals": self.deals,
            "check": self.check,
            "reason_names": list(self.game.reason_names),
            "versions": package_versions(),
        }


def max_workers() -> int:
    return int(numba.config.NUMBA_NUM_THREADS)


def package_versions() -> dict:
    out = {"python": platform.python_version()}
    for pkg in ("cardsim", "numba", "numpy", "pyarrow", "pandas"):
        try:
            out[pkg] = importlib_metadata.version(pkg)
        except importlib_metadata.PackageNotFoundError:
            out[pkg] = None
    return out


def make_config(game: str, players: int | None = None, deals: int = 1000, seed: int = 0,
                strategies: list[str] | None = None, options: list[str] | None = None,
                preset: str | None = None, workers: int | None = None, check: bool = False,
                first_deal: int = 0, shard_size: int = DEFAULT_SHARD) -> RunConfig:
    """Validate user input (raising UsageError with the accepted values) into a RunConfig."""
    spec = get_game(game)
    n = check_players(spec, players)
    opts = build_options(spec.options_cls, spec.presets, preset, list(options or []))
    opts.to_array(n)  # cross-checks that need the player count
    check_deal_range(first_deal, deals)
    check_seed(seed)
    w = max_workers() if workers is None else workers
    if not 1 <= w <= max_workers():
        raise UsageError(f"--workers must be 1..{max_workers()} on this machine (got {w})")
    check_shard_size(spec, shard_size)
    return RunConfig(spec.name, n, opts, preset, seat_table(spec, strategies, n), seed, deals,
                     first_deal, check, w, shard_size)


def check_shard_size(spec: GameSpec, shard_size: int, copies: int = 1, what: str = "") -> None:
    """A shard's record buffers (``copies`` of them: one per point and lineup of an
    experiment) must fit SHARD_BYTES; UsageError naming the largest shard size that does."""
    if shard_size < 1:
        raise UsageError(f"shard size (--shard-size) must be >= 1 (got {shard_size})")
    per_deal = spec.record_width * 4 * copies
    if shard_size * per_deal > SHARD_BYTES:
        most = max(1, SHARD_BYTES // per_deal)
        raise UsageError(f"--shard-size {shard_size:,} needs {_bytes(shard_size * per_deal)} of {spec.name} records "
                         f"per shard{what}; at most {most:,} deals per shard (4 GiB)")


def _bytes(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024


def play_shard(cfg: RunConfig, first: int, count: int) -> dict:
    """Play deals ``first .. first+count-1``; returns the record columns (with deal_id).

    Every value must fit its column's dtype (``registry.narrow``; a value that does not is a
    CheckError naming the deal, never a silently wrapped number). With ``cfg.check`` the
    records are checked too (``check_records``), after the kernels' state checks."""
    game = cfg.game
    sids, params = seat_arrays(game, cfg.seats)
    rec = np.zeros((count, game.record_width), dtype=np.int32)
    opts = cfg.option_array
    plug, pprm = seat_plugin(game, cfg.seats, cfg.check)
    plugs = () if plug is None else (plug, pprm)
    # Ctrl-C waits for the kernel to return, a second one stops at once (sim.interrupt)
    held_call(game.play_batch, cfg.seed, first, count, opts, sids, params, cfg.check, rec, *plugs)
    if plug is not None:
        bad = np.flatnonzero(rec[:, game.err_col] == game.plugin["error"])
        if len(bad):
            raise_plugin_error(cfg, first + int(bad[0]))
    if cfg.check and game.err_col is not None:          # (a game whose kernels have no error column: none)
        bad = np.flatnonzero(rec[:, game.err_col])
        if len(bad):
            raise_check_error(cfg, first + int(bad[0]), int(rec[bad[0], game.err_col]))
    cols = {"deal_id": np.arange(first, first + count, dtype=np.int64)}
    try:
        cols.update(game.record_columns(rec, cfg.n_players))
    except RecordRangeError as exc:
        raise_record_error(cfg, first + exc.row, f"{exc} (a bug: the column is too narrow for these options)",
                           "cannot record")
    if game.derived_columns is not None:
        game.derived_columns(cols, opts, cfg.n_players)
    if cfg.check:
        found = check_records(game, cols, opts, cfg.n_players)
        if found is not None:
            raise_record_error(cfg, first + found[0], found[1])
    return cols


def check_records(game: GameSpec, cols: dict, opts: np.ndarray, n: int) -> tuple[int, str] | None:
    """--check on the record columns: (row, problem) of the first bad row, else None.
    Every game: winner is -1 or a seat, payouts of a zero-sum game sum to 0; then the
    game's own ``record_check`` (totals = the hands' penalties, chips conserved, ...)."""
    winner = cols["winner"]
    bad = np.flatnonzero((winner < -1) | (winner >= n))
    if len(bad):
        return int(bad[0]), f"winner {int(winner[bad[0]])} is not a seat"
    if game.zero_sum:
        total = sum(cols[f"payout_{p}"].astype(np.int64) for p in range(n))
        bad = np.flatnonzero(total)
        if len(bad):
            return int(bad[0]), f"record payouts sum to {int(total[bad[0]])}, not 0"
    if game.record_check is not None:
        return game.record_check(cols, opts, n)
    return None


def raise_record_error(cfg: RunConfig, deal_id: int, problem: str, what: str = "check failed in"):
    """CheckError (exit 1) naming the deal, with its replay as the trace."""
    trace = "\n".join(replay_lines(cfg, deal_id))
    raise CheckError(f"{what} deal {deal_id} (seed {cfg.seed}): {problem}", deal_id, trace)


def raise_check_error(cfg: RunConfig, deal_id: int, code: int):
    trace = "\n".join(replay_lines(cfg, deal_id))
    name = cfg.game.error_names[code] if 0 <= code < len(cfg.game.error_names) else f"error {code}"
    raise CheckError(f"check failed in deal {deal_id} (seed {cfg.seed}): {name}", deal_id, trace)


def replay(cfg: RunConfig, deal_id: int, plug=None):
    """(final state, trace array) of one deal, played alone by the batch's own kernels
    (``plug``: another callback for the table's plug-in, as ``sim.plugin.explain_stop`` uses)."""
    sids, params = seat_arrays(cfg.game, cfg.seats)
    table_plug, pprm = seat_plugin(cfg.game, cfg.seats, cfg.check)
    plugs = () if table_plug is None else (plug or table_plug, pprm)
    return held_call(cfg.game.replay, cfg.seed, deal_id, cfg.option_array, sids, params, cfg.check, *plugs)


def plugin_stop(cfg: RunConfig, deal_id: int) -> str:
    """What the table's plug-in did to stop deal ``deal_id`` (decide raised, or answered neither
    -1 nor a legal index), found by a replay of the deal (``sim.plugin.explain_stop``):
    "plug-in strategy F.py:NAME raised ValueError: ... at decision kind 0 (turn start)"."""
    from cardsim.sim import plugin as P
    seat = next(s for s in cfg.seats if s.plugin)
    strat = P.load(*seat.plugin, cfg.game)
    what = P.explain_stop(strat, cfg.game, cfg.check, lambda cb: replay(cfg, deal_id, cb))
    return f"plug-in strategy {seat.strategy.name} {what}"


def raise_plugin_error(cfg: RunConfig, deal_id: int):
    """A plug-in stopped deal ``deal_id``: PluginError naming the plug-in, what it did at which
    decision kind (``plugin_stop``), the deal and the replay command."""
    raise PluginError(f"{plugin_stop(cfg, deal_id)} in deal {deal_id} (seed {cfg.seed}); the deal was stopped "
                      f"(cardsim replay {cfg.game.name} --seed {cfg.seed} --deal {deal_id} with the same table "
                      "plays it to there)")


def _replayed(cfg: RunConfig, deal_id: int):
    """(final state, events) of one deal: the game's ``trace_events`` (``sim.trace``), or, for a
    game without them, one ``"line"`` event per line of its ``format_trace``."""
    st, trace = replay(cfg, deal_id)
    names = [s.strategy.name for s in cfg.seats]
    if cfg.game.trace_events is not None:
        events = list(cfg.game.trace_events(trace, st, names))
    else:
        events = [event("line", text) for text in cfg.game.format_trace(trace, st, names)]
    if cfg.game.plugin is not None and any(s.plugin for s in cfg.seats) \
            and cfg.game.state_error(st) == cfg.game.plugin["error"]:
        events.append(event("line", f"the deal was stopped: {plugin_stop(cfg, deal_id)}"))
    return st, events


def replay_events(cfg: RunConfig, deal_id: int) -> list[dict]:
    """The events of one deal, in the order they happen (see ``sim.trace``)."""
    return _replayed(cfg, deal_id)[1]


def replay_head(cfg: RunConfig, deal_id: int) -> str:
    """The replay's first line: the game, seed, record (its ``deal_id``) and table, the seats'
    labels as tables show them (parameters at their defaults left out: ``--json`` and the run's
    metadata give them all)."""
    from cardsim.sim.registry import short_labels
    full = [s.label for s in cfg.seats]
    short = short_labels(cfg.game, full)
    labels = [short[lab] for lab in full]
    seats = f"every seat {labels[0]}" if len(set(labels)) == 1 else ", ".join(
        f"seat {i} {lab}" for i, lab in enumerate(labels))
    return f"{cfg.game.title}, seed {cfg.seed}, deal {deal_id}, {cfg.n_players} players: {seats}"


def replay_lines(cfg: RunConfig, deal_id: int) -> list[str]:
    """The play-by-play ``cardsim replay`` prints: a head line, then each event's text."""
    return [replay_head(cfg, deal_id)] + lines(replay_events(cfg, deal_id))


def replay_document(cfg: RunConfig, deal_id: int, source: ReplaySource | None = None) -> dict:
    """What ``cardsim replay --json`` prints: the deal, its table and its events as data.
    ``payouts`` are the replayed final payouts (the row's ``payout_{p}``); ``source`` describes
    the output file the deal came from, if any."""
    st, events = _replayed(cfg, deal_id)
    doc = {"game": cfg.game.name, "seed": cfg.seed, "deal": deal_id, "players": cfg.n_players,
           "seats": [s.label for s in cfg.seats], "rules_version": cfg.game.rules_version,
           "preset": cfg.preset, "options": options_dict(cfg.options),
           "payouts": [int(x) for x in cfg.game.state_payouts(st, cfg.n_players)], "events": events}
    if source is not None:
        doc["source"] = source.describe()
    return doc


# ---- replaying a deal of an existing output ------------------------------------------------

@dataclass
class ReplaySource:
    """The table of an existing output, rebuilt from its metadata: a run file, or one
    (point, lineup) of a compare/sweep dataset. ``cfg.first_deal`` and ``cfg.deals`` are the
    output's deal range; ``warning`` is set when the file's rules version is not this one's
    (replayed anyway under ``force``)."""
    path: str
    kind: str                       # "run", "compare" or "sweep"
    cfg: RunConfig
    file_rules_version: int
    point: int | None = None
    lineup: int | None = None
    counted_seat: int | None = None
    point_label: str | None = None
    warning: str | None = None

    def check_deal(self, deal: int) -> None:
        first, count = self.cfg.first_deal, self.cfg.deals
        if count <= 0:
            raise UsageError(f"{self.path!r} holds no deals")
        if not first <= deal < first + count:
            raise UsageError(f"deal {deal} is not in {self.path!r}: it holds deals {first}..{first + count - 1}")

    def describe(self) -> dict:
        out = {"path": self.path, "kind": self.kind, "rules_version": self.file_rules_version,
               "first_deal": self.cfg.first_deal, "deals": self.cfg.deals}
        if self.kind != "run":
            out.update(point=self.point, point_label=self.point_label, lineup=self.lineup,
                       counted_seat=self.counted_seat)
        return out


def _from_json(v):
    """A JSON option value back to its Python form: lists -> tuples, digit keys -> ints."""
    if isinstance(v, list):
        return tuple(_from_json(x) for x in v)
    if isinstance(v, dict):
        return {(int(k) if isinstance(k, str) and k.lstrip("-").isdigit() else k): _from_json(x)
                for k, x in v.items()}
    return v


def options_from_meta(spec: GameSpec, stored: dict, where: str):
    """The options dataclass a run used, from its metadata's ``options``; options the file does
    not name take their defaults (they were added later; a behaviour change bumps the rules
    version). Refuses (UsageError) options this version does not know and values that do not
    rebuild exactly."""
    if not isinstance(stored, dict):
        raise UsageError(f"{where}: the metadata's options are not a table (corrupt file?)")
    known = {f.name for f in dataclasses.fields(spec.options_cls)}
    unknown = sorted(set(stored) - known)
    if unknown:
        raise UsageError(f"{where}: the file uses {spec.name} options this cardsim does not know: "
                         f"{', '.join(unknown)} (written by another version)")
    try:
        opts = spec.options_cls(**{k: _from_json(v) for k, v in stored.items()})
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{where}: the file's options do not rebuild ({exc})") from None
    again = options_dict(opts)
    for k, v in stored.items():
        if json.dumps(again[k], sort_keys=True) != json.dumps(v, sort_keys=True):
            raise UsageError(f"{where}: option {k} does not rebuild exactly from the file "
                             f"({json.dumps(v)} became {json.dumps(again[k])})")
    return opts


def _seat_from_meta(spec: GameSpec, entry: dict, where: str) -> Seat:
    name, params = entry["strategy"], entry.get("params", {})
    if name not in spec.strategies:
        raise UsageError(f"{where}: strategy {name!r} is not known to this cardsim; strategies: "
                         f"{', '.join(spec.strategies)}")
    st = spec.strategies[name]
    if set(params) != {p.name for p in st.params}:
        raise UsageError(f"{where}: strategy {name} has parameters {', '.join(sorted(params)) or 'none'} in the "
                         f"file but {', '.join(p.name for p in st.params) or 'none'} here")
    try:     # the values within their ranges, as the command line checks them (a forged 1e9 or NaN)
        seat = Seat(st, tuple(float(params[p.name]) for p in st.params))
        parse_seat(spec, seat.label)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{where}: the file's seat {name} does not rebuild ({exc})") from None
    if "label" in entry and seat.label != entry["label"]:
        raise UsageError(f"{where}: seat {entry['label']!r} does not rebuild exactly (got {seat.label!r})")
    return seat


def _seat_from_label(spec: GameSpec, label: str, where: str, meta: dict) -> Seat:
    check_plugin_code(spec, label, meta, where)
    seat = parse_seat(spec, label)
    if seat.label != label:
        raise UsageError(f"{where}: seat {label!r} does not rebuild exactly (got {seat.label!r})")
    return seat


def check_plugin_code(spec: GameSpec, label: str, meta: dict, where: str) -> None:
    """A plug-in seat of a file's table is replayed only with the code that wrote the file (its
    ``plugins``: code digests, ``registry.plugin_codes``), checked *before* its file is imported:
    edited code would not replay the deal that was played, and a forged file's label never runs
    a file the metadata does not vouch for."""
    from cardsim.sim import plugin as P
    parts = P.split(label)
    if parts is None:
        name = label.strip().partition(":")[0]
        if name in spec.strategies or name not in P.entry_point_names():
            return
        parts = ("", name, "")
    source, name, _ = parts
    if source and not Path(source).is_file():
        return                                     # parse_seat says the file does not exist
    key = f"{source}:{name}" if source else name
    if (meta.get("plugins") or {}).get(key) != P.code_digest(source, name):
        raise UsageError(f"{where}: plug-in {key} has changed since the file was written (or the file does "
                         "not record its code): a replay would not be the deal that was played")


def open_replay_source(path, point: int | None = None, lineup: int | None = None, force: bool = False,
                       check: bool = False) -> ReplaySource:
    """The table of an existing output, ready to replay any of its deals exactly as they were
    played (``cardsim replay FILE --deal N``). A run file needs nothing else; a compare/sweep
    dataset needs the ``point`` and ``lineup`` (its rows' columns) unless it has only one.
    A file written under another rules version is refused unless ``force``."""
    where = str(path)
    meta = read_output_meta(path)
    try:
        return _open_source(where, meta, point, lineup, force, check)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise UsageError(f"{where!r}: incomplete cardsim metadata ({exc.__class__.__name__}: {exc}); "
                         "not a finished cardsim output?") from None


def _open_source(where: str, meta: dict, point, lineup, force: bool, check: bool) -> ReplaySource:
    game = meta["game"]
    try:
        spec = get_game(game)
    except UsageError:
        raise UsageError(f"{where!r} is a run of game {game!r}, which this cardsim does not know") from None
    file_version = int(meta["rules_version"])
    warning = None
    if file_version != spec.rules_version:
        warning = (f"{where!r} was written under {spec.name} rules version {file_version} but this cardsim "
                   f"plays version {spec.rules_version}: a replay is not necessarily the deal that was played")
        if not force:
            raise UsageError(warning + "; pass --force to replay it under the current rules anyway")
    n = check_players(spec, int(meta["players"]))
    kind = meta.get("kind", "run")
    deals, first = meta["deals"], int(meta["first_deal"])
    if deals is None:
        raise UsageError(f"{where!r} records no deal count (an unfinished run?)")
    counted = label = None
    if kind == "run":
        if point is not None or lineup is not None:
            raise UsageError(f"--point and --lineup are for compare/sweep datasets; {where!r} is a run file")
        opts = options_from_meta(spec, meta["options"], where)
        seats = [_seat_from_meta(spec, e, where) for e in meta["seats"]]
    elif kind in ("compare", "sweep"):
        points = meta["points"]
        k = len(points)
        hint = (f"{where!r} is a {kind} dataset of {k} point{'s' if k != 1 else ''} x {n} lineups: give "
                f"--point 0..{k - 1} and --lineup 0..{n - 1} (the rows' point and lineup columns)")
        if point is None and k == 1:
            point = 0
        if point is None or lineup is None:
            raise UsageError(hint)
        if not 0 <= point < k:
            raise UsageError(f"--point {point} is not in {where!r}: it has points 0..{k - 1}")
        ups = points[point]["lineups"]
        if not 0 <= lineup < len(ups):
            raise UsageError(f"--lineup {lineup} is not in {where!r}: point {point} has lineups 0..{len(ups) - 1}")
        opts = options_from_meta(spec, points[point]["options"], where)
        seats = [_seat_from_label(spec, lab, where, meta) for lab in ups[lineup]["seats"]]
        counted = int(ups[lineup]["counted_seat"])
        label = points[point].get("label")
    else:
        raise UsageError(f"{where!r} is a cardsim output of kind {kind!r}, which replay does not know")
    if len(seats) != n:
        raise UsageError(f"{where!r}: {len(seats)} seats in the metadata for {n} players (corrupt file?)")
    try:
        opts.to_array(n)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{where!r}: the file's options do not apply here ({exc})") from None
    cfg = RunConfig(spec.name, n, opts, meta.get("preset"), seats, int(meta["seed"]), int(deals), first, check)
    return ReplaySource(where, kind, cfg, file_version, point, lineup, counted, label, warning)


@dataclass
class RunResult:
    summary: dict
    meta: dict
    timing: dict
    path: str | None


def run(cfg: RunConfig, out: str | None = None, progress: Callable | None = None,
        until_ci: float | None = None, max_deals: int | None = None, resume: bool = False,
        executor=None, overwrite: bool = False) -> RunResult:
    """Play the run shard by shard (locally or on a Dask executor), write ``out`` atomically
    if given, and return the summary.

    ``until_ci``: stop once every seat's and strategy's mean payout has a 95% half-width <= until_ci
    under the alpha-spending rule of ``sim.sequential`` (at most ``max_deals`` deals).
    ``resume``: reuse the finished shards of an interrupted run into the same ``out``.
    ``overwrite``: an existing ``out`` that is a previous cardsim run file is replaced (anything
    else there is refused; see ``sim.store``).
    """
    if until_ci is not None:
        check_deal_range(cfg.first_deal, max_deals or 0, "--max-deals")
    executor = executor or LocalExecutor()
    numba.set_num_threads(cfg.workers)
    meta = cfg.meta()
    if until_ci is not None:
        meta.update(until_ci=until_ci, max_deals=max_deals, deals=None)
    layout = shard_layout(cfg.shard_size, until_ci)
    store = ShardStore(out, meta, resume, layout=layout, overwrite=overwrite) if out else None
    acc = Accumulator(cfg.n_players, [s.label for s in cfg.seats], cfg.game.reason_names, cfg.game.sides)
    total = cfg.deals if until_ci is None else max_deals
    path = None
    try:
        driven = drive(play_shard, cfg, layout, cfg.first_deal, total, store, executor, cfg.game.reason_names,
                       acc, until_ci, progress, cfg.game.columns, cfg.game.unplayed)
        meta["deals"] = driven.deals
        timing = timing_meta(driven, executor, cfg.workers)
        if store is not None:
            store.meta = meta
            path = str(store.finish(driven.shards, timing))
    finally:
        if store is not None:
            store.close()       # the lock; an interrupted run keeps its work directory for --resume
    summary = with_sequential(acc.summary(), driven.sequential)
    return RunResult(summary, meta, timing, path)


def summarize_file(path) -> RunResult:
    """Statistics of a run file, read in bounded-memory batches. A file whose metadata or
    records are not a cardsim run's (``io.read_run_meta``; unreadable pages, a winner that is
    no seat, an end reason the metadata does not name) is a UsageError, one line."""
    import pyarrow as pa
    meta, timing = read_run_meta(path)
    n = meta["players"]
    try:
        sides = get_game(meta["game"]).sides
    except UsageError:            # a file of a game this cardsim does not know: no partnerships
        sides = ()
    if any(p >= n for side in sides for p in side):
        sides = ()
    acc = Accumulator(n, [s["label"] for s in meta["seats"]], tuple(meta["reason_names"]), sides)
    cols = ["winner", "truncated", "turns", "end_reason"] + [f"payout_{p}" for p in range(n)]
    where = repr(str(path))
    try:
        for batch in iter_record_batches(path, columns=cols):
            winner = batch["winner"]
            if len(winner) and (winner.min() < -1 or winner.max() >= n):
                raise UsageError(f"{where}: a record's winner is not a seat of its {n} players (corrupt file?)")
            acc.add(batch)
    except UsageError:
        raise
    except (OSError, ValueError, IndexError, pa.ArrowException) as exc:
        raise UsageError(f"{where}: its records cannot be read ({exc.__class__.__name__}; truncated or corrupt "
                         "file?)") from None
    return RunResult(acc.summary(), meta, timing, str(path))
