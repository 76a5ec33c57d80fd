"""``cardsim tune``: the parameters of a strategy that maximise its mean payout against a field.

The objective of a parameter point is the candidate's mean payout per deal when it sits at each
seat in turn against the field (every other seat), on duplicate deals: every point plays the
very same deals (seed, deal index), so the points' differences are paired and the luck of the
cards cancels.

Search (one *round*):

* an optuna sampler proposes points inside the box (``tpe`` by default; ``cmaes`` and
  ``random``), seeded from the run seed, one trial after another, so a seed gives one answer;
* racing by successive halving (optuna's ``SuccessiveHalvingPruner``): a trial first plays
  ``rung`` deals, and only trials in the top 1/eta of those that reached the same depth go
  on to ``rung * eta``, ``rung * eta**2`` ... ``rung * eta**rungs`` deals; deals already
  played by a point are never played again (a repeated proposal continues where it stopped);
* the search stops when the next rung would exceed ``budget`` deals (every deal counts once
  for a point, although it is played at every seat), or when 50 proposals in a row cost
  nothing (an integer box is exhausted), or after ``max_trials``.

No winner's curse: the best points (``top``, by their mean at the deepest depth any point
reached) are re-measured with the field itself as point 0 on ``remeasure`` fresh deals (the
next seed), and the interval reported is the re-measurement's; a best value within 2 % of the
box's width from either end is reported as on the edge.

``--self`` (iterated best response): round r + 1's field is round r's best point, until the
best point of a round does not beat its own field (the re-measured paired difference's 95 %
interval reaches 0: nobody in the family exploits that field at this budget — converged), or
the best point is a field of an earlier round (a cycle), or ``rounds`` rounds were played (not
converged; reported). Round r searches with seed ``seed + 2r`` and re-measures with ``seed +
2r + 1``.
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field

import numpy as np

from cardsim.sim.errors import UsageError
from cardsim.sim.options import build_options, options_dict
from cardsim.sim.registry import Seat, check_players, get_game, parse_seat, split_label
from cardsim.sim.stats import json_clean, mean_ci

SAMPLERS = ("tpe", "cmaes", "random")
FREE_IN_A_ROW = 50        # proposals in a row that played nothing new: the box is exhausted
EDGE = 0.02               # a best value this close (share of the box) to an end is "on the edge"
CHUNK = 1 << 15           # deals per kernel call (memory)


@dataclass(frozen=True)
class Box:
    """One tuned parameter: NAME=LO:HI[:STEP] within the parameter's own range."""
    name: str
    lo: float
    hi: float
    integer: bool
    step: float | None = None
    can_lower: bool = True     # LO is above the parameter's own minimum (the box can widen)
    can_raise: bool = True     # HI is below the parameter's own maximum

    def on_edge(self, v: float) -> str | None:
        """"low"/"high" when v is within 2 % of the box's width from an end the
        box could be widened past; None otherwise (an end of the parameter's own range is
        not an edge: nothing lies beyond it)."""
        tol = EDGE * (self.hi - self.lo)
        if self.can_lower and v - self.lo <= tol:
            return "low"
        if self.can_raise and self.hi - v <= tol:
            return "high"
        return None


def _num(v: float) -> str:
    v = round(float(v), 10)
    return str(int(v)) if v.is_integer() else repr(v)


