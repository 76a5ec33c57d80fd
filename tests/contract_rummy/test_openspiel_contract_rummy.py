"""Contract Rummy through the OpenSpiel bridge and the step API (issue 20): OpenSpiel's own random
simulation checks over presets with other options and player counts (games shortened: small hands
and a turn cap, since random play rarely goes out and the deal's chance nodes are most of a game;
each preset as it is: tests/test_conformance.py), games played through the bridge with cardsim's
strategies against the batch records (reshuffles, the LIVERPOOL cut, the May-I models, swaps and
kept jokers included), what a seat's strings and tensors may show, and ISMCTS's determinization."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsim.openspiel  # noqa: E402,F401  (registers the games)
from cardsim.kernels import contract_rummy as K  # noqa: E402
from cardsim.kernels import melds_float as F  # noqa: E402
from cardsim.sim.games.contract_rummy import GAME  # noqa: E402
from cardsim.sim.games.contract_rummy.step import BASE, NUM_ACTIONS, kind_of  # noqa: E402
from cardsim.sim.step import new_game  # noqa: E402
from openspiel_helpers import (batch_and_bridge, decisions, ismcts_plays, play_like_the_batch, resample_walk,  # noqa: E402
                               same_views)

SHORT = ",".join(GAME.tools.quick)          # small hands and a turn cap (GameTools.quick)
PRESET_OPTIONS = {
    "liverpool": "players=3,cut_success_prob=0.5,may_i_model=buy,first_dealer=1",
    "may_i": "players=5,may_i_model=none,go_out_requires_discard=True"}


@pytest.mark.parametrize("preset", list(PRESET_OPTIONS))
def test_random_sim_test_preset_variants(preset):
    """Presets with options beside their own and other player counts."""
    game = pyspiel.load_game(f"cardsim_contract_rummy(preset={preset},{PRESET_OPTIONS[preset]},{SHORT})")
    pyspiel.random_sim_test(game, num_sims=40, serialize=True, verbose=False)


def _hand(st, q):
    return st[K.HAND + K.HOLD * q:K.HAND + K.HOLD * (q + 1)]


def _codes(s):
    """The legal codes of the question, derived again from the state where it was asked: the
    discards the rules allow, a lay-off's melds that take the card (keeping it first), yes or no
    (the question's own list: a yes/no asked later in the replay's wind-down must not touch it)."""
    p, kind, card, _, info, _, codes = s.q
    st, tab = s.snap
    if kind == K.K_DISCARD:
        return [c for c in range(K.HOLD) if K.discard_ok(st, p, c, info == 1)]
    if kind == K.K_LAYOFF:
        return [0] + [1 + t for t in range(int(st[K.NMELDS])) if F.can_lay(tab[t], card, K.rules_of(s.opts))]
    if kind in (K.K_DRAW, K.K_BUY, K.K_VOLUNTEER, K.K_SWAP):
        return [0, 1]
    return codes


@pytest.mark.parametrize("options", [
    {"players": 4},
    {"players": 3, "preset": "liverpool", "cut_success_prob": 0.5, "may_i_model": "buy"},
    {"players": 5, "preset": "may_i", "swapped_joker_may_be_discarded": True, "joker_swap_allowed": True,
     "joker_swap_requires_prior_meld": False, "go_out_requires_discard": True},
])
def test_random_games_keep_the_cards(options):
    """Random play through the step API: after every turn the kernel's invariants hold (every card
    of the pack in one place, valid melds, hand sizes), each chance node's probabilities sum to 1,
    the stock runs out and is dealt again from the pile, every decision kind comes up, and the game
    ends with cardsim's payouts."""
    options = dict(options)
    n, preset = options.pop("players"), options.pop("preset", None)
    game = new_game("contract_rummy", players=n, preset=preset, options={"max_turns_per_deal": 60, **options})
    rng = np.random.default_rng(4)
    chances, kinds, reshuffles = set(), set(), 0
    for _ in range(2):
        s = game.new_state()
        while not s.is_terminal():
            if s.is_chance():
                outs = s.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                chances.add(s.chance)
                s.apply(outs[rng.choice(len(outs), p=[p for _, p in outs])][0])
            else:
                kinds.add(s.q[1])
                legal = s.legal_actions()
                assert all(kind_of(a) == s.q[1] for a in legal)
                assert s.q[6] == _codes(s), s.q
                s.apply(legal[rng.integers(len(legal))])
            if not s.is_terminal() and s.chance not in ("first", "cut", "deal") and s.start is None:
                assert K.check_invariants(s.st, s.opts, s.tab) == 0         # s.st: the turn's start
        reshuffles += int(s.st[K.GAME_RESHUF])
        assert s.returns() == [-float(s.st[K.TOTAL + q]) for q in range(n)]
    assert {"deal", "draw"} <= chances and ("cut" in chances) == (preset == "liverpool")
    assert {K.K_DRAW, K.K_MELD, K.K_LAYOFF, K.K_DISCARD} <= kinds
    assert reshuffles > 0 or n != 4         # (random May-I's empty the four-seat stock; the others last)
    assert (K.K_BUY in kinds) == (options.get("may_i_model") == "buy")
    assert (K.K_VOLUNTEER in kinds) == (options.get("may_i_model") is None)


