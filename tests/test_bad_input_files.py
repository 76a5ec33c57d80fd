"""Files that gave silently wrong answers or tracebacks (issue 39), as real ``cardsim``
invocations: a dataset with a part of another run swapped in (or two of its parts swapped),
forged metadata (a seed of 2**70, NaN, 100,000-deep JSON, a negative seed, a first deal near
2**63 naming deals the file does not hold), a damaged part file, and a full disk under
``tune --out`` or from the very start of ``run --out``.

``CASES`` is the table (``bad_input_harness``): each row must end with one ``Error:`` line and
its exit code, no traceback, and nothing created or changed in its directory. Then the
readers outside the command line (the Python API, ``--resume``) on the same files.
"""
from __future__ import annotations

import errno
import importlib.util
import json
import math
import os
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import cardsim
from cardsim.sim import experiment, runner
from cardsim.sim.cli import app
from cardsim.sim.errors import UsageError
from cardsim.sim.io import META_KEY, PART_KEY
from cardsim.sim.stats import json_clean

from bad_input_harness import Case, check_case, make_sources

DEALS = 60                         # deals of each source dataset: small, every row reads them whole


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """The harness's run file, plus two compare datasets of three points that differ only in
    their seed (1 and 9)."""
    src = make_sources(tmp_path_factory)
    d = tmp_path_factory.mktemp("file_sources")
    for name, seed in (("cmp", 1), ("cmp9", 9)):
        exp = experiment.make_compare("tonk", ["greedy", "knocker", "watcher"], players=2, seed=seed)
        experiment.run_experiment(exp, DEALS, str(d / name))
        src[name] = d / name
    if importlib.util.find_spec("optuna") is not None:
        for name, seed in (("tune", "1"), ("tune9", "9")):
            args = [a if a != "t" else str(d / name) for a in TUNE]
            res = CliRunner().invoke(app, [*args, "--seed", seed])
            assert res.exit_code == 0, res.output
            src[name] = d / name
    return src


# ---- input files -------------------------------------------------------------------------------

def _forge(src: Path, dst: Path, edit=None, raw: bytes | None = None) -> None:
    """``src`` rewritten to ``dst`` with its cardsim metadata edited (or replaced by ``raw``)."""
    table = pq.read_table(src)
    kv = dict(table.schema.metadata)
    if raw is not None:
        kv[META_KEY] = raw
    if edit is not None:
        meta = json.loads(kv[META_KEY])
        edit(meta)
        kv[META_KEY] = json.dumps(meta).encode()
    pq.write_table(table.replace_schema_metadata(kv), dst)


DEEP = b"[" * 100_000 + b"]" * 100_000
NAN_SEED = "nan"


def forged_run(what: str):
    """A setup writing ``bad.parquet``: the run file with forged metadata."""
    def setup(src: dict, d: Path) -> None:
        out = d / "bad.parquet"
        if what == "deep":
            _forge(src["run"], out, raw=DEEP)
        elif what == NAN_SEED:
            text = json.dumps({**json.loads(pq.read_schema(src["run"]).metadata[META_KEY]), "seed": "@"})
            _forge(src["run"], out, raw=text.replace('"@"', "NaN").encode())
        elif what == "huge":
            _forge(src["run"], out, lambda m: m.update(seed=2 ** 70))
        elif what == "negative":
            _forge(src["run"], out, lambda m: m.update(seed=-5))
        elif what == "far":                     # valid ids, but the file holds deals 0..299
            _forge(src["run"], out, lambda m: m.update(first_deal=2 ** 63 - 1000))
        elif what == "beyond":                  # first_deal + deals past 2**63 - 1
            _forge(src["run"], out, lambda m: m.update(first_deal=2 ** 63 - 10))
        elif what in ("param", "param-nan"):    # seat 1's knocker threshold (0..50), its label to match
            value = 10 ** 9 if what == "param" else float("nan")

            def edit(m):
                m["seats"][1]["params"]["threshold"] = value
                m["seats"][1]["label"] = f"knocker:threshold={'nan' if math.isnan(value) else value}"
            _forge(src["run"], out, edit)
        else:
            raise AssertionError(what)
    return setup


