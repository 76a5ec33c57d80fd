"""Benchmarks: deals (games, hands) per second by strategy and core count, cold compile,
warm start.

    python scripts/tools/bench.py [--game all|GAME|SECTION] [--deals 400000] [--games 20000]
                            [--repeats 5] [--out results/BENCHMARKS.md]
    python scripts/tools/bench.py --baseline REV [--game ...] [--scale 0.25]
    python scripts/tools/bench.py --game startup [--compile-repeats 3]

No game is named here (issue 42): the games are the discovered ones (``sim.registry.games()``)
and what this script measures of each is its ``GameSpec.tools`` (``sim.spec.GameTools``). A
game's section (``--game GAME``, and every game under ``all``) plays the rows of its
``tools.bench`` (preset, strategy, players, records), every seat the same strategy, at 1 core
and all cores: records per second, and hands per second where the records count hands (a
``hands`` record column, else the rules' ``hands``). The declared records are the sizes at the
default ``--deals 400000 --games 20000``: a row of a game whose record is a deal is scaled by
``--deals / 400000``, any other row by ``--games / 20000`` (at least 64 records). Each section
also gives the game's start-up (at ``tools.bench_players`` players) and its ``tools.bench_note``.

``--game startup`` measures every game's cold compile and warm start side by side against
issue 14's targets, and ``cardsim warmup all`` in one process against one process per core.

``--baseline REV`` checks out REV in a temporary git worktree and measures it and this tree
side by side, interleaved (this tree, REV, this tree, REV in fresh interpreters per case):
cold compile and warm start of every game, and the throughput rows of every section, at
1 core and all cores, with ``--scale`` times the usual sizes. It writes the comparison as
the ``baseline`` section of the output file.

Every figure is the median of ``--repeats`` runs. Rates exclude compilation (a warm-up
call precedes the timed ones). Cold compile and warm start run in fresh subprocesses:
cold with an empty numba cache directory, warm with the cache that the cold run filled.
Each game's section of the output file sits between ``<!-- bench:GAME -->`` markers; a
run for one game replaces only its own section.
"""
from __future__ import annotations

import argparse
import importlib
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardsim.sim.registry import games as discovered_games  # noqa: E402
from cardsim.sim.spec import GameSpec, GameTools  # noqa: E402

FIRST_DEAL = """
import time; t0 = time.perf_counter()
import numpy as np
from cardsim.sim.runner import make_config, play_shard
cfg = make_config('{game}', players={players}, deals=1, seed=1, strategies=['greedy'])
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


def subprocess_seconds(env: dict, game: str, players: int) -> tuple[float, float]:
    """(wall time of a fresh interpreter doing import + first deal, time it reports itself)."""
    t = time.perf_counter()
    code = FIRST_DEAL.format(game=game, players=players)
    res = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return time.perf_counter() - t, float(res.stdout.strip().splitlines()[-1])


NON_GAME = ("startup", "poker", "strategies", "plugins", "search", "critique", "strong", "openspiel")
DEALS, GAMES = 400_000, 20_000        # the --deals and --games defaults: the sizes GameTools.bench declares
OPENSPIEL_REFERENCE = ("gin_rummy", "hearts")   # OpenSpiel's own games, timed beside the bridged ones


def tools_of(spec: GameSpec) -> GameTools:
    """What this script knows of a game (an empty ``GameTools`` for a game that declares none)."""
    return spec.tools or GameTools(digest_records=0)


def first_players(spec: GameSpec) -> int:
    """Players of the game's start-up figure and of the one-table sections (search, critique...)."""
    return tools_of(spec).bench_players or spec.players[2]


def first_row(spec: GameSpec) -> tuple:
    """The game's first throughput row (preset, strategy, players, records): the sections that
    play one table per game use its preset and size (without rows: the first preset, 1,000)."""
    rows = tools_of(spec).bench
    return tuple(rows[0]) if rows else (next(iter(spec.presets)), "greedy", first_players(spec), 1000)


def row_records(spec: GameSpec, records: int, args) -> int:
    """A declared row's records at this run's size: times --deals / 400,000 where a record is a
    deal, else times --games / 20,000; at least 64."""
    factor = args.deals / DEALS if spec.record_unit[0] == "deal" else args.games / GAMES
    return max(64, int(records * factor))


def hands_per_record(spec: GameSpec, rules, rec: np.ndarray, players: int) -> float | None:
    """Mean hands of the played records: their ``hands`` column where the game has one, else the
    rules' ``hands`` (every record plays that many); None: the records do not count hands."""
    cols = spec.record_columns(rec, players)
    if "hands" in cols:
        return float(np.asarray(cols["hands"], dtype=np.int64).sum()) / len(rec)
    hands = getattr(rules, "hands", None)
    return float(hands) if isinstance(hands, int) and not isinstance(hands, bool) else None


