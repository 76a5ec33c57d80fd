"""The committed ``cardsim tune --self`` runs behind each game's ``strong`` strategy (issue 16).

    python scripts/tools/tune_strong.py GAME|all [--dry-run]

For each game: the iterated best response of its strongest family over the parameters that
matter, written to ``results/tune/GAME/`` (the tune dataset) and ``results/tune/GAME-report/``
(its report, with the convergence plot); the arguments are the game's ``GameTools.tune``
(``sim/games/GAME/tools.py``). The ``strong`` strategy registered in ``sim/games/GAME/`` takes its parameters from ``results/tune/GAME/_summary.json``
(``tests/test_strong.py`` checks they agree). Runtimes on the 2-core machine are in the
closing note of issue 16 and in ``results/STUDIES.md``.
"""
from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

COMMON = ["--self", "--seed", "16", "--quiet"]
ROUNDS = ["--rounds", "6"]


def runs() -> dict[str, tuple]:
    """Each game's tune arguments (``GameTools.tune``, declared in ``sim/games/GAME/tools.py``)."""
    from cardsim.sim.registry import games
    return {name: g.tools.tune for name, g in games().items() if g.tools and g.tools.tune}


def command(game: str) -> list[str]:
    run = runs()[game]
    rounds = [] if "--rounds" in run else ROUNDS
    return ["cardsim", "tune", game, *run, *COMMON, *rounds, "--out", f"results/tune/{game}", "--overwrite"]


def main(argv: list[str]) -> int:
    dry = "--dry-run" in argv
    names = [a for a in argv if not a.startswith("--")] or ["all"]
    games = list(runs()) if names == ["all"] else names
    exe = Path(sys.executable).parent / "cardsim"
    for g in games:
        cmd = command(g)
        print(" ".join(shlex.quote(c) for c in cmd), flush=True)
        if dry:
            continue
        t0 = time.perf_counter()
        subprocess.run([str(exe), *cmd[1:]], cwd=ROOT, check=True)
        subprocess.run([str(exe), "report", f"results/tune/{g}", "--out", f"results/tune/{g}-report",
                        "--overwrite"], cwd=ROOT, check=True)
        print(f"{g}: {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
