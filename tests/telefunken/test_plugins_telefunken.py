"""Telefunken plug-in strategies (issue 17): the decision kinds, the view, the plumbing.

* a plug-in reimplementing a built-in decision plays exactly its records (every seat, one seat);
* a plug-in that always answers -1 plays exactly its base;
* every decision kind is asked (an illegal answer for that kind alone stops the run);
* the view shows only what the deciding seat may see;
* an illegal answer is one ``Error:`` line, exit 2, naming the game, nothing written;
* replay and sweep take a plug-in.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from cardsim.kernels import telefunken as K
from cardsim.sim.registry import get_game
from cardsim.sim.runner import make_config, play_shard
from test_telefunken_strategies import decision_states, redeal_hidden
from plugin_helpers import invoke, same

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "telefunken_hold_back.py")
DATA = str(ROOT / "tests" / "data" / "plugins" / "telefunken_plugins.py")
GAME = get_game("telefunken")


def records(strats, n=40, players=4, seed=3, options=None, preset=None):
    opts = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in (options or {}).items()]
    cfg = make_config("telefunken", players, n, seed, strats, options=opts, preset=preset, workers=1)
    return play_shard(cfg, 0, n)


def test_the_hold_back_example_plays_the_planners_records():
    built = "planner:down_left=4,down_turn=40"
    plug = f"{EXAMPLE}:hold_back:left=4,turn=40"
    assert same(records([built, "greedy", "patient", built]), records([plug, "greedy", "patient", built]))
    assert same(records([built] * 4), records([plug] * 4))
    # and the hold back does happen: the default planner (never holding back) plays otherwise
    assert not same(records([built] * 4), records(["planner"] * 4))


def test_cut_keep_and_exchange_plug_ins_play_the_planners_records():
    over = {"cut_joker_keep": "optional"}
    built = "planner:exchange=0,cut_aim=50,keep_jokers=1"
    plug = f"{DATA}:planner_bits:exchange=0,cut_aim=50,keep=1"
    a = records([built] * 4, n=60, options=over)
    assert same(a, records([plug] * 4, n=60, options=over))
    assert same(records([built, "greedy", "random"], n=60, players=3, options=over),
                records([plug, "greedy", "random"], n=60, players=3, options=over))


@pytest.mark.parametrize("name,base", [("abstain", "random"), ("abstain_fuzz", "fuzz"),
                                       ("abstain_planner", "planner:down_left=4,down_turn=40,exchange=6")])
def test_a_plugin_answering_minus_one_plays_its_base(name, base):
    over = {"cut_joker_keep": "optional", "dealer_chooses_contract": True, "upcard_buyable": True}
    assert same(records([base] * 4, n=30, options=over), records([f"{DATA}:{name}"] * 4, n=30, options=over))
    assert same(records([base, "greedy", "patient"], n=30, players=3),
                records([f"{DATA}:{name}", "greedy", "patient"], n=30, players=3))


def test_hold_answers_are_taken():
    """A_HOLD on go down / lay / go out until turn 30: the seat lays nothing before then."""
    h = records([f"{DATA}:holder:turn=30", "greedy", "greedy", "greedy"], n=40)
    g = records(["greedy"] * 4, n=40)
    assert not same(h, g)
    assert h["total_0"].mean() > g["total_0"].mean()


# kind -> options under which it is asked
KIND_OPTIONS = {
    K.K_BUY: {}, K.K_UPCARD: {}, K.K_GO_DOWN: {}, K.K_GO_OUT: {}, K.K_LAY: {}, K.K_DISCARD: {},
    K.K_EXCHANGE: {}, K.K_CHOOSE: {"dealer_chooses_contract": "true"}, K.K_CUT: {},
    K.K_KEEP: {"cut_joker_keep": "optional"},
}


def test_every_kind_is_listed():
    assert sorted(GAME.plugin["kinds"]) == list(range(K.N_KINDS)) == sorted(KIND_OPTIONS)


@pytest.mark.parametrize("kind", sorted(KIND_OPTIONS))
def test_every_decision_kind_is_asked(tmp_path, kind):
    """An illegal answer for this kind alone: the run stops with the one-line error, exit 2,
    nothing written (so the kind was asked)."""
    (tmp_path / "mine.txt").write_text("keep\n")
    args = ["run", "telefunken", "-n", "12", "--strategy", f"{DATA}:illegal_for:kind={kind}", "--out", "o.parquet"]
    for k, v in KIND_OPTIONS[kind].items():
        args += ["--option", f"{k}={v}"]
    r = invoke(*args, cwd=tmp_path)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), r.output
    assert f"at decision kind {kind} " in lines[0] and "in deal" in lines[0], r.output
    assert sorted(os.listdir(tmp_path)) == [".o.parquet.work", "mine.txt"]      # a stopped run keeps its shards


def _low(mask):
    """The lowest natural of a mask, a joker for an empty one."""
    m = int(mask)
    return (m & -m).bit_length() - 1 if m else K.JK


def _view(st, opts, tab, seat, kind=K.K_DISCARD):
    view = np.zeros(K.VIEW_SIZE, np.int64)
    K.fill_view(st, opts, tab, seat, kind, view)
    return view


@pytest.mark.parametrize("preset,over", [("venezuela", {}), ("bolivia", {}), ("ecuador", {})])
def test_the_view_shows_only_what_the_seat_may_see(preset, over):
    rng = np.random.default_rng(11)
    checked = changed = 0
    for opts, st0, tab0 in decision_states(preset, over, ["greedy", "planner", "patient", "fuzz"], seed=4, every=9):
        seat = int(st0[K.ASK] if st0[K.PHASE] == K.P_BUY else st0[K.CUR])
        before = _view(st0, opts, tab0, seat)
        st1 = st0.copy()
        redeal_hidden(st1, seat, rng)
        assert K.cards_ok(st1, tab0)
        assert np.array_equal(before, _view(st1, opts, tab0, seat))
        checked += 1
        # the seat's own cards: one of them swapped for a card hidden from it shows
        n = int(st0[K.N])
        other = next((q for q in range(n) if q != seat and K.held(st0, q) > 0), None)
        if other is not None and K.held(st0, seat) > 0:
            st2 = st0.copy()
            mine = _low(st2[K.H1 + seat])
            theirs = _low(st2[K.H1 + other])
            if mine != theirs:
                K.take(st2, seat, mine), K.give(st2, other, mine)
                K.take(st2, other, theirs), K.give(st2, seat, theirs)
                assert not np.array_equal(before, _view(st2, opts, tab0, seat))
                changed += 1
    assert checked > 50 and changed > 20, (checked, changed)


def test_an_illegal_answer_names_the_game_and_writes_nothing(tmp_path):
    (tmp_path / "mine.txt").write_text("keep\n")
    r = invoke("run", "telefunken", "-p", "3", "-n", "20", "--strategy", "greedy", "--strategy",
               f"{DATA}:illegal_for:kind={K.K_DISCARD}", "--strategy", "greedy", "--out", "o.parquet", cwd=tmp_path)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), r.output
    assert "illegal_for returned" in lines[0] and "in deal 0 (seed" in lines[0], r.output
    assert sorted(os.listdir(tmp_path)) == [".o.parquet.work", "mine.txt"]      # a stopped run keeps its shards


def test_replay_of_a_plugin_game():
    label = f"{EXAMPLE}:hold_back:left=4,turn=40"
    r = invoke("replay", "telefunken", "--seed", "1", "--deal", "2", "-p", "3", "--strategy", label,
               "--strategy", "greedy", "--strategy", label)
    assert r.exit_code == 0, r.output
    assert "hold_back" in r.output
    from cardsim.sim.registry import seat_arrays, seat_plugin, seat_table
    seats = seat_table(GAME, [label, "greedy", label], 3)
    sids, params = seat_arrays(GAME, seats)
    plug, pprm = seat_plugin(GAME, seats)
    st, _ = GAME.replay(1, 2, GAME.options_cls().to_array(3), sids, params, False, plug, pprm)
    rec = records([label, "greedy", label], n=3, seed=1, players=3)
    assert [-int(st[K.TOTAL + p]) for p in range(3)] == [int(rec[f"payout_{p}"][2]) for p in range(3)]


def test_sweep_over_a_plugin_parameter():
    s = invoke("sweep", "telefunken", "-n", "20", "-q", "--strategy", f"{EXAMPLE}:hold_back:turn=40",
               "--param", "left=2,8", "--json")
    assert s.exit_code == 0, s.output
    assert "left" in s.output
