"""Tripoli's action codec, the one place that knows the action's bit fields: the kind (``A_*``)
in bits 0-3 and the payload from bit 8: a bid's new high bid, a bet's amount, a raise's
increment, a pick's card, the suit of a lead or of naming the pay suit. The kinds without a
payload (keep, swap, the auctions, done, pass, check, call, fold) are the constants ``A_*``
themselves.

``inline='always'`` kernels (on the per-action path, like the rest of it), callable from Python
too (``sim.games.tripoli``: an action's text, the step API's ids) and from a plug-in's ``decide``
(``cardsim.tripoli``: ``kind``, ``amount``, ``card``, ``suit``).
"""
from cardsim.kernels.jit import njit


@njit(cache=True, inline='always')
def action_kind(a):
    """The action's kind (A_*)."""
    return a & 15


@njit(cache=True, inline='always')
def action_arg(a):
    """The action's payload: the chips of a bid, bet or raise, the card of a pick, the suit of a
    lead or of naming the pay suit."""
    return a >> 8


@njit(cache=True, inline='always')
def make_action(kind, x):
    """The action of kind ``kind`` (A_*) with the payload ``x``."""
    return kind | (x << 8)
