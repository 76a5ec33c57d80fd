"""Marafon's search strategy (issue 19): its public bookkeeping (voids, cards played by each
seat), determinizations consistent with everything public, no peeking, determinism across
workers, and the kernel row it builds."""
import numpy as np
import pytest

import cardsim
from cardsim.kernels import marafon as K
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.kernels.tricks import cricche
from cardsim.sim.games.marafon import GAME, MarafonOptions
from cardsim.sim.registry import seat_arrays, seat_table, short_label
from test_marafon_strategies import NO_TRACE, gen, prm_of, redeal_hidden

SEARCH = "search:worlds=3"
FOUR_D = 1 << K.FOUR_COINS


def hands_of_random_play(n_hands, seed, opts):
    """Yield (st, p, voids, known, played) before every card of ``n_hands`` hands of random
    play: the state, the seat to play, and this test's own tracking of the public facts (suits
    each seat showed void in, cards known in a hand: declared cricche and, in a game's first
    hand, the battitore's 4D; cards each seat played)."""
    _, rnd = prm_of("random")
    for h in range(n_hands):
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = 4
        st[K.HAND_NO] = 1 + h % 3
        st[K.DEALER] = h % 4
        st[K.SCORE], st[K.SCORE + 1] = (5 * h) % 41, (7 * h) % 41
        g = gen(seed + h)
        K.begin_hand(st, g, NO_TRACE)
        b = int(st[K.BATT])
        K.set_trump(st, int(K.best_trump(st[K.HAND + b])), NO_TRACE)
        voids, known, played = [0] * 4, [0] * 4, [0] * 4
        if st[K.HAND_NO] == 1:
            known[b] |= FOUR_D
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
                yield st, p, voids, known, played
                legal = K.legal_cards(st[K.HAND + p], st[K.LED])
                card = int(K.choose_card(st, opts, p, legal, K.S_RANDOM, rnd, g))
                if st[K.LED] >= 0 and card // 10 != st[K.LED]:
                    voids[p] |= 1 << int(st[K.LED])
                played[p] |= 1 << card
                K.put_card(st, p, card, NO_TRACE)
                known[p] &= int(st[K.HAND + p])
            K.finish_trick(st, NO_TRACE)


def test_bookkeeping_and_determinizations_respect_the_public_facts():
    """VOID and PLAYED_BY are exactly the voids shown and the cards played; every world dealt
    for the seat to play keeps its hand, the hand sizes, the known cards in their hands, gives
    no seat a suit it showed void in, and (auto declaration) no seat past its trick-1 turn a
    trump cricca it did not declare."""
    opts = MarafonOptions().to_array(4)
    work = np.zeros(64, np.int64)
    worlds = 0
    for i, (st, p, voids, known, played) in enumerate(hands_of_random_play(12, 40, opts)):
        assert [int(st[K.VOID + q]) for q in range(4)] == voids
        assert [int(st[K.PLAYED_BY + q]) for q in range(4)] == played
        if i % 2:
            continue
        base = st.copy()
        K.determinize(base, opts, p, gen(i), work)
        worlds += 1
        assert base[K.HAND + p] == st[K.HAND + p]
        assert np.bitwise_or.reduce(base[K.HAND:K.HAND + 4]) | st[K.PLAYED] == (1 << 40) - 1
        for q in range(4):
            h = int(base[K.HAND + q])
            assert bin(h).count("1") == bin(int(st[K.HAND + q])).count("1")
            assert h & known[q] == known[q]
            assert all(not (h >> (10 * s)) & 0x3FF for s in range(4) if voids[q] >> s & 1)
            if q != p and K.acted_in_first_trick(st, q):
                c = cricche(np.int64(h | played[q])) & (1 << int(st[K.TRUMP]))
                assert c == st[K.DECL + q]
    assert worlds == 12 * 20


@pytest.mark.parametrize("preset", ["seed", "any_cricca"])
def test_search_does_not_peek(preset):
    """At every third card (and at each trump choice), the search decides the same when the
    cards hidden from the deciding seat are dealt otherwise (consistently with the voids shown,
    the declared cricche and the battitore's 4D)."""
    from cardsim.sim.games.marafon import PRESETS
    opts = MarafonOptions(**PRESETS[preset]).to_array(4)
    _, prm = prm_of(SEARCH)
    rng = np.random.default_rng(3)
    checked = moved = 0
    for i, (st, p, voids, known, played) in enumerate(hands_of_random_play(10, 70, opts)):
        if i % 3:
            continue
        other = redeal_hidden(st, p, voids, known, rng)
        moved += bool((other[K.HAND:K.HAND + 4] != st[K.HAND:K.HAND + 4]).any())
        assert K.search_decision(st, opts, prm, 1000 + i) == K.search_decision(other, opts, prm, 1000 + i), i
        checked += 1
    assert checked > 120 and moved > 0.6 * checked
    _, prm = prm_of(SEARCH + ",trump=1")
    for h in range(6):
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N], st[K.HAND_NO], st[K.DEALER] = 4, 1 + h % 2, h % 4
        K.begin_hand(st, gen(300 + h), NO_TRACE)
        b = int(st[K.BATT])
        known = [FOUR_D if q == b and st[K.HAND_NO] == 1 else 0 for q in range(4)]
        other = redeal_hidden(st, b, [0] * 4, known, rng)
        assert K.search_trump_decision(st, opts, prm, h) == K.search_trump_decision(other, opts, prm, h)


def test_search_result_does_not_depend_on_workers():
    """The search's randomness comes from the match's play stream: 1 and 2 workers give the same
    records."""
    kw = dict(players=4, deals=12, strategies=["search:worlds=2", "strong", "strong", "strong"], seed=5)
    r1 = cardsim.run("marafon", workers=1, shard_size=3, **kw)
    r2 = cardsim.run("marafon", workers=2, shard_size=3, **kw)
    assert r1.records.equals(r2.records)


def test_search_row_and_labels():
    """The policy by name; the kernel row carries its sid and parameters after the search's
    own slots (game_weight, trump); the row fits N_PARAMS, so plug-in rows still start there."""
    sids, params = seat_arrays(GAME, seat_table(GAME, ["search:policy=greedy,worlds=5,trump=0", "strong", "strong", "strong"], 4))
    assert sids[0] == K.S_SEARCH and params.shape[1] == K.N_PARAMS
    assert params[0, 0] == 5 and params[0, SP_POLICY] == K.S_GREEDY and params[0, K.EX_TRUMP] == 0
    strong = GAME.strategies["strong"]
    _, p2 = seat_arrays(GAME, seat_table(GAME, ["search"], 4))
    assert p2[0, SP_POLICY] == strong.sid == K.S_EXPERT
    k = len(strong.params)                         # the row is as wide as the widest policy's (the expert's)
    assert list(p2[0, SP_PRM:SP_PRM + k]) == [p.default for p in strong.params] and not p2[0, SP_PRM + k:].any()
    assert p2[0, K.EX_GAME_WEIGHT] == GAME.strategies["search"].params[4].default and p2[0, K.EX_TRUMP] == 0
    same = seat_table(GAME, ["search:policy=2"], 4)[0]
    assert short_label(GAME, same.label) == "search:policy=greedy"
