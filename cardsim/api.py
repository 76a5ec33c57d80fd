"""cardsim's Python API: the functions the ``cardsim`` command line runs, for notebooks.

Each function validates its arguments as the command line does (a bad one raises
``cardsim.UsageError`` with the accepted values), plays through the same code
(``sim.runner``, ``sim.experiment``, ``sim.tune``) and returns a result object:

* ``.summary``: a pandas DataFrame with 95 % intervals (``.tables`` holds every table);
* ``.records``: the records as a DataFrame (end reasons and the other code columns, such as
  Marafon's ``h{h}_end`` or Tripoli's ``pay_suit``, as categoricals with their names; the
  unplayed hand slots as missing values: ``columns(game)`` describes every column);
* ``.meta``: the metadata the output files carry;
* ``.report(dir)``: the Markdown report with its plots (the ``report`` extra).

Without ``out=`` the records go to a temporary directory that lives as long as the result
(``keep_records=False``: none are kept). The ``cardsim`` command line is a thin layer over these
functions: it parses its options, calls them, and prints their results.
Rule options are a dict (``{"caught_lowest_bonus": "none", "stock_exhaustion": "reshuffle"}``),
strategies the command line's labels (``"knocker:threshold=8"``).
"""
from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from cardsim.sim.errors import UsageError

__all__ = ["Result", "run", "compare", "sweep", "tune", "odds", "replay", "games", "strategies", "options",
           "presets", "rules", "columns"]


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
    timing: dict = field(default_factory=dict)  # wall time, deals/s
    config: Any = field(default=None, repr=False)  # what was played (sim.runner.RunConfig, Experiment, TuneConfig)

    @property
    def records(self) -> pd.DataFrame:
        """The records: one row per deal (run), per deal, point and lineup (compare, sweep),
        or per evaluation (tune)."""
        import pyarrow.dataset as ds
        if self.path is None:
            raise ValueError("this result kept no records")
        p = Path(self.path)
        from cardsim.sim.columns import decode
        if self.kind == "tune":
            return pd.read_parquet(p / "evaluations.parquet")
        if p.is_dir():
            return ds.dataset(p, format="parquet", partitioning="hive").to_table().to_pandas()
        from cardsim.sim.registry import get_game
        return decode(pd.read_parquet(p), get_game(self.meta["game"]).columns)

    @property
    def notes(self) -> list[str]:
        """What a comparison's or sweep's figures mean where they could mislead (a variance
        reduction below 1, an axis that changes nothing, a best point on the grid's edge): the
        lines the command line prints under its table. Empty for a run or a tuning."""
        if self.kind not in ("compare", "sweep") or not self.raw.get("points"):
            return []
        from cardsim.sim.notes import point_notes
        return point_notes(self.raw, self.meta)

    def report(self, out_dir: str, overwrite: bool = False) -> Path:
        """Write the Markdown report and its PNG plots into ``out_dir``; returns report.md."""
        from cardsim.sim.report import write_report
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


Progress = Callable[..., None]     # progress(done, total, note="") while deals are played
Notice = Callable[[str], None]     # notice(line): the one line said before kernels compile the first time


def precision_cap(until_ci: float | None, max_deals: int | None, deals: int) -> int | None:
    """The most deals an ``until_ci`` run may play (None without ``until_ci``), checked."""
    if until_ci is None:
        if max_deals is not None:
            raise UsageError("--max-deals caps --until-ci; without --until-ci give the number of deals with --deals")
        return None
    if not math.isfinite(until_ci) or until_ci <= 0:
        raise UsageError(f"--until-ci must be a number > 0 (got {until_ci})")
    cap = max_deals if max_deals is not None else 100 * deals
    if cap < 1:
        raise UsageError(f"--max-deals must be >= 1 (got {cap})")
    return cap


def _check_cluster(cluster: str | None) -> None:
    """``cluster="local:N"`` starts N worker processes here: at most one per core."""
    from cardsim.sim.executor import host_cores
    kind, _, n = (cluster or "").partition(":")
    if kind == "local" and n.isascii() and n.isdigit() and int(n) > host_cores():
        raise UsageError(f"--cluster local:{n} asks for {n} worker processes but this machine has "
                         f"{host_cores()} cores; give local:1..{host_cores()} (or local)")


