"""Marafon plug-in strategies (issue 17): every decision kind (trump, optional marafona
declaration, claim, card) reaches a user's ``decide``; a plug-in that rewrites greedy plays
greedy's records byte for byte; the view shows only what the deciding seat may see; an
illegal answer is one ``Error:`` line naming the deal."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from cardsim.kernels import marafon as K
from cardsim.kernels.rng import seed_stream
from cardsim.sim.errors import UsageError
from cardsim.sim.games.marafon import MarafonOptions
from cardsim.sim.runner import make_config, play_shard
from test_marafon_strategies import redeal_hidden
from plugin_helpers import invoke, same

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "marafon_save_trumps.py")
PLUGS = str(ROOT / "tests" / "data" / "plugins" / "marafon_plugins.py")
NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)


def records(strats, n=1500, seed=3, preset=None):
    return play_shard(make_config("marafon", 4, n, seed, strats, preset=preset, workers=1, check=True), 0, n)


@pytest.mark.parametrize("preset", ["seed", "italian", "any_cricca", "best_of_three"])
def test_greedy_rewritten_as_a_plugin_plays_greedys_records(preset):
    g = f"{PLUGS}:greedy_plugin"
    assert same(records(["greedy"], preset=preset), records([g], preset=preset))          # every seat
    mix = ["heuristic", "random:claim_prob=0.01,claim_due=0.3", "heuristic"]
    assert same(records(["greedy"] + mix, preset=preset), records([g] + mix, preset=preset))  # one seat


def test_the_example_is_greedy_at_zero_and_plays_otherwise_above():
    base = records(["greedy", "heuristic", "greedy", "heuristic"])
    assert same(base, records([f"{EXAMPLE}:save_trumps:min_thirds=0", "heuristic"] * 2))
    assert not same(base, records([f"{EXAMPLE}:save_trumps:min_thirds=4", "heuristic"] * 2))


def test_a_plugin_that_always_passes_is_its_base():
    mix = ["greedy", "random", "heuristic:claim_margin=2,memory_noise=3"]
    for preset in ("seed", "italian"):
        assert same(records(["heuristic"] + mix, preset=preset), records([f"{PLUGS}:leave_it"] + mix, preset=preset))
        assert same(records(["heuristic"], preset=preset, n=500), records([f"{PLUGS}:leave_it"], preset=preset, n=500))


@pytest.mark.parametrize("kind", [K.K_TRUMP, K.K_DECLARE, K.K_CLAIM, K.K_CARD])
def test_every_kind_is_asked_and_an_illegal_answer_stops_the_run(tmp_path, kind):
    (tmp_path / "mine.txt").write_text("keep\n")
    seats = [f"{PLUGS}:illegal_at:kind={kind}", "heuristic", "greedy", "heuristic"]
    r = invoke("run", "marafon", "-n", "300", "--preset", "italian", *[x for s in seats for x in ("--strategy", s)],
               "--out", "o.parquet", cwd=tmp_path)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), r.output
    assert f"at decision kind {kind} " in lines[0] and "in deal" in lines[0] and "cardsim replay marafon" in lines[0]
    assert sorted(os.listdir(tmp_path)) == [".o.parquet.work", "mine.txt"]      # a stopped run keeps its shards
    deal = int(lines[0].split("in deal ")[1].split()[0])
    if deal:
        assert len(records(seats, n=deal, seed=0, preset="italian")["deal_id"]) == deal     # the deals before it play
    with pytest.raises(UsageError, match=f"in deal {deal} "):
        records(seats, n=deal + 1, seed=0, preset="italian")


def _view(st, opts, p, kind):
    view = np.zeros(K.VIEW_SIZE, np.int64)
    K.fill_view(st, opts, p, kind, view)
    return view


def test_the_view_shows_only_what_the_seat_may_see():
    """Along 20 hands of random play, at every card and for every seat's claim, the view is
    unchanged when the cards hidden from the seat are dealt otherwise (consistently with the
    voids shown and the marafone declared), and changes when the seat's own cards do."""
    opts = MarafonOptions(marafona_auto_declare=False).to_array(4)
    rng = np.random.default_rng(11)
    checked = changed = 0
    for h in range(20):
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = 4
        st[K.HAND_NO] = 1 + h % 3
        st[K.DEALER] = h % 4
        st[K.SCORE], st[K.SCORE + 1] = (3 * h) % 41, (7 * h) % 41
        g = np.zeros(2, np.uint64)
        seed_stream(g, 200 + h, 0, 0)
        K.begin_hand(st, g, NO_TRACE)
        b = int(st[K.BATT])
        assert np.array_equal(_view(st, opts, b, K.K_TRUMP), _view(redeal_hidden(st, b, [0] * 4, [0] * 4, rng),
                                                                   opts, b, K.K_TRUMP))
        K.set_trump(st, K.best_trump(st[K.HAND + b]), NO_TRACE)
        voids, known = [0] * 4, [0] * 4
        for t in range(K.TRICKS):
            for k in range(4):
                p = (int(st[K.LEADER]) + k) & 3
                if t == 0:
                    c = K.declarable(st, opts, p)
                    if c:
                        st[K.MARAF + (p & 1)] += bin(c).count("1")
                        st[K.DECL + p] |= c
                        for s in range(4):
                            if c >> s & 1:
                                known[p] |= 0b1110000000 << (10 * s)
                for q in range(4):                      # the claim window asks every seat
                    kind = K.K_CARD if q == p else K.K_CLAIM
                    other = redeal_hidden(st, q, voids, known, rng)
                    changed += bool((other[K.HAND:K.HAND + 4] != st[K.HAND:K.HAND + 4]).any())
                    assert np.array_equal(_view(st, opts, q, kind), _view(other, opts, q, kind))
                    checked += 1
                # the seat's own cards differ: the view differs
                mine, theirs = int(st[K.HAND + p]), int(st[K.HAND + (p + 1) % 4])
                if mine and theirs:
                    x, y = mine & -mine, theirs & -theirs
                    swapped = st.copy()
                    swapped[K.HAND + p] = mine ^ x ^ y
                    swapped[K.HAND + (p + 1) % 4] = theirs ^ x ^ y
                    assert not np.array_equal(_view(st, opts, p, K.K_CARD), _view(swapped, opts, p, K.K_CARD))
                legal = K.legal_cards(st[K.HAND + p], st[K.LED])
                card = int(K.choose_card(st, opts, p, legal, K.S_RANDOM, np.zeros(K.N_PARAMS), g))
                if st[K.LED] >= 0 and card // 10 != st[K.LED]:
                    voids[p] |= 1 << int(st[K.LED])
                K.put_card(st, p, card, NO_TRACE)
                known[p] &= int(st[K.HAND + p])
            K.finish_trick(st, NO_TRACE)
    assert checked == 20 * 40 * 4 and changed > 0.7 * checked


def test_replay_and_sweep_of_a_plugin():
    r = invoke("replay", "marafon", "--seed", "2", "--deal", "5", "--strategy", f"{EXAMPLE}:save_trumps:min_thirds=4")
    assert r.exit_code == 0 and "trump" in r.output and "end of game" in r.output, r.output
    s = invoke("sweep", "marafon", "-n", "300", "-q", "--strategy", f"{EXAMPLE}:save_trumps", "--param",
               "min_thirds=0,6", "--json")
    assert s.exit_code == 0, s.output
    assert "min_thirds=6" in s.output