def bench_row(spec: GameSpec, preset: str, strategy: str, players: int, records: int, threads: int,
              repeats: int) -> tuple[float, float | None]:
    """(records/s, hands/s or None) of one throughput row, every seat ``strategy``: the median of
    ``repeats`` runs after a short warm-up call (compile excluded)."""
    from cardsim.sim.registry import seat_arrays, seat_table
    numba.set_num_threads(threads)
    rules = spec.options_cls(**spec.presets[preset])
    opts = rules.to_array(players)
    sids, params = seat_arrays(spec, seat_table(spec, [strategy], players))
    rec = np.zeros((records, spec.record_width), dtype=np.int32)
    warm = min(256, records)
    spec.play_batch(1, 0, warm, opts, sids, params, False, rec[:warm])
    t = median_time(lambda: spec.play_batch(1, 0, records, opts, sids, params, False, rec), repeats)
    hands = hands_per_record(spec, rules, rec, players)
    return records / t, None if hands is None else hands * records / t


def floor_kernel(spec: GameSpec):
    """The game's shuffle-and-deal-only kernel, ``deal_only_batch(seed, first, count, opts, out)``
    in its kernel package (``cardsim.kernels.<game>``), or None: the floor rows of its table."""
    try:
        module = importlib.import_module(f"cardsim.kernels.{spec.name}")
    except ImportError:
        return None
    return getattr(module, "deal_only_batch", None)


def bench_floor(fn, spec: GameSpec, preset: str, players: int, deals: int, threads: int,
                repeats: int) -> float:
    numba.set_num_threads(threads)
    opts = spec.options_cls(**spec.presets[preset]).to_array(players)
    out = np.zeros(deals, dtype=np.int64)
    warm = min(1000, deals)
    fn(1, 0, warm, opts, out[:warm])
    return deals / median_time(lambda: fn(1, 0, deals, opts, out), repeats)