def test_a_question_keeps_its_legal_codes():
    """A random game of default rules: at every question (lay-offs and jokers whose codes do not
    begin 0, 1 among them) the legal codes are the question's own. The replay that stops at a
    question plays the turn out with the built-ins; a yes/no question on the way once wrote 0, 1
    over the stopped question's first two codes (a joker's 1, 2 read as keep and meld 0)."""
    s = new_game("contract_rummy", players=4).new_state()
    rng = np.random.default_rng(3)
    kinds = set()
    while not s.is_terminal():
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(outs[rng.choice(len(outs), p=[p for _, p in outs])][0])
            continue
        assert s.q[6] == _codes(s), s.q
        kinds.add((s.q[1], s.q[6][:2] != [0, 1]))
        legal = s.legal_actions()
        s.apply(legal[rng.integers(len(legal))])
    assert {(K.K_LAYOFF, False), (K.K_JOKER, True), (K.K_DISCARD, True)} <= kinds


def test_action_ids():
    """Each kind's codes are a block of ids: 161 in all, the kinds in the order K_DRAW, K_BUY,
    K_VOLUNTEER, K_SWAP, K_MELD, K_MELD_JOKERS, K_JOKER, K_LAYOFF, K_DISCARD."""
    assert NUM_ACTIONS == 161
    assert [BASE[k] for k in (K.K_DRAW, K.K_BUY, K.K_VOLUNTEER, K.K_SWAP, K.K_MELD, K.K_MELD_JOKERS, K.K_JOKER,
                              K.K_LAYOFF, K.K_DISCARD)] == [0, 2, 4, 6, 8, 64, 72, 90, 108]
    assert kind_of(0) == K.K_DRAW and kind_of(63) == K.K_MELD and kind_of(160) == K.K_DISCARD
    s = new_game("contract_rummy", players=4, options={"first_dealer": 0}).new_state()
    assert s.current_player() == -1 and s.legal_actions() == list(range(53))   # the deal, card by card
    while s.is_chance():
        s.apply(s.legal_actions()[0])
    assert s.current_player() == 1 and s.legal_actions() == [0, 1]              # draw or take the up-card
    assert s.action_string(1) == "take the discard"


@pytest.mark.parametrize("strategies,options,players", [
    (["greedy", "mayi", "cautious", "greedy"], {}, 4),
    (["random", "fuzz", "greedy"], {"cut_bonus_points": 50, "cut_success_prob": 0.5}, 3),
    (["fuzz", "random", "mayi", "greedy", "cautious"],
     {"deck_rule": "one_per_two_players", "joker_rule": "two_per_deck", "initial_meld_exact_size": False,
      "joker_swap_allowed": False, "deal7_special": False, "may_i_model": "buy"}, 5),
    (["fuzz", "random", "greedy", "fuzz"],
     {"swapped_joker_may_be_discarded": True, "joker_swap_requires_prior_meld": False,
      "go_out_requires_discard": True, "may_i_model": "none", "take_discard_penalty": "if_claimed"}, 4),
])
def test_a_bridged_game_is_the_batch_record(strategies, options, players):
    """Games played through OpenSpiel with cardsim's strategies at every seat (random and fuzz
    among them: their draws and the kernel's reshuffles come from one stream in the batch's order)
    end with the batch record's payouts and its deals' records."""
    seed, games = 11, 3
    rec, game, sids, params = batch_and_bridge("contract_rummy", strategies, games, seed, options, players=players)
    reshuffles = 0
    for g in range(games):
        s = play_like_the_batch(game, seed, g, sids, params)
        assert s.returns() == [float(rec[f"payout_{p}"][g]) for p in range(players)], g
        row = s.inner.row
        for d in range(1, K.DEALS + 1):
            b = K.RC_DEAL + (d - 1) * K.DB_SIZE
            got = [int(row[b + f]) for f in (K.DB_OUT, K.DB_TURNS, K.DB_RESHUF, K.DB_CUT)] + [
                int(row[b + f + p]) for f in (K.DB_PEN, K.DB_MAYI, K.DB_OOT) for p in range(players)]
            want = [int(rec[f"d{d}_{c}"][g]) for c in ("out", "turns", "reshuffles", "cut")] + [
                int(rec[f"d{d}_{c}_{p}"][g]) for c in ("pen", "mayi", "oot") for p in range(players)]
            assert got == want, (g, d)
        reshuffles += int(s.inner.st[K.GAME_RESHUF])
    assert reshuffles > 0 or players == 5            # (the may_i pack of three decks lasts)


