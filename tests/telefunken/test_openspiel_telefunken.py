"""Telefunken through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over player counts and option sets on every preset (games shortened to a few
hands and a turn cap, since random play rarely goes out; each preset as it is:
tests/test_conformance.py), games played through the bridge with cardsim's strategies against
the batch records (reshuffles, the Hand-6 exchange, the cut's decisions included), what a seat's
strings and tensors may show, and ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import telefunken as K  # noqa: E402
from cardsim.sim.games.telefunken import GAME, PRESETS  # noqa: E402
from cardsim.sim.games.telefunken.step import BASE, NUM_ACTIONS, action_code, action_id  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402
from openspiel_helpers import (batch_and_bridge, decisions, ismcts_plays, play_like_the_batch, resample_walk,  # noqa: E402
                               same_views)

# random play seldom goes out: OpenSpiel's checks play one hand (Venezuela two, with an exchange
# before the second) of a contract in its text form (one of digits and + alone would read as a
# number; hand maps keep only hands the game has) with the game's turn cap (GameTools.quick),
# each preset with other options
SHORT = ",".join(GAME.tools.quick)
PRESET_OPTIONS = {
    "venezuela": "players=3,contracts=3p;3+r7,exchange_rounds=2:1,cut_joker_keep=optional,exact_cut_bonus=card",
    "ecuador": "players=5,contracts=3p,contract_joker_limit=none,exchange_rounds=none,first_dealer=2",
    "bolivia": "contracts=3p,dealer_chooses_contract=True,cut_model=uniform,exact_cut_bonus=points",
    "peru1": "contracts=3+r4,exchange_rounds=none,no_buy_hands=1_",
    "peru2": "contracts=3+r4,exchange_rounds=none",
    "farmers": "contracts=3p,contract_joker_limit=none,exchange_rounds=none,leftover_chip_points=2"}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_sim_test_preset_variants(preset):
    """Each preset with options beside its own (contracts, exchanges, the cut, other player counts)."""
    game = pyspiel.load_game(f"cardsim_telefunken(preset={preset},{PRESET_OPTIONS[preset]},{SHORT})")
    pyspiel.random_sim_test(game, num_sims=40, serialize=True, verbose=False)


def test_random_games_keep_the_cards_and_reshuffle_by_chance():
    """Random play through the step API: the kernel's invariants hold after every step (108
    cards, valid melds), the stock runs out and is shuffled again by chance (each chance node's
    probabilities sum to 1), and the game ends with cardsim's payouts."""
    game = new_game("telefunken", players=3, options={"contracts": "3p;3", "max_turns_per_hand": 150,
                                                      "exchange_rounds": "none"})
    rng = np.random.default_rng(4)
    phases = set()
    for _ in range(2):
        s = game.new_state()
        while not s.is_terminal():
            if s.is_chance():
                outs = s.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                phases.add(s.chance)
                s.apply(outs[rng.choice(len(outs), p=[p for _, p in outs])][0])
            else:
                legal = s.legal_actions()
                s.apply(legal[rng.integers(len(legal))])
            if s.chance is None and s.step is None and not s.is_terminal():
                assert K.check_invariants(s.st, s.opts, s.tab) == 0
        assert s.returns() == [-float(s.st[K.TOTAL + q]) for q in range(3)]
    assert {"first", "deck", "cut", "reshuffle"} <= phases


def test_action_ids_round_trip():
    """Every kernel action a random game offers has an id below NUM_ACTIONS that decodes to it."""
    game = new_game("telefunken", players=4, options={"max_turns_per_hand": 200})
    rng = np.random.default_rng(2)
    kinds = set()
    for _ in range(2):
        s = game.new_state()
        for legal in decisions(s, rng):
            if s.step is None:
                for x in s.acts:
                    i = action_id(int(x))
                    assert 0 <= i < NUM_ACTIONS and action_code(i) == int(x)
                    kinds.add(int(x) & 15)
            s.apply(legal[rng.integers(len(legal))])
    assert {K.A_DISCARD, K.A_GO_DOWN, K.A_MELD, K.A_LAYOFF, K.A_BUY, K.A_PASS} <= kinds


