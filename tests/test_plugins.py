"""Plug-in strategies (issue 17): a user's numba ``decide`` seated like a built-in strategy.

* a plug-in that reimplements a built-in decision plays exactly the built-in's records;
* its parameters are validated, swept and tuned like a built-in's;
* its view holds only what its seat may see (no peeking: hidden cards redistributed, the view
  is unchanged);
* every bad plug-in is one ``Error:`` line, exit code 2, nothing written.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from cardsim.kernels import tonk as K
from cardsim.kernels.rng import STREAM_DECK, seed_stream
from cardsim.sim.runner import make_config, play_shard
from cardsim.sim.games.tonk import TonkOptions
from plugin_helpers import invoke

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "examples" / "tonk_low_knock.py")
BAD = str(ROOT / "tests" / "data" / "plugins" / "bad_plugins.py")


def records(strats, n=3000, players=3, seed=3):
    return play_shard(make_config("tonk", players, n, seed, strats, workers=1), 0, n)


def test_a_plugin_reimplementing_knocker_plays_knockers_records():
    a = records(["knocker:threshold=5", "greedy", "watcher"])
    b = records([f"{EXAMPLE}:low_knock:threshold=5", "greedy", "watcher"])
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c = records([f"{EXAMPLE}:low_knock:threshold=5"] * 3)          # every seat the plug-in
    d = records(["knocker:threshold=5"] * 3)
    assert all(np.array_equal(c[k], d[k]) for k in c)


def test_plugin_parameters_run_sweep_and_tune_like_builtins(tmp_path):
    r = invoke("run", "tonk", "-p", "2", "-n", "2000", "-q", "--strategy", f"{EXAMPLE}:low_knock:threshold=4",
               "--strategy", "greedy")
    assert r.exit_code == 0, r.output
    assert "tonk_low_knock:low_knock:threshold=4" in r.output      # a plug-in's label: its file's stem (issue 43)
    s = invoke("sweep", "tonk", "-p", "2", "-n", "500", "-q", "--strategy", f"{EXAMPLE}:low_knock",
               "--param", "threshold=2,8", "--json")
    assert s.exit_code == 0, s.output
    bad = invoke("run", "tonk", "-n", "10", "--strategy", f"{EXAMPLE}:low_knock:threshold=99")
    assert bad.exit_code == 2 and "out of range [0, 50]" in bad.output
    pytest.importorskip("optuna")
    t = invoke("tune", "tonk", "-p", "2", "--strategy", f"{EXAMPLE}:low_knock", "--param", "threshold=0:12:1",
               "--budget", "3000", "-q", "-w", "1")
    assert t.exit_code == 0, t.output
    assert f"paste: --strategy {EXAMPLE}:low_knock:threshold=" in t.output
    lst = invoke("strategies", "tonk", "--plugin", f"{EXAMPLE}:low_knock")
    assert lst.exit_code == 0 and "threshold" in lst.output and "low_knock" in lst.output


def _view(st, opts):
    view = np.zeros(K.VIEW_SIZE, dtype=np.int64)
    K.fill_view(st, view)
    return view


def test_the_view_shows_only_what_the_seat_may_see():
    opts = TonkOptions().to_array(3)
    rng = np.random.default_rng(7)
    for d in range(40):
        st = K.new_state(opts)
        gen = np.empty(2, dtype=np.uint64)
        seed_stream(gen, 5, d, np.int64(STREAM_DECK))
        K.start_deal(st, opts, gen, d % 3, np.empty((0, 4), dtype=np.int64))
        if st[K.PHASE] == K.P_OVER:
            continue
        p = st[K.CUR]
        before = _view(st, opts)
        # redistribute every card the seat cannot see: the other hands (same sizes) and the stock
        others = [q for q in range(3) if q != p]
        hidden = [c for q in others for c in range(52) if st[K.HAND + q] >> c & 1]
        hidden += [int(st[K.DECK + i]) for i in range(st[K.STOCK_PTR], 52)]
        sizes = [bin(int(st[K.HAND + q])).count("1") for q in others]
        rng.shuffle(hidden)
        k = 0
        for q, size in zip(others, sizes):
            st[K.HAND + q] = sum(1 << c for c in hidden[k:k + size])
            k += size
        for i in range(st[K.STOCK_PTR], 52):
            st[K.DECK + i] = hidden[k]
            k += 1
        assert np.array_equal(before, _view(st, opts))


BAD_CASES = [
    (f"{BAD}:returns_illegal", "returned 3 (legal: 0..2 or -1) at decision kind 0 (turn start) in deal 0"),
    (f"{BAD}:wrong_signature", "decide must take (view, legal, n, prm)"),
    (f"{BAD}:cannot_compile", "numba cannot compile decide: No implementation of function"),
    (f"{BAD}:cannot_compile", "found for signature: add(Literal[str](x), readonly array(int64"),       # numba's own words
    (f"{BAD}:cannot_compile", '(bad_plugins.py, line 19: return len("x" + view))'),          # and where
    (f"{BAD}:undefined_name", "NameError: name 'not_defined_anywhere' is not defined (bad_plugins.py, line 24: "
                              "return not_defined_anywhere + 1"),
    (f"{BAD}:not_numba", "decide must be a numba function"),
    (f"{BAD}:for_telefunken", "is a strategy for telefunken, not tonk"),
    (f"{BAD}:bad_base", "unknown strategy 'nobody'"),
    (f"{BAD}:just_a_number", "is a int, not a cardsim.plugin.Strategy"),
    (f"{BAD}:missing", "has no strategy 'missing'"),
    ("no/such/file.py:x", "does not exist"),
    (str(ROOT / "tests" / "data" / "plugins" / "broken_file.py") + ":x", "does not import: RuntimeError"),
]


@pytest.mark.parametrize("label,words", BAD_CASES, ids=[c[0].rsplit("/", 1)[-1] for c in BAD_CASES])
def test_bad_plugins_are_one_line_and_exit_2(tmp_path, label, words):
    (tmp_path / "mine.txt").write_text("keep\n")
    r = invoke("run", "tonk", "-p", "2", "-n", "50", "--strategy", label, "--strategy", "greedy", "--out",
               "o.parquet", cwd=tmp_path)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], r.output
    kept = [".o.parquet.work"] if "returned" in words else []    # a stopped run keeps its shards
    assert sorted(os.listdir(tmp_path)) == sorted(["mine.txt", *kept])


def test_games_without_plugins_say_so():
    r = invoke("run", "telefunken", "-n", "5", "--strategy", f"{EXAMPLE}:low_knock")
    assert r.exit_code == 2 and "is a strategy for tonk, not telefunken" in r.output


def test_the_examples_run_as_their_first_line_says():
    for path in sorted((ROOT / "examples").glob("*.py")):
        doc = path.read_text().split('"""')[1]
        cmd = next(ln.strip() for ln in doc.splitlines() if ln.strip().startswith("cardsim "))
        args = cmd.split()[1:] + ["-n", "300", "-q"]
        r = invoke(*args, cwd=ROOT)
        assert r.exit_code == 0, (cmd, r.output)


def test_an_installed_entry_point_is_seated_and_listed_by_its_name(monkeypatch):
    from cardsim.sim import plugin as P
    from cardsim.sim.registry import get_game, parse_seat

    class FakeEntryPoint:                       # what importlib.metadata gives for the group
        name = "low_knock_ep"

        def load(self):
            return P._module_of(EXAMPLE).low_knock

    monkeypatch.setattr(P, "_entry_points", lambda: {"low_knock_ep": FakeEntryPoint()})
    seat = parse_seat(get_game("tonk"), "low_knock_ep:threshold=3")
    assert seat.plugin == ("", "low_knock_ep") and seat.label == "low_knock_ep:threshold=3"
    lst = invoke("strategies", "tonk")
    assert lst.exit_code == 0 and "low_knock_ep" in lst.output
    a = records(["low_knock_ep:threshold=3", "greedy"], n=500, players=2)
    b = records(["knocker:threshold=3", "greedy"], n=500, players=2)
    assert all(np.array_equal(a[k], b[k]) for k in a)
