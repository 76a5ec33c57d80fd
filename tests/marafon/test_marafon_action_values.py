"""Marafon's ``StepState.action_values`` (play's hints): the kernel's ``critique_eval`` of the
decision asked now (trump, an optional marafona, a claim window, a card), one value per legal
action in ``legal_actions`` order; None at chance nodes and at the end."""
import math

import numpy as np

from cardsim.sim.step import new_game


def _walk(options, seed, want, worlds=3):
    """A random match through the step API: the values at the first decisions (with a choice) of
    each phase in ``want``, and None at a few chance nodes. Returns the phases valued."""
    rng = np.random.default_rng(seed)
    s = new_game("marafon", players=4, options=options).new_state()
    seen, chances = set(), 0
    while not s.is_terminal() and not want <= seen:
        if s.is_chance():
            if chances < 3:
                assert s.action_values(worlds=worlds, policy="random") is None
                chances += 1
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
            continue
        legal = s.legal_actions()
        if s.phase in want and s.phase not in seen and len(legal) > 1:
            vals = s.action_values(worlds=worlds, policy="random", seed=seed)
            assert vals is not None
            assert [v.action for v in vals] == legal
            for v in vals:
                assert math.isfinite(v.mean) and math.isfinite(v.se) and v.se >= 0 and v.worlds >= 1
            seen.add(s.phase)
        s.apply(int(rng.choice(legal)))
    if s.is_terminal():
        assert s.action_values() is None
    return seen


def test_action_values_one_per_legal_action():
    """Trump, claim windows, optional marafone and cards of random matches each get one finite
    value per legal action, sorted as ``legal_actions`` lists them."""
    seen = set()
    for seed in range(3):
        seen |= _walk({"marafona_auto_declare": False}, seed, {"trump", "claim", "declare", "card"})
        if {"trump", "claim", "card"} <= seen:
            break
    assert {"trump", "claim", "card"} <= seen
