"""What cardsim may write, replace and delete (issue 13, "data loss"): one table row per case.

Rule for every command that writes (``run``, ``compare``, ``sweep``, ``tune``, ``report``): cardsim
deletes only what it created itself. An existing output path is refused with exit 2 unless
``--overwrite`` is given, and then only a previous cardsim output of the same kind is replaced
(atomically); anything else is refused. Finished shards are verified against the run's key
before a resume uses them; a bad shard is played again. Two runs on one ``--out`` cannot both
write (a lock file in the work directory). Litter of a killed run is cleaned up by the next.

Every row runs the real command line in-process (typer's CliRunner) in a fresh directory with a
sentinel file, and checks the exit code, the one ``Error:`` line, and that nothing the row does
not name changed: every file that existed before has the same bytes afterwards, and no file
appeared except the row's output.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cardsim.sim.io import META_KEY
from cardsim.sim.runner import make_config, run
from cli_helpers import invoke

RUN = ["run", "tonk", "-p", "2", "-n", "200", "--shard-size", "50", "-q"]
CMP = ["compare", "tonk", "-p", "2", "--strategy", "greedy", "--strategy", "knocker", "-n", "100",
       "--shard-size", "50", "-q"]
SWP = ["sweep", "tonk", "-p", "2", "--strategy", "knocker", "--param", "threshold=4,8", "-n", "100",
       "--shard-size", "50", "-q"]
TUN = ["tune", "tonk", "-p", "2", "--strategy", "knocker", "--param", "threshold=0:8:1", "--budget", "2000", "-q",
       "-w", "1"]
LITTER = (".partial-", ".old-", ".work")


def interrupted(cfg, out: Path):
    """Play every shard of ``cfg`` into ``out``'s work directory, then stop before the merge
    (as a kill would): the work directory keeps run.json and the shards."""
    def stop(done, total, *note):
        if done >= total:
            raise KeyboardInterrupt
    out.parent.mkdir(parents=True, exist_ok=True)
    with pytest.raises(KeyboardInterrupt):
        run(cfg, str(out), progress=stop)
    return out.parent / f".{out.name}.work"


def interrupted_experiment(args: list[str], out: Path):
    """The same for compare/sweep, through the API (``--out`` of the given CLI arguments)."""
    from cardsim.sim.experiment import make_compare, run_experiment

    def stop(done, total, *note):
        if done >= total:
            raise KeyboardInterrupt
    seed = int(args[args.index("--seed") + 1])
    exp = make_compare("tonk", ["greedy", "knocker"], players=2, seed=seed, shard_size=50)
    out.parent.mkdir(parents=True, exist_ok=True)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, 100, str(out), progress=stop)
    return out.parent / f".{out.name}.work"


@pytest.fixture(scope="module")
def prev(tmp_path_factory):
    """Previous cardsim outputs of every kind, references, and stored shards to plant."""
    d = tmp_path_factory.mktemp("prev")
    p = {"dir": d}
    for name, args in (("run.parquet", [*RUN, "--seed", "1"]), ("cmp", [*CMP, "--seed", "1"]),
                       ("swp", [*SWP, "--seed", "1"]), ("ref0.parquet", [*RUN, "--seed", "0"]),
                       ("refcmp0", [*CMP, "--seed", "0"]), ("tun", [*TUN, "--seed", "1"])):
        res = invoke(*args, "--out", d / name)
        assert res.exit_code == 0, res.output
        p[name] = d / name
    pytest.importorskip("matplotlib")
    res = invoke("report", d / "run.parquet", "--out", d / "rep")
    assert res.exit_code == 0, res.output
    p["rep"] = d / "rep"
    # stored shards of an interrupted run: of seed 1 (to plant into a seed-0 run) and of seed 0
    for seed in (0, 1):
        w = interrupted(make_config("tonk", 2, 200, seed, shard_size=50), d / f"s{seed}" / "x.parquet")
        p[f"shards{seed}"] = w
    p["cmpshards1"] = interrupted_experiment(["--seed", "1"], d / "c1" / "x")
    return p


# ---- checks -------------------------------------------------------------------------

def snapshot(root: Path) -> dict:
    """Every path under ``root`` (links not followed): its kind and its bytes (link: target)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                out[rel] = ("dir", None)
            else:
                out[rel] = ("file", path.read_bytes())
    return out


def under(rel: str, prefixes) -> bool:
    return any(rel == p or rel.startswith(p + os.sep) for p in prefixes)


