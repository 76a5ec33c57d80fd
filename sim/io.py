"""Parquet output: one row per deal, the run's metadata in the file, atomic writes.

Metadata keys in the Parquet footer:
* ``cardsim``: deterministic description of the run (game, rules version, options,
  strategies, seed, deals, package versions). Same seed and arguments -> same bytes.
* ``cardsim.timing``: wall time, deals/s, workers, creation time (varies run to run).
The record data of two runs with the same seed are byte-identical whatever the workers.
Atomic writing and resume live in ``sim/store.py``.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.sim.errors import UsageError

META_KEY = b"cardsim"
TIMING_KEY = b"cardsim.timing"


def check_output_path(path: str | os.PathLike) -> Path:
    """Fail early (UsageError) if ``path`` cannot be written; nothing is created."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"output path {str(p)!r} is a directory; give a file name such as run.parquet")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"cannot write {str(p)!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UsageError(f"cannot write {str(p)!r}: permission denied")
    return p


def table_from_columns(cols: dict, reason_names: tuple, columns=None, nulls: dict | None = None) -> pa.Table:
    """The Arrow table of record columns: ``end_reason`` a dictionary (category) of the end-reason
    names; ``columns`` (``sim.spec.Column`` rows) give each field its ``description`` metadata;
    ``nulls`` (column -> bool mask) marks the values written as nulls (unplayed hand slots)."""
    from cardsim.sim.columns import DESCRIPTION_KEY, find
    arrays, fields = [], []
    for name, values in cols.items():
        mask = (nulls or {}).get(name)
        if name == "end_reason":
            arr = pa.DictionaryArray.from_arrays(pa.array(values, pa.int8()), pa.array(list(reason_names)))
        elif mask is not None and mask.any():
            arr = pa.array(values, mask=np.asarray(mask, dtype=bool))
        else:
            arr = pa.array(values)
        doc = find(columns, name) if columns else None
        arrays.append(arr)
        fields.append(pa.field(name, arr.type, metadata={DESCRIPTION_KEY: doc.description} if doc else None))
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def read_meta(path: str | os.PathLike) -> tuple[dict, dict]:
    """(run metadata, timing metadata) of a cardsim Parquet file."""
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"no such file: {str(p)!r}")
    try:
        kv = pq.ParquetFile(p).metadata.metadata or {}
    except Exception as exc:
        raise UsageError(f"{str(p)!r} is not a Parquet file, or a truncated or corrupt one "
                         f"({exc.__class__.__name__})") from None
    if META_KEY not in kv:
        raise UsageError(f"{str(p)!r} is not a cardsim output (no cardsim metadata)")
    try:
        meta = json.loads(kv[META_KEY])
        timing = json.loads(kv[TIMING_KEY]) if TIMING_KEY in kv else {}
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{str(p)!r} has unreadable cardsim metadata (corrupt file?)") from None
    if not isinstance(meta, dict) or not isinstance(timing, dict):
        raise UsageError(f"{str(p)!r} has unreadable cardsim metadata (corrupt file?)")
    return meta, timing


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


RUN_COLUMNS = ("winner", "truncated", "turns", "end_reason")     # + payout_{p}: what summaries read


