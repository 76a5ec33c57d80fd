"""Issue 18: every report plot of every game has a title and labelled axes, and no two of its
texts (tick labels, axis labels, titles, legends) overlap; a legend covers no axes.

Each game gets a small run file, compare and sweep dataset (a few dozen deals) and its
committed tune dataset (``results/tune/GAME``); the report of each is drawn and every figure
is checked, through ``report.FIGURE_HOOK``, with matplotlib's own bounding boxes after a draw.
"""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from cardsim.sim import experiment, report, runner  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# game: (players, run seats, compare candidates, (swept strategy, grid), deals)
GAMES = {
    "tonk": (3, ["greedy", "knocker:threshold=8", "watcher"], ["knocker:threshold=6", "knocker:threshold=8"],
             ("knocker", ["threshold=0:12:4"]), 300),
    "telefunken": (4, ["greedy", "chip_saver", "patient", "planner"], ["chip_saver:reserve=1", "chip_saver:reserve=3"],
                   ("chip_saver", ["reserve=0,1,2"]), 30),
    "contract_rummy": (4, ["greedy", "mayi", "cautious", "greedy"], ["mayi:max_mayi=0", "mayi:max_mayi=2"],
                       ("mayi", ["max_mayi=0,1,2"]), 12),
    "marafon": (4, ["heuristic", "greedy", "heuristic", "greedy"], ["heuristic", "greedy"],
                ("heuristic", ["honour_min=2,3,4"]), 30),
    "trionfo": (5, ["heuristic", "greedy", "heuristic", "greedy", "heuristic"], ["heuristic", "greedy"],
                ("heuristic", ["t1=5,7,9"]), 40),
    # two long labels that differ in one parameter: the plots must not print them alike
    "tripoli": (5, ["heuristic", "greedy", "heuristic", "fuzz", "strong"],
                ["heuristic:swap_below=3,sell_old=1,auction_widow=0", "heuristic:swap_below=3,sell_old=0,auction_widow=0"],
                ("heuristic", ["swap_below=2,3,4"]), 100),
}


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    d = tmp_path_factory.mktemp("layout_sources")
    out = {}
    for g, (n, seats, cands, (strat, grid), deals) in GAMES.items():
        out[g, "run"] = d / f"{g}.parquet"
        runner.run(runner.make_config(g, n, deals, 1, seats), str(out[g, "run"]))
        out[g, "compare"] = d / f"{g}-compare"
        experiment.run_experiment(experiment.make_compare(g, cands, players=n, seed=2), deals // 2,
                                  str(out[g, "compare"]))
        out[g, "sweep"] = d / f"{g}-sweep"
        experiment.run_experiment(experiment.make_sweep(g, strat, grid, players=n, seed=3), deals // 2,
                                  str(out[g, "sweep"]))
        out[g, "tune"] = ROOT / "results" / "tune" / g
    # many points: the payout distribution as a heatmap, a sweep over a long integer axis
    out["tonk", "many"] = d / "tonk-many"
    experiment.run_experiment(experiment.make_sweep("tonk", "knocker", ["threshold=0:30:1"], players=2, seed=4), 60,
                              str(out["tonk", "many"]))
    return out


def _texts(fig, renderer):
    """(what, text, window bbox) of every visible, non-empty title, axis label, tick label
    (ticks inside the view only: the ones drawn) and legend of the figure."""
    found = []

    def add(what, artist):
        if artist is not None and artist.get_visible() and artist.get_text().strip():
            found.append((what, artist.get_text(), artist.get_window_extent(renderer)))

    add("figure title", fig._suptitle)
    for i, ax in enumerate(fig.axes):
        for t in (ax.title, ax._left_title, ax._right_title):
            add(f"axes {i} title", t)
        add(f"axes {i} x label", ax.xaxis.label)
        add(f"axes {i} y label", ax.yaxis.label)
        for name, axis in (("x tick", ax.xaxis), ("y tick", ax.yaxis)):
            lo, hi = sorted(axis.get_view_interval())
            eps = 1e-9 * max(1.0, hi - lo)
            for loc, tick in zip(axis.get_majorticklocs(), axis.get_major_ticks()):
                if lo - eps <= loc <= hi + eps:
                    add(f"axes {i} {name}", tick.label1)
                    add(f"axes {i} {name}", tick.label2)
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    for j, leg in enumerate(legends):
        found.append((f"legend {j}", "(legend)", leg.get_window_extent(renderer)))
    return found


def _overlap(a, b, tol: float = 1.0) -> bool:
    """The boxes share more than a pixel's sliver (``Bbox.overlaps`` counts touching too)."""
    shrunk = a.padded(-tol)
    return shrunk.overlaps(b.padded(-tol)) if shrunk.width > 0 and shrunk.height > 0 else a.overlaps(b)


