"""Comparisons and sweeps on duplicate deals (common random numbers).

A *point* is something to measure: a candidate strategy (``compare``), or a grid point of
strategy parameters and rule options (``sweep``). Every point plays the very same deals
(same seed, same deal indices: same cards, same random choices of the field) in several
*lineups*, and each lineup names the seat whose result counts for the point:

* field mode (default): the candidate sits at seat s, every other seat plays the field
  strategy (``--field``, default greedy), for every seat s = 0..n-1;
* table mode (``compare`` with exactly one strategy per seat and no ``--field``): the
  strategies sit together and rotate through all n seat assignments; each candidate counts
  from the seat it holds in each rotation. A strategy given for several seats (``K W K W``:
  a 2-versus-2 table) is one point counted from each of its seats in each rotation; every
  strategy must then hold the same number of seats (equal lineups per point).

Per deal d a point scores X(d) = mean over its lineups of the counted seat's payout and
W(d) = the share of its lineups that seat won. The paired difference to the first point,
D(d) = X_c(d) - X_1(d), removes the luck of the cards: its variance is compared with the
unpaired variance var(X_c) + var(X_1) to state how much the pairing saved.
"""
from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass, replace

import numba
import numpy as np

from cardsim.sim.errors import UsageError
from cardsim.sim.columns import dataset_columns
from cardsim.sim.executor import LocalExecutor
from cardsim.sim.drive import drive, shard_layout, timing_meta
from cardsim.sim.options import build_options, options_dict, parse_overrides
from cardsim.sim.registry import Seat, check_players, get_game, parse_seat, plugin_codes, split_label
from cardsim.sim.runner import (RunConfig, check_deal_range, check_shard_size, max_workers, package_versions,
                                play_shard)
from cardsim.sim.sequential import with_sequential
from cardsim.sim.stats import json_clean, mean_ci
from cardsim.sim.store import ShardStore

EXPERIMENT_SHARD = 1 << 16
MAX_POINTS = 1000          # points of a sweep grid (the product of its axis sizes)


@dataclass(frozen=True)
class Point:
    label: str
    options: object
    lineups: tuple            # ((seat, seat, ...), counted seat) per lineup
    params: tuple = ()        # (name, value) pairs for sweeps


@dataclass(frozen=True)
class Experiment:
    """Plain, picklable description of a comparison or sweep."""
    kind: str                 # "compare" or "sweep"
    game_name: str
    n_players: int
    seed: int
    points: tuple
    preset: str | None
    field: str | None
    first_deal: int = 0
    check: bool = False
    workers: int = 1
    shard_size: int = EXPERIMENT_SHARD

    def meta(self) -> dict:
        game = get_game(self.game_name)
        return {
            "kind": self.kind, "game": self.game_name, "rules_version": game.rules_version,
            "players": self.n_players, "preset": self.preset, "field": self.field, "seed": self.seed,
            "first_deal": self.first_deal, "check": self.check,
            "points": [{"point": i, "label": p.label, "params": {k: _json_value(v) for k, v in p.params},
                        "options": options_dict(p.options),
                        "lineups": [{"seats": [s.label for s in seats], "counted_seat": k} for seats, k in p.lineups]}
                       for i, p in enumerate(self.points)],
            "reason_names": list(game.reason_names), "versions": package_versions(),
            **({"plugins": codes} if (codes := plugin_codes(
                s for p in self.points for seats, _ in p.lineups for s in seats)) else {}),
        }


def _json_value(v):
    """A grid value as JSON keeps it: a number text as a number (``"4"`` -> 4, ``"0.5"`` -> 0.5),
    anything else (``"none"``, ``"true"``, ``"reshuffle"``) as the text."""
    if isinstance(v, str):
        try:
            f = float(v)
        except ValueError:
            return v
        if not math.isfinite(f):
            return v
        return int(f) if f.is_integer() and re.fullmatch(r"[+-]?\d+(\.0*)?", v.strip()) else f
    return v


