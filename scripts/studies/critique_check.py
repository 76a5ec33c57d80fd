"""Does the critique's predicted loss match the gain of fixing it? (issue 40, end to end, Tonk)

    python scripts/studies/critique_check.py [--count 2 5] [--decisions 8000] [--deals 200000] [--infer K] [--old]

The critique of ``strong`` (2 players, field strong) values every action at every turn start,
so it predicts what a fix is worth: here "knock whenever the hand counts at most COUNT points"
(``strong_knock`` below, a plug-in over strong). Predicted gain per deal: at the turn starts
where strong did not knock although it could with count <= COUNT, the knock's value minus the
chosen action's (select-stage values of two fixed actions: no selection bias), summed per deal,
mean over deals with a 95 % interval. Measured gain: ``cardsim compare`` of the plug-in against
strong in a strong field on duplicate deals. Writes results/critique/tonk_check.md (``--infer K``:
the critique's inference worlds, ``cardsim critique --infer``; ``--old``: issue 16's ``strong``, the
planner point, as the strategy, the field and the plug-in's base; both write their own file).

This file is also the plug-in (``scripts/studies/critique_check.py:strong_knock``).
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cardsim import tonk as T  # noqa: E402
from cardsim.plugin import Strategy, param  # noqa: E402


@numba.njit
def decide(view, legal, n, prm):
    if view[T.V_KIND] == T.K_START and T.hand_count(view[T.V_HAND]) <= prm[0]:
        for i in range(n):
            if T.kind(legal[i]) == T.A_KNOCK:
                return i
    return -1


strong_knock = Strategy("tonk", decide, base="strong", kinds=[T.K_START],
                        params=[param("count", 5, 0, 50, "knock whenever the hand counts at most this")],
                        help="strong, but knocks whenever its count <= count")
OLD_STRONG = "planner:threshold=26.174,decay=0.5125,wary_cards=4,dry_end=2.077,take_low=5.082"   # issue 16's
old_knock = Strategy("tonk", decide, base=OLD_STRONG, kinds=[T.K_START],
                     params=[param("count", 5, 0, 50, "knock whenever the hand counts at most this")],
                     help="issue 16's strong, but knocks whenever its count <= count")


def main() -> None:
    import cardsim
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, nargs="+", default=[2, 5])
    ap.add_argument("--decisions", type=int, default=8000)
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--infer", type=int, default=0)
    ap.add_argument("--old", action="store_true")
    a = ap.parse_args()
    strong, plug = (OLD_STRONG, "old_knock") if a.old else ("strong", "strong_knock")
    res = cardsim.critique("tonk", [strong], players=2, decisions=a.decisions, seed=a.seed, infer=a.infer)
    dec = res.decisions
    rows = []
    for count in a.count:
        gain = np.zeros(res.total["units"])
        fixed = 0
        for _, r in dec[dec.evaluated & (dec.kind == T.K_START) & (dec.detail <= count)].iterrows():
            acts = [int(x) & 15 for x in r.actions]
            if T.A_KNOCK not in acts or int(r.chosen_action) & 15 == T.A_KNOCK:
                continue
            gain[int(r.deal_id)] += list(r["values"])[acts.index(T.A_KNOCK)] - float(r.value_chosen)
            fixed += 1
        pred, half = float(gain.mean()), 1.96 * float(gain.std(ddof=1)) / math.sqrt(len(gain))
        label = f"scripts/studies/critique_check.py:{plug}:count={count}"
        cmp = cardsim.compare("tonk", [strong, label], field=strong, players=2, deals=a.deals,
                              seed=a.seed + 1, keep_records=False)
        p = cmp.raw["points"][1]
        meas, mhalf = p["diff"], (p["diff_hi"] - p["diff_lo"]) / 2
        covers = "yes" if pred - half <= meas + mhalf and meas - mhalf <= pred + half else "no"
        rows.append(f"| {count} | {fixed:,} | {pred:+.4f} ± {half:.4f} | {meas:+.4f} ± {mhalf:.4f} | {covers} |")
    who = "issue 16's strong (the planner point)" if a.old else "strong"
    flags = (f" --infer {a.infer}" if a.infer else "") + (" --old" if a.old else "")
    worlds = f"{res.meta['worlds']} worlds" + (f", each kept of {a.infer} by the rivals' play" if a.infer else "")
    lines = ["# Tonk: the critique's predicted gain against the measured one", "",
             f"`python scripts/studies/critique_check.py --count {' '.join(map(str, a.count))} --decisions {a.decisions} "
             f"--deals {a.deals}{flags}`. The fix: knock at every turn start where the hand counts at most COUNT points "
             f"(`{plug}`, a plug-in over {who}). Predicted: the critique of {who} (2 players, field the same, "
             f"{res.total['units']:,} deals, {res.total['evaluated']:,} decisions evaluated, {worlds}): at the "
             "turn starts the fix changes, the knock's value minus the chosen action's, summed per "
             f"deal (95 % interval over deals). Measured: a {a.deals:,}-deal duplicate `compare` of the plug-in "
             "against the strategy (the same field, another seed).", "",
             "| COUNT | decisions changed | predicted, chips per deal | measured, chips per deal | intervals overlap |",
             "|---:|---:|---:|---:|---|", *rows, ""]
    out = ROOT / "results" / "critique" / ("tonk_check" + ("_old" if a.old else "") + (f"_infer{a.infer}" if a.infer
                                                                                        else "") + ".md")
    out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
