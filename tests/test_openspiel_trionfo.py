"""Trionfo through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over option sets and every preset, sessions played through the bridge against
the batch records, what a seat's strings and tensors may show (the secret partner above all), and
ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim  # noqa: E402
import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import trionfo as K  # noqa: E402
from cardsim.kernels.rng import STREAM_PLAY, seed_stream  # noqa: E402
from cardsim.kernels.tricks import best_trump  # noqa: E402
from cardsim.sim.games.trionfo import GAME  # noqa: E402
from cardsim.sim.games.trionfo_step import A_BID, A_CALL, A_NAME, A_TRUMP, batch_deck  # noqa: E402
from cardsim.sim.registry import seat_arrays, seat_table  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402

# a session is ten hands by default; OpenSpiel's checks play two (the session's first hand, with
# the 5 of coins, and a later one), over the presets one (every rule of a hand, redeals included)
SHORT = "trionfo_hands=2"


@pytest.mark.parametrize("params", [f"{SHORT},trionfo_bid_stakes=1_3_5_8,trionfo_win_points=8,first_dealer=3",
                                    f"{SHORT},trionfo_allow_self_call=True,trionfo_partner_levels=2,"
                                    "trionfo_auction=single_round"])
def test_random_sim_test(params):
    """Options beside the presets' (which cover the partner levels, both auctions, both partner
    methods, self-calls, both redeal dealers and every first leader)."""
    game = pyspiel.load_game(f"cardsim_trionfo({params})")
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_random_sim_test_presets(preset):
    game = pyspiel.load_game(f"cardsim_trionfo(preset={preset},trionfo_hands=1)")
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


def test_a_full_session_is_zero_sum_and_ends():
    game = pyspiel.load_game("cardsim_trionfo")
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def play_like_the_batch(game, seed, session, sids, params):
    """Session ``session`` through the bridge: chance fed with the batch's decks (redeals
    included), each decision made by the seat's kernel strategy on the session's play stream,
    in the batch's order."""
    o = game.step.opts
    gplay = np.zeros(2, np.uint64)
    seed_stream(gplay, seed, session, np.int64(STREAM_PLAY))
    s = game.new_initial_state()
    deck = None
    while not s.is_terminal():
        inner = s.inner
        st = inner.st
        if s.is_chance_node():
            if not inner._deck:
                deck = batch_deck(seed, session, int(st[K.HAND_IDX]), int(st[K.REDEALS]))
            s.apply_action(deck[len(inner._deck)])
            continue
        p = s.current_player()
        legal = s.legal_actions()
        sid, prm = int(sids[p]), params[p]
        if inner.phase == "bid":
            a = A_BID + int(K.choose_bid(st, p, st[K.HIGH_LEVEL], sid, prm, gplay))
        elif inner.phase == "trump":
            a = A_TRUMP + int(K.below(gplay, 4) if sid == K.S_RANDOM else best_trump(st[K.HAND + p]))
        elif inner.phase == "call":
            a = A_CALL + int(K.choose_called(st, p, st[K.TRUMP], sid, prm, gplay, o[K.O_SELF_CALL] != 0))
        elif inner.phase == "name":
            a = A_NAME + int(K.choose_named(st, p, sid, gplay))
        else:
            mask = sum(1 << c for c in legal)
            a = int(K.choose_card(st, o, p, mask, sid, gplay))
        assert a in legal, (inner.phase, a, legal)
        s.apply_action(a)
    return s


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
    opts = {"first_dealer": 0, "trionfo_hands": 4, **options}
    rec = cardsim.run("trionfo", deals=n, seed=seed, strategies=strategies, options=opts, workers=1).records
    text = ",".join(f"{k}={v}" for k, v in opts.items())
    game = pyspiel.load_game(f"cardsim_trionfo({text})")
    sids, params = seat_arrays(GAME, seat_table(GAME, strategies, 5))
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
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal == sorted(legal)
            if s.is_chance():
                s.apply(legal[rng.integers(len(legal))])
                continue
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
                ca = called if called >= 0 and ha >> called & 1 else (ha & -ha).bit_length() - 1
                cb = (hb & -hb).bit_length() - 1
                t = s.clone()
                t.st[K.HAND + a] = ha & ~(1 << ca) | 1 << cb
                t.st[K.HAND + b] = hb & ~(1 << cb) | 1 << ca
                if ca == called and not st[K.REVEALED] and a != int(st[K.DECLARER]):
                    t.st[K.PARTNER] = b                   # the called card moved: so did the partner
                    hidden += 1
                elif ca == called:
                    continue
                for q in range(5):
                    if q not in (a, b):
                        assert t.observation_string(q) == s.observation_string(q)
                        assert t.information_state_string(q) == s.information_state_string(q)
                        assert (t.observation_tensor(q) == s.observation_tensor(q)).all()
                assert t.observation_string(a) != s.observation_string(a)
                swapped += 1
                break
            s.apply(legal[rng.integers(len(legal))])
    assert swapped > 300 and hidden > 20


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game(f"cardsim_trionfo({SHORT})")
    rng = np.random.default_rng(5)
    moved = 0
    for d in range(3):
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
            assert r.observation_tensor(p) == s.observation_tensor(p)
            assert r.legal_actions() == s.legal_actions()
            st, rt = s.inner.st, r.inner.st
            held = [bin(int(st[K.HAND + q])).count("1") for q in range(5)]
            assert held == [bin(int(rt[K.HAND + q])).count("1") for q in range(5)]
            assert int(np.bitwise_or.reduce(rt[K.HAND:K.HAND + 5])) == int(np.bitwise_or.reduce(st[K.HAND:K.HAND + 5]))
            if rt[K.CALLED] >= 0:
                assert rt[K.PARTNER] == K.owner_of(rt, rt[K.CALLED])
            moved += any(rt[K.HAND + q] != st[K.HAND + q] for q in range(5) if q != p)
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.integers(len(legal))]))
    assert moved > 100
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
