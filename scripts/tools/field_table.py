"""Each built-in strategy of a game against a field: mean payout with 95 % paired intervals.

    python scripts/tools/field_table.py GAME [--deals N] [--field NAME] [--players P] [--preset X] [--skip NAME ...]

Every strategy (at its default parameters; not ``search``, whose strength against the strong
field is issue 19's ``results/search/``, unless ``--skip`` is given another list) sits at each
seat in turn against a field of one
strategy on the very same deals (``cardsim compare --field``); the difference to the field's
own strategy in the same seats is paired, deal by deal. Without ``--field`` the table is made
twice: first in a ``greedy`` field, then in a field of that table's best strategy (an answer is
only worth writing down if it survives the second field). Prints Markdown.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def field_table(game: str, field: str, deals: int, players=None, preset=None, seed: int = 15,
                skip=("search",)) -> tuple[list, dict]:
    """(rows, summary) of every strategy of ``game`` (but ``skip``) against ``field``; rows sorted by
    payout."""
    from cardsim.sim.experiment import make_compare, run_experiment
    from cardsim.sim.registry import get_game
    names = [field] + [s for s in get_game(game).strategies if s != field.partition(":")[0] and s not in skip]
    exp = make_compare(game, names, players=players, field=field, seed=seed, deals=deals, preset=preset)
    res = run_experiment(exp, deals)
    rows = sorted(res.summary["points"], key=lambda r: -r["mean_payout"])
    return rows, res.summary


def markdown(game: str, field: str, rows: list, deals: int, players: int) -> str:
    out = [f"**{game}**, {players} players, field `{field}`, {deals:,} duplicate deals "
           f"(each strategy, at its default parameters, at every seat in turn):", "",
           "| strategy | mean payout | 95% CI | diff vs field strategy (paired) | 95% CI | truncated |",
           "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        ref = r["point"] == 0
        out.append(f"| `{r['label'].partition(':')[0]}` | {r['mean_payout']:+.3f} | {r['payout_lo']:+.3f} .. {r['payout_hi']:+.3f} | "
                   + ("reference | |" if ref else f"{r['diff']:+.3f} | {r['diff_lo']:+.3f} .. {r['diff_hi']:+.3f} |")
                   + f" {100 * r['truncated_share']:.2f}% |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--field", default=None)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--preset", default=None)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--skip", nargs="*", default=["search"], help="strategies left out (default: search)")
    a = ap.parse_args()
    from cardsim.sim.registry import get_game
    players = a.players or get_game(a.game).players[2]
    fields = [a.field] if a.field else ["greedy"]
    done = []
    while fields:
        f = fields.pop(0)
        rows, summary = field_table(a.game, f, a.deals, players, a.preset, a.seed, tuple(a.skip))
        print(markdown(a.game, f, rows, summary["deals"], players), "\n", flush=True)
        done.append(f)
        best = rows[0]["label"].partition(":")[0]
        if not a.field and len(done) == 1 and best not in done:
            fields.append(best)


if __name__ == "__main__":
    main()
