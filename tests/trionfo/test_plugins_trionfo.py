"""Trionfo plug-in strategies (issue 17): every decision kind (bid, trump, the call of the
partner's card with self-calls, naming a partner, card) reaches a user's ``decide``; a
plug-in that rewrites greedy plays greedy's records byte for byte; the view shows only what
the deciding seat may see (never a hidden hand, never the secret partner); an illegal answer
is one ``Error:`` line naming the deal."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from cardsim.kernels import trionfo as K
from cardsim.kernels.rng import seed_stream
from cardsim.sim.errors import UsageError
from cardsim.sim.games.trionfo import GAME, TrionfoOptions
from cardsim.sim.runner import make_config, play_shard
from cardsim.sim.registry import seat_arrays, seat_table
from test_trionfo_strategies import redeal_hidden
from plugin_helpers import invoke, same

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "trionfo_long_trumps.py")
PLUGS = str(ROOT / "tests" / "data" / "plugins" / "trionfo_plugins.py")
NO_TRACE = np.zeros((0, K.TRACE_W), np.int64)
PRESETS = ["seed", "partner2", "single_round", "open_partner", "self_call"]


def records(strats, n=400, seed=3, preset=None):
    return play_shard(make_config("trionfo", 5, n, seed, strats, preset=preset, workers=1, check=True), 0, n)


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_rewritten_as_a_plugin_plays_greedys_records(preset):
    g = f"{PLUGS}:greedy_plugin"
    assert same(records(["greedy"], preset=preset), records([g], preset=preset))          # every seat
    mix = ["heuristic", "random", "heuristic:explore=0.2", "greedy:self_call=9"]
    assert same(records(["greedy"] + mix, preset=preset), records([g] + mix, preset=preset))  # one seat


def test_the_example_is_greedy_at_zero_and_plays_otherwise_above():
    base = records(["greedy", "heuristic"] * 2 + ["greedy"])
    assert same(base, records([f"{EXAMPLE}:long_trumps:min_trumps=0", "heuristic"] * 2
                              + [f"{EXAMPLE}:long_trumps:min_trumps=0"]))
    assert not same(base, records([f"{EXAMPLE}:long_trumps:min_trumps=4", "heuristic"] * 2
                                  + [f"{EXAMPLE}:long_trumps:min_trumps=4"]))


@pytest.mark.parametrize("preset", ["seed", "open_partner", "self_call"])
def test_a_plugin_that_always_passes_is_its_base(preset):
    mix = ["greedy", "random:pass_bias=2", "heuristic:explore=0.3", "greedy:self_call=9"]
    assert same(records(["heuristic"] + mix, preset=preset), records([f"{PLUGS}:leave_it"] + mix, preset=preset))
    assert same(records(["heuristic"], preset=preset), records([f"{PLUGS}:leave_it"], preset=preset))


KIND_PRESETS = [(K.K_BID, "seed", 0), (K.K_TRUMP, "seed", 1), (K.K_CALL, "self_call", 0),
                (K.K_NAME, "open_partner", 1), (K.K_CARD, "seed", 0)]


@pytest.mark.parametrize("kind,preset,negative", KIND_PRESETS)
def test_every_kind_is_asked_and_an_illegal_answer_stops_the_run(tmp_path, kind, preset, negative):
    (tmp_path / "mine.txt").write_text("keep\n")
    seats = [f"{PLUGS}:illegal_at:kind={kind},negative={negative}", "heuristic", "greedy", "heuristic", "random"]
    r = invoke("run", "trionfo", "-n", "200", "--preset", preset, *[x for s in seats for x in ("--strategy", s)],
               "--out", "o.parquet", cwd=tmp_path)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), r.output
    assert f"at decision kind {kind} " in lines[0] and "in deal" in lines[0] and "cardsim replay trionfo" in lines[0]
    assert sorted(os.listdir(tmp_path)) == [".o.parquet.work", "mine.txt"]      # a stopped run keeps its shards
    deal = int(lines[0].split("in deal ")[1].split()[0])
    if deal:
        assert len(records(seats, n=deal, seed=0, preset=preset)["deal_id"]) == deal      # the deals before it play
    with pytest.raises(UsageError, match=f"in deal {deal} "):
        records(seats, n=deal + 1, seed=0, preset=preset)


def _view(st, opts, p, kind):
    view = np.zeros(K.VIEW_SIZE, np.int64)
    K.fill_view(st, opts, p, kind, view)
    return view


def test_the_view_shows_only_what_the_seat_may_see():
    """Along 30 hands (the seed rules and the self_call preset in turn), at every speech, at
    the trump and the call, and at every card for every seat, the view is unchanged when the
    cards hidden from the seat are dealt otherwise (consistently with the voids shown; the
    secret partner moves with the called card), and changes when the seat's own cards do."""
    rng = np.random.default_rng(13)
    bidder = seat_arrays(GAME, seat_table(GAME, ["heuristic:t1=0,t2=40,t3=40,t4=40"], 5))   # chiamo at once
    checked = moved = secret = 0
    for h in range(30):
        opts = TrionfoOptions(**(GAME.presets["self_call"] if h % 2 else {})).to_array(5)
        self_ok = bool(opts[K.O_SELF_CALL])
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = 5
        st[K.HAND_IDX] = h % 3
        st[K.DEALER] = h % 5
        g = np.zeros(2, np.uint64)
        seed_stream(g, 400 + h, 0, 0)
        K.deal(st, g, NO_TRACE)
        voids = [0] * 5

        def check(p, kind):
            nonlocal checked, moved, secret
            other = redeal_hidden(st, p, voids, {}, rng, self_ok)
            moved += bool((other[K.HAND:K.HAND + 5] != st[K.HAND:K.HAND + 5]).any())
            v = _view(st, opts, p, kind)
            assert np.array_equal(v, _view(other, opts, p, kind)), (h, p, kind)
            secret += v[K.V_PARTNER] == -2
            checked += 1

        p, spoken = int(st[K.FIRST_SPEAKER]), 0
        while not K.auction_over(st, opts, spoken):
            if not (st[K.PASSED] >> p) & 1:
                check(p, K.K_BID)
                K.speak(st, p, K.choose_bid(st, p, st[K.HIGH_LEVEL], bidder[0][p], bidder[1][p], g), NO_TRACE)
                spoken += 1
            p = (p + 1) % 5
        d = int(st[K.HIGH_BIDDER])
        st[K.DECLARER] = d
        check(d, K.K_TRUMP)
        st[K.TRUMP] = K.best_trump(st[K.HAND + d])
        check(d, K.K_CALL)
        own = st[K.HAND + d] & (0x3FF << (10 * st[K.TRUMP]))
        st[K.CALLED] = (int(own).bit_length() - 1) if self_ok and own else next(
            10 * int(st[K.TRUMP]) + s for s in range(9, -1, -1) if not st[K.HAND + d] >> (10 * int(st[K.TRUMP]) + s) & 1)
        st[K.PARTNER] = K.owner_of(st, st[K.CALLED])
        st[K.LEADER] = st[K.FIRST_BIDDER]
        for t in range(K.TRICKS):
            for k in range(5):
                p = (int(st[K.LEADER]) + k) % 5
                for q in range(5):
                    check(q, K.K_CARD)
                mine, theirs = int(st[K.HAND + p]), int(st[K.HAND + (p + 1) % 5])
                x, y = mine & -mine, theirs & -theirs
                swapped = st.copy()
                swapped[K.HAND + p] = mine ^ x ^ y
                swapped[K.HAND + (p + 1) % 5] = theirs ^ x ^ y
                assert not np.array_equal(_view(st, opts, p, K.K_CARD), _view(swapped, opts, p, K.K_CARD))
                legal = K.legal_cards(st[K.HAND + p], st[K.LED])
                card = int(K.choose_card(st, opts, p, legal, K.S_RANDOM, np.zeros(K.N_PARAMS), g))
                if st[K.LED] >= 0 and card // 10 != st[K.LED]:
                    voids[p] |= 1 << int(st[K.LED])
                st[K.HAND + p] &= ~(1 << card)
                st[K.PLAYED] |= 1 << card
                if st[K.NCARDS] == 0:
                    st[K.LED] = card // 10
                st[K.TRICK + st[K.NCARDS]] = card
                st[K.NCARDS] += 1
                if card == st[K.CALLED]:
                    st[K.REVEALED] = 1
            K.finish_trick(st, NO_TRACE)
        assert K.check_cards(st) == 0
    assert moved > 0.7 * checked and secret > 0.2 * checked


def test_replay_and_sweep_of_a_plugin():
    r = invoke("replay", "trionfo", "--seed", "2", "--deal", "5", "--strategy", f"{EXAMPLE}:long_trumps:min_trumps=4")
    assert r.exit_code == 0 and "trick" in r.output, r.output
    s = invoke("sweep", "trionfo", "-n", "200", "-q", "--strategy", f"{EXAMPLE}:long_trumps", "--param",
               "min_trumps=0,5", "--json")
    assert s.exit_code == 0, s.output
    assert "min_trumps=5" in s.output
