"""Shard files under deterministic names, resume, and the final atomic output.

A run writing ``OUT`` keeps its shards in the sibling work directory ``.OUT.work/``:
``run.json`` (the run's deterministic metadata) and one ``shard-<first deal>.parquet``
per finished shard, each written to a temporary name and renamed, so a shard file exists
only when complete. ``--resume`` reuses the finished shards of an interrupted run
(Ctrl-C, SIGKILL, power loss) if ``run.json`` matches the new run exactly, and plays the
rest; the result is identical to an uninterrupted run. At the end the shards are merged
into ``OUT`` (a Parquet file, or a Parquet dataset directory partitioned by a column)
through a temporary name and an atomic rename, and the work directory is removed.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from sim.errors import UsageError
from sim.io import META_KEY, TIMING_KEY, check_output_path


class ShardStore:
    def __init__(self, out: str | os.PathLike, meta: dict, resume: bool = False, dataset: bool = False,
                 layout: dict | None = None):
        self.out = Path(out)
        self.dataset = dataset
        if dataset:
            _check_dataset_path(self.out)
        else:
            check_output_path(self.out)
        self.meta = meta
        self.work = self.out.parent / f".{self.out.name}.work"
        # run.json: the metadata plus the shard layout (shard sizes decide which deals a shard holds)
        meta_text = json.dumps({"meta": meta, "layout": layout or {}}, sort_keys=True)
        if self.work.exists():
            old = (self.work / "run.json").read_text() if (self.work / "run.json").exists() else None
            if resume and old is not None and old != meta_text:
                raise UsageError(f"cannot resume into {str(self.out)!r}: the interrupted run in "
                                 f"{str(self.work)!r} used other arguments; rerun without --resume to start over")
            if not resume:
                shutil.rmtree(self.work)
        self.work.mkdir(exist_ok=True)
        _atomic_write_text(self.work / "run.json", meta_text)

    def shard_path(self, first: int) -> Path:
        return self.work / f"shard-{first:015d}.parquet"

    def has(self, first: int) -> bool:
        return self.shard_path(first).exists()

    def read(self, first: int) -> pa.Table:
        return pq.read_table(self.shard_path(first))

    def write(self, first: int, table: pa.Table) -> None:
        path = self.shard_path(first)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=self.work)
        os.close(fd)
        try:
            pq.write_table(table, tmp, compression="zstd")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def discard(self) -> None:
        """Remove the work directory (an interrupted run keeps it for --resume instead)."""
        shutil.rmtree(self.work, ignore_errors=True)

    def finish(self, firsts: list[int], timing: dict, partition: str | None = None,
               extra_files: dict[str, bytes] | None = None) -> Path:
        """Merge the listed shards (in order) into the output, atomically; drop the work dir."""
        kv = {META_KEY: json.dumps(self.meta, sort_keys=True), TIMING_KEY: json.dumps(timing, sort_keys=True)}
        tmp = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.partial-", dir=self.out.parent))
        try:
            if self.dataset:
                _write_dataset(tmp, [self.shard_path(f) for f in firsts], partition, kv)
                for name, data in (extra_files or {}).items():
                    (tmp / name).write_bytes(data)
                if self.out.exists():
                    shutil.rmtree(self.out)
                os.replace(tmp, self.out)
            else:
                _merge_file(tmp / "merged.parquet", [self.shard_path(f) for f in firsts], kv)
                os.replace(tmp / "merged.parquet", self.out)
                tmp.rmdir()
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        shutil.rmtree(self.work, ignore_errors=True)
        return self.out


def _check_dataset_path(p: Path) -> None:
    if p.exists() and not p.is_dir():
        raise UsageError(f"output {str(p)!r} exists and is not a directory; give a directory name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"cannot write {str(p)!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {str(p)!r}: permission denied")


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _merge_file(target: Path, shards: list[Path], kv: dict) -> None:
    """Concatenate shard files (row groups in order) into one Parquet file, streaming."""
    writer = None
    try:
        for path in shards:
            pf = pq.ParquetFile(path)
            for i in range(pf.num_row_groups):
                table = pf.read_row_group(i)
                if writer is None:
                    writer = pq.ParquetWriter(target, table.schema.with_metadata(kv), compression="zstd")
                writer.write_table(table.replace_schema_metadata(writer.schema.metadata))
    finally:
        if writer is not None:
            writer.close()


def _write_dataset(target: Path, shards: list[Path], partition: str | None, kv: dict) -> None:
    """One hive-partitioned dataset (``partition=value/`` folders) from the shard files."""
    source = ds.dataset([str(p) for p in shards], format="parquet")
    source = source.replace_schema(source.schema.with_metadata(kv))
    ds.write_dataset(source, target, format="parquet",
                     partitioning=[partition] if partition else None, partitioning_flavor="hive",
                     basename_template="part-{i}.parquet", preserve_order=True,
                     max_rows_per_group=1 << 18, existing_data_behavior="overwrite_or_ignore")
