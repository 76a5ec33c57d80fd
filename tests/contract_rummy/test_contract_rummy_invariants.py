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

from cardsim.kernels import contract_rummy as K
from cardsim.sim.registry import get_game, seat_arrays, seat_table

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


# ---- the fuzzer: coverage of every end reason and action kind (issue 15) ---------------
FUZZ_FIELD = ["fuzz:noise=0.1", "fuzz", "fuzz:noise=0.5", "fuzz"]
# (name, preset, options, games). turn_cap is only a guard (no rule ends a deal at 1000
# turns): it is reached with an explicit max_turns_per_deal = 60. Game end reasons:
# complete, truncated (a deal hit the cap: the same configuration).
FUZZ_CONFIGS = [
    ("contract", "contract", {}, 50),
    ("liverpool", "liverpool", {}, 15),
    ("may_i", "may_i", {}, 30),
    ("buy", "contract", {"may_i_model": "buy"}, 15),
    ("none", "contract", {"may_i_model": "none"}, 15),
    ("swap_options", "contract", {"joker_swap_requires_prior_meld": False, "swapped_joker_may_be_discarded": True}, 30),
    ("turn_cap_60", "contract", {"max_turns_per_deal": 60}, 10),
]
ACTIONS = {K.T_DRAW: "draw", K.T_TAKE: "take discard", K.T_PENALTY: "penalty card", K.T_VOLUNTEER: "may i",
           K.T_OOT: "out-of-turn draw", K.T_BUY: "buy", K.T_MELD: "meld row", K.T_LAYOFF: "lay off",
           K.T_RESHUFFLE: "reshuffle"}
ACTION_KINDS = sorted(set(ACTIONS.values()) | {"discard", "out-of-turn discard", "swap (joker laid)",
                                                 "swap (joker kept)", "swap (joker into the meld)"})


def fuzz_coverage(preset, over, games, seed=5):
    """Replays (check mode) of fuzz games: deals per end reason, deal-7 outs, game end
    reasons, and how many deals saw each action kind."""
    opts = GAME.options_cls(**{**GAME.presets[preset], **over}).to_array(4)
    sids, params = seat_arrays(GAME, seat_table(GAME, FUZZ_FIELD, 4))
    ends, acts, games_by = {}, {}, {}
    d7_out = 0
    for g in range(games):
        st, trace = GAME.replay(seed, g, opts, sids, params, True)
        assert st[K.ERR] == 0, K.ERROR_NAMES[st[K.ERR]]
        reason = K.REASON_NAMES[1 if st[K.TRUNC] else 0]
        games_by[reason] = games_by.get(reason, 0) + 1
        seen, deal = set(), 0
        for code, p, a, b, c, d in trace[: st[K.TR_LEN]]:
            if code == K.T_DEAL:
                seen, deal = set(), a
            elif code == K.T_END:
                ends[K.DEAL_REASONS[a]] = ends.get(K.DEAL_REASONS[a], 0) + 1
                d7_out += deal == 7 and a == K.D_OUT
                for s in seen:
                    acts[s] = acts.get(s, 0) + 1
            elif code == K.T_SWAP:
                t = (c & 255) - 2
                seen.add("swap (joker laid)" if t >= 0 else "swap (joker kept)" if t == K.SWAP_KEPT
                         else "swap (joker into the meld)")
            elif code == K.T_DISCARD:
                seen.add("out-of-turn discard" if b else "discard")
            elif code in ACTIONS:
                seen.add(ACTIONS[code])
    return ends, acts, games_by, d7_out


def test_fuzzer_reaches_every_end_reason_and_action():
    """The fuzz strategy (greedy with random decisions, noise 0.1 / 0.25 / 0.5 at the four
    seats) over the presets, the May-I models and the swap options: every deal end reason
    (out, dead_stock, turn_cap), every game end reason, going out in deal 7, and every
    action kind. Prints the coverage (share of deals per end reason and action kind; run
    with -rA to see it)."""
    total_ends, total_acts, total_games, d7 = {}, {}, {}, 0
    print("\ncontract_rummy fuzz coverage (share of deals; games for the game end reasons)")
    for name, preset, over, games in FUZZ_CONFIGS:
        ends, acts, games_by, d7_out = fuzz_coverage(preset, over, games)
        deals = sum(ends.values())
        print(f"  {name:13s} {deals:4d} deals  " + "  ".join(f"{r} {ends.get(r, 0) / deals:6.1%}"
                                                          for r in K.DEAL_REASONS)
              + f"  deal-7 out {d7_out}/{games}  games " + ", ".join(f"{r} {games_by.get(r, 0)}" for r in K.REASON_NAMES))
        print("                " + ", ".join(f"{a} {acts.get(a, 0) / deals:.0%}" for a in ACTION_KINDS))
        for r, v in ends.items():
            total_ends[r] = total_ends.get(r, 0) + v
        for a, v in acts.items():
            total_acts[a] = total_acts.get(a, 0) + v
        for r, v in games_by.items():
            total_games[r] = total_games.get(r, 0) + v
        d7 += d7_out
    missing = [r for r in K.DEAL_REASONS if not total_ends.get(r)] + \
        [r for r in K.REASON_NAMES if not total_games.get(r)] + [a for a in ACTION_KINDS if not total_acts.get(a)]
    assert not missing, f"never reached: {missing}"
    assert d7 > 0, "nobody went out in deal 7"