def parse_box(strategy, text: str) -> Box:
    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq or not name or not spec.strip():
        raise UsageError(f"--param {text!r} must be NAME=LO:HI (or NAME=LO:HI:STEP)")
    known = {p.name: p for p in strategy.params}
    if name not in known:
        raise UsageError(f"strategy {strategy.name} has no parameter {name!r}; parameters: "
                         f"{', '.join(known) or 'none'}")
    parts = spec.split(":")
    if len(parts) not in (2, 3):
        raise UsageError(f"--param {text!r} must be NAME=LO:HI (or NAME=LO:HI:STEP)")
    try:
        nums = [float(x) for x in parts]
    except ValueError:
        raise UsageError(f"--param {text!r}: LO, HI (and STEP) must be numbers") from None
    if not all(math.isfinite(v) for v in nums):
        raise UsageError(f"--param {text!r}: LO, HI (and STEP) must be finite numbers")
    lo, hi = nums[0], nums[1]
    step = nums[2] if len(nums) == 3 else None
    p = known[name]
    if not lo < hi:
        raise UsageError(f"--param {text!r}: need LO < HI")
    if lo < p.lo or hi > p.hi:
        raise UsageError(f"--param {text!r} leaves the range of {name}: [{_num(p.lo)}, {_num(p.hi)}]")
    if p.integer and not (lo.is_integer() and hi.is_integer()):
        raise UsageError(f"--param {text!r}: {name} takes whole numbers; give whole LO and HI")
    if step is not None:
        if step <= 0 or step > hi - lo:
            raise UsageError(f"--param {text!r}: STEP must be > 0 and at most HI - LO")
        if p.integer and not step.is_integer():
            raise UsageError(f"--param {text!r}: {name} takes whole numbers; give a whole STEP")
        if not math.isclose((hi - lo) / step, round((hi - lo) / step), abs_tol=1e-9):
            raise UsageError(f"--param {text!r}: HI - LO must be a whole number of STEPs")
    return Box(name, lo, hi, p.integer, step, lo > p.lo, hi < p.hi)


@dataclass(frozen=True)
class TuneConfig:
    """Plain description of a tuning run (everything that determines its answer)."""
    game_name: str
    n_players: int
    options: object
    preset: str | None
    strategy: str              # NAME[:fixed=params] as given
    boxes: tuple
    field: str | None          # label of the field (None with --self: the start point)
    seed: int
    budget: int
    rung: int
    eta: int
    rungs: int
    top: int
    remeasure: int
    sampler: str
    self_play: bool
    rounds: int
    max_trials: int
    workers: int
    check: bool = False
    step: float = 1.0          # --self: share of the way the field moves towards the best response
    option_args: tuple = ()    # the --option NAME=VALUE texts as given

    @property
    def full_depth(self) -> int:
        return self.rung * self.eta ** self.rungs

    def meta(self) -> dict:
        from cardsim.sim.runner import package_versions
        game = get_game(self.game_name)
        return {"kind": "tune", "game": self.game_name, "rules_version": game.rules_version,
                "players": self.n_players, "preset": self.preset, "options": options_dict(self.options),
                "option_args": list(self.option_args),
                "strategy": self.strategy, "params": [{"name": b.name, "lo": b.lo, "hi": b.hi,
                                                        "integer": b.integer, "step": b.step} for b in self.boxes],
                "field": self.field, "seed": self.seed, "budget": self.budget, "rung": self.rung,
                "eta": self.eta, "rungs": self.rungs, "top": self.top, "remeasure": self.remeasure,
                "sampler": self.sampler, "self": self.self_play, "rounds": self.rounds,
                "max_trials": self.max_trials, "check": self.check, "step": self.step, "versions": package_versions()}


