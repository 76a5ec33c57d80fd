"""Instruction counts of the benchmark rows under valgrind's callgrind: a throughput comparison
without the wall clock's noise (issue 42: every row within 5 % of a baseline revision).

    python scripts/tools/instructions.py [--game all|GAME] [--rows first|spread|all]
                                         [--records N | --scale 0.005] [--tree PATH ...]
                                         [--baseline REV] [--difference] [--native]
                                         [--cache-dir DIR] [--valgrind valgrind]

No game is named here: the games are the discovered ones (``sim.registry.games()``) and the rows
are each game's ``GameSpec.tools.bench`` (preset, strategy, players, records), every seat the
same strategy, played in process by ``spec.play_batch`` at 1 thread, as ``bench.py`` does.
``--rows first`` takes a game's first row; ``spread`` (the default) every row at the first row's
preset and players (each strategy there) and the first row of every other preset and of every
other player count; ``all`` every row. A row's records are ``--records`` where given, else its
declared records times ``--scale`` (at least 64).

Each row is measured in every tree: this checkout, each ``--tree PATH`` (another checkout, a
``git worktree`` of an older revision, say; its ``cardsim`` is imported from there, so its API
must be the one used here: ``sim.registry``, ``GameSpec.tools.bench``, ``play_batch``) and, with
``--baseline REV``, a temporary worktree of REV. A tree is measured in fresh interpreters, one
per game (all its rows in one process, so that the interpreter's start-up is paid once):

1. a plain run (no valgrind) of the rows with a few records: it fills the tree's numba cache,
   so the measured run loads compiled code instead of compiling; a second plain run with N
   records gives the records' checksums (the same in every tree where the records are);
2. the rows under ``valgrind --tool=callgrind --dump-before=getppid``: for each row a warm-up
   call (16 records), then ``os.getppid()``, the measured call of N records, ``os.getppid()``.
   Callgrind writes a part at each ``getppid`` call, so the part between the two markers of a
   row holds only its measured call (start-up, imports, cache loading and the warm-up lie in
   other parts); its ``summary:`` line is the row's instructions. The number of parts is
   checked (a ``getppid`` called from anywhere else would stop the script).
   ``--difference`` also runs the rows with 2N records and reports part(2N) - part(N): the
   cost of N records without the fixed cost of one call (about 0.1 M instructions).

The children run with ``NUMBA_NUM_THREADS=1``, ``PYTHONHASHSEED=0`` and a fixed numba target
(``NUMBA_CPU_NAME=haswell`` and the features valgrind's CPU offers: valgrind has no AVX-512, and
a cache entry compiled for the host CPU would neither load nor run under it), with a numba cache
directory per tree under a temporary directory (``--cache-dir`` keeps them between runs). The
counts are therefore those of AVX2 code, the same target in every tree.

It prints one line per row and tree as measured (to stderr: the row, the tree, millions of
instructions, the records' checksum), then a Markdown table: game, preset, strategy, players,
records N, millions of instructions for N records in each tree, and the change of the last tree
(this checkout) against the first (``--baseline``, else the first ``--tree``). ``--native``
prints native seconds of the measured calls instead (no valgrind; one run, wall clock), to
choose N: under callgrind a row runs about 50 times slower than natively, and each process
pays about 45 s of interpreter and numba start-up.

Example (issue 42; a worktree of the baseline made with ``git worktree add --detach``)::

    git worktree add --detach ../base39 39b3c58
    python scripts/tools/instructions.py --tree ../base39 --game tripoli --records 10000
    git worktree remove --force ../base39

    python scripts/tools/instructions.py --child ROOT GAME PRESET STRATEGY PLAYERS N

is the measured process itself (what the runs above execute, with ROOT the tree's root): it
imports ``cardsim`` from ROOT, plays the warm-up and N records, and prints ``cardsim.__file__``
(to stderr, a check that the tree's own code ran) and the records' checksum.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WARM = 16                                   # records of the child's warm-up call (at most)
MARKER = "getppid"                          # the libc call that splits the callgrind parts
VALGRIND_CPU = "haswell"                    # the CPU valgrind (3.19) reports to llvmlite
VALGRIND_FEATURES = ",".join("+" + f for f in (
    "64bit aes avx avx2 bmi bmi2 cmov crc32 cx16 cx8 f16c fma fxsr invpcid lzcnt mmx movbe pclmul "
    "popcnt rdrnd rdseed sahf sse sse2 sse3 sse4.1 sse4.2 ssse3 xsave").split())


def child(root: str, game: str, rows: list) -> None:
    """The measured process: for each row (preset, strategy, players, records) a warm-up call,
    then the row's records; a marker call (``os.getppid``) on each side of the measured call."""
    sys.path.insert(0, root)
    import numba
    import numpy as np
    import cardsim
    from cardsim.sim.registry import get_game, seat_arrays, seat_table
    print(f"cardsim from {cardsim.__file__}", file=sys.stderr)
    spec = get_game(game)
    numba.set_num_threads(1)
    for preset, strategy, players, records in rows:
        opts = spec.options_cls(**spec.presets[preset]).to_array(players)
        sids, params = seat_arrays(spec, seat_table(spec, [strategy], players))
        warm = np.zeros((min(WARM, records), spec.record_width), dtype=np.int32)
        spec.play_batch(1, 0, len(warm), opts, sids, params, False, warm)
        rec = np.zeros((records, spec.record_width), dtype=np.int32)
        os.getppid()                                    # callgrind dumps a part here (--dump-before)
        t = time.perf_counter()
        spec.play_batch(1, 0, records, opts, sids, params, False, rec)
        t = time.perf_counter() - t
        os.getppid()
        print(int(rec.astype(np.int64).sum()), f"{t:.4f}", flush=True)


