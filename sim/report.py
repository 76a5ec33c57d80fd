"""``cardsim report``: a Markdown report with PNG plots of a run file or an experiment dataset.

Sources:

* a run file (``cardsim run --out FILE``): per-strategy and per-seat win rates and mean
  payouts with 95% intervals, the payout distribution of every seat, outcome frequencies;
* an experiment dataset directory (``cardsim compare/sweep --out DIR``): the per-point
  table of ``_summary.json``, curves with 95% bands for sweeps over a numeric parameter (one
  curve per value of the other parameters) or bars with 95% error bars otherwise, the
  paired difference to point 0, the payout distribution and outcome frequencies per point,
  and a reading of the best point (with its paired difference to the runner-up).

Record data are read in bounded-memory batches (payouts are small integers: histograms are
integer bincounts). matplotlib is an optional extra (``pip install 'cardsim[report]'``); the
figures are drawn on the Agg canvas without pyplot, so no global backend is switched.
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import math
import os
import re
import shutil
from pathlib import Path

import numpy as np

from cardsim.sim.errors import OutputError, UsageError
from cardsim.sim.textsafe import md, md_code, term

REPORT_NAME = "report.md"
SUMMARY_NAMES = ("_summary.json", "summary.json")
MAX_VALUES = 41          # distinct payout values shown one by one; wider ranges are binned
MAX_BARS = 6             # series drawn as grouped bars; more series -> heatmap
PAIRED_CHUNK = 1 << 20   # rows per point read at once for the paired best-vs-runner-up difference
STYLE = {
    "font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "xtick.labelsize": 10,
    "ytick.labelsize": 10, "legend.fontsize": 10, "figure.titlesize": 13,
    "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
    "grid.alpha": 0.3, "grid.linewidth": 0.6, "savefig.facecolor": "white", "figure.facecolor": "white",
    "text.parse_math": False,       # labels come from files: a $ is a dollar sign, never mathtext
}
DPI = 110
C_PAY, C_WIN, C_DIFF = "#1f77b4", "#2ca02c", "#d62728"


# ---- entry point ----------------------------------------------------------------------

STAGES = {"run": 4, "experiment": 4, "tune": 1}     # reading the records, then each plot
_STAGE = contextvars.ContextVar("report_stage", default=None)


def _stage(note: str) -> None:
    """One stage of the report done (the records read, a plot drawn): told to ``progress``."""
    step = _STAGE.get()
    if step is not None:
        step(note)


def write_report(source: str, out_dir: str, overwrite: bool = False, progress=None) -> Path:
    """Write ``out_dir/report.md`` and its PNG plots for a run file or an experiment dataset
    directory; returns the Markdown path. Bad input raises UsageError (one line).
    ``progress(done, total, note)`` hears each stage (the records read, each plot written).

    The report is drawn into a hidden ``.DIR.partial-*`` directory beside ``out_dir`` and renamed
    into place when complete (``sim.store``): an existing ``out_dir`` is refused unless it is
    empty, or ``overwrite`` is given and it is a previous cardsim report (report.md and PNG
    files only), which is then replaced atomically. A write that fails (a full disk) removes
    what it wrote and raises OutputError."""
    from cardsim.sim.store import OutputSlot, why_failed
    src = Path(source)
    kind = _source_kind(src)
    mpl = _matplotlib()
    out, made = _prepare_out(out_dir)
    try:
        slot = OutputSlot(out, "report", overwrite)
    except BaseException:
        _remove_dirs(made)
        raise
    total = STAGES[kind]
    done = [0]

    def step(note: str) -> None:
        done[0] = min(done[0] + 1, total)
        progress(done[0], total, note)

    token = _STAGE.set(step if progress is not None else None)
    if progress is not None:
        progress(0, total, "reading the records")
    try:
        tmp = slot.partial()
        try:
            with mpl.rc_context(STYLE):
                if kind == "tune":
                    from cardsim.sim.tune_report import tune_report
                    lines = tune_report(src, tmp, _figure, _save, _payout_words, _game_title)
                else:
                    lines = _run_report(src, tmp) if kind == "run" else _experiment_report(src, tmp)
            (tmp / REPORT_NAME).write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
            slot.place(tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)     # what is left of it (nothing once placed)
    except OSError as exc:
        slot.remove_work()
        _remove_dirs(made)
        kept = f"the previous {str(out)!r} unchanged" if slot.replace else "nothing"
        raise OutputError(f"{why_failed(exc)} while writing the report to {str(out)!r}; removed its partial "
                          f"files, kept {kept}") from None
    except BaseException:
        slot.remove_work()
        _remove_dirs(made)
        raise
    finally:
        _STAGE.reset(token)
    slot.remove_work()
    if progress is not None:
        progress(total, total, "")
    return out / REPORT_NAME


def _source_kind(src: Path) -> str:
    if not src.exists():
        raise UsageError(f"no such file or directory: {str(src)!r}")
    if src.is_dir():
        if _summary_file(src) is None:
            raise UsageError(f"{str(src)!r} is not a cardsim output: a directory must be a compare/sweep "
                             "dataset with _summary.json (a run is reported from its Parquet file)")
        if _kind_of(src) == "tune":
            from cardsim.sim.tune_report import load_tune
            load_tune(src)         # checked before anything is written
            return "tune"
        _load_experiment(src)      # its _summary.json checked before anything is written
        return "experiment"
    from cardsim.sim.io import read_meta, read_run_meta
    meta, _ = read_meta(src)       # UsageError if not Parquet / not cardsim
    if "kind" in meta:
        raise UsageError(f"{str(src)!r} is one part of a {term(meta['kind'])} dataset; report its directory instead")
    read_run_meta(src)             # the metadata a report reads, checked before anything is written
    return "run"


def _kind_of(src: Path):
    try:
        from cardsim.sim.io import load_json
        return load_json(_summary_file(src).read_text(encoding="utf-8"))["meta"]["kind"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _summary_file(path: Path) -> Path | None:
    """The dataset's summary: ``_summary.json`` (``summary.json`` in older layouts)."""
    return next((path / n for n in SUMMARY_NAMES if (path / n).is_file()), None)


def _matplotlib():
    try:
        import matplotlib
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401  (the Agg backend)
    except ImportError:
        raise UsageError("the report needs matplotlib: pip install 'cardsim[report]'") from None
    return matplotlib


