"""The shard loop shared by ``run`` and ``compare``/``sweep``.

Shards of a deterministic plan are taken from the work directory when a resumed run already
finished them (and the stored shard carries this run's key: ``ShardStore.usable``), otherwise
played by the executor (in order) and stored; each is added to the accumulator, and with a
precision target the loop stops at the first look whose interval, at that look's
alpha-spending level, is narrow enough. A failure (not an interruption) removes the run's own
files; the OutputError says so, other errors carry it as ``cleanup``. A plug-in that stops a deal
(PluginError) keeps them, as an interruption does.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from cardsim.sim.errors import OutputError, PluginError
from cardsim.sim.io import columns_of, table_from_columns
from cardsim.sim.sequential import shard_plan, z_at_look


PIECE_S = 0.5          # a progress bar that asks for it (``progress.within_shards``) hears every ~0.5 s
PIECE_MIN = 512        # deals per worker thread in the smallest piece


def _join(parts: list[tuple[int, dict]]) -> dict:
    """The columns of consecutive pieces of one shard as the whole shard would give them: each
    column holds ``lanes`` blocks of the piece's deals (1 for a run, one per point and lineup for
    an experiment), so pieces are joined block by block."""
    if len(parts) == 1:
        return parts[0][1]
    out = {}
    for key in parts[0][1]:
        blocks = [np.asarray(cols[key]).reshape(-1, count) for count, cols in parts]
        out[key] = np.concatenate(blocks, axis=1).reshape(-1)
    return out


def _in_pieces(fn, workers: int, report):
    """``fn(task, first, count)`` played in pieces of about PIECE_S seconds, ``report(deals
    done in this shard)`` after each: a long shard shows progress. The rows are the shard's
    own (a deal's record depends on its seed and index only)."""
    least = PIECE_MIN * max(1, workers)

    def play(task, first, count):
        parts, done, size = [], 0, least
        while done < count:
            c = min(size, count - done)
            t = time.perf_counter()
            parts.append((c, fn(task, first + done, c)))
            dt = time.perf_counter() - t
            done += c
            report(done)
            size = max(least, int(c / dt * PIECE_S)) if dt > 0 else 2 * size
        return _join(parts) if parts else fn(task, first, count)
    return play


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
    state = {"done": 0, "note": ""}
    if progress is not None and getattr(progress, "within_shards", False) and executor.name == "local":
        fn = _in_pieces(fn, getattr(task, "workers", 1),
                        lambda d: progress(state["done"] + d, total, state["note"]))
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
            state["done"] = done
            if until_ci is None:
                if progress is not None:
                    progress(done, total)
                continue
            name, est, half = acc.headline(z_at_look(len(used)))
            state["note"] = f"{name}: {est:+.4f} ± {half:.4f} (target ± {until_ci:g})"
            if progress is not None:
                progress(done, total, state["note"])
            if half <= until_ci:
                break
    except PluginError:
        raise                        # the user's code stopped a deal: finished shards kept, as after Ctrl-C
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
