"""Trionfo's search strategy (issue 19): its public bookkeeping (voids), determinizations
consistent with everything public (the called card and so the secret partner included), no
peeking, determinism across workers, and the kernel row it builds."""
import numpy as np
import pytest

import cardsim
from cardsim.kernels import trionfo as K
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.sim.games.trionfo import GAME, TrionfoOptions
from cardsim.sim.registry import seat_arrays, seat_table, short_label
from test_trionfo_strategies import NO_PLUG, NO_TRACE, gen, redeal_hidden, seat

SEARCH = "search:worlds=3"
FIVE_D = 1 << K.FIVE_COINS


def hands_of_random_play(n_hands, seed):
    """Yield (st, opts, p, voids, fixed) before every card of ``n_hands`` hands (the seed rules
    and the self_call preset in turn; chiamo or random contracts, random cards): the state, the
    seat to play, and this test's own tracking of the voids shown and of the cards known to be
    in a hand (the session's first hand: 5D with the first speaker)."""
    chiamo = seat("heuristic:t1=0,t2=40,t3=40,t4=40")
    fuzz = seat("random:pass_bias=3")
    for h in range(n_hands):
        kw = GAME.presets["self_call"] if h % 2 else {}
        opts = TrionfoOptions(**kw).to_array(5)
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = 5
        st[K.HAND_IDX] = h % 3
        st[K.DEALER] = h % 5
        g = gen(500 + h)
        K.deal(st, g, NO_TRACE)
        sid, prm = chiamo if h % 4 else fuzz
        p, spoken = int(st[K.FIRST_SPEAKER]), 0
        while not K.auction_over(st, opts, spoken):
            if not (st[K.PASSED] >> p) & 1:
                K.speak(st, p, K.choose_bid(st, p, st[K.HIGH_LEVEL], sid, prm, g), NO_TRACE)
                spoken += 1
            p = (p + 1) % 5
        if st[K.HIGH_BIDDER] < 0:
            continue
        params = np.array([seat("heuristic:self_call=8")[1]] * 5)     # secret solos under self_call
        K.make_contract(st, opts, np.full(5, K.S_HEURISTIC, np.int64), params, g, NO_TRACE, *NO_PLUG, K.no_search)
        voids = [0] * 5
        fixed = {int(st[K.FIRST_SPEAKER]): FIVE_D} if st[K.HAND_IDX] == 0 else {}
        for t in range(K.TRICKS):
            for k in range(5):
                p = (int(st[K.LEADER]) + k) % 5
                yield st, opts, p, voids, {q: m & int(st[K.HAND + q]) for q, m in fixed.items()}
                before, led = int(st[K.HAND + p]), int(st[K.LED])
                assert K.play_turn(st, opts, p, K.S_RANDOM, True, g, NO_TRACE, *NO_PLUG, params, False, K.no_search) == 0
                card = (before & ~int(st[K.HAND + p])).bit_length() - 1
                if led >= 0 and card // 10 != led:
                    voids[p] |= 1 << led
            K.finish_trick(st, NO_TRACE)


def test_bookkeeping_and_determinizations_respect_the_public_facts():
    """VOID is exactly the voids shown; every world dealt for the seat to play keeps its hand
    and the hand sizes, gives no seat a suit it showed void in, keeps 5D with the first hand's
    first speaker, puts an unplayed called card the seat does not hold with another seat (not
    the declarer without self-calls) and makes that seat the partner."""
    work = np.zeros(64, np.int64)
    worlds = with_call = 0
    for i, (st, opts, p, voids, fixed) in enumerate(hands_of_random_play(16, 40)):
        assert [int(st[K.VOID + q]) for q in range(5)] == voids
        if i % 2:
            continue
        base = st.copy()
        K.determinize(base, opts, p, gen(i), work)
        worlds += 1
        assert base[K.HAND + p] == st[K.HAND + p]
        assert np.bitwise_or.reduce(base[K.HAND:K.HAND + 5]) | st[K.PLAYED] == (1 << 40) - 1
        for q in range(5):
            h = int(base[K.HAND + q])
            assert bin(h).count("1") == bin(int(st[K.HAND + q])).count("1")
            assert all(not (h >> (10 * s)) & 0x3FF for s in range(4) if voids[q] >> s & 1)
            assert h & fixed.get(q, 0) == fixed.get(q, 0)
        c = int(st[K.CALLED])
        if c >= 0 and not (int(st[K.PLAYED]) | int(st[K.HAND + p])) >> c & 1:
            holder = next(q for q in range(5) if base[K.HAND + q] >> c & 1)
            assert base[K.PARTNER] == holder != p
            assert holder != st[K.DECLARER] or opts[K.O_SELF_CALL]
            with_call += 1
        else:
            assert base[K.PARTNER] == st[K.PARTNER]
    assert worlds > 200 and with_call > 30


