"""cardsim: Monte Carlo simulator for Tonk, Telefunken, Contract Rummy, Marafon, Trionfo and
Tripoli — the Python API.

    import cardsim
    r = cardsim.run("tonk", players=3, deals=100_000, strategies=["greedy", "knocker:threshold=8", "watcher"])
    r.summary                     # per seat: win rate, mean payout, 95 % intervals
    r.records.end_reason.value_counts()
    c = cardsim.compare("tonk", ["knocker:threshold=6", "knocker:threshold=8"], field="greedy", players=3)
    c.summary[["label", "mean_payout", "diff", "diff_lo", "diff_hi"]]
    s = cardsim.sweep("tonk", "knocker", {"threshold": range(0, 21)}, players=2, deals=20_000)
    t = cardsim.tune("tonk", "knocker", {"threshold": (0, 20)}, players=2)   # the tune extra
    t.raw["best"]
    cardsim.load("run.parquet")   # any output written with out= (run, compare, sweep, tune, critique)

Everything here is what the ``cardsim`` command runs (``cardsim.sim.runner``, ``.experiment``,
``.tune``); see ``cardsim.api`` for the arguments.

The engine is ``cardsim.sim`` (Python side) and ``cardsim.kernels`` (numba), kept in the
repository as the top-level folders ``sim/`` and ``kernels/`` and reached through the links
``cardsim/sim`` and ``cardsim/kernels``: the wheel installs them inside this package (real
files), so nothing but ``cardsim`` is installed at the top level.
"""
from cardsim.api import (Result, compare, critique, games, load, odds, options, replay, run, strategies, summarize,
                         sweep, tune)
from cardsim.sim.errors import CheckError, UsageError

__all__ = ["Result", "Critique", "run", "compare", "critique", "sweep", "tune", "odds", "replay", "load", "summarize",
           "games", "strategies", "options", "UsageError", "CheckError"]


def __getattr__(name: str) -> object:
    if name == "__version__":
        from importlib import metadata
        return metadata.version("cardsim")
    if name == "Critique":               # made on first use: the critique's engine loads then
        from cardsim import api
        return api.Critique
    raise AttributeError(name)