def make_tune(game: str, strategy: str, params: list[str], field: str | None = None, players=None,
              budget: int = 100_000, seed: int = 0, options=None, preset=None, sampler: str = "tpe",
              rung: int | None = None, eta: int = 3, rungs: int = 2, top: int = 3,
              remeasure: int | None = None, self_play: bool = False, rounds: int = 6,
              max_trials: int = 1000, workers=None, check: bool = False, step: float = 1.0) -> TuneConfig:
    """Check every argument (UsageError, one line) and build the run's TuneConfig."""
    from cardsim.sim.runner import max_workers
    spec = get_game(game)
    n = check_players(spec, players)
    opts = build_options(spec.options_cls, spec.presets, preset, list(options or []))
    opts.to_array(n)
    if not 0 <= seed < 2 ** 62:
        raise UsageError(f"--seed must be in 0 .. 2**62-1 (got {seed})")
    base = parse_seat(spec, strategy)
    if not params:
        raise UsageError("tune needs at least one --param NAME=LO:HI")
    boxes = tuple(parse_box(base.strategy, t) for t in params)
    names = [b.name for b in boxes]
    for i, b in enumerate(names):
        if b in names[:i]:
            raise UsageError(f"--param {b} is given twice; give each parameter once")
    fixed = _given(strategy)
    for b in names:
        if b in fixed:
            raise UsageError(f"parameter {b} is both fixed in --strategy and tuned by --param; give it once")
    if sampler not in SAMPLERS:
        raise UsageError(f"--sampler must be one of {', '.join(SAMPLERS)} (got {sampler!r})")
    if eta < 2:
        raise UsageError(f"--eta must be >= 2 (got {eta})")
    if not 0 <= rungs <= 6:
        raise UsageError(f"--rungs must be in 0..6 (got {rungs})")
    if budget < 1:
        raise UsageError(f"--budget must be >= 1 deal (got {budget})")
    rung = max(100, budget // 300) if rung is None else rung
    if rung < 10:
        raise UsageError(f"--rung must be >= 10 deals (got {rung})")
    if rung * eta ** rungs > budget:
        raise UsageError(f"--budget {budget:,} is below one fully measured point (--rung {rung:,} x --eta {eta}"
                         f"^--rungs {rungs} = {rung * eta ** rungs:,} deals); raise --budget or lower --rung/--rungs")
    if budget > 10 ** 12:
        raise UsageError(f"--budget must be at most 10**12 deals (got {budget})")
    if top < 1:
        raise UsageError(f"--top must be >= 1 (got {top})")
    remeasure = 2 * rung * eta ** rungs if remeasure is None else remeasure
    if remeasure < 2:
        raise UsageError(f"--remeasure must be >= 2 deals (got {remeasure})")
    if not 1 <= rounds <= 50:
        raise UsageError(f"--rounds must be in 1..50 (got {rounds})")
    if not (math.isfinite(step) and 0 < step <= 1):
        raise UsageError(f"--step must be in (0, 1] (got {step})")
    if step < 1 and not self_play:
        raise UsageError("--step moves the field between --self rounds; give it with --self")
    if max_trials < 1:
        raise UsageError(f"--max-trials must be >= 1 (got {max_trials})")
    w = max_workers() if workers is None else workers
    if not 1 <= w <= max_workers():
        raise UsageError(f"--workers must be 1..{max_workers()} on this machine (got {w})")
    if self_play:
        if field is not None and parse_seat(spec, field).strategy.name != base.strategy.name:
            raise UsageError(f"--self: the field must be the tuned strategy {base.strategy.name} (its start point), "
                             f"not {field.partition(':')[0]}; leave --field out to start from --strategy")
        field_label = parse_seat(spec, field).label if field is not None else base.label
    else:
        field_label = parse_seat(spec, field or "greedy").label
    if sampler == "cmaes" and len(boxes) < 2:
        raise UsageError("--sampler cmaes needs at least two --param boxes (CMA-ES is a multivariate method); "
                         "use tpe or random for one")
    _need_optuna(sampler)
    return TuneConfig(spec.name, n, opts, preset, strategy, boxes, field_label, seed, budget, rung, eta, rungs, top,
                      remeasure, sampler, self_play, rounds, max_trials, w, check, step=step,
                      option_args=tuple(options or ()))


def _given(strategy: str) -> dict:
    _, rest = split_label(strategy)
    return dict(x.strip().split("=", 1) for x in rest.split(",") if "=" in x)


def _need_optuna(sampler: str):
    try:
        import optuna
    except ImportError:
        raise UsageError("cardsim tune needs optuna: pip install -e '.[tune]'") from None
    if sampler == "cmaes":
        try:
            import cmaes  # noqa: F401 - optuna's CmaEsSampler needs it
        except ImportError:
            raise UsageError("--sampler cmaes needs the cmaes package: pip install -e '.[tune]'") from None
    return optuna


# ---- measuring a point ------------------------------------------------------------------

@dataclass
class Measure:
    """Sums of X(d) (the point's payout on deal d, averaged over the seats it held) and X^2."""
    deals: int = 0
    s: float = 0.0
    ss: float = 0.0
    truncated: int = 0          # seat-deals stopped by a turn cap

    def stats(self) -> tuple[float, float, float, float]:
        return mean_ci(self.s, self.ss, self.deals)


class Evaluator:
    """Plays candidate points against one field on deals 0, 1, 2 ... of one seed, keeping each
    point's sums so that a point is never played twice on the same deal."""

    def __init__(self, cfg: TuneConfig, field_label: str, seed: int):
        self.cfg, self.seed = cfg, seed
        self.game = get_game(cfg.game_name)
        self.field = parse_seat(self.game, field_label)
        self.points: dict[str, Measure] = {}
        self.played = 0                 # deals played by all points together (the budget's unit)

    def extend(self, seat: Seat, target: int) -> Measure:
        m = self.points.setdefault(seat.label, Measure())
        while m.deals < target:
            count = min(CHUNK, target - m.deals)
            x, trunc = self.play(seat, m.deals, count)
            m.s += float(x.sum())
            m.ss += float((x * x).sum())
            m.truncated += trunc
            m.deals += count
            self.played += count
        return m

    def play(self, seat: Seat, first: int, count: int) -> tuple[np.ndarray, int]:
        """X(d) of deals first..first+count-1 (the seat's payout averaged over the seats it held
        against the field) and the seat-deals a cap stopped, from the experiments' own player."""
        from cardsim.sim.experiment import Experiment, Point, field_lineups, play_experiment_shard
        n = self.cfg.n_players
        point = Point(seat.label, self.cfg.options, field_lineups(seat, self.field, n))
        exp = Experiment("tune", self.cfg.game_name, n, self.seed, (point,), self.cfg.preset, self.field.label,
                         0, self.cfg.check, self.cfg.workers)
        cols = play_experiment_shard(exp, first, count)
        x = cols["payout"].astype(np.float64).reshape(n, count).mean(axis=0)
        return x, int(np.count_nonzero(cols["truncated"]))


# ---- one round ---------------------------------------------------------------------------

def _seat_of(cfg: TuneConfig, values: dict) -> Seat:
    spec = get_game(cfg.game_name)
    name, _ = split_label(cfg.strategy)
    kv = _given(cfg.strategy)
    kv.update({k: _num(v) for k, v in values.items()})
    return parse_seat(spec, name + ":" + ",".join(f"{k}={v}" for k, v in kv.items()))


def _distributions(optuna, cfg: TuneConfig) -> dict:
    d = {}
    for b in cfg.boxes:
        if b.integer:
            d[b.name] = optuna.distributions.IntDistribution(int(b.lo), int(b.hi), step=int(b.step or 1))
        else:
            d[b.name] = optuna.distributions.FloatDistribution(b.lo, b.hi, step=b.step)
    return d


def _sampler(optuna, cfg: TuneConfig, seed: int):
    s = int.from_bytes(hashlib.sha256(f"cardsim-tune-{seed}".encode()).digest()[:4], "little")
    if cfg.sampler == "random":
        return optuna.samplers.RandomSampler(seed=s)
    if cfg.sampler == "cmaes":
        import warnings
        with warnings.catch_warnings():        # consider_pruned_trials is marked experimental
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            return optuna.samplers.CmaEsSampler(seed=s, consider_pruned_trials=True, warn_independent_sampling=False)
    return optuna.samplers.TPESampler(seed=s, n_startup_trials=max(5, 2 * len(cfg.boxes)))


def search_round(cfg: TuneConfig, field_label: str, seed: int, rnd: int, rows: list, progress=None) -> dict:
    """One round: optuna trials raced by successive halving against ``field_label``."""
    optuna = _need_optuna(cfg.sampler)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    ev = Evaluator(cfg, field_label, seed)
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=cfg.eta,
                                                    min_early_stopping_rate=0)
    study = optuna.create_study(direction="maximize", sampler=_sampler(optuna, cfg, seed), pruner=pruner)
    dists = _distributions(optuna, cfg)
    for start in _anchors(cfg, field_label):
        study.enqueue_trial(start)      # the start point and the field are always measured first
    depths = [cfg.rung * cfg.eta ** k for k in range(cfg.rungs + 1)]
    free, trials, stop = 0, 0, "budget"
    values: dict[str, dict] = {}
    while True:
        if trials >= cfg.max_trials:
            stop = "max_trials"
            break
        if free >= FREE_IN_A_ROW:
            stop = "exhausted"
            break
        if ev.played + cfg.rung > cfg.budget:
            break
        trial = study.ask(dists)
        point = _rounded(cfg, {b.name: trial.params[b.name] for b in cfg.boxes})
        seat = _seat_of(cfg, point)
        before = ev.played
        state, reached = "complete", 0
        for k, depth in enumerate(depths):
            m = ev.points.get(seat.label)
            new = depth - (m.deals if m else 0)
            if new > 0 and ev.played + new > cfg.budget:
                state = "budget"        # the budget ends inside this trial: told as pruned
                break
            m = ev.extend(seat, depth)
            mean, lo, hi, se = m.stats()
            reached = depth
            rows.append({"round": rnd, "phase": "search", "trial": trial.number, "rung": k, "deals": depth,
                         "mean": mean, "lo": lo, "hi": hi, "se": se, "truncated": m.truncated,
                         "label": seat.label, "field": field_label, "seed": seed,
                         **{f"param_{b.name}": _value(b, point[b.name]) for b in cfg.boxes}})
            trial.report(mean, step=cfg.eta ** k)
            if k < cfg.rungs and trial.should_prune():
                state = "pruned"
                break
            if progress:
                progress(ev.played)
        if state == "complete":
            study.tell(trial, m.stats()[0])
        else:
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        if reached:
            values[seat.label] = {"point": point, "deals": ev.points[seat.label].deals,
                                  "mean": ev.points[seat.label].stats()[0]}
        trials += 1
        free = free + 1 if ev.played == before else 0
        if progress:
            progress(ev.played)
        if state == "budget":
            break
    return {"evaluator": ev, "values": values, "trials": trials, "stop": stop, "deals": ev.played}


