"""Random-play invariants of Contract Rummy over every preset x player count (driven by the
registry), the May-I models, determinism and duplicate deals.

The kernel's check mode asserts after every turn: every card of the pack in exactly one
place, every table meld valid (§4.4), each hand size = dealt + received - given, May-I
counts equal the penalty cards drawn and respect the limit, a legal discard always exists,
the turn cap holds; after the game: every total is the sum of its deal penalties minus the
cut bonuses. The tests below add the record-level checks."""
import numba
import numpy as np
import pytest

from kernels import contract_rummy as K
from sim.registry import get_game, seat_arrays, seat_table

GAME = get_game("contract_rummy")
PRESETS = sorted(GAME.presets)
PLAYERS = range(GAME.players[0], GAME.players[1] + 1)


def play(preset, n, strategies, count, seed=11, check=True, first=0, **over):
    opts = GAME.options_cls(**{**GAME.presets[preset], **over}).to_array(n)
    sids, params = seat_arrays(GAME, seat_table(GAME, strategies, n))
    rec = np.zeros((count, K.RECORD_COLS), np.int64)
    K.play_batch(seed, first, count, opts, sids, params, check, rec)
    return rec, opts


def deal(rec, d, col, p=0):
    return rec[:, K.RC_DEAL + (d - 1) * K.DB_SIZE + col + p]


def check_records(rec, opts, n):
    assert (rec[:, K.RC_ERR] == 0).all(), [K.ERROR_NAMES[e] for e in rec[:, K.RC_ERR] if e]
    cap = opts[K.O_MAX_TURNS]
    trunc = np.zeros(len(rec), bool)
    for d in range(1, K.DEALS + 1):
        out = deal(rec, d, K.DB_OUT)
        reason = deal(rec, d, K.DB_REASON)
        assert ((out >= 0) == (reason == K.D_OUT)).all()
        assert (deal(rec, d, K.DB_TURNS) <= cap).all()
        trunc |= reason == K.D_TURN_CAP
        for p in range(n):
            pen = deal(rec, d, K.DB_PEN, p)
            assert (pen >= 0).all()
            assert (pen[out == p] == 0).all()
            assert (deal(rec, d, K.DB_MAYI, p) >= 0).all()
            if opts[K.O_MAYI_LIMIT] >= 0:
                assert (deal(rec, d, K.DB_MAYI, p) <= opts[K.O_MAYI_LIMIT]).all()
            if opts[K.O_MAYI_MODEL] != K.MODEL_OOT:
                assert (deal(rec, d, K.DB_OOT, p) == 0).all()
            if opts[K.O_MAYI_MODEL] == K.MODEL_NONE:
                assert (deal(rec, d, K.DB_MAYI, p) == 0).all()
    assert (rec[:, K.RC_TRUNC].astype(bool) == trunc).all()
    for p in range(n):
        assert (rec[:, K.RC_MAYI + p] == sum(deal(rec, d, K.DB_MAYI, p) for d in range(1, 8))).all()
        assert (rec[:, K.RC_OOT + p] == sum(deal(rec, d, K.DB_OOT, p) for d in range(1, 8))).all()
    low = rec[:, K.RC_TOTAL:K.RC_TOTAL + n].min(axis=1)
    for p in range(n):
        assert ((rec[:, K.RC_WINNERS] >> p & 1) == (rec[:, K.RC_TOTAL + p] == low)).all()
    single = rec[:, K.RC_WINNER] >= 0
    assert (single == (np.array([int(m).bit_count() for m in rec[:, K.RC_WINNERS]]) == 1)).all()
    if opts[K.O_CUT_POINTS] == 0:
        assert (rec[:, K.RC_TOTAL:K.RC_TOTAL + n] >= 0).all()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("n", PLAYERS)
def test_random_play_invariants(preset, n):
    rec, opts = play(preset, n, ["random"], 3, max_turns_per_deal=150)
    check_records(rec, opts, n)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("n", PLAYERS)
def test_greedy_play_invariants(preset, n):
    rec, opts = play(preset, n, [("greedy", "mayi", "cautious")[i % 3] for i in range(n)], 3, max_turns_per_deal=400)
    check_records(rec, opts, n)
    assert (deal(rec, 1, K.DB_OUT) >= 0).any()


