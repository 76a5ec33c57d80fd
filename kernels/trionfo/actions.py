"""Trionfo's action codec, the one place that knows how an action is written. An action is a
decision kind (``K_BID``, ``K_TRUMP``, ``K_CALL``, ``K_NAME``, ``K_CARD``) and its value (a level,
0 for a pass; a suit; a card id; a seat), written two ways:

* the critique's action code ``kind << ACT_SHIFT | value`` (the trick games' shared encoding,
  ``kernels.trick_search``): ``act_code``, ``action_kind``, ``action_value``, ``mask_acts``;
* the step API's dense id, one range per kind (``A_CARD``, ``A_CALL``, ``A_TRUMP``, ``A_BID``,
  ``A_NAME``, ``N_ACTIONS`` in ``layout``): ``dense_id``, ``dense_kind``, ``dense_value``.

``inline='always'`` kernels, callable from Python too (``sim.games.trionfo``: an action's text,
the critique's rows, the step API's ids).
"""
from cardsim.kernels.jit import njit
from cardsim.kernels.trick_search import ACT_MASK, ACT_SHIFT, act_code, decision_kind, mask_acts  # noqa: F401
from cardsim.kernels.trionfo.layout import (A_BID, A_CALL, A_CARD, A_NAME, A_TRUMP, K_BID, K_CALL, K_CARD, K_NAME,
                                            K_TRUMP)

action_kind = decision_kind     # the decision kind of a critique action code (``kernels.trick_search``)


@njit(cache=True, inline='always')
def action_value(code):
    """The value of a critique action code: a level (0 pass), a suit, a card or a seat."""
    return code & ACT_MASK


@njit(cache=True, inline='always')
def dense_base(kind):
    """The first dense id of decision ``kind``."""
    if kind == K_CARD:
        return A_CARD
    if kind == K_CALL:
        return A_CALL
    if kind == K_TRUMP:
        return A_TRUMP
    if kind == K_BID:
        return A_BID
    return A_NAME


@njit(cache=True, inline='always')
def dense_id(kind, v):
    """The step API's id of value ``v`` of decision ``kind``."""
    return dense_base(kind) + v


@njit(cache=True, inline='always')
def dense_kind(i):
    """The decision kind of the step API's id ``i``."""
    if i < A_CALL:
        return K_CARD
    if i < A_TRUMP:
        return K_CALL
    if i < A_BID:
        return K_TRUMP
    if i < A_NAME:
        return K_BID
    return K_NAME


@njit(cache=True, inline='always')
def dense_value(i):
    """The value (a card, a suit, a level, a seat) of the step API's id ``i``."""
    return i - dense_base(dense_kind(i))
