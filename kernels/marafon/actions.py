"""Marafon's action codec, the one place that knows how a decision's action is written. A
decision is a kind (``K_*``) and a value ``v``: a suit (K_TRUMP), 0 or 1 (K_DECLARE, K_CLAIM:
no / yes), a 40-card id (K_CARD); the plug-in's legal lists hold the values.

* the action code (the critique's rows; ``kernels.trick_search``, shared with Trionfo):
  ``act_code(kind, v)`` = ``kind << ACT_SHIFT | v``, read back by ``decision_kind`` and
  ``act_value``;
* the dense id of the step API (``sim.games.marafon.step``, ``num_distinct_actions`` =
  N_ACTIONS): ``dense_id(kind, v)``: 0..39 play that card, A_TRUMP + suit name it trump, A_NO
  (no marafona, no claim), A_DECLARE, A_CLAIM; ``dense_value`` gives ``v`` back.

``inline='always'`` kernels callable from Python too (``sim.games.marafon``: an action's text,
the step API's ids).
"""
from cardsim.kernels.jit import njit
from cardsim.kernels.marafon.layout import K_CARD, K_DECLARE, K_TRUMP
from cardsim.kernels.trick_search import ACT_MASK, ACT_SHIFT, act_code, decision_kind  # noqa: F401 - the codec

A_TRUMP = 40         # A_TRUMP + suit: name that suit trump
A_NO = 44            # no marafona / no claim
A_DECLARE = 45       # declare the marafona
A_CLAIM = 46         # claim the game
N_ACTIONS = 47       # dense ids


@njit(cache=True, inline='always')
def act_value(code):
    """The value of an action code: a suit, 0 / 1, or a card."""
    return code & ACT_MASK


@njit(cache=True, inline='always')
def dense_id(kind, v):
    """The step API's id of the action ``v`` of a decision of ``kind``."""
    if kind == K_CARD:
        return v
    if kind == K_TRUMP:
        return A_TRUMP + v
    if v == 0:
        return A_NO
    return A_DECLARE if kind == K_DECLARE else A_CLAIM


@njit(cache=True, inline='always')
def dense_value(i):
    """The value (card, suit, 0 / 1) of the step API's id ``i`` (its kind is the decision's)."""
    if i < A_TRUMP:
        return i
    if i < A_NO:
        return i - A_TRUMP
    return 0 if i == A_NO else 1

