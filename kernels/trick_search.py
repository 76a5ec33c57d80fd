"""Search and critique parts the 40-card trick games share (issue 42), stateless.

``kernels.search`` and ``kernels.critique`` hold what every game's search and critique share;
this module holds what the trick games built on ``kernels.tricks`` (Marafon, Trionfo) had each
written alike on top of them:

* the deal of the cards a searching seat cannot see (its game's ``determinize``) that respects
  the suits each seat has shown void in: ``other_seats``, ``hidden_places`` (the places and suits
  each other seat may take), ``unseen_cards`` (the pool), ``start_deal`` and ``deal_cards``; a
  card's seat is drawn (``place``) in proportion to its open places among those that may take
  the suit and leave the rest dealable (``deal_feasible``, Hall's condition); without voids that
  is a uniform deal. The game adds what it alone knows (cards placed by its rules: a declared
  cricca, a card that named the trump, a called card) as each seat's ``known`` cards;
* a search's scratch arrays (``search_scratch``) and the cards of a mask as a list (``cards_of``:
  the legal cards a search tries, the unseen cards it deals);
* the critique's action codes, ``kind << ACT_SHIFT | action`` (``act_code``, ``mask_acts``), its
  driver's context ``cr`` (``critique_context``), its rows (``row_decision``) and its answer
  ``HALT``.

A game passes the arrays it reads (slices of its scratch buffer) and its seats' masks; nothing
here reads a game's state.
"""
import numpy as np

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.critique import plain_row, sampled, STREAM_CRITIQUE
from cardsim.kernels.jit import njit
from cardsim.kernels.rng import below, mix64, stream_key
from cardsim.kernels.tricks import FULL40

ACT_SHIFT = 6      # a critique action code (issue 40): kind << ACT_SHIFT | the legal action
ACT_MASK = (1 << ACT_SHIFT) - 1
HALT = -3          # a critique driver's answer: stopped before the decision ``stop``


# =============================================================================
# the deal of the unseen cards (a game's ``determinize``)
# =============================================================================
@njit(cache=True)
def deal_feasible(rem, left, elig):
    """Whether the cards still to deal (``rem[s]``: of suit s) fit the seats' open places
    (``left[j]``, seat j of ``len(left)``) where ``elig[s]`` (a mask of those seats) may take
    suit s: Hall's condition, for every set T of seats, the cards only seats of T may take are
    at most T's places."""
    n = len(left)
    for t in range(1 << n):
        cap = 0
        for j in range(n):
            if (t >> j) & 1:
                cap += left[j]
        dem = 0
        for s in range(4):
            if elig[s] & ~t == 0:
                dem += rem[s]
        if dem > cap:
            return False
    return True


@njit(cache=True)
def place(c, seats, left, rem, elig, gen):
    """A seat for card ``c`` among the mask ``seats``, drawn from ``gen`` in proportion to its open
    places (``left``, one taken) among those that leave the rest dealable (``deal_feasible`` with
    ``rem``, the cards still to deal after ``c``, and ``elig``); -1 if none does (inconsistent
    constraints: the caller chooses)."""
    n = len(left)
    skip = 0
    while True:
        tot = 0
        for j in range(n):
            if (seats >> j) & 1 and not (skip >> j) & 1:
                tot += left[j]
        if tot == 0:
            return -1
        x = below(gen, tot)
        j = 0
        for jj in range(n):
            w = left[jj] if (seats >> jj) & 1 and not (skip >> jj) & 1 else 0
            if x < w:
                j = jj
                break
            x -= w
        left[j] -= 1
        if deal_feasible(rem, left, elig):
            return j
        left[j] += 1
        skip |= 1 << j


@njit(cache=True, inline='always')
def first_room(left):
    """The first seat with an open place (``left``), one taken: the seat of a card that ``place``
    cannot place (inconsistent constraints)."""
    j = 0
    while left[j] == 0:
        j += 1
    left[j] -= 1
    return j


@njit(cache=True)
def place_card(c, seats, left, rem, elig, gen):
    """``place``, else (inconsistent constraints) ``first_room``."""
    j = place(c, seats, left, rem, elig, gen)
    return j if j >= 0 else first_room(left)


@njit(cache=True)
def other_seats(p, others):
    """The seats but ``p`` (of ``len(others) + 1``), in seat order, into ``others``."""
    k = 0
    for q in range(len(others) + 1):
        if q != p:
            others[k] = q
            k += 1


@njit(cache=True)
def hidden_places(others, hands, voids, known, need, elig):
    """What a deal of the hidden cards respects, for the seats ``others[j]`` (``hands[q]``, their
    hands as masks, and ``voids[q]``, the 4-bit masks of the suits they have shown void in: slices
    of a game's state): ``need[j]`` the cards of seat j's hand that are not its ``known[j]`` (the
    cards its game places there), ``elig[s]`` the mask of the j that may hold suit s."""
    for s in range(4):
        elig[s] = 0
    for j in range(len(others)):
        q = others[j]
        need[j] = popcount(hands[q]) - popcount(known[j])
        for s in range(4):
            if not (voids[q] >> s) & 1:
                elig[s] |= 1 << j


