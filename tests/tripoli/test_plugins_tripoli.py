"""Plug-in strategies in Tripoli (issue 17): every decision kind is a plug-in kind.

* the worked example at ``widow_stops=0`` reimplements the heuristic's Michigan lead: the same
  records as the heuristic (one seat and every seat); a plug-in that leaves everything to its
  base plays its base's records;
* every decision kind is asked (an illegal answer for that kind alone stops the run);
* no peeking: hidden cards redistributed as ``test_tripoli_peeking`` does, the view is the same;
* an illegal answer is one ``Error:`` line naming the deal, exit 2, nothing written;
* a plug-in deal replays, and a plug-in parameter sweeps.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from cardsim.kernels import tripoli as K
from cardsim.sim.errors import UsageError
from cardsim.sim.runner import make_config, play_shard, replay
from test_tripoli_peeking import fuzz_decision_states, redeal
from plugin_helpers import invoke

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "tripoli_widow_stops.py")
PLUGS = str(ROOT / "tests" / "data" / "plugins" / "tripoli_plugins.py")
SAME = f"{EXAMPLE}:widow_stops:widow_stops=0"          # the heuristic's lead, as a plug-in
UNSET = -(1 << 62)


def records(strats, n=600, players=5, seed=3, preset=None, check=False):
    cfg = make_config("tripoli", players, n, seed, strats, preset=preset, workers=1, check=check)
    return play_shard(cfg, 0, n)


def same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("preset", [None, "rummoli", "colours"])
def test_the_example_at_widow_stops_0_plays_the_heuristics_records(preset):
    h = records(["heuristic"] * 5, preset=preset)
    assert same(h, records([SAME] * 5, preset=preset))                           # every seat
    assert same(records(["heuristic", "fuzz", "heuristic", "random", "heuristic"], preset=preset),
                records([SAME, "fuzz", "heuristic", "random", "heuristic"], preset=preset))   # one seat
    assert not same(h, records([f"{EXAMPLE}:widow_stops:widow_stops=1"] * 5, preset=preset))


def test_a_plugin_that_leaves_every_decision_to_its_base_plays_the_base():
    for preset in (None, "suit_auction"):
        assert same(records(["fuzz"] * 4, players=4, preset=preset),
                    records([f"{PLUGS}:pass_fuzz"] * 4, players=4, preset=preset))
        assert same(records(["heuristic", "random", "heuristic"], players=3, preset=preset),
                    records([f"{PLUGS}:pass_heuristic", "random", "heuristic"], players=3, preset=preset))


def test_a_plugin_answering_every_decision_plays_clean_deals_in_check_mode():
    for preset in (None, "suit_auction", "long_session"):
        r = records([f"{PLUGS}:first_legal"] * 2 + ["heuristic"] * 2, n=200, players=4, preset=preset, check=True)
        assert not r["truncated"].any()


@pytest.mark.parametrize("kind", range(K.N_KINDS), ids=K.KIND_NAMES)
def test_every_decision_kind_is_asked(kind):
    preset = "suit_auction" if kind in (K.K_SUIT_BID, K.K_SUIT) else None
    label = f"{PLUGS}:illegal_at:kind={kind}"
    with pytest.raises(UsageError, match=rf"returned -?\d+ \(legal: [^)]*\) at decision kind {kind} .*in deal \d+"):
        records([label] * 5, n=100, preset=preset)


def _view(st, opts):
    view = np.full(K.VIEW_SIZE, UNSET, dtype=np.int64)
    K.fill_view(st, opts, view)
    return view


def test_the_view_shows_only_what_the_seat_may_see():
    """Deals driven by fuzz (every decision kind comes up); at the decision points the cards
    hidden from the deciding seat are dealt again as ``test_tripoli_peeking.redeal`` does
    (consistently with what the seat has seen): its view must not change. A change of its own
    cards changes it."""
    rng = np.random.default_rng(17)
    checked = {}
    presets = ["seed", "rummoli", "suit_auction", "no_widow", "colours", "long_session"]
    for st, opts, p, preset, n, _ in fuzz_decision_states(presets, 90, 17):
        if st[K.PHASE] <= K.P_SUIT or rng.random() < 0.25:
            v = _view(st, opts)
            assert (v != UNSET).all()                                   # every slot written
            kind = int(v[K.V_KIND])
            assert v[K.V_SEAT] == p and v[K.V_HAND] == st[K.HAND + p]
            if st[K.W_SEEN] == p:
                assert v[K.V_WIDOW] == st[K.WIDOW]
            elif st[K.PHASE] <= K.P_SUIT:
                assert v[K.V_WIDOW] == 0                               # nothing of it is public yet
            for _ in range(3):
                st2 = redeal(st, opts, p, rng)
                assert np.array_equal(v, _view(st2, opts)), (K.KIND_NAMES[kind], preset, n)
            own = st.copy()                                           # swap an own card with a hidden one
            q = (p + 1) % n
            mine, theirs = int(st[K.HAND + p]), int(st[K.HAND + q])
            if mine and theirs:
                a, b = mine & -mine, theirs & -theirs
                own[K.HAND + p], own[K.HAND + q] = mine ^ a | b, theirs ^ b | a
                assert not np.array_equal(v, _view(own, opts))
            checked[kind] = checked.get(kind, 0) + 1
    assert set(checked) == set(range(K.N_KINDS)), {K.KIND_NAMES[k]: c for k, c in checked.items()}


def test_an_illegal_answer_is_one_error_line_naming_the_deal_and_nothing_is_written(tmp_path):
    (tmp_path / "mine.txt").write_text("keep\n")
    label = f"{PLUGS}:illegal_at:kind={K.K_LEAD}"
    r = invoke("run", "tripoli", "-p", "3", "-n", "50", "--strategy", label, "--strategy", "heuristic",
               "--strategy", "heuristic", "--out", "o.parquet", cwd=tmp_path)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1, r.output
    assert lines[0].startswith("Error:") and "at decision kind" in lines[0] and "in deal 0" in lines[0], r.output
    assert sorted(os.listdir(tmp_path)) == [".o.parquet.work", "mine.txt"]      # a stopped run keeps its shards


def test_a_plugin_deal_replays_as_the_batch_played_it():
    strats = [f"{EXAMPLE}:widow_stops", "heuristic", "heuristic"]
    cfg = make_config("tripoli", 3, 12, 5, strats, workers=1)
    rec = play_shard(cfg, 0, 12)
    for d in (0, 5, 11):                             # 11: a session's last deal (clearing round)
        st, _ = replay(cfg, d)
        assert [int(st[K.CHIPS + p]) for p in range(3)] == [int(rec[f"payout_{p}"][d]) for p in range(3)]
    r = invoke("replay", "tripoli", "-p", "3", "--seed", "5", "--deal", "5", "--json", *sum(
        (["--strategy", s] for s in strats), []))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert any(e.get("action") == "lead" for e in doc["events"])


def test_a_plugin_parameter_sweeps():
    s = invoke("sweep", "tripoli", "-p", "3", "-n", "300", "-q", "--strategy", f"{EXAMPLE}:widow_stops",
               "--param", "widow_stops=0,1", "--json")
    assert s.exit_code == 0, s.output
    bad = invoke("run", "tripoli", "-p", "3", "-n", "10", "--strategy", f"{EXAMPLE}:widow_stops:widow_stops=2")
    assert bad.exit_code == 2 and "out of range" in bad.output
