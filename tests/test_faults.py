"""Fault injection (issue 13): SIGKILL at random moments then ``--resume``, full disks, two
writers on one ``--out``, a failed run's cleanup.

* **SIGKILL + resume, every game.** The real command line runs in a child process that kills
  itself (SIGKILL, no cleanup) at a chosen moment: after the k-th shard is stored, in the middle
  of writing a shard, after k row groups of the final merge (a torn ``merged.parquet`` in
  ``.OUT.partial-*``), with the dataset written but not yet renamed, or with the output in
  place but the work directory not yet removed; plus kills at random times from outside. Then
  ``--resume`` must give exactly the uninterrupted run (rows and ``cardsim`` metadata) and leave
  no litter. By default every game gets one kill during the shards and one during the merge;
  ``CARDSIM_FAULT_TRIALS=N`` runs N random kill points per game (``CARDSIM_FAULT_SEED`` picks
  them) and N random-time kills.
* **Full disk.** ENOSPC injected in-process at every write (shard, run.json, merge, dataset,
  report), and a real small tmpfs (only as root, where ``mount`` works; skipped otherwise):
  exit 1, one ``Error:`` line naming the cause, nothing left but what was there before.
* **Two writers.** A second run on the same ``--out`` while the first holds the lock exits 2
  with one line naming the first run's process id; started together, one succeeds and the
  other is refused cleanly.
"""
from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import cardsim.sim.runner as runner_mod
import cardsim.sim.store as store_mod
from cardsim.sim.errors import CheckError
from cardsim.sim.io import META_KEY
from cardsim.sim.runner import make_config, run
from cli_helpers import cardsim_cmd, default_signals, invoke

TRIALS = int(os.environ.get("CARDSIM_FAULT_TRIALS", "0"))
RNG = random.Random(int(os.environ.get("CARDSIM_FAULT_SEED", "13")))
LITTER = (".partial-", ".old-", ".work")

# game: (players, deals, shard size) -- a handful of shards each, cheap to play
GAMES = {
    "tonk": (2, 400, 50),
    "telefunken": (4, 12, 2),
    "contract_rummy": (4, 12, 2),
    "marafon": (4, 40, 5),
    "trionfo": (5, 40, 5),
    "tripoli": (4, 40, 5),
}

# The real CLI in a child that SIGKILLs itself at the moment CARDSIM_TEST_KILL names.
LAUNCHER = r'''
import json, os, signal, sys
plan = json.loads(os.environ.get("CARDSIM_TEST_KILL", "null"))
import cardsim.sim.store as store

def die():
    os.kill(os.getpid(), signal.SIGKILL)

if plan and plan["at"] == "shard":            # the n-th shard stored
    real_write, seen = store.ShardStore.write, [0]
    def write(self, *args):
        real_write(self, *args)
        seen[0] += 1
        if seen[0] == plan["n"]:
            die()
    store.ShardStore.write = write
elif plan and plan["at"] == "shard-write":    # half of the n-th shard's temporary file written
    real_wt, seen = store.pq.write_table, [0]
    def write_table(table, where, **kw):
        seen[0] += 1
        real_wt(table, where, **kw)
        if seen[0] == plan["n"]:
            with open(where, "r+b") as f:
                f.truncate(os.path.getsize(where) // 2)
            die()
    store.pq.write_table = write_table
elif plan and plan["at"] == "merge":          # n row groups of the merged file written, no footer
    class Writer(store.pq.ParquetWriter):
        seen = 0
        def write_table(self, table, *args, **kw):
            super().write_table(table, *args, **kw)
            Writer.seen += 1
            if Writer.seen == plan["n"]:
                die()
    store.pq.ParquetWriter = Writer
elif plan and plan["at"] == "dataset":        # the dataset in .OUT.partial-*, not renamed yet
    real_wd = store._write_dataset
    def write_dataset(*args, **kw):
        real_wd(*args, **kw)
        die()
    store._write_dataset = write_dataset
elif plan and plan["at"] == "placed":         # the output in place, the work directory not removed
    real_place = store.OutputSlot.place
    def place(self, src):
        real_place(self, src)
        die()
    store.OutputSlot.place = place
from cardsim.sim.cli import main
sys.argv = ["cardsim", *sys.argv[1:]]
main()
'''


@pytest.fixture(scope="module")
def launcher(tmp_path_factory):
    path = tmp_path_factory.mktemp("launcher") / "launch.py"
    path.write_text(LAUNCHER)
    return path


def child(launcher, args, plan=None, **kw):
    env = {**os.environ, "CARDSIM_TEST_KILL": json.dumps(plan)}
    return subprocess.Popen(cardsim_cmd(*args, launcher=launcher), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_signals, **kw)