def _compile_notice(game: str, entry: str, notice: Notice | None, search: bool = False) -> None:
    from cardsim.sim.warm import notice as line_of
    line = line_of(game, entry, search) if notice is not None else None
    if line:
        notice(line)


def _play(play, kind: str, game: str, deals: int, out: str | None, keep_records: bool, until_ci, max_deals,
          resume: bool, overwrite: bool, scheduler, cluster, progress: Progress | None, notice: Notice | None,
          seats=()):
    """The common part of run / compare / sweep: checks, output place, executor, the
    first-compile notices (``seats``: every seat played, for the search's); ``play(path,
    update, until_ci, cap, resume, executor)`` plays."""
    from cardsim.sim.executor import make_executor
    from cardsim.sim.store import check_output
    from cardsim.sim.warm import mark_compiled, seats_search
    cap = precision_cap(until_ci, max_deals, deals)
    if out is not None and not str(out).strip():
        raise UsageError("--out is empty; give a file or directory name")
    if resume and not out:
        raise UsageError("--resume needs --out (the run to continue)")
    if overwrite and not out:
        raise UsageError("--overwrite needs --out (the output to replace)")
    if out:
        if kind == "run":
            from cardsim.sim.io import check_output_path
            check_output_path(out)
        check_output(out, kind, overwrite)              # refused before anything is played
    _check_cluster(cluster)
    local = scheduler is None and cluster is None
    searching = seats_search(seats)
    if local:
        _compile_notice(game, "play", notice, searching)
    path, keep = _where(out, kind) if (out or keep_records) else (None, None)
    ex = make_executor(scheduler, cluster)
    try:
        res = play(path, progress, until_ci, cap, resume, ex)
    finally:
        ex.close()
    if local:
        mark_compiled(game, "play")
        if searching:
            mark_compiled(game, "search")
    return res, keep


def run(game: str, *, players: int | None = None, deals: int = 10_000, strategies: Sequence[str] | None = None,
        options: Mapping[str, Any] | Sequence[str] | None = None, preset: str | None = None, seed: int = 0,
        workers: int | None = None, check: bool = False, first_deal: int = 0, until_ci: float | None = None,
        max_deals: int | None = None, out: str | None = None, overwrite: bool = False,
        keep_records: bool = True, resume: bool = False, shard_size: int | None = None,
        scheduler: str | None = None, cluster: str | None = None, progress: Progress | None = None,
        notice: Notice | None = None) -> Result:
    """Play ``deals`` deals: per-seat and per-strategy win rates and payouts with 95 % intervals
    (``cardsim run``). ``strategies``: one label for all seats or one per seat. ``scheduler``
    (``tcp://HOST:PORT``) or ``cluster`` (``local:N``) play on Dask; ``resume`` continues an
    interrupted ``out``; ``progress(done, total, note)`` is called as deals finish."""
    from cardsim.sim.runner import DEFAULT_SHARD, make_config, run as run_batch
    cfg = make_config(game, players, deals, seed, list(strategies or []), _option_texts(options), preset, workers,
                      check, first_deal, DEFAULT_SHARD if shard_size is None else shard_size)
    res, keep = _play(lambda *args: run_batch(cfg, *args, overwrite=overwrite), "run", cfg.game.name, deals, out,
                      keep_records, until_ci, max_deals, resume, overwrite, scheduler, cluster, progress, notice,
                      cfg.seats)
    tables = {k: pd.DataFrame(res.summary[k]) for k in ("seats", "strategies", "outcomes")}
    return Result("run", tables["seats"], res.meta, tables, res.summary, res.path, keep, res.timing, cfg)


def _experiment(exp, deals, out, overwrite, until_ci, max_deals, keep_records, resume, scheduler, cluster,
                progress, notice) -> Result:
    from cardsim.sim.experiment import run_experiment
    res, keep = _play(lambda *args: run_experiment(exp, deals, *args, overwrite=overwrite), exp.kind, exp.game_name,
                      deals, out, keep_records, until_ci, max_deals, resume, overwrite, scheduler, cluster, progress,
                      notice, [s for p in exp.points for seats, _ in p.lineups for s in seats])
    points = pd.DataFrame(res.summary["points"])
    return Result(exp.kind, points, res.meta, {"points": points}, res.summary, res.path, keep, res.timing, exp)


