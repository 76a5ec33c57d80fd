"""``cardsim critique``: where a strategy loses, decision by decision (issue 40).

Deals are played with the critiqued strategy S at one seat and the field at the others, S's
seat rotating with the deal (deal d: seat d mod n; with one label per seat the whole lineup
rotates). Each game's ``critique_deal`` kernel (``kernels.critique`` has the shared contract)
plays a deal exactly as the batch does, so every position is one ``cardsim replay`` shows, and
values every legal action of S's sampled decisions by the game's own no-peeking determinized
search (worlds consistent with what the seat has seen, common random numbers across actions,
rollouts with the ``policy``): a racing select stage picks the best action, fresh worlds
measure its advantage over S's choice, the **regret**.

A game takes part through ``GameSpec.critique``, a dict with the keys CRITIQUE_KEYS:

* ``run``: the kernel wrapper ``(seed, deal, opts, sids, params, seat, prm, rate, stop, rows,
  acts, snaps, trace, plug=None, pprm=None) -> (rows written, decisions of seat, final state)``;
* ``max_rows(opts, n)``: rows of a record unit at most (decisions beyond are counted, not rowed: the
  unit is reported as truncated); ``max_acts``: legal actions at most;
  ``state_size``: the width of a position snapshot; ``trace(opts)``: a full replay's trace buffer;
* ``phase`` / ``detail``: (column name, meaning) of the two game-specific numbers of a row;
* ``action_text(code)``, ``position(snapshot, seat, opts) -> lines`` (the seat's view only);
* ``value``: the unit of the values; optional ``worlds``: the default worlds of the select stage.

Statistics (per decision kind, and per kind and phase):

* the regret of one evaluated decision is the mean paired difference best - chosen over the
  measure stage's worlds (0 when the best is S's choice); its mean over decisions has a 95 %
  interval from the decisions' spread (which includes the measurement noise);
* the loss per deal of a kind: per record unit, the regrets of its evaluated decisions of that
  kind, scaled by (decisions with a choice) / (evaluated), summed; mean over units with a 95 %
  interval. The total line sums the kinds per unit;
* a blunder: regret above ``threshold`` and significant at 95 % (regret - 1.96 se > 0).
"""
from __future__ import annotations

import json
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa

from cardsim.kernels import critique as CK
from cardsim.sim.errors import PluginError, UsageError
from cardsim.sim.interrupt import held_call
from cardsim.sim.limits import check_deal_range, check_seed
from cardsim.sim.options import build_options, options_dict
from cardsim.sim.registry import check_players, get_game, plugin_codes, seat_arrays, seat_plugin, seat_table

CRITIQUE_KEYS = ("run", "max_rows", "max_acts", "state_size", "trace", "phase", "detail", "action_text", "position",
                 "value")
DEFAULT_WORLDS = 32
Z95 = 1.959963984540054
DECISIONS_FILE = "part-0.parquet"
REPORT_FILE = "critique.md"
PLOT_FILE = "regret_by_kind.png"


MAX_INFER = 256           # --infer: candidate worlds per world at most


def critique_games() -> list[str]:
    from cardsim.sim.registry import games
    return [name for name, spec in games().items() if spec.critique is not None]


def adapter(spec) -> dict:
    """The game's critique adapter (UsageError for a game without one)."""
    if spec.critique is None:
        raise UsageError(f"no critique for {spec.name} yet; games: {', '.join(critique_games())}")
    return spec.critique


@dataclass
class CritiqueConfig:
    """What determines a critique's rows (workers do not)."""
    game_name: str
    n_players: int
    options: object
    preset: str | None
    labels: list[str]             # the lineup at seat 0.. before rotation; labels[0] is the critiqued strategy
    seed: int
    deals: int                    # record units at most
    decisions: int | None         # stop once this many decisions are evaluated (whole units)
    worlds: int
    policy: str
    rate: float
    threshold: float
    top: int
    first_deal: int = 0
    workers: int = 1
    chunk: int = 8
    infer: int = 0                # inference candidates per world (0: uniform worlds; the adapter's infer_slot)
    seats: list = field(default_factory=list, repr=False)    # per rotation r: the Seat list

    @property
    def game(self):
        return get_game(self.game_name)

    @property
    def option_array(self) -> np.ndarray:
        return self.options.to_array(self.n_players)

    @property
    def strategy(self) -> str:
        return self.labels[0]

    def lineup(self, deal: int) -> list:
        """The seats of ``deal``: the lineup rotated so the critiqued strategy sits at deal mod n."""
        return self.seats[deal % self.n_players]

    def meta(self) -> dict:
        from cardsim.sim.runner import package_versions
        seats = self.seats[0]
        return {"kind": "critique", "game": self.game_name, "rules_version": self.game.rules_version,
                "players": self.n_players, "preset": self.preset, "options": options_dict(self.options),
                "strategy": self.labels[0], "lineup": list(self.labels), "seed": self.seed,
                "first_deal": self.first_deal, "deals": self.deals, "decisions": self.decisions,
                "worlds": self.worlds, "policy": self.policy, "rate": self.rate, "threshold": self.threshold,
                **({"infer": self.infer} if self.infer else {}),
                "seats": [dict(seat=i, label=s.label, **s.as_dict()) for i, s in enumerate(seats)],
                **({"plugins": codes} if (codes := plugin_codes(seats)) else {}),
                "value": self.game.critique["value"], "versions": package_versions()}