def field_lineups(candidate: Seat, field: Seat, n: int) -> tuple:
    return tuple((tuple(candidate if p == s else field for p in range(n)), s) for s in range(n))


def table_lineups(seats: list[Seat], c: int) -> tuple:
    """Rotation r seats strategy (p + r) mod n at seat p; candidate c sits at (c - r) mod n."""
    n = len(seats)
    return tuple((tuple(seats[(p + r) % n] for p in range(n)), (c - r) % n) for r in range(n))


def _common(game: str, players, preset, options, seed, deals, first_deal, workers, shard_size):
    spec = get_game(game)
    n = check_players(spec, players)
    opts = build_options(spec.options_cls, spec.presets, preset, list(options or []))
    opts.to_array(n)
    check_deal_range(first_deal, deals)
    if not 0 <= seed < 2 ** 63:
        raise UsageError(f"--seed must be in 0 .. 2**63-1 (got {seed})")
    w = max_workers() if workers is None else workers
    if not 1 <= w <= max_workers():
        raise UsageError(f"--workers must be 1..{max_workers()} on this machine (got {w})")
    check_shard_size(spec, shard_size)
    return spec, n, opts, w


def _check_memory(spec, shard_size: int, points: tuple) -> None:
    """Every point and lineup of a shard is played and kept before the shard is written."""
    copies = sum(len(p.lineups) for p in points)
    check_shard_size(spec, shard_size, copies, f" ({len(points):,} points x {len(points[0].lineups)} lineups)")


def make_compare(game: str, strategies: list[str], players=None, field: str | None = None, seed: int = 0,
                 deals: int = 0, options=None, preset=None, workers=None, check=False, first_deal=0,
                 shard_size: int = EXPERIMENT_SHARD) -> Experiment:
    spec, n, opts, w = _common(game, players, preset, options, seed, deals, first_deal, workers, shard_size)
    if len(strategies or []) < 2:
        raise UsageError("compare needs at least two --strategy values")
    cands = [parse_seat(spec, s) for s in strategies]
    if field is None and len(cands) == n:
        # a strategy at several seats (K W K W) is one point counted from each of its seats
        seats_of = {}
        for i, c in enumerate(cands):
            seats_of.setdefault(c.label, []).append(i)
        if len(seats_of) < 2:
            raise UsageError("compare: the strategies must differ (a rotation needs at least two)")
        counts = {len(v) for v in seats_of.values()}
        if len(counts) > 1:
            held = ", ".join(f"{lab} at {len(v)}" for lab, v in seats_of.items())
            raise UsageError(f"compare: a rotation with a repeated strategy needs every strategy at the same number "
                             f"of seats (got {held}); or compare them against a --field")
        points = tuple(Point(lab, opts, tuple(lu for i in idx for lu in table_lineups(cands, i)))
                       for lab, idx in seats_of.items())
        field_label = None
    else:
        f = parse_seat(spec, field or "greedy")
        points = tuple(Point(c.label, opts, field_lineups(c, f, n)) for c in cands)
        field_label = f.label
    if len({p.label for p in points}) != len(points):
        raise UsageError("compare: the strategies must differ")
    _check_memory(spec, shard_size, points)
    return Experiment("compare", spec.name, n, seed, points, preset, field_label, first_deal, check, w, shard_size)


