"""Tonk's action codec, the one place that knows the action's bit fields: the kind (``A_*``)
in bits 0-3; a hit's or a discard's card from bit 8 (6 bits), a hit's owner seat from bit 16
(4 bits) and its target (0 book, 1 run) at bit 20; a lay's card mask from bit 8. The kinds
without a payload (knock, draws, end of a dry hand) are the constants ``A_*`` themselves.

``inline='always'`` kernels (on the per-action path, like the rest of it), callable from Python
too (``sim.games.tonk``: an action's text, the step API's ids) and from a plug-in's ``decide``
(``cardsim.tonk``: ``kind``, ``card``, ``cards``, ``owner``, ``on_run``).
"""
from cardsim.kernels.jit import njit
from cardsim.kernels.tonk.layout import A_DISCARD, A_HIT, A_LAY


@njit(cache=True, inline='always')
def action_kind(a):
    """The action's kind (A_*)."""
    return a & 15


@njit(cache=True, inline='always')
def action_card(a):
    """The card of a hit or a discard."""
    return (a >> 8) & 63


@njit(cache=True, inline='always')
def action_cards(a):
    """The cards (mask) a lay puts down."""
    return a >> 8


@njit(cache=True, inline='always')
def action_owner(a):
    """The seat whose spread a hit goes on."""
    return (a >> 16) & 15


@njit(cache=True, inline='always')
def action_on_run(a):
    """1 when a hit goes on a run, 0 on a book."""
    return (a >> 20) & 1


@njit(cache=True, inline='always')
def lay_action(mask):
    """Lay the cards ``mask`` (one book or one run)."""
    return A_LAY | (mask << 8)


@njit(cache=True, inline='always')
def hit_action(card, owner, on_run):
    """Hit ``card`` on seat ``owner``'s book (``on_run`` 0) or run (1)."""
    return A_HIT | (card << 8) | (owner << 16) | (on_run << 20)


@njit(cache=True, inline='always')
def discard_action(card):
    """Discard ``card``."""
    return A_DISCARD | (card << 8)