def make_critique(game: str, strategies: list[str], field: str | None = None, players: int | None = None,
                  preset: str | None = None, options: list[str] | None = None, decisions: int | None = None,
                  deals: int | None = None, worlds: int | None = None, policy: str = "strong", rate: float = 1.0,
                  threshold: float = 0.0, top: int = 3, seed: int = 0, first_deal: int = 0,
                  workers: int | None = None, infer: int = 0) -> CritiqueConfig:
    """Check the arguments of a critique (UsageError, one line each) into a CritiqueConfig."""
    from cardsim.sim.runner import max_workers
    spec = get_game(game)
    ad = adapter(spec)
    n = check_players(spec, players)
    opts = build_options(spec.options_cls, spec.presets, preset, list(options or []))
    opts.to_array(n)
    if not strategies:
        raise UsageError("--strategy: give the strategy to critique")
    if len(strategies) == 1:
        labels = [strategies[0]] + [field or strategies[0]] * (n - 1)
    elif field is not None:
        raise UsageError("--field cannot be given with one --strategy per seat (the other seats are the field)")
    elif len(strategies) != n:
        raise UsageError(f"--strategy: give one label (with --field) or one per seat ({n}), got {len(strategies)}")
    else:
        labels = list(strategies)
    seats = seat_table(spec, labels, n)          # checks every label (plug-ins load here)
    rotations = [[seats[(q - r) % n] for q in range(n)] for r in range(n)]
    if decisions is None and deals is None:
        decisions = 1000
    if decisions is not None and decisions < 1:
        raise UsageError(f"--decisions must be >= 1 (got {decisions})")
    if deals is not None and deals < 1:
        raise UsageError(f"--deals must be >= 1 (got {deals})")
    limit = deals if deals is not None else 1_000_000_000
    check_deal_range(first_deal, limit)
    check_seed(seed)
    w = worlds if worlds is not None else int(ad.get("worlds", DEFAULT_WORLDS))
    if not 1 <= w <= 4096:
        raise UsageError(f"--worlds must be 1..4096 (got {w})")
    if not (isinstance(rate, (int, float)) and 0.0 < rate <= 1.0):
        raise UsageError(f"--rate must be in (0, 1]: the share of decisions evaluated (got {rate})")
    if not math.isfinite(threshold) or threshold < 0:
        raise UsageError(f"--threshold must be a number >= 0 (got {threshold})")
    if top < 0:
        raise UsageError(f"--top must be >= 0 (got {top})")
    infer = int(infer)
    if not 0 <= infer <= MAX_INFER:
        raise UsageError(f"--infer must be 0..{MAX_INFER}: candidate worlds per world (got {infer})")
    if infer and "infer_slot" not in ad:
        games = ", ".join(g for g in critique_games() if "infer_slot" in adapter(get_game(g)))
        raise UsageError(f"--infer: {spec.name}'s critique has no inference worlds (games with them: {games})")
    evaluator(spec, n, w, policy, infer)        # checks the policy
    most = max_workers()
    nw = most if workers is None else workers
    if not 1 <= nw <= most:
        raise UsageError(f"--workers must be 1..{most} on this machine (got {nw})")
    return CritiqueConfig(spec.name, n, opts, preset, labels, seed, limit, decisions, w, policy, float(rate),
                          float(threshold), top, first_deal, nw, infer=infer, seats=rotations)


def evaluator(spec, n: int, worlds: int, policy: str | None, infer: int = 0) -> np.ndarray:
    """The search row that values the actions: the game's ``search`` with ``worlds`` and ``policy``
    (and ``infer`` inference candidates per world at the adapter's ``infer_slot``)."""
    search = spec.strategies.get("search")
    if search is None:
        raise UsageError(f"{spec.name} has no search strategy to critique with")
    pol = next(p for p in search.params if p.name == "policy")
    if policy is None:                       # the cheapest: positions only, the values do not matter
        policy = "random" if "random" in pol.choices else pol.choices[-1]
    if policy not in pol.choices:
        raise UsageError(f"--policy {policy!r} is not a rollout policy of {spec.name}; policies: "
                         f"{', '.join(pol.choices)}")
    seats = seat_table(spec, [f"search:worlds={worlds},policy={policy}"], n)
    row = seat_arrays(spec, seats)[1][0].copy()
    if infer:
        row[spec.critique["infer_slot"]] = infer
    return row


