"""Shards on a real Dask cluster give the local runner's results, byte for byte.

A module fixture starts a scheduler and a worker command with two worker processes
(``dask scheduler`` / ``dask worker``, separate processes on loopback) and stops them at
the end. Skipped as a whole when the ``cluster`` extra (dask.distributed) is not installed.
Deal counts are small and shards tiny (200-250 deals) so every run spreads over both
workers; the cost is mostly process start-up and the workers loading the numba cache.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

import cloudpickle  # noqa: E402  (a dependency of distributed)
import numba  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from cardsim.sim import experiment, runner  # noqa: E402
from cardsim.sim.errors import CheckError, UsageError  # noqa: E402
from cardsim.sim.executor import DaskExecutor, LocalExecutor, make_executor  # noqa: E402
from cardsim.sim.io import META_KEY, TIMING_KEY  # noqa: E402
from cardsim.sim.stats import json_clean  # noqa: E402
from cli_helpers import sub  # noqa: E402

# the helpers below run on the workers, which cannot import this test module
cloudpickle.register_pickle_by_value(sys.modules[__name__])

STRATS3 = ["knocker:threshold=10", "watcher:decay=1", "greedy"]
OPTS = ["caught_lowest_bonus=none"]
CLI_RUN = ["run", "tonk", "--players", "3", "--deals", "2500", "--seed", "11",
           *[a for s in STRATS3 for a in ("--strategy", s)], "--option", OPTS[0], "--quiet"]
START_TIMEOUT = 90


# ---- the cluster ---------------------------------------------------------------------

def dask_command(kind: str) -> list[str]:
    """``dask scheduler|worker`` of this interpreter's environment (module form as fallback)."""
    exe = Path(sys.executable).with_name("dask")
    if exe.exists():
        return [str(exe), kind]
    return [sys.executable, "-m", f"distributed.cli.dask_{kind}"]


