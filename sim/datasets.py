"""Compare/sweep datasets read back: ``summarize_dataset`` (``cardsim summarize DIR``) recomputes
a dataset's per-point statistics from its rows, with the checks of its ``_summary.json`` that the
report makes (``sim.report``)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds

from cardsim.sim.errors import UsageError
from cardsim.sim.experiment import Experiment, ExperimentAccumulator, ExperimentResult
from cardsim.sim.report import _load_experiment, _partitions, _summary_file
from cardsim.sim.sequential import with_sequential


@dataclass(frozen=True)
class _StoredPoint:
    """What ``ExperimentAccumulator`` reads of a point, from a dataset's metadata."""
    label: str
    params: tuple
    lineups: tuple


SUMMARY_CHUNK = 1 << 20    # rows per point read at once by summarize_dataset


def summarize_dataset(path) -> ExperimentResult:
    """The statistics of a compare/sweep dataset directory (``cardsim summarize DIR``), recomputed
    from its rows (``point-K/`` files: deal_id, lineup, payout, win, truncated) in deal ranges of
    bounded memory, with the metadata of its ``_summary.json`` (checked as the report checks it,
    every part file too: ``io.check_parts``). A directory that is not a dataset, a part of another
    run or of another point, a part that cannot be read, or rows that do not make the deals and
    lineups of every point, is a UsageError, one line."""
    p = Path(path)
    where = repr(str(p))
    if _summary_file(p) is None:
        raise UsageError(f"{where} is a directory but not a compare/sweep dataset (no _summary.json); give a run "
                         "file (cardsim run --out) or a compare/sweep --out directory")
    stored, meta = _load_experiment(p)
    mpts = meta["points"]
    lineups = [len(m.get("lineups") or []) for m in mpts]
    if not mpts or min(lineups) < 1 or len(set(lineups)) != 1:
        raise UsageError(f"{where} has an invalid _summary.json: its points do not list the same lineups")
    nl, k = lineups[0], len(mpts)
    points = tuple(_StoredPoint(m["label"] if isinstance(m.get("label"), str) else str(i),
                                tuple((m.get("params") or {}).items()), tuple(range(nl)))
                   for i, m in enumerate(mpts))
    acc = ExperimentAccumulator(Experiment(meta["kind"], meta["game"], meta["players"], meta.get("seed", 0),
                                           points, meta.get("preset"), meta.get("field")))
    parts = _partitions(p)
    if sorted(parts) != list(range(k)):
        raise UsageError(f"{where} lacks the rows of some points (point-K folders: {sorted(parts)}, {k} points)")
    first, deals = meta["first_deal"], meta["deals"]
    chunk = max(1, SUMMARY_CHUNK // nl)
    try:
        sets = [ds.dataset(str(parts[i]), format="parquet") for i in range(k)]
        for lo in range(first, first + deals, chunk):
            count = min(chunk, first + deals - lo)
            flt = (ds.field("deal_id") >= lo) & (ds.field("deal_id") < lo + count)
            cols = {"payout": [], "win": [], "truncated": []}
            for i, dset in enumerate(sets):
                t = dset.to_table(columns=["deal_id", "lineup", "payout", "win", "truncated"], filter=flt)
                pos = t.column("lineup").to_numpy().astype(np.int64) * count + (t.column("deal_id").to_numpy() - lo)
                if t.num_rows != nl * count or len(np.unique(pos)) != nl * count or pos.min() < 0 \
                        or pos.max() >= nl * count:
                    raise UsageError(f"{where}: point {i} lacks rows of deals {lo}..{lo + count - 1} (or has "
                                     "others): not the dataset its _summary.json describes (damaged?)")
                for name in cols:
                    v = np.zeros(nl * count, dtype=np.float64 if name == "payout" else bool)
                    v[pos] = t.column(name).to_numpy(zero_copy_only=False)
                    cols[name].append(v)
            acc.add({name: np.concatenate(v) for name, v in cols.items()}, count)
    except UsageError:
        raise
    except (OSError, ValueError, KeyError, IndexError, pa.ArrowException) as exc:
        raise UsageError(f"{where}: its rows cannot be read ({exc.__class__.__name__}; truncated or corrupt "
                         "dataset?)") from None
    summary = with_sequential(acc.summary(), stored.get("sequential"))
    return ExperimentResult(summary, meta, {}, str(p))