# ---- playing ----------------------------------------------------------------------------

def _deal_rows(cfg: CritiqueConfig, deal: int, prm: np.ndarray, tables: list) -> dict:
    """The rows of one record unit: the critiqued seat's decisions (columns as lists)."""
    spec = cfg.game
    ad = spec.critique
    n = cfg.n_players
    seat = deal % n
    sids, params, plug, pprm = tables[seat]
    opts = cfg.option_array
    rows, acts, snaps = CK.buffers(int(ad["max_rows"](opts, n)), int(ad["max_acts"]), int(ad["state_size"]))
    trace = ad["trace"](opts)[:0]
    plugs = () if plug is None else (plug, pprm)
    k, seen, st = ad["run"](cfg.seed, deal, opts, sids, params, seat, prm, cfg.rate, -1, rows, acts, snaps, trace,
                            *plugs)
    if plug is not None and spec.plugin is not None and spec.state_error(st) == spec.plugin["error"]:
        from cardsim.sim.runner import plugin_stop
        raise PluginError(f"{plugin_stop(_run_config(cfg, deal), deal)} in deal {deal} (seed {cfg.seed}); the "
                          "critique was stopped")
    return {"k": int(k), "seen": int(seen), "rows": rows[:k].copy(), "acts": acts[:k].copy(),
            "snaps": snaps[:k].copy(), "truncated": int(seen) > int(k)}


def _run_config(cfg: CritiqueConfig, deal: int):
    from cardsim.sim.runner import RunConfig
    return RunConfig(cfg.game_name, cfg.n_players, cfg.options, cfg.preset, cfg.lineup(deal), cfg.seed, 1, deal)


def _tables(cfg: CritiqueConfig) -> list:
    """Per rotation: (sids, params, plug-in callback, plug-in rows)."""
    out = []
    for seats in cfg.seats:
        sids, params = seat_arrays(cfg.game, seats)
        plug, pprm = seat_plugin(cfg.game, seats, False)
        out.append((sids, params, plug, pprm))
    return out


def _table(cfg: CritiqueConfig, results: list[tuple[int, dict]]) -> pa.Table:
    """The Parquet rows of played units (``results``: (deal, _deal_rows) in deal order)."""
    ad = cfg.game.critique
    kinds = cfg.game.plugin["kinds"] if cfg.game.plugin else {}
    text = ad["action_text"]
    cols: dict[str, list] = {name: [] for name in COLUMN_NAMES}
    for deal, res in results:
        seat = deal % cfg.n_players
        chosen_codes = CK.codes(res["rows"][:, CK.CR_CHOSEN_ACT]) if len(res["rows"]) else []
        best_codes = CK.codes(res["rows"][:, CK.CR_BEST_ACT]) if len(res["rows"]) else []
        for r, a, s, ca, ba in zip(res["rows"], res["acts"], res["snaps"], chosen_codes, best_codes):
            ev = bool(r[CK.CR_EVAL])
            nl = int(r[CK.CR_LEGAL])
            regret, se = float(r[CK.CR_REGRET]), float(r[CK.CR_SE_REGRET])
            cols["deal_id"].append(deal)
            cols["seat"].append(seat)
            cols["decision"].append(int(r[CK.CR_INDEX]))
            cols["step"].append(int(r[CK.CR_STEP]))
            cols["kind"].append(int(r[CK.CR_KIND]))
            cols["kind_name"].append(_kind_name(kinds, int(r[CK.CR_KIND])))
            cols["phase"].append(int(r[CK.CR_PHASE]))
            cols["detail"].append(int(r[CK.CR_DETAIL]))
            cols["legal"].append(nl)
            cols["evaluated"].append(ev)
            cols["chosen"].append(text(int(ca)))
            cols["best"].append(text(int(ba)))
            cols["chosen_action"].append(int(ca))
            cols["best_action"].append(int(ba))
            cols["value_chosen"].append(float(r[CK.CR_V_CHOSEN]) if ev else None)
            cols["se_chosen"].append(float(r[CK.CR_SE_CHOSEN]) if ev else None)
            cols["value_best"].append(float(r[CK.CR_V_BEST]) if ev else None)
            cols["se_best"].append(float(r[CK.CR_SE_BEST]) if ev else None)
            cols["regret"].append(regret if ev else None)
            cols["regret_se"].append(se if ev else None)
            cols["blunder"].append(ev and regret > cfg.threshold and regret - Z95 * se > 0)
            cols["unit_truncated"].append(bool(res["truncated"]))
            cols["worlds"].append(int(r[CK.CR_WORLDS]))
            cols["rollouts"].append(int(r[CK.CR_ROLLOUTS]))
            cols["actions"].append([int(x) for x in CK.codes(a[:nl, 0])] if ev else None)
            cols["values"].append([float(x) for x in a[:nl, 1]] if ev else None)
            cols["value_ses"].append([float(x) for x in a[:nl, 2]] if ev else None)
            cols["state"].append([int(x) for x in s] if ev else None)
    return pa.table({name: pa.array(cols[name], type=typ) for name, typ, _ in COLUMNS})


