"""Telefunken's action codec, the one place that knows the action's bit fields: the kind (``A_*``)
in bits 0-3, then up to five fields of 8 bits, a << 8, b << 16, c << 24, d << 32, e << 40 (what each
kind's fields mean: the ``A_*`` table in ``layout``). The kinds without a field (draw, take the
upcard, buy, pass, go out, exchange done) are the constants ``A_*`` themselves.

``inline='always'`` kernels (on the per-action path, like the rest of it), callable from Python
too (``sim.games.telefunken``: an action's text, the step API's dense ids) and from a plug-in's
``decide`` (``cardsim.telefunken``: ``kind``, ``field``, ``card``). The T_MELD trace rows' packed
meld (``meld_code``, ``meld_code_fields``) is here too: the kernel writes it, the trace reads it.
"""
from cardsim.kernels import melds as M
from cardsim.kernels.jit import njit
from cardsim.kernels.telefunken.layout import T_TWOS


@njit(cache=True, inline='always')
def act(kind, a, b, c, d, e):
    """Encode an action (see the A_* table)."""
    return kind | (a << 8) | (b << 16) | (c << 24) | (d << 32) | (e << 40)


@njit(cache=True, inline='always')
def field(x, i):
    """Field i (1 = a .. 5 = e) of an action."""
    return (x >> (8 * i)) & 255


@njit(cache=True, inline='always')
def action_kind(x):
    """The action's kind (A_*; a plug-in's A_HOLD is 0)."""
    return x & 15


@njit(cache=True, inline='always')
def action_card(x):
    """The card of a lay-off, a shift, a discard or an exchanged card (field a; 52 = a joker)."""
    return (x >> 8) & 255


@njit(cache=True, inline='always')
def meld_code(i, r):
    """A T_MELD trace row's ``a``: table meld i (its row ``r``) packed as i | kind << 6 | key << 8 |
    lo << 12 | hi << 17 | wild cards << 22 | flags << 27 | wild twos << 32."""
    return (i | r[M.M_KIND] << 6 | r[M.M_KEY] << 8 | r[M.M_LO] << 12 | r[M.M_HI] << 17
            | r[M.M_JOKERS] << 22 | r[M.M_FLAGS] << 27 | r[T_TWOS] << 32)


@njit(cache=True, inline='always')
def meld_code_fields(x):
    """(index, kind, key, lo, hi, wild cards, flags, wild twos) of a ``meld_code``."""
    return (x & 63, (x >> 6) & 3, (x >> 8) & 15, (x >> 12) & 31, (x >> 17) & 31, (x >> 22) & 31, (x >> 27) & 31,
            x >> 32)
