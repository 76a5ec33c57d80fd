"""Trionfo's ``StepState.action_values`` (play's hints): the kernel's ``critique_eval`` of the
decision asked now (a call in the auction, the trump, the called card or the named partner, a
card), one value per legal action in ``legal_actions`` order; None at chance nodes and at the end."""
from cardsim.kernels import trionfo as K
from openspiel_helpers import value_walk


def _walk(options, seed, want, worlds=3, low=False):
    """A random session: the phases in ``want`` valued (``openspiel_helpers.value_walk``). With
    ``low`` the auction opens at the lowest level and everyone else passes (a partner contract)."""
    def choose(s, legal, rng):
        if low and s.phase == "bid":
            return legal[1 if s.st[K.HIGH_LEVEL] == 0 else 0]
        return None
    return value_walk("trionfo", 5, options, seed, want, lambda s: s.phase, worlds, choose)


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