def _kind_name(kinds: dict, k: int) -> str:
    """A decision kind's name, short: its description up to the first colon, parenthesis or semicolon
    (a comma may be part of the name: "lay a spread, hit, or discard")."""
    text = kinds.get(k, f"kind {k}")
    for sep in (":", " (", ";"):
        text = text.split(sep)[0]
    return text if len(text) <= 36 else text[:35] + "…"


COLUMNS = [
    ("deal_id", pa.int64(), "the record unit (deal, game, match, session): cardsim replay --deal"),
    ("seat", pa.int8(), "the critiqued strategy's seat (the deal mod the players)"),
    ("decision", pa.int32(), "the decision's number among the seat's decisions of the unit"),
    ("step", pa.int32(), "decisions of any seat before it (cardsim replay --until-decision)"),
    ("kind", pa.int8(), "the decision kind (the game's plug-in kinds: cardsim strategies GAME)"),
    ("kind_name", pa.string(), "the decision kind in words"),
    ("phase", pa.int32(), "the game's phase of the decision (the metadata's phase names it)"),
    ("detail", pa.int32(), "a second game-specific number (the metadata's detail names it)"),
    ("legal", pa.int16(), "legal actions"),
    ("evaluated", pa.bool_(), "valued (a sampled decision with more than one legal action)"),
    ("chosen", pa.string(), "the strategy's action"),
    ("best", pa.string(), "the best action by the evaluation (the chosen one when not evaluated)"),
    ("chosen_action", pa.int64(), "the chosen action's kernel code"),
    ("best_action", pa.int64(), "the best action's kernel code"),
    ("value_chosen", pa.float64(), "the chosen action's value (select stage), in the metadata's unit"),
    ("se_chosen", pa.float64(), "its standard error"),
    ("value_best", pa.float64(), "the best action's value (select stage)"),
    ("se_best", pa.float64(), "its standard error"),
    ("regret", pa.float64(), "best minus chosen, measured on fresh worlds (0 when the best is the choice)"),
    ("regret_se", pa.float64(), "the regret's standard error"),
    ("blunder", pa.bool_(), "regret above the threshold and significant at 95 %"),
    ("unit_truncated", pa.bool_(), "the unit had more decisions of the seat than the critique rows (the rest "
                                   "were played, not rowed)"),
    ("worlds", pa.int32(), "worlds played (both stages)"),
    ("rollouts", pa.int64(), "rollouts played"),
    ("actions", pa.list_(pa.int64()), "every legal action's kernel code (evaluated decisions)"),
    ("values", pa.list_(pa.float64()), "each legal action's value (select stage)"),
    ("value_ses", pa.list_(pa.float64()), "their standard errors"),
    ("state", pa.list_(pa.int64()), "the position (the kernel's state: what cardsim prints of the seat's view)"),
]
COLUMN_NAMES = [c[0] for c in COLUMNS]


@dataclass
class CritiqueResult:
    """What ``cardsim critique`` found: ``decisions`` (one row per decision of the critiqued
    seat), ``summary`` (per kind), ``phases`` (per kind and phase), ``total``, ``worst``."""
    meta: dict
    decisions: pd.DataFrame
    summary: pd.DataFrame
    phases: pd.DataFrame
    total: dict
    worst: list[dict]
    timing: dict
    path: str | None = None

    def text(self) -> str:
        return "\n".join(report_lines(self))


