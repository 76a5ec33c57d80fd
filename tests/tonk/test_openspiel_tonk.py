"""The OpenSpiel bridge and the step API under it (issue 20; Tonk so far): OpenSpiel's own
random-simulation checks over the player counts (every preset: tests/test_conformance.py), a
bridged deal against cardsim's batch record, parameters, and what a seat's strings and tensors
may show."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim  # noqa: E402
import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import tonk as K  # noqa: E402
from cardsim.kernels.rng import STREAM_PLAY, seed_stream  # noqa: E402
from cardsim.sim.errors import UsageError  # noqa: E402
from cardsim.sim.games.tonk import GAME  # noqa: E402
from cardsim.sim.games.tonk.step import action_id, batch_deck  # noqa: E402
from openspiel_helpers import ismcts_plays, resample_walk, same_views  # noqa: E402
from cardsim.sim.registry import seat_arrays, seat_table  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test(players):
    """OpenSpiel's own checks (legal actions, chance outcomes, returns, clones, serialization)
    over 100 random games."""
    game = pyspiel.load_game(f"cardsim_tonk(players={players})")
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


def test_parameters_are_the_options():
    g = pyspiel.load_game("cardsim_tonk(players=4,deal_tonk_totals=50_,max_hits_per_turn=2,"
                          "caught_lowest_bonus=none,tonk_tie_redeal_same_dealer=True,stake=3)")
    o = g.step.options
    assert (o.deal_tonk_totals, o.max_hits_per_turn, o.caught_lowest_bonus, o.stake) == ((50,), 2, "none", 3)
    assert o.tonk_tie_redeal_same_dealer and g.num_players() == 4
    assert g.max_utility() == 27 and g.min_utility() == -27          # 3 (n - 1) S
    with pytest.raises(UsageError, match="caught_lowest_bonus"):
        pyspiel.load_game("cardsim_tonk(caught_lowest_bonus=nobody)")
    pyspiel.random_sim_test(g, num_sims=30, serialize=False, verbose=False)   # redeals by chance


@pytest.mark.parametrize("players", [2, 3])
def test_a_bridged_deal_is_the_batch_record(players):
    """Deals played through OpenSpiel, chance fed with the batch's cards and every seat's decision
    made by cardsim's strategy on its own play stream, end with the batch record's payouts."""
    strategies = ["strong", "knocker:threshold=6", "greedy"][:players]
    seed = 11
    run = cardsim.run("tonk", players=players, deals=60, seed=seed, strategies=strategies,
                      options={"first_dealer": 0}, workers=1)
    rec = run.records
    game = pyspiel.load_game(f"cardsim_tonk(players={players},first_dealer=0)")
    seats = seat_table(GAME, strategies, players)
    sids, params = seat_arrays(GAME, seats)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    checked = 0
    for d in range(0, 60, players):                  # deals the bridge's dealer (seat 0) deals
        if rec.end_reason[d] == "void_redeal":
            continue
        deck = batch_deck(seed, d, game.step.opts)
        gplay = np.zeros(2, np.uint64)
        seed_stream(gplay, seed, d, STREAM_PLAY)
        s = game.new_initial_state()
        dealt = 0
        while not s.is_terminal():
            if s.is_chance_node():
                inner = s.inner
                card = deck[dealt] if dealt < len(deck) and inner._deck_pending() else \
                    int(deck[int(inner.st[K.STOCK_PTR])])
                dealt += inner._deck_pending()
                assert card in dict(s.chance_outcomes())
                s.apply_action(card)
            else:
                p = s.current_player()
                st = s.inner.st
                k = K.legal_actions(st, game.step.opts, acts)
                a = int(acts[K.choose(st, game.step.opts, acts, k, sids[p], params[p], gplay)])
                assert action_id(a) in s.legal_actions()
                s.apply_action(action_id(a))
        assert s.returns() == [float(rec[f"payout_{p}"][d]) for p in range(players)], d
        checked += 1
    assert checked >= 15


def test_views_show_only_the_seat():
    """Hidden cards moved (another hand's card swapped with a stock card) leave every other
    seat's observation and information state as they were; the legal actions are ascending."""
    game = new_game("tonk", players=3)
    rng = np.random.default_rng(3)
    for d in range(20):
        s = game.new_state()
        for _ in range(60):
            if s.is_terminal():
                break
            if s.is_chance():
                outs = s.chance_outcomes()
                s.apply(outs[rng.integers(len(outs))][0])
                continue
            legal = s.legal_actions()
            assert legal == sorted(legal)
            p = s.current_player()
            other = (p + 1) % 3
            t = s.clone()
            st = t.st
            ptr = int(st[K.STOCK_PTR])
            hand = int(st[K.HAND + other]) & ~int(st[K.KNOWN + other])
            if hand and ptr < 52:
                c = (hand & -hand).bit_length() - 1
                j = K.DECK + ptr
                st[K.HAND + other] = (int(st[K.HAND + other]) & ~(1 << c)) | (1 << int(st[j]))
                st[j] = c
                same_views(s, t, [q for q in range(3) if q != other])
                assert t.observation_string(other) != s.observation_string(other)
            s.apply(legal[rng.integers(len(legal))])


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    """``resample_from_infostate`` (ISMCTS's determinization) keeps the player's information state
    and observation, moves the hidden cards, keeps cards known taken from the pile; OpenSpiel's
    ISMCTS bot plays a few deals through the bridge."""
    game = pyspiel.load_game("cardsim_tonk(players=3)")
    rng = np.random.default_rng(5)

    def check(s, r, p):
        for q in range(3):
            known = int(s.st[K.KNOWN + q] & s.st[K.HAND + q])
            assert int(r.st[K.HAND + q]) & known == known
        return any(r.st[K.HAND + q] != s.st[K.HAND + q] for q in range(3) if q != p)
    assert resample_walk(game, 15, rng, check) > 10
    ismcts_plays(game, rng, games=3, simulations=20)
