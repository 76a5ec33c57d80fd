"""The report of a ``cardsim tune`` dataset (``cardsim report TUNE_DIR --out R``): what was
tuned, one row per round (field, search, best point, its re-measurement on fresh deals), the
re-measured points of the last round, the convergence plot, and the line to paste."""
from __future__ import annotations

import math
from pathlib import Path

from cardsim.sim.errors import UsageError
from cardsim.sim.textsafe import md, md_code, term


def load_tune(path: Path) -> tuple[dict, dict]:
    """(summary, meta) of a tune dataset, checked for what the report reads, its
    ``evaluations.parquet`` too (``check_evaluations``); UsageError, one line."""
    from cardsim.sim.io import load_json
    from cardsim.sim.registry import game_names
    where = repr(str(path))
    try:
        doc = load_json((path / "_summary.json").read_text(encoding="utf-8"))
        summary, meta = doc["summary"], doc["meta"]
        rounds = summary["rounds"]
        if not isinstance(rounds, list) or not rounds:
            raise TypeError
        for r in rounds:
            r["round"], r["field"], r["best"], r["remeasured"], r["trials"], r["search_deals"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{where} is not a readable cardsim tune dataset ({exc.__class__.__name__})") from None
    if meta.get("game") not in game_names():
        raise UsageError(f"{where} has an invalid _summary.json: game {term(repr(meta.get('game')))} is not one of "
                         f"{', '.join(game_names())}")
    if not (path / "evaluations.parquet").is_file():
        raise UsageError(f"{where} has no evaluations.parquet: not a complete cardsim tune dataset")
    check_evaluations(path, meta)
    return summary, meta


def check_evaluations(path: Path, meta: dict) -> None:
    """``evaluations.parquet`` is readable and this tune dataset's: its footer holds the metadata
    of ``_summary.json`` and, when written by a cardsim that tags it, the dataset's identity
    (``io.part_tag``); a file without the tag (an older cardsim) is accepted on its metadata.
    UsageError, one line naming the file."""
    import pyarrow.parquet as pq
    from cardsim.sim.io import META_KEY, PART_KEY, load_json, part_tag
    from cardsim.sim.stats import json_clean
    where = repr(str(path))
    try:
        kv = pq.ParquetFile(path / "evaluations.parquet").metadata.metadata or {}
    except Exception as exc:  # noqa: BLE001 - whatever pyarrow makes of a damaged file
        raise UsageError(f"{where}: its evaluations.parquet cannot be read ({exc.__class__.__name__}; truncated or "
                         "corrupt)") from None
    try:
        theirs = load_json(kv[META_KEY]) if META_KEY in kv else None
        tag = load_json(kv[PART_KEY]) if PART_KEY in kv else None
    except (ValueError, UnicodeDecodeError):
        theirs = tag = False
    if theirs is False or not isinstance(theirs, dict) or json_clean(theirs) != json_clean(meta) \
            or (tag is not None and tag != part_tag(meta)):
        raise UsageError(f"{where}: its evaluations.parquet is not this tune dataset's (another run's, or its "
                         "metadata is missing or damaged)")


def _command(meta: dict) -> str:
    from cardsim.sim.tune import command_of
    try:
        return command_of(meta)
    except (KeyError, TypeError):
        return "(not recorded)"


def _n(x, d: int = 4) -> str:
    x = float("nan") if x is None else float(x)
    return "n/a" if not math.isfinite(x) else f"{x:+.{d}f}".replace("-", "−")


def _ci(lo, hi, d: int = 4) -> str:
    return f"{_n(lo, d)} – {_n(hi, d)}"


def tune_report(path: Path, out: Path, figure, save, payout_words, game_title) -> list[str]:
    import pyarrow as pa
    import pyarrow.parquet as pq
    summary, meta = load_tune(path)
    label, money = payout_words(meta["game"])
    rounds = summary["rounds"]
    boxes = meta.get("params") or []
    box_text = "; ".join(f"{md_code(b['name'])} in [{b['lo']:g}, {b['hi']:g}]" + (f" step {b['step']:g}"
                         if b.get("step") else "") for b in boxes)
    title = (f"{game_title(meta['game'])} tuning of {meta.get('strategy', '?').partition(':')[0]}, "
             f"{meta.get('players')} players" + (", iterated best response" if meta.get("self") else ""))
    lines = [f"# cardsim report: {md(title)}", "", "## What was run", "",
             f"- **Source:** {md_code(path)} (tune dataset)",
             f"- **Command:** {md_code(_command(meta))}",
             f"- **Game:** {meta['game']} (rules v{meta.get('rules_version', '?')}), {meta.get('players')} players"
             + (f", preset {md_code(meta['preset'])}" if meta.get("preset") else ""),
             f"- **Tuned:** {md_code(meta.get('strategy', '?'))}, {box_text}",
             f"- **Search:** optuna {meta.get('sampler')} sampler, successive halving from {meta.get('rung', 0):,} "
             f"deals (eta {meta.get('eta')}, {meta.get('rungs')} promotions), budget {meta.get('budget', 0):,} deals "
             f"a round, seed {meta.get('seed')}; the candidate sits at every seat against the field on duplicate "
             "deals",
             f"- **Re-measurement:** the best {meta.get('top')} points and the field on {meta.get('remeasure', 0):,} "
             "fresh deals (another seed); every interval below is from it (95%, Student t over deals)", ""]
    status = {"single": "one round", "converged": "converged: the best point of the last round does not beat its "
              "field (the field cannot be exploited within the family at this budget)",
              "cycle": "stopped at a cycle (a best point was an earlier round's field)",
              "not_converged": "NOT converged within --rounds"}.get(summary.get("status"), "?")
    if meta.get("self") and summary.get("status") in ("cycle", "not_converged"):
        status += f"; the least exploitable field met, round {summary.get('strong_round')}"
    lines += ["## Answer", "",
              f"- **Best:** {md_code(summary['best'])} ({status})",
              (f"- **Best response found against it:** {md_code(summary.get('best_response', '?'))}, gain "
               f"{_n(summary.get('gain'))} {money} a deal [{_ci(summary.get('gain_lo'), summary.get('gain_hi'))}]"
               if meta.get("self") else
               f"- **Against** {md_code(summary['field'])}: {_n(summary.get('best_mean'))} {money} a deal "
               f"[{_ci(summary.get('best_lo'), summary.get('best_hi'))}], gain over the field "
               f"{_n(summary.get('gain'))} [{_ci(summary.get('gain_lo'), summary.get('gain_hi'))}]"),
              f"- **Paste:** {md_code('--strategy ' + summary['best'])} or {md_code('--field ' + summary['best'])}"]
    for e in summary.get("edges") or []:
        lines.append(f"- **Warning:** {md(e)}")
    lines += ["", "## Rounds", "",
              "| round | field | trials | search deals | best | mean (re-measured) | 95% CI | gain over field | 95% CI |",
              "| ---: | :--- | ---: | ---: | :--- | ---: | ---: | ---: | ---: |"]
    for r in rounds:
        lines.append(f"| {r['round']} | {md_code(r['field'])} | {r['trials']} | {r['search_deals']:,} | "
                     f"{md_code(r['best'])} | {_n(r.get('best_mean'))} | {_ci(r.get('best_lo'), r.get('best_hi'))} | "
                     f"{_n(r.get('gain'))} | {_ci(r.get('gain_lo'), r.get('gain_hi'))} |")
    last = rounds[-1]
    lines += ["", f"## Re-measured points of round {last['round']}", "",
              "| point | mean | 95% CI | diff vs the field | 95% CI |", "| :--- | ---: | ---: | ---: | ---: |"]
    for i, p in enumerate(last["remeasured"]):
        lines.append(f"| {md_code(p['label'])}{' (the field)' if i == 0 else ''} | {_n(p.get('mean'))} | "
                     f"{_ci(p.get('lo'), p.get('hi'))} | {'-' if i == 0 else _n(p.get('diff'))} | "
                     f"{'-' if i == 0 else _ci(p.get('diff_lo'), p.get('diff_hi'))} |")
    try:
        ev = pq.read_table(path / "evaluations.parquet").to_pandas()
    except (OSError, ValueError, KeyError, IndexError, pa.ArrowException) as exc:
        raise UsageError(f"{str(path)!r}: its evaluations.parquet cannot be read ({exc.__class__.__name__}; "
                         "truncated or corrupt)") from None
    name = _convergence_plot(out, ev, rounds, figure, save, money, meta["game"], title)
    lines += ["", "## Convergence", "",
              "Each dot is a trial at the deepest depth it reached (larger: more deals); the line is the best "
              "mean so far among the trials measured on the most deals; the band is the best point's "
              "re-measured 95% interval on fresh deals.", "", f"![convergence]({name})", ""]
    return lines


def _field_title(game: str, r: dict) -> str:
    """``round N: field LABEL``, the label short (parameters at their defaults left out) and
    broken at commas so it fits above its panel."""
    from cardsim.sim.registry import short_label
    label = short_label(game, str(r["field"]))
    name, colon, rest = label.partition(":")
    lines, cur = [f"round {r['round']}: field {name}{colon}"], ""
    for part in filter(None, rest.split(",")):
        if cur and len(cur) + len(part) > 60:
            lines.append(cur + ",")
            cur = ""
        cur += ("," if cur else "") + part
    if cur:
        lines.append(cur)
    return "\n".join(lines) if rest else lines[0]


def _convergence_plot(out: Path, ev, rounds: list, figure, save, money: str, game: str = "",
                      title: str = "") -> str:
    from matplotlib.ticker import MaxNLocator
    k = len(rounds)
    titles = [_field_title(game, r) for r in rounds]
    fig = figure(7.5, 1.0 + sum(2.9 + 0.2 * t.count("\n") for t in titles))
    axes = fig.subplots(k, 1, squeeze=False)[:, 0]
    search = ev[ev["phase"] == "search"]
    for ax, r in zip(axes, rounds):
        s = search[search["round"] == r["round"]]
        deepest = s.sort_values("deals").groupby("trial").tail(1).sort_values("trial")
        full = deepest["deals"].max() if len(deepest) else 0
        ax.scatter(deepest["trial"], deepest["mean"], s=8 + 40 * deepest["deals"] / max(1, full),
                   alpha=0.6, color="#1f77b4", label="trial (mean at its deepest rung)")
        best, xs, ys = -math.inf, [], []
        for t, d, m in zip(deepest["trial"], deepest["deals"], deepest["mean"]):
            if d == full and m > best:
                best = m
            if math.isfinite(best):
                xs.append(t)
                ys.append(best)
        ax.step(xs, ys, where="post", color="#d62728", label="best so far (fully measured)")
        lo, hi = r.get("best_lo"), r.get("best_hi")
        if lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi):
            ax.axhspan(lo, hi, color="#2ca02c", alpha=0.2, label="best, re-measured 95% CI")
        ax.set_title(titles[axes.tolist().index(ax)], fontsize=10)
        ax.set_xlabel("trial (number)")
        ax.set_ylabel(f"mean payout ({money})")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    handles, labels = axes[0].get_legend_handles_labels()
    for ax in axes[1:]:                         # a band shows only where a round was re-measured
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="outside lower center", ncol=min(3, len(handles)), frameon=False, fontsize=9)
    import textwrap
    fig.suptitle(textwrap.fill(f"Convergence · {title}" if title else "Convergence", 70))
    return save(fig, out, "convergence.png")