def startup(game: str, players: int, repeats: int) -> tuple[float, float, float]:
    """Medians of (cold compile, warm start wall, warm start inside) over fresh interpreters."""
    colds, warms, warm_inner = [], [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            colds.append(subprocess_seconds(env, game, players)[0])
            wall, inner = subprocess_seconds(env, game, players)
            warms.append(wall)
            warm_inner.append(inner)
    return statistics.median(colds), statistics.median(warms), statistics.median(warm_inner)


def startup_lines(what: str, repeats: int, times: tuple[float, float, float]) -> list[str]:
    cold, warm, inner = times
    return [f"Median of {repeats} fresh interpreters each.", "",
            "| what | seconds |", "|---|---:|",
            f"| cold compile: import + first {what}, empty numba cache | {cold:.2f} |",
            f"| warm start: import + first {what}, cache filled (process wall time) | {warm:.2f} |",
            f"| warm start measured inside the interpreter | {inner:.2f} |", ""]


def short_title(spec: GameSpec) -> str:
    """The game's title without its other names ("Marafon (Beccaccino)" -> "Marafon")."""
    return spec.title.split(" (")[0]


def game_section(spec: GameSpec, args, cores: int) -> list[str]:
    """One game's block: its ``tools.bench`` rows (records/s and, where the records count hands,
    hands/s at 1 core and all cores), a floor row per table where its kernels have one, its
    start-up and its ``tools.bench_note``."""
    tools = tools_of(spec)
    title, (unit, units) = short_title(spec), spec.record_unit
    times = startup(spec.name, first_players(spec), args.compile_repeats)
    floor = floor_kernel(spec)
    rows = []
    for i, (preset, strategy, players, records) in enumerate(tools.bench):
        k = row_records(spec, records, args)
        one, alln = (bench_row(spec, preset, strategy, players, k, t, args.repeats) for t in (1, cores))
        rows.append((preset, strategy, players, k, one, alln))
        print(f"{spec.name}: {rows[-1]}", file=sys.stderr)
        if floor is not None and all((p, n) != (preset, players) for p, _, n, _ in tools.bench[i + 1:]):
            one, alln = (bench_floor(floor, spec, preset, players, k, t, args.repeats) for t in (1, cores))
            rows.append((preset, "floor: shuffle + deal only", players, k, (one, None), (alln, None)))
    hands = any(one[1] is not None for *_, one, _ in rows)
    cell = lambda v: "–" if v is None else f"{v:,.0f}"              # noqa: E731
    lines = [f"## {title} {'hands and ' if hands else ''}{units} per second", "",
             f"`scripts/tools/bench.py --game {spec.name}`: each figure is the median of {args.repeats} runs of the "
             f"given records (a record is one {unit}; --deals {args.deals:,}, --games {args.games:,}), all seats "
             "the same strategy, compile excluded."
             + (" Hands/s: the hands the records played (their `hands` column, else the rules' hands a record)."
                if hands else "")
             + (" Floor: shuffle and deal only (the kernels' `deal_only_batch`)." if floor is not None else ""), "",
             f"| preset | strategy | players | {units} | "
             + (f"hands/s 1 core | hands/s all cores ({cores}) | " if hands else "")
             + f"{units}/s 1 core | {units}/s all cores ({cores}) |",
             "|---|---|---:|---:|" + ("---:|---:|" if hands else "") + "---:|---:|"]
    lines += [f"| {p} | {s} | {n} | {k:,} | " + (f"{cell(one[1])} | {cell(alln[1])} | " if hands else "")
              + f"{one[0]:,.0f} | {alln[0]:,.0f} |" for p, s, n, k, one, alln in rows]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines += ["", f"Load average (1 min) at the end of these runs: {load:.1f} on {os.cpu_count()} cores; other",
              "processes on a shared machine hold cores and flatten the all-cores column.", ""]
    lines += [f"### {title} start-up", ""] + startup_lines(unit, args.compile_repeats, times)
    return lines + ([tools.bench_note, ""] if tools.bench_note else [])


def poker_section(args, cores: int) -> list[str]:
    sys.path.insert(0, str(ROOT / "scripts" / "tools"))
    import bench_poker
    return bench_poker.section(repeats=args.repeats, cores=cores)


# ---- --baseline REV: this tree against another revision, interleaved -------------------------
MEASURE = """
import statistics, sys, time
sys.path.insert(0, {root!r})
import numba, numpy as np
from cardsim.sim.registry import get_game, seat_arrays, seat_table
spec = get_game({game!r})
numba.set_num_threads({threads})
opts = spec.options_cls(**spec.presets[{preset!r}]).to_array({players})
sids, params = seat_arrays(spec, seat_table(spec, {seats!r}, {players}))
rec = np.zeros(({n}, spec.record_width), dtype=np.int32)
w = min({n}, 256)
spec.play_batch(1, 0, w, opts, sids, params, False, rec[:w])
ts = []
for _ in range({repeats}):
    t = time.perf_counter()
    spec.play_batch(1, 0, {n}, opts, sids, params, False, rec)
    ts.append(time.perf_counter() - t)
print({n} / statistics.median(ts))
"""


SHARD_MEASURE = """
import os, statistics, sys, time
sys.path.insert(0, {root!r})
os.chdir({root!r})
import numba
from cardsim.sim.runner import make_config, play_shard
rates = []
for strategies in {tables!r}:
    cfg = make_config({game!r}, players={players}, deals={n}, seed=1, strategies=strategies, workers={threads})
    numba.set_num_threads({threads})
    play_shard(cfg, 0, min({n}, 256))
    ts = []
    for _ in range({repeats}):
        t = time.perf_counter()
        play_shard(cfg, 0, {n})
        ts.append(time.perf_counter() - t)
    rates.append({n} / statistics.median(ts))
print(" ".join(map(str, rates)))
"""


def _child(code: str, root: Path, env: dict | None = None) -> str:
    res = subprocess.run([sys.executable, "-c", code], cwd=root, env=env or dict(os.environ),
                         capture_output=True, text=True)
    if res.returncode:
        raise SystemExit(f"benchmark child failed in {root.name}: {res.stderr.strip().splitlines()[-1:]}")
    return res.stdout.strip().splitlines()[-1]


def baseline_section(args, cores: int, games: list[str]) -> list[str]:
    """Cold/warm start and throughput of this tree and of ``args.baseline``, interleaved."""
    rev = subprocess.run(["git", "rev-parse", "--short", args.baseline], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    specs = {g: spec for g, spec in discovered_games().items() if g in games}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), rev], cwd=ROOT, check=True)
        try:
            roots = {"this tree": ROOT, rev: base}
            caches = {k: Path(tmp) / f"cache-{i}" for i, k in enumerate(roots)}
            start = []
            for g, spec in ({} if args.no_startup else specs).items():
                code = FIRST_DEAL.format(game=g, players=first_players(spec))
                cold, warm = {k: [] for k in roots}, {k: [] for k in roots}
                for _ in range(args.compile_repeats):
                    for k, root in roots.items():
                        with tempfile.TemporaryDirectory() as cache:
                            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
                            t = time.perf_counter()
                            _child(code, root, env)
                            cold[k].append(time.perf_counter() - t)
                            t = time.perf_counter()
                            _child(code, root, env)
                            warm[k].append(time.perf_counter() - t)
                            shutil.copytree(cache, caches[k], dirs_exist_ok=True)   # for the rows below
                start.append((g, *(statistics.median(cold[k]) for k in roots),
                              *(statistics.median(warm[k]) for k in roots)))
                print(f"start-up {g}: {start[-1][1:]}", file=sys.stderr)
            rows = []
            for g, spec in ({} if args.no_rates or args.plugins_only else specs).items():
                for preset, strategy, players, n in tools_of(spec).bench:
                    n = max(64, int(n * args.scale))
                    for threads in (1, cores):
                        got = {k: [] for k in roots}
                        for _ in range(args.rounds):
                            for k, root in roots.items():
                                env = dict(os.environ, NUMBA_CACHE_DIR=str(caches[k]))
                                code = MEASURE.format(root=str(root), game=g, preset=preset, seats=[strategy],
                                                      players=players, n=n, threads=threads, repeats=args.repeats)
                                got[k].append(float(_child(code, root, env)))
                        a, b = (statistics.median(got[k]) for k in roots)
                        rows.append((g, preset, strategy, players, threads, b, a))
                        print(f"{rows[-1]}", file=sys.stderr)
            for g, spec in ({} if args.no_rates else specs).items():
                rows += _plugin_rows(args, spec, cores, roots, caches)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT)
    lines = [f"## This tree against {rev}, measured side by side", "",
             f"`scripts/tools/bench.py --baseline {rev}`: each figure is measured for both trees in turn (this",
             f"tree, {rev}, ... {args.rounds} rounds), in fresh interpreters; start-up is the median of "
             f"{args.compile_repeats} fresh", f"caches each, throughput the median of {args.repeats} runs "
             f"per interpreter, at {args.scale:g} x the usual sizes.", "",
             "### Start-up: import + first deal (game) in a fresh interpreter", "",
             f"| game | cold compile {rev} s | cold compile this tree s | warm start {rev} s | "
             "warm start this tree s |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {g} | {cb:.1f} | {ca:.1f} | {wb:.2f} | {wa:.2f} |" for g, ca, cb, wa, wb in start]
    if start:
        lines += [f"| all games | {sum(r[2] for r in start):.1f} | {sum(r[1] for r in start):.1f} | | |"]
    if not rows:
        lines += ["", "Throughput not measured in this run (`--no-rates`)."]
    else:
        lines += ["", "### Throughput (records per second: deals, games, sessions)", "",
                  f"| game | preset | strategy | players | threads | {rev} | this tree | change |",
                  "|---|---|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {g} | {p} | {s} | {n} | {t} | {b:,.0f} | {a:,.0f} | {100 * (a / b - 1):+.1f} % |"
              for g, p, s, n, t, b, a in rows]
    if rows:
        worst = min(rows, key=lambda r: r[6] / r[5])
        lines += ["", f"Worst row: {worst[0]} {worst[1]} {worst[2]} ({worst[4]} threads), "
                      f"{100 * (worst[6] / worst[5] - 1):+.1f} %."]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines += [f"Load average (1 min) at the end: {load:.1f} on {os.cpu_count()} cores.", ""]
    return lines


