"""Stateless trick arithmetic for 40-card Italian decks (Marafon, Trionfo, any trick game).

Card ids (``docs/rules/marafon.md`` §0.2): ``card = 10 * suit + strength`` with suits
0 = C (batons), 1 = D (coins), 2 = H (cups), 3 = S (swords) and strength 0..9 =
``4 5 6 7 J Q K A 2 3`` (Q is the Italian horse). Within a suit a higher id wins, so the
rank order 3 > 2 > A > K > Q > J > 7 > 6 > 5 > 4 is the id order. A hand is a 40-bit mask
(bit ``card``) in an int64; suit ``s`` occupies bits ``10 s .. 10 s + 9``.

Card values are in thirds of a point: A = 3, 3 2 K Q J = 1, 7 6 5 4 = 0; each suit holds 8
thirds, the deck 32, and the last trick adds 3 (35 thirds = 11 2/3 points a hand).

Notation: ``sim.games.marafon.parse40`` / ``fmt40`` read and write ``3C 2C AC KD QH JS 7D 4D``
through ``sim.notation`` (a 52-card id ``13 s + r`` maps to ``10 s + STRENGTH_OF_RANK52[r]``;
8s, 9s and 10s do not exist here).

The small helpers are ``inline='always'``: they run once or more per card, where a plain
call costs more than the work; the heuristics (``lead_card``, ``follow_card``...) stay
plain calls (inlining them too would triple the compile time for little speed).

Shared play heuristics (``lead_card``, ``follow_card``, ``greedy_card``, ``trump_score``) are
also here: they read only a hand, the public cards and the current trick, so every trick game
with this deck can call them. So is what a game's kernel would otherwise copy from another's
over its own state fields (issue 42): the trick's cards as a mask (``trick_mask``), the seat
holding a card (``holder_of``) and check mode's card count (``cards_conserved``), each given
the fields it reads (a slice of the state, a few numbers) instead of the state.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from cardsim.kernels.cards import lowbit, popcount
from cardsim.kernels.jit import njit

N_CARDS40 = 40
SUIT40 = 0x3FF                                   # the ten cards of suit 0
FULL40 = (1 << 40) - 1
REPEAT40 = 1 | (1 << 10) | (1 << 20) | (1 << 30)  # one bit per suit at strength 0
ACES40 = (1 << 7) * REPEAT40                     # value 3 thirds
COUNTERS40 = 0b1101110000 * REPEAT40             # J Q K 2 3: value 1 third
SCARTINI40 = 0b1111 * REPEAT40                   # 4 5 6 7: value 0
LAST_TRICK_THIRDS = 3
HAND_THIRDS = 35                                 # 32 in the cards + 3 for the last trick
STRENGTH_NAMES = ("4", "5", "6", "7", "J", "Q", "K", "A", "2", "3")
SUIT_NAMES40 = ("C", "D", "H", "S")
VALUE_THIRDS = np.array([0, 0, 0, 0, 1, 1, 1, 3, 1, 1], dtype=np.int64)
# 52-card rank index (A=0 .. K=12 of kernels.cards) -> strength, -1 for 8 9 10
STRENGTH_OF_RANK52 = (7, 8, 9, 0, 1, 2, 3, -1, -1, -1, 4, 5, 6)
S_ACE = 7
S_TWO = 8
S_THREE = 9
CRICCA = 0b1110000000                            # the 3, 2 and A of suit 0 (shift by 10 x suit)


@intrinsic
def highbit(typingctx, x):
    """Index of the highest set bit (undefined for 0; LLVM ctlz)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return builder.sub(ir.Constant(args[0].type, x.bitwidth - 1), lz)
    return x(x), codegen


@njit(cache=True)
def suit_of40(card):
    return card // 10


@njit(cache=True)
def strength_of(card):
    return card % 10


@njit(cache=True, inline='always')
def suit_mask40(suit):
    """Mask of the ten cards of one suit."""
    return np.int64(SUIT40) << (10 * suit)


@njit(cache=True)
def card_thirds(card):
    return VALUE_THIRDS[card % 10]


@njit(cache=True, inline='always')
def mask_thirds(mask):
    """Value of the cards of ``mask`` in thirds of a point."""
    return 3 * popcount(mask & np.int64(ACES40)) + popcount(mask & np.int64(COUNTERS40))


@njit(cache=True, inline='always')
def legal_cards(hand, led):
    """Follow suit if possible (trumps included), else any card; ``led < 0``: leading."""
    if led < 0:
        return hand
    f = hand & suit_mask40(led)
    return f if f else hand


@njit(cache=True, inline='always')
def beats(card, best, trump):
    """``card`` played after ``best`` takes the lead of the trick."""
    if card // 10 == best // 10:
        return card > best
    return card // 10 == trump


@njit(cache=True, inline='always')
def trick_winner(cards, n, trump):
    """Index (in play order) of the winning card among ``cards[:n]``."""
    w = 0
    for i in range(1, n):
        if beats(cards[i], cards[w], trump):
            w = i
    return w


