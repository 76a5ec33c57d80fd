"""Issue 18, data a user can read without the source: every record column of every game has a
description (one source, ``COLUMNS`` in ``sim/games/GAME.py``, through ``sim.columns``), in the
Parquet field metadata, in ``cardsim columns GAME`` and in the README; code columns are
categoricals with names in the Python API."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from cardsim import api
from cardsim.sim import runner
from cardsim.sim.cli import app
from cardsim.sim.columns import DESCRIPTION_KEY, dataset_columns, find
from cardsim.sim.registry import GAME_NAMES, get_game

ROOT = Path(__file__).resolve().parent.parent

# strategies that reach every code value (the fuzzers of the games' invariant tests)
FUZZ = {"tonk": "fuzz", "telefunken": "fuzz", "contract_rummy": "fuzz", "tripoli": "random",
        "marafon": "random:claim_prob=0.0005,claim_due=0.05", "trionfo": "random:pass_bias=3"}
# option sets that add columns the presets do not
EXTRA_OPTIONS = {"telefunken": [["dealer_chooses_contract=true"]]}


def _configs(game: str):
    g = get_game(game)
    n = g.players[2] if game != "contract_rummy" else 3
    sets = [(None, [])] + [(p, []) for p in g.presets] + [(None, o) for o in EXTRA_OPTIONS.get(game, [])]
    for preset, options in sets:
        for players in sorted({g.players[0], n}):
            yield players, preset, options


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_column_of_every_run_has_a_description(game):
    """Column docs complete for every game: a column without a description fails here."""
    g = get_game(game)
    seen = set()
    for players, preset, options in _configs(game):
        cfg = runner.make_config(game, players, 3, 1, [FUZZ[game]], options, preset, shard_size=3)
        for name in runner.play_shard(cfg, 0, 3):
            c = find(g.columns, name)
            assert c is not None and c.description.strip(), f"{game} ({preset}, {options}): column {name} " \
                                                             "has no description"
            seen.add(c.name)
    if game == "telefunken":
        assert "h{h}_contract" in seen
    assert not [c.name for c in g.columns if c.name not in seen], "documented columns no run produces"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_end_reason_and_codes_are_spelled_out(game):
    """The end_reason description names every end reason; every value a fuzzed run writes in a
    code column has a name."""
    g = get_game(game)
    reasons = find(g.columns, "end_reason").description
    for r in g.reason_names:
        assert re.search(rf"\b{re.escape(r)}\b", reasons), (game, r)
    n = g.players[2] if game != "contract_rummy" else 3
    cfg = runner.make_config(game, n, 60, 5, [FUZZ[game]], shard_size=60)
    cols = runner.play_shard(cfg, 0, 60)
    nulls = g.unplayed(cols) if g.unplayed else {}
    for name, values in cols.items():
        c = find(g.columns, name)
        if c.codes:
            played = values[~nulls[name]] if name in nulls else values
            assert set(np.unique(played).tolist()) <= set(c.codes), (game, name, np.unique(played))
            for k, v in c.codes.items():
                assert str(k) in c.description and v in c.description or len(c.codes) > 12, (game, name)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_parquet_fields_carry_their_descriptions(game, tmp_path):
    g = get_game(game)
    out = tmp_path / f"{game}.parquet"
    res = api.run(game, deals=4, seed=2, out=str(out), shard_size=2)
    schema = pq.read_schema(out)
    for field in schema:
        assert field.metadata and field.metadata[DESCRIPTION_KEY.encode()].decode() == \
            find(g.columns, field.name).description, (game, field.name)
    df = res.records
    for name in df.columns:
        c = find(g.columns, name)
        if c is None:                     # a seat mask's boolean NAME_p, added by the API (not a file column)
            mask = find(g.columns, name.rsplit("_", 1)[0])
            assert mask is not None and mask.seat_mask and df[name].dtype == bool, (game, name)
            continue
        if c.codes:
            assert isinstance(df[name].dtype, pd.CategoricalDtype), (game, name)
            assert set(df[name].cat.categories) == set(c.codes.values())
            assert df[name].notna().sum() == pq.read_table(out, columns=[name]).column(0).to_pandas().notna().sum()


def test_dataset_fields_carry_their_descriptions(tmp_path):
    out = tmp_path / "cmp"
    api.compare("marafon", ["greedy", "heuristic"], deals=4, out=str(out), shard_size=4)
    cols = dataset_columns(get_game("marafon"))
    schema = pq.read_schema(next(out.glob("point-0/*.parquet")))
    assert [f.name for f in schema] == [c.name for c in cols]
    for field in schema:
        assert field.metadata[DESCRIPTION_KEY.encode()].decode() == find(cols, field.name).description


def test_api_decodes_code_columns():
    df = api.run("tripoli", deals=20, seed=3).records
    assert list(df["pay_suit"].cat.categories) == ["C", "D", "H", "S"]
    assert set(df["hand_0"].dropna()) <= {"high card", "one pair", "two pair", "three of a kind", "straight",
                                          "flush", "full house", "four of a kind", "straight flush"}
    df = api.run("telefunken", players=3, deals=3, seed=3).records
    assert set(df["h1_reason"].dropna()) <= {"out", "exhausted", "stock_end", "turn_cap"}
    assert df["h1_reason"].notna().all()
    cols = api.columns("marafon")
    row = cols[cols["column"] == "h{h}_end"].iloc[0]
    assert row["codes"] == {"0": "scored", "1": "claim_correct", "2": "claim_wrong"}


# ---- cardsim columns ---------------------------------------------------------------------

def test_cli_columns_text_and_json():
    cli = CliRunner()
    res = cli.invoke(app, ["columns", "marafon"])
    assert res.exit_code == 0, res.output
    for text in ("h{h}_end", "claim_correct", "h{h}_battitore", "payout_{p}"):
        assert text in res.output
    res = cli.invoke(app, ["columns", "tripoli", "--json"])
    doc = json.loads(res.stdout)
    assert doc["game"] == "tripoli" and doc["kind"] == "run"
    got = {r["column"]: r for r in doc["columns"]}
    assert set(got) == {c.name for c in get_game("tripoli").columns}
    assert "bit p" in got["pot_winners"]["description"] and got["pay_suit"]["codes"]["2"] == "H"
    res = cli.invoke(app, ["columns", "marafon", "--dataset", "--json"])
    assert [r["column"] for r in json.loads(res.stdout)["columns"]][-2:] == ["hands", "win_side"]


def test_cli_columns_bad_game():
    res = CliRunner().invoke(app, ["columns", "poker"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and "tonk" in lines[0]


def test_readme_data_dictionary_is_the_source():
    """Every game has a README column table, and it is what COLUMNS gives (scripts/tools/readme_tables.py)."""
    text = (ROOT / "README.md").read_text()
    for game in list(GAME_NAMES) + ["dataset"]:
        m = re.search(rf"<!-- columns:{game} -->\n(.*?)\n<!-- /columns:{game} -->", text, re.S)
        assert m, f"README has no column table for {game}"
        if game == "dataset":
            continue
        names = re.findall(r"^\| `([^`]+)` \|", m.group(1), re.M)
        assert names == [c.name for c in get_game(game).columns], game
        for c in get_game(game).columns:
            assert c.description.replace("|", "/") in m.group(1), (game, c.name)
