"""Batch runner: shards of deals on all cores, streamed to Parquet, summarised on the fly.

Deals are independent (their randomness is keyed by seed and deal index), so a run is a
sequence of shards ``[first, first + size)`` each played by the game's parallel kernel
(numba ``prange`` over chunks of deals). Memory is bounded by the shard size whatever the
number of deals, and the rows do not depend on the number of worker threads.
"""
from __future__ import annotations

import platform
from dataclasses import dataclass, field
from importlib import metadata as importlib_metadata
from typing import Callable

import numba
import numpy as np

from sim.errors import CheckError, UsageError
from sim.executor import LocalExecutor
from sim.drive import drive, shard_layout, timing_meta
from sim.io import iter_record_batches, read_meta
from sim.store import ShardStore
from sim.options import build_options, options_dict
from sim.registry import GameSpec, Seat, check_players, get_game, seat_arrays, seat_table
from sim.stats import Accumulator

DEFAULT_SHARD = 1 << 18


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
    if deals < 0:
        raise UsageError(f"--deals must be >= 0 (got {deals})")
    if seed < 0 or seed >= 2 ** 63:
        raise UsageError(f"--seed must be in 0 .. 2**63-1 (got {seed})")
    if first_deal < 0:
        raise UsageError(f"--first-deal must be >= 0 (got {first_deal})")
    w = max_workers() if workers is None else workers
    if not 1 <= w <= max_workers():
        raise UsageError(f"--workers must be 1..{max_workers()} on this machine (got {w})")
    if shard_size < 1:
        raise UsageError(f"shard size must be >= 1 (got {shard_size})")
    return RunConfig(spec.name, n, opts, preset, seat_table(spec, strategies, n), seed, deals,
                     first_deal, check, w, shard_size)


def play_shard(cfg: RunConfig, first: int, count: int) -> dict:
    """Play deals ``first .. first+count-1``; returns the record columns (with deal_id)."""
    sids, params = seat_arrays(cfg.game, cfg.seats)
    rec = np.zeros((count, cfg.game.record_width), dtype=np.int32)
    cfg.game.play_batch(cfg.seed, first, count, cfg.option_array, sids, params, cfg.check, rec)
    if cfg.check:
        bad = np.flatnonzero(rec[:, cfg.game.err_col])
        if len(bad):
            raise_check_error(cfg, first + int(bad[0]), int(rec[bad[0], cfg.game.err_col]))
    cols = {"deal_id": np.arange(first, first + count, dtype=np.int64)}
    cols.update(cfg.game.record_columns(rec, cfg.n_players))
    return cols


def raise_check_error(cfg: RunConfig, deal_id: int, code: int):
    trace = "\n".join(replay_lines(cfg, deal_id))
    name = cfg.game.error_names[code] if 0 <= code < len(cfg.game.error_names) else f"error {code}"
    raise CheckError(f"check failed in deal {deal_id} (seed {cfg.seed}): {name}", deal_id, trace)


def replay(cfg: RunConfig, deal_id: int):
    """(final state, trace array) of one deal, played alone by the batch's own kernels."""
    sids, params = seat_arrays(cfg.game, cfg.seats)
    return cfg.game.replay(cfg.seed, deal_id, cfg.option_array, sids, params, cfg.check)


def replay_lines(cfg: RunConfig, deal_id: int) -> list[str]:
    st, trace = replay(cfg, deal_id)
    labels = [s.label for s in cfg.seats]
    head = f"{cfg.game.title}, seed {cfg.seed}, deal {deal_id}, {cfg.n_players} players: " + ", ".join(
        f"seat {i} {lab}" for i, lab in enumerate(labels))
    return [head] + cfg.game.format_trace(trace, st, [s.strategy.name for s in cfg.seats])


@dataclass
class RunResult:
    summary: dict
    meta: dict
    timing: dict
    path: str | None


def run(cfg: RunConfig, out: str | None = None, progress: Callable | None = None,
        until_ci: float | None = None, max_deals: int | None = None, resume: bool = False,
        executor=None) -> RunResult:
    """Play the run shard by shard (locally or on a Dask executor), write ``out`` atomically
    if given, and return the summary.

    ``until_ci``: stop once every seat's and strategy's mean payout has a 95% half-width <= until_ci
    under the alpha-spending rule of ``sim.sequential`` (at most ``max_deals`` deals).
    ``resume``: reuse the finished shards of an interrupted run into the same ``out``.
    """
    executor = executor or LocalExecutor()
    numba.set_num_threads(cfg.workers)
    meta = cfg.meta()
    if until_ci is not None:
        meta.update(until_ci=until_ci, max_deals=max_deals, deals=None)
    layout = shard_layout(cfg.shard_size, until_ci)
    store = ShardStore(out, meta, resume, layout=layout) if out else None
    acc = Accumulator(cfg.n_players, [s.label for s in cfg.seats], cfg.game.reason_names)
    total = cfg.deals if until_ci is None else max_deals
    driven = drive(play_shard, cfg, layout, cfg.first_deal, total, store, executor, cfg.game.reason_names, acc,
                   until_ci, progress)
    meta["deals"] = driven.deals
    timing = timing_meta(driven, executor, cfg.workers)
    path = None
    if store is not None:
        store.meta = meta
        path = str(store.finish(driven.shards, timing))
    summary = acc.summary()
    if driven.sequential:
        summary["sequential"] = driven.sequential
    return RunResult(summary, meta, timing, path)


def summarize_file(path) -> RunResult:
    """Statistics of a run file, read in bounded-memory batches."""
    meta, timing = read_meta(path)
    n = int(meta["players"])
    acc = Accumulator(n, [s["label"] for s in meta["seats"]], tuple(meta["reason_names"]))
    cols = ["winner", "truncated", "turns", "end_reason"] + [f"payout_{p}" for p in range(n)]
    for batch in iter_record_batches(path, columns=cols):
        acc.add(batch)
    return RunResult(acc.summary(), meta, timing, str(path))
