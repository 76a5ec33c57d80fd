"""The ``cardsim`` command line for Tonk: every command, bad input, --check, replay == batch.

A few end-to-end cases run ``python -m cardsim`` (and the ``cardsim`` console script) in a
subprocess; the rest use typer's CliRunner in-process to save the interpreter start-up.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import cardsim.sim.games.tonk as tonk_mod
from cardsim.sim.games.tonk import GAME as TONK
from cardsim.sim.io import META_KEY
from cardsim.sim.runner import max_workers
from cli_helpers import assert_usage_error, invoke, sub

REASONS = tuple(TONK.reason_names)
OPTION_NAMES = [f.name for f in dataclasses.fields(TONK.options_cls)]
STRATEGY_ARGS = ["--strategy", "knocker:threshold=10", "--strategy", "watcher:decay=1", "--strategy", "greedy"]
RUN_ARGS = ["--players", "3", "--seed", "7", *STRATEGY_ARGS, "--option", "caught_lowest_bonus=none"]

SEAT_LINE = re.compile(r"^\s*seat (\d+): hand .* count (-?\d+) payout ([+-]\d+)\s*$")
END_LINE = re.compile(r"^end: (\w+)(?:, winner seat (\d+)|, no single winner)\s*$")


# ---- helpers -------------------------------------------------------------------

def partials(directory) -> list[str]:
    return sorted(n for n in os.listdir(directory) if ".partial-" in n)


def parse_replay(stdout: str):
    """(end reason, winner or None, {seat: (count, payout)}) from `cardsim replay` output."""
    lines = stdout.splitlines()
    ends = [m for m in map(END_LINE.match, lines) if m]
    assert ends, stdout
    seats = {int(m[1]): (int(m[2]), int(m[3])) for m in map(SEAT_LINE.match, lines) if m}
    winner = ends[-1][2]
    return ends[-1][1], (int(winner) if winner is not None else None), seats


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """`cardsim run ... --out FILE --json`: 3 players, mixed strategies, 3000 deals."""
    d = tmp_path_factory.mktemp("cli_batch")
    out = d / "run.parquet"
    res = invoke("run", "tonk", *RUN_ARGS, "--deals", 3000, "--workers", 2 if max_workers() >= 2 else 1,
                 "--out", out, "--json")
    assert res.exit_code == 0, res.output
    return out, json.loads(res.stdout)


# ---- listing commands ------------------------------------------------------------

def test_games():
    res = invoke("games")
    assert res.exit_code == 0, res.output
    assert "tonk" in res.stdout and "Tonk (Tunk)" in res.stdout
    assert "2-4 (2)" in res.stdout and "players: the range (the default)" in res.stdout
    assert "docs/rules/tonk.md" in res.stdout


def test_strategies():
    res = invoke("strategies", "tonk")
    assert res.exit_code == 0, res.output
    for name in ("random", "greedy", "knocker", "watcher"):
        assert name in res.stdout
    assert "threshold=8 [0..50]" in res.stdout
    assert "decay=0.5 [0..10]" in res.stdout
    assert "wary_cards=2 [0..5]" in res.stdout


def test_options():
    res = invoke("options", "tonk")
    assert res.exit_code == 0, res.output
    text = res.stdout
    first = text.splitlines()[0]
    assert first.startswith("Rules: docs/rules/tonk.md") and "A14" in first, first
    for name in OPTION_NAMES:
        assert name in text, name
    for choice in ("all_others", "above_knocker_only", "each_tied_collects"):
        assert choice in text
    for preset in TONK.presets:
        assert preset in text
    assert "presets" in text
    assert "(all defaults)" in text                        # the seed preset
    assert "deal_tonk_totals=50" in text                   # the english preset


def test_game_name_is_case_insensitive():
    assert invoke("strategies", "TONK").exit_code == 0


def test_no_args_shows_help():
    res = invoke()
    assert "run" in res.output and "summarize" in res.output and "replay" in res.output


# ---- run / summarize ---------------------------------------------------------------

def test_run_prints_tables_and_writes_file(tmp_path):
    out = tmp_path / "run.parquet"
    res = invoke("run", "tonk", *RUN_ARGS, "--deals", 1500, "--out", out, "--preset", "english")
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert f"tonk · 3 players · 1,500 deals · seed 7 · rules v{TONK.rules_version}" in text
    assert "per seat" in text and "per strategy" in text and "outcomes" in text
    assert "knocker:threshold=10" in text and "watcher:decay=1" in text      # only non-default parameters
    assert "watcher:threshold=8" not in text
    for reason in REASONS:
        assert reason in text
    assert "mean turns" in text and "truncated deals" in text
    assert f"wrote {out}" in text
    assert pq.read_table(out).num_rows == 1500
    meta = json.loads(pq.ParquetFile(out).metadata.metadata[META_KEY])
    assert meta["preset"] == "english"
    assert meta["options"]["caught_lowest_bonus"] == "none"
    assert meta["options"]["deal_tonk_totals"] == [50]
    assert partials(tmp_path) == []


def test_run_json(batch):
    out, data = batch
    assert set(data) == {"summary", "meta", "timing", "path"}
    assert data["path"] == str(out)
    assert data["summary"]["deals"] == 3000
    assert data["meta"]["seed"] == 7 and data["meta"]["players"] == 3
    assert [s["strategy"] for s in data["meta"]["seats"]] == ["knocker", "watcher", "greedy"]
    assert data["timing"]["wall_time_s"] > 0
    assert [o["end_reason"] for o in data["summary"]["outcomes"]] == list(REASONS)
    assert sum(o["count"] for o in data["summary"]["outcomes"]) == 3000


def test_run_without_out_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = invoke("run", "tonk", "--deals", 300, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["path"] is None and data["summary"]["deals"] == 300
    assert os.listdir(tmp_path) == []


def test_summarize_json_equals_run(batch):
    out, data = batch
    res = invoke("summarize", out, "--json")
    assert res.exit_code == 0, res.output
    again = json.loads(res.stdout)
    assert again["summary"] == data["summary"]
    assert again["meta"] == data["meta"]
    assert again["timing"] == data["timing"]


def test_summarize_text(batch):
    out, data = batch
    res = invoke("summarize", out)
    assert res.exit_code == 0, res.output
    assert "tonk · 3 players · 3,000 deals · seed 7" in res.stdout
    assert "per seat" in res.stdout and "outcomes" in res.stdout
    seat0 = data["summary"]["seats"][0]
    assert f"{100 * seat0['win_rate']:.2f}%" in res.stdout
    assert f"{seat0['mean_payout']:+.4f}" in res.stdout


def test_run_workers_give_same_rows(tmp_path, batch):
    if max_workers() < 2:
        pytest.skip("needs two numba threads")
    out, _ = batch
    one = tmp_path / "w1.parquet"
    res = invoke("run", "tonk", *RUN_ARGS, "--deals", 3000, "--workers", 1, "--out", one, "--json")
    assert res.exit_code == 0, res.output
    assert pq.read_table(one).equals(pq.read_table(out))
    assert pq.ParquetFile(one).metadata.metadata[META_KEY] == pq.ParquetFile(out).metadata.metadata[META_KEY]


def test_first_deal_offset(tmp_path, batch):
    out, _ = batch
    part = tmp_path / "part.parquet"
    res = invoke("run", "tonk", *RUN_ARGS, "--deals", 500, "--first-deal", 2000, "--out", part, "-q")
    assert res.exit_code == 0, res.output
    whole = pq.read_table(out).replace_schema_metadata(None)
    assert pq.read_table(part).replace_schema_metadata(None).equals(whole.slice(2000, 500))


# ---- replay ------------------------------------------------------------------------

def test_replay_equals_batch_rows(batch):
    out, _ = batch
    df = pd.read_parquet(out)
    picks = df.groupby("end_reason", observed=True)["deal_id"].first().tolist() + [0, 2999]
    assert len(picks) >= 6
    for deal in picks:
        row = df.iloc[deal]
        res = invoke("replay", "tonk", "--deal", deal, *RUN_ARGS)
        assert res.exit_code == 0, res.output
        assert res.stdout.startswith(f"Tonk (Tunk), seed 7, deal {deal}, 3 players")
        reason, winner, seats = parse_replay(res.stdout)
        assert reason == row["end_reason"], deal
        assert winner == (None if row["winner"] < 0 else int(row["winner"])), deal
        assert sorted(seats) == [0, 1, 2]
        for p, (count, payout) in seats.items():
            assert payout == row[f"payout_{p}"], (deal, p)
            assert count == row[f"count_{p}"], (deal, p)


def test_replay_with_check():
    res = invoke("replay", "tonk", "--seed", 7, "--deal", 5, "--players", 4, "--strategy", "random", "--check")
    assert res.exit_code == 0, res.output
    _, _, seats = parse_replay(res.stdout)
    assert sorted(seats) == [0, 1, 2, 3]
    assert sum(pay for _, pay in seats.values()) == 0


def test_run_with_check(tmp_path):
    out = tmp_path / "checked.parquet"
    res = invoke("run", "tonk", "--players", 4, "--deals", 1000, "--seed", 7, "--strategy", "random",
                 "--check", "--out", out, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["meta"]["check"] is True
    assert pq.read_table(out).num_rows == 1000


def _broken_game(monkeypatch, bad_deal=None, state_error=None):
    """Make the registry hand out a Tonk whose --check reports a violation."""
    game = TONK
    if bad_deal is not None:
        real = TONK.play_batch

        def play_batch(seed, first, count, opts, sids, params, check, rec):
            real(seed, first, count, opts, sids, params, check, rec)
            if first <= bad_deal < first + count:
                rec[bad_deal - first, TONK.err_col] = 3
        game = dataclasses.replace(game, play_batch=play_batch)
    if state_error is not None:
        game = dataclasses.replace(game, state_error=lambda st: state_error)
    monkeypatch.setattr(tonk_mod, "GAME", game)


def test_failed_check_exits_1_with_trace_and_no_file(tmp_path, monkeypatch):
    _broken_game(monkeypatch, bad_deal=42)
    out = tmp_path / "run.parquet"
    res = invoke("run", "tonk", "--deals", 200, "--seed", 7, "--check", "--out", out)
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    first = res.stderr.splitlines()[0]
    assert first == "Error: check failed in deal 42 (seed 7): payouts not zero-sum"
    assert "Tonk (Tunk), seed 7, deal 42" in res.stderr          # the trace of the offending deal
    assert "end: " in res.stderr
    assert os.listdir(tmp_path) == []
    # without --check the error column is not consulted
    assert invoke("run", "tonk", "--deals", 200, "--seed", 7, "-q").exit_code == 0


def test_failed_replay_check_exits_1(monkeypatch):
    _broken_game(monkeypatch, state_error=3)
    res = invoke("replay", "tonk", "--seed", 7, "--deal", 9, "--check")
    assert res.exit_code == 1, res.output
    assert res.stderr.startswith("Error: check failed in deal 9 (seed 7): payouts not zero-sum")
    assert "Traceback" not in res.output


# ---- bad input ---------------------------------------------------------------------

GAMES_LIST = "games: contract_rummy, marafon, telefunken, tonk"
STRATEGY_LIST = "strategies: random, greedy, knocker, watcher"
OPTION_LIST = "options: " + ", ".join(OPTION_NAMES)
PRESET_LIST = "presets: " + ", ".join(TONK.presets)

BAD_RUNS = [
    (["run", "nogame"], ["'nogame'", GAMES_LIST]),
    (["run", "tonk", "--strategy", "bogus"], ["'bogus'", STRATEGY_LIST]),
    (["run", "tonk", "--strategy", "knocker:depth=3"], ["depth", "parameters: threshold"]),
    (["run", "tonk", "--strategy", "greedy:threshold=3"], ["threshold", "parameters: none"]),
    (["run", "tonk", "--strategy", "knocker:threshold=-1"], ["threshold=-1", "[0, 50]"]),
    (["run", "tonk", "--strategy", "knocker:threshold=99"], ["threshold=99", "[0, 50]"]),
    (["run", "tonk", "--strategy", "watcher:decay=11"], ["decay=11", "[0, 10]"]),
    (["run", "tonk", "--strategy", "knocker:threshold=abc"], ["'abc'", "not a number"]),
    (["run", "tonk", "--strategy", "greedy", "--strategy", "greedy", "--strategy", "greedy"],
     ["3 strategies", "2 players"]),
    (["run", "tonk", "--option", "bogus_rule=1"], ["'bogus_rule'", OPTION_LIST]),
    (["run", "tonk", "--option", "max_turns"], ["NAME=VALUE", OPTION_LIST]),
    (["run", "tonk", "--preset", "vegas"], ["'vegas'", PRESET_LIST]),
    (["run", "tonk", "--players", "1"], ["2 to 4", "got 1"]),
    (["run", "tonk", "--players", "5"], ["2 to 4", "got 5"]),
    (["run", "tonk", "--deals", "-1"], ["--deals", ">= 0", "-1"]),
    (["run", "tonk", "--seed", "-1"], ["--seed", "2**63-1", "-1"]),
    (["run", "tonk", "--first-deal", "-1"], ["--first-deal", ">= 0"]),
    (["run", "tonk", "--workers", "0"], ["--workers", f"1..{max_workers()}", "got 0"]),
    (["run", "tonk", "--workers", str(max_workers() + 1)], ["--workers", f"1..{max_workers()}"]),
    (["run", "tonk", "--option", "caught_lowest_bonus=bogus"],
     ["caught_lowest_bonus", "'bogus'", "all_others, above_knocker_only, none"]),
    (["run", "tonk", "--option", "dry_tie_rule=maybe"], ["dry_tie_rule", "each_tied_collects, void"]),
    (["run", "tonk", "--option", "max_turns=0"], ["max_turns", ">= 1", "got 0"]),
    (["run", "tonk", "--option", "max_turns=lots"], ["max_turns", "'lots'", "integer"]),
    (["run", "tonk", "--option", "stake=-2"], ["stake", ">= 1"]),
    (["run", "tonk", "--option", "deal_tonk_totals=48"], ["deal_tonk_totals", "49,50", "48"]),
    (["run", "tonk", "--option", "initial_upcard=perhaps"], ["initial_upcard", "true/false"]),
    (["run", "tonk", "--option", "first_dealer=3"], ["first_dealer", "seat 3", "2 players"]),
    (["replay", "nogame"], [GAMES_LIST]),
    (["replay", "tonk", "--deal", "-1"], ["--deal", ">= 0"]),
    (["replay", "tonk", "--strategy", "nope"], [STRATEGY_LIST]),
    (["replay", "tonk", "--option", "caught_lowest_bonus=bogus"], ["all_others, above_knocker_only, none"]),
    (["replay", "tonk", "--players", "5"], ["2 to 4"]),
    (["replay", "tonk", "--seed", "-3"], ["--seed"]),
    (["strategies", "nogame"], [GAMES_LIST]),
    (["options", "chess"], [GAMES_LIST]),
]


@pytest.mark.parametrize("args, fragments", BAD_RUNS, ids=[" ".join(a[2:] or a[:2]) for a, _ in BAD_RUNS])
def test_bad_input_exit_2_one_line(tmp_path, args, fragments):
    out = tmp_path / "out.parquet"
    extra = []
    if args[0] == "run":
        extra = ["--out", out] + ([] if "--deals" in args else ["--deals", "50"])
    res = invoke(*args, *extra)
    assert_usage_error(res, *fragments)
    assert os.listdir(tmp_path) == []


def test_out_in_missing_directory(tmp_path):
    out = tmp_path / "nope" / "run.parquet"
    res = invoke("run", "tonk", "--deals", 50, "--out", out)
    assert_usage_error(res, str(out), "does not exist")
    assert os.listdir(tmp_path) == []


def test_out_is_a_directory(tmp_path):
    d = tmp_path / "dir"
    d.mkdir()
    res = invoke("run", "tonk", "--deals", 50, "--out", d)
    assert_usage_error(res, str(d), "is a directory")
    assert os.listdir(tmp_path) == ["dir"] and os.listdir(d) == []


def test_out_under_a_file(tmp_path):
    f = tmp_path / "plain.txt"
    f.write_text("x")
    res = invoke("run", "tonk", "--deals", 50, "--out", f / "run.parquet")
    assert_usage_error(res, "does not exist")
    assert os.listdir(tmp_path) == ["plain.txt"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_out_in_read_only_directory(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    try:
        res = invoke("run", "tonk", "--deals", 50, "--out", d / "run.parquet")
        assert_usage_error(res, "permission denied")
        assert os.listdir(d) == []
    finally:
        d.chmod(0o755)


def test_summarize_missing_file(tmp_path):
    res = invoke("summarize", tmp_path / "missing.parquet")
    assert_usage_error(res, "missing.parquet", "no such file")


def test_summarize_not_parquet(tmp_path):
    f = tmp_path / "notes.parquet"
    f.write_text("this is not parquet\n")
    res = invoke("summarize", f)
    assert_usage_error(res, "notes.parquet", "not a Parquet file")


def test_summarize_foreign_parquet(tmp_path):
    f = tmp_path / "other.parquet"
    pd.DataFrame({"a": [1, 2]}).to_parquet(f)
    res = invoke("summarize", f)
    assert_usage_error(res, "other.parquet", "not a cardsim output")


def test_summarize_directory(tmp_path):
    res = invoke("summarize", tmp_path)
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert len(res.stderr.strip().splitlines()) == 1


def test_non_integer_deals_one_line():
    res = invoke("run", "tonk", "--deals", "abc")
    assert_usage_error(res, "--deals")


# ---- end to end in a subprocess ------------------------------------------------------

def test_subprocess_run_summarize_replay(tmp_path):
    """python -m cardsim: run --json with a relative --out, summarize --json, replay --check."""
    res = sub("run", "tonk", *RUN_ARGS, "--deals", 2000, "--workers", 1, "--out", "run.parquet", "--json",
              "--check", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    data = json.loads(res.stdout)
    assert data["summary"]["deals"] == 2000
    path = tmp_path / "run.parquet"
    assert sorted(os.listdir(tmp_path)) == ["run.parquet"]

    summ = sub("summarize", path, "--json")
    assert summ.returncode == 0, summ.stderr
    assert json.loads(summ.stdout)["summary"] == data["summary"]

    df = pd.read_parquet(path)
    deal = int(df.index[df["end_reason"] == "knock_won"][0])
    rep = sub("replay", "tonk", "--deal", deal, *RUN_ARGS, "--check")
    assert rep.returncode == 0, rep.stderr
    reason, winner, seats = parse_replay(rep.stdout)
    assert reason == "knock_won" == df.loc[deal, "end_reason"]
    assert winner == df.loc[deal, "winner"]
    assert {p: pay for p, (_, pay) in seats.items()} == {p: df.loc[deal, f"payout_{p}"] for p in range(3)}


def test_subprocess_same_seed_same_bytes(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    for out, w in ((a, 1), (b, 2 if max_workers() >= 2 else 1)):
        res = sub("run", "tonk", "--deals", 1000, "--seed", 3, "--strategy", "watcher", "--workers", w,
                  "--out", out, "-q")
        assert res.returncode == 0, res.stderr
        assert f"wrote {out}" in res.stdout
    ta, tb = pq.read_table(a), pq.read_table(b)
    assert ta.equals(tb)
    assert pq.ParquetFile(a).metadata.metadata[META_KEY] == pq.ParquetFile(b).metadata.metadata[META_KEY]


def test_subprocess_bad_input(tmp_path):
    res = sub("run", "tonk", "--strategy", "knocker:threshold=99", "--deals", 10, "--out", tmp_path / "x.parquet")
    assert_usage_error(res, "threshold=99", "[0, 50]")
    assert os.listdir(tmp_path) == []
    res = sub("summarize", tmp_path / "nothing.parquet")
    assert_usage_error(res, "no such file")


def test_console_script_lists(tmp_path):
    exe = shutil.which("cardsim", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "cardsim"]
    res = subprocess.run(cmd + ["games"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "tonk" in res.stdout and "2-4" in res.stdout
    res = subprocess.run(cmd + ["options", "tonk"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and "caught_lowest_bonus" in res.stdout and "english" in res.stdout


def test_json_survives_long_paths(tmp_path):
    deep = tmp_path.joinpath(*["d" * 60] * 4)
    deep.mkdir(parents=True)
    out = deep / "run.parquet"
    res = invoke("run", "tonk", "--deals", 50, "--out", out, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["path"] == str(out)


def test_help_texts_read_cleanly_at_80_columns(monkeypatch):
    """Issue 43: every command's ``--help`` at 80 columns: docstring paragraphs rewrapped (no line
    break of the source left mid-sentence), single backticks, value names a reader knows (GAME,
    N, LABEL, NAME=VALUE, PATH; no ``<bool>`` on a flag, no ``<list[str]>``, no ``{game}``)."""
    from cardsim.sim.cli import app
    import typer.main
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERMINAL_WIDTH", "80")
    names = sorted(typer.main.get_command(app).commands)
    assert {"run", "compare", "replay", "play", "critique"} <= set(names)
    for name in names:
        res = invoke(name, "--help")
        assert res.exit_code == 0, (name, res.output)
        text = res.stdout
        assert max(map(len, text.splitlines())) <= 80, (name, text)
        assert "``" not in text and not re.search(r"<(bool|int|float|str|list\[)", text), (name, text)
        assert not re.search(r"Usage: cardsim \S+ \[OPTIONS\] \{", text), (name, text)
    run = invoke("run", "--help").stdout
    assert "(Telefunken, Contract Rummy)" in run and "--strategy" in run and "LABEL" in run, run
