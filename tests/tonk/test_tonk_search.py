"""Tonk's search strategy (issue 19): its public-take bookkeeping, no peeking, determinism across
workers, its parameters (the rollout policy by name) and the kernel row it builds."""
import numpy as np
import pytest

import cardsim
from cardsim.kernels import tonk as K
from cardsim.kernels.rng import seed_stream
from cardsim.kernels.search import SP_POLICY, SP_PRM
from cardsim.sim.errors import UsageError
from cardsim.sim.games.tonk import GAME, TonkOptions
from cardsim.sim.registry import seat_arrays, seat_table, short_label
from cardsim.sim.runner import _replayed, make_config
from test_tonk_strategies import redeal_hidden, seat

SEARCH = "search:worlds=6"


@pytest.mark.parametrize("n", [2, 3])
def test_search_does_not_peek(n):
    """Along fuzzed deals, at every third decision, the search picks the same action when the
    cards hidden from the deciding seat are dealt otherwise (other hands, keeping the cards they
    took from the pile, and the stock order); the state's public takes (KNOWN), as far as still
    held, are exactly the cards this test saw taken from the pile."""
    opts = TonkOptions().to_array(n)
    _, prm = seat(SEARCH, n)
    fuzz_sid, fuzz_prm = seat("fuzz:knock=0.02", n)
    trace = np.zeros((0, 4), np.int64)
    acts = np.zeros(K.MAX_ACTS, np.int64)
    rng = np.random.default_rng(10 + n)
    checked = moved = 0
    for d in range(12):
        st = K.new_state(opts)
        g = np.zeros(2, np.uint64)
        seed_stream(g, 91, d, 1)
        K.start_deal(st, opts, g, np.int64(d % n), trace)
        known = [0] * K.MAX_PLAYERS
        step = 0
        while st[K.PHASE] != K.P_OVER:
            cur = int(st[K.CUR])
            assert [int(st[K.KNOWN + p] & st[K.HAND + p]) for p in range(n)] == known[:n]
            k = K.legal_actions(st, opts, acts)
            if step % 3 == 0 and k > 1:
                other = redeal_hidden(st, cur, known, rng)
                moved += bool((other[K.HAND:K.HAND + n] != st[K.HAND:K.HAND + n]).any())
                key = 1000 * d + step
                assert K.search_decision(st, opts, prm, key) == K.search_decision(other, opts, prm, key), (d, step)
                checked += 1
            step += 1
            a = int(acts[K.choose(st, opts, acts, k, fuzz_sid, fuzz_prm, g)])
            if a & 15 == K.A_DRAW_DISCARD:
                card = int(K.pile_top(st))
                known = [m & ~(1 << card) for m in known]
                known[cur] |= 1 << card
            K.apply_action(st, opts, a, trace)
            known = [m & int(st[K.HAND + p]) if p < n else 0 for p, m in enumerate(known)]
    assert checked > 40 and moved > 0.6 * checked


def test_search_result_does_not_depend_on_workers():
    """The search's own randomness comes from the seat's play stream: 1 and 2 workers give the
    same records, and a replayed deal (checked, traced) is the same deal. Before the fix the
    replay kernel's working arrays were freed under play_deal's unowned views and the
    search's scratch arrays overwrote them (garbage actions in the trace)."""
    kw = dict(players=2, deals=40, strategies=["search:worlds=4", "strong"], seed=5)
    r1 = cardsim.run("tonk", workers=1, shard_size=8, **kw)
    r2 = cardsim.run("tonk", workers=2, shard_size=8, **kw)
    assert r1.records.equals(r2.records)
    cfg = make_config("tonk", 2, 40, 5, ["search:worlds=4", "strong"], [], None, 1, True)
    for d in (0, 7, 23):                      # a replay (checked) is the batch's deal, action for action
        st, events = _replayed(cfg, d)
        assert [int(st[K.PAY + p]) for p in range(2)] == [r1.records.payout_0[d], r1.records.payout_1[d]]
        assert st[K.ERR] == 0 and len(events) > 3


def test_search_row_and_labels():
    """The policy is named or given by index; the kernel row carries its sid and default
    parameters after the search's own slots; labels print the name."""
    sids, params = seat_arrays(GAME, seat_table(GAME, ["search:policy=greedy,worlds=16", "strong"], 2))
    assert sids[0] == K.S_SEARCH
    assert params[0, 0] == 16 and params[0, SP_POLICY] == K.S_GREEDY
    strong = GAME.strategies["strong"]
    row = [p.default for p in strong.params]
    _, p2 = seat_arrays(GAME, seat_table(GAME, ["search"], 2))
    assert p2[0, SP_POLICY] == strong.sid and list(p2[0, SP_PRM:SP_PRM + len(row)]) == row
    assert p2[0, 0] == 128                                          # the default budget
    same = seat_table(GAME, ["search:policy=4"], 2)[0]
    assert same.label.endswith("policy=greedy")
    assert short_label(GAME, same.label) == "search:policy=greedy"
    assert short_label(GAME, seat_table(GAME, ["search"], 2)[0].label) == "search"
    with pytest.raises(UsageError, match="is none of strong, planner"):
        seat_table(GAME, ["search:policy=best"], 2)
    with pytest.raises(UsageError, match="out of range"):
        seat_table(GAME, ["search:policy=9"], 2)