def layout_problems(name: str, fig) -> list[str]:
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    problems = []
    title = fig._suptitle.get_text().strip() if fig._suptitle is not None else ""
    for i, ax in enumerate(fig.axes):
        if hasattr(ax, "_colorbar"):
            if not (ax.get_xlabel().strip() or ax.get_ylabel().strip()):
                problems.append(f"{name}: colorbar {i} has no label")
            continue
        if not (title or ax.get_title().strip()):
            problems.append(f"{name}: axes {i} has no title")
        for which in ("x", "y"):
            group = getattr(ax, f"get_shared_{which}_axes")().get_siblings(ax)
            if not any(getattr(a, f"get_{which}label")().strip() for a in group):
                problems.append(f"{name}: axes {i} has no {which} label")
    texts = _texts(fig, r)
    frame = fig.bbox
    for k, (what, text, box) in enumerate(texts):
        if box.x0 < frame.x0 - 1 or box.y0 < frame.y0 - 1 or box.x1 > frame.x1 + 1 or box.y1 > frame.y1 + 1:
            problems.append(f"{name}: {what} {text!r} is cut by the figure's edge")
        for what2, text2, box2 in texts[k + 1:]:
            if _overlap(box, box2):
                problems.append(f"{name}: {what} {text!r} overlaps {what2} {text2!r}")
    for j, leg in enumerate(fig.legends):
        for i, ax in enumerate(fig.axes):
            if _overlap(leg.get_window_extent(r), ax.get_window_extent(r)):
                problems.append(f"{name}: figure legend {j} covers axes {i}")
    return problems


def _render(monkeypatch, source, out) -> dict:
    figures = {}
    monkeypatch.setattr(report, "FIGURE_HOOK", lambda name, fig: figures.setdefault(name, fig))
    report.write_report(str(source), str(out))
    return figures


EXPECTED = {"run": {"strategies.png", "payouts.png", "outcomes.png"},
            "compare": {"points.png", "payouts.png", "outcomes.png"},
            "sweep": {"sweep.png", "payouts.png", "outcomes.png"},
            "tune": {"convergence.png"}}


@pytest.mark.parametrize("kind", ["run", "compare", "sweep", "tune"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_plot_is_labelled_and_nothing_overlaps(game, kind, sources, tmp_path, monkeypatch):
    figures = _render(monkeypatch, sources[game, kind], tmp_path / "r")
    assert set(figures) == EXPECTED[kind]
    problems = [p for name, fig in figures.items() for p in layout_problems(f"{game} {kind} {name}", fig)]
    assert not problems, "\n".join(problems)


def test_many_points_heatmap_and_long_axis(sources, tmp_path, monkeypatch):
    figures = _render(monkeypatch, sources["tonk", "many"], tmp_path / "r")
    assert set(figures) == EXPECTED["sweep"]
    assert any(hasattr(ax, "_colorbar") for ax in figures["payouts.png"].axes)       # the heatmap
    problems = [p for name, fig in figures.items() for p in layout_problems(f"tonk many {name}", fig)]
    assert not problems, "\n".join(problems)
    ticks = [float(t) for t in figures["sweep.png"].axes[2].get_xticks()]
    assert all(t.is_integer() for t in ticks)                                       # whole thresholds


def _tick_texts(ax, axis: str = "y") -> list[str]:
    return [t.get_text() for t in getattr(ax, f"get_{axis}ticklabels")() if t.get_text()]


def test_two_long_labels_print_differently(sources, tmp_path, monkeypatch):
    """Tripoli's two candidates differ in sell_old only: each plot names them apart, short (the
    parameter that tells them apart on both, at its default too: issue 43)."""
    figures = _render(monkeypatch, sources["tripoli", "compare"], tmp_path / "r")
    for name in ("points.png", "outcomes.png"):
        labels = _tick_texts(figures[name].axes[0])
        assert len(labels) == 2 and len(set(labels)) == 2, labels
        assert "0: heuristic:sell_old=1" in labels[0] and "1: heuristic:sell_old=0" in labels[1], labels
        assert not any("pay_weight" in x for x in labels), labels       # parameters at their defaults
    legend = [t.get_text() for t in figures["payouts.png"].legends[0].get_texts()]
    assert legend == ["0: heuristic:sell_old=1", "1: heuristic:sell_old=0"], legend


def test_histogram_bars_are_centred_on_their_values(sources, tmp_path, monkeypatch):
    """Payout bars sit on a numeric axis: one value's group of bars is centred on its tick."""
    figures = _render(monkeypatch, sources["tonk", "run"], tmp_path / "r")
    ax = figures["payouts.png"].axes[0]
    bars = [p for p in ax.patches]
    groups: dict[int, list] = {}
    n = 3
    per = len(bars) // n
    for k in range(per):                       # bar k of every series belongs to the same value
        group = [bars[s * per + k] for s in range(n)]
        left = min(b.get_x() for b in group)
        right = max(b.get_x() + b.get_width() for b in group)
        groups[k] = (left + right) / 2
    ticks = set(float(t) for t in ax.get_xticks())
    centres = list(groups.values())
    assert all(abs(c - round(c)) < 1e-9 for c in centres)
    assert ticks <= {float(round(c)) for c in centres} | {min(ticks), max(ticks)}


def test_plot_labels_are_short_and_distinct():
    from cardsim.sim.report import _plot_labels
    # the parameter that tells two points apart shows on both, at its default too (issue 43)
    assert _plot_labels("tonk", ["knocker:threshold=8", "knocker:threshold=6"]) == \
        ["knocker:threshold=8", "knocker:threshold=6"]
    full = ["heuristic:swap_below=3,sell_old=1", "heuristic:swap_below=3,sell_old=0"]
    assert _plot_labels("tripoli", full) == ["heuristic:sell_old=1", "heuristic:sell_old=0"]
    # the same label twice stays one text; an unknown game's labels stay as they are
    assert _plot_labels("tonk", ["greedy", "greedy"]) == ["greedy", "greedy"]
    assert _plot_labels("chess", ["a:x=1", "a:x=2"]) == ["a:x=1", "a:x=2"]
