"""Contract Rummy's ``StepState.action_values`` (play's hints): the kernel's ``critique_eval`` of the
question asked now, one value per legal action in ``legal_actions`` order; None at chance nodes
and at the end. The pack's order the batch deals (``batch_pack``) is the kernel's ``shuffle_cut``."""
import numpy as np

from cardsim.kernels import contract_rummy as K
from cardsim.kernels.rng import seed_stream
from cardsim.sim.games.contract_rummy.step import batch_pack
from cardsim.sim.step import new_game
from openspiel_helpers import value_walk


def _walk(options, seed, want_kinds, worlds=3):
    """A random game: the question kinds in ``want_kinds`` valued (``openspiel_helpers.value_walk``)."""
    return value_walk("contract_rummy", 3, options, seed, want_kinds, lambda s: s.q[1], worlds)


def test_action_values_one_per_legal_action():
    """Draws, discards and step 2's questions of a random game each get one finite value per
    legal action, sorted as ``legal_actions`` lists them."""
    opts = {"max_turns_per_deal": 40, "hand_sizes": (6,) * 7}
    seen = set()
    for seed in range(4):
        seen |= _walk(opts, seed, {K.K_DRAW, K.K_DISCARD, K.K_BUY, K.K_LAYOFF, K.K_MELD})
        if {K.K_DRAW, K.K_DISCARD, K.K_MELD, K.K_LAYOFF} <= seen:
            break
    assert {K.K_DRAW, K.K_DISCARD, K.K_MELD, K.K_LAYOFF} <= seen


def test_batch_pack_is_the_kernels_shuffle():
    """``batch_pack`` is the stock ``start_deal`` leaves before the deal (the kernel's shuffle and
    LIVERPOOL cut)."""
    game = new_game("contract_rummy", players=4, preset="liverpool", options={"cut_success_prob": 0.5})
    opts = game.opts
    for d in (1, 4):
        pack, cut = batch_pack(7, 3, d, opts)
        st = np.zeros(K.ST_SIZE, np.int64)
        st[K.N] = 4
        g = np.zeros(2, np.uint64)
        seed_stream(g, 7, 3, np.int64(K.STREAM_DEAL + d))
        K.start_deal(st, opts, np.int64(d), np.int64(0), g, np.zeros((0, 6), np.int64))
        assert st[K.CUT_OK] == cut
        assert st[K.STOCK:K.STOCK + st[K.STOCK_HI]].tolist() == pack
        assert sorted(pack) == sorted([c for c in range(52) for _ in range(int(opts[K.O_DECKS]))]
                                      + [K.JK] * int(opts[K.O_JOKERS]))
