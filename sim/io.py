"""Parquet output: one row per deal, the run's metadata in the file, atomic writes.

Metadata keys in the Parquet footer:
* ``cardsim``: deterministic description of the run (game, rules version, options,
  strategies, seed, deals, package versions). Same seed and arguments -> same bytes.
* ``cardsim.timing``: wall time, deals/s, workers, creation time (varies run to run).
* ``cardsim.part`` (the part files of a compare/sweep dataset, a tune dataset's
  evaluations): the identity of the output the file belongs to (``part_tag``).
The record data of two runs with the same seed are byte-identical whatever the workers.
Atomic writing and resume live in ``sim/store.py``, which also says what the readers here
check (``check_meta``, ``check_run_rows``, ``check_parts``) before a file is believed.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.sim.errors import UsageError

META_KEY = b"cardsim"
TIMING_KEY = b"cardsim.timing"
PART_KEY = b"cardsim.part"


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


def load_json(data):
    """``json.loads``, with a document nested too deeply for the parser (a RecursionError, e.g.
    100,000 brackets in a forged footer) raised as the ValueError of any other bad JSON."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


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
        meta = load_json(kv[META_KEY])
        timing = load_json(kv[TIMING_KEY]) if TIMING_KEY in kv else {}
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{str(p)!r} has unreadable cardsim metadata (corrupt file?)") from None
    if not isinstance(meta, dict) or not isinstance(timing, dict):
        raise UsageError(f"{str(p)!r} has unreadable cardsim metadata (corrupt file?)")
    return meta, timing


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _flag_words(exc: Exception) -> str:
    """A command-line validator's message about a file's field: ``--first-deal`` -> first_deal."""
    text = str(exc)
    for flag, key in (("--first-deal", "first_deal"), ("--deals", "deals"), ("--seed", "seed")):
        text = text.replace(flag, key)
    return text


def check_meta(meta: dict, where: str, what: str = "invalid cardsim metadata") -> None:
    """The values of a file's metadata that decide what a reader computes or replays, checked
    with the command line's own validators (``sim.limits``: ``check_seed``, ``check_deal_range``;
    the game's player counts): a known game, its player count, whole-number ``seed`` (0 ..
    2**63-1), ``first_deal``, ``deals`` and ``rules_version`` >= 0, and deal ids that fit an
    int64. UsageError, one line: ``{where} has {what}: ...``."""
    from cardsim.sim.registry import game_names, get_game
    from cardsim.sim.limits import check_deal_range, check_seed
    from cardsim.sim.textsafe import term
    bad = f"{where} has {what}"
    game = meta.get("game")
    if not isinstance(game, str) or game not in game_names():
        raise UsageError(f"{bad}: game {term(repr(game))} is not one of {', '.join(game_names())} "
                         "(written by another version?)")
    lo, hi, _ = get_game(game).players
    n = meta.get("players")
    if not _is_int(n) or not lo <= n <= hi:
        raise UsageError(f"{bad}: players {term(repr(n))} is not a {game} player count ({lo}..{hi})")
    for key in ("seed", "first_deal", "deals", "rules_version"):
        v = meta.get(key)
        if not _is_int(v) or v < 0:
            raise UsageError(f"{bad}: {key} {term(repr(v))} is not a whole number >= 0"
                             + (" (an unfinished run?)" if key == "deals" and v is None else ""))
    try:
        check_seed(meta["seed"])
        check_deal_range(meta["first_deal"], meta["deals"])
    except UsageError as exc:
        raise UsageError(f"{bad}: {_flag_words(exc)}") from None


def _leaf(pf, name: str) -> int | None:
    md = pf.metadata
    paths = [md.schema.column(i).path for i in range(md.num_columns)]
    return paths.index(name) if name in paths else None


def column_span(pf, name: str) -> tuple[int, int] | None:
    """(least, greatest) value of integer column ``name`` of an open ``pq.ParquetFile`` (None for
    no rows): from the row groups' statistics, or by reading the column where they lack them."""
    import pyarrow.compute as pc
    md = pf.metadata
    j = _leaf(pf, name)
    lo = hi = None
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        if rg.num_rows == 0:
            continue
        st = rg.column(j).statistics if j is not None else None
        if st is None or not st.has_min_max:
            lo = hi = None
            for batch in pf.iter_batches(columns=[name], batch_size=1 << 20):
                mm = pc.min_max(batch.column(0))
                a, b = mm["min"].as_py(), mm["max"].as_py()
                if a is not None:
                    lo, hi = (a, b) if lo is None else (min(lo, a), max(hi, b))
            break
        lo, hi = (st.min, st.max) if lo is None else (min(lo, st.min), max(hi, st.max))
    return None if lo is None else (int(lo), int(hi))