def play(cfg: CritiqueConfig, out: str | None = None, resume: bool = False, overwrite: bool = False,
         progress=None) -> CritiqueResult:
    """Play units chunk by chunk until ``cfg.decisions`` are evaluated or ``cfg.deals`` played;
    with ``out`` each chunk is a resumable shard (``sim.store``) and the directory gets the
    decisions (``part-0.parquet``), ``_summary.json``, ``critique.md`` and a plot."""
    import numba
    from cardsim.sim.store import ShardStore
    spec = cfg.game
    meta = cfg.meta()
    prm = evaluator(spec, cfg.n_players, cfg.worlds, cfg.policy, cfg.infer)
    tables = _tables(cfg)
    store = ShardStore(out, meta, resume, dataset=True, layout={"chunk": cfg.chunk, "sizing": "by-rate"},
                       overwrite=overwrite) \
        if out else None
    numba.set_num_threads(1)
    t0 = time.perf_counter()
    parts, firsts = [], []
    evaluated, played = 0, 0
    target = cfg.decisions
    total = target if target is not None else cfg.deals
    try:
        first = cfg.first_deal
        while played < cfg.deals and (target is None or evaluated < target):
            count = _chunk_size(cfg, played, evaluated)
            table = store.read(first, count) if store is not None and resume and store.usable(first, count) else None
            if table is None:
                table = held_call(_chunk, cfg, first, count, prm, tables)
                if store is not None:
                    store.write(first, count, table)
            parts.append(table)
            firsts.append(first)
            evaluated += int(pa.compute.sum(table["evaluated"]).as_py() or 0)
            played += count
            first += count
            if progress is not None:
                progress(min(evaluated, total) if target is not None else played, total,
                         f"{evaluated:,} evaluated" if target is None else f"{played:,} {spec.record_unit[1]}")
        table = pa.concat_tables(parts) if parts else pa.table({n: pa.array([], t) for n, t, _ in COLUMNS})
        dec = table.to_pandas()
        dec, played = _cut(dec, target, cfg.first_deal, played)
        meta["deals"] = played
        res = summarize(dec, meta, played)
        res.timing = {"wall_s": round(time.perf_counter() - t0, 3), "workers": cfg.workers,
                      "evaluated_per_s": round(len(dec[dec.evaluated]) / max(1e-9, time.perf_counter() - t0), 2)}
        res.worst = worst(cfg, dec)
        if store is not None:
            store.meta = meta
            extra = {"_summary.json": json.dumps(_json_clean({"summary": summary_json(res), "meta": meta}),
                                                 indent=2).encode(),
                     REPORT_FILE: ("\n".join(markdown_lines(res)) + "\n").encode()}
            png = plot_png(res)
            if png is not None:
                extra[PLOT_FILE] = png
            end = cfg.first_deal + played
            keep = [f for f in firsts if f < end]               # a prefix: firsts ascend with parts
            if keep:
                ids = parts[len(keep) - 1].column("deal_id")
                if len(ids) and pa.compute.max(ids).as_py() >= end:     # the unit holding the target ends it
                    store.write(keep[-1], end - keep[-1], parts[len(keep) - 1].filter(pa.compute.less(ids, end)))
            res.path = str(store.finish(keep, res.timing, partition=None, extra_files=extra))
    finally:
        if store is not None:
            store.close()
    return res


