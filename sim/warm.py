"""First use of a game's kernels: the one-line notice while they compile, and ``cardsim warmup``.

Numba compiles a game's kernels on their first call and caches the machine code (see
``kernels/__init__``: one cache directory per digest of the kernel sources). A marker file per
game and entry point in that directory says the compile happened there; where it is missing,
``cardsim`` prints one line before playing instead of staying silent. ``warm()`` compiles an
entry point ahead of time (``cardsim warmup``: a Dockerfile, a cluster image), and
``warm_in_processes`` several games side by side, one interpreter per game and core.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ENTRIES = ("play", "replay", "search")      # every game's; a game with contract odds adds "odds"
MORE = ("critique", "step")                 # also warmed by the test suite (tests/conftest.py): every path


def entries_of(game: str) -> tuple[str, ...]:
    """The entries ``cardsim warmup`` compiles for ``game``: ENTRIES, ``odds`` where the game
    has contract odds (``GameSpec.odds``), and ``critique``."""
    from cardsim.sim.registry import get_game
    return ENTRIES + (("odds",) if get_game(game).odds else ()) + ("critique",)


def cache_dir() -> str:
    """The numba cache directory of these kernel sources."""
    import numba

    import cardsim.kernels  # noqa: F401  (sets numba.config.CACHE_DIR to the digest directory)
    return os.fspath(numba.config.CACHE_DIR)


def _marker(game: str, entry: str) -> Path:
    return Path(cache_dir()) / f"cardsim-{game}-{entry}.compiled"


def is_compiled(game: str, entry: str = "play") -> bool:
    return _marker(game, entry).exists()


def mark_compiled(game: str, entry: str = "play") -> None:
    """Record that ``entry`` of ``game`` is in the cache (best effort: a cache directory that
    cannot be written only means the notice shows again)."""
    path = _marker(game, entry)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        pass


def notice(game: str, entry: str = "play", search: bool = False) -> str | None:
    """The line to print before ``entry`` of ``game`` first runs here (``search``: with a search
    seat, which compiles the search entry too), or None when all of it is cached."""
    names = {"play": "kernels", "replay": "replay kernels", "search": "search kernels", "odds": "odds kernels",
             "critique": "critique kernels", "step": "step kernels"}
    todo = [e for e in dict.fromkeys([entry] + (["search"] if search else [])) if not is_compiled(game, e)]
    if not todo:
        return None
    what = " and ".join(names[e] for e in todo)
    secs = sum(_seconds(game, e) for e in todo)
    return (f"compiling {game} {what} once, about {secs} s on 2 cores "
            f"(cached for later runs; `cardsim warmup {game}` does it ahead of time)")


def _seconds(game: str, entry: str) -> int:
    """The compile time the notice quotes (``GameSpec.compile_seconds``, ``search_seconds``: a
    replay compiles the game's replay entry, about as long as its play)."""
    from cardsim.sim.errors import UsageError
    from cardsim.sim.registry import GameSpec, get_game
    try:
        spec = get_game(game)
    except UsageError:                  # not a game (its interpreter says so): the declared defaults
        spec = GameSpec
    return spec.search_seconds if entry == "search" else spec.compile_seconds


def seats_search(seats) -> bool:
    """True when one of ``seats`` (``registry.Seat``) is a search seat, or a plug-in whose
    undecided choices a search makes."""
    return any(s.strategy.search or (s.base is not None and s.base.strategy.search) for s in seats)


def warm(game: str, entry: str = "play") -> None:
    """Compile (or load from the cache) ``entry`` of ``game`` by playing its first deal of the
    default table (``search``: by compiling the search callback), then mark it compiled."""
    from cardsim.sim.registry import get_game
    from cardsim.sim.runner import make_config, play_shard, replay
    if entry == "search":
        get_game(game).compile_search()
        mark_compiled(game, entry)
        return
    if entry in MORE:
        (_warm_critique if entry == "critique" else _warm_step)(game)
        mark_compiled(game, entry)
        return
    if entry == "odds":
        if get_game(game).odds:
            from cardsim.sim.odds import contract_odds
            contract_odds(game, 1, None, 64)         # a few samples of hand (deal) 1: its kernels compile
        mark_compiled(game, entry)
        return
    spec = get_game(game)
    base = "greedy" if "greedy" in spec.strategies else next(s.name for s in spec.strategies.values() if not s.search)
    cfg = make_config(game, None, 1, 0, [base])
    if entry == "play":
        play_shard(cfg, 0, 1)
    else:
        replay(cfg, 0)
    mark_compiled(game, entry)


def _warm_critique(game: str) -> None:
    """A critique of two evaluated decisions (its kernel, its evaluation, the search rollouts)."""
    from cardsim.sim.critique import make_critique, play
    play(make_critique(game, ["strong"], decisions=2, worlds=2, workers=1))


def _warm_step(game: str) -> None:
    """A random game of the step API (the rule steps its adapter calls, one by one) with the
    options that keep it short, and one ``action_values`` (the critique's evaluation there)."""
    import numpy as np

    from cardsim.sim.registry import get_game
    from cardsim.sim.spec import quick_options
    from cardsim.sim.step import new_game
    spec = get_game(game)
    if not spec.step:
        return
    s = new_game(game, None, None, quick_options(spec)).new_state()
    rng = np.random.default_rng(0)
    valued = False
    while not s.is_terminal():
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(int(outs[rng.integers(len(outs))][0]))
            continue
        legal = s.legal_actions()
        if not valued and len(legal) > 1:
            valued = s.action_values(worlds=1) is not None
        s.apply(int(legal[rng.integers(len(legal))]))


def default_jobs() -> int:
    """The cores this process may use (the interpreters ``warm_in_processes`` runs at once)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                           # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# a child interpreter of warm_in_processes: warms the entries of one game in order, one line each
_CHILD = ("import sys\nfrom cardsim.sim.warm import warm\nfor e in sys.argv[2:]:\n"
          "    warm(sys.argv[1], e)\n    print(e, flush=True)\n")


class WarmupError(RuntimeError):
    """A child interpreter of ``warm_in_processes`` failed (its game and last error line)."""


def warm_in_processes(games: list[str], entries=None, jobs: int | None = None, done=None) -> None:
    """Compile ``entries`` of every game in ``games`` into the cache, one fresh interpreter per
    game and ``jobs`` of them at once (numba compiles on one core per process: on 2 cores, two
    games compile side by side), the games with the longest compile first. ``done(game,
    entry)`` is called (from a worker thread) as each entry is cached. The first failure raises
    ``WarmupError`` once every interpreter has ended; a game already compiled costs only its
    interpreter's start (the cache loads)."""
    jobs = max(1, min(jobs or default_jobs(), len(games)))
    order = sorted(games, key=lambda g: -(_seconds(g, "play") + _seconds(g, "search")))
    failures: list[str] = []            # appended from the worker threads (list.append is atomic)

    def one(game: str) -> None:
        mine = entries_of(game) if entries is None else entries
        proc = subprocess.Popen([sys.executable, "-c", _CHILD, game, *mine], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        err_lines: list[str] = []
        drain = threading.Thread(target=lambda: err_lines.extend(proc.stderr), daemon=True)
        drain.start()
        for line in proc.stdout:
            entry = line.strip()
            if entry in mine and done is not None:
                done(game, entry)
        proc.wait()
        drain.join()
        if proc.returncode != 0:
            last = next((x.strip() for x in reversed(err_lines) if x.strip()), f"exit code {proc.returncode}")
            failures.append(f"compiling {game} failed: {last}")

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, order))
    if failures:
        raise WarmupError("; ".join(failures))