def _prepare_out(out_dir: str) -> tuple[Path, list[Path]]:
    """The report directory's path, after creating its missing parent directories (returned,
    innermost first, to be removed again if the report fails)."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"cannot write the report to {str(out)!r}: it exists and is not a directory")
    parent = out.parent if str(out.parent) else Path(".")
    made = []
    p = parent
    while not os.path.lexists(p) and p != p.parent:
        made.append(p)
        p = p.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _remove_dirs(made)
        raise UsageError(f"cannot create the report directory {str(out)!r}: {exc.strerror or exc}") from None
    if not os.access(parent, os.W_OK | os.X_OK) or (out.is_dir() and not os.access(out, os.W_OK | os.X_OK)):
        _remove_dirs(made)
        raise UsageError(f"cannot write the report to {str(out)!r}: permission denied")
    return out, made


def _remove_dirs(dirs: list[Path]) -> None:
    """Remove directories this report created (innermost first), if still empty."""
    for d in dirs:
        try:
            d.rmdir()
        except OSError:
            return


# ---- formatting -------------------------------------------------------------------------

def _f(x) -> float:
    return float("nan") if x is None else float(x)


def _digits(halfwidths) -> int:
    """Decimals that show two significant digits of the narrowest finite interval half-width."""
    hs = [h for h in (abs(_f(v)) for v in halfwidths) if math.isfinite(h) and h > 0]
    if not hs:
        return 4
    return int(min(6, max(1, 1 - math.floor(math.log10(min(hs))))))


def _num(x, d: int) -> str:
    x = _f(x)
    if not math.isfinite(x):
        return "n/a"
    text = f"{x:+.{d}f}"
    return ("+" + text[1:]) if float(text) == 0 else text.replace("-", "−")


def _pct(x, d: int = 2) -> str:
    x = _f(x)
    return "n/a" if not math.isfinite(x) else f"{100 * x:.{d}f}%"


def _ci(lo, hi, fmt) -> str:
    return "n/a" if not (math.isfinite(_f(lo)) and math.isfinite(_f(hi))) else f"{fmt(lo)} – {fmt(hi)}"


def _cell(x) -> str:
    return str(x).replace("|", "\\|")


def _table(header: list[str], rows: list[list], align: str | None = None) -> list[str]:
    align = align or "l" + "r" * (len(header) - 1)
    sep = ["---:" if a == "r" else ":---" for a in align]
    return ["| " + " | ".join(_cell(h) for h in header) + " |", "| " + " | ".join(sep) + " |"] + [
        "| " + " | ".join(_cell(c) for c in r) + " |" for r in rows] + [""]


def _wrap(label: str, width: int = 24) -> str:
    """Long strategy labels on several lines: ``name:`` then the parameters, broken at commas."""
    if len(label) <= width:
        return label
    name, colon, rest = label.partition(":")
    if not colon:
        rest = label
    parts = [p + "," for p in rest.split(",")]
    parts[-1] = parts[-1][:-1]
    lines = [name + colon] if colon else []
    cur = ""
    for p in parts:
        if cur and len(cur) + len(p) > width:
            lines.append(cur)
            cur = ""
        cur += p
    lines.append(cur)
    return "\n".join(lines)


def _plot_labels(game: str, labels: list[str]) -> list[str]:
    """Strategy labels short enough for a plot and still distinct (``registry.short_labels``:
    the parameters off their defaults and those that tell two points apart). The tables keep
    the full labels."""
    from cardsim.sim.registry import short_labels
    short = short_labels(game, labels)
    return [short[str(lab)] for lab in labels]


def _image(lines: list[str], name: str | None, alt: str) -> None:
    if name:
        lines.extend([f"![{alt}]({name})", ""])


def _options_lines(game_name: str, options: dict, preset) -> str:
    """Options that differ from the game's defaults, as ``name=value`` text."""
    try:
        from cardsim.sim.options import options_dict
        from cardsim.sim.registry import get_game
        defaults = json.loads(json.dumps(options_dict(get_game(game_name).options_cls())))  # as stored
    except Exception:   # an unknown game (file from another version): list every option
        defaults = {}
    diff = [md_code(f"{k}={_opt_text(v)}") for k, v in options.items() if defaults.get(k, object()) != v]
    text = ", ".join(diff) if diff else "all defaults"
    return (f"preset {md_code(preset)}; " if preset else "") + text


def _opt_text(v) -> str:
    if isinstance(v, dict):
        return ",".join(f"{k}:{x}" for k, x in v.items()) or "none"
    if isinstance(v, list):
        return ",".join(map(str, v))
    if isinstance(v, bool):
        return str(v).lower()
    return "none" if v is None else str(v)


def _deal_text(meta: dict, deals: int) -> str:
    text = f"{deals:,}"
    if meta.get("first_deal"):
        text += f" (deal indices {meta['first_deal']:,} – {meta['first_deal'] + deals - 1:,})"
    if meta.get("until_ci") is not None:
        text += f"; played until the 95% half-width reached {meta['until_ci']:g} (cap {meta.get('max_deals') or 0:,})"
    return text


def _even_shares(name: str, n: int) -> int:
    """Among how many the wins are shared evenly: the seats, or a partnership game's sides."""
    try:
        from cardsim.sim.registry import get_game
        return len(get_game(name).sides) or n
    except Exception:  # noqa: BLE001 - an unknown game: its seats
        return n


def _record_units(name: str) -> tuple[str, str]:
    """(singular, plural) of what a record of the game is: ("deal", "deals") for Tonk."""
    try:
        from cardsim.sim.registry import get_game
        return tuple(get_game(name).record_unit)
    except Exception:
        return "deal", "deals"


def _payout_words(name: str) -> tuple[str, str]:
    """(label, unit) of a game's payout column: ("payout (chips)", "chips") for Tonk."""
    try:
        from cardsim.sim.registry import get_game
        g = get_game(name)
        return g.payout_label, g.payout_unit
    except Exception:
        return "payout (chips)", "chips"


def _game_title(name: str) -> str:
    try:
        from cardsim.sim.registry import get_game
        return get_game(name).title
    except Exception:
        return name


# ---- histograms ---------------------------------------------------------------------------

class IntHist:
    """Counts of integer values: the distinct values seen (sorted) and their counts, so a
    wide range (stakes of a million chips, a damaged file) costs no more than a narrow one."""

    def __init__(self):
        self.values = np.zeros(0, dtype=np.int64)       # distinct values, ascending
        self.n = np.zeros(0, dtype=np.int64)            # their counts

    def add(self, values) -> None:
        v = np.asarray(values, dtype=np.int64)
        if v.size == 0:
            return
        u, c = np.unique(v, return_counts=True)
        counts = np.concatenate([self.n, c])
        self.values, inv = np.unique(np.concatenate([self.values, u]), return_inverse=True)
        self.n = np.zeros(len(self.values), dtype=np.int64)
        np.add.at(self.n, inv, counts)

    @property
    def lo(self) -> int:
        return int(self.values[0]) if self.values.size else 0

    @property
    def counts(self) -> np.ndarray:
        """Dense counts of every value lo..hi (small ranges; tests)."""
        if not self.values.size:
            return np.zeros(0, dtype=np.int64)
        dense = np.zeros(int(self.values[-1]) - self.lo + 1, dtype=np.int64)
        dense[self.values - self.lo] = self.n
        return dense

    @property
    def total(self) -> int:
        return int(self.n.sum())

    def span(self) -> tuple[int, int] | None:
        return (int(self.values[0]), int(self.values[-1])) if self.values.size else None

    def mean(self) -> float:
        return float((self.values.astype(np.float64) * self.n).sum()) / max(self.total, 1)


def _common_bins(hists: list[IntHist]) -> list[tuple[int, int]]:
    """(first, last) value of each displayed bin: single values, or ~30 equal bins if the
    range is wide."""
    spans = [h.span() for h in hists if h.span() is not None]
    if not spans:
        return []
    lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
    if hi - lo + 1 <= MAX_VALUES:
        return [(v, v) for v in range(lo, hi + 1)]
    width = math.ceil((hi - lo + 1) / 30)
    return [(a, min(a + width - 1, hi)) for a in range(lo, hi + 1, width)]


def _binned(h: IntHist, bins) -> np.ndarray:
    out = np.zeros(len(bins))
    for i, (a, b) in enumerate(bins):
        out[i] = h.n[(h.values >= a) & (h.values <= b)].sum()
    return out


def _bin_label(b) -> str:
    a, c = b
    s = lambda v: f"{v:+d}".replace("-", "−") if v else "0"  # noqa: E731
    return s(a) if a == c else f"{s(a)}…{s(c)}"


# ---- figures ------------------------------------------------------------------------------

