"""Marafon through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over option sets (every preset: tests/test_conformance.py), matches played
through the bridge against the batch records, what a seat's strings and tensors may show, and
ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import marafon as K  # noqa: E402
from cardsim.sim.games.marafon.step import A_NO  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402
from openspiel_helpers import (batch_and_bridge, decisions, ismcts_plays, lowest, play_like_the_batch,  # noqa: E402
                               resample_walk, same_pool, same_views, swap_cards)


@pytest.mark.parametrize("params", ["", "claim_timing=every_card,marafona_auto_declare=False",
                                    "games_per_match=3,first_dealer=2",
                                    "marafona_trump_only=False,marafona_declarer=battitore_only"])
def test_random_sim_test(params):
    game = pyspiel.load_game(f"cardsim_marafon({params})" if params else "cardsim_marafon")
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)   # (each preset: test_conformance.py)


@pytest.mark.parametrize("options", [{}, {"claim_timing": "every_card", "marafona_auto_declare": False,
                                          "games_per_match": 3}])
def test_a_bridged_match_is_the_batch_record(options):
    """Matches played through OpenSpiel with cardsim's strategies at every seat (random among them:
    its draws come from the same stream in the same order) end with the batch record's payouts."""
    strategies = ["heuristic", "greedy", "random:claim_prob=0.02,claim_due=0.5", "heuristic:memory_noise=2"]
    seed = 7
    rec, game, sids, params = batch_and_bridge("marafon", strategies, 40, seed, {"first_dealer": 0, **options})
    for d in range(40):
        s = play_like_the_batch(game, seed, d, sids, params)
        assert s.returns() == [float(rec[f"payout_{p}"][d]) for p in range(4)], d
        assert int(s.inner.st[K.MATCH_HANDS]) == int(rec["hands"][d]), d


def test_views_show_only_the_seat():
    """A card swapped between two other hands leaves a seat's observation and information
    state as they were; legal actions ascend."""
    game = new_game("marafon")
    rng = np.random.default_rng(3)
    swapped = 0
    for d in range(10):
        s = game.new_state()
        for legal in decisions(s, rng, 150):
            p = s.current_player()
            a, b = (p + 1) % 4, (p + 2) % 4
            t = s.clone()
            ha, hb = int(t.st[K.HAND + a]), int(t.st[K.HAND + b])
            if ha and hb:
                swap_cards(t.st, K.HAND + a, K.HAND + b, lowest(ha), lowest(hb))
                same_views(s, t, [q for q in range(4) if q not in (a, b)])
                assert t.observation_string(a) != s.observation_string(a)
                swapped += 1
            s.apply(A_NO if A_NO in legal else legal[rng.integers(len(legal))])   # no claims: long hands
    assert swapped > 100


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    game = pyspiel.load_game("cardsim_marafon")
    rng = np.random.default_rng(5)

    def check(s, r, p):
        st, rt = s.st, r.st
        same_pool(st, rt, K.HAND, 4)
        return any(rt[K.HAND + q] != st[K.HAND + q] for q in range(4) if q != p)
    # few claims: long hands
    assert resample_walk(game, 4, rng, check, lambda s, legal: A_NO if A_NO in legal else
                         legal[rng.integers(len(legal))]) > 20
    ismcts_plays(game, rng)