def _anchors(cfg: TuneConfig, field_label: str) -> list[dict]:
    """The tuned parameters of the start point (``--strategy`` as given) and of the field (when
    it is of the tuned family), where they lie inside the box: the first trials of a round, so
    that the search never returns something worse than where it started."""
    spec = get_game(cfg.game_name)
    seats = [parse_seat(spec, cfg.strategy), parse_seat(spec, field_label)]
    out = []
    for seat in seats:
        if seat.strategy.name != seats[0].strategy.name:
            continue
        vals = dict(zip((p.name for p in seat.strategy.params), seat.values))
        point = {b.name: (int(vals[b.name]) if b.integer else float(vals[b.name])) for b in cfg.boxes}
        inside = all(b.lo <= point[b.name] <= b.hi and (b.step is None or math.isclose(
            (point[b.name] - b.lo) / b.step, round((point[b.name] - b.lo) / b.step), abs_tol=1e-9))
            for b in cfg.boxes)
        if inside and point not in out:
            out.append(point)
    return out


def best_points(found: dict, top: int) -> list[dict]:
    """The ``top`` points by mean among those measured on the most deals any point reached
    (ties: the earlier label in sort order, so the choice is deterministic)."""
    if not found:
        return []
    deepest = max(v["deals"] for v in found.values())
    pool = [(label, v) for label, v in found.items() if v["deals"] == deepest]
    pool.sort(key=lambda lv: (-lv[1]["mean"], lv[0]))
    return [{"label": label, **v} for label, v in pool[:top]]