@njit(cache=True)
def cards_of(mask, cards):
    """The cards of ``mask``, lowest first, into ``cards``; returns their number."""
    m = 0
    while mask:
        cards[m] = lowbit(mask)
        m += 1
        mask &= mask - 1
    return m


@njit(cache=True)
def unseen_cards(taken, cards):
    """The cards of the deck not in the mask ``taken``, lowest first, into ``cards``; returns
    their number."""
    return cards_of(FULL40 & ~taken, cards)


@njit(cache=True)
def search_scratch(st_size, n, trace_w):
    """The arrays of a decision's search among ``n`` actions: two states of ``st_size`` (the
    world, a rollout), ``determinize``'s scratch (64), the actions' totals, a generator, an empty
    trace of width ``trace_w`` and the actions still active (all)."""
    return (np.empty(st_size, np.int64), np.empty(st_size, np.int64), np.empty(64, np.int64),
            np.zeros(n, np.float64), np.empty(2, np.uint64), np.zeros((0, trace_w), np.int64),
            np.ones(n, np.bool_))


@njit(cache=True)
def start_deal(cards, m, need, left, rem, hands):
    """Before a deal of ``cards[:m]``: every seat j has ``need[j]`` open places (``left``) and an
    empty hand (``hands``), ``rem[s]`` the cards of suit s to deal."""
    for j in range(len(left)):
        left[j] = need[j]
        hands[j] = 0
    for s in range(4):
        rem[s] = 0
    for i in range(m):
        rem[cards[i] // 10] += 1


@njit(cache=True)
def deal_cards(cards, m, elig, left, rem, hands, gen):
    """Deal ``cards[:m]`` in their order into ``hands`` (``hands[j]``: seat j's mask), each to a seat
    that may take its suit (``elig``) drawn by ``place`` (``left``, ``rem``: ``start_deal``'s), else
    ``first_room``. (``place_card`` written out: a call per card of it cost a third of a deal.)"""
    for i in range(m):
        c = cards[i]
        rem[c // 10] -= 1
        j = place(c, elig[c // 10], left, rem, elig, gen)
        if j < 0:
            j = first_room(left)
        hands[j] |= np.int64(1) << c


# =============================================================================
# critique action codes
# =============================================================================
@njit(cache=True, inline='always')
def act_code(kind, v):
    """The critique's action code of the legal action ``v`` (a suit, a call, a card, a seat) of
    decision ``kind`` (the game's K_*)."""
    return (np.int64(kind) << ACT_SHIFT) | v


@njit(cache=True)
def decision_kind(code):
    """The decision kind (the game's K_*) of a critique action code: decisions that see the same
    state (a claim window and the card after it, the declarer's trump and his call) are told apart
    by their codes."""
    return code >> ACT_SHIFT


@njit(cache=True, inline='always')
def mask_acts(kind, mask, v, acts):
    """The codes of the actions of the mask ``mask`` (cards, lowest first) into ``acts``; returns
    (their number, the index of ``v``)."""
    n, i = 0, 0
    while mask:
        c = lowbit(mask)
        if c == v:
            i = n
        acts[n] = act_code(kind, c)
        n += 1
        mask &= mask - 1
    return n, i


# =============================================================================
# a critique driver's context and rows
# =============================================================================
@njit(cache=True)
def critique_context(seed, game, seat, prm, rate, stop, rows, acts_out, snaps):
    """The context ``cr`` of a critique driver for deal ``game`` of run ``seed`` (its decisions
    rowed by ``row_decision``): (seat, prm, rate, key, cx, rows, acts_out, snaps), ``key`` the
    deal's critique key (STREAM_CRITIQUE) and ``cx`` = [rows written, decisions of the seat,
    decisions of any seat, ``stop``: the driver halts before that decision of any seat]."""
    cx = np.zeros(4, np.int64)
    cx[3] = stop
    key = stream_key(seed, game, np.int64(STREAM_CRITIQUE))
    return (np.int64(seat), prm, np.float64(rate), key, cx, rows, acts_out, snaps)


@njit(cache=True)
def row_decision(cr, st, p, kind, phase, detail, acts, n, i):
    """A decision of seat ``p`` (index ``i`` of ``acts[:n]`` chosen) in a critique driver
    (``critique_context``): counted, and when p is the critiqued seat a row (``plain_row`` with
    ``phase`` and ``detail``), the state ``st`` kept in ``snaps`` when it is to be valued
    (``sampled``, more than one legal action). Returns (that row's index, the key of its
    valuation), the index -1 when none is to be valued."""
    seat, prm, rate, key, cx, rows, acts_out, snaps = cr
    k = -1
    sub = np.uint64(0)
    if p == seat:
        if cx[0] < len(rows):
            plain_row(rows[cx[0]], cx[1], cx[2], kind, phase, detail, n, i, acts[i])
            if n > 1 and sampled(key, cx[1], rate):
                k = cx[0]
                snaps[k, :len(st)] = st
                sub = mix64(key + np.uint64(cx[1] + 1))
            cx[0] += 1
        cx[1] += 1
    cx[2] += 1
    return k, sub