def child_env(cache: Path) -> dict:
    return dict(os.environ, NUMBA_NUM_THREADS="1", PYTHONHASHSEED="0", NUMBA_CACHE_DIR=str(cache),
                NUMBA_CPU_NAME=VALGRIND_CPU, NUMBA_CPU_FEATURES=VALGRIND_FEATURES)


def run_child(root: Path, game: str, rows: list, cache: Path, valgrind: list[str] | None = None,
              out: Path | None = None) -> list[tuple[str, float]]:
    """Runs the child (under ``valgrind`` when given, its callgrind files at ``out``.*): for each
    row (checksum of its records, native seconds of the measured call)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(root), game, json.dumps(rows)]
    if valgrind:
        cmd = [*valgrind, "--tool=callgrind", "--dump-instr=no", f"--dump-before={MARKER}",
               f"--callgrind-out-file={out}", *cmd]
    res = subprocess.run(cmd, cwd=root, env=child_env(cache), capture_output=True, text=True)
    if res.returncode:
        raise SystemExit(f"child failed in {root}: {res.stderr.strip()[-2000:]}")
    where = re.search(r"cardsim from (\S+)", res.stderr)
    if not where or not Path(where.group(1)).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"the child in {root} imported another tree's cardsim: {where and where.group(1)}")
    lines = res.stdout.strip().splitlines()[-len(rows):]
    return [(a, float(b)) for a, b in (line.split() for line in lines)]


def callgrind_total(path: Path) -> int:
    """The total instructions of a callgrind output file (its ``summary:`` or ``totals:`` line)."""
    text = path.read_text(errors="replace")
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    if not m:
        raise SystemExit(f"no total in {path}")
    return int(m.group(1))


def parts(root: Path, game: str, rows: list, cache: Path, valgrind: list[str], tmp: Path) -> list[int]:
    """Instructions of each row's measured call, one callgrind run: the parts between the markers."""
    out = tmp / f"callgrind.{os.getpid()}.out"
    run_child(root, game, rows, cache, valgrind, out)
    files = sorted(tmp.glob(out.name + ".*"), key=lambda p: int(p.suffix[1:]))
    if len(files) != 2 * len(rows):             # start-up, then (measured call, next warm-up) per row
        raise SystemExit(f"{len(files)} callgrind parts for {len(rows)} rows: is {MARKER} called elsewhere?")
    got = [callgrind_total(files[2 * i + 1]) for i in range(len(rows))]
    for f in [*files, out]:
        f.unlink(missing_ok=True)
    return got


def instructions(root: Path, game: str, rows: list, cache: Path, valgrind: list[str], tmp: Path,
                 difference: bool) -> tuple[list[float], list[str]]:
    """(Instructions of each row's records in tree ``root``, the records' checksums): the part of
    the measured call, or with ``difference`` part(2N) - part(N) of two runs."""
    run_child(root, game, [(*r[:3], min(r[3], 64)) for r in rows], cache)     # fills the numba cache
    sums = [s for s, _ in run_child(root, game, rows, cache)]                  # a native run: the checksums
    got = parts(root, game, rows, cache, valgrind, tmp)
    if difference:
        twice = parts(root, game, [(*r[:3], 2 * r[3]) for r in rows], cache, valgrind, tmp)
        got = [b - a for a, b in zip(got, twice)]
    return [float(g) for g in got], sums