def parse_grid(text: str) -> tuple[str, list[str]]:
    """``name=lo:hi:step`` (inclusive) or ``name=a,b,c`` -> (name, values as text)."""
    name, eq, spec = text.partition("=")
    if not eq or not name.strip() or not spec.strip():
        raise UsageError(f"grid {text!r} must be NAME=LO:HI:STEP or NAME=V1,V2,...")
    name = name.strip()
    if ":" in spec:
        try:
            lo, hi, step = (float(x) for x in spec.split(":"))
        except ValueError:
            raise UsageError(f"grid {text!r}: LO:HI:STEP must be three numbers") from None
        if not all(math.isfinite(v) for v in (lo, hi, step)):
            raise UsageError(f"grid {text!r}: LO, HI and STEP must be finite numbers")
        if step <= 0 or hi < lo:
            raise UsageError(f"grid {text!r}: need STEP > 0 and HI >= LO")
        count = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if count > MAX_POINTS:
            raise UsageError(f"grid {text!r} has {count:,} points; at most {MAX_POINTS:,}")
        return name, [_num(lo + i * step) for i in range(count)]
    values = [v.strip() for v in spec.split(",") if v.strip()]
    if not values:
        raise UsageError(f"grid {text!r} lists no values")
    if len(set(values)) != len(values):
        twice = next(v for v in values if values.count(v) > 1)
        raise UsageError(f"grid {text!r} lists {twice} twice")
    if len(values) > MAX_POINTS:
        raise UsageError(f"grid {text!r} has {len(values):,} points; at most {MAX_POINTS:,}")
    return name, values


def _num(v: float) -> str:
    v = round(v, 10)
    return str(int(v)) if float(v).is_integer() else repr(v)


def make_sweep(game: str, strategy: str, params: list[str], option_grid: list[str] | None = None,
               players=None, field: str | None = None, seed: int = 0, deals: int = 0, options=None,
               preset=None, workers=None, check=False, first_deal=0, shard_size: int = EXPERIMENT_SHARD) -> Experiment:
    spec, n, opts, w = _common(game, players, preset, options, seed, deals, first_deal, workers, shard_size)
    base_name, base_kv = split_label(strategy)
    base = parse_seat(spec, strategy)
    axes = [("param", *parse_grid(g)) for g in params or []]
    axes += [("option", *parse_grid(g)) for g in option_grid or []]
    if not axes:
        raise UsageError("sweep needs at least one --param or --option-grid")
    names = [name.replace("-", "_") if kind == "option" else name for kind, name, _ in axes]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise UsageError(f"sweep: {name} is swept twice; give each --param / --option-grid axis once")
    size = math.prod(len(vals) for _, _, vals in axes)
    if size > MAX_POINTS:
        sizes = " x ".join(str(len(vals)) for _, _, vals in axes)
        raise UsageError(f"sweep grid has {size:,} points ({sizes}); at most {MAX_POINTS:,}")
    known = {p.name for p in base.strategy.params}
    for kind, name, _ in axes:
        if kind == "param" and name not in known:
            raise UsageError(f"strategy {base_name} has no parameter {name!r}; parameters: {', '.join(known) or 'none'}")
    f = parse_seat(spec, field or "greedy")
    points = []
    for combo in itertools.product(*[vals for _, _, vals in axes]):
        kv = dict(x.split("=", 1) for x in base_kv.split(",") if "=" in x)
        opt_pairs = []
        for (kind, name, _), val in zip(axes, combo):
            if kind == "param":
                kv[name] = val
            else:
                opt_pairs.append(f"{name}={val}")
        cand = parse_seat(spec, base_name + (":" + ",".join(f"{k}={v}" for k, v in kv.items()) if kv else ""))
        p_opts = replace(opts, **parse_overrides(spec.options_cls, opt_pairs)) if opt_pairs else opts
        try:
            p_opts.to_array(n)
        except (TypeError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        label = ",".join(f"{name}={val}" for (_, name, _), val in zip(axes, combo))
        points.append(Point(label, p_opts, field_lineups(cand, f, n),
                            tuple((name, val) for (_, name, _), val in zip(axes, combo))))
    _check_memory(spec, shard_size, tuple(points))
    return Experiment("sweep", spec.name, n, seed, tuple(points), preset, f.label, first_deal, check, w, shard_size)


def play_experiment_shard(exp: Experiment, first: int, count: int) -> dict:
    """Long-format rows of deals first..first+count-1 for every point and lineup:
    deal_id, point, lineup, seat, payout, win, end_reason, turns, truncated (point-major order),
    plus the game's ``seat_extras`` for the counted seat (-1 where the rules lack the column)."""
    from cardsim.sim.registry import get_game
    extras = get_game(exp.game_name).seat_extras
    cache = {}
    parts = []
    for i, point in enumerate(exp.points):
        for r, (seats, s) in enumerate(point.lineups):
            key = (point.options, tuple(x.label for x in seats))
            if key not in cache:
                cfg = RunConfig(exp.game_name, exp.n_players, point.options, exp.preset, list(seats), exp.seed,
                                count, first, exp.check, exp.workers)
                cache[key] = play_shard(cfg, first, count)
            cols = cache[key]
            parts.append({
                "deal_id": cols["deal_id"], "point": np.full(count, i, np.int32), "lineup": np.full(count, r, np.int8),
                "seat": np.full(count, s, np.int8), "payout": cols[f"payout_{s}"].astype(np.int32),
                "win": cols["winner"] == s, "end_reason": cols["end_reason"], "turns": cols["turns"],
                "truncated": np.asarray(cols["truncated"], dtype=bool),
                # an extra these rules lack (Hand 7's columns in a six-hand game) is -1
                **{name: cols.get(tmpl.format(p=s), np.full(count, -1, np.int16)) for name, tmpl in extras},
            })
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]} if parts else {}


