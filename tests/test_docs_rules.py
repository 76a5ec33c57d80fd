"""The rules documents ``docs/rules/<game>.md`` ship with the product and stay in sync with the
code: every game's document exists, names every option of its options dataclass with the
default the code has, names every preset, documents no option the code lacks, and holds no
path of the machine it was written on.

A failure lists exactly the names to add (or remove), per game: run
``python -m pytest tests/test_docs_rules.py -q`` after adding an option or a preset.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from cardsim.sim.cli import _fmt_value
from cardsim.sim.registry import games

ROOT = Path(__file__).resolve().parent.parent
GAMES = games()

# an options-table row: | `name` | `default` | ...
ROW = re.compile(r"^\|\s*`([a-z0-9_]+)`\s*\|\s*`([^`]*)`\s*\|")
MACHINE_PATH = re.compile(r"(/work/|/tmp/|/home/|/root/|/Users/|/mnt/|[A-Za-z]:\\\\|shared/rules)")


def doc_text(game) -> str:
    path = ROOT / game.rules
    if not path.is_file():
        pytest.fail(f"{game.rules} is missing")
    return path.read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    """The body of the ``## N. <title>`` section (up to the next ``## `` heading)."""
    m = re.search(rf"^## (?:\d+\.|[A-Z]\d*\.)?\s*{title}\s*$(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    return m.group(1) if m else ""


def for_game(body: str, name: str) -> str:
    """A document covering several games (Marafon and Trionfo) splits a section into
    ``### ... <Game> ...`` subsections: the one naming ``name``, else the whole section."""
    parts = re.split(r"^### ", body, flags=re.MULTILINE)
    mine = [p for p in parts[1:] if name.replace("_", " ") in p.splitlines()[0].lower()]
    return "\n".join(mine) if mine else body


def option_rows(text: str, name: str) -> dict[str, str]:
    """``{option: default cell}`` of the rows of the Options section's tables."""
    rows = {}
    for line in for_game(section(text, "Options"), name).splitlines():
        m = ROW.match(line.strip())
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def preset_rows(text: str, name: str) -> set[str]:
    return {m.group(1) for m in (re.match(r"^\|\s*`([a-z0-9_]+)`\s*\|", line.strip())
                                 for line in for_game(section(text, "Presets"), name).splitlines()) if m}


@pytest.mark.parametrize("name", list(GAMES))
def test_rules_document_exists_in_the_repository(name):
    game = GAMES[name]
    assert game.rules.startswith("docs/rules/") and game.rules.endswith(".md"), game.rules
    assert not Path(game.rules).is_absolute()
    assert (ROOT / game.rules).is_file(), f"{game.rules} is missing"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_option_documented_with_its_default(name):
    game = GAMES[name]
    rows = option_rows(doc_text(game), name)
    fields = {f.name: _fmt_value(f.default) for f in dataclasses.fields(game.options_cls)}
    missing = [f"{k} (default `{v}`)" for k, v in fields.items() if k not in rows]
    wrong = [f"{k}: documented `{rows[k]}`, code `{v}`" for k, v in fields.items() if k in rows and rows[k] != v]
    stale = sorted(set(rows) - set(fields))
    problems = []
    if missing:
        problems.append("options missing from the Options section: " + "; ".join(missing))
    if wrong:
        problems.append("defaults that differ from the code: " + "; ".join(wrong))
    if stale:
        problems.append("documented options the code does not have: " + ", ".join(stale))
    assert not problems, f"{game.rules} ({name}): " + " | ".join(problems)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_preset_documented(name):
    game = GAMES[name]
    rows = preset_rows(doc_text(game), name)
    missing = [p for p in game.presets if p not in rows]
    stale = sorted(rows - set(game.presets))
    problems = []
    if missing:
        problems.append("presets missing from the Presets section: " + ", ".join(missing))
    if stale:
        problems.append("documented presets the code does not have: " + ", ".join(stale))
    assert not problems, f"{game.rules} ({name}): " + " | ".join(problems)


@pytest.mark.parametrize("path", sorted({g.rules for g in GAMES.values()}))
def test_no_machine_paths(path):
    if not (ROOT / path).is_file():
        pytest.fail(f"{path} is missing")
    text = (ROOT / path).read_text(encoding="utf-8")
    hits = sorted({m.group(0) for m in MACHINE_PATH.finditer(text)})
    assert not hits, f"{path} mentions {', '.join(hits)}"


def test_readme_points_to_the_shipped_rules():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "shared/rules" not in readme
    for path in sorted({g.rules for g in GAMES.values()}):
        assert path in readme, path
