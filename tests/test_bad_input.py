"""Bad input and silently wrong numbers (issue 13), as real ``cardsim`` invocations.

``CASES`` is the table: one row per case of the issue, with the exit code it must end with
(2 bad input, 1 a failure, 0 where the fix is a correct answer) and what its one ``Error:``
line (or its output) must say. Every row runs in a fresh directory holding a sentinel file
beside every output and the row's input files; afterwards nothing in that directory may
have changed (no output, no work directory, no partial file, inputs and sentinels intact).

Then the record dtypes against the option ranges: every game at both ends of every
whole-number option (and all of them at their maximum where payouts grow), with --check,
records compared with what a replay of the same deal says.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Callable

import numpy as np
import pyarrow.parquet as pq
import pytest

import cardsim.sim.games.tonk as tonk_mod
from cardsim.sim import experiment, runner
from cardsim.sim.errors import UsageError
from cardsim.sim.executor import host_cores
from cardsim.sim.io import META_KEY
from cardsim.sim.options import option_range
from cardsim.sim.registry import games, record_fields

from bad_input_harness import Case, check_case, make_sources
from cli_helpers import assert_usage_error, invoke

BIG = str(10 ** 30)
HOSTILE = ("\x1b[31mRED\x1b[0m", "\x1b]0;pwned\x07title", "[bold red]markup[/bold red]",
           "<script>alert(1)</script>", "`code` *em* [link](http://example.com) $\\frac{x^$", "\u202eevil", "\x9b2J")


# ---- input files ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    return make_sources(tmp_path_factory)


def _with_meta(src: Path, dst: Path, edit: Callable[[dict], object] | None = None, raw: bytes | None = None,
               drop: tuple = ()) -> None:
    """``src`` rewritten to ``dst`` with its cardsim metadata edited (or replaced by ``raw``)
    and the columns ``drop`` removed."""
    table = pq.read_table(src)
    kv = dict(table.schema.metadata)
    if raw is not None:
        kv[META_KEY] = raw
    if edit is not None:
        meta = json.loads(kv[META_KEY])
        meta = edit(meta) or meta
        kv[META_KEY] = json.dumps(meta).encode()
    table = table.drop_columns(list(drop)) if drop else table
    pq.write_table(table.replace_schema_metadata(kv), dst)


def bad_file(kind: str):
    """A setup writing ``bad.parquet`` of the given kind into the row's directory."""
    def setup(src: dict, d: Path) -> None:
        out = d / "bad.parquet"
        if kind == "json":
            _with_meta(src["run"], out, raw=b"{not json")
        elif kind == "empty":
            _with_meta(src["run"], out, raw=b"{}")
        elif kind == "players":
            _with_meta(src["run"], out, lambda m: m.update(players=7))
        elif kind == "seats":
            _with_meta(src["run"], out, lambda m: m.update(players=3))
        elif kind == "winner":
            _with_meta(src["run"], out, drop=("winner",))
        elif kind == "reasons":
            _with_meta(src["run"], out, lambda m: m.update(reason_names=["won", "lost"]))
        elif kind == "part":
            out.write_bytes(src["part"].read_bytes())
        elif kind == "truncated":
            data = src["part"].read_bytes()
            out.write_bytes(data[: len(data) // 2])
        elif kind == "hostile":
            def edit(m):
                for seat, label in zip(m["seats"], (HOSTILE[0] + HOSTILE[2] + HOSTILE[3], "".join(HOSTILE[1:]))):
                    seat["label"] = label
            _with_meta(src["run"], out, edit)
        else:
            raise AssertionError(kind)
    return setup


# ---- patches for the failure rows (exit 1) ---------------------------------------------------

def _tonk_columns_with(payout_dtype=None, payout0_plus: int = 0):
    """Tonk's record columns with the payouts cast to ``payout_dtype`` (what the record was
    before issue 13: int16) or payout_0 off by ``payout0_plus``."""
    base = tonk_mod.GAME.record_columns

    def columns(rec, n):
        cols = base(rec, n)
        if payout_dtype is not None:
            cols.update(record_fields(rec, (("payout_{p}", tonk_mod.K.R_COL_PAY, payout_dtype),), n))
        if payout0_plus:
            cols["payout_0"] = cols["payout_0"] + payout0_plus
        return cols
    return columns


def patch_tonk(**fields):
    def apply(monkeypatch):
        monkeypatch.setattr(tonk_mod, "GAME", dataclasses.replace(tonk_mod.GAME, **fields))
    return apply


# ---- checks of the successful rows -----------------------------------------------------------

def zero_sum_means(res) -> None:
    """The issue's Tonk stake=10000 run with 4 players: the seats' mean payouts sum to 0
    (they summed to 4 x -5764 when the int16 columns wrapped)."""
    doc = json.loads(res.stdout)
    means = [s["mean_payout"] for s in doc["summary"]["seats"]]
    assert abs(sum(means)) < 1e-6 * max(1.0, max(abs(m) for m in means)), means
    assert max(abs(m) for m in means) > 50, means          # payouts really are in the ten-thousands


def escaped_summary(res) -> None:
    """Nothing from the file reaches the terminal raw: no ESC, BEL, CSI or bidi override;
    markup shows as text."""
    text = res.stdout
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in text, repr(raw)
    assert "\\x1b[31mRED" in text and "[bold red]markup[/bold red]" in text
    assert "\\x1b]0;pwned\\x07title" in text


def escaped_report(_res) -> None:
    md = Path("rep/report.md").read_text(encoding="utf-8")
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in md, repr(raw)
    assert "\\x1b[31mRED" in md
    outside_code = re.sub(r"(`+)(.+?)\1", "", md)       # what Markdown would interpret
    assert "<script>" not in outside_code and "[link](http" not in outside_code


# ---- the table -------------------------------------------------------------------------------

RUN = ("run", "tonk", "--deals", "50", "--out", "out.parquet")
FILE_CASES = [("bad JSON", "json", ("unreadable cardsim metadata",)),
              ("empty metadata {}", "empty", ("invalid cardsim metadata", "game None")),
              ("wrong player count", "players", ("players 7", "2..4")),
              ("seats for another player count", "seats", ("2 seats for 3 players",)),
              ("missing winner column", "winner", ("lacks the record column winner",)),
              ("wrong reason_names", "reasons", ("end reasons", "deal_tonk")),
              ("a dataset part file", "part", ("one part of a compare dataset",)),
              ("a truncated part file", "truncated", ("not a Parquet file", "truncated"))]

CASES = [
    # -- silently wrong numbers
    Case("tonk stake=10000 with 4 players is zero-sum", ("run", "tonk", "-p", "4", "-n", "3000", "-o", "stake=10000",
                                                          "--check", "--json"), 0, verify=zero_sum_means),
    Case("int16 payouts at stake=10000 fail loudly, not wrap",
         ("run", "tonk", "-p", "4", "-n", "3000", "-o", "stake=10000", "--out", "out.parquet"), 1,
         ("cannot record deal", "payout_", "does not fit its type int16"),
         patch=patch_tonk(record_columns=_tonk_columns_with(np.int16))),
    Case("--check verifies records: payouts not zero-sum", ("run", "tonk", "-n", "50", "--check"), 1,
         ("check failed in deal 0", "record payouts sum to 1, not 0"),
         patch=patch_tonk(record_columns=_tonk_columns_with(payout0_plus=1))),
    Case("--check verifies records: the game's record check", ("run", "tonk", "-n", "50", "--check", "--out",
                                                               "out.parquet"), 1,
         ("check failed in deal 3", "forced record problem"),
         patch=patch_tonk(record_check=lambda cols, opts, n: (3, "forced record problem"))),
    Case("stake above its cap", (*RUN, "-o", "stake=1000001"), 2, ("option stake", "<= 1000000", "got 1000001")),
    Case("--first-deal 2**63-11 --deals 20", (*RUN[:3], "20", "--first-deal", str(2 ** 63 - 11), *RUN[4:]), 2,
         ("--first-deal + --deals", "2**63-1")),
    Case("replay --deal 10**19", ("replay", "tonk", "--deal", str(10 ** 19)), 2, ("--deal", "2**63-2")),
    Case("sweep of 40,401 points", ("sweep", "tonk", "--strategy", "watcher", "--param", "threshold=0:50:0.25",
                                    "--param", "decay=0:10:0.05", "--deals", "10", "--out", "sw"), 2,
         ("sweep grid has 40,401 points (201 x 201)", "at most 1,000")),
    Case("sweep of 33,000 points", ("sweep", "tonk", "--strategy", "watcher", "--param", "threshold=0:32.9:0.1",
                                    "--param", "decay=0:9.9:0.1", "--deals", "10"), 2,
         ("sweep grid has 33,000 points (330 x 100)", "at most 1,000")),
    # -- one clear line instead of a traceback
    Case("--first-deal 10**30", (*RUN, "--first-deal", BIG), 2, ("--first-deal + --deals", "2**63-1")),
    Case("--deals 10**12 --shard-size 10**12", ("run", "tonk", "--deals", str(10 ** 12), "--shard-size",
                                                str(10 ** 12), "--out", "out.parquet"), 2,
         ("--shard-size 1,000,000,000,000", "TiB", "at most", "deals per shard")),
    Case("-o stake=10**30", (*RUN, "-o", f"stake={BIG}"), 2, ("option stake", "<= 1000000", BIG)),
    Case("-o max_turns=10**30", (*RUN, "-o", f"max_turns={BIG}"), 2, ("option max_turns", "<= 10000")),
    Case("odds --samples 10**30", ("odds", "telefunken", "--hand", "1", "--samples", BIG), 2,
         ("--samples", "<= 10,000,000,000")),
    Case("odds --samples 2**63-1", ("odds", "contract_rummy", "--deal", "1", "--samples", str(2 ** 63 - 1)), 2,
         ("--samples", "<= 10,000,000,000")),
    Case("replay --deal 10**30", ("replay", "tonk", "--deal", BIG), 2, ("--deal", "2**63-2")),
    *[Case(f"{cmd} on {what}", (cmd, "bad.parquet", *(("--out", "rep") if cmd == "report" else ())), 2, frags,
           setup=bad_file(kind)) for what, kind, frags in FILE_CASES for cmd in ("summarize", "report")],
    # -- refused or flagged where they were accepted
    Case("--deals 10**30", ("run", "tonk", "--deals", BIG, "--out", "out.parquet"), 2,
         ("--first-deal + --deals", "2**63-1")),
    Case("--until-ci nan", (*RUN, "--until-ci", "nan"), 2, ("--until-ci", "nan")),
    Case("--max-deals without --until-ci", (*RUN, "--max-deals", "100"), 2, ("--max-deals", "--until-ci")),
    Case("a parameter given twice", (*RUN, "--strategy", "knocker:threshold=3,threshold=9"), 2,
         ("parameter threshold", "given twice")),
    Case("full-width digits in a parameter", (*RUN, "--strategy", "knocker:threshold=８"), 2,
         ("parameter threshold", "not ASCII")),
    Case("full-width digits in an option", (*RUN, "-o", "stake=５"), 2, ("option stake", "not ASCII")),
    Case("an option given twice", (*RUN, "-o", "stake=2", "-o", "stake=3"), 2, ("option stake", "given twice")),
    Case("a fraction for a whole-number parameter", (*RUN, "--strategy", "watcher:wary_cards=2.5"), 2,
         ("wary_cards=2.5", "whole number")),
    Case("a fraction for a 0/1 parameter", ("run", "tripoli", "--deals", "5", "--strategy", "heuristic:sell_old=0.5",
                                            "--out", "out.parquet"), 2, ("sell_old=0.5", "whole number")),
    Case("a fraction in a sweep of a whole-number parameter",
         ("sweep", "tonk", "--strategy", "watcher", "--param", "wary_cards=0:2:0.5", "--deals", "10"), 2,
         ("wary_cards=0.5", "whole number")),
    Case("nan for a parameter", (*RUN, "--strategy", "knocker:threshold=nan"), 2, ("'nan'", "not a number")),
    Case("the same sweep axis twice", ("sweep", "tonk", "--strategy", "knocker", "--param", "threshold=1,2",
                                       "--param", "threshold=3,4", "--deals", "10", "--out", "sw"), 2,
         ("threshold is swept twice",)),
    Case("the same option axis twice", ("sweep", "tonk", "--strategy", "knocker", "--option-grid", "stake=1,2",
                                        "--option-grid", "stake=3", "--deals", "10"), 2, ("stake is swept twice",)),
    Case("a grid value twice", ("sweep", "tonk", "--strategy", "knocker", "--param", "threshold=2,2",
                                "--deals", "10"), 2, ("lists 2 twice",)),
    Case("run --out ''", ("run", "tonk", "--deals", "50", "--out", ""), 2, ("--out is empty",)),
    Case("compare --out ''", ("compare", "tonk", "--strategy", "greedy", "--strategy", "knocker", "--deals", "10",
                              "--out", ""), 2, ("--out is empty",)),
    Case("report --out ''", ("report", "run.parquet", "--out", ""), 2, ("--out is empty",),
         setup=lambda src, d: (d / "run.parquet").write_bytes(src["run"].read_bytes())),
    Case("local:N beyond the cores", (*RUN, "--cluster", f"local:{host_cores() + 1}"), 2,
         ("--cluster", f"local:{host_cores() + 1}", f"{host_cores()} cores")),
    Case("a parameter without a value", (*RUN, "--strategy", "knocker:threshold"), 2,
         ("parameter threshold", "missing value"), not_in=("unknown parameter",)),
    Case("an unknown parameter", (*RUN, "--strategy", "knocker:thresh=3"), 2,
         ("unknown parameter 'thresh'", "parameters: threshold")),
    # -- hostile files
    Case("summarize escapes the file's strings", ("summarize", "bad.parquet"), 0, setup=bad_file("hostile"),
         verify=escaped_summary),
    Case("report escapes the file's strings", ("report", "bad.parquet", "--out", "rep"), 0,
         setup=bad_file("hostile"), verify=escaped_report, keep=("rep",)),
]


def test_every_row_has_a_distinct_name():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case, sources, tmp_path, monkeypatch):
    check_case(case, sources, tmp_path, monkeypatch)


# ---- the sweep's point column ----------------------------------------------------------------

def test_sweep_point_column_holds_any_point_number():
    """`point` is int32: the rows of point 32,768 say 32,768 (an int16 column wrapped there).
    Identical points are played once (the shard's cache), so 32,769 of them are cheap."""
    exp = experiment.make_sweep("tonk", "knocker", ["threshold=4,8"], players=2, seed=1)
    many = dataclasses.replace(exp, points=(exp.points[0],) * 32_769)
    cols = experiment.play_experiment_shard(many, 0, 1)
    assert cols["point"].dtype == np.int32
    assert cols["point"][-2:].tolist() == [32_768, 32_768]


def test_grid_cap_counts_the_product():
    """The grid is capped on the product of its axis sizes, with the number in the message."""
    with pytest.raises(UsageError, match=r"1,001 points \(7 x 11 x 13\); at most 1,000"):
        experiment.make_sweep("tonk", "watcher", ["threshold=0:6:1", "decay=0:10:1"],
                              option_grid=["stake=" + ",".join(str(i) for i in range(1, 14))])
    exp = experiment.make_sweep("tonk", "watcher", ["threshold=0:9:1", "decay=0:9:1"],
                                option_grid=["stake=" + ",".join(str(i) for i in range(1, 11))], shard_size=64)
    assert len(exp.points) == 1000
    with pytest.raises(UsageError, match=r"at most [0-9,]+ deals per shard"):     # 1000 x 2 lineups x 64K deals
        experiment.make_sweep("tonk", "watcher", ["threshold=0:9:1", "decay=0:9:1"],
                              option_grid=["stake=" + ",".join(str(i) for i in range(1, 11))])


# ---- record dtypes at the option extremes ------------------------------------------------------

def _numeric_options(game):
    return [f for f in dataclasses.fields(game.options_cls) if option_range(f)]


def _value(f, v) -> str:
    return ",".join([str(v)] * len(f.default)) if isinstance(f.default, tuple) and f.default else str(v)


# options an extreme needs beside it (the others' defaults would refuse it), and extremes the
# engine does not support yet (known, reported: strict xfail so that a fix shows up)
COMPANIONS = {
    ("telefunken", "max_wilds_in_group", 8): ["allow_extra_melds=false"],
    ("telefunken", "max_wilds_in_run", 13): ["allow_extra_melds=false"],
    ("telefunken", "cut_aim", 1): ["cut_spread=0"],
    ("telefunken", "cut_aim", 105): ["cut_spread=0"],
    ("telefunken", "cut_spread", 104): ["cut_model=uniform"],
    ("telefunken", "no_buy_hands", 8): ["contracts=3p,3+3,4,4+4,5,5+5,3+r7,3+3+3", "hand7_must_go_out_at_once=false"],
    ("marafon", "marafona_points", 20): ["marafona_trump_only=false"],     # every cricca scores: more bonuses
}
PLAYERS = {("contract_rummy", "hand_sizes", 30): 3}
DEALS = {("marafon", "marafona_points", 20): 16}
KNOWN_BAD: dict = {}

EXTREMES = [pytest.param(g.name, f.name, v, id=f"{g.name}-{f.name}={v}",
                         marks=[pytest.mark.xfail(strict=True, reason=KNOWN_BAD[(g.name, f.name, v)])]
                         if (g.name, f.name, v) in KNOWN_BAD else [])
            for g in games().values() for f in _numeric_options(g) for v in option_range(f)]


def _play_and_replay(game: str, options: list[str], players=None, strategies=None, preset=None, deals: int = 2,
                     seed: int = 1) -> dict:
    """Play ``deals`` deals with --check (state and record checks) and compare every row's
    payouts with the replayed deal's."""
    cfg = runner.make_config(game, players, deals, seed, strategies, options, preset, 1, True, 0, deals)
    cols = runner.play_shard(cfg, 0, deals)
    for d in range(deals):
        st, _ = runner.replay(cfg, d)
        want = cfg.game.state_payouts(st, cfg.n_players)
        assert [int(cols[f"payout_{p}"][d]) for p in range(cfg.n_players)] == want, (game, options, d)
    return cols


@pytest.mark.parametrize("game, name, value", EXTREMES)
def test_each_option_at_each_end(game, name, value):
    """One whole-number option at one end of its range: accepted, and the records are exact."""
    f = next(f for f in _numeric_options(games()[game]) if f.name == name)
    options = [f"{name}={_value(f, value)}"] + COMPANIONS.get((game, name, value), [])
    _play_and_replay(game, options, PLAYERS.get((game, name, value)), deals=DEALS.get((game, name, value), 2))


@pytest.mark.parametrize("game", sorted(games()))
def test_each_option_just_outside_its_range(game):
    """One past either end is refused, naming the option and its range."""
    for f in _numeric_options(games()[game]):
        lo, hi = option_range(f)
        for v in (lo - 1, hi + 1):
            with pytest.raises(UsageError, match=f"option {f.name}"):
                runner.make_config(game, 3 if game == "contract_rummy" else None, 1,
                                   options=[f"{f.name}={_value(f, v)}"])


def test_every_whole_number_option_has_a_range():
    """A new whole-number option must declare the range its record columns were sized for."""
    import typing
    for g in games().values():
        hints = typing.get_type_hints(g.options_cls)
        for f in dataclasses.fields(g.options_cls):
            args = typing.get_args(hints[f.name])
            whole = hints[f.name] is int or set(args) == {int, type(None)}      # int, int | None
            if whole:
                assert option_range(f), f"{g.name}.{f.name} has no range"


# every option that makes payouts, counts or turns grow, at its maximum at once
ALL_MAX = {
    "tonk": dict(players=4, strategies=["knocker:threshold=50"],
                 options=["stake=1000000", "caught_knocker_also_pays_base=true", "max_turns=10000",
                          "max_turns_after_stock_empty=10000"], deals=6),
    # marafona_points at 3, not 20: see KNOWN_BAD
    "marafon": dict(options=["games_per_match=99", "max_hands=10000", "marafona_points=3", "target_thirds=3000",
                             "marafona_trump_only=false"], deals=2),
    "trionfo": dict(options=["trionfo_bid_stakes=1000,1000,1000,1000", "trionfo_hands=10000"], deals=1),
    "tripoli": dict(players=9, strategies=["heuristic:bid_max=1000,suit_bid_max=1000,bet_at=0,raise_at=0,call_at=0,"
                                           "bet_size=60"],
                    options=["ante_per_space=1000", "deals_per_session=1000", "auction_max_bid=100000",
                             "max_raises=1000", "bet_limit=60", "pay_suit_auction=true", "max_steps=1000000",
                             "clearing_pots=100"], deals=4),
    "telefunken": dict(players=5, options=["ace_points=100", "joker_points=100", "low_card_points=100",
                                           "chips_per_player=50", "leftover_chip_points=100",
                                           "exact_cut_bonus=points", "exact_cut_points=1000", "buy_penalty_cards=5",
                                           "max_turns_per_hand=30000", "cards_dealt=14"], deals=3),
    "contract_rummy": dict(players=3, preset="liverpool", options=["hand_sizes=30,30,30,30,30,30,30",
                                                                   "joker_points=100", "cut_bonus_points=1000",
                                                                   "max_turns_per_deal=30000"], deals=1),
}


@pytest.mark.parametrize("game", sorted(ALL_MAX))
def test_all_growing_options_at_their_maximum(game):
    """Payouts, turns and counts at their largest still fit their columns, exactly (several
    of these overflowed int16 before issue 13: Marafon's turns and hands, Tonk's payouts)."""
    conf = ALL_MAX[game]
    cols = _play_and_replay(game, conf["options"], conf.get("players"), conf.get("strategies"), conf.get("preset"),
                            conf["deals"])
    if game == "tonk":
        assert max(abs(int(cols[f"payout_{p}"].min())) for p in range(4)) > 32767
    if game == "marafon":
        assert int(cols["turns"].max()) > 32767 and int(cols["hands"].max()) > 1000


def test_tripoli_session_from_a_large_first_deal():
    """`session` comes from the int64 deal id (the kernel's int32 record wrapped it)."""
    first = 3 * 2 ** 31 + 5
    cfg = runner.make_config("tripoli", 3, 2, 1, None, ["deals_per_session=1"], first_deal=first, shard_size=2)
    cols = runner.play_shard(cfg, first, 2)
    assert cols["session"].tolist() == [first, first + 1]
    assert list(cols)[:2] == ["deal_id", "session"]


def test_strict_parameter_parsing_api():
    tonk = games()["tonk"]
    from cardsim.sim.registry import parse_seat
    assert parse_seat(tonk, "watcher:wary_cards=3").values[2] == 3.0
    assert parse_seat(tonk, "knocker:threshold=7.5").values == (7.5,)
    for bad, msg in (("knocker:threshold=", "missing value"), ("knocker:threshold=inf", "not a number"),
                     ("knocker:threshold=1e400", "out of range"), ("watcher:wary_cards=1.0000001", "whole number"),
                     ("knocker:threshold=٣", "not ASCII")):
        with pytest.raises(UsageError, match=msg):
            parse_seat(tonk, bad)


def test_record_dtypes_match_the_data_dictionary():
    """The Column table of every game names the dtype the records really have."""
    for g in games().values():
        n = g.players[2] if g.name != "contract_rummy" else 3
        cfg = runner.make_config(g.name, n, 2, 1, shard_size=2)
        cols = runner.play_shard(cfg, 0, 2)
        declared = {}
        for c in g.columns:
            pattern = "^" + re.sub(r"\\\{\w+\\\}", r"[0-9a-z]+", re.escape(c.name)) + "$"
            declared[pattern] = c.dtype
        for name, values in cols.items():
            want = [dt for pat, dt in declared.items() if re.match(pat, name)]
            assert want, f"{g.name}: column {name} is not in its data dictionary"
            got = "category" if name == "end_reason" else values.dtype.name
            assert got in want, (g.name, name, got, want)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs a /proc, where no directory can be made")
@pytest.mark.parametrize("command", [["run", "tonk"], ["compare", "tonk", "--strategy", "knocker", "--strategy", "greedy"]])
def test_an_out_that_cannot_be_made_is_a_usage_error(command):
    """Issue 43: an --out whose folder takes no new directory (``/proc``: writable by its mode,
    yet nothing can be made there) is exit 2 and one line, as the README says, before any play."""
    name = "/proc/cardsim-x.parquet" if command[0] == "run" else "/proc/cardsim-x"
    assert_usage_error(invoke(*command, "-n", 5, "--out", name), "--out cannot be written", "cannot be created")