def _deals_text(span) -> str:
    return f"deals {span[0]:,}..{span[1]:,}" if span else "no deals"


def check_run_rows(path: str | os.PathLike, meta: dict) -> None:
    """A run file's rows are the deals its metadata names: ``deals`` rows whose ``deal_id`` runs
    from ``first_deal`` to ``first_deal + deals - 1`` (the footer is a run file's identity; a
    forged ``first_deal`` or ``deals`` names deals the file does not hold). UsageError, one line."""
    where = repr(str(path))
    first, deals = meta["first_deal"], meta["deals"]
    try:
        pf = pq.ParquetFile(path)
        if "deal_id" not in pf.schema_arrow.names:
            raise UsageError(f"{where} lacks the record column deal_id (not a cardsim run file, or a damaged one)")
        if not pa.types.is_integer(pf.schema_arrow.field("deal_id").type):
            raise UsageError(f"{where}: record column deal_id has type {pf.schema_arrow.field('deal_id').type}, "
                             "not an integer")
        rows, span = pf.metadata.num_rows, column_span(pf, "deal_id")
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever pyarrow makes of a damaged file
        raise UsageError(f"{where}: its records cannot be read ({exc.__class__.__name__}; truncated or corrupt "
                         "file?)") from None
    want = (first, first + deals - 1) if deals else None
    if rows != deals or span != want:
        raise UsageError(f"{where}: its metadata names {_deals_text(want)} ({deals:,}) but the file holds "
                         f"{_deals_text(span)} in {rows:,} rows (forged or damaged metadata?)")


RUN_COLUMNS = ("winner", "truncated", "turns", "end_reason")     # + payout_{p}: what summaries read