@pytest.mark.parametrize("options", [
    {},
    {"cut_joker_keep": "optional", "exact_cut_bonus": "card", "stock_exhaustion": "reshuffle_keep_top",
     "max_turns_per_hand": 300},
    {"preset": "peru2"},
    {"preset": "bolivia", "dealer_chooses_contract": True, "cut_model": "uniform"},
    {"preset": "peru1", "exchange_rounds": "3:2"},
])
def test_a_bridged_game_is_the_batch_record(options):
    """Games played through OpenSpiel with cardsim's strategies at every seat (random and fuzz
    among them: their draws, the kernel's reshuffles and the exchange come from one stream in the
    batch's order) end with the batch record's payouts, hand by hand."""
    options = dict(options)
    preset = options.pop("preset", None)
    strategies = ["strong", "random", "fuzz", "planner:keep_jokers=1,cut_aim=30"]
    seed, games = 7, 3
    opts = {**options, **({"preset": preset} if preset else {})}
    rec, game, sids, params = _batch_and_bridge(strategies, games, seed, opts)
    reshuffles = 0
    for g in range(games):
        s = play_like_the_batch(game, seed, g, sids, params)
        assert s.returns() == [float(rec[f"payout_{p}"][g]) for p in range(4)], g
        row = s.inner.row
        for h in range(1, int(game.step.opts[K.O_HANDS]) + 1):
            b = K.RC_HAND + (h - 1) * K.HB_SIZE
            got = [K.HAND_REASONS[int(row[b + K.HB_REASON])]] + [
                int(row[b + f]) for f in (K.HB_OUT, K.HB_TURNS, K.HB_RESHUF, K.HB_CUT, K.HB_KEPT, K.HB_EXACT)] + [
                int(row[b + K.HB_PEN + p]) for p in range(4)]
            want = [rec[f"h{h}_reason"][g]] + [int(rec[f"h{h}_{c}"][g]) for c in ("out", "turns", "reshuffles", "cut",
                                                                                 "kept", "exact")]
            assert got == want + [int(rec[f"h{h}_pen_{p}"][g]) for p in range(4)], (g, h)
        reshuffles += int(s.inner.st[K.GAME_RESHUF])
    if not options and preset is None:
        assert reshuffles > 0                   # the default game reshuffles: the chance re-deal is covered


def _batch_and_bridge(strategies, games, seed, opts):
    preset = opts.pop("preset", None)
    if preset is None:
        return batch_and_bridge("telefunken", strategies, games, seed, opts, players=4)
    import cardsim
    from cardsim.sim.registry import get_game, seat_arrays, seat_table
    spec = get_game("telefunken")
    rec = cardsim.run("telefunken", players=4, deals=games, seed=seed, strategies=strategies, options=opts,
                      preset=preset, workers=1).records
    text = ",".join([f"players=4,preset={preset}"] + [f"{k}={v}" for k, v in opts.items()])
    bridged = pyspiel.load_game(f"cardsim_telefunken({text})")
    return (rec, bridged, *seat_arrays(spec, seat_table(spec, strategies, 4)))