def compare(game: str, strategies: Sequence[str], *, field: str | None = None, players: int | None = None,
            deals: int = 10_000, options: Mapping[str, Any] | Sequence[str] | None = None,
            preset: str | None = None, seed: int = 0, workers: int | None = None, check: bool = False,
            until_ci: float | None = None, max_deals: int | None = None, out: str | None = None,
            overwrite: bool = False, keep_records: bool = True, first_deal: int = 0, resume: bool = False,
            shard_size: int | None = None, scheduler: str | None = None, cluster: str | None = None,
            progress: Progress | None = None, notice: Notice | None = None) -> Result:
    """Strategies on duplicate deals, each at every seat against ``field`` (default greedy), or
    rotating round the table with one strategy per seat and no field (``cardsim compare``).
    ``.summary``: one row per point, with the paired difference to the first."""
    from cardsim.sim.experiment import EXPERIMENT_SHARD, make_compare
    exp = make_compare(game, list(strategies), players, field, seed, deals, _option_texts(options), preset, workers,
                       check, first_deal, EXPERIMENT_SHARD if shard_size is None else shard_size)
    return _experiment(exp, deals, out, overwrite, until_ci, max_deals, keep_records, resume, scheduler, cluster,
                       progress, notice)


def sweep(game: str, strategy: str, params: Mapping[str, Any] | Sequence[str] | None = None, *,
          option_grid: Mapping[str, Any] | Sequence[str] | None = None, field: str | None = None,
          players: int | None = None, deals: int = 10_000,
          options: Mapping[str, Any] | Sequence[str] | None = None, preset: str | None = None, seed: int = 0,
          workers: int | None = None, check: bool = False, until_ci: float | None = None,
          max_deals: int | None = None, out: str | None = None, overwrite: bool = False,
          keep_records: bool = True, first_deal: int = 0, resume: bool = False, shard_size: int | None = None,
          scheduler: str | None = None, cluster: str | None = None, progress: Progress | None = None,
          notice: Notice | None = None) -> Result:
    """A grid of strategy parameters (and rule options) on duplicate deals (``cardsim sweep``).
    ``params``: ``{"threshold": range(0, 21, 2)}``, ``{"threshold": "0:20:2"}`` or texts."""
    from cardsim.sim.experiment import EXPERIMENT_SHARD, make_sweep
    exp = make_sweep(game, strategy, _grid_texts(params), _grid_texts(option_grid), players, field, seed, deals,
                     _option_texts(options), preset, workers, check, first_deal,
                     EXPERIMENT_SHARD if shard_size is None else shard_size)
    return _experiment(exp, deals, out, overwrite, until_ci, max_deals, keep_records, resume, scheduler, cluster,
                       progress, notice)


def tune(game: str, strategy: str, params: Mapping[str, Any] | Sequence[str], *, field: str | None = None,
         players: int | None = None, budget: int = 100_000, seed: int = 0, self_play: bool = False,
         rounds: int = 6, step: float = 1.0, sampler: str = "tpe", rung: int | None = None, eta: int = 3,
         rungs: int = 2, top: int = 3, remeasure: int | None = None, max_trials: int = 1000,
         options: Mapping[str, Any] | Sequence[str] | None = None, preset: str | None = None,
         workers: int | None = None, check: bool = False, out: str | None = None, overwrite: bool = False,
         keep_records: bool = True, verbose: bool = False, say: Callable[[str], None] | None = None,
         progress: Progress | None = None, notice: Notice | None = None) -> Result:
    """The parameters of ``strategy`` that maximise its mean payout against ``field``
    (``cardsim tune``; the ``tune`` extra). ``params``: ``{"threshold": (0, 20)}`` boxes or
    ``["threshold=0:20"]`` texts. ``.summary``: one row per round; ``.raw["best"]`` is the
    point to seat (``strategies=[...]`` or ``field=...``). ``say(line)`` gets each round's
    line (``verbose``: print them)."""
    from cardsim.sim.store import check_output
    from cardsim.sim.tune import make_tune, run_tune, write_tune
    from cardsim.sim.warm import mark_compiled
    cfg = make_tune(game, strategy, _grid_texts(params), field, players, budget, seed, _option_texts(options),
                    preset, sampler, rung, eta, rungs, top, remeasure, self_play, rounds, max_trials, workers, check,
                    step)
    if out is not None and not str(out).strip():
        raise UsageError("--out is empty; give a directory name")
    if out:
        check_output(out, "tune", overwrite)          # refused before anything is played
    _compile_notice(cfg.game_name, "play", notice)
    total = cfg.budget * (cfg.rounds if cfg.self_play else 1)
    result = run_tune(cfg, (lambda done: progress(done, total)) if progress else None,
                      say if say is not None else (print if verbose else None))
    mark_compiled(cfg.game_name, "play")
    path, keep = _where(out, "tune") if (out or keep_records) else (None, None)
    if path:
        result.path = write_tune(result, path, overwrite)
    rounds_df = pd.DataFrame([{k: v for k, v in r.items() if k not in ("remeasured", "best_params", "edges")}
                              for r in result.summary["rounds"]])
    remeasured = pd.DataFrame([dict(p, round=r["round"]) for r in result.summary["rounds"] for p in r["remeasured"]])
    return Result("tune", rounds_df, result.meta, {"rounds": rounds_df, "remeasured": remeasured},
                  result.summary, result.path, keep, {}, cfg)


