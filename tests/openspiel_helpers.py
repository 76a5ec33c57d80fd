"""Shared pieces of the OpenSpiel bridge tests (``test_openspiel*.py``): random chance, a walk
over a step state's decisions, card swaps, a walk that checks ``resample_from_infostate`` at
every decision, and ISMCTS playing whole games."""
import numpy as np


def chance_step(s, rng) -> None:
    """Apply a uniformly drawn chance outcome."""
    outs = [o for o, _ in s.chance_outcomes()]
    s.apply_action(int(outs[rng.integers(len(outs))]))


def decisions(s, rng, steps: int | None = None):
    """Step state ``s`` played on: each chance outcome drawn at random, and at each decision its
    legal actions (checked ascending) yielded for the caller, who applies one before the next;
    at most ``steps`` steps, chance included, when given."""
    k = 0
    while not s.is_terminal() and (steps is None or k < steps):
        k += 1
        legal = s.legal_actions()
        assert legal == sorted(legal)
        if s.is_chance():
            s.apply(legal[rng.integers(len(legal))])
            continue
        yield legal


def lowest(mask: int) -> int:
    """The lowest card id of a non-empty card mask."""
    return (mask & -mask).bit_length() - 1


def swap_cards(st, fa: int, fb: int, ca: int, cb: int) -> None:
    """Card ``ca`` of the mask ``st[fa]`` and card ``cb`` of ``st[fb]`` change places."""
    ma, mb = int(st[fa]), int(st[fb])
    st[fa] = ma & ~(1 << ca) | 1 << cb
    st[fb] = mb & ~(1 << cb) | 1 << ca


def same_pool(st, rt, hand: int, n: int) -> None:
    """States ``st`` and ``rt`` hold as many cards in each of the ``n`` hands from field
    ``hand`` on, and the same cards in all of them together."""
    assert [int(st[hand + q]).bit_count() for q in range(n)] == [int(rt[hand + q]).bit_count() for q in range(n)]
    assert int(np.bitwise_or.reduce(rt[hand:hand + n])) == int(np.bitwise_or.reduce(st[hand:hand + n]))


def resample_walk(game, games: int, rng, check, choose=None) -> int:
    """Play ``games`` games, at random (or ``choose(s, legal)``); at each decision the player's
    resampled state keeps its information state, observation and legal actions, and passes
    ``check(s, r, p)`` (the inner states' own facts; returns whether the hidden cards moved).
    Returns how many resampled states moved them."""
    moved = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                chance_step(s, rng)
                continue
            p = s.current_player()
            r = s.resample_from_infostate(p, None)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.observation_tensor(p) == s.observation_tensor(p)
            assert r.legal_actions() == s.legal_actions()
            moved += bool(check(s.inner, r.inner, p))
            legal = s.legal_actions()
            s.apply_action(int(choose(s, legal) if choose else legal[rng.integers(len(legal))]))
    return moved


def ismcts_plays(game, rng, games: int = 1, simulations: int = 10, zero_sum: bool = True) -> None:
    """OpenSpiel's ISMCTS bot takes every decision of ``games`` games; each is legal and the
    returns are zero-sum (``zero_sum``)."""
    from open_spiel.python.algorithms import ismcts, mcts
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, simulations,
                           random_state=np.random.RandomState(1), allow_inconsistent_action_sets=True)
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                chance_step(s, rng)
            else:
                a = bot.step(s)
                assert a in s.legal_actions()
                s.apply_action(a)
        assert sum(s.returns()) == 0 or not zero_sum


def batch_and_bridge(game: str, strategies, deals: int, seed: int, options: dict, players=None):
    """The batch records of ``deals`` records and the bridged game with the same options, and
    the seats' strategy ids and parameter rows."""
    import pyspiel

    import cardsim
    from cardsim.sim.registry import get_game, seat_arrays, seat_table
    spec = get_game(game)
    rec = cardsim.run(game, players=players, deals=deals, seed=seed, strategies=strategies, options=options,
                      workers=1).records
    text = ",".join([f"players={players}"] * (players is not None) + [f"{k}={v}" for k, v in options.items()])
    bridged = pyspiel.load_game(f"cardsim_{game}({text})")
    sids, params = seat_arrays(spec, seat_table(spec, strategies, bridged.num_players()))
    return rec, bridged, sids, params


def play_like_the_batch(game, seed: int, record: int, sids, params, stream_of=None, watch=None):
    """Record ``record`` through the bridge: chance fed with the batch's outcomes
    (``batch_outcome``), each decision the seat's kernel strategy's (``strategy_action``) on the
    play stream of ``stream_of(inner)`` (default: the record's), in the batch's order; ``watch``
    sees the inner state before each step. Returns the final state."""
    from cardsim.kernels.rng import STREAM_PLAY, seed_stream
    gplay = np.zeros(2, np.uint64)
    key = None
    s = game.new_initial_state()
    while not s.is_terminal():
        inner = s.inner
        if watch:
            watch(inner)
        k = stream_of(inner) if stream_of else record
        if k != key:
            seed_stream(gplay, seed, k, np.int64(STREAM_PLAY))
            key = k
        if s.is_chance_node():
            s.apply_action(inner.batch_outcome(seed, record))
            continue
        p = s.current_player()
        a = inner.strategy_action(int(sids[p]), params[p], gplay)
        assert a in s.legal_actions(), (p, a)
        s.apply_action(a)
    return s


def same_views(s, t, seats) -> None:
    """Step states ``s`` and ``t`` look the same to each of ``seats``: observation string and
    tensor, information state string."""
    for q in seats:
        assert t.observation_string(q) == s.observation_string(q)
        assert t.information_state_string(q) == s.information_state_string(q)
        assert (t.observation_tensor(q) == s.observation_tensor(q)).all()


def value_walk(game: str, players: int, options: dict, seed: int, want: set, key, worlds: int = 3,
               choose=None, limit: int = 4000) -> set:
    """A random game of the step API checking ``StepState.action_values`` (play's hints): at the
    first decision with a choice of each kind ``key(state)`` in ``want``, one finite value per
    legal action in ``legal_actions`` order; None at a few chance nodes and at the end.
    ``choose(state, legal, rng)``: the action to play (None: a random one). Returns the kinds
    valued."""
    import math

    from cardsim.sim.step import new_game
    rng = np.random.default_rng(seed)
    s = new_game(game, players=players, options=options).new_state()
    seen, chances = set(), 0
    for _ in range(limit):
        if s.is_terminal() or want <= seen:
            break
        if s.is_chance():
            if chances < 3:
                assert s.action_values(worlds=worlds, policy="random") is None
                chances += 1
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
            continue
        legal = s.legal_actions()
        kind = key(s)
        if kind in want and kind not in seen and len(legal) > 1:
            vals = s.action_values(worlds=worlds, policy="random", seed=seed)
            assert vals is not None and [v.action for v in vals] == legal, (game, kind)
            assert all(math.isfinite(v.mean) and math.isfinite(v.se) and v.se >= 0 and v.worlds >= 1
                       for v in vals), (game, kind, vals)
            seen.add(kind)
        picked = choose(s, legal, rng) if choose is not None else None
        s.apply(int(rng.choice(legal) if picked is None else picked))
    if s.is_terminal():
        assert s.action_values() is None
    return seen