def remeasure(cfg: TuneConfig, field_label: str, labels: list[str], seed: int, rnd: int, rows: list) -> list[dict]:
    """The field (point 0) and ``labels`` on ``cfg.remeasure`` fresh deals of ``seed``: each
    point's mean with its 95 % interval and the paired difference to the field."""
    from cardsim.sim.experiment import Experiment, ExperimentAccumulator, Point, field_lineups, play_experiment_shard
    spec = get_game(cfg.game_name)
    f = parse_seat(spec, field_label)
    labels = [field_label] + [lb for i, lb in enumerate(labels) if lb != field_label and lb not in labels[:i]]
    points = tuple(Point(lb, cfg.options, field_lineups(parse_seat(spec, lb), f, cfg.n_players)) for lb in labels)
    exp = Experiment("compare", spec.name, cfg.n_players, seed, points, cfg.preset, f.label, 0, cfg.check,
                     cfg.workers)
    acc = ExperimentAccumulator(exp)
    done = 0
    while done < cfg.remeasure:
        count = min(CHUNK, cfg.remeasure - done)
        acc.add(play_experiment_shard(exp, done, count), count)
        done += count
    out = []
    for r in acc.summary()["points"]:
        row = {"label": r["label"], "mean": r["mean_payout"], "lo": r["payout_lo"], "hi": r["payout_hi"],
               "se": r["payout_se"], "diff": r["diff"], "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"],
               "truncated": r["truncated"], "truncated_share": r["truncated_share"]}
        out.append(row)
        rows.append({"round": rnd, "phase": "remeasure", "trial": -1, "rung": -1, "deals": cfg.remeasure,
                     "mean": row["mean"], "lo": row["lo"], "hi": row["hi"], "se": row["se"],
                     "truncated": row["truncated"], "label": row["label"], "field": field_label, "seed": seed,
                     **{f"param_{b.name}": None if b.integer else float("nan") for b in cfg.boxes}})
    return out