def tune_swapped(src: dict, d: Path) -> None:
    """The seed-1 tune dataset with the seed-9 run's evaluations.parquet."""
    if "tune" not in src:
        pytest.skip("needs optuna (the tune extra)")
    shutil.copytree(src["tune"], d / "t")
    shutil.copyfile(src["tune9"] / "evaluations.parquet", d / "t" / "evaluations.parquet")


def dataset(kind: str):
    """A setup copying the seed-1 compare dataset to ``cmp/`` and then damaging it."""
    def setup(src: dict, d: Path) -> None:
        out = d / "cmp"
        shutil.copytree(src["cmp"], out)
        part = out / "point-1" / "part-0.parquet"
        if kind == "foreign":                   # the same file of the seed-9 run
            shutil.copyfile(src["cmp9"] / "point-1" / "part-0.parquet", part)
        elif kind == "swapped":                 # point-1 <-> point-2
            other = out / "point-2" / "part-0.parquet"
            a, b = part.read_bytes(), other.read_bytes()
            part.write_bytes(b)
            other.write_bytes(a)
        elif kind == "truncated":
            part.write_bytes(part.read_bytes()[:100])
        elif kind in ("huge", "deep"):          # its _summary.json forged
            summary = out / "_summary.json"
            if kind == "deep":
                summary.write_bytes(b'{"summary": {}, "meta": ' + DEEP + b"}")
            else:
                doc = json.loads(summary.read_text())
                doc["meta"]["seed"] = 2 ** 70
                summary.write_text(json.dumps(doc))
        else:
            raise AssertionError(kind)
    return setup


# ---- a full disk, injected -------------------------------------------------------------------

def _enospc(*_args, **_kw):
    raise OSError(errno.ENOSPC, "No space left on device")


def disk_full_from_the_start(monkeypatch) -> None:
    """Every write into the row's directory fails with ENOSPC: the first one is the lock's."""
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd")
    here = os.getcwd()
    real = os.write

    def write(fd, data):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target.startswith(here + os.sep):
            _enospc()
        return real(fd, data)
    monkeypatch.setattr(os, "write", write)


def parquet_disk_full(monkeypatch) -> None:
    """Writing a Parquet file fails with ENOSPC (pyarrow's own error on a full disk)."""
    monkeypatch.setattr(pq, "write_table", _enospc)


# ---- the table -------------------------------------------------------------------------------

REPLAY_CMP = ("replay", "cmp", "--point", "1", "--lineup", "0", "--deal", "3")
TUNE = ("tune", "tonk", "-p", "2", "--strategy", "knocker", "--param", "threshold=0:20", "--field", "greedy",
        "--budget", "400", "--rung", "100", "--rungs", "1", "--top", "1", "--remeasure", "100", "--max-trials", "3",
        "--json", "--out", "t")                  # --json: no round lines on stdout before the error
FOREIGN = ("point-1/part-0.parquet", "another run", "seed 9")
SWAPPED = ("point-1/part-0.parquet", "point 2")
DAMAGED = ("point-1/part-0.parquet", "cannot be read")

