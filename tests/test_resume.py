"""Resume (sim.store.ShardStore, ``--resume``): a run killed mid-way (SIGKILL, Ctrl-C) and
continued gives exactly the output of an uninterrupted run with the same seed: no deal lost,
none played twice, the same bytes of metadata and the same summary.

Real processes are killed with SIGKILL once at least two shard files exist in the work
directory ``.OUT.work/``. The default shard of the command line (262144 deals) would make that
slow, so the killed processes play small shards: either a short script calling the API, or the
real command line (``sim.cli.main``) launched with ``make_config``'s default shard size lowered.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cardsim.sim.errors import UsageError
from cardsim.sim.experiment import make_compare, make_sweep, run_experiment
from cardsim.sim.io import META_KEY
from cardsim.sim.runner import make_config, run
from cardsim.sim.stats import json_clean
from cli_helpers import cardsim_cmd, default_signals, invoke, sub

SHARD_RE = re.compile(r"^shard-\d+\.parquet$")

RUN_N, RUN_SHARD = 100_000, 5_000                  # 20 shards
CMP_N, CMP_SHARD = 10_000, 500                     # 20 shards
SWP_N, SWP_SHARD = 10_000, 500                     # 20 shards

API_SCRIPT = r'''
import json, sys
from cardsim.sim.stats import json_clean
a = json.loads(sys.argv[1])
if a["kind"] == "run":
    from cardsim.sim.runner import make_config, run
    res = run(make_config("tonk", a["players"], a["deals"], a["seed"], a.get("strategies"),
                          shard_size=a["shard"]), a["out"], resume=a["resume"])
else:
    from cardsim.sim.experiment import make_compare, make_sweep, run_experiment
    if a["kind"] == "compare":
        exp = make_compare("tonk", a["strategies"], players=a["players"], seed=a["seed"], shard_size=a["shard"])
    else:
        exp = make_sweep("tonk", a["strategy"], a["params"], a.get("option_grid"), players=a["players"],
                         seed=a["seed"], shard_size=a["shard"])
    res = run_experiment(exp, a["deals"], a["out"], resume=a["resume"])
print(json.dumps(json_clean(res.summary)))
'''

# the real command line, with make_config's default shard size (the last default) lowered
CLI_LAUNCHER = r'''
import os, sys
from cardsim.sim.cli import main
# the real CLI, with small shards through its own --shard-size flag
sys.argv = ["cardsim", *sys.argv[1:], "--shard-size", os.environ["TEST_SHARD"]]
main()
'''


# ---- helpers -------------------------------------------------------------------

@pytest.fixture(scope="module")
def scripts(tmp_path_factory):
    d = tmp_path_factory.mktemp("scripts")
    (d / "api.py").write_text(API_SCRIPT)
    (d / "cli.py").write_text(CLI_LAUNCHER)
    return d


def work_dir(out: Path) -> Path:
    return out.parent / f".{out.name}.work"


def shard_files(out: Path) -> list[str]:
    w = work_dir(out)
    try:
        return sorted(n for n in os.listdir(w) if SHARD_RE.match(n))
    except FileNotFoundError:
        return []


def api_cmd(scripts, **args):
    return [sys.executable, str(scripts / "api.py"), json.dumps(args)]


def env_with_shard(shard: int) -> dict:
    return {**os.environ, "TEST_SHARD": str(shard)}


def kill_midway(cmd, out: Path, total_shards: int, sig=signal.SIGKILL, env=None, min_shards=2, timeout=90):
    """Start ``cmd``, wait until ``min_shards`` shard files exist, send ``sig``; returns the
    process's exit code and the shard files left."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                            preexec_fn=default_signals)
    try:
        deadline = time.monotonic() + timeout
        while len(shard_files(out)) < min_shards:
            if proc.poll() is not None:
                raise AssertionError(f"finished before it could be killed: rc {proc.returncode}, "
                                     f"{proc.stderr.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                raise AssertionError("no shard files in time")
            time.sleep(0.005)
        os.kill(proc.pid, sig)
        proc.wait(timeout=60)
        err = proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    left = shard_files(out)
    assert min_shards <= len(left) < total_shards, left          # really interrupted mid-way
    assert not out.exists()                                       # no output from an unfinished run
    assert not [n for n in os.listdir(out.parent) if ".partial-" in n]
    return proc.returncode, err, left


def assert_same_file(path: Path, ref: Path, n_deals: int):
    got, want = pq.read_table(path), pq.read_table(ref)
    assert got.equals(want)
    np.testing.assert_array_equal(got.column("deal_id").to_numpy(), np.arange(n_deals))   # none lost, none twice
    assert pq.read_metadata(path).metadata[META_KEY] == pq.read_metadata(ref).metadata[META_KEY]
    assert json.loads(pq.read_metadata(path).metadata[META_KEY])["deals"] == n_deals


def dataset_files(d: Path) -> list[str]:
    return sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())


