"""``cardsim replay FILE --deal N``: a deal of an existing output, rebuilt from its metadata.

For every game a small run file (3-12 deals, options and strategies away from the defaults so
that their rebuilding is exercised) is written once per module; replaying its deals from the
file must give each deal's row (payouts, winner). Compare/sweep datasets replay a (point,
lineup). Every bad input is one ``Error:`` line, exit 2, and leaves the directory as it was.
All invocations are real CLI calls (typer's CliRunner in-process; one subprocess).
"""
from __future__ import annotations

import json
import os

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from cardsim.sim.io import META_KEY
from cardsim.sim.registry import get_game
from cli_helpers import assert_usage_error, invoke, sub

# game -> (run arguments, deals, first deal); non-default options, presets and strategies so
# that the metadata has to rebuild tuples, maps, contracts and strategy parameters exactly
RUNS = {
    "tonk": (["--players", 3, "--seed", 7, "--strategy", "knocker:threshold=10", "--strategy", "watcher:decay=1.5",
              "--strategy", "greedy", "--option", "caught_lowest_bonus=none", "--option", "deal_tonk_totals=50"],
             12, 5),
    "telefunken": (["--players", 3, "--seed", 2, "--preset", "ecuador", "--option", "exchange_rounds=4:1,6:2",
                    "--strategy", "chip_saver:reserve=2"], 3, 0),
    "contract_rummy": (["--seed", 4, "--preset", "liverpool", "--strategy", "mayi:max_mayi=1",
                        "--option", "hand_sizes=10,10,10,11,12,12,12"], 3, 1),
    "marafon": (["--seed", 5, "--preset", "target31", "--strategy", "heuristic:claim_margin=3",
                 "--strategy", "greedy", "--strategy", "heuristic", "--strategy", "random:claim_prob=0.25"], 4, 0),
    "trionfo": (["--seed", 6, "--preset", "partner2", "--option", "trionfo_bid_stakes=1,3,4,6",
                 "--option", "trionfo_hands=4"], 4, 2),
    "tripoli": (["--players", 4, "--seed", 8, "--preset", "long_session", "--option", "deals_per_session=4",
                 "--strategy", "heuristic:bet_at=0.4"], 6, 0),
}


def listing(directory) -> dict:
    """Names and sizes of everything under ``directory`` (to prove nothing was touched)."""
    out = {}
    for root, dirs, files in os.walk(directory):
        for n in dirs + files:
            p = os.path.join(root, n)
            out[os.path.relpath(p, directory)] = os.path.getsize(p) if os.path.isfile(p) else -1
    return out


@pytest.fixture(scope="module")
def run_files(tmp_path_factory):
    """game -> (path of its run file, rows as a DataFrame); each written once, on first use."""
    d = tmp_path_factory.mktemp("replay_runs")
    cache = {}

    def get(game):
        if game not in cache:
            args, deals, first = RUNS[game]
            path = d / f"{game}.parquet"
            res = invoke("run", game, *args, "--deals", deals, "--first-deal", first, "--out", path,
                         "--workers", 1, "--quiet", "--json")
            assert res.exit_code == 0, res.output
            cache[game] = path, pq.read_table(path).to_pandas()
        return cache[game]
    return get