CASES = [
    # -- a shard of another run swapped in, two shards swapped
    Case("summarize: a part of a seed-9 run swapped in", ("summarize", "cmp"), 2, FOREIGN, setup=dataset("foreign")),
    Case("report: a part of a seed-9 run swapped in", ("report", "cmp", "--out", "rep"), 2, FOREIGN,
         setup=dataset("foreign")),
    Case("replay: a part of a seed-9 run swapped in", REPLAY_CMP, 2, FOREIGN, setup=dataset("foreign")),
    Case("summarize: the parts of points 1 and 2 swapped", ("summarize", "cmp"), 2, SWAPPED,
         setup=dataset("swapped")),
    Case("report: the parts of points 1 and 2 swapped", ("report", "cmp", "--out", "rep"), 2, SWAPPED,
         setup=dataset("swapped")),
    Case("replay: the parts of points 1 and 2 swapped", REPLAY_CMP, 2, SWAPPED, setup=dataset("swapped")),
    # -- forged metadata
    Case("summarize: seed 2**70", ("summarize", "bad.parquet"), 2, ("seed", str(2 ** 70), "2**63-1"),
         setup=forged_run("huge")),
    Case("replay: seed 2**70", ("replay", "bad.parquet"), 2, ("seed", str(2 ** 70), "2**63-1"),
         setup=forged_run("huge")),
    Case("replay: NaN seed", ("replay", "bad.parquet"), 2, ("seed nan", "whole number"), setup=forged_run(NAN_SEED)),
    Case("summarize: 100,000-deep JSON", ("summarize", "bad.parquet"), 2, ("unreadable cardsim metadata",),
         setup=forged_run("deep")),
    Case("replay: 100,000-deep JSON", ("replay", "bad.parquet"), 2, ("unreadable cardsim metadata",),
         setup=forged_run("deep")),
    Case("report: 100,000-deep JSON", ("report", "bad.parquet", "--out", "rep"), 2,
         ("unreadable cardsim metadata",), setup=forged_run("deep")),
    Case("replay: negative seed", ("replay", "bad.parquet"), 2, ("seed -5", "whole number"),
         setup=forged_run("negative")),
    Case("replay: first_deal near 2**63, deals the file does not hold", ("replay", "bad.parquet"), 2,
         (f"deals {2 ** 63 - 1000:,}..", "holds deals 0..299"), setup=forged_run("far")),
    Case("summarize: first_deal near 2**63, deals the file does not hold", ("summarize", "bad.parquet"), 2,
         (f"deals {2 ** 63 - 1000:,}..", "holds deals 0..299"), setup=forged_run("far")),
    Case("replay: first_deal + deals beyond 2**63-1", ("replay", "bad.parquet"), 2,
         ("first_deal + deals", "2**63-1"), setup=forged_run("beyond")),
    Case("summarize: _summary.json seed 2**70", ("summarize", "cmp"), 2, ("_summary.json", "seed", str(2 ** 70)),
         setup=dataset("huge")),
    Case("replay: _summary.json seed 2**70", REPLAY_CMP, 2, ("_summary.json", "seed", str(2 ** 70)),
         setup=dataset("huge")),
    Case("summarize: 100,000-deep _summary.json", ("summarize", "cmp"), 2, ("_summary.json",),
         setup=dataset("deep")),
    Case("replay: 100,000-deep _summary.json", REPLAY_CMP, 2, ("_summary.json",), setup=dataset("deep")),
    Case("report: 100,000-deep _summary.json", ("report", "cmp", "--out", "rep"), 2, ("_summary.json",),
         setup=dataset("deep")),
    Case("replay: a seat's parameter forged out of its range", ("replay", "bad.parquet"), 2,
         ("seat knocker", "threshold=1000000000", "out of range"), setup=forged_run("param")),
    Case("replay: a seat's parameter forged to NaN", ("replay", "bad.parquet"), 2,
         ("seat knocker", "not a number"), setup=forged_run("param-nan")),
    Case("run --overwrite over a file of 100,000-deep JSON", ("run", "tonk", "-n", "20", "-q", "--out", "bad.parquet",
                                                            "--overwrite"), 2,
         ("--overwrite", "not a previous cardsim run file", "unreadable"), setup=forged_run("deep")),
    Case("compare --overwrite over a 100,000-deep _summary.json",
         ("compare", "tonk", "--strategy", "greedy", "--strategy", "knocker", "-n", "20", "-q", "--out", "cmp",
          "--overwrite"), 2, ("--overwrite", "not a previous cardsim compare dataset", "_summary.json"),
         setup=dataset("deep")),
    Case("report: a tune dataset with the evaluations of another tune run", ("report", "t", "--out", "rep"), 2,
         ("evaluations.parquet", "not this tune dataset's"), setup=tune_swapped),
    # -- a damaged part file
    Case("summarize: a part truncated to 100 bytes", ("summarize", "cmp"), 2, DAMAGED, setup=dataset("truncated")),
    Case("report: a part truncated to 100 bytes", ("report", "cmp", "--out", "rep"), 2, DAMAGED,
         setup=dataset("truncated")),
    # -- a full disk
    Case("tune --out on a full disk", TUNE, 1, ("no space left on device", "'t'", "kept nothing"),
         patch=parquet_disk_full),
    Case("tune --out on a disk full from the start", TUNE, 1, ("no space left on device",),
         patch=disk_full_from_the_start),
    Case("run --out on a disk full from the start", ("run", "tonk", "-n", "50", "-q", "--out", "x.parquet"), 1,
         ("no space left on device",), patch=disk_full_from_the_start),
    Case("compare --out on a disk full from the start", ("compare", "tonk", "--strategy", "greedy", "--strategy",
                                                          "knocker", "-n", "20", "-q", "--out", "c"), 1,
         ("no space left on device",), patch=disk_full_from_the_start),
]


