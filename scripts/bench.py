"""Benchmark Tonk: deals/s by strategy and core count, cold compile, warm start, floor.

    python scripts/bench.py [--deals 400000] [--repeats 5] [--out results/BENCHMARKS.md]

Every figure is the median of ``--repeats`` runs. Deals/s exclude compilation (a warm-up
call precedes the timed ones). Cold compile and warm start run in fresh subprocesses:
cold with an empty numba cache directory, warm with the cache that the cold run filled.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernels import tonk as K  # noqa: E402
from sim.games.tonk import TonkOptions  # noqa: E402

FIRST_DEAL = """
import time; t0 = time.perf_counter()
import numpy as np
from sim.runner import make_config, play_shard
cfg = make_config('tonk', players=2, deals=1, seed=1, strategies=['greedy'])
play_shard(cfg, 0, 1)
print(time.perf_counter() - t0)
"""


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(next(x for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal")).split()[1])
        mem = f", {kb / 2**20:.0f} GiB RAM"
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {os.cpu_count()} cores{mem}; {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}")


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def subprocess_seconds(env: dict) -> tuple[float, float]:
    """(wall time of a fresh interpreter doing import + first deal, time it reports itself)."""
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", FIRST_DEAL], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return time.perf_counter() - t, float(res.stdout.strip().splitlines()[-1])


def bench_play(n_players: int, sid: int, deals: int, threads: int, repeats: int) -> float:
    numba.set_num_threads(threads)
    opts = TonkOptions().to_array(n_players)
    sids = np.full(n_players, sid, dtype=np.int64)
    params = np.zeros((n_players, K.N_PARAMS))
    params[:, 0] = 8.0
    rec = np.zeros((deals, K.RECORD_COLS), dtype=np.int32)
    K.play_batch(1, 0, 1000, opts, sids, params, False, rec[:1000])
    return deals / median_time(lambda: K.play_batch(1, 0, deals, opts, sids, params, False, rec), repeats)


def bench_floor(n_players: int, deals: int, threads: int, repeats: int) -> float:
    numba.set_num_threads(threads)
    opts = TonkOptions().to_array(n_players)
    out = np.zeros(deals, dtype=np.int64)
    K.deal_only_batch(1, 0, 1000, opts, out[:1000])
    return deals / median_time(lambda: K.deal_only_batch(1, 0, deals, opts, out), repeats)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=400_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--compile-repeats", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "results" / "BENCHMARKS.md"))
    args = ap.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS

    colds, warms, warm_inner = [], [], []
    for _ in range(args.compile_repeats):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            colds.append(subprocess_seconds(env)[0])
            wall, inner = subprocess_seconds(env)
            warms.append(wall)
            warm_inner.append(inner)

    rows = []
    for n in (2, 3, 4):
        for name, sid in (("random", K.S_RANDOM), ("greedy", K.S_GREEDY), ("knocker:threshold=8", K.S_KNOCKER)):
            one = bench_play(n, sid, args.deals, 1, args.repeats)
            alln = bench_play(n, sid, args.deals, cores, args.repeats)
            rows.append((n, name, one, alln))
        rows.append((n, "floor: shuffle + deal + 49/50 check", bench_floor(n, args.deals, 1, args.repeats),
                     bench_floor(n, args.deals, cores, args.repeats)))

    lines = [
        "# Benchmarks",
        "",
        f"Written by `scripts/bench.py` on {time.strftime('%Y-%m-%d')}.",
        "",
        f"Machine: {machine()}.",
        "",
        f"Each figure is the median of {args.repeats} runs of {args.deals:,} deals (compile excluded);",
        "all seats play the same strategy, default (seed) rules.",
        "",
        "## Tonk deals per second",
        "",
        f"| players | strategy | 1 core | all cores ({cores}) |",
        "|---|---|---:|---:|",
    ]
    lines += [f"| {n} | {name} | {one:,.0f} | {alln:,.0f} |" for n, name, one, alln in rows]
    lines += [
        "",
        "## Start-up",
        "",
        f"Median of {args.compile_repeats} fresh interpreters each.",
        "",
        "| what | seconds |",
        "|---|---:|",
        f"| cold compile: import + first deal, empty numba cache | {statistics.median(colds):.2f} |",
        f"| warm start: import + first deal, cache filled (process wall time) | {statistics.median(warms):.2f} |",
        f"| warm start measured inside the interpreter | {statistics.median(warm_inner):.2f} |",
        "",
        "Targets (issue 2, 2-core machine): at least 300,000 Tonk deals/s with greedy play on all",
        "cores; warm start under 2 s.",
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
