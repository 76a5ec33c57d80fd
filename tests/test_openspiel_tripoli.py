"""Tripoli through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over player counts, option sets and every preset, sessions played through the
bridge against the batch records (clearing rounds included), what a seat's strings and tensors
may show, and ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim  # noqa: E402
import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import tripoli as K  # noqa: E402
from cardsim.kernels.rng import seed_stream  # noqa: E402
from cardsim.sim.games.tripoli import GAME  # noqa: E402
from cardsim.sim.games.tripoli_step import action_id, batch_clearing, batch_deck  # noqa: E402
from cardsim.sim.registry import seat_arrays, seat_table  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402

# a session is one deal per player by default; OpenSpiel's checks play sessions of two deals (the
# board carried from one deal to the next) and, over the presets, of one deal with its clearing round
SHORT = "deals_per_session=2"


@pytest.mark.parametrize("params", [f"players=2,{SHORT}", "players=9,deals_per_session=1,first_dealer=4",
                                    f"{SHORT},clearing_pots=0,widow_dealt_last=False",
                                    "deals_per_session=1,clearing_pots=3,max_raises=40,auction_max_bid=30,max_steps=60"])
def test_random_sim_test(params):
    game = pyspiel.load_game(f"cardsim_tripoli({params})")
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", list(GAME.presets))
def test_random_sim_test_presets(preset):
    game = pyspiel.load_game(f"cardsim_tripoli(preset={preset},deals_per_session=1)")
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


def play_like_the_batch(game, seed, session, sids, params):
    """Session ``session`` through the bridge: chance fed with the batch's decks, dials and
    clearing cards, each decision made by the seat's kernel strategy on its deal's play stream.
    Returns the final state and each deal's balance changes."""
    o = game.step.opts
    n, deals = game.step.players, int(o[K.O_DEALS])
    acts = np.zeros(K.MAX_ACTS, np.int64)
    gplay = np.zeros(2, np.uint64)
    s = game.new_initial_state()
    at, per_deal, before = -1, [], [0] * n
    while not s.is_terminal():
        inner = s.inner
        st = inner.st
        d = session * deals + inner.deal_no
        if inner.deal_no != at:
            if at >= 0:
                per_deal.append([m - b for m, b in zip(inner.money, before)])
                before = list(inner.money)
            at = inner.deal_no
            seed_stream(gplay, seed, d, np.int64(K.STREAM_PLAY))
            deck, dials = batch_deck(seed, d)
            clearing = [batch_clearing(seed, d, j, n) for j in range(int(o[K.O_CLEARING]))]
        if s.is_chance_node():
            if inner.chance == "deal":
                s.apply_action(deck[len(inner._deck)])
            elif inner.chance == "dials":
                s.apply_action(dials[len(inner._deck)])
            else:
                s.apply_action(clearing[int(st[K.CL_INDEX])][len(inner._deck)])
            continue
        p = s.current_player()
        k = int(K.legal_actions(st, o, acts))
        i = int(K.choose(st, o, acts, k, int(sids[p]), params[p], gplay))
        a = action_id(int(acts[i]), o)
        assert a in s.legal_actions()
        s.apply_action(a)
    per_deal.append([m - b for m, b in zip(s.inner.money, before)])
    return s, per_deal


@pytest.mark.parametrize("options", [{}, {"cosmo": True, "clearing_pots": 2, "bet_limit_mode": "total"},
                                     {"widow_exchange": False, "pay_suit_auction": True, "max_raises": 8}])
def test_a_bridged_session_is_the_batch_record(options):
    """Sessions played through OpenSpiel with cardsim's strategies at every seat (random and
    fuzz among them: their draws come from the same stream in the same order) give each deal's
    batch payouts, clearing rounds included."""
    strategies = ["heuristic", "random", "fuzz", "heuristic:bluff=0.3"]
    seed, sessions = 5, 3
    opts = {"first_dealer": 0, **options}
    rec = cardsim.run("tripoli", players=4, deals=4 * sessions, seed=seed, strategies=strategies, options=opts,
                      workers=1).records
    text = ",".join(f"{k}={v}" for k, v in opts.items())
    game = pyspiel.load_game(f"cardsim_tripoli(players=4,{text})")
    sids, params = seat_arrays(GAME, seat_table(GAME, strategies, 4))
    for session in range(sessions):
        s, per_deal = play_like_the_batch(game, seed, session, sids, params)
        for k, got in enumerate(per_deal):
            d = session * 4 + k
            assert got == [int(rec[f"payout_{p}"][d]) for p in range(4)], (session, k)


def test_views_show_only_the_seat():
    """A card (not a poker pick) swapped between two other hands, or a hand and the widow, leaves
    a seat's observation and information state as they were (unless it has seen the widow);
    legal actions ascend."""
    game = new_game("tripoli", players=4, options={"deals_per_session": 1})
    rng = np.random.default_rng(3)
    swapped = 0
    for d in range(8):
        s = game.new_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal == sorted(legal)
            if s.is_chance():
                s.apply(legal[rng.integers(len(legal))])
                continue
            p = s.current_player()
            st = s.st
            others = [q for q in range(5) if q != p and (q == 4 or st[K.HAND + q])]
            a, b = rng.choice(others, 2, replace=False)
            fa, fb = (K.WIDOW if x == 4 else K.HAND + x for x in (a, b))
            ha, hb = int(st[fa]) & ~int(st[K.PICK + a] if a < 4 else 0), int(st[fb]) & ~int(st[K.PICK + b] if b < 4 else 0)
            if ha and hb:
                ca, cb = (ha & -ha).bit_length() - 1, (hb & -hb).bit_length() - 1
                t = s.clone()
                t.st[fa] = int(st[fa]) & ~(1 << ca) | 1 << cb
                t.st[fb] = int(st[fb]) & ~(1 << cb) | 1 << ca
                for q in range(4):
                    if q not in (a, b) and not (4 in (a, b) and q == st[K.W_SEEN]):
                        assert t.observation_string(q) == s.observation_string(q)
                        assert t.information_state_string(q) == s.information_state_string(q)
                        assert (t.observation_tensor(q) == s.observation_tensor(q)).all()
                if a < 4:
                    assert t.observation_string(a) != s.observation_string(a)
                swapped += 1
            s.apply(legal[rng.integers(len(legal))])
    assert swapped > 200


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game(f"cardsim_tripoli(players=3,{SHORT})")
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
            assert [bin(int(st[K.HAND + q])).count("1") for q in range(3)] == \
                [bin(int(rt[K.HAND + q])).count("1") for q in range(3)]
            moved += any(rt[K.HAND + q] != st[K.HAND + q] for q in range(3) if q != p)
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.integers(len(legal))]))
    assert moved > 50
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
