"""Where shards are played: this process (numba threads) or a Dask cluster.

Both yield results in shard order, so what is computed from them (statistics, stopping
decisions, files) does not depend on where or how fast each shard was played.
"""
from __future__ import annotations

import os
from collections import deque
from typing import Callable, Iterable, Iterator

from sim.errors import UsageError


class LocalExecutor:
    """Plays shards one after another in this process; each uses all numba threads."""

    name = "local"

    def map(self, fn: Callable, tasks: Iterable) -> Iterator:
        for task in tasks:
            yield fn(*task)

    def close(self) -> None:
        pass


class DaskExecutor:
    """Sends shards to a Dask cluster, keeping ``window`` shards in flight, yielding in order."""

    def __init__(self, address: str | None = None, local_workers: int | None = None):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("Dask is not installed: pip install 'cardsim[cluster]'") from None
        self.cluster = None
        try:
            if address is not None:
                self.client = Client(address, timeout="20s")
                self.name = address
            else:
                self.cluster = LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
                self.client = Client(self.cluster)
                self.name = f"local:{local_workers}"
        except OSError as exc:
            raise UsageError(f"cannot reach the Dask scheduler {address!r}: {exc}") from None
        workers = len(self.client.scheduler_info().get("workers", {})) or 1
        self.window = 2 * workers

    def map(self, fn: Callable, tasks: Iterable) -> Iterator:
        pending = deque()
        it = iter(tasks)
        try:
            for task in it:
                pending.append(self.client.submit(fn, *task, pure=False))
                if len(pending) >= self.window:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for fut in pending:
                fut.cancel()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


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
        return DaskExecutor(local_workers=int(n) if n else (os.cpu_count() or 1))
    return LocalExecutor()