def _figure(w: float, h: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(w, min(h, 40.0)), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


FIGURE_HOOK = None      # tests: called as FIGURE_HOOK(name, fig) before each figure is saved


def _save(fig, out: Path, name: str) -> str:
    if FIGURE_HOOK is not None:
        FIGURE_HOOK(name, fig)
    fig.savefig(out / name, dpi=DPI)
    _stage(f"drew {name}")
    return name


def _ci_handle(color="black"):
    from matplotlib.lines import Line2D
    return Line2D([], [], color=color, marker="|", markersize=10, linewidth=1.5, label="95% CI")


def _thin_ticks(ax, axis: str, labels: list[str], positions, max_labels: int = 30) -> None:
    step = max(1, math.ceil(len(labels) / max_labels))
    pos = list(positions)[::step]
    lab = labels[::step]
    if axis == "y":
        ax.set_yticks(pos, lab)
    else:
        ax.set_xticks(pos, lab)


def _bin_ticks(ax, axis: str, labels: list[str], positions, width_in: float) -> None:
    """Bin labels along x that never crowd: level while they fit side by side, else turned
    upright; thinned to one label every few bins when even that is too tight."""
    longest = max((len(t) for t in labels), default=1)
    per_in = 72 / (0.62 * 10 * max(longest, 1) + 8)       # labels per inch, upright (10 pt text)
    if len(labels) <= per_in * 0.8 * width_in:
        _thin_ticks(ax, axis, labels, positions, len(labels))
        return
    _thin_ticks(ax, axis, labels, positions, max(1, int(0.8 * width_in * 72 / 16)))   # upright: ~16 pt apart
    ax.tick_params(axis=axis, labelrotation=90)


def _hbars(ax, labels, values, lo, hi, color, fmt, ref=None, ref_style="--", texts=None) -> None:
    """Horizontal bars with 95% CI error bars, the value (or ``texts``) printed beside each bar."""
    y = np.arange(len(labels))
    v = np.array([_f(x) for x in values])
    lo_ = np.array([_f(x) for x in lo])
    hi_ = np.array([_f(x) for x in hi])
    err = np.vstack([np.where(np.isfinite(lo_), v - lo_, 0), np.where(np.isfinite(hi_), hi_ - v, 0)])
    err = np.clip(np.nan_to_num(err), 0, None)
    vz = np.nan_to_num(v)
    ax.barh(y, vz, color=color, alpha=0.75, height=0.6)
    ax.errorbar(vz, y, xerr=err, fmt="none", ecolor="black", elinewidth=1.5, capsize=5)
    ax.set_yticks(y, labels)
    if not ax.yaxis_inverted():     # shared y axes invert together
        ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    if ref is not None:
        ax.axvline(ref, color="0.3", linewidth=1.2, linestyle=ref_style)
    ends_lo, ends_hi = vz - err[0], vz + err[1]
    x0 = min(float(ends_lo.min(initial=0)), ref or 0, 0)
    x1 = max(float(ends_hi.max(initial=0)), ref or 0, 0)
    span = (x1 - x0) or 1.0
    texts = texts or [None] * len(v)
    if len(labels) <= 20:
        for yi, vi, a, b, t in zip(y, v, ends_lo, ends_hi, texts):
            if not math.isfinite(vi):
                continue
            right = vi >= 0
            ax.annotate(t or fmt(vi), (b if right else a, yi), xytext=(6 if right else -6, 0),
                        textcoords="offset points", ha="left" if right else "right", va="center", fontsize=10,
                        bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none", alpha=0.8))
    # room for the printed values on the side(s) they are printed
    left_room = 0.3 * span if np.any(vz < 0) else 0.02 * span
    right_room = 0.3 * span if np.any(vz >= 0) else 0.02 * span
    ax.set_xlim(x0 - left_room, x1 + right_room)


def _legend_below(fig, n_players: int | None = None, even_share: bool = False, zero_label: str = "zero") -> None:
    from matplotlib.lines import Line2D
    handles = [_ci_handle(), Line2D([], [], color="0.3", linestyle="--", label=zero_label)]
    if even_share and n_players:
        handles.append(Line2D([], [], color="0.3", linestyle=":", linewidth=1.5,
                              label=f"even share of wins (1/{n_players})"))
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), frameon=False)


def _distribution_plot(out: Path, name: str, title: str, series: list[tuple[str, IntHist]], ylabel_kind: str,
                       unit: str = "deals", label: str = "payout (chips)") -> str | None:
    """Grouped bars (few series) or a heatmap (many) of the share of each payout value."""
    bins = _common_bins([h for _, h in series])
    if not bins or not any(h.total for _, h in series):
        return None
    shares = np.array([_binned(h, bins) / max(h.total, 1) for _, h in series])
    xl = [_bin_label(b) for b in bins]
    if len(series) <= MAX_BARS:
        # a numeric x axis in the payout's unit: each bin's group of bars is centred on the
        # bin's middle value, the ticks are whole numbers, as many as fit
        fig = _figure(min(16.0, max(9.0, 0.3 * len(bins) * len(series) + 2)), 5.5)
        ax = fig.add_subplot()
        mids = np.array([(a + b) / 2 for a, b in bins])
        span = np.array([b - a + 1 for a, b in bins], dtype=float)
        w = 0.8 * span / len(series)
        colors = [f"C{i}" for i in range(10)]
        for i, (lab, _) in enumerate(series):
            ax.bar(mids - 0.4 * span + w * (i + 0.5), 100 * shares[i], width=w, label=lab,
                   color=colors[i % 10], alpha=0.85)
        from matplotlib.ticker import FuncFormatter, MaxNLocator
        if len(bins) <= 25 and all(a == b for a, b in bins):
            ax.set_xticks(mids)
        else:
            ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _bin_label((int(round(v)),) * 2)))
        ax.set_xlim(bins[0][0] - 0.5, bins[-1][1] + 0.5)
        ax.set_ylabel(f"share of {unit} (%)")
        ax.grid(axis="x", visible=False)
        ax.set_ylim(0, 100 * float(shares.max()) * 1.12)
        fig.legend(*ax.get_legend_handles_labels(), title=ylabel_kind, loc="outside lower center", frameon=False,
                   ncol=min(len(series), 3))
    else:
        n = len(series)
        height = min(40.0, 1.4 + 0.34 * n)
        fig = _figure(max(8.0, 0.55 * len(bins) + 4), height)
        ax = fig.add_subplot()
        ax.grid(False)
        im = ax.imshow(100 * shares, aspect="auto", cmap="Blues", vmin=0, interpolation="nearest")
        _bin_ticks(ax, "x", xl, range(len(bins)), fig.get_figwidth())
        _thin_ticks(ax, "y", [lab.replace("\n", " ") for lab, _ in series], range(n), int(height / 0.3))
        ax.set_ylabel(ylabel_kind)
        if len(bins) <= 25 and height / n >= 0.3:
            top = float(np.max(shares)) or 1.0
            for i in range(n):
                for j in range(len(bins)):
                    s = shares[i, j]
                    if s > 0:
                        txt = f"{100 * s:.0f}" if s >= 0.095 else (f"{100 * s:.1f}" if s >= 0.0005 else "<0.1")
                        ax.text(j, i, txt, ha="center",
                                va="center", fontsize=8 if len(bins) > 12 else 9,
                                color="white" if s > 0.6 * top else "black")
        fig.colorbar(im, ax=ax, label=f"share of {unit} (%)", shrink=min(0.9, 5.0 / height), aspect=20,
                     anchor=(0.0, 1.0))
    ax.set_xlabel(label + ("" if all(a == b for a, b in bins) else
                           f", in bins of {bins[0][1] - bins[0][0] + 1}"))
    fig.suptitle(title)
    return _save(fig, out, name)