def read_run_meta(path: str | os.PathLike) -> tuple[dict, dict]:
    """(metadata, timing) of a run file (``cardsim run --out``), checked for what summaries
    and reports read: the values ``check_meta`` validates, one seat (with a text label) per
    player, this cardsim's end-reason names for the game, the record columns
    (``RUN_COLUMNS``, ``payout_{p}``) and rows that are the deals the metadata names
    (``check_run_rows``). UsageError, one line, otherwise.
    ``timing`` drops its number entries that are not numbers. Strings of the file are not escaped
    here: printing them is the printer's business (``sim.textsafe``)."""
    from cardsim.sim.registry import get_game
    from cardsim.sim.textsafe import term
    meta, timing = read_meta(path)
    where = repr(str(path))
    bad = f"{where} has invalid cardsim metadata"
    if "kind" in meta:
        top = Path(path).resolve().parent.parent
        raise UsageError(f"{where} is one part of a {term(meta['kind'])} dataset, not a run file; give the "
                         f"dataset's directory ({term(repr(str(top)))}) to cardsim summarize or report")
    check_meta(meta, where)
    game, n = meta["game"], meta["players"]
    spec = get_game(game)
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
    check_run_rows(path, meta)
    numeric = ("wall_time_s", "deals_per_s", "workers", "looks")
    timing = {k: v for k, v in timing.items() if k not in numeric or (
        isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf"))}
    return meta, timing


SUMMARY_FILE = "_summary.json"


# ---- the identity of a dataset's parts -------------------------------------------------------

def identity(meta: dict) -> str:
    """The identity of an output: sha256 of its deterministic metadata (``json_clean``ed, as
    ``_summary.json`` keeps it) as canonical JSON (keys sorted). Game, rules version, seed,
    players, first deal, deal count, options, seats, lineups, points and versions all enter it."""
    from cardsim.sim.stats import json_clean
    return hashlib.sha256(json.dumps(json_clean(meta), sort_keys=True).encode()).hexdigest()


def part_tag(meta: dict, point: int | None = None) -> dict:
    """What a part file's footer says it is (``cardsim.part``): the dataset's ``identity``, the
    point whose rows it holds, and the deal range (a tune dataset's evaluations: the identity)."""
    tag = {"run": identity(meta)}
    if "first_deal" in meta:
        tag.update(first=meta["first_deal"], deals=meta.get("deals"))
    if point is not None:
        tag["point"] = int(point)
    return tag


_POINT_DIR = re.compile(r"point-(\d+)")
_PART_FILE = re.compile(r"part-\d+\.parquet")
DATASET_COLUMNS = ("deal_id", "point", "lineup", "payout", "win", "truncated", "end_reason")
_ORDER = ("game", "kind", "rules_version", "seed", "players", "first_deal", "deals", "preset", "field", "points",
          "check", "until_ci", "max_deals", "reason_names", "versions")


def _short(v) -> str:
    from cardsim.sim.textsafe import term
    text = json.dumps(v, sort_keys=True) if not isinstance(v, str) else repr(v)
    return term(text if len(text) <= 60 else text[:57] + "...")


def _difference(theirs, ours: dict) -> str:
    """The first field of the metadata where a part differs from its dataset, in words."""
    if not isinstance(theirs, dict):
        return "its metadata is not a table"
    for key in list(_ORDER) + sorted(set(ours) | set(theirs), key=str):
        if theirs.get(key) != ours.get(key):
            if key in ("points", "versions") or isinstance(ours.get(key), (dict, list)):
                return f"its {key} differ from the dataset's"
            return f"{key} {_short(theirs.get(key))}, not the dataset's {_short(ours.get(key))}"
    return "its metadata differs from the dataset's"


def check_parts(path: str | os.PathLike, meta: dict) -> dict[int, list[Path]]:
    """The part files of a compare/sweep dataset directory, each checked to be this dataset's
    and its folder's before any of its rows is read; returns point -> part files.

    A part file (``point-K/part-N.parquet``) must be readable Parquet whose footer holds the
    dataset's metadata (that of ``_summary.json``, given here as ``meta``) and, when written by a
    cardsim that tags parts, a ``cardsim.part`` tag naming this dataset's ``identity``, point K
    and deal range; its rows must be point K's (the ``point`` column) and the dataset's deals, and
    a point folder must hold every lineup of every deal. A part without the tag (an older
    cardsim) is accepted on the rest. Anything else in a point folder but hidden files is refused.
    UsageError, one line naming the part: a part of another run or dataset, one moved between
    point folders, a truncated or corrupt one."""
    from cardsim.sim.stats import json_clean
    from cardsim.sim.textsafe import term
    path = Path(path)
    where = repr(str(path))
    points = meta.get("points")
    n = meta["players"]
    if not isinstance(points, list) or not all(
            isinstance(p, dict) and isinstance(p.get("lineups"), list) and p["lineups"] and all(
                isinstance(u, dict) and isinstance(u.get("seats"), list) and len(u["seats"]) == n
                and _is_int(u.get("counted_seat")) and 0 <= u["counted_seat"] < n for u in p["lineups"])
            for p in points):
        raise UsageError(f"{where} has an invalid {SUMMARY_FILE}: its points and lineups are not described (a "
                         f"lineup names {n} seats and the counted one, 0..{n - 1})")
    first, deals = meta["first_deal"], meta["deals"]
    ours, ident = json_clean(meta), identity(meta)
    found: dict[int, list[Path]] = {}
    for entry in sorted(os.scandir(path), key=lambda e: e.name):
        m = _POINT_DIR.fullmatch(entry.name)
        if not m or not entry.is_dir():
            continue
        k = int(m.group(1))
        if k >= len(points):
            raise UsageError(f"{where} holds {entry.name}/ but its {SUMMARY_FILE} names {len(points)} point"
                             f"{'s' if len(points) != 1 else ''}: a folder of another dataset?")
        rows = 0
        for f in sorted(os.scandir(entry.path), key=lambda e: e.name):
            if f.name.startswith((".", "_")):          # what pyarrow's datasets skip too
                continue
            rel = f"{entry.name}/{f.name}"
            if not (_PART_FILE.fullmatch(f.name) and f.is_file()):
                raise UsageError(f"{where} holds {term(repr(rel))}, which cardsim did not write (a point folder "
                                 "holds part-N.parquet files only)")
            rows += _check_part(Path(f.path), where, term(repr(rel)), ours, ident, k, first, deals)
            found.setdefault(k, []).append(Path(f.path))
        want = len(points[k]["lineups"]) * deals
        if k in found and rows != want:
            raise UsageError(f"{where}: {entry.name}/ holds {rows:,} rows, not the {want:,} of point {k} "
                             f"({len(points[k]['lineups'])} lineups x {deals:,} deals): it lacks the rows of some "
                             "deals or has others (damaged?)")
    return found


def _check_part(p: Path, where: str, name: str, ours: dict, ident: str, k: int, first: int, deals: int) -> int:
    """One part file of point ``k`` checked (``check_parts``); returns its row count."""
    from cardsim.sim.stats import json_clean
    from cardsim.sim.textsafe import term
    try:
        pf = pq.ParquetFile(p)
        kv = pf.metadata.metadata or {}
        schema = pf.schema_arrow
    except Exception as exc:  # noqa: BLE001 - whatever pyarrow makes of a damaged file
        raise UsageError(f"{where}: its part {name} cannot be read ({exc.__class__.__name__}; truncated or "
                         "corrupt)") from None
    if META_KEY not in kv:
        raise UsageError(f"{where}: its part {name} is not a cardsim part file (no cardsim metadata)")
    try:
        theirs = load_json(kv[META_KEY])
        tag = load_json(kv[PART_KEY]) if PART_KEY in kv else None
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{where}: its part {name} has unreadable cardsim metadata (corrupt file?)") from None
    if not isinstance(theirs, dict) or json_clean(theirs) != ours:
        raise UsageError(f"{where}: its part {name} belongs to another run ({_difference(theirs, ours)}): a part "
                         "of another output was put into this dataset; its rows would not be paired with the "
                         "others")
    if tag is not None:
        if not isinstance(tag, dict) or tag.get("run") != ident:
            raise UsageError(f"{where}: its part {name} does not carry this dataset's identity (a part of another "
                             "run, or a damaged one)")
        if tag.get("point") != k:
            raise UsageError(f"{where}: its part {name} holds the rows of point {_short(tag.get('point'))}, not "
                             f"point {k} (parts moved between point folders?)")
        if tag.get("first") != first or tag.get("deals") != deals:
            raise UsageError(f"{where}: its part {name} holds deals from {_short(tag.get('first'))} ("
                             f"{_short(tag.get('deals'))}), not the dataset's {first:,} ({deals:,})")
    missing = [c for c in DATASET_COLUMNS if c not in schema.names]
    if missing:
        raise UsageError(f"{where}: its part {name} lacks the column{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(missing)} (damaged?)")
    for c in ("deal_id", "point"):
        if not pa.types.is_integer(schema.field(c).type):
            raise UsageError(f"{where}: its part {name} has a {c} column of type {term(str(schema.field(c).type))}, "
                             "not an integer")
    try:
        rows = pf.metadata.num_rows
        pspan, dspan = column_span(pf, "point"), column_span(pf, "deal_id")
    except Exception as exc:  # noqa: BLE001
        raise UsageError(f"{where}: its part {name} cannot be read ({exc.__class__.__name__}; truncated or "
                         "corrupt)") from None
    if rows and pspan != (k, k):
        held = f"{pspan[0]}" if pspan[0] == pspan[1] else f"{pspan[0]}..{pspan[1]}"
        raise UsageError(f"{where}: its part {name} holds the rows of point {held}, not point {k} (parts moved "
                         "between point folders?)")
    if rows and not (deals and first <= dspan[0] and dspan[1] <= first + deals - 1):
        raise UsageError(f"{where}: its part {name} holds {_deals_text(dspan)}, not the dataset's "
                         f"{_deals_text((first, first + deals - 1) if deals else None)}")
    return rows


def read_output_meta(path: str | os.PathLike) -> dict:
    """The run metadata of any cardsim output: a run file (``cardsim run --out``: the Parquet
    footer) or a compare/sweep dataset directory (``--out DIR``: its ``_summary.json``, whose
    ``meta`` is the one in the footers of its ``point-K/`` files). UsageError, one line, for a
    missing path, a directory that is not a dataset, a file that is not a cardsim output, values
    ``check_meta`` refuses, a run file whose rows are not the deals it names
    (``check_run_rows``), and a dataset with a part that is not its own (``check_parts``).
    A tune dataset's metadata is returned unchecked (nothing replays it)."""
    from cardsim.sim.textsafe import term
    p = Path(path)
    if not p.exists():
        raise UsageError(f"no such file: {str(p)!r}")
    if not p.is_dir():
        meta = read_meta(p)[0]
        if "kind" in meta:
            top = p.resolve().parent.parent
            raise UsageError(f"{str(p)!r} is one part of a {term(meta['kind'])} dataset, not a run file; give the "
                             f"dataset's directory ({term(repr(str(top)))})")
        check_meta(meta, repr(str(p)))
        check_run_rows(p, meta)
        return meta
    summary = p / SUMMARY_FILE
    if not summary.is_file():
        raise UsageError(f"{str(p)!r} is a directory but not a compare/sweep dataset (no {SUMMARY_FILE}); "
                         "give a run file (cardsim run --out) or a compare/sweep --out directory")
    try:
        meta = load_json(summary.read_text())["meta"]
    except (OSError, ValueError, UnicodeDecodeError, KeyError, TypeError):
        raise UsageError(f"{str(summary)!r} is unreadable (not a cardsim dataset summary, or corrupt)") from None
    if not isinstance(meta, dict):
        raise UsageError(f"{str(summary)!r} is unreadable (not a cardsim dataset summary, or corrupt)")
    if meta.get("kind") in ("compare", "sweep"):
        check_meta(meta, repr(str(p)), f"an invalid {SUMMARY_FILE}")
        check_parts(p, meta)
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