def _value(b: Box, v) -> int | float:
    """A point's value of box ``b`` as its records hold it: a whole number as an int."""
    return int(v) if b.integer else float(v)


def evaluations_frame(rows: list[dict], boxes: list[dict]) -> "pd.DataFrame":
    """The evaluation rows as a table: whole-number parameters (``boxes``: the meta's
    ``params``: ``name`` and ``integer``) as integers (nullable ``Int64``; empty in the re-measurement rows),
    the others as floats."""
    import pandas as pd
    df = pd.DataFrame(rows)
    for b in boxes:
        col = f"param_{b['name']}"
        if b.get("integer") and col in df:
            df[col] = df[col].astype("Int64")
    return df


def _rounded(cfg: TuneConfig, point: dict) -> dict:
    """Float values to 1/10,000 of their box (readable labels; integers and stepped values as
    they are)."""
    out = {}
    for b in cfg.boxes:
        v = point[b.name]
        if not b.integer and b.step is None:
            digits = max(0, 4 - math.floor(math.log10(b.hi - b.lo)))
            v = min(b.hi, max(b.lo, round(v, digits)))
        out[b.name] = v
    return out


# ---- the whole run -------------------------------------------------------------------------

@dataclass
class TuneResult:
    summary: dict
    meta: dict
    rows: list = field(default_factory=list)
    path: str | None = None


