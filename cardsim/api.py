"""cardsim's Python API: the functions the ``cardsim`` command line runs, for notebooks.

Each function validates its arguments as the command line does (a bad one raises
``cardsim.UsageError`` with the accepted values), plays through the same code
(``sim.runner``, ``sim.experiment``, ``sim.tune``) and returns a result object:

* ``.summary``: a pandas DataFrame with 95 % intervals (``.tables`` holds every table);
* ``.records``: the records as a DataFrame (end reasons as categoricals with their names);
* ``.meta``: the metadata the output files carry;
* ``.report(dir)``: the Markdown report with its plots (the ``report`` extra).

Without ``out=`` the records go to a temporary directory that lives as long as the result.
Rule options are a dict (``{"caught_lowest_bonus": "none", "stock_exhaustion": "reshuffle"}``),
strategies the command line's labels (``"knocker:threshold=8"``).
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

__all__ = ["Result", "run", "compare", "sweep", "tune", "odds", "replay", "games", "strategies", "options"]


def _option_texts(options: Mapping[str, Any] | Sequence[str] | None) -> list[str]:
    """``{"name": value}`` -> ``["name=value"]`` as ``--option`` takes them (booleans as
    true/false, None as none, sequences comma-joined); a list of texts passes unchanged."""
    if options is None:
        return []
    if isinstance(options, Mapping):
        out = []
        for k, v in options.items():
            if isinstance(v, bool):
                v = str(v).lower()
            elif v is None:
                v = "none"
            elif isinstance(v, (list, tuple)):
                v = ",".join(map(str, v)) if v else "{}"
            out.append(f"{k}={v}")
        return out
    return [str(x) for x in options]


def _grid_texts(grid: Mapping[str, Any] | Sequence[str] | None) -> list[str]:
    """``{"threshold": range(0, 21, 2)}`` or ``{"threshold": "0:20:2"}`` -> ``["threshold=..."]``."""
    if grid is None:
        return []
    if isinstance(grid, Mapping):
        out = []
        for k, v in grid.items():
            if isinstance(v, str):
                out.append(f"{k}={v}")
            elif isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, (int, float)) for x in v):
                out.append(f"{k}={v[0]}:{v[1]}")           # a tuning box (lo, hi)
            else:
                out.append(f"{k}=" + ",".join(str(x).lower() if isinstance(x, bool) else str(x) for x in v))
        return out
    return [str(x) for x in grid]


@dataclass
class Result:
    """What a run, comparison, sweep or tuning gives back."""
    kind: str                                   # run, compare, sweep or tune
    summary: pd.DataFrame                       # the main table, with 95 % intervals
    meta: dict
    tables: dict = field(default_factory=dict)  # every table of the summary, as DataFrames
    raw: dict = field(default_factory=dict)     # the summary as the command line's --json gives it
    path: str | None = None                     # the output written (a file or a dataset directory)
    _keep: Any = field(default=None, repr=False)  # the temporary directory holding ``path``

    @property
    def records(self) -> pd.DataFrame:
        """The records: one row per deal (run), per deal, point and lineup (compare, sweep),
        or per evaluation (tune)."""
        import pyarrow.dataset as ds
        if self.path is None:
            raise ValueError("this result kept no records")
        p = Path(self.path)
        if self.kind == "tune":
            return pd.read_parquet(p / "evaluations.parquet")
        if p.is_dir():
            return ds.dataset(p, format="parquet", partitioning="hive").to_table().to_pandas()
        return pd.read_parquet(p)

    def report(self, out_dir: str, overwrite: bool = False) -> Path:
        """Write the Markdown report and its PNG plots into ``out_dir``; returns report.md."""
        from sim.report import write_report
        if self.path is None:
            raise ValueError("this result kept no records to report on")
        return write_report(self.path, str(out_dir), overwrite)

    def _repr_html_(self) -> str:          # a notebook shows the summary table
        return self.summary._repr_html_()


def _where(out: str | None, kind: str):
    """(path to write, temporary directory to keep alive or None)."""
    if out is not None:
        return str(out), None
    tmp = tempfile.TemporaryDirectory(prefix="cardsim-")
    return str(Path(tmp.name) / ("run.parquet" if kind == "run" else kind)), tmp


def run(game: str, *, players: int | None = None, deals: int = 10_000, strategies: Sequence[str] | None = None,
        options: Mapping[str, Any] | Sequence[str] | None = None, preset: str | None = None, seed: int = 0,
        workers: int | None = None, check: bool = False, first_deal: int = 0, until_ci: float | None = None,
        max_deals: int | None = None, out: str | None = None, overwrite: bool = False,
        keep_records: bool = True) -> Result:
    """Play ``deals`` deals: per-seat and per-strategy win rates and payouts with 95 % intervals
    (``cardsim run``). ``strategies``: one label for all seats or one per seat."""
    from sim.runner import DEFAULT_SHARD, make_config, run as run_batch
    cfg = make_config(game, players, deals, seed, list(strategies or []), _option_texts(options), preset, workers,
                      check, first_deal, DEFAULT_SHARD)
    path, keep = _where(out, "run") if (out is not None or keep_records) else (None, None)
    res = run_batch(cfg, path, until_ci=until_ci, max_deals=max_deals if until_ci is not None else None,
                    overwrite=overwrite)
    tables = {k: pd.DataFrame(res.summary[k]) for k in ("seats", "strategies", "outcomes")}
    return Result("run", tables["seats"], res.meta, tables, res.summary, res.path, keep)


def _experiment_result(exp, deals, out, overwrite, until_ci, max_deals, keep_records) -> Result:
    from sim.experiment import run_experiment
    path, keep = _where(out, exp.kind) if (out is not None or keep_records) else (None, None)
    res = run_experiment(exp, deals, path, until_ci=until_ci, max_deals=max_deals, overwrite=overwrite)
    points = pd.DataFrame(res.summary["points"])
    return Result(exp.kind, points, res.meta, {"points": points}, res.summary, res.path, keep)


def compare(game: str, strategies: Sequence[str], *, field: str | None = None, players: int | None = None,
            deals: int = 10_000, options: Mapping[str, Any] | Sequence[str] | None = None,
            preset: str | None = None, seed: int = 0, workers: int | None = None, check: bool = False,
            until_ci: float | None = None, max_deals: int | None = None, out: str | None = None,
            overwrite: bool = False, keep_records: bool = True) -> Result:
    """Strategies on duplicate deals, each at every seat against ``field`` (default greedy), or
    rotating round the table with one strategy per seat and no field (``cardsim compare``).
    ``.summary``: one row per point, with the paired difference to the first."""
    from sim.experiment import EXPERIMENT_SHARD, make_compare
    exp = make_compare(game, list(strategies), players, field, seed, deals if until_ci is None else max_deals or 0,
                       _option_texts(options), preset, workers, check, 0, EXPERIMENT_SHARD)
    return _experiment_result(exp, deals, out, overwrite, until_ci, max_deals, keep_records)


def sweep(game: str, strategy: str, params: Mapping[str, Any] | Sequence[str] | None = None, *,
          option_grid: Mapping[str, Any] | Sequence[str] | None = None, field: str | None = None,
          players: int | None = None, deals: int = 10_000,
          options: Mapping[str, Any] | Sequence[str] | None = None, preset: str | None = None, seed: int = 0,
          workers: int | None = None, check: bool = False, until_ci: float | None = None,
          max_deals: int | None = None, out: str | None = None, overwrite: bool = False,
          keep_records: bool = True) -> Result:
    """A grid of strategy parameters (and rule options) on duplicate deals (``cardsim sweep``).
    ``params``: ``{"threshold": range(0, 21, 2)}``, ``{"threshold": "0:20:2"}`` or texts."""
    from sim.experiment import EXPERIMENT_SHARD, make_sweep
    exp = make_sweep(game, strategy, _grid_texts(params), _grid_texts(option_grid), players, field, seed,
                     deals if until_ci is None else max_deals or 0, _option_texts(options), preset, workers, check,
                     0, EXPERIMENT_SHARD)
    return _experiment_result(exp, deals, out, overwrite, until_ci, max_deals, keep_records)


def tune(game: str, strategy: str, params: Mapping[str, Any] | Sequence[str], *, field: str | None = None,
         players: int | None = None, budget: int = 100_000, seed: int = 0, self_play: bool = False,
         rounds: int = 6, step: float = 1.0, sampler: str = "tpe", rung: int | None = None, eta: int = 3,
         rungs: int = 2, top: int = 3, remeasure: int | None = None, max_trials: int = 1000,
         options: Mapping[str, Any] | Sequence[str] | None = None, preset: str | None = None,
         workers: int | None = None, check: bool = False, out: str | None = None, overwrite: bool = False,
         verbose: bool = False) -> Result:
    """The parameters of ``strategy`` that maximise its mean payout against ``field``
    (``cardsim tune``; the ``tune`` extra). ``params``: ``{"threshold": (0, 20)}`` boxes or
    ``["threshold=0:20"]`` texts. ``.summary``: one row per round; ``.raw["best"]`` is the
    point to seat (``strategies=[...]`` or ``field=...``)."""
    from sim.tune import make_tune, run_tune, write_tune
    cfg = make_tune(game, strategy, _grid_texts(params), field, players, budget, seed, _option_texts(options),
                    preset, sampler, rung, eta, rungs, top, remeasure, self_play, rounds, max_trials, workers, check,
                    step)
    result = run_tune(cfg, say=print if verbose else None)
    path, keep = _where(out, "tune")
    result.path = write_tune(result, path, overwrite)
    rounds_df = pd.DataFrame([{k: v for k, v in r.items() if k not in ("remeasured", "best_params", "edges")}
                              for r in result.summary["rounds"]])
    remeasured = pd.DataFrame([dict(p, round=r["round"]) for r in result.summary["rounds"] for p in r["remeasured"]])
    return Result("tune", rounds_df, result.meta, {"rounds": rounds_df, "remeasured": remeasured},
                  result.summary, result.path, keep)


def odds(game: str, hand: int, *, cards: int | None = None, samples: int = 1_000_000, seed: int = 0,
         players: int | None = None, preset: str | None = None) -> dict:
    """P(random cards hold a hand's contract) with a 95 % interval (``cardsim odds``)."""
    from sim.odds import contract_odds
    return contract_odds(game, hand, cards, samples, seed, players, preset)


def replay(game: str, deal: int = 0, *, seed: int = 0, players: int | None = None,
           strategies: Sequence[str] | None = None, options: Mapping[str, Any] | Sequence[str] | None = None,
           preset: str | None = None, check: bool = False) -> dict:
    """One deal exactly as the batch plays it (``cardsim replay --json``): the table, every
    event with the cards it concerns, and the payouts. ``"text"`` holds the play-by-play."""
    from sim.runner import make_config, replay_document, replay_lines
    cfg = make_config(game, players, 1, seed, list(strategies or []), _option_texts(options), preset, None, check,
                      deal)
    doc = replay_document(cfg, deal)
    doc["text"] = "\n".join(replay_lines(cfg, deal))
    return doc


def games() -> pd.DataFrame:
    """The games, their player counts and rules documents (``cardsim games``)."""
    from sim.registry import games as all_games
    return pd.DataFrame([{"game": g.name, "title": g.title, "players_min": g.players[0], "players_max": g.players[1],
                          "players_default": g.players[2], "rules": g.rules, "rules_version": g.rules_version}
                         for g in all_games().values()])


def strategies(game: str) -> pd.DataFrame:
    """One row per strategy parameter (strategies without any: one row, no parameter)."""
    from sim.registry import get_game
    rows = []
    for s in get_game(game).strategies.values():
        for p in s.params or (None,):
            rows.append({"strategy": s.name, "parameter": p.name if p else None, "default": p.default if p else None,
                         "lo": p.lo if p else None, "hi": p.hi if p else None,
                         "integer": p.integer if p else None, "help": p.help if p else s.help})
    return pd.DataFrame(rows)


def options(game: str) -> pd.DataFrame:
    """The rule options of ``game`` with their defaults and help."""
    import dataclasses
    from sim.registry import get_game
    return pd.DataFrame([{"option": f.name, "default": f.default, "help": f.metadata.get("help", "")}
                         for f in dataclasses.fields(get_game(game).options_cls)])
