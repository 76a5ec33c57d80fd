"""Where shards are played: this process (numba threads) or a Dask cluster.

Both yield results in shard order, so what is computed from them (statistics, stopping
decisions, files) does not depend on where or how fast each shard was played. A shard's
rows depend only on the seed and its deal indices, never on the machine or thread count,
so a cluster run is byte for byte the local run.

Dask (``pip install 'cardsim[cluster]'``):

* ``--scheduler tcp://HOST:PORT`` connects to a running scheduler (``dask scheduler`` and
  ``dask worker`` processes, dask-jobqueue, dask-kubernetes, ...). The workers must be able
  to import ``sim`` and ``kernels`` (install cardsim in their environment too).
* ``--cluster local:N`` starts N worker processes on this machine for the run.

Each worker process plays one shard at a time with ``cores on its host // worker processes
on that host`` numba threads, so the workers of a host share its cores instead of each
starting one thread per core. ``NUMBA_NUM_THREADS`` set in a worker's environment wins.
"""
from __future__ import annotations

import os
import threading
from collections import deque
from typing import Callable, Iterable, Iterator

from cardsim.sim.errors import UsageError

CONNECT_TIMEOUT_S = 5       # an unreachable --scheduler fails after this many seconds
WORKER_WAIT_S = 60          # a scheduler without workers fails after this many seconds


class LocalExecutor:
    """Plays shards one after another in this process; each uses all numba threads."""

    name = "local"

    def map(self, fn: Callable, tasks: Iterable) -> Iterator:
        for task in tasks:
            yield fn(*task)

    def close(self) -> None:
        pass


# ---- worker side ------------------------------------------------------------------

_SHARD_LOCK = threading.Lock()   # one shard at a time per worker process (numba threads are shared)