def run_tune(cfg: TuneConfig, progress=None, say=None) -> TuneResult:
    """Every round of the search (one without ``--self``); ``say(line)`` hears each round."""
    rows: list = []
    rounds = []
    field_label = cfg.field
    fields_seen = [field_label]
    status = "single"
    spent = 0
    for r in range(cfg.rounds if cfg.self_play else 1):
        seed_search, seed_check = (cfg.seed + 2 * r) % 2 ** 63, (cfg.seed + 2 * r + 1) % 2 ** 63
        found = search_round(cfg, field_label, seed_search, r, rows,
                             (lambda done, base=spent: progress(base + done)) if progress else None)
        spent += found["deals"]
        best = best_points(found["values"], cfg.top)
        if not best:
            raise UsageError("tune: no point was measured; raise --budget")
        checked = remeasure(cfg, field_label, [b["label"] for b in best], seed_check, r, rows)
        by_label = {c["label"]: c for c in checked}
        winner = best[0]
        w = by_label[winner["label"]]
        edges = [f"{b.name}={_num(winner['point'][b.name])} is at the {side} end of its box "
                 f"[{_num(b.lo)}, {_num(b.hi)}]: widen the box"
                 for b in cfg.boxes if (side := b.on_edge(winner["point"][b.name]))]
        rec = {"round": r, "field": field_label, "seed": seed_search, "remeasure_seed": seed_check,
               "trials": found["trials"], "search_deals": found["deals"], "stopped_by": found["stop"],
               "best": winner["label"], "best_params": winner["point"], "best_search_mean": winner["mean"],
               "best_search_deals": winner["deals"], "runner_ups": [b["label"] for b in best[1:]],
               "remeasured": checked, "best_mean": w["mean"], "best_lo": w["lo"], "best_hi": w["hi"],
               "gain": w["diff"], "gain_lo": w["diff_lo"], "gain_hi": w["diff_hi"], "edges": edges}
        if winner["label"] == field_label:
            rec["gain"] = rec["gain_lo"] = rec["gain_hi"] = 0.0
        rounds.append(rec)
        if say:
            say(round_line(rec, get_game(cfg.game_name).payout_unit, get_game(cfg.game_name).record_unit))
        if not cfg.self_play:
            break
        if winner["label"] == field_label or not rec["gain_lo"] > 0:
            status = "converged"
            break
        nxt = _blend(cfg, field_label, winner["point"]) if cfg.step < 1 else winner["label"]
        rec["next_field"] = nxt
        if nxt in fields_seen:
            status = "cycle"
            break
        field_label = nxt
        fields_seen.append(field_label)
    else:
        status = "not_converged"
    last = rounds[-1]
    pick = last
    if status == "converged":
        # the strong point: the field nobody beat (the previous round's best, or the start point)
        final = last["field"]
        edges = rounds[-2]["edges"] if len(rounds) > 1 else []
    elif cfg.self_play:
        # no fixed point: the least exploitable field met (smallest re-measured gain of its best response)
        pick = min(rounds, key=lambda r: (r["gain"], r["round"]))
        final = pick["field"]
        edges = []
    else:
        final = last["best"]
        edges = last["edges"]
    summary = {"status": status, "rounds": rounds, "best": final, "field": pick["field"],
               "strong_round": pick["round"],
               "strategy_line": f"--strategy {final}", "field_line": f"--field {final}", "search_deals": spent,
               "remeasure_deals": cfg.remeasure * len(rounds), "edges": edges,
               "best_response": pick["best"],
               "best_mean": pick["best_mean"], "best_lo": pick["best_lo"], "best_hi": pick["best_hi"],
               "gain": pick["gain"], "gain_lo": pick["gain_lo"], "gain_hi": pick["gain_hi"]}
    return TuneResult(summary, cfg.meta(), rows)


def _blend(cfg: TuneConfig, field_label: str, best: dict) -> str:
    """The next field under ``--step`` s < 1: each tuned parameter moves the share s of the way
    from the field's value to the best response's (whole numbers and stepped boxes rounded to
    their grid), a damped best response that settles where plain iteration overshoots."""
    spec = get_game(cfg.game_name)
    f = parse_seat(spec, field_label)
    vals = dict(zip((p.name for p in f.strategy.params), f.values))
    point = {}
    for b in cfg.boxes:
        v = vals[b.name] + cfg.step * (best[b.name] - vals[b.name])
        if b.integer or b.step:
            unit = b.step or 1
            v = b.lo + round((v - b.lo) / unit) * unit
        point[b.name] = min(b.hi, max(b.lo, v))
    return _seat_of(cfg, _rounded(cfg, point)).label