def _chunk_size(cfg: CritiqueConfig, played: int, evaluated: int) -> int:
    """Units in the next chunk: ``cfg.chunk`` (or what is left of ``cfg.deals``); with a decision
    target no more than the units the rate so far says are still needed (two to start), so a run
    stops near its target in a game of long units. It depends on the config and the (deterministic)
    counts only, never on the workers, so a resumed run finds the same shards."""
    n = min(cfg.chunk, cfg.deals - played)
    if cfg.decisions is None:
        return n
    need = 2 if played == 0 else -(-(cfg.decisions - evaluated) * played // max(1, evaluated))
    return max(1, min(n, need))


def _chunk(cfg: CritiqueConfig, first: int, count: int, prm: np.ndarray, tables: list) -> pa.Table:
    deals = list(range(first, first + count))
    if cfg.workers > 1 and count > 1:
        with ThreadPoolExecutor(cfg.workers) as pool:
            results = list(pool.map(lambda d: _deal_rows(cfg, d, prm, tables), deals))
    else:
        results = [_deal_rows(cfg, d, prm, tables) for d in deals]
    return _table(cfg, list(zip(deals, results)))


def _cut(dec: pd.DataFrame, target: int | None, first: int, played: int) -> tuple[pd.DataFrame, int]:
    """With a decision target: the whole units up to the one holding the target-th evaluated decision."""
    if target is None or dec.evaluated.sum() <= target:
        return dec, played
    nth = dec.index[dec.evaluated.cumsum() == target][0]
    last = int(dec.loc[nth, "deal_id"])
    return dec[dec.deal_id <= last].reset_index(drop=True), last - first + 1


# ---- statistics ---------------------------------------------------------------------------

def _mean_ci(x: np.ndarray) -> tuple[float, float]:
    if len(x) == 0:
        return float("nan"), float("nan")
    if len(x) == 1:
        return float(x[0]), float("nan")
    return float(np.mean(x)), float(Z95 * np.std(x, ddof=1) / math.sqrt(len(x)))


def _loss_per_unit(dec: pd.DataFrame, units: np.ndarray) -> np.ndarray:
    """Per unit: the regrets of its evaluated decisions scaled by (decisions with a choice) /
    (evaluated) of these rows, summed (0 for a unit without one)."""
    choice = int((dec.legal > 1).sum())
    ev = dec[dec.evaluated]
    scale = choice / len(ev) if len(ev) else 0.0
    sums = ev.groupby("deal_id").regret.sum() * scale
    return sums.reindex(units, fill_value=0.0).to_numpy()


def _group_row(dec: pd.DataFrame, units: np.ndarray, threshold: float) -> dict:
    ev = dec[dec.evaluated]
    m = len(ev)
    regret, half = _mean_ci(ev.regret.to_numpy())
    loss, loss_half = _mean_ci(_loss_per_unit(dec, units))
    return {"decisions": int(len(dec)), "with_choice": int((dec.legal > 1).sum()), "evaluated": m,
            "share_evaluated": m / len(dec) if len(dec) else float("nan"),
            "not_best": float((ev.best_action != ev.chosen_action).mean()) if m else float("nan"),
            "regret": regret, "regret_ci": half,
            "blunders": float(ev.blunder.mean()) if m else float("nan"),
            "loss_per_deal": loss, "loss_ci": loss_half}


def summarize(dec: pd.DataFrame, meta: dict, units_played: int) -> CritiqueResult:
    units = np.arange(meta["first_deal"], meta["first_deal"] + units_played)
    spec = get_game(meta["game"])
    kinds = spec.plugin["kinds"] if spec.plugin else {}
    rows = []
    for k, g in dec.groupby("kind", sort=True):
        rows.append({"kind": int(k), "name": _kind_name(kinds, int(k)), **_group_row(g, units, meta["threshold"])})
    summary = pd.DataFrame(rows)
    prow = []
    for (k, ph), g in dec.groupby(["kind", "phase"], sort=True):
        prow.append({"kind": int(k), "name": _kind_name(kinds, int(k)), "phase": int(ph),
                     **_group_row(g, units, meta["threshold"])})
    phases = pd.DataFrame(prow)
    total = _group_row(dec, units, meta["threshold"])
    per_kind = [_loss_per_unit(g, units) for _, g in dec.groupby("kind")]
    if per_kind:
        total["loss_per_deal"], total["loss_ci"] = _mean_ci(np.sum(per_kind, axis=0))
    total["units"] = int(units_played)
    total["truncated_units"] = int(dec[dec.unit_truncated].deal_id.nunique()) if len(dec) else 0
    return CritiqueResult(meta, dec, summary, phases, total, [], {})


def worst(cfg: CritiqueConfig, dec: pd.DataFrame) -> list[dict]:
    """Per kind, the ``top`` largest significant regrets, each with the seat's view, the legal
    actions' values and the command that replays the unit up to there."""
    ad = cfg.game.critique
    opts = cfg.option_array
    out = []
    sig = dec[dec.evaluated & (dec.regret - Z95 * dec.regret_se > 0) & (dec.regret > cfg.threshold)]
    for k, g in sig.groupby("kind", sort=True):
        for _, r in g.sort_values(["regret", "deal_id"], ascending=[False, True]).head(cfg.top).iterrows():
            snap = np.asarray(r.state, dtype=np.int64)
            seat = int(r.seat)
            acts = []
            best = int(r.best_action)
            for a, v, s in sorted(zip(r.actions, r["values"], r.value_ses), key=lambda t: (int(t[0]) != best, -t[1])):
                acts.append({"action": ad["action_text"](int(a)), "value": float(v), "ci": float(Z95 * s),
                             "chosen": int(a) == int(r.chosen_action), "best": int(a) == int(r.best_action)})
            out.append({"kind": int(k), "kind_name": r.kind_name, "deal": int(r.deal_id), "seat": seat,
                        "decision": int(r.decision), "step": int(r.step), "phase": int(r.phase),
                        "detail": int(r.detail), "regret": float(r.regret), "regret_ci": float(Z95 * r.regret_se),
                        "position": list(ad["position"](snap, seat, opts)), "actions": acts,
                        "replay": replay_command(cfg, int(r.deal_id), int(r.step))})
    return out


def replay_command(cfg: CritiqueConfig, deal: int, step: int) -> str:
    parts = [f"cardsim replay {cfg.game_name} --seed {cfg.seed} --deal {deal} --players {cfg.n_players}"]
    n = cfg.n_players
    parts += [f"--strategy {_quote(cfg.labels[(q - deal) % n])}" for q in range(n)]
    if cfg.preset:
        parts.append(f"--preset {cfg.preset}")
    for name, value in _option_pairs(cfg):
        parts.append(f"-o {_quote(f'{name}={value}')}")
    parts.append(f"--until-decision {step}")
    return " ".join(parts)


def _option_pairs(cfg: CritiqueConfig) -> list[tuple[str, str]]:
    from cardsim.sim.options import option_text
    base = build_options(cfg.game.options_cls, cfg.game.presets, cfg.preset, [])
    now, was = options_dict(cfg.options), options_dict(base)
    return [(k, option_text(getattr(cfg.options, k))) for k in now if now[k] != was.get(k)]


def _quote(text: str) -> str:
    import shlex
    return shlex.quote(text)


# ---- printing ---------------------------------------------------------------------------

def _pm(v: float, h: float, digits: int = 3) -> str:
    if not math.isfinite(v):
        return "-"
    return f"{v:+.{digits}f}" + (f" ± {h:.{digits}f}" if math.isfinite(h) else "")


def _pct(v: float) -> str:
    return "-" if not math.isfinite(v) else f"{100 * v:.1f} %"


def table_rows(res: CritiqueResult, phases: bool = False) -> tuple[list[str], list[list[str]]]:
    spec = get_game(res.meta["game"])
    unit = spec.record_unit[0]
    head = ["kind"] + (["phase"] if phases else []) + ["decisions", "evaluated", "not best", "regret / decision",
                                                         "blunders", f"loss / {unit}"]
    df = res.phases if phases else res.summary
    rows = []
    for _, r in df.iterrows():
        rows.append([f"{r['kind']} {r['name']}"] + ([str(r["phase"])] if phases else []) +
                    [f"{r.decisions:,}", _pct(r.share_evaluated), _pct(r.not_best), _pm(r.regret, r.regret_ci),
                     _pct(r.blunders), _pm(r.loss_per_deal, r.loss_ci)])
    if not phases:
        t = res.total
        rows.append(["total"] + [f"{t['decisions']:,}", _pct(t["share_evaluated"]), _pct(t["not_best"]),
                                 _pm(t["regret"], t["regret_ci"]), _pct(t["blunders"]),
                                 _pm(t["loss_per_deal"], t["loss_ci"])])
    return head, rows


def head_line(res: CritiqueResult) -> str:
    m = res.meta
    spec = get_game(m["game"])
    field_labels = sorted(set(m["lineup"][1:]))
    return (f"{spec.title}: critique of {m['strategy']} ({m['players']} players, field "
            f"{', '.join(field_labels)}), {res.total['units']:,} {spec.record_unit[1]}, "
            f"{res.total['evaluated']:,} decisions evaluated; seed {m['seed']}, {m['worlds']} worlds"
            f"{infer_words(m.get('infer', 0))}, rollouts by {m['policy']}; values in {m['value']}")


def infer_words(infer: int) -> str:
    """How the worlds were dealt, where not uniformly (the head line's words)."""
    return f" (each kept of {infer} by the rivals' play)" if infer else ""


def position_lines(w: dict, ad_phase: tuple, ad_detail: tuple) -> list[str]:
    lines = [f"[{w['kind']} {w['kind_name']}] {w.get('unit', 'deal')} {w['deal']}, seat {w['seat']}, decision "
             f"{w['decision']} ({ad_phase[0]} {w['phase']}, {ad_detail[0]} {w['detail']}): regret "
             f"{w['regret']:+.3f} ± {w['regret_ci']:.3f}"]
    lines += ["    " + x for x in w["position"]]
    lines.append("    actions (value ± 95 %):")
    for a in w["actions"]:
        mark = ("<- chosen" if a["chosen"] else "") + (" best" if a["best"] else "")
        lines.append(f"      {a['action']:<36} {a['value']:+8.3f} ± {a['ci']:.3f}  {mark.strip()}")
    lines.append(f"    {w['replay']}")
    return lines


def report_lines(res: CritiqueResult) -> list[str]:
    """What ``cardsim critique`` prints."""
    from cardsim.sim.tables import fit
    spec = get_game(res.meta["game"])
    ad = spec.critique
    out = [head_line(res), ""]
    head, rows = table_rows(res)
    out += _plain_table(head, rows)
    top = _top_phases(res)
    if len(top):
        out += ["", f"by kind and {ad['phase'][0]} ({ad['phase'][1]}), the largest losses:"]
        h2, r2 = table_rows(CritiqueResult(res.meta, res.decisions, res.summary, top, res.total, [], {}), True)
        out += _plain_table(h2, r2)
    if res.total.get("truncated_units"):
        out += ["", f"truncated: {res.total['truncated_units']:,} {spec.record_unit[1]} had more decisions of the "
                    "seat than the critique rows them (the rest were played, not critiqued)"]
    out += ["", f"not best: the evaluation's best action differs from the choice; regret: best minus chosen "
                f"({res.meta['value']}), 95 % intervals; blunders: regret above {res.meta['threshold']:g} and "
                f"significant at 95 %."]
    if res.worst:
        out += ["", "worst decisions:"]
        for w in res.worst:
            out += [""] + position_lines({**w, "unit": spec.record_unit[0]}, ad["phase"], ad["detail"])
    del fit
    return out


def _top_phases(res: CritiqueResult, k: int = 10) -> pd.DataFrame:
    if not len(res.phases):
        return res.phases
    df = res.phases[res.phases.evaluated > 0]
    return df.sort_values("loss_per_deal", ascending=False).head(k)


def _plain_table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
    fmt = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))  # noqa: E731
    return [fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]