def _plugin_rows(args, spec: GameSpec, cores: int, roots: dict, caches: dict) -> list[tuple]:
    """The plug-in rows of a baseline comparison: the game's ``plugin["bench"]`` tables (its
    built-in, one seat, and the plug-in that reimplements it, one seat) played through
    ``runner.play_shard`` (what a run calls: the plug-in's guard and the kernel's thread
    included), in both trees, interleaved."""
    game = spec.name
    bench = (spec.plugin or {}).get("bench")
    if not bench:
        return []
    players, other = bench["players"], bench["other"]
    tables = [[bench["builtin"]] + [other] * (players - 1), [bench["plugin"]] + [other] * (players - 1)]
    n = max(64, int(first_row(spec)[3] * args.scale))         # the size of the game's throughput rows
    rows = []
    for threads in (1, cores):
        got = {k: [] for k in roots}
        for _ in range(args.rounds):
            for k, root in roots.items():
                env = dict(os.environ, NUMBA_CACHE_DIR=str(caches[k]))
                code = SHARD_MEASURE.format(root=str(root), game=game, tables=tables, players=players, n=n,
                                            threads=threads, repeats=args.repeats)
                got[k].append([float(x) for x in _child(code, root, env).split()])
        for i, what in enumerate(("built-in (run)", "plug-in (run)")):
            a, b = (statistics.median(r[i] for r in got[k]) for k in roots)
            rows.append((game, what, tables[i][0], players, threads, b, a))
            print(rows[-1], file=sys.stderr)
    return rows