def test_every_row_has_a_distinct_name():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_files(case, sources, tmp_path, monkeypatch):
    check_case(case, sources, tmp_path, monkeypatch)


# ---- the same files through the other readers ----------------------------------------------------

@pytest.mark.parametrize("kind", ["foreign", "swapped"])
def test_python_api_replay_refuses_a_foreign_or_moved_part(kind, sources, tmp_path):
    dataset(kind)(sources, tmp_path)
    with pytest.raises(UsageError, match="point-1/part-0.parquet"):
        cardsim.replay(str(tmp_path / "cmp"), 3, point=1, lineup=0)


def test_dataset_parts_carry_their_identity(sources):
    """Every part names the dataset (a digest of its metadata), its point and its deal range."""
    from cardsim.sim.io import identity
    meta = json.loads((sources["cmp"] / "_summary.json").read_text())["meta"]
    for k in range(3):
        tag = json.loads(pq.read_metadata(sources["cmp"] / f"point-{k}" / "part-0.parquet").metadata[PART_KEY])
        assert tag == {"run": identity(meta), "point": k, "first": 0, "deals": DEALS}
    other = json.loads((sources["cmp9"] / "_summary.json").read_text())["meta"]
    assert identity(other) != identity(meta)


def test_a_dataset_written_before_identities_is_read_when_its_metadata_matches(sources, tmp_path):
    """Part files without the identity (an older cardsim) are accepted when their metadata is
    the dataset's and their rows are their point's; a moved one is still refused."""
    from cardsim.sim.datasets import summarize_dataset
    old = tmp_path / "old"
    shutil.copytree(sources["cmp"], old)
    for part in old.glob("point-*/part-0.parquet"):
        table = pq.read_table(part)
        kv = {k: v for k, v in table.schema.metadata.items() if k != PART_KEY}
        pq.write_table(table.replace_schema_metadata(kv), part)
    new = json_clean(summarize_dataset(sources["cmp"]).summary)
    assert json_clean(summarize_dataset(old).summary) == new
    a, b = old / "point-1" / "part-0.parquet", old / "point-2" / "part-0.parquet"
    data = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(data)
    with pytest.raises(UsageError, match="point-1/part-0.parquet.*point 2"):
        summarize_dataset(old)


def _cfg(seed):
    return runner.make_config("tonk", 2, 200, seed, ["greedy", "knocker"], shard_size=50)


def _stop_after(n):
    def progress(done, total, *note):
        if done >= n:
            raise KeyboardInterrupt
    return progress


def test_resume_replays_a_work_shard_of_another_run(tmp_path):
    """A stored shard of another run (the seed-9 run's shard of the same deals) put into the work
    directory is played again, never used: the resumed output is the uninterrupted run's."""
    cfg, stop_after = _cfg, _stop_after
    ref = tmp_path / "ref.parquet"
    runner.run(cfg(1), str(ref))
    outs = {}
    for seed in (1, 9):
        outs[seed] = tmp_path / f"s{seed}.parquet"
        with pytest.raises(KeyboardInterrupt):
            runner.run(cfg(seed), str(outs[seed]), progress=stop_after(100))
    work1, work9 = (o.parent / f".{o.name}.work" for o in (outs[1], outs[9]))
    name = "shard-000000000000050.parquet"
    assert (work1 / name).is_file() and (work9 / name).is_file()
    shutil.copyfile(work9 / name, work1 / name)
    runner.run(cfg(1), str(outs[1]), resume=True)
    assert pq.read_table(outs[1]).equals(pq.read_table(ref))
    assert not work1.exists()


def test_resume_over_a_deep_run_json(tmp_path):
    """A run.json of 100,000-deep JSON is unreadable, not a traceback: every shard is checked on
    its own, so the resume goes on and gives the uninterrupted run."""
    ref, out = tmp_path / "ref.parquet", tmp_path / "r.parquet"
    runner.run(_cfg(1), str(ref))
    with pytest.raises(KeyboardInterrupt):
        runner.run(_cfg(1), str(out), progress=_stop_after(100))
    (tmp_path / ".r.parquet.work" / "run.json").write_bytes(DEEP)
    runner.run(_cfg(1), str(out), resume=True)
    assert pq.read_table(out).equals(pq.read_table(ref))