def host_cores() -> int:
    """CPUs this process may run on (affinity / cpuset aware)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _OnWorker:
    """Picklable wrapper run on a Dask worker: sets the numba thread count of this worker
    process and plays the shard under a per-process lock (a CheckError pickles with its deal
    id and trace, so it reaches the client intact)."""

    def __init__(self, fn: Callable, threads: dict[str, int]):
        self.fn = fn
        self.threads = threads      # worker address -> numba threads

    def __reduce__(self):
        # cloudpickle for the function: by reference when importable, by value for functions
        # of __main__ or of modules registered with cloudpickle.register_pickle_by_value
        import cloudpickle
        return _load_on_worker, (cloudpickle.dumps(self.fn), self.threads)

    def __call__(self, *args):
        import numba
        with _SHARD_LOCK:
            numba.set_num_threads(self._threads(numba))
            return self.fn(*args)

    def _threads(self, numba) -> int:
        limit = int(numba.config.NUMBA_NUM_THREADS)   # size of this process's numba pool
        n = None
        if os.environ.get("NUMBA_NUM_THREADS", "").strip().isdigit():
            n = int(os.environ["NUMBA_NUM_THREADS"])  # the worker's environment wins
        else:
            try:
                from distributed import get_worker
                n = self.threads.get(get_worker().address)
            except (ImportError, ValueError):
                pass
        return max(1, min(limit, n or limit))


def _load_on_worker(fn: bytes, threads: dict[str, int]) -> _OnWorker:
    import pickle
    return _OnWorker(pickle.loads(fn), threads)


def _worker_cores() -> int:
    """Cores of the worker process it runs in (via Client.run)."""
    return host_cores()


# ---- client side -------------------------------------------------------------------

class DaskExecutor:
    """Sends shards to a Dask cluster, keeping about two shards per worker thread in flight,
    and yields the results in submission order."""

    def __init__(self, address: str | None = None, local_workers: int | None = None):
        try:
            import dask  # noqa: F401
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("Dask is not installed: pip install 'cardsim[cluster]'") from None
        self.cluster = None
        self.client = None
        try:
            if address is not None:
                self.name = address
                _check_address(address)
                self.client = Client(address, timeout=f"{CONNECT_TIMEOUT_S}s", set_as_default=False)
            else:
                import logging
                n = int(local_workers or host_cores())
                self.name = f"local:{n}"
                threads = max(1, host_cores() // n)
                self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                            dashboard_address=None, silence_logs=logging.ERROR,
                                            # no dashboard; the scheduler's health endpoint on any free port
                                            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                                            env={"NUMBA_NUM_THREADS": str(threads)})
                self.client = Client(self.cluster, set_as_default=False)
        except UsageError:
            raise
        except (OSError, ValueError, TypeError, RuntimeError) as exc:
            self.close()
            if address is None:
                detail = " ".join(str(exc).split()) or type(exc).__name__
                raise UsageError(f"cannot start a local Dask cluster: {detail}") from None
            if isinstance(exc, TimeoutError) or "Timed out" in str(exc):
                detail = f"no answer within {CONNECT_TIMEOUT_S} s (is `dask scheduler` running there?)"
            else:
                detail = " ".join(str(exc).split()) or type(exc).__name__
            raise UsageError(f"cannot reach the Dask scheduler {address}: {detail}") from None
        except BaseException:
            self.close()
            raise

    def _plan(self) -> tuple[dict[str, int], int]:
        """Numba threads per worker (host cores shared by the worker processes on the host)
        and the total number of worker threads."""
        try:
            self.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except (TimeoutError, OSError):
            raise UsageError(f"no Dask worker joined {self.name} within {WORKER_WAIT_S} s") from None
        cores = self.client.run(_worker_cores)
        try:
            info = self.client.scheduler_info(n_workers=-1)["workers"]   # all workers, not the first 5
        except TypeError:   # distributed < 2025: no n_workers, always all of them
            info = self.client.scheduler_info()["workers"]
        host = {addr: info.get(addr, {}).get("host", addr) for addr in cores}
        per_host: dict[str, int] = {}
        for h in host.values():
            per_host[h] = per_host.get(h, 0) + 1
        threads = {addr: max(1, n // per_host[host[addr]]) for addr, n in cores.items()}
        slots = sum(self.client.nthreads().values()) or 1
        return threads, slots

    def map(self, fn: Callable, tasks: Iterable) -> Iterator:
        threads, slots = self._plan()
        window = max(2, 2 * slots)
        remote = _OnWorker(fn, threads)
        pending = deque()
        try:
            for task in tasks:
                pending.append(self.client.submit(remote, *task, pure=False))
                if len(pending) >= window:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for fut in pending:
                fut.cancel()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


def _check_address(address: str) -> None:
    """Refuse a malformed address before Dask tries (and retries) to connect to it."""
    from distributed.comm.addressing import parse_address, parse_host_port
    bad = UsageError(f"--scheduler must look like tcp://HOST:PORT (got {address!r})")
    try:
        scheme, loc = parse_address(address, strict=True)
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(loc)
            if not host or not 0 < int(port) < 65536:
                raise bad
    except (ValueError, TypeError):
        raise bad from None


def make_executor(scheduler: str | None, cluster: str | None):
    """``--scheduler tcp://HOST:PORT`` or ``--cluster local:N`` (N worker processes)."""
    if scheduler and cluster:
        raise UsageError("give either --scheduler or --cluster, not both")
    if scheduler:
        if "://" not in scheduler:
            raise UsageError(f"--scheduler must look like tcp://HOST:PORT (got {scheduler!r})")
        return DaskExecutor(address=scheduler)
    if cluster:
        kind, _, n = cluster.partition(":")
        if kind != "local" or (n and not n.isdigit()) or (n and int(n) < 1):
            raise UsageError(f"--cluster must be local or local:N with N >= 1 (got {cluster!r})")
        return DaskExecutor(local_workers=int(n) if n else host_cores())
    return LocalExecutor()