@njit(cache=True, inline='always')
def trick_mask(cards, n):
    """The cards ``cards[:n]`` (a trick's, in play order: a slice of a game's state) as a mask."""
    m = 0
    for i in range(n):
        m |= np.int64(1) << cards[i]
    return m


@njit(cache=True, inline='always')
def holder_of(hands, card):
    """The seat whose hand (``hands[p]``, a mask: a slice of a game's state) holds ``card``, -1
    when none does."""
    for p in range(len(hands)):
        if (hands[p] >> card) & 1:
            return p
    return -1


@njit(cache=True, inline='always')
def cards_conserved(hands, played, leader, ncards, tricks_left):
    """Check mode: the hands (``hands[p]``, masks) are disjoint, with the cards ``played`` they
    make the deck, and each holds ``tricks_left`` cards, one less when its seat has played to the
    current trick (``ncards`` cards from seat ``leader`` on)."""
    n = len(hands)
    seen = 0
    for p in range(n):
        if seen & hands[p]:
            return False
        seen |= hands[p]
        played_now = 0
        for i in range(ncards):
            if (leader + i) % n == p:
                played_now = 1
        if popcount(hands[p]) != tricks_left - played_now:
            return False
    if seen & played or (seen | played) != FULL40:
        return False
    return True


@njit(cache=True, inline='always')
def cricche(hand):
    """4-bit mask of the suits of which ``hand`` holds the 3, 2 and A (a cricca)."""
    top = np.int64(CRICCA)
    out = 0
    for s in range(4):
        if (hand >> (10 * s)) & top == top:
            out |= 1 << s
    return out


@njit(cache=True, inline='always')
def beating_cards(cards, best, trump):
    """The cards of ``cards`` (a mask) that would beat ``best`` in a trick with ``trump``."""
    s = best // 10
    above = cards & suit_mask40(s) & ~((np.int64(2) << best) - 1)
    if s != trump and trump >= 0:
        above |= cards & suit_mask40(trump)
    return above


