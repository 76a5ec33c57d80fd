"""Marafon through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over the presets, matches played through the bridge against the batch
records, what a seat's strings and tensors may show, and ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim  # noqa: E402
import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import marafon as K  # noqa: E402
from cardsim.kernels.rng import STREAM_PLAY, seed_stream  # noqa: E402
from cardsim.sim.games.marafon import GAME  # noqa: E402
from cardsim.sim.games.marafon_step import A_CLAIM, A_DECLARE, A_NO, A_TRUMP, batch_deck  # noqa: E402
from cardsim.sim.registry import seat_arrays, seat_table  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402


@pytest.mark.parametrize("params", ["", "claim_timing=every_card,marafona_auto_declare=False",
                                    "games_per_match=3,first_dealer=2",
                                    "marafona_trump_only=False,marafona_declarer=battitore_only"])
def test_random_sim_test(params):
    game = pyspiel.load_game(f"cardsim_marafon({params})" if params else "cardsim_marafon")
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_random_sim_test_presets(preset):
    """Every preset; ``no_claims`` plays every hand out (random claims end most other matches
    early)."""
    game = pyspiel.load_game(f"cardsim_marafon(preset={preset})")
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


def play_like_the_batch(game, seed, match, sids, params, rng_check=True):
    """Match ``match`` through the bridge: chance fed with the batch's decks, each decision made
    by the seat's kernel strategy on the match's play stream, in the batch's order."""
    o = game.step.opts
    gplay = np.zeros(2, np.uint64)
    seed_stream(gplay, seed, match, np.int64(STREAM_PLAY))
    s = game.new_initial_state()
    deck = None
    while not s.is_terminal():
        inner = s.inner
        st = inner.st
        if s.is_chance_node():
            if not inner._deck:
                deck = batch_deck(seed, match, int(st[K.MATCH_HANDS]))
            s.apply_action(deck[len(inner._deck)])
            continue
        p = s.current_player()
        legal = s.legal_actions()
        prm = params[p]
        if inner.phase == "trump":
            a = A_TRUMP + int(K.choose_trump(st[K.HAND + p], sids[p], prm, o, gplay))
        elif inner.phase == "declare":
            a = A_DECLARE if K.wants_declare(sids[p], gplay) else A_NO
        elif inner.phase == "claim":
            a = A_CLAIM if K.wants_claim(st, o, p, sids[p], prm, gplay) else A_NO
        else:
            mask = sum(1 << c for c in legal)
            a = int(K.choose_card(st, p, mask, sids[p], prm, gplay))
        assert a in legal
        s.apply_action(a)
    return s


@pytest.mark.parametrize("options", [{}, {"claim_timing": "every_card", "marafona_auto_declare": False,
                                          "games_per_match": 3}])
def test_a_bridged_match_is_the_batch_record(options):
    """Matches played through OpenSpiel with cardsim's strategies at every seat (random among them:
    its draws come from the same stream in the same order) end with the batch record's payouts."""
    strategies = ["heuristic", "greedy", "random:claim_prob=0.02,claim_due=0.5", "heuristic:memory_noise=2"]
    seed = 7
    opts = {"first_dealer": 0, **options}
    rec = cardsim.run("marafon", deals=40, seed=seed, strategies=strategies, options=opts, workers=1).records
    text = ",".join(f"{k}={v}" for k, v in opts.items())
    game = pyspiel.load_game(f"cardsim_marafon({text})")
    sids, params = seat_arrays(GAME, seat_table(GAME, strategies, 4))
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
        for _ in range(150):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            assert legal == sorted(legal)
            if s.is_chance():
                s.apply(legal[rng.integers(len(legal))])
                continue
            p = s.current_player()
            a, b = (p + 1) % 4, (p + 2) % 4
            t = s.clone()
            ha, hb = int(t.st[K.HAND + a]), int(t.st[K.HAND + b])
            if ha and hb:
                ca, cb = (ha & -ha).bit_length() - 1, (hb & -hb).bit_length() - 1
                t.st[K.HAND + a] = ha & ~(1 << ca) | 1 << cb
                t.st[K.HAND + b] = hb & ~(1 << cb) | 1 << ca
                for q in range(4):
                    if q not in (a, b):
                        assert t.observation_string(q) == s.observation_string(q)
                        assert t.information_state_string(q) == s.information_state_string(q)
                        assert (t.observation_tensor(q) == s.observation_tensor(q)).all()
                assert t.observation_string(a) != s.observation_string(a)
                swapped += 1
            s.apply(A_NO if A_NO in legal else legal[rng.integers(len(legal))])   # no claims: long hands
    assert swapped > 100


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("cardsim_marafon")
    rng = np.random.default_rng(5)
    moved = 0
    for d in range(4):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = [o for o, _ in s.chance_outcomes()]
                s.apply_action(int(outs[rng.integers(len(outs))]))
                continue
            p = s.current_player()
            r = s.resample_from_infostate(p, None)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.legal_actions() == s.legal_actions()
            st, rt = s.inner.st, r.inner.st
            held = [bin(int(st[K.HAND + q])).count("1") for q in range(4)]
            assert held == [bin(int(rt[K.HAND + q])).count("1") for q in range(4)]
            assert int(np.bitwise_or.reduce(rt[K.HAND:K.HAND + 4])) == int(np.bitwise_or.reduce(st[K.HAND:K.HAND + 4]))
            moved += any(rt[K.HAND + q] != st[K.HAND + q] for q in range(4) if q != p)
            legal = s.legal_actions()
            a = A_NO if A_NO in legal else int(legal[rng.integers(len(legal))])   # few claims: long hands
            s.apply_action(a)
    assert moved > 20
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 10,
                           random_state=np.random.RandomState(1), allow_inconsistent_action_sets=True)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outs = [o for o, _ in s.chance_outcomes()]
            s.apply_action(int(outs[rng.integers(len(outs))]))
        else:
            a = bot.step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
    assert sum(s.returns()) == 0