def _reason_colors(names) -> dict:
    return {r: f"C{i % 10}" for i, r in enumerate(names)}


# ---- run files ----------------------------------------------------------------------------

def _run_report(path: Path, out: Path) -> list[str]:
    from cardsim.sim.io import iter_record_batches
    from cardsim.sim.runner import summarize_file
    res = summarize_file(path)          # checks the metadata and the records (UsageError)
    s, meta, timing = _clean(res.summary), _clean(res.meta), _clean(res.timing)
    n, deals = int(meta["players"]), int(s["deals"])
    hists = [IntHist() for _ in range(n)]
    with _rows_read(path):
        for batch in iter_record_batches(path, columns=[f"payout_{p}" for p in range(n)]):
            for p in range(n):
                hists[p].add(batch[f"payout_{p}"])
    _stage("read the records")
    one, many = _record_units(meta["game"])
    head = f"{meta['game']} · {n} players · {deals:,} {many} · seed {meta['seed']}"
    title = f"{_game_title(meta['game'])}: {n} players, {deals:,} {many}"
    label, money = _payout_words(meta["game"])

    lines = [f"# cardsim report: {md(title)}", ""]
    lines += ["## What was run", ""]
    lines += [f"- **Source:** {md_code(path)} (run file)",
              f"- **Game:** {meta['game']} (rules v{meta.get('rules_version', '?')}), {n} players",
              f"- **{many.capitalize()}:** {_deal_text(meta, deals)}",
              f"- **Seed:** {meta['seed']}",
              "- **Seats:** " + "; ".join(f"{r['seat']}: {md_code(r['label'])}" for r in meta["seats"]),
              f"- **Rule options:** {_options_lines(meta['game'], meta.get('options', {}), meta.get('preset'))}"]
    if timing.get("wall_time_s"):
        lines.append(f"- **Played:** {md(timing.get('created_utc', '?'))}, {timing['wall_time_s']:.2f} s"
                     + (f" ({timing['deals_per_s']:,.0f} {many}/s)" if timing.get("deals_per_s") else ""))
    lines += ["", "Intervals are 95%: Wilson for rates, Student t for means. "
              + (f"Payouts are in chips (stake units); a {one}'s payouts sum to zero over the seats."
                 if money == "chips" else f"Payouts are the {label}: higher is better."), ""]
    if deals == 0:
        return lines + [f"The file holds no {many}: nothing to report.", ""]

    strat = s["strategies"]
    d = _digits([(r["payout_hi"] - r["payout_lo"]) / 2 for r in strat + s["seats"] if r["payout_hi"] is not None])
    lines += ["## Strategies", ""]
    lines += _table(["strategy", "seats", "win rate", "95% CI", f"mean {label}", "95% CI"],
                    [[f"{md_code(r['strategy'])}", ",".join(map(str, r["seats"])), _pct(r["win_rate"]),
                      _ci(r["win_lo"], r["win_hi"], _pct), _num(r["mean_payout"], d),
                      _ci(r["payout_lo"], r["payout_hi"], lambda x: _num(x, d))] for r in strat])
    shares = _even_shares(meta["game"], n)
    lines += [f"Win rate is per seat (a strategy held by k seats: share of {many} one of them won, divided by k)."
              if shares == n else "Win rate is per side (partnerships: a seat wins when its side wins).", ""]
    _image(lines, _run_strategy_plot(out, strat, shares, head, d, money, meta["game"], (one, many)),
           "win rate and mean payout per strategy")

    lines += ["## Seats", ""]
    lines += _table(["seat", "strategy", "win rate", "95% CI", f"mean {label}", "95% CI"],
                    [[str(r["seat"]), f"{md_code(r['strategy'])}", _pct(r["win_rate"]), _ci(r["win_lo"], r["win_hi"], _pct),
                      _num(r["mean_payout"], d), _ci(r["payout_lo"], r["payout_hi"], lambda x: _num(x, d))]
                     for r in s["seats"]], "rlrrrr")

    lines += ["## Payout distribution", ""]
    lines += _distribution_table([(f"{p}: {md_code(meta['seats'][p]['label'])}", hists[p]) for p in range(n)], "seat",
                                 unit=many, money=money)
    seat_labels = _plot_labels(meta["game"], [meta["seats"][p]["label"] for p in range(n)])
    series = [(f"{p}: {_wrap(seat_labels[p], 32)}", hists[p]) for p in range(n)]
    _image(lines, _distribution_plot(out, "payouts.png", f"Payout per {one} by seat · {head}", series, "seat",
                                     unit=many, label=label),
           "payout distribution per seat")

    lines += ["## Outcomes", ""]
    lines += _table(["end reason", many, "share", "95% CI"],
                    [[md(r["end_reason"]), f"{r['count']:,}", _pct(r["rate"]), _ci(r["lo"], r["hi"], _pct)]
                     for r in s["outcomes"]])
    lines += [f"Mean turns per {one}: {s['mean_turns']:.2f}; {many} stopped by the turn cap (truncated): "
              f"{s['truncated']:,} ({_pct(s['truncated'] / deals if deals else None)}).", ""]
    _image(lines, _run_outcome_plot(out, s["outcomes"], meta.get("reason_names", []), head, deals, many),
           "outcome frequencies")
    return lines


def _run_strategy_plot(out: Path, strat: list[dict], n: int, head: str, d: int, money: str = "chips",
                       game: str = "", units: tuple[str, str] = ("deal", "deals")) -> str:
    labels = [_wrap(x) for x in _plot_labels(game, [r["strategy"] for r in strat])]
    lines_per = max(lab.count("\n") + 1 for lab in labels)
    fig = _figure(13, 2.4 + len(labels) * max(0.6, 0.3 * lines_per + 0.25))
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    _hbars(ax1, labels, [r["mean_payout"] for r in strat], [r["payout_lo"] for r in strat],
           [r["payout_hi"] for r in strat], C_PAY, lambda x: _num(x, d), ref=0.0)
    ax1.set_xlabel(f"mean payout per {units[0]} ({money})")
    ax1.set_title("Mean payout")
    _hbars(ax2, labels, [100 * _f(r["win_rate"]) for r in strat], [100 * _f(r["win_lo"]) for r in strat],
           [100 * _f(r["win_hi"]) for r in strat], C_WIN, lambda x: f"{x:.1f}%", ref=100 / n, ref_style=":")
    ax2.set_xlabel(f"{units[1]} won per seat (%)")
    ax2.set_title("Win rate")
    ax1.set_ylabel("strategy")
    fig.suptitle(f"Per strategy · {head}")
    _legend_below(fig, n, True, "break-even (0 chips)" if money == "chips" else "zero")
    return _save(fig, out, "strategies.png")