def test_search_does_not_peek():
    """At every third card, the search plays the same card when the cards hidden from its seat
    are dealt otherwise (consistently with the voids shown and 5D; the secret partner moves
    with the called card)."""
    _, prm = seat(SEARCH)
    rng = np.random.default_rng(4)
    checked = moved = 0
    for i, (st, opts, p, voids, fixed) in enumerate(hands_of_random_play(12, 80)):
        if i % 3:
            continue
        other = redeal_hidden(st, p, voids, fixed, rng, bool(opts[K.O_SELF_CALL]))
        moved += bool((other[K.HAND:K.HAND + 5] != st[K.HAND:K.HAND + 5]).any())
        assert K.search_decision(st, opts, prm, 1000 + i) == K.search_decision(other, opts, prm, 1000 + i), i
        checked += 1
    assert checked > 100 and moved > 0.6 * checked
    chiamo = seat("heuristic:t1=0,t2=40,t3=40,t4=40")
    for h in range(6):                               # the declarer's trump
        opts = TrionfoOptions(**(GAME.presets["self_call"] if h % 2 else {})).to_array(5)
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N], st[K.HAND_IDX], st[K.DEALER] = 5, h % 2, h % 5
        g = gen(700 + h)
        K.deal(st, g, NO_TRACE)
        K.speak(st, int(st[K.FIRST_SPEAKER]), 1, NO_TRACE)
        st[K.DECLARER] = st[K.HIGH_BIDDER]
        fixed = {int(st[K.FIRST_SPEAKER]): FIVE_D} if h % 2 == 0 else {}
        other = redeal_hidden(st, int(st[K.DECLARER]), [0] * 5, fixed, rng, bool(opts[K.O_SELF_CALL]))
        assert K.search_trump_decision(st, opts, prm, h) == K.search_trump_decision(other, opts, prm, h)


def test_search_result_does_not_depend_on_workers():
    """The search's randomness comes from the session's play stream: 1 and 2 workers give the
    same records."""
    kw = dict(players=5, deals=8, strategies=["search:worlds=2"] + ["strong"] * 4, seed=5,
              options={"trionfo_hands": 3})
    r1 = cardsim.run("trionfo", workers=1, shard_size=2, **kw)
    r2 = cardsim.run("trionfo", workers=2, shard_size=2, **kw)
    assert r1.records.equals(r2.records)


def test_search_row_and_labels():
    """The policy by name; the kernel row carries its sid and parameters after the search's own
    slots; the row fits N_PARAMS, so plug-in rows still start there."""
    sids, params = seat_arrays(GAME, seat_table(GAME, ["search:policy=greedy,worlds=5,trump=1"] + ["strong"] * 4, 5))
    assert sids[0] == K.S_SEARCH and params.shape[1] == K.N_PARAMS
    assert params[0, 0] == 5 and params[0, SP_POLICY] == K.S_GREEDY and params[0, K.EX_TRUMP] == 1
    strong = GAME.strategies["strong"]
    _, p2 = seat_arrays(GAME, seat_table(GAME, ["search"], 5))
    assert p2[0, SP_POLICY] == strong.sid == K.S_EXPERT
    assert list(p2[0, SP_PRM:]) == [p.default for p in strong.params]
    assert short_label(GAME, seat_table(GAME, ["search:policy=2"], 5)[0].label) == "search:policy=greedy"
