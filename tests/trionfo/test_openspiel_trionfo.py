"""Trionfo through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over option sets (every preset: tests/test_conformance.py), sessions played
through the bridge against the batch records, what a seat's strings and tensors may show (the
secret partner above all), and ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import trionfo as K  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402
from openspiel_helpers import (batch_and_bridge, decisions, ismcts_plays, lowest, play_like_the_batch,  # noqa: E402
                               resample_walk, same_pool, same_views, swap_cards)

# a session is ten hands by default; OpenSpiel's checks play two (the session's first hand, with
# the 5 of coins, and a later one); over the presets (tests/test_conformance.py) one, the game's
# quick option (every rule of a hand, redeals included)
SHORT = "trionfo_hands=2"


@pytest.mark.parametrize("params", [f"{SHORT},trionfo_bid_stakes=1_3_5_8,trionfo_win_points=8,first_dealer=3",
                                    f"{SHORT},trionfo_allow_self_call=True,trionfo_partner_levels=2,"
                                    "trionfo_auction=single_round"])
def test_random_sim_test(params):
    """Options beside the presets' (which cover the partner levels, both auctions, both partner
    methods, self-calls, both redeal dealers and every first leader)."""
    game = pyspiel.load_game(f"cardsim_trionfo({params})")
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)   # (each preset: test_conformance.py)


def test_a_full_session_is_zero_sum_and_ends():
    game = pyspiel.load_game("cardsim_trionfo")
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("options", [{}, {"trionfo_partner_method": "name_player", "trionfo_partner_levels": 2,
                                          "trionfo_redeal_dealer": "next"},
                                     {"trionfo_allow_self_call": True, "trionfo_auction": "single_round",
                                      "trionfo_first_leader": "declarer"}])
def test_a_bridged_session_is_the_batch_record(options):
    """Sessions played through OpenSpiel with cardsim's strategies at every seat (random among
    them, bidding often and passing often: redeals; its draws come from the same stream in the
    same order) end with the batch record's money, hand by hand."""
    strategies = ["heuristic:t1=17", "greedy:self_call=9", "random:pass_bias=40", "heuristic:t1=16,explore=0.1",
                  "heuristic:t1=18,self_call=10"]
    seed, n = 11, 12
    rec, game, sids, params = batch_and_bridge("trionfo", strategies, n, seed,
                                               {"first_dealer": 0, "trionfo_hands": 4, **options})
    redeals = 0
    for d in range(n):
        s = play_like_the_batch(game, seed, d, sids, params)
        assert s.returns() == [float(rec[f"payout_{p}"][d]) for p in range(5)], d
        st = s.inner.st
        assert int(st[K.ALL_REDEALS]) == int(rec["redeals"][d]), d
        redeals += int(st[K.ALL_REDEALS])
    assert redeals > 0


def test_views_show_only_the_seat_and_hide_the_partner():
    """A card swapped between two other hands leaves a seat's observation and information state
    as they were; the holder of the called card is hidden from the other seats (their views do
    not change when the called card moves to another hand) until it is played; legal actions
    ascend."""
    game = new_game("trionfo", options={"trionfo_hands": 2})
    rng = np.random.default_rng(3)
    swapped = hidden = 0
    for d in range(12):
        s = game.new_state()
        for legal in decisions(s, rng):
            p = s.current_player()
            st = s.st
            called = int(st[K.CALLED])
            first = [int(st[K.PARTNER])] if called >= 0 and not st[K.REVEALED] else []
            for a in first + list(range(5)):
                b = (a + 1 + int(rng.integers(4))) % 5
                if p in (a, b) or a == b:
                    continue
                ha, hb = int(st[K.HAND + a]), int(st[K.HAND + b])
                if not (ha and hb):
                    continue
                ca = called if called >= 0 and ha >> called & 1 else lowest(ha)
                cb = lowest(hb)
                t = s.clone()
                swap_cards(t.st, K.HAND + a, K.HAND + b, ca, cb)
                if ca == called and not st[K.REVEALED] and a != int(st[K.DECLARER]):
                    t.st[K.PARTNER] = b                   # the called card moved: so did the partner
                    hidden += 1
                elif ca == called:
                    continue
                same_views(s, t, [q for q in range(5) if q not in (a, b)])
                assert t.observation_string(a) != s.observation_string(a)
                swapped += 1
                break
            s.apply(legal[rng.integers(len(legal))])
    assert swapped > 300 and hidden > 20


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    game = pyspiel.load_game(f"cardsim_trionfo({SHORT})")
    rng = np.random.default_rng(5)

    def check(s, r, p):
        st, rt = s.st, r.st
        same_pool(st, rt, K.HAND, 5)
        if rt[K.CALLED] >= 0:
            assert rt[K.PARTNER] == K.owner_of(rt, rt[K.CALLED])
        return any(rt[K.HAND + q] != st[K.HAND + q] for q in range(5) if q != p)
    assert resample_walk(game, 3, rng, check) > 100
    ismcts_plays(game, rng)