def stop(proc: subprocess.Popen, timeout: float = 15) -> None:
    """SIGTERM, then SIGKILL to the process group we started if it does not exit in time."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=timeout)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """Address of a running scheduler with two single-threaded worker processes."""
    d = tmp_path_factory.mktemp("dask")
    sched_file = d / "scheduler.json"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_NUM_THREADS"}  # the executor sizes numba
    procs = []
    logs = []

    def start(args, name):
        log = open(d / f"{name}.log", "wb")
        logs.append(log)
        procs.append(subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=d, env=env,
                                      start_new_session=True))
        return procs[-1]

    def fail(msg):
        for p in reversed(procs):
            stop(p)
        text = "\n".join((d / f"{n}.log").read_text(errors="replace")[-3000:] for n in ("scheduler", "worker")
                         if (d / f"{n}.log").exists())
        pytest.fail(f"{msg}\n{text}")

    try:
        sched = start(dask_command("scheduler") + ["--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                                   "--scheduler-file", str(sched_file)], "scheduler")
        deadline = time.monotonic() + START_TIMEOUT
        address = None
        while address is None:
            if sched.poll() is not None:
                fail("dask scheduler exited")
            if time.monotonic() > deadline:
                fail("dask scheduler did not write its scheduler file")
            try:
                address = json.loads(sched_file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        start(dask_command("worker") + ["--scheduler-file", str(sched_file), "--nworkers", "2", "--nthreads", "1",
                                        "--no-dashboard", "--host", "127.0.0.1", "--memory-limit", "0",
                                        "--local-directory", str(d / "work")], "worker")
        with distributed.Client(address, timeout="30s", set_as_default=False) as client:
            try:
                client.wait_for_workers(2, timeout=START_TIMEOUT)
            except (TimeoutError, OSError):
                fail("the two dask workers did not join")
        yield address
    finally:
        for p in reversed(procs):
            stop(p)
        for log in logs:
            log.close()


@pytest.fixture(scope="module")
def dask_ex(scheduler):
    ex = make_executor(scheduler, None)
    assert isinstance(ex, DaskExecutor) and ex.name == scheduler
    yield ex
    ex.close()


# ---- helpers ---------------------------------------------------------------------------

def cfg(deals=3000, seed=7, shard_size=250):
    return runner.make_config("tonk", 3, deals, seed, STRATS3, OPTS, None, None, False, 0, shard_size)


def compare_exp(shard_size=200):
    return experiment.make_compare("tonk", ["greedy", "knocker:threshold=8"], 3, None, 3, 0,
                                   shard_size=shard_size)


def same_summary(a: dict, b: dict) -> bool:
    return json.dumps(json_clean(a), sort_keys=True) == json.dumps(json_clean(b), sort_keys=True)


def assert_same_file(a, b):
    ta, tb = pq.read_table(a), pq.read_table(b)
    assert ta.num_rows == tb.num_rows > 0
    assert ta.equals(tb)
    ma, mb = pq.ParquetFile(a).metadata.metadata, pq.ParquetFile(b).metadata.metadata
    assert ma[META_KEY] == mb[META_KEY]
    return json.loads(ma[TIMING_KEY]), json.loads(mb[TIMING_KEY])


def where(delay: float = 0.0):
    """(worker address, numba threads of the shard, pid), as a shard would see them."""
    time.sleep(delay)
    return distributed.get_worker().address, numba.get_num_threads(), os.getpid()


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def slow_identity(i: int, delay: float) -> int:
    time.sleep(delay)
    return i


# ---- the executor ----------------------------------------------------------------------

def test_shards_spread_over_workers_with_one_numba_thread_each(dask_ex):
    """Two worker processes on this host share its cores: cores // 2 numba threads each."""
    seen = list(dask_ex.map(where, [(0.3,)] * 6))
    assert len({addr for addr, _, _ in seen}) == 2
    assert len({pid for _, _, pid in seen}) == 2 and os.getpid() not in {pid for _, _, pid in seen}
    assert {n for _, n, _ in seen} == {max(1, cores() // 2)}


def test_results_come_back_in_submission_order(dask_ex):
    tasks = [(i, 0.05 * (8 - i)) for i in range(8)]   # the first shards are the slowest
    assert list(dask_ex.map(slow_identity, tasks)) == list(range(8))


def fail_check(deal_id: int):
    raise CheckError(f"check failed in deal {deal_id}", deal_id, f"trace of deal {deal_id}")


def test_check_error_travels_back_intact(dask_ex):
    """CheckError (which does not unpickle by itself) arrives with its deal id and trace."""
    with pytest.raises(CheckError) as info:
        list(dask_ex.map(fail_check, [(5,)]))
    assert str(info.value) == "check failed in deal 5"
    assert info.value.deal_id == 5 and info.value.trace == "trace of deal 5"


def test_run_file_identical_to_local(dask_ex, tmp_path):
    local = runner.run(cfg(), str(tmp_path / "local.parquet"))
    remote = runner.run(cfg(), str(tmp_path / "dask.parquet"), executor=dask_ex)
    t_local, t_dask = assert_same_file(local.path, remote.path)
    assert t_local["executor"] == "local" and t_dask["executor"] == dask_ex.name
    assert same_summary(local.summary, remote.summary) and local.meta == remote.meta
    assert remote.summary["deals"] == 3000 and t_dask["looks"] == 12


def test_search_seat_identical_to_local(dask_ex, tmp_path):
    """A search seat (issue 19) travels to the workers as an ordinary parameter row: the same
    records as a local run (its own randomness is keyed by the deal)."""
    def search_cfg():
        return runner.make_config("tonk", 2, 60, 5, ["search:worlds=4", "strong"], shard_size=20)
    local = runner.run(search_cfg(), str(tmp_path / "local.parquet"))
    remote = runner.run(search_cfg(), str(tmp_path / "dask.parquet"), executor=dask_ex)
    assert_same_file(local.path, remote.path)
    assert same_summary(local.summary, remote.summary)


def test_compare_identical_to_local(dask_ex, tmp_path):
    local = experiment.run_experiment(compare_exp(), 1200, str(tmp_path / "local"))
    remote = experiment.run_experiment(compare_exp(), 1200, str(tmp_path / "dask"), executor=dask_ex)
    assert same_summary(local.summary, remote.summary) and local.meta == remote.meta
    assert pq.read_table(local.path).equals(pq.read_table(remote.path))


def test_until_ci_stops_at_the_same_deal(dask_ex, tmp_path):
    local = runner.run(cfg(shard_size=200), str(tmp_path / "local.parquet"), until_ci=0.15, max_deals=8000)
    remote = runner.run(cfg(shard_size=200), str(tmp_path / "dask.parquet"), until_ci=0.15, max_deals=8000,
                        executor=dask_ex)
    seq = local.summary["sequential"]
    assert seq["reached"] and 200 < local.summary["deals"] < 8000   # stops mid-way, not at a bound
    assert remote.summary["deals"] == local.summary["deals"]
    assert same_summary(local.summary, remote.summary)
    assert_same_file(local.path, remote.path)
    # the shards sent ahead of the stopping point are dropped, not written
    assert pq.read_table(remote.path).num_rows == local.summary["deals"]


def test_experiment_until_ci_stops_at_the_same_deal(dask_ex):
    local = experiment.run_experiment(compare_exp(), 0, until_ci=0.07, max_deals=6000)
    remote = experiment.run_experiment(compare_exp(), 0, until_ci=0.07, max_deals=6000, executor=dask_ex)
    assert local.summary["sequential"]["reached"] and local.summary["deals"] < 6000
    assert same_summary(local.summary, remote.summary)


# ---- the CLI ---------------------------------------------------------------------------

def test_cli_scheduler_matches_local(scheduler, tmp_path):
    local = runner.run(cfg(deals=2500, seed=11), str(tmp_path / "local.parquet"))
    out = tmp_path / "dask.parquet"
    r = sub(*CLI_RUN, "--scheduler", scheduler, "--out", out, "--json", timeout=180)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["timing"]["executor"] == scheduler
    assert same_summary(doc["summary"], local.summary)
    assert_same_file(local.path, out)


def test_cli_local_cluster_matches_local(tmp_path):
    local = runner.run(cfg(deals=2500, seed=11), str(tmp_path / "local.parquet"))
    out = tmp_path / "dask.parquet"
    r = sub(*CLI_RUN, "--cluster", "local:2", "--out", out, "--json", timeout=180)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["timing"]["executor"] == "local:2"
    assert same_summary(doc["summary"], local.summary)
    assert_same_file(local.path, out)


def test_local_cluster_sizes_numba_threads_per_worker():
    """--cluster local:N: NUMBA_NUM_THREADS = cores // N in the worker processes only."""
    environ = dict(os.environ)
    ex = make_executor(None, "local:2")
    try:
        assert ex.name == "local:2"
        seen = list(ex.map(where, [(0.3,)] * 4))
        assert {n for _, n, _ in seen} == {max(1, cores() // 2)}
        env = ex.client.run(lambda: os.environ.get("NUMBA_NUM_THREADS"))
        assert len(env) == 2 and set(env.values()) == {str(max(1, cores() // 2))}
    finally:
        ex.close()
        assert os.environ.get("NUMBA_NUM_THREADS") == environ.get("NUMBA_NUM_THREADS")
        os.environ.clear()              # Dask sets OMP_NUM_THREADS etc. here before spawning
        os.environ.update(environ)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cli_unreachable_scheduler_is_one_line_exit_2(tmp_path):
    out = tmp_path / "x.parquet"
    addr = f"tcp://127.0.0.1:{free_port()}"   # nothing listens there any more
    t0 = time.monotonic()
    r = sub(*CLI_RUN, "--scheduler", addr, "--out", out, timeout=180)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and addr in lines[0], r.stderr
    assert r.stdout == "" and not out.exists() and os.listdir(tmp_path) == []
    assert time.monotonic() - t0 < 60


@pytest.mark.parametrize("flags, msg", [
    (["--scheduler", "127.0.0.1:8786"], "tcp://HOST:PORT"),
    (["--scheduler", "tcp://127.0.0.1:notaport"], "tcp://HOST:PORT"),
    (["--scheduler", "tcp://127.0.0.1"], "tcp://HOST:PORT"),
    (["--cluster", "local:0"], "local:N"),
    (["--cluster", "remote:2"], "local:N"),
    (["--cluster", "local:2", "--scheduler", "tcp://127.0.0.1:1"], "either"),
])
def test_bad_cluster_flags(flags, msg):
    with pytest.raises(UsageError, match=msg):
        make_executor(*_split(flags))


def _split(flags):
    d = dict(zip(flags[::2], flags[1::2]))
    return d.get("--scheduler"), d.get("--cluster")


def test_no_flags_is_local():
    assert isinstance(make_executor(None, None), LocalExecutor) and make_executor(None, None).name == "local"


def test_missing_dask_is_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # as if the cluster extra were not installed
    with pytest.raises(UsageError, match=r"pip install 'cardsim\[cluster\]'"):
        make_executor(None, "local:2")