def markdown_lines(res: CritiqueResult) -> list[str]:
    """The report (``critique.md``): the tables and the worst positions."""
    spec = get_game(res.meta["game"])
    ad = spec.critique
    out = [f"# cardsim critique: {spec.title}, {res.meta['strategy']}", "", head_line(res) + ".", ""]
    head, rows = table_rows(res)
    out += _md(head, rows)
    top = _top_phases(res)
    if len(top):
        out += ["", f"By kind and {ad['phase'][0]} ({ad['phase'][1]}), the largest losses:", ""]
        h2, r2 = table_rows(CritiqueResult(res.meta, res.decisions, res.summary, top, res.total, [], {}), True)
        out += _md(h2, r2)
    if res.worst:
        out += ["", "## Worst decisions", ""]
        for w in res.worst:
            out += ["```"] + position_lines({**w, "unit": spec.record_unit[0]}, ad["phase"], ad["detail"]) + ["```", ""]
    return out


def _md(head: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"] \
        + ["| " + " | ".join(r) + " |" for r in rows]


def summary_json(res: CritiqueResult) -> dict:
    return {"kinds": res.summary.to_dict("records"), "phases": res.phases.to_dict("records"), "total": res.total,
            "worst": res.worst, "timing": res.timing}


def _json_clean(obj):
    if isinstance(obj, dict):
        return {str(k): _json_clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_json_clean(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None
    return obj


def plot_png(res: CritiqueResult) -> bytes | None:
    """Loss per unit by kind with 95 % intervals (None without matplotlib or rows)."""
    try:
        import io

        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None
    df = res.summary[res.summary.evaluated > 0]
    if not len(df):
        return None
    spec = get_game(res.meta["game"])
    fig = Figure(figsize=(7, 0.5 * len(df) + 1.5))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    y = np.arange(len(df))
    ax.barh(y, df.loss_per_deal.fillna(0), xerr=df.loss_ci.fillna(0), color="#c0504d", capsize=3)
    ax.set_yticks(y, [f"{k} {n}" for k, n in zip(df.kind, df.name)])
    ax.invert_yaxis()
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(f"regret per {spec.record_unit[0]} ({res.meta['value']}), 95 % interval")
    ax.set_title(f"{spec.title}: where {res.meta['strategy']} loses")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


# ---- replay up to a decision ----------------------------------------------------------------

def replay_until(cfg, deal: int, step: int) -> tuple[list[dict], list[str]]:
    """(events up to decision ``step`` of the unit, the seat-to-act's view there): the deal of
    ``cfg`` (a RunConfig) played exactly as the batch plays it, stopped before that decision."""
    from cardsim.sim.trace import event
    spec = cfg.game
    ad = adapter(spec)
    opts = cfg.option_array
    n = cfg.n_players
    sids, params = seat_arrays(spec, cfg.seats)
    plug, pprm = seat_plugin(spec, cfg.seats, False)
    plugs = () if plug is None else (plug, pprm)
    prm = evaluator(spec, n, 1, None)
    names = [s.strategy.name for s in cfg.seats]
    for seat in range(n):
        rows, acts, snaps = CK.buffers(int(ad["max_rows"](opts, n)), int(ad["max_acts"]), int(ad["state_size"]))
        k, _, _ = held_call(ad["run"], cfg.seed, deal, opts, sids, params, seat, prm, 0.0, step + 1, rows, acts,
                            snaps, ad["trace"](opts)[:0], *plugs)
        if k and int(rows[k - 1, CK.CR_STEP]) == step:
            break
    else:
        raise UsageError(f"--until-decision {step}: deal {deal} ends after fewer decisions")
    trace = ad["trace"](opts)
    _, _, st = held_call(ad["run"], cfg.seed, deal, opts, sids, params, seat, prm, 0.0, step, rows, acts, snaps,
                         trace, *plugs)
    events = [e for e in (spec.trace_events(trace, st, names) if spec.trace_events else [])
              if e.get("action") not in ("result", "score")]
    r = rows[k - 1]
    kinds = spec.plugin["kinds"] if spec.plugin else {}
    view = [f"decision {step}: seat {seat} ({names[seat]}) to act, {_kind_name(kinds, int(r[CK.CR_KIND]))}, "
            f"{int(r[CK.CR_LEGAL])} legal actions; it played {ad['action_text'](int(CK.codes(r[CK.CR_CHOSEN_ACT:CK.CR_CHOSEN_ACT + 1])[0]))}"]
    if r[CK.CR_LEGAL] > 1:
        prm1 = prm
        rows2, acts2, snaps2 = CK.buffers(int(ad["max_rows"](opts, n)), int(ad["max_acts"]), int(ad["state_size"]))
        k2, _, _ = held_call(ad["run"], cfg.seed, deal, opts, sids, params, seat, prm1, 1.0, step + 1, rows2, acts2,
                             snaps2, ad["trace"](opts)[:0], *plugs)
        view += ["  " + x for x in ad["position"](snaps2[k2 - 1], seat, opts)]
    events.append(event("stop", view[0], seat))
    return events, view
