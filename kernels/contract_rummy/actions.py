"""Contract Rummy's codecs, the one place that knows their bit fields, shared by the kernels and
the Python side (``sim.games.contract_rummy``: the trace's text, the critique's and the step
API's action texts):

* a critique action code (``pack_act``): the decision kind (``K_*``) in bits 0-3, the legal code
  from bit 4 (8 bits), the card and the meld asked about plus one from bits 12 and 20 (8 bits
  each; -1: none) and V_INFO & 1 at bit 28 (out of turn; a swap into the meld);
* a step-mode question's key (``question_key``): kind, card + 1 from bit 4, meld + 1 from bit 11;
* a run's window (``window``): lo + 256 hi;
* a meld row in the trace (``pack_row``, trace column b of ``T_MELD``): kind (2 bits), key from
  bit 2 (6 bits), jokers from bit 8, M_P2 from bit 16, the window's lo and hi from bits 24 and
  32, the flags from bit 40;
* a swap in the trace (``swap_info``, column c of ``T_SWAP``): the joker's target + 2 in bits
  0-7 (``SWAP_KEPT``, ``SWAP_MELD`` or a meld), the run's window after the swap from bit 8, the
  target's window after the joker is laid from bit 24;
* the sizes after a trace event (``pack_sizes``, column d): cards held + 256 stock + 65536 pile;
* a discard pile entry (``pile_entry``): card + 64 k (k numbers the deal's discards, D_k of §7.3).

The decoders are ``inline='always'`` kernels, callable from Python too.
"""
from cardsim.kernels import melds as M
from cardsim.kernels.jit import njit


@njit(cache=True)
def pack_act(kind, code, card, meld, info):
    """A critique action code: the decision kind, the legal code, the card and meld asked about
    (-1: none) and bit 28 = V_INFO & 1 (out of turn; a swap into the meld)."""
    return kind + (code << 4) + ((card + 1) << 12) + ((meld + 1) << 20) + ((info & 1) << 28)


@njit(cache=True, inline='always')
def act_kind(a):
    """A critique action code's decision kind (K_*)."""
    return a & 15


@njit(cache=True, inline='always')
def act_code(a):
    """A critique action code's legal code."""
    return (a >> 4) & 255


@njit(cache=True, inline='always')
def act_card(a):
    """The card a critique action code's question is about, -1 if none."""
    return ((a >> 12) & 255) - 1


@njit(cache=True, inline='always')
def act_meld(a):
    """The table meld a critique action code's question is about, -1 if none."""
    return ((a >> 20) & 255) - 1


@njit(cache=True, inline='always')
def act_info(a):
    """A critique action code's V_INFO & 1 (out of turn; a swap into the meld)."""
    return (a >> 28) & 1


@njit(cache=True)
def question_key(kind, card, meld):
    """A question's identity in a script: its kind, card and meld."""
    return kind + ((card + 1) << 4) + ((meld + 1) << 11)


@njit(cache=True)
def window(row):
    return row[M.M_LO] + 256 * row[M.M_HI]


@njit(cache=True, inline='always')
def window_lo(w):
    """The low end of a window (``window``)."""
    return w & 255


@njit(cache=True, inline='always')
def window_hi(w):
    """The high end of a window (``window``)."""
    return (w >> 8) & 255


@njit(cache=True)
def pack_row(row):
    """Trace column b of a meld row: kind, key, jokers, M_P2, window, flags."""
    return (row[M.M_KIND] + (row[M.M_KEY] << 2) + (row[M.M_JOKERS] << 8) + (row[M.M_P2] << 16)
            + (row[M.M_LO] << 24) + (row[M.M_HI] << 32) + (row[M.M_FLAGS] << 40))


@njit(cache=True, inline='always')
def row_kind(b):
    """A packed meld row's kind (M.MK_*)."""
    return b & 3


@njit(cache=True, inline='always')
def row_key(b):
    """A packed meld row's key (a set's rank, a run's suit)."""
    return (b >> 2) & 63


@njit(cache=True, inline='always')
def row_jokers(b):
    """A packed meld row's jokers."""
    return (b >> 8) & 255


@njit(cache=True, inline='always')
def row_p2(b):
    """A packed meld row's M_P2."""
    return (b >> 16) & 255


@njit(cache=True, inline='always')
def row_lo(b):
    """A packed meld row's window low end."""
    return (b >> 24) & 255


@njit(cache=True, inline='always')
def row_hi(b):
    """A packed meld row's window high end."""
    return (b >> 32) & 255


@njit(cache=True)
def swap_info(wrun, tab, t):
    """Trace column c of a swap: joker target + 2, the run's window after the swap ``wrun``,
    the target's window after the joker is laid on it."""
    info = (t + 2) + (wrun << 8)
    if t >= 0:
        info += window(tab[t]) << 24
    return info


@njit(cache=True, inline='always')
def swap_target(c):
    """A swap's joker target (``swap_info``): a meld, SWAP_KEPT or SWAP_MELD."""
    return (c & 255) - 2


@njit(cache=True, inline='always')
def swap_run_window(c):
    """The run's window after a swap (``swap_info``)."""
    return (c >> 8) & 0xFFFF


@njit(cache=True, inline='always')
def swap_target_window(c):
    """The target meld's window after the freed joker is laid on it (``swap_info``)."""
    return (c >> 24) & 0xFFFF


@njit(cache=True, inline='always')
def pack_sizes(held, stock, pile):
    """Trace column d: cards held, stock and discard pile sizes."""
    return held + 256 * stock + 65536 * pile


@njit(cache=True, inline='always')
def sizes_held(d):
    """The cards held of a trace row's sizes (``pack_sizes``)."""
    return d & 255


@njit(cache=True, inline='always')
def sizes_stock(d):
    """The stock size of a trace row's sizes (``pack_sizes``)."""
    return (d >> 8) & 255


@njit(cache=True, inline='always')
def sizes_pile(d):
    """The discard pile size of a trace row's sizes (``pack_sizes``)."""
    return d >> 16


@njit(cache=True, inline='always')
def pile_entry(c, k):
    """A discard pile entry: card c, the deal's k-th discard."""
    return c + 64 * k


@njit(cache=True, inline='always')
def pile_card(e):
    """The card of a discard pile entry."""
    return e & 63


@njit(cache=True, inline='always')
def pile_k(e):
    """The k of a discard pile entry (the deal's k-th discard)."""
    return e >> 6