def assert_untouched(before: dict, after: dict, touched) -> None:
    for rel, what in before.items():
        if not under(rel, touched):
            assert after.get(rel) == what, f"{rel} was changed or removed"
    new = sorted(rel for rel in after if rel not in before and not under(rel, touched))
    assert not new, f"created {new}"


def same_table(path: Path, ref: Path):
    got, want = pq.read_table(path), pq.read_table(ref)
    assert got.equals(want)
    assert pq.read_metadata(path).metadata[META_KEY] == pq.read_metadata(ref).metadata[META_KEY]


def same_dataset(path: Path, ref: Path):
    assert json.loads((path / "_summary.json").read_text())["summary"] == \
        json.loads((ref / "_summary.json").read_text())["summary"]
    files = sorted(str(f.relative_to(path)) for f in path.rglob("*.parquet"))
    assert files == sorted(str(f.relative_to(ref)) for f in ref.rglob("*.parquet"))
    for rel in files:
        assert pq.read_table(path / rel).equals(pq.read_table(ref / rel)), rel


def meta_of(path: Path) -> dict:
    return json.loads(pq.read_metadata(path).metadata[META_KEY])


# ---- setups ---------------------------------------------------------------------------

def text_file(name, body="my notes\n"):
    def setup(t, p):
        (t / name).write_text(body)
    return setup


def copy_of(src_key, name, extra: Callable | None = None):
    def setup(t, p):
        src = p[src_key]
        if src.is_dir():
            shutil.copytree(src, t / name)
        else:
            shutil.copy2(src, t / name)
        if extra:
            extra(t, p)
    return setup


def user_dir(name, files=("notes.txt", "data.csv")):
    def setup(t, p):
        (t / name).mkdir()
        for f in files:
            (t / name / f).write_text(f"user file {f}\n")
    return setup


def both(*setups):
    def setup(t, p):
        for s in setups:
            s(t, p)
    return setup


def symlink(name, target):
    def setup(t, p):
        os.symlink(target, t / name)
    return setup


def foreign_parquet(name):
    def setup(t, p):
        pq.write_table(pa.table({"x": [1, 2, 3]}), t / name)
    return setup


def dataset_part(name):
    def setup(t, p):
        shutil.copy2(next((p["cmp"] / "point-0").glob("*.parquet")), t / name)
    return setup


def planted(src_key, out_name, mutate: Callable | None = None, drop_run_json=False):
    """A work directory for ``out_name`` holding the stored shards of ``src_key``."""
    def setup(t, p):
        w = t / f".{out_name}.work"
        shutil.copytree(p[src_key], w)
        if drop_run_json:
            (w / "run.json").unlink()
        if mutate:
            mutate(w)
    return setup


def shard(w: Path, i: int) -> Path:
    return sorted(w.glob("shard-*.parquet"))[i]


def zero_length(w):
    shard(w, 1).write_bytes(b"")