def odds(game: str, hand: int | None, *, cards: int | None = None, samples: int = 1_000_000, seed: int = 0,
         players: int | None = None, preset: str | None = None, workers: int | None = None,
         progress: Callable[[int, int], None] | None = None) -> dict:
    """P(random cards hold a hand's contract) with a 95 % interval (``cardsim odds``);
    ``progress(done, total)`` hears the samples drawn so far (the result is the same)."""
    import numba
    from cardsim.sim.odds import contract_odds
    from cardsim.sim.runner import max_workers
    w = max_workers() if workers is None else workers
    if not 1 <= w <= max_workers():
        raise UsageError(f"--workers must be 1..{max_workers()} on this machine (got {w})")
    numba.set_num_threads(w)
    if hand is None:
        raise UsageError("--hand (or --deal) is required")
    return contract_odds(game, hand, cards, samples, seed, players, preset, progress)


def _replay_output(arg: str):
    """None when ``arg`` names a game; else the path of the output to replay from (UsageError,
    naming the games, when it is neither)."""
    from cardsim.sim.registry import GAME_NAMES, get_game
    if arg.strip().lower() in GAME_NAMES:
        return None
    if Path(arg).exists():
        return arg
    if "/" in arg or "\\" in arg or arg.lower().endswith((".parquet", ".pq")):
        raise UsageError(f"no such file: {arg!r} (replay takes a game name or an existing run file)")
    try:
        get_game(arg)
    except UsageError as exc:
        raise UsageError(f"{exc}; or give an existing run file or compare/sweep dataset") from None


def replay(game: str, deal: int | None = None, *, seed: int | None = None, players: int | None = None,
           strategies: Sequence[str] | None = None, options: Mapping[str, Any] | Sequence[str] | None = None,
           preset: str | None = None, check: bool = False, point: int | None = None, lineup: int | None = None,
           force: bool = False, warn: Callable[[str], None] | None = None, notice: Notice | None = None) -> dict:
    """One deal exactly as the batch plays it (``cardsim replay --json``): the table, every
    event with the cards it concerns, and the payouts; ``"text"`` holds the play-by-play.
    ``game`` is a game name (the table from the other arguments) or an output to replay a deal
    of (a run file; a compare/sweep dataset with ``point`` and ``lineup``), whose metadata
    gives the table; ``force`` replays a file of another rules version (``warn`` gets the
    warning)."""
    from cardsim.sim.runner import (DEAL_LIMIT, make_config, open_replay_source, raise_check_error,
                                    replay as replay_state, replay_document, replay_lines)
    from cardsim.sim.warm import mark_compiled, seats_search
    if deal is not None and not 0 <= deal < DEAL_LIMIT:
        raise UsageError(f"--deal must be >= 0 and <= 2**63-2 (got {deal})")
    path = _replay_output(game)
    source = None
    if path is not None:
        given = [flag for flag, v in (("--seed", seed is not None), ("--players", players is not None),
                                      ("--strategy", bool(strategies)), ("--option", bool(options)),
                                      ("--preset", preset is not None)) if v]
        if given:
            raise UsageError(f"{', '.join(given)} cannot be given with a file: replay FILE takes the table from "
                             "the file's metadata (replay GAME ... chooses it yourself)")
        source = open_replay_source(path, point, lineup, force, check)
        cfg = source.cfg
        deal = cfg.first_deal if deal is None else deal
        source.check_deal(deal)
        if source.warning and warn is not None:
            warn(source.warning)
    else:
        given = [flag for flag, v in (("--point", point is not None), ("--lineup", lineup is not None),
                                      ("--force", force)) if v]
        if given:
            raise UsageError(f"{', '.join(given)}: only for replaying a deal of a file (replay FILE --deal N)")
        deal = 0 if deal is None else deal
        cfg = make_config(game, players, 1, 0 if seed is None else seed, list(strategies or []),
                          _option_texts(options), preset, None, check, deal)
    searching = seats_search(cfg.seats)
    _compile_notice(cfg.game.name, "replay", notice, searching)
    if check:
        st, _ = replay_state(cfg, deal)
        code = cfg.game.state_error(st)
        if code:
            raise_check_error(cfg, deal, code)
    doc = replay_document(cfg, deal, source)
    lines = replay_lines(cfg, deal)
    if source is not None and source.kind != "run":
        lines.insert(1, f"{source.kind} point {source.point} ({source.point_label}), lineup {source.lineup}: "
                        f"the point's result is seat {source.counted_seat}'s")
    mark_compiled(cfg.game.name, "replay")
    if searching:
        mark_compiled(cfg.game.name, "search")
    doc["text"] = "\n".join(lines)
    return doc