def work_of(out: Path) -> Path:
    return out.parent / f".{out.name}.work"


def shards_in(out: Path) -> list[str]:
    try:
        return sorted(n for n in os.listdir(work_of(out)) if n.startswith("shard-"))
    except FileNotFoundError:
        return []


def litter(d: Path) -> list[str]:
    return sorted(n for n in os.listdir(d) if any(x in n for x in LITTER))


def snapshot(root: Path) -> dict:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            out[str(p.relative_to(root))] = None if p.is_dir() else p.read_bytes()
    return out


def same_file(path: Path, ref: Path):
    assert pq.read_table(path).equals(pq.read_table(ref))
    assert pq.read_metadata(path).metadata[META_KEY] == pq.read_metadata(ref).metadata[META_KEY]


def same_dataset(path: Path, ref: Path):
    files = sorted(str(f.relative_to(path)) for f in path.rglob("*") if f.is_file())
    assert files == sorted(str(f.relative_to(ref)) for f in ref.rglob("*") if f.is_file())
    for rel in files:
        if rel.endswith(".parquet"):
            assert pq.read_table(path / rel).equals(pq.read_table(ref / rel)), rel
            assert pq.read_metadata(path / rel).metadata[META_KEY] == pq.read_metadata(ref / rel).metadata[META_KEY]
    assert json.loads((path / "_summary.json").read_text())["summary"] == \
        json.loads((ref / "_summary.json").read_text())["summary"]


def one_error_line(res_stderr: str, *fragments):
    lines = res_stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), res_stderr
    assert "Traceback" not in res_stderr
    for frag in fragments:
        assert frag in lines[0], (frag, lines[0])
    return lines[0]


# ---- SIGKILL at chosen and random moments, then --resume ------------------------------------

def run_args(game: str, out: Path, seed: int = 3):
    players, deals, shard = GAMES[game]
    return ["run", game, "-p", players, "-n", deals, "--seed", seed, "--shard-size", shard, "--out", out, "-q"]


@pytest.fixture(scope="module")
def refs(tmp_path_factory):
    """The uninterrupted runs (in-process; kernels loaded once per game for the module)."""
    d = tmp_path_factory.mktemp("refs")
    out = {}
    for game, (players, deals, shard) in GAMES.items():
        out[game] = d / f"{game}.parquet"
        run(make_config(game, players, deals, 3, shard_size=shard), str(out[game]))
    return out