def replay_json(*args) -> dict:
    res = invoke("replay", *args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


# ---- replay from a run file == its rows, every game ------------------------------------------

@pytest.mark.parametrize("game", list(RUNS))
def test_replay_from_file_equals_rows(run_files, game):
    path, rows = run_files(game)
    n = get_game(game).players[2] if "--players" not in RUNS[game][0] else \
        int(RUNS[game][0][RUNS[game][0].index("--players") + 1])
    deals = list(rows["deal_id"])
    for deal in sorted({deals[0], deals[len(deals) // 2], deals[-1]}):
        doc = replay_json(path, "--deal", deal)
        row = rows[rows["deal_id"] == deal].iloc[0]
        expect = [int(row[f"payout_{p}"]) for p in range(n)]
        assert doc["payouts"] == expect, (game, deal, doc["payouts"], expect)
        winner = int(row["winner"])
        if winner >= 0:
            assert doc["payouts"][winner] == max(doc["payouts"]), (game, deal)
        if game != "marafon":       # Marafon credits a side; the others name the unique best seat
            best = [p for p in range(n) if doc["payouts"][p] == max(doc["payouts"])]
            assert winner == (best[0] if len(best) == 1 else -1), (game, deal, winner, doc["payouts"])
        assert doc["deal"] == deal and doc["players"] == n and len(doc["seats"]) == n


@pytest.mark.parametrize("game", list(RUNS))
def test_replay_json_document(run_files, game):
    path, rows = run_files(game)
    deal = int(rows["deal_id"].iloc[0])
    doc = replay_json(path, "--deal", deal)
    for key in ("game", "seed", "deal", "players", "seats", "rules_version", "events"):
        assert key in doc, key
    spec = get_game(game)
    assert doc["game"] == game and doc["rules_version"] == spec.rules_version
    assert doc["seed"] == int(RUNS[game][0][RUNS[game][0].index("--seed") + 1])
    assert doc["events"], "no events"
    for e in doc["events"]:
        assert isinstance(e["action"], str) and e["action"]
        assert e["seat"] is None or 0 <= e["seat"] < doc["players"]
        assert isinstance(e["text"], str)
    # the text output is the same events' text under the head line
    text = invoke("replay", path, "--deal", deal)
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[1:] == [e["text"] for e in doc["events"]]
    assert lines[0].startswith(f"{spec.title}, seed {doc['seed']}, deal {deal}, {doc['players']} players: ")


def test_file_replay_equals_replay_by_arguments(run_files):
    """replay FILE prints exactly what replay GAME with the run's own arguments prints."""
    path, _ = run_files("tonk")
    args, _, first = RUNS["tonk"]
    for deal in (first, first + 7):
        by_file = invoke("replay", path, "--deal", deal)
        by_args = invoke("replay", "tonk", *args, "--deal", deal)
        assert by_file.exit_code == by_args.exit_code == 0, by_file.output + by_args.output
        assert by_file.stdout == by_args.stdout


def test_default_deal_is_the_files_first(run_files):
    path, _ = run_files("tonk")
    first = RUNS["tonk"][2]
    assert invoke("replay", path).stdout == invoke("replay", path, "--deal", first).stdout


def test_replay_file_with_check(run_files):
    path, _ = run_files("tonk")
    res = invoke("replay", path, "--deal", 6, "--check")
    assert res.exit_code == 0, res.output


def test_subprocess_replay_file_relative_path(tmp_path, run_files):
    """``python -m cardsim replay FILE --json`` from another directory, with a relative path."""
    path, rows = run_files("tonk")
    (tmp_path / "runs").mkdir()
    local = tmp_path / "runs" / "t.parquet"
    local.write_bytes(path.read_bytes())
    proc = sub("replay", "runs/t.parquet", "--deal", "9", "--json", cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    row = rows[rows["deal_id"] == 9].iloc[0]
    assert doc["payouts"] == [int(row[f"payout_{p}"]) for p in range(3)]


# ---- compare / sweep datasets ------------------------------------------------------------------

@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    d = tmp_path_factory.mktemp("replay_sets")
    cmp_dir, sweep_dir = d / "cmp", d / "sweep"
    res = invoke("compare", "tonk", "--strategy", "knocker:threshold=6", "--strategy", "watcher:decay=1",
                 "--players", 3, "--deals", 8, "--seed", 3, "--first-deal", 2, "--out", cmp_dir, "--quiet",
                 "--workers", 1)
    assert res.exit_code == 0, res.output
    res = invoke("sweep", "tonk", "--strategy", "knocker", "--param", "threshold=4,9",
                 "--option-grid", "caught_lowest_bonus=all_others,none", "--deals", 6, "--seed", 11,
                 "--out", sweep_dir, "--quiet", "--workers", 1)
    assert res.exit_code == 0, res.output
    return cmp_dir, sweep_dir


def dataset_rows(path):
    return ds.dataset(path, format="parquet", partitioning="hive").to_table().to_pandas()


@pytest.mark.parametrize("which", ["compare", "sweep"])
def test_replay_dataset_point_lineup_equals_rows(datasets, which):
    path = datasets[0 if which == "compare" else 1]
    rows = dataset_rows(path)
    summary = json.loads((path / "_summary.json").read_text())["meta"]
    for point in range(len(summary["points"])):
        for lineup in range(summary["players"]):
            deal = int(rows["deal_id"].min()) + (point + lineup) % 3
            doc = replay_json(path, "--deal", deal, "--point", point, "--lineup", lineup)
            row = rows[(rows.deal_id == deal) & (rows.point == point) & (rows.lineup == lineup)].iloc[0]
            seat = int(row["seat"])
            assert doc["source"]["counted_seat"] == seat
            assert doc["source"]["kind"] == which
            assert doc["payouts"][seat] == int(row["payout"]), (which, point, lineup, deal)
            assert doc["seats"] == summary["points"][point]["lineups"][lineup]["seats"]
            if which == "sweep":
                opts = summary["points"][point]["options"]
                assert doc["options"]["caught_lowest_bonus"] == opts["caught_lowest_bonus"]


def test_replay_dataset_text_names_the_point(datasets):
    res = invoke("replay", datasets[0], "--deal", 3, "--point", 1, "--lineup", 2)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[1].startswith("compare point 1 (watcher:threshold=8,decay=1,wary_cards=2), lineup 2: ")


# ---- bad input: one line, exit 2, nothing touched ------------------------------------------------

def _foreign_parquet(path):
    import pyarrow as pa
    pq.write_table(pa.table({"x": [1, 2]}), path)


def _with_meta(src, dst, **changes):
    """A copy of run file ``src`` whose cardsim metadata has ``changes`` applied."""
    table = pq.read_table(src)
    meta = json.loads(table.schema.metadata[META_KEY])
    meta.update(changes)
    kv = dict(table.schema.metadata)
    kv[META_KEY] = json.dumps(meta).encode()
    pq.write_table(table.replace_schema_metadata(kv), dst)


@pytest.fixture
def workdir(tmp_path, run_files, datasets):
    """A directory with a copy of the Tonk run file, a compare dataset and broken files."""
    path, _ = run_files("tonk")
    (tmp_path / "run.parquet").write_bytes(path.read_bytes())
    _with_meta(path, tmp_path / "old.parquet", rules_version=get_game("tonk").rules_version + 7)
    _with_meta(path, tmp_path / "alien.parquet", game="chess")
    _with_meta(path, tmp_path / "newopt.parquet",
               options={**json.loads(pq.read_schema(path).metadata[META_KEY])["options"], "jokers_wild": True})
    table = pq.read_table(path)
    kv = dict(table.schema.metadata)
    kv[META_KEY] = b"{not json"
    pq.write_table(table.replace_schema_metadata(kv), tmp_path / "corrupt_meta.parquet")
    (tmp_path / "garbage.parquet").write_bytes(b"PAR1 this is not parquet")
    (tmp_path / "truncated.parquet").write_bytes(path.read_bytes()[: 200])
    _foreign_parquet(tmp_path / "foreign.parquet")
    (tmp_path / "plain_dir").mkdir()
    import shutil
    shutil.copytree(datasets[0], tmp_path / "cmp")
    return tmp_path


BAD = [
    (["run.parquet", "--deal", 4], ["deal 4", "deals 5..16"]),
    (["run.parquet", "--deal", 17], ["deal 17", "deals 5..16"]),
    (["run.parquet", "--deal", -1], ["--deal", ">= 0"]),
    (["run.parquet", "--seed", 7], ["--seed", "metadata"]),
    (["run.parquet", "--strategy", "greedy"], ["--strategy", "metadata"]),
    (["run.parquet", "--option", "stake=2"], ["--option", "metadata"]),
    (["run.parquet", "--preset", "english"], ["--preset", "metadata"]),
    (["run.parquet", "--players", 3], ["--players", "metadata"]),
    (["run.parquet", "--seed", 1, "--players", 3], ["--seed, --players"]),
    (["run.parquet", "--point", 0], ["--point", "compare/sweep", "run file"]),
    (["old.parquet", "--deal", 6], ["rules version", "--force"]),
    (["alien.parquet", "--deal", 6], ["'chess'"]),
    (["newopt.parquet", "--deal", 6], ["jokers_wild"]),
    (["corrupt_meta.parquet"], ["unreadable cardsim metadata"]),
    (["garbage.parquet"], ["not a Parquet file"]),
    (["truncated.parquet"], ["not a Parquet file"]),
    (["foreign.parquet"], ["not a cardsim output"]),
    (["missing.parquet"], ["no such file", "'missing.parquet'"]),
    (["sub/missing.parquet"], ["no such file"]),
    (["nogame"], ["unknown game 'nogame'", "games: contract_rummy, marafon", "run file"]),
    (["plain_dir"], ["not a compare/sweep dataset", "_summary.json"]),
    (["cmp", "--deal", 3], ["compare dataset", "--point 0..1", "--lineup 0..2"]),
    (["cmp", "--deal", 3, "--point", 1], ["--point 0..1", "--lineup 0..2"]),
    (["cmp", "--deal", 3, "--point", 2, "--lineup", 0], ["--point 2", "points 0..1"]),
    (["cmp", "--deal", 3, "--point", 0, "--lineup", 3], ["--lineup 3", "lineups 0..2"]),
    (["cmp", "--deal", 10, "--point", 0, "--lineup", 0], ["deal 10", "deals 2..9"]),
    (["cmp", "--deal", 3, "--point", 0, "--lineup", 0, "--strategy", "greedy"], ["--strategy"]),
    (["tonk", "--point", 1], ["--point", "file"]),
    (["tonk", "--force"], ["--force", "file"]),
]


@pytest.mark.parametrize("args, fragments", BAD, ids=[" ".join(map(str, a)) for a, _ in BAD])
def test_bad_input_exit_2_one_line(workdir, monkeypatch, args, fragments):
    monkeypatch.chdir(workdir)
    before = listing(workdir)
    res = invoke("replay", *args)
    assert_usage_error(res, *fragments)
    assert listing(workdir) == before


def test_bad_input_json_too(workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    assert_usage_error(invoke("replay", "run.parquet", "--deal", 99, "--json"), "deals 5..16")


def test_other_rules_version_with_force_warns_and_replays(workdir, monkeypatch, run_files):
    monkeypatch.chdir(workdir)
    res = invoke("replay", "old.parquet", "--deal", 6, "--force")
    assert res.exit_code == 0, res.output
    warn = res.stderr.strip().splitlines()
    assert len(warn) == 1 and warn[0].startswith("Warning: ") and "rules version" in warn[0], res.stderr
    assert res.stdout == invoke("replay", "run.parquet", "--deal", 6).stdout


def test_options_missing_from_the_file_take_their_defaults(tmp_path, run_files, monkeypatch):
    """A file written before an option existed replays with that option's default (an option
    that changes behaviour when added keeps the old behaviour as its default)."""
    path, _ = run_files("tonk")
    stored = json.loads(pq.read_schema(path).metadata[META_KEY])["options"]
    older = {k: v for k, v in stored.items() if k not in ("stake", "max_turns")}
    _with_meta(path, tmp_path / "older.parquet", options=older)
    monkeypatch.chdir(tmp_path)
    res = invoke("replay", "older.parquet", "--deal", 8)
    assert res.exit_code == 0, res.output
    assert res.stdout == invoke("replay", path, "--deal", 8).stdout