class ExperimentAccumulator:
    """Per-point sums of X, X^2, W, W^2 and of the paired difference to point 0."""

    def __init__(self, exp: Experiment):
        self.exp = exp
        k = len(exp.points)
        self.n = 0
        self.sx = np.zeros(k)
        self.sxx = np.zeros(k)
        self.sw = np.zeros(k)
        self.sww = np.zeros(k)
        self.sd = np.zeros(k)
        self.sdd = np.zeros(k)
        self.trunc = np.zeros(k)        # lineup-deals stopped by a cap, per point
        sides = get_game(exp.game_name).sides
        self.side_of = None             # partnerships: seat -> side; the counted seat wins when its side does
        if sides:
            self.side_of = np.zeros(exp.n_players, np.int64)
            for i, side in enumerate(sides):
                self.side_of[list(side)] = i

    def add(self, cols: dict, count: int) -> None:
        if count == 0:
            return
        k = len(self.exp.points)
        nl = len(self.exp.points[0].lineups)
        x = cols["payout"].astype(np.float64).reshape(k, nl, count).mean(axis=1)
        win = cols["win"]
        if self.side_of is not None and "win_side" in cols:
            win = np.asarray(cols["win_side"]) == self.side_of[np.asarray(cols["seat"], dtype=np.int64)]
        w = win.astype(np.float64).reshape(k, nl, count).mean(axis=1)
        d = x - x[0]
        self.n += count
        self.sx += x.sum(axis=1)
        self.sxx += (x * x).sum(axis=1)
        self.sw += w.sum(axis=1)
        self.sww += (w * w).sum(axis=1)
        self.sd += d.sum(axis=1)
        self.sdd += (d * d).sum(axis=1)
        if "truncated" in cols:
            self.trunc += np.asarray(cols["truncated"], dtype=np.float64).reshape(k, nl, count).sum(axis=(1, 2))

    def headline(self, z: float) -> tuple[str, float, float]:
        """(name, estimate, half-width at quantile z) of the least precise paired difference to
        point 0 (of the mean, for a single point): the metric ``--until-ci`` targets."""
        if self.n < 2:
            return "-", float("nan"), float("inf")
        single = len(self.sx) == 1
        s, ss = (self.sx, self.sxx) if single else (self.sd, self.sdd)
        i = max(range(0 if single else 1, len(s)), key=lambda k: mean_ci(s[k], ss[k], self.n)[3])
        mean, _, _, se = mean_ci(s[i], ss[i], self.n)
        label = self.exp.points[i].label
        return (label if single else f"{label} - {self.exp.points[0].label}"), mean, z * se

    def summary(self) -> dict:
        rows = []
        nl = len(self.exp.points[0].lineups)
        var0 = _var(self.sx[0], self.sxx[0], self.n)
        for i, p in enumerate(self.exp.points):
            mean, lo, hi, se = mean_ci(self.sx[i], self.sxx[i], self.n)
            wr, wlo, whi, wse = mean_ci(self.sw[i], self.sww[i], self.n)
            diff, dlo, dhi, dse = mean_ci(self.sd[i], self.sdd[i], self.n)
            var_paired = _var(self.sd[i], self.sdd[i], self.n)
            var_unpaired = _var(self.sx[i], self.sxx[i], self.n) + var0
            rows.append({"point": i, "label": p.label, **{k: _maybe_float(v) for k, v in p.params},
                         "mean_payout": mean, "payout_lo": lo, "payout_hi": hi, "payout_se": se,
                         "win_rate": wr, "win_lo": wlo, "win_hi": whi, "win_se": wse,
                         "truncated": int(self.trunc[i]),
                         "truncated_share": self.trunc[i] / (self.n * nl) if self.n else float("nan"),
                         "diff": diff if i else 0.0, "diff_lo": dlo if i else 0.0, "diff_hi": dhi if i else 0.0,
                         "diff_se": dse if i else 0.0,
                         "variance_reduction": (var_unpaired / var_paired) if i and var_paired > 0 else float("nan")})
        return {"deals": self.n, "points": rows}


