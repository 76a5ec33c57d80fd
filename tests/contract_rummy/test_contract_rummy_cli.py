"""The CLI on Contract Rummy: ``cardsim run``, ``cardsim replay`` and ``cardsim odds`` as a
user calls them (in-process with typer's CliRunner, one fresh-interpreter run)."""
import json

import pyarrow.parquet as pq
import pytest

from cli_helpers import invoke, sub


def test_run_writes_records(tmp_path):
    out = tmp_path / "cr.parquet"
    res = invoke("run", "contract_rummy", "--deals", 40, "--seed", 3, "--players", 4,
                 "--strategy", "greedy", "--strategy", "mayi:max_mayi=1", "--strategy", "cautious",
                 "--strategy", "random", "--out", out, "--check")
    assert res.exit_code == 0, res.output
    t = pq.read_table(out)
    assert t.num_rows == 40
    for col in ("payout_0", "total_3", "mayi_1", "oot_2", "d7_out", "d1_mayi_0", "winner", "truncated"):
        assert col in t.column_names
    d = t.to_pydict()
    assert all(p == -tot for p, tot in zip(d["payout_0"], d["total_0"]))


@pytest.mark.parametrize("preset, n", [("liverpool", 3), ("may_i", 5)])
def test_run_presets_json(preset, n):
    res = invoke("run", "contract_rummy", "--deals", 10, "--preset", preset, "--players", n,
                 "--option", "may_i_model=buy", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["summary"]["deals"] == 10 and doc["meta"]["preset"] == preset


def test_list_option_keeps_its_order():
    """hand_sizes is a sequence (deal 1 first): the CLI text is not sorted."""
    res = invoke("run", "contract_rummy", "--deals", 3, "--check", "--json",
                 "--option", "hand_sizes=12,10,10,10,12,12,11")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["meta"]["options"]["hand_sizes"] == [12, 10, 10, 10, 12, 12, 11]


def test_bad_option():
    res = invoke("run", "contract_rummy", "--deals", 5, "--option", "joker_position=wild")
    assert res.exit_code == 2 and "joker_position" in res.stderr


def test_replay_trace():
    res = invoke("replay", "contract_rummy", "--seed", 1, "--deal", 0)
    assert res.exit_code == 0, res.output
    assert "== deal 7" in res.stdout and "discards" in res.stdout


def test_odds():
    res = invoke("odds", "contract_rummy", "--deal", 1, "-n", 5000, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["cards"] == 10 and doc["pack"] == 107 and doc["lo"] <= doc["probability"] <= doc["hi"]
    res = invoke("odds", "contract_rummy", "--deal", 4, "--players", 5, "--preset", "may_i", "-n", 2000)
    assert res.exit_code == 0 and "deal 4 (5 players, may_i, 162-card pack)" in res.stdout
    assert "P(contract in 12 random cards)" in res.stdout
    res = invoke("odds", "contract_rummy", "--deal", 8)
    assert res.exit_code == 2 and "--deal must be 1..7" in res.stderr


def test_more_cards_never_hurt_and_seeds_replay():
    from cardsim.sim.odds import contract_odds
    a = contract_odds("contract_rummy", 2, 11, samples=4000, seed=2)
    b = contract_odds("contract_rummy", 2, 14, samples=4000, seed=2)
    c = contract_odds("contract_rummy", 2, 11, samples=4000, seed=2)
    assert b["hits"] >= a["hits"] and a == c


def test_subprocess_run():
    res = sub("run", "contract_rummy", "--deals", "8", "--players", "3", "--preset", "may_i", timeout=300)
    assert res.returncode == 0, res.stderr
    assert "contract_rummy" in res.stdout