def assert_same_dataset(path: Path, ref: Path):
    files = dataset_files(path)
    assert files == dataset_files(ref)
    parts = [f for f in files if f.endswith(".parquet")]
    assert parts
    for rel in parts:
        got, want = pq.ParquetFile(path / rel), pq.ParquetFile(ref / rel)
        assert got.read().equals(want.read()), rel
        assert got.metadata.metadata[META_KEY] == want.metadata.metadata[META_KEY]
    summaries = [f for f in files if f.endswith(".json")]
    assert summaries
    for rel in summaries:                                         # summary and meta, byte for byte
        assert (path / rel).read_bytes() == (ref / rel).read_bytes()


def stop_after(deals: int):
    """A progress callback that raises KeyboardInterrupt (Ctrl-C) once ``deals`` are done."""
    def progress(done, total, *note):
        if done >= deals:
            raise KeyboardInterrupt
    return progress


# ---- references: the same runs, uninterrupted ----------------------------------------

@pytest.fixture(scope="module")
def run_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run.parquet"
    res = run(make_config("tonk", 3, RUN_N, 5, shard_size=RUN_SHARD), str(out))
    return out, res


def compare_exp():
    return make_compare("tonk", ["knocker:threshold=5", "watcher"], players=3, seed=5, shard_size=CMP_SHARD)


def sweep_exp():
    return make_sweep("tonk", "knocker", ["threshold=4,10"], ["caught_lowest_bonus=all_others,none"], players=2,
                      seed=5, shard_size=SWP_SHARD)


@pytest.fixture(scope="module")
def compare_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "cmp"
    res = run_experiment(compare_exp(), CMP_N, str(out))
    return out, res


@pytest.fixture(scope="module")
def sweep_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "swp"
    res = run_experiment(sweep_exp(), SWP_N, str(out))
    return out, res


# ---- SIGKILL, then resume ------------------------------------------------------------