def test_views_show_only_the_seat():
    """A card swapped between two other holdings leaves a seat's observation and information
    state as they were; the holders see it."""
    game = new_game("telefunken", players=4, options={"max_turns_per_hand": 60})
    rng = np.random.default_rng(3)
    swapped = 0
    for _ in range(2):
        s = game.new_state()
        for legal in decisions(s, rng):
            p = s.current_player()
            st = s.st
            a, b = rng.choice([q for q in range(4) if q != p], 2, replace=False)
            ha, hb = int(st[K.H1 + a]) & ~int(st[K.H1 + b]), int(st[K.H1 + b]) & ~int(st[K.H1 + a])
            ha &= ~int(st[K.H2 + a])
            hb &= ~int(st[K.H2 + b])
            known = any(st[K.KN + K.KN_STRIDE * q + c] for q in (a, b) for c in range(K.KN_STRIDE))
            if ha and hb and not known and s.step is None:
                ca, cb = (ha & -ha).bit_length() - 1, (hb & -hb).bit_length() - 1
                t = s.clone()
                for q, out, into in ((a, ca, cb), (b, cb, ca)):
                    t.st[K.H1 + q] = int(t.st[K.H1 + q]) & ~(1 << out) | 1 << into
                same_views(s, t, [q for q in range(4) if q not in (a, b)])
                assert t.observation_string(int(a)) != s.observation_string(int(a))
                swapped += 1
            s.apply(legal[rng.integers(len(legal))])
    assert swapped > 100


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    game = pyspiel.load_game("cardsim_telefunken(players=3,contracts=3p,max_turns_per_hand=12,exchange_rounds=none)")
    rng = np.random.default_rng(5)

    def check(s, r, p):
        assert [K.held(s.st, q) for q in range(3)] == [K.held(r.st, q) for q in range(3)]
        return any(r.st[K.H1 + q] != s.st[K.H1 + q] for q in range(3) if q != p)
    assert resample_walk(game, 2, rng, check) > 10
    ismcts_plays(game, rng, simulations=3, zero_sum=False)


def test_the_cut_s_decisions():
    """The aimed cut asks the cutter's aim (1..105), the optional keep asks about each inspected
    joker, and the chance over the cut follows the aim."""
    game = new_game("telefunken", players=4, options={"cut_joker_keep": "optional", "first_dealer": 0})
    s = game.new_state()
    assert s.current_player() == 3 and s.legal_actions() == list(range(BASE["aim"], BASE["aim"] + 105))
    s.apply(BASE["aim"] + 29)                              # aim at 30
    assert s.is_chance()
    naturals = [c for c in range(52) for _ in range(2)]
    for c in naturals[:74] + [K.JK] * 4 + naturals[74:]:   # a joker above the three inspected ones, all jokers
        s.apply(c)
    assert [b for b, _ in s.chance_outcomes()] == list(range(24, 37))
    s.apply(30)                                            # the bottom 30: the inspected cards are 75..77
    assert s.current_player() == 3 and s.legal_actions() == [6, 7]
    s.apply(7)
    s.apply(6)
    s.apply(7)
    assert s.current_player() == 1 and int(s.st[K.CUT_KEPT]) == 2 and int(s.st[K.HJ + 3]) == 2
    assert s.st[K.KN + K.KN_STRIDE * 3 + K.JK] == 2


def test_structured_options_are_strings():
    """contracts and the hand maps take their ';' text; their default 'default' leaves a preset's
    value; a bad text is cardsim's one UsageError."""
    from cardsim.sim.errors import UsageError
    g = pyspiel.load_game("cardsim_telefunken(preset=ecuador,contracts=3p;3+r4,contract_joker_limit=none,"
                          "exchange_rounds=2:1)")
    o = g.step.options
    assert str(o.contracts) == "3p,3+r4" and o.contract_joker_limit is None and dict(o.exchange_rounds) == {2: 1}
    assert o.chips_per_player == 12                                      # the rest is the preset's
    assert dict(pyspiel.load_game("cardsim_telefunken(preset=ecuador)").step.options.contract_joker_limit)[2] == 1
    assert g.get_parameters()["contracts"] == "3p;3+r4"
    assert pyspiel.load_game("cardsim_telefunken()").get_parameters()["exchange_rounds"] == "default"
    with pytest.raises(UsageError, match="contracts"):
        pyspiel.load_game("cardsim_telefunken(contracts=3x)")