def read_run_meta(path: str | os.PathLike) -> tuple[dict, dict]:
    """(metadata, timing) of a run file (``cardsim run --out``), checked for what summaries
    and reports read: a known game, a player count it allows, one seat (with a text label)
    per player, whole-number seed / deals, this cardsim's end-reason names for the game, and
    the record columns (``RUN_COLUMNS``, ``payout_{p}``). UsageError, one line, otherwise.
    ``timing`` drops its number entries that are not numbers. Strings of the file are not escaped
    here: printing them is the printer's business (``sim.textsafe``)."""
    from cardsim.sim.registry import GAME_NAMES, get_game
    from cardsim.sim.textsafe import term
    meta, timing = read_meta(path)
    where = repr(str(path))
    bad = f"{where} has invalid cardsim metadata"
    if "kind" in meta:
        top = Path(path).resolve().parent.parent
        raise UsageError(f"{where} is one part of a {term(meta['kind'])} dataset, not a run file; give the "
                         f"dataset's directory ({term(repr(str(top)))}) to cardsim summarize or report")
    game = meta.get("game")
    if not isinstance(game, str) or game not in GAME_NAMES:
        raise UsageError(f"{bad}: game {term(repr(game))} is not one of {', '.join(GAME_NAMES)} "
                         "(written by another version?)")
    spec = get_game(game)
    lo, hi, _ = spec.players
    n = meta.get("players")
    if not _is_int(n) or not lo <= n <= hi:
        raise UsageError(f"{bad}: players {term(repr(n))} is not a {game} player count ({lo}..{hi})")
    for key in ("seed", "first_deal", "rules_version"):
        if not _is_int(meta.get(key)) or meta[key] < 0:
            raise UsageError(f"{bad}: {key} {term(repr(meta.get(key)))} is not a whole number >= 0")
    if meta.get("deals") is not None and (not _is_int(meta["deals"]) or meta["deals"] < 0):
        raise UsageError(f"{bad}: deals {term(repr(meta['deals']))} is not a whole number >= 0")
    seats = meta.get("seats")
    if not isinstance(seats, list) or len(seats) != n:
        count = len(seats) if isinstance(seats, list) else "no"
        raise UsageError(f"{bad}: {count} seats for {n} players")
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or not isinstance(seat.get("label"), str):
            raise UsageError(f"{bad}: seat {i} has no strategy label")
    if meta.get("reason_names") != list(spec.reason_names):
        raise UsageError(f"{bad}: its end reasons {term(repr(meta.get('reason_names')))} are not {game}'s "
                         f"({', '.join(spec.reason_names)}; written by another version?)")
    try:
        schema = pq.ParquetFile(path).schema_arrow
    except Exception as exc:   # noqa: BLE001 - any unreadable schema is a bad file
        raise UsageError(f"{where} has an unreadable schema ({exc.__class__.__name__})") from None
    need = list(RUN_COLUMNS) + [f"payout_{p}" for p in range(n)]
    missing = [c for c in need if c not in schema.names]
    if missing:
        raise UsageError(f"{where} lacks the record column{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                         "(not a cardsim run file, or a damaged one)")
    for c in need:
        t = schema.field(c).type
        ok = pa.types.is_dictionary(t) if c == "end_reason" else (pa.types.is_integer(t) or pa.types.is_boolean(t))
        if not ok:
            raise UsageError(f"{where}: record column {c} has type {t}, not {'a category' if c == 'end_reason' else 'an integer'}")
    numeric = ("wall_time_s", "deals_per_s", "workers", "looks")
    timing = {k: v for k, v in timing.items() if k not in numeric or (
        isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf"))}
    return meta, timing


SUMMARY_FILE = "_summary.json"


def read_output_meta(path: str | os.PathLike) -> dict:
    """The run metadata of any cardsim output: a run file (``cardsim run --out``: the Parquet
    footer) or a compare/sweep dataset directory (``--out DIR``: its ``_summary.json``, whose
    ``meta`` is the one in the footers of its ``point-K/`` files). UsageError, one line, for a
    missing path, a directory that is not a dataset, a file that is not a cardsim output."""
    p = Path(path)
    if not p.exists():
        raise UsageError(f"no such file: {str(p)!r}")
    if not p.is_dir():
        return read_meta(p)[0]
    summary = p / SUMMARY_FILE
    if not summary.is_file():
        raise UsageError(f"{str(p)!r} is a directory but not a compare/sweep dataset (no {SUMMARY_FILE}); "
                         "give a run file (cardsim run --out) or a compare/sweep --out directory")
    try:
        meta = json.loads(summary.read_text())["meta"]
    except (OSError, ValueError, UnicodeDecodeError, KeyError, TypeError):
        raise UsageError(f"{str(summary)!r} is unreadable (not a cardsim dataset summary, or corrupt)") from None
    if not isinstance(meta, dict):
        raise UsageError(f"{str(summary)!r} is unreadable (not a cardsim dataset summary, or corrupt)")
    return meta


def iter_record_batches(path, columns=None, batch_size: int = 262_144):
    """Yield dicts of numpy column arrays; ``end_reason`` comes back as integer codes."""
    meta, _ = read_meta(path)
    pf = pq.ParquetFile(path)
    for batch in pf.iter_batches(batch_size=batch_size, columns=columns):
        yield columns_of(batch, meta["reason_names"])


def columns_of(data, reason_names) -> dict:
    """Numpy columns of an Arrow table or record batch; ``end_reason`` as integer codes."""
    cols = {}
    for name in data.schema.names:
        arr = data.column(name)
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        if name == "end_reason":
            lookup = np.array([list(reason_names).index(s) for s in arr.dictionary.to_pylist()], dtype=np.int8)
            cols[name] = lookup[arr.indices.to_numpy(zero_copy_only=False)]
        else:
            cols[name] = arr.to_numpy(zero_copy_only=False)
    return cols
