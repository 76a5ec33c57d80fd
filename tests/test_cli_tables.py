"""Issue 18: tables that fit 80 columns, units of the record, Marafon per side, progress by
expected time (a fake clock), sequential intervals in the tables, small rates, repeated
strategies in a rotation, notes under comparisons and sweeps, --version and --json listings.

The 80-column tables of every game are rendered from summaries built from each game's
registry (every strategy at its longest label, large payouts), so no kernel is compiled for
them; a few Tonk runs check the same on real output.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

import cardsim.sim.cli as cli_mod
from cardsim.sim.cli import LiveProgress, print_points, print_summary
from cardsim.sim.notes import point_notes
from cardsim.sim.errors import UsageError
from cardsim.sim.experiment import make_compare, run_experiment
from cardsim.sim.registry import GAME_NAMES, Seat, get_game, short_label, short_labels
from cardsim.sim.runner import make_config, run as run_batch
from cardsim.sim.tables import fmt_num, fmt_pct, fmt_pm, wrap_label
from cli_helpers import invoke

WIDTH = 80


@pytest.fixture
def narrow(monkeypatch):
    """The command line's stdout console at 80 columns; returns a function giving what it printed."""
    buf = io.StringIO()
    monkeypatch.setattr(cli_mod, "out", Console(file=buf, width=WIDTH, highlight=False))
    return buf.getvalue


def assert_fits(text: str, numbers: list[str]) -> None:
    for line in text.splitlines():
        assert len(line) <= WIDTH, line
    assert "…" not in text
    for x in numbers:
        assert x in text, (x, text)


def longest(game) -> list[str]:
    """Every strategy of ``game`` with every parameter off its default (the longest labels)."""
    labels = []
    for s in game.strategies.values():
        vals = tuple(p.hi if p.default != p.hi else p.lo for p in s.params)
        labels.append(Seat(s, vals).label)
    return labels


def rate_row(i: int) -> dict:
    rate = [0.4275, 0.0000123, 1.0, 0.0][i % 4]
    return {"win_rate": rate, "win_lo": max(0.0, rate - 0.01), "win_hi": min(1.0, rate + 0.01)}


def run_summary(game, n_players: int) -> tuple[dict, dict]:
    labels = longest(game)
    seats = [labels[p % len(labels)] for p in range(n_players)]
    pay = -1234.5678
    def stats(i):
        return {**rate_row(i), "mean_payout": pay + i, "payout_lo": pay + i - 12.3456, "payout_hi": pay + i + 12.3456,
                "payout_se": 6.3}
    summary = {"deals": 123_456_789, "truncated": 12, "truncated_share": 12 / 123_456_789, "mean_turns": 123.45,
               "seats": [{"seat": p, "strategy": seats[p], **stats(p)} for p in range(n_players)],
               "strategies": [{"strategy": lab, "seats": [p for p in range(n_players) if seats[p] == lab], **stats(i)}
                              for i, lab in enumerate(dict.fromkeys(seats))],
               "outcomes": [{"end_reason": r, "count": 10_000_000, **{k.replace("win_", ""): v for k, v in
                                                                        rate_row(i).items()}, "rate": rate_row(i)["win_rate"]}
                            for i, r in enumerate(game.reason_names)]}
    if game.sides:
        summary["sides"] = [{"side": i, "seats": list(s), "strategies": [seats[p] for p in s], **stats(i)}
                            for i, s in enumerate(game.sides)]
    meta = {"game": game.name, "players": n_players, "seed": 2 ** 63 - 1, "rules_version": game.rules_version}
    return summary, meta


