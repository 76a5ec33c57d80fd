"""Notes that say what a comparison's or sweep's figures mean where they could mislead (the
command line prints them under its tables; ``cardsim.api`` results carry them as ``notes``)."""
from __future__ import annotations

import math

from cardsim.sim.stats import Z95


def point_notes(summary: dict, meta: dict) -> list[str]:
    """Lines that say what a comparison's or sweep's figures mean where they could mislead:
    a variance reduction below 1, a sweep axis (rule option or parameter) whose values gave
    identical figures, a best sweep point on the edge of a numeric axis that is above its
    neighbour on that axis at 95 % (else the edge says nothing about the grid being too narrow)."""
    notes = []
    pts = summary["points"]
    low = [r for r in pts if r["point"] and r.get("variance_reduction") is not None
           and not math.isnan(r["variance_reduction"]) and r["variance_reduction"] < 1]
    if low:
        worst = ", ".join(f"point {r['point']} {r['variance_reduction']:.2f}x" for r in low[:4])
        notes.append(f"variance reduction below 1 ({worst}): the points' results are negatively correlated on "
                     "the same deals (at a shared table one strategy's gain is another's loss), so the paired "
                     "difference varies more than two independent measurements would; its interval above is "
                     "the right one for it.")
    if meta.get("kind") != "sweep" or len(pts) < 2 or not summary.get("deals"):
        return notes
    mpts = meta.get("points") or []
    if len(mpts) != len(pts):
        return notes
    axes = list((mpts[0].get("params") or {}).keys())
    figures = [tuple(r.get(k) for k in ("mean_payout", "payout_se", "win_rate", "win_se", "truncated")) for r in pts]
    for name in axes:
        groups: dict = {}
        for mp, fig in zip(mpts, figures):
            rest = tuple((k, v) for k, v in mp["params"].items() if k != name)
            groups.setdefault(rest, set()).add(fig)
        values = list(dict.fromkeys(mp["params"][name] for mp in mpts))
        if len(values) > 1 and all(len(g) == 1 for g in groups.values()):
            kind = "option" if name in (mpts[0].get("options") or {}) else "parameter"
            notes.append(f"{kind} {name} ({', '.join(map(str, values))}) does not change the measured quantity "
                         "here: the points that differ only in it have identical figures (the counted seats' "
                         "results are the same on every deal), so their rows repeat each other.")
    best = max(range(len(pts)), key=lambda i: -math.inf if pts[i]["mean_payout"] is None
               or math.isnan(pts[i]["mean_payout"]) else pts[i]["mean_payout"])
    for name in axes:
        try:
            values = sorted({float(mp["params"][name]) for mp in mpts})
            at = float(mpts[best]["params"][name])
        except (TypeError, ValueError):
            continue                # a categorical axis has no edge
        if len(values) >= 3 and at in (values[0], values[-1]):
            nb = neighbour(mpts, best, name, values[1] if at == values[0] else values[-2])
            if nb is None or not distinguishable(pts[best], pts[nb]):
                continue            # the edge point may be no better than the one beside it: nothing to widen
            side = "smallest" if at == values[0] else "largest"
            bound = param_bound(meta, mpts[best], name)
            beyond = ("it is also the parameter's own bound, so nothing lies beyond" if bound is not None
                      and at == bound[0 if at == values[0] else 1] else "the best may lie beyond it (widen the grid)")
            notes.append(f"the best point ({best}: {pts[best]['label']}) lies on the edge of the grid: {name} = "
                         f"{mpts[best]['params'][name]} is the {side} value swept; {beyond}.")
    return notes


def neighbour(mpts: list[dict], best: int, name: str, value: float) -> int | None:
    """The point beside ``best`` on axis ``name`` (``value`` there, every other axis as at
    ``best``), or None."""
    want = {k: v for k, v in mpts[best]["params"].items() if k != name}
    for i, mp in enumerate(mpts):
        try:
            if float(mp["params"][name]) == value and {k: v for k, v in mp["params"].items() if k != name} == want:
                return i
        except (TypeError, ValueError):
            continue
    return None


def distinguishable(b: dict, other: dict) -> bool:
    """Whether point ``b``'s mean payout is above ``other``'s at 95 %: paired where one of them
    is point 0 (the other's difference interval), else by the two points' own standard errors (their
    paired interval, positively correlated on the same deals, is narrower: this errs toward
    saying nothing)."""
    if other["point"] == 0 and b.get("diff_lo") is not None and b["point"] != 0:
        return b["diff_lo"] > 0
    if b["point"] == 0 and other.get("diff_hi") is not None and other["point"] != 0:
        return other["diff_hi"] < 0
    try:
        se = math.hypot(b["payout_se"], other["payout_se"])
        return b["mean_payout"] - other["mean_payout"] > Z95 * se
    except (KeyError, TypeError):
        return False


def param_bound(meta: dict, point: dict, name: str):
    """(lo, hi) of the swept strategy's parameter ``name``, or None (a rule option, a plug-in)."""
    from cardsim.sim.registry import get_game, split_label
    try:
        spec = get_game(meta["game"])
    except Exception:  # noqa: BLE001 - a dataset of a game this cardsim does not know
        return None
    try:
        seats, k = point["lineups"][0]["seats"], point["lineups"][0]["counted_seat"]
        strat = spec.strategies[split_label(seats[k])[0]]
        p = next(p for p in strat.params if p.name == name)
    except (AttributeError, KeyError, IndexError, StopIteration, TypeError):
        return None
    return p.lo, p.hi