def _run_outcome_plot(out: Path, outcomes: list[dict], names, head: str, deals: int,
                      many: str = "deals") -> str | None:
    rows = [r for r in outcomes if r["count"] > 0]
    if not rows:
        return None
    colors = _reason_colors(names or [r["end_reason"] for r in outcomes])
    fig = _figure(10, 1.6 + 0.5 * len(rows))
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    v = np.array([100 * r["rate"] for r in rows])
    err = np.clip([[100 * (r["rate"] - r["lo"]) for r in rows], [100 * (r["hi"] - r["rate"]) for r in rows]],
                  0, None)     # a rate of 0 or 1: the Wilson end may sit a rounding error inside it
    ax.barh(y, v, color=[colors.get(r["end_reason"], "C0") for r in rows], alpha=0.85, height=0.6)
    ax.errorbar(v, y, xerr=err, fmt="none", ecolor="black", elinewidth=1.5, capsize=5)
    ax.set_yticks(y, [r["end_reason"] for r in rows])
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    for yi, r in zip(y, rows):
        ax.annotate(f"{_share(r['count'], deals)}  ({r['count']:,})", (100 * r["hi"], yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=10)
    ax.set_xlim(0, max(v) * 1.3 + 1)
    ax.set_xlabel(f"share of {many} (%)")
    ax.set_ylabel("end reason")
    ax.set_title(f"How the {many} ended · {head}")
    fig.legend(handles=[_ci_handle()], loc="outside lower center", frameon=False)
    return _save(fig, out, "outcomes.png")


def _share(count, total) -> str:
    if not count:
        return "·"
    x = count / max(total, 1)
    return "<0.1%" if x < 0.0005 else f"{100 * x:.1f}%"


def _distribution_table(series: list[tuple[str, IntHist]], what: str, unit: str = "deals",
                        money: str = "chips") -> list[str]:
    bins = _common_bins([h for _, h in series])
    if not bins:
        return ["No payouts recorded.", ""]
    header = [what] + [_bin_label(b) for b in bins] + ["mean"]
    rows = []
    for lab, h in series:
        c = _binned(h, bins)
        tot = max(h.total, 1)
        mean = h.mean()
        rows.append([lab] + [_share(x, tot) for x in c] + [_num(mean, 3)])
    binned = "" if all(a == b for a, b in bins) else " (binned)"
    return [f"Share of {unit} by payout in {money}{binned} (· = never):", ""] + _table(header, rows)


# ---- experiment datasets ---------------------------------------------------------------------

def _clean(x):
    """Every string of a file's JSON (keys too) through ``textsafe.term``: no control or
    invisible character reaches the report text or a plot."""
    if isinstance(x, str):
        return term(x)
    if isinstance(x, dict):
        return {_clean(k): _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def _load_experiment(path: Path) -> tuple[dict, dict]:
    """(summary, meta) of a dataset's _summary.json, checked for what the report reads (a
    known game and player count, a compare/sweep kind, points with labels and numbers; the
    values ``io.check_meta`` validates), its part files checked to be this dataset's
    (``io.check_parts``: none of another run, moved between points, or damaged), and cleaned
    (``_clean``); UsageError, one line, for anything else."""
    from cardsim.sim.io import check_meta, check_parts, load_json
    from cardsim.sim.registry import game_names, get_game
    where = repr(str(path))
    try:
        doc = load_json(_summary_file(path).read_text(encoding="utf-8"))
        summary, meta = doc["summary"], doc["meta"]
        if isinstance(meta, dict) and meta.get("kind") == "critique":
            raise UsageError(f"{where} is a critique: its report is critique.md there and its decisions "
                             "part-0.parquet (summarize and report read run, compare, sweep and tune outputs)")
        summary["points"], meta["kind"], meta["points"]
    except UsageError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{where} is not a cardsim output: unreadable _summary.json "
                         f"({exc.__class__.__name__})") from None
    bad = f"{where} has an invalid _summary.json"
    if not isinstance(summary, dict) or not isinstance(meta, dict):
        raise UsageError(f"{bad}: its summary and meta are not tables")
    if meta.get("game") not in game_names():
        raise UsageError(f"{bad}: game {term(repr(meta.get('game')))} is not one of {', '.join(game_names())}")
    if meta.get("kind") not in ("compare", "sweep"):
        raise UsageError(f"{bad}: kind {term(repr(meta.get('kind')))} is not compare or sweep")
    lo, hi, _ = get_game(meta["game"]).players
    n = meta.get("players")
    if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
        raise UsageError(f"{bad}: players {term(repr(n))} is not a {meta['game']} player count ({lo}..{hi})")
    for key in ("seed", "first_deal"):
        if isinstance(meta.get(key), bool) or not isinstance(meta.get(key, 0), int):
            raise UsageError(f"{bad}: {key} is not a whole number")
    deals = summary.get("deals")
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or deals < 0):
        raise UsageError(f"{bad}: deals is not a whole number")
    pts, mpts = summary["points"], meta["points"]
    if not isinstance(pts, list) or not isinstance(mpts, list) or len(pts) != len(mpts):
        raise UsageError(f"{bad}: its summary and meta list different points")
    numbers = ("mean_payout", "payout_lo", "payout_hi", "win_rate", "win_lo", "win_hi", "diff", "diff_lo", "diff_hi")
    for i, (r, m) in enumerate(zip(pts, mpts)):
        if not isinstance(r, dict) or not isinstance(m, dict) or r.get("point") != i:
            raise UsageError(f"{bad}: point {i} is not described")
        if not isinstance(r.get("label"), str) or not isinstance(m.get("lineups", []), list):
            raise UsageError(f"{bad}: point {i} has no label")
        if any(r.get(k) is not None and (isinstance(r[k], bool) or not isinstance(r[k], (int, float)))
               for k in numbers):
            raise UsageError(f"{bad}: point {i} has a statistic that is not a number")
        if not isinstance(m.get("params") or {}, dict) or not isinstance(m.get("options") or {}, dict):
            raise UsageError(f"{bad}: point {i} has malformed parameters or options")
    names = meta.get("reason_names")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise UsageError(f"{bad}: its end-reason names are not a list of names")
    check_meta(meta, where, "an invalid _summary.json")
    if deals is not None and deals != meta["deals"]:
        raise UsageError(f"{bad}: its summary counts {deals:,} deals, its meta {meta['deals']:,}")
    check_parts(path, meta)
    return _clean(summary), _clean(meta)


def _partitions(path: Path) -> dict[int, Path]:
    parts = {}
    for d in path.glob("point-*"):
        m = re.fullmatch(r"point-(\d+)", d.name)
        if m and d.is_dir() and any(d.glob("*.parquet")):
            parts[int(m.group(1))] = d
    return parts


@contextlib.contextmanager
def _rows_read(where):
    """Rows of a dataset that cannot be read (a page damaged past the footers ``io.check_parts``
    read): one UsageError line naming the folder, never pyarrow's traceback, and never taken for
    a failure to write the report (an OSError)."""
    import pyarrow as pa
    try:
        yield
    except (OSError, ValueError, KeyError, IndexError, pa.ArrowException) as exc:
        raise UsageError(f"{term(repr(str(where)))}: its rows cannot be read ({exc.__class__.__name__}; truncated "
                         "or corrupt part file?)") from None


def _scan_points(parts: dict[int, Path], reason_names: list[str]) -> dict[int, tuple[IntHist, np.ndarray]]:
    """Per point: payout histogram and end-reason counts (rows = one lineup of one deal)."""
    out = {}
    for k, d in sorted(parts.items()):
        with _rows_read(d):
            out[k] = _scan_point(d, reason_names)
    return out


def _scan_point(d: Path, reason_names: list[str]) -> tuple[IntHist, np.ndarray]:
    import pyarrow.dataset as ds
    hist = IntHist()
    reasons = np.zeros(len(reason_names), dtype=np.int64)
    dataset = ds.dataset(str(d), format="parquet")
    for batch in dataset.to_batches(columns=["payout", "end_reason"], batch_size=1 << 18):
        hist.add(batch.column("payout").to_numpy(zero_copy_only=False))
        er = batch.column("end_reason")
        if hasattr(er, "dictionary"):
            names = er.dictionary.to_pylist()
            codes = np.array([reason_names.index(x) if x in reason_names else -1 for x in names], dtype=np.int64)
            idx = codes[er.indices.to_numpy(zero_copy_only=False)]
        else:
            idx = np.asarray(er.to_numpy(zero_copy_only=False), dtype=np.int64)
        reasons += np.bincount(idx[idx >= 0], minlength=len(reason_names))[: len(reason_names)]
    return hist, reasons