def points_summary(game, kind: str) -> tuple[dict, dict]:
    labels = longest(game)
    if kind == "sweep":
        s = max(game.strategies.values(), key=lambda s: len(s.params))
        labels = [",".join(f"{p.name}={p.hi:g}" for p in s.params[:4]) + ",first_dealer=random" for _ in range(3)]
    pts = []
    for i, lab in enumerate(labels):
        pts.append({"point": i, "label": lab, **rate_row(i), "win_se": 0.005, "mean_payout": -1234.5678 + i,
                    "payout_lo": -1246.9134 + i, "payout_hi": -1222.2222 + i, "payout_se": 6.3,
                    "diff": 0.0 if i == 0 else -123.4567, "diff_lo": 0.0 if i == 0 else -125.0,
                    "diff_hi": 0.0 if i == 0 else -121.9134, "diff_se": 0.0 if i == 0 else 0.7877,
                    "variance_reduction": float("nan") if i == 0 else 12.34, "truncated": 0, "truncated_share": 0.0})
    meta = {"kind": kind, "game": game.name, "players": game.players[1], "seed": 2 ** 63 - 1,
            "field": labels[0] if kind == "sweep" else None}
    return {"deals": 123_456_789, "points": pts}, meta


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_run_table_fits_80_columns(narrow, name):
    game = get_game(name)
    summary, meta = run_summary(game, game.players[1])
    print_summary(summary, meta, {"wall_time_s": 12345.67, "deals_per_s": 1_234_567.0})
    text = narrow()
    rows = summary.get("sides") or summary["seats"]
    numbers = [fmt_num(r["mean_payout"]) for r in rows + summary["strategies"]]
    numbers += [fmt_pct(r["win_rate"]) for r in rows + summary["strategies"]] + ["±12.3456", "0.0012%"]
    assert_fits(text, numbers)
    one, many = game.record_unit
    assert f"123,456,789 {many}" in text and f"{many}/s" in text
    assert ("per side" in text) == bool(game.sides)


@pytest.mark.parametrize("kind", ["compare", "sweep"])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_compare_and_sweep_table_fits_80_columns(narrow, name, kind):
    game = get_game(name)
    summary, meta = points_summary(game, kind)
    print_points(summary, meta, {"wall_time_s": 1.5})
    text = narrow()
    numbers = [fmt_num(r["mean_payout"]) for r in summary["points"]] + ["-123.4567", "±12.3456", "12.34x"]
    numbers += [fmt_pct(r["win_rate"]) for r in summary["points"]]
    assert_fits(text, numbers)
    assert f"duplicate {game.record_unit[1]}" in text


def test_labels_show_only_non_default_parameters():
    tonk = get_game("tonk")
    assert short_label(tonk, "watcher:threshold=8,decay=1,wary_cards=2") == "watcher:decay=1"
    assert short_label(tonk, "watcher:threshold=8,decay=0.5,wary_cards=2") == "watcher"
    assert short_label(tonk, "greedy") == "greedy"
    assert short_label(tonk, "dir/my.py:NAME:a=1") == "my:NAME:a=1"     # a plug-in not loaded: its stem, all parameters
    tripoli = get_game("tripoli")
    full = Seat(tripoli.strategies["heuristic"], tuple(p.default for p in tripoli.strategies["heuristic"].params))
    assert short_label(tripoli, full.label) == "heuristic"


def test_labels_show_what_tells_them_apart():
    """Issue 43: beside each other, labels of one strategy keep every parameter whose value
    differs among them, at its default too; two different labels never show the same text; a
    plug-in's label is its file's stem, name and (once it is loaded) its non-default parameters."""
    tonk = get_game("tonk")
    assert short_labels(tonk, ["knocker:threshold=6", "knocker:threshold=8", "greedy"]) == {
        "knocker:threshold=6": "knocker:threshold=6", "knocker:threshold=8": "knocker:threshold=8", "greedy": "greedy"}
    both = short_labels(tonk, ["watcher:threshold=8,decay=1,wary_cards=2", "watcher:threshold=6,decay=0.5,wary_cards=2"])
    assert list(both.values()) == ["watcher:threshold=8,decay=1", "watcher:threshold=6,decay=0.5"]
    assert short_labels(tonk, ["a/x.py:N:a=1", "b/x.py:N:a=1"]) == {"a/x.py:N:a=1": "a/x.py:N:a=1",
                                                                    "b/x.py:N:a=1": "b/x.py:N:a=1"}
    from cardsim.sim import plugin as P
    example = str(Path(__file__).resolve().parent.parent / "examples" / "tonk_low_knock.py")
    P._module_of(example)                                      # loaded, as a run loads it (not compiled here)
    assert short_label(tonk, f"{example}:low_knock:threshold=8") == "tonk_low_knock:low_knock"
    assert short_labels(tonk, [f"{example}:low_knock:threshold=5", "knocker:threshold=5"]) == {
        f"{example}:low_knock:threshold=5": "tonk_low_knock:low_knock:threshold=5", "knocker:threshold=5": "knocker:threshold=5"}


