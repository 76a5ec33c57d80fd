"""The critique of each game's ``strong`` and of its example plug-in (issue 40): results/critique/<game>.md.

    python scripts/studies/critique_tables.py [--game tonk] [--decisions 1000] [--worlds W] [--seed 0]

For each game with a critique: ``cardsim critique GAME --strategy strong`` (the field: strong) and
``cardsim critique GAME --strategy PLUGIN --field strong`` for the game's example plug-in (the one
``scripts/tools/bench.py --game plugins`` measures), at the default budget; the file holds both reports
(kinds, kinds by phase, worst positions with their replay commands) and how long each took. The
hand-written sections an earlier file holds before the generated ones (a critique round's notes) are
kept (``kept_notes``).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cardsim  # noqa: E402
from cardsim.sim.critique import markdown_lines  # noqa: E402
from cardsim.sim.registry import get_game  # noqa: E402

PLAYERS = {"tonk": 2, "telefunken": 4, "marafon": 4, "trionfo": 5, "tripoli": 5, "contract_rummy": 4}


def section(game: str, label: str, field: str, n: int, decisions: int, worlds: int | None, seed: int) -> list[str]:
    t0 = time.perf_counter()
    res = cardsim.critique(game, [label], field=field, players=n, decisions=decisions, worlds=worlds, seed=seed)
    dt = time.perf_counter() - t0
    cmd = (f"cardsim critique {game} --strategy {label} --field {field} --players {n} --decisions {decisions}"
           + (f" --worlds {worlds}" if worlds else "") + f" --seed {seed}")
    body = markdown_lines(res)[2:]          # without the report's own title
    return [f"## `{label}` against `{field}`", "", f"`{cmd}`: {dt:,.0f} s on 2 cores.", ""] + body + [""]


GENERATED = "## `strong` against `strong`"   # the first section this script writes


def kept_notes(path: Path) -> list[str]:
    """The hand-written sections of an earlier ``path`` (every ``## `` section between its header
    paragraph and the first generated one, ``GENERATED``), kept by a rerun; none when there are none."""
    if not path.exists():
        return []
    text = path.read_text()
    start, end = text.find("\n## "), text.find("\n" + GENERATED)
    if start < 0 or end <= start:
        return []
    return text[start + 1:end].rstrip("\n").split("\n") + [""]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=None)
    ap.add_argument("--decisions", type=int, default=1000)
    ap.add_argument("--plugin-decisions", type=int, default=None)
    ap.add_argument("--worlds", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    games = [a.game] if a.game else [g for g in PLAYERS if get_game(g).critique is not None]
    out = ROOT / "results" / "critique"
    out.mkdir(parents=True, exist_ok=True)
    for g in games:
        spec = get_game(g)
        n = PLAYERS[g]
        lines = [f"# {spec.title}: where `strong` loses (cardsim critique)", "",
                 f"`python scripts/studies/critique_tables.py --game {g} --decisions {a.decisions}`, "
                 f"{time.strftime('%Y-%m-%d')}. Values are {spec.critique['value']}; regret = the best action's "
                 "value minus the chosen one's, measured on fresh worlds (0 when the strategy's choice is the "
                 "best); loss per record = the regret a record's decisions of that kind give up, summed. "
                 "What the next issue (a `strong` with no easy gains left) works from.", ""]
        lines += kept_notes(out / f"{g}.md")
        lines += section(g, "strong", "strong", n, a.decisions, a.worlds, a.seed)
        plug = (spec.plugin or {}).get("bench", {}).get("plugin")
        if plug:
            lines += section(g, plug, "strong", n, a.plugin_decisions or a.decisions, a.worlds, a.seed)
        (out / f"{g}.md").write_text("\n".join(lines) + "\n")
        print(f"wrote results/critique/{g}.md", file=sys.stderr)


if __name__ == "__main__":
    main()