@pytest.mark.parametrize("model", ["buy", "none"])
def test_other_may_i_models(model):
    for strategies in (["random"], ["greedy", "mayi:max_mayi=1", "cautious", "random"]):
        rec, opts = play("contract", 4, strategies, 3, may_i_model=model, max_turns_per_deal=300)
        check_records(rec, opts, 4)


def test_options_variants():
    over = {"take_discard_penalty": "if_claimed", "may_i_limit_per_deal": 1, "oot_discarder_cooldown": True,
                "go_out_requires_discard": True, "deal7_discard_mode": "never", "swapped_joker_may_be_discarded": True,
                "joker_swap_requires_prior_meld": False, "dead_stock_rule": "void_deal", "max_turns_per_deal": 120,
                "cut_bonus_points": 50, "cut_success_prob": 0.5, "cut_bonus_recipient": "deal_winner"}
    rec, opts = play("contract", 4, ["greedy", "random", "mayi", "random"], 4, **over)
    check_records(rec, opts, 4)
    assert deal(rec, 1, K.DB_CUT).sum() + deal(rec, 2, K.DB_CUT).sum() > 0


def test_liverpool_cut_bonus_goes_to_the_cutter():
    rec, opts = play("liverpool", 4, ["greedy"], 3, cut_success_prob=1.0)
    check_records(rec, opts, 4)
    assert all(deal(rec, d, K.DB_CUT).all() for d in range(1, 8))
    pens = sum(deal(rec, d, K.DB_PEN, p) for d in range(1, 8) for p in range(4))
    assert (rec[:, K.RC_TOTAL:K.RC_TOTAL + 4].sum(axis=1) == pens - 7 * 50).all()
    for p in range(4):                  # cutter = prev(dealer): deals 1..7 cut by dealer0 - 1 + d - 1
        cuts = sum(((rec[:, K.RC_DEALER] + d - 2) % 4 == p) for d in range(1, 8))
        own = sum(deal(rec, d, K.DB_PEN, p) for d in range(1, 8))
        assert (rec[:, K.RC_TOTAL + p] == own - 50 * cuts).all()


def test_same_seed_same_records_and_threads():
    a, _ = play("contract", 4, ["greedy", "random", "cautious", "mayi"], 8, seed=5, check=False)
    b, _ = play("contract", 4, ["greedy", "random", "cautious", "mayi"], 8, seed=5, check=False)
    assert (a == b).all()
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        c, _ = play("contract", 4, ["greedy", "random", "cautious", "mayi"], 8, seed=5, check=False)
    finally:
        numba.set_num_threads(old)
    assert (a == c).all()
    d, _ = play("contract", 4, ["greedy", "random", "cautious", "mayi"], 4, seed=5, check=False, first=4)
    assert (a[4:] == d).all()                     # any game replays alone


def test_duplicate_deals():
    """The same (seed, game) deals the same cards whatever the strategies."""
    opts = GAME.options_cls().to_array(4)
    ups = []
    for strategies in (["greedy"], ["random"]):
        sids, params = seat_arrays(GAME, seat_table(GAME, strategies, 4))
        st, trace = GAME.replay(3, 2, opts, sids, params, True)
        t = trace[: st[K.TR_LEN]]
        ups.append([int(r[2]) for r in t if r[0] == K.T_UPCARD])
        assert int(st[K.ERR]) == 0
    assert ups[0] == ups[1] and len(ups[0]) == 7


NEW_OPTIONS = {
    "fixed": {"joker_position": "fixed"},
    "naturals2": {"min_naturals_per_meld": 2},
    "naturals3_fixed": {"min_naturals_per_meld": 3, "joker_position": "fixed"},
    "go_out_discard": {"go_out_requires_discard": True},
    "swap_on_meld_turn": {"joker_swap_requires_prior_meld": False, "swapped_joker_may_be_discarded": True,
                          "joker_swap_allowed": True},
}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", list(NEW_OPTIONS))
def test_issue12_options_invariants(preset, name):
    """The options issue 12 added or changed, on every preset, with every strategy."""
    rec, opts = play(preset, 4, ["random", "greedy", "mayi", "cautious"], 3, max_turns_per_deal=200,
                     **NEW_OPTIONS[name])
    check_records(rec, opts, 4)