def test_a_compare_shows_the_parameter_that_tells_its_points_apart(cli):
    res = invoke("compare", "tonk", "--strategy", "knocker:threshold=6", "--strategy", "knocker:threshold=8",
                 "-n", 200, "-q")
    assert res.exit_code == 0, res.output
    rows = [line.split()[1] for line in res.output.splitlines() if line.strip()[:1] in ("0", "1")]
    assert rows == ["knocker:threshold=6", "knocker:threshold=8"], res.output


def test_wrap_label_keeps_every_character():
    text = "planner:reserve=0,near=10,per_hand=0,caught_lowest_bonus=all_others,x"
    wrapped = wrap_label(text, 16)
    assert max(map(len, wrapped.split("\n"))) <= 16
    assert wrapped.replace("\n", "") == text


def test_small_rates_have_significant_digits():
    assert fmt_pct(0.000012345) == "0.0012%"
    assert fmt_pct(0.00099) == "0.099%"
    assert fmt_pct(0.0) == "0.00%" and fmt_pct(1e-19) == "0.00%"
    assert fmt_pct(0.4275) == "42.75%" and fmt_pm(0.09861) == "±0.0986"


def test_tonk_run_at_80_columns_matches_its_json(narrow):
    args = ["run", "tonk", "-p", 3, "-n", 600, "--seed", 4, "--strategy", "planner:take_low=3,hold_spreads=1,dry_end=2",
            "--strategy", "watcher:decay=1", "--strategy", "knocker:threshold=10", "-q"]
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    text = narrow()
    doc = json.loads(invoke(*args, "--json").stdout)
    numbers = [fmt_num(r["mean_payout"]) for r in doc["summary"]["seats"]]
    numbers += [fmt_pct(r["win_rate"]) for r in doc["summary"]["seats"]]
    assert_fits(text, numbers + ["600 deals"])
    assert "watcher:decay=1" in text and "wary_cards" not in text
    assert doc["meta"]["seats"][1]["label"] == "watcher:threshold=8,decay=1,wary_cards=2"   # JSON: the full label


def test_until_ci_tables_print_the_sequential_interval(narrow):
    args = ["run", "tonk", "-p", 2, "--strategy", "knocker", "--strategy", "greedy", "--until-ci", 0.08,
            "--max-deals", 20000, "--shard-size", 500, "--seed", 3]
    res = invoke(*args, "-q")
    assert res.exit_code == 0, res.output
    text = narrow()
    doc = json.loads(invoke(*args, "--json").stdout)["summary"]
    seq = doc["sequential"]
    assert seq["looks"] >= 1 and seq["z"] > 2.1
    assert "sequential intervals of --until-ci" in text and "seq. CI" in text and "95% CI" not in text
    for r in doc["seats"] + doc["strategies"]:
        assert fmt_pm(seq["z"] * r["payout_se"]) in text                       # z x se, not the t interval
    headline = next(r for r in doc["seats"] + doc["strategies"]
                    if seq["headline"] in (r.get("strategy"), f"seat {r.get('seat')}"))
    assert seq["z"] * headline["payout_se"] == pytest.approx(seq["half_width"])  # the footer's interval
    assert "precision target ± 0.08 reached" in text
    footer = next(line for line in text.splitlines() if line.startswith("precision target"))
    assert "threshold=8" not in footer                 # labels as the tables show them (default parameters left out)
    for r in doc["seats"] + doc["strategies"]:         # --json carries the sequential interval of every row
        assert r["payout_seq_lo"] == pytest.approx(r["mean_payout"] - seq["z"] * r["payout_se"])
        assert r["payout_seq_hi"] == pytest.approx(r["mean_payout"] + seq["z"] * r["payout_se"])
    # without --until-ci the tables say 95%
    res = invoke("run", "tonk", "-p", 2, "-n", 300, "-q")
    assert "95% intervals" in narrow() and res.exit_code == 0