def games() -> pd.DataFrame:
    """The games, their player counts and rules documents (``cardsim games``)."""
    from cardsim.sim.registry import games as all_games
    return pd.DataFrame([{"game": g.name, "title": g.title, "players_min": g.players[0], "players_max": g.players[1],
                          "players_default": g.players[2], "rules": g.rules, "rules_version": g.rules_version}
                         for g in all_games().values()])


def strategy_specs(game: str, plugins: Sequence[str] = ()) -> list:
    """The strategies of ``game`` (``StrategySpec``: name, parameters, help): the built-in ones,
    the plug-ins named (``FILE.py:NAME``) and the installed entry points."""
    from cardsim.sim.plugin import entry_point_names
    from cardsim.sim.registry import get_game, parse_seat
    g = get_game(game)
    specs = list(g.strategies.values())
    for label in list(plugins) + (entry_point_names() if g.plugin else []):
        specs.append(parse_seat(g, label).strategy)
    return specs


def strategies(game: str, plugins: Sequence[str] = ()) -> pd.DataFrame:
    """One row per strategy parameter (strategies without any: one row, no parameter); the
    plug-ins named (``FILE.py:NAME``) and installed ones included (``cardsim strategies``)."""
    rows = []
    for s in strategy_specs(game, plugins):
        for p in s.params or (None,):
            rows.append({"strategy": s.name, "parameter": p.name if p else None, "default": p.default if p else None,
                         "lo": p.lo if p else None, "hi": p.hi if p else None,
                         "integer": p.integer if p else None, "help": p.help if p else s.help,
                         "strategy_help": s.help})
    return pd.DataFrame(rows)


def options(game: str) -> pd.DataFrame:
    """The rule options of ``game`` with their defaults, help, choices and ranges
    (``cardsim options``; the presets: ``presets``)."""
    import dataclasses
    from cardsim.sim.registry import get_game
    return pd.DataFrame([{"option": f.name, "default": f.default, "help": f.metadata.get("help", ""),
                          "choices": f.metadata.get("choices"), "range": f.metadata.get("range")}
                         for f in dataclasses.fields(get_game(game).options_cls)], dtype=object)


def presets(game: str) -> dict[str, dict]:
    """The named option sets of ``game``: preset -> {option: value}."""
    from cardsim.sim.registry import get_game
    return {name: dict(values) for name, values in get_game(game).presets.items()}


def columns(game: str, dataset: bool = False) -> pd.DataFrame:
    """The record columns of ``game`` (``cardsim columns``): one row per column or family
    (``h{h}_end``: one per hand), its type, description and code names (``codes``: value ->
    name, for the columns ``Result.records`` gives as categoricals). ``dataset``: the columns of
    its compare/sweep datasets instead."""
    from cardsim.sim.columns import dataset_columns, rows
    from cardsim.sim.registry import get_game
    g = get_game(game)
    return pd.DataFrame(rows(dataset_columns(g) if dataset else g.columns))


def rules(game: str) -> str:
    """Where ``game``'s rules document is (``docs/rules/GAME.md`` in the repository)."""
    from cardsim.sim.registry import get_game
    return get_game(game).rules
