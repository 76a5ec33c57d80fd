"""The record columns' documentation, from one source: each game's ``COLUMNS`` (``sim.spec.Column``
rows in ``sim/games/GAME.py``), and ``DATASET_COLUMNS`` for the long-format rows of a
compare/sweep dataset. It gives

* the Parquet field metadata (``description`` of every column; ``sim.io.table_from_columns``),
* ``cardsim columns GAME`` (``rows``),
* the README data dictionary (``scripts/tools/readme_tables.py`` writes it from ``markdown``),
* the Python API's decoded code columns (``decode``: categoricals with the code names; the
  unplayed hand slots, nulls in the files, as pandas' nullable integers).

A column name such as ``h{h}_pts_{s}`` stands for a family (``h1_pts_0``, ...): ``find`` matches
a real column name against the families.
"""
from __future__ import annotations

import re

import numpy as np

from cardsim.sim.spec import Column

DESCRIPTION_KEY = "description"

# Long-format rows of a compare / sweep dataset (sim.experiment.play_experiment_shard); a game's
# seat_extras (Marafon: hands, win_side) follow, described as the counted seat's record column.
DATASET_COLUMNS = [
    Column("deal_id", "int64", "deal index; every point plays the same deals"),
    Column("point", "int32", "point of the experiment (its label, parameters and options: _summary.json's meta "
                             "points)"),
    Column("lineup", "int8", "lineup of the point (who sits where: meta points[point].lineups[lineup])"),
    Column("seat", "int8", "the counted seat of the lineup (the point's strategy sits there)"),
    Column("payout", "int32", "payout_{p} of the counted seat (the game's payout: chips, score or result)"),
    Column("win", "bool", "the counted seat is the deal's winner"),
    Column("end_reason", "category", "how the deal ended (the game's end reasons)"),
    Column("turns", "int16/int32", "turns of the deal (the game's turns column, of its type)"),
    Column("truncated", "bool", "a cap stopped the deal (the game's truncated column)"),
]


def _pattern(name: str) -> re.Pattern:
    return re.compile("^" + re.sub(r"\\\{\w+\\\}", "[0-9a-z]+", re.escape(name)) + "$")


def find(columns, name: str) -> Column | None:
    """The ``Column`` (family) that describes the real column ``name``, or None."""
    for c in columns:
        if c.name == name or ("{" in c.name and _pattern(c.name).match(name)):
            return c
    return None


def dataset_columns(spec) -> list[Column]:
    """The columns of ``spec``'s compare/sweep datasets: ``DATASET_COLUMNS`` and its seat extras."""
    turns = find(spec.columns, "turns")
    extra = [Column(c.name, turns.dtype, c.help) if c.name == "turns" and turns else c for c in DATASET_COLUMNS]
    for name, tmpl in spec.seat_extras:
        c = find(spec.columns, tmpl.format(p=0))
        what = c.description if c else name
        extra.append(Column(name, c.dtype if c else "int16",
                            f"the record column {tmpl} (p = the counted seat; -1 where the point's rules lack "
                            f"it): {what}"))
    return extra


def rows(columns) -> list[dict]:
    """``cardsim columns``: one dict per column family (column, type, description, codes)."""
    return [{"column": c.name, "type": c.dtype, "description": c.description,
             "codes": {str(k): v for k, v in c.codes.items()} if c.codes else None} for c in columns]


def markdown(columns) -> str:
    """The README table of ``columns``."""
    out = ["| column | type | meaning |", "|---|---|---|"]
    for c in columns:
        out.append(f"| `{c.name}` | {c.dtype} | {c.description.replace('|', '/')} |")
    return "\n".join(out)


def decode(df, columns):
    """``df`` (records read from Parquet) with its code columns as categoricals named by the
    codes (a value without a name, or a null, is missing), its seat bit masks spelled out as one
    boolean column ``NAME_p`` per seat (the mask itself kept), and its integer columns with nulls
    (the unplayed hand slots) as pandas' nullable integers instead of floats; returns ``df``."""
    import pandas as pd
    for name in list(df.columns):
        c = find(columns, name)
        if c is None:
            continue
        s = df[name]
        if c.seat_mask and s.dtype.kind in "iu":
            seats = sum(1 for x in df.columns if re.fullmatch(r"payout_[0-9]+", str(x))) or 8
            for p in range(seats):
                df[f"{name}_{p}"] = (s.to_numpy() >> p & 1).astype(bool)
        elif c.codes:
            if isinstance(s.dtype, pd.CategoricalDtype):
                continue
            values = s.to_numpy(dtype=np.float64, na_value=np.nan)
            idx = np.full(len(values), -1, dtype=np.int64)
            for i, k in enumerate(c.codes):
                idx[values == k] = i
            df[name] = pd.Categorical.from_codes(idx, list(c.codes.values()))
        elif c.dtype.startswith("int") and s.dtype.kind == "f":
            df[name] = s.astype(c.dtype.capitalize())        # int8 -> Int8: nulls stay missing
        elif c.dtype == "bool" and s.dtype == object:
            df[name] = s.astype("boolean")
    return df
