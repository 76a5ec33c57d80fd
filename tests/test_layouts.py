"""Declared layouts (issue 42): ``kernels.layout.offsets`` lays named fields one after another,
and each game's state, view, options, parameter rows and record columns are declared with it in
``kernels/<game>/layout.py``. The names unpacked on the left of each declaration must be its rows'
names in order (so the two cannot drift apart). Each game's own test (``tests/<game>/test_<game>_layout.py``)
checks its offsets are the ones the records were written with; ``declarations`` is shared with them."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardsim.kernels.layout import offsets

ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = sorted((ROOT / "kernels").glob("*/layout.py"))


def declarations(path: Path) -> list[tuple[int, list[str], list[str]]]:
    """Every ``A, B, ..., SIZE = offsets(("A", w), ("B", w), ...)`` of ``path``: (line, the names
    on the left, the names of the rows)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        fn = node.value.func
        if (fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", None)) != "offsets":
            continue
        assert len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple), \
            f"line {node.lineno}: unpack offsets(...) into a tuple of names"
        left = []
        for t in node.targets[0].elts:
            assert isinstance(t, ast.Name), f"line {node.lineno}: {ast.unparse(t)} is not a plain name"
            left.append(t.id)
        rows = []
        for r in node.value.args:
            assert isinstance(r, ast.Tuple) and len(r.elts) == 2 and isinstance(r.elts[0], ast.Constant) \
                and isinstance(r.elts[0].value, str), f"line {node.lineno}: row {ast.unparse(r)} is not (\"NAME\", width)"
            rows.append(r.elts[0].value)
        assert not node.value.keywords, f"line {node.lineno}: offsets takes rows only"
        out.append((node.lineno, left, rows))
    return out



@pytest.mark.parametrize("path", LAYOUTS, ids=[p.parent.name for p in LAYOUTS])
def test_every_declaration_unpacks_its_rows_in_order(path):
    decls = declarations(path)
    assert decls, f"{path.parent.name}: no offsets(...) declaration"
    for line, left, rows in decls:
        assert left[:-1] == rows, f"{path.parent.name}/layout.py:{line}: the names on the left differ from the rows"
        assert left[-1] not in rows, f"{path.parent.name}/layout.py:{line}: the size's name is a row's name"


def test_offsets_lays_fields_one_after_another():
    assert offsets(("A", 1), ("B", 4), ("C", 2)) == (0, 1, 5, 7)
    assert offsets() == (0,)


@pytest.mark.parametrize("rows, message", [
    ((("A", 1), ("A", 2)), "declared twice"),
    ((("A", 0),), "width"),
    ((("A", -1),), "width"),
    ((("A", True),), "width"),
    ((("A", 1.0),), "width"),
    ((("not a name", 1),), "identifier"),
    ((("A", 1, 2),), "expected"),
])
def test_offsets_refuses_bad_rows(rows, message):
    with pytest.raises(ValueError, match=message):
        offsets(*rows)