def pick_rows(bench: list[tuple], how: str) -> list[tuple]:
    """The rows to measure of a game's ``tools.bench`` (see the module docstring)."""
    if how == "all" or not bench:
        return list(bench)
    first = bench[0]
    if how == "first":
        return [first]
    rows = [r for r in bench if (r[0], r[2]) == (first[0], first[2])]
    for key in (0, 2):                      # the first row of every other preset, of every other player count
        seen = {first[key]}
        for r in bench:
            if r[key] not in seen:
                seen.add(r[key])
                if r not in rows:
                    rows.append(r)
    return rows


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="all", help="a game, or all (every discovered game)")
    ap.add_argument("--rows", choices=("first", "spread", "all"), default="spread")
    ap.add_argument("--records", type=int, help="N: records of every row (default: declared x --scale)")
    ap.add_argument("--scale", type=float, default=0.005, help="fraction of a row's declared records")
    ap.add_argument("--tree", action="append", default=[], type=Path, help="another checkout (baseline first)")
    ap.add_argument("--baseline", metavar="REV", help="also a temporary git worktree of REV (the baseline)")
    ap.add_argument("--difference", action="store_true",
                    help="two runs per tree, N and 2N records: part(2N) - part(N)")
    ap.add_argument("--native", action="store_true", help="no valgrind: native seconds per row (to choose N)")
    ap.add_argument("--cache-dir", type=Path, help="keep the per-tree numba caches here (default: temporary)")
    ap.add_argument("--valgrind", default="valgrind", help="the valgrind command")
    args = ap.parse_args()

    sys.path.insert(0, str(ROOT))
    from cardsim.sim.registry import games as discovered_games
    specs = discovered_games()
    names = list(specs) if args.game == "all" else [args.game]
    table = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        trees: dict[str, Path] = {}
        if args.baseline:
            rev = subprocess.run(["git", "rev-parse", "--short", args.baseline], cwd=ROOT, capture_output=True,
                                 text=True, check=True).stdout.strip()
            trees[rev] = tmp / "baseline"
            subprocess.run(["git", "worktree", "add", "--detach", "-q", str(trees[rev]), rev], cwd=ROOT,
                           check=True)
        for t in args.tree:                 # named by its commit
            rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=t, capture_output=True, text=True)
            trees[rev.stdout.strip() or t.name] = t.resolve()
        trees["this tree"] = ROOT
        caches = {k: (args.cache_dir or tmp) / f"numba-cache-{re.sub(r'[^A-Za-z0-9]+', '-', k)}" for k in trees}
        try:
            for g in names:
                bench = [tuple(r) for r in (specs[g].tools.bench if specs[g].tools else ())]
                rows = [(p, s, n, args.records or max(64, int(r * args.scale)))
                        for p, s, n, r in pick_rows(bench, args.rows)]
                if not rows:
                    continue
                got, sums = {}, {}
                for k, root in trees.items():
                    if args.native:
                        run_child(root, g, [(*r[:3], min(r[3], 64)) for r in rows], caches[k])
                        got[k] = [t for _, t in run_child(root, g, rows, caches[k])]
                        unit = "s"
                    else:
                        got[k], sums[k] = instructions(root, g, rows, caches[k], args.valgrind.split(), tmp,
                                                       args.difference)
                        got[k] = [x / 1e6 for x in got[k]]
                        unit = "M"
                    for r, x, c in zip(rows, got[k], sums.get(k, [""] * len(rows))):
                        print(f"{g} {' '.join(map(str, r))} {k}: {x:,.3f} {unit} {c}", file=sys.stderr, flush=True)
                table += [(g, *r, {k: got[k][i] for k in trees}) for i, r in enumerate(rows)]
        finally:
            if args.baseline:
                subprocess.run(["git", "worktree", "remove", "--force", str(tmp / "baseline")], cwd=ROOT)
    keys = list(trees)
    what = "native s" if args.native else "M instructions"
    print(f"| game | preset | strategy | players | records | {keys[0]} ({what}) | "
          + "".join(f"{k} | " for k in keys[1:]) + "change |" * (len(keys) > 1))
    print("|---|---|---|---:|---:|" + "---:|" * len(keys) + "---:|" * (len(keys) > 1))
    for g, preset, strategy, players, n, got in table:
        cells = " | ".join(f"{got[k]:,.{3 if args.native else 1}f}" for k in keys)
        change = f" | {100 * (got[keys[-1]] / got[keys[0]] - 1):+.1f} %" if len(keys) > 1 else ""
        print(f"| {g} | {preset} | {strategy} | {players} | {n:,} | {cells}{change} |")


if __name__ == "__main__":
    main()