def torn(w):
    s = shard(w, 2)
    s.write_bytes(s.read_bytes()[: s.stat().st_size // 2])


def garbage(w):
    shard(w, 0).write_bytes(b"PAR1 this is not a shard PAR1")


def corrupt_run_json(w):
    (w / "run.json").write_text("{")


def lock_holder(out_name):
    """Another process holding the output's lock (as a running cardsim would)."""
    def setup(t, p):
        w = t / f".{out_name}.work"
        w.mkdir()
        code = ("import fcntl, os, sys, time\n"
                "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)\n"
                "fcntl.flock(fd, fcntl.LOCK_EX)\n"
                "os.write(fd, f'{os.getpid()} elsewhere\\n'.encode())\n"
                "print('locked', flush=True)\n"
                "time.sleep(120)\n")
        proc = subprocess.Popen([sys.executable, "-c", code, str(w / "lock")], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "locked"
        return {"pid": proc.pid, "proc": proc}
    return setup


# ---- the table ------------------------------------------------------------------------

@dataclass
class Case:
    id: str
    args: list                       # "{t}" is the row's directory, "{prev}" the previous outputs
    setup: Callable | None = None
    code: int = 2
    fragments: tuple = ()            # in the one Error: line ("{t}", "{pid}" formatted)
    touched: tuple = ()              # paths (relative to {t}) the row may create, change or remove
    check: Callable | None = None
    cwd: str | None = None           # run in this directory (relative to {t}; for --out .)


def seed_is(name, seed, rows):
    def check(t, p, ctx):
        assert meta_of(t / name)["seed"] == seed and pq.read_metadata(t / name).num_rows == rows
    return check


def equals_ref(name, ref_key):
    def check(t, p, ctx):
        same_table(t / name, p[ref_key])
    return check


def dataset_equals(name, ref_key):
    def check(t, p, ctx):
        same_dataset(t / name, p[ref_key])
    return check


def dataset_seed(name, kind, seed):
    def check(t, p, ctx):
        meta = json.loads((t / name / "_summary.json").read_text())["meta"]
        assert meta["kind"] == kind and meta["seed"] == seed and meta["deals"] == 100
    return check


def tune_seed(name, seed):
    def check(t, p, ctx):
        meta = json.loads((t / name / "_summary.json").read_text())["meta"]
        assert meta["kind"] == "tune" and meta["seed"] == seed
        assert sorted(os.listdir(t / name)) == ["_summary.json", "evaluations.parquet"]
    return check


def report_of(name, source_fragment):
    def check(t, p, ctx):
        text = (t / name / "report.md").read_text()
        assert text.startswith("# cardsim report: ") and source_fragment in text
    return check


EXISTS = "exists; pass --overwrite to replace it"
CASES = [
    # ---- run --out FILE
    Case("run-existing-text", [*RUN, "--out", "{t}/existing.txt"], text_file("existing.txt"),
         fragments=("{t}/existing.txt", EXISTS)),
    Case("run-overwrite-text", [*RUN, "--out", "{t}/existing.txt", "--overwrite"], text_file("existing.txt"),
         fragments=("{t}/existing.txt", "not a previous cardsim run file", "not a Parquet file")),
    Case("run-overwrite-empty-file", [*RUN, "--out", "{t}/o.parquet", "--overwrite"], text_file("o.parquet", ""),
         fragments=("not a previous cardsim run file",)),
    Case("run-existing-run-file", [*RUN, "--seed", "2", "--out", "{t}/o.parquet"], copy_of("run.parquet", "o.parquet"),
         fragments=("{t}/o.parquet", EXISTS, "run file")),
    Case("run-overwrite-run-file", [*RUN, "--seed", "2", "--out", "{t}/o.parquet", "--overwrite"],
         copy_of("run.parquet", "o.parquet"), code=0, touched=("o.parquet",), check=seed_is("o.parquet", 2, 200)),
    Case("run-overwrite-foreign-parquet", [*RUN, "--out", "{t}/o.parquet", "--overwrite"],
         foreign_parquet("o.parquet"), fragments=("not a previous cardsim run file", "no cardsim metadata")),
    Case("run-overwrite-dataset-part", [*RUN, "--out", "{t}/o.parquet", "--overwrite"], dataset_part("o.parquet"),
         fragments=("not a previous cardsim run file", "compare dataset")),
    Case("run-out-symlink", [*RUN, "--out", "{t}/link.parquet"],
         both(copy_of("run.parquet", "real.parquet"), symlink("link.parquet", "real.parquet")),
         fragments=("{t}/link.parquet", "symbolic link")),
    Case("run-overwrite-symlink", [*RUN, "--out", "{t}/link.parquet", "--overwrite"],
         both(copy_of("run.parquet", "real.parquet"), symlink("link.parquet", "real.parquet")),
         fragments=("{t}/link.parquet", "symbolic link")),
    Case("run-out-dangling-symlink", [*RUN, "--out", "{t}/link.parquet"], symlink("link.parquet", "nowhere.parquet"),
         fragments=("{t}/link.parquet", "symbolic link")),
    Case("run-overwrite-without-out", [*RUN, "--overwrite"], fragments=("--overwrite needs --out",)),
    # ---- compare/sweep --out DIR
    Case("compare-dir-with-files", [*CMP, "--out", "{t}/mine"], user_dir("mine"),
         fragments=("{t}/mine", EXISTS, "compare dataset")),
    Case("compare-out-dot", [*CMP, "--out", "."], user_dir("mine"), cwd=".",
         fragments=("'.'", "current directory")),
    Case("compare-out-dot-overwrite", [*CMP, "--out", ".", "--overwrite"], user_dir("mine"), cwd=".",
         fragments=("'.'", "current directory")),
    Case("compare-out-parent-of-cwd", [*CMP, "--out", "{t}", "--overwrite"], user_dir("mine"), cwd="mine",
         fragments=("current directory",)),
    Case("compare-overwrite-user-dir", [*CMP, "--out", "{t}/mine", "--overwrite"], user_dir("mine"),
         fragments=("{t}/mine", "not a previous cardsim compare dataset")),
    Case("compare-overwrite-compare", [*CMP, "--seed", "2", "--out", "{t}/c", "--overwrite"], copy_of("cmp", "c"),
         code=0, touched=("c",), check=dataset_seed("c", "compare", 2)),
    Case("compare-existing-compare", [*CMP, "--seed", "2", "--out", "{t}/c"], copy_of("cmp", "c"),
         fragments=("{t}/c", EXISTS)),
    Case("compare-overwrite-compare-holding-a-user-file", [*CMP, "--out", "{t}/c", "--overwrite"],
         copy_of("cmp", "c", text_file("c/notes.txt")), fragments=("{t}/c", "notes.txt", "did not write")),
    Case("compare-overwrite-compare-with-a-user-file-in-a-point", [*CMP, "--out", "{t}/c", "--overwrite"],
         copy_of("cmp", "c", text_file("c/point-0/notes.txt")), fragments=("{t}/c", "notes.txt", "did not write")),
    Case("sweep-overwrite-compare", [*SWP, "--out", "{t}/c", "--overwrite"], copy_of("cmp", "c"),
         fragments=("{t}/c", "not a previous cardsim sweep dataset", "compare dataset")),
    Case("sweep-overwrite-sweep", [*SWP, "--seed", "2", "--out", "{t}/s", "--overwrite"], copy_of("swp", "s"),
         code=0, touched=("s",), check=dataset_seed("s", "sweep", 2)),
    Case("compare-overwrite-run-file", [*CMP, "--out", "{t}/o.parquet", "--overwrite"],
         copy_of("run.parquet", "o.parquet"), fragments=("{t}/o.parquet", "not a directory")),
    Case("compare-into-empty-dir", [*CMP, "--seed", "0", "--out", "{t}/empty"], user_dir("empty", ()), code=0,
         touched=("empty",), check=dataset_equals("empty", "refcmp0")),
    Case("compare-overwrite-symlink", [*CMP, "--out", "{t}/link", "--overwrite"],
         both(copy_of("cmp", "c"), symlink("link", "c")), fragments=("{t}/link", "symbolic link")),
    # ---- tune --out DIR
    Case("tune-dir-with-files", [*TUN, "--out", "{t}/mine"], user_dir("mine"),
         fragments=("{t}/mine", EXISTS, "tune dataset")),
    Case("tune-out-dot", [*TUN, "--out", "."], user_dir("mine"), cwd=".", fragments=("'.'", "current directory")),
    Case("tune-overwrite-user-dir", [*TUN, "--out", "{t}/mine", "--overwrite"], user_dir("mine"),
         fragments=("{t}/mine", "not a previous cardsim tune dataset")),
    Case("tune-existing-tune", [*TUN, "--seed", "2", "--out", "{t}/u"], copy_of("tun", "u"), fragments=("{t}/u", EXISTS)),
    Case("tune-overwrite-tune", [*TUN, "--seed", "2", "--out", "{t}/u", "--overwrite"], copy_of("tun", "u"), code=0,
         touched=("u",), check=tune_seed("u", 2)),
    Case("tune-overwrite-compare", [*TUN, "--out", "{t}/c", "--overwrite"], copy_of("cmp", "c"),
         fragments=("{t}/c", "not a previous cardsim tune dataset", "compare dataset")),
    Case("compare-overwrite-tune", [*CMP, "--out", "{t}/u", "--overwrite"], copy_of("tun", "u"),
         fragments=("{t}/u", "not a previous cardsim compare dataset", "tune dataset")),
    Case("tune-overwrite-tune-holding-a-user-file", [*TUN, "--out", "{t}/u", "--overwrite"],
         copy_of("tun", "u", text_file("u/notes.txt")), fragments=("{t}/u", "notes.txt", "did not write")),
    Case("tune-overwrite-symlink", [*TUN, "--out", "{t}/link", "--overwrite"],
         both(copy_of("tun", "u"), symlink("link", "u")), fragments=("{t}/link", "symbolic link")),
    Case("tune-overwrite-run-file", [*TUN, "--out", "{t}/o.parquet", "--overwrite"],
         copy_of("run.parquet", "o.parquet"), fragments=("{t}/o.parquet", "not a directory")),
    # ---- report --out DIR
    Case("report-dir-with-files", ["report", "{prev}/run.parquet", "--out", "{t}/mine"], user_dir("mine"),
         fragments=("{t}/mine", EXISTS, "report")),
    Case("report-out-dot", ["report", "{prev}/run.parquet", "--out", "."], user_dir("mine"), cwd=".",
         fragments=("'.'", "current directory")),
    Case("report-overwrite-user-dir", ["report", "{prev}/run.parquet", "--out", "{t}/mine", "--overwrite"],
         user_dir("mine"), fragments=("{t}/mine", "not a previous cardsim report")),
    Case("report-overwrite-report", ["report", "{prev}/cmp", "--out", "{t}/r", "--overwrite"], copy_of("rep", "r"),
         code=0, touched=("r",), check=report_of("r", "compare")),
    Case("report-existing-report", ["report", "{prev}/cmp", "--out", "{t}/r"], copy_of("rep", "r"),
         fragments=("{t}/r", EXISTS)),
    Case("report-overwrite-report-holding-a-user-file", ["report", "{prev}/cmp", "--out", "{t}/r", "--overwrite"],
         copy_of("rep", "r", text_file("r/notes.txt")), fragments=("{t}/r", "notes.txt", "did not write")),
    Case("report-overwrite-dataset", ["report", "{prev}/run.parquet", "--out", "{t}/c", "--overwrite"],
         copy_of("cmp", "c"), fragments=("{t}/c", "not a previous cardsim report", "compare dataset")),
    Case("report-out-existing-file", ["report", "{prev}/run.parquet", "--out", "{t}/notes.txt"],
         text_file("notes.txt"), fragments=("{t}/notes.txt", "not a directory")),
    Case("report-missing-source", ["report", "{t}/missing.parquet", "--out", "{t}/r"],
         fragments=("no such file",)),
    # ---- odds writes no file
    Case("odds-out", ["odds", "telefunken", "--hand", "1", "-n", "10", "--out", "{t}/odds.txt"],
         text_file("odds.txt"), fragments=("--out",)),
    # ---- the work directory
    Case("work-dir-is-a-file", [*RUN, "--out", "{t}/x.parquet"], text_file(".x.parquet.work"),
         fragments=("{t}/.x.parquet.work", "in the way")),
    Case("work-dir-is-a-symlink", [*RUN, "--out", "{t}/x.parquet"],
         both(user_dir("elsewhere", ("keep.txt",)), symlink(".x.parquet.work", "elsewhere")),
         fragments=("{t}/.x.parquet.work", "symbolic link")),
    Case("work-dir-holds-a-user-file", [*RUN, "--out", "{t}/x.parquet"],
         planted("shards0", "x.parquet", lambda w: (w / "notes.txt").write_text("mine")),
         fragments=("{t}/.x.parquet.work", "notes.txt", "did not write")),
    Case("another-run-holds-the-lock", [*RUN, "--seed", "0", "--out", "{t}/x.parquet"], lock_holder("x.parquet"),
         fragments=("another cardsim run", "process {pid}", "{t}/x.parquet")),
    Case("litter-of-a-killed-merge-is-removed", [*RUN, "--seed", "0", "--out", "{t}/x.parquet"],
         both(lambda t, p: (t / ".x.parquet.partial-k2j4_x9a").mkdir(),
              text_file(".x.parquet.partial-k2j4_x9a/merged.parquet", "PAR1 torn")),
         code=0, touched=("x.parquet", ".x.parquet.partial-k2j4_x9a"), check=equals_ref("x.parquet", "ref0.parquet")),
    Case("partial-lookalike-holding-a-user-file-is-kept", [*RUN, "--seed", "0", "--out", "{t}/x.parquet"],
         both(lambda t, p: (t / ".x.parquet.partial-k2j4_x9a").mkdir(),
              text_file(".x.parquet.partial-k2j4_x9a/notes.txt")),
         code=0, touched=("x.parquet",), check=equals_ref("x.parquet", "ref0.parquet")),
    # ---- resume: every stored shard is verified against the run's key
    Case("resume-planted-shards-of-another-seed-without-run-json", [*RUN, "--seed", "0", "--out", "{t}/x.parquet",
                                                                    "--resume"],
         planted("shards1", "x.parquet", drop_run_json=True), code=0, touched=("x.parquet", ".x.parquet.work"),
         check=equals_ref("x.parquet", "ref0.parquet")),
    Case("resume-planted-shards-with-a-corrupt-run-json", [*RUN, "--seed", "0", "--out", "{t}/x.parquet", "--resume"],
         planted("shards1", "x.parquet", corrupt_run_json), code=0, touched=("x.parquet", ".x.parquet.work"),
         check=equals_ref("x.parquet", "ref0.parquet")),
    Case("resume-zero-length-shard", [*RUN, "--seed", "0", "--out", "{t}/x.parquet", "--resume"],
         planted("shards0", "x.parquet", zero_length), code=0, touched=("x.parquet", ".x.parquet.work"),
         check=equals_ref("x.parquet", "ref0.parquet")),
    Case("resume-torn-shard", [*RUN, "--seed", "0", "--out", "{t}/x.parquet", "--resume"],
         planted("shards0", "x.parquet", torn), code=0, touched=("x.parquet", ".x.parquet.work"),
         check=equals_ref("x.parquet", "ref0.parquet")),
    Case("resume-garbage-shard", [*RUN, "--seed", "0", "--out", "{t}/x.parquet", "--resume"],
         planted("shards0", "x.parquet", garbage), code=0, touched=("x.parquet", ".x.parquet.work"),
         check=equals_ref("x.parquet", "ref0.parquet")),
    Case("resume-compare-planted-shards-of-another-seed", [*CMP, "--seed", "0", "--out", "{t}/x", "--resume"],
         planted("cmpshards1", "x", drop_run_json=True), code=0, touched=("x", ".x.work"),
         check=dataset_equals("x", "refcmp0")),
    Case("resume-onto-a-finished-output", [*RUN, "--seed", "0", "--out", "{t}/x.parquet", "--resume"],
         both(copy_of("ref0.parquet", "x.parquet"), planted("shards0", "x.parquet")),
         fragments=("{t}/x.parquet", EXISTS)),
    Case("resume-overwrite-onto-a-finished-output", [*RUN, "--seed", "0", "--out", "{t}/x.parquet", "--resume",
                                                     "--overwrite"],
         both(copy_of("run.parquet", "x.parquet"), planted("shards0", "x.parquet")), code=0,
         touched=("x.parquet", ".x.parquet.work"), check=equals_ref("x.parquet", "ref0.parquet")),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_output_safety(case: Case, prev, tmp_path):
    t = tmp_path / "w"
    t.mkdir()
    (t / "sentinel.txt").write_text("do not touch\n")
    ctx = (case.setup(t, prev) if case.setup else None) or {}
    try:
        before = snapshot(t)
        args = [a.format(t=t, prev=prev["dir"]) for a in case.args]
        res = invoke(*args, cwd=None if case.cwd is None else t / case.cwd)
        after = snapshot(t)
    finally:
        if "proc" in ctx:
            ctx["proc"].kill()
            ctx["proc"].wait()
    assert "Traceback" not in res.output, res.output
    assert res.exit_code == case.code, (res.exit_code, res.output, res.exception)
    if case.code:
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
        for frag in case.fragments:
            frag = frag.format(t=t, pid=ctx.get("pid"))
            assert frag in lines[0], (frag, lines[0])
        assert res.stdout.strip() == ""
    assert_untouched(before, after, case.touched)
    if case.code == 0:
        assert (t / "sentinel.txt").read_text() == "do not touch\n"
        left = [rel for rel in after if any(x in rel for x in LITTER) and rel not in before]
        assert not left, left
        gone = [rel for rel in before if any(x in rel for x in LITTER) and under(rel, case.touched)]
        assert not [rel for rel in gone if rel in after], "litter left behind"
    if case.check:
        case.check(t, prev, ctx)


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2-exchange", "two-renames"])
def test_overwrite_swaps_a_dataset_whole(exchange, prev, tmp_path, monkeypatch):
    """--overwrite of a dataset: the new one takes its place whole (atomic exchange, or two
    renames where the system lacks it), the old one is gone, nothing else is left."""
    from cardsim.sim import store
    if not exchange:
        monkeypatch.setattr(store, "_rename_exchange", lambda a, b: False)
    shutil.copytree(prev["cmp"], tmp_path / "c")
    (tmp_path / "sentinel.txt").write_text("keep\n")
    res = invoke(*CMP, "--seed", "0", "--out", tmp_path / "c", "--overwrite")
    assert res.exit_code == 0, res.output
    same_dataset(tmp_path / "c", prev["refcmp0"])
    assert sorted(os.listdir(tmp_path)) == ["c", "sentinel.txt"]