def paired_difference(path, a: int, b: int, lineups: int, first_deal: int,
                      deals: int) -> tuple[float, float, float, float, int]:
    """(mean, lo, hi, se, deals) of the paired difference X_b(d) - X_a(d) between points
    ``a`` and ``b`` of a dataset, X(d) = mean payout over the lineups of deal d; read in
    deal ranges (bounded memory). Rows that cannot be read are a UsageError."""
    with _rows_read(path):
        return _paired_difference(Path(path), a, b, lineups, first_deal, deals)


def _paired_difference(path: Path, a: int, b: int, lineups: int, first_deal: int, deals: int):
    import pyarrow.dataset as ds
    from cardsim.sim.stats import mean_ci
    sets = [ds.dataset(str(path / f"point-{k}"), format="parquet") for k in (a, b)]
    chunk = max(1, PAIRED_CHUNK // max(lineups, 1))
    s = ss = 0.0
    n = 0
    for lo in range(first_deal, first_deal + deals, chunk):
        hi = min(lo + chunk, first_deal + deals)
        flt = (ds.field("deal_id") >= lo) & (ds.field("deal_id") < hi)
        xs, cnt = [], []
        for dset in sets:
            t = dset.to_table(columns=["deal_id", "payout"], filter=flt)
            idx = t.column("deal_id").to_numpy() - lo
            xs.append(np.bincount(idx, weights=t.column("payout").to_numpy().astype(np.float64), minlength=hi - lo))
            cnt.append(np.bincount(idx, minlength=hi - lo))
        ok = (cnt[0] == lineups) & (cnt[1] == lineups)
        dd = (xs[1][ok] - xs[0][ok]) / lineups
        s += float(dd.sum())
        ss += float((dd * dd).sum())
        n += int(ok.sum())
    mean, mlo, mhi, se = mean_ci(s, ss, n)
    return mean, mlo, mhi, se, n


def _axes(meta: dict) -> list[tuple[str, list[str], bool]]:
    """Sweep axes in grid order: (name, distinct values as text, numeric?)."""
    names: dict[str, list[str]] = {}
    for p in meta["points"]:
        for k, v in (p.get("params") or {}).items():
            vals = names.setdefault(k, [])
            if str(v) not in vals:
                vals.append(str(v))
    out = []
    for k, vals in names.items():
        try:
            [float(v) for v in vals]
            numeric = True
        except ValueError:
            numeric = False
        out.append((k, vals, numeric))
    return out


def _candidate(meta_point: dict) -> str:
    lu = (meta_point.get("lineups") or [{}])[0]
    seats = lu.get("seats") or []
    k = lu.get("counted_seat", 0)
    return seats[k] if 0 <= k < len(seats) else meta_point.get("label", "?")


def _experiment_report(path: Path, out: Path) -> list[str]:
    summary, meta = _load_experiment(path)
    pts = summary["points"]
    mpts = meta["points"]
    kind, n, deals = meta["kind"], int(meta["players"]), int(summary.get("deals") or 0)
    lineups = len(mpts[0].get("lineups") or [1]) if mpts else 1
    axes = _axes(meta) if kind == "sweep" else []
    reason_names = list(meta.get("reason_names") or [])
    parts = _partitions(path)
    scans = _scan_points(parts, reason_names) if deals else {}
    one, many = _record_units(meta.get("game", ""))
    _stage("read the records")

    base = _candidate(mpts[0]).partition(":")[0] if mpts else "?"
    if kind == "sweep":
        what = f"{base} sweep over {', '.join(a for a, _, _ in axes) or 'a grid'}"
    else:
        what = f"comparison of {len(pts)} strategies"
    title = f"{_game_title(meta['game'])} {what}, {n} players, {deals:,} duplicate {many}"
    head = f"{meta['game']} · {n} players · {deals:,} duplicate {many} · seed {meta['seed']}"
    label, money = _payout_words(meta["game"])

    lines = [f"# cardsim report: {md(title)}", "", "## What was run", ""]
    lines += [f"- **Source:** {md_code(path)} ({kind} dataset)",
              f"- **Game:** {meta['game']} (rules v{meta.get('rules_version', '?')}), {n} players",
              f"- **{many.capitalize()}:** {_deal_text(meta, deals)}, the same {many} for every point",
              f"- **Seed:** {meta['seed']}"]
    if meta.get("field"):
        lines.append(f"- **Lineups:** the candidate sits at each of the {n} seats in turn, every other seat plays "
                     f"the field {md_code(meta['field'])} ({lineups} lineups per {one})")
    else:
        lines.append(f"- **Lineups:** the strategies sit together and rotate through all {n} seat assignments "
                     f"({lineups} lineups per {one})")
    if kind == "sweep":
        lines.append(f"- **Swept strategy:** {md_code(base)}; grid: "
                     + "; ".join(f"{md_code(a)} = {md(', '.join(v))}" for a, v, _ in axes))
    else:
        lines.append("- **Candidates:** " + "; ".join(f"{p['point']}: {md_code(p['label'])}" for p in pts))
    lines.append(f"- **Rule options:** {_common_options(meta)}")
    seq = summary.get("sequential")
    if seq:
        state = "reached" if seq.get("reached") else f"not reached (hit the cap on {many})"
        lines.append(f"- **Precision target:** half-width {seq['target']:g} {state}: {_f(seq['half_width']):.4g} "
                     f"after {seq['looks']} looks")
    lines += ["", f"Per {one}, a point scores X = its candidate's payout averaged over the lineups ({money}) and "
              f"W = the share of lineups it won. Intervals are 95% (Student t over {many}). The difference to "
              f"point 0 is paired: both points played the very same {many} from the same seats, which removes "
              f"most of the luck of the cards (variance reduction = how many times more {many} unpaired play "
              "would need).", ""]
    if deals == 0 or not pts:
        return lines + [f"The dataset holds no {many}: nothing to report.", ""]

    best, reading = _reading(path, summary, meta, parts, lineups, money)
    lines += ["## Reading", "", reading, ""]

    d = _digits([(_f(r["payout_hi"]) - _f(r["payout_lo"])) / 2 for r in pts]
                + [(_f(r["diff_hi"]) - _f(r["diff_lo"])) / 2 for r in pts[1:]])
    lines += ["## Points", ""]
    rows = []
    for r in pts:
        first = r["point"] == 0
        vr = _f(r.get("variance_reduction"))
        rows.append([str(r["point"]), f"{md_code(r['label'])}" + (" **(best)**" if r["point"] == best else ""),
                     _num(r["mean_payout"], d), _ci(r["payout_lo"], r["payout_hi"], lambda x: _num(x, d)),
                     _pct(r["win_rate"]), _ci(r["win_lo"], r["win_hi"], _pct),
                     "reference" if first else _num(r["diff"], d),
                     "" if first else _ci(r["diff_lo"], r["diff_hi"], lambda x: _num(x, d)),
                     "" if first or not math.isfinite(vr) else f"{vr:.2f}×"])
    lines += _table(["point", "label", f"mean {label}", "95% CI", "win rate", "95% CI",
                     f"diff vs point 0 ({money})", "95% CI", "variance reduction"], rows, "rlrrrrrrr")
    # the plots print short labels (parameters at their defaults left out; the table above has them all)
    plot_pts = [{**r, "label": lab} for r, lab in zip(pts, _plot_labels(meta["game"], [r["label"] for r in pts]))]
    x_axis = next(((a, v) for a, v, num in axes if num and len(v) > 1), None)
    if x_axis is not None:
        name = _sweep_plot(out, plot_pts, mpts, axes, x_axis[0], best, head, base, money, one)
        _image(lines, name, f"mean payout, win rate and difference to point 0 against {x_axis[0]}")
    else:
        plot_what = (f"{base} sweep over {' × '.join(a for a, _, _ in axes)}" if kind == "sweep"
                     else f"Comparison of {len(pts)} strategies")
        _image(lines, _points_plot(out, plot_pts, best, head, d, plot_what, _even_shares(meta["game"], n), money,
                                   one),
               "mean payout, win rate and difference per point")

    lines += ["## Payout distribution", ""]
    if not scans:
        lines += ["The dataset's Parquet parts are missing: no distribution.", ""]
    else:
        shown = [r for r in pts if r["point"] in scans]
        lines += _distribution_table([(f"{r['point']}: {md_code(r['label'])}", scans[r["point"]][0]) for r in shown],
                                     "point", many, money)
        series = [(f"{r['point']}: {_wrap(r['label'], 32)}", scans[r["point"]][0]) for r in plot_pts
                  if r["point"] in scans]
        lines += [f"Every lineup of every {one} counts once (the candidate's seat): {lineups:,} × {deals:,} "
                  f"{many} per point.", ""]
        _image(lines, _distribution_plot(out, "payouts.png", f"Candidate's payout per {one} by point · {head}",
                                         series, "point", many, label), "payout distribution per point")

    lines += ["## Outcomes", ""]
    if not scans:
        lines += ["The dataset's Parquet parts are missing: no outcome frequencies.", ""]
    else:
        used = [i for i in range(len(reason_names)) if any(sc[1][i] for sc in scans.values())]
        rows = []
        for r in pts:
            if r["point"] not in scans:
                continue
            c = scans[r["point"]][1]
            tot = max(int(c.sum()), 1)
            rows.append([f"{r['point']}: {md_code(r['label'])}"] + [_share(c[i], tot) for i in used] + [f"{tot:,}"])
        lines += [f"Share of {many} (all lineups) by how they ended; reasons that never occurred are left out.", ""]
        lines += _table(["point"] + [md(reason_names[i]) for i in used] + [many], rows)
        if all(r.get("truncated_share") is not None for r in pts):
            lines += [f"{many.capitalize()} stopped by a turn cap (truncated): " + "; ".join(
                f"{r['point']}: {int(r['truncated']):,} ({_pct(r['truncated_share'])})" for r in pts) + ".", ""]
        else:
            lines += [f"{many.capitalize()} stopped by a turn cap (truncated): not recorded in this dataset.", ""]
        _image(lines, _outcome_stack_plot(out, plot_pts, scans, reason_names, used, head, many),
               "outcome frequencies per point")
    return lines


def _common_options(meta: dict) -> str:
    opts = [p.get("options") or {} for p in meta["points"]]
    if not opts:
        return "all defaults"
    common = {k: v for k, v in opts[0].items() if all(o.get(k) == v for o in opts[1:])}
    varying = [k for k in opts[0] if k not in common]
    text = _options_lines(meta["game"], common, meta.get("preset"))
    return text + (f" (varied by the grid: {', '.join(f'{md_code(k)}' for k in varying)})" if varying else "")


def _reading(path: Path, summary: dict, meta: dict, parts: dict, lineups: int,
             money: str = "chips") -> tuple[int, str]:
    pts = summary["points"]
    ranked = sorted((r for r in pts if math.isfinite(_f(r["mean_payout"]))), key=lambda r: -_f(r["mean_payout"]))
    if not ranked:
        return -1, "No point has a finite mean payout."
    b = ranked[0]
    d = _digits([(_f(r["payout_hi"]) - _f(r["payout_lo"])) / 2 for r in pts]
                + [(_f(r["diff_hi"]) - _f(r["diff_lo"])) / 2 for r in pts[1:]])
    fmt = lambda x: _num(x, d)  # noqa: E731
    one, many = _record_units(meta.get("game", ""))
    text = (f"The best point by mean payout is **{md(b['label'])}**: {fmt(b['mean_payout'])} {money} per {one} "
            f"(95% CI {_ci(b['payout_lo'], b['payout_hi'], fmt)}), win rate {_pct(b['win_rate'])} "
            f"(95% CI {_ci(b['win_lo'], b['win_hi'], _pct)})")
    r2 = ranked[1] if len(ranked) > 1 else None
    if b["point"] != 0 and (r2 is None or r2["point"] != 0):
        text += (f", {fmt(b['diff'])} {money} per {one} better than point 0 {md_code(pts[0]['label'])} "
                 f"(paired 95% CI {_ci(b['diff_lo'], b['diff_hi'], fmt)})")
    text += "."
    if r2 is not None:
        diff = None
        if r2["point"] == 0:
            diff = (_f(b["diff"]), _f(b["diff_lo"]), _f(b["diff_hi"]))
        elif b["point"] == 0:
            diff = (-_f(r2["diff"]), -_f(r2["diff_hi"]), -_f(r2["diff_lo"]))
        elif b["point"] in parts and r2["point"] in parts:
            m, lo, hi, _, _ = paired_difference(path, r2["point"], b["point"], lineups,
                                                int(meta.get("first_deal") or 0), int(summary["deals"]))
            diff = (m, lo, hi)
        who = f"{md_code(r2['label'])}" + (" (point 0)" if r2["point"] == 0 else "")
        if diff is not None and all(math.isfinite(x) for x in diff):
            m, lo, hi = diff
            if m == lo == hi == 0:
                text += f" The runner-up {who} scored exactly the same on every {one}."
            else:
                verdict = ("so the lead is significant at 95%" if lo > 0 else
                           f"so the two are not distinguishable at this number of {many}")
                text += (f" It leads the runner-up {who} by {fmt(m)} {money} per {one} "
                         f"(paired 95% CI {fmt(lo)} – {fmt(hi)}), {verdict}.")
        else:
            text += f" The runner-up is {who} at {fmt(r2['mean_payout'])} {money} per {one}."
    return b["point"], text


def _sweep_plot(out: Path, pts, mpts, axes, xname: str, best: int, head: str, base: str,
                money: str = "chips", one: str = "deal") -> str:
    """Three stacked panels against the x parameter: mean payout, win rate, paired difference
    to point 0, each with its 95% band; one curve per combination of the other axes."""
    others = [a for a, _, _ in axes if a != xname]
    params = {m["point"] if "point" in m else i: m.get("params") or {} for i, m in enumerate(mpts)}
    groups: dict[tuple, list[dict]] = {}
    for r in pts:
        p = params.get(r["point"], {})
        key = tuple(str(p.get(a)) for a in others)
        groups.setdefault(key, []).append(r)
    numeric_other = len(others) == 1 and next(num for a, _, num in axes if a == others[0])
    fig = _figure(10, 11)
    axs = fig.subplots(3, 1, sharex=True)
    n_groups = len(groups)
    if numeric_other and n_groups > 1:
        from matplotlib import colormaps
        cmap = colormaps["viridis"]
        vals = sorted(float(k[0]) for k in groups)
        span = (vals[-1] - vals[0]) or 1.0
        color_of = {k: cmap(0.9 * (float(k[0]) - vals[0]) / span) for k in groups}
        keys = sorted(groups, key=lambda k: float(k[0]))
    else:
        color_of = {k: f"C{i % 10}" for i, k in enumerate(groups)}
        keys = list(groups)
    panels = [("mean_payout", "payout_lo", "payout_hi", f"mean payout per {one} ({money})", 1.0, C_PAY),
              ("win_rate", "win_lo", "win_hi", "win rate (%)", 100.0, C_WIN),
              ("diff", "diff_lo", "diff_hi", f"difference to point 0 ({money})", 1.0, C_DIFF)]
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    for ax, (col, lo, hi, ylabel, scale, single_color) in zip(axs, panels):
        for k in keys:
            rows = sorted(groups[k], key=lambda r: float(params[r["point"]][xname]))
            x = np.array([float(params[r["point"]][xname]) for r in rows])
            y = scale * np.array([_f(r[col]) for r in rows])
            ylo = scale * np.array([_f(r[lo]) for r in rows])
            yhi = scale * np.array([_f(r[hi]) for r in rows])
            c = single_color if n_groups == 1 else color_of[k]
            lab = ", ".join(f"{a}={v}" for a, v in zip(others, k)) if others else None
            ax.fill_between(x, ylo, yhi, color=c, alpha=0.2, linewidth=0)
            ax.plot(x, y, color=c, marker="o", markersize=5, linewidth=2, label=lab)
            for r, xi, yi in zip(rows, x, y):
                if r["point"] == best:
                    ax.plot([xi], [yi], marker="*", markersize=17, color="gold", markeredgecolor="black",
                            zorder=5, linestyle="none")
        if col != "win_rate":
            ax.axhline(0, color="0.3", linewidth=1, linestyle="--")
        ax.set_ylabel(ylabel)
    axs[0].set_title("Mean payout of the candidate")
    axs[1].set_title("Win rate of the candidate")
    axs[2].set_title(f"Paired difference to point 0 ({pts[0]['label']})")
    is_option = xname in (mpts[0].get("options") or {})
    axs[2].set_xlabel(f"{xname} ({'rule option' if is_option else base + ' parameter'})")
    xs = sorted({float(params[r["point"]][xname]) for r in pts})
    if len(xs) <= 21:
        axs[2].set_xticks(xs, [f"{v:g}" for v in xs])
    elif all(v.is_integer() for v in xs):
        from matplotlib.ticker import MaxNLocator
        axs[2].xaxis.set_major_locator(MaxNLocator(integer=True))
    band = Patch(color="0.5", alpha=0.3, label="95% CI band")
    star = Line2D([], [], marker="*", markersize=14, color="gold", markeredgecolor="black", linestyle="none",
                  label="best mean payout")
    handles = (axs[0].get_legend_handles_labels()[0] if n_groups > 1 else []) + [band, star]
    fig.legend(handles=handles, loc="outside lower center", frameon=False, fontsize=9 if n_groups > 6 else 10,
               ncol=min(len(handles), 4))
    fig.suptitle(f"{base} sweep over {' × '.join(a for a, _, _ in axes)} · {head}")
    return _save(fig, out, "sweep.png")


def _points_plot(out: Path, pts, best: int, head: str, d: int, what: str, n: int, money: str = "chips",
                 one: str = "deal") -> str:
    labels = [f"{r['point']}: " + _wrap(r["label"] + (" ★" if r["point"] == best else "")) for r in pts]
    lines_per = max(lab.count("\n") + 1 for lab in labels)
    fig = _figure(15, 2.6 + len(labels) * max(0.6, 0.3 * lines_per + 0.25))
    ax1, ax2, ax3 = fig.subplots(1, 3, sharey=True)
    _hbars(ax1, labels, [r["mean_payout"] for r in pts], [r["payout_lo"] for r in pts],
           [r["payout_hi"] for r in pts], C_PAY, lambda x: _num(x, d), ref=0.0)
    ax1.set_xlabel(f"mean payout per {one} ({money})")
    ax1.set_title("Mean payout")
    _hbars(ax2, labels, [100 * _f(r["win_rate"]) for r in pts], [100 * _f(r["win_lo"]) for r in pts],
           [100 * _f(r["win_hi"]) for r in pts], C_WIN, lambda x: f"{x:.1f}%", ref=100 / n, ref_style=":")
    ax2.set_xlabel("share of lineups won (%)")
    ax2.set_title("Win rate")
    _hbars(ax3, labels, [r["diff"] for r in pts], [r["diff_lo"] if r["point"] else float("nan") for r in pts],
           [r["diff_hi"] if r["point"] else float("nan") for r in pts], C_DIFF, lambda x: _num(x, d), ref=0.0,
           texts=["reference" if r["point"] == 0 else None for r in pts])
    ax3.set_xlabel(f"difference to point 0 ({money} per {one})")
    ax3.set_title("Paired difference to point 0")
    ax1.set_ylabel("point: candidate strategy")
    fig.suptitle(f"{what} · {head}  (★ best mean payout)")
    _legend_below(fig, n, True, "zero (break-even / no difference)")
    return _save(fig, out, "points.png")


def _outcome_stack_plot(out: Path, pts, scans, reason_names, used, head: str, many: str = "deals") -> str | None:
    rows = [r for r in pts if r["point"] in scans]
    if not rows or not used:
        return None
    colors = _reason_colors(reason_names)
    labels = [f"{r['point']}: {_wrap(r['label'], 32)}" for r in rows]
    lines_per = max(lab.count("\n") + 1 for lab in labels)
    legend_rows = 1 if len(used) <= 7 else 2
    height = min(40.0, 2.4 + 0.3 * legend_rows + len(rows) * max(0.36, 0.2 * lines_per + 0.12))
    fig = _figure(12, height)
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    left = np.zeros(len(rows))
    totals = [max(int(scans[r["point"]][1].sum()), 1) for r in rows]
    shares = np.array([scans[r["point"]][1] / t for r, t in zip(rows, totals)])
    from cardsim.sim.stats import wilson
    for i in used:
        w = 100 * shares[:, i]
        ax.barh(y, w, left=left, color=colors[reason_names[i]], height=0.7, label=reason_names[i],
                edgecolor="white", linewidth=0.5)
        # the 95% (Wilson) interval of the segment's share round its right edge; every lineup's game
        # counts as one trial, as the share does (lineups of one deal are not independent: approximate)
        ci = [wilson(int(scans[r["point"]][1][i]), t) for r, t in zip(rows, totals)]
        err = np.clip([[100 * (c[0] - c[1]) for c in ci], [100 * (c[2] - c[0]) for c in ci]], 0, None)
        ax.errorbar(left + w, y, xerr=err, fmt="none", ecolor="black", elinewidth=1, capsize=3)
        if height / len(rows) >= 0.3:
            for yi, l0, wi in zip(y, left, w):
                if wi >= 6:
                    ax.text(l0 + wi / 2, yi, f"{wi:.0f}%", ha="center", va="center", fontsize=9, color="white")
        left += w
    _thin_ticks(ax, "y", labels, y, max(1, int(height / (0.2 * lines_per + 0.1))))
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(f"share of {many} (%)")
    ax.set_ylabel("point")
    fig.suptitle(f"How the {many} ended, by point · {head}")
    handles, names = ax.get_legend_handles_labels()
    fig.legend(handles + [_ci_handle()], names + ["95% interval of a share"], loc="outside lower center",
               frameon=False, ncol=len(used) + 1 if len(used) <= 6 else math.ceil((len(used) + 1) / 2))
    return _save(fig, out, "outcomes.png")
