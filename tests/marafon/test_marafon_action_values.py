"""Marafon's ``StepState.action_values`` (play's hints): the kernel's ``critique_eval`` of the
decision asked now (trump, an optional marafona, a claim window, a card), one value per legal
action in ``legal_actions`` order; None at chance nodes and at the end."""
from openspiel_helpers import value_walk


def _walk(options, seed, want, worlds=3):
    """A random match: the phases in ``want`` valued (``openspiel_helpers.value_walk``)."""
    return value_walk("marafon", 4, options, seed, want, lambda s: s.phase, worlds)


def test_action_values_one_per_legal_action():
    """Trump, claim windows, optional marafone and cards of random matches each get one finite
    value per legal action, sorted as ``legal_actions`` lists them."""
    seen = set()
    for seed in range(3):
        seen |= _walk({"marafona_auto_declare": False}, seed, {"trump", "claim", "declare", "card"})
        if {"trump", "claim", "card"} <= seen:
            break
    assert {"trump", "claim", "card"} <= seen