def test_rotation_with_repeated_strategies(narrow):
    exp = make_compare("tonk", ["knocker", "greedy", "knocker", "greedy"], players=4, seed=1)
    assert [p.label for p in exp.points] == ["knocker:threshold=8", "greedy"]
    assert all(len(p.lineups) == 8 for p in exp.points)
    for p in exp.points:
        assert all(seats[k].label == p.label for seats, k in p.lineups)
    res = run_experiment(exp, 400)
    a, b = res.summary["points"]
    assert a["mean_payout"] == pytest.approx(-b["mean_payout"])        # zero-sum, every seat counted
    cmd = invoke("compare", "tonk", "-p", 4, "--strategy", "knocker", "--strategy", "greedy", "--strategy", "knocker",
                 "--strategy", "greedy", "-n", 400, "--seed", 1, "-q")
    assert cmd.exit_code == 0, cmd.output
    assert "table rotation" in narrow()
    with pytest.raises(UsageError, match="same number of seats"):
        make_compare("tonk", ["knocker", "knocker", "greedy"], players=3)
    with pytest.raises(UsageError, match="must differ"):
        make_compare("tonk", ["greedy", "greedy"], players=2)


def test_notes_variance_reduction_option_without_effect_and_edge():
    meta = {"kind": "sweep", "game": "tonk", "points": [
        {"params": {"threshold": t, "caught_lowest_bonus": c}, "options": {"caught_lowest_bonus": c},
         "lineups": [{"seats": ["knocker:threshold=1", "greedy"], "counted_seat": 0}]}
        for t in ("2", "5", "9") for c in ("all_others", "none")]}
    pts = []
    for i, mp in enumerate(meta["points"]):
        t = float(mp["params"]["threshold"])
        pts.append({"point": i, "label": f"threshold={mp['params']['threshold']}", "mean_payout": t, "payout_se": 1.0,
                    "win_rate": 0.5, "win_se": 0.1, "truncated": 0, "variance_reduction": 0.55 if i == 1 else 2.0})
    notes = " ".join(point_notes({"deals": 100, "points": pts}, meta))
    assert "variance reduction below 1 (point 1 0.55x)" in notes and "negatively correlated" in notes
    assert "option caught_lowest_bonus" in notes and "does not change the measured quantity" in notes
    assert "parameter threshold" not in notes
    assert "edge of the grid: threshold = 9 is the largest value swept" in notes
    for p in pts:                       # the edge point no longer above its neighbour at 95 %: no note
        if p["label"] == "threshold=9":
            p["mean_payout"] = 6.0
    assert "edge of the grid" not in " ".join(point_notes({"deals": 100, "points": pts}, meta))


def test_cli_sweep_says_an_option_changes_nothing_and_best_on_edge(narrow):
    res = invoke("sweep", "tonk", "-p", 2, "--strategy", "knocker", "--param", "threshold=2:12:5",
                 "--option-grid", "caught_lowest_bonus=all_others,none", "-n", 3000, "-q")
    assert res.exit_code == 0, res.output
    text = " ".join(narrow().split())
    assert "caught_lowest_bonus" in text and "does not change the measured" in text
    assert "edge of the grid" in text


