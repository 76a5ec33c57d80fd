"""The README's strategy tables and data dictionary, written from the strategy registry (names,
parameters with defaults and ranges, help) and the games' record columns (``COLUMNS``, through
``sim.columns``), so that they cannot drift from ``cardsim strategies GAME`` and ``cardsim
columns GAME``.

    python scripts/tools/readme_tables.py          # rewrite the marked blocks of README.md
    python scripts/tools/readme_tables.py --check  # exit 1 when README.md differs

A block is the text between ``<!-- strategies:GAME -->`` and ``<!-- /strategies:GAME -->``
(``columns:GAME`` for the record columns, ``columns:dataset`` for a compare/sweep dataset's rows);
``tests/test_readme_tables.py`` checks that every game has them and that they are up to date.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
README = ROOT / "README.md"


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def table(game: str) -> str:
    """Markdown table of ``game``'s strategies."""
    from cardsim.sim.registry import get_game
    rows = ["| name | parameters: default [range] | play |", "|---|---|---|"]
    for s in get_game(game).strategies.values():
        params = "<br>".join(f"`{p.name}` {p.show(p.default)} [{' / '.join(p.choices)}]: {p.help}" if p.choices else
                             f"`{p.name}` {_num(p.default)} [{_num(p.lo)}..{_num(p.hi)}]: {p.help}"
                             for p in s.params) or "-"
        rows.append(f"| `{s.name}` | {params.replace('|', '/')} | {s.help.replace('|', '/')} |")
    return "\n".join(rows)


def column_table(game: str) -> str:
    """Markdown table of ``game``'s record columns (``dataset``: a compare/sweep dataset's rows)."""
    from cardsim.sim.columns import DATASET_COLUMNS, markdown
    from cardsim.sim.registry import get_game
    return markdown(DATASET_COLUMNS if game == "dataset" else get_game(game).columns)


def rewrite(text: str) -> str:
    def block(m: re.Match) -> str:
        kind, game = m.group(1), m.group(2)
        body = table(game) if kind == "strategies" else column_table(game)
        return f"<!-- {kind}:{game} -->\n{body}\n<!-- /{kind}:{game} -->"
    return re.sub(r"<!-- (strategies|columns):(\w+) -->.*?<!-- /\1:\2 -->", block, text, flags=re.S)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    old = README.read_text()
    new = rewrite(old)
    if a.check:
        sys.exit(0 if new == old else 1)
    README.write_text(new)


if __name__ == "__main__":
    main()