def round_line(rec: dict, unit: str, units: tuple[str, str] = ("deal", "deals")) -> str:
    """One line per round: its field, search, best point and the best point's re-measurement
    (``units``: what a record of the game is, singular and plural)."""
    g = rec
    one, many = units
    edge = f" · ON THE EDGE: {'; '.join(g['edges'])}" if g["edges"] else ""
    return (f"round {g['round']}: field {g['field']} · {g['trials']} trials on {g['search_deals']:,} {many} "
            f"(stopped by {g['stopped_by']}) · best {g['best']} · re-measured on fresh {many} (seed "
            f"{g['remeasure_seed']}): {g['best_mean']:+.4f} {unit} a {one} [{g['best_lo']:+.4f}, {g['best_hi']:+.4f}], "
            f"gain over the field {g['gain']:+.4f} [{g['gain_lo']:+.4f}, {g['gain_hi']:+.4f}]{edge}")


def write_tune(result: TuneResult, out: str, overwrite: bool = False) -> str:
    """``out/evaluations.parquet`` (one row per evaluation: every rung of every trial, every
    re-measured point; its footer names the dataset's identity, ``io.part_tag``) and
    ``out/_summary.json``, placed atomically (``sim.store``). A write that fails (a full disk)
    removes what it wrote and raises OutputError naming the cause, as ``run --out`` does."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq
    from cardsim.sim.errors import OutputError
    from cardsim.sim.io import META_KEY, PART_KEY, SUMMARY_FILE, part_tag
    from cardsim.sim.store import OutputSlot, why_failed
    import shutil
    slot = OutputSlot(out, "tune", overwrite)
    tmp = None
    try:
        tmp = slot.partial()
        table = pa.Table.from_pandas(evaluations_frame(result.rows, result.meta.get("params") or []),
                                     preserve_index=False)
        meta = json_clean(result.meta)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),     # (pandas': the Int64 columns)
                                               META_KEY: json.dumps(meta),
                                               PART_KEY: json.dumps(part_tag(meta), sort_keys=True)})
        pq.write_table(table, tmp / "evaluations.parquet")
        (tmp / SUMMARY_FILE).write_text(json.dumps(json_clean({"summary": result.summary, "meta": result.meta}),
                                                   indent=2))
        slot.place(tmp)
    except OSError as exc:
        kept = f"the previous {str(slot.out)!r} unchanged" if slot.replace else "nothing"
        raise OutputError(f"{why_failed(exc)} while writing the tune dataset {str(slot.out)!r}; removed its "
                          f"partial files, kept {kept}") from None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)     # what is left of it (nothing once placed)
        slot.remove_work()
    return str(slot.out)


def command_of(meta: dict) -> str:
    """The ``cardsim tune`` command line that reproduces a tune dataset (from its metadata)."""
    import shlex
    parts = ["cardsim", "tune", meta["game"], "--strategy", meta["strategy"]]
    for b in meta["params"]:
        box = f"{_num(b['lo'])}:{_num(b['hi'])}" + (f":{_num(b['step'])}" if b.get("step") else "")
        parts += ["--param", f"{b['name']}={box}"]
    if meta.get("self"):
        parts += ["--self", "--rounds", str(meta["rounds"])]
        if meta.get("step", 1.0) != 1.0:
            parts += ["--step", _num(meta["step"])]
    elif meta.get("field"):
        parts += ["--field", meta["field"]]
    parts += ["--players", str(meta["players"]), "--budget", str(meta["budget"]), "--seed", str(meta["seed"]),
              "--sampler", meta["sampler"], "--rung", str(meta["rung"]), "--eta", str(meta["eta"]),
              "--rungs", str(meta["rungs"]), "--top", str(meta["top"]), "--remeasure", str(meta["remeasure"])]
    if meta.get("preset"):
        parts += ["--preset", meta["preset"]]
    for text in meta.get("option_args") or []:
        parts += ["--option", text]
    return shlex.join(parts)