class FakeClock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_progress_shown_by_expected_time_with_a_fake_clock():
    clock = FakeClock()
    console = Console(file=io.StringIO(), width=160)
    slow = LiveProgress(100_000, "games", console=console, clock=clock, timer=False)
    with slow:
        assert not slow.started
        clock.t += 0.4
        slow(1_000, 100_000)                      # 1,000 games in 0.4 s: 40 s expected
        assert slow.started
        clock.t += 0.6
        slow(2_500, 100_000, "seat 0: +0.1000 ± 0.0500 (target ± 0.01)")
        console.print(slow.bar.make_tasks_table(slow.bar.tasks))
    shown = console.file.getvalue()
    assert "2,500/100,000" in shown and "2,500 games/s" in shown
    assert "target ± 0.01" in shown                                    # the live interval
    assert re.search(r"\d:\d\d:\d\d", shown)                           # the ETA
    fast = LiveProgress(1_000, "deals", console=console, clock=clock, timer=False)
    with fast:
        clock.t += 0.01
        fast(1_000, 1_000)                        # done in 0.01 s: never shown
        assert not fast.started
    late = LiveProgress(1_000, "deals", console=console, clock=clock, timer=False)
    with late:
        clock.t += 2.5
        late(0, 1_000)                            # 2.5 s without a finished shard (a compile): shown
        assert late.started


class Recorder:
    within_shards = True

    def __init__(self):
        self.calls = []

    def __call__(self, done, total, note=""):
        self.calls.append(done)


def test_progress_inside_a_long_shard_leaves_the_records_unchanged(tmp_path):
    cfg = make_config("tonk", 3, 6000, 5, ["knocker", "watcher", "greedy"], workers=1, shard_size=6000)
    rec = Recorder()
    a = run_batch(cfg, str(tmp_path / "a.parquet"), rec)
    b = run_batch(cfg, str(tmp_path / "b.parquet"))
    assert len(rec.calls) >= 2 and rec.calls[0] < 6000 and rec.calls[-1] == 6000     # heard inside the shard
    import pyarrow.parquet as pq
    assert pq.read_table(tmp_path / "a.parquet").equals(pq.read_table(tmp_path / "b.parquet"))
    assert a.summary == b.summary
    exp = make_compare("tonk", ["knocker", "watcher"], players=3, field="greedy", seed=2, workers=1, shard_size=3000)
    rec = Recorder()
    x = run_experiment(exp, 3000, progress=rec)
    y = run_experiment(exp, 3000)
    from cardsim.sim.stats import json_clean
    assert len(rec.calls) >= 2 and json_clean(x.summary) == json_clean(y.summary)


def test_version_completion_and_json_listings():
    res = invoke("--version")
    assert res.exit_code == 0 and re.fullmatch(r"cardsim \S+\n", res.stdout)
    helptext = invoke("--help").stdout
    assert "--install-completion" in helptext and "--version" in helptext and "soon" not in helptext
    assert "cardsim games" in helptext           # the games are discovered: `cardsim games` lists them
    games = json.loads(invoke("games", "--json").stdout)
    assert [g["game"] for g in games] == ["tonk", "telefunken", "marafon", "trionfo", "tripoli", "contract_rummy"]
    assert sorted(g["game"] for g in games) == list(GAME_NAMES)
    assert {g["game"]: g["record_unit"] for g in games}["marafon"] == "match"
    strategies = json.loads(invoke("strategies", "tonk", "--json").stdout)
    knocker = next(s for s in strategies if s["strategy"] == "knocker")
    assert knocker["params"][0]["name"] == "threshold" and knocker["params"][0]["default"] == 8
    opts = json.loads(invoke("options", "tonk", "--json").stdout)
    assert opts["rules"] == "docs/rules/tonk.md" and "english" in opts["presets"]
    assert any(o["option"] == "caught_lowest_bonus" and o["default"] == "all_others" for o in opts["options"])
    bad = invoke("options", "chess", "--json")
    assert bad.exit_code == 2 and bad.stderr.startswith("Error: unknown game")