def test_sigkill_run_then_resume(scripts, tmp_path, run_ref):
    ref, ref_res = run_ref
    out = tmp_path / "run.parquet"
    args = dict(kind="run", players=3, deals=RUN_N, seed=5, shard=RUN_SHARD, out=str(out))
    rc, _, left = kill_midway(api_cmd(scripts, **args, resume=False), out, RUN_N // RUN_SHARD)
    assert rc == -signal.SIGKILL
    assert (work_dir(out) / "run.json").is_file()
    done = subprocess.run(api_cmd(scripts, **args, resume=True), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not work_dir(out).exists()
    assert_same_file(out, ref, RUN_N)
    assert json.loads(done.stdout) == json.loads(json.dumps(json_clean(ref_res.summary)))


def test_sigkill_cli_run_then_cli_resume(scripts, tmp_path, run_ref):
    """The command line: `run ... --out F` killed, `run ... --out F --resume` finishes it."""
    ref, ref_res = run_ref
    out = tmp_path / "cli.parquet"
    args = ["run", "tonk", "-p", 3, "-n", RUN_N, "--seed", 5, "--out", out]
    env = env_with_shard(RUN_SHARD)
    rc, _, left = kill_midway(cardsim_cmd(*args, "-q", launcher=scripts / "cli.py"), out, RUN_N // RUN_SHARD,
                              env=env)
    assert rc == -signal.SIGKILL
    done = subprocess.run(cardsim_cmd(*args, "--resume", "--json", launcher=scripts / "cli.py"),
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["path"] == str(out)
    assert doc["summary"] == json.loads(json.dumps(json_clean(ref_res.summary)))
    assert_same_file(out, ref, RUN_N)
    assert not work_dir(out).exists()


def test_sigkill_compare_then_resume(scripts, tmp_path, compare_ref):
    ref, _ = compare_ref
    out = tmp_path / "cmp"
    args = dict(kind="compare", strategies=["knocker:threshold=5", "watcher"], players=3, deals=CMP_N, seed=5,
                shard=CMP_SHARD, out=str(out))
    rc, _, _ = kill_midway(api_cmd(scripts, **args, resume=False), out, CMP_N // CMP_SHARD)
    assert rc == -signal.SIGKILL
    done = subprocess.run(api_cmd(scripts, **args, resume=True), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert_same_dataset(out, ref)
    assert not work_dir(out).exists()


def test_sigkill_sweep_then_resume(scripts, tmp_path, sweep_ref):
    ref, ref_res = sweep_ref
    out = tmp_path / "swp"
    args = dict(kind="sweep", strategy="knocker", params=["threshold=4,10"],
                option_grid=["caught_lowest_bonus=all_others,none"], players=2, deals=SWP_N, seed=5,
                shard=SWP_SHARD, out=str(out))
    rc, _, _ = kill_midway(api_cmd(scripts, **args, resume=False), out, SWP_N // SWP_SHARD)
    assert rc == -signal.SIGKILL
    done = subprocess.run(api_cmd(scripts, **args, resume=True), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert_same_dataset(out, ref)
    assert json.loads(done.stdout) == json.loads(json.dumps(json_clean(ref_res.summary)))
    total = sum(pq.ParquetFile(p).metadata.num_rows for p in out.rglob("*.parquet"))
    assert total == SWP_N * 4 * 2                                  # deals x points x lineups


def test_ctrl_c_cli_keeps_the_work_dir(scripts, tmp_path):
    """SIGINT (Ctrl-C) to the command line: exit 130, no output, the shards kept for --resume."""
    out = tmp_path / "int.parquet"
    # 200 shards: long enough that the signal lands mid-run even when the test process waits
    # for a core (the suite runs one process per core)
    args = ["run", "tonk", "-p", 2, "-n", 300_000, "--seed", 9, "--out", out]
    env = env_with_shard(1500)
    rc, err, left = kill_midway(cardsim_cmd(*args, "-q", launcher=scripts / "cli.py"), out, 200,
                                sig=signal.SIGINT, env=env)
    assert rc == 130, err
    assert "Traceback" not in err
    assert shard_files(out) == left and (work_dir(out) / "run.json").is_file()
    done = subprocess.run(cardsim_cmd(*args, "-q", "--resume", launcher=scripts / "cli.py"),
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    ref = tmp_path / "ref.parquet"
    run(make_config("tonk", 2, 300_000, 9, shard_size=1500), str(ref))
    assert_same_file(out, ref, 300_000)


# ---- interrupted in-process (KeyboardInterrupt between shards) --------------------------

SMALL_N, SMALL_SHARD = 4000, 1000


def small_cfg(seed=5, deals=SMALL_N, shard=SMALL_SHARD):
    return make_config("tonk", 3, deals, seed, ["knocker:threshold=9", "greedy", "watcher"], shard_size=shard)


@pytest.fixture(scope="module")
def small_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "small.parquet"
    res = run(small_cfg(), str(out))
    return out, res


def interrupted_run(out: Path, seed=5, after=2000, deals=SMALL_N, shard=SMALL_SHARD):
    with pytest.raises(KeyboardInterrupt):
        run(small_cfg(seed, deals, shard), str(out), progress=stop_after(after))
    assert not out.exists()
    return shard_files(out)


def test_ctrl_c_in_process_then_resume(tmp_path, small_ref):
    ref, ref_res = small_ref
    out = tmp_path / "r.parquet"
    assert interrupted_run(out) == ["shard-000000000000000.parquet", "shard-000000000001000.parquet"]
    res = run(small_cfg(), str(out), resume=True)
    assert_same_file(out, ref, SMALL_N)
    assert json_clean(res.summary) == json_clean(ref_res.summary)
    assert res.meta == ref_res.meta
    assert not work_dir(out).exists()


def test_resume_reuses_the_stored_shards(tmp_path):
    """A finished shard is read back, not played again: a (doctored) stored shard shows up in
    the output. The genuine `python -m cardsim` is used here (one default-size shard)."""
    out = tmp_path / "one.parquet"
    cfg = make_config("tonk", 3, 3000, 5)
    with pytest.raises(KeyboardInterrupt):                        # killed after the last shard, before the merge
        run(cfg, str(out), progress=stop_after(3000))
    [name] = shard_files(out)
    shard = work_dir(out) / name
    table = pq.read_table(shard)
    turns = table.column("turns").to_numpy().copy()
    turns[:10] = 999
    table = table.set_column(table.column_names.index("turns"), "turns", pa.array(turns))
    pq.write_table(table, shard)
    res = sub("run", "tonk", "-p", "3", "-n", "3000", "--seed", "5", "--out", out, "-q", "--resume")
    assert res.returncode == 0, res.stderr
    got = pq.read_table(out).column("turns").to_numpy()
    assert (got[:10] == 999).all() and (got[10:] == turns[10:]).all()
    assert not work_dir(out).exists()


def test_resume_ignores_leftover_temp_files(tmp_path, small_ref):
    """A kill during a shard write leaves `.shard-<first>.parquet.XXXX` (the file is renamed
    only when complete): resume ignores it and plays that shard."""
    ref, _ = small_ref
    out = tmp_path / "t.parquet"
    left = interrupted_run(out)
    w = work_dir(out)
    data = (w / left[0]).read_bytes()
    (w / ".shard-000000000002000.parquet.k3j9x_ab").write_bytes(data[: len(data) // 2])   # torn write
    (w / ".shard-000000000003000.parquet.zz81qq0p").write_bytes(b"")
    (w / "run.json.tmp").write_text("{")
    res = run(small_cfg(), str(out), resume=True)
    assert_same_file(out, ref, SMALL_N)
    assert res.summary["deals"] == SMALL_N
    assert not w.exists()


def test_resume_without_a_work_dir_is_a_fresh_run(tmp_path, small_ref):
    ref, _ = small_ref
    out = tmp_path / "fresh.parquet"
    run(small_cfg(), str(out), resume=True)
    assert_same_file(out, ref, SMALL_N)


def test_run_without_resume_discards_the_old_work_dir(tmp_path, small_ref):
    """Stale shards of another seed under the very same names are not reused without --resume."""
    ref, _ = small_ref
    out = tmp_path / "d.parquet"
    assert len(interrupted_run(out, seed=6)) == 2
    run(small_cfg(), str(out))
    assert_same_file(out, ref, SMALL_N)
    assert not work_dir(out).exists()


def test_cli_run_without_resume_discards_garbage(tmp_path):
    out = tmp_path / "g.parquet"
    w = work_dir(out)
    w.mkdir()
    (w / "run.json").write_text('{"something": "else"}')
    (w / "shard-000000000000000.parquet").write_bytes(b"not parquet at all")
    res = invoke("run", "tonk", "-p", "3", "-n", "2000", "--seed", "5", "--out", out, "-q")
    assert res.exit_code == 0, res.output
    ref = tmp_path / "ref.parquet"
    run(make_config("tonk", 3, 2000, 5), str(ref))
    assert_same_file(out, ref, 2000)
    assert not w.exists()


STRATS_ARGS = ["--strategy", "knocker:threshold=9", "--strategy", "greedy", "--strategy", "watcher"]
SAME_ARGS = ["-p", "3", "-n", str(SMALL_N), "--seed", "5", *STRATS_ARGS]
OTHER_ARGS = {
    "seed": ["-p", "3", "-n", str(SMALL_N), "--seed", "6", *STRATS_ARGS],
    "deals": ["-p", "3", "-n", "5000", "--seed", "5", *STRATS_ARGS],
    "strategies": ["-p", "3", "-n", str(SMALL_N), "--seed", "5", "--strategy", "greedy"],
    "option": [*SAME_ARGS, "--option", "stake=2"],
    "players": ["-p", "2", "-n", str(SMALL_N), "--seed", "5", "--strategy", "knocker:threshold=9"],
    "first_deal": [*SAME_ARGS, "--first-deal", "1"],
}


@pytest.mark.parametrize("change", list(OTHER_ARGS))
def test_cli_resume_with_other_arguments_exits_2(tmp_path, change):
    out = tmp_path / "m.parquet"
    left = interrupted_run(out)
    before = {n: (work_dir(out) / n).read_bytes() for n in os.listdir(work_dir(out))}
    args = ["run", "tonk", *OTHER_ARGS[change], "--out", str(out), "--resume", "-q"]
    res = invoke(*args)
    assert res.exit_code == 2, (res.output, res.exception)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot resume"), res.stderr
    assert "other arguments" in lines[0] and str(out) in lines[0]
    assert "Traceback" not in res.output
    assert not out.exists()
    # the interrupted run is left as it was, resumable with its own arguments
    assert {n: (work_dir(out) / n).read_bytes() for n in os.listdir(work_dir(out))} == before
    assert shard_files(out) == left


def test_cli_resume_mismatch_in_a_real_process(tmp_path):
    out = tmp_path / "p.parquet"
    interrupted_run(out)
    res = sub("run", "tonk", "-p", "3", "-n", SMALL_N, "--seed", "7", "--out", out, "--resume", "-q")
    assert res.returncode == 2
    assert res.stdout == "" and "Traceback" not in res.stderr
    assert res.stderr.startswith("Error: cannot resume") and len(res.stderr.strip().splitlines()) == 1
    assert len(shard_files(out)) == 2 and not out.exists()


def test_experiment_ctrl_c_then_resume_and_mismatch(tmp_path):
    exp = make_compare("tonk", ["knocker:threshold=5", "watcher"], players=2, seed=3, shard_size=500)
    ref = tmp_path / "ref"
    run_experiment(exp, 2000, str(ref))
    out = tmp_path / "c"
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, 2000, str(out), progress=stop_after(1000))
    assert not out.exists() and len(shard_files(out)) == 2
    # other strategies, other seed, other deals: refused, the work dir untouched
    for args in (["--strategy", "knocker:threshold=6", "--strategy", "watcher", "--seed", "3", "-n", "2000"],
                 ["--strategy", "knocker:threshold=5", "--strategy", "watcher", "--seed", "4", "-n", "2000"],
                 ["--strategy", "knocker:threshold=5", "--strategy", "watcher", "--seed", "3", "-n", "2500"]):
        res = invoke("compare", "tonk", "-p", "2", *args, "--out", out, "--resume", "-q")
        assert res.exit_code == 2, (res.output, res.exception)
        assert res.stderr.startswith("Error: cannot resume") and len(res.stderr.strip().splitlines()) == 1
        assert len(shard_files(out)) == 2 and not out.exists()
    sw = invoke("sweep", "tonk", "-p", "2", "--strategy", "knocker", "--param", "threshold=5,8", "--seed", "3",
                "-n", "2000", "--out", out, "--resume", "-q")
    assert sw.exit_code == 2 and sw.stderr.startswith("Error: cannot resume")
    run_experiment(exp, 2000, str(out), resume=True)
    assert_same_dataset(out, ref)


def test_sweep_ctrl_c_then_resume_with_until_ci(tmp_path):
    """A precision-target run resumes too: same shard plan, same stopping look."""
    exp = make_sweep("tonk", "knocker", ["threshold=4,10"], players=2, seed=3, shard_size=300)
    ref = tmp_path / "ref"
    want = run_experiment(exp, 0, str(ref), until_ci=0.06, max_deals=20000)
    assert want.summary["sequential"]["looks"] >= 3
    out = tmp_path / "s"
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, 0, str(out), progress=stop_after(900), until_ci=0.06, max_deals=20000)
    assert len(shard_files(out)) == 2
    got = run_experiment(exp, 0, str(out), until_ci=0.06, max_deals=20000, resume=True)
    assert json_clean(got.summary) == json_clean(want.summary)
    assert_same_dataset(out, ref)


def test_resume_with_another_shard_size_loses_no_deal(tmp_path, small_ref):
    ref, _ = small_ref
    out = tmp_path / "s.parquet"
    with pytest.raises(KeyboardInterrupt):
        run(small_cfg(shard=500), str(out), progress=stop_after(1000))
    assert shard_files(out) == ["shard-000000000000000.parquet", "shard-000000000000500.parquet"]
    try:
        run(small_cfg(shard=SMALL_SHARD), str(out), resume=True)
    except UsageError:
        return                                                    # refusing is fine too
    assert_same_file(out, ref, SMALL_N)


def test_shards_carry_the_run_key(tmp_path, small_ref):
    """Every stored shard names its run (sha256 of run.json), first deal and deal count in its
    footer (``cardsim.shard``); resume uses only shards with this run's key, and the key does not
    reach the final output."""
    import hashlib
    ref, _ = small_ref
    out = tmp_path / "k.parquet"
    left = interrupted_run(out)
    key = hashlib.sha256((work_dir(out) / "run.json").read_bytes()).hexdigest()
    for name in left:
        first = int(name[len("shard-"):-len(".parquet")])
        tag = json.loads(pq.read_metadata(work_dir(out) / name).metadata[b"cardsim.shard"])
        assert tag == {"run": key, "first": first, "count": SMALL_SHARD}
    # a stored shard of another key is played again, not used
    other = work_dir(out) / left[0]
    table = pq.read_table(other)
    doctored = table.replace_schema_metadata({b"cardsim.shard": json.dumps(
        {"run": "0" * 64, "first": 0, "count": SMALL_SHARD}).encode()})
    pq.write_table(doctored.set_column(doctored.column_names.index("turns"), "turns",
                                       pa.array(np.full(len(table), 999, dtype=np.int16))), other)
    run(small_cfg(), str(out), resume=True)
    assert_same_file(out, ref, SMALL_N)
    assert b"cardsim.shard" not in pq.read_metadata(out).metadata


def test_search_seat_resumes(tmp_path):
    """A table with a search seat (issue 19) resumes like any other: its randomness is keyed by
    the deal, so the shards played after the interruption are those of an uninterrupted run."""
    def cfg():
        return make_config("tonk", 2, 60, 5, ["search:worlds=4", "strong"], shard_size=20)
    ref = tmp_path / "ref.parquet"
    ref_res = run(cfg(), str(ref))
    out = tmp_path / "r.parquet"
    with pytest.raises(KeyboardInterrupt):
        run(cfg(), str(out), progress=stop_after(20))
    assert shard_files(out)
    res = run(cfg(), str(out), resume=True)
    assert_same_file(out, ref, 60)
    assert json_clean(res.summary) == json_clean(ref_res.summary)