def test_views_show_only_the_seat():
    """A card swapped between two other holdings leaves a seat's observation and information
    state as they were; the holders see it."""
    game = new_game("contract_rummy", players=4, options={"max_turns_per_deal": 30})
    rng = np.random.default_rng(3)
    swapped = 0
    s = game.new_state()
    for legal in decisions(s, rng):
        p = s.current_player()
        st = s.snap[0]
        a, b = (int(x) for x in rng.choice([q for q in range(4) if q != p], 2, replace=False))
        ha, hb = _hand(st, a), _hand(st, b)
        ca = [c for c in range(K.HOLD) if ha[c] > st[K.KNOWN + K.HOLD * a + c] and hb[c] == 0]
        cb = [c for c in range(K.HOLD) if hb[c] > st[K.KNOWN + K.HOLD * b + c] and ha[c] == 0]
        if ca and cb:
            t = s.clone()
            t.snap = (st.copy(), s.snap[1])
            t._views = {}
            for q, out, into in ((a, ca[0], cb[0]), (b, cb[0], ca[0])):
                t.snap[0][K.HAND + K.HOLD * q + out] -= 1
                t.snap[0][K.HAND + K.HOLD * q + into] += 1
            same_views(s, t, [q for q in range(4) if q not in (a, b)])
            assert t.observation_string(a) != s.observation_string(a)
            swapped += 1
        s.apply(legal[rng.integers(len(legal))])
    assert swapped > 100


def test_resample_keeps_the_seat_s_information_and_ismcts_plays():
    """At every decision (out-of-turn discards and May-I's included) the resampled world shows the
    player what it saw, its legal actions the same, with the other hands dealt again; OpenSpiel's
    ISMCTS plays a game through it."""
    game = pyspiel.load_game("cardsim_contract_rummy(players=4,max_turns_per_deal=40)")
    rng = np.random.default_rng(5)
    kinds = []

    def check(s, r, p):
        st, rt = s.snap[0], r.snap[0]                            # the states where the question was asked
        assert [int(rt[K.HSIZE + q]) for q in range(4)] == [int(st[K.HSIZE + q]) for q in range(4)]
        kinds.append((s.q[1], s.q[4]))
        assert s.__dict__.get("resample_misses", 0) == 0         # a world found, not the state itself
        return any((_hand(rt, q) != _hand(st, q)).any() for q in range(4) if q != p)
    moved = resample_walk(game, 1, rng, check)
    assert moved > 0.9 * len(kinds) and {(K.K_VOLUNTEER, 0), (K.K_DISCARD, 1), (K.K_LAYOFF, 1)} <= set(kinds)
    ismcts_plays(pyspiel.load_game("cardsim_contract_rummy(players=3,hand_sizes=5_5_5_6_6_6_6,max_turns_per_deal=3)"),
                 rng, simulations=3, zero_sum=False)


def test_float_and_list_parameters():
    """cut_success_prob is a float (-1: none, 1/(N-1)); hand_sizes a list joined by '_'."""
    g = pyspiel.load_game("cardsim_contract_rummy(preset=liverpool,cut_success_prob=0.25,hand_sizes=6_6_6_7_7_7_7)")
    o = g.step.options
    assert o.cut_success_prob == 0.25 and o.hand_sizes == (6, 6, 6, 7, 7, 7, 7) and o.cut_bonus_points == 50
    assert pyspiel.load_game("cardsim_contract_rummy()").get_parameters()["cut_success_prob"] == -1.0
    s = g.new_initial_state()
    while s.current_player() == pyspiel.PlayerId.CHANCE and not s.inner.chance == "cut":
        s.apply_action(s.chance_outcomes()[0][0])
    assert s.chance_outcomes() == [(0, 0.75), (1, 0.25)]


def test_strategy_action_names_only_codes_the_plug_in_has():
    """The built-ins' meld is the engine's (code 1); meld_pick = 1 lays one no code names, which
    strategy_action says instead of answering something else."""
    from cardsim.sim.games.contract_rummy import STRATEGIES
    greedy = next(x for x in STRATEGIES if x.sid == K.S_GREEDY)
    prm = np.array([p.default for p in greedy.params], np.float64)
    s = new_game("contract_rummy", players=4, options={"max_turns_per_deal": 200}).new_state()
    rng = np.random.default_rng(6)
    for legal in decisions(s, rng):
        if s.q[1] == K.K_MELD and s.st[K.DEAL] < 7:
            gplay = np.zeros(2, np.uint64)
            assert s.strategy_action(K.S_GREEDY, prm, gplay) == BASE[K.K_MELD] + 1
            flexible = prm.copy()
            flexible[K.P_MELD] = 1
            with pytest.raises(ValueError, match="meld_pick"):
                s.strategy_action(K.S_GREEDY, flexible, gplay)
            return
        s.apply(legal[rng.integers(len(legal))])
    raise AssertionError("no meld question")