def _var(s: float, ss: float, n: int) -> float:
    return max(0.0, (ss - s * s / n) / (n - 1)) if n > 1 else float("nan")


def _maybe_float(v):
    try:
        return float(v)
    except ValueError:
        return v


@dataclass
class ExperimentResult:
    summary: dict
    meta: dict
    timing: dict
    path: str | None


def run_experiment(exp: Experiment, deals: int, out: str | None = None, progress=None,
                   until_ci: float | None = None, max_deals: int | None = None, resume: bool = False,
                   executor=None, overwrite: bool = False) -> ExperimentResult:
    """Play the experiment shard by shard; write a dataset partitioned by point if ``out``
    (``overwrite``: replacing a previous cardsim dataset of the same kind, see ``sim.store``)."""
    check_deal_range(exp.first_deal, deals if until_ci is None else (max_deals or 0),
                     "--deals" if until_ci is None else "--max-deals")
    executor = executor or LocalExecutor()
    numba.set_num_threads(exp.workers)
    meta = exp.meta()
    meta.update(deals=deals if until_ci is None else None, until_ci=until_ci, max_deals=max_deals)
    layout = shard_layout(exp.shard_size, until_ci)
    store = ShardStore(out, meta, resume, dataset=True, layout=layout, overwrite=overwrite) if out else None
    acc = ExperimentAccumulator(exp)
    total = deals if until_ci is None else max_deals
    path = None
    try:
        spec = get_game(exp.game_name)
        driven = drive(play_experiment_shard, exp, layout, exp.first_deal, total, store, executor,
                       spec.reason_names, acc, until_ci, progress, dataset_columns(spec))
        meta["deals"] = driven.deals
        summary = with_sequential(acc.summary(), driven.sequential)
        timing = timing_meta(driven, executor, exp.workers)
        if store is not None:
            store.meta = meta
            extra = {"_summary.json": json.dumps(json_clean({"summary": summary, "meta": meta}), indent=2).encode()}
            path = str(store.finish(driven.shards, timing, partition="point", extra_files=extra))
    finally:
        if store is not None:
            store.close()       # the lock; an interrupted run keeps its work directory for --resume
    return ExperimentResult(summary, meta, timing, path)
