"""Where a game's cold compile goes: every numba dispatcher compiled by import + the first
deal (or game), with an empty numba cache, its inclusive time, its own time (minus the
dispatchers compiled inside it) and its LLVM time (optimising and emitting the machine code
of its library, which holds every callee it links in).

    python scripts/tools/compile_profile.py telefunken [--players 4] [--top 15]

Runs in a fresh interpreter with a temporary numba cache; prints a Markdown table.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys, time
from numba.core import event
stack, rows, lk = [], [], []

class Lock(event.Listener):
    def on_start(self, ev):
        lk.append(time.perf_counter())
    def on_end(self, ev):
        t0 = lk.pop()
        if not lk and stack:
            stack[-1][2] += time.perf_counter() - t0

class L(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0, 0.0])
    def on_end(self, ev):
        t0, inner, llvm = stack.pop()
        dt = time.perf_counter() - t0
        if stack:
            stack[-1][1] += dt
        d = ev.data["dispatcher"]
        sig = ev.data["args"]
        rows.append(dict(name=d.py_func.__module__.split(".")[-1] + "." + d.py_func.__qualname__,
                         incl=dt, own=dt - inner, llvm=llvm, sig=str(sig)))

listener = L()
event.register("numba:compile", listener)
event.register("numba:llvm_lock", Lock())
t = time.perf_counter()
from cardsim.sim.runner import make_config, play_shard
cfg = make_config(GAME, players=PLAYERS, deals=1, seed=1, strategies=["greedy"])
t_import = time.perf_counter() - t
play_shard(cfg, 0, 1)
total = time.perf_counter() - t
json.dump(dict(rows=rows, total=total, import_=t_import), sys.stdout)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--dups", action="store_true", help="also list the functions compiled for several signatures")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from cardsim.sim.registry import get_game
    players = args.players or get_game(args.game).players[2]
    code = CHILD.replace("GAME", repr(args.game)).replace("PLAYERS", str(players))
    import json
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    res = json.loads(out)
    rows = res["rows"]
    own_sum = sum(r["own"] for r in rows)
    print(f"{args.game}, {players} players: import + first deal {res['total']:.1f} s "
          f"(import {res['import_']:.1f} s), {len(rows)} dispatchers compiled, "
          f"their own times sum to {own_sum:.1f} s\n")
    llvm_sum = sum(r["llvm"] for r in rows)
    print(f"LLVM (lowering, optimisation, machine code) {llvm_sum:.1f} s of them\n")
    print("| function | own s | of which LLVM s | inclusive s |")
    print("|---|---:|---:|---:|")
    for r in sorted(rows, key=lambda r: -r["own"])[:args.top]:
        print(f"| `{r['name']}` | {r['own']:.1f} | {r['llvm']:.1f} | {r['incl']:.1f} |")
    if args.dups:
        by = {}
        for r in rows:
            by.setdefault(r["name"], []).append(r)
        print("\n| function compiled more than once | own s | signatures |\n|---|---:|---|")
        for name, rs in sorted(by.items(), key=lambda kv: -sum(r["own"] for r in kv[1])):
            if len(rs) > 1:
                sigs = "<br>".join(r["sig"] for r in rs)
                print(f"| `{name}` x{len(rs)} | {sum(r['own'] for r in rs):.1f} | {sigs} |")


if __name__ == "__main__":
    main()