def strategies_section(args, cores: int) -> list[str]:
    """Every registered strategy of every game at its default parameters, this tree only
    (rows for strategies the older sections do not list), records per second."""
    rows = []
    for g, spec in discovered_games().items():
        players = first_players(spec)
        preset, _, _, n = first_row(spec)
        slow = {c[1]: c[3] for c in tools_of(spec).bench if c[0] == preset}
        for name in spec.strategies:
            if name == "search":             # its own section (one seat; every seat would take hours)
                continue
            k = slow.get(name, n if "random" not in name and "fuzz" not in name else max(n // 100, 64))
            k = max(64, int(k * args.scale))
            got = []
            for threads in (1, cores):
                code = MEASURE.format(root=str(ROOT), game=g, preset=preset, seats=[name], players=players,
                                      n=k, threads=threads, repeats=args.repeats)
                got.append(float(_child(code, ROOT)))
            rows.append((g, preset, name, players, *got))
            print(rows[-1], file=sys.stderr)
    lines = ["## Every strategy, default parameters", "",
             f"Records per second (deals, games, sessions), median of {args.repeats} runs after a warm-up, "
             f"{args.scale:g} x the usual sizes; every seat plays the strategy.", "",
             f"| game | preset | strategy | players | 1 core | all cores ({cores}) |",
             "|---|---|---|---:|---:|---:|"]
    lines += [f"| {g} | {p} | {s} | {n} | {a:,.0f} | {b:,.0f} |" for g, p, s, n, a, b in rows]
    return lines + [""]


PLUGIN_MEASURE = """
import statistics, sys, time
sys.path.insert(0, {root!r})
import numba, numpy as np
from cardsim.sim.registry import get_game, seat_arrays, seat_plugin, seat_table
spec = get_game({game!r})
numba.set_num_threads({threads})
opts = spec.options_cls().to_array({players})
rows = []
for strategies in {tables!r}:
    seats = seat_table(spec, strategies, {players})
    sids, params = seat_arrays(spec, seats)
    plug, pprm = seat_plugin(spec, seats)
    extra = () if plug is None else (plug, pprm)
    rec = np.zeros(({n}, spec.record_width), dtype=np.int32)
    spec.play_batch(1, 0, 256, opts, sids, params, False, rec[:256], *extra)
    rows.append((sids, params, extra, rec))
ts = [[] for _ in rows]
for _ in range({repeats}):              # interleaved: built-in and plug-in alike under the same load
    for k, (sids, params, extra, rec) in enumerate(rows):
        t = time.perf_counter()
        spec.play_batch(1, 0, {n}, opts, sids, params, False, rec, *extra)
        ts[k].append(time.perf_counter() - t)
print(" ".join(str({n} / statistics.median(t)) for t in ts))
"""


def plugins_section(args, cores: int) -> list[str]:
    """Per game that takes plug-ins, a plug-in that reimplements a built-in's decision (its
    spec's ``plugin["bench"]``: the built-in label, the plug-in label, players and the other
    seats) beside that built-in, interleaved in one process: deals/s and the ratio (issue 17: at
    most 1.5x)."""
    from cardsim.sim.registry import games
    n = max(1000, int(args.deals * args.scale))
    rows = []
    for game, spec in games().items():
        bench = (spec.plugin or {}).get("bench")
        if not bench:
            continue
        builtin, plug, players, other = bench["builtin"], bench["plugin"], bench["players"], bench["other"]
        cases = [("one seat", [[builtin] + [other] * (players - 1), [plug] + [other] * (players - 1)])]
        if bench.get("every_seat", True):
            cases.append(("every seat", [[builtin], [plug]]))
        m = max(100, int(n * bench.get("scale", 1.0)))
        for what, tables in cases:
            for threads in (1, cores):
                code = PLUGIN_MEASURE.format(root=str(ROOT), game=game, tables=tables, players=players, n=m,
                                             threads=threads, repeats=args.repeats)
                a, b = (float(x) for x in _child(code, ROOT).split())
                rows.append((game, f"{what} of {players}", f"`{builtin}` / `{plug}`", m, threads, a, b))
                print(rows[-1], file=sys.stderr)
    lines = ["## Plug-in strategies: a plug-in beside the built-in it reimplements", "",
             f"Default rules, median of {args.repeats} interleaved runs in one process, compile excluded: each "
             "plug-in makes the same decisions as the built-in beside it (their records are identical, "
             "`tests/test_plugins*.py`). Target (issue 17): the plug-in within 1.5x of the built-in.", "",
             "| game | seats | built-in / plug-in | deals | threads | built-in deals/s | plug-in deals/s | ratio |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {g} | {w} | {lab} | {m:,} | {t} | {a:,.0f} | {b:,.0f} | {a / b:.2f}x |"
              for g, w, lab, m, t, a, b in rows]
    return lines + [""]


NOT_ACTIONS = {"hand", "deal", "end", "score", "result", "trick", "upcard"}    # table events of the traces


def search_actions(game: str, seats: list[str], players: int, records: int) -> float:
    """Mean actions of seat 0 per record (its trace events, forced ones included) over ``records``
    replayed records: what a search seat decides per record."""
    from cardsim.sim.runner import make_config, replay_events
    cfg = make_config(game, players, records, 1, seats)
    return statistics.mean(sum(1 for e in replay_events(cfg, d) if e.get("seat") == 0
                               and e["action"] not in NOT_ACTIONS) for d in range(records))


def search_section(args, cores: int) -> list[str]:
    """Per game with a ``search`` strategy: one search seat at its default budget against
    ``strong`` at the other seats, default rules: records/s at 1 core and all cores, the search
    seat's actions per record (replayed traces) and so its actions (decisions) per second, and
    the time a 10,000-record ``compare`` of search against strong in a strong field takes
    (each point plays every seat of every record: players x 10,000 search-seat records)."""
    rows = []
    for g, spec in discovered_games().items():
        if "search" not in spec.strategies:
            continue
        players = first_players(spec)
        seats = ["search"] + ["strong"] * (players - 1)
        n = max(2, int(tools_of(spec).search_records * args.scale / 0.25))
        rates = []
        for threads in (1, cores):
            code = MEASURE.format(root=str(ROOT), game=g, preset=first_row(spec)[0], seats=seats,
                                  players=players, n=n, threads=threads, repeats=min(args.repeats, 3))
            rates.append(float(_child(code, ROOT)))
        acts = search_actions(g, seats, players, min(n, 20))
        compare_s = 10_000 * players / rates[1]
        rows.append((g, players, n, *rates, acts, acts * rates[0], compare_s))
        print(rows[-1], file=sys.stderr)
    lines = ["## Search players: one `search` seat at its default budget", "",
             f"Default rules, the other seats `strong`; records/s is the median of {min(args.repeats, 3)} runs of the "
             "given records after a warm-up (as many records, at most 256). Actions: the search seat's trace events per record (forced ones, "
             "which it takes without searching, included), over up to 20 replayed records. The last column "
             "projects a 10,000-record `compare --strategy search --strategy strong --field strong` on all cores "
             "(the search point plays each record once per seat; the strong point's time is left out). Target "
             "(issue 19): within 10 minutes on 2 cores. A batch gives each thread at least the game's chunk of "
             "records (Contract Rummy: 64), so Contract Rummy's 4 records run on one thread.", "",
             f"| game | players | records | records/s 1 core | records/s all cores ({cores}) | search-seat actions "
             "per record | actions/s 1 core | 10,000-record compare (min) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {g} | {p} | {n:,} | {a:,.1f} | {b:,.1f} | {k:,.1f} | {d:,.0f} | {c / 60:.1f} |"
              for g, p, n, a, b, k, d, c in rows]
    return lines + [""]


def critique_section(args, cores: int) -> list[str]:
    """Per game with a critique: ``cardsim.critique`` of ``strong`` against ``strong`` at the
    default budget on all cores, after a warm-up that compiles it; evaluated decisions per
    second and the time 1,000 of them take (issue 40's target: at most 5 minutes)."""
    import cardsim
    rows = []
    for g, spec in discovered_games().items():
        if spec.critique is None:
            continue
        players = first_players(spec)
        cardsim.critique(g, ["strong"], players=players, decisions=2)          # compile
        n = max(10, int(tools_of(spec).critique_decisions * args.scale / 0.25))
        t0 = time.perf_counter()
        res = cardsim.critique(g, ["strong"], players=players, decisions=n, workers=cores)
        dt = time.perf_counter() - t0
        ev = int(res.total["evaluated"])
        rollouts = float(res.decisions.rollouts.sum()) / max(1, ev)
        rows.append((g, players, res.meta["worlds"], ev, res.total["units"], dt, ev / dt, rollouts, 1000 / (ev / dt)))
        print(rows[-1], file=sys.stderr)
    lines = ["## Critique: `cardsim critique GAME --strategy strong` at the default budget", "",
             f"`scripts/tools/bench.py --game critique`: strong against strong, default rules, every decision of the "
             f"critiqued seat with a choice evaluated (select stage: the default worlds, racing; measure stage: "
             f"as many fresh worlds when the best is not the choice), all cores ({cores}), compile excluded. "
             "Target (issue 40): 1,000 evaluated decisions in at most 5 minutes on 2 cores.", "",
             "| game | players | worlds | decisions evaluated | records | seconds | decisions/s | rollouts per "
             "decision | 1,000 decisions (s) | <= 5 min |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    lines += [f"| {g} | {p} | {w} | {e:,} | {u:,} | {t:.1f} | {r:,.2f} | {k:,.0f} | {m:,.1f} | "
              f"{'yes' if m <= 300 else 'no'} |" for g, p, w, e, u, t, r, k, m in rows]
    return lines + [""]


def strong_section(args, cores: int) -> list[str]:
    """Per reworked game (its ``tools.old_strong``): today's ``strong`` beside the ``strong`` it
    replaced, every seat the same, in interleaved rounds (each figure the median of its rounds'
    medians). Issue 41's speed target: at most 2x slower."""
    rows = []
    for g, spec in discovered_games().items():
        old, players = tools_of(spec).old_strong, first_players(spec)
        if not old:
            continue
        preset, _, _, n = first_row(spec)
        k = max(64, int(n * args.scale))
        got = {("strong", t): [] for t in (1, cores)} | {(old, t): [] for t in (1, cores)}
        for _ in range(args.rounds):
            for label in ("strong", old):
                for threads in (1, cores):
                    code = MEASURE.format(root=str(ROOT), game=g, preset=preset, seats=[label],
                                          players=players, n=k, threads=threads, repeats=args.repeats)
                    got[(label, threads)].append(float(_child(code, ROOT)))
        med = {key: statistics.median(v) for key, v in got.items()}
        rows.append((g, old, players, med[(old, 1)], med[(old, cores)], med[("strong", 1)],
                     med[("strong", cores)]))
        print(rows[-1], file=sys.stderr)
    lines = ["## `strong` before and after issue 41", "",
             f"`scripts/tools/bench.py --game strong`: records per second, every seat the same strategy, default rules, "
             f"{args.scale:g} x the usual sizes, {args.rounds} interleaved rounds of {args.repeats} runs (the "
             "median). Target (issue 41): today's `strong` at most 2x slower than the one it replaced.", "",
             f"| game | players | `strong` before | 1 core | all cores ({cores}) | `strong` now: 1 core | all cores "
             "| slower by |", "|---|---:|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {g} | {n} | `{old}` | {a:,.0f} | {b:,.0f} | {c:,.0f} | {d:,.0f} | {a / c:.2f}x |"
              for g, old, n, a, b, c, d in rows]
    return lines + [""]


def openspiel_section(args, cores: int) -> list[str]:
    """Steps per second through OpenSpiel's interface (uniform random legal actions, chance
    sampled by its probabilities; every ``apply_action`` is a step), cardsim's bridged games
    beside OpenSpiel's own gin_rummy and hearts, interleaved in one process."""
    import cardsim.openspiel  # noqa: F401
    import pyspiel
    rng = np.random.default_rng(1)
    names = [*(name for spec in discovered_games().values() for name in tools_of(spec).openspiel),
             *OPENSPIEL_REFERENCE]
    games = {name: pyspiel.load_game(name) for name in names}
    steps = {name: 0 for name in games}
    secs = {name: 0.0 for name in games}
    plays = {name: 0 for name in games}
    for rnd in range(max(1, args.repeats) + 1):        # round 0 warms up (kernels loaded on first use): not timed
        for name, g in games.items():
            for _ in range(max(1, int(40 * args.scale / 0.25)) if rnd else 1):
                t = time.perf_counter()
                s = g.new_initial_state()
                k = 0
                while not s.is_terminal():
                    if s.is_chance_node():
                        outs, probs = zip(*s.chance_outcomes())
                        s.apply_action(int(rng.choice(outs, p=np.array(probs) / sum(probs))))
                    else:
                        legal = s.legal_actions()
                        s.apply_action(int(legal[rng.integers(len(legal))]))
                    k += 1
                if rnd:
                    secs[name] += time.perf_counter() - t
                    steps[name] += k
                    plays[name] += 1
    lines = ["## OpenSpiel interface: steps per second", "",
             "Uniform random legal actions through `pyspiel` (chance nodes sampled by their probabilities), "
             f"interleaved, {max(1, args.repeats)} rounds after a round of one untimed game each; one step is one `apply_action`, chance or player. "
             f"OpenSpiel {getattr(pyspiel, '__version__', '')} C++ games beside cardsim's Python bridge.", "",
             "| game | games played | steps per game | steps/s |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {plays[name]:,} | {steps[name] / plays[name]:,.0f} | {steps[name] / secs[name]:,.0f} |"
              for name in games]
    return lines + [""]


def merge(path: Path, header: list[str], blocks: dict[str, list[str]]) -> str:
    """The file with the given blocks replaced (others kept: the known ones in order (start-up,
    the discovered games in listing order, the other sections), then any other section, such as a
    hand-written side-by-side comparison, in file order)."""
    old = path.read_text() if path.exists() else ""
    parts = []
    known = ["startup", *discovered_games(), *(s for s in NON_GAME if s != "startup"), "baseline"]
    others = [m for m in re.findall(r"<!-- bench:([\w-]+) -->", old) if m not in known]   # kept, in file order
    for game in [*known, *others]:
        start, end = f"<!-- bench:{game} -->", f"<!-- /bench:{game} -->"
        if game in blocks:
            parts.append("\n".join([start, *blocks[game], end]))
        elif start in old and end in old:
            parts.append(old[old.index(start):old.index(end) + len(end)])
    return "\n".join(header) + "\n" + "\n\n".join(parts) + "\n"


def warmup_all_seconds(jobs: int) -> float:
    """Wall time of ``cardsim warmup all --jobs JOBS`` (play, replay and search of every game) in
    a fresh interpreter with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardsim", "warmup", "all", "--quiet", "--jobs", str(jobs)],
                       env=env, cwd=ROOT, check=True, capture_output=True)
        return time.perf_counter() - t


def startup_section(args, cores: int) -> list[str]:
    """Start-up of every game (issue 14's targets) and ``cardsim warmup all`` in one process
    against one per core, all in one run."""
    rows, total = [], 0.0
    for g, spec in discovered_games().items():
        n = first_players(spec)
        cold, warm, inner = startup(g, n, args.compile_repeats)
        total += cold
        was = tools_of(spec).issue14_cold
        rows.append(f"| {g} | {n} | {'–' if was is None else f'{was:.1f}'} | {cold:.1f} | "
                    f"{'yes' if cold <= 15 else 'no'} | {warm:.2f} | {inner:.2f} | {'yes' if warm <= 1.0 else 'no'} |")
    serial, parallel = warmup_all_seconds(1), warmup_all_seconds(2)
    return ["## Start-up, every game", "",
            f"`scripts/tools/bench.py --game startup`: import + first deal (game, session) with greedy players in a "
            f"fresh interpreter, median of {args.compile_repeats} each; cold: an empty numba cache, warm: the "
            "cache that run filled (process wall time, and the time the interpreter measures itself). "
            "\"at filing\" is the figure of the sections above when issue 14 was filed (– where none was "
            "measured). Targets (issue 14): cold at most 15 s per game and 60 s for all six, warm at most 1.0 s.",
            "", "| game | players | cold at filing s | cold s | cold <= 15 s | warm s | warm inside s | "
            "warm <= 1.0 s |", "|---|---:|---:|---:|---|---:|---:|---|", *rows,
            f"| all games | | | {total:.1f} | {'yes' if total <= 60 else 'no'} (60 s) | | | |", "",
            "`cardsim warmup all` (play, replay and search kernels of every game, empty cache), the same run:", "",
            "| how | seconds |", "|---|---:|",
            f"| `--jobs 1`: one process, the games in turn | {serial:.1f} |",
            f"| `--jobs 2`: a process per game, two at a time | {parallel:.1f} |", ""]


def main() -> None:
    specs = discovered_games()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=["all", *specs, *NON_GAME], default="all",
                    help="one section: a game's name (its throughput rows and start-up; 'all': every game and "
                         "'poker'); 'strategies': every registered strategy, 'plugins': a plug-in beside "
                         "its built-in, 'search': one search seat per game, 'critique': cardsim critique of strong, "
                         "'openspiel': the bridge's steps/s, 'startup': every game's cold and warm start and warmup "
                         "all, 'strong': strong beside the strong it replaced (none of them part of 'all')")
    ap.add_argument("--deals", type=int, default=DEALS,
                    help="size of a game's throughput rows where a record is a deal: its declared records "
                         f"(GameTools.bench) times DEALS / {DEALS:,}")
    ap.add_argument("--games", type=int, default=GAMES,
                    help="size of the other games' throughput rows (a record is a game, match or session): "
                         f"their declared records times GAMES / {GAMES:,}")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--compile-repeats", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "results" / "BENCHMARKS.md"))
    ap.add_argument("--baseline", metavar="REV", help="measure REV (a temporary worktree) beside this tree")
    ap.add_argument("--scale", type=float, default=0.25, help="with --baseline: fraction of the usual sizes")
    ap.add_argument("--no-rates", action="store_true", help="with --baseline: start-up only")
    ap.add_argument("--no-startup", action="store_true",
                    help="with --baseline: throughput only (each tree's first child fills its cache)")
    ap.add_argument("--plugins-only", action="store_true",
                    help="with --baseline: start-up and the plug-in rows (a built-in and its plug-in), no other rates")
    ap.add_argument("--rounds", type=int, default=2,
                    help="with --baseline: interleaved rounds per figure (each tree measured in turn)")
    args = ap.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    games = [*specs, "poker"] if args.game == "all" else [args.game]
    if args.baseline:
        blocks = {"baseline": baseline_section(args, cores, games)}
        games = [f"baseline {args.baseline}"]
    elif args.game == "strategies":
        blocks = {"strategies": strategies_section(args, cores)}
    elif args.game == "plugins":
        blocks = {"plugins": plugins_section(args, cores)}
    elif args.game == "search":
        blocks = {"search": search_section(args, cores)}
    elif args.game == "critique":
        blocks = {"critique": critique_section(args, cores)}
    elif args.game == "openspiel":
        blocks = {"openspiel": openspiel_section(args, cores)}
    elif args.game == "strong":
        blocks = {"strong": strong_section(args, cores)}
    elif args.game == "startup":
        blocks = {"startup": startup_section(args, cores)}
    else:
        blocks = {g: game_section(specs[g], args, cores) if g in specs else poker_section(args, cores)
                  for g in games}
    header = ["# Benchmarks", "", f"Written by `scripts/tools/bench.py`; last run {time.strftime('%Y-%m-%d')} "
              f"({', '.join(games)}).", "", f"Machine: {machine()}.", ""]
    text = merge(Path(args.out), header, blocks)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