def kill_points(game: str) -> list[dict]:
    _, deals, shard = GAMES[game]
    shards = -(-deals // shard)
    points = [{"at": RNG.choice(["shard", "shard-write"]), "n": RNG.randint(1, shards - 1)},
              {"at": "merge", "n": RNG.randint(1, shards - 1)}]
    kinds = ["shard", "shard-write", "merge", "placed"]
    points += [{"at": k, "n": RNG.randint(1, shards - 1)} for k in (RNG.choice(kinds) for _ in range(TRIALS))]
    return points


KILLS = [(g, p) for g in GAMES for p in kill_points(g)]


@pytest.mark.parametrize("game, plan", KILLS, ids=[f"{g}-{p['at']}-{p['n']}" for g, p in KILLS])
def test_sigkill_then_resume_equals_the_uninterrupted_run(game, plan, launcher, refs, tmp_path):
    (tmp_path / "sentinel.txt").write_text("keep\n")
    out = tmp_path / "o.parquet"
    proc = child(launcher, run_args(game, out), plan)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL, err
    if plan["at"] == "merge":
        assert [n for n in os.listdir(tmp_path) if ".partial-" in n]        # a torn merge was left behind
    if plan["at"] == "placed":
        same_file(out, refs[game])                                          # complete, work dir left over
        res = invoke(*run_args(game, out), "--resume")
        assert res.exit_code == 2 and "--overwrite" in res.stderr           # an existing output is not replaced
        res = invoke(*run_args(game, out), "--resume", "--overwrite")
    else:
        assert not out.exists() and (work_of(out) / "run.json").is_file()
        res = invoke(*run_args(game, out), "--resume")
    assert res.exit_code == 0, res.output
    same_file(out, refs[game])
    assert litter(tmp_path) == [], os.listdir(tmp_path)
    assert (tmp_path / "sentinel.txt").read_text() == "keep\n"


RANDOM_KILLS = list(range(max(1, TRIALS)))


@pytest.mark.parametrize("trial", RANDOM_KILLS)
def test_sigkill_at_a_random_time_then_resume(trial, launcher, tmp_path):
    """Killed from outside at a random moment (or not at all, if it finished first)."""
    args = ["run", "tonk", "-p", 3, "-n", 6000, "--seed", 11, "--shard-size", 150, "-q"]
    ref = tmp_path / "ref.parquet"
    run(make_config("tonk", 3, 6000, 11, shard_size=150), str(ref))
    out = tmp_path / "o.parquet"
    proc = child(launcher, [*args, "--out", out])
    deadline = time.monotonic() + 120
    while not (work_of(out) / "lock").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(RNG.uniform(0, 0.6))
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    finished = out.exists() and not work_of(out).exists()
    if not finished:
        res = invoke(*args, "--out", out, "--resume", "--overwrite")
        assert res.exit_code == 0, res.output
    same_file(out, ref)
    assert litter(tmp_path) == []


EXPERIMENTS = {
    "compare": ["compare", "tonk", "-p", 3, "--strategy", "greedy", "--strategy", "knocker", "-n", 300, "--seed", 4,
                "--shard-size", 50, "-q"],
    "sweep": ["sweep", "tonk", "-p", 2, "--strategy", "knocker", "--param", "threshold=4,9", "-n", 300, "--seed", 4,
              "--shard-size", 50, "-q"],
}
EXP_KILLS = [("compare", {"at": "shard-write", "n": 3}), ("compare", {"at": "dataset", "n": 1}),
             ("sweep", {"at": "placed", "n": 1})]


@pytest.mark.parametrize("kind, plan", EXP_KILLS, ids=[f"{k}-{p['at']}" for k, p in EXP_KILLS])
def test_sigkill_experiment_then_resume(kind, plan, launcher, tmp_path):
    ref = tmp_path / "ref"
    assert invoke(*EXPERIMENTS[kind], "--out", ref).exit_code == 0
    out = tmp_path / "o"
    proc = child(launcher, [*EXPERIMENTS[kind], "--out", out], plan)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL, err
    extra = ["--overwrite"] if plan["at"] == "placed" else []
    res = invoke(*EXPERIMENTS[kind], "--out", out, "--resume", *extra)
    assert res.exit_code == 0, res.output
    same_dataset(out, ref)
    assert litter(tmp_path) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_sigterm_and_sigint_then_resume(sig, launcher, tmp_path):
    out = tmp_path / "o.parquet"
    # 600 shards: long enough that the signal lands mid-run even when the test process waits
    # for a core (the suite runs one process per core)
    args = ["run", "tonk", "-p", 2, "-n", 60_000, "--seed", 3, "--shard-size", 100, "--out", out, "-q"]
    proc = child(launcher, args)
    deadline = time.monotonic() + 120
    while len(shards_in(out)) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert proc.poll() is None, "the run finished before it could be signalled"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode in (-signal.SIGTERM, 130), (err, len(shards_in(out)), os.path.exists(out),
                                                       signal.getsignal(signal.SIGINT),
                                                       signal.pthread_sigmask(signal.SIG_BLOCK, []))
    assert "Traceback" not in err
    assert not out.exists() and shards_in(out)
    res = invoke(*args, "--resume")
    assert res.exit_code == 0, res.output
    ref = tmp_path / "ref.parquet"
    run(make_config("tonk", 2, 60_000, 3, shard_size=100), str(ref))
    same_file(out, ref)
    assert litter(tmp_path) == []


# ---- two writers on one --out ----------------------------------------------------------------

def test_second_writer_is_refused_while_the_first_runs(launcher, tmp_path):
    """The first run is stopped (SIGSTOP) while it holds the lock: the second exits 2 naming
    it and touches nothing; the first then finishes normally."""
    out = tmp_path / "o.parquet"
    args = ["run", "tonk", "-p", 2, "-n", 3000, "--seed", 5, "--shard-size", 100, "--out", out, "-q"]
    first = child(launcher, args)
    try:
        deadline = time.monotonic() + 120
        while not shards_in(out) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        first.send_signal(signal.SIGSTOP)
        assert first.poll() is None, first.communicate()
        before = snapshot(tmp_path)
        second = invoke(*args)
        assert second.exit_code == 2, second.output
        one_error_line(second.stderr, "another cardsim run", f"process {first.pid}", str(out))
        assert snapshot(tmp_path) == before
    finally:
        first.send_signal(signal.SIGCONT)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    ref = tmp_path / "ref.parquet"
    run(make_config("tonk", 2, 3000, 5, shard_size=100), str(ref))
    same_file(out, ref)
    assert litter(tmp_path) == []
    late = invoke(*args)                                   # and once it is done: the output exists
    assert late.exit_code == 2
    one_error_line(late.stderr, "exists; pass --overwrite")


@pytest.mark.parametrize("kind", ["run", "compare"])
def test_two_writers_started_together(kind, launcher, tmp_path):
    out = tmp_path / ("o.parquet" if kind == "run" else "o")
    args = (["run", "tonk", "-p", 2, "-n", 2000, "--seed", 6, "--shard-size", 100, "-q"] if kind == "run"
            else EXPERIMENTS["compare"])
    procs = [child(launcher, [*args, "--out", out]) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stdout.read(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    codes = sorted(rc for rc, _, _ in results)
    assert codes == [0, 2], results
    refused = next(err for rc, _, err in results if rc == 2)
    line = one_error_line(refused)
    assert "another cardsim run (process " in line or "exists; pass --overwrite" in line, line
    ref = tmp_path / "ref"
    assert invoke(*args, "--out", ref).exit_code == 0
    (same_file if kind == "run" else same_dataset)(out, ref)
    assert litter(tmp_path) == []


# ---- a full disk (injected) and a failed run --------------------------------------------------

def enospc(*_args, **_kw):
    raise OSError(errno.ENOSPC, "No space left on device")


def fail_after_writing(target_arg: int = 0, dataset: bool = False):
    """A writer that leaves a partial file behind, then fails as a full disk would."""
    def fake(*args, **kw):
        target = Path(args[target_arg])
        if dataset:
            (target / "point-0").mkdir(parents=True, exist_ok=True)
            (target / "point-0" / "part-0.parquet").write_bytes(b"PAR1 partial")
        else:
            target.write_bytes(b"PAR1 partial")
        enospc()
    return fake


RUN_SMALL = ["run", "tonk", "-p", 2, "-n", 300, "--seed", 1, "--shard-size", 100, "-q"]
CMP_SMALL = ["compare", "tonk", "-p", 2, "--strategy", "greedy", "--strategy", "knocker", "-n", 100, "--seed", 1,
             "--shard-size", 50, "-q"]

# (id, command, what to patch (module attribute), replacement, message fragments, previous output to keep)
DISK_FULL = [
    ("shard", RUN_SMALL, (store_mod.pq, "write_table"), enospc, ("while writing a shard of",), None),
    ("run.json", RUN_SMALL, (store_mod, "_atomic_write_text"), enospc, ("while starting to write",), None),
    ("merge", RUN_SMALL, (store_mod, "_merge_file"), fail_after_writing(0), ("while merging the shards into",), None),
    ("merge-over-a-previous-run", RUN_SMALL, (store_mod, "_merge_file"), fail_after_writing(0),
     ("while merging", "kept the previous"), "run"),
    ("dataset", CMP_SMALL, (store_mod, "_write_dataset"), fail_after_writing(0, dataset=True),
     ("while merging the shards into",), None),
    ("dataset-over-a-previous-compare", CMP_SMALL, (store_mod, "_write_dataset"), fail_after_writing(0, dataset=True),
     ("while merging", "kept the previous"), "compare"),
]


@pytest.fixture(scope="module")
def previous(tmp_path_factory):
    d = tmp_path_factory.mktemp("previous")
    assert invoke(*RUN_SMALL, "--seed", 2, "--out", d / "run.parquet").exit_code == 0
    assert invoke(*CMP_SMALL, "--seed", 2, "--out", d / "cmp").exit_code == 0
    pytest.importorskip("matplotlib")
    assert invoke("report", d / "run.parquet", "--out", d / "rep").exit_code == 0
    return {"run": d / "run.parquet", "compare": d / "cmp", "report": d / "rep"}


@pytest.mark.parametrize("case", DISK_FULL, ids=[c[0] for c in DISK_FULL])
def test_full_disk_injected(case, previous, tmp_path, monkeypatch):
    _, args, (where, name), fake, fragments, keep = case
    (tmp_path / "sentinel.txt").write_text("keep\n")
    out = tmp_path / ("o.parquet" if args[0] == "run" else "o")
    extra = []
    if keep:
        (shutil.copytree if previous[keep].is_dir() else shutil.copy2)(previous[keep], out)
        extra = ["--overwrite"]
    before = snapshot(tmp_path)
    monkeypatch.setattr(where, name, fake)
    res = invoke(*args, "--out", out, *extra)
    assert res.exit_code == 1, res.output
    line = one_error_line(res.stderr, "no space left on device", str(out), "removed", *fragments)
    if not keep:
        assert line.endswith("kept nothing")
    assert snapshot(tmp_path) == before                   # nothing left behind, the previous output intact


def test_full_disk_in_report_injected(previous, tmp_path, monkeypatch):
    import cardsim.sim.report as report_mod
    real = report_mod._save

    def save(fig, out, name):
        real(fig, out, name)
        enospc()
    monkeypatch.setattr(report_mod, "_save", save)
    (tmp_path / "sentinel.txt").write_text("keep\n")
    for keep in (False, True):
        out = tmp_path / "rep"
        if keep:
            shutil.copytree(previous["report"], out)
        before = snapshot(tmp_path)
        res = invoke("report", previous["run"], "--out", out, *(["--overwrite"] if keep else []))
        assert res.exit_code == 1, res.output
        one_error_line(res.stderr, "no space left on device while writing the report to", str(out),
                       "kept the previous" if keep else "kept nothing")
        assert snapshot(tmp_path) == before


def test_failed_check_with_out_says_what_it_removed(tmp_path, monkeypatch):
    real = runner_mod.play_shard

    def play(cfg, first, count):
        if first >= 100:
            raise CheckError(f"check failed in deal {first} (seed 1): invented", first, "the trace")
        return real(cfg, first, count)
    monkeypatch.setattr(runner_mod, "play_shard", play)
    (tmp_path / "sentinel.txt").write_text("keep\n")
    res = invoke(*RUN_SMALL, "--out", tmp_path / "o.parquet")
    assert res.exit_code == 1
    lines = res.stderr.strip().splitlines()
    assert lines[0] == "Error: check failed in deal 100 (seed 1): invented"
    assert lines[-1] == "Removed the unfinished run's files, kept nothing."
    assert sorted(os.listdir(tmp_path)) == ["sentinel.txt"]


# ---- a real full disk: a small tmpfs (root only) -------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """mount(size) -> a fresh tmpfs of that many bytes; skipped unless root and mount works."""
    mounted = []

    def mount(size: int) -> Path:
        if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("mount"):
            pytest.skip("a real full disk needs root (mount -t tmpfs)")
        d = tmp_path / f"disk{len(mounted)}"
        d.mkdir()
        res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(d)], capture_output=True,
                             check=False)
        if res.returncode:
            pytest.skip(f"cannot mount a tmpfs here: {res.stderr.decode().strip()}")
        mounted.append(d)
        return d
    yield mount
    for d in mounted:
        subprocess.run(["umount", "-l", str(d)], capture_output=True, check=False)


PAGE = 4096


def pages(n: int) -> int:
    return -(-n // PAGE) * PAGE


def test_real_full_disk_while_writing_a_shard(small_disk):
    disk = small_disk(4 * PAGE)
    (disk / "sentinel.txt").write_text("keep\n")
    res = invoke("run", "tonk", "-p", 2, "-n", 4000, "--seed", 1, "--shard-size", 2000, "-q", "--out",
                 disk / "o.parquet")
    assert res.exit_code == 1, res.output
    one_error_line(res.stderr, "no space left on device while writing a shard of", "kept nothing")
    assert sorted(os.listdir(disk)) == ["sentinel.txt"]


def test_real_full_disk_while_merging(small_disk, tmp_path):
    args = ["run", "tonk", "-p", 2, "-n", 2000, "--seed", 1, "--shard-size", 500, "-q"]
    probe = tmp_path / "probe"
    probe.mkdir()

    def stop(done, total, *note):
        if done >= total:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        run(make_config("tonk", 2, 2000, 1, shard_size=500), str(probe / "x.parquet"), progress=stop)
    stored = sum(pages(f.stat().st_size) for f in work_of(probe / "x.parquet").iterdir())
    run(make_config("tonk", 2, 2000, 1, shard_size=500), str(probe / "y.parquet"))
    merged = pages((probe / "y.parquet").stat().st_size)
    disk = small_disk(stored + PAGE + merged // 2)          # the shards fit, the merged file does not
    (disk / "sentinel.txt").write_text("keep\n")
    res = invoke(*args, "--out", disk / "o.parquet")
    assert res.exit_code == 1, res.output
    one_error_line(res.stderr, "no space left on device while merging the shards into", "kept nothing")
    assert sorted(os.listdir(disk)) == ["sentinel.txt"]


def test_real_full_disk_in_report(small_disk, previous):
    disk = small_disk(8 * PAGE)
    (disk / "sentinel.txt").write_text("keep\n")
    res = invoke("report", previous["run"], "--out", disk / "rep")
    assert res.exit_code == 1, res.output
    one_error_line(res.stderr, "no space left on device while writing the report to", "kept nothing")
    assert sorted(os.listdir(disk)) == ["sentinel.txt"]