@njit(cache=True, inline='always')
def is_master(card, unseen):
    """No card of ``unseen`` (cards neither played nor held) outranks ``card`` in its suit."""
    return (unseen & suit_mask40(card // 10) & ~((np.int64(2) << card) - 1)) == 0


# =============================================================================
# shared play heuristics (no state: hand, unseen cards, trick, trump)
# =============================================================================
@njit(cache=True)
def trump_score(hand, suit):
    """Worth of ``suit`` as trump for ``hand``: length first, then the 3, 2, A and figures."""
    m = (hand >> (10 * suit)) & SUIT40
    return (10 * popcount(m) + 8 * ((m >> S_THREE) & 1) + 6 * ((m >> S_TWO) & 1)
            + 5 * ((m >> S_ACE) & 1) + 2 * popcount(m & 0b1110000) + popcount(m & 0b1111) // 2)


@njit(cache=True)
def best_trump(hand):
    """The suit with the highest ``trump_score`` (lowest suit on ties)."""
    best = 0
    bv = -1
    for s in range(4):
        v = trump_score(hand, s)
        if v > bv:
            bv = v
            best = s
    return best


@njit(cache=True, inline='always')
def keep_cost(card, trump):
    """How much a player minds giving ``card`` away: value, rank, trumps, trump 3 and 2."""
    c = 10 * VALUE_THIRDS[card % 10] + card % 10
    if card // 10 == trump:
        c += 40 + (100 if card % 10 >= S_TWO else 0)
    return c


@njit(cache=True)
def cheapest(cards, trump):
    """The card of ``cards`` with the lowest ``keep_cost`` (lowest id on ties)."""
    best = -1
    bc = 1 << 30
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        k = keep_cost(c, trump)
        if k < bc:
            bc = k
            best = c
    return best


@njit(cache=True)
def richest(cards, trump):
    """The card to give a winning partner: most thirds, sparing trumps and their 3 and 2."""
    best = -1
    bv = -(1 << 30)
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        v = 100 * VALUE_THIRDS[c % 10] - keep_cost(c, trump) + 10 * VALUE_THIRDS[c % 10]
        if v > bv:
            bv = v
            best = c
    return best


@njit(cache=True)
def masters(hand, unseen, trump):
    """Non-trump cards of ``hand`` that no unseen card outranks in their suit."""
    out = 0
    m = hand
    while m:
        c = lowbit(m)
        m &= m - 1
        if c // 10 != trump and is_master(c, unseen):
            out |= np.int64(1) << c
    return out


@njit(cache=True, inline='always')
def longest_plain_suit(hand, trump):
    """The plain suit (not ``trump``) of ``hand`` with the most cards, the first of equal ones,
    and its length; (-1, 0) when the hand holds no plain card."""
    long_s = -1
    length = 0
    for s in range(4):
        k = popcount(hand & suit_mask40(s))
        if s != trump and k > length:
            length = k
            long_s = s
    return long_s, length


@njit(cache=True)
def lead_card(hand, unseen, trump):
    """Lead: a master card of the plain suit with the most cards still out (least likely to
    be trumped), else the cheapest card of the longest plain suit, else the cheapest card."""
    best = -1
    most = -1
    m = masters(hand, unseen, trump)
    while m:
        c = lowbit(m)
        m &= m - 1
        out = popcount(unseen & suit_mask40(c // 10))
        if out > most:
            most = out
            best = c
    if best >= 0 and most >= 2:
        return best
    long_s, _ = longest_plain_suit(hand, trump)
    if long_s >= 0:
        low = cheapest(hand & suit_mask40(long_s), trump)
        if VALUE_THIRDS[low % 10] < 3:
            return low
    return cheapest(hand, trump)


@njit(cache=True, inline='always')
def greedy_card(legal, cards, n, trump):
    """Greedy's card among ``legal`` in the trick ``cards[:n]``: leading, the cheapest card;
    following, the cheapest card that takes the trick if one does, else the cheapest."""
    if n == 0:
        return cheapest(legal, trump)
    win = beating_cards(legal, cards[trick_winner(cards, n, trump)], trump)
    return cheapest(win if win else legal, trump)


@njit(cache=True, inline='always')
def trump_honours(trump):
    """The trump 3 and 2, the cards kept for a trick worth them (0 without a trump)."""
    return np.int64(0b1100000000) << (10 * trump) if trump >= 0 else np.int64(0)


@njit(cache=True)
def follow_card(legal, unseen, best, friend_winning, opp_after, trick_thirds, trump, honour_min):
    """Follow: give points to a partner who holds the trick safely, otherwise win cheaply
    (the trump 3 and 2 only for a trick worth ``honour_min`` thirds), otherwise throw the
    cheapest card. ``opp_after``: opponents still to play after this card."""
    if friend_winning:
        safe = opp_after == 0 or (is_master(best, unseen)
                                  and (best // 10 == trump or popcount(unseen & suit_mask40(trump)) == 0))
        return richest(legal, trump) if safe else cheapest(legal, trump)
    win = beating_cards(legal, best, trump)
    if win == 0:
        return cheapest(legal, trump)
    if trick_thirds < honour_min:
        plain = win & ~trump_honours(trump)
        if plain == 0:
            return cheapest(legal, trump)
        win = plain
    if opp_after > 0:
        sure = 0
        m = win
        while m:
            c = lowbit(m)
            m &= m - 1
            if is_master(c, unseen) and (c // 10 == trump or popcount(unseen & suit_mask40(trump)) == 0):
                sure |= np.int64(1) << c
        if sure:
            return cheapest(sure, trump)
        if trick_thirds == 0:
            return cheapest(legal, trump)
    return cheapest(win, trump)


# =============================================================================
# helpers of Marafon's ``expert`` (issue 41; stateless, no existing heuristic uses them)
# =============================================================================
@njit(cache=True)
def void_chance(unseen, suit, held):
    """Chance that a player holding ``held`` of the ``unseen`` cards (a mask: the cards the
    asker cannot place) has none of ``suit``, every deal of them alike (hypergeometric)."""
    u = popcount(unseen)
    s = popcount(unseen & suit_mask40(suit))
    p = 1.0
    for i in range(held):
        if u - i <= 0:
            break
        p *= max(0, u - s - i) / (u - i)
    return p


@njit(cache=True, inline='always')
def ruff_odds(suit, trump, unseen, voids, held):
    """Chance that a seat shown void in the suits of ``voids`` (a 4-bit mask) and holding
    ``held`` cards can ruff a card of ``suit``: 0 for a trump, when no trump is ``unseen`` or the
    seat has shown void in trumps; 1 once it has shown void in ``suit``; else the chance that its
    hand holds none of the unseen cards of ``suit`` (``void_chance``)."""
    if suit == trump or (unseen & suit_mask40(trump)) == 0 or (voids >> trump) & 1:
        return 0.0
    if (voids >> suit) & 1:
        return 1.0
    return void_chance(unseen, suit, held)


@njit(cache=True)
def bank_card(cards, trump, bank):
    """The card of ``cards`` to win a trick with that is sure to stand: the best of ``bank`` x
    10 x its thirds minus its ``keep_cost`` (0: the cheapest, as ``cheapest``; 2: the most
    thirds first, an ace before a figure before a scartino, then the lowest rank; the trump 3
    and 2 last). Lowest id on ties."""
    best = -1
    bv = -1e300
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        v = bank * 10.0 * VALUE_THIRDS[c % 10] - keep_cost(c, trump)
        if v > bv:
            bv = v
            best = c
    return best


@njit(cache=True)
def masters_of(cards, unseen):
    """The cards of ``cards`` that no ``unseen`` card of their suit outranks (``is_master``)."""
    out = np.int64(0)
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        if is_master(c, unseen):
            out |= np.int64(1) << c
    return out
