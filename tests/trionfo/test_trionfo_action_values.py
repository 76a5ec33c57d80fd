"""Trionfo's ``StepState.action_values`` (play's hints): the kernel's ``critique_eval`` of the
decision asked now (a call in the auction, the trump, the called card or the named partner, a
card), one value per legal action in ``legal_actions`` order; None at chance nodes and at the end."""
import math

import numpy as np

from cardsim.kernels import trionfo as K
from cardsim.sim.step import new_game


def _walk(options, seed, want, worlds=3, low=False):
    """A random session through the step API: the values at the first decisions (with a choice)
    of each phase in ``want``, and None at a few chance nodes. Returns the phases valued. With
    ``low`` the auction opens at the lowest level and everyone else passes (a partner contract)."""
    rng = np.random.default_rng(seed)
    s = new_game("trionfo", players=5, options=options).new_state()
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
        if low and s.phase == "bid":
            s.apply(int(legal[1 if s.st[K.HIGH_LEVEL] == 0 else 0]))
            continue
        s.apply(int(rng.choice(legal)))
    if s.is_terminal():
        assert s.action_values() is None
    return seen


def test_action_values_one_per_legal_action():
    """Calls, trumps, called cards or named partners and cards of random sessions each get one
    finite value per legal action, sorted as ``legal_actions`` lists them."""
    seen = set()
    for seed in range(4):
        seen |= _walk({"trionfo_hands": 1}, seed, {"bid", "trump", "call", "card"})
        if {"bid", "trump", "call", "card"} <= seen:
            break
    assert {"bid", "trump", "card"} <= seen


def test_action_values_name_a_partner():
    """Under name_player the declarer's naming is valued too (one value per other seat)."""
    seen = set()
    for seed in range(6):
        seen |= _walk({"trionfo_hands": 1, "trionfo_partner_method": "name_player"}, seed, {"name"}, low=True)
        if seen:
            break
    assert seen == {"name"}
