"""Declared layouts (issue 42): ``kernels.layout.offsets`` lays named fields one after another,
and Tonk's state, view, options and record columns are declared with it. The names unpacked on
the left of each declaration must be its rows' names in order (so the two cannot drift apart),
and the offsets must stay the ones the records were written with."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardsim.kernels import tonk as K
from cardsim.kernels.layout import offsets
from cardsim.kernels.tonk import layout as TL

ROOT = Path(__file__).resolve().parent.parent
TONK_LAYOUT = ROOT / "kernels" / "tonk" / "layout.py"


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


def test_every_declaration_unpacks_its_rows_in_order():
    decls = declarations(TONK_LAYOUT)
    assert len(decls) == 4                       # options, state, view, record columns
    for line, left, rows in decls:
        assert left[:-1] == rows, f"layout.py:{line}: the names on the left differ from the rows"
        assert left[-1] not in rows, f"layout.py:{line}: the size's name is a row's name"


# The numbers the records, the replay files and the plug-ins were written with (before issue 42
# they were numbered by hand): any change here changes the records.
OPTIONS = dict(O_PLAYERS=0, O_INITIAL_UPCARD=1, O_DT49=2, O_DT50=3, O_TIE_SAME_DEALER=4, O_HIT_OWN_ONLY=5,
               O_REDISCARD=6, O_TONK_NEW_SPREAD=7, O_CAUGHT_BONUS=8, O_CAUGHT_PAYS_BASE=9, O_DRY_TIE=10,
               O_DRY_CAP=11, O_MUST_SPREAD=12, O_ACES_EXC=13, O_HIT_BLOCKS=14, O_MAX_HITS=15, O_PICKUP_USE=16,
               O_FIRST_DEALER=17, O_STAKE=18, O_MAX_TURNS=19, O_SIZE=20)
STATE = dict(N=0, DEALER=1, CUR=2, PHASE=3, TURNS=4, STOCK_PTR=5, PILE_LEN=6, TAKEN=7, NEW_SPREAD=8, HITS=9,
             DRY_TURNS=10, REASON=11, KNOCKER=12, WINNER=13, TRUNC=14, REDEALS=15, BLOCKED=16, ERR=17, TR_LEN=18,
             PILE_MASK=19, HAND=20, BOOK=24, RUN=28, PAY=32, COUNT=36, DECK=40, PILE=92, KNOWN=144, ST_SIZE=148)
VIEW = dict(V_SEAT=0, V_KIND=1, V_HAND=2, V_TOP=3, V_PILE=4, V_PILE_LEN=5, V_STOCK=6, V_TURNS=7, V_TAKEN=8,
            V_NEW_SPREAD=9, V_HITS=10, V_DRY_TURNS=11, V_BLOCKED=12, V_PLAYERS=13, V_DEALER=14, V_SPARE=15,
            V_HELD=16, V_BOOKS=20, V_RUNS=24, VIEW_SIZE=28)
RECORD = dict(R_COL_DEALER=0, R_COL_REASON=1, R_COL_WINNER=2, R_COL_KNOCKER=3, R_COL_TURNS=4, R_COL_STOCK=5,
              R_COL_REDEALS=6, R_COL_TRUNC=7, R_COL_ERR=8, R_COL_PAY=9, R_COL_COUNT=13, R_COL_LEFT=17,
              RECORD_COLS=21)


@pytest.mark.parametrize("table", [OPTIONS, STATE, VIEW, RECORD], ids=["options", "state", "view", "record"])
def test_the_offsets_are_the_records(table):
    got = {name: getattr(TL, name) for name in table}
    assert got == table
    assert all(type(v) is int for v in got.values())          # plain ints: numba's compile-time constants
    declared = {tuple(left) for _, left, _ in declarations(TONK_LAYOUT)}
    assert tuple(table) in declared                           # the whole declaration, in order


def test_the_package_reexports_the_layouts_numbers():
    shared = [name for table in (OPTIONS, STATE, VIEW, RECORD) for name in table if hasattr(K, name)]
    assert len(shared) > 60                                   # what the Python side reads as K.<name>
    assert all(getattr(K, name) == getattr(TL, name) for name in shared)


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


def test_the_action_codec_round_trips():
    assert K.action_kind(K.lay_action(0b111 << 13)) == K.A_LAY
    assert K.action_cards(K.lay_action(0b111 << 13)) == 0b111 << 13
    for card in (0, 17, 51):
        for owner in range(K.MAX_PLAYERS):
            for on_run in (0, 1):
                a = K.hit_action(card, owner, on_run)
                assert (K.action_kind(a), K.action_card(a), K.action_owner(a), K.action_on_run(a)) == \
                    (K.A_HIT, card, owner, on_run)
                assert a == K.A_HIT | card << 8 | owner << 16 | on_run << 20      # the records' encoding
        d = K.discard_action(card)
        assert (K.action_kind(d), K.action_card(d), d) == (K.A_DISCARD, card, K.A_DISCARD | card << 8)
