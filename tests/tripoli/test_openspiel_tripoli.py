"""Tripoli through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over player counts and option sets (every preset: tests/test_conformance.py),
sessions played through the bridge against the batch records (clearing rounds included), what a
seat's strings and tensors may show, and ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import tripoli as K  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402
from openspiel_helpers import (batch_and_bridge, decisions, ismcts_plays, lowest, play_like_the_batch,  # noqa: E402
                               resample_walk, same_views, swap_cards)

# a session is one deal per player by default; OpenSpiel's checks play sessions of two deals (the
# board carried from one deal to the next); over the presets (tests/test_conformance.py) of one deal
# with its clearing round, the game's quick option
SHORT = "deals_per_session=2"


@pytest.mark.parametrize("params", [f"players=2,{SHORT}", "players=9,deals_per_session=1,first_dealer=4",
                                    f"{SHORT},clearing_pots=0,widow_dealt_last=False",
                                    "deals_per_session=1,clearing_pots=3,max_raises=40,auction_max_bid=30,max_steps=60"])
def test_random_sim_test(params):
    game = pyspiel.load_game(f"cardsim_tripoli({params})")
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)   # (each preset: test_conformance.py)


def per_deal_payouts(game, seed, session, sids, params):
    """Session ``session`` through the bridge (``play_like_the_batch``, each deal on its own play
    stream): the final state and each deal's balance changes."""
    deals = int(game.step.opts[K.O_DEALS])
    money = []

    def watch(inner):
        if len(money) <= inner.deal_no:
            money.append(list(inner.money))
    s = play_like_the_batch(game, seed, session, sids, params, lambda inner: session * deals + inner.deal_no, watch)
    money.append(list(s.inner.money))
    return s, [[b - a for a, b in zip(x, y)] for x, y in zip(money, money[1:])]


@pytest.mark.parametrize("options", [{}, {"cosmo": True, "clearing_pots": 2, "bet_limit_mode": "total"},
                                     {"widow_exchange": False, "pay_suit_auction": True, "max_raises": 8}])
def test_a_bridged_session_is_the_batch_record(options):
    """Sessions played through OpenSpiel with cardsim's strategies at every seat (random and
    fuzz among them: their draws come from the same stream in the same order) give each deal's
    batch payouts, clearing rounds included."""
    strategies = ["heuristic", "random", "fuzz", "heuristic:bluff=0.3"]
    seed, sessions = 5, 3
    rec, game, sids, params = batch_and_bridge("tripoli", strategies, 4 * sessions, seed, {"first_dealer": 0, **options},
                                               players=4)
    for session in range(sessions):
        s, per_deal = per_deal_payouts(game, seed, session, sids, params)
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
        for legal in decisions(s, rng):
            p = s.current_player()
            st = s.st
            others = [q for q in range(5) if q != p and (q == 4 or st[K.HAND + q])]
            a, b = rng.choice(others, 2, replace=False)
            fa, fb = (K.WIDOW if x == 4 else K.HAND + x for x in (a, b))
            ha, hb = int(st[fa]) & ~int(st[K.PICK + a] if a < 4 else 0), int(st[fb]) & ~int(st[K.PICK + b] if b < 4 else 0)
            if ha and hb:
                t = s.clone()
                swap_cards(t.st, fa, fb, lowest(ha), lowest(hb))
                same_views(s, t, [q for q in range(4) if q not in (a, b) and not (4 in (a, b) and q == st[K.W_SEEN])])
                if a < 4:
                    assert t.observation_string(a) != s.observation_string(a)
                swapped += 1
            s.apply(legal[rng.integers(len(legal))])
    assert swapped > 200


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    game = pyspiel.load_game(f"cardsim_tripoli(players=3,{SHORT})")
    rng = np.random.default_rng(5)

    def check(s, r, p):
        st, rt = s.st, r.st
        assert [bin(int(st[K.HAND + q])).count("1") for q in range(3)] == \
            [bin(int(rt[K.HAND + q])).count("1") for q in range(3)]
        return any(rt[K.HAND + q] != st[K.HAND + q] for q in range(3) if q != p)
    assert resample_walk(game, 3, rng, check) > 50
    ismcts_plays(game, rng)