def test_partnership_win_rates_are_the_sides():
    """Marafon's winner names one seat of the winning side; a seat's win rate is its side's."""
    import numpy as np
    from cardsim.sim.stats import Accumulator
    winner = np.array([0, 2, 1, -1])                      # side 0, side 0, side 1, nobody
    side = np.array([0, 0, 1, -1])
    cols = {"winner": winner, "truncated": np.zeros(4, bool), "turns": np.ones(4, np.int32),
            "end_reason": np.zeros(4, np.int8)}
    for p in range(4):
        cols[f"payout_{p}"] = np.where(side < 0, 0, np.where(side == p % 2, 1, -1))
    acc = Accumulator(4, ["h", "g", "h", "g"], ("target",), sides=((0, 2), (1, 3)))
    acc.add(cols)
    s = acc.summary()
    assert [r["win_rate"] for r in s["seats"]] == [0.5, 0.25, 0.5, 0.25]
    assert [(r["side"], r["seats"], r["win_rate"]) for r in s["sides"]] == [(0, [0, 2], 0.5), (1, [1, 3], 0.25)]
    assert [r["win_rate"] for r in s["strategies"]] == [0.5, 0.25]
    assert get_game("marafon").sides == ((0, 2), (1, 3)) and get_game("marafon").record_unit[1] == "matches"
    assert get_game("telefunken").record_unit[1] == "games" and get_game("trionfo").record_unit[1] == "sessions"


def test_check_says_what_it_checked(cli):
    """Issue 43: a --check run says that it checked, and how much; a run without it says nothing."""
    res = invoke("run", "tonk", "-n", 120, "--check")
    assert res.exit_code == 0, res.output
    assert "checked (--check): the rules' invariants after every action, and every record, of all 120 deals: " \
           "no violation" in res.output
    assert "checked (--check)" not in invoke("run", "tonk", "-n", 120).output
    res = invoke("compare", "tonk", "--strategy", "knocker", "--strategy", "greedy", "-n", 60, "--check")
    assert res.exit_code == 0 and "of all 60 deals: no violation" in res.output, res.output


@pytest.mark.parametrize("columns", [80, 132])
def test_piped_output_honours_columns(columns):
    """Issue 43: piped, the tables and notes fit ``COLUMNS`` where it is set (a log without it
    keeps 200); at 80 every line of a compare fits, headers and notes included."""
    import os
    from cli_helpers import sub
    env = {**os.environ, "COLUMNS": str(columns)}
    res = sub("compare", "tonk", "--strategy", "knocker:threshold=6", "--strategy", "knocker:threshold=8",
              "-n", 300, env=env)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert max(len(x) for x in lines) <= columns, [x for x in lines if len(x) > columns]
    rule = next(x for x in lines if set(x) == {"─"})
    assert len(rule) > 60                                    # the table uses the width it is given
    if columns > 120:
        assert any("variance reduction" in x and "win rate" in x for x in lines)   # room for every column


def test_games_and_options_at_80_columns_cut_no_name(narrow):
    """Issue 43: at 80 columns ``cardsim games`` and ``cardsim options GAME`` fit, and never cut
    a game id, a rules path or an option name (the titles, defaults and help wrap instead)."""
    import cardsim
    res = invoke("games")
    assert res.exit_code == 0, res.stderr
    text = narrow()
    assert max(map(len, text.splitlines())) <= WIDTH, text
    for g in cardsim.games().itertuples():
        assert re.search(rf"│ {g.game} +│", text) and g.rules in text, (g.game, text)
    for game in GAME_NAMES:
        start = len(narrow())
        res = invoke("options", game)
        assert res.exit_code == 0, res.stderr
        text = narrow()[start:]
        assert max(map(len, text.splitlines())) <= WIDTH, text
        for name in cardsim.options(game)["option"]:
            assert re.search(rf"│ {name} +│", text), (game, name)
