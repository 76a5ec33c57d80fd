"""The shard loop shared by ``run`` and ``compare``/``sweep``.

Shards of a deterministic plan are taken from the work directory when a resumed run already
finished them (and the stored shard carries this run's key: ``ShardStore.usable``), otherwise
played by the executor (in order) and stored; each is added to the accumulator, and with a
precision target the loop stops at the first look whose interval, at that look's
alpha-spending level, is narrow enough. A failure (not an interruption) removes the run's own
files; the OutputError says so, other errors carry it as ``cleanup``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from cardsim.sim.errors import OutputError
from cardsim.sim.io import columns_of, table_from_columns
from cardsim.sim.sequential import shard_plan, z_at_look


def shard_layout(shard_size: int, until_ci: float | None) -> dict:
    """Shard sizes: fixed for a deal count, doubling (up to 8x) under a precision target."""
    return {"shard_size": shard_size, "growth": 1.0 if until_ci is None else 2.0}


@dataclass
class Driven:
    deals: int          # deals played (or read back from finished shards)
    shards: list        # first deal of every shard used, in order
    looks: int
    wall: float
    sequential: dict | None


def drive(fn, task, layout: dict, first_deal: int, total: int, store, executor, reason_names, acc,
          until_ci: float | None = None, progress=None, columns=None, unplayed=None) -> Driven:
    """Play ``fn(task, first, count)`` over the shard plan into ``acc`` (and ``store``: the
    shards' fields described by ``columns``, the values ``unplayed(cols)`` marks written as nulls)."""
    plan = list(shard_plan(total, first_deal, layout["shard_size"], layout["growth"])) or [(first_deal, 0)]
    stored = {f for f, c in plan if store is not None and store.usable(f, c)}
    pending = ((task, f, c) for f, c in plan if f not in stored)
    results = executor.map(fn, pending)
    t0 = time.perf_counter()
    done, used = 0, []
    try:
        for first, count in plan:
            table = store.read(first, count) if first in stored else None
            if table is not None:
                cols = columns_of(table, reason_names)
            else:
                # not stored, or stored but unreadable after all (then played here, in order)
                cols = fn(task, first, count) if first in stored else next(results)
                if store is not None:
                    store.write(first, count, table_from_columns(cols, reason_names, columns,
                                                                 unplayed(cols) if unplayed else None))
            acc.add(cols, count)
            used.append(first)
            done += count
            if until_ci is None:
                if progress is not None:
                    progress(done, total)
                continue
            name, est, half = acc.headline(z_at_look(len(used)))
            if progress is not None:
                progress(done, total, f"{name}: {est:+.4f} ± {half:.4f} (target ± {until_ci:g})")
            if half <= until_ci:
                break
    except Exception as exc:
        if store is not None:
            note = store.discard()   # a failure (check error, full disk) is not worth resuming
            if isinstance(exc, OutputError):
                raise OutputError(f"{exc}; {note}") from None
            exc.cleanup = note
        raise
    finally:
        results.close()
    seq = None
    if until_ci is not None:
        z = z_at_look(len(used))
        name, est, half = acc.headline(z)
        seq = {"target": until_ci, "looks": len(used), "z": z, "headline": name, "estimate": est,
               "half_width": half, "reached": half <= until_ci}
    return Driven(done, used, len(used), time.perf_counter() - t0, seq)


def timing_meta(driven: Driven, executor, workers: int) -> dict:
    wall = driven.wall
    return {"wall_time_s": round(wall, 6), "deals_per_s": round(driven.deals / wall, 1) if wall > 0 else None,
            "workers": workers, "executor": executor.name, "looks": driven.looks,
            "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
